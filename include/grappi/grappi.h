/**
 * @file grappi.h
 * @brief The stable C API of grappi.
 *
 * Conventions:
 * - Every fallible function returns a ::grappi_status (#GRAPPI_OK = 0, negative codes on
 *   failure) and records a thread-local message readable with grappi_last_error_message().
 *   No C++ exception ever crosses this boundary.
 * - Handles are opaque; every `_free` function accepts NULL.
 * - Strings passed in must be NUL-terminated UTF-8 (#GRAPPI_EINVAL otherwise). Strings and
 *   buffers the library hands out are freed with grappi_free() unless a function says
 *   otherwise.
 * - Options structs start with `uint32_t version`. Fill one with its `_init` function or its
 *   `_INIT` macro; the library accepts every version from 1 up to the current one and reads only
 *   the fields that version has, so a program compiled against an older header keeps working.
 *   A NULL options pointer means the defaults.
 * - JSON results are documented in docs/ (a guide per job: docs/explore.md, docs/ask.md, ...); their keys
 *   are only ever added to.
 */
#ifndef GRAPPI_H
#define GRAPPI_H

#include <stddef.h>
#include <stdint.h>

#include "grappi/export.h"
#include "grappi/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Result of every fallible call: #GRAPPI_OK or a negative error code. */
typedef int32_t grappi_status;

/* Status codes: only ever appended. */
#define GRAPPI_OK 0            /**< success */
#define GRAPPI_EINVAL (-1)     /**< invalid argument (NULL pointer, out-of-range value, bad UTF-8) */
#define GRAPPI_ENOTFOUND (-2)  /**< name, id, file or dataset not found */
#define GRAPPI_EAMBIGUOUS (-3) /**< a name matches several nodes */
#define GRAPPI_EIO (-4)        /**< file could not be read or written */
#define GRAPPI_EPARSE (-5)     /**< malformed input data */
#define GRAPPI_EDB (-6)        /**< database error */
#define GRAPPI_ENETWORK (-7)   /**< HTTP failure */
#define GRAPPI_ELLM (-8)       /**< unusable language-model answer */
#define GRAPPI_EBUDGET (-9)    /**< call or token budget exhausted */
#define GRAPPI_EINTERNAL (-10) /**< bug in grappi */
#define GRAPPI_EBUFS (-11)     /**< output buffer too small; the needed size was reported */
#define GRAPPI_ENOMEM (-12)    /**< out of memory */

/**
 * @brief Message of the last failure on this thread.
 * @return A NUL-terminated string, "" when the last call succeeded; never NULL. Owned by the
 *         library and valid until the next grappi call on this thread.
 */
GRAPPI_API const char *grappi_last_error_message(void);
/** @brief Status of the last failure on this thread (#GRAPPI_OK when the last call succeeded). */
GRAPPI_API grappi_status grappi_last_error_code(void);
/**
 * @brief A static description of a status code.
 * @param status Any status value.
 * @return A string in static storage ("unknown status" for values that are not codes); never NULL.
 */
GRAPPI_API const char *grappi_status_str(grappi_status status);
/** @brief The library's version at run time, e.g. "0.1.0" (static storage). */
GRAPPI_API const char *grappi_version_string(void);
/**
 * @brief Frees memory the library allocated and handed to the caller.
 * @param p A string or buffer from the library, or NULL (a no-op).
 */
GRAPPI_API void grappi_free(void *p);

/* ---- the knowledge graph ------------------------------------------------------------------ */

/** An open knowledge-graph database (one SQLite file). */
typedef struct grappi_graph grappi_graph;

/** The current version of ::grappi_open_options (the library accepts 1 to this). */
#define GRAPPI_OPEN_OPTIONS_VERSION 1
/** Options of grappi_graph_open(). */
typedef struct grappi_open_options {
  uint32_t version;        /**< #GRAPPI_OPEN_OPTIONS_VERSION */
  int32_t read_only;       /**< non-zero: open read-only (default 0) */
  int32_t create;          /**< non-zero: create the file when missing (default 1) */
  int32_t busy_timeout_ms; /**< wait for another connection's write lock (default 30000) */
} grappi_open_options;
/** The defaults of ::grappi_open_options, as an initializer. */
#define GRAPPI_OPEN_OPTIONS_INIT {GRAPPI_OPEN_OPTIONS_VERSION, 0, 1, 30000}

/**
 * @brief Fills options with the defaults of an options version.
 * @param opts The options to fill; only the fields of `version` are written.
 * @param version 1 to #GRAPPI_OPEN_OPTIONS_VERSION.
 * @return #GRAPPI_OK, or #GRAPPI_EINVAL for NULL or an unknown version.
 */
GRAPPI_API grappi_status grappi_open_options_init(grappi_open_options *opts, uint32_t version);

/**
 * @brief Opens or creates a knowledge-graph database.
 * @param path The database file.
 * @param opts Options, or NULL for the defaults.
 * @param[out] out On success a handle the caller frees with grappi_graph_free(); NULL on failure.
 * @return #GRAPPI_OK, #GRAPPI_EIO (cannot open), #GRAPPI_EDB (not a grappi database) or #GRAPPI_EINVAL.
 */
GRAPPI_API grappi_status grappi_graph_open(const char *path, const grappi_open_options *opts, grappi_graph **out);
/** @brief Closes the database and frees the handle. @param g A handle or NULL (a no-op). */
GRAPPI_API void grappi_graph_free(grappi_graph *g);

/**
 * @brief Imports one file (a STRING file, an ontology, interactions, BEL, ...) in one transaction.
 * @param g The graph.
 * @param kind "info", "aliases", "links", "detailed", "physical", "actions", "export", "obo",
 *        "mitab", "jsonl" (grappi's own export), "bel" (a BEL script or BEL JSON graph), "jgf"
 *        (a BEL JSON graph), "cx2" (a CX2 or CX1 network), "mapping" (an identifier mapping table), "famplex" (a
 *        directory of FamPlex's tables: protein families and complexes, their members, the names papers write for
 *        them and for single proteins; a directory given to "detect" is read so), "edges" (an edge list:
 *        columns 1 and 2, no score; the C++ EdgeListOptions choose others), "corpus" (papers: PubTator, BioC, ...,
 *        detected; "corpus:pubtator" etc. forced; stored with their passages and searchable), or NULL/"detect"
 *        to detect the format from the header (mapping tables and edge lists are never
 *        detected).
 * @param path The file, plain or gzipped (a directory for "famplex").
 * @return #GRAPPI_OK; on a bad line nothing is imported and #GRAPPI_EPARSE names the file and line.
 * @see grappi_graph_import_with() for `grappi import`'s options (scores, bad lines, row limit,
 *      edge-list columns) and its report.
 */
GRAPPI_API grappi_status grappi_graph_import(grappi_graph *g, const char *kind, const char *path);

/** The current version of ::grappi_import_options (the library accepts 1 to this). */
#define GRAPPI_IMPORT_OPTIONS_VERSION 1
/** How grappi_graph_import_with() reads a file: `grappi import`'s options. */
typedef struct grappi_import_options {
  uint32_t version;            /**< #GRAPPI_IMPORT_OPTIONS_VERSION */
  int32_t min_score;           /**< keep links scoring at least this on STRING's 0-1000 scale (default 0) */
  int32_t skip_bad_lines;      /**< non-zero: import the good lines and count and quote the bad ones */
  uint32_t max_bad_examples;   /**< bad lines quoted in the report when skipping (default 5) */
  uint64_t max_rows;           /**< at most this many lines in a line-based file, or nodes plus edges
                                    in a CX2 network or BEL JSON graph; one more fails the import
                                    (a bound on a gzip bomb); 0: no limit (default) */
  int64_t taxon;               /**< mapping tables and edge lists join only nodes of this NCBI taxon; 0: any */
  /* Edge lists (kind "edges"): */
  const char *source_column;   /**< the first id's column: a 1-based number or a header name; NULL: "1" */
  const char *target_column;   /**< the second id's column; NULL: "2" */
  const char *score_column;    /**< the score's column; NULL: no score (every edge scores 1) */
  double score_scale;          /**< scores are divided by this and must then lie in [0,1] (default 1) */
  const char *relation_column; /**< each edge's relation, as written; NULL: every edge has `relation` */
  const char *relation;        /**< the relation of every edge; NULL: "edges." and the file's name */
  int32_t directed;            /**< non-zero: source -> target edges (default: undirected) */
  int32_t header;              /**< 1: the first line is a header; 0: it is not; -1: detect (default) */
  const char *label;           /**< the label of nodes made for ids that join nothing; NULL: "Protein" */
  int32_t separator;           /**< a tab, ',' or ' ' (any run of blanks); 0: detect (default) */
} grappi_import_options;
/** The defaults of ::grappi_import_options, as an initializer. */
#define GRAPPI_IMPORT_OPTIONS_INIT \
  {GRAPPI_IMPORT_OPTIONS_VERSION, 0, 0, 5, 0, 0, NULL, NULL, NULL, 1.0, NULL, NULL, 0, -1, NULL, 0}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_IMPORT_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_import_options_init(grappi_import_options *opts, uint32_t version);

/**
 * @brief Imports one file with options, in one transaction: grappi_graph_import() as
 *        `grappi import --min-score/--skip-bad-lines/--max-rows/--taxon` and the edge-list
 *        options read it.
 * @param g The graph.
 * @param kind As grappi_graph_import() takes it.
 * @param path The file, plain or gzipped.
 * @param opts The options; NULL: the defaults (grappi_graph_import()).
 * @param[out] out_report_json When not NULL, `grappi import --json`'s report: {"files": [{"path",
 *        "format", "dataset_id", "already_imported", "lines", "rows_below_min_score",
 *        "rows_skipped", "bad_line_examples", "nodes_created", "edges_created", "details", ...}],
 *        "seconds"}; free with grappi_free(). NULL on failure.
 * @return #GRAPPI_OK; #GRAPPI_EPARSE (a bad line without skip_bad_lines: nothing is imported,
 *         the message names the file and line); #GRAPPI_EINVAL for a file over max_rows (nothing
 *         is imported) and for bad options (min_score outside 0-1000, a score_scale that is not
 *         positive, a separator or header other than those above, a negative taxon, an unknown
 *         options version); #GRAPPI_ENOTFOUND (no such file); #GRAPPI_EIO.
 */
GRAPPI_API grappi_status grappi_graph_import_with(grappi_graph *g, const char *kind, const char *path,
                                                  const grappi_import_options *opts, char **out_report_json);

/**
 * @brief Writes the whole graph to a file, as `grappi export` does.
 * @param g The graph.
 * @param format "jsonl" (lossless; grappi_graph_import reads it back), "tsv", "graphml", "cx2"
 *        (Cytoscape/NDEx; grappi_graph_import reads it back) or "bel" (the BEL statements as a
 *        BEL script; out_edges counts the edges whose statements were written).
 * @param path The file; written beside it and renamed into place, so a failure leaves no
 *        partial file.
 * @param[out] out_nodes,out_edges Nodes and edges written; each may be NULL.
 * @return #GRAPPI_OK, #GRAPPI_EINVAL for an unknown format, #GRAPPI_EIO when the file cannot be
 *         written.
 */
GRAPPI_API grappi_status grappi_graph_export(grappi_graph *g, const char *format, const char *path, uint64_t *out_nodes,
                                             uint64_t *out_edges);

/** The current version of ::grappi_export_options (the library accepts 1 to this). */
#define GRAPPI_EXPORT_OPTIONS_VERSION 1
/** What grappi_graph_export_selection() writes: a part of the graph, as `grappi export` selects it. */
typedef struct grappi_export_options {
  uint32_t version;              /**< #GRAPPI_EXPORT_OPTIONS_VERSION */
  const char *const *relations;  /**< only edges of these relations (an unknown one is #GRAPPI_EINVAL); NULL: all */
  size_t relation_count;         /**< entries in relations */
  double min_score;              /**< only edges scoring at least this, in [0,1] (default 0) */
  const char *const *nodes;      /**< only these nodes (names, aliases or ids) and the edges among them; NULL: all */
  size_t node_count;             /**< entries in nodes */
  const char *khop;              /**< only the nodes within `hops` steps of this one; NULL: no such restriction */
  size_t hops;                   /**< steps from khop (default 1) */
} grappi_export_options;
/** The defaults of ::grappi_export_options, as an initializer. */
#define GRAPPI_EXPORT_OPTIONS_INIT {GRAPPI_EXPORT_OPTIONS_VERSION, NULL, 0, 0.0, NULL, 0, NULL, 1}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_EXPORT_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_export_options_init(grappi_export_options *opts, uint32_t version);

/**
 * @brief Writes a part of the graph to a file: grappi_graph_export() with a selection.
 * @param g The graph.
 * @param format As grappi_graph_export() takes it.
 * @param path The file (written beside it and renamed into place).
 * @param opts The selection; NULL: the whole graph. Node lists and k-hop intersect; an edge is
 *        written when both its ends are kept.
 * @param[out] out_nodes,out_edges Nodes and edges written; each may be NULL.
 * @param[out] out_not_written Edges of the selection the format cannot hold ("bel": edges that
 *        are not BEL statements); may be NULL.
 * @return #GRAPPI_OK, #GRAPPI_EINVAL (unknown format or relation, a score outside [0,1], an
 *         unknown options version), #GRAPPI_ENOTFOUND (a node that does not resolve),
 *         #GRAPPI_EIO.
 */
GRAPPI_API grappi_status grappi_graph_export_selection(grappi_graph *g, const char *format, const char *path,
                                                       const grappi_export_options *opts, uint64_t *out_nodes,
                                                       uint64_t *out_edges, uint64_t *out_not_written);

/**
 * @brief Resolves a name, alias or external id (case-insensitive) to a node id.
 * @param g The graph.
 * @param name The name.
 * @param[out] out_id The node id.
 * @return #GRAPPI_OK, #GRAPPI_ENOTFOUND (the message suggests close names) or #GRAPPI_EAMBIGUOUS
 *         (the message lists the candidates).
 */
GRAPPI_API grappi_status grappi_graph_resolve(grappi_graph *g, const char *name, int64_t *out_id);

/**
 * @brief Nodes whose name, alias or external id begins with a prefix (any case), for
 *        autocompletion: names first, then aliases, then external ids, shortest first.
 * @param g The graph.
 * @param prefix What was typed (UTF-8).
 * @param limit At most this many nodes (1 to 100; 0 means 10).
 * @param[out] out_json `{"completions": [{"id", "name", "external_id", "matched", "matched_by"}]}`;
 *        free with grappi_free().
 */
GRAPPI_API grappi_status grappi_graph_complete_json(grappi_graph *g, const char *prefix, size_t limit, char **out_json);

/**
 * @brief Neighbors of a node with score >= min_score, in adjacency order (two-call pattern).
 * @param g The graph.
 * @param id The node id.
 * @param min_score Minimum edge score, 0-1.
 * @param[out] out_ids Caller-owned array of `capacity` ids; may be NULL when capacity is 0.
 * @param[out] out_scores Caller-owned array of `capacity` scores, or NULL to skip scores.
 * @param capacity Length of the arrays.
 * @param[out] out_count Always set to the full number of neighbors.
 * @return #GRAPPI_OK, or #GRAPPI_EBUFS (nothing written) when capacity is smaller than the count:
 *         call again with a capacity of *out_count.
 */
GRAPPI_API grappi_status grappi_graph_neighbors(grappi_graph *g, int64_t id, double min_score, int64_t *out_ids,
                                                double *out_scores, size_t capacity, size_t *out_count);

/**
 * @brief A protein's neighbors strongest first, named, as `grappi neighbors --json` lists them.
 * @param g The graph.
 * @param protein A name, alias or external id; NULL: the node `id`.
 * @param id The node id when protein is NULL.
 * @param min_score Minimum edge score, 0-1.
 * @param relations Relations kept (relation_count of them); none: every relation.
 * @param relation_count Entries of relations.
 * @param limit At most this many neighbors (0: all).
 * @param[out] out_json {"protein": {id, name, external_id}, "degree", "neighbors": [{id, name,
 *        external_id, edge, score, relation, direction}]} (docs/schemas/neighbors.schema.json);
 *        free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_ENOTFOUND for a name or id that names no node.
 */
GRAPPI_API grappi_status grappi_graph_neighbors_json(grappi_graph *g, const char *protein, int64_t id, double min_score,
                                                     const char *const *relations, size_t relation_count, size_t limit,
                                                     char **out_json);

/**
 * @brief Node and edge counts of the graph's current snapshot.
 * @param g The graph.
 * @param[out] out_nodes Number of nodes.
 * @param[out] out_edges Number of distinct edges.
 */
GRAPPI_API grappi_status grappi_graph_counts(grappi_graph *g, int64_t *out_nodes, int64_t *out_edges);

/**
 * @brief Preferred name of a node.
 * @param g The graph.
 * @param id The node id.
 * @param[out] out_name A NUL-terminated string the caller frees with grappi_free().
 * @return #GRAPPI_OK or #GRAPPI_ENOTFOUND.
 */
GRAPPI_API grappi_status grappi_graph_node_name(grappi_graph *g, int64_t id, char **out_name);

/* ---- embeddings and search ------------------------------------------------------------------ */

/**
 * An embedding callback: write `count` vectors of `dim` floats, row after row, into `out`
 * (owned by the library, valid during the call) and return 0; any other value is an error the
 * library reports as #GRAPPI_EINVAL. `texts` are NUL-terminated UTF-8, valid during the call.
 */
typedef int32_t (*grappi_embed_fn)(void *user_data, const char *const *texts, size_t count, float *out, size_t dim);

/** The current version of ::grappi_embed_options (the library accepts 1 to this). */
#define GRAPPI_EMBED_OPTIONS_VERSION 1
/** Options of grappi_graph_embed(). */
typedef struct grappi_embed_options {
  uint32_t version;         /**< #GRAPPI_EMBED_OPTIONS_VERSION */
  const char *embedder;     /**< "lsa" (default; NULL too), "hashing", "openai" or "callback" */
  size_t dimension;         /**< 0: the embedder's default (hashing 384, lsa 256 concepts + 384 lexical, openai the model's); callback: required */
  const char *base_url;     /**< openai: e.g. "http://127.0.0.1:8080/v1" (the default) */
  const char *model;        /**< openai: model name; callback: a name for the vectors (required) */
  const char *api_key_env;  /**< openai: environment variable with the key (default "OPENAI_API_KEY") */
  grappi_embed_fn callback; /**< callback */
  void *user_data;          /**< passed to callback */
} grappi_embed_options;
/** The defaults of ::grappi_embed_options, as an initializer. */
#define GRAPPI_EMBED_OPTIONS_INIT \
  {GRAPPI_EMBED_OPTIONS_VERSION, "lsa", 0, "http://127.0.0.1:8080/v1", NULL, "OPENAI_API_KEY", NULL, NULL}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_EMBED_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_embed_options_init(grappi_embed_options *opts, uint32_t version);

/**
 * @brief Embeds every node whose text is new or changed, then ranks every node's neighbors by
 *        similarity into "<database>.knn" (skipped when that file cannot be written), which
 *        windows use instead of ranking on the fly. The same as `grappi embed`.
 * @param g The graph.
 * @param opts Options, or NULL for the built-in hashing embedder.
 * @param[out] out_embedded The number of texts embedded now; may be NULL.
 */
GRAPPI_API grappi_status grappi_graph_embed(grappi_graph *g, const grappi_embed_options *opts, size_t *out_embedded);

/**
 * @brief The first step of an embedding in parts (docs/distributed.md "Embeddings"): the
 *        embedder of `opts` made as grappi_graph_embed() makes it (the stored model of that kind
 *        and dimension, else one fitted on every node's text) and written to a file that
 *        grappi_graph_embed_part_json() and grappi_graph_embed_merge_json() read.
 * @param g The graph.
 * @param opts Options (hashing, lsa or openai; a callback cannot be shared), or NULL for lsa.
 * @param embedder_path The embedder's file, written whole or not at all.
 * @param[out] out_json {"model", "kind", "dimension", "pending" (texts the model lacks),
 *        "path"}; free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_EINVAL for bad options or a callback; #GRAPPI_EIO when the file
 *         cannot be written.
 */
GRAPPI_API grappi_status grappi_graph_embed_plan_json(grappi_graph *g, const grappi_embed_options *opts,
                                                      const char *embedder_path, char **out_json);

/**
 * @brief A worker's part of an embedding: the texts the model lacks (in node order) split into
 *        `parts` runs; run `part` embedded with the embedder file's embedder and written to
 *        out_path with the texts' hashes. The graph is only read (it may be opened read-only).
 * @param g The graph.
 * @param embedder_path The file grappi_graph_embed_plan_json() wrote.
 * @param part This part, 0 to parts - 1.
 * @param parts How many parts.
 * @param out_path The vectors file, written whole or not at all.
 * @param provenance A JSON object's text recorded in the file; NULL: none.
 * @param[out] out_json {"path", "model", "part", "parts", "pending", "embedded", "dimension",
 *        "seconds"}; free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_EPARSE for a damaged embedder file; #GRAPPI_EINVAL for part >=
 *         parts or bad provenance; #GRAPPI_EIO when a file cannot be read or written; the
 *         embedder's own failures (#GRAPPI_ENETWORK for an HTTP embedder).
 */
GRAPPI_API grappi_status grappi_graph_embed_part_json(grappi_graph *g, const char *embedder_path, size_t part,
                                                      size_t parts, const char *out_path, const char *provenance,
                                                      char **out_json);

/**
 * @brief The last step: the parts' vectors stored as grappi_graph_embed() stores its own (the
 *        same model, vectors and neighbor ranking); a pending text no part holds is embedded
 *        here.
 * @param g The graph, opened for writing.
 * @param embedder_path The file grappi_graph_embed_plan_json() wrote.
 * @param parts The vectors files of grappi_graph_embed_part_json().
 * @param part_count Entries in parts.
 * @param[out] out_json {"model", "dimension", "embedded", "unchanged", "removed",
 *        "from_parts", "embedded_here", "neighbor_ranking_entries", "warning", "seconds",
 *        "provenance": [...]}; free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_EPARSE for a damaged file, #GRAPPI_EINVAL for vectors of another
 *         model or dimension (nothing stored in either case); #GRAPPI_EIO.
 */
GRAPPI_API grappi_status grappi_graph_embed_merge_json(grappi_graph *g, const char *embedder_path,
                                                       const char *const *parts, size_t part_count, char **out_json);

/**
 * @brief The k nodes most similar to a text, embedded with the latest stored model (hashing or
 *        openai). Two-call pattern as grappi_graph_neighbors(); best first, ties by id.
 * @param g The graph.
 * @param text The query text.
 * @param k Results wanted.
 * @param[out] out_ids Caller-owned array of `capacity` ids (NULL when capacity is 0).
 * @param[out] out_scores Caller-owned array of `capacity` cosine similarities, or NULL.
 * @param capacity Length of the arrays.
 * @param[out] out_count The number of results.
 */
GRAPPI_API grappi_status grappi_graph_search(grappi_graph *g, const char *text, size_t k, int64_t *out_ids,
                                             float *out_scores, size_t capacity, size_t *out_count);
/**
 * @brief grappi_graph_search() for a query vector of the latest model's dimension (for example
 *        from your own callback).
 */
GRAPPI_API grappi_status grappi_graph_search_vector(grappi_graph *g, const float *query, size_t dim, size_t k,
                                                    int64_t *out_ids, float *out_scores, size_t capacity,
                                                    size_t *out_count);

/* ---- retrieval (results as JSON text; free with grappi_free) -------------------------------- */

/** The current version of ::grappi_window_options (the library accepts 1 to this). */
#define GRAPPI_WINDOW_OPTIONS_VERSION 1
/** Options of grappi_graph_window_json(). */
typedef struct grappi_window_options {
  uint32_t version;       /**< #GRAPPI_WINDOW_OPTIONS_VERSION */
  const size_t *k;        /**< k per depth; NULL for {30, 4} */
  size_t k_count;         /**< entries in k */
  size_t depth;           /**< M, default 2 */
  size_t window;          /**< 1-based, default 1 */
  double min_score;       /**< 0-1, default 0 */
  size_t max_path_length; /**< > 0: add "paths" (all simple paths from the root, at most 12 edges); default 0 */
  size_t max_paths;       /**< bound on paths, 1 to 1000000, default 100000 */
} grappi_window_options;
/** The defaults of ::grappi_window_options, as an initializer. */
#define GRAPPI_WINDOW_OPTIONS_INIT {GRAPPI_WINDOW_OPTIONS_VERSION, NULL, 0, 2, 1, 0.0, 0, 100000}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_WINDOW_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_window_options_init(grappi_window_options *opts, uint32_t version);

/**
 * @brief A GraPPI moving kNN window around a node, ranked with the latest embeddings when there
 *        are any, else by edge score.
 * @param g The graph.
 * @param root The root node id (grappi_graph_resolve() turns a name into one).
 * @param opts Options, or NULL for the defaults.
 * @param[out] out_json The window JSON (docs/retrieval.md), library-allocated: free with grappi_free().
 */
GRAPPI_API grappi_status grappi_graph_window_json(grappi_graph *g, int64_t root, const grappi_window_options *opts,
                                                  char **out_json);
/**
 * @brief Up to k shortest simple paths (Yen) with at most max_length edges.
 * @param g The graph.
 * @param from,to The end nodes' ids.
 * @param max_length At most this many edges.
 * @param k Paths wanted.
 * @param weighted Non-zero: rank by the sum of -log(score) instead of hop count.
 * @param[out] out_json JSON list of {"proteins", "length", ...}; free with grappi_free().
 */
GRAPPI_API grappi_status grappi_graph_paths_json(grappi_graph *g, int64_t from, int64_t to, size_t max_length, size_t k,
                                                 int32_t weighted, char **out_json);
/**
 * @brief Every shortest path by hops (all of one length, at most max_length edges), at most k of
 *        them in the graph's node order: HGCR's candidates (`grappi paths --all-shortest`).
 * @param g The graph.
 * @param from,to The end nodes' ids.
 * @param max_length At most this many edges.
 * @param k Paths at most (1 to 10000).
 * @param skip_direct Non-zero: no edge joining the two ends is followed (indirect paths only).
 * @param[out] out_json JSON list as grappi_graph_paths_json() writes it; free with grappi_free().
 */
GRAPPI_API grappi_status grappi_graph_all_shortest_paths_json(grappi_graph *g, int64_t from, int64_t to,
                                                              size_t max_length, size_t k, int32_t skip_direct,
                                                              char **out_json);
/**
 * @brief Seeds by similarity to a question, then k-hop expansion.
 * @param g The graph.
 * @param question The question, embedded with the latest stored model.
 * @param seeds Seed nodes wanted.
 * @param hops Hops to expand.
 * @param degree_cap Expand each node through its top-d edges by score (0: all).
 * @param[out] out_json JSON {"seeds", "nodes", "edges"}; free with grappi_free().
 */
GRAPPI_API grappi_status grappi_graph_khop_json(grappi_graph *g, const char *question, size_t seeds, size_t hops,
                                                size_t degree_cap, char **out_json);
/**
 * @brief Every edge between two nodes with its evidence, as `grappi edges --json` prints it.
 * @param g The graph.
 * @param a,b Node ids (the same id twice for self-interactions).
 * @param[out] out_json JSON list of edges {id, source, target, relation, directed, score,
 *        channels, pmids, evidence, dataset_id, records: [{dataset_id, line, record, raw}]}
 *        (docs/data.md "Molecular interactions"); free with grappi_free().
 */
GRAPPI_API grappi_status grappi_graph_edges_json(grappi_graph *g, int64_t a, int64_t b, char **out_json);
/**
 * @brief Answers a question about the ontologies in the graph, as `grappi ontology --json` does.
 * @param g The graph.
 * @param question "term", "ancestors", "descendants", "parents", "children", "lca", "subtree"
 *        or "roots".
 * @param term A term by id, name or synonym ("MI:0407", "direct interaction"); the root for
 *        "subtree"; may be NULL for "roots".
 * @param other The other term for "lca"; for "term", a root to report the depth under; else NULL.
 * @param relations Child-to-parent relations followed ("obo.is_a", "obo.part_of"); NULL (or a
 *        count of 0) for "obo.is_a".
 * @param relation_count Entries of relations.
 * @param[out] out_json The answer (docs/data.md "Ontologies"); free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_EINVAL for an unknown question or relation; #GRAPPI_ENOTFOUND or
 *         #GRAPPI_EAMBIGUOUS for a term that does not name one node.
 */
GRAPPI_API grappi_status grappi_graph_ontology_json(grappi_graph *g, const char *question, const char *term,
                                                    const char *other, const char *const *relations, size_t relation_count,
                                                    char **out_json);
/** grappi_bel_validate flag: the canonical form spells functions out (proteinAbundance(...)). */
#define GRAPPI_BEL_LONG_FORM 1u
/** grappi_bel_validate flag: unknown namespaces are warnings instead of errors. */
#define GRAPPI_BEL_ALLOW_UNKNOWN_NAMESPACES 2u

/**
 * @brief Checks BEL 2.1: a BEL script or statements one per line, as `grappi bel validate`
 *        does. Needs no graph.
 * @param text The BEL text (UTF-8, NUL-terminated).
 * @param flags 0 or GRAPPI_BEL_* flags combined with `|`.
 * @param[out] out_json The document's JSON (docs/bel.md "BEL": properties, problems with line,
 *        column, severity, code and message, and per statement its canonical form, citation,
 *        evidence and annotations); free with grappi_free().
 * @param[out] out_errors How many errors the text has; may be NULL.
 * @return #GRAPPI_OK whether or not the BEL is valid (its problems are in the JSON);
 *         #GRAPPI_EINVAL for a NULL argument or an unknown flag.
 */
GRAPPI_API grappi_status grappi_bel_validate(const char *text, uint32_t flags, char **out_json, size_t *out_errors);
/**
 * @brief Checks BEL as grappi_bel_validate does, with the identifiers a graph holds: HGNC
 *        symbols and ids and imported ontology terms are written as `NS:id ! label` in the
 *        canonical form (`p(HGNC:AKT1)` and `p(HGNC:391)` both become `p(HGNC:391 ! AKT1)`),
 *        as `grappi bel validate --db` and BEL imports do.
 * @param g The graph.
 * @param text The BEL text (UTF-8, NUL-terminated).
 * @param flags 0 or GRAPPI_BEL_* flags combined with `|`.
 * @param[out] out_json As for grappi_bel_validate; free with grappi_free().
 * @param[out] out_errors How many errors the text has; may be NULL.
 * @return #GRAPPI_OK whether or not the BEL is valid; #GRAPPI_EINVAL for a NULL argument or
 *         an unknown flag; a database error code when the identifiers cannot be read.
 */
GRAPPI_API grappi_status grappi_graph_bel_validate(grappi_graph *g, const char *text, uint32_t flags, char **out_json,
                                                   size_t *out_errors);
/**
 * @brief PageRank (personalised when seed_count > 0), weighted by score.
 * @param g The graph.
 * @param seeds Node ids to restart to; may be NULL when seed_count is 0 (global PageRank).
 * @param seed_count Entries in seeds.
 * @param damping In [0, 1); 0.85 is usual.
 * @param[out] out_ids,out_scores Caller-owned arrays of `capacity` entries: the top
 *        min(capacity, node count) nodes, best first (out_scores may be NULL).
 * @param capacity Length of the arrays.
 * @param[out] out_count The number written.
 */
GRAPPI_API grappi_status grappi_graph_pagerank(grappi_graph *g, const int64_t *seeds, size_t seed_count, double damping,
                                               int64_t *out_ids, double *out_scores, size_t capacity,
                                               size_t *out_count);

/* Event orders of the PCST solver (::grappi_pcst_options, ::grappi_retrieve_options). */
#define GRAPPI_PCST_ORDER_DEFAULT 0   /**< the library's default order: pcst_fast's (reference) */
#define GRAPPI_PCST_ORDER_FAST 1      /**< grappi's radix-queue order: fastest; differs from pcst_fast only on ties */
#define GRAPPI_PCST_ORDER_REFERENCE 2 /**< pcst_fast's own event order: its results exactly, ties included */

/** The current version of ::grappi_retrieve_options (the library accepts 1 to this). */
#define GRAPPI_RETRIEVE_OPTIONS_VERSION 1
/** Options of grappi_graph_retrieve_json() and grappi_graph_retrieve_csv(). */
typedef struct grappi_retrieve_options {
  uint32_t version;     /**< #GRAPPI_RETRIEVE_OPTIONS_VERSION */
  const char *mode;     /**< "gretriever" (default) or "prize" (p(v) = alpha cos + beta [seed], p(e) = gamma w(e)) */
  size_t seeds;         /**< seed nodes by similarity, default 10 */
  size_t hops;          /**< base subgraph hops, default 2 */
  size_t degree_cap;    /**< default 20 (0: none) */
  size_t node_budget;   /**< default 2000 (0: none) */
  double min_score;     /**< edge filter, 0-1 */
  size_t topk;          /**< gretriever: default 3 */
  size_t topk_e;        /**< gretriever: default 5 */
  double cost_e;        /**< gretriever: default 0.5 */
  int32_t pyg_cap;      /**< gretriever: non-zero for the PyG cap (previous - 0.01) */
  double alpha;         /**< prize: weight of a node's question similarity, default 1 */
  double beta;          /**< prize: bonus of a seed node, default 1 */
  double gamma;         /**< prize: weight of an edge's score as its prize, default 0.5 */
  double lambda;        /**< prize: cost of an edge, default 1 */
  const char *pruning;  /**< "none", "simple", "gw" (default), "strong" */
  int32_t num_clusters; /**< default 1 */
  int32_t event_order;  /**< GRAPPI_PCST_ORDER_*, default #GRAPPI_PCST_ORDER_DEFAULT */
  const char *const *relations; /**< only edges of these relations, relation_count of them (a list as
                                     ::grappi_export_options gives one); NULL: every relation (ask's
                                     subgraph too) */
  size_t relation_count;        /**< entries of relations */
} grappi_retrieve_options;
/** The defaults of ::grappi_retrieve_options, as an initializer. */
#define GRAPPI_RETRIEVE_OPTIONS_INIT                                                                                   \
  {GRAPPI_RETRIEVE_OPTIONS_VERSION, "gretriever", 10, 2, 20, 2000, 0.0, 3, 5, 0.5, 0, 1.0, 1.0, 0.5, 1.0, "gw", 1, \
   GRAPPI_PCST_ORDER_DEFAULT, NULL, 0}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_RETRIEVE_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_retrieve_options_init(grappi_retrieve_options *opts, uint32_t version);

/**
 * @brief A connected, compact subgraph for a question by PCST (the question embedded with the
 *        latest stored model).
 * @param g The graph.
 * @param question The question text.
 * @param opts Options, or NULL for the defaults.
 * @param[out] out_json JSON {"nodes": [{id, name, hops, prize}], "edges": [{source, target,
 *        score, relation, prize}], "seeds", "edge_cost", "objective", "net_worth", "base_nodes",
 *        "base_edges", "virtual_nodes"}; free with grappi_free().
 */
GRAPPI_API grappi_status grappi_graph_retrieve_json(grappi_graph *g, const char *question,
                                                    const grappi_retrieve_options *opts, char **out_json);
/**
 * @brief The same subgraph as grappi_graph_retrieve_json(), as G-Retriever's CSV text
 *        ("node_id,node_attr" rows, a blank line, "src,edge_attr,dst" rows).
 * @param g The graph.
 * @param question The question text.
 * @param opts Options, or NULL for the defaults.
 * @param[out] out_csv The text; free with grappi_free().
 */
GRAPPI_API grappi_status grappi_graph_retrieve_csv(grappi_graph *g, const char *question,
                                                   const grappi_retrieve_options *opts, char **out_csv);

/* ---- function: enrichment of a protein set ----------------------------------------------- */

/** The current version of ::grappi_enrich_options (the library accepts 1 to this). */
#define GRAPPI_ENRICH_OPTIONS_VERSION 1
/** Options of grappi_graph_enrich_json() (docs/function.md). */
typedef struct grappi_enrich_options {
  uint32_t version;                        /**< #GRAPPI_ENRICH_OPTIONS_VERSION */
  const char *const *categories;           /**< "Process", "Function", "Component" or an imported STRING category ("KEGG", ...; category_count of them); none: every category annotated */
  size_t category_count;                   /**< entries of categories */
  const char *const *exclude_evidence;     /**< evidence codes that do not count ("IEA"), exclude_evidence_count of them */
  size_t exclude_evidence_count;           /**< entries of exclude_evidence */
  const char *background;                  /**< "annotated" (default; NULL too), "network", or "given" (background_proteins) */
  const char *const *background_proteins;  /**< the given background by name, background_protein_count of them */
  size_t background_protein_count;         /**< entries of background_proteins */
  size_t min_term_size;                    /**< terms tested: at least this many annotated proteins in the universe, default 1 */
  size_t max_term_size;                    /**< ... and at most this many (0: no bound), default 0 */
  double max_fdr;                          /**< terms reported: FDR at most this, 0-1, default 1 (every term tested) */
} grappi_enrich_options;
/** The defaults of ::grappi_enrich_options, as an initializer. */
#define GRAPPI_ENRICH_OPTIONS_INIT {GRAPPI_ENRICH_OPTIONS_VERSION, NULL, 0, NULL, 0, "annotated", NULL, 0, 1, 0, 1.0}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_ENRICH_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_enrich_options_init(grappi_enrich_options *opts, uint32_t version);

/**
 * @brief The functional enrichment of a protein set in the database's GO annotations, as
 *        `grappi enrich --json` computes it: per term the one-sided hypergeometric p-value, the
 *        Benjamini-Hochberg FDR per category and STRING's strength (docs/function.md).
 * @param g The graph (GO and the gene table's annotations imported).
 * @param proteins The set by name, alias or id (protein_count of them); names that name no
 *        protein, or several, are left out and listed in "unmatched".
 * @param protein_count Entries of proteins.
 * @param opts Options, or NULL for the defaults.
 * @param[out] out_json The result (docs/schemas/enrich.schema.json); free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_ENOTFOUND when no name names a protein or the database holds no
 *         annotation of a category asked for; #GRAPPI_EINVAL for bad arguments or options.
 */
GRAPPI_API grappi_status grappi_graph_enrich_json(grappi_graph *g, const char *const *proteins, size_t protein_count,
                                                  const grappi_enrich_options *opts, char **out_json);

/**
 * @brief Whether a protein set interacts more among itself than proteins of the same degrees
 *        would (STRING's PPI enrichment), as `grappi ppi-enrichment --json` computes it.
 * @param g The graph.
 * @param proteins The set by name, alias or id (protein_count of them); names that name no
 *        protein are left out and listed in "unmatched".
 * @param protein_count Entries of proteins.
 * @param min_score The network: edges of at least this score, 0-1 (STRING's medium: 0.4).
 * @param relations The network's relations (relation_count of them); none: every relation that
 *        is no annotation (go.*) or ontology link (obo.*).
 * @param relation_count Entries of relations.
 * @param[out] out_json {"nodes", "edges", "expected_edges", "p_value", "average_degree",
 *        "clustering", "network_proteins", "network_edges", "min_score", "proteins", "unmatched"}
 *        (docs/function.md); free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_ENOTFOUND when no name names a protein; #GRAPPI_EINVAL for bad
 *         arguments.
 */
GRAPPI_API grappi_status grappi_graph_ppi_enrichment_json(grappi_graph *g, const char *const *proteins,
                                                          size_t protein_count, double min_score,
                                                          const char *const *relations, size_t relation_count,
                                                          char **out_json);

/* ---- function: clusters of the network or of a protein set ------------------------------- */

/** The current version of ::grappi_cluster_options (the library accepts 1 to this). */
#define GRAPPI_CLUSTER_OPTIONS_VERSION 1
/** Options of grappi_graph_cluster_json() (docs/function.md). */
typedef struct grappi_cluster_options {
  uint32_t version;                 /**< #GRAPPI_CLUSTER_OPTIONS_VERSION */
  const char *method;               /**< "mcl" (default; NULL too), "leiden" (modularity) or "cpm" (Leiden, constant Potts model) */
  double min_score;                 /**< the network: edges of at least this score, 0-1, default 0.4 */
  const char *const *relations;     /**< the network's relations (relation_count of them); none: every relation that is no annotation or ontology link */
  size_t relation_count;            /**< entries of relations */
  double inflation;                 /**< MCL: the inflation, above 1, default 2.0 */
  size_t max_iterations;            /**< MCL: at most this many iterations, default 1000 */
  double resolution;                /**< Leiden: the resolution, default 1.0 */
  uint64_t seed;                    /**< Leiden: the seed of the first run, default 42 */
  size_t runs;                      /**< Leiden: runs from seeds seed, seed+1, ...; the best quality kept; default 1 */
  size_t max_cluster_size;          /**< hierarchical: cluster again each cluster above this size (0: flat, the default) */
  size_t max_levels;                /**< hierarchical: at most this many levels below the top, default 4 */
  size_t terms;                     /**< enriched terms per cluster (0: none computed), default 3 */
  size_t enrich_min_size;           /**< enriched terms for clusters of at least this many members, default 3 */
  double max_fdr;                   /**< enriched terms: FDR at most this, default 0.05 */
} grappi_cluster_options;
/** The defaults of ::grappi_cluster_options, as an initializer. */
#define GRAPPI_CLUSTER_OPTIONS_INIT {GRAPPI_CLUSTER_OPTIONS_VERSION, "mcl", 0.4, NULL, 0, 2.0, 1000, 1.0, 42, 1, 0, 4, 3, 3, 0.05}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_CLUSTER_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_cluster_options_init(grappi_cluster_options *opts, uint32_t version);

/**
 * @brief The clusters of the network, or of the subnetwork a protein set induces, as
 *        `grappi cluster --json` computes them: MCL or Leiden (modularity, CPM; hierarchical with
 *        max_cluster_size), each cluster's members by external id, edges and enriched terms.
 * @param g The graph.
 * @param proteins The set by name, alias or id (protein_count of them; none, with protein_count
 *        0: the whole network); names that name no protein are left out and listed in "unmatched".
 * @param protein_count Entries of proteins.
 * @param opts Options, or NULL for the defaults.
 * @param[out] out_json The result (docs/schemas/cluster.schema.json); free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_ENOTFOUND when names are given and none names a protein;
 *         #GRAPPI_EINVAL for bad arguments or options, or a network without an edge.
 */
GRAPPI_API grappi_status grappi_graph_cluster_json(grappi_graph *g, const char *const *proteins, size_t protein_count,
                                                   const grappi_cluster_options *opts, char **out_json);

/* ---- explore: ranked, explained PPI paths (the AgentPipeline) ----------------------------- */

/** The answer slot of one chat request; valid only during the callback. */
typedef struct grappi_chat_reply grappi_chat_reply;

/**
 * A chat model callback. request_json (UTF-8, valid during the call) is {"messages": [{"role",
 * "content"}, ...], "json": bool, "max_tokens": n, "task": {...}} where "task" holds the facts
 * behind the prompt (docs/explore.md "explore"); its "kind" says which agent asks what: "edge" and
 * "path" (explore), "ground.summary", "ground.score", "ground.pick", "extract.statements",
 * "extract.repair", "hypothesis.explain", "ask.intent", "ask.answer", "community". Answer with
 * grappi_chat_reply_set() and return 0; any other return value makes this one request fail (with
 * the message given to grappi_chat_reply_set_error(), if any). The callback is called from up to
 * the model's `concurrency` threads at once: make it thread-safe or set that to 1.
 */
typedef int32_t (*grappi_chat_fn)(void *user_data, const char *request_json, grappi_chat_reply *reply);

/**
 * @brief Copies the answer text and its token counts into the reply.
 * @param reply The reply the callback was given.
 * @param content The answer, UTF-8.
 * @param prompt_tokens,completion_tokens Token counts (>= 0) as the model reported them.
 */
GRAPPI_API grappi_status grappi_chat_reply_set(grappi_chat_reply *reply, const char *content, int64_t prompt_tokens,
                                               int64_t completion_tokens);
/** @brief Copies a failure reason into the reply (used when the callback returns non-zero). */
GRAPPI_API grappi_status grappi_chat_reply_set_error(grappi_chat_reply *reply, const char *message);

/* ---- models and run control: one model handle, cancel and progress for every agent -------- */

/** A language model, created once with every setting (grappi_model_new()) and shared by any
 *  number of runs and threads; free with grappi_model_free() after the last run using it. */
typedef struct grappi_model grappi_model;

/** The current version of ::grappi_model_options (the library accepts 1 to this). */
#define GRAPPI_MODEL_OPTIONS_VERSION 1
/** Settings of grappi_model_new() (docs/embedding.md "C API": models and run control). */
typedef struct grappi_model_options {
  uint32_t version;               /**< #GRAPPI_MODEL_OPTIONS_VERSION */
  const char *llm;                /**< "extractive" (default; offline, not a language model), "openai" or "callback" */
  const char *base_url;           /**< openai: default "http://127.0.0.1:8080/v1" */
  const char *model;              /**< openai: model name (required); callback: its name, part of the cache key */
  const char *api_key_env;        /**< openai: environment variable with the key (default "OPENAI_API_KEY") */
  double temperature;             /**< openai: sampling temperature, default 0 */
  int32_t max_answer_tokens;      /**< openai: answer limit when a request sets none, default 512 */
  int32_t json_mode;              /**< openai: default 1: ask for JSON objects when a request wants JSON */
  double connect_timeout_seconds; /**< openai: default 10 */
  double timeout_seconds;         /**< openai: per request, answer included, default 120 */
  int32_t max_retries;            /**< openai: on timeouts, 408, 409, 429, 5xx (a refused connection: once, at once); default 3 */
  size_t concurrency;             /**< requests in flight at once across all runs, default 8 */
  grappi_chat_fn chat;            /**< callback */
  void *user_data;                /**< passed to chat */
} grappi_model_options;
/** The defaults of ::grappi_model_options, as an initializer. */
#define GRAPPI_MODEL_OPTIONS_INIT                                                                                      \
  {GRAPPI_MODEL_OPTIONS_VERSION, "extractive", "http://127.0.0.1:8080/v1", NULL, "OPENAI_API_KEY", 0.0, 512, 1, 10.0, \
   120.0, 3, 8, NULL, NULL}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_MODEL_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_model_options_init(grappi_model_options *opts, uint32_t version);
/**
 * @brief Creates a model (no request is made until a run uses it).
 * @param opts Settings, or NULL for the defaults (the offline model).
 * @param[out] out The model; free with grappi_model_free().
 * @return #GRAPPI_EINVAL for an unknown llm, an openai model without a name, a callback without chat.
 */
GRAPPI_API grappi_status grappi_model_new(const grappi_model_options *opts, grappi_model **out);
/** @brief Frees a model (NULL is allowed); no run may be using it. */
GRAPPI_API void grappi_model_free(grappi_model *model);
/**
 * @brief The model's description as the runs' provenance records it: {"kind", "model",
 *        "base_url", "temperature", ...} (never the API key).
 * @param model The model.
 * @param[out] out_json The JSON; free with grappi_free().
 */
GRAPPI_API grappi_status grappi_model_describe_json(const grappi_model *model, char **out_json);

/* ---- communities: the network's communities written up and stored ------------------------ */

/**
 * @brief Clusters the network, writes a report per community (members, hubs, enriched terms,
 *        strongest edges, a summary) and stores the set in the database under `name`, as
 *        `grappi communities build` does (docs/function.md "Community reports").
 * @param g The graph (opened writable).
 * @param name The set's name; NULL: "default" (the set ask reads).
 * @param opts The clustering, or NULL for the communities' defaults (Leiden modularity at score
 *        >= 0.7, 5 runs, 3 terms); reports for communities of at least 3 members, at most 50.
 * @param model The summaries' model (grappi_model_new()), or NULL: the extractive summary (not a
 *        language model). A model's summary is kept only when every citation it gives is a term
 *        or a member of the report; otherwise the extractive one stands and the reason is kept.
 * @param[out] out_json The set (docs/schemas/communities.schema.json); free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_EINVAL for bad options or a network without an edge; an error of
 *         the database when it is read-only.
 */
GRAPPI_API grappi_status grappi_graph_build_communities_json(grappi_graph *g, const char *name,
                                                             const grappi_cluster_options *opts,
                                                             const grappi_model *model, char **out_json);

/**
 * @brief The community reports stored under `name`, marked "stale" when the graph changed since
 *        they were built.
 * @param g The graph.
 * @param name The set's name; NULL: "default".
 * @param[out] out_json The set (docs/schemas/communities.schema.json); free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_ENOTFOUND when no set of that name is stored.
 */
GRAPPI_API grappi_status grappi_graph_communities_json(grappi_graph *g, const char *name, char **out_json);

/** Asked before each model request and between the stages of a run (explore: between its
 *  retrieval stages, every few windows, every 65,536 paths of its candidate search; hypothesize:
 *  before each spur search of its path enumeration): non-zero stops the run. Requests not yet
 *  sent are then "skipped" with the reason "cancelled by the caller" and the result is partial;
 *  a request in flight finishes first. Called from the run's threads. */
typedef int32_t (*grappi_cancel_fn)(void *user_data);
/** How far a run has come: its stage ("candidates" (paths visited of the bound, during a long
 *  search), "retrieve", "edges", "paths" for explore; "ground" for
 *  ground, "paragraphs" for extract; "paths", "rounds" for hypothesize; "retrieve", "context",
 *  "answer" for ask) and the items of it done out of total. Called from the run's threads, one
 *  call at a time. */
typedef void (*grappi_progress_fn)(void *user_data, const char *stage, size_t done, size_t total);

/** The current version of ::grappi_run_options (the library accepts 1 to this). */
#define GRAPPI_RUN_OPTIONS_VERSION 1
/** How one agent run is controlled: the model it asks and the caller's cancel and progress
 *  callbacks. Given through the `run` field of the explore, ground, extract, hypothesis, ask and
 *  reader options (what a run may spend is their `budget`). */
typedef struct grappi_run_options {
  uint32_t version;            /**< #GRAPPI_RUN_OPTIONS_VERSION */
  const grappi_model *model;   /**< the model (grappi_model_new()); NULL: the offline default, not a language model */
  grappi_cancel_fn cancel;     /**< NULL: never cancelled */
  grappi_progress_fn progress; /**< NULL: no progress */
  void *user_data;             /**< passed to cancel and progress */
} grappi_run_options;
/** The defaults of ::grappi_run_options, as an initializer. */
#define GRAPPI_RUN_OPTIONS_INIT {GRAPPI_RUN_OPTIONS_VERSION, NULL, NULL, NULL, NULL}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_RUN_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_run_options_init(grappi_run_options *opts, uint32_t version);

/** What one agent run may spend, and whether it reads the response cache: the `budget` field of
 *  the explore, ground, extract, hypothesis and ask options, versioned with the struct that holds
 *  it (it has no version of its own). A spent budget stops the run as a cancel does: what was
 *  done is kept, the rest is "skipped". */
typedef struct grappi_budget_options {
  size_t max_calls;   /**< model-call budget, 0 = none (answers from the cache are free) */
  int64_t max_tokens; /**< prompt + completion token budget, 0 = none */
  int32_t dry_run;    /**< non-zero: count the calls and tokens the run would spend, send nothing (not hypothesize) */
  int32_t use_cache;  /**< default 1: read and write the database's response cache */
} grappi_budget_options;
/** The defaults of ::grappi_budget_options (no budget, the cache on), as an initializer. */
#define GRAPPI_BUDGET_OPTIONS_INIT {0, 0, 0, 1}

/** The current version of ::grappi_explore_options (the library accepts 1 to this). */
#define GRAPPI_EXPLORE_OPTIONS_VERSION 1
/** Options of grappi_graph_explore_json(). */
typedef struct grappi_explore_options {
  uint32_t version;        /**< #GRAPPI_EXPLORE_OPTIONS_VERSION */
  const size_t *windows;   /**< window numbers (1-based); NULL for {1} */
  size_t window_count;     /**< entries in windows */
  const size_t *k;         /**< k per depth; NULL for {30, 4} */
  size_t k_count;          /**< entries in k */
  size_t depth;            /**< M, default 2 */
  double min_score;        /**< 0-1, default 0 */
  size_t max_length;       /**< L, default 4 */
  size_t max_paths;        /**< candidate bound, default 2000 */
  size_t top;              /**< ranked paths kept, default 10 */
  size_t explain_top;      /**< explain only the best N candidates by the prior; 0 = all */
  size_t concurrency;      /**< model calls in flight, default 8 (the model bounds them too) */
  grappi_budget_options budget; /**< what the run may spend; default #GRAPPI_BUDGET_OPTIONS_INIT */
  double diversity;        /**< 0-1, default 0.1 (0: the reference ranking; docs/explore.md "Diversity") */
  size_t max_visited;      /**< safety bound on the paths the candidate search visits, default 50000000 */
  const grappi_run_options *run; /**< the model, cancel and progress; NULL: the offline model, no cancel or progress */
} grappi_explore_options;
/** The defaults of ::grappi_explore_options, as an initializer. */
#define GRAPPI_EXPLORE_OPTIONS_INIT                                                                                    \
  {GRAPPI_EXPLORE_OPTIONS_VERSION, NULL, 0, NULL, 0, 2, 0.0, 4, 2000, 10, 0, 8, GRAPPI_BUDGET_OPTIONS_INIT, 0.1,     \
   50000000, NULL}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_EXPLORE_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_explore_options_init(grappi_explore_options *opts, uint32_t version);

/**
 * @brief Runs the explained-pathway pipeline from a node for a therapeutic query.
 * @param g The graph.
 * @param root The initial protein's node id (grappi_graph_resolve() turns a name into one).
 * @param query The therapeutic impact, e.g. "inhibit tau phosphorylation".
 * @param opts Options, or NULL for the defaults (the offline extractive model).
 * @param[out] out_json The explore JSON (docs/explore.md: "paths", "usage", ...); free with grappi_free().
 * @return #GRAPPI_OK: model failures are recorded per path and edge in the JSON; the call fails
 *         only for bad arguments, an unknown node or a database error.
 */
GRAPPI_API grappi_status grappi_graph_explore_json(grappi_graph *g, int64_t root, const char *query,
                                                   const grappi_explore_options *opts, char **out_json);
/**
 * @brief Runs explore as grappi_graph_explore_json() does and also writes the run's
 *        self-contained HTML report (docs/web.md "HTML reports": the window drawn, the ranked paths).
 * @param g The graph.
 * @param root The initial protein's node id.
 * @param query The therapeutic impact.
 * @param opts Options, or NULL for the defaults.
 * @param[out] out_json The explore JSON, or NULL when only the report is wanted.
 * @param[out] out_html The HTML page; free with grappi_free().
 */
GRAPPI_API grappi_status grappi_graph_explore_report(grappi_graph *g, int64_t root, const char *query,
                                                     const grappi_explore_options *opts, char **out_json, char **out_html);

/* ---- ground: the ontology term of a protein pair's relation in a text --------------------- */

/** The current version of ::grappi_ground_options (the library accepts 1 to this). */
#define GRAPPI_GROUND_OPTIONS_VERSION 1
/** Options of grappi_graph_ground_json() (docs/ground.md "Relation grounding"). */
typedef struct grappi_ground_options {
  uint32_t version;        /**< #GRAPPI_GROUND_OPTIONS_VERSION */
  const char *strategy;    /**< "pagerank" (default; NULL too), "bfs", "dfs", "dynamic", "random", "rag", "stuff" */
  const char *root;        /**< the subtree to choose from, id or name; NULL: "MI:0190" */
  const char *const *relations; /**< child-to-parent relations (relation_count of them); none: "obo.is_a" */
  size_t relation_count;   /**< entries of relations */
  size_t batch;            /**< terms per scoring request, default 1 */
  size_t chunk_size;       /**< characters per chunk of the text, default 4000 */
  size_t chunk_overlap;    /**< characters shared by consecutive chunks, default 400 */
  size_t patience;         /**< evaluations without a better score before the look-ahead, default 10 (0: every term) */
  size_t lookahead;        /**< terms scored after the patience ran out, default 5 */
  int32_t threshold;       /**< dynamic: the score (1-5) whose children are visited, default 3 */
  size_t rag_k;            /**< rag: terms scored, default 10 */
  uint64_t seed;           /**< random: the order's seed, default 1 */
  grappi_budget_options budget; /**< what the grounding may spend; default #GRAPPI_BUDGET_OPTIONS_INIT */
  const char *ontology;    /**< the ontology the root must belong to, as its OBO header names it ("mi"); NULL: any */
  const grappi_run_options *run; /**< the model, cancel and progress; NULL: the offline model, no cancel or progress */
} grappi_ground_options;
/** The defaults of ::grappi_ground_options, as an initializer. */
#define GRAPPI_GROUND_OPTIONS_INIT                                                                                     \
  {GRAPPI_GROUND_OPTIONS_VERSION, "pagerank", "MI:0190", NULL, 0, 1, 4000, 400, 10, 5, 3, 10, 1,                    \
   GRAPPI_BUDGET_OPTIONS_INIT, NULL, NULL}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_GROUND_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_ground_options_init(grappi_ground_options *opts, uint32_t version);

/**
 * @brief Grounds the relation between two proteins in a text: the ontology term (PSI-MI
 *        interaction type under MI:0190 by default) among the best-scored, with the relation
 *        summary, quotes checked against the text, a confidence and the trace.
 * @param g The graph (the ontology must be imported).
 * @param text The paper's text, UTF-8.
 * @param protein_a,protein_b The two proteins as named in the text (names, aliases or ids).
 * @param opts Options, or NULL for the defaults (the offline model).
 * @param[out] out_json The grounding JSON (docs/ground.md "Relation grounding": "term", "score",
 *        "confidence", "quotes", "trace", "usage", ...); free with grappi_free().
 * @return #GRAPPI_OK: model failures are recorded in the JSON; #GRAPPI_ENOTFOUND for a root
 *         that is not in the database; #GRAPPI_EINVAL for bad arguments or options.
 */
GRAPPI_API grappi_status grappi_graph_ground_json(grappi_graph *g, const char *text, const char *protein_a,
                                                  const char *protein_b, const grappi_ground_options *opts,
                                                  char **out_json);

/* ---- extract: BEL statements from papers ------------------------------------------------- */

/** The current version of ::grappi_extract_options (the library accepts 1 to this). */
#define GRAPPI_EXTRACT_OPTIONS_VERSION 1
/** Options of grappi_graph_extract_json() (docs/extract.md "From papers to BEL"). */
typedef struct grappi_extract_options {
  uint32_t version;           /**< #GRAPPI_EXTRACT_OPTIONS_VERSION */
  const char *format;         /**< the input's format: "detect" (default; NULL too), "text", "pubtator", "bioc-xml", "bioc-json", "ppi-xml", "jsonl" */
  const char *name;           /**< the input's name in messages; a text's PubMed id is read from "PMID<digits>" in it; NULL: "input" */
  int32_t repair;             /**< default 1: one repair turn for statements the validator rejects */
  int32_t annotations_only;   /**< non-zero: the input's annotations are the entities (the dictionary adds none) */
  int64_t taxon;              /**< preferred organism (NCBI taxon) for ambiguous names; 0: the paragraph's */
  size_t min_passage_chars;   /**< shorter passages are skipped, default 20 */
  grappi_budget_options budget; /**< what the run may spend; default #GRAPPI_BUDGET_OPTIONS_INIT */
  size_t concurrency;         /**< paragraphs (and so model calls) in flight, default 4 */
  int32_t include_flagged;    /**< non-zero: flagged statements are written and imported too */
  const char *bel_path;       /**< write the BEL script here; NULL: none (needed with import) */
  const char *cx2_path;       /**< write CX2 here; NULL: none */
  int32_t import_statements;  /**< non-zero: import the statements as a BEL dataset (from bel_path) */
  const grappi_run_options *run; /**< the model, cancel and progress; NULL: the offline model, no cancel or progress */
} grappi_extract_options;
/** The defaults of ::grappi_extract_options, as an initializer. */
#define GRAPPI_EXTRACT_OPTIONS_INIT                                                                                    \
  {GRAPPI_EXTRACT_OPTIONS_VERSION, "detect", "input", 1, 0, 0, 20, GRAPPI_BUDGET_OPTIONS_INIT, 4, 0, NULL, NULL, 0, \
   NULL}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_EXTRACT_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_extract_options_init(grappi_extract_options *opts, uint32_t version);

/**
 * @brief Extracts BEL statements from papers: each paragraph's entities grounded in the
 *        database, every statement validated (rejected ones repaired once), flagged when an
 *        entity is not grounded or the evidence is not in the paragraph; optionally written as
 *        a BEL script and CX2 and imported as a dataset.
 * @param g The graph (its names are the dictionary).
 * @param content The papers: plain text or Markdown, PubTator, BioC XML or JSON, or the PPI
 *        corpora's XML, UTF-8.
 * @param opts Options, or NULL for the defaults (the offline rule table).
 * @param[out] out_json The extraction JSON (docs/extract.md "From papers to BEL": "counts",
 *        "paragraphs" with their "entities" and "statements", "usage", ...; with
 *        import_statements also "import": {"dataset_id", "edges_created", "nodes_created",
 *        "already_imported"}); free with grappi_free().
 * @return #GRAPPI_OK: model failures are recorded in the JSON; #GRAPPI_EPARSE for malformed
 *         input; #GRAPPI_EINVAL for bad options (import without bel_path, nothing valid to
 *         import); #GRAPPI_EIO when an output cannot be written.
 */
GRAPPI_API grappi_status grappi_graph_extract_json(grappi_graph *g, const char *content,
                                                   const grappi_extract_options *opts, char **out_json);

/**
 * @brief Imports the statements a curator accepted in a review file (written by
 *        `grappi extract --review` or the extraction report; docs/extract.md "Curation") as one BEL
 *        dataset.
 * @param g The graph.
 * @param review_path The review file (tab-separated: decision, status, statement, evidence,
 *        citation, paragraph, flags, checks).
 * @param bel_path Where the BEL document of the accepted statements is written (the dataset's
 *        file).
 * @param[out] out_json {"dataset_id", "edges_created", "nodes_created", "already_imported",
 *        "path"}; free with grappi_free().
 * @return #GRAPPI_EPARSE for a malformed file or an accepted statement that is not valid BEL
 *         (the message names the line); #GRAPPI_EINVAL when nothing is accepted or an argument
 *         is NULL; #GRAPPI_EIO when a file cannot be read or written. Nothing is imported then.
 */
GRAPPI_API grappi_status grappi_graph_import_review_json(grappi_graph *g, const char *review_path, const char *bel_path,
                                                         char **out_json);

/**
 * @brief A worker's part of an extraction (docs/distributed.md "Extraction"): the documents of
 *        files extracted as grappi_graph_extract_json() extracts them and the whole result
 *        written to out_path for grappi_graph_extract_merge_json(). The graph is only read (it
 *        may be opened read-only: the response cache is then read, not written).
 * @param g The graph.
 * @param files The part's papers (PubTator, BioC XML or JSON, JSON lines, text; plain or
 *        gzipped), in order.
 * @param file_count Entries in files.
 * @param opts Options as grappi_graph_extract_json() takes them (bel_path, cx2_path,
 *        import_statements and include_flagged are not used), or NULL.
 * @param out_path The part's file, written whole or not at all.
 * @param provenance A JSON object's text recorded in the file; NULL: none.
 * @param[out] out_json {"path", "documents", "counts", "usage", "budget"}; free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_EPARSE for a malformed paper; #GRAPPI_EINVAL for bad options;
 *         #GRAPPI_EIO when a file cannot be read or written.
 */
GRAPPI_API grappi_status grappi_graph_extract_part_json(grappi_graph *g, const char *const *files, size_t file_count,
                                                        const grappi_extract_options *opts, const char *out_path,
                                                        const char *provenance, char **out_json);

/**
 * @brief The parts' extractions merged, in order, into the extraction of all their documents
 *        (duplicates found across parts), with the outputs the options ask for, as
 *        grappi_graph_extract_json() writes them: the BEL script (bel_path), CX2 (cx2_path), the
 *        import (import_statements; without bel_path the dataset's file is named next to the
 *        database as `grappi extract --import` names it).
 * @param g The graph (opened for writing to import).
 * @param parts The files of grappi_graph_extract_part_json().
 * @param part_count Entries in parts (at least one).
 * @param opts Options (only bel_path, cx2_path, name, import_statements, include_flagged are
 *        read), or NULL.
 * @param[out] out_json The extraction JSON (as grappi_graph_extract_json()), with "import" and
 *        "parts" (each part's provenance); free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_EPARSE for a damaged part; #GRAPPI_EINVAL for parts of another
 *         model or templates (nothing is stored in either case); #GRAPPI_EIO.
 */
GRAPPI_API grappi_status grappi_graph_extract_merge_json(grappi_graph *g, const char *const *parts, size_t part_count,
                                                         const grappi_extract_options *opts, char **out_json);

/* ---- co-occurrence graphs and hypotheses ------------------------------------------------- */

/** The current version of ::grappi_cooc_options (the library accepts 1 to this). */
#define GRAPPI_COOC_OPTIONS_VERSION 1
/** Options of grappi_graph_cooc_build_json() (docs/literature.md "Literature co-occurrence and hypotheses"). */
typedef struct grappi_cooc_options {
  uint32_t version;       /**< #GRAPPI_COOC_OPTIONS_VERSION */
  const char *format;     /**< the corpus format: "detect" (default; NULL too), "pubtator", "bioc-xml", "bioc-json", "text", "ppi-xml", "jsonl" */
  const char *name;       /**< the corpus's name in messages; NULL: "corpus" */
  const char *scope;      /**< "document" (default; NULL too) or "sentence" */
  const char *titles;     /**< "include" (default; NULL too), "only" or "exclude" */
  const char *const *types; /**< concept types kept (type_count of them); none: every type */
  size_t type_count;      /**< entries of types */
  size_t min_count;       /**< edges shared by fewer units are left out, default 1 */
  int32_t as_of;          /**< only documents published before this year; 0: every document */
  int32_t dictionary;     /**< non-zero: also the dictionary's mentions in annotated passages */
  const char *path;       /**< store the graph, its dataset's file (grappi JSON lines) written here; NULL: build and report only */
} grappi_cooc_options;
/** The defaults of ::grappi_cooc_options, as an initializer. */
#define GRAPPI_COOC_OPTIONS_INIT {GRAPPI_COOC_OPTIONS_VERSION, "detect", "corpus", "document", "include", NULL, 0, 1, 0, 0, NULL}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_COOC_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_cooc_options_init(grappi_cooc_options *opts, uint32_t version);

/**
 * @brief Builds a literature co-occurrence graph from annotated documents (gene concepts joined
 *        to the graph's proteins by their Entrez ids) and, with a path, stores it as a dataset.
 * @param g The graph.
 * @param content The corpus (PubTator, BioC XML or JSON, ...), UTF-8.
 * @param opts Options, or NULL for the defaults (build and report only).
 * @param[out] out_json The figures and strongest edges (`grappi cooc build --json`), with
 *        "import" ({"dataset_id", "edges_created", "nodes_created", "already_imported"}) when
 *        stored, and "papers" ({"dataset_id", "documents", "already_imported", "path"}): with a
 *        path the papers are stored too (searchable, the context of hypotheses), written to
 *        path + ".corpus", the papers dataset's file; free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_EPARSE for a malformed corpus; #GRAPPI_EINVAL for bad options or
 *         a graph without edges to store; #GRAPPI_EIO when the path cannot be written.
 */
GRAPPI_API grappi_status grappi_graph_cooc_build_json(grappi_graph *g, const char *content,
                                                      const grappi_cooc_options *opts, char **out_json);

/**
 * @brief Counts the co-occurrences of one part of a corpus into a partial-count file, for
 *        grappi_graph_cooc_merge_json() (a distributed build's worker step; `grappi cooc build
 *        --partial`; docs/distributed.md).
 * @param g The graph, only read (its aliases join gene concepts to proteins; it may be opened
 *        read-only, by many workers at once).
 * @param files The part's corpus files (PubTator, BioC XML or JSON, JSON lines; plain or
 *        gzipped), read in this order, a document at a time.
 * @param file_count Entries in files.
 * @param opts Options (format, scope, titles, types, min_count, as_of, dictionary; name and path
 *        are not used), or NULL for the defaults.
 * @param out_path The partial-count file, written whole or not at all.
 * @param provenance A JSON object's text recorded in the file (which partition, which worker);
 *        NULL: none. The library adds the grappi version and the time.
 * @param[out] out_json {"path", "documents", "files": [{"path", "bytes", "documents"}]}; free
 *        with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_EPARSE for a malformed corpus; #GRAPPI_EINVAL for bad options or
 *         provenance that is not a JSON object; #GRAPPI_EIO when a file cannot be read or written.
 */
GRAPPI_API grappi_status grappi_graph_cooc_partial_json(grappi_graph *g, const char *const *files, size_t file_count,
                                                        const grappi_cooc_options *opts, const char *out_path,
                                                        const char *provenance, char **out_json);

/**
 * @brief Merges partial-count files (grappi_graph_cooc_partial_json()), in the order given, into
 *        the co-occurrence graph of the whole corpus and stores it as one dataset: the graph
 *        grappi_graph_cooc_build_json() builds from the parts' documents in that order.
 * @param g The graph, opened for writing.
 * @param partials The partial-count files (built with the same options: the first one's are used).
 * @param partial_count Entries in partials (at least one).
 * @param opts Only `path` is read: the dataset's JSON lines file, written beside the database's
 *        compact copy; NULL: no file (the database alone holds the graph, as `grappi cooc merge`
 *        stores it; the same graph is stored once). NULL opts: the same.
 * @param[out] out_json The figures and strongest edges (as grappi_graph_cooc_build_json()), with
 *        "import" when the graph has edges, and "partials": [{"path", "documents",
 *        "provenance"}]; free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_EPARSE for a file that is not a partial-count file or a damaged
 *         one (nothing is stored); #GRAPPI_EINVAL for parts built with different options;
 *         #GRAPPI_EIO when a file cannot be read or the dataset written.
 */
GRAPPI_API grappi_status grappi_graph_cooc_merge_json(grappi_graph *g, const char *const *partials, size_t partial_count,
                                                      const grappi_cooc_options *opts, char **out_json);

/** The current version of ::grappi_hypothesis_options (the library accepts 1 to this). */
#define GRAPPI_HYPOTHESIS_OPTIONS_VERSION 1
/** Options of grappi_graph_hypothesize_json(). */
typedef struct grappi_hypothesis_options {
  uint32_t version;              /**< #GRAPPI_HYPOTHESIS_OPTIONS_VERSION */
  const char *const *relations;  /**< relations the paths follow (relation_count of them); none: "cooc.document" */
  size_t relation_count;         /**< entries of relations */
  size_t max_length;             /**< edges in a path at most, default 4 */
  size_t paths;                  /**< ranked paths kept, default 10 */
  int32_t mask_direct;           /**< non-zero: leave out the direct edge */
  const char *const *intermediate_labels; /**< labels the intermediate concepts must have (intermediate_label_count of
                                             them); none: any */
  size_t intermediate_label_count; /**< entries of intermediate_labels */
  size_t context;                /**< abstracts given to the model, default 7 */
  size_t rounds;                 /**< explanations at most, default 5 */
  const char *const *support_relations; /**< relations that support a sentence's pair (support_relation_count of
                                           them); none: any */
  size_t support_relation_count; /**< entries of support_relations */
  const char *corpus_format;     /**< the corpus format: "detect" (default; NULL too), ... */
  grappi_budget_options budget;  /**< what the explanations may spend (no dry run); default #GRAPPI_BUDGET_OPTIONS_INIT */
  double embedding_weight;       /**< weight in [0, 1] of the paths' embedding similarity to the pair in their score; 0 (default): off */
  const char *embedding_model;   /**< the stored embedding model for it; NULL: the database's default */
  const char *ranker;            /**< the stored path ranker scoring the paths (grappi_graph_train_ranker_json()); NULL:
                                      the one named "paths" when the database has it, else the association weights; "":
                                      the association weights */
  int32_t generic_intermediates; /**< non-zero: species and generic concepts may be intermediates (default 0) */
  double max_intermediate_share; /**< a concept in more than this share of the documents is generic, default 0.05 */
  int32_t fold_reorderings;      /**< default 1: paths reordering the same concepts are one */
  const grappi_run_options *run; /**< the model, cancel and progress; NULL: the offline model, no cancel or progress */
  size_t shortest_rounds;        /**< 0 (default): the shortest paths, shortest first; n: HGCR's candidates, n rounds of
                                      every shortest path, each without the earlier rounds' intermediate concepts */
} grappi_hypothesis_options;
/** The defaults of ::grappi_hypothesis_options, as an initializer. */
#define GRAPPI_HYPOTHESIS_OPTIONS_INIT                                                                                 \
  {GRAPPI_HYPOTHESIS_OPTIONS_VERSION, NULL, 0, 4, 10, 0, NULL, 0, 7, 5, NULL, 0, "detect", GRAPPI_BUDGET_OPTIONS_INIT, \
   0.0, NULL, NULL, 0, 0.05, 1, NULL, 0}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_HYPOTHESIS_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_hypothesis_options_init(grappi_hypothesis_options *opts, uint32_t version);

/**
 * @brief How two concepts may be related: ranked paths between them, an explanation from the
 *        abstracts behind the best paths, every sentence checked against the graph and re-worked.
 * @param g The graph (with a co-occurrence graph, see grappi_graph_cooc_build_json()).
 * @param source,target The two concepts (names, aliases or ids).
 * @param corpus The documents whose abstracts are the context (UTF-8), or NULL: the papers the
 *        database holds (grappi_graph_import() with kind "corpus").
 * @param opts Options, or NULL for the defaults (the offline model).
 * @param[out] out_json The result (`grappi hypothesize --json`); free with grappi_free().
 * @return #GRAPPI_OK: model failures are in the JSON; #GRAPPI_ENOTFOUND for a concept that does
 *         not resolve; #GRAPPI_EINVAL for bad options.
 */
GRAPPI_API grappi_status grappi_graph_hypothesize_json(grappi_graph *g, const char *source, const char *target,
                                                       const char *corpus, const grappi_hypothesis_options *opts,
                                                       char **out_json);

/**
 * @brief Fits the hypothesis path ranker on a corpus by the temporal protocol (the graph of the
 *        documents before a split at 80% in date order, else PubMed id order; the paths of the
 *        pairs first linked after it, labelled by those documents) and stores it.
 * @param g The graph (where the ranker is stored).
 * @param corpus The annotated documents (UTF-8).
 * @param corpus_format "detect" (NULL too), "pubtator", "bioc-xml", ...
 * @param name The name it is stored under; NULL: "paths" (what hypothesize uses unasked).
 * @param run Cancel and progress (stage "pairs": the pairs labelled of those to label; no
 *        model is asked), or NULL. A cancelled training stores nothing and answers
 *        {"name", "cancelled": true} with #GRAPPI_OK.
 * @param[out] out_json {"name", "training": {split, cutoff, before, after, pairs, paths,
 *        positives, ...}, "weights": {feature: weight}}; free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_EPARSE for a malformed corpus; #GRAPPI_EINVAL when no pair has
 *         both a positive and a negative path.
 */
GRAPPI_API grappi_status grappi_graph_train_ranker_json(grappi_graph *g, const char *corpus, const char *corpus_format,
                                                        const char *name, const grappi_run_options *run,
                                                        char **out_json);

/** The current version of ::grappi_eval_hypotheses_options (the library accepts 1 to this). */
#define GRAPPI_EVAL_HYPOTHESES_OPTIONS_VERSION 1

/** Options of grappi_eval_hypotheses_json() (`grappi eval hypotheses`; docs/literature.md). */
typedef struct grappi_eval_hypotheses_options {
  uint32_t version;          /**< #GRAPPI_EVAL_HYPOTHESES_OPTIONS_VERSION */
  const char *corpus_format; /**< the corpus format: "detect" (default; NULL too), "pubtator", "bioc-xml", ... */
  const double *splits;      /**< shares of the documents before the split, each in (0, 1) (split_count of them);
                                  none: 0.8; several: one evaluation per split and the means */
  size_t split_count;        /**< entries of splits */
  int32_t as_of;             /**< 0 (default): split by share; a year: the documents before it build the graph
                                  (not with several splits) */
  size_t paths;              /**< paths ranked per pair, default 50 */
  size_t pairs;              /**< test pairs at most, default 200 */
  size_t top;                /**< a pair counts when a positive path is among its first top, default 10 */
  size_t explain;            /**< pairs explained for ROUGE, default 20 (0: none: no model call) */
  const char *scoring;       /**< "prior" (default; NULL too), "trained" (nested) or "weights" */
  size_t min_positives;      /**< positive paths before the split to fit the nested ranker, default 100 */
  size_t bootstrap;          /**< resamples of the pairs for the differences' 95% intervals, default 1000 (0: none; at most 1000000) */
  uint64_t seed;             /**< the random baseline's and the resamples' seed, default 1 */
  const char *scope;         /**< "document" (default; NULL too) or "sentence" */
  size_t min_count;          /**< edges of the graph the paths follow shared by at least this many units, default 1 */
  const char *ranker;        /**< a path ranker stored in the graph to score with (needs g); NULL: scoring */
  const char *work_dir;      /**< where the temporary database goes; NULL: the system's temporary directory */
  const grappi_hypothesis_options *hypothesis; /**< max_length, intermediate_labels, generic_intermediates,
                                    max_intermediate_share, shortest_rounds, context, rounds, budget,
                                    embedding_weight and run (the model, cancel and progress); NULL: the
                                    defaults (the offline model) */
  const char *after_corpus;  /**< NULL (default): split corpus by splits or as_of; else the documents after the
                                  split (UTF-8, in corpus_format): corpus builds the graph, these label the pairs
                                  (a corpus's own train before its dev; one split; `grappi eval hypotheses --after`) */
} grappi_eval_hypotheses_options;
/** The defaults of ::grappi_eval_hypotheses_options, as an initializer. */
#define GRAPPI_EVAL_HYPOTHESES_OPTIONS_INIT                                                                          \
  {GRAPPI_EVAL_HYPOTHESES_OPTIONS_VERSION, "detect", NULL, 0, 0, 50, 200, 10, 20, "prior", 100, 1000, 1,            \
   "document", 1, NULL, NULL, NULL, NULL}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_EVAL_HYPOTHESES_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_eval_hypotheses_options_init(grappi_eval_hypotheses_options *opts, uint32_t version);

/**
 * @brief Evaluates hypothesis paths by the temporal protocol (`grappi eval hypotheses`): the
 *        co-occurrence graph of the documents before a split, the pairs first linked after it,
 *        ROC AUC of the path scores beside the baselines on the same paths and labels, and
 *        grappi's figures minus each baseline's with 95% intervals over resamples of the pairs.
 * @param g The graph holding opts->ranker, or NULL (the evaluation builds its own graph in a
 *        temporary database).
 * @param corpus The annotated documents (UTF-8).
 * @param opts Options, or NULL for the defaults.
 * @param[out] out_json One split: the summary (`grappi eval hypotheses --json`,
 *        docs/schemas/eval-hypotheses.schema.json); several: {"splits", "means", "cancelled"}
 *        (docs/schemas/eval-hypotheses-splits.schema.json). Free with grappi_free().
 * @param[out] out_pairs NULL, or one JSON line per pair (`--per-pair`); one split only.
 * @return #GRAPPI_OK (a cancelled run answers with "cancelled": true); #GRAPPI_EPARSE for a
 *         malformed corpus; #GRAPPI_EINVAL for bad options or a split that leaves one side empty;
 *         #GRAPPI_ENOTFOUND for a ranker the graph does not hold.
 */
GRAPPI_API grappi_status grappi_eval_hypotheses_json(grappi_graph *g, const char *corpus,
                                                     const grappi_eval_hypotheses_options *opts, char **out_json,
                                                     char **out_pairs);

/**
 * @brief Full-text search of the papers the database holds (SQLite FTS5 over their titles and
 *        passages: words stemmed, "phrases", AND/OR/NOT, prefix*).
 * @param g The graph.
 * @param query The search (UTF-8).
 * @param limit Papers at most, 1 to 1000 (0: 20).
 * @param[out] out_json An array of {"key", "pmid", "doi", "year", "title", "snippet", "score",
 *        "document", "dataset"}, best first; free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_EINVAL for an empty or malformed query.
 */
GRAPPI_API grappi_status grappi_graph_search_papers_json(grappi_graph *g, const char *query, size_t limit,
                                                         char **out_json);

/* ---- grounded answers -------------------------------------------------------------------- */

/** The current version of ::grappi_ask_options (the library accepts 1 to this). */
#define GRAPPI_ASK_OPTIONS_VERSION 1
/** Options of grappi_graph_ask_json() and grappi_graph_eval_qa_json() (the subgraph's options are
 *  a ::grappi_retrieve_options beside it). */
typedef struct grappi_ask_options {
  uint32_t version;              /**< #GRAPPI_ASK_OPTIONS_VERSION */
  const char *context;           /**< "evidence" (default; NULL too) or "csv" (G-Retriever's) */
  size_t max_context_tokens;     /**< rough token budget of the context, default 4000 (0: none) */
  size_t answers;                /**< answer entities returned, default 10 */
  int32_t keep_question_entities; /**< non-zero: keep the entities the question names among the answers */
  int32_t repair;                /**< default 1: one turn asking the model to fix unsupported sentences */
  const char *const *weighted_relations; /**< relations whose edges' prizes are multiplied (relation_weight_count of
                                              them; the relations the subgraph follows are the retrieve options') */
  const double *relation_weights; /**< the factor of each of weighted_relations (finite, at least 0) */
  size_t relation_weight_count;  /**< entries of weighted_relations and relation_weights */
  const char *embedding_model;   /**< the stored model the question is embedded with; NULL: the latest */
  grappi_budget_options budget;  /**< what the answer may spend; default #GRAPPI_BUDGET_OPTIONS_INIT */
  const char *reader;            /**< "prize" (default; NULL too) or "gat": the stored graph reader ranks the answer entities */
  const char *reader_name;       /**< the stored reader "gat" uses, default "gat" */
  int32_t intents;               /**< default 1: retrieve for the question's intent (partners, connects, paths, class; see
                                      grappi_graph_analyze_question_json()); 0: every question is open (PCST) */
  int32_t model_intent;          /**< default 1: ask the model (not the offline one) for the intent when the rules leave a
                                      question that names entities open (the callback's task "kind" is then "ask.intent") */
  size_t intent_candidates;      /**< candidates an intent keeps in the subgraph, default 50 (at least 1) */
  size_t papers;                 /**< passages of the database's stored papers in the context (P0, P1, ...; cited and
                                      checked like nodes and edges), default 3 (0: none) */
  const grappi_run_options *run; /**< the model, cancel and progress; NULL: the offline model, no cancel or progress */
} grappi_ask_options;
/** The defaults of ::grappi_ask_options, as an initializer. */
#define GRAPPI_ASK_OPTIONS_INIT                                                                                        \
  {GRAPPI_ASK_OPTIONS_VERSION, "evidence", 4000, 10, 0, 1, NULL, NULL, 0, NULL, GRAPPI_BUDGET_OPTIONS_INIT, "prize", \
   "gat", 1, 1, 50, 3, NULL}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_ASK_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_ask_options_init(grappi_ask_options *opts, uint32_t version);

/**
 * @brief A grounded answer to a question: the subgraph by PCST, the answer with every citation
 *        checked against the context, the ranked answer entities (needs embedded nodes).
 * @param g The graph.
 * @param question The question (UTF-8).
 * @param retrieve The subgraph's options, or NULL for the defaults.
 * @param opts Options, or NULL for the defaults (the offline model).
 * @param[out] out_json The result (`grappi ask --json`: answer_entities, sentences, ...); free
 *        with grappi_free().
 * @return #GRAPPI_OK: model failures are in the JSON; #GRAPPI_EINVAL for an empty question, bad
 *         options or nothing embedded.
 */
GRAPPI_API grappi_status grappi_graph_ask_json(grappi_graph *g, const char *question, const grappi_retrieve_options *retrieve,
                                               const grappi_ask_options *opts, char **out_json);
/**
 * @brief What a question asks, without retrieving or answering: the knowledge base's entities it
 *        names (by name or alias in any case, tolerant of hyphens, punctuation and Greek letters;
 *        yeast's "Cdc28p"; identifiers) and its intent by rules ("partners", "connects", "paths",
 *        "class" with its topic, or "open").
 * @param g The graph.
 * @param question The question (UTF-8).
 * @param[out] out_json {"intent", "source", "rule", "topic", "topic_kind", "implied_class",
 *        "interaction", "taxon", "entities": [{node, id, name, label, text, offset, length, status,
 *        resolution, alternatives}]} (fields without a value are left out); free with grappi_free().
 * @return #GRAPPI_OK; #GRAPPI_EINVAL for an empty question.
 */
GRAPPI_API grappi_status grappi_graph_analyze_question_json(grappi_graph *g, const char *question, char **out_json);
/**
 * @brief Answers as grappi_graph_ask_json() does and also writes the self-contained HTML report
 *        (the subgraph drawn, the answer's sentences with their checks, the answer entities).
 * @param g The graph.
 * @param question The question (UTF-8).
 * @param retrieve The subgraph's options, or NULL for the defaults.
 * @param opts Options, or NULL for the defaults.
 * @param[out] out_json The result JSON, or NULL when only the report is wanted.
 * @param[out] out_html The HTML page; free with grappi_free().
 */
GRAPPI_API grappi_status grappi_graph_ask_report(grappi_graph *g, const char *question, const grappi_retrieve_options *retrieve,
                                                 const grappi_ask_options *opts, char **out_json, char **out_html);

/**
 * @brief A self-contained HTML page of a report view made elsewhere (docs/web.md "HTML reports").
 * @param view_json The view: a JSON object with arrays "nodes", "edges" and "items".
 * @param[out] out_html The page; free with grappi_free().
 * @return #GRAPPI_OK or #GRAPPI_EINVAL (not JSON, or not a view).
 */
GRAPPI_API grappi_status grappi_report_html(const char *view_json, char **out_html);

/**
 * @brief Answers every question of a set and scores the answers (`grappi eval qa`).
 * @param g The graph.
 * @param questions The questions: JSON lines {question, answers, options?, reference?} or a KG-RAG CSV text.
 * @param retrieve The subgraph's options, or NULL for the defaults.
 * @param opts Options, or NULL for the defaults.
 * @param k The K of Recall\@K (0: 10).
 * @param[out] out_json The summary (mrr, hits_at_1, hits_at_5, hits_at_10, recall_at_k, ...); free with grappi_free().
 * @param[out] out_rows One JSON line per question, or NULL when not wanted; free with grappi_free().
 * @return #GRAPPI_EPARSE for a malformed question set (the message names the line).
 */
GRAPPI_API grappi_status grappi_graph_eval_qa_json(grappi_graph *g, const char *questions, const grappi_retrieve_options *retrieve,
                                                   const grappi_ask_options *opts, size_t k, char **out_json, char **out_rows);

/* ---- the graph reader -------------------------------------------------------------------- */

/** The current version of ::grappi_reader_options (the library accepts 1 to this). */
#define GRAPPI_READER_OPTIONS_VERSION 1
/** Options of grappi_graph_train_reader_json() (docs/ask.md "The graph reader"). */
typedef struct grappi_reader_options {
  uint32_t version;       /**< #GRAPPI_READER_OPTIONS_VERSION */
  const char *name;       /**< stored under this name, default "gat" */
  const char *scope;      /**< "subgraph" (default: the PCST selection) or "base" (the k-hop subgraph it was chosen from) */
  size_t epochs;          /**< at most, default 60 */
  size_t layers;          /**< GAT layers, default 2 */
  size_t hidden;          /**< each layer's width (heads concatenated), default 64 */
  size_t heads;           /**< attention heads, 1 to 64, default 4 */
  size_t head_hidden;     /**< the scoring MLP's hidden width, default 32 */
  double dropout;         /**< 0 to 0.95, default 0.1 */
  double learning_rate;   /**< Adam's step size, 1e-7 to 1, default 0.003 (a diverging loss: #GRAPPI_EINVAL) */
  double weight_decay;    /**< 0 to 1, default 0 */
  size_t batch;           /**< questions per step, 1 to 100000, default 8 */
  size_t patience;        /**< epochs without a better validation MRR before stopping, default 10 (0: never) */
  double valid_share;     /**< share of the training questions that validates without a validation set, 0 to 0.9, default 0.2 */
  uint64_t seed;          /**< default 1: the same seed, the same reader */
  uint32_t threads;       /**< questions in parallel, default 0 (all cores) */
  size_t max_nodes;       /**< nodes per subgraph at most, default 400 (0: all): the question's entities and the
                               selection first, then the nearest to the seeds; stored with the reader */
  const grappi_run_options *run; /**< cancel (polled per question and per training step: a cancelled training
                                      stores nothing and its report says "cancelled": true) and progress
                                      ("examples" per question, "epochs" per epoch); its model is not used.
                                      NULL: neither */
} grappi_reader_options;
/** The defaults of ::grappi_reader_options, as an initializer. */
#define GRAPPI_READER_OPTIONS_INIT                                                                                     \
  {GRAPPI_READER_OPTIONS_VERSION, "gat", "subgraph", 60, 2, 64, 4, 32, 0.1, 0.003, 0.0, 8, 10, 0.2, 1, 0, 400, NULL}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_READER_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_reader_options_init(grappi_reader_options *opts, uint32_t version);

/**
 * @brief Trains the graph reader (a GAT scoring a question's subgraph's nodes as answers) and
 *        stores it in the database (`grappi train-reader`).
 * @param g The graph (opened writable, embedded).
 * @param train Training questions: JSON lines {question, answers} (the eval qa format).
 * @param valid Validation questions in the same form, or NULL (a seeded share of train validates).
 * @param retrieve How each question's subgraph is retrieved, or NULL for the defaults.
 * @param ask The retrieval's embedding model, relations and relation weights, or NULL.
 * @param opts The network and its training, or NULL for the defaults.
 * @param[out] out_json The training report (epochs, best_epoch, sizes, fingerprint); free with grappi_free().
 * @return #GRAPPI_EINVAL when no question has an answer among its subgraph's nodes or for bad
 *         options; #GRAPPI_EPARSE for a malformed question set.
 */
GRAPPI_API grappi_status grappi_graph_train_reader_json(grappi_graph *g, const char *train, const char *valid,
                                                        const grappi_retrieve_options *retrieve, const grappi_ask_options *ask,
                                                        const grappi_reader_options *opts, char **out_json);

/**
 * @brief The stored graph reader's score of every node of a question's subgraph.
 * @param g The graph.
 * @param question The question (UTF-8).
 * @param retrieve How the subgraph is retrieved, or NULL for the defaults.
 * @param ask The reader (`reader_name`), embedding model and relations, or NULL (the reader "gat").
 * @param[out] out_json {"reader", "scope", "nodes": [{node, id, name, score, asked, selected}]}, best
 *        first; free with grappi_free().
 * @return #GRAPPI_ENOTFOUND when no reader of that name is stored.
 */
GRAPPI_API grappi_status grappi_graph_reader_scores_json(grappi_graph *g, const char *question,
                                                         const grappi_retrieve_options *retrieve,
                                                         const grappi_ask_options *ask, char **out_json);

/* ---- prize-collecting Steiner tree ------------------------------------------------------ */

/** A PCST solver: keeps its buffers between solves. Not thread-safe: use one per thread. */
typedef struct grappi_pcst_solver grappi_pcst_solver;

/** The current version of ::grappi_pcst_options (the library accepts 1 to this). */
#define GRAPPI_PCST_OPTIONS_VERSION 1
/** Options of grappi_pcst_solver_solve(). */
typedef struct grappi_pcst_options {
  uint32_t version;     /**< #GRAPPI_PCST_OPTIONS_VERSION */
  int64_t root;         /**< -1 (default): unrooted */
  int32_t num_clusters; /**< trees wanted when unrooted (default 1); must be 1 when rooted */
  const char *pruning;  /**< "none", "simple", "gw" (default) or "strong", any case */
  int32_t improve;      /**< non-zero: local search after pruning (never worse; docs/retrieval.md) */
  int32_t event_order;  /**< GRAPPI_PCST_ORDER_*, default #GRAPPI_PCST_ORDER_DEFAULT */
} grappi_pcst_options;
/** The defaults of ::grappi_pcst_options, as an initializer. */
#define GRAPPI_PCST_OPTIONS_INIT {GRAPPI_PCST_OPTIONS_VERSION, -1, 1, "gw", 0, GRAPPI_PCST_ORDER_DEFAULT}

/** @brief Fills options with the defaults of a version (1 to #GRAPPI_PCST_OPTIONS_VERSION). */
GRAPPI_API grappi_status grappi_pcst_options_init(grappi_pcst_options *opts, uint32_t version);

/** The current version of ::grappi_pcst_result. */
#define GRAPPI_PCST_RESULT_VERSION 1
/**
 * A solution, filled by grappi_pcst_solver_solve(). The caller sets `version` (or uses
 * #GRAPPI_PCST_RESULT_INIT); the library writes only the fields of that version. `nodes` and
 * `edges` point into the solver and stay valid until its next solve or its free.
 */
typedef struct grappi_pcst_result {
  uint32_t version;                /**< #GRAPPI_PCST_RESULT_VERSION, set by the caller */
  const int64_t *nodes;            /**< selected nodes, ascending */
  size_t num_nodes;                /**< entries in nodes */
  const int64_t *edges;            /**< selected edge indices, ascending */
  size_t num_edges;                /**< entries in edges */
  double objective;                /**< prizes left out + costs taken in (minimised) */
  double net_worth;                /**< prizes taken in - costs taken in */
  double objective_before_improve; /**< the pruned solution's objective (= objective without improve) */
  int32_t improve_rounds;          /**< local-search rounds that lowered the objective */
} grappi_pcst_result;
/** An empty ::grappi_pcst_result of the current version, as an initializer. */
#define GRAPPI_PCST_RESULT_INIT {GRAPPI_PCST_RESULT_VERSION, NULL, 0, NULL, 0, 0.0, 0.0, 0.0, 0}

/**
 * @brief Creates a solver.
 * @param[out] out A handle the caller frees with grappi_pcst_solver_free(); NULL on failure.
 */
GRAPPI_API grappi_status grappi_pcst_solver_new(grappi_pcst_solver **out);
/** @brief Frees a solver and the results it holds. @param solver A solver or NULL (a no-op). */
GRAPPI_API void grappi_pcst_solver_free(grappi_pcst_solver *solver);

/**
 * @brief Solves a prize-collecting Steiner tree / forest instance (pcst_fast's semantics; docs/retrieval.md).
 *        A solver reused for instances that need no more room than an earlier one allocates
 *        nothing but the result.
 * @param solver The solver.
 * @param num_nodes Number of nodes.
 * @param prizes num_nodes prizes, finite and >= 0.
 * @param num_edges Number of edges.
 * @param edges 2 * num_edges endpoints in [0, num_nodes).
 * @param costs num_edges costs, finite and >= 0.
 * @param opts Options, or NULL for the defaults (unrooted, one tree, gw pruning).
 * @param[in,out] out The solution; the caller sets out->version.
 * @return #GRAPPI_OK, or #GRAPPI_EINVAL naming the first bad prize, cost, endpoint or option.
 */
GRAPPI_API grappi_status grappi_pcst_solver_solve(grappi_pcst_solver *solver, size_t num_nodes, const double *prizes,
                                                  size_t num_edges, const int64_t *edges, const double *costs,
                                                  const grappi_pcst_options *opts, grappi_pcst_result *out);

#ifdef __cplusplus
}
#endif

#endif /* GRAPPI_H */
