// Every kind of bad input gets a clear error naming the file and line, and leaves the database
// exactly as it was.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;
using grappi::StringFormat;

namespace {

struct Fixture {
  TempDir dir;
  std::string db = dir.file("kg.db");
  std::string before;
  Fixture() {
    KnowledgeGraph kg(db);
    kg.import_string({{data("4932.protein.info.v12.0.txt.gz")}, {data("4932.protein.physical.links.v12.0.txt.gz")}});
    before = fingerprint(db);
  }
  // Imports the file and returns the error message; asserts the database is unchanged.
  std::string fails(const std::string &path, StringFormat f = StringFormat::detect, grappi::ErrorCode want = grappi::ErrorCode::parse) {
    std::string msg;
    {
      KnowledgeGraph kg(db);
      try {
        kg.import_string({{path, f}});
        FAIL("import of " << path << " should have failed");
      } catch (const grappi::Error &e) {
        msg = e.what();
        CHECK(e.code() == want);
      }
    }
    CHECK(fingerprint(db) == before);
    return msg;
  }
};

const std::string kLinksHeader = "protein1 protein2 combined_score\n";

}  // namespace

TEST_CASE("bad link lines: wrong column count / non-numeric or out-of-range score / unknown id") {
  Fixture fx;
  auto f = fx.dir.file("4932.bad.links.txt");
  write_file(f, kLinksHeader + "4932.YBR160W 4932.YPR120C 900\n4932.YBR160W 4932.YPR120C\n");
  CHECK(fx.fails(f).find("4932.bad.links.txt:3: expected 3 space-separated columns, found 2") != std::string::npos);
  write_file(f, kLinksHeader + "4932.YBR160W 4932.YPR120C 900 7\n");
  CHECK(fx.fails(f).find(":2: expected 3") != std::string::npos);
  write_file(f, kLinksHeader + "4932.YBR160W 4932.YPR120C 0.9x\n");
  CHECK(fx.fails(f).find(":2: combined_score '0.9x' is not an integer in [0,1000]") != std::string::npos);
  write_file(f, kLinksHeader + "4932.YBR160W 4932.YPR120C 1001\n");
  CHECK(fx.fails(f).find("not an integer in [0,1000]") != std::string::npos);
  write_file(f, kLinksHeader + "4932.YBR160W 4932.YPR120C -5\n");
  CHECK(fx.fails(f).find(":2:") != std::string::npos);
  write_file(f, kLinksHeader + "4932.YBR160W 4932.NOSUCHPROTEIN 700\n");
  CHECK(fx.fails(f).find(":2: unknown protein id '4932.NOSUCHPROTEIN'") != std::string::npos);
  write_file(f, kLinksHeader + "YBR160W 4932.YPR120C 700\n");
  CHECK(fx.fails(f).find("is not a STRING protein id") != std::string::npos);
}

TEST_CASE("bad encodings and binary data") {
  Fixture fx;
  auto f = fx.dir.file("x.txt");
  write_file(f, kLinksHeader + "4932.YBR160W 4932.YPR120C 900\n4932.YBR160W\xff\xfe 4932.YPR120C 900\n");
  CHECK(fx.fails(f).find("x.txt:3: invalid UTF-8") != std::string::npos);
  std::string garbage = kLinksHeader;
  for (int i = 0; i < 5000; ++i) garbage += static_cast<char>((i * 7919) % 256);
  write_file(f, garbage);
  fx.fails(f);
  std::string garbage_only;
  for (int i = 0; i < 5000; ++i) garbage_only += static_cast<char>((i * 31 + 7) % 256);
  write_file(f, garbage_only);
  fx.fails(f);
  // Invalid UTF-8 in an info annotation.
  write_file(f, "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n4932.NEW1\tNEW1\t100\tbad \xc3(\n");
  CHECK(fx.fails(f).find("x.txt:2: invalid UTF-8") != std::string::npos);
}

TEST_CASE("truncated gzip / empty file / missing file / unrecognised header") {
  Fixture fx;
  std::string content = read_file(data("4932.protein.physical.links.v12.0.txt.gz"));
  auto t = fx.dir.file("4932.protein.physical.links.v12.0.txt.gz");
  write_file(t, content.substr(0, content.size() * 2 / 3));
  CHECK(fx.fails(t).find("truncated gzip stream") != std::string::npos);
  auto e = fx.dir.file("empty.txt");
  write_file(e, "");
  CHECK(fx.fails(e).find("empty file") != std::string::npos);
  write_file(e, kLinksHeader);
  CHECK(fx.fails(e).find("no data lines") != std::string::npos);
  CHECK(fx.fails(fx.dir.file("missing.txt"), StringFormat::detect, grappi::ErrorCode::not_found).find("missing.txt") !=
        std::string::npos);
  write_file(e, "gene_a,gene_b,score\nA,B,1\n");
  CHECK(fx.fails(e).find("unrecognised header") != std::string::npos);
}

TEST_CASE("a UTF-8 byte-order mark and CRLF line ends are accepted") {
  Fixture fx;
  const std::string f = fx.dir.file("bom.links.txt");
  write_file(f, "\xef\xbb\xbfprotein1 protein2 combined_score\r\n4932.YBR160W 4932.YGR108W 999\r\n");
  KnowledgeGraph kg(fx.db);
  const auto report = kg.import_string({{f}});
  REQUIRE(report.files.size() == 1);
  CHECK(report.files[0].lines == 1);
}

TEST_CASE("a pipe or FIFO is refused before anything is read - no silent loss and no hang") {
  Fixture fx;
  const std::string fifo = fx.dir.file("links.fifo");
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  // Nobody writes to it: reading it would block for ever.
  CHECK(fx.fails(fifo, StringFormat::detect, grappi::ErrorCode::invalid_argument).find("is not a regular file") !=
        std::string::npos);
  {
    KnowledgeGraph kg(fx.db);
    grappi::SourceFile f;
    f.path = fifo;
    CHECK_THROWS_WITH_AS(kg.import({f}), doctest::Contains("save it to a file first"), grappi::Error);
  }
  CHECK(fingerprint(fx.db) == fx.before);
}

TEST_CASE("bad lines in info / aliases / actions and export files") {
  Fixture fx;
  auto f = fx.dir.file("f.txt");
  write_file(f, "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n4932.NEW1\tNEW1\tlong\tx\n");
  CHECK(fx.fails(f).find("f.txt:2: protein_size 'long'") != std::string::npos);
  write_file(f, "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n4932.NEW1\tNEW1\t100\n");
  CHECK(fx.fails(f).find("expected 4 tab-separated columns") != std::string::npos);
  write_file(f, "#string_protein_id\talias\tsource\n4932.YBR160W\tCDC28x\tsrc\n4932.NOPE\tX\tsrc\n");
  CHECK(fx.fails(f).find("f.txt:3: unknown protein id") != std::string::npos);
  write_file(f, "#string_protein_id\talias\tsource\n4932.YBR160W\t\tsrc\n");
  CHECK(fx.fails(f).find("empty alias") != std::string::npos);
  write_file(f, "item_id_a\titem_id_b\tmode\taction\tis_directional\ta_is_acting\tscore\n4932.YBR160W\t4932.YPR120C\tbinding\t\tmaybe\tf\t500\n");
  CHECK(fx.fails(f).find("is_directional 'maybe'") != std::string::npos);
  write_file(f, "#node1\tnode2\tnode1_string_id\tnode2_string_id\tcoexpression\tcombined_score\nCDC28\tCLB5\t4932.YBR160W\t4932.YPR120C\t0.5\t1.7\n");
  CHECK(fx.fails(f).find("is not a number in [0,1]") != std::string::npos);
  write_file(f, "#node1\tnode2\tnode1_string_id\tnode2_string_id\tcoexpression\tcombined_score\nCDC28\tCLB5\t4932.YBR160W\t4932.YPR120C\tnan\t0.7\n");
  CHECK(fx.fails(f).find("coexpression 'nan'") != std::string::npos);
}

TEST_CASE("several files in one import: a bad one rolls back the good ones") {
  Fixture fx;
  auto good = fx.dir.file("good.txt"), bad = fx.dir.file("bad.txt");
  write_file(good, "#string_protein_id\talias\tsource\n4932.YBR160W\tmy-alias\tmine\n");
  write_file(bad, kLinksHeader + "4932.YBR160W 4932.YPR120C nine\n");
  KnowledgeGraph kg(fx.db);
  CHECK_THROWS_AS(kg.import_string({{good}, {bad}}), grappi::Error);
  CHECK(fingerprint(fx.db) == fx.before);
  CHECK(kg.lookup("my-alias").status == grappi::ResolveResult::Status::not_found);
}

TEST_CASE("--skip-bad-lines imports the good lines and reports the bad ones") {
  Fixture fx;
  auto f = fx.dir.file("mixed.txt");
  std::string body = kLinksHeader;
  body += "4932.YBR160W 4932.YAL040C 950\n";
  body += "4932.YBR160W 4932.YAL040C\n";        // too few columns
  body += "4932.YBR160W 4932.GHOST 800\n";      // unknown
  body += "4932.YBR160W 4932.YMR199W abc\n";    // score
  body += "4932.YAL040C 4932.YBR160W 950\n";    // the reverse of line 2
  write_file(f, body);
  KnowledgeGraph kg(fx.db);
  grappi::ImportOptions opt;
  opt.skip_bad_lines = true;
  opt.max_bad_examples = 2;
  auto rep = kg.import_string({{f, StringFormat::physical}}, opt);
  auto &r = rep.files.at(0);
  CHECK(r.lines == 5);
  CHECK(r.rows_skipped == 3);
  REQUIRE(r.bad_line_examples.size() == 2);
  CHECK(r.bad_line_examples[0].find("mixed.txt:3:") != std::string::npos);
  CHECK(r.bad_line_examples[1].find("mixed.txt:4: unknown protein id") != std::string::npos);
  CHECK(r.edges_created + r.edges_existing == 1);
}

TEST_CASE("resource limits: max_rows refuses a long file / an info file listing a protein twice / a bomb of one repeated row" * doctest::test_suite("heavy")) {
  Fixture fx;
  // max_rows: one line over the limit fails with the file named; the database is unchanged.
  auto links = fx.dir.file("links.txt");
  std::string body = kLinksHeader;
  for (int i = 0; i < 6; ++i) body += "4932.YBR160W 4932.YPR120C 500\n";
  write_file(links, body);
  {
    KnowledgeGraph kg(fx.db);
    grappi::ImportOptions o;
    o.max_rows = 5;
    CHECK_THROWS_WITH_AS(kg.import_string({{links}}, o), doctest::Contains("links.txt: more than 5 lines"), grappi::Error);
    o.max_rows = 7;  // the header counts as a line
    CHECK_NOTHROW(kg.import_string({{links}}, o));
  }
  // Documents read whole: a BEL script by its lines, a CX2 network and a BEL JSON graph by their
  // nodes plus edges.
  {
    const std::string before = fingerprint(fx.db);
    KnowledgeGraph kg(fx.db);
    grappi::ImportOptions o;
    o.max_rows = 2;
    CHECK_THROWS_WITH_AS(kg.import({{data("bel/pybel_test_bel.bel")}}, o), doctest::Contains("pybel_test_bel.bel: more than 2 lines"),
                         grappi::Error);
    CHECK_THROWS_WITH_AS(kg.import({{data("cx2/glypican2.cx2")}}, o),
                         doctest::Contains("glypican2.cx2: 3 nodes and edges, more than the limit set (2"), grappi::Error);
    CHECK_THROWS_WITH_AS(kg.import({{data("bel/cbn_cytotoxic_t-cell_signaling-2.0-hs.bel.jgf.json.gz")}}, o),
                         doctest::Contains("nodes and edges, more than the limit set (2"), grappi::Error);
    CHECK(fingerprint(fx.db) == before);
  }
  // A protein listed twice in one info file: a bad line naming it.
  Fixture fresh;
  auto info = fresh.dir.file("info.txt");
  const std::string header = "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n";
  const std::string row = "4932.BOMB1\tBOMB1\t100\tA repeated row\n";
  write_file(info, header + row + "4932.OTHER\tOTHER\t100\tx\n" + row);
  CHECK(fresh.fails(info).find("info.txt:4: protein 4932.BOMB1 is listed again") != std::string::npos);
  // A gzip bomb of one repeated row: refused at its second row; skipping bad lines, read to the
  // end without a write per row (one node, the rest counted).
  auto bomb = fresh.dir.file("bomb.txt.gz");
  std::string rows = header;
  rows.reserve(header.size() + 200000 * row.size());
  for (int i = 0; i < 200000; ++i) rows += row;
  write_gz(bomb, rows);
  CHECK(fresh.fails(bomb).find("bomb.txt.gz:3: protein 4932.BOMB1 is listed again") != std::string::npos);
  KnowledgeGraph kg(fresh.db);
  grappi::ImportOptions skip;
  skip.skip_bad_lines = true;
  const grappi::ImportReport r = kg.import_string({{bomb}}, skip);
  REQUIRE(r.files.size() == 1);
  CHECK(r.files[0].nodes_created == 1);
  CHECK(r.files[0].rows_skipped == 199999);
}
