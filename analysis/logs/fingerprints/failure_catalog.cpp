#include "analysis/logs/fingerprints/failure_catalog.h"

#include "analysis/facts/rule_id.h"

#include <array>
#include <stdexcept>
#include <string>

namespace dsls::logs {

using analysis::Severity;

namespace {

// One catalogue entry as written below; the id comes from failure_ids.inc.
struct Entry {
  FailureId failure;
  std::string_view title;
  Severity severity;
  Tier tier;
  bool rankIndependent;
  std::string_view mechanism, fix, verify, configKeys, ruleCodes;
};

constexpr std::string_view kCodes[] = {
#define DSLS_FAILURE(identifier, id) id,
#include "analysis/logs/fingerprints/failure_ids.inc"
#undef DSLS_FAILURE
};
static_assert(std::size(kCodes) == static_cast<std::size_t>(FailureId::Count));

const Entry kEntries[] = {
      // --- memory -------------------------------------------------------------
      {FailureId::CudaOom, "GPU out of memory", Severity::Error, Tier::Primary, false,
       "A CUDA allocation failed on this rank. Where it failed tells what filled the GPU: during "
       "_configure_distributed_model or _broadcast_model each GPU received the whole model; during the "
       "optimizer step the optimizer states did not fit; during backward the activations did not fit. "
       "The other ranks then block in their next collective and time out.",
       "Model placement: use ZeRO stage 3 and build the model under deepspeed.zero.Init (HF from_pretrained "
       "does this when the ZeRO-3 config is active). Optimizer step: offload the optimizer or add GPUs. "
       "Backward: lower train_micro_batch_size_per_gpu or enable activation checkpointing.",
       "Rerun the failing step with a smaller micro batch and watch `nvidia-smi --query-gpu=index,memory.used,"
       "memory.total --format=csv -l 1` on the failing node.",
       "zero_optimization.stage,train_micro_batch_size_per_gpu,zero_optimization.offload_optimizer", ""},
      {FailureId::HostOom, "Worker killed with SIGKILL (host memory)", Severity::Error, Tier::Primary, false,
       "Exit code -9 means the process received SIGKILL. On training nodes this is almost always the kernel "
       "OOM killer after host RAM ran out (CPU offload buffers, pinned memory, every rank loading a full copy "
       "of the model), but a scheduler or a user killing the job gives the same code.",
       "Use less host memory: offload to NVMe instead of CPU or offload less, set pin_memory to false, run "
       "fewer ranks per node, load the model once under zero.Init, or add RAM.",
       "On the node that lost the worker: `dmesg -T | grep -iE 'killed process|out of memory'` (or "
       "`journalctl -k`), and watch `free -g` while the job starts.",
       "zero_optimization.offload_optimizer.device,zero_optimization.offload_param.device,"
       "zero_optimization.offload_optimizer.pin_memory",
       ""},

      {FailureId::NpuOom, "NPU out of memory (Ascend)", Severity::Error, Tier::Primary, false,
       "A device allocation failed on an Ascend NPU: torch_npu's `NPU out of memory`, or the CANN runtime's "
       "EL0004 `Failed to allocate memory` with `driver error:out of memory` on the lines after it. As with a "
       "CUDA OOM, where it failed tells what filled the device, and the other ranks then wait in their next "
       "collective (HCCL timeouts).",
       "The same levers as on GPUs: ZeRO stage 3, optimizer offload, a smaller train_micro_batch_size_per_gpu, "
       "activation checkpointing. A device still held by an earlier job also fails this way: check it is free.",
       "Watch `npu-smi info` on the failing node while the step runs.",
       "zero_optimization.stage,train_micro_batch_size_per_gpu,zero_optimization.offload_optimizer", ""},
      {FailureId::HpuOom, "HPU out of memory (Intel Gaudi)", Severity::Error, Tier::Primary, false,
       "A device allocation failed on an Intel Gaudi HPU: the `PT_DEVMEM Allocation failed` of the PyTorch "
       "bridge, or the graph compiler's `SYNHELPER workspace Allocation ... failed` for the scratch memory of a "
       "compiled graph. The other ranks then wait in their next collective.",
       "Lower train_micro_batch_size_per_gpu or the sequence length, use ZeRO stage 3 or offload, or enable "
       "activation checkpointing; a workspace failure can also come from one very large graph (lazy mode "
       "accumulating too many ops between mark_step calls).",
       "Watch `hl-smi` on the failing node while the step runs.",
       "zero_optimization.stage,train_micro_batch_size_per_gpu,zero_optimization.offload_optimizer", ""},
      {FailureId::XpuOom, "XPU out of memory (Intel GPU)", Severity::Error, Tier::Primary, false,
       "A device allocation failed on an Intel GPU: Level Zero's (or the unified runtime's) "
       "`..._ERROR_OUT_OF_DEVICE_MEMORY`, or PyTorch's `XPU out of memory`; inside oneCCL it fails the "
       "collective that needed the buffer.",
       "The same levers as on GPUs: ZeRO stage 3, offload, a smaller micro batch, activation checkpointing; "
       "for a collective, smaller communication buckets (reduce_bucket_size, allgather_bucket_size).",
       "Watch `xpu-smi stats -d <device>` on the failing node while the step runs.",
       "zero_optimization.stage,train_micro_batch_size_per_gpu,zero_optimization.reduce_bucket_size", ""},
      {FailureId::RayActorDied, "Ray actor died (its worker process ended)", Severity::Error, Tier::Primary, false,
       "The driver called a Ray actor (a trainer, rollout or reference-model worker) whose worker process had "
       "died, and Ray raised ActorDiedError in the driver. The driver's traceback is a consequence: the cause is "
       "in the dead worker, which often printed nothing. With the exit type SYSTEM_ERROR the process ended "
       "without exiting on its own: the kernel OOM killer (host memory), a segmentation fault in a native "
       "extension, or `ray stop --force`.",
       "Find why the worker died before changing the training code. Host memory is the common cause: load "
       "the model once per node, offload less to CPU, or give the actors more memory. For a crash, run the "
       "worker's step outside Ray or with faulthandler enabled to get its stack.",
       "On the node of the dead actor (its ip is in the error): `dmesg -T | grep -iE 'killed process|out of "
       "memory|segfault'`, and the worker's own log under /tmp/ray/session_latest/logs/ (worker-*.err and "
       "raylet.out), which Ray keeps after the driver fails.",
       "", ""},

      // --- collectives --------------------------------------------------------
      {FailureId::CudaIllegalMemoryAccess, "CUDA illegal memory access (a sticky fault)", Severity::Error,
       Tier::Primary, false,
       "A kernel on this rank read or wrote outside its memory (or used a misaligned address or an illegal "
       "instruction). CUDA reports it asynchronously, at a later call, often in the NCCL watchdog, and the "
       "fault is sticky: the process's CUDA context is unusable and every later CUDA call on it fails with the "
       "same error, so only the first report is the cause. The other ranks then wait in their next collective "
       "and time out.",
       "Reproduce with CUDA_LAUNCH_BLOCKING=1 to see the kernel that faults. Common causes: fused or custom "
       "kernels (flash-attention, Triton, DeepSpeed ops) built for another torch or CUDA version, token ids at "
       "or above the embedding size, and tensors of unexpected shape passed to a fused op. Rebuild the "
       "extensions against the installed torch, or turn the fused kernel off to confirm.",
       "With CUDA_LAUNCH_BLOCKING=1 the traceback names the faulting kernel; after the fix the same steps run "
       "on that rank without the error.",
       "", ""},
      {FailureId::CudaLaunchFailure, "CUDA unspecified launch failure (a kernel died on the device)",
       Severity::Error, Tier::Primary, false,
       "A kernel on this rank stopped on the GPU without a more specific error: a memory fault the driver "
       "could not classify, a kernel killed by the GPU's watchdog, or a hardware or driver error (an Xid in "
       "the kernel log). CUDA reports it at a later call, often in the NCCL watchdog, and the fault is sticky: "
       "every later CUDA call on this process fails the same way, so only the first report is the cause. The "
       "other ranks then wait in their next collective and time out.",
       "Look at the node's kernel log for an Xid on that GPU (a hardware or driver fault: drain the node, "
       "reset the GPU). Without one, reproduce with CUDA_LAUNCH_BLOCKING=1 to see the kernel, and check custom "
       "or fused kernels (flash-attention, Triton, DeepSpeed ops) built for another torch or CUDA version.",
       "`dmesg -T | grep -i xid` on the node; with CUDA_LAUNCH_BLOCKING=1 the traceback names the kernel, and "
       "after the fix the same steps run on that rank without the error.",
       "", ""},
      {FailureId::Segfault, "Worker crashed with a segmentation fault (SIGSEGV)", Severity::Error, Tier::Primary,
       false,
       "The process touched memory it does not own in native code (a C++ or CUDA extension, a library built "
       "for another torch or Python, a data-loader worker, NCCL or MPI itself) and the kernel ended it with "
       "SIGSEGV. Python prints no exception for it; the other ranks then fail in their next collective.",
       "Find the native frame that crashed: run the rank with `python -X faulthandler` (or "
       "PYTHONFAULTHANDLER=1) for the Python stack, or under gdb for the C++ one. Rebuild compiled extensions "
       "(DeepSpeed ops, flash-attention, apex) against the installed torch, and try num_workers=0 to rule out "
       "the data loader.",
       "With PYTHONFAULTHANDLER=1 the crashing rank prints the stack of the call that faults; after the fix "
       "the run passes that step.",
       "", ""},
      {FailureId::CudaDeviceAssert, "CUDA device-side assertion failed (a sticky fault)", Severity::Error,
       Tier::Primary, false,
       "A kernel on this rank checked a condition on its inputs and it failed, most often an index out of "
       "range: a label id outside the number of classes in the loss (`t >= 0 && t < n_classes`), or a token "
       "id at or above the embedding size (`srcIndex < srcSelectDimSize`). The kernel prints the assertion "
       "once per GPU thread that failed it. CUDA reports the error at a later call, and the fault is sticky: "
       "every later CUDA call on this process fails with `device-side assert triggered`, so only the first "
       "report is the cause. The other ranks then wait in their next collective and time out.",
       "Check the data against the model: labels within [0, num_labels) (or the ignore index, usually -100), "
       "token ids below the vocabulary size (a tokenizer with added tokens needs "
       "`model.resize_token_embeddings(len(tokenizer))`), and position ids within the model's maximum "
       "length. The assertion's text names the condition and the kernel names the operation.",
       "Run one batch on the CPU or with CUDA_LAUNCH_BLOCKING=1 to get the Python line that fails, and check "
       "that `labels.max() < num_labels` and `input_ids.max() < model.get_input_embeddings().num_embeddings` "
       "hold on the data.",
       "", ""},
      {FailureId::LauncherSighup, "Launcher stopped by SIGHUP (its terminal closed)", Severity::Error,
       Tier::Primary, false,
       "torchrun's agent (or the launcher) received signal 1, SIGHUP, and shut its workers down. SIGHUP is "
       "sent when the terminal or SSH session that started the job closes; nohup does not always protect a "
       "job started from an interactive shell (torchrun installs its own handler). No worker failed on its "
       "own.",
       "Start long runs in tmux or screen, with setsid, or through the scheduler, or `nohup ... & disown`.",
       "Start the run detached, close the session, and check that the log goes on past the same step.", "",
       ""},
      {FailureId::LauncherSignal, "Launcher stopped by a signal from outside", Severity::Error, Tier::Primary,
       false,
       "torchrun's agent (or the launcher) received a signal, 15 (SIGTERM: a scheduler's time limit, "
       "preemption, `kill`) or 2 (SIGINT: Ctrl-C), and shut its workers down; the workers then exit with -15 "
       "or -2. No worker failed on its own, unless a worker's error comes earlier in the log.",
       "Check the scheduler's record of the job (time limit, preemption, the allocation's memory limit) and "
       "who could send the signal; save checkpoints often enough to resume after a preemption.",
       "The scheduler's record (e.g. `sacct -j <job> --format=State,ExitCode,Elapsed,Timelimit`) names the "
       "reason; a run inside its limits ends normally.",
       "", ""},
      {FailureId::NcclWatchdogTimeout, "NCCL collective timed out", Severity::Error, Tier::Collateral, false,
       "A collective did not finish within the process-group timeout. The rank that prints this line is "
       "waiting for peers: another rank died, stopped calling collectives, is busy with slow work (a "
       "rank-0-only checkpoint save or evaluation), or the network failed. When the wait ran for the whole "
       "timeout window, the event that stopped the peer happened about one timeout earlier.",
       "Find the rank that stopped first and fix that failure. Raise the timeout (DEEPSPEED_TIMEOUT in "
       "minutes, or the timeout given to init_process_group / ddp_timeout) only for phases that are "
       "legitimately slow.",
       "Rerun with `TORCH_DISTRIBUTED_DEBUG=DETAIL NCCL_DEBUG=INFO` and compare SeqNum and OpType across the "
       "ranks' timeout lines.",
       "", ""},
      {FailureId::HcclTimeout, "HCCL collective timed out (Ascend NPU)", Severity::Error, Tier::Collateral, false,
       "On Ascend NPUs the collectives run on HCCL. A rank that reports an HCCL timeout (EI0002 a notify wait, "
       "EI0006 a socket wait in which the remote rank did not send its data in time, an fftsplus task that "
       "ended with `hccl fftsplus timeout`) was waiting for peers: another rank died, stopped calling "
       "collectives, or the network between them failed. It is the same situation as an NCCL watchdog "
       "timeout on GPUs.",
       "Find the rank that stopped first (its own error, or the rank missing from the timeout lines) and fix "
       "that failure. Raise HCCL_EXEC_TIMEOUT / HCCL_CONNECT_TIMEOUT only for phases that are legitimately "
       "slow.",
       "Collect every rank's plog (ASCEND_PROCESS_LOG_PATH) and compare where each rank stopped.",
       "", ""},
      {FailureId::HcclError, "HCCL error (Ascend NPU)", Severity::Error, Tier::Communication, false,
       "HCCL, the collective library of Ascend NPUs, failed a call (`HCCL function error: ... error code is N`, "
       "`DIST call hccl api failed`), most often while creating the communicator. EJ0001 `Failed to initialize "
       "the HCCP process` means the device's communication process could not start, typically because a process "
       "of an earlier job still holds the device; a device id error means the ranks and the visible devices "
       "disagree.",
       "Make sure no earlier training process still runs on the NPUs (`npu-smi info`), that "
       "ASCEND_RT_VISIBLE_DEVICES matches the ranks of each node, and that the HCCL ports between nodes are open.",
       "Rerun with ASCEND_GLOBAL_LOG_LEVEL=1 and read the HCCL entries of the plog on the failing node.", "", ""},
      {FailureId::HpuGraphCompileFailed, "Graph compilation failed (Intel Gaudi)", Severity::Error, Tier::Primary,
       false,
       "The Gaudi graph compiler could not compile a graph or create a node in it (`Graph compile failed`, "
       "`synNodeCreateWithId failed`, with a synStatus code; 26 is its generic failure). The message hides the "
       "cause: an operation or shape the compiler does not support, a collective in the graph, or device memory "
       "running out while compiling.",
       "Read the compiler's log for the node that failed (ENABLE_CONSOLE=true LOG_LEVEL_ALL=3), check the "
       "versions of the Habana software stack against the DeepSpeed fork in use, and try lazy mode off or a "
       "smaller batch to tell memory from an unsupported operation.",
       "Rerun one step with ENABLE_CONSOLE=true LOG_LEVEL_ALL=3 and read the lines just before the failure.",
       "", ""},
      {FailureId::MonitoredBarrierTimeout, "Ranks missing from a monitored barrier", Severity::Error,
       Tier::Communication, false,
       "torch.distributed's monitoredBarrier (used by TORCH_DISTRIBUTED_DEBUG=DETAIL and by trainers that check "
       "the ranks are alive) waits on a gloo group and names the ranks that did not arrive in time: those ranks "
       "were stuck or dead, and the rank that reports it is only the one that waited.",
       "Look at the named ranks: their own error, or what they were doing (a long data loading or checkpoint "
       "step on those ranks alone, a hang in a collective of another group).",
       "Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL and py-spy dump the named ranks while the others wait.", "", ""},
      {FailureId::NpuStreamSyncTimeout, "NPU stream synchronisation timed out (Ascend NPU)", Severity::Error,
       Tier::Collateral, false,
       "The device did not finish the work queued on its streams in time (EE1002 `Stream synchronize "
       "timeout`, `rtDeviceSynchronize execute failed`). During distributed training this is most often a "
       "collective on the stream waiting for a rank that stopped; otherwise a kernel that hangs on the device.",
       "Look for the rank that failed first and fix that failure; with no such rank, check the device's own "
       "log in the Ascend plog for the task that did not finish.",
       "Rerun with ASCEND_LAUNCH_BLOCKING=1 on one node to find the operator that does not finish.",
       "", ""},
      {FailureId::MpiInitFailed, "MPI initialisation failed", Severity::Error, Tier::Primary, false,
       "The process could not start MPI (MPI_Init or MPI_Init_thread failed): the MPI runtime of the launcher "
       "and the one the job's Python packages were built with differ, the PMIx or ORTE daemon could not be "
       "reached, or the job was started outside mpirun while the code expected it. DeepSpeed reaches MPI when "
       "it finds no launcher variables and falls back to detecting an MPI environment (mpi4py).",
       "Start the job with the launcher that matches the installed MPI (mpirun of the same OpenMPI as mpi4py), "
       "or with DeepSpeed's launcher or torchrun so that DeepSpeed does not look for MPI at all.",
       "`python -c 'from mpi4py import MPI; print(MPI.Get_library_version())'` under the same mpirun prints "
       "the MPI library without an error.",
       "", ""},
      {FailureId::NcclDesync, "Ranks are out of step in their collectives", Severity::Error, Tier::Primary, false,
       "The watchdog lines show different SeqNum or OpType on different ranks, so the ranks were not "
       "executing the same collective. Typical causes: a collective called only on some ranks (save_checkpoint, "
       "save_16bit_model or GatheredParameters under `if rank == 0`), ranks running a different number of "
       "steps (uneven data), ZeRO-3 modules not executed on every rank (MoE experts, generate without "
       "synced_gpus), or data-dependent branches.",
       "Call DeepSpeed save/load and GatheredParameters on every rank; give every rank the same number of "
       "steps (drop_last); pass synced_gpus=True to generate under ZeRO-3; mark dynamically used modules as "
       "ZeRO-3 leaf modules.",
       "Rerun with `TORCH_DISTRIBUTED_DEBUG=DETAIL`, which reports the mismatching collective, or log the "
       "step and call site on every rank before each save and evaluation.",
       "", ""},
      {FailureId::NcclError, "NCCL communication error", Severity::Error, Tier::Communication, false,
       "NCCL reported an error while setting up or running a collective. Common causes are the wrong "
       "network interface, InfiniBand/RoCE settings, a small /dev/shm inside containers, or blocked ports "
       "between nodes. ncclRemoteError means a peer went away, which is usually a consequence of a failure "
       "on that peer.",
       "Set NCCL_SOCKET_IFNAME to the interface the nodes share, check the IB variables, give containers a "
       "larger --shm-size, and open the ports between nodes.",
       "Rerun with `NCCL_DEBUG=INFO` and run nccl-tests (`all_reduce_perf -b 8 -e 256M -f 2 -g <gpus per node>`) "
       "across the same nodes.",
       "", ""},
      {FailureId::NcclProcessAbort, "Process taken down by the NCCL watchdog", Severity::Warning, Tier::Collateral, false,
       "After a collective failed or timed out, the watchdog aborts the communicator and then the process "
       "(SIGABRT, exit code -6). These lines report the consequence, not the cause.",
       "Fix the initiating failure; these lines go away with it.",
       "Look about one process-group timeout before these lines for the first exception on any rank.", "", ""},
      {FailureId::HorovodShutdown, "Horovod shut down under this rank", Severity::Warning, Tier::Collateral, false,
       "Horovod's background thread stopped, and the collective this rank was waiting in raised `Horovod has "
       "been shut down`. Horovod stops when one of the ranks raised an exception or finished early: this rank "
       "reports the consequence, not the cause.",
       "Find the rank whose own error came first (the MPI launcher's report of the first process that ended "
       "names it) and fix that failure.",
       "Run with `horovodrun --output-filename DIR` to keep every rank's output, and read the first rank that "
       "failed.",
       "", ""},
      {FailureId::CollectiveMismatch, "Ranks called different collectives", Severity::Error, Tier::Primary, false,
       "With TORCH_DISTRIBUTED_DEBUG=DETAIL every process group is wrapped in a ProcessGroupWrapper, which "
       "compares each collective (operation, tensor shapes, dtypes, devices) across ranks before running it. "
       "The ranks named in the message issued different collectives at the same point: a rank-dependent or "
       "data-dependent branch, a parameter used on some ranks only, or inputs of different shapes. Without the "
       "wrapper the job would hang or reduce mismatched tensors.",
       "Make every rank issue the same collectives in the same order and shapes: pad or bucket variable-size "
       "inputs, keep rank-dependent branches out of forward and backward, and when the parameters used vary "
       "by batch (MoE, multimodal models on text-only batches) make every parameter take part in each step.",
       "Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL: the mismatch message no longer appears.", "", ""},
      {FailureId::CollectiveSequenceMismatch, "Ranks are at different collective sequence numbers",
       Severity::Error, Tier::Primary, false,
       "The ProcessGroupWrapper (TORCH_DISTRIBUTED_DEBUG=DETAIL) found ranks of one process group at different "
       "sequence numbers: one rank has issued more or fewer collectives than the others, e.g. an extra "
       "barrier, or an all_reduce in logging, metrics, evaluation or checkpoint code that runs on some ranks "
       "only, or a rank that skipped a step.",
       "Find the collective called on some ranks only (code under `if rank == 0`, early exits, skipped "
       "batches) and call it on every rank, or move it to a separate process group.",
       "Rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL: the sequence numbers agree and the message no longer "
       "appears.",
       "", ""},
      {FailureId::PortInUse, "Rendezvous port already in use", Severity::Error, Tier::Primary, false,
       "The master could not listen on its port because another process holds it: a leftover job, two jobs "
       "on one node with the same port, or distributed initialisation called twice.",
       "Pass a free port with --master_port (or MASTER_PORT), stop leftover processes, and initialise "
       "distributed once.",
       "`ss -ltnp | grep <port>` on the master node shows which process holds the port.", "", ""},

      {FailureId::ScriptNotFound, "Training script not found by the interpreter", Severity::Error, Tier::Primary,
       true,
       "Every process the launcher starts runs the same command, and the Python interpreter of each one could "
       "not open the script that command names: the path is relative to a different working directory, the "
       "file is missing (or unreadable) on that node, or it points at a copy the scheduler made (SLURM runs "
       "the batch script from /var/spool/slurmd). Each process exits with code 2 before importing anything; "
       "the launcher's report of the first exit it saw names no cause of its own.",
       "Launch with the script's absolute path, or change to its folder first; under SLURM, name the training "
       "script by its path in the project rather than relative to the batch script. On several nodes, make the "
       "file reachable at that path on each of them.",
       "`ls -l <path>` from the directory the launcher runs in (on every node) lists the file, and the rerun "
       "gets past start-up.",
       "", ""},

      // --- ZeRO internals -----------------------------------------------------
      {FailureId::Zero3ParamStateAssert, "ZeRO-3 parameter state assertion", Severity::Error, Tier::Primary, false,
       "ZeRO-3 gathers and releases each partitioned parameter around the sub-module that uses it. This "
       "assertion means a module ran outside those hooks or in an order the bookkeeping did not expect: a "
       "sub-module called directly, parameters shared between models, in-place edits inside "
       "GatheredParameters without modifier_rank, or generation and training mixed in one loop.",
       "Upgrade DeepSpeed; call sub-modules only through the engine's forward; use "
       "GatheredParameters(..., modifier_rank=0) for edits; mark dynamically executed modules as ZeRO-3 leaf "
       "modules.",
       "The assertion prints the parameter's ds_summary; find that parameter id in a run with the same seed "
       "and check which module uses it outside the engine.",
       "zero_optimization.stage", ""},
      {FailureId::ZeroGradReducedTwice, "Gradient reduced twice in ZeRO-1/2", Severity::Error, Tier::Primary, false,
       "ZeRO stage 1/2 reduces each parameter's gradient once per step. A second gradient for the same "
       "parameter arrived: reentrant activation checkpointing, two backward calls per step, or a weight used "
       "on two paths.",
       "Use non-reentrant checkpointing (gradient_checkpointing_kwargs={\"use_reentrant\": False}) or turn "
       "checkpointing off; combine losses into one backward call.",
       "Run one step with activation checkpointing off; if the assertion disappears, reentrant checkpointing "
       "is the cause.",
       "zero_optimization.stage", ""},
      {FailureId::Zero3PartitionedParam, "Partitioned ZeRO-3 parameter used outside the engine", Severity::Error,
       Tier::Primary, false,
       "Under ZeRO-3 a parameter outside its module's forward is an empty placeholder (shape [0]), so "
       "embedding or linear code reports it is not 2-D. The same message can have other causes; it points at "
       "ZeRO-3 when the run uses stage 3.",
       "Wrap the access in deepspeed.zero.GatheredParameters, call the model through the engine, and build "
       "every model that shares the run under the same zero.Init context.",
       "Print `param.shape` and `getattr(param, 'ds_status', None)` just before the failing call.",
       "zero_optimization.stage", ""},

      // --- checkpoints --------------------------------------------------------
      {FailureId::CheckpointSizeMismatch, "Checkpoint tensor shapes do not match the model", Severity::Error,
       Tier::Primary, true,
       "A shape of torch.Size([0]) on the checkpoint side means the weights were saved from a ZeRO-3 model "
       "without gathering them first; [0] on the model side means the model is still partitioned while "
       "loading. Other shape differences mean a different model or tokenizer size.",
       "Set zero_optimization.stage3_gather_16bit_weights_on_model_save to true before saving, or rebuild "
       "full weights from the ZeRO checkpoint with zero_to_fp32.py.",
       "`python zero_to_fp32.py <checkpoint_dir> <output_dir>` and load the result, then print the shape of "
       "the tensor named in the message.",
       "zero_optimization.stage3_gather_16bit_weights_on_model_save", ""},
      {FailureId::CheckpointDpWorldSize, "Checkpoint saved with a different data-parallel size", Severity::Error,
       Tier::Primary, true,
       "ZeRO optimizer states are partitioned by data-parallel rank. A checkpoint written with one DP world "
       "size cannot be loaded as is with another.",
       "Convert the checkpoint to a universal checkpoint and load it with checkpoint.load_universal, load "
       "without optimizer states, or extract fp32 weights with zero_to_fp32.py and restart.",
       "Run DeepSpeed's deepspeed/checkpoint/ds_to_universal.py with --input_folder <step dir> "
       "--output_folder <dir>, then resume with checkpoint.load_universal set to true.",
       "checkpoint.load_universal", ""},
      {FailureId::CheckpointLatestMissing, "No `latest` file: the run may restart from scratch", Severity::Warning,
       Tier::Advisory, true,
       "load_checkpoint found no `latest` tag file, returned (None, None), and training continued from "
       "step 0 unless the caller checked the result.",
       "Pass the checkpoint tag explicitly, or make sure the `latest` file exists in the checkpoint folder.",
       "`ls <checkpoint_dir>/latest`, and check that the first progress line after resuming does not show "
       "step 0.",
       "", ""},
      {FailureId::CheckpointWriteFailed, "Checkpoint file could not be written", Severity::Error, Tier::Primary, false,
       "torch.save could not write a file of the checkpoint: the write call under PyTorch's zip writer failed. "
       "Almost always the file system that holds the checkpoint is full or a disk quota is exceeded; a network "
       "file system error does the same. A DeepSpeed checkpoint holds every rank's ZeRO partition of the "
       "optimizer states as well as the model, several times the size of the weights, and every save adds "
       "another global_step folder. The file left behind is incomplete.",
       "Free space on the checkpoint volume or save to a larger one, keep fewer checkpoints (save_total_limit "
       "in the HF Trainer), or leave out the optimizer states when the run need not resume from them "
       "(save_only_model in the HF Trainer). Resume from an earlier, complete checkpoint.",
       "On the node of the failing rank: `df -h <checkpoint_dir>` and `du -sh <checkpoint_dir>/*` (and "
       "`quota -s` where quotas apply), then save once more.",
       "", ""},

      // --- configuration ------------------------------------------------------
      {FailureId::Zero3InflightParams, "ZeRO-3 parameters still being gathered at the end of a step",
       Severity::Error, Tier::Primary, false,
       "ZeRO-3 prefetches parameters along the module order it traced in earlier steps. When a step runs "
       "other modules than the trace (generation, evaluation, a branch taken only on some inputs), parameters "
       "it prefetched are never used and are still in flight when the step ends; DeepSpeed before 0.15.3 "
       "raises `still have inflight params` there (reset_step in partitioned_param_coordinator.py). From "
       "0.15.3 it waits for them and releases them instead.",
       "Upgrade DeepSpeed to 0.15.3 or later. On an older release, set "
       "zero_optimization.stage3_prefetch_bucket_size to 0 to stop prefetching, or keep the forward path the "
       "same from step to step.",
       "`pip show deepspeed` names the release; after the change the step that raised completes.",
       "zero_optimization.stage3_prefetch_bucket_size", ""},
      {FailureId::Zero3LowCpuMemUsage, "ZeRO-3 model loaded with low_cpu_mem_usage or a device_map", Severity::Error,
       Tier::Primary, true,
       "Under an active ZeRO-3 config, Transformers' from_pretrained builds the model inside deepspeed.zero.Init, "
       "which partitions each parameter as it is created; `low_cpu_mem_usage=True` and a `device_map` place the "
       "weights themselves, which conflicts with that, so from_pretrained refuses them.",
       "Drop low_cpu_mem_usage and device_map (and quantization that implies a device map) from the "
       "from_pretrained call when training with ZeRO-3; ZeRO-3 already keeps each GPU's share small.",
       "Search the training script and its framework's model loader for low_cpu_mem_usage and device_map.",
       "zero_optimization.stage", ""},
      {FailureId::Zero3TraceCacheInvalidated, "ZeRO-3 prefetch trace invalidated", Severity::Warning,
       Tier::Advisory, true,
       "ZeRO-3 records the order in which modules fetch their parameters during a step and prefetches along "
       "that trace in later steps. When a step runs the modules in another order (generation, evaluation, "
       "data-dependent branches, a module called more than once per step), the trace no longer matches and "
       "DeepSpeed drops it and prints this line. Results stay correct, but that step runs without "
       "prefetching; printed on every step it costs speed. It is not an error by itself, and a hang or "
       "timeout near it has another cause.",
       "If it is printed on every step: keep the forward path the same from step to step, set "
       "zero_optimization.stage3_prefetch_bucket_size to 0 to stop prefetching, or for MoE models mark the "
       "expert block as a ZeRO-3 leaf module (deepspeed.utils.set_z3_leaf_modules).",
       "The line stops after the first steps and the step time does not grow.",
       "zero_optimization.stage3_prefetch_bucket_size", ""},
      {FailureId::ConfigExtraKey, "Unknown key in a strict config section", Severity::Error, Tier::Primary, true,
       "This config section rejects keys it does not define. The key is misspelt, placed in the wrong "
       "section (aio inside zero_optimization, loss-scale keys inside bf16), or newer than the installed "
       "DeepSpeed. The wording 'extra fields not permitted' comes from pydantic v1 (DeepSpeed up to 0.14.x), "
       "'Extra inputs are not permitted' from pydantic v2 (DeepSpeed 0.15.0 and later).",
       "Remove or move the key, or install a DeepSpeed version that defines it.",
       "`python -c \"import deepspeed; print(deepspeed.__version__)\"`, then run `dsls check` on the config to "
       "see the same key flagged before launch.",
       "", ""},
      {FailureId::ConfigValidationError, "Config value rejected by validation", Severity::Error, Tier::Primary, true,
       "A value in a strict config section has the wrong type or range for the installed DeepSpeed.",
       "Correct the value named in the message.", "Run `dsls check` on the config before launching.", "", ""},
      {FailureId::BatchSizeAssert, "Batch size settings are inconsistent", Severity::Error, Tier::Primary, true,
       "DeepSpeed requires train_batch_size = train_micro_batch_size_per_gpu × gradient_accumulation_steps × "
       "data-parallel world size. Missing members are derived with integer division, which can also round "
       "the micro batch down to 0. The world size here excludes model- and sequence-parallel ranks.",
       "Give at most two of the three values (or \"auto\" under the HF Trainer) and make the global batch "
       "divisible by the number of data-parallel GPUs.",
       "Multiply micro batch × accumulation steps × GPUs of the launch command and compare with "
       "train_batch_size; `dsls check` on the config does the same arithmetic.",
       "train_batch_size,train_micro_batch_size_per_gpu,gradient_accumulation_steps", ""},
      {FailureId::HfConfigMismatch, "DeepSpeed config disagrees with TrainingArguments", Severity::Error, Tier::Primary,
       true,
       "The HF integration fills \"auto\" values from TrainingArguments and refuses concrete config values "
       "that differ from the command-line arguments.",
       "Set the listed config keys to \"auto\", or make them equal to the TrainingArguments values.",
       "Rerun; the ValueError lists each remaining pair as `- ds <key>=<value> vs hf <arg>=<value>`.", "", ""},
      {FailureId::Fp16Bf16Both, "fp16 and bf16 both enabled", Severity::Error, Tier::Primary, true,
       "Only one mixed-precision mode can be active.",
       "Enable one of fp16.enabled / bf16.enabled (\"auto\" under the HF Trainer follows the command line).",
       "Run `dsls check` on the config.", "fp16.enabled,bf16.enabled", ""},
      {FailureId::AutoNotFilled, "\"auto\" reached DeepSpeed without a value", Severity::Error, Tier::Primary, true,
       "A key written as \"auto\" was compared with a number. Only the HF Trainer and Accelerate replace "
       "\"auto\"; plain deepspeed.initialize keeps the string.",
       "Replace \"auto\" with numbers when the config is not used through the HF Trainer or Accelerate.",
       "Search the config for \"auto\" and check which keys your launcher fills.", "", ""},
      {FailureId::MaxGradNormInOptimizer, "max_grad_norm given as an optimizer parameter", Severity::Error,
       Tier::Primary, true, "DeepSpeed clips gradients itself and does not accept max_grad_norm in optimizer.params.",
       "Move the value to the top-level gradient_clipping key.", "Run `dsls check` on the config.",
       "optimizer.params.max_grad_norm,gradient_clipping", ""},
      {FailureId::UntestedZeroOptimizer, "Client optimizer not allowed with ZeRO", Severity::Error, Tier::Primary, true,
       "ZeRO refuses optimizers it was not tested with unless the config allows them.",
       "Set zero_allow_untested_optimizer to true, or configure the optimizer in the DeepSpeed config.",
       "Rerun after the change.", "zero_allow_untested_optimizer,optimizer.type", ""},
      {FailureId::ZeroOffloadClientOptimizer, "Client optimizer refused with ZeRO-Offload", Severity::Error,
       Tier::Primary, true,
       "With the optimizer offloaded to the CPU, DeepSpeed expects its own CPU optimizer "
       "(DeepSpeedCPUAdam); an optimizer object passed in by the script (torch.optim.AdamW, from a "
       "trainer such as Lightning or the HF Trainer) would step on the CPU slowly, so DeepSpeed raises "
       "ZeRORuntimeException while it builds the engine, on every rank.",
       "Configure the optimizer in the DeepSpeed config (optimizer.type) so that DeepSpeed builds its CPU "
       "optimizer, or pass a DeepSpeedCPUAdam; set zero_force_ds_cpu_optimizer to false only to accept the "
       "slower client optimizer.",
       "Rerun: the engine starts, and DeepSpeed's log names DeepSpeedCPUAdam as the basic optimizer.",
       "optimizer.type,zero_optimization.offload_optimizer.device,zero_force_ds_cpu_optimizer", ""},
      {FailureId::AmpWithZero, "Apex AMP used with ZeRO", Severity::Error, Tier::Primary, true,
       "The amp section cannot be combined with ZeRO.", "Use the fp16 or bf16 section instead of amp.",
       "Run `dsls check` on the config.", "amp.enabled", ""},
      {FailureId::DuplicateConfigKeys, "Duplicate keys in the DeepSpeed config", Severity::Error, Tier::Primary, true,
       "DeepSpeed rejects a config file in which a key appears twice in one object.",
       "Merge the duplicated sections into one.", "Run `dsls check` on the config; it marks both copies.", "", ""},
      {FailureId::AccelerateZeroSectionMissing, "Config has no zero_optimization section", Severity::Error,
       Tier::Primary, true, "Accelerate requires a zero_optimization section in a DeepSpeed config file.",
       "Add a zero_optimization section with the intended stage.", "Run `dsls check` on the config.",
       "zero_optimization", ""},
      {FailureId::PartialOffloadStage, "Partial optimizer offload needs ZeRO stage 3", Severity::Error, Tier::Primary, true,
       "offload_optimizer.ratio below 1.0 is only implemented for stage 3.",
       "Remove ratio or use stage 3.", "Run `dsls check` on the config.",
       "zero_optimization.offload_optimizer.ratio,zero_optimization.stage", ""},
      {FailureId::PipelineZeroStage, "ZeRO-2/3 used with pipeline parallelism", Severity::Error, Tier::Primary, true,
       "The pipeline engine supports ZeRO stage 0 and 1 only.", "Use ZeRO stage 1 or lower with PipelineModule.",
       "Run `dsls check` on the config.", "zero_optimization.stage", ""},
      {FailureId::ConfigDeprecatedKey, "Deprecated config key", Severity::Warning, Tier::Advisory, true,
       "DeepSpeed accepted the old key and copied its value to the new one.", "Rename the key as the message says.",
       "Run `dsls check` on the config.", "", ""},
      {FailureId::UnsupportedOptimizer, "Optimizer type not supported", Severity::Error, Tier::Primary, true,
       "optimizer.type is neither a DeepSpeed optimizer nor a torch.optim class name.",
       "Use a supported name (Adam, AdamW, Lamb, ... or a torch.optim class, case-sensitive).",
       "Run `dsls check` on the config.", "optimizer.type", ""},
      {FailureId::OpBuildFailure, "DeepSpeed op failed to build", Severity::Error, Tier::Primary, true,
       "A DeepSpeed C++/CUDA op (cpu_adam for CPU offload, fused_adam, ...) is compiled on first use and the "
       "build failed, usually because the CUDA toolkit or compiler does not match the installed torch. Every rank "
       "builds (or waits for and loads) the same op with the same toolchain, so every rank fails alike. A later "
       "\"no attribute 'ds_opt_adam'\" error is a consequence of this failure.",
       "Install a CUDA toolkit that matches torch and set CUDA_HOME, or prebuild the op (DS_BUILD_CPU_ADAM=1 "
       "pip install deepspeed), then clear the torch extensions cache.",
       "`ds_report` lists which ops are compatible and built.", "zero_optimization.offload_optimizer.device", ""},

      // --- numerics -----------------------------------------------------------
      {FailureId::Fp16LossScaleFloor, "fp16 loss scale collapsed to its minimum", Severity::Error, Tier::Primary, true,
       "Dynamic loss scaling halves the scale and skips the step on every overflow. When nearly every step "
       "overflows the scale reaches min_loss_scale and DeepSpeed stops the run. Typical causes: a model "
       "trained in bf16 now run in fp16, a learning rate that is too high, or bad samples.",
       "Use bf16 where the hardware supports it; otherwise lower the learning rate, clip gradients and "
       "inspect the data. Raising min_loss_scale only hides the problem.",
       "Rerun from the last good checkpoint with bf16 (or a lower learning rate) and check that OVERFLOW lines "
       "stop after the first steps.",
       "fp16.enabled,bf16.enabled,fp16.min_loss_scale", ""},
      {FailureId::Fp16OverflowSkips, "fp16 overflow: optimizer steps skipped", Severity::Information, Tier::Advisory, true,
       "With fp16 dynamic loss scaling, an overflowing step is skipped and the scale halved. A few overflows "
       "at the start are normal calibration of the scale; frequent overflows later mean the model or data "
       "regularly exceed the fp16 range.",
       "Nothing for a few early skips. For frequent skips: bf16, a lower learning rate, or gradient clipping.",
       "Compare `skipped=` with `step=` in the progress lines: the ratio should fall towards 0.",
       "fp16.enabled,fp16.initial_scale_power,fp16.loss_scale_window", ""},
      {FailureId::NanGradNorm, "Gradient norm is NaN or infinite", Severity::Error, Tier::Numeric, true,
       "Some gradient was not finite when the norm was computed. If the optimizer step ran on it, the weights "
       "are corrupted from that step on.",
       "Find where non-finite values start (learning rate, data, precision); see the notes for this run above.",
       "Rerun from the last checkpoint before the first NaN with the same seed and watch grad_norm.", "", ""},
      {FailureId::NanLoss, "Loss is NaN or infinite", Severity::Error, Tier::Numeric, true,
       "The loss stopped being finite, usually after non-finite gradients updated the weights or after an "
       "overflow in the forward pass.",
       "Find the first step where values stop being finite; see the notes for this run above.",
       "Rerun from the last checkpoint before the first NaN with the same seed and watch loss and grad_norm.",
       "", ""},
      {FailureId::LossStuckZero, "Loss stuck at exactly 0.0", Severity::Warning, Tier::Numeric, true,
       "A logged training loss of 0.0 over several logging steps (three in a row, or two when grad_norm on "
       "them is NaN or repeats one value) usually means the model output or the labels are degenerate (all "
       "labels masked, weights corrupted by earlier non-finite updates). A NaN grad_norm beside a loss of 0.0 "
       "points at the weights: once they are NaN the loss no longer measures anything. The HF Trainer rounds "
       "the logged loss to 4 decimals, so a real loss below 0.00005 also prints as 0.0.",
       "Check label masking and the first steps where the loss became 0; see the notes for this run above.",
       "Print the number of unmasked label tokens of one batch, and rerun the first affected steps.", "", ""},
      {FailureId::GradNormStuck, "Gradient norm stuck at 1.4142135623730951", Severity::Warning, Tier::Numeric, true,
       "The same grad_norm value (the square root of 2) on several consecutive steps is not a property of "
       "real gradients; it has been reported together with corrupted gradients in ZeRO-1/2.",
       "See the notes for this run above.", "Rerun a few steps and check whether grad_norm varies.", "", ""},

      // --- generic and context ------------------------------------------------
      {FailureId::PythonException, "Uncaught Python exception", Severity::Error, Tier::Primary, false,
       "This exception is not in the catalogue of known DeepSpeed failures. It is the first error in the log "
       "that is not a collective timeout or abort; the traceback frames show where it was raised.",
       "Read the traceback on the initiating rank and fix that error.",
       "Reproduce on a single process (or with the failing rank's data) to see the error without "
       "distributed noise.",
       "", ""},
      {FailureId::IncompleteTraceback, "Traceback without its exception line", Severity::Information, Tier::Advisory, false,
       "A traceback starts here but the log has no exception line for it (the log was cut, or the lines of "
       "several processes are interleaved without prefixes). The cause cannot be read from this log.",
       "Capture the complete output of every rank (DeepSpeed --enable_each_rank_log DIR, or torchrun --tee 3).",
       "Check whether the log file was truncated and whether other rank logs exist.", "", ""},
      {FailureId::TorchrunFailureSummary, "torchrun failure summary", Severity::Information, Tier::Advisory, false,
       "torchrun lists the first worker exit it observed under \"Root Cause (first observed failure)\". That "
       "is the order in which exits were noticed, not a causal analysis: with exit code -6 (SIGABRT) the "
       "listed rank was taken down by the NCCL watchdog like the others.",
       "Use the initiating failure found in the log lines instead of the summary's rank.",
       "Compare the summary's exit codes: -6 is a watchdog abort, -9 SIGKILL, 1 a Python exception.", "", ""},
      {FailureId::WorkerExit, "Worker exited with an error", Severity::Warning, Tier::Advisory, false,
       "A worker exited with a non-zero code and the log does not contain its cause. Exit code 1 is an "
       "uncaught Python exception, -6 (SIGABRT) an abort (NCCL watchdog or a C++ error), -15 (SIGTERM) a "
       "process stopped by its launcher after another worker failed.",
       "Find the worker's own output (per-rank logs) for the error that made it exit.",
       "Rerun with DeepSpeed --enable_each_rank_log DIR (or torchrun --tee 3) to keep every rank's output.",
       "", ""},
};

std::vector<FailureInfo> buildCatalog() {
  std::vector<FailureInfo> out;
  std::array<bool, static_cast<std::size_t>(FailureId::Count)> seen{};
  for (const Entry& e : kEntries) {
    const auto index = static_cast<std::size_t>(e.failure);
    if (seen[index]) throw std::logic_error("two catalogue entries for " + std::string(kCodes[index]));
    seen[index] = true;
    out.push_back({e.failure, kCodes[index], e.title, e.severity, e.tier, e.rankIndependent, e.mechanism, e.fix,
                   e.verify, e.configKeys, e.ruleCodes});
  }
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (!seen[i]) throw std::logic_error("no catalogue entry for " + std::string(kCodes[i]));
  return out;
}

// failureInfo by identifier: the catalogue position of each one.
std::array<std::size_t, static_cast<std::size_t>(FailureId::Count)> buildIndex(const std::vector<FailureInfo>& all) {
  std::array<std::size_t, static_cast<std::size_t>(FailureId::Count)> index{};
  for (std::size_t i = 0; i < all.size(); ++i) index[static_cast<std::size_t>(all[i].failure)] = i;
  return index;
}

}  // namespace

std::string_view failureCode(FailureId failure) { return kCodes[static_cast<std::size_t>(failure)]; }

const std::vector<FailureInfo>& allFailures() {
  static const std::vector<FailureInfo> catalog = buildCatalog();
  return catalog;
}

const FailureInfo& failureInfo(FailureId failure) {
  static const auto index = buildIndex(allFailures());
  return allFailures()[index[static_cast<std::size_t>(failure)]];
}

const FailureInfo* findFailure(std::string_view id) {
  for (const auto& f : allFailures())
    if (f.id == id) return &f;
  return nullptr;
}

const FailureInfo& failureInfo(std::string_view id) {
  if (const FailureInfo* f = findFailure(id)) return *f;
  throw std::out_of_range("no log failure with id " + std::string(id));
}

std::vector<std::string> splitList(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    const std::size_t comma = s.find(',');
    const std::string_view item = s.substr(0, comma);
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace dsls::logs
