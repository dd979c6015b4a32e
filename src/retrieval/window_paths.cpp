// Every simple path of a window from its root (Retriever::window_paths) and the compact PathSet.
#include <algorithm>

#include "grappi/error.hpp"
#include "grappi/retriever.hpp"
#include "retrieval/window_graph.hpp"

namespace grappi {

namespace detail {

WindowGraph window_graph(const GraphSnapshot &g, const Window &w) {
  WindowGraph out;
  const std::size_t n = w.nodes.size();
  for (const auto &x : w.nodes) out.node_ids.push_back(x.id);
  std::vector<int32_t> pos(g.node_count(), -1);  // snapshot index -> window position
  for (std::size_t i = 0; i < n; ++i)
    if (auto x = g.index_of(w.nodes[i].id)) pos[*x] = static_cast<int32_t>(i);
  auto position = [&](int64_t id) -> int64_t {
    auto x = g.index_of(id);
    return x ? pos[*x] : -1;
  };
  // (lo << 32 | hi, window edge index), sorted by pair; per pair the best edge is picked below.
  std::vector<std::pair<uint64_t, uint32_t>> pairs;
  pairs.reserve(w.edges.size());
  for (std::size_t k = 0; k < w.edges.size(); ++k) {
    const int64_t a = position(w.edges[k].source), b = position(w.edges[k].target);
    if (a < 0 || b < 0 || a == b) continue;
    pairs.emplace_back(static_cast<uint64_t>(std::min(a, b)) << 32 | static_cast<uint64_t>(std::max(a, b)),
                       static_cast<uint32_t>(k));
  }
  std::sort(pairs.begin(), pairs.end());
  out.adj.resize(n);
  for (std::size_t i = 0; i < pairs.size();) {
    std::size_t best = i, j = i + 1;
    for (; j < pairs.size() && pairs[j].first == pairs[i].first; ++j) {
      const auto &c = w.edges[pairs[best].second], &e = w.edges[pairs[j].second];
      if (e.score != c.score ? e.score > c.score : e.relation != c.relation ? e.relation < c.relation : e.edge < c.edge)
        best = j;
    }
    const auto lo = static_cast<uint32_t>(pairs[i].first >> 32), hi = static_cast<uint32_t>(pairs[i].first & 0xffffffffu);
    const auto slot = static_cast<uint32_t>(out.edge_ids.size());
    out.edge_ids.push_back(w.edges[pairs[best].second].edge);
    out.edge_scores.push_back(w.edges[pairs[best].second].score);
    out.adj[lo].emplace_back(hi, slot);
    out.adj[hi].emplace_back(lo, slot);
    i = j;
  }
  for (auto &l : out.adj) std::sort(l.begin(), l.end());
  return out;
}

}  // namespace detail

PathSet Retriever::window_paths(const Window &w, const PathOptions &o) const {
  // (bounded as explore's candidate paths are: the paths of a window grow as k^L)
  if (o.max_length == 0 || o.max_length > 12)
    throw Error(ErrorCode::invalid_argument, "window paths: max_length must be 1 to 12 edges, not " + std::to_string(o.max_length));
  if (o.max_paths == 0 || o.max_paths > 1000000)
    throw Error(ErrorCode::invalid_argument, "window paths: max_paths must be 1 to 1000000, not " + std::to_string(o.max_paths));
  PathSet out;
  if (w.nodes.empty()) return out;
  const std::size_t n = w.nodes.size();
  detail::WindowGraph wg = detail::window_graph(*graph_, w);
  out.node_ids = std::move(wg.node_ids);
  out.edge_ids = std::move(wg.edge_ids);
  out.edge_scores = std::move(wg.edge_scores);
  const auto &adj = wg.adj;
  // Iterative depth-first enumeration; each path is recorded once, as its parent plus a step.
  struct Frame {
    uint32_t node;
    int32_t path;      // path ending here (-1 at the root)
    std::size_t next;  // next neighbor to try
  };
  std::vector<Frame> stack{{0, -1, 0}};
  std::vector<char> on_path(n, 0);
  on_path[0] = 1;
  out.steps.reserve(std::min<std::size_t>(o.max_paths, std::size_t{1} << 17));  // at most 2 MB up front
  while (!stack.empty()) {
    Frame &f = stack.back();
    if (stack.size() - 1 >= o.max_length || f.next >= adj[f.node].size()) {
      on_path[f.node] = 0;
      stack.pop_back();
      continue;
    }
    if (stack.size() == o.max_length) {
      // The paths that end next are as long as allowed: record them without their own frames
      // (the same order as pushing and popping each).
      const auto &next = adj[f.node];
      const auto length = static_cast<uint32_t>(stack.size());
      for (; f.next < next.size(); ++f.next) {
        const auto [v, slot] = next[f.next];
        if (on_path[v]) continue;
        if (out.steps.size() >= o.max_paths) {
          out.truncated = true;
          return out;
        }
        out.steps.push_back({f.path, v, slot, length});
      }
      continue;
    }
    const auto [v, slot] = adj[f.node][f.next++];
    if (on_path[v]) continue;
    if (out.steps.size() >= o.max_paths) {
      out.truncated = true;
      break;
    }
    out.steps.push_back({f.path, v, slot, static_cast<uint32_t>(stack.size())});
    on_path[v] = 1;
    stack.push_back({v, static_cast<int32_t>(out.steps.size() - 1), 0});
  }
  return out;
}

Path PathSet::path(std::size_t i) const {
  Path p;
  for (int32_t at = static_cast<int32_t>(i); at >= 0; at = steps.at(static_cast<std::size_t>(at)).parent) {
    const Step &s = steps[static_cast<std::size_t>(at)];
    p.nodes.push_back(node_ids[s.node]);
    p.edges.push_back(edge_ids[s.edge]);
    p.scores.push_back(edge_scores[s.edge]);
  }
  p.nodes.push_back(node_ids.at(0));
  std::reverse(p.nodes.begin(), p.nodes.end());
  std::reverse(p.edges.begin(), p.edges.end());
  std::reverse(p.scores.begin(), p.scores.end());
  p.weight = static_cast<double>(p.edges.size());
  return p;
}

std::vector<Path> PathSet::all() const {
  std::vector<Path> out;
  out.reserve(steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) out.push_back(path(i));
  return out;
}

}  // namespace grappi
