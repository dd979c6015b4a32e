// The PSI-MITAB field parser on the forms real files contain (quoted identifiers and database
// names, blanks in unquoted identifiers, nested parentheses, escaped quotes) and on malformed ones.
#include <doctest/doctest.h>

#include "formats/mitab_parser.hpp"

using grappi::detail::MitabXref;
using grappi::detail::parse_mitab_field;

namespace {

std::vector<MitabXref> parse(const std::string &field) {
  std::string error;
  auto out = parse_mitab_field(field, error);
  REQUIRE_MESSAGE(error.empty(), error);
  return out;
}

std::string error_of(const std::string &field) {
  std::string error;
  CHECK(parse_mitab_field(field, error).empty());
  return error;
}

}  // namespace

TEST_CASE("MITAB fields: the forms IntAct writes") {
  CHECK(parse("-").empty());
  CHECK(parse("").empty());
  auto x = parse("psi-mi:\"MI:0018\"(two hybrid)");
  REQUIRE(x.size() == 1);
  CHECK(x[0].db == "psi-mi");
  CHECK(x[0].id == "MI:0018");
  CHECK(x[0].text == "two hybrid");
  x = parse("uniprotkb:D6VVE3|intact:EBI-25247|uniprotkb:P40460");
  REQUIRE(x.size() == 3);
  CHECK(x[1].db == "intact");
  CHECK(x[1].id == "EBI-25247");
  CHECK(x[1].text.empty());
  x = parse("uniprotkb:80 kDa spindle component protein(gene name synonym)|psi-mi:ndc80_yeast(display_short)");
  REQUIRE(x.size() == 2);
  CHECK(x[0].id == "80 kDa spindle component protein");
  CHECK(x[0].text == "gene name synonym");
  CHECK(x[1].id == "ndc80_yeast");
  x = parse("psi-mi:\"MI:0471\"(MINT, Dpt of Biology, University of Rome Tor Vergata)");
  CHECK(x.at(0).text == "MINT, Dpt of Biology, University of Rome Tor Vergata");
  x = parse("taxid:9606(human-9606)|taxid:9606(Homo sapiens (human))");
  REQUIRE(x.size() == 2);
  CHECK(x[1].text == "Homo sapiens (human)");
  x = parse("\"author-confidence (core)\":false|intact-miscore:0.37");
  REQUIRE(x.size() == 2);
  CHECK(x[0].db == "author-confidence (core)");
  CHECK(x[0].id == "false");
  CHECK(x[1].id == "0.37");
  x = parse("MINT:\\\"YNR035C(author assigned name)");
  REQUIRE(x.size() == 1);
  CHECK(x[0].id == "\"YNR035C");
  CHECK(x[0].text == "author assigned name");
  x = parse("chebi:\"CHEBI:15422\"(\"ATP\")");
  CHECK(x.at(0).id == "CHEBI:15422");
  CHECK(x.at(0).text == "ATP");
  x = parse("imex:\"IM-1|2\"");  // a bar inside quotes does not split
  CHECK(x.at(0).id == "IM-1|2");
}

TEST_CASE("MITAB fields: malformed ones are refused with the reason") {
  CHECK(error_of("P40460").find("is not database:identifier") != std::string::npos);
  CHECK(error_of(":P40460").find("is not database:identifier") != std::string::npos);
  CHECK(error_of("psi-mi:\"MI:0018(two hybrid)") == "unclosed quote");
  CHECK(error_of("psi-mi:\"MI:0018\"two hybrid").find("text after the quoted identifier") != std::string::npos);
  CHECK(error_of("uniprotkb:(gene name)").find("empty identifier") != std::string::npos);
  CHECK(error_of("uniprotkb:P1(a))").find("unbalanced parentheses") != std::string::npos);
}

TEST_CASE("MITAB detection: a header or a row of 15 36 or 42 columns") {
  using grappi::detail::looks_like_mitab;
  CHECK(looks_like_mitab("#ID(s) interactor A\tID(s) interactor B\tAlt"));
  CHECK(looks_like_mitab("#ID Interactor A\tID Interactor B"));
  std::string row = "uniprotkb:P1";
  for (int i = 1; i < 15; ++i) row += "\t-";
  CHECK(looks_like_mitab(row));
  CHECK_FALSE(looks_like_mitab(row + "\t-"));
  CHECK_FALSE(looks_like_mitab("#string_protein_id\tpreferred_name\tprotein_size\tannotation"));
  CHECK_FALSE(looks_like_mitab("protein1 protein2 combined_score"));
}
