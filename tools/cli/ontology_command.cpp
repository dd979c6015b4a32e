// grappi ontology: terms of the ontologies in the database, their parents, children,
// ancestors, descendants, depths and lowest common ancestors (grappi/ontology.hpp).
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct OntologyArgs {
  std::string db, term, root, lca;
  std::vector<std::string> relations{"obo.is_a"};
  bool ancestors = false, descendants = false, parents = false, children = false, json = false;
};

using nlohmann::json;

void print_terms(const json &terms, const char *distance_name) {
  std::vector<std::vector<std::string>> rows;
  for (const auto &t : terms)
    rows.push_back({t["external_id"].get<std::string>(), t["name"].get<std::string>(),
                    t.contains("distance") ? std::to_string(t["distance"].get<std::size_t>()) : std::string("-")});
  print_table({"term", "name", distance_name}, rows);
}

std::string title(const json &t) { return t["external_id"].get<std::string>() + " " + t["name"].get<std::string>(); }

void run_ontology(const OntologyArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  const int modes = int(a.ancestors) + int(a.descendants) + int(a.parents) + int(a.children) + int(!a.lca.empty());
  if (modes > 1)
    throw Error(ErrorCode::invalid_argument, "ontology: choose one of --ancestors, --descendants, --parents, --children, --lca");
  if (modes == 1 && a.term.empty()) throw Error(ErrorCode::invalid_argument, "ontology: name a TERM for that question");
  using Kind = OntologyQuestion::Kind;
  OntologyQuestion q;
  q.relations = a.relations;
  if (a.term.empty()) {
    q.kind = a.root.empty() ? Kind::roots : Kind::subtree;
    q.term = a.root;
  } else {
    q.term = a.term;
    q.kind = a.ancestors ? Kind::ancestors : a.descendants ? Kind::descendants : a.parents ? Kind::parents
           : a.children  ? Kind::children  : !a.lca.empty() ? Kind::lca        : Kind::term;
    q.other = a.lca;
    q.root = a.root;
  }
  const json j = ontology_json(g, q);
  if (a.json) {
    std::cout << dump_json(j, 2) << '\n';
    return;
  }
  switch (q.kind) {
    case Kind::roots:
      std::cout << j["roots"].size() << " root terms (with children, without parents along " << a.relations.front()
                << (a.relations.size() > 1 ? ", ..." : "") << ")\n";
      print_terms(j["roots"], "-");
      return;
    case Kind::subtree:
      std::cout << j["descendants"].size() << " terms under " << title(j["root"]) << "\n";
      print_terms(j["descendants"], "depth");
      return;
    case Kind::lca: {
      const auto &l = j["lowest_common_ancestors"];
      if (l.empty()) {
        std::cout << "no common ancestor\n";
        return;
      }
      std::vector<std::vector<std::string>> rows;
      for (const auto &t : l) rows.push_back({t["external_id"].get<std::string>(), t["name"].get<std::string>()});
      print_table({"lowest common ancestor", "name"}, rows);
      if (!j["distance"].is_null()) std::cout << "distance through a common ancestor: " << j["distance"].get<std::size_t>() << "\n";
      return;
    }
    case Kind::term: break;
    default: {
      const char *what = to_string(q.kind);
      std::cout << j[what].size() << " " << what << " of " << title(j["term"]) << "\n";
      print_terms(j[what], "distance");
      return;
    }
  }
  // The term itself.
  std::cout << j["external_id"].get<std::string>() << "  " << j["name"].get<std::string>() << "  ("
            << j["label"].get<std::string>() << ")\n";
  if (!j["definition"].get<std::string>().empty()) std::cout << "definition: " << j["definition"].get<std::string>() << "\n";
  const auto &attributes = j["attributes"];
  if (attributes.value("is_obsolete", false)) {
    std::cout << "OBSOLETE";
    if (attributes.contains("replaced_by")) std::cout << "; replaced by " << dump_json(attributes["replaced_by"]);
    std::cout << "\n";
  }
  if (attributes.contains("namespace")) std::cout << "namespace: " << attributes["namespace"].get<std::string>() << "\n";
  if (attributes.contains("synonyms"))
    for (const auto &s : attributes["synonyms"])
      std::cout << "synonym: " << s.value("text", "") << " (" << s.value("scope", "") << ")\n";
  if (j.contains("depth"))
    std::cout << "depth under " << a.root << ": "
              << (j["depth"].is_null() ? std::string("not below it") : std::to_string(j["depth"].get<std::size_t>())) << "\n";
  std::cout << "parents:\n";
  json parents = j["parents"], children = j["children"];
  for (auto &t : parents) t["distance"] = 1;
  for (auto &t : children) t["distance"] = 1;
  print_terms(parents, "distance");
  std::cout << "children:\n";
  print_terms(children, "distance");
}

}  // namespace

void add_ontology(CLI::App &app) {
  auto a = std::make_shared<OntologyArgs>();
  auto *c = app.add_subcommand("ontology", "Ontology terms: a term, its parents, children, ancestors, descendants, depth, lowest common ancestors; a subtree");
  add_db_option(c, a->db);
  c->add_option("term", a->term, "A term by id, name or synonym (MI:0407, \"direct interaction\"); without it: the subtree under --root, or the roots");
  c->add_option("--root", a->root, "A root term: list its subtree with depths (no TERM), or give TERM's depth under it");
  c->add_flag("--ancestors", a->ancestors, "Every ancestor of TERM with its distance");
  c->add_flag("--descendants", a->descendants, "Every descendant of TERM with its distance");
  c->add_flag("--parents", a->parents, "TERM's direct parents");
  c->add_flag("--children", a->children, "TERM's direct children");
  c->add_option("--lca", a->lca, "Another term: the lowest common ancestors of TERM and it, and their distance");
  c->add_option("--relation", a->relations, "Child-to-parent relations followed (repeatable)")->capture_default_str();
  c->add_flag("--json", a->json, "Print JSON");
  c->callback([a] { run_ontology(*a); });
}

}  // namespace grappi::cli
