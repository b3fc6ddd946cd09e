// The DeepSpeed releases with known overlap_comm gradient races, declared once. The config
// rule and hover (analysis/config/overlap_race.cpp) and the log notes
// (analysis/logs/diagnosis/numerics_notes.cpp) both read this table.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "analysis/core/version.h"

namespace dsls::facts {

using analysis::Version;

enum class RaceBugKind { ReverseWait, PingPongIndex, AllocatorReuse, CompileStreams, Zero3GradStream };

struct RaceBug {
  RaceBugKind kind;
  std::string_view id;          // short handle used in docs: "reverse-wait", ...
  std::string_view summary;     // one plain sentence
  std::vector<int> stages;      // ZeRO stages it hits
  std::string_view introduced;  // first affected DeepSpeed release ("" = long-standing)
  std::string_view fixed;       // first fixed release
  bool needsContiguous;         // needs contiguous_gradients as well as overlap_comm
  bool needsTorchCompile;
  std::string_view minTorch;    // PyTorch release from which it shows ("" = any)
  std::string_view links;       // markdown links to the issues and PRs
};

const std::vector<RaceBug>& raceBugs();
const RaceBug& raceBug(RaceBugKind kind);

// ZeRO-1 ignored overlap_comm and contiguous_gradients before this release (PR #4887).
inline constexpr Version kZero1HonoursOverlapSince{0, 13, 0};
// The documented ZeRO-1/2 races start here (PR #2500); older releases are not claimed.
inline constexpr Version kZero12RacesDocumentedSince{0, 8, 0};

bool hitsStage(const RaceBug& bug, int stage);
Version fixedIn(const RaceBug& bug);
std::optional<Version> minTorchOf(const RaceBug& bug);
// The first release the bug is claimed for at this stage: its own start, or for a long-standing
// ZeRO-1/2 bug the documented start of the races; nullopt = every release before the fix.
std::optional<Version> claimedFrom(const RaceBug& bug, int stage);
// Whether `deepspeed` is in the bug's claimed range at this stage (flags and PyTorch aside).
bool affectsRelease(const RaceBug& bug, int stage, const Version& deepspeed);
// The release with every known fix for this stage (0.19.3 for ZeRO-1/2, 0.18.8 for ZeRO-3).
Version lastFixFor(int stage);

}  // namespace dsls::facts
