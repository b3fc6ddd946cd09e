// Monitoring and profiling: tensorboard, wandb, csv_monitor, comet, trackio
// (strict pydantic models), comms_logger (strict), flops_profiler (lenient),
// timers. Sources: deepspeed/monitor/config.py, comm/config.py,
// profiling/constants.py, utils/config.py; reference sections 1.2 and 8.
// The release from which the monitor and comms_logger models reject unknown
// keys was not verified, so their sections carry no strictSince.
#include "analysis/catalog/catalog_tables.h"

namespace dsls::catalog::tables {

namespace {
constexpr const char* kMonitorUrl = "https://www.deepspeed.ai/docs/config-json/#monitoring-module";
constexpr const char* kCommsUrl = "https://www.deepspeed.ai/docs/config-json/#communication-logging";
constexpr const char* kFlopsUrl = "https://www.deepspeed.ai/docs/config-json/#flops-profiler";
constexpr const char* kBase = "https://www.deepspeed.ai/docs/config-json/";

// tensorboard
std::span<const KeyInfo> tensorboardKeys() {
  static const KeyInfo keys[] = {
      {.path = "tensorboard", .types = kObj, .doc = "Log training metrics to TensorBoard (needs the tensorboard package).",
       .docsUrl = kMonitorUrl},
      {.path = "tensorboard.enabled", .types = kBool, .defaultValue = "false", .doc = "Write TensorBoard event files."},
      {.path = "tensorboard.output_path",
       .types = kStr,
       .defaultValue = "\"\"",
       .doc = "Directory for the event files; empty means under the directory the script was launched from. "
              "The documentation shows null, which has the same effect."},
      {.path = "tensorboard.job_name",
       .types = kStr,
       .defaultValue = "\"DeepSpeedJobName\"",
       .doc = "Sub-directory of output_path for this run."},
  };
  return keys;
}

// wandb
std::span<const KeyInfo> wandbKeys() {
  static const KeyInfo keys[] = {
      {.path = "wandb", .types = kObj, .doc = "Log training metrics to Weights & Biases (needs the wandb package).",
       .docsUrl = kMonitorUrl},
      {.path = "wandb.enabled", .types = kBool, .defaultValue = "false", .doc = "Log to Weights & Biases."},
      {.path = "wandb.group", .types = kStr | kNull, .defaultValue = "null", .doc = "W&B group used to bundle runs."},
      {.path = "wandb.team", .types = kStr | kNull, .defaultValue = "null", .doc = "W&B team (entity)."},
      {.path = "wandb.project", .types = kStr, .defaultValue = "\"deepspeed\"", .doc = "W&B project name."},
  };
  return keys;
}

// csv_monitor
std::span<const KeyInfo> csvMonitorKeys() {
  static const KeyInfo keys[] = {
      {.path = "csv_monitor", .types = kObj, .doc = "Write training metrics to local CSV files.", .docsUrl = kMonitorUrl},
      {.path = "csv_monitor.enabled", .types = kBool, .defaultValue = "false", .doc = "Write CSV files."},
      {.path = "csv_monitor.output_path",
       .types = kStr,
       .defaultValue = "\"\"",
       .doc = "Directory for the CSV files; empty means under the launch directory."},
      {.path = "csv_monitor.job_name",
       .types = kStr,
       .defaultValue = "\"DeepSpeedJobName\"",
       .doc = "Sub-directory of output_path for this run."},
  };
  return keys;
}

// comet
std::span<const KeyInfo> cometKeys() {
  static const KeyInfo keys[] = {
      {.path = "comet", .types = kObj, .doc = "Log training metrics to Comet (needs the comet_ml package).",
       .docsUrl = kMonitorUrl},
      {.path = "comet.enabled", .types = kBool, .defaultValue = "false", .doc = "Log to Comet."},
      {.path = "comet.samples_log_interval",
       .types = kInt,
       .defaultValue = "100",
       .doc = "Send metrics after every this many samples."},
      {.path = "comet.project", .types = kStr | kNull, .defaultValue = "null",
       .doc = "Comet project; can also come from .comet.config or COMET_PROJECT_NAME."},
      {.path = "comet.workspace", .types = kStr | kNull, .defaultValue = "null",
       .doc = "Comet workspace; can also come from .comet.config or COMET_WORKSPACE."},
      {.path = "comet.api_key", .types = kStr | kNull, .defaultValue = "null",
       .doc = "Comet API key. Prefer COMET_API_KEY or .comet.config over putting a secret in the config file."},
      {.path = "comet.experiment_name", .types = kStr | kNull, .defaultValue = "null", .doc = "Name of the Comet experiment."},
      {.path = "comet.experiment_key",
       .types = kStr | kNull,
       .defaultValue = "null",
       .doc = "Key of an existing experiment to log to: alphanumeric, 32 to 50 characters."},
      {.path = "comet.online",
       .types = kBool | kNull,
       .defaultValue = "null",
       .defaultNote = "null: Comet's own default, online",
       .doc = "Log to the Comet server (true) or keep an offline experiment locally (false)."},
      {.path = "comet.mode",
       .types = kStr | kNull,
       .allowed = {"\"get\"", "\"create\"", "\"get_or_create\""},
       .defaultValue = "null",
       .defaultNote = "null: Comet's default, get_or_create",
       .doc = "How the experiment starts: get continues experiment_key, create always starts a new one, get_or_create "
              "does whichever applies."},
  };
  return keys;
}

// trackio
std::span<const KeyInfo> trackioKeys() {
  static const KeyInfo keys[] = {
      {.path = "trackio",
       .types = kObj,
       .since = "0.19.6",
       .doc = "Log training metrics to Trackio (needs the trackio package).",
       .docsUrl = kMonitorUrl,
       .versionNote = "not in the 0.19.6-dev code the reference read; 0.19.6 is the earliest release that can have it"},
      {.path = "trackio.enabled", .types = kBool, .defaultValue = "false", .doc = "Log to Trackio."},
      {.path = "trackio.project", .types = kStr, .defaultValue = "\"deepspeed\"", .doc = "Trackio project name."},
  };
  return keys;
}

// comms_logger
std::span<const KeyInfo> commsLoggerKeys() {
  static const KeyInfo keys[] = {
      {.path = "comms_logger",
       .types = kObj,
       .doc = "Record collective operations issued through deepspeed.comm; summarise with deepspeed.comm.log_summary(). "
              "Logged calls are synchronised, which can slow training.",
       .docsUrl = kCommsUrl},
      {.path = "comms_logger.enabled", .types = kBool, .defaultValue = "false", .doc = "Log communication operations."},
      {.path = "comms_logger.verbose", .types = kBool, .defaultValue = "false", .doc = "Print every operation as it happens."},
      {.path = "comms_logger.prof_all", .types = kBool, .defaultValue = "true", .doc = "Profile all operations."},
      {.path = "comms_logger.debug",
       .types = kBool,
       .defaultValue = "false",
       .doc = "Add the calling function to each operation's log name."},
      {.path = "comms_logger.prof_ops",
       .types = kArr,
       .defaultValue = "[]",
       .doc = "Operation names to profile when prof_all is false, e.g. [\"all_reduce\", \"all_gather\"]."},
  };
  return keys;
}

// flops_profiler
std::span<const KeyInfo> flopsProfilerKeys() {
  static const KeyInfo keys[] = {
      {.path = "flops_profiler",
       .types = kObj,
       .doc = "Measure FLOPs, latency and parameters per module at one step. Enabling it also enables "
              "wall_clock_breakdown.",
       .docsUrl = kFlopsUrl},
      {.path = "flops_profiler.enabled", .types = kBool, .defaultValue = "false", .doc = "Run the FLOPs profiler."},
      {.path = "flops_profiler.recompute_fwd_factor",
       .types = kNum,
       .defaultValue = "0.0",
       .doc = "Extra forward passes to count for activation recomputation (e.g. 1.0 with full checkpointing)."},
      {.path = "flops_profiler.profile_step",
       .types = kInt,
       .defaultValue = "1",
       .doc = "Global step at which to profile; leave warm-up steps before it for accurate timing."},
      {.path = "flops_profiler.module_depth",
       .types = kInt,
       .defaultValue = "-1",
       .doc = "Depth of the module tree to report; -1 reports every level."},
      {.path = "flops_profiler.top_modules",
       .types = kInt,
       .defaultValue = "1",
       .doc = "Number of top modules to list in the aggregated profile."},
      {.path = "flops_profiler.detailed", .types = kBool, .defaultValue = "true", .doc = "Print the detailed per-module profile."},
      {.path = "flops_profiler.output_file",
       .types = kStr | kNull,
       .defaultValue = "null",
       .doc = "File for the profile; null prints to stdout."},
  };
  return keys;
}

// timers
std::span<const KeyInfo> timersKeys() {
  static const KeyInfo keys[] = {
      {.path = "timers",
       .types = kObj,
       .doc = "Engine timer settings; only the throughput sub-object is read.",
       .docsUrl = kBase},
      {.path = "timers.throughput", .types = kObj, .doc = "Throughput timer used for the samples/sec report."},
      {.path = "timers.throughput.enabled", .types = kBool, .defaultValue = "true", .doc = "Measure throughput."},
      {.path = "timers.throughput.synchronized",
       .types = kBool,
       .defaultValue = "true",
       .doc = "Synchronise the device when timing: exact numbers at some cost in speed."},
  };
  return keys;
}

}  // namespace

Group monitoring() {
  static const SectionInfo sections[] = {
      {.path = "tensorboard", .strict = true, .doc = "TensorBoard monitor settings.", .docsUrl = kMonitorUrl},
      {.path = "wandb", .strict = true, .doc = "Weights & Biases monitor settings.", .docsUrl = kMonitorUrl},
      {.path = "csv_monitor", .strict = true, .doc = "CSV monitor settings.", .docsUrl = kMonitorUrl},
      {.path = "comet", .strict = true, .doc = "Comet monitor settings.", .docsUrl = kMonitorUrl},
      {.path = "trackio", .strict = true, .doc = "Trackio monitor settings.", .docsUrl = kMonitorUrl},
      {.path = "comms_logger", .strict = true, .doc = "Communication logger settings.", .docsUrl = kCommsUrl},
      {.path = "flops_profiler", .strict = false, .doc = "FLOPs profiler settings.", .docsUrl = kFlopsUrl},
      {.path = "timers", .strict = false, .doc = "Timer settings.", .docsUrl = kBase},
      {.path = "timers.throughput", .strict = true, .doc = "Throughput timer settings.", .docsUrl = kBase},
  };
  return {{tensorboardKeys(), wandbKeys(), csvMonitorKeys(), cometKeys(), trackioKeys(), commsLoggerKeys(),
           flopsProfilerKeys(), timersKeys()},
          sections};
}

}  // namespace dsls::catalog::tables
