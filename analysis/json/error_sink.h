// Collects syntax errors while parsing: drops a second error at the same spot
// (one mistake should read as one error) and stops after a configured number.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/json/document.h"

namespace dsls::json {

class ErrorSink {
 public:
  ErrorSink(std::vector<SyntaxError>& out, std::size_t limit) : out_(out), limit_(limit) {}

  void add(analysis::TextRange range, std::string message, bool hjsonAccepts = false);
  std::size_t count() const { return out_.size(); }

 private:
  std::vector<SyntaxError>& out_;
  std::size_t limit_;
  bool full_ = false;
};

// Source text fit to quote inside a message: valid UTF-8 bytes are kept, control
// characters and invalid bytes are shown as \xNN, long text is cut short.
std::string quoteSource(std::string_view source, std::size_t maxBytes = 40);

}  // namespace dsls::json
