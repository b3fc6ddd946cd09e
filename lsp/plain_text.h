// Markdown as plain text, for clients that cannot render Markdown: emphasis and code marks
// are dropped, links become "text (target)", everything else stays as written.
#pragma once

#include <string>
#include <string_view>

namespace dsls::lsp {

std::string markdownToPlainText(std::string_view markdown);

}  // namespace dsls::lsp
