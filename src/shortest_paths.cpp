// The k shortest simple paths between two nodes (Yen's algorithm), by hops or by -log(score).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

#include "grappi/error.hpp"
#include "grappi/retriever.hpp"
#include "retrieval_common.hpp"

namespace grappi {

using detail::Filter;

namespace {

struct SearchCtx {
  const GraphSnapshot &g;
  const Filter &f;
  bool weighted;
};

double hop_cost(const SearchCtx &c, float score) {
  return c.weighted ? -std::log(std::max(static_cast<double>(score), 1e-12)) : 1.0;
}

// Cheapest path s -> t with at most max_hops edges avoiding banned nodes and node pairs; nodes
// as snapshot indices. Layered relaxation (exact for hop limits, non-negative weights).
std::optional<std::vector<uint32_t>> constrained_shortest(const SearchCtx &c, uint32_t s, uint32_t t, std::size_t max_hops,
                                                          const std::vector<char> &banned_node,
                                                          const std::set<std::pair<uint32_t, uint32_t>> &banned_pair) {
  if (s == t) return std::vector<uint32_t>{s};
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::unordered_map<uint32_t, std::pair<double, uint32_t>>> layer(max_hops + 1);  // node -> (dist, pred)
  layer[0][s] = {0.0, s};
  std::vector<uint32_t> frontier{s}, next;
  for (std::size_t h = 0; h < max_hops && !frontier.empty(); ++h) {
    next.clear();
    std::sort(frontier.begin(), frontier.end());
    for (uint32_t v : frontier) {
      const double dv = layer[h][v].first;
      if (v == t) continue;
      auto a = c.g.adjacency(v);
      for (std::size_t i = 0; i < a.size; ++i) {
        const uint32_t w = a.neighbor[i];
        if (w == v || !c.f.pass(a, i) || banned_node[w]) continue;
        if (banned_pair.count({std::min(v, w), std::max(v, w)})) continue;
        const double nd = dv + hop_cost(c, a.score[i]);
        auto it = layer[h + 1].find(w);
        if (it == layer[h + 1].end()) {
          layer[h + 1].emplace(w, std::make_pair(nd, v));
          next.push_back(w);
        } else if (nd < it->second.first) {
          it->second = {nd, v};
        }
      }
    }
    std::swap(frontier, next);
  }
  std::size_t best_h = 0;
  double best = inf;
  for (std::size_t h = 1; h <= max_hops; ++h) {
    auto it = layer[h].find(t);
    if (it != layer[h].end() && it->second.first < best) {
      best = it->second.first;
      best_h = h;
    }
  }
  if (best == inf) return std::nullopt;
  std::vector<uint32_t> path{t};
  uint32_t cur = t;
  for (std::size_t h = best_h; h > 0; --h) {
    cur = layer[h][cur].second;
    path.push_back(cur);
  }
  std::reverse(path.begin(), path.end());
  std::vector<uint32_t> sorted = path;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return std::nullopt;  // not simple
  return path;
}

Path to_path(const SearchCtx &c, const std::vector<uint32_t> &nodes) {
  Path p;
  for (uint32_t v : nodes) p.nodes.push_back(c.g.node_id(v));
  for (std::size_t i = 0; i + 1 < nodes.size(); ++i) {
    auto a = c.g.adjacency(nodes[i]);
    const uint32_t *lo = std::lower_bound(a.neighbor, a.neighbor + a.size, nodes[i + 1]);
    std::size_t bi = a.size;
    for (const uint32_t *q = lo; q != a.neighbor + a.size && *q == nodes[i + 1]; ++q) {
      std::size_t k = static_cast<std::size_t>(q - a.neighbor);
      if (c.f.pass(a, k) && (bi == a.size || a.score[k] > a.score[bi])) bi = k;
    }
    p.edges.push_back(a.edge[bi]);
    p.scores.push_back(a.score[bi]);
    p.weight += hop_cost(c, a.score[bi]);
  }
  return p;
}

}  // namespace

std::vector<Path> Retriever::shortest_paths(int64_t from, int64_t to, const ShortestPathOptions &o) const {
  const GraphSnapshot &g = *graph_;
  const uint32_t s = detail::index_or_throw(g, from, "paths"), t = detail::index_or_throw(g, to, "paths");
  if (s == t) throw Error(ErrorCode::invalid_argument, "paths: the two proteins are the same node");
  const Filter f(g, o.filter);
  const SearchCtx c{g, f, o.weighted};
  std::vector<std::vector<uint32_t>> A;
  std::vector<Path> out;
  if (o.k == 0 || o.max_length == 0) return out;
  std::vector<char> banned(g.node_count(), 0);
  auto first = constrained_shortest(c, s, t, o.max_length, banned, {});
  if (!first) return out;
  A.push_back(*first);
  // Candidates ordered by (weight, hops, insertion order) for determinism.
  std::set<std::tuple<double, std::size_t, std::size_t>> B;
  std::vector<std::vector<uint32_t>> cand_paths;
  std::set<std::vector<uint32_t>> seen{*first};
  while (A.size() < o.k) {
    const std::vector<uint32_t> &prev = A.back();
    for (std::size_t i = 0; i + 1 < prev.size(); ++i) {
      const uint32_t spur = prev[i];
      std::set<std::pair<uint32_t, uint32_t>> banned_pair;
      for (const auto &p : A)
        if (p.size() > i + 1 && std::equal(prev.begin(), prev.begin() + static_cast<std::ptrdiff_t>(i + 1), p.begin()))
          banned_pair.insert({std::min(p[i], p[i + 1]), std::max(p[i], p[i + 1])});
      std::fill(banned.begin(), banned.end(), 0);
      for (std::size_t j = 0; j < i; ++j) banned[prev[j]] = 1;
      if (o.max_length <= i) continue;
      auto spur_path = constrained_shortest(c, spur, t, o.max_length - i, banned, banned_pair);
      if (!spur_path) continue;
      std::vector<uint32_t> total(prev.begin(), prev.begin() + static_cast<std::ptrdiff_t>(i));
      total.insert(total.end(), spur_path->begin(), spur_path->end());
      if (!seen.insert(total).second) continue;
      const double wgt = to_path(c, total).weight;
      B.insert({wgt, total.size(), cand_paths.size()});
      cand_paths.push_back(std::move(total));
    }
    if (B.empty()) break;
    auto best = *B.begin();
    B.erase(B.begin());
    A.push_back(cand_paths[std::get<2>(best)]);
  }
  for (const auto &p : A) out.push_back(to_path(c, p));
  return out;
}

}  // namespace grappi
