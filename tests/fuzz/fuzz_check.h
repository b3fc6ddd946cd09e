// CHECK for fuzz targets: a broken property names itself on stderr, then aborts so that
// libFuzzer records the input.
#pragma once

#include <cstdio>
#include <cstdlib>

#define CHECK(condition)                                                                    \
  do {                                                                                      \
    if (!(condition)) {                                                                     \
      std::fprintf(stderr, "%s:%d: property broken: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)
