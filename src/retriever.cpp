#include "grappi/retriever.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "grappi/error.hpp"
#include "grappi/knowledge_graph.hpp"
#include "checksum.hpp"
#include "graph_impl.hpp"
#include "ranking.hpp"
#include "score.hpp"

namespace grappi {

namespace {

uint32_t index_or_throw(const GraphSnapshot &g, int64_t id, const char *what) {
  auto i = g.index_of(id);
  if (!i) throw Error(ErrorCode::not_found, std::string(what) + ": no node with id " + std::to_string(id) + " in the graph");
  return *i;
}

// Relation filter compiled to a mask over relation indices.
struct Filter {
  std::vector<char> keep;  // empty: all
  float min_score = 0;
  Filter(const GraphSnapshot &g, const EdgeFilter &f) : min_score(static_cast<float>(f.min_score)) {
    if (!f.relations.empty()) {
      keep.assign(g.relation_count(), 0);
      for (auto &r : f.relations) {
        int32_t k = g.relation_index(r);
        if (k >= 0) keep[static_cast<std::size_t>(k)] = 1;
      }
    }
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

// Distinct neighbours passing the filter, each once, with the best edge score.
void candidates(const GraphSnapshot &g, uint32_t u, const Filter &f, std::vector<Cand> &out) {
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

WindowEdge edge_of(const GraphSnapshot &g, uint32_t u, const GraphSnapshot::Adjacency &a, std::size_t i) {
  WindowEdge e;
  e.edge = a.edge[i];
  e.relation = g.relation_name(a.relation[i]);
  e.score = detail::decimal(a.score[i]);
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
std::vector<WindowEdge> edges_among(const GraphSnapshot &g, const std::vector<uint32_t> &nodes, const Filter &f) {
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

}  // namespace

Retriever::Retriever(std::shared_ptr<const GraphSnapshot> graph, std::shared_ptr<const VectorIndex> vectors,
                     const RetrieverOptions &options)
    : graph_(std::move(graph)), vectors_(std::move(vectors)) {
  if (!graph_) throw Error(ErrorCode::invalid_argument, "retriever: no graph snapshot");
  if (vectors_) {
    const std::size_t n = graph_->node_count();
    dim_ = vectors_->dim();
    unit_.assign(n * dim_, 0.0f);
    has_vec_.assign(n, 0);
    for (uint32_t i = 0; i < n; ++i) {
      const float *v = vectors_->vector(graph_->node_id(i));
      if (!v) continue;
      double norm = 0;
      for (std::size_t k = 0; k < dim_; ++k) norm += static_cast<double>(v[k]) * v[k];
      if (norm <= 0) continue;
      const float inv = static_cast<float>(1.0 / std::sqrt(norm));
      for (std::size_t k = 0; k < dim_; ++k) unit_[i * dim_ + k] = v[k] * inv;
      has_vec_[i] = 1;
    }
    unit8_.resize(unit_.size());
    for (std::size_t k = 0; k < unit_.size(); ++k)
      unit8_[k] = static_cast<int8_t>(std::lround(std::clamp(unit_[k], -1.0f, 1.0f) * 127.0f));
    if (!options.neighbour_ranking_file.empty()) load_neighbour_ranking(options.neighbour_ranking_file);
  }
}

// ---- the neighbour ranking -------------------------------------------------------------------
// File: magic, fingerprint, node count, entry count, offsets (u64), nodes (u32), checksum of
// everything before it. The fingerprint covers the node ids, every adjacency list and the unit
// vectors, so a file written for another graph state or other vectors is never used.

namespace {
constexpr char kRankMagic[16] = "grappi-knn-v1\n";

}  // namespace

uint64_t Retriever::fingerprint() const {
  const GraphSnapshot &g = *graph_;
  const uint64_t n = g.node_count(), d = dim_;
  uint64_t h = detail::checksum(0x6772617070696b6eull, &n, sizeof n);
  h = detail::checksum(h, &d, sizeof d);
  for (uint32_t u = 0; u < n; ++u) {
    const int64_t id = g.node_id(u);
    const auto a = g.adjacency(u);
    const uint64_t size = a.size;
    h = detail::checksum(h, &id, sizeof id);
    h = detail::checksum(h, &size, sizeof size);
    h = detail::checksum(h, a.neighbor, a.size * sizeof(uint32_t));
  }
  h = detail::checksum(h, unit_.data(), unit_.size() * sizeof(float));
  return detail::checksum(h, has_vec_.data(), has_vec_.size());
}

void Retriever::rank_neighbours(unsigned threads) {
  if (!vectors_) throw Error(ErrorCode::invalid_argument, "rank_neighbours: the retriever has no vectors");
  const GraphSnapshot &g = *graph_;
  const std::size_t n = g.node_count();
  std::vector<uint64_t> off(n + 1, 0);
  for (uint32_t u = 0; u < n; ++u) {
    const auto a = g.adjacency(u);
    uint64_t distinct = 0;
    for (std::size_t i = 0; i < a.size; ++i)
      distinct += a.neighbor[i] != u && (i == 0 || a.neighbor[i] != a.neighbor[i - 1]);
    off[u + 1] = off[u] + distinct;
  }
  std::vector<uint32_t> nodes(off[n]);
  std::atomic<uint32_t> next{0};
  auto job = [&] {
    std::vector<std::pair<float, uint32_t>> list;
    const float ninf = -std::numeric_limits<float>::infinity();
    for (uint32_t u = next++; u < n; u = next++) {
      const auto a = g.adjacency(u);
      list.clear();
      for (std::size_t i = 0; i < a.size; ++i) {
        const uint32_t v = a.neighbor[i];
        if (v == u || (i > 0 && v == a.neighbor[i - 1])) continue;
        const float s = similarity(u, v);  // the function windows rank by: identical values
        list.emplace_back(std::isnan(s) ? ninf : s, v);
      }
      std::sort(list.begin(), list.end(), [&](const auto &x, const auto &y) {
        return x.first != y.first ? x.first > y.first : g.node_id(x.second) < g.node_id(y.second);
      });
      for (std::size_t k = 0; k < list.size(); ++k) nodes[off[u] + k] = list[k].second;
    }
  };
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const unsigned count = std::max(1u, std::min(threads ? threads : hw, hw));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < count; ++t) pool.emplace_back(job);
  job();
  for (auto &t : pool) t.join();
  rank_off_ = std::move(off);
  rank_nodes_ = std::move(nodes);
  ranked_ = true;
}

void Retriever::save_neighbour_ranking(const std::string &path) const {
  if (!ranked_) throw Error(ErrorCode::invalid_argument, "save_neighbour_ranking: no ranking (call rank_neighbours)");
  const std::string tmp = path + ".tmp" + detail::random_hex(4);  // concurrent writers do not collide
  std::FILE *f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw Error(ErrorCode::io, "cannot write neighbour ranking '" + tmp + "'");
  uint64_t sum = 0;
  bool ok = true;
  auto put = [&](const void *p, std::size_t bytes) {
    sum = detail::checksum(sum, p, bytes);
    ok = ok && (bytes == 0 || std::fwrite(p, 1, bytes, f) == bytes);
  };
  const uint64_t fp = fingerprint(), n = rank_off_.size() - 1, total = rank_nodes_.size();
  put(kRankMagic, sizeof kRankMagic);
  put(&fp, sizeof fp);
  put(&n, sizeof n);
  put(&total, sizeof total);
  put(rank_off_.data(), rank_off_.size() * sizeof(uint64_t));
  put(rank_nodes_.data(), rank_nodes_.size() * sizeof(uint32_t));
  const uint64_t s = sum;
  ok = ok && std::fwrite(&s, 1, sizeof s, f) == sizeof s;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw Error(ErrorCode::io, "cannot write neighbour ranking '" + path + "'");
  }
}

bool Retriever::load_neighbour_ranking(const std::string &path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE *)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return false;
  uint64_t sum = 0;
  auto get = [&](void *p, std::size_t bytes) {
    if (bytes && std::fread(p, 1, bytes, f.get()) != bytes) return false;
    sum = detail::checksum(sum, p, bytes);
    return true;
  };
  char magic[sizeof kRankMagic];
  uint64_t fp = 0, n = 0, total = 0;
  if (!get(magic, sizeof magic) || std::memcmp(magic, kRankMagic, sizeof magic) != 0) return false;
  if (!get(&fp, sizeof fp) || !get(&n, sizeof n) || !get(&total, sizeof total)) return false;
  const GraphSnapshot &g = *graph_;
  if (n != g.node_count()) return false;
  uint64_t entries = 0;
  for (uint32_t u = 0; u < n; ++u) entries += g.adjacency(u).size;
  if (total > entries) return false;
  if (fp != fingerprint()) return false;
  std::vector<uint64_t> off(n + 1);
  std::vector<uint32_t> nodes(total);
  if (!get(off.data(), off.size() * sizeof(uint64_t)) || !get(nodes.data(), nodes.size() * sizeof(uint32_t))) return false;
  uint64_t stored = 0;
  if (std::fread(&stored, 1, sizeof stored, f.get()) != sizeof stored || stored != sum) return false;
  if (off[0] != 0 || off[n] != total) return false;
  for (uint64_t u = 0; u < n; ++u)
    if (off[u] > off[u + 1] || off[u + 1] - off[u] > g.adjacency(static_cast<uint32_t>(u)).size) return false;
  for (uint32_t v : nodes)
    if (v >= n) return false;
  rank_off_ = std::move(off);
  rank_nodes_ = std::move(nodes);
  ranked_ = true;
  return true;
}

std::shared_ptr<Retriever> make_retriever(KnowledgeGraph &kg, const std::string &model) {
  std::shared_ptr<const VectorIndex> vectors;
  if (!model.empty() || !kg.embedding_models().empty()) vectors = kg.vectors(model);
  RetrieverOptions o;
  o.neighbour_ranking_file = neighbour_ranking_path(kg);
  return std::make_shared<Retriever>(kg.snapshot(), std::move(vectors), o);
}

std::string neighbour_ranking_path(const KnowledgeGraph &kg) { return kg.path() + ".knn"; }

std::size_t build_neighbour_ranking(KnowledgeGraph &kg, const std::string &model, unsigned threads) {
  if (model.empty() && kg.embedding_models().empty()) return 0;
  Retriever r(kg.snapshot(), kg.vectors(model));
  r.rank_neighbours(threads);
  r.save_neighbour_ranking(neighbour_ranking_path(kg));
  return r.neighbour_ranking_entries();
}

namespace {
// int8 dot product (vectorised by the compiler; the first ranking pass is bound by memory
// latency, not by this arithmetic).
int32_t dot8(const int8_t *a, const int8_t *b, std::size_t n) {
  int32_t s = 0;
  for (std::size_t k = 0; k < n; ++k) s += static_cast<int32_t>(a[k]) * static_cast<int32_t>(b[k]);
  return s;
}
}  // namespace

float Retriever::similarity8(const int8_t *q, uint32_t b) const {
  return static_cast<float>(dot8(q, unit8_.data() + static_cast<std::size_t>(b) * dim_, dim_)) * (1.0f / (127.0f * 127.0f));
}

float Retriever::similarity(uint32_t a, uint32_t b) const {
  if (!has_vec_[a]) return std::nanf("");
  return similarity(unit_.data() + static_cast<std::size_t>(a) * dim_, b);
}

float Retriever::similarity(const float *q, uint32_t b) const {
  if (!has_vec_[b]) return std::nanf("");
  const auto d = static_cast<Eigen::Index>(dim_);
  return Eigen::Map<const Eigen::VectorXf>(q, d).dot(Eigen::Map<const Eigen::VectorXf>(unit_.data() + static_cast<std::size_t>(b) * dim_, d));
}

// ---- windows -------------------------------------------------------------------------------------

Window Retriever::window(int64_t root_id, const WindowOptions &o) const {
  const GraphSnapshot &g = *graph_;
  if (o.k.empty() || std::any_of(o.k.begin(), o.k.end(), [](std::size_t k) { return k == 0; }))
    throw Error(ErrorCode::invalid_argument, "window: every k must be at least 1");
  if (o.window == 0) throw Error(ErrorCode::invalid_argument, "window: windows are numbered from 1");
  if (o.query_weight < 0 || o.score_weight < 0 || o.query_weight + o.score_weight > 1)
    throw Error(ErrorCode::invalid_argument, "window: query and score weights must be >= 0 and sum to at most 1");
  if (o.query_weight > 0 && (o.query.empty() || !vectors_ || o.query.size() != vectors_->dim()))
    throw Error(ErrorCode::invalid_argument, "window: query blending needs a query vector of the index's dimension");
  const uint32_t root = index_or_throw(g, root_id, "window");
  const Filter f(g, o.filter);
  Window w;
  w.index = o.window;
  w.root = root_id;
  std::vector<char> in_window(g.node_count(), 0);
  std::vector<uint32_t> order;
  auto add = [&](uint32_t v, std::size_t depth, std::optional<int64_t> parent, double rank) {
    in_window[v] = 1;
    order.push_back(v);
    w.nodes.push_back({g.node_id(v), g.name(v), depth, parent, rank});
  };
  add(root, 0, std::nullopt, 1.0);
  const double wq = o.query_weight, ws = o.score_weight, wn = 1.0 - wq - ws;
  // Ranks u's candidates (not yet in the window) by the blended similarity, best first.
  std::vector<float> unit_query;
  if (wq > 0) {
    double norm = 0;
    for (float x : o.query) norm += static_cast<double>(x) * x;
    unit_query = o.query;
    if (norm > 0)
      for (auto &x : unit_query) x = static_cast<float>(x / std::sqrt(norm));
  }
  // Ranks u's candidates (not yet in the window) by the blended similarity; the best `keep`
  // come first, in order (ties by node id).
  std::vector<int8_t> query8(unit_query.size());
  for (std::size_t k = 0; k < unit_query.size(); ++k)
    query8[k] = static_cast<int8_t>(std::lround(std::clamp(unit_query[k], -1.0f, 1.0f) * 127.0f));
  const double ninf = -std::numeric_limits<double>::infinity();
  // The exact blended score of candidate c for node u (NaN-free: nodes without a vector rank
  // after every embedded one).
  auto exact = [&](uint32_t u, const Cand &c) {
    if (!vectors_) return static_cast<double>(c.best);  // no embeddings: the edge score ranks
    const float sim = similarity(u, c.node);
    if (std::isnan(sim)) return ninf;
    double s = wn * sim + ws * c.best;
    if (wq > 0) {
      const float qs = similarity(unit_query.data(), c.node);
      s += wq * (std::isnan(qs) ? 0.0 : qs);
    }
    return s;
  };
  // Per-thread buffers of a ranking.
  struct Scratch {
    std::vector<Cand> cands;
    std::vector<std::pair<double, uint32_t>> ranked;
    std::vector<std::pair<double, std::size_t>> approx;
    bool truncated = false;  // candidates beyond `keep` were cut
  };
  // Ranks u's candidates not in the window by the blended score; the best `keep` come first, in
  // order (ties by node id). Reads in_window only, so several threads may rank at once.
  // With the neighbour ranking and neither a query nor edge scores blended in, u's order is
  // known: take the first `keep` neighbours not in the window that an edge passing the filter
  // reaches (the same scores and the same tie order as ranking them here).
  const bool lookup = ranked_ && wq == 0 && ws == 0;
  const bool filtering = f.active();
  auto rank = [&](uint32_t u, std::size_t keep, Scratch &sc) {
    auto &cands = sc.cands;
    auto &ranked = sc.ranked;
    auto &approx = sc.approx;
    bool have_cands = false;
    if (lookup && has_vec_[u]) {
      // With a filter, the candidates are needed to test the ranked neighbours; when the filter
      // keeps only a small share of them, ranking those few directly is cheaper than scanning.
      const uint64_t listed = rank_off_[u + 1] - rank_off_[u];
      if (filtering) {
        candidates(g, u, f, cands);
        have_cands = true;
      }
      if (!filtering || 4 * static_cast<uint64_t>(cands.size()) >= listed) {
        ranked.clear();
        sc.truncated = false;
        for (uint64_t i = rank_off_[u]; i < rank_off_[u + 1]; ++i) {
          const uint32_t v = rank_nodes_[i];
          if (in_window[v]) continue;
          if (filtering && !std::binary_search(cands.begin(), cands.end(), Cand{v, 0},
                                               [](const Cand &x, const Cand &y) { return x.node < y.node; }))
            continue;
          if (ranked.size() == keep) {
            sc.truncated = true;
            break;
          }
          const float sim = similarity(u, v);
          ranked.emplace_back(std::isnan(sim) ? ninf : wn * sim, v);
        }
        return;
      }
    }
    if (!have_cands) candidates(g, u, f, cands);
    cands.erase(std::remove_if(cands.begin(), cands.end(), [&](const Cand &c) { return in_window[c.node] != 0; }), cands.end());
    ranked.clear();
    sc.truncated = cands.size() > keep;
    if (vectors_ && has_vec_[u] && cands.size() > keep + 32) {
      // First pass on int8 vectors (a quarter of the memory traffic), then the exact score for
      // every candidate within `margin` of the keep-th approximate score: quantisation moves a
      // cosine by about 0.003, so the final order is the exact one.
      const int8_t *u8 = unit8_.data() + static_cast<std::size_t>(u) * dim_;
      approx.clear();
      constexpr std::size_t kAhead = 8;  // the pass is bound by memory latency: prefetch rows
      for (std::size_t i = 0; i < cands.size(); ++i) {
#if defined(__GNUC__)
        if (i + kAhead < cands.size()) {
          const int8_t *next = unit8_.data() + static_cast<std::size_t>(cands[i + kAhead].node) * dim_;
          for (std::size_t off = 0; off < dim_; off += 64) __builtin_prefetch(next + off);
        }
#endif
        const Cand &c = cands[i];
        double s = ninf;
        if (has_vec_[c.node]) {
          s = wn * similarity8(u8, c.node) + ws * c.best;
          if (wq > 0) s += wq * similarity8(query8.data(), c.node);
        }
        approx.emplace_back(s, i);
      }
      std::nth_element(approx.begin(), approx.begin() + static_cast<std::ptrdiff_t>(keep - 1), approx.end(),
                       [](const auto &a, const auto &b) { return a.first > b.first; });
      const double margin = 0.02 * (wn + wq) + 1e-9;
      const double cut = approx[keep - 1].first - margin;
      for (const auto &a : approx)
        if (a.first >= cut || a.first == ninf) {
          if (a.first == ninf && cut != ninf) continue;
          ranked.emplace_back(exact(u, cands[a.second]), cands[a.second].node);
        }
    } else {
      for (const Cand &c : cands) ranked.emplace_back(exact(u, c), c.node);
    }
    auto better = [&](const auto &a, const auto &b) {
      return a.first != b.first ? a.first > b.first : g.node_id(a.second) < g.node_id(b.second);
    };
    if (keep < ranked.size()) {
      std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(keep), ranked.end(), better);
      ranked.resize(keep);
    } else {
      std::sort(ranked.begin(), ranked.end(), better);
    }
  };
  auto k_at = [&](std::size_t depth) { return o.k[std::min(depth, o.k.size() - 1)]; };
  if (o.depth > 0) {
    Scratch main;
    const std::size_t k0 = k_at(0), start = (o.window - 1) * k0;
    rank(root, start + k0, main);
    for (std::size_t r = start; r < main.ranked.size() && r < start + k0; ++r)
      add(main.ranked[r].second, 1, root_id, main.ranked[r].first);
    // Then level by level. The nodes of a level are ranked against the window as it was when
    // the level began, in parallel when the work is large; the picks are then made in order,
    // skipping nodes an earlier sibling took (which is what expanding them one after the other
    // gives). A list that runs short because of such skips is ranked again, in turn.
    std::vector<Scratch> per;
    for (std::size_t level_begin = 1; level_begin < order.size();) {
      const std::size_t depth = w.nodes[level_begin].depth;
      std::size_t level_end = level_begin;
      while (level_end < order.size() && w.nodes[level_end].depth == depth) ++level_end;
      if (depth >= o.depth) break;
      const std::size_t kd = k_at(depth), count = level_end - level_begin, slack = 8;
      std::size_t work = 0;
      for (std::size_t p = level_begin; p < level_end; ++p) work += g.adjacency(order[p]).size;
      per.resize(count);
      const unsigned hw = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
      const std::size_t threads = (work >= 20000 && count > 1 && !lookup) ? std::min<std::size_t>(hw, count) : 1;
      std::atomic<std::size_t> next{0};
      auto job = [&] {
        for (std::size_t i = next++; i < count; i = next++) rank(order[level_begin + i], kd + slack, per[i]);
      };
      if (threads > 1) {
        std::vector<std::thread> pool;
        for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(job);
        job();
        for (auto &t : pool) t.join();
      } else {
        job();
      }
      for (std::size_t i = 0; i < count; ++i) {
        const uint32_t u = order[level_begin + i];
        Scratch *sc = &per[i];
        std::size_t usable = 0;
        for (const auto &r : sc->ranked) usable += !in_window[r.second];
        if (usable < kd && sc->truncated) {  // siblings took too many: rank again, exactly in turn
          rank(u, kd, main);
          sc = &main;
        }
        std::size_t taken = 0;
        for (const auto &r : sc->ranked) {
          if (taken == kd) break;
          if (in_window[r.second]) continue;
          add(r.second, depth + 1, g.node_id(u), r.first);
          ++taken;
        }
      }
      level_begin = level_end;
    }
  }
  w.edges = edges_among(g, order, f);
  return w;
}

std::vector<Window> Retriever::windows(int64_t root, const std::vector<std::size_t> &indices, const WindowOptions &options) const {
  std::vector<Window> out(indices.size());
  std::vector<std::exception_ptr> errors(indices.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < indices.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        WindowOptions o = options;
        o.window = indices[i];
        out[i] = window(root, o);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  for (auto &t : threads) t.join();
  for (auto &e : errors)
    if (e) std::rethrow_exception(e);
  return out;
}

PathSet Retriever::window_paths(const Window &w, const PathOptions &o) const {
  PathSet out;
  if (w.nodes.empty()) return out;
  const std::size_t n = w.nodes.size();
  for (const auto &x : w.nodes) out.node_ids.push_back(x.id);
  // The window graph, undirected, with the best edge per node pair (highest score, then lowest
  // edge id); neighbours in window order.
  const GraphSnapshot &g = *graph_;
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
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> adj(n);  // (neighbour position, edge slot)
  for (std::size_t i = 0; i < pairs.size();) {
    std::size_t best = i, j = i + 1;
    for (; j < pairs.size() && pairs[j].first == pairs[i].first; ++j) {
      const auto &c = w.edges[pairs[best].second], &e = w.edges[pairs[j].second];
      if (e.score > c.score || (e.score == c.score && e.edge < c.edge)) best = j;
    }
    const auto lo = static_cast<uint32_t>(pairs[i].first >> 32), hi = static_cast<uint32_t>(pairs[i].first & 0xffffffffu);
    const auto slot = static_cast<uint32_t>(out.edge_ids.size());
    out.edge_ids.push_back(w.edges[pairs[best].second].edge);
    out.edge_scores.push_back(w.edges[pairs[best].second].score);
    adj[lo].emplace_back(hi, slot);
    adj[hi].emplace_back(lo, slot);
    i = j;
  }
  for (auto &l : adj) std::sort(l.begin(), l.end());
  // Iterative depth-first enumeration; each path is recorded once, as its parent plus a step.
  struct Frame {
    uint32_t node;
    int32_t path;      // path ending here (-1 at the root)
    std::size_t next;  // next neighbour to try
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

// ---- k shortest simple paths (Yen) --------------------------------------------------------------

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
  const uint32_t s = index_or_throw(g, from, "paths"), t = index_or_throw(g, to, "paths");
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

// ---- seeds and k-hop -----------------------------------------------------------------------------

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
  const Filter f(g, o.filter);
  std::unordered_set<std::string> labels(o.labels.begin(), o.labels.end());
  std::unordered_map<uint32_t, std::size_t> hop;
  std::vector<uint32_t> order, frontier, next;
  for (int64_t id : seed_ids) {
    uint32_t v = index_or_throw(g, id, "khop");
    if (hop.emplace(v, 0).second) {
      order.push_back(v);
      frontier.push_back(v);
    }
  }
  std::vector<Cand> cands;
  bool full = o.node_budget && order.size() >= o.node_budget;
  for (std::size_t h = 1; h <= o.hops && !full; ++h) {
    next.clear();
    for (uint32_t u : frontier) {
      candidates(g, u, f, cands);
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
  s.edges = edges_among(g, order, f);
  return s;
}

// ---- PageRank ------------------------------------------------------------------------------------

PageRankResult Retriever::pagerank(const PageRankOptions &o) const {
  const GraphSnapshot &g = *graph_;
  if (!(o.damping >= 0 && o.damping < 1)) throw Error(ErrorCode::invalid_argument, "pagerank: damping must be in [0,1)");
  const std::size_t n = g.node_count();
  PageRankResult r;
  if (n == 0) return r;
  const Filter f(g, o.filter);
  // Personalisation vector.
  std::vector<double> p(n, 0.0);
  if (o.seeds.empty()) {
    std::fill(p.begin(), p.end(), 1.0 / static_cast<double>(n));
  } else {
    std::vector<uint32_t> s;
    for (int64_t id : o.seeds) s.push_back(index_or_throw(g, id, "pagerank"));
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    for (uint32_t v : s) p[v] = 1.0 / static_cast<double>(s.size());
  }
  auto follows_out = [](uint8_t d) { return d != static_cast<uint8_t>(Direction::incoming); };  // u -> neighbour
  auto follows_in = [](uint8_t d) { return d != static_cast<uint8_t>(Direction::outgoing); };   // neighbour -> u
  std::vector<double> out_w(n, 0.0);
  for (uint32_t u = 0; u < n; ++u) {
    auto a = g.adjacency(u);
    for (std::size_t i = 0; i < a.size; ++i)
      if (follows_out(a.direction[i]) && f.pass(a, i)) out_w[u] += o.weighted ? a.score[i] : 1.0;
  }
  std::vector<double> x = p, nx(n), contrib(n);
  std::size_t threads = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  threads = std::min<std::size_t>(threads, 16);
  if (n < 10000) threads = 1;
  for (r.iterations = 0; r.iterations < o.max_iterations;) {
    double dangling = 0;
    for (uint32_t u = 0; u < n; ++u) {
      if (out_w[u] > 0) contrib[u] = x[u] / out_w[u];
      else {
        contrib[u] = 0;
        dangling += x[u];
      }
    }
    const double d = o.damping;
    auto work = [&](std::size_t lo, std::size_t hi, double *diff) {
      double local = 0;
      for (std::size_t v = lo; v < hi; ++v) {
        auto a = g.adjacency(static_cast<uint32_t>(v));
        double s = 0;
        for (std::size_t i = 0; i < a.size; ++i)
          if (follows_in(a.direction[i]) && f.pass(a, i)) s += contrib[a.neighbor[i]] * (o.weighted ? a.score[i] : 1.0);
        nx[v] = d * s + (d * dangling + (1.0 - d)) * p[v];
        local += std::abs(nx[v] - x[v]);
      }
      *diff = local;
    };
    std::vector<double> diffs(threads, 0.0);
    if (threads == 1) {
      work(0, n, &diffs[0]);
    } else {
      std::vector<std::thread> pool;
      for (std::size_t t = 0; t < threads; ++t)
        pool.emplace_back(work, n * t / threads, n * (t + 1) / threads, &diffs[t]);
      for (auto &th : pool) th.join();
    }
    std::swap(x, nx);
    ++r.iterations;
    double diff = 0;
    for (double dd : diffs) diff += dd;
    if (diff < o.tolerance) {
      r.converged = true;
      break;
    }
  }
  r.rank = std::move(x);
  return r;
}

std::vector<RankedNode> PageRankResult::top(const GraphSnapshot &g, std::size_t n) const {
  std::vector<RankedNode> all;
  all.reserve(rank.size());
  for (std::size_t i = 0; i < rank.size(); ++i) all.push_back({g.node_id(static_cast<uint32_t>(i)), rank[i]});
  detail::keep_best(all, n);
  return all;
}

// ---- output -------------------------------------------------------------------------------------

namespace {
const std::string &name_of(const GraphSnapshot &g, int64_t id) {
  return g.name(*g.index_of(id));
}
nlohmann::json edge_json(const GraphSnapshot &g, const WindowEdge &e) {
  return {{"source", name_of(g, e.source)}, {"target", name_of(g, e.target)}, {"score", e.score},
          {"relation", e.relation},        {"directed", e.directed},          {"edge_id", e.edge}};
}
}  // namespace

nlohmann::json to_json(const GraphSnapshot &g, const Window &w) {
  nlohmann::json nodes = nlohmann::json::array(), edges = nlohmann::json::array();
  for (const auto &n : w.nodes)
    nodes.push_back({{"id", n.id},
                     {"name", n.name},
                     {"depth", n.depth},
                     {"parent", n.parent ? nlohmann::json(name_of(g, *n.parent)) : nlohmann::json(nullptr)},
                     {"parent_id", n.parent ? nlohmann::json(*n.parent) : nlohmann::json(nullptr)},
                     {"rank_score", n.rank_score}});
  for (const auto &e : w.edges) edges.push_back(edge_json(g, e));
  return {{"window", w.index}, {"root", name_of(g, w.root)}, {"nodes", nodes}, {"edges", edges}};
}

nlohmann::json to_json(const GraphSnapshot &g, const std::vector<Path> &paths) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto &p : paths) {
    nlohmann::json names = nlohmann::json::array();
    for (int64_t id : p.nodes) names.push_back(name_of(g, id));
    out.push_back({{"proteins", names}, {"length", p.length()}, {"node_ids", p.nodes}, {"edge_ids", p.edges},
                   {"scores", p.scores}, {"weight", p.weight}});
  }
  return out;
}

nlohmann::json to_json(const GraphSnapshot &g, const Subgraph &s) {
  nlohmann::json nodes = nlohmann::json::array(), edges = nlohmann::json::array();
  for (std::size_t i = 0; i < s.nodes.size(); ++i)
    nodes.push_back({{"id", s.nodes[i]}, {"name", name_of(g, s.nodes[i])}, {"hops", s.hops[i]}});
  for (const auto &e : s.edges) edges.push_back(edge_json(g, e));
  return {{"nodes", nodes}, {"edges", edges}};
}

nlohmann::json to_json(const GraphSnapshot &g, const PcstRetrieval &r) {
  nlohmann::json j = to_json(g, r.subgraph);
  for (std::size_t i = 0; i < j["nodes"].size(); ++i) j["nodes"][i]["prize"] = r.node_prizes[i];
  for (std::size_t i = 0; i < j["edges"].size(); ++i) j["edges"][i]["prize"] = r.edge_prizes[i];
  nlohmann::json seeds = nlohmann::json::array();
  for (auto id : r.seeds) seeds.push_back({{"id", id}, {"name", name_of(g, id)}});
  j["seeds"] = seeds;
  j["edge_cost"] = r.edge_cost;
  j["objective"] = r.objective;
  j["net_worth"] = r.net_worth;
  j["base_nodes"] = r.base_nodes;
  j["base_edges"] = r.base_edges;
  j["virtual_nodes"] = r.virtual_nodes;
  return j;
}

namespace {
std::string csv_field(const std::string &s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}
}  // namespace

std::string to_gretriever_csv(const GraphSnapshot &g, const Subgraph &s, const std::function<std::string(int64_t)> &node_attr) {
  (void)g;
  std::unordered_map<int64_t, std::size_t> local;
  std::string out = "node_id,node_attr\n";
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    local.emplace(s.nodes[i], i);
    out += std::to_string(i) + "," + csv_field(node_attr(s.nodes[i])) + "\n";
  }
  out += "\nsrc,edge_attr,dst\n";
  for (const auto &e : s.edges)
    out += std::to_string(local.at(e.source)) + "," + csv_field(e.relation) + "," + std::to_string(local.at(e.target)) + "\n";
  return out;
}

}  // namespace grappi
