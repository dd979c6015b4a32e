// grappi explore: ranked, explained PPI paths from a protein toward a therapeutic impact.
#include <iostream>
#include <memory>
#include <sstream>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct ExploreArgs {
  std::string db, protein, query, windows = "1", k = "30,4", embedding_model;
  ExploreOptions o;  // numeric options and flags, bound directly
  ChatArgs m;        // the model
  std::string system_template, edge_template, path_template, json, report, cx2, html;
  double min_score = 0;
  std::vector<std::string> relations;
  BudgetArgs budget;
  bool no_repair = false, quiet = false, no_diversity = false;
};


void print_summary(const ExploreArgs &a, const ExploreResult &r, bool extractive) {
  std::cout << "explore " << a.protein << ": \"" << a.query << "\" (" << r.model.value("identity", std::string()) << ")\n";
  if (extractive) std::cout << "explanations are extractive summaries of annotations and STRING evidence, not generated text\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto &p : r.paths) {
    std::string chain;
    for (std::size_t i = 0; i < p.nodes.size(); ++i) chain += (i ? " -> " : "") + r.protein(p.nodes[i])->name;
    rows.push_back({std::to_string(p.rank), fmt(p.relevance_score, 0), chain, p.explanation});
  }
  print_table({"rank", "score", "path", "explanation"}, rows);
  // Each window's enriched terms (when the database holds annotations).
  for (std::size_t i = 0; i < r.windows.size() && i < r.window_terms.size(); ++i) {
    if (r.window_terms[i].empty()) continue;
    std::string terms;
    for (std::size_t k = 0; k < r.window_terms[i].size() && k < 3; ++k) {
      std::ostringstream fdr;
      fdr.precision(1);
      fdr << std::scientific << r.window_terms[i][k].fdr;
      terms += (k ? "; " : "") + r.window_terms[i][k].name + " (" + r.window_terms[i][k].term + ", FDR " + fdr.str() + ")";
    }
    std::cout << "window " << r.windows[i].index << " is enriched in: " << terms << "\n";
  }
}

void run(ExploreArgs &a) {
  auto model = chat_model_of(a.m, a.o.concurrency, "explore");
  KnowledgeGraph g = open_graph(a.db, Access::write, 256);

  ExploreOptions o = a.o;
  o.query = a.query;
  o.windows = parse_windows(a.windows, "--windows");
  o.window.k = parse_k(a.k);
  o.window.filter.min_score = score_arg(a.min_score);
  o.window.filter.relations = a.relations;
  if (a.no_diversity) o.diversity = 0;
  a.budget.apply(o.use_cache, o.confirm_calls);
  o.repair = !a.no_repair;
  o.templates.load(a.system_template, a.edge_template, a.path_template);
  ProgressBar bar;
  o.progress = [&bar](const std::string &stage, std::size_t done, std::size_t total) {
    bar(stage, done, total, std::to_string(done) + "/" + std::to_string(total));
  };
  const AgentPipeline pipe(g, model, a.embedding_model);
  const ExploreResult r = pipe.explore(a.protein, o);
  if (!a.json.empty()) write_output(a.json, dump_json(to_json(r), 2) + "\n");
  if (!a.report.empty()) write_output(a.report, to_markdown(r));
  if (!a.cx2.empty()) write_output(a.cx2, dump_json(to_cx2(r), 1) + "\n");
  if (!a.html.empty()) write_output(a.html, to_html(r));
  const ExploreUsage &u = r.usage;
  for (const auto &n : r.notes) std::cerr << "grappi: note: " << n << '\n';
  if (o.dry_run && model->local()) {
    std::cerr << "dry run: 0 model calls (the extractive model is not a language model: it would answer "
              << u.distinct_edges + u.selected_paths << " requests locally); nothing was sent\n";
    return;
  }
  if (o.dry_run) {
    std::cerr << "dry run: " << r.planned_calls << " model calls, about " << r.planned_prompt_tokens << " prompt tokens ("
              << u.selected_paths << " paths, " << u.distinct_edges << " distinct edges, "
              << (u.edges.cache_hits + u.paths.cache_hits) << " answers cached); nothing was sent\n";
    return;
  }
  if (!a.quiet && a.json != "-") print_summary(a, r, model->kind() == "extractive");
  std::cout.flush();
  std::cerr << "candidates " << u.candidate_paths
            << (r.candidates_truncated ? " (the best by prior of " + std::to_string(u.candidate_paths_visited) + " visited)" : "")
            << ", explained "
            << u.paths_explained << " paths and " << u.edges_explained << " edges (" << u.paths_failed << " + "
            << u.edges_failed << " failed); "
            << (u.extractive_answers ? std::to_string(u.extractive_answers) + " extractive answers (no language model), " : "")
            << u.model_calls << " model calls, " << u.cache_hits << " cache hits, "
            << u.prompt_tokens << " prompt + " << u.completion_tokens << " completion tokens; " << fmt(u.seconds, 2) << " s\n";
  if (r.partial) std::cerr << "grappi: partial result: " << r.partial_reason << '\n';
  // A language model that answered nothing: a failed run (exit 1), the first reason named (the
  // outputs above record every failure).
  require_some_answer(r, *model, "explore: ");
}

}  // namespace

void add_explore(CLI::App &app) {
  auto a = std::make_shared<ExploreArgs>();
  auto &o = a->o;
  auto *c = app.add_subcommand("explore", "Ranked, explained PPI paths from a protein toward a therapeutic impact (the main job)");
  add_db_option(c, a->db);
  c->add_option("protein,--protein", a->protein, "Initial protein: name, alias or STRING id (here or after --protein)")->required();
  c->add_option("--query", a->query, "Therapeutic impact, e.g. \"inhibit tau phosphorylation\"")->required();
  c->add_option("--windows", a->windows, "Window number(s): 1, 1-3 or 1,3");
  c->add_option("--k", a->k, "k per depth, e.g. 30,4 (code default) or 10,2 (paper)");
  c->add_option("--depth", o.window.depth, "Depth M");
  c->add_option("--max-len", o.max_length, "Longest path in edges (L)");
  c->add_option("--max-paths", o.max_paths, "Candidate paths kept over all windows: the best by the prior");
  c->add_option("--max-visited", o.max_visited, "Safety bound on the paths the candidate search visits");
  c->add_option("--top", o.top, "Ranked paths to keep (n)");
  auto *div = c->add_option("--diversity", o.diversity,
                            "Diversity of the top n, 0-1: one ordering per protein set, maximal marginal relevance")
                  ->check(CLI::Range(0.0, 1.0));
  c->add_option("--window-terms", o.window_terms, "Each window's enriched terms given (FDR <= 0.05, when the database holds annotations; 0: none computed)")->capture_default_str();
  c->add_flag("--no-diversity", a->no_diversity, "The reference ranking: relevance only, every ordering (--diversity 0)")
      ->excludes(div);
  c->add_option("--explain-top", o.explain_top, "Explain only the best N candidate paths by a cheap prior (0 = all)");
  c->add_option("--explain-budget", o.explain_budget,
                "Model requests the run may make: the best candidates by the prior while their paths and edges fit (0 = no bound)")
      ->capture_default_str();
  c->add_option("--min-score", a->min_score, "Minimum edge score: 0-1, or a whole number 2-1000 on STRING's scale");
  c->add_option("--relation", a->relations, "Relation type(s) to follow");
  c->add_option("--query-weight", o.window.query_weight, "Blend query similarity into the window ranking (0 = reference behaviour)");
  c->add_option("--score-weight", o.window.score_weight, "Blend the edge score into the window ranking");
  c->add_option("--embedding-model", a->embedding_model, "Embedding model for ranking (default: the latest)");
  add_chat_flags(c, a->m, "extractive summaries, no model");
  c->add_option("--concurrency", o.concurrency, "Model calls in flight")->check(CLI::Range(1, 64));
  add_budget_flags(c, a->budget, o.max_calls, &o.max_tokens, "of the run");
  c->add_flag("--dry-run", o.dry_run, "Print the number of model calls and estimated prompt tokens; send nothing");
  c->add_flag("--no-repair", a->no_repair, "No follow-up turn after an unparseable path answer");
  c->add_option("--system-template", a->system_template, "File replacing the system prompt");
  c->add_option("--edge-template", a->edge_template, "File replacing the edge prompt template");
  c->add_option("--path-template", a->path_template, "File replacing the path prompt template");
  add_output_flags(c, a->json, a->quiet, "the result");
  c->add_option("--report", a->report, "Write a Markdown report to this file");
  c->add_option("--cx2", a->cx2, "Write a CX2 network (Cytoscape, NDEx) of the ranked paths to this file");
  c->add_option("--html", a->html,
                "Write a self-contained HTML report (the windows drawn, the ranked paths beside them) to this file");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli
