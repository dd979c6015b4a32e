// Retrieval benchmarks on an imported, embedded database: built-in embedder throughput,
// GraPPI window + path enumeration for the highest-degree and a median-degree protein (all
// links and score >= 0.7), PageRank, HNSW build/query/recall.
// Usage: bench_retrieval --db FILE [Google Benchmark flags]   (run `grappi embed` first)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

#include "grappi/grappi.hpp"
#include "grappi/retriever.hpp"

namespace {

std::string g_db;

struct Ctx {
  std::unique_ptr<grappi::KnowledgeGraph> kg;
  std::shared_ptr<const grappi::GraphSnapshot> snap;
  std::shared_ptr<const grappi::VectorIndex> vec;
  int64_t hub = 0, median = 0;
  std::vector<std::string> texts;
  std::unique_ptr<grappi::Retriever> ranked;  // with the neighbor ranking (built on first use)
};

Ctx &ctx() {
  static Ctx c = [] {
    Ctx x;
    x.kg = std::make_unique<grappi::KnowledgeGraph>(g_db);
    x.snap = x.kg->snapshot();
    x.vec = grappi::graph_vectors(*x.kg);
    std::vector<std::pair<std::size_t, int64_t>> deg;
    for (uint32_t i = 0; i < x.snap->node_count(); ++i) deg.emplace_back(x.snap->adjacency(i).size, x.snap->node_id(i));
    std::sort(deg.begin(), deg.end());
    x.hub = deg.back().second;
    x.median = deg[deg.size() / 2].second;
    for (uint32_t i = 0; i < x.snap->node_count(); ++i)
      x.texts.push_back(grappi::KnowledgeGraph::node_text(*x.kg->node(x.snap->node_id(i))));
    return x;
  }();
  return c;
}

void BM_HashingEmbedAll(benchmark::State &st) {
  auto e = grappi::hashing_embedder(*ctx().kg);
  for (auto _ : st) benchmark::DoNotOptimize(e->embed(ctx().texts).data.data());
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * ctx().texts.size()));
}

// The neighbor ranking (grappi embed writes it): built once, outside the timed windows.
grappi::Retriever &ranked() {
  if (!ctx().ranked) {
    ctx().ranked = std::make_unique<grappi::Retriever>(ctx().snap, ctx().vec);
    ctx().ranked->rank_neighbors();
  }
  return *ctx().ranked;
}

void BM_RankNeighbors(benchmark::State &st) {
  for (auto _ : st) {
    grappi::Retriever r(ctx().snap, ctx().vec);
    r.rank_neighbors();
    st.counters["entries"] = static_cast<double>(r.neighbor_ranking_entries());
  }
}

void window_and_paths(benchmark::State &st, bool hub, double min_score, bool use_ranking = false) {
  grappi::Retriever plain(ctx().snap, ctx().vec);
  grappi::Retriever &r = use_ranking ? ranked() : plain;
  grappi::WindowOptions o;
  o.k = {30, 4};
  o.depth = 2;
  o.filter.min_score = min_score;
  std::size_t nodes = 0, paths = 0;
  for (auto _ : st) {
    auto w = r.window(hub ? ctx().hub : ctx().median, o);
    auto p = r.window_paths(w);
    nodes = w.nodes.size();
    paths = p.size();
  }
  st.counters["window_nodes"] = static_cast<double>(nodes);
  st.counters["paths"] = static_cast<double>(paths);
}
void BM_WindowPathsHub(benchmark::State &st) { window_and_paths(st, true, 0.0); }
void BM_WindowPathsMedian(benchmark::State &st) { window_and_paths(st, false, 0.0); }
void BM_WindowPathsHub700(benchmark::State &st) { window_and_paths(st, true, 0.7); }
void BM_WindowPathsMedian700(benchmark::State &st) { window_and_paths(st, false, 0.7); }
void BM_WindowPathsHubRanked(benchmark::State &st) { window_and_paths(st, true, 0.0, true); }
void BM_WindowPathsMedianRanked(benchmark::State &st) { window_and_paths(st, false, 0.0, true); }
void BM_WindowPathsHub700Ranked(benchmark::State &st) { window_and_paths(st, true, 0.7, true); }
void BM_WindowPathsMedian700Ranked(benchmark::State &st) { window_and_paths(st, false, 0.7, true); }

void pagerank(benchmark::State &st, bool personalised, double tolerance) {
  grappi::Retriever r(ctx().snap);
  grappi::PageRankOptions o;
  o.tolerance = tolerance;  // L1 change between iterations
  if (personalised) o.seeds = {ctx().hub};
  std::size_t it = 0;
  for (auto _ : st) it = r.pagerank(o).iterations;
  st.counters["iterations"] = static_cast<double>(it);
}
void BM_PageRankGlobal(benchmark::State &st) { pagerank(st, false, 1e-6); }
void BM_PageRankPersonalised(benchmark::State &st) { pagerank(st, true, 1e-6); }
void BM_PageRankGlobalTol1e9(benchmark::State &st) { pagerank(st, false, 1e-9); }
void BM_PageRankPersonalisedTol1e9(benchmark::State &st) { pagerank(st, true, 1e-9); }

void BM_HnswBuild(benchmark::State &st) {
  for (auto _ : st) {
    grappi::VectorIndex v(ctx().vec->model(), ctx().vec->ids(), [] {
      grappi::Embeddings e;
      e.dim = ctx().vec->dim();
      for (int64_t id : ctx().vec->ids()) {
        const float *p = ctx().vec->vector(id);
        e.data.insert(e.data.end(), p, p + e.dim);
      }
      return e;
    }());
    v.build_hnsw();
    benchmark::DoNotOptimize(v.has_hnsw());
  }
}

void BM_SearchExact(benchmark::State &st) {
  auto &v = *ctx().vec;
  std::size_t i = 0;
  for (auto _ : st) {
    const float *q = v.vector(v.ids()[(i++ * 7919) % v.size()]);
    benchmark::DoNotOptimize(v.search(q, 10));
  }
}

void BM_SearchHnsw(benchmark::State &st) {
  auto v = grappi::graph_vectors(*ctx().kg, "", true);
  // Recall@10 against exact search on 500 queries (the nodes' own vectors, self excluded).
  std::size_t found = 0, total = 0;
  for (std::size_t i = 0; i < 500; ++i) {
    const float *q = v->vector(v->ids()[(i * 7919) % v->size()]);
    auto exact = v->search(q, 11), approx = v->search_hnsw(q, 11);
    std::set<int64_t> want;
    for (std::size_t k = 1; k < exact.size(); ++k) want.insert(exact[k].id);
    for (std::size_t k = 1; k < approx.size(); ++k) found += want.count(approx[k].id);
    total += 10;
  }
  std::size_t i = 0;
  for (auto _ : st) {
    const float *q = v->vector(v->ids()[(i++ * 7919) % v->size()]);
    benchmark::DoNotOptimize(v->search_hnsw(q, 10));
  }
  st.counters["recall@10"] = static_cast<double>(found) / static_cast<double>(total);
}

BENCHMARK(BM_HashingEmbedAll)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_WindowPathsHub)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowPathsMedian)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowPathsHub700)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowPathsMedian700)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RankNeighbors)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_WindowPathsHubRanked)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowPathsMedianRanked)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowPathsHub700Ranked)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowPathsMedian700Ranked)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PageRankGlobal)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_PageRankPersonalised)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_PageRankGlobalTol1e9)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_PageRankPersonalisedTol1e9)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_HnswBuild)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_SearchExact)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SearchHnsw)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char **argv) {
  std::vector<char *> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--db") == 0 && i + 1 < argc) {
      g_db = argv[++i];
      continue;
    }
    rest.push_back(argv[i]);
  }
  if (g_db.empty()) {
    std::fprintf(stderr, "usage: %s --db FILE [benchmark flags]\n", argv[0]);
    return 2;
  }
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
