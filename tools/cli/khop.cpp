// grappi khop: seeds by similarity to a question, then k-hop expansion.
#include <iostream>
#include <memory>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct KhopArgs {
  std::string db, question, model;
  std::size_t seeds = 3, hops = 1, degree_cap = 0, node_budget = 0;
  double min_score = 0;
  std::vector<std::string> relations, labels;
  bool json = false, csv = false;
};

void run(const KhopArgs &a) {
  KnowledgeGraph g = open_graph(a.db, false);
  const auto q = g.query_vector(a.question, a.model);
  KhopOptions o;
  o.hops = a.hops;
  o.degree_cap = a.degree_cap;
  o.node_budget = a.node_budget;
  o.filter.min_score = score_arg(a.min_score);
  o.filter.relations = a.relations;
  o.labels = a.labels;
  const auto r = g.retriever(a.model);
  const QuestionSubgraph sub = r->question_khop(q, a.seeds, o);
  const GraphSnapshot &s = r->graph();
  if (a.csv) {
    std::cout << to_gretriever_csv(s, sub.subgraph, [&](int64_t id) { return KnowledgeGraph::node_text(*g.node(id)); });
  } else if (a.json) {
    std::cout << to_json(s, sub).dump(2) << '\n';
  } else {
    std::cout << "seeds:";
    for (const auto &h : sub.seeds) std::cout << ' ' << s.name(*s.index_of(h.id));
    std::cout << "\n" << sub.subgraph.nodes.size() << " nodes, " << sub.subgraph.edges.size() << " edges\n";
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < sub.subgraph.nodes.size(); ++i)
      rows.push_back({s.name(*s.index_of(sub.subgraph.nodes[i])), std::to_string(sub.subgraph.hops[i])});
    print_table({"node", "hops"}, rows);
  }
}

}  // namespace

void add_khop(CLI::App &app) {
  auto a = std::make_shared<KhopArgs>();
  auto *c = app.add_subcommand("khop", "Seeds by similarity to a question, then k-hop expansion");
  add_db_option(c, a->db);
  c->add_option("--question", a->question, "Question text")->required();
  c->add_option("--seeds", a->seeds, "Number of seed nodes");
  c->add_option("--hops", a->hops, "Hops to expand");
  c->add_option("--degree-cap", a->degree_cap, "Expand each node through its top-d edges by score (0 = all)");
  c->add_option("--node-budget", a->node_budget, "At most this many nodes (0 = no limit)");
  c->add_option("--min-score", a->min_score, "Minimum edge score (0-1 or 0-1000)");
  c->add_option("--relation", a->relations, "Relation type(s) to follow");
  c->add_option("--label", a->labels, "Node label(s) to keep");
  c->add_option("--model", a->model, "Embedding model (default: the latest)");
  c->add_flag("--json", a->json, "JSON output");
  c->add_flag("--csv", a->csv, "G-Retriever CSV text");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli
