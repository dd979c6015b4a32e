/* C99 test of the C API: every function, including misuse. Prints "N passed, N failed". */
#include <grappi/grappi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int passed = 0, failed = 0;

/* A callback embedder: vector (length of text, 1); fails when user_data says so. */
static int32_t embed_cb(void *user, const char *const *texts, size_t count, float *out, size_t dim) {
  size_t i;
  if (user && *(int *)user) return 7;
  for (i = 0; i < count; ++i) {
    out[i * dim] = (float)strlen(texts[i]);
    out[i * dim + 1] = 1.0f;
  }
  return 0;
}

/* A chat callback (called with concurrency 1 here): counts calls; edge requests get a sentence,
 * path requests a JSON score; fails with a reason when *fail is set. */
struct chat_state {
  int calls;
  int fail;
};
static int32_t chat_cb(void *user, const char *request_json, grappi_chat_reply *reply) {
  struct chat_state *st = (struct chat_state *)user;
  st->calls++;
  if (st->fail) {
    grappi_chat_reply_set_error(reply, "c says no");
    return 3;
  }
  if (strstr(request_json, "\"kind\":\"path\"") != NULL)
    return grappi_chat_reply_set(reply, "{\"explanation\": \"from C\", \"relevance_score\": \"77\"}", 100, 20) == GRAPPI_OK ? 0 : 1;
  return grappi_chat_reply_set(reply, "edge from C", 50, 10) == GRAPPI_OK ? 0 : 1;
}

#define CHECK(cond)                                                         \
  do {                                                                      \
    if (cond) {                                                             \
      ++passed;                                                             \
    } else {                                                                \
      ++failed;                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s (last error: %s)\n", __FILE__, \
              __LINE__, #cond, grappi_last_error_message());                \
    }                                                                       \
  } while (0)

int main(int argc, char **argv) {
  const char *data = argc > 1 ? argv[1] : "data";
  char path[4096], db[256];
  grappi_graph *g = NULL;
  grappi_open_options opts;
  int64_t id = 0, cdc28 = 0, nodes = 0, edges = 0;
  size_t count = 0, i;
  int64_t *ids;
  double *scores;
  char *name = NULL;

  snprintf(db, sizeof db, "/tmp/grappi_capi_%ld.db", (long)getpid());
  remove(db);

  /* Library-wide functions. */
  CHECK(strlen(grappi_version_string()) > 0);
  CHECK(strcmp(grappi_version_string(), GRAPPI_VERSION_STRING) == 0);
  CHECK(strcmp(grappi_status_str(GRAPPI_OK), "ok") == 0);
  CHECK(strcmp(grappi_status_str(GRAPPI_EBUFS), "buffer too small") == 0);
  CHECK(strcmp(grappi_status_str(-999), "unknown status") == 0);
  CHECK(grappi_last_error_message() != NULL);
  grappi_free(NULL);
  grappi_graph_free(NULL);

  /* Options and open. */
  CHECK(grappi_open_options_init(NULL, GRAPPI_OPEN_OPTIONS_VERSION) == GRAPPI_EINVAL);
  CHECK(grappi_open_options_init(&opts, 999) == GRAPPI_EINVAL);
  CHECK(grappi_open_options_init(&opts, GRAPPI_OPEN_OPTIONS_VERSION) == GRAPPI_OK);
  CHECK(grappi_graph_open(db, NULL, NULL) == GRAPPI_EINVAL);
  CHECK(grappi_graph_open(NULL, NULL, &g) == GRAPPI_EINVAL && g == NULL);
  CHECK(grappi_graph_open("/nonexistent-dir/x.db", NULL, &g) != GRAPPI_OK && g == NULL);
  CHECK(strstr(grappi_last_error_message(), "/nonexistent-dir/x.db") != NULL);
  opts.version = 42;
  CHECK(grappi_graph_open(db, &opts, &g) == GRAPPI_EINVAL && g == NULL);
  opts.version = GRAPPI_OPEN_OPTIONS_VERSION;
  CHECK(grappi_graph_open(db, &opts, &g) == GRAPPI_OK && g != NULL);
  CHECK(grappi_last_error_code() == GRAPPI_OK);

  /* Import. */
  snprintf(path, sizeof path, "%s/4932.protein.info.v12.0.txt.gz", data);
  CHECK(grappi_graph_import(NULL, "info", path) == GRAPPI_EINVAL);
  CHECK(grappi_graph_import(g, "info", NULL) == GRAPPI_EINVAL);
  CHECK(grappi_graph_import(g, "bogus", path) == GRAPPI_EINVAL);
  CHECK(grappi_graph_import(g, "links", path) == GRAPPI_EPARSE); /* header is that of info */
  CHECK(grappi_graph_import(g, "info", "/nonexistent/file.txt") == GRAPPI_ENOTFOUND);
  CHECK(grappi_graph_import(g, "info", path) == GRAPPI_OK);
  snprintf(path, sizeof path, "%s/4932.protein.physical.links.v12.0.txt.gz", data);
  CHECK(grappi_graph_import(g, "physical", path) == GRAPPI_OK);
  snprintf(path, sizeof path, "%s/4932.protein.aliases.v12.0.txt.gz", data);
  CHECK(grappi_graph_import(g, NULL, path) == GRAPPI_OK);
  CHECK(grappi_graph_counts(g, &nodes, &edges) == GRAPPI_OK);
  CHECK(nodes == 6600 && edges == 176303);
  CHECK(grappi_graph_counts(g, NULL, &edges) == GRAPPI_EINVAL);

  /* Resolve. */
  CHECK(grappi_graph_resolve(g, "cdc28", &cdc28) == GRAPPI_OK && cdc28 > 0);
  CHECK(grappi_graph_resolve(g, "P00546", &id) == GRAPPI_OK && id == cdc28);
  CHECK(grappi_graph_resolve(g, "NO_SUCH_PROTEIN_X", &id) == GRAPPI_ENOTFOUND);
  CHECK(grappi_last_error_code() == GRAPPI_ENOTFOUND);
  CHECK(strstr(grappi_last_error_message(), "NO_SUCH_PROTEIN_X") != NULL);
  CHECK(grappi_graph_resolve(g, NULL, &id) == GRAPPI_EINVAL);
  CHECK(grappi_graph_resolve(g, "cdc28", NULL) == GRAPPI_EINVAL);
  CHECK(grappi_graph_resolve(NULL, "cdc28", &id) == GRAPPI_EINVAL);
  CHECK(grappi_graph_resolve(g, "bad\xff\xfe", &id) != GRAPPI_OK);

  /* Neighbors: the two-call pattern. */
  CHECK(grappi_graph_neighbors(g, cdc28, 0.0, NULL, NULL, 0, &count) == GRAPPI_EBUFS);
  CHECK(count == 416);
  ids = (int64_t *)malloc(count * sizeof *ids);
  scores = (double *)malloc(count * sizeof *scores);
  CHECK(grappi_graph_neighbors(g, cdc28, 0.0, ids, scores, count - 1, &count) == GRAPPI_EBUFS);
  CHECK(grappi_graph_neighbors(g, cdc28, 0.0, ids, scores, count, &count) == GRAPPI_OK);
  for (i = 0; i < count; ++i) {
    if (!(scores[i] >= 0.0 && scores[i] <= 1.0) || ids[i] <= 0) break;
  }
  CHECK(i == count);
  CHECK(grappi_graph_neighbors(g, cdc28, 0.9, ids, NULL, count, &count) == GRAPPI_OK && count < 416);
  CHECK(grappi_graph_neighbors(g, -5, 0.0, ids, scores, 10, &count) == GRAPPI_ENOTFOUND);
  CHECK(grappi_graph_neighbors(g, cdc28, 0.0, NULL, NULL, 5, &count) == GRAPPI_EINVAL);
  CHECK(grappi_graph_neighbors(g, cdc28, 0.0, ids, scores, 5, NULL) == GRAPPI_EINVAL);
  CHECK(grappi_graph_neighbors(NULL, cdc28, 0.0, ids, scores, 5, &count) == GRAPPI_EINVAL);
  free(ids);
  free(scores);

  /* Names are library-allocated and freed with grappi_free. */
  CHECK(grappi_graph_node_name(g, cdc28, &name) == GRAPPI_OK && name && strcmp(name, "CDC28") == 0);
  grappi_free(name);
  name = NULL;
  CHECK(grappi_graph_node_name(g, 99999999, &name) == GRAPPI_ENOTFOUND && name == NULL);
  CHECK(grappi_graph_node_name(g, cdc28, NULL) == GRAPPI_EINVAL);

  /* Embeddings and search. */
  {
    grappi_embed_options eo;
    size_t embedded = 0, n = 0;
    int64_t hit_ids[5];
    float hit_scores[5], qv[2] = {5.0f, 1.0f};
    char *json = NULL;
    grappi_window_options wo;
    size_t ks[2] = {5, 2};
    int64_t pr_ids[3], apoe = 0, seed;
    double pr_scores[3];
    int fail_flag = 1;
    CHECK(grappi_graph_search(g, "kinase", 3, hit_ids, hit_scores, 5, &n) == GRAPPI_ENOTFOUND); /* nothing embedded yet */
    CHECK(grappi_embed_options_init(&eo, 99) == GRAPPI_EINVAL);
    CHECK(grappi_embed_options_init(&eo, GRAPPI_EMBED_OPTIONS_VERSION) == GRAPPI_OK);
    CHECK(grappi_graph_embed(NULL, &eo, &embedded) == GRAPPI_EINVAL);
    CHECK(grappi_graph_embed(g, NULL, &embedded) == GRAPPI_OK && embedded == 6600);
    CHECK(grappi_graph_embed(g, &eo, &embedded) == GRAPPI_OK && embedded == 0);
    CHECK(grappi_graph_search(g, "cyclin-dependent kinase master regulator of mitotic and meiotic cell cycles", 3, NULL,
                              NULL, 0, &n) == GRAPPI_EBUFS && n == 3);
    CHECK(grappi_graph_search(g, "cyclin-dependent kinase master regulator of mitotic and meiotic cell cycles", 3, hit_ids,
                              hit_scores, 5, &n) == GRAPPI_OK && n == 3 && hit_ids[0] == cdc28);
    CHECK(hit_scores[0] >= hit_scores[1] && hit_scores[1] >= hit_scores[2]);
    CHECK(grappi_graph_search(g, "bad\xff", 3, hit_ids, hit_scores, 5, &n) == GRAPPI_EINVAL);
    CHECK(grappi_graph_search(g, NULL, 3, hit_ids, hit_scores, 5, &n) == GRAPPI_EINVAL);
    CHECK(grappi_graph_search_vector(g, qv, 2, 3, hit_ids, hit_scores, 5, &n) == GRAPPI_EINVAL); /* wrong dimension */
    /* A failing callback is an error, and nothing is stored. */
    eo.embedder = "callback";
    eo.model = "c-callback";
    eo.dimension = 2;
    eo.callback = embed_cb;
    eo.user_data = &fail_flag;
    CHECK(grappi_graph_embed(g, &eo, &embedded) == GRAPPI_EINVAL);
    CHECK(strstr(grappi_last_error_message(), "status 7") != NULL);
    fail_flag = 0;
    CHECK(grappi_graph_embed(g, &eo, &embedded) == GRAPPI_OK && embedded == 6600);
    CHECK(grappi_graph_search_vector(g, qv, 2, 3, hit_ids, hit_scores, 5, &n) == GRAPPI_OK && n == 3);
    CHECK(grappi_graph_search(g, "x", 3, hit_ids, hit_scores, 5, &n) == GRAPPI_EINVAL); /* callback model: no text queries */
    eo.embedder = "nonsense";
    CHECK(grappi_graph_embed(g, &eo, &embedded) == GRAPPI_EINVAL);

    /* Windows, paths, k-hop, PageRank. */
    CHECK(grappi_window_options_init(&wo, GRAPPI_WINDOW_OPTIONS_VERSION) == GRAPPI_OK);
    wo.k = ks;
    wo.k_count = 2;
    wo.max_path_length = 2;
    CHECK(grappi_graph_window_json(g, cdc28, &wo, &json) == GRAPPI_OK && json != NULL);
    CHECK(json && strstr(json, "\"root\":\"CDC28\"") != NULL && strstr(json, "\"paths\"") != NULL);
    grappi_free(json);
    json = NULL;
    CHECK(grappi_graph_window_json(g, -1, &wo, &json) == GRAPPI_ENOTFOUND && json == NULL);
    wo.version = 0;
    CHECK(grappi_graph_window_json(g, cdc28, &wo, &json) == GRAPPI_EINVAL);
    CHECK(grappi_graph_window_json(g, cdc28, NULL, NULL) == GRAPPI_EINVAL);
    CHECK(grappi_graph_resolve(g, "CLB2", &apoe) == GRAPPI_OK);
    CHECK(grappi_graph_paths_json(g, cdc28, apoe, 3, 4, 1, &json) == GRAPPI_OK && json && strstr(json, "\"proteins\"") != NULL);
    grappi_free(json);
    json = NULL;
    CHECK(grappi_graph_paths_json(g, cdc28, cdc28, 3, 4, 0, &json) == GRAPPI_EINVAL);
    eo.embedder = "hashing";
    CHECK(grappi_graph_embed(g, &eo, &embedded) == GRAPPI_OK); /* the latest model is hashing again */
    CHECK(grappi_graph_khop_json(g, "DNA polymerase delta", 2, 1, 5, &json) == GRAPPI_OK && json && strstr(json, "\"seeds\"") != NULL);
    grappi_free(json);
    json = NULL;
    CHECK(grappi_graph_khop_json(g, NULL, 2, 1, 5, &json) == GRAPPI_EINVAL);
    seed = cdc28;
    CHECK(grappi_graph_pagerank(g, &seed, 1, 0.85, pr_ids, pr_scores, 3, &n) == GRAPPI_OK && n == 3 && pr_ids[0] == cdc28);
    CHECK(pr_scores[0] >= pr_scores[1]);
    CHECK(grappi_graph_pagerank(g, NULL, 0, 0.85, pr_ids, pr_scores, 3, &n) == GRAPPI_OK && n == 3);
    CHECK(grappi_graph_pagerank(g, &seed, 1, 1.5, pr_ids, pr_scores, 3, &n) == GRAPPI_EINVAL);
    CHECK(grappi_graph_pagerank(g, NULL, 1, 0.85, pr_ids, pr_scores, 3, &n) == GRAPPI_EINVAL);
  }

  /* PCST retrieval. */
  {
    grappi_retrieve_options ro;
    char *json = NULL;
    CHECK(grappi_retrieve_options_init(&ro, 3) == GRAPPI_EINVAL);
    CHECK(grappi_retrieve_options_init(&ro, GRAPPI_RETRIEVE_OPTIONS_VERSION) == GRAPPI_OK && ro.topk == 3 && ro.seeds == 10);
    CHECK(grappi_graph_retrieve(g, "cyclin-dependent kinase of the cell cycle", &ro, 0, &json) == GRAPPI_OK && json != NULL);
    CHECK(json && strstr(json, "\"objective\"") != NULL && strstr(json, "\"virtual_nodes\"") != NULL);
    grappi_free(json);
    json = NULL;
    ro.mode = "prize";
    ro.pruning = "STRONG";
    CHECK(grappi_graph_retrieve(g, "cyclin-dependent kinase of the cell cycle", &ro, 1, &json) == GRAPPI_OK && json != NULL);
    CHECK(json && strncmp(json, "node_id,node_attr\n", 18) == 0 && strstr(json, "\nsrc,edge_attr,dst\n") != NULL);
    grappi_free(json);
    json = NULL;
    ro.mode = "nonsense";
    CHECK(grappi_graph_retrieve(g, "kinase", &ro, 0, &json) == GRAPPI_EINVAL && json == NULL);
    ro.mode = NULL;
    ro.pruning = "fastest";
    CHECK(grappi_graph_retrieve(g, "kinase", &ro, 0, &json) == GRAPPI_EINVAL);
    CHECK(grappi_graph_retrieve(g, NULL, NULL, 0, &json) == GRAPPI_EINVAL);
    CHECK(grappi_graph_retrieve(NULL, "kinase", NULL, 0, &json) == GRAPPI_EINVAL);
    CHECK(grappi_graph_retrieve(g, "kinase", NULL, 0, NULL) == GRAPPI_EINVAL);
  }

  /* Explore: extractive, callback (with the cache), failures, misuse. */
  {
    grappi_explore_options xo;
    size_t ks[2] = {5, 2}, wins[2] = {1, 2};
    char *json = NULL;
    struct chat_state st = {0, 0};
    int first_calls;
    CHECK(grappi_explore_options_init(&xo, 7) == GRAPPI_EINVAL);
    CHECK(grappi_explore_options_init(NULL, GRAPPI_EXPLORE_OPTIONS_VERSION) == GRAPPI_EINVAL);
    CHECK(grappi_explore_options_init(&xo, GRAPPI_EXPLORE_OPTIONS_VERSION) == GRAPPI_OK);
    CHECK(xo.top == 10 && xo.max_length == 4 && xo.use_cache == 1);
    xo.k = ks;
    xo.k_count = 2;
    xo.max_length = 3;
    CHECK(grappi_graph_explore(g, "CDC28", "cell cycle kinase", &xo, &json) == GRAPPI_OK && json != NULL);
    CHECK(json && strstr(json, "\"paths\"") != NULL && strstr(json, "\"rank\":1") != NULL);
    CHECK(json && strstr(json, "Extractive summary (not generated)") != NULL);
    grappi_free(json);
    json = NULL;
    CHECK(grappi_graph_explore(g, "CDC28", "cell cycle kinase", NULL, &json) == GRAPPI_OK && json != NULL); /* defaults */
    grappi_free(json);
    json = NULL;

    xo.llm = "callback";
    xo.model = "c-test-model";
    xo.chat = chat_cb;
    xo.user_data = &st;
    xo.concurrency = 1;
    xo.windows = wins;
    xo.window_count = 2;
    CHECK(grappi_graph_explore(g, "CDC28", "cell cycle kinase", &xo, &json) == GRAPPI_OK && json != NULL);
    CHECK(st.calls > 5);
    CHECK(json && strstr(json, "\"relevance_score\":77.0") != NULL && strstr(json, "edge from C") != NULL);
    CHECK(json && strstr(json, "\"cache_hits\":0") != NULL);
    grappi_free(json);
    json = NULL;
    first_calls = st.calls;
    CHECK(grappi_graph_explore(g, "CDC28", "cell cycle kinase", &xo, &json) == GRAPPI_OK && json != NULL);
    CHECK(st.calls == first_calls); /* everything came from the cache */
    CHECK(json && strstr(json, "\"model_calls\":0") != NULL);
    grappi_free(json);
    json = NULL;
    xo.use_cache = 0;
    xo.dry_run = 1;
    CHECK(grappi_graph_explore(g, "CDC28", "cell cycle kinase", &xo, &json) == GRAPPI_OK && json != NULL);
    CHECK(st.calls == first_calls && json && strstr(json, "\"plan\"") != NULL);
    grappi_free(json);
    json = NULL;
    xo.dry_run = 0;
    st.fail = 1;
    xo.max_calls = 4;
    CHECK(grappi_graph_explore(g, "CDC28", "cell cycle kinase", &xo, &json) == GRAPPI_OK && json != NULL);
    CHECK(st.calls == first_calls + 4);
    CHECK(json && strstr(json, "chat callback returned 3: c says no") != NULL && strstr(json, "\"partial\":true") != NULL);
    grappi_free(json);
    json = NULL;
    st.fail = 0;

    /* Misuse. */
    CHECK(grappi_graph_explore(NULL, "CDC28", "q", &xo, &json) == GRAPPI_EINVAL && json == NULL);
    CHECK(grappi_graph_explore(g, NULL, "q", &xo, &json) == GRAPPI_EINVAL);
    CHECK(grappi_graph_explore(g, "CDC28", "bad\xff", &xo, &json) == GRAPPI_EINVAL);
    CHECK(grappi_graph_explore(g, "CDC28", "q", &xo, NULL) == GRAPPI_EINVAL);
    CHECK(grappi_graph_explore(g, "NO_SUCH_PROTEIN_X", "q", &xo, &json) == GRAPPI_ENOTFOUND && json == NULL);
    xo.chat = NULL;
    CHECK(grappi_graph_explore(g, "CDC28", "q", &xo, &json) == GRAPPI_EINVAL);
    CHECK(strstr(grappi_last_error_message(), "needs chat") != NULL);
    xo.llm = "gpt";
    CHECK(grappi_graph_explore(g, "CDC28", "q", &xo, &json) == GRAPPI_EINVAL);
    xo.llm = "openai";
    xo.model = NULL;
    CHECK(grappi_graph_explore(g, "CDC28", "q", &xo, &json) == GRAPPI_EINVAL);
    xo.llm = NULL;
    xo.k = NULL;
    CHECK(grappi_graph_explore(g, "CDC28", "q", &xo, &json) == GRAPPI_EINVAL); /* k_count without k */
    xo.version = 0;
    CHECK(grappi_graph_explore(g, "CDC28", "q", &xo, &json) == GRAPPI_EINVAL);
    CHECK(grappi_chat_reply_set(NULL, "x", 0, 0) == GRAPPI_EINVAL);
    CHECK(grappi_chat_reply_set_error(NULL, "x") == GRAPPI_EINVAL);
  }

  grappi_graph_free(g);

  /* PCST on plain arrays: the first golden case, then misuse. */
  {
    double prizes[3] = {0, 5, 6}, costs[2] = {3, 4}, objective = -1, bad_costs[2] = {3, -4};
    int64_t edges[4] = {0, 1, 1, 2}, bad_edges[4] = {0, 1, 1, 7}, nodes[3], sel[2];
    size_t nn = 99, ne = 99;
    CHECK(grappi_pcst_solve(3, prizes, 2, edges, costs, -1, 1, "GW", nodes, &nn, sel, &ne, &objective) == GRAPPI_OK);
    CHECK(nn == 2 && nodes[0] == 1 && nodes[1] == 2 && ne == 1 && sel[0] == 1);
    CHECK(objective > 3.999 && objective < 4.001);
    CHECK(grappi_pcst_solve(3, prizes, 2, edges, costs, 0, 1, "none", nodes, &nn, sel, &ne, NULL) == GRAPPI_OK && nn == 3 && ne == 2);
    CHECK(grappi_pcst_solve(3, prizes, 2, edges, costs, 0, 2, "gw", nodes, &nn, sel, &ne, NULL) == GRAPPI_EINVAL);
    CHECK(grappi_pcst_solve(3, prizes, 2, bad_edges, costs, -1, 1, "gw", nodes, &nn, sel, &ne, NULL) == GRAPPI_EINVAL);
    CHECK(grappi_pcst_solve(3, prizes, 2, edges, bad_costs, -1, 1, "gw", nodes, &nn, sel, &ne, NULL) == GRAPPI_EINVAL);
    CHECK(strstr(grappi_last_error_message(), "edge 1") != NULL);
    CHECK(grappi_pcst_solve(3, prizes, 2, edges, costs, -1, 1, "fastest", nodes, &nn, sel, &ne, NULL) == GRAPPI_EINVAL);
    CHECK(grappi_pcst_solve(3, NULL, 2, edges, costs, -1, 1, "gw", nodes, &nn, sel, &ne, NULL) == GRAPPI_EINVAL);
    CHECK(grappi_pcst_solve(3, prizes, 2, edges, costs, -1, 1, "gw", nodes, NULL, sel, &ne, NULL) == GRAPPI_EINVAL);
    /* flags: pcst_fast's own order and the improvement phase give the same tree here */
    nn = ne = 99;
    objective = -1;
    CHECK(grappi_pcst_solve_flags(3, prizes, 2, edges, costs, -1, 1, "strong", GRAPPI_PCST_REFERENCE_ORDER | GRAPPI_PCST_IMPROVE,
                                  nodes, &nn, sel, &ne, &objective) == GRAPPI_OK);
    CHECK(nn == 2 && nodes[0] == 1 && nodes[1] == 2 && ne == 1 && sel[0] == 1 && objective > 3.999 && objective < 4.001);
    CHECK(grappi_pcst_solve_flags(3, prizes, 2, edges, costs, -1, 1, "gw", 8u, nodes, &nn, sel, &ne, NULL) == GRAPPI_EINVAL);
    CHECK(strstr(grappi_last_error_message(), "flags") != NULL);
  }

  /* Read-only reopen. */
  opts.read_only = 1;
  CHECK(grappi_graph_open(db, &opts, &g) == GRAPPI_OK);
  snprintf(path, sizeof path, "%s/4932.protein.info.v12.0.txt.gz", data);
  CHECK(grappi_graph_import(g, "info", path) == GRAPPI_EINVAL);
  CHECK(grappi_graph_resolve(g, "CDC28", &id) == GRAPPI_OK && id == cdc28);
  grappi_graph_free(g);

  remove(db);
  snprintf(path, sizeof path, "%s-wal", db);
  remove(path);
  snprintf(path, sizeof path, "%s-shm", db);
  remove(path);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
