#include "lsp/document.h"

#include <atomic>

namespace dsls::lsp {

Document::Document(std::string uri, std::string languageId, std::int64_t version, std::string text)
    : uri_(std::move(uri)),
      languageId_(std::move(languageId)),
      version_(version),
      text_(std::make_shared<std::string>(std::move(text))) {
  reindex();
}

void Document::reindex() { lines_ = protocol::LineIndex(*text_); }

namespace {

bool before(const protocol::Position& a, const protocol::Position& b) {
  return a.line < b.line || (a.line == b.line && a.character < b.character);
}

}  // namespace

std::string Document::apply(protocol::ContentChange change, protocol::PositionEncoding encoding) {
  if (change.range) {
    const protocol::Range& range = *change.range;
    if (range.end.line >= lines_.lineCount())
      return "an edit on line " + std::to_string(range.end.line) + ", past the last line " +
             std::to_string(lines_.lineCount() - 1);
    if (before(range.end, range.start)) return "an edit whose range starts after it ends";
  }
  if (!change.range) {
    text_ = std::make_shared<std::string>(std::move(change.text));
  } else {
    std::size_t begin = lines_.offset(change.range->start, encoding);
    std::size_t end = lines_.offset(change.range->end, encoding);
    // Only this document holds the text (no analysis has it): edit in place. Only the strand
    // hands out copies, so a count of 1 cannot grow meanwhile; the fence orders this write after
    // the reads of a pool thread that has just let its copy go. ThreadSanitizer does not model
    // fences (g++ refuses them under -fsanitize=thread), so its build always copies.
#if defined(__SANITIZE_THREAD__)
    constexpr bool kMayEditInPlace = false;
#else
    constexpr bool kMayEditInPlace = true;
#endif
    if (!kMayEditInPlace || text_.use_count() != 1) text_ = std::make_shared<std::string>(*text_);
    else std::atomic_thread_fence(std::memory_order_acquire);
    text_->replace(begin, end - begin, change.text);
    lines_.edit(*text_, begin, end, change.text);
  }
  ++revision_;
  if (!change.range) reindex();
  return {};
}

}  // namespace dsls::lsp
