// Internal: the pieces the retrieval algorithms share (windows, paths, k-hop, PageRank): the
// compiled edge filter, distinct-neighbor candidates, and the window/subgraph edge form.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "grappi/error.hpp"
#include "grappi/retriever.hpp"
#include "grappi/snapshot.hpp"
#include "store/relation_filter.hpp"
#include "store/score.hpp"

namespace grappi::detail {

inline uint32_t index_or_throw(const GraphSnapshot &g, int64_t id, const char *what) {
  auto i = g.index_of(id);
  if (!i) throw Error(ErrorCode::not_found, std::string(what) + ": no node with id " + std::to_string(id) + " in the graph");
  return *i;
}

// Relation filter compiled to a mask over relation indices. No relation named: the network's
// (network_mask: a walk does not go from a protein into its GO terms).
struct Filter {
  std::vector<char> keep;  // empty: all
  float min_score = 0;
  /// what: the operation, for the error of an unknown relation or a score outside 0-1.
  Filter(const GraphSnapshot &g, const EdgeFilter &f, const char *what = "filter")
      : keep(f.relations.empty() ? network_mask(g) : relation_mask(g, f.relations, what)),
        min_score(static_cast<float>(f.min_score)) {
    check_min_score(f.min_score, what);
  }
  bool pass(const GraphSnapshot::Adjacency &a, std::size_t i) const {
    return a.score[i] >= min_score && (keep.empty() || keep[a.relation[i]]);
  }
  /// Whether some edge could fail it.
  bool active() const { return min_score > 0 || !keep.empty(); }
};

struct Cand {
  uint32_t node;
  float best;  // best edge score to it
};

// Distinct neighbors passing the filter, each once, with the best edge score.
inline void candidates(const GraphSnapshot &g, uint32_t u, const Filter &f, std::vector<Cand> &out) {
  out.clear();
  auto a = g.adjacency(u);
  for (std::size_t i = 0; i < a.size; ++i) {
    if (a.neighbor[i] == u || !f.pass(a, i)) continue;
    if (!out.empty() && out.back().node == a.neighbor[i]) {
      out.back().best = std::max(out.back().best, a.score[i]);
    } else {
      out.push_back({a.neighbor[i], a.score[i]});
    }
  }
}

inline WindowEdge edge_of(const GraphSnapshot &g, uint32_t u, const GraphSnapshot::Adjacency &a, std::size_t i) {
  WindowEdge e;
  e.edge = a.edge[i];
  e.relation = g.relation_name(a.relation[i]);
  e.score = decimal(a.score[i]);
  e.directed = a.direction[i] != static_cast<uint8_t>(Direction::undirected);
  const bool incoming = a.direction[i] == static_cast<uint8_t>(Direction::incoming);
  const int64_t self = g.node_id(u), other = g.node_id(a.neighbor[i]);
  e.source = incoming ? other : std::min(self, other);
  e.target = incoming ? self : std::max(self, other);
  if (a.direction[i] == static_cast<uint8_t>(Direction::outgoing)) {
    e.source = self;
    e.target = other;
  }
  return e;
}

// Every filtered edge among a node set, each once (taken at the endpoint listed first),
// ordered by edge id.
inline std::vector<WindowEdge> edges_among(const GraphSnapshot &g, const std::vector<uint32_t> &nodes, const Filter &f) {
  std::vector<int32_t> pos(g.node_count(), -1);
  for (std::size_t i = 0; i < nodes.size(); ++i) pos[nodes[i]] = static_cast<int32_t>(i);
  std::vector<WindowEdge> out;
  for (uint32_t u : nodes) {
    auto a = g.adjacency(u);
    const int32_t pu = pos[u];
    for (std::size_t i = 0; i < a.size; ++i) {
      const int32_t pv = pos[a.neighbor[i]];
      if (pv < 0 || pv < pu || (pv == pu && a.neighbor[i] != u) || !f.pass(a, i)) continue;
      out.push_back(edge_of(g, u, a, i));
    }
  }
  std::sort(out.begin(), out.end(), [](const WindowEdge &x, const WindowEdge &y) { return x.edge < y.edge; });
  return out;
}

}  // namespace grappi::detail
