// HTML reports: the report views of explore and hypothesize (nodes, edges, items, roles, what
// is marked as not written by a language model), the page (self-contained, the view embedded
// safely, hostile names escaped, the static table), name completion and cancelling explore.
// The pages are opened in Chromium by tests/browser (ctest browser_*).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <set>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using nlohmann::json;

namespace {

// A tau neighborhood; one protein's name and annotation are hostile HTML.
void build_graph(grappi::KnowledgeGraph &kg) {
  auto node = [&](const std::string &id, const std::string &name, const std::string &annotation) {
    grappi::NodeInput n;
    n.external_id = "9606." + id;
    n.name = name;
    n.annotation = annotation;
    return kg.add_node(n);
  };
  const auto mapt = node("MAPT", "MAPT", "Microtubule-associated protein tau; hyperphosphorylated tau forms tangles");
  const auto gsk = node("GSK3B", "GSK3B", "Glycogen synthase kinase-3 beta; phosphorylates tau at many sites");
  const auto cdk = node("CDK5", "CDK5", "Cyclin-dependent kinase 5; phosphorylates tau");
  const auto bad = node("EVIL", "</script><script>alert(1)</script>", "Kinase \"quoted\" & <b>bold</b>; phosphorylates tau");
  auto edge = [&](int64_t a, int64_t b, double score, std::vector<int64_t> pmids = {}) {
    grappi::EdgeInput e;
    e.source = a;
    e.target = b;
    e.relation = "string.combined";
    e.score = score;
    e.channels = {{"experimental", score * 0.9}, {"database", 0.5}};
    e.pmids = std::move(pmids);
    kg.add_edge(e);
  };
  edge(mapt, gsk, 0.999, {10722751});
  edge(mapt, cdk, 0.99);
  edge(gsk, cdk, 0.8);
  edge(mapt, bad, 0.7);
  edge(bad, gsk, 0.6);
}

grappi::ExploreOptions options() {
  grappi::ExploreOptions o;
  o.query = "inhibit tau phosphorylation";
  o.window.k = {4, 2};
  o.window.depth = 2;
  o.max_length = 3;
  o.concurrency = 2;
  return o;
}

std::set<std::string> ids_of(const json &array) {
  std::set<std::string> out;
  for (const auto &x : array) out.insert(x["id"].get<std::string>());
  return out;
}

// The JSON embedded in a page, as the page's script reads it.
json embedded_view(const std::string &page) {
  const std::string open = "<script type=\"application/json\" id=\"grappi-view\">";
  const auto from = page.find(open);
  REQUIRE(from != std::string::npos);
  const auto to = page.find("</script>", from);
  REQUIRE(to != std::string::npos);
  return json::parse(page.substr(from + open.size(), to - from - open.size()));
}

}  // namespace

TEST_CASE("explore's report view: every protein and window edge once / roles / ranked paths over known edges" *
          doctest::test_suite("threads")) {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  build_graph(kg);
  const grappi::AgentPipeline pipe(kg, std::make_shared<grappi::ExtractiveModel>());
  const grappi::ExploreResult r = pipe.explore("MAPT", options());
  REQUIRE_FALSE(r.paths.empty());
  const json v = grappi::report_view(r);
  CHECK(v["format"] == "grappi-report-view");
  CHECK(v["kind"] == "explore");
  CHECK(v["nodes"].size() == r.proteins.size());
  const auto nodes = ids_of(v["nodes"]);
  const auto edges = ids_of(v["edges"]);
  CHECK(nodes.size() == v["nodes"].size());
  CHECK(edges.size() == v["edges"].size());
  std::set<int64_t> distinct;
  for (const auto &w : r.windows)
    for (const auto &e : w.edges) distinct.insert(e.edge);
  CHECK(v["edges"].size() == distinct.size());
  for (const auto &e : v["edges"]) {
    CHECK(nodes.count(e["source"].get<std::string>()) == 1);
    CHECK(nodes.count(e["target"].get<std::string>()) == 1);
  }
  std::size_t roots = 0;
  for (const auto &n : v["nodes"]) {
    roots += n["role"] == "root";
    if (n["role"] == "root") CHECK(n["label"] == "MAPT");
  }
  CHECK(roots == 1);
  REQUIRE(v["items"].size() == r.paths.size() + r.failed.size());
  for (std::size_t i = 0; i < r.paths.size(); ++i) {
    const json &it = v["items"][i];
    CHECK(it["rank"] == r.paths[i].rank);
    CHECK(it["score"].get<double>() == doctest::Approx(r.paths[i].relevance_score));
    CHECK(it["text"] == r.paths[i].explanation);
    CHECK(it["generated"] == false);  // the extractive model
    CHECK(it["nodes"].size() == r.paths[i].nodes.size());
    CHECK(it["edges"].size() == r.paths[i].edges.size());
    for (const auto &n : it["nodes"]) CHECK(nodes.count(n.get<std::string>()) == 1);
    for (const auto &e : it["edges"]) CHECK(edges.count(e.get<std::string>()) == 1);
  }
  // Path members are marked; the explained edges carry their explanation and evidence.
  for (const auto &n : v["nodes"])
    if (n["role"] == "context") {
      for (const auto &p : r.paths) CHECK(std::find(p.nodes.begin(), p.nodes.end(), std::stoll(n["id"].get<std::string>().substr(1))) == p.nodes.end());
    }
  bool pmid_seen = false;
  for (const auto &e : v["edges"])
    if (e.contains("explanation")) {
      CHECK(e["generated"] == false);
      CHECK(e.contains("channels"));
      pmid_seen = pmid_seen || (e.contains("pmids") && e["pmids"][0] == 10722751);
    }
  CHECK(pmid_seen);
  CHECK(v["offline_note"].get<std::string>().find("not written by a language model") != std::string::npos);
  CHECK(v["provenance"].contains("model"));
}

TEST_CASE("HTML page: self-contained / the view embedded intact / hostile names escaped / static table" *
          doctest::test_suite("threads")) {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  build_graph(kg);
  const grappi::AgentPipeline pipe(kg, std::make_shared<grappi::ExtractiveModel>());
  const grappi::ExploreResult r = pipe.explore("MAPT", options());
  const json v = grappi::report_view(r);
  const std::string page = grappi::to_html(r);
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  // No resource from the network: no src or href attribute but PubMed links made at run time.
  CHECK(page.find("src=\"http") == std::string::npos);
  CHECK(page.find("<link") == std::string::npos);
  CHECK(page.find("cytoscape") != std::string::npos);
  CHECK(page.find("GrappiReport.render") != std::string::npos);
  // The hostile name appears only escaped: the embedded JSON has no '<', the table entities.
  CHECK(page.find("<script>alert(1)") == std::string::npos);
  CHECK(page.find("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(embedded_view(page) == v);
  // One static table row per item.
  const std::string table = page.substr(page.find("<table class=\"ranked\">"));
  std::size_t rows = 0;
  for (std::size_t at = 0; (at = table.find("<tr><td", at)) != std::string::npos; ++at) ++rows;
  CHECK(rows == v["items"].size());
  CHECK(page.find("not written by a language model") != std::string::npos);

  // A view that is not one is refused.
  CHECK_THROWS_AS(grappi::html_report("{\"nodes\": []}"), grappi::Error);
  CHECK_THROWS_AS(grappi::html_report("not json"), grappi::Error);
  CHECK_THROWS_AS(grappi::html_report("[1]"), grappi::Error);
  // An empty view is a page that says so.
  const std::string empty = grappi::html_report(R"({"nodes": [], "edges": [], "items": [], "title": "nothing"})");
  CHECK(empty.find("Nothing ranked.") != std::string::npos);
  // Invalid UTF-8 in a name does not break the page.
  json odd = {{"nodes", json::array({{{"id", "n1"}, {"label", "ok"}, {"role", "root"}}})}, {"edges", json::array()},
              {"items", json::array({{{"rank", 1}, {"title", std::string("bad \xff byte")}, {"nodes", json::array({"n1"})}}})}};
  const std::string odd_page = grappi::to_html(odd);
  CHECK(odd_page.find("bad \xef\xbf\xbd byte") != std::string::npos);
}

TEST_CASE("hypothesis report view: the paths' concepts and edges / the explanation's checks as a section") {
  grappi::HypothesisResult r;
  r.source = 1;
  r.target = 3;
  r.source_name = "Axonin";
  r.target_name = "Tumorin";
  grappi::HypothesisPath p;
  p.nodes = {1, 2, 3};
  p.names = {"Axonin", "Betalin", "Tumorin"};
  p.labels = {"Gene", "Gene", "Disease"};
  p.edges = {10, 11};
  p.relations = {"cooc.document", "cooc.document"};
  p.weights = {0.5, 0.7};
  p.support = {3, 2};
  p.pmids = {{111, 112}, {113}};
  p.score = 0.6;
  grappi::HypothesisPath direct;
  direct.nodes = {1, 3};
  direct.names = {"Axonin", "Tumorin"};
  direct.edges = {12};
  direct.relations = {"cooc.document"};
  direct.weights = {0.2};
  direct.score = 0.2;
  r.paths = {p, direct};
  grappi::HypothesisRound round;
  round.status = "ok";
  grappi::HypothesisSentence s;
  s.text = "Axonin binds Betalin.";
  s.status = "supported";
  s.checks = {{"Axonin", "Betalin", true, {"cooc.document"}}};
  round.sentences = {s};
  r.rounds = {round};
  r.final_round = 0;
  r.offline = true;
  r.stop_reason = "converged";
  const json v = grappi::report_view(r);
  CHECK(v["kind"] == "hypothesize");
  CHECK(v["nodes"].size() == 3);
  CHECK(v["edges"].size() == 3);
  REQUIRE(v["items"].size() == 2);
  CHECK(v["items"][0]["title"] == "Axonin \u2014 Betalin \u2014 Tumorin");
  CHECK(v["items"][0]["edges"] == json::array({"e10", "e11"}));
  std::size_t ends = 0;
  for (const auto &n : v["nodes"]) ends += n["role"] == "root";
  CHECK(ends == 2);
  REQUIRE(v["sections"].size() == 1);
  CHECK(v["sections"][0]["entries"][0]["status"] == "supported");
  CHECK(v["offline_note"].is_string());
  const std::string page = grappi::to_html(r);
  CHECK(page.find("Axonin binds Betalin.") != std::string::npos);  // the section, without scripts
}

TEST_CASE("name completion: names then aliases then external ids / any case / one entry per node / bounded") {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  build_graph(kg);
  kg.add_alias(kg.resolve("MAPT"), "TAU", "test");
  kg.add_alias(kg.resolve("MAPT"), "MTBT1", "test");
  auto c = kg.complete("m");
  REQUIRE_FALSE(c.empty());
  CHECK(c[0].name == "MAPT");
  CHECK(c[0].matched_by == "name");
  CHECK(c.size() == 1);  // MTBT1 is MAPT's too: one entry per node
  c = kg.complete("ta");
  REQUIRE(c.size() == 1);
  CHECK(c[0].name == "MAPT");
  CHECK(c[0].matched == "TAU");
  CHECK(c[0].matched_by == "alias");
  c = kg.complete("9606.CD");
  REQUIRE(c.size() == 1);
  CHECK(c[0].name == "CDK5");
  CHECK(c[0].matched_by == "external_id");
  CHECK(kg.complete("").empty());
  CHECK(kg.complete("zz").empty());
  CHECK(kg.complete("%").empty());  // no LIKE wildcard
  CHECK(kg.complete("", 5).empty());
  CHECK(kg.complete("9606.", 2).size() == 2);
  CHECK(kg.complete("9606.", 1000).size() == 4);
}

TEST_CASE("explore cancelled by the caller: partial / requests not sent are skipped" * doctest::test_suite("threads")) {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  build_graph(kg);
  std::atomic<int> calls{0};
  auto model = std::make_shared<grappi::CallbackModel>("counter", [&](const grappi::ChatRequest &q) {
    ++calls;
    grappi::ExtractiveModel x;
    return x.chat(q);
  });
  const grappi::AgentPipeline pipe(kg, model);
  auto o = options();
  o.use_cache = false;
  o.concurrency = 1;
  o.cancel = [&calls] { return calls.load() >= 2; };
  const grappi::ExploreResult r = pipe.explore("MAPT", o);
  CHECK(calls.load() == 2);
  CHECK(r.partial);
  CHECK(r.partial_reason == "cancelled by the caller");
  std::size_t skipped = 0;
  for (const auto &e : r.edges) skipped += e.status == "skipped";
  CHECK(skipped == r.edges.size() - 2);
  const json v = grappi::report_view(r);
  bool noted = false;
  for (const auto &n : v["notes"]) noted = noted || n.get<std::string>().find("cancelled") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("explore cancelled during retrieval stops inside the path search and sends nothing") {
  // 22 proteins, every pair interacting: paths of up to 6 edges from P0 number in the millions.
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("kg.db"));
  std::vector<int64_t> ids;
  for (int i = 0; i < 22; ++i)
    ids.push_back(kg.add_node({"9606.P" + std::to_string(i), "P" + std::to_string(i), "Protein", "kinase", 0, "{}"}));
  for (std::size_t i = 0; i < ids.size(); ++i)
    for (std::size_t j = i + 1; j < ids.size(); ++j) {
      grappi::EdgeInput e;
      e.source = ids[i];
      e.target = ids[j];
      e.relation = "string.combined";
      e.score = 0.9;
      kg.add_edge(e);
    }
  auto model = std::make_shared<grappi::CallbackModel>("never", [](const grappi::ChatRequest &) -> grappi::ChatResponse {
    FAIL("a cancelled run must not call the model");
    return {};
  });
  const grappi::AgentPipeline pipe(kg, model);
  grappi::ExploreOptions o;
  o.query = "kinase";
  o.window.k = {21};
  o.window.depth = 1;
  o.max_length = 6;
  o.max_paths = 10;
  o.use_cache = false;
  // Polls: after the windows, after the proteins, then every 65,536 paths of the search.
  int polls = 0;
  o.cancel = [&polls] { return ++polls >= 3; };
  const grappi::ExploreResult r = pipe.explore("P0", o);
  CHECK(r.partial);
  CHECK(r.partial_reason == "cancelled by the caller");
  CHECK(r.usage.candidate_paths_visited == 65536);
  CHECK(polls == 4);  // the one in the search, then the one after it
  CHECK(r.windows.size() == 1);
  CHECK(r.edges.empty());
  // Cancelled before anything: the windows alone.
  polls = 0;
  o.cancel = [&polls] { return ++polls >= 1; };
  const grappi::ExploreResult first = pipe.explore("P0", o);
  CHECK(first.partial_reason == "cancelled by the caller");
  CHECK(first.usage.candidate_paths_visited == 0);
}
