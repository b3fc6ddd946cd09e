// Shell scripts that write ds_configs in heredocs or echoes (analysis/shell through the facade).
#include "tests/fuzz/fuzz_host_document.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return dsls::fuzz::fuzzHostDocument(data, size, "file:///w/pretrain.sh", "shellscript");
}
