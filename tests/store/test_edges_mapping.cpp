// Identifier mapping tables and edge lists: a mapping written from the IntAct sample's human
// interactors (gene name -> UniProt accession) joins them to the human STRING proteins, so a
// MITAB import afterwards lands on those proteins (checked against an independent count); the
// STRING website export read as an edge list by ids, by names, as CSV and blank separated;
// bad input by file and line with the database unchanged; HuRI with the org.Hs.eg.db mapping
// when ../shared holds them.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;

namespace {

const std::string kAlz = "export_v12_alzheimer/string_interactions.tsv";

std::vector<std::string> split(const std::string &line, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t p = line.find(sep, start);
    out.push_back(line.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) return out;
    start = p + 1;
  }
}

// A database of the human STRING proteins (the bundled info file), in `d`.
std::string human_proteins_db(const TempDir &d) {
  const std::string db = d.file("kg.db");
  KnowledgeGraph kg(db);
  kg.import({{data("9606.protein.info.v12.0.txt.gz")}});
  return db;
}

}  // namespace

TEST_CASE("A mapping table joins IntAct's human interactors to the human STRING proteins") {
  TempDir d;
  const std::string db = d.file("kg.db");
  // The mapping: each human interactor's gene name and primary UniProt accession, from the file.
  std::map<std::string, std::string> gene_of;  // accession -> gene name
  for (const auto &line : read_lines_gz(data(kMitab))) {
    if (line.empty() || line[0] == '#') continue;
    const auto c = split(line, '\t');
    for (int side = 0; side < 2; ++side) {
      if (c[static_cast<std::size_t>(9 + side)].rfind("taxid:9606", 0) != 0) continue;
      for (const auto &alias : split(c[static_cast<std::size_t>(4 + side)], '|'))
        if (alias.size() > 11 && alias.compare(alias.size() - 11, 11, "(gene name)") == 0)
          gene_of[c[static_cast<std::size_t>(side)].substr(c[static_cast<std::size_t>(side)].find(':') + 1)] =
              alias.substr(alias.find(':') + 1, alias.size() - 11 - alias.find(':') - 1);
    }
  }
  REQUIRE(gene_of.size() > 150);
  std::string table = "symbol\tgene_name\tuniprot_accessions\n";
  for (const auto &[acc, gene] : gene_of) table += gene + "\tsome description\t" + acc + "\n";
  testutil::write_file(d.file("map.tsv"), table);
  KnowledgeGraph kg(db);
  kg.import({{data("9606.protein.info.v12.0.txt.gz")}});
  // Independently: genes that are the preferred name of exactly one STRING protein.
  std::set<std::string> joinable;
  std::map<std::string, int> genes;
  for (const auto &[acc, gene] : gene_of) ++genes[gene];
  for (const auto &[acc, gene] : gene_of)
    if (sql_count(db, "SELECT count(*) FROM nodes WHERE name = '" + gene + "'") == 1) joinable.insert(acc);
  grappi::ImportOptions opt;
  opt.taxon = 9606;
  const auto rep = kg.import({{d.file("map.tsv"), "mapping"}}, opt);
  REQUIRE(rep.files.size() == 1);
  const auto &f = rep.files[0];
  CHECK(f.kind == "mapping");
  CHECK(f.lines == gene_of.size());
  CHECK(detail_of(f, "rows_joined") == joinable.size());
  CHECK(detail_of(f, "joined_by_symbol") == joinable.size());
  CHECK(detail_of(f, "rows_unmatched") + detail_of(f, "rows_ambiguous") == gene_of.size() - joinable.size());
  CHECK(f.nodes_created == 0);
  // Each joined protein is found by its accession, bare and namespaced.
  for (const auto &acc : joinable) {
    const int64_t n = kg.resolve("uniprotkb:" + acc);
    CHECK(kg.node(n)->name == gene_of[acc]);
    CHECK(kg.resolve(acc) == n);
  }
  // MITAB afterwards joins those interactors to the STRING proteins.
  const auto m = kg.import({{data(kMitab)}});
  // Exactly the interactors whose accession the mapping gave a protein join (the human STRING
  // file has no other identifiers to join by).
  CHECK(detail_of(m.files[0], "interactors_joined") == joinable.size());
  // The mapping goes back out with its dataset.
  kg.remove_dataset(f.dataset_id);
  CHECK(sql_count(db, "SELECT count(*) FROM aliases WHERE source LIKE 'mapping:%'") == 0);
}

TEST_CASE("Mapping tables: bad input and a header without identifier columns") {
  TempDir d;
  const std::string db = human_proteins_db(d);
  const std::string before = fingerprint(db);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"name\tdescription\nMAPT\ttau\n", ":1: no identifier column in the header"},
      {"symbol\tuniprot_accessions\nMAPT\tP10636\nGSK3B\n", ":3: expected 2 tab-separated columns as in the header, found 1"},
      {"symbol\tuniprot_accessions\nMAPT\tP1\xff\n", ":2: invalid UTF-8"},
      {"symbol\tuniprot_accessions\n", "no rows after the header"},
      // synonyms describe a gene, they do not name one
      {"alias_symbols\ngo_bp\nTAU\n", ":1: no identifier column in the header"},
      {"symbol\tgo_bp\nMAPT\tGO:0000226:IDA|apoptosis\n", ":2: column go_bp: 'apoptosis' is not a GO annotation"},
      {"symbol\tgo_cc\nMAPT\tGO:123:IDA\n", ":2: column go_cc: 'GO:123:IDA' is not a GO annotation"},
      {"", "empty file"},
  };
  for (const auto &text_expect : cases) {
    const auto &text = text_expect.first;
    const auto &expect = text_expect.second;
    CAPTURE(expect);
    testutil::write_file(d.file("m.tsv"), text);
    KnowledgeGraph kg(db);
    try {
      kg.import({{d.file("m.tsv"), "mapping"}});
      FAIL("imported");
    } catch (const grappi::Error &e) {
      const std::string what = e.what();
      CHECK_MESSAGE(what.find(expect) != std::string::npos, what);
      CHECK(what.find(d.file("m.tsv")) == 0);
    }
    CHECK(fingerprint(db) == before);
  }
}

TEST_CASE("An ontology term's synonym that is also a gene symbol does not take the gene table's row or an edge") {
  // (GO's "epidermal growth factor receptor signaling pathway" has the synonym "EGFR": imported
  // before the gene table, it made EGFR's row ambiguous and dropped its annotations)
  TempDir d;
  const std::string db = human_proteins_db(d);
  testutil::write_file(d.file("go.obo"), "format-version: 1.2\nontology: go\n\n[Term]\nid: GO:0007173\n"
                                         "name: epidermal growth factor receptor signaling pathway\n"
                                         "namespace: biological_process\nsynonym: \"EGFR signaling pathway\" EXACT []\n"
                                         "synonym: \"EGFR\" RELATED []\nsynonym: \"MAPT\" RELATED []\n");
  testutil::write_file(d.file("m.tsv"), "symbol\tgo_bp\nEGFR\tGO:0007173:IDA\nMAPT\tGO:0007173:IEA\n");
  testutil::write_file(d.file("e.tsv"), "a\tb\nEGFR\tMAPT\n");
  KnowledgeGraph kg(db);
  kg.import({{d.file("go.obo")}});
  const auto report = kg.import({{d.file("m.tsv"), "mapping"}});
  const auto details = grappi::to_json(report)["files"][0]["details"];
  CHECK(details["rows_joined"] == 2);
  CHECK(details["rows_ambiguous"] == 0);
  CHECK(details["go_annotations"] == 2);
  kg.import({{d.file("e.tsv"), "edges"}});
  const auto egfr = kg.resolve("9606.ENSP00000275493"), mapt = kg.resolve("9606.ENSP00000340820");
  bool protein_edge = false;
  for (const auto &e : kg.edges_between(egfr, mapt)) protein_edge = protein_edge || e.relation.rfind("go.", 0) != 0;
  CHECK(protein_edge);
}

// NCBI's human gene table (the bundled protein-coding rows of org.Hs.eg.db): its synonyms make
// HER2, PPARgamma and TAU names of their genes, and its GO annotations edges to the GO slim's
// terms, each checked against the file read here independently.
TEST_CASE("The human gene table: synonyms resolve and GO annotations join the ontology's terms" * doctest::test_suite("heavy")) {
  TempDir d;
  const std::string db = d.file("kg.db");
  KnowledgeGraph kg(db);
  kg.import({{data("9606.protein.info.v12.0.txt.gz")}, {data("ontology/goslim_generic.obo")}});
  grappi::ImportOptions opt;
  opt.taxon = 9606;
  const std::string table = data("mapping/hs_genes.protein-coding.org.Hs.eg.db_3.16.0.tsv.gz");
  const auto rep = kg.import({{table, "mapping"}}, opt);
  REQUIRE(rep.files.size() == 1);
  std::map<std::string, uint64_t> details(rep.files[0].details.begin(), rep.files[0].details.end());
  CHECK(details["rows_joined"] > 18000);
  CHECK(details.count("joined_by_synonym") == 0);
  for (const auto &alias_gene : std::vector<std::pair<std::string, std::string>>{
           {"HER2", "ERBB2"}, {"PPARgamma", "PPARG"}, {"TAU", "MAPT"}, {"HER-2/neu", "ERBB2"}, {"p53", "TP53"}}) {
    const std::string &alias = alias_gene.first;
    CAPTURE(alias);
    const auto r = kg.lookup(alias);
    REQUIRE(r.status == grappi::ResolveResult::Status::found);
    CHECK(r.candidates[0].name == alias_gene.second);
    // (the linker's: "PPARgamma" is PPARG's own symbol, Greek letters as symbols write them)
    CHECK(r.candidates[0].matched_by.rfind(alias_gene.first == "PPARgamma" ? "name" : "alias:mapping:alias_symbols", 0) == 0);
  }
  // A synonym of several genes stays ambiguous ("CAP": BRD4, CAP1, SORBS1, ...).
  CHECK(kg.lookup("CAP").status == grappi::ResolveResult::Status::ambiguous);
  // GO: MAPT's annotations to slim terms, counted from the file: one edge per term, "ND" none.
  std::set<std::string> slim;
  {
    for (const auto &line : read_lines_gz(data("ontology/goslim_generic.obo")))
      if (line.rfind("id: GO:", 0) == 0) slim.insert(line.substr(4));
  }
  std::map<std::string, std::set<std::string>> expected;  // relation -> terms
  uint64_t nd = 0;
  for (const auto &line : read_lines_gz(table)) {
    const auto c = split(line, '\t');
    if (c.size() < 11) continue;
    for (int a = 0; a < 3; ++a)
      for (const auto &v : split(c[static_cast<std::size_t>(8 + a)], '|')) {
        if (v.size() < 10) continue;
        if (v.substr(11) == "ND") {
          nd += 1;
          continue;
        }
        if (c[1] == "MAPT" && slim.count(v.substr(0, 10)))
          expected[a == 0 ? "go.involved_in" : a == 1 ? "go.enables" : "go.located_in"].insert(v.substr(0, 10));
      }
  }
  // (counted in the rows that joined a node: most of them)
  CHECK(details["go_no_data"] <= nd);
  CHECK(details["go_no_data"] * 100 > nd * 95);
  REQUIRE(!expected.empty());
  const auto mapt = kg.resolve("MAPT");
  for (const auto &relation_terms : expected) {
    const std::string &relation = relation_terms.first;
    const auto &terms = relation_terms.second;
    CAPTURE(relation);
    CHECK(sql_count(db, "SELECT count(*) FROM edges e JOIN relations r ON r.id = e.relation WHERE e.source = " +
                            std::to_string(mapt) + " AND r.name = '" + relation + "' AND e.directed = 1") ==
          static_cast<int64_t>(terms.size()));
  }
  CHECK(details["go_annotations"] > 10000);
  CHECK(details["go_annotations_without_term"] > 0);
  // Removing the table removes its synonyms and annotations.
  int64_t dataset = 0;
  for (const auto &ds : kg.datasets())
    if (ds.format == "mapping") dataset = ds.id;
  kg.remove_dataset(dataset);
  CHECK(kg.lookup("HER2").status == grappi::ResolveResult::Status::not_found);
  CHECK(sql_count(db, "SELECT count(*) FROM edges e JOIN relations r ON r.id = e.relation WHERE r.name LIKE 'go.%'") == 0);
}

TEST_CASE("The STRING web export read as an edge list: by STRING ids and by names") {
  TempDir d;
  KnowledgeGraph kg(d.file("kg.db"));
  kg.import({{data("9606.protein.info.v12.0.txt.gz")}});
  const auto lines = read_lines_gz(data(kAlz));
  REQUIRE(lines.size() == 241);
  std::set<std::pair<std::string, std::string>> pairs;
  std::map<std::pair<std::string, std::string>, double> best;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto c = split(lines[i], '\t');
    auto key = std::minmax(c[2], c[3]);
    pairs.insert(key);
    best[key] = std::max(best[key], std::stod(c[12]));
  }
  grappi::ImportOptions opt;
  opt.edges.source_column = "node1_string_id";
  opt.edges.target_column = "node2_string_id";
  opt.edges.score_column = "combined_score";
  opt.edges.relation = "alz.combined";
  const auto rep = kg.import({{data(kAlz), "edges"}}, opt);
  const auto &f = rep.files[0];
  CHECK(f.kind == "edges");
  CHECK(f.lines == 240);
  CHECK(detail_of(f, "header") == 1);
  CHECK(detail_of(f, "ids_joined") == 28);
  CHECK(f.nodes_created == 0);
  CHECK(f.edges_created == pairs.size());
  CHECK(f.edges_existing == 240 - pairs.size());
  for (const auto &[key, score] : best) {
    const auto es = kg.edges_between(kg.resolve(key.first), kg.resolve(key.second));
    REQUIRE(es.size() == 1);
    CHECK(es[0].relation == "alz.combined");
    CHECK(es[0].score == doctest::Approx(score));
    CHECK_FALSE(es[0].directed);
  }
  // The same file by preferred names ("#node1" is "node1"), as CSV and blank separated, directed,
  // with a relation column: the same pairs.
  std::string csv, blank;
  for (const auto &l : lines) {
    const auto c = split(l, '\t');
    csv += c[0] + "," + c[1] + "," + c[12] + ",textmining\n";
    blank += c[0] + "   " + c[1] + " " + c[12] + "\n";
  }
  testutil::write_file(d.file("alz.csv"), csv);
  testutil::write_file(d.file("alz.txt"), blank);
  TempDir d2;
  KnowledgeGraph kg2(d2.file("kg.db"));
  kg2.import({{data("9606.protein.info.v12.0.txt.gz")}});
  grappi::ImportOptions o2;
  o2.edges.source_column = "node1";
  o2.edges.target_column = "node2";
  o2.edges.score_column = "3";
  o2.edges.relation_column = "4";
  o2.edges.directed = true;
  const auto r2 = kg2.import({{d.file("alz.csv"), "edges"}}, o2);
  CHECK(detail_of(r2.files[0], "header") == 1);
  CHECK(r2.files[0].nodes_created == 0);
  CHECK(r2.files[0].edges_created == 240);  // directed: both directions are edges
  CHECK(kg2.stats().edges_by_relation.at(0).first == "textmining");
  grappi::ImportOptions o3;
  o3.edges.score_column = "3";
  o3.edges.relation = "alz.blank";
  const auto r3 = kg2.import({{d.file("alz.txt"), "edges"}}, o3);
  CHECK(detail_of(r3.files[0], "header") == 1);  // "#node1 node2" read like column names
  CHECK(r3.files[0].edges_created == pairs.size());
  // A forced header is read for column names; a forced "no header" makes the first line an edge.
  testutil::write_file(d.file("named.tsv"), "x y\nMAPT GSK3B\n");
  grappi::ImportOptions o4;
  o4.edges.header = true;
  o4.edges.source_column = "x";
  o4.edges.target_column = "y";
  o4.edges.relation = "named";
  const auto r4 = kg2.import({{d.file("named.tsv"), "edges"}}, o4);
  CHECK(r4.files[0].lines == 1);
  CHECK(detail_of(r4.files[0], "ids_joined") == 2);
  testutil::write_file(d.file("first.tsv"), "protein1\tprotein2\nMAPT\tAPP\n");
  grappi::ImportOptions o5;
  o5.edges.header = false;
  o5.edges.relation = "unnamed";
  const auto r5 = kg2.import({{d.file("first.tsv"), "edges"}}, o5);
  CHECK(r5.files[0].lines == 2);
  CHECK(r5.files[0].referenced_nodes_created == 2);  // "protein1" and "protein2" became nodes
}

TEST_CASE("Edge lists: bad input is named by file and line and changes nothing") {
  TempDir d;
  const std::string db = human_proteins_db(d);
  const std::string before = fingerprint(db);
  struct Case {
    std::string text, expect;
    std::string score_column;
    double scale = 1;
  };
  const std::vector<Case> cases = {
      {"a\tb\tscore\nMAPT\tGSK3B\t0.9\nMAPT\n", ":3: expected at least 3 columns, found 1", "score"},
      {"a\tb\tscore\nMAPT\tGSK3B\tstrong\n", ":2: score 'strong' is not a number", "score"},
      {"MAPT\tGSK3B\t900\n", ":1: score 900 is outside [0, 1] after dividing by the scale 1", "3"},
      {"MAPT\tGSK3B\t-1\n", ":1: score -1 is outside", "3", 1000},
      {"MAPT\t\t0.5\n", ":1: an empty id", "3"},
      {"MAPT\tGSK3B\t0.5\nMAPT\tAPP\x80\t0.5\n", ":2: invalid UTF-8", "3"},
      {"protein1\tprotein2\n", "no edges after the header", ""},
      {"x\ty\tz\nMAPT\tGSK3B\t1\n", "the score column 'w' is neither a column of the header", "w"},
  };
  for (const auto &c : cases) {
    CAPTURE(c.expect);
    testutil::write_file(d.file("e.tsv"), c.text);
    KnowledgeGraph kg(db);
    grappi::ImportOptions opt;
    opt.edges.score_column = c.score_column;
    opt.edges.score_scale = c.scale;
    try {
      kg.import({{d.file("e.tsv"), "edges"}}, opt);
      FAIL("imported");
    } catch (const grappi::Error &e) {
      const std::string what = e.what();
      CHECK_MESSAGE(what.find(c.expect) != std::string::npos, what);
      CHECK(what.find(d.file("e.tsv")) != std::string::npos);
    }
    CHECK(fingerprint(db) == before);
  }
  // Ids that join nothing become nodes of the chosen label, counted.
  testutil::write_file(d.file("e.tsv"), "MAPT\tNOT_A_PROTEIN_X\nNOT_A_PROTEIN_X\tNOT_A_PROTEIN_Y\n");
  KnowledgeGraph kg(db);
  grappi::ImportOptions opt;
  opt.edges.label = "Gene";
  const auto rep = kg.import({{d.file("e.tsv"), "edges"}}, opt);
  CHECK(rep.files[0].referenced_nodes_created == 2);
  CHECK(detail_of(rep.files[0], "ids_joined") == 1);
  CHECK(kg.node(kg.resolve("NOT_A_PROTEIN_X"))->label == "Gene");
  opt.edges.score_scale = 0;
  CHECK_THROWS_AS(kg.import({{d.file("e.tsv"), "edges"}}, opt), grappi::Error);
}

TEST_CASE("Import options are checked before any file is read whatever the formats") {
  TempDir d;
  const std::string db = human_proteins_db(d);
  const std::string before = fingerprint(db);
  struct Case {
    const char *expect;
    void (*set)(grappi::ImportOptions &);
  };
  const Case cases[] = {
      {"separator", [](grappi::ImportOptions &o) { o.edges.separator = ';'; }},
      {"score scale", [](grappi::ImportOptions &o) { o.edges.score_scale = std::nan(""); }},
      {"score scale", [](grappi::ImportOptions &o) { o.edges.score_scale = -1; }},
      {"label", [](grappi::ImportOptions &o) { o.edges.label.clear(); }},
      {"min_score 1001", [](grappi::ImportOptions &o) { o.min_score = 1001; }},
      {"taxon -9606", [](grappi::ImportOptions &o) { o.taxon = -9606; }},
  };
  for (const auto &c : cases) {
    CAPTURE(c.expect);
    grappi::ImportOptions opt;
    c.set(opt);
    KnowledgeGraph kg(db);
    // An ontology and a STRING file (no edge list among them), and a file that is not there:
    // the options are refused first, by name.
    for (const std::vector<grappi::SourceFile> &files :
         {std::vector<grappi::SourceFile>{{data("ontology/psi-mi.obo"), "obo"}},
          std::vector<grappi::SourceFile>{{data("4932.protein.physical.links.v12.0.txt.gz")}},
          std::vector<grappi::SourceFile>{{d.file("missing.tsv"), "edges"}}}) {
      try {
        kg.import(files, opt);
        FAIL("imported");
      } catch (const grappi::Error &e) {
        CHECK(e.code() == grappi::ErrorCode::invalid_argument);
        CHECK_MESSAGE(std::string(e.what()).find(c.expect) != std::string::npos, e.what());
      }
    }
    CHECK_THROWS_AS(kg.import_string({{data("4932.protein.physical.links.v12.0.txt.gz")}}, opt), grappi::Error);
  }
  CHECK(fingerprint(db) == before);
}

TEST_CASE("HuRI joins the human STRING proteins through the org.Hs.eg.db mapping (when ../shared has them)") {
  const std::string shared = std::string(GRAPPI_DATA_DIR) + "/../../shared/data/";
  const std::string huri = shared + "huri/HuRI_binaryPPI.tsv",
                    mapping = shared + "mapping/hs_gene_id_map.org.Hs.eg.db_3.16.0.tsv.gz";
  if (!std::ifstream(huri) || !std::ifstream(mapping)) {
    MESSAGE("skipped: " << huri << " or " << mapping << " is not there");
    return;
  }
  TempDir d;
  KnowledgeGraph kg(d.file("kg.db"));
  grappi::ImportOptions opt;
  opt.taxon = 9606;
  const auto rep = kg.import({{data("9606.protein.info.v12.0.txt.gz")}, {mapping, "mapping"}, {huri, "edges"}}, opt);
  REQUIRE(rep.files.size() == 3);
  const auto &m = rep.files[1], &e = rep.files[2];
  CHECK(m.lines == 36618);
  CHECK(detail_of(m, "rows_joined") > 19000);
  CHECK(e.lines == 52548);
  CHECK(detail_of(e, "header") == 1);
  // 8,272 genes: nearly all join a STRING protein; those that do not are counted as new nodes.
  CHECK(detail_of(e, "ids_joined") > 8000);
  CHECK(detail_of(e, "ids_joined") + e.referenced_nodes_created == 8272);
  CHECK(e.edges_created + e.edges_existing == 52548);
  CHECK(kg.node(kg.resolve("ensembl:ENSG00000186868"))->name == "MAPT");
}
