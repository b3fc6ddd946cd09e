// Lines of real logs whose parts sit where a reader does not expect them: rich's caller,
// right-aligned at the end of a log line; traceback frames printed at column 0 inside a
// traceback; the condition line of a multi-line `assert` over the job's parallel sizes. Each
// with its real excerpt (tests/fixtures/logs/real/) where the corpus holds one, and a near miss.
#include "log_test_support.h"

using namespace dsls::logs;
using namespace dsls::logs::testing;

// --- rich's caller ----------------------------------------------------------------------

TEST_CASE("rich's caller at the end of a log line is the line's source, not its message") {
  PrefixMemo memo;
  // The first parse peels the prefixes; the second, of a line with the same first bytes,
  // recalls the remembered chain: the caller is taken from each line's own tail.
  const std::string first = "[09:51:08] WARNING  Sending process 14 closing signal SIGTERM         api.py:699";
  const std::string second = "[09:51:08] WARNING  Sending process 15 closing signal SIGTERM   launch-util.py:73  ";
  const std::string third = "[09:51:08] WARNING  Sending process 16 closing signal SIGTERM";
  PrefixView v = parsePrefixView(first, &memo);
  CHECK(v.message == "Sending process 14 closing signal SIGTERM");
  CHECK(v.source == "api.py:699");
  v = parsePrefixView(second, &memo);
  CHECK(v.message == "Sending process 15 closing signal SIGTERM");
  CHECK(v.source == "launch-util.py:73");
  // No caller on this line: nothing of the others' tails is left on it.
  v = parsePrefixView(third, &memo);
  CHECK(v.message == "Sending process 16 closing signal SIGTERM");
  CHECK(v.source.empty());
  v = parsePrefixView(first, &memo);
  CHECK(v.source == "api.py:699");
  // The same-second form: blanks in the time column.
  v = parsePrefixView("                    INFO     make buckets        train_util.py:1010", &memo);
  CHECK(v.message == "make buckets");
  CHECK(v.source == "train_util.py:1010");
}

TEST_CASE("Near miss: a file name in a rich message, or a caller after another prefix, stays in the message") {
  // One blank before the name: a word of the message.
  PrefixView v = parsePrefixView("[09:51:08] ERROR    cannot open train.py:12");
  CHECK(v.message == "cannot open train.py:12");
  CHECK(v.source.empty());
  // Not a Python file.
  v = parsePrefixView("[09:51:08] ERROR    cannot open      config.yaml:12");
  CHECK(v.message == "cannot open      config.yaml:12");
  // The caller alone is no message to take it from.
  v = parsePrefixView("[09:51:08] ERROR    api.py:12");
  CHECK(v.message == "api.py:12");
  // Python's logging, not rich: the tail is the message's.
  v = parsePrefixView("WARNING:root:see        train.py:12");
  CHECK(v.message == "see        train.py:12");
  CHECK(v.source == "root");
}

TEST_CASE("A rich log line with its caller makes a training log; without the caller it does not") {
  CHECK(looksLikeTrainingLog("[09:51:08] INFO     preparing accelerator        train_network.py:580\n"));
  CHECK_FALSE(looksLikeTrainingLog("[09:51:08] INFO     preparing accelerator see train_network.py:580\n"));
  CHECK_FALSE(looksLikeTrainingLog("[09:51:08] INFO     preparing accelerator\n"));
}

TEST_CASE("kohya-ss/sd-scripts#3260: rich's log lines, their callers taken off the messages") {
  const std::string text = readFixture("real/kohyass3260-rich-log-warning-nearmiss.log");
  CHECK(looksLikeTrainingLog(text));
  // The lines logged in the same second as the one before: blanks in the time column.
  const std::size_t at = text.find("                    INFO     number of images");
  REQUIRE(at != std::string::npos);
  const PrefixView v = parsePrefixView(std::string_view(text).substr(at, text.find('\n', at) - at));
  CHECK(v.message == "number of images (including repeats) / 各bucketの画像枚数（繰り返し回数を含む）");
  CHECK(v.source == "train_util.py:1056");
  CHECK_FALSE(hasErrorFinding(analyzeText(text)));
}

// --- frames at column 0 -----------------------------------------------------------------

TEST_CASE("Unindented frames inside a traceback count as frames") {
  const LogReport r = analyzeText(
      "Traceback (most recent call last):\n"
      "File \"/opt/megatron-lm/pretrain_gpt.py\", line 20, in <module>\n"
      "    pretrain()\n"
      "File \"/opt/megatron-lm/megatron/training/initialize.py\", line 341, in _initialize_distributed\n"
      "    mpu.initialize_model_parallel(\n"
      "RuntimeError: no\n");
  const LogFinding* f = findingById(r, "python-exception");
  REQUIRE(f);
  INFO(f->mechanism);
  CHECK(f->mechanism.find("<module> (pretrain_gpt.py:20) → _initialize_distributed (initialize.py:341)") !=
        std::string::npos);
}

TEST_CASE("Near miss: a column-0 line that is not a whole frame does not count as one") {
  const LogReport r = analyzeText(
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 10, in <module>\n"
      "    main()\n"
      "File \"data.json\", line 3\n"
      "File \"x.py\", line 4, in main() here\n"
      "RuntimeError: no\n");
  const LogFinding* f = findingById(r, "python-exception");
  REQUIRE(f);
  INFO(f->mechanism);
  CHECK(f->mechanism.find("Innermost frames: <module> (train.py:10).") != std::string::npos);
}

// --- the condition line of a multi-line assert ------------------------------------------

TEST_CASE("Megatron-LM#4342: unindented frames, a multi-line assert over the parallel sizes: every rank") {
  const LogReport r = analyzeReal("megatronlm4342-unindented-expert-dp-assert.log");
  const LogFinding* f = r.initiatingFinding();
  REQUIRE(f);
  CHECK(f->id == "python-exception");
  INFO(f->rankReason);
  CHECK(f->rankScope == RankScope::All);
  CHECK(f->rankReason.find("expert_data_parallel_size % num_distributed_optimizer_instances == 0") !=
        std::string::npos);
  CHECK(f->mechanism.find("initialize_model_parallel (parallel_state.py:1248)") != std::string::npos);
}

namespace {

std::string assertion(const std::string& code) {
  return "Traceback (most recent call last):\n"
         "  File \"train.py\", line 10, in <module>\n"
         "    setup()\n"
         "  File \"train.py\", line 4, in setup\n"
         "    " + code + "\n"
         "AssertionError: sizes do not divide\n";
}

bool everyRank(const LogReport& r) {
  const LogFinding* f = r.initiatingFinding();
  return f && f->id == "python-exception" && f->rankScope == RankScope::All;
}

}  // namespace

TEST_CASE("A multi-line assert's condition line over job sizes alone fails on every rank") {
  CHECK(everyRank(analyzeText(assertion("world_size % (tp_size * pp_size) == 0"))));
  CHECK(everyRank(analyzeText(assertion("assert world_size % tp_size == 0, 'no'"))));
}

TEST_CASE("Near miss: condition lines that are not a whole condition over job sizes say nothing of every rank") {
  for (const char* code : {
           "world_size % tp_size == 0 and",       // goes on to another line
           "or world_size % tp_size == 0",        // an operand after another
           "(world_size % tp_size == 0",          // brackets opened for more lines
           "world_size % tp_size == rank",        // a rank in it
           "check(world_size) == 0",              // a call
           "ok = world_size % tp_size == 0",      // an assignment
           "world_size % tp_size",                // no comparison
       }) {
    CAPTURE(code);
    CHECK_FALSE(everyRank(analyzeText(assertion(code))));
  }
}

TEST_CASE("A frame glued after another process's code line at column 0 counts as a frame") {
  const LogReport r = analyzeText(
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 10, in <module>\n"
      "    main()\n"
      "ret_val = func(*args, **kwargs)  File \"/x/deepspeed/runtime/zero/partitioned_param_coordinator.py\", line "
      "446, in __all_gather_params_\n"
      "    self.__all_gather_params_(params)\n"
      "RuntimeError: no\n");
  const LogFinding* f = findingById(r, "python-exception");
  REQUIRE(f);
  INFO(f->mechanism);
  CHECK(f->mechanism.find("__all_gather_params_ (partitioned_param_coordinator.py:446)") != std::string::npos);
  // The real paste has no exception line: it stays a traceback without its end, no error.
  const LogReport real = analyzeReal("ds4194-glued-zero3-allgather-frames-nearmiss.log");
  INFO(findingIds(real));
  CHECK_FALSE(hasErrorFinding(real));
  CHECK(findingById(real, "incomplete-traceback"));
}

TEST_CASE("Near miss: an exception line with a frame glued to it, inside a traceback, is the exception line") {
  const LogReport r = analyzeText(
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 10, in <module>\n"
      "    main()\n"
      "ValueError: bad value  File \"train.py\", line 12, in main\n");
  const LogFinding* f = findingById(r, "python-exception");
  REQUIRE(f);
  INFO(f->mechanism);
  CHECK(f->mechanism.find("Innermost frames: <module> (train.py:10).") != std::string::npos);
  CHECK(findingById(r, "incomplete-traceback") == nullptr);
}

// --- a paste that starts at an exception line -----------------------------------------------

TEST_CASE("DeepSpeed#1322: a paste that starts at an exception line, then another process's frames") {
  const std::string text = readFixture("real/ds1322-glued-ckpt-list-assert.log");
  CHECK(looksLikeTrainingLog(text));
  const LogReport r = analyzeText(text);
  INFO(findingIds(r));
  const LogFinding* f = findingById(r, "incomplete-traceback");
  REQUIRE(f);
  CHECK(f->mechanism.find("check_ckpt_list (state_dict_factory.py:162)") != std::string::npos);
}

TEST_CASE("Near miss: an exception line later in a paste, or a logger's, starts no traceback for the frames after it") {
  const char* frames =
      "  File \"/x/deepspeed/runtime/state_dict_factory.py\", line 162, in check_ckpt_list\n"
      "    assert len(self.ckpt_list) > 0\n";
  CHECK(findingById(analyzeText(std::string("loading\nAssertionError\n") + frames), "incomplete-traceback") ==
        nullptr);
  CHECK(findingById(analyzeText(std::string("[2024-01-01 10:00:00,000] [ERROR] [engine.py:1:f] AssertionError\n") +
                                frames),
                    "incomplete-traceback") == nullptr);
}

TEST_CASE("a paste that starts with the code line of a frame cut off, then a frame, is a traceback") {
  const std::string text =
      "    deepspeed_load_checkpoint(self.model_wrapped, resume_from_checkpoint)\n"
      "  File \"/usr/lib/python3/site-packages/transformers/deepspeed.py\", line 389, in deepspeed_load_checkpoint\n"
      "    raise ValueError(f\"unknown tag {tag}\")\n"
      "ValueError: unknown tag global_step1500\n";
  CHECK(findingById(analyzeText(text), "python-exception") != nullptr);
  CHECK(looksLikeTrainingLog(text));
  // An unindented first line is no cut-off code line: the frame after it starts nothing.
  const std::string after = "loading checkpoint\n" + text.substr(text.find("  File"));
  CHECK(findingById(analyzeText(after), "python-exception") == nullptr);
  CHECK_FALSE(looksLikeTrainingLog(after));
}
