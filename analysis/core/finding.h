// The analysis result vocabulary shared by every rule and by the log analyser.
// Ranges are byte offsets into the analysed text; the server converts them to
// LSP positions in the negotiated encoding, the command line to line:column.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dsls::analysis {

// Half-open byte range [begin, end).
struct TextRange {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool operator==(const TextRange&) const = default;
};

enum class Severity { Error = 1, Warning = 2, Information = 3, Hint = 4 };

enum class Tag { Unnecessary = 1, Deprecated = 2 };

struct TextEdit {
  TextRange range;
  std::string newText;
};

struct Fix {
  std::string title;
  std::vector<TextEdit> edits;
  bool preferred = false;
  // True when applying it unattended (dsls check --fix, source.fixAll) is safe.
  bool safe = false;
};

// A secondary location. `document` is empty for the analysed document itself,
// otherwise an opaque name the caller gave that document (a path or URI).
struct Related {
  std::string document;
  TextRange range;
  std::string message;
  // For another document: the revision of it whose offsets `range` holds, set by a caller that
  // tracks revisions (0: none). `range` means nothing in any other revision of that document.
  std::uint64_t revision = 0;
};

struct Finding {
  std::string code;  // stable kebab-case rule code, e.g. "overlap-comm-race"
  Severity severity = Severity::Warning;
  std::string message;
  TextRange range;
  std::vector<Related> related;
  std::vector<Tag> tags;
  std::vector<Fix> fixes;
};

}  // namespace dsls::analysis
