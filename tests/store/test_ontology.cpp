// OBO ontologies: the PSI-MI and GO slim files imported, counted against an independent reading
// of the raw text, queried (parents, children, ancestors, descendants, depths, lowest common
// ancestors), joined to names by synonyms and alternative ids, removed again; bad OBO input
// named by file and line with the database unchanged.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;

namespace {

const std::string kPsiMi = "ontology/psi-mi.obo";
const std::string kGoSlim = "ontology/goslim_generic.obo";

// An independent reading of an OBO file: per [Term], its id, is_a parents and obsolescence.
struct RawTerm {
  std::vector<std::string> is_a;
  bool obsolete = false;
};
std::map<std::string, RawTerm> raw_terms(const std::string &path) {
  std::istringstream in(read_file(path));
  std::map<std::string, RawTerm> out;
  std::string line, id;
  bool in_term = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line[0] == '[') {
      in_term = line == "[Term]";
      id.clear();
      continue;
    }
    if (!in_term) continue;
    if (line.rfind("id: ", 0) == 0) {
      id = line.substr(4);
      out[id];
    } else if (line.rfind("is_a: ", 0) == 0) {
      out[id].is_a.push_back(line.substr(6, line.find(' ', 6) - 6));
    } else if (line == "is_obsolete: true") {
      out[id].obsolete = true;
    }
  }
  return out;
}

std::string ext(const KnowledgeGraph &kg, int64_t id) { return kg.node(id)->external_id; }

}  // namespace

TEST_CASE("PSI-MI imports whole: every term and is_a line of the file - checked against the raw text") {
  TempDir d;
  KnowledgeGraph kg(d.file("kg.db"));
  const auto raw = raw_terms(data(kPsiMi));
  std::size_t obsolete = 0, is_a = 0;
  for (const auto &[id, t] : raw) {
    obsolete += t.obsolete;
    is_a += t.is_a.size();
  }
  REQUIRE(raw.size() == 1652);
  CHECK(obsolete == 178);
  const auto rep = kg.import({{data(kPsiMi)}});  // detected from the header
  REQUIRE(rep.files.size() == 1);
  const auto &f = rep.files[0];
  CHECK(f.kind == "obo");
  CHECK(f.nodes_created == raw.size());
  CHECK(f.referenced_nodes_created == 0);
  CHECK(detail_of(f, "terms") == raw.size());
  CHECK(detail_of(f, "obsolete_terms") == obsolete);
  CHECK(detail_of(f, "is_a") == is_a);
  CHECK(f.edges_created == is_a);
  const auto stats = kg.stats();
  REQUIRE(stats.edges_by_relation.size() == 1);
  CHECK(stats.edges_by_relation[0].first == "obo.is_a");
  // Every is_a line is an edge child -> parent.
  grappi::Ontology ont(kg.snapshot());
  for (const auto &term_entry : raw) {
    const auto &id = term_entry.first;
    const auto &t = term_entry.second;
    std::vector<std::string> want = t.is_a, got;
    std::sort(want.begin(), want.end());
    for (int64_t p : ont.parents(kg.resolve(id))) got.push_back(ext(kg, p));
    CHECK_MESSAGE(got == want, id);
  }
  // The dataset keeps the file's header.
  const auto ds = kg.datasets();
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].format == "obo");
  const auto opts = nlohmann::json::parse(ds[0].options);
  CHECK(opts["ontology"] == "mi");  // the file's "ontology: mi" header
  CHECK(opts["header"]["format-version"] == "1.2");
  CHECK(opts["header"]["remark"].size() > 3);
  // The same file again adds nothing.
  const auto again = kg.import({{data(kPsiMi), "obo"}});
  CHECK(again.files[0].already_imported);
  CHECK(kg.stats().nodes == static_cast<int64_t>(raw.size()));
}

TEST_CASE("PSI-MI interaction types: the subtree under MI:0190 as measured independently") {
  TempDir d;
  KnowledgeGraph kg(d.file("kg.db"));
  kg.import({{data(kPsiMi)}});
  grappi::Ontology ont(kg.snapshot());
  const int64_t root = kg.resolve("MI:0190");
  const auto sub = ont.descendants(root);
  CHECK(sub.size() == 145);
  // Terms per depth below the root, and the distances match a breadth-first search over the
  // raw is_a lines.
  const auto raw = raw_terms(data(kPsiMi));
  std::map<std::string, std::vector<std::string>> kids;
  for (const auto &[id, t] : raw)
    for (const auto &p : t.is_a) kids[p].push_back(id);
  std::map<std::string, std::size_t> depth{{"MI:0190", 0}};
  std::vector<std::string> level{"MI:0190"};
  for (std::size_t k = 1; !level.empty(); ++k) {
    std::vector<std::string> next;
    for (const auto &u : level)
      for (const auto &v : kids[u])
        if (!depth.count(v)) {
          depth[v] = k;
          next.push_back(v);
        }
    level = next;
  }
  CHECK(depth.size() == 146);
  std::map<std::size_t, int> per;
  for (const auto &t : sub) {
    ++per[t.distance];
    CHECK(depth.at(ext(kg, t.id)) == t.distance);
    CHECK(ont.depth(t.id, root) == t.distance);
  }
  CHECK(per == std::map<std::size_t, int>{{1, 5}, {2, 3}, {3, 6}, {4, 18}, {5, 23}, {6, 52}, {7, 30}, {8, 7}, {9, 1}});
  // Several parents, leaves.
  int several = 0, leaves = 0;
  for (const auto &t : sub) {
    several += ont.parents(t.id).size() > 1;
    leaves += ont.children(t.id).empty();
  }
  CHECK(several == 29);
  CHECK(leaves == 93);
  // The root's children, and the chain of direct interaction.
  std::vector<std::string> children;
  for (int64_t c : ont.children(root)) children.push_back(ext(kg, c));
  CHECK(children == std::vector<std::string>{"MI:0403", "MI:1110", "MI:2232", "MI:2286", "MI:2383"});
  std::vector<std::string> chain;
  for (const auto &t : ont.ancestors(kg.resolve("MI:0407"))) chain.push_back(ext(kg, t.id));
  CHECK(chain == std::vector<std::string>{"MI:0915", "MI:0914", "MI:2232", "MI:0190", "MI:0000"});
  // MI:2233 causal interaction is a branch of its own, not under MI:0190.
  CHECK_FALSE(ont.depth(kg.resolve("MI:2233"), root).has_value());
  // Lowest common ancestors and distances.
  CHECK(ont.lowest_common_ancestors(kg.resolve("MI:0407"), kg.resolve("MI:0403")) == std::vector<int64_t>{root});
  CHECK(ont.distance(kg.resolve("MI:0407"), kg.resolve("MI:0403")) == 5);
  CHECK(ont.lowest_common_ancestors(kg.resolve("MI:0407"), kg.resolve("MI:0915")) ==
        std::vector<int64_t>{kg.resolve("MI:0915")});
  CHECK(ont.distance(kg.resolve("MI:0407"), kg.resolve("MI:0407")) == 0);
  CHECK(ont.roots() == std::vector<int64_t>{kg.resolve("MI:0000")});
  CHECK_THROWS_AS(ont.parents(999999), grappi::Error);
}

TEST_CASE("ontology terms resolve by name - synonym - alternative id and keep their attributes") {
  TempDir d;
  KnowledgeGraph kg(d.file("kg.db"));
  kg.import({{data(kPsiMi)}});
  CHECK(ext(kg, kg.resolve("direct interaction")) == "MI:0407");
  // A synonym and its source.
  const auto raw = read_file(data(kPsiMi));
  const std::size_t at = raw.find("id: MI:0018\n");
  REQUIRE(at != std::string::npos);
  const std::size_t syn = raw.find("synonym: \"", at);
  REQUIRE(syn != std::string::npos);
  const std::string text = raw.substr(syn + 10, raw.find('"', syn + 10) - syn - 10);
  const auto r = kg.lookup(text);
  REQUIRE(r.status == grappi::ResolveResult::Status::found);
  CHECK(ext(kg, r.id) == "MI:0018");
  CHECK(r.candidates[0].matched_by.rfind("alias:obo:synonym:", 0) == 0);
  // An obsolete term with its replacement.
  std::string obsolete_id;
  for (const auto &[id, t] : raw_terms(data(kPsiMi)))
    if (t.obsolete) {
      obsolete_id = id;
      break;
    }
  const auto n = kg.node_by_external_id(obsolete_id);
  REQUIRE(n);
  CHECK(n->label == "OntologyTerm");
  const auto attrs = nlohmann::json::parse(n->attributes);
  CHECK(attrs["is_obsolete"] == true);
  CHECK(attrs["ontology"] == "mi");
  // The definition is the annotation (what search and embeddings read).
  CHECK(kg.node_by_external_id("MI:0407")->annotation ==
        "Interaction between molecules that are in direct contact with each other.");
}

TEST_CASE("GO slim: relationships become typed edges and two ontologies share one database") {
  TempDir d;
  KnowledgeGraph kg(d.file("kg.db"));
  const auto rep = kg.import({{data(kGoSlim)}, {data(kPsiMi)}});
  REQUIRE(rep.files.size() == 2);
  const auto &go = rep.files[0];
  CHECK(detail_of(go, "terms") == 141);
  CHECK(detail_of(go, "typedefs") == 11);
  CHECK(detail_of(go, "relationships") == 29);
  std::map<std::string, int64_t> rel;
  for (const auto &[name, n] : kg.stats().edges_by_relation) rel[name] = n;
  CHECK(rel["obo.part_of"] == 15);
  CHECK(rel["obo.has_part"] == 10);
  CHECK(rel.count("obo.is_a"));
  // nuclear chromosome is_a chromosome and part_of nucleus: the nucleus is an ancestor only
  // when part_of is walked too.
  const int64_t nuclear = kg.resolve("GO:0000228"), chromosome = kg.resolve("GO:0005694"),
                nucleus = kg.resolve("GO:0005634");
  grappi::Ontology is_a(kg.snapshot());
  CHECK(is_a.depth(nuclear, chromosome) == 1);
  CHECK_FALSE(is_a.depth(nuclear, nucleus).has_value());
  grappi::Ontology part_of(kg.snapshot(), grappi::OntologyOptions{{"obo.is_a", "obo.part_of"}});
  CHECK(part_of.depth(nuclear, nucleus) == 1);
  CHECK(part_of.parents(nuclear) == std::vector<int64_t>{nucleus, chromosome});  // by external id
  CHECK_THROWS_WITH_AS(grappi::Ontology(kg.snapshot(), grappi::OntologyOptions{{"obo.part-of"}}),
                       doctest::Contains("obo.part_of"), grappi::Error);
  const auto ds = kg.datasets();
  REQUIRE(ds.size() == 2);
  const auto opts = nlohmann::json::parse(ds[0].options);
  CHECK(opts["header"]["data-version"] == "go/releases/2026-01-23/subsets/goslim_generic.owl");
  CHECK(opts["ontology"] == "go/subsets/goslim_generic");
  CHECK(opts["typedefs"].size() == 11);
  // Removing the GO slim leaves PSI-MI whole.
  kg.remove_dataset(ds[0].id);
  CHECK(kg.stats().nodes == 1652);
  CHECK_FALSE(kg.node_by_external_id("GO:0005694"));
  CHECK(kg.stats().edges_by_relation.size() == 1);
}

TEST_CASE("OBO: references to terms the file does not define become new nodes - counted") {
  TempDir d;
  KnowledgeGraph kg(d.file("kg.db"));
  const std::string f = d.file("mini.obo");
  write_file(f,
             "format-version: 1.4\nontology: mini\n\n[Term]\nid: X:1\nname: one ! a comment\n"
             "def: \"The \\\"first\\\" term! with {braces}.\" [PMID:1, ISBN:2]\n"
             "synonym: \"uno\" EXACT []\nsynonym: \"primero\" []\nis_a: X:0 ! outside\n"
             "relationship: part_of X:2 {source=\"x\"}\n\n[Term]\nid: X:2\nname: two\n\n[Instance]\nid: i\n");
  const auto rep = kg.import({{f}});
  const auto &r = rep.files[0];
  CHECK(r.referenced_nodes_created == 1);
  CHECK(r.nodes_created == 3);
  CHECK(detail_of(r, "other_stanzas") == 1);
  const auto one = kg.node_by_external_id("X:1");
  REQUIRE(one);
  CHECK(one->name == "one");
  CHECK(one->annotation == "The \"first\" term! with {braces}.");
  const auto a = nlohmann::json::parse(one->attributes);
  CHECK(a["definition_xrefs"] == nlohmann::json::array({"PMID:1", "ISBN:2"}));
  CHECK(a["synonyms"][1]["scope"] == "RELATED");  // OBO 1.2: no scope means RELATED
  CHECK(ext(kg, kg.resolve("uno")) == "X:1");
  CHECK(kg.node_by_external_id("X:0")->name == "X:0");
  grappi::Ontology ont(kg.snapshot(), grappi::OntologyOptions{{"obo.is_a", "obo.part_of"}});
  std::vector<std::string> parents;
  for (int64_t p : ont.parents(kg.resolve("X:1"))) parents.push_back(ext(kg, p));
  CHECK(parents == std::vector<std::string>{"X:0", "X:2"});
  // A later file that refers to X:2 and X:0 without defining them joins the stored nodes.
  const std::string g = d.file("more.obo");
  write_file(g, "format-version: 1.4\n\n[Term]\nid: X:3\nis_a: X:2\nis_a: X:0\n");
  const auto more = kg.import({{g}});
  CHECK(more.files[0].referenced_nodes_created == 0);
  CHECK(more.files[0].nodes_created == 1);
  grappi::Ontology after(kg.snapshot());
  CHECK(after.parents(kg.resolve("X:3")) == std::vector<int64_t>{kg.resolve("X:0"), kg.resolve("X:2")});
}

TEST_CASE("bad OBO input: the file and line are named and the database is unchanged") {
  TempDir d;
  const std::string db = d.file("kg.db");
  {
    KnowledgeGraph kg(db);
    kg.import({{data(kGoSlim)}});
  }
  const std::string before = fingerprint(db);
  const std::string head = "format-version: 1.2\n\n[Term]\nid: T:1\nname: t\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {head + "[Term\nid: T:2\n", ":6: a stanza header must end with ']'"},
      {head + "this line has no tag\n", ":6: expected 'tag: value'"},
      {head + "\n[Term]\nname: nameless\n", ":7: stanza without an 'id:' line"},
      {head + "\n[Term]\nid: T:1\n", "the id 'T:1' was already defined by the stanza at line 3"},
      {head + "def: \"never closed\n", ":6: unterminated quoted text in 'def:'"},
      {head + "def: no quotes\n", ":6: 'def:' needs a quoted text"},
      {head + "synonym: \"s\" SIDEWAYS []\n", ":6: synonym scope must be EXACT, BROAD, NARROW or RELATED"},
      {head + "is_obsolete: maybe\n", ":6: is_obsolete must be true or false"},
      {head + "relationship: part_of\n", ":6: 'relationship:' needs a relation type and a term id"},
      {head + "name: second\n", ":6: a second 'name:' line"},
      {head + "id: T:9\n", ":6: a second 'id:' line"},
      {head + "def: \"a\" [PMID:1\n", ":6: unterminated cross-reference list"},
      {head + "name: \xff\xfe\n", ":6: invalid UTF-8"},
      {"format-version: 1.2\nontology: empty\n", "no [Term] stanza"},
      {head + "id\xc0: x\n", ":6: invalid UTF-8"},
      {head + "i d: x\n", ":6: 'i d' is not an OBO tag"},
      {std::string("format-version: 1.2\n[Term]\nid: a\0b\n", 35), "NUL"},
  };
  int n = 0;
  for (const auto &[text, want] : cases) {
    const std::string f = d.file("bad" + std::to_string(n++) + ".obo");
    write_file(f, text);
    {
      KnowledgeGraph kg(db);
      try {
        kg.import({{f, "obo"}});
        FAIL("import of case " << n << " should have failed");
      } catch (const grappi::Error &e) {
        CHECK(e.code() == grappi::ErrorCode::parse);
        CHECK_MESSAGE(std::string(e.what()).find(f) == 0, e.what());
        CHECK_MESSAGE(std::string(e.what()).find(want) != std::string::npos, e.what());
      }
    }
    CHECK(fingerprint(db) == before);
  }
  // Truncated gzip; binary garbage given as OBO; an unknown format name.
  const std::string gz = d.file("t.obo.gz");
  write_gz(gz, read_file(data(kPsiMi)));
  std::string bytes = read_file(gz);
  write_file(gz, bytes.substr(0, bytes.size() / 2));
  const std::string garbage = d.file("g.obo");
  write_file(garbage, std::string("\x1f\x8b\x08\x00garbage", 11));
  for (const auto &f : {gz, garbage}) {
    KnowledgeGraph kg(db);
    CHECK_THROWS_AS(kg.import({{f, "obo"}}), grappi::Error);
  }
  {
    KnowledgeGraph kg(db);
    CHECK_THROWS_WITH_AS(kg.import({{data(kGoSlim), "owl"}}), doctest::Contains("unknown format 'owl'"), grappi::Error);
    // A good ontology and a bad one in one import: neither lands.
    CHECK_THROWS_AS(kg.import({{data(kPsiMi)}, {d.file("bad0.obo"), "obo"}}), grappi::Error);
  }
  CHECK(fingerprint(db) == before);
}
