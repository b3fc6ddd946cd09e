#include "analysis/core/version_spec.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace dsls::analysis {
namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Reads digits at `pos`; nullopt when there are none or too many for a release number.
std::optional<long> number(std::string_view s, std::size_t& pos) {
  std::size_t start = pos;
  long value = 0;
  while (pos < s.size() && isDigit(s[pos])) {
    if (pos - start >= 9) return std::nullopt;
    value = value * 10 + (s[pos++] - '0');
  }
  if (pos == start) return std::nullopt;
  return value;
}

bool skipSeparator(std::string_view s, std::size_t& pos) {
  if (pos < s.size() && (s[pos] == '.' || s[pos] == '-' || s[pos] == '_')) return ++pos, true;
  return false;
}

// Matches one of `words` (lower case) at `pos`, longest first; returns its index.
int word(std::string_view s, std::size_t& pos, std::initializer_list<std::string_view> words) {
  int index = 0, best = -1;
  std::size_t bestLength = 0;
  for (std::string_view w : words) {
    bool match = pos + w.size() <= s.size();
    for (std::size_t i = 0; match && i < w.size(); ++i) match = lower(s[pos + i]) == w[i];
    if (match && w.size() > bestLength) best = index, bestLength = w.size();
    ++index;
  }
  pos += bestLength;
  return best;
}

// The optional number after a pre/post/dev word ("rc1", "rc.1", "rc" = rc0).
long labelNumber(std::string_view s, std::size_t& pos) {
  std::size_t save = pos;
  skipSeparator(s, pos);
  if (auto n = number(s, pos)) return *n;
  pos = save;
  return 0;
}

bool parseSuffixes(std::string_view s, std::size_t& pos, PepVersion& v) {
  std::size_t save = pos;
  skipSeparator(s, pos);
  // alpha, beta, c, pre, preview are PEP 440 spellings of a, b, rc.
  static constexpr int kPreKind[] = {0, 0, 1, 1, 2, 2, 2, 2};
  int pre = word(s, pos, {"a", "alpha", "b", "beta", "c", "rc", "pre", "preview"});
  if (pre >= 0) {
    v.preKind = kPreKind[pre];
    v.pre = labelNumber(s, pos);
  } else {
    pos = save;
  }
  save = pos;
  if (pos < s.size() && s[pos] == '-' && pos + 1 < s.size() && isDigit(s[pos + 1])) {
    ++pos;
    v.post = number(s, pos);
  } else {
    skipSeparator(s, pos);
    if (word(s, pos, {"post", "rev", "r"}) >= 0) v.post = labelNumber(s, pos);
    else pos = save;
  }
  save = pos;
  skipSeparator(s, pos);
  if (word(s, pos, {"dev"}) >= 0) v.dev = labelNumber(s, pos);
  else pos = save;
  if (pos < s.size() && s[pos] == '+') {
    if (pos + 1 == s.size()) return false;
    for (std::size_t i = pos + 1; i < s.size(); ++i)
      if (!std::isalnum(static_cast<unsigned char>(s[i])) && s[i] != '.' && s[i] != '-' && s[i] != '_') return false;
    pos = s.size();
  }
  return pos == s.size();
}

long part(const std::vector<long>& release, std::size_t i) { return i < release.size() ? release[i] : 0; }

std::strong_ordering compareRelease(const std::vector<long>& a, const std::vector<long>& b) {
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i)
    if (auto c = part(a, i) <=> part(b, i); c != 0) return c;
  return std::strong_ordering::equal;
}

// The candidate's release starts with `prefix` (zero-padded, as "==0.14.*" reads "0.14").
bool hasPrefix(const PepVersion& v, const std::vector<long>& prefix) {
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (part(v.release, i) != prefix[i]) return false;
  return true;
}

bool equalsIgnoringLocal(const PepVersion& a, const PepVersion& b) { return a == b; }

}  // namespace

std::optional<PepVersion> PepVersion::parse(std::string_view text) {
  text = trim(text);
  PepVersion v;
  v.text = std::string(text);
  if (!text.empty() && (text.front() == 'v' || text.front() == 'V')) text.remove_prefix(1);
  std::size_t pos = 0;
  while (true) {
    auto n = number(text, pos);
    if (!n) return std::nullopt;
    v.release.push_back(*n);
    if (pos + 1 < text.size() && text[pos] == '.' && isDigit(text[pos + 1])) {
      ++pos;
      continue;
    }
    break;
  }
  if (!parseSuffixes(text, pos, v)) return std::nullopt;
  return v;
}

PepVersion PepVersion::base() const {
  PepVersion b;
  b.release = release;
  b.text = text;
  return b;
}

Version PepVersion::toVersion() const {
  auto narrow = [&](std::size_t i) { return static_cast<int>(part(release, i)); };
  return Version{narrow(0), narrow(1), narrow(2)};
}

std::strong_ordering PepVersion::operator<=>(const PepVersion& other) const {
  if (auto c = compareRelease(release, other.release); c != 0) return c;
  // A dev release of the final ("1.0.dev0") sorts before its pre-releases; no pre sorts after them.
  auto preKey = [](const PepVersion& v) -> std::pair<int, long> {
    if (v.preKind >= 0) return {v.preKind, v.pre};
    if (!v.post && v.dev) return {-1, 0};
    return {3, 0};
  };
  if (auto c = preKey(*this) <=> preKey(other); c != 0) return c;
  auto postKey = [](const PepVersion& v) { return v.post ? *v.post : -1L; };
  if (auto c = postKey(*this) <=> postKey(other); c != 0) return c;
  auto devKey = [](const PepVersion& v) { return v.dev ? *v.dev : std::numeric_limits<long>::max(); };
  return devKey(*this) <=> devKey(other);
}

bool VersionClause::admits(const PepVersion& c) const {
  using enum Op;
  const PepVersion& v = version;
  switch (op) {
    case Equal: return wildcard ? hasPrefix(c, v.release) : equalsIgnoringLocal(c, v);
    case NotEqual: return wildcard ? !hasPrefix(c, v.release) : !equalsIgnoringLocal(c, v);
    case AtLeast: return c >= v;
    case AtMost: return c <= v;
    // >V takes no post-release of V, <V no pre-release of V, unless V is one itself.
    case Above: return c > v && !(!v.post && c.post && compareRelease(c.release, v.release) == 0);
    case Below: return c < v && !(!v.isPrerelease() && c.isPrerelease() && compareRelease(c.release, v.release) == 0);
    case Compatible: {
      std::vector<long> prefix(v.release.begin(), v.release.end() - 1);
      return c >= v && hasPrefix(c, prefix);
    }
    case Identical: {
      std::string a = c.text, b = v.text;
      std::transform(a.begin(), a.end(), a.begin(), lower);
      std::transform(b.begin(), b.end(), b.begin(), lower);
      return a == b;
    }
  }
  return false;
}

namespace {

struct OpSpelling {
  std::string_view text;
  VersionClause::Op op;
};
// Longest spellings first, so "===" is not read as "==" and "=".
constexpr OpSpelling kOps[] = {
    {"===", VersionClause::Op::Identical}, {"~=", VersionClause::Op::Compatible}, {"==", VersionClause::Op::Equal},
    {"!=", VersionClause::Op::NotEqual},   {">=", VersionClause::Op::AtLeast},    {"<=", VersionClause::Op::AtMost},
    {">", VersionClause::Op::Above},       {"<", VersionClause::Op::Below},
};

std::optional<VersionClause> parseClause(std::string_view text) {
  text = trim(text);
  VersionClause clause;
  const OpSpelling* spelling = nullptr;
  for (const OpSpelling& s : kOps)
    if (text.substr(0, s.text.size()) == s.text) {
      spelling = &s;
      break;
    }
  if (!spelling) return std::nullopt;
  clause.op = spelling->op;
  std::string_view version = trim(text.substr(spelling->text.size()));
  if (version.empty()) return std::nullopt;
  for (char c : version)
    if (std::isspace(static_cast<unsigned char>(c))) return std::nullopt;
  using enum VersionClause::Op;
  if (clause.op == Identical) {
    clause.version.text = std::string(version);
    if (auto v = PepVersion::parse(version)) clause.version = *v;
  } else {
    bool star = version.size() > 2 && version.substr(version.size() - 2) == ".*";
    if (star && clause.op != Equal && clause.op != NotEqual) return std::nullopt;
    auto v = PepVersion::parse(star ? version.substr(0, version.size() - 2) : version);
    if (!v) return std::nullopt;
    if (star && (v->isPrerelease() || v->post)) return std::nullopt;
    if (clause.op == Compatible && v->release.size() < 2) return std::nullopt;
    clause.version = *v;
    clause.wildcard = star;
  }
  clause.text = spelling->text;
  clause.text += version;
  return clause;
}

}  // namespace

std::optional<VersionSpec> VersionSpec::parse(std::string_view text, std::string* error) {
  VersionSpec spec;
  if (trim(text).empty()) return spec;
  while (true) {
    std::size_t comma = text.find(',');
    std::string_view piece = text.substr(0, comma);
    auto clause = parseClause(piece);
    if (!clause) {
      if (error) {
        error->assign(1, '`');
        error->append(trim(piece));
        error->append("` is not a version specifier");
      }
      return std::nullopt;
    }
    spec.clauses_.push_back(std::move(*clause));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return spec;
}

bool VersionSpec::allowsPrereleases() const {
  return std::any_of(clauses_.begin(), clauses_.end(), [](const VersionClause& c) {
    return c.op != VersionClause::Op::NotEqual && c.version.isPrerelease();
  });
}

bool VersionSpec::admits(const PepVersion& candidate) const {
  if (candidate.isPrerelease() && !allowsPrereleases()) return false;
  return std::all_of(clauses_.begin(), clauses_.end(), [&](const VersionClause& c) { return c.admits(candidate); });
}

std::string VersionSpec::text() const {
  std::string s;
  for (const VersionClause& c : clauses_) {
    if (!s.empty()) s += ',';
    s += c.text;
  }
  return s;
}

std::optional<PepVersion> VersionSpec::exactPin() const {
  if (clauses_.size() != 1 || clauses_[0].wildcard) return std::nullopt;
  const VersionClause& c = clauses_[0];
  if (c.op != VersionClause::Op::Equal && c.op != VersionClause::Op::Identical) return std::nullopt;
  if (c.version.release.empty()) return std::nullopt;
  return c.version;
}

}  // namespace dsls::analysis
