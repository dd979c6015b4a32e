#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <limits>
#include <numeric>
#include <random>
#include <set>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using grappi::PcstOptions;
using grappi::PCSTSolver;
using grappi::Pruning;
using E = std::vector<std::pair<int64_t, int64_t>>;
using V = std::vector<int64_t>;

namespace {
// The order every golden case is solved in (both are checked).
grappi::PcstEventOrder golden_order = grappi::PcstEventOrder::reference;

grappi::PcstResult run(const std::vector<double> &prizes, const E &edges, const std::vector<double> &costs, int64_t root,
                       int clusters, const char *pruning) {
  PCSTSolver s;
  PcstOptions o;
  o.event_order = golden_order;
  o.root = root;
  o.num_clusters = clusters;
  o.pruning = grappi::pruning_from_name(pruning);
  return s.solve(prizes, edges, costs, o);
}
}  // namespace

TEST_CASE("PCST golden cases in both event orders") {
  for (const auto order : {grappi::PcstEventOrder::reference, grappi::PcstEventOrder::fast}) {
    CAPTURE(grappi::to_string(order));
    golden_order = order;
    E e1{{0, 1}, {1, 2}};
    auto r = run({0, 5, 6}, e1, {3, 4}, 0, 1, "none");
    CHECK(r.nodes == V{0, 1, 2});
    CHECK(r.edges == V{0, 1});
    for (const char *p : {"none", "gw", "strong", "GW", "Strong"}) {
      r = run({0, 5, 6}, e1, {3, 4}, -1, 1, p);
      CHECK(r.nodes == V{1, 2});
      CHECK(r.edges == V{1});
    }
    E path{{0, 1}, {1, 2}, {2, 3}};
    r = run({10, 0, 1, 10}, path, {10, 4, 3}, 0, 1, "none");
    CHECK(r.nodes == V{0, 1, 2, 3});
    CHECK(r.edges == V{1, 2});
    r = run({10, 0, 1, 10}, path, {10, 4, 3}, 0, 1, "gw");
    CHECK(r.nodes == V{0});
    CHECK(r.edges.empty());
    for (const char *p : {"none", "gw"}) {
      r = run({10, 10, 1, 10}, path, {10, 6, 5}, 0, 1, p);
      CHECK(r.nodes == V{0, 1, 2, 3});
      CHECK(r.edges == V{0, 1, 2});
    }
    r = run({10, 3, 3}, e1, {100, 2}, 0, 1, "none");
    CHECK(r.nodes == V{0, 1, 2});
    CHECK(r.edges == V{1});
    r = run({10, 3, 3}, e1, {100, 2}, 0, 1, "gw");
    CHECK(r.nodes == V{0});
    r = run({10, 3, 3}, e1, {100, 2}, -1, 2, "gw");
    CHECK(r.nodes == V{0, 1, 2});
    CHECK(r.edges == V{1});
    r = run({10, 3, 3}, e1, {100, 2}, -1, 1, "gw");
    CHECK(r.nodes == V{0});
    r = run({10, 0, 6, 6}, path, {100, 2, 5}, -1, 2, "gw");
    CHECK(r.nodes == V{0, 2, 3});
    CHECK(r.edges == V{2});
    E path8;
    for (int i = 0; i < 7; ++i) path8.emplace_back(i, i + 1);
    r = run({100, 0, 0, 1, 0, 0, 0, 100}, path8, std::vector<double>(7, 0.9), -1, 1, "gw");
    CHECK(r.nodes.size() == 8);
    CHECK(r.edges.size() == 7);
    E star{{0, 1}, {0, 2}, {2, 3}, {3, 4}};
    r = run({0, 2.2, 0, 0, 2.1}, star, {1, 1, 1, 1}, -1, 1, "strong");
    CHECK(r.nodes == V{1});
    CHECK(r.edges.empty());
    r = run({0, 2.2, 0, 0, 2.1}, star, {1, 1, 1, 1}, -1, 1, "gw");
    CHECK(r.nodes == V{0, 1, 2, 3, 4});
    CHECK(r.edges == V{0, 1, 2, 3});
    r = run({2, 2, 2}, e1, {0, 5}, -1, 1, "strong");
    CHECK(r.nodes == V{0, 1});
    CHECK(r.edges == V{0});
    r = run({1, 1, 1, 1}, path, {0.8, 1.8, 2.8}, -1, 1, "strong");
    CHECK(r.nodes == V{0, 1});
    CHECK(r.edges == V{0});
    E pend{{0, 1}, {1, 2}, {2, 3}, {1, 4}, {2, 5}, {3, 6}};
    r = run({100, 0, 0, 0, 100, 100, 100}, pend, {10, 100, 10, 10, 10, 10}, -1, 2, "strong");
    CHECK(r.nodes == V{0, 1, 2, 3, 4, 5, 6});
    CHECK(r.edges == V{0, 2, 3, 4, 5});
    // Objective and net worth.
    r = run({0, 5, 6}, e1, {3, 4}, -1, 1, "gw");
    CHECK(r.objective == doctest::Approx(0 + 4));
    CHECK(r.net_worth == doctest::Approx(11 - 4));
  }
  CHECK(PcstOptions{}.event_order == grappi::PcstEventOrder::reference);  // the default
  CHECK(grappi::pcst_event_order_from_name("FAST") == grappi::PcstEventOrder::fast);
  CHECK_THROWS_AS(grappi::pcst_event_order_from_name("fastest"), grappi::Error);
}

TEST_CASE("PCST input validation") {
  PCSTSolver s;
  E e1{{0, 1}};
  CHECK_THROWS_AS(s.solve({1, -1}, e1, {1}), grappi::Error);
  CHECK_THROWS_AS(s.solve({1, std::nan("")}, e1, {1}), grappi::Error);
  CHECK_THROWS_AS(s.solve({1, 1}, e1, {-2}), grappi::Error);
  CHECK_THROWS_AS(s.solve({1, 1}, e1, {std::numeric_limits<double>::infinity()}), grappi::Error);
  CHECK_THROWS_AS(s.solve({1, 1}, E{{0, 2}}, {1}), grappi::Error);
  CHECK_THROWS_AS(s.solve({1, 1}, E{{-1, 1}}, {1}), grappi::Error);
  CHECK_THROWS_AS(s.solve({1, 1}, e1, {1, 2}), grappi::Error);
  PcstOptions o;
  o.root = 0;
  o.num_clusters = 2;
  CHECK_THROWS_WITH_AS(s.solve({1, 1}, e1, {1}, o), doctest::Contains("exactly one cluster"), grappi::Error);
  o.root = 5;
  o.num_clusters = 1;
  CHECK_THROWS_AS(s.solve({1, 1}, e1, {1}, o), grappi::Error);
  o.root = -1;
  o.num_clusters = 0;
  CHECK_THROWS_AS(s.solve({1, 1}, e1, {1}, o), grappi::Error);
  CHECK_THROWS_AS(grappi::pruning_from_name("fast"), grappi::Error);
  // Self-loops are never selected; parallel edges: the cheaper is used.
  auto r = run({5, 5}, E{{0, 0}, {0, 1}, {1, 0}}, {0, 3, 1}, -1, 1, "gw");
  CHECK(r.nodes == V{0, 1});
  CHECK(r.edges == V{2});
  // Empty graph.
  auto empty = s.solve(std::vector<double>{}, E{}, {});
  CHECK(empty.nodes.empty());
}

namespace {
// Best objective over every forest with at most k trees (rooted: one tree with the root).
double brute_force(const std::vector<double> &prize, const E &edges, const std::vector<double> &cost, int64_t root, int k) {
  const std::size_t n = prize.size(), m = edges.size();
  double best = std::numeric_limits<double>::infinity();
  const double total = std::accumulate(prize.begin(), prize.end(), 0.0);
  for (uint32_t mask = 0; mask < (1u << m); ++mask) {
    std::vector<int> uf(n);
    std::iota(uf.begin(), uf.end(), 0);
    std::function<int(int)> find = [&](int x) { return uf[static_cast<std::size_t>(x)] == x ? x : uf[static_cast<std::size_t>(x)] = find(uf[static_cast<std::size_t>(x)]); };
    bool forest = true;
    double paid = 0;
    std::vector<char> in(n, 0);
    for (std::size_t e = 0; e < m && forest; ++e) {
      if (!(mask >> e & 1)) continue;
      int a = find(static_cast<int>(edges[e].first)), b = find(static_cast<int>(edges[e].second));
      if (a == b) forest = false;
      uf[static_cast<std::size_t>(a)] = b;
      paid += cost[e];
      in[static_cast<std::size_t>(edges[e].first)] = in[static_cast<std::size_t>(edges[e].second)] = 1;
    }
    if (!forest) continue;
    std::set<int> comps;
    double got = 0;
    for (std::size_t v = 0; v < n; ++v)
      if (in[v]) {
        comps.insert(find(static_cast<int>(v)));
        got += prize[v];
      }
    if (root >= 0) {
      if (comps.size() > 1) continue;
      if (!comps.empty() && !in[static_cast<std::size_t>(root)]) continue;
      if (comps.empty()) got = prize[static_cast<std::size_t>(root)];
      best = std::min(best, total - got + paid);
      continue;
    }
    if (static_cast<int>(comps.size()) > k) continue;
    // Fill the remaining trees with the best single nodes.
    std::vector<double> singles;
    for (std::size_t v = 0; v < n; ++v)
      if (!in[v]) singles.push_back(prize[v]);
    std::sort(singles.rbegin(), singles.rend());
    for (std::size_t i = 0; i < singles.size() && static_cast<int>(comps.size() + i) < k; ++i) got += singles[i];
    best = std::min(best, total - got + paid);
  }
  return best;
}

std::size_t trees(const grappi::PcstResult &r, const E &edges) {
  std::map<int64_t, int64_t> uf;
  for (auto v : r.nodes) uf[v] = v;
  std::function<int64_t(int64_t)> find = [&](int64_t x) { return uf[x] == x ? x : uf[x] = find(uf[x]); };
  for (auto e : r.edges) uf[find(edges[static_cast<std::size_t>(e)].first)] = find(edges[static_cast<std::size_t>(e)].second);
  std::set<int64_t> c;
  for (auto v : r.nodes) c.insert(find(v));
  return c.size();
}

// A solution the improvement phase may return: a forest of at most k trees (with the root), edges
// among its nodes, and the objective its own (prizes left out plus costs taken in).
void check_improved(const grappi::PcstResult &im, const E &edges, const std::vector<double> &prize,
                    const std::vector<double> &cost, int k, int64_t root) {
  for (auto e : im.edges) {
    CHECK(std::binary_search(im.nodes.begin(), im.nodes.end(), edges[static_cast<std::size_t>(e)].first));
    CHECK(std::binary_search(im.nodes.begin(), im.nodes.end(), edges[static_cast<std::size_t>(e)].second));
  }
  CHECK(im.edges.size() + trees(im, edges) == im.nodes.size());
  CHECK(static_cast<int>(trees(im, edges)) <= k);
  if (root >= 0) CHECK(std::binary_search(im.nodes.begin(), im.nodes.end(), root));
  double left = 0, paid = 0;
  for (std::size_t v = 0; v < prize.size(); ++v)
    if (!std::binary_search(im.nodes.begin(), im.nodes.end(), static_cast<int64_t>(v))) left += prize[v];
  for (int64_t e : im.edges) paid += cost[static_cast<std::size_t>(e)];
  CHECK(left + paid == doctest::Approx(im.objective));
}
}  // namespace

TEST_CASE("PCST property tests on random small graphs against exhaustive search") {
  std::mt19937 rng(2024);
  PCSTSolver solver;  // reused across calls
  int checked = 0, improved = 0, optimal_before = 0, optimal_after = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const std::size_t n = 2 + rng() % 7;
    std::set<std::pair<int64_t, int64_t>> es;
    const std::size_t want = std::min<std::size_t>(n * (n - 1) / 2, 1 + rng() % 10);
    while (es.size() < want) {
      int64_t a = static_cast<int64_t>(rng() % n), b = static_cast<int64_t>(rng() % n);
      if (a != b) es.insert({std::min(a, b), std::max(a, b)});
    }
    E edges(es.begin(), es.end());
    std::vector<double> prize(n), cost(edges.size());
    for (auto &p : prize) p = (rng() % 3 == 0) ? 0.0 : static_cast<double>(rng() % 100) / 10.0;
    for (auto &c : cost) c = static_cast<double>(rng() % 80) / 10.0;
    const bool rooted = rng() % 3 == 0;
    const int64_t root = rooted ? static_cast<int64_t>(rng() % n) : -1;
    const int k = rooted ? 1 : static_cast<int>(1 + rng() % 2);
    const double opt = brute_force(prize, edges, cost, root, k);
    for (const auto order : {grappi::PcstEventOrder::fast, grappi::PcstEventOrder::reference}) {
    double gw_obj = 0;
    for (Pruning p : {Pruning::none, Pruning::simple, Pruning::gw, Pruning::strong}) {
      PcstOptions o;
      o.root = root;
      o.num_clusters = k;
      o.pruning = p;
      o.event_order = order;
      auto r = solver.solve(prize, edges, cost, o);
      // A forest: edges among selected nodes, no cycles.
      for (auto e : r.edges) {
        CHECK(std::binary_search(r.nodes.begin(), r.nodes.end(), edges[static_cast<std::size_t>(e)].first));
        CHECK(std::binary_search(r.nodes.begin(), r.nodes.end(), edges[static_cast<std::size_t>(e)].second));
      }
      CHECK(r.edges.size() + trees(r, edges) == r.nodes.size());
      CHECK(std::is_sorted(r.nodes.begin(), r.nodes.end()));
      if (p == Pruning::none) continue;
      CHECK(static_cast<int>(trees(r, edges)) <= k);
      if (rooted) {
        CHECK(std::binary_search(r.nodes.begin(), r.nodes.end(), root));
        CHECK(trees(r, edges) == 1);
      }
      CHECK(r.objective >= opt - 1e-9);
      if (p == Pruning::gw || p == Pruning::strong) {
        if (k == 1) CHECK_MESSAGE(r.objective <= 2.0 * opt + 1e-9, "trial " << trial << " objective " << r.objective << " opt " << opt);
      }
      if (p == Pruning::gw) gw_obj = r.objective;
      if (p == Pruning::strong) CHECK(r.objective <= gw_obj + 1e-9);
      ++checked;
      // The improvement phase: still a valid forest of at most k trees (with the root), never
      // worse than the pruned solution, never better than the optimum.
      o.improve = true;
      auto im = solver.solve(prize, edges, cost, o);
      CHECK(im.objective_before_improve == doctest::Approx(r.objective));
      CHECK(im.objective <= r.objective + 1e-9);
      CHECK(im.objective >= opt - 1e-9);
      check_improved(im, edges, prize, cost, k, root);
      // (one tree over few prized nodes: the exact search, its optimum the exhaustive one)
      if (k == 1) CHECK(im.optimal);
      if (im.optimal) CHECK(im.objective == doctest::Approx(opt));
      if (im.objective < r.objective - 1e-9) ++improved;
      if (std::abs(im.objective - opt) <= 1e-9) ++optimal_after;
      if (std::abs(r.objective - opt) <= 1e-9) ++optimal_before;
    }
    }
  }
  CHECK(checked > 6000);
  MESSAGE("improve: " << improved << " solutions improved; optimal " << optimal_before << " -> " << optimal_after);
  CHECK(improved > 0);
  CHECK(optimal_after > optimal_before);
}

namespace {
// Goemans-Williamson growth simulated directly: every step scans all clusters and edges for the
// next event (deactivation first on equal times), loads per node. Returns the merged edges and
// the nodes of clusters still active (or holding the root) at the end - what pruning "none"
// reports.
// Among events of the same time: deactivations first (lowest cluster first), then the edge
// events in the reference solver's order - the growing cluster with the lowest index takes its
// turn (a merged cluster's index is higher than every earlier one) - and in a turn the edges to
// growing clusters first, then the lowest edge index; among edges to non-growing clusters the
// cheapest first (then the lowest edge index).
// Times within `tol` of each other count as equal.
std::pair<std::set<int64_t>, std::set<int64_t>> direct_gw(const std::vector<double> &prize, const E &edges,
                                                          const std::vector<double> &cost, int64_t root, int k,
                                                          double tol = 0) {
  const std::size_t n = prize.size();
  struct Cl {
    bool active, rooted;
    double left;  // prize not yet paid for by moats
    std::vector<std::size_t> nodes;
  };
  std::vector<Cl> cs;
  std::vector<std::size_t> top(n);
  std::vector<double> load(n, 0.0);
  std::size_t active = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const bool is_root = static_cast<int64_t>(i) == root;
    cs.push_back({!is_root && prize[i] > 0, is_root, prize[i], {i}});
    top[i] = i;
    active += cs.back().active;
  }
  const std::size_t target = root >= 0 ? 0 : static_cast<std::size_t>(k);
  std::set<int64_t> merged;
  while (active > target) {
    double best = std::numeric_limits<double>::infinity();
    int kind = -1;
    std::size_t who = 0;
    for (std::size_t c = 0; c < cs.size(); ++c)
      if (cs[c].active && cs[c].left < best - tol) best = cs[c].left, kind = 0, who = c;
    std::size_t turn = 0;
    int turn_away = 0;
    for (std::size_t e = 0; e < edges.size(); ++e) {
      const auto u = static_cast<std::size_t>(edges[e].first), v = static_cast<std::size_t>(edges[e].second);
      const std::size_t a = top[u], b = top[v];
      const int rate = cs[a].active + cs[b].active;
      if (a == b || rate == 0) continue;
      const double dt = (cost[e] - load[u] - load[v]) / rate;
      const std::size_t t = rate == 2 ? std::min(a, b) : (cs[a].active ? a : b);
      const int away = rate == 2 ? 0 : 1;  // in a turn, edges to growing clusters first
      if (dt < best - tol ||
          (dt <= best + tol && kind == 1 &&
           (t < turn || (t == turn && (away < turn_away || (away && turn_away && cost[e] < cost[who]))))))
        best = dt, kind = 1, who = e, turn = t, turn_away = away;
    }
    if (kind < 0) break;
    best = std::max(best, 0.0);
    for (auto &c : cs)
      if (c.active) {
        c.left -= best;
        for (std::size_t v : c.nodes) load[v] += best;
      }
    if (kind == 0) {
      cs[who].active = false;
      --active;
      continue;
    }
    const std::size_t a = top[static_cast<std::size_t>(edges[who].first)],
                      b = top[static_cast<std::size_t>(edges[who].second)];
    active -= cs[a].active + cs[b].active;
    Cl c{false, cs[a].rooted || cs[b].rooted, (cs[a].active ? cs[a].left : 0) + (cs[b].active ? cs[b].left : 0), {}};
    c.active = !c.rooted;
    active += c.active;
    for (std::size_t x : {a, b}) {
      c.nodes.insert(c.nodes.end(), cs[x].nodes.begin(), cs[x].nodes.end());
      cs[x].nodes.clear();
      cs[x].active = false;
    }
    for (std::size_t v : c.nodes) top[v] = cs.size();
    cs.push_back(std::move(c));
    merged.insert(static_cast<int64_t>(who));
  }
  std::set<int64_t> nodes;
  for (const auto &c : cs)
    if (c.active || c.rooted)
      for (std::size_t v : c.nodes) nodes.insert(static_cast<int64_t>(v));
  for (int64_t e : merged) {
    nodes.insert(edges[static_cast<std::size_t>(e)].first);
    nodes.insert(edges[static_cast<std::size_t>(e)].second);
  }
  return {nodes, merged};
}
}  // namespace

namespace {
// m random edges on n nodes (no self-loops, parallel edges allowed); cost() draws each cost.
template <class Cost>
E random_edges(std::mt19937 &rng, std::size_t n, std::vector<double> &cost, Cost &&draw) {
  E edges(cost.size());
  for (std::size_t e = 0; e < cost.size(); ++e) {
    const auto u = static_cast<int64_t>(rng() % n);
    auto v = static_cast<int64_t>(rng() % n);
    if (v == u) v = (u + 1) % static_cast<int64_t>(n);
    edges[e] = {u, v};
    cost[e] = draw();
  }
  return edges;
}

// Solves with pruning none (every fifth trial rooted, else 1-3 trees) and checks the merged edges
// and kept nodes against direct_gw.
void check_growth(PCSTSolver &solver, std::mt19937 &rng, int trial, const std::vector<double> &prize, const E &edges,
                  const std::vector<double> &cost, double tol) {
  const int64_t root = trial % 5 == 0 ? static_cast<int64_t>(rng() % prize.size()) : -1;
  const int k = root >= 0 ? 1 : 1 + trial % 3;
  const auto [want_nodes, want_edges] = direct_gw(prize, edges, cost, root, k, tol);
  PcstOptions o;
  o.root = root;
  o.num_clusters = k;
  o.pruning = Pruning::none;
  o.event_order = grappi::PcstEventOrder::fast;  // the simulation follows the fast order's tie rule
  const auto r = solver.solve(prize, edges, cost, o);
  CHECK_MESSAGE(std::set<int64_t>(r.edges.begin(), r.edges.end()) == want_edges, "trial " << trial);
  CHECK_MESSAGE(std::set<int64_t>(r.nodes.begin(), r.nodes.end()) == want_nodes, "trial " << trial);
}
}  // namespace

TEST_CASE("PCST growth phase equals a direct simulation of Goemans-Williamson on random graphs") {
  // Continuous random prizes and costs (no ties), a share of zero prizes (nodes that never grow
  // and are absorbed later), parallel edges, rooted and multi-cluster runs.
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  PCSTSolver solver;
  for (int trial = 0; trial < 600; ++trial) {
    const std::size_t n = 3 + rng() % 60;
    const std::size_t m = n + rng() % (3 * n);
    const double zero_share = 0.3 * static_cast<double>(rng() % 3);
    std::vector<double> prize(n), cost(m);
    for (auto &p : prize) p = unit(rng) < zero_share ? 0.0 : 3 * unit(rng);
    const E edges = random_edges(rng, n, cost, [&] { return unit(rng); });
    check_growth(solver, rng, trial, prize, edges, cost, 0.0);
  }
}

TEST_CASE("PCST fast order takes simultaneous events in its documented order (integer and decimal ties)") {
  // Small integer prizes and costs: many events share a time, and which one goes first decides
  // the tree (with the wrong order G-Retriever-style instances grow many times larger trees).
  // Then decimal ones (STRING-like costs in thousandths): the same times reached along different
  // sums differ in their last bits, and must still count as simultaneous.
  std::mt19937 rng(78);
  PCSTSolver solver;
  for (int trial = 0; trial < 1200; ++trial) {
    const bool decimal = trial >= 600;
    const double unit = decimal ? 0.001 : 1.0;
    const std::size_t n = 3 + rng() % 40;
    const std::size_t m = n + rng() % (3 * n);
    std::vector<double> prize(n), cost(m);
    for (auto &p : prize) p = static_cast<double>(rng() % (decimal ? 400 : 4)) * unit;
    const E edges = random_edges(rng, n, cost, [&] { return static_cast<double>(rng() % (decimal ? 100 : 4)) * unit; });
    check_growth(solver, rng, trial, prize, edges, cost, decimal ? 1e-9 : 0.0);
  }
}

TEST_CASE("PCST in reference order reproduces pcst_fast on the bundled benchmark instances") {
  // pcst_fast's objectives (reference_pcst_fast.jsonl, 3 decimals), equal to the last digit:
  // tie-heavy kg_* (all costs 0.5), integer-cost er_* (many simultaneous events, where the
  // default order may pick other trees), decimal-cost ba_* (the reference's arithmetic).
  struct Row {
    const char *file;
    double none, gw, strong;
  };
  const Row rows[] = {{"kg_m1e3_gr", 8.5, 6.5, 6.5},          {"kg_m1e3_topk", 25.5, 20.5, 20.5},
                      {"er_m1e3_dense", 5963, 5205, 4704},    {"er_m1e3_sparse", 5735, 1569, 1560},
                      {"ba_m1e3_dense", 45.531, 38.341, 33.935}, {"ba_m1e3_sparse", 20.644, 11.339, 10.804},
                      // 100k edges: merging at the event time instead of the event time plus the
                      // remainder gives 668.712 with pruning none
                      {"ba_m1e5_sparse", 666.896, 63.974, 63.974}};
  PCSTSolver solver;
  for (const Row &row : rows) {
    const auto inst = grappi::read_pcst_instance(std::string(GRAPPI_TEST_DATA_DIR) + "/pcst/" + row.file + ".txt.gz");
    for (const auto &pruning_reference : {std::pair{Pruning::none, row.none}, {Pruning::gw, row.gw}, {Pruning::strong, row.strong}}) {
      const auto pruning = pruning_reference.first;
      const auto reference = pruning_reference.second;
      PcstOptions o;
      o.pruning = pruning;  // the default order is the reference's
      const auto r = solver.solve(inst.prizes, inst.edges, inst.costs, o);
      CHECK_MESSAGE(std::abs(r.objective - reference) < 6e-4, row.file << " " << grappi::to_string(pruning) << ": " << r.objective);
      CHECK(r.net_worth == doctest::Approx(std::accumulate(inst.prizes.begin(), inst.prizes.end(), 0.0) - r.objective));
      // the improvement phase starts from the reference's own solution
      o.improve = true;
      const auto ri = solver.solve(inst.prizes, inst.edges, inst.costs, o);
      CHECK(ri.objective_before_improve == doctest::Approx(r.objective));
      CHECK(ri.objective <= r.objective + 1e-9);
    }
  }
  // the same solver goes on in the fast order afterwards as a fresh one would (separate state);
  // on this instance the fast order's tree is cheaper than the reference's (5205)
  const auto inst = grappi::read_pcst_instance(std::string(GRAPPI_TEST_DATA_DIR) + "/pcst/er_m1e3_dense.txt.gz");
  PcstOptions o;
  o.pruning = Pruning::gw;
  o.event_order = grappi::PcstEventOrder::fast;
  PCSTSolver fresh;
  const auto a = solver.solve(inst.prizes, inst.edges, inst.costs, o), b = fresh.solve(inst.prizes, inst.edges, inst.costs, o);
  CHECK(a.edges == b.edges);
  CHECK(a.objective == 5197.0);
}

TEST_CASE("PCST in fast order on bundled benchmark instances is no worse than the reference solver") {
  // Instances of ../shared/pcst (tests/data/pcst, generated with fixed seeds) and pcst_fast's
  // objectives on them (reference_pcst_fast.jsonl). The kg_* ones are tie-heavy (all costs 0.5):
  // taking simultaneous events in another order grows trees up to 11 times as expensive with
  // pruning none. er_m1e3_dense has integer costs: with pruning none it was 0.2% above the
  // reference before edges into non-growing clusters were taken cheapest first (0.08% now).
  struct Row {
    const char *file, *pruning;
    double reference;
  };
  const Row rows[] = {{"kg_m1e3_gr", "none", 8.5},     {"kg_m1e3_gr", "gw", 6.5},      {"kg_m1e3_gr", "strong", 6.5},
                      {"kg_m1e3_topk", "none", 25.5},  {"kg_m1e3_topk", "gw", 20.5},   {"kg_m1e3_topk", "strong", 20.5},
                      {"er_m1e3_dense", "none", 5963.0}, {"er_m1e3_dense", "gw", 5205.0},
                      {"er_m1e3_dense", "strong", 4704.0}};
  PCSTSolver solver;
  for (const Row &row : rows) {
    const auto inst = grappi::read_pcst_instance(std::string(GRAPPI_TEST_DATA_DIR) + "/pcst/" + row.file + ".txt.gz");
    PcstOptions o;
    o.pruning = grappi::pruning_from_name(row.pruning);
    o.event_order = grappi::PcstEventOrder::fast;
    const auto r = solver.solve(inst.prizes, inst.edges, inst.costs, o);
    CHECK_MESSAGE(r.objective <= row.reference * 1.001, row.file << " " << row.pruning << ": " << r.objective);
    o.improve = true;
    const auto ri = solver.solve(inst.prizes, inst.edges, inst.costs, o);
    CHECK_MESSAGE(ri.objective <= std::min(r.objective, row.reference) + 1e-9, row.file << " " << row.pruning << " improve");
  }
}

// The improvement phase against proven optima (reference_pcst_fast.jsonl's best_known_objective,
// found by exact branch-and-cut solvers): never below one, and within 2% above it (the issue asks
// 3% at worst); kg_m1e3_gr (8 prized nodes) is solved exactly and says so.
TEST_CASE("PCST improve lands on or near the proven optima of the bundled instances") {
  struct Row {
    const char *file;
    double optimum, within;  // the most above the optimum the improvement phase comes out (fraction)
    bool exact;
  };
  const Row rows[] = {{"kg_m1e3_gr", 5.5, 0.0, true},          {"kg_m1e3_topk", 19.5, 0.0, false},
                      {"er_m1e3_dense", 4661, 0.01, false},    {"er_m1e3_sparse", 1422, 0.02, false},
                      {"ba_m1e3_dense", 33.785, 0.005, false}, {"ba_m1e3_sparse", 9.712, 0.02, false},
                      // (0.67% from the reference order's growth alone; 0.38% with the second start)
                      {"ba_m1e5_sparse", 60.066, 0.005, false}};
  PCSTSolver solver;
  for (const Row &row : rows) {
    CAPTURE(row.file);
    const auto inst = grappi::read_pcst_instance(std::string(GRAPPI_TEST_DATA_DIR) + "/pcst/" + row.file + ".txt.gz");
    PcstOptions o;
    o.pruning = Pruning::strong;
    o.improve = true;
    const auto r = solver.solve(inst.prizes, inst.edges, inst.costs, o);
    CHECK(r.optimal == row.exact);
    CHECK(r.objective >= row.optimum - 1e-6);
    CHECK(r.objective <= row.optimum * (1 + row.within) + 1e-6);
    if (row.exact) CHECK(r.objective == doctest::Approx(row.optimum));
    check_improved(r, inst.edges, inst.prizes, inst.costs, 1, -1);  // (one tree, its objective its own)
  }
}

// The exchange moves (key paths, Steiner vertices) on graphs with too many prized nodes for the
// exact search: a forest of at most k trees (with the root), never worse than the pruned solution.
TEST_CASE("PCST improve on random graphs with many prized nodes keeps a valid forest") {
  std::mt19937 rng(77);
  PCSTSolver solver;
  int improved = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 30 + rng() % 40;
    std::set<std::pair<int64_t, int64_t>> es;
    const std::size_t want = n + rng() % (3 * n);
    while (es.size() < want) {
      const auto a = static_cast<int64_t>(rng() % n), b = static_cast<int64_t>(rng() % n);
      if (a != b) es.insert({std::min(a, b), std::max(a, b)});
    }
    const E edges(es.begin(), es.end());
    std::vector<double> prize(n), cost(edges.size());
    for (auto &p : prize) p = (rng() % 4 == 0) ? 0.0 : static_cast<double>(rng() % 60) / 10.0;
    for (auto &c : cost) c = static_cast<double>(1 + rng() % 40) / 10.0;
    const bool rooted = rng() % 3 == 0;
    const int64_t root = rooted ? static_cast<int64_t>(rng() % n) : -1;
    const int k = rooted ? 1 : static_cast<int>(1 + rng() % 2);
    for (Pruning p : {Pruning::gw, Pruning::strong}) {
      PcstOptions o;
      o.root = root;
      o.num_clusters = k;
      o.pruning = p;
      const auto r = solver.solve(prize, edges, cost, o);
      o.improve = true;
      const auto im = solver.solve(prize, edges, cost, o);
      CAPTURE(trial);
      const auto prized = std::count_if(prize.begin(), prize.end(), [](double x) { return x > 0; });
      if (prized + (rooted ? 1 : 0) > 16) CHECK_FALSE(im.optimal);  // (the exchange moves, not the exact search)
      CHECK(im.objective <= r.objective + 1e-9);
      check_improved(im, edges, prize, cost, k, root);
      if (im.objective < r.objective - 1e-9) ++improved;
    }
  }
  CHECK(improved > 50);
}

TEST_CASE("PCST cancelled by the caller stops in its growth phase in both event orders") {
  // ba_m1e5_sparse: 100k edges, tens of thousands of growth events, polled every 4,096.
  const auto inst = grappi::read_pcst_instance(std::string(GRAPPI_TEST_DATA_DIR) + "/pcst/ba_m1e5_sparse.txt.gz");
  PCSTSolver solver;
  for (const auto order : {grappi::PcstEventOrder::reference, grappi::PcstEventOrder::fast}) {
    CAPTURE(grappi::to_string(order));
    PcstOptions o;
    o.event_order = order;
    const auto whole = solver.solve(inst.prizes, inst.edges, inst.costs, o);
    CHECK_FALSE(whole.cancelled);
    // A cancel that never says yes is polled and changes nothing.
    int polls = 0;
    o.cancel = [&polls] {
      ++polls;
      return false;
    };
    const auto same = solver.solve(inst.prizes, inst.edges, inst.costs, o);
    CHECK(polls >= 2);
    CHECK_FALSE(same.cancelled);
    CHECK(same.edges == whole.edges);
    CHECK(same.objective == whole.objective);
    // One that says yes at its first poll (inside the growth): nothing selected, said so.
    polls = 0;
    o.cancel = [&polls] { return ++polls >= 1; };
    const auto stopped = solver.solve(inst.prizes, inst.edges, inst.costs, o);
    CHECK(polls == 1);
    CHECK(stopped.cancelled);
    CHECK(stopped.nodes.empty());
    CHECK(stopped.edges.empty());
    // The solver is whole again afterwards.
    o.cancel = nullptr;
    CHECK(solver.solve(inst.prizes, inst.edges, inst.costs, o).edges == whole.edges);
  }
}
