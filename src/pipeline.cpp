// The retrieve -> divide -> solve pipeline (ALGORITHMS.md §2-§3).
#include "grappi/pipeline.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "grappi/error.hpp"
#include "grappi/version.h"
#include "text_reader.hpp"
#include "text_util.hpp"

namespace grappi {

using nlohmann::json;

const ExploreProtein *ExploreResult::protein(int64_t id) const {
  auto it = std::lower_bound(proteins.begin(), proteins.end(), id,
                             [](const ExploreProtein &p, int64_t v) { return p.id < v; });
  return it != proteins.end() && it->id == id ? &*it : nullptr;
}

struct AgentPipeline::State {
  KnowledgeGraph *graph = nullptr;
  std::shared_ptr<LanguageModel> model;
  std::shared_ptr<const GraphSnapshot> snapshot;
  std::shared_ptr<const VectorIndex> vectors;
  std::shared_ptr<Embedder> query_embedder;
  std::string embedding_model;
  std::shared_ptr<const Retriever> retriever;
};


AgentPipeline::AgentPipeline(KnowledgeGraph &graph, std::shared_ptr<LanguageModel> model,
                             const std::string &embedding_model)
    : AgentPipeline(graph, std::move(model), make_retriever(graph, embedding_model), embedding_model) {}

AgentPipeline::AgentPipeline(KnowledgeGraph &graph, std::shared_ptr<LanguageModel> model,
                             std::shared_ptr<const Retriever> retriever, const std::string &embedding_model)
    : s_(new State) {
  if (!model) throw Error(ErrorCode::invalid_argument, "AgentPipeline: no language model");
  if (!retriever) throw Error(ErrorCode::invalid_argument, "AgentPipeline: no retriever");
  s_->graph = &graph;
  s_->model = std::move(model);
  s_->retriever = std::move(retriever);
  s_->snapshot = graph.snapshot();
  if (&s_->retriever->graph() != s_->snapshot.get())
    throw Error(ErrorCode::invalid_argument, "AgentPipeline: the retriever is not over the graph's current snapshot");
  if (s_->retriever->vectors()) {
    s_->embedding_model = embedding_model.empty() ? graph.default_model() : embedding_model;
    s_->vectors = graph.vectors(s_->embedding_model);
    if (s_->vectors.get() != s_->retriever->vectors())
      throw Error(ErrorCode::invalid_argument, "AgentPipeline: the retriever's vectors are not those of model '" +
                                                   s_->embedding_model + "'");
    try {
      s_->query_embedder = graph.query_embedder(s_->embedding_model);
    } catch (const Error &) {
      // A callback model cannot be re-created for the query: rank and explain without query
      // similarity (the windows still rank by the stored vectors).
      s_->query_embedder = nullptr;
    }
  }
}

AgentPipeline::~AgentPipeline() = default;

namespace {

// Runs fn(i) for i in [0, n) on up to `threads` threads.
void parallel_for(std::size_t n, std::size_t threads, const std::function<void(std::size_t)> &fn) {
  if (n == 0) return;
  threads = std::max<std::size_t>(1, std::min(threads, n));
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < n; i = next++) fn(i);
  };
  if (threads == 1) {
    work();
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto &t : pool) t.join();
}

std::string cache_key(const LanguageModel &model, const std::string &template_version, const std::string &kind,
                      const ChatRequest &req) {
  json j{{"model", model.identity()}, {"templates", template_version}, {"kind", kind}, {"json", req.json},
         {"max_tokens", req.max_tokens}};
  json msgs = json::array();
  for (const auto &m : req.messages) msgs.push_back({m.role, m.content});
  j["messages"] = std::move(msgs);
  return detail::sha256_hex(j.dump(-1, ' ', false, json::error_handler_t::replace));
}

int64_t prompt_estimate(const ChatRequest &req) {
  int64_t n = 0;
  for (const auto &m : req.messages) n += estimate_tokens(m.content) + 4;
  return n;
}

// Budget and usage shared by the workers of a run.
struct Budget {
  std::size_t max_calls = 0;
  int64_t max_tokens = 0;
  std::atomic<std::size_t> calls{0};
  std::atomic<int64_t> tokens{0};
  std::atomic<bool> exhausted{false};
  std::mutex mu;
  std::string reason;

  // Reserves one call of about `estimate` prompt tokens; false (and the reason recorded) when
  // a budget does not allow it.
  bool reserve(int64_t estimate) {
    if (max_calls) {
      std::size_t c = calls.fetch_add(1);
      if (c >= max_calls) {
        calls.fetch_sub(1);
        stop("call budget of " + std::to_string(max_calls) + " model calls exhausted");
        return false;
      }
    } else {
      calls.fetch_add(1);
    }
    if (max_tokens && tokens.load() + estimate > max_tokens) {
      calls.fetch_sub(1);
      stop("token budget of " + std::to_string(max_tokens) + " tokens exhausted");
      return false;
    }
    return true;
  }
  void stop(const std::string &why) {
    std::lock_guard<std::mutex> lock(mu);
    if (!exhausted.exchange(true)) reason = why;
  }
};

struct Call {
  bool ok = false;
  bool skipped = false;
  bool cached = false;
  ChatResponse response;
  std::string error;
};

}  // namespace

ExploreResult AgentPipeline::explore(std::string_view protein, const ExploreOptions &opt) const {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  if (opt.windows.empty()) throw Error(ErrorCode::invalid_argument, "explore: no windows requested");
  for (auto w : opt.windows)
    if (w == 0) throw Error(ErrorCode::invalid_argument, "explore: window numbers start at 1");
  if (opt.max_length == 0) throw Error(ErrorCode::invalid_argument, "explore: max_length must be at least 1");
  if (opt.top == 0) throw Error(ErrorCode::invalid_argument, "explore: top must be at least 1");
  if (opt.max_paths == 0) throw Error(ErrorCode::invalid_argument, "explore: max_paths must be at least 1");
  if (opt.max_tokens < 0) throw Error(ErrorCode::invalid_argument, "explore: max_tokens must not be negative");
  if (detail::trim_copy(opt.query).empty() || !detail::valid_utf8(opt.query))
    throw Error(ErrorCode::invalid_argument, "explore: the query is empty or not valid UTF-8");

  KnowledgeGraph &kg = *s_->graph;
  LanguageModel &model = *s_->model;
  const GraphSnapshot &g = *s_->snapshot;
  ExploreResult R;
  R.query = opt.query;
  R.root = kg.resolve(protein);
  R.dry_run = opt.dry_run;
  R.model = model.describe();
  R.template_version = opt.templates.version;
  const bool use_cache = opt.use_cache && model.cacheable();
  const bool write_cache = use_cache && !kg.read_only();

  // ---- retrieve --------------------------------------------------------------------------------
  std::vector<float> qvec;
  if (s_->query_embedder) {
    auto e = s_->query_embedder->embed({opt.query});
    if (e.rows() == 1) qvec.assign(e.row(0), e.row(0) + e.dim);
  }
  WindowOptions wopt = opt.window;
  if (wopt.query_weight > 0 && wopt.query.empty()) wopt.query = qvec;
  R.windows = s_->retriever->windows(R.root, opt.windows, wopt);

  // Proteins of every window.
  {
    std::vector<int64_t> ids;
    for (const auto &w : R.windows)
      for (const auto &n : w.nodes) ids.push_back(n.id);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    for (auto id : ids) {
      auto n = kg.node(id);
      ExploreProtein p;
      p.id = id;
      if (n) {
        p.name = n->name;
        p.external_id = n->external_id;
        p.annotation = n->annotation;
      }
      p.query_similarity = std::nan("");
      if (s_->vectors && !qvec.empty()) p.query_similarity = s_->vectors->score(qvec.data(), id);
      R.proteins.push_back(std::move(p));
    }
  }
  const auto terms = detail::content_terms(opt.query);

  // Candidate paths, distinct by node sequence across windows.
  struct Candidate {
    std::vector<int64_t> nodes, edge_ids;
    std::vector<double> scores;
    std::vector<std::size_t> windows;
    double prior = 0;
    std::size_t order = 0;
  };
  std::vector<Candidate> cands;
  std::map<std::vector<int64_t>, std::size_t> seen;
  for (const auto &w : R.windows) {
    if (cands.size() >= opt.max_paths) {
      R.candidates_truncated = true;
      break;
    }
    PathOptions po;
    po.max_length = opt.max_length;
    po.max_paths = opt.max_paths - cands.size();
    PathSet ps = s_->retriever->window_paths(w, po);
    if (ps.truncated) R.candidates_truncated = true;
    for (std::size_t i = 0; i < ps.size(); ++i) {
      Path p = ps.path(i);
      auto it = seen.find(p.nodes);
      if (it != seen.end()) {
        cands[it->second].windows.push_back(w.index);
        continue;
      }
      seen.emplace(p.nodes, cands.size());
      Candidate c;
      c.nodes = std::move(p.nodes);
      c.edge_ids = std::move(p.edges);
      c.scores = std::move(p.scores);
      c.windows = {w.index};
      c.order = cands.size();
      cands.push_back(std::move(c));
    }
  }
  // The prior: 0.5 Q + 0.5 C (see ExploreOptions::explain_top).
  for (auto &c : cands) {
    double log_sum = 0;
    for (double sc : c.scores) log_sum += std::log(std::clamp(sc, 1e-6, 1.0));
    const double conf = std::exp(log_sum / static_cast<double>(std::max<std::size_t>(1, c.scores.size())));
    double q = 0;
    if (s_->vectors && !qvec.empty()) {
      double sum = 0;
      for (std::size_t i = 1; i < c.nodes.size(); ++i) {
        const auto *p = R.protein(c.nodes[i]);
        if (p && std::isfinite(p->query_similarity)) sum += std::max(0.0, p->query_similarity);
      }
      q = sum / static_cast<double>(c.nodes.size() - 1);
    } else if (!terms.empty()) {
      std::size_t hit = 0;
      for (const auto &t : terms)
        for (std::size_t i = 1; i < c.nodes.size(); ++i) {
          const auto *p = R.protein(c.nodes[i]);
          if (p && detail::text_has_term(p->name + " " + p->annotation, t)) {
            ++hit;
            break;
          }
        }
      q = static_cast<double>(hit) / static_cast<double>(terms.size());
    }
    c.prior = 0.5 * q + 0.5 * conf;
  }
  R.usage.candidate_paths = cands.size();

  // Selection (--explain-top): best priors, ties by fewer edges then discovery order.
  std::vector<std::size_t> sel(cands.size());
  for (std::size_t i = 0; i < sel.size(); ++i) sel[i] = i;
  if (opt.explain_top > 0 && opt.explain_top < cands.size()) {
    std::stable_sort(sel.begin(), sel.end(), [&](std::size_t a, std::size_t b) {
      if (cands[a].prior != cands[b].prior) return cands[a].prior > cands[b].prior;
      return cands[a].nodes.size() < cands[b].nodes.size();
    });
    sel.resize(opt.explain_top);
    std::sort(sel.begin(), sel.end());  // back to discovery order
  }
  R.usage.selected_paths = sel.size();

  // Distinct edges of the selected paths, oriented as first used.
  std::map<int64_t, std::size_t> edge_index;
  std::vector<ExplainedPath> paths;
  paths.reserve(sel.size());
  for (auto ci : sel) {
    const auto &c = cands[ci];
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
        auto full = kg.edge(e.edge);
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
    paths.push_back(std::move(p));
  }
  R.usage.distinct_edges = R.edges.size();
  R.usage.retrieve_seconds = std::chrono::duration<double>(clock::now() - t0).count();

  std::mutex progress_mu;
  auto report = [&](const char *stage, std::size_t done, std::size_t total) {
    if (!opt.progress) return;
    std::lock_guard<std::mutex> lock(progress_mu);
    opt.progress(ExploreProgress{stage, done, total});
  };
  report("retrieve", 1, 1);

  auto name_of = [&](int64_t id) -> std::string {
    const auto *p = R.protein(id);
    return p ? p->name : std::to_string(id);
  };
  auto annotation_of = [&](int64_t id) -> std::string {
    const auto *p = R.protein(id);
    return p && !p->annotation.empty() ? p->annotation : "(no annotation)";
  };
  auto protein_json = [&](int64_t id) {
    const auto *p = R.protein(id);
    json j{{"name", name_of(id)}, {"annotation", p ? p->annotation : std::string()}};
    j["query_similarity"] = p && std::isfinite(p->query_similarity) ? json(p->query_similarity) : json(nullptr);
    return j;
  };

  // ---- divide: edge requests -------------------------------------------------------------------
  const std::string &system = opt.templates.system;
  auto edge_request = [&](const ExplainedEdge &e) {
    std::string channels = detail::channel_list(e.channels, " ", ", "), pmids;
    json ch = json::object();
    for (const auto &c : e.channels)
      if (c.score > 0) ch[c.name] = c.score;  // a channel without evidence says nothing
    if (channels.empty()) channels = "(combined score only)";
    for (std::size_t i = 0; i < e.pmids.size() && i < 20; ++i)
      pmids += (pmids.empty() ? "" : ", ") + std::to_string(e.pmids[i]);
    if (pmids.empty()) pmids = "(none recorded)";
    std::map<std::string, std::string> vars{
        {"query", opt.query},
        {"source", name_of(e.source)},
        {"target", name_of(e.target)},
        {"source_annotation", annotation_of(e.source)},
        {"target_annotation", annotation_of(e.target)},
        {"relation", e.relation},
        {"direction", e.directed ? "directed" : "undirected"},
        {"score", detail::fixed(e.score, 3)},
        {"channels", channels},
        {"pmids", pmids},
        {"evidence", e.evidence.empty() ? std::string() : "Evidence: " + e.evidence}};
    ChatRequest r;
    if (!system.empty()) r.messages.push_back({"system", system});
    r.messages.push_back({"user", PromptTemplates::render(opt.templates.edge, vars)});
    r.json = false;
    r.max_tokens = opt.edge_max_tokens;
    json pm = json::array();
    for (auto id : e.pmids) pm.push_back(id);
    r.task = json{{"kind", "edge"},      {"query", opt.query},     {"source", protein_json(e.source)},
                  {"target", protein_json(e.target)}, {"relation", e.relation}, {"directed", e.directed},
                  {"score", e.score},    {"channels", ch},         {"pmids", pm}};
    return r;
  };
  auto path_request = [&](const ExplainedPath &p) {
    std::string chain, plist, expl;
    json prot = json::array(), eds = json::array();
    for (std::size_t i = 0; i < p.nodes.size(); ++i) {
      chain += (i ? " -> " : "") + name_of(p.nodes[i]);
      plist += "- " + name_of(p.nodes[i]) + ": " + annotation_of(p.nodes[i]) + "\n";
      prot.push_back(protein_json(p.nodes[i]));
    }
    for (std::size_t k = 0; k < p.edges.size(); ++k) {
      const auto &e = R.edges[p.edges[k]];
      const std::string a = name_of(p.nodes[k]), b = name_of(p.nodes[k + 1]);
      std::string text = e.status == "ok" ? e.explanation
                         : e.status == "pending" ? std::string(160, '.')  // dry-run stand-in
                                                 : "(no explanation: " + e.error + ")";
      expl += std::to_string(k + 1) + ". " + a + " -> " + b + " (score " + detail::fixed(e.score, 3) + "): " + text + "\n";
      eds.push_back({{"source", a}, {"target", b}, {"score", e.score}, {"relation", e.relation},
                     {"explanation", e.status == "ok" ? json(e.explanation) : json(nullptr)}});
    }
    if (!plist.empty()) plist.pop_back();
    if (!expl.empty()) expl.pop_back();
    std::map<std::string, std::string> vars{{"query", opt.query},
                                            {"path", chain},
                                            {"length", std::to_string(p.edges.size())},
                                            {"proteins", plist},
                                            {"edge_explanations", expl}};
    ChatRequest r;
    if (!system.empty()) r.messages.push_back({"system", system});
    r.messages.push_back({"user", PromptTemplates::render(opt.templates.path, vars)});
    r.json = true;
    r.max_tokens = opt.path_max_tokens;
    r.task = json{{"kind", "path"}, {"query", opt.query}, {"proteins", prot}, {"edges", eds}};
    return r;
  };

  std::vector<ChatRequest> ereq(R.edges.size());
  std::vector<std::string> ekey(R.edges.size());
  std::vector<std::optional<CachedResponse>> ehit(R.edges.size());
  for (std::size_t i = 0; i < R.edges.size(); ++i) {
    ereq[i] = edge_request(R.edges[i]);
    if (use_cache) {
      ekey[i] = cache_key(model, opt.templates.version, "edge", ereq[i]);
      ehit[i] = kg.cached_response(ekey[i]);
    }
  }

  Budget budget;
  budget.max_calls = opt.max_calls;
  budget.max_tokens = opt.max_tokens;
  std::mutex cache_mu;
  std::vector<CachedResponse> to_store;

  auto run_call = [&](const ChatRequest &req, StageUsage &stage,
                      std::mutex &stage_mu) {
    Call c;
    if (!budget.reserve(prompt_estimate(req))) {
      c.skipped = true;
      std::lock_guard<std::mutex> lock(budget.mu);
      c.error = budget.reason;
      return c;
    }
    try {
      c.response = model.chat(req);
      c.ok = true;
    } catch (const std::exception &e) {
      c.error = e.what();
    }
    budget.tokens += c.response.prompt_tokens + c.response.completion_tokens;
    {
      std::lock_guard<std::mutex> lock(stage_mu);
      ++stage.model_calls;
      stage.prompt_tokens += c.response.prompt_tokens;
      stage.completion_tokens += c.response.completion_tokens;
    }
    return c;
  };
  auto remember = [&](const std::string &key, const char *kind, const ChatResponse &resp) {
    if (!write_cache || key.empty()) return;
    CachedResponse cr;
    cr.key = key;
    cr.model = model.identity();
    cr.template_version = opt.templates.version;
    cr.kind = kind;
    cr.content = resp.content;
    cr.finish_reason = resp.finish_reason;
    cr.prompt_tokens = resp.prompt_tokens;
    cr.completion_tokens = resp.completion_tokens;
    std::lock_guard<std::mutex> lock(cache_mu);
    to_store.push_back(std::move(cr));
  };
  auto flush_cache = [&] {
    if (to_store.empty()) return;
    kg.cache_responses(to_store);
    to_store.clear();
  };

  // ---- dry run ------------------------------------------------------------------------------
  if (opt.dry_run) {
    for (std::size_t i = 0; i < R.edges.size(); ++i) {
      if (ehit[i]) {
        auto a = parse_edge_answer(ehit[i]->content);
        if (a.ok) {
          R.edges[i].status = "ok";
          R.edges[i].explanation = a.explanation;
          R.edges[i].cached = true;
          ++R.usage.edges.cache_hits;
          continue;
        }
      }
      ++R.planned_calls;
      R.planned_prompt_tokens += prompt_estimate(ereq[i]);
    }
    for (auto &p : paths) {
      bool edges_known = true;
      for (auto k : p.edges) edges_known = edges_known && R.edges[k].status == "ok";
      ChatRequest req = path_request(p);
      if (edges_known && use_cache) {
        auto hit = kg.cached_response(cache_key(model, opt.templates.version, "path", req));
        if (hit && parse_path_answer(hit->content).ok) {
          ++R.usage.paths.cache_hits;
          continue;
        }
      }
      ++R.planned_calls;
      R.planned_prompt_tokens += prompt_estimate(req);
    }
    R.usage.cache_hits = R.usage.edges.cache_hits + R.usage.paths.cache_hits;
  } else {
    // ---- solve: edges ------------------------------------------------------------------------
    const std::size_t threads = model.max_concurrency() ? std::min(opt.concurrency, model.max_concurrency()) : opt.concurrency;
    const auto te = clock::now();
    std::mutex stage_mu;
    std::atomic<std::size_t> done{0};
    parallel_for(R.edges.size(), std::max<std::size_t>(1, threads), [&](std::size_t i) {
      ExplainedEdge &e = R.edges[i];
      if (ehit[i]) {
        auto a = parse_edge_answer(ehit[i]->content);
        if (a.ok) {
          e.status = "ok";
          e.explanation = a.explanation;
          e.cached = true;
          std::lock_guard<std::mutex> lock(stage_mu);
          ++R.usage.edges.cache_hits;
        }
      }
      if (!e.cached) {
        Call c = run_call(ereq[i], R.usage.edges, stage_mu);
        if (c.skipped) {
          e.status = "skipped";
          e.error = c.error;
        } else if (!c.ok) {
          e.status = "failed";
          e.error = c.error;
        } else {
          auto a = parse_edge_answer(c.response.content);
          if (a.ok) {
            e.status = "ok";
            e.explanation = a.explanation;
            remember(ekey[i], "edge", c.response);
          } else {
            e.status = "failed";
            e.error = a.error;
          }
        }
      }
      report("edges", ++done, R.edges.size());
    });
    if (write_cache) flush_cache();
    for (const auto &e : R.edges) {
      if (e.status == "ok") ++R.usage.edges_explained;
      if (e.status == "failed") ++R.usage.edges_failed;
      if (e.status == "skipped") ++R.usage.edges.skipped;
    }
    R.usage.edges.failed = R.usage.edges_failed;
    R.usage.edges.seconds = std::chrono::duration<double>(clock::now() - te).count();

    // ---- solve: paths ------------------------------------------------------------------------
    const auto tp = clock::now();
    done = 0;
    parallel_for(paths.size(), std::max<std::size_t>(1, threads), [&](std::size_t i) {
      ExplainedPath &p = paths[i];
      ChatRequest req = path_request(p);
      std::string key = use_cache ? cache_key(model, opt.templates.version, "path", req) : std::string();
      if (use_cache) {
        auto hit = kg.cached_response(key);
        if (hit) {
          auto a = parse_path_answer(hit->content);
          if (a.ok) {
            p.status = "ok";
            p.cached = true;
            p.explanation = a.explanation;
            p.relevance_score = a.relevance_score;
            p.clamped = a.clamped;
            std::lock_guard<std::mutex> lock(stage_mu);
            ++R.usage.paths.cache_hits;
          }
        }
      }
      if (!p.cached) {
        Call c = run_call(req, R.usage.paths, stage_mu);
        if (c.skipped) {
          p.status = "skipped";
          p.error = c.error;
        } else if (!c.ok) {
          p.status = "failed";
          p.error = c.error;
        } else {
          auto a = parse_path_answer(c.response.content);
          if (!a.ok && c.response.finish_reason == "length") a.error += " (the answer was cut at max_tokens)";
          if (!a.ok && opt.repair) {
            ChatRequest fix = req;
            fix.messages.push_back({"assistant", c.response.content});
            fix.messages.push_back({"user", PromptTemplates::render(opt.templates.repair, {{"error", a.error}})});
            fix.task["repair_of"] = a.error;
            Call c2 = run_call(fix, R.usage.paths, stage_mu);
            {
              std::lock_guard<std::mutex> lock(stage_mu);
              if (!c2.skipped) ++R.usage.paths.repairs;
            }
            if (c2.ok) {
              auto a2 = parse_path_answer(c2.response.content);
              if (a2.ok) {
                a = a2;
                c.response = c2.response;
              } else {
                a.error += "; after a repair turn: " + a2.error;
              }
            } else {
              a.error += "; repair turn: " + c2.error;
            }
          }
          if (a.ok) {
            p.status = "ok";
            p.explanation = a.explanation;
            p.relevance_score = a.relevance_score;
            p.clamped = a.clamped;
            // The answer that parsed is stored under the original request's key.
            remember(key, "path", c.response);
          } else {
            p.status = "failed";
            p.error = a.error;
          }
        }
      }
      report("paths", ++done, paths.size());
    });
    if (write_cache) flush_cache();
    R.usage.paths.seconds = std::chrono::duration<double>(clock::now() - tp).count();

    // ---- re-rank -------------------------------------------------------------------------------
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
    std::stable_sort(ok.begin(), ok.end(), [&](std::size_t a, std::size_t b) {
      const auto &x = paths[a], &y = paths[b];
      if (x.relevance_score != y.relevance_score) return x.relevance_score > y.relevance_score;
      if (x.edges.size() != y.edges.size()) return x.edges.size() < y.edges.size();
      return x.prior > y.prior;
    });
    for (std::size_t r = 0; r < ok.size() && r < opt.top; ++r) {
      paths[ok[r]].rank = r + 1;
      R.paths.push_back(paths[ok[r]]);
    }
    for (auto &p : paths)
      if (p.status != "ok") R.failed.push_back(std::move(p));
    R.partial = budget.exhausted.load();
    R.partial_reason = budget.reason;
    R.usage.model_calls = R.usage.edges.model_calls + R.usage.paths.model_calls;
    R.usage.cache_hits = R.usage.edges.cache_hits + R.usage.paths.cache_hits;
    R.usage.prompt_tokens = R.usage.edges.prompt_tokens + R.usage.paths.prompt_tokens;
    R.usage.completion_tokens = R.usage.edges.completion_tokens + R.usage.paths.completion_tokens;
  }

  // ---- parameters and provenance ----------------------------------------------------------------
  json k = json::array();
  for (auto v : opt.window.k) k.push_back(v);
  R.parameters = json{{"windows", opt.windows},
                      {"k", k},
                      {"depth", opt.window.depth},
                      {"min_score", opt.window.filter.min_score},
                      {"relations", opt.window.filter.relations},
                      {"query_weight", opt.window.query_weight},
                      {"score_weight", opt.window.score_weight},
                      {"max_length", opt.max_length},
                      {"max_paths", opt.max_paths},
                      {"top", opt.top},
                      {"explain_top", opt.explain_top},
                      {"concurrency", opt.concurrency},
                      {"max_calls", opt.max_calls},
                      {"max_tokens", opt.max_tokens},
                      {"cache", use_cache},
                      {"repair", opt.repair}};
  json ds = json::array();
  for (const auto &d : kg.datasets())
    ds.push_back({{"id", d.id},
                  {"name", d.name},
                  {"format", d.format},
                  {"sha256", d.sha256},
                  {"string_version", d.string_version},
                  {"taxon", d.taxon},
                  {"imported_at", d.imported_at}});
  R.provenance = json{{"grappi_version", GRAPPI_VERSION_STRING},
                      {"database", kg.path()},
                      {"generation", g.generation()},
                      {"datasets", ds},
                      {"ranking", s_->vectors ? "embedding similarity (" + s_->embedding_model + ")"
                                              : std::string("edge score (no embeddings in the database)")}};
  R.provenance["embedding_model"] = s_->vectors ? json(s_->embedding_model) : json(nullptr);
  R.usage.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  return R;
}

}  // namespace grappi
