// grappi/enrichment.hpp — functional enrichment of a protein set: which GO terms (or other
// annotation categories) its members share more often than the background does, by the
// one-sided hypergeometric test with Benjamini–Hochberg's false discovery rate per category,
// as STRING's enrichment reports them (Szklarczyk et al., Nucleic Acids Res. 2023).
//
// Annotations are the database's own: the gene table's GO columns become edges from a protein to
// its GO terms (go.involved_in, go.enables, go.located_in, with their evidence codes) once GO
// itself is imported (grappi import go-basic.obo, then the gene table). Counted, they propagate up
// GO's `is_a` and `part_of` links (the true-path rule): a protein annotated to "apoptotic
// process" counts for "programmed cell death" and every ancestor.
#pragma once

#include "grappi/export.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace grappi {

class KnowledgeGraph;

/// What the set is compared with.
enum class EnrichmentBackground {
  annotated,  ///< the proteins of the set's organism with an annotation in the category (STRING's default)
  network,    ///< the proteins with an edge of the network (a relation that is not an annotation or ontology link)
  given,      ///< EnrichmentOptions::background_proteins
};

/// Options of enrich().
struct EnrichmentOptions {
  /// Categories tested: "Process", "Function", "Component" (GO's three aspects, STRING's names;
  /// "BP", "MF", "CC", "GO:BP", "biological_process" and the like are read too), and those of
  /// STRING's functional annotations the database holds ("KEGG", "Reactome", "WikiPathways",
  /// "InterPro", ... any case). Empty: every category the database annotates. An unknown name is
  /// Error(invalid_argument) listing them.
  std::vector<std::string> categories;
  /// Evidence codes that do not count ({"IEA"}: electronic annotations left out). An annotation
  /// counts when one of its codes is not excluded (an annotation without codes always counts).
  std::vector<std::string> exclude_evidence;
  EnrichmentBackground background = EnrichmentBackground::annotated;  ///< the universe
  /// The background's proteins (node ids) when background is `given`.
  std::vector<int64_t> background_proteins;
  /// Terms tested: those with at least this many annotated proteins in the universe (and at
  /// least one in the set).
  std::size_t min_term_size = 1;
  /// ... and at most this many (0: no upper bound).
  std::size_t max_term_size = 0;
  /// Terms reported: FDR at most this (1: every term tested).
  double max_fdr = 1.0;
};

/// One term of the result.
struct EnrichedTerm {
  int64_t id = 0;            ///< the term's node id
  std::string term;          ///< its external id ("GO:0006915")
  std::string name;          ///< its name ("apoptotic process")
  std::string category;      ///< "Process", "Function", "Component", "KEGG", ...
  std::size_t observed = 0;  ///< k: proteins of the set annotated to it (propagated)
  std::size_t set_size = 0;  ///< n: proteins of the set in the category's universe
  std::size_t background = 0;  ///< K: proteins of the universe annotated to it
  std::size_t universe = 0;  ///< N: proteins of the universe (annotated in the category)
  double expected = 0;       ///< n K / N
  double strength = 0;       ///< log10(observed / expected)
  double p_value = 1;        ///< P(X >= k), X hypergeometric (N, K, n)
  double fdr = 1;            ///< Benjamini–Hochberg over the category's tested terms
  std::vector<int64_t> proteins;  ///< the set's proteins annotated to it (node ids, by external id)
};

/// One category's counts.
struct EnrichmentCategory {
  std::string category;      ///< its name
  std::size_t set_size = 0;  ///< n
  std::size_t universe = 0;  ///< N
  std::size_t tested = 0;    ///< terms tested (the FDR's family)
  std::size_t reported = 0;  ///< terms within max_fdr
};

/// The result of enrich().
struct EnrichmentResult {
  std::vector<EnrichedTerm> terms;  ///< by category, then FDR, p-value and term id
  std::vector<EnrichmentCategory> categories;  ///< the categories tested, in their order
  std::vector<int64_t> proteins;    ///< the set, without repeats, in the order given
  /// Members of the set in no tested category's universe (no annotation there that counts, or
  /// outside the background).
  std::vector<int64_t> unannotated;
  std::string background;           ///< the background, in words
  /// enrich_names: the names that named no protein, each with the reason ("not found; did you
  /// mean ...", "ambiguous: ...").
  std::vector<std::pair<std::string, std::string>> unmatched;
};

/// The enrichment of a set of proteins (node ids) in the database's annotations. The
/// annotations are read once per database generation and kept (thread-safe). Error(not_found)
/// when the database holds no annotation of a category asked for (GO not imported before the gene
/// table, say) or a node id is unknown; Error(invalid_argument) for bad options or an empty set.
GRAPPI_CXX_API EnrichmentResult enrich(const KnowledgeGraph &graph, const std::vector<int64_t> &proteins,
                                       const EnrichmentOptions &options = {});

/// enrich over names (symbols, aliases, external ids: the one name linker, as `grappi resolve`):
/// names that name no protein, or several, are left out and listed in `unmatched`;
/// Error(not_found) when none names one. `background_names` fill the given background the same
/// way (its unmatched names are listed too, marked "background").
GRAPPI_CXX_API EnrichmentResult enrich_names(const KnowledgeGraph &graph, const std::vector<std::string> &names,
                                             EnrichmentOptions options = {},
                                             const std::vector<std::string> &background_names = {});

/// Options of ppi_enrichment().
struct PpiEnrichmentOptions {
  /// The network: edges of at least this score (0-1; STRING's medium confidence by default).
  double min_score = 0.4;
  /// ... of these relations (empty: every relation that is no annotation or ontology link, the
  /// go.* and obo.* ones). An unknown name is Error(invalid_argument) listing the graph's.
  std::vector<std::string> relations;
};

/// Whether a protein set has more interactions among its members than proteins of the same
/// degrees would (STRING's PPI enrichment): the edges among the set against the number expected
/// in a random graph with the network's degrees (Pradines et al., J. Comput. Biol. 2005: a pair
/// of degrees d_i, d_j is joined with probability 1 - exp(-d_i d_j / 2M)), with the Poisson
/// probability of at least as many (of at most every pair).
struct PpiEnrichmentResult {
  std::vector<int64_t> proteins;  ///< the set, without repeats, in the order given
  std::size_t nodes = 0;          ///< proteins of the set (n)
  std::size_t edges = 0;          ///< edges among them in the network (pairs joined)
  double expected_edges = 0;      ///< the sum over the set's pairs of their probability
  double p_value = 1;             ///< P(X >= edges | X <= n(n-1)/2), X Poisson with that mean
  double average_degree = 0;      ///< 2 edges / n: within the set
  double clustering = 0;          ///< the set's average local clustering coefficient (0 below two partners)
  std::size_t network_proteins = 0;  ///< proteins with an edge of the network
  std::size_t network_edges = 0;  ///< M: pairs the network joins
  double min_score = 0;           ///< the network's score threshold
  std::vector<std::pair<std::string, std::string>> unmatched;  ///< names left out, with the reason
};

/// The PPI enrichment of a set of proteins (node ids). Error(invalid_argument) for an empty set
/// or bad options, Error(not_found) for an unknown node id.
GRAPPI_CXX_API PpiEnrichmentResult ppi_enrichment(const KnowledgeGraph &graph, const std::vector<int64_t> &proteins,
                                                  const PpiEnrichmentOptions &options = {});
/// ppi_enrichment over names, as enrich_names reads them.
GRAPPI_CXX_API PpiEnrichmentResult ppi_enrichment_names(const KnowledgeGraph &graph, const std::vector<std::string> &names,
                                                        const PpiEnrichmentOptions &options = {});
/// {"proteins" [external ids], "nodes", "edges", "expected_edges", "p_value", "average_degree",
/// "clustering", "network_proteins", "network_edges", "min_score", "unmatched"}.
GRAPPI_CXX_API nlohmann::json to_json(const KnowledgeGraph &graph, const PpiEnrichmentResult &result);

/// "annotated", "network", "given".
GRAPPI_CXX_API const char *to_string(EnrichmentBackground background) noexcept;
/// Inverse of to_string; Error(invalid_argument) listing the names otherwise.
GRAPPI_CXX_API EnrichmentBackground enrichment_background(const std::string &name);

/// The result as JSON (docs/schemas/enrich.schema.json): {"background", "proteins"
/// [external ids], "unannotated", "unmatched" [{"name", "reason"}], "categories" [...], "terms" [{"term", "name", "category",
/// "observed", "set_size", "background", "universe", "expected", "strength", "p_value", "fdr",
/// "proteins" [external ids]}]}.
GRAPPI_CXX_API nlohmann::json to_json(const KnowledgeGraph &graph, const EnrichmentResult &result);

}  // namespace grappi
