// key-too-new and key-removed: known keys that the target DeepSpeed release does not
// have yet, or no longer has. Strict sections reject such keys; lenient ones ignore
// them, so a setting silently does nothing.
#include "analysis/config/rules/rule_support.h"

#include <fmt/format.h>

namespace dsls::config {

using namespace rules;

namespace {

std::string withNote(std::string message, std::string_view note) {
  if (note.empty()) return message + ".";
  return message + " (" + std::string(note) + ").";
}

bool isSection(const catalog::KeyInfo& key) { return key.types == catalog::Object; }

}  // namespace

void checkKeysTooNew(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root || !ctx.model.deepspeed) return;
  const catalog::Version& v = *ctx.model.deepspeed;
  forEachMember(*ctx.model.root, [&](const Visit& visit) {
    const catalog::KeyInfo* key = catalog::findKey(visit.path);
    if (!key) return false;
    auto since = catalog::Version::parse(key->since);
    if (key->since.empty() || !since || !(v < *since)) return true;
    Regime regime = regimeOf(visit.parentPath, ctx.model.deepspeed);
    bool strict = regime == Regime::Strict;
    Severity sev = strict && key->versionNote.empty() ? Severity::Error : Severity::Warning;
    std::string what = isSection(*key) ? "section" : "key";
    std::string msg = fmt::format("\"{}\" is a {} added in DeepSpeed {}: {} {}", visit.member.key, what, key->since,
                                  targetLabel(ctx),
                                  strict ? "rejects it (ValidationError at start-up)" : "ignores it");
    Finding f = makeFinding(RuleId::KeyTooNew, sev, withNote(std::move(msg), key->versionNote), visit.member.keyRange);
    if (!strict) f.tags.push_back(analysis::Tag::Unnecessary);
    out.push_back(std::move(f));
    return false;  // its contents are part of the same problem
  });
}

void checkKeysRemoved(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.model.root) return;
  const std::optional<catalog::Version>& v = ctx.model.deepspeed;
  forEachMember(*ctx.model.root, [&](const Visit& visit) {
    const catalog::KeyInfo* key = catalog::findKey(visit.path);
    if (!key) return false;
    const json::Member& m = visit.member;
    auto fixFor = [&](Finding& f) {
      f.fixes.push_back({fmt::format("Remove \"{}\"", m.key), {removeMember(ctx.text, visit.parent, m)}, true, false});
    };
    if (auto until = catalog::Version::parse(key->until); !key->until.empty() && until) {
      if (v && !(*v < *until)) {
        Regime regime = regimeOf(visit.parentPath, v);
        bool strict = regime == Regime::Strict;
        Finding f = makeFinding(
            RuleId::KeyRemoved, strict ? Severity::Error : Severity::Warning,
            withNote(fmt::format("\"{}\" is not accepted from DeepSpeed {}: {} {}", m.key, key->until, targetLabel(ctx),
                                 strict ? "rejects it (ValidationError at start-up)" : "ignores it"),
                     key->versionNote),
            m.keyRange);
        if (!strict) f.tags.push_back(analysis::Tag::Unnecessary);
        fixFor(f);
        out.push_back(std::move(f));
        return false;
      }
      if (!v) {
        Finding f = makeFinding(
            RuleId::KeyRemoved, Severity::Information,
            withNote(fmt::format("\"{}\" is not accepted from DeepSpeed {} on; set the DeepSpeed version to know "
                                 "whether it applies",
                                 m.key, key->until),
                     key->versionNote),
            m.keyRange);
        out.push_back(std::move(f));
        return false;
      }
    }
    if (auto last = catalog::Version::parse(key->removedAfter); !key->removedAfter.empty() && last && v && *last < *v) {
      Finding f = makeFinding(
          RuleId::KeyRemoved, Severity::Warning,
          fmt::format("\"{}\" was removed on DeepSpeed master after {}, which then rejects the key; {} is newer than "
                      "{}, so it may already reject it.",
                      m.key, key->removedAfter, targetLabel(ctx), key->removedAfter),
          m.keyRange);
      fixFor(f);
      out.push_back(std::move(f));
      return false;
    }
    return true;
  });
}

}  // namespace dsls::config
