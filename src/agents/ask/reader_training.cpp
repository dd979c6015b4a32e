// The graph reader over a knowledge base (grappi/reader.hpp): a question's subgraph as the
// reader reads it (retrieved as ask() retrieves it), the examples of a question set, training
// and storing a reader.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "agents/ask/answer_impl.hpp"
#include "store/graph_impl.hpp"
#include "grappi/graph_embeddings.hpp"
#include "grappi/error.hpp"
#include "grappi/reader.hpp"
#include "grappi/snapshot.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"

namespace grappi {

namespace {

using nlohmann::json;

void check_scope(const std::string &scope) {
  if (scope != "subgraph" && scope != "base")
    throw Error(ErrorCode::invalid_argument, "graph reader: the scope is \"subgraph\" or \"base\", not \"" + scope + "\"");
}

json retrieval_json(const AskOptions &o) {
  const PcstRetrieveOptions &r = o.retrieval;
  return json{{"mode", r.mode}, {"seeds", r.seeds}, {"topk", r.topk}, {"topk_e", r.topk_e}, {"hops", r.khop.hops},
              {"degree_cap", r.khop.degree_cap}, {"relations", r.khop.filter.relations},
              {"relation_weights", r.relation_weights}, {"embedding_model", o.embedding_model},
              {"intents", o.intents}, {"intent_candidates", o.intent_candidates}};
}

}  // namespace

ReaderGraph detail::build_reader_graph(const KnowledgeGraph &kg, const std::vector<float> &question,
                                       std::shared_ptr<const VectorIndex> vectors, const PcstRetrieval &r,
                                       const std::string &scope, const std::vector<int64_t> &asked,
                                       std::size_t max_nodes) {
  check_scope(scope);
  const bool base = scope == "base";
  if (base && r.base.nodes.empty() && !r.subgraph.nodes.empty())
    throw Error(ErrorCode::internal, "graph reader: the base subgraph was not kept");
  const Subgraph &sub = base ? r.base : r.subgraph;
  const std::vector<double> &prizes = base ? r.base_prizes : r.node_prizes;
  ReaderGraph g;
  g.vectors = std::move(vectors);
  // (a question of only names and stop words embeds to nothing: a zero vector)
  g.question = question.empty() && g.vectors ? std::vector<float>(g.vectors->dim(), 0.0f) : question;
  const auto snapshot = kg.snapshot();
  const std::unordered_set<int64_t> seeds(r.seeds.begin(), r.seeds.end());
  const std::unordered_set<int64_t> selected(r.subgraph.nodes.begin(), r.subgraph.nodes.end());
  const std::unordered_set<int64_t> named(asked.begin(), asked.end());
  // The nodes read: all, or the cap's choice (the entities and the selection, then the nearest
  // to the seeds, then by prize and similarity), in the subgraph's order.
  std::vector<std::size_t> kept(sub.nodes.size());
  for (std::size_t i = 0; i < kept.size(); ++i) kept[i] = i;
  if (max_nodes && kept.size() > max_nodes) {
    std::vector<double> sim(sub.nodes.size(), 0.0);
    for (std::size_t i = 0; i < sub.nodes.size(); ++i)
      if (const float *x = g.vectors ? g.vectors->vector(sub.nodes[i]) : nullptr; x && !question.empty())
        sim[i] = double(cosine(question.data(), x, g.vectors->dim()));
    const auto rank = [&](std::size_t i) { return named.count(sub.nodes[i]) ? 0 : selected.count(sub.nodes[i]) ? 1 : 2; };
    std::stable_sort(kept.begin(), kept.end(), [&](std::size_t a, std::size_t b) {
      if (rank(a) != rank(b)) return rank(a) < rank(b);
      const std::size_t ha = a < sub.hops.size() ? sub.hops[a] : 0, hb = b < sub.hops.size() ? sub.hops[b] : 0;
      if (ha != hb) return ha < hb;
      const double pa = a < prizes.size() ? prizes[a] : 0.0, pb = b < prizes.size() ? prizes[b] : 0.0;
      if (pa != pb) return pa > pb;
      return sim[a] > sim[b];
    });
    kept.resize(max_nodes);
    std::sort(kept.begin(), kept.end());
  }
  std::unordered_map<int64_t, std::size_t> index;
  for (std::size_t i : kept) {
    ReaderNode v;
    v.node = sub.nodes[i];
    const float *x = g.vectors ? g.vectors->vector(v.node) : nullptr;
    v.similarity = x && !question.empty() ? double(cosine(question.data(), x, g.vectors->dim())) : 0.0;
    v.prize = i < prizes.size() ? prizes[i] : 0.0;
    v.seed = seeds.count(v.node) > 0;
    v.selected = selected.count(v.node) > 0;
    v.degree = snapshot->degree(v.node);
    index.emplace(v.node, g.nodes.size());
    g.nodes.push_back(v);
  }
  for (int64_t a : asked)
    if (const auto it = index.find(a); it != index.end()) g.nodes[it->second].asked = true;
  for (const WindowEdge &e : sub.edges) {
    const auto s = index.find(e.source), t = index.find(e.target);
    if (s == index.end() || t == index.end()) continue;
    g.edges.push_back({s->second, t->second, e.relation, e.score, e.edge});
  }
  return g;
}

ReaderGraph reader_graph(const KnowledgeGraph &kg, const std::string &question, const AskOptions &o, const std::string &scope,
                         PcstRetrieval *retrieval, std::size_t max_nodes) {
  check_scope(scope);
  if (detail::trim_copy(question).empty()) throw Error(ErrorCode::invalid_argument, "graph reader: the question is empty");
  if (kg.embedding_models().empty())
    throw Error(ErrorCode::invalid_argument, "graph reader: nothing is embedded; run grappi embed first");
  // Retrieved as ask() retrieves (the rules' intent; a model is not asked here).
  const auto analyzer = o.analyzer ? o.analyzer : std::make_shared<const QuestionAnalyzer>(kg);
  QuestionAnalysis a = analyzer->analyze(question);
  if (!o.intents) a.intent = "open";
  detail::QuestionRetrieval r = detail::retrieve_for_question(kg, a, question, o, scope == "base");
  std::vector<int64_t> asked;
  for (const QuestionEntity &e : a.entities) asked.push_back(e.node);
  ReaderGraph g =
      detail::build_reader_graph(kg, r.question_vector, grappi::graph_vectors(kg, o.embedding_model), r.retrieval, scope, asked, max_nodes);
  if (retrieval) *retrieval = std::move(r.retrieval);
  return g;
}

ReaderTraining train_reader(KnowledgeGraph &kg, const std::vector<QaQuestion> &train, const std::vector<QaQuestion> &valid,
                            const ReaderTrainOptions &o) {
  check_scope(o.scope);
  if (o.name.empty()) throw Error(ErrorCode::invalid_argument, "train_reader: the reader needs a name");
  if (kg.read_only()) throw Error(ErrorCode::invalid_argument, "train_reader: the database is open read-only");
  if (!(o.min_kept_share >= 0 && o.min_kept_share <= 1))
    throw Error(ErrorCode::invalid_argument, "train_reader: min_kept_share must be between 0 and 1");
  ReaderTraining out;
  out.train_questions = train.size();
  out.valid_questions = valid.size();
  const std::size_t total = train.size() + valid.size();
  std::size_t done = 0;
  AskOptions ask = o.ask;  // (one question reader for every question)
  if (!ask.analyzer) ask.analyzer = std::make_shared<const QuestionAnalyzer>(kg);
  json fingerprint = json::array();
  const auto cancelled = [&] { return out.report.cancelled = out.report.cancelled || (o.cancel && o.cancel()); };
  const auto examples = [&](const std::vector<QaQuestion> &qs, const char *set) {
    std::vector<ReaderExample> xs;
    for (const QaQuestion &q : qs) {
      if (cancelled()) break;
      fingerprint.push_back({set, q.id, q.question, q.answers});
      if (o.progress_examples) o.progress_examples(++done, total);
      if (q.kind != "entities" || q.answers.empty()) {
        ++out.skipped;
        continue;
      }
      ReaderExample x;
      x.id = q.id;
      x.graph = reader_graph(kg, q.question, ask, o.scope, nullptr, o.max_nodes);
      std::unordered_set<int64_t> gold;
      for (const std::string &a : q.answers)
        for (int64_t n : detail::nodes_named(kg, a)) gold.insert(n);
      for (std::size_t i = 0; i < x.graph.nodes.size(); ++i)
        if (gold.count(x.graph.nodes[i].node)) x.answers.push_back(i);
      if (x.answers.empty()) {
        ++out.skipped;
        continue;
      }
      xs.push_back(std::move(x));
    }
    return xs;
  };
  const std::vector<ReaderExample> tr = examples(train, "train"), va = examples(valid, "valid");
  out.train_kept = tr.size();
  out.valid_kept = va.size();
  if (out.report.cancelled) return out;  // (nothing trained, nothing stored)
  if (tr.empty())
    throw Error(ErrorCode::invalid_argument, "train_reader: none of the " + std::to_string(train.size()) +
                                                 " training questions has a gold answer among its subgraph's nodes" +
                                                 (o.scope == "subgraph" ? " (try the scope \"base\")" : ""));
  out.kept_share = total ? double(tr.size() + va.size()) / double(total) : 0.0;
  if (out.kept_share < o.min_kept_share)
    out.warnings.push_back("only " + std::to_string(tr.size() + va.size()) + " of " + std::to_string(total) +
                           " questions have a gold answer among their subgraph's nodes: the reader learns from those "
                           "alone, and cannot rank an answer its retrieval misses");
  if (tr.size() < 20)
    out.warnings.push_back("trained on " + std::to_string(tr.size()) + " question(s): too few to rank unseen questions "
                           "reliably (a few hundred are usual)");
  json options = {{"scope", o.scope}, {"max_nodes", o.max_nodes}, {"retrieval", retrieval_json(o.ask)}};
  fingerprint.push_back(options);
  out.fingerprint = detail::sha256_hex(dump_json(fingerprint));
  GatReaderOptions gat = o.gat;
  if (!gat.cancel) gat.cancel = o.cancel;
  out.reader = GatReader::train(tr, va, gat, &out.report, o.progress);
  if (out.report.cancelled) return out;  // (the reader of the epochs trained is returned, not stored)
  // The validation MRR over every validation question: the left-out ones are misses.
  const double valid_share = valid.empty() ? (train.empty() ? 0.0 : double(tr.size()) / double(train.size()))
                                           : double(va.size()) / double(valid.size());
  if (out.report.best_epoch) out.valid_mrr_all = out.report.epochs[out.report.best_epoch - 1].valid_mrr * valid_share;
  json &info = out.reader.info();
  info["scope"] = o.scope;
  info["max_nodes"] = o.max_nodes;
  info["retrieval"] = options["retrieval"];
  info["embedding_model"] = tr.front().graph.vectors->model();
  info["training"]["fingerprint"] = out.fingerprint;
  info["training"]["questions"] = out.train_questions;
  info["training"]["valid_questions"] = out.valid_questions;
  info["training"]["skipped"] = out.skipped;
  info["training"]["train_kept"] = out.train_kept;
  info["training"]["valid_kept"] = out.valid_kept;
  info["training"]["kept_share"] = out.kept_share;
  info["training"]["valid_mrr_all"] = out.valid_mrr_all;
  info["training"]["warnings"] = out.warnings;
  info["trained_at"] = detail::utc_now();
  out.reader.save(kg, o.name);
  return out;
}

nlohmann::json reader_scores_json(const KnowledgeGraph &kg, const ReaderGraph &g, const std::vector<double> &scores,
                                  const std::string &reader, const std::string &scope) {
  if (scores.size() != g.nodes.size())
    throw Error(ErrorCode::invalid_argument, "reader_scores_json: " + std::to_string(scores.size()) + " scores for " +
                                                 std::to_string(g.nodes.size()) + " nodes");
  std::vector<std::size_t> order(g.nodes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  json nodes = json::array();
  for (std::size_t i : order) {
    const auto n = kg.node(g.nodes[i].node);
    nodes.push_back({{"node", g.nodes[i].node},
                     {"id", n ? n->external_id : std::string()},
                     {"name", n ? n->name : std::string()},
                     {"score", scores[i]},
                     {"asked", g.nodes[i].asked},
                     {"selected", g.nodes[i].selected}});
  }
  return json{{"reader", reader}, {"scope", scope}, {"nodes", std::move(nodes)}};
}

nlohmann::json to_json(const ReaderTraining &t) {
  json epochs = json::array();
  for (const ReaderEpoch &e : t.report.epochs)
    epochs.push_back({{"epoch", e.epoch},
                      {"train_loss", e.train_loss},
                      {"valid_loss", e.valid_loss},
                      {"valid_mrr", e.valid_mrr},
                      {"valid_hits_at_1", e.valid_hits_at_1},
                      {"seconds", e.seconds}});
  return json{{"train_questions", t.train_questions},
              {"valid_questions", t.valid_questions},
              {"skipped", t.skipped},
              {"train_kept", t.train_kept},
              {"valid_kept", t.valid_kept},
              {"kept_share", t.kept_share},
              {"valid_mrr_all", t.valid_mrr_all},
              {"warnings", t.warnings},
              {"train_examples", t.report.train_examples},
              {"valid_examples", t.report.valid_examples},
              {"parameters", t.report.parameters},
              {"best_epoch", t.report.best_epoch},
              {"seconds", t.report.seconds},
              {"cancelled", t.report.cancelled},
              {"fingerprint", t.fingerprint},
              {"reader", t.reader.info()},
              {"epochs", epochs}};
}

}  // namespace grappi
