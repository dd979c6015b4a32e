// graph_vectors (grappi/graph_embeddings.hpp): the vector index of a stored embedding model
// (exact, and with HNSW once asked for), read from the database and kept while it is unchanged
// (detail::derived).
//
// "<db>.vec" keeps the last model read as the arrays the index uses (ids, rows, norms) and the
// model's stored embedder (kind, configuration, state, which query_embedder restores), so that
// the next process maps them instead of reading them out of SQLite (a tenth of a second at the
// human proteome's size): a section file (common/section_file.hpp) under a key naming the
// database's instance and generation and the model; anything else is read from the database
// and the file rewritten.
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "grappi/error.hpp"
#include "grappi/json_text.hpp"
#include "grappi/graph_embeddings.hpp"
#include "common/section_file.hpp"
#include "retrieval/embedder_state.hpp"
#include "store/embed_pending.hpp"
#include "store/graph_impl.hpp"

namespace grappi {

using detail::Savepoint;
using detail::Stmt;

namespace detail {

// The vector file's reader and writer: VectorIndex's rows in place, and the model's embedder
// as stored (kind, configuration, state) for query_embedder().
struct VectorIndexAccess {
  static constexpr char kMagic[16] = "grappi-vec-v1\n";
  enum Section : std::size_t { s_key, s_ids, s_rows, s_norms, s_kind, s_config, s_state, s_count };

  static void save(const VectorFile &file, const VectorIndex &v, const std::string &kind, const std::string &config,
                   std::string_view state) {
    const std::vector<FilePiece> sections = {{file.key.data(), file.key.size()},
                                             {v.ids_.data(), v.ids_.size() * sizeof(int64_t)},
                                             {v.rows_, v.ids_.size() * v.dim() * sizeof(float)},
                                             {v.norms_.data(), v.norms_.size() * sizeof(float)},
                                             {kind.data(), kind.size()},
                                             {config.data(), config.size()},
                                             {state.data(), state.size()}};
    try {
      write_section_file(file.path, kMagic, sections, "vector file");
    } catch (const Error &) {
      // (a directory the process may not write to has no vector file: read from the database each time)
    }
  }

  // The file's sections when its layout is sound and its key is `key` (the other sections unchecked).
  static std::shared_ptr<const MappedFile> open(const VectorFile &vf, SectionFile &f) {
    if (vf.path.empty()) return nullptr;
    auto file = MappedFile::open(vf.path);
    if (!file || !f.open(*file, kMagic, s_count) || f[s_key].size != vf.key.size() || !f.intact(s_key) ||
        std::memcmp(f[s_key].data, vf.key.data(), vf.key.size()) != 0)
      return nullptr;
    return file;
  }

  // The index of the file when it is intact and of exactly this key and dimension.
  static std::shared_ptr<VectorIndex> load(const VectorFile &vf, const std::string &model, std::size_t dim) {
    SectionFile f;
    auto file = open(vf, f);
    if (!file || dim == 0) return nullptr;
    const std::size_t n = f[s_ids].size / sizeof(int64_t);
    if (f[s_ids].size != n * sizeof(int64_t) || f[s_rows].size / dim / sizeof(float) != n ||
        f[s_rows].size != n * dim * sizeof(float) || f[s_norms].size != n * sizeof(float))
      return nullptr;
    for (std::size_t i = s_ids; i < s_count; ++i)  // (the embedder's too: a damaged file is rewritten whole)
      if (!f.intact(i)) return nullptr;
    std::shared_ptr<VectorIndex> v(new VectorIndex());
    v->model_ = model;
    v->ids_.resize(n);
    v->norms_.resize(n);
    std::memcpy(v->ids_.data(), f[s_ids].data, n * sizeof(int64_t));
    std::memcpy(v->norms_.data(), f[s_norms].data, n * sizeof(float));
    for (std::size_t i = 0; i < n; ++i)
      if ((i > 0 && v->ids_[i] <= v->ids_[i - 1]) || !(v->norms_[i] >= 0) || !std::isfinite(v->norms_[i])) return nullptr;
    v->vectors_.dim = dim;
    v->rows_ = static_cast<const float *>(f[s_rows].data);
    v->keep_ = std::move(file);
    return v;
  }

  static std::unique_ptr<Embedder> embedder(const VectorFile &vf) {
    SectionFile f;
    const auto file = open(vf, f);
    if (!file || !f.intact(s_kind) || !f.intact(s_config) || !f.intact(s_state)) return nullptr;
    const auto text = [&](std::size_t i) { return std::string(static_cast<const char *>(f[i].data), f[i].size); };
    try {
      return restore_embedder(text(s_kind), text(s_config),
                              std::string_view(static_cast<const char *>(f[s_state].data), f[s_state].size));
    } catch (const Error &) {
      return nullptr;  // (what the database holds decides)
    }
  }
};

VectorFile vector_file(const KnowledgeGraph &kg, uint64_t generation, const std::string &model, int64_t version) {
  KnowledgeGraph::Impl &m = GraphAccess::impl(kg);
  const std::string instance = m.snapshot_cache.empty() ? std::string() : instance_of(m.db);
  if (instance.empty()) return {};
  return {kg.path() + ".vec", instance + '\n' + std::to_string(generation) + '\n' + model + '\n' + std::to_string(version)};
}

std::unique_ptr<Embedder> restore_embedder(const VectorFile &file) { return VectorIndexAccess::embedder(file); }

}  // namespace detail

namespace {

// A vector index kept for the generation it was read at, with its HNSW parameters ("" without).
struct KeptVectors {
  std::shared_ptr<const VectorIndex> index;
  std::string hnsw_params;
};

// Every vector of a model, read from the database.
std::shared_ptr<VectorIndex> read_vectors(detail::Db &db, const std::string &name, int64_t model_id, std::size_t dim) {
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
  return std::make_shared<VectorIndex>(name, std::move(ids), std::move(e));
}

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
    Stmt st(db, "SELECT id, dim, version FROM embedding_models INDEXED BY embedding_models_meta WHERE name = ?");
    st.bind(1, name);
    st.step();
    model_id = st.col_int(0);
    dim = static_cast<std::size_t>(st.col_int(1));
    version = st.col_int(2);
  }
  const detail::VectorFile file = detail::vector_file(kg, gen, name, version);
  std::shared_ptr<VectorIndex> index = detail::VectorIndexAccess::load(file, name, dim);
  if (!index) {
    index = read_vectors(db, name, model_id, dim);
    if (!file.path.empty() && index->size() > 0) {
      Stmt st(db, "SELECT kind, config, state FROM embedding_models WHERE id = ?");
      st.bind(1, model_id);
      if (st.step()) {
        // (the texts first, then a view of the blob, valid until the next step)
        const std::string kind = st.col_text(0), config = st.col_text(1);
        const std::string_view state(static_cast<const char *>(st.col_blob(2)), st.col_bytes(2));
        detail::VectorIndexAccess::save(file, *index, kind, config, state);
      }
    }
  }
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
