#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::ImportSource;
using grappi::KnowledgeGraph;
using grappi::StringFormat;

namespace {

std::vector<std::string> fields(const std::string &line, char sep) {
  std::vector<std::string> f;
  std::string cur;
  std::istringstream in(line);
  while (std::getline(in, cur, sep)) f.push_back(cur);
  return f;
}

struct YeastCounts {
  std::set<std::string> proteins;
  std::map<std::pair<std::string, std::string>, int> pairs;  // unordered pair -> score
  std::size_t rows = 0;
};

// Counts the raw physical links file independently of grappi's reader and importer.
YeastCounts count_yeast(int min_score) {
  YeastCounts c;
  auto lines = read_lines_gz(data("4932.protein.physical.links.v12.0.txt.gz"));
  for (std::size_t i = 1; i < lines.size(); ++i) {
    auto f = fields(lines[i], ' ');
    REQUIRE(f.size() == 3);
    ++c.rows;
    int s = std::stoi(f[2]);
    if (s < min_score) continue;
    c.proteins.insert(f[0]);
    c.proteins.insert(f[1]);
    auto key = f[0] < f[1] ? std::make_pair(f[0], f[1]) : std::make_pair(f[1], f[0]);
    c.pairs[key] = s;
  }
  return c;
}

}  // namespace

TEST_CASE("the bundled yeast physical network: counts match an independent count of the raw file" * doctest::test_suite("heavy")) {
  TempDir d;
  const auto db = d.file("yeast.db");
  KnowledgeGraph kg(db);
  auto rep = kg.import_string({{data("4932.protein.physical.links.v12.0.txt.gz"), StringFormat::detect},
                               {data("4932.protein.aliases.v12.0.txt.gz"), StringFormat::detect},
                               {data("4932.protein.info.v12.0.txt.gz"), StringFormat::detect}});
  // Applied in dependency order whatever the order given.
  REQUIRE(rep.files.size() == 3);
  CHECK(rep.files[0].format == StringFormat::info);
  CHECK(rep.files[1].format == StringFormat::aliases);
  CHECK(rep.files[2].format == StringFormat::physical);
  auto raw = count_yeast(0);
  CHECK(rep.files[2].lines == raw.rows);
  CHECK(rep.files[2].edges_created == raw.pairs.size());
  auto info_lines = read_lines_gz(data("4932.protein.info.v12.0.txt.gz"));
  auto alias_lines = read_lines_gz(data("4932.protein.aliases.v12.0.txt.gz"));
  auto s = kg.stats();
  CHECK(s.nodes == static_cast<int64_t>(info_lines.size() - 1));
  CHECK(s.edges == static_cast<int64_t>(raw.pairs.size()));
  CHECK(s.aliases == static_cast<int64_t>(alias_lines.size() - 1));
  REQUIRE(s.edges_by_relation.size() == 1);
  CHECK(s.edges_by_relation[0].first == "string.physical");
  // Every protein named by a link is a node; degrees agree with the raw pairs.
  auto snap = kg.snapshot();
  std::map<std::string, std::size_t> deg;
  for (auto &p : raw.pairs) {
    ++deg[p.first.first];
    ++deg[p.first.second];
  }
  for (const char *id : {"4932.YBR160W", "4932.YFL039C", "4932.YLR229C"}) {
    auto n = kg.node_by_external_id(id);
    REQUIRE(n);
    CHECK(snap->degree(n->id) == deg[id]);
  }
  // Scores survive on the 0-1 scale.
  auto first = *raw.pairs.begin();
  auto a = kg.node_by_external_id(first.first.first), b = kg.node_by_external_id(first.first.second);
  auto edges = kg.edges_between(a->id, b->id);
  REQUIRE(edges.size() == 1);
  CHECK(edges[0].score == doctest::Approx(first.second / 1000.0));
  CHECK_FALSE(edges[0].directed);
  // Provenance.
  auto ds = kg.datasets();
  REQUIRE(ds.size() == 3);
  CHECK(ds[2].format == "physical");
  CHECK(ds[2].string_version == "12.0");
  CHECK(ds[2].taxon == 4932);
  CHECK(ds[2].sha256.size() == 64);
  CHECK(ds[2].file_size == read_file(data("4932.protein.physical.links.v12.0.txt.gz")).size());
  CHECK(ds[2].counts.find("\"edges_created\":" + std::to_string(raw.pairs.size())) != std::string::npos);
}

TEST_CASE("--min-score keeps exactly the links at or above the threshold") {
  TempDir d;
  KnowledgeGraph kg(d.file("y.db"));
  grappi::ImportOptions opt;
  opt.min_score = 700;
  auto rep = kg.import_string({{data("4932.protein.physical.links.v12.0.txt.gz"), StringFormat::physical}}, opt);
  auto raw = count_yeast(700);
  CHECK(rep.files[0].edges_created == raw.pairs.size());
  CHECK(rep.files[0].rows_below_min_score == raw.rows - 2 * raw.pairs.size());
  // Links without an info file create the nodes they name (here: only those above threshold
  // are claimed, but every protein named on any line exists).
  for (auto &n : kg.snapshot()->neighbors(kg.resolve("4932.YBR160W")))
    CHECK(n.score >= 0.7);
  grappi::ImportOptions too_high;
  too_high.min_score = 1001;
  CHECK_THROWS_AS(kg.import_string({{data("4932.protein.physical.links.v12.0.txt.gz")}}, too_high), grappi::Error);
}

TEST_CASE("re-importing the same file adds nothing") {
  TempDir d;
  const auto db = d.file("y.db");
  KnowledgeGraph kg(db);
  kg.import_string({{data("4932.protein.info.v12.0.txt.gz")}, {data("4932.protein.physical.links.v12.0.txt.gz")}});
  const auto before = fingerprint(db);
  const uint64_t generation = kg.generation();
  auto rep = kg.import_string({{data("4932.protein.physical.links.v12.0.txt.gz")}, {data("4932.protein.info.v12.0.txt.gz")}});
  CHECK(rep.files[0].already_imported);
  CHECK(rep.files[1].already_imported);
  // Nothing moves, not even the generation (the snapshot and its cache stay valid).
  CHECK(fingerprint(db) == before);
  CHECK(kg.generation() == generation);
  rep = kg.import({{data("4932.protein.info.v12.0.txt.gz")}});
  CHECK(rep.files[0].already_imported);
  CHECK(kg.generation() == generation);
}

TEST_CASE("imports merge into existing nodes / and a dataset can be removed again") {
  TempDir d;
  const auto db = d.file("h.db");
  KnowledgeGraph kg(db);
  kg.import_string({{data("9606.protein.info.v12.0.txt.gz")}});
  const auto after_info = fingerprint(db);
  auto r1 = kg.import_string({{data("export_v12_alzheimer/string_interactions.tsv")}});
  CHECK(r1.files[0].format == StringFormat::web_export);
  CHECK(r1.files[0].nodes_created == 0);  // all 28 proteins are in the info file
  CHECK(r1.files[0].edges_created == 120);
  const auto after_alz = fingerprint(db);
  auto r2 = kg.import_string({{data("export_v12_nsclc/string_interactions.tsv")}});
  CHECK(r2.files[0].edges_created + r2.files[0].edges_existing == 891);
  const int64_t n_edges = kg.stats().edges;
  CHECK(n_edges == static_cast<int64_t>(120 + r2.files[0].edges_created));
  // Channels from the export are kept.
  auto mapt = kg.resolve("MAPT"), gsk3b = kg.resolve("gsk3b");
  auto e = kg.edges_between(mapt, gsk3b);
  REQUIRE(e.size() == 1);
  CHECK(e[0].relation == "string.combined");
  CHECK(e[0].channels.size() == 8);
  CHECK(e[0].score > 0.9);
  // Removing the NSCLC set restores the database as it was after the Alzheimer set, even for
  // edges both sets contain; removing that too restores the info-only state.
  kg.remove_dataset(r2.files[0].dataset_id);
  auto strip_gen = [](std::string s) {
    auto a = s.find("generation|");
    auto b = s.find('\n', a);
    return s.erase(a, b - a);
  };
  CHECK(strip_gen(fingerprint(db)) == strip_gen(after_alz));
  kg.remove_dataset(r1.files[0].dataset_id);
  // The relation name stays interned; everything else is as before.
  auto strip_rel = [&](std::string s) {
    s = strip_gen(s);
    auto a = s.find("## relations"), b = s.find("## sqlite_stat1");
    if (b == std::string::npos) b = s.size();
    return s.erase(a, b - a);
  };
  CHECK(strip_rel(fingerprint(db)) == strip_rel(after_info));
  CHECK_THROWS_AS(kg.remove_dataset(12345), grappi::Error);
}

TEST_CASE("removing the dataset that created an edge keeps it for the other contributor") {
  TempDir d;
  KnowledgeGraph kg(d.file("h.db"));
  kg.import_string({{data("9606.protein.info.v12.0.txt.gz")}});
  auto alz = kg.import_string({{data("export_v12_alzheimer/string_interactions.tsv")}}).files[0];
  auto nsclc = kg.import_string({{data("export_v12_nsclc/string_interactions.tsv")}}).files[0];
  const auto total = kg.stats().edges;
  kg.remove_dataset(alz.dataset_id);
  // What remains is exactly the NSCLC set.
  CHECK(kg.stats().edges == static_cast<int64_t>(nsclc.edges_created + nsclc.edges_existing));
  CHECK(total >= kg.stats().edges);
  for (auto &ds : kg.datasets()) CHECK(ds.id != alz.dataset_id);
}

TEST_CASE("detailed links keep their channel scores - actions stay directed and typed") {
  TempDir d;
  KnowledgeGraph kg(d.file("h.db"));
  const auto detailed = std::string(GRAPPI_TEST_DATA_DIR) + "/9606.protein.links.detailed.v11.0.sample300.txt.gz";
  const auto actions = std::string(GRAPPI_TEST_DATA_DIR) + "/protein.actions.SHS27k.sample400.txt";
  auto rep = kg.import_string({{detailed}, {actions}});
  REQUIRE(rep.files.size() == 2);
  CHECK(rep.files[0].format == StringFormat::detailed);
  CHECK(rep.files[0].string_version == "11.0");
  CHECK(rep.files[0].edges_created == 300);  // a random sample: no pair listed twice
  CHECK(rep.files[1].format == StringFormat::actions);
  // First data line of the detailed sample: 0 0 0 95 157 900 140 -> 925.
  auto a = kg.resolve("9606.ENSP00000000233"), b = kg.resolve("9606.ENSP00000303145");
  auto e = kg.edges_between(a, b);
  REQUIRE(e.size() >= 1);
  const grappi::Edge *combined = nullptr;
  for (auto &x : e)
    if (x.relation == "string.combined") combined = &x;
  REQUIRE(combined);
  CHECK(combined->score == doctest::Approx(0.925));
  std::map<std::string, double> ch;
  for (auto &c : combined->channels) ch[c.name] = c.score;
  CHECK(ch["coexpression"] == doctest::Approx(0.095));
  CHECK(ch["experimental"] == doctest::Approx(0.157));
  CHECK(ch["database"] == doctest::Approx(0.9));
  CHECK(ch["cooccurrence"] == doctest::Approx(0.0));
  // Actions between 233 and 250971 in the sample: "reaction t t" (233 acts on 250971), "reaction
  // t f" (250971 on 233), "reaction f f" (undirected), "catalysis t t", "catalysis t f", and
  // "binding f t" + "binding f f" (not directional: one undirected edge).
  auto p = kg.resolve("9606.ENSP00000000233"), q = kg.resolve("9606.ENSP00000250971");
  std::map<std::string, int> seen_edges;
  for (auto &x : kg.edges_between(p, q)) {
    std::string dir = !x.directed ? "undirected" : (x.source == p && x.target == q) ? "forward" : "backward";
    if (x.directed) CHECK(((x.source == p && x.target == q) || (x.source == q && x.target == p)));
    ++seen_edges[x.relation + " " + dir];
  }
  const std::map<std::string, int> want_edges = {
      {"string.action.reaction forward", 1},   {"string.action.reaction backward", 1},
      {"string.action.reaction undirected", 1}, {"string.action.catalysis forward", 1},
      {"string.action.catalysis backward", 1}, {"string.action.binding undirected", 1}};
  CHECK(seen_edges == want_edges);
  // The snapshot reports directions from each side: from 233, the reactions with 250971 are one
  // outgoing and one undirected edge once incoming ones are filtered out.
  auto snap = kg.snapshot();
  grappi::NeighborFilter only_out;
  only_out.incoming = false;
  only_out.relations = {"string.action.reaction"};
  int outgoing = 0, undirected = 0, other = 0;
  for (auto &n : snap->neighbors(p, only_out))
    if (n.node == q) {
      if (n.direction == grappi::Direction::outgoing) ++outgoing;
      else if (n.direction == grappi::Direction::undirected) ++undirected;
      else ++other;
    }
  CHECK(outgoing == 1);
  CHECK(undirected == 1);
  CHECK(other == 0);
  // 233 and 19317: "activation f f", "inhibition f t" + "inhibition f f" (not directional) and
  // "catalysis t f" (19317 acts on 233).
  auto r = kg.resolve("9606.ENSP00000019317");
  std::map<std::string, int> with_r;
  for (auto &x : kg.edges_between(p, r)) {
    if (x.directed) {
      CHECK(x.relation == "string.action.catalysis");
      CHECK(x.source == r);
      CHECK(x.target == p);
    }
    ++with_r[x.relation];
  }
  CHECK(with_r == std::map<std::string, int>{{"string.action.activation", 1}, {"string.action.inhibition", 1},
                                             {"string.action.catalysis", 1}});
  std::vector<grappi::Edge> u;
  for (auto &x : kg.edges_between(p, r))
    if (x.relation == "string.action.activation") u.push_back(x);
  REQUIRE(u.size() == 1);
  CHECK_FALSE(u[0].directed);
  CHECK(u[0].relation == "string.action.activation");
}

TEST_CASE("once an organism's info file is imported / links must name its proteins") {
  TempDir d;
  const auto db = d.file("h.db");
  KnowledgeGraph kg(db);
  kg.import_string({{data("9606.protein.info.v12.0.txt.gz")}});
  const auto before = fingerprint(db);
  const auto detailed = std::string(GRAPPI_TEST_DATA_DIR) + "/9606.protein.links.detailed.v11.0.sample300.txt.gz";
  // Some v11 ids are gone from v12: the whole import fails and names the line.
  CHECK_THROWS_WITH_AS(kg.import_string({{detailed}}), doctest::Contains("unknown protein id"), grappi::Error);
  CHECK(fingerprint(db) == before);
  grappi::ImportOptions skip;
  skip.skip_bad_lines = true;
  auto rep = kg.import_string({{detailed}}, skip);
  CHECK(rep.files[0].rows_skipped > 0);
  CHECK(rep.files[0].rows_skipped < 100);
  CHECK(rep.files[0].edges_created == 300 - rep.files[0].rows_skipped);
  CHECK(rep.files[0].nodes_created == 0);
  REQUIRE(!rep.files[0].bad_line_examples.empty());
  CHECK(rep.files[0].bad_line_examples[0].find("sample300.txt.gz:") != std::string::npos);
}

TEST_CASE("a forced format must agree with the header") {
  TempDir d;
  KnowledgeGraph kg(d.file("h.db"));
  CHECK_THROWS_WITH_AS(kg.import_string({{data("4932.protein.info.v12.0.txt.gz"), StringFormat::links}}),
                       doctest::Contains("header is that of a info file"), grappi::Error);
  // links given as physical: the relation follows the flag.
  write_file(d.file("l.txt"), "protein1 protein2 combined_score\n9.a 9.b 500\n9.b 9.a 500\n");
  auto rep = kg.import_string({{d.file("l.txt"), StringFormat::physical}});
  CHECK(rep.files[0].format == StringFormat::physical);
  CHECK(kg.stats().edges_by_relation.at(0).first == "string.physical");
  CHECK(grappi::string_format_from_name("export") == StringFormat::web_export);
  CHECK_THROWS_AS(grappi::string_format_from_name("bogus"), grappi::Error);
  // A file of another format forced as a STRING one (grappi import --export A B.obo) is named
  // as what it is.
  CHECK_THROWS_WITH_AS(kg.import({{data("ontology/goslim_generic.obo"), "web_export"}}),
                       doctest::Contains("given as web_export (a STRING format), but it reads as obo"), grappi::Error);
  CHECK_THROWS_WITH_AS(kg.import({{data("cx2/glypican2.cx2"), "links"}}), doctest::Contains("it reads as cx2"),
                       grappi::Error);
}

TEST_CASE("the two listings of a link with different scores: one edge / the higher score / counted") {
  TempDir d;
  KnowledgeGraph kg(d.file("c.db"));
  write_file(d.file("l.txt"),
             "protein1 protein2 combined_score\n"
             "9.a 9.b 500\n9.b 9.a 600\n"   // conflict: keep 600
             "9.a 9.c 800\n9.c 9.a 300\n"   // conflict: keep 800
             "9.b 9.c 400\n9.c 9.b 400\n"); // agree
  auto rep = kg.import_string({{d.file("l.txt")}});
  CHECK(rep.files[0].edges_created == 3);
  CHECK(rep.files[0].score_conflicts == 2);
  CHECK(rep.files[0].nodes_created == 3);
  auto e = kg.edges_between(kg.resolve("9.a"), kg.resolve("9.b"));
  REQUIRE(e.size() == 1);
  CHECK(e[0].score == doctest::Approx(0.6));
  CHECK(kg.edges_between(kg.resolve("9.a"), kg.resolve("9.c"))[0].score == doctest::Approx(0.8));
  // Undirected edges are stored with the smaller node id first.
  CHECK(e[0].source < e[0].target);
}

TEST_CASE("a website export without an info file creates nodes named by the export") {
  TempDir d;
  KnowledgeGraph kg(d.file("e.db"));
  auto rep = kg.import_string({{data("export_v12_alzheimer/string_interactions.tsv")}});
  CHECK(rep.files[0].nodes_created == 28);
  auto mapt = kg.node(kg.resolve("MAPT"));
  REQUIRE(mapt);
  CHECK(mapt->external_id == "9606.ENSP00000340820");
  CHECK(mapt->taxon == 9606);
  // The info file imported later fills in annotations without duplicating nodes.
  auto rep2 = kg.import_string({{data("9606.protein.info.v12.0.txt.gz")}});
  CHECK(rep2.files[0].nodes_updated == 28);
  CHECK(kg.stats().nodes == 19699);
  CHECK(kg.node(mapt->id)->annotation.find("icrotubule") != std::string::npos);
}

namespace {

// A STRING links file of the chain 9.p<first> - 9.p<first+1> - ... (both listings of each link).
void write_chain(const std::string &path, int first, int last, int score) {
  std::ostringstream out;
  out << "protein1 protein2 combined_score\n";
  for (int i = first; i < last; ++i) {
    out << "9.p" << i << " 9.p" << i + 1 << ' ' << score << '\n';
    out << "9.p" << i + 1 << " 9.p" << i << ' ' << score << '\n';
  }
  write_file(path, out.str());
}

}  // namespace

TEST_CASE("links written many to a statement: new and stored ones mixed are counted and claimed exactly") {
  TempDir d;
  KnowledgeGraph kg(d.file("m.db"));
  write_chain(d.file("a.txt"), 0, 100, 500);    // 100 links
  write_chain(d.file("b.txt"), 50, 250, 500);   // 200 links, 50 of them a's
  const auto ra = kg.import_string({{d.file("a.txt")}});
  CHECK(ra.files[0].edges_created == 100);
  const auto rb = kg.import_string({{d.file("b.txt")}});
  CHECK(rb.files[0].edges_created == 150);
  CHECK(rb.files[0].edges_existing == 50);
  CHECK(kg.stats().edges == 250);
  // b claims the 50 it shares: removing a keeps them.
  kg.remove_dataset(ra.files[0].dataset_id);
  CHECK(kg.stats().edges == 200);
  REQUIRE(kg.resolve("9.p60"));
  CHECK(kg.edges_between(kg.resolve("9.p60"), kg.resolve("9.p61")).size() == 1);
}

TEST_CASE("a first network of 64 MB or more is written through a rollback journal and the database is WAL again" *
          doctest::test_suite("heavy")) {
  TempDir d;
  // 20,000 proteins, each linked to the next 45: 900,000 links, 1.8 million lines (about 72 MB).
  {
    std::ofstream out(d.file("big.txt"));
    out << "protein1 protein2 combined_score\n";
    for (int i = 0; i < 20000; ++i)
      for (int k = -45; k <= 45; ++k) {
        const int j = ((i + k) % 20000 + 20000) % 20000;
        if (k != 0) out << "9606.ENSP" << 10000000 + i << " 9606.ENSP" << 10000000 + j << ' ' << 150 + (std::min(i, j) * 7 + std::max(i, j)) % 850 << '\n';
      }
  }
  REQUIRE(std::filesystem::file_size(d.file("big.txt")) >= (64u << 20));
  {
    KnowledgeGraph kg(d.file("big.db"));
    const auto r = kg.import_string({{d.file("big.txt")}});
    CHECK(r.files[0].edges_created == 900000);
    CHECK(r.files[0].score_conflicts == 0);
    CHECK(kg.stats().edges == 900000);
    const auto e = kg.edges_between(kg.resolve("9606.ENSP10000005"), kg.resolve("9606.ENSP10000045"));
    REQUIRE(e.size() == 1);
    CHECK(e[0].score == doctest::Approx((5 * 7 + 45) % 850 / 1000.0 + 0.15));
    // (written into the file once: the WAL, WAL again since, holds none of it)
    std::error_code ec;
    CHECK(std::filesystem::file_size(d.file("big.db-wal"), ec) < (1u << 20));
  }
  CHECK(journal_mode(d.file("big.db")) == "wal");
  // Another connection open on the database: the journal stays WAL, the import works all the same.
  KnowledgeGraph kg(d.file("other.db"));
  sqlite3 *other = nullptr;
  REQUIRE(sqlite3_open_v2(d.file("other.db").c_str(), &other, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_exec(other, "SELECT count(*) FROM nodes", nullptr, nullptr, nullptr);
  const auto r = kg.import_string({{d.file("big.txt")}});
  CHECK(r.files[0].edges_created == 900000);
  CHECK(std::filesystem::file_size(d.file("other.db-wal")) > (16u << 20));  // (through the WAL)
  sqlite3_close(other);
  CHECK(journal_mode(d.file("other.db")) == "wal");
}
