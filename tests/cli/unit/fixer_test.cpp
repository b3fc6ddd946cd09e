#include "cli/fixer.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using dsls::analysis::TextEdit;

TEST_CASE("edits apply in offset order; overlapping ones are left out") {
  std::vector<TextEdit> edits = {{{6, 7}, "Z"}, {{0, 1}, "xx"}, {{6, 8}, "no"}, {{3, 3}, "+"}};
  CHECK(dsls::cli::applyEdits("abcdefgh", edits) == "xxbc+defZh");
  CHECK(dsls::cli::applyEdits("abc", {{{2, 99}, "Q"}}) == "abQ");
}

TEST_CASE("atomic write keeps the mode and writes through a symlink") {
  namespace fs = std::filesystem;
  std::string t = (fs::temp_directory_path() / "dsls-fixer-XXXXXX").string();
  fs::path dir = ::mkdtemp(t.data());
  fs::path file = dir / "ds_config.json";
  std::ofstream(file) << "old";
  ::chmod(file.c_str(), 0640);
  fs::create_symlink(file, dir / "link.json");
  std::string error;
  REQUIRE(dsls::cli::writeFileAtomically((dir / "link.json").string(), "new text", error));
  CHECK(fs::is_symlink(dir / "link.json"));
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  CHECK(s.str() == "new text");
  struct stat st {};
  ::stat(file.c_str(), &st);
  CHECK((st.st_mode & 07777) == 0640);
  std::size_t entries = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator(dir)) ++entries;
  CHECK(entries == 2);  // no temporary file left behind
  CHECK_FALSE(dsls::cli::writeFileAtomically((dir / "missing/x.json").string(), "x", error));
  CHECK_FALSE(error.empty());
  fs::remove_all(dir);
}
