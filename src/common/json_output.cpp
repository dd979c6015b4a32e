// The JSON form of every result type except explore's (explore_output.cpp).
#include "grappi/json.hpp"

#include <nlohmann/json.hpp>

namespace grappi {

using nlohmann::json;

// Types whose JSON is exactly their fields.
NLOHMANN_JSON_SERIALIZE_ENUM(StringFormat, {{StringFormat::detect, "detect"},
                                            {StringFormat::info, "info"},
                                            {StringFormat::aliases, "aliases"},
                                            {StringFormat::links, "links"},
                                            {StringFormat::detailed, "detailed"},
                                            {StringFormat::physical, "physical"},
                                            {StringFormat::physical_detailed, "physical_detailed"},
                                            {StringFormat::actions, "actions"},
                                            {StringFormat::web_export, "web_export"}})
// "format" is the format's name whatever the kind of file; "details" an object.
void to_json(json &j, const FileReport &r) {
  json details = json::object();
  for (const auto &[k, v] : r.details) details[k] = v;
  j = json{{"path", r.path},
           {"format", r.kind.empty() ? json(r.format) : json(r.kind)},
           {"string_version", r.string_version},
           {"taxon", r.taxon},
           {"dataset_id", r.dataset_id},
           {"already_imported", r.already_imported},
           {"lines", r.lines},
           {"rows_below_min_score", r.rows_below_min_score},
           {"rows_skipped", r.rows_skipped},
           {"nodes_created", r.nodes_created},
           {"nodes_updated", r.nodes_updated},
           {"referenced_nodes_created", r.referenced_nodes_created},
           {"edges_created", r.edges_created},
           {"edges_existing", r.edges_existing},
           {"aliases_created", r.aliases_created},
           {"score_conflicts", r.score_conflicts},
           {"details", details},
           {"bad_line_examples", r.bad_line_examples},
           {"seconds", r.seconds}};
}
void to_json(json &j, const ImportReport &r) { j = json{{"files", r.files}, {"seconds", r.seconds}}; }
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ResolveCandidate, id, external_id, name, matched_by)

namespace {

json parse_or_string(const std::string &s) {
  auto j = json::parse(s, nullptr, false);
  return j.is_discarded() ? json(s) : j;
}

const std::string &name_of(const GraphSnapshot &g, int64_t id) { return g.name(*g.index_of(id)); }

json edge_json(const GraphSnapshot &g, const WindowEdge &e) {
  return {{"source", name_of(g, e.source)}, {"target", name_of(g, e.target)}, {"score", e.score},
          {"relation", e.relation},        {"directed", e.directed},          {"edge_id", e.edge}};
}

const char *direction_name(Direction d) {
  switch (d) {
    case Direction::outgoing: return "out";
    case Direction::incoming: return "in";
    case Direction::undirected: break;
  }
  return "undirected";
}

}  // namespace

// ---- the store -------------------------------------------------------------------------------

json to_json(const Node &n) {
  return json{{"id", n.id},
              {"external_id", n.external_id},
              {"name", n.name},
              {"label", n.label},
              {"annotation", n.annotation},
              {"size", n.size},
              {"taxon", n.taxon},
              {"attributes", parse_or_string(n.attributes.empty() ? "{}" : n.attributes)}};
}

json to_json(const Edge &e) {
  json ch = json::object();
  for (auto &c : e.channels) ch[c.name] = c.score;
  json records = json::array();
  for (const auto &r : e.records)
    records.push_back(json{{"dataset_id", r.dataset_id}, {"line", r.line}, {"record", parse_or_string(r.record)},
                           {"raw", r.raw}});
  return json{{"id", e.id},         {"source", e.source},   {"target", e.target},
              {"relation", e.relation}, {"directed", e.directed}, {"score", e.score},
              {"channels", ch},     {"pmids", e.pmids},     {"evidence", e.evidence},
              {"dataset_id", e.dataset_id}, {"records", records}};
}

json to_json(const Dataset &d) {
  return json{{"id", d.id},
              {"name", d.name},
              {"path", d.path},
              {"file_size", d.file_size},
              {"sha256", d.sha256},
              {"format", d.format},
              {"string_version", d.string_version},
              {"taxon", d.taxon},
              {"options", parse_or_string(d.options)},
              {"counts", parse_or_string(d.counts)},
              {"imported_at", d.imported_at},
              {"seconds", d.seconds},
              {"source", d.source},
              {"holds", {{"nodes", d.nodes}, {"edges", d.edges}, {"records", d.records}, {"aliases", d.aliases}}}};
}

json to_json(const GraphStats &s) {
  json rel = json::object();
  for (auto &r : s.edges_by_relation) rel[r.first] = r.second;
  json ds = json::array();
  for (auto &d : s.datasets) ds.push_back(to_json(d));
  return json{{"schema_version", s.schema_version},
              {"nodes", s.nodes},
              {"edges", s.edges},
              {"aliases", s.aliases},
              {"edges_by_relation", rel},
              {"datasets", ds}};
}

json to_json(const ResolveResult &r) {
  const char *status = r.status == ResolveResult::Status::found       ? "found"
                       : r.status == ResolveResult::Status::ambiguous ? "ambiguous"
                                                                      : "not_found";
  json out{{"status", status}, {"candidates", r.candidates}, {"suggestions", r.suggestions}};
  out["id"] = r.status == ResolveResult::Status::found ? json(r.id) : json(nullptr);
  return out;
}

json to_json(const FileReport &r) { return r; }
json to_json(const ImportReport &r) { return r; }

// ---- graph queries ---------------------------------------------------------------------------

json to_json(const GraphSnapshot &g, int64_t node, const std::vector<Neighbor> &neighbors) {
  json list = json::array();
  for (const auto &n : neighbors) {
    const uint32_t ix = *g.index_of(n.node);
    list.push_back({{"id", n.node},
                    {"name", g.name(ix)},
                    {"external_id", g.external_id(ix)},
                    {"edge", n.edge},
                    {"score", n.score},
                    {"relation", g.relation_name(n.relation)},
                    {"direction", direction_name(n.direction)}});
  }
  const uint32_t self = *g.index_of(node);
  return json{{"protein", {{"id", node}, {"name", g.name(self)}, {"external_id", g.external_id(self)}}},
              {"degree", g.degree(node)},
              {"neighbors", list}};
}

json to_json(const GraphSnapshot &g, const std::vector<SearchHit> &hits) {
  json out = json::array();
  for (const auto &h : hits) {
    const auto ix = g.index_of(h.id);
    if (!ix) continue;
    out.push_back({{"id", h.id}, {"name", g.name(*ix)}, {"external_id", g.external_id(*ix)}, {"score", h.score}});
  }
  return out;
}

json to_json(const GraphSnapshot &g, const std::vector<RankedNode> &ranked) {
  json out = json::array();
  for (const auto &r : ranked) out.push_back({{"name", name_of(g, r.id)}, {"score", r.score}, {"id", r.id}});
  return out;
}

// ---- retrieval -------------------------------------------------------------------------------

nlohmann::json to_json(const GraphSnapshot &g, const Window &w) {
  nlohmann::json nodes = nlohmann::json::array(), edges = nlohmann::json::array();
  for (const auto &n : w.nodes)
    nodes.push_back({{"id", n.id},
                     {"name", n.name},
                     {"depth", n.depth},
                     {"parent", n.parent ? nlohmann::json(name_of(g, *n.parent)) : nlohmann::json(nullptr)},
                     {"parent_id", n.parent ? nlohmann::json(*n.parent) : nlohmann::json(nullptr)},
                     {"rank_score", n.rank_score}});
  for (const auto &e : w.edges) edges.push_back(edge_json(g, e));
  nlohmann::json j{{"window", w.index}, {"root", name_of(g, w.root)}, {"nodes", nodes}, {"edges", edges}};
  if (!w.note.empty()) j["note"] = w.note;
  return j;
}

nlohmann::json to_json(const GraphSnapshot &g, const std::vector<Path> &paths) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto &p : paths) {
    nlohmann::json names = nlohmann::json::array();
    for (int64_t id : p.nodes) names.push_back(name_of(g, id));
    out.push_back({{"proteins", names}, {"length", p.length()}, {"node_ids", p.nodes}, {"edge_ids", p.edges},
                   {"scores", p.scores}, {"weight", p.weight}});
  }
  return out;
}

nlohmann::json to_json(const GraphSnapshot &g, const Subgraph &s) {
  nlohmann::json nodes = nlohmann::json::array(), edges = nlohmann::json::array();
  for (std::size_t i = 0; i < s.nodes.size(); ++i)
    nodes.push_back({{"id", s.nodes[i]}, {"name", name_of(g, s.nodes[i])}, {"hops", s.hops[i]}});
  for (const auto &e : s.edges) edges.push_back(edge_json(g, e));
  return {{"nodes", nodes}, {"edges", edges}};
}

nlohmann::json to_json(const GraphSnapshot &g, const PcstRetrieval &r) {
  nlohmann::json j = to_json(g, r.subgraph);
  for (std::size_t i = 0; i < j["nodes"].size(); ++i) j["nodes"][i]["prize"] = r.node_prizes[i];
  for (std::size_t i = 0; i < j["edges"].size(); ++i) j["edges"][i]["prize"] = r.edge_prizes[i];
  nlohmann::json seeds = nlohmann::json::array();
  for (auto id : r.seeds) seeds.push_back({{"id", id}, {"name", name_of(g, id)}});
  j["seeds"] = seeds;
  j["edge_cost"] = r.edge_cost;
  j["objective"] = r.objective;
  j["net_worth"] = r.net_worth;
  j["base_nodes"] = r.base_nodes;
  j["base_edges"] = r.base_edges;
  j["virtual_nodes"] = r.virtual_nodes;
  return j;
}

json to_json(const GraphSnapshot &g, const QuestionSubgraph &s) {
  json j = to_json(g, s.subgraph);
  json seeds = json::array();
  for (const auto &h : s.seeds) seeds.push_back(name_of(g, h.id));
  j["seeds"] = seeds;
  return j;
}

// ---- PCST ------------------------------------------------------------------------------------

json to_json(const PcstResult &r, const PcstOptions &o) {
  return json{{"objective", r.objective},
              {"net_worth", r.net_worth},
              {"nodes", r.nodes},
              {"edges", r.edges},
              {"num_nodes", r.nodes.size()},
              {"num_edges", r.edges.size()},
              {"objective_before_improve", r.objective_before_improve},
              {"improve_rounds", r.improve_rounds},
              {"pruning", to_string(o.pruning)},
              {"root", o.root},
              {"clusters", o.num_clusters},
              {"improve", o.improve},
              {"event_order", to_string(o.event_order)},
              {"reference_order", o.event_order == PcstEventOrder::reference}};
}

}  // namespace grappi
