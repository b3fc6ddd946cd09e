#include "analysis/embedded/embedded_config.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace dsls::embedded {
namespace {

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `key` written as a config key: a whole word, quoted ("zero_optimization", 'steps_per_print')
// or a keyword (dict(train_batch_size=8)), not a part of another name (per_device_train_batch_size)
// nor an attribute read (args.train_batch_size).
bool writtenAsKey(std::string_view text, std::string_view key) {
  for (std::size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
    const std::size_t end = at + key.size();
    const char before = at > 0 ? text[at - 1] : ' ';
    const char after = end < text.size() ? text[end] : ' ';
    if (isWordChar(before) || isWordChar(after)) continue;
    if ((before == '"' || before == '\'') && after == before) return true;
    std::size_t next = end;
    while (next < text.size() && text[next] == ' ') ++next;
    if (before != '.' && next < text.size() && text[next] == '=' && (next + 1 == text.size() || text[next + 1] != '='))
      return true;
  }
  return false;
}

}  // namespace

bool mentionsDeepSpeedKey(std::string_view text) {
  static constexpr std::array<std::string_view, 6> kKeys = {
      "zero_optimization", "train_micro_batch_size_per_gpu", "train_batch_size", "zero_allow_untested_optimizer",
      "steps_per_print", "gradient_clipping"};
  return std::any_of(kKeys.begin(), kKeys.end(), [&](std::string_view k) { return writtenAsKey(text, k); });
}

}  // namespace dsls::embedded
