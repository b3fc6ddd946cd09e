// The ds_config detection rule: top-level keys, names, bounded reading, and what it does on the
// real ds_config corpus and on the files of a Hugging Face output folder.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "analysis/facade/config_detection.h"
#include "analysis/facade/document_kind.h"
#include "analysis/facade/top_level_keys.h"
#include "tests/unit/missing_input.h"

using namespace dsls::analysis;
namespace fs = std::filesystem;

namespace {

DocumentKind kindOf(std::string_view name, std::string_view text) { return classifyDocument(name, "", text, {}); }

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> keysOf(std::string_view text) {
  std::vector<std::string> keys;
  scanTopLevelKeys(text, 1 << 20, [&](std::string_view k) {
    keys.emplace_back(k);
    return true;
  });
  return keys;
}

const fs::path kProject = fs::path(DSLS_SOURCE_DIR) / "tests/fixtures/projects/hf_trainer";

}  // namespace

TEST_CASE("the scan reads top-level keys only, past nested values, comments and a BOM") {
  CHECK(keysOf(R"({"a": {"b": [1, {"c": "}"}]}, "d": "x\"y", /* "e": 1 */ "f": 2,})") ==
        std::vector<std::string>{"a", "d", "f"});
  CHECK(keysOf("\xEF\xBB\xBF// c\n{\"a\": 1}") == std::vector<std::string>{"a"});
  CHECK(keysOf("{\"a\": 1 \"b\": 2}") == std::vector<std::string>{"a", "b"});  // a missing comma
  CHECK(keysOf("[{\"a\": 1}]").empty());
  CHECK(keysOf("\x01\x02\xff garbage").empty());
}

TEST_CASE("the scan stops at its budget") {
  std::string big = "{\"model\": {\"vocab\": [";
  while (big.size() < (std::size_t{1} << 20)) big += "\"token\", ";
  big += "\"x\"]}, \"zero_optimization\": {}}";
  auto scan = scanTopLevelKeys(big, kDetectionPrefixBytes, [](std::string_view) { return true; });
  CHECK(scan.keys == 1);
  CHECK_FALSE(scan.complete);
  CHECK(kindOf("tokenizer.json", big) == DocumentKind::Other);
}

TEST_CASE("content: mostly DeepSpeed keys") {
  CHECK(kindOf("train_cfg.json", R"({"fp16": {}, "optimizer": {}, "gradient_clipping": 1.0})") == DocumentKind::DsConfig);
  CHECK(kindOf("a.json", R"({"zero_optimization": {"stage": 2}})") == DocumentKind::DsConfig);
  CHECK(kindOf("a.json", R"({"train_batch_size": 4, "log_history": [], "global_step": 5})") == DocumentKind::Other);
  CHECK(kindOf("a.json", R"({"name": "pkg", "version": "1.0.0"})") == DocumentKind::Other);
  CHECK(kindOf("a.json", R"({"nested": {"zero_optimization": {}}})") == DocumentKind::Other);
  CHECK(kindOf("a.json", "{}") == DocumentKind::Other);
  CHECK(kindOf("a.json", "not json") == DocumentKind::Other);
}

TEST_CASE("name: a matching name needs one DeepSpeed key, or no key yet") {
  CHECK(kindOf("ds_config.json", "{}") == DocumentKind::DsConfig);
  CHECK(kindOf("ds_config.json", "") == DocumentKind::Other);
  CHECK(kindOf("ds_config.json", R"({"train_batch_size": 8, "a": 1, "b": 2, "c": 3})") == DocumentKind::DsConfig);
  CHECK(kindOf("deepspeed_benchmark_results.json", R"({"throughput": 3.1, "model": "x"})") == DocumentKind::Other);
  CHECK(kindOf("zero_shot_results.json", R"({"results": {}, "config": {}})") == DocumentKind::Other);
}

TEST_CASE("dependency lists are no training logs") {
  CHECK(kindOf("requirements.txt", "deepspeed==0.14.0\ntorch==2.3.1\n") == DocumentKind::Other);
  CHECK(kindOf("requirements-dev.txt", "[rank0]: Traceback (most recent call last):\n") == DocumentKind::Other);
  CHECK(kindOf("train.txt", "[rank3]: Traceback (most recent call last):\n") == DocumentKind::Log);
}

TEST_CASE("files of a Hugging Face output folder are no ds_configs") {
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kProject / "output")) {
    if (!entry.is_regular_file()) continue;
    ++files;
    CAPTURE(entry.path().string());
    CHECK(kindOf(entry.path().string(), readFile(entry.path())) == DocumentKind::Other);
  }
  CHECK(files == 8);
  std::cout << "detection: " << files << " files of an HF output folder, 0 taken for a ds_config\n";
}

TEST_SUITE_BEGIN("corpus");

// Each corpus config under its real name and under a name that matches no glob ("config.json"),
// so the content rule is measured alone.
TEST_CASE("every corpus config is detected, by content alone too") {
  const fs::path dir = fs::path(DSLS_CORPUS_DIR) / "configs";
  if (dsls::test::skipWithout(dir)) return;
  int total = 0, byName = 0, byContent = 0;
  double leastShare = 1.0;  // the smallest share of DeepSpeed keys among the top-level keys
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    ++total;
    const std::string text = readFile(entry.path());
    CAPTURE(entry.path().filename().string());
    if (kindOf(entry.path().filename().string(), text) == DocumentKind::DsConfig) ++byName;
    bool content = kindOf("config.json", text) == DocumentKind::DsConfig;
    if (content) ++byContent;
    ConfigEvidence e = configEvidence(text);
    if (e.keys) leastShare = std::min(leastShare, double(e.deepspeedKeys) / double(e.keys));
    CHECK(content);
  }
  CHECK(total == 54);
  std::cout << "detection: " << total << " corpus configs, " << byName << " detected under their names, " << byContent
            << " by content alone; the least share of DeepSpeed top-level keys: " << leastShare << "\n";
}

TEST_SUITE_END();

// Which text is a training log: lines copied from the real-log corpus (tests/fixtures/logs/real)
// that carry no rank or launcher prefix, each read as a log by what the log analysis finds.
TEST_CASE("a log is recognised by a failure the log analysis finds, not only by a prefix") {
  // vlmr1-289: one torch c10d line, nothing else.
  CHECK(kindOf("run.log", "RuntimeError: The server socket has failed to listen on any local network address. port: "
                          "29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use.\n") ==
        DocumentKind::Log);
  // ds1734: the batch-size assertion as older DeepSpeed printed it.
  CHECK(kindOf("out.txt", "train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size2 != "
                          "1 * 1 * 1\n") == DocumentKind::Log);
  // megatron-deepspeed 396: iteration lines with "grad norm: nan".
  std::string iterations;
  for (int i = 0; i < 3; ++i)
    iterations += " iteration     542" + std::to_string(6 + i) +
                  "/  250000 | consumed samples:        43408 | learning rate: 2.999E-04 | global batch size:     8 | "
                  "loss scale: 1.0 | grad norm: nan | actual seqlen:  2048 | number of skipped iterations:   0 |\n";
  CHECK(kindOf("train.out", iterations) == DocumentKind::Log);
  // dolly 139: a Metaflow task prefix, then torch.save failing.
  const std::string metaflow = "2023-04-29 06:01:12.977 [177/train/578 (pid 28936)] [09c561ee-a44c-4795-967c] ";
  CHECK(kindOf("stdout.log", metaflow + "Traceback (most recent call last):\n" + metaflow +
                                 "  File \"/opt/conda/lib/python3.7/site-packages/torch/serialization.py\", line 379, "
                                 "in save\n" +
                                 metaflow + "OSError: [Errno 28] No space left on device\n") == DocumentKind::Log);
}

TEST_CASE("a bare Python traceback is a training log only when its frames run through a training stack") {
  // chatglm-tuning 258: a KeyError in a data collator, called from the HF Trainer.
  const std::string trainer =
      "  File \"/root/.local/lib/python3.8/site-packages/transformers/trainer.py\", line 1633, in train\n"
      "    return inner_training_loop(\n"
      "  File \"/checkpoint/binary/train_package/finetune.py\", line 28, in data_collator\n"
      "    seq_len = feature[\"seq_len\"]\n"
      "KeyError: 'seq_len'\n";
  CHECK(kindOf("train.log", "Traceback (most recent call last):\n" + trainer) == DocumentKind::Log);
  // The same exception from a script of one's own is no training log.
  CHECK(kindOf("train.log", "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n"
                            "    seq_len = feature[\"seq_len\"]\nKeyError: 'seq_len'\n") == DocumentKind::Other);
}

TEST_CASE("text that is no training log stays Other") {
  CHECK(kindOf("notes.txt", "# Fine-tuning\n\nRun `deepspeed train.py --deepspeed ds_config.json`.\nSee the "
                            "torch/ and deepspeed/ folders for the code.\n") == DocumentKind::Other);
  CHECK(kindOf("requirements.txt", "deepspeed==0.14.0\ntorch>=2.1\ntransformers\n") == DocumentKind::Other);
  CHECK(kindOf("list.txt", "Shopping list\nmilk\neggs\n") == DocumentKind::Other);
  CHECK(kindOf("empty.log", "") == DocumentKind::Other);
}

// A traceback through the user's own files only: a training log when the code it quotes
// handles the distributed job (dlrover 533), not when it is any script's code.
TEST_CASE("a bare traceback is a training log when its quoted code handles the job's ranks or sizes") {
  const std::string frames = "Traceback (most recent call last):\n"
                             "  File \"model_zoo/pytorch/nanogpt/train.py\", line 379, in <module>\n"
                             "    train()\n"
                             "  File \"model_zoo/pytorch/nanogpt/train.py\", line 178, in train\n";
  CHECK(kindOf("run.log", frames + "    assert gradient_accumulation_steps % world_size == 0\nAssertionError\n") ==
        DocumentKind::Log);
  CHECK(kindOf("run.log", frames + "    torch.distributed.barrier()\nRuntimeError: boom\n") == DocumentKind::Log);
  // Near misses: the same traceback over a script's own code; the names outside a traceback's
  // code line (in the exception message, in prose, in source code, in a JSON file).
  CHECK(kindOf("run.log", frames + "    assert len(rows) % page_size == 0\nAssertionError\n") == DocumentKind::Other);
  CHECK(kindOf("run.log", frames + "    check(cfg)\nAssertionError: world_size must divide the batch\n") ==
        DocumentKind::Other);
  CHECK(kindOf("run.log", frames + "    my_world_size = 2\nValueError: x\n") == DocumentKind::Other);
  CHECK(kindOf("notes.txt", "Set world_size and local_rank before calling torch.distributed.init_process_group.\n") ==
        DocumentKind::Other);
  CHECK(kindOf("train_snippet.txt", "def train():\n    assert gradient_accumulation_steps % world_size == 0\n") ==
        DocumentKind::Other);
  CHECK(kindOf("args.json", R"({"world_size": 8, "local_rank": 0})") == DocumentKind::Other);
}

TEST_CASE("lines only trainers print mark a training log: HF Trainer banners, Megatron iterations, rich log lines") {
  // llamafactory 1998: transformers' logger header.
  CHECK(kindOf("train.log", "[INFO|trainer.py:1709] 2023-12-29 09:19:48,906 >> ***** Running training *****\n") ==
        DocumentKind::Log);
  // megatron-bridge 4024 and nccl 743: Megatron's iteration lines, with or without a timestamp.
  CHECK(kindOf("train.out", "[2026-05-28 22:26:20] iteration       29/    6069 | consumed samples:        14848 |\n") ==
        DocumentKind::Log);
  CHECK(kindOf("train.out", " iteration       10/ 1000000 | consumed samples:           40 |\n") == DocumentKind::Log);
  // kohya_ss 3260: rich log lines, the caller at the end.
  CHECK(kindOf("train.log", "                    INFO     preparing accelerator                 train_network.py:580\n") ==
        DocumentKind::Log);
  CHECK(kindOf("train.log", "[09:51:08] WARNING  The following values were not passed     launch.py:698\n") ==
        DocumentKind::Log);
  // Near misses: a logger header without its caller and time, progress words in prose, a rich
  // line without a Python caller, a shell prompt's clock.
  CHECK(kindOf("a.log", "[INFO] 2023-12-29 09:19:48,906 >> started\n") == DocumentKind::Other);
  CHECK(kindOf("notes.txt", "Each iteration 10/20 took longer than the last one.\n") == DocumentKind::Other);
  CHECK(kindOf("notes.txt", "iteration 3/10 done\n") == DocumentKind::Other);
  CHECK(kindOf("server.log", "[09:51:08] INFO     Server started on port 8000\n") == DocumentKind::Other);
  CHECK(kindOf("shell.txt", "[09:51:08] user@host:~$ ls\n") == DocumentKind::Other);
}

// pytorch 61803: several processes' tracebacks interleaved in one stream mark a job of several
// processes, whatever the script; one script's tracebacks, one after the other or chained, do not.
TEST_CASE("interleaved tracebacks of several processes are a training log") {
  CHECK(kindOf("out.log", "  File \"test\", line 6, in d\n"
                          "  File \"test\", line 6, in d\n"
                          "    def a(): torch.ones()\n"
                          "TypeError: ones() received an invalid combination of arguments\n"
                          "    def d(): c()\n"
                          "  File \"test\", line 5, in c\n"
                          "TypeError: ones() received an invalid combination of arguments\n") == DocumentKind::Log);
  CHECK(kindOf("out.log", "Traceback (most recent call last):\nTraceback (most recent call last):\n"
                          "  File \"a.py\", line 1, in <module>\n  File \"a.py\", line 1, in <module>\n"
                          "KeyError: 'x'\nKeyError: 'x'\n") == DocumentKind::Log);
  // Near misses: two tracebacks one after the other, a chained exception.
  const std::string one = "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n"
                          "    f()\nKeyError: 'x'\n";
  CHECK(kindOf("out.log", one + "retrying\n" + one) == DocumentKind::Other);
  CHECK(kindOf("out.log", one + "\nDuring handling of the above exception, another exception occurred:\n\n" + one) ==
        DocumentKind::Other);
}

TEST_CASE("a .txt file of pinned requirements is a dependency list, not a log, whatever its name") {
  using dsls::analysis::classifyDocument;
  using dsls::analysis::DocumentKind;
  const dsls::analysis::Settings none;
  CHECK(classifyDocument("deps.txt", "", "torch==2.1.0\n", none) == DocumentKind::Other);
  CHECK(classifyDocument("freeze.txt", "", "# pip freeze\ndeepspeed==0.14.2\naccelerate[deepspeed]>=0.30 ; python_version > '3.8'\n-e .\ntransformers\n", none) ==
        DocumentKind::Other);
  // A training log that prints a version line is still a log.
  CHECK(classifyDocument("run.txt", "",
                         "torch==2.1.0\n[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
                         none) == DocumentKind::Log);
}
