// Replays files through the fuzz targets' bodies without libFuzzer (the normal test suite runs it
// over the seed corpora and the regression files):
//
//   grappi_fuzz_replay TARGET FILE|DIR...    every file (directories recursively)
//   grappi_fuzz_replay --list                the targets
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "harness.hpp"

int main(int argc, char **argv) {
  namespace fs = std::filesystem;
  if (argc == 2 && std::string(argv[1]) == "--list") {
    for (const auto &t : grappi_fuzz::targets()) std::printf("%s\n", t.c_str());
    return 0;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: grappi_fuzz_replay TARGET FILE|DIR... | --list\n");
    return 2;
  }
  std::vector<fs::path> files;
  for (int i = 2; i < argc; ++i) {
    const fs::path p(argv[i]);
    if (fs::is_directory(p)) {
      for (const auto &e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
    } else if (fs::exists(p)) {
      files.push_back(p);
    }
  }
  std::size_t done = 0;
  for (const auto &f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!grappi_fuzz::run(argv[1], reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size())) {
      std::fprintf(stderr, "grappi_fuzz_replay: no target '%s' (--list)\n", argv[1]);
      return 2;
    }
    ++done;
  }
  std::printf("%s: %zu input(s) replayed\n", argv[1], done);
  return 0;
}
