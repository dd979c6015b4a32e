// A clustering as a CX2 network for Cytoscape and NDEx (grappi/clustering.hpp): the clustered nodes with their
// cluster, its top term and their levels' clusters as attributes, each cluster in its own colour, the network's
// edges at the threshold, and each cluster's terms as a network attribute.
#include <cmath>
#include <map>
#include <sstream>

#include "analysis/annotations.hpp"
#include "analysis/partition.hpp"
#include "formats/cx2.hpp"
#include "grappi/clustering.hpp"
#include "grappi/knowledge_graph.hpp"

namespace grappi {

namespace {

// Twelve colours told apart (ColorBrewer's Paired), then grey for clusters past them.
const char *cluster_colour(std::size_t rank) {
  static const char *const colours[] = {"#1F78B4", "#33A02C", "#E31A1C", "#FF7F00", "#6A3D9A", "#B15928",
                                        "#A6CEE3", "#B2DF8A", "#FB9A99", "#FDBF6F", "#CAB2D6", "#FFFF99"};
  return rank < 12 ? colours[rank] : "#BDBDBD";
}

std::string term_text(const EnrichedTerm &t) {
  std::ostringstream fdr;
  fdr.precision(2);
  fdr << t.fdr;
  return t.name + " (" + t.term + ", " + t.category + ", FDR " + fdr.str() + ", " + std::to_string(t.observed) + " proteins)";
}

}  // namespace

nlohmann::json to_cx2(const KnowledgeGraph &kg, const ClusteringResult &r, const ClusterOptions &o) {
  using nlohmann::json;
  const auto snapshot = kg.snapshot();
  const GraphSnapshot &g = *snapshot;
  // Each node's top-level cluster and its clusters down the levels.
  std::map<int64_t, std::size_t> top;
  std::map<int64_t, std::vector<int64_t>> path;
  for (const Cluster &c : r.clusters) {
    for (int64_t id : c.members) {
      if (c.level == 0) top[id] = c.id;
      path[id].push_back(static_cast<int64_t>(c.id));
    }
  }
  std::map<int64_t, int64_t> cx_id;
  json nodes = json::array(), bypass = json::array();
  for (std::size_t i = 0; i < r.nodes.size(); ++i) {
    const int64_t id = r.nodes[i];
    const auto ix = g.index_of(id);
    if (!ix) continue;
    cx_id[id] = static_cast<int64_t>(i);
    const Cluster &c = r.clusters[top.at(id)];
    json v{{"name", g.name(*ix)}, {"represents", g.external_id(*ix)}, {"cluster", static_cast<int64_t>(c.id)},
           {"cluster_size", static_cast<int64_t>(c.members.size())}, {"cluster_levels", path[id]},
           {"cluster_term", c.terms.empty() ? std::string() : c.terms.front().name}};
    nodes.push_back({{"id", static_cast<int64_t>(i)}, {"v", std::move(v)}});
    bypass.push_back({{"id", static_cast<int64_t>(i)}, {"v", {{"NODE_BACKGROUND_COLOR", cluster_colour(c.id)}}}});
  }
  // The network's edges among them (the best score per pair, as clustered).
  std::vector<uint32_t> members;
  for (int64_t id : r.nodes)
    if (const auto ix = g.index_of(id)) members.push_back(*ix);
  json edges = json::array();
  int64_t eid = 0;
  for (const detail::NetworkEdge &e :
       detail::network_edges(g, members, detail::network_relations(g, o.relations, "cluster"), static_cast<float>(r.min_score))) {
    const int64_t a = g.node_id(members[e.a]), b = g.node_id(members[e.b]);
    edges.push_back({{"id", eid++}, {"s", cx_id.at(a)}, {"t", cx_id.at(b)},
                     {"v", {{"interaction", g.relation_name(e.relation)}, {"score", std::round(e.score * 1000) / 1000},
                            {"within_cluster", top.at(a) == top.at(b)}}}});
  }
  json terms = json::array();
  for (const Cluster &c : r.clusters)
    for (const EnrichedTerm &t : c.terms) terms.push_back("cluster " + std::to_string(c.id) + ": " + term_text(t));
  json decl = {{"networkAttributes",
                {{"name", {{"d", "string"}}}, {"description", {{"d", "string"}}}, {"version", {{"d", "string"}}},
                 {"method", {{"d", "string"}}}, {"modularity", {{"d", "double"}}}, {"cluster_terms", {{"d", "list_of_string"}}}}},
               {"nodes",
                {{"name", {{"d", "string"}}}, {"represents", {{"d", "string"}}}, {"cluster", {{"d", "integer"}}},
                 {"cluster_size", {{"d", "integer"}}}, {"cluster_levels", {{"d", "list_of_integer"}}},
                 {"cluster_term", {{"d", "string"}}}}},
               {"edges", {{"interaction", {{"d", "string"}}}, {"score", {{"d", "double"}}}, {"within_cluster", {{"d", "boolean"}}}}}};
  std::size_t top_level = 0;
  for (const Cluster &c : r.clusters) top_level += c.level == 0;
  json net = {{"name", std::string("grappi cluster: ") + to_string(r.method) + ", " + std::to_string(top_level) + " clusters"},
              {"description", std::to_string(r.nodes.size()) + " proteins, " + std::to_string(r.edges) +
                                  " edges at score >= " + std::to_string(r.min_score) + "; modularity " +
                                  std::to_string(r.modularity) + "; nodes coloured by cluster"},
              {"version", "1.0"},
              {"method", to_string(r.method)},
              {"modularity", r.modularity},
              {"cluster_terms", terms}};
  return detail::cx2_document(decl, net, std::move(nodes), std::move(edges), detail::cx2_default_style("cluster_term"), bypass);
}

}  // namespace grappi
