#include "analysis/config/release_range.h"

#include "analysis/facts/rule_id.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <tuple>

namespace dsls::config {

using analysis::Finding;
using analysis::Settings;

namespace {

Settings atRelease(const Settings& settings, const std::string& release) {
  Settings s = settings;
  s.deepspeedVersion = release;
  s.deepspeedRange.clear();
  s.deepspeedReleases.clear();
  return s;
}

// A finding's identity across releases: its code, its place, and its message with the release it
// was found for left out (a rule may give two findings at one place). overlap-comm-race words its
// own message over the range, so its code and place alone identify it.
using Key = std::tuple<std::string, std::size_t, std::size_t, std::string>;

// The message without the release it was found for: "DeepSpeed 0.17.2 defaults ..." (the rules'
// targetLabel, with its source when describeVersion adds one) reads "DeepSpeed defaults ...".
// Only that spelling is taken out, so a threshold the message names ("before 0.19.3") stays.
std::string withoutRelease(std::string message, const Settings& s, const std::string& release) {
  std::string label = "DeepSpeed " + release;
  std::vector<std::string> spellings;
  if (!s.deepspeedVersionSource.empty()) spellings.push_back(label + " (from " + s.deepspeedVersionSource + ")");
  spellings.push_back(label);
  for (const std::string& spelling : spellings)
    for (std::size_t at = message.find(spelling); at != std::string::npos; at = message.find(spelling, at))
      message.replace(at, spelling.size(), "DeepSpeed");
  return message;
}

struct Seen {
  std::vector<std::size_t> releases;  // indices of the admitted releases that give it
  std::vector<Finding> findings;      // one per release in `releases`
  std::string general;                // the message without the release (withoutRelease)
};

std::string codeOf(RuleId id) { return std::string(ruleRow(id).code); }

Finding combine(Seen& seen, const json::Document& doc, const Settings& settings) {
  const std::vector<std::string>& admitted = settings.deepspeedReleases;
  Finding f = seen.findings.front();
  bool same = true;
  for (const Finding& other : seen.findings) same = same && other.message == f.message;
  bool every = seen.releases.size() == admitted.size();
  if (every && same) return f;  // the rule does not depend on the release
  std::string range = fmt::format("`{}`", settings.deepspeedRange);
  if (f.code == codeOf(RuleId::OverlapCommRace)) {
    f.message = overlapRaceRangeMessage(doc, settings, seen.releases);
  } else if (every) {
    f.message = fmt::format("Every release {} allows ({}): {}", range, releaseRuns(admitted, seen.releases),
                            seen.general);
  } else {
    f.message = fmt::format("{} of the {} releases {} allows ({}): {}", seen.releases.size(), admitted.size(), range,
                            releaseRuns(admitted, seen.releases), seen.general);
  }
  if (!every) {
    // An error for some releases only is a warning; a weaker finding keeps its level.
    if (f.severity < analysis::Severity::Warning) f.severity = analysis::Severity::Warning;
    for (auto& fix : f.fixes) fix.safe = false;  // right for some of the releases only
  }
  return f;
}

}  // namespace

std::string releaseRuns(const std::vector<std::string>& admitted, const std::vector<std::size_t>& present) {
  std::string s;
  for (std::size_t i = 0; i < present.size();) {
    std::size_t j = i;
    while (j + 1 < present.size() && present[j + 1] == present[j] + 1) ++j;
    { if (!s.empty()) s += ", "; s += admitted[present[i]]; }
    if (j > i) s.append(" to ").append(admitted[present[j]]);
    i = j + 1;
  }
  return s;
}

std::vector<Finding> findingsOverReleases(std::string_view text, const json::Document& doc, const Settings& settings,
                                          const std::function<void()>& checkCancelled) {
  std::map<Key, Seen> seen;
  std::vector<Key> order;
  const std::vector<std::string>& admitted = settings.deepspeedReleases;
  for (std::size_t r = 0; r < admitted.size(); ++r) {
    Settings s = atRelease(settings, admitted[r]);
    ConfigModel model = buildModel(doc, s);
    RuleContext ctx{text, doc, model, s};
    std::vector<Finding> found;
    for (const auto& rule : configRules()) {
      checkCancelled();
      rule.check(ctx, found);
    }
    for (Finding& f : found) {
      bool ownWording = f.code == codeOf(RuleId::OverlapCommRace);
      std::string general = withoutRelease(f.message, settings, admitted[r]);
      Key key{f.code, f.range.begin, f.range.end, ownWording ? "" : general};
      auto [it, fresh] = seen.try_emplace(key);
      if (fresh) {
        order.push_back(key);
        it->second.general = std::move(general);
      }
      it->second.releases.push_back(r);
      it->second.findings.push_back(std::move(f));
    }
  }
  std::vector<Finding> out;
  for (const Key& key : order) out.push_back(combine(seen[key], doc, settings));
  return out;
}

}  // namespace dsls::config
