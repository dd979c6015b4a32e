// grappi window: GraPPI moving kNN windows around a protein.
#include <iostream>
#include <memory>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct WindowArgs {
  std::string db, protein, k = "30,4", windows = "1", model, query;
  std::size_t depth = 2;
  double min_score = 0, query_weight = 0, score_weight = 0;
  std::vector<std::string> relations;
  bool json = false;
};

void run(const WindowArgs &a) {
  KnowledgeGraph g = open_graph(a.db, false);
  WindowOptions o;
  o.k = parse_k(a.k);
  o.depth = a.depth;
  o.filter.min_score = score_arg(a.min_score);
  o.filter.relations = a.relations;
  o.query_weight = a.query_weight;
  o.score_weight = a.score_weight;
  if (!a.query.empty()) o.query = g.query_vector(a.query, a.model);
  const auto windows = parse_windows(a.windows, "--window");
  const int64_t root = g.resolve(a.protein);
  const auto r = g.retriever(a.model);
  const auto ws = r->windows(root, windows, o);
  if (a.json) {
    if (ws.size() == 1) {
      std::cout << to_json(r->graph(), ws[0]).dump(2) << '\n';
    } else {
      auto arr = nlohmann::json::array();
      for (const auto &w : ws) arr.push_back(to_json(r->graph(), w));
      std::cout << arr.dump(2) << '\n';
    }
    return;
  }
  if (!r->vectors()) std::cerr << "grappi: no embeddings in the database: neighbors ranked by edge score (run grappi embed)\n";
  for (const auto &w : ws) {
    std::cout << "window " << w.index << " of " << a.protein << ": " << w.nodes.size() << " proteins, " << w.edges.size()
              << " edges\n";
    std::vector<std::vector<std::string>> rows;
    for (const auto &n : w.nodes)
      rows.push_back({n.name, std::to_string(n.depth), n.parent ? r->graph().name(*r->graph().index_of(*n.parent)) : "-",
                      fmt(n.rank_score)});
    print_table({"protein", "depth", "parent", "rank score"}, rows);
  }
}

}  // namespace

void add_window(CLI::App &app) {
  auto a = std::make_shared<WindowArgs>();
  auto *c = app.add_subcommand("window", "GraPPI moving kNN window graph around a protein");
  add_db_option(c, a->db);
  c->add_option("--protein", a->protein, "Root protein")->required();
  c->add_option("--window", a->windows, "Window number(s): 1, 1-3 or 1,3");
  c->add_option("--k", a->k, "k per depth, e.g. 30,4 (code default) or 10,2 (paper)");
  c->add_option("--depth", a->depth, "Depth M");
  c->add_option("--min-score", a->min_score, "Minimum edge score (0-1 or 0-1000)");
  c->add_option("--relation", a->relations, "Relation type(s) to follow");
  c->add_option("--model", a->model, "Embedding model (default: the latest)");
  c->add_option("--query", a->query, "Query text to blend into the ranking (with --query-weight)");
  c->add_option("--query-weight", a->query_weight, "Weight of query similarity in the ranking (0 = reference behaviour)");
  c->add_option("--score-weight", a->score_weight, "Weight of the edge score in the ranking");
  c->add_flag("--json", a->json, "JSON output");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli
