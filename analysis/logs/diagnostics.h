// Editor-facing views of a LogReport: diagnostics on the evidence lines and a
// hover explanation for the line under the cursor.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/core/finding.h"
#include "analysis/logs/report/log_report.h"

namespace dsls::logs {

// Error at the initiating evidence line; Information on collateral lines with a
// Related entry pointing at the initiating line; other findings at their own
// severity. Codes are "log-" + finding id. `documentName` names the log in the
// related-location messages.
std::vector<analysis::Finding> toDiagnostics(const LogReport& report, std::string_view documentName);
// The diagnostics on the lines of one file of a job (LogReport::files); related lines in the
// job's other files name their file.
std::vector<analysis::Finding> toJobFileDiagnostics(const LogReport& report, std::size_t file);

// Markdown explanation when `byteOffset` lies on an evidence line (end of line included).
std::optional<std::string> hoverAt(const LogReport& report, std::size_t byteOffset);

}  // namespace dsls::logs
