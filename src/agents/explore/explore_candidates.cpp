// Explore's candidate paths (explore_stages.hpp): every simple path of 1..L edges from the root
// of each window, of which the best options.max_paths by the prior are kept.
//
// The enumeration is a depth-first search with branch and bound over a bounded heap: a path is
// kept if it beats the worst kept one in the candidate order (prior descending, then fewer
// edges, then the sequence of external ids), and a prefix is not extended when no extension
// could reach the worst kept prior. The kept set is therefore the exact best max_paths of all
// paths, whatever order the search meets them in: it depends neither on the adjacency order
// nor on node ids (the order nodes were imported in), and memory stays at max_paths paths.
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <queue>
#include <set>
#include <unordered_map>

#include "agents/explore/explore_stages.hpp"
#include "common/text_util.hpp"
#include "retrieval/window_graph.hpp"

namespace grappi::detail {

namespace {

constexpr double kMinScore = 1e-6;  // scores are clamped to [kMinScore, 1] before the logarithm

double prior_value(double q, double log_sum, std::size_t edges) {
  return 0.5 * q + 0.5 * std::exp(log_sum / static_cast<double>(std::max<std::size_t>(1, edges)));
}

std::size_t popcount(const std::vector<uint64_t> &words) {
  std::size_t n = 0;
  for (auto w : words) n += static_cast<std::size_t>(__builtin_popcountll(w));
  return n;
}

// The query part of the prior per window position: the similarity (vectors) or the set of
// query terms a protein's name and annotation contain (no vectors).
struct QueryPart {
  bool vectors = false;
  std::size_t terms = 0, words = 0;
  std::vector<double> sim;                  // position -> max(0, similarity), 0 when unknown
  std::vector<std::vector<uint64_t>> mask;  // position -> term bits
};

QueryPart query_part(const ExploreContext &ctx, const ExploreResult &R, const WindowGraph &wg) {
  QueryPart q;
  q.vectors = ctx.vectors && !ctx.query.empty();
  q.terms = ctx.terms.size();
  q.words = (q.terms + 63) / 64;
  const std::size_t n = wg.node_ids.size();
  q.sim.assign(n, 0.0);
  q.mask.assign(n, std::vector<uint64_t>(q.words, 0));
  for (std::size_t i = 0; i < n; ++i) {
    const ExploreProtein *p = R.protein(wg.node_ids[i]);
    if (!p) continue;
    if (q.vectors) {
      if (std::isfinite(p->query_similarity)) q.sim[i] = std::max(0.0, p->query_similarity);
    } else if (q.terms) {
      const std::string text = p->name + " " + p->annotation;
      for (std::size_t t = 0; t < q.terms; ++t)
        if (text_has_term(text, ctx.terms[t])) q.mask[i][t / 64] |= uint64_t{1} << (t % 64);
    }
  }
  return q;
}

// The kept candidates: a heap whose top is the worst, and the kept paths by node sequence (a
// path found again in a later window adds that window).
class Kept {
 public:
  explicit Kept(std::size_t capacity) : capacity_(capacity), heap_(Worse{this}) {}

  bool full() const { return heap_.size() >= capacity_; }
  double worst_prior() const { return slots_[heap_.top()].c.prior; }

  // Whether a path (prior, edge count, canonical ranks) would be kept now.
  bool admits(double prior, std::size_t edges, const uint32_t *canon, std::size_t len) const {
    if (!full()) return true;
    const Slot &w = slots_[heap_.top()];
    if (prior != w.c.prior) return prior > w.c.prior;
    if (edges != w.c.scores.size()) return edges < w.c.scores.size();
    return std::lexicographical_compare(canon, canon + len, w.canon.begin(), w.canon.end());
  }

  // Keeps a path the caller built (admits() was true or the path may be kept already).
  void offer(Candidate &&c, std::vector<uint32_t> &&canon, std::size_t window) {
    auto it = by_nodes_.find(c.nodes);
    if (it != by_nodes_.end()) {
      slots_[it->second].c.windows.push_back(window);
      return;
    }
    if (!admits(c.prior, c.scores.size(), canon.data(), canon.size())) return;
    std::size_t at;
    if (full()) {
      at = heap_.top();
      heap_.pop();
      by_nodes_.erase(slots_[at].c.nodes);
    } else {
      at = slots_.size();
      slots_.emplace_back();
    }
    c.windows = {window};
    slots_[at].c = std::move(c);
    slots_[at].canon = std::move(canon);
    by_nodes_.emplace(slots_[at].c.nodes, at);
    heap_.push(at);
  }
  // A path already kept (same node sequence) found again in another window.
  bool add_window(const std::vector<int64_t> &nodes, std::size_t window) {
    auto it = by_nodes_.find(nodes);
    if (it == by_nodes_.end()) return false;
    slots_[it->second].c.windows.push_back(window);
    return true;
  }

  // The kept candidates, best first; order = position.
  std::vector<Candidate> take() {
    std::vector<std::size_t> idx(slots_.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return better(slots_[a], slots_[b]); });
    std::vector<Candidate> out;
    out.reserve(idx.size());
    for (auto i : idx) {
      out.push_back(std::move(slots_[i].c));
      out.back().order = out.size() - 1;
    }
    return out;
  }

 private:
  struct Slot {
    Candidate c;
    std::vector<uint32_t> canon;
  };
  static bool better(const Slot &a, const Slot &b) {
    if (a.c.prior != b.c.prior) return a.c.prior > b.c.prior;
    if (a.c.scores.size() != b.c.scores.size()) return a.c.scores.size() < b.c.scores.size();
    return a.canon < b.canon;
  }
  struct Worse {
    const Kept *k;
    bool operator()(std::size_t a, std::size_t b) const { return better(k->slots_[a], k->slots_[b]); }
  };
  std::size_t capacity_;
  std::vector<Slot> slots_;
  std::priority_queue<std::size_t, std::vector<std::size_t>, Worse> heap_;
  std::map<std::vector<int64_t>, std::size_t> by_nodes_;
};

}  // namespace

void enumerate_candidates(const ExploreContext &ctx, ExploreRun &run) {
  const ExploreOptions &opt = ctx.options;
  ExploreResult &R = run.result;
  const std::size_t L = opt.max_length;
  // Canonical ranks: the order of the external ids of every protein of the windows.
  std::unordered_map<int64_t, uint32_t> canon_of;
  {
    std::vector<const ExploreProtein *> ps;
    for (const auto &p : R.proteins) ps.push_back(&p);
    std::sort(ps.begin(), ps.end(), [](const ExploreProtein *a, const ExploreProtein *b) {
      return a->external_id != b->external_id ? a->external_id < b->external_id : a->id < b->id;
    });
    for (std::size_t i = 0; i < ps.size(); ++i) canon_of[ps[i]->id] = static_cast<uint32_t>(i);
  }
  Kept kept(opt.max_paths);
  std::size_t visited = 0, windows_done = 0;
  bool capped = false, dropped = false;  // dropped: a path was not kept, or a prefix not extended
  for (const auto &w : R.windows) {
    if (capped || w.nodes.size() < 2) continue;
    const WindowGraph wg = window_graph(ctx.graph(), w);
    const std::size_t n = wg.node_ids.size();
    const QueryPart qp = query_part(ctx, R, wg);
    std::vector<uint32_t> canon(n);
    for (std::size_t i = 0; i < n; ++i) {
      auto it = canon_of.find(wg.node_ids[i]);
      canon[i] = it != canon_of.end() ? it->second : static_cast<uint32_t>(canon_of.size() + i);
    }
    // Bounds for extensions: the best query part and the best edge of the window.
    double q_max = 0, log_max = std::log(kMinScore);
    std::vector<uint64_t> all_terms(qp.words, 0);
    for (std::size_t i = 1; i < n; ++i) {
      q_max = std::max(q_max, qp.sim[i]);
      for (std::size_t k = 0; k < qp.words; ++k) all_terms[k] |= qp.mask[i][k];
    }
    for (double s : wg.edge_scores) log_max = std::max(log_max, std::log(std::clamp(s, kMinScore, 1.0)));
    const double terms_bound = qp.terms ? static_cast<double>(popcount(all_terms)) / static_cast<double>(qp.terms) : 0.0;
    // The best prior any path extending a prefix of `l` edges (sums q_sum, log_sum) can have.
    auto extension_bound = [&](double q_sum, double log_sum, std::size_t l) {
      double best = 0;
      for (std::size_t len = l + 1; len <= L; ++len) {
        const double extra = static_cast<double>(len - l);
        const double q = qp.vectors ? (q_sum + extra * q_max) / static_cast<double>(len) : terms_bound;
        best = std::max(best, prior_value(q, log_sum + extra * log_max, len));
      }
      return best;
    };

    // Depth-first search; level d holds the path of d edges.
    struct Level {
      uint32_t node = 0, slot = 0;
      std::size_t next = 0;
      double q_sum = 0, log_sum = 0;
      std::vector<uint64_t> terms;
    };
    std::vector<Level> stack(L + 1);
    std::vector<uint32_t> path_canon(L + 1);
    std::vector<char> on_path(n, 0);
    for (auto &lv : stack) lv.terms.assign(qp.words, 0);
    path_canon[0] = canon[0];
    on_path[0] = 1;
    std::size_t d = 0;  // depth of the current path
    std::vector<int64_t> nodes_buf;
    while (true) {
      Level &cur = stack[d];
      const auto &next = wg.adj[cur.node];
      if (d == L || cur.next >= next.size()) {
        on_path[cur.node] = 0;
        if (d == 0) break;
        --d;
        continue;
      }
      const auto [v, slot] = next[cur.next++];
      if (on_path[v]) continue;
      if (visited >= opt.max_visited) {
        capped = true;
        break;
      }
      if ((visited & 0xffff) == 0 && visited > 0) {  // every 65,536 paths: the cancel, the progress (of the bound)
        if (opt.cancel && opt.cancel()) {
          capped = true;
          break;
        }
        if (opt.progress) opt.progress("candidates", visited, opt.max_visited);
      }
      ++visited;
      Level &nx = stack[d + 1];
      nx.node = v;
      nx.slot = slot;
      nx.next = 0;
      nx.log_sum = cur.log_sum + std::log(std::clamp(wg.edge_scores[slot], kMinScore, 1.0));
      nx.q_sum = cur.q_sum + qp.sim[v];
      std::size_t hits = 0;
      for (std::size_t k = 0; k < qp.words; ++k) nx.terms[k] = cur.terms[k] | qp.mask[v][k];
      if (!qp.vectors && qp.terms) hits = popcount(nx.terms);
      const std::size_t edges = d + 1;
      const double q = qp.vectors ? nx.q_sum / static_cast<double>(edges)
                                  : qp.terms ? static_cast<double>(hits) / static_cast<double>(qp.terms) : 0.0;
      const double prior = prior_value(q, nx.log_sum, edges);
      path_canon[edges] = canon[v];
      nodes_buf.clear();
      for (std::size_t i = 0; i <= edges; ++i) nodes_buf.push_back(wg.node_ids[i == 0 ? 0 : stack[i].node]);
      // A path kept from an earlier window (the same prior and order) only adds this window.
      const bool seen = windows_done > 0 && kept.add_window(nodes_buf, w.index);
      if (!seen && kept.admits(prior, edges, path_canon.data(), edges + 1)) {
        dropped |= kept.full();  // the worst kept one goes
        Candidate c;
        c.nodes = nodes_buf;
        for (std::size_t i = 1; i <= edges; ++i) {
          c.edge_ids.push_back(wg.edge_ids[stack[i].slot]);
          c.scores.push_back(wg.edge_scores[stack[i].slot]);
        }
        c.prior = prior;
        kept.offer(std::move(c), std::vector<uint32_t>(path_canon.begin(), path_canon.begin() + static_cast<std::ptrdiff_t>(edges + 1)),
                   w.index);
      } else if (!seen) {
        dropped = true;
      }
      // Extend the path unless no extension could be kept.
      if (edges < L) {
        if (!kept.full() || extension_bound(nx.q_sum, nx.log_sum, edges) >= kept.worst_prior() - 1e-9) {
          on_path[v] = 1;
          d = edges;
        } else {
          dropped = true;
        }
      }
    }
    ++windows_done;
  }
  R.usage.candidate_paths_visited = visited;
  R.candidates_truncated = capped || dropped;
  run.candidates = kept.take();
  R.usage.candidate_paths = run.candidates.size();
  if (run.candidates.empty())
    R.notes.push_back("no candidate paths: the windows hold the initial protein alone");
  if (capped && visited >= opt.max_visited)
    R.notes.push_back("the search for candidate paths stopped after visiting " + std::to_string(visited) +
                      " paths (max_visited): the candidates are the best of those visited, not of all paths");
}

double path_prior(const ExploreContext &ctx, const ExploreResult &result, const Candidate &c) {
  double log_sum = 0;
  for (double sc : c.scores) log_sum += std::log(std::clamp(sc, kMinScore, 1.0));
  double q = 0;
  if (ctx.vectors && !ctx.query.empty()) {
    double sum = 0;
    for (std::size_t i = 1; i < c.nodes.size(); ++i) {
      const auto *p = result.protein(c.nodes[i]);
      if (p && std::isfinite(p->query_similarity)) sum += std::max(0.0, p->query_similarity);
    }
    q = sum / static_cast<double>(c.nodes.size() - 1);
  } else if (!ctx.terms.empty()) {
    std::size_t hit = 0;
    for (const auto &t : ctx.terms)
      for (std::size_t i = 1; i < c.nodes.size(); ++i) {
        const auto *p = result.protein(c.nodes[i]);
        if (p && text_has_term(p->name + " " + p->annotation, t)) {
          ++hit;
          break;
        }
      }
    q = static_cast<double>(hit) / static_cast<double>(ctx.terms.size());
  }
  return prior_value(q, log_sum, c.scores.size());
}

void select_candidates(const ExploreContext &ctx, ExploreRun &run) {
  const auto &cands = run.candidates;
  // The candidates by the prior (ties: fewer edges, then candidate order); explain_top and the budget each keep a
  // prefix of that ranking; the stages take the kept ones in candidate order.
  std::vector<std::size_t> ranked(cands.size());
  std::iota(ranked.begin(), ranked.end(), std::size_t{0});
  std::stable_sort(ranked.begin(), ranked.end(), [&](std::size_t a, std::size_t b) {
    if (cands[a].prior != cands[b].prior) return cands[a].prior > cands[b].prior;
    if (cands[a].nodes.size() != cands[b].nodes.size()) return cands[a].nodes.size() < cands[b].nodes.size();
    return cands[a].order < cands[b].order;
  });
  if (const std::size_t top = ctx.options.explain_top; top > 0 && top < ranked.size()) ranked.resize(top);
  // The budget: one request per path and per edge not yet counted, while the next path fits.
  if (const std::size_t budget = ctx.options.explain_budget; budget > 0) {
    std::set<int64_t> edges;
    std::size_t requests = 0, kept = 0;
    for (; kept < ranked.size(); ++kept) {
      const Candidate &c = cands[ranked[kept]];
      std::size_t fresh = 0;
      for (const int64_t e : c.edge_ids) fresh += !edges.count(e);
      if (requests + 1 + fresh > budget) break;
      requests += 1 + fresh;
      edges.insert(c.edge_ids.begin(), c.edge_ids.end());
    }
    if (kept < ranked.size())
      run.result.notes.push_back("explained the best " + std::to_string(kept) + " of " + std::to_string(ranked.size()) +
                                 " candidate paths by the prior: they and their edges fit the budget of " +
                                 std::to_string(budget) + " model requests (explain_budget; 0: all)");
    ranked.resize(kept);
  }
  std::sort(ranked.begin(), ranked.end(), [&](std::size_t a, std::size_t b) { return cands[a].order < cands[b].order; });
  run.selected = std::move(ranked);
  run.result.usage.selected_paths = run.selected.size();
}

}  // namespace grappi::detail
