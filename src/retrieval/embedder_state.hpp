// Internal: an embedder re-created from what was stored of it - its kind, configuration and
// state (a database's model row, a worker's embedder file).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "grappi/embedding.hpp"
#include "grappi/knowledge_graph.hpp"

namespace grappi::detail {

/// The embedder of `kind` ("hashing", "lsa", "openai") re-created from its configuration and
/// state; null for a kind that cannot be re-created (a callback's vectors). Throws what the
/// kind's restore() throws for a damaged state.
std::unique_ptr<Embedder> restore_embedder(const std::string &kind, const std::string &config, std::string_view state);

/// "<db>.vec" (graph_vectors.cpp): the vectors of the model last read, and its stored embedder,
/// under `key`; `path` is empty when the database keeps no files beside it (in memory, opened
/// without the snapshot cache, made before instances were kept).
struct VectorFile {
  std::string path, key;
};
/// The file and key of `model` (at `version`) at this generation of the database (called under
/// the database's lock).
VectorFile vector_file(const KnowledgeGraph &kg, uint64_t generation, const std::string &model, int64_t version);
/// The embedder the vector file keeps for its model when the file is intact and of `file.key`:
/// re-created from the mapped bytes without reading the state out of SQLite; nullptr otherwise.
std::unique_ptr<Embedder> restore_embedder(const VectorFile &file);

}  // namespace grappi::detail
