// Prize-collecting Steiner forest: Goemans-Williamson moat growing with edge parts in pairing
// heaps (one per cluster, melded on merge), moat sums by path compression over the merge tree,
// then none / simple / GW / strong pruning. Written from the algorithm's description.
#include "grappi/pcst.hpp"

#include <algorithm>
#include <limits>
#include <functional>
#include <cctype>
#include <charconv>
#include <cmath>
#include <queue>
#include <string>

#include "grappi/error.hpp"
#include "text_reader.hpp"

namespace grappi {

Pruning pruning_from_name(std::string_view name) {
  std::string s(name);
  for (auto &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "none") return Pruning::none;
  if (s == "simple") return Pruning::simple;
  if (s == "gw") return Pruning::gw;
  if (s == "strong") return Pruning::strong;
  throw Error(ErrorCode::invalid_argument, "unknown pruning '" + std::string(name) + "' (none, simple, gw or strong)");
}

const char *to_string(Pruning p) noexcept {
  switch (p) {
    case Pruning::none: return "none";
    case Pruning::simple: return "simple";
    case Pruning::gw: return "gw";
    case Pruning::strong: return "strong";
  }
  return "unknown";
}

namespace {
constexpr double kEps = 1e-9;  // an edge whose remaining slack is at most this is tight
}

struct PCSTSolver::Impl {
  // ---- input ----
  std::size_t n = 0, m = 0;
  const double *prize = nullptr;
  const int64_t *ends = nullptr;
  const double *cost = nullptr;

  // ---- clusters (n leaves, then one per merge) ----
  std::vector<int32_t> parent, jump, child_a, child_b;
  std::vector<double> jsum, moat, start, prize_sum, inner;
  std::vector<char> active, has_root, necessary;
  std::vector<int32_t> heap_root;
  std::vector<uint32_t> stamp;
  int64_t active_count = 0;

  // ---- edge parts: part 2e sits at endpoint 0 of edge e, 2e+1 at endpoint 1 ----
  std::vector<double> key;
  std::vector<int32_t> h_child, h_next, h_prev;  // pairing heap links; h_prev = -2: not in a heap
  // ---- events ----
  struct Event {
    double time;
    int kind;  // 0: cluster deactivation, 1: edge event (ties: deactivations first)
    int32_t cluster;
    uint32_t stamp;
    bool operator>(const Event &o) const {
      if (time != o.time) return time > o.time;
      if (kind != o.kind) return kind > o.kind;
      return cluster > o.cluster;
    }
  };
  // Edge events (the key of a cluster's heap root; stale once the cluster's stamp moves on) and
  // deactivation events (pushed once per active cluster: its deactivation time only changes by
  // merging, which makes a new cluster). Ties: deactivations first, then by cluster index.
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events, deacts;
  // ---- phase 1 result ----
  struct Merge {
    int32_t edge, inactive_cluster, active_node, inactive_node;
  };
  std::vector<Merge> merges;
  std::vector<int32_t> stack;

  // ---- pairing heap over parts ----
  int32_t meld(int32_t a, int32_t b) {
    if (a < 0) return b;
    if (b < 0) return a;
    if (key[b] < key[a] || (key[b] == key[a] && b < a)) std::swap(a, b);
    // b becomes the first child of a
    h_next[b] = h_child[a];
    if (h_child[a] >= 0) h_prev[h_child[a]] = b;
    h_prev[b] = a;
    h_child[a] = b;
    return a;
  }
  int32_t pop(int32_t root) {
    // two-pass pairing of root's children
    int32_t c = h_child[root];
    h_child[root] = -1;
    h_prev[root] = -2;
    h_next[root] = -1;
    stack.clear();
    while (c >= 0) {
      int32_t a = c, b = h_next[a];
      int32_t nxt = b >= 0 ? h_next[b] : -1;
      h_next[a] = -1;
      h_prev[a] = -1;
      if (b >= 0) {
        h_next[b] = -1;
        h_prev[b] = -1;
      }
      stack.push_back(meld(a, b));
      c = nxt;
    }
    int32_t r = -1;
    while (!stack.empty()) {
      r = meld(stack.back(), r);
      stack.pop_back();
    }
    if (r >= 0) h_prev[r] = -1;
    return r;
  }
  // Lowers key[p] inside the heap whose root is `root`; returns the new root.
  int32_t decrease(int32_t root, int32_t p, double k) {
    key[p] = k;
    if (p == root) return root;
    // cut p (with its subtree) out
    int32_t pr = h_prev[p];
    if (h_child[pr] == p) h_child[pr] = h_next[p];
    else h_next[pr] = h_next[p];
    if (h_next[p] >= 0) h_prev[h_next[p]] = pr;
    h_next[p] = -1;
    h_prev[p] = -1;
    int32_t r = meld(root, p);
    h_prev[r] = -1;
    return r;
  }

  // Top cluster of c and the sum of the (final) moats strictly below it on c's path.
  std::pair<int32_t, double> find(int32_t c) {
    double sum = 0;
    int32_t x = c;
    stack.clear();
    while (jump[x] >= 0) {
      stack.push_back(x);
      sum += jsum[x];
      x = jump[x];
    }
    // path compression: every node on the path jumps straight to the top
    double acc = sum;
    for (int32_t y : stack) {
      const double own = jsum[y];
      jsum[y] = acc;
      jump[y] = x;
      acc -= own;
    }
    return {x, sum};
  }
  double current_moat(int32_t c, double t) const { return moat[c] + (active[c] ? t - start[c] : 0.0); }

  void push_edge_event(int32_t c) {
    ++stamp[c];
    if (active[c] && heap_root[c] >= 0) events.push({key[heap_root[c]], 1, c, stamp[c]});
  }
  void push_deactivation(int32_t c) {
    if (active[c]) deacts.push({start[c] + std::max(0.0, prize_sum[c] - inner[c] - moat[c]), 0, c, 0});
  }

  int32_t new_cluster() {
    parent.push_back(-1);
    jump.push_back(-1);
    child_a.push_back(-1);
    child_b.push_back(-1);
    jsum.push_back(0);
    moat.push_back(0);
    start.push_back(0);
    prize_sum.push_back(0);
    inner.push_back(0);
    active.push_back(0);
    has_root.push_back(0);
    necessary.push_back(0);
    heap_root.push_back(-1);
    stamp.push_back(0);
    return static_cast<int32_t>(parent.size() - 1);
  }

  void deactivate(int32_t c, double t) {
    moat[c] += t - start[c];
    active[c] = 0;
    --active_count;
    ++stamp[c];
  }

  void merge(int32_t a, int32_t b, int32_t e, double t, int32_t node_a, int32_t node_b) {
    Merge rec{e, -1, -1, -1};
    if (active[a] && !active[b]) rec = {e, b, node_a, node_b};
    if (!active[a] && active[b]) rec = {e, a, node_b, node_a};
    for (int32_t x : {a, b})
      if (active[x]) deactivate(x, t);
    const int32_t c = new_cluster();
    prize_sum[c] = prize_sum[a] + prize_sum[b];
    inner[c] = inner[a] + moat[a] + inner[b] + moat[b];
    has_root[c] = has_root[a] || has_root[b];
    child_a[c] = a;
    child_b[c] = b;
    for (int32_t x : {a, b}) {
      parent[x] = c;
      jump[x] = c;
      jsum[x] = moat[x];
    }
    heap_root[c] = meld(heap_root[a], heap_root[b]);
    heap_root[a] = heap_root[b] = -1;
    merges.push_back(rec);
    if (!has_root[c]) {
      active[c] = 1;
      ++active_count;
      start[c] = t;
    }
    push_edge_event(c);
    push_deactivation(c);
  }

  void grow(int64_t root, int64_t target) {
    for (std::size_t i = 0; i < n; ++i) {
      const int32_t c = new_cluster();
      prize_sum[c] = prize[i];
      if (static_cast<int64_t>(i) == root) {
        has_root[c] = 1;
      } else {
        active[c] = 1;
        ++active_count;
      }
    }
    key.assign(2 * m, 0.0);
    h_child.assign(2 * m, -1);
    h_next.assign(2 * m, -1);
    h_prev.assign(2 * m, -2);
    for (std::size_t e = 0; e < m; ++e) {
      const int64_t u = ends[2 * e], v = ends[2 * e + 1];
      if (u == v) continue;  // a self-loop never connects anything
      const bool au = active[static_cast<std::size_t>(u)], av = active[static_cast<std::size_t>(v)];
      const double k = (au && av) ? cost[e] / 2 : cost[e];
      for (int side = 0; side < 2; ++side) {
        const int32_t p = static_cast<int32_t>(2 * e + static_cast<std::size_t>(side));
        const int32_t c = static_cast<int32_t>(side ? v : u);
        key[p] = k;
        h_prev[p] = -1;
        heap_root[c] = meld(heap_root[c], p);
        h_prev[heap_root[c]] = -1;
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      push_edge_event(static_cast<int32_t>(i));
      push_deactivation(static_cast<int32_t>(i));
    }
    while (active_count > target) {
      while (!deacts.empty() && (!active[deacts.top().cluster] || parent[deacts.top().cluster] >= 0)) deacts.pop();
      while (!events.empty()) {
        const Event &top = events.top();
        if (top.stamp == stamp[top.cluster] && active[top.cluster] && parent[top.cluster] < 0) break;
        events.pop();
      }
      if (deacts.empty() && events.empty()) break;
      if (!deacts.empty() && (events.empty() || deacts.top().time <= events.top().time)) {
        const Event ev = deacts.top();
        deacts.pop();
        deactivate(ev.cluster, ev.time);
        continue;
      }
      const Event ev = events.top();
      events.pop();
      const int32_t c = ev.cluster;
      const double t = ev.time;
      const int32_t p = heap_root[c];
      if (p < 0 || key[p] != t) continue;
      heap_root[c] = pop(p);
      const int32_t e = p / 2, q = p ^ 1;
      const int32_t nu = static_cast<int32_t>(ends[2 * e + (p & 1)]);
      const int32_t nv = static_cast<int32_t>(ends[2 * e + (q & 1)]);
      auto [cu, su] = find(nu);
      auto [cv, sv] = find(nv);
      if (cu == cv) {  // already joined: discard this part (its twin is dropped when popped)
        push_edge_event(c);
        continue;
      }
      const double rem = cost[e] - su - current_moat(cu, t) - sv - current_moat(cv, t);
      if (rem <= kEps * std::max(1.0, cost[e])) {
        // Take the twin part out of the other heap before the heaps are melded.
        if (h_prev[q] != -2) {
          if (heap_root[cv] == q) {
            heap_root[cv] = pop(q);
          } else {
            heap_root[cv] = decrease(heap_root[cv], q, -1.0);
            heap_root[cv] = pop(heap_root[cv]);
          }
        }
        merge(cu, cv, e, t, nu, nv);
        continue;
      }
      const double k = active[cv] ? t + rem / 2 : t + rem;
      key[p] = k;
      h_prev[p] = -1;
      heap_root[c] = meld(heap_root[c], p);
      h_prev[heap_root[c]] = -1;
      if (active[cv] && h_prev[q] != -2 && key[q] > k) {
        heap_root[cv] = decrease(heap_root[cv], q, k);
        push_edge_event(cv);
      }
      push_edge_event(c);
    }
  }

  // All leaves (nodes) under cluster c.
  template <class F>
  void leaves(int32_t c, F &&f) {
    stack.clear();
    stack.push_back(c);
    while (!stack.empty()) {
      int32_t x = stack.back();
      stack.pop_back();
      if (x < static_cast<int32_t>(n)) {
        f(x);
      } else {
        stack.push_back(child_a[x]);
        stack.push_back(child_b[x]);
      }
    }
  }

  void mark_necessary(int32_t node) {
    for (int32_t x = node; x >= 0 && !necessary[x]; x = parent[x]) necessary[x] = 1;
  }

  PcstResult run(int64_t root, int num_clusters, Pruning pruning, bool improve);
  void strong_prune(int64_t root, std::vector<char> &keep_node, std::vector<char> &keep_edge);
  int improve(int64_t root, std::vector<char> &keep_node, std::vector<char> &keep_edge);
  double objective_of(const std::vector<char> &keep_node, const std::vector<char> &keep_edge) const {
    double left = 0, paid = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (!keep_node[i]) left += prize[i];
    for (std::size_t e = 0; e < m; ++e)
      if (keep_edge[e]) paid += cost[e];
    return left + paid;
  }
};

int PCSTSolver::Impl::improve(int64_t root, std::vector<char> &keep_node, std::vector<char> &keep_edge) {
  // Full adjacency (CSR) of the instance.
  std::vector<int32_t> off(n + 1, 0), adj_e(2 * m);
  for (std::size_t e = 0; e < m; ++e) {
    ++off[static_cast<std::size_t>(ends[2 * e]) + 1];
    ++off[static_cast<std::size_t>(ends[2 * e + 1]) + 1];
  }
  for (std::size_t i = 0; i < n; ++i) off[i + 1] += off[i];
  {
    std::vector<int32_t> fill(off.begin(), off.end() - 1);
    for (std::size_t e = 0; e < m; ++e) {
      adj_e[static_cast<std::size_t>(fill[static_cast<std::size_t>(ends[2 * e])]++)] = static_cast<int32_t>(e);
      adj_e[static_cast<std::size_t>(fill[static_cast<std::size_t>(ends[2 * e + 1])]++)] = static_cast<int32_t>(e);
    }
  }
  auto other = [&](int32_t e, int32_t v) { return static_cast<int32_t>(ends[2 * e] == v ? ends[2 * e + 1] : ends[2 * e]); };
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
  std::vector<char> best_node = keep_node, best_edge = keep_edge;
  int rounds = 0;
  for (int round = 0; round < 16; ++round) {
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
    if (obj < best - 1e-12 * std::max(1.0, std::abs(best))) {
      best = obj;
      best_node = keep_node;
      best_edge = keep_edge;
      ++rounds;
    } else {
      break;
    }
  }
  keep_node.swap(best_node);
  keep_edge.swap(best_edge);
  return rounds;
}

void PCSTSolver::Impl::strong_prune(int64_t root, std::vector<char> &keep_node, std::vector<char> &keep_edge) {
  // Adjacency of the kept forest.
  std::vector<int32_t> deg(n + 1, 0);
  for (std::size_t e = 0; e < m; ++e)
    if (keep_edge[e]) {
      ++deg[static_cast<std::size_t>(ends[2 * e]) + 1];
      ++deg[static_cast<std::size_t>(ends[2 * e + 1]) + 1];
    }
  for (std::size_t i = 0; i < n; ++i) deg[i + 1] += deg[i];
  std::vector<int32_t> adj(static_cast<std::size_t>(deg[n])), fill(deg.begin(), deg.end() - 1);
  for (std::size_t e = 0; e < m; ++e)
    if (keep_edge[e]) {
      adj[static_cast<std::size_t>(fill[static_cast<std::size_t>(ends[2 * e])]++)] = static_cast<int32_t>(e);
      adj[static_cast<std::size_t>(fill[static_cast<std::size_t>(ends[2 * e + 1])]++)] = static_cast<int32_t>(e);
    }
  auto other = [&](int32_t e, int32_t v) { return static_cast<int32_t>(ends[2 * e] == v ? ends[2 * e + 1] : ends[2 * e]); };
  std::vector<int32_t> order, par(n, -1), par_edge(n, -1);
  std::vector<double> down(n, 0), full(n, 0);
  std::vector<char> seen(n, 0);
  std::vector<char> out_node(n, 0), out_edge(m, 0);
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
    std::vector<int32_t> comp = order;
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

PcstResult PCSTSolver::Impl::run(int64_t root, int num_clusters, Pruning pruning, bool improve_after) {
  // reset
  for (auto *v : {&parent, &jump, &child_a, &child_b, &heap_root}) v->clear();
  for (auto *v : {&jsum, &moat, &start, &prize_sum, &inner}) v->clear();
  for (auto *v : {&active, &has_root, &necessary}) v->clear();
  stamp.clear();
  merges.clear();
  events = decltype(events)();
  deacts = decltype(deacts)();
  active_count = 0;
  grow(root, root >= 0 ? 0 : num_clusters);

  // Good nodes: in a cluster still active at the end, or in the root's cluster.
  std::vector<char> good(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int32_t top = find(static_cast<int32_t>(i)).first;
    good[i] = active[static_cast<std::size_t>(top)] || has_root[static_cast<std::size_t>(top)];
  }
  std::vector<char> keep_node(n, 0), keep_edge(m, 0);
  if (pruning == Pruning::none) {
    keep_node = good;
    for (const Merge &mg : merges) {
      keep_edge[static_cast<std::size_t>(mg.edge)] = 1;
      keep_node[static_cast<std::size_t>(ends[2 * mg.edge])] = 1;
      keep_node[static_cast<std::size_t>(ends[2 * mg.edge + 1])] = 1;
    }
  } else {
    keep_node = good;
    for (const Merge &mg : merges)
      if (good[static_cast<std::size_t>(ends[2 * mg.edge])] && good[static_cast<std::size_t>(ends[2 * mg.edge + 1])])
        keep_edge[static_cast<std::size_t>(mg.edge)] = 1;
    if (pruning == Pruning::gw) {
      // Backwards over the merges: a subtree that was an inactive cluster when it was joined
      // stays only if something joined later needs it.
      if (root >= 0) mark_necessary(static_cast<int32_t>(root));
      std::vector<char> deleted(n, 0);
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
        if (keep_edge[e] && (deleted[static_cast<std::size_t>(ends[2 * e])] || deleted[static_cast<std::size_t>(ends[2 * e + 1])]))
          keep_edge[e] = 0;
    } else if (pruning == Pruning::strong) {
      strong_prune(root, keep_node, keep_edge);
    }
  }
  PcstResult r;
  r.objective_before_improve = objective_of(keep_node, keep_edge);
  if (improve_after) r.improve_rounds = improve(root, keep_node, keep_edge);
  double total = 0, taken = 0, paid = 0;
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

PCSTSolver::PCSTSolver() : impl_(new Impl) {}
PCSTSolver::~PCSTSolver() { delete impl_; }

PcstResult PCSTSolver::solve(const std::vector<double> &prizes, const std::vector<std::pair<int64_t, int64_t>> &edges,
                             const std::vector<double> &costs, const PcstOptions &options) {
  if (edges.size() != costs.size())
    throw Error(ErrorCode::invalid_argument, "pcst: " + std::to_string(edges.size()) + " edges but " +
                                                 std::to_string(costs.size()) + " costs");
  std::vector<int64_t> flat;
  flat.reserve(edges.size() * 2);
  for (auto &e : edges) {
    flat.push_back(e.first);
    flat.push_back(e.second);
  }
  return solve(prizes.size(), prizes.data(), edges.size(), flat.data(), costs.data(), options);
}

PcstResult PCSTSolver::solve(std::size_t num_nodes, const double *prizes, std::size_t num_edges, const int64_t *edges,
                             const double *costs, const PcstOptions &o) {
  if (num_nodes > 0x3fffffff || num_edges > 0x3fffffff)
    throw Error(ErrorCode::invalid_argument, "pcst: at most 2^30 nodes and edges");
  if ((num_nodes && !prizes) || (num_edges && (!edges || !costs)))
    throw Error(ErrorCode::invalid_argument, "pcst: an input array is missing");
  for (std::size_t i = 0; i < num_nodes; ++i)
    if (!(prizes[i] >= 0) || !std::isfinite(prizes[i]))
      throw Error(ErrorCode::invalid_argument, "pcst: prize of node " + std::to_string(i) + " is " +
                                                   std::to_string(prizes[i]) + " (must be finite and >= 0)");
  for (std::size_t e = 0; e < num_edges; ++e) {
    if (!(costs[e] >= 0) || !std::isfinite(costs[e]))
      throw Error(ErrorCode::invalid_argument, "pcst: cost of edge " + std::to_string(e) + " is " +
                                                   std::to_string(costs[e]) + " (must be finite and >= 0)");
    for (int s = 0; s < 2; ++s)
      if (edges[2 * e + static_cast<std::size_t>(s)] < 0 ||
          static_cast<uint64_t>(edges[2 * e + static_cast<std::size_t>(s)]) >= num_nodes)
        throw Error(ErrorCode::invalid_argument, "pcst: edge " + std::to_string(e) + " has endpoint " +
                                                     std::to_string(edges[2 * e + static_cast<std::size_t>(s)]) +
                                                     ", outside 0.." + std::to_string(num_nodes) + "-1");
  }
  if (o.root < -1 || (o.root >= 0 && static_cast<uint64_t>(o.root) >= num_nodes))
    throw Error(ErrorCode::invalid_argument, "pcst: root " + std::to_string(o.root) + " is not -1 or a node");
  if (o.num_clusters < 1) throw Error(ErrorCode::invalid_argument, "pcst: num_clusters must be at least 1");
  if (o.root >= 0 && o.num_clusters != 1)
    throw Error(ErrorCode::invalid_argument, "pcst: a rooted problem has exactly one cluster (num_clusters " +
                                                 std::to_string(o.num_clusters) + ")");
  impl_->n = num_nodes;
  impl_->m = num_edges;
  impl_->prize = prizes;
  impl_->ends = edges;
  impl_->cost = costs;
  return impl_->run(o.root, o.num_clusters, o.pruning, o.improve);
}

PcstInstance read_pcst_instance(const std::string &path) {
  detail::LineReader r(path);
  std::string_view line;
  auto next = [&]() -> bool {
    while (r.next(line)) {
      std::size_t i = 0;
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i == line.size() || line[i] == '#') continue;
      line = line.substr(i);
      return true;
    }
    return false;
  };
  auto where = [&] { return path + ":" + std::to_string(r.line_number()) + ": "; };
  auto num = [&](std::string_view &s, double &v) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (res.ec != std::errc() || !std::isfinite(v)) return false;
    s.remove_prefix(static_cast<std::size_t>(res.ptr - s.data()));
    return true;
  };
  auto end_of = [](std::string_view s) {
    for (char c : s)
      if (c != ' ' && c != '\t') return false;
    return true;
  };
  if (!next()) throw Error(ErrorCode::parse, path + ": empty instance (expected 'n m')");
  double dn, dm;
  std::string_view s = line;
  if (!num(s, dn) || !num(s, dm) || !end_of(s) || dn < 0 || dm < 0 || dn != std::floor(dn) || dm != std::floor(dm) ||
      dn > 1e9 || dm > 1e9)
    throw Error(ErrorCode::parse, where() + "expected two non-negative integers 'n m'");
  PcstInstance inst;
  const auto n = static_cast<std::size_t>(dn), m = static_cast<std::size_t>(dm);
  inst.prizes.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!next()) throw Error(ErrorCode::parse, path + ": ends after " + std::to_string(i) + " of " + std::to_string(n) + " prizes");
    s = line;
    double p;
    if (!num(s, p) || !end_of(s)) throw Error(ErrorCode::parse, where() + "expected one prize");
    inst.prizes.push_back(p);
  }
  inst.edges.reserve(m);
  inst.costs.reserve(m);
  for (std::size_t e = 0; e < m; ++e) {
    if (!next()) throw Error(ErrorCode::parse, path + ": ends after " + std::to_string(e) + " of " + std::to_string(m) + " edges");
    s = line;
    double u, v, c;
    if (!num(s, u) || !num(s, v) || !num(s, c) || !end_of(s) || u != std::floor(u) || v != std::floor(v))
      throw Error(ErrorCode::parse, where() + "expected 'u v cost'");
    inst.edges.emplace_back(static_cast<int64_t>(u), static_cast<int64_t>(v));
    inst.costs.push_back(c);
  }
  if (next()) throw Error(ErrorCode::parse, where() + "unexpected data after the last edge");
  return inst;
}

}  // namespace grappi
