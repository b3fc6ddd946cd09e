// DeepSpeed's pydantic config validation: the "N validation errors for Model" header, then
// one error per field (the field name may be on the line before, see previousBareWord).
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
std::string_view fieldOf(const Hit& hit) {
  const std::string_view field = hit.group("field");
  return !field.empty() ? field : std::string_view(hit.stream().previousBareWord);
}

bool onExtraKey(const Hit& hit, std::string_view wording) {
  const StreamState& st = hit.stream();
  const std::string_view key = fieldOf(hit);
  Accumulator* a = recordHere(hit, FailureId::ConfigExtraKey);
  if (!key.empty()) {
    addConfigKey(a, qualifiedKey(st, key));
    const std::string_view section = sectionOfModel(st.pydanticModel);
    addDetail(a, fmt::format("`{}` is not defined{}{}.", text::sanitize(key, 80),
                             section.empty() ? "" : " in " + std::string(section),
                             st.pydanticModel.empty() ? "" : " (" + st.pydanticModel + ")"));
  }
  addDetail(a, std::string(wording));
  return true;
}

// pydantic v2's "[type=..., input_value=..., input_type=...]" is specific enough to stand
// without its "N validation errors for" header (a paste may start below it); v1's is not.
bool onOtherError(const Hit& hit, bool needsHeader) {
  const StreamState& st = hit.stream();
  if ((needsHeader && st.pydanticLinesLeft == 0) || hit.lineAlsoHas(Fp::PydanticExtraV1) || hit.lineAlsoHas(Fp::PydanticExtraV2))
    return false;
  const std::string_view key = fieldOf(hit);
  Accumulator* a = recordHere(hit, FailureId::ConfigValidationError);
  if (!key.empty()) addConfigKey(a, qualifiedKey(st, key));
  addDetail(a, fmt::format("`{}`: {}", text::sanitize(key, 80), text::sanitize(text::trim(hit.group("message")), 160)));
  return true;
}

}  // namespace

bool onPydanticHeader(const Hit& hit) {
  StreamState& st = hit.stream();
  st.pydanticModel = text::sanitize(hit.group("model"), 80);
  const long long count = std::clamp<long long>(toInt(hit.group("count"), 1), 1, 50);
  st.pydanticLinesLeft = static_cast<std::size_t>(count * 4 + 4);
  return true;
}

bool onPydanticExtraV1(const Hit& hit) {
  return onExtraKey(hit, "The pydantic-v1 wording points at DeepSpeed 0.14.x or older.");
}

bool onPydanticExtraV2(const Hit& hit) {
  return onExtraKey(hit, "The pydantic-v2 wording points at DeepSpeed 0.15.0 or newer.");
}

bool onPydanticOtherV2(const Hit& hit) {
  if (hit.group("type") == "extra_forbidden") return false;
  return onOtherError(hit, false);
}

bool onPydanticOtherV1(const Hit& hit) { return onOtherError(hit, true); }

}  // namespace dsls::logs::detail
