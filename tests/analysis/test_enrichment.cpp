// Functional enrichment on a small hand-made GO: counts after propagation up is_a and part_of,
// p-values against the hypergeometric sum written out here, Benjamini–Hochberg by hand, evidence
// codes, backgrounds, names, JSON and bad input. (tests/check_enrichment.py checks the whole GO
// against scipy and statsmodels.)
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <tuple>

#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::EnrichmentBackground;
using grappi::EnrichmentOptions;
using grappi::KnowledgeGraph;

namespace {

// Twelve proteins P01-P12 (taxon 9606), an interaction P01-P02, and a GO of five process terms
// and two function terms:
//   BP: R (root) <- A (is_a), R <- B (is_a), A <- C (part_of), C <- D (is_a)
//   MF: M (root) <- M1 (is_a)
// Annotations: P01-P04 to D (P04 by IEA only), P05-P06 to B, P07 to A, P08-P10 to B and C
// (P10's C by IEA and IDA), P01-P02 to M1; P11 and P12 none.
struct Toy {
  TempDir d;
  std::string db = d.file("toy.db");
  Toy() {
    std::string info = "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n";
    for (int i = 1; i <= 12; ++i) {
      const std::string n = (i < 10 ? "P0" : "P") + std::to_string(i);
      info += "9606." + n + "\t" + n + "\t100\tprotein " + n + "\n";
    }
    write_file(d.file("info.txt"), info);
    write_file(d.file("links.txt"), "protein1 protein2 combined_score\n9606.P01 9606.P02 900\n9606.P02 9606.P01 900\n");
    write_file(d.file("go.obo"),
               "format-version: 1.2\nontology: go\n\n"
               "[Term]\nid: GO:0000001\nname: root process\nnamespace: biological_process\n\n"
               "[Term]\nid: GO:0000002\nname: process A\nnamespace: biological_process\nis_a: GO:0000001\n\n"
               "[Term]\nid: GO:0000003\nname: process B\nnamespace: biological_process\nis_a: GO:0000001\n\n"
               "[Term]\nid: GO:0000004\nname: process C\nnamespace: biological_process\n"
               "relationship: part_of GO:0000002\n\n"
               "[Term]\nid: GO:0000005\nname: process D\nnamespace: biological_process\nis_a: GO:0000004\n\n"
               "[Term]\nid: GO:0000011\nname: root function\nnamespace: molecular_function\n\n"
               "[Term]\nid: GO:0000012\nname: function M1\nnamespace: molecular_function\nis_a: GO:0000011\n");
    write_file(d.file("genes.tsv"),
               "symbol\tgo_bp\tgo_mf\n"
               "P01\tGO:0000005:IDA\tGO:0000012:IPI\nP02\tGO:0000005:IMP\tGO:0000012:IDA\n"
               "P03\tGO:0000005:TAS\t\nP04\tGO:0000005:IEA\t\nP05\tGO:0000003:IDA\t\nP06\tGO:0000003:IBA\t\n"
               "P07\tGO:0000002:IDA\t\nP08\tGO:0000003:IDA|GO:0000004:IDA\t\n"
               "P09\tGO:0000003:IDA|GO:0000004:IMP\t\nP10\tGO:0000003:IDA|GO:0000004:IEA|GO:0000004:IDA\t\n"
               "P11\tGO:0008150:ND\t\nP12\t\t\n");
    KnowledgeGraph kg(db);
    kg.import({{d.file("info.txt"), "info"}});
    kg.import({{d.file("links.txt"), "links"}});
    kg.import({{d.file("go.obo")}});
    kg.import({{d.file("genes.tsv"), "mapping"}});
  }
};

double choose(int n, int k) {
  if (k < 0 || k > n) return 0;
  double c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

// P(X >= k), X hypergeometric, summed term by term.
double tail(int k, int K, int n, int N) {
  double p = 0;
  for (int i = k; i <= std::min(K, n); ++i) p += choose(K, i) * choose(N - K, n - i) / choose(N, n);
  return p;
}

std::vector<int64_t> ids(const KnowledgeGraph &kg, std::initializer_list<const char *> names) {
  std::vector<int64_t> out;
  for (const char *n : names) out.push_back(kg.resolve(n));
  return out;
}

std::map<std::string, grappi::EnrichedTerm> by_term(const grappi::EnrichmentResult &r) {
  std::map<std::string, grappi::EnrichedTerm> out;
  for (const auto &t : r.terms) out[t.term] = t;
  return out;
}

}  // namespace

TEST_CASE("Enrichment counts propagate up is_a and part_of and the p-values are the hypergeometric tail") {
  Toy toy;
  KnowledgeGraph kg(toy.db);
  EnrichmentOptions o;
  o.categories = {"Process"};
  const auto r = grappi::enrich(kg, ids(kg, {"P01", "P02", "P03", "P08", "P11"}), o);
  REQUIRE(r.categories.size() == 1);
  // The process universe: P01-P10 (P11's only annotation is ND, no data; P12 has none).
  CHECK(r.categories[0].universe == 10);
  CHECK(r.categories[0].set_size == 4);
  CHECK(r.unannotated == ids(kg, {"P11"}));
  const auto t = by_term(r);
  // D: P01-P04; C (D part of it by is_a, and P08-P10 directly): 7; A (C part_of A, and P07): 8;
  // B: P05, P06, P08-P10; R: all ten.
  const std::map<std::string, std::pair<int, int>> want = {{"GO:0000005", {3, 4}}, {"GO:0000004", {4, 7}},
                                                           {"GO:0000002", {4, 8}}, {"GO:0000003", {1, 5}},
                                                           {"GO:0000001", {4, 10}}};
  REQUIRE(t.size() == want.size());
  std::vector<std::pair<double, std::string>> ps;
  for (const auto &term_kK : want) {
    const std::string &term = term_kK.first;
    const auto &kK = term_kK.second;
    CAPTURE(term);
    const auto &e = t.at(term);
    CHECK(e.observed == static_cast<std::size_t>(kK.first));
    CHECK(e.background == static_cast<std::size_t>(kK.second));
    CHECK(e.p_value == doctest::Approx(tail(kK.first, kK.second, 4, 10)).epsilon(1e-12));
    CHECK(e.expected == doctest::Approx(4.0 * kK.second / 10));
    CHECK(e.strength == doctest::Approx(std::log10(kK.first / (4.0 * kK.second / 10))));
    CHECK(e.category == "Process");
    ps.emplace_back(e.p_value, term);
  }
  CHECK(t.at("GO:0000005").proteins == ids(kg, {"P01", "P02", "P03"}));
  CHECK(t.at("GO:0000001").p_value == 1.0);
  // Benjamini–Hochberg over the five tested terms, by hand.
  std::sort(ps.begin(), ps.end());
  double running = 1;
  std::map<std::string, double> q;
  for (std::size_t i = ps.size(); i-- > 0;) {
    running = std::min(running, ps[i].first * 5 / static_cast<double>(i + 1));
    q[ps[i].second] = running;
  }
  for (const auto &[term, fdr] : q) CHECK(t.at(term).fdr == doctest::Approx(fdr).epsilon(1e-12));
  // Ordered by FDR; max_fdr keeps those at most it; a size bound leaves terms untested.
  for (std::size_t i = 1; i < r.terms.size(); ++i) CHECK(r.terms[i - 1].fdr <= r.terms[i].fdr);
  o.max_fdr = q.at("GO:0000005");
  const auto kept = grappi::enrich(kg, ids(kg, {"P01", "P02", "P03", "P08", "P11"}), o);
  for (const auto &e : kept.terms) CHECK(e.fdr <= o.max_fdr);
  CHECK(kept.categories[0].tested == 5);
  o.max_fdr = 1;
  o.max_term_size = 8;
  CHECK(grappi::enrich(kg, ids(kg, {"P01", "P02", "P03", "P08"}), o).categories[0].tested == 4);
}

TEST_CASE("Enrichment: evidence codes excluded and the backgrounds") {
  Toy toy;
  KnowledgeGraph kg(toy.db);
  EnrichmentOptions o;
  o.categories = {"BP"};
  o.exclude_evidence = {"iea"};
  const auto r = grappi::enrich(kg, ids(kg, {"P01", "P04", "P10"}), o);
  // P04's only annotation is electronic: out of the universe; P10 keeps C by its IDA code.
  CHECK(r.categories[0].universe == 9);
  CHECK(r.categories[0].set_size == 2);
  CHECK(r.unannotated == ids(kg, {"P04"}));
  CHECK(by_term(r).at("GO:0000004").background == 6);
  // A set none of whose members is annotated still has its organism's universe (and no term).
  const auto none = grappi::enrich(kg, ids(kg, {"P11", "P12"}), o);
  CHECK(none.categories[0].universe == 9);
  CHECK(none.categories[0].set_size == 0);
  CHECK(none.terms.empty());
  CHECK(none.unannotated == ids(kg, {"P11", "P12"}));
  // Both categories by default; the network's proteins (P01, P02) as the background.
  EnrichmentOptions net;
  net.background = EnrichmentBackground::network;
  const auto n = grappi::enrich(kg, ids(kg, {"P01"}), net);
  REQUIRE(n.categories.size() == 2);
  CHECK(n.categories[0].category == "Process");
  CHECK(n.categories[0].universe == 2);
  CHECK(n.categories[1].category == "Function");
  CHECK(n.categories[1].universe == 2);
  // A given background: its annotated proteins are the universe.
  EnrichmentOptions given;
  given.background = EnrichmentBackground::given;
  given.background_proteins = ids(kg, {"P01", "P02", "P05", "P06", "P12"});
  const auto g = grappi::enrich(kg, ids(kg, {"P01", "P02"}), given);
  CHECK(g.categories[0].universe == 4);
  CHECK(by_term(g).at("GO:0000005").p_value == doctest::Approx(tail(2, 2, 2, 4)));
}

TEST_CASE("Enrichment over names lists the names it left out and writes external ids") {
  Toy toy;
  KnowledgeGraph kg(toy.db);
  const auto r = grappi::enrich_names(kg, {"P01", "p02", "NOSUCH", "9606.P03"});
  CHECK(r.proteins == ids(kg, {"P01", "P02", "P03"}));
  REQUIRE(r.unmatched.size() == 1);
  CHECK(r.unmatched[0].first == "NOSUCH");
  CHECK(r.unmatched[0].second.rfind("not found", 0) == 0);
  const nlohmann::json j = grappi::to_json(kg, r);
  CHECK(j["proteins"] == nlohmann::json({"9606.P01", "9606.P02", "9606.P03"}));
  CHECK(j["unmatched"][0]["name"] == "NOSUCH");
  bool d = false;
  for (const auto &t : j["terms"])
    if (t["term"] == "GO:0000005") {
      d = true;
      CHECK(t["name"] == "process D");
      CHECK(t["proteins"] == nlohmann::json({"9606.P01", "9606.P02", "9606.P03"}));
      for (const char *field : {"category", "observed", "set_size", "background", "universe", "expected", "strength",
                                "p_value", "fdr"})
        CHECK(t.contains(field));
    }
  CHECK(d);
  CHECK_THROWS_WITH_AS(grappi::enrich_names(kg, {"NOSUCH", "NOPE"}), doctest::Contains("no name names a protein"),
                       grappi::Error);
}

TEST_CASE("Enrichment refuses bad input clearly") {
  Toy toy;
  KnowledgeGraph kg(toy.db);
  const auto p = ids(kg, {"P01"});
  const auto refused = [&](const EnrichmentOptions &o, const std::vector<int64_t> &set, const char *says) {
    CAPTURE(says);
    CHECK_THROWS_WITH_AS(grappi::enrich(kg, set, o), doctest::Contains(says), grappi::Error);
  };
  refused({}, {}, "the protein set is empty");
  refused({}, {987654321}, "protein 987654321 is not in the graph");
  EnrichmentOptions o;
  o.categories = {"KEGG"};
  refused(o, p, "unknown category 'KEGG' (Process, Function, Component)");
  o = {};
  o.max_fdr = 1.5;
  refused(o, p, "max_fdr must be between 0 and 1");
  o.max_fdr = std::nan("");
  refused(o, p, "max_fdr must be between 0 and 1");
  o = {};
  o.min_term_size = 5;
  o.max_term_size = 2;
  refused(o, p, "max_term_size (2) is below min_term_size (5)");
  o = {};
  o.background = EnrichmentBackground::given;
  refused(o, p, "needs its proteins");
  o = {};
  o.background_proteins = p;
  refused(o, p, "choose 'given'");
  CHECK_THROWS_WITH_AS(grappi::enrichment_background("genome"), doctest::Contains("annotated, network, given"), grappi::Error);
  // A database without GO annotations says what to import.
  TempDir d;
  KnowledgeGraph bare(d.file("bare.db"));
  write_file(d.file("info.txt"), "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n9606.X1\tX1\t1\tx\n");
  bare.import({{d.file("info.txt"), "info"}});
  CHECK_THROWS_WITH_AS(grappi::enrich(bare, {bare.resolve("X1")}), doctest::Contains("import GO"), grappi::Error);
}

TEST_CASE("PPI enrichment: the edges among a set against a random graph with the network's degrees") {
  // A-B, A-C, B-C, C-D, D-E, E-F at 0.9 and A-F at 0.2: at medium confidence M = 6.
  TempDir d;
  KnowledgeGraph kg(d.file("ppi.db"));
  std::string info = "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n";
  for (const char *n : {"A", "B", "C", "D", "E", "F"}) info += std::string("9606.") + n + "\t" + n + "\t1\tx\n";
  write_file(d.file("info.txt"), info);
  std::string links = "protein1 protein2 combined_score\n";
  for (const auto &[a, b, s] : std::vector<std::tuple<const char *, const char *, int>>{
           {"A", "B", 900}, {"A", "C", 900}, {"B", "C", 900}, {"C", "D", 900}, {"D", "E", 900}, {"E", "F", 900}, {"A", "F", 200}})
    links += std::string("9606.") + a + " 9606." + b + " " + std::to_string(s) + "\n9606." + b + " 9606." + a + " " +
             std::to_string(s) + "\n";
  write_file(d.file("links.txt"), links);
  kg.import({{d.file("info.txt"), "info"}});
  kg.import({{d.file("links.txt"), "links"}});
  const auto r = grappi::ppi_enrichment(kg, ids(kg, {"A", "B", "C", "A"}));
  CHECK(r.nodes == 3);
  CHECK(r.edges == 3);
  CHECK(r.network_edges == 6);
  CHECK(r.network_proteins == 6);
  const double lambda = -std::expm1(-4.0 / 12) - 2 * std::expm1(-6.0 / 12);
  CHECK(r.expected_edges == doctest::Approx(lambda).epsilon(1e-12));
  // P(X >= 3 | X <= 3) for X Poisson(lambda)
  double cdf3 = 0, term = std::exp(-lambda);
  for (int i = 0; i <= 3; ++i) {
    cdf3 += term;
    term *= lambda / (i + 1);
  }
  const double pmf3 = std::exp(-lambda) * lambda * lambda * lambda / 6;
  CHECK(r.p_value == doctest::Approx(pmf3 / cdf3).epsilon(1e-12));
  CHECK(r.average_degree == doctest::Approx(2.0));
  CHECK(r.clustering == doctest::Approx(1.0));
  // A weaker threshold takes A-F in: A's degree 3, M 7; a set without edges among it: p 1.
  grappi::PpiEnrichmentOptions weak;
  weak.min_score = 0.1;
  CHECK(grappi::ppi_enrichment(kg, ids(kg, {"A", "B", "C"}), weak).network_edges == 7);
  const auto apart = grappi::ppi_enrichment(kg, ids(kg, {"A", "E"}));
  CHECK(apart.edges == 0);
  CHECK(apart.p_value == 1.0);
  CHECK(apart.clustering == 0.0);
  // Names, JSON, bad input.
  const auto n = grappi::ppi_enrichment_names(kg, {"A", "B", "NOSUCH"});
  CHECK(n.unmatched.size() == 1);
  const nlohmann::json j = grappi::to_json(kg, n);
  CHECK(j["proteins"] == nlohmann::json({"9606.A", "9606.B"}));
  CHECK(j["edges"] == 1);
  grappi::PpiEnrichmentOptions bad;
  bad.min_score = 2;
  CHECK_THROWS_WITH_AS(grappi::ppi_enrichment(kg, ids(kg, {"A"}), bad), doctest::Contains("min_score"), grappi::Error);
  bad = {};
  bad.relations = {"string.nope"};
  CHECK_THROWS_WITH_AS(grappi::ppi_enrichment(kg, ids(kg, {"A"}), bad), doctest::Contains("unknown relation 'string.nope'"),
                       grappi::Error);
  CHECK_THROWS_AS(grappi::ppi_enrichment(kg, {}), grappi::Error);
  CHECK_THROWS_WITH_AS(grappi::ppi_enrichment_names(kg, {"NOSUCH"}), doctest::Contains("no name names a protein"),
                       grappi::Error);
}

TEST_CASE("ask answers what is enriched among a protein's partners or the proteins named") {
  Toy toy;
  KnowledgeGraph kg(toy.db);
  grappi::EmbedOptions eo;
  eo.neighbor_ranking = false;
  grappi::embed_graph(kg, *grappi::hashing_embedder(kg), eo);
  grappi::ExtractiveModel offline;
  // Four proteins named: D's four proteins are all of them (p = 1/210, FDR 4/210).
  const auto named = grappi::ask(kg, offline, "Which processes are enriched in P01, P02, P03 and P04?");
  CAPTURE(named.error);
  CAPTURE(named.answer.reason);
  CHECK(named.status == "ok");
  CHECK(named.analysis.frame.form == "enrichment");
  CHECK(named.analysis.frame.relation == "set");
  REQUIRE(named.answer.form == "enrichment");
  REQUIRE(named.answer.value.is_array());
  REQUIRE(named.answer.value.size() == 1);
  CHECK(named.answer.value[0]["term"] == "GO:0000005");
  CHECK(named.answer.value[0]["category"] == "Process");
  CHECK(named.answer.value[0]["fdr"].get<double>() == doctest::Approx(4.0 / 210));
  CHECK(named.answer.value[0]["proteins"].size() == 4);
  CHECK(named.answer.text.find("process D (GO:0000005, Process, FDR 0.019, 4 of 4)") != std::string::npos);
  // One protein's partners (P01's: P02): nothing reaches FDR 0.05, and the answer says so.
  const auto partners = grappi::ask(kg, offline, "What processes are enriched among P01's partners?");
  CHECK(partners.status == "ok");
  CHECK(partners.analysis.frame.relation == "partners");
  REQUIRE(partners.answer.form == "enrichment");
  CHECK(partners.answer.value.empty());
  CHECK(partners.answer.text.find("No GO term is enriched (FDR <= 0.05) among the 1 partners of P01") == 0);
  CHECK_FALSE(partners.answer.edges.empty());
  // Proteins of a class are no terms: "which kinases are enriched" is not answered with GO terms.
  const auto kinases = grappi::ask(kg, offline, "Which kinases are enriched among P01's partners?");
  CHECK(kinases.answer.form == "unsupported");
  CHECK(kinases.answer.reason.find("not with proteins of a class") != std::string::npos);
  CHECK(grappi::ask(kg, offline, "Which functions are overrepresented among P01's partners?").answer.form == "enrichment");
  // A database without GO annotations: no answer, and what to import.
  TempDir d;
  KnowledgeGraph bare(d.file("bare.db"));
  write_file(d.file("info.txt"), "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n9606.X1\tX1\t1\tx\n"
                                 "9606.X2\tX2\t1\ty\n");
  write_file(d.file("links.txt"), "protein1 protein2 combined_score\n9606.X1 9606.X2 900\n9606.X2 9606.X1 900\n");
  bare.import({{d.file("info.txt"), "info"}});
  bare.import({{d.file("links.txt"), "links"}});
  grappi::embed_graph(bare, *grappi::hashing_embedder(bare), eo);
  const auto none = grappi::ask(bare, offline, "What processes are enriched among X1's partners?");
  CHECK(none.status == "no_answer");
  CHECK(none.answer.form == "enrichment");
  CHECK(none.answer.reason.find("import GO") != std::string::npos);
}

TEST_CASE("STRING's functional annotations import as GO and category edges and enrich by any category") {
  Toy toy;
  KnowledgeGraph kg(toy.db);
  // The website export's layout: P01-P04 in KEGG's hsa00001, P05 in hsa00002, P06 in a Reactome
  // pathway, P11 to GO process D (the toy GO's), an unknown protein.
  const std::string file = toy.d.file("string_functional_annotations.tsv");
  write_file(file, "#node\tidentifier\tcategory\tterm ID\tterm description\n"
                   "P01\t9606.P01\tKEGG\thsa00001\tPathway one\nP02\t9606.P02\tKEGG\thsa00001\tPathway one\n"
                   "P03\t9606.P03\tKEGG\thsa00001\tPathway one\nP04\t9606.P04\tKEGG\thsa00001\tPathway one\n"
                   "P04\t9606.P04\tKEGG\thsa00001\tPathway one\n"  // (twice: one edge)
                   "P05\t9606.P05\tKEGG\thsa00002\tPathway two\nP06\t9606.P06\tReactome\tHSA-1\tA reaction\n"
                   "P11\t9606.P11\tGO Process\tGO:0000005\tProcess D\nNOPE\t9606.NOPE\tKEGG\thsa00001\tPathway one\n");
  const grappi::ImportReport rep = kg.import({{file}});  // (the format detected)
  REQUIRE(rep.files.size() == 1);
  CHECK(rep.files[0].kind == "annotations");
  CHECK(detail_of(rep.files[0], "annotations") == 7);
  CHECK(detail_of(rep.files[0], "proteins_unmatched") == 1);
  CHECK(detail_of(rep.files[0], "terms_new") == 3);  // (GO:0000005 was there)
  CHECK(detail_of(rep.files[0], "category:KEGG") == 5);
  REQUIRE(kg.node_by_external_id("kegg:hsa00001"));
  CHECK(kg.node_by_external_id("kegg:hsa00001")->label == "FunctionalTerm");
  CHECK(kg.node_by_external_id("kegg:hsa00001")->name == "Pathway one");
  EnrichmentOptions o;
  o.categories = {"kegg"};
  o.max_fdr = 1;
  const auto r = grappi::enrich_names(kg, {"P01", "P02", "P03", "P04"}, o);
  REQUIRE(r.categories.size() == 1);
  CHECK(r.categories[0].category == "KEGG");
  CHECK(r.categories[0].universe == 5);  // (P01-P05: the proteins with a KEGG annotation)
  REQUIRE(r.terms.size() == 1);
  CHECK(r.terms[0].term == "kegg:hsa00001");
  CHECK(r.terms[0].observed == 4);
  CHECK(r.terms[0].p_value == doctest::Approx(tail(4, 4, 4, 5)));
  // Every category by default: GO's and STRING's, P11 now in process D too.
  o.categories.clear();
  const auto all = grappi::enrich_names(kg, {"P01", "P02", "P03", "P04"}, o);
  std::set<std::string> names;
  for (const auto &c : all.categories) names.insert(c.category);
  CHECK(names == std::set<std::string>{"Process", "Function", "KEGG", "Reactome"});
  CHECK_THROWS_WITH_AS(grappi::enrich_names(kg, {"P01"}, [] {
                         EnrichmentOptions x;
                         x.categories = {"WikiPathways"};
                         return x;
                       }()),
                       doctest::Contains("KEGG, Reactome"), grappi::Error);
  // Walks leave the annotation edges out.
  const grappi::Retriever ret(kg.snapshot());
  CHECK(ret.khop({kg.resolve("P05")}).nodes.size() == 1);
  // The genome-wide layout, and bad rows: the file's line named, the database as it was.
  const std::string genome = toy.d.file("9606.protein.enrichment.terms.txt");
  write_file(genome, "#string_protein_id\tcategory\tterm\tdescription\n9606.P07\tKEGG\thsa00002\tPathway two\n");
  CHECK(detail_of(kg.import({{genome}}).files.at(0), "annotations") == 1);
  const grappi::GraphStats before = kg.stats();
  write_file(genome, "#string_protein_id\tcategory\tterm\tdescription\n9606.P08\tKEGG\thsa00002\tPathway two\n"
                     "9606.P09\tGO Process\tGO:12\tbad\n");
  CHECK_THROWS_WITH_AS(kg.import({{genome, "annotations"}}), doctest::Contains(":3: 'GO:12' is no GO id"), grappi::Error);
  CHECK(kg.stats().edges == before.edges);
  write_file(genome, "#protein\tcategory\n9606.P08\tKEGG\n");
  CHECK_THROWS_WITH_AS(kg.import({{genome, "annotations"}}), doctest::Contains("not STRING's functional annotations"),
                       grappi::Error);
}

TEST_CASE("Walks over a network with GO imported leave the annotation and ontology relations out unless named") {
  Toy toy;
  KnowledgeGraph kg(toy.db);
  const grappi::Retriever r(kg.snapshot());
  const int64_t p01 = kg.resolve("P01"), p02 = kg.resolve("P02");
  // (P01's edges: the interaction with P02, its annotations to GO:0000005 and GO:0000012)
  CHECK(r.khop({p01}).nodes == std::vector<int64_t>{std::min(p01, p02), std::max(p01, p02)});
  grappi::KhopOptions named;
  named.filter.relations = {"go.involved_in"};
  const auto with_go = r.khop({p01}, named);
  REQUIRE(with_go.nodes.size() == 2);
  CHECK(kg.node(with_go.nodes[0] == p01 ? with_go.nodes[1] : with_go.nodes[0])->external_id == "GO:0000005");
  // A graph of the ontology alone is walked whole.
  TempDir d;
  write_file(d.file("go.obo"), "format-version: 1.2\nontology: go\n\n"
                               "[Term]\nid: GO:0000001\nname: root process\nnamespace: biological_process\n\n"
                               "[Term]\nid: GO:0000002\nname: process A\nnamespace: biological_process\nis_a: GO:0000001\n");
  KnowledgeGraph onto(d.file("onto.db"));
  onto.import({{d.file("go.obo")}});
  const grappi::Retriever ro(onto.snapshot());
  CHECK(ro.khop({onto.node_by_external_id("GO:0000002")->id}).nodes.size() == 2);
}

TEST_CASE("A question's topic that names a GO term admits the partners annotated to it or below it") {
  // TX1's partners TA1, TB1 and TC1: TA1 annotated to anoikis (is_a apoptotic process, whose related synonym is
  // "apoptosis"), TB1 to another process, TC1 to none; no annotation text says "apoptosis".
  TempDir d;
  write_file(d.file("info.txt"), "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n9606.TX1\tTX1\t1\tprotein X\n"
                                 "9606.TA1\tTA1\t1\tprotein A\n9606.TB1\tTB1\t1\tprotein B\n9606.TC1\tTC1\t1\tprotein C\n");
  write_file(d.file("links.txt"), "protein1 protein2 combined_score\n9606.TX1 9606.TA1 800\n9606.TA1 9606.TX1 800\n"
                                  "9606.TX1 9606.TB1 950\n9606.TB1 9606.TX1 950\n9606.TX1 9606.TC1 900\n9606.TC1 9606.TX1 900\n");
  write_file(d.file("go.obo"), "format-version: 1.2\nontology: go\n\n"
                               "[Term]\nid: GO:0006915\nname: apoptotic process\nnamespace: biological_process\n"
                               "synonym: \"apoptosis\" RELATED []\n\n"
                               "[Term]\nid: GO:0043276\nname: anoikis\nnamespace: biological_process\nis_a: GO:0006915\n\n"
                               "[Term]\nid: GO:0000003\nname: process B\nnamespace: biological_process\n");
  write_file(d.file("genes.tsv"), "symbol\tgo_bp\nTA1\tGO:0043276:IDA\nTB1\tGO:0000003:IDA\nTC1\t\n");
  KnowledgeGraph kg(d.file("go.db"));
  kg.import({{d.file("info.txt"), "info"}});
  kg.import({{d.file("links.txt"), "links"}});
  kg.import({{d.file("go.obo")}});
  kg.import({{d.file("genes.tsv"), "mapping"}});
  grappi::EmbedOptions eo;
  eo.neighbor_ranking = false;
  grappi::embed_graph(kg, *grappi::hashing_embedder(kg), eo);
  grappi::ExtractiveModel offline;
  const auto r = grappi::ask(kg, offline, "Which partners of TX1 are involved in apoptosis?");
  CHECK(r.status == "ok");
  CAPTURE(r.answer.reason);
  CAPTURE(r.analysis.intent);
  REQUIRE(r.answer.form == "list");
  REQUIRE(r.answer.value.is_array());
  REQUIRE(r.answer.value.size() == 1);
  CHECK(r.answer.value[0] == "9606.TA1");
  CHECK(r.answer.note.find("2 other candidate(s) listed apart") != std::string::npos);
  CHECK(r.recipe.find("GO annotations under GO:0006915") != std::string::npos);
}

TEST_CASE("Enrichment from several threads at once reads the annotations once and gives the same answers" *
          doctest::test_suite("threads")) {
  Toy toy;
  KnowledgeGraph kg(toy.db);
  const auto set = ids(kg, {"P01", "P02", "P03", "P08"});
  EnrichmentOptions plain, no_iea;
  no_iea.exclude_evidence = {"IEA"};
  const nlohmann::json want_plain = grappi::to_json(kg, grappi::enrich(kg, set, plain));
  const nlohmann::json want_no_iea = grappi::to_json(kg, grappi::enrich(kg, set, no_iea));
  // (a fresh database handle: its annotations are read by whichever thread comes first)
  KnowledgeGraph fresh(toy.db);
  std::vector<std::thread> threads;
  std::vector<int> same(8, 0);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        const bool iea = (t + i) % 2 == 0;
        const nlohmann::json got = grappi::to_json(fresh, grappi::enrich(fresh, set, iea ? no_iea : plain));
        same[static_cast<std::size_t>(t)] += got == (iea ? want_no_iea : want_plain);
      }
    });
  for (auto &th : threads) th.join();
  for (int n : same) CHECK(n == 20);
}

TEST_CASE("explore lists each window's enriched terms when the database holds annotations") {
  Toy toy;
  KnowledgeGraph kg(toy.db);
  // P01's window: P01-P04, the four proteins annotated to process D (p = 1/210, FDR 4/210).
  write_file(toy.d.file("more.txt"), "protein1 protein2 combined_score\n9606.P01 9606.P03 800\n9606.P03 9606.P01 800\n"
                                     "9606.P01 9606.P04 700\n9606.P04 9606.P01 700\n");
  kg.import({{toy.d.file("more.txt"), "links"}});
  const grappi::AgentPipeline pipe(kg);  // (the offline, extractive model)
  grappi::ExploreOptions o;
  o.query = "process D";
  o.window.k = {10};
  o.window.depth = 1;
  o.max_length = 1;
  const grappi::ExploreResult r = pipe.explore("P01", o);
  REQUIRE(r.windows.size() == 1);
  REQUIRE(r.window_terms.size() == 1);
  REQUIRE_FALSE(r.window_terms[0].empty());
  CHECK(r.window_terms[0][0].term == "GO:0000005");
  CHECK(r.window_terms[0][0].observed == 4);
  CHECK(r.window_terms[0][0].fdr == doctest::Approx(4.0 / 210));
  const nlohmann::json j = grappi::to_json(r);
  REQUIRE(j["windows"][0].contains("terms"));
  CHECK(j["windows"][0]["terms"][0]["term"] == "GO:0000005");
  CHECK(j["windows"][0]["terms"][0]["proteins"].size() == 4);
  // Off, and without annotations: none.
  o.window_terms = 0;
  const grappi::ExploreResult off = pipe.explore("P01", o);
  CHECK(off.window_terms[0].empty());
  CHECK_FALSE(grappi::to_json(off)["windows"][0].contains("terms"));
}
