// From papers to BEL: the dictionary tagger (case rules, stop-list, longest match, ambiguity
// resolved by organism and by edges, PubTator annotations reconciled), the offline rule table on
// hand-written and BioInfer sentences, a scripted model whose statements are validated,
// repaired once, flagged or rejected, the cache and budgets, the dry run, the BEL script, CX2
// and import outputs read back by grappi's own readers, the pair-level evaluation and the
// audit of textToKnowledgeGraph's networks.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "http_server.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::Document;
using grappi::EntityMention;
using grappi::EntityTagger;
using grappi::ExtractedStatement;
using grappi::ExtractionOptions;
using grappi::ExtractionResult;
using grappi::KnowledgeGraph;
using nlohmann::json;

namespace {

// Human proteins (names only), the yeast proteins with their aliases and physical links, and
// the GO slim: built once, read by every test.
const std::string &kb_path() {
  static TempDir dir;
  static const std::string path = [] {
    const std::string p = dir.file("kb.db");
    KnowledgeGraph kg(p);
    kg.import({{data("9606.protein.info.v12.0.txt.gz")}, {data("4932.protein.info.v12.0.txt.gz")},
               {data("4932.protein.aliases.v12.0.txt.gz")}, {data("4932.protein.physical.links.v12.0.txt.gz")},
               {data("ontology/goslim_generic.obo")}});
    return p;
  }();
  return path;
}

// A human protein node named `name` with gene-table aliases (and an annotation).
int64_t add_protein(KnowledgeGraph &kg, const char *name, const std::vector<const char *> &aliases,
                    const char *annotation = "") {
  grappi::NodeInput n;
  n.external_id = std::string("9606.") + name;
  n.name = name;
  n.annotation = annotation;
  const int64_t id = kg.add_node(n);
  for (const char *a : aliases) kg.add_alias(id, a, "mapping:alias_symbols");
  return id;
}

// An interacts_with edge between two nodes (context the linker looks for).
void interact(KnowledgeGraph &kg, int64_t a, int64_t b) {
  grappi::EdgeInput edge;
  edge.source = a;
  edge.target = b;
  edge.relation = "interacts_with";
  kg.add_edge(edge);
}

const EntityMention *find(const std::vector<EntityMention> &ms, const std::string &text, std::size_t from = 0) {
  for (const EntityMention &m : ms)
    if (m.text == text && m.offset >= from) return &m;
  return nullptr;
}

Document text_document(const std::string &text, const std::string &name = "PMID12345.md") {
  auto docs = grappi::parse_documents(text, grappi::DocumentFormat::text, name);
  REQUIRE(docs.size() == 1);
  return docs[0];
}

// A paper of one abstract (no annotations: its organism comes from its words).
Document abstract_paper(const std::string &text, const std::string &pmid = "7") {
  Document d;
  d.id = d.pmid = pmid;
  grappi::DocumentPassage p;
  p.type = "abstract";
  p.text = text;
  d.passages.push_back(p);
  return d;
}

// The offline extraction (RunControl::model unset) of one text over the human proteins.
ExtractionResult extract_offline(const std::string &text) {
  KnowledgeGraph kg(kb_path());
  ExtractionOptions o;
  o.entities.taxon = 9606;
  return grappi::extract(kg, {text_document(text)}, o);
}

// A database of the human proteins (names only) in `dir`.
std::string human_db(const TempDir &dir) {
  const std::string db = dir.file("kb.db");
  KnowledgeGraph(db).import({{data("9606.protein.info.v12.0.txt.gz")}});
  return db;
}

std::vector<std::string> canonical_of(const ExtractionResult &r, const char *status = "valid") {
  std::vector<std::string> out;
  for (const ExtractedStatement &s : r.statements)
    if (s.status == status) out.push_back(s.canonical);
  return out;
}

}  // namespace

TEST_CASE("The dictionary tagger finds gene symbols by their case rules and the longest names") {
  KnowledgeGraph kg(kb_path());
  const EntityTagger tagger(kg);
  CHECK(tagger.names() > 20000);
  const std::string text = "CAT protects the cat from damage; AKT1 and Akt1 bind MTOR. Programmed cell death and "
                           "DNA repair need TP53, as WAS the case; it was not.";
  const auto ms = tagger.tag(text);
  // The gene in capitals, not the animal; a symbol in mixed case too.
  const EntityMention *cat = find(ms, "CAT");
  REQUIRE(cat);
  CHECK(cat->offset == 0);
  CHECK(cat->status == "resolved");  // (yeast's CTA1 has the alias too; CAT is human CAT's own symbol)
  CHECK(cat->resolution == "preferred_name");
  CHECK(cat->entity()->id == "9606.ENSP00000241052");
  CHECK(cat->entity()->bel == "p(HGNC:CAT)");
  CHECK_FALSE(find(ms, "cat"));
  REQUIRE(find(ms, "Akt1"));
  CHECK(find(ms, "Akt1")->entity()->name == "AKT1");
  CHECK(find(ms, "Akt1")->offset == text.find("Akt1"));
  // The longest name: the GO term, not "cell" or "death".
  const EntityMention *pcd = find(ms, "Programmed cell death");
  REQUIRE(pcd);
  CHECK(pcd->entity()->id == "GO:0012501");
  CHECK(pcd->entity()->bel == "bp(GO:\"programmed cell death\")");
  REQUIRE(find(ms, "DNA repair"));
  CHECK(find(ms, "DNA repair")->entity()->function == "bp");
  // "WAS" is a human gene symbol and an English word in capitals: a stop word in capitals that
  // names a symbol counts; "was" never does.
  CHECK(find(ms, "WAS"));
  CHECK_FALSE(find(ms, "was"));
  for (const EntityMention &m : ms) CHECK(text.substr(m.offset, m.length) == m.text);

  grappi::EntityTaggerOptions o;
  o.stop_words = {"cat", "Akt1"};
  const EntityTagger strict(kg, o);
  const auto ms2 = strict.tag(text);
  CHECK_FALSE(find(ms2, "Akt1"));
  CHECK(find(ms2, "CAT"));  // (capitals naming a symbol)
  CHECK(find(ms2, "AKT1"));
  o.min_length = 1;
  CHECK_THROWS_AS(EntityTagger(kg, o), grappi::Error);
}

// NCBI's gene table gives ARSA the alias "ASA" and IL2 its symbol; a name's key drops blanks,
// so "As a" and "IL 2" both reach a symbol: only the words written as a symbol's are one.
TEST_CASE("A one-word symbol is found in several words only when each begins with a capital or a digit") {
  TempDir dir;
  KnowledgeGraph kg(dir.file("words.db"));
  const int64_t arsa = add_protein(kg, "ARSA", {"ASA", "MLD"});
  const int64_t il2 = add_protein(kg, "IL2", {});
  const EntityTagger tagger(kg);
  const auto ms = tagger.tag("As a rule, IL 2 and ASA were measured. Is a test of MLD cells.");
  CHECK_FALSE(find(ms, "As a"));
  REQUIRE(find(ms, "IL 2"));
  CHECK(find(ms, "IL 2")->entity()->node == il2);
  REQUIRE(find(ms, "ASA"));
  CHECK(find(ms, "ASA")->entity()->node == arsa);
  REQUIRE(find(ms, "MLD"));
  for (const EntityMention &m : ms) CHECK(m.offset > 0);  // (nothing at "As a")
}

TEST_CASE("The knowledge graph keeps one tagger per set of options until its next write") {
  TempDir d;
  KnowledgeGraph kg(human_db(d));
  const auto plain = EntityTagger::shared(kg);
  CHECK(EntityTagger::shared(kg) == plain);
  grappi::EntityTaggerOptions o;
  o.any_case = true;
  const auto any_case = EntityTagger::shared(kg, o);
  CHECK(any_case != plain);
  CHECK(EntityTagger::shared(kg, o) == any_case);
  CHECK(any_case->options().any_case);
  o.stop_words = {"tp53"};
  const auto stopped = EntityTagger::shared(kg, o);
  CHECK(stopped != any_case);
  CHECK(find(any_case->tag("tp53 binds mdm2"), "tp53"));
  CHECK_FALSE(find(stopped->tag("tp53 binds mdm2"), "tp53"));
  const std::string text = "ZZNEW1 binds TP53";
  CHECK_FALSE(find(plain->tag(text), "ZZNEW1"));
  // A write: the next tagger knows the new protein; the one held stays as it was.
  write_file(d.file("new.info.txt"), "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n"
                                     "9606.ENSPZZ0000000001\tZZNEW1\t100\ta protein added later\n");
  kg.import({{d.file("new.info.txt")}});
  const auto after = EntityTagger::shared(kg);
  CHECK(after != plain);
  REQUIRE(find(after->tag(text), "ZZNEW1"));
  CHECK(find(after->tag(text), "ZZNEW1")->entity()->id == "9606.ENSPZZ0000000001");
  CHECK_FALSE(find(plain->tag(text), "ZZNEW1"));
  o.min_length = 1;
  CHECK_THROWS_AS(EntityTagger::shared(kg, o), grappi::Error);
}

TEST_CASE("An ambiguous name is resolved by the organism and by edges to the other entities of the passage") {
  KnowledgeGraph kg(kb_path());
  const EntityTagger tagger(kg);
  // CDC42 is a human and a yeast protein's name: alone, the one with edges (only yeast's
  // physical network is here).
  auto ms = tagger.tag("CDC42 is a small GTPase.");
  REQUIRE(find(ms, "CDC42"));
  CHECK(find(ms, "CDC42")->status == "resolved");
  CHECK(find(ms, "CDC42")->resolution == "edges");
  CHECK(find(ms, "CDC42")->entity()->id == "4932.YLR229C");
  CHECK(find(ms, "CDC42")->candidates.size() == 2);
  // Beside yeast proteins it is the yeast one.
  ms = tagger.tag("Cdc42 binds Bem1 and Cdc24 at the bud site.");
  REQUIRE(find(ms, "Cdc42"));
  CHECK(find(ms, "Cdc42")->status == "resolved");
  CHECK(find(ms, "Cdc42")->resolution == "organism");
  CHECK(find(ms, "Cdc42")->entity()->id == "4932.YLR229C");
  CHECK(find(ms, "Cdc42")->entity()->bel == "p(SGD:CDC42)");
  // The preferred organism decides when asked.
  grappi::EntityTaggerOptions human;
  human.taxon = 9606;
  const EntityTagger htagger(kg, human);
  ms = htagger.tag("CDC42 is a small GTPase.");
  CHECK(find(ms, "CDC42")->entity()->id == "9606.ENSP00000497733");
  // "galactokinase" names GAL1 and GAL3 (UniProt's names); ELP3 (yeast here: Cdc24 is
  // yeast) has a physical link to GAL1 only.
  ms = tagger.tag("Galactokinase co-purified with ELP3 and Cdc24.");
  const EntityMention *gal = find(ms, "Galactokinase");
  REQUIRE(gal);
  CHECK(gal->status == "resolved");
  CHECK(gal->resolution == "context");
  CHECK(gal->entity()->name == "GAL1");
  CHECK(gal->candidates.size() == 2);
  CHECK(find(ms, "ELP3")->resolution == "organism");
}

// "Raf-1" is stored as written for RAF1; RNASE3's "RAF1" and UBE2L3's "E2-F1" match only through
// the tolerant key (case, hyphens): the name as written wins (as in NCBI's gene table).
TEST_CASE("An ambiguous name is resolved by the candidate whose stored name is the mention as written") {
  TempDir dir;
  KnowledgeGraph kg(dir.file("written.db"));
  const auto protein = [&](const char *name, std::vector<const char *> aliases) { return add_protein(kg, name, aliases); };
  const int64_t raf1 = protein("RAF1", {"Raf-1", "c-Raf"});
  protein("RNASE3", {"RAF1", "ECP"});
  const int64_t e2f1 = protein("E2F1", {"E2F-1", "RBP3"});
  protein("UBE2L3", {"E2-F1", "UBCH7"});
  const EntityTagger tagger(kg);
  const auto ms = tagger.tag("Raf-1 and E2F-1 were studied; RAF-1 too.");
  for (const char *written : {"Raf-1", "E2F-1"}) {
    CAPTURE(written);
    const EntityMention *m = find(ms, written);
    REQUIRE(m);
    CHECK(m->status == "resolved");
    CHECK(m->resolution == "preferred_name");  // (RAF1's own symbol before RNASE3's alias)
    CHECK(m->candidates.size() == 2);
    REQUIRE(m->entity());
    CHECK(m->entity()->node == (std::string(written) == "E2F-1" ? e2f1 : raf1));
  }
  // "RAF-1" is neither as written: RAF1's own name decides.
  REQUIRE(find(ms, "RAF-1"));
  CHECK(find(ms, "RAF-1")->resolution == "preferred_name");
  CHECK(find(ms, "RAF-1")->entity()->node == raf1);
  // Among aliases, the one stored as written (in any case) before one only the tolerant key
  // matches: "IL-2" is IL2's, not ILX's "IL2"; case alone decides nothing ("p21" and "P21").
  const int64_t il2 = protein("IL2GENE", {"IL-2"});
  protein("ILX", {"IL2"});
  const int64_t cdkn1a = protein("CDKN1A", {"P21"});
  protein("TCEAL1", {"p21"});
  const EntityTagger aliases(kg);
  const auto il = aliases.tag("IL-2 and p21 were measured.");
  REQUIRE(find(il, "IL-2"));
  CHECK(find(il, "IL-2")->resolution == "as_written");
  CHECK(find(il, "IL-2")->entity()->node == il2);
  REQUIRE(find(il, "p21"));
  CHECK(find(il, "p21")->status == "ambiguous");
  CHECK(find(il, "p21")->candidates.front().node != 0);
  (void)cdkn1a;
  // Two genes that both store "CDC2" as written: nothing decides.
  protein("CDK1", {"CDC2"});
  protein("POLD1", {"CDC2"});
  const EntityTagger again(kg);
  const auto both = again.tag("CDC2 was studied.");
  REQUIRE(find(both, "CDC2"));
  CHECK(find(both, "CDC2")->status == "ambiguous");
}

TEST_CASE("An ambiguous name is resolved by the candidate whose description the passage speaks of") {
  TempDir dir;
  KnowledgeGraph kg(dir.file("described.db"));
  const auto protein = [&](const char *name, const char *annotation, std::vector<const char *> aliases) {
    return add_protein(kg, name, aliases, annotation);
  };
  const int64_t cdk1 = protein("CDK1",
                               "Cyclin-dependent kinase 1; Plays a key role in the control of the eukaryotic cell cycle "
                               "by modulating the centrosome cycle as well as mitotic onset",
                               {"CDC2"});
  const int64_t pold1 = protein("POLD1",
                                "DNA polymerase delta catalytic subunit; As the catalytic component of the DNA "
                                "polymerase delta complex, plays a crucial role in high fidelity genome replication",
                                {"CDC2"});
  const EntityTagger tagger(kg);
  const auto chosen = [&](const char *text) -> int64_t {
    const auto ms = tagger.tag(text);
    const EntityMention *m = find(ms, "CDC2");
    REQUIRE(m);
    if (m->status != "resolved") return 0;
    CHECK(m->resolution == "description");
    return m->entity()->node;
  };
  CHECK(chosen("CDC2 binds cyclin B at mitotic onset.") == cdk1);
  CHECK(chosen("CDC2 is the catalytic subunit of DNA polymerase delta.") == pold1);
  // One shared word is not enough; the mention's own words do not count.
  CHECK(chosen("CDC2 was studied in the cell cycle.") == 0);
  CHECK(chosen("CDC2 was studied.") == 0);
}

// The gene table lists CDKN1B as "P27KIP1" and "KIP1", never "p27"; papers write "p27". A name
// made of a weight and another of the node's names gives the weight alone as a name; where
// other genes store "p27" itself, the edges to the passage's settled proteins decide.
TEST_CASE("A weight and another name of the same gene give the weight alone as a name") {
  TempDir dir;
  KnowledgeGraph kg(dir.file("weight.db"));
  const auto protein = [&](const char *name, std::vector<const char *> aliases) { return add_protein(kg, name, aliases); };
  const int64_t cdkn1b = protein("CDKN1B", {"KIP1", "P27KIP1"});
  const int64_t cdk2 = protein("CDK2", {});
  protein("PSMD9", {"p27", "Rpn4"});
  protein("DCTN6", {"p27"});
  protein("SHC1", {"p52SHC"});  // (no "SHC" among its names: no "p52")
  interact(kg, cdkn1b, cdk2);
  const EntityTagger tagger(kg);
  const auto ms = tagger.tag("p27 associates with CDK2, and p52 was not studied.");
  const EntityMention *p27 = find(ms, "p27");
  REQUIRE(p27);
  CHECK(p27->candidates.size() == 3);
  CHECK(p27->status == "resolved");
  CHECK(p27->resolution == "context");
  REQUIRE(p27->entity());
  CHECK(p27->entity()->node == cdkn1b);
  CHECK(p27->entity()->source == "weight:mapping:alias_symbols");
  CHECK(find(ms, "p52") == nullptr);
  // Without a settled partner, the one candidate with edges in the graph.
  const auto alone = tagger.tag("p27 was measured.");
  REQUIRE(find(alone, "p27"));
  CHECK(find(alone, "p27")->resolution == "edges");
  CHECK(find(alone, "p27")->entity()->node == cdkn1b);
  CHECK(find(alone, "p27")->candidates.size() == 3);
  // The weight alone does not beat another gene's own symbol, nor an alias one gene has: LYN's
  // "p53Lyn" gives it "p53", TP53 lists "P53".
  const int64_t tp53 = protein("TP53", {"P53"});
  const int64_t lyn = protein("LYN", {"p53Lyn", "p56Lyn"});
  protein("SRC", {});
  const EntityTagger more(kg);
  const auto p53 = more.tag("p53 was measured.");
  REQUIRE(find(p53, "p53"));
  CHECK(find(p53, "p53")->entity()->node == tp53);
  CHECK(find(p53, "p53")->resolution == "name_kind");
  CHECK(find(p53, "p53")->candidates.size() == 2);
  CHECK(find(p53, "p53")->candidates.back().node == lyn);
}

TEST_CASE("A span a paper marks as a protein is found under its usual spellings") {
  TempDir dir;
  KnowledgeGraph kg(dir.file("spellings.db"));
  const auto protein = [&](const char *name, std::vector<const char *> aliases) { return add_protein(kg, name, aliases); };
  const int64_t rb1 = protein("RB1", {"RB"});
  const std::map<std::string, int64_t> expected = {
      {"ET(A)", protein("EDNRA", {"ETA"})},          {"IFN-gamma", protein("IFNG", {})},
      {"hGITR", protein("TNFRSF18", {"GITR"})},      {"IL-1RI", protein("IL1R1", {})},
      {"Raf-1 protein kinase", protein("RAF1", {"Raf-1"})}, {"p52Shc", protein("SHC1", {"SHC"})},
      {"Rb", rb1},                                    {"MAP kinase", 0},
      {"beta 1-syntrophin", protein("SNTB1", {"syntrophin beta 1"})},
      {"dipeptidyl peptidase IV", protein("DPP4", {"dipeptidyl peptidase 4"})},
      {"p47nck", protein("NCK1", {"NCK"})},           {"p110RB", rb1}};
  protein("MAPX", {"MAP"});  // ("MAP kinase" is no MAP: a generic word is dropped after a name with a digit only)
  grappi::DocumentPassage passage;
  passage.type = "sentence";
  for (const auto &[name, node] : expected) {
    passage.annotations.push_back({passage.text.size(), name.size(), name, "protein", ""});
    passage.text += name + " and ";
  }
  passage.text += "more were studied.";
  const EntityTagger tagger(kg);
  const auto ms = tagger.tag(passage);
  for (const auto &entry : expected) {
    const std::string &name = entry.first;
    const int64_t node = entry.second;
    CAPTURE(name);
    const EntityMention *m = find(ms, name);
    REQUIRE(m);
    CHECK(m->source != "dictionary");  // ("both" where the dictionary also found a name inside)
    if (node == 0) {
      CHECK(m->status == "ungrounded");
      continue;
    }
    REQUIRE(m->entity());
    CHECK(m->entity()->node == node);
  }
  // Without the paper's word that these are proteins, the dictionary finds none of the variants but
  // the "h" for human before a name ("hGITR" is the human GITR).
  const auto plain = tagger.tag("hGITR and p52Shc were studied.");
  REQUIRE(find(plain, "hGITR"));
  CHECK(find(plain, "hGITR")->source == "dictionary");
  CHECK(find(plain, "p52Shc") == nullptr);
}

// A paper's organism: its species annotations, else the taxon asked for, else the database's
// dominant organism (human: 19,699 proteins beside yeast's 6,600). A name only another
// organism's proteins have is not grounded in it, and says why.
TEST_CASE("A passage is grounded in its organism and never to another organism's proteins silently") {
  KnowledgeGraph kg(kb_path());
  const EntityTagger tagger(kg);
  CHECK(tagger.organism() == 9606);
  Document doc = abstract_paper("In human cells, Cdc28 and CDC42 bind AKT1.", "1");
  CHECK(EntityTagger::document_organism(doc) == 0);
  // No species annotation: the dominant organism. CDC28 is yeast's only; CDC42 is both.
  auto ms = tagger.tag(doc.passages[0]);
  REQUIRE(find(ms, "Cdc28"));
  CHECK(find(ms, "Cdc28")->status == "other_organism");
  CHECK_FALSE(find(ms, "Cdc28")->chosen);
  CHECK(find(ms, "Cdc28")->reason.find("taxon 9606 (Homo sapiens; the database's dominant organism)") != std::string::npos);
  CHECK(find(ms, "Cdc28")->reason.find("taxon 4932") != std::string::npos);
  REQUIRE(find(ms, "CDC42"));
  CHECK(find(ms, "CDC42")->entity()->id == "9606.ENSP00000497733");
  CHECK(find(ms, "AKT1")->status == "unique");
  // A species annotation says yeast: now Cdc28 is grounded and CDC42 is yeast's.
  grappi::DocumentAnnotation yeast;
  yeast.offset = 0;
  yeast.length = 0;  // (an annotation without a span still names the organism)
  yeast.type = "Species";
  yeast.id = "NCBITaxon:4932";
  doc.passages[0].annotations.push_back(yeast);
  CHECK(EntityTagger::document_organism(doc) == 4932);
  ms = tagger.tag(doc.passages[0]);
  CHECK(find(ms, "Cdc28")->entity()->id == "4932.YBR160W");
  CHECK(find(ms, "CDC42")->entity()->id == "4932.YLR229C");
  CHECK(find(ms, "AKT1")->status == "other_organism");
  // The organism given (a document's, for its other passages) comes first.
  ms = tagger.tag(doc.passages[0], 9606);
  CHECK(find(ms, "Cdc28")->status == "other_organism");
  CHECK(find(ms, "Cdc28")->reason.find("the document's organism") != std::string::npos);
  // Two species: the most frequent; a tie goes to the first.
  grappi::DocumentAnnotation human = yeast;
  human.id = "9606";
  doc.passages[0].annotations.insert(doc.passages[0].annotations.begin(), human);
  CHECK(EntityTagger::document_organism(doc) == 9606);
  doc.passages[0].annotations.push_back(yeast);
  CHECK(EntityTagger::document_organism(doc) == 4932);
  // Extraction reads the organism of the whole document: the title's species, the abstract's names.
  grappi::Document paper;
  paper.id = paper.pmid = "2";
  grappi::DocumentPassage title;
  title.type = "title";
  title.text = "A study in yeast";
  grappi::DocumentAnnotation species;
  species.offset = 11;
  species.length = 5;
  species.type = "Species";
  species.id = "4932";
  title.annotations.push_back(species);
  paper.passages.push_back(title);
  grappi::DocumentPassage abstract;
  abstract.type = "abstract";
  abstract.text = "Cdc28 phosphorylates Cdc42 in budding cells, and AKT1 is absent.";
  paper.passages.push_back(abstract);
  grappi::ExtractionOptions xo;
  xo.min_passage_chars = 1;
  grappi::ExtractiveModel offline;
  const auto r = grappi::extract(kg, offline, {paper}, xo);
  // (the same without a model: RunControl::model unset is the offline default)
  const json implicit = grappi::to_json(grappi::extract(kg, {paper}, xo));
  REQUIRE(implicit.contains("paragraphs"));
  CHECK(implicit.at("paragraphs") == grappi::to_json(r).at("paragraphs"));
  CHECK(implicit.at("offline") == true);
  REQUIRE(!r.paragraphs.empty());
  REQUIRE(r.paragraphs.back().section == "abstract");
  const auto &es = r.paragraphs.back().entities;
  REQUIRE(find(es, "Cdc28"));
  CHECK(find(es, "Cdc28")->entity()->id == "4932.YBR160W");
  CHECK(find(es, "Cdc42")->entity()->id == "4932.YLR229C");
  CHECK(find(es, "AKT1")->status == "other_organism");
}

TEST_CASE("PubTator annotations are reconciled with the dictionary and grounded by their concept ids") {
  TempDir d;
  const std::string db = d.file("kb.db");
  {
    KnowledgeGraph kg(db);
    kg.import({{data("9606.protein.info.v12.0.txt.gz")}});
    const auto scn5a = kg.node_by_external_id("9606.ENSP00000328968");
    REQUIRE(scn5a);
    // SCN5A's Entrez id as STRING's alias files give it.
    write_file(d.file("aliases.tsv"), "#string_protein_id\talias\tsource\n9606.ENSP00000328968\t6331\tEnsembl_EntrezGene\n");
    kg.import({{d.file("aliases.tsv"), "aliases"}});
  }
  KnowledgeGraph kg(db);
  const EntityTagger tagger(kg);
  const auto docs = grappi::read_documents(lit("BioRED.Test.first3.PubTator"));
  REQUIRE(docs.size() == 3);
  const grappi::DocumentPassage &title = docs[0].passages.at(0);
  const grappi::DocumentPassage &abstract = docs[0].passages.at(1);
  auto ms = tagger.tag(title);
  // "SCN5A" is annotated (Gene 6331) and in the dictionary: both; the diseases are annotations
  // no protein matches.
  const EntityMention *scn5a = find(ms, "SCN5A");
  REQUIRE(scn5a);
  CHECK(scn5a->source == "both");
  CHECK(scn5a->annotation_id == "6331");
  CHECK(scn5a->type == "GeneOrGeneProduct");
  CHECK(scn5a->entity()->name == "SCN5A");
  const EntityMention *lqt = find(ms, "long QT syndrome");
  REQUIRE(lqt);
  CHECK(lqt->source == "annotation");
  CHECK(lqt->status == "ungrounded");
  // "Na(v)1.5" is no name in the database, but its concept id is SCN5A's Entrez id.
  ms = tagger.tag(abstract);
  const EntityMention *nav = find(ms, "Na(v)1.5");
  REQUIRE(nav);
  CHECK(nav->source == "annotation");
  CHECK(nav->status == "unique");
  CHECK(nav->entity()->name == "SCN5A");
  CHECK(nav->entity()->source == "annotation_id");
  for (const EntityMention &m : ms) CHECK(abstract.text.substr(m.offset, m.length) == m.text);
}

// (not in the ThreadSanitizer selection: the paragraphs' pool runs there in the scripted model's
// test and the HTTP model's below, and the offline model's concurrent answers in explore's; this
// one builds the tagger of the human and yeast proteins, 55 s under ThreadSanitizer)
TEST_CASE("The offline extractor writes the rule table's statements for hand-written sentences") {
  const ExtractionResult r = extract_offline(
      "AKT1 phosphorylates MTOR at Ser2448. MTOR is phosphorylated by AKT1 in muscle.\n\n"
      "GRB2 binds EGFR, SOS1 and SHC1 after stimulation. TP53 does not activate BRCA1 here.\n\n"
      "The interaction between BRCA1 and BARD1 was confirmed. Phosphorylation of BAD by AKT1 blocks apoptosis.\n\n"
      "# References\n\nAKT1 phosphorylates everything in this section, which is dropped.\n");
  CHECK(r.offline);
  CHECK(r.paragraphs.size() == 3);
  CHECK(r.usage.model_calls == 0);
  CHECK(r.usage.local_answers == 3);
  const std::vector<std::string> valid = canonical_of(r);
  const std::vector<std::string> expected = {
      "act(p(HGNC:AKT1), ma(kin)) increases p(HGNC:MTOR, pmod(Ph))",
      "act(p(HGNC:AKT1), ma(kin)) increases p(HGNC:MTOR, pmod(Ph))",
      "complex(p(HGNC:EGFR), p(HGNC:GRB2))",
      "complex(p(HGNC:GRB2), p(HGNC:SOS1))",
      "complex(p(HGNC:GRB2), p(HGNC:SHC1))",
      "complex(p(HGNC:BARD1), p(HGNC:BRCA1))",
      "act(p(HGNC:AKT1), ma(kin)) increases p(HGNC:BAD, pmod(Ph))"};
  CHECK(valid == expected);
  CHECK(canonical_of(r, "flagged").empty());
  CHECK(canonical_of(r, "rejected").empty());
  // The passive sentence is the same statement: a duplicate of the first.
  REQUIRE(r.statements.size() == 7);
  CHECK_FALSE(r.statements[0].duplicate_of);
  CHECK(r.statements[1].duplicate_of == std::optional<std::size_t>(0));
  CHECK(r.statements[0].origin == "rule:phosphorylation");
  CHECK(r.statements[2].origin == "rule:binding");
  // Evidence: the sentence, found where it is.
  const auto &p0 = r.paragraphs[0];
  CHECK(r.statements[1].evidence == "MTOR is phosphorylated by AKT1 in muscle.");
  CHECK(r.statements[1].evidence_offset == p0.text.find("MTOR is"));
  CHECK(r.statements[0].mentions.size() == 2);
  CHECK(p0.entities[r.statements[0].mentions[0]].text == "AKT1");
  for (const auto &p : r.paragraphs) CHECK(p.text.find("everything") == std::string::npos);
  const json j = grappi::to_json(r);
  CHECK(j["offline"] == true);
  CHECK(j["note"].get<std::string>().find("not a language model") != std::string::npos);
  CHECK(j["counts"]["valid"] == 7);
  CHECK(j["counts"]["duplicates"] == 1);
}

TEST_CASE("The offline extractor associates a pair no rule read with a word of interaction between them") {
  const std::string far(170, 'x');
  const ExtractionResult r = extract_offline(
      // another protein between, "co-immunoprecipitated" between the pair: associated
      "In HeLa cells EGFR and GRB2 were co-immunoprecipitated with SHC1 antibodies.\n\n"
      // a negation between: nothing
      "BRCA1 was not found in the complex, unlike BARD1 in earlier work.\n\n"
      // more than 160 characters apart: nothing (three entities: no sentence-wide association)
      "AKT1 bound the " + far + " of MTOR, as did CDK2.\n");
  std::set<std::string> associated;
  for (const ExtractedStatement &s : r.statements) {
    CHECK(s.canonical.find("BRCA1") == std::string::npos);
    CHECK(s.canonical.find("MTOR") == std::string::npos);
    if (s.origin == "rule:association") associated.insert(s.canonical);
  }
  std::string got;
  for (const auto &x : associated) got += x + "; ";
  CAPTURE(got);
  CHECK(associated == std::set<std::string>{"p(HGNC:EGFR) association p(HGNC:SHC1)",
                                            "p(HGNC:GRB2) association p(HGNC:SHC1)"});
}

TEST_CASE("The offline extractor reads coordinated lists that interact and a complex's members and plural nominal interactions") {
  const ExtractionResult r = extract_offline(
      // a list and then its verb: each pair of the list (the last two joined by ", and" too)
      "The proteins GRB2, SOS1, and SHC1 interact after stimulation.\n\n"
      // a plural noun of interaction, "of A with B, C and D": A with each
      "Associations of BRCA1 with BARD1, RAD51 and TP53 were reported.\n\n"
      // a list whose verb is stated of something else: nothing for the list
      "AKT1, MTOR and CDK2 were stable and then phosphorylated.\n\n"
      // a complex's members: each pair
      "A complex composed of CDK4, CCND1 and CDKN1B was purified.\n\n"
      // two names joined into a complex's: the pair ("the CDK2-CCNE1 complex", "a XRCC6/XRCC5 heterodimer")
      // (else, as two entities of a sentence with a binding word, associated only)
      "Levels of the CDK2-CCNE1 complex rose.\n\n"
      "A XRCC6/XRCC5 heterodimer was purified.\n\n"
      "MAPK1-ELK1 reporters were used.\n\n"
      // ... and so do two joined by a hyphen or a slash alone, but not a pathway's nor a reporter's (above);
      // an affinity binds
      "Cells expressing CDK6-CCND3 grew.\n\n"
      "The MTOR/AKT1 pathway and the MAPK3-MAPK1 cascade were on.\n\n"
      "MDM2 has a high affinity for TP53.\n\n"
      // a list after "of" with no complex or interaction before it: nothing
      "Levels of EGFR, ERBB2 and ERBB3 were measured.\n");
  std::set<std::string> got;
  for (const ExtractedStatement &s : r.statements) got.insert(s.canonical);
  std::string all;
  for (const auto &x : got) all += x + "; ";
  CAPTURE(all);
  CHECK(got == std::set<std::string>{"complex(p(HGNC:GRB2), p(HGNC:SOS1))", "complex(p(HGNC:GRB2), p(HGNC:SHC1))",
                                     "complex(p(HGNC:SHC1), p(HGNC:SOS1))", "complex(p(HGNC:BARD1), p(HGNC:BRCA1))",
                                     "complex(p(HGNC:BRCA1), p(HGNC:RAD51))", "complex(p(HGNC:BRCA1), p(HGNC:TP53))",
                                     "complex(p(HGNC:CCND1), p(HGNC:CDK4))", "complex(p(HGNC:CDK4), p(HGNC:CDKN1B))",
                                     "complex(p(HGNC:CCND1), p(HGNC:CDKN1B))", "complex(p(HGNC:CCNE1), p(HGNC:CDK2))",
                                     "complex(p(HGNC:XRCC5), p(HGNC:XRCC6))", "complex(p(HGNC:MDM2), p(HGNC:TP53))",
                                     "complex(p(HGNC:CCND3), p(HGNC:CDK6))"});
}

// The human proteins and a few of FamPlex's families (its table formats), so that the
// membership rule and check have FamPlex's word for who belongs where.
static std::string human_famplex_db(TempDir &dir) {
  const std::string db = human_db(dir), fp = dir.file("famplex");
  std::filesystem::create_directory(fp);
  write_file(fp + "/entities.csv", "CDKN\nHistone\nHistone_H3\n");
  write_file(fp + "/relations.csv",
             "HGNC,CDKN1A,isa,FPLX,CDKN\nHGNC,CDKN1B,isa,FPLX,CDKN\nFPLX,Histone_H3,isa,FPLX,Histone\n"
             "HGNC,H3C1,isa,FPLX,Histone_H3\n");
  write_file(fp + "/grounding_map.csv",
             "cyclin-dependent kinase inhibitor,FPLX,CDKN,,,,\ncyclin-dependent kinase inhibitors,FPLX,CDKN,,,,\n"
             "histone,FPLX,Histone,,,,\n");
  KnowledgeGraph(db).import({{fp, "famplex"}});
  return db;
}

TEST_CASE("The offline extractor reads a family named with its members and bindings said without a trigger") {
  TempDir dir;
  KnowledgeGraph kg(human_famplex_db(dir));
  {
    const EntityTagger tagger(kg);
    const int64_t histone = kg.resolve("FPLX:Histone"), h3 = kg.resolve("FPLX:Histone_H3"), h3c1 = kg.resolve("H3C1");
    CHECK(tagger.contains(histone, h3));
    CHECK(tagger.contains(histone, h3c1));  // (through the sub-family)
    CHECK(tagger.contains(h3, h3c1));
    CHECK_FALSE(tagger.contains(h3, histone));
    CHECK_FALSE(tagger.contains(h3c1, h3c1));
    CHECK_FALSE(tagger.contains(kg.resolve("FPLX:CDKN"), h3c1));
    CHECK_FALSE(tagger.contains(h3c1, kg.resolve("CDKN1A")));  // (not a family)
  }
  ExtractionOptions o;
  o.entities.taxon = 9606;
  const ExtractionResult r = grappi::extract(
      kg,
      {text_document(
          // a family before its member, after it (an apposition), before a list of its members
          "Levels of the cyclin-dependent kinase inhibitor CDKN1B rose.\n\n"
          "CDKN1A, a cyclin-dependent kinase inhibitor, was induced.\n\n"
          "The cyclin-dependent kinase inhibitors CDKN1A and CDKN1B were measured.\n\n"
          // a member through a sub-family (H3C1 of Histone_H3 of Histone)
          "The histone H3C1 was modified.\n\n"
          // no member of it by FamPlex: nothing
          "The cyclin-dependent kinase inhibitor TP53 was measured.\n\n"
          // bindings and associations no trigger word says
          "Dissociation of CTNNA1 from CDH1 was seen.\n\n"
          "ACTB released from PFN1 was measured.\n\n"
          "VCL links ITGB1 to ACTB filaments.\n\n"
          "The affinity of PFN1 for ACTB was high.\n\n"
          "GRB2, an EGFR-binding protein, was cloned.\n\n"
          "RAD51 and RAD52 proteins interact.\n\n"
          "CFL1 and DSTN can be cross-linked.\n\n"
          "The interactions of CFL1, DSTN and DNASE1 with ACTB were compared.\n\n"
          "CTNNB1, CDH1 and JUP cosedimented.\n\n"
          // an effect of one on the other: regulation
          "The effect of PFN1 on ACTB polymerization was studied.\n")},
      o);
  std::set<std::string> got;
  for (const ExtractedStatement &s : r.statements) {
    CHECK(s.status == "valid");
    got.insert(s.canonical + " " + s.origin);
  }
  std::string all;
  for (const auto &x : got) all += x + "; ";
  CAPTURE(all);
  CHECK(got == std::set<std::string>{"p(HGNC:CDKN1B) isA p(FPLX:CDKN) rule:membership",
                                     "p(HGNC:CDKN1A) isA p(FPLX:CDKN) rule:membership",
                                     "p(HGNC:H3C1) isA p(FPLX:Histone) rule:membership",
                                     "p(HGNC:CTNNA1) association p(HGNC:CDH1) rule:association",
                                     "p(HGNC:ACTB) association p(HGNC:PFN1) rule:association",
                                     "p(HGNC:ITGB1) association p(HGNC:ACTB) rule:association",
                                     "complex(p(HGNC:ACTB), p(HGNC:PFN1)) rule:binding",
                                     "complex(p(HGNC:EGFR), p(HGNC:GRB2)) rule:binding",
                                     "complex(p(HGNC:RAD51), p(HGNC:RAD52)) rule:binding",
                                     "complex(p(HGNC:CFL1), p(HGNC:DSTN)) rule:binding",
                                     "complex(p(HGNC:ACTB), p(HGNC:CFL1)) rule:binding",
                                     "complex(p(HGNC:ACTB), p(HGNC:DSTN)) rule:binding",
                                     "complex(p(HGNC:ACTB), p(HGNC:DNASE1)) rule:binding",
                                     "complex(p(HGNC:CDH1), p(HGNC:CTNNB1)) rule:binding",
                                     "complex(p(HGNC:CTNNB1), p(HGNC:JUP)) rule:binding",
                                     "complex(p(HGNC:CDH1), p(HGNC:JUP)) rule:binding",
                                     "p(HGNC:PFN1) regulates p(HGNC:ACTB) rule:regulation"});
}

// (heavy: a corpus slice over the whole knowledge base; the Release stage only)
TEST_CASE("The offline extractor on BioInfer sentences finds the stated binding and no inhibition in an assay's name" * doctest::test_suite("heavy")) {
  KnowledgeGraph kg(kb_path());
  grappi::ExtractiveModel model;
  const auto docs = grappi::read_documents(lit("BioInfer-test.first6.xml"));
  // BioInfer.d38 (PMID 6509022): "... the DNase I inhibition assay demonstrate that cofilin
  // binds to actin filaments ... and that cofilin increases the monomeric actin ...": cofilin
  // is COF1 and actin ACT1 in yeast (UniProt's names). The abstract names no species (it is
  // porcine), and the database's dominant organism is human, where these names are no
  // protein's: they are grounded only when yeast is asked for.
  grappi::ExtractionOptions o;
  {
    const ExtractionResult human = grappi::extract(kg, model, docs, o);
    for (const ExtractedStatement &s : human.statements)
      if (human.paragraphs[s.paragraph].pmid == "6509022") CHECK(s.status != "valid");
  }
  o.entities.taxon = 4932;
  const ExtractionResult r = grappi::extract(kg, model, docs, o);
  std::vector<std::string> d38;
  std::size_t dnase = 0;
  for (const ExtractedStatement &s : r.statements) {
    if (r.paragraphs[s.paragraph].pmid != "6509022") continue;
    // (DNase I, which no database here grounds, has "inhibition" and "binds" between it and
    // cofilin and actin: associated, flagged, not in the default output)
    if (s.canonical.find("DNase I") != std::string::npos) {
      CHECK(s.status == "flagged");
      CHECK(s.origin == "rule:association");
      ++dnase;
      continue;
    }
    d38.push_back(s.canonical + " " + s.status);
  }
  CHECK(dnase > 0);
  // Its other two sentences name only cofilin and actin with a trigger no rule reads
  // ("actin-associated protein", "cofilin shortens the actin filaments"): associated. In the
  // assay's sentence the later mentions of cofilin and actin with "binds" between them
  // ("cofilin binds to actin filaments in a 1:1 molar ratio of cofilin to actin monomer") are
  // associated too (the same statement again: duplicates).
  const std::vector<std::string> expected = {"p(SGD:COF1) association p(SGD:ACT1) valid",
                                             "complex(p(SGD:ACT1), p(SGD:COF1)) valid",
                                             "p(SGD:COF1) increases p(SGD:ACT1) valid",
                                             "p(SGD:COF1) association p(SGD:ACT1) valid",
                                             "p(SGD:COF1) association p(SGD:ACT1) valid",
                                             "p(SGD:ACT1) association p(SGD:COF1) valid"};
  CHECK(d38 == expected);
  for (const ExtractedStatement &s : r.statements) CHECK(s.canonical.find("decreases") == std::string::npos);
  // In CX2 the yeast proteins link to SGD by their SGD ids (the aliases' SGD_ID), and the
  // complex is an edge between them.
  std::map<std::string, std::string> url;
  bool bound = false;
  for (const json &aspect : grappi::to_cx2(r, "yeast")) {
    if (aspect.contains("nodes"))
      for (const json &n : aspect["nodes"]) url[n["v"]["name"]] = n["v"].value("id", "");
    if (aspect.contains("edges"))
      for (const json &e : aspect["edges"])
        bound = bound || (e["v"]["interaction"] == "complex" && e["v"]["bel_expression"] == "complex(p(SGD:ACT1), p(SGD:COF1))");
  }
  CHECK(url["p(SGD:COF1)"] == "https://identifiers.org/sgd:S000003973");
  CHECK(url["p(SGD:ACT1)"] == "https://identifiers.org/sgd:S000001855");
  CHECK(bound);
}

namespace {

// A scripted model: answers by the paragraph it is shown and counts its calls.
struct Scripted {
  std::atomic<int> calls{0};
  std::mutex mu;
  std::vector<std::string> kinds;
  grappi::ChatResponse answer(const grappi::ChatRequest &q) {
    ++calls;
    const std::string kind = q.task.value("kind", "");
    {
      std::lock_guard<std::mutex> lock(mu);
      kinds.push_back(kind);
    }
    grappi::ChatResponse r;
    r.finish_reason = "stop";
    const std::string paragraph = q.task.value("paragraph", "");
    if (kind == "extract.repair") {
      // The statements come back in order: the binding first, then hasActivity.
      const std::string &problems = q.messages.back().content;
      CHECK(problems.find("1. p(HGNC:GRB2) interacts p(HGNC:EGFR)") != std::string::npos);
      CHECK(problems.find("2. p(HGNC:AKT1) hasActivity") != std::string::npos);
      r.content = R"j({"statements": [{"index": 1, "bel": "complex(p(HGNC:GRB2), p(HGNC:EGFR))", "evidence": "GRB2 binds EGFR."},
                     {"index": 2, "bel": ""}]})j";
    } else if (paragraph.find("Ser2448") != std::string::npos) {
      r.content = R"j(Here you are: {"statements": [
        {"bel": "act(p(HGNC:AKT1), ma(kin)) increases p(HGNC:MTOR, pmod(Ph, Ser, 2448))", "evidence": "AKT1 phosphorylates MTOR at Ser2448."},
        {"bel": "p(HGNC:GRB2) interacts p(HGNC:EGFR)", "evidence": "GRB2 binds EGFR."},
        {"bel": "p(HGNC:EGFR) increases p(HGNC:KRAS)", "evidence": "EGFR signals to KRAS."},
        {"bel": "p(HGNC:AKT1) hasActivity act(p(HGNC:AKT1))", "evidence": "AKT1 phosphorylates MTOR at Ser2448."}]})j";
    } else {
      r.content = R"j({"statements": [
        {"bel": "complex(p(HGNC:BRCA1), p(HGNC:BARD1))", "evidence": "The interaction between BRCA1 and BARD1 was confirmed."},
        {"bel": "act(p(HGNC:AKT1), ma(kin)) increases p(HGNC:MTOR, pmod(Ph, Ser, 2448))", "evidence": "AKT1 phosphorylates MTOR."},
        {"bel": "p(HGNC:BRCA1)", "evidence": "The interaction between BRCA1 and BARD1 was confirmed."}]})j";
    }
    return r;
  }
};

const char *kPaper =
    "AKT1 phosphorylates MTOR at Ser2448. GRB2 binds EGFR.\n\n"
    "The interaction between BRCA1 and BARD1 was confirmed. AKT1 phosphorylates MTOR.\n";

const ExtractedStatement *statement_of(const ExtractionResult &r, const std::string &bel_start) {
  for (const ExtractedStatement &s : r.statements)
    if (s.bel.rfind(bel_start, 0) == 0) return &s;
  return nullptr;
}

}  // namespace

// Polarity: the rule table does not take a coordinated clause's verb for the object of the
// clause before ("Alcohol increased EEF2K and decreased EEF2" says nothing of EEF2K acting on
// EEF2), and a model's causal statement is checked against the rule table's reading of the
// same pair: the opposite sign is flagged, the same sign agrees. Every statement says what was
// checked.
TEST_CASE("Polarity: coordinated clauses are split and a model's sign is checked against the rules") {
  TempDir d;
  KnowledgeGraph kg(human_db(d));
  grappi::ExtractiveModel offline;
  const ExtractionResult rules = grappi::extract(
      kg, offline, {text_document("Chronic alcohol increased EEF2K levels and decreased EEF2 in the liver. "
                                  "AKT1 binds and activates MTOR in muscle.\n")});
  std::vector<std::string> got;
  for (const ExtractedStatement &s : rules.statements) {
    got.push_back(s.canonical);
    CHECK(s.checks.at("grammar") == "passed");
    CHECK(s.checks.at("grounding") == "passed");
    CHECK(s.checks.at("evidence") == "found");
    CHECK(s.checks.at("polarity") == "by_rule");
  }
  CHECK(std::none_of(got.begin(), got.end(), [](const std::string &c) { return c.find("EEF2K") != std::string::npos; }));
  CHECK(std::find(got.begin(), got.end(), "p(HGNC:AKT1) increases act(p(HGNC:MTOR))") != got.end());
  // A model that reads the sentence the other way round is flagged; one that agrees is valid.
  grappi::CallbackModel model("scripted", [](const grappi::ChatRequest &) {
    grappi::ChatResponse r;
    r.finish_reason = "stop";
    r.content = R"j({"statements": [
      {"bel": "p(HGNC:AKT1) decreases act(p(HGNC:MTOR))", "evidence": "AKT1 activates MTOR in muscle."},
      {"bel": "p(HGNC:GRB2) increases act(p(HGNC:SOS1))", "evidence": "GRB2 activates SOS1."},
      {"bel": "p(HGNC:AKT1) regulates p(HGNC:GRB2)", "evidence": "paraphrased"}]})j";
    return r;
  });
  grappi::ExtractionOptions o;
  o.use_cache = false;
  const ExtractionResult m = grappi::extract(kg, model, {text_document("AKT1 activates MTOR in muscle. GRB2 activates SOS1.\n")}, o);
  REQUIRE(m.statements.size() == 3);
  CHECK(m.statements[0].checks.at("polarity") == "disagrees");
  CHECK(m.statements[0].status == "flagged");
  CHECK(std::find(m.statements[0].flags.begin(), m.statements[0].flags.end(), "polarity") != m.statements[0].flags.end());
  CHECK(m.statements[1].checks.at("polarity") == "agrees");
  CHECK(m.statements[1].status == "valid");
  CHECK(m.statements[2].checks.at("polarity") == "unchecked");  // (no sign)
  CHECK(m.statements[2].checks.at("evidence") == "paraphrased");
  CHECK(grappi::to_json(m)["paragraphs"][0]["statements"][0]["checks"]["polarity"] == "disagrees");
}

TEST_CASE("A model's membership statements are valid only where FamPlex puts the member in the group") {
  TempDir dir;
  KnowledgeGraph kg(human_famplex_db(dir));
  grappi::CallbackModel model("scripted", [](const grappi::ChatRequest &) {
    grappi::ChatResponse r;
    r.finish_reason = "stop";
    const std::string evidence = R"("evidence": "The cyclin-dependent kinase inhibitor CDKN1B and TP53 rose.")";
    r.content = R"j({"statements": [
      {"bel": "p(HGNC:CDKN1B) isA p(FPLX:CDKN)", )j" + evidence + R"j(},
      {"bel": "p(HGNC:TP53) isA p(FPLX:CDKN)", )j" + evidence + R"j(},
      {"bel": "p(HGNC:TP53) isA p(HGNC:CDKN1B)", )j" + evidence + R"j(},
      {"bel": "p(FPLX:CDKN) hasComponent p(HGNC:CDKN1B)", )j" + evidence + R"j(},
      {"bel": "p(HGNC:TP53) increases p(HGNC:CDKN1B)", )j" + evidence + R"j(}]})j";
    return r;
  });
  ExtractionOptions o;
  o.use_cache = false;
  o.repair = false;
  o.entities.taxon = 9606;
  const ExtractionResult m =
      grappi::extract(kg, model, {text_document("The cyclin-dependent kinase inhibitor CDKN1B and TP53 rose.\n")}, o);
  REQUIRE(m.statements.size() == 5);
  const auto membership = [&](std::size_t i) {
    const auto it = m.statements[i].checks.find("membership");
    return it == m.statements[i].checks.end() ? std::string("(none)") : it->second;
  };
  CHECK(membership(0) == "famplex");
  CHECK(m.statements[0].status == "valid");
  CHECK(membership(1) == "not_in_famplex");  // (TP53 is no CDKN by FamPlex)
  CHECK(m.statements[1].status == "flagged");
  CHECK(std::find(m.statements[1].flags.begin(), m.statements[1].flags.end(), "membership") != m.statements[1].flags.end());
  CHECK(membership(2) == "not_a_family");  // (a protein is no group)
  CHECK(m.statements[2].status == "flagged");
  CHECK(membership(3) == "famplex");
  CHECK(m.statements[3].status == "valid");
  CHECK(membership(4) == "(none)");  // (not a membership statement)
  CHECK(grappi::to_json(m)["paragraphs"][0]["statements"][1]["checks"]["membership"] == "not_in_famplex");
}

TEST_CASE("A model run over more paragraphs than confirm_calls sends nothing unless a budget is given") {
  TempDir d;
  KnowledgeGraph kg(human_db(d));
  std::atomic<int> calls{0};
  grappi::CallbackModel model("counted", [&calls](const grappi::ChatRequest &) {
    ++calls;
    grappi::ChatResponse r;
    r.finish_reason = "stop";
    r.content = R"j({"statements": []})j";
    return r;
  });
  const std::vector<grappi::Document> docs{text_document("AKT1 activates MTOR in muscle.\n"),
                                           text_document("GRB2 activates SOS1 in cells.\n")};
  grappi::ExtractionOptions o;
  o.use_cache = false;
  o.confirm_calls = 1;
  CHECK_THROWS_WITH_AS(grappi::extract(kg, model, docs, o), doctest::Contains("could make 2 model calls"), grappi::Error);
  CHECK(calls.load() == 0);
  o.max_calls = 1;  // a budget given: the run goes ahead, stopped by it
  const ExtractionResult r = grappi::extract(kg, model, docs, o);
  CHECK(calls.load() == 1);
  CHECK_FALSE(r.budget.empty());
  grappi::ExtractiveModel offline;  // (the offline rule table makes no model calls)
  o.max_calls = 0;
  CHECK_NOTHROW(grappi::extract(kg, offline, docs, o));
}

TEST_CASE("A scripted model's statements are validated and repaired once or flagged or rejected with their reasons" * doctest::test_suite("threads")) {
  TempDir d;
  const std::string db = human_db(d);
  KnowledgeGraph kg(db);
  Scripted script;
  grappi::CallbackModel model("scripted", [&script](const grappi::ChatRequest &q) { return script.answer(q); });
  ExtractionOptions o;
  o.concurrency = 2;
  const grappi::Extractor extractor(kg, model, o);
  const ExtractionResult r = extractor.extract({text_document(kPaper)});
  CHECK_FALSE(r.offline);
  CHECK(script.calls == 3);  // two paragraphs and one repair turn
  CHECK(r.usage.model_calls == 3);
  REQUIRE(r.paragraphs.size() == 2);
  CHECK(r.paragraphs[0].status == "ok");
  CHECK(r.paragraphs[0].pmid == "12345");
  // Valid as written.
  const ExtractedStatement *phos = statement_of(r, "act(p(HGNC:AKT1)");
  REQUIRE(phos);
  CHECK(phos->status == "valid");
  CHECK(phos->origin == "model");
  CHECK(phos->canonical == "act(p(HGNC:AKT1), ma(kin)) increases p(HGNC:MTOR, pmod(Ph, Ser, 2448))");
  CHECK(phos->evidence_offset == std::optional<std::size_t>(0));
  // Repaired: the validator's message went back and the model's correction is valid.
  const ExtractedStatement *binding = statement_of(r, "complex(p(HGNC:GRB2)");
  REQUIRE(binding);
  CHECK(binding->status == "valid");
  CHECK(binding->origin == "repaired");
  CHECK(binding->original == "p(HGNC:GRB2) interacts p(HGNC:EGFR)");
  REQUIRE(binding->original_problems.size() == 1);
  CHECK(binding->original_problems[0].find("interacts") != std::string::npos);
  // An entity the paragraph does not name and an evidence it does not hold: flagged.
  const ExtractedStatement *kras = statement_of(r, "p(HGNC:EGFR) increases");
  REQUIRE(kras);
  CHECK(kras->status == "flagged");
  const std::vector<std::string> flags = {"ungrounded:HGNC:KRAS", "paraphrased_evidence"};
  std::vector<std::string> got = kras->flags;
  std::sort(got.begin(), got.end());
  std::vector<std::string> want = flags;
  std::sort(want.begin(), want.end());
  CHECK(got == want);
  CHECK_FALSE(kras->evidence_offset);
  // Not repairable: rejected with the validator's reason, never imported.
  const ExtractedStatement *bad = statement_of(r, "p(HGNC:AKT1) hasActivity");
  REQUIRE(bad);
  CHECK(bad->status == "rejected");
  CHECK(bad->canonical.empty());
  bool relation = false;
  for (const grappi::BelProblem &p : bad->problems) relation = relation || p.code == "unknown_relation";
  CHECK(relation);
  REQUIRE_FALSE(bad->original_problems.empty());
  CHECK(bad->original_problems.back() == "the repair turn gave no correction");
  // The second paragraph: a duplicate of the first statement across paragraphs, a term alone kept.
  const ExtractedStatement *dup = nullptr;
  for (const ExtractedStatement &s : r.statements)
    if (s.paragraph == 1 && s.bel.rfind("act(", 0) == 0) dup = &s;
  REQUIRE(dup);
  CHECK(dup->duplicate_of.has_value());
  CHECK(&r.statements[*dup->duplicate_of] == phos);
  const ExtractedStatement *term = statement_of(r, "p(HGNC:BRCA1)");
  REQUIRE(term);
  CHECK(term->status == "valid");
  CHECK(term->canonical == "p(HGNC:BRCA1)");

  SUBCASE("a second run answers from the cache") {
    const ExtractionResult again = extractor.extract({text_document(kPaper)});
    CHECK(script.calls == 3);
    CHECK(again.usage.model_calls == 0);
    CHECK(again.usage.cache_hits == 3);
    CHECK(canonical_of(again) == canonical_of(r));
    CHECK(canonical_of(again, "rejected").size() == 1);
  }
  SUBCASE("a call budget skips what it does not allow, and says so") {
    ExtractionOptions b = o;
    b.use_cache = false;
    b.max_calls = 1;
    b.concurrency = 1;
    const ExtractionResult cut = grappi::extract(kg, model, {text_document(kPaper)}, b);
    CHECK(script.calls == 4);
    CHECK(cut.paragraphs[0].status == "ok");
    CHECK(cut.paragraphs[1].status == "skipped");
    CHECK_FALSE(cut.budget.empty());
    CHECK(cut.usage.skipped == 1);
    // The repair turn was skipped too: the bad statements stay rejected and say why.
    const ExtractedStatement *b2 = statement_of(cut, "p(HGNC:GRB2) interacts");
    REQUIRE(b2);
    CHECK(b2->status == "rejected");
    REQUIRE_FALSE(b2->original_problems.empty());
    CHECK(b2->original_problems[0].find("skipped") != std::string::npos);
  }
  SUBCASE("no repair turn when asked") {
    ExtractionOptions n = o;
    n.repair = false;
    n.use_cache = false;
    const ExtractionResult plain = grappi::extract(kg, model, {text_document(kPaper)}, n);
    CHECK(script.calls == 5);
    CHECK(statement_of(plain, "p(HGNC:GRB2) interacts")->status == "rejected");
  }
  SUBCASE("a dry run plans the calls and sends none") {
    ExtractionOptions n = o;
    n.dry_run = true;
    const ExtractionResult plan = grappi::extract(kg, model, {text_document(kPaper)}, n);
    CHECK(script.calls == 3);
    CHECK(plan.dry_run);
    CHECK(plan.estimated_calls == 4);
    CHECK(plan.estimated_prompt_tokens > 400);
    CHECK(plan.statements.empty());
    CHECK(plan.paragraphs[0].status == "planned");
  }
}

TEST_CASE("Extracted statements go out as a BEL script and CX2 and a dataset that can be removed again" * doctest::test_suite("threads")) {
  TempDir d;
  const std::string db = human_db(d);
  KnowledgeGraph kg(db);
  Scripted script;
  grappi::CallbackModel model("scripted", [&script](const grappi::ChatRequest &q) { return script.answer(q); });
  const ExtractionResult r = grappi::extract(kg, model, {text_document(kPaper)});

  // The BEL script reads back without errors: the valid statements, one citation and evidence each.
  std::ostringstream bel;
  grappi::write_bel_script(bel, r);
  std::istringstream in(bel.str());
  const grappi::BelDocument doc = grappi::read_bel_script(in);
  CHECK(doc.errors() == 0);
  REQUIRE(doc.statements.size() == 5);  // (the duplicate included: a second piece of evidence)
  CHECK(doc.valid_statements() == 5);
  for (const auto &s : doc.statements) {
    REQUIRE(s.citation);
    CHECK(s.citation->type == "PubMed");
    CHECK(s.citation->id == "12345");
    CHECK_FALSE(s.evidence.empty());
  }
  CHECK(bel.str().find("KRAS") == std::string::npos);       // flagged: left out
  CHECK(bel.str().find("hasActivity") == std::string::npos);  // rejected: left out
  std::ostringstream with_flagged;
  grappi::write_bel_script(with_flagged, r, true);
  CHECK(with_flagged.str().find("KRAS") != std::string::npos);

  // CX2: the rules of CX2.md, and grappi's own CX2 importer reads it back as BEL.
  const json cx = grappi::to_cx2(r, "test network");
  REQUIRE(cx.is_array());
  CHECK(cx.front().value("CXVersion", "") == "2.0");
  std::set<int64_t> node_ids;
  json nodes, edges, network, style, declared;
  std::map<std::string, std::size_t> meta;
  for (const json &aspect : cx) {
    if (aspect.contains("nodes")) nodes = aspect["nodes"];
    if (aspect.contains("edges")) edges = aspect["edges"];
    if (aspect.contains("networkAttributes")) network = aspect["networkAttributes"][0];
    if (aspect.contains("visualProperties")) style = aspect["visualProperties"][0];
    if (aspect.contains("attributeDeclarations")) declared = aspect["attributeDeclarations"][0];
    if (aspect.contains("metaData"))
      for (const json &m : aspect["metaData"]) meta[m["name"]] = m["elementCount"];
  }
  CHECK(meta["nodes"] == nodes.size());
  CHECK(meta["edges"] == edges.size());
  for (const json &n : nodes) {
    CHECK(node_ids.insert(n["id"].get<int64_t>()).second);
    for (const auto &[k, v] : n["v"].items()) CHECK(declared["nodes"].contains(k));
  }
  std::set<std::string> interactions;
  for (const json &e : edges) {
    CHECK(node_ids.count(e["s"].get<int64_t>()));
    CHECK(node_ids.count(e["t"].get<int64_t>()));
    for (const auto &[k, v] : e["v"].items()) CHECK(declared["edges"].contains(k));
    CHECK(e["v"]["pmid"] == "12345");
    interactions.insert(e["v"]["interaction"]);
  }
  // The phosphorylation, and an edge between the two members of each valid complex (a
  // complex alone is no node: Cytoscape shows the binding between the proteins).
  std::set<std::string> complexes;
  for (const ExtractedStatement &s : r.statements)
    if (s.status == "valid" && s.canonical.rfind("complex(", 0) == 0) complexes.insert(s.canonical);
  REQUIRE(complexes.size() >= 2);
  CHECK(edges.size() == 1 + complexes.size());
  CHECK(interactions == std::set<std::string>{"increases", "complex"});
  std::set<std::string> bound;
  for (const json &e : edges)
    if (e["v"]["interaction"] == "complex") {
      std::string a, b;
      for (const json &n : nodes) {
        if (n["id"] == e["s"]) a = n["v"]["name"];
        if (n["id"] == e["t"]) b = n["v"]["name"];
      }
      bound.insert("complex(" + std::min(a, b) + ", " + std::max(a, b) + ")");
      CHECK(complexes.count(e["v"]["bel_expression"].get<std::string>()) == 1);
    }
  CHECK(bound == complexes);
  for (const json &n : nodes) CHECK(n["v"]["name"].get<std::string>().rfind("complex(", 0) != 0);
  CHECK(network["name"] == "test network");
  CHECK(network["reference"] == "PMID:12345");
  CHECK(style["nodeMapping"]["NODE_SHAPE"]["type"] == "DISCRETE");
  CHECK(style["edgeMapping"]["EDGE_LINE_COLOR"]["definition"]["attribute"] == "interaction");
  bool labelled = false;
  for (const json &n : nodes)
    if (n["v"]["name"] == "p(HGNC:MTOR, pmod(Ph, Ser, 2448))") {
      labelled = true;
      CHECK(n["v"]["label"] == "p(MTOR, pmod(Ph, Ser, 2448))");  // (not cut at a parenthesis)
      CHECK(n["v"]["type"] == "p");
    }
  CHECK(labelled);
  write_file(d.file("out.cx2"), cx.dump());
  {
    TempDir other;
    KnowledgeGraph back(other.file("back.db"));
    const auto rep = back.import({{d.file("out.cx2"), "cx2"}});
    CHECK(rep.files.at(0).edges_created >= 1);
  }

  // The import: one BEL dataset, joined to the STRING proteins, removable.
  const auto before = kg.stats();
  const grappi::FileReport f = grappi::import_extraction(kg, r, d.file("extract.bel"));
  CHECK(f.kind == "bel");
  CHECK(f.edges_created > 0);
  CHECK(f.rows_skipped == 0);
  const auto akt1 = kg.resolve("AKT1");
  bool represented = false;
  for (const auto &n : kg.snapshot()->neighbors(akt1))
    represented = represented || kg.snapshot()->relation_name(n.relation) == "bel.represents";
  CHECK(represented);
  // The phosphorylation's two occurrences are evidence records of its edge between the terms
  // and of the edge it makes between the proteins AKT1 -> MTOR; each complex of two stored
  // proteins joins them (bel.complex) with its one record; the term alone is a node.
  const std::string on_proteins = "SELECT count(*) FROM edge_evidence v JOIN edges e ON e.id = v.edge_id "
                                  "JOIN nodes s ON s.id = e.source JOIN relations r ON r.id = e.relation "
                                  "WHERE v.record LIKE '%12345%' AND s.label = 'Protein' AND r.name = ";
  CHECK(sql_count(db, "SELECT count(*) FROM edge_evidence v JOIN edges e ON e.id = v.edge_id JOIN nodes s ON s.id = "
                      "e.source WHERE v.record LIKE '%12345%' AND s.label = 'BelTerm'") == 2);
  CHECK(sql_count(db, on_proteins + "'bel.increases'") == 2);
  CHECK(sql_count(db, on_proteins + "'bel.complex'") == 2);
  bool literature = false;
  for (const auto &n : kg.snapshot()->neighbors(akt1))
    literature = literature || (kg.snapshot()->relation_name(n.relation) == "bel.increases" &&
                                kg.node(n.node)->name == "MTOR");
  CHECK(literature);
  kg.remove_dataset(f.dataset_id);
  CHECK(kg.stats().edges == before.edges);
  // Nothing valid: nothing to import.
  ExtractionResult empty = r;
  empty.statements.clear();
  CHECK_THROWS_AS(grappi::import_extraction(kg, empty, d.file("none.bel")), grappi::Error);
}

// A curator's review: every distinct statement in a file with a decision to change; the
// accepted ones (a flagged one the curator accepts included, a valid one rejected left out)
// come back as one BEL dataset; bad files are named by line and change nothing.
TEST_CASE("A review file round trip: the curator's decisions decide what is imported") {
  TempDir d;
  const std::string db = human_db(d);
  KnowledgeGraph kg(db);
  Scripted script;
  grappi::CallbackModel model("scripted", [&script](const grappi::ChatRequest &q) { return script.answer(q); });
  const ExtractionResult r = grappi::extract(kg, model, {text_document(kPaper)});
  std::ostringstream out;
  grappi::write_review(out, r);
  write_file(d.file("review.tsv"), out.str());
  std::vector<grappi::ReviewRow> rows = grappi::read_review(d.file("review.tsv"));
  std::size_t distinct = 0;
  for (const ExtractedStatement &s : r.statements) distinct += !s.duplicate_of;
  REQUIRE(rows.size() == distinct);
  std::size_t valid = 0;
  for (const grappi::ReviewRow &row : rows) {
    CHECK(row.decision == (row.status == "valid" ? "accept" : row.status == "rejected" ? "reject" : ""));
    CHECK(row.citation == "PMID:12345");
    CHECK(row.paragraph.rfind("PMID12345.md#", 0) == 0);
    if (row.status != "rejected") CHECK(row.checks.find("grammar=passed") != std::string::npos);
    valid += row.status == "valid";
  }
  REQUIRE(valid >= 2);
  // The curator accepts the flagged statement and rejects the first valid one.
  std::string edited;
  std::string rejected_statement, accepted_flagged;
  {
    std::istringstream in(out.str());
    bool rejected_one = false;
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("\tflagged\t", 0) == 0) {
        accepted_flagged = line.substr(9, line.find('\t', 9) - 9);
        line = "accept" + line;
      } else if (!rejected_one && line.rfind("accept\tvalid\t", 0) == 0) {
        rejected_statement = line.substr(13, line.find('\t', 13) - 13);
        line = "reject" + line.substr(6);
        rejected_one = true;
      }
      edited += line + "\n";
    }
  }
  REQUIRE(!accepted_flagged.empty());
  REQUIRE(!rejected_statement.empty());
  write_file(d.file("edited.tsv"), edited);
  const grappi::FileReport f = grappi::import_review(kg, d.file("edited.tsv"), d.file("accepted.bel"));
  CHECK(f.kind == "bel");
  CHECK(f.rows_skipped == 0);
  const std::string bel = read_file(d.file("accepted.bel"));
  CHECK(bel.find("SET ReviewedIn = \"edited.tsv\"") != std::string::npos);
  CHECK(bel.find("SET Citation = {\"PubMed\", \"PMID12345.md\", \"12345\"}") != std::string::npos);
  const auto imported = [&](const std::string &statement) {
    return sql_count(db, "SELECT count(*) FROM edge_evidence WHERE record LIKE '%" + statement.substr(0, 20) + "%'") > 0;
  };
  CHECK(imported(accepted_flagged));
  CHECK_FALSE(imported(rejected_statement));
  kg.remove_dataset(f.dataset_id);

  // Bad review files: named by file and line, nothing imported.
  const std::string before = fingerprint(db);
  const std::string head = "# comment\ndecision\tstatus\tstatement\tevidence\tcitation\tparagraph\tflags\tchecks\n";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"", "no review header"},
      {"decision\tstatement\n", ":1: expected the review header"},
      {head + "maybe\tvalid\tp(HGNC:AKT1)\te\tPMID:1\td#0\t\t\n", ":3: the decision is accept, reject or empty, found 'maybe'"},
      {head + "accept\tvalid\tp(HGNC:AKT1)\n", ":3: expected 8 tab-separated columns"},
      {head + "accept\tvalid\tp(HGNC:AKT1) increases\te\tPMID:1\td#0\t\t\n", ":3: the accepted statement"},
      {head + "accept\tvalid\t\te\tPMID:1\td#0\t\t\n", ":3: an accepted row without a statement"},
      {head + "reject\tvalid\tp(HGNC:AKT1)\te\tPMID:1\td#0\t\t\n", "no accepted statement"},
      {head + "accept\tvalid\tp(HGNC:AKT1)\te\xff\tPMID:1\td#0\t\t\n", ":3: not valid UTF-8"},
  };
  for (const auto &text_expect : bad) {
    CAPTURE(text_expect.second);
    write_file(d.file("bad.tsv"), text_expect.first);
    try {
      (void)grappi::import_review(kg, d.file("bad.tsv"), d.file("bad.bel"));
      FAIL("imported");
    } catch (const grappi::Error &e) {
      CHECK_MESSAGE(std::string(e.what()).find(text_expect.second) != std::string::npos, e.what());
      CHECK(std::string(e.what()).find(d.file("bad.tsv")) == 0);
    }
    CHECK(fingerprint(db) == before);
  }
}

// (heavy: a corpus slice over the whole knowledge base; the Release stage only)
TEST_CASE("Pair-level evaluation on the BioInfer slice counts gold and predicted pairs per sentence" * doctest::test_suite("heavy")) {
  KnowledgeGraph kg(kb_path());
  grappi::ExtractiveModel model;
  const auto docs = grappi::read_documents(lit("BioInfer-test.first6.xml"));
  std::size_t gold = 0;
  for (const Document &d : docs) gold += d.pairs.size();
  ExtractionOptions o;
  o.annotations_only = true;
  const ExtractionResult r = grappi::extract(kg, model, docs, o);
  // Only the corpus's entities: every mention is an annotation.
  for (const auto &p : r.paragraphs)
    for (const EntityMention &m : p.entities) CHECK(m.source != "dictionary");
  const grappi::ExtractionEvaluation e = grappi::evaluate_extraction(r, docs);
  CHECK(e.documents == docs.size());
  CHECK(e.gold_pairs == gold);
  CHECK(e.predicted_pairs > 0);
  CHECK(e.true_positives > 0);
  CHECK(e.true_positives <= e.predicted_pairs);
  CHECK(e.precision == doctest::Approx(double(e.true_positives) / double(e.predicted_pairs)));
  CHECK(e.recall == doctest::Approx(double(e.true_positives) / double(e.gold_pairs)));
  // `pairs` is every statement's (the figures above); `valid_pairs` the valid ones' only.
  CHECK(e.pairs.predicted_pairs == e.predicted_pairs);
  CHECK(e.pairs.f1 == doctest::Approx(e.f1));
  CHECK(e.valid_pairs.predicted_pairs <= e.pairs.predicted_pairs);
  CHECK(e.valid_pairs.true_positives <= e.pairs.true_positives);
  // The co-occurrence baseline: every pair of distinct annotated spans of each sentence
  // evaluated (counted here), which holds every gold pair of those sentences.
  std::size_t all_pairs = 0, gold_in_evaluated = 0;
  for (const auto &p : r.paragraphs)
    for (const Document &d : docs) {
      if (d.id != p.document) continue;
      std::set<std::pair<std::size_t, std::size_t>> spans;
      for (const auto &a : d.passages[p.passage].annotations) spans.insert({a.offset, a.length});
      all_pairs += spans.size() * (spans.size() - (spans.empty() ? 0 : 1)) / 2;
      for (const auto &g : d.pairs) gold_in_evaluated += g.passage == p.passage;
    }
  CHECK(e.cooccurrence.predicted_pairs == all_pairs);
  CHECK(e.cooccurrence.true_positives == gold_in_evaluated);
  CHECK(e.cooccurrence.recall >= e.recall);
  // The grounded baseline: the pairs of spans the extraction grounded (counted here); every
  // valid statement's pair is one of them.
  std::size_t grounded_pairs = 0;
  for (const auto &p : r.paragraphs) {
    std::set<std::pair<std::size_t, std::size_t>> spans;
    for (const EntityMention &m : p.entities)
      if (m.entity()) spans.insert({m.offset, m.length});
    grounded_pairs += spans.size() * (spans.size() - (spans.empty() ? 0 : 1)) / 2;
  }
  CHECK(e.grounded_cooccurrence.predicted_pairs == grounded_pairs);
  CHECK(e.grounded_cooccurrence.predicted_pairs < e.cooccurrence.predicted_pairs);
  CHECK(e.grounded_cooccurrence.true_positives >= e.valid_pairs.true_positives);
  const json ej = grappi::to_json(e);
  CHECK(ej["valid_pairs"]["predicted_pairs"] == e.valid_pairs.predicted_pairs);
  CHECK(ej["grounded_cooccurrence_baseline"]["predicted_pairs"] == grounded_pairs);
  CHECK(ej["cooccurrence_baseline"]["f1"].get<double>() == doctest::Approx(e.cooccurrence.f1));
  // An empty extraction predicts nothing and finds every gold pair missing.
  ExtractionResult none = r;
  none.statements.clear();
  const auto z = grappi::evaluate_extraction(none, docs);
  CHECK(z.predicted_pairs == 0);
  CHECK(z.gold_pairs == gold);
  CHECK(z.f1 == 0);
  CHECK(grappi::to_json(e)["f1"].get<double>() == doctest::Approx(e.f1));
}

TEST_CASE("The audit of textToKnowledgeGraph networks rejects their invalid BEL by reason") {
  const grappi::BelAudit a = grappi::audit_bel_cx2(data("cx2/llm_kg_pmid10436023_cell_cycle.cx2"));
  CHECK(a.statements > 50);
  CHECK(a.valid + a.rejected == a.statements);
  CHECK(a.rejected > 0);
  std::size_t by_reason = 0;
  for (const auto &[code, n] : a.errors) by_reason += n;
  CHECK(by_reason == a.rejected);
  for (const auto &[code, examples] : a.examples) {
    CHECK(a.errors.count(code));
    CHECK(examples.size() <= 3);
  }
  TempDir d;
  write_file(d.file("not.cx2"), "{\"nodes\": 1}");
  CHECK_THROWS_AS(grappi::audit_bel_cx2(d.file("not.cx2")), grappi::Error);
  CHECK_THROWS_AS(grappi::audit_bel_cx2(d.file("missing.cx2")), grappi::Error);
}

TEST_CASE("Extraction through an OpenAI-compatible server on loopback records garbage and errors per paragraph" *
          doctest::test_suite("threads")) {
  TempDir d;
  const std::string db = human_db(d);
  KnowledgeGraph kg(db);
  std::atomic<int> requests{0};
  std::mutex mu;
  std::string first_prompt;
  HttpServer s([&](const HttpRequest &r) {
    ++requests;
    const json body = json::parse(r.body);
    const std::string user = body["messages"][1]["content"].get<std::string>();
    HttpReply rep;
    std::string content;
    if (user.find("Ser2448") != std::string::npos) {
      std::lock_guard<std::mutex> lock(mu);
      first_prompt = user;
      content = "```json\n{\"statements\": [{\"bel\": \"act(p(HGNC:AKT1), ma(kin)) increases p(HGNC:MTOR, pmod(Ph, Ser, 2448))\", "
                "\"evidence\": \"AKT1 phosphorylates MTOR at Ser2448.\"}]}\n```";
    } else if (user.find("BRCA1") != std::string::npos) {
      content = "I cannot find any interactions, sorry.";  // (and again after the repair turn)
    } else {
      rep.status = 500;
      rep.body = "{\"error\": \"overloaded\"}";
      return rep;
    }
    rep.body = chat_reply(content, 120, 30);
    return rep;
  });
  grappi::OpenAIChatOptions mo;
  mo.base_url = s.base_url();
  mo.model = "test-chat";
  mo.timeout_seconds = 10;
  mo.max_retries = 0;
  grappi::OpenAIChatModel model(mo);
  const Document doc = text_document(
      "AKT1 phosphorylates MTOR at Ser2448.\n\nThe interaction between BRCA1 and BARD1 was confirmed.\n\n"
      "GRB2 binds EGFR after stimulation with EGF.\n");
  const ExtractionResult r = grappi::extract(kg, model, {doc});
  REQUIRE(r.paragraphs.size() == 3);
  CHECK(r.paragraphs[0].status == "ok");
  CHECK(r.paragraphs[1].status == "failed");
  CHECK(r.paragraphs[1].error.find("after a repair turn") != std::string::npos);
  CHECK(r.paragraphs[2].status == "failed");
  CHECK(r.paragraphs[2].error.find("500") != std::string::npos);
  CHECK(r.usage.failed == 2);
  CHECK(r.usage.model_calls == static_cast<std::size_t>(requests.load()));
  CHECK(r.usage.repairs == 1);
  CHECK(r.usage.prompt_tokens == 120 * static_cast<int64_t>(r.usage.model_calls) - 120);  // (the 500 has no usage)
  REQUIRE(r.statements.size() == 1);
  CHECK(r.statements[0].status == "valid");
  // The prompt gave the paragraph's grounded entities with their BEL terms.
  CHECK(first_prompt.find("- \"AKT1\": p(HGNC:AKT1) (AKT1, 9606.ENSP00000451828)") != std::string::npos);
  CHECK(first_prompt.find("PMID 12345") != std::string::npos);
}

TEST_CASE("HGNC symbols become identifiers when the database holds them" * doctest::test_suite("threads")) {
  TempDir d;
  const std::string db = d.file("kb.db");
  {
    KnowledgeGraph kg(db);
    write_file(d.file("aliases.tsv"),
               "#string_protein_id\talias\tsource\n"
               "9606.ENSP00000451828\tHGNC:391\tEnsembl_HGNC_hgnc_id\n"
               "9606.ENSP00000451828\tAKT1\tEnsembl_HGNC_symbol\n"
               "9606.ENSP00000451828\tPKB\tUniProt_GN_Synonym\n"
               "9606.ENSP00000354558\tHGNC:3942\tEnsembl_HGNC_hgnc_id\n"
               "9606.ENSP00000354558\tMTOR\tEnsembl_HGNC_symbol\n");
    // (and their STRING link: a short capital alias such as "PKB" stands for its gene in a paper
    // only with context, an edge to another entity of the passage)
    write_file(d.file("links.txt"), "protein1 protein2 combined_score\n9606.ENSP00000451828 9606.ENSP00000354558 900\n");
    kg.import({{data("9606.protein.info.v12.0.txt.gz")}, {d.file("aliases.tsv"), "aliases"}, {d.file("links.txt")}});
  }
  KnowledgeGraph kg(db);
  grappi::ExtractiveModel model;
  // PKB is AKT1's synonym: the dictionary finds it, the statement names AKT1 by its id.
  const ExtractionResult r = grappi::extract(kg, model, {text_document("PKB phosphorylates MTOR in muscle cells.\n")});
  REQUIRE(r.statements.size() == 1);
  const ExtractedStatement &s = r.statements[0];
  CHECK(s.status == "valid");
  CHECK(s.canonical == "act(p(HGNC:391 ! AKT1), ma(kin)) increases p(HGNC:3942 ! MTOR, pmod(Ph))");
  CHECK(s.mentions.size() == 2);
  CHECK(r.paragraphs[0].entities[0].text == "PKB");
  CHECK(r.paragraphs[0].entities[0].entity()->source == "UniProt_GN_Synonym");
  const json cx = grappi::to_cx2(r, "ids");
  std::set<std::string> urls;
  for (const json &aspect : cx)
    if (aspect.contains("nodes"))
      for (const json &n : aspect["nodes"])
        if (n["v"].contains("id")) urls.insert(n["v"]["id"]);
  CHECK(urls == std::set<std::string>{"https://identifiers.org/hgnc:391", "https://identifiers.org/hgnc:3942"});
}

TEST_CASE("Extraction parts saved and merged give the extraction of every part's documents") {
  TempDir dir;
  KnowledgeGraph kg(kb_path());
  grappi::ExtractiveModel model;
  ExtractionOptions o;
  o.entities.taxon = 9606;
  const Document a = text_document("AKT1 phosphorylates MTOR at Ser2448. GRB2 binds EGFR after stimulation.\n\n"
                                   "The interaction between BRCA1 and BARD1 was confirmed.\n", "PMID111.md");
  const Document b = text_document("MTOR is phosphorylated by AKT1 in muscle. SOS1 binds GRB2.\n", "PMID222.md");
  const Document ptc = grappi::read_documents(std::string(GRAPPI_TEST_DATA_DIR) + "/literature/PTC.PMC4272812.BioC.xml").at(0);
  const grappi::Extractor extractor(kg, model, o);
  const ExtractionResult one = extractor.extract({a, ptc, b});
  // Three parts, written and read back as another process would.
  std::vector<ExtractionResult> parts;
  int k = 0;
  for (const std::vector<Document> &docs : {std::vector<Document>{a}, std::vector<Document>{ptc}, std::vector<Document>{b}}) {
    const std::string f = dir.file("part" + std::to_string(k++));
    grappi::save_extraction(extractor.extract(docs), f, R"({"worker": 1})");
    std::string provenance;
    parts.push_back(grappi::load_extraction(f, &provenance));
    const json p = json::parse(provenance);
    CHECK(p["worker"] == 1);
    CHECK(p["grappi"].is_string());  // (every part says which grappi wrote it, and when)
    CHECK(p["written_at"].get<std::string>().size() == 20);
  }
  const ExtractionResult merged = grappi::merge_extractions(std::move(parts));
  json x = grappi::to_json(merged), y = grappi::to_json(one);
  x["usage"].erase("seconds");
  y["usage"].erase("seconds");
  CHECK(x == y);
  // The passive sentence of the third part is a duplicate of the first part's statement.
  const auto across = [&](const ExtractedStatement &st) {
    return st.duplicate_of && merged.paragraphs[st.paragraph].pmid == "222" &&
           merged.paragraphs[merged.statements[*st.duplicate_of].paragraph].pmid == "111" &&
           st.canonical.find("HGNC:MTOR") != std::string::npos;
  };
  CHECK(std::any_of(merged.statements.begin(), merged.statements.end(), across));
  std::ostringstream s1, s2;
  grappi::write_bel_script(s1, merged);
  grappi::write_bel_script(s2, one);
  CHECK(s1.str() == s2.str());
  CHECK(grappi::extraction_dataset_path("kb.db", merged) == grappi::extraction_dataset_path("kb.db", one));
  CHECK(grappi::merge_extractions({}).statements.empty());
  // Parts of another model do not merge.
  ExtractionResult other = extractor.extract({a});
  other.model = json{{"name", "another"}};
  CHECK_THROWS_WITH_AS(grappi::merge_extractions({extractor.extract({b}), other}), doctest::Contains("another model"), grappi::Error);
}

TEST_CASE("Damaged or foreign extraction parts are refused with the file named") {
  TempDir dir;
  KnowledgeGraph kg(kb_path());
  grappi::ExtractiveModel model;
  const ExtractionResult r = grappi::extract(kg, model, {text_document("AKT1 phosphorylates MTOR. MTOR is phosphorylated by AKT1.\n")});
  REQUIRE(r.statements.size() == 2);
  const std::string good = dir.file("good");
  grappi::save_extraction(r, good);
  std::ifstream in(good, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t body = text.find('\n', text.find('\n') + 1) + 1;
  const json header = json::parse(text.substr(text.find('\n') + 1, body - text.find('\n') - 2));
  json paragraph = json::parse(text.substr(body, text.find('\n', body) - body));
  const auto refused = [&](const std::string &name, const std::string &content, const std::string &message) {
    CAPTURE(name);
    write_file(dir.file(name), content);
    try {
      (void)grappi::load_extraction(dir.file(name));
      FAIL("accepted");
    } catch (const grappi::Error &e) {
      CHECK(e.code() == grappi::ErrorCode::parse);
      CHECK(std::string(e.what()).find(message) != std::string::npos);
      CHECK(std::string(e.what()).find(name) != std::string::npos);
    }
  };
  const std::string magic = "grappi-extraction 1\n";
  refused("empty", "", "not an extraction part");
  refused("bel", "SET DOCUMENT Name = \"x\"\n", "not an extraction part");
  refused("no-header", magic, "no header");
  refused("truncated", text.substr(0, body), "truncated");
  refused("bad-json", magic + header.dump() + "\n{\"document\":\n", "malformed");
  json wrong = paragraph;
  wrong["statements"][0]["mentions"] = {99};
  refused("mentions", magic + header.dump() + "\n" + wrong.dump() + "\n", "names an entity");
  wrong = paragraph;
  wrong["statements"][0]["duplicate_of"] = 1;
  refused("duplicate", magic + header.dump() + "\n" + wrong.dump() + "\n", "duplicate of no earlier");
  wrong = paragraph;
  wrong["entities"][0]["chosen"] = 42;
  refused("chosen", magic + header.dump() + "\n" + wrong.dump() + "\n", "chosen candidate");
  wrong = paragraph;
  wrong["entities"][0]["offset"] = 100000;
  refused("outside", magic + header.dump() + "\n" + wrong.dump() + "\n", "outside its paragraph");
  wrong = paragraph;
  wrong["statements"][0]["problems"] = json::array({{{"severity", "fatal"}, {"code", "x"}, {"offset", 0}, {"message", ""}}});
  refused("severity", magic + header.dump() + "\n" + wrong.dump() + "\n", "severity 'fatal'");
  // Counts and offsets are integers: a float (huge, negative or whole) is refused, never converted.
  json floats = header;
  floats["usage"]["model_calls"] = 5.5e52;
  refused("float-count", magic + floats.dump() + "\n" + paragraph.dump() + "\n", "expected an integer in range");
  floats = header;
  floats["documents"] = 1.0;
  refused("whole-float", magic + floats.dump() + "\n" + paragraph.dump() + "\n", "expected an integer in range");
  wrong = paragraph;
  wrong["entities"][0]["chosen"] = -1e30;
  refused("negative-float", magic + header.dump() + "\n" + wrong.dump() + "\n", "expected an integer in range");
  wrong = paragraph;
  wrong["statements"][0]["mentions"] = {0, 1e300};
  refused("float-mention", magic + header.dump() + "\n" + wrong.dump() + "\n", "expected an integer in range");
  wrong = paragraph;
  wrong["entities"][0]["offset"] = -3;
  refused("negative-offset", magic + header.dump() + "\n" + wrong.dump() + "\n", "expected an integer in range");
  CHECK_THROWS_AS(grappi::load_extraction(dir.file("missing")), grappi::Error);
  CHECK_THROWS_WITH_AS(grappi::save_extraction(r, dir.file("x"), "[]"), doctest::Contains("JSON object"), grappi::Error);
  CHECK_FALSE(std::ifstream(dir.file("x")));
}

TEST_CASE("A long form naming a class by a letter leaves its short form to the linker") {
  // "protein kinase B (PKB)": every word but the letter is a word of many genes' names, so the
  // long form does not choose among PKB's candidates by shared words (PTK2B's "protein tyrosine
  // kinase 2 beta" shares two); PKB is linked as alone (FamPlex's AKT in the full database).
  TempDir dir;
  KnowledgeGraph kg(human_db(dir));
  for (int i = 0; i < 20; ++i) {
    const std::string name = "PKX" + std::to_string(i);
    kg.add_alias(add_protein(kg, name.c_str(), {}), "protein kinase family member " + std::to_string(i), "mapping:gene_name");
  }
  kg.add_alias(add_protein(kg, "PTK2X", {"PKB"}), "protein tyrosine kinase 2 beta", "mapping:gene_name");
  kg.add_alias(add_protein(kg, "SHHX", {"Shh"}), "sonic hedgehog signaling molecule", "mapping:gene_name");
  const EntityTagger tagger(kg);
  const Document d =
      abstract_paper("In human cells, protein kinase B (PKB) and sonic hedgehog (Shh) rose; the protein kinase 7 (PKS7) did not.", "8");
  const grappi::PaperContext ctx = tagger.read_paper(d);
  std::map<std::string, std::string> meaning;
  for (const grappi::Abbreviation &a : ctx.abbreviations) meaning[a.short_form] = a.meaning;
  CHECK(meaning["PKB"] == "undecided");
  CHECK(meaning["Shh"] == "entity");   // (a long form with a rare word still chooses)
  // (a number names one gene, no class; a protein's name the database lacks leaves the short form
  // to the linker, which knows no PKS7)
  CHECK(meaning["PKS7"] == "undecided");
  for (const EntityMention &m : tagger.tag(d.passages[0], ctx)) CHECK(m.text != "PKS7");
}

TEST_CASE("A Greek letter spelled apart joins a name with that letter beside a word written as a name") {
  // "A beta" is amyloid beta (FamPlex's "Abeta"), as resolve reads it, not SUCLA2's NCBI alias
  // A-BETA; "a beta subunit" in small letters is running text; "The gamma" is no THEG (whose key
  // "theg" it matches with gamma as its initial).
  TempDir dir;
  KnowledgeGraph kg(human_db(dir));
  kg.add_alias(kg.lookup("APP").id, "Abeta", "famplex:grounding_map");
  kg.add_alias(kg.lookup("SUCLA2").id, "A-BETA", "mapping:alias_symbols");
  const EntityTagger tagger(kg);
  const Document d = abstract_paper("In human brain, A beta rose. The gene encodes a beta subunit. The gamma chain bound THEG.");
  const auto ms = tagger.tag(d.passages[0], tagger.read_paper(d));
  REQUIRE(find(ms, "A beta"));
  REQUIRE(find(ms, "A beta")->entity());
  CHECK(find(ms, "A beta")->entity()->name == "APP");
  CHECK(kg.lookup("A beta").id == find(ms, "A beta")->entity()->node);
  CHECK_FALSE(find(ms, "a beta"));
  CHECK_FALSE(find(ms, "The gamma"));
  REQUIRE(find(ms, "THEG"));
}

TEST_CASE("A long form numbering a series chooses no candidate numbered otherwise") {
  // NCBI's table gives "LAT3" to SLC43A1, SLC7A7 and SLC7A6; "L-type amino acid transporter 3
  // (LAT3)" shares three words with SLC7A7's "Y+L amino acid transporter 1" (STRING's name), but
  // numbers the transporters otherwise: it does not choose SLC7A7 (SLC43A1 in the full database,
  // through its other names). An agreeing number still chooses, and a number of another series
  // ("phosphatase-1" against "non-receptor type 6") does not stand in the way.
  TempDir dir;
  KnowledgeGraph kg(human_db(dir));
  for (const char *gene : {"SLC43A1", "SLC7A7", "SLC7A6"}) kg.add_alias(kg.lookup(gene).id, "LAT3", "mapping:alias_symbols");
  for (const char *gene : {"SLC7A5", "SLC7A7", "LAT"}) kg.add_alias(kg.lookup(gene).id, "LAT1", "mapping:alias_symbols");
  kg.add_alias(kg.lookup("PTPN6").id, "SHP-1", "mapping:alias_symbols");
  const EntityTagger tagger(kg);
  const auto meaning_of = [&](const std::string &text) {
    const grappi::PaperContext ctx = tagger.read_paper(abstract_paper(text));
    REQUIRE(ctx.abbreviations.size() == 1);
    const grappi::Abbreviation &a = ctx.abbreviations[0];
    return a.meaning + (a.entity ? " " + a.entity->name : std::string());
  };
  CHECK(meaning_of("In human cells, L-type amino acid transporter 3 (LAT3) took up leucine.") == "undecided");
  CHECK(meaning_of("In human cells, the leucine amino acid transporter 1 (LAT1) took up arginine.") == "entity SLC7A7");
  CHECK(meaning_of("In human cells, Src homology 2 domain-containing protein tyrosine phosphatase-1 (SHP-1) "
                   "bound STAT3.") == "entity PTPN6");
}

TEST_CASE("A paper's organism comes from its words and the abbreviations it defines from their long forms") {
  // What a text says of organisms: species, common names, strains, cell lines, SGD's style; not
  // the animal an antibody came from, nor a method's or an expression host's.
  auto o = grappi::organisms_in_text(
      "Rad53p and Mec1p in Saccharomyces cerevisiae: budding yeast cells (S. cerevisiae) were lysed; a mouse "
      "anti-HA antibody, rabbit polyclonal serum, a yeast two-hybrid screen and Xenopus oocytes were used; HeLa cells.");
  REQUIRE(o.size() == 2);
  CHECK(o[0].taxon == 4932);
  CHECK(o[0].name == "Saccharomyces cerevisiae");
  CHECK(o[0].count == 5);  // (Rad53p, Mec1p, the species, "budding yeast" once, S. cerevisiae)
  CHECK(o[0].cues == std::vector<std::string>{"Saccharomyces cerevisiae", "budding yeast", "S. cerevisiae", "Rad53p", "Mec1p"});
  CHECK(o[1].taxon == 9606);
  CHECK(o[1].cues == std::vector<std::string>{"HeLa"});
  CHECK(grappi::organisms_in_text("C57BL/6 mice and NIH 3T3 cells").at(0).count == 3);
  CHECK(grappi::organisms_in_text("The p53 protein and MDM2 in tumours.").empty());
  // Rat and mouse cell lines; not a line that hosts other organisms' genes (Ba/F3).
  const auto lines = grappi::organisms_in_text("SGK2 mRNA in H4IIE cells and SGK3 mRNA in Rat2 fibroblasts; L929 cells.");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].taxon == 10116);
  CHECK(lines[0].count == 2);
  CHECK(lines[1].taxon == 10090);
  CHECK(grappi::organisms_in_text("Ba/F3 cells expressing the fusion.").empty());
  // Mice that host another organism's cells (xenografts) are not the organism of the paper's genes.
  CHECK(grappi::organisms_in_text("Tumours grew in athymic nude mice, in NOD/SCID mice, in BALB/c nude mice and in "
                                  "immunodeficient mice; a mouse xenograft model.")
            .empty());
  CHECK(grappi::organisms_in_text("Tumours grew in knockout mice and in nude mice.").at(0).count == 1);
  // ... but the grafted cells' organism is: "human xenografts", "xenografted human tumours".
  const auto grafted = grappi::organisms_in_text("Human xenografts and xenografted human tumours grew in nude mice.");
  REQUIRE(grafted.size() == 1);
  CHECK(grafted[0].taxon == 9606);
  CHECK(grafted[0].count == 2);
  // A model organism a gene is compared with is not the paper's (GNormPlus's human papers on the
  // homologues of fly, worm and yeast genes), but "orthologues of human MAP9" still name human genes.
  CHECK(grappi::organisms_in_text("The vertebrate homologues of Drosophila dachsund, DACH1 and DACH2, bind Smad4; the "
                                  "human homologue of mouse Ly9; homology to yeast SDS3; human orthologs of yeast "
                                  "Vps26; conserved from yeast to man. A CIR homolog is encoded by C. elegans.")
            .empty());
  const auto cells = grappi::organisms_in_text("In human cells the homologue of Drosophila dachsund binds Smad4.");
  REQUIRE(cells.size() == 1);
  CHECK(cells[0].taxon == 9606);
  const auto worms = grappi::organisms_in_text("In the nematode C. elegans we find orthologues of human MAP9 and YAP.");
  REQUIRE(worms.size() == 2);
  CHECK(worms[0].taxon == 6239);
  CHECK(worms[1].taxon == 9606);
  // (the word before a cue in another clause or sentence compares nothing)
  CHECK(grappi::organisms_in_text("It is a homologue. Drosophila larvae grew.").size() == 1);
  CHECK(grappi::organism_name(10090) == "Mus musculus");
  CHECK(grappi::organism_name(1).empty());

  // Abbreviations, the Schwartz–Hearst way, either way round; parentheses of other kinds are not.
  const auto a = grappi::abbreviations_in_text(
      "Lipopolysaccharide (LPS) induced the epithelial-mesenchymal transition (EMT) and tumor necrosis factor "
      "alpha (TNF-α; 10 ng/ml). HCC (hepatocellular carcinoma) cells, hepatocellular carcinomas (HCCs) again, a "
      "rise (see below), n (n = 12), (p < 0.05), Smith (2001), the LPS (LPS) and lipopolysaccharide (LPS).");
  std::map<std::string, std::string> got;
  for (const auto &x : a) got[x.short_form] = x.long_form;
  CHECK(got == std::map<std::string, std::string>{{"LPS", "Lipopolysaccharide"},
                                                  {"EMT", "epithelial-mesenchymal transition"},
                                                  {"TNF-α", "tumor necrosis factor alpha"},
                                                  {"HCC", "hepatocellular carcinoma"},
                                                  {"HCCs", "hepatocellular carcinomas"}});
  CHECK(a[0].offset == 20);
  CHECK(a[0].meaning.empty());  // (not yet asked of a database)

  // A database of human proteins: genes whose aliases papers also use for other things.
  TempDir dir;
  KnowledgeGraph kg(human_db(dir));
  add_protein(kg, "IRFX", {"LPS"});          // (as IRF6's alias "LPS" in NCBI's table)
  add_protein(kg, "ITKX", {"EMT"});
  add_protein(kg, "MAGEX", {"DAMAGE"});
  kg.add_alias(kg.lookup("MAPK3").id, "ERK1", "mapping:alias_symbols");
  kg.add_alias(kg.lookup("MAPK1").id, "ERK2", "mapping:alias_symbols");
  const int64_t cd5x = add_protein(kg, "CD5X", {"AIM"});
  add_protein(kg, "TSHX", {"CAA"});
  add_protein(kg, "SDSX", {"SDS"});   // (as SDS, serine dehydratase)
  add_protein(kg, "CD48X", {"BLAST"});  // (as CD48's alias)
  interact(kg, cd5x, kg.lookup("TP53").id);
  const EntityTagger tagger(kg);
  REQUIRE(tagger.organism() == 9606);
  // A human paper: LPS and EMT are what the paper defines them as; Shh is SHH; "damage" in lower case is the English word; "ERK1/2" is two; "Ca2+" is an ion.
  Document d = abstract_paper(
      "In human cells, lipopolysaccharide (LPS) caused damage and the epithelial-mesenchymal transition (EMT); "
      "LPS and EMT rose, sonic hedgehog (Shh) and Shh signalling, ERK1/2 and Ca2+ with TP53.");
  grappi::PaperContext ctx = tagger.read_paper(d);
  CHECK(ctx.taxon == 9606);
  CHECK(ctx.organism_source == "text");
  CHECK(ctx.held);
  REQUIRE(ctx.abbreviations.size() == 3);
  CHECK(ctx.abbreviations[0].meaning == "no_entity");
  CHECK(ctx.abbreviations[1].meaning == "no_entity");
  CHECK(ctx.abbreviations[2].meaning == "entity");
  CHECK(ctx.abbreviations[2].entity->name == "SHH");
  auto ms = tagger.tag(d.passages[0], ctx);
  for (const char *lps : {"LPS", "EMT"}) {
    CAPTURE(lps);
    REQUIRE(find(ms, lps));
    CHECK(find(ms, lps)->status == "ungrounded");
    CHECK(find(ms, lps)->reason.find("the paper defines") != std::string::npos);
    CHECK(find(ms, lps, find(ms, lps)->offset + 1)->status == "ungrounded");
  }
  CHECK_FALSE(find(ms, "damage"));
  REQUIRE(find(ms, "Shh"));
  CHECK(find(ms, "Shh")->entity()->name == "SHH");
  std::vector<std::string> pair;
  for (const EntityMention &m : ms)
    if (m.text == "ERK1/2" && m.entity()) pair.push_back(m.entity()->name);
  CHECK(pair == std::vector<std::string>{"MAPK3", "MAPK1"});
  CHECK_FALSE(find(ms, "Ca2"));
  CHECK(find(ms, "TP53")->entity()->name == "TP53");
  // A name before a domain's, a likeness's, a method's, a family's or an unnamed receptor's word
  // is not the protein ("C2 domain", "Src homology 2", "EGF-like", "SDS-PAGE", "BLAST searches").
  const Document domains = abstract_paper("In human cells, the TP53 domain, TP53 homology 2, TP53-like proteins, the TP53 family, "
                                    "a TP53 receptor, SDS-PAGE, BLAST searches and MAPK1 itself.");
  ms = tagger.tag(domains.passages[0], tagger.read_paper(domains));
  CHECK_FALSE(find(ms, "TP53"));
  CHECK_FALSE(find(ms, "SDS"));
  CHECK_FALSE(find(ms, "BLAST"));
  // A defined short form that is an official symbol with a number names that gene too, whatever the
  // long form names; a symbol of letters alone is what the paper defines it as.
  const Document diseases = abstract_paper("In human patients with neurofibromatosis type 1 (NF1) and coronary artery disease (CAD), "
                                     "NF1 mutations and CAD risk.");
  const grappi::PaperContext dctx = tagger.read_paper(diseases);
  REQUIRE(dctx.abbreviations.size() == 2);
  CHECK(dctx.abbreviations[0].meaning == "undecided");
  CHECK(dctx.abbreviations[1].meaning == "no_entity");
  const auto dms = tagger.tag(diseases.passages[0], dctx);
  REQUIRE(find(dms, "NF1"));
  REQUIRE(find(dms, "NF1")->entity());
  CHECK(find(dms, "NF1")->entity()->name == "NF1");
  REQUIRE(find(dms, "CAD"));
  CHECK(find(dms, "CAD")->status == "ungrounded");
  REQUIRE(find(ms, "MAPK1"));
  CHECK(find(ms, "MAPK1")->entity()->name == "MAPK1");
  // A short capital alias the paper does not define stands for its gene only with context: an
  // edge to another entity the passage settles (AIM beside TP53; CAA alone is not TSHX).
  const Document short_aliases = abstract_paper("In human serum, AIM and TP53 rose; CAA did not.");
  ms = tagger.tag(short_aliases.passages[0], tagger.read_paper(short_aliases));
  CHECK(find(ms, "AIM")->entity()->name == "CD5X");
  REQUIRE(find(ms, "CAA"));
  CHECK(find(ms, "CAA")->status == "ambiguous");
  CHECK_FALSE(find(ms, "CAA")->chosen);
  CHECK(find(ms, "CAA")->reason.find("a short alias needs context") != std::string::npos);
  // ... or the word after it saying it is a gene or its product ("CAA mRNA", "CAA-deficient").
  for (const char *written : {"In human serum, CAA mRNA rose.", "In human cells, CAA-deficient clones grew."}) {
    CAPTURE(written);
    const Document d2 = abstract_paper(written);
    ms = tagger.tag(d2.passages[0], tagger.read_paper(d2));
    REQUIRE(find(ms, "CAA"));
    CHECK(find(ms, "CAA")->entity()->name == "TSHX");
  }
  {
    const Document d2 = abstract_paper("In human serum, CAA assays and CAA staining rose.");
    ms = tagger.tag(d2.passages[0], tagger.read_paper(d2));
    REQUIRE(find(ms, "CAA"));
    CHECK(find(ms, "CAA")->status == "ambiguous");
  }
  // Without the paper's context the aliases and the lower-case word are taken (tag(passage)).
  ms = tagger.tag(d.passages[0]);
  CHECK(find(ms, "LPS")->entity()->name == "IRFX");

  // The organism before a word saying what the name is of: "the C. elegans homolog X" is the
  // worm's gene, not the human namesake; "the human homologue MAPK1" is human.
  {
    const Document hd = abstract_paper("In human cells, TP53 binds the Caenorhabditis elegans homolog MAPK1 and the yeast "
                                 "gene MAPK3; the human homologue MAPK1.");
    const auto hms = tagger.tag(hd.passages[0], tagger.read_paper(hd));
    REQUIRE(find(hms, "MAPK1"));
    CHECK(find(hms, "MAPK1")->status == "other_organism");
    REQUIRE(find(hms, "MAPK3"));
    CHECK(find(hms, "MAPK3")->status == "other_organism");
    const EntityMention *human = find(hms, "MAPK1", find(hms, "MAPK1")->offset + 1);
    REQUIRE(human);
    REQUIRE(human->entity());
    CHECK(human->entity()->name == "MAPK1");
  }
  // An "h" for human before a name: that name's human protein, also in a paper read as mouse; the
  // name keeps its own rules ("hCAA" is a short alias without context).
  {
    const Document hd = abstract_paper("In knockout mice and mouse cells, hMAPK1 and hCAA were expressed with Mapk3.");
    const grappi::PaperContext hctx = tagger.read_paper(hd);
    CHECK(hctx.taxon == 10090);
    const auto hms = tagger.tag(hd.passages[0], hctx);
    REQUIRE(find(hms, "hMAPK1"));
    REQUIRE(find(hms, "hMAPK1")->entity());
    CHECK(find(hms, "hMAPK1")->entity()->name == "MAPK1");
    REQUIRE(find(hms, "hCAA"));
    CHECK(find(hms, "hCAA")->status == "ambiguous");
    REQUIRE(find(hms, "Mapk3"));
    CHECK(find(hms, "Mapk3")->status == "other_organism");
  }

  // A paper about mice on a human database: no human namesake, but a protein named human is.
  d = abstract_paper("Knockout mice lacking Akt1 (mouse) and TP53, with human TP53 expressed, in C57BL/6 mice.");
  ctx = tagger.read_paper(d);
  CHECK(ctx.taxon == 10090);
  CHECK(ctx.organism_name == "Mus musculus");
  CHECK_FALSE(ctx.held);
  REQUIRE_FALSE(ctx.organisms.empty());
  CHECK(ctx.organisms[0].count == 4);  // (knockout mice, mouse, C57BL/6, mice)
  ms = tagger.tag(d.passages[0], ctx);
  REQUIRE(find(ms, "TP53"));
  CHECK(find(ms, "TP53")->status == "other_organism");
  CHECK(find(ms, "TP53")->reason.find("Mus musculus") != std::string::npos);
  CHECK(find(ms, "TP53")->reason.find("mice") != std::string::npos);
  const EntityMention *named = find(ms, "TP53", find(ms, "TP53")->offset + 1);
  REQUIRE(named);
  CHECK(named->entity()->name == "TP53");
  // A paper naming "human" at least half as often as mice, on a human database: human.
  CHECK(tagger.read_paper(abstract_paper("Mice and human cells; mice.")).taxon == 9606);
  CHECK(tagger.read_paper(abstract_paper("Mice, mice and human cells; mice.")).taxon == 10090);
  // Read as human, a paper that names mice too: a symbol written as mouse symbols are ("Tp53") is the mouse gene.
  d = abstract_paper("In human cells and in mice, Tp53 and TP53 rose.");
  ctx = tagger.read_paper(d);
  REQUIRE(ctx.taxon == 9606);
  ms = tagger.tag(d.passages[0], ctx);
  REQUIRE(find(ms, "Tp53"));
  CHECK(find(ms, "Tp53")->status == "other_organism");
  CHECK(find(ms, "Tp53")->reason.find("Mus musculus") != std::string::npos);
  CHECK(find(ms, "TP53")->entity()->name == "TP53");
  // A sentence naming one organism, not the paper's, gives its genes that organism; one naming
  // two, or none, leaves them the paper's.
  d = abstract_paper("Human cells and patients were studied. TP53 rose in human cells. In mice, MAPK1 fell. "
               "MAPK3 rose in mice and in human cells. S. cerevisiae was not used; MAPK1 was.");
  ctx = tagger.read_paper(d);
  REQUIRE(ctx.taxon == 9606);
  ms = tagger.tag(d.passages[0], ctx);
  CHECK(find(ms, "TP53")->entity()->name == "TP53");
  REQUIRE(find(ms, "MAPK1"));
  CHECK(find(ms, "MAPK1")->status == "other_organism");
  CHECK(find(ms, "MAPK1")->reason.find("its sentence, which names Mus musculus only ('mice')") != std::string::npos);
  CHECK(find(ms, "MAPK3")->entity()->name == "MAPK3");
  REQUIRE(find(ms, "MAPK1", find(ms, "MAPK1")->offset + 1));
  CHECK(find(ms, "MAPK1", find(ms, "MAPK1")->offset + 1)->status == "other_organism");  // ("S." ends no sentence)
  d = abstract_paper("Mice, mice and knockout mice. RSV-infected A549 cells release TP53.");
  ctx = tagger.read_paper(d);
  REQUIRE(ctx.taxon == 10090);
  ms = tagger.tag(d.passages[0], ctx);
  REQUIRE(find(ms, "TP53"));
  REQUIRE(find(ms, "TP53")->entity());
  CHECK(find(ms, "TP53")->entity()->name == "TP53");
  d = abstract_paper("In human cells, Tp53 rose.");  // (no rodent named: the human gene)
  REQUIRE(find(tagger.tag(d.passages[0], tagger.read_paper(d)), "Tp53"));
  CHECK(find(tagger.tag(d.passages[0], tagger.read_paper(d)), "Tp53")->entity()->name == "TP53");
  // No organism named: the database's; --taxon, when given, over what the text says.
  CHECK(tagger.read_paper(abstract_paper("TP53 binds MDM2.")).organism_source == "database");
  grappi::EntityTaggerOptions to;
  to.taxon = 9606;
  const EntityTagger stated(kg, to);
  ctx = stated.read_paper(abstract_paper("In mice, TP53 binds MDM2."));
  CHECK(ctx.taxon == 9606);
  CHECK(ctx.organism_source == "taxon_option");
  REQUIRE(find(stated.tag(abstract_paper("In mice, TP53 binds MDM2.").passages[0], ctx), "TP53")->entity());  // (nor its sentence)
  CHECK(find(stated.tag(abstract_paper("In mice, TP53 binds MDM2.").passages[0], ctx), "TP53")->entity()->name == "TP53");

  // The extraction's JSON says per paper what it read, and a part keeps it.
  ExtractionOptions xo;
  xo.min_passage_chars = 1;
  const ExtractionResult r = grappi::extract(kg, {abstract_paper("In mice, lipopolysaccharide (LPS) raised TP53.")}, xo);
  REQUIRE(r.papers.size() == 1);
  const json j = grappi::to_json(r);
  REQUIRE(j.at("papers").size() == 1);
  CHECK(j["papers"][0]["organism"]["taxon"] == 10090);
  CHECK(j["papers"][0]["organism"]["held"] == false);
  CHECK(j["papers"][0]["organism"]["evidence"][0]["cues"] == json::array({"mice"}));
  CHECK(j["papers"][0]["abbreviations"][0]["short_form"] == "LPS");
  CHECK(j["papers"][0]["abbreviations"][0]["meaning"] == "no_entity");
  const std::string part = dir.file("part.jsonl");
  grappi::save_extraction(r, part);
  CHECK(grappi::to_json(grappi::load_extraction(part)).at("papers") == j.at("papers"));
}

TEST_CASE("Names written with one stem for several are each gene but a quantity after a name is not") {
  TempDir dir;
  KnowledgeGraph kg(human_db(dir));
  kg.add_alias(kg.lookup("INVS").id, "NPHP2", "mapping:alias_symbols");
  kg.add_alias(kg.lookup("SMAD9").id, "SMAD8", "mapping:alias_symbols");
  const EntityTagger tagger(kg);
  const Document d = text_document(
      "In human kidney, NPHP1-4 mutations; SMADs 1, 5 and 8 bind HDACs 1 and 2; MMP-2 and -9 and STAT1/3 rose. "
      "In 40 patients, IL6 and 10 patients; SMAD2 and 1.5 and SMAD3 and 5% and SMAD4, 6 of them; NPHP3-4 and "
      "SMAD1 to SMAD3.");
  const auto ms = tagger.tag(d.passages[0], tagger.read_paper(d));
  const auto names_of = [&](const std::string &text) {
    std::vector<std::string> out;
    for (const EntityMention &m : ms)
      if (m.text == text && m.entity()) out.push_back(m.entity()->name);
    return out;
  };
  using V = std::vector<std::string>;
  // A range from 1 ("NPHP1-4"), a list closed by "and", a plural stem, the stem's hyphen again, a slash.
  CHECK(names_of("NPHP1-4") == V{"NPHP1", "INVS", "NPHP3", "NPHP4"});
  CHECK(names_of("SMADs 1, 5 and 8") == V{"SMAD1", "SMAD5", "SMAD9"});
  CHECK(names_of("HDACs 1 and 2") == V{"HDAC1", "HDAC2"});
  CHECK(names_of("MMP-2 and -9") == V{"MMP2", "MMP9"});
  CHECK(names_of("STAT1/3") == V{"STAT1", "STAT3"});
  // A count of things, a decimal, a percentage after the name; a list never closed by "and".
  CHECK(names_of("IL6") == V{"IL6"});
  CHECK(names_of("SMAD2") == V{"SMAD2"});
  CHECK(names_of("SMAD3") == V{"SMAD3"});
  CHECK(names_of("SMAD4") == V{"SMAD4"});
  for (const EntityMention &m : ms) {
    CAPTURE(m.text);
    CHECK(m.text.find("10") == std::string::npos);
    CHECK(m.text.find("1.5") == std::string::npos);
  }
  // A hyphen between two numbers is a range only from 1 ("NPHP3-4" is no NPHP34, nor a range);
  // " to " is a range from any number, the stem written again.
  CHECK(names_of("NPHP3-4").empty());
  CHECK(names_of("SMAD1 to SMAD3") == V{"SMAD1", "SMAD2", "SMAD3"});
}

TEST_CASE("Short capital aliases in small letters and units after numbers and numbered classes are not genes") {
  TempDir dir;
  KnowledgeGraph kg(human_db(dir));
  const int64_t cntx = add_protein(kg, "CNTX", {"TAX"});  // (as CNTN2's alias TAX in NCBI's table)
  kg.add_alias(kg.lookup("DNMT1").id, "DNA methyltransferase 1", "mapping:gene_name");
  kg.add_alias(kg.lookup("DNMT3A").id, "DNA methyltransferase 3 alpha", "mapping:gene_name");
  interact(kg, cntx, kg.lookup("TP53").id);
  const EntityTagger tagger(kg);
  const Document d = text_document(
      "In human T cells, HTLV-1 Tax binds TP53 and TAX binds TP53; a 2 Mb region and a 50-kDa band; "
      "DNA methyltransferase activity and DNA methyltransferase 1 with MYC and Myc.");
  const auto ms = tagger.tag(d.passages[0], tagger.read_paper(d));
  // "Tax" is HTLV-1's protein, not CNTX's alias TAX; TAX in capitals is the alias (with TP53 beside it).
  CHECK_FALSE(find(ms, "Tax"));
  REQUIRE(find(ms, "TAX"));
  REQUIRE(find(ms, "TAX")->entity());
  CHECK(find(ms, "TAX")->entity()->name == "CNTX");
  // A gene's own symbol in small letters stays the gene.
  REQUIRE(find(ms, "Myc"));
  REQUIRE(find(ms, "Myc")->entity());
  CHECK(find(ms, "Myc")->entity()->name == "MYC");
  // Megabases are no myoglobin (MB).
  CHECK_FALSE(find(ms, "Mb"));
  // "DNA methyltransferase" without its number is the class: DNMT1 has a sibling numbered 3, whose
  // number stands inside its name.
  CHECK_FALSE(find(ms, "DNA methyltransferase"));
  REQUIRE(find(ms, "DNA methyltransferase 1"));
  CHECK(find(ms, "DNA methyltransferase 1")->entity()->name == "DNMT1");
}

TEST_CASE("A defined short form whose long form reads as a protein the database lacks is left to the linker") {
  TempDir dir;
  KnowledgeGraph kg(human_db(dir));
  const int64_t xedar = add_protein(kg, "EDAX", {"XEDAR"});  // (as EDA2R's alias XEDAR)
  add_protein(kg, "IRFX", {"LPS"});
  interact(kg, xedar, kg.lookup("TP53").id);
  const EntityTagger tagger(kg);
  const auto tagged = [&](const std::string &text) {
    const Document d = text_document(text);
    const grappi::PaperContext ctx = tagger.read_paper(d);
    return std::make_pair(ctx, tagger.tag(d.passages[0], ctx));
  };
  // "receptor" heads the long form: the short form is the alias it is (here with TP53 beside it).
  auto [ctx, ms] = tagged("In human cells, the X-linked ectodermal dysplasia receptor (XEDAR) binds TP53; XEDAR and "
                          "lipopolysaccharide (LPS) with TP53.");
  REQUIRE(ctx.abbreviations.size() == 2);
  CHECK(ctx.abbreviations[0].meaning == "undecided");
  CHECK(ctx.abbreviations[1].meaning == "no_entity");
  REQUIRE(find(ms, "XEDAR"));
  REQUIRE(find(ms, "XEDAR")->entity());
  CHECK(find(ms, "XEDAR")->entity()->name == "EDAX");
  REQUIRE(find(ms, "LPS"));
  CHECK(find(ms, "LPS")->status == "ungrounded");
  // A paper that names another organism too keeps the definition: the protein may be that one's.
  auto [mixed, mms] = tagged("In human cells and in mice, the X-linked ectodermal dysplasia receptor (XEDAR) binds TP53.");
  REQUIRE(mixed.abbreviations.size() == 1);
  CHECK(mixed.abbreviations[0].meaning == "no_entity");
  // Diseases, cells and syndromes are no protein's names.
  for (const char *text : {"In human patients, X-linked ectodermal dysplasia and rash (XEDAR) and TP53.",
                           "In human patients, X-linked ectodermal dysplasia disorder (XEDAR) and TP53."}) {
    CAPTURE(text);
    auto [c, unused] = tagged(text);
    REQUIRE(c.abbreviations.size() == 1);
    CHECK(c.abbreviations[0].meaning == "no_entity");
  }
}

TEST_CASE("Greek subunit names and assay tools and epitope tags are no human gene") {
  TempDir dir;
  KnowledgeGraph kg(human_db(dir));
  add_protein(kg, "NEURX", {"beta2"});  // (as NEUROD1's alias BETA2)
  add_protein(kg, "LGALX", {"GAL4"});   // (as LGALS4's alias GAL4)
  const EntityTagger tagger(kg);
  const Document d = text_document(
      "In human cells, the beta2 subunit, a GAL4 fusion and Myc-tagged TP53 with an HA tag; BRCA1 and MYC.");
  const auto ms = tagger.tag(d.passages[0], tagger.read_paper(d));
  CHECK_FALSE(find(ms, "beta2"));
  CHECK_FALSE(find(ms, "GAL4"));
  CHECK_FALSE(find(ms, "Myc"));
  REQUIRE(find(ms, "TP53"));
  REQUIRE(find(ms, "MYC"));
  CHECK(find(ms, "MYC")->entity()->name == "MYC");
  CHECK(find(ms, "BRCA1")->entity()->name == "BRCA1");
}
