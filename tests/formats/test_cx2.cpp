// CX2 and CX1 in and out: every bundled CX2 network imported and counted against an
// independent reading of the file (nlohmann::json here, not grappi's reader); NDEx nodes joined
// to the human STRING proteins; textToKnowledgeGraph's BEL networks stored as BEL statements
// with their evidence; the reader's accept/reject checklist (cytoscape-web's fixtures) with the
// database unchanged after every refusal; CX1 (a hand-written network, and galFiltered when
// ../shared is there); and the round trip: a CX2 export re-imports to the same graph.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;
using nlohmann::json;

namespace {

json read_json(const std::string &path) {
  std::ifstream f(path);
  return json::parse(f);
}

// The aspect's elements, over all fragments.
json aspect(const json &doc, const std::string &name) {
  json out = json::array();
  for (const auto &a : doc)
    if (a.contains(name))
      for (const auto &x : a[name]) out.push_back(x);
  return out;
}

const grappi::Edge *edge_of(const std::vector<grappi::Edge> &edges, const std::string &relation) {
  for (const auto &e : edges)
    if (e.relation == relation) return &e;
  return nullptr;
}

int64_t relation_count(const grappi::GraphStats &s, const std::string &relation) {
  for (const auto &[name, n] : s.edges_by_relation)
    if (name == relation) return n;
  return 0;
}

std::string jsonl_of(const KnowledgeGraph &kg) {
  std::ostringstream out;
  kg.export_graph(out);
  return out.str();
}

// A small CX2 document: descriptor, declarations (aliases, a default), nodes, edges, status.
std::string cx2(const std::string &nodes, const std::string &edges, const std::string &extra = "") {
  return "[{\"CXVersion\":\"2.0\",\"hasFragments\":false},"
         "{\"attributeDeclarations\":[{\"nodes\":{\"name\":{\"d\":\"string\",\"a\":\"n\"},\"rank\":{\"d\":\"integer\",\"v\":0}},"
         "\"edges\":{\"interaction\":{\"d\":\"string\",\"a\":\"i\"},\"score\":{\"d\":\"double\"}}}]},"
         "{\"nodes\":[" + nodes + "]},{\"edges\":[" + edges + "]}" + extra + ",{\"status\":[{\"success\":true}]}]";
}

}  // namespace

TEST_CASE("NDEx and Cytoscape CX2 networks import with their nodes and edges and attributes") {
  TempDir d;
  KnowledgeGraph kg(d.file("kb.db"));
  const auto rep = kg.import({{data("9606.protein.info.v12.0.txt.gz")},
                              {data("cx2/glypican2.cx2")},
                              {data("cx2/small_network_with_styles.cx2")},
                              {data("cx2/no_edge_style2.cx2")}});
  REQUIRE(rep.files.size() == 4);
  for (std::size_t i = 1; i < 4; ++i) {
    const auto &f = rep.files[i];
    INFO(f.path);
    CHECK(f.kind == "cx2");
    CHECK(f.rows_skipped == 0);
    const json doc = read_json(f.path);
    CHECK(detail_of(f, "cx_nodes") == aspect(doc, "nodes").size());
    CHECK(detail_of(f, "cx_edges") == aspect(doc, "edges").size());
    CHECK(f.lines == aspect(doc, "nodes").size() + aspect(doc, "edges").size());
  }
  // glypican2: both proteins join the STRING proteins (by name; their UniProt ids become
  // aliases), the edge is an undirected cx2.in-complex-with edge.
  CHECK(detail_of(rep.files[1], "nodes_joined") == 2);
  const int64_t mdk = kg.resolve("9606.ENSP00000385451"), gpc2 = kg.resolve("9606.ENSP00000292377");
  CHECK(kg.resolve("uniprot knowledgebase:P21741") == mdk);
  CHECK(kg.resolve("uniprot knowledgebase:Q2LEK4") == mdk);  // from the node's "alias" list
  const auto between = kg.edges_between(mdk, gpc2);
  const auto *complex = edge_of(between, "cx2.in-complex-with");
  REQUIRE(complex != nullptr);
  CHECK_FALSE(complex->directed);
  CHECK(complex->score == 1.0);
  REQUIRE(complex->records.size() == 1);
  CHECK(json::parse(complex->records[0].record)["values"]["interaction"] == "in-complex-with");
  // small_network_with_styles: typed node attributes (alias "n" read as "name"), layout-free;
  // the styles, bypasses and Cytoscape tables are counted, not stored.
  const auto n764 = kg.node(kg.resolve("764"));
  REQUIRE(n764);
  CHECK(n764->label == "Node");
  const json attrs = json::parse(n764->attributes);
  CHECK(attrs["Size"] == 19);
  CHECK(attrs["annot"] == "COMP:764");
  CHECK(attrs["align_fdr"] == -1.0);
  CHECK(detail_of(rep.files[2], "other_aspect_elements") > 0);
  const auto stats = kg.stats();
  CHECK(relation_count(stats, "cx2.interacts_with") == 6 + 1);
  // no_edge_style2: nodes without "represents" are named by their (unique) names; positions kept.
  const auto node1 = kg.node(kg.resolve("Node 1"));
  REQUIRE(node1);
  CHECK(json::parse(node1->attributes)["cx2_position"] == json::array({-228.0, -119.0}));
}

TEST_CASE("textToKnowledgeGraph CX2 networks are read as BEL with their evidence") {
  TempDir d;
  KnowledgeGraph kg(d.file("kb.db"));
  grappi::ImportOptions skip;
  skip.skip_bad_lines = true;
  for (const char *name : {"cx2/llm_kg_pmid24360018_sirt1_parp1.cx2", "cx2/llm_kg_pmid10436023_cell_cycle.cx2"}) {
    INFO(name);
    const json doc = read_json(data(name));
    // Independently: which expressions and node names grappi's validator accepts.
    std::size_t bad = 0, statements = 0;
    for (const auto &n : aspect(doc, "nodes")) bad += grappi::validate_bel(n["v"]["name"].get<std::string>()).valid() ? 0 : 1;
    for (const auto &e : aspect(doc, "edges")) {
      const auto r = grappi::validate_bel(e["v"]["bel_expression"].get<std::string>());
      if (r.valid()) ++statements;
      else ++bad;
    }
    const auto rep = kg.import({{data(name)}}, skip);
    const auto &f = rep.files.at(0);
    CHECK(f.kind == "cx2");
    CHECK(f.rows_skipped == bad);
    CHECK(detail_of(f, "statements") == statements);
    CHECK(detail_of(f, "endpoint_mismatches") == 0);
  }
  // An edge with its evidence sentence, passage and the paper's DOI (the networks name no PMID
  // in their reference but in their name).
  const int64_t parp1 = kg.resolve("p(HGNC:PARP1)");
  const int64_t ddr = kg.resolve("bp(GO:\"DNA damage response\")");
  const auto edges = kg.edges_between(parp1, ddr);
  const auto *e = edge_of(edges, "bel.regulates");
  REQUIRE(e != nullptr);
  CHECK(e->directed);
  REQUIRE_FALSE(e->records.empty());
  const json ctx = json::parse(e->records[0].record);
  CHECK(ctx["evidence"].get<std::string>().rfind("Both SIRT1 and PARP1 share a common co-factor", 0) == 0);
  CHECK(ctx["doi"] == "10.1186/2041-9414-4-6");
  CHECK(ctx["pmids"] == json::array({24360018}));
  CHECK(e->pmids == std::vector<int64_t>{24360018});
  // The groundings of the statement's terms (identifiers.org ids) are in its record.
  CHECK(ctx["groundings"]["p(HGNC:PARP1)"] == "HGNC:270");
  // Without --skip-bad-lines the first invalid statement stops the import and names its edge.
  KnowledgeGraph strict(d.file("strict.db"));
  CHECK_THROWS_WITH_AS(strict.import({{data("cx2/llm_kg_pmid10436023_cell_cycle.cx2")}}),
                       doctest::Contains("llm_kg_pmid10436023_cell_cycle.cx2:"), grappi::Error);
}

TEST_CASE("The CX2 reader refuses what cytoscape-web refuses and leaves the database unchanged") {
  TempDir d;
  const std::string db = d.file("kb.db");
  {
    KnowledgeGraph kg(db);
    kg.import({{data("cx2/glypican2.cx2")}});
  }
  const std::string before = fingerprint(db);
  const std::string a = "{\"id\":1,\"v\":{\"n\":\"A\"}}", b = "{\"id\":2,\"v\":{\"n\":\"B\"}}";
  const std::string ab = "{\"id\":1,\"s\":1,\"t\":2,\"v\":{\"i\":\"binds\"}}";
  struct Case {
    const char *name, *expect;
    std::string text;
  };
  const std::vector<Case> cases = {
      {"not an array", "top level must be a JSON array", "{\"CXVersion\":\"2.0\"}"},
      {"empty array", "an empty CX document", "[]"},
      {"missing CXVersion", "no CXVersion descriptor", "[{\"nodes\":[{\"id\":1}]},{\"status\":[{\"success\":true}]}]"},
      {"wrong version", "CX version '3.0' is not supported", "[{\"CXVersion\":\"3.0\"},{\"status\":[{\"success\":true}]}]"},
      {"missing status", "no status aspect", "[{\"CXVersion\":\"2.0\"},{\"nodes\":[" + a + "]}]"},
      {"failed status", "status reports a failure: out of memory",
       "[{\"CXVersion\":\"2.0\"},{\"status\":[{\"success\":false,\"error\":\"out of memory\"}]}]"},
      {"duplicate node ids", "bad.cx2:2: node 2 (id 1): duplicate node id 1", cx2(a + "," + a, "")},
      {"duplicate edge ids", "bad.cx2:2: edge 2 (id 1): duplicate edge id 1", cx2(a + "," + b, ab + "," + ab)},
      {"dangling edge", "edge 1 (id 1): its target 2 is not a node of the network", cx2(a, ab)},
      {"truncated", "not valid JSON", cx2(a + "," + b, ab).substr(0, 150)},
      {"wrong attribute type", "attribute 'score' is declared double but holds \"high\"",
       cx2(a + "," + b, "{\"id\":1,\"s\":1,\"t\":2,\"v\":{\"score\":\"high\"}}")},
      {"unknown type", "unknown type \"list_of_things\"",
       "[{\"CXVersion\":\"2.0\"},{\"attributeDeclarations\":[{\"nodes\":{\"x\":{\"d\":\"list_of_things\"}}}]},"
       "{\"status\":[{\"success\":true}]}]"},
      {"aspect not an array", "an aspect must be an object with one key whose value is an array",
       "[{\"CXVersion\":\"2.0\"},{\"nodes\":{\"id\":1}},{\"status\":[{\"success\":true}]}]"},
      {"node without id", "node 1: no integer \"id\"", cx2("{\"v\":{\"n\":\"A\"}}", "")},
      {"binary garbage", "invalid UTF-8", std::string("[{\"CXVersion\":\"2.0\"}\n\xff\xfe\x01]\n", 22)},
      {"CX1 attribute of a missing node", "nodeAttributes 1: \"po\" 9 is not an element of the network",
       "[{\"numberVerification\":[{\"longNumber\":1}]},{\"nodes\":[{\"@id\":1,\"n\":\"A\"}]},"
       "{\"nodeAttributes\":[{\"po\":9,\"n\":\"x\",\"v\":\"1\"}]}]"},
      {"CX1 value of the wrong type", "nodeAttributes 1: value \"abc\" of 'x' is not a double",
       "[{\"numberVerification\":[{\"longNumber\":1}]},{\"nodes\":[{\"@id\":1,\"n\":\"A\"}]},"
       "{\"nodeAttributes\":[{\"po\":1,\"n\":\"x\",\"v\":\"abc\",\"d\":\"double\"}]}]"},
      // (100,000 levels overflowed the stack when the attributes were written back out)
      {"an attribute nested 100000 deep", "JSON nested deeper than 128 levels",
       cx2("{\"id\":1,\"v\":{\"n\":\"A\",\"x\":" + std::string(100000, '[') + std::string(100000, ']') + "}}", "")},
      {"an attribute nested 129 deep", "JSON nested deeper than 128 levels",
       cx2("{\"id\":1,\"v\":{\"n\":\"A\",\"x\":" + std::string(125, '[') + std::string(125, ']') + "}}", "")},
  };
  for (const Case &c : cases) {
    INFO("case " << c.name);
    write_file(d.file("bad.cx2"), c.text);
    KnowledgeGraph kg(db);
    try {
      kg.import({{d.file("bad.cx2"), "cx2"}});
      FAIL("imported " << c.name);
    } catch (const grappi::Error &e) {
      CHECK(e.code() == grappi::ErrorCode::parse);
      CHECK_MESSAGE(std::string(e.what()).find(c.expect) != std::string::npos, e.what());
    }
    CHECK(fingerprint(db) == before);
  }
  // With skip_bad_lines the good nodes and edges go in and the bad ones are counted.
  write_file(d.file("some.cx2"), cx2(a + "," + b + "," + a, ab + ",{\"id\":2,\"s\":1,\"t\":7}"));
  KnowledgeGraph kg(db);
  grappi::ImportOptions skip;
  skip.skip_bad_lines = true;
  const auto rep = kg.import({{d.file("some.cx2")}}, skip);
  CHECK(rep.files[0].rows_skipped == 2);
  CHECK(rep.files[0].edges_created == 1);
  REQUIRE(rep.files[0].bad_line_examples.size() == 2);
  CHECK(rep.files[0].bad_line_examples[0].find("duplicate node id 1") != std::string::npos);
}

TEST_CASE("The CX2 reader accepts fragments and aliases and defaults and unknown aspects in any order") {
  TempDir d;
  // The status first, declarations after the nodes, nodes in two fragments, an opaque aspect.
  const std::string text =
      "[{\"CXVersion\":\"2.1\",\"hasFragments\":true},{\"status\":[{\"success\":true}]},"
      "{\"nodes\":[{\"id\":\"10\",\"v\":{\"n\":\"P1\",\"r\":\"uniprotkb:Q00001\"},\"x\":1.5,\"y\":2}]},"
      "{\"myPlugin\":[{\"anything\":1},{\"anything\":2}]},"
      "{\"nodes\":[{\"id\":11,\"v\":{\"n\":\"P2\",\"tags\":[\"a\",\"b\"]}}]},"
      "{\"edges\":[{\"id\":0,\"s\":10,\"t\":11,\"v\":{\"i\":\"phosphorylates\",\"directed\":true,\"score\":0.25,"
      "\"citation\":[\"pubmed:123\",\"PMID: 456\"]}}]},"
      "{\"attributeDeclarations\":[{\"nodes\":{\"name\":{\"a\":\"n\"},\"represents\":{\"d\":\"string\",\"a\":\"r\"},"
      "\"tags\":{\"d\":\"list_of_string\"},\"rank\":{\"d\":\"long\",\"v\":7}},"
      "\"edges\":{\"interaction\":{\"a\":\"i\"},\"directed\":{\"d\":\"boolean\"},\"score\":{\"d\":\"double\"},"
      "\"citation\":{\"d\":\"list_of_string\"}}}]},"
      "{\"networkAttributes\":[{\"name\":\"fragments\"}]}]";
  write_file(d.file("net.json"), text);
  KnowledgeGraph kg(d.file("kb.db"));
  const auto rep = kg.import({{d.file("net.json")}});  // detected from the leading '['
  const auto &f = rep.files.at(0);
  CHECK(f.kind == "cx2");
  CHECK(detail_of(f, "cx_nodes") == 2);
  CHECK(detail_of(f, "other_aspect_elements") == 2);
  const auto p1 = kg.node(kg.resolve("uniprotkb:Q00001"));
  REQUIRE(p1);
  CHECK(p1->name == "P1");
  const json a1 = json::parse(p1->attributes);
  CHECK(a1["rank"] == 7);  // the declared default
  CHECK(a1["cx2_position"] == json::array({1.5, 2.0}));
  const auto p2 = kg.node(kg.resolve("P2"));
  REQUIRE(p2);
  CHECK(json::parse(p2->attributes)["tags"] == json::array({"a", "b"}));
  const auto e = kg.edges_between(p1->id, p2->id);
  REQUIRE(e.size() == 1);
  CHECK(e[0].relation == "cx2.phosphorylates");
  CHECK(e[0].directed);
  CHECK(e[0].score == 0.25);
  CHECK(e[0].pmids == std::vector<int64_t>{123, 456});
  // The network's own attributes are the dataset's provenance.
  bool found = false;
  for (const auto &ds : kg.datasets())
    if (ds.format == "cx2") found = json::parse(ds.options)["network"]["name"] == "fragments";
  CHECK(found);
}

TEST_CASE("CX1 networks: nodes and edges with typed attributes and layout") {
  TempDir d;
  const std::string text =
      "[{\"numberVerification\":[{\"longNumber\":281474976710655}]},"
      "{\"metaData\":[{\"name\":\"nodes\",\"elementCount\":2,\"version\":\"1.0\"}]},"
      "{\"nodes\":[{\"@id\":5,\"n\":\"YKR026C\"},{\"@id\":6,\"n\":\"YGL122C\"}]},"
      "{\"edges\":[{\"@id\":7,\"s\":5,\"t\":6,\"i\":\"pp\"}]},"
      "{\"networkAttributes\":[{\"n\":\"name\",\"v\":\"tiny\"}]},"
      "{\"nodeAttributes\":[{\"po\":5,\"n\":\"gal1RGexp\",\"v\":\"-0.434\",\"d\":\"double\"},"
      "{\"po\":[5,6],\"n\":\"degree\",\"v\":\"1\",\"d\":\"integer\"},"
      "{\"po\":6,\"n\":\"flags\",\"v\":[\"true\",\"false\"],\"d\":\"list_of_boolean\"}]},"
      "{\"edgeAttributes\":[{\"po\":7,\"n\":\"EdgeBetweenness\",\"v\":\"496.0\",\"d\":\"double\"}]},"
      "{\"cartesianLayout\":[{\"node\":5,\"x\":10,\"y\":20}]},"
      "{\"cyVisualProperties\":[{\"properties_of\":\"network\"}]},"
      "{\"status\":[{\"error\":\"\",\"success\":true}]}]";
  write_file(d.file("tiny.cx"), text);
  KnowledgeGraph kg(d.file("kb.db"));
  // The yeast proteins first: the CX1 nodes join them by their ORF names.
  const auto rep = kg.import({{data("4932.protein.info.v12.0.txt.gz")},
                              {data("4932.protein.aliases.v12.0.txt.gz")},
                              {d.file("tiny.cx"), "cx2"}});
  const auto &f = rep.files.back();
  CHECK(f.kind == "cx2");
  CHECK(detail_of(f, "nodes_joined") == 2);
  CHECK(detail_of(f, "other_aspect_elements") == 1);
  const int64_t a = kg.resolve("4932.YKR026C"), b = kg.resolve("4932.YGL122C");
  const auto e = kg.edges_between(a, b);
  const auto *pp = edge_of(e, "cx2.pp");
  REQUIRE(pp != nullptr);
  const json rec = json::parse(pp->records.at(0).record);
  CHECK(rec["values"]["EdgeBetweenness"] == 496.0);
  CHECK(pp->records[0].raw == "{\"@id\":7,\"i\":\"pp\",\"s\":5,\"t\":6}");
  // Alone (nothing to join), the nodes carry the converted attributes and the layout.
  KnowledgeGraph alone(d.file("alone.db"));
  alone.import({{d.file("tiny.cx")}});
  const auto n5 = alone.node(alone.resolve("YKR026C"));
  REQUIRE(n5);
  const json a5 = json::parse(n5->attributes);
  CHECK(a5["gal1RGexp"] == -0.434);
  CHECK(a5["degree"] == 1);
  CHECK(a5["cx2_position"] == json::array({10.0, 20.0}));
  CHECK(json::parse(alone.node(alone.resolve("YGL122C"))->attributes)["flags"] == json::array({true, false}));
}

TEST_CASE("CX1 galFiltered imports its 331 nodes and 362 edges beside the yeast proteins") {
  const std::string path = std::string(GRAPPI_DATA_DIR) + "/../../shared/data/networks/galFiltered.cx1.cx";
  if (!std::ifstream(path)) {
    MESSAGE("skipped: " << path << " is not here (its licence is unverified, so it is not bundled)");
    return;
  }
  const json doc = read_json(path);
  std::map<std::string, std::size_t> interactions;
  for (const auto &e : aspect(doc, "edges")) ++interactions[e["i"].get<std::string>()];
  TempDir d;
  KnowledgeGraph kg(d.file("kb.db"));
  const auto rep = kg.import({{data("4932.protein.info.v12.0.txt.gz")},
                              {data("4932.protein.aliases.v12.0.txt.gz")},
                              {path}});
  const auto &f = rep.files.back();
  CHECK(f.kind == "cx2");
  CHECK(f.rows_skipped == 0);
  CHECK(detail_of(f, "cx_nodes") == 331);
  CHECK(detail_of(f, "cx_edges") == 362);
  CHECK(detail_of(f, "nodes_joined") + detail_of(f, "nodes_made") == 331);
  CHECK(detail_of(f, "nodes_joined") > 300);
  const auto stats = kg.stats();
  // Edges repeated between one pair with one interaction merge; the counts can only shrink.
  CHECK(relation_count(stats, "cx2.pp") <= interactions["pp"]);
  CHECK(relation_count(stats, "cx2.pd") <= interactions["pd"]);
  CHECK(relation_count(stats, "cx2.pp") + relation_count(stats, "cx2.pd") >= 350);
}

// (heavy: the human proteins, STRING, IntAct, PSI-MI, a BEL graph and a CX2 network exported and
// imported again; the Release stage only - the ASan stage exports CX2 in the CLI tests)
TEST_CASE("A CX2 export re-imports to the same graph" * doctest::test_suite("heavy")) {
  TempDir d;
  KnowledgeGraph kg(d.file("a.db"));
  // STRING channels, IntAct records, an ontology, BEL terms and statements, a CX2 network.
  kg.import({{data("9606.protein.info.v12.0.txt.gz")},
             {data("export_v12_alzheimer/string_interactions.tsv")},
             {data("intact/intact_sample.mitab27.tsv.gz")},
             {data("ontology/psi-mi.obo")},
             {data("bel/cbn_cytotoxic_t-cell_signaling-2.0-hs.bel.jgf.json.gz")},
             {data("cx2/small_network_with_styles.cx2")}});
  grappi::ExportOptions o;
  o.format = grappi::ExportFormat::cx2;
  const auto rep = kg.export_graph(d.file("g.cx2"), o);
  const auto stats = kg.stats();
  CHECK(rep.nodes == static_cast<uint64_t>(stats.nodes));
  CHECK(rep.edges == static_cast<uint64_t>(stats.edges));
  // It is CX2 as cytoscape-web reads it: checked by an independent reading.
  const json doc = read_json(d.file("g.cx2"));
  CHECK(doc.at(0)["CXVersion"] == "2.0");
  CHECK(doc.back().contains("status"));
  CHECK(aspect(doc, "nodes").size() == rep.nodes);
  std::set<int64_t> ids;
  for (const auto &n : aspect(doc, "nodes")) ids.insert(n["id"].get<int64_t>());
  for (const auto &e : aspect(doc, "edges")) CHECK((ids.count(e["s"].get<int64_t>()) && ids.count(e["t"].get<int64_t>())));
  const json decl = aspect(doc, "attributeDeclarations").at(0);
  for (const auto &n : aspect(doc, "nodes"))
    for (const auto &kv : n["v"].items()) CHECK_MESSAGE(decl["nodes"].contains(kv.key()), kv.key());
  for (const auto &e : aspect(doc, "edges"))
    for (const auto &kv : e["v"].items()) CHECK_MESSAGE(decl["edges"].contains(kv.key()), kv.key());
  // Re-imported: the same graph, as its lossless JSON-lines export shows.
  KnowledgeGraph copy(d.file("b.db"));
  const auto imp = copy.import({{d.file("g.cx2")}});
  CHECK(imp.files.at(0).kind == "cx2");
  CHECK(imp.files.at(0).rows_skipped == 0);
  // (Compared line by line, so that a difference shows one line, not two whole graphs.)
  std::istringstream was(jsonl_of(kg)), is(jsonl_of(copy));
  std::string a, b;
  std::size_t lines = 0;
  bool same = true;
  while (same && std::getline(was, a)) {
    ++lines;
    REQUIRE(std::getline(is, b));
    same = a == b;
    CHECK(b == a);
  }
  if (same) {
    CHECK_FALSE(std::getline(is, b));
    CHECK(lines == 1 + rep.nodes + rep.edges);
  }
  // A selection exports only its part.
  o.relations = {"bel.increases"};
  std::ostringstream part;
  const auto sel = kg.export_graph(part, o);
  CHECK(sel.edges == static_cast<uint64_t>(relation_count(stats, "bel.increases")));
}
