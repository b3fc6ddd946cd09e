#include "analysis/config/race_fixes.h"

#include "analysis/config/json_edits.h"

namespace dsls::config {
namespace {

std::optional<analysis::Fix> setFalse(std::string_view text, const ConfigModel& model, const Resolved<bool>& flag,
                                      std::string_view key, std::string title) {
  const json::Member* section = model.zero.section;
  if (!section || section->value.kind != json::Kind::Object) return std::nullopt;
  analysis::Fix fix{std::move(title), {}, false, false};
  if (flag.member) fix.edits.push_back(replaceValue(*flag.member, "false"));
  else fix.edits = insertMember(text, section->value, key, "false");
  return fix;
}

}  // namespace

std::optional<analysis::Fix> overlapCommOffFix(std::string_view text, const ConfigModel& model, bool releaseAffected) {
  if (model.zero.stage.value == 3) {
    // Whether turning the flag off avoids ZeRO-3's race is not established; offer it, unpreferred.
    return setFalse(text, model, model.zero.overlapComm, "overlap_comm",
                    "Set overlap_comm to false (not confirmed to avoid the ZeRO-3 race; upgrading is)");
  }
  auto fix = setFalse(text, model, model.zero.overlapComm, "overlap_comm", "Set overlap_comm to false");
  if (fix) {
    fix->preferred = true;
    // Applied unattended only where the release has the race: there it trades some
    // communication overlap for correct gradients; elsewhere it may only cost speed.
    fix->safe = releaseAffected;
  }
  return fix;
}

std::optional<analysis::Fix> contiguousGradientsOffFix(std::string_view text, const ConfigModel& model) {
  int stage = model.zero.stage.value.value_or(-1);
  if (stage == 3 || ((stage == 1 || stage == 2) && model.zero.optimizerOffloaded)) return std::nullopt;
  if (model.zero.contiguousGradients.value == false) return std::nullopt;
  return setFalse(text, model, model.zero.contiguousGradients, "contiguous_gradients",
                  "Set contiguous_gradients to false (avoids the bucket races, not the allocator race)");
}

}  // namespace dsls::config
