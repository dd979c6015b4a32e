#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;

TEST_CASE("readers on other connections keep working while one connection imports (WAL)") {
  TempDir d;
  const auto db = d.file("w.db");
  { KnowledgeGraph init(db); init.import_string({{data("4932.protein.info.v12.0.txt.gz")}}); }
  std::atomic<bool> done{false};
  std::atomic<int> reads{0}, bad{0};
  std::thread writer([&] {
    KnowledgeGraph w(db);
    w.import_string({{data("4932.protein.aliases.v12.0.txt.gz")}, {data("4932.protein.physical.links.v12.0.txt.gz")}});
    done = true;
  });
  std::vector<std::thread> readers;
  for (int t = 0; t < 2; ++t)
    readers.emplace_back([&] {
      KnowledgeGraph r(db);
      do {
        auto s = r.stats();
        // A reader sees the state before the import or after it, never half of it.
        bool before = s.edges == 0 && s.aliases == 0;
        bool after = s.edges == 176303 && s.aliases == 287378;
        if (!(before || after)) ++bad;
        if (r.resolve("CDC28") <= 0) ++bad;
        ++reads;
      } while (!done);
    });
  writer.join();
  for (auto &t : readers) t.join();
  CHECK(bad == 0);
  CHECK(reads > 0);
  KnowledgeGraph r(db);
  CHECK(r.stats().edges == 176303);
}

TEST_CASE("one KnowledgeGraph shared by threads serialises its calls safely") {
  TempDir d;
  KnowledgeGraph kg(d.file("s.db"));
  kg.import_string({{data("4932.protein.info.v12.0.txt.gz")}});
  std::atomic<int> bad{0};
  std::vector<std::thread> th;
  for (int t = 0; t < 4; ++t)
    th.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        if (kg.resolve("CDC28") <= 0) ++bad;
        kg.add_node({"1.t" + std::to_string(t) + "_" + std::to_string(i), "x", "Protein", "", 0, "{}"});
      }
    });
  for (auto &x : th) x.join();
  CHECK(bad == 0);
  CHECK(kg.stats().nodes == 6600 + 200);
}
