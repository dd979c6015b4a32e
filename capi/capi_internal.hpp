// Internal to the C layer (capi/, not installed): the handles behind grappi.h's opaque types, the
// error plumbing every entry point runs in (guard: an exception becomes a status code and a
// thread-local message, and never crosses), caller strings and copies out, options read by
// version (capi_options.hpp) and the conversions of C options into the C++ ones. One file per
// concept holds the entry points (capi_graph.cpp, capi_retrieval.cpp, ...).
#pragma once

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
#include <vector>

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

namespace grappi::capi {

extern thread_local std::string t_message;
extern thread_local grappi_status t_code;

grappi_status set_error(grappi_status code, const std::string &msg);
grappi_status code_of(grappi::ErrorCode c);

// Runs an entry point's body: any exception becomes a status code and the thread's message.
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

[[noreturn]] void invalid(const std::string &what);
void require(bool cond, const char *fn, const char *what);
// A caller's string: non-NULL and valid UTF-8.
std::string text(const char *s, const char *fn, const char *what);
// An optional string: the fallback when NULL.
std::string text_or(const char *s, const std::string &fallback, const char *fn, const char *what);
// A library-allocated copy of a string, for the caller to grappi_free.
char *copy_out(const std::string &s);
// A report and, when asked for, the JSON beside it: both copied, or neither.
void copy_report(const std::string &json, const std::string &html, char **out_json, char **out_html);
grappi::KnowledgeGraph &graph_of(grappi_graph *g, const char *fn);

}  // namespace grappi::capi

#include "capi_options.hpp"

namespace grappi::capi {

// The conversions of C options into the C++ ones (capi_internal.cpp).
std::vector<std::string> string_array(const char *const *items, std::size_t count, const char *fn, const char *array,
                                      const char *count_field, const char *item);
grappi::PcstEventOrder event_order(int32_t order, const char *fn);
grappi::PcstRetrieveOptions retrieve_options(const grappi_retrieve_options *opts, const char *fn);
grappi::PcstRetrieval retrieve(grappi_graph *g, const char *question, const grappi::PcstRetrieveOptions &o,
                               const char *fn);
std::string retrieve_csv(grappi::KnowledgeGraph &kg, const grappi::PcstRetrieval &r);
// A C chat callback as the C++ callback model's function.
grappi::CallbackModel::Function callback_function(grappi_chat_fn fn_ptr, void *user);
// The model a grappi_model_options describes (grappi_model_new).
std::shared_ptr<grappi::LanguageModel> model_of(const grappi_model_options &o, const char *fn);
// The run's cancel callback as the C++ options take it (empty when none is given).
std::function<bool()> run_cancel(const grappi_run_options &r);
// The run's progress callback, called one at a time (empty when none is given).
std::function<void(const char *, std::size_t, std::size_t)> run_progress(const grappi_run_options &r);
// A run's cancel and progress, set on any agent's options (grappi::RunControl).
void set_run(grappi::RunControl &c, const grappi_run_options &r);
// A budget's limits and cache, set on any agent's options (the dry run is each agent's own).
void set_budget(grappi::RunControl &c, const grappi_budget_options &b);
grappi::ExploreOptions explore_options(const grappi_explore_options &o, const char *query, const char *fn);
grappi::PcstOptions pcst_options(const grappi_pcst_options *opts, const char *fn);
void check_pcst_arrays(std::size_t num_nodes, const double *prizes, std::size_t num_edges, const int64_t *edges,
                       const double *costs, const char *fn);
grappi::ClusterOptions cluster_options_of(const grappi_cluster_options &o, const char *fn);
grappi::AskOptions ask_options(const grappi_retrieve_options *retrieve, const grappi_ask_options &o, const char *fn);
grappi_status write_hits(const std::vector<grappi::SearchHit> &hits, int64_t *out_ids, float *out_scores, std::size_t capacity,
                         std::size_t *out_count);

// The model of a run: the run's model handle when it gives one, else the offline default.
template <class Options>
std::shared_ptr<grappi::LanguageModel> run_model(const Options &o, const char *fn) {
  const grappi_run_options r = read_options(o.run, fn);
  if (r.model) {
    require(r.model->model != nullptr, fn, "run->model is not a model grappi_model_new made");
    return r.model->model;
  }
  const grappi_model_options offline = GRAPPI_MODEL_OPTIONS_INIT;
  return model_of(offline, fn);
}

}  // namespace grappi::capi
