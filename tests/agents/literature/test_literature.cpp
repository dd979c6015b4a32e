// The literature inside the knowledge base (issue 37): PubTator's concept conventions in every
// count; papers stored, searched and read back, removed with their dataset; hypotheses explained
// from the stored papers; the streaming reader and the co-occurrence builder (merged builders
// and spilled runs give the graph of one in-memory build); readable paths (species and generic
// concepts avoided, reorderings folded, one-paper paths said so); explanation statuses from
// independent evidence; the path ranker on a planted pattern, stored and loaded.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::Document;
using nlohmann::json;

namespace {

const std::string kBioRed = std::string(GRAPPI_TEST_DATA_DIR) + "/literature/BioRED.Test.first3.PubTator";

// A PubTator document: its title, abstract and mentions (text, type, id) found in them.
std::string pubtator_doc(const std::string &pmid, const std::string &title, const std::string &abstract,
                         const std::vector<std::tuple<std::string, std::string, std::string>> &mentions) {
  std::string out = pmid + "|t|" + title + "\n" + pmid + "|a|" + abstract + "\n";
  const std::string all = title + " " + abstract;
  for (const auto &[text, type, id] : mentions) {
    const std::size_t at = all.find(text);
    REQUIRE(at != std::string::npos);
    out += pmid + "\t" + std::to_string(at) + "\t" + std::to_string(at + text.size()) + "\t" + text + "\t" + type +
           "\t" + id + "\n";
  }
  return out + "\n";
}

bool same_graph(const grappi::CoocGraph &x, const grappi::CoocGraph &y) {
  if (x.pmids != y.pmids || x.years != y.years || x.concepts.size() != y.concepts.size() ||
      x.edges.size() != y.edges.size() || x.units != y.units || x.documents != y.documents || x.mentions != y.mentions)
    return false;
  for (std::size_t c = 0; c < x.concepts.size(); ++c)
    if (x.concepts[c].id != y.concepts[c].id || x.concepts[c].name != y.concepts[c].name ||
        x.concepts[c].units != y.concepts[c].units)
      return false;
  for (std::size_t e = 0; e < x.edges.size(); ++e) {
    const auto &a = x.edges[e], &b = y.edges[e];
    if (a.a != b.a || a.b != b.b || a.count != b.count || a.documents != b.documents || a.npmi != b.npmi) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("PubTator's conventions: -1 names no concept and a composite id is each of its parts") {
  using grappi::concept_ids;
  CHECK(concept_ids("D014786|D034381") == std::vector<std::string>{"D014786", "D034381"});
  CHECK(concept_ids("-1").empty());
  CHECK(concept_ids("-").empty());
  CHECK(concept_ids("").empty());
  CHECK(concept_ids("6331,6332") == std::vector<std::string>{"6331", "6332"});
  CHECK(concept_ids("6331;6332; 6331") == std::vector<std::string>{"6331", "6332"});
  CHECK(concept_ids("23626,26972(Tax:10090)") == std::vector<std::string>{"23626", "26972"});
  CHECK(concept_ids("D001943|-1|") == std::vector<std::string>{"D001943"});
  CHECK(concept_ids("p|SUB|V|173|L", "SequenceVariant") == std::vector<std::string>{"p|SUB|V|173|L"});
  CHECK(concept_ids("p|SUB|V|173|L;RS#:12345", "ProteinMutation") ==
        std::vector<std::string>{"p|SUB|V|173|L", "RS#:12345"});
  CHECK(concept_ids("tmVar:p|SUB|V|600|E;HGVS:p.V600E;VariantGroup:0;CorrespondingGene:673", "ProteinMutation") ==
        std::vector<std::string>{"tmVar:p|SUB|V|600|E"});
  // In a co-occurrence graph: no concept "Disease:-1", the composite counted for each disease.
  const std::string text =
      pubtator_doc("1001", "Vision and hearing loss in Usher syndrome.", "Patients lost vision and hearing.",
                   {{"Vision and hearing loss", "Disease", "D014786|D034381"},
                    {"Usher syndrome", "Disease", "D052245"},
                    {"Patients", "Species", "9606"},
                    {"lost vision", "Disease", "-1"}}) +
      pubtator_doc("1002", "Usher syndrome again.", "Hearing loss and an odd finding.",
                   {{"Usher syndrome", "Disease", "D052245"},
                    {"Hearing loss", "Disease", "D034381"},
                    {"odd finding", "Disease", "-1"}});
  const auto docs = grappi::parse_documents(text, grappi::DocumentFormat::pubtator, "t.PubTator");
  const grappi::CoocGraph g = grappi::build_cooccurrence(docs);
  std::set<std::string> ids;
  for (const auto &c : g.concepts) ids.insert(c.id);
  CHECK(ids == std::set<std::string>{"MESH:D014786", "MESH:D034381", "MESH:D052245", "NCBITaxon:9606"});
  CHECK(g.unidentified == 2);
  CHECK(g.composite == 1);
  const json j = grappi::to_json(g);
  CHECK(j["composite_annotations"] == 1);
  // Hearing loss (D034381) is in both documents: once through the composite mention.
  for (const auto &c : g.concepts)
    if (c.id == "MESH:D034381") CHECK(c.units == 2);
}

TEST_CASE("Documents stream a document at a time and read as the whole file does with errors at the file's own lines") {
  TempDir dir;
  std::vector<Document> streamed;
  std::string sha;
  const std::size_t n = grappi::for_each_document(
      kBioRed, grappi::DocumentFormat::detect, [&](Document &&d) { streamed.push_back(std::move(d)); }, &sha);
  const auto whole = grappi::read_documents(kBioRed);
  REQUIRE(n == whole.size());
  REQUIRE(n == 3);
  for (std::size_t i = 0; i < n; ++i) {
    CHECK(streamed[i].pmid == whole[i].pmid);
    REQUIRE(streamed[i].passages.size() == whole[i].passages.size());
    for (std::size_t p = 0; p < whole[i].passages.size(); ++p) {
      CHECK(streamed[i].passages[p].text == whole[i].passages[p].text);
      CHECK(streamed[i].passages[p].annotations.size() == whole[i].passages[p].annotations.size());
    }
  }
  CHECK(sha.size() == 64);
  // A bad line in the third document is named by its line in the file.
  std::string text = read_file(kBioRed);
  std::size_t line_no = 0, bad = 0;
  for (std::size_t pos = 0, k = 0; pos < text.size(); ++k) {
    const std::size_t nl = text.find('\n', pos);
    ++line_no;
    if (text.compare(pos, 8, "18457324") == 0 && text.find('\t', pos) < nl && !bad) {
      bad = line_no;
      text.replace(pos, nl - pos, "18457324\t12\t5\tends before it starts\tDisease\tD000001");
      break;
    }
    pos = nl + 1;
  }
  REQUIRE(bad > 0);
  const std::string path = dir.file("bad.PubTator");
  write_file(path, text);
  std::string streamed_error, whole_error;
  try {
    grappi::for_each_document(path, grappi::DocumentFormat::detect, [](Document &&) {});
  } catch (const grappi::Error &e) {
    streamed_error = e.what();
  }
  try {
    grappi::read_documents(path);
  } catch (const grappi::Error &e) {
    whole_error = e.what();
  }
  INFO(streamed_error, " / ", whole_error);
  CHECK(streamed_error.find(path + ":" + std::to_string(bad) + ":") == 0);
  CHECK(whole_error.find(path + ":" + std::to_string(bad) + ":") == 0);
}

TEST_CASE("Merged builders and builders that spill to disk give the graph of one build in memory") {
  TempDir dir;
  const auto docs = grappi::read_documents(kBioRed);
  grappi::CoocOptions o;
  const grappi::CoocGraph one = grappi::build_cooccurrence(docs, o);
  REQUIRE(one.edges.size() > 100);
  // Two builders of disjoint parts, merged.
  grappi::CoocBuilder first(o), second(o);
  first.add(docs[0]);
  second.add(docs[1]);
  second.add(docs[2]);
  first.merge(std::move(second));
  CHECK(second.documents() == 0);
  CHECK(first.documents() == 3);
  CHECK(same_graph(first.finish(), one));
  // A tiny memory budget: the pairs go to runs on disk, merged at the end.
  grappi::CoocOptions tight = o;
  tight.memory_mib = 0;
  grappi::CoocBuilder unlimited(tight);
  for (const auto &d : docs) unlimited.add(d);
  CHECK(same_graph(unlimited.finish(), one));
  // (0 is "no limit"; a budget of one MiB holds ~87,000 pairs: 3,000 abstracts spill)
  grappi::CoocOptions spill = o;
  spill.memory_mib = 1;
  spill.work_dir = dir.path;
  std::vector<Document> many;
  for (int copy = 0; copy < 1000; ++copy)
    for (Document d : docs) {
      d.pmid = d.id = d.pmid + std::to_string(copy);
      many.push_back(std::move(d));
    }
  const grappi::CoocGraph in_memory = grappi::build_cooccurrence(many, o);
  grappi::CoocBuilder spilled(spill);
  for (const auto &d : many) spilled.add(d);
  const auto files_in = [](const std::string &d) {
    return std::distance(std::filesystem::directory_iterator(d), std::filesystem::directory_iterator());
  };
  CHECK(files_in(dir.path) >= 1);  // (runs on disk)
  CHECK(same_graph(spilled.finish(), in_memory));
  CHECK(files_in(dir.path) == 0);
  // Builders of other options do not merge.
  grappi::CoocOptions sentences = o;
  sentences.scope = grappi::CoocOptions::Scope::sentence;
  grappi::CoocBuilder x(o), y(sentences);
  CHECK_THROWS_WITH_AS(x.merge(std::move(y)), doctest::Contains("different options"), grappi::Error);
}

TEST_CASE("Partial count files merged in order give the graph of one build and keep their provenance") {
  TempDir dir;
  const auto docs = grappi::read_documents(kBioRed);
  REQUIRE(docs.size() == 3);
  grappi::CoocOptions o;
  o.work_dir = dir.path;
  const grappi::CoocGraph one = grappi::build_cooccurrence(docs, o);
  // Three parts, one of them spilled to runs on disk before it is saved.
  std::vector<std::string> files;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    grappi::CoocOptions part = o;
    part.memory_mib = i == 1 ? 0 : 512;
    grappi::CoocBuilder b(part);
    b.add(docs[i]);
    files.push_back(dir.file("part" + std::to_string(i)));
    b.save(files.back(), R"({"partition": )" + std::to_string(i) + "}");
    CHECK(b.documents() == 0);  // (empty afterwards)
  }
  CHECK(grappi::CoocBuilder::partial_options(files[0]).titles == "include");
  grappi::CoocBuilder merged(o);
  for (std::size_t i = 0; i < files.size(); ++i) {
    const json provenance = json::parse(merged.merge_file(files[i]));
    CHECK(provenance["partition"] == i);
    CHECK(provenance["grappi"].is_string());
    CHECK(provenance["written_at"].get<std::string>().size() == 20);
  }
  CHECK(merged.documents() == 3);
  const grappi::CoocGraph graph = merged.finish();
  CHECK(same_graph(graph, one));
  CHECK(graph.unidentified == one.unidentified);
  CHECK(graph.composite == one.composite);
  CHECK(grappi::cooccurrence_dataset_path("kb.db", graph) == grappi::cooccurrence_dataset_path("kb.db", one));
  // A builder saved with spilled runs and one that kept everything in memory write the same pairs.
  grappi::CoocOptions tiny = o;
  tiny.memory_mib = 1;
  std::vector<Document> many;
  for (int copy = 0; copy < 400; ++copy)
    for (Document d : docs) {
      d.pmid = d.id = d.pmid + "-" + std::to_string(copy);
      many.push_back(std::move(d));
    }
  grappi::CoocBuilder spilling(tiny), whole(o);
  for (const auto &d : many) spilling.add(d), whole.add(d);
  spilling.save(dir.file("spilled"));
  whole.save(dir.file("whole"));
  const auto tail = [](const std::string &f) {  // (the pairs: after the header line)
    std::ifstream in(f, std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return all.substr(all.find('\n', all.find('\n') + 1) + 1);
  };
  CHECK(tail(dir.file("spilled")) == tail(dir.file("whole")));
  CHECK(tail(dir.file("whole")).size() > std::size_t{1} << 20);
  // Provenance must be a JSON object.
  grappi::CoocBuilder b(o);
  CHECK_THROWS_WITH_AS(b.save(dir.file("x"), "[1]"), doctest::Contains("JSON object"), grappi::Error);
  CHECK_THROWS_AS(b.save(dir.file("x"), "{"), grappi::Error);
  CHECK_FALSE(std::filesystem::exists(dir.file("x")));
}

TEST_CASE("Damaged or foreign partial count files are refused with the file named and the merge unchanged") {
  TempDir dir;
  const auto docs = grappi::read_documents(kBioRed);
  grappi::CoocOptions o;
  grappi::CoocBuilder b(o);
  b.add(docs[0]);
  b.add(docs[1]);
  const std::string good = dir.file("good");
  b.save(good);
  std::ifstream in(good, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t data = bytes.find('\n', bytes.find('\n') + 1) + 1;
  REQUIRE(bytes.size() > data + 24);
  const auto refused = [&](const std::string &name, const std::string &content, const std::string &message,
                           grappi::ErrorCode code = grappi::ErrorCode::parse) {
    CAPTURE(name);
    write_file(dir.file(name), content);
    grappi::CoocBuilder merge(o);
    merge.add(docs[2]);
    try {
      merge.merge_file(dir.file(name));
      FAIL("accepted");
    } catch (const grappi::Error &e) {
      CHECK(e.code() == code);
      CHECK(std::string(e.what()).find(message) != std::string::npos);
      CHECK(std::string(e.what()).find(name) != std::string::npos);
    }
    // (unchanged: the third document alone)
    CHECK(merge.documents() == 1);
    CHECK(same_graph(merge.finish(), grappi::build_cooccurrence({docs[2]}, o)));
  };
  refused("empty", "", "not a partial-count file");
  refused("pubtator", bytes.substr(0, 0) + "123|t|A title\n", "not a partial-count file");
  refused("no-header", "grappi-cooc-partial 1\n", "no header");
  refused("bad-json", "grappi-cooc-partial 1\n{\"format\": \n", "malformed header");
  refused("truncated", bytes.substr(0, bytes.size() - 5), "truncated");
  refused("longer", bytes + "x", "truncated");
  // A pair naming a concept past the header's list.
  std::string out_of_range = bytes;
  const uint32_t big = 1u << 30;
  std::memcpy(&out_of_range[data + 4], &big, 4);
  refused("out-of-range", out_of_range, "does not list");
  // Two pairs swapped: out of order.
  std::string swapped = bytes;
  std::swap_ranges(swapped.begin() + static_cast<std::ptrdiff_t>(data), swapped.begin() + static_cast<std::ptrdiff_t>(data + 12),
                   swapped.end() - 12);
  refused("swapped", swapped, "out of order");
  // A concept listed twice.
  json header = json::parse(bytes.substr(bytes.find('\n') + 1, data - bytes.find('\n') - 2));
  header["concepts"].push_back(header["concepts"][0]);
  refused("twice", "grappi-cooc-partial 1\n" + header.dump() + "\n" + bytes.substr(data), "twice");
  // Built with other options.
  grappi::CoocOptions sentences = o;
  sentences.scope = grappi::CoocOptions::Scope::sentence;
  grappi::CoocBuilder s(sentences);
  s.add(docs[0]);
  s.save(dir.file("sentences"));
  std::ifstream sin(dir.file("sentences"), std::ios::binary);
  refused("sentences", std::string((std::istreambuf_iterator<char>(sin)), std::istreambuf_iterator<char>()), "other options",
          grappi::ErrorCode::invalid_argument);
  grappi::CoocBuilder missing(o);
  CHECK_THROWS_AS(missing.merge_file(dir.file("none")), grappi::Error);
}

TEST_CASE("Papers are stored and searched by words and read back and go with their dataset") {
  TempDir dir;
  grappi::KnowledgeGraph kg(dir.file("papers.db"));
  CHECK(kg.paper_count() == 0);
  const auto report = kg.import({{kBioRed, "corpus"}});
  REQUIRE(report.files.size() == 1);
  CHECK(report.files[0].kind == "corpus");
  CHECK(report.files[0].lines == 3);
  CHECK(kg.paper_count() == 3);
  // Words (stemmed), a phrase, a prefix, a Boolean query.
  auto hits = kg.search_papers("mutations", 10);
  REQUIRE_FALSE(hits.empty());
  CHECK(hits[0].pmid == "15485686");
  CHECK(hits[0].title.find("SCN5A") != std::string::npos);
  CHECK(hits[0].snippet.find('[') != std::string::npos);
  CHECK(kg.search_papers("\"long QT syndrome\"", 10).at(0).pmid == "15485686");
  CHECK_FALSE(kg.search_papers("tetrodo*", 10).empty());
  CHECK(kg.search_papers("SCN5A NOT SCN5A", 10).empty());
  CHECK(kg.search_papers("qwertyuiop", 10).empty());
  CHECK_THROWS_WITH_AS(kg.search_papers("\"unclosed", 10), doctest::Contains("not a full-text query"), grappi::Error);
  CHECK_THROWS_WITH_AS(kg.search_papers("  ", 10), doctest::Contains("empty"), grappi::Error);
  CHECK_THROWS_AS(kg.search_papers("x", 0), grappi::Error);
  // Read back: passages and annotations as read from the file.
  const auto back = kg.papers({"15485686", "no-such-paper"});
  REQUIRE(back.size() == 1);
  const auto original = grappi::read_documents(kBioRed)[0];
  REQUIRE(back[0].passages.size() == original.passages.size());
  CHECK(back[0].passages[1].text == original.passages[1].text);
  CHECK(back[0].passages[1].annotations.size() == original.passages[1].annotations.size());
  // The same file again adds nothing; removing the dataset removes the papers and their index.
  CHECK(kg.import({{kBioRed, "corpus"}}).files[0].already_imported);
  kg.remove_dataset(report.files[0].dataset_id);
  CHECK(kg.paper_count() == 0);
  CHECK(kg.search_papers("mutations", 10).empty());
  // A corpus format that is no format writes nothing.
  CHECK_THROWS_AS(kg.import({{kBioRed, "corpus:latex"}}), grappi::Error);
  CHECK(kg.paper_count() == 0);
}

TEST_CASE(
    "Hypotheses explained from the papers the database holds with each sentence checked against independent evidence") {
  TempDir dir;
  // Axonin - Xenopin - Tumorin (no paper names Axonin with Tumorin or Betalin), with a curated
  // edge between Xenopin and Tumorin.
  const std::string text =
      pubtator_doc("2001", "Axonin binds Xenopin in neurons.", "The Axonin and Xenopin complex forms at synapses.",
                   {{"Axonin", "Gene", "MESH:A1"}, {"Xenopin", "Gene", "MESH:X1"}}) +
      pubtator_doc("2002", "Xenopin drives Tumorin growth.", "Tumorin grows where Xenopin is high.",
                   {{"Xenopin", "Gene", "MESH:X1"}, {"Tumorin", "Disease", "MESH:T1"}}) +
      pubtator_doc("2003", "Betalin meets Tumorin.", "Betalin was not studied further.",
                   {{"Betalin", "Gene", "MESH:B1"}, {"Tumorin", "Disease", "MESH:T1"}});
  const std::string corpus = dir.file("c.PubTator");
  write_file(corpus, text);
  grappi::KnowledgeGraph kg(dir.file("kb.db"));
  kg.import({{corpus, "corpus"}});
  const auto docs = grappi::read_documents(corpus);
  grappi::import_cooccurrence(kg, grappi::build_cooccurrence(docs), dir.file("cooc.jsonl"));
  // A curated relation beside the co-occurrence: Xenopin -- Tumorin.
  grappi::EdgeInput curated;
  curated.source = kg.resolve("MESH:X1");
  curated.target = kg.resolve("MESH:T1");
  curated.relation = "bel.increases";
  curated.score = 0.9;
  kg.add_edge(curated);
  // No corpus given: the stored papers are the context.
  grappi::ExtractiveModel offline;
  grappi::HypothesisOptions o;
  const grappi::HypothesisResult r = grappi::hypothesize(kg, offline, "Axonin", "Tumorin", {}, o);
  REQUIRE(r.final_round == 0);
  REQUIRE_FALSE(r.rounds[0].context.empty());
  for (const auto &s : r.rounds[0].sentences) {
    INFO(s.text);
    CHECK(s.status == "quoted");  // (the offline model quotes)
  }
  // A model's sentences: quoted, curated, co-mentioned, unsupported.
  grappi::CallbackModel model("checker", [](const grappi::ChatRequest &q) {
    (void)q;
    return sentences_reply(
        json::array({{{"text", "Axonin binds Xenopin in neurons."}, {"pmids", {"2001"}}},              // quoted
                     {{"text", "Xenopin raises Tumorin in patients."}, {"pmids", {"2002"}}},           // curated (bel)
                     {{"text", "Axonin and Xenopin act together at synapses."}, {"pmids", {"2001"}}},  // co-mentioned
                     {{"text", "Axonin directly causes Betalin."}, {"pmids", {"2001"}}}}));            // unsupported
  });
  o.use_cache = false;
  o.rounds = 1;
  const grappi::HypothesisResult m = grappi::hypothesize(kg, model, "Axonin", "Tumorin", {}, o);
  REQUIRE(m.rounds.size() == 1);
  const auto &st = m.rounds[0].sentences;
  REQUIRE(st.size() == 4);
  CHECK(st[0].status == "quoted");
  CHECK(st[1].status == "curated");
  CHECK(st[1].checks.at(0).curated);
  CHECK(st[2].status == "co-mentioned");
  CHECK_FALSE(st[2].checks.at(0).curated);
  CHECK(st[3].status == "unsupported");
  CHECK(m.rounds[0].rework == 1);
  const json j = grappi::to_json(m);
  CHECK(j["rounds"][0]["sentences"][1]["checks"][0]["curated"] == true);
}

TEST_CASE(
    "Paths people can read: no species or generic concept in the middle and reorderings folded and one-paper paths "
    "said") {
  // Source S and target T joined through Gene G1, through the species "patients" (a hub), and
  // through two genes in either order (S-G2-G3-T and S-G3-G2-T).
  std::string text;
  int pmid = 3000;
  const auto add = [&](const std::vector<std::tuple<std::string, std::string, std::string>> &m) {
    std::string title;
    for (const auto &x : m) title += std::get<0>(x) + " ";
    text += pubtator_doc(std::to_string(pmid++), title, "An abstract.", m);
  };
  add({{"Sourcin", "Gene", "S"}, {"Genex", "Gene", "G1"}});
  add({{"Genex", "Gene", "G1"}, {"Targetin", "Disease", "MESH:T"}});
  add({{"Sourcin", "Gene", "S"}, {"patients", "Species", "9606"}});
  add({{"patients", "Species", "9606"}, {"Targetin", "Disease", "MESH:T"}});
  add({{"Sourcin", "Gene", "S"}, {"Gtwo", "Gene", "G2"}, {"Gthree", "Gene", "G3"}});
  add({{"Gtwo", "Gene", "G2"}, {"Gthree", "Gene", "G3"}, {"Targetin", "Disease", "MESH:T"}});
  TempDir dir;
  grappi::KnowledgeGraph kg(dir.file("kb.db"));
  const auto docs = grappi::parse_documents(text, grappi::DocumentFormat::pubtator, "paths");
  grappi::import_cooccurrence(kg, grappi::build_cooccurrence(docs), dir.file("cooc.jsonl"));
  const int64_t s = kg.resolve("NCBIGene:S"), t = kg.resolve("MESH:T");
  grappi::HypothesisOptions o;
  o.max_length = 3;
  o.paths = 20;
  const auto joined = [](const grappi::HypothesisPath &p) {
    std::string out;
    for (const auto &n : p.names) out += (out.empty() ? "" : "-") + n;
    return out;
  };
  std::set<std::string> got;
  for (const auto &p : grappi::rank_hypothesis_paths(kg, s, t, o)) got.insert(joined(p));
  CHECK(got.count("Sourcin-Genex-Targetin") == 1);
  CHECK(got.count("Sourcin-patients-Targetin") == 0);  // (a species)
  // One of the two orders of G2 and G3 (the same concepts).
  CHECK(got.count("Sourcin-Gtwo-Gthree-Targetin") + got.count("Sourcin-Gthree-Gtwo-Targetin") == 1);
  o.generic_intermediates = true;
  o.fold_reorderings = false;
  got.clear();
  for (const auto &p : grappi::rank_hypothesis_paths(kg, s, t, o)) got.insert(joined(p));
  CHECK(got.count("Sourcin-patients-Targetin") == 1);
  CHECK(got.count("Sourcin-Gtwo-Gthree-Targetin") + got.count("Sourcin-Gthree-Gtwo-Targetin") == 2);
  // S-G2-G3-T rests on two papers; a path within one paper says so.
  for (const auto &p : grappi::rank_hypothesis_paths(kg, s, t, o)) {
    CHECK(p.papers >= 1);
    CHECK(p.single_paper == (p.papers == 1));
    REQUIRE(p.shares.size() == p.nodes.size());
  }
  o.max_intermediate_share = 0;
  CHECK_THROWS_AS(grappi::rank_hypothesis_paths(kg, s, t, o), grappi::Error);
}

TEST_CASE("The path ranker learns a planted pattern and is stored and loaded and refuses what it cannot read") {
  // Paths whose intermediates are chemicals are positive, others not; the edges' weights and
  // lengths say nothing.
  std::vector<grappi::PathRankerExample> train;
  for (int pair = 0; pair < 30; ++pair) {
    grappi::PathRankerExample x;
    for (int k = 0; k < 6; ++k) {
      grappi::HypothesisPath p;
      const bool chemical = k % 3 == 0;
      p.nodes = {1, 10 + k, 2};
      p.edges = {100 + k, 200 + k};
      p.names = {"A", "M", "B"};
      p.labels = {"Gene", chemical ? "Chemical" : "Disease", "Gene"};
      p.weights = {0.1 * ((pair + k) % 5), 0.2};
      p.jaccards = {0.1, 0.1};
      p.support = {std::size_t(1 + (pair * 7 + k) % 4), 2};
      p.latest_years = {2000, 2001};
      p.curated = {false, false};
      p.shares = {0.1, 0.01 * (1 + k), 0.1};
      p.pmids = {{1}, {2}};
      p.papers = 2;
      x.features.push_back(grappi::PathRanker::features(p));
      x.positive.push_back(chemical);
    }
    train.push_back(std::move(x));
  }
  const grappi::PathRanker r = grappi::PathRanker::train(train);
  REQUIRE(r.trained());
  CHECK(r.weights_json()["type_chemical"].get<double>() > 0);
  for (const auto &pair : train)
    for (std::size_t k = 0; k < pair.features.size(); ++k)
      for (std::size_t j = 0; j < pair.features.size(); ++j)
        if (pair.positive[k] && !pair.positive[j]) CHECK(r.score(pair.features[k]) > r.score(pair.features[j]));
  CHECK(r.info()["cross_validation"].size() == 5);  // (the prior alone and four penalties)
  // Deterministic.
  const grappi::PathRanker again = grappi::PathRanker::train(train);
  CHECK(again.weights_json() == r.weights_json());
  // Cross-validation holds a group's pairs out together: one group leaves nothing to hold out
  // (the prior alone, its scale fitted), two groups make two folds.
  std::vector<grappi::PathRankerExample> grouped = train;
  for (auto &x : grouped) x.group = "one document";
  const grappi::PathRanker one = grappi::PathRanker::train(grouped);
  CHECK(one.info()["cross_validation"].empty());
  CHECK(one.info()["l2"].is_null());
  CHECK(one.weights_json().size() == 2);  // (prior and bias)
  for (std::size_t q = 0; q < grouped.size(); ++q) grouped[q].group = q < 15 ? "early" : "late";
  const grappi::PathRanker two = grappi::PathRanker::train(grouped);
  REQUIRE(two.info()["cross_validation"].size() == 5);
  CHECK(two.weights_json()["type_chemical"].get<double>() > 0);  // (the pattern holds across the groups)
  // Stored and loaded back the same.
  TempDir dir;
  grappi::KnowledgeGraph kg(dir.file("r.db"));
  r.save(kg, "paths");
  const grappi::PathRanker loaded = grappi::PathRanker::load(kg, "paths");
  CHECK(loaded.score(train[0].features[0]) == r.score(train[0].features[0]));
  CHECK_THROWS_WITH_AS(grappi::PathRanker::load(kg, "nope"), doctest::Contains("no path ranker named 'nope'"),
                       grappi::Error);
  // Bad input.
  CHECK_THROWS_WITH_AS(grappi::PathRanker::train({}), doctest::Contains("positives and negatives"), grappi::Error);
  std::vector<grappi::PathRankerExample> bad = {train[0]};
  bad[0].features[0].pop_back();
  CHECK_THROWS_WITH_AS(grappi::PathRanker::train(bad), doctest::Contains("features, expected"), grappi::Error);
  CHECK_THROWS_AS(grappi::PathRanker().score(train[0].features[0]), grappi::Error);
  // A damaged ranker is refused with the reason.
  grappi::TrainedModel m = *kg.trained_model("paths");
  m.name = "damaged";
  m.spec = R"({"format": 1, "features": ["edges"], "mean": [0], "scale": [1], "weights": [1], "bias": 0})";
  kg.store_trained_model(m);
  CHECK_THROWS_WITH_AS(grappi::PathRanker::load(kg, "damaged"), doctest::Contains("other features"), grappi::Error);
  // A ranker fitted on an earlier prior (formats 2 to 5) would score with a weight fitted to
  // another prior: refused; one of format 1 (no prior) still reads.
  nlohmann::json spec = nlohmann::json::parse(kg.trained_model("paths")->spec);
  for (int format : {1, 2, 3, 4, 5}) {
    spec["format"] = format;
    spec["prior_weight"] = format == 1 ? 0.0 : 0.5;
    m.name = "format" + std::to_string(format);
    m.spec = spec.dump();
    kg.store_trained_model(m);
  }
  CHECK_NOTHROW(grappi::PathRanker::load(kg, "format1"));
  CHECK_THROWS_WITH_AS(grappi::PathRanker::load(kg, "format2"), doctest::Contains("train it again"), grappi::Error);
  CHECK_THROWS_WITH_AS(grappi::PathRanker::load(kg, "format3"), doctest::Contains("train it again"), grappi::Error);
  CHECK_THROWS_WITH_AS(grappi::PathRanker::load(kg, "format4"), doctest::Contains("train it again"), grappi::Error);
  CHECK_THROWS_WITH_AS(grappi::PathRanker::load(kg, "format5"), doctest::Contains("train it again"), grappi::Error);
}
