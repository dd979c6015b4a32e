// The stages of AgentPipeline::explore (explore_stages.hpp).
#include "agents/explore/explore_stages.hpp"
#include "analysis/annotations.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>

#include "grappi/error.hpp"
#include "grappi/version.h"
#include "agents/explore/explore_offline.hpp"
#include "common/parallel.hpp"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"

namespace grappi::detail {

using nlohmann::json;

void ExploreProgressReporter::operator()(const char *stage, std::size_t done, std::size_t total) {
  if (!fn_) return;
  std::lock_guard<std::mutex> lock(mu_);
  fn_(stage, done, total);
}

void validate_explore_options(const ExploreOptions &opt) {
  if (opt.windows.empty()) throw Error(ErrorCode::invalid_argument, "explore: no windows requested");
  for (auto w : opt.windows)
    if (w == 0) throw Error(ErrorCode::invalid_argument, "explore: window numbers start at 1");
  if (opt.max_length == 0 || opt.max_length > 12)
    throw Error(ErrorCode::invalid_argument, "explore: max_length must be 1 to 12 edges, not " + std::to_string(opt.max_length));
  if (opt.top == 0) throw Error(ErrorCode::invalid_argument, "explore: top must be at least 1");
  if (opt.max_paths == 0 || opt.max_paths > 1000000)
    throw Error(ErrorCode::invalid_argument, "explore: max_paths must be 1 to 1000000, not " + std::to_string(opt.max_paths));
  if (opt.max_visited == 0) throw Error(ErrorCode::invalid_argument, "explore: max_visited must be at least 1");
  if (!(opt.diversity >= 0 && opt.diversity <= 1))
    throw Error(ErrorCode::invalid_argument, "explore: diversity must be between 0 and 1");
  if (opt.max_tokens < 0) throw Error(ErrorCode::invalid_argument, "explore: max_tokens must not be negative");
  if (trim_copy(opt.query).empty() || !valid_utf8(opt.query))
    throw Error(ErrorCode::invalid_argument, "explore: the query is empty or not valid UTF-8");
}

// Each window's enriched terms (its proteins: the nodes that are no ontology term), the lowest FDR first.
void window_terms(const ExploreContext &ctx, ExploreRun &run) {
  run.result.window_terms.assign(run.result.windows.size(), {});
  if (ctx.options.window_terms == 0 || detail::annotations(ctx.kg)->row_node.empty()) return;
  const auto snapshot = ctx.kg.snapshot();
  EnrichmentOptions eo;
  eo.max_fdr = 0.05;
  for (std::size_t i = 0; i < run.result.windows.size(); ++i) {
    std::vector<int64_t> proteins;
    for (const WindowNode &n : run.result.windows[i].nodes)
      if (const auto ix = snapshot->index_of(n.id); ix && snapshot->label(*ix) != "OntologyTerm") proteins.push_back(n.id);
    if (proteins.size() < 2) continue;
    run.result.window_terms[i] = enrich(ctx.kg, proteins, eo).terms;
    detail::keep_lowest_fdr(run.result.window_terms[i], ctx.options.window_terms);
  }
}

// The windows' proteins clustered by Leiden (modularity, seed 42), each cluster's first enriched term.
void window_clusters(const ExploreContext &ctx, ExploreRun &run) {
  if (!ctx.options.clusters) return;
  const auto snapshot = ctx.kg.snapshot();
  std::vector<int64_t> proteins;
  for (const Window &w : run.result.windows)
    for (const WindowNode &n : w.nodes)
      if (const auto ix = snapshot->index_of(n.id); ix && snapshot->label(*ix) != "OntologyTerm") proteins.push_back(n.id);
  std::sort(proteins.begin(), proteins.end());
  proteins.erase(std::unique(proteins.begin(), proteins.end()), proteins.end());
  if (proteins.size() < 3) return;
  ClusterOptions o;
  o.method = ClusterMethod::leiden_modularity;
  o.min_score = ctx.options.window.filter.min_score > 0 ? ctx.options.window.filter.min_score : 0.4;
  o.relations = ctx.options.window.filter.relations;
  o.terms = 1;
  try {
    ClusteringResult r = cluster(ctx.kg, proteins, o);
    run.result.clusters = std::move(r.clusters);
  } catch (const Error &e) {
    // (relations the windows name that the network lacks, say: the report is drawn without clusters)
    if (e.code() != ErrorCode::invalid_argument) throw;
    run.result.notes.push_back(std::string("no clusters: ") + e.what());
  }
}

void retrieve_windows(const ExploreContext &ctx, ExploreRun &run) {
  WindowOptions w = ctx.options.window;
  if (w.query_weight > 0 && w.query.empty()) w.query = ctx.query;
  w.cancel = ctx.options.cancel;
  // A few windows at a time (each batch in parallel), so a cancel is seen between batches.
  const std::vector<std::size_t> &all = ctx.options.windows;
  constexpr std::size_t kBatch = 4;
  for (std::size_t b = 0; b < all.size(); b += kBatch) {
    if (b > 0 && ctx.options.cancel && ctx.options.cancel()) break;
    const std::vector<std::size_t> batch(all.begin() + static_cast<std::ptrdiff_t>(b),
                                         all.begin() + static_cast<std::ptrdiff_t>(std::min(all.size(), b + kBatch)));
    for (Window &win : ctx.retriever.windows(run.result.root, batch, w)) run.result.windows.push_back(std::move(win));
  }
  for (const auto &win : run.result.windows)
    if (!win.note.empty()) run.result.notes.push_back("window " + std::to_string(win.index) + ": " + win.note);
  window_terms(ctx, run);
  window_clusters(ctx, run);
}

void collect_proteins(const ExploreContext &ctx, ExploreRun &run) {
  std::vector<int64_t> ids;
  for (const auto &w : run.result.windows)
    for (const auto &n : w.nodes) ids.push_back(n.id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (auto id : ids) {
    ExploreProtein p;
    p.id = id;
    if (auto n = ctx.kg.node(id)) {
      p.name = n->name;
      p.external_id = n->external_id;
      p.annotation = n->annotation;
    }
    p.query_similarity = std::nan("");
    if (ctx.vectors && !ctx.query.empty()) p.query_similarity = ctx.vectors->score(ctx.query.data(), id);
    run.result.proteins.push_back(std::move(p));
  }
}

void collect_edges(const ExploreContext &ctx, ExploreRun &run) {
  ExploreResult &R = run.result;
  std::map<int64_t, std::size_t> edge_index;
  run.paths.reserve(run.selected.size());
  for (auto ci : run.selected) {
    const auto &c = run.candidates[ci];
    ExplainedPath p;
    p.nodes = c.nodes;
    p.windows = c.windows;
    p.prior = c.prior;
    for (std::size_t k = 0; k < c.edge_ids.size(); ++k) {
      auto [it, fresh] = edge_index.emplace(c.edge_ids[k], R.edges.size());
      if (fresh) {
        ExplainedEdge e;
        e.edge = c.edge_ids[k];
        e.score = c.scores[k];
        auto full = ctx.kg.edge(e.edge);
        if (full) {
          e.relation = full->relation;
          e.directed = full->directed;
          e.score = full->score;
          e.channels = full->channels;
          e.pmids = full->pmids;
          e.evidence = full->evidence;
        }
        if (e.directed && full) {
          e.source = full->source;
          e.target = full->target;
        } else {
          e.source = c.nodes[k];
          e.target = c.nodes[k + 1];
        }
        R.edges.push_back(std::move(e));
      }
      p.edges.push_back(it->second);
    }
    run.paths.push_back(std::move(p));
  }
  R.usage.distinct_edges = R.edges.size();
}

// ---- requests ------------------------------------------------------------------------------------

namespace {

std::string name_of(const ExploreResult &r, int64_t id) {
  const auto *p = r.protein(id);
  return p ? p->name : std::to_string(id);
}

std::string annotation_of(const ExploreResult &r, int64_t id) {
  const auto *p = r.protein(id);
  return p && !p->annotation.empty() ? p->annotation : "(no annotation)";
}

json protein_json(const ExploreResult &r, int64_t id) {
  const auto *p = r.protein(id);
  json j{{"name", name_of(r, id)}, {"annotation", p ? p->annotation : std::string()}};
  j["query_similarity"] = p && std::isfinite(p->query_similarity) ? json(p->query_similarity) : json(nullptr);
  return j;
}

ChatRequest request(const ExploreOptions &opt, const std::string &prompt, bool want_json, int max_tokens, json task) {
  return chat_request(opt.templates.system, prompt, want_json, max_tokens, std::move(task), offline_explore_answer);
}

}  // namespace

ChatRequest edge_request(const ExploreContext &ctx, const ExploreResult &R, const ExplainedEdge &e) {
  const ExploreOptions &opt = ctx.options;
  std::string channels = channel_list(e.channels, " ", ", "), pmids;
  json ch = json::object();
  for (const auto &c : e.channels)
    if (c.score > 0) ch[c.name] = c.score;  // a channel without evidence says nothing
  if (channels.empty()) channels = "(combined score only)";
  for (std::size_t i = 0; i < e.pmids.size() && i < 20; ++i) pmids += (pmids.empty() ? "" : ", ") + std::to_string(e.pmids[i]);
  if (pmids.empty()) pmids = "(none recorded)";
  const std::map<std::string, std::string> vars{{"query", opt.query},
                                                {"source", name_of(R, e.source)},
                                                {"target", name_of(R, e.target)},
                                                {"source_annotation", annotation_of(R, e.source)},
                                                {"target_annotation", annotation_of(R, e.target)},
                                                {"relation", e.relation},
                                                {"direction", e.directed ? "directed" : "undirected"},
                                                {"score", fixed(e.score, 3)},
                                                {"channels", channels},
                                                {"pmids", pmids},
                                                {"evidence", e.evidence.empty() ? std::string() : "Evidence: " + e.evidence}};
  json task{{"kind", "edge"},
            {"query", opt.query},
            {"source", protein_json(R, e.source)},
            {"target", protein_json(R, e.target)},
            {"relation", e.relation},
            {"directed", e.directed},
            {"score", e.score},
            {"channels", ch},
            {"pmids", e.pmids}};
  return request(opt, PromptTemplates::render(opt.templates.edge, vars), false, opt.edge_max_tokens, std::move(task));
}

ChatRequest path_request(const ExploreContext &ctx, const ExploreResult &R, const ExplainedPath &p) {
  const ExploreOptions &opt = ctx.options;
  std::string chain, plist, expl;
  json prot = json::array(), eds = json::array();
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {
    chain += (i ? " -> " : "") + name_of(R, p.nodes[i]);
    plist += "- " + name_of(R, p.nodes[i]) + ": " + annotation_of(R, p.nodes[i]) + "\n";
    prot.push_back(protein_json(R, p.nodes[i]));
  }
  for (std::size_t k = 0; k < p.edges.size(); ++k) {
    const auto &e = R.edges[p.edges[k]];
    const std::string a = name_of(R, p.nodes[k]), b = name_of(R, p.nodes[k + 1]);
    const std::string text = e.status == "ok"        ? e.explanation
                             : e.status == "pending" ? std::string(160, '.')  // dry-run stand-in
                                                     : "(no explanation: " + e.error + ")";
    expl += std::to_string(k + 1) + ". " + a + " -> " + b + " (score " + fixed(e.score, 3) + "): " + text + "\n";
    eds.push_back({{"source", a}, {"target", b}, {"score", e.score}, {"relation", e.relation},
                   {"explanation", e.status == "ok" ? json(e.explanation) : json(nullptr)}});
  }
  if (!plist.empty()) plist.pop_back();
  if (!expl.empty()) expl.pop_back();
  const std::map<std::string, std::string> vars{{"query", opt.query},
                                                {"path", chain},
                                                {"length", std::to_string(p.edges.size())},
                                                {"proteins", plist},
                                                {"edge_explanations", expl}};
  json task{{"kind", "path"}, {"query", opt.query}, {"proteins", prot}, {"edges", eds}};
  return request(opt, PromptTemplates::render(opt.templates.path, vars), true, opt.path_max_tokens, std::move(task));
}

// ---- model calls ---------------------------------------------------------------------------------

void plan_calls(const ExploreContext &ctx, ExploreRun &run, ModelCalls &calls) {
  ExploreResult &R = run.result;
  if (calls.local()) return;  // nothing would be sent
  for (auto &e : R.edges) {
    const ChatRequest req = edge_request(ctx, R, e);
    if (auto hit = calls.cached<EdgeAnswer>("edge", req, parse_edge_answer)) {
      e.status = "ok";
      e.explanation = hit->explanation;
      e.cached = true;
      ++R.usage.edges.cache_hits;
      continue;
    }
    ++R.planned_calls;
    R.planned_prompt_tokens += ModelCalls::estimate(req);
  }
  for (auto &p : run.paths) {
    bool edges_known = true;
    for (auto k : p.edges) edges_known = edges_known && R.edges[k].status == "ok";
    const ChatRequest req = path_request(ctx, R, p);
    if (edges_known && calls.cached<PathAnswer>("path", req, parse_path_answer)) {
      ++R.usage.paths.cache_hits;
      continue;
    }
    ++R.planned_calls;
    R.planned_prompt_tokens += ModelCalls::estimate(req);
  }
  R.usage.cache_hits = R.usage.edges.cache_hits + R.usage.paths.cache_hits;
}

void explain_edges(const ExploreContext &ctx, ExploreRun &run, ModelCalls &calls, ExploreProgressReporter &progress) {
  ExploreResult &R = run.result;
  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<std::size_t> done{0};
  parallel_for(R.edges.size(), calls.threads(), [&](std::size_t i) {
    ExplainedEdge &e = R.edges[i];
    if (calls.cancelled()) {  // (before the request is made: a cancel is seen within an item's time)
      e.status = "skipped";
      e.error = kCancelled;
      return;
    }
    auto a = calls.ask<EdgeAnswer>("edge", edge_request(ctx, R, e), parse_edge_answer, R.usage.edges);
    e.status = a.status;
    e.cached = a.cached;
    e.error = a.error;
    if (a.status == "ok") e.explanation = a.answer.explanation;
    progress("edges", ++done, R.edges.size());
  });
  calls.flush();
  for (const auto &e : R.edges) {
    if (e.status == "ok") ++R.usage.edges_explained;
    if (e.status == "failed") ++R.usage.edges_failed;
    if (e.status == "skipped") ++R.usage.edges.skipped;
  }
  R.usage.edges.failed = R.usage.edges_failed;
  R.usage.edges.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void explain_paths(const ExploreContext &ctx, ExploreRun &run, ModelCalls &calls, ExploreProgressReporter &progress) {
  ExploreResult &R = run.result;
  const ExploreOptions &opt = ctx.options;
  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<std::size_t> done{0};
  const std::string repair = opt.repair ? opt.templates.repair : std::string();
  parallel_for(run.paths.size(), calls.threads(), [&](std::size_t i) {
    ExplainedPath &p = run.paths[i];
    if (calls.cancelled()) {
      p.status = "skipped";
      p.error = kCancelled;
      return;
    }
    auto a = calls.ask<PathAnswer>("path", path_request(ctx, R, p), parse_path_answer, R.usage.paths, repair);
    p.status = a.status;
    p.cached = a.cached;
    p.error = a.error;
    if (a.status == "ok") {
      p.explanation = a.answer.explanation;
      p.relevance_score = a.answer.relevance_score;
      p.clamped = a.answer.clamped;
    }
    progress("paths", ++done, run.paths.size());
  });
  calls.flush();
  R.usage.paths.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

namespace {

// The proteins of a path after the initial one, sorted and distinct.
std::vector<int64_t> protein_set(const ExplainedPath &p) {
  std::vector<int64_t> s(p.nodes.begin() + (p.nodes.empty() ? 0 : 1), p.nodes.end());
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

double jaccard(const std::vector<int64_t> &a, const std::vector<int64_t> &b) {
  std::size_t common = 0;
  for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) {
      ++common;
      ++i;
      ++j;
    } else if (a[i] < b[j]) {
      ++i;
    } else {
      ++j;
    }
  }
  const std::size_t all = a.size() + b.size() - common;
  return all ? static_cast<double>(common) / static_cast<double>(all) : 1.0;
}

}  // namespace

std::vector<std::size_t> diverse_top(const std::vector<ExplainedPath> &paths, const std::vector<std::size_t> &ranked,
                                     std::size_t top, double diversity, std::size_t &folded) {
  folded = 0;
  if (diversity <= 0) return std::vector<std::size_t>(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(std::min(top, ranked.size())));
  // One ordering per protein set: the best-ranked one.
  std::vector<std::size_t> pool;
  std::vector<std::vector<int64_t>> sets;
  std::map<std::vector<int64_t>, bool> seen;
  for (auto i : ranked) {
    auto set = protein_set(paths[i]);
    if (!seen.emplace(set, true).second) {
      ++folded;
      continue;
    }
    pool.push_back(i);
    sets.push_back(std::move(set));
  }
  // Maximal marginal relevance over the rest, in ranking order on equal values.
  std::vector<std::size_t> out;
  std::vector<double> max_sim(pool.size(), 0.0);
  std::vector<char> taken(pool.size(), 0);
  while (out.size() < top && out.size() < pool.size()) {
    std::size_t best = pool.size();
    double best_value = 0;
    for (std::size_t k = 0; k < pool.size(); ++k) {
      if (taken[k]) continue;
      const double value = (1 - diversity) * paths[pool[k]].relevance_score / 100.0 - diversity * max_sim[k];
      if (best == pool.size() || value > best_value) {
        best = k;
        best_value = value;
      }
    }
    taken[best] = 1;
    out.push_back(pool[best]);
    for (std::size_t k = 0; k < pool.size(); ++k)
      if (!taken[k]) max_sim[k] = std::max(max_sim[k], jaccard(sets[k], sets[best]));
  }
  // Shown in ranking order: diversity decides which paths are in the top n, not their order.
  std::vector<std::size_t> position(paths.size());
  for (std::size_t r = 0; r < ranked.size(); ++r) position[ranked[r]] = r;
  std::sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) { return position[a] < position[b]; });
  return out;
}

void rank_paths(const ExploreContext &ctx, ExploreRun &run, const ModelCalls &calls) {
  ExploreResult &R = run.result;
  auto &paths = run.paths;
  std::vector<std::size_t> ok;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (paths[i].status == "ok") {
      ok.push_back(i);
      ++R.usage.paths_explained;
    } else {
      if (paths[i].status == "failed") ++R.usage.paths_failed;
      if (paths[i].status == "skipped") ++R.usage.paths.skipped;
    }
  }
  R.usage.paths.failed = R.usage.paths_failed;
  // paths are in candidate order, so the stable sort breaks the last ties by it.
  std::stable_sort(ok.begin(), ok.end(), [&](std::size_t a, std::size_t b) {
    const auto &x = paths[a], &y = paths[b];
    if (x.relevance_score != y.relevance_score) return x.relevance_score > y.relevance_score;
    if (x.edges.size() != y.edges.size()) return x.edges.size() < y.edges.size();
    return x.prior > y.prior;
  });
  const auto top = diverse_top(paths, ok, ctx.options.top, ctx.options.diversity, R.usage.orderings_folded);
  for (std::size_t r = 0; r < top.size(); ++r) {
    paths[top[r]].rank = r + 1;
    R.paths.push_back(paths[top[r]]);
  }
  for (auto &p : paths)
    if (p.status != "ok") R.failed.push_back(std::move(p));
  R.partial = calls.exhausted();
  R.partial_reason = calls.reason();
  auto &u = R.usage;
  u.model_calls = u.edges.model_calls + u.paths.model_calls;
  u.extractive_answers = u.edges.local_answers + u.paths.local_answers;
  u.cache_hits = u.edges.cache_hits + u.paths.cache_hits;
  u.prompt_tokens = u.edges.prompt_tokens + u.paths.prompt_tokens;
  u.completion_tokens = u.edges.completion_tokens + u.paths.completion_tokens;
}

// ---- parameters and provenance ---------------------------------------------------------------------

json provenance(const KnowledgeGraph &kg, const GraphSnapshot &graph, const std::string &embedding_model) {
  json ds = json::array();
  for (const auto &d : kg.datasets())
    ds.push_back({{"id", d.id},
                  {"name", d.name},
                  {"format", d.format},
                  {"sha256", d.sha256},
                  {"string_version", d.string_version},
                  {"taxon", d.taxon},
                  {"imported_at", d.imported_at}});
  json p{{"grappi_version", GRAPPI_VERSION_STRING},
         {"database", kg.path()},
         {"generation", graph.generation()},
         {"datasets", ds},
         {"ranking", !embedding_model.empty() ? "embedding similarity (" + embedding_model + ")"
                                              : std::string("edge score (no embeddings in the database)")}};
  p["embedding_model"] = embedding_model.empty() ? json(nullptr) : json(embedding_model);
  return p;
}

void record_parameters(const ExploreContext &ctx, ExploreRun &run, bool cache) {
  const ExploreOptions &opt = ctx.options;
  run.result.parameters = json{{"windows", opt.windows},
                               {"k", opt.window.k},
                               {"depth", opt.window.depth},
                               {"min_score", opt.window.filter.min_score},
                               {"relations", opt.window.filter.relations},
                               {"query_weight", opt.window.query_weight},
                               {"score_weight", opt.window.score_weight},
                               {"max_length", opt.max_length},
                               {"max_paths", opt.max_paths},
                               {"max_visited", opt.max_visited},
                               {"diversity", opt.diversity},
                               {"top", opt.top},
                               {"explain_top", opt.explain_top},
                               {"explain_budget", opt.explain_budget},
                               {"concurrency", opt.concurrency},
                               {"max_calls", opt.max_calls},
                               {"max_tokens", opt.max_tokens},
                               {"cache", cache},
                               {"repair", opt.repair}};
  run.result.provenance = provenance(ctx.kg, ctx.graph(), ctx.vectors ? ctx.embedding_model : std::string());
}

}  // namespace grappi::detail
