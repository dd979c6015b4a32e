// Embeddings in the database, as rows: the stored models, their vectors' text hashes, which
// nodes a model lacks vectors for (grappi/graph_embeddings.hpp embeds them, in src/retrieval).
#include <algorithm>
#include <chrono>
#include <cstring>
#include <nlohmann/json.hpp>

#include "store/graph_impl.hpp"
#include "store/embed_pending.hpp"
#include "grappi/error.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"

namespace grappi {

using detail::Savepoint;
using detail::Stmt;

namespace detail {

std::vector<NodeText> all_node_texts(Db &db) {
  std::vector<NodeText> out;
  Stmt st(db, "SELECT id, name, annotation FROM nodes ORDER BY id");
  while (st.step()) {
    Node n;
    n.name = st.col_text(1);
    n.annotation = st.col_text(2);
    out.push_back({st.col_int(0), KnowledgeGraph::node_text(n)});
  }
  return out;
}

std::string embedding_model_or_default(Db &db, const std::string &model) {
  if (!model.empty()) {
    Stmt st(db, "SELECT 1 FROM embedding_models WHERE name = ?");
    st.bind(1, model);
    if (!st.step()) throw Error(ErrorCode::not_found, "no embedding model named '" + model + "' (run grappi embed)");
    return model;
  }
  Stmt st(db, "SELECT name FROM embedding_models ORDER BY id DESC LIMIT 1");
  if (!st.step()) throw Error(ErrorCode::not_found, "database '" + db.path() + "' has no embeddings yet (run grappi embed)");
  return st.col_text(0);
}

std::string embedding_text_hash(const std::string &text) { return sha256_hex(text).substr(0, 32); }

int64_t embedding_model_id(Db &db, const std::string &model) {
  Stmt st(db, "SELECT id FROM embedding_models WHERE name = ?");
  st.bind(1, model);
  return st.step() ? st.col_int(0) : 0;
}

PendingTexts pending_texts(Db &db, int64_t model_id) {
  PendingTexts out;
  if (model_id) {
    Stmt st(db, "SELECT node_id, text_hash FROM embeddings WHERE model_id = ?");
    st.bind(1, model_id);
    while (st.step()) out.stale.emplace(st.col_int(0), st.col_text(1));
  }
  for (auto &nt : all_node_texts(db)) {
    std::string h = embedding_text_hash(nt.text);
    auto it = out.stale.find(nt.id);
    if (it != out.stale.end() && it->second == h) {
      ++out.unchanged;
      out.stale.erase(it);
      continue;
    }
    if (it != out.stale.end()) out.stale.erase(it);
    out.todo.push_back(std::move(nt));
    out.hashes.push_back(std::move(h));
  }
  return out;
}

}  // namespace detail

std::string KnowledgeGraph::node_text(const Node &node) {
  if (node.annotation.empty()) return node.name;
  return node.name + ": " + node.annotation;
}

std::vector<EmbeddingModel> KnowledgeGraph::embedding_models() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db,
          "SELECT m.id, m.name, m.kind, m.dim, m.config, (SELECT count(*) FROM embeddings e INDEXED BY embeddings_node WHERE e.model_id = m.id), "
          "m.created_at FROM embedding_models m INDEXED BY embedding_models_meta ORDER BY m.id");  // (not through the states)
  std::vector<EmbeddingModel> out;
  while (st.step())
    out.push_back({st.col_int(0), st.col_text(1), st.col_text(2), static_cast<std::size_t>(st.col_int(3)), st.col_text(4),
                   static_cast<std::size_t>(st.col_int(5)), st.col_text(6)});
  return out;
}

std::string KnowledgeGraph::default_model() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return detail::embedding_model_or_default(impl_->db, "");
}

}  // namespace grappi
