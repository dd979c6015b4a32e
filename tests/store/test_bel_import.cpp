// BEL into the knowledge graph: the Causal Biological Networks JSON graph and pybel's BEL
// scripts beside the human STRING proteins, counted against an independent reading of the
// files; gene and protein terms joined to the proteins; bad BEL named by file and line with the
// database unchanged; the JSON-lines round trip.
#include <doctest/doctest.h>

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

const std::string kCbn = "bel/cbn_cytotoxic_t-cell_signaling-2.0-hs.bel.jgf.json.gz";

std::string trim(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(0, 1);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

TEST_CASE("The CBN BEL JSON graph: every node and edge and evidence beside the human proteins") {
  TempDir d;
  const std::string db = d.file("kb.db");
  KnowledgeGraph kg(db);
  const auto rep = kg.import({{data("9606.protein.info.v12.0.txt.gz")}, {data(kCbn)}});
  REQUIRE(rep.files.size() == 2);
  const auto &f = rep.files[1];
  CHECK(f.kind == "jgf");
  CHECK(f.rows_skipped == 0);
  CHECK(detail_of(f, "jgf_nodes") == 55);
  CHECK(detail_of(f, "jgf_edges") == 56);
  CHECK(detail_of(f, "jgf_evidences") == 435);

  // The independent reading: the raw JSON.
  const std::vector<std::string> lines = read_lines_gz(data(kCbn));
  std::string text;
  for (const auto &l : lines) text += l + "\n";
  const json graph = json::parse(text)["graph"];
  REQUIRE(graph["nodes"].size() == 55);
  REQUIRE(graph["edges"].size() == 56);
  std::set<int64_t> pmids_in_file, pmids_in_graph;
  std::size_t evidences = 0;
  for (const auto &n : graph["nodes"]) CHECK(kg.resolve(n["id"].get<std::string>()) > 0);
  for (const auto &e : graph["edges"]) {
    const int64_t s = kg.resolve(e["source"].get<std::string>()), t = kg.resolve(e["target"].get<std::string>());
    const std::string relation = "bel." + trim(e["relation"].get<std::string>());
    const auto between = kg.edges_between(s, t);
    const grappi::Edge *edge = nullptr;
    for (const auto &x : between)
      if (x.relation == relation) edge = &x;
    INFO("edge " << e["label"].get<std::string>());
    REQUIRE(edge != nullptr);
    CHECK(edge->directed == !grappi::bel_relation_is_undirected(trim(e["relation"].get<std::string>())));
    std::size_t here = 0;
    for (const auto &ev : e["metadata"]["evidences"]) {
      ++here;
      // 17 evidences cite "Other" sources by number: those are not PubMed ids.
      if (ev["citation"]["type"] == "PubMed") pmids_in_file.insert(std::stoll(ev["citation"]["id"].get<std::string>()));
    }
    evidences += here;
    // One record per evidence (an edge without evidence keeps one record of its statement).
    CHECK(edge->records.size() == std::max<std::size_t>(here, 1));
    std::size_t with_text = 0;
    for (const auto &r : edge->records) {
      const json j = json::parse(r.record);
      if (j.contains("evidence")) ++with_text;
      for (const auto &p : j["pmids"]) pmids_in_graph.insert(p.get<int64_t>());
    }
    CHECK(with_text == here);
  }
  CHECK(evidences == 435);
  CHECK(pmids_in_file.size() == 317);
  CHECK(pmids_in_graph == pmids_in_file);

  // An evidence with its sentence and context.
  const auto fyn_lck = kg.edges_between(kg.resolve("kin(p(HGNC:FYN))"), kg.resolve("kin(p(HGNC:LCK))"));
  REQUIRE(fyn_lck.size() == 1);
  CHECK(fyn_lck[0].relation == "bel.increases");
  CHECK(fyn_lck[0].pmids == std::vector<int64_t>{15465914});
  const json r0 = json::parse(fyn_lck[0].records[0].record);
  CHECK(r0["statement"] == "act(p(HGNC:FYN), ma(kin)) increases act(p(HGNC:LCK), ma(kin))");
  CHECK(r0["evidence"] == "Fyn plays an essential role by positive regulation of Lck activity.");
  CHECK(r0["annotations"]["cell"] == "naive T-cell");
  CHECK(r0["citation"]["id"] == "15465914");

  // Protein terms meet the STRING proteins: p(HGNC:CD8A) represents CD8A.
  const int64_t cd8a = kg.resolve("p(HGNC:CD8A)");
  const auto rep_edges = kg.edges_between(cd8a, kg.resolve("9606.ENSP00000386559"));
  REQUIRE(rep_edges.size() == 1);
  CHECK(rep_edges[0].relation == "bel.represents");
  // The activity term wraps its protein, the complex has its members.
  CHECK(kg.edges_between(kg.resolve("kin(p(HGNC:FYN))"), kg.resolve("p(HGNC:FYN)")).at(0).relation == "bel.wraps");
  CHECK(kg.edges_between(kg.resolve("complex(p(HGNC:CD8A), p(HGNC:CD8B))"), cd8a).at(0).relation ==
        "bel.hasComponent");
  CHECK(detail_of(f, "terms_representing_proteins") >= 25);

  // The same bytes again: nothing added.
  const auto again = kg.import({{data(kCbn)}});
  CHECK(again.files[0].already_imported);
}

TEST_CASE("pybel's BEL scripts: statements with their citation evidence and annotations") {
  TempDir d;
  KnowledgeGraph kg(d.file("kb.db"));
  grappi::ImportOptions o;
  // (no skip_bad_lines: thorough.bel's line 62 chains two relations, read as two statements)
  const auto rep = kg.import({{data("bel/pybel_test_bel.bel")}, {data("bel/pybel_thorough.bel"), "bel"}});
  REQUIRE(rep.files.size() == 2);
  const auto &simple = rep.files[0], &thorough = rep.files[1];
  CHECK(simple.kind == "bel");
  CHECK(simple.rows_skipped == 0);
  CHECK(detail_of(simple, "statements") == 5);
  CHECK(detail_of(simple, "evidence_records") == 5);
  CHECK(thorough.rows_skipped == 0);
  CHECK(thorough.bad_line_examples.empty());
  CHECK(thorough.lines == 54);  // statement lines, not statements
  CHECK(detail_of(thorough, "statements") == 55);
  CHECK(detail_of(thorough, "chained_statements_split") == 1);
  // Both links of the chain are edges, with the line's citation.
  const auto cftr = kg.edges_between(kg.resolve("p(HGNC:CFTR, var(\"=\"))"), kg.resolve("surf(p(HGNC:EGFR))"));
  REQUIRE(cftr.size() == 1);
  CHECK(cftr[0].records.at(0).line == 62);
  const auto mia = kg.edges_between(kg.resolve("surf(p(HGNC:EGFR))"), kg.resolve("p(HGNC:MIA, frag(\"?_*\"))"));
  REQUIRE(mia.size() == 1);
  CHECK(mia[0].relation == "bel.increases");
  CHECK(mia[0].records.at(0).line == 62);
  CHECK(detail_of(thorough, "nested_statements") == 2);

  const auto e = kg.edges_between(kg.resolve("p(HGNC:EGFR)"), kg.resolve("p(HGNC:FADD)"));
  REQUIRE(e.size() == 1);
  CHECK(e[0].relation == "bel.decreases");
  CHECK(e[0].pmids == std::vector<int64_t>{123455});
  const json r = json::parse(e[0].records.at(0).record);
  CHECK(r["evidence"] == "Evidence 2");
  CHECK(r["annotations"]["Species"] == json::array({"9606"}));
  CHECK(r["annotations"]["CellLine"] == json::array({"10B9 cell"}));
  CHECK(r["statement_group"] == "Group 1");
  CHECK(e[0].records[0].line == 38);
  // association is undirected.
  const auto assoc = kg.edges_between(kg.resolve("p(HGNC:AKT1)"), kg.resolve("p(HGNC:CASP8)"));
  REQUIRE(assoc.size() == 1);
  CHECK_FALSE(assoc[0].directed);
  // A nested statement: A -| B and B -> C, both carrying the whole statement.
  const auto outer = kg.edges_between(kg.resolve("p(HGNC:CAT)"), kg.resolve("a(CHEBI:\"hydrogen peroxide\")"));
  REQUIRE(outer.size() == 1);
  CHECK(outer[0].relation == "bel.decreases");
  CHECK(outer[0].records.size() == 2);  // the statement is written twice
  CHECK(json::parse(outer[0].records[0].record)["nested"] == true);
  // hasMembers with a list: one hasMember edge per member.
  const auto member = kg.edges_between(kg.resolve("p(TESTNS2:PRKC)"), kg.resolve("p(HGNC:PRKCA)"));
  REQUIRE(member.size() == 1);
  CHECK(member[0].relation == "bel.hasMember");
  // Variants hang off their plain term; any spelling of a term resolves.
  CHECK(kg.edges_between(kg.resolve("p(HGNC:AKT1)"), kg.resolve("proteinAbundance(HGNC:AKT1, pmod(P, S, 473))"))
            .at(0)
            .relation == "bel.hasVariant");
}

TEST_CASE("Bad BEL input is named by file and line and leaves the database unchanged") {
  TempDir d;
  const std::string db = d.file("kb.db");
  {
    KnowledgeGraph kg(db);
    kg.import({{data("bel/pybel_test_bel.bel")}});
  }
  const std::string before = fingerprint(db);
  const std::string head = "SET Citation = {\"PubMed\", \"1\"}\nSET Evidence = \"e\"\n";
  struct Case {
    const char *name, *format, *expect;
    std::string text;
  };
  const std::vector<Case> cases = {
      {"unbalanced", "bel", "bad.txt:3: missing ')'", head + "p(HGNC:A) -> p(HGNC:B\n"},
      {"unknown function", "bel", "bad.txt:4: unknown function 'foo'", head + "p(HGNC:A) -> p(HGNC:B)\nfoo(HGNC:A) -> p(HGNC:B)\n"},
      {"unknown relation", "bel", "bad.txt:3: unknown relation 'hasActivity'", head + "p(HGNC:A) hasActivity p(HGNC:B)\n"},
      {"wrong namespace kind", "bel", "bad.txt:3: a() takes chemicals", head + "a(HGNC:A) -> p(HGNC:B)\n"},
      {"bad citation", "bel", "bad.txt:1: a PubMed citation needs a numeric PMID", "SET Citation = {\"PubMed\", \"x1\"}\np(HGNC:A) -> p(HGNC:B)\n"},
      {"no statements", "bel", "no BEL statements", head},
      {"binary garbage", "bel", "invalid UTF-8", std::string("p(HGNC:A) -> p(HGNC:B)\n\xff\xfe\x01\x02(\n", 28)},
      {"truncated JSON", "jgf", "not valid JSON", "{\"graph\": {\"nodes\": [{\"id\": \"p(HGNC:A)\"}"},
      {"not a graph", "jgf", "no \"graph\" object", "[1, 2]"},
      {"bad node", "jgf", "bad.txt:2: node 2 'p(HGNC:A': missing ')'",
       "{\"graph\": {\"nodes\": [{\"id\": \"p(HGNC:A)\"}, {\"id\": \"p(HGNC:A\"}], \"edges\": []}}"},
      {"bad edge", "jgf", "bad.txt:1: edge 1: needs string",
       "{\"graph\": {\"nodes\": [], \"edges\": [{\"source\": \"p(HGNC:A)\", \"target\": 3}]}}"},
      {"empty graph", "jgf", "without nodes or edges", "{\"graph\": {\"nodes\": [], \"edges\": []}}"},
  };
  for (const Case &c : cases) {
    INFO("case " << c.name);
    testutil::write_file(d.file("bad.txt"), c.text);
    KnowledgeGraph kg(db);
    try {
      kg.import({{d.file("bad.txt"), c.format}});
      FAIL("imported " << c.name);
    } catch (const grappi::Error &e) {
      const std::string what = e.what();
      CHECK(e.code() == grappi::ErrorCode::parse);
      CHECK_MESSAGE(what.find(c.expect) != std::string::npos, what);
    }
    CHECK(fingerprint(db) == before);
  }
  // Detection: a BEL script opening with comments, a JSON graph opening with '{'.
  testutil::write_file(d.file("s.txt"), "# a comment\n\n" + head + "p(HGNC:A) -> p(HGNC:B)\n");
  testutil::write_file(d.file("g.txt"), "{\n \"graph\": {\"nodes\": [{\"id\": \"p(HGNC:Q)\"}], \"edges\": []}\n}\n");
  KnowledgeGraph kg(db);
  const auto rep = kg.import({{d.file("s.txt")}, {d.file("g.txt")}});
  CHECK(rep.files[0].kind == "bel");
  CHECK(rep.files[1].kind == "jgf");
  CHECK(kg.resolve("p(HGNC:Q)") > 0);
}

TEST_CASE("A BEL graph exports to JSON lines and imports back to the same bytes") {
  TempDir d;
  KnowledgeGraph kg(d.file("a.db"));
  kg.import({{data("9606.protein.info.v12.0.txt.gz")}, {data(kCbn)}, {data("bel/pybel_test_bel.bel")}});
  grappi::ExportOptions o;  // the whole graph
  std::ostringstream first;
  kg.export_graph(first, o);
  testutil::write_file(d.file("a.jsonl"), first.str());
  KnowledgeGraph copy(d.file("b.db"));
  copy.import({{d.file("a.jsonl")}});
  std::ostringstream second;
  copy.export_graph(second, o);
  CHECK(second.str() == first.str());
  CHECK(first.str().find("Fyn plays an essential role") != std::string::npos);
}

// (heavy: the human proteins, STRING and three BEL sources exported and imported again; the
// Release stage only - the ASan stage exports BEL in the smaller round trips and the CLI tests)
TEST_CASE("A BEL export re-imports to the same BEL terms and statements" * doctest::test_suite("heavy")) {
  TempDir d;
  KnowledgeGraph kg(d.file("a.db"));
  grappi::ImportOptions skip;
  skip.skip_bad_lines = true;  // the LLM-made CX2 network has invalid statements
  kg.import({{data("9606.protein.info.v12.0.txt.gz")},
             {data("export_v12_alzheimer/string_interactions.tsv")},
             {data(kCbn)},
             {data("bel/pybel_test_bel.bel")},
             {data("cx2/llm_kg_pmid24360018_sirt1_parp1.cx2")}},
            skip);
  grappi::ExportOptions o;
  o.format = grappi::ExportFormat::bel;
  const auto rep = kg.export_graph(d.file("kb.bel"), o);
  // STRING's edges are not BEL: counted, not written.
  std::size_t string_edges = 0;
  for (const auto &[relation, n] : kg.stats().edges_by_relation)
    if (relation.rfind("bel.", 0) != 0) string_edges += static_cast<std::size_t>(n);
  CHECK(rep.not_written == string_edges);
  KnowledgeGraph copy(d.file("b.db"));
  copy.import({{data("9606.protein.info.v12.0.txt.gz")}, {d.file("kb.bel")}});  // detected as BEL
  // The same BEL terms, the same BEL edges (bel.represents included: the terms join the same
  // proteins), and on every statement edge the same statements with the same evidence,
  // citations and annotations.
  const auto bel_of = [](const KnowledgeGraph &g) {
    std::map<std::string, std::multiset<std::string>> out;
    std::ostringstream text;
    g.export_graph(text);
    std::istringstream in(text.str());
    std::string line;
    while (std::getline(in, line)) {
      const json j = json::parse(line);
      if (j.value("type", "") == "node" && j["label"] == "BelTerm") out["node " + j["id"].get<std::string>()];
      if (j.value("type", "") != "edge" || j["relation"].get<std::string>().rfind("bel.", 0) != 0) continue;
      auto &records = out[j["source"].get<std::string>() + " " + j["relation"].get<std::string>() + " " +
                          j["target"].get<std::string>() + (j["directed"].get<bool>() ? " >" : " -")];
      std::size_t legacy_records = 0;
      for (const auto &r : j.value("records", json::array())) {
        json rec = r["record"];
        // (BEL 1 statements are written the BEL 2 way: below; an edge only they made between
        // proteins does not come back)
        const std::string st = rec.value("statement", "");
        if (st.find(" actsIn ") != std::string::npos || st.find(" translocates ") != std::string::npos) {
          ++legacy_records;
          continue;
        }
        // What a BEL script carries: not CX2's passage and groundings, nor a JSON graph's
        // extra citation fields; annotations as lists.
        json c = rec.value("citation", json::object());
        json kept = {{"statement", rec["statement"]}, {"pmids", rec["pmids"]}, {"evidence", rec.value("evidence", "")},
                     {"citation", {c.value("type", ""), c.value("id", "")}}, {"group", rec.value("statement_group", "")}};
        const json annotations = rec.value("annotations", json::object());
        for (const auto &[k, v] : annotations.items())
          kept["annotations"][k] = v.is_array() ? v : json::array({v});
        records.insert(kept.dump());
      }
      if (legacy_records && records.empty() && j["relation"] != "bel.actsIn" && j["relation"] != "bel.translocates")
        out.erase(j["source"].get<std::string>() + " " + j["relation"].get<std::string>() + " " +
                  j["target"].get<std::string>() + (j["directed"].get<bool>() ? " >" : " -"));
    }
    return out;
  };
  const auto before = bel_of(kg), after = bel_of(copy);
  CHECK(before.size() > 200);
  // BEL 1's relations BEL 2 removed ("A actsIn act(A)": 378 records on 13 CBN edges) are written as
  // their object term, which says the same in BEL 2, with the statement in a comment: the term
  // comes back, the BEL 1 edge does not.
  std::size_t legacy = 0;
  for (const auto &key_records : before) {
    const auto &key = key_records.first;
    const auto &records = key_records.second;
    INFO(key);
    if (key.find(" bel.actsIn ") != std::string::npos || key.find(" bel.translocates ") != std::string::npos) {
      ++legacy;
      const std::string object = key.substr(key.find(' ', key.find(" bel.") + 1) + 1);
      CHECK(after.count("node " + object.substr(0, object.size() - 2)) == 1);
      CHECK(after.count(key) == 0);
      continue;
    }
    const auto it = after.find(key);
    REQUIRE(it != after.end());
    CHECK(it->second == records);
  }
  CHECK(legacy >= 10);
  CHECK(after.size() == before.size() - legacy);
  const std::string script = read_file(d.file("kb.bel"));
  std::istringstream lines(script);
  std::size_t commented = 0;
  for (std::string line; std::getline(lines, line);)
    if (line.find(" actsIn ") != std::string::npos) {
      CHECK(line.find(" // BEL 1: ") < line.find(" actsIn "));  // only in the comment
      ++commented;
    }
  CHECK(commented >= legacy);
  // A selection without BEL is refused rather than written as an empty script.
  o.nodes = {"MAPT", "GSK3B"};
  std::ostringstream none;
  CHECK_THROWS_WITH_AS(kg.export_graph(none, o), doctest::Contains("no BEL statements"), grappi::Error);
}

TEST_CASE("A statement of one term exports once under its citation and evidence and re-imports the same") {
  TempDir d;
  testutil::write_file(d.file("terms.bel"),
             "SET DOCUMENT Name = \"terms\"\n"
             "SET DOCUMENT Version = \"1\"\n"
             "SET Citation = {\"PubMed\", \"Terms\", \"111\"}\n"
             "SET Evidence = \"AKT1 was abundant.\"\n"
             "p(HGNC:AKT1)\n"
             "complex(p(HGNC:FOS), p(HGNC:JUN))\n"
             "SET Evidence = \"AKT1 raised MAPT.\"\n"
             "p(HGNC:AKT1) increases p(HGNC:MAPT)\n"
             "SET Citation = {\"PubMed\", \"Other\", \"222\"}\n"
             "SET Evidence = \"AKT1 again.\"\n"
             "p(HGNC:AKT1)\n");
  const auto records = [](const std::string &db) {
    return sql_count(db, "SELECT count(*) FROM node_evidence n JOIN nodes t ON t.id = n.node_id WHERE t.external_id = "
                         "'p(HGNC:AKT1)' AND json_extract(n.record, '$.statement') = 'p(HGNC:AKT1)'");
  };
  grappi::ExportOptions o;
  o.format = grappi::ExportFormat::bel;
  std::string first;
  {
    KnowledgeGraph kg(d.file("a.db"));
    const auto rep = kg.import({{d.file("terms.bel")}});
    CHECK(detail_of(rep.files.at(0), "term_statements") == 3);
    CHECK(detail_of(rep.files.at(0), "term_records") == 3);
    kg.export_graph(d.file("a.bel"), o);
    first = read_file(d.file("a.bel"));
  }
  CHECK(records(d.file("a.db")) == 2);  // (the two citations' records on the term)
  // Each statement once, under its own citation and evidence; none among the terms of no statement.
  const auto count = [&](const std::string &what) {
    std::size_t n = 0;
    for (std::size_t at = first.find(what); at != std::string::npos; at = first.find(what, at + 1)) ++n;
    return n;
  };
  CHECK(count("\np(HGNC:AKT1)\n") == 2);
  CHECK(count("\ncomplex(p(HGNC:FOS), p(HGNC:JUN))\n") == 1);
  CHECK(first.find("take part in no statement") == std::string::npos);
  const std::size_t again = first.find("SET Evidence = \"AKT1 again.\"");
  REQUIRE(again != std::string::npos);
  CHECK(first.find("\np(HGNC:AKT1)\n", again) != std::string::npos);
  CHECK(first.rfind("\"222\"", again) != std::string::npos);
  // Re-imported: the same records on the term, and the same script written again.
  KnowledgeGraph copy(d.file("b.db"));
  copy.import({{d.file("a.bel")}});
  CHECK(records(d.file("b.db")) == 2);
  copy.export_graph(d.file("b.bel"), o);
  const auto statements = [](const std::string &script) {
    std::multiset<std::string> out;
    std::istringstream in(script);
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] != '#' && line.rfind("SET DOCUMENT", 0) != 0 && line.rfind("DEFINE", 0) != 0) out.insert(line);
    return out;
  };
  CHECK(statements(read_file(d.file("b.bel"))) == statements(first));
}

TEST_CASE("BEL terms take the HGNC and ontology identifiers the database knows") {
  TempDir d;
  KnowledgeGraph kg(d.file("kb.db"));
  // STRING v12 aliases for AKT1 and MTOR (HGNC ids and approved symbols), a mapping table
  // giving TP53 its HGNC id, and a slice of GO.
  testutil::write_file(d.file("aliases.tsv"),
             "#string_protein_id\talias\tsource\n"
             "9606.ENSP00000451828\tHGNC:391\tEnsembl_HGNC_hgnc_id\n"
             "9606.ENSP00000451828\tAKT1\tEnsembl_HGNC_symbol\n"
             "9606.ENSP00000451828\tPKB\tUniProt_GN_Synonym\n"
             "9606.ENSP00000354558\tHGNC:3942\tEnsembl_HGNC_hgnc_id\n"
             "9606.ENSP00000354558\tMTOR\tEnsembl_HGNC_symbol\n");
  testutil::write_file(d.file("hgnc.tsv"), "symbol\thgnc_id\nTP53\tHGNC:11998\n");
  testutil::write_file(d.file("go.obo"),
             "format-version: 1.2\nontology: go\n\n"
             "[Term]\nid: GO:0006915\nname: apoptotic process\nnamespace: biological_process\n\n"
             "[Term]\nid: GO:0012501\nname: programmed cell death\nnamespace: biological_process\n\n"
             "[Term]\nid: GO:0000001\nname: programmed cell death\nnamespace: biological_process\nis_obsolete: true\n");
  testutil::write_file(d.file("kb.bel"),
             "SET Citation = {\"PubMed\", \"A\", \"111\"}\n"
             "SET Evidence = \"AKT1 activates mTOR.\"\n"
             "p(HGNC:AKT1) increases act(p(HGNC:MTOR), ma(kin))\n"
             "SET Citation = {\"PubMed\", \"B\", \"222\"}\n"
             "SET Evidence = \"The same, by identifier.\"\n"
             "p(HGNC:391) increases act(p(HGNC:\"3942\"), ma(kin))\n"
             "SET Evidence = \"p53 and apoptosis.\"\n"
             "p(HGNC:TP53) increases bp(GO:\"apoptotic process\")\n"
             "p(HGNC:11998 ! TP53) increases bp(GO:0006915)\n"
             "p(HGNC:TP53) increases bp(GO:\"programmed cell death\")\n"
             "p(HGNC:PKB) increases p(HGNC:MDM2)\n");

  // Before any identifiers are stored there is nothing to resolve by.
  CHECK_FALSE(kg.bel_resolver());
  kg.import({{data("9606.protein.info.v12.0.txt.gz")}, {d.file("aliases.tsv"), "aliases"}, {d.file("hgnc.tsv"), "mapping"},
             {d.file("go.obo")}});
  const grappi::BelEntityResolver resolve = kg.bel_resolver();
  REQUIRE(resolve);
  const auto id = [&](std::string_view ns, std::string_view v) {
    const auto r = resolve(ns, v);
    return r ? r->id + " ! " + r->label : std::string("-");
  };
  CHECK(id("HGNC", "AKT1") == "391 ! AKT1");
  CHECK(id("HGNC", "391") == "391 ! AKT1");
  CHECK(id("HGNC", "HGNC:391") == "391 ! AKT1");
  CHECK(id("HGNC", "11998") == "11998 ! TP53");
  CHECK(id("HGNC", "PKB") == "-");  // a synonym is not an approved symbol
  CHECK(id("GO", "apoptotic process") == "0006915 ! apoptotic process");
  CHECK(id("GO", "programmed cell death") == "0012501 ! programmed cell death");  // the live term
  CHECK(id("GO", "0000001") == "0000001 ! programmed cell death");
  CHECK(id("CHEBI", "water") == "-");

  const auto rep = kg.import({{d.file("kb.bel")}});
  REQUIRE(rep.files.size() == 1);
  CHECK(rep.files[0].rows_skipped == 0);
  // One term node per entity however it was named, each joined to its protein.
  const auto akt1 = kg.node_by_external_id("p(HGNC:391 ! AKT1)");
  REQUIRE(akt1);
  CHECK_FALSE(kg.node_by_external_id("p(HGNC:AKT1)"));
  CHECK_FALSE(kg.node_by_external_id("p(HGNC:391)"));
  const auto mtor = kg.node_by_external_id("act(p(HGNC:3942 ! MTOR), ma(kin))");
  REQUIRE(mtor);
  const auto e = kg.edges_between(akt1->id, mtor->id);
  REQUIRE(e.size() == 1);
  CHECK(e[0].relation == "bel.increases");
  CHECK(e[0].records.size() == 2);
  CHECK(e[0].pmids == std::vector<int64_t>{111, 222});
  const auto represented = kg.edges_between(akt1->id, kg.resolve("9606.ENSP00000451828"));
  REQUIRE(represented.size() == 1);
  CHECK(represented[0].relation == "bel.represents");
  const auto p53 = kg.node_by_external_id("p(HGNC:11998 ! TP53)");
  REQUIRE(p53);
  const auto apoptosis = kg.node_by_external_id("bp(GO:0006915 ! \"apoptotic process\")");
  REQUIRE(apoptosis);
  CHECK(kg.edges_between(p53->id, apoptosis->id).at(0).records.size() == 2);
  CHECK(kg.node_by_external_id("bp(GO:0012501 ! \"programmed cell death\")"));
  CHECK(kg.edges_between(p53->id, kg.resolve("9606.ENSP00000269305")).at(0).relation == "bel.represents");
  // Unknown to the database: kept as written, joined by name as before.
  REQUIRE(kg.node_by_external_id("p(HGNC:MDM2)"));
  CHECK(kg.node_by_external_id("p(HGNC:PKB)"));
  // Any spelling finds the node.
  CHECK(kg.resolve("p(HGNC:AKT1)") == akt1->id);
  CHECK(kg.resolve("proteinAbundance(HGNC:391)") == akt1->id);
  CHECK(kg.lookup("p(HGNC:AKT1)").candidates.at(0).matched_by.find("canonical BEL p(HGNC:391 ! AKT1)") != std::string::npos);
}
