// Code actions for ds_configs: the fixes carried by findings under the selection, the race
// fixes on a selected overlap_comm / contiguous_gradients key, and fix-all of safe fixes.
#include "analysis/config/config_features.h"
#include "analysis/config/race_fixes.h"
#include "analysis/facts/rule_id.h"
#include "analysis/json/locate.h"

namespace dsls::config {

using analysis::Action;
using analysis::TextRange;

namespace {

bool overlaps(TextRange a, TextRange b) {
  // Empty ranges (a cursor) touch a range they sit on or at the end of.
  return a.begin <= b.end && b.begin <= a.end;
}

Action fromFix(const analysis::Fix& fix, Action::Kind kind, std::vector<std::size_t> findings) {
  return Action{fix.title, kind, fix.edits, fix.preferred, std::move(findings)};
}

}  // namespace

std::vector<Action> actions(const analysis::ConfigAnalysis& a, const std::vector<analysis::Finding>& findings,
                            TextRange selection) {
  std::vector<Action> out;
  bool raceFixOffered = false;
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const auto& f = findings[i];
    if (!overlaps(selection, f.range)) continue;
    for (const auto& fix : f.fixes) out.push_back(fromFix(fix, Action::Kind::QuickFix, {i}));
    raceFixOffered |= f.code == ruleCode(RuleId::OverlapCommRace);
  }
  if (raceFixOffered) return out;

  // No race diagnostic here: still offer turning the flag off on a selected key.
  json::Location loc = json::locate(a.document(), selection.begin);
  if (!loc.member || !loc.onKey || loc.path.size() != 2 || loc.path[0] != "zero_optimization") return out;
  const ConfigModel& m = a.model();
  std::optional<analysis::Fix> fix;
  if (loc.path[1] == "overlap_comm" && m.zero.overlapComm.value == true) fix = overlapCommOffFix(a.text(), m, false);
  if (loc.path[1] == "contiguous_gradients" && m.zero.contiguousGradients.value == true)
    fix = contiguousGradientsOffFix(a.text(), m);
  if (fix) out.push_back(fromFix(*fix, Action::Kind::Refactor, {}));
  return out;
}

}  // namespace dsls::config
