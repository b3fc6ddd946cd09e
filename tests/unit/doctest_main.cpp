#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <iostream>
#include <string>
#include <vector>

#include "missing_input.h"

namespace {

std::vector<std::string>& skipped() {
  static std::vector<std::string> reasons;
  return reasons;
}

}  // namespace

bool dsls::test::skipWithout(const std::filesystem::path& input) {
  std::error_code ec;
  if (std::filesystem::exists(input, ec)) return false;
  const auto* test = doctest::getContextOptions()->currentTest;
  std::string reason = std::string(test ? test->m_name : "?") + ": " + input.string() + " is missing";
  std::cout << "SKIPPED: " << reason << std::endl;
  skipped().push_back(std::move(reason));
  return true;
}

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  int rc = context.run();
  if (context.shouldExit() || rc != 0 || skipped().empty()) return rc;
  // Nothing failed, but something was not checked: that is a skip, not a pass.
  std::cout << skipped().size() << " test case(s) skipped for missing inputs:\n";
  for (const auto& reason : skipped()) std::cout << "  SKIPPED: " << reason << "\n";
  return dsls::test::kSkipExitCode;
}
