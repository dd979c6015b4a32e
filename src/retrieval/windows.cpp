// GraPPI's moving kNN windows (Retriever::window, Retriever::windows).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>

#include "common/prefetch.hpp"
#include "grappi/error.hpp"
#include "grappi/retriever.hpp"
#include "common/parallel.hpp"
#include "retrieval/retrieval_common.hpp"
#include "retrieval/similarity.hpp"

namespace grappi {

using detail::Cand;
using detail::Filter;

namespace {

void check_window_options(const WindowOptions &o, const VectorIndex *vectors) {
  if (o.k.empty() || std::any_of(o.k.begin(), o.k.end(), [](std::size_t k) { return k == 0; }))
    throw Error(ErrorCode::invalid_argument, "window: every k must be at least 1");
  if (o.window == 0) throw Error(ErrorCode::invalid_argument, "window: windows are numbered from 1");
  if (!(o.query_weight >= 0) || !(o.score_weight >= 0) || !(o.query_weight + o.score_weight <= 1))
    throw Error(ErrorCode::invalid_argument, "window: query and score weights must be >= 0 and sum to at most 1");
  if (o.query_weight > 0 && (o.query.empty() || !vectors || o.query.size() != vectors->dim()))
    throw Error(ErrorCode::invalid_argument, "window: query blending needs a query vector of the index's dimension");
}

// Why a window holds the root alone: it has `have` neighbors under the filters, fewer than the
// window's first rank.
std::string empty_window_note(const GraphSnapshot &g, uint32_t root, std::size_t have, const WindowOptions &o,
                              const Filter &f, std::size_t start, std::size_t k0) {
  std::string filter;
  if (f.active()) {
    std::ostringstream min_score;
    min_score << o.filter.min_score;
    filter = " under the filters (min score " + min_score.str();
    for (std::size_t i = 0; i < o.filter.relations.size(); ++i)
      filter += (i ? ", " : "; relations ") + o.filter.relations[i];
    filter += ")";
  }
  return g.name(root) + " has " + (have ? std::to_string(have) : std::string("no")) +
         (have == 1 ? " neighbor" : " neighbors") + filter +
         (have ? "; window " + std::to_string(o.window) + " starts at rank " + std::to_string(start + 1) +
                     " (k = " + std::to_string(k0) + "), so it holds " + g.name(root) + " alone"
               : std::string());
}

}  // namespace

// Ranks a node's candidates that are not in the window yet by the blended score (similarity to
// the node, to the query, edge score); the best `keep` come first, in order, ties by external
// id (not by node id, which depends on the order the nodes were imported in). Reads in_window
// only, so several threads may rank at once, each with its own Scratch.
class Retriever::WindowRanker {
 public:
  // Per-thread buffers of a ranking; `ranked` is the result.
  struct Scratch {
    std::vector<Cand> cands;
    std::vector<std::pair<double, uint32_t>> ranked;
    std::vector<std::pair<double, std::size_t>> approx;
    bool truncated = false;  // candidates beyond `keep` were cut
  };

  WindowRanker(const Retriever &r, const WindowOptions &o, const Filter &f, const std::vector<char> &in_window)
      : r_(r), g_(*r.graph_), f_(f), in_window_(in_window), wq_(o.query_weight), ws_(o.score_weight),
        wn_(1.0 - o.query_weight - o.score_weight), lookup_(r.ranked_ && wq_ == 0 && ws_ == 0) {
    if (wq_ > 0) {
      double norm = 0;
      for (float x : o.query) norm += static_cast<double>(x) * x;
      unit_query_ = o.query;
      if (norm > 0)
        for (auto &x : unit_query_) x = static_cast<float>(x / std::sqrt(norm));
    }
    query8_.resize(unit_query_.size());
    for (std::size_t k = 0; k < unit_query_.size(); ++k)
      query8_[k] = static_cast<int8_t>(std::lround(std::clamp(unit_query_[k], -1.0f, 1.0f) * 127.0f));
  }

  // Picks come from the neighbor ranking file (no scoring of every neighbor).
  bool lookup() const { return lookup_; }

  void rank(uint32_t u, std::size_t keep, Scratch &sc) const {
    bool have_cands = false;
    if (lookup_ && r_.has_vec_[u] && by_lookup(u, keep, sc, have_cands)) return;
    if (!have_cands) detail::candidates(g_, u, f_, sc.cands);
    auto &cands = sc.cands;
    cands.erase(std::remove_if(cands.begin(), cands.end(), [&](const Cand &c) { return in_window_[c.node] != 0; }),
                cands.end());
    sc.ranked.clear();
    sc.truncated = cands.size() > keep;
    if (r_.vectors_ && r_.has_vec_[u] && cands.size() > keep + 32) {
      two_pass(u, keep, sc);
    } else {
      for (const Cand &c : cands) sc.ranked.emplace_back(exact(u, c), c.node);
    }
    auto better = [&](const auto &a, const auto &b) {
      return a.first != b.first ? a.first > b.first : g_.external_id(a.second) < g_.external_id(b.second);
    };
    auto &ranked = sc.ranked;
    if (keep < ranked.size()) {
      std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(keep), ranked.end(), better);
      ranked.resize(keep);
    } else {
      std::sort(ranked.begin(), ranked.end(), better);
    }
  }

 private:
  static constexpr double kNegInf = -std::numeric_limits<double>::infinity();

  // The exact blended score of candidate c for node u (NaN-free: nodes without a vector rank
  // after every embedded one).
  double exact(uint32_t u, const Cand &c) const {
    if (!r_.vectors_) return static_cast<double>(c.best);  // no embeddings: the edge score ranks
    const float sim = r_.similarity(u, c.node);
    if (std::isnan(sim)) return kNegInf;
    double s = wn_ * sim + ws_ * c.best;
    if (wq_ > 0) {
      const float qs = r_.similarity(unit_query_.data(), c.node);
      s += wq_ * (std::isnan(qs) ? 0.0 : qs);
    }
    return s;
  }

  // With the neighbor ranking and neither a query nor edge scores blended in, u's order is
  // known: the first `keep` neighbors not in the window that an edge passing the filter reaches
  // (the same scores and the same tie order as ranking them). False when a filter keeps so few
  // neighbors that ranking those directly is cheaper than scanning (the candidates are then
  // in sc.cands, have_cands set).
  bool by_lookup(uint32_t u, std::size_t keep, Scratch &sc, bool &have_cands) const {
    const bool filtering = f_.active();
    const uint64_t listed = r_.rank_off_[u + 1] - r_.rank_off_[u];
    if (filtering) {
      detail::candidates(g_, u, f_, sc.cands);
      have_cands = true;
      if (4 * static_cast<uint64_t>(sc.cands.size()) < listed) return false;
    }
    sc.ranked.clear();
    sc.truncated = false;
    for (uint64_t i = r_.rank_off_[u]; i < r_.rank_off_[u + 1]; ++i) {
      const uint32_t v = r_.rank_nodes_[i];
      if (in_window_[v]) continue;
      if (filtering && !std::binary_search(sc.cands.begin(), sc.cands.end(), Cand{v, 0},
                                           [](const Cand &x, const Cand &y) { return x.node < y.node; }))
        continue;
      if (sc.ranked.size() == keep) {
        sc.truncated = true;
        break;
      }
      const float sim = r_.similarity(u, v);
      sc.ranked.emplace_back(std::isnan(sim) ? kNegInf : wn_ * sim, v);
    }
    return true;
  }

  // A first pass on int8 vectors (a quarter of the memory traffic), then the exact score for
  // every candidate within a margin of the keep-th approximate score: quantisation moves a
  // cosine by about 0.003, so the final order is the exact one.
  void two_pass(uint32_t u, std::size_t keep, Scratch &sc) const {
    const auto &cands = sc.cands;
    const std::size_t dim = r_.dim_;
    const int8_t *u8 = r_.unit8_.data() + static_cast<std::size_t>(u) * dim;
    auto &approx = sc.approx;
    approx.clear();
    constexpr std::size_t kAhead = 8;  // the pass is bound by memory latency: prefetch rows
    for (std::size_t i = 0; i < cands.size(); ++i) {
      if (i + kAhead < cands.size()) {
        const int8_t *next = r_.unit8_.data() + static_cast<std::size_t>(cands[i + kAhead].node) * dim;
        for (std::size_t off = 0; off < dim; off += 64) GRAPPI_PREFETCH(next + off);
      }
      const Cand &c = cands[i];
      double s = kNegInf;
      if (r_.has_vec_[c.node]) {
        s = wn_ * r_.similarity8(u8, c.node) + ws_ * c.best;
        if (wq_ > 0) s += wq_ * r_.similarity8(query8_.data(), c.node);
      }
      approx.emplace_back(s, i);
    }
    std::nth_element(approx.begin(), approx.begin() + static_cast<std::ptrdiff_t>(keep - 1), approx.end(),
                     [](const auto &a, const auto &b) { return a.first > b.first; });
    const double margin = 0.02 * (wn_ + wq_) + 1e-9;
    const double cut = approx[keep - 1].first - margin;
    for (const auto &a : approx)
      if (a.first >= cut || a.first == kNegInf) {
        if (a.first == kNegInf && cut != kNegInf) continue;
        sc.ranked.emplace_back(exact(u, cands[a.second]), cands[a.second].node);
      }
  }

  const Retriever &r_;
  const GraphSnapshot &g_;
  const Filter &f_;
  const std::vector<char> &in_window_;
  const double wq_, ws_, wn_;
  const bool lookup_;
  std::vector<float> unit_query_;
  std::vector<int8_t> query8_;
};

Window Retriever::window(int64_t root_id, const WindowOptions &o) const {
  const GraphSnapshot &g = *graph_;
  check_window_options(o, vectors_.get());
  const uint32_t root = detail::index_or_throw(g, root_id, "window");
  const Filter f(g, o.filter, "window");
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
  const WindowRanker ranker(*this, o, f, in_window);
  auto k_at = [&](std::size_t depth) { return o.k[std::min(depth, o.k.size() - 1)]; };
  if (o.depth == 0) {
    w.note = "depth 0: the window is the root alone";
    w.edges = detail::edges_among(g, order, f);
    return w;
  }
  // Depth 1: the root's ranks [(window - 1) k0, window k0).
  WindowRanker::Scratch main;
  const std::size_t k0 = k_at(0), start = (o.window - 1) * k0;
  ranker.rank(root, start + k0, main);
  for (std::size_t r = start; r < main.ranked.size() && r < start + k0; ++r)
    add(main.ranked[r].second, 1, root_id, main.ranked[r].first);
  if (main.ranked.size() <= start) w.note = empty_window_note(g, root, main.ranked.size(), o, f, start, k0);
  // Then level by level. The nodes of a level are ranked against the window as it was when
  // the level began, in parallel when the work is large; the picks are then made in order,
  // skipping nodes an earlier sibling took (which is what expanding them one after the other
  // gives). A list that runs short because of such skips is ranked again, in turn.
  std::vector<WindowRanker::Scratch> per;
  std::atomic<bool> cancelled{false};
  const auto stop = [&] { return cancelled || (o.cancel && o.cancel() && (cancelled = true)); };
  for (std::size_t level_begin = 1; level_begin < order.size();) {
    const std::size_t depth = w.nodes[level_begin].depth;
    std::size_t level_end = level_begin;
    while (level_end < order.size() && w.nodes[level_end].depth == depth) ++level_end;
    if (depth >= o.depth || stop()) break;
    const std::size_t kd = k_at(depth), count = level_end - level_begin, slack = 8;
    std::size_t work = 0;
    for (std::size_t p = level_begin; p < level_end; ++p) work += g.adjacency(order[p]).size;
    per.resize(count);
    const std::size_t threads = (work >= 20000 && count > 1 && !ranker.lookup()) ? detail::hardware_threads(4) : 1;
    detail::parallel_for(count, threads, [&](std::size_t i) {
      if (i % 64 == 63 && stop()) return;
      ranker.rank(order[level_begin + i], kd + slack, per[i]);
    });
    if (cancelled) break;
    for (std::size_t i = 0; i < count; ++i) {
      if (i % 64 == 63 && stop()) break;
      const uint32_t u = order[level_begin + i];
      WindowRanker::Scratch *sc = &per[i];
      std::size_t usable = 0;
      for (const auto &r : sc->ranked) usable += !in_window[r.second];
      if (usable < kd && sc->truncated) {  // siblings took too many: rank again, exactly in turn
        ranker.rank(u, kd, main);
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
  if (cancelled)
    w.note = (w.note.empty() ? "" : w.note + "; ") + "cancelled: the window stopped growing at " +
             std::to_string(w.nodes.size()) + " nodes";
  w.edges = detail::edges_among(g, order, f);
  return w;
}

std::vector<Window> Retriever::windows(int64_t root, const std::vector<std::size_t> &indices, const WindowOptions &options) const {
  std::vector<Window> out(indices.size());
  detail::parallel_for(indices.size(), indices.size(), [&](std::size_t i) {
    WindowOptions o = options;
    o.window = indices[i];
    out[i] = window(root, o);
  });
  return out;
}

}  // namespace grappi
