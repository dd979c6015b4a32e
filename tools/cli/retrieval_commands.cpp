// grappi embed, search, window, paths, khop, pagerank, retrieve, pcst: embeddings and retrieval.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct EmbedArgs {
  std::string db, embedder = "lsa", base_url = HttpEmbedderOptions{}.base_url, model, api_key_env = "OPENAI_API_KEY";
  std::size_t dimension = 0, batch = 0;
  bool refit = false, no_ranking = false;
};

void run_embed(const EmbedArgs &a) {
  if (a.embedder == "openai" && a.model.empty()) throw Error(ErrorCode::invalid_argument, "embed: --embedder openai needs --model");
  KnowledgeGraph g = open_graph(a.db, Access::write, 256);
  EmbedderSpec spec;
  spec.kind = a.embedder;
  spec.dimension = a.dimension;
  spec.refit = a.refit;
  spec.http.base_url = a.base_url;
  spec.http.model = a.model;
  spec.http.api_key_env = a.api_key_env;
  auto embedder = grappi::make_embedder(g, spec);
  EmbedOptions eo;
  eo.batch_size = a.batch ? a.batch : (a.embedder == "openai" ? 128 : 256);
  eo.neighbor_ranking = !a.no_ranking;
  ProgressBar bar;
  eo.progress = [&bar](std::size_t done, std::size_t total) { bar("embedding", done, total); };
  const EmbedReport r = grappi::embed_graph(g, *embedder, eo);
  std::cout << "model " << r.model << " (dimension " << r.dimension << "): embedded " << r.embedded << ", unchanged "
            << r.unchanged << ", removed " << r.removed << " in " << fmt(r.seconds, 2) << " s\n";
  if (r.neighbor_ranking_entries)
    std::cout << "neighbor ranking: " << r.neighbor_ranking_entries << " entries in " << fmt(r.neighbor_ranking_seconds, 2)
              << " s -> " << grappi::neighbor_ranking_path(g) << '\n';
  if (!r.warning.empty()) std::cerr << "grappi: warning: " << r.warning << '\n';
}

struct SearchArgs {
  std::string db, text, model;
  std::size_t k = 10;
  bool json = false, hnsw = false;
};

void run_search(const SearchArgs &a) {
  // (--hnsw stores the index it builds for the next search)
  KnowledgeGraph g = open_graph(a.db, a.hnsw ? Access::write : Access::read);
  const auto q = grappi::query_vector(g, a.text, a.model);
  const auto vec = grappi::graph_vectors(g, a.model, a.hnsw);
  const auto hits = a.hnsw ? vec->search_hnsw(q.data(), a.k) : vec->search(q.data(), a.k);
  const auto snap = g.snapshot();
  if (a.json) {
    std::cout << dump_json(to_json(*snap, hits), 2) << '\n';
    return;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto &h : hits) {
    const auto n = g.node(h.id);
    rows.push_back({n->name, n->external_id, fmt(h.score), n->annotation});
  }
  print_table({"name", "external_id", "similarity", "annotation"}, rows);
}

}  // namespace

void add_embed(CLI::App &app) {
  auto a = std::make_shared<EmbedArgs>();
  auto *c = app.add_subcommand("embed", "Embed every node's name and annotation (only new or changed texts)");
  add_db_option(c, a->db);
  c->add_option("--embedder", a->embedder, "lsa (built-in: latent semantic analysis of the annotations), hashing (built-in, lexical) or openai (OpenAI-compatible HTTP)")
      ->check(CLI::IsMember({"hashing", "lsa", "openai"}));
  c->add_option("--base-url", a->base_url, "OpenAI-compatible base URL (POST {base}/embeddings)");
  c->add_option("--model", a->model, "Model name for --embedder openai");
  c->add_option("--api-key-env", a->api_key_env, "Environment variable holding the API key");
  c->add_option("--dim", a->dimension, "Dimension; 0 = the embedder's default (hashing 384, lsa 256 concepts + 384 lexical, openai the model's)");
  c->add_option("--batch", a->batch, "Texts per batch (0 = 256 built-in, 128 openai)");
  c->add_flag("--refit", a->refit, "hashing, lsa: learn again from the current annotations");
  c->add_flag("--no-neighbor-ranking", a->no_ranking,
              "Do not rank every node's neighbors by similarity afterwards (<db>.knn, used by windows)");
  c->callback([a] { run_embed(*a); });
}

void add_search(CLI::App &app) {
  auto a = std::make_shared<SearchArgs>();
  auto *c = app.add_subcommand("search", "Nodes most similar to a text");
  add_db_option(c, a->db);
  c->add_option("text", a->text, "Query text")->required();
  c->add_option("--k", a->k, "Number of results");
  c->add_option("--model", a->model, "Embedding model (default: the latest)");
  c->add_flag("--hnsw", a->hnsw, "Approximate search with the HNSW graph (built and stored on first use)");
  c->add_flag("--json", a->json, "JSON output");
  c->callback([a] { run_search(*a); });
}

namespace {

struct WindowArgs {
  std::string db, protein, k = "30,4", windows = "1", model, query;
  std::size_t depth = 2;
  double min_score = 0, query_weight = 0, score_weight = 0;
  std::vector<std::string> relations;
  bool json = false;
};

void run_window(const WindowArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  WindowOptions o;
  o.k = parse_k(a.k);
  o.depth = a.depth;
  o.filter.min_score = score_arg(a.min_score);
  o.filter.relations = a.relations;
  o.query_weight = a.query_weight;
  o.score_weight = a.score_weight;
  if (!a.query.empty()) o.query = grappi::query_vector(g, a.query, a.model);
  const auto windows = parse_windows(a.windows, "--window");
  const int64_t root = g.resolve(a.protein);
  const auto r = grappi::graph_retriever(g, a.model);
  const auto ws = r->windows(root, windows, o);
  for (const auto &w : ws)
    if (!w.note.empty()) std::cerr << "grappi: window " << w.index << ": " << w.note << '\n';
  if (a.json) {
    if (ws.size() == 1) {
      std::cout << dump_json(to_json(r->graph(), ws[0]), 2) << '\n';
    } else {
      auto arr = nlohmann::json::array();
      for (const auto &w : ws) arr.push_back(to_json(r->graph(), w));
      std::cout << dump_json(arr, 2) << '\n';
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
  c->add_option("protein,--protein", a->protein, "Root protein (here or after --protein)")->required();
  c->add_option("--window", a->windows, "Window number(s): 1, 1-3 or 1,3");
  c->add_option("--k", a->k, "k per depth, e.g. 30,4 (code default) or 10,2 (paper)");
  c->add_option("--depth", a->depth, "Depth M");
  c->add_option("--min-score", a->min_score, "Minimum edge score: 0-1, or a whole number 2-1000 on STRING's scale");
  c->add_option("--relation", a->relations, "Relation type(s) to follow");
  c->add_option("--model", a->model, "Embedding model (default: the latest)");
  c->add_option("--query", a->query, "Query text to blend into the ranking (with --query-weight)");
  c->add_option("--query-weight", a->query_weight, "Weight of query similarity in the ranking (0 = reference behaviour)");
  c->add_option("--score-weight", a->score_weight, "Weight of the edge score in the ranking");
  c->add_flag("--json", a->json, "JSON output");
  c->callback([a] { run_window(*a); });
}

namespace {

struct PathsArgs {
  std::string db, from, to;
  std::size_t max_length = 4, k = 10;
  double min_score = 0;
  bool weighted = false, json = false, all_shortest = false, skip_direct = false;
  std::vector<std::string> relations;
};

void run_paths(const PathsArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  ShortestPathOptions o;
  o.k = a.k;
  o.max_length = a.max_length;
  o.weighted = a.weighted;
  o.filter.min_score = score_arg(a.min_score);
  o.filter.relations = a.relations;
  o.skip_direct = a.skip_direct;
  const int64_t from = g.resolve(a.from), to = g.resolve(a.to);
  const auto r = grappi::graph_retriever(g);
  const auto paths = a.all_shortest ? r->all_shortest_paths(from, to, o) : r->shortest_paths(from, to, o);
  if (a.json) {
    std::cout << dump_json(to_json(r->graph(), paths), 2) << '\n';
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
  auto *c = app.add_subcommand("paths", "k shortest simple paths between two proteins (Yen), or every shortest path");
  add_db_option(c, a->db);
  c->add_option("--from", a->from, "Start protein")->required();
  c->add_option("--to", a->to, "End protein")->required();
  c->add_option("--max-len", a->max_length, "Maximum number of edges");
  c->add_option("--k", a->k, "Number of paths");
  c->add_option("--min-score", a->min_score, "Minimum edge score: 0-1, or a whole number 2-1000 on STRING's scale");
  c->add_option("--relation", a->relations, "Relation type(s) to follow");
  c->add_flag("--all-shortest", a->all_shortest,
              "Every shortest path by hops instead (all of one length, at most --k; HGCR's candidates)");
  c->add_flag("--skip-direct", a->skip_direct, "Follow no edge joining the two ends (indirect paths only)");
  c->add_flag("--weighted", a->weighted, "Shortest by sum of -log(score) instead of hop count");
  c->add_flag("--json", a->json, "JSON output");
  c->callback([a] { run_paths(*a); });
}

namespace {

struct KhopArgs {
  std::string db, question, model;
  std::size_t seeds = 3, hops = 1, degree_cap = 0, node_budget = 0;
  double min_score = 0;
  std::vector<std::string> relations, labels;
  bool json = false, csv = false;
};

void run_khop(const KhopArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  const auto q = grappi::query_vector(g, a.question, a.model);
  KhopOptions o;
  o.hops = a.hops;
  o.degree_cap = a.degree_cap;
  o.node_budget = a.node_budget;
  o.filter.min_score = score_arg(a.min_score);
  o.filter.relations = a.relations;
  o.labels = a.labels;
  const auto r = grappi::graph_retriever(g, a.model);
  const QuestionSubgraph sub = r->question_khop(q, a.seeds, o);
  const GraphSnapshot &s = r->graph();
  if (a.csv) {
    std::cout << to_gretriever_csv(s, sub.subgraph, [&](int64_t id) { return KnowledgeGraph::node_text(*g.node(id)); });
  } else if (a.json) {
    std::cout << dump_json(to_json(s, sub), 2) << '\n';
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
  c->add_option("--min-score", a->min_score, "Minimum edge score: 0-1, or a whole number 2-1000 on STRING's scale");
  c->add_option("--relation", a->relations, "Relation type(s) to follow");
  c->add_option("--label", a->labels, "Node label(s) to keep");
  c->add_option("--model", a->model, "Embedding model (default: the latest)");
  c->add_flag("--json", a->json, "JSON output");
  c->add_flag("--csv", a->csv, "G-Retriever CSV text");
  c->callback([a] { run_khop(*a); });
}

namespace {

struct PageRankArgs {
  std::string db;
  std::vector<std::string> seeds;
  std::size_t top = 20, max_iterations = 100;
  double damping = 0.85, min_score = 0;
  bool json = false, unweighted = false;
};

void run_pagerank(const PageRankArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  PageRankOptions o;
  for (const auto &s : a.seeds) o.seeds.push_back(g.resolve(s));
  o.damping = a.damping;
  o.max_iterations = a.max_iterations;
  o.filter.min_score = score_arg(a.min_score);
  o.weighted = !a.unweighted;
  const auto r = grappi::graph_retriever(g);
  const PageRankResult res = r->pagerank(o);
  const auto top = res.top(r->graph(), a.top);
  if (a.json) {
    std::cout << dump_json(to_json(r->graph(), top), 2) << '\n';
    return;
  }
  std::cout << (o.seeds.empty() ? "global" : "personalised") << " PageRank, " << res.iterations << " iterations"
            << (res.converged ? "" : " (not converged)") << "\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto &t : top) rows.push_back({r->graph().name(*r->graph().index_of(t.id)), fmt(t.score, 6)});
  print_table({"node", "pagerank"}, rows);
}

}  // namespace

void add_pagerank(CLI::App &app) {
  auto a = std::make_shared<PageRankArgs>();
  auto *c = app.add_subcommand("pagerank", "Global or personalised PageRank");
  add_db_option(c, a->db);
  c->add_option("--seed", a->seeds, "Seed protein(s) for personalised PageRank");
  c->add_option("--top", a->top, "Show the top N");
  c->add_option("--damping", a->damping, "Damping factor");
  c->add_option("--max-iterations", a->max_iterations, "Iteration cap");
  c->add_option("--min-score", a->min_score, "Minimum edge score: 0-1, or a whole number 2-1000 on STRING's scale");
  c->add_flag("--unweighted", a->unweighted, "Ignore edge scores");
  c->add_flag("--json", a->json, "JSON output");
  c->callback([a] { run_pagerank(*a); });
}

namespace {

struct RetrieveArgs {
  std::string db, question, html;
  RetrievalArgs r;
  bool json = false, csv = false;
};

void run_retrieve(RetrieveArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  const PcstRetrieveOptions o = retrieval_options(a.r);
  const auto q = grappi::query_vector(g, a.question, a.r.model);
  const auto r = grappi::graph_retriever(g, a.r.model);
  const PcstRetrieval res = r->pcst_retrieve(q, o);
  const GraphSnapshot &s = r->graph();
  const auto name = [&](int64_t id) { return s.name(*s.index_of(id)); };
  if (!a.html.empty()) write_output(a.html, to_html(report_view(g, a.question, res)));
  if (a.html == "-") return;
  if (a.csv) {
    std::cout << to_gretriever_csv(s, res.subgraph, [&](int64_t id) { return KnowledgeGraph::node_text(*g.node(id)); });
    return;
  }
  if (a.json) {
    std::cout << dump_json(to_json(s, res), 2) << '\n';
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

void add_retrieval_flags(CLI::App *c, RetrievalArgs &a, const std::string &model_flag) {
  auto &o = a.o;
  c->add_option("--mode", a.mode, "gretriever (top-k rank prizes, virtual nodes) or prize (alpha/beta/gamma/lambda form)")
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
  c->add_option("--min-score", a.min_score, "Minimum edge score: 0-1, or a whole number 2-1000 on STRING's scale");
  c->add_option("--relation", a.relations, "Relation type(s) to follow");
  c->add_option("--relation-weight", a.weights, "RELATION=W: multiply the prizes of that relation's edges by W (repeatable)");
  c->add_option("--label", a.labels, "Node label(s) to keep");
  c->add_option("--pruning", a.pruning, "none, simple, gw or strong");
  c->add_option("--clusters", o.num_clusters, "Number of trees");
  auto *fast = c->add_flag("--fast-order", a.fast_order,
                           "PCST events in grappi's faster order (differs from pcst_fast's only where events tie)");
  c->add_flag("--reference-order", a.reference_order,
              "PCST events in pcst_fast's own order - G-Retriever's subgraph to the last tie (the default)")
      ->excludes(fast);
  c->add_option(model_flag, a.model, "Embedding model (default: the latest)");
}

PcstRetrieveOptions retrieval_options(const RetrievalArgs &a) {
  PcstRetrieveOptions o = a.o;
  o.mode = a.mode;
  o.khop.filter.min_score = score_arg(a.min_score);
  o.khop.filter.relations = a.relations;
  o.khop.labels = a.labels;
  o.pruning = pruning_from_name(a.pruning);
  if (a.fast_order) o.event_order = PcstEventOrder::fast;
  for (const std::string &w : a.weights) {
    const auto eq = w.rfind('=');
    char *end = nullptr;
    const double v = eq == std::string::npos ? 0 : std::strtod(w.c_str() + eq + 1, &end);
    if (eq == std::string::npos || eq == 0 || !end || *end != '\0' || end == w.c_str() + eq + 1)
      throw Error(ErrorCode::invalid_argument, "--relation-weight takes RELATION=WEIGHT, not '" + w + "'");
    o.relation_weights[w.substr(0, eq)] = v;
  }
  return o;
}

void add_retrieve(CLI::App &app) {
  auto a = std::make_shared<RetrieveArgs>();
  auto *c = app.add_subcommand("retrieve", "Question -> a connected, compact subgraph by PCST (G-Retriever or prize-rule prizes)");
  add_db_option(c, a->db);
  c->add_option("--question", a->question, "Question text")->required();
  add_retrieval_flags(c, a->r);
  c->add_flag("--json", a->json, "JSON output");
  c->add_flag("--csv", a->csv, "G-Retriever CSV text (node_id,node_attr / src,edge_attr,dst)");
  c->add_option("--html", a->html, "Write a self-contained HTML report of the subgraph to this file");
  c->callback([a] { run_retrieve(*a); });
}

namespace {

struct PcstArgs {
  std::string instance, pruning = "gw";
  int64_t root = -1;
  int clusters = 1;
  bool json = false, improve = false, fast_order = false, reference_order = false;
};

void run_pcst(const PcstArgs &a) {
  const PcstInstance inst = read_pcst_instance(a.instance);
  PcstOptions o;
  o.root = a.root;
  o.num_clusters = a.clusters;
  o.pruning = pruning_from_name(a.pruning);
  o.improve = a.improve;
  o.event_order = a.fast_order ? PcstEventOrder::fast : PcstEventOrder::reference;
  PCSTSolver solver;
  const auto t0 = std::chrono::steady_clock::now();
  const PcstResult r = solver.solve(inst.prizes, inst.edges, inst.costs, o);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (a.json) {
    auto j = to_json(r, o);
    j["solve_seconds"] = secs;  // the solver only, the instance already loaded
    std::cout << dump_json(j) << '\n';
    return;
  }
  std::cout << "objective " << r.objective << "\nnet worth " << r.net_worth << "\nnodes " << r.nodes.size() << " of "
            << inst.prizes.size() << "\nedges " << r.edges.size() << " of " << inst.edges.size() << "\nsolve "
            << fmt(secs * 1000, 3) << " ms (" << to_string(o.pruning) << (o.improve ? " + improve" : "")
            << ", " << to_string(o.event_order) << " order)\n";
  if (o.improve) std::cout << "before improve " << r.objective_before_improve << " (" << r.improve_rounds << " improving rounds)\n";
  if (r.optimal) std::cout << "optimal: proven (the exact search over few prized nodes; gap 0)\n";
}

}  // namespace

void add_pcst(CLI::App &app) {
  auto a = std::make_shared<PcstArgs>();
  auto *c = app.add_subcommand("pcst", "Solve a prize-collecting Steiner tree instance (pcst-instance v1, plain or gzip)");
  c->add_option("--instance", a->instance, "Instance file")->required();
  c->add_option("--pruning", a->pruning, "none, simple, gw or strong");
  c->add_option("--root", a->root, "Root node (-1: unrooted)");
  c->add_option("--clusters", a->clusters, "Number of trees (unrooted)");
  c->add_flag("--json", a->json, "JSON output");
  c->add_flag("--improve", a->improve, "Local search after pruning: MST re-span, path attachment, strong pruning (never worse)");
  auto *fast = c->add_flag("--fast-order", a->fast_order,
                           "Events in grappi's faster order: differs from pcst_fast's only where events tie");
  c->add_flag("--reference-order", a->reference_order,
              "Events in pcst_fast's own order (ties included): its results exactly - the default")
      ->excludes(fast);
  c->callback([a] { run_pcst(*a); });
}

}  // namespace grappi::cli
