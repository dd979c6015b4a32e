// grappi/snapshot.hpp — the immutable in-memory CSR view of a knowledge graph.
#pragma once

#include "grappi/export.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace grappi {

/// How an adjacency entry relates to the node it is listed under.
enum class Direction : uint8_t {
  undirected = 0,
  outgoing = 1,  ///< directed edge from this node to the neighbor
  incoming = 2,  ///< directed edge from the neighbor to this node
};

/// Which neighbors to return.
struct NeighborFilter {
  std::vector<std::string> relations;  ///< relation types to keep; empty keeps all
  double min_score = 0.0;              ///< keep edges with score >= min_score (0-1 scale)
  bool incoming = true;                ///< include directed edges that point to the node
  bool outgoing = true;                ///< include directed edges that leave the node
};

/// One adjacency entry, resolved to ids.
struct Neighbor {
  int64_t node = 0;  ///< neighbor node id
  int64_t edge = 0;  ///< edge id in the database
  double score = 0;  ///< the edge's score in [0,1]
  int32_t relation = 0;  ///< index into GraphSnapshot::relation_name
  Direction direction = Direction::undirected;  ///< how the edge relates to the node it is listed under
};

/// An immutable compressed-sparse-row snapshot of all edges, built by
/// KnowledgeGraph::snapshot(). It never changes after construction, so any number of threads
/// may read one snapshot at the same time without locking. Later writes to the database are
/// not visible in it; take a new snapshot to see them.
///
/// Nodes are addressed either by database id (int64_t) or by dense index (uint32_t,
/// 0..node_count()-1); algorithms use indices, the public boundary uses ids.
/// Every adjacency list is sorted by (neighbor index, relation, direction).
class GRAPPI_CXX_API GraphSnapshot {
 public:
  struct Data;
  /// Built by KnowledgeGraph::snapshot(); Data is internal.
  explicit GraphSnapshot(Data data);
  ~GraphSnapshot();
  GraphSnapshot(const GraphSnapshot &) = delete;
  GraphSnapshot &operator=(const GraphSnapshot &) = delete;

  /// Raw adjacency of one node: parallel arrays of length size.
  struct Adjacency {
    const uint32_t *neighbor;  ///< neighbor index
    const float *score;        ///< edge score (float32: round to decimals for display)
    const uint32_t *edge;      ///< edge id
    const uint16_t *relation;  ///< relation index
    const uint8_t *direction;  ///< Direction
    std::size_t size;          ///< entries in each array
  };

  /// Number of nodes (also of the edgeless ones).
  std::size_t node_count() const;
  /// Distinct edges (each undirected edge once).
  std::size_t edge_count() const;
  /// Database generation the snapshot was taken at.
  uint64_t generation() const;
  /// A 64-bit checksum of the snapshot's content (nodes, names, labels, relations and every
  /// adjacency list): equal snapshots have equal fingerprints, whatever the database generation.
  /// Files derived from a snapshot (the neighbor ranking) are keyed by it.
  uint64_t fingerprint() const;

  /// Database id of the node at a dense index (index < node_count()).
  int64_t node_id(uint32_t index) const;
  /// Dense index of a node id; nullopt when the id is not a node of the snapshot.
  std::optional<uint32_t> index_of(int64_t id) const;
  /// Preferred name of the node at an index.
  const std::string &name(uint32_t index) const;
  /// External id of the node at an index.
  const std::string &external_id(uint32_t index) const;
  /// Node label ("Protein", "Gene", ...).
  const std::string &label(uint32_t index) const;

  /// Number of relation types.
  std::size_t relation_count() const;
  /// Name of a relation index (Neighbor::relation); Error(invalid_argument) when out of range.
  const std::string &relation_name(int32_t relation) const;
  /// Index of a relation name; -1 when no edge has it.
  int32_t relation_index(std::string_view name) const;

  /// The raw adjacency of the node at an index, for algorithms (no copies).
  Adjacency adjacency(uint32_t index) const;

  /// Number of adjacency entries of a node (incident edges, all relation types). Throws
  /// Error(not_found) for an unknown id.
  std::size_t degree(int64_t id) const;
  /// Neighbors of a node passing the filter, in O(degree), in adjacency order. Throws
  /// Error(not_found) for an unknown id; unknown relation names simply match nothing.
  std::vector<Neighbor> neighbors(int64_t id, const NeighborFilter &filter = {}) const;
  /// All edges joining a and b (any relation, either direction), in O(log degree).
  std::vector<Neighbor> edges_between(int64_t a, int64_t b) const;

  /// Heap bytes held by the snapshot (not counting the arrays used in place from the mapped
  /// cache file, which live in the operating system's page cache, shared by every process).
  std::size_t memory_bytes() const;

 private:
  const Data &d() const { return *data_; }
  Data *data_;
};

}  // namespace grappi
