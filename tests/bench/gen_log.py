#!/usr/bin/env python3
"""Writes a synthetic multi-rank DeepSpeed training log of a given size.

Shape (from the real excerpts under tests/fixtures/logs): pdsh host prefixes, PyTorch
[rankN]: prefixes, DeepSpeed logger lines, per-step metrics dicts and timer lines from
16 ranks on 2 hosts, an fp16 OVERFLOW every few thousand steps, and at the end an NCCL
watchdog timeout, a traceback and the launcher's exit. Deterministic for a given size.

With --rank-files N, OUTPUT is a folder that gets N files as DeepSpeed's launcher writes them
with --enable_each_rank_log (`<YYYYmmddHHMMSS>_rank<N>.log`, no prefixes inside), --mib each:
rank 5 (or the last) runs out of GPU memory at the end, the others time out 30 minutes later.

With --shape error-heavy, every third line is the same NCCL watchdog timeout, printed again and
again by each rank (a job that kept logging after a collective hung). With --shape mixed-prefix,
the same from 8 ranks whose lines carry one of three prefixes in turn: torch's `[rankN]:`,
torchrun's `[defaultN]:` tag and a pdsh `worker-N: ` host prefix.

Usage: gen_log.py OUTPUT [--mib 1024] [--shape typical|error-heavy|mixed-prefix] [--rank-files N]
"""
import argparse
import os

HOSTS = ("worker-0", "worker-1")
RANKS = 16


def ds_time(t):
    return "2024-05-01 %02d:%02d:%02d,%03d" % (t // 3600 % 24, t // 60 % 60, t % 60, (t * 7) % 1000)


def header():
    lines = []
    for r in range(RANKS):
        host = HOSTS[r // 8]
        lines.append(f"{host}: [2024-05-01 00:00:0{r % 10},100] [INFO] [real_accelerator.py:203:get_accelerator] "
                     f"Setting ds_accelerator to cuda (auto detect)")
    lines.append("worker-0: [2024-05-01 00:00:11,000] [INFO] [launch.py:256:main] process 4242 spawned with command: "
                 "['/usr/bin/python3', '-u', 'train.py', '--local_rank=0', '--deepspeed_config', 'ds_config.json']")
    lines.append("worker-0: [2024-05-01 00:00:12,000] [INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed info: "
                 "version=0.14.2, git-hash=unknown, git-branch=unknown")
    lines.append("worker-0: [2024-05-01 00:00:12,500] [INFO] [comm.py:637:init_distributed] "
                 "cdb=None dist_world_size=16")
    lines.append("worker-0: NCCL version 2.20.5+cuda12.4")
    for key, value in (("zero_optimization_stage", "2"), ("zero_enabled", "True"), ("fp16_enabled", "True"),
                       ("bfloat16_enabled", "False"), ("train_batch_size", "512"),
                       ("gradient_accumulation_steps", "4"), ("world_size", "16"), ("gradient_clipping", "1.0")):
        lines.append(f"worker-0: [2024-05-01 00:00:13,000] [INFO] [config.py:1001:print]   {key} "
                     f"{'.' * (30 - len(key))} {value}")
    return lines


def step_block(step):
    """The lines one optimizer step adds: a log_dist line, timers, and a metrics dict per rank."""
    t = 20 + step * 3
    lines = [f"worker-0: [{ds_time(t)}] [INFO] [logging.py:96:log_dist] [Rank 0] step={step}, skipped={step // 4000}, "
             f"lr=[{0.0002 * min(1.0, step / 2000):.6e}], mom=[(0.9, 0.95)]",
             f"worker-0: [{ds_time(t)}] [INFO] [timer.py:260:stop] epoch=0/micro_step={step * 4}/global_step={step}, "
             f"RunningAvgSamplesPerSec={180 + step % 17}.{step % 1000:03d}, CurrSamplesPerSec={175 + step % 23}.5, "
             f"MemAllocated=21.4GB, MaxMemAllocated=37.{step % 10}GB"]
    for r in range(RANKS):
        host = HOSTS[r // 8]
        loss = 2.0 + ((step * 31 + r * 7) % 1000) / 1000.0
        lines.append(f"{host}: [rank{r}]: {{'loss': {loss:.4f}, 'grad_norm': {0.5 + (step * 13 + r) % 97 / 100:.4f}, "
                     f"'learning_rate': {0.0002 * min(1.0, step / 2000):.4e}, 'epoch': {step / 25000:.4f}}}")
    if step % 10 == 0:
        lines.append(f"worker-0: [{ds_time(t)}] [INFO] [logging.py:96:log_dist] [Rank 0] time (ms) | "
                     f"fwd_microstep: {140 + step % 11}.12 | bwd_microstep: {280 + step % 13}.55 | "
                     f"bwd_inner_microstep: 270.01 | bwd_allreduce_microstep: 9.87 | step_microstep: 31.20")
    if step % 4000 == 3999:
        lines.append(f"worker-0: [{ds_time(t)}] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! "
                     f"Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768")
    return lines


def watchdog_line(step, r, hung_seq):
    """Rank r's timeout of the collective that hung (SeqNum hung_seq), printed again at each step."""
    host = HOSTS[r // 8]
    t = 20 + step * 3
    return (f"{host}: [rank{r}]:[E501 {t // 3600 % 24:02d}:{t // 60 % 60:02d}:{t % 60:02d}.{(step * 7919) % 1000000:06d} "
            f"ProcessGroupNCCL.cpp:607] [Rank {r}] Watchdog caught collective operation timeout: "
            f"WorkNCCL(SeqNum={hung_seq}, OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, Timeout(ms)=1800000) "
            f"ran for 1800437 milliseconds before timing out.")


def error_heavy_block(step, hung_seq):
    """A step block where every third line is a watchdog timeout, from each rank in turn."""
    out = []
    for i, line in enumerate(step_block(step)):
        out.append(line)
        if i % 2 == 1:
            out.append(watchdog_line(step, (i // 2) % RANKS, hung_seq))
    return out


MIXED_RANKS = 8


def mixed_prefix(i, r):
    """The i-th line's prefix for rank r: the three kinds in turn."""
    kind = i % 3
    if kind == 0:
        return f"[rank{r}]:"
    if kind == 1:
        return f"[default{r}]:"
    return f"worker-{r // 4}: "


def mixed_prefix_block(step, hung_seq):
    """8 ranks, three prefix kinds, every third line a watchdog timeout."""
    t = 20 + step * 3
    out = []
    for i in range(MIXED_RANKS):
        r = (step + i) % MIXED_RANKS
        loss = 2.0 + ((step * 31 + r * 7) % 1000) / 1000.0
        out.append(mixed_prefix(i, r) + f"{{'loss': {loss:.4f}, 'grad_norm': {0.5 + (step * 13 + r) % 97 / 100:.4f}, "
                   f"'learning_rate': {0.0002 * min(1.0, step / 2000):.4e}, 'epoch': {step / 25000:.4f}}}")
        out.append(mixed_prefix(i + 1, r) + f"[{ds_time(t)}] [INFO] [timer.py:260:stop] epoch=0/micro_step="
                   f"{step * 4}/global_step={step}, RunningAvgSamplesPerSec={180 + step % 17}.{step % 1000:03d}")
        line = watchdog_line(step, r, hung_seq)
        out.append(mixed_prefix(i + 2, r) + line[line.index("[E501"):])
    return out


def footer(step):
    t = 20 + step * 3 + 1800
    lines = []
    for r in (3, 11):
        host = HOSTS[r // 8]
        lines.append(f"{host}: [rank{r}]:[E501 12:00:00.123456 ProcessGroupNCCL.cpp:607] [Rank {r}] Watchdog caught "
                     f"collective operation timeout: WorkNCCL(SeqNum={step * 9}, OpType=ALLREDUCE, NumelIn=1048576, "
                     f"NumelOut=1048576, Timeout(ms)=1800000) ran for 1800437 milliseconds before timing out.")
        lines.append(f"{host}: [rank{r}]:[E501 12:00:00.123456 ProcessGroupNCCL.cpp:1664] [PG 0 Rank {r}] To avoid "
                     f"data inconsistency, we are taking the entire process down.")
    lines.append("worker-1: [rank11]: Traceback (most recent call last):")
    lines.append('worker-1: [rank11]:   File "/opt/train.py", line 88, in <module>')
    lines.append('worker-1: [rank11]:   File "/opt/deepspeed/runtime/engine.py", line 2020, in backward')
    lines.append("worker-1: [rank11]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, "
                 "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5")
    lines.append(f"worker-0: [{ds_time(t)}] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 4242")
    lines.append(f"worker-0: [{ds_time(t)}] [ERROR] [launch.py:325:sigkill_handler] ['/usr/bin/python3', '-u', "
                 f"'train.py', '--local_rank=0'] exits with return code = -6")
    return lines


BLOCKS = {
    "typical": step_block,
    "error-heavy": lambda step: error_heavy_block(step, 4521),
    "mixed-prefix": lambda step: mixed_prefix_block(step, 4521),
}


def generate(path, target_bytes, shape="typical"):
    tmp = path + ".part"
    written = 0
    with open(tmp, "w", encoding="utf-8", newline="\n") as out:
        chunk = "\n".join(header()) + "\n"
        out.write(chunk)
        written += len(chunk)
        step = 0
        tail = "\n".join(footer(1)) + "\n"
        while written + len(tail) + 8192 < target_bytes:
            block = []
            for _ in range(64):
                block.extend(BLOCKS[shape](step))
                step += 1
            chunk = "\n".join(block) + "\n"
            out.write(chunk)
            written += len(chunk)
        chunk = "\n".join(footer(step)) + "\n"
        out.write(chunk)
    os.replace(tmp, path)


def rank_step_block(rank, step):
    """One optimizer step in one rank's own file: its logger lines and its metrics, no prefixes."""
    t = 20 + step * 3
    lines = [f"[{ds_time(t)}] [INFO] [timer.py:260:stop] epoch=0/micro_step={step * 4}/global_step={step}, "
             f"RunningAvgSamplesPerSec={180 + step % 17}.{step % 1000:03d}, CurrSamplesPerSec={175 + step % 23}.5, "
             f"MemAllocated=21.4GB, MaxMemAllocated=37.{step % 10}GB",
             f"{{'loss': {2.0 + ((step * 31 + rank * 7) % 1000) / 1000.0:.4f}, "
             f"'grad_norm': {0.5 + (step * 13 + rank) % 97 / 100:.4f}, "
             f"'learning_rate': {0.0002 * min(1.0, step / 2000):.4e}, 'epoch': {step / 25000:.4f}}}"]
    if rank == 0:
        lines.append(f"[{ds_time(t)}] [INFO] [logging.py:96:log_dist] [Rank 0] step={step}, skipped=0, "
                     f"lr=[{0.0002 * min(1.0, step / 2000):.6e}], mom=[(0.9, 0.95)]")
    return lines


def rank_footer(rank, failing, step):
    t = 20 + step * 3
    if rank == failing:
        return [f"[{ds_time(t)}] [WARNING] [stage3.py:2069:step] 4 pytorch allocator cache flushes since last step.",
                "Traceback (most recent call last):",
                '  File "/opt/train.py", line 88, in <module>',
                '  File "/opt/deepspeed/runtime/engine.py", line 2020, in backward',
                f"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 112.00 MiB. GPU {rank % 8} has a "
                "total capacity of 79.15 GiB of which 14.00 MiB is free."]
    t += 1800
    clock = "%02d:%02d:%02d" % (t // 3600 % 24, t // 60 % 60, t % 60)
    return [f"[E0501 {clock}.123456 ProcessGroupNCCL.cpp:607] [Rank {rank}] Watchdog caught collective operation "
            f"timeout: WorkNCCL(SeqNum={step * 9}, OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, "
            "Timeout(ms)=1800000) ran for 1800437 milliseconds before timing out."]


def generate_rank_files(folder, ranks, target_bytes):
    os.makedirs(folder, exist_ok=True)
    failing = 5 if ranks > 5 else ranks - 1
    for rank in range(ranks):
        path = os.path.join(folder, f"20240501000000_rank{rank}.log")
        if os.path.exists(path) and abs(os.path.getsize(path) - target_bytes) < 1024 * 1024:
            continue
        tmp = path + ".part"
        written, step = 0, 0
        with open(tmp, "w", encoding="utf-8", newline="\n") as out:
            while written + 8192 < target_bytes:
                block = []
                for _ in range(256):
                    block.extend(rank_step_block(rank, step))
                    step += 1
                chunk = "\n".join(block) + "\n"
                out.write(chunk)
                written += len(chunk)
            out.write("\n".join(rank_footer(rank, failing, step)) + "\n")
        os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("output")
    ap.add_argument("--mib", type=int, default=1024)
    ap.add_argument("--rank-files", type=int, default=0)
    ap.add_argument("--shape", choices=tuple(BLOCKS), default="typical")
    args = ap.parse_args()
    target = args.mib * 1024 * 1024
    if args.rank_files:
        generate_rank_files(args.output, args.rank_files, target)
        return
    if os.path.exists(args.output) and abs(os.path.getsize(args.output) - target) < 1024 * 1024:
        return  # already there from an earlier run: generation is deterministic
    generate(args.output, target, args.shape)


if __name__ == "__main__":
    main()
