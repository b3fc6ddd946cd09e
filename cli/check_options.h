// The options of `dsls check`, parsed from its arguments.
#pragma once

#include "analysis/core/finding.h"
#include "analysis/core/settings.h"
#include "workspace/project_settings.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace dsls::cli {

enum class OutputFormat { Text, Json, Sarif, Github };
enum class ColorMode { Auto, Always, Never };

struct CheckOptions {
  std::vector<std::string> paths;
  std::string stdinFilename;  // names standard input for detection, settings and reports
  std::vector<std::string> include, exclude;
  OutputFormat format = OutputFormat::Text;
  ColorMode color = ColorMode::Auto;
  bool fix = false;
  bool diff = false;
  bool isolated = false;       // read no pyproject.toml and no version pins
  bool logReport = true;       // text/json: include the log report of each log
  bool progress = true;        // --no-progress: no progress line on stderr for large run folders
  bool respectGitignore = true;  // --no-gitignore: walk what .gitignore files exclude too
  workspace::SettingValues given;  // the settings flags (analysis/core/setting_table.h); --min-severity too
  analysis::Severity failOn = analysis::Severity::Warning;
  std::string ruleDocsUrl;     // base URL of the rule pages for SARIF; empty = the shipped docs
  bool help = false;
  bool folderGiven = false;  // a PATH is a folder: the text output leads with errors and warnings
};

// The options, or a usage error message.
std::variant<CheckOptions, std::string> parseCheckOptions(const std::vector<std::string>& args);

// `dsls check --help`: its own options, then one line per setting of analysis/core/setting_table.h.
std::string checkUsage();

std::string severityWord(analysis::Severity s);

// The least severity shown without --min-severity or output-severity: warning, or a --fail-on
// below it (the output shows what it fails on).
analysis::Severity leastShownByDefault(const CheckOptions& o);  // "error", "warning", "information", "hint"

}  // namespace dsls::cli
