#include "cli/check_file.h"

#include "analysis/facade/config_detection.h"
#include "analysis/facade/document_analysis.h"
#include "analysis/facade/document_kind.h"
#include "analysis/facade/log_document.h"
#include "analysis/facade/log_stream.h"
#include "analysis/facade/embedded_document.h"
#include "cli/file_source.h"
#include "cli/fixer.h"
#include "cli/unified_diff.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <optional>

namespace dsls::cli {
namespace {

bool hasExtension(const std::string& name, std::initializer_list<const char*> extensions) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* e : extensions)
    if (lower.ends_with(e)) return true;
  return false;
}

// Files found in folders are opened only when their name could belong to a config or a log.
bool worthOpening(const std::string& path, const analysis::Settings& settings) {
  std::string name = std::filesystem::path(path).filename().string();
  return hasExtension(name, {".json", ".jsonc", ".log", ".txt", ".out", ".err"}) || analysis::hostLanguageOf(name, "") ||
         analysis::nameLooksLikeDsConfig(path, settings);
}

// The name detection and settings use: standard input goes by --stdin-filename.
std::string subjectName(const InputFile& input, const CheckOptions& options) {
  return input.isStdin ? options.stdinFilename : input.path;
}

analysis::DocumentKind classify(const std::string& name, const std::string& head, const analysis::Settings& settings) {
  if (!name.empty()) return analysis::classifyDocument(name, "", head, settings);
  // Unnamed standard input: a ds_config if it reads as one, else a log if it reads as one.
  auto kind = analysis::classifyDocument("stdin.json", "json", head, settings);
  if (kind != analysis::DocumentKind::Other) return kind;
  return analysis::classifyDocument("stdin.log", "", head, settings);
}

std::vector<std::size_t> offsetsOf(const std::vector<analysis::Finding>& findings, const std::string& path) {
  std::vector<std::size_t> offsets;
  for (const auto& f : findings) {
    offsets.push_back(f.range.begin);
    offsets.push_back(f.range.end);
    for (const auto& r : f.related)
      if (r.document.empty() || r.document == path) {
        offsets.push_back(r.range.begin);
        offsets.push_back(r.range.end);
      }
    for (const auto& fix : f.fixes)
      for (const auto& e : fix.edits) {
        offsets.push_back(e.range.begin);
        offsets.push_back(e.range.end);
      }
  }
  return offsets;
}

std::vector<std::size_t> startsOf(const std::vector<analysis::Finding>& findings) {
  std::vector<std::size_t> starts;
  for (const auto& f : findings) starts.push_back(f.range.begin);
  return starts;
}

void sortFindings(std::vector<analysis::Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const analysis::Finding& a, const analysis::Finding& b) {
    if (a.range.begin != b.range.begin) return a.range.begin < b.range.begin;
    return a.severity < b.severity;
  });
}

void showProblems(const workspace::ResolvedSettings& resolved, CheckContext& context) {
  for (const auto& p : resolved.problems)
    if (context.reportedProblems.insert(p).second) std::fprintf(stderr, "dsls: warning: %s\n", p.c_str());
  for (const auto& e : resolved.errors)
    if (context.reportedProblems.insert(e).second) std::fprintf(stderr, "dsls: error: %s\n", e.c_str());
}

// Why a named file that detection leaves alone is not checked; nothing when it is JSON (a config
// the user asked for). Only the head is looked at.
std::optional<std::string> whyNotChecked(const std::string& name, const std::string& head) {
  std::string file = std::filesystem::path(name).filename().string();
  bool jsonName = hasExtension(file, {".json", ".jsonc"});
  analysis::ConfigEvidence evidence = analysis::configEvidence(head);
  if (evidence.object) return std::nullopt;
  if (jsonName) return std::string("not a JSON object, so not a ds_config");
  if (hasExtension(file, {".log", ".txt", ".out", ".err"})) {
    if (analysis::classifyDocument("train.log", "", head, {}) == analysis::DocumentKind::Other)
      return std::string("does not look like a training log (no launcher or rank prefix and no known failure line in "
                         "its first 64 KiB)");
    return std::string("a dependency list, not a training log");
  }
  return std::string("neither a ds_config (a JSON object) nor a training log (.log, .txt, .out, .err)");
}

// Findings below the least severity to show (--min-severity, else [tool.dsls] output-severity) are dropped.
void dropBelow(std::vector<analysis::Finding>& findings, std::optional<analysis::Severity> least) {
  if (!least) return;
  std::erase_if(findings, [&](const analysis::Finding& f) { return static_cast<int>(f.severity) > static_cast<int>(*least); });
}

// The least severity shown: --min-severity, else [tool.dsls] output-severity, else warning in the
// machine formats (SARIF and GitHub annotate pull requests; JSON feeds them). The text format
// counts what is below warning instead (its brief mode).
std::optional<analysis::Severity> leastShown(const CheckOptions& options, const workspace::ResolvedSettings& resolved) {
  if (resolved.outputSeverity) return resolved.outputSeverity;
  if (options.format != OutputFormat::Text) return leastShownByDefault(options);
  return std::nullopt;
}

FileOutcome failed(std::string reason) { return {FileStatus::Failed, std::move(reason), {}, {}}; }
FileOutcome skipped(std::string reason) { return {FileStatus::Skipped, std::move(reason), {}, {}}; }

FileOutcome checkConfig(const InputFile& input, const std::string& readPath, const std::string& name,
                        const workspace::ResolvedSettings& resolved, const CheckOptions& options) {
  std::string error;
  auto text = readWholeFile(readPath, kMaxConfigBytes, error);
  if (!text) return failed(error);
  auto keep = [&](const analysis::Finding& f) {
    return workspace::codeSelected(f.code, resolved.select, resolved.ignore);
  };
  // Standard input without a name is still analysed as JSON.
  const std::string documentName = name.empty() ? std::string("stdin.json") : name;
  FixOutcome fixed = analyzeAndFix(documentName, *text, resolved.settings, keep, options.fix || options.diff);

  FileOutcome out;
  out.status = FileStatus::Checked;
  FileReport& r = out.report;
  r.path = input.path;
  r.kind = analysis::DocumentKind::DsConfig;
  r.fixed = fixed.fixed;
  if (fixed.text != *text) {
    if (options.diff) out.diff = unifiedDiff(*text, fixed.text, "a/" + input.path, "b/" + input.path);
    if (options.fix) {
      if (!writeFileAtomically(readPath, fixed.text, error)) return failed("cannot write the fixes: " + error);
      r.written = true;
    }
  }
  r.findings = fixed.analysis->findings;
  dropBelow(r.findings, leastShown(options, resolved));
  // Findings name their document by the analysed name; reports use the shown path.
  for (auto& f : r.findings)
    for (auto& rel : f.related)
      if (rel.document == documentName) rel.document.clear();
  sortFindings(r.findings);
  r.positions = locate(fixed.text, offsetsOf(r.findings, r.path), startsOf(r.findings));
  return out;
}

// A Python source or shell script: read whole, analysed when it writes a config (the cheap
// prefilter runs first). Its fixes are shown, not applied: --fix edits JSON files only.
FileOutcome checkEmbedded(analysis::HostLanguage host, const InputFile& input, const std::string& readPath,
                          const std::string& name, const CheckOptions& options, CheckContext& context) {
  std::string error;
  auto text = readWholeFile(readPath, kMaxConfigBytes, error);
  if (!text) return input.named ? failed(error) : FileOutcome{};
  auto notConfig = [&] { return input.named ? skipped("no DeepSpeed config written in it") : FileOutcome{}; };
  if (!analysis::mayHoldEmbeddedConfig(host, *text)) return notConfig();
  workspace::ResolvedSettings resolved = workspace::resolveSettings(name, options.given, !options.isolated);
  showProblems(resolved, context);
  if (!resolved.errors.empty()) return failed("not checked: " + resolved.projectFile + " [tool.dsls] has invalid values");
  // Parsed once: a text the prefilter passes is analysed as a config's host, Other when it holds none.
  const auto kind = analysis::documentKindOf(host);
  auto analysis = analysis::analyzeDocument(name, "", *text, resolved.settings, kind);
  if (analysis->kind != kind) return notConfig();
  FileOutcome out;
  out.status = FileStatus::Checked;
  FileReport& r = out.report;
  r.path = input.path;
  r.kind = kind;
  r.findings = analysis->findings;
  for (auto& f : r.findings)
    for (auto& fix : f.fixes) fix.safe = false;  // shown, not applied: --fix does not write code
  std::erase_if(r.findings, [&](const analysis::Finding& f) {
    return !workspace::codeSelected(f.code, resolved.select, resolved.ignore);
  });
  dropBelow(r.findings, leastShown(options, resolved));
  sortFindings(r.findings);
  r.positions = locate(*text, offsetsOf(r.findings, r.path), startsOf(r.findings));
  return out;
}

FileOutcome checkLog(const InputFile& input, const std::string& readPath,
                     const workspace::ResolvedSettings& resolved, const CheckOptions& options) {
  analysis::LogStream stream(resolved.settings);
  std::string error;
  std::vector<TextLocator::LineStart> lineStarts;  // one per chunk, for the second pass
  auto feed = [&](std::string_view chunk) {
    stream.feed(chunk);
    TextLocator::LineStart start;
    if (stream.nextLineStart(start.offset, start.line)) lineStarts.push_back(start);
  };
  if (!readChunks(readPath, feed, error)) return failed(error);
  auto report = stream.finish();

  FileOutcome out;
  out.status = FileStatus::Checked;
  FileReport& r = out.report;
  r.path = input.path;
  r.kind = analysis::DocumentKind::Log;
  r.log = report;
  r.findings = analysis::logFindings(*report, input.path);
  selectLogFindings(r.findings, resolved, options);
  if (!locateLogFindings(r, readPath, error, lineStarts)) return failed(error);
  return out;
}

}  // namespace

void showSettingsProblems(const workspace::ResolvedSettings& resolved, CheckContext& context) {
  showProblems(resolved, context);
}

void selectLogFindings(std::vector<analysis::Finding>& findings, const workspace::ResolvedSettings& resolved,
                       const CheckOptions& options) {
  analysis::applyRuleOverrides(findings, resolved.settings);
  std::erase_if(findings, [&](const analysis::Finding& f) {
    return !workspace::codeSelected(f.code, resolved.select, resolved.ignore);
  });
  dropBelow(findings, leastShown(options, resolved));
  sortFindings(findings);
}

bool locateLogFindings(FileReport& r, const std::string& readPath, std::string& error,
                       const std::vector<TextLocator::LineStart>& lineStarts) {
  if (r.findings.empty()) return true;
  // A second pass turns offsets into lines and columns without keeping the log in memory. It
  // reads only from the last line start known before each offset it needs, and stops after
  // the last.
  TextLocator locator(offsetsOf(r.findings, r.path), startsOf(r.findings));
  auto from = [&](std::size_t at) -> std::optional<std::size_t> {
    if (locator.done()) return std::nullopt;
    const std::size_t needed = locator.nextNeeded();
    auto after = std::upper_bound(lineStarts.begin(), lineStarts.end(), needed,
                                  [](std::size_t offset, const TextLocator::LineStart& s) { return offset < s.offset; });
    if (after != lineStarts.begin() && locator.skipTo(*std::prev(after))) return std::prev(after)->offset;
    return at;
  };
  if (!readChunksFrom(readPath, from, [&](std::string_view chunk) { locator.feed(chunk); }, error)) return false;
  locator.finish();
  r.positions = std::move(locator);
  return true;
}

FileOutcome checkFile(const InputFile& input, const std::string& readPath, CheckContext& context) {
  const CheckOptions& options = context.options;
  const std::string name = subjectName(input, options);
  // Where settings are looked up from: the file, or the current folder for unnamed standard input.
  const std::string settingsPath = name.empty() ? std::string("stdin") : name;

  // Detection needs only the config globs; the full settings are resolved for files that get analysed.
  analysis::Settings detection = options.given.settings;
  std::optional<workspace::ProjectSettings> project;
  if (!options.isolated) project = workspace::projectSettingsFor(settingsPath);
  if (detection.configGlobs.empty() && project) detection.configGlobs = project->values.settings.configGlobs;
  if (!input.named && !worthOpening(input.path, detection)) return {};

  if (auto host = analysis::hostLanguageOf(name, ""); host && !input.isStdin)
    return checkEmbedded(*host, input, readPath, name, options, context);

  std::string error;
  auto probe = probeFile(readPath, error);
  if (!probe) return failed(error);
  if (probe->binary) return skipped("binary file (a NUL byte in its first 8 KiB)");
  auto kind = classify(name, probe->head, detection);
  if (kind == analysis::DocumentKind::Other) {
    if (!input.named) return {};
    // A file named on the command line is checked as a config when it is JSON, else skipped with the reason.
    auto reason = whyNotChecked(name.empty() ? std::string("stdin") : name, probe->head);
    if (reason) return skipped(*reason);
    kind = analysis::DocumentKind::DsConfig;
  }
  if (kind == analysis::DocumentKind::DsConfig && probe->size > kMaxConfigBytes)
    return skipped("larger than " + std::to_string(kMaxConfigBytes >> 20) + " MiB, too large for a ds_config");

  workspace::ResolvedSettings resolved =
      workspace::resolveSettings(settingsPath, options.given, !options.isolated);
  showProblems(resolved, context);
  // A wrong rule code or version in [tool.dsls] would silently change what is checked.
  if (!resolved.errors.empty()) return failed("not checked: " + resolved.projectFile + " [tool.dsls] has invalid values");
  if (kind == analysis::DocumentKind::DsConfig) return checkConfig(input, readPath, name, resolved, options);
  return checkLog(input, readPath, resolved, options);
}

}  // namespace dsls::cli
