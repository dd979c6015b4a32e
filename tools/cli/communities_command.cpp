// grappi communities: the network's communities written up and stored (grappi/communities.hpp) — build, show, list,
// remove. `ask`'s questions about the whole network's modules read the stored set.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common.hpp"
#include "grappi/communities.hpp"
#include "grappi/error.hpp"
#include "grappi/json_text.hpp"
#include "grappi/knowledge_graph.hpp"

namespace grappi::cli {

namespace {

struct BuildArgs {
  std::string db, method = "leiden", json;
  std::vector<std::string> relations, categories;
  CommunityOptions o;
  ChatArgs m;
  bool quiet = false;
};

struct ShowArgs {
  std::string db, name = "default", json;
  std::size_t top = 10;
};

void print_reports(const CommunitySet &s, std::size_t top) {
  std::cout << "'" << s.name << "': " << s.reports.size() << " report(s) of " << s.communities << " " << s.method
            << " communities of " << s.nodes << " proteins (" << s.edges << " edges at score >= " << s.min_score
            << "; modularity " << s.modularity << "), built " << s.created_at << ", summaries by " << s.model
            << (s.stale ? "; STALE: the graph changed since (grappi communities build)" : "") << "\n";
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < s.reports.size() && rows.size() < top; ++i) {
    const CommunityReport &r = s.reports[i];
    std::string hubs;
    for (std::size_t k = 0; k < r.hubs.size() && k < 3; ++k) hubs += (k ? ", " : "") + r.hubs[k];
    rows.push_back({r.id, std::to_string(r.members.size()), hubs, r.terms.empty() ? "" : r.terms.front().name,
                    r.summary_status});
  }
  print_table({"community", "size", "hubs", "top term", "summary"}, rows);
  if (s.reports.size() > rows.size()) std::cout << "(" << s.reports.size() - rows.size() << " more: --top or --json)\n";
  if (!s.reports.empty()) std::cout << "\n" << s.reports.front().id << ": " << s.reports.front().summary << "\n";
}

void run_build(BuildArgs a) {
  KnowledgeGraph g = open_graph(a.db, Access::write);
  a.o.cluster.method = cluster_method(a.method);
  a.o.cluster.min_score = score_arg(a.o.cluster.min_score);
  for (const std::string &r : a.relations) add_list_items(a.o.cluster.relations, r);
  for (const std::string &c : a.categories) add_list_items(a.o.cluster.categories, c);
  auto model = chat_model_of(a.m, 1, "communities build");
  const CommunitySet s = build_communities(g, *model, a.o);
  for (const CommunityReport &r : s.reports)
    if (!r.problem.empty()) std::cerr << "grappi: communities: " << r.id << ": " << r.problem << "\n";
  if (model->kind() != "extractive" && !s.reports.empty() && s.usage.model_calls == 0)
    throw Error(ErrorCode::llm, "communities build: the model answered none of the " + std::to_string(s.reports.size()) +
                                    " requests (" + s.reports.front().problem + "); nothing stored");
  store_communities(g, s);
  if (!a.json.empty()) write_output(a.json, dump_json(to_json(s), 2) + "\n");
  if (a.quiet || a.json == "-") return;
  print_reports(s, 10);
}

void run_show(const ShowArgs &a) {
  const KnowledgeGraph g = open_graph(a.db, Access::read);
  const std::optional<CommunitySet> s = load_communities(g, a.name);
  if (!s) {
    const std::vector<std::string> names = g.community_sets();
    std::string known;
    for (const std::string &n : names) known += (known.empty() ? "" : ", ") + n;
    throw Error(ErrorCode::not_found, "communities: no set named '" + a.name + "' is stored (" +
                                          (known.empty() ? std::string("none is: grappi communities build") : "stored: " + known) + ")");
  }
  if (!a.json.empty()) write_output(a.json, dump_json(to_json(*s), 2) + "\n");
  if (a.json == "-") return;
  print_reports(*s, a.top);
}

}  // namespace

void add_communities(CLI::App &app) {
  auto *c = app.add_subcommand("communities", "The network's communities written up and stored in the database (members, hubs, enriched terms, strongest edges, a checked summary), as GraphRAG's community reports; ask's questions about the network's modules read them");
  c->require_subcommand(1);

  auto b = std::make_shared<BuildArgs>();
  auto *build = c->add_subcommand("build", "Cluster the network, write a report per community and store the set (replacing one of its name)");
  add_db_option(build, b->db);
  build->add_option("--name", b->o.name, "Store the set under this name (ask reads 'default')")->capture_default_str();
  build->add_option("--method", b->method, "leiden (modularity), cpm or mcl")->capture_default_str();
  build->add_option("--min-score", b->o.cluster.min_score, "The network: edges of at least this score (0-1, or 0-1000 as STRING writes it)")->capture_default_str();
  build->add_option("--relation", b->relations, "The network: edges of these relations (repeatable; default: every relation that is no annotation or ontology link)");
  build->add_option("--resolution", b->o.cluster.resolution, "Leiden: the resolution")->capture_default_str();
  build->add_option("--cluster-seed", b->o.cluster.seed, "Leiden: the random seed of the first run")->capture_default_str();
  build->add_option("--runs", b->o.cluster.runs, "Leiden: runs, the best quality kept")->capture_default_str();
  build->add_option("--inflation", b->o.cluster.inflation, "MCL: the inflation")->capture_default_str();
  build->add_option("--max-cluster-size", b->o.cluster.max_cluster_size, "Hierarchical: cluster again each community of more members than this, and report each level (0: flat)")->capture_default_str();
  build->add_option("--max-levels", b->o.cluster.max_levels, "Hierarchical: at most this many levels below the top one")->capture_default_str();
  build->add_option("--terms", b->o.cluster.terms, "Enriched terms per report")->capture_default_str();
  build->add_option("--category", b->categories, "Enriched terms' categories (as enrich --category; default: every category annotated)");
  build->add_option("--fdr", b->o.cluster.max_fdr, "Enriched terms: FDR at most this")->capture_default_str();
  build->add_option("--min-size", b->o.min_size, "Reports for communities of at least this many members")->capture_default_str();
  build->add_option("--max-reports", b->o.max_reports, "At most this many reports, the largest communities first (each one model call with --llm openai)")->capture_default_str();
  build->add_option("--hubs", b->o.hubs, "Hubs named per report")->capture_default_str();
  build->add_option("--edges", b->o.edges, "Strongest edges per report")->capture_default_str();
  add_chat_flags(build, b->m, "the hubs, terms and strongest links in words, not a language model");
  add_output_flags(build, b->json, b->quiet, "the set");
  build->callback([b] { run_build(*b); });

  auto s = std::make_shared<ShowArgs>();
  auto *show = c->add_subcommand("show", "The stored set's reports (marked stale when the graph changed since it was built)");
  add_db_option(show, s->db);
  show->add_option("--name", s->name, "The set's name")->capture_default_str();
  show->add_option("--top", s->top, "Reports printed in the table")->capture_default_str();
  show->add_option("--json", s->json, "Write the set as JSON to FILE (- for standard output)");
  show->callback([s] { run_show(*s); });

  auto l = std::make_shared<std::string>();
  auto *list = c->add_subcommand("list", "The stored sets' names");
  add_db_option(list, *l);
  list->callback([l] {
    const KnowledgeGraph g = open_graph(*l, Access::read);
    for (const std::string &n : g.community_sets()) std::cout << n << "\n";
  });

  auto r = std::make_shared<std::pair<std::string, std::string>>();
  auto *remove = c->add_subcommand("remove", "Remove a stored set");
  add_db_option(remove, r->first);
  remove->add_option("name", r->second, "The set's name")->required();
  remove->callback([r] {
    KnowledgeGraph g = open_graph(r->first, Access::write);
    if (!g.remove_community_set(r->second))
      throw Error(ErrorCode::not_found, "communities remove: no set named '" + r->second + "' is stored");
    std::cout << "removed '" << r->second << "'\n";
  });
}

}  // namespace grappi::cli
