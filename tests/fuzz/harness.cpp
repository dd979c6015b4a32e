// The fuzz targets' bodies (harness.hpp).
#include "harness.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string_view>
#include <tuple>
#include <vector>

#include "agents/ask/answer_impl.hpp"
#include "common/json_input.hpp"
#include "common/mapped_file.hpp"
#include "common/section_file.hpp"
#include "grappi/grappi.hpp"
#include "store/cooc_store.hpp"
#include "store/graph_impl.hpp"
#include "agents/ask/question_impl.hpp"

namespace grappi_fuzz {

namespace {

// Every vector of an index, by ascending id, each with its cosine to itself (the cache_files target compares them).
std::vector<float> all_vectors(const grappi::VectorIndex &v) {
  std::vector<float> out;
  for (int64_t id : v.ids()) {
    const float *x = v.vector(id);
    out.insert(out.end(), x, x + v.dim());
    out.push_back(v.score(x, id, grappi::Metric::cosine));  // (1 with its own norm)
  }
  return out;
}

// What a tagger finds in a few texts and names, as text (the names_file target compares them).
std::string tag_text(const grappi::EntityTagger &t) {
  std::string out;
  for (const char *text : {"p53 and HDM2 in apoptotic process; Q00987 and tumor protein p53.", "MDM2 TP53 apoptosis"})
    for (const grappi::EntityMention &m : t.tag(std::string_view(text)))
      out += std::to_string(m.offset) + m.status + (m.entity() ? m.entity()->id : "-") + '\n';
  for (const char *name : {"p53", "HDM2", "apoptotic process"}) out += t.link(name).status + '\n';
  for (const grappi::EntityCandidate &c : t.by_id("Q00987")) out += c.id + '\n';
  return out;
}

[[noreturn]] void broken(const std::string &what) {
  std::fprintf(stderr, "grappi fuzz: invariant broken: %s\n", what.c_str());
  std::abort();
}

// A directory for the input files of this process (the importers read files, as users give them).
const std::string &scratch() {
  static const std::string dir = [] {
    char tmpl[] = "/tmp/grappi_fuzz_XXXXXX";
    if (!mkdtemp(tmpl)) std::abort();
    return std::string(tmpl);
  }();
  return dir;
}

void write_text(const std::string &path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

// An in-memory database's options: no snapshot cache file, a small page cache.
grappi::OpenOptions in_memory() {
  grappi::OpenOptions o;
  o.snapshot_cache = false;
  o.cache_mib = 8;
  return o;
}

// Imports the input as a file of `format` into a fresh in-memory database, through the real
// transaction path; a refused input must leave the database as it was.
void import_as(const char *format, const char *file_name, std::string_view input) {
  const std::string path = scratch() + "/" + file_name;
  write_text(path, input);
  grappi::KnowledgeGraph kg(":memory:", in_memory());
  grappi::ImportOptions io;
  io.edges.score_column = "3";
  try {
    const grappi::ImportReport r = kg.import({{path, format}}, io);
    (void)grappi::dump_json(grappi::to_json(r));  // the report is always writable
    const grappi::GraphStats s = kg.stats();
    if (s.nodes < 0 || s.edges < 0) broken("negative counts after an import");
  } catch (const grappi::Error &) {
    const grappi::GraphStats s = kg.stats();
    if (s.nodes != 0 || s.edges != 0 || s.aliases != 0 || !s.datasets.empty())
      broken(std::string("a refused ") + format + " import changed the database");
  }
}

void documents_as(grappi::DocumentFormat format, std::string_view input) {
  try {
    const auto docs = grappi::parse_documents(input, format, "fuzz");
    for (const auto &d : docs)
      for (const auto &p : d.passages)
        for (const auto &a : p.annotations)
          if (a.offset > p.text.size() || a.length > p.text.size() - a.offset) broken("a mention outside its passage");
  } catch (const grappi::Error &) {
  }
}

// ---- the model-answer targets: a model whose every answer is the input, through the real
// pipelines (parsing, repair turns, validation, the checks against the knowledge base) ----------

// One PubTator abstract naming two diseases, for the co-occurrence graph.
std::string pubtator(const std::string &pmid, const std::string &text, const std::string &a, const std::string &b) {
  const auto mention = [&](const std::string &name) {
    return pmid + "\t" + std::to_string(text.find(name)) + "\t" + std::to_string(text.find(name) + name.size()) + "\t" +
           name + "\tDisease\tMESH:" + name + "\n";
  };
  return pmid + "|t|" + text + "\n" + pmid + "|a|\n" + mention(a) + mention(b) + "\n";
}

// Built once per process: four human proteins and their links, a small PSI-MI subtree, and a
// co-occurrence graph of four abstracts (Axonin - Xenopin - Tumorin).
struct ModelKb {
  std::unique_ptr<grappi::KnowledgeGraph> kg;
  std::vector<grappi::Document> corpus;
  std::vector<grappi::Document> paper;
  ModelKb() {
    const std::string info = scratch() + "/9606.protein.info.v12.0.txt", links = scratch() + "/9606.protein.links.v12.0.txt",
                      obo = scratch() + "/mi.obo";
    write_text(info, "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n"
                     "9606.ENSP00000451828\tAKT1\t480\tRAC-alpha serine/threonine-protein kinase\n"
                     "9606.ENSP00000354558\tMTOR\t2549\tSerine/threonine-protein kinase mTOR\n"
                     "9606.ENSP00000339007\tGRB2\t217\tGrowth factor receptor-bound protein 2\n"
                     "9606.ENSP00000275493\tEGFR\t1210\tEpidermal growth factor receptor\n");
    write_text(links, "protein1 protein2 combined_score\n"
                      "9606.ENSP00000451828 9606.ENSP00000354558 999\n9606.ENSP00000354558 9606.ENSP00000451828 999\n"
                      "9606.ENSP00000339007 9606.ENSP00000275493 999\n9606.ENSP00000275493 9606.ENSP00000339007 999\n");
    write_text(obo, "format-version: 1.2\nontology: mi\n\n"
                    "[Term]\nid: MI:0190\nname: interaction type\ndef: \"Connection between molecules.\" [PMID:14755292]\n\n"
                    "[Term]\nid: MI:0914\nname: association\nis_a: MI:0190\n\n"
                    "[Term]\nid: MI:0915\nname: physical association\nis_a: MI:0914\n\n"
                    "[Term]\nid: MI:0407\nname: direct interaction\nsynonym: \"binding\" EXACT []\nis_a: MI:0915\n\n"
                    "[Term]\nid: MI:0414\nname: enzymatic reaction\nis_a: MI:0407\n\n"
                    "[Term]\nid: MI:0217\nname: phosphorylation reaction\nis_a: MI:0414\n\n"
                    "[Term]\nid: MI:0203\nname: dephosphorylation reaction\nis_a: MI:0414\n\n"
                    "[Term]\nid: MI:0208\nname: genetic interaction\nis_a: MI:0190\nis_obsolete: true\n");
    kg = std::make_unique<grappi::KnowledgeGraph>(":memory:", in_memory());
    kg->import({{info, "info"}, {links, "links"}, {obo, "obo"}});
    corpus = grappi::parse_documents(pubtator("101", "Axonin binds Xenopin in neurons.", "Axonin", "Xenopin") +
                                         pubtator("102", "Axonin and Xenopin again, in glia.", "Axonin", "Xenopin") +
                                         pubtator("103", "Xenopin causes Tumorin growth.", "Xenopin", "Tumorin") +
                                         pubtator("104", "Xenopin and Tumorin later.", "Xenopin", "Tumorin"),
                                     grappi::DocumentFormat::pubtator, "fuzz");
    grappi::import_cooccurrence(*kg, grappi::build_cooccurrence(corpus), scratch() + "/cooc.jsonl");
    // (a family and its member, FamPlex's way, for the rule table's membership rule)
    const std::string fp = scratch() + "/model_famplex";
    std::filesystem::create_directories(fp);
    write_text(fp + "/entities.csv", "AKT\n");
    write_text(fp + "/relations.csv", "HGNC,AKT1,isa,FPLX,AKT\n");
    write_text(fp + "/grounding_map.csv", "Akt kinase,FPLX,AKT,,,,\n");
    kg->import({{fp, "famplex"}});
    paper = grappi::parse_documents("AKT1 phosphorylates MTOR at Ser2448. GRB2 binds EGFR.\n\n"
                                    "The interaction between GRB2 and EGFR was confirmed in HeLa cells.\n",
                                    grappi::DocumentFormat::text, "fuzz");
  }
};

const ModelKb &model_kb() {
  static const ModelKb kb;
  return kb;
}

// A model that answers every request with the input (not cached: each run is new).
std::unique_ptr<grappi::CallbackModel> answering(std::string_view input) {
  return std::make_unique<grappi::CallbackModel>(
      "fuzz",
      [text = std::string(input)](const grappi::ChatRequest &) {
        grappi::ChatResponse r;
        r.content = text;
        r.finish_reason = "stop";
        return r;
      },
      false, 1);
}

// GRAPPI_FUZZ_SHOW=1 prints what the model-answer targets made of each input (to write seeds).
void show(const nlohmann::json &result) {
  static const bool on = std::getenv("GRAPPI_FUZZ_SHOW") != nullptr;
  if (on) std::fprintf(stderr, "%s\n", grappi::dump_json(result, 1).c_str());
}

void extraction_with(std::string_view input) {
  const ModelKb &kb = model_kb();
  const auto model = answering(input);
  grappi::ExtractionOptions o;
  o.concurrency = 1;
  o.use_cache = false;
  const grappi::ExtractionResult r = grappi::Extractor(*kb.kg, *model, o).extract(kb.paper);
  for (const grappi::ExtractedStatement &st : r.statements) {
    if (st.status != "valid" && st.status != "flagged" && st.status != "rejected") broken("a statement status " + st.status);
    if (st.status == "rejected" && !st.canonical.empty()) broken("a rejected statement with a canonical form");
    if (st.evidence_offset && *st.evidence_offset > r.paragraphs.at(st.paragraph).text.size())
      broken("evidence outside its paragraph");
  }
  const nlohmann::json j = grappi::to_json(r);
  (void)grappi::dump_json(j);
  show(j);
  (void)grappi::dump_json(grappi::to_cx2(r, "fuzz", true));
  std::ostringstream bel;
  grappi::write_bel_script(bel, r, true);
}

void grounding_with(std::string_view input) {
  const ModelKb &kb = model_kb();
  const auto model = answering(input);
  grappi::GroundingOptions o;
  o.use_cache = false;
  o.strategy = grappi::GroundingStrategy::bfs;
  o.patience = 0;  // every live term scored, three to a request
  o.batch = 3;
  const grappi::GroundingResult r =
      grappi::ground(*kb.kg, *model, "AKT1 phosphorylates MTOR at Ser2448 in HeLa cells.", "AKT1", "MTOR", o);
  if (r.term && r.term->id.rfind("MI:", 0) != 0) broken("a chosen term outside the ontology: " + r.term->id);
  if (r.term && r.term->id == "MI:0208") broken("an obsolete term chosen");
  for (const grappi::GroundingVisit &v : r.visits)
    if (v.score && (*v.score < 1 || *v.score > 5)) broken("a term score outside 1-5");
  const nlohmann::json j = grappi::to_json(r);
  (void)grappi::dump_json(j);
  show(j);
}

void hypothesis_with(std::string_view input) {
  const ModelKb &kb = model_kb();
  const auto model = answering(input);
  grappi::HypothesisOptions o;
  o.use_cache = false;
  o.rounds = 2;
  const grappi::HypothesisResult r = grappi::hypothesize(*kb.kg, *model, "Axonin", "Tumorin", kb.corpus, o);
  for (const grappi::HypothesisRound &round : r.rounds)
    for (const grappi::HypothesisSentence &st : round.sentences)
      if (st.status != "quoted" && st.status != "curated" && st.status != "co-mentioned" && st.status != "unsupported" &&
          st.status != "bad_citation" && st.status != "unchecked")
        broken("a sentence status " + st.status);
  const nlohmann::json j = grappi::to_json(r);
  (void)grappi::dump_json(j);
  show(j);
  (void)grappi::to_markdown(r);
}

// What a question asks: entities inside the text at the offsets they claim, an intent of the
// five, the JSON always writable.
void question_with(std::string_view input) {
  static const grappi::QuestionAnalyzer analyzer(*model_kb().kg);
  grappi::QuestionAnalysis a;
  try {
    a = analyzer.analyze(input);
  } catch (const grappi::Error &) {
    return;  // (an empty question)
  }
  const auto &intents = grappi::question_intents();
  if (std::find(intents.begin(), intents.end(), a.intent) == intents.end()) broken("an intent " + a.intent);
  for (const grappi::QuestionEntity &e : a.entities) {
    if (e.offset > input.size() || e.length > input.size() - e.offset) broken("an entity outside the question");
    if (input.substr(e.offset, e.length) != e.text) broken("an entity's text is not the question's at its offset");
    if (!model_kb().kg->node(e.node)) broken("an entity that is no node");
  }
  if ((a.intent == "connects" || a.intent == "paths") && a.entities.size() < 2) broken(a.intent + " with one entity");
  if (a.intent != "open" && a.entities.empty()) broken(a.intent + " without an entity");
  (void)grappi::dump_json(grappi::to_json(a));
}

// A paper's text: the organisms it names, the abbreviations it defines and its mentions as the
// paper's context grounds them, each inside the text and saying what it is.
void paper_names_with(std::string_view input) {
  for (const grappi::OrganismEvidence &e : grappi::organisms_in_text(input))
    if (e.count == 0 || e.cues.empty() || e.first >= input.size() || !e.taxon) broken("an organism without its evidence");
  for (const grappi::Abbreviation &a : grappi::abbreviations_in_text(input)) {
    if (a.offset > input.size() || input.substr(a.offset, a.short_form.size()) != a.short_form)
      broken("an abbreviation's short form is not the text's at its offset");
    if (a.long_form.size() <= a.short_form.size()) broken("a long form no longer than its short form");
  }
  static const std::shared_ptr<const grappi::EntityTagger> tagger = grappi::EntityTagger::shared(*model_kb().kg);
  grappi::Document d;
  d.id = "fuzz";
  grappi::DocumentPassage p;
  p.text = std::string(input);
  d.passages.push_back(p);
  const grappi::PaperContext ctx = tagger->read_paper(d);
  for (const grappi::Abbreviation &a : ctx.abbreviations)
    if ((a.meaning == "entity") != a.entity.has_value()) broken("an abbreviation's meaning without its entity");
  for (const grappi::EntityMention &m : tagger->tag(d.passages[0], ctx)) {
    if (m.offset > input.size() || m.length > input.size() - m.offset) broken("a mention outside the text");
    if (m.chosen && *m.chosen >= m.candidates.size()) broken("a chosen candidate out of range");
  }
}

// A paper through the rule table (the offline extractor) over the model knowledge base: every
// statement names mentions of its paragraph, carries a documented status and lies in the text.
void offline_extraction_with(std::string_view input) {
  static grappi::ExtractiveModel model;
  grappi::ExtractionOptions o;
  o.concurrency = 1;
  o.use_cache = false;
  grappi::Document d;
  d.id = "fuzz";
  grappi::DocumentPassage p;
  p.text = std::string(input);
  d.passages.push_back(p);
  const grappi::ExtractionResult r = grappi::Extractor(*model_kb().kg, model, o).extract({d});
  for (const grappi::ExtractedStatement &st : r.statements) {
    if (st.status != "valid" && st.status != "flagged" && st.status != "rejected") broken("a statement status " + st.status);
    const grappi::ExtractionParagraph &para = r.paragraphs.at(st.paragraph);
    for (std::size_t m : st.mentions)
      if (m >= para.entities.size()) broken("a statement names a mention its paragraph does not have");
    if (st.evidence_offset && *st.evidence_offset > para.text.size()) broken("evidence outside its paragraph");
    if (st.origin.rfind("rule:", 0) != 0) broken("an offline statement without its rule");
  }
  (void)grappi::dump_json(grappi::to_json(r));
}

// A model's reading of a question's intent: taken only when it holds up, else nothing changes.
void model_intent_with(std::string_view input) {
  static const grappi::QuestionAnalysis rules = [] {
    const grappi::QuestionAnalyzer analyzer(*model_kb().kg);
    return analyzer.analyze("Tell me about AKT1 and MTOR in growth signalling.");
  }();
  grappi::QuestionAnalysis a = rules;
  std::string error;
  if (grappi::detail::apply_model_intent(a, input, error)) {
    if (a.source != "model") broken("a model's intent not marked as the model's");
    if (a.entities.size() != rules.entities.size()) broken("a model's intent changed the entities found");
    if (a.intent == "class" && a.topic.empty()) broken("class without a topic");
  } else {
    if (error.empty()) broken("a refused intent without a reason");
    if (a.intent != rules.intent || a.source != "rules" || a.entities.size() != rules.entities.size())
      broken("a refused intent changed the analysis");
  }
}

// One message to the MCP server (grappi/mcp.hpp) of the model knowledge base: a JSON-RPC message
// as given, or (input not beginning with '{') the arguments of a call of the tool its first byte
// picks. Every answer is one JSON-RPC message, a result or an error, and a request ends once.
void mcp_message_with(std::string_view input) {
  static grappi::McpServer server(*model_kb().kg, std::make_shared<grappi::ExtractiveModel>());
  static const std::string session = [] {
    const std::string s = server.open_session();
    server.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}})", s,
                  [](const std::string &, bool) {});
    return s;
  }();
  static const std::vector<std::string> tools = [] {
    std::vector<std::string> names;
    const nlohmann::json list = nlohmann::json::parse(server.tools_json());
    for (const auto &t : list["tools"]) names.push_back(t["name"]);
    return names;
  }();
  std::string message(input);
  if (!input.empty() && input[0] != '{') {
    const nlohmann::json args = grappi::detail::parse_json_or_discarded(input.substr(1));
    if (args.is_discarded()) return;
    message = nlohmann::json({{"jsonrpc", "2.0"},
                              {"id", 1},
                              {"method", "tools/call"},
                              {"params", {{"name", tools[static_cast<unsigned char>(input[0]) % tools.size()]}, {"arguments", args}}}})
                  .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  std::mutex mu;
  std::size_t ends = 0;
  const bool answer = server.handle(message, session, [&](const std::string &m, bool last) {
    std::lock_guard<std::mutex> lock(mu);
    ends += last;
    if (m.empty()) return;
    const nlohmann::json j = nlohmann::json::parse(m, nullptr, false);
    if (j.is_discarded() || j.value("jsonrpc", "") != "2.0") broken("an answer that is no JSON-RPC message");
    if (last && j.contains("result") == j.contains("error")) broken("an answer with both or neither of result and error");
  });
  server.wait();
  if (answer != (ends == 1)) broken("a request that did not end exactly once");
}

// A mapping table over a database of two proteins and a GO term: joins, synonyms and GO
// annotations through the real path; a refused table leaves the database as it was.
// Two human proteins and a GO term, imported into `kg`.
void two_proteins_and_go(grappi::KnowledgeGraph &kg) {
  static const std::string info = scratch() + "/9606.protein.info.v12.0.txt", obo = scratch() + "/go.obo";
  write_text(info, "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n"
                   "9606.ENSP00000340820\tMAPT\t758\tMicrotubule-associated protein tau\n"
                   "9606.ENSP00000269571\tERBB2\t1255\tReceptor tyrosine-protein kinase erbB-2\n");
  write_text(obo, "format-version: 1.2\nontology: go\n\n[Term]\nid: GO:0005515\nname: protein binding\n"
                  "namespace: molecular_function\n");
  kg.import({{info, "info"}, {obo, "obo"}});
}

// Whether the database holds what it held (a refused import must leave it so).
bool unchanged(const grappi::KnowledgeGraph &kg, const grappi::GraphStats &before) {
  const grappi::GraphStats s = kg.stats();
  return s.nodes == before.nodes && s.edges == before.edges && s.aliases == before.aliases &&
         s.datasets.size() == before.datasets.size();
}

// How many proteins a graph holds.
std::size_t proteins_in(const grappi::KnowledgeGraph &kg) {
  const auto g = kg.snapshot();
  std::size_t n = 0;
  for (uint32_t i = 0; i < g->node_count(); ++i) n += g->label(i) == "Protein";
  return n;
}

void mapping_into(std::string_view input) {
  grappi::KnowledgeGraph kg(":memory:", in_memory());
  two_proteins_and_go(kg);
  const grappi::GraphStats before = kg.stats();
  const std::string path = scratch() + "/genes.tsv";
  write_text(path, input);
  try {
    const grappi::ImportReport r = kg.import({{path, "mapping"}});
    (void)grappi::dump_json(grappi::to_json(r));
    if (kg.stats().nodes != before.nodes) broken("a mapping table created nodes");
  } catch (const grappi::Error &) {
    if (!unchanged(kg, before)) broken("a refused mapping import changed the database");
  }
}

// STRING's functional annotations over a database of two proteins and a GO term: a refused file
// leaves the database as it was; an accepted one adds no protein and every edge it adds is an
// annotation (go.* or annotation.*) from a protein.
void annotations_into(std::string_view input) {
  grappi::KnowledgeGraph kg(":memory:", in_memory());
  two_proteins_and_go(kg);
  const grappi::GraphStats before = kg.stats();
  const std::size_t proteins = proteins_in(kg);
  const std::string path = scratch() + "/annotations.tsv";
  write_text(path, input);
  try {
    const grappi::ImportReport r = kg.import({{path, "annotations"}});
    (void)grappi::dump_json(grappi::to_json(r));
    // (the database had no edge: every edge is the file's)
    for (const auto &[relation, n] : kg.stats().edges_by_relation)
      if (relation.rfind("go.", 0) != 0 && relation.rfind("annotation.", 0) != 0)
        broken("an annotation file added an edge of relation " + relation);
    if (proteins_in(kg) != proteins) broken("an annotation file created a protein");
  } catch (const grappi::Error &) {
    if (!unchanged(kg, before)) broken("a refused annotation import changed the database");
  }
}

// FamPlex's tables (the input split at lines "---" into entities, relations, grounding map,
// equivalences and descriptions) over a database of two human proteins: a refused import leaves
// it as it was; an accepted one gives families whose members are proteins, and names that link.
void famplex_into(std::string_view input) {
  static const std::string info = scratch() + "/9606.protein.info.v12.0.txt", genes = scratch() + "/genes.tsv";
  write_text(info, "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n"
                   "9606.ENSP00000451828\tAKT1\t480\tRAC-alpha serine/threonine-protein kinase\n"
                   "9606.ENSP00000269305\tTP53\t393\tCellular tumor antigen p53\n");
  write_text(genes, "entrez_gene_id\tsymbol\tuniprot_accessions\n207\tAKT1\tP31749\n7157\tTP53\tP04637\n");
  grappi::KnowledgeGraph kg(":memory:", in_memory());
  kg.import({{info, "info"}, {genes, "mapping"}});
  const grappi::GraphStats before = kg.stats();
  const std::string dir = scratch() + "/famplex";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directory(dir);
  const char *const files[] = {"entities.csv", "relations.csv", "grounding_map.csv", "equivalences.csv", "descriptions.csv"};
  std::size_t at = 0;
  for (std::size_t f = 0; f < 5; ++f) {
    const std::size_t end = input.find("\n---\n", at);
    write_text(dir + "/" + files[f], input.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    at = end == std::string_view::npos ? input.size() : end + 5;
  }
  try {
    const grappi::ImportReport r = kg.import({{dir, "famplex"}});
    (void)grappi::dump_json(grappi::to_json(r));
    if (kg.stats().edges != before.edges) broken("FamPlex's tables made edges");
    const grappi::EntityTagger tagger(kg);
    for (const std::string name : {"Akt", "AKT", "p53", "PKB"}) {
      const grappi::EntityMention m = tagger.link(name);
      if (const grappi::EntityCandidate *c = m.entity())
        for (const grappi::EntityCandidate &x : tagger.members(c->node))
          if (x.label != "Protein") broken("a family's member that is no protein");
    }
  } catch (const grappi::Error &) {
    const grappi::GraphStats s = kg.stats();
    if (s.nodes != before.nodes || s.aliases != before.aliases || s.datasets.size() != before.datasets.size())
      broken("a refused FamPlex import changed the database");
  }
}

using Body = std::function<void(std::string_view)>;

const std::map<std::string, Body> &bodies() {
  static const std::map<std::string, Body> b = {
      {"import_string_info", [](std::string_view s) { import_as("info", "9606.protein.info.v12.0.txt", s); }},
      {"import_string_aliases", [](std::string_view s) { import_as("aliases", "9606.protein.aliases.v12.0.txt", s); }},
      {"import_string_links", [](std::string_view s) { import_as("detailed", "9606.protein.links.detailed.v12.0.txt", s); }},
      {"import_string_actions", [](std::string_view s) { import_as("actions", "9606.protein.actions.v12.0.txt", s); }},
      {"import_string_export", [](std::string_view s) { import_as("export", "string_interactions.tsv", s); }},
      {"import_detect", [](std::string_view s) { import_as("detect", "input.txt", s); }},
      {"import_obo", [](std::string_view s) { import_as("obo", "input.obo", s); }},
      {"import_mitab", [](std::string_view s) { import_as("mitab", "input.mitab27.tsv", s); }},
      {"import_bel", [](std::string_view s) { import_as("bel", "input.bel", s); }},
      {"import_cx2", [](std::string_view s) { import_as("cx2", "input.cx2", s); }},
      {"import_jsonl", [](std::string_view s) { import_as("jsonl", "input.jsonl", s); }},
      {"import_edges", [](std::string_view s) { import_as("edges", "input.tsv", s); }},
      {"import_mapping", mapping_into},
      {"import_annotations", annotations_into},
      {"import_famplex", famplex_into},
      {"review_file",
       [](std::string_view s) {
         const std::string path = scratch() + "/review.tsv";
         write_text(path, s);
         try {
           for (const grappi::ReviewRow &r : grappi::read_review(path))
             if (r.decision != "accept" && r.decision != "reject" && !r.decision.empty()) broken("a decision read that is none");
         } catch (const grappi::Error &) {
         }
       }},
      {"cooc_partial",
       [](std::string_view s) {
         // A partial-count file merged into a builder that holds a document: refused (the builder
         // unchanged) or taken in, and the graph always finishes.
         const std::string path = scratch() + "/part.cooc";
         write_text(path, s);
         grappi::CoocBuilder builder;
         grappi::Document d;
         d.id = d.pmid = "1";
         grappi::DocumentPassage p;
         p.text = "TP53 binds MDM2";
         p.annotations = {{0, 4, "TP53", "Gene", "7157"}, {11, 4, "MDM2", "Gene", "4193"}};
         d.passages.push_back(p);
         builder.add(d);
         try {
           (void)builder.merge_file(path);
         } catch (const grappi::Error &) {
           if (builder.documents() != 1) broken("a refused partial-count file changed the builder");
         }
         const grappi::CoocGraph g = builder.finish();
         for (const grappi::CoocEdge &e : g.edges)
           for (uint32_t doc : e.documents)
             if (doc >= g.pmids.size()) broken("an edge's document outside the graph's documents");
       }},
      {"cooc_evidence",
       [](std::string_view s) {
         // A co-occurrence edge's compact evidence (its blob) read back against its dataset: no
         // evidence, or documents the dataset holds and a record that is JSON, never a crash.
         static const std::unique_ptr<grappi::KnowledgeGraph> kb = [] {
           auto g = std::make_unique<grappi::KnowledgeGraph>(":memory:", in_memory());
           grappi::import_cooccurrence(*g, grappi::build_cooccurrence(model_kb().corpus), "");
           return g;
         }();
         static const grappi::Edge edge = *kb->edge(kb->edges_between(kb->node_by_external_id("MESH:Xenopin")->id,
                                                                      kb->node_by_external_id("MESH:Tumorin")->id).at(0).id);
         grappi::detail::CoocEvidenceReader reader(grappi::detail::GraphAccess::impl(*kb).db);
         const auto f = reader.facts(edge.dataset_id, edge.source, edge.target, s.data(), s.size());
         if (!f) return;
         if (f->documents.empty() || f->documents.size() > 4) broken("a co-occurrence record's documents");
         if (!nlohmann::json::accept(grappi::detail::cooc_record_json(*f)) ||
             !nlohmann::json::accept(grappi::detail::cooc_evidence_json(*f)))
           broken("a co-occurrence record that is not JSON");
       }},
      {"cache_files",
       [](std::string_view s) {
         // The mapped cache files beside a database (the CSR snapshot "<db>.csr", the neighbor ranking "<db>.knn",
         // the vectors "<db>.vec"): valid files made once per process, then the input's first byte picks the file
         // (its low bits modulo 3) and the rest are edits (3 bytes of offset, 1 byte xor'ed in) or, with the byte's
         // high bit, the file's whole new content. Opening must never crash, and what is accepted must be the
         // database's own content.
         struct Files {
           std::string db, csr, knn, vec;
           std::vector<std::tuple<int64_t, int64_t, float>> adjacency;
           std::size_t ranked = 0;
           std::vector<float> vectors;  // every node's vector, by ascending id
         };
         static const Files f = [] {
           Files x;
           x.db = scratch() + "/cache.db";
           grappi::KnowledgeGraph kg(x.db);
           std::vector<int64_t> ids;
           for (int i = 0; i < 24; ++i)
             ids.push_back(kg.add_node({"9606.P" + std::to_string(i), "P" + std::to_string(i), i % 5 ? "Protein" : "Gene",
                                        "protein number " + std::to_string(i), 0, "{}"}));
           for (int i = 0; i < 24; ++i)
             for (int j : {1, 3, 7}) {
               grappi::EdgeInput e;
               e.source = ids[i];
               e.target = ids[(i + j) % 24];
               e.relation = j == 7 ? "test.other" : "string.combined";
               e.score = 0.1 + 0.03 * i;
               kg.add_edge(e);
             }
           grappi::HashingEmbedderOptions ho;
           ho.dimension = 16;
           grappi::HashingEmbedder he(ho);
           grappi::embed_graph(kg, he);
           const auto snap = kg.snapshot();
           for (uint32_t u = 0; u < snap->node_count(); ++u) {
             const auto a = snap->adjacency(u);
             for (std::size_t k = 0; k < a.size; ++k) x.adjacency.emplace_back(snap->node_id(u), snap->node_id(a.neighbor[k]), a.score[k]);
           }
           x.ranked = grappi::graph_retriever(kg)->neighbor_ranking_entries();
           x.vectors = all_vectors(*grappi::graph_vectors(kg));
           std::ifstream c(x.db + ".csr", std::ios::binary), k(x.db + ".knn", std::ios::binary), v(x.db + ".vec", std::ios::binary);
           x.csr.assign(std::istreambuf_iterator<char>(c), {});
           x.knn.assign(std::istreambuf_iterator<char>(k), {});
           x.vec.assign(std::istreambuf_iterator<char>(v), {});
           if (x.csr.empty() || x.knn.empty() || x.vec.empty() || x.ranked == 0 || x.vectors.empty()) std::abort();
           return x;
         }();
         if (s.empty()) return;
         const int which = (s[0] & 0x7f) % 3;
         const std::string &original = which == 0 ? f.csr : which == 1 ? f.knn : f.vec;
         const char *suffix = which == 0 ? ".csr" : which == 1 ? ".knn" : ".vec";
         std::string bytes = original;
         if (s[0] & 0x80) {
           bytes.assign(s.data() + 1, s.size() - 1);
         } else {
           for (std::size_t i = 1; i + 4 <= s.size(); i += 4) {
             const std::size_t at = (static_cast<unsigned char>(s[i]) | static_cast<unsigned char>(s[i + 1]) << 8 |
                                     static_cast<std::size_t>(static_cast<unsigned char>(s[i + 2])) << 16) % bytes.size();
             bytes[at] = static_cast<char>(bytes[at] ^ s[i + 3]);
           }
         }
         write_text(f.db + suffix, bytes);
         {
           grappi::OpenOptions o;
           o.read_only = true;  // (a reader: the file is used or ignored, never rewritten)
           grappi::KnowledgeGraph kg(f.db, o);
           const auto snap = kg.snapshot();
           std::vector<std::tuple<int64_t, int64_t, float>> got;
           for (uint32_t u = 0; u < snap->node_count(); ++u) {
             const auto a = snap->adjacency(u);
             for (std::size_t k = 0; k < a.size; ++k) got.emplace_back(snap->node_id(u), snap->node_id(a.neighbor[k]), a.score[k]);
           }
           if (got != f.adjacency) broken("a cache file changed the snapshot");
           const auto r = grappi::graph_retriever(kg);
           if (r->has_neighbor_ranking() && r->neighbor_ranking_entries() != f.ranked) broken("a cache file changed the ranking");
           grappi::WindowOptions w;
           r->window(snap->node_id(0), w);
           if (all_vectors(*grappi::graph_vectors(kg)) != f.vectors) broken("a cache file changed the vectors");
           if (grappi::query_vector(kg, "protein number 3").empty()) broken("no query vector");
         }
         write_text(f.db + ".csr", f.csr);
         write_text(f.db + ".knn", f.knn);
         write_text(f.db + ".vec", f.vec);
       }},
      {"names_file",
       [](std::string_view s) {
         // The name dictionary file "<db>.names.<options>" with its checksums made right around the input (so that what the
         // fuzzer writes reaches the reader past them): the input's first byte with its high bit set makes the rest
         // the whole stream, else the rest are edits of the real stream (3 bytes of offset, 1 byte xor'ed in). The
         // tagger must refuse it or read it, never crash, hang or allocate without bound, and then tag and link.
         struct Names {
           std::string db, file, key, payload, reference;
           char magic[16];
         };
         static const Names f = [] {
           Names x;
           x.db = scratch() + "/names.db";
           {
             grappi::KnowledgeGraph kg(x.db);
             const int64_t a = kg.add_node({"9606.ENSP00000269305", "TP53", "Protein", "Cellular tumor antigen p53; Acts", 0, "{}"});
             const int64_t m = kg.add_node({"9606.ENSP00000258149", "MDM2", "Protein", "E3 ubiquitin-protein ligase Mdm2", 0, "{}"});
             kg.add_node({"GO:0006915", "apoptotic process", "OntologyTerm", "", 0, "{\"namespace\":\"biological_process\"}"});
             kg.add_alias(a, "p53", "BLAST_UniProt_GN");
             kg.add_alias(a, "tumor protein p53", "mapping:gene_name");
             kg.add_alias(m, "HDM2", "BLAST_UniProt_GN");
             kg.add_alias(m, "Q00987", "UniProt_AC");
             x.reference = tag_text(grappi::EntityTagger(kg));
           }
           std::string path;  // ("<db>.names.<options>": the one file of the default options)
           for (const auto &e : std::filesystem::directory_iterator(scratch()))
             if (e.path().filename().string().rfind("names.db.names.", 0) == 0) path = e.path().string();
           x.file = path;
           const auto mapped = grappi::detail::MappedFile::open(path);
           grappi::detail::SectionFile sf;
           if (!mapped || mapped->size() < 16) std::abort();
           std::memcpy(x.magic, mapped->data(), 16);
           if (!sf.open(*mapped, x.magic, 2)) std::abort();
           x.key.assign(static_cast<const char *>(sf[0].data), sf[0].size);
           x.payload.assign(static_cast<const char *>(sf[1].data), sf[1].size);
           return x;
         }();
         if (s.empty()) return;
         std::string bytes = f.payload;
         if (s[0] & 0x80) {
           bytes.assign(s.data() + 1, s.size() - 1);
         } else {
           for (std::size_t i = 1; i + 4 <= s.size() && !bytes.empty(); i += 4) {
             const std::size_t at = (static_cast<unsigned char>(s[i]) | static_cast<unsigned char>(s[i + 1]) << 8 |
                                     static_cast<std::size_t>(static_cast<unsigned char>(s[i + 2])) << 16) % bytes.size();
             bytes[at] = static_cast<char>(bytes[at] ^ s[i + 3]);
           }
         }
         grappi::detail::write_section_file(f.file, f.magic, {{f.key.data(), f.key.size()}, {bytes.data(), bytes.size()}},
                                            "fuzz");
         grappi::KnowledgeGraph kg(f.db);
         const std::string got = tag_text(grappi::EntityTagger(kg));
         if (bytes == f.payload && got != f.reference) broken("the dictionary read back differs from the one derived");
       }},
      {"embed_vectors",
       [](std::string_view s) {
         // A vectors file of an embedding in parts stored over a two-node graph: refused with
         // nothing stored, or stored with every vector finite.
         const std::string path = scratch() + "/part.vectors";
         write_text(path, s);
         grappi::KnowledgeGraph kg(":memory:", in_memory());
         kg.add_node({"9606.A", "TP53", "Protein", "tumour suppressor", 0, "{}"});
         kg.add_node({"9606.B", "MDM2", "Protein", "E3 ubiquitin ligase", 0, "{}"});
         grappi::HashingEmbedderOptions o;
         o.dimension = 8;
         grappi::HashingEmbedder e(o);
         e.fit({"TP53: tumour suppressor", "MDM2: E3 ubiquitin ligase"});  // (the nodes' texts, as embed fits)
         grappi::EmbedOptions eo;
         eo.neighbor_ranking = false;
         try {
           (void)grappi::embed_from_parts(kg, e, {path}, eo);
         } catch (const grappi::Error &) {
           if (!kg.embedding_models().empty()) broken("a refused vectors file stored a model");
           return;
         }
         const auto v = grappi::graph_vectors(kg);
         for (int64_t id : v->ids())
           for (std::size_t k = 0; k < v->dim(); ++k)
             if (!std::isfinite(v->vector(id)[k])) broken("a non-finite vector stored");
       }},
      {"extraction_part",
       [](std::string_view s) {
         // An extraction part read back and merged with itself: refused, or every output of the
         // merged result writable (JSON, BEL, CX2, the review file).
         const std::string path = scratch() + "/part.extraction";
         write_text(path, s);
         try {
           const grappi::ExtractionResult r = grappi::load_extraction(path);
           const grappi::ExtractionResult m = grappi::merge_extractions({r, r});
           if (m.statements.size() != 2 * r.statements.size()) broken("a merge lost statements");
           (void)grappi::dump_json(grappi::to_json(m));
           std::ostringstream bel, review;
           grappi::write_bel_script(bel, m, true);
           (void)grappi::dump_json(grappi::to_cx2(m, "fuzz", true));
           grappi::write_review(review, m);
         } catch (const grappi::Error &) {
         }
       }},
      {"documents_text", [](std::string_view s) { documents_as(grappi::DocumentFormat::text, s); }},
      {"documents_pubtator", [](std::string_view s) { documents_as(grappi::DocumentFormat::pubtator, s); }},
      {"documents_bioc_xml", [](std::string_view s) { documents_as(grappi::DocumentFormat::bioc_xml, s); }},
      {"documents_bioc_json", [](std::string_view s) { documents_as(grappi::DocumentFormat::bioc_json, s); }},
      {"documents_ppi_xml", [](std::string_view s) { documents_as(grappi::DocumentFormat::ppi_xml, s); }},
      {"documents_jsonl", [](std::string_view s) { documents_as(grappi::DocumentFormat::jsonl, s); }},
      {"bel_script",
       [](std::string_view s) {
         std::istringstream in{std::string(s)};
         const grappi::BelDocument doc = grappi::read_bel_script(in);
         (void)grappi::dump_json(grappi::to_json(doc, false));
       }},
      {"qa_questions",
       [](std::string_view s) {
         try {
           (void)grappi::parse_qa_questions(s, "fuzz");
         } catch (const grappi::Error &) {
         }
       }},
      {"model_path_answer",
       [](std::string_view s) {
         const grappi::PathAnswer p = grappi::parse_path_answer(s);
         if (p.ok && !(p.relevance_score >= 0 && p.relevance_score <= 100)) broken("a parsed score outside [0, 100]");
         (void)grappi::parse_edge_answer(s);
       }},
      {"model_extraction_answer", extraction_with},
      {"model_grounding_answer", grounding_with},
      {"model_hypothesis_answer", hypothesis_with},
      {"model_ask_answer",
       [](std::string_view s) {
         const grappi::detail::ParsedAnswer a = grappi::detail::parse_answer(s);
         if (a.ok && a.sentences.empty()) broken("an answer parsed into no sentence");
       }},
      {"community_set",
       [](std::string_view s) {
         // A stored set of community reports as JSON: refused, or read back whole (its JSON read again is itself).
         const nlohmann::json j = grappi::detail::parse_json_or_discarded(s);
         if (j.is_discarded()) return;
         try {
           const grappi::CommunitySet set = grappi::detail::communities_from_json(j);
           const nlohmann::json again = grappi::to_json(set);
           if (grappi::to_json(grappi::detail::communities_from_json(again)) != again) broken("a community set changed when read back");
         } catch (const grappi::Error &) {
         }
       }},
      {"question_analysis", question_with},
      {"paper_names", paper_names_with},
      {"offline_extraction", offline_extraction_with},
      {"model_intent_answer", model_intent_with},
      {"mcp_message", mcp_message_with},
  };
  return b;
}

}  // namespace

const std::vector<std::string> &targets() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto &[name, body] : bodies()) n.push_back(name);
    return n;
  }();
  return names;
}

bool run(const std::string &target, const uint8_t *data, std::size_t size) {
  const auto it = bodies().find(target);
  if (it == bodies().end()) return false;
  it->second(std::string_view(reinterpret_cast<const char *>(data), size));
  return true;
}

}  // namespace grappi_fuzz
