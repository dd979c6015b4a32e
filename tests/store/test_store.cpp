#include <doctest/doctest.h>

#include <filesystem>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;


TEST_CASE("a new database has the versioned schema / WAL and foreign keys / reads leave no -wal or -shm") {
  TempDir d;
  const auto db = d.file("kg.db");
  {
    KnowledgeGraph kg(db);
    CHECK(kg.stats().schema_version == 10);
    CHECK(kg.generation() == 0);
  }
  CHECK(sql_count(db, "PRAGMA user_version") == 10);
  CHECK(sql_count(db, "SELECT count(*) FROM meta WHERE key='schema_version' AND value='10'") == 1);
  CHECK(journal_mode(db) == "wal");
  // A read-only opening is the last connection to close: it removes the files a WAL reader
  // makes (a plain read-only SQLite connection leaves them), and it cannot write.
  for (int i = 0; i < 2; ++i) {
    grappi::OpenOptions ro;
    ro.read_only = true;
    KnowledgeGraph kg(db, ro);
    CHECK(kg.stats().schema_version == 10);
    CHECK_THROWS_AS(kg.add_node({"9606.X", "X", "Protein", "", 0, "{}"}), grappi::Error);
  }
  CHECK_FALSE(std::filesystem::exists(db + "-wal"));
  CHECK_FALSE(std::filesystem::exists(db + "-shm"));
  CHECK(sql_count(db, "SELECT count(*) FROM nodes") == 0);
}

TEST_CASE("nodes / edges and aliases round-trip through the file") {
  TempDir d;
  const auto db = d.file("kg.db");
  int64_t a, b, e;
  {
    KnowledgeGraph kg(db);
    grappi::NodeInput n;
    n.external_id = "9606.ENSP00000340820";
    n.name = "MAPT";
    n.annotation = "Microtubule-associated protein tau";
    n.size = 758;
    n.attributes = R"({"gene":"MAPT"})";
    a = kg.add_node(n);
    b = kg.add_node({"9606.ENSP00000265381", "GSK3B", "Protein", "Glycogen synthase kinase-3 beta", 433, "{}"});
    grappi::EdgeInput ei;
    ei.source = b;
    ei.target = a;
    ei.relation = "string.action.ptmod";
    ei.directed = true;
    ei.score = 0.999;
    ei.channels = {{"experimental", 0.9}, {"database", 0.8}};
    ei.pmids = {12345678, 23456789};
    ei.evidence = "GSK3B phosphorylates tau";
    e = kg.add_edge(ei);
    CHECK(kg.add_edge(ei) == e);  // identical edge: same id
    kg.add_alias(a, "P10636", "UniProt_AC");
    kg.add_alias(a, "TAU", "synonym");
  }
  KnowledgeGraph kg(db);
  auto n = kg.node(a);
  REQUIRE(n);
  CHECK(n->name == "MAPT");
  CHECK(n->taxon == 9606);
  CHECK(n->size == 758);
  CHECK(n->attributes == R"({"gene":"MAPT"})");
  auto edge = kg.edge(e);
  REQUIRE(edge);
  CHECK(edge->source == b);
  CHECK(edge->target == a);
  CHECK(edge->directed);
  CHECK(edge->relation == "string.action.ptmod");
  CHECK(edge->score == doctest::Approx(0.999));
  REQUIRE(edge->channels.size() == 2);
  CHECK(edge->pmids == std::vector<int64_t>{12345678, 23456789});
  CHECK(edge->evidence == "GSK3B phosphorylates tau");
  CHECK(kg.edges_between(a, b).size() == 1);
  CHECK(kg.aliases(a).size() == 2);
  CHECK(kg.node_by_external_id("9606.ENSP00000265381")->id == b);
  auto s = kg.stats();
  CHECK(s.nodes == 2);
  CHECK(s.edges == 1);
  CHECK(s.aliases == 2);
  CHECK(s.edges_by_relation.at(0).first == "string.action.ptmod");
}

TEST_CASE("invalid writes are rejected and leave nothing behind") {
  TempDir d;
  KnowledgeGraph kg(d.file("kg.db"));
  int64_t a = kg.add_node({"9606.A", "A", "Protein", "", 0, "{}"});
  CHECK_THROWS_AS(kg.add_node({"9606.A", "dup", "Protein", "", 0, "{}"}), grappi::Error);
  CHECK_THROWS_AS(kg.add_node({"", "x", "Protein", "", 0, "{}"}), grappi::Error);
  CHECK_THROWS_AS(kg.add_node({"9606.B", "bad\xff", "Protein", "", 0, "{}"}), grappi::Error);
  CHECK_THROWS_AS(kg.add_node({"9606.C", "C", "Protein", "", 0, "[1,2]"}), grappi::Error);
  grappi::EdgeInput e;
  e.source = a;
  e.target = 999;
  e.relation = "r";
  CHECK_THROWS_AS(kg.add_edge(e), grappi::Error);
  e.target = a;
  e.score = 1.5;
  CHECK_THROWS_AS(kg.add_edge(e), grappi::Error);
  e.score = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(kg.add_edge(e), grappi::Error);
  CHECK_THROWS_AS(kg.add_alias(12345, "x", "y"), grappi::Error);
  CHECK(kg.stats().nodes == 1);
  CHECK(kg.stats().edges == 0);
}

TEST_CASE("names are bound as parameters: SQL in a name is just a name") {
  TempDir d;
  KnowledgeGraph kg(d.file("kg.db"));
  const std::string evil = "x'); DROP TABLE nodes;--";
  int64_t id = kg.add_node({"9606.EVIL", evil, "Protein", "", 0, "{}"});
  kg.add_alias(id, "Robert'); DROP TABLE aliases;--", "xkcd");
  CHECK(kg.resolve(evil) == id);
  CHECK(kg.resolve("robert'); drop table aliases;--") == id);
  CHECK(kg.stats().nodes == 1);
}

TEST_CASE("opening: not a grappi database / newer schema / read-only") {
  TempDir d;
  {
    sqlite3 *h = nullptr;
    sqlite3_open(d.file("other.db").c_str(), &h);
    sqlite3_exec(h, "CREATE TABLE t(x)", nullptr, nullptr, nullptr);
    sqlite3_close(h);
  }
  CHECK_THROWS_WITH_AS(KnowledgeGraph(d.file("other.db")), doctest::Contains("not a grappi"), grappi::Error);
  { KnowledgeGraph kg(d.file("kg.db")); }
  {
    sqlite3 *h = nullptr;
    sqlite3_open(d.file("kg.db").c_str(), &h);
    sqlite3_exec(h, "PRAGMA user_version=99", nullptr, nullptr, nullptr);
    sqlite3_close(h);
  }
  CHECK_THROWS_WITH_AS(KnowledgeGraph(d.file("kg.db")), doctest::Contains("newer"), grappi::Error);
  { KnowledgeGraph kg(d.file("ro.db")); kg.add_node({"1.a", "a", "Protein", "", 0, "{}"}); }
  grappi::OpenOptions ro;
  ro.read_only = true;
  KnowledgeGraph kg(d.file("ro.db"), ro);
  CHECK(kg.stats().nodes == 1);
  CHECK_THROWS_AS(kg.add_node({"1.b", "b", "Protein", "", 0, "{}"}), grappi::Error);
  grappi::OpenOptions nocreate;
  nocreate.create = false;
  CHECK_THROWS_AS(KnowledgeGraph(d.file("missing.db"), nocreate), grappi::Error);
  CHECK_THROWS_AS(KnowledgeGraph(d.file("nodir/x.db")), grappi::Error);
}

TEST_CASE("a schema version 2 database is migrated in place to the current version (response cache and evidence records)") {
  TempDir d;
  const auto db = d.file("kg.db");
  int64_t id = 0;
  {
    KnowledgeGraph kg(db);
    grappi::NodeInput n;
    n.external_id = "9606.A";
    n.name = "A";
    id = kg.add_node(n);
  }
  sqlite3 *h = nullptr;
  sqlite3_open(db.c_str(), &h);
  REQUIRE(sqlite3_exec(h, "DROP TABLE llm_cache; DROP TABLE edge_evidence; DROP TABLE trained_models; DROP TABLE passages_fts; "
                       "DROP TABLE annotations; DROP TABLE passages; DROP TABLE documents; DROP TABLE node_evidence; DROP TABLE community_sets; "
                       "DROP TABLE cooc_sets; DROP TABLE cooc_concepts; DROP TABLE cooc_documents; UPDATE meta SET value='2' WHERE key='schema_version'; PRAGMA user_version=2",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(h);
  {
    grappi::OpenOptions ro;
    ro.read_only = true;
    CHECK_THROWS_WITH_AS(KnowledgeGraph(db, ro), doctest::Contains("must be upgraded"), grappi::Error);
    // Asked to, a read-only opening upgrades it first (what the CLI's reading commands do).
    ro.upgrade = true;
    const KnowledgeGraph read(db, ro);
    CHECK(read.stats().schema_version == 10);
    CHECK(read.node(id)->name == "A");
  }
  KnowledgeGraph kg(db);
  CHECK(kg.stats().schema_version == 10);
  CHECK(kg.node(id)->name == "A");
  CHECK(sql_count(db, "SELECT count(*) FROM edge_evidence") == 0);  // the version 4 table exists
  CHECK(sql_count(db, "SELECT count(*) FROM passages_fts") == 0);  // and the version 6 ones
  CHECK(sql_count(db, "SELECT count(*) FROM node_evidence") == 0);  // and 7's
  CHECK(sql_count(db, "SELECT count(*) FROM community_sets") == 0);  // and 8's
  CHECK(sql_count(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'embedding_models_meta'") == 1);  // and 9's
  CHECK(kg.response_cache_size() == 0);
  grappi::CachedResponse r;
  r.key = "k1";
  r.model = "m";
  r.template_version = "t";
  r.kind = "edge";
  r.content = "text";
  r.prompt_tokens = 7;
  kg.cache_responses({r});
  auto back = kg.cached_response("k1");
  REQUIRE(back);
  CHECK(back->content == "text");
  CHECK(back->prompt_tokens == 7);
  CHECK_FALSE(back->created_at.empty());
  CHECK_FALSE(kg.cached_response("k2"));
  CHECK(kg.generation() == 1);  // caching is not a change of the graph
  CHECK(kg.clear_response_cache("other") == 0);
  CHECK(kg.clear_response_cache("m") == 1);
  CHECK(kg.response_cache_size() == 0);
}
