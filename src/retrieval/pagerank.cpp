// Global and personalised PageRank by power iteration on the snapshot.
#include <algorithm>
#include <cmath>

#include "grappi/error.hpp"
#include "grappi/retriever.hpp"
#include "common/parallel.hpp"
#include "retrieval/ranking.hpp"
#include "retrieval/retrieval_common.hpp"

namespace grappi {

using detail::Filter;

PageRankResult Retriever::pagerank(const PageRankOptions &o) const {
  const GraphSnapshot &g = *graph_;
  if (!(o.damping >= 0 && o.damping < 1)) throw Error(ErrorCode::invalid_argument, "pagerank: damping must be in [0,1)");
  const std::size_t n = g.node_count();
  PageRankResult r;
  if (n == 0) return r;
  const Filter f(g, o.filter, "pagerank");
  // Personalisation vector.
  std::vector<double> p(n, 0.0);
  if (o.seeds.empty()) {
    std::fill(p.begin(), p.end(), 1.0 / static_cast<double>(n));
  } else {
    std::vector<uint32_t> s;
    for (int64_t id : o.seeds) s.push_back(detail::index_or_throw(g, id, "pagerank"));
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    for (uint32_t v : s) p[v] = 1.0 / static_cast<double>(s.size());
  }
  auto follows_out = [](uint8_t d) { return d != static_cast<uint8_t>(Direction::incoming); };  // u -> neighbor
  auto follows_in = [](uint8_t d) { return d != static_cast<uint8_t>(Direction::outgoing); };   // neighbor -> u
  std::vector<double> out_w(n, 0.0);
  for (uint32_t u = 0; u < n; ++u) {
    auto a = g.adjacency(u);
    for (std::size_t i = 0; i < a.size; ++i)
      if (follows_out(a.direction[i]) && f.pass(a, i)) out_w[u] += o.weighted ? a.score[i] : 1.0;
  }
  std::vector<double> x = p, nx(n), contrib(n);
  std::size_t threads = o.threads ? o.threads : detail::hardware_threads();
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
    detail::parallel_chunks(n, threads, threads, [&](std::size_t lo, std::size_t hi, std::size_t t) { work(lo, hi, &diffs[t]); });
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

}  // namespace grappi
