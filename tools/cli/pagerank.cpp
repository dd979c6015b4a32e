// grappi pagerank: global or personalised PageRank.
#include <iostream>
#include <memory>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct PageRankArgs {
  std::string db;
  std::vector<std::string> seeds;
  std::size_t top = 20, max_iterations = 100;
  double damping = 0.85, min_score = 0;
  bool json = false, unweighted = false;
};

void run(const PageRankArgs &a) {
  KnowledgeGraph g = open_graph(a.db, false);
  PageRankOptions o;
  for (const auto &s : a.seeds) o.seeds.push_back(g.resolve(s));
  o.damping = a.damping;
  o.max_iterations = a.max_iterations;
  o.filter.min_score = score_arg(a.min_score);
  o.weighted = !a.unweighted;
  const auto r = g.retriever();
  const PageRankResult res = r->pagerank(o);
  const auto top = res.top(r->graph(), a.top);
  if (a.json) {
    std::cout << to_json(r->graph(), top).dump(2) << '\n';
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
  c->add_option("--min-score", a->min_score, "Minimum edge score (0-1 or 0-1000)");
  c->add_flag("--unweighted", a->unweighted, "Ignore edge scores");
  c->add_flag("--json", a->json, "JSON output");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli
