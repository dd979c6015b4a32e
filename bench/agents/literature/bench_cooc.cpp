// Co-occurrence graph construction: grappi's build_cooccurrence (sparse DᵀD and the edges'
// documents) on a PubTator corpus, timed apart from reading the file; cooc_vs_scipy.py runs the
// reference's construction (scipy sparse DᵀD over a boolean document-term matrix) on the same
// file side by side.
//
//   bench_cooc CORPUS [--repeat 5]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "grappi/grappi.hpp"

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: bench_cooc CORPUS [--repeat 5]\n";
    return 2;
  }
  int repeat = 5;
  for (int i = 2; i + 1 < argc; i += 2)
    if (std::string(argv[i]) == "--repeat") repeat = std::atoi(argv[i + 1]);
  auto t0 = std::chrono::steady_clock::now();
  const auto docs = grappi::read_documents(argv[1]);
  const double read = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<double> times;
  grappi::CoocGraph g;
  for (int r = 0; r < repeat; ++r) {
    t0 = std::chrono::steady_clock::now();
    g = grappi::build_cooccurrence(docs);
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  std::printf("documents %zu, concepts %zu, edges %zu, mentions %zu\n", g.documents, g.concepts.size(), g.edges.size(),
              g.mentions);
  std::printf("read %.3f s; build (median of %d) %.4f s (min %.4f)\n", read, repeat, times[times.size() / 2], times[0]);
  return 0;
}
