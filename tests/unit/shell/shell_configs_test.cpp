// The shell extractor: which heredocs and echoes write a config, how the script's variables
// project to JSON, and the source map between the two texts.
#include <doctest/doctest.h>

#include <string>

#include "analysis/shell/shell_configs.h"
#include "analysis/shell/variables.h"

using namespace dsls::shell;
using dsls::embedded::EmbeddedConfig;

namespace {

// Accepts any JSON with a zero_optimization key: the extractor's own job, not the detection rule.
bool hasZero(std::string_view json) { return json.find("\"zero_optimization\"") != std::string_view::npos; }

std::vector<EmbeddedConfig> configs(std::string_view source) { return findShellConfigs(source, hasZero); }

std::string_view sourceOf(std::string_view source, dsls::analysis::TextRange r) {
  return source.substr(r.begin, r.end - r.begin);
}

}  // namespace

TEST_CASE("the vendored grammar is of the ABI Debian's libtree-sitter reads") { CHECK(grammarAbiVersion() == 14); }

TEST_CASE("a heredoc's variables: the script's literal, the expansion's default, else a placeholder") {
  const std::string script =
      "ZERO_STAGE=${ZERO_STAGE:-2}\nMICRO=\"4\"\nfor GAS in 1 2; do :; done\n"
      "cat <<EOT > $config_json\n"
      "{\"train_micro_batch_size_per_gpu\": $MICRO, \"gradient_accumulation_steps\": $GAS,\n"
      " \"zero_optimization\": {\"stage\": $ZERO_STAGE, \"overlap_comm\": ${OVERLAP:-true},\n"
      " \"reduce_bucket_size\": $((HIDDEN * HIDDEN)), \"x\": $UNSET},\n"
      " \"tensorboard\": {\"output_path\": \"$OUT/tb\"}}\nEOT\n";
  auto c = configs(script);
  REQUIRE(c.size() == 1);
  CHECK(c[0].json ==
        "{\"train_micro_batch_size_per_gpu\": 4, \"gradient_accumulation_steps\": ${GAS},\n"
        " \"zero_optimization\": {\"stage\": 2, \"overlap_comm\": true,\n"
        " \"reduce_bucket_size\": ${((HIDDEN * HIDDEN))}, \"x\": ${UNSET}},\n"
        " \"tensorboard\": {\"output_path\": \"$OUT/tb\"}}\n");
  CHECK(sourceOf(script, c[0].source).starts_with("{\"train_micro"));
}

TEST_CASE("two assignments that disagree leave the variable unknown") {
  auto c = configs("STAGE=2\nif [ x ]; then STAGE=3; fi\ncat <<EOF >ds.json\n{\"zero_optimization\": {\"stage\": $STAGE}}\nEOF\n");
  REQUIRE(c.size() == 1);
  CHECK(c[0].json == "{\"zero_optimization\": {\"stage\": ${STAGE}}}\n");
}

TEST_CASE("a quoted delimiter keeps the body as written; a heredoc that is not a config is left") {
  auto c = configs("cat <<'EOF' > ds.json\n{\"zero_optimization\": {\"stage\": $STAGE}}\nEOF\n"
                   "cat <<EOF > other.json\n{\"model\": 1}\nEOF\n");
  REQUIRE(c.size() == 1);
  CHECK(c[0].json == "{\"zero_optimization\": {\"stage\": $STAGE}}\n");
}

TEST_CASE("echo and printf to a .json file: single quotes as written, double quotes unescaped") {
  auto c = configs("echo '{\"zero_optimization\": {\"stage\": 2}}' > ds_config.json\n"
                   "printf \"{\\\"zero_optimization\\\": {\\\"stage\\\": $S}}\" >> \"$DS_JSON\"\n"
                   "echo '{\"zero_optimization\": {}}'\n");  // not redirected to a file: not a config
  REQUIRE(c.size() == 2);
  CHECK(c[0].json == "{\"zero_optimization\": {\"stage\": 2}}");
  CHECK(c[1].json == "{\"zero_optimization\": {\"stage\": ${S}}}");
}

TEST_CASE("the source map: verbatim text maps offset for offset, a variable's value is not editable") {
  const std::string script = "S=2\ncat <<EOT > c.json\n{\"zero_optimization\": {\"stage\": $S, \"overlap_comm\": true}}\nEOT\n";
  auto c = configs(script);
  REQUIRE(c.size() == 1);
  const std::string& json = c[0].json;
  const std::size_t t = json.find("true");
  auto edit = c[0].map.toSource(dsls::analysis::TextEdit{{t, t + 4}, "false"});
  REQUIRE(edit);
  CHECK(sourceOf(script, edit->range) == "true");
  CHECK(edit->newText == "false");
  const std::size_t two = json.find(": 2") + 2;
  CHECK(sourceOf(script, c[0].map.toSource(dsls::analysis::TextRange{two, two + 1})) == "$S");
  CHECK_FALSE(c[0].map.toSource(dsls::analysis::TextEdit{{two, two + 1}, "3"}));
}

TEST_CASE("literal values of words") {
  CHECK(jsonLiteral("2") == "2");
  CHECK(jsonLiteral("'1e-5'") == "1e-5");
  CHECK(jsonLiteral("true") == "true");
  CHECK_FALSE(jsonLiteral("inf"));
  CHECK_FALSE(jsonLiteral("+1"));
  CHECK_FALSE(jsonLiteral("$X"));
  CHECK_FALSE(jsonLiteral("0x10"));
}
