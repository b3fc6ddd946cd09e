#include "analysis/core/settings.h"

#include <array>

namespace dsls::analysis {
namespace {

// In the order of Launcher's values after Unknown.
constexpr std::array<std::string_view, 3> kLauncherWords = {"hf", "accelerate", "deepspeed"};

}  // namespace

std::span<const std::string_view> launcherWords() { return kLauncherWords; }

std::string_view launcherWord(Launcher launcher) {
  if (launcher == Launcher::Unknown) return {};
  return kLauncherWords[static_cast<std::size_t>(launcher) - 1];
}

std::optional<Launcher> parseLauncher(std::string_view word) {
  for (std::size_t i = 0; i < kLauncherWords.size(); ++i)
    if (kLauncherWords[i] == word) return static_cast<Launcher>(i + 1);
  return std::nullopt;
}

}  // namespace dsls::analysis
