#include "analysis/facade/json_schema.h"

#include "analysis/catalog/catalog.h"

#include <doctest/doctest.h>

#include <string>
#include <nlohmann/json.hpp>

using nlohmann::json;
namespace catalog = dsls::catalog;

namespace {

// The object-shaped branch of a schema ("auto"-accepting keys wrap it in anyOf).
const json& objectBranch(const json& s) {
  if (s.contains("anyOf"))
    for (const auto& b : s["anyOf"])
      if (b.contains("properties") || b.contains("additionalProperties")) return b;
  return s;
}

const json* schemaAt(const json& root, std::string_view dotted) {
  const json* s = &root;
  std::size_t start = 0;
  while (start <= dotted.size()) {
    std::size_t dot = dotted.find('.', start);
    std::string seg(dotted.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    const json& o = objectBranch(*s);
    if (seg == "*") {
      if (!o.contains("additionalProperties") || !o["additionalProperties"].is_object()) return nullptr;
      s = &o["additionalProperties"];
    } else {
      if (!o.contains("properties") || !o["properties"].contains(seg)) return nullptr;
      s = &o["properties"][seg];
    }
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return s;
}

bool acceptsAuto(const json& s) {
  if (s.contains("anyOf"))
    for (const auto& b : s["anyOf"])
      if (b.value("const", json()) == "auto") return true;
  if (s.contains("enum"))
    for (const auto& v : s["enum"])
      if (v == "auto") return true;
  return false;
}

}  // namespace

TEST_CASE("every catalog key is in the schema, with its description and default") {
  json schema = dsls::analysis::configSchema();
  CHECK(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema");
  std::size_t checked = 0;
  for (const catalog::KeyInfo& key : catalog::allKeys()) {
    CAPTURE(key.path);
    const json* s = schemaAt(schema, key.path);
    REQUIRE(s != nullptr);
    if (!key.doc.empty()) CHECK(s->value("description", std::string()).find(std::string(key.doc)) == 0);
    if (!key.defaultValue.empty()) CHECK(s->contains("default"));
    CHECK(s->value("deprecated", false) == !key.deprecatedBy.empty());
    if (key.autoFill == catalog::AutoFill::HfTrainer || key.autoFill == catalog::AutoFill::Accelerate ||
        key.autoFill == catalog::AutoFill::HfAndAccelerate)
      CHECK(acceptsAuto(*s));
    for (auto alias : key.aliases) {
      std::string parent(catalog::parentPath(key.path));
      CHECK(schemaAt(schema, parent.empty() ? std::string(alias) : parent + "." + std::string(alias)) != nullptr);
    }
    ++checked;
  }
  CHECK(checked == catalog::allKeys().size());
}

TEST_CASE("strict sections reject unknown keys, lenient ones do not") {
  json schema = dsls::analysis::configSchema();
  for (const catalog::SectionInfo& section : catalog::allSections()) {
    CAPTURE(section.path);
    const json* s = section.path.empty() ? &schema : schemaAt(schema, section.path);
    REQUIRE(s != nullptr);
    const json& o = objectBranch(*s);
    bool closed = o.contains("additionalProperties") && o["additionalProperties"] == false;
    CHECK(closed == (section.strict && !section.openKeys));
  }
}

TEST_CASE("enums and bounds come from the catalog") {
  json schema = dsls::analysis::configSchema();
  const json* stage = schemaAt(schema, "zero_optimization.stage");
  REQUIRE(stage);
  const catalog::KeyInfo* key = catalog::findKey("zero_optimization.stage");
  REQUIRE(key);
  json branch = stage->contains("anyOf") ? (*stage)["anyOf"][0] : *stage;
  REQUIRE(branch.contains("enum"));
  CHECK(branch["enum"].size() == key->allowed.size());
}
