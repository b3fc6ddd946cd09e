// PEP 440 version specifiers: each operator, comma-joined clauses, wildcards and pre-releases.
#include "analysis/core/version_spec.h"

#include <doctest/doctest.h>

using dsls::analysis::PepVersion;
using dsls::analysis::VersionSpec;

namespace {

bool admits(std::string_view spec, std::string_view version) {
  auto s = VersionSpec::parse(spec);
  REQUIRE_MESSAGE(s, spec);
  auto v = PepVersion::parse(version);
  REQUIRE_MESSAGE(v, version);
  return s->admits(*v);
}

}  // namespace

TEST_CASE("PEP 440 versions order pre-, post- and dev-releases") {
  auto v = [](std::string_view t) { return *PepVersion::parse(t); };
  CHECK(v("0.14.2rc1") < v("0.14.2"));
  CHECK(v("0.14.2.dev0") < v("0.14.2a1"));
  CHECK(v("0.14.2a1") < v("0.14.2b1"));
  CHECK(v("0.14.2b1") < v("0.14.2rc1"));
  CHECK(v("0.14.2") < v("0.14.2.post1"));
  CHECK(v("0.14") == v("0.14.0"));
  CHECK(v("v0.14.2") == v("0.14.2"));
  CHECK(v("0.14.2+cu118") == v("0.14.2"));
  CHECK(v("0.14.2rc1").isPrerelease());
  CHECK(!v("0.14.2.post1").isPrerelease());
  CHECK(!PepVersion::parse("0.14.x"));
  CHECK(!PepVersion::parse(""));
}

TEST_CASE("each operator") {
  CHECK(admits("==0.14.2", "0.14.2"));
  CHECK(!admits("==0.14.2", "0.14.3"));
  CHECK(admits("==0.14", "0.14.0"));
  CHECK(admits("!=0.14.2", "0.14.3"));
  CHECK(!admits("!=0.14.2", "0.14.2"));
  CHECK(admits(">=0.14.2", "0.14.2"));
  CHECK(!admits(">=0.14.2", "0.14.1"));
  CHECK(admits("<=0.14.2", "0.14.2"));
  CHECK(!admits("<=0.14.2", "0.14.3"));
  CHECK(admits(">0.14.2", "0.14.3"));
  CHECK(!admits(">0.14.2", "0.14.2"));
  CHECK(!admits(">0.14.2", "0.14.2.post1"));  // a post-release of the bound is not above it
  CHECK(admits("<0.14.2", "0.14.1"));
  CHECK(!admits("<0.14.2", "0.14.2"));
  CHECK(admits("===0.14.2", "0.14.2"));
  CHECK(!admits("===0.14.2", "0.14.2.0"));
}

TEST_CASE("compatible release") {
  CHECK(admits("~=0.14.2", "0.14.9"));
  CHECK(!admits("~=0.14.2", "0.15.0"));
  CHECK(!admits("~=0.14.2", "0.14.1"));
  CHECK(admits("~=0.14", "0.19.3"));
  CHECK(!admits("~=0.14", "1.0.0"));
  CHECK(!VersionSpec::parse("~=1"));  // needs two release parts
}

TEST_CASE("comma-joined clauses and spacing") {
  CHECK(admits(">=0.18.6,<0.19.0", "0.18.9"));
  CHECK(!admits(">=0.18.6,<0.19.0", "0.19.0"));
  CHECK(!admits(">=0.18.6,<0.19.0", "0.18.5"));
  CHECK(admits(" >= 0.17 , < 0.20 , != 0.19.1 ", "0.19.2"));
  CHECK(!admits(">=0.17,<0.20,!=0.19.1", "0.19.1"));
  CHECK(admits("", "0.19.1"));  // no clause: any release
  auto s = VersionSpec::parse(" >= 0.17 , < 0.20 ");
  REQUIRE(s);
  CHECK(s->text() == ">=0.17,<0.20");
}

TEST_CASE("wildcards") {
  CHECK(admits("==0.14.*", "0.14.5"));
  CHECK(admits("==0.14.*", "0.14"));
  CHECK(!admits("==0.14.*", "0.15.0"));
  CHECK(!admits("!=0.14.*", "0.14.0"));
  CHECK(admits("!=0.14.*", "0.13.5"));
  CHECK(!VersionSpec::parse(">=0.14.*"));  // only == and != take a wildcard
  CHECK(!VersionSpec::parse("==0.*.1"));
}

TEST_CASE("pre-releases are admitted only when a bound names one") {
  CHECK(!admits("==0.14.2", "0.14.2rc1"));  // a pre-release of 0.14.2 is not 0.14.2
  CHECK(admits("==0.14.2rc1", "0.14.2rc1"));
  CHECK(!admits(">=0.14", "0.15.0rc1"));
  CHECK(admits(">=0.15.0rc1", "0.15.0rc1"));
  CHECK(admits(">=0.15.0rc1", "0.15.0rc2"));
  CHECK(!admits("<0.15.0", "0.15.0rc1"));  // nor is it below 0.15.0 when no bound names one
  CHECK(!admits("==0.14.*", "0.14.3rc1"));
}

TEST_CASE("malformed specifiers are refused") {
  for (const char* bad : {">=", "0.14.2", "=>0.14", ">=0.14,", ",<0.2", "==0.14.2 extra", "<>0.1", "~=0.14.*"})
    CHECK_MESSAGE(!VersionSpec::parse(bad), bad);
  std::string error;
  CHECK(!VersionSpec::parse("=>0.14", &error));
  CHECK(error.find("=>0.14") != std::string::npos);
}
