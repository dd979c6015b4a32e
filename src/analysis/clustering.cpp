// Clusters of the network (grappi/clustering.hpp): the weighted network at a threshold, MCL or
// Leiden over it, hierarchical splitting, each cluster's edges and enriched terms.
#include <algorithm>
#include <cmath>
#include <deque>
#include <string>

#include "analysis/annotations.hpp"
#include "analysis/partition.hpp"
#include "grappi/clustering.hpp"
#include "grappi/error.hpp"
#include "grappi/knowledge_graph.hpp"

namespace grappi {

// (named: the sources compile in unity batches)
namespace cluster_steps {

// The clustered network: its nodes (snapshot indices), the weighted graph over their positions,
// and each position's neighbours (position, weight).
struct Network {
  std::vector<uint32_t> nodes;
  detail::WeightedGraph graph;
  std::vector<std::vector<std::pair<uint32_t, double>>> adjacent;
};

void check_options(const ClusterOptions &o) {
  const auto bad = [](const std::string &what) { throw Error(ErrorCode::invalid_argument, "cluster: " + what); };
  if (!(o.min_score >= 0 && o.min_score <= 1)) bad("min_score must be between 0 and 1 (given " + std::to_string(o.min_score) + ")");
  if (!(o.inflation > 1 && o.inflation <= 30)) bad("inflation must be above 1 and at most 30 (given " + std::to_string(o.inflation) + ")");
  if (!(o.resolution >= 0 && std::isfinite(o.resolution))) bad("resolution must be 0 or more (given " + std::to_string(o.resolution) + ")");
  if (o.max_iterations == 0 || o.max_iterations > 10000)
    bad("max_iterations must be between 1 and 10000, mcl's own bound (given " + std::to_string(o.max_iterations) + ")");
  if (o.runs == 0 || o.runs > 1000) bad("runs must be between 1 and 1000 (given " + std::to_string(o.runs) + ")");
  if (!(o.max_fdr >= 0 && o.max_fdr <= 1)) bad("max_fdr must be between 0 and 1 (given " + std::to_string(o.max_fdr) + ")");
  if (o.max_levels > 16) bad("max_levels must be at most 16 (given " + std::to_string(o.max_levels) + ")");
}

// The network over `members` (snapshot indices; empty: every node with an edge of the network at
// the threshold), an edge's weight the best score joining the pair.
Network network_of(const GraphSnapshot &g, std::vector<uint32_t> members, const ClusterOptions &o) {
  const std::vector<char> ok = detail::network_relations(g, o.relations, "cluster");
  const float threshold = static_cast<float>(o.min_score);
  if (members.empty()) {
    for (uint32_t i = 0; i < g.node_count(); ++i) {
      const GraphSnapshot::Adjacency adj = g.adjacency(i);
      for (std::size_t k = 0; k < adj.size; ++k)
        if (adj.neighbor[k] != i && ok[adj.relation[k]] && adj.score[k] >= threshold) {
          members.push_back(i);
          break;
        }
    }
  }
  Network n;
  n.nodes = std::move(members);
  n.graph.nodes = n.nodes.size();
  n.adjacent.resize(n.nodes.size());
  for (const detail::NetworkEdge &e : detail::network_edges(g, n.nodes, ok, threshold)) {
    n.graph.edges.emplace_back(e.a, e.b);
    n.graph.weights.push_back(static_cast<double>(e.score));
    n.adjacent[e.a].emplace_back(e.b, static_cast<double>(e.score));
    n.adjacent[e.b].emplace_back(e.a, static_cast<double>(e.score));
  }
  return n;
}

// The subgraph a group of positions induces, over its own positions 0..size-1.
detail::WeightedGraph induced(const Network &n, const std::vector<uint32_t> &group) {
  detail::WeightedGraph sub;
  sub.nodes = group.size();
  std::vector<uint32_t> local(n.nodes.size(), UINT32_MAX);
  for (uint32_t i = 0; i < group.size(); ++i) local[group[i]] = i;
  for (uint32_t i = 0; i < group.size(); ++i)
    for (const auto &[q, w] : n.adjacent[group[i]])
      if (local[q] != UINT32_MAX && i < local[q]) {
        sub.edges.emplace_back(i, local[q]);
        sub.weights.push_back(w);
      }
  return sub;
}

// One partition of a graph by the method; MCL's iterations and convergence, Leiden's quality.
std::vector<std::size_t> partition(const detail::WeightedGraph &g, const ClusterOptions &o, ClusteringResult *top) {
  if (o.method == ClusterMethod::mcl) {
    detail::MclPartition p = detail::mcl(g, o.inflation, o.max_iterations);
    if (top) {
      top->iterations = p.iterations;
      top->converged = p.converged;
    }
    return std::move(p.membership);
  }
  double quality = 0;
  std::vector<std::size_t> m = detail::leiden(
      g, o.method == ClusterMethod::leiden_cpm ? detail::LeidenQuality::cpm : detail::LeidenQuality::modularity,
      o.resolution, o.seed, o.runs, quality);
  if (top) top->quality = quality;
  return m;
}

// The groups of a membership (positions of `of`), largest first, then by their first member's
// external id.
std::vector<std::vector<uint32_t>> groups_of(const std::vector<std::size_t> &membership, const std::vector<uint32_t> &of,
                                             const GraphSnapshot &g, const Network &n) {
  std::size_t count = 0;
  for (std::size_t c : membership) count = std::max(count, c + 1);
  std::vector<std::vector<uint32_t>> groups(count);
  for (std::size_t i = 0; i < membership.size(); ++i) groups[membership[i]].push_back(of[i]);
  for (auto &grp : groups)
    std::sort(grp.begin(), grp.end(), [&](uint32_t a, uint32_t b) {
      return g.external_id(n.nodes[a]) < g.external_id(n.nodes[b]);
    });
  std::sort(groups.begin(), groups.end(), [&](const auto &a, const auto &b) {
    if (a.size() != b.size()) return a.size() > b.size();
    return g.external_id(n.nodes[a.front()]) < g.external_id(n.nodes[b.front()]);
  });
  return groups;
}

// A cluster of positions: members by weighted degree within it (then external id), its edges.
Cluster make_cluster(const Network &n, const GraphSnapshot &g, const std::vector<uint32_t> &group,
                     std::vector<uint32_t> &stamp, uint32_t mark) {
  Cluster c;
  for (uint32_t p : group) stamp[p] = mark;
  std::vector<std::pair<double, uint32_t>> order;
  for (uint32_t p : group) {
    double inside = 0;
    for (const auto &[q, w] : n.adjacent[p]) {
      if (stamp[q] == mark) {
        inside += w;
        if (p < q) {
          ++c.internal_edges;
          c.internal_weight += w;
        }
      } else {
        ++c.external_edges;
      }
    }
    order.emplace_back(inside, p);
  }
  std::sort(order.begin(), order.end(), [&](const auto &a, const auto &b) {
    if (a.first != b.first) return a.first > b.first;
    return g.external_id(n.nodes[a.second]) < g.external_id(n.nodes[b.second]);
  });
  for (const auto &[w, p] : order) c.members.push_back(g.node_id(n.nodes[p]));
  return c;
}

// Each cluster's enriched terms (lowest FDR first), or the reason none are given.
void add_terms(const KnowledgeGraph &kg, const ClusterOptions &o, ClusteringResult &r) {
  if (o.terms == 0) return;
  if (detail::annotations(kg)->row_node.empty()) {
    r.terms_note = "the database holds no annotations (import GO and the gene table, or STRING's functional annotations)";
    return;
  }
  EnrichmentOptions e;
  e.categories = o.categories;
  e.max_fdr = o.max_fdr;
  for (Cluster &c : r.clusters) {
    if (c.members.size() < std::max<std::size_t>(o.enrich_min_size, 1)) continue;
    c.terms = enrich(kg, c.members, e).terms;
    detail::keep_lowest_fdr(c.terms, o.terms);
  }
}

}  // namespace cluster_steps

std::vector<detail::NetworkEdge> detail::network_edges(const GraphSnapshot &g, const std::vector<uint32_t> &members,
                                                       const std::vector<char> &ok, float min_score) {
  std::vector<uint32_t> position(g.node_count(), UINT32_MAX);
  for (uint32_t p = 0; p < members.size(); ++p) position[members[p]] = p;
  std::vector<NetworkEdge> out;
  for (uint32_t p = 0; p < members.size(); ++p) {
    const GraphSnapshot::Adjacency adj = g.adjacency(members[p]);
    for (std::size_t k = 0; k < adj.size; ++k) {
      const uint32_t q = position[adj.neighbor[k]];
      // (each pair from its lower end; both ends list an edge, whatever its direction)
      if (q == UINT32_MAX || q <= p || !ok[adj.relation[k]] || adj.score[k] < min_score) continue;
      out.push_back({p, q, adj.score[k], static_cast<int32_t>(adj.relation[k]), adj.edge[k]});
    }
  }
  std::sort(out.begin(), out.end(), [](const NetworkEdge &x, const NetworkEdge &y) {
    if (x.a != y.a) return x.a < y.a;
    if (x.b != y.b) return x.b < y.b;
    if (x.score != y.score) return x.score > y.score;
    return x.edge < y.edge;
  });
  out.erase(std::unique(out.begin(), out.end(), [](const NetworkEdge &x, const NetworkEdge &y) { return x.a == y.a && x.b == y.b; }),
            out.end());
  return out;
}

double modularity(std::size_t nodes, const std::vector<std::pair<uint32_t, uint32_t>> &edges,
                  const std::vector<double> &weights, const std::vector<std::size_t> &membership, double resolution) {
  if (membership.size() != nodes || weights.size() != edges.size())
    throw Error(ErrorCode::invalid_argument, "modularity: membership and weights must match the nodes and edges");
  std::size_t clusters = 0;
  for (std::size_t c : membership) clusters = std::max(clusters, c + 1);
  std::vector<double> inside(clusters, 0.0), degree(clusters, 0.0);
  double total = 0;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const auto [a, b] = edges[e];
    if (a >= nodes || b >= nodes) throw Error(ErrorCode::invalid_argument, "modularity: an edge names a node past the graph");
    total += weights[e];
    degree[membership[a]] += weights[e];
    degree[membership[b]] += weights[e];
    if (membership[a] == membership[b]) inside[membership[a]] += weights[e];
  }
  if (total <= 0) return 0;
  double q = 0;
  for (std::size_t c = 0; c < clusters; ++c) q += inside[c] / total - resolution * (degree[c] / (2 * total)) * (degree[c] / (2 * total));
  return q;
}

ClusteringResult cluster(const KnowledgeGraph &kg, const std::vector<int64_t> &proteins, const ClusterOptions &o) {
  cluster_steps::check_options(o);
  const auto snapshot = kg.snapshot();
  const GraphSnapshot &g = *snapshot;
  std::vector<uint32_t> members;
  for (int64_t id : proteins) {
    const auto ix = g.index_of(id);
    if (!ix) throw Error(ErrorCode::not_found, "cluster: node " + std::to_string(id) + " is not in the graph");
    if (std::find(members.begin(), members.end(), *ix) == members.end()) members.push_back(*ix);
  }
  const cluster_steps::Network n = cluster_steps::network_of(g, std::move(members), o);
  if (proteins.empty() && n.graph.edges.empty())
    throw Error(ErrorCode::invalid_argument, "cluster: the network has no edge at score >= " + std::to_string(o.min_score));
  ClusteringResult r;
  r.method = o.method;
  r.min_score = o.min_score;
  r.edges = n.graph.edges.size();
  for (uint32_t ix : n.nodes) r.nodes.push_back(g.node_id(ix));
  std::vector<uint32_t> all(n.nodes.size());
  for (uint32_t p = 0; p < all.size(); ++p) all[p] = p;
  const std::vector<std::size_t> top = cluster_steps::partition(n.graph, o, &r);
  r.modularity = modularity(n.graph.nodes, n.graph.edges, n.graph.weights, top, 1.0);
  // Level by level: each level's clusters in order, those above the size bound split below.
  std::vector<uint32_t> stamp(n.nodes.size(), UINT32_MAX);
  std::deque<std::pair<std::vector<uint32_t>, long>> todo;  // (positions, parent)
  for (auto &grp : cluster_steps::groups_of(top, all, g, n)) todo.emplace_back(std::move(grp), -1);
  std::vector<std::vector<uint32_t>> positions;
  while (!todo.empty()) {
    auto [grp, parent] = std::move(todo.front());
    todo.pop_front();
    Cluster c = cluster_steps::make_cluster(n, g, grp, stamp, static_cast<uint32_t>(r.clusters.size()));
    c.id = r.clusters.size();
    c.parent = parent;
    c.level = parent < 0 ? 0 : r.clusters[static_cast<std::size_t>(parent)].level + 1;
    if (parent >= 0) r.clusters[static_cast<std::size_t>(parent)].children.push_back(c.id);
    r.levels = std::max(r.levels, c.level + 1);
    if (o.max_cluster_size > 0 && grp.size() > o.max_cluster_size && c.level < o.max_levels) {
      const std::vector<std::size_t> below = cluster_steps::partition(cluster_steps::induced(n, grp), o, nullptr);
      if (std::any_of(below.begin(), below.end(), [](std::size_t x) { return x != 0; }))
        for (auto &sub : cluster_steps::groups_of(below, grp, g, n)) todo.emplace_back(std::move(sub), static_cast<long>(c.id));
    }
    r.clusters.push_back(std::move(c));
  }
  cluster_steps::add_terms(kg, o, r);
  return r;
}

ClusteringResult cluster_names(const KnowledgeGraph &kg, const std::vector<std::string> &names, const ClusterOptions &o) {
  if (names.empty()) return cluster(kg, {}, o);
  std::vector<std::pair<std::string, std::string>> unmatched;
  const std::vector<int64_t> ids = detail::link_names(kg, names, unmatched, "cluster");
  ClusteringResult r = cluster(kg, ids, o);
  r.unmatched = std::move(unmatched);
  return r;
}

const char *to_string(ClusterMethod m) noexcept {
  switch (m) {
    case ClusterMethod::mcl: return "mcl";
    case ClusterMethod::leiden_modularity: return "leiden";
    case ClusterMethod::leiden_cpm: return "cpm";
  }
  return "mcl";
}

ClusterMethod cluster_method(const std::string &name) {
  if (name == "mcl") return ClusterMethod::mcl;
  if (name == "leiden" || name == "leiden-modularity" || name == "modularity") return ClusterMethod::leiden_modularity;
  if (name == "cpm" || name == "leiden-cpm") return ClusterMethod::leiden_cpm;
  throw Error(ErrorCode::invalid_argument, "cluster: unknown method '" + name + "' (mcl, leiden, cpm)");
}

nlohmann::json to_json(const KnowledgeGraph &kg, const ClusteringResult &r) {
  const auto snapshot = kg.snapshot();
  const auto ext = [&](int64_t id) {
    const auto ix = snapshot->index_of(id);
    return ix ? snapshot->external_id(*ix) : std::to_string(id);
  };
  const auto name = [&](int64_t id) {
    const auto ix = snapshot->index_of(id);
    return ix ? snapshot->name(*ix) : std::to_string(id);
  };
  nlohmann::json clusters = nlohmann::json::array(), unmatched = nlohmann::json::array();
  for (const Cluster &c : r.clusters) {
    nlohmann::json members = nlohmann::json::array(), names = nlohmann::json::array(), terms = nlohmann::json::array();
    for (int64_t id : c.members) {
      members.push_back(ext(id));
      names.push_back(name(id));
    }
    for (const EnrichedTerm &t : c.terms) {
      nlohmann::json proteins = nlohmann::json::array();
      for (int64_t id : t.proteins) proteins.push_back(ext(id));
      terms.push_back({{"term", t.term}, {"name", t.name}, {"category", t.category}, {"observed", t.observed},
                       {"background", t.background}, {"fdr", t.fdr}, {"strength", t.strength}, {"proteins", proteins}});
    }
    clusters.push_back({{"id", c.id}, {"level", c.level}, {"parent", c.parent < 0 ? nlohmann::json(nullptr) : nlohmann::json(c.parent)},
                        {"children", c.children}, {"size", c.members.size()}, {"members", members}, {"names", names},
                        {"internal_edges", c.internal_edges}, {"external_edges", c.external_edges},
                        {"internal_weight", std::round(c.internal_weight * 1e6) / 1e6}, {"terms", terms}});
  }
  for (const auto &[n, reason] : r.unmatched) unmatched.push_back({{"name", n}, {"reason", reason}});
  return {{"method", to_string(r.method)}, {"min_score", r.min_score},   {"nodes", r.nodes.size()},
          {"edges", r.edges},              {"modularity", r.modularity}, {"quality", r.quality},
          {"levels", r.levels},            {"iterations", r.iterations}, {"converged", r.converged},
          {"terms_note", r.terms_note},    {"unmatched", unmatched},     {"clusters", clusters}};
}

}  // namespace grappi
