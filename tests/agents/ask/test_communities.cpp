// Community reports (grappi/communities.hpp) on a network whose communities are known (two 4-cliques at 0.9 joined
// by a bridge at 0.5, each clique in a KEGG pathway of its own): the reports' members, terms and edges, the
// extractive summary, a model's summary kept only when its citations are the report's, the stored set read back
// (and stale once the graph changes), damaged sets refused, and ask's modules answer read from the stored set.
#include <doctest/doctest.h>

#include <set>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using testutil::TempDir;
using testutil::write_file;
using grappi::CommunityOptions;
using grappi::CommunitySet;
using grappi::KnowledgeGraph;

namespace {

void build(KnowledgeGraph &kg, TempDir &d) {
  std::string info = "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n";
  for (const char *n : {"A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"})
    info += std::string("9606.") + n + "\t" + n + "\t1\tprotein " + n + "\n";
  write_file(d.file("info.txt"), info);
  std::string links = "protein1 protein2 combined_score\n";
  const auto link = [&](const std::string &a, const std::string &b, int s) {
    links += "9606." + a + " 9606." + b + " " + std::to_string(s) + "\n9606." + b + " 9606." + a + " " + std::to_string(s) + "\n";
  };
  for (const char *g : {"A", "B"})
    for (int i = 1; i <= 4; ++i)
      for (int j = i + 1; j <= 4; ++j) link(g + std::to_string(i), g + std::to_string(j), i == 1 ? 990 : 900);
  link("A1", "B1", 500);
  write_file(d.file("links.txt"), links);
  std::string terms = "#node\tidentifier\tcategory\tterm ID\tterm description\n";
  for (int i = 1; i <= 4; ++i) {
    terms += "A" + std::to_string(i) + "\t9606.A" + std::to_string(i) + "\tKEGG\thsa00001\tPathway one\n";
    terms += "B" + std::to_string(i) + "\t9606.B" + std::to_string(i) + "\tKEGG\thsa00002\tPathway two\n";
  }
  write_file(d.file("string_functional_annotations.tsv"), terms);
  kg.import({{d.file("info.txt"), "info"}});
  kg.import({{d.file("links.txt"), "links"}});
  kg.import({{d.file("string_functional_annotations.tsv")}});
}

std::set<std::string> names_of(const grappi::CommunityReport &r) { return {r.names.begin(), r.names.end()}; }

grappi::ChatResponse answer(const std::string &content) {
  grappi::ChatResponse a;
  a.content = content;
  a.prompt_tokens = 100;
  a.completion_tokens = 20;
  return a;
}

}  // namespace

TEST_CASE("Community reports hold each community's members hubs terms and strongest edges with an extractive summary") {
  TempDir d;
  KnowledgeGraph kg(d.file("c.db"));
  build(kg, d);
  grappi::ExtractiveModel offline;
  const CommunitySet s = grappi::build_communities(kg, offline);
  CHECK(s.name == "default");
  CHECK(s.method == "leiden");
  CHECK(s.min_score == doctest::Approx(0.7));
  CHECK(s.nodes == 8);
  CHECK(s.edges == 12);  // (the bridge is below 0.7)
  CHECK(s.communities == 2);
  CHECK(s.generation == kg.generation());
  CHECK(s.usage.model_calls == 0);
  CHECK(s.usage.local_answers == 2);
  REQUIRE(s.reports.size() == 2);
  std::set<std::set<std::string>> found;
  for (const auto &r : s.reports) {
    CAPTURE(r.id);
    found.insert(names_of(r));
    CHECK(r.level == 0);
    CHECK(r.parent.empty());
    CHECK(r.members.size() == 4);
    CHECK(r.nodes.size() == 4);
    CHECK(r.internal_edges == 6);
    CHECK(r.external_edges == 0);
    // The hub first: A1 (or B1), whose edges are the strongest.
    CHECK((r.hubs.front() == "A1" || r.hubs.front() == "B1"));
    REQUIRE(r.terms.size() == 1);
    CHECK(r.terms[0].term == (r.hubs.front() == "A1" ? "kegg:hsa00001" : "kegg:hsa00002"));
    CHECK(r.terms[0].observed == 4);
    CHECK(r.terms[0].fdr == doctest::Approx(1.0 / 70));  // (4 of the 8 annotated, all four in the set)
    REQUIRE(r.edges.size() == 5);
    CHECK(r.edges[0].score == doctest::Approx(0.99));
    CHECK(r.edges[4].score == doctest::Approx(0.9));
    CHECK(r.edges[0].source.rfind("9606.", 0) == 0);
    CHECK(r.summary_status == "extractive");
    CHECK(r.summary_by == "extractive:v1");
    CHECK(r.summary.rfind("Extractive summary (not a language model): a community of 4 proteins around " + r.hubs[0], 0) == 0);
    CHECK(r.summary.find(r.terms[0].term) != std::string::npos);
    CHECK(std::find(r.citations.begin(), r.citations.end(), r.terms[0].term) != r.citations.end());
    CHECK(r.problem.empty());
  }
  CHECK(found == std::set<std::set<std::string>>{{"A1", "A2", "A3", "A4"}, {"B1", "B2", "B3", "B4"}});
  CHECK(s.reports[0].id == "C1");
  CHECK(s.reports[1].id == "C2");
  // Fewer reports when asked for; none under min_size.
  CommunityOptions o;
  o.max_reports = 1;
  CHECK(grappi::build_communities(kg, offline, o).reports.size() == 1);
  o = {};
  o.min_size = 5;
  CHECK(grappi::build_communities(kg, offline, o).reports.empty());
  // Bad options are refused.
  o = {};
  o.name = "";
  CHECK_THROWS_WITH_AS(grappi::build_communities(kg, offline, o), doctest::Contains("needs a name"), grappi::Error);
  o = {};
  o.cluster.min_score = 0.999;
  CHECK_THROWS_WITH_AS(grappi::build_communities(kg, offline, o), doctest::Contains("no edge at score"), grappi::Error);
}

TEST_CASE("A model's community summary is kept only when what it cites is the report's") {
  TempDir d;
  KnowledgeGraph kg(d.file("c.db"));
  build(kg, d);
  const auto with = [&](const std::function<std::string(const grappi::ChatRequest &)> &fn) {
    grappi::CallbackModel model("test", [fn](const grappi::ChatRequest &q) { return answer(fn(q)); });
    return grappi::build_communities(kg, model);
  };
  // Citing the community's term and hub: kept, marked checked, its facts in the prompt.
  std::string prompt;
  const CommunitySet good = with([&](const grappi::ChatRequest &q) {
    prompt = q.messages.at(1).content;
    CHECK(q.json);
    const bool a = q.messages.at(1).content.find("hsa00001") != std::string::npos;
    return nlohmann::json{{"summary", std::string("A module led by ") + (a ? "A1 in Pathway one (hsa00001)." : "B1 in Pathway two (hsa00002).")},
                          {"citations", {a ? "hsa00001" : "hsa00002", a ? "a1" : "B1"}}}
        .dump();
  });
  REQUIRE(good.reports.size() == 2);
  for (const auto &r : good.reports) {
    CHECK(r.summary_status == "checked");
    CHECK(r.summary_by == "callback:test");
    CHECK(r.summary.rfind("A module led by", 0) == 0);
    CHECK(r.citations.size() == 2);
    CHECK(r.problem.empty());
  }
  CHECK(good.usage.model_calls == 2);
  CHECK(good.usage.prompt_tokens == 200);
  CHECK(good.model == "callback:test");
  CHECK(prompt.find("Hubs (best connected first)") != std::string::npos);
  CHECK(prompt.find("Strongest links:") != std::string::npos);
  // Refused: a protein not in the community, a term id not in it, no citations, no JSON; and a failing call.
  const std::vector<std::pair<std::string, std::string>> refused = {
      {R"({"summary": "TP53 leads it.", "citations": ["TP53"]})", "cites 'TP53', neither a term nor a member"},
      {R"({"summary": "It is apoptosis (GO:0006915).", "citations": ["A1", "B1"]})", ""},
      {R"({"summary": "A module.", "citations": []})", "cites nothing"},
      {"A module of four proteins.", "not a JSON object"},
      {R"({"citations": ["A1"]})", "no \"summary\" text"}};
  for (const auto &item : refused) {
    const std::string &content = item.first, &says = item.second;
    CAPTURE(content);
    const CommunitySet s = with([&](const grappi::ChatRequest &) { return content; });
    for (const auto &r : s.reports) {
      CHECK(r.summary_status == "extractive_fallback");
      CHECK(r.summary_by == "extractive:v1");
      CHECK(r.summary.rfind("Extractive summary (not a language model)", 0) == 0);
      CHECK(r.problem.rfind("the model's summary was refused: ", 0) == 0);
      if (!says.empty()) CHECK(r.problem.find(says) != std::string::npos);
    }
    CHECK(s.usage.failed == 2);
  }
  // (the GO id case: A1 and B1 are not both in one community, and GO:0006915 is no term of either)
  const CommunitySet go = with([](const grappi::ChatRequest &q) {
    const bool a = q.messages.at(1).content.find("hsa00001") != std::string::npos;
    return nlohmann::json{{"summary", "It is apoptosis (GO:0006915)."}, {"citations", {a ? "A1" : "B1"}}}.dump();
  });
  for (const auto &r : go.reports) CHECK(r.problem.find("names GO:0006915, not a term of the community") != std::string::npos);
  // A protein of the graph outside the community named in the text (not cited) is refused too.
  const CommunitySet outside = with([](const grappi::ChatRequest &q) {
    const bool a = q.messages.at(1).content.find("hsa00001") != std::string::npos;
    return nlohmann::json{{"summary", a ? "A module that A1 and B2 lead." : "A module that B1 and A2 lead."},
                          {"citations", {a ? "A1" : "B1"}}}
        .dump();
  });
  for (const auto &r : outside.reports) {
    CHECK(r.summary_status == "extractive_fallback");
    CHECK(r.problem.find(", a protein outside the community") != std::string::npos);
  }
  const CommunitySet failed = with([](const grappi::ChatRequest &) -> std::string { throw std::runtime_error("server down"); });
  for (const auto &r : failed.reports) {
    CHECK(r.summary_status == "extractive_fallback");
    CHECK(r.problem.find("the model failed") == 0);
    CHECK(r.problem.find("server down") != std::string::npos);
  }
  CHECK(failed.usage.model_calls == 0);
  CHECK(failed.usage.failed == 2);
}

TEST_CASE("Stored community reports are read back and marked stale once the graph changes and ask reads them") {
  TempDir d;
  KnowledgeGraph kg(d.file("c.db"));
  build(kg, d);
  grappi::ExtractiveModel offline;
  grappi::EmbedOptions eo;
  eo.neighbor_ranking = false;
  grappi::embed_graph(kg, *grappi::hashing_embedder(kg), eo);
  CHECK_FALSE(grappi::load_communities(kg));
  const uint64_t generation = kg.generation();
  const CommunitySet s = grappi::build_communities(kg, offline);
  grappi::store_communities(kg, s);
  CHECK(kg.generation() == generation);  // (not a change of the graph)
  CHECK(kg.community_sets() == std::vector<std::string>{"default"});
  const auto back = grappi::load_communities(kg);
  REQUIRE(back);
  CHECK_FALSE(back->stale);
  CHECK(grappi::to_json(*back) == grappi::to_json(s));
  // ask's modules of the whole network come from the stored reports, each with its summary.
  const auto whole = grappi::ask(kg, offline, "What are the main modules of the network?");
  CAPTURE(whole.answer.text);
  CHECK(whole.status == "ok");
  REQUIRE(whole.answer.form == "modules");
  REQUIRE(whole.answer.value.size() == 2);
  for (const auto &m : whole.answer.value) {
    REQUIRE(m.contains("summary"));
    CHECK(m["summary"]["status"] == "extractive");
    CHECK(m["summary"]["text"].get<std::string>().rfind("Extractive summary", 0) == 0);
  }
  CHECK(whole.answer.looked_up.find("the stored community reports 'default'") != std::string::npos);
  CHECK(whole.answer.note.find("2 community report(s) stored") != std::string::npos);
  CHECK_FALSE(whole.answer.edges.empty());
  // Another threshold asked for: clustered anew, and said why.
  const auto strong = grappi::ask(kg, offline, "What are the main modules of the network at highest confidence?");
  CAPTURE(strong.answer.note);
  CHECK(strong.analysis.frame.min_score == doctest::Approx(0.9));
  CHECK(strong.answer.note.find("the stored community reports are at score >= 0.700, the question asks for 0.900") != std::string::npos);
  CHECK_FALSE(strong.answer.value.empty());
  CHECK_FALSE(strong.answer.value[0].contains("summary"));
  // A change of the graph makes the set stale: ask clusters anew and says so.
  write_file(d.file("more.txt"), "protein1 protein2 combined_score\n9606.A2 9606.B2 950\n9606.B2 9606.A2 950\n");
  kg.import({{d.file("more.txt"), "links"}});
  const auto stale = grappi::load_communities(kg);
  REQUIRE(stale);
  CHECK(stale->stale);
  const auto anew = grappi::ask(kg, offline, "What are the main modules of the network?");
  REQUIRE(anew.answer.form == "modules");
  CHECK(anew.answer.value[0].contains("summary") == false);
  CHECK(anew.answer.note.find("predate a change of the graph") != std::string::npos);
  // A damaged set: ask says so and clusters anew.
  grappi::StoredCommunitySet damaged;
  damaged.name = "default";
  damaged.generation = kg.generation();
  damaged.spec = "{}";
  damaged.reports = "[]";
  kg.store_community_set(damaged);
  const auto unread = grappi::ask(kg, offline, "What are the main modules of the network?");
  REQUIRE(unread.answer.form == "modules");
  CHECK_FALSE(unread.answer.value.empty());
  CHECK(unread.answer.note.find("the stored community reports cannot be read (community reports 'default': malformed") != std::string::npos);
  // Removed, it is gone; a damaged set is refused with its name.
  CHECK(kg.remove_community_set("default"));
  CHECK_FALSE(kg.remove_community_set("default"));
  grappi::StoredCommunitySet bad;
  bad.name = "damaged";
  bad.spec = grappi::dump_json(grappi::to_json(s));
  bad.reports = R"([{"id": "C1"}])";
  kg.store_community_set(bad);
  CHECK_THROWS_WITH_AS(grappi::load_communities(kg, "damaged"), doctest::Contains("community reports 'damaged'"), grappi::Error);
  bad.reports = "not json";
  kg.store_community_set(bad);
  CHECK_THROWS_WITH_AS(grappi::load_communities(kg, "damaged"), doctest::Contains("is not JSON"), grappi::Error);
  bad.name = "";
  CHECK_THROWS_AS(kg.store_community_set(bad), grappi::Error);
}
