// DeepSpeed's verdicts against dsls': every case of tests/fixtures/config/verdicts/*.json is a
// config with the DeepSpeed release, world size and launcher it was judged with, and whether
// DeepSpeed accepts or rejects it (from its source and unit tests, cited in "source"). The case
// runs through analysis::analyzeDocument; "reject" must give an error and "accept" must not.
// Agreement must reach 95% with no error on an accepted config, every constraint row must be
// exercised by a rejected case and an accepted neighbour, and docs/rules/accuracy.md holds the
// figures (DSLS_UPDATE_GOLDEN=1 rewrites it).
#include <doctest/doctest.h>

#include "analysis/config/constraints.h"
#include "analysis/config/grad_accum_support.h"
#include "analysis/facade/document_analysis.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;
using namespace dsls;

namespace {

const fs::path kSourceDir = DSLS_SOURCE_DIR;
const fs::path kVerdictDir = kSourceDir / "tests/fixtures/config/verdicts";
const fs::path kAccuracyDoc = kSourceDir / "docs/rules/accuracy.md";

struct Outcome {
  std::string file, name, release, verdict, source, note;
  json config;
  bool error = false;                 // dsls reported an error
  std::vector<std::string> messages;  // every finding's message
  bool agrees() const { return error == (verdict == "reject"); }
};

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Outcome run(const std::string& file, const json& c) {
  Outcome o;
  o.file = file, o.name = c.at("name"), o.release = c.at("deepspeed"), o.verdict = c.at("verdict");
  o.source = c.at("source"), o.config = c.at("config"), o.note = c.value("note", "");
  analysis::Settings settings;
  settings.deepspeedVersion = o.release;
  settings.worldSize = c.at("world_size").get<long long>();
  settings.launcher = analysis::parseLauncher(c.at("launcher").get<std::string>()).value_or(analysis::Launcher::Unknown);
  auto a = analysis::analyzeDocument("ds_config.json", "json", o.config.dump(2), settings);
  for (const auto& f : a->findings) {
    o.messages.push_back(f.message);
    o.error = o.error || f.severity == analysis::Severity::Error;
  }
  return o;
}

std::vector<Outcome> runAll() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kVerdictDir))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<Outcome> out;
  for (const auto& p : files) {
    json doc = json::parse(readText(p));
    for (const auto& c : doc.at("cases")) out.push_back(run(p.filename().string(), c));
  }
  return out;
}

bool hasPath(const json& config, std::string_view dotted) {
  const json* at = &config;
  std::size_t start = 0;
  while (start <= dotted.size()) {
    std::size_t dot = dotted.find('.', start);
    std::string part(dotted.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (!at->is_object() || !at->contains(part)) return false;
    at = &(*at)[part];
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
  return false;
}

bool mentions(const Outcome& o, std::string_view text) {
  return std::any_of(o.messages.begin(), o.messages.end(),
                     [&](const std::string& m) { return m.find(text) != std::string::npos; });
}

bool inRange(std::string_view since, std::string_view until, const std::string& release) {
  auto v = analysis::Version::parse(release);
  config::ValueConstraint range{};
  range.since = since, range.until = until;
  return v && config::holdsIn(range, *v);
}

// Rows that no case exercises: an Error row needs a rejected case in its releases whose finding
// quotes the row, and an accepted case that sets the key; a Warning row needs an accepted case in
// its releases whose finding quotes it.
std::vector<std::string> uncoveredRows(const std::vector<Outcome>& outcomes) {
  std::vector<std::string> missing;
  for (const auto& row : config::valueConstraints()) {
    bool fired = false, neighbour = false;
    for (const auto& o : outcomes) {
      if (!inRange(row.since, row.until, o.release) || !hasPath(o.config, row.path.substr(0, row.path.rfind('.'))))
        continue;
      bool quoted = mentions(o, row.deepspeed);
      if (row.severity == analysis::Severity::Error) {
        fired = fired || (o.verdict == "reject" && quoted);
        neighbour = neighbour || (o.verdict == "accept" && hasPath(o.config, row.path));
      } else {
        fired = neighbour = fired || (o.verdict == "accept" && quoted);
      }
    }
    if (!fired || !neighbour)
      missing.push_back(fmt::format("{} {} ({}){}", row.path, config::requirementText(row), config::releaseRange(row),
                                    fired ? ": no accepted neighbour" : ": never fired"));
  }
  for (const auto& row : config::gradAccumRows()) {
    if (row.verdict != config::AccumVerdict::Reject) continue;
    bool fired = std::any_of(outcomes.begin(), outcomes.end(), [&](const Outcome& o) {
      return o.verdict == "reject" && inRange(row.since, row.until, o.release) && mentions(o, row.deepspeed);
    });
    if (!fired) missing.push_back(fmt::format("grad_accum_dtype row {} {} ({}, {})", row.model, row.accum, row.since, row.until));
  }
  return missing;
}

std::string percent(std::size_t n, std::size_t d) { return d ? fmt::format("{:.1f}%", 100.0 * double(n) / double(d)) : "-"; }

std::string accuracyDoc(const std::vector<Outcome>& outcomes) {
  std::set<analysis::Version> releases;
  std::map<std::string, std::pair<std::size_t, std::size_t>> perFile;
  std::size_t agree = 0, falseErrors = 0, misses = 0;
  for (const auto& o : outcomes) {
    if (auto v = analysis::Version::parse(o.release)) releases.insert(*v);
    agree += o.agrees();
    falseErrors += o.verdict == "accept" && o.error;
    misses += o.verdict == "reject" && !o.error;
    auto& [a, n] = perFile[o.file];
    a += o.agrees(), ++n;
  }
  std::string relList;
  for (const auto& v : releases) relList += (relList.empty() ? "" : ", ") + v.str();
  std::string s =
      "# Accuracy of the config verdicts\n\n"
      "Generated by `tests/unit/facade/verdicts_test.cpp`; do not edit. Rerun (and rewrite this page) with\n\n"
      "    DSLS_UPDATE_GOLDEN=1 ctest --test-dir build -R unit.facade\n\n"
      "Each case of `tests/fixtures/config/verdicts/` is a ds_config with the DeepSpeed release, world size and\n"
      "launcher it was judged with and DeepSpeed's verdict, read from DeepSpeed's source and unit tests at that\n"
      "release tag (each case cites its test or source line). dsls agrees when it reports an error exactly on the\n"
      "configs DeepSpeed rejects. `grad_accum_dtype.json` is generated from DeepSpeed's TestOptimizerImplementation\n"
      "by `scripts/verdicts_from_deepspeed_tests.py`; the other files are written from the source and tests they cite.\n\n";
  s += fmt::format("- Constraints: {} rows in `analysis/config/constraints.inc` and {} in "
                   "`analysis/config/grad_accum_support.inc`\n",
                   config::valueConstraints().size(), config::gradAccumRows().size());
  s += fmt::format("- Cases: {} over {} releases ({})\n", outcomes.size(), releases.size(), relList);
  s += fmt::format("- Agreement: {} of {} ({})\n", agree, outcomes.size(), percent(agree, outcomes.size()));
  s += fmt::format("- Errors on configs DeepSpeed accepts: {}\n", falseErrors);
  s += fmt::format("- Rejected configs without an error: {}\n\n", misses);
  s += "| cases | agreement |\n|---|---|\n";
  for (const auto& [file, an] : perFile) s += fmt::format("| {} | {} of {} |\n", file, an.first, an.second);
  s += "\n## Disagreements\n\n";
  bool any = false;
  for (const auto& o : outcomes) {
    if (o.agrees()) continue;
    any = true;
    s += fmt::format("- {}: {} (DeepSpeed {}, {}; dsls {}). {}{}\n", o.file, o.name, o.release, o.verdict,
                     o.error ? "reports an error" : "reports none", o.source,
                     o.note.empty() ? "" : fmt::format(". Note: {}", o.note));
  }
  if (!any) s += "None.\n";
  return s;
}

}  // namespace

TEST_CASE("dsls agrees with DeepSpeed's verdicts") {
  if (!fs::is_directory(kVerdictDir)) {
    MESSAGE("no verdict cases under " << kVerdictDir.string());
    std::exit(77);
  }
  auto outcomes = runAll();
  REQUIRE(outcomes.size() >= 100);
  std::size_t agree = 0;
  for (const auto& o : outcomes) {
    agree += o.agrees();
    std::string all;
    for (const auto& m : o.messages) all += "\n  " + m;
    // An error on a config DeepSpeed accepts is never acceptable.
    if (o.verdict == "accept")
      CHECK_MESSAGE(!o.error, o.file << ": " << o.name << " (DeepSpeed " << o.release << " accepts it):" << all);
  }
  CHECK_MESSAGE(100.0 * double(agree) / double(outcomes.size()) >= 95.0,
                "agreement " << agree << " of " << outcomes.size());

  for (const auto& row : uncoveredRows(outcomes)) FAIL_CHECK("constraint row not exercised by a verdict case: " << row);

  std::string doc = accuracyDoc(outcomes);
  if (const char* update = std::getenv("DSLS_UPDATE_GOLDEN"); update && std::string(update) == "1") {
    std::ofstream(kAccuracyDoc, std::ios::binary) << doc;
  } else {
    CHECK_MESSAGE(readText(kAccuracyDoc) == doc,
                  "docs/rules/accuracy.md differs from the verdict run (DSLS_UPDATE_GOLDEN=1 rewrites it)");
  }
}
