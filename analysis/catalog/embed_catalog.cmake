# Writes a C++ source holding the catalog's TOML files as raw string literals, in the order given,
# so the analysis library reads its data without touching the disk.
# Usage: cmake -DROOT=<repo> -DFILES=<repo-relative paths, ;-separated> -DOUTPUT=<file.cpp> -P embed_catalog.cmake
set(delimiter "dsls_catalog")
set(entries "")
foreach(file IN LISTS FILES)
  file(READ "${ROOT}/${file}" text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file} contains \")${delimiter}\"\", which would end its string literal early")
  endif()
  string(APPEND entries "    {\"${file}\", R\"${delimiter}(${text})${delimiter}\"},\n")
endforeach()
set(content "// Generated from the catalog's TOML files by analysis/catalog/embed_catalog.cmake; do not edit.
#include \"analysis/catalog/catalog_data.h\"

namespace dsls::catalog::data {

namespace {
const File kFiles[] = {
${entries}};
}  // namespace

std::span<const File> embeddedFiles() { return kFiles; }

}  // namespace dsls::catalog::data
")
# Rewrite only on change, so unchanged data does not force a rebuild.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
  if(previous STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")
