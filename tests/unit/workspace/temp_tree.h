// A folder under the system's temporary directory, removed with the test.
#pragma once

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <utility>

#include <stdlib.h>

namespace dsls::test {

struct TempTree {
  std::filesystem::path root;
  explicit TempTree(const std::string& prefix = "dsls-settings") {
    std::string t = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    root = ::mkdtemp(t.data());
  }
  ~TempTree() { std::filesystem::remove_all(root); }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;
  void write(const std::string& rel, const std::string& text) const {
    std::filesystem::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  }
  // Each (path, text) of `files`.
  void writeAll(std::initializer_list<std::pair<std::string, std::string>> files) const {
    for (const auto& [rel, text] : files) write(rel, text);
  }
};

}  // namespace dsls::test
