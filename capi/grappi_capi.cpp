// The C API: a thin extern "C" layer over the C++ API. Every body runs inside guard(), which
// turns any exception into a status code and a thread-local message.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "grappi/grappi.h"
#include "grappi/grappi.hpp"

struct grappi_graph {
  std::unique_ptr<grappi::KnowledgeGraph> kg;
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
    GRAPPI_REQUIRE(name, "grappi_graph_resolve: name is NULL");
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

}  // extern "C"
