// Helpers shared by the log analyser tests.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "analysis/logs/logs.h"

namespace dsls::logs::testing {

inline std::string readFixture(const std::string& name) {
  const std::string path = std::string(DSLS_SOURCE_DIR) + "/tests/fixtures/logs/" + name;
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing fixture " << path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A real excerpt of tests/fixtures/logs/real/, analysed.
inline LogReport analyzeReal(const std::string& name) { return analyzeText(readFixture("real/" + name)); }

inline const LogFinding* findingById(const LogReport& r, const std::string& id) {
  for (const auto& f : r.findings)
    if (f.id == id) return &f;
  return nullptr;
}

inline bool hasErrorFinding(const LogReport& r) {
  for (const auto& f : r.findings)
    if (f.severity == analysis::Severity::Error) return true;
  return false;
}

// The report's initiating finding; nullptr when it has none.
inline const LogFinding* initiatingFinding(const LogReport& r) {
  for (const auto& f : r.findings)
    if (f.initiating) return &f;
  return nullptr;
}

inline std::string findingIds(const LogReport& r) {
  std::string out;
  for (const auto& f : r.findings) out += (out.empty() ? "" : ",") + f.id + (f.initiating ? "*" : "");
  return out;
}

}  // namespace dsls::logs::testing
