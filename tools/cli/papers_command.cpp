// grappi papers: full-text search of the papers the knowledge base holds (KnowledgeGraph::search_papers).
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct PapersArgs {
  std::string db, query, json;
  std::size_t limit = 20;
};

void run(const PapersArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  const std::vector<PaperHit> hits = g.search_papers(a.query, a.limit);
  if (!a.json.empty()) {
    nlohmann::json out = nlohmann::json::array();
    for (const PaperHit &h : hits) out.push_back(to_json(h));
    write_output(a.json, dump_json(out, 2) + "\n");
    if (a.json == "-") return;
  }
  if (hits.empty()) {
    std::cout << "no paper matches (" << g.paper_count() << " paper(s) stored)\n";
    return;
  }
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < hits.size(); ++i)
    rows.push_back({std::to_string(i + 1), hits[i].pmid.empty() ? hits[i].key : "PMID:" + hits[i].pmid,
                    hits[i].year ? std::to_string(hits[i].year) : "", hits[i].title, hits[i].snippet});
  print_table({"rank", "paper", "year", "title", "best passage"}, rows);
}

}  // namespace

void add_papers(CLI::App &app) {
  auto a = std::make_shared<PapersArgs>();
  auto *c = app.add_subcommand("papers",
                               "Full-text search of the papers the database holds (import --corpus, cooc build, "
                               "extract): words, \"phrases\", AND/OR/NOT, prefix*");
  add_db_option(c, a->db);
  c->add_option("query", a->query, "The search (SQLite FTS5 syntax; words are stemmed)")->required();
  c->add_option("--limit", a->limit, "Papers at most (1-1000)")->check(CLI::Range(1, 1000));
  c->add_option("--json", a->json, "Write the hits as JSON ('-' for standard output)");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli
