// rich's boxed tracebacks: the exception line below the box is wrapped at the console width at
// word boundaries, and is matched with its pieces joined; near misses that must stay apart.
#include <algorithm>

#include <fmt/format.h>

#include "log_test_support.h"

using namespace dsls::logs;
using namespace dsls::logs::testing;

namespace {

std::string repeat(const std::string& s, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

// A rich traceback box `width` columns wide, each line after `prefix`.
std::string box(std::size_t width, const std::string& prefix = "") {
  const std::string title = " Traceback (most recent call last) ";
  const std::size_t left = (width - 2 - title.size()) / 2;
  const std::string body = " /opt/conda/lib/python3.7/site-packages/deepspeed/runtime/config.py:891 in _batch_assertion";
  const std::string cell = body.substr(0, width - 3);
  return prefix + "╭" + repeat("─", left) + title + repeat("─", width - 2 - left - title.size()) + "╮\n" + prefix +
         "│" + cell + std::string(width - 2 - cell.size(), ' ') + "│\n" + prefix + "╰" + repeat("─", width - 2) + "╯\n";
}

// starcoder#77's message, wrapped greedily at `width` columns.
std::string wrapped(std::size_t width, const std::string& prefix = "") {
  const std::string message =
      "AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * "
      "gradient_acc_step * world_size 64 != 4 * 8 * 1";
  std::string out, line;
  std::size_t start = 0;
  while (start < message.size()) {
    std::size_t end = message.find(' ', start);
    if (end == std::string::npos) end = message.size();
    const std::string word = message.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += prefix + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out + prefix + line + "\n";
}

std::size_t lineCount(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("a rich exception line wrapped at the box's width is matched joined") {
  for (std::size_t width : {71u, 88u}) {
    CAPTURE(width);
    const std::string text = box(width) + wrapped(width);
    REQUIRE(lineCount(wrapped(width)) > 1);
    const LogReport r = analyzeText(text);
    INFO(findingIds(r));
    const LogFinding* f = findingById(r, "batch-size-assert");
    REQUIRE(f);
    CHECK(f->initiating);
    REQUIRE(f->rankScope);
    CHECK(*f->rankScope == RankScope::All);
    CHECK_FALSE(findingById(r, "python-exception"));
    REQUIRE_FALSE(f->evidence.empty());
    CHECK(f->evidence.front().line == 4);  // the exception line, below the three box lines
    CHECK(f->evidence.front().text.find("is not equal to") != std::string::npos);
  }
}

TEST_CASE("a console wider than rich's 100-column box: the widest piece gives the width") {
  const std::string text = box(100) + wrapped(120);
  REQUIRE(lineCount(wrapped(120)) == 2);
  const LogReport r = analyzeText(text);
  INFO(findingIds(r));
  CHECK(findingById(r, "batch-size-assert"));
}

TEST_CASE("a rich traceback with rank prefixes: the pieces of one rank are joined, another rank's lines between") {
  const std::string rank0 = wrapped(71, "[rank0]: ");
  const std::size_t firstEnd = rank0.find('\n') + 1;
  const std::string text = box(71, "[rank0]: ") + rank0.substr(0, firstEnd) + "[rank1]: loading shards\n" +
                           rank0.substr(firstEnd);
  const LogReport r = analyzeText(text);
  INFO(findingIds(r));
  const LogFinding* f = findingById(r, "batch-size-assert");
  REQUIRE(f);
  CHECK(f->scopeRanks == std::vector<int>{0});
}

TEST_CASE("a joined rich message that matches no fingerprint is reported whole") {
  const std::string text = box(60) +
                           "ValueError: The tokenizer class you load from this checkpoint is\n"
                           "not the same type as the class this function is called from.\n";
  const LogReport r = analyzeText(text);
  const LogFinding* f = findingById(r, "python-exception");
  REQUIRE(f);
  CHECK(f->mechanism.find("is not the same type as the class this function is called from.") != std::string::npos);
}

TEST_CASE("near misses: lines after a rich exception that do not continue it") {
  auto ids = [](const std::string& text) { return findingIds(analyzeText(text)); };
  const std::string pieces = wrapped(71);
  const std::size_t firstEnd = pieces.find('\n') + 1;
  const std::string first = pieces.substr(0, firstEnd), rest = pieces.substr(firstEnd);
  // the box is wider than the first line needed: the next word would have fitted, so rich did not wrap there
  CHECK(ids(box(80) + first + rest).find("batch-size-assert") == std::string::npos);
  // no box: a plain traceback's exception line is whole
  CHECK(ids("Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n" + first + rest)
            .find("batch-size-assert") == std::string::npos);
  // a blank line, a logger line, an indented line, or a new box ends the message
  for (const std::string& between :
       {std::string("\n"), std::string("[2023-05-02 10:00:00,000] [INFO] [engine.py:1:f] loading\n"),
        std::string("  loading\n"), std::string("╭─ Traceback ─╮\n")}) {
    CAPTURE(between);
    const LogReport r = analyzeText(box(71) + first + between + rest);
    CHECK_FALSE(findingById(r, "batch-size-assert"));
    const LogFinding* f = findingById(r, "python-exception");
    REQUIRE(f);
    CHECK(f->mechanism.find("loading") == std::string::npos);
    const std::string firstText = "train_batch_size is not";  // the exception line alone ends the mechanism text
    CHECK(f->mechanism.substr(f->mechanism.size() - firstText.size()) == firstText);
  }
  // a short exception line is whole even when the next line starts with a long word
  const LogReport r = analyzeText(box(98) + "Exception: expected value at line 1 column 1\n" +
                                  "ERROR_torch.distributed.elastic.multiprocessing.api:failed_exitcode local_rank\n");
  const LogFinding* f = findingById(r, "python-exception");
  REQUIRE(f);
  CHECK(f->mechanism.find("column 1 ERROR") == std::string::npos);
}

TEST_CASE("a rich exception message is held for 12 lines at most") {
  std::string text = box(40) + "ValueError: " + std::string(28, 'a') + "\n";
  for (int i = 1; i <= 20; ++i) text += fmt::format("piece{:02d}", i) + std::string(33, 'b') + "\n";
  const LogReport r = analyzeText(text);
  const LogFinding* f = findingById(r, "python-exception");
  REQUIRE(f);
  REQUIRE_FALSE(f->evidence.empty());
  CHECK(f->evidence.front().line == 4);
  CHECK(f->evidence.front().length == 12 * 40 + 11);  // the exception line and 11 more, with their line ends
}
