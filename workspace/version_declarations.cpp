#include "workspace/version_declarations.h"

#include "analysis/core/version_spec.h"
#include "analysis/facade/version_pins.h"

#include <algorithm>

namespace dsls::workspace {
namespace {

using analysis::PepVersion;
using analysis::VersionSpec;

struct Parsed {
  const Declaration* declaration;
  VersionSpec spec;
};

// The pieces one after the other (GCC 12 misreads `"literal" + std::string` under -Wrestrict).
std::string cat(std::initializer_list<std::string_view> pieces) {
  std::string s;
  for (std::string_view p : pieces) s.append(p);
  return s;
}

std::string quoted(const Parsed& p) { return cat({"`", p.spec.text(), "` (", p.declaration->where, ")"}); }

std::string conflict(std::string_view package, const Parsed& a, const Parsed& b, std::string_view why) {
  return cat({package, " is declared ", quoted(a), " and ", quoted(b), why,
              "; no version is assumed (set it with deepspeed-version / torch-version)"});
}

// Every clause holds; an explicit pin may name a pre-release whatever the ranges say.
bool clausesAdmit(const VersionSpec& spec, const PepVersion& v) {
  return std::all_of(spec.clauses().begin(), spec.clauses().end(), [&](const auto& c) { return c.admits(v); });
}

std::string fileOf(const std::string& where) { return where.substr(0, where.rfind(':')); }

}  // namespace

VersionChoice combineDeclarations(const std::vector<Declaration>& declarations, std::string_view package) {
  VersionChoice choice;
  std::vector<Parsed> parsed;
  for (const Declaration& d : declarations) {
    std::string error;
    auto spec = VersionSpec::parse(d.spec, &error);
    if (!spec) {
      choice.problems.push_back(cat({package, " in ", d.where, ": ", error, "; it is not read"}));
      continue;
    }
    if (spec->clauses().empty()) continue;  // "deepspeed" alone says nothing of the version
    { if (!choice.where.empty()) choice.where += ", "; choice.where += d.where; }
    parsed.push_back({&d, std::move(*spec)});
  }
  if (parsed.empty()) return choice;
  choice.source = fileOf(parsed.front().declaration->where);

  const Parsed* pin = nullptr;
  for (const Parsed& p : parsed) {
    auto exact = p.spec.exactPin();
    if (!exact) continue;
    if (pin && !(*pin->spec.exactPin() == *exact)) {
      choice.problems.push_back(conflict(package, *pin, p, ", which conflict"));
      return choice;
    }
    if (!pin) pin = &p;
  }
  if (pin) {
    PepVersion v = *pin->spec.exactPin();
    for (const Parsed& p : parsed)
      if (!clausesAdmit(p.spec, v)) {
        choice.problems.push_back(conflict(package, *pin, p, ", and the second excludes the first"));
        return choice;
      }
    choice.exact = v.text;
    choice.source = fileOf(pin->declaration->where);
    return choice;
  }

  std::string joined;
  for (const Parsed& p : parsed) { if (!joined.empty()) joined += ","; joined += p.spec.text(); }
  if (package == "deepspeed") {
    auto admitted = analysis::admittedDeepspeedReleases(joined);
    if (!admitted || admitted->empty()) {
      std::string what = parsed.size() == 1 ? quoted(parsed.front()) : cat({"`", joined, "` (", choice.where, ")"});
      choice.problems.push_back(cat({"deepspeed is declared ", what, ", which no known DeepSpeed release satisfies; ",
                                     "no version is assumed (set it with deepspeed-version)"}));
      return choice;
    }
    choice.releases = std::move(*admitted);
  }
  // Repeated clauses (the same range in two files) are said once.
  std::vector<std::string> clauses;
  for (const Parsed& p : parsed)
    for (const auto& c : p.spec.clauses())
      if (std::find(clauses.begin(), clauses.end(), c.text) == clauses.end()) clauses.push_back(c.text);
  for (const std::string& c : clauses) { if (!choice.range.empty()) choice.range += ","; choice.range += c; }
  return choice;
}

}  // namespace dsls::workspace
