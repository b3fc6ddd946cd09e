#include "analysis/facade/config_detection.h"

#include "analysis/catalog/catalog.h"
#include "analysis/facade/top_level_keys.h"

namespace dsls::analysis {
namespace {

// A name DeepSpeed reads at the top level: a key or a section (aliases included). Keys of a
// section are not counted: many are common words ("type", "enabled", "params").
bool isDeepSpeedName(std::string_view key) {
  if (key.empty() || key.find('.') != std::string_view::npos || key.find('\\') != std::string_view::npos) return false;
  return catalog::findKey(key) != nullptr || catalog::findSection(key) != nullptr;
}

}  // namespace

ConfigEvidence configEvidence(std::string_view text) {
  ConfigEvidence evidence;
  TopLevelScan scan = scanTopLevelKeys(text, kDetectionPrefixBytes, [&](std::string_view key) {
    if (isDeepSpeedName(key)) ++evidence.deepspeedKeys;
    return true;
  });
  evidence.object = scan.object;
  evidence.keys = scan.keys;
  return evidence;
}

bool isDsConfig(const ConfigEvidence& e, bool nameMatches) {
  if (!e.object) return false;
  if (nameMatches) return e.deepspeedKeys >= 1 || e.keys == 0;
  return e.deepspeedKeys >= 1 && 2 * e.deepspeedKeys > e.keys;
}

}  // namespace dsls::analysis
