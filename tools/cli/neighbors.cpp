// grappi neighbors: a protein's neighbors, strongest first.
#include <algorithm>
#include <iostream>
#include <memory>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct NeighborsArgs {
  std::string db, protein;
  double min_score = 0;
  std::vector<std::string> relations;
  std::size_t limit = 0;
  bool json = false;
};

void run(const NeighborsArgs &a) {
  KnowledgeGraph g = open_graph(a.db, false);
  const int64_t id = g.resolve(a.protein);
  const auto snap = g.snapshot();
  NeighborFilter f;
  f.min_score = score_arg(a.min_score);
  f.relations = a.relations;
  auto list = snap->neighbors(id, f);
  std::stable_sort(list.begin(), list.end(), [](const Neighbor &x, const Neighbor &y) {
    return x.score != y.score ? x.score > y.score : x.node < y.node;
  });
  if (a.limit && list.size() > a.limit) list.resize(a.limit);
  if (a.json) {
    std::cout << to_json(*snap, id, list).dump(2) << '\n';
    return;
  }
  const uint32_t self = *snap->index_of(id);
  std::cout << snap->name(self) << " (" << snap->external_id(self) << "): " << list.size() << " neighbor(s) shown, degree "
            << snap->degree(id) << "\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto &n : list) {
    const uint32_t ix = *snap->index_of(n.node);
    rows.push_back({snap->name(ix), snap->external_id(ix), fmt(n.score), snap->relation_name(n.relation),
                    n.direction == Direction::undirected ? "-" : (n.direction == Direction::outgoing ? "->" : "<-")});
  }
  print_table({"neighbor", "external_id", "score", "relation", "dir"}, rows);
}

}  // namespace

void add_neighbors(CLI::App &app) {
  auto a = std::make_shared<NeighborsArgs>();
  auto *c = app.add_subcommand("neighbors", "Neighbors of a protein, strongest first");
  add_db_option(c, a->db);
  c->add_option("protein", a->protein, "Protein name, alias or STRING id")->required();
  c->add_option("--min-score", a->min_score, "Minimum score, 0-1 or STRING's 0-1000")->check(CLI::Range(0.0, 1000.0));
  c->add_option("--relation", a->relations, "Relation type(s) to keep, e.g. string.physical");
  c->add_option("--limit", a->limit, "Show at most N neighbors (0 = all)");
  c->add_flag("--json", a->json, "JSON output");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli
