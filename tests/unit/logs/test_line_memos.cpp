// The shortcuts of the per-line path give the answers of the slow path: the literal
// prefilter never rejects a line a fingerprint matches, and the remembered fingerprint
// matches and prefix captures equal fresh ones, on every line of the fixture logs.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/logs/lines/anchored_program.h"
#include "analysis/logs/fingerprints/fingerprints.h"
#include "analysis/logs/lines/line_literals.h"
#include "analysis/logs/lines/line_prefix.h"
#include "tests/unit/logs/prefix_description.h"
#include "analysis/logs/lines/literal_prefilter.h"
#include "analysis/logs/lines/text_util.h"

namespace {

using dsls::logs::FingerprintMatcher;
using dsls::logs::FpMatch;

std::vector<std::string> fixtureLines() {
  std::vector<std::string> lines;
  const std::filesystem::path root = std::filesystem::path(DSLS_SOURCE_DIR) / "tests/fixtures/logs";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".log") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(line);
    }
  }
  REQUIRE(lines.size() > 500);
  return lines;
}

// Kinds and captured texts, comparable across copies of a line.
std::string describe(const std::vector<FpMatch>& matches) {
  std::string out;
  for (const FpMatch& m : matches) {
    out += std::to_string(static_cast<int>(m.kind));
    out += '{';
    for (std::size_t i = 0; m.names && i < m.names->names.size(); ++i) {
      if (m.values[i].data()) {
        out += '\'';
        out.append(m.values[i]);
        out += "',";
      } else {
        out += "null,";
      }
    }
    out += '}';
  }
  return out;
}

std::string describe(const dsls::logs::PrefixView& v) { return dsls::logs::testing::describePrefix(v); }

}  // namespace

TEST_CASE("the prefilter finds each literal wherever it starts in the line") {
  const std::vector<std::string> literals = {"abcd", "NCCL WARN", "out of memory", "...."};
  const dsls::logs::LiteralPrefilter prefilter(literals);
  const std::string filler = "the quick brown fox jumps over the lazy dog ";
  for (const std::string& literal : literals)
    for (std::size_t before = 0; before < 8; ++before)
      for (std::size_t after = 0; after < 3; ++after) {
        const std::string line = filler.substr(0, before) + literal + filler.substr(0, after);
        CHECK_MESSAGE(prefilter.anyIn(line), line);
      }
  CHECK_FALSE(prefilter.anyIn(filler));
  CHECK_FALSE(prefilter.anyIn("NCCL WAR"));
  CHECK_THROWS(dsls::logs::LiteralPrefilter({"abc"}));
}

TEST_CASE("a scan gives each group's first literal, as a search for every literal would") {
  using dsls::logs::LiteralPrefilter;
  // Overlapping and self-overlapping literals, in three groups; one group of two literals
  // whose anchors lie at different depths.
  const std::vector<LiteralPrefilter::Literal> literals = {
      {"loss", 1}, {"grad_norm", 2}, {"norm_x", 2}, {"aaaa", 0}, {"NCCL WARN", 0}, {"out of memory", 0}};
  const LiteralPrefilter scan(literals);
  const std::vector<std::string> pieces = {"loss", "grad_norm", "norm_x", "aaaaa", "NCCL WARN", "out of memory",
                                           "los", "grad_nor", "a", " ", "'", "x", "NCCL", "memory"};
  std::uint32_t seed = 12345;
  auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
  std::size_t found = 0;
  for (int round = 0; round < 4000; ++round) {
    std::string line;
    for (std::uint32_t k = next() % 9; k-- > 0;) line += pieces[(next() >> 8) % pieces.size()];
    LiteralPrefilter::Hits expected;
    for (const auto& l : literals)
      expected.first[l.group] = std::min(expected.first[l.group], std::string_view(line).find(l.text));
    const LiteralPrefilter::Hits got = scan.scan(line);
    bool any = false;
    for (std::size_t g = 0; g < LiteralPrefilter::kMaxGroups; ++g) {
      CHECK_MESSAGE(got.first[g] == expected.first[g], line, " group ", g);
      any |= expected.has(g);
      found += expected.has(g);
    }
    CHECK_MESSAGE(scan.anyIn(line) == any, line);
  }
  CHECK(found > 3000);
  CHECK_THROWS(LiteralPrefilter(std::vector<LiteralPrefilter::Literal>{{"abcd", LiteralPrefilter::kMaxGroups}}));
}

TEST_CASE("the prefilter passes every fixture line that a fingerprint matches") {
  const FingerprintMatcher& matcher = FingerprintMatcher::shared();
  std::vector<FpMatch> out;
  std::size_t matched = 0;
  for (const std::string& line : fixtureLines()) {
    const bool found = matcher.matchPrefiltered(line, out);
    if (!found) continue;
    ++matched;
    CHECK_MESSAGE(matcher.mayMatch(line), line);
  }
  CHECK(matched > 100);
}

TEST_CASE("a message matched again through the memo gives the matcher's own matches") {
  const FingerprintMatcher& matcher = FingerprintMatcher::shared();
  dsls::logs::MatchMemo memo(matcher);
  std::vector<FpMatch> fresh, first, again;
  std::size_t matched = 0;
  for (const std::string& line : fixtureLines()) {
    matcher.match(line, fresh);
    memo.match(line, first);
    const std::string copy = line;  // the same text at another address
    memo.match(copy, again);
    CHECK_MESSAGE(describe(first) == describe(fresh), line);
    CHECK_MESSAGE(describe(again) == describe(fresh), line);
    for (const FpMatch& m : again)
      for (std::string_view v : m.values)
        if (v.data()) CHECK((v.data() >= copy.data() && v.data() + v.size() <= copy.data() + copy.size()));
    if (!fresh.empty()) ++matched;
  }
  CHECK(matched > 100);
}

TEST_CASE("prefixes parsed with remembered captures equal those parsed afresh") {
  dsls::logs::PrefixMemo memo;
  for (const std::string& line : fixtureLines()) {
    const std::string fresh = describe(dsls::logs::parsePrefixView(line));
    CHECK_MESSAGE(describe(dsls::logs::parsePrefixView(line, &memo)) == fresh, line);
    const std::string copy = line;
    CHECK_MESSAGE(describe(dsls::logs::parsePrefixView(copy, &memo)) == fresh, line);
  }
}

TEST_CASE("a remembered tag stands for a line only where no longer match can start") {
  // The first line teaches the memo "[rank3]:" and "node-1: "; on the later lines a byte
  // after them continues the match, which a stale tag would cut short.
  const std::vector<std::string> lines = {
      "[rank3]:[E501 10:00:00.000000 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective operation timeout",
      "[rank3]: RuntimeError: boom",
      "[rank3]:  two spaces",
      "node-1: [rank3]:x",
      "node-1: node-2: [rank3]: y",
      "> > [rank3]: quoted",
      "> [rank3]:",
      ">> [rank3]: z",
  };
  dsls::logs::PrefixMemo memo;
  for (int round = 0; round < 3; ++round)
    for (const std::string& line : lines)
      CHECK_MESSAGE(describe(dsls::logs::parsePrefixView(line, &memo)) == describe(dsls::logs::parsePrefixView(line)),
                    line);
  CHECK(dsls::logs::parsePrefixView("[rank3]: RuntimeError: boom", &memo).message == "RuntimeError: boom");
}

TEST_CASE("prefixes parsed through remembered tags equal fresh ones on fixture lines with a byte put in") {
  // Each fixture line that has a prefix, with one byte inserted near its start: the memo has
  // seen the line itself, so its tags are tried on texts that continue them differently.
  dsls::logs::PrefixMemo memo;
  std::size_t variants = 0;
  for (const std::string& line : fixtureLines()) {
    if (dsls::logs::parsePrefixView(line).familyMask == 0) continue;
    for (std::size_t at = 1; at < std::min<std::size_t>(line.size(), 24); ++at)
      for (const char inserted : std::string_view(" :]0a[>-|")) {
        const std::string variant = line.substr(0, at) + inserted + line.substr(at);
        dsls::logs::parsePrefixView(line, &memo);
        CHECK_MESSAGE(describe(dsls::logs::parsePrefixView(variant, &memo)) ==
                          describe(dsls::logs::parsePrefixView(variant)),
                      variant);
        ++variants;
      }
  }
  CHECK(variants > 10000);
}

TEST_CASE("prefixes parsed through remembered parses equal fresh ones on fixture lines with other digits") {
  // Each fixture line, then the same line with its digits changed (a later timestamp, another
  // rank, pid or device, a number of ten digits): the memo has seen the line itself, and its
  // parses are keyed by the bytes with digits folded.
  dsls::logs::PrefixMemo memo;
  std::size_t variants = 0, withPrefix = 0;
  std::uint32_t seed = 7;
  for (const std::string& line : fixtureLines()) {
    if (line.find_first_of("0123456789") == std::string::npos) continue;
    for (int round = 0; round < 4; ++round) {
      std::string variant;
      for (const char c : line) {
        if (c < '0' || c > '9') {
          variant += c;
          continue;
        }
        seed = seed * 1664525u + 1013904223u;
        variant += static_cast<char>('0' + (seed >> 16) % 10);
        if (round == 3 && (seed >> 8) % 4 == 0) variant += "123456789";  // a longer number
      }
      dsls::logs::parsePrefixView(line, &memo);
      const std::string fresh = describe(dsls::logs::parsePrefixView(variant));
      CHECK_MESSAGE(describe(dsls::logs::parsePrefixView(variant, &memo)) == fresh, variant);
      ++variants;
      withPrefix += dsls::logs::parsePrefixView(variant).familyMask != 0;
    }
  }
  CHECK(variants > 2000);
  CHECK(withPrefix > 1000);
}

TEST_CASE("a remembered parse read again from a line with other digits gives that line's numbers") {
  dsls::logs::PrefixMemo memo;
  const std::string first = "worker-1: [2024-05-01 00:03:02,274] [INFO] [logging.py:96:log_dist] [Rank 3] step=54";
  const std::string later = "worker-2: [2024-05-01 00:03:05,295] [INFO] [logging.py:96:log_dist] [Rank 5] step=55";
  for (int again = 0; again < 3; ++again) dsls::logs::parsePrefixView(first, &memo);
  const dsls::logs::PrefixView v = dsls::logs::parsePrefixView(later, &memo);
  CHECK(v.host == "worker-2");
  CHECK(v.timestamp == "2024-05-01 00:03:05,295");
  CHECK(v.rank == 5);
  CHECK(v.message == "step=55");
  CHECK(describe(v) == describe(dsls::logs::parsePrefixView(later)));
}

TEST_CASE("a remembered prefix parse stands for a line only while the literals that ruled rows out stay absent") {
  // Each pair starts with the same bytes; the first line of each teaches the memo a whole
  // parse, the second holds a row's needed literal ("pid=") further on, where the row then
  // matches, or goes on where a longer match can.
  const std::vector<std::pair<std::string, std::string>> pairs = {
      // Where the row's automaton dies ("(TrainWorker)") the bytes rule it out; a name longer
      // than the bytes kept leaves the literal to be looked for again.
      {"(TrainWorker) no id here", "(TrainWorker pid=12) RuntimeError: boom"},
      {"(" + std::string(100, 'a') + " no id here", "(" + std::string(100, 'a') + " pid=12) RuntimeError: boom"},
      {"[rank3]: (" + std::string(100, 'w') + " starting", "[rank3]: (" + std::string(100, 'w') + " pid=7) y"},
      {"worker-1: [rank3]: loss 1.0", "worker-1: [rank3]: loss 1.0"},
      // Metaflow's task prefix, whose attempt id "[...] " the byte after it could begin.
      {"[run/train/3 (pid 42)] [-aaaaz and more", "[run/train/3 (pid 42)] [-aaaaaaaa] x"},
      // A logger's header, matched by RE2, that the byte after it ('[') could make longer: with
      // a source there, at another time too.
      {"[2024-05-01 10:00:00,000] [INFO] [engine.py has no closing bracket", "[2024-05-01 10:00:00,000] [INFO] [engine.py:1:step] y"},
      {"[2024-05-01 10:00:00,000] [INFO] [engine.py has no closing bracket", "[2024-05-01 10:09:59,999] [INFO] [engine.py:1:step] y"},
  };
  dsls::logs::PrefixMemo memo;
  for (int round = 0; round < 3; ++round)
    for (const auto& pair : pairs) {
      const std::string& probed = pair.second;  // not a structured binding: clang 14 cannot capture one
      for (int again = 0; again < 3; ++again) dsls::logs::parsePrefixView(pair.first, &memo);
      CHECK_MESSAGE(describe(dsls::logs::parsePrefixView(probed, &memo)) == describe(dsls::logs::parsePrefixView(probed)),
                    probed);
    }
  const std::string copy = "worker-1: [rank3]: loss 2.0";
  const dsls::logs::PrefixView v = dsls::logs::parsePrefixView(copy, &memo);
  CHECK(v.message == "loss 2.0");
  CHECK((v.host.data() >= copy.data() && v.host.data() + v.host.size() <= copy.data() + copy.size()));
  CHECK(v.rank == 3);
}

TEST_CASE("a row ruled out by the start of a window is ruled out only where a window starts so") {
  // The first line teaches the memo that the line-number row dies at "[2024-"; the others
  // start with fewer of those bytes and match it, or start with all of them.
  const std::vector<std::string> lines = {
      "[2024-05-01 10:00:00,000] [INFO] [engine.py:1:step] a",
      "[2024] [rank1]: b",
      "[202] c",
      "[2024-] d",
      "[2024-05-01 10:00:01,000] [INFO] e",
  };
  dsls::logs::PrefixMemo memo;
  for (int round = 0; round < 3; ++round)
    for (const std::string& line : lines)
      CHECK_MESSAGE(describe(dsls::logs::parsePrefixView(line, &memo)) == describe(dsls::logs::parsePrefixView(line)),
                    line);
  CHECK(dsls::logs::parsePrefixView("[2024] [rank1]: b", &memo).message == "b");
}

TEST_CASE("a prefix pattern's automaton knows where no match can go on") {
  using dsls::logs::AnchoredProgram;
  const auto lineNumber = AnchoredProgram::compile(R"(\[\d{1,6}\] )");
  REQUIRE(lineNumber);
  CHECK(lineNumber->deadAfter("[2024-05-01") == std::optional<std::size_t>(6));
  CHECK(lineNumber->deadAfter("x") == std::optional<std::size_t>(1));
  CHECK_FALSE(lineNumber->deadAfter("[12] x"));  // a match ends within
  CHECK_FALSE(lineNumber->deadAfter("[12"));     // one may go on
  // \b looks past the match: refused, or taken to hold where only death is asked about.
  CHECK_FALSE(AnchoredProgram::compile(R"(NCCL (?:INFO|WARN)\b)"));
  const auto loose = AnchoredProgram::compileLoose(R"(NCCL (?:INFO|WARN)\b)");
  REQUIRE(loose);
  CHECK(loose->deadAfter("NCCL X") == std::optional<std::size_t>(6));
  CHECK_FALSE(loose->deadAfter("NCCL INFOx"));
}

TEST_CASE("a prefix pattern's automaton knows which bytes continue a match") {
  using dsls::logs::AnchoredProgram;
  const auto rank = AnchoredProgram::compile(R"(\[rank(?P<rank>\d{1,9})\]: ?)");
  REQUIRE(rank);
  CHECK(rank->groups() == 1);
  const auto afterColon = rank->continuations("[rank3]:");
  CHECK(AnchoredProgram::contains(afterColon, ' '));
  CHECK_FALSE(AnchoredProgram::contains(afterColon, '['));
  const auto afterSpace = rank->continuations("[rank3]: ");
  for (unsigned b = 0; b < 256; ++b) CHECK_FALSE(AnchoredProgram::contains(afterSpace, static_cast<unsigned char>(b)));
  const auto digits = rank->continuations("[rank3");
  CHECK(AnchoredProgram::contains(digits, '7'));
  CHECK(AnchoredProgram::contains(digits, ']'));
  CHECK_FALSE(AnchoredProgram::contains(digits, 'x'));
  const auto host = AnchoredProgram::compile(R"((?P<host>[A-Za-z0-9][\w.-]{0,3}): )");
  REQUIRE(host);
  CHECK(AnchoredProgram::contains(host->continuations("ab"), 'c'));
  CHECK_FALSE(AnchoredProgram::contains(host->continuations("abcd"), 'e'));  // {0,3} is used up
  CHECK(AnchoredProgram::contains(host->continuations("abcd"), ':'));
  CHECK(AnchoredProgram::contains(AnchoredProgram::compile("(?:ab|a)c*?")->continuations("a"), 'b'));
  // Assertions look past the match, other syntax is not understood: no automaton.
  CHECK_FALSE(AnchoredProgram::compile(R"(INFO\b)"));
  CHECK_FALSE(AnchoredProgram::compile(R"(^x)"));
  CHECK_FALSE(AnchoredProgram::compile(R"((?i)x)"));
  CHECK_FALSE(AnchoredProgram::compile(R"([[:alpha:]])"));
  CHECK_FALSE(AnchoredProgram::compile(R"((a*)*)"));
}

TEST_CASE("no line literal holds a digit, so a scan holds for lines that differ in digits") {
  // The literal memo relies on it; a literal with a digit turns the memo off.
  CHECK(dsls::logs::lineLiteralsHoldNoDigit());
  for (const std::string& literal : FingerprintMatcher::shared().literals())
    CHECK_MESSAGE(literal.find_first_of("0123456789") == std::string::npos, literal);
}

TEST_CASE("a remembered literal scan equals a fresh one on fixture lines and the same with other digits") {
  dsls::logs::LineLiteralMemo memo;
  std::uint32_t seed = 11;
  std::size_t lines = 0, withLiteral = 0;
  for (const std::string& line : fixtureLines())
    for (int round = 0; round < 3; ++round) {
      std::string variant = line;
      for (char& c : variant)
        if (round > 0 && c >= '0' && c <= '9') {
          seed = seed * 1664525u + 1013904223u;
          c = static_cast<char>('0' + (seed >> 16) % 10);
        }
      if (round == 2 && !variant.empty()) variant.back() = variant.back() == 'x' ? 'y' : 'x';  // same shape but one byte
      const dsls::logs::LineLiteralHits fresh = dsls::logs::scanLineLiterals(variant);
      const dsls::logs::LineLiteralHits remembered = memo.scan(variant);
      for (const auto name : {dsls::logs::LineLiteral::Fingerprint, dsls::logs::LineLiteral::Loss,
                              dsls::logs::LineLiteral::GradNorm, dsls::logs::LineLiteral::GradNormSpaced,
                              dsls::logs::LineLiteral::Skipped})
        CHECK_MESSAGE(remembered.first(name) == fresh.first(name), variant);
      ++lines;
      withLiteral += fresh.has(dsls::logs::LineLiteral::Fingerprint) || fresh.has(dsls::logs::LineLiteral::Loss);
    }
  CHECK(lines > 3000);
  CHECK(withLiteral > 300);
}

TEST_CASE("digits fold to '0' eight bytes at a time, each digit and no other byte") {
  using dsls::logs::text::foldDigit;
  using dsls::logs::text::foldDigits;
  std::size_t wrong = 0;
  for (unsigned b = 0; b < 256; ++b)
    for (std::size_t at = 0; at < 8; ++at)
      for (const unsigned other : {0x00u, 0x2Fu, 0x30u, 0x39u, 0x3Au, 0x7Fu, 0x80u, 0xB0u, 0xFFu}) {
        std::array<unsigned char, 8> in{}, want{}, got{};
        in.fill(static_cast<unsigned char>(other));
        in[at] = static_cast<unsigned char>(b);
        for (std::size_t i = 0; i < 8; ++i) want[i] = static_cast<unsigned char>(foldDigit(static_cast<char>(in[i])));
        std::uint64_t w = 0;
        std::memcpy(&w, in.data(), 8);
        const std::uint64_t folded = foldDigits(w);
        std::memcpy(got.data(), &folded, 8);
        wrong += got != want;
      }
  CHECK(wrong == 0);
  // Both ways of comparing, on texts of every length up to 40 that differ in one byte or not.
  std::size_t disagree = 0;
  for (std::size_t n = 0; n <= 40; ++n)
    for (std::size_t at = 0; at <= n; ++at)
      for (const char put : std::string_view("07a:/ \x80")) {
        std::string line = "[2024-05-01 10:00:00,123] [rank7]: loss 9.5 x";
        line.resize(n, '5');
        std::string key;
        dsls::logs::text::assignFolded(key, line);
        if (at < n) line[at] = put;
        bool expected = true;
        for (std::size_t i = 0; i < n; ++i) expected &= foldDigit(line[i]) == key[i];
        disagree += dsls::logs::text::startsWithFolded(line, key) != expected;
        disagree += dsls::logs::text::startsWithFoldedWords(line, key) != expected;
      }
  CHECK(disagree == 0);
  CHECK(dsls::logs::text::startsWithFolded("[2024-05-01 10:00:00,123] x", "[0000-00-00 00:00:00,000]"));
  CHECK_FALSE(dsls::logs::text::startsWithFolded("[2024-05-01 10:00:00;123] x", "[0000-00-00 00:00:00,000]"));
  CHECK_FALSE(dsls::logs::text::startsWithFolded("rank1", "rank1"));  // a key holds its digits as '0'
}
