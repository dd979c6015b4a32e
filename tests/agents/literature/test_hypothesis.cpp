// Hypotheses over a co-occurrence graph: the paths against an independent search of the graph,
// ranking and a user scorer, the context chosen across the path edges most recent first, the
// validation loop with a scripted model (an unsupported sentence re-worked, its most similar
// abstract replaced by the next one of the same edge, convergence, the round limit, no
// replacement left, a citation outside the context), the offline explanation on BioRED, and
// ROUGE against hand-computed values.
#include <doctest/doctest.h>

#include <atomic>
#include <numeric>
#include <random>
#include <filesystem>
#include <tuple>
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

struct CoocKb {
  TempDir dir;
  std::unique_ptr<grappi::KnowledgeGraph> kg;
  explicit CoocKb(const std::vector<Document> &docs) {
    kg = std::make_unique<grappi::KnowledgeGraph>(dir.file("kb.db"));
    grappi::import_cooccurrence(*kg, grappi::build_cooccurrence(docs), dir.file("cooc.jsonl"));
  }
};

std::vector<std::string> context_of(const grappi::ChatRequest &q) {
  std::vector<std::string> out;
  for (const json &a : q.task["abstracts"]) out.push_back(a["pmid"]);
  return out;
}

}  // namespace

TEST_CASE("Hypothesis paths are the graph's shortest paths and carry their association weights") {
  const auto docs = corpus();
  CoocKb kb(docs);
  grappi::ExtractiveModel model;
  HypothesisOptions o;
  o.paths = 100;
  std::vector<std::tuple<std::string, std::size_t, std::size_t>> stages;
  o.progress = [&](const std::string &stage, std::size_t done, std::size_t total) { stages.emplace_back(stage, done, total); };
  const HypothesisResult r = grappi::hypothesize(*kb.kg, model, "Axonin", "Tumorin", docs, o);
  // Progress: the paths, then each round asked.
  REQUIRE(stages.size() == 1 + r.rounds.size());
  CHECK(stages[0] == std::make_tuple(std::string("paths"), std::size_t{1}, std::size_t{1}));
  CHECK(stages.back() == std::make_tuple(std::string("rounds"), r.rounds.size(), o.rounds));
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
  CHECK(r.paths[0].mean_weight == doctest::Approx((ax + xt) / 2));
  CHECK(r.paths[0].min_weight == doctest::Approx(std::min(ax, xt)));
  // The default score, the prior: the weakest intermediate's log document share once per
  // intermediate (Xenopin, in 4 of 5 documents), less 0.01 per edge.
  CHECK(r.paths[0].score == doctest::Approx(std::log10(4 / n) - 0.02));
  CHECK(r.paths[0].score == doctest::Approx(grappi::PathRanker::prior().score(r.paths[0])));
  CHECK(r.paths[0].open_ends == 0);  // (Xenopin is named with both ends)
  // The context: one abstract of each edge in turn, the most recent first.
  REQUIRE(r.rounds.size() == 1);
  CHECK(r.rounds[0].context == std::vector<std::string>{"102", "104", "101", "103"});
  CHECK(r.stop_reason == "converged");
  CHECK(r.offline);
  // (the same without a model: RunControl::model unset is the offline default)
  const HypothesisResult implicit = grappi::hypothesize(*kb.kg, "Axonin", "Tumorin", docs, o);
  CHECK(implicit.offline);
  CHECK(implicit.paths.size() == r.paths.size());
  CHECK(implicit.rounds.size() == r.rounds.size());

  // Betalin to Axonin: through Tumorin and Xenopin (3 edges); within 2 edges, nothing.
  HypothesisOptions two = o;
  two.max_length = 2;
  CHECK(grappi::hypothesize(*kb.kg, model, "Betalin", "Axonin", docs, two).stop_reason == "no_paths");
  const HypothesisResult longer = grappi::hypothesize(*kb.kg, model, "Betalin", "Axonin", docs, o);
  CHECK(longer.paths.at(0).names.size() == 4);
  // Tumorin is not yet named with Axonin, nor Xenopin with Betalin: two open ends, each 0.005
  // off the prior (a path otherwise equal with none would rank first).
  CHECK(longer.paths[0].open_ends == 2);
  grappi::HypothesisPath closed = longer.paths[0];
  closed.open_ends = 0;
  CHECK(grappi::PathRanker::prior().score(closed) - grappi::PathRanker::prior().score(longer.paths[0]) ==
        doctest::Approx(0.01));
  CHECK_THROWS_AS(grappi::hypothesize(*kb.kg, model, "Nowhere", "Axonin", docs, o), grappi::Error);
  HypothesisOptions zero = o;
  zero.rounds = 0;
  CHECK_THROWS_AS(grappi::hypothesize(*kb.kg, model, "Betalin", "Axonin", docs, zero), grappi::Error);
}

TEST_CASE("HGCR's rounds of every shortest path / intermediates named more often with the ends first") {
  // Alpha - Xenix - Betin and Alpha - Yarrin - Betin (Xenix and Yarrin in three abstracts each,
  // Xenix in two of them with Alpha, Yarrin in one); Alpha - Pellin - Quorin - Betin.
  const std::vector<Document> docs = {
      doc("201", "2001", "Alpha with Xenix.", {"Alpha", "Xenix"}),  doc("202", "2002", "Alpha, Xenix again.", {"Alpha", "Xenix"}),
      doc("203", "2003", "Xenix near Betin.", {"Xenix", "Betin"}),   doc("204", "2004", "Alpha with Yarrin.", {"Alpha", "Yarrin"}),
      doc("205", "2005", "Yarrin near Betin.", {"Yarrin", "Betin"}), doc("206", "2006", "Yarrin and Zedin.", {"Yarrin", "Zedin"}),
      doc("207", "2007", "Alpha and Pellin.", {"Alpha", "Pellin"}),  doc("208", "2008", "Pellin and Quorin.", {"Pellin", "Quorin"}),
      doc("209", "2009", "Quorin and Betin.", {"Quorin", "Betin"})};
  CoocKb kb(docs);
  const int64_t a = kb.kg->resolve("MESH:Alpha"), b = kb.kg->resolve("MESH:Betin");
  const auto inner = [](const std::vector<grappi::HypothesisPath> &paths) {
    std::vector<std::vector<std::string>> out;
    for (const auto &p : paths) out.emplace_back(p.names.begin() + 1, p.names.end() - 1);
    return out;
  };
  HypothesisOptions o;
  o.paths = 100;
  // One round: the shortest paths alone; two: then without Xenix and Yarrin, the longer one.
  o.shortest_rounds = 1;
  const auto one = grappi::rank_hypothesis_paths(*kb.kg, a, b, o);
  CHECK(inner(one) == std::vector<std::vector<std::string>>{{"Xenix"}, {"Yarrin"}});
  o.shortest_rounds = 2;
  const auto two = grappi::rank_hypothesis_paths(*kb.kg, a, b, o);
  CHECK(inner(two) == std::vector<std::vector<std::string>>{{"Xenix"}, {"Yarrin"}, {"Pellin", "Quorin"}});
  o.shortest_rounds = 3;  // (a third round finds nothing more)
  CHECK(grappi::rank_hypothesis_paths(*kb.kg, a, b, o).size() == 3);
  o.shortest_rounds = 0;  // (Yen: the same three, shortest first)
  CHECK(inner(grappi::rank_hypothesis_paths(*kb.kg, a, b, o)) == inner(two));
  // What each node shares with the ends: Xenix 2 documents with Alpha, 1 with Betin.
  const grappi::HypothesisPath &x = two[0], &y = two[1];
  CHECK(x.documents == std::vector<std::size_t>{4, 3, 3});
  CHECK(x.with_source == std::vector<std::size_t>{4, 2, 0});
  CHECK(x.with_target == std::vector<std::size_t>{0, 1, 3});
  CHECK(y.with_source == std::vector<std::size_t>{4, 1, 0});
  // Xenix and Yarrin are alike by the share (3 of 9 documents each) and both joined to both ends:
  // Xenix, named more often with Alpha, goes first, by less than an open end's 0.005.
  CHECK(x.shares[1] == doctest::Approx(y.shares[1]));
  CHECK(x.open_ends == 0);
  CHECK(y.open_ends == 0);
  CHECK(x.score > y.score);
  CHECK(x.score - y.score < 0.005);
  // (the chance each is named with the pair: a noisy or of (shared + share) / (end's documents + 1))
  const double share = 3.0 / 9, px = 1 - (1 - (2 + share) / 5) * (1 - (1 + share) / 4),
               py = 1 - (1 - (1 + share) / 5) * (1 - (1 + share) / 4);
  const auto named = [](const grappi::HypothesisPath &p) { return grappi::PathRanker::features(p).back(); };
  CHECK(grappi::PathRanker::feature_names().back() == "named_with_ends_log");
  CHECK(named(x) == doctest::Approx(std::log10(px)));
  CHECK(named(y) == doctest::Approx(std::log10(py)));
  // A species end says nothing of what else is named: its place is taken by the share.
  grappi::HypothesisPath xs = x, ys = y;
  xs.labels.front() = ys.labels.front() = "Species";
  CHECK(named(xs) == doctest::Approx(named(ys)));
  // The length bound holds in rounds too.
  o.shortest_rounds = 2;
  o.max_length = 1;
  CHECK(grappi::rank_hypothesis_paths(*kb.kg, a, b, o).empty());
  o.shortest_rounds = 101;
  CHECK_THROWS_WITH_AS(grappi::rank_hypothesis_paths(*kb.kg, a, b, o), doctest::Contains("shortest_rounds must be 0 to 100"),
                       grappi::Error);
}

TEST_CASE("A literature concept whose name is a stop word is found by that name where sentences are checked") {
  // "tumor" is on the tagger's stop-list (an English word some gene lists as an alias); as the
  // own name of a concept of the literature graph it is the concept.
  const std::vector<Document> docs = {doc("301", "2001", "The tumor grew. Later Xenopin was seen.", {"tumor", "Xenopin"})};
  CoocKb kb(docs);
  grappi::EntityTaggerOptions every;
  every.labels = {"Disease"};
  const grappi::EntityTagger tagger(*kb.kg, every);
  std::vector<std::string> found;
  for (const grappi::EntityMention &m : tagger.tag("A tumor and Xenopin, and TUMOR again."))
    if (m.entity()) found.push_back(m.entity()->id);
  CHECK(found == std::vector<std::string>{"MESH:tumor", "MESH:Xenopin", "MESH:tumor"});
  // A protein named by a stop word stays a stop word, whatever else the database holds (the
  // protein comes after the concepts: the tagger's own node order is not the database's).
  kb.kg->add_node({"9606.ENSP00000000001", "cancer", "Protein", "", 9606, "{}"});
  for (const std::vector<std::string> &labels : {std::vector<std::string>{"Protein"}, {"Protein", "Disease"}}) {
    grappi::EntityTaggerOptions with;
    with.labels = labels;
    std::vector<std::string> names;
    for (const grappi::EntityMention &m : grappi::EntityTagger(*kb.kg, with).tag("The cancer and the tumor grew."))
      if (m.entity()) names.push_back(m.entity()->name);
    CHECK(names == (labels.size() == 1 ? std::vector<std::string>{} : std::vector<std::string>{"tumor"}));
  }
  // The offline explanation's "named together" sentence about it (no sentence names both) is
  // checked against the graph: co-mentioned (it was "unchecked", one entity found).
  grappi::ExtractiveModel model;
  const HypothesisResult r = grappi::hypothesize(*kb.kg, model, "MESH:tumor", "MESH:Xenopin", docs, HypothesisOptions{});
  REQUIRE(r.final_round == 0);
  REQUIRE(r.rounds[0].sentences.size() == 1);
  CHECK(r.rounds[0].sentences[0].text == "tumor and Xenopin are named together in PMID 301.");
  CHECK(r.rounds[0].sentences[0].status == "co-mentioned");
}

TEST_CASE("Hypothesis paths on BioRED match an independent search of the co-occurrence graph") {
  const auto docs = grappi::read_documents(lit("BioRED.Test.first3.PubTator"));
  const grappi::CoocGraph g = grappi::build_cooccurrence(docs);
  CoocKb kb(docs);
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
  o.generic_intermediates = true;  // (the independent search knows no generic concepts)
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
  // Ties (every score equal) are broken by fewer edges, then node ids, alike every time.
  o.scorer = [](const grappi::HypothesisPath &) { return 0.0; };
  const auto tied = grappi::rank_hypothesis_paths(*kb.kg, kb.kg->resolve(s), kb.kg->resolve(t), o);
  REQUIRE(tied.size() == expected.size());
  for (std::size_t i = 1; i < tied.size(); ++i)
    CHECK(std::make_pair(tied[i - 1].edges.size(), tied[i - 1].nodes) < std::make_pair(tied[i].edges.size(), tied[i].nodes));
  const auto again = grappi::rank_hypothesis_paths(*kb.kg, kb.kg->resolve(s), kb.kg->resolve(t), o);
  for (std::size_t i = 0; i < tied.size(); ++i) CHECK(again[i].nodes == tied[i].nodes);
  // The offline explanation: the one abstract behind every edge, quoted.
  const HypothesisResult x = grappi::hypothesize(*kb.kg, model, s, t, docs, HypothesisOptions{});
  REQUIRE(x.final_round == 0);
  CHECK(x.stop_reason == "converged");
  REQUIRE_FALSE(x.rounds[0].sentences.empty());
  CHECK(std::any_of(x.rounds[0].sentences.begin(), x.rounds[0].sentences.end(),
                    [](const grappi::HypothesisSentence &q) { return q.status == "quoted"; }));
  for (const auto &sentence : x.rounds[0].sentences) {
    CHECK(sentence.citations == std::vector<std::string>{"15485686"});
    // (a quote of the abstract, or a pair only the abstract as a whole names)
    INFO(sentence.text);
    const bool together = sentence.text.find(" are named together in PMID 15485686.") != std::string::npos;
    CHECK(sentence.status == (together ? "co-mentioned" : "quoted"));
  }
  const json j = grappi::to_json(x);
  CHECK(j["note"].get<std::string>().find("not generated by a language model") != std::string::npos);
  CHECK(grappi::to_markdown(x).find("# How may") == 0);
}

TEST_CASE("The validation loop re-works unsupported sentences with the next abstract of the same edge") {
  const auto docs = corpus();
  CoocKb kb(docs);
  std::atomic<int> calls{0};
  std::vector<std::vector<std::string>> contexts;
  // Round 1: one sentence the graph supports, one naming a pair no edge joins, one citing an
  // abstract that was not given. Round 2: supported.
  grappi::CallbackModel model("scripted", [&](const grappi::ChatRequest &q) {
    ++calls;
    contexts.push_back(context_of(q));
    if (q.task["round"] == 0)
      return sentences_reply(json::array({{{"text", "Axonin binds Xenopin."}, {"pmids", {"102"}}},
                                {{"text", "Axonin represses Betalin in neurons."}, {"pmids", {"102"}}},
                                {{"text", "Xenopin and Tumorin interact."}, {"pmids", {"999"}}}}));
    CHECK(q.messages.back().content.find("Axonin represses Betalin") != std::string::npos);  // (the feedback)
    return sentences_reply(json::array({{{"text", "Axonin binds Xenopin [PMID:101]."}}, {{"text", "Xenopin and Tumorin interact."}, {"pmids", {"104"}}}}));
  });
  HypothesisOptions o;
  o.context = 2;
  const HypothesisResult r = grappi::hypothesize(*kb.kg, model, "Axonin", "Tumorin", docs, o);
  REQUIRE(r.rounds.size() == 2);
  CHECK(calls == 2);
  const auto &first = r.rounds[0];
  CHECK(first.context == std::vector<std::string>{"102", "104"});
  REQUIRE(first.sentences.size() == 3);
  CHECK(first.sentences[0].status == "co-mentioned");  // (only the abstracts' co-occurrence joins them)
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
      if (q.task["round"] == 0) return sentences_reply(json::array({{{"text", "Axonin represses Betalin."}, {"pmids", {"102"}}}}));
      return sentences_reply(json::array({{{"text", "Axonin binds Xenopin."}, {"pmids", {context_of(q)[0]}}}}));
    });
    const HypothesisResult c = grappi::hypothesize(*kb.kg, good, "Axonin", "Tumorin", docs, o);
    CHECK(c.stop_reason == "converged");
    CHECK(c.rounds.size() == 2);
    CHECK(c.final_round == 1);
  }
  SUBCASE("the round limit keeps the best explanation") {
    grappi::CallbackModel bad("bad", [&](const grappi::ChatRequest &q) {
      if (q.task["round"] == 0)
        return sentences_reply(json::array({{{"text", "Axonin represses Betalin."}}, {{"text", "Tumorin represses Axonin."}}}));
      return sentences_reply(json::array({{{"text", "Axonin represses Betalin."}}, {{"text", "Tumorin represses Axonin."}},
                                {{"text", "Betalin binds Xenopin."}}}));
    });
    HypothesisOptions two = o;
    two.rounds = 2;
    const HypothesisResult m = grappi::hypothesize(*kb.kg, bad, "Axonin", "Tumorin", docs, two);
    CHECK(m.stop_reason == "max_rounds");
    CHECK(m.rounds.size() == 2);
    CHECK(m.final_round == 0);  // (2 reworked sentences against 3)
  }
  // A model that counts its calls and always answers one sentence (the subcases below).
  std::atomic<int> sent{0};
  grappi::CallbackModel counted("counted", [&](const grappi::ChatRequest &) {
    ++sent;
    return sentences_reply(json::array({{{"text", "Axonin represses Betalin."}, {"pmids", {"102"}}}}));
  });
  SUBCASE("cancelled by the caller after the first round") {
    HypothesisOptions c = o;
    c.use_cache = false;
    c.cancel = [&sent] { return sent.load() >= 1; };
    const HypothesisResult h = grappi::hypothesize(*kb.kg, counted, "Axonin", "Tumorin", docs, c);
    CHECK(sent.load() == 1);
    CHECK(h.stop_reason == "cancelled");
    REQUIRE(h.rounds.size() == 2);
    CHECK(h.rounds[0].status == "ok");
    CHECK(h.rounds[1].status == "skipped");
    CHECK(h.rounds[1].error == "cancelled by the caller");
    CHECK(h.final_round == 0);  // the first explanation is kept
    CHECK(h.usage.skipped == 1);
  }
  SUBCASE("cancelled during the path search: nothing asked") {
    HypothesisOptions c = o;
    c.use_cache = false;
    c.cancel = [] { return true; };  // (the enumeration's own stop: the Yen test in test_retriever)
    const HypothesisResult h = grappi::hypothesize(*kb.kg, counted, "Axonin", "Tumorin", docs, c);
    CHECK(h.stop_reason == "cancelled");
    CHECK(h.rounds.empty());
    CHECK(sent.load() == 0);
  }
  SUBCASE("more rounds than confirm_calls allows without a budget sends nothing") {
    HypothesisOptions c = o;
    c.use_cache = false;
    c.rounds = 300;  // two calls a round at most: 600
    c.confirm_calls = 500;
    CHECK_THROWS_WITH_AS(grappi::hypothesize(*kb.kg, counted, "Axonin", "Tumorin", docs, c),
                         doctest::Contains("could make 600 model calls"), grappi::Error);
    CHECK(sent.load() == 0);
    c.max_calls = 3;  // a budget: the run goes ahead within it
    const HypothesisResult h = grappi::hypothesize(*kb.kg, counted, "Axonin", "Tumorin", docs, c);
    CHECK(sent.load() >= 1);  // (the loop stops when no abstract is left to swap in)
    CHECK(sent.load() <= 3);
    CHECK(h.usage.model_calls == std::size_t(sent.load()));
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

TEST_CASE("An embedding weight blends the concepts' similarity to the pair into the path score") {
  auto docs = corpus();
  docs.push_back(doc("106", "2009", "Axonin and Betalin.", {"Axonin", "Betalin"}));
  CoocKb kb(docs);
  HypothesisOptions o;
  o.paths = 10;
  const auto a = kb.kg->resolve("Axonin"), t = kb.kg->resolve("Tumorin");
  o.embedding_weight = 0.5;
  CHECK_THROWS_WITH_AS(grappi::rank_hypothesis_paths(*kb.kg, a, t, o), doctest::Contains("embedded first"), grappi::Error);
  auto embedder = grappi::hashing_embedder(*kb.kg);
  grappi::EmbedOptions eo;
  eo.neighbor_ranking = false;
  grappi::embed_graph(*kb.kg, *embedder, eo);
  const auto vectors = grappi::graph_vectors(*kb.kg);
  const auto cos = [&](int64_t x, int64_t y) {
    return double(grappi::cosine(vectors->vector(x), vectors->vector(y), vectors->dim()));
  };
  const auto plain = [&] {
    HypothesisOptions p = o;
    p.embedding_weight = 0;
    return grappi::rank_hypothesis_paths(*kb.kg, a, t, p);
  }();
  const auto blended = grappi::rank_hypothesis_paths(*kb.kg, a, t, o);
  REQUIRE(blended.size() == 2);  // through Xenopin, through Betalin
  REQUIRE(plain.size() == 2);
  for (const auto &p : blended) {
    REQUIRE(p.nodes.size() == 3);
    const double sim = 0.5 * (cos(p.nodes[1], a) + cos(p.nodes[1], t));
    CHECK(p.similarity == doctest::Approx(sim));
    CHECK(p.score == doctest::Approx(0.5 * (0.5 * p.mean_weight + 0.5 * p.min_weight) + 0.5 * sim));
  }
  for (const auto &p : plain) CHECK(p.similarity == 0);
  o.embedding_weight = 1.5;
  CHECK_THROWS_AS(grappi::rank_hypothesis_paths(*kb.kg, a, t, o), grappi::Error);
}

namespace {

// ROC AUC as the share of (positive, negative) pairs ordered right, ties half.
double pairwise_auc(const std::vector<double> &scores, const std::vector<bool> &labels) {
  double good = 0, n = 0;
  for (std::size_t i = 0; i < scores.size(); ++i)
    for (std::size_t j = 0; j < scores.size(); ++j)
      if (labels[i] && !labels[j]) {
        n += 1;
        good += scores[i] > scores[j] ? 1.0 : scores[i] == scores[j] ? 0.5 : 0.0;
      }
  return n > 0 ? good / n : -1;
}

// KRAS reaches MYC through BRAF, EGFR and RAF1 - MAPK1 before 2010; in 2011 one paper names
// KRAS, BRAF and MYC together (their first link), in 2012 one names EGFR and RAF1.
std::string temporal_corpus() {
  const std::vector<std::tuple<int, int, std::string, std::vector<std::string>>> rows = {
      {1, 2001, "KRAS binds BRAF.", {"KRAS", "BRAF"}},       {2, 2002, "BRAF regulates MYC.", {"BRAF", "MYC"}},
      {3, 2003, "KRAS and EGFR signal.", {"KRAS", "EGFR"}},  {4, 2004, "EGFR drives MYC.", {"EGFR", "MYC"}},
      {5, 2005, "KRAS activates RAF1.", {"KRAS", "RAF1"}},   {6, 2006, "RAF1 activates MAPK1.", {"RAF1", "MAPK1"}},
      {7, 2007, "MAPK1 stabilises MYC.", {"MAPK1", "MYC"}},  {8, 2008, "BRAF and EGFR cross-talk.", {"BRAF", "EGFR"}},
      {9, 2011, "KRAS acts on MYC through BRAF.", {"KRAS", "BRAF", "MYC"}},
      {10, 2012, "EGFR and RAF1 together.", {"EGFR", "RAF1"}}};
  const std::map<std::string, std::string> ids = {{"KRAS", "3845"}, {"MYC", "4609"},  {"BRAF", "673"},
                                                   {"EGFR", "1956"}, {"RAF1", "5894"}, {"MAPK1", "5594"}};
  std::string out;
  for (const auto &[pmid, year, text, names] : rows) {
    json concepts = json::array();
    for (const std::string &n : names) concepts.push_back({{"id", ids.at(n)}, {"type", "Gene"}, {"text", n}});
    out += json{{"pmid", pmid}, {"year", year}, {"text", text}, {"concepts", concepts}}.dump() + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("The temporal evaluation labels paths by the later papers and scores them by ROC AUC") {
  const auto docs = grappi::parse_documents(temporal_corpus(), grappi::DocumentFormat::detect, "temporal.jsonl");
  REQUIRE(docs.size() == 10);
  grappi::ExtractiveModel model;
  grappi::HypothesisEvalOptions o;
  o.as_of = 2010;
  o.explain = 1;
  TempDir work;
  o.work_dir = work.path;
  const grappi::HypothesisEvalResult r = grappi::evaluate_hypotheses(docs, model, o);
  CHECK(r.split == "year");
  CHECK(r.cutoff == "2010");
  CHECK(r.before == 8);
  CHECK(r.after == 2);
  CHECK(r.concepts == 6);
  CHECK(r.edges == 8);
  // KRAS - MYC and EGFR - RAF1 are new; KRAS - BRAF and BRAF - MYC were linked before.
  CHECK(r.candidates == 2);
  REQUIRE(r.pairs.size() == 2);
  const auto &km = r.pairs[0].source == "NCBIGene:3845" ? r.pairs[0] : r.pairs[1];
  CHECK(km.target == "NCBIGene:4609");
  CHECK(km.later == std::vector<std::string>{"9"});
  // Positive: the paths whose intermediate concepts paper 9 names (through BRAF alone).
  std::vector<double> all_scores;
  std::vector<bool> all_labels;
  double macro = 0;
  std::size_t macro_pairs = 0;
  for (const auto &p : r.pairs) {
    std::vector<double> scores;
    for (std::size_t k = 0; k < p.paths.size(); ++k) {
      const auto &names = p.paths[k].names;
      const bool expected = &p == &km && names == std::vector<std::string>{"KRAS", "BRAF", "MYC"};
      CHECK(p.positive[k] == expected);
      if (expected) CHECK(p.first_positive == int(k + 1));
      scores.push_back(p.paths[k].score);
      all_scores.push_back(p.paths[k].score);
      all_labels.push_back(p.positive[k]);
    }
    CHECK(p.auc == doctest::Approx(pairwise_auc(scores, p.positive)));
    if (p.auc >= 0) macro += p.auc, ++macro_pairs;
  }
  CHECK(km.first_positive > 0);
  CHECK(km.paths.size() >= 4);  // via BRAF, EGFR, BRAF-EGFR, EGFR-BRAF, RAF1-MAPK1
  CHECK(r.auc_micro == doctest::Approx(pairwise_auc(all_scores, all_labels)));
  CHECK(r.auc_pairs == macro_pairs);
  CHECK(r.auc_macro == doctest::Approx(macro / double(macro_pairs)));
  CHECK(r.top_share == doctest::Approx(0.5));  // EGFR - RAF1 has no positive path
  // One explanation, scored against paper 9's text.
  CHECK(r.explained == 1);
  const auto &ex = r.pairs[0].explained ? r.pairs[0] : r.pairs[1];
  REQUIRE(ex.explained);
  CHECK_FALSE(ex.explanation.empty());
  const std::string later_text = ex.source == "NCBIGene:3845" ? "KRAS acts on MYC through BRAF." : "EGFR and RAF1 together.";
  CHECK(ex.rouge_1 == doctest::Approx(grappi::rouge_1_f1(ex.explanation, later_text)));
  CHECK(ex.rouge_l == doctest::Approx(grappi::rouge_l_f1(ex.explanation, later_text)));
  CHECK(r.rouge_1 == doctest::Approx(ex.rouge_1));
  CHECK(ex.rounds >= 1);
  CHECK(r.offline);
  // The JSON names scripts rely on.
  const json j = grappi::to_json(r);
  CHECK(j["split"]["kind"] == "year");
  CHECK(j["auc_micro"].get<double>() == doctest::Approx(r.auc_micro));
  CHECK(j["reference"]["auc_micro"] == 0.895);
  CHECK(grappi::to_json(km)["top_paths"].size() == std::min<std::size_t>(10, km.paths.size()));
  // The temporary database is gone.
  CHECK(std::filesystem::is_empty(work.path));

  // Without a year: date order, 8 before and 2 after, the same split here.
  grappi::HypothesisEvalOptions by_date = o;
  by_date.as_of.reset();
  by_date.explain = 0;
  const auto rp = grappi::evaluate_hypotheses(docs, model, by_date);
  CHECK(rp.split == "date_order");
  CHECK(rp.cutoff.find("(PMID 9)") != std::string::npos);
  CHECK(rp.auc_micro == doctest::Approx(r.auc_micro));
  // A document without a year turns a year split into PubMed id order, and says so.
  auto undated = docs;
  undated[3].year.clear();
  const auto ru = grappi::evaluate_hypotheses(undated, model, o);
  CHECK(ru.split == "pmid_order");
  CHECK(ru.split_note.find("1 document(s) have no year") != std::string::npos);
  // Bad splits.
  grappi::HypothesisEvalOptions bad = o;
  bad.split = 1;
  bad.as_of.reset();
  CHECK_THROWS_AS(grappi::evaluate_hypotheses(docs, model, bad), grappi::Error);
  bad = o;
  bad.as_of = 2100;
  CHECK_THROWS_WITH_AS(grappi::evaluate_hypotheses(docs, model, bad), doctest::Contains("0 after it"), grappi::Error);
}

namespace {

// A generated literature with a planted pattern: each gene pair (S, T) is joined before 2004
// through three chemicals and three diseases (one paper per edge); a later paper names the
// pair with its chemicals only (the first 40 pairs in 2008-2009, before the outer split; the
// other 40 in 2011, after it). Chemicals and diseases are drawn from pools of the same size, so
// document frequency and path length cannot tell them apart: only the intermediates' type can.
std::vector<Document> planted_corpus() {
  std::mt19937 rng(7);
  std::string out;
  int pmid = 1;
  const auto doc = [&](int year, const std::vector<std::pair<std::string, std::string>> &concepts) {
    json cs = json::array();
    std::string text;
    for (const auto &[id, type] : concepts) {
      cs.push_back({{"id", id}, {"type", type}, {"text", "c" + id}});
      text += (text.empty() ? "" : " and ") + ("c" + id);
    }
    out += json{{"pmid", pmid++}, {"year", year}, {"text", text + "."}, {"concepts", cs}}.dump() + "\n";
  };
  struct Pair {
    std::string s, t;
    std::vector<std::string> chemicals, diseases;
  };
  std::vector<Pair> pairs;
  for (int i = 0; i < 80; ++i) {
    Pair p{std::to_string(1000 + i), std::to_string(2000 + i), {}, {}};
    std::vector<int> pool(40);
    std::iota(pool.begin(), pool.end(), 0);
    std::shuffle(pool.begin(), pool.end(), rng);
    for (int k = 0; k < 3; ++k) p.chemicals.push_back("D0" + std::to_string(10000 + pool[std::size_t(k)]));
    std::shuffle(pool.begin(), pool.end(), rng);
    for (int k = 0; k < 3; ++k) p.diseases.push_back("D0" + std::to_string(20000 + pool[std::size_t(k)]));
    pairs.push_back(p);
  }
  for (const Pair &p : pairs) {
    for (const auto &c : p.chemicals) doc(2000, {{p.s, "Gene"}, {c, "Chemical"}}), doc(2001, {{c, "Chemical"}, {p.t, "Gene"}});
    for (const auto &d : p.diseases) doc(2002, {{p.s, "Gene"}, {d, "Disease"}}), doc(2003, {{d, "Disease"}, {p.t, "Gene"}});
  }
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    std::vector<std::pair<std::string, std::string>> named = {{pairs[i].s, "Gene"}, {pairs[i].t, "Gene"}};
    for (const auto &c : pairs[i].chemicals) named.emplace_back(c, "Chemical");
    doc(i < 40 ? 2008 + int(i % 2) : 2011, named);
  }
  return grappi::parse_documents(out, grappi::DocumentFormat::detect, "planted.jsonl");
}

}  // namespace

TEST_CASE("The nested path ranker learns a planted pattern and beats the baselines on the later papers" * doctest::test_suite("heavy")) {
  const auto docs = planted_corpus();
  grappi::ExtractiveModel model;
  grappi::HypothesisEvalOptions o;
  o.as_of = 2010;
  o.explain = 0;
  o.ranker_options.min_positives = 20;
  o.scoring = "trained";
  TempDir work;
  o.work_dir = work.path;
  const grappi::HypothesisEvalResult r = grappi::evaluate_hypotheses(docs, model, o);
  REQUIRE(r.scoring == "trained");
  CHECK(r.ranker["positives"].get<std::size_t>() >= 20);
  CHECK(r.ranker["before"].get<std::size_t>() + r.ranker["after"].get<std::size_t>() == r.before);
  REQUIRE(r.auc_micro >= 0);
  REQUIRE(r.auc_macro >= 0);
  const json base = r.baselines;
  for (const char *b : {"shorter_first", "document_frequency", "random"}) {
    CAPTURE(b);
    CHECK(r.auc_micro >= base[b]["auc_micro"].get<double>() + 0.02);
    CHECK(r.auc_macro >= base[b]["auc_macro"].get<double>() + 0.02);
  }
  // The prior alone, on the same paths: it cannot see the pattern.
  grappi::HypothesisEvalOptions prior = o;
  prior.scoring = "prior";
  const grappi::HypothesisEvalResult q = grappi::evaluate_hypotheses(docs, model, prior);
  CHECK(q.scoring == "prior");
  CHECK(q.paths == r.paths);
  CHECK(r.auc_macro >= q.auc_macro + 0.02);
  // Too few positives before the split: the prior, and the reason.
  grappi::HypothesisEvalOptions strict = o;
  strict.ranker_options.min_positives = 100000;
  const grappi::HypothesisEvalResult s = grappi::evaluate_hypotheses(docs, model, strict);
  CHECK(s.scoring == "prior");
  CHECK(s.ranker["error"].get<std::string>().find("fewer than the 100000") != std::string::npos);
  CHECK(s.auc_micro == doctest::Approx(q.auc_micro));
  // Cancelled (polled per pair and in each pair's path search): no figures, no ranker fitted;
  // once in the nested training, once in the outer labelling.
  for (int at : {1, 40}) {
    CAPTURE(at);
    int polls = 0;
    grappi::HypothesisEvalOptions stop = prior;
    stop.hypothesis.cancel = [&polls, at] { return ++polls >= at; };
    const grappi::HypothesisEvalResult c = grappi::evaluate_hypotheses(docs, model, stop);
    CHECK(c.cancelled);
    CHECK(c.auc_micro == -1);
    CHECK(c.pairs.empty());
    CHECK(grappi::to_json(c)["cancelled"] == true);
    stop.scoring = "trained";
    polls = 0;
    CHECK(grappi::evaluate_hypotheses(docs, model, stop).cancelled);
    polls = 0;
    const grappi::PathRankerTraining t = grappi::train_path_ranker(docs, stop);
    CHECK(t.cancelled);
    CHECK_FALSE(t.ranker.trained());
  }
  CHECK_FALSE(q.cancelled);
}

TEST_CASE("The evaluation at several splits is each split's evaluation and the means of their figures" * doctest::test_suite("heavy")) {
  const auto docs = planted_corpus();
  grappi::ExtractiveModel model;
  grappi::HypothesisEvalOptions o;
  o.explain = 0;
  o.scoring = "prior";
  TempDir work;
  o.work_dir = work.path;
  const std::vector<double> splits = {0.6, 0.8};
  const grappi::HypothesisSplitsResult r = grappi::evaluate_hypotheses_splits(docs, model, o, splits);
  REQUIRE(r.runs.size() == 2);
  CHECK_FALSE(r.cancelled);
  double micro = 0, macro = 0, shorter_micro = 0;
  for (std::size_t i = 0; i < splits.size(); ++i) {
    grappi::HypothesisEvalOptions one = o;
    one.split = splits[i];
    const grappi::HypothesisEvalResult single = grappi::evaluate_hypotheses(docs, model, one);
    CHECK(r.runs[i].before == single.before);
    CHECK(r.runs[i].paths == single.paths);
    REQUIRE(single.auc_micro >= 0);
    REQUIRE(single.auc_macro >= 0);
    CHECK(r.runs[i].auc_micro == doctest::Approx(single.auc_micro));
    micro += single.auc_micro / 2, macro += single.auc_macro / 2;
    shorter_micro += single.baselines["shorter_first"]["auc_micro"].get<double>() / 2;
  }
  CHECK(r.runs[0].before < r.runs[1].before);
  CHECK(r.means["grappi"]["auc_micro"].get<double>() == doctest::Approx(micro));
  CHECK(r.means["grappi"]["auc_macro"].get<double>() == doctest::Approx(macro));
  CHECK(r.means["grappi"]["splits_micro"] == 2);
  CHECK(r.means["shorter_first"]["auc_micro"].get<double>() == doctest::Approx(shorter_micro));
  const json j = grappi::to_json(r);
  REQUIRE(j["splits"].size() == 2);
  CHECK(j["splits"][1]["split_share"] == 0.8);
  CHECK(j["means"] == r.means);
  // Refused: no split, a share outside (0, 1), a year, a split with nothing after it (named).
  CHECK_THROWS_WITH_AS(grappi::evaluate_hypotheses_splits(docs, model, o, {}), doctest::Contains("no split"), grappi::Error);
  CHECK_THROWS_WITH_AS(grappi::evaluate_hypotheses_splits(docs, model, o, {0.5, 1.0}), doctest::Contains("not in (0, 1)"),
                       grappi::Error);
  grappi::HypothesisEvalOptions year = o;
  year.as_of = 2010;
  CHECK_THROWS_WITH_AS(grappi::evaluate_hypotheses_splits(docs, model, year, {0.5}), doctest::Contains("not a year"),
                       grappi::Error);
  const std::vector<Document> two = {docs.at(0), docs.at(1)};
  CHECK_THROWS_WITH_AS(grappi::evaluate_hypotheses_splits(two, model, o, {0.01}), doctest::Contains("at the split 0.01: "),
                       grappi::Error);
}
