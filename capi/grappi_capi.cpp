// The C API: a thin extern "C" layer over the C++ API, holding no logic of its own. Every body
// runs inside guard(), which turns any exception into a status code and a thread-local
// message; options structs are read by version (read_options), so callers built against an
// older header keep working.
#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "grappi/grappi.h"
#include "grappi/grappi.hpp"
#include "common/text_reader.hpp"

struct grappi_graph {
  std::unique_ptr<grappi::KnowledgeGraph> kg;
};

struct grappi_pcst_solver {
  grappi::PCSTSolver solver;
  grappi::PcstResult result;  // what the last grappi_pcst_result points into
};

struct grappi_chat_reply {
  std::string content, error;
  int64_t prompt_tokens = 0, completion_tokens = 0;
  bool set = false;
};

struct grappi_model {
  std::shared_ptr<grappi::LanguageModel> model;
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
  } catch (const std::bad_alloc &e) {
    // (the library's own say what it was doing: "out of memory while importing x.bel.gz")
    const bool says = std::strncmp(e.what(), "out of memory", 13) == 0;
    return set_error(GRAPPI_ENOMEM, says ? e.what() : "out of memory");
  } catch (const std::exception &e) {
    return set_error(GRAPPI_EINTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return set_error(GRAPPI_EINTERNAL, "internal error: unknown exception");
  }
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

// ---- versioned options ----------------------------------------------------------------------------
// Each options struct lists, per version, where its last field ends (not sizeof: a later field
// may sit in what was tail padding). A caller's struct of version v is read for exactly that
// many bytes over the defaults, and _init writes exactly that many.

#define GRAPPI_FIELD_END(T, f) (offsetof(T, f) + sizeof(static_cast<T *>(nullptr)->f))

template <class T>
struct Versions;
template <>
struct Versions<grappi_open_options> {
  static constexpr const char *name = "grappi_open_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_open_options, busy_timeout_ms)};
  static grappi_open_options defaults() { return GRAPPI_OPEN_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_embed_options> {
  static constexpr const char *name = "grappi_embed_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_embed_options, user_data)};
  static grappi_embed_options defaults() { return GRAPPI_EMBED_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_window_options> {
  static constexpr const char *name = "grappi_window_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_window_options, max_paths)};
  static grappi_window_options defaults() { return GRAPPI_WINDOW_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_enrich_options> {
  static constexpr const char *name = "grappi_enrich_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_enrich_options, max_fdr)};
  static grappi_enrich_options defaults() { return GRAPPI_ENRICH_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_cluster_options> {
  static constexpr const char *name = "grappi_cluster_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_cluster_options, max_fdr)};
  static grappi_cluster_options defaults() { return GRAPPI_CLUSTER_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_retrieve_options> {
  static constexpr const char *name = "grappi_retrieve_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_retrieve_options, num_clusters),
                                        GRAPPI_FIELD_END(grappi_retrieve_options, event_order),
                                        GRAPPI_FIELD_END(grappi_retrieve_options, relation_count)};
  static grappi_retrieve_options defaults() { return GRAPPI_RETRIEVE_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_explore_options> {
  static constexpr const char *name = "grappi_explore_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_explore_options, user_data),
                                        GRAPPI_FIELD_END(grappi_explore_options, max_visited),
                                        GRAPPI_FIELD_END(grappi_explore_options, run)};
  static grappi_explore_options defaults() { return GRAPPI_EXPLORE_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_ground_options> {
  static constexpr const char *name = "grappi_ground_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_ground_options, ontology),
                                        GRAPPI_FIELD_END(grappi_ground_options, run)};
  static grappi_ground_options defaults() { return GRAPPI_GROUND_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_extract_options> {
  static constexpr const char *name = "grappi_extract_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_extract_options, import_statements),
                                        GRAPPI_FIELD_END(grappi_extract_options, run)};
  static grappi_extract_options defaults() { return GRAPPI_EXTRACT_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_cooc_options> {
  static constexpr const char *name = "grappi_cooc_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_cooc_options, path)};
  static grappi_cooc_options defaults() { return GRAPPI_COOC_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_hypothesis_options> {
  static constexpr const char *name = "grappi_hypothesis_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_hypothesis_options, embedding_model),
                                        GRAPPI_FIELD_END(grappi_hypothesis_options, fold_reorderings),
                                        GRAPPI_FIELD_END(grappi_hypothesis_options, run),
                                        GRAPPI_FIELD_END(grappi_hypothesis_options, shortest_rounds)};
  static grappi_hypothesis_options defaults() { return GRAPPI_HYPOTHESIS_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_ask_options> {
  static constexpr const char *name = "grappi_ask_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_ask_options, concurrency),
                                        GRAPPI_FIELD_END(grappi_ask_options, reader_name),
                                        GRAPPI_FIELD_END(grappi_ask_options, intent_candidates),
                                        GRAPPI_FIELD_END(grappi_ask_options, papers),
                                        GRAPPI_FIELD_END(grappi_ask_options, run)};
  static grappi_ask_options defaults() { return GRAPPI_ASK_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_reader_options> {
  static constexpr const char *name = "grappi_reader_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_reader_options, threads),
                                        GRAPPI_FIELD_END(grappi_reader_options, max_nodes),
                                        GRAPPI_FIELD_END(grappi_reader_options, run)};
  static grappi_reader_options defaults() { return GRAPPI_READER_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_pcst_options> {
  static constexpr const char *name = "grappi_pcst_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_pcst_options, event_order)};
  static grappi_pcst_options defaults() { return GRAPPI_PCST_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_export_options> {
  static constexpr const char *name = "grappi_export_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_export_options, hops)};
  static grappi_export_options defaults() { return GRAPPI_EXPORT_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_import_options> {
  static constexpr const char *name = "grappi_import_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_import_options, separator)};
  static grappi_import_options defaults() { return GRAPPI_IMPORT_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_eval_hypotheses_options> {
  static constexpr const char *name = "grappi_eval_hypotheses_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_eval_hypotheses_options, hypothesis),
                                        GRAPPI_FIELD_END(grappi_eval_hypotheses_options, after_corpus)};
  static grappi_eval_hypotheses_options defaults() { return GRAPPI_EVAL_HYPOTHESES_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_model_options> {
  static constexpr const char *name = "grappi_model_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_model_options, user_data)};
  static grappi_model_options defaults() { return GRAPPI_MODEL_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_run_options> {
  static constexpr const char *name = "grappi_run_options";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_run_options, user_data)};
  static grappi_run_options defaults() { return GRAPPI_RUN_OPTIONS_INIT; }
};
template <>
struct Versions<grappi_pcst_result> {
  static constexpr const char *name = "grappi_pcst_result";
  static constexpr std::size_t end[] = {GRAPPI_FIELD_END(grappi_pcst_result, improve_rounds)};
};

template <class T>
constexpr uint32_t current_version() {
  return static_cast<uint32_t>(std::size(Versions<T>::end));
}

// Each options version table is tied to its _VERSION macro at compile time: as many versions as
// the macro says, growing, and the last one ending where the struct does (but its padding).
template <class T>
constexpr bool versions_agree(uint32_t macro) {
  const auto &end = Versions<T>::end;
  if (std::size(end) != macro) return false;
  for (std::size_t i = 1; i < std::size(end); ++i)
    if (end[i] <= end[i - 1]) return false;
  return end[std::size(end) - 1] <= sizeof(T) && sizeof(T) - end[std::size(end) - 1] < alignof(T);
}
static_assert(versions_agree<grappi_open_options>(GRAPPI_OPEN_OPTIONS_VERSION), "grappi_open_options: its version table and GRAPPI_OPEN_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_import_options>(GRAPPI_IMPORT_OPTIONS_VERSION), "grappi_import_options: its version table and GRAPPI_IMPORT_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_export_options>(GRAPPI_EXPORT_OPTIONS_VERSION), "grappi_export_options: its version table and GRAPPI_EXPORT_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_embed_options>(GRAPPI_EMBED_OPTIONS_VERSION), "grappi_embed_options: its version table and GRAPPI_EMBED_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_window_options>(GRAPPI_WINDOW_OPTIONS_VERSION), "grappi_window_options: its version table and GRAPPI_WINDOW_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_retrieve_options>(GRAPPI_RETRIEVE_OPTIONS_VERSION), "grappi_retrieve_options: its version table and GRAPPI_RETRIEVE_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_explore_options>(GRAPPI_EXPLORE_OPTIONS_VERSION), "grappi_explore_options: its version table and GRAPPI_EXPLORE_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_ground_options>(GRAPPI_GROUND_OPTIONS_VERSION), "grappi_ground_options: its version table and GRAPPI_GROUND_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_extract_options>(GRAPPI_EXTRACT_OPTIONS_VERSION), "grappi_extract_options: its version table and GRAPPI_EXTRACT_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_cooc_options>(GRAPPI_COOC_OPTIONS_VERSION), "grappi_cooc_options: its version table and GRAPPI_COOC_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_hypothesis_options>(GRAPPI_HYPOTHESIS_OPTIONS_VERSION), "grappi_hypothesis_options: its version table and GRAPPI_HYPOTHESIS_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_eval_hypotheses_options>(GRAPPI_EVAL_HYPOTHESES_OPTIONS_VERSION), "grappi_eval_hypotheses_options: its version table and GRAPPI_EVAL_HYPOTHESES_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_ask_options>(GRAPPI_ASK_OPTIONS_VERSION), "grappi_ask_options: its version table and GRAPPI_ASK_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_reader_options>(GRAPPI_READER_OPTIONS_VERSION), "grappi_reader_options: its version table and GRAPPI_READER_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_pcst_options>(GRAPPI_PCST_OPTIONS_VERSION), "grappi_pcst_options: its version table and GRAPPI_PCST_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_model_options>(GRAPPI_MODEL_OPTIONS_VERSION), "grappi_model_options: its version table and GRAPPI_MODEL_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_run_options>(GRAPPI_RUN_OPTIONS_VERSION), "grappi_run_options: its version table and GRAPPI_RUN_OPTIONS_VERSION disagree, or its last version does not end the struct");
static_assert(versions_agree<grappi_pcst_result>(GRAPPI_PCST_RESULT_VERSION), "grappi_pcst_result: its version table and GRAPPI_PCST_RESULT_VERSION disagree, or its last version does not end the struct");

template <class T>
std::size_t bytes_of_version(uint32_t version, const char *fn) {
  if (version == 0 || version > current_version<T>())
    invalid(std::string(fn) + ": " + Versions<T>::name + " version " + std::to_string(version) +
            " is not one this library knows (1 to " + std::to_string(current_version<T>()) +
            "; fill the struct with its _init function or _INIT macro)");
  return Versions<T>::end[version - 1];
}

// The caller's options (NULL: none) over the current defaults.
template <class T>
T read_options(const T *in, const char *fn) {
  T out = Versions<T>::defaults();
  if (in) {
    std::memcpy(static_cast<void *>(&out), in, bytes_of_version<T>(in->version, fn));
    out.version = current_version<T>();
  }
  return out;
}

template <class T>
grappi_status init_options(T *opts, uint32_t version, const char *fn) {
  require(opts != nullptr, fn, "opts is NULL");
  const T d = Versions<T>::defaults();
  std::memcpy(static_cast<void *>(opts), &d, bytes_of_version<T>(version, fn));
  opts->version = version;
  return GRAPPI_OK;
}

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

// The model a grappi_model_options describes (grappi_model_new, and every agent's own llm fields).
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

// The model an options struct's own llm fields name (every agent's options share them); the
// other settings are grappi_model_options' defaults.
template <class Options>
std::shared_ptr<grappi::LanguageModel> chat_model(const Options &o, const char *fn) {
  grappi_model_options m = GRAPPI_MODEL_OPTIONS_INIT;
  m.llm = o.llm;
  m.model = o.model;
  m.base_url = o.base_url;
  m.api_key_env = o.api_key_env;
  if (o.concurrency) m.concurrency = o.concurrency;
  m.chat = o.chat;
  m.user_data = o.user_data;
  return model_of(m, fn);
}

// The model of a run: the run's model handle when it gives one, else the options' llm fields.
template <class Options>
std::shared_ptr<grappi::LanguageModel> run_model(const Options &o, const char *fn) {
  const grappi_run_options r = read_options(o.run, fn);
  if (r.model) {
    require(r.model->model != nullptr, fn, "run->model is not a model grappi_model_new made");
    return r.model->model;
  }
  return chat_model(o, fn);
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
  eo.max_calls = o.max_calls;
  eo.max_tokens = o.max_tokens;
  eo.dry_run = o.dry_run != 0;
  eo.use_cache = o.use_cache != 0;
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

// ---- the knowledge graph --------------------------------------------------------------------------

grappi_status grappi_open_options_init(grappi_open_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_open_options_init"); });
}

grappi_status grappi_graph_open(const char *path, const grappi_open_options *opts, grappi_graph **out) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_open";
    require(out != nullptr, fn, "out is NULL");
    *out = nullptr;
    const std::string p = text(path, fn, "path");
    const grappi_open_options o = read_options(opts, fn);
    grappi::OpenOptions oo;
    oo.read_only = o.read_only != 0;
    oo.create = o.create != 0;
    if (o.busy_timeout_ms > 0) oo.busy_timeout_ms = o.busy_timeout_ms;
    auto h = std::make_unique<grappi_graph>();
    h->kg = std::make_unique<grappi::KnowledgeGraph>(p, oo);
    *out = h.release();
    return GRAPPI_OK;
  });
}

void grappi_graph_free(grappi_graph *g) { delete g; }

}  // extern "C"

namespace {

// grappi_graph_import (no options, no report) and grappi_graph_import_with; fn names the one called.
grappi_status import_file(const char *fn, grappi_graph *g, const char *kind, const char *path,
                          const grappi_import_options *opts, char **out_report_json) {
  return guard([&]() -> grappi_status {
    if (out_report_json) *out_report_json = nullptr;
    auto &kg = graph_of(g, fn);
    const grappi_import_options in = read_options(opts, fn);
    grappi::ImportOptions o;
    o.min_score = in.min_score;
    o.skip_bad_lines = in.skip_bad_lines != 0;
    o.max_bad_examples = in.max_bad_examples;
    o.max_rows = in.max_rows;
    o.taxon = in.taxon;
    grappi::EdgeListOptions &e = o.edges;
    e.source_column = text_or(in.source_column, e.source_column, fn, "source_column");
    e.target_column = text_or(in.target_column, e.target_column, fn, "target_column");
    e.score_column = text_or(in.score_column, e.score_column, fn, "score_column");
    e.score_scale = in.score_scale;
    e.relation_column = text_or(in.relation_column, e.relation_column, fn, "relation_column");
    e.relation = text_or(in.relation, e.relation, fn, "relation");
    e.directed = in.directed != 0;
    require(in.header >= -1 && in.header <= 1, fn, "header must be -1 (detect), 0 or 1");
    if (in.header >= 0) e.header = in.header == 1;
    e.label = text_or(in.label, e.label, fn, "label");
    // Only what the C type adds: the int32 must be a byte before it becomes a char (0x109 is not
    // a tab); the library checks which bytes are separators.
    require(in.separator >= 0 && in.separator <= 127, fn, "separator must be '\\t', ',', ' ' or 0 (detect)");
    e.separator = static_cast<char>(in.separator);
    const auto report = kg.import({grappi::SourceFile{text(path, fn, "path"), text_or(kind, "detect", fn, "kind")}}, o);
    if (out_report_json) *out_report_json = copy_out(grappi::dump_json(grappi::to_json(report)));
    return GRAPPI_OK;
  });
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

}  // namespace

extern "C" {

grappi_status grappi_graph_import(grappi_graph *g, const char *kind, const char *path) {
  return import_file("grappi_graph_import", g, kind, path, nullptr, nullptr);
}

grappi_status grappi_import_options_init(grappi_import_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_import_options_init"); });
}

grappi_status grappi_graph_import_with(grappi_graph *g, const char *kind, const char *path,
                                       const grappi_import_options *opts, char **out_report_json) {
  return import_file("grappi_graph_import_with", g, kind, path, opts, out_report_json);
}

grappi_status grappi_graph_export(grappi_graph *g, const char *format, const char *path, uint64_t *out_nodes,
                                  uint64_t *out_edges) {
  return grappi_graph_export_selection(g, format, path, nullptr, out_nodes, out_edges, nullptr);
}

grappi_status grappi_export_options_init(grappi_export_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_export_options_init"); });
}

grappi_status grappi_graph_export_selection(grappi_graph *g, const char *format, const char *path,
                                            const grappi_export_options *opts, uint64_t *out_nodes, uint64_t *out_edges,
                                            uint64_t *out_not_written) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_export_selection";
    for (uint64_t *out : {out_nodes, out_edges, out_not_written})
      if (out) *out = 0;
    auto &kg = graph_of(g, fn);
    const grappi_export_options sel = read_options(opts, fn);
    grappi::ExportOptions o;
    o.format = grappi::export_format_from_name(text(format, fn, "format"));
    o.relations = string_array(sel.relations, sel.relation_count, fn, "relations", "relation_count", "a relation");
    o.nodes = string_array(sel.nodes, sel.node_count, fn, "nodes", "node_count", "a node");
    o.min_score = sel.min_score;
    if (sel.khop) o.khop = text(sel.khop, fn, "khop");
    o.hops = sel.hops;
    const auto rep = kg.export_graph(text(path, fn, "path"), o);
    if (out_nodes) *out_nodes = rep.nodes;
    if (out_edges) *out_edges = rep.edges;
    if (out_not_written) *out_not_written = rep.not_written;
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_resolve(grappi_graph *g, const char *name, int64_t *out_id) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_resolve";
    auto &kg = graph_of(g, fn);
    const std::string n = text(name, fn, "name");
    require(out_id != nullptr, fn, "out_id is NULL");
    *out_id = kg.resolve(n);
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_complete_json(grappi_graph *g, const char *prefix, size_t limit, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_complete_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    require(prefix != nullptr, fn, "prefix is NULL");
    require(limit <= 100, fn, "limit must be at most 100");
    nlohmann::json out = nlohmann::json::array();
    for (const auto &m : kg.complete(prefix, limit ? limit : 10))
      out.push_back({{"id", m.id}, {"name", m.name}, {"external_id", m.external_id}, {"matched", m.matched}, {"matched_by", m.matched_by}});
    *out_json = copy_out(grappi::dump_json(nlohmann::json{{"completions", out}}));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_neighbors(grappi_graph *g, int64_t id, double min_score, int64_t *out_ids, double *out_scores,
                                     size_t capacity, size_t *out_count) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_neighbors";
    auto &kg = graph_of(g, fn);
    require(out_count != nullptr, fn, "out_count is NULL");
    *out_count = 0;
    require(capacity == 0 || out_ids, fn, "out_ids is NULL but capacity > 0");
    require(min_score == min_score, fn, "min_score is NaN");
    grappi::NeighborFilter f;
    f.min_score = min_score;
    const auto list = kg.snapshot()->neighbors(id, f);
    *out_count = list.size();
    if (capacity < list.size())
      return set_error(GRAPPI_EBUFS, std::string(fn) + ": " + std::to_string(list.size()) +
                                         " neighbors do not fit in capacity " + std::to_string(capacity));
    for (std::size_t i = 0; i < list.size(); ++i) {
      out_ids[i] = list[i].node;
      if (out_scores) out_scores[i] = list[i].score;
    }
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_neighbors_json(grappi_graph *g, const char *protein, int64_t id, double min_score,
                                          const char *const *relations, size_t relation_count, size_t limit, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_neighbors_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    require(min_score == min_score, fn, "min_score is NaN");
    const int64_t node = protein ? kg.resolve(text(protein, fn, "protein")) : id;
    grappi::NeighborFilter f;
    f.min_score = min_score;
    f.relations = string_array(relations, relation_count, fn, "relations", "relation_count", "a relation");
    const auto snap = kg.snapshot();
    *out_json = copy_out(grappi::dump_json(grappi::to_json(*snap, node, grappi::strongest_neighbors(*snap, node, f, limit))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_counts(grappi_graph *g, int64_t *out_nodes, int64_t *out_edges) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_counts";
    auto &kg = graph_of(g, fn);
    require(out_nodes && out_edges, fn, "an out pointer is NULL");
    auto snap = kg.snapshot();
    *out_nodes = static_cast<int64_t>(snap->node_count());
    *out_edges = static_cast<int64_t>(snap->edge_count());
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_node_name(grappi_graph *g, int64_t id, char **out_name) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_node_name";
    require(out_name != nullptr, fn, "out_name is NULL");
    *out_name = nullptr;
    auto n = graph_of(g, fn).node(id);
    if (!n) return set_error(GRAPPI_ENOTFOUND, std::string(fn) + ": no node with id " + std::to_string(id));
    *out_name = copy_out(n->name);
    return GRAPPI_OK;
  });
}

// ---- embeddings and search ------------------------------------------------------------------------

grappi_status grappi_embed_options_init(grappi_embed_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_embed_options_init"); });
}

grappi_status grappi_graph_embed(grappi_graph *g, const grappi_embed_options *opts, size_t *out_embedded) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_embed";
    if (out_embedded) *out_embedded = 0;
    auto &kg = graph_of(g, fn);
    const grappi_embed_options o = read_options(opts, fn);
    grappi::EmbedderSpec spec;
    spec.kind = text_or(o.embedder, "lsa", fn, "embedder");
    spec.dimension = o.dimension;
    spec.name = text_or(o.model, "", fn, "model");
    spec.http.model = spec.name;
    spec.http.base_url = text_or(o.base_url, spec.http.base_url, fn, "base_url");
    spec.http.api_key_env = text_or(o.api_key_env, spec.http.api_key_env, fn, "api_key_env");
    if (spec.kind == "callback") {
      require(o.callback != nullptr, fn, "embedder \"callback\" needs a callback");
      const grappi_embed_fn cb = o.callback;
      void *user = o.user_data;
      const std::size_t dim = o.dimension;
      spec.callback = [cb, user, dim](const std::vector<std::string> &texts) {
        std::vector<const char *> ptrs;
        for (const auto &t : texts) ptrs.push_back(t.c_str());
        grappi::Embeddings out;
        out.dim = dim;
        out.data.assign(texts.size() * dim, 0.0f);
        const int32_t rc = cb(user, ptrs.data(), ptrs.size(), out.data.data(), dim);
        if (rc != 0)
          throw grappi::Error(grappi::ErrorCode::invalid_argument, "the embedding callback returned status " + std::to_string(rc));
        return out;
      };
    }
    auto embedder = grappi::make_embedder(kg, spec);
    const auto report = grappi::embed_graph(kg, *embedder);
    if (out_embedded) *out_embedded = report.embedded;
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_embed_plan_json(grappi_graph *g, const grappi_embed_options *opts, const char *embedder_path,
                                           char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_embed_plan_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string path = text(embedder_path, fn, "embedder_path");
    const grappi_embed_options o = read_options(opts, fn);
    grappi::EmbedderSpec spec;
    spec.kind = text_or(o.embedder, "lsa", fn, "embedder");
    require(spec.kind != "callback", fn, "a callback embedder cannot be shared with other processes");
    spec.dimension = o.dimension;
    spec.http.model = text_or(o.model, "", fn, "model");
    spec.http.base_url = text_or(o.base_url, spec.http.base_url, fn, "base_url");
    spec.http.api_key_env = text_or(o.api_key_env, spec.http.api_key_env, fn, "api_key_env");
    const auto embedder = grappi::make_embedder(kg, spec);
    grappi::save_embedder(*embedder, path);
    *out_json = copy_out(grappi::dump_json({{"model", embedder->model()}, {"kind", embedder->kind()},
                                            {"dimension", embedder->dimension()}, {"pending", grappi::embed_pending(kg, embedder->model())},
                                            {"path", path}}));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_embed_part_json(grappi_graph *g, const char *embedder_path, size_t part, size_t parts,
                                           const char *out_path, const char *provenance, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_embed_part_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const auto embedder = grappi::load_embedder(text(embedder_path, fn, "embedder_path"));
    const grappi::EmbedPartReport r =
        grappi::embed_part(kg, *embedder, part, parts, text(out_path, fn, "out_path"),
                           provenance ? text(provenance, fn, "provenance") : std::string());
    *out_json = copy_out(grappi::dump_json({{"path", r.path}, {"model", r.model}, {"part", r.part}, {"parts", r.parts},
                                            {"pending", r.pending}, {"embedded", r.embedded}, {"dimension", r.dimension},
                                            {"seconds", r.seconds}}));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_embed_merge_json(grappi_graph *g, const char *embedder_path, const char *const *parts,
                                            size_t part_count, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_embed_merge_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::vector<std::string> files = string_array(parts, part_count, fn, "parts", "part_count", "a vectors file");
    const auto embedder = grappi::load_embedder(text(embedder_path, fn, "embedder_path"));
    const grappi::EmbedPartsReport r = grappi::embed_from_parts(kg, *embedder, files);
    nlohmann::json provenance = nlohmann::json::array();
    for (const std::string &p : r.provenance) provenance.push_back(nlohmann::json::parse(p));
    const grappi::EmbedReport &e = r.embed;
    *out_json = copy_out(grappi::dump_json({{"model", e.model},
                                            {"dimension", e.dimension},
                                            {"embedded", e.embedded},
                                            {"unchanged", e.unchanged},
                                            {"removed", e.removed},
                                            {"from_parts", r.from_parts},
                                            {"embedded_here", r.embedded_here},
                                            {"neighbor_ranking_entries", e.neighbor_ranking_entries},
                                            {"warning", e.warning},
                                            {"seconds", e.seconds},
                                            {"provenance", std::move(provenance)}}));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_search(grappi_graph *g, const char *query, size_t k, int64_t *out_ids, float *out_scores,
                                  size_t capacity, size_t *out_count) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_search";
    auto &kg = graph_of(g, fn);
    require(out_count != nullptr, fn, "out_count is NULL");
    *out_count = 0;
    require(capacity == 0 || out_ids, fn, "out_ids is NULL but capacity > 0");
    const auto q = grappi::query_vector(kg, text(query, fn, "text"));
    return write_hits(grappi::graph_vectors(kg)->search(q.data(), k), out_ids, out_scores, capacity, out_count);
  });
}

grappi_status grappi_graph_search_vector(grappi_graph *g, const float *query, size_t dim, size_t k, int64_t *out_ids,
                                         float *out_scores, size_t capacity, size_t *out_count) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_search_vector";
    auto &kg = graph_of(g, fn);
    require(out_count != nullptr, fn, "out_count is NULL");
    *out_count = 0;
    require(query != nullptr, fn, "query is NULL");
    require(capacity == 0 || out_ids, fn, "out_ids is NULL but capacity > 0");
    auto v = grappi::graph_vectors(kg);
    if (dim != v->dim())
      invalid(std::string(fn) + ": query has dimension " + std::to_string(dim) + ", the model " + std::to_string(v->dim()));
    return write_hits(v->search(query, k), out_ids, out_scores, capacity, out_count);
  });
}

// ---- retrieval ------------------------------------------------------------------------------------

grappi_status grappi_window_options_init(grappi_window_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_window_options_init"); });
}

grappi_status grappi_graph_window_json(grappi_graph *g, int64_t root, const grappi_window_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_window_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const grappi_window_options o = read_options(opts, fn);
    require(o.k_count == 0 || o.k, fn, "k is NULL but k_count > 0");
    grappi::WindowOptions wo;
    if (o.k_count) wo.k.assign(o.k, o.k + o.k_count);
    wo.depth = o.depth;
    wo.window = o.window;
    wo.filter.min_score = o.min_score;
    const auto r = grappi::graph_retriever(kg);
    const auto w = r->window(root, wo);
    auto j = grappi::to_json(r->graph(), w);
    if (!o.max_path_length) {
      *out_json = copy_out(grappi::dump_json(j));
      return GRAPPI_OK;
    }
    grappi::PathOptions po;
    po.max_length = o.max_path_length;
    po.max_paths = o.max_paths;
    const auto paths = r->window_paths(w, po);
    j["paths_truncated"] = paths.truncated;
    // (the paths written as text, one at a time, after the rest: a million paths as one JSON
    // tree took gigabytes)
    std::string text = grappi::dump_json(j);
    text.pop_back();  // the object's '}'
    text += ",\"paths\":";
    text += grappi::paths_json_text(r->graph(), paths);
    text += '}';
    *out_json = copy_out(text);
    return GRAPPI_OK;
  });
}

namespace {

// The paths between two nodes as JSON: Yen's k shortest, or every shortest one.
grappi_status paths_json(grappi_graph *g, const char *fn, int64_t from, int64_t to, const grappi::ShortestPathOptions &o,
                         bool every_shortest, char **out_json) {
  return guard([&]() -> grappi_status {
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    const auto r = grappi::graph_retriever(graph_of(g, fn));
    const auto paths = every_shortest ? r->all_shortest_paths(from, to, o) : r->shortest_paths(from, to, o);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(r->graph(), paths)));
    return GRAPPI_OK;
  });
}

}  // namespace

grappi_status grappi_graph_paths_json(grappi_graph *g, int64_t from, int64_t to, size_t max_length, size_t k,
                                      int32_t weighted, char **out_json) {
  grappi::ShortestPathOptions o;
  o.max_length = max_length;
  o.k = k;
  o.weighted = weighted != 0;
  return paths_json(g, "grappi_graph_paths_json", from, to, o, false, out_json);
}

grappi_status grappi_graph_all_shortest_paths_json(grappi_graph *g, int64_t from, int64_t to, size_t max_length,
                                                   size_t k, int32_t skip_direct, char **out_json) {
  grappi::ShortestPathOptions o;
  o.max_length = max_length;
  o.k = k;
  o.skip_direct = skip_direct != 0;
  return paths_json(g, "grappi_graph_all_shortest_paths_json", from, to, o, true, out_json);
}

grappi_status grappi_graph_khop_json(grappi_graph *g, const char *question, size_t seeds, size_t hops, size_t degree_cap,
                                     char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_khop_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const auto q = grappi::query_vector(kg, text(question, fn, "question"));
    grappi::KhopOptions o;
    o.hops = hops;
    o.degree_cap = degree_cap;
    const auto r = grappi::graph_retriever(kg);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(r->graph(), r->question_khop(q, seeds, o))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_edges_json(grappi_graph *g, int64_t a, int64_t b, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_edges_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    nlohmann::json out = nlohmann::json::array();
    for (const auto &e : kg.edges_between(a, b)) out.push_back(grappi::to_json(e));
    *out_json = copy_out(grappi::dump_json(out));
    return GRAPPI_OK;
  });
}

grappi_status grappi_enrich_options_init(grappi_enrich_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_enrich_options_init"); });
}

grappi_status grappi_graph_enrich_json(grappi_graph *g, const char *const *proteins, size_t protein_count,
                                       const grappi_enrich_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_enrich_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const grappi_enrich_options o = read_options(opts, fn);
    const auto names = string_array(proteins, protein_count, fn, "proteins", "protein_count", "a protein");
    grappi::EnrichmentOptions eo;
    eo.categories = string_array(o.categories, o.category_count, fn, "categories", "category_count", "a category");
    eo.exclude_evidence = string_array(o.exclude_evidence, o.exclude_evidence_count, fn, "exclude_evidence",
                                       "exclude_evidence_count", "an evidence code");
    eo.background = grappi::enrichment_background(text_or(o.background, "annotated", fn, "background"));
    const auto background = string_array(o.background_proteins, o.background_protein_count, fn, "background_proteins",
                                         "background_protein_count", "a background protein");
    require(eo.background == grappi::EnrichmentBackground::given || background.empty(), fn,
            "background_proteins given, but background is not \"given\"");
    require(eo.background != grappi::EnrichmentBackground::given || !background.empty(), fn,
            "background is \"given\" but background_proteins is empty");
    eo.min_term_size = o.min_term_size;
    eo.max_term_size = o.max_term_size;
    eo.max_fdr = o.max_fdr;
    *out_json = copy_out(grappi::dump_json(grappi::to_json(kg, grappi::enrich_names(kg, names, eo, background))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_cluster_options_init(grappi_cluster_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_cluster_options_init"); });
}

grappi_status grappi_graph_cluster_json(grappi_graph *g, const char *const *proteins, size_t protein_count,
                                        const grappi_cluster_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_cluster_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const grappi_cluster_options o = read_options(opts, fn);
    // (no proteins: the whole network)
    const auto names = protein_count == 0 ? std::vector<std::string>{}
                                          : string_array(proteins, protein_count, fn, "proteins", "protein_count", "a protein");
    const grappi::ClusterOptions co = cluster_options_of(o, fn);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(kg, grappi::cluster_names(kg, names, co))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_build_communities_json(grappi_graph *g, const char *name, const grappi_cluster_options *opts,
                                                  const grappi_model *model, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_build_communities_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    grappi::CommunityOptions co;
    co.name = name ? name : "default";
    if (opts) co.cluster = cluster_options_of(read_options(opts, fn), fn);
    require(model == nullptr || model->model != nullptr, fn, "model is not a model grappi_model_new made");
    grappi::ExtractiveModel offline;
    grappi::LanguageModel &m = model ? *model->model : static_cast<grappi::LanguageModel &>(offline);
    const grappi::CommunitySet set = grappi::build_communities(kg, m, co);
    grappi::store_communities(kg, set);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(set)));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_communities_json(grappi_graph *g, const char *name, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_communities_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string set = name ? name : "default";
    const std::optional<grappi::CommunitySet> s = grappi::load_communities(kg, set);
    if (!s) throw grappi::Error(grappi::ErrorCode::not_found, std::string(fn) + ": no community reports named '" + set + "' are stored");
    *out_json = copy_out(grappi::dump_json(grappi::to_json(*s)));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_ppi_enrichment_json(grappi_graph *g, const char *const *proteins, size_t protein_count,
                                               double min_score, const char *const *relations, size_t relation_count,
                                               char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_ppi_enrichment_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const auto names = string_array(proteins, protein_count, fn, "proteins", "protein_count", "a protein");
    grappi::PpiEnrichmentOptions o;
    o.min_score = min_score;
    o.relations = string_array(relations, relation_count, fn, "relations", "relation_count", "a relation");
    *out_json = copy_out(grappi::dump_json(grappi::to_json(kg, grappi::ppi_enrichment_names(kg, names, o))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_ontology_json(grappi_graph *g, const char *question, const char *term, const char *other,
                                         const char *const *relations, size_t relation_count, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_ontology_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    grappi::OntologyQuestion q;
    q.kind = grappi::ontology_question_kind(text(question, fn, "question"));
    q.term = text_or(term, "", fn, "term");
    if (q.kind == grappi::OntologyQuestion::Kind::term) q.root = text_or(other, "", fn, "other");
    else q.other = text_or(other, "", fn, "other");
    if (relation_count) q.relations = string_array(relations, relation_count, fn, "relations", "relation_count", "a relation");
    *out_json = copy_out(grappi::dump_json(grappi::ontology_json(kg, q)));
    return GRAPPI_OK;
  });
}

}  // extern "C"

namespace {

// grappi_bel_validate (with_graph false) and grappi_graph_bel_validate.
grappi_status bel_validate(const char *fn, bool with_graph, grappi_graph *g, const char *bel, uint32_t flags,
                           char **out_json, size_t *out_errors) {
  return guard([&]() -> grappi_status {
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    if (out_errors) *out_errors = 0;
    require((flags & ~(GRAPPI_BEL_LONG_FORM | GRAPPI_BEL_ALLOW_UNKNOWN_NAMESPACES)) == 0, fn, "unknown flags");
    grappi::BelOptions options;
    options.long_form = (flags & GRAPPI_BEL_LONG_FORM) != 0;
    options.unknown_namespace_is_error = (flags & GRAPPI_BEL_ALLOW_UNKNOWN_NAMESPACES) == 0;
    std::istringstream in(text(bel, fn, "text"));
    if (with_graph) options.resolver = graph_of(g, fn).bel_resolver();
    const grappi::BelDocument doc = grappi::read_bel_script(in, options);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(doc, options.long_form)));
    if (out_errors) *out_errors = doc.errors();
    return GRAPPI_OK;
  });
}

}  // namespace

extern "C" {

grappi_status grappi_bel_validate(const char *bel, uint32_t flags, char **out_json, size_t *out_errors) {
  return bel_validate("grappi_bel_validate", false, nullptr, bel, flags, out_json, out_errors);
}

grappi_status grappi_graph_bel_validate(grappi_graph *g, const char *bel, uint32_t flags, char **out_json,
                                        size_t *out_errors) {
  return bel_validate("grappi_graph_bel_validate", true, g, bel, flags, out_json, out_errors);
}

grappi_status grappi_graph_pagerank(grappi_graph *g, const int64_t *seeds, size_t seed_count, double damping,
                                    int64_t *out_ids, double *out_scores, size_t capacity, size_t *out_count) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_pagerank";
    auto &kg = graph_of(g, fn);
    require(out_count != nullptr, fn, "out_count is NULL");
    *out_count = 0;
    require(seed_count == 0 || seeds, fn, "seeds is NULL but seed_count > 0");
    require(capacity == 0 || out_ids, fn, "out_ids is NULL but capacity > 0");
    grappi::PageRankOptions o;
    o.damping = damping;
    if (seed_count) o.seeds.assign(seeds, seeds + seed_count);
    const auto r = grappi::graph_retriever(kg);
    const auto top = r->pagerank(o).top(r->graph(), capacity);
    for (std::size_t i = 0; i < top.size(); ++i) {
      out_ids[i] = top[i].id;
      if (out_scores) out_scores[i] = top[i].score;
    }
    *out_count = top.size();
    return GRAPPI_OK;
  });
}

grappi_status grappi_retrieve_options_init(grappi_retrieve_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_retrieve_options_init"); });
}

grappi_status grappi_graph_retrieve_json(grappi_graph *g, const char *question, const grappi_retrieve_options *opts,
                                         char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_retrieve_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    const auto res = retrieve(g, question, retrieve_options(opts, fn), fn);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(grappi::graph_retriever(*g->kg)->graph(), res)));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_retrieve_csv(grappi_graph *g, const char *question, const grappi_retrieve_options *opts,
                                        char **out_csv) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_retrieve_csv";
    require(out_csv != nullptr, fn, "out_csv is NULL");
    *out_csv = nullptr;
    const auto res = retrieve(g, question, retrieve_options(opts, fn), fn);
    *out_csv = copy_out(retrieve_csv(*g->kg, res));
    return GRAPPI_OK;
  });
}

// ---- explore --------------------------------------------------------------------------------------

grappi_status grappi_chat_reply_set(grappi_chat_reply *reply, const char *content, int64_t prompt_tokens,
                                    int64_t completion_tokens) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_chat_reply_set";
    require(reply != nullptr, fn, "reply is NULL");
    std::string c = text(content, fn, "content");
    require(prompt_tokens >= 0 && completion_tokens >= 0, fn, "negative token count");
    reply->content = std::move(c);
    reply->prompt_tokens = prompt_tokens;
    reply->completion_tokens = completion_tokens;
    reply->set = true;
    return GRAPPI_OK;
  });
}

grappi_status grappi_chat_reply_set_error(grappi_chat_reply *reply, const char *message) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_chat_reply_set_error";
    require(reply != nullptr, fn, "reply is NULL");
    reply->error = text(message, fn, "message");
    return GRAPPI_OK;
  });
}

// ---- models and run control ----------------------------------------------------------------------

grappi_status grappi_model_options_init(grappi_model_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_model_options_init"); });
}

grappi_status grappi_model_new(const grappi_model_options *opts, grappi_model **out) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_model_new";
    require(out != nullptr, fn, "out is NULL");
    *out = nullptr;
    auto m = std::make_unique<grappi_model>();
    m->model = model_of(read_options(opts, fn), fn);
    *out = m.release();
    return GRAPPI_OK;
  });
}

void grappi_model_free(grappi_model *model) { delete model; }

grappi_status grappi_model_describe_json(const grappi_model *model, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_model_describe_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    require(model != nullptr && model->model != nullptr, fn, "model is NULL");
    *out_json = copy_out(grappi::dump_json(model->model->describe()));
    return GRAPPI_OK;
  });
}

grappi_status grappi_run_options_init(grappi_run_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_run_options_init"); });
}

grappi_status grappi_explore_options_init(grappi_explore_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_explore_options_init"); });
}

grappi_status grappi_graph_explore_json(grappi_graph *g, int64_t root, const char *query, const grappi_explore_options *opts,
                                        char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_explore_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const grappi_explore_options o = read_options(opts, fn);
    const grappi::ExploreOptions eo = explore_options(o, query, fn);
    grappi::AgentPipeline pipe(kg, run_model(o, fn));
    *out_json = copy_out(grappi::dump_json(grappi::to_json(pipe.explore(root, eo))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_explore_report(grappi_graph *g, int64_t root, const char *query, const grappi_explore_options *opts,
                                          char **out_json, char **out_html) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_explore_report";
    require(out_html != nullptr, fn, "out_html is NULL");
    *out_html = nullptr;
    if (out_json) *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const grappi_explore_options o = read_options(opts, fn);
    const grappi::ExploreOptions eo = explore_options(o, query, fn);
    grappi::AgentPipeline pipe(kg, run_model(o, fn));
    const grappi::ExploreResult r = pipe.explore(root, eo);
    copy_report(out_json ? grappi::dump_json(grappi::to_json(r)) : std::string(), grappi::to_html(r), out_json, out_html);
    return GRAPPI_OK;
  });
}

// ---- ground ---------------------------------------------------------------------------------------

grappi_status grappi_ground_options_init(grappi_ground_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_ground_options_init"); });
}

grappi_status grappi_graph_ground_json(grappi_graph *g, const char *text_in, const char *protein_a, const char *protein_b,
                                       const grappi_ground_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_ground_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string body = text(text_in, fn, "text"), a = text(protein_a, fn, "protein_a"), b = text(protein_b, fn, "protein_b");
    const grappi_ground_options o = read_options(opts, fn);
    grappi::GroundingOptions go;
    go.strategy = grappi::grounding_strategy(text_or(o.strategy, "pagerank", fn, "strategy"));
    go.root = text_or(o.root, go.root, fn, "root");
    go.ontology = text_or(o.ontology, "", fn, "ontology");
    if (o.relation_count)
      go.relations = string_array(o.relations, o.relation_count, fn, "relations", "relation_count", "a relation");
    go.batch = o.batch;
    go.chunk_size = o.chunk_size;
    go.chunk_overlap = o.chunk_overlap;
    go.patience = o.patience;
    go.lookahead = o.lookahead;
    go.threshold = o.threshold;
    go.rag_k = o.rag_k;
    go.seed = o.seed;
    go.max_calls = o.max_calls;
    go.max_tokens = o.max_tokens;
    go.dry_run = o.dry_run != 0;
    go.use_cache = o.use_cache != 0;
    set_run(go, read_options(o.run, fn));
    const auto model = run_model(o, fn);
    const grappi::Grounder grounder(kg, *model, go);
    if (go.progress) go.progress("ground", 0, 1);
    const grappi::GroundingResult r = grounder.ground(body, a, b);
    if (go.progress) go.progress("ground", 1, 1);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(r)));
    return GRAPPI_OK;
  });
}

// ---- extract --------------------------------------------------------------------------------------

grappi_status grappi_extract_options_init(grappi_extract_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_extract_options_init"); });
}

// The extractor's options of the C options (the model aside: run_model).
static grappi::ExtractionOptions extraction_options_of(const grappi_extract_options &o, const char *fn) {
  grappi::ExtractionOptions eo;
  eo.repair = o.repair != 0;
  eo.annotations_only = o.annotations_only != 0;
  eo.entities.taxon = o.taxon;
  eo.min_passage_chars = o.min_passage_chars;
  eo.max_calls = o.max_calls;
  eo.max_tokens = o.max_tokens;
  eo.dry_run = o.dry_run != 0;
  eo.use_cache = o.use_cache != 0;
  if (o.concurrency) eo.concurrency = o.concurrency;
  set_run(eo, read_options(o.run, fn));
  return eo;
}

// An extraction's outputs as the options ask: its JSON, the BEL script, CX2, the import.
static nlohmann::json extraction_outputs(grappi::KnowledgeGraph &kg, const grappi::ExtractionResult &r,
                                       const grappi_extract_options &o, const std::string &bel_path, const char *fn) {
  const std::string cx2_path = text_or(o.cx2_path, "", fn, "cx2_path");
  nlohmann::json j = grappi::to_json(r);
  const bool flagged = o.include_flagged != 0;
  if (!r.dry_run && !bel_path.empty() && !o.import_statements) {
    std::ofstream out(bel_path, std::ios::binary);
    if (out) grappi::write_bel_script(out, r, flagged);
    if (out) out.close();
    if (!out) throw grappi::Error(grappi::ErrorCode::io, std::string(fn) + ": cannot write '" + bel_path + "'");
  }
  if (!r.dry_run && !cx2_path.empty()) {
    std::ofstream out(cx2_path, std::ios::binary);
    if (out) out << grappi::dump_json(grappi::to_cx2(r, text_or(o.name, "input", fn, "name"), flagged)) << "\n";
    if (out) out.close();
    if (!out) throw grappi::Error(grappi::ErrorCode::io, std::string(fn) + ": cannot write '" + cx2_path + "'");
  }
  if (!r.dry_run && o.import_statements) {
    const grappi::FileReport f = grappi::import_extraction(kg, r, bel_path, flagged);
    j["import"] = {{"dataset_id", f.dataset_id}, {"edges_created", f.edges_created}, {"nodes_created", f.nodes_created},
                   {"already_imported", f.already_imported}, {"path", f.path}};
  }
  return j;
}

grappi_status grappi_graph_extract_json(grappi_graph *g, const char *content, const grappi_extract_options *opts,
                                        char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_extract_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string body = text(content, fn, "content");
    const grappi_extract_options o = read_options(opts, fn);
    const std::string bel_path = text_or(o.bel_path, "", fn, "bel_path");
    require(!o.import_statements || !bel_path.empty(), fn, "import_statements needs bel_path (the dataset's file)");
    const auto docs = grappi::parse_documents(body, grappi::document_format(text_or(o.format, "detect", fn, "format")),
                                              text_or(o.name, "input", fn, "name"));
    const auto model = run_model(o, fn);
    const grappi::ExtractionResult r = grappi::Extractor(kg, *model, extraction_options_of(o, fn)).extract(docs);
    *out_json = copy_out(grappi::dump_json(extraction_outputs(kg, r, o, bel_path, fn)));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_extract_part_json(grappi_graph *g, const char *const *files, size_t file_count,
                                             const grappi_extract_options *opts, const char *out_path, const char *provenance,
                                             char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_extract_part_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::vector<std::string> paths = string_array(files, file_count, fn, "files", "file_count", "a file");
    const std::string out = text(out_path, fn, "out_path");
    const grappi_extract_options o = read_options(opts, fn);
    const grappi::DocumentFormat format = grappi::document_format(text_or(o.format, "detect", fn, "format"));
    std::vector<grappi::Document> docs;
    for (const std::string &f : paths)
      for (grappi::Document &d : grappi::read_documents(f, format)) docs.push_back(std::move(d));
    const auto model = run_model(o, fn);
    const grappi::ExtractionResult r = grappi::Extractor(kg, *model, extraction_options_of(o, fn)).extract(docs);
    grappi::save_extraction(r, out, provenance ? text(provenance, fn, "provenance") : std::string());
    const nlohmann::json j = grappi::to_json(r);
    *out_json = copy_out(grappi::dump_json(
        {{"path", out}, {"documents", r.documents}, {"counts", j["counts"]}, {"usage", j["usage"]}, {"budget", r.budget}}));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_extract_merge_json(grappi_graph *g, const char *const *parts, size_t part_count,
                                              const grappi_extract_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_extract_merge_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    require(part_count > 0, fn, "give at least one part");
    const std::vector<std::string> paths = string_array(parts, part_count, fn, "parts", "part_count", "a part");
    const grappi_extract_options o = read_options(opts, fn);
    std::vector<grappi::ExtractionResult> results;
    nlohmann::json provenance = nlohmann::json::array();
    for (const std::string &path : paths) {
      std::string p;
      results.push_back(grappi::load_extraction(path, &p));
      provenance.push_back(nlohmann::json::parse(p));
    }
    const grappi::ExtractionResult r = grappi::merge_extractions(std::move(results));
    // (import without a path: next to the database, as grappi extract --import names it)
    std::string bel_path = text_or(o.bel_path, "", fn, "bel_path");
    if (bel_path.empty() && o.import_statements) bel_path = grappi::extraction_dataset_path(kg.path(), r, o.include_flagged != 0);
    nlohmann::json j = extraction_outputs(kg, r, o, bel_path, fn);
    j["parts"] = std::move(provenance);
    *out_json = copy_out(grappi::dump_json(j));
    return GRAPPI_OK;
  });
}


grappi_status grappi_graph_import_review_json(grappi_graph *g, const char *review_path, const char *bel_path, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_import_review_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string review = text(review_path, fn, "review_path"), bel = text(bel_path, fn, "bel_path");
    if (!std::ifstream(review)) throw grappi::Error(grappi::ErrorCode::io, std::string(fn) + ": cannot read '" + review + "'");
    const grappi::FileReport f = grappi::import_review(kg, review, bel);
    *out_json = copy_out(grappi::dump_json(nlohmann::json{{"dataset_id", f.dataset_id},
                                                          {"edges_created", f.edges_created},
                                                          {"nodes_created", f.nodes_created},
                                                          {"already_imported", f.already_imported},
                                                          {"path", f.path}}));
    return GRAPPI_OK;
  });
}

// ---- co-occurrence and hypotheses -----------------------------------------------------------------

static grappi::CoocOptions cooc_options_of(const grappi_cooc_options &o, const char *fn) {
  grappi::CoocOptions co;
  const std::string scope = text_or(o.scope, "document", fn, "scope");
  require(scope == "document" || scope == "sentence", fn, "scope must be \"document\" or \"sentence\"");
  co.scope = scope == "sentence" ? grappi::CoocOptions::Scope::sentence : grappi::CoocOptions::Scope::document;
  co.titles = text_or(o.titles, "include", fn, "titles");
  co.types = string_array(o.types, o.type_count, fn, "types", "type_count", "a type");
  co.min_count = o.min_count;
  if (o.as_of) co.as_of = o.as_of;
  co.dictionary = o.dictionary != 0;
  return co;
}

grappi_status grappi_cooc_options_init(grappi_cooc_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_cooc_options_init"); });
}

grappi_status grappi_graph_cooc_build_json(grappi_graph *g, const char *content, const grappi_cooc_options *opts,
                                           char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_cooc_build_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string body = text(content, fn, "content");
    const grappi_cooc_options o = read_options(opts, fn);
    const grappi::CoocOptions co = cooc_options_of(o, fn);
    const auto docs = grappi::parse_documents(body, grappi::document_format(text_or(o.format, "detect", fn, "format")),
                                              text_or(o.name, "corpus", fn, "name"));
    const grappi::EntityTagger tagger(kg);
    const grappi::CoocGraph graph = grappi::build_cooccurrence(docs, co, &tagger);
    nlohmann::json j = grappi::to_json(graph);
    if (const std::string path = text_or(o.path, "", fn, "path"); !path.empty()) {
      const grappi::FileReport f = grappi::import_cooccurrence(kg, graph, path);
      j["import"] = {{"dataset_id", f.dataset_id}, {"edges_created", f.edges_created}, {"nodes_created", f.nodes_created},
                     {"already_imported", f.already_imported}};
      // The papers too, as `grappi cooc build` stores them: the corpus written next to the
      // dataset's file (its file is the papers dataset's) and imported as a corpus.
      const std::string corpus = path + ".corpus";
      {
        std::ofstream out(corpus, std::ios::binary);
        if (out) out << body;
        if (out) out.close();
        if (!out) throw grappi::Error(grappi::ErrorCode::io, std::string(fn) + ": cannot write '" + corpus + "'");
      }
      const std::string format = text_or(o.format, "detect", fn, "format");
      const grappi::ImportReport papers = kg.import({{corpus, format == "detect" ? "corpus" : "corpus:" + format}});
      const grappi::FileReport &p = papers.files.at(0);
      j["papers"] = {{"dataset_id", p.dataset_id}, {"documents", p.lines}, {"already_imported", p.already_imported},
                     {"path", corpus}};
    }
    *out_json = copy_out(grappi::dump_json(j));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_cooc_partial_json(grappi_graph *g, const char *const *files, size_t file_count,
                                             const grappi_cooc_options *opts, const char *out_path, const char *provenance,
                                             char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_cooc_partial_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::vector<std::string> paths = string_array(files, file_count, fn, "files", "file_count", "a file");
    const std::string out = text(out_path, fn, "out_path");
    const grappi_cooc_options o = read_options(opts, fn);
    const grappi::CoocOptions co = cooc_options_of(o, fn);
    const grappi::DocumentFormat format = grappi::document_format(text_or(o.format, "detect", fn, "format"));
    const std::shared_ptr<const grappi::EntityTagger> tagger = grappi::EntityTagger::shared(kg);
    grappi::CoocBuilder builder(co, tagger.get());
    nlohmann::json inputs = nlohmann::json::array();
    for (const std::string &f : paths) {
      const grappi::CoocFileCount c = builder.add_file(f, format);
      inputs.push_back({{"path", c.path}, {"bytes", c.bytes}, {"documents", c.documents}});
    }
    const std::size_t documents = builder.documents();
    builder.save(out, provenance ? text(provenance, fn, "provenance") : std::string());
    *out_json = copy_out(grappi::dump_json({{"path", out}, {"documents", documents}, {"files", std::move(inputs)}}));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_cooc_merge_json(grappi_graph *g, const char *const *partials, size_t partial_count,
                                           const grappi_cooc_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_cooc_merge_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    require(partial_count > 0, fn, "give at least one partial-count file");
    const std::vector<std::string> paths =
        string_array(partials, partial_count, fn, "partials", "partial_count", "a partial-count file");
    const grappi_cooc_options o = read_options(opts, fn);
    grappi::CoocBuilder builder(grappi::CoocBuilder::partial_options(paths[0]));
    nlohmann::json parts = nlohmann::json::array();
    for (const std::string &p : paths) {
      const std::size_t before = builder.documents();
      nlohmann::json provenance = nlohmann::json::parse(builder.merge_file(p));
      parts.push_back({{"path", p}, {"documents", builder.documents() - before}, {"provenance", std::move(provenance)}});
    }
    const grappi::CoocGraph graph = builder.finish();
    nlohmann::json j = grappi::to_json(graph);
    if (!graph.edges.empty()) {
      const std::string path = text_or(o.path, "", fn, "path");
      const grappi::FileReport f =
          grappi::import_cooccurrence(kg, graph, path.empty() ? grappi::cooccurrence_dataset_path(kg.path(), graph) : path);
      j["import"] = {{"dataset_id", f.dataset_id}, {"path", f.path}, {"edges_created", f.edges_created},
                     {"nodes_created", f.nodes_created}, {"already_imported", f.already_imported}};
    }
    j["partials"] = std::move(parts);
    *out_json = copy_out(grappi::dump_json(j));
    return GRAPPI_OK;
  });
}

grappi_status grappi_hypothesis_options_init(grappi_hypothesis_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_hypothesis_options_init"); });
}

}  // extern "C"

namespace {

// The hypothesis options of the C options (the ranker and the model aside).
grappi::HypothesisOptions hypothesis_options(const grappi_hypothesis_options &o, const char *fn) {
  grappi::HypothesisOptions ho;
  if (o.relation_count)
    ho.relations = string_array(o.relations, o.relation_count, fn, "relations", "relation_count", "a relation");
  ho.max_length = o.max_length;
  ho.paths = o.paths;
  ho.mask_direct = o.mask_direct != 0;
  ho.shortest_rounds = o.shortest_rounds;
  ho.intermediate_labels = string_array(o.intermediate_labels, o.intermediate_label_count, fn, "intermediate_labels",
                                        "intermediate_label_count", "a label");
  ho.context = o.context;
  ho.rounds = o.rounds;
  ho.support_relations = string_array(o.support_relations, o.support_relation_count, fn, "support_relations",
                                      "support_relation_count", "a relation");
  ho.max_calls = o.max_calls;
  ho.max_tokens = o.max_tokens;
  ho.use_cache = o.use_cache != 0;
  ho.embedding_weight = o.embedding_weight;
  if (o.embedding_model) ho.embedding_model = o.embedding_model;
  ho.generic_intermediates = o.generic_intermediates != 0;
  ho.max_intermediate_share = o.max_intermediate_share;
  ho.fold_reorderings = o.fold_reorderings != 0;
  return ho;
}

// The evaluation's options of the C options (the hypothesis options' model and run aside).
grappi::HypothesisEvalOptions eval_hypotheses_options(const grappi_eval_hypotheses_options &o,
                                                      const grappi_hypothesis_options &h, const char *fn) {
  grappi::HypothesisEvalOptions e;
  if (o.as_of) e.as_of = o.as_of;
  if (o.split_count == 1) e.split = o.splits[0];
  e.paths = o.paths;
  e.pairs = o.pairs;
  e.top = o.top;
  e.explain = o.explain;
  e.scoring = text_or(o.scoring, "prior", fn, "scoring");
  e.ranker_options.min_positives = o.min_positives;
  e.bootstrap = o.bootstrap;
  e.seed = o.seed;
  const std::string scope = text_or(o.scope, "document", fn, "scope");
  require(scope == "document" || scope == "sentence", fn, "scope must be \"document\" or \"sentence\"");
  e.cooc.scope = scope == "sentence" ? grappi::CoocOptions::Scope::sentence : grappi::CoocOptions::Scope::document;
  e.cooc.min_count = o.min_count;
  if (o.work_dir) e.work_dir = text(o.work_dir, fn, "work_dir");
  e.hypothesis = hypothesis_options(h, fn);
  set_run(e.hypothesis, read_options(h.run, fn));
  return e;
}

}  // namespace

extern "C" {

grappi_status grappi_graph_hypothesize_json(grappi_graph *g, const char *source, const char *target, const char *corpus,
                                            const grappi_hypothesis_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_hypothesize_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string a = text(source, fn, "source"), b = text(target, fn, "target");
    const grappi_hypothesis_options o = read_options(opts, fn);
    std::vector<grappi::Document> docs;
    if (corpus)
      docs = grappi::parse_documents(text(corpus, fn, "corpus"),
                                     grappi::document_format(text_or(o.corpus_format, "detect", fn, "corpus_format")), "corpus");
    grappi::HypothesisOptions ho = hypothesis_options(o, fn);
    if (!o.ranker || *o.ranker) {
      ho.ranker = grappi::PathRanker::stored(kg, o.ranker ? o.ranker : "");
    } else {  // "": the association weights
      const double w = ho.embedding_weight;
      ho.scorer = [w](const grappi::HypothesisPath &p) { return grappi::association_score(p, w); };
    }
    set_run(ho, read_options(o.run, fn));
    const auto model = run_model(o, fn);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(grappi::hypothesize(kg, *model, a, b, docs, ho))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_train_ranker_json(grappi_graph *g, const char *corpus, const char *corpus_format, const char *name,
                                             const grappi_run_options *run, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_train_ranker_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const auto docs = grappi::parse_documents(text(corpus, fn, "corpus"),
                                              grappi::document_format(text_or(corpus_format, "detect", fn, "corpus_format")),
                                              "corpus");
    const std::string stored = text_or(name, grappi::PathRanker::kDefaultName, fn, "name");
    grappi::HypothesisEvalOptions o;
    set_run(o.hypothesis, read_options(run, fn));
    const grappi::PathRankerTraining t = grappi::train_path_ranker(docs, o);
    if (t.cancelled) {
      *out_json = copy_out(grappi::dump_json(nlohmann::json{{"name", stored}, {"cancelled", true}}));
      return GRAPPI_OK;
    }
    t.ranker.save(kg, stored);
    *out_json = copy_out(grappi::dump_json(
        nlohmann::json{{"name", stored}, {"training", t.ranker.info()}, {"weights", t.ranker.weights_json()}}));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_search_papers_json(grappi_graph *g, const char *query, size_t limit, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_search_papers_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string q = text(query, fn, "query");
    nlohmann::json out = nlohmann::json::array();
    for (const grappi::PaperHit &h : kg.search_papers(q, limit ? limit : 20))
      out.push_back({{"key", h.key},     {"pmid", h.pmid},       {"doi", h.doi},     {"year", h.year},
                     {"title", h.title}, {"snippet", h.snippet}, {"score", h.score}, {"document", h.document},
                     {"dataset", h.dataset}});
    *out_json = copy_out(grappi::dump_json(out));
    return GRAPPI_OK;
  });
}

grappi_status grappi_eval_hypotheses_options_init(grappi_eval_hypotheses_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_eval_hypotheses_options_init"); });
}

grappi_status grappi_eval_hypotheses_json(grappi_graph *g, const char *corpus, const grappi_eval_hypotheses_options *opts,
                                          char **out_json, char **out_pairs) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_eval_hypotheses_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    if (out_pairs) *out_pairs = nullptr;
    const grappi_eval_hypotheses_options o = read_options(opts, fn);
    require(o.split_count == 0 || o.splits != nullptr, fn, "splits is NULL but split_count is not 0");
    require(!(o.split_count > 1 && out_pairs), fn, "out_pairs is for one split, not several (pass NULL)");
    require(!o.ranker || g, fn, "ranker names a stored path ranker: pass the graph that holds it");
    const grappi_hypothesis_options h = read_options(o.hypothesis, fn);
    grappi::HypothesisEvalOptions e = eval_hypotheses_options(o, h, fn);
    if (o.ranker)
      e.ranker = std::make_shared<const grappi::PathRanker>(grappi::PathRanker::load(graph_of(g, fn), text(o.ranker, fn, "ranker")));
    const grappi::DocumentFormat format = grappi::document_format(text_or(o.corpus_format, "detect", fn, "corpus_format"));
    auto docs = grappi::parse_documents(text(corpus, fn, "corpus"), format, "corpus");
    if (o.after_corpus) {
      require(o.split_count <= 1 && o.as_of == 0, fn, "after_corpus is the split: not with several splits nor as_of");
      e.before = docs.size();
      auto later = grappi::parse_documents(text(o.after_corpus, fn, "after_corpus"), format, "after_corpus");
      docs.insert(docs.end(), std::make_move_iterator(later.begin()), std::make_move_iterator(later.end()));
    }
    const auto model = run_model(h, fn);
    if (o.split_count > 1) {
      const std::vector<double> splits(o.splits, o.splits + o.split_count);
      *out_json = copy_out(grappi::dump_json(grappi::to_json(grappi::evaluate_hypotheses_splits(docs, *model, e, splits))));
      return GRAPPI_OK;
    }
    const grappi::HypothesisEvalResult r = grappi::evaluate_hypotheses(docs, *model, e);
    std::string lines;
    if (out_pairs)
      for (const grappi::HypothesisEvalPair &p : r.pairs) lines += grappi::dump_json(grappi::to_json(p, e.top)) + "\n";
    *out_json = copy_out(grappi::dump_json(grappi::to_json(r)));
    if (out_pairs) *out_pairs = copy_out(lines);
    return GRAPPI_OK;
  });
}

// ---- grounded answers -------------------------------------------------------------------------------

grappi_status grappi_ask_options_init(grappi_ask_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_ask_options_init"); });
}

}  // extern "C"

namespace {

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
  a.max_calls = o.max_calls;
  a.max_tokens = o.max_tokens;
  a.use_cache = o.use_cache != 0;
  a.dry_run = o.dry_run != 0;
  a.reader = text_or(o.reader, "prize", fn, "reader");
  a.reader_name = text_or(o.reader_name, "gat", fn, "reader_name");
  a.intents = o.intents != 0;
  a.model_intent = o.model_intent != 0;
  a.intent_candidates = o.intent_candidates;
  a.papers = o.papers;
  set_run(a, read_options(o.run, fn));
  return a;
}

}  // namespace

extern "C" {

grappi_status grappi_graph_ask_json(grappi_graph *g, const char *question, const grappi_retrieve_options *retrieve,
                                    const grappi_ask_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_ask_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string q = text(question, fn, "question");
    const grappi_ask_options o = read_options(opts, fn);
    const grappi::AskOptions a = ask_options(retrieve, o, fn);
    const auto model = run_model(o, fn);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(grappi::ask(kg, *model, q, a))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_analyze_question_json(grappi_graph *g, const char *question, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_analyze_question_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string q = text(question, fn, "question");
    *out_json = copy_out(grappi::dump_json(grappi::to_json(grappi::QuestionAnalyzer(kg).analyze(q))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_ask_report(grappi_graph *g, const char *question, const grappi_retrieve_options *retrieve,
                                      const grappi_ask_options *opts, char **out_json, char **out_html) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_ask_report";
    require(out_html != nullptr, fn, "out_html is NULL");
    *out_html = nullptr;
    if (out_json) *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string q = text(question, fn, "question");
    const grappi_ask_options o = read_options(opts, fn);
    const grappi::AskOptions a = ask_options(retrieve, o, fn);
    const auto model = run_model(o, fn);
    const grappi::AskResult r = grappi::ask(kg, *model, q, a);
    copy_report(out_json ? grappi::dump_json(grappi::to_json(r)) : std::string(), grappi::to_html(kg, r), out_json, out_html);
    return GRAPPI_OK;
  });
}

grappi_status grappi_report_html(const char *view_json, char **out_html) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_report_html";
    require(out_html != nullptr, fn, "out_html is NULL");
    *out_html = nullptr;
    require(view_json != nullptr, fn, "view_json is NULL");
    *out_html = copy_out(grappi::html_report(view_json));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_eval_qa_json(grappi_graph *g, const char *questions, const grappi_retrieve_options *retrieve,
                                        const grappi_ask_options *opts, size_t k, char **out_json, char **out_rows) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_eval_qa_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    if (out_rows) *out_rows = nullptr;
    auto &kg = graph_of(g, fn);
    const auto set = grappi::parse_qa_questions(text(questions, fn, "questions"), "questions");
    const grappi_ask_options o = read_options(opts, fn);
    grappi::QaEvalOptions e;
    e.ask = ask_options(retrieve, o, fn);
    if (k) e.k = k;
    const auto model = run_model(o, fn);
    const grappi::QaEvalResult r = grappi::evaluate_qa(kg, *model, set, e);
    std::string rows;
    for (const auto &row : r.rows) rows += grappi::dump_json(grappi::to_json(row)) + "\n";
    char *summary = copy_out(grappi::dump_json(grappi::to_json(r)));
    if (out_rows) {
      try {
        *out_rows = copy_out(rows);
      } catch (...) {
        grappi_free(summary);
        throw;
      }
    }
    *out_json = summary;
    return GRAPPI_OK;
  });
}

// ---- the graph reader -----------------------------------------------------------------------------

grappi_status grappi_reader_options_init(grappi_reader_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_reader_options_init"); });
}

grappi_status grappi_graph_train_reader_json(grappi_graph *g, const char *train, const char *valid,
                                             const grappi_retrieve_options *retrieve, const grappi_ask_options *ask,
                                             const grappi_reader_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_train_reader_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const auto train_set = grappi::parse_qa_questions(text(train, fn, "train"), "train");
    const auto valid_set =
        valid ? grappi::parse_qa_questions(text(valid, fn, "valid"), "valid") : std::vector<grappi::QaQuestion>{};
    const grappi_reader_options o = read_options(opts, fn);
    grappi::ReaderTrainOptions t;
    t.ask = ask_options(retrieve, read_options(ask, fn), fn);
    t.name = text_or(o.name, "gat", fn, "name");
    t.scope = text_or(o.scope, "subgraph", fn, "scope");
    t.gat.epochs = o.epochs;
    t.gat.layers = o.layers;
    t.gat.hidden = o.hidden;
    t.gat.heads = o.heads;
    t.gat.head_hidden = o.head_hidden;
    t.gat.dropout = o.dropout;
    t.gat.learning_rate = o.learning_rate;
    t.gat.weight_decay = o.weight_decay;
    t.gat.batch = o.batch;
    t.gat.patience = o.patience;
    t.gat.valid_share = o.valid_share;
    t.gat.seed = o.seed;
    t.gat.threads = o.threads;
    t.max_nodes = o.max_nodes;
    const grappi_run_options run = read_options(o.run, fn);
    t.cancel = run_cancel(run);
    if (auto progress = run_progress(run)) {
      const std::size_t epochs = o.epochs;
      t.progress_examples = [progress](std::size_t done, std::size_t total) { progress("examples", done, total); };
      t.progress = [progress, epochs](const grappi::ReaderEpoch &e) { progress("epochs", e.epoch, epochs); };
    }
    *out_json = copy_out(grappi::dump_json(grappi::to_json(grappi::train_reader(kg, train_set, valid_set, t))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_reader_scores_json(grappi_graph *g, const char *question, const grappi_retrieve_options *retrieve,
                                              const grappi_ask_options *ask, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_reader_scores_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string q = text(question, fn, "question");
    const grappi::AskOptions a = ask_options(retrieve, read_options(ask, fn), fn);
    const grappi::GatReader reader = grappi::GatReader::load(kg, a.reader_name);
    const std::string scope = reader.info().value("scope", "subgraph");
    const grappi::ReaderGraph graph =
        grappi::reader_graph(kg, q, a, scope, nullptr, reader.info().value("max_nodes", std::size_t{0}));
    *out_json = copy_out(grappi::dump_json(grappi::reader_scores_json(kg, graph, reader.score(graph), a.reader_name, scope)));
    return GRAPPI_OK;
  });
}

// ---- PCST -----------------------------------------------------------------------------------------

grappi_status grappi_pcst_options_init(grappi_pcst_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_pcst_options_init"); });
}

grappi_status grappi_pcst_solver_new(grappi_pcst_solver **out) {
  return guard([&]() -> grappi_status {
    require(out != nullptr, "grappi_pcst_solver_new", "out is NULL");
    *out = nullptr;
    *out = new grappi_pcst_solver();
    return GRAPPI_OK;
  });
}

void grappi_pcst_solver_free(grappi_pcst_solver *solver) { delete solver; }

grappi_status grappi_pcst_solver_solve(grappi_pcst_solver *solver, size_t num_nodes, const double *prizes, size_t num_edges,
                                       const int64_t *edges, const double *costs, const grappi_pcst_options *opts,
                                       grappi_pcst_result *out) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_pcst_solver_solve";
    require(solver != nullptr, fn, "solver is NULL");
    require(out != nullptr, fn, "out is NULL");
    const std::size_t bytes = bytes_of_version<grappi_pcst_result>(out->version, fn);
    check_pcst_arrays(num_nodes, prizes, num_edges, edges, costs, fn);
    const grappi::PcstOptions o = pcst_options(opts, fn);
    solver->result = solver->solver.solve(num_nodes, prizes, num_edges, edges, costs, o);
    const grappi::PcstResult &r = solver->result;
    grappi_pcst_result full;
    full.version = out->version;
    full.nodes = r.nodes.data();
    full.num_nodes = r.nodes.size();
    full.edges = r.edges.data();
    full.num_edges = r.edges.size();
    full.objective = r.objective;
    full.net_worth = r.net_worth;
    full.objective_before_improve = r.objective_before_improve;
    full.improve_rounds = r.improve_rounds;
    std::memcpy(static_cast<void *>(out), &full, bytes);
    return GRAPPI_OK;
  });
}

}  // extern "C"
