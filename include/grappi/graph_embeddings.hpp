// grappi/graph_embeddings.hpp — a knowledge graph's embeddings: its nodes embedded and the
// vectors stored in its database, the stored models re-created for queries, their vector
// indexes and the retriever over them. Functions of the retrieval layer over a KnowledgeGraph:
// the store keeps the models' rows and vectors, and knows no embedder.
#pragma once

#include "grappi/export.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "grappi/embedding.hpp"
#include "grappi/knowledge_graph.hpp"
#include "grappi/vector_index.hpp"

namespace grappi {

class Retriever;

/// Options of embed_graph().
struct EmbedOptions {
  std::size_t batch_size = 256;  ///< texts per Embedder::embed call
  /// Called after each batch with (texts embedded so far, texts to embed); may be empty.
  std::function<void(std::size_t, std::size_t)> progress;
  /// Afterwards, rank every node's neighbors by similarity and write "<database>.knn"
  /// (neighbor_ranking_path()), which windows then look their picks up in.
  bool neighbor_ranking = true;
  unsigned threads = 0;  ///< for the neighbor ranking; 0: all cores
};

/// What embed_graph() did.
struct EmbedReport {
  std::string model;          ///< the model's name (as stored)
  std::size_t dimension = 0;  ///< its vector size
  std::size_t embedded = 0;   ///< new or changed texts embedded now
  std::size_t unchanged = 0;  ///< vectors kept (same text as before)
  std::size_t removed = 0;    ///< vectors of nodes that no longer exist
  std::size_t neighbor_ranking_entries = 0;  ///< neighbor entries ranked (0 when not ranked)
  double neighbor_ranking_seconds = 0;  ///< wall time of the neighbor ranking
  /// Why the neighbor ranking was not written when it was asked for (for example a directory
  /// without write access: windows then rank on the fly); empty otherwise.
  std::string warning;
  double seconds = 0;  ///< wall time of the embedding (without the ranking)
};

/// Embeds every node whose text (KnowledgeGraph::node_text) is new or changed since the model
/// last embedded it, and drops vectors of nodes that are gone; one transaction. The embedder's
/// model name, kind, configuration and state are stored so that queries can re-create it.
/// Then, unless options.neighbor_ranking is off, ranks every node's neighbors for these vectors
/// and writes the ranking file (a file that cannot be written is a warning in the report, not
/// an error). This is the one embedding entry point: the C API and the command line call it.
GRAPPI_CXX_API EmbedReport embed_graph(KnowledgeGraph &kg, Embedder &embedder, const EmbedOptions &options = {});

/// The embedder a spec names. "hashing" and "lsa" return the stored model of that kind and
/// dimension when there is one (so that re-running embeds only new or changed texts; refit
/// learns again), otherwise one fitted on every node's text. Error(invalid_argument) for an
/// unknown kind or a spec that lacks what its kind needs (a model name for openai, a dimension
/// and function for callback).
GRAPPI_CXX_API std::unique_ptr<Embedder> make_embedder(const KnowledgeGraph &kg, const EmbedderSpec &spec);

/// The built-in embedder for this graph: the stored hashing model with these options when
/// there is one (so that re-running embeds only new or changed texts), otherwise a new one
/// fitted on every node's text. refit forces a new fit.
GRAPPI_CXX_API std::unique_ptr<HashingEmbedder> hashing_embedder(const KnowledgeGraph &kg,
                                                                const HashingEmbedderOptions &options = {},
                                                                bool refit = false);

/// Re-creates the embedder of a stored model (default: KnowledgeGraph::default_model()) for
/// queries (hashing, lsa: from its stored state; openai: from its configuration, the API key
/// from the environment). Callback models cannot be re-created: Error(invalid_argument). Kept
/// while the database is unchanged, so repeated queries do not re-read or re-derive it; the
/// returned embedders are safe to use from several threads.
GRAPPI_CXX_API std::shared_ptr<Embedder> query_embedder(const KnowledgeGraph &kg, const std::string &model = "");

/// A query text embedded with a stored model (default: the latest) by its query_embedder():
/// the vector to search or rank with. Error(invalid_argument) for an empty query or one that
/// embeds to the zero vector (only stop words, or no word the offline model learned): every
/// node would score 0, an arbitrary order.
GRAPPI_CXX_API std::vector<float> query_vector(const KnowledgeGraph &kg, std::string_view text,
                                               const std::string &model = "");

/// The vectors of a model (default: the latest), kept while the database is unchanged. With
/// hnsw, the model's HNSW graph is loaded from the database, or built and stored when missing
/// or stale.
GRAPPI_CXX_API std::shared_ptr<const VectorIndex> graph_vectors(const KnowledgeGraph &kg, const std::string &model = "",
                                                                bool hnsw = false, const HnswOptions &hnsw_options = {});

/// A Retriever over kg.snapshot() and the vectors of `model` (the latest model when empty; no
/// vectors when nothing was embedded), using the neighbor ranking file when it was written for
/// exactly this adjacency and these vectors. Kept: while neither the graph nor the vectors
/// change, every call returns the same retriever (building one copies every vector).
GRAPPI_CXX_API std::shared_ptr<const Retriever> graph_retriever(const KnowledgeGraph &kg, const std::string &model = "");

/// "<database>.knn": where embed_graph() writes the neighbor ranking and graph_retriever()
/// looks for it.
GRAPPI_CXX_API std::string neighbor_ranking_path(const KnowledgeGraph &kg);

/// Ranks every node's neighbors for the vectors of `model` (default: the latest) and writes
/// neighbor_ranking_path(); embed_graph() does this itself. Returns the number of entries
/// ranked (0 when nothing was embedded). Error(io) when the file cannot be written.
GRAPPI_CXX_API std::size_t build_neighbor_ranking(const KnowledgeGraph &kg, const std::string &model = "",
                                                  unsigned threads = 0);

}  // namespace grappi
