// Reading the files `dsls check` looks at: a cheap probe of the head (binary test, size),
// whole reads for ds_configs (bounded), chunked reads for logs, and standard input spooled
// to an unlinked temporary file so it can be read twice like any other file.
#pragma once

#include "analysis/core/limits.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace dsls::cli {

// The size limit of a ds_config, shared with the server.
using analysis::kMaxConfigBytes;
inline constexpr std::size_t kBinaryProbeBytes = 8 << 10;
inline constexpr std::size_t kHeadBytes = 256 << 10;

struct Probe {
  std::string head;       // the first kHeadBytes
  std::uintmax_t size = 0;
  bool binary = false;    // a NUL byte in the first kBinaryProbeBytes
};

// nullopt with `error` set when the file cannot be opened or read.
std::optional<Probe> probeFile(const std::string& path, std::string& error);
std::optional<std::string> readWholeFile(const std::string& path, std::size_t maxBytes, std::string& error);
// Calls `chunk` for each piece read, in order; false with `error` set on a read error.
bool readChunks(const std::string& path, const std::function<void(std::string_view)>& chunk, std::string& error);
// As readChunks, each piece read from the offset `from` gives (given the end of the last
// piece; it may skip ahead); stops early where it gives std::nullopt.
bool readChunksFrom(const std::string& path, const std::function<std::optional<std::size_t>(std::size_t)>& from,
                    const std::function<void(std::string_view)>& chunk, std::string& error);

// Standard input copied to an unnamed temporary file, so that it can be read twice like a file.
class SpooledStdin {
 public:
  SpooledStdin() = default;
  ~SpooledStdin();
  SpooledStdin(const SpooledStdin&) = delete;
  SpooledStdin& operator=(const SpooledStdin&) = delete;

  bool spool(std::string& error);
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace dsls::cli
