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
