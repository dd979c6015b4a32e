// Relation grounding by ontology traversal (grappi/grounding.hpp): the relation summary over
// the text's chunks, the walk that scores the terms under the root, and the pick among the
// best-scored terms, each through ModelCalls (response cache, budgets, failures recorded).
#include "grappi/grounding.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cmath>
#include <deque>
#include <map>
#include <mutex>
#include <random>

#include "common/answer_json.hpp"
#include "grappi/error.hpp"
#include "grappi/graph_embeddings.hpp"
#include "grappi/ontology.hpp"
#include "grappi/retriever.hpp"
#include "agents/ground/grounding_offline.hpp"
#include "common/grounding_text.hpp"
#include "models/model_calls.hpp"
#include "common/parallel.hpp"
#include "common/text_util.hpp"
#include "common/visibility.hpp"
#include "grappi/json_text.hpp"

namespace grappi {

using nlohmann::json;

namespace {

constexpr GroundingStrategy kStrategies[] = {GroundingStrategy::bfs,      GroundingStrategy::dfs,
                                             GroundingStrategy::dynamic,  GroundingStrategy::pagerank,
                                             GroundingStrategy::random,   GroundingStrategy::rag,
                                             GroundingStrategy::stuff};

struct Term {
  int64_t node = 0;
  std::string id, name, definition;
  std::vector<std::string> synonyms;
  std::vector<uint32_t> children;  // indices, by external id
  double pagerank = 0;
};

// ---- answers ---------------------------------------------------------------------------------

struct SummaryAnswer {
  bool ok = false;
  std::string error, summary;
  std::vector<std::string> quotes;
};

struct ScoreAnswer {
  bool ok = false;
  std::string error;
  std::map<std::string, int> scores;              // by term id, 1-5
  std::map<std::string, std::string> problems;    // by term id: why it has no score
};

struct PickAnswer {
  bool ok = false;
  std::string error, term;
  std::optional<int> confidence;
};

// An integer 1-5 from a JSON number or numeric string; nullopt with the reason otherwise.
std::optional<int> one_to_five(const json &v, std::string &why) {
  double x = 0;
  if (v.is_number()) {
    x = v.get<double>();
  } else if (v.is_string()) {
    const std::string s = detail::trim_copy(v.get<std::string>());
    char *end = nullptr;
    x = std::strtod(s.c_str(), &end);
    if (s.empty() || end == s.c_str() || !detail::trim_copy(end).empty() || !std::isfinite(x)) {
      why = "not a number: \"" + s.substr(0, 40) + "\"";
      return std::nullopt;
    }
  } else {
    why = "not a number";
    return std::nullopt;
  }
  if (!(x >= 1 && x <= 5)) {
    why = "out of the range 1-5: " + detail::fixed(x, 2);
    return std::nullopt;
  }
  return static_cast<int>(std::lround(x));
}

SummaryAnswer parse_summary(std::string_view text) {
  SummaryAnswer a;
  json j;
  if (!detail::json_object_in(text, j, a.error)) return a;
  const json *s = nullptr;
  for (const char *k : {"summary", "relation_summary", "text"})
    if (j.contains(k) && j[k].is_string()) s = &j[k];
  if (!s || detail::trim_copy(s->get<std::string>()).empty()) {
    a.error = "missing or empty field \"summary\"";
    return a;
  }
  a.summary = detail::trim_copy(s->get<std::string>());
  for (const char *k : {"quotes", "evidence"})
    if (j.contains(k) && j[k].is_array())
      for (const auto &q : j[k])
        if (q.is_string() && !detail::trim_copy(q.get<std::string>()).empty()) a.quotes.push_back(q.get<std::string>());
  a.ok = true;
  return a;
}

ScoreAnswer parse_scores(std::string_view text, const std::vector<std::string> &ids) {
  ScoreAnswer a;
  json j;
  if (!detail::json_object_in(text, j, a.error)) return a;
  // {"scores": {"MI:0407": 4}}, {"scores": [{"term": "MI:0407", "score": 4}]}, {"MI:0407": 4},
  // and for one term {"score": 4}.
  std::map<std::string, const json *> given;
  const json *scores = j.contains("scores") ? &j["scores"] : &j;
  if (scores->is_object()) {
    for (auto it = scores->begin(); it != scores->end(); ++it) given[it.key()] = &it.value();
  } else if (scores->is_array()) {
    for (const auto &e : *scores)
      if (e.is_object() && e.contains("score"))
        for (const char *k : {"term", "id", "term_id"})
          if (e.contains(k) && e[k].is_string()) given[e[k].get<std::string>()] = &e["score"];
  }
  if (ids.size() == 1 && !given.count(ids[0]) && j.contains("score")) given[ids[0]] = &j["score"];
  for (const std::string &id : ids) {
    auto it = given.find(id);
    if (it == given.end()) {
      a.problems[id] = "the answer has no score for " + id;
      continue;
    }
    std::string why;
    if (auto v = one_to_five(*it->second, why)) a.scores[id] = *v;
    else a.problems[id] = "the score of " + id + " is " + why;
  }
  if (a.scores.empty()) {
    a.error = a.problems.empty() ? "no scores" : a.problems.begin()->second;
    if (a.problems.size() > 1) a.error += " (and " + std::to_string(a.problems.size() - 1) + " more)";
    return a;
  }
  a.ok = true;
  return a;
}

PickAnswer parse_pick(std::string_view text, const std::vector<std::string> &ids) {
  PickAnswer a;
  json j;
  if (!detail::json_object_in(text, j, a.error)) return a;
  const json *t = nullptr;
  for (const char *k : {"term", "id", "term_id", "choice"})
    if (j.contains(k) && j[k].is_string()) t = &j[k];
  if (!t) {
    a.error = "missing field \"term\"";
    return a;
  }
  std::string id = detail::trim_copy(t->get<std::string>());
  // "MI:0407 direct interaction" or "MI:0407 (direct interaction)": the id it starts with.
  for (const std::string &c : ids)
    if (id.size() > c.size() && id.compare(0, c.size(), c) == 0 && !std::isalnum(static_cast<unsigned char>(id[c.size()])))
      id = c;
  if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
    a.error = "the chosen term '" + id.substr(0, 60) + "' is not one of the best-scored terms";
    return a;
  }
  a.term = id;
  if (j.contains("confidence")) {
    std::string why;
    a.confidence = one_to_five(j["confidence"], why);
  }
  a.ok = true;
  return a;
}

std::string term_block(const Term &t) {
  std::string s = t.id + " " + t.name;
  if (!t.definition.empty()) s += "\n  Definition: " + t.definition;
  if (!t.synonyms.empty()) {
    s += "\n  Synonyms: ";
    for (std::size_t i = 0; i < t.synonyms.size(); ++i) s += (i ? "; " : "") + t.synonyms[i];
  }
  return s;
}

std::string term_text(const Term &t) {
  std::string s = t.name + ". " + t.definition;
  for (const auto &y : t.synonyms) s += ". " + y;
  return s;
}

// OBO definitions come quoted with their references: "text" [PMID:1].
std::string definition_of(const std::string &annotation) {
  std::string d = detail::trim_copy(annotation);
  if (d.size() >= 2 && d.front() == '"') {
    const auto close = d.rfind('"');
    if (close > 0) d = d.substr(1, close - 1);
  }
  return d;
}

// Names of a protein to look for in the text: the name given and, when it resolves to one
// node, its preferred name and its name-like aliases (no ids, no database accessions).
std::vector<std::string> names_of(const KnowledgeGraph &kg, const std::string &given) {
  std::vector<std::string> names = {given};
  const ResolveResult r = kg.lookup(given, 0);
  if (r.status != ResolveResult::Status::found) return names;
  const int64_t id = r.id;
  names.push_back(r.candidates.at(0).name);
  for (const auto &[alias, source] : kg.aliases(id)) {
    (void)source;
    if (detail::name_like_alias(alias)) names.push_back(alias);
  }
  return names;
}

// Answer lengths the requests allow: a summary can be no longer than this, which bounds the
// dry run's estimate of the prompts that carry it.
constexpr int kSummaryTokens = 700;
constexpr int kPickTokens = 100;

void timed(StageUsage &u, std::chrono::steady_clock::time_point t0) {
  u.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

const char *to_string(GroundingStrategy s) noexcept {
  switch (s) {
    case GroundingStrategy::bfs: return "bfs";
    case GroundingStrategy::dfs: return "dfs";
    case GroundingStrategy::dynamic: return "dynamic";
    case GroundingStrategy::pagerank: return "pagerank";
    case GroundingStrategy::random: return "random";
    case GroundingStrategy::rag: return "rag";
    case GroundingStrategy::stuff: return "stuff";
  }
  return "?";
}

GroundingStrategy grounding_strategy(std::string_view name) {
  for (GroundingStrategy s : kStrategies)
    if (name == to_string(s)) return s;
  throw Error(ErrorCode::invalid_argument, "unknown grounding strategy '" + std::string(name) +
                                               "' (known: bfs, dfs, dynamic, pagerank, random, rag, stuff)");
}

std::vector<GroundingStrategy> all_grounding_strategies() { return {std::begin(kStrategies), std::end(kStrategies)}; }

// ---- the Grounder ----------------------------------------------------------------------------

struct GRAPPI_HIDDEN Grounder::Impl {
  KnowledgeGraph &kg;
  LanguageModel &model;
  GroundingOptions opt;
  std::vector<Term> terms;  // terms[0] is the root
  std::vector<uint32_t> by_pagerank;
  std::unique_ptr<detail::TermSimilarity> similarity;

  Impl(KnowledgeGraph &g, LanguageModel &m, GroundingOptions o) : kg(g), model(m), opt(std::move(o)) {}

  void load();
  GroundingResult run(std::string_view text, const std::string &a, const std::string &b, GroundingStrategy s) const;

  // Stages.
  void summarise(detail::ModelCalls &calls, std::string_view text, const std::vector<std::pair<std::size_t, std::size_t>> &chunks,
                 GroundingResult &r) const;
  void traverse(detail::ModelCalls &calls, const std::vector<double> &sim, GroundingResult &r) const;
  void pick(detail::ModelCalls &calls, const std::vector<double> &sim, GroundingResult &r) const;
  void plan(std::string_view text, const std::vector<std::pair<std::size_t, std::size_t>> &chunks, GroundingResult &r) const;
  // The dry run's count of calls for one text and strategy (no token estimate).
  std::size_t most_calls(std::string_view text, GroundingStrategy s) const;
  // Error(invalid_argument) when opt.confirm_calls applies and the jobs could exceed it.
  void confirm(const std::vector<GroundingJob> &jobs, const std::vector<GroundingStrategy> &strategies) const;

  ChatRequest request(const std::string &user, int max_tokens, json task) const {
    return detail::chat_request(opt.templates.system, user, true, max_tokens, std::move(task),
                                detail::offline_grounding_answer);
  }
  std::string terms_text(const std::vector<uint32_t> &batch) const {
    std::string s;
    for (uint32_t k : batch) s += (s.empty() ? "" : "\n\n") + term_block(terms[k]);
    return s;
  }
  json term_facts(const std::vector<uint32_t> &batch, const std::vector<double> &sim) const {
    // The similarity of the summary to the term's text, and relative to the most similar term
    // of the subtree (what the offline model scores by).
    const double top = sim.empty() ? 0.0 : *std::max_element(sim.begin(), sim.end());
    json out = json::array();
    for (uint32_t k : batch)
      out.push_back({{"id", terms[k].id}, {"name", terms[k].name}, {"definition", terms[k].definition},
                     {"synonyms", terms[k].synonyms}, {"similarity", sim[k]},
                     {"relative_similarity", top > 0 ? sim[k] / top : 0.0}});
    return out;
  }
  // The cache key of one term's score given the summary: shared by every strategy and batch.
  std::string score_key(const GroundingResult &r, const Term &t) const {
    return detail::sha256_hex(json{{"model", model.identity()}, {"templates", opt.templates.version}, {"kind", "ground.term"},
                                   {"a", r.protein_a}, {"b", r.protein_b}, {"summary", r.summary}, {"term", t.id}}
                                  .dump(-1, ' ', false, json::error_handler_t::replace));
  }
};

void Grounder::Impl::load() {
  if (opt.batch == 0) throw Error(ErrorCode::invalid_argument, "grounding: batch must be at least 1");
  if (opt.chunk_size == 0) throw Error(ErrorCode::invalid_argument, "grounding: chunk size must be at least 1");
  if (opt.chunk_overlap >= opt.chunk_size)
    throw Error(ErrorCode::invalid_argument, "grounding: the chunk overlap (" + std::to_string(opt.chunk_overlap) +
                                                 ") must be smaller than the chunk size (" + std::to_string(opt.chunk_size) + ")");
  if (opt.threshold < 1 || opt.threshold > 5) throw Error(ErrorCode::invalid_argument, "grounding: the threshold must be 1-5");
  if (opt.rag_k == 0) throw Error(ErrorCode::invalid_argument, "grounding: rag_k must be at least 1");
  const ResolveResult r = kg.lookup(opt.root, 0);
  if (r.status == ResolveResult::Status::not_found)
    throw Error(ErrorCode::not_found, "grounding: the root '" + opt.root + "' is not in the database (import the ontology first)");
  if (r.status == ResolveResult::Status::ambiguous)
    throw Error(ErrorCode::invalid_argument, "grounding: the root '" + opt.root + "' names several nodes; give its id");
  const Node root = *kg.node(r.id);
  if (root.label != "OntologyTerm")
    throw Error(ErrorCode::invalid_argument, "grounding: the root '" + opt.root + "' is a " + root.label + ", not an ontology term");
  if (!opt.ontology.empty()) {
    const json a = json::parse(root.attributes, nullptr, false);
    const std::string of = a.is_object() && a.contains("ontology") && a["ontology"].is_string() ? a["ontology"].get<std::string>() : "";
    if (!detail::iequals(of, opt.ontology))
      throw Error(ErrorCode::invalid_argument, "grounding: the root " + root.external_id + " is a term of '" + of +
                                                   "', not of the ontology '" + opt.ontology + "'");
  }
  OntologyOptions oo;
  oo.relations = opt.relations;
  const Ontology onto(kg.snapshot(), oo);
  std::vector<int64_t> ids = {root.id};
  for (const TermDistance &d : onto.descendants(root.id)) ids.push_back(d.id);
  std::map<int64_t, uint32_t> index;
  for (int64_t id : ids) {
    const auto n = kg.node(id);
    if (!n || n->label != "OntologyTerm") continue;
    const json a = json::parse(n->attributes, nullptr, false);
    if (a.is_object() && a.value("is_obsolete", false)) continue;  // never scored
    Term t;
    t.node = id;
    t.id = n->external_id;
    t.name = n->name;
    t.definition = definition_of(n->annotation);
    if (a.is_object() && a.contains("synonyms") && a["synonyms"].is_array())
      for (const auto &y : a["synonyms"])
        if (y.is_object() && y.contains("text") && y["text"].is_string()) t.synonyms.push_back(y["text"].get<std::string>());
    index.emplace(id, static_cast<uint32_t>(terms.size()));
    terms.push_back(std::move(t));
  }
  if (terms.empty() || terms[0].node != root.id)
    throw Error(ErrorCode::invalid_argument, "grounding: the root '" + opt.root + "' is obsolete");
  for (Term &t : terms) {
    for (int64_t c : onto.children(t.node))
      if (auto it = index.find(c); it != index.end()) t.children.push_back(it->second);
    std::sort(t.children.begin(), t.children.end(), [&](uint32_t x, uint32_t y) { return terms[x].id < terms[y].id; });
  }
  // PageRank of the ontology graph (child -> parent edges, unweighted), restarting within the
  // subtree; the order is by descending rank, ties by id.
  PageRankOptions po;
  po.filter.relations = opt.relations;
  po.weighted = false;
  po.threads = 1;
  for (const Term &t : terms) po.seeds.push_back(t.node);
  const auto retriever = grappi::graph_retriever(kg);
  const PageRankResult pr = retriever->pagerank(po);
  const GraphSnapshot &g = retriever->graph();
  for (Term &t : terms)
    if (auto i = g.index_of(t.node)) t.pagerank = pr.rank[*i];
  by_pagerank.resize(terms.size());
  for (uint32_t k = 0; k < terms.size(); ++k) by_pagerank[k] = k;
  // Ranks are compared to 12 decimals (equal up to the last bits of a sum is a tie), ties by id.
  const auto key = [&](uint32_t k) { return std::llround(terms[k].pagerank * 1e12); };
  std::sort(by_pagerank.begin(), by_pagerank.end(), [&](uint32_t x, uint32_t y) {
    if (key(x) != key(y)) return key(x) > key(y);
    return terms[x].id < terms[y].id;
  });
  std::vector<std::string> docs;
  for (const Term &t : terms) docs.push_back(term_text(t));
  similarity = std::make_unique<detail::TermSimilarity>(docs);
}

void Grounder::Impl::summarise(detail::ModelCalls &calls, std::string_view text,
                               const std::vector<std::pair<std::size_t, std::size_t>> &chunks, GroundingResult &r) const {
  const auto t0 = std::chrono::steady_clock::now();
  std::string summary;
  std::vector<std::string> quotes, errors;
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    const std::string chunk(text.substr(chunks[k].first, chunks[k].second - chunks[k].first));
    std::map<std::string, std::string> vars = {{"protein_a", r.protein_a}, {"protein_b", r.protein_b}, {"chunk", chunk},
                                               {"part", std::to_string(k + 1)}, {"parts", std::to_string(chunks.size())}};
    const bool refine = !summary.empty();
    if (refine) vars["summary"] = summary;
    json task = {{"kind", "ground.summary"}, {"protein_a", r.protein_a}, {"protein_b", r.protein_b},
                 {"names_a", r.names_a}, {"names_b", r.names_b}, {"chunk", chunk}, {"summary", summary},
                 {"part", k + 1}, {"parts", chunks.size()}};
    const ChatRequest q = request(PromptTemplates::render(refine ? opt.templates.refine : opt.templates.summary, vars), kSummaryTokens,
                                  std::move(task));
    auto got = calls.ask<SummaryAnswer>("ground.summary", q, parse_summary, r.summary_usage, opt.templates.repair);
    if (got.status != "ok") {
      errors.push_back("part " + std::to_string(k + 1) + ": " + got.error);
      if (got.status == "skipped") break;
      continue;
    }
    summary = got.answer.summary;
    for (auto &qt : got.answer.quotes)
      if (std::find(quotes.begin(), quotes.end(), qt) == quotes.end()) quotes.push_back(std::move(qt));
  }
  r.summary = summary;
  r.summary_status = summary.empty() ? "failed" : "ok";
  for (std::size_t i = 0; i < errors.size(); ++i) r.summary_error += (i ? "; " : "") + errors[i];
  for (const std::string &q : quotes) {
    GroundingQuote g;
    g.text = q;
    if (auto at = detail::find_quote(text, q)) {
      g.in_text = true;
      g.offset = *at;
    }
    r.quotes.push_back(std::move(g));
  }
  timed(r.summary_usage, t0);
}

void Grounder::Impl::traverse(detail::ModelCalls &calls, const std::vector<double> &sim, GroundingResult &r) const {
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t n = terms.size();
  const GroundingStrategy s = r.strategy;
  std::vector<char> seen(n, 0);
  std::deque<uint32_t> pending;  // bfs, dynamic: a queue; dfs: a stack (front is the top)
  std::vector<uint32_t> order;   // pagerank, random, rag, stuff: the fixed order
  std::size_t pos = 0;
  if (s == GroundingStrategy::bfs || s == GroundingStrategy::dfs || s == GroundingStrategy::dynamic) {
    pending.push_back(0);
    seen[0] = 1;
  } else if (s == GroundingStrategy::pagerank) {
    order = by_pagerank;
  } else if (s == GroundingStrategy::random) {
    order.resize(n);
    for (uint32_t k = 0; k < n; ++k) order[k] = k;
    std::mt19937_64 rng(opt.seed);
    for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng() % i]);  // Fisher-Yates
  } else {
    order.resize(n);
    for (uint32_t k = 0; k < n; ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
      if (s == GroundingStrategy::rag && sim[x] != sim[y]) return sim[x] > sim[y];
      return terms[x].id < terms[y].id;
    });
    if (s == GroundingStrategy::rag && order.size() > opt.rag_k) order.resize(opt.rag_k);
  }
  const bool patient = opt.patience > 0 && (s == GroundingStrategy::bfs || s == GroundingStrategy::dfs ||
                                            s == GroundingStrategy::random || s == GroundingStrategy::pagerank);
  const std::size_t batch = s == GroundingStrategy::stuff ? std::max<std::size_t>(1, order.size()) : opt.batch;
  int best = 0;
  std::size_t since_best = 0, lookahead_left = 0;
  bool in_lookahead = false;
  std::string stop;
  const bool walked = s == GroundingStrategy::bfs || s == GroundingStrategy::dfs || s == GroundingStrategy::dynamic;
  auto next = [&]() -> std::optional<uint32_t> {
    if (!walked) {
      if (pos < order.size()) return order[pos++];
      return std::nullopt;
    }
    if (pending.empty()) return std::nullopt;
    const uint32_t k = pending.front();
    pending.pop_front();
    return k;
  };
  auto expand = [&](uint32_t k, const std::optional<int> &score) {
    // dynamic: the root is where the walk starts, not a choice to judge; below it a term's
    // children are visited only when it scored the threshold.
    if (s == GroundingStrategy::dynamic && k != 0 && !(score && *score >= opt.threshold)) return;
    if (s == GroundingStrategy::bfs || s == GroundingStrategy::dynamic) {
      for (uint32_t c : terms[k].children)
        if (!seen[c]) seen[c] = 1, pending.push_back(c);
    } else if (s == GroundingStrategy::dfs) {
      for (auto it = terms[k].children.rbegin(); it != terms[k].children.rend(); ++it)
        if (!seen[*it]) seen[*it] = 1, pending.push_front(*it);
    }
  };
  while (stop.empty()) {
    // The next batch: terms whose score is cached are taken at once; the others asked together.
    std::vector<uint32_t> ask;
    // A batch never runs past the point where the patience or the look-ahead is judged.
    std::size_t room = in_lookahead ? std::min(batch, lookahead_left) : batch;
    if (patient && !in_lookahead) room = std::min(room, opt.patience - std::min(opt.patience, since_best));
    room = std::max<std::size_t>(room, 1);
    std::vector<uint32_t> taken;
    while (taken.size() < room) {
      const auto k = next();
      if (!k) break;
      taken.push_back(*k);
    }
    if (taken.empty()) {
      stop = s == GroundingStrategy::dynamic ? "the queue is empty (no term scored " + std::to_string(opt.threshold) +
                                                   " or more has children left to visit)"
             : s == GroundingStrategy::rag   ? "the " + std::to_string(order.size()) + " terms most similar to the summary were visited"
                                             : "every term was visited";
      break;
    }
    std::map<uint32_t, GroundingVisit> visit;
    for (uint32_t k : taken) {
      GroundingVisit v;
      v.term = terms[k].node;
      v.id = terms[k].id;
      v.name = terms[k].name;
      v.lookahead = in_lookahead;
      if (auto hit = calls.cached_text(score_key(r, terms[k]))) {
        std::string why;
        const json j = json::parse(*hit, nullptr, false);
        if (j.is_object() && j.contains("score"))
          if (auto sc = one_to_five(j["score"], why)) {
            v.score = sc;
            v.status = "cached";
            ++r.traversal_usage.cache_hits;
          }
      }
      if (!v.score) ask.push_back(k);
      visit.emplace(k, std::move(v));
    }
    if (!ask.empty()) {
      std::vector<std::string> ids;
      for (uint32_t k : ask) ids.push_back(terms[k].id);
      const std::map<std::string, std::string> vars = {
          {"protein_a", r.protein_a}, {"protein_b", r.protein_b}, {"summary", r.summary}, {"terms", terms_text(ask)}};
      json task = {{"kind", "ground.score"}, {"protein_a", r.protein_a}, {"protein_b", r.protein_b},
                   {"summary", r.summary}, {"terms", term_facts(ask, sim)}};
      const ChatRequest q = request(PromptTemplates::render(opt.templates.score, vars),
                                    static_cast<int>(40 + 16 * ask.size()), std::move(task));
      auto answer = calls.ask<ScoreAnswer>(
          "ground.score", q, [&ids](std::string_view t) { return parse_scores(t, ids); }, r.traversal_usage,
          opt.templates.repair);
      for (uint32_t k : ask) {
        GroundingVisit &v = visit[k];
        if (answer.status != "ok") {
          v.status = answer.status;
          v.error = answer.error;
          ++(answer.status == "skipped" ? r.traversal_usage.skipped : r.traversal_usage.failed);
          continue;
        }
        auto it = answer.answer.scores.find(terms[k].id);
        if (it == answer.answer.scores.end()) {
          v.status = "failed";
          v.error = answer.answer.problems.count(terms[k].id) ? answer.answer.problems.at(terms[k].id) : "no score";
          ++r.traversal_usage.failed;
          continue;
        }
        v.score = it->second;
        v.status = answer.cached ? "cached" : "ok";
        calls.remember_text(score_key(r, terms[k]), "ground.term", dump_json(json{{"score", it->second}}));
      }
    }
    for (uint32_t k : taken) {
      GroundingVisit &v = visit[k];
      if (v.score) {
        if (*v.score > best) {
          best = *v.score;
          since_best = 0;
          if (in_lookahead) in_lookahead = false;  // the look-ahead found better: walk on
        } else {
          ++since_best;
          if (in_lookahead && lookahead_left > 0) --lookahead_left;
        }
      }
      expand(k, v.score);
      r.visits.push_back(std::move(v));
    }
    if (calls.exhausted()) {
      stop = "budget: " + calls.reason();
      break;
    }
    if (patient) {
      if (in_lookahead && lookahead_left == 0) {
        stop = "no better score in the last " + std::to_string(opt.patience) + " evaluations nor in a " +
               std::to_string(opt.lookahead) + "-term look-ahead";
      } else if (!in_lookahead && since_best >= opt.patience && best > 0) {
        if (opt.lookahead == 0) stop = "no better score in the last " + std::to_string(opt.patience) + " evaluations";
        in_lookahead = opt.lookahead > 0;
        lookahead_left = opt.lookahead;
      }
    }
    if (s == GroundingStrategy::stuff && stop.empty()) stop = "every term in one request";
  }
  r.stop_reason = stop;
  r.best_score = best;
  for (const GroundingVisit &v : r.visits)
    if (v.score && *v.score == best && best > 0 && std::find(r.tied.begin(), r.tied.end(), v.id) == r.tied.end())
      r.tied.push_back(v.id);
  timed(r.traversal_usage, t0);
}

void Grounder::Impl::pick(detail::ModelCalls &calls, const std::vector<double> &sim, GroundingResult &r) const {
  const auto t0 = std::chrono::steady_clock::now();
  if (r.tied.empty()) {
    r.pick_status = "none";
    r.pick_error = "no term was scored";
    timed(r.pick_usage, t0);
    return;
  }
  std::vector<uint32_t> cand;
  for (const std::string &id : r.tied)
    for (uint32_t k = 0; k < terms.size(); ++k)
      if (terms[k].id == id) cand.push_back(k);
  const auto visit_of = [&](const std::string &id) {
    for (const GroundingVisit &v : r.visits)
      if (v.id == id && v.score) return v;
    return GroundingVisit{};
  };
  const std::map<std::string, std::string> vars = {
      {"protein_a", r.protein_a}, {"protein_b", r.protein_b}, {"summary", r.summary}, {"terms", terms_text(cand)}};
  json facts = term_facts(cand, sim);
  for (auto &f : facts) f["score"] = r.best_score;
  json task = {{"kind", "ground.pick"}, {"protein_a", r.protein_a}, {"protein_b", r.protein_b}, {"summary", r.summary},
               {"terms", std::move(facts)}};
  const ChatRequest q = request(PromptTemplates::render(opt.templates.pick, vars), kPickTokens, std::move(task));
  auto answer = calls.ask<PickAnswer>(
      "ground.pick", q, [ids = r.tied](std::string_view t) { return parse_pick(t, ids); }, r.pick_usage,
      opt.templates.repair);
  if (answer.status == "ok") {
    r.term = visit_of(answer.answer.term);
    r.confidence = answer.answer.confidence;
    r.pick_status = answer.cached ? "cached" : "ok";
  } else {
    // The answer is still a live term under the root: the first best-scored one visited.
    r.term = visit_of(r.tied.front());
    r.pick_status = "fallback";
    r.pick_error = answer.error;
    ++r.pick_usage.failed;
  }
  timed(r.pick_usage, t0);
}

void Grounder::Impl::plan(std::string_view text, const std::vector<std::pair<std::size_t, std::size_t>> &chunks,
                          GroundingResult &r) const {
  // Every chunk summarised, every term the strategy could score, one pick; the prompts that
  // carry the summary are estimated with the longest summary the request allows.
  const std::string longest_summary(static_cast<std::size_t>(kSummaryTokens) * 4, 'x');
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    const std::string chunk(text.substr(chunks[k].first, chunks[k].second - chunks[k].first));
    std::map<std::string, std::string> vars = {{"protein_a", r.protein_a}, {"protein_b", r.protein_b}, {"chunk", chunk},
                                               {"part", std::to_string(k + 1)}, {"parts", std::to_string(chunks.size())}};
    if (k) vars["summary"] = longest_summary;
    r.estimated_prompt_tokens +=
        detail::ModelCalls::estimate(request(PromptTemplates::render(k ? opt.templates.refine : opt.templates.summary, vars), 0, {}));
  }
  std::vector<uint32_t> all(terms.size());
  for (uint32_t k = 0; k < terms.size(); ++k) all[k] = k;
  if (r.strategy == GroundingStrategy::rag && all.size() > opt.rag_k) all.resize(opt.rag_k);
  const std::size_t batch = r.strategy == GroundingStrategy::stuff ? std::max<std::size_t>(1, all.size()) : opt.batch;
  for (std::size_t i = 0; i < all.size(); i += batch) {
    const std::vector<uint32_t> part(all.begin() + static_cast<std::ptrdiff_t>(i),
                                     all.begin() + static_cast<std::ptrdiff_t>(std::min(all.size(), i + batch)));
    const std::map<std::string, std::string> vars = {
        {"protein_a", r.protein_a}, {"protein_b", r.protein_b}, {"summary", longest_summary}, {"terms", terms_text(part)}};
    r.estimated_prompt_tokens += detail::ModelCalls::estimate(request(PromptTemplates::render(opt.templates.score, vars), 0, {}));
  }
  const std::map<std::string, std::string> vars = {
      {"protein_a", r.protein_a}, {"protein_b", r.protein_b}, {"summary", longest_summary}, {"terms", terms_text({0})}};
  r.estimated_prompt_tokens += detail::ModelCalls::estimate(request(PromptTemplates::render(opt.templates.pick, vars), 0, {}));
  r.estimated_calls = most_calls(text, r.strategy);  // (the count confirm() sums)
  r.stop_reason = "dry run: no model call";
  r.summary_status = "skipped";
  r.pick_status = "skipped";
}

std::size_t Grounder::Impl::most_calls(std::string_view text, GroundingStrategy s) const {
  // As plan() counts them: every chunk, every term the strategy could score, one pick.
  std::size_t scored = terms.size();
  if (s == GroundingStrategy::rag) scored = std::min(scored, opt.rag_k);
  const std::size_t batch = s == GroundingStrategy::stuff ? std::max<std::size_t>(1, scored) : std::max<std::size_t>(1, opt.batch);
  return detail::chunk_ranges(text, opt.chunk_size, opt.chunk_overlap).size() + (scored + batch - 1) / batch + 1;
}

void Grounder::Impl::confirm(const std::vector<GroundingJob> &jobs, const std::vector<GroundingStrategy> &strategies) const {
  if (opt.dry_run || !opt.confirm_calls) return;
  std::size_t calls = 0;
  for (const GroundingJob &j : jobs)
    for (GroundingStrategy s : strategies) calls += most_calls(j.text, s);
  detail::confirm_calls("ground", calls, opt.confirm_calls, opt.max_calls, model,
                        std::to_string(jobs.size()) + " pair(s) x " + std::to_string(strategies.size()) +
                            " strategy(ies), each at most every chunk, every term under the root and a pick",
                        "fewer pairs or strategies");
}

GroundingResult Grounder::Impl::run(std::string_view text, const std::string &a, const std::string &b,
                                    GroundingStrategy s) const {
  if (detail::trim_copy(a).empty() || detail::trim_copy(b).empty())
    throw Error(ErrorCode::invalid_argument, "grounding: both proteins must be named");
  if (detail::trim_copy(text).empty()) throw Error(ErrorCode::invalid_argument, "grounding: the text is empty");
  GroundingResult r;
  r.protein_a = detail::trim_copy(a);
  r.protein_b = detail::trim_copy(b);
  r.names_a = detail::MentionFinder(names_of(kg, r.protein_a)).names();
  r.names_b = detail::MentionFinder(names_of(kg, r.protein_b)).names();
  r.strategy = s;
  r.root = terms[0].id;
  r.candidates = terms.size();
  r.offline = model.local();
  r.model = model.describe();
  r.template_version = opt.templates.version;
  const auto chunks = detail::chunk_ranges(text, opt.chunk_size, opt.chunk_overlap);
  r.chunks = chunks.size();
  if (opt.dry_run) {
    r.dry_run = true;
    plan(text, chunks, r);
    return r;
  }
  detail::ModelCalls calls(kg, model, {opt.templates.version, opt.use_cache, opt.max_calls, opt.max_tokens, 1, opt.cancel});
  summarise(calls, text, chunks, r);
  if (r.summary_status != "ok") {
    r.stop_reason = "no relation summary: " + r.summary_error;
    r.pick_status = "none";
    calls.flush();
    return r;
  }
  std::string_view about = r.summary;  // the offline model's label is not evidence
  if (about.rfind(detail::kOfflineSummaryPrefix, 0) == 0) about.remove_prefix(std::strlen(detail::kOfflineSummaryPrefix));
  const std::vector<double> sim = similarity->similarity(about);
  traverse(calls, sim, r);
  pick(calls, sim, r);
  calls.flush();
  return r;
}

Grounder::Grounder(KnowledgeGraph &kg, LanguageModel &model, GroundingOptions options)
    : impl_(std::make_unique<Impl>(kg, model, std::move(options))) {
  impl_->load();
}

Grounder::~Grounder() = default;

void Grounder::check_names(std::string_view text, const std::string &a, const std::string &b) const {
  for (const std::string &name : {a, b}) {
    if (detail::MentionFinder({name}).mentioned_in(text)) continue;
    const ResolveResult r = impl_->kg.lookup(name, 5);
    if (r.status != ResolveResult::Status::not_found) continue;
    throw Error(ErrorCode::not_found, "ground: '" + name + "' is neither a protein of the database nor written in the text" +
                                          detail::did_you_mean(r.suggestions));
  }
}

GroundingResult Grounder::ground(std::string_view text, const std::string &a, const std::string &b) const {
  check_names(text, a, b);
  impl_->confirm({{text, a, b}}, {impl_->opt.strategy});
  return impl_->run(text, a, b, impl_->opt.strategy);
}

GroundingResult Grounder::ground(std::string_view text, const std::string &a, const std::string &b,
                                 GroundingStrategy strategy) const {
  check_names(text, a, b);
  impl_->confirm({{text, a, b}}, {strategy});
  return impl_->run(text, a, b, strategy);
}

std::vector<std::vector<GroundingResult>> Grounder::ground(const std::vector<GroundingJob> &jobs,
                                                           const std::vector<GroundingStrategy> &strategies,
                                                           std::size_t concurrency) const {
  impl_->confirm(jobs, strategies);
  std::vector<std::vector<GroundingResult>> out(jobs.size());
  std::mutex progress_mu;
  std::size_t done = 0;
  detail::parallel_for(jobs.size(), std::clamp<std::size_t>(concurrency, 1, detail::ModelCalls::kMaxConcurrency), [&](std::size_t i) {
    for (GroundingStrategy s : strategies) out[i].push_back(impl_->run(jobs[i].text, jobs[i].protein_a, jobs[i].protein_b, s));
    if (!impl_->opt.progress) return;
    std::lock_guard<std::mutex> lock(progress_mu);
    impl_->opt.progress("pairs", ++done, jobs.size());
  });
  return out;
}

std::size_t Grounder::terms() const { return impl_->terms.size(); }

const GroundingOptions &Grounder::options() const { return impl_->opt; }

KnowledgeGraph &Grounder::graph() const { return impl_->kg; }

GroundingResult ground(KnowledgeGraph &kg, LanguageModel &model, std::string_view text, const std::string &a,
                       const std::string &b, const GroundingOptions &options) {
  return Grounder(kg, model, options).ground(text, a, b);
}

namespace {

json visit_json(const GroundingVisit &v) {
  json j = {{"id", v.id}, {"name", v.name}, {"node", v.term}, {"status", v.status}};
  j["score"] = v.score ? json(*v.score) : json(nullptr);
  if (!v.error.empty()) j["error"] = v.error;
  if (v.lookahead) j["lookahead"] = true;
  return j;
}

}  // namespace

json to_json(const GroundingResult &r) {
  json j;
  j["protein_a"] = r.protein_a;
  j["protein_b"] = r.protein_b;
  j["names_a"] = r.names_a;
  j["names_b"] = r.names_b;
  j["strategy"] = to_string(r.strategy);
  j["root"] = r.root;
  j["candidates"] = r.candidates;
  if (r.term) {
    j["term"] = {{"id", r.term->id}, {"name", r.term->name}, {"node", r.term->term}};
  } else {
    j["term"] = nullptr;
  }
  j["score"] = r.best_score;
  j["confidence"] = r.confidence ? json(*r.confidence) : json(nullptr);
  j["tied"] = r.tied;
  j["pick"] = {{"status", r.pick_status}};
  if (!r.pick_error.empty()) j["pick"]["error"] = r.pick_error;
  j["summary"] = {{"text", r.summary}, {"status", r.summary_status}, {"chunks", r.chunks}};
  if (!r.summary_error.empty()) j["summary"]["error"] = r.summary_error;
  json quotes = json::array();
  for (const GroundingQuote &q : r.quotes) {
    json e = {{"text", q.text}, {"in_text", q.in_text}};
    if (q.in_text) e["offset"] = q.offset;
    quotes.push_back(std::move(e));
  }
  j["quotes"] = std::move(quotes);
  json trace = json::array();
  for (const GroundingVisit &v : r.visits) trace.push_back(visit_json(v));
  j["trace"] = {{"visits", std::move(trace)}, {"stop_reason", r.stop_reason}};
  j["usage"] = {{"summary", detail::usage_json(r.summary_usage)}, {"traversal", detail::usage_json(r.traversal_usage)},
                {"pick", detail::usage_json(r.pick_usage)}};
  std::size_t calls = r.summary_usage.model_calls + r.traversal_usage.model_calls + r.pick_usage.model_calls;
  int64_t tokens = r.summary_usage.prompt_tokens + r.traversal_usage.prompt_tokens + r.pick_usage.prompt_tokens;
  j["usage"]["model_calls"] = calls;
  j["usage"]["prompt_tokens"] = tokens;
  if (r.dry_run) j["estimate"] = {{"model_calls", r.estimated_calls}, {"prompt_tokens", r.estimated_prompt_tokens}};
  j["model"] = r.model;
  j["offline"] = r.offline;
  if (r.offline)
    j["note"] = "The offline model wrote the summary from the sentences that name both proteins and scored the terms by "
                "word overlap with it; it is not a language model.";
  j["templates"] = r.template_version;
  return j;
}

Grounder::Grounder(KnowledgeGraph &kg, GroundingOptions options) : Grounder(kg, run_model(options), options) {}

GroundingResult ground(KnowledgeGraph &kg, std::string_view text, const std::string &a, const std::string &b,
                       const GroundingOptions &options) {
  return ground(kg, run_model(options), text, a, b, options);
}

}  // namespace grappi
