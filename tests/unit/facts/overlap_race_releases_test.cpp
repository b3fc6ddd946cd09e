// The overlap_comm race table that the config rule and the log notes share.
#include <doctest/doctest.h>

#include "analysis/facts/overlap_race_releases.h"

using dsls::analysis::Version;
namespace facts = dsls::facts;

namespace {

Version V(const char* s) { return *Version::parse(s); }

}  // namespace

TEST_CASE("every entry names parseable releases, a stage and a source") {
  for (const facts::RaceBug& bug : facts::raceBugs()) {
    INFO(bug.id);
    CHECK_FALSE(bug.stages.empty());
    CHECK_FALSE(bug.links.empty());
    CHECK(Version::parse(bug.fixed).has_value());
    if (!bug.introduced.empty()) CHECK(*Version::parse(bug.introduced) < facts::fixedIn(bug));
    if (!bug.minTorch.empty()) CHECK(facts::minTorchOf(bug).has_value());
    CHECK(&facts::raceBug(bug.kind) == &bug);
  }
}

TEST_CASE("the releases with every fix, per stage") {
  CHECK(facts::lastFixFor(1) == V("0.19.3"));
  CHECK(facts::lastFixFor(2) == V("0.19.3"));
  CHECK(facts::lastFixFor(3) == V("0.18.8"));
}

TEST_CASE("ZeRO-1/2 claims start at 0.8.0; ZeRO-3 has no lower bound") {
  const auto& allocator = facts::raceBug(facts::RaceBugKind::AllocatorReuse);
  CHECK_FALSE(facts::affectsRelease(allocator, 2, V("0.7.9")));
  CHECK(facts::affectsRelease(allocator, 2, V("0.8.0")));
  CHECK(facts::affectsRelease(allocator, 2, V("0.18.9")));
  CHECK_FALSE(facts::affectsRelease(allocator, 2, V("0.19.0")));
  const auto& pingPong = facts::raceBug(facts::RaceBugKind::PingPongIndex);
  CHECK_FALSE(facts::affectsRelease(pingPong, 2, V("0.17.1")));
  CHECK(facts::affectsRelease(pingPong, 2, V("0.17.4")));
  CHECK_FALSE(facts::affectsRelease(pingPong, 2, V("0.17.5")));
  const auto& zero3 = facts::raceBug(facts::RaceBugKind::Zero3GradStream);
  CHECK_FALSE(facts::claimedFrom(zero3, 3).has_value());
  CHECK(facts::affectsRelease(zero3, 3, V("0.10.0")));
  CHECK_FALSE(facts::affectsRelease(zero3, 3, V("0.18.8")));
  CHECK_FALSE(zero3.needsContiguous);  // the stream wait comes before the contiguous_gradients branch
}
