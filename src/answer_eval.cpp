// The evaluation of answers (grappi/answer.hpp, evaluate_qa): each question asked, its ranked
// answer entities scored against the gold answers (Hits@K, Recall@K, MRR), G-Retriever's Hit,
// multiple-choice and true/false accuracy, ROUGE against reference answers, sentence statuses.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <set>

#include "answer_impl.hpp"
#include "answer_json.hpp"
#include "grappi/answer.hpp"
#include "grappi/error.hpp"
#include "grappi/hypothesis.hpp"
#include "grappi/reader.hpp"
#include "grappi/vector_index.hpp"
#include "model_calls.hpp"
#include "text_util.hpp"

namespace grappi {

namespace {

using nlohmann::json;

// Lower case, punctuation as blanks, blanks collapsed (G-Retriever's normalisation of answers).
std::string normalised(const std::string &s) {
  std::string out;
  for (unsigned char c : s) {
    const char x = std::isalnum(c) || c >= 0x80 ? static_cast<char>(std::tolower(c)) : ' ';
    if (x == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += x;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

using detail::nodes_named;

// 1-based rank of the first answer entity among `nodes` (0: none).
std::size_t rank_among(const std::vector<AnswerEntity> &entities, const std::set<int64_t> &nodes) {
  for (std::size_t i = 0; i < entities.size(); ++i)
    if (nodes.count(entities[i].node)) return i + 1;
  return 0;
}

// Whether a phrase is written in a text as whole words, ignoring case and punctuation.
bool says(const std::string &text, const std::string &phrase) {
  const std::string t = " " + normalised(text) + " ", p = normalised(phrase);
  return !p.empty() && t.find(" " + p + " ") != std::string::npos;
}

std::string asked_text(const QaQuestion &q) {
  if (q.kind == "true_false")
    return "True or false: " + q.question + "? Begin your answer with True or False.";
  if (q.kind == "choice") {
    bool listed = true;
    for (const std::string &o : q.options) listed = listed && q.question.find(o) != std::string::npos;
    std::string out = q.question;
    if (!listed) {
      out += " Options:";
      for (std::size_t i = 0; i < q.options.size(); ++i) out += (i ? ", " : " ") + q.options[i];
      out += ".";
    }
    return out;
  }
  return q.question;
}

}  // namespace

std::set<int64_t> detail::nodes_named(const KnowledgeGraph &kg, const std::string &text) {
  std::set<int64_t> out;
  const ResolveResult r = kg.lookup(detail::trim_copy(text), 0);
  if (r.status == ResolveResult::Status::found) out.insert(r.id);
  for (const ResolveCandidate &c : r.candidates) out.insert(c.id);
  return out;
}

QaEvalResult evaluate_qa(KnowledgeGraph &kg, LanguageModel &model, const std::vector<QaQuestion> &questions,
                         const QaEvalOptions &o) {
  if (o.k == 0) throw Error(ErrorCode::invalid_argument, "eval qa: k must be at least 1");
  const auto t0 = std::chrono::steady_clock::now();
  QaEvalResult res;
  res.k = o.k;
  AskOptions ao = o.ask;
  ao.top = std::max({ao.top, o.k, std::size_t{10}});
  if (ao.reader == "gat" && !ao.gat) ao.gat = std::make_shared<const GatReader>(GatReader::load(kg, ao.reader_name));
  res.reader = ao.reader;
  double rr = 0, h1 = 0, h5 = 0, h10 = 0, recall = 0, hits = 0, correct = 0, r1 = 0, rl = 0;
  std::size_t sentences = 0, supported = 0, uncited = 0;
  for (const QaQuestion &q : questions) {
    QaEvalRow row;
    row.question = q;
    AskResult a;
    try {
      a = ask(kg, model, asked_text(q), ao);
      row.status = a.status;
      row.error = a.error;
    } catch (const Error &e) {
      row.status = "error";
      row.error = e.what();
      ++res.errors;
    }
    row.answer_entities = a.answer_entities;
    row.usage = a.usage;
    for (const AnswerSentence &s : a.sentences) {
      row.answer += (row.answer.empty() ? "" : " ") + s.text;
      ++row.sentences;
      row.supported += s.status == "supported";
      row.uncited += s.status == "uncited";
    }
    std::string said = row.answer;  // (the entities' names count as said: the offline answer is them)
    for (const AnswerEntity &e : row.answer_entities) said += " " + e.name;
    if (q.kind == "entities") {
      ++res.entity_questions;
      std::size_t first = 0, within_k = 0;
      for (const std::string &g : q.answers) {
        const std::set<int64_t> nodes = nodes_named(kg, g);
        row.gold_resolved += !nodes.empty();
        const std::size_t rank = rank_among(row.answer_entities, nodes);
        row.gold_ranks.push_back(rank);
        if (rank && (!first || rank < first)) first = rank;
        within_k += rank && rank <= o.k;
      }
      row.reciprocal_rank = first ? 1.0 / double(first) : 0.0;
      rr += row.reciprocal_rank;
      h1 += first == 1;
      h5 += first && first <= 5;
      h10 += first && first <= 10;
      recall += q.answers.empty() ? 0.0 : double(within_k) / double(q.answers.size());
      row.hit = std::any_of(q.answers.begin(), q.answers.end(), [&](const std::string &g) {
        const std::string n = normalised(g);
        return !n.empty() && normalised(said).find(n) != std::string::npos;
      });
    } else if (q.kind == "choice") {
      ++res.choice_questions;
      // The option the answer ranks first among its entities, else the one it names first.
      std::size_t best_rank = 0, best_at = std::string::npos;
      for (const std::string &opt : q.options) {
        const std::size_t rank = rank_among(row.answer_entities, nodes_named(kg, opt));
        if (rank && (!best_rank || rank < best_rank)) best_rank = rank, row.choice = opt;
      }
      if (row.choice.empty())
        for (const std::string &opt : q.options) {
          const std::size_t at = normalised(row.answer).find(normalised(opt));
          if (at != std::string::npos && at < best_at) best_at = at, row.choice = opt;
        }
      // Else the option whose node is most similar to the question.
      if (row.choice.empty() && row.status != "error") {
        const std::vector<float> qv = kg.query_vector(asked_text(q), ao.embedding_model);
        const auto vectors = kg.vectors(ao.embedding_model);
        double best = -2;
        for (const std::string &opt : q.options)
          for (int64_t n : nodes_named(kg, opt))
            if (const float *v = vectors->vector(n)) {
              const double c = cosine(qv.data(), v, vectors->dim());
              if (c > best) best = c, row.choice = opt;
            }
      }
      row.correct = !row.choice.empty() && detail::iequals(row.choice, q.answers[0]);
      row.hit = says(said, q.answers[0]);
    } else {
      ++res.choice_questions;
      // A model's verdict opens its answer; the offline rule: true when two entities the
      // statement names are joined by an edge of the knowledge base, turned round by a "not".
      const std::string opening = normalised(row.answer).substr(0, 6);
      if (!a.offline && (opening.rfind("true", 0) == 0 || opening.rfind("yes", 0) == 0)) row.choice = "true";
      else if (!a.offline && (opening.rfind("false", 0) == 0 || opening.rfind("no ", 0) == 0)) row.choice = "false";
      else if (row.status != "error" && a.question_entities.size() >= 2) {  // (fewer: undecided)
        std::vector<int64_t> named;
        for (const std::string &n : a.question_entities) {
          const std::set<int64_t> ids = nodes_named(kg, n);
          named.insert(named.end(), ids.begin(), ids.end());
        }
        bool joined = false;
        for (std::size_t i = 0; i < named.size() && !joined; ++i)
          for (std::size_t j = i + 1; j < named.size() && !joined; ++j) joined = !kg.edges_between(named[i], named[j]).empty();
        row.choice = joined != says(q.question, "not") ? "true" : "false";
      }
      row.correct = row.choice == q.answers[0];
      row.hit = row.correct;
    }
    if (q.kind != "entities" && row.choice.empty()) ++res.undecided;
    correct += row.correct;
    hits += row.hit;
    if (!q.reference.empty()) {
      ++res.reference_questions;
      row.rouge_1 = rouge_1_f1(row.answer, q.reference);
      row.rouge_l = rouge_l_f1(row.answer, q.reference);
      r1 += row.rouge_1;
      rl += row.rouge_l;
    }
    sentences += row.sentences;
    supported += row.supported;
    uncited += row.uncited;
    detail::add_usage(res.usage, row.usage);
    res.rows.push_back(std::move(row));
  }
  if (res.entity_questions) {
    const double n = double(res.entity_questions);
    res.mrr = rr / n;
    res.hits_at_1 = h1 / n;
    res.hits_at_5 = h5 / n;
    res.hits_at_10 = h10 / n;
    res.recall_at_k = recall / n;
  }
  if (!questions.empty()) res.hit = hits / double(questions.size());
  if (res.choice_questions) res.accuracy = correct / double(res.choice_questions);
  if (res.reference_questions) {
    res.rouge_1 = r1 / double(res.reference_questions);
    res.rouge_l = rl / double(res.reference_questions);
  }
  if (sentences) {
    res.supported_share = double(supported) / double(sentences);
    res.uncited_share = double(uncited) / double(sentences);
    res.unsupported_share = double(sentences - supported - uncited) / double(sentences);
  }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

json to_json(const QaEvalRow &r) {
  json entities = json::array();
  for (std::size_t i = 0; i < r.answer_entities.size(); ++i)
    entities.push_back({{"rank", i + 1},
                        {"name", r.answer_entities[i].name},
                        {"id", r.answer_entities[i].id},
                        {"score", r.answer_entities[i].score},
                        {"prize", r.answer_entities[i].prize},
                        {"reader_score", r.answer_entities[i].reader_score}});
  json j = {{"id", r.question.id},
            {"question", r.question.question},
            {"kind", r.question.kind},
            {"answers", r.question.answers},
            {"status", r.status},
            {"answer_entities", entities},
            {"answer", r.answer},
            {"hit", r.hit},
            {"sentences", r.sentences},
            {"supported", r.supported},
            {"uncited", r.uncited},
            {"usage", detail::usage_json(r.usage)}};
  if (!r.error.empty()) j["error"] = r.error;
  if (r.question.kind == "entities") {
    j["gold_ranks"] = r.gold_ranks;
    j["gold_resolved"] = r.gold_resolved;
    j["reciprocal_rank"] = r.reciprocal_rank;
  } else {
    j["choice"] = r.choice;
    j["correct"] = r.correct;
  }
  if (!r.question.reference.empty()) {
    j["rouge_1"] = r.rouge_1;
    j["rouge_l"] = r.rouge_l;
  }
  return j;
}

json to_json(const QaEvalResult &r) {
  return {{"questions", r.rows.size()},
          {"entity_questions", r.entity_questions},
          {"k", r.k},
          {"mrr", r.mrr},
          {"hits_at_1", r.hits_at_1},
          {"hits_at_5", r.hits_at_5},
          {"hits_at_10", r.hits_at_10},
          {"recall_at_k", r.recall_at_k},
          {"hit", r.hit},
          {"choice_questions", r.choice_questions},
          {"accuracy", r.accuracy},
          {"undecided", r.undecided},
          {"reference_questions", r.reference_questions},
          {"rouge_1", r.rouge_1},
          {"rouge_l", r.rouge_l},
          {"sentences", {{"supported", r.supported_share}, {"uncited", r.uncited_share}, {"unsupported", r.unsupported_share}}},
          {"errors", r.errors},
          {"reader", r.reader},
          {"usage", detail::usage_json(r.usage)},
          {"seconds", r.seconds},
          {"seconds_per_question", r.rows.empty() ? 0.0 : r.seconds / double(r.rows.size())}};
}

}  // namespace grappi
