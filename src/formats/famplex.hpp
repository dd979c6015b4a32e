// Internal: FamPlex's tables (Bachman, Gyori & Sorger, BMC Bioinformatics 2018;19:248; the
// sorgerlab/famplex repository's root CSV files): protein families and complexes, their members
// and parents, the texts papers write for them and for single proteins, and their equivalents in
// other namespaces (BEL's among them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace grappi::detail {

/// One row of relations.csv: `ns,id` isa or partof `parent_ns,parent_id` (HGNC,AKT1,isa,FPLX,AKT).
struct FamplexRelation {
  std::string ns, id, relation, parent_ns, parent_id;
};

/// One row of grounding_map.csv: a text as papers write it and what it names, best first
/// (("FPLX", "AKT"); ("UP", "P04637"); ("CHEBI", "CHEBI:16412"), ("MESH", "D008070")).
struct FamplexGrounding {
  std::string text;
  std::vector<std::pair<std::string, std::string>> ids;
};

/// One row of equivalences.csv: FamPlex's id and its equivalent in another namespace ("BEL",
/// "AKT Family").
struct FamplexEquivalence {
  std::string ns, id, famplex;
};

/// FamPlex's tables as read.
struct FamplexData {
  std::vector<std::string> entities;                ///< entities.csv, in order
  std::vector<FamplexRelation> relations;           ///< relations.csv
  std::vector<FamplexGrounding> groundings;         ///< grounding_map.csv (optional)
  std::vector<FamplexEquivalence> equivalences;     ///< equivalences.csv (optional)
  std::map<std::string, std::string> descriptions;  ///< descriptions.csv: an entity's first description (optional)
  uint64_t rows = 0;                                ///< data rows read in all
  uint64_t bytes = 0;                               ///< the files' sizes on disk
  std::string sha256;                               ///< SHA-256 of the files' names and SHA-256s, in the order above
  uint64_t bad_rows = 0;                            ///< rows skipped (skip_bad)
  std::vector<std::string> bad_examples;            ///< "file:line: problem", the first few
};

/// Reads FamPlex's tables from a directory (plain or gzipped: entities.csv[.gz] and
/// relations.csv[.gz] needed, grounding_map, equivalences and descriptions read when present).
/// A malformed row (a relation other than isa/partof or of the wrong width, an empty id, a
/// grounding without a namespace and id, a relation naming an entity the file does not list) is
/// Error(parse) naming the file and line, or with `skip_bad` counted and quoted (at most
/// `max_examples`). Error(io) for a missing directory or table; `max_rows` (0: none) bounds the
/// rows of each table as ImportOptions::max_rows does.
FamplexData read_famplex(const std::string &dir, bool skip_bad, std::size_t max_examples, uint64_t max_rows);

}  // namespace grappi::detail
