// The one line model of dsls, LSP's: "\n", "\r\n" and a lone "\r" each end a line, and "\r\n"
// is a single break. LineIndex (editor positions), the log splitter (log line numbers) and the
// command line's locator (report line numbers) all find breaks here, so "line N" means the same
// line in each.
#pragma once

#include <cstddef>
#include <string_view>

namespace dsls::protocol {

struct LineBreak {
  std::size_t at = 0;      // where the break starts; the text's size when there is none
  std::size_t length = 0;  // 1 ("\n" or "\r"), 2 ("\r\n"), 0 (none)
  std::size_t end() const { return at + length; }
};

// Finds the breaks of one text in order. Each byte is searched a bounded number of times, so a
// text of lone "\r" (progress-bar redraws) and one of "\n" alone are both read in linear time.
// A "\r" that ends the text is a break of length 1: a reader of a stream whose text goes on in
// a next chunk holds it until the next byte shows whether a "\n" joins it.
class LineBreaks {
 public:
  explicit LineBreaks(std::string_view text) : text_(text) {}
  // The first break at or after `from`; `from` must not decrease from one call to the next.
  LineBreak next(std::size_t from);

 private:
  std::string_view text_;
  std::size_t cr_ = 0, nl_ = 0;  // the next '\r' and '\n' at or after `from` when searched
  bool crKnown_ = false, nlKnown_ = false;
};

// The first break at or after `from` (one search; LineBreaks for many).
LineBreak nextLineBreak(std::string_view text, std::size_t from);

// Whether a line starts at `offset`: 0, or right after a break (not between "\r" and "\n").
bool lineStartsAt(std::string_view text, std::size_t offset);

// The length of the break that ends right before `lineStart` (0 at the text's start).
std::size_t breakLengthBefore(std::string_view text, std::size_t lineStart);

// Calls f(begin, contentEnd) for each line, the last one (possibly empty) included.
template <typename F>
void forEachLine(std::string_view text, F&& f) {
  LineBreaks breaks(text);
  std::size_t begin = 0;
  for (;;) {
    const LineBreak b = breaks.next(begin);
    f(begin, b.at);
    if (b.length == 0) return;
    begin = b.end();
  }
}

}  // namespace dsls::protocol
