// Where each token of a projected JSON text came from in the Python source, and back: the
// config analysis runs on the JSON; its ranges and edits are carried to the Python file here.
#pragma once

#include "analysis/core/finding.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::python {

struct Segment {
  analysis::TextRange json;    // a token of the JSON text
  analysis::TextRange source;  // what it was projected from in the Python text
};

class SourceMap {
 public:
  // Segments are added in JSON order (the projection writes the JSON left to right).
  void add(analysis::TextRange json, analysis::TextRange source) { segments_.push_back({json, source}); }
  const std::vector<Segment>& segments() const { return segments_; }

  // A JSON range carried to the source: its begin goes to the start of the token it is in or
  // the next one, its end to the end of the token it is in or the previous one.
  analysis::TextRange toSource(analysis::TextRange json) const;
  // A source offset carried to the JSON text, when it is inside a projected token.
  std::optional<std::size_t> toJson(std::size_t source) const;
  // A source range carried to the JSON text (a selection): the tokens it touches.
  std::optional<analysis::TextRange> toJson(analysis::TextRange source) const;
  // An edit of the JSON carried to the source, when both its ends are token boundaries; its text
  // spelt as Python (true -> True, false -> False, null -> None).
  std::optional<analysis::TextEdit> toSource(const analysis::TextEdit& edit) const;

 private:
  std::size_t sourceBegin(std::size_t json) const;
  std::size_t sourceEnd(std::size_t json) const;
  std::optional<std::size_t> boundary(std::size_t json) const;
  std::vector<Segment> segments_;
};

// JSON text spelt as Python: the literals true, false and null outside strings become True,
// False and None.
std::string pythonSpelling(std::string_view json);

}  // namespace dsls::python
