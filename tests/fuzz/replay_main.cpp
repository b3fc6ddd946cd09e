// Runs a fuzz target once on each file (or every file in each directory) named on the
// command line, without libFuzzer: how the normal build replays the committed crash
// inputs and the seed corpus as regression tests.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

int runFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    return 1;
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Named first, so that a crash or a hang shows which input caused it.
  std::fprintf(stderr, "replaying %s\n", path.c_str());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int inputs = 0, failures = 0;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path p(argv[i]);
    if (std::filesystem::is_directory(p)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        failures += runFile(f);
        ++inputs;
      }
    } else if (std::filesystem::exists(p)) {
      failures += runFile(p);
      ++inputs;
    }
  }
  std::printf("replayed %d inputs\n", inputs);
  std::fflush(stdout);
  std::fflush(stderr);
  // Leave as libFuzzer and the server do, without static destructors: a target may leave
  // work running on its own threads (the server's last analysis), which must not outlive
  // the statics it reads.
  std::_Exit(failures == 0 && inputs > 0 ? 0 : 1);
}
