// The effective DeepSpeed configuration: what each flag that matters resolves to,
// with the provenance of the value (written, a DeepSpeed default, "auto" filled at
// launch, or forced by another key or by the DeepSpeed version).
#pragma once

#include "analysis/catalog/version.h"
#include "analysis/core/settings.h"
#include "analysis/json/document.h"

#include <optional>
#include <string>

namespace dsls::config {

enum class Provenance {
  Explicit,  // written in the file
  Default,   // DeepSpeed's default (including "auto" that DeepSpeed drops)
  Auto,      // "auto": filled by HF Trainer / Accelerate at launch, unknown here
  Forced,    // set by another key or by the DeepSpeed version, whatever the file says
  Legacy,    // implied by a legacy form ("zero_optimization": true)
};

std::string_view provenanceLabel(Provenance);

template <typename T>
struct Resolved {
  std::optional<T> value;  // nullopt when it cannot be known before launch
  Provenance provenance = Provenance::Default;
  const json::Member* member = nullptr;  // the key as written, when it is
  std::string why;                       // plain words: "default for ZeRO stage 2", ...
};

struct ZeroModel {
  const json::Member* section = nullptr;  // the "zero_optimization" member
  bool legacyBool = false;                // "zero_optimization": true/false
  Resolved<int> stage;
  Resolved<bool> overlapComm;
  Resolved<bool> contiguousGradients;
  const json::Member* offloadOptimizer = nullptr;
  bool optimizerOffloaded = false;  // offload_optimizer.device is cpu or nvme
};

// Which optimizer wrapper DeepSpeed builds for ZeRO-1 with bf16 and fp32 gradient accumulation:
// its BF16_Optimizer instead of the ZeRO-1/2 one (engine.py, _do_optimizer_sanity_check; from
// 0.10.0 only without CPU offload). The ZeRO-1/2 settings (overlap_comm, check_grad_overflow)
// do not reach it.
enum class Bf16OptimizerUse { No, IfBf16IsFilledIn, Yes };

struct ConfigModel {
  const json::Node* root = nullptr;
  ZeroModel zero;
  Bf16OptimizerUse bf16Optimizer = Bf16OptimizerUse::No;
  bool torchCompile = false;  // a compile section asks for it, or the settings say so
  std::optional<catalog::Version> deepspeed, torch;
};

ConfigModel buildModel(const json::Document& doc, const analysis::Settings& settings);

// "fp16", "bf16" or "fp32" for the spellings DeepSpeed's DtypeEnum accepts ("float32",
// "torch.bfloat16", ...); empty for any other.
std::string normalizedDtype(std::string_view s);

// The "bf16" section, or its old spelling "bfloat16".
const json::Member* effectiveBf16(const json::Node& root);

// The member at a dotted path ("zero_optimization.stage"), or nullptr.
const json::Member* memberAt(const json::Node* root, std::string_view dottedPath);

}  // namespace dsls::config
