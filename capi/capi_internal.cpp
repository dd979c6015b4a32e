// The C layer's common parts: the thread's error, caller strings and copies out, the options
// tables checked against their _VERSION macros, the conversions of C options into the C++ ones,
// and the entry points of errors, versions and memory.
#include "capi_internal.hpp"

namespace grappi::capi {

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


[[noreturn]] void invalid(const std::string &what) { throw grappi::Error(grappi::ErrorCode::invalid_argument, what); }

void require(bool cond, const char *fn, const char *what) {
  if (!cond) invalid(std::string(fn) + ": " + what);
}

// A caller's string: non-NULL and valid UTF-8.
std::string text(const char *s, const char *fn, const char *what) {
  if (!s) invalid(std::string(fn) + ": " + what + " is NULL");
  if (!grappi::detail::valid_utf8(s)) invalid(std::string(fn) + ": " + what + " is not valid UTF-8");
  return s;
}
// An optional string: the fallback when NULL.
std::string text_or(const char *s, const std::string &fallback, const char *fn, const char *what) {
  return s ? text(s, fn, what) : fallback;
}

// A library-allocated copy of a string, for the caller to grappi_free.
char *copy_out(const std::string &s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  if (!p) throw std::bad_alloc();
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

// A report and, when asked for, the JSON beside it: both copied, or neither.
void copy_report(const std::string &json, const std::string &html, char **out_json, char **out_html) {
  char *h = copy_out(html);
  if (out_json) {
    try {
      *out_json = copy_out(json);
    } catch (...) {
      std::free(h);
      throw;
    }
  }
  *out_html = h;
}

grappi::KnowledgeGraph &graph_of(grappi_graph *g, const char *fn) {
  if (!g || !g->kg) invalid(std::string(fn) + ": graph is NULL");
  return *g->kg;
}

// (each struct's version table against its _VERSION macro, from the one list of capi_options.hpp)
#define GRAPPI_CAPI_CHECK_VERSIONS(T, INIT, VERSION, LAST)   \
  static_assert(versions_agree<T>(VERSION), #T ": its version table and " #VERSION \
                " disagree, or its last version does not end the struct");
GRAPPI_CAPI_VERSIONED_STRUCTS(GRAPPI_CAPI_CHECK_VERSIONS)
#undef GRAPPI_CAPI_CHECK_VERSIONS

// ---- conversions to the C++ options ---------------------------------------------------------------

// A C array of `count` strings (`array` and `count_field` name the fields in messages, `item` an
// entry): Error(invalid_argument) for a NULL array with a count, a NULL or non-UTF-8 entry.
std::vector<std::string> string_array(const char *const *items, std::size_t count, const char *fn, const char *array,
                                      const char *count_field, const char *item) {
  if (count != 0 && !items) require(false, fn, (std::string(array) + " is NULL but " + count_field + " is not 0").c_str());
  std::vector<std::string> out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) out.push_back(text(items[i], fn, item));
  return out;
}

grappi::PcstEventOrder event_order(int32_t order, const char *fn) {
  switch (order) {
    case GRAPPI_PCST_ORDER_DEFAULT: return grappi::PcstOptions{}.event_order;
    case GRAPPI_PCST_ORDER_FAST: return grappi::PcstEventOrder::fast;
    case GRAPPI_PCST_ORDER_REFERENCE: return grappi::PcstEventOrder::reference;
    default:
      invalid(std::string(fn) + ": event_order " + std::to_string(order) +
              " is not GRAPPI_PCST_ORDER_DEFAULT, _FAST or _REFERENCE");
  }
}

grappi::PcstRetrieveOptions retrieve_options(const grappi_retrieve_options *opts, const char *fn) {
  const grappi_retrieve_options o = read_options(opts, fn);
  grappi::PcstRetrieveOptions r;
  r.mode = text_or(o.mode, r.mode, fn, "mode");
  r.seeds = o.seeds;
  r.khop.hops = o.hops;
  r.khop.degree_cap = o.degree_cap;
  r.khop.node_budget = o.node_budget;
  r.khop.filter.min_score = o.min_score;
  r.topk = o.topk;
  r.topk_e = o.topk_e;
  r.cost_e = o.cost_e;
  r.pyg_cap = o.pyg_cap != 0;
  r.alpha = o.alpha;
  r.beta = o.beta;
  r.gamma = o.gamma;
  r.lambda = o.lambda;
  r.pruning = grappi::pruning_from_name(text_or(o.pruning, "gw", fn, "pruning"));
  r.num_clusters = o.num_clusters;
  r.event_order = event_order(o.event_order, fn);
  if (o.relations || o.relation_count)
    r.khop.filter.relations = string_array(o.relations, o.relation_count, fn, "relations", "relation_count", "a relation");
  return r;
}

grappi::PcstRetrieval retrieve(grappi_graph *g, const char *question, const grappi::PcstRetrieveOptions &o,
                               const char *fn) {
  auto &kg = graph_of(g, fn);
  const auto q = grappi::query_vector(kg, text(question, fn, "question"));
  return grappi::graph_retriever(kg)->pcst_retrieve(q, o);
}

std::string retrieve_csv(grappi::KnowledgeGraph &kg, const grappi::PcstRetrieval &r) {
  return grappi::to_gretriever_csv(grappi::graph_retriever(kg)->graph(), r.subgraph,
                                   [&](int64_t id) { return grappi::KnowledgeGraph::node_text(*kg.node(id)); });
}

// A C chat callback as the C++ callback model's function.
grappi::CallbackModel::Function callback_function(grappi_chat_fn fn_ptr, void *user) {
  return [fn_ptr, user](const grappi::ChatRequest &q) {
    nlohmann::json msgs = nlohmann::json::array();
    for (const auto &m : q.messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
    const nlohmann::json j{{"messages", msgs}, {"json", q.json}, {"max_tokens", q.max_tokens}, {"task", q.task}};
    const std::string request = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    grappi_chat_reply reply;
    const int32_t rc = fn_ptr(user, request.c_str(), &reply);
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
  };
}

// The model a grappi_model_options describes (grappi_model_new).
std::shared_ptr<grappi::LanguageModel> model_of(const grappi_model_options &o, const char *fn) {
  grappi::ChatModelSpec spec;
  spec.kind = text_or(o.llm, "extractive", fn, "llm");
  spec.name = text_or(o.model, "", fn, "model");
  spec.openai.model = spec.name;
  spec.openai.base_url = text_or(o.base_url, spec.openai.base_url, fn, "base_url");
  spec.openai.api_key_env = text_or(o.api_key_env, spec.openai.api_key_env, fn, "api_key_env");
  spec.openai.temperature = o.temperature;
  require(o.max_answer_tokens > 0, fn, "max_answer_tokens must be at least 1");
  spec.openai.max_tokens = o.max_answer_tokens;
  spec.openai.json_mode = o.json_mode != 0;
  require(o.connect_timeout_seconds > 0 && o.timeout_seconds > 0, fn, "the timeouts must be positive");
  spec.openai.connect_timeout_seconds = o.connect_timeout_seconds;
  spec.openai.timeout_seconds = o.timeout_seconds;
  require(o.max_retries >= 0, fn, "max_retries must be >= 0");
  spec.openai.max_retries = o.max_retries;
  require(o.concurrency > 0, fn, "concurrency must be at least 1");
  spec.openai.concurrency = o.concurrency;
  spec.concurrency = o.concurrency;
  if (spec.kind == "callback") {
    require(o.chat != nullptr, fn, "llm \"callback\" needs chat");
    spec.callback = callback_function(o.chat, o.user_data);
  }
  return grappi::make_chat_model(spec);
}



// The run's cancel callback as the C++ options take it (empty when none is given).
std::function<bool()> run_cancel(const grappi_run_options &r) {
  if (!r.cancel) return {};
  const grappi_cancel_fn cancel = r.cancel;
  void *user = r.user_data;
  return [cancel, user] { return cancel(user) != 0; };
}

// The run's progress callback, called one at a time (empty when none is given).
std::function<void(const char *, std::size_t, std::size_t)> run_progress(const grappi_run_options &r) {
  if (!r.progress) return {};
  const grappi_progress_fn progress = r.progress;
  void *user = r.user_data;
  auto mu = std::make_shared<std::mutex>();
  return [progress, user, mu](const char *stage, std::size_t done, std::size_t total) {
    std::lock_guard<std::mutex> lock(*mu);
    progress(user, stage, done, total);
  };
}

// A run's cancel and progress, set on any agent's options (grappi::RunControl).
void set_run(grappi::RunControl &c, const grappi_run_options &r) {
  c.cancel = run_cancel(r);
  if (auto progress = run_progress(r))
    c.progress = [progress](const std::string &stage, std::size_t done, std::size_t total) { progress(stage.c_str(), done, total); };
}

void set_budget(grappi::RunControl &c, const grappi_budget_options &b) {
  c.max_calls = b.max_calls;
  c.max_tokens = b.max_tokens;
  c.use_cache = b.use_cache != 0;
}

grappi::ExploreOptions explore_options(const grappi_explore_options &o, const char *query, const char *fn) {
  require(o.window_count == 0 || o.windows, fn, "windows is NULL but window_count > 0");
  require(o.k_count == 0 || o.k, fn, "k is NULL but k_count > 0");
  grappi::ExploreOptions eo;
  eo.query = text(query, fn, "query");
  if (o.window_count) eo.windows.assign(o.windows, o.windows + o.window_count);
  if (o.k_count) eo.window.k.assign(o.k, o.k + o.k_count);
  eo.window.depth = o.depth;
  eo.window.filter.min_score = o.min_score;
  eo.max_length = o.max_length;
  eo.max_paths = o.max_paths;
  eo.top = o.top;
  eo.explain_top = o.explain_top;
  eo.concurrency = o.concurrency ? o.concurrency : 1;
  set_budget(eo, o.budget);
  eo.dry_run = o.budget.dry_run != 0;
  eo.diversity = o.diversity;
  eo.max_visited = o.max_visited;
  set_run(eo, read_options(o.run, fn));
  return eo;
}

grappi::PcstOptions pcst_options(const grappi_pcst_options *opts, const char *fn) {
  const grappi_pcst_options o = read_options(opts, fn);
  grappi::PcstOptions p;
  p.root = o.root;
  p.num_clusters = o.num_clusters;
  p.pruning = grappi::pruning_from_name(text_or(o.pruning, "gw", fn, "pruning"));
  p.improve = o.improve != 0;
  p.event_order = event_order(o.event_order, fn);
  return p;
}

void check_pcst_arrays(std::size_t num_nodes, const double *prizes, std::size_t num_edges, const int64_t *edges,
                       const double *costs, const char *fn) {
  require(num_nodes == 0 || prizes, fn, "prizes is NULL");
  require(num_edges == 0 || (edges && costs), fn, "edges or costs is NULL");
}

grappi_status write_hits(const std::vector<grappi::SearchHit> &hits, int64_t *out_ids, float *out_scores, std::size_t capacity,
                         std::size_t *out_count) {
  *out_count = hits.size();
  if (capacity < hits.size())
    return set_error(GRAPPI_EBUFS, std::to_string(hits.size()) + " results do not fit in capacity " + std::to_string(capacity));
  for (std::size_t i = 0; i < hits.size(); ++i) {
    out_ids[i] = hits[i].id;
    if (out_scores) out_scores[i] = hits[i].score;
  }
  return GRAPPI_OK;
}

// The C cluster options as the library's.
grappi::ClusterOptions cluster_options_of(const grappi_cluster_options &o, const char *fn) {
  grappi::ClusterOptions co;
  co.method = grappi::cluster_method(text_or(o.method, "mcl", fn, "method"));
  co.min_score = o.min_score;
  co.relations = string_array(o.relations, o.relation_count, fn, "relations", "relation_count", "a relation");
  co.inflation = o.inflation;
  co.max_iterations = o.max_iterations;
  co.resolution = o.resolution;
  co.seed = o.seed;
  co.runs = o.runs;
  co.max_cluster_size = o.max_cluster_size;
  co.max_levels = o.max_levels;
  co.terms = o.terms;
  co.enrich_min_size = o.enrich_min_size;
  co.max_fdr = o.max_fdr;
  return co;
}

grappi::AskOptions ask_options(const grappi_retrieve_options *retrieve, const grappi_ask_options &o, const char *fn) {
  grappi::AskOptions a;
  a.retrieval = retrieve_options(retrieve, fn);
  const std::vector<std::string> weighted = string_array(o.weighted_relations, o.relation_weight_count, fn,
                                                         "weighted_relations", "relation_weight_count", "a relation");
  if (!weighted.empty() && !o.relation_weights)
    invalid(std::string(fn) + ": relation_weights is NULL but relation_weight_count is not 0");
  for (std::size_t i = 0; i < weighted.size(); ++i) {
    if (!std::isfinite(o.relation_weights[i]) || o.relation_weights[i] < 0)
      invalid(std::string(fn) + ": the weight of '" + weighted[i] + "' must be a finite number at least 0");
    a.retrieval.relation_weights[weighted[i]] = o.relation_weights[i];
  }
  a.embedding_model = text_or(o.embedding_model, "", fn, "embedding_model");
  a.context = text_or(o.context, "evidence", fn, "context");
  a.max_context_tokens = o.max_context_tokens;
  a.top = o.answers;
  a.exclude_question_entities = o.keep_question_entities == 0;
  a.repair = o.repair != 0;
  set_budget(a, o.budget);
  a.dry_run = o.budget.dry_run != 0;
  a.reader = text_or(o.reader, "prize", fn, "reader");
  a.reader_name = text_or(o.reader_name, "gat", fn, "reader_name");
  a.intents = o.intents != 0;
  a.model_intent = o.model_intent != 0;
  a.intent_candidates = o.intent_candidates;
  a.papers = o.papers;
  set_run(a, read_options(o.run, fn));
  return a;
}

}  // namespace grappi::capi

using namespace grappi::capi;

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

}  // extern "C"
