// Internal to the C layer (not installed; included by capi_internal.hpp, whose invalid() and
// require() it uses): every options struct read by its version.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>

#include "grappi/grappi.h"

namespace grappi::capi {

// ---- versioned options ----------------------------------------------------------------------------
// Each options struct lists, per version, where its last field ends (not sizeof: a later field
// may sit in what was tail padding). A caller's struct of version v is read for exactly that
// many bytes over the defaults, and _init writes exactly that many.

#define GRAPPI_FIELD_END(T, f) (offsetof(T, f) + sizeof(static_cast<T *>(nullptr)->f))

// Every versioned struct of the C API in one list (an X-macro): its defaults, its _VERSION macro
// and the field its version 1 ends with. All are at version 1 until 0.1.0 is tagged (fields are
// added to version 1 in place until then; VERSIONING.md); a version added after the release gives
// its struct's entry the field that version ends with too, and Versions<T>::end one more element.
#define GRAPPI_CAPI_VERSIONED_STRUCTS(X) \
  X(grappi_open_options, GRAPPI_OPEN_OPTIONS_INIT, GRAPPI_OPEN_OPTIONS_VERSION, busy_timeout_ms) \
  X(grappi_embed_options, GRAPPI_EMBED_OPTIONS_INIT, GRAPPI_EMBED_OPTIONS_VERSION, user_data) \
  X(grappi_window_options, GRAPPI_WINDOW_OPTIONS_INIT, GRAPPI_WINDOW_OPTIONS_VERSION, max_paths) \
  X(grappi_enrich_options, GRAPPI_ENRICH_OPTIONS_INIT, GRAPPI_ENRICH_OPTIONS_VERSION, max_fdr) \
  X(grappi_cluster_options, GRAPPI_CLUSTER_OPTIONS_INIT, GRAPPI_CLUSTER_OPTIONS_VERSION, max_fdr) \
  X(grappi_retrieve_options, GRAPPI_RETRIEVE_OPTIONS_INIT, GRAPPI_RETRIEVE_OPTIONS_VERSION, relation_count) \
  X(grappi_explore_options, GRAPPI_EXPLORE_OPTIONS_INIT, GRAPPI_EXPLORE_OPTIONS_VERSION, run) \
  X(grappi_ground_options, GRAPPI_GROUND_OPTIONS_INIT, GRAPPI_GROUND_OPTIONS_VERSION, run) \
  X(grappi_extract_options, GRAPPI_EXTRACT_OPTIONS_INIT, GRAPPI_EXTRACT_OPTIONS_VERSION, run) \
  X(grappi_cooc_options, GRAPPI_COOC_OPTIONS_INIT, GRAPPI_COOC_OPTIONS_VERSION, path) \
  X(grappi_hypothesis_options, GRAPPI_HYPOTHESIS_OPTIONS_INIT, GRAPPI_HYPOTHESIS_OPTIONS_VERSION, shortest_rounds) \
  X(grappi_ask_options, GRAPPI_ASK_OPTIONS_INIT, GRAPPI_ASK_OPTIONS_VERSION, run) \
  X(grappi_reader_options, GRAPPI_READER_OPTIONS_INIT, GRAPPI_READER_OPTIONS_VERSION, run) \
  X(grappi_pcst_options, GRAPPI_PCST_OPTIONS_INIT, GRAPPI_PCST_OPTIONS_VERSION, event_order) \
  X(grappi_export_options, GRAPPI_EXPORT_OPTIONS_INIT, GRAPPI_EXPORT_OPTIONS_VERSION, hops) \
  X(grappi_import_options, GRAPPI_IMPORT_OPTIONS_INIT, GRAPPI_IMPORT_OPTIONS_VERSION, separator) \
  X(grappi_eval_hypotheses_options, GRAPPI_EVAL_HYPOTHESES_OPTIONS_INIT, \
    GRAPPI_EVAL_HYPOTHESES_OPTIONS_VERSION, after_corpus) \
  X(grappi_model_options, GRAPPI_MODEL_OPTIONS_INIT, GRAPPI_MODEL_OPTIONS_VERSION, user_data) \
  X(grappi_run_options, GRAPPI_RUN_OPTIONS_INIT, GRAPPI_RUN_OPTIONS_VERSION, user_data) \
  X(grappi_pcst_result, GRAPPI_PCST_RESULT_INIT, GRAPPI_PCST_RESULT_VERSION, improve_rounds)

template <class T>
struct Versions;
#define GRAPPI_CAPI_VERSIONS(T, INIT, VERSION, LAST)                  \
  template <>                                                         \
  struct Versions<T> {                                                \
    static constexpr const char *name = #T;                           \
    static constexpr std::size_t end[] = {GRAPPI_FIELD_END(T, LAST)}; \
    static T defaults() { return INIT; }                              \
  };
GRAPPI_CAPI_VERSIONED_STRUCTS(GRAPPI_CAPI_VERSIONS)
#undef GRAPPI_CAPI_VERSIONS

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

}  // namespace grappi::capi
