// Grounded answers (grappi/answer.hpp): the question embedded and its subgraph retrieved by
// PCST; the subgraph's nodes ranked by prize and written as the context within the budget; the
// model's answer through ModelCalls (cache, budgets, one repair turn for unparseable answers);
// every sentence's citations checked against the context; one more turn asking the model to fix
// the sentences that were not supported; the answer entities: those the answer names, then the
// subgraph's best by prize.
#include "grappi/answer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "agents/ask/answer_form.hpp"
#include "agents/ask/answer_impl.hpp"
#include "agents/ask/answer_offline.hpp"
#include "common/answer_json.hpp"
#include "grappi/error.hpp"
#include "grappi/graph_embeddings.hpp"
#include "grappi/reader.hpp"
#include "grappi/vector_index.hpp"
#include "grappi/snapshot.hpp"
#include "agents/ask/intent_retrieval.hpp"
#include "models/model_calls.hpp"
#include "agents/ask/question_impl.hpp"
#include "models/templates.hpp"
#include "common/text_util.hpp"

namespace grappi {

namespace {

using nlohmann::json;

constexpr int kAnswerTokens = 1500;
using detail::kParseRepair;

const char *kAskSystem =
    "You answer biomedical questions from a knowledge graph, using only the context you are given and citing it. "
    "Answer with one JSON object and nothing else.";
const char *kAnswer =
    "Question: {{question}}\n\n"
    "Context (the knowledge graph's subgraph for the question, format {{format}}; its nodes are N0, N1, ... and its "
    "edges E0, E1, ... in the order listed, then the papers P0, P1, ... when there are any):\n{{context}}\n"
    "Answer the question in short sentences, one claim per sentence, naming the entities as the context does. End each "
    "sentence with what it rests on in square brackets: nodes as [N3], edges as [E2], papers as [P0], PubMed ids as "
    "[PMID:12345], interaction ids as [EBI-1234]. Cite only what the context lists; say so when the context does not "
    "answer the question.\n"
    "Answer: {\"sentences\": [{\"text\": \"... [N1, E2]\", \"citations\": [\"N1\", \"E2\"]}, ...]}";
const char *kRepair =
    "These sentences of your answer are not supported by the context:\n{{problems}}\n"
    "Answer again with the same JSON object: keep the supported sentences, correct or drop the others, and cite only "
    "the context's nodes, edges, papers, PubMed ids and interaction ids.";

std::string hash_version(const AnswerTemplates &t) {
  return detail::sha256_hex(t.system + '\0' + t.answer + '\0' + t.repair + '\0' + t.intent).substr(0, 12);
}

std::string why(const AnswerSentence &s) {
  if (s.status == "uncited") return "it cites nothing";
  std::string out;
  for (const AnswerCitation &c : s.citations) {
    if (c.status == "supported") continue;
    out += (out.empty() ? "" : "; ") + c.id + " " +
           (c.status == "unknown_id"       ? std::string("is not in the context or the knowledge base")
            : c.status == "not_in_context" ? std::string("was not in the context")
                                           : "is an edge between entities the sentence does not name (" + c.target + ")");
  }
  return out;
}

std::size_t unsupported(const std::vector<AnswerSentence> &sentences) {
  return static_cast<std::size_t>(
      std::count_if(sentences.begin(), sentences.end(), [](const AnswerSentence &s) { return s.status != "supported"; }));
}

}  // namespace

AnswerTemplates AnswerTemplates::defaults() {
  AnswerTemplates t;
  t.system = kAskSystem;
  t.answer = kAnswer;
  t.repair = kRepair;
  t.intent = detail::kIntentPrompt;
  t.version = "answer-1-" + hash_version(t);
  return t;
}

void AnswerTemplates::load(const std::string &system_file, const std::string &answer_file, const std::string &repair_file,
                           const std::string &intent_file) {
  AnswerTemplates t = *this;
  bool any = detail::load_template(t.system, system_file, {}, "system");
  any = detail::load_template(t.answer, answer_file, {"question", "context", "format"}, "answer") || any;
  any = detail::load_template(t.repair, repair_file, {"problems"}, "repair") || any;
  any = detail::load_template(t.intent, intent_file, {"question", "entities"}, "intent") || any;
  if (!any) return;
  t.version = "custom-" + hash_version(t);
  *this = std::move(t);
}

std::size_t AskResult::count(const std::string &s) const {
  return static_cast<std::size_t>(
      std::count_if(sentences.begin(), sentences.end(), [&](const AnswerSentence &x) { return x.status == s; }));
}

namespace {

// Stage 1's ranking of the subgraph: its nodes by prize (then similarity, id) for the context,
// and the answer order: partners of the question's entities first, then by prize.
struct Ranking {
  std::vector<detail::RankedSubgraphNode> nodes;     // by prize
  std::unordered_map<int64_t, std::size_t> position;  // node -> index in nodes
  std::vector<int64_t> asked;                         // the subgraph's entities the question names
  std::unordered_map<int64_t, bool> partner;          // node -> joined to an asked entity
  std::unordered_map<int64_t, double> reader;         // node -> the graph reader's score (reader "gat")
  bool before(int64_t x, int64_t y) const {
    if (!reader.empty()) {
      const auto sx = reader.find(x), sy = reader.find(y);  // (every subgraph node is scored)
      const double a = sx == reader.end() ? -1 : sx->second, b = sy == reader.end() ? -1 : sy->second;
      if (a != b) return a > b;
    }
    if (partner.at(x) != partner.at(y)) return partner.at(x);
    return position.at(x) < position.at(y);
  }
  const detail::RankedSubgraphNode &of(int64_t node) const { return nodes[position.at(node)]; }
};

Ranking rank(const KnowledgeGraph &kg, const PcstRetrieval &retrieval, const std::vector<float> &q,
             const std::string &embedding_model, const std::vector<QuestionEntity> &entities) {
  Ranking k;
  const auto vectors = grappi::graph_vectors(kg, embedding_model);
  for (std::size_t i = 0; i < retrieval.subgraph.nodes.size(); ++i) {
    const int64_t id = retrieval.subgraph.nodes[i];
    const float *v = q.empty() ? nullptr : vectors->vector(id);
    const double sim = v ? double(cosine(q.data(), v, vectors->dim())) : 0.0;
    k.nodes.push_back({id, i < retrieval.node_prizes.size() ? retrieval.node_prizes[i] : 0.0, sim});
  }
  detail::rank_subgraph_nodes(k.nodes);
  for (std::size_t i = 0; i < k.nodes.size(); ++i) k.position.emplace(k.nodes[i].node, i);
  // "Which proteins ... interact with X" asks for X's partners: nodes joined to an entity the
  // question names by an edge of the knowledge base.
  for (const QuestionEntity &e : entities)
    if (k.position.count(e.node) && std::find(k.asked.begin(), k.asked.end(), e.node) == k.asked.end()) k.asked.push_back(e.node);
  const auto snapshot = kg.snapshot();
  for (const auto &n : k.nodes) {
    bool p = false;
    for (int64_t a : k.asked) p = p || (a != n.node && !snapshot->edges_between(a, n.node).empty());
    k.partner[n.node] = p;
  }
  return k;
}

// Stage 3: the answer, its sentences checked, and one turn asking to fix the ones not supported.
void exchange(detail::ModelCalls &calls, const ChatRequest &request, const detail::CitationChecker &checker,
              const AskOptions &o, AskResult &r) {
  auto got = calls.ask<detail::ParsedAnswer>("ask.answer", request, detail::parse_answer, r.usage, kParseRepair);
  r.status = got.status;
  r.error = got.error;
  if (got.status != "ok") {
    r.usage.failed += got.status == "failed";
    r.usage.skipped += got.status == "skipped";
    return;
  }
  for (const auto &p : got.answer.sentences) r.sentences.push_back(checker.check(p));
  // The offline model's sentences are the context's own edges: supported by construction, a
  // status of their own (never counted as a model's supported claims).
  if (r.offline)
    for (AnswerSentence &sentence : r.sentences)
      if (sentence.status == "supported") sentence.status = "extractive";
  if (o.repair && !r.offline && unsupported(r.sentences) > 0) {
    std::string problems;
    for (const AnswerSentence &s : r.sentences)
      if (s.status != "supported") problems += "- \"" + s.text + "\": " + why(s) + "\n";
    ChatRequest fix = request;
    fix.messages.push_back({"assistant", got.answer.raw});
    fix.messages.push_back({"user", PromptTemplates::render(o.templates.repair, {{"problems", problems}})});
    fix.task["repair"] = true;
    r.repaired = true;
    auto again = calls.ask<detail::ParsedAnswer>("ask.repair", fix, detail::parse_answer, r.usage, kParseRepair);
    if (again.status == "ok") {
      std::vector<AnswerSentence> second;
      for (const auto &p : again.answer.sentences) second.push_back(checker.check(p));
      r.first_sentences = r.sentences;
      // The repaired answer when it is no worse (no more sentences not supported).
      if (unsupported(second) <= unsupported(r.sentences)) r.sentences = std::move(second);
    } else {
      r.usage.failed += again.status == "failed";
      r.usage.skipped += again.status == "skipped";
      r.error = "repair turn " + again.status + ": " + again.error;
    }
  }
}

// A model's reading of the intent, as an answer ModelCalls can check.
struct IntentAnswer {
  bool ok = false;
  std::string error;
  QuestionAnalysis analysis;
};

// The rules left the question open though it names entities: ask the model (not the offline
// one) what it asks, and take its answer when it holds up (question_impl.hpp).
void model_intent(detail::ModelCalls &calls, const AskOptions &o, AskResult &r) {
  std::string names;
  for (const QuestionEntity &e : r.analysis.entities) names += "- " + e.name + " (written \"" + e.text + "\")\n";
  const ChatRequest request = detail::chat_request(
      o.templates.system, PromptTemplates::render(o.templates.intent, {{"question", r.question}, {"entities", names}}), true,
      200, json{{"kind", "ask.intent"}, {"question", r.question}});
  const QuestionAnalysis rules = r.analysis;
  auto got = calls.ask<IntentAnswer>(
      "ask.intent", request,
      [&rules](std::string_view text) {
        IntentAnswer a;
        a.analysis = rules;
        a.ok = detail::apply_model_intent(a.analysis, text, a.error);
        return a;
      },
      r.usage, kParseRepair);
  if (got.status == "ok") r.analysis = std::move(got.answer.analysis);
  else r.analysis.model_error = got.status + ": " + got.error;
}

// "A -- B (relation 0.912)": an answer entity's strongest edge.
std::string evidence_text(const KnowledgeGraph &kg, const std::string &name, int64_t other, const char *arrow,
                          const std::string &relation, double score) {
  const auto o = kg.node(other);
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", score);
  return name + arrow + (o ? o->name : "?") + " (" + relation + " " + text + ")";
}

// An answer entity's node, similarity and prize.
AnswerEntity entity_of(const Node &node, double similarity, double prize) {
  AnswerEntity a;
  a.node = node.id;
  a.id = node.external_id;
  a.name = node.name;
  a.label = node.label;
  a.score = similarity;
  a.prize = prize;
  return a;
}

// The nodes the answer names or cites.
std::unordered_set<int64_t> named_by(const AskResult &r, const detail::CitationChecker &checker) {
  std::unordered_set<int64_t> out;
  for (const AnswerSentence &s : r.sentences) {
    for (int64_t n : checker.named(s.text)) out.insert(n);
    for (const AnswerCitation &c : s.citations)
      if (c.kind == "node" && c.status == "supported") out.insert(c.node);
  }
  return out;
}

// Stage 4 with the graph reader: its nodes by score (the question's own left out on request).
std::vector<AnswerEntity> reader_entities(const KnowledgeGraph &kg, const AskResult &r, const detail::CitationChecker &checker,
                                          const ReaderGraph &g, const std::vector<double> &score, const AskOptions &o) {
  const std::unordered_set<int64_t> named = named_by(r, checker);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (!(o.exclude_question_entities && g.nodes[i].asked)) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return score[a] > score[b]; });
  std::vector<const ReaderEdge *> strongest(g.nodes.size(), nullptr);
  for (const ReaderEdge &e : g.edges)
    for (std::size_t end : {e.source, e.target})
      if (!strongest[end] || e.score > strongest[end]->score) strongest[end] = &e;
  std::vector<AnswerEntity> out;
  for (std::size_t i : order) {
    if (out.size() >= o.top) break;
    const auto node = kg.node(g.nodes[i].node);
    if (!node) continue;
    AnswerEntity a = entity_of(*node, g.nodes[i].similarity, g.nodes[i].prize);
    a.named = named.count(a.node) > 0;
    a.reader_score = score[i];
    if (const ReaderEdge *e = strongest[i]) {
      const std::size_t other = e->source == i ? e->target : e->source;
      a.evidence = evidence_text(kg, a.name, g.nodes[other].node, " -- ", e->relation, e->score);
      if (e->edge) a.edges.push_back(e->edge);
    }
    out.push_back(std::move(a));
  }
  return out;
}

// Stage 4: the entities the answer names or cites, then the subgraph's others, each group in
// answer order; the question's own left out on request.
std::vector<AnswerEntity> answer_entities(const KnowledgeGraph &kg, const AskResult &r, const detail::CitationChecker &checker,
                                          const Ranking &k, const AskOptions &o) {
  std::vector<int64_t> order;
  const auto add = [&](int64_t n) {
    if (o.exclude_question_entities && std::find(k.asked.begin(), k.asked.end(), n) != k.asked.end()) return;
    if (std::find(order.begin(), order.end(), n) == order.end() && k.position.count(n)) order.push_back(n);
  };
  for (const AnswerSentence &s : r.sentences) {
    for (int64_t n : checker.named(s.text)) add(n);
    for (const AnswerCitation &c : s.citations)
      if (c.kind == "node" && c.status == "supported") add(c.node);
  }
  const auto before = [&k](int64_t x, int64_t y) { return k.before(x, y); };
  // (the named ones in answer order too: an answer names a partner beside each entity it gives)
  std::stable_sort(order.begin(), order.end(), before);
  const std::size_t named_count = order.size();
  std::vector<int64_t> rest;
  for (const auto &n : k.nodes) rest.push_back(n.node);
  std::stable_sort(rest.begin(), rest.end(), before);
  for (int64_t n : rest) add(n);
  std::unordered_map<int64_t, const WindowEdge *> strongest;
  for (const WindowEdge &e : r.retrieval.subgraph.edges)
    for (int64_t end : {e.source, e.target}) {
      auto &best = strongest[end];
      if (!best || e.score > best->score) best = &e;
    }
  std::vector<AnswerEntity> out;
  for (std::size_t i = 0; i < order.size() && out.size() < o.top; ++i) {
    const auto node = kg.node(order[i]);
    if (!node) continue;
    AnswerEntity a = entity_of(*node, k.of(node->id).similarity, k.of(node->id).prize);
    a.named = i < named_count;
    if (const auto it = strongest.find(a.node); it != strongest.end()) {
      const WindowEdge &e = *it->second;
      a.evidence = evidence_text(kg, a.name, e.source == a.node ? e.target : e.source,
                                 e.directed ? (e.source == a.node ? " -> " : " <- ") : " -- ", e.relation, e.score);
      a.edges.push_back(e.edge);
    }
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace

static AskResult answer_question(KnowledgeGraph &kg, LanguageModel &model, const std::string &question, const AskOptions &o) {
  if (detail::trim_copy(question).empty()) throw Error(ErrorCode::invalid_argument, "ask: the question is empty");
  if (o.context != "evidence" && o.context != "csv")
    throw Error(ErrorCode::invalid_argument, "ask: the context is \"evidence\" or \"csv\", not \"" + o.context + "\"");
  if (o.reader != "prize" && o.reader != "gat")
    throw Error(ErrorCode::invalid_argument, "ask: the reader is \"prize\" or \"gat\", not \"" + o.reader + "\"");
  if (o.intent_candidates == 0) throw Error(ErrorCode::invalid_argument, "ask: intent_candidates must be at least 1");
  for (const auto &[relation, w] : o.retrieval.relation_weights)
    if (!std::isfinite(w) || w < 0)
      throw Error(ErrorCode::invalid_argument, "ask: the weight of relation '" + relation + "' must be finite and >= 0");
  if (kg.embedding_models().empty())
    throw Error(ErrorCode::invalid_argument, "ask: nothing is embedded; run grappi embed first");
  std::shared_ptr<const GatReader> reader;
  if (o.reader == "gat") reader = o.gat ? o.gat : std::make_shared<const GatReader>(GatReader::load(kg, o.reader_name));
  const auto t0 = std::chrono::steady_clock::now();
  AskResult r;
  r.question = question;
  r.offline = model.local();
  r.model = model.describe();
  r.template_version = o.templates.version;
  r.reader = o.reader;
  if (reader) {
    r.reader_scope = reader->info().value("scope", "subgraph");
    r.reader_name = o.reader_name;
  }
  detail::ModelCalls calls(kg, model, {o.templates.version, o.use_cache, o.max_calls, o.max_tokens, 1, o.cancel});

  // Stage 1: what the question asks, the subgraph for it and its ranking.
  const std::shared_ptr<const QuestionAnalyzer> analyzer = o.analyzer ? o.analyzer : std::make_shared<const QuestionAnalyzer>(kg);
  r.analysis = analyzer->analyze(question);
  if (r.analysis.entities.empty() && !r.analysis.unknown_names.empty()) {
    // A question about a protein the database lacks (or misspelt) is not answered about others.
    const std::string &w = r.analysis.unknown_names.front();
    throw Error(ErrorCode::not_found, "ask: the question names no entity of the database, and '" + w +
                                          "' looks like a name but names nothing" + detail::did_you_mean(kg.lookup(w).suggestions));
  }
  if (!o.choices.empty()) {
    // (the options are what the question chooses among, not what it is about)
    std::set<int64_t> options;
    for (const std::string &c : o.choices)
      for (int64_t n : detail::nodes_named(kg, c)) options.insert(n);
    auto &e = r.analysis.entities;
    const std::size_t before = e.size();
    e.erase(std::remove_if(e.begin(), e.end(), [&](const QuestionEntity &x) { return options.count(x.node) > 0; }), e.end());
    if (e.size() != before) {
      detail::recognise_intent(r.analysis);
      detail::read_frame(r.analysis);
    }
  }
  const bool ask_model_intent = o.intents && o.model_intent && !r.offline && r.analysis.frame.form == "unsupported" &&
                                !r.analysis.entities.empty();
  if (!o.dry_run)
    detail::confirm_calls("ask", 1 + (o.repair ? 1 : 0) + (ask_model_intent ? 1 : 0), o.confirm_calls, o.max_calls, model,
                          "its intent, the answer and the repair turn", "--no-repair");
  if (ask_model_intent && !o.dry_run) model_intent(calls, o, r);
  if (!o.intents) {
    r.analysis.intent = "open";
    r.analysis.rule = "intents off";
  }
  r.question_entities = r.analysis.entities;
  // Cancel is polled between the stages too (the retrieval and the reader take seconds on a
  // large graph): what was done is kept, the answer is skipped.
  const auto cancelled = [&] {
    if (!o.cancel || !o.cancel()) return false;
    r.status = "skipped";
    r.error = detail::kCancelled;
    r.usage.skipped += 1;
    r.usage.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return true;
  };
  if (cancelled()) return r;
  const auto retrieval = detail::retrieve_for_question(kg, r.analysis, question, o, r.reader_scope == "base");
  r.retrieval = retrieval.retrieval;
  r.recipe = retrieval.recipe;
  r.paths = retrieval.paths;
  const std::vector<float> &q = retrieval.question_vector;
  Ranking k = rank(kg, r.retrieval, q, o.embedding_model, r.question_entities);
  if (cancelled()) return r;
  ReaderGraph graph;
  std::vector<double> scores;
  if (reader) {
    const auto vectors = grappi::graph_vectors(kg, o.embedding_model);
    const std::string trained_on = reader->info().value("embedding_model", std::string());
    if (!trained_on.empty() && trained_on != vectors->model())
      throw Error(ErrorCode::invalid_argument, "ask: the graph reader '" + o.reader_name + "' was trained on embeddings of '" +
                                                   trained_on + "', the question is embedded with '" + vectors->model() +
                                                   "' (--embedding-model, or train the reader again)");
    graph = detail::build_reader_graph(kg, q, vectors, r.retrieval, r.reader_scope, k.asked,
                                       reader->info().value("max_nodes", std::size_t{0}));
    if (!graph.nodes.empty()) scores = reader->score(graph);
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) k.reader[graph.nodes[i].node] = scores[i];
    r.retrieval.base = {};
    r.retrieval.base_prizes.clear();
  }
  if (o.progress) o.progress("retrieve", 1, 1);

  // Stage 2: the context (trimmed by prize), the offline model's view in answer order.
  std::vector<int64_t> edge_ids;
  for (const WindowEdge &e : r.retrieval.subgraph.edges) edge_ids.push_back(e.edge);
  json task = {{"kind", "ask.answer"}, {"question", question}};
  r.context = detail::build_answer_context(kg, k.nodes, edge_ids, o.context, o.max_context_tokens, task);
  if (reader) detail::add_reader_scores(r.context, k.reader);
  const detail::CitationChecker checker(kg, r.context);
  if (o.papers > 0) detail::add_paper_context(kg, r.context, checker, k.asked, o.papers, o.max_context_tokens, task);
  std::unordered_map<std::string, int64_t> node_of_label;
  json asked_labels = json::array();
  for (std::size_t i = 0; i < r.context.nodes.size(); ++i) {
    const std::string label = "N" + std::to_string(i);
    node_of_label[label] = r.context.nodes[i];
    if (std::find(k.asked.begin(), k.asked.end(), r.context.nodes[i]) != k.asked.end()) asked_labels.push_back(label);
  }
  std::stable_sort(task["entities"].begin(), task["entities"].end(), [&](const json &x, const json &y) {
    return k.before(node_of_label.at(x["label"].get<std::string>()), node_of_label.at(y["label"].get<std::string>()));
  });
  task["question_entities"] = asked_labels;
  {
    // (the offline model writes about what the frame admits: a class's members, not the partners listed apart)
    std::unordered_set<int64_t> apart;
    for (const detail::IntentCandidate &c : retrieval.candidates)
      if (!c.admitted) apart.insert(c.node);
    if (!apart.empty() && task.contains("entities")) {
      json kept = json::array();
      for (const json &e : task["entities"])
        if (!apart.count(node_of_label.at(e["label"].get<std::string>()))) kept.push_back(e);
      task["entities"] = std::move(kept);
    }
  }
  if (o.progress) o.progress("context", 1, 1);
  // The answer in the question's form, by rules from the knowledge base (what the command line prints first).
  std::string form_status = "ok";
  r.answer = detail::form_answer(kg, r.analysis, retrieval, o, r.context, form_status);
  if (form_status == "no_answer") {
    // (the database cannot say: no model is asked, no sentence about other proteins is written)
    r.status = "no_answer";
    r.error = r.answer.reason;
    calls.flush();
    if (o.progress) o.progress("answer", 1, 1);
    r.usage.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }

  // Stage 3: the answer.
  const ChatRequest request = detail::chat_request(
      o.templates.system,
      PromptTemplates::render(o.templates.answer, {{"question", question}, {"context", r.context.text}, {"format", o.context}}),
      true, kAnswerTokens, task, detail::offline_answer);
  if (r.offline && r.answer.form == "unsupported" && !o.dry_run) {
    // (the offline model answers no question the rules cannot read: it says so rather than list the subgraph's edges
    // as if they answered it)
    r.status = "ok";
    r.usage.local_answers += 1;
  } else if (o.dry_run) {
    r.status = "dry_run";
    r.planned_calls = r.offline ? 0 : 1 + (o.repair ? 1 : 0) + (ask_model_intent ? 1 : 0);
    r.planned_tokens = r.offline ? 0 : detail::ModelCalls::estimate(request);
  } else {
    exchange(calls, request, checker, o, r);
  }
  calls.flush();
  if (o.progress) o.progress("answer", 1, 1);

  // Stage 4: the answer entities.
  r.answer_entities = reader ? reader_entities(kg, r, checker, graph, scores, o) : answer_entities(kg, r, checker, k, o);
  // (what the frame does not admit - outside the class, not among the choices - comes after, apart)
  std::unordered_set<int64_t> apart;
  for (const detail::IntentCandidate &c : retrieval.candidates)
    if (!c.admitted) apart.insert(c.node);
  for (AnswerEntity &e : r.answer_entities) e.admitted = !apart.count(e.node);
  std::stable_partition(r.answer_entities.begin(), r.answer_entities.end(), [](const AnswerEntity &e) { return e.admitted; });
  r.usage.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

AskResult ask(KnowledgeGraph &kg, LanguageModel &model, const std::string &question, const AskOptions &o) {
  AskResult r = answer_question(kg, model, question, o);
  // The stable id of every node the result names (its JSON gives them beside the row ids).
  const auto snapshot = kg.snapshot();
  const auto name = [&](int64_t id) {
    if (r.external_ids.count(id)) return;
    if (const auto ix = snapshot->index_of(id)) r.external_ids.emplace(id, snapshot->external_id(*ix));
  };
  for (int64_t id : r.retrieval.subgraph.nodes) name(id);
  for (int64_t id : r.retrieval.seeds) name(id);
  for (int64_t id : r.context.nodes) name(id);
  for (const AnswerPaper &p : r.context.papers)
    for (int64_t id : p.nodes) name(id);
  for (const auto &path : r.paths)
    for (int64_t id : path) name(id);
  return r;
}

detail::QuestionRetrieval detail::retrieve_for_question(const KnowledgeGraph &kg, const QuestionAnalysis &analysis,
                                                const std::string &question, const AskOptions &o, bool keep_base) {
  QuestionRetrieval out;
  const QuestionFrame &frame = analysis.frame;
  // A modules question about a network (no entity's partners): its clusters, their strongest edges the context.
  if (o.intents && frame.form == "modules" && frame.relation != "partners") {
    out.modules = detail::find_modules(kg, analysis, {});
    out.looked_up = out.modules->looked_up;
    out.recipe = out.modules->result ? "the " + std::to_string(out.modules->listed.size()) +
                                           " largest modules' strongest edges (" + out.modules->looked_up + ")"
                                     : "no modules: " + out.modules->reason;
    PcstRetrieval &R = out.retrieval;
    R.subgraph = detail::modules_subgraph(kg, *out.modules);
    R.node_prizes.assign(R.subgraph.nodes.size(), 1.0);
    R.edge_prizes.assign(R.subgraph.edges.size(), 0.0);
    for (const QuestionEntity &e : analysis.entities) R.seeds.push_back(e.node);
    R.base_nodes = R.subgraph.nodes.size();
    R.base_edges = R.subgraph.edges.size();
    if (keep_base) {
      R.base = R.subgraph;
      R.base_prizes = R.node_prizes;
    }
    return out;
  }
  // (an intent does not need the question's vector: a question of only names and stop words
  // still has an intent)
  try {
    out.question_vector = grappi::query_vector(kg, question, o.embedding_model);
  } catch (const Error &) {
    if (!o.intents || analysis.intent == "open") throw;
  }
  if (o.intents && analysis.intent != "open") {
    detail::IntentRetrieveOptions io;
    io.filter = o.retrieval.khop.filter;
    io.relation_weights = o.retrieval.relation_weights;
    io.max_candidates = o.intent_candidates;
    detail::IntentRetrieval ir = detail::retrieve_for_intent(kg, analysis, io);
    out.looked_up = ir.looked_up;
    out.note = ir.note;
    out.excluded = ir.excluded;
    // (a question of a form the rules answer keeps its intent's retrieval, even empty: an answer about other
    // proteins, by PCST, would be no answer to it)
    if (!ir.ranked.empty() || !ir.paths.empty() || analysis.frame.form != "unsupported") {
      out.recipe = std::move(ir.recipe);
      if (ir.ranked.empty()) out.recipe = "the intent " + analysis.intent + " found no candidate (" + out.recipe + ")";
      out.paths = std::move(ir.paths);
      out.path_scores = std::move(ir.path_scores);
      out.candidates = std::move(ir.ranked);
      if (frame.form == "modules") out.modules = detail::find_modules(kg, analysis, out.candidates);
      PcstRetrieval &R = out.retrieval;
      R.subgraph = std::move(ir.subgraph);
      R.node_prizes = std::move(ir.node_prizes);
      for (const QuestionEntity &e : analysis.entities) R.seeds.push_back(e.node);
      R.edge_prizes.assign(R.subgraph.edges.size(), 0.0);
      R.base_nodes = ir.candidates + analysis.entities.size();
      R.base_edges = R.subgraph.edges.size();
      if (keep_base) {
        R.base = R.subgraph;
        R.base_prizes = R.node_prizes;
      }
      return out;
    }
    out.recipe = "the intent " + analysis.intent + " found no candidate; ";
  }
  if (out.question_vector.empty()) out.question_vector = grappi::query_vector(kg, question, o.embedding_model);
  PcstRetrieveOptions ro = o.retrieval;
  ro.keep_base = ro.keep_base || keep_base;
  for (const QuestionEntity &e : analysis.entities) ro.anchors.push_back(e.node);
  if (o.cancel) ro.cancel = o.cancel;  // (the retrieval's stages and its solver poll it too)
  out.retrieval = grappi::graph_retriever(kg, o.embedding_model)->pcst_retrieve(out.question_vector, ro);
  out.recipe += "PCST over the question's prizes (" + ro.mode + ")" +
                (ro.anchors.empty() ? std::string() : ", the question's entities kept");
  return out;
}

AskResult ask(KnowledgeGraph &kg, const std::string &question, const AskOptions &options) {
  return ask(kg, run_model(options), question, options);
}

}  // namespace grappi
