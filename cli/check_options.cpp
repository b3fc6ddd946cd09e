#include "cli/check_options.h"

#include "analysis/core/setting_table.h"
#include "workspace/setting_checks.h"
#include "workspace/setting_values.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>

namespace dsls::cli {

namespace {

// The options of `dsls check` that are not settings: how the findings are shown, which files are read.
constexpr const char* kUsageHead =
    "usage: dsls check [options] PATH...\n"
    "\n"
    "Checks ds_config files and training logs. PATH is a file, a folder (searched recursively) or '-'\n"
    "for standard input.\n"
    "\n"
    "options:\n"
    "  --format FORMAT            text (default), json, sarif or github\n"
    "  --fix                      apply every safe fix in place\n"
    "  --diff                     print the safe fixes as a unified diff; write nothing\n"
    "  --fail-on LEVEL            exit 1 on findings at LEVEL or above: error, warning (default),\n"
    "                             information or hint\n"
    "  --include GLOB             in folders, look only at files matching GLOB (repeatable)\n"
    "  --exclude GLOB             skip files and folders matching GLOB (repeatable)\n"
    "  --stdin-filename NAME      the name to use for standard input ('-')\n"
    "  --isolated                 ignore pyproject.toml [tool.dsls] and version pins\n"
    "  --no-gitignore             in folders, also look at untracked files that .gitignore excludes\n"
    "  --no-log-report            text and json: leave out the report that follows each log's findings\n"
    "  --no-progress              no progress line on stderr while a run folder of 256 MB or more is read\n"
    "                             (shown only when stderr is a terminal)\n"
    "  --color WHEN               auto (default: only on a terminal, never with NO_COLOR), always, never\n"
    "  --rule-docs-url URL        base of the rule pages linked from SARIF (default: the shipped docs)\n"
    "\n"
    "settings (each also a key of [tool.dsls] in pyproject.toml and an editor setting; `dsls settings`\n"
    "lists them with their [tool.dsls] and editor names):\n";

constexpr const char* kUsageTail =
    "\n"
    "Settings left unset come from the [tool.dsls] table of the nearest pyproject.toml, then from\n"
    "version pins (requirements*.txt, pyproject.toml, setup.cfg, environment.yml), the nearest\n"
    "folder's first, up to the repository root or the filesystem root.\n"
    "Without --min-severity (or output-severity in [tool.dsls]) every format shows errors and warnings\n"
    "only (the text format counts the rest): notes and hints are for the editor's hover or\n"
    "--min-severity hint.\n"
    "In folders, untracked files that .gitignore files exclude are not looked at (tracked files always\n"
    "are, as git applies ignore patterns).\n"
    "Exit status: 0 no findings at or above --fail-on, 1 findings, 2 usage or I/O error.\n";

// "  --world-size N             the number of ranks ...", the doc wrapped under its column.
std::string usageLine(const analysis::SettingRow& row) {
  constexpr std::size_t kColumn = 29, kWidth = 100;
  std::string out("  ");
  out.append(row.flag);
  if (row.type == analysis::SettingType::Boolean) out.append(", --no-").append(row.flag.substr(2));
  else out.append(" ").append(row.valueName);
  std::string doc(row.doc);
  const auto type = row.type;
  if (type == analysis::SettingType::CodeList || type == analysis::SettingType::GlobList ||
      type == analysis::SettingType::RuleLevels || type == analysis::SettingType::GlobLaunchers)
    doc.append(" (repeatable)");
  std::size_t lineLength = out.size();
  auto newLine = [&] {
    out.append("\n").append(kColumn, ' ');
    lineLength = kColumn;
  };
  if (lineLength + 1 > kColumn) newLine();
  else out.append(kColumn - lineLength, ' '), lineLength = kColumn;
  bool first = true;
  for (std::size_t i = 0; i < doc.size();) {
    std::size_t end = std::min(doc.find(' ', i), doc.size());
    const std::size_t length = end - i;
    if (!first && lineLength + 1 + length > kWidth) newLine();
    else if (!first) out.append(" "), ++lineLength;
    out.append(doc, i, length);
    lineLength += length;
    first = false;
    i = end + 1;
  }
  return out.append("\n");
}

}  // namespace

std::string checkUsage() {
  std::string out = kUsageHead;
  for (const analysis::SettingRow& row : analysis::settingTable())
    if (row.places & analysis::kCommandLine) out += usageLine(row);
  return out + kUsageTail;
}

analysis::Severity leastShownByDefault(const CheckOptions& o) {
  return std::max(analysis::Severity::Warning, o.failOn);
}

std::string severityWord(analysis::Severity s) {
  switch (s) {
    case analysis::Severity::Error: return "error";
    case analysis::Severity::Warning: return "warning";
    case analysis::Severity::Information: return "information";
    case analysis::Severity::Hint: return "hint";
  }
  return "warning";
}

namespace {

std::vector<std::string> splitCodes(const std::string& value) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= value.size()) {
    std::size_t comma = value.find(',', start);
    std::string part = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    while (!part.empty() && part.front() == ' ') part.erase(part.begin());
    while (!part.empty() && part.back() == ' ') part.pop_back();
    if (!part.empty()) out.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// Options that take a value; each setter returns an error message or nothing.
using Setter = std::function<std::optional<std::string>(const std::string&)>;
using Setters = std::map<std::string, Setter>;

// How the findings are shown and when the run fails.
Setters reportOptions(CheckOptions& o) {
  return {
      {"--format",
       [&o](const std::string& v) -> std::optional<std::string> {
         static const std::map<std::string, OutputFormat> formats = {
             {"text", OutputFormat::Text}, {"json", OutputFormat::Json},
             {"sarif", OutputFormat::Sarif}, {"github", OutputFormat::Github}};
         auto it = formats.find(v);
         if (it == formats.end()) return "--format takes text, json, sarif or github, not '" + v + "'";
         o.format = it->second;
         return std::nullopt;
       }},
      {"--fail-on",
       [&o](const std::string& v) -> std::optional<std::string> {
         auto level = workspace::parseRuleLevel(v);
         if (!level || !*level) return "--fail-on takes error, warning, information or hint, not '" + v + "'";
         o.failOn = **level;
         return std::nullopt;
       }},
      {"--color",
       [&o](const std::string& v) -> std::optional<std::string> {
         if (v == "auto") o.color = ColorMode::Auto;
         else if (v == "always") o.color = ColorMode::Always;
         else if (v == "never") o.color = ColorMode::Never;
         else return "--color takes auto, always or never, not '" + v + "'";
         return std::nullopt;
       }},
      {"--rule-docs-url",
       [&o](const std::string& v) -> std::optional<std::string> {
         o.ruleDocsUrl = v;
         if (!o.ruleDocsUrl.empty() && !o.ruleDocsUrl.ends_with("/")) o.ruleDocsUrl += "/";
         return std::nullopt;
       }},
  };
}

// Which files are read, and the name of standard input.
Setters inputOptions(CheckOptions& o) {
  return {
      {"--include",
       [&o](const std::string& v) -> std::optional<std::string> {
         o.include.push_back(v);
         return std::nullopt;
       }},
      {"--exclude",
       [&o](const std::string& v) -> std::optional<std::string> {
         o.exclude.push_back(v);
         return std::nullopt;
       }},
      {"--stdin-filename",
       [&o](const std::string& v) -> std::optional<std::string> {
         o.stdinFilename = v;
         return std::nullopt;
       }},
  };
}

// The value a settings flag gives, as setSetting reads it; lists add to what earlier flags gave.
std::optional<workspace::RawSetting> flagValue(const analysis::SettingRow& row, const std::string& v,
                                               const workspace::SettingValues& given) {
  using analysis::SettingType;
  switch (row.type) {
    case SettingType::PositiveInteger: {
      long long n = 0;
      auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (ec != std::errc() || end != v.data() + v.size()) return workspace::RawSetting(v);  // the check names it
      return workspace::RawSetting(n);
    }
    case SettingType::CodeList: {
      std::vector<std::string> list = splitCodes(v);
      // A select replaces the list it is given, so a second --select carries the first's codes;
      // an ignore adds by itself.
      if (row.id == analysis::SettingId::Select && given.selection.select)
        list.insert(list.begin(), given.selection.select->begin(), given.selection.select->end());
      return workspace::RawSetting(std::move(list));
    }
    case SettingType::GlobList: {
      std::vector<std::string> list = given.settings.configGlobs;
      list.push_back(v);
      return workspace::RawSetting(std::move(list));
    }
    case SettingType::GlobLaunchers:
    case SettingType::RuleLevels: {
      // A glob may hold '=' itself; the value after the last one never does.
      auto eq = row.type == SettingType::GlobLaunchers ? v.rfind('=') : v.find('=');
      if (eq == std::string::npos || eq == 0) return std::nullopt;
      return workspace::RawSetting(std::vector<std::pair<std::string, std::string>>{{v.substr(0, eq), v.substr(eq + 1)}});
    }
    default: return workspace::RawSetting(v);
  }
}

// One setter per settings flag of analysis/core/setting_table.h.
Setters settingOptions(CheckOptions& o) {
  Setters out;
  for (const analysis::SettingRow& row : analysis::settingTable()) {
    if (!(row.places & analysis::kCommandLine) || row.type == analysis::SettingType::Boolean) continue;
    out[std::string(row.flag)] = [&o, &row](const std::string& v) -> std::optional<std::string> {
      auto raw = flagValue(row, v, o.given);
      if (!raw) return std::string(row.flag) + " takes " + std::string(row.valueName) + ", not '" + v + "'";
      auto problems = workspace::setSetting(row, *raw, std::string(row.flag), o.given);
      if (problems.empty()) return std::nullopt;
      const workspace::SettingProblem& first = problems.front();
      // An entry names itself: "--rule overlap-comm-race=loud: must be ...".
      if (!first.subKey.empty()) return std::string(row.flag) + " " + v + ": " + first.message;
      std::string text = workspace::problemText(row.flag, first);
      if (first.message.starts_with("must ")) text += ", not '" + v + "'";
      return text;
    };
  }
  return out;
}

// The boolean settings, as --name and --no-name.
std::map<std::string, std::pair<const analysis::SettingRow*, bool>> booleanFlags() {
  std::map<std::string, std::pair<const analysis::SettingRow*, bool>> out;
  for (const analysis::SettingRow& row : analysis::settingTable()) {
    if (!(row.places & analysis::kCommandLine) || row.type != analysis::SettingType::Boolean) continue;
    out[std::string(row.flag)] = {&row, true};
    out["--no-" + std::string(row.flag.substr(2))] = {&row, false};
  }
  return out;
}

// Every option that takes a value, writing into `o`.
Setters valuedOptions(CheckOptions& o) {
  Setters all = reportOptions(o);
  all.merge(settingOptions(o));
  all.merge(inputOptions(o));
  return all;
}

// The combinations of options that make no sense, as a usage error.
std::optional<std::string> combinationError(const CheckOptions& o) {
  if (o.paths.empty()) return std::string("no PATH given (use '-' for standard input)");
  if (o.fix && o.diff) return std::string("--fix and --diff cannot be used together");
  for (const auto& p : o.paths)
    if (p == "-" && o.fix) return std::string("--fix cannot rewrite standard input; use --diff");
  return std::nullopt;
}

}  // namespace

std::variant<CheckOptions, std::string> parseCheckOptions(const std::vector<std::string>& args) {
  CheckOptions o;
  o.given.settings.commandLine = true;  // messages name the flags and [tool.dsls]
  const Setters valued = valuedOptions(o);
  const auto booleans = booleanFlags();
  const std::map<std::string, bool*> flags = {
      {"--fix", &o.fix}, {"--diff", &o.diff}, {"--isolated", &o.isolated}, {"--help", &o.help}, {"-h", &o.help}};

  bool onlyPaths = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (onlyPaths || a == "-" || !a.starts_with("-")) {
      o.paths.push_back(a);
      continue;
    }
    if (a == "--") {
      onlyPaths = true;
      continue;
    }
    if (a == "--no-log-report") {
      o.logReport = false;
      continue;
    }
    if (a == "--no-gitignore") {
      o.respectGitignore = false;
      continue;
    }
    if (a == "--no-progress") {
      o.progress = false;
      continue;
    }
    if (auto f = flags.find(a); f != flags.end()) {
      *f->second = true;
      continue;
    }
    if (auto b = booleans.find(a); b != booleans.end()) {
      workspace::setSetting(*b->second.first, workspace::RawSetting(b->second.second), a, o.given);
      continue;
    }
    std::string name = a, value;
    bool inlineValue = false;
    if (auto eq = a.find('='); eq != std::string::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
      inlineValue = true;
    }
    auto setter = valued.find(name);
    if (setter == valued.end()) return "unknown option '" + a + "'";
    if (!inlineValue) {
      if (i + 1 >= args.size()) return name + " needs a value";
      value = args[++i];
    }
    if (auto error = setter->second(value)) return *error;
  }
  if (o.help) return o;
  if (auto error = combinationError(o)) return *error;
  return o;
}

}  // namespace dsls::cli
