// Relation grounding on PSI-MI: every strategy's visit order and stop point for a fixed scoring,
// checked against an independent reading of psi-mi.obo (breadth-first, depth-first, greedy and
// PageRank orders computed here); the look-ahead, the pick among the best-scored terms, quotes
// that are not in the text, obsolete terms never visited, failing models, budgets and the
// response cache; a loopback HTTP model; the offline model on BioInfer abstracts.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "http_server.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::GroundingOptions;
using grappi::GroundingResult;
using grappi::GroundingStrategy;
using nlohmann::json;

namespace {

// ---- an independent reading of psi-mi.obo -------------------------------------------------

struct OboTerm {
  std::string id, name;
  bool obsolete = false;
  std::vector<std::string> parents;
};

struct Obo {
  std::map<std::string, OboTerm> terms;
  std::map<std::string, std::vector<std::string>> children;  // live children, sorted by id

  explicit Obo(const std::string &path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::string line;
    OboTerm cur;
    bool in_term = false;
    auto flush = [&] {
      if (in_term && !cur.id.empty()) terms[cur.id] = cur;
      cur = OboTerm{};
    };
    while (std::getline(in, line)) {
      if (!line.empty() && line[0] == '[') {
        flush();
        in_term = line == "[Term]";
        continue;
      }
      if (!in_term) continue;
      if (line.rfind("id: ", 0) == 0) cur.id = line.substr(4);
      else if (line.rfind("name: ", 0) == 0) cur.name = line.substr(6);
      else if (line == "is_obsolete: true") cur.obsolete = true;
      else if (line.rfind("is_a: ", 0) == 0) cur.parents.push_back(line.substr(6, line.find(' ', 6) - 6));
    }
    flush();
    for (const auto &[id, t] : terms)
      if (!t.obsolete)
        for (const auto &p : t.parents) children[p].push_back(id);
    for (auto &[p, c] : children) std::sort(c.begin(), c.end());
  }

  std::vector<std::string> bfs(const std::string &root) const {
    std::vector<std::string> out;
    std::set<std::string> seen = {root};
    std::deque<std::string> q = {root};
    while (!q.empty()) {
      const std::string t = q.front();
      q.pop_front();
      out.push_back(t);
      if (auto it = children.find(t); it != children.end())
        for (const auto &c : it->second)
          if (seen.insert(c).second) q.push_back(c);
    }
    return out;
  }

  void dfs_from(const std::string &t, std::set<std::string> &seen, std::vector<std::string> &out) const {
    out.push_back(t);
    if (auto it = children.find(t); it != children.end())
      for (const auto &c : it->second)
        if (seen.insert(c).second) dfs_from(c, seen, out);
  }
  std::vector<std::string> dfs(const std::string &root) const {
    std::vector<std::string> out;
    std::set<std::string> seen = {root};
    dfs_from(root, seen, out);
    return out;
  }

  // The greedy walk: the root's children, then the children of terms scoring >= threshold.
  template <class Score>
  std::vector<std::string> dynamic(const std::string &root, Score &&score, int threshold) const {
    std::vector<std::string> out;
    std::set<std::string> seen = {root};
    std::deque<std::string> q = {root};
    while (!q.empty()) {
      const std::string t = q.front();
      q.pop_front();
      out.push_back(t);
      if (t != root && score(t) < threshold) continue;
      if (auto it = children.find(t); it != children.end())
        for (const auto &c : it->second)
          if (seen.insert(c).second) q.push_back(c);
    }
    return out;
  }

  // PageRank over the is_a edges (child -> parent, unweighted), restarting uniformly within the
  // subtree, dangling mass returned the same way; by descending rank (12 decimals), then id.
  std::vector<std::string> pagerank(const std::string &root) const {
    const std::vector<std::string> sub = bfs(root);
    const std::set<std::string> in_sub(sub.begin(), sub.end());
    std::map<std::string, double> x, p;
    std::map<std::string, std::size_t> out_degree;
    for (const auto &[id, t] : terms) {
      x[id] = p[id] = in_sub.count(id) ? 1.0 / static_cast<double>(sub.size()) : 0.0;
      for (const auto &par : t.parents)
        if (terms.count(par)) ++out_degree[id];
    }
    for (int it = 0; it < 100; ++it) {
      double dangling = 0;
      std::map<std::string, double> in;
      for (const auto &[id, t] : terms) {
        if (!out_degree[id]) {
          dangling += x[id];
          continue;
        }
        for (const auto &par : t.parents)
          if (terms.count(par)) in[par] += x[id] / static_cast<double>(out_degree[id]);
      }
      double diff = 0;
      std::map<std::string, double> nx;
      for (const auto &[id, t] : terms) {
        nx[id] = 0.85 * in[id] + (0.85 * dangling + 0.15) * p[id];
        diff += std::abs(nx[id] - x[id]);
      }
      x = nx;
      if (diff < 1e-9) break;
    }
    std::vector<std::string> order = sub;
    std::sort(order.begin(), order.end(), [&](const std::string &a, const std::string &b) {
      const auto ka = std::llround(x[a] * 1e12), kb = std::llround(x[b] * 1e12);
      return ka != kb ? ka > kb : a < b;
    });
    return order;
  }
};

const Obo &psi_mi() {
  static const Obo obo(data("ontology/psi-mi.obo"));
  return obo;
}

// Where the patience rule stops an order (1-based count of terms scored).
template <class Score>
std::size_t stop_point(const std::vector<std::string> &order, Score &&score, std::size_t patience, std::size_t lookahead) {
  int best = 0;
  std::size_t since = 0, left = 0;
  bool in_lookahead = false;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const int s = score(order[i]);
    if (s > best) {
      best = s;
      since = 0;
      in_lookahead = false;
    } else {
      ++since;
      if (in_lookahead) --left;
    }
    if (in_lookahead && left == 0) return i + 1;
    if (!in_lookahead && since >= patience) {
      in_lookahead = true;
      left = lookahead;
    }
  }
  return order.size();
}

// ---- a scripted model ----------------------------------------------------------------------

const char *kText =
    "Cdc28 and Cln2 form a complex.\n\n"
    "We show that Cdc28 phosphorylates Sic1 at several sites in vitro, and that Sic1 binds Cdc28 directly in a\n"
    "two-hybrid assay. Phosphorylation of Sic1 by Cdc28 targets it for degradation.\n";

// The fixed scoring: the chain MI:0407 < MI:0915 < MI:0914 < MI:2232 scores 5, 4, 3, 3; the
// colocalization branch 2; everything else 1.
int fixed_score(const std::string &id) {
  static const std::map<std::string, int> s = {{"MI:0407", 5}, {"MI:0915", 4}, {"MI:0914", 3},
                                               {"MI:2232", 3}, {"MI:0403", 2}};
  auto it = s.find(id);
  return it == s.end() ? 1 : it->second;
}

struct Script {
  std::function<int(const std::string &)> score = fixed_score;
  std::string pick;  // the term to pick; empty: the first offered
  std::function<std::string(const grappi::ChatRequest &)> garble;  // a non-empty answer replaces the right one
  std::atomic<int> summaries{0}, scores{0}, picks{0};
  std::mutex mu;
  std::vector<std::size_t> batch_sizes;

  grappi::ChatResponse answer(const grappi::ChatRequest &q) {
    grappi::ChatResponse r;
    r.prompt_tokens = 100;
    r.completion_tokens = 10;
    if (garble) {
      r.content = garble(q);
      if (!r.content.empty()) return r;
    }
    const std::string kind = q.task.value("kind", "");
    if (kind == "ground.summary") {
      ++summaries;
      r.content = json{{"summary", "Cdc28 phosphorylates Sic1, and the two bind directly (scripted)."},
                       {"quotes", {"sic1 BINDS Cdc28 directly in a two-hybrid assay.", "Cdc28 destroys Sic1 in the nucleus."}}}
                      .dump();
    } else if (kind == "ground.score") {
      ++scores;
      json s = json::object();
      for (const auto &t : q.task["terms"]) s[t["id"].get<std::string>()] = score(t["id"].get<std::string>());
      {
        std::lock_guard<std::mutex> lock(mu);
        batch_sizes.push_back(q.task["terms"].size());
      }
      r.content = "Here are the scores:\n```json\n" + json{{"scores", s}}.dump() + "\n```";
    } else if (kind == "ground.pick") {
      ++picks;
      r.content = json{{"term", pick.empty() ? q.task["terms"][0]["id"].get<std::string>() : pick}, {"confidence", 4}}.dump();
    } else {
      throw grappi::Error(grappi::ErrorCode::llm, "unexpected task " + kind);
    }
    return r;
  }
};

std::shared_ptr<grappi::CallbackModel> model_of(Script &s, const std::string &name = "scripted") {
  return std::make_shared<grappi::CallbackModel>(name, [&s](const grappi::ChatRequest &q) { return s.answer(q); });
}

struct OntologyKb {
  TempDir d;
  std::unique_ptr<grappi::KnowledgeGraph> kg;
  OntologyKb() {
    kg = std::make_unique<grappi::KnowledgeGraph>(d.file("kb.db"));
    kg->import({{data("ontology/psi-mi.obo")}});
  }
};

std::vector<std::string> visited(const GroundingResult &r) {
  std::vector<std::string> ids;
  for (const auto &v : r.visits) ids.push_back(v.id);
  return ids;
}

GroundingOptions with(GroundingStrategy s, std::size_t patience = 10) {
  GroundingOptions o;
  o.strategy = s;
  o.patience = patience;
  o.use_cache = false;
  return o;
}

}  // namespace

TEST_CASE("Grounding walks PSI-MI in the order each strategy defines and stops where the patience rule says") {
  OntologyKb kb;
  Script script;
  auto model = model_of(script);
  const Obo &obo = psi_mi();
  const auto bfs = obo.bfs("MI:0190"), dfs = obo.dfs("MI:0190"), pr = obo.pagerank("MI:0190");
  REQUIRE(bfs.size() == 146);  // MI:0190 and its 145 live descendants
  const grappi::Grounder g(*kb.kg, *model, with(GroundingStrategy::bfs, 0));
  CHECK(g.terms() == 146);

  // Every term, in each walk's order, with patience 0.
  const auto all_bfs = g.ground(kText, "CDC28", "SIC1", GroundingStrategy::bfs);
  CHECK(visited(all_bfs) == bfs);
  CHECK(all_bfs.stop_reason == "every term was visited");
  CHECK(visited(g.ground(kText, "CDC28", "SIC1", GroundingStrategy::dfs)) == dfs);
  const auto all_pr = g.ground(kText, "CDC28", "SIC1", GroundingStrategy::pagerank);
  CHECK(visited(all_pr) == pr);
  CHECK(pr.front() == "MI:0190");  // the root collects the subtree's rank
  // Obsolete terms are never visited.
  for (const auto &id : visited(all_bfs)) CHECK_FALSE(obo.terms.at(id).obsolete);
  // The best-scored term is chosen: MI:0407 direct interaction, alone at 5.
  REQUIRE(all_bfs.term);
  CHECK(all_bfs.term->id == "MI:0407");
  CHECK(all_bfs.best_score == 5);
  CHECK(all_bfs.tied == std::vector<std::string>{"MI:0407"});
  CHECK(all_bfs.confidence == 4);
  CHECK(all_bfs.traversal_usage.model_calls == 146);  // one term per request, as the reference

  // The patience rule (10 evaluations without a better score, then a 5-term look-ahead).
  for (GroundingStrategy s : {GroundingStrategy::bfs, GroundingStrategy::dfs, GroundingStrategy::pagerank}) {
    INFO(grappi::to_string(s));
    const auto &order = s == GroundingStrategy::bfs ? bfs : s == GroundingStrategy::dfs ? dfs : pr;
    const std::size_t n = stop_point(order, fixed_score, 10, 5);
    const grappi::Grounder patient(*kb.kg, *model, with(s, 10));
    const auto r = patient.ground(kText, "CDC28", "SIC1");
    CHECK(visited(r) == std::vector<std::string>(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n)));
    if (n < order.size()) {
      CHECK(r.stop_reason == "no better score in the last 10 evaluations nor in a 5-term look-ahead");
      for (std::size_t i = n - 5; i < n; ++i) CHECK(r.visits[i].lookahead);
    }
  }
  // A look-ahead that finds a better term walks on: MI:0407 comes 14th in breadth-first order
  // scoring only it (the 10 evaluations run out at the 11th term).
  {
    const auto late = [&bfs](const std::string &id) { return id == bfs[13] ? 5 : 1; };
    script.score = late;
    const grappi::Grounder patient(*kb.kg, *model, with(GroundingStrategy::bfs, 10));
    const auto r = patient.ground(kText, "CDC28", "SIC1");
    CHECK(r.visits.size() == stop_point(bfs, late, 10, 5));
    CHECK(r.visits.size() == 29);  // the best at 14, then 10 more and a 5-term look-ahead
    CHECK(r.term->id == bfs[13]);
    script.score = fixed_score;
  }

  // dynamic: the children of terms scoring 3 or more.
  for (int threshold : {3, 4}) {
    auto o = with(GroundingStrategy::dynamic);
    o.threshold = threshold;
    const grappi::Grounder greedy(*kb.kg, *model, o);
    const auto r = greedy.ground(kText, "CDC28", "SIC1");
    CHECK(visited(r) == obo.dynamic("MI:0190", fixed_score, threshold));
    CHECK(r.stop_reason.rfind("the queue is empty", 0) == 0);
  }

  // random: a permutation of every term, the same for the same seed.
  {
    auto o = with(GroundingStrategy::random, 0);
    const auto a = grappi::Grounder(*kb.kg, *model, o).ground(kText, "CDC28", "SIC1");
    const auto b = grappi::Grounder(*kb.kg, *model, o).ground(kText, "CDC28", "SIC1");
    o.seed = 2;
    const auto c = grappi::Grounder(*kb.kg, *model, o).ground(kText, "CDC28", "SIC1");
    CHECK(visited(a) == visited(b));
    CHECK(visited(a) != visited(c));
    auto sorted = visited(a);
    std::sort(sorted.begin(), sorted.end());
    auto expected = bfs;
    std::sort(expected.begin(), expected.end());
    CHECK(sorted == expected);
  }
}

TEST_CASE("Grounding scores listwise and in one request for stuff and only the top terms for rag") {
  OntologyKb kb;
  Script script;
  auto model = model_of(script);
  auto o = with(GroundingStrategy::pagerank, 0);
  o.batch = 8;
  const auto listwise = grappi::Grounder(*kb.kg, *model, o).ground(kText, "CDC28", "SIC1");
  CHECK(visited(listwise) == psi_mi().pagerank("MI:0190"));
  CHECK(listwise.traversal_usage.model_calls == 19);  // ceil(146 / 8)
  // A walk batches what its queue holds: the root alone, then its five children, ...
  o.strategy = GroundingStrategy::bfs;
  script.batch_sizes.clear();
  const auto walked = grappi::Grounder(*kb.kg, *model, o).ground(kText, "CDC28", "SIC1");
  CHECK(visited(walked) == psi_mi().bfs("MI:0190"));
  REQUIRE(script.batch_sizes.size() > 2);
  CHECK(script.batch_sizes[0] == 1);
  CHECK(script.batch_sizes[1] == 5);
  for (std::size_t b : script.batch_sizes) CHECK(b <= 8);
  CHECK(listwise.term->id == "MI:0407");
  script.batch_sizes.clear();
  const auto stuff = grappi::Grounder(*kb.kg, *model, with(GroundingStrategy::stuff)).ground(kText, "CDC28", "SIC1");
  CHECK(stuff.traversal_usage.model_calls == 1);
  CHECK(script.batch_sizes == std::vector<std::size_t>{146});
  CHECK(stuff.visits.size() == 146);
  CHECK(stuff.term->id == "MI:0407");
  CHECK(stuff.stop_reason == "every term in one request");
  auto rag = with(GroundingStrategy::rag);
  rag.rag_k = 7;
  const auto r = grappi::Grounder(*kb.kg, *model, rag).ground(kText, "CDC28", "SIC1");
  CHECK(r.visits.size() == 7);
  CHECK(r.traversal_usage.model_calls == 7);
}

TEST_CASE("Grounding picks only among the best-scored terms and falls back to one of them") {
  OntologyKb kb;
  Script script;
  script.score = [](const std::string &id) { return id == "MI:0407" || id == "MI:0915" ? 5 : 1; };
  auto model = model_of(script);
  script.pick = "MI:0915";
  const grappi::Grounder g(*kb.kg, *model, with(GroundingStrategy::bfs, 0));
  auto r = g.ground(kText, "CDC28", "SIC1");
  CHECK(r.tied == std::vector<std::string>{"MI:0915", "MI:0407"});  // in visit order
  CHECK(r.term->id == "MI:0915");
  CHECK(r.pick_status == "ok");
  // A pick outside the best-scored terms is not trusted: the first of them is the answer.
  script.pick = "MI:0190";
  r = g.ground(kText, "CDC28", "SIC1");
  CHECK(r.pick_status == "fallback");
  CHECK(r.pick_error.find("not one of the best-scored terms") != std::string::npos);
  CHECK(r.term->id == "MI:0915");
  CHECK(r.pick_usage.repairs == 1);  // one repair turn was asked
  // Quotes are checked against the text: case and line breaks aside.
  REQUIRE(r.quotes.size() == 2);
  CHECK(r.quotes[0].in_text);
  CHECK(std::string(kText).substr(r.quotes[0].offset, 9) == "Sic1 bind");
  CHECK_FALSE(r.quotes[1].in_text);
  const json j = grappi::to_json(r);
  CHECK(j["quotes"][1]["in_text"] == false);
  CHECK(j["pick"]["status"] == "fallback");
  CHECK(j["trace"]["visits"].size() == 146);
}

TEST_CASE("Grounding survives garbage answers and errors and records each failure") {
  OntologyKb kb;
  Script script;
  std::atomic<int> n{0};
  // Every third scoring answer is garbage (its repair turn too), every fifth request throws.
  script.garble = [&n](const grappi::ChatRequest &q) -> std::string {
    if (q.task.value("kind", "") != "ground.score") return "";
    const int k = ++n;
    if (k % 5 == 0) throw grappi::Error(grappi::ErrorCode::network, "connection reset (scripted)");
    if (k % 3 == 0) return "I think this term fits rather well.";
    return "";
  };
  auto model = model_of(script);
  const auto r = grappi::Grounder(*kb.kg, *model, with(GroundingStrategy::bfs, 0)).ground(kText, "CDC28", "SIC1");
  CHECK(r.visits.size() == 146);
  std::size_t failed = 0, ok = 0;
  for (const auto &v : r.visits) {
    if (v.status == "failed") {
      ++failed;
      CHECK_FALSE(v.score);
      CHECK((v.error.find("no JSON object") != std::string::npos || v.error.find("connection reset") != std::string::npos));
    } else {
      ++ok;
      CHECK(v.score);
    }
  }
  CHECK(failed > 10);
  CHECK(ok > 60);
  CHECK(r.traversal_usage.failed == failed);
  CHECK(r.traversal_usage.repairs > 0);
  CHECK(r.term);  // still a live term under the root
  // A summary that never parses: no traversal, said plainly.
  Script broken;
  broken.garble = [](const grappi::ChatRequest &) { return std::string("{\"summary\": "); };
  auto bad = model_of(broken, "broken");
  const auto none = grappi::Grounder(*kb.kg, *bad, with(GroundingStrategy::bfs)).ground(kText, "CDC28", "SIC1");
  CHECK(none.summary_status == "failed");
  CHECK(none.summary_error.find("truncated JSON") != std::string::npos);
  CHECK_FALSE(none.term);
  CHECK(none.visits.empty());
  // A call budget stops the walk and says why.
  auto budget = with(GroundingStrategy::bfs, 0);
  budget.max_calls = 6;
  Script fine;
  auto m = model_of(fine, "fine");
  const auto cut = grappi::Grounder(*kb.kg, *m, budget).ground(kText, "CDC28", "SIC1");
  CHECK(cut.stop_reason.rfind("budget: call budget of 6 model calls exhausted", 0) == 0);
  CHECK(cut.summary_usage.model_calls + cut.traversal_usage.model_calls == 6);
  CHECK(cut.pick_status == "fallback");
}

TEST_CASE("Grounding answers come from the response cache on a second run and across strategies") {
  OntologyKb kb;
  Script script;
  auto model = model_of(script);
  auto o = with(GroundingStrategy::pagerank, 0);
  o.use_cache = true;
  o.batch = 5;
  const grappi::Grounder g(*kb.kg, *model, o);
  const auto first = g.ground(kText, "CDC28", "SIC1");
  CHECK(first.traversal_usage.model_calls == 30);
  const int calls = script.summaries + script.scores + script.picks;
  const auto again = g.ground(kText, "CDC28", "SIC1");
  CHECK(script.summaries + script.scores + script.picks == calls);  // no call at all
  CHECK(again.summary_usage.cache_hits == 1);
  CHECK(again.traversal_usage.cache_hits == 146);
  CHECK(again.term->id == first.term->id);
  // Another strategy and batch size reuse the terms' scores one by one.
  const auto dfs = g.ground(kText, "CDC28", "SIC1", GroundingStrategy::dfs);
  CHECK(script.summaries + script.scores + script.picks == calls);
  CHECK(dfs.traversal_usage.model_calls == 0);
  CHECK(dfs.traversal_usage.cache_hits == dfs.visits.size());
  for (const auto &v : dfs.visits) CHECK(v.status == "cached");
  // Many pairs at once: results in job order.
  const std::string text(kText);
  const auto many = g.ground({{text, "CDC28", "SIC1"}, {text, "SIC1", "CDC28"}, {text, "CDC28", "CLN2"}},
                             {GroundingStrategy::pagerank, GroundingStrategy::stuff}, 3);
  REQUIRE(many.size() == 3);
  CHECK(many[1][0].protein_a == "SIC1");
  CHECK(many[2][1].strategy == GroundingStrategy::stuff);
  CHECK(many[0][0].traversal_usage.model_calls == 0);
}

TEST_CASE("Grounding through an OpenAI-compatible server on loopback") {
  OntologyKb kb;
  std::atomic<int> requests{0};
  HttpServer s([&](const HttpRequest &r) {
    ++requests;
    const json body = json::parse(r.body);
    const std::string p = body["messages"].back()["content"].get<std::string>();
    std::string content;
    if (p.find("Answer with a score for every term id above") != std::string::npos) {
      json scores = json::object();
      static const std::regex id_re("(^|\\n)(MI:[0-9]{4}) ");
      for (auto it = std::sregex_iterator(p.begin(), p.end(), id_re); it != std::sregex_iterator(); ++it)
        scores[(*it)[2].str()] = fixed_score((*it)[2].str());
      content = json{{"scores", scores}}.dump();
    } else if (p.find("Choose the one term") != std::string::npos) {
      content = R"j({"term": "MI:0407 (direct interaction)", "confidence": "5"})j";
    } else {
      content = R"({"summary": "They bind directly.", "quotes": []})";
    }
    HttpReply rep;
    rep.body = chat_reply(content, 50, 5);
    return rep;
  });
  grappi::OpenAIChatOptions mo;
  mo.base_url = s.base_url();
  mo.model = "test-chat";
  mo.timeout_seconds = 10;
  grappi::OpenAIChatModel model(mo);
  auto o = with(GroundingStrategy::bfs);
  o.batch = 4;
  const auto r = grappi::Grounder(*kb.kg, model, o).ground(kText, "CDC28", "SIC1");
  const auto &bfs = psi_mi().bfs("MI:0190");
  const std::size_t n = stop_point(bfs, fixed_score, 10, 5);
  // Listwise batches never run past the points where the patience and the look-ahead are judged.
  CHECK(visited(r) == std::vector<std::string>(bfs.begin(), bfs.begin() + static_cast<std::ptrdiff_t>(n)));
  REQUIRE(r.term);
  CHECK(r.term->id == "MI:0407");
  CHECK(r.confidence == 5);
  CHECK(r.pick_status == "ok");
  const std::size_t calls = r.summary_usage.model_calls + r.traversal_usage.model_calls + r.pick_usage.model_calls;
  CHECK(static_cast<std::size_t>(requests.load()) == calls);
  CHECK(r.traversal_usage.prompt_tokens == 50 * static_cast<int64_t>(r.traversal_usage.model_calls));
}

TEST_CASE("The offline model grounds BioInfer abstracts and says it is not a language model") {
  OntologyKb kb;
  grappi::ExtractiveModel offline;
  const std::string dir = std::string(GRAPPI_TEST_DATA_DIR) + "/literature/";
  const std::string text = read_file(dir + "BioInfer.d403.PMID11418599.txt");
  REQUIRE_FALSE(text.empty());
  const grappi::Grounder g(*kb.kg, offline, GroundingOptions{});
  const auto r = g.ground(text, "TESK2", "cofilin", GroundingStrategy::stuff);
  CHECK(r.offline);
  {
    // Without a model anywhere: the same offline default (RunControl::model unset); with one in
    // the options, that one is asked.
    const grappi::Grounder implicit(*kb.kg);
    const auto same = implicit.ground(text, "TESK2", "cofilin", GroundingStrategy::stuff);
    CHECK(same.offline);
    REQUIRE(same.term);
    CHECK(same.term->id == "MI:0217");
    std::atomic<int> asked{0};
    GroundingOptions run;
    run.use_cache = false;
    run.model = std::make_shared<grappi::CallbackModel>("run-model", [&](const grappi::ChatRequest &) {
      ++asked;
      return grappi::ChatResponse{};
    });
    (void)grappi::ground(*kb.kg, text, "TESK2", "cofilin", run);
    CHECK(asked.load() > 0);
  }
  CHECK(r.summary.rfind("Extractive summary (not generated by a language model)", 0) == 0);
  REQUIRE(r.quotes.size() == 1);
  CHECK(r.quotes[0].in_text);
  CHECK(r.quotes[0].offset == 0);
  REQUIRE(r.term);
  CHECK(r.term->id == "MI:0217");  // phosphorylation reaction
  CHECK(r.summary_usage.model_calls + r.traversal_usage.model_calls + r.pick_usage.model_calls == 0);
  CHECK(r.summary_usage.local_answers == 1);
  const json j = grappi::to_json(r);
  CHECK(j["note"].get<std::string>().find("not a language model") != std::string::npos);
  // Every strategy answers with a live term under the root, deterministically.
  for (GroundingStrategy s : grappi::all_grounding_strategies()) {
    INFO(grappi::to_string(s));
    const auto a = g.ground(text, "TESK2", "cofilin", s), b = g.ground(text, "TESK2", "cofilin", s);
    REQUIRE(a.term);
    CHECK(visited(a) == visited(b));
    CHECK(a.term->id == b.term->id);
    CHECK_FALSE(psi_mi().terms.at(a.term->id).obsolete);
  }
  // Every strategy side by side in one report view: one item each, in order, each chosen term an answer.
  std::vector<grappi::GroundingResult> side;
  for (GroundingStrategy s : grappi::all_grounding_strategies()) side.push_back(g.ground(text, "TESK2", "cofilin", s));
  const json view = grappi::report_view(*kb.kg, side);
  REQUIRE(view["items"].size() == side.size());
  std::set<std::string> answers;
  for (const json &n : view["nodes"])
    if (n["role"] == "answer") answers.insert(n["external_id"].get<std::string>());
  for (std::size_t i = 0; i < side.size(); ++i) {
    const json &item = view["items"][i];
    CHECK(item["title"].get<std::string>().rfind(std::string(grappi::to_string(side[i].strategy)) + ": " + side[i].term->id, 0) == 0);
    CHECK(item["score"] == side[i].best_score);
    CHECK(answers.count(side[i].term->id) == 1);
  }
  CHECK(grappi::report_view(*kb.kg, std::vector<grappi::GroundingResult>{side[0]}) == grappi::report_view(*kb.kg, side[0]));
  std::vector<grappi::GroundingResult> mixed = {side[0], g.ground(text, "cofilin", "TESK2")};
  CHECK_THROWS_WITH_AS(grappi::report_view(*kb.kg, mixed), doctest::Contains("one pair under one root"), grappi::Error);
  CHECK_THROWS_AS(grappi::report_view(*kb.kg, std::vector<grappi::GroundingResult>{}), grappi::Error);
  // Two proteins no sentence names together: said in the summary, and no quote.
  const auto apart = g.ground(read_file(dir + "BioInfer.d738.PMID8076212.txt") + "\nDesmoplakin is found in desmosomes.\n",
                              "plakoglobin", "desmoplakin");
  CHECK(apart.summary.find("no sentence of the text names both") != std::string::npos);
  CHECK(apart.quotes.empty());
}

TEST_CASE("Grounding refuses bad arguments and plans a dry run") {
  OntologyKb kb;
  grappi::ExtractiveModel offline;
  auto o = GroundingOptions{};
  o.root = "MI:9999";
  CHECK_THROWS_AS(grappi::Grounder(*kb.kg, offline, o), grappi::Error);
  o.root = "MI:0190";
  o.chunk_overlap = o.chunk_size;
  CHECK_THROWS_WITH_AS(grappi::Grounder(*kb.kg, offline, o), doctest::Contains("overlap"), grappi::Error);
  o = GroundingOptions{};
  o.ontology = "go";
  CHECK_THROWS_WITH_AS(grappi::Grounder(*kb.kg, offline, o), doctest::Contains("is a term of 'mi', not of the ontology 'go'"),
                       grappi::Error);
  o.ontology = "MI";
  CHECK(grappi::Grounder(*kb.kg, offline, o).terms() == 146);
  o = GroundingOptions{};
  o.batch = 0;
  CHECK_THROWS_AS(grappi::Grounder(*kb.kg, offline, o), grappi::Error);
  const grappi::Grounder g(*kb.kg, offline, GroundingOptions{});
  CHECK_THROWS_AS(g.ground("   ", "A", "B"), grappi::Error);
  CHECK_THROWS_AS(g.ground(kText, "", "B"), grappi::Error);
  // A protein neither in the database nor in the text (a typo) is not grounded with confidence.
  CHECK_THROWS_WITH_AS(g.ground(kText, "CDC28", "ZZTOP9"),
                       doctest::Contains("'ZZTOP9' is neither a protein of the database nor written in the text"), grappi::Error);
  CHECK_NOTHROW(g.check_names(kText + std::string(" ZZTOP9 binds."), "CDC28", "ZZTOP9"));  // written in the text
  CHECK(grappi::grounding_strategy("rag") == GroundingStrategy::rag);
  CHECK_THROWS_WITH_AS(grappi::grounding_strategy("astar"), doctest::Contains("known: bfs"), grappi::Error);
  // A dry run sends nothing and bounds the cost: 146 one-term requests, a summary and a pick.
  Script script;
  auto model = model_of(script);
  auto dry = GroundingOptions{};
  dry.dry_run = true;
  const auto plan = grappi::Grounder(*kb.kg, *model, dry).ground(kText, "CDC28", "SIC1");
  CHECK(plan.dry_run);
  CHECK(plan.estimated_calls == 148);
  CHECK(plan.estimated_prompt_tokens > 146 * 100);
  CHECK(script.summaries + script.scores + script.picks == 0);
  dry.strategy = GroundingStrategy::stuff;
  const auto stuff = grappi::Grounder(*kb.kg, *model, dry).ground(kText, "CDC28", "SIC1");
  CHECK(stuff.estimated_calls == 3);
  CHECK(stuff.estimated_prompt_tokens > 9000);  // every term's definition in one request (~12k tokens)
}

TEST_CASE("Grounding many pairs with a language model asks first when the dry-run bound passes confirm_calls") {
  OntologyKb kb;
  Script script;
  auto model = model_of(script);
  auto o = GroundingOptions{};
  o.use_cache = false;
  o.confirm_calls = 500;  // (the command line's default)
  const grappi::Grounder g(*kb.kg, *model, o);
  // 4 pairs x 148 calls at most (a summary, 146 terms, a pick) = 592: nothing is sent.
  const std::vector<grappi::GroundingJob> jobs(4, grappi::GroundingJob{kText, "CDC28", "SIC1"});
  CHECK_THROWS_WITH_AS(g.ground(jobs, {GroundingStrategy::bfs}, 2), doctest::Contains("could make 592 model calls"),
                       grappi::Error);
  CHECK(script.summaries + script.scores + script.picks == 0);
  // 3 pairs (444) pass; so do 4 pairs with stuff (3 calls each) or a budget per grounding.
  const std::vector<grappi::GroundingJob> three(3, grappi::GroundingJob{kText, "CDC28", "SIC1"});
  auto dry = o;
  dry.dry_run = true;  // (a dry run is never refused: it is how the bound is seen)
  CHECK(grappi::Grounder(*kb.kg, *model, dry).ground(jobs, {GroundingStrategy::bfs}, 2).size() == 4);
  CHECK_NOTHROW(g.ground(three, {GroundingStrategy::bfs}, 2));
  CHECK(script.summaries > 0);
  CHECK_NOTHROW(g.ground(jobs, {GroundingStrategy::stuff}, 2));
  auto budget = o;
  budget.max_calls = 5;
  CHECK_NOTHROW(grappi::Grounder(*kb.kg, *model, budget).ground(jobs, {GroundingStrategy::bfs}, 2));
  // The offline model is never refused: it makes no model call. A batch reports its pairs.
  grappi::ExtractiveModel offline;
  std::vector<std::size_t> seen;
  std::mutex seen_mu;
  auto watched = o;
  watched.progress = [&](const std::string &stage, std::size_t done, std::size_t total) {
    std::lock_guard<std::mutex> lock(seen_mu);
    CHECK(stage == "pairs");
    CHECK(total == 4);
    seen.push_back(done);
  };
  CHECK_NOTHROW(grappi::Grounder(*kb.kg, offline, watched).ground(jobs, {GroundingStrategy::bfs}, 2));
  CHECK(seen == std::vector<std::size_t>{1, 2, 3, 4});
}

TEST_CASE("The grounding evaluation reads IntAct rows as gold and places each prediction in PSI-MI") {
  OntologyKb kb;
  const std::string dir = std::string(GRAPPI_TEST_DATA_DIR) + "/literature/";
  // MITAB 2.5 rows: three pairs of PMID 11418599 with hand-picked types, one pair in a paper
  // without a text, and a row without a PubMed id.
  const auto row = [](const std::string &a, const std::string &b, const std::string &pub, const std::string &type,
                      const std::string &score) {
    return "uniprotkb:P" + a + "\tuniprotkb:P" + b + "\t-\t-\tuniprotkb:" + a + "(gene name)\tuniprotkb:" + b +
           "(gene name)\tpsi-mi:\"MI:0424\"(protein kinase assay)\t-\t" + pub + "\ttaxid:9606\ttaxid:9606\tpsi-mi:\"" + type +
           "\"(t)\tpsi-mi:\"MI:0469\"(IntAct)\tintact:EBI-1\tintact-miscore:" + score + "\n";
  };
  const std::string mitab = "#ID(s) interactor A\tID(s) interactor B\n" + row("AAA1", "BBB1", "pubmed:11418599", "MI:0403", "0.30") +
                            row("AAA2", "BBB2", "pubmed:11418599", "MI:0407", "0.50") +
                            row("BBB2", "AAA2", "pubmed:11418599", "MI:0407", "0.70") +  // the same pair reversed
                            row("AAA3", "BBB3", "pubmed:11418599", "MI:0915", "0.40") +
                            row("AAA4", "BBB4", "pubmed:11418599", "MI:0915", "0.40") +
                            row("AAA5", "BBB5", "pubmed:99999999", "MI:0915", "0.40") + row("AAA6", "BBB6", "-", "MI:0915", "0.40");
  write_file(kb.d.file("gold.mitab"), mitab);
  std::size_t skipped = 0;
  const auto gold = grappi::read_grounding_gold(kb.d.file("gold.mitab"), &skipped);
  CHECK(skipped == 1);
  REQUIRE(gold.size() == 5);
  CHECK(gold[1].protein_a == "AAA2");
  CHECK(gold[1].rows == 2);
  CHECK(gold[1].miscore == doctest::Approx(0.7));
  CHECK(gold[1].terms == std::vector<std::string>{"MI:0407"});
  // A scripted model that scores one term 5 per pair: the prediction.
  const std::map<std::string, std::string> predict = {
      {"AAA1", "MI:0407"}, {"AAA2", "MI:0915"}, {"AAA3", "MI:0407"}, {"AAA4", "MI:0915"}};
  grappi::CallbackModel model("eval", [&predict](const grappi::ChatRequest &q) {
    grappi::ChatResponse r;
    const std::string kind = q.task["kind"];
    if (kind == "ground.summary") r.content = R"({"summary": "They interact.", "quotes": []})";
    if (kind == "ground.pick") r.content = json{{"term", q.task["terms"][0]["id"]}, {"confidence", 3}}.dump();
    if (kind == "ground.score") {
      json s = json::object();
      const std::string want = predict.at(q.task["protein_a"].get<std::string>());
      for (const auto &t : q.task["terms"]) s[t["id"].get<std::string>()] = t["id"] == want ? 5 : 1;
      r.content = json{{"scores", s}}.dump();
    }
    return r;
  });
  auto o = with(GroundingStrategy::stuff);
  const grappi::Grounder g(*kb.kg, model, o);
  const std::map<std::string, std::string> texts = {{"11418599", read_file(dir + "BioInfer.d403.PMID11418599.txt")}};
  const auto ev = grappi::evaluate_grounding(g, gold, texts, {GroundingStrategy::stuff}, 2);
  CHECK(ev.without_text == 1);
  REQUIRE(ev.cases.size() == 4);
  // Hand-computed on PSI-MI: MI:0407 direct interaction < MI:0915 physical association <
  // MI:0914 association < MI:2232 molecular association < MI:0190; MI:0403 colocalization <
  // MI:0190.
  const auto &c = ev.cases;
  CHECK(c[0].predicted == "MI:0407");  // gold MI:0403: another branch, 4 up and 1 down
  CHECK(c[0].relation == "related");
  CHECK(c[0].distance == 5u);
  CHECK(c[0].lca_depth == 0u);
  CHECK(c[1].relation == "ancestor");  // MI:0915 above the gold MI:0407
  CHECK(c[1].distance == 1u);
  CHECK(c[1].lca_depth == 3u);
  CHECK(c[2].relation == "descendant");  // MI:0407 below the gold MI:0915
  CHECK(c[2].distance == 1u);
  CHECK(c[2].lca_depth == 3u);
  CHECK(c[3].relation == "exact");
  CHECK(c[3].distance == 0u);
  CHECK(c[3].lca_depth == 3u);
  REQUIRE(ev.figures.size() == 1);
  const auto &f = ev.figures[0];
  CHECK(f.cases == 4);
  CHECK(f.exact == 1);
  CHECK(f.ancestor == 1);
  CHECK(f.descendant == 1);
  CHECK(f.related == 1);
  CHECK(f.mean_distance == doctest::Approx(7.0 / 4));
  CHECK(f.calls_per_grounding == doctest::Approx(3.0));  // summary, one stuff request, pick
  REQUIRE(f.by_confidence.count("3"));
  CHECK(std::get<0>(f.by_confidence.at("3")) == 4);
  CHECK(std::get<2>(f.by_confidence.at("3")) == doctest::Approx((0.3 + 0.7 + 0.4 + 0.4) / 4));
  // Judges: one that always prefers the first term shown (the order alternates from case to
  // case), one that always says tie, one that answers garbage.
  const auto judge = [](const std::string &answer) {
    return std::make_shared<grappi::CallbackModel>("judge " + answer, [answer](const grappi::ChatRequest &q) {
      CHECK(q.task["kind"] == "ground.judge");
      CHECK(q.task["terms"].size() == 2);
      grappi::ChatResponse r;
      r.content = answer;
      return r;
    });
  };
  const auto first = judge(R"({"better": "1"})"), tie = judge(R"({"better": "tie"})"), garbage = judge("no idea");
  const auto judged = grappi::evaluate_grounding(g, gold, texts, {GroundingStrategy::stuff}, 2, {first.get()});
  std::vector<std::string> verdicts;
  for (const auto &x : judged.cases) verdicts.push_back(x.verdict);
  CHECK(verdicts == std::vector<std::string>{"win", "loss", "win", "tie"});  // the prediction shown first in cases 0 and 2
  CHECK(judged.figures[0].wins == 2);
  CHECK(judged.figures[0].losses == 1);
  CHECK(judged.figures[0].ties == 1);
  const auto two = grappi::evaluate_grounding(g, gold, texts, {GroundingStrategy::stuff}, 2, {first.get(), tie.get()});
  CHECK(two.cases[0].verdict == "disagree");
  CHECK(two.cases[3].verdict == "tie");  // an exact match needs no judge
  CHECK(two.figures[0].disagreements == 3);
  const auto failed = grappi::evaluate_grounding(g, gold, texts, {GroundingStrategy::stuff}, 2, {garbage.get()});
  CHECK(failed.cases[0].verdict == "failed");
  CHECK_THROWS_AS(grappi::evaluate_grounding(g, gold, texts, {GroundingStrategy::stuff}, 2,
                                             {first.get(), tie.get(), garbage.get()}),
                  grappi::Error);
  // The most-frequent-term baseline: MI:0915 (two cases) for every case: exact twice, above
  // case 1's MI:0407, elsewhere for case 0's MI:0403.
  CHECK(ev.most_frequent.term == "MI:0915");
  CHECK(ev.most_frequent.cases == 4);
  CHECK(ev.most_frequent.exact == 2);
  CHECK(ev.most_frequent.ancestor == 1);
  CHECK(ev.most_frequent.descendant == 0);
  CHECK_FALSE(ev.offline_judge);
  grappi::ExtractiveModel offline;
  CHECK(grappi::evaluate_grounding(g, gold, texts, {GroundingStrategy::stuff}, 2, {&offline}).offline_judge);
  // No text for any gold case: an error, not a table of zeros.
  CHECK_THROWS_WITH_AS(grappi::evaluate_grounding(g, gold, {{"1", "unrelated"}}, {GroundingStrategy::stuff}, 2),
                       doctest::Contains("none of the 5 gold case(s) has a text"), grappi::Error);
  const json j = grappi::to_json(ev);
  CHECK(j["figures"][0]["exact"] == 1);
  CHECK(j["cases"][0]["distance"] == 5);
  CHECK(j["baselines"]["most_frequent"]["exact"] == 2);
  // A malformed row is named by file and line.
  write_file(kb.d.file("bad.mitab"), "uniprotkb:P1\tuniprotkb:P2\n");
  CHECK_THROWS_WITH_AS(grappi::read_grounding_gold(kb.d.file("bad.mitab")), doctest::Contains("bad.mitab:1: expected 15"),
                       grappi::Error);
}
