#include "analysis/logs/fingerprints/fingerprints.h"

#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace dsls::logs {
namespace {

struct Spec {
  Fp kind;
  std::vector<std::string> literals;  // at least one occurs in every match (exact case)
  const char* pattern;
};

std::vector<Spec> specs() {
  return {
#define DSLS_LITERALS(...) {__VA_ARGS__}
#define DSLS_FINGERPRINT(name, literals, pattern) {Fp::name, literals, pattern},
#include "analysis/logs/fingerprints/fingerprint_table.inc"
#undef DSLS_FINGERPRINT
#undef DSLS_LITERALS
  };
}

RE2::Options patternOptions() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);  // logs are bytes; patterns are ASCII
  o.set_log_errors(false);
  o.set_max_mem(64 << 20);
  return o;
}

// Handlers read captures by name only, so every capturing group must have one.
GroupNames groupNamesOf(const RE2& re, const char* pattern) {
  const int n = re.NumberOfCapturingGroups();
  if (n > kMaxGroups) throw std::logic_error(std::string("too many groups in log fingerprint pattern ") + pattern);
  GroupNames g;
  g.names.resize(static_cast<std::size_t>(n));
  for (const auto& [name, index] : re.NamedCapturingGroups()) g.names[static_cast<std::size_t>(index - 1)] = name;
  for (const auto& name : g.names)
    if (name.empty()) throw std::logic_error(std::string("unnamed group in log fingerprint pattern ") + pattern);
  return g;
}

}  // namespace

std::string_view FpMatch::group(std::string_view name) const {
  if (names)
    for (std::size_t i = 0; i < names->names.size(); ++i)
      if (names->names[i] == name) return values[i];
  throw std::logic_error("log fingerprint has no group named " + std::string(name));
}

std::string_view FpMatch::firstOf(std::initializer_list<std::string_view> candidates) const {
  for (std::string_view name : candidates)
    if (std::string_view v = group(name); v.data() != nullptr) return v;
  return {};
}

struct FingerprintMatcher::Impl {
  std::vector<Fp> kinds;
  std::vector<std::unique_ptr<RE2>> regexes;
  std::vector<GroupNames> groupNames;
  RE2::Set set{patternOptions(), RE2::UNANCHORED};
  std::unique_ptr<LiteralPrefilter> prefilter;

  Impl() {
    std::vector<std::string> literals;
    for (auto& spec : specs()) {
      auto re = std::make_unique<RE2>(spec.pattern, patternOptions());
      std::string error;
      if (!re->ok() || set.Add(spec.pattern, &error) < 0)
        throw std::logic_error("bad log fingerprint pattern: " + std::string(spec.pattern) + " " + error);
      if (static_cast<int>(spec.kind) != static_cast<int>(kinds.size()))
        throw std::logic_error("log fingerprint rows out of order");
      groupNames.push_back(groupNamesOf(*re, spec.pattern));
      kinds.push_back(spec.kind);
      regexes.push_back(std::move(re));
      for (auto& lit : spec.literals) literals.push_back(lit);
    }
    if (!set.Compile()) throw std::runtime_error("log fingerprint set failed to compile");
    prefilter = std::make_unique<LiteralPrefilter>(std::move(literals));
  }

  void capture(std::size_t index, std::string_view message, std::vector<FpMatch>& out) const {
    const RE2& re = *regexes[index];
    // RE2 counts groups as int; the table's patterns have at most kMaxGroups (checked at construction).
    const auto n = static_cast<std::size_t>(re.NumberOfCapturingGroups());
    std::array<re2::StringPiece, kMaxGroups> pieces{};
    std::array<RE2::Arg, kMaxGroups> args;
    std::array<const RE2::Arg*, kMaxGroups> argPtrs{};
    for (std::size_t i = 0; i < n; ++i) {
      args[i] = RE2::Arg(&pieces[i]);
      argPtrs[i] = &args[i];
    }
    if (!RE2::PartialMatchN(re2::StringPiece(message.data(), message.size()), re, argPtrs.data(), static_cast<int>(n))) return;
    FpMatch m;
    m.kind = kinds[index];
    m.names = &groupNames[index];
    for (std::size_t i = 0; i < n; ++i)
      m.values[i] = pieces[i].data() ? std::string_view(pieces[i].data(), pieces[i].size()) : std::string_view{};
    out.push_back(m);
  }
};

FingerprintMatcher::FingerprintMatcher() : impl_(std::make_unique<Impl>()) {}
FingerprintMatcher::~FingerprintMatcher() = default;

const FingerprintMatcher& FingerprintMatcher::shared() {
  static const FingerprintMatcher instance;
  return instance;
}

std::size_t FingerprintMatcher::patternCount() const { return impl_->kinds.size(); }

std::vector<std::string> FingerprintMatcher::literals() const {
  std::vector<std::string> out;
  for (const LiteralPrefilter::Literal& l : impl_->prefilter->literals()) out.push_back(l.text);
  return out;
}

bool FingerprintMatcher::mayMatch(std::string_view message) const { return impl_->prefilter->anyIn(message); }

bool FingerprintMatcher::match(std::string_view message, std::vector<FpMatch>& out) const {
  out.clear();
  if (!impl_->prefilter->anyIn(message)) return false;
  return matchPrefiltered(message, out);
}

bool FingerprintMatcher::matchPrefiltered(std::string_view message, std::vector<FpMatch>& out) const {
  out.clear();
  thread_local std::vector<int> hits;
  hits.clear();
  RE2::Set::ErrorInfo info{RE2::Set::kNoError};
  const re2::StringPiece piece(message.data(), message.size());
  if (!impl_->set.Match(piece, &hits, &info)) {
    if (info.kind == RE2::Set::kNoError) return false;
    // The DFA ran out of memory on a pathological line: try the patterns one by one.
    hits.clear();
    for (std::size_t i = 0; i < impl_->regexes.size(); ++i)
      if (RE2::PartialMatch(piece, *impl_->regexes[i])) hits.push_back(static_cast<int>(i));
  }
  std::sort(hits.begin(), hits.end());
  for (int index : hits) impl_->capture(static_cast<std::size_t>(index), message, out);
  return !out.empty();
}

namespace {

// The same matches with their views moved from one copy of the text to another.
void rebase(const std::vector<FpMatch>& from, std::string_view fromText, std::string_view toText,
            std::vector<FpMatch>& to) {
  to.clear();
  for (const FpMatch& m : from) {
    FpMatch moved = m;
    for (std::string_view& v : moved.values)
      if (v.data() != nullptr) v = toText.substr(static_cast<std::size_t>(v.data() - fromText.data()), v.size());
    to.push_back(moved);
  }
}

}  // namespace

bool MatchMemo::match(std::string_view message, std::vector<FpMatch>& out) {
  out.clear();
  if (!matcher_.mayMatch(message)) return false;
  return matchHoldingLiteral(message, out);
}

bool MatchMemo::matchHoldingLiteral(std::string_view message, std::vector<FpMatch>& out) {
  out.clear();
  if (message.size() > kMaxBytes) return matcher_.matchPrefiltered(message, out);
  const std::size_t hash = std::hash<std::string_view>{}(message);
  Slot& slot = slots_[hash % kSlots];
  if (slot.used && slot.hash == hash && slot.text == message) {
    rebase(slot.matches, slot.text, message, out);
    return !out.empty();
  }
  const bool found = matcher_.matchPrefiltered(message, out);
  slot.used = true;
  slot.hash = hash;
  slot.text.assign(message);
  rebase(out, message, slot.text, slot.matches);
  return found;
}

}  // namespace dsls::logs
