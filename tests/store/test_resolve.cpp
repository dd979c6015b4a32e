#include <doctest/doctest.h>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;
using Status = grappi::ResolveResult::Status;

TEST_CASE("names resolve case-insensitively through names / ids and aliases") {
  TempDir d;
  const auto db = d.file("y.db");
  KnowledgeGraph kg(db);
  kg.import_string({{data("4932.protein.info.v12.0.txt.gz")}, {data("4932.protein.aliases.v12.0.txt.gz")}});
  const int64_t cdc28 = kg.node_by_external_id("4932.YBR160W")->id;
  CHECK(kg.resolve("CDC28") == cdc28);
  CHECK(kg.resolve("cdc28") == cdc28);
  CHECK(kg.resolve("  Cdc28 ") == cdc28);
  CHECK(kg.resolve("4932.YBR160W") == cdc28);
  CHECK(kg.resolve("4932.ybr160w") == cdc28);
  CHECK(kg.resolve("YBR160W") == cdc28);   // id without taxon, also an alias
  CHECK(kg.resolve("P00546") == cdc28);    // UniProt accession
  auto r = kg.lookup("p00546");
  CHECK(r.status == Status::found);
  CHECK(r.candidates.at(0).matched_by.rfind("alias:", 0) == 0);

  // An alias shared by several proteins in the real file is ambiguous, with every candidate.
  std::string shared;
  long long n = 0;
  {
    sqlite3 *h = nullptr;
    sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt *st = nullptr;
    sqlite3_prepare_v2(h,
                       "SELECT a.alias, count(DISTINCT a.node_id) FROM aliases a "
                       "WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.name = a.alias COLLATE NOCASE OR n.external_id = a.alias COLLATE NOCASE) "
                       "GROUP BY a.alias COLLATE NOCASE HAVING count(DISTINCT a.node_id) > 1 ORDER BY a.alias LIMIT 1",
                       -1, &st, nullptr);
    REQUIRE(sqlite3_step(st) == SQLITE_ROW);
    shared = reinterpret_cast<const char *>(sqlite3_column_text(st, 0));
    n = sqlite3_column_int64(st, 1);
    sqlite3_finalize(st);
    sqlite3_close(h);
  }
  auto amb = kg.lookup(shared);
  CHECK(amb.status == Status::ambiguous);
  CHECK(static_cast<long long>(amb.candidates.size()) == n);
  CHECK_THROWS_WITH_AS(kg.resolve(shared), doctest::Contains("ambiguous"), grappi::Error);
  try {
    kg.resolve(shared);
  } catch (const grappi::Error &e) {
    CHECK(e.code() == grappi::ErrorCode::ambiguous);
  }

  // Unknown: not found, with close suggestions.
  auto nf = kg.lookup("CDC2888");
  CHECK(nf.status == Status::not_found);
  auto miss = kg.lookup("cdc288");
  CHECK(miss.status == Status::not_found);
  CHECK(std::find(miss.suggestions.begin(), miss.suggestions.end(), "CDC28") != miss.suggestions.end());
  // Two letters swapped are one edit, and the query's own letters reordered come before other
  // names as close ("CDC82" is CDC28 first); a name the query completes comes first of all.
  const auto swapped = kg.lookup("CDC82");
  REQUIRE_FALSE(swapped.suggestions.empty());
  CHECK(swapped.suggestions.front() == "CDC28");
  const auto completed = kg.lookup("CDC4%");
  REQUIRE_FALSE(completed.suggestions.empty());
  CHECK(completed.suggestions.front().rfind("CDC4", 0) == 0);
  try {
    kg.resolve("cdc288");
    FAIL("expected not_found");
  } catch (const grappi::Error &e) {
    CHECK(e.code() == grappi::ErrorCode::not_found);
    CHECK(std::string(e.what()).find("did you mean") != std::string::npos);
  }
  CHECK(kg.lookup("").status == Status::not_found);
  CHECK(kg.lookup("%").status == Status::not_found);
}

TEST_CASE("a preferred name wins over aliases - two nodes with one name are ambiguous") {
  TempDir d;
  KnowledgeGraph kg(d.file("k.db"));
  int64_t mapt = kg.add_node({"9606.ENSP00000340820", "MAPT", "Protein", "Microtubule-associated protein tau", 758, "{}"});
  int64_t other = kg.add_node({"9606.ENSP00000999999", "OTHER", "Protein", "", 0, "{}"});
  kg.add_alias(other, "MAPT", "confusing");
  kg.add_alias(mapt, "TAU", "synonym");
  kg.add_alias(other, "tau", "synonym");
  CHECK(kg.resolve("mapt") == mapt);
  auto r = kg.lookup("TAU");
  CHECK(r.status == Status::ambiguous);
  REQUIRE(r.candidates.size() == 2);
  CHECK(r.candidates[0].id == mapt);
  CHECK(r.candidates[1].id == other);
  // Two organisms' own names: the one as written ("MAPT" human, "Mapt" mouse), else the
  // database's organism; one name two nodes of one organism hold is ambiguous.
  const int64_t mouse = kg.add_node({"10090.ENSMUSP1", "Mapt", "Protein", "mouse tau", 0, "{}"});
  CHECK(kg.lookup("MAPT").id == mapt);
  CHECK(kg.lookup("Mapt").id == mouse);
  const auto lower = kg.lookup("mapt");
  CHECK(lower.id == mapt);
  CHECK(lower.candidates.at(0).matched_by == "name (resolved by preferred_organism)");
  kg.add_node({"9606.ENSP00000999998", "MAPT", "Protein", "", 0, "{}"});
  CHECK(kg.lookup("MAPT").status == Status::ambiguous);
  CHECK(kg.resolve("9606.ENSP00000340820") == mapt);
}
