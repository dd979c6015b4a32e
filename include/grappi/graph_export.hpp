// grappi/graph_export.hpp — writing the knowledge graph (or a part of it) out: JSON lines
// (lossless; KnowledgeGraph::import reads it back), an edge table and GraphML.
#pragma once

#include "grappi/export.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace grappi {

/// The formats KnowledgeGraph::export_graph writes.
enum class ExportFormat {
  /// One JSON object per line: a header, every node (external id, name, label, annotation,
  /// size, taxon, attributes, aliases with their sources), then every edge (endpoints by
  /// external id, relation, direction, score, channels, evidence, evidence records with their
  /// raw rows). Import format "jsonl" reads it back into the same graph.
  jsonl,
  /// Tab-separated edges with a header: source, target (external ids), source_name,
  /// target_name, relation, score, directed, pmids. Import format "edges" reads it back
  /// (--source-column source --target-column target --score-column score --relation-column
  /// relation).
  tsv,
  /// GraphML (graphml.graphdrawing.org): nodes with external_id, name, label, annotation,
  /// taxon; edges with relation, score and, for directed edges, directed="true". Opens in
  /// networkx, igraph, Cytoscape and Gephi.
  graphml,
  /// CX2 (Cytoscape, NDEx): nodes with name, represents (the external id), type (the label),
  /// annotation, taxon, size, alias and alias_source lists, their attributes as typed columns
  /// where every node agrees on a type, and all of them as JSON in grappi_attributes; edges with
  /// interaction (the relation), score, directed, pmids (pubmed:N), STRING channels
  /// (channel_<name>), the first BEL evidence sentence (evidence), and the edge's evidence and
  /// records as JSON (grappi_evidence, grappi_records). A plain style; import format "cx2" reads
  /// it back into the same graph (the network attribute "generator" says grappi wrote it).
  cx2,
  /// A BEL 2.1 script of the BEL statements: every evidence record of a bel.* edge is one
  /// statement (its canonical form) under its citation, evidence, annotations and statement
  /// group (records several edges share - nested statements, hasMembers lists - once); terms
  /// in no statement as term statements; DEFINE NAMESPACE for namespaces outside the default
  /// table. Import format "bel" reads it back into the same BEL terms and statement edges.
  /// Edges that are not BEL statements (STRING, IntAct, ...) are counted in
  /// ExportReport::not_written; the edges an import derives from terms (bel.wraps,
  /// bel.hasVariant, complex members, bel.represents) are neither written nor counted.
  bel,
};

/// "jsonl", "tsv", "graphml", "cx2", "bel".
GRAPPI_CXX_API const char *to_string(ExportFormat format) noexcept;
/// Inverse of to_string; Error(invalid_argument) naming the formats otherwise.
GRAPPI_CXX_API ExportFormat export_format_from_name(std::string_view name);

/// What KnowledgeGraph::export_graph writes.
struct ExportOptions {
  ExportFormat format = ExportFormat::jsonl;  ///< the format
  /// Only edges of these relations (empty: all); an unknown name is an error listing the
  /// graph's relations.
  std::vector<std::string> relations;
  double min_score = 0;  ///< only edges scoring at least this, in [0,1]
  /// Only these nodes (names, aliases or ids, as KnowledgeGraph::resolve takes them) and the
  /// edges among them. Empty: every node (isolated ones included).
  std::vector<std::string> nodes;
  /// Only the nodes within `hops` steps of this one (along the edges the relation and score
  /// filters keep) and the edges among them; empty: no such restriction. Combines with `nodes`
  /// by intersection.
  std::string khop;
  std::size_t hops = 1;  ///< steps from `khop`
};

/// What an export wrote.
struct ExportReport {
  uint64_t nodes = 0;    ///< nodes written (0 for tsv and bel, which list edges and statements)
  uint64_t edges = 0;    ///< edges written (bel: edges whose statements were written)
  uint64_t records = 0;  ///< evidence records written (jsonl, cx2); statements written (bel)
  /// Edges of the selection the format cannot hold (bel: edges that are not BEL statements).
  uint64_t not_written = 0;
};

}  // namespace grappi
