// Lines that only mean something after an earlier fingerprint: the field errors after a
// pydantic header, the "- ds key=value vs hf arg=value" pairs after the HF mismatch error.
#include "analysis/logs/analyzer_ops.h"
#include "analysis/logs/text_util.h"

namespace dsls::logs::detail {

void handleContinuations(State& s, const LineContext& c, std::string_view message, bool /*matched*/) {
  StreamState& st = s.streams[c.stream];
  if (st.pydanticLinesLeft > 0) --st.pydanticLinesLeft;
  if (st.hfMismatchLinesLeft == 0) return;
  --st.hfMismatchLinesLeft;
  // "- ds train_micro_batch_size_per_gpu=1 vs hf per_device_train_batch_size=8"
  const std::string_view t = text::trim(message);
  if (t.substr(0, 5) != "- ds ") return;
  const std::string_view rest = t.substr(5);
  const std::size_t eq = rest.find('=');
  if (eq == std::string_view::npos || eq == 0) return;
  Accumulator* a = findAccumulator(s, FailureId::HfConfigMismatch);
  if (!a) return;
  addConfigKey(a, text::sanitize(rest.substr(0, eq), 80));
  addDetail(a, text::sanitize(t.substr(2), 200));
}

}  // namespace dsls::logs::detail
