// The JSON form of retrieval's results (grappi/retrieval_json.hpp).
#include "grappi/retrieval_json.hpp"

#include <nlohmann/json.hpp>

#include "grappi/json_text.hpp"

namespace grappi {

using nlohmann::json;

namespace {

const std::string &snapshot_name(const GraphSnapshot &g, int64_t id) { return g.name(*g.index_of(id)); }
std::string snapshot_external_id(const GraphSnapshot &g, int64_t id) { return std::string(g.external_id(*g.index_of(id))); }

json external_ids(const GraphSnapshot &g, const std::vector<int64_t> &ids) {
  json out = json::array();
  for (int64_t id : ids) out.push_back(snapshot_external_id(g, id));
  return out;
}

json window_edge_json(const GraphSnapshot &g, const WindowEdge &e) {
  return {{"source", snapshot_name(g, e.source)},
          {"target", snapshot_name(g, e.target)},
          {"source_external_id", snapshot_external_id(g, e.source)},
          {"target_external_id", snapshot_external_id(g, e.target)},
          {"score", e.score},
          {"relation", e.relation},
          {"directed", e.directed},
          {"edge_id", e.edge}};
}

}  // namespace

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
  for (const auto &r : ranked)
    out.push_back({{"name", snapshot_name(g, r.id)}, {"external_id", snapshot_external_id(g, r.id)}, {"score", r.score}, {"id", r.id}});
  return out;
}

// ---- retrieval -------------------------------------------------------------------------------

nlohmann::json to_json(const GraphSnapshot &g, const Window &w) {
  nlohmann::json nodes = nlohmann::json::array(), edges = nlohmann::json::array();
  for (const auto &n : w.nodes)
    nodes.push_back({{"id", n.id},
                     {"name", n.name},
                     {"external_id", snapshot_external_id(g, n.id)},
                     {"depth", n.depth},
                     {"parent", n.parent ? nlohmann::json(snapshot_name(g, *n.parent)) : nlohmann::json(nullptr)},
                     {"parent_id", n.parent ? nlohmann::json(*n.parent) : nlohmann::json(nullptr)},
                     {"parent_external_id", n.parent ? nlohmann::json(snapshot_external_id(g, *n.parent)) : nlohmann::json(nullptr)},
                     {"rank_score", n.rank_score}});
  for (const auto &e : w.edges) edges.push_back(window_edge_json(g, e));
  nlohmann::json j{{"window", w.index},
                   {"root", snapshot_name(g, w.root)},
                   {"root_external_id", snapshot_external_id(g, w.root)},
                   {"nodes", nodes},
                   {"edges", edges}};
  if (!w.note.empty()) j["note"] = w.note;
  return j;
}

namespace {
json path_json(const GraphSnapshot &g, const Path &p) {
  json names = json::array();
  for (int64_t id : p.nodes) names.push_back(snapshot_name(g, id));
  return {{"proteins", names}, {"length", p.length()}, {"node_ids", p.nodes}, {"external_ids", external_ids(g, p.nodes)},
          {"edge_ids", p.edges}, {"scores", p.scores}, {"weight", p.weight}};
}
}  // namespace

nlohmann::json to_json(const GraphSnapshot &g, const std::vector<Path> &paths) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto &p : paths) out.push_back(path_json(g, p));
  return out;
}

std::string paths_json_text(const GraphSnapshot &g, const PathSet &paths) {
  std::string out = "[";
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (i) out += ',';
    out += dump_json(path_json(g, paths.path(i)));
  }
  out += ']';
  return out;
}

nlohmann::json to_json(const GraphSnapshot &g, const Subgraph &s) {
  nlohmann::json nodes = nlohmann::json::array(), edges = nlohmann::json::array();
  for (std::size_t i = 0; i < s.nodes.size(); ++i)
    nodes.push_back({{"id", s.nodes[i]},
                     {"name", snapshot_name(g, s.nodes[i])},
                     {"external_id", snapshot_external_id(g, s.nodes[i])},
                     {"hops", s.hops[i]}});
  for (const auto &e : s.edges) edges.push_back(window_edge_json(g, e));
  return {{"nodes", nodes}, {"edges", edges}};
}

nlohmann::json to_json(const GraphSnapshot &g, const PcstRetrieval &r) {
  nlohmann::json j = to_json(g, r.subgraph);
  for (std::size_t i = 0; i < j["nodes"].size(); ++i) j["nodes"][i]["prize"] = r.node_prizes[i];
  for (std::size_t i = 0; i < j["edges"].size(); ++i) j["edges"][i]["prize"] = r.edge_prizes[i];
  nlohmann::json seeds = nlohmann::json::array();
  for (auto id : r.seeds) seeds.push_back({{"id", id}, {"name", snapshot_name(g, id)}, {"external_id", snapshot_external_id(g, id)}});
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
  json seeds = json::array(), seed_ids = json::array();
  for (const auto &h : s.seeds) {
    seeds.push_back(snapshot_name(g, h.id));
    seed_ids.push_back(snapshot_external_id(g, h.id));
  }
  j["seeds"] = seeds;
  j["seed_external_ids"] = seed_ids;
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
              {"optimal", r.optimal},
              {"pruning", to_string(o.pruning)},
              {"root", o.root},
              {"clusters", o.num_clusters},
              {"improve", o.improve},
              {"event_order", to_string(o.event_order)},
              {"reference_order", o.event_order == PcstEventOrder::reference}};
}
}  // namespace grappi
