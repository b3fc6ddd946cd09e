// The one rule that decides whether a JSON text is a DeepSpeed config (docs/detection.md).
#pragma once

#include <cstddef>
#include <string_view>

namespace dsls::analysis {

// How far into a file the decision looks: the first 64 KiB, which is also what an editor
// client reads when it must decide before attaching.
inline constexpr std::size_t kDetectionPrefixBytes = std::size_t{64} << 10;

struct ConfigEvidence {
  bool object = false;          // the text is a JSON object
  std::size_t keys = 0;         // top-level keys read within the prefix
  std::size_t deepspeedKeys = 0;  // of them, names DeepSpeed knows (at the top level or in a section)
};

// The top-level keys of `text` (its first kDetectionPrefixBytes), counted.
ConfigEvidence configEvidence(std::string_view text);

// A ds_config when its top-level keys are mostly DeepSpeed's (more than half, at least one),
// or when its name matches a config glob and it has at least one DeepSpeed key or no key yet.
bool isDsConfig(const ConfigEvidence& evidence, bool nameMatches);

inline bool jsonLooksLikeDsConfig(std::string_view text, bool nameMatches) {
  return isDsConfig(configEvidence(text), nameMatches);
}

}  // namespace dsls::analysis
