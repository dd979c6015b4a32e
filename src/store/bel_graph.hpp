// Internal: BEL statements into the knowledge graph, shared by the BEL script, BEL JSON graph
// and CX2 (textToKnowledgeGraph) importers. One node per canonical BEL term (label "BelTerm",
// external id the canonical short form); statements become `bel.<relation>` edges with one
// evidence record per occurrence; terms are tied to the terms inside them (bel.hasVariant,
// bel.hasComponent, bel.hasReactant, bel.hasProduct, bel.wraps) and plain gene, RNA and
// protein terms to the stored protein of their gene (bel.represents).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/bel.hpp"
#include "grappi/import.hpp"
#include "store/import_writer.hpp"

namespace grappi::detail {

/// One occurrence of a statement in a source: its context (citation, pmids, evidence,
/// annotations, ...) and the text it was read from.
struct BelOccurrence {
  nlohmann::json context = nlohmann::json::object();
  std::string raw;
};

class BelGraphWriter {
 public:
  BelGraphWriter(ImportWriter &w, const ImportOptions &options) : w_(w), opt_(options) {}

  /// The node of a (canonical) term, created with the nodes of the terms inside it.
  int64_t term(const BelTerm &t);
  /// Stores a valid statement: its edges, each with one evidence record per occurrence
  /// holding the canonical statement, the occurrence's context and its raw text. A statement
  /// between terms about one stored protein each (`act(p(HGNC:AKT1)) increases p(HGNC:MTOR,
  /// pmod(Ph))`) also joins the two proteins by an edge of the same relation with the same
  /// records, and a complex of stored proteins as the statement's subject, object or whole
  /// joins every two of them (`bel.complex`, undirected): neighbours, paths and answers see
  /// the literature between proteins.
  void statement(const BelStatement &s, const std::string &canonical, uint64_t line,
                 const std::vector<BelOccurrence> &occurrences);
  /// Counts for FileReport::details.
  std::vector<std::pair<std::string, uint64_t>> details() const;

 private:
  int64_t edge(int64_t a, int64_t b, const std::string &relation, double score = 1.0);
  void represent(const BelTerm &t, int64_t node);

  ImportWriter &w_;
  const ImportOptions &opt_;
  std::unordered_map<std::string, int64_t> terms_;  // canonical term -> node
  // term node -> the one stored protein it is about (p(X), act(p(X)), p(X, pmod(..)), ...)
  std::unordered_map<int64_t, int64_t> protein_of_;
  std::optional<int64_t> protein(int64_t term) const {
    const auto it = protein_of_.find(term);
    return it == protein_of_.end() ? std::nullopt : std::optional<int64_t>(it->second);
  }
  uint64_t statements_ = 0, term_only_ = 0, nested_ = 0, records_ = 0, represented_ = 0, unjoined_ = 0,
           ambiguous_ = 0, protein_edges_ = 0, term_records_ = 0;
};

/// The PubMed id of a citation of that type ("PubMed", any case) and id; nullopt for other
/// sources and ids that are not a number.
std::optional<int64_t> pubmed_id(std::string_view type, std::string_view id);

/// A quoted BEL script value: backslash before '"' and '\' (read_bel_script undoes it).
std::string bel_quoted(const std::string &s);

/// The citation id and evidence the BEL export writes for a statement read without them (BEL
/// asks every statement for both); the importer reads them back as none.
inline constexpr const char *kUncitedId = "grappi:uncited";
inline constexpr const char *kUncitedEvidence = "no evidence in the source";

/// A statement in canonical form as PyBEL reads it too: namespace values and labels that are
/// not all letters and digits quoted (`a(CHEBI:"Abeta_42")`; grappi reads both spellings as
/// one term).
std::string bel_script_form(const std::string &canonical);

/// A statement's line in a BEL 2.1 document: bel_script_form, except BEL 1 relations BEL 2
/// removed: "A actsIn act(A)" (likewise translocates, reactantIn, hasModification) as its
/// object term, which says it in BEL 2, with the BEL 1 statement in a trailing comment;
/// "includes" as a comment line.
std::string bel2_line(const std::string &canonical);

/// The namespaces the BEL statements or terms use (read with every namespace allowed).
std::set<std::string> bel_namespaces_of(const std::vector<std::string> &statements);

/// The head of a standalone BEL 2.1 document (PyBEL reads it without a warning): the document
/// section with the five fields BEL asks for, every namespace defined as a pattern (values are
/// the database's, not checked against a namespace file), the `lists` annotations as lists of
/// their values and the `patterns` annotations as free text.
std::string bel_document_head(const std::string &name, const std::string &description,
                              const std::set<std::string> &namespaces,
                              const std::map<std::string, std::set<std::string>> &lists,
                              const std::vector<std::string> &patterns);

/// The first error of an invalid result with its character position, for a bad-line message.
std::string bel_first_error(const BelResult &r);

/// The citation, PubMed ids, evidence and annotations of a BEL script statement as the JSON
/// context of its evidence record.
nlohmann::json bel_context(const BelScriptStatement &s);

}  // namespace grappi::detail
