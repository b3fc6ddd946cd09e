// Storage and checkpointing: aio (lenient), checkpoint (lenient with value
// checks), nebula, datastates. Sources: deepspeed/runtime/swap_tensor/
// constants.py and aio_config.py, runtime/constants.py, config.py,
// model_checkpointing/constants.py and config.py, nebula/constants.py,
// datastates/config.py; reference sections 8 and 10.
#include "analysis/catalog/catalog_tables.h"

namespace dsls::catalog::tables {

namespace {
constexpr const char* kAioUrl = "https://www.deepspeed.ai/docs/config-json/#asynchronous-io";
constexpr const char* kCkptUrl = "https://www.deepspeed.ai/docs/config-json/#checkpoint-options";
constexpr const char* kBase = "https://www.deepspeed.ai/docs/config-json/";

// aio
std::span<const KeyInfo> aioKeys() {
  static const KeyInfo keys[] = {
      {.path = "aio",
       .types = kObj,
       .doc = "Asynchronous I/O (libaio or GPUDirect Storage) used for NVMe offload. A top-level key: inside "
              "zero_optimization it is rejected.",
       .docsUrl = kAioUrl},
      {.path = "aio.block_size", .types = kInt, .defaultValue = "1048576", .doc = "I/O block size in bytes."},
      {.path = "aio.queue_depth", .types = kInt, .defaultValue = "8", .doc = "I/O queue depth."},
      {.path = "aio.intra_op_parallelism",
       .types = kInt,
       .defaultValue = "1",
       .since = "0.16.4",
       .doc = "Parallel sub-requests for each read or write submitted by a user thread. Replaced thread_count in 0.16.4."},
      {.path = "aio.thread_count",
       .types = kInt,
       .defaultValue = "1",
       .deprecatedBy = "aio.intra_op_parallelism",
       .deprecatedSince = "0.16.4",
       .doc = "Old name of intra_op_parallelism. From 0.16.4 through 0.19.5 it is silently ignored (the documentation "
              "still shows it); DeepSpeed master after 0.19.5 reads it again as a fallback."},
      {.path = "aio.single_submit",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Submit requests one by one instead of as a batch."},
      {.path = "aio.overlap_events",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Submit new requests without waiting for earlier ones to complete."},
      {.path = "aio.use_gds",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Use NVIDIA GPUDirect Storage (CUDA only).",
       .versionNote = "the release that added it was not verified"},
      {.path = "aio.io_backend",
       .types = kStr,
       .allowed = {"\"async_io\"", "\"posix\"", "\"aio\"", "\"async\"", "\"deepnvme\"", "\"sync\"", "\"simple\""},
       .defaultValue = "\"async_io\"",
       .since = "0.19.6",
       .doc = "I/O backend: async_io (aliases aio, async, deepnvme) or posix (aliases sync, simple). use_gds needs async_io.",
       .caseInsensitive = true,
       .versionNote = "on DeepSpeed master after 0.19.5; 0.19.6 is the earliest release that can have it"},
  };
  return keys;
}

// checkpoint
std::span<const KeyInfo> checkpointKeys() {
  static const KeyInfo keys[] = {
      {.path = "checkpoint", .types = kObj, .doc = "Checkpoint save and load options.", .docsUrl = kCkptUrl},
      {.path = "checkpoint.tag_validation",
       .types = kStr,
       .allowed = {"\"Warn\"", "\"Ignore\"", "\"Fail\""},
       .defaultValue = "\"Warn\"",
       .doc = "Check that all ranks use the same checkpoint tag: warn, ignore, or fail on a mismatch. Other values "
              "raise DeepSpeedConfigError.",
       .caseInsensitive = true},
      {.path = "checkpoint.load_universal",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Load a Universal Checkpoint, which can be resumed with a different parallel layout."},
      {.path = "checkpoint.use_node_local_storage",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Store checkpoint files by local rank so they load without a shared filesystem."},
      {.path = "checkpoint.parallel_write", .types = kObj, .doc = "Parallel checkpoint writing options."},
      {.path = "checkpoint.parallel_write.pipeline_stage",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Let pipeline stages write their checkpoint parts in parallel; only true or false is accepted."},
      {.path = "checkpoint.checkpoint_serialization",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Serialise checkpoint tensors in the standard torch format.",
       .versionNote = "the release that added it was not verified"},
      {.path = "checkpoint.writer",
       .types = kObj | kNull,
       .defaultValue = "null",
       .doc = "FastPersist checkpoint writer settings; null uses the default torch.save path.",
       .versionNote = "the release that added it was not verified"},
      {.path = "checkpoint.writer.type",
       .types = kStr,
       .allowed = {"\"FAST\"", "\"PYTHON\"", "\"MOCK\""},
       .defaultValue = "\"FAST\"",
       .doc = "Writer implementation.",
       .caseInsensitive = true},
      {.path = "checkpoint.writer.io_buffer_size",
       .types = kInt,
       .defaultValue = "67108864",
       .doc = "Bytes of pinned staging buffer used by the writer."},
      {.path = "checkpoint.writer.io_buffer_double", .types = kBool, .defaultValue = "true", .doc = "Double-buffer the staging buffer."},
      {.path = "checkpoint.writer.io_multiplier", .types = kInt, .defaultValue = "1", .doc = "I/O parallelism multiplier."},
      {.path = "checkpoint.writer.show_statistics", .types = kBool, .defaultValue = "false", .doc = "Print write statistics."},
      {.path = "checkpoint.writer.data_parallel",
       .types = kStr | kNull,
       .allowed = {"\"REPLICA\"", "\"SOCKET\"", "\"MACHINE\""},
       .defaultValue = "null",
       .doc = "Unit across which data-parallel ranks share the writing.",
       .caseInsensitive = true},
      {.path = "checkpoint.writer.decoupled",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Write checkpoints from a decoupled background process."},
  };
  return keys;
}

// nebula
std::span<const KeyInfo> nebulaKeys() {
  static const KeyInfo keys[] = {
      {.path = "nebula",
       .types = kObj,
       .doc = "Azure Nebula asynchronous checkpointing. Removed on DeepSpeed master after 0.19.5, where the key is "
              "rejected instead of silently falling back to torch.save.",
       .docsUrl = kBase,
       .removedAfter = "0.19.5"},
      {.path = "nebula.enabled", .types = kBool, .defaultValue = "false", .doc = "Use Nebula for checkpoints."},
      {.path = "nebula.persistent_storage_path",
       .types = kStr | kNull,
       .defaultValue = "null",
       .doc = "Where Nebula persists checkpoints in the background."},
      {.path = "nebula.persistent_time_interval",
       .types = kInt,
       .defaultValue = "100",
       .doc = "Interval between background persistence runs."},
      {.path = "nebula.num_of_version_in_retention",
       .types = kInt,
       .defaultValue = "2",
       .doc = "Checkpoint versions kept in memory."},
      {.path = "nebula.enable_nebula_load",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Load through Nebula; set false to load with plain torch instead."},
      {.path = "nebula.nebula_load_path",
       .types = kStr | kNull,
       .defaultValue = "null",
       .defaultNote = "null: persistent_storage_path",
       .doc = "Parent folder of the checkpoint to resume from."},
  };
  return keys;
}

// DataStates
std::span<const KeyInfo> datastatesKeys() {
  static const KeyInfo keys[] = {
      {.path = "datastates_ckpt",
       .types = kObj | kBool,
       .doc = "DataStates-LLM asynchronous checkpointing. Present and not false enables it; the object is passed to "
              "the DataStates engine.",
       .docsUrl = kBase,
       .versionNote = "the release that added it was not verified"},
  };
  return keys;
}

}  // namespace

Group storage() {
  static const SectionInfo sections[] = {
      {.path = "aio", .strict = false, .doc = "Asynchronous I/O settings; unknown keys are ignored.", .docsUrl = kAioUrl},
      {.path = "checkpoint", .strict = false, .doc = "Checkpoint settings.", .docsUrl = kCkptUrl},
      {.path = "checkpoint.parallel_write", .strict = false, .doc = "Parallel write settings.", .docsUrl = kCkptUrl},
      {.path = "checkpoint.writer", .strict = false, .doc = "Checkpoint writer settings.", .docsUrl = kCkptUrl},
      {.path = "nebula", .strict = false, .doc = "Nebula settings.", .docsUrl = kBase},
      {.path = "datastates_ckpt",
       .strict = false,
       .openKeys = true,
       .doc = "DataStates settings, passed through.",
       .docsUrl = kBase},
  };
  return {{aioKeys(), checkpointKeys(), nebulaKeys(), datastatesKeys()}, sections};
}

}  // namespace dsls::catalog::tables
