#include "lsp/plain_text.h"

#include <doctest/doctest.h>

using dsls::lsp::markdownToPlainText;

TEST_CASE("plain text: emphasis and code marks go, links keep their target") {
  CHECK(markdownToPlainText("**`zero_optimization.overlap_comm`** (boolean)") == "zero_optimization.overlap_comm (boolean)");
  CHECK(markdownToPlainText("[DeepSpeed documentation](https://www.deepspeed.ai/docs/)") ==
        "DeepSpeed documentation (https://www.deepspeed.ai/docs/)");
  CHECK(markdownToPlainText("[https://x.y](https://x.y)") == "https://x.y");
  CHECK(markdownToPlainText("a [b] c (d)\n- item") == "a [b] c (d)\n- item");
  CHECK(markdownToPlainText("[unclosed](x\ny)") == "[unclosed](x\ny)");
}
