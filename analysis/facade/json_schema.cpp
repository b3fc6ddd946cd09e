#include "analysis/facade/json_schema.h"

#include "analysis/catalog/catalog.h"
#include "analysis/config/constraints.h"

#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

namespace dsls::analysis {
namespace {

using nlohmann::json;
using catalog::AutoFill;
using catalog::KeyInfo;
using catalog::SectionInfo;

// One object level of the config: its named children (in catalog order) and a "*" child.
struct Node {
  const KeyInfo* key = nullptr;
  const SectionInfo* section = nullptr;
  std::vector<std::pair<std::string, std::unique_ptr<Node>>> children;
  std::unique_ptr<Node> wildcard;

  Node& child(const std::string& name) {
    if (name == "*") {
      if (!wildcard) wildcard = std::make_unique<Node>();
      return *wildcard;
    }
    for (auto& [n, c] : children)
      if (n == name) return *c;
    children.emplace_back(name, std::make_unique<Node>());
    return *children.back().second;
  }

  const Node* find(const std::string& name) const {
    for (const auto& [n, c] : children)
      if (n == name) return c.get();
    return nullptr;
  }

  bool isContainer() const { return section || !children.empty() || wildcard; }
};

std::vector<std::string> segments(std::string_view path) {
  std::vector<std::string> out;
  if (path.empty()) return out;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = path.find('.', start);
    out.emplace_back(path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) return out;
    start = dot + 1;
  }
}

Node& nodeAt(Node& root, std::string_view path) {
  Node* n = &root;
  for (const auto& s : segments(path)) n = &n->child(s);
  return *n;
}

const Node* findNode(const Node& root, std::string_view path) {
  const Node* n = &root;
  for (const auto& s : segments(path)) {
    n = s == "*" ? n->wildcard.get() : n->find(s);
    if (!n) return nullptr;
  }
  return n;
}

json parseValue(std::string_view text) {
  json v = json::parse(text, nullptr, false);
  return v.is_discarded() ? json(std::string(text)) : v;
}

json number(double d) {
  if (d == static_cast<double>(static_cast<long long>(d))) return static_cast<long long>(d);
  return d;
}

// The bounds that hold unconditionally in the newest release (the schema has no release).
void addBounds(std::string_view path, json& c) {
  for (const config::ValueConstraint* row : config::constraintsOn(path)) {
    if (!row->when.empty() || !row->until.empty() || row->severity != Severity::Error) continue;
    double bound = std::strtod(std::string(row->bound).c_str(), nullptr);
    if (row->check == config::ConstraintCheck::AtLeast) c["minimum"] = number(bound);
    else if (row->check == config::ConstraintCheck::Above) c["exclusiveMinimum"] = number(bound);
    else if (row->check == config::ConstraintCheck::AtMost) c["maximum"] = number(bound);
  }
}

json typeList(unsigned types) {
  json list = json::array();
  if (types & catalog::Null) list.push_back("null");
  if (types & catalog::Bool) list.push_back("boolean");
  if (types & catalog::Number) list.push_back("number");
  else if (types & catalog::Integer) list.push_back("integer");
  if (types & catalog::String) list.push_back("string");
  if (types & catalog::Object) list.push_back("object");
  if (types & catalog::Array) list.push_back("array");
  if (list.size() == 1) return list.front();
  return list;
}

// "cpu" -> "^([Cc][Pp][Uu])$": JSON Schema patterns have no case-insensitive flag.
std::string caseInsensitivePattern(const std::vector<std::string>& words) {
  std::string p = "^(";
  for (std::size_t w = 0; w < words.size(); ++w) {
    if (w) p += "|";
    for (char c : words[w]) {
      unsigned char u = static_cast<unsigned char>(c);
      if (std::isalpha(u)) {
        p += '[';
        p += static_cast<char>(std::toupper(u));
        p += static_cast<char>(std::tolower(u));
        p += ']';
      } else if (std::isalnum(u) || c == '_' || c == '-' || c == ' ') {
        p += c;
      } else {
        p += '\\';
        p += c;
      }
    }
  }
  return p + ")$";
}

const char* autoFiller(AutoFill a) {
  switch (a) {
    case AutoFill::HfTrainer: return "the Hugging Face Trainer";
    case AutoFill::Accelerate: return "Accelerate";
    case AutoFill::HfAndAccelerate: return "the Hugging Face Trainer and Accelerate";
    case AutoFill::DeepSpeedNative: return "DeepSpeed itself";
    case AutoFill::None: break;
  }
  return "";
}

std::string describe(const KeyInfo* key, const SectionInfo* section) {
  std::string d;
  auto add = [&](std::string_view s) {
    if (s.empty()) return;
    if (!d.empty()) d += d.back() == '.' ? " " : ". ";
    d += s;
  };
  if (key) add(key->doc);
  else if (section) add(section->doc);
  if (key) {
    if (!key->defaultNote.empty()) add("Default: " + std::string(key->defaultNote) + ".");
    for (std::size_t i = 1; i < key->defaultChanges.size(); ++i)
      add("The default became " + std::string(key->defaultChanges[i].value) + " in DeepSpeed " +
          std::string(key->defaultChanges[i].since) + ".");
    if (key->autoFill != AutoFill::None && key->autoFill != AutoFill::DeepSpeedNative &&
        key->doc.find("\"auto\"") == std::string_view::npos)
      add(std::string("\"auto\" is filled in by ") + autoFiller(key->autoFill) + ".");
    if (!key->deprecatedBy.empty())
      add("Deprecated" + (key->deprecatedSince.empty() ? std::string() : " since " + std::string(key->deprecatedSince)) +
          ": use " + std::string(key->deprecatedBy) + ".");
    if (!key->since.empty()) add("Added in DeepSpeed " + std::string(key->since) + ".");
    if (!key->until.empty()) add("Removed in DeepSpeed " + std::string(key->until) + ".");
    if (!key->removedAfter.empty()) add("Last released in DeepSpeed " + std::string(key->removedAfter) + ".");
  }
  if (section && section->strict)
    add("Unknown keys are rejected" +
        (section->strictSince.empty() ? std::string() : " since DeepSpeed " + std::string(section->strictSince)) + ".");
  return d;
}

class SchemaBuilder {
 public:
  explicit SchemaBuilder(const Node& root) : root_(root) {}

  json build(const Node& node) const {
    const KeyInfo* key = node.key;
    const SectionInfo* section = node.section;
    // An alias section ("bfloat16") takes its keys from the section it spells.
    const Node* content = &node;
    if (section && !section->aliasOf.empty())
      if (const Node* target = findNode(root_, section->aliasOf)) {
        content = target;
        if (!key) key = target->key;
      }
    const bool container = content->isContainer() || (section != nullptr);

    json constraints = json::object();
    unsigned types = key ? key->types : 0;
    if (container) types |= catalog::Object;
    if (types) constraints["type"] = typeList(types);
    if (key) addValueConstraints(*key, constraints);
    if (container) addProperties(*content, section ? section : content->section, constraints);

    json schema = json::object();
    std::string description = describe(key, section ? section : content->section);
    if (!description.empty()) schema["description"] = description;
    if (key && !key->defaultValue.empty()) schema["default"] = parseValue(key->defaultValue);
    if (key && !key->deprecatedBy.empty()) schema["deprecated"] = true;
    if (key && key->openEnum && !key->allowed.empty()) {
      json examples = json::array();
      for (auto v : key->allowed) examples.push_back(parseValue(v));
      schema["examples"] = examples;
    }
    if (key && acceptsAuto(*key, constraints)) {
      schema["anyOf"] = json::array({constraints, json{{"const", "auto"}}});
    } else {
      schema.update(constraints);
    }
    return schema;
  }

 private:
  static bool acceptsAuto(const KeyInfo& key, const json& constraints) {
    if (key.autoFill == AutoFill::None) return false;
    if (constraints.contains("enum"))
      for (const auto& v : constraints["enum"])
        if (v == "auto") return false;
    if (key.autoFill == AutoFill::DeepSpeedNative && (key.types & catalog::String) && !constraints.contains("enum") &&
        !constraints.contains("anyOf"))
      return false;
    return true;
  }

  static void addValueConstraints(const KeyInfo& key, json& c) {
    if (!key.allowed.empty() && !key.openEnum) {
      std::vector<std::string> words;
      json others = json::array();
      for (auto v : key.allowed) {
        json value = parseValue(v);
        if (key.caseInsensitive && value.is_string()) words.push_back(value.get<std::string>());
        else others.push_back(value);
      }
      if (words.empty()) {
        c["enum"] = others;
      } else {
        json text{{"type", "string"}, {"pattern", caseInsensitivePattern(words)}};
        if (others.empty()) c["pattern"] = text["pattern"];
        else c["anyOf"] = json::array({json{{"enum", others}}, text});
      }
    }
    addBounds(key.path, c);
  }

  void addProperties(const Node& content, const SectionInfo* section, json& c) const {
    json properties = json::object();
    for (const auto& [name, child] : content.children) {
      json schema = build(*child);
      properties[name] = schema;
      if (child->key)
        for (auto alias : child->key->aliases) {
          json aliased = schema;
          aliased["description"] = "Another spelling of " + name + ". " + schema.value("description", std::string());
          properties[std::string(alias)] = aliased;
        }
    }
    if (!properties.empty()) c["properties"] = properties;
    if (content.wildcard) c["additionalProperties"] = build(*content.wildcard);
    else if (section && section->strict && !section->openKeys) c["additionalProperties"] = false;
  }

  const Node& root_;
};

}  // namespace

nlohmann::json configSchema() {
  Node root;
  for (const SectionInfo& s : catalog::allSections()) nodeAt(root, s.path).section = &s;
  for (const KeyInfo& k : catalog::allKeys()) nodeAt(root, k.path).key = &k;
  json body = SchemaBuilder(root).build(root);
  json schema = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                 {"title", "DeepSpeed configuration (ds_config.json)"}};
  if (!body.contains("description")) schema["description"] = "The DeepSpeed configuration file.";
  schema.update(body);
  return schema;
}

}  // namespace dsls::analysis
