#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "grappi/grappi.hpp"
#include "http_server.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;

TEST_CASE("the hashing embedder gives real lexical similarity on the human annotations" * doctest::test_suite("threads")) {
  TempDir d;
  KnowledgeGraph kg(d.file("h.db"));
  kg.import_string({{data("9606.protein.info.v12.0.txt.gz")}});
  auto e = grappi::hashing_embedder(kg);
  auto mapt = *kg.node(kg.resolve("MAPT")), camk = *kg.node(kg.resolve("CAMK1G")), egfr = *kg.node(kg.resolve("EGFR"));
  auto v = e->embed({"microtubule-associated protein tau", KnowledgeGraph::node_text(mapt), KnowledgeGraph::node_text(camk),
                     "epidermal growth factor receptor", KnowledgeGraph::node_text(egfr)});
  REQUIRE(v.rows() == 5);
  CHECK(v.dim == 384);
  const float q_mapt = grappi::cosine(v.row(0), v.row(1), v.dim), q_camk = grappi::cosine(v.row(0), v.row(2), v.dim);
  CHECK(q_mapt > q_camk + 0.2f);
  CHECK(grappi::cosine(v.row(3), v.row(4), v.dim) > grappi::cosine(v.row(3), v.row(1), v.dim) + 0.03f);
  // Unit length, deterministic, and restorable from its stored state.
  double n2 = 0;
  for (std::size_t k = 0; k < v.dim; ++k) n2 += static_cast<double>(v.row(1)[k]) * v.row(1)[k];
  CHECK(n2 == doctest::Approx(1.0).epsilon(1e-5));
  auto again = e->embed({"microtubule-associated protein tau"});
  CHECK(std::equal(again.data.begin(), again.data.end(), v.row(0)));
  auto restored = grappi::HashingEmbedder::restore(e->config(), e->state());
  CHECK(restored->model() == e->model());
  auto r = restored->embed({"microtubule-associated protein tau"});
  CHECK(std::equal(r.data.begin(), r.data.end(), v.row(0)));
  CHECK_THROWS_AS(grappi::HashingEmbedder::restore(e->config(), "short"), grappi::Error);
  grappi::HashingEmbedderOptions bad;
  bad.dimension = 0;
  CHECK_THROWS_AS(grappi::HashingEmbedder{bad}, grappi::Error);
}

TEST_CASE("embeddings persist and re-running embeds only new or changed texts" * doctest::test_suite("threads")) {
  TempDir d;
  const auto db = d.file("e.db");
  std::string model;
  {
    KnowledgeGraph kg(db);
    kg.import_string({{data("4932.protein.info.v12.0.txt.gz")}});
    auto e = grappi::hashing_embedder(kg);
    auto r1 = grappi::embed_graph(kg, *e);
    model = r1.model;
    CHECK(r1.embedded == 6600);
    CHECK(r1.unchanged == 0);
    auto r2 = grappi::embed_graph(kg, *grappi::hashing_embedder(kg));  // the stored model is reused
    CHECK(r2.model == model);
    CHECK(r2.embedded == 0);
    CHECK(r2.unchanged == 6600);
    kg.add_node({"4932.NEW", "NEW1", "Protein", "A new cyclin-dependent kinase", 0, "{}"});
    auto r3 = grappi::embed_graph(kg, *grappi::hashing_embedder(kg));
    CHECK(r3.embedded == 1);
    CHECK(r3.unchanged == 6600);
  }
  KnowledgeGraph kg(db);
  auto models = kg.embedding_models();
  REQUIRE(models.size() == 1);
  CHECK(models[0].name == model);
  CHECK(models[0].kind == "hashing");
  CHECK(models[0].vectors == 6601);
  CHECK(kg.default_model() == model);
  auto vec = grappi::graph_vectors(kg);
  CHECK(vec->size() == 6601);
  CHECK(grappi::query_embedder(kg) == grappi::query_embedder(kg));  // re-created once, then cached
  auto q = grappi::query_embedder(kg)->embed({"cyclin-dependent kinase master regulator of mitotic and meiotic cell cycles"});
  auto hits = vec->search(q.data.data(), 5);
  REQUIRE(hits.size() == 5);
  CHECK(kg.node(hits[0].id)->name == "CDC28");
  CHECK_THROWS_AS(grappi::graph_vectors(kg, "no-such-model"), grappi::Error);
}

TEST_CASE("exact search agrees with brute force for every metric / among subsets / with ties by id") {
  std::mt19937 rng(3);
  std::normal_distribution<float> N(0, 1);
  const std::size_t n = 500, dim = 16;
  grappi::Embeddings e;
  e.dim = dim;
  std::vector<int64_t> ids;
  for (std::size_t i = 0; i < n; ++i) {
    ids.push_back(static_cast<int64_t>(1000 - i));  // not sorted on purpose
    for (std::size_t k = 0; k < dim; ++k) e.data.push_back(N(rng));
  }
  grappi::Embeddings copy = e;
  grappi::VectorIndex vi("test", ids, std::move(copy));
  std::vector<float> q(dim);
  for (auto &x : q) x = N(rng);
  for (auto m : {grappi::Metric::cosine, grappi::Metric::inner_product, grappi::Metric::l2}) {
    std::vector<grappi::SearchHit> brute;
    for (std::size_t i = 0; i < n; ++i) {
      const float *v = e.row(i);
      double dot = 0, nv = 0, nq = 0, l2 = 0;
      for (std::size_t k = 0; k < dim; ++k) {
        dot += v[k] * q[k];
        nv += v[k] * v[k];
        nq += q[k] * q[k];
        l2 += (v[k] - q[k]) * (v[k] - q[k]);
      }
      double s = m == grappi::Metric::cosine ? dot / std::sqrt(nv * nq) : m == grappi::Metric::inner_product ? dot : -std::sqrt(l2);
      brute.push_back({ids[i], static_cast<float>(s)});
    }
    std::sort(brute.begin(), brute.end(), [](auto &a, auto &b) { return a.score > b.score; });
    auto got = vi.search(q.data(), 10, m);
    REQUIRE(got.size() == 10);
    for (std::size_t i = 0; i < 10; ++i) {
      CHECK(got[i].id == brute[i].id);
      CHECK(got[i].score == doctest::Approx(brute[i].score).epsilon(1e-4));
    }
    std::vector<int64_t> subset{ids[5], ids[50], ids[100], 12345678};
    auto among = vi.search_among(q.data(), subset, 10, m);
    CHECK(among.size() == 3);
  }
  // Ties: identical vectors are ordered by id.
  grappi::Embeddings same;
  same.dim = 2;
  same.data = {1, 0, 1, 0, 1, 0};
  grappi::VectorIndex tie("t", {30, 10, 20}, std::move(same));
  float tq[2] = {1, 0};
  auto th = tie.search(tq, 3);
  CHECK(th[0].id == 10);
  CHECK(th[1].id == 20);
  CHECK(th[2].id == 30);
  CHECK(tie.vector(20) != nullptr);
  CHECK(tie.vector(21) == nullptr);
  grappi::Embeddings dup;
  dup.dim = 1;
  dup.data = {1, 2};
  CHECK_THROWS_AS(grappi::VectorIndex("d", {1, 1}, std::move(dup)), grappi::Error);
}

TEST_CASE("HNSW recall@10 >= 0.95 on 20k clustered vectors / and it survives a save/load round trip") {
  std::mt19937 rng(11);
  std::normal_distribution<float> N(0, 1);
  const std::size_t n = 20000, dim = 48, clusters = 200;
  std::vector<std::vector<float>> centres(clusters, std::vector<float>(dim));
  for (auto &c : centres)
    for (auto &x : c) x = N(rng) * 3.0f;
  grappi::Embeddings e;
  e.dim = dim;
  std::vector<int64_t> ids;
  for (std::size_t i = 0; i < n; ++i) {
    const auto &c = centres[rng() % clusters];
    for (std::size_t k = 0; k < dim; ++k) e.data.push_back(c[k] + N(rng));
    ids.push_back(static_cast<int64_t>(i + 1));
  }
  const grappi::Embeddings e_copy = e;
  grappi::VectorIndex vi("gmm", ids, std::move(e));
  grappi::HnswOptions ho;
  ho.M = 16;
  ho.ef_construction = 64;
  ho.ef = 64;
  vi.build_hnsw(ho);
  std::size_t found = 0, total = 0;
  std::vector<std::vector<float>> queries;
  for (int t = 0; t < 100; ++t) {
    const auto &c = centres[rng() % clusters];
    std::vector<float> q(dim);
    for (std::size_t k = 0; k < dim; ++k) q[k] = c[k] + N(rng);
    queries.push_back(q);
    auto exact = vi.search(q.data(), 10);
    auto approx = vi.search_hnsw(q.data(), 10);
    std::set<int64_t> want;
    for (auto &h : exact) want.insert(h.id);
    for (auto &h : approx) found += want.count(h.id);
    total += 10;
  }
  const double recall = static_cast<double>(found) / static_cast<double>(total);
  MESSAGE("HNSW recall@10 = " << recall);
  CHECK(recall >= 0.95);
  const std::string bytes = vi.save_hnsw();
  CHECK(bytes.size() > 1000);
  grappi::VectorIndex loaded("gmm", ids, e_copy);
  loaded.load_hnsw(bytes, ho);
  for (auto &q : queries) {
    auto a = vi.search_hnsw(q.data(), 10), b = loaded.search_hnsw(q.data(), 10);
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i].id == b[i].id);
  }
  CHECK_THROWS_AS(loaded.load_hnsw("garbage", ho), grappi::Error);
}

TEST_CASE("the HNSW graph is stored in the database and rebuilt when the embeddings change") {
  TempDir d;
  const auto db = d.file("h.db");
  std::vector<int64_t> first;
  auto q = std::vector<float>();
  grappi::HnswOptions small;  // small graphs keep the sanitizer build fast; persistence is what is tested
  small.M = 8;
  small.ef_construction = 40;
  {
    KnowledgeGraph kg(db);
    kg.import_string({{data("4932.protein.info.v12.0.txt.gz")}});
    grappi::embed_graph(kg, *grappi::hashing_embedder(kg));
    q = grappi::query_embedder(kg)->embed({"DNA polymerase delta subunit"}).data;
    auto v = grappi::graph_vectors(kg, "", true, small);
    CHECK(v->has_hnsw());
    for (auto &h : v->search_hnsw(q.data(), 5)) first.push_back(h.id);
  }
  CHECK(sql_count(db, "SELECT count(*) FROM hnsw_indexes") == 1);
  {
    KnowledgeGraph kg(db);
    auto v = grappi::graph_vectors(kg, "", true, small);  // loaded, not rebuilt
    std::vector<int64_t> again;
    for (auto &h : v->search_hnsw(q.data(), 5)) again.push_back(h.id);
    CHECK(again == first);
    kg.add_node({"4932.NEW", "NEW1", "Protein", "DNA polymerase delta subunit", 0, "{}"});
    grappi::embed_graph(kg, *grappi::hashing_embedder(kg));
    auto v2 = grappi::graph_vectors(kg, "", true, small);  // stale graph: rebuilt with the new node
    CHECK(v2->size() == 6601);
    auto top = v2->search_hnsw(q.data(), 1);
    REQUIRE(top.size() == 1);
    CHECK(kg.node(top[0].id)->name == "NEW1");
  }
}

TEST_CASE("the callback embedder checks what the callback returns" * doctest::test_suite("threads")) {
  grappi::CallbackEmbedder ok("cb", 2, [](const std::vector<std::string> &t) {
    grappi::Embeddings e;
    e.dim = 2;
    for (auto &s : t) {
      e.data.push_back(static_cast<float>(s.size()));
      e.data.push_back(1.0f);
    }
    return e;
  });
  CHECK(ok.embed({"ab", "abc"}).data == std::vector<float>{2, 1, 3, 1});
  grappi::CallbackEmbedder wrong("cb", 3, [](const std::vector<std::string> &) { return grappi::Embeddings{3, {1, 2}}; });
  CHECK_THROWS_AS(wrong.embed({"x"}), grappi::Error);
  grappi::CallbackEmbedder nan("cb", 1, [](const std::vector<std::string> &) { return grappi::Embeddings{1, {std::nanf("")}}; });
  CHECK_THROWS_AS(nan.embed({"x"}), grappi::Error);
  CHECK_THROWS_AS(grappi::CallbackEmbedder("", 1, [](const std::vector<std::string> &) { return grappi::Embeddings{}; }), grappi::Error);
}

namespace {
// An OpenAI-style embeddings answer: each text becomes [length, 1, index].
std::string embeddings_reply(const std::string &request_body) {
  auto req = nlohmann::json::parse(request_body);
  nlohmann::json data = nlohmann::json::array();
  std::size_t i = 0;
  for (auto &t : req["input"]) {
    data.push_back({{"object", "embedding"}, {"index", i},
                    {"embedding", {static_cast<double>(t.get<std::string>().size()), 1.0, static_cast<double>(i)}}});
    ++i;
  }
  return nlohmann::json{{"object", "list"}, {"data", data}, {"model", req["model"]}}.dump();
}

grappi::HttpEmbedderOptions options_for(const HttpServer &s) {
  grappi::HttpEmbedderOptions o;
  o.base_url = s.base_url();
  o.model = "test-embed";
  o.api_key_env = "GRAPPI_TEST_KEY";
  o.retry_base_seconds = 0.01;
  o.retry_cap_seconds = 0.05;
  o.timeout_seconds = 5;
  return o;
}
}  // namespace

TEST_CASE("HTTP embedder: batches / order by index / and the API key in the header only" * doctest::test_suite("threads")) {
  setenv("GRAPPI_TEST_KEY", "sk-secret-test", 1);
  std::atomic<int> batches{0};
  std::string auth;
  HttpServer s([&](const HttpRequest &r) {
    ++batches;
    auth = r.headers.count("authorization") ? r.headers.at("authorization") : "";
    if (r.path != "/v1/embeddings") return reply(404, R"({"error":{"message":"no such route"}})");
    return reply(200, embeddings_reply(r.body));
  });
  auto o = options_for(s);
  o.batch_size = 2;
  grappi::HttpEmbedder e(o);
  auto v = e.embed({"a", "bb", "ccc", "dddd", "eeeee"});
  CHECK(batches == 3);
  CHECK(e.requests() == 3);
  CHECK(v.dim == 3);
  REQUIRE(v.rows() == 5);
  for (std::size_t i = 0; i < 5; ++i) CHECK(v.row(i)[0] == static_cast<float>(i + 1));
  CHECK(auth == "Bearer sk-secret-test");
  CHECK(e.model() == "openai:test-embed");
  CHECK(e.config().find("sk-secret") == std::string::npos);
  unsetenv("GRAPPI_TEST_KEY");
  // A password in the URL is not stored with the embedder, and what was stored without it asks for the key
  // variable rather than failing at the server; a URL that cannot be asked is refused when the embedder is made.
  grappi::HttpEmbedderOptions with_password = o;
  with_password.base_url = "http://alice:hunter2@127.0.0.1:" + std::to_string(s.port()) + "/v1";
  const grappi::HttpEmbedder p(with_password);
  CHECK(p.config().find("hunter2") == std::string::npos);
  CHECK(p.config().find("alice:***@") != std::string::npos);
  CHECK_THROWS_WITH_AS(grappi::HttpEmbedder::restore(p.config()), doctest::Contains("stored without its password"),
                       grappi::Error);
  with_password.base_url = "file:///tmp/x";
  CHECK_THROWS_AS(grappi::HttpEmbedder{with_password}, grappi::Error);
}

TEST_CASE("HTTP embedder: 429 with Retry-After / 500 then success / malformed answers / closed connections" * doctest::test_suite("threads")) {
  std::atomic<int> calls{0};
  // The server's threads read the mode while the test sets the next one: guarded (a handler of
  // a request the client gave up on may still be running).
  std::mutex mode_mu;
  std::string mode_value;
  auto set_mode = [&](const std::string &m) {
    std::lock_guard<std::mutex> lock(mode_mu);
    mode_value = m;
  };
  HttpServer s([&](const HttpRequest &r) {
    int n = ++calls;
    std::string mode;
    {
      std::lock_guard<std::mutex> lock(mode_mu);
      mode = mode_value;
    }
    if (mode == "429") {
      if (n == 1) {
        HttpReply x = reply(429, R"({"error":{"message":"Rate limit reached","code":"rate_limit_exceeded"}})");
        x.headers.push_back({"Retry-After", "1"});
        return x;
      }
      return reply(200, embeddings_reply(r.body));
    }
    if (mode == "500") return n <= 2 ? reply(500, R"({"error":"internal"})") : reply(200, embeddings_reply(r.body));
    if (mode == "malformed") return reply(200, R"({"data": [ {"embedding": [1, 2)");
    if (mode == "missing") return reply(200, R"({"data": [{"index": 0}]})");
    if (mode == "closed") {
      HttpReply x;
      x.close_without_reply = true;
      return x;
    }
    if (mode == "400") return reply(400, R"({"error":{"message":"input too long"}})");
    if (mode == "quota") return reply(429, R"({"error":{"code":"insufficient_quota","message":"You exceeded your quota"}})");
    if (mode == "slow") {
      HttpReply x = reply(200, embeddings_reply(r.body));
      x.delay_ms = 2000;
      return x;
    }
    return reply(500, "{}");
  });
  auto o = options_for(s);
  {
    set_mode("429");
    calls = 0;
    grappi::HttpEmbedder e(o);
    auto t0 = std::chrono::steady_clock::now();
    CHECK(e.embed({"x"}).rows() == 1);
    double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(waited >= 0.9);  // Retry-After: 1 was honoured
    CHECK(calls == 2);
  }
  {
    set_mode("500");
    calls = 0;
    grappi::HttpEmbedder e(o);
    CHECK(e.embed({"x"}).rows() == 1);
    CHECK(calls == 3);
  }
  auto fails_with = [&](const std::string &m, const std::string &text, int max_calls) {
    set_mode(m);
    calls = 0;
    grappi::HttpEmbedder e(o);
    try {
      e.embed({"x"});
      FAIL("expected an error for " << m);
    } catch (const grappi::Error &err) {
      CHECK(err.code() == grappi::ErrorCode::network);
      CHECK_MESSAGE(std::string(err.what()).find(text) != std::string::npos, err.what());
      CHECK(std::string(err.what()).find(s.base_url()) != std::string::npos);
    }
    CHECK(calls <= max_calls);
  };
  fails_with("malformed", "not an embeddings response", 1);
  fails_with("missing", "missing", 1);
  fails_with("closed", "failed", 6);       // retried, then reported
  fails_with("400", "input too long", 1);  // not retried
  fails_with("quota", "exceeded your quota", 1);
  o.timeout_seconds = 0.5;
  o.max_retries = 1;
  {
    set_mode("slow");
    calls = 0;
    grappi::HttpEmbedder e(o);
    CHECK_THROWS_WITH_AS(e.embed({"x"}), doctest::Contains("failed"), grappi::Error);
  }
  // Connection refused: a port nobody listens on.
  grappi::HttpEmbedderOptions none = o;
  none.base_url = "http://127.0.0.1:1/v1";
  grappi::HttpEmbedder e(none);
  CHECK_THROWS_AS(e.embed({"x"}), grappi::Error);
}

// (heavy: HNSW graphs over the 6,600 yeast proteins built three times; the Release stage only -
// the ASan stage builds, stores and reloads HNSW graphs in the tests around it)
TEST_CASE("vectors() returns a cached index only for the same HNSW parameters" * doctest::test_suite("heavy")) {
  TempDir d;
  KnowledgeGraph kg(d.file("p.db"));
  kg.import_string({{data("4932.protein.info.v12.0.txt.gz")}});
  grappi::embed_graph(kg, *grappi::hashing_embedder(kg));
  grappi::HnswOptions a, b;
  a.M = 8;
  a.ef_construction = 40;
  b = a;
  b.M = 12;
  auto plain = grappi::graph_vectors(kg);
  CHECK_FALSE(plain->has_hnsw());
  auto va = grappi::graph_vectors(kg, "", true, a);
  CHECK(va->has_hnsw());
  CHECK(grappi::graph_vectors(kg, "", true, a) == va);
  auto vb = grappi::graph_vectors(kg, "", true, b);
  CHECK(vb != va);
  CHECK(sql_count(d.file("p.db"), "SELECT count(*) FROM hnsw_indexes WHERE params LIKE '%\"M\":12%'") == 1);
}
