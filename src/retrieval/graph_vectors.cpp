// graph_vectors (grappi/graph_embeddings.hpp): the vector index of a stored embedding model
// (exact, and with HNSW once asked for), read from the database and kept while it is unchanged
// (detail::derived).
#include <cstring>
#include <nlohmann/json.hpp>

#include "grappi/error.hpp"
#include "grappi/json_text.hpp"
#include "grappi/graph_embeddings.hpp"
#include "store/embed_pending.hpp"
#include "store/graph_impl.hpp"

namespace grappi {

using detail::Savepoint;
using detail::Stmt;

namespace {

// A vector index kept for the generation it was read at, with its HNSW parameters ("" without).
struct KeptVectors {
  std::shared_ptr<const VectorIndex> index;
  std::string hnsw_params;
};

}  // namespace

std::shared_ptr<const VectorIndex> graph_vectors(const KnowledgeGraph &kg, const std::string &model, bool hnsw,
                                                 const HnswOptions &ho) {
  KnowledgeGraph::Impl &m = detail::GraphAccess::impl(kg);
  std::lock_guard<std::mutex> lock(m.mu);
  auto &db = m.db;
  const std::string name = detail::embedding_model_or_default(db, model);
  const uint64_t gen = m.generation();
  const std::string params = dump_json(nlohmann::json{{"M", ho.M}, {"ef_construction", ho.ef_construction},
                                            {"metric", static_cast<int>(ho.metric)}, {"seed", ho.seed}});
  // (one index per model kept while the database is unchanged: the one with HNSW once asked for)
  const auto kept = detail::derived_find<KeptVectors>(kg, name, gen);
  if (kept && (!hnsw || (kept->index->has_hnsw() && kept->hnsw_params == params + std::to_string(ho.ef)))) return kept->index;
  Savepoint read(db, "grappi_vectors", false);
  int64_t model_id = 0, version = 0;
  std::size_t dim = 0;
  {
    Stmt st(db, "SELECT id, dim, version FROM embedding_models WHERE name = ?");
    st.bind(1, name);
    st.step();
    model_id = st.col_int(0);
    dim = static_cast<std::size_t>(st.col_int(1));
    version = st.col_int(2);
  }
  std::vector<int64_t> ids;
  Embeddings e;
  e.dim = dim;
  {
    // (the rows counted first through the covering index: one allocation instead of a doubling buffer)
    Stmt count(db, "SELECT count(*) FROM embeddings INDEXED BY embeddings_node WHERE model_id = ?");
    count.bind(1, model_id);
    if (count.step()) {
      const auto rows = static_cast<std::size_t>(count.col_int(0));
      ids.reserve(rows);
      e.data.reserve(rows * dim);
    }
  }
  {
    Stmt st(db, "SELECT node_id, vector FROM embeddings WHERE model_id = ? ORDER BY node_id");
    st.bind(1, model_id);
    while (st.step()) {
      if (st.col_bytes(1) != dim * sizeof(float))
        throw Error(ErrorCode::database, "embedding of node " + std::to_string(st.col_int(0)) + " has the wrong size");
      ids.push_back(st.col_int(0));
      const std::size_t at = e.data.size();
      e.data.resize(at + dim);
      std::memcpy(e.data.data() + at, st.col_blob(1), dim * sizeof(float));
    }
  }
  auto index = std::make_shared<VectorIndex>(name, std::move(ids), std::move(e));
  bool store = false;
  if (hnsw) {
    Stmt st(db, "SELECT data FROM hnsw_indexes WHERE model_id = ? AND version = ? AND params = ?");
    st.bind(1, model_id).bind(2, version).bind(3, params);
    bool loaded = false;
    if (st.step()) {
      try {
        index->load_hnsw(std::string(static_cast<const char *>(st.col_blob(0)), st.col_bytes(0)), ho);
        loaded = true;
      } catch (const Error &) {
        loaded = false;  // unreadable: rebuild below
      }
    }
    if (!loaded) {
      index->build_hnsw(ho);
      store = !m.read_only;
    }
  }
  read.commit();
  if (store) {
    Savepoint sp(db, "grappi_hnsw");
    const std::string bytes = index->save_hnsw();
    Stmt put(db, "INSERT OR REPLACE INTO hnsw_indexes(model_id, version, params, data) VALUES(?,?,?,?)");
    put.bind(1, model_id).bind(2, version).bind(3, params).bind_blob(4, bytes.data(), bytes.size()).run();
    sp.commit();  // not a change of the graph: the generation stays
  }
  detail::derived_put<KeptVectors>(kg, name, gen,
                                   std::make_shared<const KeptVectors>(KeptVectors{index, hnsw ? params + std::to_string(ho.ef) : std::string()}));
  return index;
}

}  // namespace grappi
