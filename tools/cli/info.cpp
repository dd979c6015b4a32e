// grappi info, resolve, remove-dataset: the database's contents and its names.
#include <iostream>
#include <memory>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct InfoArgs {
  std::string db;
  bool json = false;
};

void run_info(const InfoArgs &a) {
  KnowledgeGraph g = open_graph(a.db, false);
  const GraphStats s = g.stats();
  if (a.json) {
    std::cout << to_json(s).dump(2) << '\n';
    return;
  }
  std::cout << "database: " << a.db << " (schema " << s.schema_version << ")\n"
            << "nodes:    " << s.nodes << "\nedges:    " << s.edges << "\naliases:  " << s.aliases << "\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto &r : s.edges_by_relation) rows.push_back({r.first, std::to_string(r.second)});
  if (!rows.empty()) {
    print_table({"relation", "edges"}, rows);
    std::cout << '\n';
  }
  rows.clear();
  for (const auto &d : s.datasets) {
    const auto counts = nlohmann::json::parse(d.counts, nullptr, false);
    const int64_t lines = counts.is_object() ? counts.value("lines", int64_t{0}) : 0;
    rows.push_back({std::to_string(d.id), d.name, d.format, d.string_version, std::to_string(d.taxon), std::to_string(lines),
                    d.sha256.substr(0, 12), d.imported_at});
  }
  if (!rows.empty()) print_table({"dataset", "file", "format", "version", "taxon", "lines", "sha256", "imported"}, rows);
}

struct ResolveArgs {
  std::string db, name;
  bool json = false;
};

void run_resolve(const ResolveArgs &a) {
  KnowledgeGraph g = open_graph(a.db, false);
  const ResolveResult r = g.lookup(a.name);
  if (a.json) {
    std::cout << to_json(r).dump(2) << '\n';
    if (r.status != ResolveResult::Status::found) throw ExitStatus{kExitUsage};
    return;
  }
  if (r.status != ResolveResult::Status::found) (void)g.resolve(a.name);  // throws the not-found / ambiguous message
  const auto n = g.node(r.id);
  std::cout << n->name << "\t" << n->external_id << "\t(id " << n->id << ", matched by " << r.candidates[0].matched_by << ")\n";
  if (!n->annotation.empty()) std::cout << n->annotation << '\n';
}

struct RemoveArgs {
  std::string db;
  int64_t dataset = 0;
};

void run_remove(const RemoveArgs &a) {
  KnowledgeGraph g = open_graph(a.db, false);
  g.remove_dataset(a.dataset);
  std::cout << "removed dataset " << a.dataset << '\n';
}

}  // namespace

void add_info(CLI::App &app) {
  auto a = std::make_shared<InfoArgs>();
  auto *c = app.add_subcommand("info", "Counts of nodes and edges, datasets and their provenance");
  add_db_option(c, a->db);
  c->add_flag("--json", a->json, "JSON output");
  c->callback([a] { run_info(*a); });
}

void add_resolve(CLI::App &app) {
  auto a = std::make_shared<ResolveArgs>();
  auto *c = app.add_subcommand("resolve", "Resolve a name, alias or id to a node");
  add_db_option(c, a->db);
  c->add_option("name", a->name, "Name to resolve")->required();
  c->add_flag("--json", a->json, "JSON output (exit status 2 when the name does not resolve to one node)");
  c->callback([a] { run_resolve(*a); });
}

void add_remove_dataset(CLI::App &app) {
  auto a = std::make_shared<RemoveArgs>();
  auto *c = app.add_subcommand("remove-dataset", "Remove everything one imported dataset contributed");
  add_db_option(c, a->db);
  c->add_option("dataset", a->dataset, "Dataset id (see grappi info)")->required();
  c->callback([a] { run_remove(*a); });
}

}  // namespace grappi::cli
