// Subcommands of the dsls binary other than serving LSP (dsls check, rules, explain, schema, settings).
#pragma once

#include <string>
#include <vector>

namespace dsls::cli {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args);  // args after the command name; returns the exit code
};

// dsls settings [--format text|json] (cli/settings_command.cpp).
int runSettings(const std::vector<std::string>& args);

// All subcommands, in the order `dsls --help` lists them.
const std::vector<Command>& commands();

}  // namespace dsls::cli
