// ontology_json (grappi/json.hpp): one ontology question answered as JSON, for the command
// line, the C API and the bindings alike.
#include <optional>

#include "grappi/error.hpp"
#include "grappi/store_json.hpp"

namespace grappi {

namespace {

using nlohmann::json;

constexpr std::pair<OntologyQuestion::Kind, const char *> kKinds[] = {
    {OntologyQuestion::Kind::term, "term"},         {OntologyQuestion::Kind::ancestors, "ancestors"},
    {OntologyQuestion::Kind::descendants, "descendants"}, {OntologyQuestion::Kind::parents, "parents"},
    {OntologyQuestion::Kind::children, "children"}, {OntologyQuestion::Kind::lca, "lca"},
    {OntologyQuestion::Kind::subtree, "subtree"},   {OntologyQuestion::Kind::roots, "roots"}};

// {id, external_id, name} of a term, from the snapshot the ontology walks.
json term_json(const GraphSnapshot &g, int64_t id, std::optional<std::size_t> distance = std::nullopt) {
  const auto ix = g.index_of(id);
  if (!ix) throw Error(ErrorCode::not_found, "ontology: node " + std::to_string(id) + " is not in the graph");
  json j = {{"id", id}, {"external_id", std::string(g.external_id(*ix))}, {"name", std::string(g.name(*ix))}};
  if (distance) j["distance"] = *distance;
  return j;
}

json list_json(const GraphSnapshot &g, const std::vector<TermDistance> &terms) {
  json a = json::array();
  for (const auto &t : terms) a.push_back(term_json(g, t.id, t.distance));
  return a;
}

json ids_json(const GraphSnapshot &g, const std::vector<int64_t> &ids, bool with_distance) {
  json a = json::array();
  for (int64_t id : ids) a.push_back(with_distance ? term_json(g, id, 1) : term_json(g, id));
  return a;
}

}  // namespace

const char *to_string(OntologyQuestion::Kind kind) noexcept {
  for (const auto &[k, name] : kKinds)
    if (k == kind) return name;
  return "term";
}

OntologyQuestion::Kind ontology_question_kind(std::string_view name) {
  std::string all;
  for (const auto &[k, n] : kKinds) {
    if (name == n) return k;
    all += (all.empty() ? "" : ", ") + std::string(n);
  }
  throw Error(ErrorCode::invalid_argument, "ontology: unknown question '" + std::string(name) + "' (" + all + ")");
}

json ontology_json(const KnowledgeGraph &graph, const OntologyQuestion &q) {
  using Kind = OntologyQuestion::Kind;
  OntologyOptions o;
  o.relations = q.relations;
  const auto snap = graph.snapshot();
  const Ontology ont(snap, o);
  const GraphSnapshot &g = *snap;
  if (q.kind == Kind::roots) return json{{"roots", ids_json(g, ont.roots(), false)}};
  if (q.term.empty())
    throw Error(ErrorCode::invalid_argument, std::string("ontology: the question '") + to_string(q.kind) + "' needs a term");
  const int64_t term = graph.resolve(q.term);
  switch (q.kind) {
    case Kind::subtree:
      return json{{"root", term_json(g, term)}, {"descendants", list_json(g, ont.descendants(term))}};
    case Kind::ancestors:
      return json{{"term", term_json(g, term)}, {"ancestors", list_json(g, ont.ancestors(term))}};
    case Kind::descendants:
      return json{{"term", term_json(g, term)}, {"descendants", list_json(g, ont.descendants(term))}};
    case Kind::parents:
      return json{{"term", term_json(g, term)}, {"parents", ids_json(g, ont.parents(term), true)}};
    case Kind::children:
      return json{{"term", term_json(g, term)}, {"children", ids_json(g, ont.children(term), true)}};
    case Kind::lca: {
      if (q.other.empty()) throw Error(ErrorCode::invalid_argument, "ontology: the question 'lca' needs another term");
      const int64_t other = graph.resolve(q.other);
      const auto d = ont.distance(term, other);
      return json{{"a", term_json(g, term)},
                  {"b", term_json(g, other)},
                  {"lowest_common_ancestors", ids_json(g, ont.lowest_common_ancestors(term, other), false)},
                  {"distance", d ? json(*d) : json(nullptr)}};
    }
    default: break;
  }
  // The term itself: what the database holds about it, its parents, children and depth.
  const auto n = graph.node(term);
  json j = term_json(g, term);
  j["label"] = n->label;
  j["definition"] = n->annotation;
  const auto attributes = json::parse(n->attributes, nullptr, false);
  j["attributes"] = attributes.is_object() ? attributes : json::object();
  j["parents"] = ids_json(g, ont.parents(term), false);
  j["children"] = ids_json(g, ont.children(term), false);
  if (!q.root.empty()) {
    const auto depth = ont.depth(term, graph.resolve(q.root));
    j["root"] = term_json(g, graph.resolve(q.root));
    j["depth"] = depth ? json(*depth) : json(nullptr);
  }
  return j;
}

}  // namespace grappi
