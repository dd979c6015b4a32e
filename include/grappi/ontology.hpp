// grappi/ontology.hpp — queries over the ontologies in a knowledge graph (OBO imports).
#pragma once

#include "grappi/export.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "grappi/snapshot.hpp"

namespace grappi {

/// Options of Ontology.
struct OntologyOptions {
  /// The directed relations that lead from a term to its parents ("obo.is_a" as an OBO import
  /// writes it; add "obo.part_of" to walk part-of too). Unknown names are an error listing the
  /// graph's relations.
  std::vector<std::string> relations = {"obo.is_a"};
};

/// A term reached from another, with the fewest parent (or child) steps between them.
struct TermDistance {
  int64_t id = 0;            ///< node id of the term
  std::size_t distance = 0;  ///< steps along the relations (1 for a parent or a child)
};

/// One question about the ontologies of a knowledge graph, as `grappi ontology` and
/// grappi_graph_ontology_json ask it; ontology_json (grappi/json.hpp) answers it.
struct OntologyQuestion {
  /// What is asked: a term's description (with its parents, children and, given `root`, its
  /// depth), its ancestors, descendants, parents or children, the lowest common ancestors of
  /// `term` and `other`, the subtree under `term`, or the roots.
  enum class Kind { term, ancestors, descendants, parents, children, lca, subtree, roots };
  Kind kind = Kind::term;  ///< the question
  std::string term;   ///< a term by id, name or synonym (the root for `subtree`)
  std::string other;  ///< `lca`: the other term
  std::string root;   ///< `term`: report the depth under this root; empty: none
  std::vector<std::string> relations = {"obo.is_a"};  ///< child -> parent relations followed
};

/// "term", "ancestors", "descendants", "parents", "children", "lca", "subtree", "roots".
GRAPPI_CXX_API const char *to_string(OntologyQuestion::Kind kind) noexcept;
/// Inverse of to_string; Error(invalid_argument) listing the names otherwise.
GRAPPI_CXX_API OntologyQuestion::Kind ontology_question_kind(std::string_view name);

/// Parents, children, ancestors, descendants, depths and lowest common ancestors over the
/// directed relations of OntologyOptions (child -> parent edges), on an immutable snapshot:
/// thread-safe, and cheap to build (the snapshot holds the edges). Results are ordered by
/// distance, then external id, so they do not depend on the order of import. Node ids that are
/// not in the snapshot are Error(not_found).
class GRAPPI_CXX_API Ontology {
 public:
  /// Error(invalid_argument) when a relation is unknown to the graph or none is given.
  explicit Ontology(std::shared_ptr<const GraphSnapshot> graph, OntologyOptions options = {});

  /// Direct parents, by external id.
  std::vector<int64_t> parents(int64_t term) const;
  /// Direct children, by external id.
  std::vector<int64_t> children(int64_t term) const;
  /// Every ancestor (not the term itself) with its shortest distance.
  std::vector<TermDistance> ancestors(int64_t term) const;
  /// Every descendant (not the term itself) with its shortest distance: the subtree under a
  /// root, with each term's depth below it.
  std::vector<TermDistance> descendants(int64_t term) const;
  /// The fewest steps from term up to root (0 when they are the same term); nullopt when root
  /// is not an ancestor of term.
  std::optional<std::size_t> depth(int64_t term, int64_t root) const;
  /// The lowest common ancestors of two terms: the terms that are ancestors of both (or one of
  /// the two themselves) and have no descendant that also is; by external id. Empty when the
  /// two share no ancestor.
  std::vector<int64_t> lowest_common_ancestors(int64_t a, int64_t b) const;
  /// The fewest steps between two terms through a common ancestor (up from a, down to b);
  /// nullopt when they share none.
  std::optional<std::size_t> distance(int64_t a, int64_t b) const;
  /// Terms that have children but no parent along the relations, by external id.
  std::vector<int64_t> roots() const;
  /// The snapshot the ontology reads.
  const GraphSnapshot &graph() const { return *graph_; }

 private:
  std::vector<TermDistance> walk(int64_t term, bool up, std::size_t max_distance = std::numeric_limits<std::size_t>::max()) const;
  std::vector<TermDistance> self_and_ancestors(int64_t term) const;  // the term at distance 0 first
  uint32_t index(int64_t id) const;

  std::shared_ptr<const GraphSnapshot> graph_;
  std::vector<char> followed_;  // by relation index
};

}  // namespace grappi
