// One Python dict (a literal or a dict(...) call) written as JSON, token by token, with the
// source map. Literals are read; any other value becomes the placeholder "${expression}", which
// the config analysis reads as an unknown value, as in a template.
#pragma once

#include "analysis/python/config_dicts.h"

#include <tree_sitter/api.h>

#include <vector>

namespace dsls::python {

struct Projection {
  ProjectedDict dict;
  // Dicts written into it in place of a name that was assigned them earlier in the same scope.
  std::vector<analysis::TextRange> inlined;
};

Projection projectDict(std::string_view source, TSNode dict);

// "dict" called: dict(key=value, ...).
bool isDictCall(std::string_view source, TSNode node);

}  // namespace dsls::python
