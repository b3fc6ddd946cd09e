#include "analysis/facade/embedded_document.h"

#include "analysis/config/config_analysis.h"
#include "analysis/config/config_features.h"
#include "analysis/facts/rule_id.h"
#include "analysis/facade/config_detection.h"
#include "analysis/python/config_dicts.h"
#include "analysis/shell/shell_configs.h"
#include "analysis/yaml/accelerate_config.h"

#include <algorithm>

namespace dsls::analysis {

struct HostedConfig {
  embedded::EmbeddedConfig dict;
  std::shared_ptr<const ConfigAnalysis> analysis;
  std::vector<Finding> findings;  // in host offsets; fixes whose edits do not map are left out
  // Per finding of the analysis, its index in `findings`; none for one left out.
  std::vector<std::optional<std::size_t>> shownAs;
};

struct EmbeddedConfigs {
  std::vector<HostedConfig> configs;
};

namespace {

// The same rule as for a JSON document that no name marks as a config.
bool projectionIsConfig(std::string_view json) { return jsonLooksLikeDsConfig(json, false); }

std::optional<Fix> fixInSource(const Fix& fix, const embedded::SourceMap& map) {
  Fix out = fix;
  out.edits.clear();
  for (const TextEdit& e : fix.edits) {
    auto mapped = map.toSource(e);
    if (!mapped) return std::nullopt;
    out.edits.push_back(std::move(*mapped));
  }
  return out;
}

Finding findingInSource(const Finding& f, const embedded::SourceMap& map) {
  Finding out = f;
  out.range = map.toSource(f.range);
  for (auto& r : out.related)
    if (r.document.empty()) r.range = map.toSource(r.range);
  out.fixes.clear();
  for (const Fix& fix : f.fixes)
    if (auto mapped = fixInSource(fix, map)) out.fixes.push_back(std::move(*mapped));
  return out;
}

// The config whose dict holds `offset`.
const HostedConfig* configAt(const EmbeddedConfigs& p, std::size_t offset) {
  for (const auto& c : p.configs)
    if (c.dict.source.begin <= offset && offset < c.dict.source.end) return &c;
  return nullptr;
}

std::vector<embedded::EmbeddedConfig> findConfigs(HostLanguage host, std::string_view text) {
  switch (host) {
    case HostLanguage::Python: return python::findConfigDicts(text, projectionIsConfig);
    case HostLanguage::Shell: return shell::findShellConfigs(text, projectionIsConfig);
    case HostLanguage::AccelerateYaml: {
      auto config = yaml::findAccelerateConfig(text);
      if (!config) return {};
      std::vector<embedded::EmbeddedConfig> out;
      out.push_back(std::move(*config));
      return out;
    }
  }
  return {};
}

}  // namespace

bool mayHoldEmbeddedConfig(HostLanguage host, std::string_view text) {
  return host == HostLanguage::AccelerateYaml ? yaml::mentionsAccelerateDeepSpeed(text) : embedded::mentionsDeepSpeedKey(text);
}

namespace {
// The settings a config is analysed with: Accelerate's YAML says who fills its "auto" values.
Settings settingsFor(HostLanguage host, const Settings& settings) {
  if (host != HostLanguage::AccelerateYaml || settings.launcher != Launcher::Unknown) return settings;
  Settings out = settings;
  out.launcher = Launcher::Accelerate;
  out.launcherSource = "this Accelerate config file";
  return out;
}
}  // namespace

bool holdsEmbeddedConfig(HostLanguage host, std::string_view text) {
  return mayHoldEmbeddedConfig(host, text) && !findConfigs(host, text).empty();
}

std::shared_ptr<const EmbeddedConfigs> analyzeEmbedded(HostLanguage host, std::string_view text,
                                                       const Settings& settings, const Cancellation& cancel) {
  auto out = std::make_shared<EmbeddedConfigs>();
  if (!mayHoldEmbeddedConfig(host, text)) return nullptr;
  const Settings hostSettings = settingsFor(host, settings);
  for (auto& dict : findConfigs(host, text)) {
    HostedConfig c;
    c.analysis = std::make_shared<ConfigAnalysis>(std::make_shared<const std::string>(dict.json), hostSettings, cancel);
    // Unknown values are what code and scripts are made of: the template notice of a JSON file says nothing here.
    // Nor does a finding on what the host supplies by itself (Accelerate's own keys).
    for (const Finding& f : c.analysis->findings()) {
      const bool shown = f.code != config::ruleCode(config::RuleId::ConfigTemplate) && dict.map.writtenByHost(f.range);
      c.shownAs.push_back(shown ? std::optional(c.findings.size()) : std::nullopt);
      if (shown) c.findings.push_back(findingInSource(f, dict.map));
    }
    c.dict = std::move(dict);
    out->configs.push_back(std::move(c));
  }
  if (out->configs.empty()) return nullptr;
  return out;
}

std::vector<Finding> embeddedFindings(const EmbeddedConfigs& p) {
  std::vector<Finding> all;
  for (const auto& c : p.configs) all.insert(all.end(), c.findings.begin(), c.findings.end());
  return all;
}

std::optional<HoverInfo> embeddedHover(const EmbeddedConfigs& p, std::size_t offset) {
  const HostedConfig* c = configAt(p, offset);
  if (!c || c->analysis->syntaxOnly()) return std::nullopt;
  auto json = c->dict.map.toJson(offset);
  if (!json) return std::nullopt;
  auto hover = config::hover(*c->analysis, c->analysis->findings(), *json);
  if (hover) hover->range = c->dict.map.toSource(hover->range);
  return hover;
}

std::vector<Action> embeddedActions(const EmbeddedConfigs& p, TextRange selection) {
  std::vector<Action> out;
  std::size_t firstFinding = 0;  // where this config's findings start in the merged list
  for (const auto& c : p.configs) {
    auto json = c.dict.map.toJson(selection);
    if (json) {
      for (Action a : config::actions(*c.analysis, c.analysis->findings(), *json)) {
        std::vector<TextEdit> edits;
        for (const TextEdit& e : a.edits)
          if (auto mapped = c.dict.map.toSource(e)) edits.push_back(std::move(*mapped));
        if (edits.size() != a.edits.size() || edits.empty()) continue;
        a.edits = std::move(edits);
        std::vector<std::size_t> resolved;
        for (std::size_t i : a.findings)
          if (i < c.shownAs.size() && c.shownAs[i]) resolved.push_back(*c.shownAs[i] + firstFinding);
        a.findings = std::move(resolved);
        out.push_back(std::move(a));
      }
    }
    firstFinding += c.findings.size();
  }
  return out;
}

std::vector<InlayHintInfo> embeddedInlayHints(const EmbeddedConfigs& p, TextRange visible) {
  std::vector<InlayHintInfo> out;
  for (const auto& c : p.configs) {
    if (c.analysis->syntaxOnly()) continue;
    for (InlayHintInfo h : config::inlayHints(*c.analysis, {0, c.dict.json.size()})) {
      h.offset = c.dict.map.toSource(TextRange{h.offset > 0 ? h.offset - 1 : 0, h.offset}).end;
      if (h.offset >= visible.begin && h.offset <= visible.end) out.push_back(std::move(h));
    }
  }
  return out;
}

}  // namespace dsls::analysis
