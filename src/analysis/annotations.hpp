// Internal: the database's GO annotations as enrichment reads them, kept per generation.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "grappi/enrichment.hpp"
#include "grappi/snapshot.hpp"

namespace grappi {
class KnowledgeGraph;
}

namespace grappi::detail {

/// One annotation category: GO's aspects, by the terms' namespace or the annotation's relation.
struct AnnotationCategory {
  const char *name;        ///< "Process"
  const char *name_space;  ///< the OBO namespace of its terms ("biological_process")
  const char *relation;    ///< the gene table's edge of it ("go.involved_in")
  std::vector<std::string> aliases;  ///< names read for it, lower case
};
constexpr std::size_t kGoCategories = 3;
const std::array<AnnotationCategory, kGoCategories> &go_categories();

/// A protein's direct annotation: its term and evidence codes (bits of Annotations::codes; 0 for
/// an annotation that lists none).
struct DirectAnnotation {
  uint32_t term;
  uint64_t codes;
};

/// The annotated proteins (rows, in node order), their direct annotations, and each annotated
/// term's closure (itself and its ancestors of its category along is_a and part_of).
struct Annotations {
  std::shared_ptr<const GraphSnapshot> graph;
  /// The categories, by index: GO's three first (go_categories()), then those of STRING's
  /// functional annotations the database holds (relations annotation.*: "KEGG", "Reactome", ...).
  std::vector<std::string> categories;
  std::vector<std::string> category_relations;  ///< each category's relation (GO's: go_categories()'s)
  std::vector<std::string> codes;     ///< evidence codes, by bit
  std::vector<int8_t> node_category;  ///< by snapshot index: the term's category, -1 for none
  // Rows.
  std::vector<uint32_t> row_node;  ///< snapshot index of each row's protein
  std::vector<int64_t> taxon;      ///< each row's taxon (0: none given)
  std::vector<char> network;       ///< each row's protein has an edge of the network
  std::vector<uint32_t> direct_offsets;  ///< row r's annotations: direct[offsets[r], offsets[r + 1])
  std::vector<DirectAnnotation> direct;
  std::unordered_map<uint32_t, uint32_t> row_of_node;
  // Terms: every annotated term and every ancestor of one.
  std::vector<uint32_t> term_node;  ///< snapshot index of each term
  std::unordered_map<uint32_t, uint32_t> term_of_node;
  std::vector<uint32_t> closure_offsets;  ///< an annotated term t's closure: closure[offsets[t], offsets[t + 1])
  std::vector<uint32_t> closure;

  /// A background's counts: which rows are in each category's universe, and each term's
  /// annotated proteins among them (K).
  struct Universe {
    std::vector<std::vector<char>> member;  ///< by category, by row
    std::vector<std::size_t> size;          ///< N, by category
    std::vector<uint32_t> annotated;                          ///< K, by term
  };
  /// Universes already counted, by background and excluded codes (at most a few kept).
  mutable std::mutex universes_mu;
  mutable std::map<std::string, std::shared_ptr<const Universe>> universes;
};

/// The category a name means (any case: GO's names and aliases, another category's name or its
/// relation); Error(invalid_argument) listing the database's categories otherwise.
std::size_t category_index(const Annotations &a, const std::string &name);

/// Whether a relation is of the network: no annotation (go.*, annotation.*) or ontology link (obo.*).
bool network_relation(const std::string &name);

/// Which relations (by index) make the network: those named, else every network_relation.
/// Error(invalid_argument) naming `what` and listing the graph's for an unknown name.
std::vector<char> network_relations(const GraphSnapshot &g, const std::vector<std::string> &names, const char *what);

/// Terms ordered by FDR, then p-value and id, the first `most` kept (a cluster's or a window's terms).
void keep_lowest_fdr(std::vector<EnrichedTerm> &terms, std::size_t most);

/// The annotations of the graph's current generation (read on the first call after a write).
std::shared_ptr<const Annotations> annotations(const KnowledgeGraph &kg);

/// The node ids names link to (the one name linker); the names that link to none, or to several,
/// in `unmatched` with the reason. Error(invalid_argument) for no names, Error(not_found) when
/// none links (`what` names the caller).
std::vector<int64_t> link_names(const KnowledgeGraph &kg, const std::vector<std::string> &names,
                                std::vector<std::pair<std::string, std::string>> &unmatched, const char *what);

/// The GO terms a text names (node ids): the terms whose name is the text (any case), else
/// those with it as an exact synonym, else the (at most three) terms with it as a related or narrow
/// synonym ("apoptosis": "apoptotic process" and "execution phase of apoptosis"). Empty when GO is not imported or nothing matches.
std::vector<int64_t> go_terms_named(const KnowledgeGraph &kg, const std::string &text);

/// Whether a protein (snapshot index) is annotated to a term (snapshot index) or to a term below it
/// (is_a, part_of): the true-path rule. `via` (if given) gets the direct annotation's term node.
bool annotated_under(const Annotations &a, uint32_t protein, uint32_t term, uint32_t *via = nullptr);

}  // namespace grappi::detail
