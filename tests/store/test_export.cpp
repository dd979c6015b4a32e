// Exports: JSON lines re-import to the same graph (a second export is byte for byte the first),
// the edge table re-imports as an edge list with the same edges, selections (relations, score,
// node list, k-hop) keep exactly the edges they say, and bad JSON lines are named by file and
// line with the database unchanged. GraphML is opened by networkx and igraph in
// tests/check_graphml.sh.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;

namespace {

// The part files a write of `path` may have left beside it ("<path>.part", then a name of its own).
std::vector<std::string> part_files_beside(const std::string &path) {
  const std::filesystem::path p(path);
  std::vector<std::string> left;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(p.parent_path(), ec), end; !ec && it != end; it.increment(ec))
    if (it->path().filename().string().rfind(p.filename().string() + ".part", 0) == 0) left.push_back(it->path().string());
  return left;
}

// Human proteins, the Alzheimer STRING export, IntAct and PSI-MI: every kind of node, edge,
// alias, attribute, channel and evidence record.
void fill(KnowledgeGraph &kg) {
  kg.import({{data("9606.protein.info.v12.0.txt.gz")},
             {data("export_v12_alzheimer/string_interactions.tsv")},
             {data("intact/intact_sample.mitab27.tsv.gz")},
             {data("ontology/psi-mi.obo")}});
}

std::string export_text(const KnowledgeGraph &kg, const grappi::ExportOptions &o = {}) {
  std::ostringstream out;
  kg.export_graph(out, o);
  return out.str();
}

std::vector<nlohmann::json> lines_of(const std::string &text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(nlohmann::json::parse(line));
  return out;
}

}  // namespace

TEST_CASE("JSON lines export re-imports to the same graph byte for byte") {
  TempDir d;
  KnowledgeGraph kg(d.file("a.db"));
  fill(kg);
  std::ostringstream out;
  const auto rep = kg.export_graph(out);
  const std::string first = out.str();
  const auto stats = kg.stats();
  CHECK(rep.nodes == static_cast<uint64_t>(stats.nodes));
  CHECK(rep.edges == static_cast<uint64_t>(stats.edges));
  CHECK(rep.records == 823);
  write_file(d.file("g.jsonl"), first);
  KnowledgeGraph copy(d.file("b.db"));
  const auto imp = copy.import({{d.file("g.jsonl")}});  // detected from its header
  CHECK(imp.files.at(0).kind == "jsonl");
  const auto s2 = copy.stats();
  CHECK(s2.nodes == stats.nodes);
  CHECK(s2.edges == stats.edges);
  CHECK(s2.aliases == stats.aliases);
  CHECK(s2.edges_by_relation == stats.edges_by_relation);
  CHECK(export_text(copy) == first);
  // Channels, PubMed ids and records survive.
  const auto a = kg.edges_between(kg.resolve("MAPT"), kg.resolve("GSK3B"));
  const auto b = copy.edges_between(copy.resolve("MAPT"), copy.resolve("GSK3B"));
  REQUIRE(a.size() == 1);
  REQUIRE(b.size() == 1);
  CHECK(a[0].channels.size() == b[0].channels.size());
  CHECK(a[0].score == b[0].score);
  const int64_t ndc80 = copy.resolve("uniprotkb:P40460");
  const auto recs = copy.edges_between(ndc80, ndc80).at(0).records;
  REQUIRE(recs.size() == 4);
  CHECK(recs[0].line == 2);
  CHECK(recs[0].raw.rfind("uniprotkb:P40460\t", 0) == 0);
  CHECK(copy.edges_between(ndc80, ndc80).at(0).pmids == std::vector<int64_t>{11087867});
  // The ontology answers the same questions.
  grappi::OntologyQuestion q;
  q.kind = grappi::OntologyQuestion::Kind::subtree;
  q.term = "MI:0190";
  CHECK(grappi::ontology_json(copy, q)["descendants"].size() == 145);
}

TEST_CASE("Export selections keep exactly the edges they name") {
  TempDir d;
  KnowledgeGraph kg(d.file("a.db"));
  fill(kg);
  grappi::ExportOptions o;
  o.relations = {"string.combined"};
  o.min_score = 0.9;
  auto lines = lines_of(export_text(kg, o));
  std::size_t edges = 0;
  for (const auto &l : lines)
    if (l.value("type", "") == "edge") {
      CHECK(l["relation"] == "string.combined");
      CHECK(l["score"].get<double>() >= 0.9);
      ++edges;
    }
  const auto snap = kg.snapshot();
  std::size_t want = 0;
  grappi::NeighborFilter f;
  f.relations = {"string.combined"};
  f.min_score = 0.9;
  for (const auto &l : lines)
    if (l.value("type", "") == "node")
      for (const auto &nb : snap->neighbors(kg.resolve(l["id"].get<std::string>()), f)) want += nb.node > 0 ? 1 : 0;
  CHECK(edges * 2 == want);  // each undirected edge is listed under both ends
  CHECK(edges > 0);
  // k-hop: MAPT and its direct STRING partners, and the edges among them.
  grappi::ExportOptions k;
  k.khop = "MAPT";
  k.hops = 1;
  k.relations = {"string.combined"};
  lines = lines_of(export_text(kg, k));
  std::set<std::string> nodes;
  for (const auto &l : lines)
    if (l.value("type", "") == "node") nodes.insert(l["name"].get<std::string>());
  std::set<std::string> partners{"MAPT"};
  for (const auto &nb : snap->neighbors(kg.resolve("MAPT"), grappi::NeighborFilter{{"string.combined"}, 0, true, true}))
    partners.insert(kg.node(nb.node)->name);
  CHECK(nodes == partners);
  for (const auto &l : lines)
    if (l.value("type", "") == "edge") {
      CHECK(nodes.count(kg.node_by_external_id(l["source"].get<std::string>())->name));
      CHECK(nodes.count(kg.node_by_external_id(l["target"].get<std::string>())->name));
    }
  // A node list: two proteins and the one edge between them.
  grappi::ExportOptions n;
  n.nodes = {"MAPT", "GSK3B"};
  lines = lines_of(export_text(kg, n));
  CHECK(lines.size() == 4);  // header, two nodes, one edge
  // Bad selections.
  grappi::ExportOptions bad;
  bad.relations = {"string.nope"};
  CHECK_THROWS_WITH_AS(export_text(kg, bad), doctest::Contains("no relation 'string.nope'"), grappi::Error);
  bad = {};
  bad.min_score = 1.5;
  CHECK_THROWS_AS(export_text(kg, bad), grappi::Error);
  bad = {};
  bad.nodes = {"NO_SUCH_PROTEIN_XYZ"};
  CHECK_THROWS_AS(export_text(kg, bad), grappi::Error);
  CHECK_THROWS_AS(grappi::export_format_from_name("cx3"), grappi::Error);
}

TEST_CASE("The edge table re-imports as an edge list with the same edges") {
  TempDir d;
  KnowledgeGraph kg(d.file("a.db"));
  kg.import({{data("9606.protein.info.v12.0.txt.gz")}, {data("export_v12_alzheimer/string_interactions.tsv")}});
  grappi::ExportOptions o;
  o.format = grappi::ExportFormat::tsv;
  const std::string tsv = export_text(kg, o);
  CHECK(tsv.rfind("source\ttarget\tsource_name\ttarget_name\trelation\tscore\tdirected\tpmids\n", 0) == 0);
  write_file(d.file("e.tsv"), tsv);
  KnowledgeGraph copy(d.file("b.db"));
  copy.import({{data("9606.protein.info.v12.0.txt.gz")}});
  grappi::ImportOptions io;
  io.edges.source_column = "source";
  io.edges.target_column = "target";
  io.edges.score_column = "score";
  io.edges.relation_column = "relation";
  const auto rep = copy.import({{d.file("e.tsv"), "edges"}}, io);
  CHECK(rep.files[0].edges_created == 120);
  CHECK(copy.stats().edges_by_relation == kg.stats().edges_by_relation);
  o.format = grappi::ExportFormat::tsv;
  CHECK(export_text(copy, o) == tsv);
}

TEST_CASE("Bad JSON lines are named by file and line and change nothing") {
  TempDir d;
  const std::string db = d.file("kg.db");
  {
    KnowledgeGraph kg(db);
    kg.import({{data("9606.protein.info.v12.0.txt.gz")}});
  }
  const std::string before = fingerprint(db);
  const std::string head = "{\"format\":\"grappi-jsonl\",\"version\":1}\n";
  const std::string node = "{\"type\":\"node\",\"id\":\"X:1\",\"name\":\"x\"}\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"format\":\"grappi-jsonl\",\"version\":2}\n" + node, ":1: unsupported grappi-jsonl version"},
      {"{\"nodes\":1}\n", ":1: not a grappi JSON lines file"},
      {head + node + "{\"type\":\"node\",\n", ":3: not valid JSON"},
      {head + node + "[1,2]\n", ":3: not a JSON object"},
      {head + node + node, ":3: node 'X:1' defined twice"},
      {head + "{\"type\":\"edge\",\"source\":\"X:1\",\"target\":\"X:2\",\"relation\":\"r\",\"directed\":false,\"score\":2}\n",
       ":2: \"score\" is outside [0, 1]"},
      {head + "{\"type\":\"edge\",\"source\":\"X:1\",\"target\":\"X:2\",\"directed\":false,\"score\":1}\n",
       ":2: an edge without \"relation\""},
      {head + "{\"type\":\"edge\",\"source\":\"X:1\",\"target\":\"X:2\",\"relation\":\"r\",\"directed\":\"no\",\"score\":1}\n",
       ":2: \"directed\" is not true or false"},
      {head + "{\"type\":\"graph\"}\n", ":2: unknown type 'graph'"},
      {head + "{\"type\":\"node\",\"id\":\"X:1\",\"aliases\":[[\"a\"]]}\n", ":2: an alias is not [alias, source]"},
      {head + "{\"type\":\"node\",\"id\":\"X:1\",\"name\":\"\xff\"}\n", ":2: invalid UTF-8"},
      {"", "empty file"},
  };
  for (const auto &text_expect : cases) {
    const auto &text = text_expect.first;
    const auto &expect = text_expect.second;
    CAPTURE(expect);
    write_file(d.file("g.jsonl"), text);
    KnowledgeGraph kg(db);
    try {
      kg.import({{d.file("g.jsonl"), "jsonl"}});
      FAIL("imported");
    } catch (const grappi::Error &e) {
      const std::string what = e.what();
      CHECK_MESSAGE(what.find(expect) != std::string::npos, what);
      CHECK(what.find(d.file("g.jsonl")) == 0);
    }
    CHECK(fingerprint(db) == before);
  }
}

TEST_CASE("write_file writes a file whole or leaves the one that was there") {
  TempDir d;
  const std::string path = d.file("out.json");
  const auto read = [](const std::string &p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
  };
  grappi::write_file(path, "{\"first\": true}\n");
  CHECK(read(path) == "{\"first\": true}\n");
  grappi::write_file(path, std::string(100000, 'x'));  // replaced whole
  CHECK(read(path).size() == 100000);
  CHECK(part_files_beside(path).empty());
  // A folder that does not exist: Error(io) naming the path, nothing left behind.
  const std::string missing = d.file("no/such/folder/out.json");
  const std::string said = "cannot write '" + missing + "'";
  CHECK_THROWS_WITH_AS(grappi::write_file(missing, "x"), doctest::Contains(said.c_str()), grappi::Error);
  CHECK(part_files_beside(missing).empty());
  // A device is written directly (it cannot be renamed over).
  CHECK_NOTHROW(grappi::write_file("/dev/null", "ignored"));
  CHECK_THROWS_WITH_AS(grappi::write_file("/dev/full", "x"), doctest::Contains("cannot write '/dev/full'"), grappi::Error);
  CHECK(read(path).size() == 100000);
}
