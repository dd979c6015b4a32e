// grappi — command-line front end. Holds no logic of its own: every command calls the C++ API.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "grappi/grappi.hpp"
#include "grappi/retriever.hpp"
#include "grappi/pipeline.hpp"
#include <fstream>

namespace {

using nlohmann::json;

struct Progress {
  bool enabled = isatty(STDERR_FILENO) != 0;
  std::string last_path;
  int last_pct = -1;
  void operator()(const grappi::ImportProgress &p) {
    if (!enabled) return;
    int pct = p.bytes_total ? static_cast<int>(100.0 * static_cast<double>(p.bytes_read) /
                                               static_cast<double>(p.bytes_total))
                            : 100;
    if (p.stage == std::string("done")) pct = 100;
    if (pct == last_pct && p.path == last_path) return;
    last_pct = pct;
    last_path = p.path;
    const int width = 30;
    int filled = pct * width / 100;
    std::fprintf(stderr, "\r%-9s [%s%s] %3d%% %s", p.stage.c_str(), std::string(static_cast<std::size_t>(filled), '#').c_str(),
                 std::string(static_cast<std::size_t>(width - filled), ' ').c_str(), pct, p.path.c_str());
    if (p.stage == std::string("done")) std::fputc('\n', stderr);
    std::fflush(stderr);
  }
};

void print_table(const std::vector<std::string> &head, const std::vector<std::vector<std::string>> &rows) {
  std::vector<std::size_t> w(head.size());
  for (std::size_t i = 0; i < head.size(); ++i) w[i] = head[i].size();
  for (auto &r : rows)
    for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], std::min<std::size_t>(r[i].size(), 60));
  auto line = [&](const std::vector<std::string> &r) {
    for (std::size_t i = 0; i < r.size(); ++i) {
      std::string cell = r[i].size() > 60 ? r[i].substr(0, 57) + "..." : r[i];
      std::cout << std::left << std::setw(static_cast<int>(w[i])) << cell << (i + 1 < r.size() ? "  " : "");
    }
    std::cout << '\n';
  };
  line(head);
  for (auto &r : rows) line(r);
}

std::string fmt(double v, int prec = 3) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(prec) << v;
  return o.str();
}

std::vector<std::size_t> parse_k(const std::string &spec) {
  std::vector<std::size_t> k;
  std::stringstream in(spec);
  std::string part;
  while (std::getline(in, part, ',')) {
    try {
      std::size_t used = 0;
      long long v = std::stoll(part, &used);
      if (used != part.size() || v <= 0) throw std::invalid_argument(part);
      k.push_back(static_cast<std::size_t>(v));
    } catch (const std::exception &) {
      throw grappi::Error(grappi::ErrorCode::invalid_argument, "--k: '" + spec + "' is not a list of positive integers like 30,4");
    }
  }
  if (k.empty()) throw grappi::Error(grappi::ErrorCode::invalid_argument, "--k is empty");
  return k;
}

// "1-3", "2", "1,3,5" -> window numbers.
std::vector<std::size_t> parse_windows(const std::string &spec) {
  std::vector<std::size_t> out;
  std::stringstream in(spec);
  std::string part;
  auto bad = [&] { return grappi::Error(grappi::ErrorCode::invalid_argument, "--windows: '" + spec + "' is not like 1-3 or 1,2,5"); };
  while (std::getline(in, part, ',')) {
    auto dash = part.find('-');
    try {
      if (dash == std::string::npos) {
        long long v = std::stoll(part);
        if (v <= 0) throw bad();
        out.push_back(static_cast<std::size_t>(v));
      } else {
        long long a = std::stoll(part.substr(0, dash)), b = std::stoll(part.substr(dash + 1));
        if (a <= 0 || b < a || b - a > 1000) throw bad();
        for (long long v = a; v <= b; ++v) out.push_back(static_cast<std::size_t>(v));
      }
    } catch (const grappi::Error &) {
      throw;
    } catch (const std::exception &) {
      throw bad();
    }
  }
  if (out.empty()) throw bad();
  return out;
}

double score_arg(double v) { return v > 1.0 ? v / 1000.0 : v; }

std::vector<float> embed_query(grappi::KnowledgeGraph &g, const std::string &model, const std::string &text) {
  auto e = g.query_embedder(model);
  return e->embed({text}).data;
}

}  // namespace

int main(int argc, char **argv) {
  CLI::App app{"grappi — knowledge-graph retrieval over protein interaction networks"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("grappi ") + GRAPPI_VERSION_STRING);
  std::string db;

  // import
  auto *imp = app.add_subcommand("import", "Import STRING files (applied in order info, aliases, links, actions; one transaction)");
  std::vector<std::string> f_links, f_detailed, f_physical, f_info, f_aliases, f_actions, f_export, f_auto;
  std::string force;
  int min_score = 0;
  bool skip_bad = false, imp_json = false;
  imp->add_option("--db", db, "Database file (created when missing)")->required();
  imp->add_option("--links", f_links, "protein.links file(s)");
  imp->add_option("--detailed", f_detailed, "protein.links.detailed file(s)");
  imp->add_option("--physical", f_physical, "protein.physical.links (or .detailed) file(s)");
  imp->add_option("--info", f_info, "protein.info file(s)");
  imp->add_option("--aliases", f_aliases, "protein.aliases file(s)");
  imp->add_option("--actions", f_actions, "protein.actions file(s)");
  imp->add_option("--export", f_export, "STRING website export string_interactions.tsv file(s)");
  imp->add_option("files", f_auto, "Files whose format is detected from the header");
  imp->add_option("--min-score", min_score, "Keep links with combined score >= N (0-1000; 150 low, 400 medium, 700 high, 900 highest)")
      ->check(CLI::Range(0, 1000));
  imp->add_flag("--skip-bad-lines", skip_bad, "Import the good lines and report the bad ones instead of failing");
  imp->add_flag("--json", imp_json, "Print the import report as JSON");

  // info
  auto *info = app.add_subcommand("info", "Counts of nodes and edges, datasets and their provenance");
  bool info_json = false;
  info->add_option("--db", db, "Database file")->required();
  info->add_flag("--json", info_json, "JSON output");

  // neighbors
  auto *nb = app.add_subcommand("neighbors", "Neighbours of a protein, strongest first");
  std::string nb_name;
  double nb_min = 0;
  std::vector<std::string> nb_rel;
  std::size_t nb_limit = 0;
  bool nb_json = false;
  nb->add_option("--db", db, "Database file")->required();
  nb->add_option("protein", nb_name, "Protein name, alias or STRING id")->required();
  nb->add_option("--min-score", nb_min, "Minimum score, 0-1 or STRING's 0-1000")->check(CLI::Range(0.0, 1000.0));
  nb->add_option("--relation", nb_rel, "Relation type(s) to keep, e.g. string.physical");
  nb->add_option("--limit", nb_limit, "Show at most N neighbours (0 = all)");
  nb->add_flag("--json", nb_json, "JSON output");

  // resolve
  auto *rs = app.add_subcommand("resolve", "Resolve a name, alias or id to a node");
  std::string rs_name;
  bool rs_json = false;
  rs->add_option("--db", db, "Database file")->required();
  rs->add_option("name", rs_name, "Name to resolve")->required();
  rs->add_flag("--json", rs_json, "JSON output");

  // remove-dataset
  auto *rm = app.add_subcommand("remove-dataset", "Remove everything one imported dataset contributed");
  int64_t rm_id = 0;
  rm->add_option("--db", db, "Database file")->required();
  rm->add_option("dataset", rm_id, "Dataset id (see grappi info)")->required();

  // embed
  auto *em = app.add_subcommand("embed", "Embed every node's name and annotation (only new or changed texts)");
  std::string em_kind = "hashing", em_base = "http://127.0.0.1:8080/v1", em_model, em_key_env = "OPENAI_API_KEY";
  std::size_t em_dim = 384, em_batch = 0;
  bool em_refit = false;
  em->add_option("--db", db, "Database file")->required();
  em->add_option("--embedder", em_kind, "hashing (built-in, offline) or openai (OpenAI-compatible HTTP)")
      ->check(CLI::IsMember({"hashing", "openai"}));
  em->add_option("--base-url", em_base, "OpenAI-compatible base URL (POST {base}/embeddings)");
  em->add_option("--model", em_model, "Model name for --embedder openai");
  em->add_option("--api-key-env", em_key_env, "Environment variable holding the API key");
  em->add_option("--dim", em_dim, "Dimension (hashing: buckets; openai: requested dimensions, 0 = model default)");
  em->add_option("--batch", em_batch, "Texts per request (default 256 hashing, 128 openai)");
  em->add_flag("--refit", em_refit, "Hashing: learn the weights again from the current annotations");
  bool em_no_rank = false;
  em->add_flag("--no-neighbour-ranking", em_no_rank,
               "Do not rank every node's neighbours by similarity afterwards (<db>.knn, used by windows)");

  // search
  auto *se = app.add_subcommand("search", "Nodes most similar to a text");
  std::string se_text, se_model;
  std::size_t se_k = 10;
  bool se_json = false, se_hnsw = false;
  se->add_option("--db", db, "Database file")->required();
  se->add_option("text", se_text, "Query text")->required();
  se->add_option("--k", se_k, "Number of results");
  se->add_option("--model", se_model, "Embedding model (default: the latest)");
  se->add_flag("--hnsw", se_hnsw, "Approximate search with the HNSW graph (built and stored on first use)");
  se->add_flag("--json", se_json, "JSON output");

  // window
  auto *wi = app.add_subcommand("window", "GraPPI moving kNN window graph around a protein");
  std::string wi_protein, wi_k = "30,4", wi_windows = "1", wi_model, wi_query;
  std::size_t wi_depth = 2;
  double wi_min = 0, wi_qw = 0, wi_sw = 0;
  std::vector<std::string> wi_rel;
  bool wi_json = false;
  wi->add_option("--db", db, "Database file")->required();
  wi->add_option("--protein", wi_protein, "Root protein")->required();
  wi->add_option("--window", wi_windows, "Window number(s): 1, 1-3 or 1,3");
  wi->add_option("--k", wi_k, "k per depth, e.g. 30,4 (code default) or 10,2 (paper)");
  wi->add_option("--depth", wi_depth, "Depth M");
  wi->add_option("--min-score", wi_min, "Minimum edge score (0-1 or 0-1000)");
  wi->add_option("--relation", wi_rel, "Relation type(s) to follow");
  wi->add_option("--model", wi_model, "Embedding model (default: the latest)");
  wi->add_option("--query", wi_query, "Query text to blend into the ranking (with --query-weight)");
  wi->add_option("--query-weight", wi_qw, "Weight of query similarity in the ranking (0 = reference behaviour)");
  wi->add_option("--score-weight", wi_sw, "Weight of the edge score in the ranking");
  wi->add_flag("--json", wi_json, "JSON output");

  // paths
  auto *pa = app.add_subcommand("paths", "k shortest simple paths between two proteins (Yen)");
  std::string pa_from, pa_to;
  std::size_t pa_len = 4, pa_k = 10;
  double pa_min = 0;
  bool pa_weighted = false, pa_json = false;
  std::vector<std::string> pa_rel;
  pa->add_option("--db", db, "Database file")->required();
  pa->add_option("--from", pa_from, "Start protein")->required();
  pa->add_option("--to", pa_to, "End protein")->required();
  pa->add_option("--max-len", pa_len, "Maximum number of edges");
  pa->add_option("--k", pa_k, "Number of paths");
  pa->add_option("--min-score", pa_min, "Minimum edge score (0-1 or 0-1000)");
  pa->add_option("--relation", pa_rel, "Relation type(s) to follow");
  pa->add_flag("--weighted", pa_weighted, "Shortest by sum of -log(score) instead of hop count");
  pa->add_flag("--json", pa_json, "JSON output");

  // khop
  auto *kh = app.add_subcommand("khop", "Seeds by similarity to a question, then k-hop expansion");
  std::string kh_q, kh_model;
  std::size_t kh_seeds = 3, kh_hops = 1, kh_cap = 0, kh_budget = 0;
  double kh_min = 0;
  std::vector<std::string> kh_rel, kh_labels;
  bool kh_json = false, kh_csv = false;
  kh->add_option("--db", db, "Database file")->required();
  kh->add_option("--question", kh_q, "Question text")->required();
  kh->add_option("--seeds", kh_seeds, "Number of seed nodes");
  kh->add_option("--hops", kh_hops, "Hops to expand");
  kh->add_option("--degree-cap", kh_cap, "Expand each node through its top-d edges by score (0 = all)");
  kh->add_option("--node-budget", kh_budget, "At most this many nodes (0 = no limit)");
  kh->add_option("--min-score", kh_min, "Minimum edge score (0-1 or 0-1000)");
  kh->add_option("--relation", kh_rel, "Relation type(s) to follow");
  kh->add_option("--label", kh_labels, "Node label(s) to keep");
  kh->add_option("--model", kh_model, "Embedding model (default: the latest)");
  kh->add_flag("--json", kh_json, "JSON output");
  kh->add_flag("--csv", kh_csv, "G-Retriever CSV text");

  // pagerank
  auto *pr = app.add_subcommand("pagerank", "Global or personalised PageRank");
  std::vector<std::string> pr_seeds;
  std::size_t pr_top = 20, pr_iter = 100;
  double pr_damping = 0.85, pr_min = 0;
  bool pr_json = false, pr_unweighted = false;
  pr->add_option("--db", db, "Database file")->required();
  pr->add_option("--seed", pr_seeds, "Seed protein(s) for personalised PageRank");
  pr->add_option("--top", pr_top, "Show the top N");
  pr->add_option("--damping", pr_damping, "Damping factor");
  pr->add_option("--max-iterations", pr_iter, "Iteration cap");
  pr->add_option("--min-score", pr_min, "Minimum edge score (0-1 or 0-1000)");
  pr->add_flag("--unweighted", pr_unweighted, "Ignore edge scores");
  pr->add_flag("--json", pr_json, "JSON output");

  // pcst
  auto *pc = app.add_subcommand("pcst", "Solve a prize-collecting Steiner tree instance (pcst-instance v1, plain or gzip)");
  std::string pc_file, pc_pruning = "gw";
  int64_t pc_root = -1;
  int pc_clusters = 1;
  bool pc_json = false, pc_improve = false, pc_reference_order = false;
  pc->add_option("--instance", pc_file, "Instance file")->required();
  pc->add_option("--pruning", pc_pruning, "none, simple, gw or strong");
  pc->add_option("--root", pc_root, "Root node (-1: unrooted)");
  pc->add_option("--clusters", pc_clusters, "Number of trees (unrooted)");
  pc->add_flag("--json", pc_json, "JSON output");
  pc->add_flag("--improve", pc_improve, "Local search after pruning: MST re-span, path attachment, strong pruning (never worse)");
  pc->add_flag("--reference-order", pc_reference_order,
               "Events in pcst_fast's own order (ties included): its results exactly, in a fraction of its time");

  // retrieve
  auto *rt = app.add_subcommand("retrieve", "Question -> a connected, compact subgraph by PCST (G-Retriever or seed-002 prizes)");
  std::string rt_q, rt_model, rt_mode = "gretriever", rt_pruning = "gw";
  std::size_t rt_topk = 3, rt_topk_e = 5, rt_hops = 2, rt_seeds = 10, rt_cap = 20, rt_budget = 2000;
  double rt_cost_e = 0.5, rt_alpha = 1, rt_beta = 1, rt_gamma = 0.5, rt_lambda = 1, rt_min = 0;
  int rt_clusters = 1;
  bool rt_json = false, rt_csv = false, rt_pyg = false, rt_reference_order = false;
  std::vector<std::string> rt_rel, rt_labels;
  rt->add_option("--db", db, "Database file")->required();
  rt->add_option("--question", rt_q, "Question text")->required();
  rt->add_option("--mode", rt_mode, "gretriever (top-k rank prizes, virtual nodes) or prize (seed-002 form)")
      ->check(CLI::IsMember({"gretriever", "prize"}));
  rt->add_option("--topk", rt_topk, "G-Retriever: nodes with rank prizes");
  rt->add_option("--topk-e", rt_topk_e, "G-Retriever: distinct edge similarity values with rank prizes");
  rt->add_option("--cost-e", rt_cost_e, "G-Retriever: edge cost (at most 0.995 x the largest edge prize)");
  rt->add_flag("--pyg-cap", rt_pyg, "G-Retriever: cap edge prizes at previous - 0.01 (PyG port) instead of 0.99 x previous");
  rt->add_option("--alpha", rt_alpha, "prize: weight of the question similarity of a node");
  rt->add_option("--beta", rt_beta, "prize: bonus of a seed node");
  rt->add_option("--gamma", rt_gamma, "prize: weight of the edge score as edge prize");
  rt->add_option("--lambda", rt_lambda, "prize: cost of an edge");
  rt->add_option("--seeds", rt_seeds, "Seed nodes by similarity to the question");
  rt->add_option("--hops", rt_hops, "Base subgraph: hops from the seeds");
  rt->add_option("--degree-cap", rt_cap, "Base subgraph: expand each node through its top-d edges by score (0: all)");
  rt->add_option("--node-budget", rt_budget, "Base subgraph: at most this many nodes (0: no limit)");
  rt->add_option("--min-score", rt_min, "Minimum edge score (0-1 or 0-1000)");
  rt->add_option("--relation", rt_rel, "Relation type(s) to follow");
  rt->add_option("--label", rt_labels, "Node label(s) to keep");
  rt->add_option("--pruning", rt_pruning, "none, simple, gw or strong");
  rt->add_option("--clusters", rt_clusters, "Number of trees");
  rt->add_flag("--reference-order", rt_reference_order, "PCST events in pcst_fast's own order (G-Retriever's subgraph to the last tie)");
  rt->add_option("--model", rt_model, "Embedding model (default: the latest)");
  rt->add_flag("--json", rt_json, "JSON output");
  rt->add_flag("--csv", rt_csv, "G-Retriever CSV text (node_id,node_attr / src,edge_attr,dst)");

  // explore
  auto *ex = app.add_subcommand("explore", "Ranked, explained PPI paths from a protein toward a therapeutic impact (the main job)");
  std::string ex_protein, ex_query, ex_windows = "1", ex_k = "30,4", ex_llm = "extractive", ex_base = "http://127.0.0.1:8080/v1",
                           ex_model, ex_key_env = "OPENAI_API_KEY", ex_json, ex_report, ex_cx2, ex_emb_model, ex_tpl_edge,
                           ex_tpl_path, ex_tpl_system;
  std::size_t ex_depth = 2, ex_len = 4, ex_top = 10, ex_conc = 8, ex_calls = 0, ex_explain_top = 0, ex_max_paths = 20000;
  long long ex_tokens = 0;
  double ex_min = 0, ex_temp = 0, ex_timeout = 120, ex_qw = 0, ex_sw = 0;
  long long ex_seed = 42;
  int ex_retries = 5;
  bool ex_dry = false, ex_no_cache = false, ex_no_repair = false, ex_no_json_mode = false, ex_quiet = false;
  std::vector<std::string> ex_rel;
  ex->add_option("--db", db, "Database file")->required();
  ex->add_option("--protein", ex_protein, "Initial protein (name, alias or STRING id)")->required();
  ex->add_option("--query", ex_query, "Therapeutic impact, e.g. \"inhibit tau phosphorylation\"")->required();
  ex->add_option("--windows", ex_windows, "Window number(s): 1, 1-3 or 1,3");
  ex->add_option("--k", ex_k, "k per depth, e.g. 30,4 (code default) or 10,2 (paper)");
  ex->add_option("--depth", ex_depth, "Depth M");
  ex->add_option("--max-len", ex_len, "Longest path in edges (L)");
  ex->add_option("--max-paths", ex_max_paths, "Bound on candidate paths over all windows");
  ex->add_option("--top", ex_top, "Ranked paths to keep (n)");
  ex->add_option("--explain-top", ex_explain_top, "Explain only the best N candidate paths by a cheap prior (0 = all)");
  ex->add_option("--min-score", ex_min, "Minimum edge score (0-1 or 0-1000)");
  ex->add_option("--relation", ex_rel, "Relation type(s) to follow");
  ex->add_option("--query-weight", ex_qw, "Blend query similarity into the window ranking (0 = reference behaviour)");
  ex->add_option("--score-weight", ex_sw, "Blend the edge score into the window ranking");
  ex->add_option("--embedding-model", ex_emb_model, "Embedding model for ranking (default: the latest)");
  ex->add_option("--llm", ex_llm, "extractive (offline default, no model) or openai (OpenAI-compatible HTTP)")
      ->check(CLI::IsMember({"extractive", "openai"}));
  ex->add_option("--base-url", ex_base, "OpenAI-compatible base URL (POST {base}/chat/completions)");
  ex->add_option("--model", ex_model, "Chat model name (required with --llm openai)");
  ex->add_option("--api-key-env", ex_key_env, "Environment variable holding the API key (never logged)");
  ex->add_option("--temperature", ex_temp, "Sampling temperature");
  ex->add_option("--seed", ex_seed, "Sampling seed sent to the server");
  ex->add_option("--timeout", ex_timeout, "Seconds per request");
  ex->add_option("--retries", ex_retries, "Retries on connection errors, timeouts, 408, 409, 429, 5xx");
  ex->add_flag("--no-json-mode", ex_no_json_mode, "Do not send response_format json_object");
  ex->add_option("--concurrency", ex_conc, "Model calls in flight");
  ex->add_option("--max-calls", ex_calls, "Stop after this many model calls (partial result, marked)");
  ex->add_option("--max-tokens", ex_tokens, "Stop after this many prompt + completion tokens (partial result, marked)");
  ex->add_flag("--dry-run", ex_dry, "Print the number of model calls and estimated prompt tokens; send nothing");
  ex->add_flag("--no-cache", ex_no_cache, "Neither read nor write the response cache");
  ex->add_flag("--no-repair", ex_no_repair, "No follow-up turn after an unparseable path answer");
  ex->add_option("--system-template", ex_tpl_system, "File replacing the system prompt");
  ex->add_option("--edge-template", ex_tpl_edge, "File replacing the edge prompt template");
  ex->add_option("--path-template", ex_tpl_path, "File replacing the path prompt template");
  ex->add_option("--json", ex_json, "Write the JSON result to this file ('-' for standard output)");
  ex->add_option("--report", ex_report, "Write a Markdown report to this file");
  ex->add_option("--cx2", ex_cx2, "Write a CX2 network (Cytoscape, NDEx) of the ranked paths to this file");
  ex->add_flag("--quiet", ex_quiet, "No summary on standard output");

  CLI11_PARSE(app, argc, argv);

  try {
    if (*imp) {
      std::vector<grappi::ImportSource> src;
      auto add = [&](const std::vector<std::string> &files, grappi::StringFormat f) {
        for (auto &p : files) src.push_back({p, f});
      };
      add(f_info, grappi::StringFormat::info);
      add(f_aliases, grappi::StringFormat::aliases);
      add(f_links, grappi::StringFormat::links);
      add(f_detailed, grappi::StringFormat::detailed);
      add(f_physical, grappi::StringFormat::physical);
      add(f_actions, grappi::StringFormat::actions);
      add(f_export, grappi::StringFormat::web_export);
      add(f_auto, grappi::StringFormat::detect);
      if (src.empty()) throw grappi::Error(grappi::ErrorCode::invalid_argument, "import: name at least one file");
      grappi::KnowledgeGraph g(db);
      grappi::ImportOptions opt;
      opt.min_score = min_score;
      opt.skip_bad_lines = skip_bad;
      Progress bar;
      opt.progress = [&bar](const grappi::ImportProgress &p) { bar(p); };
      auto rep = g.import_string(src, opt);
      if (imp_json) {
        std::cout << grappi::to_json(rep).dump(2) << '\n';
      } else {
        std::vector<std::vector<std::string>> rows;
        for (auto &f : rep.files)
          rows.push_back({f.path, grappi::to_string(f.format), f.already_imported ? "already imported" : "imported",
                          std::to_string(f.lines), std::to_string(f.nodes_created), std::to_string(f.edges_created),
                          std::to_string(f.aliases_created), std::to_string(f.rows_below_min_score),
                          std::to_string(f.rows_skipped), fmt(f.seconds, 2)});
        print_table({"file", "format", "status", "lines", "nodes+", "edges+", "aliases+", "below-min", "skipped", "s"}, rows);
        for (auto &f : rep.files)
          if (f.rows_skipped) {
            std::cerr << f.path << ": skipped " << f.rows_skipped << " bad line(s), for example:\n";
            for (auto &e : f.bad_line_examples) std::cerr << "  " << e << '\n';
          }
      }
    } else if (*info) {
      grappi::KnowledgeGraph g(db, grappi::OpenOptions{false, false, 30000, 64});
      auto s = g.stats();
      if (info_json) {
        std::cout << grappi::to_json(s).dump(2) << '\n';
      } else {
        std::cout << "database: " << db << " (schema " << s.schema_version << ")\n"
                  << "nodes:    " << s.nodes << "\nedges:    " << s.edges << "\naliases:  " << s.aliases << "\n\n";
        std::vector<std::vector<std::string>> rows;
        for (auto &r : s.edges_by_relation) rows.push_back({r.first, std::to_string(r.second)});
        if (!rows.empty()) {
          print_table({"relation", "edges"}, rows);
          std::cout << '\n';
        }
        rows.clear();
        for (auto &d : s.datasets) {
          auto counts = json::parse(d.counts, nullptr, false);
          rows.push_back({std::to_string(d.id), d.name, d.format, d.string_version, std::to_string(d.taxon),
                          std::to_string(counts.value("lines", 0)), d.sha256.substr(0, 12), d.imported_at});
        }
        if (!rows.empty()) print_table({"dataset", "file", "format", "version", "taxon", "lines", "sha256", "imported"}, rows);
      }
    } else if (*nb) {
      grappi::KnowledgeGraph g(db, grappi::OpenOptions{false, false, 30000, 64});
      int64_t id = g.resolve(nb_name);
      auto snap = g.snapshot();
      grappi::NeighborFilter f;
      f.min_score = score_arg(nb_min);
      f.relations = nb_rel;
      auto list = snap->neighbors(id, f);
      std::stable_sort(list.begin(), list.end(), [&](const grappi::Neighbor &a, const grappi::Neighbor &b) {
        if (a.score != b.score) return a.score > b.score;
        return a.node < b.node;
      });
      if (nb_limit && list.size() > nb_limit) list.resize(nb_limit);
      auto self = g.node(id);
      if (nb_json) {
        json out = json::array();
        for (auto &n : list) {
          uint32_t ix = *snap->index_of(n.node);
          const char *dir = n.direction == grappi::Direction::outgoing   ? "out"
                            : n.direction == grappi::Direction::incoming ? "in"
                                                                         : "undirected";
          out.push_back({{"id", n.node}, {"name", snap->name(ix)}, {"external_id", snap->external_id(ix)},
                         {"edge", n.edge}, {"score", n.score}, {"relation", snap->relation_name(n.relation)},
                         {"direction", dir}});
        }
        std::cout << json{{"protein", {{"id", id}, {"name", self->name}, {"external_id", self->external_id}}},
                          {"degree", snap->degree(id)},
                          {"neighbors", out}}
                         .dump(2)
                  << '\n';
      } else {
        std::cout << self->name << " (" << self->external_id << "): " << list.size() << " neighbour(s) shown, degree "
                  << snap->degree(id) << "\n";
        std::vector<std::vector<std::string>> rows;
        for (auto &n : list) {
          uint32_t ix = *snap->index_of(n.node);
          rows.push_back({snap->name(ix), snap->external_id(ix), fmt(n.score), snap->relation_name(n.relation),
                          n.direction == grappi::Direction::undirected ? "-" : (n.direction == grappi::Direction::outgoing ? "->" : "<-")});
        }
        print_table({"neighbour", "external_id", "score", "relation", "dir"}, rows);
      }
    } else if (*rs) {
      grappi::KnowledgeGraph g(db, grappi::OpenOptions{false, false, 30000, 64});
      auto r = g.lookup(rs_name);
      if (rs_json) {
        std::cout << grappi::to_json(r).dump(2) << '\n';
      } else if (r.status == grappi::ResolveResult::Status::found) {
        auto n = g.node(r.id);
        std::cout << n->name << "\t" << n->external_id << "\t(id " << n->id << ", matched by "
                  << r.candidates[0].matched_by << ")\n";
        if (!n->annotation.empty()) std::cout << n->annotation << '\n';
      } else {
        (void)g.resolve(rs_name);  // throws the ambiguous / not-found error with its message
      }
      if (r.status != grappi::ResolveResult::Status::found) return 2;
    } else if (*em) {
      grappi::KnowledgeGraph g(db);
      std::unique_ptr<grappi::Embedder> embedder;
      if (em_kind == "hashing") {
        grappi::HashingEmbedderOptions ho;
        ho.dimension = em_dim;
        embedder = g.hashing_embedder(ho, em_refit);
      } else {
        if (em_model.empty()) throw grappi::Error(grappi::ErrorCode::invalid_argument, "embed: --embedder openai needs --model");
        grappi::HttpEmbedderOptions ho;
        ho.base_url = em_base;
        ho.model = em_model;
        ho.api_key_env = em_key_env;
        ho.dimensions = em_dim == 384 ? 0 : em_dim;
        embedder = std::make_unique<grappi::HttpEmbedder>(ho);
      }
      grappi::EmbedOptions eo;
      eo.batch_size = em_batch ? em_batch : (em_kind == "hashing" ? 256 : 128);
      Progress bar;
      eo.progress = [&bar](std::size_t done, std::size_t total) {
        grappi::ImportProgress p;
        p.path = "embeddings";
        p.bytes_read = done;
        p.bytes_total = total;
        p.stage = done == total ? "done" : "embedding";
        bar(p);
      };
      auto r = g.embed(*embedder, eo);
      std::cout << "model " << r.model << " (dimension " << r.dimension << "): embedded " << r.embedded << ", unchanged "
                << r.unchanged << ", removed " << r.removed << " in " << fmt(r.seconds, 2) << " s\n";
      if (!em_no_rank) {
        const auto t0 = std::chrono::steady_clock::now();
        try {
          const std::size_t entries = grappi::build_neighbour_ranking(g, r.model);
          const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          std::cout << "neighbour ranking: " << entries << " entries in " << fmt(s, 2) << " s -> "
                    << grappi::neighbour_ranking_path(g) << '\n';
        } catch (const grappi::Error &err) {
          if (err.code() != grappi::ErrorCode::io) throw;
          std::cerr << "grappi: warning: " << err.what() << " (windows rank neighbours on the fly)\n";
        }
      }
    } else if (*se) {
      grappi::KnowledgeGraph g(db);
      const std::string model = se_model.empty() ? g.default_model() : se_model;
      auto q = embed_query(g, model, se_text);
      auto vec = g.vectors(model, se_hnsw);
      auto hits = se_hnsw ? vec->search_hnsw(q.data(), se_k) : vec->search(q.data(), se_k);
      json out = json::array();
      std::vector<std::vector<std::string>> rows;
      for (auto &h : hits) {
        auto n = g.node(h.id);
        out.push_back({{"id", h.id}, {"name", n->name}, {"external_id", n->external_id}, {"score", h.score}});
        rows.push_back({n->name, n->external_id, fmt(h.score), n->annotation});
      }
      if (se_json) std::cout << out.dump(2) << '\n';
      else print_table({"name", "external_id", "similarity", "annotation"}, rows);
    } else if (*wi) {
      grappi::KnowledgeGraph g(db);
      grappi::WindowOptions o;
      o.k = parse_k(wi_k);
      o.depth = wi_depth;
      o.filter.min_score = score_arg(wi_min);
      o.filter.relations = wi_rel;
      o.query_weight = wi_qw;
      o.score_weight = wi_sw;
      if (!wi_query.empty()) o.query = embed_query(g, wi_model, wi_query);
      auto retriever = grappi::make_retriever(g, g.embedding_models().empty() ? std::string() : wi_model);
      const grappi::Retriever &r = *retriever;
      auto root = g.resolve(wi_protein);
      auto ws = r.windows(root, parse_windows(wi_windows), o);
      if (wi_json) {
        if (ws.size() == 1) {
          std::cout << grappi::to_json(r.graph(), ws[0]).dump(2) << '\n';
        } else {
          json arr = json::array();
          for (auto &w : ws) arr.push_back(grappi::to_json(r.graph(), w));
          std::cout << arr.dump(2) << '\n';
        }
      } else {
        if (!r.vectors()) std::cerr << "grappi: no embeddings in the database: neighbours ranked by edge score (run grappi embed)\n";
        for (auto &w : ws) {
          std::cout << "window " << w.index << " of " << wi_protein << ": " << w.nodes.size() << " proteins, " << w.edges.size() << " edges\n";
          std::vector<std::vector<std::string>> rows;
          for (auto &n : w.nodes)
            rows.push_back({n.name, std::to_string(n.depth), n.parent ? g.node(*n.parent)->name : "-", fmt(n.rank_score)});
          print_table({"protein", "depth", "parent", "rank score"}, rows);
        }
      }
    } else if (*pa) {
      grappi::KnowledgeGraph g(db);
      grappi::Retriever r(g.snapshot());
      grappi::ShortestPathOptions o;
      o.k = pa_k;
      o.max_length = pa_len;
      o.weighted = pa_weighted;
      o.filter.min_score = score_arg(pa_min);
      o.filter.relations = pa_rel;
      auto paths = r.shortest_paths(g.resolve(pa_from), g.resolve(pa_to), o);
      if (pa_json) {
        std::cout << grappi::to_json(r.graph(), paths).dump(2) << '\n';
      } else {
        if (paths.empty()) std::cout << "no path of at most " << pa_len << " edges\n";
        for (auto &p : paths) {
          std::string line;
          for (std::size_t i = 0; i < p.nodes.size(); ++i) {
            if (i) line += " -(" + fmt(p.scores[i - 1]) + ")- ";
            line += r.graph().name(*r.graph().index_of(p.nodes[i]));
          }
          std::cout << p.length() << "  " << line << '\n';
        }
      }
    } else if (*kh) {
      grappi::KnowledgeGraph g(db);
      const std::string model = kh_model.empty() ? g.default_model() : kh_model;
      auto q = embed_query(g, model, kh_q);
      grappi::Retriever r(g.snapshot(), g.vectors(model));
      std::vector<int64_t> seeds;
      for (auto &h : r.seeds(q, kh_seeds)) seeds.push_back(h.id);
      grappi::KhopOptions o;
      o.hops = kh_hops;
      o.degree_cap = kh_cap;
      o.node_budget = kh_budget;
      o.filter.min_score = score_arg(kh_min);
      o.filter.relations = kh_rel;
      o.labels = kh_labels;
      auto sub = r.khop(seeds, o);
      if (kh_csv) {
        std::cout << grappi::to_gretriever_csv(r.graph(), sub, [&](int64_t id) { return grappi::KnowledgeGraph::node_text(*g.node(id)); });
      } else if (kh_json) {
        json out = grappi::to_json(r.graph(), sub);
        json sj = json::array();
        for (int64_t id : seeds) sj.push_back(r.graph().name(*r.graph().index_of(id)));
        out["seeds"] = sj;
        std::cout << out.dump(2) << '\n';
      } else {
        std::cout << "seeds:";
        for (int64_t id : seeds) std::cout << ' ' << r.graph().name(*r.graph().index_of(id));
        std::cout << "\n" << sub.nodes.size() << " nodes, " << sub.edges.size() << " edges\n";
        std::vector<std::vector<std::string>> rows;
        for (std::size_t i = 0; i < sub.nodes.size(); ++i)
          rows.push_back({r.graph().name(*r.graph().index_of(sub.nodes[i])), std::to_string(sub.hops[i])});
        print_table({"node", "hops"}, rows);
      }
    } else if (*pr) {
      grappi::KnowledgeGraph g(db);
      grappi::Retriever r(g.snapshot());
      grappi::PageRankOptions o;
      for (auto &s : pr_seeds) o.seeds.push_back(g.resolve(s));
      o.damping = pr_damping;
      o.max_iterations = pr_iter;
      o.filter.min_score = score_arg(pr_min);
      o.weighted = !pr_unweighted;
      auto res = r.pagerank(o);
      auto top = res.top(r.graph(), pr_top);
      if (pr_json) {
        json out = json::array();
        for (auto &t : top) out.push_back({{"name", r.graph().name(*r.graph().index_of(t.id))}, {"score", t.score}, {"id", t.id}});
        std::cout << out.dump(2) << '\n';
      } else {
        std::cout << (o.seeds.empty() ? "global" : "personalised") << " PageRank, " << res.iterations << " iterations"
                  << (res.converged ? "" : " (not converged)") << "\n";
        std::vector<std::vector<std::string>> rows;
        for (auto &t : top) rows.push_back({r.graph().name(*r.graph().index_of(t.id)), fmt(t.score, 6)});
        print_table({"node", "pagerank"}, rows);
      }
    } else if (*pc) {
      auto inst = grappi::read_pcst_instance(pc_file);
      grappi::PCSTSolver solver;
      grappi::PcstOptions o;
      o.root = pc_root;
      o.num_clusters = pc_clusters;
      o.pruning = grappi::pruning_from_name(pc_pruning);
      o.improve = pc_improve;
      o.reference_order = pc_reference_order;
      auto t0 = std::chrono::steady_clock::now();
      auto r = solver.solve(inst.prizes, inst.edges, inst.costs, o);
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (pc_json) {
        std::cout << json{{"objective", r.objective}, {"net_worth", r.net_worth}, {"nodes", r.nodes}, {"edges", r.edges},
                          {"num_nodes", r.nodes.size()}, {"num_edges", r.edges.size()}, {"solve_seconds", secs},
                          {"pruning", grappi::to_string(o.pruning)}, {"root", o.root}, {"clusters", o.num_clusters},
                          {"improve", o.improve}, {"objective_before_improve", r.objective_before_improve},
                          {"improve_rounds", r.improve_rounds}, {"reference_order", o.reference_order}}
                         .dump()
                  << '\n';
      } else {
        std::cout << "objective " << r.objective << "\nnet worth " << r.net_worth << "\nnodes " << r.nodes.size() << " of "
                  << inst.prizes.size() << "\nedges " << r.edges.size() << " of " << inst.edges.size() << "\nsolve "
                  << fmt(secs * 1000, 3) << " ms (" << grappi::to_string(o.pruning) << (o.improve ? " + improve" : "")
                  << (o.reference_order ? ", reference order" : "") << ")\n";
        if (o.improve)
          std::cout << "before improve " << r.objective_before_improve << " (" << r.improve_rounds << " improving rounds)\n";
      }
    } else if (*rt) {
      grappi::KnowledgeGraph g(db);
      const std::string model = rt_model.empty() ? g.default_model() : rt_model;
      auto q = embed_query(g, model, rt_q);
      grappi::Retriever r(g.snapshot(), g.vectors(model));
      grappi::PcstRetrieveOptions o;
      o.mode = rt_mode;
      o.topk = rt_topk;
      o.topk_e = rt_topk_e;
      o.cost_e = rt_cost_e;
      o.pyg_cap = rt_pyg;
      o.alpha = rt_alpha;
      o.beta = rt_beta;
      o.gamma = rt_gamma;
      o.lambda = rt_lambda;
      o.seeds = rt_seeds;
      o.khop.hops = rt_hops;
      o.khop.degree_cap = rt_cap;
      o.khop.node_budget = rt_budget;
      o.khop.filter.min_score = score_arg(rt_min);
      o.khop.filter.relations = rt_rel;
      o.khop.labels = rt_labels;
      o.pruning = grappi::pruning_from_name(rt_pruning);
      o.num_clusters = rt_clusters;
      o.reference_order = rt_reference_order;
      auto res = r.pcst_retrieve(q, o);
      if (rt_csv) {
        std::cout << grappi::to_gretriever_csv(r.graph(), res.subgraph,
                                               [&](int64_t id) { return grappi::KnowledgeGraph::node_text(*g.node(id)); });
      } else if (rt_json) {
        std::cout << grappi::to_json(r.graph(), res).dump(2) << '\n';
      } else {
        std::cout << "seeds:";
        for (int64_t id : res.seeds) std::cout << ' ' << r.graph().name(*r.graph().index_of(id));
        std::cout << "\nbase " << res.base_nodes << " nodes, " << res.base_edges << " edges; selected " << res.subgraph.nodes.size()
                  << " nodes, " << res.subgraph.edges.size() << " edges (objective " << fmt(res.objective, 4) << ", edge cost "
                  << fmt(res.edge_cost, 4) << ")\n";
        std::vector<std::vector<std::string>> rows;
        for (std::size_t i = 0; i < res.subgraph.nodes.size(); ++i)
          rows.push_back({r.graph().name(*r.graph().index_of(res.subgraph.nodes[i])), std::to_string(res.subgraph.hops[i]),
                          fmt(res.node_prizes[i], 3)});
        print_table({"node", "hops", "prize"}, rows);
        rows.clear();
        for (std::size_t i = 0; i < res.subgraph.edges.size(); ++i) {
          const auto &e = res.subgraph.edges[i];
          rows.push_back({r.graph().name(*r.graph().index_of(e.source)), r.graph().name(*r.graph().index_of(e.target)), e.relation,
                          fmt(e.score, 3), fmt(res.edge_prizes[i], 3)});
        }
        print_table({"source", "target", "relation", "score", "prize"}, rows);
      }
    } else if (*ex) {
      grappi::KnowledgeGraph g(db, grappi::OpenOptions{false, false, 30000, 256});
      std::shared_ptr<grappi::LanguageModel> model;
      if (ex_llm == "openai") {
        if (ex_model.empty()) throw grappi::Error(grappi::ErrorCode::invalid_argument, "explore: --llm openai needs --model");
        grappi::OpenAIChatOptions mo;
        mo.base_url = ex_base;
        mo.model = ex_model;
        mo.api_key_env = ex_key_env;
        mo.temperature = ex_temp;
        mo.seed = ex_seed;
        mo.timeout_seconds = ex_timeout;
        mo.max_retries = ex_retries;
        mo.json_mode = !ex_no_json_mode;
        mo.concurrency = ex_conc;
        model = std::make_shared<grappi::OpenAIChatModel>(mo);
      } else {
        model = std::make_shared<grappi::ExtractiveModel>();
      }
      grappi::ExploreOptions o;
      o.query = ex_query;
      o.windows = parse_windows(ex_windows);
      o.window.k = parse_k(ex_k);
      o.window.depth = ex_depth;
      o.window.filter.min_score = score_arg(ex_min);
      o.window.filter.relations = ex_rel;
      o.window.query_weight = ex_qw;
      o.window.score_weight = ex_sw;
      o.max_length = ex_len;
      o.max_paths = ex_max_paths;
      o.top = ex_top;
      o.explain_top = ex_explain_top;
      o.concurrency = ex_conc;
      o.max_calls = ex_calls;
      o.max_tokens = ex_tokens;
      o.dry_run = ex_dry;
      o.use_cache = !ex_no_cache;
      o.repair = !ex_no_repair;
      o.templates.load(ex_tpl_system, ex_tpl_edge, ex_tpl_path);
      const bool bar = isatty(STDERR_FILENO) != 0;
      o.progress = [&](const grappi::ExploreProgress &p) {
        if (!bar || p.total == 0) return;
        int pct = static_cast<int>(100.0 * static_cast<double>(p.done) / static_cast<double>(p.total));
        const int width = 30;
        int filled = pct * width / 100;
        std::fprintf(stderr, "\r%-9s [%s%s] %3d%% %zu/%zu", p.stage.c_str(), std::string(static_cast<std::size_t>(filled), '#').c_str(),
                     std::string(static_cast<std::size_t>(width - filled), ' ').c_str(), pct, p.done, p.total);
        if (p.done == p.total) std::fputc('\n', stderr);
        std::fflush(stderr);
      };
      grappi::AgentPipeline pipe(g, model, ex_emb_model);
      auto r = pipe.explore(ex_protein, o);
      auto write_file = [](const std::string &path, const std::string &text) {
        if (path == "-") {
          std::cout << text;
          return;
        }
        std::ofstream f(path, std::ios::binary);
        if (!f) throw grappi::Error(grappi::ErrorCode::io, "cannot write '" + path + "'");
        f << text;
        f.close();
        if (!f) throw grappi::Error(grappi::ErrorCode::io, "cannot write '" + path + "'");
      };
      if (!ex_json.empty()) write_file(ex_json, grappi::to_json(r).dump(2) + "\n");
      if (!ex_report.empty()) write_file(ex_report, grappi::to_markdown(r));
      if (!ex_cx2.empty()) write_file(ex_cx2, grappi::to_cx2(r).dump(1) + "\n");
      const auto &u = r.usage;
      if (ex_dry) {
        std::cerr << "dry run: " << r.planned_calls << " model calls, about " << r.planned_prompt_tokens << " prompt tokens ("
                  << u.selected_paths << " paths, " << u.distinct_edges << " distinct edges, " << (u.edges.cache_hits + u.paths.cache_hits)
                  << " answers cached); nothing was sent\n";
      } else if (!ex_quiet && ex_json != "-") {
        std::cout << "explore " << ex_protein << ": \"" << ex_query << "\" (" << r.model.value("identity", std::string()) << ")\n";
        if (model->kind() == "extractive")
          std::cout << "explanations are extractive summaries of annotations and STRING evidence, not generated text\n";
        std::vector<std::vector<std::string>> rows;
        for (auto &p : r.paths) {
          std::string chain;
          for (std::size_t i = 0; i < p.nodes.size(); ++i) chain += (i ? " -> " : "") + r.protein(p.nodes[i])->name;
          rows.push_back({std::to_string(p.rank), fmt(p.relevance_score, 0), chain, p.explanation});
        }
        print_table({"rank", "score", "path", "explanation"}, rows);
      }
      std::cout.flush();
      if (!ex_dry)
        std::cerr << "candidates " << u.candidate_paths << (r.candidates_truncated ? " (bound reached)" : "") << ", explained "
                  << u.paths_explained << " paths and " << u.edges_explained << " edges (" << u.paths_failed << " + "
                  << u.edges_failed << " failed); " << u.model_calls << " model calls, " << u.cache_hits << " cache hits, "
                  << u.prompt_tokens << " prompt + " << u.completion_tokens << " completion tokens; " << fmt(u.seconds, 2) << " s\n";
      if (r.partial) std::cerr << "grappi: partial result: " << r.partial_reason << '\n';
    } else if (*rm) {
      grappi::KnowledgeGraph g(db, grappi::OpenOptions{false, false, 30000, 64});
      g.remove_dataset(rm_id);
      std::cout << "removed dataset " << rm_id << '\n';
    }
  } catch (const grappi::Error &e) {
    std::cerr << "grappi: " << e.what() << '\n';
    return e.code() == grappi::ErrorCode::invalid_argument ? 2 : 1;
  } catch (const std::exception &e) {
    std::cerr << "grappi: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
