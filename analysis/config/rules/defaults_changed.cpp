// default-changed: a key left unset whose DeepSpeed default differs from what the
// documentation says or changed in a way that can break runs: gradient_clipping (0.0
// before 0.19.3, documented as 1.0), steps_per_print (none from 0.15.2, documented as
// 10), offload pin_memory (true from 0.19.5). Only said when the target version is known.
#include "analysis/config/rules/rule_support.h"

#include <fmt/format.h>

namespace dsls::config {

using namespace rules;

namespace {

analysis::TextRange openingBrace(const json::Node& root) { return {root.range.begin, root.range.begin + 1}; }

}  // namespace

void checkDefaultChanged(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root || !ctx.model.deepspeed) return;
  const json::Node& root = *ctx.model.root;
  std::string target = targetLabel(ctx);

  // From 0.19.3 the default (1.0) is what the documentation always said; before, it silently was 0.0.
  if (!root.find("gradient_clipping") && versionBelow(ctx, "0.19.3")) {
    out.push_back(makeFinding(RuleId::DefaultChanged,
                              fmt::format("gradient_clipping is not set, so {} does not clip gradients: the default "
                                          "is 0.0 before 0.19.3, although the documentation says 1.0. Set it if you "
                                          "expect clipping.",
                                          target),
                              openingBrace(root)));
  }

  bool launcherSetsIt = analysis::hfFillsAuto(ctx.settings.launcher);
  if (!root.find("steps_per_print") && !launcherSetsIt && versionAtLeast(ctx, "0.15.2")) {
    out.push_back(makeFinding(RuleId::DefaultChanged,
                              fmt::format("steps_per_print is not set, so {} prints no periodic progress line (the "
                                          "default is none from 0.15.2, although the documentation says 10). Set it "
                                          "to see step, loss-scale and learning-rate lines.",
                                          target),
                              openingBrace(root)));
  }

  std::optional<int> stage = knownStage(ctx);
  if (versionAtLeast(ctx, "0.19.5")) {
    if (const json::Node* zero = objectOf(ctx.model.zero.section)) {
      for (std::string_view block : {"offload_optimizer", "offload_param"}) {
        // An offload the stage never uses is reported by ignored-at-stage; its pinning does not matter.
        if (stage && (*stage == 0 || (block == "offload_param" && *stage != 3))) continue;
        const json::Node* offload = objectOf(zero->find(block));
        if (!offload || offload->find("pin_memory")) continue;
        const json::Member* device = offload->find("device");
        if (!device || device->value.kind != json::Kind::String ||
            (device->value.string != "cpu" && device->value.string != "nvme"))
          continue;
        out.push_back(makeFinding(
            RuleId::DefaultChanged,
            fmt::format("{}.pin_memory is not set, so {} pins the offloaded host memory (the default changed from "
                        "false to true in 0.19.5). Pinned memory counts against ulimit -l and cannot be swapped; set "
                        "pin_memory to false on memory-limited hosts.",
                        block, target),
            zero->find(block)->keyRange));
      }
    }
  }
}

}  // namespace dsls::config
