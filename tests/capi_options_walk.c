/* The C options walk (issue 57): every options struct of grappi.h, each scalar and string field in
   turn at extreme values (0, the type's largest and smallest, NaN and the infinities; empty, 1 MiB
   and invalid UTF-8 strings), then every numeric field at once at the largest value its entry point
   accepts alone; and the same for the entry points' own size arguments. Under a 2 GiB
   address-space limit and a time limit per call, every call returns a status (a refusal or a
   result): never a crash, never GRAPPI_ENOMEM (work that was not bounded up front), never
   GRAPPI_EINTERNAL, never a success without its output, never longer than WALK_SECONDS.

   The field tables are written from grappi.h at build time (tests/gen_options_walk.py): a field
   added to a struct is walked without a change here, and a struct added without its call here
   fails the build. Release only (ctest label heavy): the sanitizers' shadow memory needs terabytes
   of address space.
     grappi_capi_options_walk DATA_DIR [ONLY]
   (ONLY: the structs whose name holds it, and no size arguments) */
#define _POSIX_C_SOURCE 200809L
#include <grappi/grappi.h>

#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WALK_SECONDS 180 /* (the largest window paths, a million of 12 edges, take about 25 s on a loaded machine) */
#define WALK_CANCEL_SECONDS 0.3 /* (a reader asked for 100,000 epochs is stopped by it: 17 such calls) */
#define WALK_MEMORY ((rlim_t)2 << 30)
#define WALK_NO_OUTPUT (-1000) /* (not a grappi status: a success without its output) */

enum { WALK_VERSION, WALK_U32, WALK_I32, WALK_U64, WALK_I64, WALK_SIZE, WALK_DOUBLE, WALK_TEXT, WALK_PATH };
typedef struct walk_field {
  const char *name;
  size_t offset;
  int kind;
} walk_field;
typedef struct walk_struct {
  const char *name;
  size_t size;
  const walk_field *fields;
  size_t field_count;
  grappi_status (*init)(void *opts);
  grappi_status (*call)(const void *opts);
} walk_struct;

#include "options_walk_fields.h"
#include "ten_abstracts.h"

static grappi_graph *g;       /* the Alzheimer network: embedded, with PSI-MI */
static grappi_graph *scratch; /* what writes: imports, embeddings, extractions, co-occurrence */
static int64_t app, apoe;
static char dir[256], alz[1024], edges_file[300], out_file[300];
static char *long_text; /* 1 MiB of letters */
static int failures, calls;
static char current[700];
static volatile size_t current_len;

static const char corpus[] = GRAPPI_TEN_ABSTRACTS;
static const char questions[] =
    "{\"question\": \"Which proteins interact with APP?\", \"answers\": [\"APOE\", \"PSEN1\", \"BACE1\", \"SORL1\"]}\n"
    "{\"question\": \"Which proteins interact with MAPT?\", \"answers\": [\"GSK3B\", \"CDK5\", \"APP\"]}\n"
    "{\"question\": \"Which proteins interact with APOE?\", \"answers\": [\"APP\"]}\n";

static void on_alarm(int sig) {
  static const char head[] = "FAIL: longer than the walk's time limit: ";
  (void)sig;
  if (write(2, head, sizeof head - 1) < 0 || write(2, current, current_len) < 0 || write(2, "\n", 1) < 0) _exit(1);
  _exit(1);
}

static void describe(const char *what, const char *field, const char *value) {
  snprintf(current, sizeof current, "%s, %s = %s", what, field, value);
  current_len = strlen(current);
}

/* Records what must never happen; frees the output; returns the status. */
static grappi_status seen(grappi_status s, void *out) {
  ++calls;
  if (s == GRAPPI_OK && out == NULL) s = WALK_NO_OUTPUT;
  grappi_free(out);
  if (s == GRAPPI_ENOMEM || s == GRAPPI_EINTERNAL || s == WALK_NO_OUTPUT) {
    ++failures;
    fprintf(stderr, "FAIL: %s: %s (%s)\n", current, s == WALK_NO_OUTPUT ? "success without output" : grappi_status_str(s),
            s == WALK_NO_OUTPUT ? "" : grappi_last_error_message());
  }
  return s;
}
/* A call, then what it gave (the order of a function's arguments' evaluation is unspecified). */
static grappi_status last;
#define SEEN(call, out) (last = (call), seen(last, (out)))
/* Two calls with one set of options: the first that did what must not happen, else the first. */
static grappi_status both(grappi_status a, grappi_status b) {
  return (b == GRAPPI_ENOMEM || b == GRAPPI_EINTERNAL || b == WALK_NO_OUTPUT) ? b : a;
}

/* ---- one call per options struct ------------------------------------------------------------ */

static grappi_status walk_call_grappi_open_options(const void *opts) {
  char path[300];
  grappi_graph *h = NULL;
  grappi_status s;
  snprintf(path, sizeof path, "%s/open.db", dir);
  s = grappi_graph_open(path, (const grappi_open_options *)opts, &h);
  if (s == GRAPPI_OK && h == NULL) return seen(WALK_NO_OUTPUT, NULL);
  grappi_graph_free(h);
  return seen(s, s == GRAPPI_OK ? malloc(1) : NULL);
}
static grappi_status walk_call_grappi_import_options(const void *opts) {
  char *report = NULL;
  grappi_status a = SEEN(grappi_graph_import_with(scratch, "export", alz, opts, &report), report);
  report = NULL;
  return both(a, SEEN(grappi_graph_import_with(scratch, "edges", edges_file, opts, &report), report));
}
static grappi_status walk_call_grappi_export_options(const void *opts) {
  uint64_t nodes = 0, edges = 0, left = 0;
  grappi_status s = grappi_graph_export_selection(g, "tsv", out_file, opts, &nodes, &edges, &left);
  return seen(s, s == GRAPPI_OK ? malloc(1) : NULL);
}
static grappi_status walk_call_grappi_embed_options(const void *opts) {
  size_t embedded = 0;
  grappi_status s = grappi_graph_embed(scratch, opts, &embedded);
  return seen(s, s == GRAPPI_OK ? malloc(1) : NULL);
}
static grappi_status walk_call_grappi_window_options(const void *opts) {
  char *json = NULL;
  return SEEN(grappi_graph_window_json(g, app, opts, &json), json);
}
static grappi_status walk_call_grappi_enrich_options(const void *opts) {
  static const char *const set[] = {"APP", "APOE", "PSEN1", "BACE1"};
  char *json = NULL;
  return SEEN(grappi_graph_enrich_json(g, set, 4, opts, &json), json);
}
static grappi_status walk_call_grappi_cluster_options(const void *opts) {
  char *json = NULL;
  return SEEN(grappi_graph_cluster_json(g, NULL, 0, opts, &json), json);
}
static grappi_status walk_call_grappi_retrieve_options(const void *opts) {
  char *json = NULL;
  grappi_status a = SEEN(grappi_graph_retrieve_json(g, "Which proteins interact with APP?", opts, &json), json);
  json = NULL;
  return both(a, SEEN(grappi_graph_ask_json(g, "Which proteins interact with APP?", opts, NULL, &json), json));
}
static grappi_status walk_call_grappi_model_options(const void *opts) {
  grappi_model *m = NULL;
  grappi_status s = grappi_model_new(opts, &m);
  grappi_model_free(m);
  return seen(s, s == GRAPPI_OK && m ? malloc(1) : NULL);
}
static grappi_status walk_call_grappi_run_options(const void *opts) {
  grappi_explore_options eo;
  char *json = NULL;
  grappi_explore_options_init(&eo, GRAPPI_EXPLORE_OPTIONS_VERSION);
  eo.run = opts;
  return SEEN(grappi_graph_explore_json(g, app, "amyloid processing", &eo, &json), json);
}
static grappi_status walk_call_grappi_explore_options(const void *opts) {
  char *json = NULL;
  return SEEN(grappi_graph_explore_json(g, app, "amyloid processing", opts, &json), json);
}
static grappi_status walk_call_grappi_ground_options(const void *opts) {
  char *json = NULL;
  return SEEN(grappi_graph_ground_json(g, "APP binds APOE in neurons.", "APP", "APOE", opts, &json), json);
}
static grappi_status walk_call_grappi_extract_options(const void *opts) {
  char *json = NULL;
  return SEEN(grappi_graph_extract_json(scratch, corpus, opts, &json), json);
}
static grappi_status walk_call_grappi_cooc_options(const void *opts) {
  char *json = NULL;
  return SEEN(grappi_graph_cooc_build_json(scratch, corpus, opts, &json), json);
}
static grappi_status walk_call_grappi_hypothesis_options(const void *opts) {
  char *json = NULL;
  return SEEN(grappi_graph_hypothesize_json(NULL, "KRAS", "MYC", corpus, opts, &json), json);
}
static grappi_status walk_call_grappi_eval_hypotheses_options(const void *opts) {
  char *json = NULL;
  return SEEN(grappi_eval_hypotheses_json(NULL, corpus, opts, &json, NULL), json);
}
static grappi_status walk_call_grappi_ask_options(const void *opts) {
  char *json = NULL;
  return SEEN(grappi_graph_ask_json(g, "Which proteins interact with APP?", NULL, opts, &json), json);
}
static grappi_status walk_call_grappi_reader_options(const void *opts) {
  char *json = NULL;
  return SEEN(grappi_graph_train_reader_json(g, questions, NULL, NULL, NULL, opts, &json), json);
}
static grappi_status walk_call_grappi_pcst_options(const void *opts) {
  static const double prizes[] = {5.0, 0.0, 3.0, 1.0};
  static const int64_t edges[] = {0, 1, 1, 2, 2, 3, 0, 3};
  static const double costs[] = {1.0, 1.0, 2.0, 4.0};
  grappi_pcst_solver *solver = NULL;
  grappi_pcst_result result = GRAPPI_PCST_RESULT_INIT;
  grappi_status s;
  if (grappi_pcst_solver_new(&solver) != GRAPPI_OK) return seen(GRAPPI_EINTERNAL, NULL);
  s = grappi_pcst_solver_solve(solver, 4, prizes, 4, edges, costs, opts, &result);
  grappi_pcst_solver_free(solver);
  return seen(s, s == GRAPPI_OK ? malloc(1) : NULL);
}

/* ---- the walk ------------------------------------------------------------------------------- */

/* A run that asks long work (a reader's 100,000 epochs) to stop after WALK_CANCEL_SECONDS: the
   agents' work is bounded by their run's cancel, which must then be honoured within the walk's time
   limit. */
static double call_started;
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
static int32_t cancel_late(void *user) {
  (void)user;
  return now() - call_started >= WALK_CANCEL_SECONDS;
}
static grappi_run_options run;
/* Says which calls took longer than half a second (where the walk's time goes). */
static void slow(void) {
  const double took = now() - call_started;
  if (took > 0.5) printf("  %.1f s: %s\n", took, current);
}

/* Options that make a field's extremes reach work (a k-hop export, paths in a window), keep the
   defaults' work small (a reader of two epochs, a bootstrap of 50), and give every agent the run
   that cancels. */
static void base(const char *name, void *p) {
  if (strcmp(name, "grappi_explore_options") == 0) ((grappi_explore_options *)p)->run = &run;
  if (strcmp(name, "grappi_ground_options") == 0) ((grappi_ground_options *)p)->run = &run;
  if (strcmp(name, "grappi_extract_options") == 0) ((grappi_extract_options *)p)->run = &run;
  if (strcmp(name, "grappi_hypothesis_options") == 0) ((grappi_hypothesis_options *)p)->run = &run;
  if (strcmp(name, "grappi_ask_options") == 0) ((grappi_ask_options *)p)->run = &run;
  if (strcmp(name, "grappi_reader_options") == 0) ((grappi_reader_options *)p)->run = &run;
  if (strcmp(name, "grappi_export_options") == 0) {
    ((grappi_export_options *)p)->khop = "APP";
  } else if (strcmp(name, "grappi_window_options") == 0) {
    ((grappi_window_options *)p)->max_path_length = 3;
  } else if (strcmp(name, "grappi_embed_options") == 0) {
    ((grappi_embed_options *)p)->embedder = "hashing";
  } else if (strcmp(name, "grappi_eval_hypotheses_options") == 0) {
    ((grappi_eval_hypotheses_options *)p)->bootstrap = 50;
  } else if (strcmp(name, "grappi_reader_options") == 0) {
    grappi_reader_options *r = (grappi_reader_options *)p;
    r->epochs = 2;
    r->hidden = 8;
    r->heads = 2;
    r->name = "walk";
  }
}

/* The values each kind takes in turn; for the largest accepted, the candidates from the largest. */
static const uint64_t u64_values[] = {0, 1, (uint64_t)1 << 40, UINT64_MAX};
static const int64_t i64_values[] = {INT64_MIN, -1, 0, INT64_MAX};
static const double double_values[] = {-1e308, -1.0, 0.0, 1e308};
static const uint64_t descending[] = {UINT64_MAX,    (uint64_t)1 << 40, (uint64_t)1 << 31, 1000000000, 1000000, 100000,
                                      10000,         1000,              100,               12,         4,       2,
                                      1};
static const double descending_double[] = {1e308, 1e9, 1e6, 1000.0, 100.0, 10.0, 1.0, 0.5, 0.0};

static void set(void *p, const walk_field *f, uint64_t u, int64_t i, double d, const char *text) {
  char *at = (char *)p + f->offset;
  switch (f->kind) {
    case WALK_VERSION:
    case WALK_U32: {
      uint32_t v = u > UINT32_MAX ? UINT32_MAX : (uint32_t)u;
      memcpy(at, &v, sizeof v);
      break;
    }
    case WALK_I32: {
      int32_t v = i > INT32_MAX ? INT32_MAX : i < INT32_MIN ? INT32_MIN : (int32_t)i;
      memcpy(at, &v, sizeof v);
      break;
    }
    case WALK_U64: memcpy(at, &u, sizeof u); break;
    case WALK_I64: memcpy(at, &i, sizeof i); break;
    case WALK_SIZE: {
      size_t v = u > SIZE_MAX ? SIZE_MAX : (size_t)u;
      memcpy(at, &v, sizeof v);
      break;
    }
    case WALK_DOUBLE: memcpy(at, &d, sizeof d); break;
    default: memcpy(at, &text, sizeof text); break;
  }
}

/* One call with one field at one value (the others at the base). */
static grappi_status one(const walk_struct *w, const walk_field *f, uint64_t u, int64_t i, double d, const char *text,
                         const char *shown) {
  unsigned char *p = (unsigned char *)calloc(1, w->size);
  grappi_status s;
  if (!p || w->init(p) != GRAPPI_OK) {
    fprintf(stderr, "FAIL: %s: the defaults\n", w->name);
    exit(1);
  }
  base(w->name, p);
  set(p, f, u, i, d, text);
  describe(w->name, f->name, shown);
  call_started = now();
  alarm(WALK_SECONDS);
  s = w->call(p);
  alarm(0);
  slow();
  free(p);
  return s;
}

static void walk_field_values(const walk_struct *w, const walk_field *f) {
  char shown[100];
  size_t j;
  switch (f->kind) {
    case WALK_VERSION:
      one(w, f, 0, 0, 0, NULL, "0");
      one(w, f, 1000, 0, 0, NULL, "1000");
      one(w, f, UINT32_MAX, 0, 0, NULL, "UINT32_MAX");
      break;
    case WALK_U32:
    case WALK_U64:
    case WALK_SIZE:
      for (j = 0; j < sizeof u64_values / sizeof u64_values[0]; ++j) {
        snprintf(shown, sizeof shown, "%llu (clamped to the type)", (unsigned long long)u64_values[j]);
        one(w, f, u64_values[j], 0, 0, NULL, shown);
      }
      break;
    case WALK_I32:
    case WALK_I64:
      for (j = 0; j < sizeof i64_values / sizeof i64_values[0]; ++j) {
        snprintf(shown, sizeof shown, "%lld (clamped to the type)", (long long)i64_values[j]);
        one(w, f, 0, i64_values[j], 0, NULL, shown);
      }
      break;
    case WALK_DOUBLE:
      for (j = 0; j < sizeof double_values / sizeof double_values[0]; ++j) {
        snprintf(shown, sizeof shown, "%g", double_values[j]);
        one(w, f, 0, 0, double_values[j], NULL, shown);
      }
      one(w, f, 0, 0, NAN, NULL, "NaN");
      one(w, f, 0, 0, INFINITY, NULL, "inf");
      one(w, f, 0, 0, -INFINITY, NULL, "-inf");
      break;
    case WALK_TEXT:
      one(w, f, 0, 0, 0, "\xff\xfe", "invalid UTF-8");
      /* fall through */
    default:
      one(w, f, 0, 0, 0, "", "\"\"");
      one(w, f, 0, 0, 0, long_text, "1 MiB of letters");
      break;
  }
}

/* Each numeric field's largest value accepted alone (a status other than EINVAL), then every two
   of them at once and all of them at once: the most work the entry point lets a caller ask for,
   which must stay bounded. (All at once alone is not enough: one field's largest can empty the
   result, a window past the last, and hide what two others do together.) */
typedef struct walk_value {
  int set;
  uint64_t u;
  int64_t i;
  double d;
} walk_value;

static void call_with(const walk_struct *w, const walk_value *v, size_t a, size_t b, const char *what) {
  unsigned char *p = (unsigned char *)calloc(1, w->size);
  char shown[160];
  size_t k;
  if (!p || w->init(p) != GRAPPI_OK) exit(1);
  base(w->name, p);
  for (k = 0; k < w->field_count; ++k)
    if (v[k].set && (a == SIZE_MAX || k == a || k == b)) set(p, &w->fields[k], v[k].u, v[k].i, v[k].d, NULL);
  if (a == SIZE_MAX) snprintf(shown, sizeof shown, "%s", what);
  else snprintf(shown, sizeof shown, "%s and %s at %s", w->fields[a].name, w->fields[b].name, what);
  describe(w->name, a == SIZE_MAX ? "every numeric field" : "two fields", shown);
  call_started = now();
  alarm(WALK_SECONDS);
  w->call(p);
  alarm(0);
  slow();
  free(p);
}

static void walk_largest(const walk_struct *w) {
  walk_value *v = (walk_value *)calloc(w->field_count, sizeof *v);
  char shown[100];
  size_t k, j;
  if (!v) exit(1);
  for (k = 0; k < w->field_count; ++k) {
    const walk_field *f = &w->fields[k];
    if (f->kind == WALK_VERSION || f->kind == WALK_TEXT || f->kind == WALK_PATH) continue;
    for (j = 0; f->kind == WALK_DOUBLE ? j < sizeof descending_double / sizeof descending_double[0]
                                       : j < sizeof descending / sizeof descending[0];
         ++j) {
      const uint64_t u = f->kind == WALK_DOUBLE ? 0 : descending[j];
      const int64_t i = u > INT64_MAX ? INT64_MAX : (int64_t)u;
      const double d = f->kind == WALK_DOUBLE ? descending_double[j] : 0.0;
      if (f->kind == WALK_DOUBLE) snprintf(shown, sizeof shown, "%g, the largest accepted?", d);
      else snprintf(shown, sizeof shown, "%llu (clamped to the type), the largest accepted?", (unsigned long long)u);
      if (one(w, f, u, i, d, NULL, shown) != GRAPPI_EINVAL) {
        v[k].set = 1;
        v[k].u = u;
        v[k].i = i;
        v[k].d = d;
        break;
      }
    }
  }
  for (k = 0; k < w->field_count; ++k)
    for (j = k + 1; j < w->field_count; ++j)
      if (v[k].set && v[j].set) call_with(w, v, k, j, "the largest each accepts alone");
  call_with(w, v, SIZE_MAX, SIZE_MAX, "the largest it accepts alone");
  free(v);
}

/* ---- the entry points' own size arguments --------------------------------------------------- */

static grappi_status sized_call(int which, const uint64_t *a) {
  const size_t x = a[0] > SIZE_MAX ? SIZE_MAX : (size_t)a[0], y = a[1] > SIZE_MAX ? SIZE_MAX : (size_t)a[1],
               z = a[2] > SIZE_MAX ? SIZE_MAX : (size_t)a[2];
  char *json = NULL, *rows = NULL;
  int64_t ids[8];
  float fscores[8];
  size_t count = 0;
  grappi_status s;
  switch (which) {
    case 0: return SEEN(grappi_graph_paths_json(g, app, apoe, x, y, 1, &json), json);
    case 1: return SEEN(grappi_graph_all_shortest_paths_json(g, app, apoe, x, y, 0, &json), json);
    case 2: return SEEN(grappi_graph_khop_json(g, "amyloid precursor", x, y, z, &json), json);
    case 3: return SEEN(grappi_graph_complete_json(g, "A", x, &json), json);
    case 4:
      s = grappi_graph_search(g, "amyloid", x, ids, fscores, 8, &count);
      return seen(s, s == GRAPPI_OK || s == GRAPPI_EBUFS ? malloc(1) : NULL);
    case 5: return SEEN(grappi_graph_search_papers_json(scratch, "KRAS", x, &json), json);
    default:
      s = SEEN(grappi_graph_eval_qa_json(g, questions, NULL, NULL, x, &json, &rows), json);
      grappi_free(rows);
      return s;
  }
}

static void walk_sized(void) {
  static const char *names[] = {"grappi_graph_paths_json (max_length, k)",
                                "grappi_graph_all_shortest_paths_json (max_length, k)",
                                "grappi_graph_khop_json (seeds, hops, degree_cap)",
                                "grappi_graph_complete_json (limit)",
                                "grappi_graph_search (k)",
                                "grappi_graph_search_papers_json (limit)",
                                "grappi_graph_eval_qa_json (k)"};
  static const size_t arity[] = {2, 2, 3, 1, 1, 1, 1};
  static const uint64_t small[] = {2, 3, 4};
  int which;
  size_t arg, j;
  char field[32], shown[80];
  for (which = 0; which < 7; ++which) {
    uint64_t largest[3] = {2, 3, 4};
    for (arg = 0; arg < arity[which]; ++arg) {
      for (j = 0; j < sizeof descending / sizeof descending[0]; ++j) {
        uint64_t a[3];
        memcpy(a, small, sizeof a);
        a[arg] = descending[j];
        snprintf(field, sizeof field, "argument %zu", arg + 1);
        snprintf(shown, sizeof shown, "%llu, the largest accepted?", (unsigned long long)descending[j]);
        describe(names[which], field, shown);
        alarm(WALK_SECONDS);
        if (sized_call(which, a) != GRAPPI_EINVAL) {
          alarm(0);
          largest[arg] = descending[j];
          break;
        }
        alarm(0);
      }
      /* and 0 */
      {
        uint64_t a[3];
        memcpy(a, small, sizeof a);
        a[arg] = 0;
        describe(names[which], field, "0");
        alarm(WALK_SECONDS);
        sized_call(which, a);
        alarm(0);
      }
    }
    describe(names[which], "every size argument", "the largest it accepts alone");
    alarm(WALK_SECONDS);
    sized_call(which, largest);
    alarm(0);
  }
}

/* ---- set-up --------------------------------------------------------------------------------- */

static void need(grappi_status s, const char *what) {
  if (s != GRAPPI_OK) {
    fprintf(stderr, "FAIL: set-up: %s: %s\n", what, grappi_last_error_message());
    exit(1);
  }
}

static void set_up(const char *data) {
  char path[1024];
  size_t embedded = 0;
  grappi_embed_options eo;
  char *json = NULL;
  FILE *f;
  snprintf(dir, sizeof dir, "/tmp/grappi_walk_%ld", (long)getpid());
  if (mkdir(dir, 0700) != 0) {
    fprintf(stderr, "FAIL: cannot make %s\n", dir);
    exit(1);
  }
  snprintf(alz, sizeof alz, "%s/export_v12_alzheimer/string_interactions.tsv", data);
  snprintf(edges_file, sizeof edges_file, "%s/edges.tsv", dir);
  snprintf(out_file, sizeof out_file, "%s/out.tsv", dir);
  f = fopen(edges_file, "w");
  if (!f) exit(1);
  fputs("a\tb\tscore\nAPP\tAPOE\t0.9\nAPP\tPSEN1\t0.8\n", f);
  fclose(f);
  snprintf(path, sizeof path, "%s/g.db", dir);
  need(grappi_graph_open(path, NULL, &g), "open");
  need(grappi_graph_import(g, "export", alz), alz);
  snprintf(path, sizeof path, "%s/ontology/psi-mi.obo", data);
  need(grappi_graph_import(g, "obo", path), path);
  /* (a small GO and annotations of it, for enrich) */
  snprintf(path, sizeof path, "%s/go.obo", dir);
  f = fopen(path, "w");
  if (!f) exit(1);
  fputs("format-version: 1.2\nontology: go\n\n[Term]\nid: GO:0000001\nname: root\nnamespace: biological_process\n\n"
        "[Term]\nid: GO:0000002\nname: child\nnamespace: biological_process\nis_a: GO:0000001\n",
        f);
  fclose(f);
  need(grappi_graph_import(g, "obo", path), path);
  snprintf(path, sizeof path, "%s/genes.tsv", dir);
  f = fopen(path, "w");
  if (!f) exit(1);
  fputs("symbol\tgo_bp\nAPP\tGO:0000002:IDA\nAPOE\tGO:0000002:IEA\nPSEN1\tGO:0000001:IDA\nMAPT\tGO:0000001:TAS\n", f);
  fclose(f);
  need(grappi_graph_import(g, "mapping", path), path);
  grappi_embed_options_init(&eo, GRAPPI_EMBED_OPTIONS_VERSION);
  eo.embedder = "hashing";
  need(grappi_graph_embed(g, &eo, &embedded), "embed");
  need(grappi_graph_resolve(g, "APP", &app), "APP");
  need(grappi_graph_resolve(g, "APOE", &apoe), "APOE");
  snprintf(path, sizeof path, "%s/scratch.db", dir);
  need(grappi_graph_open(path, NULL, &scratch), "open scratch");
  need(grappi_graph_import(scratch, "export", alz), alz);
  need(grappi_graph_cooc_build_json(scratch, corpus, NULL, &json), "cooc");
  grappi_free(json);
  long_text = (char *)malloc((1 << 20) + 1);
  if (!long_text) exit(1);
  memset(long_text, 'x', 1 << 20);
  long_text[1 << 20] = '\0';
}

static void remove_all(void) {
  static const char *files[] = {"g.db", "g.db-wal", "g.db-shm", "scratch.db", "scratch.db-wal", "scratch.db-shm",
                                "open.db", "open.db-wal", "open.db-shm", "edges.tsv", "out.tsv"};
  char path[400];
  size_t i;
  for (i = 0; i < sizeof files / sizeof files[0]; ++i) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    remove(path);
  }
  rmdir(dir);
}

int main(int argc, char **argv) {
  struct rlimit limit;
  size_t i, k;
  if (argc < 2) {
    fprintf(stderr, "usage: %s DATA_DIR [ONLY]\n", argv[0]);
    return 2;
  }
  limit.rlim_cur = limit.rlim_max = WALK_MEMORY;
  if (setrlimit(RLIMIT_AS, &limit) != 0) {
    fprintf(stderr, "FAIL: cannot limit the address space\n");
    return 1;
  }
  signal(SIGALRM, on_alarm);
  grappi_run_options_init(&run, GRAPPI_RUN_OPTIONS_VERSION);
  run.cancel = cancel_late;
  set_up(argv[1]);
  for (i = 0; i < sizeof walk_structs / sizeof walk_structs[0]; ++i) {
    const walk_struct *w = &walk_structs[i];
    const int before = calls;
    if (argc > 2 && !strstr(w->name, argv[2])) continue;
    for (k = 0; k < w->field_count; ++k) walk_field_values(w, &w->fields[k]);
    walk_largest(w);
    printf("%s: %zu fields, %d calls\n", w->name, w->field_count, calls - before);
    fflush(stdout);
  }
  if (argc <= 2) walk_sized();
  grappi_graph_free(g);
  grappi_graph_free(scratch);
  free(long_text);
  remove_all();
  printf("%d calls, %d failures\n", calls, failures);
  return failures == 0 ? 0 : 1;
}
