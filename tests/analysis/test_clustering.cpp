// Clusters (grappi/clustering.hpp) on hand-made networks whose clusters are known: two cliques
// joined by a weak bridge for MCL, Leiden and CPM with the modularity written out here; a planted
// partition for the hierarchy's invariants; sets, names, JSON and bad options. (tests/check_clusters.py
// compares MCL with Debian's mcl and Leiden with python3-leidenalg on STRING's networks.)
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::ClusterMethod;
using grappi::ClusterOptions;
using grappi::KnowledgeGraph;

namespace {

// Proteins by name (taxon 9606) and undirected links with STRING scores (0-1000).
void build(KnowledgeGraph &kg, TempDir &d, const std::vector<std::string> &names,
           const std::vector<std::tuple<std::string, std::string, int>> &links) {
  std::string info = "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n";
  for (const std::string &n : names) info += "9606." + n + "\t" + n + "\t1\tprotein " + n + "\n";
  write_file(d.file("info.txt"), info);
  std::string text = "protein1 protein2 combined_score\n";
  for (const auto &[a, b, s] : links)
    text += "9606." + a + " 9606." + b + " " + std::to_string(s) + "\n9606." + b + " 9606." + a + " " + std::to_string(s) + "\n";
  write_file(d.file("links.txt"), text);
  kg.import({{d.file("info.txt"), "info"}});
  kg.import({{d.file("links.txt"), "links"}});
}

// Two 4-cliques A1-A4 and B1-B4 at 0.9, the bridge A1-B1 at 0.5, and C1-C2 at 0.3.
std::vector<std::tuple<std::string, std::string, int>> two_cliques() {
  std::vector<std::tuple<std::string, std::string, int>> links;
  for (const char *g : {"A", "B"})
    for (int i = 1; i <= 4; ++i)
      for (int j = i + 1; j <= 4; ++j) links.emplace_back(g + std::to_string(i), g + std::to_string(j), 900);
  links.emplace_back("A1", "B1", 500);
  links.emplace_back("C1", "C2", 300);
  return links;
}

const std::vector<std::string> kTwoCliqueNames = {"A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4", "C1", "C2"};

// The clusters of the top level as sets of names.
std::set<std::set<std::string>> top_sets(const KnowledgeGraph &kg, const grappi::ClusteringResult &r) {
  const auto s = kg.snapshot();
  std::set<std::set<std::string>> out;
  for (const auto &c : r.clusters) {
    if (c.level != 0) continue;
    std::set<std::string> names;
    for (int64_t id : c.members) names.insert(s->name(*s->index_of(id)));
    out.insert(names);
  }
  return out;
}

const std::set<std::string> kA = {"A1", "A2", "A3", "A4"}, kB = {"B1", "B2", "B3", "B4"};

}  // namespace

TEST_CASE("MCL and Leiden find two cliques joined by a weak bridge") {
  TempDir d;
  KnowledgeGraph kg(d.file("two.db"));
  build(kg, d, kTwoCliqueNames, two_cliques());
  ClusterOptions o;
  o.terms = 0;
  for (ClusterMethod m : {ClusterMethod::mcl, ClusterMethod::leiden_modularity}) {
    CAPTURE(grappi::to_string(m));
    o.method = m;
    const auto r = grappi::cluster(kg, {}, o);
    // (C1-C2 is below the default 0.4: not in the network)
    CHECK(r.nodes.size() == 8);
    CHECK(r.edges == 13);
    CHECK(top_sets(kg, r) == std::set<std::set<std::string>>{kA, kB});
    // Modularity by hand: W = 11.3, each clique 5.4 inside and degrees summing to 11.3.
    CHECK(r.modularity == doctest::Approx(2 * (5.4 / 11.3 - 0.25)).epsilon(1e-6));
    REQUIRE(r.clusters.size() == 2);
    for (const auto &c : r.clusters) {
      CHECK(c.internal_edges == 6);
      CHECK(c.external_edges == 1);
      CHECK(c.internal_weight == doctest::Approx(5.4).epsilon(1e-6));
      // (the bridge's end is the hub: the highest weighted degree within the cluster ties, and
      // the external id breaks it)
      CHECK(c.members.size() == 4);
    }
  }
  // MCL settles and says so; a lower threshold takes C1-C2 in as a third cluster.
  o.method = ClusterMethod::mcl;
  o.min_score = 0.2;
  const auto low = grappi::cluster(kg, {}, o);
  CHECK(low.converged);
  CHECK(low.iterations > 1);
  CHECK(top_sets(kg, low) == std::set<std::set<std::string>>{kA, kB, {"C1", "C2"}});
  // MCL stopped early reads its last iterand and says it did not settle.
  o.max_iterations = 1;
  CHECK_FALSE(grappi::cluster(kg, {}, o).converged);
}

TEST_CASE("Leiden with the constant Potts model splits at its resolution") {
  TempDir d;
  KnowledgeGraph kg(d.file("cpm.db"));
  build(kg, d, kTwoCliqueNames, two_cliques());
  ClusterOptions o;
  o.terms = 0;
  o.method = ClusterMethod::leiden_cpm;
  // A clique's CPM quality is 5.4 - 6 gamma: worth keeping below gamma 0.9, not above it.
  o.resolution = 0.5;
  auto r = grappi::cluster(kg, {}, o);
  CHECK(top_sets(kg, r) == std::set<std::set<std::string>>{kA, kB});
  CHECK(r.quality == doctest::Approx(2 * (5.4 - 0.5 * 6)).epsilon(1e-6));
  o.resolution = 0.95;
  r = grappi::cluster(kg, {}, o);
  CHECK(r.clusters.size() == 8);
  CHECK(r.quality == doctest::Approx(0.0));
  // Several runs keep the best; the same seed gives the same partition.
  o.resolution = 0.5;
  o.runs = 5;
  CHECK(top_sets(kg, grappi::cluster(kg, {}, o)) == top_sets(kg, grappi::cluster(kg, {}, o)));
}

TEST_CASE("Hierarchical Leiden splits clusters above the size bound and keeps the levels consistent") {
  // Four planted groups of ten, dense inside (p 0.7) and sparse between (p 0.05), drawn from a
  // fixed seed.
  TempDir d;
  KnowledgeGraph kg(d.file("planted.db"));
  std::vector<std::string> names;
  for (int i = 0; i < 40; ++i) names.push_back("N" + std::to_string(i));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<std::tuple<std::string, std::string, int>> links;
  for (int i = 0; i < 40; ++i)
    for (int j = i + 1; j < 40; ++j)
      if (u(rng) < (i / 10 == j / 10 ? 0.7 : 0.05)) links.emplace_back(names[i], names[j], 500 + static_cast<int>(u(rng) * 499));
  build(kg, d, names, links);
  ClusterOptions o;
  o.terms = 0;
  o.method = ClusterMethod::leiden_modularity;
  const auto flat = grappi::cluster(kg, {}, o);
  CHECK(flat.levels == 1);
  // The planted groups, each whole.
  for (const auto &c : flat.clusters) {
    std::set<int> groups;
    const auto s = kg.snapshot();
    for (int64_t id : c.members) groups.insert(std::stoi(s->name(*s->index_of(id)).substr(1)) / 10);
    CHECK(groups.size() == 1);
  }
  CHECK(flat.clusters.size() == 4);
  o.max_cluster_size = 5;
  const auto h = grappi::cluster(kg, {}, o);
  CHECK(h.levels > 1);
  std::size_t top_members = 0;
  for (const auto &c : h.clusters) {
    CHECK(c.id < h.clusters.size());
    if (c.level == 0) {
      CHECK(c.parent == -1);
      top_members += c.members.size();
    } else {
      REQUIRE(c.parent >= 0);
      const auto &p = h.clusters[static_cast<std::size_t>(c.parent)];
      CHECK(p.level + 1 == c.level);
      CHECK(std::find(p.children.begin(), p.children.end(), c.id) != p.children.end());
    }
    if (!c.children.empty()) {
      // The children partition the cluster's members.
      std::multiset<int64_t> below;
      for (std::size_t k : c.children) below.insert(h.clusters[k].members.begin(), h.clusters[k].members.end());
      CHECK(below == std::multiset<int64_t>(c.members.begin(), c.members.end()));
      CHECK(c.members.size() > 5);
    }
  }
  CHECK(top_members == 40);
  // The top level is the flat partition, and the levels come in order.
  CHECK(top_sets(kg, h) == top_sets(kg, flat));
  for (std::size_t i = 1; i < h.clusters.size(); ++i) CHECK(h.clusters[i - 1].level <= h.clusters[i].level);
}

TEST_CASE("Clusters of a set: its induced network and members without an edge alone with names and JSON") {
  TempDir d;
  KnowledgeGraph kg(d.file("set.db"));
  build(kg, d, kTwoCliqueNames, two_cliques());
  ClusterOptions o;
  o.terms = 3;
  const auto r = grappi::cluster_names(kg, {"A1", "A2", "A3", "C1", "NOSUCH"}, o);
  REQUIRE(r.unmatched.size() == 1);
  CHECK(r.unmatched[0].first == "NOSUCH");
  CHECK(r.nodes.size() == 4);
  CHECK(r.edges == 3);
  CHECK(top_sets(kg, r) == std::set<std::set<std::string>>{{"A1", "A2", "A3"}, {"C1"}});
  // No annotations: no terms, and the reason.
  CHECK(r.terms_note.find("no annotations") != std::string::npos);
  const nlohmann::json j = grappi::to_json(kg, r);
  CHECK(j["method"] == "mcl");
  CHECK(j["clusters"][0]["size"] == 3);
  CHECK(j["clusters"][0]["parent"].is_null());
  CHECK(j["clusters"][1]["members"] == nlohmann::json({"9606.C1"}));
  CHECK(j["clusters"][1]["names"] == nlohmann::json({"C1"}));
  CHECK(j["unmatched"][0]["name"] == "NOSUCH");
  CHECK(j["modularity"].is_number());
}

TEST_CASE("Clustering refuses bad options clearly") {
  TempDir d;
  KnowledgeGraph kg(d.file("bad.db"));
  build(kg, d, kTwoCliqueNames, two_cliques());
  const auto refuses = [&](const ClusterOptions &o, const char *says) {
    CHECK_THROWS_WITH_AS(grappi::cluster(kg, {}, o), doctest::Contains(says), grappi::Error);
  };
  ClusterOptions o;
  o.inflation = 1.0;
  refuses(o, "inflation");
  o = {};
  o.min_score = 1.5;
  refuses(o, "min_score");
  o = {};
  o.runs = 0;
  refuses(o, "runs");
  o = {};
  o.resolution = -1;
  refuses(o, "resolution");
  o = {};
  o.relations = {"string.nope"};
  refuses(o, "unknown relation 'string.nope'");
  o = {};
  o.min_score = 0.95;
  refuses(o, "no edge at score");
  CHECK_THROWS_WITH_AS(grappi::cluster_method("kmeans"), doctest::Contains("mcl, leiden, cpm"), grappi::Error);
  CHECK(grappi::cluster_method("leiden-modularity") == ClusterMethod::leiden_modularity);
  CHECK_THROWS_AS(grappi::cluster(kg, {424242}, ClusterOptions{}), grappi::Error);
  CHECK_THROWS_AS(grappi::modularity(2, {{0, 5}}, {1.0}, {0, 0}), grappi::Error);
}

TEST_CASE("ask answers the main modules of a network or a named dataset's network or a protein's partners") {
  // Two STRING files imported apart: "alpha" holds the two cliques, "beta" the pair C1-C2 (at 0.9 here).
  TempDir d;
  KnowledgeGraph kg(d.file("modules.db"));
  std::string info = "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n";
  for (const std::string &n : kTwoCliqueNames) info += "9606." + n + "\t" + n + "\t1\tprotein " + n + "\n";
  write_file(d.file("info.txt"), info);
  std::string alpha = "protein1 protein2 combined_score\n";
  for (const auto &[a, b, s] : two_cliques())
    if (a[0] != 'C')
      alpha += "9606." + a + " 9606." + b + " " + std::to_string(s) + "\n9606." + b + " 9606." + a + " " + std::to_string(s) + "\n";
  write_file(d.file("alpha_network.txt"), alpha);
  write_file(d.file("beta_network.txt"), "protein1 protein2 combined_score\n9606.C1 9606.C2 900\n9606.C2 9606.C1 900\n");
  kg.import({{d.file("info.txt"), "info"}});
  kg.import({{d.file("alpha_network.txt"), "links"}});
  kg.import({{d.file("beta_network.txt"), "links"}});
  grappi::EmbedOptions eo;
  eo.neighbor_ranking = false;
  grappi::embed_graph(kg, *grappi::hashing_embedder(kg), eo);
  grappi::ExtractiveModel offline;
  const auto module_sets = [&](const grappi::AskResult &r) {
    std::set<std::set<std::string>> out;
    for (const auto &m : r.answer.value) {
      std::set<std::string> ids;
      for (const auto &id : m["members"]) ids.insert(id.get<std::string>().substr(5));
      out.insert(ids);
    }
    return out;
  };
  // The whole network: both cliques (the pair is no module: fewer than three).
  const auto whole = grappi::ask(kg, offline, "What are the main modules of the network?");
  CAPTURE(whole.answer.text);
  CHECK(whole.status == "ok");
  CHECK(whole.analysis.frame.form == "modules");
  CHECK(whole.analysis.frame.relation == "network");
  REQUIRE(whole.answer.form == "modules");
  CHECK(module_sets(whole) == std::set<std::set<std::string>>{kA, kB});
  CHECK(whole.answer.note.find("1 cluster(s) of one or two proteins not listed") != std::string::npos);
  CHECK_FALSE(whole.answer.edges.empty());
  // (the context holds the modules' strongest edges, and the answer cites them)
  CHECK_FALSE(whole.retrieval.subgraph.edges.empty());
  // Its report colours the nodes by module.
  const nlohmann::json view = grappi::report_view(kg, whole);
  CHECK(view["colour_by"] == "cluster");
  REQUIRE(view["clusters"].size() == 2);
  for (const auto &n : view["nodes"]) CHECK(n.contains("cluster"));
  // A network named by its file: alpha's cliques; beta's pair is no module; an unknown name says what is held.
  const auto alpha_modules = grappi::ask(kg, offline, "Which modules does the alpha network have?");
  CHECK(alpha_modules.analysis.frame.relation == "dataset");
  CHECK(alpha_modules.analysis.frame.network == "alpha");
  CHECK(module_sets(alpha_modules) == std::set<std::set<std::string>>{kA, kB});
  CHECK(alpha_modules.answer.text.find("alpha_network.txt") != std::string::npos);
  const auto beta_modules = grappi::ask(kg, offline, "What are the communities of the beta network?");
  CHECK(beta_modules.answer.value.empty());
  CHECK(beta_modules.answer.text.find("No module of three or more proteins") == 0);
  // A network named by no word of its own is the whole one.
  for (const char *q : {"What modules does the network have?", "How many clusters does the whole protein network have?",
                        "What are the communities in this interactome?"}) {
    CAPTURE(q);
    const auto r = grappi::ask(kg, offline, q);
    CHECK(r.analysis.frame.form == "modules");
    CHECK(r.analysis.frame.relation == "network");
    CHECK(r.analysis.frame.network.empty());
  }
  // Clusters of no network and no protein are no question of modules the rules read.
  const auto other = grappi::ask(kg, offline, "What are the clusters of differentiation?");
  CHECK(other.answer.form == "unsupported");
  CHECK(other.answer.reason.find("name the network") != std::string::npos);
  const auto unknown = grappi::ask(kg, offline, "What are the main modules of the gamma network?");
  CHECK(unknown.status == "no_answer");
  CHECK(unknown.answer.reason.find("no imported network is named 'gamma'") != std::string::npos);
  CHECK(unknown.answer.reason.find("info.txt") == std::string::npos);
  // One protein's partners: A1 and its partners (its clique and B1 across the bridge).
  const auto partners = grappi::ask(kg, offline, "Which modules do A1's partners form?");
  CHECK(partners.analysis.frame.relation == "partners");
  REQUIRE(partners.answer.form == "modules");
  REQUIRE_FALSE(partners.answer.value.empty());
  CHECK(partners.answer.value[0]["members"].size() >= 3);
}
