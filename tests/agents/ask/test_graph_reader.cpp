// The graph reader: gradients against finite differences; a planted pattern only message
// passing over typed edges can find is learnt (Hits@1 = 1 on unseen graphs); the same seed gives
// the same model bit for bit whatever the thread count; storage round trip; bad input; the
// reader trained and used over a knowledge base through train_reader, ask and evaluate_qa.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::GatReader;
using grappi::GatReaderOptions;
using grappi::ReaderExample;
using grappi::ReaderGraph;

namespace {

std::shared_ptr<const grappi::VectorIndex> random_vectors(std::size_t count, std::size_t dim, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> g(0, 1);
  grappi::Embeddings e;
  e.dim = dim;
  std::vector<int64_t> ids;
  for (std::size_t i = 0; i < count; ++i) {
    ids.push_back(int64_t(i) + 1);
    for (std::size_t k = 0; k < dim; ++k) e.data.push_back(g(rng));
  }
  return std::make_shared<const grappi::VectorIndex>("test", std::move(ids), std::move(e));
}

// A graph of 10 nodes where node 0 is the asked entity; node 1 joins it by "binds", nodes 2 and 3
// by "coexpr"; each of 1, 2, 3 also has one edge of the other relation elsewhere (so degrees,
// relation counts and partnership cannot tell the answer apart: only which relation joins it to
// the asked entity can). The nodes are shuffled; the answer's index is returned in answers.
ReaderExample planted(std::mt19937_64 &rng, const std::shared_ptr<const grappi::VectorIndex> &vectors, int id) {
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<std::size_t> perm(10);
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  ReaderExample x;
  x.id = "planted-" + std::to_string(id);
  ReaderGraph &g = x.graph;
  g.vectors = vectors;
  g.question.resize(vectors->dim());
  for (float &q : g.question) q = float(u(rng) - 0.5);
  g.nodes.resize(10);
  std::uniform_int_distribution<int64_t> pick(1, int64_t(vectors->size()));
  for (std::size_t i = 0; i < 10; ++i) {
    auto &n = g.nodes[perm[i]];
    n.node = pick(rng);
    n.similarity = u(rng);
    n.prize = u(rng);
    n.degree = std::size_t(u(rng) * 50);
    n.asked = i == 0;
  }
  const auto edge = [&](std::size_t a, std::size_t b, const char *rel) {
    g.edges.push_back({perm[a], perm[b], rel, 0.5 + 0.5 * u(rng), 0});
  };
  edge(0, 1, "binds");
  edge(0, 2, "coexpr");
  edge(0, 3, "coexpr");
  edge(1, 4, "coexpr");
  edge(2, 5, "binds");
  edge(3, 6, "binds");
  edge(7, 8, "coexpr");
  edge(8, 9, "binds");
  x.answers = {perm[1]};
  return x;
}

GatReaderOptions small() {
  GatReaderOptions o;
  o.hidden = 8;
  o.heads = 2;
  o.head_hidden = 8;
  o.epochs = 80;
  o.learning_rate = 0.01;
  o.patience = 0;
  o.dropout = 0;
  o.threads = 1;
  return o;
}

std::size_t rank_of_answer(const GatReader &r, const ReaderExample &x) {
  const std::vector<double> s = r.score(x.graph);
  std::size_t rank = 1;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (!x.graph.nodes[i].asked && i != x.answers[0] && s[i] >= s[x.answers[0]]) ++rank;
  return rank;
}

}  // namespace

TEST_CASE("The reader's gradient matches finite differences") {
  const auto vectors = random_vectors(30, 3, 5);
  std::mt19937_64 rng(11);
  const ReaderExample x = planted(rng, vectors, 0);
  GatReaderOptions o = small();
  o.hidden = 4;
  o.head_hidden = 3;
  for (std::size_t layers : {1, 2}) {
    o.layers = layers;
    GatReader r = GatReader::initial(3, {"binds", "coexpr"}, o);
    // Non-zero biases and attention terms, so that every path of the gradient is exercised.
    std::mt19937_64 prng(3);
    std::uniform_real_distribution<double> u(-0.3, 0.3);
    for (double &p : r.parameters()) p += u(prng);
    std::vector<double> grad;
    r.loss(x, &grad);
    REQUIRE(grad.size() == r.parameters().size());
    double worst = 0;
    for (std::size_t j = 0; j < grad.size(); ++j) {
      const double keep = r.parameters()[j], h = 1e-6;
      r.parameters()[j] = keep + h;
      const double up = r.loss(x);
      r.parameters()[j] = keep - h;
      const double down = r.loss(x);
      r.parameters()[j] = keep;
      const double numeric = (up - down) / (2 * h);
      worst = std::max(worst, std::abs(numeric - grad[j]) / (1e-6 + std::abs(numeric) + std::abs(grad[j])));
    }
    CHECK(worst < 1e-5);
  }
}

TEST_CASE("A planted pattern only typed message passing can see is learnt") {
  const auto vectors = random_vectors(200, 8, 7);
  std::mt19937_64 rng(1);
  std::vector<ReaderExample> train, test;
  for (int i = 0; i < 48; ++i) train.push_back(planted(rng, vectors, i));
  for (int i = 0; i < 20; ++i) test.push_back(planted(rng, vectors, 100 + i));
  grappi::ReaderTrainReport report;
  const GatReader r = GatReader::train(train, {}, small(), &report);
  CHECK(report.train_examples + report.valid_examples == 48);  // (a seeded fifth validates)
  CHECK(report.valid_examples == 10);
  CHECK(report.epochs.back().train_loss < report.epochs.front().train_loss);
  std::size_t first = 0;
  for (const ReaderExample &x : test) first += rank_of_answer(r, x) == 1;
  CHECK(first == test.size());  // Hits@1 = 1 on graphs it has not seen
}

TEST_CASE("The same seed gives the same reader bit for bit whatever the thread count" * doctest::test_suite("threads")) {
  const auto vectors = random_vectors(100, 6, 9);
  std::mt19937_64 rng(2);
  std::vector<ReaderExample> train;
  for (int i = 0; i < 20; ++i) train.push_back(planted(rng, vectors, i));
  GatReaderOptions o = small();
  o.epochs = 5;
  o.dropout = 0.2;
  o.patience = 3;  // (with the seeded validation share)
  o.threads = 1;
  const GatReader a = GatReader::train(train, {}, o);
  o.threads = 3;
  const GatReader b = GatReader::train(train, {}, o);
  CHECK(a.parameters() == b.parameters());
  o.seed = 2;
  const GatReader c = GatReader::train(train, {}, o);
  CHECK(a.parameters() != c.parameters());
}

TEST_CASE("A cancelled training stops at its next step and keeps the best epoch trained") {
  const auto vectors = random_vectors(100, 6, 9);
  std::mt19937_64 rng(2);
  std::vector<ReaderExample> train;
  for (int i = 0; i < 20; ++i) train.push_back(planted(rng, vectors, i));
  GatReaderOptions o = small();
  o.epochs = 4;
  o.patience = 0;
  o.batch = 4;  // (16 training examples with the validation share: 4 steps an epoch)
  grappi::ReaderTrainReport whole;
  const GatReader all = GatReader::train(train, {}, o, &whole);
  CHECK_FALSE(whole.cancelled);
  CHECK(whole.epochs.size() == 4);
  // Two epochs' steps, then a step of the third: the third is dropped, the second kept.
  int polls = 0;
  o.cancel = [&polls] { return ++polls > 9; };
  grappi::ReaderTrainReport part;
  const GatReader two = GatReader::train(train, {}, o, &part);
  CHECK(part.cancelled);
  CHECK(polls == 10);
  CHECK(part.epochs.size() == 2);
  CHECK(part.best_epoch == 2);
  o.epochs = 2;
  o.cancel = nullptr;
  CHECK(GatReader::train(train, {}, o).parameters() == two.parameters());
  CHECK(two.parameters() != all.parameters());
}

TEST_CASE("A stored reader loads back the same and refuses what it cannot read") {
  TempDir dir;
  const auto vectors = random_vectors(50, 4, 3);
  std::mt19937_64 rng(4);
  std::vector<ReaderExample> train;
  for (int i = 0; i < 10; ++i) train.push_back(planted(rng, vectors, i));
  GatReaderOptions o = small();
  o.epochs = 3;
  GatReader r = GatReader::train(train, {}, o);
  r.info()["note"] = "round trip";
  {
    grappi::KnowledgeGraph kg(dir.file("r.db"));
    r.save(kg, "mine");
    CHECK_THROWS_WITH_AS(GatReader::load(kg, "other"), doctest::Contains("no graph reader named 'other'"), grappi::Error);
  }
  grappi::OpenOptions ro;
  ro.read_only = true;
  grappi::KnowledgeGraph kg(dir.file("r.db"), ro);
  const GatReader back = GatReader::load(kg, "mine");
  CHECK(back.parameters() == r.parameters());
  CHECK(back.relations() == r.relations());
  CHECK(back.info()["note"] == "round trip");
  CHECK(back.score(train[0].graph) == r.score(train[0].graph));
  const auto listed = grappi::stored_readers(kg);
  REQUIRE(listed.size() == 1);
  CHECK(listed[0]["name"] == "mine");
  CHECK(listed[0]["dimension"] == 4);
}

TEST_CASE("A damaged stored reader is refused with the reason") {
  TempDir dir;
  grappi::KnowledgeGraph kg(dir.file("d.db"));
  const GatReader r = GatReader::initial(4, {"binds"}, small());
  r.save(kg, "ok");
  auto m = *kg.trained_model("ok");
  m.name = "short";
  m.data.resize(m.data.size() - 8);
  kg.store_trained_model(m);
  CHECK_THROWS_WITH_AS(GatReader::load(kg, "short"), doctest::Contains("bytes of parameters"), grappi::Error);
  m = *kg.trained_model("ok");
  m.name = "newer";
  auto spec = nlohmann::json::parse(m.spec);
  spec["format"] = 99;
  m.spec = spec.dump();
  kg.store_trained_model(m);
  CHECK_THROWS_WITH_AS(GatReader::load(kg, "newer"), doctest::Contains("newer than this grappi"), grappi::Error);
  m.name = "garbled";
  m.spec = "{not json";
  kg.store_trained_model(m);
  CHECK_THROWS_WITH_AS(GatReader::load(kg, "garbled"), doctest::Contains("does not parse"), grappi::Error);
  m.name = "other-kind";
  m.kind = "something";
  kg.store_trained_model(m);
  CHECK_THROWS_WITH_AS(GatReader::load(kg, "other-kind"), doctest::Contains("not a graph reader"), grappi::Error);
  CHECK(kg.remove_trained_model("garbled"));
  CHECK_FALSE(kg.remove_trained_model("garbled"));
}

TEST_CASE("The reader refuses bad input clearly") {
  const auto vectors = random_vectors(40, 4, 1);
  std::mt19937_64 rng(5);
  ReaderExample good = planted(rng, vectors, 0);
  GatReaderOptions o = small();
  o.epochs = 1;

  ReaderExample empty = good;
  empty.graph.nodes.clear();
  empty.graph.edges.clear();
  CHECK_THROWS_WITH_AS(GatReader::train({empty}, {}, o), doctest::Contains("no nodes"), grappi::Error);
  ReaderExample outside = good;
  outside.answers = {10};
  CHECK_THROWS_WITH_AS(GatReader::train({outside}, {}, o), doctest::Contains("outside the subgraph"), grappi::Error);
  ReaderExample none = good;
  none.answers.clear();
  CHECK_THROWS_WITH_AS(GatReader::train({none}, {}, o), doctest::Contains("no answer"), grappi::Error);
  ReaderExample other = good;
  other.graph.vectors = random_vectors(40, 5, 1);
  other.graph.question.resize(5);
  CHECK_THROWS_WITH_AS(GatReader::train({good, other}, {}, o), doctest::Contains("dimension 5"), grappi::Error);
  ReaderExample bad_edge = good;
  bad_edge.graph.edges.push_back({0, 17, "binds", 1, 0});
  CHECK_THROWS_WITH_AS(GatReader::train({bad_edge}, {}, o), doctest::Contains("edge 8 joins node 17"), grappi::Error);
  CHECK_THROWS_AS(GatReader::train({}, {}, o), grappi::Error);
  GatReaderOptions bad = o;
  bad.hidden = 6;
  bad.heads = 4;
  CHECK_THROWS_WITH_AS(GatReader::train({good}, {}, bad), doctest::Contains("multiple of heads"), grappi::Error);
  bad = o;
  bad.dropout = 1;
  CHECK_THROWS_AS(GatReader::train({good}, {}, bad), grappi::Error);
  bad = o;
  bad.learning_rate = std::nan("");
  CHECK_THROWS_AS(GatReader::train({good}, {}, bad), grappi::Error);

  const GatReader r = GatReader::train({good}, {}, o);
  CHECK_THROWS_WITH_AS(r.score(other.graph), doctest::Contains("dimension 4"), grappi::Error);
  CHECK_THROWS_WITH_AS(r.score(empty.graph), doctest::Contains("no nodes"), grappi::Error);
  CHECK_THROWS_WITH_AS(GatReader().score(good.graph), doctest::Contains("not trained"), grappi::Error);
}

namespace {

// Forty proteins, each joined to two others by "assay.a" edges and to three by "assay.b" edges
// (a seeded draw, scores at random); the question "Which proteins are partners of Pi?" is
// answered by Pi's "assay.a" partners: nothing in the words nor in the edge scores says which
// relation answers, the reader has to learn it.
struct BindingKb {
  TempDir dir;
  std::unique_ptr<grappi::KnowledgeGraph> kg;
  std::vector<grappi::QaQuestion> questions;
  BindingKb() {
    kg = std::make_unique<grappi::KnowledgeGraph>(dir.file("b.db"));
    std::mt19937_64 rng(8);
    const std::vector<std::string> words = {"kinase", "receptor", "ligase", "channel", "transporter", "phosphatase",
                                            "scaffold", "factor", "protease", "chaperone"};
    std::vector<int64_t> id;
    for (int i = 0; i < 40; ++i) {
      grappi::NodeInput n;
      n.external_id = "9606.P" + std::to_string(i);
      n.name = "P" + std::to_string(i);
      n.annotation = "Protein P" + std::to_string(i) + "; " + words[rng() % words.size()] + " " + words[rng() % words.size()];
      id.push_back(kg->add_node(n));
    }
    std::uniform_real_distribution<double> u(0.4, 1.0);
    std::vector<std::vector<std::string>> partners(40);
    std::set<std::pair<int, int>> used;
    const auto join = [&](int a, int b, const char *rel) {
      if (a == b || !used.insert({std::min(a, b), std::max(a, b)}).second) return;
      grappi::EdgeInput e;
      e.source = id[std::size_t(a)];
      e.target = id[std::size_t(b)];
      e.relation = rel;
      e.score = u(rng);
      kg->add_edge(e);
      if (std::string(rel) == "assay.a") {
        partners[std::size_t(a)].push_back("P" + std::to_string(b));
        partners[std::size_t(b)].push_back("P" + std::to_string(a));
      }
    };
    for (int i = 0; i < 40; ++i) {
      for (int k = 0; k < 1; ++k) join(i, int(rng() % 40), "assay.a");
      for (int k = 0; k < 3; ++k) join(i, int(rng() % 40), "assay.b");
    }
    grappi::EmbedOptions eo;
    eo.neighbor_ranking = false;
    grappi::embed_graph(*kg, *grappi::hashing_embedder(*kg), eo);
    for (int i = 0; i < 40; ++i) {
      if (partners[std::size_t(i)].empty()) continue;
      grappi::QaQuestion q;
      q.id = "P" + std::to_string(i);
      q.question = "Which proteins are partners of P" + std::to_string(i) + "?";
      q.answers = partners[std::size_t(i)];
      questions.push_back(q);
    }
  }
};

}  // namespace

TEST_CASE("A reader trained over a knowledge base ranks the answers of unseen questions") {
  BindingKb b;
  REQUIRE(b.questions.size() >= 30);
  const std::vector<grappi::QaQuestion> train(b.questions.begin(), b.questions.begin() + 24),
      test(b.questions.begin() + 24, b.questions.end());
  grappi::ReaderTrainOptions o;
  o.ask.retrieval.seeds = 3;
  o.scope = "base";
  o.gat = small();
  o.gat.epochs = 60;
  o.gat.patience = 15;
  std::size_t epochs_seen = 0;
  o.progress = [&](const grappi::ReaderEpoch &) { ++epochs_seen; };
  const grappi::ReaderTraining t = grappi::train_reader(*b.kg, train, {}, o);
  CHECK(epochs_seen == t.report.epochs.size());
  CHECK(t.train_questions == 24);
  CHECK(t.report.train_examples + t.report.valid_examples + t.skipped == 24);
  CHECK(t.fingerprint.size() == 64);
  const auto stored = grappi::stored_readers(*b.kg);
  REQUIRE(stored.size() == 1);
  CHECK(stored[0]["info"]["scope"] == "base");
  CHECK(stored[0]["info"]["training"]["fingerprint"] == t.fingerprint);
  CHECK(grappi::to_json(t)["epochs"].size() == t.report.epochs.size());

  grappi::ExtractiveModel offline;
  grappi::QaEvalOptions eo;
  eo.ask.retrieval.seeds = 3;
  const grappi::QaEvalResult prize = grappi::evaluate_qa(*b.kg, offline, test, eo);
  eo.ask.reader = "gat";
  const grappi::QaEvalResult gat = grappi::evaluate_qa(*b.kg, offline, test, eo);
  CHECK(gat.reader == "gat");
  CHECK(gat.errors == 0);
  MESSAGE("prize MRR " << prize.mrr << " Hits@1 " << prize.hits_at_1 << "; gat MRR " << gat.mrr << " Hits@1 " << gat.hits_at_1);
  CHECK(gat.mrr > prize.mrr);
  CHECK(gat.hits_at_1 >= 0.5);

  // ask with the reader: scores on the entities, the reader's list in the context.
  grappi::AskOptions ao;
  ao.retrieval.seeds = 3;
  ao.reader = "gat";
  const grappi::AskResult r = grappi::ask(*b.kg, offline, test[0].question, ao);
  REQUIRE_FALSE(r.answer_entities.empty());
  CHECK(r.reader_scope == "base");
  for (std::size_t i = 1; i < r.answer_entities.size(); ++i)
    CHECK(r.answer_entities[i - 1].reader_score >= r.answer_entities[i].reader_score);
  CHECK(r.context.text.find("Graph reader") != std::string::npos);
  CHECK(grappi::to_json(r)["answer_entities"][0].contains("reader_score"));
  CHECK(grappi::to_markdown(r).find("Ranked by the graph reader 'gat'") != std::string::npos);
  ao.reader_name = "missing";
  CHECK_THROWS_WITH_AS(grappi::ask(*b.kg, offline, test[0].question, ao), doctest::Contains("no graph reader named 'missing'"),
                       grappi::Error);
  ao.reader = "bert";
  CHECK_THROWS_WITH_AS(grappi::ask(*b.kg, offline, test[0].question, ao), doctest::Contains("\"prize\" or \"gat\""),
                       grappi::Error);

  // Embedded again with another model: the reader refuses the newer vectors, reads its own.
  const std::string trained_on = stored[0]["info"]["embedding_model"];
  grappi::HashingEmbedderOptions other;
  other.dimension = 128;
  grappi::EmbedOptions eo2;
  eo2.neighbor_ranking = false;
  grappi::embed_graph(*b.kg, *grappi::hashing_embedder(*b.kg, other), eo2);
  ao.reader = "gat";
  ao.reader_name = "gat";
  CHECK_THROWS_WITH_AS(grappi::ask(*b.kg, offline, test[0].question, ao), doctest::Contains("was trained on embeddings of"),
                       grappi::Error);
  ao.embedding_model = trained_on;
  CHECK(grappi::ask(*b.kg, offline, test[0].question, ao).answer_entities.size() > 0);
}

TEST_CASE("train_reader refuses questions whose answers its subgraphs never hold") {
  BindingKb b;
  std::vector<grappi::QaQuestion> qs(b.questions.begin(), b.questions.begin() + 3);
  for (auto &q : qs) q.answers = {"no such protein"};
  grappi::ReaderTrainOptions o;
  o.gat = small();
  CHECK_THROWS_WITH_AS(grappi::train_reader(*b.kg, qs, {}, o), doctest::Contains("none of the 3 training questions"),
                       grappi::Error);
  o.scope = "everything";
  CHECK_THROWS_WITH_AS(grappi::train_reader(*b.kg, qs, {}, o), doctest::Contains("\"subgraph\" or \"base\""), grappi::Error);
  o.scope = "base";
  o.min_kept_share = 1.5;
  CHECK_THROWS_WITH_AS(grappi::train_reader(*b.kg, qs, {}, o), doctest::Contains("min_kept_share"), grappi::Error);
  CHECK(grappi::stored_readers(*b.kg).empty());
}

TEST_CASE("train_reader says how many questions it kept and warns when it kept too few") {
  BindingKb b;
  // Eight questions, five of them with answers no subgraph holds: kept 3 of 8, below half.
  std::vector<grappi::QaQuestion> qs(b.questions.begin(), b.questions.begin() + 8);
  for (std::size_t i = 3; i < qs.size(); ++i) qs[i].answers = {"no such protein"};
  grappi::ReaderTrainOptions o;
  o.scope = "base";
  o.gat = small();
  o.gat.epochs = 2;
  o.gat.valid_share = 0;
  const grappi::ReaderTraining t = grappi::train_reader(*b.kg, qs, {}, o);
  CHECK(t.train_kept == 3);
  CHECK(t.skipped == 5);
  CHECK(t.kept_share == doctest::Approx(3.0 / 8.0));
  REQUIRE(t.warnings.size() == 2);
  CHECK(t.warnings[0].find("only 3 of 8 questions") == 0);
  CHECK(t.warnings[1].find("trained on 3 question(s)") == 0);
  const auto stored = grappi::stored_readers(*b.kg);
  REQUIRE(stored.size() == 1);
  CHECK(stored[0]["info"]["training"]["kept_share"] == doctest::Approx(3.0 / 8.0));
  CHECK(stored[0]["info"]["training"]["warnings"].size() == 2);
  CHECK(stored[0]["info"]["max_nodes"] == 400);
  // The validation MRR over every validation question counts the left-out ones as misses.
  grappi::ReaderTrainOptions v = o;
  v.gat.valid_share = 0.2;
  v.name = "with-valid";
  std::vector<grappi::QaQuestion> valid(b.questions.begin() + 8, b.questions.begin() + 12);
  valid[0].answers = {"no such protein"};
  const grappi::ReaderTraining tv = grappi::train_reader(*b.kg, qs, valid, v);
  CHECK(tv.valid_kept == 3);
  REQUIRE(tv.report.best_epoch > 0);
  CHECK(tv.valid_mrr_all == doctest::Approx(tv.report.epochs[tv.report.best_epoch - 1].valid_mrr * 3.0 / 4.0));
  // A cap on the nodes read: every subgraph at most that many nodes.
  grappi::AskOptions ask;
  const grappi::ReaderGraph capped = grappi::reader_graph(*b.kg, qs[0].question, ask, "base", nullptr, 3);
  CHECK(capped.nodes.size() <= 3);
  CHECK(std::any_of(capped.nodes.begin(), capped.nodes.end(), [](const grappi::ReaderNode &n) { return n.asked; }));
}
