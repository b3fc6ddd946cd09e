// The catalog's data files (analysis/catalog/keys/*.toml) as the library reads them: no problem
// in the embedded files, every [[key]] of a file read, a few entries field by field, and the
// reader's messages for a broken file, which name the file and the key (fields in the order of
// their names: toml++ keeps a table's keys sorted).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "analysis/catalog/catalog.h"
#include "analysis/catalog/catalog_data.h"

using namespace dsls::catalog;

namespace {

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

std::size_t count(std::string_view text, std::string_view header) {
  std::size_t n = 0;
  for (std::size_t at = text.find(header); at != std::string_view::npos; at = text.find(header, at + 1)) {
    if (at == 0 || text[at - 1] == '\n') ++n;
  }
  return n;
}

const KeyInfo& key(std::string_view path) {
  const KeyInfo* found = findKey(path);
  REQUIRE_MESSAGE(found, "no key " << path);
  return *found;
}

std::vector<std::string> problemsOf(std::string_view text) {
  const data::File file{"keys/broken.toml", text};
  return data::read({&file, 1}).problems;
}

const char* const kPages = "[docs]\nzero = \"https://www.deepspeed.ai/docs/config-json/#zero\"\n";

}  // namespace

TEST_CASE("the embedded catalog files read without a problem") {
  CHECK_MESSAGE(data::embeddedProblems().empty(), joined(data::embeddedProblems()));
  CHECK(data::embeddedFiles().size() == 9);
  CHECK(allKeys().size() >= 476);
  CHECK(allSections().size() >= 62);
}

TEST_CASE("every [[key]] and [[section]] of every file becomes an entry") {
  std::size_t keys = 0, sections = 0;
  for (const data::File& file : data::embeddedFiles()) {
    CAPTURE(file.name);
    data::Catalog alone = data::read({&file, 1});
    CHECK(alone.keys.size() == count(file.text, "[[key]]"));
    CHECK(alone.sections.size() == count(file.text, "[[section]]"));
    keys += alone.keys.size();
    sections += alone.sections.size();
  }
  CHECK(keys == allKeys().size());
  CHECK(sections == allSections().size());
}

TEST_CASE("entries carry every field of their data") {
  const KeyInfo& stage = key("zero_optimization.stage");
  CHECK(stage.types == Integer);
  CHECK(stage.allowed == std::vector<std::string_view>{"0", "1", "2", "3"});
  CHECK(stage.defaultValue == "0");
  CHECK(stage.autoFill == AutoFill::Accelerate);
  CHECK(stage.docsUrl == "https://www.deepspeed.ai/docs/config-json/#zero-optimizations-for-fp16-training");
  CHECK(stage.doc.starts_with("ZeRO stage: 0 off, 1 partitions optimizer states, 2 also gradients, 3 also parameters. "
                              "HF Trainer does not fill \"auto\" here"));

  const KeyInfo& clipping = key("gradient_clipping");
  CHECK(clipping.types == Number);
  REQUIRE(clipping.defaultChanges.size() == 2);
  CHECK(clipping.defaultChanges[0].since == "");
  CHECK(clipping.defaultChanges[0].value == "0.0");
  CHECK(clipping.defaultChanges[1].since == "0.19.3");
  CHECK(clipping.defaultChanges[1].value == "1.0");
  CHECK(clipping.autoFill == AutoFill::HfAndAccelerate);

  const KeyInfo& elastic = key("zero_optimization.elastic_checkpoint");
  CHECK(elastic.deprecatedBy == "checkpoint.load_universal");
  CHECK(elastic.deprecatedSince == "0.19.3");
  CHECK(elastic.deprecatedStages == std::vector<int>{3});

  const KeyInfo& optimizer = key("optimizer.type");
  CHECK(optimizer.types == String);
  CHECK(optimizer.caseInsensitive);
  CHECK(optimizer.openEnum);
  CHECK(optimizer.allowed.size() == 12);
  CHECK(optimizer.allowed.front() == "\"Adam\"");

  // An entry without a page of its own links to its section's.
  CHECK(key("zero_optimization.zenflow.auto_ratio").docsUrl == stage.docsUrl);
  CHECK(key("tensor_parallel.tensor_parallel").aliases == std::vector<std::string_view>{"tp"});
  CHECK(key("zero_optimization.overlap_comm").types == (Bool | Null));
  CHECK(key("zero_optimization.overlap_comm").stages == std::vector<int>{1, 2, 3});

  const SectionInfo* bfloat16 = findSection("bfloat16");
  REQUIRE(bfloat16);
  CHECK(bfloat16->aliasOf == "bf16");
  CHECK(bfloat16->strict);
  CHECK(bfloat16->strictSince == "0.17.1");
}

TEST_CASE("a broken file is reported by file and key, and its other keys are still read") {
  std::string text = std::string(kPages) +
                     "[[key]]\npath = \"a.b\"\ntypes = [\"integer\"]\ndefualt = \"1\"\ndoc = \"A.\"\n"
                     "[[key]]\npath = \"a.c\"\ntypes = [\"int\"]\ndoc = \"C.\"\ndocs = \"zer\"\n"
                     "[[key]]\npath = \"a.d\"\ntypes = [\"bool\"]\nopenEnum = \"yes\"\nstages = [1, \"2\"]\n"
                     "[[key]]\ntypes = [\"bool\"]\ndoc = \"E.\"\nautoFill = \"Trainer\"\n"
                     "[[section]]\npath = \"a\"\ndoc = \"A.\"\nstrict = 1\n"
                     "[extra]\n";
  const data::File file{"keys/broken.toml", text};
  data::Catalog read = data::read({&file, 1});
  CHECK(joined(read.problems) ==
        "keys/broken.toml: \"extra\" is not a catalog table (docs, section, key)\n"
        "keys/broken.toml: section \"a\": \"strict\" must be true or false\n"
        "keys/broken.toml: key \"a.b\": \"defualt\" is not a field of the catalog\n"
        "keys/broken.toml: key \"a.c\": \"docs\" names the page \"zer\", which no [docs] table declares\n"
        "keys/broken.toml: key \"a.c\": \"types\" must be a non-empty list of null, bool, integer, number, string, "
        "object, array\n"
        "keys/broken.toml: key \"a.d\": \"openEnum\" must be true or false\n"
        "keys/broken.toml: key \"a.d\": \"stages\" must be a list of integers\n"
        "keys/broken.toml: key \"a.d\": \"doc\" is missing\n"
        "keys/broken.toml: key number 4 (no path): \"autoFill\" must be one of None, HfTrainer, Accelerate, "
        "HfAndAccelerate, DeepSpeedNative\n"
        "keys/broken.toml: key number 4 (no path): \"path\" is missing\n");
  REQUIRE(read.keys.size() == 4);
  CHECK(read.keys[0].path == "a.b");
  CHECK(read.keys[0].types == Integer);
}

TEST_CASE("text that is not TOML is reported with its line") {
  CHECK(joined(problemsOf("[[key]]\npath = \"a\nb\"\n")).starts_with("keys/broken.toml:2:"));
  CHECK(joined(problemsOf("[[key]]\npath = \"a\nb\"\n")).find("not valid TOML") != std::string::npos);
  CHECK(joined(problemsOf("[docs]\nzero = 1\nzero2 = \"x\"\n")) ==
        "keys/broken.toml: page \"zero\": must be a URL string\n");
  CHECK(joined(problemsOf("[docs]\nzero = \"x\"\n[[key]]\npath = \"a\"\ntypes = [\"bool\"]\ndoc = \"A.\"\n"
                          "[[key]]\npath = \"b\"\ntypes = [\"bool\"]\ndoc = \"B.\"\ndocs = \"zero\"\n")) == "");
  CHECK(joined(problemsOf("key = 3\n")) == "keys/broken.toml: key must be written as [[key]] tables\n");
}
