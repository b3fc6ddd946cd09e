// Turns byte offsets into 1-based line and column numbers (columns count UTF-8 code points),
// reading the text once in chunks so a multi-gigabyte log never has to be held in memory.
// Lines end at "\n", "\r\n" or a lone "\r", as LSP and the log analyser count them.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::cli {

struct Position {
  std::size_t line = 1;    // 1-based
  std::size_t column = 1;  // 1-based, in code points
  std::size_t offset = 0;  // byte offset it was resolved from
};

class TextLocator {
 public:
  // `offsets` may be unsorted and repeated; `wantLines` are byte offsets whose whole line text is kept.
  TextLocator(std::vector<std::size_t> offsets, const std::vector<std::size_t>& wantLines,
              std::size_t maxLineBytes = 4096);

  void feed(std::string_view chunk);
  void finish();

  // A line start known from an earlier pass over the same text: its byte offset and number.
  struct LineStart {
    std::size_t offset = 0;
    std::size_t line = 1;
  };
  // Nothing left that needs more text (the rest may go unread before finish()).
  bool done() const;
  // The first byte offset still needed: the next offset or wanted line, or where the text
  // fed so far ends while a wanted line is being kept.
  std::size_t nextNeeded() const;
  // Goes on at `to` without the text between, which holds nothing needed; false (and no
  // change) when `to` is not past the text fed so far or something needed lies before it.
  bool skipTo(LineStart to);

  // Valid after finish(). Offsets past the end resolve to the end of the text.
  Position at(std::size_t offset) const;
  // The text of the line holding `offset` (without its terminator), cut at maxLineBytes; empty if not kept.
  std::string lineText(std::size_t offset) const;

 private:
  void closeLine();
  std::size_t nextEvent(std::size_t base, std::size_t size) const;

  std::vector<std::size_t> offsets_;  // sorted, unique
  std::size_t nextOffset_ = 0;        // index into offsets_
  std::vector<std::size_t> lineWanted_;  // sorted, unique
  std::size_t nextWanted_ = 0;
  std::size_t maxLineBytes_;

  std::map<std::size_t, Position> resolved_;
  std::map<std::size_t, std::size_t> lineOfOffset_;  // wanted offset -> line number
  std::map<std::size_t, std::string> lines_;         // line number -> text

  std::size_t line_ = 1;
  std::size_t column_ = 1;
  std::size_t consumed_ = 0;
  bool pendingCR_ = false;
  bool capturing_ = false;
  std::string current_;
};

// Convenience for text already in memory.
TextLocator locate(std::string_view text, std::vector<std::size_t> offsets, const std::vector<std::size_t>& wantLines);

}  // namespace dsls::cli
