// Functional enrichment in-process: the annotations read once (timed apart), then random sets
// of proteins (annotated ones of the database's organism, seeded) enriched in every GO category
// with every term tested reported (max_fdr 1), each call timed; the median and the worst. The
// sets' results go to a JSON lines file for bench/enrich_vs_scipy.py, which times scipy and
// statsmodels on the same terms.
//
//   bench_enrich DB [--sets 20] [--size 500] [--seed 58] [--out enrich_sets.jsonl]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "grappi/grappi.hpp"

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: bench_enrich DB [--sets N] [--size N] [--seed N] [--out FILE]\n";
    return 2;
  }
  std::size_t sets = 20, size = 500;
  unsigned seed = 58;
  std::string out_path = "enrich_sets.jsonl";
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--sets") sets = std::stoul(argv[i + 1]);
    else if (flag == "--size") size = std::stoul(argv[i + 1]);
    else if (flag == "--seed") seed = static_cast<unsigned>(std::stoul(argv[i + 1]));
    else if (flag == "--out") out_path = argv[i + 1];
  }
  using clock = std::chrono::steady_clock;
  const auto ms = [](clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  grappi::KnowledgeGraph kg(argv[1]);
  const auto g = kg.snapshot();
  // The organism's proteins: nodes labelled Protein with a taxon prefix, of the most frequent one.
  std::vector<int64_t> proteins;
  for (uint32_t i = 0; i < g->node_count(); ++i)
    if (g->label(i) == "Protein") proteins.push_back(g->node_id(i));
  grappi::EnrichmentOptions o;
  const auto t0 = clock::now();
  const auto first = grappi::enrich(kg, {proteins.front()}, o);
  const double load_ms = ms(clock::now() - t0);
  // (annotated proteins only, as a list of hits usually is: those in some category's universe)
  std::vector<int64_t> annotated;
  {
    grappi::EnrichmentOptions all;
    all.max_fdr = 0;
    const auto r = grappi::enrich(kg, proteins, all);
    std::vector<int64_t> un = r.unannotated;
    std::sort(un.begin(), un.end());
    for (int64_t p : proteins)
      if (!std::binary_search(un.begin(), un.end(), p)) annotated.push_back(p);
  }
  std::mt19937 rng(seed);
  std::ofstream out(out_path);
  std::vector<double> times;
  std::size_t terms = 0;
  for (std::size_t s = 0; s < sets; ++s) {
    std::vector<int64_t> set = annotated;
    std::shuffle(set.begin(), set.end(), rng);
    set.resize(std::min(size, set.size()));
    const auto t = clock::now();
    const auto r = grappi::enrich(kg, set, o);
    times.push_back(ms(clock::now() - t));
    terms += r.terms.size();
    out << grappi::dump_json(grappi::to_json(kg, r)) << '\n';
  }
  std::sort(times.begin(), times.end());
  std::printf("database %s: %zu proteins, %zu annotated; annotations read in %.0f ms (first call)\n", argv[1],
              proteins.size(), annotated.size(), load_ms);
  std::printf("%zu sets of %zu proteins, every GO category, every term tested reported (%.0f terms a set): "
              "median %.1f ms, worst %.1f ms a set\n",
              sets, size, static_cast<double>(terms) / static_cast<double>(sets), times[times.size() / 2], times.back());
  (void)first;
  return 0;
}
