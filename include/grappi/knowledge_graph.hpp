// grappi/knowledge_graph.hpp — the SQLite-backed knowledge graph.
#pragma once

#include "grappi/export.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "grappi/bel.hpp"
#include "grappi/documents.hpp"
#include "grappi/graph_export.hpp"
#include "grappi/import.hpp"
#include "grappi/snapshot.hpp"
#include "grappi/types.hpp"

namespace grappi {

namespace detail {
struct GraphAccess;  // (the library's own files: store/graph_impl.hpp)
}

/// A trained model stored in the database (KnowledgeGraph::store_trained_model): a graph reader,
/// for instance (grappi/reader.hpp).
struct TrainedModel {
  std::string name;        ///< its name (unique in the database)
  std::string kind;        ///< what it is ("gat_reader")
  std::string spec;        ///< JSON text: its format version, sizes, options, training and metrics
  std::string data;        ///< its parameters as bytes (empty in KnowledgeGraph::trained_models)
  std::size_t bytes = 0;   ///< the size of data as stored
  std::string created_at;  ///< when it was stored, UTC, ISO 8601
};

/// A set of community reports stored in the database (KnowledgeGraph::store_community_set;
/// grappi/communities.hpp builds and reads them).
struct StoredCommunitySet {
  std::string name;        ///< its name (unique in the database; "default" unless named)
  uint64_t generation = 0; ///< the graph's generation when they were built (stale once it changes)
  std::string spec;        ///< JSON text: the parameters, the partition's figures, the summaries' model
  std::string reports;     ///< JSON text: the reports, an array
  std::string created_at;  ///< when it was stored, UTC, ISO 8601
};

/// A stored embedding model (KnowledgeGraph::embedding_models).
struct EmbeddingModel {
  int64_t id = 0;             ///< database id
  std::string name;           ///< the model's name (Embedder::model)
  std::string kind;           ///< "hashing", "lsa", "openai", "callback"
  std::size_t dimension = 0;  ///< vector size
  std::string config;         ///< JSON text
  std::size_t vectors = 0;    ///< vectors stored
  std::string created_at;     ///< UTC, ISO 8601
};

/// Options of the KnowledgeGraph constructor.
struct OpenOptions {
  bool create = true;        ///< create the database file when it does not exist
  bool read_only = false;    ///< open read-only (no schema creation or migration)
  /// With read_only: a database of an older grappi's schema is upgraded first (opened once
  /// read-write), instead of refused with Error(database).
  bool upgrade = false;
  int busy_timeout_ms = 30000;  ///< how long to wait for another connection's write lock
  int cache_mib = 256;       ///< SQLite page cache per connection
  /// Keep the built CSR snapshot in "<path>.csr" so that the next process maps it (mmap) and
  /// uses its arrays in place instead of rebuilding them: 60 ms instead of 2.5 s at STRING's
  /// human size, and the pages shared by every process on the machine. The file is keyed by the
  /// database's instance id, generation and largest ids, checked in full at every open
  /// (checksums of every section, sizes, offsets, index ranges), ignored and rewritten when it
  /// differs or is damaged, and skipped when it cannot be written. Changes made to the database
  /// with other tools than grappi are not detected.
  bool snapshot_cache = true;
};

/// A knowledge graph stored in one SQLite file (WAL mode, foreign keys on, schema versioned by
/// PRAGMA user_version and the `meta` table).
///
/// Thread safety: every method locks an internal mutex, so one KnowledgeGraph may be used from
/// several threads, but its calls run one at a time. For parallel reads take a snapshot() (an
/// immutable GraphSnapshot shared by any number of threads) or open one KnowledgeGraph per
/// thread on the same file: WAL lets readers run while another connection writes.
///
/// Every change runs in one transaction: a failed call leaves the database as it was.
class GRAPPI_CXX_API KnowledgeGraph {
 public:
  /// Opens (and with options.create, creates) the database at path. Throws Error(io) when the
  /// file cannot be opened, Error(database) when it is not a grappi database of a known schema.
  explicit KnowledgeGraph(const std::string &path, const OpenOptions &options = {});
  ~KnowledgeGraph();
  /// Movable (the moved-from object must not be used), not copyable.
  KnowledgeGraph(KnowledgeGraph &&) noexcept;
  /// Movable (the moved-from object must not be used), not copyable.
  KnowledgeGraph &operator=(KnowledgeGraph &&) noexcept;
  KnowledgeGraph(const KnowledgeGraph &) = delete;
  KnowledgeGraph &operator=(const KnowledgeGraph &) = delete;

  /// The database file, as given.
  const std::string &path() const;
  /// Incremented by every committed change, by any connection.
  uint64_t generation() const;

  // ---- import -------------------------------------------------------------------------------
  /// Imports STRING files in dependency order (info, aliases, then link-like files, then
  /// actions), all in one transaction. On any bad line (without skip_bad_lines) nothing is
  /// written and Error(parse) names the file, line and problem. A file already imported with
  /// the same content and options is reported as already_imported and adds nothing.
  ImportReport import_string(const std::vector<ImportSource> &sources,
                             const ImportOptions &options = {});
  /// Imports files of any supported format (SourceFile::format; import_formats()), all in one
  /// transaction: STRING files first in their dependency order, then ontologies, in the order
  /// given within each kind. The same bad-input rules as import_string: on any bad line
  /// Error(parse) names the file, line and problem and nothing is written.
  ImportReport import(const std::vector<SourceFile> &files, const ImportOptions &options = {});
  /// Removes everything a dataset contributed: its edges (unless another dataset also
  /// contributed them), its aliases, the nodes no other dataset names, and the node
  /// annotations it set. Throws Error(not_found) for an unknown id.
  void remove_dataset(int64_t dataset_id);
  /// Every imported dataset with its provenance, in import order.
  std::vector<Dataset> datasets() const;
  /// The nodes a dataset's edges join (those it created and those it also holds), by id, each
  /// once, in id order: "the NSCLC network" of the STRING export imported for it.
  std::vector<int64_t> dataset_nodes(int64_t dataset_id) const;
  /// Counts of nodes, edges (by relation) and aliases, and the datasets.
  GraphStats stats() const;

  /// Writes the graph, or the part ExportOptions selects, to `out` in a stable order (nodes by
  /// external id; edges by their endpoints' external ids, relation and direction), so that two
  /// exports of the same graph are byte for byte the same. Error(invalid_argument) for an
  /// unknown relation or a score outside [0,1]; names that do not resolve throw as resolve does.
  ExportReport export_graph(std::ostream &out, const ExportOptions &options = {}) const;
  /// The same into a file, written beside it as "<path>.part" with a suffix of its own and renamed into place: a failed export
  /// leaves no partial file. Error(io) when it cannot be written.
  ExportReport export_graph(const std::string &path, const ExportOptions &options = {}) const;

  // ---- nodes, names, edges -------------------------------------------------------------------
  /// The node with a database id, if any.
  std::optional<Node> node(int64_t id) const;
  /// The node with an external id (exact match), if any.
  std::optional<Node> node_by_external_id(std::string_view external_id) const;
  /// (alias, source) pairs of a node, sorted.
  std::vector<std::pair<std::string, std::string>> aliases(int64_t id) const;
  /// The preferred name and every alias of each node with one of `labels` (every node when
  /// empty), by node id; the preferred name first.
  std::vector<NodeName> names(const std::vector<std::string> &labels = {}) const;
  /// A BelOptions::resolver over the identifiers this database holds now: HGNC symbols and
  /// ids (from STRING's alias file or a mapping table with an hgnc_id column) and the names
  /// and ids of every imported OBO ontology's terms (GO, CHEBI, DOID, ...). Empty when the
  /// database holds none. The resolver is a snapshot: later imports do not change it.
  BelEntityResolver bel_resolver() const;
  /// Name resolution: an external id (also without its taxon prefix), a preferred name as
  /// written, then the name linker's rules (grappi/entities.hpp, EntityTagger::link: names,
  /// aliases, full names and the names papers write, in any case and spelling, ranked by what
  /// they say, then edges, then the database's organism; docs/database.md "Names"), then any
  /// stored alias, a BEL term's canonical form, a namespaced id without its namespace. A name
  /// the linker resolves among several candidates is found (matched_by says how: "alias:SOURCE
  /// (resolved by RULE)"); one it cannot is ambiguous. Never throws for unknown or ambiguous
  /// names. The first call after a write builds the linker (about a second for a quarter of a
  /// million aliases) unless the name is an external id or a preferred name as written.
  ResolveResult lookup(std::string_view name, std::size_t max_suggestions = 5) const;
  /// Nodes whose preferred name, alias or external id begins with `prefix` (any case), for
  /// autocompletion: the node the prefix as typed links to first (lookup), then preferred names,
  /// then aliases, then external ids, each shortest first; one entry per node; at most `limit`
  /// (at most 100). Empty for an empty prefix.
  std::vector<NameCompletion> complete(std::string_view prefix, std::size_t limit = 10) const;
  /// Like lookup but returns the id, throwing Error(not_found) with suggestions or
  /// Error(ambiguous) listing the candidates.
  int64_t resolve(std::string_view name) const;
  /// The edge with a database id, with its evidence, if any.
  std::optional<Edge> edge(int64_t id) const;
  /// All edges between two nodes, any relation and direction, ordered by id.
  std::vector<Edge> edges_between(int64_t a, int64_t b) const;

  // ---- programmatic construction (each call one transaction) -------------------------------
  /// Adds a node; Error(invalid_argument) when the external id exists already.
  int64_t add_node(const NodeInput &node);
  /// Adds an edge, or returns the id of the identical (endpoints, relation, direction) edge.
  int64_t add_edge(const EdgeInput &edge);
  /// Adds a name a node may be found by (`source`: where the name comes from, e.g. "UniProt_AC").
  void add_alias(int64_t node, std::string_view alias, std::string_view source);

  // ---- papers ---------------------------------------------------------------------------------
  /// Papers whose titles or passages match a full-text query (SQLite FTS5 over every stored
  /// corpus: words stemmed, "a phrase", AND / OR / NOT, prefix*, NEAR), best first, at most
  /// `limit` (1-1000). Error(invalid_argument) for an empty or malformed query, naming it.
  std::vector<PaperHit> search_papers(std::string_view query, std::size_t limit = 20) const;
  /// The stored papers with these keys (PubMed ids, else the sources' document ids), with their
  /// passages and annotations, in the order asked; a key stored by several corpora gives the
  /// most recently imported copy, a key stored by none nothing.
  std::vector<Document> papers(const std::vector<std::string> &keys) const;
  /// How many papers the database holds (every corpus).
  std::size_t paper_count() const;

  // ---- embeddings ----------------------------------------------------------------------------
  /// The text grappi embeds for a node: "NAME: annotation" (or the name alone).
  static std::string node_text(const Node &node);
  /// The stored embedding models, oldest first.
  std::vector<EmbeddingModel> embedding_models() const;
  /// Name of the model used when none is named: the most recently created one. Throws
  /// Error(not_found) when nothing was embedded.
  std::string default_model() const;
  // (embedding the nodes, the vectors and the retriever over them: grappi/graph_embeddings.hpp)

  // ---- trained models ------------------------------------------------------------------------
  /// Stores a trained model (replacing one of the same name) in one transaction; does not change
  /// the generation. Error(invalid_argument) on a read-only database or without a name or kind.
  void store_trained_model(const TrainedModel &model);
  /// The model stored under `name`, with its data, if any.
  std::optional<TrainedModel> trained_model(const std::string &name) const;
  /// Every stored model, by name, without their data.
  std::vector<TrainedModel> trained_models() const;
  /// Removes the model of that name; whether there was one.
  bool remove_trained_model(const std::string &name);

  // ---- community reports -------------------------------------------------------------------
  /// Stores a set of community reports (replacing one of the same name) in one transaction; does
  /// not change the generation. Error(invalid_argument) on a read-only database or without a name.
  void store_community_set(const StoredCommunitySet &set);
  /// The set stored under `name`, if any.
  std::optional<StoredCommunitySet> community_set(const std::string &name) const;
  /// The names of the stored sets, sorted.
  std::vector<std::string> community_sets() const;
  /// Removes the set of that name; whether there was one.
  bool remove_community_set(const std::string &name);

  // ---- language-model response cache ---------------------------------------------------------
  /// The stored answer for a cache key, if any.
  std::optional<CachedResponse> cached_response(const std::string &key) const;
  /// Stores answers (replacing equal keys) in one transaction. Does not change the generation
  /// (the cache is not part of the graph). Error(invalid_argument) on a read-only database.
  void cache_responses(const std::vector<CachedResponse> &responses);
  /// Removes the cached answers of one model identity (empty: all); returns how many.
  std::size_t clear_response_cache(const std::string &model = "");
  /// Number of cached answers.
  std::size_t response_cache_size() const;
  /// Whether the database was opened read-only.
  bool read_only() const;

  // ---- traversal ---------------------------------------------------------------------------
  /// The CSR snapshot of the current generation; cached, so repeated calls without changes in
  /// between return the same object.
  std::shared_ptr<const GraphSnapshot> snapshot() const;
  // (a Retriever over it and the embeddings: graph_retriever() in grappi/graph_embeddings.hpp)

  struct Impl;

 private:
  friend struct detail::GraphAccess;
  std::unique_ptr<Impl> impl_;
};

}  // namespace grappi
