#include "protocol/framing.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace dsls::protocol {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Finds the blank line ending a header block; accepts "\r\n\r\n" and, leniently, "\n\n".
std::size_t findHeaderEnd(std::string_view buf, std::size_t& terminatorLength) {
  for (std::size_t i = 0; i < buf.size(); ++i) {
    if (buf[i] != '\n') continue;
    if (i + 1 < buf.size() && buf[i + 1] == '\n') {
      terminatorLength = 2;
      return i;
    }
    if (i + 2 < buf.size() && buf[i + 1] == '\r' && buf[i + 2] == '\n') {
      terminatorLength = 3;
      return i;
    }
  }
  return std::string_view::npos;
}

std::size_t findCaseInsensitive(std::string_view hay, std::string_view needle) {
  if (hay.size() < needle.size()) return std::string_view::npos;
  for (std::size_t i = 0; i + needle.size() <= hay.size(); ++i)
    if (iequals(hay.substr(i, needle.size()), needle)) return i;
  return std::string_view::npos;
}

}  // namespace

void FrameReader::feed(std::string_view bytes, std::vector<FrameEvent>& out) {
  buffer_.append(bytes);
  for (;;) {
    if (state_ == State::Resync) {
      resync();
      if (state_ == State::Resync) return;
    }
    if (state_ == State::Header) {
      if (!parseHeaderBlock(out)) return;
      continue;
    }
    // State::Body
    if (buffer_.size() < expected_) return;
    if (buffer_.size() == expected_) {
      // The usual case: the buffer holds just this body, which moves out whole (no copy of a large didOpen).
      out.push_back({FrameEvent::Kind::Message, std::move(buffer_)});
      buffer_ = std::string();
    } else {
      out.push_back({FrameEvent::Kind::Message, buffer_.substr(0, expected_)});
      buffer_.erase(0, expected_);
      // Room grown for a large message is given back once it has gone.
      constexpr std::size_t kKeptBytes = std::size_t{1} << 20;
      if (buffer_.capacity() > kKeptBytes && buffer_.capacity() > 4 * buffer_.size()) buffer_.shrink_to_fit();
    }
    state_ = State::Header;
  }
}

// Returns true when progress was made (a header block consumed or an error raised).
bool FrameReader::parseHeaderBlock(std::vector<FrameEvent>& out) {
  // Leading blank lines between messages are tolerated.
  std::size_t skip = 0;
  while (skip < buffer_.size() && (buffer_[skip] == '\r' || buffer_[skip] == '\n')) ++skip;
  if (skip) buffer_.erase(0, skip);
  if (buffer_.empty()) return false;

  std::size_t terminator = 0;
  std::size_t end = findHeaderEnd(buffer_, terminator);
  if (end == std::string_view::npos) {
    if (buffer_.size() > kMaxHeaderBlock) {
      out.push_back({FrameEvent::Kind::Error, "header block longer than 8 KiB without a blank line; skipping"});
      buffer_.erase(0, buffer_.size() - 16);
      state_ = State::Resync;
      return true;
    }
    return false;
  }

  std::string_view block(buffer_.data(), end + 1);
  bool haveLength = false;
  bool badLength = false;
  unsigned long long length = 0;
  std::string lengthText;
  while (!block.empty()) {
    std::size_t nl = block.find('\n');
    std::string_view line = block.substr(0, nl);
    block.remove_prefix(nl == std::string_view::npos ? block.size() : nl + 1);
    line = trim(line);
    if (line.empty()) continue;
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;  // not a header line; ignored
    std::string_view name = trim(line.substr(0, colon));
    std::string_view value = trim(line.substr(colon + 1));
    if (!iequals(name, "Content-Length")) continue;  // Content-Type and others are accepted and ignored
    haveLength = true;
    lengthText = std::string(value);
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
    badLength = value.empty() || ec != std::errc() || ptr != value.data() + value.size();
  }
  std::size_t consumed = end + terminator;

  if (!haveLength) {
    out.push_back({FrameEvent::Kind::Error, "header block without Content-Length; skipping it"});
    buffer_.erase(0, consumed);
    state_ = State::Resync;
    return true;
  }
  if (badLength) {
    out.push_back({FrameEvent::Kind::Error, "Content-Length is not a number: '" + lengthText.substr(0, 40) + "'; skipping"});
    buffer_.erase(0, consumed);
    state_ = State::Resync;
    return true;
  }
  if (length > kMaxContentLength) {
    out.push_back({FrameEvent::Kind::Error, "Content-Length " + std::to_string(length) +
                                                " exceeds the 64 MiB limit; message skipped"});
    buffer_.erase(0, consumed);
    state_ = State::Resync;
    return true;
  }
  buffer_.erase(0, consumed);
  expected_ = static_cast<std::size_t>(length);
  // Room for the whole body at once: grown by doubling, a 50 MB body would pass through a
  // 32 MiB and a 64 MiB buffer at the same time.
  if (buffer_.capacity() < expected_) buffer_.reserve(expected_);
  state_ = State::Body;
  return true;
}

// Drops bytes up to the next "Content-Length" header; keeps a short tail in case it is split.
void FrameReader::resync() {
  static constexpr std::string_view kHeader = "content-length";
  std::size_t at = findCaseInsensitive(buffer_, kHeader);
  if (at == std::string_view::npos) {
    if (buffer_.size() > kHeader.size()) buffer_.erase(0, buffer_.size() - kHeader.size());
    return;
  }
  buffer_.erase(0, at);
  state_ = State::Header;
}

std::string frame(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

}  // namespace dsls::protocol
