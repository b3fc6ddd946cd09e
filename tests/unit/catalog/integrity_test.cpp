// Checks the catalog data itself: every reference resolves, every JSON text
// parses and fits the declared types, versions parse, docs are present.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "analysis/catalog/catalog.h"

using namespace dsls::catalog;
using nlohmann::json;

namespace {

bool fitsTypes(const json& v, unsigned types) {
  switch (v.type()) {
    case json::value_t::null: return types & Null;
    case json::value_t::boolean: return types & Bool;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return types & (Integer | Number);
    case json::value_t::number_float: return types & Number;
    case json::value_t::string: return types & String;
    case json::value_t::object: return types & Object;
    case json::value_t::array: return types & Array;
    default: return false;
  }
}

bool validVersion(std::string_view s) { return Version::parse(s).has_value(); }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

int sentences(std::string_view doc) {
  int n = 1;
  for (std::size_t i = 0; i + 2 < doc.size(); ++i) {
    if (doc[i] == '.' && doc[i + 1] == ' ' && std::isupper(static_cast<unsigned char>(doc[i + 2]))) ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("catalog size") {
  MESSAGE("catalog: " << allKeys().size() << " keys, " << allSections().size() << " sections");
  CHECK(allKeys().size() > 400);
  CHECK(allSections().size() > 50);
}

TEST_CASE("no duplicate paths or colliding aliases") {
  std::map<std::string, std::string> spelled;  // spelling -> owner
  for (const KeyInfo& k : allKeys()) {
    CAPTURE(k.path);
    CHECK(spelled.emplace(std::string(k.path), std::string(k.path)).second);
  }
  for (const KeyInfo& k : allKeys()) {
    std::string parent(parentPath(k.path));
    for (std::string_view alias : k.aliases) {
      CAPTURE(k.path);
      CAPTURE(alias);
      CHECK(alias.find('.') == std::string_view::npos);
      CHECK(alias != leafName(k.path));
      std::string full = parent.empty() ? std::string(alias) : parent + "." + std::string(alias);
      CHECK(spelled.emplace(full, std::string(k.path)).second);
    }
  }
  std::set<std::string_view> sections;
  for (const SectionInfo& s : allSections()) {
    CAPTURE(s.path);
    CHECK(sections.insert(s.path).second);
  }
}

TEST_CASE("every key lives in a declared section and has doc and docs URL") {
  for (const KeyInfo& k : allKeys()) {
    CAPTURE(k.path);
    CHECK(findSection(parentPath(k.path)) != nullptr);
    CHECK(findKey(k.path) == &k);
    CHECK(k.types != 0);
    CHECK((k.types & ~127u) == 0);
    CHECK_FALSE(k.doc.empty());
    CHECK(k.doc.back() == '.');
    CHECK(sentences(k.doc) <= 3);
    CHECK(k.docsUrl.starts_with("https://www.deepspeed.ai/"));
    CHECK(k.path.find(' ') == std::string_view::npos);
  }
}

TEST_CASE("every section has a key, a doc and a docs URL") {
  for (const SectionInfo& s : allSections()) {
    CAPTURE(s.path);
    CHECK_FALSE(s.doc.empty());
    CHECK(s.docsUrl.starts_with("https://www.deepspeed.ai/"));
    if (!s.strictSince.empty()) {
      CHECK(s.strict);
      CHECK(validVersion(s.strictSince));
    }
    if (!s.aliasOf.empty()) {
      REQUIRE(findSection(s.aliasOf));
      CHECK(findSection(s.aliasOf)->aliasOf.empty());
    }
    if (s.path.empty()) continue;
    if (leafName(s.path) == "*") {
      // A wildcard section stands for user-chosen names inside an open section.
      REQUIRE(findSection(parentPath(s.path)));
      CHECK(findSection(parentPath(s.path))->openKeys);
      continue;
    }
    const KeyInfo* key = findKey(s.path);
    REQUIRE(key);
    CHECK((key->types & Object) != 0);
    CHECK(findSection(parentPath(s.path)) != nullptr);
  }
}

TEST_CASE("deprecation targets exist") {
  for (const KeyInfo& k : allKeys()) {
    for (int s : k.deprecatedStages) CHECK((s >= 0 && s <= 3));
    if (k.deprecatedBy.empty()) {
      CHECK(k.deprecatedSince.empty());
      CHECK(k.deprecatedStages.empty());
      continue;
    }
    CAPTURE(k.path);
    const KeyInfo* target = findKey(k.deprecatedBy);
    REQUIRE(target);
    CHECK(target != &k);
    CHECK(target->deprecatedBy.empty());  // no chains
  }
}

TEST_CASE("allowed values and defaults are valid JSON of the declared types") {
  for (const KeyInfo& k : allKeys()) {
    CAPTURE(k.path);
    std::set<std::string> allowedLower;
    for (std::string_view a : k.allowed) {
      CAPTURE(a);
      REQUIRE(json::accept(a));
      json v = json::parse(a);
      CHECK(fitsTypes(v, k.types));
      CHECK(allowedLower.insert(lower(a)).second);
    }
    if (!k.defaultValue.empty()) {
      CAPTURE(k.defaultValue);
      REQUIRE(json::accept(k.defaultValue));
      json v = json::parse(k.defaultValue);
      CHECK(fitsTypes(v, k.types));
      if (!k.allowed.empty() && !k.openEnum && !v.is_null()) {
        CHECK(allowedLower.count(lower(k.defaultValue)) == 1);
      }
    }
    if (k.caseInsensitive || k.openEnum) CHECK_FALSE(k.allowed.empty());
  }
}

TEST_CASE("version fields parse and default changes are ordered") {
  for (const KeyInfo& k : allKeys()) {
    CAPTURE(k.path);
    for (std::string_view v : {k.since, k.until, k.removedAfter, k.deprecatedSince}) {
      if (!v.empty()) CHECK(validVersion(v));
    }
    if (!k.since.empty() && !k.until.empty()) CHECK(*Version::parse(k.since) < *Version::parse(k.until));
    if (!k.removedAfter.empty()) CHECK(k.until.empty());
    if (!k.defaultChanges.empty()) {
      std::optional<Version> last;
      for (std::size_t i = 0; i < k.defaultChanges.size(); ++i) {
        const DefaultChange& c = k.defaultChanges[i];
        CAPTURE(c.since);
        CHECK(json::accept(c.value));
        if (c.since.empty()) {
          CHECK(i == 0);
          continue;
        }
        auto v = Version::parse(c.since);
        REQUIRE(v);
        if (last) CHECK(*last < *v);
        last = v;
      }
      CHECK(k.defaultChanges.back().value == k.defaultValue);
    }
    std::vector<int> stages = k.stages;
    CHECK(std::is_sorted(stages.begin(), stages.end()));
    CHECK(std::adjacent_find(stages.begin(), stages.end()) == stages.end());
    for (int s : stages) CHECK((s >= 0 && s <= 3));
  }
}

TEST_CASE("\"auto\" fill matches the HF Trainer and Accelerate lists of the reference (section 9)") {
  // Transcribed from reference section 9.1 (transformers) and 9.2 (accelerate).
  const std::set<std::string> trainer = {
      "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "train_batch_size", "gradient_clipping",
      "optimizer.params.lr", "optimizer.params.betas", "optimizer.params.eps", "optimizer.params.weight_decay",
      "scheduler.params.warmup_min_lr", "scheduler.params.warmup_max_lr", "scheduler.params.total_num_steps",
      "scheduler.params.warmup_num_steps", "fp16.enabled", "amp.enabled", "amp.opt_level", "bf16.enabled",
      "zero_optimization.reduce_bucket_size", "zero_optimization.stage3_prefetch_bucket_size",
      "zero_optimization.stage3_param_persistence_threshold"};
  const std::set<std::string> accelerate = {
      "gradient_accumulation_steps", "gradient_clipping", "zero_optimization.stage",
      "zero_optimization.offload_optimizer.device", "zero_optimization.offload_param.device",
      "zero_optimization.offload_param.nvme_path", "zero_optimization.offload_optimizer.nvme_path",
      "zero_optimization.stage3_gather_16bit_weights_on_model_save", "train_micro_batch_size_per_gpu",
      "train_batch_size", "zero_optimization.reduce_bucket_size", "zero_optimization.stage3_prefetch_bucket_size",
      "zero_optimization.stage3_param_persistence_threshold", "fp16.enabled", "bf16.enabled"};
  for (const KeyInfo& k : allKeys()) {
    CAPTURE(k.path);
    std::string p(k.path);
    bool hf = k.autoFill == AutoFill::HfTrainer || k.autoFill == AutoFill::HfAndAccelerate;
    bool acc = k.autoFill == AutoFill::Accelerate || k.autoFill == AutoFill::HfAndAccelerate;
    CHECK(hf == (trainer.count(p) == 1));
    CHECK(acc == (accelerate.count(p) == 1));
  }
  for (const auto& p : trainer) CHECK_MESSAGE(findKey(p), p);
  for (const auto& p : accelerate) CHECK_MESSAGE(findKey(p), p);
}
