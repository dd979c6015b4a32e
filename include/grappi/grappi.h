/* grappi/grappi.h — the stable C API of grappi.
 *
 * Conventions: every fallible function returns a grappi_status (GRAPPI_OK = 0, negative codes
 * on failure) and records a thread-local message readable with grappi_last_error_message().
 * No C++ exception ever crosses this boundary. Handles are opaque; every _free function
 * accepts NULL. Strings passed in must be NUL-terminated UTF-8. Ownership is stated per
 * function. */
#ifndef GRAPPI_H
#define GRAPPI_H

#include <stddef.h>
#include <stdint.h>

#include "grappi/export.h"
#include "grappi/version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t grappi_status;

/* Status codes: only ever appended. */
#define GRAPPI_OK 0
#define GRAPPI_EINVAL (-1)    /* invalid argument (NULL pointer, out-of-range value, bad UTF-8) */
#define GRAPPI_ENOTFOUND (-2) /* name, id, file or dataset not found */
#define GRAPPI_EAMBIGUOUS (-3) /* a name matches several nodes */
#define GRAPPI_EIO (-4)       /* file could not be read or written */
#define GRAPPI_EPARSE (-5)    /* malformed input data */
#define GRAPPI_EDB (-6)       /* database error */
#define GRAPPI_ENETWORK (-7)  /* HTTP failure */
#define GRAPPI_ELLM (-8)      /* unusable language-model answer */
#define GRAPPI_EBUDGET (-9)   /* call or token budget exhausted */
#define GRAPPI_EINTERNAL (-10) /* bug in grappi */
#define GRAPPI_EBUFS (-11)    /* output buffer too small; the needed size was reported */
#define GRAPPI_ENOMEM (-12)   /* out of memory */

/* Message of the last failure on this thread; never NULL ("" when none). Valid until the next
 * grappi call on this thread. */
GRAPPI_API const char *grappi_last_error_message(void);
/* Status of the last failure on this thread (GRAPPI_OK when none). */
GRAPPI_API grappi_status grappi_last_error_code(void);
/* Static description of a status code; never NULL. */
GRAPPI_API const char *grappi_status_str(grappi_status status);
/* Runtime library version, e.g. "0.1.0"; static storage. */
GRAPPI_API const char *grappi_version_string(void);
/* Frees memory the library allocated and handed to the caller. NULL is a no-op. */
GRAPPI_API void grappi_free(void *p);

typedef struct grappi_graph grappi_graph;

#define GRAPPI_OPEN_OPTIONS_VERSION 1
typedef struct grappi_open_options {
  uint32_t version;      /* GRAPPI_OPEN_OPTIONS_VERSION */
  int32_t read_only;     /* non-zero: open read-only */
  int32_t create;        /* non-zero: create the file when missing (default 1) */
  int32_t busy_timeout_ms; /* default 30000 */
} grappi_open_options;

/* Fills *opts with the defaults of the given options version. */
GRAPPI_API grappi_status grappi_open_options_init(grappi_open_options *opts, uint32_t version);

/* Opens or creates a knowledge-graph database. opts may be NULL for the defaults.
 * On success *out owns a handle to free with grappi_graph_free; on failure *out is NULL. */
GRAPPI_API grappi_status grappi_graph_open(const char *path, const grappi_open_options *opts,
                                           grappi_graph **out);
/* Closes the database and frees the handle. NULL is a no-op. */
GRAPPI_API void grappi_graph_free(grappi_graph *g);

/* Imports one STRING file in one transaction. kind is "info", "aliases", "links", "detailed",
 * "physical", "actions", "export", or NULL/"detect" to detect the format from the header.
 * On a bad line nothing is imported and GRAPPI_EPARSE names the file and line. */
GRAPPI_API grappi_status grappi_graph_import(grappi_graph *g, const char *kind, const char *path);

/* Resolves a name, alias or external id (case-insensitive) to a node id. */
GRAPPI_API grappi_status grappi_graph_resolve(grappi_graph *g, const char *name, int64_t *out_id);

/* Neighbours of node id with score >= min_score (0-1), in adjacency order. *out_count is always
 * set to the full count; when capacity is smaller GRAPPI_EBUFS is returned and nothing is
 * written, so a caller may first pass capacity 0. out_ids and out_scores (caller-owned, length
 * >= capacity) may be NULL only when capacity is 0; out_scores may be NULL to skip scores. */
GRAPPI_API grappi_status grappi_graph_neighbors(grappi_graph *g, int64_t id, double min_score,
                                                int64_t *out_ids, double *out_scores,
                                                size_t capacity, size_t *out_count);

/* Node and edge counts of the graph's current snapshot. */
GRAPPI_API grappi_status grappi_graph_counts(grappi_graph *g, int64_t *out_nodes, int64_t *out_edges);

/* Preferred name of a node, as a NUL-terminated string the caller frees with grappi_free. */
GRAPPI_API grappi_status grappi_graph_node_name(grappi_graph *g, int64_t id, char **out_name);

/* ---- embeddings and search ------------------------------------------------------------- */

/* An embedding callback: write count vectors of dim floats, row after row, into out (owned by
 * the library, valid during the call) and return 0; any other value is an error the library
 * reports as GRAPPI_EINVAL. texts are NUL-terminated UTF-8, valid during the call. */
typedef int32_t (*grappi_embed_fn)(void *user_data, const char *const *texts, size_t count, float *out, size_t dim);

#define GRAPPI_EMBED_OPTIONS_VERSION 1
typedef struct grappi_embed_options {
  uint32_t version;         /* GRAPPI_EMBED_OPTIONS_VERSION */
  const char *embedder;     /* "hashing" (default), "openai" or "callback" */
  size_t dimension;         /* hashing: 384 by default; openai: requested (0 = model default); callback: required */
  const char *base_url;     /* openai: e.g. "http://127.0.0.1:8080/v1" */
  const char *model;        /* openai: model name; callback: a name for the vectors (required) */
  const char *api_key_env;  /* openai: environment variable with the key (default OPENAI_API_KEY) */
  grappi_embed_fn callback; /* callback */
  void *user_data;          /* passed to callback */
} grappi_embed_options;

GRAPPI_API grappi_status grappi_embed_options_init(grappi_embed_options *opts, uint32_t version);

/* Embeds every node whose text is new or changed (opts NULL: the built-in hashing embedder).
 * *out_embedded (may be NULL) receives the number of texts embedded now. Then ranks every
 * node's neighbours by similarity into "<database>.knn" (skipped when that file cannot be
 * written), which windows use to look their picks up instead of ranking on the fly. */
GRAPPI_API grappi_status grappi_graph_embed(grappi_graph *g, const grappi_embed_options *opts, size_t *out_embedded);

/* The k nodes most similar to a text, embedded with the latest stored model (hashing or
 * openai). Two-call pattern as grappi_graph_neighbors; results best first, ties by id. */
GRAPPI_API grappi_status grappi_graph_search(grappi_graph *g, const char *text, size_t k, int64_t *out_ids,
                                             float *out_scores, size_t capacity, size_t *out_count);
/* The same for a query vector of the latest model's dimension (e.g. from your own callback). */
GRAPPI_API grappi_status grappi_graph_search_vector(grappi_graph *g, const float *query, size_t dim, size_t k,
                                                    int64_t *out_ids, float *out_scores, size_t capacity,
                                                    size_t *out_count);

/* ---- retrieval (results as JSON strings, schema in the README; free with grappi_free) ------ */

#define GRAPPI_WINDOW_OPTIONS_VERSION 1
typedef struct grappi_window_options {
  uint32_t version;        /* GRAPPI_WINDOW_OPTIONS_VERSION */
  const size_t *k;         /* k per depth; NULL for {30, 4} */
  size_t k_count;
  size_t depth;            /* M, default 2 */
  size_t window;           /* 1-based, default 1 */
  double min_score;        /* 0-1, default 0 */
  size_t max_path_length;  /* > 0: add "paths" (all simple paths from the root); default 0 */
  size_t max_paths;        /* bound on paths, default 100000 */
} grappi_window_options;

GRAPPI_API grappi_status grappi_window_options_init(grappi_window_options *opts, uint32_t version);

/* A GraPPI moving kNN window around node root (ranked with the latest embeddings when there
 * are any, else by edge score). *out_json is library-allocated: free it with grappi_free. */
GRAPPI_API grappi_status grappi_graph_window_json(grappi_graph *g, int64_t root, const grappi_window_options *opts,
                                                  char **out_json);
/* Up to k shortest simple paths (Yen) with at most max_length edges; weighted != 0 ranks by
 * the sum of -log(score). JSON list of {"proteins", "length", ...}. */
GRAPPI_API grappi_status grappi_graph_paths_json(grappi_graph *g, int64_t from, int64_t to, size_t max_length,
                                                 size_t k, int32_t weighted, char **out_json);
/* Seeds by similarity to a question, then k-hop expansion: JSON {"seeds", "nodes", "edges"}. */
GRAPPI_API grappi_status grappi_graph_khop_json(grappi_graph *g, const char *question, size_t seeds, size_t hops,
                                                size_t degree_cap, char **out_json);
/* PageRank (personalised when seed_count > 0), weighted by score. Writes the top
 * min(capacity, node count) nodes, best first, and sets *out_count to that number. */
GRAPPI_API grappi_status grappi_graph_pagerank(grappi_graph *g, const int64_t *seeds, size_t seed_count, double damping,
                                               int64_t *out_ids, double *out_scores, size_t capacity,
                                               size_t *out_count);

#define GRAPPI_RETRIEVE_OPTIONS_VERSION 1
typedef struct grappi_retrieve_options {
  uint32_t version;     /* GRAPPI_RETRIEVE_OPTIONS_VERSION */
  const char *mode;     /* "gretriever" (default) or "prize" (seed-002) */
  size_t seeds;         /* seed nodes by similarity, default 10 */
  size_t hops;          /* base subgraph hops, default 2 */
  size_t degree_cap;    /* default 20 (0: none) */
  size_t node_budget;   /* default 2000 (0: none) */
  double min_score;     /* edge filter, 0-1 */
  size_t topk;          /* gretriever: default 3 */
  size_t topk_e;        /* gretriever: default 5 */
  double cost_e;        /* gretriever: default 0.5 */
  int32_t pyg_cap;      /* gretriever: non-zero for the PyG cap (previous - 0.01) */
  double alpha, beta, gamma, lambda; /* prize: defaults 1, 1, 0.5, 1 */
  const char *pruning;  /* "none", "simple", "gw" (default), "strong" */
  int32_t num_clusters; /* default 1 */
} grappi_retrieve_options;

GRAPPI_API grappi_status grappi_retrieve_options_init(grappi_retrieve_options *opts, uint32_t version);

/* A connected, compact subgraph for a question by PCST (embedded with the latest stored model):
 * JSON {"nodes": [{id, name, hops, prize}], "edges": [{source, target, score, relation, prize}],
 * "seeds", "edge_cost", "objective", "net_worth", "base_nodes", "base_edges", "virtual_nodes"}
 * in *out_json (free with grappi_free); with csv != 0 the G-Retriever CSV text instead. */
GRAPPI_API grappi_status grappi_graph_retrieve(grappi_graph *g, const char *question, const grappi_retrieve_options *opts,
                                               int32_t csv, char **out_json);

/* ---- explore: ranked, explained PPI paths (the AgentPipeline) ----------------------------- */

/* The answer slot of one chat request; valid only during the callback. */
typedef struct grappi_chat_reply grappi_chat_reply;

/* A chat model callback. request_json (UTF-8, valid during the call) is
 * {"messages": [{"role", "content"}, ...], "json": bool, "max_tokens": n, "task": {...}} where
 * "task" holds the facts behind the prompt (README "explore"). Answer with
 * grappi_chat_reply_set and return 0; any other return value makes this one request fail (with
 * the message given to grappi_chat_reply_set_error, if any). The callback is called from up to
 * `concurrency` threads at once: make it thread-safe or set concurrency to 1. */
typedef int32_t (*grappi_chat_fn)(void *user_data, const char *request_json, grappi_chat_reply *reply);

/* Copies the answer text (UTF-8) and its token counts into the reply. */
GRAPPI_API grappi_status grappi_chat_reply_set(grappi_chat_reply *reply, const char *content, int64_t prompt_tokens,
                                               int64_t completion_tokens);
/* Copies a failure reason into the reply (used when the callback returns non-zero). */
GRAPPI_API grappi_status grappi_chat_reply_set_error(grappi_chat_reply *reply, const char *message);

#define GRAPPI_EXPLORE_OPTIONS_VERSION 1
typedef struct grappi_explore_options {
  uint32_t version;          /* GRAPPI_EXPLORE_OPTIONS_VERSION */
  const size_t *windows;     /* window numbers (1-based); NULL for {1} */
  size_t window_count;
  const size_t *k;           /* k per depth; NULL for {30, 4} */
  size_t k_count;
  size_t depth;              /* M, default 2 */
  double min_score;          /* 0-1, default 0 */
  size_t max_length;         /* L, default 4 */
  size_t max_paths;          /* candidate bound, default 20000 */
  size_t top;                /* ranked paths kept, default 10 */
  size_t explain_top;        /* explain only the best N candidates by the prior; 0 = all */
  size_t concurrency;        /* model calls in flight, default 8 */
  size_t max_calls;          /* model-call budget, 0 = none */
  int64_t max_tokens;        /* token budget, 0 = none */
  int32_t dry_run;           /* non-zero: plan only, no model calls */
  int32_t use_cache;         /* default 1: read and write the database's response cache */
  const char *llm;           /* "extractive" (default), "openai" or "callback" */
  const char *base_url;      /* openai: e.g. "http://127.0.0.1:8080/v1" */
  const char *model;         /* openai: model name (required); callback: its name, part of the cache key */
  const char *api_key_env;   /* openai: environment variable with the key (default OPENAI_API_KEY) */
  grappi_chat_fn chat;       /* callback */
  void *user_data;           /* passed to chat */
} grappi_explore_options;

GRAPPI_API grappi_status grappi_explore_options_init(grappi_explore_options *opts, uint32_t version);

/* Runs the pipeline from a protein (any resolvable name) for a therapeutic query. On success
 * *out_json (library-allocated; free with grappi_free) holds the JSON documented in the README
 * ("paths", "usage", ...). Model failures are recorded per path and edge in that JSON; the call
 * itself fails only for bad arguments, an unknown protein or a database error. */
GRAPPI_API grappi_status grappi_graph_explore(grappi_graph *g, const char *protein, const char *query,
                                              const grappi_explore_options *opts, char **out_json);

/* ---- prize-collecting Steiner tree ------------------------------------------------------ */

/* Solves a PCST instance given as plain arrays (semantics of pcst_fast; see the README).
 * prizes: num_nodes values >= 0; edges: 2*num_edges endpoints in [0, num_nodes); costs:
 * num_edges values >= 0; root: -1 for unrooted; num_clusters: trees wanted (1 when rooted);
 * pruning: "none", "simple", "gw" or "strong" (any case; NULL = "gw"). out_nodes must hold
 * num_nodes values and out_edges num_edges (caller-owned); the selected nodes (ascending) and
 * edge indices (ascending) are written there, their counts to *out_num_nodes / *out_num_edges,
 * and the objective (prizes left out + costs taken in) to *out_objective (may be NULL). */
GRAPPI_API grappi_status grappi_pcst_solve(size_t num_nodes, const double *prizes, size_t num_edges,
                                           const int64_t *edges, const double *costs, int64_t root,
                                           int32_t num_clusters, const char *pruning, int64_t *out_nodes,
                                           size_t *out_num_nodes, int64_t *out_edges, size_t *out_num_edges,
                                           double *out_objective);

/* Flags of grappi_pcst_solve_flags. */
#define GRAPPI_PCST_IMPROVE 1u         /* local search after pruning (never worse; see the README) */
#define GRAPPI_PCST_REFERENCE_ORDER 2u /* events in pcst_fast's own order: its results exactly */

/* grappi_pcst_solve with flags (a bitwise or of GRAPPI_PCST_*; 0 = grappi_pcst_solve; other
 * bits: GRAPPI_EINVAL). */
GRAPPI_API grappi_status grappi_pcst_solve_flags(size_t num_nodes, const double *prizes, size_t num_edges,
                                                 const int64_t *edges, const double *costs, int64_t root,
                                                 int32_t num_clusters, const char *pruning, uint32_t flags,
                                                 int64_t *out_nodes, size_t *out_num_nodes, int64_t *out_edges,
                                                 size_t *out_num_edges, double *out_objective);

#ifdef __cplusplus
}
#endif

#endif /* GRAPPI_H */
