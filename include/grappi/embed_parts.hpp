// grappi/embed_parts.hpp — embedding a knowledge base in parts, on several processes or machines
// (docs/distributed.md "Embeddings"): one embedder made (and fitted) once and written to a file,
// each part of the nodes to embed embedded from it by a worker into a file of vectors, the parts'
// vectors stored as embed_graph stores them - the same model, the same vectors, the
// same neighbor ranking as one `grappi embed`.
#pragma once

#include "grappi/export.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "grappi/embedding.hpp"
#include "grappi/graph_embeddings.hpp"
#include "grappi/knowledge_graph.hpp"

namespace grappi {

/// Writes an embedder (its kind, configuration and learned state) to a file that
/// load_embedder() re-creates it from in another process: hashing, lsa and openai (whose API
/// key stays in its environment variable, which each worker must have). Written whole or not at
/// all. Error(invalid_argument) for a callback embedder (a function does not travel); Error(io)
/// when the file cannot be written.
GRAPPI_CXX_API void save_embedder(const Embedder &embedder, const std::string &path);

/// The embedder save_embedder() wrote. Error(parse) for a file that is not one or a damaged one,
/// naming it; Error(io) when it cannot be read.
GRAPPI_CXX_API std::unique_ptr<Embedder> load_embedder(const std::string &path);

/// How many node texts the stored model of this name lacks (new nodes, changed texts; every
/// node's for a model not stored yet): what embed_graph would embed now.
GRAPPI_CXX_API std::size_t embed_pending(const KnowledgeGraph &kg, const std::string &model);

/// What embed_part() did.
struct EmbedPartReport {
  std::string path;           ///< the vectors file written
  std::string model;          ///< the embedder's model name
  std::size_t part = 0;       ///< this part's index
  std::size_t parts = 0;      ///< how many parts the pending texts were split into
  std::size_t pending = 0;    ///< texts the model lacks in the whole graph (every part)
  std::size_t embedded = 0;   ///< texts embedded into this part's file
  std::size_t dimension = 0;  ///< the vectors' size
  double seconds = 0;         ///< wall time
};

/// A worker's share of an embedding: the texts embed_graph would embed with this
/// embedder now (nodes whose text is new or changed, in node order) split into `parts`
/// consecutive runs of nearly equal size; run `part` (0-based) embedded in batches of
/// options.batch_size and written to `path` with the texts' hashes and `provenance` (a JSON
/// object's text; empty: none). The graph is only read. Error(invalid_argument) for part >=
/// parts, provenance that is not a JSON object, or an embedder that returns the wrong number of
/// vectors or non-finite values; Error(io) when the file cannot be written.
GRAPPI_CXX_API EmbedPartReport embed_part(const KnowledgeGraph &kg, Embedder &embedder, std::size_t part,
                                          std::size_t parts, const std::string &path,
                                          const std::string &provenance = "", const EmbedOptions &options = {});

/// What embed_from_parts() did: embed_graph's report and where its vectors came from.
struct EmbedPartsReport {
  EmbedReport embed;              ///< as embed_graph reports it
  std::size_t from_parts = 0;     ///< vectors taken from the parts' files
  std::size_t embedded_here = 0;  ///< pending texts no part held, embedded by this process
  std::vector<std::string> provenance;  ///< each part file's provenance (JSON objects' text), in order
};

/// embed_graph(embedder, options) with the vectors of embed_part() files (written with
/// this embedder, as save_embedder() wrote it): a pending text a file holds is taken from it, any
/// other is embedded here. Error(parse) for a file that is not a vectors file or a damaged one,
/// Error(invalid_argument) for one of another model or dimension, both before anything is
/// stored.
GRAPPI_CXX_API EmbedPartsReport embed_from_parts(KnowledgeGraph &kg, Embedder &embedder, const std::vector<std::string> &parts,
                                                 const EmbedOptions &options = {});

}  // namespace grappi
