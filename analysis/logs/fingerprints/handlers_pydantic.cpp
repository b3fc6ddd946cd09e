// DeepSpeed's pydantic config validation: the "N validation errors for Model" header, then
// one error per field (the field name may be on the line before, see previousBareWord).
// These handlers only observe: what a line shows is returned, and applyObserved takes it
// into the state.
#include <algorithm>

#include <fmt/format.h>

#include "analysis/logs/fingerprints/fingerprint_handlers.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

// Section of the config a pydantic model validates.
std::string_view sectionOfModel(std::string_view model) {
  if (model == "DeepSpeedZeroConfig") return "zero_optimization";
  if (model == "DeepSpeedZeroOffloadParamConfig") return "zero_optimization.offload_param";
  if (model == "DeepSpeedZeroOffloadOptimizerConfig") return "zero_optimization.offload_optimizer";
  if (model == "DeepSpeedBF16Config") return "bf16";
  if (model == "DeepSpeedFP16Config") return "fp16";
  if (model == "TensorBoardConfig") return "tensorboard";
  if (model == "WandbConfig") return "wandb";
  if (model == "CSVConfig") return "csv_monitor";
  if (model == "CometConfig") return "comet";
  if (model == "HybridEngineConfig") return "hybrid_engine";
  if (model == "CompileConfig") return "compile";
  return {};
}

std::string qualifiedKey(const StreamState& st, std::string_view key) {
  const std::string_view section = sectionOfModel(st.pydanticModel);
  if (section.empty()) return std::string(key);
  return std::string(section) + "." + std::string(key);
}

// The field an error line is about: on the line itself, or the bare word just before it.
std::string_view fieldOf(const HitView& hit) {
  const std::string_view field = hit.group("field");
  return !field.empty() ? field : std::string_view(hit.stream.previousBareWord);
}

Observed extraKey(const HitView& hit, std::string_view wording) {
  const StreamState& st = hit.stream;
  const std::string_view key = fieldOf(hit);
  Observed o;
  o.failure = true;
  Observed::Finding& f = o.add(FailureId::ConfigExtraKey);
  if (!key.empty()) {
    f.configKey = qualifiedKey(st, key);
    const std::string_view section = sectionOfModel(st.pydanticModel);
    f.details[0] = fmt::format("`{}` is not defined{}{}.", text::sanitize(key, 80),
                               section.empty() ? "" : " in " + std::string(section),
                               st.pydanticModel.empty() ? "" : " (" + st.pydanticModel + ")");
  }
  f.details[1] = std::string(wording);
  return o;
}

// pydantic v2's "[type=..., input_value=..., input_type=...]" is specific enough to stand
// without its "N validation errors for" header (a paste may start below it); v1's is not.
Observed otherError(const HitView& hit, bool needsHeader) {
  const StreamState& st = hit.stream;
  if ((needsHeader && st.pydanticLinesLeft == 0) || hit.lineAlsoHas(Fp::PydanticExtraV1) || hit.lineAlsoHas(Fp::PydanticExtraV2))
    return {};
  const std::string_view key = fieldOf(hit);
  Observed o;
  o.failure = true;
  Observed::Finding& f = o.add(FailureId::ConfigValidationError);
  if (!key.empty()) f.configKey = qualifiedKey(st, key);
  f.details[0] = fmt::format("`{}`: {}", text::sanitize(key, 80), text::sanitize(text::trim(hit.group("message")), 160));
  return o;
}

Observed observePydanticHeader(const HitView& hit) {
  Observed o;
  o.failure = true;
  const long long count = std::clamp<long long>(toInt(hit.group("count"), 1), 1, 50);
  o.pydanticHeader =
      Observed::PydanticHeader{text::sanitize(hit.group("model"), 80), static_cast<std::size_t>(count * 4 + 4)};
  return o;
}

Observed observePydanticExtraV1(const HitView& hit) {
  return extraKey(hit, "The pydantic-v1 wording points at DeepSpeed 0.14.x or older.");
}

Observed observePydanticExtraV2(const HitView& hit) {
  return extraKey(hit, "The pydantic-v2 wording points at DeepSpeed 0.15.0 or newer.");
}

Observed observePydanticOtherV2(const HitView& hit) {
  if (hit.group("type") == "extra_forbidden") return {};
  return otherError(hit, false);
}

Observed observePydanticOtherV1(const HitView& hit) { return otherError(hit, true); }

}  // namespace

DSLS_OBSERVING_HANDLER(PydanticHeader) DSLS_OBSERVING_HANDLER(PydanticExtraV1) DSLS_OBSERVING_HANDLER(PydanticExtraV2)
DSLS_OBSERVING_HANDLER(PydanticOtherV2) DSLS_OBSERVING_HANDLER(PydanticOtherV1)

}  // namespace dsls::logs::detail
