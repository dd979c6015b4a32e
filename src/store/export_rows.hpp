// Internal: what the writers of KnowledgeGraph::export_graph read - the selected nodes, and the
// selected edges one at a time with their evidence records (graph_export.cpp). The CX2 and BEL
// writers live in files of their own (export_cx2.cpp, export_bel.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/cooc_store.hpp"
#include "store/graph_impl.hpp"
#include "grappi/graph_export.hpp"

namespace grappi::detail {

struct NodeRow {
  int64_t id;
  std::string external_id, name, label, annotation, attributes;
  int64_t size, taxon;
};

struct EdgeRow {
  int64_t id;
  std::string source, target, source_name, target_name, relation, channels, evidence;
  bool directed;
  double score;
};

/// The node ids an export keeps; unset: all.
using Keep = std::optional<std::unordered_set<int64_t>>;

/// The shortest text that reads back as the same double.
std::string number(double v);

/// The selected nodes, by external id.
std::vector<NodeRow> read_nodes(Db &db, const Keep &keep);

/// The selected edges in export order (undirected ones with their endpoints in external-id
/// order), one at a time; and the evidence records of an edge.
class EdgeCursor {
 public:
  EdgeCursor(Db &db, const ExportOptions &o, const Keep &keep, const std::set<std::string> &wanted);
  bool next(EdgeRow &e);
  /// {line, record (parsed), raw} of each record of the edge.
  nlohmann::json records(int64_t edge);

 private:
  Stmt edges_, records_;
  const Keep &keep_;
  const std::set<std::string> &wanted_;
  CoocEvidenceReader cooc_;
  int64_t compact_edge_ = 0;   // the last edge read, when its evidence was compact
  std::string compact_record_;  // its record
};

/// The integer PubMed ids of an evidence object's "pmids".
std::vector<int64_t> pmids_of(const nlohmann::json &evidence);

/// The CX2 writer (export_cx2.cpp).
void write_cx2(std::ostream &out, Db &db, const std::vector<NodeRow> &nodes, EdgeCursor &edges, ExportReport &rep);
/// The BEL writer (export_bel.cpp).
void write_bel(std::ostream &out, Db &db, const std::vector<NodeRow> &nodes, EdgeCursor &edges, ExportReport &rep);

}  // namespace grappi::detail
