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
