// Shared helpers for the ds_config rule tests: reading files, positions as
// line:column, settings from small text files, and applying fixes.
#pragma once

#include "analysis/config/config_analysis.h"
#include "analysis/core/finding.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace dsls::test {

inline std::optional<std::string> readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void writeFile(const std::filesystem::path& p, const std::string& content) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << content;
}

// 1-based line and 1-based byte column of `offset`.
inline std::pair<int, int> lineCol(const std::string& text, std::size_t offset) {
  int line = 1, col = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') ++line, col = 1;
    else ++col;
  }
  return {line, col};
}

inline const char* severityName(analysis::Severity s) {
  switch (s) {
    case analysis::Severity::Error: return "error";
    case analysis::Severity::Warning: return "warning";
    case analysis::Severity::Information: return "information";
    case analysis::Severity::Hint: return "hint";
  }
  return "?";
}

inline std::string trim(std::string s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && blank(s.back())) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && blank(s[i])) ++i;
  return s.substr(i);
}

// "deepspeed=0.14.2", "torch=2.10.0", "world=8", "launcher=hf", "compile=true", one per line.
inline analysis::Settings parseSettings(const std::string& text) {
  analysis::Settings s;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    if (key == "deepspeed") s.deepspeedVersion = value, s.deepspeedVersionSource = "settings";
    else if (key == "torch") s.torchVersion = value, s.torchVersionSource = "settings";
    else if (key == "world") s.worldSize = std::atoll(value.c_str());
    else if (key == "launcher") s.launcher = dsls::analysis::parseLauncher(value).value_or(dsls::analysis::Launcher::Unknown);
    else if (key == "compile") s.torchCompile = value == "true";
    else if (key == "launch_bf16") s.launchBf16 = value == "true";
  }
  return s;
}

// Applies edits that do not overlap (later ones that would are dropped).
inline std::string applyEdits(const std::string& text, std::vector<analysis::TextEdit> edits) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const analysis::TextEdit& a, const analysis::TextEdit& b) { return a.range.begin < b.range.begin; });
  std::string out;
  std::size_t at = 0;
  for (const auto& e : edits) {
    if (e.range.begin < at || e.range.end < e.range.begin || e.range.end > text.size()) continue;
    out.append(text, at, e.range.begin - at);
    out += e.newText;
    at = e.range.end;
  }
  out.append(text, at, std::string::npos);
  return out;
}

inline bool overlaps(const analysis::TextEdit& a, const analysis::TextEdit& b) {
  return (a.range.begin < b.range.end && b.range.begin < a.range.end) || a.range.begin == b.range.begin;
}

// The first fix of every finding accepted by `pick`, whole fixes only, skipping those that clash.
template <typename Pick>
std::string applyFirstFixes(const std::string& text, const std::vector<analysis::Finding>& findings, Pick pick) {
  std::vector<analysis::TextEdit> all;
  for (const auto& f : findings) {
    if (!pick(f) || f.fixes.empty()) continue;
    const auto& fix = f.fixes.front();
    bool clash = std::any_of(fix.edits.begin(), fix.edits.end(), [&](const analysis::TextEdit& e) {
      return std::any_of(all.begin(), all.end(), [&](const analysis::TextEdit& o) { return overlaps(e, o); });
    });
    if (!clash) all.insert(all.end(), fix.edits.begin(), fix.edits.end());
  }
  return applyEdits(text, all);
}

// One finding as a golden line: "line:col code severity message".
inline std::string describe(const std::string& text, const analysis::Finding& f) {
  auto [line, col] = lineCol(text, f.range.begin);
  std::ostringstream s;
  s << line << ":" << col << " " << f.code << " " << severityName(f.severity) << " " << f.message;
  return s.str();
}

}  // namespace dsls::test
