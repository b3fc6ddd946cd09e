// dsls.diagnoseFolder's walk (workspace::findJobs): what it could not read is named, so a job
// diagnosed with rank files missing says which.
#include "doctest/doctest.h"
#include "workspace/run_folder_reader.h"

#include <filesystem>
#include <fstream>
#include <stdlib.h>

using namespace dsls;
namespace fs = std::filesystem;

namespace {

// A torchrun log folder of `ranks` local ranks, under the working folder (the build's, in ctest).
struct RunTree {
  std::string root;
  explicit RunTree(int ranks) {
    std::string t = (fs::current_path() / "dsls-walk-XXXXXX").string();
    root = ::mkdtemp(t.data());
    for (int r = 0; r < ranks; ++r) {
      fs::create_directories(rankDir(r));
      std::ofstream(rankDir(r) + "/stderr.log") << "rank " << r << "\n";
    }
  }
  ~RunTree() { fs::remove_all(root); }
  std::string rankDir(int r) const { return root + "/r_abcdefgh/attempt_0/" + std::to_string(r); }
};

}  // namespace

TEST_CASE("a broken link where a rank file should be is named as not read") {
  RunTree tree(2);
  fs::create_directories(tree.rankDir(2));
  fs::create_symlink(tree.root + "/gone.log", tree.rankDir(2) + "/stderr.log");
  std::string error;
  std::vector<std::pair<std::string, std::string>> notRead;
  const auto jobs = workspace::findJobs(tree.root, error, notRead);
  CHECK(error.empty());
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].ranks == std::vector<int>{0, 1});
  REQUIRE(notRead.size() == 1);
  CHECK(notRead[0].first == tree.rankDir(2) + "/stderr.log");
  CHECK(notRead[0].second == "not read: No such file or directory");
}

TEST_CASE("the file limit stops the walk with a finding that names where it stopped") {
  RunTree tree(3);
  std::string error;
  std::vector<std::pair<std::string, std::string>> notRead;
  const auto jobs = workspace::findJobs(tree.root, error, notRead, 2);
  REQUIRE(notRead.size() == 1);
  CHECK(notRead[0].first == tree.root);
  CHECK(notRead[0].second.starts_with("not read past " + tree.root + "/r_abcdefgh/attempt_0/"));
  CHECK(notRead[0].second.ends_with(": the walk stops at 2 files"));
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].files.size() == 2);
  // At the limit exactly, everything was read.
  notRead.clear();
  CHECK(workspace::findJobs(tree.root, error, notRead, 3).front().files.size() == 3);
  CHECK(notRead.empty());
}
