// Checks of setting values shared by the command line, [tool.dsls] and the editor settings, so
// a wrong value gets the same words wherever it is written.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dsls::workspace {

// Nothing when `value` reads as a release number ("0.14.2", "2.3", "v0.19.3", "0.15.0rc1"),
// else why not: "is not a release number such as 0.14.2".
std::optional<std::string> versionProblem(std::string_view value);

// Nothing when `codeOrGlob` is a rule code dsls reports or a glob matching at least one, else
// "'x' is not a rule code; the nearest is 'y'; `dsls rules` lists them all".
std::optional<std::string> ruleCodeProblem(std::string_view codeOrGlob);

}  // namespace dsls::workspace
