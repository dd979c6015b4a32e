// Retriever: its vectors (a unit-length copy aligned to the snapshot), question seeds and
// k-hop expansion. Windows, window paths, shortest paths, PageRank and the neighbor ranking
// have their own files.
#include "grappi/retriever.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "grappi/error.hpp"
#include "retrieval/retrieval_common.hpp"

namespace grappi {

using detail::Cand;
using detail::Filter;

Retriever::Retriever(std::shared_ptr<const GraphSnapshot> graph, std::shared_ptr<const VectorIndex> vectors,
                     const RetrieverOptions &options)
    : graph_(std::move(graph)), vectors_(std::move(vectors)) {
  if (!graph_) throw Error(ErrorCode::invalid_argument, "retriever: no graph snapshot");
  if (vectors_) {
    const std::size_t n = graph_->node_count();
    dim_ = vectors_->dim();
    unit_.assign(n * dim_, 0.0f);
    has_vec_.assign(n, 0);
    float *unit = unit_.data();
    for (uint32_t i = 0; i < n; ++i) {
      const float *v = vectors_->vector(graph_->node_id(i));
      if (!v) continue;
      double norm = 0;
      for (std::size_t k = 0; k < dim_; ++k) norm += static_cast<double>(v[k]) * v[k];
      if (norm <= 0) continue;
      const float inv = static_cast<float>(1.0 / std::sqrt(norm));
      float *row = unit + std::size_t{i} * dim_;
      for (std::size_t k = 0; k < dim_; ++k) row[k] = v[k] * inv;
      has_vec_[i] = 1;
    }
    unit8_.resize(unit_.size());
    // (std::lround's half away from zero, without the library call: a float plus 0.5 is exact in double)
    // (through local pointers: an int8_t store may alias the vectors' own members, which the compiler
    // would otherwise reload on every element)
    int8_t *unit8 = unit8_.data();
    for (std::size_t k = 0, size = unit_.size(); k < size; ++k) {
      const double x = static_cast<double>(std::clamp(unit[k], -1.0f, 1.0f) * 127.0f);
      unit8[k] = static_cast<int8_t>(x >= 0 ? static_cast<int>(x + 0.5) : -static_cast<int>(-x + 0.5));
    }
    if (!options.neighbor_ranking_file.empty()) load_neighbor_ranking(options.neighbor_ranking_file);
  }
}

std::vector<SearchHit> Retriever::seeds(const std::vector<float> &query, std::size_t k, bool use_hnsw) const {
  if (!vectors_) throw Error(ErrorCode::invalid_argument, "seeds: the retriever has no vector index (run grappi embed)");
  if (query.size() != vectors_->dim())
    throw Error(ErrorCode::invalid_argument, "seeds: query has dimension " + std::to_string(query.size()) + ", the index " +
                                                 std::to_string(vectors_->dim()));
  auto hits = (use_hnsw && vectors_->has_hnsw()) ? vectors_->search_hnsw(query.data(), k) : vectors_->search(query.data(), k);
  // Keep only nodes of this snapshot.
  hits.erase(std::remove_if(hits.begin(), hits.end(), [&](const SearchHit &h) { return !graph_->index_of(h.id); }), hits.end());
  return hits;
}

Subgraph Retriever::khop(const std::vector<int64_t> &seed_ids, const KhopOptions &o) const {
  const GraphSnapshot &g = *graph_;
  const Filter f(g, o.filter, "khop");
  std::unordered_set<std::string> labels(o.labels.begin(), o.labels.end());
  std::unordered_map<uint32_t, std::size_t> hop;
  std::vector<uint32_t> order, frontier, next;
  for (int64_t id : seed_ids) {
    uint32_t v = detail::index_or_throw(g, id, "khop");
    if (hop.emplace(v, 0).second) {
      order.push_back(v);
      frontier.push_back(v);
    }
  }
  std::vector<Cand> cands;
  bool full = o.node_budget && order.size() >= o.node_budget;
  for (std::size_t h = 1; h <= o.hops && !full && !frontier.empty(); ++h) {  // (nothing new: done)
    next.clear();
    for (uint32_t u : frontier) {
      detail::candidates(g, u, f, cands);
      if (o.degree_cap && cands.size() > o.degree_cap) {
        std::stable_sort(cands.begin(), cands.end(), [&](const Cand &a, const Cand &b) {
          return a.best != b.best ? a.best > b.best : g.node_id(a.node) < g.node_id(b.node);
        });
        cands.resize(o.degree_cap);
      }
      for (const Cand &c : cands) {
        if (hop.count(c.node)) continue;
        if (!labels.empty() && !labels.count(g.label(c.node))) continue;
        hop.emplace(c.node, h);
        order.push_back(c.node);
        next.push_back(c.node);
        if (o.node_budget && order.size() >= o.node_budget) {
          full = true;
          break;
        }
      }
      if (full) break;
    }
    std::swap(frontier, next);
  }
  Subgraph s;
  std::vector<uint32_t> sorted = order;
  std::sort(sorted.begin(), sorted.end(), [&](uint32_t a, uint32_t b) { return g.node_id(a) < g.node_id(b); });
  for (uint32_t v : sorted) {
    s.nodes.push_back(g.node_id(v));
    s.hops.push_back(hop[v]);
  }
  s.edges = detail::edges_among(g, order, f);
  return s;
}

QuestionSubgraph Retriever::question_khop(const std::vector<float> &question, std::size_t n, const KhopOptions &options) const {
  QuestionSubgraph out;
  out.seeds = seeds(question, n);
  std::vector<int64_t> ids;
  for (const auto &h : out.seeds) ids.push_back(h.id);
  out.subgraph = khop(ids, options);
  return out;
}

}  // namespace grappi
