// The k shortest simple paths between two nodes (Yen's algorithm with Lawler's refinement), by
// hops or by the sum of -log(score), with at most max_length edges.
//
// Every spur search is guided and pruned by distances to the target computed once on the whole
// filtered graph (hops by breadth-first search, weights by Dijkstra): a spur graph only lacks
// nodes and edges, so these distances are lower bounds there - an admissible A* heuristic, and
// a node whose hops so far plus its hop distance exceed the budget is never expanded. A loose
// max_length therefore costs nothing: the budget only bites where it binds. In weighted mode
// the spur search first ignores the budget; only when its best path is too long does an exact
// search over (node, hops) states run, still pruned by both bounds.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <queue>
#include <set>
#include <tuple>
#include <unordered_map>

#include "grappi/error.hpp"
#include "grappi/retriever.hpp"
#include "retrieval/retrieval_common.hpp"

namespace grappi {

using detail::Filter;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();

double edge_cost(bool weighted, float score) {
  return weighted ? -std::log(std::max(static_cast<double>(score), 1e-12)) : 1.0;
}

// Hop distances from `from` over the filtered graph without the banned nodes (none: null) and,
// with skip_direct, without the edges joining s and t.
std::vector<uint32_t> hops_from(const GraphSnapshot &g, const Filter &f, uint32_t from, const std::vector<char> *banned = nullptr,
                                uint32_t s = 0, uint32_t t = 0, bool skip_direct = false) {
  std::vector<uint32_t> d(g.node_count(), kUnreached), queue{from};
  d[from] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const uint32_t u = queue[head];
    const auto a = g.adjacency(u);
    for (std::size_t i = 0; i < a.size; ++i) {
      const uint32_t v = a.neighbor[i];
      if (v == u || d[v] != kUnreached || (banned && (*banned)[v]) || !f.pass(a, i)) continue;
      if (skip_direct && ((u == s && v == t) || (u == t && v == s))) continue;
      d[v] = d[u] + 1;
      queue.push_back(v);
    }
  }
  return d;
}

class PathSearch {
 public:
  PathSearch(const GraphSnapshot &g, const Filter &f, bool weighted, uint32_t target)
      : g_(g), f_(f), weighted_(weighted), t_(target), n_(g.node_count()) {
    banned_.assign(n_, 0);
    dist_.assign(n_, kInf);
    pred_.assign(n_, 0);
    hops_.assign(n_, 0);
    stamp_.assign(n_, 0);
    distances_to_target();
  }

  std::size_t hops_to_target(uint32_t v) const { return hop_to_t_[v]; }

  void ban_node(uint32_t v) { banned_[v] = 1; }
  void unban_node(uint32_t v) { banned_[v] = 0; }
  void ban_edge(uint32_t a, uint32_t b) { banned_edges_.emplace_back(std::min(a, b), std::max(a, b)); }
  void clear_banned_edges() { banned_edges_.clear(); }
  /// A pair of nodes whose edges are never followed (kept through clear_banned_edges).
  void ban_pair_always(uint32_t a, uint32_t b) { always_banned_ = {std::min(a, b), std::max(a, b)}; }

  /// The cheapest path from s to the target with at most `budget` edges avoiding the banned
  /// nodes and node pairs (s itself is allowed), or nullopt.
  std::optional<std::vector<uint32_t>> shortest(uint32_t s, std::size_t budget) {
    if (hop_to_t_[s] == kUnreached || hop_to_t_[s] > budget) return std::nullopt;
    if (s == t_) return std::vector<uint32_t>{s};
    auto p = weighted_ ? astar(s, budget) : hop_astar(s, budget);
    if (p && p->size() - 1 > budget) p = constrained(s, budget);
    return p;
  }

 private:
  bool passes(uint32_t u, const GraphSnapshot::Adjacency &a, std::size_t i) const {
    const uint32_t v = a.neighbor[i];
    if (v == u || banned_[v] || !f_.pass(a, i)) return false;
    if (always_banned_ && *always_banned_ == std::make_pair(std::min(u, v), std::max(u, v))) return false;
    if (!banned_edges_.empty()) {
      const std::pair<uint32_t, uint32_t> key{std::min(u, v), std::max(u, v)};
      for (const auto &b : banned_edges_)
        if (b == key) return false;
    }
    return true;
  }

  // Hop and weight distances from every node to the target on the whole filtered graph.
  void distances_to_target() {
    hop_to_t_ = hops_from(g_, f_, t_);
    if (!weighted_) return;
    w_to_t_.assign(n_, kInf);
    using Item = std::pair<double, uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
    w_to_t_[t_] = 0;
    pq.push({0.0, t_});
    while (!pq.empty()) {
      const auto [d, u] = pq.top();
      pq.pop();
      if (d > w_to_t_[u]) continue;
      const auto a = g_.adjacency(u);
      for (std::size_t i = 0; i < a.size; ++i) {
        const uint32_t v = a.neighbor[i];
        if (v == u || !f_.pass(a, i)) continue;
        const double nd = d + edge_cost(true, a.score[i]);
        if (nd < w_to_t_[v]) {
          w_to_t_[v] = nd;
          pq.push({nd, v});
        }
      }
    }
  }

  // Per-search node state without clearing n entries each time.
  bool fresh(uint32_t v) const { return stamp_[v] != search_; }
  void touch(uint32_t v) {
    stamp_[v] = search_;
    dist_[v] = kInf;
  }
  std::vector<uint32_t> trace(uint32_t s) const {
    std::vector<uint32_t> p{t_};
    for (uint32_t x = t_; x != s;) p.push_back(x = pred_[x]);
    std::reverse(p.begin(), p.end());
    return p;
  }

  // Hops: A* by hop count with the hop distance to the target as heuristic, in buckets of
  // f = hops + distance (nodes that cannot reach the target within the budget never enter).
  // Within a bucket the deepest node goes first (last in, first out), so where the spur graph
  // still has a path as short as the heuristic says, the search walks straight down it.
  std::optional<std::vector<uint32_t>> hop_astar(uint32_t s, std::size_t budget) {
    ++search_;
    if (buckets_.size() < budget + 1) buckets_.resize(budget + 1);
    for (auto &b : buckets_) b.clear();
    touch(s);
    hops_[s] = 0;
    buckets_[hop_to_t_[s]].push_back({s, 0});
    for (std::size_t f = hop_to_t_[s]; f <= budget; ++f) {
      auto &bucket = buckets_[f];
      while (!bucket.empty()) {
        const auto [u, gu] = bucket.back();
        bucket.pop_back();
        if (gu != hops_[u]) continue;  // reached again with fewer hops since
        const auto a = g_.adjacency(u);
        const uint32_t h = gu + 1;
        for (std::size_t i = 0; i < a.size; ++i) {
          const uint32_t v = a.neighbor[i];
          if (!fresh(v) && hops_[v] <= h) continue;
          const uint32_t d = hop_to_t_[v];
          if (d == kUnreached || h + d > budget || !passes(u, a, i)) continue;
          touch(v);
          hops_[v] = h;
          pred_[v] = u;
          if (v == t_) return trace(s);  // f(t) = h = f: no path is shorter
          buckets_[h + d].push_back({v, h});
        }
      }
    }
    return std::nullopt;
  }

  // Weights: A* from s with the distance to the target as heuristic (the budget is checked by
  // the caller).
  std::optional<std::vector<uint32_t>> astar(uint32_t s, std::size_t budget) {
    ++search_;
    using Item = std::tuple<double, double, uint32_t>;  // (f, g, node): ties to the nearer node
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
    touch(s);
    dist_[s] = 0;
    hops_[s] = 0;
    pq.push({w_to_t_[s], 0.0, s});
    while (!pq.empty()) {
      const auto [fv, gv, u] = pq.top();
      pq.pop();
      if (gv > dist_[u]) continue;
      if (u == t_) return trace(s);
      const auto a = g_.adjacency(u);
      for (std::size_t i = 0; i < a.size; ++i) {
        const uint32_t v = a.neighbor[i];
        if (!passes(u, a, i) || w_to_t_[v] == kInf) continue;
        if (hop_to_t_[v] > budget) continue;  // cannot be on any path within the budget
        if (fresh(v)) touch(v);
        const double nd = gv + edge_cost(true, a.score[i]);
        if (nd < dist_[v]) {
          dist_[v] = nd;
          pred_[v] = u;
          hops_[v] = hops_[u] + 1;
          pq.push({nd + w_to_t_[v], nd, v});
        }
      }
    }
    return std::nullopt;
  }

  // The exact search under the budget: A* over (node, hops) states, a state kept only when no
  // state of its node with no more hops is at least as cheap.
  std::optional<std::vector<uint32_t>> constrained(uint32_t s, std::size_t budget) {
    struct Label {
      double g;
      uint32_t node, hops;
      int32_t parent;  // label index
    };
    std::vector<Label> labels{{0.0, s, 0, -1}};
    std::unordered_map<uint32_t, std::vector<int32_t>> kept;  // node -> its labels
    kept[s].push_back(0);
    using Item = std::tuple<double, double, int32_t>;  // (f, g, label)
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
    pq.push({w_to_t_[s], 0.0, 0});
    std::vector<char> dead(1, 0);
    while (!pq.empty()) {
      const auto [fv, gv, li] = pq.top();
      pq.pop();
      if (dead[static_cast<std::size_t>(li)]) continue;
      const Label cur = labels[static_cast<std::size_t>(li)];
      if (cur.node == t_) {
        std::vector<uint32_t> p;
        for (int32_t x = li; x >= 0; x = labels[static_cast<std::size_t>(x)].parent) p.push_back(labels[static_cast<std::size_t>(x)].node);
        std::reverse(p.begin(), p.end());
        return simple(p);
      }
      const auto a = g_.adjacency(cur.node);
      for (std::size_t i = 0; i < a.size; ++i) {
        const uint32_t v = a.neighbor[i];
        if (!passes(cur.node, a, i) || w_to_t_[v] == kInf) continue;
        const uint32_t h = cur.hops + 1;
        if (h + hop_to_t_[v] > budget) continue;
        const double nd = gv + edge_cost(true, a.score[i]);
        auto &mine = kept[v];
        bool dominated = false;
        for (int32_t o : mine) {
          const Label &x = labels[static_cast<std::size_t>(o)];
          if (!dead[static_cast<std::size_t>(o)] && x.hops <= h && x.g <= nd) dominated = true;
        }
        if (dominated) continue;
        for (int32_t o : mine) {
          const Label &x = labels[static_cast<std::size_t>(o)];
          if (x.hops >= h && x.g >= nd) dead[static_cast<std::size_t>(o)] = 1;
        }
        labels.push_back({nd, v, h, li});
        dead.push_back(0);
        const auto idx = static_cast<int32_t>(labels.size() - 1);
        mine.push_back(idx);
        pq.push({nd + w_to_t_[v], nd, idx});
      }
    }
    return std::nullopt;
  }

  // A walk made simple: a repeated node's loop cut out (no heavier and with fewer edges, since
  // no edge weighs less than zero).
  static std::vector<uint32_t> simple(const std::vector<uint32_t> &walk) {
    std::vector<uint32_t> out;
    for (uint32_t v : walk) {
      auto it = std::find(out.begin(), out.end(), v);
      if (it != out.end()) out.erase(it + 1, out.end());
      else out.push_back(v);
    }
    return out;
  }

  const GraphSnapshot &g_;
  const Filter &f_;
  const bool weighted_;
  const uint32_t t_;
  const std::size_t n_;
  std::vector<uint32_t> hop_to_t_;
  std::vector<double> w_to_t_;
  std::vector<char> banned_;
  std::optional<std::pair<uint32_t, uint32_t>> always_banned_;
  std::vector<std::pair<uint32_t, uint32_t>> banned_edges_;
  std::vector<double> dist_;
  std::vector<uint32_t> pred_, hops_, stamp_;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> buckets_;  // hop search: (node, hops) by f
  uint32_t search_ = 0;
};

// The path of a node sequence: the best-scoring edge passing the filter between each pair.
Path to_path(const GraphSnapshot &g, const Filter &f, bool weighted, const std::vector<uint32_t> &nodes) {
  Path p;
  for (uint32_t v : nodes) p.nodes.push_back(g.node_id(v));
  for (std::size_t i = 0; i + 1 < nodes.size(); ++i) {
    const auto a = g.adjacency(nodes[i]);
    const uint32_t *lo = std::lower_bound(a.neighbor, a.neighbor + a.size, nodes[i + 1]);
    std::size_t bi = a.size;
    for (const uint32_t *q = lo; q != a.neighbor + a.size && *q == nodes[i + 1]; ++q) {
      const auto k = static_cast<std::size_t>(q - a.neighbor);
      if (f.pass(a, k) && (bi == a.size || a.score[k] > a.score[bi])) bi = k;
    }
    p.edges.push_back(a.edge[bi]);
    p.scores.push_back(detail::decimal(a.score[bi]));
    p.weight += edge_cost(weighted, a.score[bi]);
  }
  return p;
}

}  // namespace

// The bounds of a search (docs/cli.md "Limits"): beyond them Yen's enumeration would run for hours.
constexpr std::size_t kMaxPaths = 10000;
constexpr std::size_t kMaxPathLength = 100;

namespace {

void check_path_options(const ShortestPathOptions &o) {
  if (o.k == 0 || o.k > kMaxPaths)
    throw Error(ErrorCode::invalid_argument, "paths: k must be 1 to " + std::to_string(kMaxPaths) + ", not " + std::to_string(o.k));
  if (o.max_length == 0 || o.max_length > kMaxPathLength)
    throw Error(ErrorCode::invalid_argument, "paths: the maximum length must be 1 to " + std::to_string(kMaxPathLength) +
                                                 " edges, not " + std::to_string(o.max_length));
}

}  // namespace

std::vector<Path> Retriever::all_shortest_paths(int64_t from, int64_t to, const ShortestPathOptions &o) const {
  const GraphSnapshot &g = *graph_;
  const uint32_t s = detail::index_or_throw(g, from, "paths"), t = detail::index_or_throw(g, to, "paths");
  if (s == t) throw Error(ErrorCode::invalid_argument, "paths: the two proteins are the same node");
  check_path_options(o);
  if (o.weighted) throw Error(ErrorCode::invalid_argument, "paths: every shortest path is by hops (weighted must be false)");
  const Filter f(g, o.filter, "paths");
  std::vector<char> banned(g.node_count(), 0);
  for (int64_t id : o.avoid)
    if (const auto v = g.index_of(id); v && *v != s && *v != t) banned[*v] = 1;
  const std::vector<uint32_t> ds = hops_from(g, f, s, &banned, s, t, o.skip_direct),
                              dt = hops_from(g, f, t, &banned, s, t, o.skip_direct);
  std::vector<Path> out;
  const uint32_t length = ds[t];
  if (length == kUnreached || length > o.max_length) return out;
  // Depth-first from s through the nodes on a shortest path (ds + dt == length), each step one
  // hop nearer t; neighbours in adjacency order (by position), each once.
  std::vector<uint32_t> nodes{s};
  std::vector<std::size_t> next{0};  // per depth: the adjacency entry to try next
  while (!nodes.empty() && out.size() < o.k) {
    if (o.cancel && o.cancel()) break;
    const uint32_t u = nodes.back();
    if (u == t) {
      out.push_back(to_path(g, f, false, nodes));
      nodes.pop_back(), next.pop_back();
      continue;
    }
    const auto a = g.adjacency(u);
    std::size_t i = next.back();
    bool pushed = false;
    for (; i < a.size && !pushed; ++i) {
      const uint32_t v = a.neighbor[i];
      if (v == u || banned[v] || !f.pass(a, i) || ds[v] != ds[u] + 1 || dt[v] == kUnreached || ds[v] + dt[v] != length)
        continue;
      if (o.skip_direct && u == s && v == t) continue;
      // (a neighbour joined by several edges is one step: the first passing entry of its run)
      bool earlier = false;
      for (std::size_t j = i; j > 0 && a.neighbor[j - 1] == v && !earlier; --j) earlier = f.pass(a, j - 1);
      if (!earlier) pushed = true, next.back() = i + 1, nodes.push_back(v), next.push_back(0);
    }
    if (!pushed) nodes.pop_back(), next.pop_back();
  }
  return out;
}

std::vector<Path> Retriever::shortest_paths(int64_t from, int64_t to, const ShortestPathOptions &o) const {
  const GraphSnapshot &g = *graph_;
  const uint32_t s = detail::index_or_throw(g, from, "paths"), t = detail::index_or_throw(g, to, "paths");
  if (s == t) throw Error(ErrorCode::invalid_argument, "paths: the two proteins are the same node");
  check_path_options(o);
  const Filter f(g, o.filter, "paths");
  PathSearch search(g, f, o.weighted, t);
  for (int64_t id : o.avoid)
    if (const auto v = g.index_of(id); v && *v != s && *v != t) search.ban_node(*v);
  if (o.skip_direct) search.ban_pair_always(s, t);
  std::vector<Path> out;
  auto first = search.shortest(s, o.max_length);
  if (!first) return out;
  // Yen: A holds the paths found (with the position where each left its parent: Lawler's
  // refinement spurs only from there on), B the candidates by (weight, edges, insertion order).
  struct Found {
    std::vector<uint32_t> nodes;
    std::size_t deviation;
  };
  std::vector<Found> A{{*first, 0}};
  std::set<std::tuple<double, std::size_t, std::size_t>> B;
  std::vector<Found> candidates;
  std::set<std::vector<uint32_t>> seen{*first};
  while (A.size() < o.k) {
    const Found prev = A.back();
    for (std::size_t i = prev.deviation; i + 1 < prev.nodes.size(); ++i) {
      if (i >= o.max_length) break;
      const uint32_t spur = prev.nodes[i];
      if (search.hops_to_target(spur) > o.max_length - i) continue;
      if (o.cancel && o.cancel()) {
        B.clear();
        break;
      }
      search.clear_banned_edges();
      for (const auto &p : A)
        if (p.nodes.size() > i + 1 &&
            std::equal(prev.nodes.begin(), prev.nodes.begin() + static_cast<std::ptrdiff_t>(i + 1), p.nodes.begin()))
          search.ban_edge(p.nodes[i], p.nodes[i + 1]);
      for (std::size_t j = 0; j < i; ++j) search.ban_node(prev.nodes[j]);
      auto spur_path = search.shortest(spur, o.max_length - i);
      for (std::size_t j = 0; j < i; ++j) search.unban_node(prev.nodes[j]);
      if (!spur_path) continue;
      std::vector<uint32_t> total(prev.nodes.begin(), prev.nodes.begin() + static_cast<std::ptrdiff_t>(i));
      total.insert(total.end(), spur_path->begin(), spur_path->end());
      if (!seen.insert(total).second) continue;
      const double weight = to_path(g, f, o.weighted, total).weight;
      B.insert({weight, total.size(), candidates.size()});
      candidates.push_back({std::move(total), i});
    }
    if (B.empty()) break;
    const auto best = *B.begin();
    B.erase(B.begin());
    A.push_back(candidates[std::get<2>(best)]);
  }
  for (const auto &p : A) out.push_back(to_path(g, f, o.weighted, p.nodes));
  return out;
}

}  // namespace grappi
