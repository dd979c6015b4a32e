// The stages of AgentPipeline::explore one by one (explore_stages.hpp), and ModelCalls, the
// cached, budgeted, repairing request path the agents share.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <random>

#include "agents/explore/explore_stages.hpp"
#include "grappi/grappi.hpp"
#include "models/model_calls.hpp"
#include "test_util.hpp"
#include "common/text_util.hpp"

using namespace testutil;
using grappi::detail::Candidate;
using grappi::detail::ExploreContext;
using grappi::detail::ExploreRun;

namespace {

// A small graph: R joined to A (0.9), B (0.8) and C (0.5); A-B (0.7); annotations mention
// kinases on A only.
struct Fixture {
  TempDir dir;
  grappi::KnowledgeGraph kg{dir.file("s.db")};
  int64_t r = 0, a = 0, b = 0, c = 0;
  Fixture() {
    r = kg.add_node({"1.R", "R", "Protein", "root protein", 0, "{}"});
    a = kg.add_node({"1.A", "A", "Protein", "a tau kinase", 0, "{}"});
    b = kg.add_node({"1.B", "B", "Protein", "a scaffold", 0, "{}"});
    c = kg.add_node({"1.C", "C", "Protein", "unrelated", 0, "{}"});
    auto edge = [&](int64_t x, int64_t y, double s) {
      grappi::EdgeInput e;
      e.source = x;
      e.target = y;
      e.relation = "string.combined";
      e.score = s;
      kg.add_edge(e);
    };
    edge(r, a, 0.9);
    edge(r, b, 0.8);
    edge(r, c, 0.5);
    edge(a, b, 0.7);
  }
};

Candidate candidate(std::vector<int64_t> nodes, std::vector<double> scores, std::size_t order) {
  Candidate c;
  c.nodes = std::move(nodes);
  c.scores = std::move(scores);
  c.edge_ids.assign(c.scores.size(), 0);
  c.order = order;
  return c;
}

}  // namespace

TEST_CASE("explore stages: windows / proteins / candidates distinct by node sequence across windows" * doctest::test_suite("threads")) {
  Fixture f;
  auto retriever = grappi::graph_retriever(f.kg);
  grappi::ExploreOptions o;
  o.query = "kinase";
  o.windows = {1, 2};
  o.window.k = {2, 2};
  ExploreContext ctx{f.kg, *retriever, nullptr, "", o, {}, grappi::detail::content_terms(o.query)};
  ExploreRun run;
  run.result.root = f.r;
  grappi::detail::retrieve_windows(ctx, run);
  REQUIRE(run.result.windows.size() == 2);
  // Without embeddings the edge score ranks: window 1 takes A and B, window 2 takes C.
  CHECK(run.result.windows[0].nodes.size() == 3);
  CHECK(run.result.windows[1].nodes[1].id == f.c);
  grappi::detail::collect_proteins(ctx, run);
  REQUIRE(run.result.proteins.size() == 4);
  CHECK(std::isnan(run.result.proteins[0].query_similarity));  // no vectors
  grappi::detail::enumerate_candidates(ctx, run);
  // Window 1: R-A, R-A-B, R-B, R-B-A; window 2: R-C. In candidate order (prior descending):
  // R-A 0.5 + 0.45, R-A-B 0.5 + 0.5 sqrt(0.63), R-B-A 0.5 + 0.5 sqrt(0.56), R-B 0.4, R-C 0.25.
  REQUIRE(run.candidates.size() == 5);
  CHECK(run.result.usage.candidate_paths == 5);
  const std::vector<std::vector<int64_t>> expected{{f.r, f.a}, {f.r, f.a, f.b}, {f.r, f.b, f.a}, {f.r, f.b}, {f.r, f.c}};
  for (std::size_t i = 0; i < run.candidates.size(); ++i) {
    CHECK(run.candidates[i].order == i);
    CHECK(run.candidates[i].nodes == expected[i]);
    // The search's incremental prior is path_prior's, to the last bit.
    CHECK(run.candidates[i].prior == grappi::detail::path_prior(ctx, run.result, run.candidates[i]));
  }
  CHECK(run.candidates.back().windows == std::vector<std::size_t>{2});
  CHECK_FALSE(run.result.candidates_truncated);
  CHECK(run.result.notes.empty());
  // A bound keeps the best by prior, not the first found, and says that more existed.
  o.max_paths = 2;
  ExploreRun bounded;
  bounded.result.root = f.r;
  grappi::detail::retrieve_windows(ctx, bounded);
  grappi::detail::collect_proteins(ctx, bounded);
  grappi::detail::enumerate_candidates(ctx, bounded);
  REQUIRE(bounded.candidates.size() == 2);
  CHECK(bounded.candidates[0].nodes == expected[0]);
  CHECK(bounded.candidates[1].nodes == expected[1]);
  CHECK(bounded.result.candidates_truncated);
  // The visiting bound stops the search and leaves a note.
  o.max_paths = 20000;
  o.max_visited = 3;
  ExploreRun capped;
  capped.result.root = f.r;
  grappi::detail::retrieve_windows(ctx, capped);
  grappi::detail::collect_proteins(ctx, capped);
  grappi::detail::enumerate_candidates(ctx, capped);
  CHECK(capped.candidates.size() == 3);
  CHECK(capped.result.usage.candidate_paths_visited == 3);
  CHECK(capped.result.candidates_truncated);
  REQUIRE(capped.result.notes.size() == 1);
  CHECK(capped.result.notes[0].find("max_visited") != std::string::npos);
  // A window past the root's neighbors holds the root alone, and says why.
  o.max_visited = 1000;
  o.windows = {3};
  ExploreRun empty;
  empty.result.root = f.r;
  grappi::detail::retrieve_windows(ctx, empty);
  grappi::detail::collect_proteins(ctx, empty);
  grappi::detail::enumerate_candidates(ctx, empty);
  CHECK(empty.candidates.empty());
  REQUIRE(empty.result.notes.size() == 2);
  CHECK(empty.result.notes[0] == "window 3: R has 3 neighbors; window 3 starts at rank 5 (k = 2), so it holds R alone");
  CHECK(empty.result.notes[1].find("no candidate paths") != std::string::npos);
}

namespace {

// Every path of the windows, its prior, and the best `keep` in the candidate order (prior
// descending, fewer edges, external ids): what the bounded search must return.
std::vector<std::vector<int64_t>> brute_force_best(const ExploreContext &ctx, const ExploreRun &run, std::size_t keep) {
  struct Entry {
    double prior;
    std::size_t edges;
    std::vector<std::string> ext;
    std::vector<int64_t> nodes;
  };
  std::map<std::vector<int64_t>, Entry> all;
  for (const auto &w : run.result.windows) {
    grappi::PathOptions po;
    po.max_length = ctx.options.max_length;
    po.max_paths = 1000000;  // (the most window_paths gives: enough here, see truncated)
    const auto ps = ctx.retriever.window_paths(w, po);
    REQUIRE_FALSE(ps.truncated);
    for (std::size_t i = 0; i < ps.size(); ++i) {
      const auto p = ps.path(i);
      Candidate c;
      c.nodes = p.nodes;
      c.scores = p.scores;
      Entry e{grappi::detail::path_prior(ctx, run.result, c), p.edges.size(), {}, p.nodes};
      for (auto id : p.nodes) e.ext.push_back(run.result.protein(id)->external_id);
      all.emplace(p.nodes, std::move(e));
    }
  }
  std::vector<Entry> v;
  for (auto &kv : all) v.push_back(kv.second);
  std::sort(v.begin(), v.end(), [](const Entry &a, const Entry &b) {
    if (a.prior != b.prior) return a.prior > b.prior;
    if (a.edges != b.edges) return a.edges < b.edges;
    return a.ext < b.ext;
  });
  std::vector<std::vector<int64_t>> out;
  for (std::size_t i = 0; i < v.size() && i < keep; ++i) out.push_back(v[i].nodes);
  return out;
}

}  // namespace

TEST_CASE("explore stages: the bounded candidate search keeps exactly the best paths by prior (random graphs)" *
          doctest::test_suite("threads")) {
  // Random graphs with repeated scores (ties) and annotations drawing on the query's words;
  // with and without vectors; the bound from 1 to more than all paths.
  for (int trial = 0; trial < 12; ++trial) {
    TempDir dir;
    grappi::KnowledgeGraph kg(dir.file("r.db"));
    std::mt19937 rng(static_cast<unsigned>(trial));
    const int n = 14 + trial % 5;
    const std::vector<std::string> words{"kinase", "tau", "phosphorylation", "scaffold", "membrane", "binding"};
    std::vector<int64_t> ids;
    std::vector<int> labels(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) labels[static_cast<std::size_t>(i)] = i;
    std::shuffle(labels.begin(), labels.end(), rng);
    for (int i = 0; i < n; ++i) {
      // Imported in a scrambled order: node ids do not follow external ids.
      const int label = labels[static_cast<std::size_t>(i)];
      std::string annotation;
      for (int w = 0; w < 3; ++w) annotation += words[rng() % words.size()] + " ";
      ids.push_back(kg.add_node({"9.P" + std::to_string(100 + label), "P" + std::to_string(label), "Protein", annotation, 0, "{}"}));
    }
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        if (rng() % 100 < 40) {
          grappi::EdgeInput e;
          e.source = ids[static_cast<std::size_t>(i)];
          e.target = ids[static_cast<std::size_t>(j)];
          e.relation = "string.combined";
          e.score = 0.4 + 0.1 * static_cast<double>(rng() % 6);
          kg.add_edge(e);
        }
    const bool vectors = trial % 2 == 1;
    if (vectors) {
      auto emb = grappi::make_embedder(kg, {});
      grappi::embed_graph(kg, *emb);
    }
    auto retriever = grappi::graph_retriever(kg);
    grappi::ExploreOptions o;
    o.query = "inhibit tau kinase phosphorylation";
    o.windows = {1, 2};
    o.window.k = {3, 3};
    o.max_length = 4;
    ExploreContext ctx{kg, *retriever, retriever->vectors(), vectors ? kg.default_model() : "", o, {},
                       grappi::detail::content_terms(o.query)};
    if (vectors) ctx.query = grappi::query_vector(kg, o.query);
    ExploreRun base;
    base.result.root = ids[0];
    grappi::detail::retrieve_windows(ctx, base);
    grappi::detail::collect_proteins(ctx, base);
    const auto everything = brute_force_best(ctx, base, std::size_t(-1));
    REQUIRE(everything.size() > 5);
    for (std::size_t keep : {std::size_t{1}, std::size_t{2}, std::size_t{7}, everything.size() / 2, everything.size(),
                             everything.size() + 5}) {
      o.max_paths = keep;
      ExploreRun run;
      run.result.root = ids[0];
      grappi::detail::retrieve_windows(ctx, run);
      grappi::detail::collect_proteins(ctx, run);
      grappi::detail::enumerate_candidates(ctx, run);
      const auto expected = brute_force_best(ctx, run, keep);
      REQUIRE(run.candidates.size() == expected.size());
      for (std::size_t i = 0; i < expected.size(); ++i) {
        CHECK_MESSAGE(run.candidates[i].nodes == expected[i], "trial " << trial << " keep " << keep << " rank " << i);
        CHECK(run.candidates[i].prior == grappi::detail::path_prior(ctx, run.result, run.candidates[i]));
      }
      CHECK(run.result.candidates_truncated == (keep < everything.size()));
    }
  }
}

TEST_CASE("explore stages: the prior and the selection by prior") {
  Fixture f;
  auto retriever = grappi::graph_retriever(f.kg);
  grappi::ExploreOptions o;
  o.query = "inhibit the kinase";
  ExploreContext ctx{f.kg, *retriever, nullptr, "", o, {}, grappi::detail::content_terms(o.query)};
  REQUIRE(ctx.terms == std::vector<std::string>{"inhibit", "kinase"});
  ExploreRun run;
  for (int64_t id : {f.r, f.a, f.b, f.c}) {
    grappi::ExploreProtein p;
    p.id = id;
    p.name = f.kg.node(id)->name;
    p.annotation = f.kg.node(id)->annotation;
    p.query_similarity = std::nan("");
    run.result.proteins.push_back(p);
  }
  // Without vectors: Q = the fraction of the query's content words found after the first
  // protein ("kinase" on A: 1 of 2), C = the geometric mean of the edge scores.
  const Candidate ra = candidate({f.r, f.a}, {0.9}, 0), rab = candidate({f.r, f.a, f.b}, {0.9, 0.4}, 1),
                  rb = candidate({f.r, f.b}, {0.8}, 2), rc = candidate({f.r, f.c}, {0.5}, 3);
  CHECK(grappi::detail::path_prior(ctx, run.result, ra) == doctest::Approx(0.5 * 0.5 + 0.5 * 0.9));
  CHECK(grappi::detail::path_prior(ctx, run.result, rab) == doctest::Approx(0.5 * 0.5 + 0.5 * std::sqrt(0.9 * 0.4)));
  CHECK(grappi::detail::path_prior(ctx, run.result, rb) == doctest::Approx(0.5 * 0.8));
  run.candidates = {ra, rab, rb, rc};
  for (Candidate &c : run.candidates) c.prior = grappi::detail::path_prior(ctx, run.result, c);  // (as the search gives them)
  // explain_top 2 keeps the two best priors (R-A 0.7, R-A-B 0.55), in discovery order.
  o.explain_top = 2;
  grappi::detail::select_candidates(ctx, run);
  CHECK(run.selected == std::vector<std::size_t>{0, 1});
  CHECK(run.result.usage.selected_paths == 2);
  // 0: everything, in discovery order.
  o.explain_top = 0;
  grappi::detail::select_candidates(ctx, run);
  CHECK(run.selected == std::vector<std::size_t>{0, 1, 2, 3});
  // The budget: one request per path and per edge not yet counted, the best priors first while they fit
  // (R-A: 2 requests; R-A-B shares R-A's edge: 2 more; R-B: 2 more).
  run.candidates[0].edge_ids = {1};
  run.candidates[1].edge_ids = {1, 2};
  run.candidates[2].edge_ids = {3};
  run.candidates[3].edge_ids = {4};
  o.explain_budget = 4;
  run.result.notes.clear();
  grappi::detail::select_candidates(ctx, run);
  CHECK(run.selected == std::vector<std::size_t>{0, 1});
  REQUIRE(run.result.notes.size() == 1);
  CHECK(run.result.notes[0].rfind("explained the best 2 of 4 candidate paths by the prior", 0) == 0);
  o.explain_budget = 3;
  grappi::detail::select_candidates(ctx, run);
  CHECK(run.selected == std::vector<std::size_t>{0});
  o.explain_budget = 2;  // (with explain_top, the budget takes a prefix of the kept ones)
  o.explain_top = 1;
  run.result.notes.clear();
  grappi::detail::select_candidates(ctx, run);
  CHECK(run.selected == std::vector<std::size_t>{0});
  CHECK(run.result.notes.empty());
  o.explain_budget = 0;
  // Equal priors: the shorter path first.
  run.candidates = {candidate({f.r, f.a, f.b}, {0.8, 0.8}, 0), candidate({f.r, f.b}, {0.8}, 1)};
  run.candidates[0].prior = run.candidates[1].prior = 0.5;
  o.explain_top = 1;
  grappi::detail::select_candidates(ctx, run);
  CHECK(run.selected == std::vector<std::size_t>{1});
}

TEST_CASE("explore stages: ranking by relevance then fewer edges then the prior - failures apart") {
  Fixture f;
  auto retriever = grappi::graph_retriever(f.kg);
  grappi::ExploreOptions o;
  o.query = "q";
  o.top = 3;
  o.diversity = 0;  // the reference ranking
  ExploreContext ctx{f.kg, *retriever, nullptr, "", o, {}, {}};
  const auto model = grappi::make_chat_model({});
  grappi::detail::ModelCalls calls(f.kg, *model, {});
  ExploreRun run;
  auto path = [](std::size_t edges, double relevance, double prior, const char *status) {
    grappi::ExplainedPath p;
    p.edges.assign(edges, 0);
    p.relevance_score = relevance;
    p.prior = prior;
    p.status = status;
    return p;
  };
  run.paths = {path(2, 80, 0.1, "ok"), path(1, 80, 0.1, "ok"), path(1, 80, 0.9, "ok"),
               path(1, 95, 0.0, "ok"), path(1, 99, 1.0, "failed"), path(1, 99, 1.0, "skipped")};
  grappi::detail::rank_paths(ctx, run, calls);
  REQUIRE(run.result.paths.size() == 3);
  CHECK(run.result.paths[0].relevance_score == 95);
  CHECK(run.result.paths[1].prior == 0.9);   // 80, one edge, the higher prior
  CHECK(run.result.paths[2].prior == 0.1);   // 80, one edge
  CHECK(run.result.paths[2].edges.size() == 1);
  for (std::size_t i = 0; i < 3; ++i) CHECK(run.result.paths[i].rank == i + 1);
  CHECK(run.result.failed.size() == 2);
  CHECK(run.result.usage.paths_explained == 4);
  CHECK(run.result.usage.paths_failed == 1);
  CHECK(run.result.usage.paths.skipped == 1);
}

TEST_CASE("explore stages: diversity folds orderings of one protein set and penalises near-duplicates") {
  auto path = [](std::vector<int64_t> nodes, double relevance) {
    grappi::ExplainedPath p;
    p.nodes = std::move(nodes);
    p.edges.assign(p.nodes.size() - 1, 0);
    p.relevance_score = relevance;
    p.status = "ok";
    return p;
  };
  // Root 0. Ranked: 0-1-2 (80), 0-2-1 (80, the same set), 0-1-2-3 (79, shares 2 of 3), 0-4 (76),
  // 0-1 (75, shares 1 of 2 with 0-1-2).
  const std::vector<grappi::ExplainedPath> paths{path({0, 1, 2}, 80), path({0, 2, 1}, 80), path({0, 1, 2, 3}, 79),
                                                 path({0, 4}, 76), path({0, 1}, 75)};
  const std::vector<std::size_t> ranked{0, 1, 2, 3, 4};
  std::size_t folded = 99;
  // 0: the reference ranking, every ordering.
  CHECK(grappi::detail::diverse_top(paths, ranked, 3, 0.0, folded) == std::vector<std::size_t>{0, 1, 2});
  CHECK(folded == 0);
  // 0.1: 0-2-1 folded; then 0-1-2 (0.72); next 0-4 (0.684) beats 0-1-2-3 (0.711 - 0.1 * 2/3 = 0.644)
  // and 0-1 (0.675 - 0.05 = 0.625); then 0-1-2-3 (0.644). Listed in ranking order.
  CHECK(grappi::detail::diverse_top(paths, ranked, 3, 0.1, folded) == std::vector<std::size_t>{0, 2, 3});
  CHECK(folded == 1);
  // Asking for more than there are sets gives every set once.
  CHECK(grappi::detail::diverse_top(paths, ranked, 10, 0.1, folded) == std::vector<std::size_t>{0, 2, 3, 4});
  // 1: only novelty counts (after the first pick): 0-4 shares nothing.
  CHECK(grappi::detail::diverse_top(paths, ranked, 2, 1.0, folded) == std::vector<std::size_t>{0, 3});
}

TEST_CASE("ModelCalls: cached answers / one repair turn / budgets that skip with a reason / failures paid once") {
  Fixture f;
  std::atomic<int> calls_made{0};
  // Answers "not json" to a first request and a good JSON object to its repair turn.
  grappi::ChatModelSpec spec;
  spec.kind = "callback";
  spec.name = "stage-test";
  spec.callback = [&](const grappi::ChatRequest &q) {
    ++calls_made;
    grappi::ChatResponse r;
    r.content = q.messages.size() > 1 ? R"({"explanation": "fixed", "relevance_score": 70})" : "not json";
    r.prompt_tokens = 10;
    r.completion_tokens = 5;
    return r;
  };
  auto model = grappi::make_chat_model(spec);
  grappi::ChatRequest req;
  req.messages = {{"user", "explain"}};
  req.task = nlohmann::json::object();
  grappi::StageUsage usage;
  grappi::detail::ModelCalls::Settings settings;
  settings.template_version = "t1";
  {
    grappi::detail::ModelCalls calls(f.kg, *model, settings);
    auto a = calls.ask<grappi::PathAnswer>("path", req, grappi::parse_path_answer, usage, "Fix it: {{error}}");
    CHECK(a.status == "ok");
    CHECK(a.answer.explanation == "fixed");
    CHECK_FALSE(a.cached);
    CHECK(usage.model_calls == 2);
    CHECK(usage.repairs == 1);
    CHECK(usage.prompt_tokens == 20);
    calls.flush();
  }
  CHECK(f.kg.response_cache_size() == 2);  // the answer (repaired) and the repair turn's
  {
    // The answer that parsed was stored under the first request's key: no call now.
    grappi::detail::ModelCalls calls(f.kg, *model, settings);
    auto a = calls.ask<grappi::PathAnswer>("path", req, grappi::parse_path_answer, usage, "Fix it: {{error}}");
    CHECK(a.status == "ok");
    CHECK(a.cached);
    CHECK(calls_made == 2);
    CHECK(usage.cache_hits == 1);
  }
  {
    // Without a repair template the unparseable answer is a failure with the parser's reason.
    settings.use_cache = false;
    grappi::detail::ModelCalls calls(f.kg, *model, settings);
    auto a = calls.ask<grappi::PathAnswer>("path", req, grappi::parse_path_answer, usage);
    CHECK(a.status == "failed");
    CHECK_FALSE(a.error.empty());
  }
  {
    // A budget of one call: the first request is sent, the next is skipped with the reason.
    settings.max_calls = 1;
    grappi::detail::ModelCalls calls(f.kg, *model, settings);
    grappi::StageUsage u;
    auto a = calls.ask<grappi::EdgeAnswer>("edge", req, grappi::parse_edge_answer, u);
    auto b = calls.ask<grappi::EdgeAnswer>("edge", req, grappi::parse_edge_answer, u);
    CHECK(a.status == "ok");
    CHECK(b.status == "skipped");
    CHECK(b.error.find("call budget of 1") != std::string::npos);
    CHECK(calls.exhausted());
    CHECK(u.model_calls == 1);
  }
  {
    // Paid once: an answer that does not parse is stored too, and a re-run reads the failure
    // instead of calling the model again.
    settings = {};
    settings.template_version = "t2";
    grappi::ChatRequest other = req;
    other.messages = {{"user", "explain again"}};
    const int before = calls_made;
    std::size_t cached = f.kg.response_cache_size();
    {
      grappi::detail::ModelCalls calls(f.kg, *model, settings);
      grappi::StageUsage u;
      auto a = calls.ask<grappi::PathAnswer>("path", other, grappi::parse_path_answer, u);
      CHECK(a.status == "failed");
      CHECK_FALSE(a.cached);
      calls.flush();
    }
    CHECK(calls_made == before + 1);
    CHECK(f.kg.response_cache_size() == cached + 1);
    {
      grappi::detail::ModelCalls calls(f.kg, *model, settings);
      grappi::StageUsage u;
      auto a = calls.ask<grappi::PathAnswer>("path", other, grappi::parse_path_answer, u);
      CHECK(a.status == "failed");
      CHECK(a.cached);
      CHECK(a.error.find("stored answer from an earlier run") != std::string::npos);
      CHECK(u.model_calls == 0);
      CHECK(u.cache_hits == 1);
    }
    CHECK(calls_made == before + 1);
    // With a repair template, only the repair turn is asked; then the repaired answer is stored.
    {
      grappi::detail::ModelCalls calls(f.kg, *model, settings);
      grappi::StageUsage u;
      auto a = calls.ask<grappi::PathAnswer>("path", other, grappi::parse_path_answer, u, "Fix it: {{error}}");
      CHECK(a.status == "ok");
      CHECK(u.model_calls == 1);
      CHECK(u.repairs == 1);
      calls.flush();
    }
    {
      grappi::detail::ModelCalls calls(f.kg, *model, settings);
      grappi::StageUsage u;
      auto a = calls.ask<grappi::PathAnswer>("path", other, grappi::parse_path_answer, u);
      CHECK(a.status == "ok");
      CHECK(a.cached);
      CHECK(u.model_calls == 0);
    }
    CHECK(calls_made == before + 2);
    // With the cache off, the model is asked again (and repaired).
    settings.use_cache = false;
    {
      grappi::detail::ModelCalls calls(f.kg, *model, settings);
      grappi::StageUsage u;
      auto a = calls.ask<grappi::PathAnswer>("path", other, grappi::parse_path_answer, u, "Fix it: {{error}}");
      CHECK(a.status == "ok");
      CHECK(u.model_calls == 2);
    }
  }
  {
    // A model that answers prose to the request and to its repair turn: the first run pays both,
    // every later run neither (the repair turn is asked the same whether the first answer came
    // from the server or from the cache, so its stored answer is found).
    grappi::ChatModelSpec prose;
    prose.kind = "callback";
    prose.name = "prose";
    std::atomic<int> asked{0};
    prose.callback = [&](const grappi::ChatRequest &) {
      ++asked;
      grappi::ChatResponse r;
      r.content = "I think the path is plausible.";
      return r;
    };
    auto talker = grappi::make_chat_model(prose);
    grappi::detail::ModelCalls::Settings s;
    s.template_version = "t3";
    for (int run = 0; run < 3; ++run) {
      CAPTURE(run);
      grappi::detail::ModelCalls calls(f.kg, *talker, s);
      grappi::StageUsage u;
      auto a = calls.ask<grappi::PathAnswer>("path", req, grappi::parse_path_answer, u, "Fix it: {{error}}");
      CHECK(a.status == "failed");
      CHECK(u.model_calls == (run == 0 ? 2u : 0u));
      calls.flush();
    }
    CHECK(asked == 2);
  }
}
