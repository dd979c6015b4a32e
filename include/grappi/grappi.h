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

#ifdef __cplusplus
}
#endif

#endif /* GRAPPI_H */
