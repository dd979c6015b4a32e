// Internal: the stages of AgentPipeline::explore (GraPPI's retrieve -> divide -> solve), each a
// function over the run's inputs (ExploreContext) and the state it builds up (ExploreRun), so
// that each can be tested alone and the later agents can reuse the ones they share (requests
// through ModelCalls, provenance).
//
//   validate -> windows -> proteins -> candidates -> priors -> selection -> edges
//            -> (dry run: plan) | explain edges -> explain paths -> rank -> parameters
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/knowledge_graph.hpp"
#include "grappi/pipeline.hpp"
#include "grappi/retriever.hpp"
#include "models/model_calls.hpp"

namespace grappi::detail {

/// What every stage reads: the graph, the retriever, the options and the query.
struct ExploreContext {
  KnowledgeGraph &kg;
  const Retriever &retriever;
  const VectorIndex *vectors = nullptr;  ///< the retriever's vectors; null without embeddings
  std::string embedding_model;           ///< their model; empty without embeddings
  const ExploreOptions &options;
  std::vector<float> query;              ///< the query's embedding; empty when it cannot be embedded
  std::vector<std::string> terms;        ///< the query's content words

  const GraphSnapshot &graph() const { return retriever.graph(); }
};

/// A candidate path, distinct by its node sequence across windows.
struct Candidate {
  std::vector<int64_t> nodes, edge_ids;
  std::vector<double> scores;
  std::vector<std::size_t> windows;  ///< every window it was found in
  double prior = 0;
  /// Position in the candidate order: prior descending, then fewer edges, then the sequence
  /// of external ids (a total order that does not depend on how the paths were found).
  std::size_t order = 0;
};

/// What the stages build up; `result` is what explore returns.
struct ExploreRun {
  ExploreResult result;
  std::vector<Candidate> candidates;
  std::vector<std::size_t> selected;  ///< candidates to explain, in candidate order
  std::vector<ExplainedPath> paths;   ///< the selected candidates as paths to explain
};

/// Calls options.progress from any thread, one call at a time.
class ExploreProgressReporter {
 public:
  using Progress = std::function<void(const std::string &, std::size_t, std::size_t)>;
  explicit ExploreProgressReporter(const Progress &fn) : fn_(fn) {}
  void operator()(const char *stage, std::size_t done, std::size_t total);

 private:
  const Progress &fn_;
  std::mutex mu_;
};

/// Error(invalid_argument) for options explore cannot run with.
void validate_explore_options(const ExploreOptions &options);
/// The windows around the root (built concurrently).
void retrieve_windows(const ExploreContext &ctx, ExploreRun &run);
/// Every protein of the windows with its annotation and query similarity, ascending id.
void collect_proteins(const ExploreContext &ctx, ExploreRun &run);
/// The best options.max_paths candidate paths of all windows by the candidate order, distinct
/// by node sequence, best first, with their priors (explore_candidates.cpp). Stops after
/// options.max_visited paths (a note says so).
void enumerate_candidates(const ExploreContext &ctx, ExploreRun &run);
/// The cheap prior of a candidate: 0.5 Q + 0.5 C (ExploreOptions::explain_top); the value
/// enumerate_candidates computes incrementally, to the last bit (its definition, which the
/// tests hold the search to; the pipeline does not compute it twice).
double path_prior(const ExploreContext &ctx, const ExploreResult &result, const Candidate &c);
/// The candidates to explain: all, or the best options.explain_top by prior (ties: fewer
/// edges, then candidate order), in candidate order.
void select_candidates(const ExploreContext &ctx, ExploreRun &run);
/// The distinct edges of the selected paths (oriented as first used) and the paths over them.
void collect_edges(const ExploreContext &ctx, ExploreRun &run);
/// The model requests, rendered from the templates with their facts in `task`.
ChatRequest edge_request(const ExploreContext &ctx, const ExploreResult &result, const ExplainedEdge &edge);
ChatRequest path_request(const ExploreContext &ctx, const ExploreResult &result, const ExplainedPath &path);
/// Dry run: the calls the run would make (cache hits excluded) and their prompt tokens.
void plan_calls(const ExploreContext &ctx, ExploreRun &run, ModelCalls &calls);
/// Every distinct edge explained once, in parallel.
void explain_edges(const ExploreContext &ctx, ExploreRun &run, ModelCalls &calls, ExploreProgressReporter &progress);
/// Every selected path explained and scored from its edges' explanations, in parallel.
void explain_paths(const ExploreContext &ctx, ExploreRun &run, ModelCalls &calls, ExploreProgressReporter &progress);
/// The top options.top scored paths, best first (relevance, then fewer edges, then the higher
/// prior, then candidate order), with options.diversity folding other orderings of a protein
/// set and penalising near-duplicates; failed and skipped paths apart; usage totals.
void rank_paths(const ExploreContext &ctx, ExploreRun &run, const ModelCalls &calls);
/// The top `top` of `ranked` (indices into paths, best first) with ExploreOptions::diversity:
/// at 0 the first `top`; above 0, one ordering per protein set (`folded` counts the others),
/// then the top chosen by maximal marginal relevance and returned in ranking order.
std::vector<std::size_t> diverse_top(const std::vector<ExplainedPath> &paths, const std::vector<std::size_t> &ranked,
                                     std::size_t top, double diversity, std::size_t &folded);
/// The options that shaped the result (cache: whether the response cache was used), and its
/// provenance.
void record_parameters(const ExploreContext &ctx, ExploreRun &run, bool cache);

/// Provenance every agent reports: grappi's version, the database, its generation, every
/// imported dataset, and how nodes were ranked (embedding model or edge score).
nlohmann::json provenance(const KnowledgeGraph &kg, const GraphSnapshot &graph, const std::string &embedding_model);

}  // namespace grappi::detail
