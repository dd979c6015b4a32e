// The graph reader's cost at inference: for each question of a set, the subgraph the stored
// reader reads (retrieval included) and its scoring, timed apart; medians and 90th percentiles
// with the subgraphs' sizes.
//
//   bench_reader DB QUESTIONS.jsonl [--reader gat] [--topk 10] [--seeds 10]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "grappi/grappi.hpp"

namespace {
double at(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(q * double(v.size())))];
}
}  // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: bench_reader DB QUESTIONS.jsonl [--reader gat] [--topk 10] [--seeds 10]\n";
    return 2;
  }
  std::string name = "gat";
  grappi::AskOptions o;
  o.retrieval.topk = 10;
  o.retrieval.seeds = 10;
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--reader") name = argv[i + 1];
    if (flag == "--topk") o.retrieval.topk = std::strtoul(argv[i + 1], nullptr, 10);
    if (flag == "--seeds") o.retrieval.seeds = std::strtoul(argv[i + 1], nullptr, 10);
  }
  grappi::OpenOptions ro;
  ro.read_only = true;
  grappi::KnowledgeGraph kg(argv[1], ro);
  const grappi::GatReader reader = grappi::GatReader::load(kg, name);
  const std::string scope = reader.info().value("scope", "subgraph");
  const auto questions = grappi::read_qa_questions(argv[2]);
  std::vector<double> build, score, nodes, edges;
  for (const auto &q : questions) {
    auto t0 = std::chrono::steady_clock::now();
    const grappi::ReaderGraph g = grappi::reader_graph(kg, q.question, o, scope);
    auto t1 = std::chrono::steady_clock::now();
    if (g.nodes.empty()) continue;
    const auto s = reader.score(g);
    auto t2 = std::chrono::steady_clock::now();
    build.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    score.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
    nodes.push_back(double(g.nodes.size()));
    edges.push_back(double(g.edges.size()));
    if (s.size() != g.nodes.size()) return 1;
  }
  std::printf("reader '%s' (scope %s), %zu subgraphs: nodes median %.0f p90 %.0f; edges median %.0f p90 %.0f\n", name.c_str(),
              scope.c_str(), score.size(), at(nodes, 0.5), at(nodes, 0.9), at(edges, 0.5), at(edges, 0.9));
  std::printf("retrieval + subgraph: median %.2f ms, p90 %.2f ms; scoring: median %.2f ms, p90 %.2f ms\n", at(build, 0.5),
              at(build, 0.9), at(score, 0.5), at(score, 0.9));
  return 0;
}
