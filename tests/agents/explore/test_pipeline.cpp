// The explanation pipeline against a real OpenAI-compatible server on loopback, the callback
// and extractive models, the answer parsers, the response cache, budgets and outputs.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <set>

#include "grappi/grappi.hpp"
#include "http_server.hpp"
#include "test_util.hpp"

using namespace testutil;
using nlohmann::json;

namespace {

// A small tau neighborhood with annotations, channels and PMIDs.
void build_graph(grappi::KnowledgeGraph &kg) {
  auto node = [&](const char *name, const char *annotation) {
    grappi::NodeInput n;
    n.external_id = std::string("9606.") + name;
    n.name = name;
    n.annotation = annotation;
    return kg.add_node(n);
  };
  auto mapt = node("MAPT", "Microtubule-associated protein tau; Promotes microtubule assembly and stability. "
                           "Hyperphosphorylated tau forms neurofibrillary tangles");
  auto gsk = node("GSK3B", "Glycogen synthase kinase-3 beta; Constitutively active kinase that phosphorylates tau at many sites");
  auto cdk = node("CDK5", "Cyclin-dependent kinase 5; Proline-directed kinase that phosphorylates tau and neurofilaments");
  auto pp2 = node("PPP2CA", "Serine/threonine-protein phosphatase 2A catalytic subunit alpha; Dephosphorylates tau");
  auto app = node("APP", "Amyloid-beta precursor protein; Cell surface receptor with roles in neurite growth");
  auto alb = node("ALB", "Albumin; Main protein of plasma, binds water, cations and fatty acids");
  auto edge = [&](int64_t a, int64_t b, double score, std::vector<int64_t> pmids = {}) {
    grappi::EdgeInput e;
    e.source = a;
    e.target = b;
    e.relation = "string.combined";
    e.score = score;
    e.channels = {{"experimental", score * 0.9}, {"database", 0.5}, {"textmining", 0.0}};
    e.pmids = std::move(pmids);
    kg.add_edge(e);
  };
  edge(mapt, gsk, 0.999, {10722751, 12006609});
  edge(mapt, cdk, 0.99);
  edge(mapt, pp2, 0.95);
  edge(mapt, app, 0.9);
  edge(gsk, cdk, 0.8);
  edge(gsk, app, 0.7);
  edge(cdk, app, 0.75);
  edge(app, alb, 0.4);
  edge(pp2, gsk, 0.6);
}

grappi::ExploreOptions options() {
  grappi::ExploreOptions o;
  o.query = "inhibit tau phosphorylation";
  o.window.k = {4, 2};
  o.window.depth = 2;
  o.max_length = 3;
  o.concurrency = 4;
  return o;
}

std::string last_user(const HttpRequest &r) {
  auto j = json::parse(r.body);
  return j["messages"].back()["content"].get<std::string>();
}

bool is_path(const std::string &prompt) { return prompt.find("Pathway (") != std::string::npos; }

// Last protein of the path in a path prompt.
std::string path_end(const std::string &prompt) {
  auto b = prompt.find("Pathway (");
  auto e = prompt.find('\n', b);
  std::string line = prompt.substr(b, e - b);
  return line.substr(line.rfind(' ') + 1);
}

// A well-behaved server: edges get a sentence, paths a JSON score (90 with GSK3B, else 40).
HttpReply good_answer(const HttpRequest &r) {
  std::string p = last_user(r);
  if (!is_path(p)) return reply(200, chat_reply("The interaction " + p.substr(p.find("Interaction: ") + 13, 20) + " is relevant."));
  int score = p.find("GSK3B") != std::string::npos ? 90 : 40;
  return reply(200, chat_reply(json{{"explanation", "path " + path_end(p)}, {"relevance_score", score}}.dump()));
}

grappi::OpenAIChatOptions model_options(const HttpServer &s) {
  grappi::OpenAIChatOptions o;
  o.base_url = s.base_url();
  o.model = "test-chat";
  o.backoff_base_seconds = 0.01;
  o.backoff_cap_seconds = 0.05;
  o.timeout_seconds = 10;
  return o;
}

json ranked(const grappi::ExploreResult &r) {
  json out = json::array();
  json all = grappi::to_json(r);
  for (auto &p : all["paths"]) {
    p.erase("cached");
    for (auto &e : p["edges"]) e.erase("cached");
    out.push_back(p);
  }
  return out;
}

}  // namespace

TEST_CASE("parse_path_answer is tolerant but never invents a score") {
  auto ok = grappi::parse_path_answer(R"({"explanation": "GSK3B phosphorylates tau.", "relevance_score": 85})");
  CHECK(ok.ok);
  CHECK(ok.relevance_score == 85);
  CHECK(ok.explanation == "GSK3B phosphorylates tau.");
  auto fenced = grappi::parse_path_answer("```json\n{\"explanation\": \"a\", \"relevance_score\": 70}\n```");
  CHECK(fenced.ok);
  CHECK(fenced.relevance_score == 70);
  auto around = grappi::parse_path_answer("Sure! Here it is: {\"explanation\": \"a {b}\", \"relevance_score\": 12} Hope it helps.");
  CHECK(around.ok);
  CHECK(around.relevance_score == 12);
  CHECK(around.explanation == "a {b}");
  for (const char *s : {R"({"explanation": "a", "relevance_score": "85"})", R"({"explanation": "a", "relevance_score": "85/100"})",
                        R"({"explanation": "a", "relevance": " 85% "})", R"({"explanation": "a", "score": 85.0})"}) {
    auto a = grappi::parse_path_answer(s);
    CHECK_MESSAGE(a.ok, s);
    CHECK(a.relevance_score == 85);
  }
  auto high = grappi::parse_path_answer(R"({"explanation": "a", "relevance_score": 150})");
  CHECK(high.ok);
  CHECK(high.clamped);
  CHECK(high.relevance_score == 100);
  auto low = grappi::parse_path_answer(R"({"explanation": "a", "relevance_score": -3})");
  CHECK(low.relevance_score == 0);
  CHECK(low.clamped);

  auto bad = grappi::parse_path_answer("{explanation: 'a', relevance_score: 5}");
  CHECK_FALSE(bad.ok);
  CHECK(bad.error.find("malformed JSON") != std::string::npos);
  auto missing = grappi::parse_path_answer(R"({"explanation": "a"})");
  CHECK_FALSE(missing.ok);
  CHECK(missing.error.find("relevance_score") != std::string::npos);
  auto no_expl = grappi::parse_path_answer(R"({"relevance_score": 5})");
  CHECK(no_expl.error.find("explanation") != std::string::npos);
  CHECK(grappi::parse_path_answer("").error == "empty answer");
  CHECK(grappi::parse_path_answer("I cannot rate this.").error == "no JSON object in the answer");
  CHECK(grappi::parse_path_answer(R"({"explanation": "cut)").error.find("truncated") != std::string::npos);
  auto words = grappi::parse_path_answer(R"({"explanation": "a", "relevance_score": "high"})");
  CHECK_FALSE(words.ok);
  CHECK(words.error.find("not a number") != std::string::npos);

  CHECK(grappi::parse_edge_answer("  \"GSK3B phosphorylates tau.\" ").explanation == "GSK3B phosphorylates tau.");
  CHECK(grappi::parse_edge_answer("```\nplain text\n```").explanation == "plain text");
  CHECK(grappi::parse_edge_answer(R"({"explanation": "wrapped"})").explanation == "wrapped");
  CHECK_FALSE(grappi::parse_edge_answer("   ").ok);
}

TEST_CASE("prompt templates: fields / files / versions") {
  auto t = grappi::PromptTemplates::defaults();
  CHECK(t.version.rfind("grappi-1-", 0) == 0);
  CHECK(grappi::PromptTemplates::render("a {{x}} b {{ y }}", {{"x", "1"}, {"y", "2"}}) == "a 1 b 2");
  CHECK_THROWS_AS(grappi::PromptTemplates::render("{{z}}", {{"x", "1"}}), grappi::Error);
  TempDir d;
  write_file(d.file("edge.txt"), "Edge {{source}}-{{target}} for {{query}}");
  write_file(d.file("bad.txt"), "Edge {{source}} {{colour}}");
  auto c = t;
  c.load("", d.file("edge.txt"), "");
  CHECK(c.version.rfind("custom-", 0) == 0);
  CHECK(c.edge == "Edge {{source}}-{{target}} for {{query}}");
  CHECK(c.path == t.path);
  try {
    auto e = t;
    e.load("", d.file("bad.txt"), "");
    FAIL("no error for an unknown field");
  } catch (const grappi::Error &e) {
    CHECK(e.code() == grappi::ErrorCode::invalid_argument);
    CHECK(std::string(e.what()).find("{{colour}}") != std::string::npos);
    CHECK(std::string(e.what()).find("bad.txt") != std::string::npos);
  }
  CHECK_THROWS_AS(t.load("", d.file("missing.txt"), ""), grappi::Error);
}

TEST_CASE("HTTP model: each distinct edge once / each path once / then a second run makes no calls" * doctest::test_suite("threads")) {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  build_graph(kg);
  std::mutex mu;
  std::vector<std::string> edge_prompts, path_prompts;
  std::atomic<int> with_format{0}, auth_ok{0};
  setenv("GRAPPI_TEST_CHAT_KEY", "sk-chat-secret", 1);
  HttpServer s([&](const HttpRequest &r) {
    if (r.path != "/v1/chat/completions") return reply(404, R"({"error":{"message":"no route"}})");
    auto body = json::parse(r.body);
    if (body.contains("response_format")) ++with_format;
    if (r.headers.count("authorization") && r.headers.at("authorization") == "Bearer sk-chat-secret") ++auth_ok;
    CHECK(body["temperature"] == 0.0);
    CHECK(body["seed"] == 42);
    std::string p = last_user(r);
    {
      std::lock_guard<std::mutex> lock(mu);
      (is_path(p) ? path_prompts : edge_prompts).push_back(p);
    }
    return good_answer(r);
  });
  auto mo = model_options(s);
  mo.api_key_env = "GRAPPI_TEST_CHAT_KEY";
  auto model = std::make_shared<grappi::OpenAIChatModel>(mo);
  grappi::AgentPipeline pipe(kg, model);
  auto o = options();
  auto r1 = pipe.explore("mapt", o);
  const auto expected = r1.usage.distinct_edges + r1.usage.selected_paths;
  CHECK(r1.usage.distinct_edges > 3);
  CHECK(r1.usage.selected_paths == r1.usage.candidate_paths);
  CHECK(static_cast<std::size_t>(s.requests()) == expected);
  CHECK(r1.usage.model_calls == expected);
  CHECK(edge_prompts.size() == r1.usage.distinct_edges);
  CHECK(std::set<std::string>(edge_prompts.begin(), edge_prompts.end()).size() == edge_prompts.size());
  CHECK(path_prompts.size() == r1.usage.selected_paths);
  CHECK(static_cast<std::size_t>(with_format) == path_prompts.size());  // JSON mode for paths only
  CHECK(static_cast<std::size_t>(auth_ok) == expected);
  CHECK(r1.usage.prompt_tokens == 20 * static_cast<int64_t>(expected));
  CHECK(r1.usage.completion_tokens == 10 * static_cast<int64_t>(expected));
  CHECK(r1.usage.edges_explained == r1.usage.distinct_edges);
  CHECK(r1.usage.paths_explained == r1.usage.selected_paths);
  CHECK_FALSE(r1.partial);
  REQUIRE(r1.paths.size() == 10);
  for (std::size_t i = 0; i < r1.paths.size(); ++i) {
    CHECK(r1.paths[i].rank == i + 1);
    if (i) CHECK(r1.paths[i - 1].relevance_score >= r1.paths[i].relevance_score);
  }
  CHECK(r1.paths[0].relevance_score == 90);
  CHECK(r1.paths[0].nodes == std::vector<int64_t>{kg.resolve("MAPT"), kg.resolve("GSK3B")});  // ties: fewer edges first
  // The edge prompt carries the evidence.
  bool saw_evidence = false;
  for (auto &p : edge_prompts)
    if (p.find("MAPT -> GSK3B") != std::string::npos || p.find("GSK3B -> MAPT") != std::string::npos)
      saw_evidence = p.find("10722751") != std::string::npos && p.find("experimental") != std::string::npos &&
                     p.find("textmining") == std::string::npos;  // zero channels are left out
  CHECK(saw_evidence);
  // The key never reaches the output or the cache.
  CHECK(grappi::to_json(r1).dump().find("sk-chat-secret") == std::string::npos);

  auto r2 = pipe.explore("MAPT", o);
  CHECK(static_cast<std::size_t>(s.requests()) == expected);  // no new request
  CHECK(r2.usage.model_calls == 0);
  CHECK(r2.usage.cache_hits == expected);
  CHECK(ranked(r2) == ranked(r1));
  for (auto &p : r2.paths) CHECK(p.cached);

  // The cache survives the process: a new graph object on the same file.
  {
    grappi::KnowledgeGraph again(d.file("kg.db"));
    grappi::AgentPipeline p2(again, model);
    auto r3 = p2.explore("MAPT", o);
    CHECK(r3.usage.model_calls == 0);
    CHECK(static_cast<std::size_t>(s.requests()) == expected);
    // A pipeline without a model of its own asks the run's (RunControl::model), else the
    // offline default.
    grappi::AgentPipeline p3(again);
    auto run = o;
    run.model = model;
    CHECK(p3.explore("MAPT", run).model["kind"] == "openai");
    CHECK(ranked(p3.explore("MAPT", run)) == ranked(r1));
    CHECK(p3.explore("MAPT", o).model["kind"] == "extractive");
    CHECK(static_cast<std::size_t>(s.requests()) == expected);
  }
  // Without the cache every call is made again.
  auto nc = o;
  nc.use_cache = false;
  auto r4 = pipe.explore("MAPT", nc);
  CHECK(r4.usage.model_calls == expected);
  CHECK(r4.usage.cache_hits == 0);
  // Another template version is another cache key.
  write_file(d.file("edge.txt"), "Explain {{source}} -> {{target}} for: {{query}}");
  auto ct = o;
  ct.templates.load("", d.file("edge.txt"), "");
  const int before = s.requests();
  auto r5 = pipe.explore("MAPT", ct);
  CHECK(r5.usage.edges.model_calls == r5.usage.distinct_edges);
  CHECK(r5.template_version != r1.template_version);
  CHECK(s.requests() > before);
  unsetenv("GRAPPI_TEST_CHAT_KEY");
}

TEST_CASE("HTTP model: fenced JSON / text around / string scores / malformed JSON and missing fields" * doctest::test_suite("threads")) {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  build_graph(kg);
  std::atomic<int> repairs{0};
  HttpServer s([&](const HttpRequest &r) {
    std::string p = last_user(r);
    if (p.find("could not be used") != std::string::npos) {
      ++repairs;
      return reply(200, chat_reply(R"({"explanation": "repaired", "relevance_score": 55})"));
    }
    if (!is_path(p)) return good_answer(r);
    std::string end = path_end(p);
    if (end == "CDK5") return reply(200, chat_reply("```json\n{\"explanation\": \"fenced\", \"relevance_score\": 80}\n```"));
    if (end == "PPP2CA") return reply(200, chat_reply("Here: {\"explanation\": \"around\", \"relevance_score\": 70} done"));
    if (end == "GSK3B") return reply(200, chat_reply(R"({"explanation": "string", "relevance_score": "85"})"));
    if (end == "APP") return reply(200, chat_reply(R"({"explanation": "broken", "relevance_score": 60,,})"));
    if (end == "ALB") return reply(200, chat_reply(R"({"explanation": "no score"})"));
    return good_answer(r);
  });
  auto model = std::make_shared<grappi::OpenAIChatModel>(model_options(s));
  grappi::AgentPipeline pipe(kg, model);
  auto o = options();
  o.top = 100;
  o.repair = false;
  auto r = pipe.explore("MAPT", o);
  CHECK(r.usage.model_calls == r.usage.distinct_edges + r.usage.selected_paths);
  std::size_t app = 0, alb = 0;
  for (const auto &p : r.failed) {
    CHECK(p.status == "failed");
    auto end = r.protein(p.nodes.back())->name;
    if (end == "APP") {
      ++app;
      CHECK(p.error.find("malformed JSON") != std::string::npos);
    } else if (end == "ALB") {
      ++alb;
      CHECK(p.error.find("missing field") != std::string::npos);
    } else {
      FAIL("unexpected failure " << p.error);
    }
  }
  CHECK(app > 0);
  CHECK(alb > 0);
  for (const auto &p : r.paths) {
    auto end = r.protein(p.nodes.back())->name;
    if (end == "CDK5") CHECK(p.explanation == "fenced");
    if (end == "PPP2CA") CHECK(p.explanation == "around");
    if (end == "GSK3B") CHECK(p.relevance_score == 85);
  }
  CHECK(r.usage.paths_failed == app + alb);
  // Every selected path is ranked, failed, or folded into a better-ranked ordering of its proteins.
  CHECK(r.paths.size() + r.failed.size() + r.usage.orderings_folded == r.usage.selected_paths);
  CHECK(r.usage.orderings_folded > 0);
  // Failures are stored too (paid once): the same run again makes no call and fails alike.
  auto again = pipe.explore("MAPT", o);
  CHECK(again.usage.paths.model_calls == 0);
  CHECK(again.failed.size() == r.failed.size());
  for (const auto &p : again.failed) CHECK(p.error.find("stored answer from an earlier run") != std::string::npos);
  // With repair turns on, only the repair turns are asked: the stored answers are not paid again.
  o.repair = true;
  auto r2 = pipe.explore("MAPT", o);
  CHECK(r2.usage.paths.repairs == app + alb);
  CHECK(static_cast<std::size_t>(repairs) == app + alb);
  CHECK(r2.usage.paths.model_calls == app + alb);
  CHECK(r2.usage.paths.cache_hits == r.paths.size() + r.usage.orderings_folded + app + alb);
  CHECK(r2.failed.empty());
  // And now everything is cached.
  auto r3 = pipe.explore("MAPT", o);
  CHECK(r3.usage.model_calls == 0);
}

// A model whose server is gone: a port nothing listens on any more.
static grappi::OpenAIChatOptions refused_options(int max_retries) {
  int port;
  {
    HttpServer gone([](const HttpRequest &) { return reply(200, ""); });
    port = gone.port();
  }
  grappi::OpenAIChatOptions mo;
  mo.base_url = "http://127.0.0.1:" + std::to_string(port) + "/v1";
  mo.model = "x";
  mo.max_retries = max_retries;
  return mo;
}

TEST_CASE("HTTP model: 429 with Retry-After / 500 then success / a timeout and a refused connection" * doctest::test_suite("threads")) {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  build_graph(kg);
  SUBCASE("429 and 500 are retried and the run completes") {
    std::atomic<int> n{0};
    HttpServer s([&](const HttpRequest &r) {
      int i = n++;
      if (i == 0) {
        auto rr = reply(429, R"({"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}})");
        rr.headers.push_back({"Retry-After", "1"});
        return rr;
      }
      if (i == 1) return reply(500, R"({"error":{"message":"boom"}})");
      return good_answer(r);
    });
    auto mo = model_options(s);
    mo.concurrency = 1;
    auto model = std::make_shared<grappi::OpenAIChatModel>(mo);
    grappi::AgentPipeline pipe(kg, model);
    auto o = options();
    o.use_cache = false;
    auto t0 = std::chrono::steady_clock::now();
    auto r = pipe.explore("MAPT", o);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(secs >= 0.9);  // Retry-After honoured
    CHECK(r.usage.edges_failed == 0);
    CHECK(r.usage.paths_failed == 0);
    CHECK(static_cast<std::size_t>(s.requests()) == r.usage.model_calls + 2);
    CHECK(model->http_requests() == static_cast<uint64_t>(s.requests()));
  }
  SUBCASE("a request that times out fails with its reason; the others complete") {
    HttpServer s([&](const HttpRequest &r) {
      std::string p = last_user(r);
      auto rr = good_answer(r);
      if (!is_path(p) && p.find("ALB") != std::string::npos) rr.delay_ms = 1500;
      return rr;
    });
    auto mo = model_options(s);
    mo.timeout_seconds = 0.4;
    mo.max_retries = 1;
    auto model = std::make_shared<grappi::OpenAIChatModel>(mo);
    grappi::AgentPipeline pipe(kg, model);
    auto o = options();
    o.top = 100;
    auto r = pipe.explore("MAPT", o);
    CHECK(r.usage.edges_failed == 1);
    for (const auto &e : r.edges)
      if (e.status == "failed") {
        CHECK(e.error.find("timed out") != std::string::npos);
        CHECK(r.protein(e.target)->name == "ALB");
      }
    // Paths through the failed edge are still explained, with the failure named in the prompt.
    CHECK(r.usage.paths_failed == 0);
    CHECK(r.usage.paths_explained == r.usage.selected_paths);
  }
  SUBCASE("connection refused: every item fails with its reason, nothing throws") {
    auto model = std::make_shared<grappi::OpenAIChatModel>(refused_options(0));
    grappi::AgentPipeline pipe(kg, model);
    auto r = pipe.explore("MAPT", options());
    CHECK(r.paths.empty());
    CHECK(r.usage.edges_failed == r.usage.distinct_edges);
    CHECK(r.usage.paths_failed == r.usage.selected_paths);
    REQUIRE_FALSE(r.failed.empty());
    CHECK(r.failed[0].error.find("POST http://127.0.0.1:") != std::string::npos);
    auto j = grappi::to_json(r);
    CHECK(j["failed_paths"].size() == r.failed.size());
    CHECK(j["paths"].empty());
  }
}

TEST_CASE("HTTP model: a cancel abandons a request in flight or waiting to be retried within a second" * doctest::test_suite("threads")) {
  using clock = std::chrono::steady_clock;
  const auto after = [](double seconds) {
    const auto at = clock::now() + std::chrono::duration<double>(seconds);
    return [at] { return clock::now() >= at; };
  };
  const auto seconds_since = [](clock::time_point t0) { return std::chrono::duration<double>(clock::now() - t0).count(); };
  // One chat cancelled `seconds` after it starts: it throws saying so, within a second.
  const auto chat_cancelled_at = [&](const HttpServer &s, double seconds) {
    grappi::OpenAIChatModel model(model_options(s));
    grappi::ChatRequest q;
    q.messages = {{"user", "hello"}};
    q.cancel = after(seconds);
    const auto t0 = clock::now();
    CHECK_THROWS_WITH_AS(model.chat(q), doctest::Contains("cancelled by the caller"), grappi::Error);
    CHECK(seconds_since(t0) < seconds + 0.8);
  };
  SUBCASE("in flight: the server answers after 2 s") {
    HttpServer s([&](const HttpRequest &) {
      auto rr = reply(200, chat_reply("fine"));
      rr.delay_ms = 2000;
      return rr;
    });
    chat_cancelled_at(s, 0.2);
  }
  SUBCASE("waiting to retry: a 503 asks for 30 s") {
    HttpServer s([&](const HttpRequest &) {
      auto rr = reply(503, R"({"error":{"message":"busy"}})");
      rr.headers.push_back({"Retry-After", "30"});
      return rr;
    });
    chat_cancelled_at(s, 0.2);
    CHECK(s.requests() == 1);
  }
  SUBCASE("an explore run: what was in flight is skipped, not failed") {
    TempDir d;
    grappi::KnowledgeGraph kg(d.file("kg.db"));
    build_graph(kg);
    HttpServer s([&](const HttpRequest &r) {
      auto rr = good_answer(r);
      rr.delay_ms = 2000;
      return rr;
    });
    grappi::AgentPipeline pipe(kg, std::make_shared<grappi::OpenAIChatModel>(model_options(s)));
    auto o = options();
    o.use_cache = false;
    o.cancel = after(0.3);
    const auto t0 = clock::now();
    const auto r = pipe.explore("MAPT", o);
    CHECK(seconds_since(t0) < 1.2);
    CHECK(r.partial);
    CHECK(r.partial_reason == "cancelled by the caller");
    CHECK(r.usage.edges_failed == 0);
    CHECK(r.usage.paths_failed == 0);
    CHECK(r.paths.empty());
  }
}

TEST_CASE("HTTP model: a refused connection is tried once more at once and a bad URL fails before any request") {
  // (max_retries is for 429, 5xx and timeouts: nothing listens here, and waiting does not change that)
  const grappi::OpenAIChatOptions mo = refused_options(5);
  grappi::OpenAIChatModel model(mo);
  grappi::ChatRequest q;
  q.messages = {{"user", "hello"}};
  CHECK_THROWS_WITH_AS(model.chat(q), doctest::Contains("POST http://127.0.0.1:"), grappi::Error);
  CHECK(model.http_requests() == 2);
  // A URL that cannot be asked at all is an argument error when the model is made.
  for (const char *bad : {"file:///etc/passwd", "http://a b/v1", "http:///v1", "ftp://host/v1", "http://user:pw@/v1"}) {
    CAPTURE(bad);
    grappi::OpenAIChatOptions b = mo;
    b.base_url = bad;
    try {
      grappi::OpenAIChatModel m(b);
      FAIL("accepted");
    } catch (const grappi::Error &e) {
      CHECK(e.code() == grappi::ErrorCode::invalid_argument);
      CHECK(std::string(e.what()).find("pw") == std::string::npos);
    }
  }
}

TEST_CASE("HTTP model: a password in the server URL is never shown nor stored" * doctest::test_suite("threads")) {
  std::atomic<int> n{0};
  HttpServer s([&](const HttpRequest &) {
    return ++n == 1 ? reply(401, R"({"error":{"message":"no"}})") : reply(500, R"({"error":{"message":"boom"}})");
  });
  grappi::OpenAIChatOptions mo;
  mo.base_url = "http://alice:s3cret-pw@127.0.0.1:" + std::to_string(s.port()) + "/v1";
  mo.model = "x";
  mo.max_retries = 0;
  grappi::OpenAIChatModel model(mo);
  CHECK(model.identity().find("s3cret") == std::string::npos);
  CHECK(model.identity().find("alice:***@127.0.0.1") != std::string::npos);
  CHECK(model.describe().dump().find("s3cret") == std::string::npos);
  grappi::ChatRequest q;
  q.messages = {{"user", "hello"}};
  for (int i = 0; i < 2; ++i) {
    try {
      model.chat(q);
      FAIL("answered");
    } catch (const grappi::Error &e) {
      CHECK(std::string(e.what()).find("s3cret") == std::string::npos);
      CHECK(std::string(e.what()).find("alice:***@") != std::string::npos);
    }
  }
}

TEST_CASE("HTTP model: a hostile server cannot leak the key or break the counts" * doctest::test_suite("threads")) {
  ::setenv("GRAPPI_TEST_SECRET_KEY", "sk-test-0123456789abcdef", 1);
  std::atomic<int> n{0};
  HttpServer s([&](const HttpRequest &r) {
    if (n++ == 0) {  // an error page that echoes the request's headers
      const auto auth = r.headers.count("authorization") ? r.headers.at("authorization") : std::string("?");
      return reply(401, "{\"error\": {\"message\": \"bad key: " + auth + "\"}}");
    }
    return reply(200, R"({"choices": [{"message": {"content": "ok"}, "finish_reason": "stop"}],
                          "usage": {"prompt_tokens": -5, "completion_tokens": 18446744073709551615}})");
  });
  auto mo = model_options(s);
  mo.api_key_env = "GRAPPI_TEST_SECRET_KEY";
  mo.max_retries = 0;
  grappi::OpenAIChatModel model(mo);
  grappi::ChatRequest req;
  req.messages = {{"user", "hello"}};
  try {
    (void)model.chat(req);
    FAIL("a 401 did not fail");
  } catch (const grappi::Error &e) {
    const std::string m = e.what();
    CHECK(m.find("0123456789abcdef") == std::string::npos);
    CHECK(m.find("[redacted]") != std::string::npos);
  }
  const grappi::ChatResponse ok = model.chat(req);
  CHECK(ok.prompt_tokens == 0);                       // negative: 0
  CHECK(ok.completion_tokens == 1000000000000);       // absurd: capped
  ::unsetenv("GRAPPI_TEST_SECRET_KEY");

  grappi::OpenAIChatOptions file_url = mo;
  file_url.base_url = "file:///etc";
  CHECK_THROWS_WITH_AS(grappi::OpenAIChatModel(file_url).chat(req), doctest::Contains("not http:// or https://"), grappi::Error);
  grappi::OpenAIChatOptions no_timeout = mo;
  no_timeout.timeout_seconds = 0;
  CHECK_THROWS_WITH_AS(grappi::OpenAIChatModel(no_timeout).chat(req), doctest::Contains("timeout must be more than 0"),
                       grappi::Error);
  no_timeout.timeout_seconds = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(grappi::OpenAIChatModel(no_timeout).chat(req), grappi::Error);

  // A 70 MiB answer: the call stops at the 64 MiB cap, says so, and is not retried.
  HttpServer huge([](const HttpRequest &) { return reply(200, "{\"x\": \"" + std::string(70u << 20, 'a') + "\"}"); });
  grappi::OpenAIChatOptions capped = model_options(huge);
  capped.max_retries = 3;
  capped.timeout_seconds = 300;  // (a loaded machine moves 64 MiB slowly; the cap, not the clock, must stop it)
  CHECK_THROWS_WITH_AS(grappi::OpenAIChatModel(capped).chat(req), doctest::Contains("the response is larger than 64 MiB"),
                       grappi::Error);
  CHECK(huge.requests() == 1);
}

TEST_CASE("HTTP model: a server without JSON mode / and the concurrency limit" * doctest::test_suite("threads")) {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  build_graph(kg);
  std::atomic<int> inflight{0}, peak{0}, rejected{0};
  HttpServer s([&](const HttpRequest &r) {
    int now = ++inflight;
    int p = peak.load();
    while (now > p && !peak.compare_exchange_weak(p, now)) {
    }
    HttpReply rr;
    if (json::parse(r.body).contains("response_format")) {
      ++rejected;
      rr = reply(400, R"({"error":{"code":400,"message":"response_format is not supported by this server","type":"invalid_request_error"}})");
    } else {
      rr = good_answer(r);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    --inflight;
    return rr;
  });
  auto mo = model_options(s);
  mo.concurrency = 2;
  auto model = std::make_shared<grappi::OpenAIChatModel>(mo);
  grappi::AgentPipeline pipe(kg, model);
  auto o = options();
  o.concurrency = 8;
  auto r = pipe.explore("MAPT", o);
  CHECK(rejected >= 1);
  CHECK(rejected <= 2);  // at most the requests already in flight when the first was rejected
  CHECK_FALSE(model->json_mode_active());
  CHECK(r.usage.paths_failed == 0);
  CHECK(peak <= 2);
  CHECK(static_cast<std::size_t>(s.requests()) == r.usage.model_calls + static_cast<std::size_t>(rejected.load()));
}

TEST_CASE("budgets stop the run cleanly and mark the result partial - dry runs send nothing" * doctest::test_suite("threads")) {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  build_graph(kg);
  HttpServer s(good_answer);
  auto model = std::make_shared<grappi::OpenAIChatModel>(model_options(s));
  grappi::AgentPipeline pipe(kg, model);

  auto dry = options();
  dry.dry_run = true;
  auto plan = pipe.explore("MAPT", dry);
  CHECK(s.requests() == 0);
  CHECK(plan.dry_run);
  CHECK(plan.planned_calls == plan.usage.distinct_edges + plan.usage.selected_paths);
  CHECK(plan.planned_prompt_tokens > static_cast<int64_t>(plan.planned_calls) * 50);
  CHECK(grappi::to_json(plan)["plan"]["model_calls"] == plan.planned_calls);

  auto o = options();
  o.max_calls = 5;
  auto r = pipe.explore("MAPT", o);
  CHECK(r.partial);
  CHECK(r.partial_reason.find("call budget of 5") != std::string::npos);
  CHECK(r.usage.model_calls == 5);
  CHECK(s.requests() == 5);
  std::size_t skipped = 0;
  for (auto &e : r.edges) skipped += e.status == "skipped";
  CHECK(skipped == r.usage.distinct_edges - 5);
  CHECK(r.usage.paths.skipped == r.usage.selected_paths);
  CHECK(grappi::to_json(r)["partial"] == true);

  // The 5 answers were cached: the plan now needs 5 calls fewer.
  auto plan2 = pipe.explore("MAPT", dry);
  CHECK(plan2.planned_calls == plan.planned_calls - 5);
  CHECK(plan2.usage.cache_hits == 5);

  auto t = options();
  t.max_tokens = 100;  // each call reports 30 tokens, the prompts are estimated before sending
  t.use_cache = false;
  auto rt = pipe.explore("MAPT", t);
  CHECK(rt.partial);
  CHECK(rt.partial_reason.find("token budget") != std::string::npos);
  CHECK(rt.usage.prompt_tokens + rt.usage.completion_tokens <= 100 + 30 * static_cast<int64_t>(t.concurrency));

  // A full run after a dry run makes exactly the planned calls.
  auto full = options();
  full.use_cache = true;
  const int before = s.requests();
  auto plan3 = pipe.explore("MAPT", dry);
  auto rf = pipe.explore("MAPT", full);
  CHECK(static_cast<std::size_t>(s.requests() - before) == plan3.planned_calls);
  CHECK_FALSE(rf.partial);
}

TEST_CASE("explain-top explains only the best candidates by the prior" * doctest::test_suite("threads")) {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  build_graph(kg);
  std::atomic<int> calls{0};
  auto model = std::make_shared<grappi::CallbackModel>("counter", [&](const grappi::ChatRequest &q) {
    ++calls;
    grappi::ExtractiveModel x;
    return x.chat(q);
  });
  grappi::AgentPipeline pipe(kg, model);
  auto o = options();
  auto all = pipe.explore("MAPT", o);
  o.explain_top = 3;
  o.use_cache = false;
  calls = 0;
  auto some = pipe.explore("MAPT", o);
  CHECK(some.usage.candidate_paths == all.usage.candidate_paths);
  CHECK(some.usage.selected_paths == 3);
  CHECK(some.paths.size() == 3);
  CHECK(some.usage.distinct_edges <= 3 * 3);
  CHECK(static_cast<std::size_t>(calls) == some.usage.distinct_edges + 3);
  // The selected paths are those with the best priors.
  double min_sel = 1e9;
  for (auto &p : some.paths) min_sel = std::min(min_sel, p.prior);
  std::size_t better = 0;
  for (auto &p : all.paths) better += p.prior > min_sel;
  CHECK(better <= 3);
}

TEST_CASE("callback failures are recorded per item with their reasons" * doctest::test_suite("threads")) {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  build_graph(kg);
  auto model = std::make_shared<grappi::CallbackModel>("flaky", [](const grappi::ChatRequest &q) -> grappi::ChatResponse {
    if (q.task["kind"] == "edge" && q.task["target"]["name"] == "ALB") throw std::runtime_error("model crashed");
    if (q.task["kind"] == "path") {
      grappi::ChatResponse r;
      r.content = R"({"explanation": "ok", "relevance_score": 50})";
      return r;
    }
    grappi::ChatResponse r;
    r.content = "fine";
    return r;
  });
  grappi::AgentPipeline pipe(kg, model);
  auto r = pipe.explore("MAPT", options());
  CHECK(r.usage.edges_failed == 1);
  for (auto &e : r.edges)
    if (e.status == "failed") CHECK(e.error == "callback model 'flaky' failed: model crashed");
  CHECK(r.usage.paths_failed == 0);
}

TEST_CASE("the extractive model is deterministic / offline / and says it is extractive" * doctest::test_suite("threads")) {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  build_graph(kg);
  auto model = std::make_shared<grappi::ExtractiveModel>();
  grappi::AgentPipeline pipe(kg, model);
  auto o = options();
  o.concurrency = 8;
  auto a = pipe.explore("MAPT", o);
  o.concurrency = 1;
  auto b = pipe.explore("MAPT", o);
  CHECK(ranked(a) == ranked(b));
  CHECK(a.usage.cache_hits == 0);  // computed locally, never cached
  CHECK(kg.response_cache_size() == 0);
  REQUIRE_FALSE(a.paths.empty());
  for (auto &p : a.paths) {
    CHECK(p.explanation.rfind("Extractive summary (not generated)", 0) == 0);
    CHECK(p.relevance_score >= 0);
    CHECK(p.relevance_score <= 100);
  }
  // Kinases that phosphorylate tau come first for this query; the albumin detour last.
  auto first = a.protein(a.paths[0].nodes.back())->name;
  CHECK((first == "GSK3B" || first == "CDK5" || first == "PPP2CA"));
  for (auto &p : a.paths) CHECK(a.protein(p.nodes.back())->name != "ALB");
  for (auto &e : a.edges) CHECK(e.explanation.find("STRING confidence") != std::string::npos);
  // Without any matching query term the score is driven by confidence alone and is lower.
  grappi::ChatRequest q;
  q.task = json{{"kind", "path"},
                {"query", "inhibit tau phosphorylation"},
                {"proteins", json::array({{{"name", "A"}, {"annotation", ""}}, {{"name", "B"}, {"annotation", "kinase of tau"}}})},
                {"edges", json::array({{{"source", "A"}, {"target", "B"}, {"score", 0.9}}})}};
  auto with = grappi::parse_path_answer(grappi::extractive_explore_answer(q));  // (what explore's requests carry)
  q.task["proteins"][1]["annotation"] = "albumin";
  auto without = grappi::parse_path_answer(grappi::extractive_explore_answer(q));
  CHECK_THROWS_WITH_AS(grappi::ExtractiveModel().chat(q), doctest::Contains("no offline answer for the task kind 'path'"),
                       grappi::Error);  // (a request without the asking agent's offline answer)
  REQUIRE(with.ok);
  REQUIRE(without.ok);
  CHECK(with.relevance_score > without.relevance_score);
  CHECK(without.relevance_score == 27);  // round(100 * 0.3 * 0.9)
  q.task["kind"] = "nonsense";
  CHECK_THROWS_WITH_AS(grappi::extractive_explore_answer(q), doctest::Contains("not 'nonsense'"), grappi::Error);
}

TEST_CASE("explore outputs: JSON names / Markdown / CX2 - errors for bad input" * doctest::test_suite("threads")) {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  build_graph(kg);
  grappi::AgentPipeline pipe(kg, std::make_shared<grappi::ExtractiveModel>());
  auto o = options();
  o.top = 3;
  auto r = pipe.explore("MAPT", o);
  auto j = grappi::to_json(r);
  REQUIRE(j["paths"].size() == 3);
  for (const char *k : {"query", "root", "parameters", "provenance", "model", "templates", "windows", "paths", "usage", "proteins"})
    CHECK_MESSAGE(j.contains(k), k);
  for (auto &p : j["paths"]) {
    for (const char *k : {"rank", "proteins", "relevance_score", "explanation", "edges"}) CHECK(p.contains(k));
    CHECK(p["proteins"][0] == "MAPT");
    for (auto &e : p["edges"])
      for (const char *k : {"source", "target", "score", "explanation", "relation", "channels", "pmids"}) CHECK(e.contains(k));
  }
  for (const char *k : {"model_calls", "cache_hits", "prompt_tokens", "completion_tokens", "paths_explained", "edges_explained"})
    CHECK(j["usage"].contains(k));
  CHECK(j["windows"][0]["nodes"][0]["parent"].is_null());
  CHECK(j["provenance"]["ranking"].get<std::string>().find("edge score") != std::string::npos);

  auto md = grappi::to_markdown(r);
  CHECK(md.find("# grappi explore: MAPT") != std::string::npos);
  CHECK(md.find("| 1 | MAPT") != std::string::npos);
  CHECK(md.find("extractive summaries") != std::string::npos);
  {
    // A model's explanation is shown, never run: no HTML, no code-running link, valid UTF-8.
    grappi::ExploreResult hostile = r;
    hostile.paths[0].explanation = "<script>alert(1)</script> <img src=x onerror=alert(2)> [x](javascript:alert(3)) \xff\xfe";
    const std::string m = grappi::to_markdown(hostile);
    CHECK(m.find("<script>") == std::string::npos);
    CHECK(m.find("<img") == std::string::npos);
    CHECK(m.find("](javascript:") == std::string::npos);
    CHECK(m.find("\xff") == std::string::npos);
    CHECK(m.find("&lt;script&gt;alert(1)") != std::string::npos);
  }

  auto cx = grappi::to_cx2(r);
  REQUIRE(cx.is_array());
  CHECK(cx.front()["CXVersion"] == "2.0");
  CHECK(cx.back().contains("status"));
  std::set<int64_t> ids;
  json nodes, edges, bypass;
  for (auto &a : cx) {
    if (a.contains("nodes")) nodes = a["nodes"];
    if (a.contains("edges")) edges = a["edges"];
    if (a.contains("nodeBypasses")) bypass = a["nodeBypasses"];
  }
  for (auto &n : nodes) CHECK(ids.insert(n["id"].get<int64_t>()).second);
  for (auto &e : edges) {
    CHECK(ids.count(e["s"].get<int64_t>()));
    CHECK(ids.count(e["t"].get<int64_t>()));
    CHECK(e["v"]["pmids"].is_array());
    CHECK(e["v"]["path_ranks"].is_array());
  }
  REQUIRE(bypass.size() == 1);
  int64_t root_cx = bypass[0]["id"];
  for (auto &n : nodes)
    if (n["id"] == root_cx) CHECK(n["v"]["name"] == "MAPT");

  auto bad = options();
  bad.query = "  ";
  CHECK_THROWS_AS(pipe.explore("MAPT", bad), grappi::Error);
  bad = options();
  bad.windows = {0};
  CHECK_THROWS_AS(pipe.explore("MAPT", bad), grappi::Error);
  CHECK_THROWS_AS(pipe.explore("NOSUCHPROTEIN", options()), grappi::Error);
  bad = options();
  bad.query = std::string("tau \xff\xfe");
  CHECK_THROWS_AS(pipe.explore("MAPT", bad), grappi::Error);
}

TEST_CASE("explore on the bundled STRING data with embeddings: the demo MAPT window" * doctest::test_suite("threads")) {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  kg.import_string({{data("9606.protein.info.v12.0.txt.gz"), grappi::StringFormat::info},
                    {data("export_v12_alzheimer/string_interactions.tsv"), grappi::StringFormat::web_export}});
  auto emb = grappi::hashing_embedder(kg);
  grappi::embed_graph(kg, *emb);
  grappi::AgentPipeline pipe(kg, std::make_shared<grappi::ExtractiveModel>());
  grappi::ExploreOptions o;
  o.query = "inhibit tau phosphorylation";
  o.window.k = {10, 2};
  auto r = pipe.explore("MAPT", o);
  CHECK(r.windows.size() == 1);
  CHECK(r.windows[0].nodes.size() > 5);
  CHECK(r.usage.candidate_paths > 10);
  CHECK(r.paths.size() == 10);
  CHECK(r.provenance["embedding_model"].is_string());
  CHECK(r.provenance["datasets"].size() == 2);
  // STRING gives scores to three decimals; they come back as imported, not as float32 noise.
  REQUIRE_FALSE(r.edges.empty());
  for (auto &e : r.edges) CHECK(e.score == std::round(e.score * 1000) / 1000);
  bool kinase = false;
  for (auto &p : r.paths)
    for (auto id : p.nodes) kinase = kinase || r.protein(id)->name == "GSK3B" || r.protein(id)->name == "CDK5";
  CHECK(kinase);
  // Several windows: each window's paths are found, a path seen in two windows is listed once.
  o.windows = {1, 2};
  auto r2 = pipe.explore("MAPT", o);
  CHECK(r2.windows.size() == 2);
  CHECK(r2.usage.candidate_paths >= r.usage.candidate_paths);
}

TEST_CASE("explore_window_nodes_bound: windows x (1 + k1 + k1 k2 + ...) and saturating") {
  grappi::ExploreOptions o;
  o.windows = {1, 2, 3};
  o.window.k = {30, 4};
  o.window.depth = 2;
  CHECK(grappi::explore_window_nodes_bound(o) == 3 * (1 + 30 + 120));
  o.window.depth = 3;  // (the last k repeats)
  CHECK(grappi::explore_window_nodes_bound(o) == 3 * (1 + 30 + 120 + 480));
  o.window.k = {1000000, 1000000};
  o.window.depth = 6;
  CHECK(grappi::explore_window_nodes_bound(o) == std::numeric_limits<std::size_t>::max());
  o.window.k = {300, 300};
  o.window.depth = 2;
  o.windows = std::vector<std::size_t>(3, 1);
  CHECK(grappi::explore_window_nodes_bound(o) == 3 * (1 + 300 + 90000));
}

