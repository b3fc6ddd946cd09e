#include <doctest/doctest.h>

#include "analysis/catalog/version.h"

using dsls::catalog::Version;

TEST_CASE("Version parses the spellings found in pip freezes and logs") {
  struct Case {
    const char* text;
    int major, minor, patch;
  };
  const Case cases[] = {
      {"0.14.2", 0, 14, 2},       {"v0.19.3", 0, 19, 3},     {"V0.19.3", 0, 19, 3},
      {"0.14.2+cu118", 0, 14, 2}, {"0.15.0rc1", 0, 15, 0},   {"0.15.0-rc1", 0, 15, 0},
      {"0.16.0.dev0", 0, 16, 0},  {"2.3.1", 2, 3, 1},        {"2.3", 2, 3, 0},
      {"  0.9.5\n", 0, 9, 5},     {"0.10.0.post1", 0, 10, 0}, {"2.1.0a0+git1234", 2, 1, 0},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    auto v = Version::parse(c.text);
    REQUIRE(v.has_value());
    CHECK(v->major == c.major);
    CHECK(v->minor == c.minor);
    CHECK(v->patch == c.patch);
  }
}

TEST_CASE("Version rejects malformed input") {
  const char* bad[] = {"",        "v",       "abc",    "2",        "1..2",     "1.2.3.4", "1.2.",
                       ".1.2",    "-1.2.3",  "1.x.3",  "1.2.3+",   "1.2.3 rc", "1,2,3",   "0.14.2/",
                       "99999999999.1.1", "1.2.3!", "\xff\xfe", "v.1.2"};
  for (const char* text : bad) {
    CAPTURE(text);
    CHECK_FALSE(Version::parse(text).has_value());
  }
}

TEST_CASE("Version orders numerically, not lexically") {
  auto v = [](const char* s) { return *Version::parse(s); };
  CHECK(v("0.9.5") < v("0.10.0"));
  CHECK(v("0.19.2") < v("0.19.3"));
  CHECK(v("0.19.10") > v("0.19.9"));
  CHECK(v("1.0.0") > v("0.99.99"));
  CHECK(v("v0.14.2") == v("0.14.2+cu118"));
  CHECK(v("0.15.0rc1") == v("0.15.0"));  // pre-release suffixes are dropped on purpose
  CHECK(v("2.3") == v("2.3.0"));
}

TEST_CASE("Version prints as major.minor.patch") {
  CHECK(Version::parse("v0.19.3+cu121")->str() == "0.19.3");
  CHECK(Version{1, 2, 3}.str() == "1.2.3");
}
