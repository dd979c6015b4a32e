// The PCST improvement phase's exact search for instances with few prized nodes (G-Retriever's
// question graphs: a handful of prized nodes and edges): the Dreyfus-Wagner recursion (Dreyfus and
// Wagner 1971) gives the cheapest tree joining every subset of the prized nodes (with the root,
// when there is one); the optimum is the subset whose tree costs least beside the prizes it leaves
// out.
#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

#include "retrieval/pcst_impl.hpp"

namespace grappi::detail {

bool pcst_exact_few_prizes(const PcstView &g, int64_t root, std::vector<char> &keep_node, std::vector<char> &keep_edge,
                           double &objective) {
  std::vector<int32_t> terminals;
  for (std::size_t v = 0; v < g.n; ++v)
    if (g.prize[v] > 0 || static_cast<int64_t>(v) == root) terminals.push_back(static_cast<int32_t>(v));
  const std::size_t k = terminals.size();
  if (k == 0) {  // (no prize anywhere: nothing is the optimum)
    std::fill(keep_node.begin(), keep_node.end(), 0);
    std::fill(keep_edge.begin(), keep_edge.end(), 0);
    objective = 0;
    return true;
  }
  if (k > kPcstExactTerminals || (std::size_t{1} << k) * g.n > kPcstExactCells) return false;
  const std::size_t subsets = std::size_t{1} << k, n = g.n;
  const double inf = std::numeric_limits<double>::infinity();
  // dp[S * n + v]: the cheapest tree holding the terminals of S and v. back: how it was made
  // (>= 0: the edge it was reached by; -1: v is S's one terminal; <= -2: the union of S1 and S - S1
  // at v, S1 = -2 - back).
  std::vector<double> dp(subsets * n, inf);
  std::vector<int32_t> back(subsets * n, -1);
  using Item = std::pair<double, int32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  for (std::size_t s = 1; s < subsets; ++s) {
    double *d = &dp[s * n];
    int32_t *b = &back[s * n];
    if ((s & (s - 1)) == 0) {
      const auto t = static_cast<std::size_t>(terminals[static_cast<std::size_t>(__builtin_ctzll(s))]);
      d[t] = 0;
      b[t] = -1;
    } else {
      const std::size_t low = s & (~s + 1);
      for (std::size_t s1 = (s - 1) & s; s1 > 0; s1 = (s1 - 1) & s) {
        if (!(s1 & low)) continue;  // (each split once)
        const double *d1 = &dp[s1 * n], *d2 = &dp[(s ^ s1) * n];
        for (std::size_t v = 0; v < n; ++v) {
          const double x = d1[v] + d2[v];
          if (x < d[v]) d[v] = x, b[v] = -2 - static_cast<int32_t>(s1);
        }
      }
    }
    for (std::size_t v = 0; v < n; ++v)
      if (d[v] < inf) pq.push({d[v], static_cast<int32_t>(v)});
    while (!pq.empty()) {
      const auto [x, v] = pq.top();
      pq.pop();
      const auto vi = static_cast<std::size_t>(v);
      if (x > d[vi]) continue;
      for (int32_t a = g.off[vi]; a < g.off[vi + 1]; ++a) {
        const int32_t e = g.adj_e[static_cast<std::size_t>(a)], w = g.other(e, v);
        const auto wi = static_cast<std::size_t>(w);
        const double y = x + g.cost[e];
        if (y < d[wi]) d[wi] = y, b[wi] = e, pq.push({y, w});
      }
    }
  }
  // The best subset: its tree and the prizes it leaves out.
  double total = 0;
  for (std::size_t v = 0; v < n; ++v) total += g.prize[v];
  std::size_t root_bit = 0;
  for (std::size_t i = 0; i < k; ++i)
    if (terminals[i] == root) root_bit = std::size_t{1} << i;
  double best = root >= 0 ? inf : total;  // (unrooted: nothing at all)
  std::size_t best_s = 0;
  for (std::size_t s = 1; s < subsets; ++s) {
    if (root_bit && !(s & root_bit)) continue;
    double taken = 0;
    for (std::size_t i = 0; i < k; ++i)
      if (s >> i & 1) taken += g.prize[static_cast<std::size_t>(terminals[i])];
    const auto t = static_cast<std::size_t>(terminals[static_cast<std::size_t>(__builtin_ctzll(s))]);
    const double x = dp[s * n + t] + total - taken;
    if (x < best) best = x, best_s = s;
  }
  std::fill(keep_node.begin(), keep_node.end(), 0);
  std::fill(keep_edge.begin(), keep_edge.end(), 0);
  objective = best;
  if (best_s == 0) return true;
  // Its tree: the recursion's choices replayed (an edge met twice is taken once; a cycle, which
  // costs no less than the tree, is broken).
  std::vector<std::pair<std::size_t, int32_t>> stack = {
      {best_s, terminals[static_cast<std::size_t>(__builtin_ctzll(best_s))]}};
  std::vector<int32_t> taken_edges;
  while (!stack.empty()) {
    const auto [s, v] = stack.back();
    stack.pop_back();
    keep_node[static_cast<std::size_t>(v)] = 1;
    const int32_t b = back[s * n + static_cast<std::size_t>(v)];
    if (b == -1) continue;
    if (b >= 0) {
      taken_edges.push_back(b);
      stack.push_back({s, g.other(b, v)});
    } else {
      const auto s1 = static_cast<std::size_t>(-2 - b);
      stack.push_back({s1, v});
      stack.push_back({s ^ s1, v});
    }
  }
  std::vector<int32_t> dsu(n);
  for (std::size_t v = 0; v < n; ++v) dsu[v] = static_cast<int32_t>(v);
  const auto find = [&](int32_t x) {
    while (dsu[static_cast<std::size_t>(x)] != x)
      x = dsu[static_cast<std::size_t>(x)] = dsu[static_cast<std::size_t>(dsu[static_cast<std::size_t>(x)])];
    return x;
  };
  for (int32_t e : taken_edges) {
    const auto ei = static_cast<std::size_t>(e);
    const int32_t a = find(static_cast<int32_t>(g.ends[2 * ei])), c = find(static_cast<int32_t>(g.ends[2 * ei + 1]));
    if (a == c || keep_edge[ei]) continue;
    dsu[static_cast<std::size_t>(a)] = c;
    keep_edge[ei] = 1;
  }
  return true;
}

}  // namespace grappi::detail
