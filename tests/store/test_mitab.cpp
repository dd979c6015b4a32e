// PSI-MITAB: the IntAct sample imported beside the yeast STRING proteins, every row checked
// against an independent reading of the raw file (interaction ids, PubMed ids, MI interaction
// types, interactors joined through STRING's aliases); the curated type of a pair in a paper
// looked up from the edge's records; MITAB 2.5 without a header; negative interactions; bad
// input named by file and line with the database unchanged; removal.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;

namespace {


std::vector<std::string> split_tabs(const std::string &line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    out.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return out;
    start = tab + 1;
  }
}

// The data rows of the sample (line number -> columns), read without grappi.
std::map<int64_t, std::vector<std::string>> raw_rows() {
  std::map<int64_t, std::vector<std::string>> rows;
  const auto lines = read_lines_gz(data(kMitab));
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (!lines[i].empty() && lines[i][0] != '#') rows[static_cast<int64_t>(i + 1)] = split_tabs(lines[i]);
  return rows;
}

std::vector<int64_t> pmids_of(const std::string &publications) {
  static const std::regex re("pubmed:([0-9]+)");
  std::vector<int64_t> out;
  for (std::sregex_iterator it(publications.begin(), publications.end(), re), end; it != end; ++it)
    out.push_back(std::stoll((*it)[1]));
  return out;
}

std::string mi_of(const std::string &field) {
  static const std::regex re("\"(MI:[0-9]{4})\"");
  std::smatch m;
  return std::regex_search(field, m, re) ? m[1].str() : std::string();
}

// Every evidence record of the database, by line.
std::map<int64_t, std::pair<grappi::Edge, nlohmann::json>> records_by_line(const KnowledgeGraph &kg,
                                                                             const std::string &db) {
  std::map<int64_t, std::pair<grappi::Edge, nlohmann::json>> out;
  const long long max_edge = sql_count(db, "SELECT max(id) FROM edges");
  for (long long id = 1; id <= max_edge; ++id) {
    const auto e = kg.edge(id);
    if (!e) continue;
    for (const auto &r : e->records) out[r.line] = {*e, nlohmann::json::parse(r.record)};
  }
  return out;
}

}  // namespace

TEST_CASE("IntAct MITAB 2.7 beside yeast STRING: every row an evidence record as the raw file says" * doctest::test_suite("heavy")) {
  TempDir d;
  const std::string db = d.file("kg.db");
  KnowledgeGraph kg(db);
  kg.import({{data("4932.protein.info.v12.0.txt.gz")}, {data("4932.protein.aliases.v12.0.txt.gz")}});
  const auto rows = raw_rows();
  REQUIRE(rows.size() == 823);
  // Independently: interactors whose bare UniProt accession is a STRING alias of exactly one protein.
  std::set<std::string> interactors, joinable;
  for (const auto &[no, c] : rows)
    for (const std::string &id : {c[0], c[1]}) {
      interactors.insert(id);
      const std::string acc = id.substr(id.find(':') + 1);
      if (sql_count(db, "SELECT count(DISTINCT node_id) FROM aliases WHERE alias = '" + acc + "'") == 1)
        joinable.insert(id);
    }
  const long long proteins = sql_count(db, "SELECT count(*) FROM nodes");
  // Before MITAB, a namespaced accession resolves by its bare form (STRING's UniProt alias).
  const auto by_bare = kg.lookup("uniprotkb:P40460");
  REQUIRE(by_bare.status == grappi::ResolveResult::Status::found);
  CHECK(by_bare.candidates[0].external_id == "4932.YIL144W");
  CHECK(by_bare.candidates[0].matched_by.find("(without namespace uniprotkb)") != std::string::npos);
  CHECK(kg.lookup("nonsense:P40460").status == grappi::ResolveResult::Status::found);  // any namespace word
  CHECK(kg.lookup("uniprotkb:NOPE1").status == grappi::ResolveResult::Status::not_found);
  const auto rep = kg.import({{data(kMitab)}});  // detected from the header
  REQUIRE(rep.files.size() == 1);
  const auto &f = rep.files[0];
  CHECK(f.kind == "mitab");
  CHECK(f.lines == 823);
  CHECK(detail_of(f, "mitab_version") == 27);
  CHECK(detail_of(f, "interactions") == 823);
  CHECK(detail_of(f, "evidence_records") == 823);
  CHECK(detail_of(f, "interactors") == interactors.size());
  CHECK(joinable.size() == 59);  // P02994 is two STRING proteins (TEF1, TEF2): not joined
  CHECK(detail_of(f, "ambiguous_joins") == 1);
  CHECK(detail_of(f, "interactors_joined") == joinable.size());
  CHECK(detail_of(f, "interactors_created") == interactors.size() - joinable.size());
  CHECK(sql_count(db, "SELECT count(*) FROM nodes") == proteins + static_cast<long long>(f.nodes_created));
  CHECK(detail_of(f, "spoke_expanded") == 377);
  CHECK(detail_of(f, "negative") == 0);
  CHECK(sql_count(db, "SELECT count(*) FROM edge_evidence") == 823);

  // Every row: on the edge of its two interactors, with its interaction ids, PubMed ids, MI type,
  // detection method and raw text.
  const auto recs = records_by_line(kg, db);
  REQUIRE(recs.size() == rows.size());
  const auto lines = read_lines_gz(data(kMitab));
  std::set<std::string> relations;
  for (const auto &no_c : rows) {
    const auto &no = no_c.first;
    const auto &c = no_c.second;
    REQUIRE_MESSAGE(recs.count(no), "line " << no);
    const auto &[edge, rec] = recs.at(no);
    CHECK(rec["interactor_a"] == c[0]);
    CHECK(rec["interactor_b"] == c[1]);
    CHECK(rec["interaction_ids"][0] == c[13].substr(0, c[13].find('|')));
    CHECK(rec["pmids"].get<std::vector<int64_t>>() == pmids_of(c[8]));
    CHECK(rec["interaction_types"][0]["id"] == mi_of(c[11]));
    CHECK(rec["detection_methods"][0]["id"] == mi_of(c[6]));
    for (const auto &r : edge.records)
      if (r.line == no) CHECK(r.raw == lines[static_cast<std::size_t>(no - 1)]);
    // The edge joins the nodes of the two interactors (by their namespaced ids) and carries the
    // row's PubMed ids.
    const int64_t a = kg.resolve(c[0]), b = kg.resolve(c[1]);
    CHECK(((edge.source == a && edge.target == b) || (edge.source == b && edge.target == a)));
    for (int64_t p : pmids_of(c[8])) CHECK(std::count(edge.pmids.begin(), edge.pmids.end(), p) == 1);
    CHECK(edge.relation.rfind("mitab.", 0) == 0);
    relations.insert(edge.relation);
    if (c[14].find("intact-miscore:") != std::string::npos)
      CHECK(edge.score >= std::stod(c[14].substr(c[14].find("intact-miscore:") + 15)) - 1e-12);
  }
  CHECK(relations.count("mitab.physical_association"));
  CHECK(relations.count("mitab.direct_interaction"));
  // Joined interactors are the STRING proteins, found by their MITAB id too.
  CHECK(kg.node(kg.resolve("uniprotkb:P40460"))->external_id == "4932.YIL144W");
  const auto again = kg.import({{data(kMitab), "mitab"}});
  CHECK(again.files[0].already_imported);
}

TEST_CASE("The curated interaction type of a pair in a paper is one look at the edge's records") {
  TempDir d;
  KnowledgeGraph kg(d.file("kg.db"));
  kg.import({{data("4932.protein.info.v12.0.txt.gz")}, {data("4932.protein.aliases.v12.0.txt.gz")},
             {data(kMitab)}});
  // The independent answer: rows whose interactor A and B and PubMed id match.
  const auto rows = raw_rows();
  const auto &first = rows.begin()->second;  // NDC80 with itself, pubmed 11087867, two hybrid
  REQUIRE(pmids_of(first[8]) == std::vector<int64_t>{11087867});
  std::multiset<std::string> want;
  for (const auto &[no, c] : rows)
    if (c[0] == first[0] && c[1] == first[1] && pmids_of(c[8]) == pmids_of(first[8])) want.insert(mi_of(c[11]));
  std::multiset<std::string> got;
  const int64_t a = kg.resolve(first[0]);
  for (const auto &e : kg.edges_between(a, a))
    for (const auto &r : e.records) {
      const auto j = nlohmann::json::parse(r.record);
      if (j["pmids"] == nlohmann::json::array({11087867})) got.insert(j["interaction_types"][0]["id"].get<std::string>());
    }
  CHECK(!want.empty());
  CHECK(got == want);
  // The JSON form of an edge lists its records.
  const auto j = grappi::to_json(kg.edges_between(a, a).at(0));
  CHECK(j["records"].size() >= 1);
  CHECK(j["records"][0]["record"]["interactor_a"] == "uniprotkb:P40460");
}

TEST_CASE("MITAB 2.5 without a header and negative rows") {
  TempDir d;
  const auto lines = read_lines_gz(data(kMitab));
  // The first 15 columns of 40 rows: a MITAB 2.5 file without a header, detected by its rows.
  std::string v25, v27 = lines[0] + "\n";
  for (std::size_t i = 1; i <= 40; ++i) {
    auto c = split_tabs(lines[i]);
    std::string row;
    for (int k = 0; k < 15; ++k) row += (k ? "\t" : "") + c[static_cast<std::size_t>(k)];
    v25 += row + "\n";
    if (i <= 3) {
      c[35] = "true";
      std::string neg;
      for (std::size_t k = 0; k < c.size(); ++k) neg += (k ? "\t" : "") + c[k];
      v27 += neg + "\n";
    } else {
      v27 += lines[i] + "\n";
    }
  }
  write_file(d.file("v25.txt"), v25);
  write_file(d.file("neg.txt"), v27);
  KnowledgeGraph kg(d.file("kg.db"));
  const auto rep = kg.import({{d.file("v25.txt")}});
  CHECK(rep.files[0].kind == "mitab");
  CHECK(detail_of(rep.files[0], "mitab_version") == 25);
  CHECK(detail_of(rep.files[0], "interactions") == 40);
  // Without interactor types, new interactors are proteins named by their gene name.
  CHECK(kg.node(kg.resolve("uniprotkb:P40460"))->name == "NDC80");
  CHECK(kg.node(kg.resolve("uniprotkb:P40460"))->label == "Protein");
  TempDir d2;
  KnowledgeGraph kg2(d2.file("kg.db"));
  const auto rep2 = kg2.import({{d.file("neg.txt"), "mitab"}});
  CHECK(detail_of(rep2.files[0], "negative") == 3);
  bool negative_edge = false;
  for (const auto &[rel, n] : kg2.stats().edges_by_relation)
    negative_edge = negative_edge || rel.rfind("mitab.negative.", 0) == 0;
  CHECK(negative_edge);
}

TEST_CASE("Bad MITAB input is named by file and line and leaves the database unchanged") {
  TempDir d;
  const std::string db = d.file("kg.db");
  const auto lines = read_lines_gz(data(kMitab));
  std::string good;
  for (std::size_t i = 0; i <= 20; ++i) good += lines[i] + "\n";
  {
    KnowledgeGraph kg(db);
    kg.import({{data("4932.protein.info.v12.0.txt.gz")}});
  }
  const std::string before = fingerprint(db);
  struct Case {
    const char *name, *expect;
    std::string text;
  };
  const std::string row5 = lines[5];
  std::string short_row = row5.substr(0, row5.rfind('\t'));
  std::string unclosed = row5;
  unclosed.erase(unclosed.find("\"MI:") + 8, 1);  // psi-mi:"MI:0397(two hybrid array): no closing quote
  std::string no_colon = row5;
  no_colon.replace(0, no_colon.find('\t'), "P40460");
  auto cols = split_tabs(row5);
  cols[35] = "maybe";
  std::string bad_neg;
  for (std::size_t k = 0; k < cols.size(); ++k) bad_neg += (k ? "\t" : "") + cols[k];
  const std::vector<Case> cases = {
      {"a row with a column missing", ":22: expected 15 (MITAB 2.5), 36 (2.6) or 42 (2.7) tab-separated columns, found 41",
       good + short_row + "\n"},
      {"an unclosed quote", ":22: column", good + unclosed + "\n"},
      {"an id without its database", ":22: column 1 (ID(s) interactor A): 'P40460' is not database:identifier",
       good + no_colon + "\n"},
      {"a negative flag that is not a boolean", ":22: column 36 (Negative) is 'maybe'", good + bad_neg + "\n"},
      {"invalid UTF-8", ":22: invalid UTF-8", good + row5.substr(0, 30) + "\xff\xfe" + row5.substr(30) + "\n"},
      {"binary garbage", ":22: NUL byte", good + std::string("\x01\x02\x03\x00\x7f\x10 garbage", 14) + "\n"},
      {"a header alone", "no interaction rows", lines[0] + "\n"},
  };
  for (const auto &c : cases) {
    const std::string name = c.name;
    CAPTURE(name);
    write_file(d.file("bad.txt"), c.text);
    KnowledgeGraph kg(db);
    try {
      kg.import({{d.file("bad.txt"), "mitab"}});
      FAIL("imported");
    } catch (const grappi::Error &e) {
      CHECK(e.code() == grappi::ErrorCode::parse);
      const std::string what = e.what();
      CHECK_MESSAGE(what.find(c.expect) != std::string::npos, what);
      CHECK(std::string(e.what()).find(d.file("bad.txt")) == 0);
    }
    CHECK(fingerprint(db) == before);
  }
  // A truncated gzip stream.
  write_gz(d.file("t.gz"), good + good.substr(good.find('\n') + 1));
  const std::string gz = read_file(d.file("t.gz"));
  write_file(d.file("t.gz"), gz.substr(0, gz.size() / 2));
  {
    KnowledgeGraph kg(db);
    CHECK_THROWS_AS(kg.import({{d.file("t.gz"), "mitab"}}), grappi::Error);
  }
  CHECK(fingerprint(db) == before);
  // --skip-bad-lines keeps the good rows and quotes the bad one.
  write_file(d.file("bad.txt"), good + short_row + "\n" + lines[21] + "\n");
  KnowledgeGraph kg(db);
  grappi::ImportOptions opt;
  opt.skip_bad_lines = true;
  const auto rep = kg.import({{d.file("bad.txt"), "mitab"}}, opt);
  CHECK(rep.files[0].rows_skipped == 1);
  CHECK(detail_of(rep.files[0], "interactions") == 21);
  REQUIRE(rep.files[0].bad_line_examples.size() == 1);
  CHECK(rep.files[0].bad_line_examples[0].find(":22: expected 15") != std::string::npos);
}

TEST_CASE("Removing a MITAB dataset takes its edges and records and the nodes only it made") {
  TempDir d;
  const std::string db = d.file("kg.db");
  KnowledgeGraph kg(db);
  kg.import({{data("4932.protein.info.v12.0.txt.gz")}, {data("4932.protein.aliases.v12.0.txt.gz")}});
  const auto rep = kg.import({{data(kMitab)}});
  CHECK(sql_count(db, "SELECT count(*) FROM edge_evidence") == 823);
  kg.remove_dataset(rep.files[0].dataset_id);
  CHECK(sql_count(db, "SELECT count(*) FROM edge_evidence") == 0);
  CHECK(sql_count(db, "SELECT count(*) FROM edges") == 0);
  CHECK(sql_count(db, "SELECT count(*) FROM nodes") == 6600);
  CHECK(sql_count(db, "SELECT count(*) FROM aliases WHERE source LIKE 'mitab%'") == 0);
}
