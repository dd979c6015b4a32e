// grappi retrieve: a question's connected, compact subgraph by PCST.
#include <iostream>
#include <memory>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct RetrieveArgs {
  std::string db, question, model, mode = "gretriever", pruning = "gw";
  PcstRetrieveOptions o;  // the numeric options, bound directly
  double min_score = 0;
  std::vector<std::string> relations, labels;
  bool json = false, csv = false;
};

void run(RetrieveArgs &a) {
  KnowledgeGraph g = open_graph(a.db, false);
  PcstRetrieveOptions o = a.o;
  o.mode = a.mode;
  o.khop.filter.min_score = score_arg(a.min_score);
  o.khop.filter.relations = a.relations;
  o.khop.labels = a.labels;
  o.pruning = pruning_from_name(a.pruning);
  const auto q = g.query_vector(a.question, a.model);
  const auto r = g.retriever(a.model);
  const PcstRetrieval res = r->pcst_retrieve(q, o);
  const GraphSnapshot &s = r->graph();
  const auto name = [&](int64_t id) { return s.name(*s.index_of(id)); };
  if (a.csv) {
    std::cout << to_gretriever_csv(s, res.subgraph, [&](int64_t id) { return KnowledgeGraph::node_text(*g.node(id)); });
    return;
  }
  if (a.json) {
    std::cout << to_json(s, res).dump(2) << '\n';
    return;
  }
  std::cout << "seeds:";
  for (int64_t id : res.seeds) std::cout << ' ' << name(id);
  std::cout << "\nbase " << res.base_nodes << " nodes, " << res.base_edges << " edges; selected " << res.subgraph.nodes.size()
            << " nodes, " << res.subgraph.edges.size() << " edges (objective " << fmt(res.objective, 4) << ", edge cost "
            << fmt(res.edge_cost, 4) << ")\n";
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < res.subgraph.nodes.size(); ++i)
    rows.push_back({name(res.subgraph.nodes[i]), std::to_string(res.subgraph.hops[i]), fmt(res.node_prizes[i], 3)});
  print_table({"node", "hops", "prize"}, rows);
  rows.clear();
  for (std::size_t i = 0; i < res.subgraph.edges.size(); ++i) {
    const auto &e = res.subgraph.edges[i];
    rows.push_back({name(e.source), name(e.target), e.relation, fmt(e.score, 3), fmt(res.edge_prizes[i], 3)});
  }
  print_table({"source", "target", "relation", "score", "prize"}, rows);
}

}  // namespace

void add_retrieve(CLI::App &app) {
  auto a = std::make_shared<RetrieveArgs>();
  auto &o = a->o;
  auto *c = app.add_subcommand("retrieve", "Question -> a connected, compact subgraph by PCST (G-Retriever or prize-rule prizes)");
  add_db_option(c, a->db);
  c->add_option("--question", a->question, "Question text")->required();
  c->add_option("--mode", a->mode, "gretriever (top-k rank prizes, virtual nodes) or prize (alpha/beta/gamma/lambda form)")
      ->check(CLI::IsMember({"gretriever", "prize"}));
  c->add_option("--topk", o.topk, "G-Retriever: nodes with rank prizes");
  c->add_option("--topk-e", o.topk_e, "G-Retriever: distinct edge similarity values with rank prizes");
  c->add_option("--cost-e", o.cost_e, "G-Retriever: edge cost (at most 0.995 x the largest edge prize)");
  c->add_flag("--pyg-cap", o.pyg_cap, "G-Retriever: cap edge prizes at previous - 0.01 (PyG port) instead of 0.99 x previous");
  c->add_option("--alpha", o.alpha, "prize: weight of the question similarity of a node");
  c->add_option("--beta", o.beta, "prize: bonus of a seed node");
  c->add_option("--gamma", o.gamma, "prize: weight of the edge score as edge prize");
  c->add_option("--lambda", o.lambda, "prize: cost of an edge");
  c->add_option("--seeds", o.seeds, "Seed nodes by similarity to the question");
  c->add_option("--hops", o.khop.hops, "Base subgraph: hops from the seeds");
  c->add_option("--degree-cap", o.khop.degree_cap, "Base subgraph: expand each node through its top-d edges by score (0: all)");
  c->add_option("--node-budget", o.khop.node_budget, "Base subgraph: at most this many nodes (0: no limit)");
  c->add_option("--min-score", a->min_score, "Minimum edge score (0-1 or 0-1000)");
  c->add_option("--relation", a->relations, "Relation type(s) to follow");
  c->add_option("--label", a->labels, "Node label(s) to keep");
  c->add_option("--pruning", a->pruning, "none, simple, gw or strong");
  c->add_option("--clusters", o.num_clusters, "Number of trees");
  c->add_flag("--reference-order", o.reference_order, "PCST events in pcst_fast's own order (G-Retriever's subgraph to the last tie)");
  c->add_option("--model", a->model, "Embedding model (default: the latest)");
  c->add_flag("--json", a->json, "JSON output");
  c->add_flag("--csv", a->csv, "G-Retriever CSV text (node_id,node_attr / src,edge_attr,dst)");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli
