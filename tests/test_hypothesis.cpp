// Hypotheses over a co-occurrence graph: the paths against an independent search of the graph,
// ranking and a user scorer, the context chosen across the path edges most recent first, the
// validation loop with a scripted model (an unsupported sentence re-worked, its most similar
// abstract replaced by the next one of the same edge, convergence, the round limit, no
// replacement left, a citation outside the context), the offline explanation on BioRED, and
// ROUGE against hand-computed values.
#include <doctest/doctest.h>

#include <atomic>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::Document;
using grappi::HypothesisOptions;
using grappi::HypothesisResult;
using nlohmann::json;

namespace {

std::string lit(const std::string &f) { return std::string(GRAPPI_TEST_DATA_DIR) + "/literature/" + f; }

// A document of one abstract naming concepts (Disease, MESH:<name>) at their places in its text.
Document doc(const std::string &pmid, const std::string &year, const std::string &text, const std::vector<std::string> &names) {
  Document d;
  d.id = d.pmid = pmid;
  d.year = year;
  grappi::DocumentPassage p;
  p.type = "abstract";
  p.text = text;
  for (const std::string &n : names) {
    grappi::DocumentAnnotation a;
    a.offset = text.find(n);
    REQUIRE(a.offset != std::string::npos);
    a.length = n.size();
    a.text = n;
    a.type = "Disease";
    a.id = "MESH:" + n;
    p.annotations.push_back(a);
  }
  d.passages.push_back(p);
  return d;
}

// Axonin - Xenopin - Tumorin, each edge in two abstracts of different years; Betalin beside
// Tumorin only.
std::vector<Document> corpus() {
  return {doc("101", "2001", "Axonin binds Xenopin in neurons.", {"Axonin", "Xenopin"}),
          doc("102", "2005", "Axonin and Xenopin again, in glia.", {"Axonin", "Xenopin"}),
          doc("103", "2003", "Xenopin causes Tumorin growth.", {"Xenopin", "Tumorin"}),
          doc("104", "2010", "Xenopin and Tumorin later.", {"Xenopin", "Tumorin"}),
          doc("105", "2008", "Betalin and Tumorin meet.", {"Betalin", "Tumorin"})};
}

struct Kb {
  TempDir dir;
  std::unique_ptr<grappi::KnowledgeGraph> kg;
  explicit Kb(const std::vector<Document> &docs) {
    kg = std::make_unique<grappi::KnowledgeGraph>(dir.file("kb.db"));
    grappi::import_cooccurrence(*kg, grappi::build_cooccurrence(docs), dir.file("cooc.jsonl"));
  }
};

grappi::ChatResponse reply(const json &sentences) {
  grappi::ChatResponse r;
  r.finish_reason = "stop";
  r.content = json{{"sentences", sentences}}.dump();
  return r;
}

std::vector<std::string> context_of(const grappi::ChatRequest &q) {
  std::vector<std::string> out;
  for (const json &a : q.task["abstracts"]) out.push_back(a["pmid"]);
  return out;
}

}  // namespace

TEST_CASE("Hypothesis paths are the graph's shortest paths and rank by their association weights") {
  const auto docs = corpus();
  Kb kb(docs);
  grappi::ExtractiveModel model;
  HypothesisOptions o;
  o.paths = 100;
  const HypothesisResult r = grappi::hypothesize(*kb.kg, model, "Axonin", "Tumorin", docs, o);
  // The only path: Axonin - Xenopin - Tumorin (no direct edge).
  REQUIRE(r.paths.size() == 1);
  CHECK(r.paths[0].names == std::vector<std::string>{"Axonin", "Xenopin", "Tumorin"});
  CHECK(r.paths[0].relations == std::vector<std::string>{"cooc.document", "cooc.document"});
  CHECK(r.paths[0].support == std::vector<std::size_t>{2, 2});
  // Most recent first.
  CHECK(r.paths[0].pmids == std::vector<std::vector<int64_t>>{{102, 101}, {104, 103}});
  // NPMI of each edge: 2 of 5 documents, each concept in 2 (Xenopin in 4).
  const double n = 5, ax = std::log((2 / n) / ((2 / n) * (4 / n))) / -std::log(2 / n);
  const double xt = std::log((2 / n) / ((4 / n) * (3 / n))) / -std::log(2 / n);
  CHECK(r.paths[0].weights[0] == doctest::Approx(ax));
  CHECK(r.paths[0].weights[1] == doctest::Approx(xt));
  CHECK(r.paths[0].score == doctest::Approx(0.5 * (ax + xt) / 2 + 0.5 * std::min(ax, xt)));
  // The context: one abstract of each edge in turn, the most recent first.
  REQUIRE(r.rounds.size() == 1);
  CHECK(r.rounds[0].context == std::vector<std::string>{"102", "104", "101", "103"});
  CHECK(r.stop_reason == "converged");
  CHECK(r.offline);

  // Betalin to Axonin: through Tumorin and Xenopin (3 edges); within 2 edges, nothing.
  HypothesisOptions two = o;
  two.max_length = 2;
  CHECK(grappi::hypothesize(*kb.kg, model, "Betalin", "Axonin", docs, two).stop_reason == "no_paths");
  CHECK(grappi::hypothesize(*kb.kg, model, "Betalin", "Axonin", docs, o).paths.at(0).names.size() == 4);
  CHECK_THROWS_AS(grappi::hypothesize(*kb.kg, model, "Nowhere", "Axonin", docs, o), grappi::Error);
  HypothesisOptions zero = o;
  zero.rounds = 0;
  CHECK_THROWS_AS(grappi::hypothesize(*kb.kg, model, "Betalin", "Axonin", docs, zero), grappi::Error);
}

TEST_CASE("Hypothesis paths on BioRED match an independent search of the co-occurrence graph") {
  const auto docs = grappi::read_documents(lit("BioRED.Test.first3.PubTator"));
  const grappi::CoocGraph g = grappi::build_cooccurrence(docs);
  Kb kb(docs);
  // The independent search: every simple path of at most 2 edges from SCN5A's concept to long QT
  // syndrome's, as concept-id sequences.
  std::map<std::string, std::set<std::string>> adj;
  for (const auto &e : g.edges) {
    adj[g.concepts[e.a].id].insert(g.concepts[e.b].id);
    adj[g.concepts[e.b].id].insert(g.concepts[e.a].id);
  }
  const std::string s = "NCBIGene:6331", t = "MESH:D008133";
  std::set<std::vector<std::string>> expected;
  if (adj[s].count(t)) expected.insert({s, t});
  for (const std::string &m : adj[s])
    if (m != t && adj[m].count(t)) expected.insert({s, m, t});
  REQUIRE(expected.size() > 5);
  grappi::ExtractiveModel model;
  HypothesisOptions o;
  o.max_length = 2;
  o.paths = 1000;
  const HypothesisResult r = grappi::hypothesize(*kb.kg, model, s, t, docs, o);
  std::set<std::vector<std::string>> got;
  for (const auto &p : r.paths) {
    std::vector<std::string> ids;
    for (int64_t node : p.nodes) ids.push_back(kb.kg->node(node)->external_id);
    got.insert(ids);
  }
  CHECK(got == expected);
  // Masking the direct edge leaves the others; a scorer that prefers short paths puts it first.
  o.mask_direct = true;
  for (const auto &p : grappi::hypothesize(*kb.kg, model, s, t, docs, o).paths) CHECK(p.edges.size() == 2);
  o.mask_direct = false;
  o.scorer = [](const grappi::HypothesisPath &p) { return -double(p.edges.size()); };
  CHECK(grappi::hypothesize(*kb.kg, model, s, t, docs, o).paths.at(0).edges.size() == 1);
  // The offline explanation: the one abstract behind every edge, each sentence supported.
  const HypothesisResult x = grappi::hypothesize(*kb.kg, model, s, t, docs, HypothesisOptions{});
  REQUIRE(x.final_round == 0);
  CHECK(x.stop_reason == "converged");
  REQUIRE_FALSE(x.rounds[0].sentences.empty());
  for (const auto &sentence : x.rounds[0].sentences) {
    CHECK(sentence.citations == std::vector<std::string>{"15485686"});
    CHECK(sentence.status == "supported");
  }
  const json j = grappi::to_json(x);
  CHECK(j["note"].get<std::string>().find("not generated by a language model") != std::string::npos);
  CHECK(grappi::to_markdown(x).find("# How may") == 0);
}

TEST_CASE("The validation loop re-works unsupported sentences with the next abstract of the same edge") {
  const auto docs = corpus();
  Kb kb(docs);
  std::atomic<int> calls{0};
  std::vector<std::vector<std::string>> contexts;
  // Round 1: one sentence the graph supports, one naming a pair no edge joins, one citing an
  // abstract that was not given. Round 2: supported.
  grappi::CallbackModel model("scripted", [&](const grappi::ChatRequest &q) {
    ++calls;
    contexts.push_back(context_of(q));
    if (q.task["round"] == 0)
      return reply(json::array({{{"text", "Axonin binds Xenopin."}, {"pmids", {"102"}}},
                                {{"text", "Axonin represses Betalin in neurons."}, {"pmids", {"102"}}},
                                {{"text", "Xenopin and Tumorin interact."}, {"pmids", {"999"}}}}));
    CHECK(q.messages.back().content.find("Axonin represses Betalin") != std::string::npos);  // (the feedback)
    return reply(json::array({{{"text", "Axonin binds Xenopin [PMID:101]."}}, {{"text", "Xenopin and Tumorin interact."}, {"pmids", {"104"}}}}));
  });
  HypothesisOptions o;
  o.context = 2;
  const HypothesisResult r = grappi::hypothesize(*kb.kg, model, "Axonin", "Tumorin", docs, o);
  REQUIRE(r.rounds.size() == 2);
  CHECK(calls == 2);
  const auto &first = r.rounds[0];
  CHECK(first.context == std::vector<std::string>{"102", "104"});
  REQUIRE(first.sentences.size() == 3);
  CHECK(first.sentences[0].status == "supported");
  CHECK(first.sentences[0].checks.at(0).relations == std::vector<std::string>{"cooc.document"});
  CHECK(first.sentences[1].status == "unsupported");
  CHECK(first.sentences[1].entities == std::vector<std::string>{"Axonin", "Betalin"});
  CHECK(first.sentences[2].status == "bad_citation");
  CHECK(first.rework == 2);
  // The reworked sentences' most similar abstracts: 102 (Axonin) for the first, 104 (Xenopin
  // and Tumorin) for the second; each replaced by the next of its edge.
  CHECK(first.replaced == std::vector<std::pair<std::string, std::string>>{{"102", "101"}, {"104", "103"}});
  CHECK(r.rounds[1].context == std::vector<std::string>{"101", "103"});
  CHECK(r.rounds[1].rework == 1);  // (104 is no longer in the context)
  CHECK(r.stop_reason == "no_replacement");
  CHECK(r.final_round == 1);

  SUBCASE("convergence") {
    grappi::CallbackModel good("good", [&](const grappi::ChatRequest &q) {
      if (q.task["round"] == 0) return reply(json::array({{{"text", "Axonin represses Betalin."}, {"pmids", {"102"}}}}));
      return reply(json::array({{{"text", "Axonin binds Xenopin."}, {"pmids", {context_of(q)[0]}}}}));
    });
    const HypothesisResult c = grappi::hypothesize(*kb.kg, good, "Axonin", "Tumorin", docs, o);
    CHECK(c.stop_reason == "converged");
    CHECK(c.rounds.size() == 2);
    CHECK(c.final_round == 1);
  }
  SUBCASE("the round limit keeps the best explanation") {
    grappi::CallbackModel bad("bad", [&](const grappi::ChatRequest &q) {
      if (q.task["round"] == 0)
        return reply(json::array({{{"text", "Axonin represses Betalin."}}, {{"text", "Tumorin represses Axonin."}}}));
      return reply(json::array({{{"text", "Axonin represses Betalin."}}, {{"text", "Tumorin represses Axonin."}},
                                {{"text", "Betalin binds Xenopin."}}}));
    });
    HypothesisOptions two = o;
    two.rounds = 2;
    const HypothesisResult m = grappi::hypothesize(*kb.kg, bad, "Axonin", "Tumorin", docs, two);
    CHECK(m.stop_reason == "max_rounds");
    CHECK(m.rounds.size() == 2);
    CHECK(m.final_round == 0);  // (2 reworked sentences against 3)
  }
  SUBCASE("a failing model") {
    grappi::CallbackModel broken("broken", [](const grappi::ChatRequest &) -> grappi::ChatResponse {
      throw grappi::Error(grappi::ErrorCode::llm, "down");
    });
    const HypothesisResult f = grappi::hypothesize(*kb.kg, broken, "Axonin", "Tumorin", docs, o);
    CHECK(f.stop_reason == "failed");
    CHECK(f.final_round == -1);
    REQUIRE(f.rounds.size() == 1);
    CHECK(f.rounds[0].status == "failed");
    CHECK(f.rounds[0].error.find("down") != std::string::npos);
  }
}

TEST_CASE("ROUGE-1 and ROUGE-L against hand-computed values") {
  CHECK(grappi::rouge_1_f1("the cat sat on the mat", "the cat is on the mat") == doctest::Approx(5.0 / 6));
  CHECK(grappi::rouge_l_f1("the cat sat on the mat", "the cat is on the mat") == doctest::Approx(5.0 / 6));
  CHECK(grappi::rouge_1_f1("a b c d", "d c b a") == doctest::Approx(1.0));
  CHECK(grappi::rouge_l_f1("a b c d", "d c b a") == doctest::Approx(0.25));
  // 2 of 3 candidate words, 2 of 6 reference words: F1 = 2 * (2/3) * (1/3) / (2/3 + 1/3) = 4/9.
  CHECK(grappi::rouge_1_f1("BRAF melanoma risk", "braf mutations in melanoma are frequent") == doctest::Approx(4.0 / 9));
  CHECK(grappi::rouge_1_f1("", "x") == 0);
  CHECK(grappi::rouge_l_f1("x", "") == 0);
}
