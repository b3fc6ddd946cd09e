// Every fingerprint kind matches a real-shaped line (texts from the failure-mode
// reference), and ordinary lines match nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "analysis/logs/fingerprints/fingerprints.h"
#include "analysis/logs/log_analyzer.h"

using dsls::logs::Fp;
using dsls::logs::FingerprintMatcher;
using dsls::logs::FpMatch;

namespace {

std::set<Fp> kindsIn(const std::string& message) {
  std::vector<FpMatch> out;
  FingerprintMatcher::shared().match(message, out);
  std::set<Fp> kinds;
  for (const auto& m : out) kinds.insert(m.kind);
  return kinds;
}

struct Sample {
  Fp kind;
  const char* line;
};

}  // namespace

TEST_CASE("each fingerprint kind has a matching sample line") {
  const Sample samples[] = {
      {Fp::CudaOom, "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 978.00 MiB (GPU 0; 4.00 GiB total capacity; 1.68 GiB already allocated; 0 bytes free; 2.72 GiB reserved in total by PyTorch)"},
      {Fp::CudaOom, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.97 GiB. GPU 2 has a total capacty of 39.43 GiB of which 982.31 MiB is free."},
      {Fp::CpuAllocFail, "RuntimeError: [enforce fail at alloc_cpu.cpp:75] . DefaultCPUAllocator: can't allocate memory: you tried to allocate 2147483648 bytes."},
      {Fp::LauncherExit, "['/usr/bin/python3', '-u', 'main.py', '--local_rank=0', ...] exits with return code = -9"},
      {Fp::TorchrunFailed, "failed (exitcode: -9) local_rank: 0 (pid: 438) of binary: /opt/conda/bin/python"},
      {Fp::SignalReceived, "traceback : Signal 6 (SIGABRT) received by PID 3431"},
      {Fp::LauncherKilling, "Killing subprocess 2694488"},
      {Fp::ScriptNotFound, "/usr/bin/python3: can't open file 'train_jonas.py': [Errno 2] No such file or directory"},
      {Fp::NcclWarn, "misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer node-2<44512>"},
      {Fp::CudaIllegalAccess, "RuntimeError: CUDA error: an illegal memory access was encountered"},
      {Fp::CudaDeviceAssert, "RuntimeError: CUDA error: device-side assert triggered"},
      {Fp::CudaDeviceAssert, "/opt/pytorch/pytorch/aten/src/ATen/native/cuda/Loss.cu:240: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [17,0,0] Assertion `t >= 0 && t < n_classes` failed."},
      {Fp::CudaOom, "Cuda failure 2 'out of memory'"},
      {Fp::CudaIllegalAccess, "Cuda failure 700 'an illegal memory access was encountered'"},
      {Fp::WatchdogBoilerplate, "terminate called after throwing an instance of 'c10::DistBackendError'"},
      {Fp::AgentSignal, "torch.distributed.elastic.multiprocessing.api.SignalException: Process 8665 got signal: 1"},
      {Fp::CollectiveMismatch, "RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running collective: CollectiveFingerPrint(SequenceNumber=1OpType=BARRIER), but Rank 2 is running collective: CollectiveFingerPrint(SequenceNumber=0OpType=BARRIER)."},
      {Fp::Zero3TraceCache, "Invalidate trace cache @ step 0: expected module 0, but got module 6"},
      {Fp::NcclCommInit, "NCCL INFO comm 0x83a93c0 rank 6 nranks 8 cudaDev 6 busId a01c0 commId 0x15f48e7 - Init COMPLETE"},
      {Fp::ProcessSpawned, "process 1234 spawned with command: ['/usr/bin/python', '-u', 'train.py', '--local_rank=3']"},
      {Fp::RootCauseHeader, "Root Cause (first observed failure):"},
      {Fp::FailuresHeader, "Failures:"},
      {Fp::ChildFailed, "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:"},
      {Fp::WatchdogTimeout, "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 600060 milliseconds before timing out."},
      {Fp::WatchdogWork, "Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579."},
      {Fp::WatchdogTerminated, "Process group watchdog thread terminated with exception: NCCL error"},
      {Fp::CommAborted, "NCCL communicator was aborted on rank 3."},
      {Fp::WatchdogBoilerplate, "Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."},
      {Fp::HeartbeatTimeout, "Heartbeat monitor timed out! Process will be terminated after dumping debug info."},
      {Fp::NcclError, "RuntimeError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1169, unhandled system error, NCCL version 21.2.12"},
      {Fp::NcclError, "ncclSystemError: System call (socket, malloc, munmap, etc) failed."},
      {Fp::PortInUse, "RuntimeError: The server socket has failed to listen on any local network address. The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use)."},
      {Fp::RayMemoryMonitor, "(ActorModelRayActor pid=8249) Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider provisioning more memory on this node or reducing task parallelism by requesting more CPUs per task."},
      {Fp::RayActorDied, "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task."},
      {Fp::RayActorDied, "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file."},
      {Fp::PortInUse, "RuntimeError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use."},
      {Fp::NcclVersion, "NCCL INFO NCCL version 2.18.1+cuda12.1"},
      {Fp::RayMemoryMonitor, "Memory on the node (IP: 10.0.0.4, ID: 37f3) where the task (actor ID: 658f, name=RewardModelRayActor.__init__, pid=5315, memory used=1.67GB) was running was 445.48GB / 468.75GB (0.950365), which exceeds the memory usage threshold of 0.95. Ray killed this worker (ID: 3842) because it was the most recently scheduled task"},
      {Fp::RayWorkerDied, "(raylet) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker. RayTask ID: ffff Worker ID: fa30 Node ID: 077b Worker IP address: 10.112.9.31 Worker port: 38471 Worker PID: 3566775 Worker exit type: SYSTEM_ERROR"},
      {Fp::CudaLaunchFailure, "[PG ID 0 PG GUID 0(default_pg) Rank 1] Process group watchdog thread terminated with exception: CUDA error: unspecified launch failure"},
      {Fp::SignalHandlerReport, "[lhx-910:19474] Signal: Segmentation fault (11)"},
      {Fp::SignalHandlerReport, "[nmyjs-202-75:40360] Signal: Aborted (6)"},
      {Fp::SignalHandlerReport, "[host:40360:0] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x5653)"},
      {Fp::AccelerateMicroBatchAuto, "ValueError: When using DeepSpeed `accelerate.prepare()` requires you to pass at least one of training or evaluation dataloaders or alternatively set an integer value"},
      {Fp::NcclInvalidRank, "worker-1:25:25 [0] init.cc:981 NCCL WARN Invalid rank requested : 2/2"},
      {Fp::MonitoredBarrier, "[rank0]: RuntimeError: [Rank 0]: Ranks 6 failed to pass monitoredBarrier in 1800000 ms"},
      {Fp::HorovodShutdown, "[1,1]<stderr>:RuntimeError: Horovod has been shut down. This was caused by an exception on one of the ranks"},
      {Fp::AscendErrorHeader, "[ERROR] 2024-05-21-11:57:54 (PID:927000, Device:3, RankID:3) ERR02200 DIST call hccl api failed."},
      {Fp::NpuOom, "RuntimeError: NPU out of memory. Tried to allocate 22.00 MiB (NPU 6; 60.97 GiB total capacity)"},
      {Fp::NpuOom, "EL0004: 2024-08-28-16:15:00.358.141 Failed to allocate memory."},
      {Fp::HcclError, "RuntimeError: create_config:build/compiler_depend.ts:102 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 7"},
      {Fp::HcclError, "EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the HCCP process. Reason: Maybe the last training process is running."},
      {Fp::HpuOom, "[rank7]: RuntimeError: [Rank:7] FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for size::2123366400 (2025)MB"},
      {Fp::HpuOom, "RuntimeError: FATAL ERROR :: MODULE:SYNHELPER workspace Allocation of size ::14493510400 failed!"},
      {Fp::HpuGraphCompile, "[rank2]: RuntimeError: synNodeCreateWithId failed for node: batch_gemm with synStatus 26 [Generic failure]. ."},
      {Fp::HpuGraphCompile, "RuntimeError: Graph compile failed. synStatus=synStatus 26 [Generice failure]."},
      {Fp::XpuOom, "oneCCL: ze_call.cpp:28 do_call: EXCEPTION: ze error at zeCommandQueueExecuteCommandLists, code: ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"},
      {Fp::Overflow, "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 1.4582244039112795e-303"},
      {Fp::ScriptNotFound, "[8] [proxy:1:1@node2] HYD_spawn (hydra_spawn.c:117): execvp error on file FOUNDED_MLSL_ROOT/intel64/bin/ep_server (No such file or directory)"},
      {Fp::Fp16Bf16Both, "ValueError: At most one of fp16 and bf16 can be True, but not both"},
      {Fp::Segfault, "Fatal Python error: Segmentation fault"},
      {Fp::Segfault, "run.sh: line 12: 48213 Segmentation fault      (core dumped) python train.py"},
      {Fp::MpiProcessSignal, "mpirun noticed that process rank 1 with PID 4321 on node gpu-7 exited on signal 9 (Killed)."},
      {Fp::SpawnProcessExit, "torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with signal SIGKILL"},
      {Fp::SpawnProcessExit, "Exception: process 3 terminated with exit code 1"},
      {Fp::HorovodProcessExit, "Process 0 exit with status code 137."},
      {Fp::LocalGradNormNan, "AssertionError: Rank 3: found NaN in local grad norm in backwards pass. Device: 3"},
      {Fp::WatchdogWork, "[rank5]:[E626 16:48:25.440238649 ProcessGroupNCCL.cpp:2268] [PG ID 0 PG GUID 0(default_pg) Rank 5]  failure detected by watchdog at work sequence id: 120049 PG status: last enqueued work: 120051, last completed work: 120048"},
      {Fp::WatchdogWork, "[rank1]:[E801 01:01:39.254662130 ProcessGroupNCCL.cpp:1914] [PG ID 0 PG GUID 0(default_pg) Rank 1] Received a dump signal due to a collective timeout from this local rank and we will try our best to dump the debug info. Last enqueued NCCL work: 3755, last completed NCCL work: 3754."},
      {Fp::StepRunnerExit, "RuntimeError: Step 1 exited with non-zero status 1"},
      {Fp::Overflow, "| WARNING: overflow detected, setting loss scale to: 0.25"},
      {Fp::LossScaleMin, "FloatingPointError: Minimum loss scale reached (0.0001). Your loss is probably exploding."},
      {Fp::MpiInitFailed, "[718c7e141fd5:75498] [[INVALID],INVALID] FORCE-TERMINATE AT Not found:-13 - error plm_rsh_component.c(327)"},
      {Fp::OpBuildStep, "ninja: build stopped: subcommand failed."},
      {Fp::OpBuildStep, "nvcc fatal   : Unsupported gpu architecture 'compute_86'"},
      {Fp::OpBuildStep, "Exception: Installed CUDA version 11.0 does not match the version torch was compiled with 10.1, unable to compile cuda/cpp extensions without a matching cuda version."},
      {Fp::Zero3LowCpuMemUsage, "ValueError: DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with passing a `device_map`."},
      {Fp::SpawnProcessRaised, "-- Process 3 terminated with the following error:"},
      {Fp::NcclError, "[rank10]: RuntimeError: NCCL Error 2: unhandled system error (run with NCCL_DEBUG=INFO for details)"},
      {Fp::FirstProcessName, "  Process name: [[29973,1],0]"},
      {Fp::FirstProcessName, "Process name: elastic-test-worker-1[0]"},
      {Fp::FirstProcessExitCode, "  Exit code:    1"},
      {Fp::MpichExitCode, "=   EXIT CODE: 139"},
      {Fp::MpichExitString, "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)"},
      {Fp::SrunTaskEnded, "srun: error: nid00160: tasks 1408-1418,1420,1422-1423: Aborted"},
      {Fp::SrunTaskEnded, "srun: error: cn01: task 0: Exited with exit code 1"},
      {Fp::HcclTimeout, "EE9999  fftsplus task execute failed, dev_id=7, stream_id=7, task_id=5990, context_id=6, thread_id=0, err_type=13[hccl fftsplus timeout][FUNC:GetError][FILE:stream.cc][LINE:1512]"},
      {Fp::HcclTimeout, "[rank1]: EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time."},
      {Fp::NpuStreamSyncTimeout, "EE1002: 2024-09-26-16:06:40.565.510 Stream synchronize timeout. rtDeviceSynchronize execute failed, reason=[stream sync timeout]"},
      {Fp::MpiInitFailed, "[1,3]<stderr>:*** An error occurred in MPI_Init_thread"},
      {Fp::NcclWarn, "ubun:2375341:2375387 [0] init.cc:573 NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000"},
      {Fp::Zero3Inflight, "RuntimeError: still have inflight params [{'id': 8, 'status': 'AVAILABLE', 'numel': 26214400}]"},
      {Fp::Overflow, "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768"},
      {Fp::Overflow, "[deepscale] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 134217728.0, reducing to 67108864.0"},
      {Fp::Overflow, "Overflow detected. Skipping step. Attempted loss scale: 4096, reducing to 2048"},
      {Fp::LossScaleMin, "Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run."},
      {Fp::ZeroParamAssert, "AssertionError: {'id': 853, 'status': 'NOT_AVAILABLE', 'numel': 0, 'ds_numel': 0, 'shape': (0,)}"},
      {Fp::ZeroReducedTwice, "AssertionError: The parameter 388 has already been reduced. Gradient computed twice for this partition."},
      {Fp::Zero3PartitionedParam, "RuntimeError: 'weight' must be 2-D"},
      {Fp::CkptSizeMismatch, "size mismatch for model.decoder.layers.25.fc1.weight: copying a param with shape torch.Size([0]) from checkpoint, the shape in current model is torch.Size([10240, 2560])."},
      {Fp::CkptDpMismatch, "deepspeed.runtime.zero.utils.ZeRORuntimeException: The checkpoint being loaded used a DP world size of 8 but the current world size is 16. Automatic adjustment of ZeRO's optimizer state partitioning with a new world size is not currently supported."},
      {Fp::CkptNoLatest, "Unable to find latest file at /ckpt/latest, if trying to load latest checkpoint please ensure this file exists or pass an explicit checkpoint tag when loading a checkpoint."},
      {Fp::CkptWriteFailed, "RuntimeError: [enforce fail at inline_container.cc:778] . PytorchStreamWriter failed writing file data/0: file write failed"},
      {Fp::DiskFull, "OSError: [Errno 28] No space left on device"},
      {Fp::PydanticHeader, "pydantic_core._pydantic_core.ValidationError: 5 validation errors for DeepSpeedBF16Config"},
      {Fp::PydanticExtraV1, "zero_hpz_partition_size  extra fields not permitted (type=value_error.extra)"},
      {Fp::PydanticExtraV2, "  Extra inputs are not permitted [type=extra_forbidden, input_value=0, input_type=int]"},
      {Fp::PydanticOtherV2, "  Input should be a valid integer [type=int_type, input_value='x', input_type=str]"},
      {Fp::PydanticOtherV1, "  value is not a valid integer (type=type_error.integer)"},
      {Fp::BatchAssert, "AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size 8 != 2 * 1 * 1"},
      {Fp::BatchAssert, "train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size2 != 1 * 1 * 1"},
      {Fp::BatchAssert, "AssertionError: Micro batch size per gpu: 0 has to be greater than 0"},
      {Fp::BatchAssert, "AssertionError: Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided"},
      {Fp::HfMismatch, "ValueError: Please correct the following DeepSpeed config values that mismatch TrainingArguments values:"},
      {Fp::Fp16Bf16Both, "AssertionError: bfloat16 and fp16 modes cannot be simultaneously enabled"},
      {Fp::AutoNotFilled, "TypeError: '>' not supported between instances of 'str' and 'float'"},
      {Fp::MaxGradNormOpt, "ValueError: 'max_grad_norm' is not supported as an optimizer parameter, please switch to using the deepspeed parameter 'gradient_clipping'"},
      {Fp::UntestedOptimizer, "You are using an untested ZeRO Optimizer. Please add <\"zero_allow_untested_optimizer\": true> in the configuration file to use it."},
      {Fp::AmpZero, "AssertionError: Amp and ZeRO are not currently compatible, please use (legacy) fp16 mode which performs similar to amp opt_mode=O2"},
      {Fp::DuplicateKeys, "ValueError: Duplicate keys in DeepSpeed config: ['fp16']"},
      {Fp::ZeroSectionMissing, "ValueError: Please specify the ZeRO optimization config in the DeepSpeed config."},
      {Fp::PartialOffload, "AssertionError: Partial offloading only supported for ZeRO Stage 3."},
      {Fp::PipelineZero, "AssertionError: ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism"},
      {Fp::DeprecatedKey, "Config parameter cpu_offload is deprecated use offload_optimizer instead"},
      {Fp::UnsupportedOptimizer, "AssertionError: FooAdam is not a supported DeepSpeed Optimizer"},
      {Fp::OpBuild, "RuntimeError: Error building extension 'cpu_adam'"},
      {Fp::DsOptAdamMissing, "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'"},
      {Fp::DsVersion, "DeepSpeed info: version=0.7.6, git-hash=unknown, git-branch=unknown"},
      {Fp::DsVersion, "deepspeed info ................... 0.14.0, unknown, unknown"},
      {Fp::TorchVersion, "torch version .................... 2.1.0+cu121"},
      {Fp::ConfigDump, "  zero_config .................. stage=2 contiguous_gradients=True reduce_scatter=True overlap_comm=False"},
      {Fp::WorldSize, "dist_world_size=8"},
      {Fp::WorldSize, "\t`--num_processes` was set to a value of `8`"},
      {Fp::WorldSize, "using world size: 2, data-parallel size: 2, context-parallel size: 1, tensor-model-parallel size: 1"},
      {Fp::FairscaleParallelSize, "> initializing ddp with size 1"},
      {Fp::OffloadClientOptimizer, "ZeRORuntimeException: You are using ZeRO-Offload with a client provided optimizer (<class 'torch.optim.adamw.AdamW'>) which in most cases will yield poor performance."},
      {Fp::NcclUniqueIdStore, "RuntimeError: [14] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer."},
      {Fp::WorldInfo, "WORLD INFO DICT: {'localhost': [0, 1, 2, 3]}"},
      {Fp::PipelineOverlapOff, "Pipeline parallelism does not support overlapped communication, will be disabled."},
  };
  std::set<Fp> covered;
  for (const Sample& s : samples) {
    INFO(s.line);
    CHECK(kindsIn(s.line).count(s.kind) == 1);
    covered.insert(s.kind);
  }
  CHECK(covered.size() == static_cast<std::size_t>(Fp::Count));
  CHECK(FingerprintMatcher::shared().patternCount() == static_cast<std::size_t>(Fp::Count));

  // Every handler reads only group names its pattern has (a wrong name throws). The pydantic
  // header comes before its field errors, so those handlers read their groups too.
  dsls::logs::LogAnalyzer analyzer;
  std::size_t offset = 0;
  for (const Sample& s : samples) {
    INFO(s.line);
    CHECK_NOTHROW(analyzer.addLine(s.line, offset));
    offset += std::string_view(s.line).size() + 1;
  }
  CHECK_NOTHROW(analyzer.finish());
}

TEST_CASE("captures: every name of DeepSpeed's config dump, padded as DeepSpeedConfig.print pads it") {
  // deepspeed/runtime/config.py: dots = "." * (29 - len(arg)); logger.info("  {} {} {}".format(arg, dots, value))
  for (const std::string name : {"zero_config", "zero_optimization_stage", "zero_enabled", "bfloat16_enabled",
                                 "bfloat16_config", "fp16_enabled", "float16_config", "world_size", "gradient_clipping",
                                 "train_batch_size", "gradient_accumulation_steps", "communication_data_type"}) {
    const std::string line = "  " + name + " " + std::string(29 - name.size(), '.') + " 42";
    INFO(line);
    std::vector<FpMatch> out;
    FingerprintMatcher::shared().match(line, out);
    const auto dump = std::find_if(out.begin(), out.end(), [](const FpMatch& m) { return m.kind == Fp::ConfigDump; });
    REQUIRE(dump != out.end());
    CHECK(dump->group("name") == name);
    CHECK(dump->group("value") == "42");
  }
}

TEST_CASE("captures: watchdog fields by name, even when the line is cut") {
  std::vector<FpMatch> out;
  FingerprintMatcher::shared().match(
      "[Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=202558, OpType=_ALLGATHER_BASE, "
      "NumelIn=2359296, NumelOut=18874368, Timeout(ms)=1800000) ran for 1800436 mill",
      out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].group("seq") == "202558");
  CHECK(out[0].group("op") == "_ALLGATHER_BASE");
  CHECK(out[0].group("timeout_ms") == "1800000");
  CHECK(out[0].group("ran_ms") == "1800436");
  CHECK_THROWS_AS(out[0].group("SeqNum"), std::logic_error);  // a name the pattern does not have
}

TEST_CASE("captures: a group that did not take part is a null view") {
  std::vector<FpMatch> out;
  FingerprintMatcher::shared().match("[deepspeed] OVERFLOW! Rank 0 Skipping step.", out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].group("attempted").data() == nullptr);
  CHECK(out[0].firstOf({"attempted", "reduced"}).data() == nullptr);
}

TEST_CASE("ordinary training lines match nothing") {
  for (const char* line :
       {"{'loss': 1.2345, 'grad_norm': 0.87, 'learning_rate': 2e-05, 'epoch': 0.5}",
        "[Rank 0] step=100, skipped=0, lr=[2e-05], mom=[(0.9, 0.999)]", "NCCL INFO Channel 00/02 :    0   1   2   3",
        "Loading checkpoint shards: 100%|██████████| 4/4 [00:10<00:00,  2.50s/it]", "epoch 3: eval accuracy 0.81",
        "RuntimeError is a class name mentioned in prose", "", "    return forward_call(*args, **kwargs)",
        "time_elapsed 12.3 samples/sec 455.1",
        // Ray's memory table and its own memory settings, with no worker killed.
        "(ActorModelRayActor pid=8249) 8800\t1.18\tray::ReferenceModelRayActor",
        "(raylet) memory monitor refresh set to 250 ms, usage threshold 0.95",
        // An actor stopped on purpose, and the exception named in a traceback's source line.
        "The actor is dead because it was killed by `ray.kill`.", "    except ray.exceptions.ActorDiedError:",
        // Python's own assertions and other C++ exceptions, and the advice CUDA prints with its errors.
        "AssertionError: Assertion `x > 0` failed.", "terminate called after throwing an instance of 'std::bad_alloc'",
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1. Compile with `TORCH_USE_CUDA_DSA` to enable "
        "device-side assertions."}) {
    INFO(line);
    CHECK(kindsIn(line).empty());
  }
}

TEST_CASE("pathological input neither crashes nor hangs") {
  std::string junk(200000, 'a');
  for (std::size_t i = 0; i < junk.size(); i += 7) junk[i] = static_cast<char>(i % 256);
  std::vector<FpMatch> out;
  FingerprintMatcher::shared().match(junk, out);
  CHECK(out.empty());
  std::string manyOpens(100000, '(');
  manyOpens += "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=";
  FingerprintMatcher::shared().match(manyOpens, out);
  CHECK(out.empty());  // no digits after SeqNum=: not a timeout line
}
