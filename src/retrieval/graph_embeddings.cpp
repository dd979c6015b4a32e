// A knowledge graph's embeddings (grappi/graph_embeddings.hpp): its nodes embedded and stored,
// the stored models re-created for queries. The rows are the store's (store/embed_pending.hpp).
#include "grappi/graph_embeddings.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "common/text_util.hpp"
#include "grappi/error.hpp"
#include "retrieval/embedder_state.hpp"
#include "store/embed_pending.hpp"
#include "store/graph_impl.hpp"

namespace grappi {

using detail::Savepoint;
using detail::Stmt;
using detail::NodeText;

namespace {

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
  for (auto &nt : detail::all_node_texts(db)) corpus.push_back(std::move(nt.text));
  e->fit(corpus);
  return e;
}

// A query embedder kept for the generation it was made at (detail::derived).
struct KeptEmbedder {
  std::shared_ptr<Embedder> embedder;
};

EmbedReport embed_vectors(KnowledgeGraph &kg, Embedder &embedder, const EmbedOptions &options) {
  KnowledgeGraph::Impl &m = detail::GraphAccess::impl(kg);
  std::lock_guard<std::mutex> lock(m.mu);
  m.require_writable("embed");
  auto t0 = std::chrono::steady_clock::now();
  auto &db = m.db;
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
    m.bump_generation();
  }
  sp.commit();
  rep.dimension = dim;
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

}  // namespace

std::unique_ptr<Embedder> detail::restore_embedder(const std::string &kind, const std::string &config,
                                                   std::string_view state) {
  if (kind == "hashing") return HashingEmbedder::restore(config, state);
  if (kind == "lsa") return LsaEmbedder::restore(config, state);
  if (kind == "openai") return HttpEmbedder::restore(config);
  return nullptr;
}

EmbedReport embed_graph(KnowledgeGraph &kg, Embedder &embedder, const EmbedOptions &options) {
  EmbedReport rep = embed_vectors(kg, embedder, options);
  if (!options.neighbor_ranking) return rep;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    rep.neighbor_ranking_entries = build_neighbor_ranking(kg, rep.model, options.threads);
  } catch (const Error &e) {
    // The ranking only speeds windows up: a directory without write access skips it.
    if (e.code() != ErrorCode::io) throw;
    rep.warning = std::string(e.what()) + " (windows rank neighbors on the fly)";
  }
  rep.neighbor_ranking_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

std::unique_ptr<Embedder> make_embedder(const KnowledgeGraph &kg, const EmbedderSpec &spec) {
  if (spec.kind == "hashing") {
    HashingEmbedderOptions o;
    if (spec.dimension) o.dimension = spec.dimension;
    return hashing_embedder(kg, o, spec.refit);
  }
  if (spec.kind == "lsa") {
    LsaEmbedderOptions o;
    if (spec.dimension) o.dimension = spec.dimension;
    KnowledgeGraph::Impl &m = detail::GraphAccess::impl(kg);
    std::lock_guard<std::mutex> lock(m.mu);
    return stored_or_fitted<LsaEmbedder>(
        m.db, "lsa", spec.refit,
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

std::vector<float> query_vector(const KnowledgeGraph &kg, std::string_view text, const std::string &model) {
  if (detail::trim_copy(std::string(text)).empty()) throw Error(ErrorCode::invalid_argument, "the query is empty");
  auto embedder = query_embedder(kg, model);
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

std::unique_ptr<HashingEmbedder> hashing_embedder(const KnowledgeGraph &kg, const HashingEmbedderOptions &options, bool refit) {
  KnowledgeGraph::Impl &m = detail::GraphAccess::impl(kg);
  std::lock_guard<std::mutex> lock(m.mu);
  return stored_or_fitted<HashingEmbedder>(
      m.db, "hashing", refit, [&](const HashingEmbedder &e) { return e.dimension() == options.dimension; },
      [&] { return std::make_unique<HashingEmbedder>(options); });
}

std::shared_ptr<Embedder> query_embedder(const KnowledgeGraph &kg, const std::string &model) {
  KnowledgeGraph::Impl &m = detail::GraphAccess::impl(kg);
  std::string name;
  {
    std::lock_guard<std::mutex> lock(m.mu);
    name = detail::embedding_model_or_default(m.db, model);
  }
  // (kept while the database is unchanged: a model's stored state never changes under its name)
  const auto kept = detail::derived<KeptEmbedder>(kg, name, [&]() -> std::shared_ptr<const KeptEmbedder> {
    std::lock_guard<std::mutex> lock(m.mu);
    // (from "<db>.vec" when it keeps this model at this generation: the state not read out of SQLite)
    {
      Stmt st(m.db, "SELECT version FROM embedding_models INDEXED BY embedding_models_meta WHERE name = ?");
      st.bind(1, name);
      if (st.step())
        if (std::shared_ptr<Embedder> e = detail::restore_embedder(detail::vector_file(kg, m.generation(), name, st.col_int(0))))
          return std::make_shared<const KeptEmbedder>(KeptEmbedder{std::move(e)});
    }
    Stmt st(m.db, "SELECT kind, config, state FROM embedding_models WHERE name = ?");
    st.bind(1, name);
    st.step();
    // (the texts first, then a view of the blob, valid until the next step)
    const std::string kind = st.col_text(0), config = st.col_text(1);
    const std::string_view state(static_cast<const char *>(st.col_blob(2)), st.col_bytes(2));
    std::shared_ptr<Embedder> e = detail::restore_embedder(kind, config, state);
    if (!e)
      throw Error(ErrorCode::invalid_argument,
                  "embedding model '" + name + "' came from a callback; embed queries with the same callback");
    return std::make_shared<const KeptEmbedder>(KeptEmbedder{std::move(e)});
  });
  return kept->embedder;
}

}  // namespace grappi
