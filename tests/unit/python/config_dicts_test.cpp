// The Python extractor: which dicts are config places, how values project to JSON, and the
// source map between the two texts.
#include <doctest/doctest.h>

#include <string>

#include "analysis/python/config_dicts.h"
#include "analysis/python/literals.h"
#include "analysis/embedded/source_map.h"


using namespace dsls::python;
using dsls::embedded::mentionsDeepSpeedKey;

namespace {

// Accepts any dict that has a zero_optimization key: the extractor's own job, not the detection rule.
bool hasZero(std::string_view json) { return json.find("\"zero_optimization\"") != std::string_view::npos; }

std::vector<ProjectedDict> dicts(std::string_view source) { return findConfigDicts(source, hasZero); }

}  // namespace

TEST_CASE("the vendored grammar is of the ABI Debian's libtree-sitter reads") { CHECK(grammarAbiVersion() == 14); }

TEST_CASE("literals project to JSON, everything else to a placeholder") {
  auto d = dicts("c = {'zero_optimization': {'stage': 2, 'overlap_comm': True, 'x': None, 'y': -1e-8,\n"
                 "     'n': 1_000, 'h': 0x10, 'f': f'{a}', 's': args.stage, 'l': [1, 2.], 'c': get()}}\n");
  REQUIRE(d.size() == 1);
  CHECK(d[0].json ==
        "{\"zero_optimization\": {\"stage\": 2, \"overlap_comm\": true, \"x\": null, \"y\": -1e-8, \"n\": 1000, "
        "\"h\": 16, \"f\": ${f_a_}, \"s\": ${args.stage}, \"l\": [1, 2.0], \"c\": ${get_}}}");
}

TEST_CASE("config places: assigned, returned, passed to a call that takes a config") {
  CHECK(dicts("x = {'zero_optimization': {}}").size() == 1);
  CHECK(dicts("def f():\n  return {'zero_optimization': {}}\n").size() == 1);
  CHECK(dicts("deepspeed.initialize(model=m, config={'zero_optimization': {}})").size() == 1);
  CHECK(dicts("TrainingArguments(output_dir='o', deepspeed=dict(zero_optimization=dict(stage=2)))").size() == 1);
  CHECK(dicts("HfDeepSpeedConfig({'zero_optimization': {}})").size() == 1);
  CHECK(dicts("DeepSpeedPlugin(hf_ds_config={'zero_optimization': {}})").size() == 1);
  // Not a config place: an argument of another call, an element of a list.
  CHECK(dicts("print({'zero_optimization': {}})").empty());
  CHECK(dicts("TrainingArguments(other={'zero_optimization': {}})").empty());
}

TEST_CASE("a name assigned a dict earlier in the same function is read in place") {
  auto d = dicts("def f(stage):\n  z = {'stage': stage, 'overlap_comm': True}\n  return {'zero_optimization': z}\n");
  REQUIRE(d.size() == 1);
  CHECK(d[0].json == "{\"zero_optimization\": {\"stage\": ${stage}, \"overlap_comm\": true}}");
  // The inner dict is the config's part, not a second config; a self-reference ends.
  CHECK(dicts("a = {'zero_optimization': a}").size() == 1);
}

TEST_CASE("the source map carries ranges and edits both ways") {
  const std::string src = "c = {'zero_optimization': {'overlap_comm': True}}";
  auto d = dicts(src);
  REQUIRE(d.size() == 1);
  const std::string& json = d[0].json;
  const std::size_t t = json.find("true");
  CHECK(d[0].map.toSource(dsls::analysis::TextRange{t, t + 4}) == dsls::analysis::TextRange{src.find("True"), src.find("True") + 4});
  auto edit = d[0].map.toSource(dsls::analysis::TextEdit{{t, t + 4}, "false"});
  REQUIRE(edit);
  CHECK(edit->newText == "False");
  CHECK(edit->range.begin == src.find("True"));
  CHECK(d[0].map.toJson(src.find("True") + 1) == t + 1);
  // An edit that ends inside a token has no Python spelling.
  CHECK_FALSE(d[0].map.toSource(dsls::analysis::TextEdit{{t, t + 2}, "x"}));
  CHECK(pythonSpelling("{\"a\": true, \"b\": \"null\", \"c\": null}") == "{\"a\": True, \"b\": \"null\", \"c\": None}");
}

TEST_CASE("string and number spellings") {
  CHECK(jsonString("'cpu'") == "\"cpu\"");
  CHECK(jsonString("r'a\\b'") == "\"a\\\\b\"");
  CHECK(jsonString("'''x\"y'''") == "\"x\\\"y\"");
  CHECK_FALSE(jsonString("b'x'"));
  CHECK_FALSE(jsonString("'\\x41'"));
  CHECK(jsonNumber(".5") == "0.5");
  CHECK(jsonNumber("1.e5") == "1.0e5");
  CHECK(jsonNumber("007") == "7");
  CHECK_FALSE(jsonNumber("3j"));
}

TEST_CASE("bad input: no crash, no config") {
  CHECK(dicts("x = {'zero_optimization': {'a': ").size() <= 1);  // cut off: whatever the parser recovers
  CHECK(dicts("").empty());
  CHECK(dicts(std::string(5000, '(')).empty());
  CHECK(dicts(std::string("x = ") + std::string(3000, '{')).empty());
}

TEST_CASE("the prefilter looks for keys only a DeepSpeed config has") {
  CHECK(mentionsDeepSpeedKey("cfg['zero_optimization'] = 1"));
  CHECK_FALSE(mentionsDeepSpeedKey("import torch\nprint('deepspeed')\n"));
}
