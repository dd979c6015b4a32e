// The PCST solver's optional improvement phase (PcstOptions::improve): local search after
// pruning - MST re-span, attachment of paths whose prizes exceed their costs, strong pruning, then
// the exchange moves (pcst_exchange.cpp) - kept only where it lowers the objective; for one tree
// over few prized nodes the exact search (pcst_exact.cpp) instead.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <queue>

#include "retrieval/pcst_impl.hpp"

namespace grappi {

int PCSTSolver::Impl::improve(int64_t root, int num_clusters, std::vector<char> &keep_node,
                              std::vector<char> &keep_edge) {
  // Full adjacency (CSR) of the instance, built once per solve (the second start searches again).
  detail::PcstView &view = adjacency;
  std::vector<int32_t> &off = view.off, &adj_e = view.adj_e;
  if (!adjacency_ready) {
    view.n = n, view.m = m, view.ends = ends, view.cost = cost, view.prize = prize;
    std::vector<int32_t> fill;
    detail::edge_csr(n, m, ends, nullptr, off, adj_e, fill);
    adjacency_ready = true;
  }
  auto other = [&](int32_t e, int32_t v) {
    return static_cast<int32_t>(ends[2 * e] == v ? ends[2 * e + 1] : ends[2 * e]);
  };
  std::vector<int32_t> comp(n), dsu(n), order_e, stack_v;
  std::vector<double> dist(n), gathered(n);
  std::vector<int32_t> pred(n);
  std::vector<char> added(n);
  std::function<int32_t(int32_t)> find_set = [&](int32_t x) {
    while (dsu[static_cast<std::size_t>(x)] != x) {
      dsu[static_cast<std::size_t>(x)] = dsu[static_cast<std::size_t>(dsu[static_cast<std::size_t>(x)])];
      x = dsu[static_cast<std::size_t>(x)];
    }
    return x;
  };
  double best = objective_of(keep_node, keep_edge);
  // 0. One tree over few prized nodes: the optimum itself.
  if (root >= 0 || num_clusters == 1) {
    std::vector<char> exact_node(n), exact_edge(m);
    double optimum = 0;
    if (detail::pcst_exact_few_prizes(view, root, exact_node, exact_edge, optimum)) {
      const double obj = objective_of(exact_node, exact_edge);
      proven_optimal = true;
      if (obj < best) {
        keep_node.swap(exact_node);
        keep_edge.swap(exact_edge);
        return 1;
      }
      return 0;
    }
  }
  std::vector<char> best_node = keep_node, best_edge = keep_edge;
  int rounds = 0;
  // The exchange moves' work, in adjacency entries scanned: a few hundred passes over the
  // instance at most (docs/retrieval.md states the cost).
  std::size_t budget = 256 * (n + 2 * m) + (std::size_t{1} << 20);
  const auto tolerance = [](double x) { return 1e-12 * std::max(1.0, std::abs(x)); };
  for (int outer = 0; outer < 256; ++outer) {
    for (int round = 0; round < 16; ++round) {
      // (the rounds after an exchange count against the same budget: a pass over the instance each)
      if (outer > 0) {
        if (budget == 0) break;
        budget -= std::min(budget, n + 2 * m);
      }
      // 1. Minimum spanning forest of each tree's nodes (edges inside one tree only).
      std::fill(comp.begin(), comp.end(), -1);
      for (std::size_t s0 = 0; s0 < n; ++s0) {
        if (!keep_node[s0] || comp[s0] >= 0) continue;
        stack_v.assign(1, static_cast<int32_t>(s0));
        comp[s0] = static_cast<int32_t>(s0);
        while (!stack_v.empty()) {
          int32_t v = stack_v.back();
          stack_v.pop_back();
          for (int32_t k = off[static_cast<std::size_t>(v)]; k < off[static_cast<std::size_t>(v) + 1]; ++k) {
            int32_t e = adj_e[static_cast<std::size_t>(k)], w = other(e, v);
            if (keep_edge[static_cast<std::size_t>(e)] && comp[static_cast<std::size_t>(w)] < 0) {
              comp[static_cast<std::size_t>(w)] = static_cast<int32_t>(s0);
              stack_v.push_back(w);
            }
          }
        }
      }
      order_e.clear();
      for (std::size_t e = 0; e < m; ++e) {
        const auto u = static_cast<std::size_t>(ends[2 * e]), v = static_cast<std::size_t>(ends[2 * e + 1]);
        if (u != v && keep_node[u] && keep_node[v] && comp[u] == comp[v]) order_e.push_back(static_cast<int32_t>(e));
      }
      std::stable_sort(order_e.begin(), order_e.end(), [&](int32_t a, int32_t b) { return cost[a] < cost[b]; });
      for (std::size_t i = 0; i < n; ++i) dsu[i] = static_cast<int32_t>(i);
      std::fill(keep_edge.begin(), keep_edge.end(), 0);
      for (int32_t e : order_e) {
        int32_t a = find_set(static_cast<int32_t>(ends[2 * e])), b = find_set(static_cast<int32_t>(ends[2 * e + 1]));
        if (a == b) continue;
        dsu[static_cast<std::size_t>(a)] = b;
        keep_edge[static_cast<std::size_t>(e)] = 1;
      }
      // 2. Attach outside paths worth more than they cost: Dijkstra by cost from every kept node
      // through outside nodes, tracking the prizes gathered on the way.
      double max_out = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (!keep_node[i]) max_out = std::max(max_out, prize[i]);
      std::fill(dist.begin(), dist.end(), std::numeric_limits<double>::infinity());
      std::fill(pred.begin(), pred.end(), -1);
      std::fill(added.begin(), added.end(), 0);
      using Item = std::pair<double, int32_t>;
      std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
      for (std::size_t i = 0; i < n; ++i)
        if (keep_node[i]) {
          dist[i] = 0;
          gathered[i] = 0;
          pq.push({0.0, static_cast<int32_t>(i)});
        }
      std::vector<std::pair<double, int32_t>> cands;
      while (!pq.empty()) {
        auto [d, v] = pq.top();
        pq.pop();
        const auto vi = static_cast<std::size_t>(v);
        if (d > dist[vi]) continue;
        if (!keep_node[vi]) {
          const double gain = gathered[vi] - d;
          if (gain > 1e-9) cands.push_back({gain, v});
          if (d - gathered[vi] > max_out) continue;  // no single prize further on can pay this back
        }
        for (int32_t k = off[vi]; k < off[vi + 1]; ++k) {
          const int32_t e = adj_e[static_cast<std::size_t>(k)], w = other(e, v);
          const auto wi = static_cast<std::size_t>(w);
          if (keep_node[wi]) continue;
          const double nd = d + cost[e];
          if (nd < dist[wi] - 1e-12) {
            dist[wi] = nd;
            gathered[wi] = gathered[vi] + prize[wi];
            pred[wi] = e;
            pq.push({nd, w});
          }
        }
      }
      std::stable_sort(cands.begin(), cands.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
      for (const auto &[gain, v] : cands) {
        // The path back to the forest must be untouched by this round's additions.
        bool clash = false;
        for (int32_t x = v; !keep_node[static_cast<std::size_t>(x)]; x = other(pred[static_cast<std::size_t>(x)], x))
          if (added[static_cast<std::size_t>(x)]) {
            clash = true;
            break;
          }
        if (clash) continue;
        for (int32_t x = v; !keep_node[static_cast<std::size_t>(x)];) {
          const int32_t e = pred[static_cast<std::size_t>(x)];
          added[static_cast<std::size_t>(x)] = 1;
          keep_edge[static_cast<std::size_t>(e)] = 1;
          x = other(e, x);
        }
      }
      for (std::size_t i = 0; i < n; ++i)
        if (added[i]) keep_node[i] = 1;
      // 3. Strong pruning.
      strong_prune(root, keep_node, keep_edge);
      const double obj = objective_of(keep_node, keep_edge);
      if (obj < best - tolerance(best)) {
        best = obj;
        best_node = keep_node;
        best_edge = keep_edge;
        ++rounds;
      } else {
        break;
      }
    }
    // 4. The exchange moves on the best selection so far, then its rounds again while they gain.
    keep_node = best_node;
    keep_edge = best_edge;
    // (on a forest of more than 50,000 nodes - dense prizes, where the moves found nothing on any
    // instance measured - they would cost seconds for nothing)
    if (budget == 0 || static_cast<std::size_t>(std::count(keep_node.begin(), keep_node.end(), 1)) > 50000) break;
    detail::pcst_key_path_exchange(view, root, keep_node, keep_edge, budget);
    detail::pcst_vertex_insertion(view, root, keep_node, keep_edge, budget);
    strong_prune(root, keep_node, keep_edge);
    const double obj = objective_of(keep_node, keep_edge);
    if (!(obj < best - tolerance(best))) break;
    best = obj;
    best_node = keep_node;
    best_edge = keep_edge;
    ++rounds;
  }
  keep_node.swap(best_node);
  keep_edge.swap(best_edge);
  return rounds;
}

}  // namespace grappi
