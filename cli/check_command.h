// The entry points of the dsls subcommands.
#pragma once

#include <string>
#include <vector>

namespace dsls::cli {

int runCheck(const std::vector<std::string>& args);
int runRules(const std::vector<std::string>& args);
int runExplain(const std::vector<std::string>& args);
int runSchema(const std::vector<std::string>& args);

}  // namespace dsls::cli
