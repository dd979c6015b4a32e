#include <doctest/doctest.h>

#include <map>
#include <random>
#include <set>
#include <thread>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;

TEST_CASE("snapshot neighbors agree with a brute-force scan of a random graph") {
  TempDir d;
  KnowledgeGraph kg(d.file("r.db"));
  std::mt19937 rng(7);
  std::vector<int64_t> ids;
  for (int i = 0; i < 60; ++i) ids.push_back(kg.add_node({"1." + std::to_string(i), "P" + std::to_string(i), "Protein", "", 0, "{}"}));
  const char *rels[] = {"string.combined", "string.physical", "string.action.inhibition"};
  struct E {
    int64_t s, t;
    std::string rel;
    bool directed;
    double score;
  };
  std::vector<E> edges;
  std::set<std::tuple<int64_t, int64_t, std::string, bool>> keys;
  for (int k = 0; k < 400; ++k) {
    E e{ids[rng() % ids.size()], ids[rng() % ids.size()], rels[rng() % 3], rng() % 4 == 0,
        static_cast<double>(rng() % 1001) / 1000.0};
    int64_t s = e.s, t = e.t;
    if (!e.directed && s > t) std::swap(s, t);
    if (!keys.insert({s, t, e.rel, e.directed}).second) continue;
    grappi::EdgeInput in;
    in.source = e.s;
    in.target = e.t;
    in.relation = e.rel;
    in.directed = e.directed;
    in.score = e.score;
    kg.add_edge(in);
    edges.push_back(e);
  }
  auto snap = kg.snapshot();
  CHECK(snap->node_count() == 60);
  CHECK(snap->edge_count() == edges.size());
  for (int64_t v : ids) {
    for (double min : {0.0, 0.5, 0.9}) {
      for (int relmask = 0; relmask < 3; ++relmask) {
        grappi::NeighborFilter f;
        f.min_score = min;
        if (relmask == 1) f.relations = {"string.physical"};
        if (relmask == 2) f.relations = {"string.combined", "string.action.inhibition"};
        f.incoming = (v % 2) == 0;
        std::multiset<std::pair<int64_t, std::string>> want, got;
        for (auto &e : edges) {
          if (e.score < min - 1e-6) continue;
          if (relmask == 1 && e.rel != "string.physical") continue;
          if (relmask == 2 && e.rel == "string.physical") continue;
          if (e.s == v) want.insert({e.t, e.rel});
          if (e.t == v && e.s != v && (!e.directed || f.incoming)) want.insert({e.s, e.rel});
        }
        for (auto &n : snap->neighbors(v, f)) got.insert({n.node, snap->relation_name(n.relation)});
        CHECK(got == want);
      }
    }
    std::size_t deg = 0;
    for (auto &e : edges) deg += (e.s == v) + (e.t == v && e.s != v);
    CHECK(snap->degree(v) == deg);
  }
  // edges_between finds every relation and direction.
  for (auto &e : edges) {
    auto between = snap->edges_between(e.s, e.t);
    bool found = false;
    for (auto &n : between) found |= snap->relation_name(n.relation) == e.rel;
    CHECK(found);
    CHECK(kg.edges_between(e.s, e.t).size() == between.size());
  }
  CHECK_THROWS_AS(snap->neighbors(987654), grappi::Error);
  // A relation the graph does not have is an error that lists the ones it has.
  grappi::NeighborFilter unknown;
  unknown.relations = {"string.physical", "string.phsyical"};
  CHECK_THROWS_WITH_AS(snap->neighbors(ids[0], unknown),
                       doctest::Contains("unknown relation 'string.phsyical' (the graph has string.action.inhibition, string.combined, string.physical)"), grappi::Error);
  grappi::NeighborFilter out_of_range;
  out_of_range.min_score = 1.5;
  CHECK_THROWS_WITH_AS(snap->neighbors(ids[0], out_of_range), doctest::Contains("outside 0-1"), grappi::Error);
  CHECK(snap->relation_index("nope") == -1);
  CHECK(snap->memory_bytes() > 0);
}

TEST_CASE("the snapshot is cached per generation and sees later writes only when retaken") {
  TempDir d;
  KnowledgeGraph kg(d.file("s.db"));
  int64_t a = kg.add_node({"1.a", "A", "Protein", "", 0, "{}"});
  int64_t b = kg.add_node({"1.b", "B", "Protein", "", 0, "{}"});
  auto s1 = kg.snapshot();
  CHECK(kg.snapshot() == s1);
  grappi::EdgeInput e;
  e.source = a;
  e.target = b;
  e.relation = "r";
  kg.add_edge(e);
  CHECK(s1->degree(a) == 0);  // immutable
  auto s2 = kg.snapshot();
  CHECK(s2 != s1);
  CHECK(s2->degree(a) == 1);
  // Another connection's write is seen too.
  {
    KnowledgeGraph other(d.file("s.db"));
    other.add_node({"1.c", "C", "Protein", "", 0, "{}"});
  }
  CHECK(kg.snapshot()->node_count() == 3);
}

TEST_CASE("many threads read one snapshot at once" * doctest::test_suite("threads")) {
  TempDir d;
  KnowledgeGraph kg(d.file("y.db"));
  kg.import_string({{data("4932.protein.physical.links.v12.0.txt.gz")}});
  auto snap = kg.snapshot();
  // Expected totals computed once, single-threaded.
  std::size_t total = 0;
  for (uint32_t i = 0; i < snap->node_count(); ++i) total += snap->neighbors(snap->node_id(i), {{}, 0.4}).size();
  std::vector<std::thread> threads;
  std::vector<std::size_t> sums(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (uint32_t i = 0; i < snap->node_count(); ++i) sums[t] += snap->neighbors(snap->node_id(i), {{}, 0.4}).size();
    });
  for (auto &th : threads) th.join();
  for (auto s : sums) CHECK(s == total);
}

namespace {
std::vector<std::tuple<int64_t, int64_t, float>> all_adjacency(const grappi::GraphSnapshot &s) {
  std::vector<std::tuple<int64_t, int64_t, float>> out;
  for (uint32_t i = 0; i < s.node_count(); ++i)
    for (auto &n : s.neighbors(s.node_id(i))) out.emplace_back(s.node_id(i), n.node, static_cast<float>(n.score));
  return out;
}
}  // namespace

TEST_CASE("the snapshot cache file is used when it matches and ignored when it does not") {
  TempDir d;
  const auto db = d.file("c.db");
  std::vector<std::tuple<int64_t, int64_t, float>> built;
  {
    KnowledgeGraph kg(db);
    kg.import_string({{data("4932.protein.physical.links.v12.0.txt.gz")}});
    built = all_adjacency(*kg.snapshot());
  }
  const std::string cache = db + ".csr";
  const std::string first = read_file(cache);
  REQUIRE(first.size() > 1000);
  {
    KnowledgeGraph kg(db);
    CHECK(all_adjacency(*kg.snapshot()) == built);  // loaded from the cache
  }
  // A change makes the cache stale: the next snapshot sees it and rewrites the file.
  {
    KnowledgeGraph kg(db);
    grappi::EdgeInput e;
    e.source = kg.resolve("4932.YBR160W");
    e.target = kg.resolve("4932.YAL040C");
    e.relation = "test.relation";
    kg.add_edge(e);
  }
  std::vector<std::tuple<int64_t, int64_t, float>> updated;
  {
    KnowledgeGraph kg(db);
    auto s = kg.snapshot();
    CHECK(s->edge_count() == 176304);
    CHECK(s->relation_index("test.relation") >= 0);
    updated = all_adjacency(*s);
  }
  CHECK(read_file(cache) != first);
  // A corrupt or truncated cache is ignored.
  const std::string good = read_file(cache);
  std::string bad = good;
  // Flip one bit deep in the score array (the arrays end with edge, relation and direction,
  // so the middle third of the file is scores): structurally valid, caught by the checksum.
  bad[good.size() / 2] = static_cast<char>(bad[good.size() / 2] ^ 0x01);
  write_file(cache, bad);
  {
    KnowledgeGraph kg(db);
    CHECK(all_adjacency(*kg.snapshot()) == updated);
  }
  CHECK(read_file(cache) == good);  // rebuilt and rewritten identically
  // One flipped byte anywhere (header, key, names, offsets, adjacency arrays, padding aside):
  // the mapped file is refused and the snapshot rebuilt from the database.
  {
    KnowledgeGraph kg(db);
    CHECK(kg.snapshot()->memory_bytes() < 2 * 1024 * 1024);  // the arrays are used in place
  }
  for (std::size_t at : {std::size_t{3}, std::size_t{20}, std::size_t{40}, std::size_t{100}, std::size_t{500},
                         std::size_t{5000}, std::size_t{50000}, good.size() / 4, good.size() * 3 / 4, good.size() - 1}) {
    CAPTURE(at);
    bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x40);
    write_file(cache, bad);
    KnowledgeGraph kg(db);
    auto s = kg.snapshot();
    CHECK(all_adjacency(*s) == updated);
    CHECK(s->memory_bytes() > 2 * 1024 * 1024);  // built, not mapped
  }
  CHECK(read_file(cache) == good);
  write_file(cache, good.substr(0, good.size() / 3));
  {
    KnowledgeGraph kg(db);
    CHECK(kg.snapshot()->edge_count() == 176304);
  }
  // Another database at the same path (new instance id) never reuses the cache.
  write_file(cache, good);
  std::remove(db.c_str());
  std::remove((db + "-wal").c_str());
  std::remove((db + "-shm").c_str());
  {
    KnowledgeGraph kg(db);
    kg.add_node({"1.x", "X", "Protein", "", 0, "{}"});
    CHECK(kg.snapshot()->edge_count() == 0);
    CHECK(kg.snapshot()->node_count() == 1);
  }
  // Without the cache option nothing is written.
  {
    grappi::OpenOptions o;
    o.snapshot_cache = false;
    KnowledgeGraph kg(d.file("nocache.db"), o);
    kg.add_node({"1.x", "X", "Protein", "", 0, "{}"});
    kg.snapshot();
    CHECK(read_file(d.file("nocache.db.csr")).empty());
  }
}
