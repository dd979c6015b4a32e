// AgentPipeline: GraPPI's retrieve -> divide -> solve over one graph and one language model. The
// stages are in explore_stages.cpp; this file holds the pipeline's state and runs them in order.
#include "grappi/pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

#include "agents/explore/explore_stages.hpp"
#include "grappi/error.hpp"
#include "grappi/graph_embeddings.hpp"
#include "models/model_calls.hpp"
#include "common/text_util.hpp"
#include "common/visibility.hpp"

namespace grappi {

std::size_t explore_window_nodes_bound(const ExploreOptions &o) noexcept {
  constexpr std::size_t most = std::numeric_limits<std::size_t>::max();
  const std::vector<std::size_t> &k = o.window.k;
  std::size_t total = 1, level = 1;
  for (std::size_t d = 0; d < o.window.depth; ++d) {
    const std::size_t kd = k.empty() ? 1 : k[std::min(d, k.size() - 1)];
    if (kd && level > most / kd) return most;
    level *= kd;
    if (total > most - level) return most;
    total += level;
  }
  return o.windows.empty() || total <= most / o.windows.size() ? total * std::max<std::size_t>(1, o.windows.size()) : most;
}

const ExploreProtein *ExploreResult::protein(int64_t id) const {
  auto it = std::lower_bound(proteins.begin(), proteins.end(), id,
                             [](const ExploreProtein &p, int64_t v) { return p.id < v; });
  return it != proteins.end() && it->id == id ? &*it : nullptr;
}

struct GRAPPI_HIDDEN AgentPipeline::State {
  KnowledgeGraph *graph = nullptr;
  std::shared_ptr<LanguageModel> model;  // null: each run's (RunControl::model)
  std::shared_ptr<const Retriever> retriever;
  std::shared_ptr<Embedder> query_embedder;  // null when the model cannot embed queries
  std::string embedding_model;               // empty without vectors

  State(KnowledgeGraph &g, const std::string &embedding, std::shared_ptr<LanguageModel> m)
      : graph(&g), model(std::move(m)), retriever(grappi::graph_retriever(g, embedding)) {
    if (const VectorIndex *v = retriever->vectors()) {
      embedding_model = v->model();
      try {
        query_embedder = grappi::query_embedder(g, embedding_model);
      } catch (const Error &) {
        // A callback model cannot be re-created for the query: rank and explain without query
        // similarity (the windows still rank by the stored vectors).
        query_embedder = nullptr;
      }
    }
  }
};

AgentPipeline::AgentPipeline(KnowledgeGraph &graph, std::shared_ptr<LanguageModel> model,
                             const std::string &embedding_model) {
  if (!model) throw Error(ErrorCode::invalid_argument, "AgentPipeline: no language model");
  s_ = std::make_unique<State>(graph, embedding_model, std::move(model));
}

AgentPipeline::AgentPipeline(KnowledgeGraph &graph, const std::string &embedding_model)
    : s_(std::make_unique<State>(graph, embedding_model, nullptr)) {}

AgentPipeline::~AgentPipeline() = default;

ExploreResult AgentPipeline::explore(std::string_view protein, const ExploreOptions &options) const {
  detail::validate_explore_options(options);  // bad options are reported before an unknown name
  return explore(s_->graph->resolve(protein), options);
}

ExploreResult AgentPipeline::explore(int64_t root, const ExploreOptions &opt) const {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  detail::validate_explore_options(opt);
  if (!s_->retriever->graph().index_of(root))
    throw Error(ErrorCode::not_found, "explore: no node with id " + std::to_string(root) + " in the graph");
  // (the pipeline's own model, else the run's: RunControl::model or the offline default)
  LanguageModel &model = s_->model ? *s_->model : run_model(opt);
  detail::ExploreContext ctx{*s_->graph, *s_->retriever, s_->retriever->vectors(), s_->embedding_model, opt, {}, {}};
  detail::ExploreRun run;
  ExploreResult &R = run.result;
  if (s_->query_embedder) {
    auto e = s_->query_embedder->embed({opt.query});
    if (e.rows() == 1 && std::any_of(e.row(0), e.row(0) + e.dim, [](float x) { return x != 0.0f; }))
      ctx.query.assign(e.row(0), e.row(0) + e.dim);
    else
      R.notes.push_back("the query has no usable terms for " + s_->query_embedder->model() +
                        ": query similarities are unknown and the prior uses the query's words, if any");
  }
  ctx.terms = detail::content_terms(opt.query);

  R.query = opt.query;
  R.root = root;
  R.dry_run = opt.dry_run;
  R.model = model.describe();
  R.template_version = opt.templates.version;

  // Cancelling is polled between the stages (and inside the window and path searches): a
  // cancelled run returns what it has, partial, within a stage's time.
  const auto cancelled = [&] {
    if (!opt.cancel || !opt.cancel()) return false;
    R.partial = true;
    R.partial_reason = detail::kCancelled;
    R.usage.retrieve_seconds = R.usage.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    return true;
  };
  for (void (*stage)(const detail::ExploreContext &, detail::ExploreRun &) :
       {detail::retrieve_windows, detail::collect_proteins, detail::enumerate_candidates,
        detail::select_candidates, detail::collect_edges}) {
    stage(ctx, run);
    if (cancelled()) return std::move(run.result);
  }
  R.usage.retrieve_seconds = std::chrono::duration<double>(clock::now() - t0).count();
  detail::ExploreProgressReporter progress(opt.progress);
  progress("retrieve", 1, 1);

  detail::ModelCalls::Settings settings;
  settings.template_version = opt.templates.version;
  settings.use_cache = opt.use_cache;
  settings.max_calls = opt.max_calls;
  settings.max_tokens = opt.max_tokens;
  settings.concurrency = opt.concurrency;
  settings.cancel = opt.cancel;
  detail::ModelCalls calls(*s_->graph, model, settings);
  if (!opt.dry_run && opt.confirm_calls && !opt.max_calls && !calls.local()) {
    // The estimate of a dry run, over the same selection (not the candidates again).
    detail::ExploreRun plan;
    plan.result = run.result;
    plan.paths = run.paths;
    detail::plan_calls(ctx, plan, calls);
    if (plan.result.planned_calls > opt.confirm_calls)
      throw Error(ErrorCode::invalid_argument,
                  "explore: this run would make " + std::to_string(plan.result.planned_calls) + " model calls (about " +
                      std::to_string(plan.result.planned_prompt_tokens) + " prompt tokens), more than " +
                      std::to_string(opt.confirm_calls) +
                      " without asking: give --max-calls N to stop after N (a partial result, marked), --yes to make "
                      "them all, or fewer paths (--top, --explain-top, --k, --max-len); nothing was sent");
  }
  if (opt.dry_run) {
    detail::plan_calls(ctx, run, calls);
  } else {
    detail::explain_edges(ctx, run, calls, progress);
    detail::explain_paths(ctx, run, calls, progress);
    detail::rank_paths(ctx, run, calls);
  }
  detail::record_parameters(ctx, run, calls.caching());
  R.usage.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  return std::move(run.result);
}

}  // namespace grappi
