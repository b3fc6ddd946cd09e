// Internal: the catalog's data files (analysis/catalog/keys/*.toml, compiled into the library
// by embed_catalog.cmake) and their reader, which turns them into the KeyInfo and SectionInfo
// tables of catalog.h. The reader is strict: an unknown field, a value of the wrong kind or a
// page name that is not declared is a problem naming the file and the key, never a key
// quietly left out (tests/unit/catalog/data_test.cpp fails on any problem).
#pragma once

#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/catalog/catalog.h"

namespace dsls::catalog::data {

struct File {
  std::string_view name;  // repo-relative path, for messages
  std::string_view text;  // TOML
};

// The files in catalog order (analysis/CMakeLists.txt lists them); generated at build time.
std::span<const File> embeddedFiles();

struct Catalog {
  std::vector<KeyInfo> keys;          // in file order, then entry order
  std::vector<SectionInfo> sections;  // likewise
  std::deque<std::string> strings;    // owns the text every string_view above points into
  std::vector<std::string> problems;  // "<file>: key <path>: <what is wrong>"; empty when all is well
};

// Reads `files`: the [docs] tables of all of them first (page names are shared), then each
// file's [[section]] and [[key]] entries. A key's `docs` stays empty when the entry names no
// page; the registry fills it from the section.
Catalog read(std::span<const File> files);

// The problems of the embedded files, as the registry met them on first use.
const std::vector<std::string>& embeddedProblems();

}  // namespace dsls::catalog::data
