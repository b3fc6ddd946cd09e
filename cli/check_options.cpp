#include "cli/check_options.h"

#include "workspace/setting_checks.h"

#include <charconv>
#include <functional>
#include <map>

namespace dsls::cli {

const char* const kCheckUsage =
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
    "  --min-severity LEVEL       show only findings at LEVEL or above (error, warning, information,\n"
    "                             hint; default: all, or output-severity in [tool.dsls]); without it\n"
    "                             the text output of a folder shows errors and warnings and counts the rest\n"
    "  --select CODE,...          report only these rule codes (globs such as 'log-*' work)\n"
    "  --ignore CODE,...          never report these rule codes\n"
    "  --deepspeed-version V      the DeepSpeed release the configs run with (e.g. 0.14.2)\n"
    "  --torch-version V          the PyTorch release\n"
    "  --world-size N             the number of ranks\n"
    "  --launcher NAME            hf, accelerate or deepspeed\n"
    "  --config-glob GLOB         also take JSON files whose name matches GLOB for ds_configs (repeatable)\n"
    "  --include GLOB             in folders, look only at files matching GLOB (repeatable)\n"
    "  --exclude GLOB             skip files and folders matching GLOB (repeatable)\n"
    "  --stdin-filename NAME      the name to use for standard input ('-')\n"
    "  --isolated                 ignore pyproject.toml [tool.dsls] and version pins\n"
    "  --no-log-report            text and json: leave out the report that follows each log's findings\n"
    "  --no-progress              no progress line on stderr while a run folder of 256 MB or more is read\n"
    "                             (shown only when stderr is a terminal)\n"
    "  --color WHEN               auto (default: only on a terminal, never with NO_COLOR), always, never\n"
    "  --rule-docs-url URL        base of the rule pages linked from SARIF (default: the shipped docs)\n"
    "\n"
    "Settings left unset come from the [tool.dsls] table of the nearest pyproject.toml, then from\n"
    "version pins (requirements*.txt, pyproject.toml, setup.cfg, environment.yml), the nearest\n"
    "folder's first, up to the repository root or the filesystem root.\n"
    "In folders, files that .gitignore files exclude are not looked at.\n"
    "Exit status: 0 no findings at or above --fail-on, 1 findings, 2 usage or I/O error.\n";

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
      {"--min-severity",
       [&o](const std::string& v) -> std::optional<std::string> {
         auto level = workspace::parseRuleLevel(v);
         if (!level || !*level) return "--min-severity takes error, warning, information or hint, not '" + v + "'";
         o.minSeverity = **level;
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

// Which rule codes are reported.
Setters ruleOptions(CheckOptions& o) {
  return {
      {"--select",
       [&o](const std::string& v) -> std::optional<std::string> {
         if (!o.rules.select) o.rules.select.emplace();
         for (auto& c : splitCodes(v)) {
           if (auto problem = workspace::ruleCodeProblem(c)) return "--select: " + *problem;
           o.rules.select->push_back(c);
         }
         return std::nullopt;
       }},
      {"--ignore",
       [&o](const std::string& v) -> std::optional<std::string> {
         for (auto& c : splitCodes(v)) {
           if (auto problem = workspace::ruleCodeProblem(c)) return "--ignore: " + *problem;
           o.rules.ignore.push_back(c);
         }
         return std::nullopt;
       }},
  };
}

// The run the files belong to, as the settings would give it.
Setters runOptions(CheckOptions& o) {
  return {
      {"--deepspeed-version",
       [&o](const std::string& v) -> std::optional<std::string> {
         if (auto problem = workspace::versionProblem(v)) return "--deepspeed-version: " + *problem;
         o.base.deepspeedVersion = v;
         o.base.deepspeedVersionSource = "--deepspeed-version";
         return std::nullopt;
       }},
      {"--torch-version",
       [&o](const std::string& v) -> std::optional<std::string> {
         if (auto problem = workspace::versionProblem(v)) return "--torch-version: " + *problem;
         o.base.torchVersion = v;
         o.base.torchVersionSource = "--torch-version";
         return std::nullopt;
       }},
      {"--world-size",
       [&o](const std::string& v) -> std::optional<std::string> {
         long long n = 0;
         auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
         if (ec != std::errc() || end != v.data() + v.size() || n <= 0)
           return "--world-size takes a positive integer, not '" + v + "'";
         o.base.worldSize = n;
         return std::nullopt;
       }},
      {"--launcher",
       [&o](const std::string& v) -> std::optional<std::string> {
         if (v != "hf" && v != "accelerate" && v != "deepspeed")
           return "--launcher takes hf, accelerate or deepspeed, not '" + v + "'";
         o.base.launcher = v;
         return std::nullopt;
       }},
  };
}

// Which files are read, and the name of standard input.
Setters inputOptions(CheckOptions& o) {
  return {
      {"--config-glob",
       [&o](const std::string& v) -> std::optional<std::string> {
         if (v.empty()) return std::string("--config-glob needs a non-empty glob");
         o.base.configGlobs.push_back(v);
         return std::nullopt;
       }},
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

// Every option that takes a value, writing into `o`.
Setters valuedOptions(CheckOptions& o) {
  Setters all = reportOptions(o);
  all.merge(ruleOptions(o));
  all.merge(runOptions(o));
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
  o.base.commandLine = true;  // messages name the flags and [tool.dsls]
  const Setters valued = valuedOptions(o);
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
    if (a == "--no-progress") {
      o.progress = false;
      continue;
    }
    if (auto f = flags.find(a); f != flags.end()) {
      *f->second = true;
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
