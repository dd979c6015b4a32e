// grappi/types.hpp — plain value types of the knowledge graph.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace grappi {

/// A node of the knowledge graph (a protein, gene, chemical, ontology term, ...).
struct Node {
  int64_t id = 0;             ///< database id, stable for the life of the node
  std::string external_id;    ///< unique external id, e.g. "9606.ENSP00000340820"
  std::string name;           ///< preferred name, e.g. "MAPT"
  std::string label;          ///< type: "Protein", "Gene", "Chemical", "Disease", "OntologyTerm", ...
  std::string annotation;     ///< free annotation text (STRING protein.info annotation)
  int64_t size = 0;           ///< protein length in amino acids; 0 when unknown
  std::string attributes;     ///< free attributes as a JSON object text ("{}" when none)
  int64_t taxon = 0;          ///< NCBI taxon of the external id prefix; 0 when none
};

/// One name of a node: its preferred name or one of its aliases (KnowledgeGraph::names).
struct NodeName {
  int64_t node = 0;    ///< node id
  std::string name;    ///< the preferred name or the alias
  std::string source;  ///< "" for the preferred name; the alias's source otherwise
};

/// A STRING evidence channel score in [0,1] (neighborhood, fusion, cooccurrence, coexpression,
/// experimental, database, textmining, homology, or a *_transferred variant).
struct Channel {
  std::string name;  ///< the channel's name, e.g. "experimental"
  double score = 0;  ///< its score in [0,1]
};

/// One source row behind an edge: an interaction of a PSI-MITAB file, a BEL statement, ...
struct EvidenceRecord {
  int64_t dataset_id = 0;  ///< the dataset (imported file) it came from
  int64_t line = 0;        ///< its line in that file, 1-based; 0 when none (a co-occurrence graph's record)
  /// What the importer read from the row, as a JSON object text; the keys of each format are
  /// listed in docs/data.md (MITAB: interaction_ids, pmids, detection_method, interaction_type, ...).
  std::string record;
  std::string raw;  ///< the row as read from the file
};

/// An edge (relation) with its evidence.
struct Edge {
  int64_t id = 0;              ///< database id
  int64_t source = 0;          ///< node id; for undirected edges the smaller id
  int64_t target = 0;          ///< node id
  std::string relation;        ///< interned relation type, e.g. "string.combined"
  bool directed = false;       ///< a directed relation from source to target
  double score = 0;            ///< confidence in [0,1]
  std::vector<Channel> channels;  ///< evidence channels with their scores (STRING's, for example)
  std::vector<int64_t> pmids;  ///< PubMed ids of supporting literature (with those of `records`)
  std::string evidence;        ///< free evidence text
  int64_t dataset_id = 0;      ///< dataset that first contributed the edge
  /// The source rows behind the edge, in import order (KnowledgeGraph::edge and edges_between
  /// fill it; empty for STRING edges, whose evidence is their channels).
  std::vector<EvidenceRecord> records;
};

/// Input for KnowledgeGraph::add_node.
struct NodeInput {
  std::string external_id;        ///< unique external id, with its namespace
  std::string name;               ///< defaults to external_id when empty
  std::string label = "Protein";  ///< the node's type
  std::string annotation;         ///< free annotation text
  int64_t size = 0;               ///< protein length in amino acids; 0 when unknown
  std::string attributes = "{}";  ///< must be a JSON object
};

/// Input for KnowledgeGraph::add_edge.
struct EdgeInput {
  int64_t source = 0;             ///< node id
  int64_t target = 0;             ///< node id
  std::string relation;           ///< relation type, interned on first use
  bool directed = false;          ///< from source to target
  double score = 1.0;             ///< confidence in [0,1]
  std::vector<Channel> channels;  ///< evidence channels
  std::vector<int64_t> pmids;     ///< PubMed ids of supporting literature
  std::string evidence;           ///< free evidence text
};

/// Provenance of one imported file.
struct Dataset {
  int64_t id = 0;              ///< dataset id (grappi remove-dataset takes it)
  std::string name;            ///< the file's base name
  std::string path;            ///< the path as given at import time
  uint64_t file_size = 0;      ///< bytes on disk
  std::string sha256;          ///< of the bytes on disk
  std::string format;          ///< detected or forced format ("links", "info", ...)
  std::string string_version;  ///< e.g. "12.0"; empty when unknown
  int64_t taxon = 0;           ///< organism of the file's ids; 0 when mixed or unknown
  std::string options;         ///< import options as JSON text
  std::string counts;          ///< row counts as JSON text
  std::string imported_at;     ///< UTC, ISO 8601
  double seconds = 0;          ///< wall time of this file's import
  /// What the file is, in a few words: an ontology's name and data version, a network's or BEL
  /// document's name, "STRING 12.0 (taxon 9606)"; empty when the file says nothing more.
  std::string source;
  // What it holds now (KnowledgeGraph::stats fills these; datasets() leaves them 0):
  int64_t nodes = 0;    ///< nodes it described or referred to
  int64_t edges = 0;    ///< edges it created or also holds (several sources may hold one edge)
  int64_t records = 0;  ///< evidence records (IntAct rows, BEL statements, CX2 edges; on edges and on nodes)
  int64_t aliases = 0;  ///< aliases it added
};

/// Whole-database counts (KnowledgeGraph::stats).
struct GraphStats {
  int64_t nodes = 0;    ///< node count
  int64_t edges = 0;    ///< distinct edges
  int64_t aliases = 0;  ///< aliases stored
  std::vector<std::pair<std::string, int64_t>> edges_by_relation;  ///< sorted by relation name
  std::vector<Dataset> datasets;  ///< every imported dataset, with its provenance
  int schema_version = 0;         ///< PRAGMA user_version of the database
};

/// One node a name may refer to.
struct ResolveCandidate {
  int64_t id = 0;           ///< node id
  std::string external_id;  ///< the node's external id
  std::string name;         ///< its preferred name
  /// "external_id", "name", "alias:<source>"; followed by " (without namespace NS)" when a
  /// namespaced query ("uniprotkb:P10636") matched by its bare id.
  std::string matched_by;
};

/// One stored language-model answer (KnowledgeGraph's response cache).
struct CachedResponse {
  std::string key;               ///< SHA-256 hex of model identity, template version and request
  std::string model;             ///< the model's identity
  std::string template_version;  ///< version of the prompt templates the request came from
  std::string kind;              ///< "edge", "path", "repair"
  std::string content;           ///< the answer text
  std::string finish_reason;     ///< as the model reported it ("stop", "length", ...)
  int64_t prompt_tokens = 0;     ///< tokens of the request, as the model counted them
  int64_t completion_tokens = 0; ///< tokens of the answer
  std::string created_at;        ///< UTC, ISO 8601 (set when stored)
};

/// A name that begins with what was typed (KnowledgeGraph::complete).
struct NameCompletion {
  int64_t id = 0;           ///< node id
  std::string name;         ///< the node's preferred name
  std::string external_id;  ///< its external id
  std::string matched;      ///< the name, alias or external id that begins with the prefix
  /// "linked" (the node the prefix as typed names by the name linker's rules, as `resolve` would
  /// take it: first), "name", "alias" or "external_id"
  std::string matched_by;
};

/// Outcome of KnowledgeGraph::lookup.
struct ResolveResult {
  /// Whether the name named one node, several, or none.
  enum class Status { found, ambiguous, not_found };
  Status status = Status::not_found;        ///< the outcome
  int64_t id = 0;                           ///< set when found
  std::vector<ResolveCandidate> candidates; ///< the match, or every candidate when ambiguous
  std::vector<std::string> suggestions;     ///< close names when not found
  /// Why nothing was found when the names alone do not say it ("FamPlex grounds 'LPS' to
  /// CHEBI:CHEBI:16412, no gene or protein"); empty otherwise.
  std::string note;
};

}  // namespace grappi
