#include "analysis/config/config_model.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace dsls::config {

std::string_view provenanceLabel(Provenance p) {
  switch (p) {
    case Provenance::Explicit: return "set in this file";
    case Provenance::Default: return "DeepSpeed default";
    case Provenance::Auto: return "\"auto\", filled at launch";
    case Provenance::Forced: return "forced";
    case Provenance::Legacy: return "legacy form";
  }
  return "";
}

const json::Member* memberAt(const json::Node* node, std::string_view path) {
  const json::Member* member = nullptr;
  while (node && node->kind == json::Kind::Object) {
    std::size_t dot = path.find('.');
    member = node->find(path.substr(0, dot));
    if (!member || dot == std::string_view::npos) return member;
    node = &member->value;
    path.remove_prefix(dot + 1);
  }
  return nullptr;
}

namespace {

bool isAuto(const json::Node& n) { return n.kind == json::Kind::String && n.string == "auto"; }

void resolveStage(ZeroModel& z, const analysis::Settings& settings) {
  if (!z.section) {
    z.stage = {0, Provenance::Default, nullptr, "no zero_optimization section: ZeRO is off"};
    return;
  }
  const json::Node& v = z.section->value;
  if (v.kind == json::Kind::Bool) {
    z.legacyBool = true;
    z.stage = {v.boolean ? 1 : 0, Provenance::Legacy, z.section,
               v.boolean ? "\"zero_optimization\": true is the legacy form of stage 1"
                         : "\"zero_optimization\": false turns ZeRO off"};
    return;
  }
  if (v.kind != json::Kind::Object) {
    z.stage = {std::nullopt, Provenance::Explicit, z.section, "zero_optimization is not an object"};
    return;
  }
  const json::Member* stage = v.find("stage");
  if (!stage) {
    z.stage = {0, Provenance::Default, nullptr, "stage is not set: DeepSpeed's default is 0"};
  } else if (isAuto(stage->value)) {
    // HF Trainer hands its config to Accelerate's DeepSpeed plugin, which fills the stage from
    // ACCELERATE_DEEPSPEED_ZERO_STAGE (2 when unset); plain DeepSpeed drops "auto" (stage 0).
    if (settings.launcher == analysis::Launcher::DeepSpeed)
      z.stage = {0, Provenance::Default, stage, "plain DeepSpeed drops \"auto\" and uses stage 0"};
    else
      z.stage = {std::nullopt, Provenance::Auto, stage,
                 "HF Trainer and Accelerate fill it at launch from ACCELERATE_DEEPSPEED_ZERO_STAGE (2 when unset); "
                 "plain DeepSpeed drops it and uses stage 0"};
  } else if (const auto n = stage->value.intValue()) {
    z.stage = {*n, Provenance::Explicit, stage, ""};
  } else if (stage->value.kind == json::Kind::Number && stage->value.isInteger) {
    z.stage = {std::nullopt, Provenance::Explicit, stage, "stage is far outside DeepSpeed's stages 0-3"};
  } else {
    z.stage = {std::nullopt, Provenance::Explicit, stage, "stage is not an integer"};
  }
}

// A value pydantic (v1 and v2 alike) turns into a bool field's value: "true", "off", 1, ...
std::optional<bool> coercedBool(const json::Node& v) {
  if (v.kind == json::Kind::Number && v.isInteger && (v.number == 0 || v.number == 1)) return v.number == 1;
  if (v.kind != json::Kind::String || v.string.size() > 5) return std::nullopt;
  std::string word(v.string);
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const std::array<std::string_view, 6> yes = {"true", "yes", "on", "1", "t", "y"};
  static const std::array<std::string_view, 6> no = {"false", "no", "off", "0", "f", "n"};
  if (std::find(yes.begin(), yes.end(), word) != yes.end()) return true;
  if (std::find(no.begin(), no.end(), word) != no.end()) return false;
  return std::nullopt;
}

Resolved<bool> explicitBool(const json::Node* section, const char* key) {
  Resolved<bool> r;
  if (!section || section->kind != json::Kind::Object) return r;
  if (const json::Member* m = section->find(key)) {
    r.member = m;
    if (m->value.kind == json::Kind::Bool) {
      r.value = m->value.boolean;
      r.provenance = Provenance::Explicit;
    } else if (auto coerced = coercedBool(m->value)) {
      r.value = coerced;
      r.provenance = Provenance::Explicit;
      r.why = std::string(m->value.kind == json::Kind::String ? "the string" : "the number") +
              " DeepSpeed's config model reads as " + (*coerced ? "true" : "false");
    }
  }
  return r;
}

}  // namespace

std::string normalizedDtype(std::string_view s) {
  if (s == "fp16" || s == "float16" || s == "half" || s == "torch.float16") return "fp16";
  if (s == "bf16" || s == "bfloat16" || s == "torch.bfloat16") return "bf16";
  if (s == "fp32" || s == "float32" || s == "float" || s == "torch.float32") return "fp32";
  return "";
}

const json::Member* effectiveBf16(const json::Node& root) {
  if (const json::Member* m = root.find("bf16")) return m;
  return root.find("bfloat16");
}

namespace {

Bf16OptimizerUse bf16OptimizerUse(const ConfigModel& m) {
  if (!m.root || m.zero.stage.value != 1) return Bf16OptimizerUse::No;
  const json::Member* accum = memberAt(m.root, "data_types.grad_accum_dtype");
  if (!accum || accum->value.kind != json::Kind::String || normalizedDtype(accum->value.string) != "fp32") return Bf16OptimizerUse::No;
  const json::Member* bf16 = effectiveBf16(*m.root);
  const json::Member* enabled = bf16 ? bf16->value.find("enabled") : nullptr;
  if (!enabled) return Bf16OptimizerUse::No;
  // zero_cpu_offload(): offload_optimizer.device "cpu" (the legacy cpu_offload becomes that); nvme does not count.
  bool cpuOffload = false;
  if (const json::Node* section = m.zero.section ? &m.zero.section->value : nullptr) {
    const json::Member* device = m.zero.offloadOptimizer ? m.zero.offloadOptimizer->value.find("device") : nullptr;
    const json::Member* legacy = section->find("cpu_offload");
    cpuOffload = (device && device->value.kind == json::Kind::String && device->value.string == "cpu") ||
                 (legacy && legacy->value.kind == json::Kind::Bool && legacy->value.boolean);
  }
  if (cpuOffload && (!m.deepspeed || *m.deepspeed >= catalog::Version{0, 10, 0})) return Bf16OptimizerUse::No;
  if (enabled->value.kind == json::Kind::Bool) return enabled->value.boolean ? Bf16OptimizerUse::Yes : Bf16OptimizerUse::No;
  if (enabled->value.kind == json::Kind::String && enabled->value.string == "auto") return Bf16OptimizerUse::IfBf16IsFilledIn;
  return Bf16OptimizerUse::No;
}

}  // namespace

ConfigModel buildModel(const json::Document& doc, const analysis::Settings& settings) {
  ConfigModel m;
  m.deepspeed = catalog::Version::parse(settings.deepspeedVersion);
  m.torch = catalog::Version::parse(settings.torchVersion);
  if (!doc.root || doc.root->kind != json::Kind::Object) return m;
  m.root = &*doc.root;
  ZeroModel& z = m.zero;
  z.section = m.root->find("zero_optimization");
  resolveStage(z, settings);
  const json::Node* section = z.section && z.section->value.kind == json::Kind::Object ? &z.section->value : nullptr;

  // overlap_comm: unset (or "auto", which DeepSpeed drops) means true at stage 3, false otherwise.
  z.overlapComm = explicitBool(section, "overlap_comm");
  if (!z.overlapComm.value) {
    bool wasAuto = z.overlapComm.member && isAuto(z.overlapComm.member->value);
    std::string prefix = wasAuto ? "\"auto\" is dropped by DeepSpeed, so the default applies: " : "";
    if (z.stage.value) {
      z.overlapComm.value = *z.stage.value == 3;
      z.overlapComm.why = prefix + (*z.stage.value == 3 ? "true at ZeRO stage 3" : "false below ZeRO stage 3");
    } else {
      z.overlapComm.why = prefix + "true at stage 3 and false otherwise; the stage is not known here";
    }
    z.overlapComm.provenance = Provenance::Default;
  }

  // contiguous_gradients: default true since v0.4.3.
  z.contiguousGradients = explicitBool(section, "contiguous_gradients");
  if (!z.contiguousGradients.value) {
    bool old = m.deepspeed && *m.deepspeed < catalog::Version{0, 4, 3};
    z.contiguousGradients.value = !old;
    z.contiguousGradients.provenance = Provenance::Default;
    z.contiguousGradients.why = old ? "false before DeepSpeed 0.4.3" : "true since DeepSpeed 0.4.3";
  }

  if (section) {
    if ((z.offloadOptimizer = section->find("offload_optimizer"))) {
      if (const json::Member* device = z.offloadOptimizer->value.find("device"))
        z.optimizerOffloaded = device->value.kind == json::Kind::String &&
                               (device->value.string == "cpu" || device->value.string == "nvme");
    }
    if (const json::Member* legacy = section->find("cpu_offload"); legacy && legacy->value.kind == json::Kind::Bool &&
                                                                     legacy->value.boolean)
      z.optimizerOffloaded = true;
  }

  int stage = z.stage.value.value_or(-1);
  // ZeRO-1/2 with an offloaded optimizer turns contiguous_gradients back on.
  if ((stage == 1 || stage == 2) && z.optimizerOffloaded && !*z.contiguousGradients.value) {
    z.contiguousGradients.value = true;
    z.contiguousGradients.provenance = Provenance::Forced;
    z.contiguousGradients.why = "ZeRO-1/2 turn it back on when offload_optimizer is used";
  }
  // ZeRO-1 ignored both flags (forced off) from v0.4.4 until v0.13.0.
  if (stage == 1 && m.deepspeed && *m.deepspeed >= catalog::Version{0, 4, 4} && *m.deepspeed < catalog::Version{0, 13, 0}) {
    for (Resolved<bool>* flag : {&z.overlapComm, &z.contiguousGradients}) {
      flag->value = false;
      flag->provenance = Provenance::Forced;
      flag->why = "ZeRO stage 1 ignored this flag (forced off) before DeepSpeed 0.13.0";
    }
  }

  if (const json::Member* compile = m.root->find("compile"); compile && compile->value.kind == json::Kind::Object) {
    const json::Member* deep = compile->value.find("deepcompile");
    const json::Member* enabled = compile->value.find("enabled");
    m.torchCompile = (deep && deep->value.kind == json::Kind::Bool && deep->value.boolean) ||
                     (enabled && enabled->value.kind == json::Kind::Bool && enabled->value.boolean);
  }
  if (settings.torchCompile) m.torchCompile = *settings.torchCompile;
  m.bf16Optimizer = bf16OptimizerUse(m);
  return m;
}

}  // namespace dsls::config
