// BEL 2.1: the statement parser and validator (every function and relation in long and short
// form, nested statements, BEL 1 upgrades, semantic checks with offsets), the canonical form,
// and the BEL script reader on pybel's test documents.
#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace grappi;
using testutil::data;

namespace {

BelResult check(const std::string &s, BelOptions o = {}) { return validate_bel(s, o); }

const BelProblem *first_error(const BelResult &r) {
  for (const BelProblem &p : r.problems)
    if (p.severity == BelProblem::Severity::error) return &p;
  return nullptr;
}

BelDocument read_script(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return read_bel_script(in);
}

}  // namespace

TEST_CASE("BEL canonical forms of long and short spellings are equal") {
  const std::pair<const char *, const char *> cases[] = {
      {"p(HGNC:AKT1) -> p(HGNC:EGFR)", "p(HGNC:AKT1) increases p(HGNC:EGFR)"},
      {"proteinAbundance(HGNC:AKT1) increases proteinAbundance(HGNC:EGFR)", "p(HGNC:AKT1) increases p(HGNC:EGFR)"},
      {"p(HGNC:AKT1)  =>   p(HGNC:EGFR)", "p(HGNC:AKT1) directlyIncreases p(HGNC:EGFR)"},
      {"p(HGNC:AKT1) -| p(HGNC:EGFR)", "p(HGNC:AKT1) decreases p(HGNC:EGFR)"},
      // Symbols may touch the terms: p(A)->p(B).
      {"p(HGNC:AKT1)->p(HGNC:EGFR)", "p(HGNC:AKT1) increases p(HGNC:EGFR)"},
      {"p(HGNC:AKT1) -|p(HGNC:EGFR)", "p(HGNC:AKT1) decreases p(HGNC:EGFR)"},
      {"p(HGNC:AKT1)\xE2\x86\x92p(HGNC:EGFR)", "p(HGNC:AKT1) increases p(HGNC:EGFR)"},
      {"p(HGNC:A)->(p(HGNC:B)=|p(HGNC:C))", "p(HGNC:A) increases (p(HGNC:B) directlyDecreases p(HGNC:C))"},
      {"p(HGNC:AKT1) =| p(HGNC:EGFR)", "p(HGNC:AKT1) directlyDecreases p(HGNC:EGFR)"},
      {"p(HGNC:AKT1) -- p(HGNC:EGFR)", "p(HGNC:AKT1) association p(HGNC:EGFR)"},
      {"p(HGNC:AKT1) \xE2\x86\x92 p(HGNC:EGFR)", "p(HGNC:AKT1) increases p(HGNC:EGFR)"},
      {"g(HGNC:AKT1) :> r(HGNC:AKT1)", "g(HGNC:AKT1) transcribedTo r(HGNC:AKT1)"},
      {"r(HGNC:AKT1) >> p(HGNC:AKT1)", "r(HGNC:AKT1) translatedTo p(HGNC:AKT1)"},
      {"complex(p(HGNC:JUN), p(HGNC:FOS))", "complex(p(HGNC:FOS), p(HGNC:JUN))"},
      {"complexAbundance(proteinAbundance(HGNC:FOS),proteinAbundance(HGNC:JUN))", "complex(p(HGNC:FOS), p(HGNC:JUN))"},
      {"activity(proteinAbundance(HGNC:AKT1), molecularActivity(kinaseActivity)) reg bp(GO:\"cell cycle\")",
       "act(p(HGNC:AKT1), ma(kin)) regulates bp(GO:\"cell cycle\")"},
      {"p(HGNC:AKT1, pmod(phosphorylation, S, 473))", "p(HGNC:AKT1, pmod(Ph, Ser, 473))"},
      {"p(HGNC:AKT1, loc(GO:nucleus), pmod(Ph, Thr, 308), pmod(Ph, Ser, 473))",
       "p(HGNC:AKT1, pmod(Ph, Ser, 473), pmod(Ph, Thr, 308), loc(GO:nucleus))"},
      {"p(HGNC:CFTR, var(\"p.Phe508del\")) cnc path(MESHD:\"Cystic Fibrosis\")",
       "p(HGNC:CFTR, var(\"p.Phe508del\")) causesNoChange path(MESHD:\"Cystic Fibrosis\")"},
      {"translocation(p(HGNC:EGFR), fromLoc(GO:\"cell surface\"), toLoc(GO:endosome)) pos sec(p(HGNC:RETN))",
       "tloc(p(HGNC:EGFR), fromLoc(GO:\"cell surface\"), toLoc(GO:endosome)) positiveCorrelation sec(p(HGNC:RETN))"},
      {"rxn(reactants(a(CHEBI:b), a(CHEBI:a)), products(a(CHEBI:c))) subProcessOf bp(GO:x)",
       "rxn(reactants(a(CHEBI:a), a(CHEBI:b)), products(a(CHEBI:c))) subProcessOf bp(GO:x)"},
      {"p(HGNC:A) -> (p(HGNC:B) -| p(HGNC:C))", "p(HGNC:A) increases (p(HGNC:B) decreases p(HGNC:C))"},
      {"p(HGNC:\"HLA-A\") eq p(UniProt:P04439)", "p(HGNC:\"HLA-A\") equivalentTo p(UniProt:P04439)"},
      {"p(HGNC:MIA, frag(\"5_20\", \"55kD\"))", "p(HGNC:MIA, frag(\"5_20\", \"55kD\"))"},
      {"r(fus(HGNC:TMPRSS2, \"r.1_79\", HGNC:ERG, \"r.312_5034\"))", "r(fus(HGNC:TMPRSS2, \"r.1_79\", HGNC:ERG, \"r.312_5034\"))"},
      {"a(CHEBI:\"calcium(2+)\", loc(GO:\"endoplasmic reticulum\"))", "a(CHEBI:\"calcium(2+)\", loc(GO:\"endoplasmic reticulum\"))"},
      {"pop(CL:\"T cell\") -- path(DOID:COPD)", "pop(CL:\"T cell\") association path(DOID:COPD)"},
      {"p(FPLX:AKT) hasMembers list(p(HGNC:AKT2), p(HGNC:AKT1))", "p(FPLX:AKT) hasMembers list(p(HGNC:AKT1), p(HGNC:AKT2))"},
      {"deg(p(HGNC:X)) neg surf(p(HGNC:Y))", "deg(p(HGNC:X)) negativeCorrelation surf(p(HGNC:Y))"},
      {"m(MIRBASE:\"hsa-mir-21\") -| r(HGNC:PTEN)", "m(MIRBASE:\"hsa-mir-21\") decreases r(HGNC:PTEN)"},
  };
  for (const auto &in_expected : cases) {
    const auto &in = in_expected.first;
    const auto &expected = in_expected.second;
    INFO("statement: " << in);
    BelResult r = check(in);
    CHECK(r.valid());
    CHECK(r.canonical == expected);
    // The canonical form reads back to itself.
    CHECK(check(r.canonical).canonical == r.canonical);
  }
}

TEST_CASE("BEL long form spells every function out") {
  BelOptions o;
  o.long_form = true;
  BelResult r = check("act(p(HGNC:AKT1), ma(kin)) -> p(HGNC:MTOR, pmod(Ph, S, 2448), loc(GO:cytoplasm))", o);
  REQUIRE(r.valid());
  CHECK(r.canonical ==
        "activity(proteinAbundance(HGNC:AKT1), molecularActivity(kin)) increases "
        "proteinAbundance(HGNC:MTOR, proteinModification(Ph, Ser, 2448), location(GO:cytoplasm))");
  CHECK(check(r.canonical).canonical == "act(p(HGNC:AKT1), ma(kin)) increases p(HGNC:MTOR, pmod(Ph, Ser, 2448), loc(GO:cytoplasm))");
}

TEST_CASE("BEL 1 forms are upgraded with a warning") {
  const std::pair<const char *, const char *> cases[] = {
      {"kin(p(HGNC:AKT1)) -> p(HGNC:X)", "act(p(HGNC:AKT1), ma(kin)) increases p(HGNC:X)"},
      {"p(HGNC:GSK3B, pmod(P, S, 9))", "p(HGNC:GSK3B, pmod(Ph, Ser, 9))"},
      {"p(HGNC:AKT1, sub(A, 127, Y))", "p(HGNC:AKT1, var(\"p.Ala127Tyr\"))"},
      {"g(HGNC:APP, sub(G, 275341, C))", "g(HGNC:APP, var(\"c.275341G>C\"))"},
      {"p(HGNC:AKT1, trunc(40))", "p(HGNC:AKT1, var(\"p.40*\"))"},
      {"tloc(p(HGNC:EGFR), GO:\"cell surface\", GO:endosome)",
       "tloc(p(HGNC:EGFR), fromLoc(GO:\"cell surface\"), toLoc(GO:endosome))"},
      {"bp(GOBP:\"apoptotic process\")", "bp(GO:\"apoptotic process\")"},
      {"p(HGNC:A) actsIn kin(p(HGNC:A))", "p(HGNC:A) actsIn act(p(HGNC:A), ma(kin))"},
      {"p(HGNC:BCR, fus(HGNC:JAK2, 1875, 2626))", "p(fus(HGNC:BCR, \"p.?_1875\", HGNC:JAK2, \"p.2626_?\"))"},
      {"g(HGNC:CHCHD4, fusion(HGNC:AIFM1))", "g(fus(HGNC:CHCHD4, \"?\", HGNC:AIFM1, \"?\"))"},
  };
  for (const auto &in_expected : cases) {
    const auto &in = in_expected.first;
    const auto &expected = in_expected.second;
    INFO("statement: " << in);
    BelResult r = check(in);
    CHECK(r.valid());
    CHECK(r.warnings() >= 1);
    CHECK(r.canonical == expected);
  }
}

TEST_CASE("BEL errors a curator expects carry a code and an offset") {
  struct Case {
    const char *statement;
    const char *code;
    std::size_t offset;
  };
  const Case cases[] = {
      {"a(HGNC:AKT1) -> p(HGNC:EGFR)", "namespace_kind", 2},
      {"p(CHEBI:\"nitric oxide\") -> p(HGNC:EGFR)", "namespace_kind", 2},
      {"p(HGNC:AKT1) -> bp(HGNC:EGFR)", "namespace_kind", 19},
      {"p(HGNC:AKT1) -> path(GO:\"cell cycle\")", "namespace_kind", 21},
      {"foo(HGNC:AKT1) -> p(HGNC:EGFR)", "unknown_function", 0},
      {"p(HGNC:AKT1) hasActivity act(p(HGNC:EGFR))", "unknown_relation", 13},
      {"p(HGNC:AKT1) interacts p(HGNC:EGFR)", "unknown_relation", 13},
      {"p(HGNC:AKT1) -> p(HGNC:EGFR", "syntax", 16},
      {"p(HGNC:AKT1)) -> p(HGNC:EGFR)", "syntax", 12},
      {"p(HGNC:\"AKT1) -> p(HGNC:EGFR)", "syntax", 7},
      {"bp(GO:cell cycle) -> p(HGNC:EGFR)", "unquoted_value", 3},
      {"a(CHEBI:calcium(2+)) -> p(HGNC:EGFR)", "unquoted_value", 15},
      {"p(FOO:AKT1) -> p(HGNC:EGFR)", "unknown_namespace", 2},
      {"p(HGNC:AKT1, pmod(Phospho)) -> p(HGNC:X)", "pmod", 18},
      {"p(HGNC:AKT1, pmod(Ph, Xyz, 473))", "amino_acid", 22},
      {"p(HGNC:AKT1, pmod(Ph, Ser, -4))", "position", 27},
      {"p(HGNC:AKT1, var(Phe508del))", "variant", 17},
      {"p(HGNC:AKT1, frag(5-20))", "fragment", 18},
      {"act(p(HGNC:AKT1), ma(dance))", "activity", 21},
      {"p(HGNC:A) -- (p(HGNC:B) -> p(HGNC:C))", "relation_terms", 13},
      {"p(HGNC:A) -> (p(HGNC:B) -- p(HGNC:C))", "relation_terms", 24},
      {"p(HGNC:A) -> composite(p(HGNC:B), p(HGNC:C))", "relation_terms", 13},
      {"p(FPLX:AKT) hasMembers p(HGNC:AKT1)", "relation_terms", 12},
      {"p(HGNC:A) transcribedTo r(HGNC:A)", "relation_terms", 10},
      {"p(HGNC:A) -> p(HGNC:B) -> p(HGNC:C)", "syntax", 23},
      {"p(HGNC:A) -> pmod(Ph)", "misplaced", 13},
      {"p(HGNC:A, frag(\"1_2\"), pmod(Ph)) -> g(HGNC:A, pmod(Ph))", "misplaced", 46},
      {"act(bp(GO:x)) -> p(HGNC:A)", "misplaced", 4},
      {"p() -> p(HGNC:A)", "arity", 0},
      {"deg(p(HGNC:A), p(HGNC:B))", "arity", 0},
      {"HGNC:AKT1 -> p(HGNC:A)", "syntax", 0},
      {"p(HGNC:A) ->", "syntax", 10},
      {"", "syntax", 0},
      {"p(HGNC:A) -> p(HGNC:B) trailing", "syntax", 23},
      {"p(HGNC:A,, HGNC:B)", "syntax", 9},
      {"p(HGNC:)", "syntax", 7},
  };
  for (const Case &c : cases) {
    INFO("statement: " << c.statement);
    BelResult r = check(c.statement);
    CHECK_FALSE(r.valid());
    CHECK(r.canonical.empty());
    const BelProblem *e = first_error(r);
    REQUIRE(e != nullptr);
    CHECK(e->code == c.code);
    CHECK(e->offset == c.offset);
    CHECK_FALSE(e->message.empty());
  }
}

TEST_CASE("BEL messages say what to write instead") {
  BelResult r = check("a(HGNC:AKT1) -> p(HGNC:EGFR)");
  REQUIRE(first_error(r));
  CHECK(first_error(r)->message.find("p(HGNC:AKT1)") != std::string::npos);
  r = check("p(CHEBI:x) -> p(HGNC:EGFR)");
  CHECK(first_error(r)->message.find("a(CHEBI:x)") != std::string::npos);
  r = check("p(HGNC:AKT1) -> p(HGNC:B) -> p(HGNC:C)");
  CHECK(first_error(r)->message.find("parentheses") != std::string::npos);
}

TEST_CASE("BEL unknown namespaces can be warnings and scripts define namespaces") {
  BelOptions o;
  o.unknown_namespace_is_error = false;
  BelResult r = check("p(MYNS:X) -> p(HGNC:A)", o);
  CHECK(r.valid());
  CHECK(r.warnings() == 1);
  CHECK(r.problems[0].code == "unknown_namespace");

  BelValidator v;
  CHECK_FALSE(v.check("p(MYNS:X) -> p(HGNC:A)").valid());
  v.define_namespace({"MYNS", bel_gene, ""});
  CHECK(v.check("p(MYNS:X) -> p(HGNC:A)").valid());
  CHECK_FALSE(v.check("a(MYNS:X) -> p(HGNC:A)").valid());
}

TEST_CASE("BEL binds is accepted as pybel's extension with a warning") {
  BelResult r = check("p(HGNC:A) binds p(HGNC:B)");
  CHECK(r.valid());
  REQUIRE(r.warnings() == 1);
  CHECK(r.problems[0].code == "nonstandard");
  CHECK(bel_relation_is_undirected("binds"));
  CHECK(bel_relation_is_undirected("association"));
  CHECK_FALSE(bel_relation_is_undirected("increases"));
  CHECK(bel_relation_is_causal("directlyDecreases"));
  CHECK(bel_short_name("proteinAbundance") == "p");
}

TEST_CASE("BEL parser survives garbage and deep nesting") {
  std::mt19937 rng(7);
  for (int k = 0; k < 2000; ++k) {
    std::string s;
    std::size_t n = rng() % 80;
    for (std::size_t i = 0; i < n; ++i) s += static_cast<char>(rng() % 256);
    BelResult r = check(s);
    // Either a statement without errors, or at least one problem that says something.
    CHECK(r.valid() == (r.errors() == 0));
    if (r.valid())
      CHECK(check(r.canonical).canonical == r.canonical);
    else
      CHECK_FALSE(r.problems.front().message.empty());
  }
  const std::string alphabet = "p(HGNC:A,)\" -><|=a:complex";
  for (int k = 0; k < 5000; ++k) {
    std::string s;
    std::size_t n = rng() % 40;
    for (std::size_t i = 0; i < n; ++i) s += alphabet[rng() % alphabet.size()];
    BelResult r = check(s);
    if (r.valid()) CHECK(check(r.canonical).canonical == r.canonical);
  }
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "complex(";
  BelResult r = check(deep);
  REQUIRE(first_error(r));
  CHECK(first_error(r)->code == "syntax");
}

TEST_CASE("BEL script: pybel's test document with citations evidence and annotations") {
  BelDocument d = read_script(data("bel/pybel_test_bel.bel"));
  CHECK(d.errors() == 0);
  REQUIRE(d.statements.size() == 5);
  CHECK(d.valid_statements() == 5);
  CHECK(d.namespaces == std::vector<std::string>{"CHEBI", "HGNC"});
  CHECK(d.annotations == std::vector<std::string>{"Species", "CellLine"});
  REQUIRE(d.properties.size() == 8);
  CHECK(d.properties[0] == std::make_pair(std::string("Name"), std::string("PyBEL Test Simple")));
  const BelScriptStatement &first = d.statements[0];
  CHECK(first.line == 33);
  CHECK(first.result.canonical == "p(HGNC:AKT1) increases p(HGNC:EGFR)");
  REQUIRE(first.citation);
  CHECK(first.citation->type == "PubMed");
  CHECK(first.citation->id == "123455");
  CHECK(first.citation->name == "That one article from last week");
  CHECK(first.citation->authors == "Example Author|Example Author2");
  CHECK(first.evidence == "Evidence 1 w extra notes");  // backslash continuation
  CHECK(first.statement_group == "Group 1");
  REQUIRE(first.annotations.size() == 1);
  CHECK(first.annotations[0].first == "Species");
  CHECK(first.annotations[0].second == std::vector<std::string>{"9606"});
  const BelScriptStatement &second = d.statements[1];
  CHECK(second.evidence == "Evidence 2");
  CHECK(second.annotations.size() == 2);
  // A new citation clears the evidence and the annotations.
  const BelScriptStatement &fourth = d.statements[3];
  CHECK(fourth.citation->id == "123456");
  CHECK(fourth.evidence == "Evidence 3");
  REQUIRE(fourth.annotations.size() == 1);
  CHECK(fourth.annotations[0].second == std::vector<std::string>{"10116"});
  CHECK(d.statements[4].result.canonical == "p(HGNC:AKT1) association p(HGNC:CASP8)");
}

TEST_CASE("BEL script: pybel's thorough document") {
  BelDocument d = read_script(data("bel/pybel_thorough.bel"));
  // Counted independently: the statement lines of the file (not blank, not #, not SET/UNSET/DEFINE).
  std::ifstream in(data("bel/pybel_thorough.bel"));
  std::string line;
  std::size_t lines = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("SET ", 0) == 0 || line.rfind("UNSET ", 0) == 0 ||
        line.rfind("DEFINE ", 0) == 0)
      continue;
    ++lines;
  }
  CHECK(lines == 54);
  // One line chains two relations without parentheses (A -> B -> C): read as one statement per
  // relation, with a warning there; every statement is valid.
  CHECK(d.statements.size() == lines + 1);
  CHECK(d.chained == 1);
  CHECK(d.valid_statements() == 55);
  CHECK(d.errors() == 0);
  std::size_t chained_warnings = 0;
  for (const BelScriptProblem &p : d.problems)
    if (p.problem.code == "chained") {
      ++chained_warnings;
      CHECK(p.line == 62);
      CHECK(p.column == 44);  // the second relation
      CHECK(p.problem.severity == BelProblem::Severity::warning);
    }
  CHECK(chained_warnings == 1);
  std::vector<std::string> at62;
  for (const auto &s : d.statements)
    if (s.line == 62) at62.push_back(s.result.canonical);
  CHECK(at62 == std::vector<std::string>{"p(HGNC:CFTR, var(\"=\")) increases surf(p(HGNC:EGFR))",
                                         "surf(p(HGNC:EGFR)) increases p(HGNC:MIA, frag(\"?_*\"))"});
  // TESTAN1 is set to a list, then unset with TestRegex.
  CHECK(d.statements[0].annotations.size() == 2);
  CHECK(d.statements[0].annotations[0].second == std::vector<std::string>{"1", "2"});
  CHECK(d.statements[1].annotations.empty());
  // The two nested statements are the same statement.
  std::size_t nested = 0;
  for (const auto &s : d.statements)
    if (s.result.statement && s.result.statement->nested) {
      ++nested;
      CHECK(s.result.canonical == "p(HGNC:CAT) decreases (a(CHEBI:\"hydrogen peroxide\") increases bp(GO:\"apoptotic process\"))");
    }
  CHECK(nested == 2);
}

TEST_CASE("BEL script: control-line problems and annotation values") {
  std::istringstream in(
      "DEFINE ANNOTATION Confidence AS LIST {\"High\",\"Low\"}\n"
      "DEFINE ANNOTATION Number AS PATTERN \"[0-9]+\"\n"
      "SET Citation = {\"PubMed\", \"12345\"}\n"
      "SET Confidence = \"Medium\"\n"
      "SET Number = \"12a\"\n"
      "SET Unknown = \"x\"\n"
      "SET Evidence = \"spans\n"
      "two lines\"\n"
      "p(HGNC:A) -> p(HGNC:B)\n"
      "SET Citation = {\"PubMed\", \"not a pmid\"}\n"
      "SET Citation = {\"PubMed\"}\n"
      "DEFINE THING X AS URL \"u\"\n"
      "UNSET Nothing\n"
      "p(HGNC:A) -> p(HGNC:\n"
      "SET Evidence = \"never closed\n");
  BelDocument d = read_bel_script(in);
  REQUIRE(d.statements.size() == 2);
  CHECK(d.statements[0].evidence == "spans\ntwo lines");
  CHECK(d.statements[0].line == 9);
  CHECK(d.statements[1].line == 14);
  std::vector<std::pair<std::size_t, std::string>> got;
  for (const auto &p : d.problems) got.emplace_back(p.line, std::string(to_string(p.problem.severity)));
  const std::vector<std::pair<std::size_t, std::string>> expected = {
      {4, "error"}, {5, "error"}, {6, "warning"}, {10, "error"}, {11, "error"}, {12, "error"},
      {13, "warning"}, {14, "error"}, {15, "error"}};
  CHECK(got == expected);
  nlohmann::json j = to_json(d);
  CHECK(j["statements"] == 2);
  CHECK(j["valid_statements"] == 1);
  CHECK(j["results"][0]["citation"]["id"] == "12345");
  CHECK(j["results"][0]["annotations"]["Confidence"][0] == "Medium");
}

TEST_CASE("BEL JSON of a statement") {
  nlohmann::json j = to_json(check("p(HGNC:A) -> (p(HGNC:B) -| p(HGNC:C))"));
  CHECK(j["valid"] == true);
  CHECK(j["subject"] == "p(HGNC:A)");
  CHECK(j["relation"] == "increases");
  CHECK(j["object"] == "(p(HGNC:B) decreases p(HGNC:C))");
  j = to_json(check("a(HGNC:A)"));
  CHECK(j["valid"] == false);
  CHECK(j["canonical"].is_null());
  CHECK(j["problems"][0]["code"] == "namespace_kind");
  CHECK(j["relation"].is_null());
}

TEST_CASE("BEL script: a PATTERN annotation value too long to check is an error and no crash") {
  // std::regex recurses per character; a value of a megabyte would exhaust the stack.
  std::istringstream in("DEFINE ANNOTATION Number AS PATTERN \"([0-9]|a)+\"\n"
                        "SET Citation = {\"PubMed\", \"12345\"}\n"
                        "SET Number = \"" + std::string(1 << 20, '7') + "\"\n"
                        "SET Evidence = \"e\"\n"
                        "p(HGNC:A) -> p(HGNC:B)\n");
  const BelDocument d = read_bel_script(in);
  REQUIRE(d.problems.size() == 1);
  CHECK(d.problems[0].line == 3);
  CHECK(d.problems[0].problem.message.find("too long to check against its PATTERN") != std::string::npos);
}

TEST_CASE("BEL 2.2 labels after identifiers are read and written") {
  const std::pair<const char *, const char *> cases[] = {
      {"p(HGNC:391 ! AKT1)", "p(HGNC:391 ! AKT1)"},
      {"p(HGNC:391!AKT1)", "p(HGNC:391 ! AKT1)"},
      {"p(HGNC:\"391\" ! \"AKT1\")", "p(HGNC:391 ! AKT1)"},
      {"bp(GO:0006915 ! \"apoptotic process\")", "bp(GO:0006915 ! \"apoptotic process\")"},
      {"complex(p(HGNC:3942 ! MTOR), p(HGNC:391 ! AKT1)) -> bp(GO:0006915!\"apoptotic process\")",
       "complex(p(HGNC:391 ! AKT1), p(HGNC:3942 ! MTOR)) increases bp(GO:0006915 ! \"apoptotic process\")"},
  };
  for (const auto &in_out : cases) {
    const auto &in = in_out.first;
    const auto &out = in_out.second;
    INFO(in);
    const BelResult r = check(in);
    CHECK(r.valid());
    CHECK(r.canonical == out);
  }
  const BelResult parsed = check("p(HGNC:391 ! AKT1)");
  REQUIRE(parsed.statement);
  CHECK(parsed.statement->subject.args.at(0).name == "391");
  CHECK(parsed.statement->subject.args.at(0).label == "AKT1");
  // A '!' with nothing after it is an error at the '!'.
  const BelResult bad = check("p(HGNC:391 !)");
  CHECK_FALSE(bad.valid());
  REQUIRE(first_error(bad));
  CHECK(first_error(bad)->offset == 11);
  CHECK(first_error(bad)->message.find("label") != std::string::npos);
}

TEST_CASE("BEL entities resolved to identifiers deduplicate statements that name them differently") {
  int calls = 0;
  BelOptions o;
  o.resolver = [&calls](std::string_view ns, std::string_view value) -> std::optional<BelEntityId> {
    ++calls;
    if (ns == "HGNC" && (value == "AKT1" || value == "391")) return BelEntityId{"391", "AKT1"};
    if (ns == "HGNC" && (value == "MTOR" || value == "3942")) return BelEntityId{"3942", "MTOR"};
    if (ns == "GO" && (value == "apoptotic process" || value == "0006915")) return BelEntityId{"0006915", "apoptotic process"};
    return std::nullopt;
  };
  const BelResult a = check("p(HGNC:AKT1) -> act(p(HGNC:MTOR), ma(kin))", o);
  const BelResult b = check("proteinAbundance(HGNC:391) increases activity(p(HGNC:\"3942\"), ma(kin))", o);
  const BelResult c = check("p(HGNC:391 ! AKT1) -> act(p(HGNC:3942 ! MTOR), ma(kin))", o);
  CHECK(a.valid());
  CHECK(a.canonical == "p(HGNC:391 ! AKT1) increases act(p(HGNC:3942 ! MTOR), ma(kin))");
  CHECK(b.canonical == a.canonical);
  CHECK(c.canonical == a.canonical);
  CHECK(a.problems.empty());
  CHECK(calls > 0);
  // GOBP (BEL 1) is upgraded before it is resolved.
  CHECK(check("bp(GOBP:\"apoptotic process\")", o).canonical == "bp(GO:0006915 ! \"apoptotic process\")");
  // Unknown entities stay as written; a wrong label is replaced with a warning.
  CHECK(check("p(HGNC:TP53)", o).canonical == "p(HGNC:TP53)");
  const BelResult wrong = check("p(HGNC:391 ! AKT2)", o);
  CHECK(wrong.valid());
  CHECK(wrong.canonical == "p(HGNC:391 ! AKT1)");
  REQUIRE(wrong.problems.size() == 1);
  CHECK(wrong.problems[0].code == "label");
  CHECK(wrong.problems[0].severity == BelProblem::Severity::warning);
  // An entity of the wrong kind is an error and is not looked up.
  calls = 0;
  CHECK_FALSE(check("a(HGNC:AKT1)", o).valid());
  CHECK(calls == 0);
}

TEST_CASE("BEL script: trailing comments are left out and a double slash inside quotes is kept") {
  std::istringstream in("DEFINE NAMESPACE HGNC AS URL \"https://example.org/hgnc.belns\" // the symbols\n"
                        "SET Citation = {\"PubMed\", \"12345\"} // the paper\n"
                        "SET Evidence = \"A // B is no comment\"\n"
                        "p(HGNC:AKT1) increases p(HGNC:MTOR) // a curator's note\n"
                        "// a whole line\n"
                        "p(HGNC:AKT1) -> p(HGNC:GSK3B)\t// after a tab\n"
                        "p(HGNC:AKT1) -> p(HGNC:X)//not a comment: no blank before it\n"
                        "SET Evidence = \"e\" // a quote in a comment opens nothing: \"\n"
                        "p(HGNC:AKT1) -> p(HGNC:PDK1)\n");
  const BelDocument d = read_bel_script(in);
  REQUIRE(d.statements.size() == 4);
  CHECK(d.statements[3].evidence == "e");
  CHECK(d.statements[3].line == 9);
  CHECK(d.statements[3].result.valid());
  CHECK(d.statements[0].result.valid());
  CHECK(d.statements[0].evidence == "A // B is no comment");
  REQUIRE(d.statements[0].citation);
  CHECK(d.statements[0].citation->id == "12345");
  CHECK(d.statements[1].result.valid());
  CHECK(d.statements[1].line == 6);
  // Without a blank before it, '//' is part of the statement, and the statement is malformed.
  CHECK_FALSE(d.statements[2].result.valid());
  for (const auto &p : d.problems) CHECK(p.line == 7);
}

TEST_CASE("BEL script: a SET Citation that clears the evidence set before it is warned on each statement and counted") {
  // (the order reversed: SET Evidence, then SET Citation. BEL's rule, and PyBEL's: the citation
  // clears the evidence; PyBEL warns on each statement, so does the reader)
  std::istringstream in(
      "SET Citation = {\"PubMed\", \"111\"}\n"
      "SET Evidence = \"A binds B.\"\n"
      "p(HGNC:AKT1) -> p(HGNC:MTOR)\n"
      "SET Evidence = \"C binds D.\"\n"
      "SET Citation = {\"PubMed\", \"222\"}\n"
      "p(HGNC:TP53) -| p(HGNC:MDM2)\n"
      "p(HGNC:MDM2) -| p(HGNC:TP53)\n"
      "SET Evidence = \"E binds F.\"\n"
      "p(HGNC:EGFR) -> p(HGNC:GRB2)\n"
      "SET Citation = {\"PubMed\", \"333\"}\n"
      "p(HGNC:KRAS) -> p(HGNC:BRAF)\n");
  const BelDocument d = read_bel_script(in);
  REQUIRE(d.statements.size() == 5);
  CHECK(d.statements[0].evidence == "A binds B.");
  CHECK(d.statements[1].evidence.empty());
  CHECK(d.statements[3].evidence == "E binds F.");
  // (a citation with no evidence before it is no reversal: the last statement has none, silently)
  CHECK(d.evidence_cleared == 2);
  std::vector<std::size_t> lines;
  for (const auto &p : d.problems)
    if (p.problem.message.find("cleared the SET Evidence") != std::string::npos) {
      CHECK(p.problem.severity == grappi::BelProblem::Severity::warning);
      CHECK(p.problem.message.find("line 5") != std::string::npos);
      lines.push_back(p.line);
    }
  CHECK(lines == std::vector<std::size_t>{6, 7});
  CHECK(grappi::to_json(d, false).at("evidence_cleared") == 2);
}

TEST_CASE("BEL script: a line that chains relations is read as one statement per relation") {
  std::istringstream in(
      "SET Citation = {\"PubMed\", \"111\"}\n"
      "SET Evidence = \"A activates B, which activates C, which inhibits D.\"\n"
      "p(HGNC:AKT1) -> p(HGNC:MTOR) -> p(HGNC:RPS6KB1) -| p(HGNC:IRS1)\n"
      "p(HGNC:TP53) -> (p(HGNC:MDM2) -| p(HGNC:TP53)) -> p(HGNC:CDKN1A)\n"
      "p(HGNC:EGFR) -> p(HGNC:GRB2) -> q(HGNC:SOS1)\n");
  const BelDocument d = read_bel_script(in);
  // Line 3: three relations, three statements with the line's citation and evidence.
  std::vector<std::string> line3;
  for (const auto &s : d.statements)
    if (s.line == 3) {
      line3.push_back(s.result.canonical);
      CHECK(s.citation->id == "111");
      CHECK(s.evidence == "A activates B, which activates C, which inhibits D.");
    }
  CHECK(line3 == std::vector<std::string>{"p(HGNC:AKT1) increases p(HGNC:MTOR)",
                                          "p(HGNC:MTOR) increases p(HGNC:RPS6KB1)",
                                          "p(HGNC:RPS6KB1) decreases p(HGNC:IRS1)"});
  // Line 4: the object is a nested statement, so the text after it is no link of a chain: an error.
  // Line 5: the second link's own error is reported where it is in the line.
  CHECK(d.chained == 2);  // lines 3 and 5
  std::size_t line4_errors = 0, line5_errors = 0;
  for (const BelScriptProblem &p : d.problems) {
    if (p.line == 4 && p.problem.severity == BelProblem::Severity::error) ++line4_errors;
    if (p.line == 5 && p.problem.severity == BelProblem::Severity::error) {
      ++line5_errors;
      CHECK(p.column == 33);  // q( in the second link, counted in the whole line
    }
  }
  CHECK(line4_errors == 1);
  CHECK(line5_errors == 1);
  REQUIRE(d.statements.size() == 6);
  CHECK(d.statements[4].result.canonical == "p(HGNC:EGFR) increases p(HGNC:GRB2)");
  CHECK_FALSE(d.statements[5].result.valid());
  CHECK(grappi::to_json(d, false).at("chained") == 2);
  // A line of many links: one statement each, read in linear time without deep recursion.
  std::string chain = "p(HGNC:AKT1)";
  for (int i = 0; i < 100000; ++i) chain += i % 2 ? " -> p(HGNC:AKT1)" : " -| p(HGNC:MTOR)";
  std::istringstream long_line(chain + "\n");
  const BelDocument many = read_bel_script(long_line);
  CHECK(many.statements.size() == 100000);
  CHECK(many.valid_statements() == 100000);
  CHECK(many.chained == 1);
  CHECK(many.statements.back().result.canonical == "p(HGNC:MTOR) increases p(HGNC:AKT1)");
  // One statement checked alone is not a script: the chain stays an error there.
  const grappi::BelResult alone = grappi::validate_bel("p(HGNC:AKT1) -> p(HGNC:MTOR) -> p(HGNC:RPS6KB1)");
  CHECK_FALSE(alone.valid());
  REQUIRE_FALSE(alone.problems.empty());
  CHECK(alone.problems[0].message.find("a statement has one relation") != std::string::npos);
}
