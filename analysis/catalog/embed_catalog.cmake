# Writes a C++ source holding the catalog's TOML files as raw string literals, in the order given,
# so the analysis library reads its data without touching the disk. configure_file rewrites the
# output only when it changes, so unchanged data does not force a rebuild.
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
configure_file("${CMAKE_CURRENT_LIST_DIR}/embedded_catalog.cpp.in" "${OUTPUT}" @ONLY)
