// The C API: a thin extern "C" layer over the C++ API. Every body runs inside guard(), which
// turns any exception into a status code and a thread-local message.
#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>

#include "grappi/grappi.h"
#include "grappi/grappi.hpp"
#include "grappi/retriever.hpp"
#include "text_reader.hpp"

struct grappi_graph {
  std::unique_ptr<grappi::KnowledgeGraph> kg;
  // The retriever of the current snapshot and vectors, kept while both stay the same (building
  // one copies every node's vector).
  std::mutex retriever_mu;
  std::shared_ptr<const grappi::Retriever> retriever;
};

namespace {

thread_local std::string t_message;
thread_local grappi_status t_code = GRAPPI_OK;

grappi_status set_error(grappi_status code, const std::string &msg) {
  t_code = code;
  t_message = msg;
  return code;
}

grappi_status code_of(grappi::ErrorCode c) {
  switch (c) {
    case grappi::ErrorCode::invalid_argument: return GRAPPI_EINVAL;
    case grappi::ErrorCode::not_found: return GRAPPI_ENOTFOUND;
    case grappi::ErrorCode::ambiguous: return GRAPPI_EAMBIGUOUS;
    case grappi::ErrorCode::io: return GRAPPI_EIO;
    case grappi::ErrorCode::parse: return GRAPPI_EPARSE;
    case grappi::ErrorCode::database: return GRAPPI_EDB;
    case grappi::ErrorCode::network: return GRAPPI_ENETWORK;
    case grappi::ErrorCode::llm: return GRAPPI_ELLM;
    case grappi::ErrorCode::budget: return GRAPPI_EBUDGET;
    case grappi::ErrorCode::internal: return GRAPPI_EINTERNAL;
  }
  return GRAPPI_EINTERNAL;
}

template <class F>
grappi_status guard(F &&f) noexcept {
  try {
    t_code = GRAPPI_OK;
    t_message.clear();
    return f();
  } catch (const grappi::Error &e) {
    return set_error(code_of(e.code()), e.what());
  } catch (const std::bad_alloc &) {
    return set_error(GRAPPI_ENOMEM, "out of memory");
  } catch (const std::exception &e) {
    return set_error(GRAPPI_EINTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return set_error(GRAPPI_EINTERNAL, "internal error: unknown exception");
  }
}

#define GRAPPI_REQUIRE(cond, what) \
  if (!(cond)) return set_error(GRAPPI_EINVAL, what)

// A caller's string: non-NULL and valid UTF-8.
void require_text(const char *s, const char *what) {
  if (!s) throw grappi::Error(grappi::ErrorCode::invalid_argument, std::string(what) + " is NULL");
  if (!grappi::detail::valid_utf8(s)) throw grappi::Error(grappi::ErrorCode::invalid_argument, std::string(what) + " is not valid UTF-8");
}

// A library-allocated copy of a string, for the caller to grappi_free.
char *copy_out(const std::string &s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  if (!p) throw std::bad_alloc();
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

grappi_status write_hits(const std::vector<grappi::SearchHit> &hits, int64_t *out_ids, float *out_scores, size_t capacity,
                         size_t *out_count) {
  *out_count = hits.size();
  if (capacity < hits.size())
    return set_error(GRAPPI_EBUFS, std::to_string(hits.size()) + " results do not fit in capacity " + std::to_string(capacity));
  for (size_t i = 0; i < hits.size(); ++i) {
    out_ids[i] = hits[i].id;
    if (out_scores) out_scores[i] = hits[i].score;
  }
  return GRAPPI_OK;
}

}  // namespace

extern "C" {

const char *grappi_last_error_message(void) { return t_message.c_str(); }
grappi_status grappi_last_error_code(void) { return t_code; }

const char *grappi_status_str(grappi_status s) {
  switch (s) {
    case GRAPPI_OK: return "ok";
    case GRAPPI_EINVAL: return "invalid argument";
    case GRAPPI_ENOTFOUND: return "not found";
    case GRAPPI_EAMBIGUOUS: return "ambiguous name";
    case GRAPPI_EIO: return "I/O error";
    case GRAPPI_EPARSE: return "malformed input";
    case GRAPPI_EDB: return "database error";
    case GRAPPI_ENETWORK: return "network error";
    case GRAPPI_ELLM: return "language model error";
    case GRAPPI_EBUDGET: return "budget exhausted";
    case GRAPPI_EINTERNAL: return "internal error";
    case GRAPPI_EBUFS: return "buffer too small";
    case GRAPPI_ENOMEM: return "out of memory";
    default: return "unknown status";
  }
}

const char *grappi_version_string(void) { return GRAPPI_VERSION_STRING; }

void grappi_free(void *p) { std::free(p); }

grappi_status grappi_open_options_init(grappi_open_options *opts, uint32_t version) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(opts, "grappi_open_options_init: opts is NULL");
    GRAPPI_REQUIRE(version == GRAPPI_OPEN_OPTIONS_VERSION,
                   "grappi_open_options_init: unsupported options version " + std::to_string(version));
    opts->version = version;
    opts->read_only = 0;
    opts->create = 1;
    opts->busy_timeout_ms = 30000;
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_open(const char *path, const grappi_open_options *opts, grappi_graph **out) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(out, "grappi_graph_open: out is NULL");
    *out = nullptr;
    GRAPPI_REQUIRE(path, "grappi_graph_open: path is NULL");
    grappi::OpenOptions o;
    if (opts) {
      GRAPPI_REQUIRE(opts->version == GRAPPI_OPEN_OPTIONS_VERSION,
                     "grappi_graph_open: opts->version must be GRAPPI_OPEN_OPTIONS_VERSION (use grappi_open_options_init)");
      o.read_only = opts->read_only != 0;
      o.create = opts->create != 0;
      o.busy_timeout_ms = opts->busy_timeout_ms > 0 ? opts->busy_timeout_ms : 30000;
    }
    auto h = std::make_unique<grappi_graph>();
    h->kg = std::make_unique<grappi::KnowledgeGraph>(path, o);
    *out = h.release();
    return GRAPPI_OK;
  });
}

void grappi_graph_free(grappi_graph *g) { delete g; }

grappi_status grappi_graph_import(grappi_graph *g, const char *kind, const char *path) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(g && g->kg, "grappi_graph_import: graph is NULL");
    GRAPPI_REQUIRE(path, "grappi_graph_import: path is NULL");
    grappi::ImportSource s{path, kind ? grappi::string_format_from_name(kind) : grappi::StringFormat::detect};
    g->kg->import_string({s});
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_resolve(grappi_graph *g, const char *name, int64_t *out_id) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(g && g->kg, "grappi_graph_resolve: graph is NULL");
    require_text(name, "grappi_graph_resolve: name");
    GRAPPI_REQUIRE(out_id, "grappi_graph_resolve: out_id is NULL");
    *out_id = g->kg->resolve(name);
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_neighbors(grappi_graph *g, int64_t id, double min_score, int64_t *out_ids,
                                     double *out_scores, size_t capacity, size_t *out_count) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(g && g->kg, "grappi_graph_neighbors: graph is NULL");
    GRAPPI_REQUIRE(out_count, "grappi_graph_neighbors: out_count is NULL");
    *out_count = 0;
    GRAPPI_REQUIRE(capacity == 0 || out_ids, "grappi_graph_neighbors: out_ids is NULL but capacity > 0");
    GRAPPI_REQUIRE(min_score == min_score, "grappi_graph_neighbors: min_score is NaN");
    auto snap = g->kg->snapshot();
    grappi::NeighborFilter f;
    f.min_score = min_score;
    auto list = snap->neighbors(id, f);
    *out_count = list.size();
    if (capacity < list.size())
      return set_error(GRAPPI_EBUFS, "grappi_graph_neighbors: " + std::to_string(list.size()) +
                                         " neighbours do not fit in capacity " + std::to_string(capacity));
    for (size_t i = 0; i < list.size(); ++i) {
      out_ids[i] = list[i].node;
      if (out_scores) out_scores[i] = list[i].score;
    }
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_counts(grappi_graph *g, int64_t *out_nodes, int64_t *out_edges) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(g && g->kg, "grappi_graph_counts: graph is NULL");
    GRAPPI_REQUIRE(out_nodes && out_edges, "grappi_graph_counts: an out pointer is NULL");
    auto snap = g->kg->snapshot();
    *out_nodes = static_cast<int64_t>(snap->node_count());
    *out_edges = static_cast<int64_t>(snap->edge_count());
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_node_name(grappi_graph *g, int64_t id, char **out_name) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(out_name, "grappi_graph_node_name: out_name is NULL");
    *out_name = nullptr;
    GRAPPI_REQUIRE(g && g->kg, "grappi_graph_node_name: graph is NULL");
    auto n = g->kg->node(id);
    if (!n) return set_error(GRAPPI_ENOTFOUND, "grappi_graph_node_name: no node with id " + std::to_string(id));
    char *s = static_cast<char *>(std::malloc(n->name.size() + 1));
    if (!s) return set_error(GRAPPI_ENOMEM, "out of memory");
    std::memcpy(s, n->name.c_str(), n->name.size() + 1);
    *out_name = s;
    return GRAPPI_OK;
  });
}

grappi_status grappi_embed_options_init(grappi_embed_options *opts, uint32_t version) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(opts, "grappi_embed_options_init: opts is NULL");
    GRAPPI_REQUIRE(version == GRAPPI_EMBED_OPTIONS_VERSION,
                   "grappi_embed_options_init: unsupported options version " + std::to_string(version));
    *opts = grappi_embed_options{};
    opts->version = version;
    opts->embedder = "hashing";
    opts->dimension = 384;
    opts->base_url = "http://127.0.0.1:8080/v1";
    opts->api_key_env = "OPENAI_API_KEY";
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_embed(grappi_graph *g, const grappi_embed_options *opts, size_t *out_embedded) {
  return guard([&]() -> grappi_status {
    if (out_embedded) *out_embedded = 0;
    GRAPPI_REQUIRE(g && g->kg, "grappi_graph_embed: graph is NULL");
    grappi_embed_options o;
    grappi_embed_options_init(&o, GRAPPI_EMBED_OPTIONS_VERSION);
    if (opts) {
      GRAPPI_REQUIRE(opts->version == GRAPPI_EMBED_OPTIONS_VERSION,
                     "grappi_graph_embed: opts->version must be GRAPPI_EMBED_OPTIONS_VERSION (use grappi_embed_options_init)");
      o = *opts;
    }
    const std::string kind = o.embedder ? o.embedder : "hashing";
    std::unique_ptr<grappi::Embedder> e;
    if (kind == "hashing") {
      grappi::HashingEmbedderOptions ho;
      ho.dimension = o.dimension ? o.dimension : 384;
      e = g->kg->hashing_embedder(ho);
    } else if (kind == "openai") {
      require_text(o.model, "grappi_graph_embed: model");
      require_text(o.base_url, "grappi_graph_embed: base_url");
      grappi::HttpEmbedderOptions ho;
      ho.base_url = o.base_url;
      ho.model = o.model;
      ho.dimensions = o.dimension;
      if (o.api_key_env) ho.api_key_env = o.api_key_env;
      e = std::make_unique<grappi::HttpEmbedder>(ho);
    } else if (kind == "callback") {
      GRAPPI_REQUIRE(o.callback, "grappi_graph_embed: embedder \"callback\" needs a callback");
      GRAPPI_REQUIRE(o.dimension > 0, "grappi_graph_embed: a callback embedder needs a dimension");
      require_text(o.model, "grappi_graph_embed: model");
      const grappi_embed_fn fn = o.callback;
      void *user = o.user_data;
      const size_t dim = o.dimension;
      e = std::make_unique<grappi::CallbackEmbedder>(o.model, dim, [fn, user, dim](const std::vector<std::string> &texts) {
        std::vector<const char *> ptrs;
        for (auto &t : texts) ptrs.push_back(t.c_str());
        grappi::Embeddings out;
        out.dim = dim;
        out.data.assign(texts.size() * dim, 0.0f);
        int32_t rc = fn(user, ptrs.data(), ptrs.size(), out.data.data(), dim);
        if (rc != 0)
          throw grappi::Error(grappi::ErrorCode::invalid_argument, "the embedding callback returned status " + std::to_string(rc));
        return out;
      });
    } else {
      return set_error(GRAPPI_EINVAL, "grappi_graph_embed: unknown embedder '" + kind + "' (hashing, openai or callback)");
    }
    auto r = g->kg->embed(*e);
    try {  // the neighbour ranking only speeds windows up: a directory without write access skips it
      grappi::build_neighbour_ranking(*g->kg, r.model);
    } catch (const grappi::Error &err) {
      if (err.code() != grappi::ErrorCode::io) throw;
    }
    if (out_embedded) *out_embedded = r.embedded;
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_search(grappi_graph *g, const char *text, size_t k, int64_t *out_ids, float *out_scores,
                                  size_t capacity, size_t *out_count) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(g && g->kg, "grappi_graph_search: graph is NULL");
    GRAPPI_REQUIRE(out_count, "grappi_graph_search: out_count is NULL");
    *out_count = 0;
    GRAPPI_REQUIRE(capacity == 0 || out_ids, "grappi_graph_search: out_ids is NULL but capacity > 0");
    require_text(text, "grappi_graph_search: text");
    auto q = g->kg->query_embedder()->embed({text});
    auto hits = g->kg->vectors()->search(q.data.data(), k);
    return write_hits(hits, out_ids, out_scores, capacity, out_count);
  });
}

grappi_status grappi_graph_search_vector(grappi_graph *g, const float *query, size_t dim, size_t k, int64_t *out_ids,
                                         float *out_scores, size_t capacity, size_t *out_count) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(g && g->kg, "grappi_graph_search_vector: graph is NULL");
    GRAPPI_REQUIRE(out_count, "grappi_graph_search_vector: out_count is NULL");
    *out_count = 0;
    GRAPPI_REQUIRE(query, "grappi_graph_search_vector: query is NULL");
    GRAPPI_REQUIRE(capacity == 0 || out_ids, "grappi_graph_search_vector: out_ids is NULL but capacity > 0");
    auto v = g->kg->vectors();
    GRAPPI_REQUIRE(dim == v->dim(), "grappi_graph_search_vector: query has dimension " + std::to_string(dim) +
                                        ", the model " + std::to_string(v->dim()));
    return write_hits(v->search(query, k), out_ids, out_scores, capacity, out_count);
  });
}

grappi_status grappi_window_options_init(grappi_window_options *opts, uint32_t version) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(opts, "grappi_window_options_init: opts is NULL");
    GRAPPI_REQUIRE(version == GRAPPI_WINDOW_OPTIONS_VERSION,
                   "grappi_window_options_init: unsupported options version " + std::to_string(version));
    *opts = grappi_window_options{};
    opts->version = version;
    opts->depth = 2;
    opts->window = 1;
    opts->max_paths = 100000;
    return GRAPPI_OK;
  });
}

namespace {
std::shared_ptr<const grappi::Retriever> retriever_for(grappi_graph *g) {
  std::shared_ptr<const grappi::VectorIndex> vec;
  if (!g->kg->embedding_models().empty()) vec = g->kg->vectors();
  auto snap = g->kg->snapshot();
  std::lock_guard<std::mutex> lock(g->retriever_mu);
  if (!g->retriever || &g->retriever->graph() != snap.get() || g->retriever->vectors() != vec.get()) {
    grappi::RetrieverOptions o;
    o.neighbour_ranking_file = grappi::neighbour_ranking_path(*g->kg);
    g->retriever = std::make_shared<const grappi::Retriever>(snap, vec, o);
  }
  return g->retriever;
}
}  // namespace

grappi_status grappi_graph_window_json(grappi_graph *g, int64_t root, const grappi_window_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(out_json, "grappi_graph_window_json: out_json is NULL");
    *out_json = nullptr;
    GRAPPI_REQUIRE(g && g->kg, "grappi_graph_window_json: graph is NULL");
    grappi_window_options o;
    grappi_window_options_init(&o, GRAPPI_WINDOW_OPTIONS_VERSION);
    if (opts) {
      GRAPPI_REQUIRE(opts->version == GRAPPI_WINDOW_OPTIONS_VERSION,
                     "grappi_graph_window_json: opts->version must be GRAPPI_WINDOW_OPTIONS_VERSION");
      o = *opts;
    }
    GRAPPI_REQUIRE(o.k_count == 0 || o.k, "grappi_graph_window_json: k is NULL but k_count > 0");
    grappi::WindowOptions wo;
    if (o.k_count) wo.k.assign(o.k, o.k + o.k_count);
    wo.depth = o.depth;
    wo.window = o.window;
    wo.filter.min_score = o.min_score;
    auto rp = retriever_for(g);
    const grappi::Retriever &r = *rp;
    auto w = r.window(root, wo);
    auto j = grappi::to_json(r.graph(), w);
    if (o.max_path_length) {
      grappi::PathOptions po;
      po.max_length = o.max_path_length;
      po.max_paths = o.max_paths;
      auto paths = r.window_paths(w, po);
      j["paths"] = grappi::to_json(r.graph(), paths.all());
      j["paths_truncated"] = paths.truncated;
    }
    *out_json = copy_out(j.dump());
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_paths_json(grappi_graph *g, int64_t from, int64_t to, size_t max_length, size_t k,
                                      int32_t weighted, char **out_json) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(out_json, "grappi_graph_paths_json: out_json is NULL");
    *out_json = nullptr;
    GRAPPI_REQUIRE(g && g->kg, "grappi_graph_paths_json: graph is NULL");
    grappi::Retriever r(g->kg->snapshot());
    grappi::ShortestPathOptions o;
    o.max_length = max_length;
    o.k = k;
    o.weighted = weighted != 0;
    *out_json = copy_out(grappi::to_json(r.graph(), r.shortest_paths(from, to, o)).dump());
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_khop_json(grappi_graph *g, const char *question, size_t seeds, size_t hops, size_t degree_cap,
                                     char **out_json) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(out_json, "grappi_graph_khop_json: out_json is NULL");
    *out_json = nullptr;
    GRAPPI_REQUIRE(g && g->kg, "grappi_graph_khop_json: graph is NULL");
    require_text(question, "grappi_graph_khop_json: question");
    auto q = g->kg->query_embedder()->embed({question});
    grappi::Retriever r(g->kg->snapshot(), g->kg->vectors());
    std::vector<int64_t> seed_ids;
    for (auto &h : r.seeds(q.data, seeds)) seed_ids.push_back(h.id);
    grappi::KhopOptions o;
    o.hops = hops;
    o.degree_cap = degree_cap;
    auto j = grappi::to_json(r.graph(), r.khop(seed_ids, o));
    nlohmann::json names = nlohmann::json::array();
    for (int64_t id : seed_ids) names.push_back(r.graph().name(*r.graph().index_of(id)));
    j["seeds"] = names;
    *out_json = copy_out(j.dump());
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_pagerank(grappi_graph *g, const int64_t *seeds, size_t seed_count, double damping,
                                    int64_t *out_ids, double *out_scores, size_t capacity, size_t *out_count) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(g && g->kg, "grappi_graph_pagerank: graph is NULL");
    GRAPPI_REQUIRE(out_count, "grappi_graph_pagerank: out_count is NULL");
    *out_count = 0;
    GRAPPI_REQUIRE(seed_count == 0 || seeds, "grappi_graph_pagerank: seeds is NULL but seed_count > 0");
    GRAPPI_REQUIRE(capacity == 0 || out_ids, "grappi_graph_pagerank: out_ids is NULL but capacity > 0");
    grappi::Retriever r(g->kg->snapshot());
    grappi::PageRankOptions o;
    o.damping = damping;
    if (seed_count) o.seeds.assign(seeds, seeds + seed_count);
    auto top = r.pagerank(o).top(r.graph(), capacity);
    for (size_t i = 0; i < top.size(); ++i) {
      out_ids[i] = top[i].id;
      if (out_scores) out_scores[i] = top[i].score;
    }
    *out_count = top.size();
    return GRAPPI_OK;
  });
}

grappi_status grappi_pcst_solve(size_t num_nodes, const double *prizes, size_t num_edges, const int64_t *edges,
                                const double *costs, int64_t root, int32_t num_clusters, const char *pruning,
                                int64_t *out_nodes, size_t *out_num_nodes, int64_t *out_edges, size_t *out_num_edges,
                                double *out_objective) {
  return grappi_pcst_solve_flags(num_nodes, prizes, num_edges, edges, costs, root, num_clusters, pruning, 0, out_nodes,
                                 out_num_nodes, out_edges, out_num_edges, out_objective);
}

grappi_status grappi_pcst_solve_flags(size_t num_nodes, const double *prizes, size_t num_edges, const int64_t *edges,
                                      const double *costs, int64_t root, int32_t num_clusters, const char *pruning,
                                      uint32_t flags, int64_t *out_nodes, size_t *out_num_nodes, int64_t *out_edges,
                                      size_t *out_num_edges, double *out_objective) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(out_num_nodes && out_num_edges, "grappi_pcst_solve: out_num_nodes or out_num_edges is NULL");
    GRAPPI_REQUIRE((flags & ~(GRAPPI_PCST_IMPROVE | GRAPPI_PCST_REFERENCE_ORDER)) == 0,
                   "grappi_pcst_solve: unknown bits in flags (GRAPPI_PCST_IMPROVE, GRAPPI_PCST_REFERENCE_ORDER)");
    *out_num_nodes = 0;
    *out_num_edges = 0;
    GRAPPI_REQUIRE(num_nodes == 0 || (prizes && out_nodes), "grappi_pcst_solve: prizes or out_nodes is NULL");
    GRAPPI_REQUIRE(num_edges == 0 || (edges && costs && out_edges), "grappi_pcst_solve: edges, costs or out_edges is NULL");
    if (pruning) require_text(pruning, "grappi_pcst_solve: pruning");
    grappi::PcstOptions o;
    o.root = root;
    o.num_clusters = num_clusters;
    o.pruning = pruning ? grappi::pruning_from_name(pruning) : grappi::Pruning::gw;
    o.improve = (flags & GRAPPI_PCST_IMPROVE) != 0;
    o.reference_order = (flags & GRAPPI_PCST_REFERENCE_ORDER) != 0;
    thread_local grappi::PCSTSolver solver;  // buffers reused across calls on this thread
    auto r = solver.solve(num_nodes, prizes, num_edges, edges, costs, o);
    std::copy(r.nodes.begin(), r.nodes.end(), out_nodes);
    std::copy(r.edges.begin(), r.edges.end(), out_edges);
    *out_num_nodes = r.nodes.size();
    *out_num_edges = r.edges.size();
    if (out_objective) *out_objective = r.objective;
    return GRAPPI_OK;
  });
}

grappi_status grappi_retrieve_options_init(grappi_retrieve_options *opts, uint32_t version) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(opts, "grappi_retrieve_options_init: opts is NULL");
    GRAPPI_REQUIRE(version == GRAPPI_RETRIEVE_OPTIONS_VERSION,
                   "grappi_retrieve_options_init: version must be GRAPPI_RETRIEVE_OPTIONS_VERSION");
    std::memset(opts, 0, sizeof *opts);
    grappi::PcstRetrieveOptions d;
    opts->version = version;
    opts->seeds = d.seeds;
    opts->hops = d.khop.hops;
    opts->degree_cap = d.khop.degree_cap;
    opts->node_budget = d.khop.node_budget;
    opts->topk = d.topk;
    opts->topk_e = d.topk_e;
    opts->cost_e = d.cost_e;
    opts->alpha = d.alpha;
    opts->beta = d.beta;
    opts->gamma = d.gamma;
    opts->lambda = d.lambda;
    opts->num_clusters = d.num_clusters;
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_retrieve(grappi_graph *g, const char *question, const grappi_retrieve_options *opts, int32_t csv,
                                    char **out_json) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(out_json, "grappi_graph_retrieve: out_json is NULL");
    *out_json = nullptr;
    GRAPPI_REQUIRE(g && g->kg, "grappi_graph_retrieve: graph is NULL");
    require_text(question, "grappi_graph_retrieve: question");
    grappi_retrieve_options o;
    grappi_retrieve_options_init(&o, GRAPPI_RETRIEVE_OPTIONS_VERSION);
    if (opts) {
      GRAPPI_REQUIRE(opts->version == GRAPPI_RETRIEVE_OPTIONS_VERSION,
                     "grappi_graph_retrieve: opts->version must be GRAPPI_RETRIEVE_OPTIONS_VERSION");
      o = *opts;
    }
    grappi::PcstRetrieveOptions ro;
    if (o.mode) {
      require_text(o.mode, "grappi_graph_retrieve: mode");
      ro.mode = o.mode;
    }
    ro.seeds = o.seeds;
    ro.khop.hops = o.hops;
    ro.khop.degree_cap = o.degree_cap;
    ro.khop.node_budget = o.node_budget;
    ro.khop.filter.min_score = o.min_score;
    ro.topk = o.topk;
    ro.topk_e = o.topk_e;
    ro.cost_e = o.cost_e;
    ro.pyg_cap = o.pyg_cap != 0;
    ro.alpha = o.alpha;
    ro.beta = o.beta;
    ro.gamma = o.gamma;
    ro.lambda = o.lambda;
    ro.pruning = grappi::pruning_from_name(o.pruning ? o.pruning : "gw");
    ro.num_clusters = o.num_clusters;
    const std::string model = g->kg->default_model();
    auto q = g->kg->query_embedder(model)->embed({question}).data;
    auto rp = retriever_for(g);
    auto res = rp->pcst_retrieve(q, ro);
    if (csv) {
      *out_json = copy_out(grappi::to_gretriever_csv(rp->graph(), res.subgraph, [&](int64_t id) {
        return grappi::KnowledgeGraph::node_text(*g->kg->node(id));
      }));
    } else {
      *out_json = copy_out(grappi::to_json(rp->graph(), res).dump());
    }
    return GRAPPI_OK;
  });
}

// ---- explore ------------------------------------------------------------------------------------

struct grappi_chat_reply {
  std::string content, error;
  int64_t prompt_tokens = 0, completion_tokens = 0;
  bool set = false;
};

grappi_status grappi_chat_reply_set(grappi_chat_reply *reply, const char *content, int64_t prompt_tokens,
                                    int64_t completion_tokens) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(reply, "grappi_chat_reply_set: reply is NULL");
    require_text(content, "grappi_chat_reply_set: content");
    GRAPPI_REQUIRE(prompt_tokens >= 0 && completion_tokens >= 0, "grappi_chat_reply_set: negative token count");
    reply->content = content;
    reply->prompt_tokens = prompt_tokens;
    reply->completion_tokens = completion_tokens;
    reply->set = true;
    return GRAPPI_OK;
  });
}

grappi_status grappi_chat_reply_set_error(grappi_chat_reply *reply, const char *message) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(reply, "grappi_chat_reply_set_error: reply is NULL");
    require_text(message, "grappi_chat_reply_set_error: message");
    reply->error = message;
    return GRAPPI_OK;
  });
}

grappi_status grappi_explore_options_init(grappi_explore_options *opts, uint32_t version) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(opts, "grappi_explore_options_init: opts is NULL");
    GRAPPI_REQUIRE(version == GRAPPI_EXPLORE_OPTIONS_VERSION,
                   "grappi_explore_options_init: version must be GRAPPI_EXPLORE_OPTIONS_VERSION");
    std::memset(opts, 0, sizeof *opts);
    opts->version = version;
    opts->depth = 2;
    opts->max_length = 4;
    opts->max_paths = 20000;
    opts->top = 10;
    opts->concurrency = 8;
    opts->use_cache = 1;
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_explore(grappi_graph *g, const char *protein, const char *query,
                                   const grappi_explore_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    GRAPPI_REQUIRE(out_json, "grappi_graph_explore: out_json is NULL");
    *out_json = nullptr;
    GRAPPI_REQUIRE(g && g->kg, "grappi_graph_explore: graph is NULL");
    require_text(protein, "grappi_graph_explore: protein");
    require_text(query, "grappi_graph_explore: query");
    grappi_explore_options o;
    grappi_explore_options_init(&o, GRAPPI_EXPLORE_OPTIONS_VERSION);
    if (opts) {
      GRAPPI_REQUIRE(opts->version == GRAPPI_EXPLORE_OPTIONS_VERSION,
                     "grappi_graph_explore: opts->version must be GRAPPI_EXPLORE_OPTIONS_VERSION");
      o = *opts;
    }
    GRAPPI_REQUIRE(o.window_count == 0 || o.windows, "grappi_graph_explore: windows is NULL but window_count > 0");
    GRAPPI_REQUIRE(o.k_count == 0 || o.k, "grappi_graph_explore: k is NULL but k_count > 0");
    const std::string llm = o.llm ? o.llm : "extractive";
    std::shared_ptr<grappi::LanguageModel> model;
    if (llm == "extractive") {
      model = std::make_shared<grappi::ExtractiveModel>();
    } else if (llm == "openai") {
      GRAPPI_REQUIRE(o.model && *o.model, "grappi_graph_explore: llm \"openai\" needs model");
      grappi::OpenAIChatOptions mo;
      if (o.base_url) {
        require_text(o.base_url, "grappi_graph_explore: base_url");
        mo.base_url = o.base_url;
      }
      require_text(o.model, "grappi_graph_explore: model");
      mo.model = o.model;
      if (o.api_key_env) mo.api_key_env = o.api_key_env;
      if (o.concurrency) mo.concurrency = o.concurrency;
      model = std::make_shared<grappi::OpenAIChatModel>(mo);
    } else if (llm == "callback") {
      GRAPPI_REQUIRE(o.chat, "grappi_graph_explore: llm \"callback\" needs chat");
      GRAPPI_REQUIRE(o.model && *o.model, "grappi_graph_explore: llm \"callback\" needs model (its name, part of the cache key)");
      require_text(o.model, "grappi_graph_explore: model");
      grappi_chat_fn fn = o.chat;
      void *user = o.user_data;
      model = std::make_shared<grappi::CallbackModel>(o.model, [fn, user](const grappi::ChatRequest &q) {
        nlohmann::json j;
        nlohmann::json msgs = nlohmann::json::array();
        for (const auto &m : q.messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
        j["messages"] = std::move(msgs);
        j["json"] = q.json;
        j["max_tokens"] = q.max_tokens;
        j["task"] = q.task;
        const std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        grappi_chat_reply reply;
        int32_t rc = fn(user, text.c_str(), &reply);
        if (rc != 0)
          throw grappi::Error(grappi::ErrorCode::llm, "chat callback returned " + std::to_string(rc) +
                                                          (reply.error.empty() ? std::string() : ": " + reply.error));
        if (!reply.set) throw grappi::Error(grappi::ErrorCode::llm, "chat callback returned 0 without grappi_chat_reply_set");
        grappi::ChatResponse r;
        r.content = std::move(reply.content);
        r.prompt_tokens = reply.prompt_tokens;
        r.completion_tokens = reply.completion_tokens;
        r.finish_reason = "stop";
        return r;
      });
    } else {
      return set_error(GRAPPI_EINVAL, "grappi_graph_explore: unknown llm '" + llm + "' (extractive, openai or callback)");
    }
    grappi::ExploreOptions eo;
    eo.query = query;
    if (o.window_count) eo.windows.assign(o.windows, o.windows + o.window_count);
    if (o.k_count) eo.window.k.assign(o.k, o.k + o.k_count);
    eo.window.depth = o.depth;
    eo.window.filter.min_score = o.min_score;
    eo.max_length = o.max_length;
    eo.max_paths = o.max_paths;
    eo.top = o.top;
    eo.explain_top = o.explain_top;
    eo.concurrency = o.concurrency ? o.concurrency : 1;
    eo.max_calls = o.max_calls;
    eo.max_tokens = o.max_tokens;
    eo.dry_run = o.dry_run != 0;
    eo.use_cache = o.use_cache != 0;
    grappi::AgentPipeline pipe(*g->kg, model, retriever_for(g));
    auto r = pipe.explore(protein, eo);
    *out_json = copy_out(grappi::to_json(r).dump());
    return GRAPPI_OK;
  });
}

}  // extern "C"
