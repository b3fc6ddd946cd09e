// Where a project declares deepspeed and torch: one case per kind of file, in temporary trees,
// and how the declarations of one project combine (a conflict is reported, never resolved).
#include "workspace/declared_versions.h"
#include "workspace/version_declarations.h"
#include "workspace/workspace_versions.h"

#include "tests/unit/workspace/temp_tree.h"

#include <doctest/doctest.h>

#include <algorithm>

using dsls::test::TempTree;
using namespace dsls::workspace;

namespace {

std::vector<std::string> specs(const TempTree& t, const char* package = "deepspeed") {
  std::vector<std::string> out;
  for (const auto& d : declarationsIn(t.root, package)) out.push_back(d.spec + " @ " + d.where);
  return out;
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("PEP 508 requirement strings") {
  auto r = parseRequirement("DeepSpeed[autotuning] >= 0.14 , <0.16 ; python_version > '3.8'");
  REQUIRE(r);
  CHECK(r->name == "deepspeed");
  CHECK(r->spec == ">=0.14,<0.16");
  CHECK(parseRequirement("deepspeed (==0.14.2)")->spec == "==0.14.2");
  CHECK(parseRequirement("deepspeed")->spec.empty());
  CHECK(!parseRequirement("deepspeed @ https://example.com/ds.whl"));
  CHECK(parseRequirement("deepspeed_kernels==1.0")->name == "deepspeed-kernels");
}

TEST_CASE("Poetry constraints") {
  CHECK(poetryToPep440("^0.14.2") == ">=0.14.2,<0.15");
  CHECK(poetryToPep440("^1.2") == ">=1.2,<2");
  CHECK(poetryToPep440("^0.0.3") == ">=0.0.3,<0.0.4");
  CHECK(poetryToPep440("~0.14.2") == ">=0.14.2,<0.15");
  CHECK(poetryToPep440("~1") == ">=1,<2");
  CHECK(poetryToPep440("0.14.2") == "==0.14.2");
  CHECK(poetryToPep440("*") == "");
  CHECK(poetryToPep440(">=0.14, <0.16") == ">=0.14,<0.16");
  CHECK(!poetryToPep440("^0.14 || ^0.16"));
}

TEST_CASE("requirements files in subfolders and their -r / -c includes") {
  TempTree t("dsls-decl");
  t.write("requirements.txt", "# training\n-r requirements/base.txt\n--constraint=constraints/pins.txt\ntorch>=2.1\n");
  t.write("requirements/base.txt", "numpy\ndeepspeed>=0.17  # zero\n-r ../requirements.txt\n");
  t.write("constraints/pins.txt", "deepspeed<0.20\n");
  t.write("requirements/dev.txt", "deepspeed!=0.19.1\n");
  // base.txt is read once although both requirements.txt and the folder name it.
  CHECK(specs(t) == V{">=0.17 @ requirements/base.txt:2", "<0.20 @ constraints/pins.txt:1",
                      "!=0.19.1 @ requirements/dev.txt:1"});
  CHECK(specs(t, "torch") == V{">=2.1 @ requirements.txt:4"});
}

TEST_CASE("pip freeze output is a requirements file") {
  TempTree t("dsls-decl");
  t.write("requirements-lock.txt", "accelerate==0.30.1\ndeepspeed==0.14.2\ntorch==2.3.1+cu121\n");
  CHECK(specs(t) == V{"==0.14.2 @ requirements-lock.txt:2"});
  CHECK(specs(t, "torch") == V{"==2.3.1+cu121 @ requirements-lock.txt:3"});
}

TEST_CASE("pyproject.toml: PEP 621 dependencies, optional groups and Poetry") {
  TempTree t("dsls-decl");
  t.write("pyproject.toml", R"([project]
name = "t"
dependencies = ["torch>=2.1"]

[project.optional-dependencies]
train = [
  "deepspeed>=0.18.6,<0.19.0",
]

[tool.poetry.dependencies]
deepspeed = "^0.18.6"

[tool.poetry.group.gpu.dependencies]
deepspeed = { version = "~0.18.7", extras = ["1bit"] }
)");
  CHECK(specs(t) == V{">=0.18.6,<0.19.0 @ pyproject.toml:7", ">=0.18.6,<0.19 @ pyproject.toml:11",
                      ">=0.18.7,<0.19 @ pyproject.toml:14"});
  CHECK(specs(t, "torch") == V{">=2.1 @ pyproject.toml:3"});
}

TEST_CASE("setup.cfg install_requires and extras") {
  TempTree t("dsls-decl");
  t.write("setup.cfg", "[metadata]\nname = t\n\n[options]\ninstall_requires =\n    numpy\n    deepspeed==0.15.1\n"
                       "python_requires = >=3.8\n\n[options.extras_require]\ngpu = torch>=2.2\n");
  CHECK(specs(t) == V{"==0.15.1 @ setup.cfg:7"});
  CHECK(specs(t, "torch") == V{">=2.2 @ setup.cfg:11"});
}

TEST_CASE("setup.py install_requires is read statically, string literals only") {
  TempTree t("dsls-decl");
  t.write("setup.py", "from setuptools import setup\nsetup(\n  name='t',\n  install_requires=[\n"
                      "    'numpy',  # 'deepspeed==0.1.0' in a comment is not read\n    \"deepspeed>=0.16,<0.17\",\n  ],\n)\n");
  CHECK(specs(t) == V{">=0.16,<0.17 @ setup.py:6"});
  TempTree computed("dsls-decl");
  computed.write("setup.py", "REQS = open('r.txt').read().split()\nsetup(install_requires=REQS)\n");
  CHECK(specs(computed).empty());
}

TEST_CASE("conda environment files: conda and pip sections") {
  TempTree t("dsls-decl");
  t.write("environment.yml", "name: train\ndependencies:\n  - python=3.10\n  - pytorch::pytorch=2.3.1=py3.10_cuda12.1_0\n"
                             "  - deepspeed=0.14.*\n  - pip:\n    - deepspeed==0.14.2\n    - torch>=2.3\n");
  CHECK(specs(t) == V{"==0.14.* @ environment.yml:5", "==0.14.2 @ environment.yml:7"});
  CHECK(specs(t, "torch") == V{"==2.3.1 @ environment.yml:4", ">=2.3 @ environment.yml:8"});
}

TEST_CASE("uv.lock and poetry.lock give the resolved release") {
  TempTree t("dsls-decl");
  t.write("uv.lock", "version = 1\n\n[[package]]\nname = \"deepspeed\"\nversion = \"0.18.7\"\n");
  t.write("poetry.lock", "[[package]]\nname = \"torch\"\nversion = \"2.4.0\"\n");
  CHECK(specs(t) == V{"==0.18.7 @ uv.lock:5"});
  CHECK(specs(t, "torch") == V{"==2.4.0 @ poetry.lock:3"});
}

TEST_CASE("declarations combine: a pin, a range, a conflict") {
  auto decl = [](std::string spec, std::string where) { return Declaration{"deepspeed", spec, where}; };
  auto pin = combineDeclarations({decl(">=0.18", "pyproject.toml:7"), decl("==0.18.7", "uv.lock:5")}, "deepspeed");
  CHECK(pin.exact == "0.18.7");
  CHECK(pin.source == "uv.lock");
  CHECK(pin.problems.empty());

  auto range = combineDeclarations({decl(">=0.17", "a.txt:1"), decl("<0.20,!=0.19.1", "b.txt:1")}, "deepspeed");
  CHECK(range.exact.empty());
  CHECK(range.range == ">=0.17,<0.20,!=0.19.1");
  CHECK(range.releases.front() == "0.17.0");
  CHECK(range.releases.back() == "0.19.5");
  CHECK(std::find(range.releases.begin(), range.releases.end(), "0.19.1") == range.releases.end());
  CHECK(range.source == "a.txt");

  auto two = combineDeclarations({decl("==0.14.0", "requirements.txt:1"), decl("==0.15.1", "requirements/prod.txt:3")},
                                 "deepspeed");
  CHECK(!two.found());
  REQUIRE(two.problems.size() == 1);
  CHECK(two.problems[0] == "deepspeed is declared `==0.14.0` (requirements.txt:1) and `==0.15.1` "
                           "(requirements/prod.txt:3), which conflict; no version is assumed (set it with "
                           "deepspeed-version / torch-version)");

  auto excluded = combineDeclarations({decl("==0.14.0", "a.txt:1"), decl(">=0.15", "b.txt:2")}, "deepspeed");
  CHECK(!excluded.found());
  CHECK(excluded.problems.size() == 1);

  auto empty = combineDeclarations({decl(">=0.19", "a.txt:1"), decl("<0.18", "b.txt:2")}, "deepspeed");
  CHECK(!empty.found());
  REQUIRE(empty.problems.size() == 1);
  CHECK(empty.problems[0].find("no known DeepSpeed release satisfies") != std::string::npos);

  auto bad = combineDeclarations({decl("=>0.14", "a.txt:1")}, "deepspeed");
  CHECK(!bad.found());
  CHECK(bad.problems.size() == 1);
}

TEST_CASE("detectWorkspaceVersions: a range sets the admitted releases, a conflict sets nothing") {
  TempTree t("dsls-decl");
  t.write("pyproject.toml", "[project]\nname = \"t\"\n[project.optional-dependencies]\n"
                            "train = [\"deepspeed>=0.18.6,<0.19.0\"]\n");
  dsls::analysis::Settings s;
  auto problems = detectWorkspaceVersions({t.root.string()}, s);
  CHECK(problems.empty());
  CHECK(s.deepspeedVersion.empty());
  CHECK(s.deepspeedRange == ">=0.18.6,<0.19.0");
  CHECK(s.deepspeedReleases == V{"0.18.6", "0.18.7", "0.18.8", "0.18.9"});
  CHECK(s.deepspeedVersionSource == "pyproject.toml");

  TempTree c("dsls-decl");
  c.write("requirements.txt", "deepspeed==0.14.0\n");
  c.write("requirements/prod.txt", "deepspeed==0.15.1\n");
  dsls::analysis::Settings cs;
  problems = detectWorkspaceVersions({c.root.string()}, cs);
  CHECK(problems.size() == 1);
  CHECK(cs.deepspeedVersion.empty());
  CHECK(cs.deepspeedReleases.empty());
}

TEST_CASE("an installed release the declared range admits is the version; one outside it is not") {
  TempTree t("dsls-decl");
  t.write("requirements.txt", "deepspeed>=0.18.6,<0.19.0\n");
  t.write(".venv/lib/python3.10/site-packages/deepspeed-0.18.7.dist-info/METADATA", "Name: deepspeed\n");
  dsls::analysis::Settings s;
  detectWorkspaceVersions({t.root.string()}, s);
  CHECK(s.deepspeedVersion == "0.18.7");
  CHECK(s.deepspeedRange.empty());
  CHECK(s.deepspeedReleases.empty());

  TempTree outside("dsls-decl");
  outside.write("requirements.txt", "deepspeed>=0.18.6,<0.19.0\n");
  outside.write(".venv/lib/python3.10/site-packages/deepspeed-0.14.2.dist-info/METADATA", "Name: deepspeed\n");
  dsls::analysis::Settings o;
  detectWorkspaceVersions({outside.root.string()}, o);
  CHECK(o.deepspeedVersion.empty());
  CHECK(o.deepspeedRange == ">=0.18.6,<0.19.0");
}
