// Embeddings as rows of the database (embed_store.cpp): which nodes an embedding model lacks
// vectors for, the stored models' names; read by the embedding functions of the retrieval layer
// (grappi/graph_embeddings.hpp, grappi/embed_parts.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/sqlite.hpp"

namespace grappi::detail {

/// A node's id and the text grappi embeds for it (KnowledgeGraph::node_text).
struct NodeText {
  int64_t id;
  std::string text;
};

/// Every node's id and text, in node order.
std::vector<NodeText> all_node_texts(Db &db);

/// The first 128 bits of a text's SHA-256, in hex: what stored vectors are keyed by.
std::string embedding_text_hash(const std::string &text);

/// The model's name when it is stored, else the newest model's when `model` is empty;
/// Error(not_found) otherwise (graph_vectors and the embedding functions).
std::string embedding_model_or_default(Db &db, const std::string &model);

/// The stored model's row id, 0 when there is none of that name.
int64_t embedding_model_id(Db &db, const std::string &model);

/// The nodes a model (row id; 0: a new model) must embed: new texts and changed ones, in node
/// order, with their hashes; the vectors kept; the stored vectors of nodes that are gone.
struct PendingTexts {
  std::vector<NodeText> todo;
  std::vector<std::string> hashes;                 // per todo entry
  std::size_t unchanged = 0;                       // vectors kept
  std::unordered_map<int64_t, std::string> stale;  // node id -> hash of vectors whose node is gone
};
PendingTexts pending_texts(Db &db, int64_t model_id);

}  // namespace grappi::detail
