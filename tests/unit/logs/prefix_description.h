// Every field of a parsed line prefix in one string, so a memoised parse and a fresh one can be
// compared whole.
#pragma once

#include "analysis/logs/lines/line_prefix.h"

#include <sstream>
#include <string>

namespace dsls::logs::testing {

inline std::string describePrefix(const PrefixView& v) {
  std::ostringstream out;
  out << (v.rank ? *v.rank : -2) << '|' << (v.localRank ? *v.localRank : -2) << '|' << static_cast<int>(v.rankSource)
      << '|' << v.host << '|' << v.timestamp << '|' << v.level << '|' << v.source << '|' << v.message << '|'
      << (v.cudaDevice ? *v.cudaDevice : -2) << '|' << (v.pid ? *v.pid : -2) << '|' << v.rankFamily << '|'
      << v.hadLoggerPrefix << '|' << v.familyMask;
  return out.str();
}

}  // namespace dsls::logs::testing
