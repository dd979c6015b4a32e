// grappi/bel.hpp — BEL 2.1 (Biological Expression Language): statement parser, validator,
// canonical form and BEL script reader.
#pragma once

#include "grappi/export.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace grappi {

/// One node of a parsed BEL term: a function applied to arguments (`p(...)`), a namespaced
/// entity (`HGNC:AKT1`) or a plain value (`Ser`, `473`, `"p.Phe508del"`, `kin`).
struct BelTerm {
  /// What the node is.
  enum class Kind { function, entity, value };
  Kind kind = Kind::value;  ///< function, entity or value
  /// function: the BEL 2.1 long name ("proteinAbundance", "activity", "proteinModification",
  /// after BEL 1 forms were upgraded); entity: the value after the namespace ("AKT1", "cell
  /// surface"); value: the text (without quotes).
  std::string name;
  std::string ns;          ///< entity: the namespace prefix ("HGNC", "GO"); empty otherwise
  /// entity: the label written after `!` (BEL 2.2, `HGNC:391 ! AKT1`) or the one a
  /// BelEntityResolver gave; empty otherwise
  std::string label;
  bool quoted = false;     ///< the value was written in double quotes
  std::vector<BelTerm> args;  ///< a function's arguments, in order
  std::size_t offset = 0;  ///< byte offset of the node's first character in the statement
};

/// A parsed BEL statement: a term alone, `subject relation object`, or `subject relation
/// (nested statement)`.
struct BelStatement {
  BelTerm subject;       ///< the subject term
  /// The relation's BEL 2.1 long name ("increases", "directlyDecreases", "association");
  /// empty for a statement that is a term alone.
  std::string relation;
  std::optional<BelTerm> object;  ///< the object term, unless the object is a nested statement
  std::shared_ptr<const BelStatement> nested;  ///< the nested statement object, if any
};

/// Kinds of entity a namespace names; a function accepts namespaces of some kinds only
/// (`p()` takes genes and families, `a()` chemicals, `bp()` processes). Bit flags.
enum BelEntityKind : uint32_t {
  bel_gene = 1,          ///< genes and their products (HGNC, MGI, RGD, UniProt, NCBIGENE, ...)
  bel_family = 2,        ///< protein families (FPLX, SFAM, PFAM, INTERPRO)
  bel_chemical = 4,      ///< chemicals (CHEBI, PUBCHEM, MESHC, CHEMBL, DRUGBANK, HMDB)
  bel_complex = 8,       ///< named complexes (GO, SCOMP, FPLX)
  bel_process = 16,      ///< biological processes (GO, GOBP, MESHPP)
  bel_pathology = 32,    ///< diseases and phenotypes (DOID, MESHD, HP, MONDO, EFO)
  bel_location = 64,     ///< cellular components (GO, GOCC, MESHCS)
  bel_activity = 128,    ///< molecular functions (GO, GOMF)
  bel_population = 256,  ///< cell types, anatomy and taxa (CL, UBERON, NCBITAXON, EFO)
  bel_any = 0xffffffffu  ///< a namespace of unknown kind (one a BEL script defines): anything
};

/// A namespace the validator knows, with the kinds of entity it names.
struct BelNamespace {
  std::string prefix;        ///< as written in BEL ("HGNC"); matched case-sensitively
  uint32_t kinds = bel_any;  ///< BelEntityKind flags
  /// The preferred prefix when this one is a BEL 1 or legacy spelling ("GO" for "GOBP");
  /// statements using it get a warning and the canonical form uses the preferred prefix.
  std::string preferred;
};

/// The built-in namespace table (HGNC, UniProt, FPLX, CHEBI, GO, DOID, EFO, HP, MESHD, ...,
/// and the BEL 1 prefixes GOBP, GOCC, GOMF, EGID, SP, SFAM, SCHEM, SDIS, SCOMP, MESHPP).
GRAPPI_CXX_API std::vector<BelNamespace> default_bel_namespaces();

/// What a namespaced value stands for: its identifier in that namespace and its label.
struct BelEntityId {
  std::string id;     ///< the identifier without the prefix ("391" for HGNC:391 ! AKT1)
  std::string label;  ///< the preferred label ("AKT1")
};

/// Looks up a namespaced value, given either as a name ("HGNC", "AKT1"; "GO", "apoptotic
/// process") or as an identifier ("HGNC", "391"; "GO", "0006915"); nullopt when the value is
/// unknown or names more than one entity. Called from BelValidator::check, so it must be
/// safe to call from the threads that share a validator.
using BelEntityResolver = std::function<std::optional<BelEntityId>(std::string_view ns, std::string_view value)>;

/// How BEL is validated and written.
struct BelOptions {
  /// The namespaces known to the validator (a BEL script's DEFINE NAMESPACE adds to them for
  /// that script).
  std::vector<BelNamespace> namespaces = default_bel_namespaces();
  /// A namespace missing from `namespaces` is an error; false: a warning, and it is taken as
  /// naming anything.
  bool unknown_namespace_is_error = true;
  /// The canonical form spells functions in long form (`proteinAbundance(HGNC:AKT1)`) instead
  /// of short form (`p(HGNC:AKT1)`).
  bool long_form = false;
  /// When set, every entity the resolver knows is rewritten to its identifier and label
  /// (`p(HGNC:AKT1)` and `p(HGNC:391)` both become `p(HGNC:391 ! AKT1)`), so that statements
  /// naming one entity in different ways have one canonical form; a label written after `!`
  /// that differs from the resolver's gets a warning ("label"). KnowledgeGraph::bel_resolver()
  /// gives one built from the identifiers a knowledge base holds.
  BelEntityResolver resolver;
};

/// One problem found in a statement.
struct BelProblem {
  /// Errors make a statement invalid; warnings (BEL 1 forms, deprecated or non-standard
  /// spellings) do not.
  enum class Severity { error, warning };
  Severity severity = Severity::error;  ///< error or warning
  /// A stable short name: "syntax", "unknown_function", "unknown_relation", "misplaced",
  /// "arity", "unknown_namespace", "namespace_kind", "pmod", "amino_acid", "position",
  /// "activity", "variant", "fragment", "relation_terms", "bel1", "nonstandard",
  /// "unquoted_value", "legacy_namespace", "label"; in a BEL script also "script" (a SET, UNSET or
  /// DEFINE line that is malformed or sets a value its definition does not allow) and "chained"
  /// (a line `A -> B -> C` read as one statement per relation).
  std::string code;
  std::size_t offset = 0;  ///< byte offset in the statement where the problem starts
  std::string message;     ///< what is wrong and what to write instead, for a person
};

/// "error" or "warning".
GRAPPI_CXX_API const char *to_string(BelProblem::Severity severity) noexcept;

/// The outcome of checking one statement.
struct GRAPPI_CXX_API BelResult {
  /// The statement as parsed, with BEL 1 forms upgraded; absent when it could not be parsed.
  std::optional<BelStatement> statement;
  std::vector<BelProblem> problems;  ///< in order of offset
  /// The canonical form (BelOptions::long_form decides the spelling); empty when the statement
  /// has errors.
  std::string canonical;
  /// Whether no problem is an error.
  bool valid() const noexcept;
  /// How many problems are errors.
  std::size_t errors() const noexcept;
  /// How many problems are warnings.
  std::size_t warnings() const noexcept;
};

/// Parses, checks and canonicalises BEL statements. Immutable after construction apart from
/// define_namespace, and safe to use from several threads once no thread defines namespaces.
class GRAPPI_CXX_API BelValidator {
 public:
  /// A validator with the given namespace table and spelling.
  explicit BelValidator(BelOptions options = {});
  /// Adds or replaces a namespace (a BEL script's DEFINE NAMESPACE adds one of kind bel_any
  /// unless the prefix is already known).
  void define_namespace(BelNamespace ns);
  /// Whether a namespace prefix is known.
  bool knows_namespace(std::string_view prefix) const;
  /// Parses and checks one statement (no trailing comment; surrounding blanks are ignored).
  /// Never throws for bad input: every problem is in the result.
  BelResult check(std::string_view statement) const;
  /// The options in force.
  const BelOptions &options() const noexcept { return options_; }

 private:
  BelOptions options_;
  std::unordered_map<std::string, BelNamespace> table_;
};

/// Checks one statement with a fresh validator; see BelValidator::check.
GRAPPI_CXX_API BelResult validate_bel(std::string_view statement, const BelOptions &options = {});

/// A term in canonical form: short (or long) function names, values quoted where needed,
/// `, ` between arguments, the members of `complex()`/`composite()` sorted.
GRAPPI_CXX_API std::string to_bel(const BelTerm &term, bool long_form = false);
/// A statement in canonical form; relations in their long form, nested statements in
/// parentheses.
GRAPPI_CXX_API std::string to_bel(const BelStatement &statement, bool long_form = false);
/// The short name of a BEL function given by its long name ("p" for "proteinAbundance");
/// the name itself when it has none.
GRAPPI_CXX_API std::string bel_short_name(std::string_view long_name);
/// Whether a BEL relation (long name) is undirected: association and the correlations,
/// equivalentTo, orthologous, analogousTo, binds.
GRAPPI_CXX_API bool bel_relation_is_undirected(std::string_view relation);
/// Whether a BEL relation (long name) is causal (increases, decreases, their direct forms,
/// regulates, causesNoChange, rateLimitingStepOf).
GRAPPI_CXX_API bool bel_relation_is_causal(std::string_view relation);

/// A citation as a BEL script's `SET Citation` gives it.
struct BelCitation {
  std::string type;  ///< "PubMed", "DOI", "PMC", "URL", "Book", "Other", ...
  std::string id;    ///< the reference (a PMID for PubMed)
  std::string name;  ///< the title or journal, when given
  std::string date;  ///< when given
  std::string authors;  ///< '|'-separated, when given
};

/// One statement of a BEL script with the context in force on its line.
struct BelScriptStatement {
  std::size_t line = 0;    ///< 1-based line where the statement starts
  std::string text;        ///< the statement as written (continuation lines joined)
  BelResult result;        ///< its parse, problems and canonical form
  std::optional<BelCitation> citation;  ///< the citation in force
  std::string evidence;    ///< the evidence (supporting text) in force
  std::string statement_group;  ///< the statement group in force
  /// The annotations in force (`SET Species = "9606"`, `SET CellLine = {"a", "b"}`), by name,
  /// in the order they were set.
  std::vector<std::pair<std::string, std::vector<std::string>>> annotations;
};

/// A problem of a BEL script: one of a statement's problems or a problem of a SET, UNSET or
/// DEFINE line.
struct BelScriptProblem {
  std::size_t line = 0;    ///< 1-based line
  std::size_t column = 0;  ///< 1-based byte column
  BelProblem problem;      ///< severity, code and message ("script" for a control line)
};

/// A BEL script read and checked.
struct GRAPPI_CXX_API BelDocument {
  std::vector<std::pair<std::string, std::string>> properties;  ///< SET DOCUMENT key = value
  std::vector<std::string> namespaces;   ///< prefixes DEFINE NAMESPACE declared
  std::vector<std::string> annotations;  ///< names DEFINE ANNOTATION declared
  std::vector<BelScriptStatement> statements;  ///< every statement line, valid or not
  std::vector<BelScriptProblem> problems;      ///< every problem, by line
  /// Statements without evidence because a SET Citation cleared a SET Evidence no statement had
  /// used yet (the two written in reverse order; a citation clears the evidence and annotations,
  /// as BEL says): a warning on each such statement's line, as PyBEL gives.
  std::size_t evidence_cleared = 0;
  /// Statement lines that chain relations (`A -> B -> C`, which BEL 2.1 does not allow): each is
  /// read as one statement per link (`A -> B`, `B -> C`), with a "chained" warning on its line.
  std::size_t chained = 0;
  /// How many statements are valid.
  std::size_t valid_statements() const noexcept;
  /// How many problems are errors.
  std::size_t errors() const noexcept;
};

/// Reads a BEL script (BEL 1 or 2: SET DOCUMENT, DEFINE NAMESPACE/ANNOTATION, SET/UNSET of
/// Citation, Evidence/SupportingText, STATEMENT_GROUP and annotations, `#` comments, backslash
/// continuation and quoted values that span lines) or a plain list of statements, one per
/// line. Problems are
/// collected, never thrown; throws Error(io) only when the stream fails.
GRAPPI_CXX_API BelDocument read_bel_script(std::istream &in, const BelOptions &options = {});

}  // namespace grappi
