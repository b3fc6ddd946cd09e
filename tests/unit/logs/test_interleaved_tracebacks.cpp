// Tracebacks of several processes printed at once into one stream without prefixes: each
// process's exception line is an occurrence of its own (pytorch 61803 shows the shapes).
#include "log_test_support.h"

using namespace dsls::logs;
using namespace dsls::logs::testing;

namespace {

const LogFinding& exceptionFinding(const LogReport& r) {
  const LogFinding* f = findingById(r, "python-exception");
  REQUIRE_MESSAGE(f, "no python-exception; findings: " << findingIds(r));
  return *f;
}

// Two processes, the lines of their identical tracebacks alternating.
const std::string kTwoInterleaved =
    "Traceback (most recent call last):\n"
    "Traceback (most recent call last):\n"
    "  File \"train.py\", line 10, in <module>\n"
    "  File \"train.py\", line 10, in <module>\n"
    "    main()\n"
    "    main()\n"
    "  File \"/x/site-packages/transformers/trainer.py\", line 5, in train\n"
    "  File \"/x/site-packages/transformers/trainer.py\", line 5, in train\n"
    "    raise ValueError(\"bad\")\n"
    "ValueError: bad\n"
    "    raise ValueError(\"bad\")\n"
    "ValueError: bad\n";

}  // namespace

TEST_CASE("interleaved tracebacks with their headers: one occurrence per process") {
  const LogReport r = analyzeText(kTwoInterleaved);
  CHECK(exceptionFinding(r).evidenceTotal == 2);
  CHECK_FALSE(exceptionFinding(r).initiatingRank);
  CHECK(exceptionFinding(r).rankReason.find("It is shown 2 times") != std::string::npos);
  // With the world size known, two processes of two raising the same exception: every rank.
  const LogReport sized = analyzeText("[2024-01-01 10:00:00,000] [INFO] [launch.py:163:main] dist_world_size=2\n" +
                                      kTwoInterleaved);
  REQUIRE(exceptionFinding(sized).rankScope);
  CHECK(*exceptionFinding(sized).rankScope == RankScope::All);
}

TEST_CASE("frames going on after an exception line are another process's traceback") {
  const LogReport r = analyzeText(
      "  File \"test\", line 6, in d\n"
      "  File \"test\", line 6, in d\n"
      "    def a(): torch.ones()\n"
      "TypeError: ones() received an invalid combination of arguments\n"
      "    def d(): c()\n"
      "  File \"test\", line 5, in c\n"
      "    def c(): b()\n"
      "  File \"test\", line 3, in a\n"
      "TypeError: ones() received an invalid combination of arguments\n");
  CHECK(exceptionFinding(r).evidenceTotal == 2);
}

TEST_CASE("near misses: one process's traceback, its exception printed again, a chained exception") {
  // The exception text printed again after its traceback is not a second process's.
  const LogReport again = analyzeText(
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 10, in <module>\n"
      "    main()\n"
      "ValueError: bad\n"
      "ValueError: bad\n");
  CHECK(exceptionFinding(again).evidenceTotal == 1);
  // A chained exception is one process's: two exceptions, one each.
  const LogReport chained = analyzeText(
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 10, in <module>\n"
      "    x = d['a']\n"
      "KeyError: 'a'\n"
      "\n"
      "During handling of the above exception, another exception occurred:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 12, in <module>\n"
      "    raise RuntimeError('b')\n"
      "RuntimeError: b\n"
      "ValueError: later text\n");
  for (const LogFinding& f : chained.findings)
    if (f.id == "python-exception") CHECK(f.evidenceTotal == 1);
  // A frame line long after the exception line, with no traceback around it, starts nothing.
  std::string later = "Traceback (most recent call last):\n  File \"train.py\", line 10, in <module>\n"
                      "    main()\nValueError: bad\n";
  for (int i = 0; i < 20; ++i) later += "step " + std::to_string(i) + " done\n";
  later += "  File \"train.py\", line 10, in <module>\nValueError: bad\n";
  CHECK(exceptionFinding(analyzeText(later)).evidenceTotal == 1);
}
