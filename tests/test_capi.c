/* C99 test of the C API: every function, including misuse. Prints "N passed, N failed". */
#include <grappi/grappi.h>

#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ten_abstracts.h"

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

/* A run's control: cancel once the chat callback has answered three requests of this run. */
struct run_state {
  struct chat_state *chat;
  int start_calls;
  int cancel_polls;
  int progress_calls;
  char last_stage[32];
};
static int32_t cancel_after(void *user) {
  struct run_state *rs = (struct run_state *)user;
  if (rs->cancel_polls++ == 0) rs->start_calls = rs->chat->calls;
  return rs->chat->calls - rs->start_calls >= 3;
}
static void progress_cb(void *user, const char *stage, size_t done, size_t total) {
  struct run_state *rs = (struct run_state *)user;
  rs->progress_calls++;
  (void)done;
  (void)total;
  strncpy(rs->last_stage, stage, sizeof rs->last_stage - 1);
  rs->last_stage[sizeof rs->last_stage - 1] = '\0';
}

/* A grounding model in C: a scripted summary, 5 for MI:0407 and 1 for any other term (one term
 * per request), and the first term offered as the pick. */
static int32_t ground_cb(void *user, const char *request_json, grappi_chat_reply *reply) {
  const char *terms = strstr(request_json, "\"terms\":[");
  const char *id = terms ? strstr(terms, "\"id\":\"") : NULL;
  char answer[128];
  ++*(int *)user;
  if (strstr(request_json, "\"kind\":\"ground.summary\"") != NULL)
    return grappi_chat_reply_set(reply, "{\"summary\": \"They bind directly.\", \"quotes\": [\"Sic1 binds Cdc28\"]}", 30, 9);
  if (!id) return 1;
  id += 6;
  if (strstr(request_json, "\"kind\":\"ground.pick\"") != NULL)
    snprintf(answer, sizeof answer, "{\"term\": \"%.7s\", \"confidence\": 4}", id);
  else
    snprintf(answer, sizeof answer, "{\"score\": %d}", strncmp(id, "MI:0407", 7) == 0 ? 5 : 1);
  return grappi_chat_reply_set(reply, answer, 20, 3) == GRAPPI_OK ? 0 : 1;
}

/* An extraction model in C: a statement the validator rejects, then its correction in the
 * repair turn. */
static int32_t extract_cb(void *user, const char *request_json, grappi_chat_reply *reply) {
  ++*(int *)user;
  if (strstr(request_json, "\"kind\":\"extract.repair\"") != NULL)
    return grappi_chat_reply_set(reply,
                                 "{\"statements\": [{\"index\": 1, \"bel\": \"complex(p(SGD:CDC28), p(SGD:SIC1))\", "
                                 "\"evidence\": \"Sic1 binds Cdc28 directly.\"}]}",
                                 40, 20) == GRAPPI_OK ? 0 : 1;
  return grappi_chat_reply_set(reply,
                               "{\"statements\": [{\"bel\": \"p(SGD:SIC1) interacts p(SGD:CDC28)\", "
                               "\"evidence\": \"Sic1 binds Cdc28 directly.\"}]}",
                               30, 15) == GRAPPI_OK ? 0 : 1;
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

/* Removes a database with its WAL and shared-memory files. */
static void remove_db(const char *db) {
  char p[700];
  remove(db);
  snprintf(p, sizeof p, "%s-wal", db);
  remove(p);
  snprintf(p, sizeof p, "%s-shm", db);
  remove(p);
}

static int same_text(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }
/* A callback model (the agents take a model only as a handle in their run options); concurrency 0:
   the default. */
static grappi_model *callback_model(const char *name, grappi_chat_fn chat, void *user_data, size_t concurrency) {
  grappi_model_options mo = GRAPPI_MODEL_OPTIONS_INIT;
  grappi_model *model = NULL;
  mo.llm = "callback";
  mo.model = name;
  mo.chat = chat;
  mo.user_data = user_data;
  if (concurrency) mo.concurrency = concurrency;
  CHECK(grappi_model_new(&mo, &model) == GRAPPI_OK && model != NULL);
  return model;
}
static int same_budget(grappi_budget_options a, grappi_budget_options b) {
  return a.max_calls == b.max_calls && a.max_tokens == b.max_tokens && a.dry_run == b.dry_run && a.use_cache == b.use_cache;
}

/* Whether Cdc28 - Cln2 is hypothesized with these options (GRAPPI_OK) into a JSON that holds
   every one of needles (NULL-ended). */
static int hypothesis_says(grappi_graph *g, const char *corpus, const grappi_hypothesis_options *ho,
                           const char *const *needles) {
  char *json = NULL;
  int ok = grappi_graph_hypothesize_json(g, "GENE:CDC28", "GENE:CLN2", corpus, ho, &json) == GRAPPI_OK && json;
  for (; ok && *needles; ++needles) ok = strstr(json, *needles) != NULL;
  grappi_free(json);
  return ok;
}

/* The temporal evaluation of hypotheses from C: ten abstracts in PubMed id order, KRAS and MYC
   first named together (with BRAF) after the split at 0.8. */
static void check_eval_hypotheses(void) {
  static const char corpus[] = GRAPPI_TEN_ABSTRACTS;
  const double one[] = {0.8}, two[] = {0.6, 0.8};
  grappi_eval_hypotheses_options eo = GRAPPI_EVAL_HYPOTHESES_OPTIONS_INIT;
  char *json = NULL, *pairs = NULL;
  eo.explain = 0;
  eo.bootstrap = 100;
  eo.splits = one;
  eo.split_count = 1;
  CHECK(grappi_eval_hypotheses_json(NULL, corpus, &eo, &json, &pairs) == GRAPPI_OK && json && pairs);
  CHECK(json && strstr(json, "\"kind\":\"pmid_order\"") && strstr(json, "\"positive\":1"));
  CHECK(json && strstr(json, "\"differences\":{\"level\":0.95,\"resamples\":100,") && strstr(json, "\"unit\":\"pair\""));
  CHECK(pairs && strstr(pairs, "\"names\":[\"KRAS\",\"BRAF\",\"MYC\"],\"positive\":true"));
  grappi_free(json);
  grappi_free(pairs);
  json = pairs = NULL;
  /* The corpus's own split (after_corpus): documents 1 to 8 build the graph, 9 and 10 label. */
  {
    const char *at = strstr(corpus, "9|t|");
    char before[sizeof corpus];
    memcpy(before, corpus, (size_t)(at - corpus));
    before[at - corpus] = '\0';
    eo.after_corpus = at;
    CHECK(grappi_eval_hypotheses_json(NULL, before, &eo, &json, NULL) == GRAPPI_OK && json);
    CHECK(json && strstr(json, "\"kind\":\"given\"") && strstr(json, "\"positive\":1") && strstr(json, "\"before\":8"));
    grappi_free(json);
    json = NULL;
    eo.splits = two;
    eo.split_count = 2;
    CHECK(grappi_eval_hypotheses_json(NULL, before, &eo, &json, NULL) == GRAPPI_EINVAL && json == NULL);
    CHECK(strstr(grappi_last_error_message(), "after_corpus is the split") != NULL);
    eo.splits = one;
    eo.split_count = 1;
    eo.after_corpus = NULL;
  }
  /* Several splits: the means, and no pairs (for one split only). */
  eo.splits = two;
  eo.split_count = 2;
  CHECK(grappi_eval_hypotheses_json(NULL, corpus, &eo, &json, NULL) == GRAPPI_OK && json && strstr(json, "\"means\":{"));
  grappi_free(json);
  json = NULL;
  CHECK(grappi_eval_hypotheses_json(NULL, corpus, &eo, &json, &pairs) == GRAPPI_EINVAL && json == NULL && pairs == NULL);
  CHECK(strstr(grappi_last_error_message(), "out_pairs is for one split") != NULL);
  /* Bad options: no split array, a ranker without its graph, a split outside (0, 1), a
     malformed corpus, a version from the future. */
  eo.splits = NULL;
  CHECK(grappi_eval_hypotheses_json(NULL, corpus, &eo, &json, NULL) == GRAPPI_EINVAL && json == NULL);
  eo.split_count = 0;
  eo.ranker = "paths";
  CHECK(grappi_eval_hypotheses_json(NULL, corpus, &eo, &json, NULL) == GRAPPI_EINVAL && json == NULL);
  CHECK(strstr(grappi_last_error_message(), "pass the graph that holds it") != NULL);
  eo.ranker = NULL;
  eo.splits = (const double[]){1.5};
  eo.split_count = 1;
  CHECK(grappi_eval_hypotheses_json(NULL, corpus, &eo, &json, NULL) == GRAPPI_EINVAL && json == NULL);
  eo.split_count = 0;
  CHECK(grappi_eval_hypotheses_json(NULL, "1|t|x\n1\tnot a line\n", &eo, &json, NULL) == GRAPPI_EPARSE && json == NULL);
  CHECK(grappi_eval_hypotheses_json(NULL, NULL, &eo, &json, NULL) == GRAPPI_EINVAL && json == NULL);
  CHECK(grappi_eval_hypotheses_options_init(&eo, GRAPPI_EVAL_HYPOTHESES_OPTIONS_VERSION + 1) == GRAPPI_EINVAL);
  CHECK(grappi_eval_hypotheses_options_init(&eo, GRAPPI_EVAL_HYPOTHESES_OPTIONS_VERSION) == GRAPPI_OK && eo.bootstrap == 1000);
}

/* Each _INIT macro gives what its _init function gives. */
static void check_init_macros(void) {
  grappi_open_options o1 = GRAPPI_OPEN_OPTIONS_INIT, o2;
  grappi_embed_options e1 = GRAPPI_EMBED_OPTIONS_INIT, e2;
  grappi_window_options w1 = GRAPPI_WINDOW_OPTIONS_INIT, w2;
  grappi_retrieve_options r1 = GRAPPI_RETRIEVE_OPTIONS_INIT, r2;
  grappi_explore_options x1 = GRAPPI_EXPLORE_OPTIONS_INIT, x2;
  grappi_pcst_options p1 = GRAPPI_PCST_OPTIONS_INIT, p2;
  CHECK(grappi_open_options_init(&o2, GRAPPI_OPEN_OPTIONS_VERSION) == GRAPPI_OK);
  CHECK(o1.version == o2.version && o1.read_only == o2.read_only && o1.create == o2.create &&
        o1.busy_timeout_ms == o2.busy_timeout_ms);
  CHECK(grappi_embed_options_init(&e2, GRAPPI_EMBED_OPTIONS_VERSION) == GRAPPI_OK);
  CHECK(e1.version == e2.version && same_text(e1.embedder, e2.embedder) && e1.dimension == e2.dimension &&
        same_text(e1.base_url, e2.base_url) && same_text(e1.model, e2.model) && same_text(e1.api_key_env, e2.api_key_env) &&
        e1.callback == e2.callback && e1.user_data == e2.user_data);
  CHECK(grappi_window_options_init(&w2, GRAPPI_WINDOW_OPTIONS_VERSION) == GRAPPI_OK);
  CHECK(w1.version == w2.version && w1.k == w2.k && w1.k_count == w2.k_count && w1.depth == w2.depth &&
        w1.window == w2.window && w1.min_score == w2.min_score && w1.max_path_length == w2.max_path_length &&
        w1.max_paths == w2.max_paths);
  CHECK(grappi_retrieve_options_init(&r2, GRAPPI_RETRIEVE_OPTIONS_VERSION) == GRAPPI_OK);
  CHECK(r1.version == r2.version && same_text(r1.mode, r2.mode) && r1.seeds == r2.seeds && r1.hops == r2.hops &&
        r1.degree_cap == r2.degree_cap && r1.node_budget == r2.node_budget && r1.min_score == r2.min_score &&
        r1.topk == r2.topk && r1.topk_e == r2.topk_e && r1.cost_e == r2.cost_e && r1.pyg_cap == r2.pyg_cap &&
        r1.alpha == r2.alpha && r1.beta == r2.beta && r1.gamma == r2.gamma && r1.lambda == r2.lambda &&
        same_text(r1.pruning, r2.pruning) && r1.num_clusters == r2.num_clusters && r1.event_order == r2.event_order &&
        r1.relations == r2.relations && r1.relation_count == r2.relation_count);
  CHECK(grappi_explore_options_init(&x2, GRAPPI_EXPLORE_OPTIONS_VERSION) == GRAPPI_OK);
  CHECK(x1.version == x2.version && x1.windows == x2.windows && x1.window_count == x2.window_count && x1.k == x2.k &&
        x1.k_count == x2.k_count && x1.depth == x2.depth && x1.min_score == x2.min_score &&
        x1.max_length == x2.max_length && x1.max_paths == x2.max_paths && x1.top == x2.top &&
        x1.explain_top == x2.explain_top && x1.concurrency == x2.concurrency && same_budget(x1.budget, x2.budget) &&
        x1.budget.use_cache == 1 && x1.run == x2.run && x1.diversity == x2.diversity && x1.max_visited == x2.max_visited);
  {
    grappi_ground_options g1 = GRAPPI_GROUND_OPTIONS_INIT, g2;
    CHECK(grappi_ground_options_init(&g2, GRAPPI_GROUND_OPTIONS_VERSION) == GRAPPI_OK);
    CHECK(g1.version == g2.version && same_text(g1.strategy, g2.strategy) && same_text(g1.root, g2.root) &&
          g1.relations == g2.relations && g1.relation_count == g2.relation_count && g1.batch == g2.batch && g1.chunk_size == g2.chunk_size &&
          g1.chunk_overlap == g2.chunk_overlap && g1.patience == g2.patience && g1.lookahead == g2.lookahead &&
          g1.threshold == g2.threshold && g1.rag_k == g2.rag_k && g1.seed == g2.seed &&
          same_budget(g1.budget, g2.budget) && same_text(g1.ontology, g2.ontology) && g1.run == g2.run);
    CHECK(grappi_ground_options_init(&g2, GRAPPI_GROUND_OPTIONS_VERSION + 1) == GRAPPI_EINVAL);
  }
  {
    grappi_import_options i1 = GRAPPI_IMPORT_OPTIONS_INIT, i2;
    CHECK(grappi_import_options_init(&i2, GRAPPI_IMPORT_OPTIONS_VERSION) == GRAPPI_OK);
    CHECK(i1.version == i2.version && i1.min_score == i2.min_score && i1.skip_bad_lines == i2.skip_bad_lines &&
          i1.max_bad_examples == i2.max_bad_examples && i1.max_rows == i2.max_rows && i1.taxon == i2.taxon &&
          same_text(i1.source_column, i2.source_column) && same_text(i1.target_column, i2.target_column) &&
          same_text(i1.score_column, i2.score_column) && i1.score_scale == i2.score_scale &&
          same_text(i1.relation_column, i2.relation_column) && same_text(i1.relation, i2.relation) &&
          i1.directed == i2.directed && i1.header == i2.header && same_text(i1.label, i2.label) &&
          i1.separator == i2.separator);
    CHECK(grappi_import_options_init(&i2, 2) == GRAPPI_EINVAL);
  }
  {
    grappi_enrich_options n1 = GRAPPI_ENRICH_OPTIONS_INIT, n2;
    CHECK(grappi_enrich_options_init(&n2, GRAPPI_ENRICH_OPTIONS_VERSION) == GRAPPI_OK);
    CHECK(n1.version == n2.version && n1.categories == n2.categories && n1.category_count == n2.category_count &&
          n1.exclude_evidence == n2.exclude_evidence && n1.exclude_evidence_count == n2.exclude_evidence_count &&
          same_text(n1.background, n2.background) && n1.background_proteins == n2.background_proteins &&
          n1.background_protein_count == n2.background_protein_count && n1.min_term_size == n2.min_term_size &&
          n1.max_term_size == n2.max_term_size && n1.max_fdr == n2.max_fdr);
  }
  CHECK(grappi_pcst_options_init(&p2, GRAPPI_PCST_OPTIONS_VERSION) == GRAPPI_OK);
  CHECK(p1.version == p2.version && p1.root == p2.root && p1.num_clusters == p2.num_clusters &&
        same_text(p1.pruning, p2.pruning) && p1.improve == p2.improve && p1.event_order == p2.event_order);
  /* Versions outside 1..current are refused, by _init and by the functions that read options. */
  CHECK(grappi_retrieve_options_init(&r2, 0) == GRAPPI_EINVAL);
  CHECK(grappi_retrieve_options_init(&r2, GRAPPI_RETRIEVE_OPTIONS_VERSION + 1) == GRAPPI_EINVAL);
  CHECK(strstr(grappi_last_error_message(), "grappi_retrieve_options version 2 is not one this library knows (1 to 1") != NULL);
  CHECK(grappi_pcst_options_init(&p2, 2) == GRAPPI_EINVAL);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

/* The whole graph written in `format` and read back into a second database: the same counts. */
static void check_round_trip(grappi_graph *g, const char *db, const char *format) {
  char out[300], db2[300];
  uint64_t nodes_out = 0, edges_out = 0;
  int64_t n1 = -1, e1 = -1, n2 = -2, e2 = -2;
  grappi_graph *copy = NULL;
  snprintf(out, sizeof out, "%s.%s", db, format);
  snprintf(db2, sizeof db2, "%s.copy", db);
  remove_db(db2);
  CHECK(grappi_graph_export(g, format, out, &nodes_out, &edges_out) == GRAPPI_OK);
  CHECK(grappi_graph_counts(g, &n1, &e1) == GRAPPI_OK && n1 > 0 && e1 > 0);
  CHECK((uint64_t)n1 == nodes_out && (uint64_t)e1 == edges_out);
  CHECK(grappi_graph_open(db2, NULL, &copy) == GRAPPI_OK);
  /* JSON lines are recognised by their header; CX2 named. */
  CHECK(grappi_graph_import(copy, strcmp(format, "jsonl") == 0 ? NULL : format, out) == GRAPPI_OK);
  CHECK(grappi_graph_counts(copy, &n2, &e2) == GRAPPI_OK && n2 == n1 && e2 == e1);
  grappi_graph_free(copy);
  remove(out);
  remove_db(db2);
}

/* grappi_graph_import_with: the options of `grappi import` (scores, bad lines, row limits, edge
 * lists' columns) and its JSON report, on a database of its own. */
/* FamPlex's tables (a directory) as families and complexes with the names papers write. */
static void check_famplex(const char *data) {
  char db[256], dir[4096];
  grappi_graph *g = NULL;
  int64_t akt = 0, pkb = 0;
  snprintf(db, sizeof db, "/tmp/grappi_capi_famplex_%ld.db", (long)getpid());
  remove_db(db);
  snprintf(dir, sizeof dir, "%s/famplex", data);
  CHECK(grappi_graph_open(db, NULL, &g) == GRAPPI_OK);
  CHECK(grappi_graph_import(g, "famplex", "/nonexistent-famplex-dir") == GRAPPI_EIO);
  CHECK(strstr(grappi_last_error_message(), "/nonexistent-famplex-dir") != NULL);
  CHECK(grappi_graph_import(g, "famplex", dir) == GRAPPI_OK);
  CHECK(grappi_graph_resolve(g, "Akt", &akt) == GRAPPI_OK && akt > 0);
  CHECK(grappi_graph_resolve(g, "PKB", &pkb) == GRAPPI_OK && pkb == akt);
  CHECK(grappi_graph_resolve(g, "LPS", &pkb) == GRAPPI_ENOTFOUND);
  CHECK(strstr(grappi_last_error_message(), "CHEBI") != NULL);
  grappi_graph_free(g);
  remove_db(db);
}

static void check_import_options(void) {
  char db[256], links[256], edges_csv[256];
  grappi_graph *g = NULL;
  grappi_import_options o;
  char *report = NULL;
  int64_t a = 0, b = 0, nodes = -1, edges = -1, ids[4];
  double scores[4];
  size_t count = 0, i;
  snprintf(db, sizeof db, "/tmp/grappi_capi_import_%ld.db", (long)getpid());
  snprintf(links, sizeof links, "/tmp/grappi_capi_import_%ld.links.txt", (long)getpid());
  snprintf(edges_csv, sizeof edges_csv, "/tmp/grappi_capi_import_%ld.edges.csv", (long)getpid());
  remove_db(db);
  CHECK(grappi_graph_open(db, NULL, &g) == GRAPPI_OK);
  if (!g) return;
  write_file(links,
             "protein1 protein2 combined_score\n"
             "4932.YAA1 4932.YAA2 900\n"
             "4932.YAA1 4932.YAA3 not-a-score\n"
             "4932.YAA3 4932.YAA4 150\n");

  /* Bad line: refused naming it, nothing imported; more lines than max_rows: refused too. */
  CHECK(grappi_import_options_init(&o, GRAPPI_IMPORT_OPTIONS_VERSION) == GRAPPI_OK);
  report = (char *)1;
  CHECK(grappi_graph_import_with(g, "links", links, &o, &report) == GRAPPI_EPARSE && report == NULL);
  CHECK(strstr(grappi_last_error_message(), ":3:") != NULL);
  o.skip_bad_lines = 1;
  o.max_rows = 3;
  CHECK(grappi_graph_import_with(g, "links", links, &o, &report) == GRAPPI_EINVAL && report == NULL);
  CHECK(strstr(grappi_last_error_message(), "more than 3 lines") != NULL);
  CHECK(grappi_graph_counts(g, &nodes, &edges) == GRAPPI_OK && nodes == 0 && edges == 0);

  /* Skipping the bad line, keeping scores of 400 and more. */
  o.max_rows = 4;
  o.min_score = 400;
  CHECK(grappi_graph_import_with(g, "links", links, &o, &report) == GRAPPI_OK && report != NULL);
  CHECK(report && strstr(report, "\"rows_skipped\":1") != NULL && strstr(report, "\"rows_below_min_score\":1") != NULL &&
        strstr(report, "\"edges_created\":1") != NULL && strstr(report, "not-a-score") != NULL);
  grappi_free(report);
  report = NULL;
  CHECK(grappi_graph_counts(g, &nodes, &edges) == GRAPPI_OK && edges == 1);

  /* An edge list: CSV with a header, named columns, scores on a 0-1000 scale, a relation column. */
  write_file(edges_csv,
             "gene_a,gene_b,weight,kind\n"
             "CDK1,CCNB1,800,binds\n"
             "CDK1,CDKN1A,600,inhibited_by\n");
  CHECK(grappi_import_options_init(&o, GRAPPI_IMPORT_OPTIONS_VERSION) == GRAPPI_OK);
  o.source_column = "gene_a";
  o.target_column = "gene_b";
  o.score_column = "weight";
  o.relation_column = "kind";
  o.header = 1;
  o.separator = ',';
  o.score_scale = 0; /* not positive */
  CHECK(grappi_graph_import_with(g, "edges", edges_csv, &o, NULL) == GRAPPI_EINVAL);
  o.score_scale = 1; /* 800 is not a score in [0,1] */
  CHECK(grappi_graph_import_with(g, "edges", edges_csv, &o, NULL) == GRAPPI_EPARSE);
  CHECK(strstr(grappi_last_error_message(), ":2:") != NULL);
  o.score_scale = 1000;
  CHECK(grappi_graph_import_with(g, "edges", edges_csv, &o, NULL) == GRAPPI_OK);
  CHECK(grappi_graph_resolve(g, "CDK1", &a) == GRAPPI_OK && grappi_graph_resolve(g, "CCNB1", &b) == GRAPPI_OK);
  CHECK(grappi_graph_neighbors(g, a, 0.0, ids, scores, 4, &count) == GRAPPI_OK && count == 2);
  for (i = 0; i < 2 && i < count; ++i)
    if (ids[i] == b) break;
  CHECK(i < 2 && i < count); /* CCNB1 is a neighbour of CDK1, */
  if (i < 2 && i < count) CHECK(scores[i] > 0.7999 && scores[i] < 0.8001); /* scoring 800/1000 */
  CHECK(grappi_graph_counts(g, &nodes, &edges) == GRAPPI_OK && edges == 3);

  /* Options out of range are refused before anything is read. */
  CHECK(grappi_import_options_init(&o, GRAPPI_IMPORT_OPTIONS_VERSION) == GRAPPI_OK);
  o.min_score = 1001;
  CHECK(grappi_graph_import_with(g, "links", links, &o, NULL) == GRAPPI_EINVAL);
  o.min_score = 0;
  o.separator = ';';
  CHECK(grappi_graph_import_with(g, "edges", edges_csv, &o, NULL) == GRAPPI_EINVAL);
  CHECK(strstr(grappi_last_error_message(), "separator") != NULL);
  o.separator = 0;
  o.header = 2;
  CHECK(grappi_graph_import_with(g, "edges", edges_csv, &o, NULL) == GRAPPI_EINVAL);
  o.header = -1;
  o.version = 2;
  CHECK(grappi_graph_import_with(g, "edges", edges_csv, &o, NULL) == GRAPPI_EINVAL);
  CHECK(grappi_graph_import_with(NULL, "edges", edges_csv, NULL, NULL) == GRAPPI_EINVAL);
  CHECK(strstr(grappi_last_error_message(), "grappi_graph_import_with:") != NULL);
  CHECK(grappi_graph_counts(g, &nodes, &edges) == GRAPPI_OK && edges == 3);
  /* This graph through JSON lines and through CX2 (Cytoscape, NDEx). */
  check_round_trip(g, db, "jsonl");
  check_round_trip(g, db, "cx2");
  grappi_graph_free(g);
  remove_db(db);
  remove(links);
  remove(edges_csv);
}

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

  check_init_macros();
  check_eval_hypotheses();
  check_import_options();
  check_famplex(data);

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
  CHECK(strstr(grappi_last_error_message(), "grappi_graph_import:") != NULL);
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
  {
    /* Named, strongest first, by name or by id; relations and a limit. */
    char *nj = NULL, *byid = NULL;
    const char *physical[] = {"string.physical"};
    CHECK(grappi_graph_neighbors_json(g, "cdc28", 0, 0.0, NULL, 0, 3, &nj) == GRAPPI_OK && nj);
    CHECK(nj && strstr(nj, "\"protein\":{\"external_id\":\"4932.YBR160W\"") != NULL && strstr(nj, "\"degree\":416") != NULL);
    CHECK(grappi_graph_neighbors_json(g, NULL, cdc28, 0.0, NULL, 0, 3, &byid) == GRAPPI_OK && byid);
    CHECK(nj && byid && strcmp(nj, byid) == 0);
    grappi_free(nj);
    grappi_free(byid);
    nj = NULL;
    CHECK(grappi_graph_neighbors_json(g, "CDC28", 0, 0.0, physical, 1, 0, &nj) == GRAPPI_OK && nj);
    CHECK(nj && strstr(nj, "string.combined") == NULL);
    grappi_free(nj);
    nj = NULL;
    CHECK(grappi_graph_neighbors_json(g, "NO_SUCH_PROTEIN", 0, 0.0, NULL, 0, 0, &nj) == GRAPPI_ENOTFOUND && nj == NULL);
    CHECK(grappi_graph_neighbors_json(g, NULL, -5, 0.0, NULL, 0, 0, &nj) == GRAPPI_ENOTFOUND);
    CHECK(grappi_graph_neighbors_json(g, "CDC28", 0, 0.0, NULL, 0, 0, NULL) == GRAPPI_EINVAL);
  }

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
    {
      /* The same embedding in parts: the embedder written once, two parts, merged. */
      char efile[700], vfile[2][700];
      const char *vfiles[2];
      size_t part;
      snprintf(efile, sizeof efile, "%s.embedder", db);
      eo.embedder = "hashing";
      eo.dimension = 64;
      CHECK(grappi_graph_embed_plan_json(g, &eo, efile, &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"pending\":6600") != NULL && strstr(json, "\"kind\":\"hashing\"") != NULL);
      grappi_free(json);
      json = NULL;
      for (part = 0; part < 2; ++part) {
        snprintf(vfile[part], sizeof vfile[part], "%s.vectors%d", db, (int)part);
        vfiles[part] = vfile[part];
        CHECK(grappi_graph_embed_part_json(g, efile, part, 2, vfile[part], "{\"worker\": \"c\"}", &json) == GRAPPI_OK && json);
        CHECK(json && strstr(json, "\"embedded\":3300") != NULL);
        grappi_free(json);
        json = NULL;
      }
      CHECK(grappi_graph_embed_part_json(g, efile, 2, 2, vfile[0], NULL, &json) == GRAPPI_EINVAL && json == NULL);
      CHECK(grappi_graph_embed_merge_json(g, efile, vfiles, 1, &json) == GRAPPI_OK && json); /* a part missing */
      CHECK(json && strstr(json, "\"from_parts\":3300") != NULL && strstr(json, "\"embedded_here\":3300") != NULL);
      grappi_free(json);
      json = NULL;
      CHECK(grappi_graph_embed_merge_json(g, efile, vfiles, 2, &json) == GRAPPI_OK && json); /* nothing left to embed */
      CHECK(json && strstr(json, "\"embedded\":0") != NULL && strstr(json, "\"unchanged\":6600") != NULL);
      grappi_free(json);
      json = NULL;
      CHECK(grappi_graph_embed_merge_json(g, vfile[0], vfiles, 2, &json) == GRAPPI_EPARSE && json == NULL);
      eo.embedder = "callback";
      CHECK(grappi_graph_embed_plan_json(g, &eo, efile, &json) == GRAPPI_EINVAL && json == NULL);
      eo.embedder = NULL;
      eo.dimension = 0;
      remove(efile);
      remove(vfile[0]);
      remove(vfile[1]);
    }
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
    {
      const float nan_query[2] = {NAN, 1.0f};
      CHECK(grappi_graph_search_vector(g, nan_query, 2, 3, hit_ids, hit_scores, 5, &n) == GRAPPI_EINVAL);
      CHECK(strstr(grappi_last_error_message(), "not a finite number") != NULL);
    }
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
    /* The paths are bounded up front, as explore's are (2^31-1 edges or SIZE_MAX paths ran out of memory). */
    wo.max_path_length = 13;
    CHECK(grappi_graph_window_json(g, cdc28, &wo, &json) == GRAPPI_EINVAL && json == NULL);
    CHECK(strstr(grappi_last_error_message(), "1 to 12 edges") != NULL);
    wo.max_path_length = 2;
    wo.max_paths = (size_t)-1;
    CHECK(grappi_graph_window_json(g, cdc28, &wo, &json) == GRAPPI_EINVAL && json == NULL);
    wo.max_paths = 100000;
    wo.version = 0;
    CHECK(grappi_graph_window_json(g, cdc28, &wo, &json) == GRAPPI_EINVAL);
    CHECK(grappi_graph_window_json(g, cdc28, NULL, NULL) == GRAPPI_EINVAL);
    CHECK(grappi_graph_resolve(g, "CLB2", &apoe) == GRAPPI_OK);
    CHECK(grappi_graph_paths_json(g, cdc28, apoe, 3, 4, 1, &json) == GRAPPI_OK && json && strstr(json, "\"proteins\"") != NULL);
    grappi_free(json);
    json = NULL;
    CHECK(grappi_graph_paths_json(g, cdc28, cdc28, 3, 4, 0, &json) == GRAPPI_EINVAL);
    /* Every shortest path: here the direct edge alone; without it, the paths through one partner,
       as many as Yen's enumeration finds of two edges. */
    CHECK(grappi_graph_all_shortest_paths_json(g, cdc28, apoe, 3, 100, 0, &json) == GRAPPI_OK && json);
    CHECK(json && strstr(json, "\"length\":1") != NULL && strstr(json, "\"length\":2") == NULL);
    grappi_free(json);
    json = NULL;
    {
      char *yen = NULL;
      size_t two = 0;
      const char *at;
      CHECK(grappi_graph_all_shortest_paths_json(g, cdc28, apoe, 3, 100, 1, &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"length\":1") == NULL && strstr(json, "\"length\":2") != NULL);
      CHECK(grappi_graph_paths_json(g, cdc28, apoe, 2, 100, 0, &yen) == GRAPPI_OK && yen);
      for (at = yen; at && (at = strstr(at, "\"length\":2")) != NULL; at++) two++;
      for (at = json; at && (at = strstr(at, "\"length\":2")) != NULL; at++) two--;
      CHECK(two == 0);
      grappi_free(yen);
      grappi_free(json);
      json = NULL;
    }
    CHECK(grappi_graph_all_shortest_paths_json(g, cdc28, apoe, 3, 0, 0, &json) == GRAPPI_EINVAL && json == NULL);
    CHECK(grappi_graph_all_shortest_paths_json(g, cdc28, apoe, 3, 4, 0, NULL) == GRAPPI_EINVAL);
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
    char *json = NULL, *csv = NULL;
    const char *question = "cyclin-dependent kinase of the cell cycle";
    CHECK(grappi_retrieve_options_init(&ro, GRAPPI_RETRIEVE_OPTIONS_VERSION + 1) == GRAPPI_EINVAL);
    CHECK(grappi_retrieve_options_init(&ro, GRAPPI_RETRIEVE_OPTIONS_VERSION) == GRAPPI_OK && ro.topk == 3 && ro.seeds == 10);
    CHECK(ro.event_order == GRAPPI_PCST_ORDER_DEFAULT);
    CHECK(grappi_graph_retrieve_json(g, question, &ro, &json) == GRAPPI_OK && json != NULL);
    CHECK(json && strstr(json, "\"objective\"") != NULL && strstr(json, "\"virtual_nodes\"") != NULL);
    ro.hops = SIZE_MAX; /* stops when a hop reaches nothing new */
    ro.node_budget = 0;
    CHECK(grappi_graph_retrieve_json(g, question, &ro, &csv) == GRAPPI_OK && csv != NULL);
    grappi_free(csv);
    csv = NULL;
    ro.hops = 2;
    ro.node_budget = 2000;
    ro.alpha = NAN;
    ro.mode = "prize";
    CHECK(grappi_graph_retrieve_json(g, question, &ro, &csv) == GRAPPI_EINVAL && csv == NULL);
    ro.alpha = 1.0;
    ro.mode = "prize";
    ro.pruning = "STRONG";
    CHECK(grappi_graph_retrieve_csv(g, question, &ro, &csv) == GRAPPI_OK && csv != NULL);
    CHECK(csv && strncmp(csv, "node_id,node_attr\n", 18) == 0 && strstr(csv, "\nsrc,edge_attr,dst\n") != NULL);
    grappi_free(csv);
    csv = NULL;
    ro.event_order = GRAPPI_PCST_ORDER_REFERENCE;
    CHECK(grappi_graph_retrieve_json(g, question, &ro, &csv) == GRAPPI_OK && csv != NULL);
    grappi_free(csv);
    csv = NULL;
    ro.event_order = 7;
    CHECK(grappi_graph_retrieve_json(g, question, &ro, &csv) == GRAPPI_EINVAL && csv == NULL);
    CHECK(strstr(grappi_last_error_message(), "event_order 7") != NULL);
    ro.event_order = GRAPPI_PCST_ORDER_DEFAULT;
    {
      /* The relations the subgraph follows, as a list; an unknown one is refused,
         a count without a list too. */
      const char *physical[] = {"string.physical"}, *unknown[] = {"string.nothing"};
      ro.mode = "gretriever";
      ro.pruning = "gw";
      ro.relations = physical;
      ro.relation_count = 1;
      CHECK(grappi_graph_retrieve_json(g, question, &ro, &csv) == GRAPPI_OK && csv != NULL);
      CHECK(csv && strstr(csv, "\"relation\":\"string.physical\"") != NULL);
      grappi_free(csv);
      csv = NULL;
      ro.relations = unknown;
      CHECK(grappi_graph_retrieve_json(g, question, &ro, &csv) == GRAPPI_EINVAL && csv == NULL);
      CHECK(strstr(grappi_last_error_message(), "string.nothing") != NULL);
      ro.relations = NULL;
      CHECK(grappi_graph_retrieve_json(g, question, &ro, &csv) == GRAPPI_EINVAL && csv == NULL);
      ro.relation_count = 0;
    }

    /* A grounded answer (offline) and the QA evaluation. */
    {
      grappi_ask_options ao;
      char *rows = NULL;
      CHECK(grappi_ask_options_init(&ao, GRAPPI_ASK_OPTIONS_VERSION + 1) == GRAPPI_EINVAL);
      CHECK(grappi_ask_options_init(&ao, GRAPPI_ASK_OPTIONS_VERSION) == GRAPPI_OK && ao.answers == 10 && ao.repair == 1);
      CHECK(grappi_graph_ask_json(g, "Which proteins interact with CDC28?", NULL, &ao, &csv) == GRAPPI_OK && csv != NULL);
      CHECK(csv && strstr(csv, "\"answer_entities\"") != NULL && strstr(csv, "\"status\":\"extractive\"") != NULL);
      CHECK(csv && strstr(csv, "\"answer\":{") != NULL && strstr(csv, "\"form\":\"list\"") != NULL);
      grappi_free(csv);
      csv = NULL;
      /* The answer in the question's form: yes/no; and an open question no rule reads, said so. */
      CHECK(grappi_graph_ask_json(g, "Does CDC28 interact with CLN2?", NULL, &ao, &csv) == GRAPPI_OK && csv != NULL);
      CHECK(csv && strstr(csv, "\"form\":\"yes_no\"") != NULL && strstr(csv, "\"value\":true") != NULL);
      grappi_free(csv);
      csv = NULL;
      CHECK(grappi_graph_ask_json(g, question, NULL, &ao, &csv) == GRAPPI_OK && csv != NULL);
      CHECK(csv && strstr(csv, "\"form\":\"unsupported\"") != NULL && strstr(csv, "\"reason\"") != NULL);
      grappi_free(csv);
      csv = NULL;
      /* What a question asks: CDC28's partners (its name in lower case), then with intents off. */
      CHECK(ao.intents == 1 && ao.model_intent == 1 && ao.intent_candidates == 50);
      CHECK(grappi_graph_analyze_question_json(g, "Which proteins interact with cdc28?", &csv) == GRAPPI_OK && csv != NULL);
      CHECK(csv && strstr(csv, "\"intent\":\"partners\"") != NULL && strstr(csv, "\"name\":\"CDC28\"") != NULL &&
            strstr(csv, "\"text\":\"cdc28\"") != NULL);
      grappi_free(csv);
      csv = NULL;
      CHECK(grappi_graph_analyze_question_json(g, "", &csv) == GRAPPI_EINVAL && csv == NULL);
      CHECK(grappi_graph_analyze_question_json(g, "cdc28?", NULL) == GRAPPI_EINVAL);
      CHECK(grappi_graph_ask_json(g, "Which proteins interact with cdc28?", NULL, &ao, &csv) == GRAPPI_OK && csv != NULL);
      CHECK(csv && strstr(csv, "\"recipe\":\"the partners of CDC28 by edge score\"") != NULL);
      grappi_free(csv);
      csv = NULL;
      ao.intents = 0;
      CHECK(grappi_graph_ask_json(g, "Which proteins interact with cdc28?", NULL, &ao, &csv) == GRAPPI_OK && csv != NULL);
      CHECK(csv && strstr(csv, "\"recipe\":\"PCST over the question") != NULL);
      grappi_free(csv);
      csv = NULL;
      ao.intents = 1;
      ao.intent_candidates = 0;
      CHECK(grappi_graph_ask_json(g, "Which proteins interact with cdc28?", NULL, &ao, &csv) == GRAPPI_EINVAL && csv == NULL);
      CHECK(strstr(grappi_last_error_message(), "intent_candidates") != NULL);
      ao.intent_candidates = 50;
      {
        char *html = NULL;
        CHECK(grappi_graph_ask_report(g, question, NULL, &ao, &csv, &html) == GRAPPI_OK && csv != NULL && html != NULL);
        CHECK(html && strstr(html, "Answer</h2>") != NULL);
        grappi_free(csv);
        grappi_free(html);
        csv = NULL;
      }
      {
        const char *weighted[] = {"string.physical"};
        const double bad[] = {-1.0};
        ao.weighted_relations = weighted;
        ao.relation_weights = bad;
        ao.relation_weight_count = 1;
        CHECK(grappi_graph_ask_json(g, question, NULL, &ao, &csv) == GRAPPI_EINVAL && csv == NULL);
        CHECK(strstr(grappi_last_error_message(), "string.physical") != NULL);
        ao.relation_weights = NULL;
        CHECK(grappi_graph_ask_json(g, question, NULL, &ao, &csv) == GRAPPI_EINVAL && csv == NULL);
        CHECK(strstr(grappi_last_error_message(), "relation_weights is NULL") != NULL);
        ao.weighted_relations = NULL;
        ao.relation_weight_count = 0;
      }
      CHECK(grappi_graph_ask_json(g, "", NULL, &ao, &csv) == GRAPPI_EINVAL && csv == NULL);
      CHECK(grappi_graph_eval_qa_json(g, "{\"question\": \"Which kinase drives the cell cycle?\", \"answers\": [\"CDC28\"]}\n",
                                      NULL, NULL, 5, &csv, &rows) == GRAPPI_OK);
      CHECK(csv && strstr(csv, "\"hits_at_1\"") != NULL && rows && strstr(rows, "\"answer_entities\"") != NULL);
      grappi_free(csv);
      grappi_free(rows);
      csv = rows = NULL;
      CHECK(grappi_graph_eval_qa_json(g, "{\"answers\": []}\n", NULL, NULL, 0, &csv, NULL) == GRAPPI_EPARSE && csv == NULL);
      CHECK(strstr(grappi_last_error_message(), "questions:1") != NULL);
    }

    /* The graph reader: trained on a few questions about partners, stored, scoring a subgraph,
     * ranking ask's answer entities. */
    {
      const char *train =
          "{\"question\": \"Which proteins bind the cyclin-dependent kinase CDC28?\", \"answers\": [\"CKS1\", \"CLN2\", \"CLB2\", \"SIC1\"]}\n"
          "{\"question\": \"Which proteins bind the kinase PHO85?\", \"answers\": [\"PHO80\", \"PCL1\", \"PCL2\"]}\n"
          "{\"question\": \"Which proteins bind the kinase KIN28?\", \"answers\": [\"CCL1\", \"TFB3\"]}\n";
      grappi_reader_options rdo;
      grappi_ask_options ao;
      CHECK(grappi_reader_options_init(&rdo, 0) == GRAPPI_EINVAL);
      CHECK(grappi_reader_options_init(&rdo, GRAPPI_READER_OPTIONS_VERSION) == GRAPPI_OK && rdo.epochs == 60 &&
            rdo.hidden == 64 && strcmp(rdo.scope, "subgraph") == 0);
      rdo.scope = "base";
      rdo.epochs = 3;
      rdo.hidden = 8;
      rdo.heads = 2;
      rdo.name = "c-reader";
      CHECK(grappi_graph_train_reader_json(g, train, NULL, NULL, NULL, &rdo, &csv) == GRAPPI_OK && csv != NULL);
      CHECK(csv && strstr(csv, "\"best_epoch\"") != NULL && strstr(csv, "\"fingerprint\"") != NULL);
      grappi_free(csv);
      csv = NULL;
      CHECK(grappi_ask_options_init(&ao, GRAPPI_ASK_OPTIONS_VERSION) == GRAPPI_OK && strcmp(ao.reader, "prize") == 0);
      ao.reader_name = "c-reader";
      CHECK(grappi_graph_reader_scores_json(g, "Which proteins bind the kinase CDC28?", NULL, &ao, &csv) == GRAPPI_OK);
      CHECK(csv && strstr(csv, "\"scope\":\"base\"") != NULL && strstr(csv, "\"score\"") != NULL);
      grappi_free(csv);
      csv = NULL;
      ao.reader = "gat";
      CHECK(grappi_graph_ask_json(g, "Which proteins bind the kinase CDC28?", NULL, &ao, &csv) == GRAPPI_OK);
      CHECK(csv && strstr(csv, "\"reader_score\"") != NULL);
      grappi_free(csv);
      csv = NULL;
      ao.reader_name = "no-such-reader";
      CHECK(grappi_graph_ask_json(g, "Which proteins bind the kinase CDC28?", NULL, &ao, &csv) == GRAPPI_ENOTFOUND && csv == NULL);
      CHECK(grappi_graph_reader_scores_json(g, "CDC28?", NULL, &ao, &csv) == GRAPPI_ENOTFOUND && csv == NULL);
      CHECK(strstr(grappi_last_error_message(), "no graph reader named 'no-such-reader'") != NULL);
      ao.reader = "bert";
      CHECK(grappi_graph_ask_json(g, "CDC28?", NULL, &ao, &csv) == GRAPPI_EINVAL && csv == NULL);
      rdo.hidden = 6;
      rdo.heads = 4;
      CHECK(grappi_graph_train_reader_json(g, train, NULL, NULL, NULL, &rdo, &csv) == GRAPPI_EINVAL && csv == NULL);
      CHECK(strstr(grappi_last_error_message(), "multiple of heads") != NULL);
      CHECK(grappi_graph_train_reader_json(g, "{\"answers\": []}\n", NULL, NULL, NULL, NULL, &csv) == GRAPPI_EPARSE);
      CHECK(grappi_graph_train_reader_json(g, NULL, NULL, NULL, NULL, NULL, &csv) == GRAPPI_EINVAL);
    }

    grappi_free(json);
    json = NULL;

    ro.event_order = GRAPPI_PCST_ORDER_DEFAULT;
    ro.mode = "nonsense";
    CHECK(grappi_graph_retrieve_json(g, "kinase", &ro, &json) == GRAPPI_EINVAL && json == NULL);
    ro.mode = NULL;
    ro.pruning = "fastest";
    CHECK(grappi_graph_retrieve_json(g, "kinase", &ro, &json) == GRAPPI_EINVAL);
    CHECK(grappi_graph_retrieve_json(g, NULL, NULL, &json) == GRAPPI_EINVAL);
    CHECK(grappi_graph_retrieve_json(NULL, "kinase", NULL, &json) == GRAPPI_EINVAL);
    CHECK(grappi_graph_retrieve_json(g, "kinase", NULL, NULL) == GRAPPI_EINVAL);
    CHECK(grappi_graph_retrieve_csv(g, "kinase", NULL, NULL) == GRAPPI_EINVAL);
  }

  /* Explore: extractive, callback (with the cache), failures, misuse. */
  {
    grappi_explore_options xo;
    grappi_model_options cbo;
    grappi_model *cb_model = NULL;
    grappi_run_options cb_run = GRAPPI_RUN_OPTIONS_INIT;
    size_t ks[2] = {5, 2}, wins[2] = {1, 2};
    char *json = NULL;
    struct chat_state st = {0, 0};
    int first_calls;
    CHECK(grappi_explore_options_init(&xo, 7) == GRAPPI_EINVAL);
    CHECK(grappi_explore_options_init(NULL, GRAPPI_EXPLORE_OPTIONS_VERSION) == GRAPPI_EINVAL);
    CHECK(grappi_explore_options_init(&xo, GRAPPI_EXPLORE_OPTIONS_VERSION) == GRAPPI_OK);
    CHECK(xo.top == 10 && xo.max_length == 4 && xo.budget.use_cache == 1 && xo.run == NULL);
    xo.k = ks;
    xo.k_count = 2;
    xo.max_length = 3;
    CHECK(grappi_graph_explore_json(g, cdc28, "cell cycle kinase", &xo, &json) == GRAPPI_OK && json != NULL);
    CHECK(json && strstr(json, "\"paths\"") != NULL && strstr(json, "\"rank\":1") != NULL);
    CHECK(json && strstr(json, "Extractive summary (not generated)") != NULL);
    grappi_free(json);
    json = NULL;
    CHECK(grappi_graph_explore_json(g, cdc28, "cell cycle kinase", NULL, &json) == GRAPPI_OK && json != NULL); /* defaults */
    grappi_free(json);
    json = NULL;
    /* The HTML report beside the JSON, or alone; a view made elsewhere; name completion. */
    {
      char *html = NULL;
      CHECK(grappi_graph_explore_report(g, cdc28, "cell cycle kinase", &xo, &json, &html) == GRAPPI_OK);
      CHECK(json && strstr(json, "\"paths\"") != NULL);
      CHECK(html && strncmp(html, "<!DOCTYPE html>", 15) == 0 && strstr(html, "id=\"grappi-view\"") != NULL);
      CHECK(html && strstr(html, "CDC28") != NULL);
      grappi_free(json);
      grappi_free(html);
      json = NULL;
      html = NULL;
      CHECK(grappi_graph_explore_report(g, cdc28, "cell cycle kinase", NULL, NULL, &html) == GRAPPI_OK && html != NULL);
      grappi_free(html);
      html = NULL;
      CHECK(grappi_graph_explore_report(g, cdc28, "cell cycle kinase", NULL, &json, NULL) == GRAPPI_EINVAL && json == NULL);
      CHECK(grappi_report_html("{\"nodes\": [], \"edges\": [], \"items\": []}", &html) == GRAPPI_OK && html != NULL);
      grappi_free(html);
      html = NULL;
      CHECK(grappi_report_html("{\"nodes\": []}", &html) == GRAPPI_EINVAL && html == NULL);
      CHECK(strstr(grappi_last_error_message(), "\"edges\"") != NULL);
      CHECK(grappi_report_html(NULL, &html) == GRAPPI_EINVAL);
      CHECK(grappi_graph_complete_json(g, "cdc28", 5, &json) == GRAPPI_OK && json && strstr(json, "\"CDC28\"") != NULL);
      grappi_free(json);
      json = NULL;
      CHECK(grappi_graph_complete_json(g, "cdc2", 101, &json) == GRAPPI_EINVAL && json == NULL);
      CHECK(grappi_graph_complete_json(g, NULL, 5, &json) == GRAPPI_EINVAL);
    }
    xo.diversity = 0;
    CHECK(grappi_graph_explore_json(g, cdc28, "cell cycle kinase", &xo, &json) == GRAPPI_OK);
    CHECK(json && strstr(json, "\"diversity\":0.0") != NULL && strstr(json, "\"orderings_folded\":0") != NULL);
    grappi_free(json);
    json = NULL;
    xo.diversity = 1.5;
    CHECK(grappi_graph_explore_json(g, cdc28, "cell cycle kinase", &xo, &json) == GRAPPI_EINVAL && json == NULL);
    CHECK(strstr(grappi_last_error_message(), "diversity") != NULL);
    xo.diversity = 0.1;

    /* The model only through a handle in the run options. */
    cb_model = callback_model("c-test-model", chat_cb, &st, 1);
    cb_run.model = cb_model;
    xo.run = &cb_run;
    xo.concurrency = 1;
    xo.windows = wins;
    xo.window_count = 2;
    CHECK(grappi_graph_explore_json(g, cdc28, "cell cycle kinase", &xo, &json) == GRAPPI_OK && json != NULL);
    CHECK(st.calls > 5);
    CHECK(json && strstr(json, "\"relevance_score\":77.0") != NULL && strstr(json, "edge from C") != NULL);
    CHECK(json && strstr(json, "\"cache_hits\":0") != NULL);
    grappi_free(json);
    json = NULL;
    first_calls = st.calls;
    CHECK(grappi_graph_explore_json(g, cdc28, "cell cycle kinase", &xo, &json) == GRAPPI_OK && json != NULL);
    CHECK(st.calls == first_calls); /* everything came from the cache */
    CHECK(json && strstr(json, "\"model_calls\":0") != NULL);
    grappi_free(json);
    json = NULL;
    xo.budget.use_cache = 0;
    xo.budget.dry_run = 1;
    CHECK(grappi_graph_explore_json(g, cdc28, "cell cycle kinase", &xo, &json) == GRAPPI_OK && json != NULL);
    CHECK(st.calls == first_calls && json && strstr(json, "\"plan\"") != NULL);
    grappi_free(json);
    json = NULL;
    xo.budget.dry_run = 0;
    st.fail = 1;
    xo.budget.max_calls = 4;
    CHECK(grappi_graph_explore_json(g, cdc28, "cell cycle kinase", &xo, &json) == GRAPPI_OK && json != NULL);
    CHECK(st.calls == first_calls + 4);
    CHECK(json && strstr(json, "chat callback returned 3: c says no") != NULL && strstr(json, "\"partial\":true") != NULL);
    grappi_free(json);
    json = NULL;
    st.fail = 0;
    xo.budget.max_calls = 0;

    /* One model handle and a run's control: the same callback as a grappi_model, a cancel that
     * stops the running explore after its third model call, progress reports on the way. */
    {
      grappi_model_options mo;
      grappi_model *model = NULL;
      grappi_run_options run = GRAPPI_RUN_OPTIONS_INIT;
      struct run_state rs = {&st, 0, 0, 0, ""};
      size_t calls_before = (size_t)st.calls;
      CHECK(grappi_model_options_init(&mo, GRAPPI_MODEL_OPTIONS_VERSION) == GRAPPI_OK);
      mo.llm = "openai"; /* without a model name: refused */
      CHECK(grappi_model_new(&mo, &model) == GRAPPI_EINVAL && model == NULL);
      CHECK(strstr(grappi_last_error_message(), "model") != NULL);
      mo.llm = "callback";
      mo.model = "c-handle-model";
      mo.chat = chat_cb;
      mo.user_data = &st;
      mo.concurrency = 1;
      CHECK(grappi_model_new(&mo, &model) == GRAPPI_OK && model != NULL);
      CHECK(grappi_model_describe_json(model, &json) == GRAPPI_OK && json && strstr(json, "c-handle-model") != NULL);
      grappi_free(json);
      json = NULL;
      CHECK(grappi_run_options_init(&run, 2) == GRAPPI_EINVAL);
      CHECK(grappi_run_options_init(&run, GRAPPI_RUN_OPTIONS_VERSION) == GRAPPI_OK && run.model == NULL);
      run.model = model;
      run.cancel = cancel_after;
      run.progress = progress_cb;
      run.user_data = &rs;
      xo.run = &run;
      CHECK(grappi_graph_explore_json(g, cdc28, "cell cycle kinase", &xo, &json) == GRAPPI_OK && json != NULL);
      CHECK((size_t)st.calls - calls_before == 3); /* asked after each call: stopped at the third */
      CHECK(rs.cancel_polls > 3);
      CHECK(json && strstr(json, "cancelled by the caller") != NULL && strstr(json, "\"partial\":true") != NULL);
      CHECK(json && strstr(json, "c-handle-model") != NULL);
      CHECK(rs.progress_calls > 0 && rs.last_stage[0] != '\0');
      grappi_free(json);
      json = NULL;
      /* Without cancel the same handle runs the whole explore. */
      run.cancel = NULL;
      calls_before = (size_t)st.calls;
      CHECK(grappi_graph_explore_json(g, cdc28, "cell cycle kinase", &xo, &json) == GRAPPI_OK && json != NULL);
      CHECK((size_t)st.calls - calls_before > 5);
      CHECK(json && strstr(json, "cancelled by the caller") == NULL && strstr(json, "\"partial\":false") != NULL);
      grappi_free(json);
      json = NULL;
      xo.run = &cb_run;
      grappi_model_free(model);
      grappi_model_free(NULL);
    }

    /* Misuse. */
    CHECK(grappi_graph_explore_json(NULL, cdc28, "q", &xo, &json) == GRAPPI_EINVAL && json == NULL);
    CHECK(grappi_graph_explore_json(g, -1, "q", &xo, &json) == GRAPPI_ENOTFOUND && json == NULL);
    CHECK(grappi_graph_explore_json(g, cdc28, "bad\xff", &xo, &json) == GRAPPI_EINVAL);
    CHECK(grappi_graph_explore_json(g, cdc28, "q", &xo, NULL) == GRAPPI_EINVAL);
    {
      grappi_model *bad = NULL;
      CHECK(grappi_model_options_init(&cbo, GRAPPI_MODEL_OPTIONS_VERSION) == GRAPPI_OK);
      cbo.llm = "callback";
      cbo.chat = NULL;
      CHECK(grappi_model_new(&cbo, &bad) == GRAPPI_EINVAL && bad == NULL);
      CHECK(strstr(grappi_last_error_message(), "needs chat") != NULL);
      cbo.llm = "gpt";
      CHECK(grappi_model_new(&cbo, &bad) == GRAPPI_EINVAL && bad == NULL);
      cbo.llm = "openai";
      cbo.model = NULL;
      CHECK(grappi_model_new(&cbo, &bad) == GRAPPI_EINVAL && bad == NULL);
    }
    cb_run.version = 0; /* the run options are read by their version too */
    CHECK(grappi_graph_explore_json(g, cdc28, "q", &xo, &json) == GRAPPI_EINVAL);
    CHECK(strstr(grappi_last_error_message(), "grappi_run_options version 0") != NULL);
    cb_run.version = GRAPPI_RUN_OPTIONS_VERSION;
    xo.run = NULL;
    grappi_model_free(cb_model);
    cb_model = NULL;
    xo.k = NULL;
    CHECK(grappi_graph_explore_json(g, cdc28, "q", &xo, &json) == GRAPPI_EINVAL); /* k_count without k */
    xo.version = 0;
    CHECK(grappi_graph_explore_json(g, cdc28, "q", &xo, &json) == GRAPPI_EINVAL);
    CHECK(grappi_chat_reply_set(NULL, "x", 0, 0) == GRAPPI_EINVAL);
    CHECK(grappi_chat_reply_set_error(NULL, "x") == GRAPPI_EINVAL);
  }

  grappi_graph_free(g);

  /* PCST through a solver handle and options. */
  {
    double prizes[3] = {0, 5, 6}, costs[2] = {3, 4}, bad_costs[2] = {3, -4};
    double path_prizes[4] = {10, 0, 1, 10}, path_costs[3] = {10, 4, 3};
    int64_t edges[4] = {0, 1, 1, 2}, path_edges[6] = {0, 1, 1, 2, 2, 3};
    grappi_pcst_solver *solver = NULL;
    grappi_pcst_options po = GRAPPI_PCST_OPTIONS_INIT;
    grappi_pcst_result res = GRAPPI_PCST_RESULT_INIT;
    grappi_pcst_solver_free(NULL);
    CHECK(grappi_pcst_solver_new(NULL) == GRAPPI_EINVAL);
    CHECK(grappi_pcst_solver_new(&solver) == GRAPPI_OK && solver != NULL);
    CHECK(grappi_pcst_solver_solve(solver, 3, prizes, 2, edges, costs, NULL, &res) == GRAPPI_OK);
    CHECK(res.num_nodes == 2 && res.nodes[0] == 1 && res.nodes[1] == 2 && res.num_edges == 1 && res.edges[0] == 1);
    CHECK(res.objective > 3.999 && res.objective < 4.001 && res.net_worth > 6.999 && res.net_worth < 7.001);
    CHECK(res.objective_before_improve == res.objective && res.improve_rounds == 0);
    /* The same solver, another instance (ALGORITHMS.md's rooted path): root 0, pruning none
     * keeps {0,1,2,3} with edges {1,2}; gw keeps the root alone. */
    po.root = 0;
    po.pruning = "none";
    CHECK(grappi_pcst_solver_solve(solver, 4, path_prizes, 3, path_edges, path_costs, &po, &res) == GRAPPI_OK);
    CHECK(res.num_nodes == 4 && res.num_edges == 2 && res.edges[0] == 1 && res.edges[1] == 2);
    po.pruning = "gw";
    po.event_order = GRAPPI_PCST_ORDER_REFERENCE;
    po.improve = 1;
    CHECK(grappi_pcst_solver_solve(solver, 4, path_prizes, 3, path_edges, path_costs, &po, &res) == GRAPPI_OK);
    CHECK(res.num_nodes == 1 && res.nodes[0] == 0 && res.num_edges == 0);
    /* Misuse: bad input names the index; bad options and results versions; NULLs. */
    po = (grappi_pcst_options)GRAPPI_PCST_OPTIONS_INIT;
    CHECK(grappi_pcst_solver_solve(solver, 3, prizes, 2, edges, bad_costs, &po, &res) == GRAPPI_EINVAL);
    CHECK(strstr(grappi_last_error_message(), "edge 1") != NULL);
    po.event_order = 9;
    CHECK(grappi_pcst_solver_solve(solver, 3, prizes, 2, edges, costs, &po, &res) == GRAPPI_EINVAL);
    po.event_order = GRAPPI_PCST_ORDER_FAST;
    po.pruning = "fastest";
    CHECK(grappi_pcst_solver_solve(solver, 3, prizes, 2, edges, costs, &po, &res) == GRAPPI_EINVAL);
    po.pruning = NULL; /* NULL: gw */
    CHECK(grappi_pcst_solver_solve(solver, 3, prizes, 2, edges, costs, &po, &res) == GRAPPI_OK && res.num_nodes == 2);
    po.version = 2;
    CHECK(grappi_pcst_solver_solve(solver, 3, prizes, 2, edges, costs, &po, &res) == GRAPPI_EINVAL);
    po.version = GRAPPI_PCST_OPTIONS_VERSION;
    res.version = 0;
    CHECK(grappi_pcst_solver_solve(solver, 3, prizes, 2, edges, costs, &po, &res) == GRAPPI_EINVAL);
    res.version = GRAPPI_PCST_RESULT_VERSION;
    CHECK(grappi_pcst_solver_solve(NULL, 3, prizes, 2, edges, costs, &po, &res) == GRAPPI_EINVAL);
    CHECK(grappi_pcst_solver_solve(solver, 3, prizes, 2, edges, costs, &po, NULL) == GRAPPI_EINVAL);
    CHECK(grappi_pcst_solver_solve(solver, 3, NULL, 2, edges, costs, &po, &res) == GRAPPI_EINVAL);
    CHECK(grappi_pcst_solver_solve(solver, 0, NULL, 0, NULL, NULL, &po, &res) == GRAPPI_OK && res.num_nodes == 0);
    grappi_pcst_solver_free(solver);
  }

  /* Read-only reopen. */
  opts.read_only = 1;
  CHECK(grappi_graph_open(db, &opts, &g) == GRAPPI_OK);
  snprintf(path, sizeof path, "%s/4932.protein.info.v12.0.txt.gz", data);
  CHECK(grappi_graph_import(g, "info", path) == GRAPPI_EINVAL);
  CHECK(grappi_graph_resolve(g, "CDC28", &id) == GRAPPI_OK && id == cdc28);
  grappi_graph_free(g);

  /* An OBO ontology beside the proteins: detected from its header, or named. */
  opts.read_only = 0;
  CHECK(grappi_graph_open(db, &opts, &g) == GRAPPI_OK);
  snprintf(path, sizeof path, "%s/ontology/goslim_generic.obo", data);
  CHECK(grappi_graph_import(g, NULL, path) == GRAPPI_OK);
  CHECK(grappi_graph_resolve(g, "GO:0005694", &id) == GRAPPI_OK);
  CHECK(grappi_graph_node_name(g, id, &name) == GRAPPI_OK && name && strcmp(name, "chromosome") == 0);
  grappi_free(name);
  name = NULL;
  snprintf(path, sizeof path, "%s/4932.protein.info.v12.0.txt.gz", data);
  CHECK(grappi_graph_import(g, "obo", path) == GRAPPI_EPARSE); /* not an ontology */
  /* IntAct interactions joined to the yeast proteins through their UniProt accessions. */
  snprintf(path, sizeof path, "%s/intact/intact_sample.mitab27.tsv.gz", data);
  CHECK(grappi_graph_import(g, "mitab", path) == GRAPPI_OK);
  CHECK(grappi_graph_resolve(g, "uniprotkb:P40460", &id) == GRAPPI_OK);
  CHECK(grappi_graph_node_name(g, id, &name) == GRAPPI_OK && name && strcmp(name, "NDC80") == 0);
  grappi_free(name);
  name = NULL;
  {
    char *json = NULL;
    CHECK(grappi_graph_edges_json(g, id, id, &json) == GRAPPI_OK && json);
    CHECK(json && strstr(json, "\"relation\":\"mitab.physical_association\"") != NULL);
    CHECK(json && strstr(json, "\"interaction_ids\":[\"intact:EBI-599804\"]") != NULL);
    grappi_free(json);
    json = NULL;
    CHECK(grappi_graph_edges_json(g, id, id, NULL) == GRAPPI_EINVAL);
    /* Ontology questions over the GO slim imported above. */
    CHECK(grappi_graph_ontology_json(g, "ancestors", "GO:0005694", NULL, NULL, 0, &json) == GRAPPI_OK && json);
    CHECK(json && strstr(json, "\"ancestors\"") != NULL && strstr(json, "GO:0043226") != NULL);
    grappi_free(json);
    json = NULL;
    {
      const char *both[] = {"obo.is_a", "obo.part_of"};
      CHECK(grappi_graph_ontology_json(g, "parents", "GO:0000228", NULL, both, 2, &json) == GRAPPI_OK);
    }
    CHECK(json && strstr(json, "GO:0005634") != NULL);
    grappi_free(json);
    json = NULL;
    CHECK(grappi_graph_ontology_json(g, "roots", NULL, NULL, NULL, 0, &json) == GRAPPI_OK && json);
    grappi_free(json);
    json = NULL;
    CHECK(grappi_graph_ontology_json(g, "siblings", "GO:0005694", NULL, NULL, 0, &json) == GRAPPI_EINVAL && json == NULL);
    CHECK(strstr(grappi_last_error_message(), "unknown question") != NULL);
    CHECK(grappi_graph_ontology_json(g, "term", "GO:9999999", NULL, NULL, 0, &json) == GRAPPI_ENOTFOUND);
    {
      const char *nope[] = {"obo.nope"};
      CHECK(grappi_graph_ontology_json(g, "ancestors", "GO:0005694", NULL, nope, 1, &json) == GRAPPI_EINVAL);
      /* A count without its array. */
      CHECK(grappi_graph_ontology_json(g, "ancestors", "GO:0005694", NULL, NULL, 1, &json) == GRAPPI_EINVAL);
      CHECK(strstr(grappi_last_error_message(), "relation_count") != NULL);
    }
    CHECK(grappi_graph_ontology_json(g, "lca", "GO:0005694", NULL, NULL, 0, &json) == GRAPPI_EINVAL);
  }
  {
    /* Functional enrichment over annotations to the GO slim's terms (chromosome, nucleus). */
    const char *set[] = {"CLB2", "CDC5", "NOSUCH"};
    const char *cc[] = {"Component"};
    const char *iea[] = {"IEA"};
    char genes[4200];
    char *json = NULL;
    grappi_enrich_options eo;
    snprintf(genes, sizeof genes, "%s.genes.tsv", db);
    write_file(genes, "symbol\tgo_cc\nCLB2\tGO:0005694:IDA\nCDC5\tGO:0005694:IEA\nCDC28\tGO:0005634:IDA\n"
                      "CLN2\tGO:0005634:IDA\n");
    CHECK(grappi_graph_import(g, "mapping", genes) == GRAPPI_OK);
    CHECK(grappi_enrich_options_init(&eo, GRAPPI_ENRICH_OPTIONS_VERSION) == GRAPPI_OK);
    eo.categories = cc;
    eo.category_count = 1;
    CHECK(grappi_graph_enrich_json(g, set, 3, &eo, &json) == GRAPPI_OK && json);
    /* chromosome: both of the set, two of the four annotated; NOSUCH left out and listed */
    CHECK(json && strstr(json, "\"term\":\"GO:0005694\"") != NULL && strstr(json, "\"observed\":2") != NULL);
    CHECK(json && strstr(json, "\"universe\":4") != NULL && strstr(json, "\"name\":\"NOSUCH\"") != NULL);
    grappi_free(json);
    json = NULL;
    eo.exclude_evidence = iea;
    eo.exclude_evidence_count = 1;
    CHECK(grappi_graph_enrich_json(g, set, 3, &eo, &json) == GRAPPI_OK && json);
    CHECK(json && strstr(json, "\"universe\":3") != NULL);
    grappi_free(json);
    json = NULL;
    eo.max_fdr = 2;
    CHECK(grappi_graph_enrich_json(g, set, 3, &eo, &json) == GRAPPI_EINVAL && json == NULL);
    CHECK(strstr(grappi_last_error_message(), "max_fdr") != NULL);
    eo.max_fdr = 1;
    eo.background = "genome";
    CHECK(grappi_graph_enrich_json(g, set, 3, &eo, &json) == GRAPPI_EINVAL);
    eo.background = "given";
    CHECK(grappi_graph_enrich_json(g, set, 3, &eo, &json) == GRAPPI_EINVAL);
    CHECK(strstr(grappi_last_error_message(), "background_proteins is empty") != NULL);
    eo.background = NULL;
    CHECK(grappi_graph_enrich_json(g, set + 2, 1, &eo, &json) == GRAPPI_ENOTFOUND);
    CHECK(grappi_graph_enrich_json(g, NULL, 1, &eo, &json) == GRAPPI_EINVAL);
    CHECK(grappi_graph_enrich_json(g, set, 0, &eo, &json) == GRAPPI_EINVAL);
    CHECK(grappi_graph_enrich_json(g, set, 2, NULL, NULL) == GRAPPI_EINVAL);
    CHECK(grappi_enrich_options_init(&eo, GRAPPI_ENRICH_OPTIONS_VERSION + 1) == GRAPPI_EINVAL);
    remove(genes);
    /* PPI enrichment: CDC28 and its cyclins interact far more than chance would have them. */
    {
      const char *cyclins[] = {"CDC28", "CLN1", "CLN2", "CLB2", "CLB5"};
      const char *nope[] = {"string.nope"};
      CHECK(grappi_graph_ppi_enrichment_json(g, cyclins, 5, 0.7, NULL, 0, &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"nodes\":5") != NULL && strstr(json, "\"p_value\":") != NULL);
      CHECK(json && strstr(json, "\"edges\":0,") == NULL);
      grappi_free(json);
      json = NULL;
      CHECK(grappi_graph_ppi_enrichment_json(g, cyclins, 5, 1.5, NULL, 0, &json) == GRAPPI_EINVAL && json == NULL);
      CHECK(grappi_graph_ppi_enrichment_json(g, cyclins, 5, 0.4, nope, 1, &json) == GRAPPI_EINVAL);
      CHECK(strstr(grappi_last_error_message(), "unknown relation") != NULL);
      CHECK(grappi_graph_ppi_enrichment_json(g, cyclins, 5, 0.4, NULL, 1, &json) == GRAPPI_EINVAL);
      CHECK(grappi_graph_ppi_enrichment_json(g, set + 2, 1, 0.4, NULL, 0, &json) == GRAPPI_ENOTFOUND);
    }
    /* Clusters: the cyclins' network by MCL, the whole network by Leiden, bad options refused. */
    {
      const char *cyclins[] = {"CDC28", "CLN1", "CLN2", "CLB2", "CLB5"};
      grappi_cluster_options co, c1 = GRAPPI_CLUSTER_OPTIONS_INIT;
      CHECK(grappi_cluster_options_init(&co, GRAPPI_CLUSTER_OPTIONS_VERSION) == GRAPPI_OK);
      CHECK(co.version == c1.version && strcmp(co.method, c1.method) == 0 && co.min_score == c1.min_score &&
            co.inflation == c1.inflation && co.runs == c1.runs && co.seed == c1.seed && co.max_fdr == c1.max_fdr);
      co.min_score = 0.7;
      CHECK(grappi_graph_cluster_json(g, cyclins, 5, &co, &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"method\":\"mcl\"") != NULL && strstr(json, "\"4932.YBR160W\"") != NULL);
      grappi_free(json);
      json = NULL;
      co.method = "leiden";
      co.max_cluster_size = 10;
      CHECK(grappi_graph_cluster_json(g, NULL, 0, &co, &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"method\":\"leiden\"") != NULL && strstr(json, "\"level\":1") != NULL);
      grappi_free(json);
      json = NULL;
      co.method = "kmeans";
      CHECK(grappi_graph_cluster_json(g, NULL, 0, &co, &json) == GRAPPI_EINVAL && json == NULL);
      CHECK(strstr(grappi_last_error_message(), "mcl, leiden, cpm") != NULL);
      co.method = NULL;
      co.inflation = 1.0;
      CHECK(grappi_graph_cluster_json(g, cyclins, 5, &co, &json) == GRAPPI_EINVAL);
      CHECK(strstr(grappi_last_error_message(), "inflation") != NULL);
      CHECK(grappi_graph_cluster_json(g, NULL, 3, NULL, &json) == GRAPPI_EINVAL);
      CHECK(grappi_graph_cluster_json(g, set + 2, 1, NULL, &json) == GRAPPI_ENOTFOUND);
      CHECK(grappi_graph_cluster_json(g, cyclins, 5, NULL, NULL) == GRAPPI_EINVAL);
      CHECK(grappi_cluster_options_init(&co, GRAPPI_CLUSTER_OPTIONS_VERSION + 1) == GRAPPI_EINVAL);
    }
    {
      /* Community reports: built (extractive summaries), stored under a name, read back. */
      char *json = NULL;
      CHECK(grappi_graph_communities_json(g, "yeast", &json) == GRAPPI_ENOTFOUND && json == NULL);
      CHECK(strstr(grappi_last_error_message(), "no community reports named 'yeast'") != NULL);
      CHECK(grappi_graph_build_communities_json(g, "yeast", NULL, NULL, &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"name\":\"yeast\"") != NULL && strstr(json, "\"method\":\"leiden\"") != NULL &&
            strstr(json, "\"summary_status\":\"extractive\"") != NULL &&
            strstr(json, "Extractive summary (not a language model)") != NULL);
      grappi_free(json);
      json = NULL;
      CHECK(grappi_graph_communities_json(g, "yeast", &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"stale\":false") != NULL && strstr(json, "\"4932.") != NULL);
      grappi_free(json);
      json = NULL;
      CHECK(grappi_graph_build_communities_json(g, "yeast", NULL, NULL, NULL) == GRAPPI_EINVAL);
      CHECK(grappi_graph_build_communities_json(g, "", NULL, NULL, &json) == GRAPPI_EINVAL && json == NULL);
      CHECK(strstr(grappi_last_error_message(), "needs a name") != NULL);
      CHECK(grappi_graph_communities_json(NULL, NULL, &json) == GRAPPI_EINVAL);
    }
  }
  {
    /* BEL with the graph's identifiers: GO terms by name or id have one canonical form. */
    char *json = NULL;
    size_t errors = 99;
    CHECK(grappi_graph_bel_validate(g, "p(HGNC:AKT1) -> bp(GO:autophagy)\np(HGNC:AKT1) -> bp(GO:0006914)\n", 0,
                                    &json, &errors) == GRAPPI_OK);
    CHECK(errors == 0);
    {
      /* Both statements (by name and by id) have the one canonical form. */
      const char *canonical = "\"canonical\":\"p(HGNC:AKT1) increases bp(GO:0006914 ! autophagy)\"";
      const char *first = json ? strstr(json, canonical) : NULL;
      CHECK(first != NULL);
      CHECK(first && strstr(first + 1, canonical) != NULL);
    }
    grappi_free(json);
    json = NULL;
    CHECK(grappi_graph_bel_validate(NULL, "p(HGNC:A)", 0, &json, NULL) == GRAPPI_EINVAL && json == NULL);
    CHECK(grappi_graph_bel_validate(g, "p(HGNC:A)", 8u, &json, NULL) == GRAPPI_EINVAL && json == NULL);
  }

  {
    /* Exports of a selection (the whole graph's round trips: check_round_trip). */
    uint64_t nodes_out = 0, edges_out = 0;
    int64_t n1 = 0, e1 = 0;
    grappi_graph *copy = NULL;
    char out[700], db2[600];
    snprintf(out, sizeof out, "%s.jsonl", db);
    snprintf(db2, sizeof db2, "%s.copy", db);
    CHECK(grappi_graph_counts(g, &n1, &e1) == GRAPPI_OK);
    CHECK(grappi_graph_export(g, "cx3", out, NULL, NULL) == GRAPPI_EINVAL);
    CHECK(grappi_graph_export(g, "jsonl", "/nonexistent/dir/x.jsonl", NULL, NULL) == GRAPPI_EIO);
    {
      /* A selection: one relation, or the neighbourhood of one protein. */
      const char *rel[] = {"string.physical"};
      const char *few[] = {"CDC28", "CLN2", "no such protein"};
      grappi_export_options sel;
      uint64_t not_written = 99;
      CHECK(grappi_export_options_init(&sel, 1) == GRAPPI_OK && sel.hops == 1 && sel.relations == NULL);
      CHECK(grappi_export_options_init(&sel, 2) == GRAPPI_EINVAL);
      sel.relations = rel;
      sel.relation_count = 1;
      sel.min_score = 0.9;
      CHECK(grappi_graph_export_selection(g, "tsv", out, &sel, NULL, &edges_out, &not_written) == GRAPPI_OK);
      CHECK(edges_out > 0 && (int64_t)edges_out < e1 && not_written == 0);
      sel.relation_count = 0;
      sel.relations = NULL;
      sel.min_score = 0;
      sel.khop = "CDC28";
      CHECK(grappi_graph_export_selection(g, "jsonl", out, &sel, &nodes_out, &edges_out, NULL) == GRAPPI_OK);
      CHECK(nodes_out > 1 && (int64_t)nodes_out < n1);
      sel.khop = NULL;
      sel.nodes = few;
      sel.node_count = 3;
      CHECK(grappi_graph_export_selection(g, "jsonl", out, &sel, NULL, NULL, NULL) == GRAPPI_ENOTFOUND);
      sel.node_count = 2;
      CHECK(grappi_graph_export_selection(g, "jsonl", out, &sel, &nodes_out, NULL, NULL) == GRAPPI_OK && nodes_out == 2);
      sel.relations = NULL;
      sel.relation_count = 1;
      CHECK(grappi_graph_export_selection(g, "jsonl", out, &sel, NULL, NULL, NULL) == GRAPPI_EINVAL);
      sel.version = 7;
      sel.relation_count = 0;
      CHECK(grappi_graph_export_selection(g, "jsonl", out, &sel, NULL, NULL, NULL) == GRAPPI_EINVAL);
    }
    CHECK(grappi_graph_open(db2, NULL, &copy) == GRAPPI_OK);
    CHECK(grappi_graph_import(copy, "cx2", db) == GRAPPI_EPARSE); /* a database is not CX2 */
    grappi_graph_free(copy);
    remove(out);
    remove_db(db2);
  }
  {
    /* BEL validation needs no graph: a valid statement, an invalid one, flags. */
    char *json = NULL;
    size_t errors = 99;
    CHECK(grappi_bel_validate("p(HGNC:AKT1) -> p(HGNC:EGFR)\na(HGNC:AKT1) -| bp(GO:\"cell cycle\")\n", 0, &json,
                              &errors) == GRAPPI_OK);
    CHECK(errors == 1);
    CHECK(json && strstr(json, "\"canonical\":\"p(HGNC:AKT1) increases p(HGNC:EGFR)\"") != NULL);
    CHECK(json && strstr(json, "\"namespace_kind\"") != NULL);
    grappi_free(json);
    json = NULL;
    CHECK(grappi_bel_validate("p(MYNS:X) -> p(HGNC:A)", GRAPPI_BEL_LONG_FORM | GRAPPI_BEL_ALLOW_UNKNOWN_NAMESPACES, &json,
                              &errors) == GRAPPI_OK);
    CHECK(errors == 0);
    CHECK(json && strstr(json, "proteinAbundance(MYNS:X) increases proteinAbundance(HGNC:A)") != NULL);
    grappi_free(json);
    json = NULL;
    CHECK(grappi_bel_validate("p(HGNC:A)", 4u, &json, NULL) == GRAPPI_EINVAL && json == NULL);
    CHECK(grappi_bel_validate(NULL, 0, &json, NULL) == GRAPPI_EINVAL);
    CHECK(grappi_bel_validate("p(HGNC:A)", 0, NULL, NULL) == GRAPPI_EINVAL);
  }
  {
    /* BEL: the CBN network, its terms found in any spelling. */
    int64_t term = 0;
    snprintf(path, sizeof path, "%s/bel/cbn_cytotoxic_t-cell_signaling-2.0-hs.bel.jgf.json.gz", data);
    CHECK(grappi_graph_import(g, "bel", path) == GRAPPI_OK);
    CHECK(grappi_graph_resolve(g, "kinaseActivity(proteinAbundance(HGNC:FYN))", &term) == GRAPPI_OK && term > 0);
    {
      /* Its statements as a BEL script: the edges that hold statements are counted. */
      char out[700];
      uint64_t bel_edges = 0;
      snprintf(out, sizeof out, "%s.bel", db);
      CHECK(grappi_graph_export(g, "bel", out, NULL, &bel_edges) == GRAPPI_OK && bel_edges >= 56);
      remove(out);
    }
  }
  snprintf(path, sizeof path, "%s/ontology/goslim_generic.obo", data);
  CHECK(grappi_graph_import(g, "mitab", path) == GRAPPI_EPARSE); /* not MITAB */
  {
    /* Grounding on PSI-MI: a C model, the offline default, bad arguments. */
    const char *text = "We show that Cdc28 phosphorylates Sic1 in vitro. Sic1 binds Cdc28 directly.";
    grappi_ground_options go;
    grappi_model *model = NULL;
    grappi_run_options run = GRAPPI_RUN_OPTIONS_INIT;
    char *json = NULL;
    int calls = 0;
    snprintf(path, sizeof path, "%s/ontology/psi-mi.obo", data);
    CHECK(grappi_graph_import(g, NULL, path) == GRAPPI_OK);
    CHECK(grappi_ground_options_init(&go, GRAPPI_GROUND_OPTIONS_VERSION) == GRAPPI_OK);
    go.strategy = "bfs";
    go.patience = 0;
    model = callback_model("c-ground", ground_cb, &calls, 0);
    run.model = model;
    go.run = &run;
    go.budget.use_cache = 0;
    CHECK(grappi_graph_ground_json(g, text, "CDC28", "SIC1", &go, &json) == GRAPPI_OK && json);
    CHECK(json && strstr(json, "\"term\":{\"id\":\"MI:0407\"") != NULL);
    CHECK(json && strstr(json, "\"confidence\":4") != NULL);
    CHECK(json && strstr(json, "\"in_text\":true") != NULL);
    CHECK(calls == 148); /* a summary, 146 terms one by one, a pick */
    grappi_free(json);
    json = NULL;
    CHECK(grappi_graph_ground_json(g, text, "CDC28", "SIC1", NULL, &json) == GRAPPI_OK && json);
    CHECK(json && strstr(json, "not a language model") != NULL);
    grappi_free(json);
    json = NULL;
    {
      /* The relations as a list; a count without its list is refused. */
      const char *is_a[] = {"obo.is_a"};
      go.strategy = "pagerank";
      go.relations = is_a;
      go.relation_count = 1;
      go.run = NULL;
      CHECK(grappi_graph_ground_json(g, text, "CDC28", "SIC1", &go, &json) == GRAPPI_OK && json);
      grappi_free(json);
      json = NULL;
      go.relations = NULL;
      CHECK(grappi_graph_ground_json(g, text, "CDC28", "SIC1", &go, &json) == GRAPPI_EINVAL && json == NULL);
      CHECK(strstr(grappi_last_error_message(), "relations is NULL but relation_count is not 0") != NULL);
      go.relation_count = 0;
    }
    go.root = "MI:9999";
    CHECK(grappi_graph_ground_json(g, text, "CDC28", "SIC1", &go, &json) == GRAPPI_ENOTFOUND && json == NULL);
    go.root = NULL;
    go.ontology = "go";
    CHECK(grappi_graph_ground_json(g, text, "CDC28", "SIC1", &go, &json) == GRAPPI_EINVAL && json == NULL);
    CHECK(strstr(grappi_last_error_message(), "not of the ontology 'go'") != NULL);
    go.ontology = NULL;
    go.strategy = "astar";
    CHECK(grappi_graph_ground_json(g, text, "CDC28", "SIC1", &go, &json) == GRAPPI_EINVAL && json == NULL);
    CHECK(strstr(grappi_last_error_message(), "unknown grounding strategy 'astar'") != NULL);
    CHECK(grappi_graph_ground_json(g, NULL, "CDC28", "SIC1", NULL, &json) == GRAPPI_EINVAL);
    CHECK(grappi_graph_ground_json(g, text, "CDC28", "SIC1", NULL, NULL) == GRAPPI_EINVAL);
    grappi_model_free(model);
  }
  {
    /* Extraction: the offline rule table, a C model whose statement is repaired, the BEL script
     * imported as a dataset, bad arguments. */
    const char *paper = "We show that Cdc28 phosphorylates Sic1 in vitro. Sic1 binds Cdc28 directly.\n";
    grappi_extract_options xo;
    grappi_model *model = NULL;
    grappi_run_options run = GRAPPI_RUN_OPTIONS_INIT;
    char *json = NULL, bel[700];
    int calls = 0;
    CHECK(grappi_graph_extract_json(g, paper, NULL, &json) == GRAPPI_OK && json);
    CHECK(json && strstr(json, "\"canonical\":\"act(p(SGD:CDC28), ma(kin)) increases p(SGD:SIC1, pmod(Ph))\"") != NULL);
    CHECK(json && strstr(json, "\"canonical\":\"complex(p(SGD:CDC28), p(SGD:SIC1))\"") != NULL);
    CHECK(json && strstr(json, "not a language model") != NULL);
    grappi_free(json);
    json = NULL;
    CHECK(grappi_extract_options_init(&xo, GRAPPI_EXTRACT_OPTIONS_VERSION) == GRAPPI_OK);
    model = callback_model("c-extract", extract_cb, &calls, 0);
    run.model = model;
    xo.run = &run;
    xo.budget.use_cache = 0;
    snprintf(bel, sizeof bel, "%s.extract.bel", db);
    xo.bel_path = bel;
    xo.import_statements = 1;
    CHECK(grappi_graph_extract_json(g, paper, &xo, &json) == GRAPPI_OK && json);
    CHECK(calls == 2); /* the paragraph and one repair turn */
    CHECK(json && strstr(json, "\"origin\":\"repaired\"") != NULL);
    CHECK(json && strstr(json, "\"original\":\"p(SGD:SIC1) interacts p(SGD:CDC28)\"") != NULL);
    CHECK(json && strstr(json, "\"import\":{\"already_imported\":false,\"dataset_id\":") != NULL);
    grappi_free(json);
    json = NULL;
    xo.bel_path = NULL;
    CHECK(grappi_graph_extract_json(g, paper, &xo, &json) == GRAPPI_EINVAL && json == NULL);
    CHECK(strstr(grappi_last_error_message(), "import_statements needs bel_path") != NULL);
    xo.import_statements = 0;
    xo.format = "ppi-xml";
    CHECK(grappi_graph_extract_json(g, paper, &xo, &json) == GRAPPI_EPARSE && json == NULL);
    xo.format = "latex";
    CHECK(grappi_graph_extract_json(g, paper, &xo, &json) == GRAPPI_EINVAL && json == NULL);
    CHECK(grappi_graph_extract_json(g, NULL, NULL, &json) == GRAPPI_EINVAL);
    CHECK(grappi_extract_options_init(&xo, GRAPPI_EXTRACT_OPTIONS_VERSION + 1) == GRAPPI_EINVAL);
    remove(bel);
    {
      /* The paper in two parts (the same paper twice: the second part's statements are
         duplicates of the first's), merged and imported next to the database. */
      char paper_file[700], part[2][700];
      const char *files[1], *parts[2];
      FILE *f;
      snprintf(paper_file, sizeof paper_file, "%s.PMID4242.txt", db);
      f = fopen(paper_file, "w");
      CHECK(f != NULL);
      if (f) {
        fputs(paper, f);
        fclose(f);
      }
      files[0] = paper_file;
      snprintf(part[0], sizeof part[0], "%s.xpart0", db);
      snprintf(part[1], sizeof part[1], "%s.xpart1", db);
      parts[0] = part[0];
      parts[1] = part[1];
      CHECK(grappi_graph_extract_part_json(g, files, 1, NULL, part[0], "{\"part\": 0}", &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"valid\":2") != NULL);
      grappi_free(json);
      json = NULL;
      CHECK(grappi_graph_extract_part_json(g, files, 1, NULL, part[1], NULL, &json) == GRAPPI_OK && json);
      grappi_free(json);
      json = NULL;
      CHECK(grappi_extract_options_init(&xo, GRAPPI_EXTRACT_OPTIONS_VERSION) == GRAPPI_OK);
      xo.import_statements = 1;
      CHECK(grappi_graph_extract_merge_json(g, parts, 2, &xo, &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"duplicates\":2") != NULL && strstr(json, "\"documents\":2") != NULL);
      CHECK(json && strstr(json, ".extract-") != NULL && strstr(json, "\"part\":0") != NULL);
      grappi_free(json);
      json = NULL;
      parts[1] = paper_file; /* not a part */
      CHECK(grappi_graph_extract_merge_json(g, parts, 2, &xo, &json) == GRAPPI_EPARSE && json == NULL);
      CHECK(strstr(grappi_last_error_message(), "not an extraction part") != NULL);
      CHECK(grappi_graph_extract_merge_json(g, parts, 0, &xo, &json) == GRAPPI_EINVAL && json == NULL);
      remove(paper_file);
      remove(part[0]);
      remove(part[1]);
    }
    {
      /* A curator's review file: the accepted statement imported, a bad decision refused. */
      char review[700], accepted[700];
      FILE *f;
      snprintf(review, sizeof review, "%s.review.tsv", db);
      snprintf(accepted, sizeof accepted, "%s.review.bel", db);
      f = fopen(review, "wb");
      CHECK(f != NULL);
      if (f) {
        fputs("# review\ndecision\tstatus\tstatement\tevidence\tcitation\tparagraph\tflags\tchecks\n"
              "accept\tvalid\tcomplex(p(SGD:CDC28), p(SGD:SIC1))\tSic1 binds Cdc28 directly.\tPMID:101\tinput#0\t\t\n"
              "reject\tvalid\tp(SGD:SIC1) decreases p(SGD:CDC28)\tSic1 binds Cdc28 directly.\tPMID:101\tinput#0\t\t\n",
              f);
        fclose(f);
      }
      CHECK(grappi_graph_import_review_json(g, review, accepted, &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"already_imported\":false") != NULL);
      grappi_free(json);
      json = NULL;
      f = fopen(review, "wb");
      if (f) {
        fputs("decision\tstatus\tstatement\tevidence\tcitation\tparagraph\tflags\tchecks\nperhaps\tvalid\tp(SGD:SIC1)\te\tPMID:1\td#0\t\t\n", f);
        fclose(f);
      }
      CHECK(grappi_graph_import_review_json(g, review, accepted, &json) == GRAPPI_EPARSE && json == NULL);
      CHECK(strstr(grappi_last_error_message(), ":2: the decision is accept, reject or empty") != NULL);
      CHECK(grappi_graph_import_review_json(g, NULL, accepted, &json) == GRAPPI_EINVAL);
      remove(review);
      remove(accepted);
    }
    grappi_model_free(model);
  }
  {
    /* A co-occurrence graph of three concepts in two abstracts, stored; then a hypothesis. */
    const char *corpus =
        "101|t|Cdc28 and Sic1 in yeast\n"
        "101|a|Cdc28 phosphorylates Sic1.\n"
        "101\t0\t5\tCdc28\tGene\tGENE:CDC28\n"
        "101\t10\t14\tSic1\tGene\tGENE:SIC1\n"
        "\n"
        "102|t|Sic1 and Cln2\n"
        "102|a|Sic1 meets Cln2.\n"
        "102\t0\t4\tSic1\tGene\tGENE:SIC1\n"
        "102\t9\t13\tCln2\tGene\tGENE:CLN2\n";
    grappi_cooc_options co;
    grappi_hypothesis_options ho;
    char *json = NULL, jsonl[700];
    CHECK(grappi_cooc_options_init(&co, GRAPPI_COOC_OPTIONS_VERSION) == GRAPPI_OK);
    CHECK(grappi_graph_cooc_build_json(g, corpus, &co, &json) == GRAPPI_OK && json);
    CHECK(json && strstr(json, "\"edges\":2") != NULL && strstr(json, "\"import\"") == NULL);
    grappi_free(json);
    json = NULL;
    snprintf(jsonl, sizeof jsonl, "%s.cooc.jsonl", db);
    co.path = jsonl;
    CHECK(grappi_graph_cooc_build_json(g, corpus, &co, &json) == GRAPPI_OK && json);
    CHECK(json && strstr(json, "\"edges_created\":2") != NULL);
    CHECK(json && strstr(json, "\"papers\":{\"already_imported\":false,\"dataset_id\":") != NULL);
    CHECK(json && strstr(json, "\"documents\":2") != NULL);
    grappi_free(json);
    json = NULL;
    /* the papers are stored: searchable */
    CHECK(grappi_graph_search_papers_json(g, "Cln2", 5, &json) == GRAPPI_OK && json);
    CHECK(json && strstr(json, "\"102\"") != NULL);
    grappi_free(json);
    json = NULL;
    {
      /* The same graph from two parts: each counted into a partial-count file (a worker's
         step), then merged in order and stored: the same dataset (already imported). */
      char part_corpus[2][700], part[2][700];
      const char *halves[2], *parts[2];
      int i;
      halves[0] = corpus;
      halves[1] = strstr(corpus, "102|t|");
      for (i = 0; i < 2; ++i) {
        FILE *f;
        snprintf(part_corpus[i], sizeof part_corpus[i], "%s.part%d.PubTator", db, i);
        snprintf(part[i], sizeof part[i], "%s.part%d.cooc", db, i);
        f = fopen(part_corpus[i], "w");
        CHECK(f != NULL);
        if (f) {
          fwrite(halves[i], 1, i == 0 ? (size_t)(halves[1] - halves[0]) : strlen(halves[1]), f);
          fclose(f);
        }
        halves[i] = part_corpus[i];
        parts[i] = part[i];
        CHECK(grappi_graph_cooc_partial_json(g, &halves[i], 1, &co, part[i], "{\"partition\": 1}", &json) == GRAPPI_OK && json);
        CHECK(json && strstr(json, "\"documents\":1") != NULL);
        grappi_free(json);
        json = NULL;
      }
      CHECK(grappi_graph_cooc_partial_json(g, &halves[0], 1, &co, part[0], "[]", &json) == GRAPPI_EINVAL && json == NULL);
      co.path = NULL;
      CHECK(grappi_graph_cooc_merge_json(g, parts, 2, &co, &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"edges\":2") != NULL);
      CHECK(json && strstr(json, "\"already_imported\":true") != NULL);
      CHECK(json && strstr(json, "\"partition\":1") != NULL);
      grappi_free(json);
      json = NULL;
      CHECK(grappi_graph_cooc_merge_json(g, parts, 0, &co, &json) == GRAPPI_EINVAL && json == NULL);
      parts[1] = part_corpus[1]; /* not a partial-count file */
      CHECK(grappi_graph_cooc_merge_json(g, parts, 2, &co, &json) == GRAPPI_EPARSE && json == NULL);
      CHECK(strstr(grappi_last_error_message(), "not a partial-count file") != NULL);
      co.path = jsonl;
      for (i = 0; i < 2; ++i) {
        remove(part_corpus[i]);
        remove(part[i]);
      }
    }
    {
      /* Concept types as a list: genes only (the corpus names genes alone: the same two edges);
         a type no concept has leaves none. */
      const char *genes[] = {"Gene"}, *chemicals[] = {"Chemical"};
      grappi_cooc_options typed;
      CHECK(grappi_cooc_options_init(&typed, GRAPPI_COOC_OPTIONS_VERSION) == GRAPPI_OK);
      typed.types = genes;
      typed.type_count = 1;
      CHECK(grappi_graph_cooc_build_json(g, corpus, &typed, &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"edges\":2") != NULL && strstr(json, "\"types\":[\"Gene\"]") != NULL);
      grappi_free(json);
      json = NULL;
      typed.types = chemicals;
      CHECK(grappi_graph_cooc_build_json(g, corpus, &typed, &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"edges\":0") != NULL);
      grappi_free(json);
      json = NULL;
      typed.types = NULL;
      CHECK(grappi_graph_cooc_build_json(g, corpus, &typed, &json) == GRAPPI_EINVAL && json == NULL);
    }
    co.scope = "paragraph";
    CHECK(grappi_graph_cooc_build_json(g, corpus, &co, &json) == GRAPPI_EINVAL && json == NULL);
    CHECK(grappi_hypothesis_options_init(&ho, GRAPPI_HYPOTHESIS_OPTIONS_VERSION) == GRAPPI_OK);
    CHECK(hypothesis_says(g, corpus, &ho,
                          (const char *const[]){"\"stop_reason\":\"converged\"", "\"context\":[\"101\",\"102\"]", NULL}));
    CHECK(grappi_graph_hypothesize_json(g, "GENE:CDC28", "NO:SUCH", corpus, &ho, &json) == GRAPPI_ENOTFOUND && json == NULL);
    ho.rounds = 0;
    CHECK(grappi_graph_hypothesize_json(g, "GENE:CDC28", "GENE:CLN2", corpus, &ho, &json) == GRAPPI_EINVAL);
    ho.rounds = 5;
    ho.budget.dry_run = 1; /* hypothesize has none: refused, not ignored */
    CHECK(grappi_graph_hypothesize_json(g, "GENE:CDC28", "GENE:CLN2", corpus, &ho, &json) == GRAPPI_EINVAL && json == NULL);
    CHECK(strstr(grappi_last_error_message(), "budget.dry_run") != NULL);
    ho.budget.dry_run = 0;
    ho.embedding_weight = 1.5; /* outside [0, 1] */
    CHECK(grappi_graph_hypothesize_json(g, "GENE:CDC28", "GENE:CLN2", corpus, &ho, &json) == GRAPPI_EINVAL && json == NULL);
    ho.embedding_weight = 0;
    ho.max_intermediate_share = 0; /* outside (0, 1] */
    CHECK(grappi_graph_hypothesize_json(g, "GENE:CDC28", "GENE:CLN2", corpus, &ho, &json) == GRAPPI_EINVAL && json == NULL);
    ho.max_intermediate_share = 0.05;
    ho.ranker = "no-such-ranker";
    CHECK(grappi_graph_hypothesize_json(g, "GENE:CDC28", "GENE:CLN2", corpus, &ho, &json) == GRAPPI_ENOTFOUND && json == NULL);
    ho.ranker = NULL;
    {
      /* Lists: the relations the paths follow, the labels of the intermediates (none has
         "Chemical": no path), a count without its list. */
      const char *cooc[] = {"cooc.document"}, *chemical[] = {"Chemical"};
      ho.relations = cooc;
      ho.relation_count = 1;
      CHECK(hypothesis_says(g, corpus, &ho, (const char *const[]){"\"stop_reason\":\"converged\"", NULL}));
      ho.intermediate_labels = chemical;
      ho.intermediate_label_count = 1;
      ho.mask_direct = 1;
      CHECK(hypothesis_says(g, corpus, &ho, (const char *const[]){"\"stop_reason\":\"no_paths\"", NULL}));
      ho.intermediate_labels = NULL;
      ho.mask_direct = 0;
      CHECK(grappi_graph_hypothesize_json(g, "GENE:CDC28", "GENE:CLN2", corpus, &ho, &json) == GRAPPI_EINVAL && json == NULL);
      CHECK(strstr(grappi_last_error_message(), "intermediate_label_count") != NULL);
      ho.intermediate_label_count = 0;
      ho.support_relations = NULL;
      ho.support_relation_count = 2;
      CHECK(grappi_graph_hypothesize_json(g, "GENE:CDC28", "GENE:CLN2", corpus, &ho, &json) == GRAPPI_EINVAL && json == NULL);
      ho.support_relation_count = 0;
    }
    {
      /* HGCR's rounds of every shortest path. Cdc28 - Sic1 - Cln2 is the one shortest
         path; a second round without Sic1 finds nothing, and within one edge there is none.
         (The lists above were of that block: the defaults again.) */
      ho.relations = NULL;
      ho.relation_count = 0;
      ho.shortest_rounds = 2;
      /* (per node, the documents naming it with Cdc28: Cdc28's own 1, Sic1 1, Cln2 none) */
      CHECK(hypothesis_says(g, corpus, &ho,
                            (const char *const[]){"\"stop_reason\":\"converged\"", "\"with_source\":[1,1,0]", NULL}));
      ho.max_length = 1;
      CHECK(hypothesis_says(g, corpus, &ho, (const char *const[]){"\"stop_reason\":\"no_paths\"", NULL}));
      ho.max_length = 4;
      ho.shortest_rounds = 0;
    }
    CHECK(grappi_hypothesis_options_init(&ho, GRAPPI_HYPOTHESIS_OPTIONS_VERSION + 1) == GRAPPI_EINVAL);
    {
      /* The papers in the database: imported as a corpus, searched by words, the context of a
         hypothesis asked without a corpus. */
      char papers[700];
      FILE *f;
      snprintf(papers, sizeof papers, "%s.papers.PubTator", db);
      f = fopen(papers, "w");
      CHECK(f != NULL);
      if (f) {
        fputs(corpus, f);
        fclose(f);
      }
      CHECK(grappi_graph_import(g, "corpus", papers) == GRAPPI_OK);
      CHECK(grappi_graph_search_papers_json(g, "phosphorylates", 5, &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"pmid\":\"101\"") != NULL && strstr(json, "\"pmid\":\"102\"") == NULL);
      grappi_free(json);
      json = NULL;
      CHECK(grappi_graph_search_papers_json(g, "\"unclosed", 5, &json) == GRAPPI_EINVAL && json == NULL);
      CHECK(strstr(grappi_last_error_message(), "not a full-text query") != NULL);
      CHECK(grappi_graph_search_papers_json(g, "yeast", 1001, &json) == GRAPPI_EINVAL && json == NULL);
      CHECK(grappi_hypothesis_options_init(&ho, GRAPPI_HYPOTHESIS_OPTIONS_VERSION) == GRAPPI_OK);
      CHECK(grappi_graph_hypothesize_json(g, "GENE:CDC28", "GENE:CLN2", NULL, &ho, &json) == GRAPPI_OK && json);
      CHECK(json && strstr(json, "\"context\":[\"101\",\"102\"]") != NULL);
      grappi_free(json);
      json = NULL;
      {
        /* ask reads them too: a paper naming CDC28 and a partner, cited as P0 and checked. */
        grappi_ask_options ao;
        CHECK(grappi_ask_options_init(&ao, GRAPPI_ASK_OPTIONS_VERSION) == GRAPPI_OK && ao.papers == 3);
        CHECK(grappi_graph_ask_json(g, "Which proteins interact with cdc28?", NULL, &ao, &json) == GRAPPI_OK && json);
        CHECK(json && strstr(json, "\"papers\":[{\"excerpt\":\"Cdc28 phosphorylates Sic1.\"") != NULL);
        CHECK(json && strstr(json, "PMID:101 reports: \\\"Cdc28 phosphorylates Sic1.\\\" [P0].") != NULL);
        grappi_free(json);
        json = NULL;
        ao.papers = 0;
        CHECK(grappi_graph_ask_json(g, "Which proteins interact with cdc28?", NULL, &ao, &json) == GRAPPI_OK && json);
        CHECK(json && strstr(json, "\"papers\":[]") != NULL && strstr(json, "reports:") == NULL);
        grappi_free(json);
        json = NULL;
      }
      /* Two abstracts teach no ranker: no pair is first linked after the split. */
      CHECK(grappi_graph_train_ranker_json(g, corpus, NULL, NULL, NULL, &json) == GRAPPI_EINVAL && json == NULL);
      CHECK(grappi_graph_train_ranker_json(g, NULL, NULL, NULL, NULL, &json) == GRAPPI_EINVAL && json == NULL);
      remove(papers);
    }
    remove(jsonl);
    {
      char corpus_file[720];
      snprintf(corpus_file, sizeof corpus_file, "%s.corpus", jsonl);
      remove(corpus_file);
    }
  }
  grappi_graph_free(g);

  remove_db(db);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
