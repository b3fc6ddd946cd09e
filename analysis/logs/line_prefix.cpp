#include "analysis/logs/line_prefix.h"

#include "analysis/logs/text_util.h"

namespace dsls::logs {
namespace {

using text::isAlpha;
using text::isDigit;

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Reads digits at s[pos...]; returns count read.
std::size_t digitsAt(std::string_view s, std::size_t pos) {
  std::size_t n = 0;
  while (pos + n < s.size() && isDigit(s[pos + n])) ++n;
  return n;
}

std::optional<int> smallInt(std::string_view digits, bool negative = false) {
  if (digits.empty() || digits.size() > 9) return std::nullopt;
  int v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  return negative ? -v : v;
}

// pdsh writes "<host>: " before every remote line. Hosts are names with a digit
// (worker-5, x1000c0s6b0n0, 10.0.89.152) or "localhost"; this rules out
// exception names ("RuntimeError: ") and tools ("ninja: ").
bool takePdshHost(std::string_view& s, std::string_view& host) {
  std::size_t i = 0;
  bool hasDigit = false, hasAlpha = false;
  while (i < s.size() && i < 128) {
    const char c = s[i];
    if (isDigit(c)) hasDigit = true;
    else if (isAlpha(c)) hasAlpha = true;
    else if (c != '.' && c != '-' && c != '_') break;
    ++i;
  }
  if (i == 0 || i + 1 >= s.size() || s[i] != ':' || s[i + 1] != ' ') return false;
  const std::string_view token = s.substr(0, i);
  if (!isAlpha(token[0]) && !isDigit(token[0])) return false;
  if (token == "localhost") {
    // accepted as is
  } else if (!hasDigit) {
    return false;
  } else if (!hasAlpha) {
    // Digits and dots only: accept an IPv4 address, reject "2024-02-03" and "12".
    int dots = 0;
    for (char c : token) {
      if (c == '.') ++dots;
      else if (!isDigit(c)) return false;
    }
    if (dots != 3) return false;
  }
  if (endsWith(token, "Error") || endsWith(token, "Exception") || endsWith(token, "Warning")) return false;
  host = token;
  s.remove_prefix(i + 2);
  return true;
}

// "[rank3]:" (PyTorch excepthook, followed by one space for tracebacks) or
// "[<role><n>]:" (torchrun --tee, no space).
bool takeBracketRank(std::string_view& s, PrefixView& out) {
  if (s.size() < 4 || s[0] != '[') return false;
  std::size_t i = 1;
  while (i < s.size() && i < 40 && (isAlpha(s[i]) || s[i] == '_')) ++i;
  const std::string_view role = s.substr(1, i - 1);
  if (role.empty()) return false;
  const std::size_t nd = digitsAt(s, i);
  if (nd == 0) return false;
  const std::size_t close = i + nd;
  if (close + 1 >= s.size() || s[close] != ']' || s[close + 1] != ':') return false;
  const auto n = smallInt(s.substr(i, nd));
  if (!n) return false;
  if (role == "rank") {
    out.rank = *n;
    out.rankSource = RankSource::Global;
    s.remove_prefix(close + 2);
    if (!s.empty() && s[0] == ' ') s.remove_prefix(1);
  } else {
    out.localRank = *n;
    if (!out.rank) {
      out.rank = *n;
      out.rankSource = RankSource::LocalPrefix;
    }
    s.remove_prefix(close + 2);
  }
  return true;
}

bool isLevelWord(std::string_view w) {
  return w == "INFO" || w == "WARNING" || w == "ERROR" || w == "DEBUG" || w == "CRITICAL" || w == "WARN" ||
         w == "FATAL" || w == "TRACE";
}

// "[2024-02-03 11:48:17,107] [INFO] [launch.py:316:sigkill_handler] "
bool takeDeepSpeedLogger(std::string_view& s, PrefixView& out) {
  // [YYYY-MM-DD HH:MM:SS(,mmm)]
  if (s.size() < 21 || s[0] != '[' || !isDigit(s[1]) || s[5] != '-' || s[8] != '-' || s[11] != ' ' ||
      s[14] != ':' || s[17] != ':')
    return false;
  const std::size_t close = s.find(']', 18);
  if (close == std::string_view::npos || close > 40) return false;
  out.timestamp = s.substr(1, close - 1);
  std::string_view rest = s.substr(close + 1);
  rest = text::trimLeft(rest);
  // [LEVEL]
  if (!rest.empty() && rest[0] == '[') {
    const std::size_t e = rest.find(']');
    if (e != std::string_view::npos && e < 12 && isLevelWord(rest.substr(1, e - 1))) {
      out.level = rest.substr(1, e - 1);
      rest = text::trimLeft(rest.substr(e + 1));
    }
  }
  // [file.py:line:func]
  if (!rest.empty() && rest[0] == '[') {
    const std::size_t e = rest.find(']');
    if (e != std::string_view::npos && e < 160) {
      const std::string_view inner = rest.substr(1, e - 1);
      const std::size_t colon = inner.find(':');
      if (colon != std::string_view::npos && colon > 0 && inner.find(' ') == std::string_view::npos) {
        out.source = inner;
        rest = rest.substr(e + 1);
        if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
      }
    }
  }
  s = rest;
  out.hadLoggerPrefix = true;
  return true;
}

std::string_view glogLevel(char c) {
  switch (c) {
    case 'I': return "INFO";
    case 'W': return "WARNING";
    case 'E': return "ERROR";
    case 'F': return "FATAL";
    default: return {};
  }
}

// "[E321 02:07:08.414640780 ProcessGroupNCCL.cpp:607] " or "[E ProcessGroupNCCL.cpp:481] "
bool takeGlogBracket(std::string_view& s, PrefixView& out) {
  if (s.size() < 6 || s[0] != '[' || glogLevel(s[1]).empty()) return false;
  const std::size_t close = s.find(']');
  if (close == std::string_view::npos || close > 120) return false;
  const std::string_view inner = s.substr(2, close - 2);
  std::string_view file;
  std::string_view stamp;
  if (!inner.empty() && inner[0] == ' ') {
    file = inner.substr(1);
  } else {
    // MMDD HH:MM:SS.ffffff file:line
    const std::size_t nd = digitsAt(inner, 0);
    if (nd < 3 || nd > 4 || nd >= inner.size() || inner[nd] != ' ') return false;
    const std::size_t sp = inner.find(' ', nd + 1);
    if (sp == std::string_view::npos) return false;
    stamp = inner.substr(0, sp);
    file = inner.substr(sp + 1);
  }
  const std::size_t colon = file.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || digitsAt(file, colon + 1) == 0 ||
      file.find(' ') != std::string_view::npos)
    return false;
  out.level = glogLevel(s[1]);
  out.timestamp = stamp;
  out.source = file;
  s.remove_prefix(close + 1);
  if (!s.empty() && s[0] == ' ') s.remove_prefix(1);
  out.hadLoggerPrefix = true;
  return true;
}

// torchrun's own logger: "E0321 02:07:09.123000 140 torch/.../api.py:869] failed ..."
bool takeGlogPlain(std::string_view& s, PrefixView& out) {
  if (s.size() < 20 || glogLevel(s[0]).empty()) return false;
  const std::size_t nd = digitsAt(s, 1);
  if (nd != 4 || s[5] != ' ') return false;
  const std::size_t close = s.find("] ");
  if (close == std::string_view::npos || close > 200) return false;
  const std::string_view inner = s.substr(1, close - 1);
  const std::size_t lastSpace = inner.rfind(' ');
  if (lastSpace == std::string_view::npos) return false;
  const std::string_view file = inner.substr(lastSpace + 1);
  const std::size_t colon = file.rfind(':');
  if (colon == std::string_view::npos || digitsAt(file, colon + 1) == 0) return false;
  out.level = glogLevel(s[0]);
  const std::size_t stampEnd = inner.find(' ', 5);
  out.timestamp = inner.substr(0, stampEnd == std::string_view::npos ? inner.size() : stampEnd);
  out.source = file;
  s.remove_prefix(close + 2);
  out.hadLoggerPrefix = true;
  return true;
}

// Python logging default format "ERROR:torch.distributed.elastic.multiprocessing.api:failed ..."
bool takePythonLogging(std::string_view& s, PrefixView& out) {
  const std::size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon > 8 || !isLevelWord(s.substr(0, colon))) return false;
  const std::size_t second = s.find(':', colon + 1);
  if (second == std::string_view::npos || second == colon + 1) return false;
  const std::string_view name = s.substr(colon + 1, second - colon - 1);
  for (char c : name)
    if (!(text::isWordChar(c) || c == '.')) return false;
  out.level = s.substr(0, colon);
  out.source = name;
  s.remove_prefix(second + 1);
  out.hadLoggerPrefix = true;
  return true;
}

// NCCL_DEBUG: "node17-2:36748:36748 [0] NCCL INFO Using network IB"
bool takeNcclDebug(std::string_view& s, PrefixView& out) {
  const std::size_t bracket = s.find(" [");
  if (bracket == std::string_view::npos || bracket > 200) return false;
  const std::string_view head = s.substr(0, bracket);
  const std::size_t c2 = head.rfind(':');
  if (c2 == std::string_view::npos || c2 == 0) return false;
  const std::size_t c1 = head.rfind(':', c2 - 1);
  if (c1 == std::string_view::npos || c1 == 0) return false;
  if (digitsAt(head, c1 + 1) != c2 - c1 - 1 || digitsAt(head, c2 + 1) != head.size() - c2 - 1) return false;
  const std::size_t nd = digitsAt(s, bracket + 2);
  const std::size_t close = bracket + 2 + nd;
  if (nd == 0 || close >= s.size() || s[close] != ']') return false;
  std::string_view rest = s.substr(close + 1);
  if (rest.substr(0, 6) != " NCCL ") return false;
  const std::string_view afterNccl = rest.substr(6);
  const std::size_t sp = afterNccl.find(' ');
  const std::string_view level = afterNccl.substr(0, sp);
  if (!isLevelWord(level)) return false;
  if (out.host.empty()) out.host = head.substr(0, c1);
  out.cudaDevice = smallInt(s.substr(bracket + 2, nd));
  out.level = level;
  s = rest.substr(1);  // keep "NCCL INFO ..." in the message
  out.hadLoggerPrefix = true;
  return true;
}

// "[Rank 3] ", "[PG 1 Rank 0] ", "[PG ID 0 PG GUID 0(default_pg) Rank 3] ".
void takeMessageRank(std::string_view& s, PrefixView& out) {
  if (s.size() < 8 || s[0] != '[') return;
  const std::size_t close = s.find(']');
  if (close == std::string_view::npos || close > 80) return;
  const std::string_view inner = s.substr(1, close - 1);
  const std::size_t at = inner.rfind("Rank ");
  if (at == std::string_view::npos) return;
  if (at != 0 && inner.substr(0, 3) != "PG ") return;
  std::string_view num = inner.substr(at + 5);
  bool negative = false;
  if (!num.empty() && num[0] == '-') {
    negative = true;
    num.remove_prefix(1);
  }
  if (digitsAt(num, 0) != num.size()) return;
  const auto n = smallInt(num, negative);
  if (!n) return;
  // [Rank -1] is printed before the process group exists: no rank.
  if (*n >= 0 && out.rankSource != RankSource::Global) {
    out.rank = *n;
    out.rankSource = RankSource::Global;
  }
  s.remove_prefix(close + 1);
  if (!s.empty() && s[0] == ' ') s.remove_prefix(1);
}

}  // namespace

PrefixView parsePrefixView(std::string_view line) {
  PrefixView out;
  std::string_view s = line;
  takePdshHost(s, out.host);
  for (int guard = 0; guard < 6; ++guard) {
    if (takeBracketRank(s, out)) continue;
    if (takeDeepSpeedLogger(s, out)) break;
    if (takeGlogBracket(s, out)) break;
    if (takeGlogPlain(s, out)) break;
    if (takePythonLogging(s, out)) break;
    if (takeNcclDebug(s, out)) break;
    break;
  }
  takeMessageRank(s, out);
  out.message = s;
  return out;
}

LineInfo parsePrefixes(std::string_view line) {
  const PrefixView v = parsePrefixView(line);
  LineInfo info;
  info.rank = v.rank;
  info.host = std::string(v.host);
  info.timestamp = std::string(v.timestamp);
  info.level = std::string(v.level);
  info.message = v.message;
  info.localRank = v.localRank;
  info.rankSource = v.rankSource;
  info.source = std::string(v.source);
  info.cudaDevice = v.cudaDevice;
  return info;
}

}  // namespace dsls::logs
