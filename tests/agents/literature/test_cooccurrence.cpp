// Literature co-occurrence graphs: counts and PubMed ids against an independent count of the
// PubTator file itself (BioRED's test slice; the whole test split when ../shared is present),
// NPMI and Jaccard from the counts, sentence scope, titles, types, the minimum count, as-of
// snapshots, and the dataset in the knowledge base (gene concepts joined to the STRING
// proteins whose aliases hold their Entrez ids, removable, imported once).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::CoocGraph;
using grappi::CoocOptions;
using grappi::Document;

namespace {

// An independent reading of a PubTator file: per PMID the set of (type, id) of its annotation
// lines, with each id of a ';'-list and without "-".
std::map<std::string, std::set<std::pair<std::string, std::string>>> pubtator_concepts(const std::string &path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::map<std::string, std::set<std::pair<std::string, std::string>>> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, '\t');) f.push_back(cell);
    if (f.size() < 6) continue;
    // PubTator's conventions: "-1", "-" or empty is no concept; a composite id lists its
    // concepts parted by '|' (',' and ';' in BioRED), but a variant's tmVar id holds '|' itself;
    // GNormPlus appends the species, "(Tax:10090)".
    const bool variant = f[4].find("Variant") != std::string::npos || f[4].find("Mutation") != std::string::npos;
    std::string all = f[5];
    for (char &c : all)
      if (c == ';' || c == ',' || (c == '|' && !variant)) c = '\n';
    std::stringstream ids(all);
    for (std::string id; std::getline(ids, id);) {
      if (const auto tax = id.find("(Tax:"); tax != std::string::npos) id.erase(tax);
      if (!id.empty() && id != "-" && id != "-1") out[f[0]].insert({f[4], id});
    }
  }
  return out;
}

// Pair -> PMIDs, counted document by document.
using Pairs = std::map<std::pair<std::string, std::string>, std::set<std::string>>;

Pairs count_pairs(const std::map<std::string, std::set<std::pair<std::string, std::string>>> &docs,
                  const std::function<std::string(const std::string &, const std::string &)> &key) {
  Pairs out;
  for (const auto &[pmid, concepts] : docs) {
    std::set<std::string> keys;
    for (const auto &[type, id] : concepts) keys.insert(key(type, id));
    for (auto a = keys.begin(); a != keys.end(); ++a)
      for (auto b = std::next(a); b != keys.end(); ++b) out[{*a, *b}].insert(pmid);
  }
  return out;
}

Pairs graph_pairs(const CoocGraph &g) {
  Pairs out;
  for (const auto &e : g.edges) {
    std::string a = g.concepts[e.a].id, b = g.concepts[e.b].id;
    if (b < a) std::swap(a, b);
    const auto pmids = g.pmids_of(e);
    out[{a, b}] = std::set<std::string>(pmids.begin(), pmids.end());
    CHECK(e.count == pmids.size());  // (documents: one unit each)
    CHECK(std::is_sorted(pmids.begin(), pmids.end()));
  }
  return out;
}

// Concept ids as the graph names them without a knowledge base.
std::string key_of(const std::string &type, const std::string &id) {
  if (type == "GeneOrGeneProduct") return "NCBIGene:" + id;
  if (type == "OrganismTaxon") return "NCBITaxon:" + id;
  if ((id[0] == 'D' || id[0] == 'C') && id.size() >= 7 && id.find_first_not_of("0123456789", 1) == std::string::npos)
    return "MESH:" + id;
  if (id.rfind("rs", 0) == 0) return "dbSNP:" + id;
  return type + ":" + id;
}

void check_against_independent_count(const std::string &path) {
  const auto docs = grappi::read_documents(path);
  const CoocGraph g = grappi::build_cooccurrence(docs);
  const auto concepts = pubtator_concepts(path);
  CHECK(g.documents == docs.size());
  std::set<std::string> ids;
  for (const auto &[pmid, cs] : concepts)
    for (const auto &[type, id] : cs) ids.insert(key_of(type, id));
  CHECK(g.concepts.size() == ids.size());
  CHECK(graph_pairs(g) == count_pairs(concepts, key_of));
}

}  // namespace

TEST_CASE("Co-occurrence counts and PubMed ids match an independent count of the PubTator file") {
  check_against_independent_count(lit("BioRED.Test.first3.PubTator"));
  const std::string full = std::string(GRAPPI_DATA_DIR) + "/../../shared/data/literature/pubtator/BioRED/Test.PubTator";
  if (std::ifstream(full)) check_against_independent_count(full);
  else MESSAGE("../shared/data/literature/pubtator/BioRED not present: the whole test split skipped");
}

TEST_CASE("A JSON lines concept without a place in the text counts for its document and not for a sentence") {
  const auto docs = grappi::parse_documents(
      R"({"pmid": 1, "year": 2001, "title": "MDM2 binds TP53.", "text": "It is a ligase. Cancer follows.", )"
      R"("concepts": [{"id": "4193", "type": "Gene", "text": "MDM2"}, {"id": "7157", "type": "Gene", "text": "TP53"}, )"
      R"({"id": "D009369", "type": "Disease", "text": "cancer"}, "MESH:D000001"]})",
      grappi::DocumentFormat::jsonl, "t");
  const auto ids = [](const CoocGraph &g) {
    std::set<std::string> out;
    for (const auto &e : g.edges) out.insert(g.concepts[e.a].id + "|" + g.concepts[e.b].id);
    return out;
  };
  const CoocGraph by_doc = grappi::build_cooccurrence(docs);
  CHECK(by_doc.edges.size() == 6);  // 4 concepts, every pair
  CoocOptions sentences;
  sentences.scope = CoocOptions::Scope::sentence;
  CHECK(ids(grappi::build_cooccurrence(docs, sentences)) == std::set<std::string>{"NCBIGene:4193|NCBIGene:7157"});
}

TEST_CASE("Co-occurrence weights follow from the counts and the options filter what is counted") {
  const auto docs = grappi::read_documents(lit("BioRED.Test.first3.PubTator"));
  const CoocGraph g = grappi::build_cooccurrence(docs);
  REQUIRE(g.units == 3);
  for (const auto &e : g.edges) {
    const double na = double(g.concepts[e.a].units), nb = double(g.concepts[e.b].units), n = 3, ab = double(e.count);
    const double expected = ab >= n ? 1.0 : std::log((ab / n) / ((na / n) * (nb / n))) / -std::log(ab / n);
    CHECK(e.npmi == doctest::Approx(expected));
    CHECK(e.jaccard == doctest::Approx(ab / (na + nb - ab)));
    CHECK(e.a < e.b);
  }
  // SCN5A (6331) and long QT syndrome (D008133) share PMID 15485686 only.
  bool found = false;
  for (const auto &e : g.edges)
    if (g.concepts[e.a].id == "NCBIGene:6331" && g.concepts[e.b].id == "MESH:D008133") {
      found = true;
      CHECK(g.pmids_of(e) == std::vector<std::string>{"15485686"});
      CHECK(g.concepts[e.a].name == "Na(v)1.5");  // (written twice, SCN5A once)
    }
  CHECK(found);

  CoocOptions types;
  types.types = {"GeneOrGeneProduct", "diseaseorphenotypicfeature"};
  const CoocGraph gd = grappi::build_cooccurrence(docs, types);
  for (const auto &c : gd.concepts) CHECK((c.type == "GeneOrGeneProduct" || c.type == "DiseaseOrPhenotypicFeature"));
  CHECK(gd.edges.size() < g.edges.size());

  CoocOptions sentences;
  sentences.scope = CoocOptions::Scope::sentence;
  const CoocGraph gs = grappi::build_cooccurrence(docs, sentences);
  CHECK(grappi::cooccurrence_relation(sentences) == "cooc.sentence");
  CHECK(gs.units > g.units);
  const Pairs by_doc = graph_pairs(g);
  for (const auto &e : gs.edges) {
    std::string a = gs.concepts[e.a].id, b = gs.concepts[e.b].id;
    if (b < a) std::swap(a, b);
    CHECK(by_doc.count({a, b}));  // a sentence pair is a document pair
  }
  CHECK(gs.edges.size() < g.edges.size());

  CoocOptions titles;
  titles.titles = "only";
  const CoocGraph gt = grappi::build_cooccurrence(docs, titles);
  CHECK(gt.concepts.size() < g.concepts.size());
  // Only the titles' concepts.
  std::set<std::string> in_titles;
  for (const Document &doc : docs)
    for (const auto &a : doc.passages[0].annotations) in_titles.insert(key_of(a.type, a.id));
  REQUIRE(docs[0].passages[0].type == "title");
  for (const auto &c : gt.concepts) CHECK(in_titles.count(c.id));
  CHECK(gt.concepts.size() == in_titles.size());

  CoocOptions two;
  two.min_count = 2;
  for (const auto &e : grappi::build_cooccurrence(docs, two).edges) CHECK(e.count >= 2);
  CoocOptions bad;
  bad.titles = "some";
  CHECK_THROWS_AS(grappi::build_cooccurrence(docs, bad), grappi::Error);
}

TEST_CASE("An as-of snapshot counts only the documents published before that year") {
  const auto doc = [](const std::string &pmid, const std::string &year, std::vector<std::string> ids) {
    Document d;
    d.id = d.pmid = pmid;
    d.year = year;
    grappi::DocumentPassage p;
    p.type = "abstract";
    for (const std::string &id : ids) {
      grappi::DocumentAnnotation a;
      a.offset = p.text.size();
      a.text = id;
      a.length = id.size();
      a.type = "Disease";
      a.id = "MESH:" + id;
      p.text += id + " ";
      p.annotations.push_back(a);
    }
    d.passages.push_back(p);
    return d;
  };
  const std::vector<Document> docs = {doc("1", "2001", {"A", "B"}), doc("2", "2010", {"A", "C"}), doc("3", "", {"B", "C"}),
                                      doc("4", "2004", {"A", "B", "C"})};
  CoocOptions o;
  o.as_of = 2005;
  const CoocGraph g = grappi::build_cooccurrence(docs, o);
  CHECK(g.documents == 2);
  CHECK(g.later == 1);
  CHECK(g.undated == 1);
  std::map<std::string, std::size_t> count;
  for (const auto &e : g.edges) count[g.concepts[e.a].id + "-" + g.concepts[e.b].id] = e.count;
  CHECK(count == std::map<std::string, std::size_t>{{"MESH:A-MESH:B", 2}, {"MESH:A-MESH:C", 1}, {"MESH:B-MESH:C", 1}});
  const CoocGraph all = grappi::build_cooccurrence(docs);
  CHECK(all.documents == 4);
  CHECK(all.edges.size() == 3);
}

TEST_CASE("A co-occurrence graph is a dataset joined to the proteins by their Entrez ids and removable") {
  TempDir d;
  const std::string db = d.file("kb.db");
  grappi::KnowledgeGraph kg(db);
  // SCN5A's Entrez id; and 9606 as another gene's Entrez id, which the species 9606 must not join.
  write_file(d.file("aliases.tsv"), "#string_protein_id\talias\tsource\n9606.ENSP00000328968\t6331\tEnsembl_EntrezGene\n"
                                    "9606.ENSP00000241052\t9606\tEnsembl_EntrezGene\n");
  kg.import({{data("9606.protein.info.v12.0.txt.gz")}, {d.file("aliases.tsv"), "aliases"}});
  const auto before = kg.stats();
  const grappi::EntityTagger tagger(kg);
  const auto docs = grappi::read_documents(lit("BioRED.Test.first3.PubTator"));
  const CoocGraph g = grappi::build_cooccurrence(docs, {}, &tagger);
  // SCN5A's concept is the STRING protein.
  const grappi::CoocConcept *scn5a = nullptr;
  for (const auto &c : g.concepts)
    if (c.id == "9606.ENSP00000328968") scn5a = &c;
  REQUIRE(scn5a);
  bool human = false;
  for (const auto &c : g.concepts) human = human || (c.id == "NCBITaxon:9606" && c.node == 0);
  CHECK(human);
  CHECK(scn5a->node == kg.resolve("SCN5A"));
  const grappi::FileReport f = grappi::import_cooccurrence(kg, g, d.file("cooc.jsonl"));
  CHECK(f.edges_created == g.edges.size());
  CHECK(f.nodes_created == g.concepts.size() - 1);
  const auto lqt = kg.node_by_external_id("MESH:D008133");
  REQUIRE(lqt);
  CHECK(lqt->label == "DiseaseOrPhenotypicFeature");
  CHECK(lqt->name == "LQTS");  // (written most often)
  const auto edges = kg.snapshot()->edges_between(scn5a->node, lqt->id);
  REQUIRE(edges.size() == 1);
  const auto e = kg.edge(edges[0].edge);
  REQUIRE(e);
  CHECK(e->relation == "cooc.document");
  CHECK(e->pmids == std::vector<int64_t>{15485686});
  CHECK(e->evidence.rfind("co-occur in 1 document(s), NPMI ", 0) == 0);
  REQUIRE(e->records.size() == 1);
  const auto rec = nlohmann::json::parse(e->records[0].record);
  CHECK(rec["pmids"] == nlohmann::json::array({15485686}));
  CHECK(rec["count"] == 1);
  CHECK(rec["years"] == nlohmann::json::array({0}));
  // The same graph again: already imported.
  CHECK(grappi::import_cooccurrence(kg, g, d.file("cooc.jsonl")).already_imported);
  kg.remove_dataset(f.dataset_id);
  CHECK(kg.stats().edges == before.edges);
  CHECK(kg.stats().nodes == before.nodes);
  CHECK_THROWS_AS(grappi::import_cooccurrence(kg, CoocGraph{}, d.file("none.jsonl")), grappi::Error);
}

// import_cooccurrence stores a graph compactly (an evidence blob per edge, the documents and the
// concepts' units once per dataset) and, given a path, writes the dataset's JSON lines file: what
// the database gives back - every edge's evidence text, PubMed ids and record - must be what
// importing that file gives, byte for byte.
namespace {

// The export with each record's line set to 0 (a compact record has no line of its own).
std::string export_without_lines(grappi::KnowledgeGraph &kg) {
  std::ostringstream out;
  kg.export_graph(out);
  std::istringstream lines(out.str());
  std::string line, all;
  while (std::getline(lines, line)) {
    auto j = nlohmann::json::parse(line);
    if (j.contains("records"))
      for (auto &r : j["records"]) r["line"] = 0;
    if (j.contains("grappi")) j.erase("grappi");
    all += j.dump() + "\n";
  }
  return all;
}

}  // namespace

TEST_CASE("A co-occurrence graph stored compactly reads back as importing its file gives") {
  TempDir d;
  write_file(d.file("aliases.tsv"), "#string_protein_id\talias\tsource\n9606.ENSP00000328968\t6331\tEnsembl_EntrezGene\n");
  const auto base = [&](const std::string &name) {
    auto kg = std::make_unique<grappi::KnowledgeGraph>(d.file(name));
    kg->import({{data("9606.protein.info.v12.0.txt.gz")}, {d.file("aliases.tsv"), "aliases"}});
    return kg;
  };
  auto direct = base("direct.db"), again = base("again.db"), bare = base("bare.db");
  const grappi::EntityTagger tagger(*direct);
  const CoocGraph g = grappi::build_cooccurrence(grappi::read_documents(lit("BioRED.Test.first3.PubTator")), {}, &tagger);
  const std::string file = d.file("cooc.jsonl");
  const grappi::FileReport f = grappi::import_cooccurrence(*direct, g, file);
  CHECK(std::filesystem::exists(file));
  CHECK(!std::filesystem::exists(file + ".part"));
  const grappi::FileReport r = again->import({{file, "jsonl"}}).files.at(0);
  CHECK(f.lines == r.lines);
  CHECK(f.edges_created == r.edges_created);
  CHECK(f.nodes_created == r.nodes_created);
  CHECK(f.referenced_nodes_created == r.referenced_nodes_created);
  const grappi::Dataset a = direct->datasets().back();
  CHECK(a.format == "cooc");
  CHECK(a.path == file);
  CHECK(direct->stats().datasets.back().records == static_cast<int64_t>(g.edges.size()));  // (one per edge, computed)
  // Compact: no evidence row, a blob per edge.
  CHECK(sql_count(d.file("direct.db"), "SELECT count(*) FROM edge_evidence") == 0);
  CHECK(sql_count(d.file("direct.db"), "SELECT count(*) FROM edges WHERE typeof(evidence) = 'blob'") ==
        static_cast<int64_t>(g.edges.size()));
  CHECK(sql_count(d.file("direct.db"), "SELECT count(*) FROM cooc_documents") == static_cast<int64_t>(g.pmids.size()));
  // Every node, edge, evidence text and record as importing the file gives.
  const std::string x = export_without_lines(*direct);
  CHECK(x == export_without_lines(*again));
  for (const grappi::CoocEdge &e : g.edges) {
    const auto na = direct->node_by_external_id(g.concepts[e.a].id), nb = direct->node_by_external_id(g.concepts[e.b].id);
    const auto ma = again->node_by_external_id(g.concepts[e.a].id), mb = again->node_by_external_id(g.concepts[e.b].id);
    REQUIRE((na && nb && ma && mb));
    const auto p = direct->edges_between(na->id, nb->id), q = again->edges_between(ma->id, mb->id);
    REQUIRE(p.size() == 1);
    REQUIRE(q.size() == 1);
    CHECK(p[0].evidence == q[0].evidence);
    CHECK(p[0].pmids == q[0].pmids);
    CHECK(p[0].score == q[0].score);
    REQUIRE(p[0].records.size() == 1);
    REQUIRE(q[0].records.size() == 1);
    CHECK(p[0].records[0].record == q[0].records[0].record);
    CHECK(p[0].records[0].line == 0);
  }
  // Each record of the file names its own line.
  std::istringstream lines(read_file(file));
  std::string line;
  std::size_t no = 0, edges = 0;
  while (std::getline(lines, line)) {
    ++no;
    const auto j = nlohmann::json::parse(line);
    if (j.value("type", "") != "edge") continue;
    ++edges;
    CHECK(j["records"][0]["line"] == no);
  }
  CHECK(edges == g.edges.size());
  // Without a path no file is written, and the database holds the same.
  const grappi::FileReport none = grappi::import_cooccurrence(*bare, g, "");
  CHECK(none.edges_created == f.edges_created);
  CHECK(bare->datasets().back().path.rfind("cooc.document:", 0) == 0);
  CHECK(export_without_lines(*bare) == x);
  // The same graph, with a file or without: already stored.
  CHECK(grappi::import_cooccurrence(*bare, g, "").already_imported);
  CHECK(grappi::import_cooccurrence(*bare, g, d.file("other.jsonl")).already_imported);
  // Nothing stored and no file left when the file cannot be written.
  const auto before = direct->stats();
  const CoocGraph two = grappi::build_cooccurrence(grappi::read_documents(lit("BioRED.Test.first3.PubTator")),
                                                   [] {
                                                     grappi::CoocOptions o;
                                                     o.titles = "exclude";
                                                     return o;
                                                   }(),
                                                   &tagger);
  CHECK_THROWS_AS(grappi::import_cooccurrence(*direct, two, d.file("missing/cooc.jsonl")), grappi::Error);
  CHECK(direct->stats().edges == before.edges);
  CHECK(direct->datasets().size() == before.datasets.size());
  CHECK(!std::filesystem::exists(d.file("missing")));
}

// A second graph of the same relation claims the edges the first stored; each edge shows both
// records, and removing the first leaves the second's evidence, never the first's blob read as
// the second's.
TEST_CASE("Two co-occurrence graphs share their edges and each keeps its own evidence") {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kb.db"));
  const auto docs = grappi::read_documents(lit("BioRED.Test.first3.PubTator"));
  const CoocGraph first = grappi::build_cooccurrence(docs);
  const CoocGraph second = grappi::build_cooccurrence(std::vector<grappi::Document>(docs.begin(), docs.begin() + 1));
  const grappi::FileReport a = grappi::import_cooccurrence(kg, first, "");
  const grappi::FileReport b = grappi::import_cooccurrence(kg, second, "");
  CHECK(b.edges_created == 0);
  CHECK(b.edges_existing == second.edges.size());
  CHECK(sql_count(d.file("kb.db"), "SELECT count(*) FROM edge_evidence") == static_cast<int64_t>(second.edges.size()));
  const grappi::CoocEdge &e = second.edges.front();
  const auto na = kg.node_by_external_id(second.concepts[e.a].id), nb = kg.node_by_external_id(second.concepts[e.b].id);
  REQUIRE((na && nb));
  auto shared = kg.edges_between(na->id, nb->id);
  REQUIRE(shared.size() == 1);
  REQUIRE(shared[0].records.size() == 2);
  CHECK(shared[0].records[0].dataset_id == a.dataset_id);
  CHECK(shared[0].records[1].dataset_id == b.dataset_id);
  const auto second_record = nlohmann::json::parse(shared[0].records[1].record);
  CHECK(second_record["units_total"] == second.units);
  kg.remove_dataset(a.dataset_id);
  CHECK(kg.stats().edges == static_cast<int64_t>(second.edges.size()));
  shared = kg.edges_between(na->id, nb->id);
  REQUIRE(shared.size() == 1);
  REQUIRE(shared[0].records.size() == 1);
  CHECK(shared[0].records[0].dataset_id == b.dataset_id);
  CHECK(nlohmann::json::parse(shared[0].records[0].record) == second_record);
  CHECK(shared[0].pmids == std::vector<int64_t>{second_record["pmids"][0].get<int64_t>()});
  kg.remove_dataset(b.dataset_id);
  CHECK(kg.stats().edges == 0);
  CHECK(sql_count(d.file("kb.db"), "SELECT count(*) FROM cooc_documents") == 0);
  CHECK(sql_count(d.file("kb.db"), "SELECT count(*) FROM cooc_concepts") == 0);
  CHECK(sql_count(d.file("kb.db"), "SELECT count(*) FROM cooc_sets") == 0);
}

// A damaged blob is shown without evidence, never misread.
TEST_CASE("A damaged compact co-occurrence record is read as no evidence") {
  TempDir d;
  const std::string db = d.file("kb.db");
  int64_t id = 0;
  {
    grappi::KnowledgeGraph kg(db);
    grappi::import_cooccurrence(kg, grappi::build_cooccurrence(grappi::read_documents(lit("BioRED.Test.first3.PubTator"))), "");
    id = sql_count(db, "SELECT min(id) FROM edges");
  }
  // (unterminated varints, documents not ascending, a document the dataset lacks, nothing)
  for (const char *blob : {"X'FF'", "X'0180'", "X'0500'", "X'63'", "X'FFFFFFFFFFFFFFFFFF01'", "X''"}) {
    sqlite3 *h = nullptr;
    sqlite3_open(db.c_str(), &h);
    REQUIRE(sqlite3_exec(h, ("UPDATE edges SET evidence = " + std::string(blob) + " WHERE id = " + std::to_string(id)).c_str(),
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(h);
    grappi::KnowledgeGraph kg(db);
    const auto e = kg.edge(id);
    REQUIRE(e);
    CHECK(e->evidence.empty());
    CHECK(e->pmids.empty());
    CHECK(e->records.empty());
    std::ostringstream out;
    CHECK_NOTHROW(kg.export_graph(out));
  }
}

