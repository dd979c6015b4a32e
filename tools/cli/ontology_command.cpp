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

nlohmann::json term_json(const KnowledgeGraph &g, int64_t id, std::optional<std::size_t> distance = std::nullopt) {
  const auto n = g.node(id);
  nlohmann::json j = {{"id", id}, {"external_id", n->external_id}, {"name", n->name}};
  if (distance) j["distance"] = *distance;
  return j;
}

void print_terms(const KnowledgeGraph &g, const std::vector<TermDistance> &terms, const char *distance_name) {
  std::vector<std::vector<std::string>> rows;
  for (const auto &t : terms) {
    const auto n = g.node(t.id);
    rows.push_back({n->external_id, n->name, std::to_string(t.distance)});
  }
  print_table({"term", "name", distance_name}, rows);
}

std::vector<TermDistance> at_distance_one(const std::vector<int64_t> &ids) {
  std::vector<TermDistance> out;
  for (int64_t id : ids) out.push_back({id, 1});
  return out;
}

void run_ontology(const OntologyArgs &a) {
  KnowledgeGraph g = open_graph(a.db, false);
  OntologyOptions o;
  o.relations = a.relations;
  const Ontology ont(g.snapshot(), o);
  const int modes = int(a.ancestors) + int(a.descendants) + int(a.parents) + int(a.children) + int(!a.lca.empty());
  if (modes > 1)
    throw Error(ErrorCode::invalid_argument, "ontology: choose one of --ancestors, --descendants, --parents, --children, --lca");
  if (modes == 1 && a.term.empty()) throw Error(ErrorCode::invalid_argument, "ontology: name a TERM for that question");
  // (plain values rather than std::optional: GCC 12 warns spuriously about optionals here)
  const bool has_root = !a.root.empty();
  const int64_t root_id = has_root ? g.resolve(a.root) : 0;

  if (a.term.empty()) {
    // The subtree under --root, or the roots.
    std::vector<TermDistance> list;
    if (has_root) {
      list = ont.descendants(root_id);
    } else {
      for (int64_t r : ont.roots()) list.push_back({r, 0});
    }
    if (a.json) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto &t : list) j.push_back(term_json(g, t.id, t.distance));
      std::cout << (has_root ? nlohmann::json{{"root", term_json(g, root_id)}, {"descendants", j}}
                         : nlohmann::json{{"roots", j}})
                       .dump(2)
                << '\n';
      return;
    }
    if (has_root)
      std::cout << list.size() << " terms under " << g.node(root_id)->external_id << " " << g.node(root_id)->name << "\n";
    else std::cout << list.size() << " root terms (with children, without parents along " << a.relations.front()
                   << (a.relations.size() > 1 ? ", ..." : "") << ")\n";
    print_terms(g, list, has_root ? "depth" : "-");
    return;
  }

  const int64_t term = g.resolve(a.term);
  if (!a.lca.empty()) {
    const int64_t other = g.resolve(a.lca);
    const auto lcas = ont.lowest_common_ancestors(term, other);
    const auto d = ont.distance(term, other);
    if (a.json) {
      nlohmann::json j = {{"a", term_json(g, term)}, {"b", term_json(g, other)}, {"lowest_common_ancestors", nlohmann::json::array()},
                          {"distance", d ? nlohmann::json(*d) : nlohmann::json(nullptr)}};
      for (int64_t c : lcas) j["lowest_common_ancestors"].push_back(term_json(g, c));
      std::cout << j.dump(2) << '\n';
      return;
    }
    if (lcas.empty()) {
      std::cout << "no common ancestor\n";
      return;
    }
    std::vector<std::vector<std::string>> rows;
    for (int64_t c : lcas) rows.push_back({g.node(c)->external_id, g.node(c)->name});
    print_table({"lowest common ancestor", "name"}, rows);
    if (d) std::cout << "distance through a common ancestor: " << *d << "\n";
    return;
  }
  if (modes == 1) {
    const char *what = a.ancestors ? "ancestors" : a.descendants ? "descendants" : a.parents ? "parents" : "children";
    const std::vector<TermDistance> list = a.ancestors     ? ont.ancestors(term)
                                           : a.descendants ? ont.descendants(term)
                                           : a.parents     ? at_distance_one(ont.parents(term))
                                                           : at_distance_one(ont.children(term));
    if (a.json) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto &t : list) j.push_back(term_json(g, t.id, t.distance));
      std::cout << nlohmann::json{{"term", term_json(g, term)}, {what, j}}.dump(2) << '\n';
      return;
    }
    std::cout << list.size() << " " << what << " of " << g.node(term)->external_id << " " << g.node(term)->name << "\n";
    print_terms(g, list, "distance");
    return;
  }
  // The term itself: what the database holds about it, its parents and children.
  const auto n = g.node(term);
  const auto attributes = nlohmann::json::parse(n->attributes, nullptr, false);
  const auto depth_opt = has_root ? ont.depth(term, root_id) : std::optional<std::size_t>();
  const bool below = depth_opt.has_value();
  const std::size_t depth = depth_opt.value_or(0);
  if (a.json) {
    nlohmann::json j = term_json(g, term);
    j["label"] = n->label;
    j["definition"] = n->annotation;
    j["attributes"] = attributes.is_discarded() ? nlohmann::json::object() : attributes;
    j["parents"] = nlohmann::json::array();
    for (int64_t p : ont.parents(term)) j["parents"].push_back(term_json(g, p));
    j["children"] = nlohmann::json::array();
    for (int64_t c : ont.children(term)) j["children"].push_back(term_json(g, c));
    if (has_root) j["depth"] = below ? nlohmann::json(depth) : nlohmann::json(nullptr);
    std::cout << j.dump(2) << '\n';
    return;
  }
  std::cout << n->external_id << "  " << n->name << "  (" << n->label << ")\n";
  if (!n->annotation.empty()) std::cout << "definition: " << n->annotation << "\n";
  if (attributes.is_object()) {
    if (attributes.value("is_obsolete", false)) {
      std::cout << "OBSOLETE";
      if (attributes.contains("replaced_by")) std::cout << "; replaced by " << attributes["replaced_by"].dump();
      std::cout << "\n";
    }
    if (attributes.contains("namespace")) std::cout << "namespace: " << attributes["namespace"].get<std::string>() << "\n";
    if (attributes.contains("synonyms"))
      for (const auto &s : attributes["synonyms"])
        std::cout << "synonym: " << s.value("text", "") << " (" << s.value("scope", "") << ")\n";
  }
  if (has_root) std::cout << "depth under " << a.root << ": " << (below ? std::to_string(depth) : "not below it") << "\n";
  std::cout << "parents:\n";
  print_terms(g, at_distance_one(ont.parents(term)), "distance");
  std::cout << "children:\n";
  print_terms(g, at_distance_one(ont.children(term)), "distance");
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
