#include "analysis/config/rules/rule_support.h"

#include <algorithm>
#include <cctype>

#include "analysis/config/json_edits.h"

#include <fmt/format.h>

namespace dsls::config::rules {

using analysis::TextEdit;

bool isAuto(const json::Node& n) { return n.kind == json::Kind::String && n.string == "auto"; }
bool isTrue(const json::Node& n) { return n.kind == json::Kind::Bool && n.boolean; }
bool isFalse(const json::Node& n) { return n.kind == json::Kind::Bool && !n.boolean; }

std::optional<double> numberOf(const json::Node& n) {
  if (n.kind == json::Kind::Number) return n.number;
  return std::nullopt;
}

const json::Node* objectOf(const json::Member* member) {
  return member && member->value.kind == json::Kind::Object ? &member->value : nullptr;
}

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        else out += c;
    }
  }
  return out + "\"";
}

std::string_view sourceOf(std::string_view text, const json::Node& n) { return n.raw(text); }

namespace {

void walk(const json::Node& object, const std::string& path, const std::function<bool(const Visit&)>& fn,
          std::size_t depth) {
  if (depth > 64) return;  // ds_configs are shallow; deeper nesting has nothing to judge
  for (const json::Member& m : object.members()) {
    std::string childPath = path.empty() ? std::string(m.key) : path + "." + std::string(m.key);
    Visit v{m, object, path, childPath};
    if (!fn(v)) continue;
    if (m.value.kind == json::Kind::Object) walk(m.value, childPath, fn, depth + 1);
  }
}

}  // namespace

void forEachMember(const json::Node& root, const std::function<bool(const Visit&)>& fn) {
  if (root.kind == json::Kind::Object) walk(root, "", fn, 0);
}

Regime regimeOf(std::string_view sectionPath, const std::optional<catalog::Version>& version) {
  const catalog::SectionInfo* s = catalog::findSection(sectionPath);
  if (!s || !s->strict) return Regime::Lenient;
  if (version) return catalog::strictIn(*s, *version) ? Regime::Strict : Regime::Lenient;
  if (s->strictSince.empty()) return Regime::Strict;
  // Releases before 0.7.0 (mid 2022) are too old to matter when the version is unknown.
  auto since = catalog::Version::parse(s->strictSince);
  if (!since || *since <= catalog::Version{0, 7, 0}) return Regime::Strict;
  return Regime::Depends;
}

std::string_view strictSinceOf(std::string_view sectionPath) {
  const catalog::SectionInfo* s = catalog::findSection(sectionPath);
  return s ? s->strictSince : std::string_view{};
}

std::string sectionLabel(std::string_view sectionPath) {
  return sectionPath.empty() ? std::string("the top level") : std::string(sectionPath);
}

std::string targetLabel(const RuleContext& ctx) {
  if (!ctx.model.deepspeed) return "DeepSpeed (version unknown)";
  return "DeepSpeed " + ctx.model.deepspeed->str();
}

bool versionAtLeast(const RuleContext& ctx, std::string_view release) {
  auto v = catalog::Version::parse(release);
  return ctx.model.deepspeed && v && !(*ctx.model.deepspeed < *v);
}

bool versionBelow(const RuleContext& ctx, std::string_view release) {
  auto v = catalog::Version::parse(release);
  return ctx.model.deepspeed && v && *ctx.model.deepspeed < *v;
}

std::optional<int> knownStage(const RuleContext& ctx) {
  const ZeroModel& z = ctx.model.zero;
  if (z.stage.member && isAuto(z.stage.member->value)) return std::nullopt;
  return z.stage.value;
}

bool autotuningEnabled(const json::Node& root) {
  const json::Node* at = objectOf(root.find("autotuning"));
  if (!at) return false;
  const json::Member* enabled = at->find("enabled");
  return enabled && isTrue(enabled->value);
}

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::size_t lineStart(std::string_view text, std::size_t at) {
  while (at > 0 && text[at - 1] != '\n') --at;
  return at;
}

// True when only blanks stand between the start of the line and `at`.
bool startsLine(std::string_view text, std::size_t at) {
  for (std::size_t i = lineStart(text, at); i < at; ++i)
    if (!blank(text[i])) return false;
  return true;
}

}  // namespace

TextEdit removeMember(std::string_view text, const json::Node& object, const json::Member& member) {
  (void)object;
  std::size_t begin = member.range().begin, end = std::min<std::size_t>(member.range().end, text.size());
  // The comma after the value, if any (only blanks and newlines may stand before it).
  std::size_t p = end;
  while (p < text.size() && (blank(text[p]) || text[p] == '\n')) ++p;
  if (p < text.size() && text[p] == ',') {
    std::size_t after = p + 1;
    std::size_t q = after;
    while (q < text.size() && blank(text[q])) ++q;
    if (startsLine(text, begin) && (q >= text.size() || text[q] == '\n')) {
      // The member has its own lines: take them whole.
      return {{lineStart(text, begin), q < text.size() ? q + 1 : q}, ""};
    }
    return {{begin, q}, ""};
  }
  // The last member: remove the comma before it instead.
  std::size_t q = begin;
  while (q > 0 && (blank(text[q - 1]) || text[q - 1] == '\n')) --q;
  if (q > 0 && text[q - 1] == ',') return {{q - 1, end}, ""};
  // The only member.
  if (startsLine(text, begin)) {
    std::size_t e = end;
    while (e < text.size() && blank(text[e])) ++e;
    if (e < text.size() && text[e] == '\n') return {{lineStart(text, begin), e + 1}, ""};
  }
  return {{begin, end}, ""};
}

std::vector<TextEdit> moveMember(std::string_view text, const json::Node& from, const json::Member& member,
                                 const json::Node& to) {
  std::vector<TextEdit> edits{removeMember(text, from, member)};
  auto inserted = insertMember(text, to, member.key, sourceOf(text, member.value));
  edits.insert(edits.end(), inserted.begin(), inserted.end());
  return edits;
}

TextEdit replaceMember(const json::Member& member, std::string newMemberText) {
  return {member.range(), std::move(newMemberText)};
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace dsls::config::rules
