// Peels the prefixes that launchers and loggers put in front of a training-log
// line: pdsh "host: ", torchrun "[default3]:", PyTorch "[rank3]:", the DeepSpeed
// logger "[date] [LEVEL] [file:line:func]", glog "[E0321 02:07:08.41 file.cc:607]",
// Python logging "ERROR:name:", NCCL debug "host:pid:tid [dev] NCCL INFO", and the
// "[Rank 3]" / "[PG 1 Rank 3]" markers at the start of the message.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dsls::logs {

// Where a line's rank came from. torchrun's default prefix carries the local
// rank, which equals the global rank only on a single node.
enum class RankSource { None, Global, LocalPrefix };

struct LineInfo {
  std::optional<int> rank;
  std::string host;
  std::string timestamp;
  std::string level;
  std::string_view message;  // view into the parsed line
  std::optional<int> localRank;
  RankSource rankSource = RankSource::None;
  std::string source;              // "launch.py:316:sigkill_handler", "ProcessGroupNCCL.cpp:607"
  std::optional<int> cudaDevice;   // NCCL debug lines: a device index on the host, not a rank
};

LineInfo parsePrefixes(std::string_view line);

// Allocation-free form used on the hot path; all views point into the line.
struct PrefixView {
  std::optional<int> rank;
  std::optional<int> localRank;
  RankSource rankSource = RankSource::None;
  std::string_view host, timestamp, level, source, message;
  std::optional<int> cudaDevice;
  bool hadLoggerPrefix = false;  // DeepSpeed logger, glog, Python logging or NCCL debug
};

PrefixView parsePrefixView(std::string_view line);

}  // namespace dsls::logs
