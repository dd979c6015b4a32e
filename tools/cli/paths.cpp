// grappi paths: the k shortest simple paths between two proteins.
#include <iostream>
#include <memory>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct PathsArgs {
  std::string db, from, to;
  std::size_t max_length = 4, k = 10;
  double min_score = 0;
  bool weighted = false, json = false;
  std::vector<std::string> relations;
};

void run(const PathsArgs &a) {
  KnowledgeGraph g = open_graph(a.db, false);
  ShortestPathOptions o;
  o.k = a.k;
  o.max_length = a.max_length;
  o.weighted = a.weighted;
  o.filter.min_score = score_arg(a.min_score);
  o.filter.relations = a.relations;
  const int64_t from = g.resolve(a.from), to = g.resolve(a.to);
  const auto r = g.retriever();
  const auto paths = r->shortest_paths(from, to, o);
  if (a.json) {
    std::cout << to_json(r->graph(), paths).dump(2) << '\n';
    return;
  }
  if (paths.empty()) std::cout << "no path of at most " << a.max_length << " edges\n";
  for (const auto &p : paths) {
    std::string line;
    for (std::size_t i = 0; i < p.nodes.size(); ++i) {
      if (i) line += " -(" + fmt(p.scores[i - 1]) + ")- ";
      line += r->graph().name(*r->graph().index_of(p.nodes[i]));
    }
    std::cout << p.length() << "  " << line << '\n';
  }
}

}  // namespace

void add_paths(CLI::App &app) {
  auto a = std::make_shared<PathsArgs>();
  auto *c = app.add_subcommand("paths", "k shortest simple paths between two proteins (Yen)");
  add_db_option(c, a->db);
  c->add_option("--from", a->from, "Start protein")->required();
  c->add_option("--to", a->to, "End protein")->required();
  c->add_option("--max-len", a->max_length, "Maximum number of edges");
  c->add_option("--k", a->k, "Number of paths");
  c->add_option("--min-score", a->min_score, "Minimum edge score (0-1 or 0-1000)");
  c->add_option("--relation", a->relations, "Relation type(s) to follow");
  c->add_flag("--weighted", a->weighted, "Shortest by sum of -log(score) instead of hop count");
  c->add_flag("--json", a->json, "JSON output");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli
