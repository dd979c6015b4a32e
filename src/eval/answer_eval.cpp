// The evaluation of answers (grappi/answer.hpp, evaluate_qa): each question asked, its ranked
// answer entities scored against the gold answers (Hits@K, Recall@K, MRR), G-Retriever's Hit,
// multiple-choice and true/false accuracy, ROUGE against reference answers, sentence statuses.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <unordered_map>

#include "agents/ask/answer_impl.hpp"
#include "common/answer_json.hpp"
#include "grappi/graph_embeddings.hpp"
#include "grappi/answer.hpp"
#include "grappi/error.hpp"
#include "grappi/hypothesis.hpp"
#include "grappi/reader.hpp"
#include "grappi/snapshot.hpp"
#include "grappi/vector_index.hpp"
#include "models/model_calls.hpp"
#include "common/text_util.hpp"

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

// What is asked: the question as written (a true/false statement too: ask reads it as a claim to check, and its
// answer's value is judged); a choice question's options listed when it does not list them.
std::string asked_text(const QaQuestion &q) {
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

namespace {

// Rank figures accumulated over questions.
struct RankSums {
  std::size_t n = 0;
  double rr = 0, h1 = 0, h5 = 0, h10 = 0, recall = 0;
  void add(const std::vector<std::size_t> &gold_ranks, std::size_t answers, std::size_t k) {
    ++n;
    std::size_t first = 0, within = 0;
    for (std::size_t r : gold_ranks) {
      if (r && (!first || r < first)) first = r;
      within += r && r <= k;
    }
    rr += first ? 1.0 / double(first) : 0.0;
    h1 += first == 1;
    h5 += first && first <= 5;
    h10 += first && first <= 10;
    recall += answers ? double(within) / double(answers) : 0.0;
  }
  QaRankFigures figures() const {
    QaRankFigures f;
    f.questions = n;
    if (!n) return f;
    const double d = double(n);
    f.mrr = rr / d, f.hits_at_1 = h1 / d, f.hits_at_5 = h5 / d, f.hits_at_10 = h10 / d, f.recall_at_k = recall / d;
    return f;
  }
};

// 1-based rank of the first of `order` among `nodes` (0: none).
std::size_t rank_in(const std::vector<int64_t> &order, const std::set<int64_t> &nodes) {
  for (std::size_t i = 0; i < order.size(); ++i)
    if (nodes.count(order[i])) return i + 1;
  return 0;
}

// The named-entity neighbour baselines' orders: the question's entities' neighbours (the
// entities left out), by best edge score and in a seeded random order.
void neighbour_orders(const KnowledgeGraph &kg, const std::vector<QuestionEntity> &entities, uint64_t seed,
                      std::vector<int64_t> &by_score, std::vector<int64_t> &random) {
  by_score.clear();
  random.clear();
  const auto snapshot = kg.snapshot();
  std::unordered_map<int64_t, double> best;
  std::set<int64_t> asked;
  for (const QuestionEntity &e : entities) asked.insert(e.node);
  for (const QuestionEntity &e : entities)
    for (const Neighbor &n : snapshot->neighbors(e.node)) {
      if (asked.count(n.node) || snapshot->relation_name(n.relation).rfind("mitab.negative.", 0) == 0) continue;
      auto it = best.find(n.node);
      if (it == best.end()) best.emplace(n.node, n.score);
      else it->second = std::max(it->second, n.score);
    }
  for (const auto &[node, score] : best) by_score.push_back(node);
  std::sort(by_score.begin(), by_score.end(), [&](int64_t a, int64_t b) {
    return best.at(a) != best.at(b) ? best.at(a) > best.at(b) : a < b;
  });
  random = by_score;
  std::sort(random.begin(), random.end());
  std::mt19937_64 rng(seed);
  std::shuffle(random.begin(), random.end(), rng);
}

// Per answer form: the figure and its baselines' sums over the questions.
struct FormTally {
  std::size_t n = 0;
  double value = 0;
  std::map<std::string, double> baselines;
};

// What evaluate_qa sums over the questions.
struct QaTally {
  double hits = 0, correct = 0, r1 = 0, rl = 0, prior_correct = 0, gold_share = 0;
  std::size_t supported = 0, uncited = 0, extractive = 0, sentences = 0, retrieved_any = 0;
  RankSums all, random_all, score_all;
  std::map<std::string, RankSums> per_answers, per_random, per_score;
  std::map<std::string, std::pair<std::size_t, double>> per_retrieved;  // intent -> (questions with gold retrieved, gold share sum)
  std::map<std::string, FormTally> per_form;
};

// A question asked (its options as choices), the row's status, entities, intent and sentences;
// an error is the row's, counted, with the entities and intent the question still has.
AskResult ask_for_row(KnowledgeGraph &kg, LanguageModel &model, const QaQuestion &q, const AskOptions &ao, QaEvalRow &row,
                      QaEvalResult &res) {
  AskResult a;
  try {
    if (q.kind == "choice") {
      AskOptions with_options = ao;
      with_options.choices = q.options;
      a = ask(kg, model, asked_text(q), with_options);
    } else {
      a = ask(kg, model, asked_text(q), ao);
    }
    row.status = a.status;
    row.error = a.error;
  } catch (const Error &e) {
    row.status = "error";
    row.error = e.what();
    ++res.errors;
    try {  // (the entities and intent still say what went wrong)
      a.analysis = ao.analyzer->analyze(asked_text(q));
      a.question_entities = a.analysis.entities;
    } catch (const Error &) {
    }
  }
  row.answer_entities = a.answer_entities;
  row.form_answer = a.answer;
  row.usage = a.usage;
  row.question_entities = a.question_entities;
  row.intent = a.analysis.intent;
  row.intent_source = a.analysis.source;
  res.questions_with_entities += !row.question_entities.empty();
  if (!q.intent.empty()) {
    ++res.intents_expected;
    res.intents_recognised += detail::iequals(q.intent, row.intent);
  }
  for (const std::string &name : q.entities) {
    ++row.entities_expected;
    const std::set<int64_t> nodes = detail::nodes_named(kg, name);
    row.entities_linked += std::any_of(row.question_entities.begin(), row.question_entities.end(),
                                       [&](const QuestionEntity &e) { return nodes.count(e.node) > 0; });
  }
  res.entities_expected += row.entities_expected;
  res.entities_linked += row.entities_linked;
  for (const AnswerSentence &s : a.sentences) {
    row.answer += (row.answer.empty() ? "" : " ") + s.text;
    ++row.sentences;
    row.supported += s.status == "supported";
    row.uncited += s.status == "uncited";
    row.extractive += s.status == "extractive";
  }
  return a;
}

// An entities question: the gold answers' ranks among the answer entities and among the
// neighbour baselines (random, by edge score), whether the subgraph held them; `said` is the
// answer's text with its entities' names.
void rank_gold(const KnowledgeGraph &kg, const QaQuestion &q, const AskResult &a, uint64_t seed, std::size_t k,
               const std::string &said, QaEvalRow &row, QaTally &t) {
  const std::set<int64_t> subgraph(a.retrieval.subgraph.nodes.begin(), a.retrieval.subgraph.nodes.end());
  std::vector<int64_t> by_score, random;
  neighbour_orders(kg, row.question_entities, seed, by_score, random);
  std::vector<std::size_t> random_ranks, score_ranks;
  std::size_t first = 0;
  for (const std::string &g : q.answers) {
    const std::set<int64_t> nodes = detail::nodes_named(kg, g);
    row.gold_resolved += !nodes.empty();
    row.gold_retrieved += std::any_of(nodes.begin(), nodes.end(), [&](int64_t n) { return subgraph.count(n) > 0; });
    const std::size_t rank = rank_among(row.answer_entities, nodes);
    row.gold_ranks.push_back(rank);
    if (rank && (!first || rank < first)) first = rank;
    random_ranks.push_back(rank_in(random, nodes));
    score_ranks.push_back(rank_in(by_score, nodes));
  }
  row.reciprocal_rank = first ? 1.0 / double(first) : 0.0;
  const auto rr_of = [](const std::vector<std::size_t> &ranks) {
    std::size_t f = 0;
    for (std::size_t r : ranks)
      if (r && (!f || r < f)) f = r;
    return f ? 1.0 / double(f) : 0.0;
  };
  row.baseline_random_rr = rr_of(random_ranks);
  row.baseline_score_rr = rr_of(score_ranks);
  t.all.add(row.gold_ranks, q.answers.size(), k);
  t.random_all.add(random_ranks, q.answers.size(), k);
  t.score_all.add(score_ranks, q.answers.size(), k);
  t.per_answers[row.intent].add(row.gold_ranks, q.answers.size(), k);
  t.per_random[row.intent].add(random_ranks, q.answers.size(), k);
  t.per_score[row.intent].add(score_ranks, q.answers.size(), k);
  const double share = q.answers.empty() ? 0.0 : double(row.gold_retrieved) / double(q.answers.size());
  t.retrieved_any += row.gold_retrieved > 0;
  t.gold_share += share;
  auto &pr = t.per_retrieved[row.intent];
  pr.first += row.gold_retrieved > 0;
  pr.second += share;
  row.hit = std::any_of(q.answers.begin(), q.answers.end(), [&](const std::string &g) {
    const std::string n = normalised(g);
    return !n.empty() && normalised(said).find(n) != std::string::npos;
  });
}

// The prior of a choice or true/false question: the option (or label) most often right in the
// other questions (`answer_count`: how often each is right over the whole set); ties go to the
// option listed first.
std::string prior_label(const QaQuestion &q, const std::map<std::string, std::size_t> &answer_count) {
  std::string prior;
  std::size_t prior_count = 0;
  const std::string own = q.answers.empty() ? std::string() : detail::lower_copy(q.answers[0]);
  const std::vector<std::string> labels = q.kind == "choice" ? q.options : std::vector<std::string>{"true", "false"};
  for (const std::string &opt : labels) {
    const auto it = answer_count.find(detail::lower_copy(opt));
    const std::size_t c = (it == answer_count.end() ? 0 : it->second) - (detail::lower_copy(opt) == own ? 1 : 0);
    if (prior.empty() || c > prior_count) prior = opt, prior_count = c;
  }
  return prior;
}

// A choice question's answer: the option the answer ranks first among its entities, else the
// one it names first, else the option whose node is most similar to the question.
void choose_option(const KnowledgeGraph &kg, const QaQuestion &q, const AskOptions &ao, const std::string &said,
                   QaEvalRow &row) {
  std::size_t best_rank = 0, best_at = std::string::npos;
  for (const std::string &opt : q.options) {
    const std::size_t rank = rank_among(row.answer_entities, detail::nodes_named(kg, opt));
    if (rank && (!best_rank || rank < best_rank)) best_rank = rank, row.choice = opt;
  }
  if (row.choice.empty())
    for (const std::string &opt : q.options) {
      const std::size_t at = normalised(row.answer).find(normalised(opt));
      if (at != std::string::npos && at < best_at) best_at = at, row.choice = opt;
    }
  if (row.choice.empty() && row.status != "error") {
    try {
      const std::vector<float> qv = grappi::query_vector(kg, asked_text(q), ao.embedding_model);
      const auto vectors = grappi::graph_vectors(kg, ao.embedding_model);
      double best = -2;
      for (const std::string &opt : q.options)
        for (int64_t n : detail::nodes_named(kg, opt))
          if (const float *v = vectors->vector(n)) {
            const double c = cosine(qv.data(), v, vectors->dim());
            if (c > best) best = c, row.choice = opt;
          }
    } catch (const Error &) {
    }
  }
  row.correct = !row.choice.empty() && detail::iequals(row.choice, q.answers[0]);
  row.hit = says(said, q.answers[0]);
}

// A true/false question's verdict: the answer's value in the yes/no form (undecided when ask read another form, or
// the database cannot say). The edge look-up baseline: true when two entities the question names are joined by an
// edge of any score, turned round by a "not" (fewer than two entities: undecided).
void judge_statement(const KnowledgeGraph &kg, const QaQuestion &q, const AskResult &a, QaEvalRow &row) {
  if (a.answer.form == "yes_no" && a.answer.value.is_boolean()) row.choice = a.answer.value.get<bool>() ? "true" : "false";
  row.correct = row.choice == q.answers[0];
  row.hit = row.correct;
  if (a.question_entities.size() >= 2) {
    bool joined = false;
    for (std::size_t i = 0; i < a.question_entities.size() && !joined; ++i)
      for (std::size_t j = i + 1; j < a.question_entities.size() && !joined; ++j)
        joined = !kg.edges_between(a.question_entities[i].node, a.question_entities[j].node).empty();
    row.baseline_lookup = joined != says(q.question, "not") ? "true" : "false";
  }
}

// The set's figures from the tally.
void summarise_qa(const QaTally &t, std::size_t questions, QaEvalResult &res) {
  const QaRankFigures f = t.all.figures();
  res.mrr = f.mrr, res.hits_at_1 = f.hits_at_1, res.hits_at_5 = f.hits_at_5, res.hits_at_10 = f.hits_at_10;
  res.recall_at_k = f.recall_at_k;
  res.baseline_random = t.random_all.figures();
  res.baseline_by_score = t.score_all.figures();
  if (res.entity_questions) {
    res.retrieval_recall = double(t.retrieved_any) / double(res.entity_questions);
    res.gold_in_subgraph = t.gold_share / double(res.entity_questions);
  }
  for (const std::string &intent : question_intents()) {
    const auto it = t.per_answers.find(intent);
    if (it == t.per_answers.end()) continue;
    QaIntentFigures x;
    x.intent = intent;
    x.answers = it->second.figures();
    x.random = t.per_random.at(intent).figures();
    x.by_score = t.per_score.at(intent).figures();
    const auto &pr = t.per_retrieved.at(intent);
    x.retrieval_recall = double(pr.first) / double(it->second.n);
    x.gold_in_subgraph = pr.second / double(it->second.n);
    res.by_intent.push_back(std::move(x));
  }
  for (const char *form : {"list", "choice", "yes_no", "count", "path", "unsupported"}) {
    const auto it = t.per_form.find(form);
    if (it == t.per_form.end() || !it->second.n) continue;
    QaFormFigures x;
    x.form = form;
    x.questions = it->second.n;
    const std::string kind = form;
    x.measure = kind == "list" || kind == "path"      ? "mrr"
                : kind == "yes_no" || kind == "choice" ? "accuracy"
                : kind == "count"                      ? "exact"
                                                       : "marked";
    x.value = it->second.value / double(x.questions);
    for (const auto &[name, sum] : it->second.baselines) x.baselines.emplace_back(name, sum / double(x.questions));
    res.by_form.push_back(std::move(x));
  }
  if (questions) res.hit = t.hits / double(questions);
  if (res.choice_questions) {
    res.accuracy = t.correct / double(res.choice_questions);
    res.baseline_prior_accuracy = t.prior_correct / double(res.choice_questions);
  }
  if (res.reference_questions) {
    res.rouge_1 = t.r1 / double(res.reference_questions);
    res.rouge_l = t.rl / double(res.reference_questions);
  }
  res.extractive_sentences = t.extractive;
  res.model_sentences = t.sentences - t.extractive;
  if (res.model_sentences) {
    const double n = double(res.model_sentences);
    res.supported_share = double(t.supported) / n;
    res.uncited_share = double(t.uncited) / n;
    res.unsupported_share = double(res.model_sentences - t.supported - t.uncited) / n;
  }
}

}  // namespace

QaEvalResult evaluate_qa(KnowledgeGraph &kg, LanguageModel &model, const std::vector<QaQuestion> &questions,
                         const QaEvalOptions &o) {
  if (o.k == 0) throw Error(ErrorCode::invalid_argument, "eval qa: k must be at least 1");
  if (!o.ask.dry_run)
    detail::confirm_calls("eval qa", questions.size() * (1 + o.ask.repair + o.ask.model_intent), o.confirm_calls,
                          o.ask.max_calls, model, "per question: the answer, its repair turn and the intent when asked",
                          "fewer questions");
  const auto t0 = std::chrono::steady_clock::now();
  QaEvalResult res;
  res.k = o.k;
  AskOptions ao = o.ask;
  ao.top = std::max({ao.top, o.k, std::size_t{10}});
  if (ao.reader == "gat" && !ao.gat) ao.gat = std::make_shared<const GatReader>(GatReader::load(kg, ao.reader_name));
  if (!ao.analyzer) ao.analyzer = std::make_shared<const QuestionAnalyzer>(kg);
  res.reader = ao.reader;
  QaTally t;
  // The option-frequency prior and the majority label: how often each option or label is the
  // right answer over the whole set (each question's own answer taken out when it is used).
  std::map<std::string, std::size_t> answer_count;
  for (const QaQuestion &q : questions)
    if ((q.kind == "choice" || q.kind == "true_false") && !q.answers.empty()) ++answer_count[detail::lower_copy(q.answers[0])];
  // The count questions' gold numbers, sorted (the median baseline leaves each question's own out).
  std::vector<double> counts;
  for (const QaQuestion &q : questions)
    if (q.kind == "count") counts.push_back(std::stod(q.answers[0]));
  std::sort(counts.begin(), counts.end());
  for (std::size_t qi = 0; qi < questions.size(); ++qi) {
    const QaQuestion &q = questions[qi];
    QaEvalRow row;
    row.question = q;
    const AskResult a = ask_for_row(kg, model, q, ao, row, res);
    std::string said = row.answer;  // (the entities' names count as said: the offline answer is them)
    for (const AnswerEntity &e : row.answer_entities) said += " " + e.name;
    // (a multiple-choice question is judged by accuracy: a figure of its own, not the list questions' MRR)
    FormTally &ft = t.per_form[q.kind == "choice" ? "choice" : q.form];
    ++ft.n;
    if (q.kind == "entities") {
      ++res.entity_questions;
      rank_gold(kg, q, a, o.seed + qi, o.k, said, row, t);
      ft.value += row.reciprocal_rank;
      ft.baselines["neighbours_random"] += row.baseline_random_rr;
      ft.baselines["neighbours_by_score"] += row.baseline_score_rr;
    } else if (q.kind == "count") {
      // (the answer's value in the count form; the set's median count, this question's own left out)
      if (a.answer.form == "count" && a.answer.value.is_number_integer()) row.choice = std::to_string(a.answer.value.get<int64_t>());
      row.correct = row.choice == q.answers[0];
      std::vector<double> others = counts;
      others.erase(std::lower_bound(others.begin(), others.end(), std::stod(q.answers[0])));
      if (!others.empty())
        row.baseline_median = others.size() % 2 ? others[others.size() / 2]
                                                : std::round((others[others.size() / 2 - 1] + others[others.size() / 2]) / 2);
      ft.value += row.correct;
      ft.baselines["median"] += !others.empty() && std::to_string(static_cast<int64_t>(row.baseline_median)) == q.answers[0];
    } else if (q.kind == "unsupported") {
      row.correct = a.answer.form == "unsupported" || (row.status != "ok" && row.status != "failed");
      ft.value += row.correct;
    } else {
      ++res.choice_questions;
      const bool prior = !q.answers.empty() && detail::iequals(prior_label(q, answer_count), q.answers[0]);
      t.prior_correct += prior;
      if (q.kind == "choice") choose_option(kg, q, ao, said, row);
      else judge_statement(kg, q, a, row);
      if (row.choice.empty()) ++res.undecided;
      ft.value += row.correct;
      if (q.kind == "true_false") {
        ft.baselines["always_yes"] += q.answers[0] == "true";
        ft.baselines["edge_lookup"] += row.baseline_lookup == q.answers[0];
      } else {
        ft.baselines["prior"] += prior;
      }
    }
    if (q.kind == "choice" || q.kind == "true_false") t.correct += row.correct;
    t.hits += row.hit;
    if (!q.reference.empty()) {
      ++res.reference_questions;
      row.rouge_1 = rouge_1_f1(row.answer, q.reference);
      row.rouge_l = rouge_l_f1(row.answer, q.reference);
      t.r1 += row.rouge_1;
      t.rl += row.rouge_l;
    }
    t.sentences += row.sentences;
    t.supported += row.supported;
    t.uncited += row.uncited;
    t.extractive += row.extractive;
    detail::add_usage(res.usage, row.usage);
    res.rows.push_back(std::move(row));
  }
  summarise_qa(t, questions.size(), res);
  std::vector<double> times;
  for (const QaEvalRow &r : res.rows) times.push_back(r.usage.seconds);
  std::sort(times.begin(), times.end());
  if (!times.empty()) {
    const auto nearest = [&](double p) { return times[static_cast<std::size_t>(std::ceil(p * double(times.size()))) - 1]; };
    res.ask_seconds_p50 = nearest(0.5);
    res.ask_seconds_p95 = nearest(0.95);
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
            {"answer",
             {{"form", r.form_answer.form}, {"value", r.form_answer.value}, {"text", r.form_answer.text}}},
            {"answer_text", r.answer},
            {"form", r.question.form},
            {"hit", r.hit},
            {"sentences", r.sentences},
            {"supported", r.supported},
            {"uncited", r.uncited},
            {"extractive", r.extractive},
            {"intent", r.intent},
            {"intent_source", r.intent_source},
            {"question_entities", [&] {
               json e = json::array();
               for (const QuestionEntity &x : r.question_entities) e.push_back(to_json(x));
               return e;
             }()},
            {"usage", detail::usage_json(r.usage)}};
  if (!r.error.empty()) j["error"] = r.error;
  if (!r.question.intent.empty()) j["expected_intent"] = r.question.intent;
  if (r.entities_expected) j["entities_expected"] = r.entities_expected, j["entities_linked"] = r.entities_linked;
  if (r.question.kind == "entities") {
    j["gold_ranks"] = r.gold_ranks;
    j["gold_resolved"] = r.gold_resolved;
    j["gold_retrieved"] = r.gold_retrieved;
    j["retrieved"] = r.gold_retrieved > 0;
    j["reciprocal_rank"] = r.reciprocal_rank;
    j["baseline_random_rr"] = r.baseline_random_rr;
    j["baseline_score_rr"] = r.baseline_score_rr;
  } else {
    j["choice"] = r.choice;
    j["correct"] = r.correct;
    if (r.question.kind == "true_false") j["baseline_lookup"] = r.baseline_lookup;
    if (r.question.kind == "count") j["baseline_median"] = r.baseline_median;
  }
  if (!r.question.reference.empty()) {
    j["rouge_1"] = r.rouge_1;
    j["rouge_l"] = r.rouge_l;
  }
  return j;
}

namespace {

json figures_json(const QaRankFigures &f) {
  return {{"questions", f.questions}, {"mrr", f.mrr},         {"hits_at_1", f.hits_at_1},
          {"hits_at_5", f.hits_at_5}, {"hits_at_10", f.hits_at_10}, {"recall_at_k", f.recall_at_k}};
}

}  // namespace

json to_json(const QaEvalResult &r) {
  json intents = json::object();
  for (const QaIntentFigures &x : r.by_intent)
    intents[x.intent] = {{"answers", figures_json(x.answers)},
                         {"baseline_random", figures_json(x.random)},
                         {"baseline_by_score", figures_json(x.by_score)},
                         {"retrieval_recall", x.retrieval_recall},
                         {"gold_in_subgraph", x.gold_in_subgraph}};
  json forms = json::object();
  for (const QaFormFigures &x : r.by_form) {
    json b = json::object();
    for (const auto &[name, v] : x.baselines) b[name] = v;
    forms[x.form] = {{"questions", x.questions}, {"measure", x.measure}, {"value", x.value}, {"baselines", b}};
  }
  json j = {{"questions", r.rows.size()},
            {"by_form", forms},
            {"entity_questions", r.entity_questions},
            {"k", r.k},
            {"mrr", r.mrr},
            {"hits_at_1", r.hits_at_1},
            {"hits_at_5", r.hits_at_5},
            {"hits_at_10", r.hits_at_10},
            {"recall_at_k", r.recall_at_k},
            {"retrieval_recall", r.retrieval_recall},
            {"gold_in_subgraph", r.gold_in_subgraph},
            {"baselines",
             {{"neighbours_random", figures_json(r.baseline_random)},
              {"neighbours_by_score", figures_json(r.baseline_by_score)},
              {"prior_accuracy", r.baseline_prior_accuracy}}},
            {"by_intent", intents},
            {"questions_with_entities", r.questions_with_entities},
            {"hit", r.hit},
            {"choice_questions", r.choice_questions},
            {"accuracy", r.accuracy},
            {"undecided", r.undecided},
            {"reference_questions", r.reference_questions},
            {"rouge_1", r.rouge_1},
            {"rouge_l", r.rouge_l},
            {"sentences",
             {{"model", r.model_sentences},
              {"extractive", r.extractive_sentences},
              {"supported", r.supported_share},
              {"uncited", r.uncited_share},
              {"unsupported", r.unsupported_share}}},
            {"errors", r.errors},
            {"reader", r.reader},
            {"usage", detail::usage_json(r.usage)},
            {"seconds", r.seconds},
            {"seconds_per_question", r.rows.empty() ? 0.0 : r.seconds / double(r.rows.size())},
            {"ask_seconds", {{"p50", r.ask_seconds_p50}, {"p95", r.ask_seconds_p95}}}};
  if (r.entities_expected) j["entities"] = {{"expected", r.entities_expected}, {"linked", r.entities_linked}};
  if (r.intents_expected) j["intents"] = {{"expected", r.intents_expected}, {"recognised", r.intents_recognised}};
  return j;
}

QaEvalResult evaluate_qa(KnowledgeGraph &kg, const std::vector<QaQuestion> &questions, const QaEvalOptions &options) {
  return evaluate_qa(kg, run_model(options.ask), questions, options);
}

}  // namespace grappi
