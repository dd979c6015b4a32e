/* C99 + POSIX threads: several threads call the read functions of one grappi_graph handle at
 * once and must all get the same answers as a single thread; then they run again while another
 * thread imports into the same handle (new proteins far from the ones read): no call may fail
 * (no "database is locked", no mismatch between the snapshot and the retriever) and the answers
 * stay the same. CI also runs it under ThreadSanitizer. Prints "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L
#include <grappi/grappi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THREADS 6
/* Rounds per reader (the writer makes twice as many imports). ThreadSanitizer reports a race
 * from one unsynchronised pair of accesses, so two rounds find what three did; each import makes
 * every reader rebuild the snapshot and the vectors, minutes under ThreadSanitizer. */
#define ROUNDS 2

static grappi_graph *g;
static int64_t cdc28;
static size_t want_neighbors;
static char *want_window;
static char *want_explore;
static int64_t want_search_top;
static char db_path[256];

struct result {
  int passed, failed;
  char message[256];
};

#define T_CHECK(r, cond)                                                                          \
  do {                                                                                            \
    if (cond) {                                                                                   \
      ++(r)->passed;                                                                              \
    } else {                                                                                      \
      ++(r)->failed;                                                                              \
      snprintf((r)->message, sizeof (r)->message, "line %d: %s (%s)", __LINE__, #cond,           \
               grappi_last_error_message());                                                     \
    }                                                                                             \
  } while (0)

static char *window(void) {
  grappi_window_options wo;
  size_t ks[2] = {10, 3};
  char *json = NULL;
  grappi_window_options_init(&wo, GRAPPI_WINDOW_OPTIONS_VERSION);
  wo.k = ks;
  wo.k_count = 2;
  wo.max_path_length = 2;
  if (grappi_graph_window_json(g, cdc28, &wo, &json) != GRAPPI_OK) return NULL;
  return json;
}

static char *explore(void) {
  grappi_explore_options xo;
  size_t ks[2] = {5, 2};
  char *json = NULL, *usage;
  grappi_explore_options_init(&xo, GRAPPI_EXPLORE_OPTIONS_VERSION);
  xo.k = ks;
  xo.k_count = 2;
  xo.max_length = 3;
  xo.concurrency = 2;
  if (grappi_graph_explore_json(g, cdc28, "cyclin dependent kinase", &xo, &json) != GRAPPI_OK) return NULL;
  /* Timings differ from run to run, and the provenance lists the datasets, which the writer
   * adds to: compare everything before "provenance" (keys are in alphabetical order). */
  usage = strstr(json, "\"provenance\"");
  if (usage) *usage = '\0';
  return json;
}

static void *reader(void *arg) {
  struct result *r = (struct result *)arg;
  int round;
  for (round = 0; round < ROUNDS; ++round) {
    int64_t id = 0, ids[8];
    float scores[8];
    size_t n = 0;
    char *name = NULL, *json;
    int64_t *nb = (int64_t *)malloc(want_neighbors * sizeof *nb);
    T_CHECK(r, grappi_graph_resolve(g, "cdc28", &id) == GRAPPI_OK && id == cdc28);
    T_CHECK(r, grappi_graph_resolve(g, "NO_SUCH_PROTEIN_X", &id) == GRAPPI_ENOTFOUND);
    T_CHECK(r, strstr(grappi_last_error_message(), "NO_SUCH_PROTEIN_X") != NULL); /* thread-local */
    T_CHECK(r, grappi_graph_neighbors(g, cdc28, 0.0, NULL, NULL, 0, &n) == GRAPPI_EBUFS && n == want_neighbors);
    T_CHECK(r, nb && grappi_graph_neighbors(g, cdc28, 0.0, nb, NULL, want_neighbors, &n) == GRAPPI_OK);
    free(nb);
    T_CHECK(r, grappi_graph_node_name(g, cdc28, &name) == GRAPPI_OK && name && strcmp(name, "CDC28") == 0);
    grappi_free(name);
    T_CHECK(r, grappi_graph_search(g, "cyclin-dependent kinase master regulator of the cell cycle", 8, ids, scores, 8, &n) ==
                       GRAPPI_OK &&
                   n == 8 && ids[0] == want_search_top);
    json = window();
    T_CHECK(r, json && strcmp(json, want_window) == 0);
    grappi_free(json);
    json = explore();
    T_CHECK(r, json && strcmp(json, want_explore) == 0);
    grappi_free(json);
  }
  return NULL;
}

/* Imports a new protein per round into the handle the readers use. */
static void *writer(void *arg) {
  struct result *r = (struct result *)arg;
  int round;
  for (round = 0; round < 2 * ROUNDS; ++round) {
    char path[300];
    FILE *f;
    int64_t id = 0;
    char name[32];
    snprintf(path, sizeof path, "%s.info%d.tsv", db_path, round);
    snprintf(name, sizeof name, "NEWPROT%d", round);
    f = fopen(path, "w");
    if (!f) {
      ++r->failed;
      continue;
    }
    fprintf(f, "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n4932.%s\t%s\t100\tA protein of the test\n", name,
            name);
    fclose(f);
    T_CHECK(r, grappi_graph_import(g, "info", path) == GRAPPI_OK);
    T_CHECK(r, grappi_graph_resolve(g, name, &id) == GRAPPI_OK && id > 0);
    remove(path);
  }
  return NULL;
}

int main(int argc, char **argv) {
  const char *data = argc > 1 ? argv[1] : "data";
  char path[4096];
  char *db = db_path;
  pthread_t threads[THREADS];
  struct result results[THREADS];
  int passed = 0, failed = 0, i;
  size_t n = 0;
  int64_t ids[8];
  float scores[8];

  snprintf(db_path, sizeof db_path, "/tmp/grappi_capi_threads_%ld.db", (long)getpid());
  remove(db);
  if (grappi_graph_open(db, NULL, &g) != GRAPPI_OK) {
    fprintf(stderr, "open: %s\n", grappi_last_error_message());
    return 1;
  }
  snprintf(path, sizeof path, "%s/4932.protein.info.v12.0.txt.gz", data);
  if (grappi_graph_import(g, "info", path) != GRAPPI_OK) return 1;
  snprintf(path, sizeof path, "%s/4932.protein.physical.links.v12.0.txt.gz", data);
  if (grappi_graph_import(g, "physical", path) != GRAPPI_OK) return 1;
  if (grappi_graph_embed(g, NULL, NULL) != GRAPPI_OK) return 1;
  if (grappi_graph_resolve(g, "CDC28", &cdc28) != GRAPPI_OK) return 1;
  grappi_graph_neighbors(g, cdc28, 0.0, NULL, NULL, 0, &want_neighbors);
  grappi_graph_search(g, "cyclin-dependent kinase master regulator of the cell cycle", 8, ids, scores, 8, &n);
  want_search_top = ids[0];
  want_window = window();
  want_explore = explore();
  if (!want_window || !want_explore) {
    fprintf(stderr, "single-thread reference failed: %s\n", grappi_last_error_message());
    return 1;
  }

  for (i = 0; i < THREADS; ++i) {
    memset(&results[i], 0, sizeof results[i]);
    pthread_create(&threads[i], NULL, reader, &results[i]);
  }
  for (i = 0; i < THREADS; ++i) {
    pthread_join(threads[i], NULL);
    passed += results[i].passed;
    failed += results[i].failed;
    if (results[i].failed) fprintf(stderr, "thread %d: %s\n", i, results[i].message);
  }
  /* Again, with a writer importing into the same handle meanwhile. */
  for (i = 0; i < THREADS; ++i) {
    memset(&results[i], 0, sizeof results[i]);
    pthread_create(&threads[i], NULL, i == 0 ? writer : reader, &results[i]);
  }
  for (i = 0; i < THREADS; ++i) {
    pthread_join(threads[i], NULL);
    passed += results[i].passed;
    failed += results[i].failed;
    if (results[i].failed) fprintf(stderr, "thread %d (%s): %s\n", i, i == 0 ? "writer" : "reader", results[i].message);
  }
  grappi_free(want_window);
  grappi_free(want_explore);
  grappi_graph_free(g);
  remove(db);
  snprintf(path, sizeof path, "%s-wal", db);
  remove(path);
  snprintf(path, sizeof path, "%s-shm", db);
  remove(path);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
