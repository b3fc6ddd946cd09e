#include "cli/git_index.h"

#include <fstream>
#include <sstream>

namespace dsls::cli {
namespace fs = std::filesystem;
namespace {

constexpr std::uintmax_t kMaxIndexBytes = 512u << 20;
constexpr std::size_t kFixedEntryBytes = 62;  // times, ids, mode, size, object id, flags
constexpr std::uint16_t kExtendedFlag = 0x4000;

std::uint32_t be32(std::string_view s, std::size_t at) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(s[at])) << 24 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 1])) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 2])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 3]));
}

std::uint16_t be16(std::string_view s, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(s[at]) << 8 | static_cast<unsigned char>(s[at + 1]));
}

// Version 4's prefix length: git's offset varint (each continuation adds one before shifting).
std::optional<std::size_t> varint(std::string_view s, std::size_t& at) {
  if (at >= s.size()) return std::nullopt;
  auto c = static_cast<unsigned char>(s[at++]);
  std::size_t value = c & 0x7f;
  while (c & 0x80) {
    if (at >= s.size() || value > (SIZE_MAX >> 8)) return std::nullopt;
    c = static_cast<unsigned char>(s[at++]);
    value = ((value + 1) << 7) | (c & 0x7f);
  }
  return value;
}

// The git directory of a work tree: .git itself, or where a "gitdir: PATH" file points.
std::optional<fs::path> gitDirectory(const fs::path& root) {
  std::error_code ec;
  const fs::path dotGit = root / ".git";
  if (fs::is_directory(dotGit, ec)) return dotGit;
  std::ifstream in(dotGit);
  std::string line;
  if (!in || !std::getline(in, line) || !line.starts_with("gitdir:")) return std::nullopt;
  std::string target = line.substr(7);
  while (!target.empty() && (target.front() == ' ')) target.erase(target.begin());
  while (!target.empty() && (target.back() == '\r' || target.back() == ' ')) target.pop_back();
  fs::path dir(target);
  return dir.is_absolute() ? dir : root / dir;
}

}  // namespace

std::optional<TrackedFiles> TrackedFiles::parse(std::string_view s) {
  if (s.size() < 12 || s.substr(0, 4) != "DIRC") return std::nullopt;
  const std::uint32_t version = be32(s, 4), count = be32(s, 8);
  if (version < 2 || version > 4) return std::nullopt;
  TrackedFiles out;
  std::string previous;
  std::size_t at = 12;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t start = at;
    if (at + kFixedEntryBytes > s.size()) return std::nullopt;
    const std::uint16_t flags = be16(s, at + 60);
    at += kFixedEntryBytes;
    if (version >= 3 && (flags & kExtendedFlag)) at += 2;
    std::string path;
    if (version == 4) {
      auto strip = varint(s, at);
      if (!strip || *strip > previous.size()) return std::nullopt;
      path = previous.substr(0, previous.size() - *strip);
    }
    const std::size_t nul = s.find('\0', at);
    if (nul == std::string_view::npos) return std::nullopt;
    path.append(s.substr(at, nul - at));
    at = nul + 1;
    // Versions 2 and 3 pad each entry with NULs to a multiple of 8 bytes.
    if (version < 4) at = start + ((at - start + 7) / 8) * 8;
    previous = path;
    out.files_.insert(std::move(path));
  }
  return out;
}

std::optional<TrackedFiles> TrackedFiles::load(const fs::path& root) {
  auto dir = gitDirectory(root);
  if (!dir) return std::nullopt;
  std::error_code ec;
  const fs::path index = *dir / "index";
  if (fs::file_size(index, ec) > kMaxIndexBytes || ec) return std::nullopt;
  std::ifstream in(index, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return parse(bytes.str());
}

bool TrackedFiles::holdsTracked(const std::string& relative) const {
  const std::string prefix = relative + "/";
  auto it = files_.lower_bound(prefix);
  return it != files_.end() && it->compare(0, prefix.size(), prefix) == 0;
}

}  // namespace dsls::cli
