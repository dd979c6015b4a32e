// How one run of an agent uses its language model and is watched: every agent's options derive
// from grappi::RunControl (ExploreOptions, GroundingOptions, ExtractionOptions,
// HypothesisOptions, AskOptions), so the model, budgets, the response cache, the confirmation
// threshold, cancel and progress are set the same way whichever agent runs. What a run used
// (calls, tokens, cache hits) is in each result's `usage`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "grappi/export.h"

namespace grappi {

class LanguageModel;

/// Budgets, cache, confirmation, cancel and progress of one agent run. Each agent's options say
/// what it counts against `confirm_calls`, where it polls `cancel` and which stages it reports.
struct RunControl {
  /// The language model the run asks; null: the offline default (ExtractiveModel: extractive or
  /// rule-based answers, not a language model, and the results say so). Every agent has an entry
  /// point that takes its model from here (ask(kg, question, options), extract(kg, documents,
  /// options), Grounder(kg, options), hypothesize(kg, source, target, corpus, options),
  /// AgentPipeline(kg), ...); one given as an argument (ask(kg, model, question, options))
  /// is used instead of this one.
  std::shared_ptr<LanguageModel> model;
  std::size_t max_calls = 0;  ///< model-call budget (0: none); answers from the cache are free
  int64_t max_tokens = 0;     ///< prompt + completion token budget (0: none)
  bool use_cache = true;      ///< read and write the database's response cache
  /// A run with a language model and no max_calls that would make more model calls than this
  /// sends nothing: Error(invalid_argument) with the estimate (0: no such limit; the command
  /// line sets 500 unless --yes).
  std::size_t confirm_calls = 0;
  /// Polled while the run goes on (at least before each model request, not before a cached
  /// answer): once it returns true the run stops as a spent budget would stop it - what was
  /// done is kept, what was not is "skipped" with the reason "cancelled by the caller".
  std::function<bool()> cancel;
  /// Called with a stage, its items done and their total, one call at a time (possibly from
  /// the run's worker threads). May be empty.
  std::function<void(const std::string &stage, std::size_t done, std::size_t total)> progress;
};

/// The model a run asks: run.model, else the offline default, one ExtractiveModel shared by
/// every run (stateless and thread-safe).
GRAPPI_CXX_API LanguageModel &run_model(const RunControl &run);

}  // namespace grappi
