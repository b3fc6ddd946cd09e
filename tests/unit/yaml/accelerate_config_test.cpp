// The Accelerate YAML reader: which files build a ds_config, the ds_config DeepSpeedPlugin builds
// from the deepspeed_config block, and the map back to the YAML.
#include <doctest/doctest.h>

#include <string>

#include "analysis/yaml/accelerate_config.h"

using namespace dsls::yaml;
using dsls::analysis::TextEdit;
using dsls::analysis::TextRange;

namespace {

const std::string kZero2 =
    "compute_environment: LOCAL_MACHINE\n"
    "deepspeed_config:\n"
    "  gradient_accumulation_steps: 4\n"
    "  gradient_clipping: 1.0\n"
    "  offload_optimizer_device: cpu\n"
    "  zero_stage: 2\n"
    "distributed_type: DEEPSPEED\n"
    "mixed_precision: 'bf16'\n";

std::string_view sourceOf(std::string_view source, TextRange r) { return source.substr(r.begin, r.end - r.begin); }

}  // namespace

TEST_CASE("the vendored grammar is of the ABI Debian's libtree-sitter reads") { CHECK(grammarAbiVersion() == 14); }

TEST_CASE("the ds_config DeepSpeedPlugin builds from the block, Accelerate's defaults included") {
  auto c = findAccelerateConfig(kZero2);
  REQUIRE(c);
  CHECK(c->json ==
        "{\n  \"train_batch_size\": \"auto\",\n  \"train_micro_batch_size_per_gpu\": \"auto\",\n"
        "  \"gradient_accumulation_steps\": 4,\n  \"zero_optimization\": {\"stage\": 2,\n"
        "  \"offload_optimizer\": {\"device\": \"cpu\"},\n  \"offload_param\": {\"device\": \"none\"},\n"
        "  \"stage3_gather_16bit_weights_on_model_save\": false},\n  \"gradient_clipping\": 1.0,\n"
        "  \"bf16\": {\"enabled\": true}\n}\n");
}

TEST_CASE("what is not Accelerate's DeepSpeed config with inline settings builds nothing") {
  CHECK_FALSE(findAccelerateConfig("distributed_type: MULTI_GPU\nmixed_precision: bf16\n"));
  CHECK_FALSE(findAccelerateConfig("deepspeed_config:\n  deepspeed_config_file: ds.json\n  zero3_init_flag: true\n"
                                   "distributed_type: DEEPSPEED\n"));
  CHECK_FALSE(findAccelerateConfig("deepspeed: ds_z3_config.json\nlearning_rate: 1e-5\n"));
  CHECK(findAccelerateConfig("deepspeed_config:\n  deepspeed_config_file: none\n  zero_stage: 3\ndistributed_type: DEEPSPEED\n"));
}

TEST_CASE("the map: values the YAML writes map and take scalar edits; Accelerate's own pieces do not") {
  auto c = findAccelerateConfig(kZero2);
  REQUIRE(c);
  const std::string& json = c->json;
  const std::size_t cpu = json.find("\"cpu\"");
  CHECK(sourceOf(kZero2, c->map.toSource(TextRange{cpu, cpu + 5})) == "cpu");
  auto edit = c->map.toSource(TextEdit{{cpu, cpu + 5}, "\"none\""});
  REQUIRE(edit);
  CHECK(sourceOf(kZero2, edit->range) == "cpu");
  // An inserted member would corrupt the YAML: refused.
  CHECK_FALSE(c->map.toSource(TextEdit{{cpu + 5, cpu + 5}, ", \"pin_memory\": true"}));
  CHECK_FALSE(c->map.toSource(TextEdit{{cpu, cpu + 5}, "{\"device\": \"none\"}"}));
  // The stage is a key the YAML names; the 16-bit save flag is Accelerate's default, written by no one.
  const std::size_t stage = json.find("\"stage\"");
  CHECK(sourceOf(kZero2, c->map.toSource(TextRange{stage, stage + 7})) == "zero_stage");
  CHECK(c->map.writtenByHost(TextRange{stage, stage + 7}));
  const std::size_t save = json.find("\"stage3_gather"), saveEnd = json.find(':', save);
  CHECK_FALSE(c->map.writtenByHost(TextRange{save, saveEnd}));
  CHECK(sourceOf(kZero2, c->map.toSource(TextRange{save, saveEnd})) == "deepspeed_config");
}

TEST_CASE("a value that does not read as Accelerate reads it is kept as a string for the config analysis") {
  auto c = findAccelerateConfig("deepspeed_config:\n  zero_stage: two\n  gradient_clipping: none\ndistributed_type: DEEPSPEED\n");
  REQUIRE(c);
  CHECK(c->json.find("\"stage\": \"two\"") != std::string::npos);
  CHECK(c->json.find("gradient_clipping") == std::string::npos);  // "none": not set
}
