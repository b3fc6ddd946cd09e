#include "analysis/yaml/accelerate_config.h"

#include "analysis/embedded/node_text.h"
#include "analysis/embedded/number_text.h"
#include "analysis/embedded/syntax_tree.h"
#include "analysis/yaml/mapping.h"

#include <algorithm>
#include <cctype>

extern "C" const TSLanguage* tree_sitter_yaml();

namespace dsls::yaml {
namespace {

using analysis::TextRange;
using embedded::nodeRange;

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string jsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + "\"";
}

// The ds_config text, written piece by piece; every piece mapped to the YAML it comes from.
class Writer {
 public:
  Writer() { out_.map = embedded::SourceMap(nullptr, embedded::EditPolicy::ScalarValues); }
  void punct(std::string_view json) { out_.json += json; }
  void piece(std::string_view json, TextRange source, bool editable, bool written) {
    const std::size_t begin = out_.json.size();
    out_.json += json;
    out_.map.add(embedded::Segment{{begin, out_.json.size()}, source, false, editable, written});
  }
  embedded::EmbeddedConfig take(TextRange source) {
    out_.source = source;
    return std::move(out_);
  }

 private:
  embedded::EmbeddedConfig out_;
};

enum class As { Integer, Number, Bool, String };

// An entry's value as Accelerate reads it (int(...), float(...), "true" == ..., str), or none
// when it does not read as one.
std::optional<std::string> valueAs(const Entry& e, As as) {
  if (!e.scalar) return std::nullopt;
  const std::string& s = *e.scalar;
  switch (as) {
    case As::Integer:
      return embedded::isJsonNumberText(s) && s.find_first_of(".eE") == std::string::npos ? std::optional(s) : std::nullopt;
    case As::Number: return embedded::isJsonNumberText(s) ? std::optional(s) : std::nullopt;
    case As::Bool:
      if (lower(s) == "true") return "true";
      if (lower(s) == "false") return "false";
      return std::nullopt;
    case As::String: return jsonString(s);
  }
  return std::nullopt;
}

class Builder {
 public:
  Builder(const std::vector<Entry>& top, const Entry& block, std::vector<Entry> ds)
      : top_(top), blockKey_(nodeRange(block.keyNode)), ds_(std::move(ds)) {}

  embedded::EmbeddedConfig build(TextRange whole) {
    w_.punct("{\n  ");
    member("train_batch_size", nullptr, "\"auto\"");
    member("train_micro_batch_size_per_gpu", nullptr, "\"auto\"");
    member("gradient_accumulation_steps", find(ds_, "gradient_accumulation_steps"), "1", As::Integer);
    key("zero_optimization", find(ds_, "zero_stage"));
    open();
    member("stage", find(ds_, "zero_stage"), "2", As::Integer);
    offload("offload_optimizer");
    offload("offload_param");
    member("stage3_gather_16bit_weights_on_model_save", find(ds_, "zero3_save_16bit_model"), "false", As::Bool);
    close();
    clipping();
    precision();
    w_.punct("\n}\n");
    return w_.take(whole);
  }

 private:
  void open() {
    w_.punct("{");
    first_ = true;
  }
  void close() {
    w_.punct("}");
    first_ = false;
  }

  TextRange keyRange(const Entry* e) const { return e ? nodeRange(e->keyNode) : blockKey_; }

  void key(std::string_view name, const Entry* from) {
    if (!first_) w_.punct(",\n  ");
    first_ = false;
    w_.piece(jsonString(name), keyRange(from), false, from != nullptr);
    w_.punct(": ");
  }

  // A member whose value is the entry's when it reads as `as`, else its text as a string
  // (which the config analysis then reports), else Accelerate's default.
  void member(std::string_view name, const Entry* from, std::string_view fallback, As as = As::String) {
    key(name, from);
    if (from && from->scalar) {
      auto v = valueAs(*from, as);
      w_.piece(v ? *v : jsonString(*from->scalar), nodeRange(from->value), v && !from->quoted, true);
    } else {
      w_.piece(fallback, keyRange(from), false, false);
    }
  }

  void offload(std::string_view section) {
    const std::string prefix(section);
    const Entry* device = find(ds_, prefix + "_device");
    key(section, device);
    open();
    member("device", device, "\"none\"");
    if (device && device->scalar && *device->scalar == "nvme")
      member("nvme_path", find(ds_, prefix + "_nvme_path"), "null");
    close();
  }

  void clipping() {
    const Entry* clip = find(ds_, "gradient_clipping");
    if (!clip || !clip->scalar || lower(*clip->scalar) == "none" || *clip->scalar == "0" || clip->scalar->empty()) return;
    member("gradient_clipping", clip, "", As::Number);
  }

  void precision() {
    const Entry* mp = find(top_, "mixed_precision");
    if (!mp || !mp->scalar || (*mp->scalar != "fp16" && *mp->scalar != "bf16")) return;
    key(*mp->scalar, mp);
    open();
    key("enabled", mp);
    w_.piece("true", nodeRange(mp->value), false, true);
    close();
  }

  const std::vector<Entry>& top_;
  TextRange blockKey_;
  std::vector<Entry> ds_;
  Writer w_;
  bool first_ = true;
};

}  // namespace

bool mentionsAccelerateDeepSpeed(std::string_view source) {
  return source.find("distributed_type") != std::string_view::npos &&
         source.find("DEEPSPEED") != std::string_view::npos &&
         source.find("deepspeed_config") != std::string_view::npos;
}

std::optional<embedded::EmbeddedConfig> findAccelerateConfig(std::string_view source) {
  if (!mentionsAccelerateDeepSpeed(source)) return std::nullopt;
  embedded::SyntaxTree tree(tree_sitter_yaml(), source);
  if (!tree.parsed()) return std::nullopt;
  TSNode document = ts_node_named_child(tree.root(), 0);  // the first document of the stream
  const std::vector<Entry> top = mappingEntries(source, document);
  const Entry* type = find(top, "distributed_type");
  const Entry* block = find(top, "deepspeed_config");
  if (!type || type->scalar != "DEEPSPEED" || !block || ts_node_is_null(block->value)) return std::nullopt;
  std::vector<Entry> ds = mappingEntries(source, block->value);
  const Entry* file = find(ds, "deepspeed_config_file");
  if (file && file->scalar && !file->scalar->empty() && lower(*file->scalar) != "none") return std::nullopt;
  return Builder(top, *block, std::move(ds)).build(nodeRange(block->value));
}

unsigned grammarAbiVersion() { return ts_language_version(tree_sitter_yaml()); }

}  // namespace dsls::yaml
