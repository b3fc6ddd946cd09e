// Where each piece of a projected JSON text came from in its host text (a Python or shell
// source), and back: the config analysis runs on the JSON; its ranges and edits are carried to
// the host file here.
#pragma once

#include "analysis/core/finding.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::embedded {

struct Segment {
  analysis::TextRange json;    // a piece of the JSON text
  analysis::TextRange source;  // what it was projected from in the host text
  // The JSON piece is the host text itself (a run of a heredoc's body): any offset inside it is
  // an edit boundary. Otherwise only its ends are.
  bool verbatim = false;
  // An edit may touch it. A value the projection put in place of a variable (its default) is
  // not the host's text: editing it would write over the variable.
  bool editable = true;
  // The host text says it. A piece the projection supplies (what Accelerate writes whatever its
  // YAML says) is not: a finding on it alone is about nothing the user wrote.
  bool written = true;
};

// How a JSON edit's text is spelt in the host language (Python: true -> True).
using Spelling = std::string (*)(std::string_view json);

// Which JSON edits a host takes: any whose ends are boundaries (Python, a heredoc), or only one
// scalar written over one whole editable value (YAML, whose structure is not JSON's: an inserted
// member or a comma would corrupt it).
enum class EditPolicy { Boundaries, ScalarValues };

class SourceMap {
 public:
  explicit SourceMap(Spelling spelling = nullptr, EditPolicy policy = EditPolicy::Boundaries)
      : spelling_(spelling), policy_(policy) {}
  // Segments are added in JSON order (the projection writes the JSON left to right).
  void add(analysis::TextRange json, analysis::TextRange source) { segments_.push_back({json, source}); }
  void add(Segment segment) { segments_.push_back(segment); }
  const std::vector<Segment>& segments() const { return segments_; }

  // A JSON range carried to the source: its begin goes to the start of the piece it is in or
  // the next one, its end to the end of the piece it is in or the previous one.
  analysis::TextRange toSource(analysis::TextRange json) const;
  // A source offset carried to the JSON text, when it is inside a projected piece.
  std::optional<std::size_t> toJson(std::size_t source) const;
  // A source range carried to the JSON text (a selection): the pieces it touches.
  std::optional<analysis::TextRange> toJson(analysis::TextRange source) const;
  // An edit of the JSON carried to the source, when both its ends are edit boundaries and what
  // it replaces is editable; its text in the host's spelling.
  std::optional<analysis::TextEdit> toSource(const analysis::TextEdit& edit) const;
  // False when the pieces a JSON range touches are all ones the host text does not say.
  bool writtenByHost(analysis::TextRange json) const;

 private:
  std::size_t sourceBegin(std::size_t json) const;
  std::size_t sourceEnd(std::size_t json) const;
  std::optional<std::size_t> boundary(std::size_t json) const;
  bool editable(analysis::TextRange json) const;
  bool scalarValueEdit(const analysis::TextEdit& edit) const;
  std::vector<Segment> segments_;
  Spelling spelling_;
  EditPolicy policy_;
};

}  // namespace dsls::embedded
