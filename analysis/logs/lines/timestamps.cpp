#include "analysis/logs/lines/timestamps.h"

#include "analysis/logs/lines/text_util.h"

namespace dsls::logs {
namespace {

constexpr int kDaysBeforeMonth[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};

int two(std::string_view s, std::size_t at) {
  if (at + 2 > s.size() || !text::isDigit(s[at]) || !text::isDigit(s[at + 1])) return -1;
  return (s[at] - '0') * 10 + (s[at + 1] - '0');
}

// "HH:MM:SS" followed by an optional fraction after ',' or '.'.
std::optional<double> clock(std::string_view s) {
  const int h = two(s, 0), m = two(s, 3), sec = two(s, 6);
  if (h < 0 || m < 0 || sec < 0 || s[2] != ':' || s[5] != ':' || h > 23 || m > 59 || sec > 60) return std::nullopt;
  double value = h * 3600.0 + m * 60.0 + sec;
  if (s.size() > 9 && (s[8] == ',' || s[8] == '.')) {
    double scale = 0.1;
    for (std::size_t i = 9; i < s.size() && text::isDigit(s[i]) && i < 18; ++i, scale /= 10) value += (s[i] - '0') * scale;
  }
  return value;
}

std::optional<double> compose(int month, int day, std::optional<double> time) {
  if (!time || month < 1 || month > 12 || day < 1 || day > 31) return std::nullopt;
  return (kDaysBeforeMonth[month - 1] + day - 1) * 86400.0 + *time;
}

}  // namespace

std::optional<double> secondsInYear(std::string_view ts) {
  ts = text::trim(ts);
  // YYYY-MM-DD HH:MM:SS
  if (ts.size() >= 19 && ts[4] == '-' && ts[7] == '-' && (ts[10] == ' ' || ts[10] == 'T'))
    return compose(two(ts, 5), two(ts, 8), clock(ts.substr(11)));
  // MMDD or MDD, space, clock
  const std::size_t space = ts.find(' ');
  if (space == 3 || space == 4) {
    for (std::size_t i = 0; i < space; ++i)
      if (!text::isDigit(ts[i])) return std::nullopt;
    const int month = space == 3 ? ts[0] - '0' : two(ts, 0);
    const int day = two(ts, space - 2);
    if (ts.size() < space + 9) return std::nullopt;
    return compose(month, day, clock(ts.substr(space + 1)));
  }
  return std::nullopt;
}

}  // namespace dsls::logs
