// The subcommand table of the dsls binary, and the three small commands: rules, explain, schema.
#include "cli/commands.h"

#include "analysis/facade/json_schema.h"
#include "analysis/facade/rule_list.h"
#include "cli/check_command.h"
#include "cli/check_options.h"
#include "cli/rule_index.h"
#include "workspace/setting_checks.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace dsls::cli {
namespace {

bool wantsHelp(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") return true;
  return false;
}

int usageError(const char* command, const std::string& message) {
  std::fprintf(stderr, "dsls %s: %s (see dsls %s --help)\n", command, message.c_str(), command);
  return 2;
}

}  // namespace

int runRules(const std::vector<std::string>& args) {
  if (wantsHelp(args)) {
    std::puts("usage: dsls rules [--format text|json]\n\nLists every rule code dsls reports, with its default "
              "severity and summary:\nthe ds_config rules first, then the training-log failures.");
    return 0;
  }
  bool json = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string format;
    if (args[i] == "--format" && i + 1 < args.size()) format = args[++i];
    else if (args[i].starts_with("--format=")) format = args[i].substr(9);
    else return usageError("rules", "unknown argument '" + args[i] + "'");
    if (format != "text" && format != "json") return usageError("rules", "--format takes text or json");
    json = format == "json";
  }
  const auto& rules = analysis::ruleList();
  if (json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& r : rules)
      list.push_back({{"code", r.code},
                      {"severity", severityWord(r.severity)},
                      {"kind", r.log ? "log" : "ds_config"},
                      {"summary", r.summary},
                      {"documented", ruleDocumentation(r.code).has_value()}});
    std::cout << list.dump(2) << "\n";
    return 0;
  }
  std::size_t width = 4;
  for (const auto& r : rules) width = std::max(width, r.code.size());
  bool logHeading = false;
  std::printf("ds_config rules\n");
  for (const auto& r : rules) {
    if (r.log && !logHeading) {
      std::printf("\ntraining-log failures\n");
      logHeading = true;
    }
    std::printf("  %-*s  %-11s  %s\n", static_cast<int>(width), r.code.c_str(), severityWord(r.severity).c_str(),
                r.summary.c_str());
  }
  std::printf("\nRun 'dsls explain CODE' for a rule's documentation.\n");
  return 0;
}

int runExplain(const std::vector<std::string>& args) {
  if (wantsHelp(args)) {
    std::puts("usage: dsls explain CODE\n\nPrints the documentation of a rule (see dsls rules for the codes).");
    return 0;
  }
  if (args.size() != 1) return usageError("explain", "takes exactly one rule code");
  auto text = explainRule(args[0]);
  if (!text) {
    // "'overlap-comm-rase' is not a rule code; the nearest is 'overlap-comm-race'; `dsls rules` lists them all"
    auto problem = workspace::ruleCodeProblem(args[0]);
    return usageError("explain", problem ? *problem : "no rule has the code '" + args[0] + "'");
  }
  std::fputs(text->c_str(), stdout);
  if (!text->ends_with("\n")) std::fputc('\n', stdout);
  return 0;
}

int runSchema(const std::vector<std::string>& args) {
  if (wantsHelp(args)) {
    std::puts("usage: dsls schema\n\nPrints a JSON Schema (draft 2020-12) of ds_config.json: every key dsls knows, "
              "with types,\nallowed values, defaults, descriptions and deprecations.");
    return 0;
  }
  if (!args.empty()) return usageError("schema", "takes no arguments");
  std::cout << analysis::configSchema().dump(2) << "\n";
  return 0;
}

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"check", "check ds_config files and training logs (dsls check --help)", runCheck},
      {"rules", "list the rule codes with their severity and summary", runRules},
      {"explain", "print the documentation of a rule: dsls explain CODE", runExplain},
      {"schema", "print a JSON Schema of ds_config.json", runSchema},
      {"settings", "list the settings: editor, [tool.dsls] and command-line names", runSettings},
  };
  return table;
}

}  // namespace dsls::cli
