// The one name linker (grappi/entities.hpp, docs/database.md "Names"): names as papers and
// biologists write them ("p53", "GSK-3β", "beta-catenin", "Bcl-xL", "amyloid precursor protein")
// and family names ("Akt", "MEK", "NF-kappaB") link to the same entity whether `resolve`, a
// question (ask), a paper's text (extract) or the web explorer's search takes them; FamPlex's
// tables imported as families and complexes with their members; the linker's keys and derived
// names as data.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;

namespace {

// Human STRING names, NCBI's gene table and FamPlex: the set-up of docs/setup.md.
struct Human {
  TempDir dir;
  std::unique_ptr<KnowledgeGraph> kg;
  grappi::ImportReport famplex;
  Human() {
    kg = std::make_unique<KnowledgeGraph>(dir.file("human.db"));
    kg->import({{data("9606.protein.info.v12.0.txt.gz")},
                {data("export_v12_alzheimer/string_interactions.tsv"), "web_export"},
                {data("export_v12_nsclc/string_interactions.tsv"), "web_export"}});
    grappi::ImportOptions o;
    o.taxon = 9606;
    kg->import({{data("mapping/hs_genes.protein-coding.org.Hs.eg.db_3.16.0.tsv.gz"), "mapping"}}, o);
    famplex = kg->import({{data("famplex")}});
  }
};

Human &human() {
  static Human h;
  return h;
}

std::string name_of(const KnowledgeGraph &kg, int64_t node) { return kg.node(node)->name; }

// `resolve`: the name is found, as the node named `expected`; its id.
int64_t check_resolves(KnowledgeGraph &kg, const std::string &written, const std::string &expected) {
  const grappi::ResolveResult r = kg.lookup(written);
  REQUIRE(r.status == grappi::ResolveResult::Status::found);
  CHECK(name_of(kg, r.id) == expected);
  return r.id;
}

}  // namespace

// (heavy: the list of names over the human demo database with FamPlex; the Release stage only)
TEST_CASE("Names as papers write them link to one entity in resolve and questions and papers and the web search" * doctest::test_suite("heavy")) {
  Human &h = human();
  KnowledgeGraph &kg = *h.kg;
  REQUIRE(h.famplex.files.size() == 1);
  CHECK(h.famplex.files[0].kind == "famplex");
  CHECK(detail_of(h.famplex.files[0], "entities") == 783);
  CHECK(detail_of(h.famplex.files[0], "texts_to_proteins") > 500);
  const grappi::QuestionAnalyzer analyzer(kg);
  const auto tagger = grappi::EntityTagger::shared(kg);  // (extract's)
  // The gene names and the family names the issues list, and more of the same kinds.
  const std::map<std::string, std::string> names = {{"p53", "TP53"},
                                                    {"p21", "CDKN1A"},
                                                    {"c-Myc", "MYC"},
                                                    {"GSK-3\xCE\xB2", "GSK3B"},
                                                    {"GSK3beta", "GSK3B"},
                                                    {"GSK-3beta", "GSK3B"},
                                                    {"presenilin 1", "PSEN1"},
                                                    {"presenilin-1", "PSEN1"},
                                                    {"beta-catenin", "CTNNB1"},
                                                    {"E-cadherin", "CDH1"},
                                                    {"Bcl-xL", "BCL2L1"},
                                                    {"tau", "MAPT"},
                                                    {"Cox-2", "PTGS2"},  // (not MT-CO2, whose symbol is COX2)
                                                    {"amyloid precursor protein", "APP"},
                                                    {"c-Met", "MET"},
                                                    {"PKC-alpha", "PRKCA"},
                                                    {"survivin", "BIRC5"},
                                                    {"IFN-gamma", "IFNG"},
                                                    {"cytochrome c", "CYCS"},
                                                    {"I\xCE\xBA"
                                                     "B\xCE\xB1",
                                                     "NFKBIA"},
                                                    {"HIF-1\xCE\xB1", "HIF1A"},
                                                    // (a full name's closing 1 or 2 as alpha or beta)
                                                    {"estrogen receptor alpha", "ESR1"},
                                                    {"estrogen receptor beta", "ESR2"},
                                                    {"Akt", "AKT"},
                                                    {"PKB", "AKT"},
                                                    {"Ras", "RAS"},
                                                    {"MEK", "MEK"},
                                                    {"ERK", "ERK"},
                                                    {"PI3K", "PI3K"},
                                                    {"NF-kappaB", "NFkappaB"},
                                                    {"NF-\xCE\xBA"
                                                     "B",
                                                     "NFkappaB"},
                                                    {"AMPK", "AMPK"},
                                                    {"14-3-3", "p14_3_3"},  // (digits alone, as FamPlex writes them)
                                                    // (FamPlex grounds it to an InterPro family first, then to CTTN)
                                                    {"cortactin", "CTTN"},
                                                    {"thymidylate synthase", "TYMS"},  // (the table's "synthetase")
                                                    // (STRING's first clause, unmarked but with a rare word)
                                                    {"glucocorticoid receptor", "NR3C1"},
                                                    {"Neuromodulin", "GAP43"},
                                                    {"copine III", "CPNE3"},  // (a closing number as a Roman numeral)
                                                    {"neurexin I", "NRXN1"},
                                                    {"p38", "p38"}};
  for (const auto &name : names) {
    const std::string &written = name.first, &expected = name.second;  // (a binding would not be captured)
    CAPTURE(written);
    const int64_t id = check_resolves(kg, written, expected);
    // a question
    const grappi::QuestionAnalysis q = analyzer.analyze("Which proteins interact with " + written + "?");
    REQUIRE(q.entities.size() == 1);
    CHECK(q.entities[0].node == id);
    CHECK(q.entities[0].text == written);
    // a paper's sentence (extract's tagger: case rules on, stop-list on)
    const auto mentions = tagger->tag("We measured " + written + " in HeLa cells.");
    const grappi::EntityMention *m = nullptr;
    for (const auto &x : mentions)
      if (x.text == written) m = &x;
    REQUIRE(m);
    REQUIRE(m->entity());
    CHECK(m->entity()->node == id);
    // the web explorer's search box: the linked entity first
    const auto completions = kg.complete(written, 5);
    REQUIRE_FALSE(completions.empty());
    CHECK(completions[0].id == id);
    CHECK(completions[0].matched_by == "linked");
  }
  // The dictionary read back from "<db>.names.*" (the one the shared tagger wrote) finds what the
  // derived one finds.
  {
    const std::vector<std::string> files = files_starting(kg.path() + ".names.");
    REQUIRE(files.size() >= 2);  // (the question analyzer's and the papers' options)
    for (const std::string &f : files) CHECK(std::filesystem::file_size(f) > 100000);
    const grappi::EntityTagger reread(kg);
    CHECK(reread.names() == tagger->names());
    std::string text = "LPS, VEGF-A and APP's partners in mice and in yeast. ";
    for (const auto &name : names) text += "We measured " + name.first + " in HeLa cells. ";
    const auto a = tagger->tag(text), b = reread.tag(text);
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      CAPTURE(a[i].text);
      CHECK(a[i].offset == b[i].offset);
      CHECK(a[i].status == b[i].status);
      CHECK(a[i].candidates.size() == b[i].candidates.size());
      CHECK((a[i].entity() ? a[i].entity()->bel : "-") == (b[i].entity() ? b[i].entity()->bel : "-"));
    }
    CHECK(reread.members(kg.resolve("NF-kappaB")).size() == tagger->members(kg.resolve("NF-kappaB")).size());
  }
  // A family is answered over its members: FamPlex's, through its sub-families.
  const grappi::QuestionAnalysis akt = analyzer.analyze("Which proteins interact with Akt?");
  std::vector<std::string> members;
  for (const auto &x : akt.entities.at(0).members) members.push_back(x.name);
  CHECK(members == std::vector<std::string>{"AKT1", "AKT2", "AKT3"});
  CHECK(akt.entities[0].label == "ProteinFamily");
  std::vector<std::string> nfkb;
  for (const auto &x : tagger->members(kg.resolve("NF-kappaB"))) nfkb.push_back(x.name);
  CHECK(nfkb == std::vector<std::string>{"NFKB1", "NFKB2", "REL", "RELA", "RELB"});
  CHECK(kg.node(kg.resolve("NF-kappaB"))->label == "ProteinComplex");
  // BEL: a family is p(FPLX:...), a complex complex(FPLX:...).
  const auto erk = tagger->link("ERK");
  REQUIRE(erk.entity());
  CHECK(erk.entity()->bel == "p(FPLX:ERK)");
  REQUIRE(tagger->link("NF-kappaB").entity());
  CHECK(tagger->link("NF-kappaB").entity()->bel == "complex(FPLX:NFkappaB)");
  // A text FamPlex grounds to no gene is no gene's alias ("LPS": IRF6 lists it).
  const grappi::ResolveResult lps = kg.lookup("LPS");
  CHECK(lps.status == grappi::ResolveResult::Status::not_found);
  CHECK(lps.note.find("CHEBI") != std::string::npos);
  for (const auto &x : tagger->tag("Cells were treated with LPS for 2 h.")) CHECK(x.text != "LPS");
  // A name is not taken for a word it only begins: "VEGF-A" (not in STRING v12's human proteins) is no VEGF family,
  // in a paper, a question and resolve alike.
  for (const auto &x : tagger->tag("We measured VEGF-A in HeLa cells.")) CHECK(x.text.rfind("VEGF", 0) != 0);
  CHECK(analyzer.analyze("Which proteins interact with VEGF-A?").entities.empty());
  CHECK(kg.lookup("VEGF-A").status == grappi::ResolveResult::Status::not_found);
  CHECK(kg.lookup("VEGF").status == grappi::ResolveResult::Status::found);
  // A possessive is no part of the name before it: "APP's" is APP, not CTSB's alias APPS.
  const grappi::QuestionAnalysis possessive = analyzer.analyze("Which compartments are enriched among APP\u2019s partners?");
  REQUIRE(possessive.entities.size() == 1);
  CHECK(possessive.entities[0].node == kg.resolve("APP"));
  CHECK(analyzer.analyze("What are APP's partners?").entities.at(0).node == kg.resolve("APP"));
}

TEST_CASE("Without FamPlex the gene table's names and the linker's rules link the common names" * doctest::test_suite("heavy")) {
  TempDir dir;
  KnowledgeGraph kg(dir.file("genes.db"));
  kg.import(
      {{data("9606.protein.info.v12.0.txt.gz")}, {data("export_v12_nsclc/string_interactions.tsv"), "web_export"}});
  grappi::ImportOptions o;
  o.taxon = 9606;
  kg.import({{data("mapping/hs_genes.protein-coding.org.Hs.eg.db_3.16.0.tsv.gz"), "mapping"}}, o);
  const std::map<std::string, std::string> names = {
      {"p53", "TP53"},                       // an alias, not LYN's weight name from "p53Lyn"
      {"p21", "CDKN1A"},                     // an alias three genes share: the one with edges
      {"GSK-3\xCE\xB2", "GSK3B"},            // the symbol, the Greek letter as its initial
      {"beta-catenin", "CTNNB1"},            // "catenin beta 1": the number dropped, the Greek letter first
      {"Bcl-xL", "BCL2L1"},                  // "BCL-XL/S": the slashed alias split
      {"amyloid precursor protein", "APP"},  // "amyloid beta precursor protein" without its Greek letter
      {"cytochrome c", "CYCS"},              // "cytochrome c, somatic" without its qualifier
      {"presenilin-1", "PSEN1"},             // a full name, hyphens as blanks
      {"TGF-\xCE\xB2"
       "1",
       "TGFB1"}};
  for (const auto &name : names) {
    const std::string &written = name.first, &expected = name.second;  // (a binding would not be captured)
    CAPTURE(written);
    check_resolves(kg, written, expected);
  }
  CHECK(kg.lookup("p53").candidates.at(0).matched_by == "alias:mapping:alias_symbols (resolved by name_kind)");
  CHECK(kg.lookup("p21").candidates.at(0).matched_by == "alias:mapping:alias_symbols (resolved by edges)");
  // "presenilin" is the family of PSEN1 and PSEN2: no gene is derived from it.
  CHECK(kg.lookup("presenilin").status != grappi::ResolveResult::Status::found);
  // A first clause of STRING's annotation is a name when no other protein has it and a word of it is
  // rare ("Glucocorticoid receptor"); a clause of common words is a class ("transcription factor").
  check_resolves(kg, "glucocorticoid receptor", "NR3C1");
  CHECK(kg.lookup("transcription factor").status != grappi::ResolveResult::Status::found);
  CHECK(kg.lookup("serum albumin").status != grappi::ResolveResult::Status::found);
}

TEST_CASE("FamPlex tables: a bad row is refused with its file and line or skipped and counted") {
  TempDir dir;
  const std::string fp = dir.file("fp");
  std::filesystem::create_directory(fp);
  write_file(fp + "/entities.csv", "AKT\r\nMEK\r\n");
  write_file(fp + "/relations.csv", "HGNC,AKT1,isa,FPLX,AKT\nHGNC,MAP2K1,isa,FPLX,MEK\nHGNC,X,likes,FPLX,AKT\n");
  write_file(fp + "/grounding_map.csv",
             "Akt,FPLX,AKT,,,,\n\"MEK, the kinase\",FPLX,MEK,,,,\nLPS,CHEBI,CHEBI:16412,MESH,D008070,,\n");
  KnowledgeGraph kg(dir.file("k.db"));
  try {
    kg.import({{fp, "famplex"}});
    FAIL("expected a parse error");
  } catch (const grappi::Error &e) {
    CHECK(e.code() == grappi::ErrorCode::parse);
    CHECK(std::string(e.what()).find("relations.csv:3: relation 'likes'") != std::string::npos);
  }
  CHECK(kg.snapshot()->node_count() == 0);  // (nothing written)
  grappi::ImportOptions skip;
  skip.skip_bad_lines = true;
  const auto rep = kg.import({{fp}}, skip);  // (a directory of FamPlex's tables is detected)
  REQUIRE(rep.files.size() == 1);
  CHECK(rep.files[0].kind == "famplex");
  CHECK(rep.files[0].rows_skipped == 1);
  CHECK(rep.files[0].bad_line_examples.at(0).find("relations.csv:3") != std::string::npos);
  CHECK(detail_of(rep.files[0], "families") == 2);
  CHECK(detail_of(rep.files[0], "texts_to_no_gene") == 1);
  CHECK(kg.resolve("MEK, the kinase") == kg.resolve("FPLX:MEK"));
  // A second import of the same tables changes nothing.
  CHECK(kg.import({{fp}}, skip).files.at(0).already_imported);
  // Not FamPlex: a directory without its tables, a missing directory.
  std::filesystem::create_directory(dir.file("empty"));
  CHECK_THROWS_AS(kg.import({{dir.file("empty")}}), grappi::Error);
  CHECK_THROWS_AS(kg.import({{dir.file("none"), "famplex"}}), grappi::Error);
  write_file(fp + "/relations.csv", "HGNC,AKT1,isa,FPLX,NOPE\n");
  CHECK_THROWS_WITH_AS(kg.import({{fp, "famplex"}}), doctest::Contains("FPLX:NOPE is not in entities.csv"),
                       grappi::Error);
}
