// Several threads and connections on one database.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;

TEST_CASE("readers on other connections keep working while one connection imports (WAL)" * doctest::test_suite("threads")) {
  TempDir d;
  const auto db = d.file("w.db");
  int64_t cdc28 = 0;
  {
    KnowledgeGraph init(db);
    init.import_string({{data("4932.protein.info.v12.0.txt.gz")}});
    cdc28 = init.resolve("CDC28");
  }
  // The writer stops inside its transaction (after writing the aliases, before the links are
  // committed) until the readers have read several times on their own connections: with a
  // write lock that blocked readers they could not, and the writer gives up waiting.
  std::atomic<bool> in_transaction{false}, done{false};
  std::atomic<int> reads{0}, reads_during_write{0}, bad{0};
  TestThreads threads;
  threads.spawn([&] {
    KnowledgeGraph w(db);
    grappi::ImportOptions o;
    o.progress = [&](const grappi::ImportProgress &p) {
      if (p.stage != "done" || in_transaction.exchange(true)) return;
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      while (reads_during_write < 10 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    };
    w.import_string({{data("4932.protein.aliases.v12.0.txt.gz")}, {data("4932.protein.physical.links.v12.0.txt.gz")}}, o);
    done = true;
  });
  for (int t = 0; t < 2; ++t)
    threads.spawn([&] {
      KnowledgeGraph r(db);
      do {
        const bool writing = in_transaction && !done;
        const auto s = r.stats();
        // A reader sees the state before the import or after it, never half of it.
        const bool before = s.edges == 0 && s.aliases == 0;
        const bool after = s.edges == 176303 && s.aliases == 287378;
        if (!(before || after)) ++bad;  // uncommitted rows are invisible
        if (r.resolve("CDC28") != cdc28) ++bad;
        ++reads;
        if (writing && before) ++reads_during_write;
      } while (!done);
    });
  const auto errors = threads.join();
  CHECK(errors.empty());
  for (const auto &e : errors) MESSAGE(e);
  CHECK(bad == 0);
  CHECK(reads_during_write >= 10);
  CHECK(reads > reads_during_write);
  KnowledgeGraph r(db);
  CHECK(r.stats().edges == 176303);
}

TEST_CASE("one KnowledgeGraph shared by threads serialises its calls safely" * doctest::test_suite("threads")) {
  TempDir d;
  KnowledgeGraph kg(d.file("s.db"));
  kg.import_string({{data("4932.protein.info.v12.0.txt.gz")}});
  const int64_t cdc28 = kg.resolve("CDC28");
  std::atomic<int> bad{0};
  TestThreads threads;
  for (int t = 0; t < 4; ++t)
    threads.spawn([&, t] {
      for (int i = 0; i < 50; ++i) {
        if (kg.resolve("CDC28") != cdc28) ++bad;
        const std::string id = "1.t" + std::to_string(t) + "_" + std::to_string(i);
        const int64_t node = kg.add_node({id, "x", "Protein", "", 0, "{}"});
        // Each thread reads back what it wrote, between the other threads' writes.
        if (kg.node_by_external_id(id)->id != node) ++bad;
      }
    });
  const auto errors = threads.join();
  CHECK(errors.empty());
  for (const auto &e : errors) MESSAGE(e);
  CHECK(bad == 0);
  CHECK(kg.stats().nodes == 6600 + 200);
}
