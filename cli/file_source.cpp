#include "cli/file_source.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <vector>

namespace dsls::cli {
namespace {

constexpr std::size_t kChunkBytes = 1 << 20;

// A read buffer left uninitialised: a walk reads thousands of small files, and zeroing a
// mebibyte for each one cost more than reading them.
struct ChunkBuffer {
  std::unique_ptr<char[]> bytes{new char[kChunkBytes]};
  char* data() { return bytes.get(); }
  static constexpr std::size_t size() { return kChunkBytes; }
};

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string errnoText() { return std::strerror(errno); }

// Reads up to `want` bytes (fewer only at the end of the file); -1 on error.
ssize_t readFull(int fd, char* buffer, std::size_t want) {
  std::size_t got = 0;
  while (got < want) {
    ssize_t n = ::read(fd, buffer + got, want - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  return static_cast<ssize_t>(got);
}

// Only regular files: a FIFO or a device named by mistake must not block or stream forever.
// O_NONBLOCK keeps open() itself from waiting for a FIFO's writer.
int openForReading(const std::string& path, std::string& error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    error = errnoText();
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = S_ISDIR(st.st_mode) ? "is a folder" : "not a regular file";
    ::close(fd);
    return -1;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

}  // namespace

std::optional<Probe> probeFile(const std::string& path, std::string& error) {
  Fd fd(openForReading(path, error));
  if (fd.get() < 0) return std::nullopt;
  Probe probe;
  struct stat st {};
  if (::fstat(fd.get(), &st) == 0) probe.size = static_cast<std::uintmax_t>(st.st_size);
  probe.head.resize(kHeadBytes);
  ssize_t n = readFull(fd.get(), probe.head.data(), kHeadBytes);
  if (n < 0) {
    error = errnoText();
    return std::nullopt;
  }
  probe.head.resize(static_cast<std::size_t>(n));
  probe.binary = std::string_view(probe.head).substr(0, kBinaryProbeBytes).find('\0') != std::string_view::npos;
  return probe;
}

std::optional<std::string> readWholeFile(const std::string& path, std::size_t maxBytes, std::string& error) {
  Fd fd(openForReading(path, error));
  if (fd.get() < 0) return std::nullopt;
  std::string text;
  ChunkBuffer buffer;
  while (true) {
    ssize_t n = readFull(fd.get(), buffer.data(), buffer.size());
    if (n < 0) {
      error = errnoText();
      return std::nullopt;
    }
    if (n == 0) break;
    if (text.size() + static_cast<std::size_t>(n) > maxBytes) {
      error = "larger than " + std::to_string(maxBytes >> 20) + " MiB";
      return std::nullopt;
    }
    text.append(buffer.data(), static_cast<std::size_t>(n));
  }
  return text;
}

bool readChunks(const std::string& path, const std::function<void(std::string_view)>& chunk, std::string& error) {
  return readChunksFrom(path, [](std::size_t at) { return std::optional<std::size_t>(at); }, chunk, error);
}

bool readChunksFrom(const std::string& path, const std::function<std::optional<std::size_t>(std::size_t)>& from,
                    const std::function<void(std::string_view)>& chunk, std::string& error) {
  Fd fd(openForReading(path, error));
  if (fd.get() < 0) return false;
  ChunkBuffer buffer;
  std::size_t at = 0;
  while (true) {
    const std::optional<std::size_t> next = from(at);
    if (!next) return true;
    if (*next != at) {
      if (::lseek(fd.get(), static_cast<off_t>(*next), SEEK_SET) < 0) {
        error = errnoText();
        return false;
      }
      at = *next;
    }
    ssize_t n = readFull(fd.get(), buffer.data(), buffer.size());
    if (n < 0) {
      error = errnoText();
      return false;
    }
    if (n == 0) return true;
    chunk(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
    at += static_cast<std::size_t>(n);
  }
}

SpooledStdin::~SpooledStdin() {
  if (fd_ >= 0) ::close(fd_);
}

// The copy has no name in any folder (O_TMPFILE, or a name removed at once) and is read back
// through /proc/self/fd, so nothing is left behind however dsls ends.
bool SpooledStdin::spool(std::string& error) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ < 0) {
    std::string name = (dir / "dsls-stdin-XXXXXX").string();
    fd_ = ::mkstemp(name.data());
    if (fd_ >= 0) ::unlink(name.c_str());
  }
  if (fd_ < 0) {
    error = "cannot create a temporary file for standard input: " + errnoText();
    return false;
  }
  path_ = "/proc/self/fd/" + std::to_string(fd_);
  ChunkBuffer buffer;
  while (true) {
    ssize_t n = ::read(STDIN_FILENO, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = "cannot read standard input: " + errnoText();
      return false;
    }
    if (n == 0) return true;
    for (ssize_t done = 0; done < n;) {
      ssize_t w = ::write(fd_, buffer.data() + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) {
        error = "cannot spool standard input: " + errnoText();
        return false;
      }
      done += w;
    }
  }
}

}  // namespace dsls::cli
