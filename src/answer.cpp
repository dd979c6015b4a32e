// Grounded answers (grappi/answer.hpp): the question embedded and its subgraph retrieved by
// PCST; the subgraph's nodes ranked by prize and written as the context within the budget; the
// model's answer through ModelCalls (cache, budgets, one repair turn for unparseable answers);
// every sentence's citations checked against the context; one more turn asking the model to fix
// the sentences that were not supported; the answer entities: those the answer names, then the
// subgraph's best by prize.
#include "grappi/answer.hpp"

#include <algorithm>
#include <chrono>
#include <unordered_map>

#include "answer_impl.hpp"
#include "answer_json.hpp"
#include "grappi/error.hpp"
#include "grappi/vector_index.hpp"
#include "grappi/snapshot.hpp"
#include "model_calls.hpp"
#include "templates.hpp"
#include "text_util.hpp"

namespace grappi {

namespace {

using nlohmann::json;

constexpr int kAnswerTokens = 1500;
const char *kParseRepair = "Your answer could not be used ({{error}}). Reply with only the JSON object the request asked for.";

const char *kSystem =
    "You answer biomedical questions from a knowledge graph, using only the context you are given and citing it. "
    "Answer with one JSON object and nothing else.";
const char *kAnswer =
    "Question: {{question}}\n\n"
    "Context (the knowledge graph's subgraph for the question, format {{format}}; its nodes are N0, N1, ... and its "
    "edges E0, E1, ... in the order listed):\n{{context}}\n"
    "Answer the question in short sentences, one claim per sentence, naming the entities as the context does. End each "
    "sentence with what it rests on in square brackets: nodes as [N3], edges as [E2], PubMed ids as [PMID:12345], "
    "interaction ids as [EBI-1234]. Cite only what the context lists; say so when the context does not answer the "
    "question.\n"
    "Answer: {\"sentences\": [{\"text\": \"... [N1, E2]\", \"citations\": [\"N1\", \"E2\"]}, ...]}";
const char *kRepair =
    "These sentences of your answer are not supported by the context:\n{{problems}}\n"
    "Answer again with the same JSON object: keep the supported sentences, correct or drop the others, and cite only "
    "the context's nodes, edges, PubMed ids and interaction ids.";

std::string hash_version(const AnswerTemplates &t) {
  return detail::sha256_hex(t.system + '\0' + t.answer + '\0' + t.repair).substr(0, 12);
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
  t.system = kSystem;
  t.answer = kAnswer;
  t.repair = kRepair;
  t.version = "answer-1-" + hash_version(t);
  return t;
}

void AnswerTemplates::load(const std::string &system_file, const std::string &answer_file, const std::string &repair_file) {
  AnswerTemplates t = *this;
  bool any = false;
  if (!system_file.empty()) {
    t.system = detail::read_template(system_file);
    detail::check_template(t.system, {}, "system template '" + system_file + "'");
    any = true;
  }
  if (!answer_file.empty()) {
    t.answer = detail::read_template(answer_file);
    detail::check_template(t.answer, {"question", "context", "format"}, "answer template '" + answer_file + "'");
    any = true;
  }
  if (!repair_file.empty()) {
    t.repair = detail::read_template(repair_file);
    detail::check_template(t.repair, {"problems"}, "repair template '" + repair_file + "'");
    any = true;
  }
  if (!any) return;
  t.version = "custom-" + hash_version(t);
  *this = std::move(t);
}

std::size_t AskResult::count(const std::string &s) const {
  return static_cast<std::size_t>(
      std::count_if(sentences.begin(), sentences.end(), [&](const AnswerSentence &x) { return x.status == s; }));
}

AskResult ask(KnowledgeGraph &kg, LanguageModel &model, const std::string &question, const AskOptions &o) {
  if (detail::trim_copy(question).empty()) throw Error(ErrorCode::invalid_argument, "ask: the question is empty");
  if (o.context != "evidence" && o.context != "csv")
    throw Error(ErrorCode::invalid_argument, "ask: the context is \"evidence\" or \"csv\", not \"" + o.context + "\"");
  if (kg.embedding_models().empty())
    throw Error(ErrorCode::invalid_argument, "ask: nothing is embedded; run grappi embed first");
  const auto t0 = std::chrono::steady_clock::now();
  AskResult r;
  r.question = question;
  r.offline = model.local();
  r.model = model.describe();
  r.template_version = o.templates.version;

  // Retrieval.
  const std::vector<float> q = kg.query_vector(question, o.embedding_model);
  r.retrieval = kg.retriever(o.embedding_model)->pcst_retrieve(q, o.retrieval);
  const auto vectors = kg.vectors(o.embedding_model);
  std::vector<detail::RankedSubgraphNode> ranked;
  for (std::size_t i = 0; i < r.retrieval.subgraph.nodes.size(); ++i) {
    const int64_t id = r.retrieval.subgraph.nodes[i];
    const float *v = vectors->vector(id);
    const double sim = v ? double(cosine(q.data(), v, vectors->dim())) : 0.0;
    ranked.push_back({id, i < r.retrieval.node_prizes.size() ? r.retrieval.node_prizes[i] : 0.0, sim});
  }
  detail::rank_subgraph_nodes(ranked);
  std::unordered_map<int64_t, const detail::RankedSubgraphNode *> rank_of;
  for (const auto &n : ranked) rank_of.emplace(n.node, &n);
  // The entities the question names, and the subgraph's nodes joined to one of them by an edge
  // of the knowledge base: "which proteins ... interact with X" asks for X's partners.
  std::vector<int64_t> asked;
  {
    AnswerContext all;
    for (const auto &n : ranked) all.nodes.push_back(n.node);
    asked = detail::CitationChecker(kg, all).named(question);
  }
  const auto snapshot = kg.snapshot();
  std::unordered_map<int64_t, bool> partner;
  for (const auto &n : ranked) {
    bool p = false;
    for (int64_t a : asked) p = p || (a != n.node && !snapshot->edges_between(a, n.node).empty());
    partner[n.node] = p;
  }
  // Answer order: partners of the question's entities first, then by prize.
  const auto before = [&](int64_t x, int64_t y) {
    if (partner.at(x) != partner.at(y)) return partner.at(x);
    return rank_of.at(x) < rank_of.at(y);
  };

  // Context.
  std::vector<int64_t> edge_ids;
  for (const WindowEdge &e : r.retrieval.subgraph.edges) edge_ids.push_back(e.edge);
  json task = {{"kind", "ask.answer"}, {"question", question}};
  r.context = detail::build_answer_context(kg, ranked, edge_ids, o.context, o.max_context_tokens, task);
  const detail::CitationChecker checker(kg, r.context);
  {
    json &entities = task["entities"];
    std::unordered_map<std::string, int64_t> node_of_label;
    for (std::size_t k = 0; k < r.context.nodes.size(); ++k) node_of_label["N" + std::to_string(k)] = r.context.nodes[k];
    std::stable_sort(entities.begin(), entities.end(), [&](const json &x, const json &y) {
      return before(node_of_label.at(x["label"].get<std::string>()), node_of_label.at(y["label"].get<std::string>()));
    });
  }
  json asked_labels = json::array();
  for (std::size_t k = 0; k < r.context.nodes.size(); ++k)
    if (std::find(asked.begin(), asked.end(), r.context.nodes[k]) != asked.end())
      asked_labels.push_back("N" + std::to_string(k));
  for (int64_t n : asked) r.question_entities.push_back(kg.node(n)->name);
  task["question_entities"] = asked_labels;

  // The answer.
  const ChatRequest request = detail::chat_request(
      o.templates.system,
      PromptTemplates::render(o.templates.answer, {{"question", question}, {"context", r.context.text}, {"format", o.context}}),
      true, kAnswerTokens, task);
  if (o.dry_run) {
    r.status = "dry_run";
    r.planned_calls = r.offline ? 0 : 1 + (o.repair ? 1 : 0);
    r.planned_tokens = r.offline ? 0 : detail::ModelCalls::estimate(request);
  } else {
    detail::ModelCalls calls(kg, model, {o.templates.version, o.use_cache, o.max_calls, o.max_tokens, 1});
    auto got = calls.ask<detail::ParsedAnswer>("ask.answer", request, detail::parse_answer, r.usage, kParseRepair);
    r.status = got.status;
    r.error = got.error;
    if (got.status == "ok") {
      for (const auto &p : got.answer.sentences) r.sentences.push_back(checker.check(p));
      // One turn asking the model to fix what was not supported (the offline model's answers
      // cite only the context).
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
          // The repaired answer when it is no worse (fewer sentences not supported).
          if (unsupported(second) <= unsupported(r.sentences)) r.sentences = std::move(second);
        } else {
          r.usage.failed += again.status == "failed";
          r.usage.skipped += again.status == "skipped";
          r.error = "repair turn " + again.status + ": " + again.error;
        }
      }
    } else {
      r.usage.failed += got.status == "failed";
      r.usage.skipped += got.status == "skipped";
    }
    calls.flush();
  }

  // Answer entities: the ones the answer names or cites (in its order), then the subgraph's by
  // prize; the question's own entities left out on request.
  std::vector<int64_t> order;
  const auto add = [&](int64_t n) {
    if (o.exclude_question_entities && std::find(asked.begin(), asked.end(), n) != asked.end()) return;
    if (std::find(order.begin(), order.end(), n) == order.end() && rank_of.count(n)) order.push_back(n);
  };
  for (const AnswerSentence &s : r.sentences) {
    for (int64_t n : checker.named(s.text)) add(n);
    for (const AnswerCitation &c : s.citations)
      if (c.kind == "node" && c.status == "supported") add(c.node);
  }
  // (the named ones in answer order too: an answer names a partner beside each entity it gives)
  std::stable_sort(order.begin(), order.end(), before);
  const std::size_t named_count = order.size();
  std::vector<int64_t> rest;
  for (const auto &n : ranked) rest.push_back(n.node);
  std::stable_sort(rest.begin(), rest.end(), before);
  for (int64_t n : rest) add(n);
  std::unordered_map<int64_t, const WindowEdge *> strongest;
  for (const WindowEdge &e : r.retrieval.subgraph.edges)
    for (int64_t end : {e.source, e.target}) {
      auto &best = strongest[end];
      if (!best || e.score > best->score) best = &e;
    }
  for (std::size_t i = 0; i < order.size() && r.answer_entities.size() < o.top; ++i) {
    const auto node = kg.node(order[i]);
    if (!node) continue;
    AnswerEntity a;
    a.node = node->id;
    a.id = node->external_id;
    a.name = node->name;
    a.label = node->label;
    a.score = rank_of.at(a.node)->similarity;
    a.prize = rank_of.at(a.node)->prize;
    a.named = i < named_count;
    if (const auto it = strongest.find(a.node); it != strongest.end()) {
      const WindowEdge &e = *it->second;
      const auto other = kg.node(e.source == a.node ? e.target : e.source);
      char score[32];
      std::snprintf(score, sizeof score, "%.3f", e.score);
      a.evidence = a.name + (e.directed ? (e.source == a.node ? " -> " : " <- ") : " -- ") + (other ? other->name : "?") + " (" +
                   e.relation + " " + score + ")";
      a.edges.push_back(e.edge);
    }
    r.answer_entities.push_back(std::move(a));
  }
  r.usage.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace grappi
