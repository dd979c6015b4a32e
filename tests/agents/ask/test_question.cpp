// What a question asks (grappi/question.hpp) and ask()'s answers for it, on the yeast STRING network in data/: entities
// in every spelling a question uses (case, SGD's "Cdc28p", systematic names, STRING ids, aliases, dashes), ambiguous
// names resolved by organism, Greek letters and hyphens; the intents of many phrasings; the answers on a question set
// derived from STRING (tests/data/qa/yeast_string_questions.jsonl, bench/make_string_questions.py) beating the
// neighbour baselines by the margins the issue asks; a model's reading of the intent taken only when it holds up; prose
// answers from a model over loopback HTTP.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "http_server.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::QuestionAnalysis;
using nlohmann::json;

namespace {

// The yeast physical network with its info and aliases, embedded once for the whole file.
struct YeastQa {
  TempDir dir;
  std::unique_ptr<grappi::KnowledgeGraph> kg;
  std::shared_ptr<const grappi::QuestionAnalyzer> analyzer;
  YeastQa() {
    kg = std::make_unique<grappi::KnowledgeGraph>(dir.file("yeast.db"));
    kg->import_string({{data("4932.protein.info.v12.0.txt.gz")},
                       {data("4932.protein.aliases.v12.0.txt.gz")},
                       {data("4932.protein.physical.links.v12.0.txt.gz")}});
    analyzer = std::make_shared<const grappi::QuestionAnalyzer>(*kg);
  }
  bool embedded = false;
};

// (one import per test program: ctest runs each test case in a program of its own, so the yeast tests are few test
// cases with subcases; embedded only for those that answer)
YeastQa &yeast(bool embed = false) {
  static YeastQa y;
  if (embed && !y.embedded) {
    grappi::EmbedOptions eo;
    eo.neighbor_ranking = false;
    grappi::embed_graph(*y.kg, *grappi::hashing_embedder(*y.kg), eo);
    y.embedded = true;
  }
  return y;
}

// The lines of a JSON-lines file, parsed (the question sets' own fields, which QaQuestion does not keep).
std::vector<json> json_lines(const std::string &file) {
  std::vector<json> out;
  const std::string text = read_file(file);
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    out.push_back(json::parse(text.substr(at, end - at)));
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}

std::vector<std::string> names_of(const QuestionAnalysis &a) {
  std::vector<std::string> out;
  for (const auto &e : a.entities) out.push_back(e.name);
  return out;
}

void intents_of_many_phrasings(YeastQa &y) {
  struct Case {
    const char *question, *intent, *topic;
  };
  const Case cases[] = {
      {"Which proteins interact with SPR3?", "partners", ""},
      {"What are the interaction partners of CDC28?", "partners", ""},
      {"Can you list the proteins that interact with Cdc28p?", "partners", ""},
      {"Give me the binding partners of swi6.", "partners", ""},
      {"With which proteins does RAD51 interact?", "partners", ""},
      {"What proteins form a complex with SPR3 in yeast?", "partners", ""},
      {"Which proteins does CDC28 phosphorylate?", "partners", ""},
      {"What connects CDC28 and CLN2?", "connects", ""},
      {"What do RAD51 and RAD52 have in common?", "connects", ""},
      {"Which proteins interact with both SWI4 and SWI6?", "connects", ""},
      {"How are RAD51 and RAD52 related?", "connects", ""},
      {"What is the shortest path from CDC28 to RAD51?", "paths", ""},
      {"Which kinases interact with SWI6?", "class", "kinases"},
      {"Which of the partners of SWI6 are kinases?", "class", "kinases"},
      {"SWI6 interacts with which kinases?", "class", "kinases"},
      {"Which transcription factors bind SWI6?", "class", "transcription factors"},
      {"Which proteins involved in DNA repair interact with RAD51?", "class", "dna repair"},
      {"Which interaction partners of RAD51 are involved in DNA repair?", "class", "dna repair"},
      {"List partners of RAD51 that take part in DNA repair.", "class", "dna repair"},
      {"Which mitochondrial ribosomal proteins interact with MRPS5?", "class", "mitochondrial ribosomal"},
      {"What phosphorylates SWI6?", "class", ""},
      {"What is CDC28?", "open", ""},
      {"Does CDC28 bind CLN2?", "connects", ""},  // (a yes/no question: what joins them is retrieved)
      {"Which proteins regulate the cell cycle?", "open", ""},
  };
  for (const Case &c : cases) {
    const QuestionAnalysis a = y.analyzer->analyze(c.question);
    INFO(c.question);
    CHECK(a.intent == c.intent);
    CHECK(a.topic == c.topic);
    CHECK(a.source == "rules");
    CHECK_FALSE(a.rule.empty());
  }
  CHECK(y.analyzer->analyze("What phosphorylates SWI6?").implied_class == "kinase");
  CHECK(y.analyzer->analyze("Which proteins does CDC28 phosphorylate?").implied_class.empty());
  CHECK(y.analyzer->analyze("Which proteins bind SPR3?").interaction == "physical");
  CHECK(y.analyzer->analyze("Which proteins are functionally linked to SPR3?").interaction.empty());
}

void ask_for_the_intent() {
  auto &y = yeast(true);
  grappi::ExtractiveModel offline;
  grappi::AskOptions o;
  o.analyzer = y.analyzer;
  const auto partners = y.kg->snapshot()->neighbors(y.kg->resolve("CDC28"));
  double best = 0;
  for (const auto &n : partners) best = std::max(best, n.score);
  const grappi::AskResult r = grappi::ask(*y.kg, offline, "What are the interaction partners of cdc28?", o);
  CHECK(r.analysis.intent == "partners");
  CHECK(r.recipe == "the partners of CDC28 by edge score");
  REQUIRE(r.answer_entities.size() == 10);
  // The first answer is a partner with CDC28's best edge score; none is CDC28.
  bool first_is_best = false;
  for (const auto &n : partners)
    first_is_best = first_is_best || (n.node == r.answer_entities[0].node && n.score == best);
  CHECK(first_is_best);
  for (const auto &e : r.answer_entities) CHECK(e.name != "CDC28");
  for (const auto &s : r.sentences) CHECK(s.status == "extractive");
  // Common partners of CDC28 and CLN2 first, each joined to both.
  const grappi::AskResult c = grappi::ask(*y.kg, offline, "What connects CDC28 and CLN2?", o);
  CHECK(c.analysis.intent == "connects");
  REQUIRE_FALSE(c.answer_entities.empty());
  const int64_t cdc28 = y.kg->resolve("CDC28"), cln2 = y.kg->resolve("CLN2");
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK_FALSE(y.kg->edges_between(c.answer_entities[i].node, cdc28).empty());
    CHECK_FALSE(y.kg->edges_between(c.answer_entities[i].node, cln2).empty());
  }
  REQUIRE_FALSE(c.paths.empty());
  CHECK(c.paths[0] == std::vector<int64_t>{cdc28, cln2});  // (they interact)
  // The kinases among SWI6's partners first (CDC28 is one), by their names or descriptions.
  const grappi::AskResult k = grappi::ask(*y.kg, offline, "Which kinases interact with Swi6p?", o);
  CHECK(k.analysis.intent == "class");
  std::vector<std::string> top;
  for (std::size_t i = 0; i < 5 && i < k.answer_entities.size(); ++i) top.push_back(k.answer_entities[i].name);
  CHECK(std::find(top.begin(), top.end(), "CDC28") != top.end());
  for (std::size_t i = 0; i < 3; ++i) {
    const auto n = y.kg->node(k.answer_entities[i].node);
    CHECK(n->annotation.find("kinase") != std::string::npos);
  }
  // An open question keeps the entity it names in the subgraph; with intents off, every question is open.
  const grappi::AskResult open = grappi::ask(*y.kg, offline, "What is the role of RAD51 in meiosis?", o);
  CHECK(open.analysis.intent == "open");
  const int64_t rad51 = y.kg->resolve("RAD51");
  const auto &nodes = open.retrieval.subgraph.nodes;
  CHECK(std::find(nodes.begin(), nodes.end(), rad51) != nodes.end());
  o.intents = false;
  const grappi::AskResult off = grappi::ask(*y.kg, offline, "What are the interaction partners of cdc28?", o);
  CHECK(off.analysis.intent == "open");
  CHECK(off.recipe.rfind("PCST", 0) == 0);
  CHECK(std::find(off.retrieval.subgraph.nodes.begin(), off.retrieval.subgraph.nodes.end(), cdc28) !=
        off.retrieval.subgraph.nodes.end());
  o.intents = true;
  o.intent_candidates = 0;
  CHECK_THROWS_WITH_AS(grappi::ask(*y.kg, offline, "Which proteins bind CDC28?", o),
                       doctest::Contains("intent_candidates"), grappi::Error);
}

void model_intent_reading() {
  auto &y = yeast(true);
  std::string intent_answer;
  int intent_calls = 0;
  grappi::CallbackModel model("intent-reader", [&](const grappi::ChatRequest &q) -> grappi::ChatResponse {
    if (q.task.value("kind", "") == "ask.intent") {
      ++intent_calls;
      CHECK(q.messages.at(1).content.find("- CDC28") != std::string::npos);  // (the prompt lists the entities)
      grappi::ChatResponse r;
      r.content = intent_answer;
      return r;
    }
    return sentences_reply(json::array({{{"text", "An answer [N0]."}}}));
  });
  grappi::AskOptions o;
  o.analyzer = y.analyzer;
  o.use_cache = false;
  // The rules leave this open (no word of interaction); the model says "connects".
  const std::string question = "Tell me about CDC28 and CLN2 in the cell cycle.";
  CHECK(y.analyzer->analyze(question).intent == "open");
  intent_answer = R"({"intent": "connects", "entities": ["CDC28", "CLN2"], "topic": ""})";
  grappi::AskResult r = grappi::ask(*y.kg, model, question, o);
  CHECK(intent_calls == 1);
  CHECK(r.analysis.intent == "connects");
  CHECK(r.analysis.source == "model");
  CHECK(r.recipe.find("what joins CDC28 and CLN2") == 0);
  // Answers that do not hold up: unknown intent, an entity the question does not name, a topic not in its words, too
  // few entities, no JSON; the rules' reading stays, the reason is kept.
  for (const char *bad :
       {R"({"intent": "summarise", "entities": ["CDC28"]})", R"({"intent": "partners", "entities": ["RAD51"]})",
        R"({"intent": "class", "entities": ["CDC28"], "topic": "phosphatases"})",
        R"({"intent": "connects", "entities": ["CDC28"]})", "I think it asks about partners."}) {
    intent_answer = bad;
    r = grappi::ask(*y.kg, model, question, o);
    INFO(bad);
    CHECK(r.analysis.intent == "open");
    CHECK(r.analysis.source == "rules");
    CHECK_FALSE(r.analysis.model_error.empty());
    CHECK(grappi::to_json(r)["intent"]["model_error"].get<std::string>().find("failed") == 0);
  }
  // A question the rules read is not sent to the model; nor is any with model_intent off.
  const int before = intent_calls;
  grappi::ask(*y.kg, model, "Which proteins interact with CDC28?", o);
  o.model_intent = false;
  grappi::ask(*y.kg, model, question, o);
  CHECK(intent_calls == before);
  // A dry run counts the intent call.
  o.model_intent = true;
  o.dry_run = true;
  CHECK(grappi::ask(*y.kg, model, question, o).planned_calls == 3);
}

void prose_answers() {
  auto &y = yeast(true);
  std::string content;
  HttpServer server([&](const HttpRequest &) { return reply(200, chat_reply(content, 50, 20)); });
  grappi::OpenAIChatOptions mo;
  mo.base_url = server.base_url();
  mo.model = "prose-model";
  mo.timeout_seconds = 10;
  mo.max_retries = 0;
  grappi::OpenAIChatModel model(mo);
  grappi::AskOptions o;
  o.analyzer = y.analyzer;
  o.use_cache = false;
  o.repair = false;
  // The context lists CDC28 first (N0) and its best partner next (N1), joined by an edge.
  content =
      "CDC28 binds its cyclins [N0, N1]. Many partners are cyclins. See "
      "PubMed for more [PMID:1].";
  const grappi::AskResult r = grappi::ask(*y.kg, model, "Which proteins interact with CDC28?", o);
  REQUIRE(r.status == "ok");
  REQUIRE(r.sentences.size() == 3);
  CHECK(r.sentences[0].status == "supported");
  CHECK(r.sentences[1].status == "uncited");
  CHECK(r.sentences[2].status == "not_in_context");
  CHECK_FALSE(r.offline);
  // JSON answers stay accepted.
  content = R"({"sentences": [{"text": "CDC28 binds a cyclin [N1].", "citations": ["N1"]}]})";
  const grappi::AskResult j = grappi::ask(*y.kg, model, "Which proteins interact with CDC28?", o);
  REQUIRE(j.sentences.size() == 1);
  CHECK(j.sentences[0].status == "supported");
  // No text at all is a failure (recorded as one); so is JSON that breaks off.
  for (const char *bad : {"", "   ", "{\"sentences\": [{\"text\": \"cut"}) {
    content = bad;
    const grappi::AskResult f = grappi::ask(*y.kg, model, "Which proteins interact with CDC28?", o);
    INFO(bad);
    CHECK(f.status == "failed");
    CHECK(f.usage.failed == 1);
    CHECK(f.sentences.empty());
  }
}

void question_frames(YeastQa &y) {
  struct Case {
    const char *question, *form, *relation, *exclude;
    double min_score;
  };
  const Case cases[] = {
      {"Does SRP101 interact with SRP102?", "yes_no", "interaction", "", 0},
      {"Do CDC28 and CLN2 bind physically?", "yes_no", "interaction", "", 0},
      {"Is there an interaction between CDC28 and CLN2?", "yes_no", "interaction", "", 0},
      {"CDC28 does not interact with CLN2.", "yes_no", "interaction", "", 0},
      {"How many proteins interact physically with SNP1 with high confidence?", "count", "partners", "", 0.7},
      {"What is the number of binding partners of CDC28?", "count", "partners", "", 0},
      {"Which partners of FAR1 are not kinases?", "list", "partners", "kinases", 0},
      {"Which non-kinase partners does FAR1 have?", "list", "partners", "kinase", 0},
      {"Which proteins other than kinases interact with FAR1?", "list", "partners", "kinases", 0},
      {"How is CDC28 connected to RAD51 through high-confidence interactions?", "path", "paths", "", 0.7},
      {"What is the path from CDC28 to RAD51?", "path", "paths", "", 0},
      {"Which of CLN2, RAD51 or CLB2 interacts with CDC28?", "list", "partners", "", 0},
      {"Which proteins interact with both SWI4 and SWI6?", "list", "common", "", 0},
      {"Which proteins interact with CDC28 with a score above 0.9?", "list", "partners", "", 0.9},
      {"Give me the count of CDC28 partners above 0.9.", "count", "partners", "", 0.9},  // (no word "score")
      {"Which CDC28 partners have at least 0.75?", "list", "partners", "", 0.75},
      {"How many partners of CDC28 have more than 5 partners?", "count", "partners", "", 0},  // (a count, no score)
      {"What is the function of CDC28?", "list", "function", "", 0},
      {"What is the molecular weight of CDC28?", "unsupported", "", "", 0},
      {"When was CDC28 discovered?", "unsupported", "", "", 0},
      {"Which proteins regulate the cell cycle?", "unsupported", "", "", 0},
      // (phrasings of the later rounds: claims, whether/if, aux later, path words around the entity, classes of
      // things that are no proteins, "how" about one protein, exclusion words, "or not")
      {"CDC28 binds CLN2", "yes_no", "interaction", "", 0},
      {"I wonder whether CDC28 and CLN2 interact.", "yes_no", "interaction", "", 0},
      {"CDC28 and CLN2: do they interact?", "yes_no", "interaction", "", 0},
      {"Is there an interaction between CDC28 and CLN2 or not?", "yes_no", "interaction", "", 0},
      {"How is CDC28 linked with RAD51 over confident edges?", "path", "paths", "", 0.7},
      {"Which drugs target CDC28?", "unsupported", "", "", 0},
      {"Which residues of CDC28 are phosphorylated?", "unsupported", "", "", 0},
      {"How is CDC28 regulated?", "unsupported", "", "", 0},
      {"Apart from kinases, which proteins bind FAR1?", "list", "partners", "kinases", 0},
      {"List the partners of FAR1, leaving out kinases.", "list", "partners", "kinases", 0},
      {"Count the high-confidence interactors of CDC28.", "count", "partners", "", 0.7},
      {"Give me the count of CDC28 interactors with a combined score of at least 0.9", "count", "partners", "", 0.9},
      {"How many proteins does CDC28 talk to?", "count", "partners", "", 0},
      {"FAR1 partners, no kinases please.", "list", "partners", "kinases", 0},
      {"Is there no interaction between CDC28 and CLN2?", "yes_no", "interaction", "", 0},
      // (fresh10: the noun a wh-word asks for, not a verb's stem, says whether proteins are asked)
      {"What post-translational modifications does CDC28 carry?", "unsupported", "", "", 0},
      {"What modifies CDC28?", "list", "partners", "", 0},
      {"Which proteins modify CDC28?", "list", "partners", "", 0},
      // (enrichment: among one entity's partners, or among the entities named)
      {"What processes are enriched among CDC28's partners?", "enrichment", "partners", "", 0},
      {"Which GO terms are overrepresented in CDC28, CLN2 and CLB2?", "enrichment", "set", "", 0},
      {"Which functions are enriched among the partners of FAR1 with high confidence?", "enrichment", "partners", "", 0.7},
      // (a class of proteins is no term an enrichment answers with)
      {"Which kinases are enriched among the partners of FAR1 with high confidence?", "unsupported", "", "", 0.7},
  };
  for (const Case &c : cases) {
    const QuestionAnalysis a = y.analyzer->analyze(c.question);
    INFO(std::string(c.question));
    CHECK(a.frame.form == c.form);
    CHECK(a.frame.relation == c.relation);
    CHECK(a.frame.exclude == c.exclude);
    CHECK(a.frame.min_score == doctest::Approx(c.min_score));
    if (a.frame.form == "unsupported") CHECK_FALSE(a.frame.reason.empty());
  }
  // (a question of how is quoted in its reason, the entity by its name)
  CHECK(y.analyzer->analyze("How abundant is Cdc28p in yeast cells?").frame.reason.find("how abundant is CDC28 in yeast cells") !=
        std::string::npos);
  CHECK(y.analyzer->analyze("CDC28 does not interact with CLN2.").frame.negated);
  CHECK_FALSE(y.analyzer->analyze("Is there an interaction between CDC28 and CLN2 or not?").frame.negated);
  // (cue words are no topic: "I'm looking for binding partners of the Cdc14 phosphatase" asks CDC14's partners)
  const QuestionAnalysis looking = y.analyzer->analyze("I'm looking for binding partners of the Cdc14 phosphatase");
  CHECK(looking.frame.form == "list");
  CHECK(looking.topic.find(" m ") == std::string::npos);
  CHECK(looking.topic.rfind("m ", 0) != 0);
  CHECK(y.analyzer->analyze("Do CDC28 and CLN2 bind physically?").frame.channels == std::vector<std::string>{"physical"});
  CHECK(y.analyzer->analyze("Which of CLN2, RAD51 or CLB2 interacts with CDC28?").frame.choices.size() == 3);
  CHECK(grappi::to_json(y.analyzer->analyze("Which partners of FAR1 are not kinases?"))["frame"]["exclude_kind"] == "class");
}

// The answers in the question's form, against the network itself.
void answers_in_their_form() {
  auto &y = yeast(true);
  grappi::ExtractiveModel offline;
  grappi::AskOptions o;
  o.analyzer = y.analyzer;
  const auto snapshot = y.kg->snapshot();
  const auto score = [&](const char *a, const char *b) {
    double best = -1;
    for (const auto &e : snapshot->edges_between(y.kg->resolve(a), y.kg->resolve(b))) best = std::max(best, e.score);
    return best;
  };
  // yes/no: an edge of at least medium confidence, quoted and cited; a pair without one is no.
  REQUIRE(score("CDC28", "CLN2") >= 0.4);
  const grappi::AskResult yes = grappi::ask(*y.kg, offline, "Does CDC28 interact with CLN2?", o);
  CHECK(yes.answer.form == "yes_no");
  CHECK(yes.answer.value == true);
  CHECK(yes.answer.text.rfind("Yes: CDC28 - CLN2, string.physical ", 0) == 0);
  CHECK(yes.answer.edges.size() == 1);
  REQUIRE(score("CDC28", "RAD51") < 0);
  const grappi::AskResult no = grappi::ask(*y.kg, offline, "Does CDC28 interact with RAD51?", o);
  CHECK(no.answer.value == false);
  CHECK(no.answer.text.rfind("No: no edge joins CDC28 and RAD51 in ", 0) == 0);
  CHECK(grappi::ask(*y.kg, offline, "CDC28 does not interact with RAD51.", o).answer.value == true);
  // A pair joined below the threshold asked is a no that quotes the edge.
  std::string low_a, low_b;
  for (const auto &n : snapshot->neighbors(y.kg->resolve("CDC28")))
    if (n.score < 0.7 && n.score >= 0.4) low_b = y.kg->node(n.node)->name;
  REQUIRE_FALSE(low_b.empty());
  const grappi::AskResult below = grappi::ask(*y.kg, offline, "Does CDC28 interact with " + low_b + " with high confidence?", o);
  CHECK(below.answer.value == false);
  CHECK(below.answer.text.find("only below the threshold") != std::string::npos);
  // count: CDC28's partners at high confidence, counted from the network.
  std::set<int64_t> high;
  for (const auto &n : snapshot->neighbors(y.kg->resolve("CDC28")))
    if (n.score >= 0.7) high.insert(n.node);
  const grappi::AskResult count = grappi::ask(*y.kg, offline, "How many proteins interact with CDC28 with high confidence?", o);
  CHECK(count.answer.form == "count");
  CHECK(count.answer.value == high.size());
  // An exclusion: no kinase among the answers.
  const grappi::AskResult not_kinases = grappi::ask(*y.kg, offline, "Which partners of FAR1 are not kinases?", o);
  REQUIRE(not_kinases.answer.value.is_array());
  REQUIRE_FALSE(not_kinases.answer.value.empty());
  for (const auto &id : not_kinases.answer.value) {
    const auto n = y.kg->node_by_external_id(id.get<std::string>());
    CHECK(n->annotation.find("kinase") == std::string::npos);
  }
  CHECK(not_kinases.answer.note.find("left out") != std::string::npos);
  // A path: every edge at medium confidence or more, ranked by the weakest edge.
  const grappi::AskResult path = grappi::ask(*y.kg, offline, "How is CDC28 connected to RAD51?", o);
  CHECK(path.answer.form == "path");
  REQUIRE(path.answer.value.is_array());
  REQUIRE_FALSE(path.answer.value.empty());
  CHECK(path.answer.value[0].front() == "4932.YBR160W");
  CHECK(path.answer.value[0].back() == "4932.YER095W");
  // Unsupported: said so, no sentence about other proteins.
  const grappi::AskResult weight = grappi::ask(*y.kg, offline, "What is the molecular weight of CDC28?", o);
  CHECK(weight.answer.form == "unsupported");
  CHECK(weight.answer.text.rfind("I can't answer that: ", 0) == 0);
  CHECK(weight.sentences.empty());
  CHECK(weight.status == "ok");
  const json j = grappi::to_json(yes);
  CHECK(j["answer"]["form"] == "yes_no");
  CHECK(j["answer"]["value"] == true);
}

}  // namespace

TEST_CASE("What questions about the yeast network ask: their entities and intents") {
  auto &y = yeast();
  SUBCASE("A question's entities are found in every spelling a question uses") {
    const auto one = [&](const std::string &q) {
      const QuestionAnalysis a = y.analyzer->analyze(q);
      INFO(q);
      REQUIRE(a.entities.size() == 1);
      return a.entities[0];
    };
    for (const char *q :
         {"Which proteins interact with CDC28?", "Which proteins interact with cdc28?",
          "Which proteins interact with Cdc28?", "Which proteins interact with Cdc28p?",
          "Which proteins interact with YBR160W?", "Which proteins interact with 4932.YBR160W?",
          "Which proteins interact with CDK1?", "Which proteins interact with cdc-28?",
          "Which proteins interact with Cell division control protein 28?", "Which proteins interact with P00546?"}) {
      const auto e = one(q);
      CHECK(e.name == "CDC28");
      CHECK(e.id == "4932.YBR160W");
      CHECK(std::string(q).substr(e.offset, e.length) == e.text);
      CHECK(e.offset == std::string("Which proteins interact with ").size());
    }
    CHECK(one("Which proteins interact with Cdc28p?").text == "Cdc28p");
    CHECK(one("Which proteins interact with P00546?").status == "id");
    // Two entities joined by a dash of any kind, and the question's words never taken for names.
    for (const char *q : {"What connects CDC28 and CLN2?",
                          "What mediates the CDC28\xE2\x80\x93"
                          "CLN2 interaction?",
                          "what connects cdc28 and cln2"}) {
      const QuestionAnalysis a = y.analyzer->analyze(q);
      INFO(q);
      CHECK(names_of(a) == std::vector<std::string>{"CDC28", "CLN2"});
      CHECK(a.intent == "connects");
    }
    // A word that modifies a class is not an entity ("ubiquitin" is UBI4's alias too).
    const QuestionAnalysis ligases = y.analyzer->analyze("Which ubiquitin ligases interact with APC2?");
    CHECK(names_of(ligases) == std::vector<std::string>{"APC2"});
    CHECK(ligases.intent == "class");
    CHECK(ligases.topic == "ubiquitin ligases");
    // A question naming nothing of the database.
    const QuestionAnalysis none = y.analyzer->analyze("Which proteins interact with each other most often?");
    CHECK(none.entities.empty());
    CHECK(none.intent == "open");
    CHECK_THROWS_WITH_AS(y.analyzer->analyze("  "), doctest::Contains("the question is empty"), grappi::Error);
  }
  SUBCASE("The intents of many phrasings") { intents_of_many_phrasings(y); }
  SUBCASE("Question frames: form and relation and filters") { question_frames(y); }
}

TEST_CASE(
    "Ambiguous names go to the question's organism (else the database's) and Greek letters and hyphens are one name") {
  TempDir dir;
  grappi::KnowledgeGraph kg(dir.file("mixed.db"));
  const auto node = [&](const std::string &id, const std::string &name) {
    grappi::NodeInput n;
    n.external_id = id;
    n.name = name;
    n.label = "Protein";
    return kg.add_node(n);
  };
  // Yeast CDC28 is also called CDK1, the name of human CDK1; yeast has more connected proteins.
  const int64_t cdc28 = node("4932.YBR160W", "CDC28"), cln2 = node("4932.YPL256C", "CLN2"),
                cks1 = node("4932.YBR135W", "CKS1");
  const int64_t cdk1 = node("9606.ENSP00000378699", "CDK1"), ccnb1 = node("9606.ENSP00000256442", "CCNB1");
  const int64_t pparg = node("9606.ENSP00000287820", "PPARG"), nfkb1 = node("9606.ENSP00000226574", "NFKB1");
  kg.add_alias(cdc28, "CDK1", "SGD_SYNONYM");
  kg.add_alias(pparg, "PPARgamma", "Entrez_synonym");
  kg.add_alias(nfkb1, "NF-kappaB", "Entrez_synonym");
  const auto edge = [&](int64_t a, int64_t b) {
    grappi::EdgeInput e;
    e.source = a;
    e.target = b;
    e.relation = "string.physical";
    e.score = 0.9;
    kg.add_edge(e);
  };
  edge(cdc28, cln2);
  edge(cdc28, cks1);
  edge(cdk1, ccnb1);
  const grappi::QuestionAnalyzer analyzer(kg);
  CHECK(analyzer.default_taxon() == 4932);
  const auto first = [&](const std::string &q) {
    const QuestionAnalysis a = analyzer.analyze(q);
    INFO(q);
    REQUIRE_FALSE(a.entities.empty());
    return a.entities[0];
  };
  // CDK1 is human CDK1's own symbol and only a synonym of yeast CDC28: the symbol wins, though
  // the database is mostly yeast; a question that says yeast narrows to yeast first.
  const auto human_cdk1 = first("Which proteins bind CDK1?");
  CHECK(human_cdk1.node == cdk1);
  CHECK(human_cdk1.status == "resolved");
  CHECK(human_cdk1.resolution == "preferred_name");
  const auto yeast_cdk1 = first("Which yeast proteins bind CDK1?");
  CHECK(yeast_cdk1.node == cdc28);
  CHECK(yeast_cdk1.resolution == "organism");
  CHECK(first("Which human proteins bind CDK1?").node == cdk1);
  // Equal names: the database's organism ("RAD51" is a yeast and a human protein's name here).
  const int64_t yrad51 = node("4932.YER095W", "RAD51");
  node("9606.ENSP00000267868", "RAD51");
  edge(yrad51, cks1);
  const grappi::QuestionAnalyzer again(kg);
  const auto rad51 = again.analyze("Which proteins bind RAD51?").entities.at(0);
  CHECK(rad51.node == yrad51);
  CHECK(analyzer.analyze("Which human proteins bind CDK1?").taxon == 9606);
  grappi::QuestionAnalyzerOptions human;
  human.taxon = 9606;
  CHECK(grappi::QuestionAnalyzer(kg, human).analyze("Which proteins bind CDK1?").entities.at(0).node == cdk1);
  for (const char *q :
       {"Which proteins bind PPAR\xCE\xB3?", "Which proteins bind PPAR-gamma?", "Which proteins bind PPAR gamma?",
        "Which proteins bind PPARgamma?", "Which proteins bind PPARG?"})
    CHECK(first(q).node == pparg);
  for (const char *q : {"What does NF-\xCE\xBA"
                        "B regulate?",
                        "What does NF kappa B regulate?", "What does NFkappaB regulate?"})
    CHECK(first(q).node == nfkb1);
  const json j = grappi::to_json(analyzer.analyze("Which yeast proteins bind CDK1?"));
  CHECK(j["entities"][0]["id"] == "4932.YBR160W");
  CHECK(j["entities"][0]["resolution"] == "organism");
}

TEST_CASE("Answers on STRING-derived questions beat the neighbour baselines by the margins asked" * doctest::test_suite("heavy")) {
  auto &y = yeast(true);
  const auto questions =
      grappi::read_qa_questions(std::string(GRAPPI_TEST_DATA_DIR) + "/qa/yeast_string_questions.jsonl");
  REQUIRE(questions.size() == 100);
  grappi::ExtractiveModel offline;
  grappi::QaEvalOptions o;
  o.ask.analyzer = y.analyzer;
  const grappi::QaEvalResult r = grappi::evaluate_qa(*y.kg, offline, questions, o);
  CHECK(r.errors == 0);
  // Entities and intents: found in every question, as the set says.
  CHECK(r.questions_with_entities >= 95);
  CHECK(r.entities_linked == r.entities_expected);
  CHECK(r.intents_recognised >= 95);
  // Per set (the "set" field of each line: the question templates' families).
  std::map<std::string, std::string> set_of;
  for (const json &line : json_lines(std::string(GRAPPI_TEST_DATA_DIR) + "/qa/yeast_string_questions.jsonl"))
    set_of[line["id"].get<std::string>()] = line["set"].get<std::string>();
  std::map<std::string, std::pair<double, std::size_t>> mrr;
  for (const auto &row : r.rows) {
    auto &m = mrr[set_of.at(row.question.id)];
    m.first += row.reciprocal_rank;
    ++m.second;
    CHECK(row.gold_retrieved > 0);
  }
  const auto mean = [&](const char *set) { return mrr[set].first / double(mrr[set].second); };
  MESSAGE("MRR partners " << mean("partners") << ", connects " << mean("connects") << ", class " << mean("class")
                          << ", topic " << mean("topic") << "; all " << r.mrr << " (random neighbours "
                          << r.baseline_random.mrr << ", by score " << r.baseline_by_score.mrr << ")");
  CHECK(mean("partners") >= 0.90);
  CHECK(mean("connects") >= 0.85);
  CHECK(mean("class") >= 0.70);
  CHECK(r.mrr >= r.baseline_random.mrr + 0.30);
  CHECK(r.mrr > r.baseline_by_score.mrr);
  CHECK(r.retrieval_recall == doctest::Approx(1.0));
  // The figures per intent carry their baselines.
  REQUIRE_FALSE(r.by_intent.empty());
  for (const auto &x : r.by_intent) {
    CHECK(x.answers.questions == x.random.questions);
    CHECK(x.answers.mrr >= x.random.mrr);
  }
  // Every row says what the question was found to ask.
  const json row = grappi::to_json(r.rows[0]);
  CHECK(row["question_entities"].size() == 1);
  CHECK(row.contains("intent"));
  CHECK(row["retrieved"] == true);
  CHECK(row.contains("baseline_random_rr"));
  // The extractive sentences are counted apart: no model sentence, so no "supported" share.
  CHECK(r.model_sentences == 0);
  CHECK(r.extractive_sentences > 0);
  CHECK(r.supported_share == 0);
}

TEST_CASE("Answers in every form on STRING-derived questions of held-out proteins reach the figures asked" * doctest::test_suite("heavy")) {
  // 120 questions of bench/make_form_questions.py (24 per form, every round of phrasings, proteins of the test
  // half): what ask prints is judged, beside each form's baselines on the same questions.
  auto &y = yeast(true);
  const std::string file = std::string(GRAPPI_TEST_DATA_DIR) + "/qa/yeast_form_questions.jsonl";
  const auto questions = grappi::read_qa_questions(file);
  REQUIRE(questions.size() == 120);
  std::map<std::string, std::set<std::string>> excluded;  // an exclusion question's partners of the excluded class
  for (const json &line : json_lines(file))
    if (line.contains("excluded"))
      for (const auto &n : line["excluded"]) excluded[line["id"].get<std::string>()].insert(n.get<std::string>());
  REQUIRE(excluded.size() == 24);
  grappi::ExtractiveModel offline;
  grappi::QaEvalOptions o;
  o.ask.analyzer = y.analyzer;
  const grappi::QaEvalResult r = grappi::evaluate_qa(*y.kg, offline, questions, o);
  CHECK(r.errors == 0);
  std::map<std::string, grappi::QaFormFigures> form;
  for (const auto &x : r.by_form) form[x.form] = x;
  REQUIRE(form.size() == 5);  // (the exclusions are the list questions)
  const auto baseline = [](const grappi::QaFormFigures &x, const char *name) {
    for (const auto &[n, v] : x.baselines)
      if (n == name) return v;
    FAIL("no baseline " << name);
    return 0.0;
  };
  MESSAGE("yes/no " << form["yes_no"].value << " (always yes " << baseline(form["yes_no"], "always_yes")
                    << ", edge look-up " << baseline(form["yes_no"], "edge_lookup") << "), count "
                    << form["count"].value << " (median " << baseline(form["count"], "median") << "), unsupported "
                    << form["unsupported"].value);
  CHECK(form["yes_no"].questions == 24);
  CHECK(form["yes_no"].value >= 0.95);
  CHECK(form["yes_no"].value > baseline(form["yes_no"], "edge_lookup"));
  CHECK(form["count"].value >= 0.90);
  CHECK(form["count"].value > baseline(form["count"], "median"));
  CHECK(form["unsupported"].value >= 0.90);
  // Exclusions: at or above X's partners by score, a kinase first in at most 10%; paths over confident edges.
  double exclusion = 0, by_score = 0;
  std::size_t kinase_first = 0;
  for (const auto &row : r.rows) {
    if (row.question.form == "yes_no" || row.question.form == "count") {
      CHECK(row.form_answer.form == row.question.form);
      CHECK_FALSE(row.form_answer.text.empty());
    }
    if (row.question.form == "unsupported") CHECK(row.correct);
    if (const auto it = excluded.find(row.question.id); it != excluded.end()) {
      exclusion += row.reciprocal_rank;
      by_score += row.baseline_score_rr;
      kinase_first += !row.answer_entities.empty() && it->second.count(row.answer_entities[0].name);
    }
  }
  MESSAGE("exclusion MRR " << exclusion / 24 << " (by score " << by_score / 24 << "), a kinase first in "
                           << kinase_first << " of 24; path MRR " << form["path"].value << " (by score "
                           << baseline(form["path"], "neighbours_by_score") << ")");
  CHECK(form["list"].value == doctest::Approx(exclusion / 24));
  CHECK(exclusion >= by_score);
  CHECK(kinase_first <= 2);
  CHECK(form["path"].value >= 0.85);
  CHECK(form["path"].value > baseline(form["path"], "neighbours_by_score"));
  // Rows carry the answer in its form.
  const json row = grappi::to_json(r.rows[0]);
  CHECK(row["answer"]["form"] == "yes_no");
  CHECK(row["answer"]["value"].is_boolean());
  CHECK(row.contains("baseline_lookup"));
  CHECK(grappi::to_json(r)["by_form"]["count"]["measure"] == "exact");
}

TEST_CASE(
    "ask on the yeast network: retrieval for the intent and a model's reading of it and prose answers over HTTP") {
  SUBCASE("ask retrieves for the intent: partners by score, common partners, kinases first; named entities kept") {
    ask_for_the_intent();
  }
  SUBCASE("A model's reading of the intent is taken only when it holds up") { model_intent_reading(); }
  SUBCASE("The answer in the question's form: yes/no, counts, exclusions, paths, unsupported") { answers_in_their_form(); }
  SUBCASE("A model answering in prose over HTTP: sentences with statuses, uncited without a citation") {
    prose_answers();
  }
}
