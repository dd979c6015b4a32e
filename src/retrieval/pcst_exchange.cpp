// The PCST improvement phase's exchange moves (pcst_improve.cpp calls them between its rounds):
// key-path exchange and Steiner-vertex insertion, the local searches of Steiner-tree heuristics
// (Voss 1992; Uchoa and Werneck 2010) carried over to prize-collecting trees. Each keeps the
// selection a forest of the same trees and never raises the objective.
#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

#include "retrieval/pcst_impl.hpp"

namespace grappi::detail {

namespace {

// The kept forest, rooted (at the solver's root in its tree, else at the tree's first node):
// parent edges, depths, preorder and each node's preorder interval.
struct Rooted {
  std::vector<int32_t> parent_edge, depth, tin, tout, order, tree, tdeg;
  // Returns its work: the nodes plus the adjacency entries of the forest's nodes scanned.
  std::size_t build(const PcstView &g, int64_t root, const std::vector<char> &keep_node,
                    const std::vector<char> &keep_edge) {
    std::size_t work = g.n + g.m;
    parent_edge.assign(g.n, -1);
    depth.assign(g.n, -1);
    tin.assign(g.n, -1);
    tout.assign(g.n, -1);
    tree.assign(g.n, -1);
    tdeg.assign(g.n, 0);
    order.clear();
    for (std::size_t e = 0; e < g.m; ++e)
      if (keep_edge[e])
        ++tdeg[static_cast<std::size_t>(g.ends[2 * e])], ++tdeg[static_cast<std::size_t>(g.ends[2 * e + 1])];
    std::vector<std::pair<int32_t, int32_t>> stack;  // (node, next adjacency slot)
    const auto start = [&](int32_t s) {
      depth[static_cast<std::size_t>(s)] = 0;
      tree[static_cast<std::size_t>(s)] = s;
      tin[static_cast<std::size_t>(s)] = static_cast<int32_t>(order.size());
      order.push_back(s);
      stack.assign(1, {s, g.off[static_cast<std::size_t>(s)]});
      while (!stack.empty()) {
        auto &[v, k] = stack.back();
        const auto vi = static_cast<std::size_t>(v);
        if (k == g.off[vi + 1]) {
          tout[vi] = static_cast<int32_t>(order.size());
          stack.pop_back();
          continue;
        }
        const int32_t e = g.adj_e[static_cast<std::size_t>(k++)];
        ++work;
        if (!keep_edge[static_cast<std::size_t>(e)] || e == parent_edge[vi]) continue;
        const int32_t w = g.other(e, v);
        const auto wi = static_cast<std::size_t>(w);
        if (depth[wi] >= 0) continue;  // (not a forest: left as it is)
        parent_edge[wi] = e;
        depth[wi] = depth[vi] + 1;
        tree[wi] = s;
        tin[wi] = static_cast<int32_t>(order.size());
        order.push_back(w);
        stack.push_back({w, g.off[wi]});
      }
    };
    if (root >= 0 && keep_node[static_cast<std::size_t>(root)]) start(static_cast<int32_t>(root));
    for (std::size_t i = 0; i < g.n; ++i)
      if (keep_node[i] && depth[i] < 0) start(static_cast<int32_t>(i));
    return work;
  }
  int32_t parent(const PcstView &g, int32_t v) const {
    const int32_t e = parent_edge[static_cast<std::size_t>(v)];
    return e < 0 ? -1 : g.other(e, v);
  }
  bool inside(int32_t v, int32_t z) const {  // v in z's subtree
    return tin[static_cast<std::size_t>(v)] >= tin[static_cast<std::size_t>(z)] &&
           tin[static_cast<std::size_t>(v)] < tout[static_cast<std::size_t>(z)];
  }
};

bool better(double gain, double scale) { return gain > 1e-9 * std::max(1.0, std::abs(scale)); }

}  // namespace

double pcst_key_path_exchange(const PcstView &g, int64_t root, std::vector<char> &keep_node,
                              std::vector<char> &keep_edge, std::size_t &budget) {
  Rooted r;
  std::vector<double> dist(g.n, std::numeric_limits<double>::infinity());
  std::vector<int32_t> pred(g.n, -1), touched, interior_mark(g.n, 0), path_edges, interior;
  int32_t stamp = 0;
  double gained = 0, scale = 0;
  for (std::size_t e = 0; e < g.m; ++e)
    if (keep_edge[e]) scale += g.cost[e];
  using Item = std::pair<double, int32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  bool changed = true;
  while (changed && budget > 0) {
    changed = false;
    budget -= std::min(budget, r.build(g, root, keep_node, keep_edge));
    // (a key node: the root, a tree's first node, a leaf or a branching, or one with a prize)
    const auto key = [&](int32_t v) {
      const auto vi = static_cast<std::size_t>(v);
      return v == root || r.parent_edge[vi] < 0 || r.tdeg[vi] != 2 || g.prize[vi] > 0;
    };
    // (after a change the forest is rooted again and the walk goes on from the same place: a pass
    // over every key path, then another while any changed)
    for (std::size_t at = 0; at < r.order.size() && budget > 0; ++at) {
      const int32_t z = r.order[at];
      if (!key(z) || r.parent_edge[static_cast<std::size_t>(z)] < 0) continue;
      // The key path from z up to the next key node: its edges, cost and interior nodes.
      ++stamp;
      path_edges.clear();
      interior.clear();
      double c = 0;
      int32_t x = z;
      do {
        const int32_t e = r.parent_edge[static_cast<std::size_t>(x)];
        path_edges.push_back(e);
        c += g.cost[e];
        x = g.other(e, x);
        if (!key(x)) interior_mark[static_cast<std::size_t>(x)] = stamp, interior.push_back(x);
      } while (!key(x));
      // The cheapest way between the two sides the path's removal leaves (z's subtree, and the
      // rest of its tree but the path's interior) through nodes not kept (or that interior),
      // cheaper than the path: Dijkstra from the smaller side.
      for (int32_t v : touched) dist[static_cast<std::size_t>(v)] = std::numeric_limits<double>::infinity();
      touched.clear();
      while (!pq.empty()) pq.pop();
      const auto zi = static_cast<std::size_t>(z);
      const auto si = static_cast<std::size_t>(r.tree[zi]);
      const bool from_subtree = 2 * (r.tout[zi] - r.tin[zi]) <= r.tout[si] - r.tin[si];
      const auto source = [&](int32_t v) {
        dist[static_cast<std::size_t>(v)] = 0;
        pred[static_cast<std::size_t>(v)] = -1;
        touched.push_back(v);
        pq.push({0.0, v});
      };
      if (from_subtree) {
        for (int32_t i = r.tin[zi]; i < r.tout[zi]; ++i) source(r.order[static_cast<std::size_t>(i)]);
      } else {
        for (int32_t i = r.tin[si]; i < r.tout[si]; ++i) {
          if (i == r.tin[zi]) i = r.tout[zi];
          if (i >= r.tout[si]) break;
          const int32_t v = r.order[static_cast<std::size_t>(i)];
          if (interior_mark[static_cast<std::size_t>(v)] != stamp) source(v);
        }
      }
      budget -= std::min(budget, touched.size());
      // (the other side: kept, of this tree, not the path's interior)
      const auto across = [&](int32_t v) {
        const auto vi = static_cast<std::size_t>(v);
        return keep_node[vi] && interior_mark[vi] != stamp && r.tree[vi] == r.tree[zi] &&
               r.inside(v, z) != from_subtree;
      };
      int32_t hit = -1;
      while (!pq.empty() && budget > 0) {
        const auto [d, v] = pq.top();
        pq.pop();
        const auto vi = static_cast<std::size_t>(v);
        if (d > dist[vi]) continue;
        if (across(v)) {
          hit = v;
          break;
        }
        budget -= std::min<std::size_t>(budget, static_cast<std::size_t>(g.off[vi + 1] - g.off[vi]));
        for (int32_t k = g.off[vi]; k < g.off[vi + 1]; ++k) {
          const int32_t e = g.adj_e[static_cast<std::size_t>(k)], w = g.other(e, v);
          const auto wi = static_cast<std::size_t>(w);
          if (w == v) continue;
          if (keep_node[wi] && interior_mark[wi] != stamp && !across(w)) continue;
          const double nd = d + g.cost[e];
          if (nd >= c || nd >= dist[wi]) continue;
          if (std::isinf(dist[wi])) touched.push_back(w);
          dist[wi] = nd;
          pred[wi] = e;
          pq.push({nd, w});
        }
      }
      if (hit < 0) continue;
      // The gain: the path's cost less the new one's, plus the prizes the new one takes in.
      double gain = c - dist[static_cast<std::size_t>(hit)];
      for (int32_t v = hit; pred[static_cast<std::size_t>(v)] >= 0;) {
        v = g.other(pred[static_cast<std::size_t>(v)], v);
        if (!keep_node[static_cast<std::size_t>(v)]) gain += g.prize[static_cast<std::size_t>(v)];
      }
      if (!better(gain, scale)) continue;
      for (int32_t e : path_edges) keep_edge[static_cast<std::size_t>(e)] = 0;
      for (int32_t v : interior) keep_node[static_cast<std::size_t>(v)] = 0;
      for (int32_t v = hit; pred[static_cast<std::size_t>(v)] >= 0;) {
        const int32_t e = pred[static_cast<std::size_t>(v)];
        keep_edge[static_cast<std::size_t>(e)] = 1;
        keep_node[static_cast<std::size_t>(v)] = 1;
        v = g.other(e, v);
        keep_node[static_cast<std::size_t>(v)] = 1;
      }
      gained += gain;
      changed = true;
      budget -= std::min(budget, r.build(g, root, keep_node, keep_edge));
    }
  }
  return gained;
}

double pcst_vertex_insertion(const PcstView &g, int64_t root, std::vector<char> &keep_node,
                             std::vector<char> &keep_edge, std::size_t &budget) {
  Rooted r;
  budget -= std::min(budget, r.build(g, root, keep_node, keep_edge));
  double gained = 0, scale = 0;
  for (std::size_t e = 0; e < g.m; ++e)
    if (keep_edge[e]) scale += g.cost[e];
  struct Link {
    double cost;
    int32_t node, edge;
  };
  std::vector<Link> links;
  // The most expensive edge on the tree path between a and b (same tree).
  const auto path_max = [&](int32_t a, int32_t b) {
    std::pair<double, int32_t> best{-1.0, -1};
    while (a != b) {
      int32_t &lower = r.depth[static_cast<std::size_t>(a)] >= r.depth[static_cast<std::size_t>(b)] ? a : b;
      const int32_t e = r.parent_edge[static_cast<std::size_t>(lower)];
      if (e < 0) return std::pair<double, int32_t>{-1.0, -1};
      if (g.cost[e] > best.first) best = {g.cost[e], e};
      lower = g.other(e, lower);
      if (budget) --budget;
    }
    return best;
  };
  for (std::size_t v = 0; v < g.n && budget > 0; ++v) {
    if (keep_node[v]) continue;
    links.clear();
    for (int32_t k = g.off[v]; k < g.off[v + 1]; ++k) {
      const int32_t e = g.adj_e[static_cast<std::size_t>(k)], u = g.other(e, static_cast<int32_t>(v));
      if (u != static_cast<int32_t>(v) && keep_node[static_cast<std::size_t>(u)]) links.push_back({g.cost[e], u, e});
    }
    if (links.size() < 2) continue;
    constexpr std::size_t kMost = 16;  // the cheapest links only
    if (links.size() > kMost) {
      std::nth_element(links.begin(), links.begin() + kMost, links.end(),
                       [](const Link &x, const Link &y) { return x.cost < y.cost; });
      links.resize(kMost);
    }
    // v joined to two nodes of one tree by its edges, the costliest edge between them let go.
    double best_gain = 0;
    int32_t bi = -1, bj = -1, drop = -1;
    for (std::size_t i = 0; i < links.size(); ++i)
      for (std::size_t j = i + 1; j < links.size(); ++j) {
        const Link &a = links[i], &b = links[j];
        if (a.node == b.node || r.tree[static_cast<std::size_t>(a.node)] != r.tree[static_cast<std::size_t>(b.node)])
          continue;
        const auto [worst, e] = path_max(a.node, b.node);
        if (e < 0) continue;
        const double gain = worst - a.cost - b.cost + g.prize[v];
        if (gain > best_gain) best_gain = gain, bi = static_cast<int32_t>(i), bj = static_cast<int32_t>(j), drop = e;
      }
    if (drop < 0 || !better(best_gain, scale)) continue;
    keep_node[v] = 1;
    keep_edge[static_cast<std::size_t>(links[static_cast<std::size_t>(bi)].edge)] = 1;
    keep_edge[static_cast<std::size_t>(links[static_cast<std::size_t>(bj)].edge)] = 1;
    keep_edge[static_cast<std::size_t>(drop)] = 0;
    gained += best_gain;
    budget -= std::min(budget, r.build(g, root, keep_node, keep_edge));
  }
  return gained;
}

}  // namespace grappi::detail
