// Internal: identifiers for BEL entities from the knowledge base, for BelOptions::resolver.
// HGNC symbols and ids from the aliases STRING's alias file (Ensembl_HGNC_hgnc_id /
// Ensembl_HGNC_HGNC_ID beside the approved symbol) or a mapping table with an hgnc_id column
// stored; ontology term names and ids from every imported OBO ontology (GO, CHEBI, DOID, ...),
// each under its id prefix. A name that stands for several identifiers is not resolved.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "grappi/bel.hpp"
#include "grappi/knowledge_graph.hpp"
#include "store/sqlite.hpp"

namespace grappi::detail {

class BelIdTable {
 public:
  /// Reads the table from the database (inside or outside a transaction).
  explicit BelIdTable(const Db &db);
  ~BelIdTable();
  BelIdTable(const BelIdTable &) = delete;
  BelIdTable &operator=(const BelIdTable &) = delete;
  /// The identifier and label of a value given as an identifier or a name.
  std::optional<BelEntityId> find(std::string_view ns, std::string_view value) const;
  /// How many identifiers the table holds.
  std::size_t size() const noexcept;

 private:
  struct Space {
    std::unordered_map<std::string, std::string> label_of;  // identifier -> label
    std::unordered_map<std::string, std::string> id_of;     // label -> identifier
    std::unordered_set<std::string> ambiguous;              // labels naming several identifiers
    void add(const std::string &id, const std::string &label);
  };
  std::map<std::string, Space> spaces_;  // by upper-case prefix
};

/// A resolver over the database's identifiers as they are now; empty (no resolution) when
/// the database holds none.
BelEntityResolver bel_resolver(const Db &db);
/// The same, with the table kept in the graph until its generation changes; call under impl.mu.
BelEntityResolver cached_bel_resolver(const KnowledgeGraph::Impl &impl);

}  // namespace grappi::detail
