// Internal: BEL statements into the knowledge graph, shared by the BEL script, BEL JSON graph
// and CX2 (textToKnowledgeGraph) importers. One node per canonical BEL term (label "BelTerm",
// external id the canonical short form); statements become `bel.<relation>` edges with one
// evidence record per occurrence; terms are tied to the terms inside them (bel.hasVariant,
// bel.hasComponent, bel.hasReactant, bel.hasProduct, bel.wraps) and plain gene, RNA and
// protein terms to the stored protein of their gene (bel.represents).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/bel.hpp"
#include "grappi/import.hpp"
#include "import_writer.hpp"

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
  /// holding the canonical statement, the occurrence's context and its raw text.
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
  uint64_t statements_ = 0, term_only_ = 0, nested_ = 0, records_ = 0, represented_ = 0, unjoined_ = 0,
           ambiguous_ = 0;
};

/// The PubMed id of a citation of that type ("PubMed", any case) and id; nullopt for other
/// sources and ids that are not a number.
std::optional<int64_t> pubmed_id(std::string_view type, std::string_view id);

/// A quoted BEL script value: backslash before '"' and '\' (read_bel_script undoes it).
std::string bel_quoted(const std::string &s);

/// The first error of an invalid result with its character position, for a bad-line message.
std::string bel_first_error(const BelResult &r);

/// The citation, PubMed ids, evidence and annotations of a BEL script statement as the JSON
/// context of its evidence record.
nlohmann::json bel_context(const BelScriptStatement &s);

}  // namespace grappi::detail
