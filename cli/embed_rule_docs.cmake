# Writes a C++ source holding every docs/rules/*.md page, for `dsls explain` and SARIF help.
# Usage: cmake -DDOCS_DIR=<docs/rules> -DOUTPUT=<file.cpp> -P embed_rule_docs.cmake
file(GLOB pages "${DOCS_DIR}/*.md")
list(SORT pages)
set(arrays "")
set(entries "")
set(count 0)
foreach(page IN LISTS pages)
  get_filename_component(code "${page}" NAME_WLE)
  if(code MATCHES "^(README|index)$")
    continue()
  endif()
  file(READ "${page}" hex HEX)
  string(LENGTH "${hex}" digits)
  math(EXPR bytes "${digits} / 2")
  # 64 bytes per source line; "\xNN" escapes end at the next backslash, so they never run together.
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" escaped "${hex}")
  string(REGEX REPLACE "((\\\\x[0-9a-f][0-9a-f]){64})" "\\1\"\n    \"" escaped "${escaped}")
  string(APPEND arrays "constexpr char kPage${count}[] =\n    \"${escaped}\";\n")
  string(APPEND entries "    {\"${code}\", std::string_view(kPage${count}, ${bytes})},\n")
  math(EXPR count "${count} + 1")
endforeach()
if(count EQUAL 0)
  set(entries "    {\"\", std::string_view()},\n")
endif()
set(content "// Generated from docs/rules/*.md by cli/embed_rule_docs.cmake; do not edit.
#include \"cli/embedded_rule_docs.h\"

namespace dsls::cli {
namespace {
${arrays}}  // namespace

const EmbeddedRuleDoc kEmbeddedRuleDocs[] = {
${entries}};
const std::size_t kEmbeddedRuleDocCount = ${count};

}  // namespace dsls::cli
")
# Rewrite only on change, so an unchanged docs folder does not force a rebuild.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
  if(previous STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")
