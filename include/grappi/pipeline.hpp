// grappi/pipeline.hpp — the retrieve -> divide -> solve explanation pipeline (GraPPI impact
// search): windows around an initial protein, candidate paths, one explanation per distinct
// (query, edge), one explanation and 0-100 relevance score per path, re-ranking, provenance.
#pragma once

#include "grappi/export.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/clustering.hpp"
#include "grappi/enrichment.hpp"
#include "grappi/knowledge_graph.hpp"
#include "grappi/llm.hpp"
#include "grappi/run_control.hpp"
#include "grappi/retriever.hpp"

namespace grappi {

/// Options of AgentPipeline::explore.
/// RunControl for explore: confirm_calls counts the dry run's calls (cache hits excluded);
/// cancel is polled (from worker threads) between the retrieval stages, as a window grows (every
/// level and 64 nodes), every 65,536 paths of the candidate search, before each model request
/// and while an HTTP model's request waits or is in flight (ChatRequest::cancel), and a cancelled run is
/// partial with the reason "cancelled by the caller"; progress reports "candidates" (the paths
/// visited so far of max_visited, every 65,536 of a long search), "retrieve" (1 of 1), "edges"
/// and "paths" (each request done of the stage's total), from worker threads.
struct ExploreOptions : RunControl {
  std::string query;                     ///< the therapeutic impact, e.g. "inhibit tau phosphorylation"
  std::vector<std::size_t> windows = {1};  ///< window numbers (1-based), each its own graph
  /// k per depth, depth M, relation and score filters, ranking blend (window number ignored).
  WindowOptions window;
  std::size_t max_length = 4;            ///< L: path length in edges (1 to 12)
  /// Candidate paths kept over all windows: the best by the prior (see explain_top; ties:
  /// fewer edges, then the external ids), found by a bounded search over every path, so the
  /// set does not depend on the order the graph lists neighbors in (1 to 1000000). The default
  /// holds every path the default explain_budget can select (at most 300), so raising it changes
  /// the result only with a larger budget (or none).
  std::size_t max_paths = 2000;
  /// Safety bound on the paths that search visits (it prunes prefixes that cannot beat the
  /// kept ones; this bound is reached only on very dense windows). A note says when it was.
  std::size_t max_visited = 50000000;
  std::size_t top = 10;                  ///< n: ranked paths kept
  /// Diversity of the top n, 0-1 (0: the reference ranking). Above 0, a protein set is shown
  /// in one ordering only (its best-ranked one) and the top n are chosen by maximal marginal
  /// relevance: each next path maximises (1 - diversity) * relevance / 100 - diversity * its
  /// highest Jaccard similarity to the paths already chosen (protein sets without the
  /// initial protein; equal values: the ranking's order). The chosen paths keep the ranking's
  /// order. At 0.1 a path sharing half its proteins with a chosen one needs about 5.6
  /// relevance points more than one sharing none.
  double diversity = 0.1;
  /// Each window's enriched terms (grappi::enrich over its proteins against the annotated background, FDR at most
  /// 0.05): at most this many, the lowest FDR first (0: none computed). Without annotations in the database, none.
  std::size_t window_terms = 5;
  /// The windows' proteins clustered (Leiden, modularity, seed 42, over their network at the window filter's score,
  /// STRING's medium 0.4 when it sets none), each cluster with its first enriched term: the reports colour the nodes
  /// by them. false: none.
  bool clusters = true;
  /// Explain only the best N candidate paths by the prior (0: all). The prior is
  /// 0.5 * Q + 0.5 * C: C the geometric mean of the path's edge scores, Q the mean query
  /// similarity of the proteins after the first (with embeddings) or the fraction of the query's
  /// content words found in their names and annotations (without).
  std::size_t explain_top = 0;
  /// The requests a run may make (0: no bound): the best candidate paths by the prior are
  /// explained while each path and its edges not yet explained fit in it (one request each;
  /// the repair turns an unparseable path answer may take come on top). The whole STRING human
  /// network at max_paths 20,000 gives 20,000 candidates and 1,474 edges: without a bound, 21,474 requests.
  /// A note says how many candidates were left unexplained. Applies offline too, so that the
  /// offline run explains the same paths a model would.
  std::size_t explain_budget = 300;
  std::size_t concurrency = 8;           ///< model calls in flight (also bounded by the model)
  bool dry_run = false;                  ///< count calls and estimate tokens, send nothing
  bool repair = true;                    ///< one follow-up turn for an unparseable path answer
  int edge_max_tokens = 120;             ///< answer limit per edge request
  int path_max_tokens = 300;             ///< answer limit per path request
  PromptTemplates templates = PromptTemplates::defaults();  ///< the prompts (replaceable; versioned)
};

/// What a run used and did.
struct ExploreUsage {
  std::size_t model_calls = 0;       ///< both stages: requests sent to a language model
  std::size_t extractive_answers = 0;  ///< both stages: answers the extractive model made locally
  std::size_t cache_hits = 0;        ///< both stages
  int64_t prompt_tokens = 0;         ///< both stages
  int64_t completion_tokens = 0;     ///< both stages
  std::size_t edges_explained = 0;   ///< edges answered (from the model or the cache)
  std::size_t paths_explained = 0;   ///< paths answered (from the model or the cache)
  std::size_t edges_failed = 0;      ///< edges whose answer failed
  std::size_t paths_failed = 0;      ///< paths whose answer failed
  std::size_t candidate_paths = 0;  ///< distinct candidate paths kept (at most max_paths)
  std::size_t candidate_paths_visited = 0;  ///< paths the candidate search visited
  std::size_t orderings_folded = 0;  ///< explained paths left out as another ordering of a better-ranked protein set
  std::size_t selected_paths = 0;   ///< paths sent to be explained (after --explain-top)
  std::size_t distinct_edges = 0;   ///< distinct edges of the selected paths
  double retrieve_seconds = 0;      ///< windows, candidates and selection
  StageUsage edges;                 ///< the edge stage
  StageUsage paths;                 ///< the path stage
  double seconds = 0;  ///< wall time of the whole run
};

/// A protein that appears in the windows, with what the model was told about it.
struct ExploreProtein {
  int64_t id = 0;               ///< node id
  std::string name;             ///< preferred name
  std::string external_id;      ///< external id
  std::string annotation;       ///< the annotation the prompts quote
  double query_similarity = 0;  ///< cosine to the query (NaN without embeddings)
};

/// A distinct edge of the selected paths and its explanation. Status: "ok", "failed" (the
/// reason in `error`), "skipped" (a budget ran out), "pending" (dry run).
struct ExplainedEdge {
  int64_t edge = 0;                ///< edge id
  int64_t source = 0;              ///< as presented to the model (the direction of first use)
  int64_t target = 0;              ///< as presented to the model
  std::string relation;            ///< relation type
  double score = 0;                ///< the edge's score
  bool directed = false;           ///< a directed relation
  std::vector<Channel> channels;   ///< evidence channels
  std::vector<int64_t> pmids;      ///< supporting PubMed ids
  std::string evidence;            ///< free evidence text
  std::string status = "pending";  ///< see the struct's description
  std::string explanation;         ///< the model's explanation when "ok"
  std::string error;               ///< why it failed or was skipped
  bool cached = false;             ///< the explanation came from the response cache
};

/// A candidate path and its explanation (status as for ExplainedEdge).
struct ExplainedPath {
  std::size_t rank = 0;             ///< 1-based among the kept paths; 0 otherwise
  std::vector<int64_t> nodes;       ///< node ids from the initial protein on
  std::vector<std::size_t> edges;   ///< indices into ExploreResult::edges, in path order
  std::vector<std::size_t> windows; ///< the windows the path was found in
  double prior = 0;                 ///< the cheap pre-ranking score
  std::string status = "pending";   ///< "ok", "failed", "skipped" or "pending"
  double relevance_score = 0;       ///< 0-100
  bool clamped = false;             ///< the model's score was out of range and was clamped
  std::string explanation;          ///< the model's explanation when "ok"
  std::string error;                ///< why it failed or was skipped
  bool cached = false;              ///< the answer came from the response cache
};

/// The result of AgentPipeline::explore.
struct GRAPPI_CXX_API ExploreResult {
  std::string query;           ///< the therapeutic impact asked about
  int64_t root = 0;            ///< the initial protein's node id
  nlohmann::json parameters;   ///< the options that shaped the result
  nlohmann::json provenance;   ///< database, datasets, grappi version, embedding model
  nlohmann::json model;        ///< LanguageModel::describe()
  std::string template_version;          ///< PromptTemplates::version
  std::vector<Window> windows;           ///< the windows the candidates came from
  /// Each window's enriched terms (same order as windows; ExploreOptions::window_terms): empty lists when the
  /// database holds no annotations or nothing is enriched.
  std::vector<std::vector<EnrichedTerm>> window_terms;
  /// The windows' proteins' clusters (ExploreOptions::clusters), largest first; empty when not computed or the
  /// proteins have no edge among them.
  std::vector<Cluster> clusters;
  std::vector<ExploreProtein> proteins;  ///< every protein of the windows, ascending id
  std::vector<ExplainedEdge> edges;      ///< distinct edges of the selected paths
  /// The top n scored paths, best first. The ranking: relevance_score descending, then fewer
  /// edges, then higher prior, then the candidate order (external ids); with
  /// ExploreOptions::diversity above 0, the top n are chosen from it by maximal marginal
  /// relevance, one ordering per protein set, and listed in the ranking's order.
  std::vector<ExplainedPath> paths;
  std::vector<ExplainedPath> failed;     ///< selected paths that failed or were skipped
  /// More paths than max_paths existed (the best by the prior were kept), or the search
  /// stopped at max_visited (a note says so).
  bool candidates_truncated = false;
  /// Why a result is empty or smaller than asked (a window holding only the initial protein,
  /// no edges under the filters, a query without usable terms, a bound reached), for people.
  std::vector<std::string> notes;
  bool partial = false;                  ///< a budget stopped the run
  std::string partial_reason;            ///< which budget, when partial
  bool dry_run = false;                  ///< nothing was sent (planned_* say what would be)
  std::size_t planned_calls = 0;         ///< dry run: model calls the run would make
  int64_t planned_prompt_tokens = 0;     ///< dry run: estimated prompt tokens of those calls
  ExploreUsage usage;                    ///< what the run used

  /// The protein with a node id among `proteins`, or nullptr.
  const ExploreProtein *protein(int64_t id) const;
};

/// The most nodes the windows of `options` can hold in all: windows x (1 + k1 + k1 k2 + ...) over
/// the window depth (the last k repeating), saturating at SIZE_MAX. A server bounds the work a
/// request may ask for by it (grappi serve, the MCP server).
GRAPPI_CXX_API std::size_t explore_window_nodes_bound(const ExploreOptions &options) noexcept;

/// The pipeline over one knowledge graph and one language model. explore() may be called from
/// several threads at once (the graph serialises its own calls; the model must be thread-safe).
class GRAPPI_CXX_API AgentPipeline {
 public:
  /// Takes the graph's retriever for the vectors of embedding_model (default: the most recent
  /// model; none when nothing was embedded: windows then rank neighbors by edge score). The
  /// graph must outlive the pipeline; after changing the graph, make a new pipeline (this one
  /// keeps the snapshot it was made with). Making one copies nothing (the graph caches its
  /// retriever), so a pipeline per request is cheap.
  AgentPipeline(KnowledgeGraph &graph, std::shared_ptr<LanguageModel> model, const std::string &embedding_model = "");
  /// The same without a model of its own: each explore() asks its options' model
  /// (RunControl::model; null: the offline default).
  explicit AgentPipeline(KnowledgeGraph &graph, const std::string &embedding_model = "");
  ~AgentPipeline();

  /// Runs the pipeline from the node `root` (a database id). Throws Error for an unknown node
  /// or invalid options; model failures are recorded per item, never thrown.
  ExploreResult explore(int64_t root, const ExploreOptions &options) const;
  /// The same from a protein name (anything KnowledgeGraph::resolve accepts).
  ExploreResult explore(std::string_view protein, const ExploreOptions &options) const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

/// The explore result as JSON (docs/explore.md "output").
GRAPPI_CXX_API nlohmann::json to_json(const ExploreResult &result);
/// A Markdown report for people.
GRAPPI_CXX_API std::string to_markdown(const ExploreResult &result);
/// A CX2 network (Cytoscape, NDEx) of the kept paths: node annotations, the initial protein
/// highlighted, edge score, relation and explanation, path ranks, edge width mapped to score.
GRAPPI_CXX_API nlohmann::json to_cx2(const ExploreResult &result);

/// The offline (extractive) answer to an explore request, from its task: kind "edge" (a summary
/// of the two proteins' annotations, channels and references) or "path" (JSON {explanation,
/// relevance_score} from the query terms in the proteins' annotations, their query similarity
/// and the edges' confidences): what ExtractiveModel answers when explore asks it. Not a
/// language model; Error(invalid_argument) for another kind.
GRAPPI_CXX_API std::string extractive_explore_answer(const ChatRequest &request);

}  // namespace grappi
