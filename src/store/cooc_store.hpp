// Internal: co-occurrence graphs (the literature agent's, grappi/cooccurrence.hpp) stored compactly (schema version 10,
// docs/literature.md "Storage"). Each edge's evidence is a blob in edges.evidence: its documents'
// numbers, delta-coded varints (a graph of sentences first says how many more units it has). The documents (PubMed ids,
// years) and the concepts' unit counts are stored once per dataset (cooc_documents, cooc_concepts, cooc_sets). The
// evidence text, PubMed ids and the record that importing the dataset's JSON lines file gives are computed from them
// when read, the same bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "grappi/import.hpp"
#include "grappi/knowledge_graph.hpp"
#include "store/sqlite.hpp"

namespace grappi::detail {

/// A concept of a graph to store (grappi::CoocConcept's fields).
struct CoocConceptRow {
  std::string id, name, type;
  std::size_t units = 0;
  int64_t node = 0;  ///< the node it joins; 0: none (a node is defined for it)
};

/// An edge of a graph to store (grappi::CoocEdge's fields).
struct CoocEdgeView {
  uint32_t a = 0, b = 0;  ///< the concepts' indices, a < b
  std::size_t count = 0;
  double npmi = 0;
  const uint32_t *documents = nullptr;  ///< ascending, indices into the documents
  std::size_t document_count = 0;
};

/// A co-occurrence graph as the store reads it (the literature agent's CoocGraph, seen through).
struct CoocStoreInput {
  std::string relation;  ///< "cooc.document" or "cooc.sentence"
  bool sentence = false;
  std::string titles;
  std::vector<std::string> types;
  std::size_t min_count = 1;
  std::optional<int> as_of;
  std::size_t units_total = 0;
  const std::vector<std::string> *documents = nullptr;  ///< keys, what the edges' documents index
  const std::vector<int> *years = nullptr;              ///< their years, in that order
  std::vector<CoocConceptRow> concepts;
  std::size_t edge_count = 0;
  std::function<CoocEdgeView(std::size_t)> edge;  ///< the i-th edge, i < edge_count
};

/// What a co-occurrence edge's evidence says.
struct CoocEdgeFacts {
  std::size_t count = 0;               ///< units shared (documents, or sentences)
  std::vector<std::string> documents;  ///< the documents' keys (PubMed ids, else document ids), in order
  std::vector<int> years;              ///< their years (0: unknown)
  std::string a_id, b_id;              ///< the concepts' external ids, in the graph's order
  std::size_t a_units = 0, b_units = 0, units_total = 0;
  bool sentence = false;  ///< units are sentences
};

/// The evidence record ({count, documents (keys that are no PubMed id, when any), jaccard, npmi,
/// pmids, unit_counts, units_total, years}, keys in order).
std::string cooc_record_json(const CoocEdgeFacts &f);
/// The edge's evidence object ({pmids, text}).
std::string cooc_evidence_json(const CoocEdgeFacts &f);
/// "co-occur in 3 document(s), NPMI 0.412".
std::string cooc_evidence_text(const CoocEdgeFacts &f);
/// The documents' keys that are PubMed ids, as numbers.
std::vector<int64_t> cooc_pmids(const CoocEdgeFacts &f);
/// The facts of one edge of a graph.
CoocEdgeFacts cooc_facts(const CoocStoreInput &graph, const CoocEdgeView &edge);

/// The SHA-256 (hex) of what a graph holds: two builds that give the same graph give the same
/// digest (the dataset's identity: a graph built alike is stored once).
std::string cooc_graph_sha256(const CoocStoreInput &graph);

/// Stores a graph compactly as one dataset of format "cooc" at `path` (the file written beside
/// it, if any; else a label) with identity `sha256`: nodes for the concepts that join none (as the
/// JSON lines file's node lines define them), claims on those they join, undirected edges of the
/// graph's relation scored max(0, NPMI). An edge another dataset already holds is claimed and gets
/// its record in edge_evidence. Returns the report (already_imported, storing nothing, when a
/// dataset with this identity is stored).
FileReport store_cooccurrence(KnowledgeGraph &kg, const CoocStoreInput &graph, const std::string &path,
                              const std::string &sha256, const nlohmann::json &options);

/// Reads compact evidence back.
class CoocEvidenceReader {
 public:
  explicit CoocEvidenceReader(Db &db);
  ~CoocEvidenceReader();
  CoocEvidenceReader(const CoocEvidenceReader &) = delete;
  CoocEvidenceReader &operator=(const CoocEvidenceReader &) = delete;
  /// The facts of an edge between two nodes whose evidence column holds `blob` (`bytes` long),
  /// stored by `dataset`; none when the dataset holds no co-occurrence graph or the blob does not
  /// decode (a damaged row is shown without evidence, never misread).
  std::optional<CoocEdgeFacts> facts(int64_t dataset, int64_t source, int64_t target, const void *blob,
                                     std::size_t bytes);

 private:
  struct State;
  Db &db_;
  std::unique_ptr<State> s_;
};

}  // namespace grappi::detail
