// Embeddings in the database: KnowledgeGraph::embed, stored models, vector indexes.
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

namespace {

using detail::NodeText;
using detail::embedding_text_hash;


std::vector<NodeText> all_node_texts(detail::Db &db) {
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

std::string model_or_default(detail::Db &db, const std::string &model) {
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

// The newest stored model of `kind` that `fits`, re-created from its state; otherwise (or with
// refit) a new one from `make`, fitted on every node's text.
template <class E, class Fits, class Make>
std::unique_ptr<E> stored_or_fitted(detail::Db &db, const char *kind, bool refit, Fits fits, Make make) {
  if (!refit) {
    Stmt st(db, "SELECT config, state FROM embedding_models WHERE kind = ? ORDER BY id DESC");
    st.bind(1, kind);
    while (st.step()) {
      std::string state(static_cast<const char *>(st.col_blob(1)), st.col_bytes(1));
      auto e = E::restore(st.col_text(0), state);
      if (fits(*e)) return e;
    }
  }
  auto e = make();
  std::vector<std::string> corpus;
  for (auto &nt : all_node_texts(db)) corpus.push_back(std::move(nt.text));
  e->fit(corpus);
  return e;
}

}  // namespace

std::string detail::embedding_model_or_default(detail::Db &db, const std::string &model) {
  return model_or_default(db, model);
}


namespace detail {

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

EmbedReport KnowledgeGraph::embed(Embedder &embedder, const EmbedOptions &options) {
  EmbedReport rep = embed_vectors(embedder, options);
  if (!options.neighbor_ranking) return rep;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    rep.neighbor_ranking_entries = build_neighbor_ranking(rep.model, options.threads);
  } catch (const Error &e) {
    // The ranking only speeds windows up: a directory without write access skips it.
    if (e.code() != ErrorCode::io) throw;
    rep.warning = std::string(e.what()) + " (windows rank neighbors on the fly)";
  }
  rep.neighbor_ranking_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

EmbedReport KnowledgeGraph::embed_vectors(Embedder &embedder, const EmbedOptions &options) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->require_writable("embed");
  auto t0 = std::chrono::steady_clock::now();
  auto &db = impl_->db;
  EmbedReport rep;
  rep.model = embedder.model();
  Savepoint sp(db, "grappi_embed");
  // The model row (created on first use; its stored state is refreshed).
  int64_t model_id = 0;
  std::size_t dim = embedder.dimension();
  {
    Stmt st(db, "SELECT id, dim FROM embedding_models WHERE name = ?");
    st.bind(1, rep.model);
    if (st.step()) {
      model_id = st.col_int(0);
      dim = static_cast<std::size_t>(st.col_int(1));
    }
  }
  // Which nodes need (re-)embedding.
  detail::PendingTexts pending = detail::pending_texts(db, model_id);
  std::vector<NodeText> &todo = pending.todo;
  std::vector<std::string> &hashes = pending.hashes;
  std::unordered_map<int64_t, std::string> &have = pending.stale;
  rep.unchanged = pending.unchanged;
  if (!model_id) {
    Stmt ins(db, "INSERT INTO embedding_models(name, kind, dim, config, state, created_at) VALUES(?,?,?,?,?,?)");
    ins.bind(1, rep.model).bind(2, embedder.kind()).bind(3, static_cast<int64_t>(dim)).bind(4, embedder.config());
    std::string state = embedder.state();
    if (state.empty()) ins.bind_null(5); else ins.bind_blob(5, state.data(), state.size());
    ins.bind(6, detail::utc_now()).run();
    model_id = db.last_insert_rowid();
  }
  // Vectors of nodes that no longer exist are dropped by the foreign key; `have` now holds
  // rows whose node is gone only if the cascade did not run (it always does): count them.
  rep.removed = have.size();
  for (auto &kv : have) {
    Stmt del(db, "DELETE FROM embeddings WHERE model_id = ? AND node_id = ?");
    del.bind(1, model_id).bind(2, kv.first).run();
  }
  Stmt put(db, "INSERT OR REPLACE INTO embeddings(model_id, node_id, text_hash, vector) VALUES(?,?,?,?)");
  const std::size_t batch = std::max<std::size_t>(1, options.batch_size);
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < todo.size(); i += batch) {
    texts.clear();
    const std::size_t end = std::min(todo.size(), i + batch);
    for (std::size_t j = i; j < end; ++j) texts.push_back(todo[j].text);
    Embeddings e = embedder.embed(texts);
    if (e.rows() != texts.size())
      throw Error(ErrorCode::invalid_argument, "embedder '" + rep.model + "' returned " + std::to_string(e.rows()) +
                                                   " vectors for " + std::to_string(texts.size()) + " texts");
    if (dim == 0) {
      dim = e.dim;  // HTTP models learn their dimension from the first answer
      Stmt upd(db, "UPDATE embedding_models SET dim = ?, config = ? WHERE id = ?");
      upd.bind(1, static_cast<int64_t>(dim)).bind(2, embedder.config()).bind(3, model_id).run();
    }
    if (e.dim != dim)
      throw Error(ErrorCode::invalid_argument, "embedder '" + rep.model + "' returned vectors of dimension " +
                                                   std::to_string(e.dim) + ", the model has " + std::to_string(dim));
    for (std::size_t j = i; j < end; ++j) {
      const float *v = e.row(j - i);
      for (std::size_t k = 0; k < dim; ++k)
        if (!std::isfinite(v[k])) throw Error(ErrorCode::invalid_argument, "embedder '" + rep.model + "' returned a non-finite value");
      put.bind(1, model_id).bind(2, todo[j].id).bind(3, hashes[j]).bind_blob(4, v, dim * sizeof(float)).run();
    }
    rep.embedded += end - i;
    if (options.progress) options.progress(rep.embedded, todo.size());
  }
  if (rep.embedded || rep.removed) {
    Stmt v(db, "UPDATE embedding_models SET version = version + 1 WHERE id = ?");
    v.bind(1, model_id).run();
    impl_->bump_generation();
  }
  sp.commit();
  rep.dimension = dim;
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

std::unique_ptr<Embedder> KnowledgeGraph::make_embedder(const EmbedderSpec &spec) const {
  if (spec.kind == "hashing") {
    HashingEmbedderOptions o;
    if (spec.dimension) o.dimension = spec.dimension;
    return hashing_embedder(o, spec.refit);
  }
  if (spec.kind == "lsa") {
    LsaEmbedderOptions o;
    if (spec.dimension) o.dimension = spec.dimension;
    std::lock_guard<std::mutex> lock(impl_->mu);
    return stored_or_fitted<LsaEmbedder>(
        impl_->db, "lsa", spec.refit,
        [&](const LsaEmbedder &e) {
          return e.options().dimension == o.dimension && e.options().lexical_weight == o.lexical_weight;
        },
        [&] { return std::make_unique<LsaEmbedder>(o); });
  }
  if (spec.kind == "openai") {
    if (spec.http.model.empty())
      throw Error(ErrorCode::invalid_argument, "embedder \"openai\" needs a model name");
    if (spec.http.base_url.empty())
      throw Error(ErrorCode::invalid_argument, "embedder \"openai\" needs a base URL");
    HttpEmbedderOptions o = spec.http;
    o.dimensions = spec.dimension;
    return std::make_unique<HttpEmbedder>(o);
  }
  if (spec.kind == "callback") {
    if (!spec.callback) throw Error(ErrorCode::invalid_argument, "embedder \"callback\" needs a function");
    if (spec.dimension == 0) throw Error(ErrorCode::invalid_argument, "embedder \"callback\" needs a dimension");
    if (spec.name.empty()) throw Error(ErrorCode::invalid_argument, "embedder \"callback\" needs a name for its vectors");
    return std::make_unique<CallbackEmbedder>(spec.name, spec.dimension, spec.callback);
  }
  throw Error(ErrorCode::invalid_argument, "unknown embedder '" + spec.kind + "' (hashing, lsa, openai or callback)");
}

std::vector<float> KnowledgeGraph::query_vector(std::string_view text, const std::string &model) const {
  if (detail::trim_copy(std::string(text)).empty()) throw Error(ErrorCode::invalid_argument, "the query is empty");
  auto embedder = query_embedder(model);
  auto e = embedder->embed({std::string(text)});
  if (e.rows() != 1) throw Error(ErrorCode::internal, "the query embedder returned no vector");
  std::vector<float> v(e.row(0), e.row(0) + e.dim);
  // A zero vector (an offline model that knows none of the words) ranks every node at 0:
  // an arbitrary order, which must not pass for an answer.
  if (std::all_of(v.begin(), v.end(), [](float x) { return x == 0.0f; }))
    throw Error(ErrorCode::invalid_argument, "the query '" + std::string(text) + "' has no usable terms for " +
                                                 embedder->model() + " (only stop words, or words no node text has)");
  return v;
}

std::unique_ptr<HashingEmbedder> KnowledgeGraph::hashing_embedder(const HashingEmbedderOptions &options, bool refit) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return stored_or_fitted<HashingEmbedder>(
      impl_->db, "hashing", refit, [&](const HashingEmbedder &e) { return e.dimension() == options.dimension; },
      [&] { return std::make_unique<HashingEmbedder>(options); });
}

std::vector<EmbeddingModel> KnowledgeGraph::embedding_models() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db,
          "SELECT m.id, m.name, m.kind, m.dim, m.config, (SELECT count(*) FROM embeddings e WHERE e.model_id = m.id), "
          "m.created_at FROM embedding_models m ORDER BY m.id");
  std::vector<EmbeddingModel> out;
  while (st.step())
    out.push_back({st.col_int(0), st.col_text(1), st.col_text(2), static_cast<std::size_t>(st.col_int(3)), st.col_text(4),
                   static_cast<std::size_t>(st.col_int(5)), st.col_text(6)});
  return out;
}

std::string KnowledgeGraph::default_model() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return model_or_default(impl_->db, "");
}

std::shared_ptr<Embedder> KnowledgeGraph::query_embedder(const std::string &model) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  const std::string name = model_or_default(impl_->db, model);
  auto cached = impl_->query_embedders.find(name);
  if (cached != impl_->query_embedders.end()) return cached->second;
  Stmt st(impl_->db, "SELECT kind, config, state FROM embedding_models WHERE name = ?");
  st.bind(1, name);
  st.step();
  const std::string kind = st.col_text(0);
  std::shared_ptr<Embedder> e;
  if (kind == "hashing") {
    std::string state(static_cast<const char *>(st.col_blob(2)), st.col_bytes(2));
    e = HashingEmbedder::restore(st.col_text(1), state);
  } else if (kind == "lsa") {
    std::string state(static_cast<const char *>(st.col_blob(2)), st.col_bytes(2));
    e = LsaEmbedder::restore(st.col_text(1), state);
  } else if (kind == "openai") {
    e = HttpEmbedder::restore(st.col_text(1));
  }
  if (e) {
    impl_->query_embedders.emplace(name, e);
    return e;
  }
  throw Error(ErrorCode::invalid_argument, "embedding model '" + name + "' came from a callback; embed queries with the same callback");
}


}  // namespace grappi
