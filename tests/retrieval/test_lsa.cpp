// The LSA embedder (grappi::LsaEmbedder): what latent semantic analysis promises (texts that
// share no word but whose words co-occur come out close), exactness on a small corpus, a
// deterministic and restorable model, bad stored state, and its use through KnowledgeGraph.
#include <doctest/doctest.h>

#include <cmath>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;

namespace {

// Two topics (cell cycle, ribosome biogenesis) whose words co-occur within a topic only.
const std::vector<std::string> kCorpus{
    "cyclin binds cdk during mitosis",       "cyclin activates the cdk kinase",   "cdk kinase drives mitosis",
    "mitosis requires cyclin and kinase",    "kinase phosphorylates cdk substrates in mitosis",
    "cyclin degradation ends mitosis",       "ribosome assembly needs rrna",      "rrna processing in the nucleolus",
    "nucleolus hosts ribosome assembly",     "snorna guides rrna modification",   "ribosome subunits leave the nucleolus",
    "snorna and rrna in ribosome biogenesis"};

float cos_of(grappi::Embedder &e, const std::string &a, const std::string &b) {
  const auto v = e.embed({a, b});
  return grappi::cosine(v.row(0), v.row(1), v.dim);
}

}  // namespace

TEST_CASE("LSA: words that co-occur make texts close without a shared word - exact on a small corpus") {
  grappi::LsaEmbedderOptions o;
  o.dimension = 2;  // two concepts: the two topics
  o.min_df = 2;
  o.lexical_weight = 0;  // concepts only
  grappi::LsaEmbedder two(o);
  two.fit(kCorpus);
  CHECK(two.terms() == 9);  // the words of 2+ texts: cyclin cdk mitosis kinase ribosome rrna nucleolus snorna assembly
  // "cyclin" and "mitosis" share no word, nor do "rrna" and "nucleolus": close within a topic,
  // far across.
  CHECK(cos_of(two, "cyclin", "mitosis") > 0.9f);
  CHECK(cos_of(two, "rrna", "nucleolus") > 0.9f);
  CHECK(cos_of(two, "cyclin", "rrna") < 0.1f);
  CHECK(cos_of(two, "cyclin", "ribosome") < 0.1f);
  // A text of words the model never saw embeds to zero.
  const auto z = two.embed({"unrelated words only"});
  for (std::size_t i = 0; i < z.dim; ++i) CHECK(z.row(0)[i] == 0.0f);

  // With as many concepts as the corpus' rank, the SVD is exact: the squared singular values
  // add up to the squared Frobenius norm of the document-term matrix, whose rows are unit
  // TF-IDF vectors (12 texts with known words).
  o.dimension = 64;
  grappi::LsaEmbedder full(o);
  full.fit(kCorpus);
  double sum = 0;
  float previous = 1e9f;
  for (float s : full.singular_values()) {
    CHECK(s >= 0.0f);
    CHECK(s <= previous + 1e-6f);
    previous = s;
    sum += static_cast<double>(s) * s;
  }
  CHECK(sum == doctest::Approx(12.0).epsilon(1e-4));
  // ... and the cosine of two training texts is then their TF-IDF cosine: these two share
  // "cyclin" and "cdk" only.
  CHECK(cos_of(full, kCorpus[0], kCorpus[1]) > 0.3f);
  CHECK(std::fabs(cos_of(full, kCorpus[0], kCorpus[7])) < 1e-5f);

  // With the lexical part, a cosine is (1 - w) cos(concepts) + w cos(lexical).
  grappi::LsaEmbedderOptions ob = o;
  ob.dimension = 2;
  ob.lexical_weight = 0.7;
  grappi::LsaEmbedder blend(ob);
  blend.fit(kCorpus);
  grappi::HashingEmbedder lexical(ob.lexical);
  lexical.fit(kCorpus);
  CHECK(blend.dimension() == 2 + 384);
  for (const auto &a_b : std::vector<std::pair<std::string, std::string>>{
           {"cyclin", "mitosis"}, {"cyclin kinase", "cdk kinase"}, {kCorpus[0], kCorpus[6]}, {"rrna", "snorna"}}) {
    const auto &a = a_b.first;
    const auto &b = a_b.second;
    CAPTURE(a);
    CAPTURE(b);
    CHECK(cos_of(blend, a, b) == doctest::Approx(0.3 * cos_of(two, a, b) + 0.7 * cos_of(lexical, a, b)).epsilon(1e-5));
  }
  // A text only one part knows is a unit vector of that part.
  const auto only = blend.embed({"xyzzy"});
  double n2 = 0;
  for (std::size_t i = 0; i < only.dim; ++i) n2 += static_cast<double>(only.row(0)[i]) * only.row(0)[i];
  CHECK(n2 == doctest::Approx(1.0).epsilon(1e-5));
}

TEST_CASE("LSA: deterministic and restorable - corrupt state is an error" * doctest::test_suite("threads")) {
  grappi::LsaEmbedderOptions o;
  o.dimension = 8;
  grappi::LsaEmbedder a(o), b(o);
  a.fit(kCorpus);
  b.fit(kCorpus);
  CHECK(a.state() == b.state());
  CHECK(a.model() == b.model());
  CHECK(a.model().rfind("grappi-lsa-v1-d392-", 0) == 0);  // 8 concepts and 384 lexical dimensions
  auto r = grappi::LsaEmbedder::restore(a.config(), a.state());
  CHECK(r->model() == a.model());
  std::vector<std::string> texts(kCorpus.begin(), kCorpus.end());
  for (int i = 0; i < 600; ++i) texts.push_back(kCorpus[static_cast<std::size_t>(i) % kCorpus.size()] + " cdk");  // a parallel batch
  const auto va = a.embed(texts), vr = r->embed(texts);
  CHECK(va.data == vr.data);
  for (std::size_t i = 0; i < va.rows(); ++i) {
    double n2 = 0;
    for (std::size_t k = 0; k < va.dim; ++k) n2 += static_cast<double>(va.row(i)[k]) * va.row(i)[k];
    CHECK(n2 == doctest::Approx(1.0).epsilon(1e-5));
  }
  const std::string st = a.state();
  CHECK_THROWS_WITH_AS(grappi::LsaEmbedder::restore(a.config(), st.substr(0, st.size() - 3)),
                       doctest::Contains("truncated or corrupt"), grappi::Error);
  CHECK_THROWS_WITH_AS(grappi::LsaEmbedder::restore(a.config(), st + "x"), doctest::Contains("truncated or corrupt"),
                       grappi::Error);
  CHECK_THROWS_WITH_AS(grappi::LsaEmbedder::restore(a.config(), "XXXXXXXX" + st.substr(8)),
                       doctest::Contains("truncated or corrupt"), grappi::Error);
  CHECK_THROWS_AS(grappi::LsaEmbedder::restore("not json", st), grappi::Error);
  CHECK_THROWS_AS(grappi::LsaEmbedder::restore(R"({"dimension": "many"})", ""), grappi::Error);
  // Nothing to learn from: no concept; the lexical part alone (or nothing without one).
  o.lexical_weight = 0;
  grappi::LsaEmbedder none(o);
  none.fit({"one text", "another"});
  CHECK(none.terms() == 0);
  const auto z = none.embed({"one text"});
  for (float x : z.data) CHECK(x == 0.0f);
  auto lo = o;
  lo.lexical_weight = 0.5;
  grappi::LsaEmbedder lexical_only(lo);
  lexical_only.fit({"one text", "another"});
  CHECK(lexical_only.terms() == 0);
  const auto lv = lexical_only.embed({"one text", "another"});
  double n0 = 0;
  for (std::size_t j = 0; j < lv.dim; ++j) n0 += double(lv.row(0)[j]) * lv.row(0)[j];
  CHECK(n0 == doctest::Approx(1.0));  // renormalised onto the lexical part
  const auto back = grappi::LsaEmbedder::restore(lexical_only.config(), lexical_only.state());
  CHECK(back->embed({"one text"}).data == lexical_only.embed({"one text"}).data);
  // Never fitted (embed_graph stores what it is given): it restores as it was, its lexical part unfitted.
  grappi::LsaEmbedder unfitted(lo);
  const auto same = grappi::LsaEmbedder::restore(unfitted.config(), unfitted.state());
  CHECK(same->embed({"one text"}).data == unfitted.embed({"one text"}).data);
  o.dimension = 0;
  CHECK_THROWS_AS(grappi::LsaEmbedder{o}, grappi::Error);
}

// Fitting and embedding 4,096 texts or more run on several threads (the yeast test below too;
// this one is the threads suite's, small enough for ThreadSanitizer): the model and the vectors
// equal those of one text at a time.
TEST_CASE("LSA on several threads: the same vectors as one text at a time" * doctest::test_suite("threads")) {
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < 4200; ++i)
    texts.push_back(kCorpus[i % kCorpus.size()] + " w" + std::to_string(i % 97) + " v" + std::to_string(i % 13));
  grappi::LsaEmbedderOptions o;
  o.dimension = 16;
  o.min_df = 2;
  grappi::LsaEmbedder lsa(o);
  lsa.fit(texts);
  CHECK(lsa.terms() >= 97 + 13);
  const auto all = lsa.embed(texts);  // threads from 512 texts
  REQUIRE(all.rows() == texts.size());
  for (std::size_t i = 0; i < texts.size(); i += 211) {
    const auto one = lsa.embed({texts[i]});
    for (std::size_t j = 0; j < all.dim; ++j) CHECK(one.row(0)[j] == doctest::Approx(all.row(i)[j]).epsilon(1e-6));
  }
  grappi::LsaEmbedder again(o);
  again.fit(texts);
  CHECK(again.singular_values() == lsa.singular_values());  // deterministic whatever the threads
}

TEST_CASE("LSA through the knowledge graph: fitted on the annotations then stored and reused and restored for queries") {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("y.db"));
  kg.import_string({{data("4932.protein.info.v12.0.txt.gz")}, {data("4932.protein.physical.links.v12.0.txt.gz")}});
  grappi::EmbedderSpec spec;
  spec.kind = "lsa";
  auto e = grappi::make_embedder(kg, spec);
  CHECK(e->kind() == "lsa");
  CHECK(e->dimension() == 256 + 384);
  const auto rep = grappi::embed_graph(kg, *e);
  CHECK(rep.embedded == 6600);
  CHECK(kg.default_model() == e->model());
  // The stored model is reused (nothing to embed again) until a refit.
  auto again = grappi::make_embedder(kg, spec);
  CHECK(again->model() == e->model());
  CHECK(grappi::embed_graph(kg, *again).unchanged == 6600);
  // Queries are embedded by the model restored from the database.
  const auto q = grappi::query_vector(kg, "cyclin-dependent kinase of the cell cycle");
  const auto hits = grappi::graph_vectors(kg)->search(q.data(), 10);
  bool cyclin_or_cdk = false;
  for (const auto &h : hits) {
    const auto n = kg.node(h.id);
    cyclin_or_cdk |= n->annotation.find("yclin") != std::string::npos;
  }
  CHECK(cyclin_or_cdk);
  CHECK_THROWS_WITH_AS(grappi::query_vector(kg, "the of and"), doctest::Contains("no usable terms"), grappi::Error);
  // Partners STRING is sure of rank high among CDC28's 400-odd neighbors (the hashing model
  // puts them near the middle: BENCHMARKS.md).
  const int64_t cdc28 = kg.resolve("CDC28");
  const auto vec = grappi::graph_vectors(kg);
  const auto neighbors = kg.snapshot()->neighbors(cdc28);
  std::vector<std::pair<float, int64_t>> ranked;
  for (const auto &n : neighbors) ranked.emplace_back(grappi::cosine(vec->vector(cdc28), vec->vector(n.node), vec->dim()), n.node);
  std::sort(ranked.rbegin(), ranked.rend());
  std::size_t cyclins_in_top30 = 0;
  for (std::size_t i = 0; i < 30 && i < ranked.size(); ++i) {
    const std::string name = kg.node(ranked[i].second)->name;
    cyclins_in_top30 += name == "CLN1" || name == "CLN2" || name == "CLN3" || name == "CLB2";
  }
  CHECK(cyclins_in_top30 >= 2);
  spec.refit = true;
  CHECK(grappi::make_embedder(kg, spec)->model() == e->model());  // the same texts: the same model
}
