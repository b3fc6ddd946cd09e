// Accelerate config files whose deepspeed_config block sets ZeRO inline (analysis/yaml through the facade).
#include "tests/fuzz/fuzz_host_document.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return dsls::fuzz::fuzzHostDocument(data, size, "file:///w/accelerate.yaml", "yaml");
}
