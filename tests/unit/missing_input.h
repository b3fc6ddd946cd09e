// Inputs that live outside the repository (the shared ds_config corpus) may be absent. A test
// case that needs one calls skipWithout() and returns when it is true: the reason is printed,
// and when the run has no failures the executable exits with kSkipExitCode, which CTest
// reports as Skipped (SKIP_RETURN_CODE) rather than Passed.
#pragma once

#include <filesystem>

namespace dsls::test {

inline constexpr int kSkipExitCode = 77;

// True, with the reason recorded, when `input` does not exist.
bool skipWithout(const std::filesystem::path& input);

}  // namespace dsls::test
