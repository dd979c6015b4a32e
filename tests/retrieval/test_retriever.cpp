#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>

#include "grappi/grappi.hpp"
#include "grappi/retriever.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;

namespace {

// Embeds each node ("NAME: ...") as the unit vector at angle[NAME] degrees, so that similarity
// orders are obvious: cos(angle difference).
void embed_by_angle(KnowledgeGraph &kg, const std::map<std::string, double> &angle) {
  grappi::CallbackEmbedder emb("angles", 2, [&angle](const std::vector<std::string> &texts) {
    grappi::Embeddings e;
    e.dim = 2;
    for (auto &t : texts) {
      double a = angle.at(t.substr(0, t.find(':'))) * M_PI / 180.0;
      e.data.push_back(static_cast<float>(std::cos(a)));
      e.data.push_back(static_cast<float>(std::sin(a)));
    }
    return e;
  });
  grappi::embed_graph(kg, emb);
}

// Hand-built graph: every node's embedding is a unit vector at a chosen angle (degrees), so the
// similarity order is obvious: cos(angle difference).
struct Hand {
  TempDir dir;
  KnowledgeGraph kg{dir.file("hand.db")};
  std::map<std::string, double> angle{{"R", 0}, {"A", 10}, {"B", 20}, {"C", 30}, {"D", 90}, {"E", 15}, {"F", 25}};
  std::map<std::string, int64_t> id;
  Hand() {
    for (auto &kv : angle) id[kv.first] = kg.add_node({"1." + kv.first, kv.first, kv.first == "D" ? "Gene" : "Protein", "", 0, "{}"});
    edge("R", "A", 0.9);
    edge("R", "A", 0.5, "string.physical");  // a second relation: A still counts once
    edge("R", "B", 0.3);
    edge("R", "C", 0.8);
    edge("R", "D", 0.7);
    edge("A", "E", 0.6);
    edge("A", "B", 0.6);
    edge("B", "F", 0.6);
    edge("C", "F", 0.6);
    embed_by_angle(kg, angle);
  }
  void edge(const std::string &a, const std::string &b, double s, const std::string &rel = "string.combined") {
    grappi::EdgeInput e;
    e.source = id[a];
    e.target = id[b];
    e.relation = rel;
    e.score = s;
    kg.add_edge(e);
  }
  grappi::Retriever retriever() { return grappi::Retriever(kg.snapshot(), grappi::graph_vectors(kg)); }
  std::map<std::string, std::pair<std::size_t, std::string>> members(const grappi::Window &w) {
    std::map<std::string, std::pair<std::size_t, std::string>> m;
    auto g = kg.snapshot();
    for (auto &n : w.nodes) m[n.name] = {n.depth, n.parent ? g->name(*g->index_of(*n.parent)) : "-"};
    return m;
  }
  std::set<std::pair<std::string, std::string>> edge_names(const grappi::Window &w) {
    std::set<std::pair<std::string, std::string>> s;
    auto g = kg.snapshot();
    for (auto &e : w.edges) {
      std::string a = g->name(*g->index_of(e.source)), b = g->name(*g->index_of(e.target));
      s.insert({std::min(a, b), std::max(a, b)});
    }
    return s;
  }
};

using Members = std::map<std::string, std::pair<std::size_t, std::string>>;

}  // namespace

TEST_CASE("moving kNN windows on a hand-built graph with hand-chosen embeddings" * doctest::test_suite("threads")) {
  Hand h;
  auto r = h.retriever();
  grappi::WindowOptions o;
  o.k = {2, 1};
  o.depth = 2;
  // Window 1: R's neighbors by angle: A(10) B(20) | C(30) D(90). A then takes E (15, closest
  // new neighbor), B takes F (25).
  auto w1 = r.window(h.id["R"], o);
  CHECK(h.members(w1) == Members{{"R", {0, "-"}}, {"A", {1, "R"}}, {"B", {1, "R"}}, {"E", {2, "A"}}, {"F", {2, "B"}}});
  CHECK(w1.nodes[0].name == "R");
  CHECK(h.edge_names(w1) == std::set<std::pair<std::string, std::string>>{{"A", "R"}, {"B", "R"}, {"A", "E"}, {"A", "B"}, {"B", "F"}});
  CHECK(w1.edges.size() == 6);  // R-A twice (two relations)
  // Cancelled: the window stops growing before its next level (the root's picks are made before
  // the first poll), keeps the edges among what it has, and says so; a cancel that never says
  // stop changes nothing.
  {
    grappi::WindowOptions c = o;
    c.cancel = [] { return true; };
    const auto wc = r.window(h.id["R"], c);
    CHECK(h.members(wc) == Members{{"R", {0, "-"}}, {"A", {1, "R"}}, {"B", {1, "R"}}});
    CHECK(h.edge_names(wc) == std::set<std::pair<std::string, std::string>>{{"A", "R"}, {"B", "R"}, {"A", "B"}});
    CHECK(wc.note.find("cancelled: the window stopped growing at 3 nodes") != std::string::npos);
    c.cancel = [] { return false; };
    const auto wn = r.window(h.id["R"], c);
    CHECK(h.members(wn) == h.members(w1));
    CHECK(wn.note.empty());
  }
  // Window 2: ranks 3-4 at the root.
  o.window = 2;
  auto w2 = r.window(h.id["R"], o);
  CHECK(h.members(w2) == Members{{"R", {0, "-"}}, {"C", {1, "R"}}, {"D", {1, "R"}}, {"F", {2, "C"}}});
  // Window 3 is empty beyond the root.
  o.window = 3;
  CHECK(r.window(h.id["R"], o).nodes.size() == 1);
  // Several windows at once equal the single ones.
  auto both = r.windows(h.id["R"], {1, 2}, o);
  CHECK(h.members(both[0]) == h.members(w1));
  CHECK(h.members(both[1]) == h.members(w2));
  // Depth 1 stops after the root's ranking; a score filter drops R-B.
  o.window = 1;
  o.depth = 1;
  CHECK(h.members(r.window(h.id["R"], o)) == Members{{"R", {0, "-"}}, {"A", {1, "R"}}, {"B", {1, "R"}}});
  o.filter.min_score = 0.5;
  CHECK(h.members(r.window(h.id["R"], o)) == Members{{"R", {0, "-"}}, {"A", {1, "R"}}, {"C", {1, "R"}}});
  // Relation filter: only the physical R-A edge.
  o.filter = {};
  o.filter.relations = {"string.physical"};
  CHECK(h.members(r.window(h.id["R"], o)) == Members{{"R", {0, "-"}}, {"A", {1, "R"}}});
  // Blending the edge score in: score weight 1 ranks R's neighbors by score: A .9, C .8.
  o.filter = {};
  o.score_weight = 1.0;
  CHECK(h.members(r.window(h.id["R"], o)) == Members{{"R", {0, "-"}}, {"A", {1, "R"}}, {"C", {1, "R"}}});
  // Blending a query: a query at 90 degrees pulls D up.
  o.score_weight = 0.0;
  o.query = {0.0f, 1.0f};
  o.query_weight = 0.9;
  auto wq = r.window(h.id["R"], o);
  CHECK(h.members(wq).count("D") == 1);
  o.query_weight = 0.0;
  CHECK_THROWS_AS(r.window(12345, o), grappi::Error);
  o.k = {0};
  CHECK_THROWS_AS(r.window(h.id["R"], o), grappi::Error);
}

TEST_CASE("window paths: every simple path from the root / prefixes included / against brute force") {
  Hand h;
  auto r = h.retriever();
  grappi::WindowOptions o;
  o.k = {4, 2};
  auto w = r.window(h.id["R"], o);
  // Brute force over the window graph, built independently from its edge list.
  std::map<int64_t, std::set<int64_t>> adj;
  for (auto &e : w.edges) {
    adj[e.source].insert(e.target);
    adj[e.target].insert(e.source);
  }
  std::set<std::vector<int64_t>> want;
  std::function<void(std::vector<int64_t> &)> rec = [&](std::vector<int64_t> &p) {
    if (p.size() > 1) want.insert(p);
    if (p.size() == 5) return;  // 4 edges
    for (int64_t v : adj[p.back()]) {
      if (std::find(p.begin(), p.end(), v) != p.end()) continue;
      p.push_back(v);
      rec(p);
      p.pop_back();
    }
  };
  std::vector<int64_t> start{h.id["R"]};
  rec(start);
  auto got_set_paths = r.window_paths(w);
  CHECK_FALSE(got_set_paths.truncated);
  struct {
    std::vector<grappi::Path> paths;
  } got{got_set_paths.all()};
  std::set<std::vector<int64_t>> got_set;
  for (auto &p : got.paths) {
    got_set.insert(p.nodes);
    CHECK(p.edges.size() == p.nodes.size() - 1);
  }
  CHECK(got_set.size() == got.paths.size());  // no duplicates
  CHECK(got_set == want);
  // Deterministic order, and the bound.
  auto again = r.window_paths(w);
  REQUIRE(again.size() == got.paths.size());
  for (std::size_t i = 0; i < got.paths.size(); ++i) {
    CHECK(again.path(i).nodes == got.paths[i].nodes);
    CHECK(again.length(i) == got.paths[i].length());
  }
  grappi::PathOptions po;
  po.max_paths = 3;
  auto few = r.window_paths(w, po);
  CHECK(few.truncated);
  CHECK(few.size() == 3);
  po = {};
  po.max_length = 1;
  CHECK(r.window_paths(w, po).size() == adj[h.id["R"]].size());
  // The paths as text, written one at a time, are the JSON tree's text.
  CHECK(grappi::paths_json_text(r.graph(), got_set_paths) == grappi::dump_json(grappi::to_json(r.graph(), got.paths)));
  CHECK(grappi::paths_json_text(r.graph(), grappi::PathSet{}) == "[]");
  // JSON names.
  auto j = grappi::to_json(r.graph(), w);
  CHECK(j["nodes"][0]["parent"].is_null());
  CHECK(j["nodes"][1]["parent"] == "R");
  CHECK(j["edges"][0].contains("relation"));
}

TEST_CASE("Yen's k shortest simple paths agree with brute force on random small graphs") {
  // Random graphs, every maximum length from 1 to 7 (so that the hop limit binds in weighted
  // searches, where the lightest path may have too many edges), by hops and by weight.
  std::mt19937 rng(5);
  for (int trial = 0; trial < 40; ++trial) {
    TempDir d;
    KnowledgeGraph kg(d.file("y.db"));
    const int n = 8 + trial % 4;
    std::vector<int64_t> ids;
    for (int i = 0; i < n; ++i) ids.push_back(kg.add_node({"1.n" + std::to_string(i), "N" + std::to_string(i), "Protein", "", 0, "{}"}));
    std::map<std::pair<int, int>, double> w;
    const std::size_t m = 12 + static_cast<std::size_t>(trial % 12);
    while (w.size() < m) {
      int a = static_cast<int>(rng() % n), b = static_cast<int>(rng() % n);
      if (a == b) continue;
      auto key = std::make_pair(std::min(a, b), std::max(a, b));
      if (w.count(key)) continue;
      // Scores in steps of 0.05: many equal weights (ties), and some edges of weight 0.
      double s = 0.05 * static_cast<double>(1 + rng() % 20);
      w[key] = s;
      grappi::EdgeInput e;
      e.source = ids[a];
      e.target = ids[b];
      e.relation = "r";
      e.score = s;
      kg.add_edge(e);
    }
    grappi::Retriever r(kg.snapshot());
    const std::size_t max_len = 1 + static_cast<std::size_t>(trial % 7);
    for (bool weighted : {false, true}) {
      CAPTURE(trial);
      CAPTURE(weighted);
      CAPTURE(max_len);
      // Brute force: every simple path 0 -> n-1 with <= max_len edges.
      std::vector<double> all;
      std::vector<int> p{0};
      std::function<void()> rec = [&] {
        if (p.back() == n - 1) {
          double c = 0;
          for (std::size_t i = 0; i + 1 < p.size(); ++i) {
            double s = w.at({std::min(p[i], p[i + 1]), std::max(p[i], p[i + 1])});
            c += weighted ? -std::log(static_cast<double>(static_cast<float>(s))) : 1.0;
          }
          all.push_back(c);
          return;
        }
        if (p.size() == max_len + 1) return;
        for (int v = 0; v < n; ++v) {
          if (std::find(p.begin(), p.end(), v) != p.end()) continue;
          if (!w.count({std::min(p.back(), v), std::max(p.back(), v)})) continue;
          p.push_back(v);
          rec();
          p.pop_back();
        }
      };
      rec();
      std::sort(all.begin(), all.end());
      grappi::ShortestPathOptions o;
      o.k = 1 + static_cast<std::size_t>(rng() % 12);
      o.max_length = max_len;
      o.weighted = weighted;
      auto got = r.shortest_paths(ids[0], ids[n - 1], o);
      REQUIRE(got.size() == std::min<std::size_t>(o.k, all.size()));
      std::set<std::vector<int64_t>> uniq;
      for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].weight == doctest::Approx(all[i]).epsilon(1e-5));
        CHECK(got[i].nodes.front() == ids[0]);
        CHECK(got[i].nodes.back() == ids[n - 1]);
        CHECK(got[i].length() <= max_len);
        std::set<int64_t> s(got[i].nodes.begin(), got[i].nodes.end());
        CHECK(s.size() == got[i].nodes.size());  // simple
        uniq.insert(got[i].nodes);
        for (double sc : got[i].scores) CHECK(sc == std::round(sc * 1000) / 1000);  // as imported, no float32 noise
      }
      CHECK(uniq.size() == got.size());
      if (got.size() > 1) {  // a cancel stops the enumeration at its next spur search
        o.cancel = [] { return true; };
        const auto stopped = r.shortest_paths(ids[0], ids[n - 1], o);
        REQUIRE(stopped.size() == 1);  // (the first path precedes every spur search)
        CHECK(stopped[0].weight == doctest::Approx(got[0].weight));
      }
    }
    grappi::ShortestPathOptions bad;
    bad.k = 0;
    CHECK_THROWS_WITH_AS(r.shortest_paths(ids[0], ids[n - 1], bad), doctest::Contains("k must be 1 to 10000, not 0"), grappi::Error);
    bad.k = std::size_t(-1);  // (a negative count wrapped round)
    CHECK_THROWS_WITH_AS(r.shortest_paths(ids[0], ids[n - 1], bad), doctest::Contains("k must be 1 to 10000"), grappi::Error);
  }
}

TEST_CASE("every shortest path agrees with brute force on random small graphs / masked nodes and the direct edge") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 40; ++trial) {
    TempDir d;
    KnowledgeGraph kg(d.file("a.db"));
    const int n = 7 + trial % 5;
    std::vector<int64_t> ids;
    for (int i = 0; i < n; ++i) ids.push_back(kg.add_node({"1.n" + std::to_string(i), "N" + std::to_string(i), "Protein", "", 0, "{}"}));
    std::set<std::pair<int, int>> e;
    const std::size_t m = 10 + static_cast<std::size_t>(trial % 10);
    while (e.size() < m) {
      const int a = static_cast<int>(rng() % n), b = static_cast<int>(rng() % n);
      if (a == b || !e.insert({std::min(a, b), std::max(a, b)}).second) continue;
      for (const char *rel : {"r", "q"}) {  // (two edges per pair: one step each)
        grappi::EdgeInput x;
        x.source = ids[a];
        x.target = ids[b];
        x.relation = rel;
        x.score = 0.5;
        kg.add_edge(x);
      }
    }
    grappi::Retriever r(kg.snapshot());
    const int masked = trial % 3 == 0 ? 1 + static_cast<int>(rng() % (n - 2)) : -1;
    for (bool skip_direct : {false, true}) {
      CAPTURE(trial);
      CAPTURE(skip_direct);
      CAPTURE(masked);
      // Brute force: every simple path 0 -> n-1 of at most 4 edges, then those of the least length.
      std::set<std::vector<int64_t>> want;
      std::size_t least = 99;
      std::vector<int> p{0};
      std::function<void()> rec = [&] {
        if (p.back() == n - 1) {
          if (p.size() - 1 < least) least = p.size() - 1, want.clear();
          if (p.size() - 1 == least) {
            std::vector<int64_t> path;
            for (int v : p) path.push_back(ids[v]);
            want.insert(path);
          }
          return;
        }
        if (p.size() == 5) return;
        for (int v = 0; v < n; ++v) {
          if (v == masked || std::find(p.begin(), p.end(), v) != p.end()) continue;
          if (!e.count({std::min(p.back(), v), std::max(p.back(), v)})) continue;
          if (skip_direct && p.size() == 1 && v == n - 1) continue;
          p.push_back(v);
          rec();
          p.pop_back();
        }
      };
      rec();
      grappi::ShortestPathOptions o;
      o.k = 10000;
      o.skip_direct = skip_direct;
      if (masked >= 0) o.avoid = {ids[std::size_t(masked)]};
      const auto got = r.all_shortest_paths(ids[0], ids[n - 1], o);
      std::set<std::vector<int64_t>> got_set;
      for (const auto &q : got) {
        got_set.insert(q.nodes);
        CHECK(q.edges.size() == q.nodes.size() - 1);
        CHECK(q.weight == doctest::Approx(double(q.length())));
      }
      CHECK(got_set.size() == got.size());  // each path once, though every pair has two edges
      CHECK(got_set == want);
      // Yen's enumeration honours skip_direct and the mask too: its first paths are these.
      const auto yen = r.shortest_paths(ids[0], ids[n - 1], o);
      if (!want.empty()) {
        REQUIRE(!yen.empty());
        CHECK(yen.front().length() == least);
        for (const auto &q : yen) CHECK(!(skip_direct && q.length() == 1));
      } else {
        CHECK(yen.empty());
      }
      // At most k, the same ones first; a cancel stops before the first.
      if (got.size() > 1) {
        o.k = 1;
        const auto one = r.all_shortest_paths(ids[0], ids[n - 1], o);
        REQUIRE(one.size() == 1);
        CHECK(one[0].nodes == got[0].nodes);
        o.k = 10000;
        o.cancel = [] { return true; };
        CHECK(r.all_shortest_paths(ids[0], ids[n - 1], o).empty());
      }
    }
  }
  TempDir d;
  KnowledgeGraph kg(d.file("b.db"));
  const int64_t a = kg.add_node({"1.a", "A", "Protein", "", 0, "{}"}), b = kg.add_node({"1.b", "B", "Protein", "", 0, "{}"});
  grappi::Retriever r(kg.snapshot());
  grappi::ShortestPathOptions w;
  w.weighted = true;
  CHECK_THROWS_WITH_AS(r.all_shortest_paths(a, b, w), doctest::Contains("by hops"), grappi::Error);
  CHECK(r.all_shortest_paths(a, b).empty());  // (not joined)
  CHECK_THROWS_WITH_AS(r.all_shortest_paths(a, a), doctest::Contains("the same node"), grappi::Error);
}

TEST_CASE("personalised PageRank equals the direct linear solve" * doctest::test_suite("threads")) {
  Hand h;
  grappi::Retriever r(h.kg.snapshot());
  auto &g = r.graph();
  const std::size_t n = g.node_count();
  for (bool personalised : {false, true}) {
    grappi::PageRankOptions o;
    o.tolerance = 1e-13;
    o.max_iterations = 1000;
    if (personalised) o.seeds = {h.id["R"], h.id["E"]};
    auto res = r.pagerank(o);
    CHECK(res.converged);
    // Dense system: x = d * M x + (1 - d) p, M[v][u] = w(u,v) / W(u) (+ p[v] for dangling u).
    std::vector<double> p(n, personalised ? 0.0 : 1.0 / static_cast<double>(n));
    if (personalised) {
      p[*g.index_of(h.id["R"])] = 0.5;
      p[*g.index_of(h.id["E"])] = 0.5;
    }
    std::vector<std::vector<double>> W(n, std::vector<double>(n, 0.0));
    for (uint32_t u = 0; u < n; ++u) {
      auto a = g.adjacency(u);
      for (std::size_t i = 0; i < a.size; ++i) W[u][a.neighbor[i]] += a.score[i];
    }
    std::vector<std::vector<double>> A(n, std::vector<double>(n + 1, 0.0));
    for (std::size_t v = 0; v < n; ++v) {
      A[v][v] = 1.0;
      A[v][n] = (1 - o.damping) * p[v];
      for (std::size_t u = 0; u < n; ++u) {
        double out = 0;
        for (double x : W[u]) out += x;
        double m = out > 0 ? W[u][v] / out : p[v];
        A[v][u] -= o.damping * m;
      }
    }
    for (std::size_t c = 0; c < n; ++c) {  // Gaussian elimination with partial pivoting
      std::size_t piv = c;
      for (std::size_t rr = c + 1; rr < n; ++rr)
        if (std::abs(A[rr][c]) > std::abs(A[piv][c])) piv = rr;
      std::swap(A[c], A[piv]);
      for (std::size_t rr = 0; rr < n; ++rr) {
        if (rr == c) continue;
        double f = A[rr][c] / A[c][c];
        for (std::size_t k = c; k <= n; ++k) A[rr][k] -= f * A[c][k];
      }
    }
    double sum = 0;
    for (std::size_t v = 0; v < n; ++v) {
      CHECK(res.rank[v] == doctest::Approx(A[v][n] / A[v][v]).epsilon(1e-7));
      sum += res.rank[v];
    }
    CHECK(sum == doctest::Approx(1.0));
    auto top = res.top(g, 3);
    REQUIRE(top.size() == 3);
    CHECK(top[0].score >= top[1].score);
  }
  grappi::PageRankOptions bad;
  bad.damping = 1.0;
  CHECK_THROWS_AS(r.pagerank(bad), grappi::Error);
}

TEST_CASE("k-hop expansion: label filter / degree cap / node budget - G-Retriever CSV") {
  Hand h;
  auto r = h.retriever();
  grappi::KhopOptions o;
  o.hops = 1;
  auto all = r.khop({h.id["R"]}, o);
  CHECK(all.nodes.size() == 5);  // R A B C D
  o.labels = {"Protein"};
  auto proteins = r.khop({h.id["R"]}, o);
  CHECK(proteins.nodes.size() == 4);  // D is a Gene
  o.labels.clear();
  o.degree_cap = 2;  // R's two strongest edges: A .9, C .8
  auto capped = r.khop({h.id["R"]}, o);
  CHECK(capped.nodes == std::vector<int64_t>{h.id["A"], h.id["C"], h.id["R"]});
  o.degree_cap = 0;
  o.hops = 2;
  o.node_budget = 3;
  CHECK(r.khop({h.id["R"]}, o).nodes.size() == 3);
  o.node_budget = 0;
  auto two = r.khop({h.id["R"]}, o);
  CHECK(two.nodes.size() == 7);
  for (std::size_t i = 0; i < two.nodes.size(); ++i)
    if (two.nodes[i] == h.id["F"]) CHECK(two.hops[i] == 2);
  // Seeds by similarity to a query vector at 12 degrees: A (10) then E (15).
  auto seeds = r.seeds({static_cast<float>(std::cos(12 * M_PI / 180)), static_cast<float>(std::sin(12 * M_PI / 180))}, 2);
  REQUIRE(seeds.size() == 2);
  CHECK(seeds[0].id == h.id["A"]);
  CHECK(seeds[1].id == h.id["E"]);
  auto csv = grappi::to_gretriever_csv(r.graph(), capped, [&](int64_t id) {
    return id == h.id["A"] ? std::string("A: has, a \"comma\"") : h.kg.node(id)->name;
  });
  CHECK(csv == "node_id,node_attr\n0,\"A: has, a \"\"comma\"\"\"\n1,C\n2,R\n\nsrc,edge_attr,dst\n"
               "0,string.combined,2\n0,string.physical,2\n1,string.combined,2\n");
}

namespace {

// A path A-B-C-D-E-F-G with node embeddings at chosen angles to the question (angle 0).
struct PathKg {
  TempDir dir;
  KnowledgeGraph kg{dir.file("path.db")};
  std::vector<std::string> names{"A", "B", "C", "D", "E", "F", "G"};
  std::map<std::string, double> angle{{"A", 0}, {"B", 25}, {"C", 36}, {"D", 84}, {"E", 90}, {"F", 91}, {"G", 92}, {"Q", 0}};
  std::map<std::string, int64_t> id;
  PathKg() {
    for (auto &n : names) id[n] = kg.add_node({"1." + n, n, "Protein", "", 0, "{}"});
    const double scores[] = {0.9, 0.8, 0.7, 0.6, 0.5, 0.4};
    for (std::size_t i = 0; i + 1 < names.size(); ++i) {
      grappi::EdgeInput e;
      e.source = id[names[i]];
      e.target = id[names[i + 1]];
      e.relation = "string.combined";
      e.score = scores[i];
      kg.add_edge(e);
    }
    embed_by_angle(kg, angle);
  }
  std::vector<float> question() { return {1.0f, 0.0f}; }
  std::vector<std::string> node_names(const grappi::Subgraph &s) {
    std::vector<std::string> out;
    for (auto n : s.nodes) out.push_back(kg.node(n)->name);
    return out;
  }
};

// Edge similarities in path order (A-B first), by the edges' endpoints.
grappi::EdgeSimilarity edge_sims(PathKg &p, std::vector<double> sims) {
  return [&p, sims](const std::vector<grappi::WindowEdge> &edges) {
    std::vector<double> out;
    for (auto &e : edges) {
      auto a = p.kg.node(e.source)->name, b = p.kg.node(e.target)->name;
      auto i = static_cast<std::size_t>(std::min(a[0], b[0]) - 'A');
      out.push_back(sims.at(i));
    }
    return out;
  };
}

}  // namespace

TEST_CASE("PCST retrieval / G-Retriever prizes: ranks / distinct-value edge prizes with both caps / virtual nodes") {
  PathKg p;
  grappi::Retriever r(p.kg.snapshot(), grappi::graph_vectors(p.kg));
  grappi::PcstRetrieveOptions o;
  o.seeds = 1;
  o.khop.hops = 6;
  o.topk = 3;
  o.topk_e = 3;
  auto sims = edge_sims(p, {0.9, 0.9, 0.8, 0.7, 0.1, 0.05});
  auto res = r.pcst_retrieve(p.question(), o, sims);
  CHECK(res.seeds == std::vector<int64_t>{p.id["A"]});
  CHECK(res.base_nodes == 7);
  CHECK(res.base_edges == 6);
  CHECK(res.virtual_nodes == 4);                 // the four edges whose prize exceeds the cost
  CHECK(res.edge_cost == doctest::Approx(0.5));  // min(0.5, 0.995 * 1.5)
  CHECK(p.node_names(res.subgraph) == std::vector<std::string>{"A", "B", "C", "D", "E"});
  CHECK(res.node_prizes == std::vector<double>{3, 2, 1, 0, 0});
  REQUIRE(res.edge_prizes.size() == 4);
  // 0.9 is shared by two edges: 3 / 2 = 1.5; then min(2, 0.99 * 1.5) = 1.485; then min(1, ...) = 1.
  CHECK(res.edge_prizes[0] == doctest::Approx(1.5));
  CHECK(res.edge_prizes[1] == doctest::Approx(1.5));
  CHECK(res.edge_prizes[2] == doctest::Approx(1.485));
  CHECK(res.edge_prizes[3] == doctest::Approx(1.0));
  // the fast event order: the same subgraph on this instance
  o.event_order = grappi::PcstEventOrder::fast;
  auto ref = r.pcst_retrieve(p.question(), o, sims);
  CHECK(p.node_names(ref.subgraph) == p.node_names(res.subgraph));
  CHECK(ref.objective == doctest::Approx(res.objective));
  o.event_order = grappi::PcstEventOrder::reference;
  o.pyg_cap = true;  // previous - 0.01
  auto pyg = r.pcst_retrieve(p.question(), o, sims);
  REQUIRE(pyg.edge_prizes.size() == 4);
  CHECK(pyg.edge_prizes[2] == doctest::Approx(1.49));
  // The result is connected: one tree.
  CHECK(res.subgraph.edges.size() + 1 == res.subgraph.nodes.size());
  // Without an edge-similarity function, an edge's similarity is the mean of its endpoints'.
  o.pyg_cap = false;
  auto def = r.pcst_retrieve(p.question(), o);
  CHECK_FALSE(def.subgraph.nodes.empty());
  CHECK(p.node_names(def.subgraph).front() == "A");
  // G-Retriever CSV of the result.
  auto csv = grappi::to_gretriever_csv(*p.kg.snapshot(), res.subgraph, [&](int64_t id) { return p.kg.node(id)->name; });
  CHECK(csv.rfind("node_id,node_attr\n0,A\n1,B\n", 0) == 0);
  CHECK(csv.find("\nsrc,edge_attr,dst\n0,string.combined,1\n") != std::string::npos);
  auto j = grappi::to_json(*p.kg.snapshot(), res);
  CHECK(j["nodes"][0]["prize"] == 3.0);
  CHECK(j["virtual_nodes"] == 4);
  CHECK(j["seeds"][0]["name"] == "A");
}

TEST_CASE("PCST retrieval / seed-002 prizes - errors") {
  PathKg p;
  grappi::Retriever r(p.kg.snapshot(), grappi::graph_vectors(p.kg));
  grappi::PcstRetrieveOptions o;
  o.mode = "prize";
  o.seeds = 2;
  o.khop.hops = 6;
  o.alpha = 1;
  o.beta = 1;
  o.gamma = 0.5;
  o.lambda = 1;
  auto res = r.pcst_retrieve(p.question(), o);
  CHECK(res.seeds == std::vector<int64_t>{p.id["A"], p.id["B"]});
  CHECK(res.edge_cost == 1.0);
  // A (1 + 1) and B (cos 25° + 1) are worth joining: the edge costs 1 - 0.45 (prize 0.5 * 0.9).
  auto names = p.node_names(res.subgraph);
  REQUIRE(names.size() >= 2);
  CHECK(names[0] == "A");
  CHECK(names[1] == "B");
  CHECK(res.node_prizes[0] == doctest::Approx(2.0));
  CHECK(res.node_prizes[1] == doctest::Approx(1 + std::cos(25 * M_PI / 180)).epsilon(1e-5));
  for (auto n : names) CHECK(n != "G");  // far from the question, not worth the edges
  o.mode = "nonsense";
  CHECK_THROWS_AS(r.pcst_retrieve(p.question(), o), grappi::Error);
  o.mode = "prize";
  CHECK_THROWS_AS(r.pcst_retrieve({1.0f, 0.0f, 0.0f}, o), grappi::Error);  // wrong dimension
  o.lambda = -1;
  CHECK_THROWS_AS(r.pcst_retrieve(p.question(), o), grappi::Error);
  grappi::Retriever novec(p.kg.snapshot());
  CHECK_THROWS_AS(novec.pcst_retrieve(p.question(), {}), grappi::Error);
}

TEST_CASE("windows: siblings sharing a neighborhood take their picks in order (the re-ranking fallback)" * doctest::test_suite("threads")) {
  TempDir d;
  KnowledgeGraph kg(d.file("shared.db"));
  std::map<std::string, int64_t> id;
  std::map<std::string, double> angle{{"R", 0}, {"A", 0.1}, {"B", 0.2}, {"C", 0.3}, {"D", 0.4}};
  for (int i = 1; i <= 25; ++i) angle["N" + std::to_string(i)] = i;
  for (auto &kv : angle) id[kv.first] = kg.add_node({"1." + kv.first, kv.first, "Protein", "", 0, "{}"});
  auto edge = [&](const std::string &a, const std::string &b) {
    grappi::EdgeInput e;
    e.source = id[a];
    e.target = id[b];
    e.relation = "string.combined";
    e.score = 0.9;
    kg.add_edge(e);
  };
  for (const char *c : {"A", "B", "C", "D"}) {
    edge("R", c);
    for (int i = 1; i <= 25; ++i) edge(c, "N" + std::to_string(i));
  }
  embed_by_angle(kg, angle);
  grappi::Retriever r(kg.snapshot(), grappi::graph_vectors(kg));
  grappi::WindowOptions o;
  o.k = {4, 5};
  auto w = r.window(id["R"], o);
  std::map<std::string, std::vector<std::string>> children;
  for (auto &n : w.nodes)
    if (n.depth == 2) children[kg.node(*n.parent)->name].push_back(n.name);
  CHECK(children["A"] == std::vector<std::string>{"N1", "N2", "N3", "N4", "N5"});
  CHECK(children["B"] == std::vector<std::string>{"N6", "N7", "N8", "N9", "N10"});
  CHECK(children["C"] == std::vector<std::string>{"N11", "N12", "N13", "N14", "N15"});
  CHECK(children["D"] == std::vector<std::string>{"N16", "N17", "N18", "N19", "N20"});
}

TEST_CASE("the neighbor ranking gives the same windows as ranking on the fly / its file is used only when it matches" * doctest::test_suite("threads")) {
  TempDir d;
  KnowledgeGraph kg(d.file("ranked.db"));
  std::mt19937 rng(11);
  const int n = 400;
  std::map<std::string, double> angle;
  std::vector<int64_t> ids;
  for (int i = 0; i < n; ++i) {
    const std::string name = "P" + std::to_string(i);
    angle[name] = static_cast<double>(rng() % 60);  // many equal angles: ties by node id
    ids.push_back(kg.add_node({"9.P" + std::to_string(i), name, "Protein", "", 0, "{}"}));
  }
  for (int k = 0; k < 3000; ++k) {
    grappi::EdgeInput e;
    e.source = ids[rng() % n];
    e.target = ids[rng() % n];
    if (e.source == e.target) continue;
    e.relation = rng() % 3 == 0 ? "string.physical" : "string.combined";
    e.score = 0.15 + 0.01 * static_cast<double>(rng() % 85);
    kg.add_edge(e);  // repeated pairs: several edges between two proteins
  }
  embed_by_angle(kg, angle);
  grappi::Retriever plain(kg.snapshot(), grappi::graph_vectors(kg));
  grappi::Retriever ranked(kg.snapshot(), grappi::graph_vectors(kg));
  CHECK_FALSE(ranked.has_neighbor_ranking());
  ranked.rank_neighbors(2);
  REQUIRE(ranked.has_neighbor_ranking());
  auto same = [](const grappi::Window &a, const grappi::Window &b) {
    if (a.nodes.size() != b.nodes.size() || a.edges.size() != b.edges.size()) return false;
    for (std::size_t i = 0; i < a.nodes.size(); ++i)
      if (a.nodes[i].id != b.nodes[i].id || a.nodes[i].depth != b.nodes[i].depth || a.nodes[i].parent != b.nodes[i].parent ||
          a.nodes[i].rank_score != b.nodes[i].rank_score)
        return false;
    for (std::size_t i = 0; i < a.edges.size(); ++i)
      if (a.edges[i].edge != b.edges[i].edge) return false;
    return true;
  };
  int compared = 0;
  for (int t = 0; t < 60; ++t) {
    grappi::WindowOptions o;
    o.k = t % 3 == 0 ? std::vector<std::size_t>{3, 2} : t % 3 == 1 ? std::vector<std::size_t>{6, 3, 2} : std::vector<std::size_t>{30, 4};
    o.depth = t % 3 == 1 ? 3 : 2;
    o.window = 1 + static_cast<std::size_t>(t % 2);
    if (t % 4 == 1) o.filter.min_score = 0.5;  // most neighbors pass: looked up
    if (t % 6 == 5) o.filter.min_score = 0.9;  // few pass: ranked on the fly
    if (t % 5 == 2) o.filter.relations = {"string.physical"};
    if (t % 7 == 3) o.score_weight = 0.3;  // blended: ranked on the fly by both
    const int64_t root = ids[rng() % n];
    const auto a = plain.window(root, o), b = ranked.window(root, o);
    CHECK_MESSAGE(same(a, b), "trial " << t);
    compared += static_cast<int>(a.nodes.size());
  }
  CHECK(compared > 500);

  // The file: written for this graph and these vectors, read back by a retriever that names it.
  CHECK(grappi::build_neighbor_ranking(kg) == ranked.neighbor_ranking_entries());
  const std::string file = grappi::neighbor_ranking_path(kg);
  grappi::RetrieverOptions ro;
  ro.neighbor_ranking_file = file;
  auto from_file = [&] { return std::make_shared<grappi::Retriever>(kg.snapshot(), grappi::graph_vectors(kg), ro); };
  auto loaded = from_file();
  REQUIRE(loaded->has_neighbor_ranking());
  CHECK(grappi::graph_retriever(kg)->has_neighbor_ranking());  // the graph's cached retriever has it too
  grappi::WindowOptions o;
  CHECK(same(loaded->window(ids[7], o), plain.window(ids[7], o)));
  // A damaged file is ignored: one byte changed anywhere (magic, header, padding, offsets, nodes), or cut short.
  {
    std::ifstream in(file, std::ios::binary);
    const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(good.size() > 200);
    const auto put = [&](const std::string &bytes) { std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes; };
    for (std::size_t at : {std::size_t{2}, std::size_t{20}, std::size_t{60}, std::size_t{70}, std::size_t{100},
                           good.size() / 3, good.size() * 2 / 3, good.size() - 1}) {
      CAPTURE(at);
      std::string bad = good;
      bad[at] = static_cast<char>(bad[at] ^ 0x10);
      put(bad);
      CHECK_FALSE(from_file()->has_neighbor_ranking());
    }
    put(good.substr(0, good.size() - 4));
    CHECK_FALSE(from_file()->has_neighbor_ranking());
    put(good);
    CHECK(from_file()->has_neighbor_ranking());
    put(good.substr(0, good.size() - 12) + "x" + good.substr(good.size() - 11));
  }
  CHECK_FALSE(from_file()->has_neighbor_ranking());
  // A file written before the graph changed is ignored too.
  grappi::build_neighbor_ranking(kg);
  CHECK(from_file()->has_neighbor_ranking());
  grappi::EdgeInput e;
  e.source = ids[1];
  e.target = ids[2];
  e.relation = "string.combined";
  e.score = 0.99;
  kg.add_edge(e);
  auto stale = grappi::graph_retriever(kg);  // a new snapshot: a new retriever, which finds the file stale
  CHECK_FALSE(stale->has_neighbor_ranking());
  grappi::Retriever fresh(kg.snapshot(), grappi::graph_vectors(kg));
  CHECK(same(stale->window(ids[1], o), fresh.window(ids[1], o)));
  // Without vectors there is nothing to rank.
  grappi::Retriever none(kg.snapshot());
  CHECK_THROWS_AS(none.rank_neighbors(), grappi::Error);
  CHECK_THROWS_AS(none.save_neighbor_ranking(d.file("x.knn")), grappi::Error);
}
