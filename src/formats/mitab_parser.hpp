// Internal: a parser of PSI-MITAB 2.5, 2.6 and 2.7 rows (HUPO-PSI's tab-separated molecular
// interaction format, as IntAct, MINT, BioGRID and DIP export it). A field is "-" or a
// "|"-separated list of cross-references `database:identifier(description)`, where the
// identifier and the description may be double-quoted (`psi-mi:"MI:0018"(two hybrid)`) and an
// unquoted identifier may contain blanks (`uniprotkb:80 kDa protein(gene name synonym)`).
// Problems are returned as messages; the importer adds the file and line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace grappi::detail {

/// One cross-reference of a MITAB field.
struct MitabXref {
  std::string db;    // "uniprotkb", "psi-mi", "pubmed", "taxid", "intact-miscore", ...
  std::string id;    // "P40460", "MI:0018", "11087867", "559292", "0.37"
  std::string text;  // the description in parentheses ("two hybrid", "gene name"), or empty
};

/// The columns of a row grappi reads (0-based positions in the MITAB specification).
enum MitabColumn : int {
  kIdA = 0, kIdB = 1, kAltA = 2, kAltB = 3, kAliasA = 4, kAliasB = 5, kMethod = 6, kAuthor = 7,
  kPublication = 8, kTaxonA = 9, kTaxonB = 10, kType = 11, kSourceDb = 12, kInteractionId = 13,
  kConfidence = 14,
  // 2.6 and later
  kExpansion = 15, kBioRoleA = 16, kBioRoleB = 17, kExpRoleA = 18, kExpRoleB = 19, kTypeA = 20, kTypeB = 21,
  // 2.7
  kNegative = 35,
};

/// 15 (2.5), 36 (2.6) or 42 (2.7) columns: the version; 0 for any other count.
int mitab_version_of_columns(std::size_t columns);

/// The cross-references of one field ("-" and "" give none). On a malformed field returns
/// nothing and sets `error` to what is wrong with it.
std::vector<MitabXref> parse_mitab_field(std::string_view field, std::string &error);

/// The first cross-reference of `db` (case-insensitive), if any.
const MitabXref *first_xref(const std::vector<MitabXref> &xrefs, std::string_view db);

/// True when a file's first line is a MITAB header ("#ID(s) interactor A<TAB>...", BioGRID's
/// "#ID Interactor A", ...) or a row of 15, 36 or 42 tab-separated columns whose first column
/// is a cross-reference.
bool looks_like_mitab(std::string_view first_line);

}  // namespace grappi::detail
