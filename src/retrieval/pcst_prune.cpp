// The PCST solver's pruning phase (PCSTSolver::Impl::run after growth): the good nodes, then
// none / simple / gw / strong pruning, the optional improvement, and the result.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "retrieval/pcst_impl.hpp"

namespace grappi {

void PCSTSolver::Impl::strong_prune(int64_t root, std::vector<char> &keep_node, std::vector<char> &keep_edge) {
  auto &deg = sp_deg, &adj = sp_adj, &fill = sp_fill, &order = sp_order, &comp = sp_comp, &par = sp_par,
       &par_edge = sp_par_edge;
  auto &down = sp_down, &full = sp_full;
  auto &seen = sp_seen, &out_node = sp_out_node, &out_edge = sp_out_edge;
  // Adjacency of the kept forest.
  detail::edge_csr(n, m, ends, &keep_edge, deg, adj, fill);
  auto other = [&](int32_t e, int32_t v) {
    return static_cast<int32_t>(ends[2 * e] == v ? ends[2 * e + 1] : ends[2 * e]);
  };
  order.clear();
  par.assign(n, -1);
  par_edge.assign(n, -1);
  down.assign(n, 0);
  full.assign(n, 0);
  seen.assign(n, 0);
  out_node.assign(n, 0);
  out_edge.assign(m, 0);
  // DFS order of a tree from r (parents before children).
  auto tree_order = [&](int32_t r) {
    order.clear();
    order.push_back(r);
    par[static_cast<std::size_t>(r)] = -1;
    par_edge[static_cast<std::size_t>(r)] = -1;
    seen[static_cast<std::size_t>(r)] = 1;
    for (std::size_t i = 0; i < order.size(); ++i) {
      const int32_t v = order[i];
      for (int32_t k = deg[static_cast<std::size_t>(v)]; k < deg[static_cast<std::size_t>(v) + 1]; ++k) {
        const int32_t e = adj[static_cast<std::size_t>(k)], w = other(e, v);
        if (seen[static_cast<std::size_t>(w)]) continue;
        seen[static_cast<std::size_t>(w)] = 1;
        par[static_cast<std::size_t>(w)] = v;
        par_edge[static_cast<std::size_t>(w)] = e;
        order.push_back(w);
      }
    }
  };
  auto compute_down = [&] {
    for (std::size_t i = order.size(); i-- > 0;) {
      const auto v = static_cast<std::size_t>(order[i]);
      down[v] += prize[v];
      if (par[v] >= 0) {
        const double c = down[v] - cost[par_edge[v]];
        if (c > 0) down[static_cast<std::size_t>(par[v])] += c;
      }
    }
  };
  for (std::size_t s = 0; s < n; ++s) {
    if (!keep_node[s] || seen[s]) continue;
    // Root of this tree: the given root when it is here; else the node whose best subtree is
    // worth most (rerooting DP), ties to the smallest index.
    tree_order(static_cast<int32_t>(s));
    comp.assign(order.begin(), order.end());
    bool has_given_root = false;
    for (int32_t v : comp)
      if (v == root) has_given_root = true;
    for (int32_t v : comp) down[static_cast<std::size_t>(v)] = 0;
    compute_down();
    int32_t best = -1;
    if (has_given_root) {
      best = static_cast<int32_t>(root);
    } else {
      for (int32_t v : order) {
        const auto vi = static_cast<std::size_t>(v);
        if (par[vi] < 0) {
          full[vi] = down[vi];
        } else {
          const auto p = static_cast<std::size_t>(par[vi]);
          const double c = cost[par_edge[vi]];
          const double mine = std::max(0.0, down[vi] - c);
          const double rest = full[p] - mine;  // parent's best value without v's branch
          full[vi] = down[vi] + std::max(0.0, rest - c);
        }
      }
      for (int32_t v : comp)
        if (best < 0 || full[static_cast<std::size_t>(v)] > full[static_cast<std::size_t>(best)] + 1e-12 ||
            (std::abs(full[static_cast<std::size_t>(v)] - full[static_cast<std::size_t>(best)]) <= 1e-12 && v < best))
          best = v;
    }
    // Re-root at best and keep the branches of positive net worth.
    for (int32_t v : comp) seen[static_cast<std::size_t>(v)] = 0;
    tree_order(best);
    for (int32_t v : order) down[static_cast<std::size_t>(v)] = 0;
    compute_down();
    out_node[static_cast<std::size_t>(best)] = 1;
    for (int32_t v : order) {
      const auto vi = static_cast<std::size_t>(v);
      if (par[vi] < 0 || !out_node[static_cast<std::size_t>(par[vi])]) continue;
      if (down[vi] - cost[par_edge[vi]] > 0) {
        out_node[vi] = 1;
        out_edge[static_cast<std::size_t>(par_edge[vi])] = 1;
      }
    }
  }
  keep_node.swap(out_node);
  keep_edge.swap(out_edge);
}

// The local search from a second start: the other event order's growth, strongly pruned (a
// growth's ties decide which local optimum the search reaches: on kg_webqsp_topk the reference
// order's ends at 67, the fast order's at 65.5). The better of the two stays.
void PCSTSolver::Impl::second_start(int64_t root, int num_clusters, bool reference_order, std::vector<char> &keep_node,
                                    std::vector<char> &keep_edge, int &rounds) {
  PCSTSolver other;
  PcstOptions o;
  o.root = root;
  o.num_clusters = num_clusters;
  o.pruning = Pruning::strong;
  o.event_order = reference_order ? PcstEventOrder::fast : PcstEventOrder::reference;
  const PcstResult start = other.solve(n, prize, m, ends, cost, o);
  std::vector<char> node(n, 0), edge(m, 0);
  for (int64_t v : start.nodes) node[static_cast<std::size_t>(v)] = 1;
  for (int64_t e : start.edges) edge[static_cast<std::size_t>(e)] = 1;
  const int more = improve(root, num_clusters, node, edge);
  const double kept = objective_of(keep_node, keep_edge);
  if (objective_of(node, edge) < kept - 1e-12 * std::max(1.0, kept)) {
    keep_node.swap(node);
    keep_edge.swap(edge);
    rounds = more;
  }
}

PcstResult PCSTSolver::Impl::run(int64_t root, int num_clusters, Pruning pruning, bool improve_after,
                                 bool reference_order) {
  // reset
  cl.clear();
  up.clear();
  for (auto *v : {&parent, &child_a, &child_b}) v->clear();
  for (auto *v : {&prize_sum, &inner}) v->clear();
  for (auto *v : {&has_root, &necessary}) v->clear();
  bheap.clear();
  merges.clear();
  deacts.clear();
  active_count = 0;
  if (reference_order) grow_reference(root, root >= 0 ? 0 : num_clusters);
  else grow(root, root >= 0 ? 0 : num_clusters);
  if (cancelled || (can_cancel() && (*cancel)())) {
    PcstResult none;
    none.cancelled = true;
    return none;
  }

  // Good nodes: in a cluster still active at the end, or in the root's cluster.
  good.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int32_t top = find(static_cast<int32_t>(i)).first;
    good[i] = cl[static_cast<std::size_t>(top)].active || has_root[static_cast<std::size_t>(top)];
  }
  std::vector<char> &keep_node = sel_node, &keep_edge = sel_edge;
  keep_node = good;
  keep_edge.assign(m, 0);
  if (pruning == Pruning::none) {
    for (const Merge &mg : merges) {
      keep_edge[static_cast<std::size_t>(mg.edge)] = 1;
      keep_node[static_cast<std::size_t>(ends[2 * mg.edge])] = 1;
      keep_node[static_cast<std::size_t>(ends[2 * mg.edge + 1])] = 1;
    }
  } else {
    for (const Merge &mg : merges)
      if (good[static_cast<std::size_t>(ends[2 * mg.edge])] && good[static_cast<std::size_t>(ends[2 * mg.edge + 1])])
        keep_edge[static_cast<std::size_t>(mg.edge)] = 1;
    if (pruning == Pruning::gw) {
      // Backwards over the merges: a subtree that was an inactive cluster when it was joined
      // stays only if something joined later needs it.
      if (root >= 0) mark_necessary(static_cast<int32_t>(root));
      deleted.assign(n, 0);
      for (std::size_t i = merges.size(); i-- > 0;) {
        const Merge &mg = merges[i];
        const auto e = static_cast<std::size_t>(mg.edge);
        if (!keep_edge[e]) continue;
        const auto u = static_cast<int32_t>(ends[2 * e]), v = static_cast<int32_t>(ends[2 * e + 1]);
        if (deleted[static_cast<std::size_t>(u)] || deleted[static_cast<std::size_t>(v)]) {
          keep_edge[e] = 0;
          continue;
        }
        if (mg.inactive_cluster >= 0 && !necessary[static_cast<std::size_t>(mg.inactive_cluster)]) {
          keep_edge[e] = 0;
          leaves(mg.inactive_cluster, [&](int32_t x) { deleted[static_cast<std::size_t>(x)] = 1; });
          continue;
        }
        mark_necessary(u);
        mark_necessary(v);
      }
      for (std::size_t i = 0; i < n; ++i)
        if (deleted[i]) keep_node[i] = 0;
      for (std::size_t e = 0; e < m; ++e)
        if (keep_edge[e] &&
            (deleted[static_cast<std::size_t>(ends[2 * e])] || deleted[static_cast<std::size_t>(ends[2 * e + 1])]))
          keep_edge[e] = 0;
    } else if (pruning == Pruning::strong) {
      strong_prune(root, keep_node, keep_edge);
    }
  }
  PcstResult r;
  r.objective_before_improve = objective_of(keep_node, keep_edge);
  proven_optimal = false;
  adjacency_ready = false;
  if (improve_after) {
    r.improve_rounds = improve(root, num_clusters, keep_node, keep_edge);
    if (!proven_optimal) second_start(root, num_clusters, reference_order, keep_node, keep_edge, r.improve_rounds);
  }
  r.optimal = proven_optimal;
  double total = 0, taken = 0, paid = 0;
  r.nodes.reserve(static_cast<std::size_t>(std::count(keep_node.begin(), keep_node.end(), 1)));
  r.edges.reserve(static_cast<std::size_t>(std::count(keep_edge.begin(), keep_edge.end(), 1)));
  for (std::size_t i = 0; i < n; ++i) {
    total += prize[i];
    if (keep_node[i]) {
      r.nodes.push_back(static_cast<int64_t>(i));
      taken += prize[i];
    }
  }
  for (std::size_t e = 0; e < m; ++e)
    if (keep_edge[e]) {
      r.edges.push_back(static_cast<int64_t>(e));
      paid += cost[e];
    }
  r.objective = (total - taken) + paid;
  r.net_worth = taken - paid;
  return r;
}

}  // namespace grappi
