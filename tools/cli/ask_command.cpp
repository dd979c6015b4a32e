// grappi ask: a grounded answer to a question, its citations checked (grappi/answer.hpp).
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "common.hpp"

namespace grappi::cli {

namespace {

void add_intent_flags(CLI::App *c, AskOptions &o, bool &no_intents, bool &no_model_intent) {
  c->add_flag("--no-intents", no_intents,
              "Treat every question as open (PCST over the question's prizes), not by its intent (partners, connects, "
              "paths, class)");
  c->add_flag("--no-model-intent", no_model_intent, "Never ask the model for a question's intent (the rules only)");
  c->add_option("--intent-candidates", o.intent_candidates, "Candidates an intent keeps in the subgraph (the best first)")
      ->check(CLI::PositiveNumber);
}

// "partners (rules: one entity and a word of interaction); CDC28 (4932.YBR160W)"
std::string intent_line(const AskResult &r) {
  std::string out = "intent: " + r.analysis.intent;
  if (!r.analysis.topic.empty()) out += " \"" + r.analysis.topic + "\" (" + r.analysis.topic_kind + ")";
  else if (!r.analysis.implied_class.empty()) out += " (" + r.analysis.implied_class + ", implied by the verb)";
  out += " by " + r.analysis.source + (r.analysis.rule.empty() ? "" : " (" + r.analysis.rule + ")");
  if (!r.analysis.model_error.empty()) out += "; the model's reading was not used: " + r.analysis.model_error;
  out += "\nentities:";
  if (r.question_entities.empty()) out += " none found";
  for (std::size_t i = 0; i < r.question_entities.size(); ++i) {
    const QuestionEntity &e = r.question_entities[i];
    out += (i ? ", " : " ") + e.name + " (" + e.id + (e.text != e.name ? ", written \"" + e.text + "\"" : "") +
           (e.status == "ambiguous" ? ", ambiguous: also " + std::to_string(e.alternatives.size()) + " other(s)" : "") + ")";
  }
  return out + "\nretrieval: " + r.recipe + "\n";
}

void add_reader_flags(CLI::App *c, AskOptions &o) {
  c->add_option("--reader", o.reader,
                "How the answer entities are ranked: prize (named, partners, PCST prize) or gat (the stored graph reader)")
      ->check(CLI::IsMember({"prize", "gat"}));
  c->add_option("--reader-name", o.reader_name, "The stored graph reader --reader gat uses (grappi train-reader --list)");
}

struct AskArgs {
  std::string db, question, question_flag, json, report, cx2, html, system_template, answer_template, repair_template,
      intent_template;
  RetrievalArgs r;
  AskOptions o;
  ChatArgs m;
  BudgetArgs budget;  // (one question: no --yes)
  bool keep_question_entities = false, no_repair = false, quiet = false, no_intents = false, no_model_intent = false;
};

void run(AskArgs &a) {
  const std::string question = a.question_flag.empty() ? a.question : a.question_flag;
  if (question.empty()) throw Error(ErrorCode::invalid_argument, "ask: give the question (QUESTION or --question)");
  KnowledgeGraph g = open_graph(a.db, Access::write);
  AskOptions o = a.o;
  o.retrieval = retrieval_options(a.r);
  o.embedding_model = a.r.model;
  o.exclude_question_entities = !a.keep_question_entities;
  o.repair = !a.no_repair;
  o.use_cache = !a.budget.no_cache;
  o.intents = !a.no_intents;
  o.model_intent = !a.no_model_intent;
  o.templates.load(a.system_template, a.answer_template, a.repair_template, a.intent_template);
  auto model = chat_model_of(a.m, 1, "ask");
  const AskResult r = ask(g, *model, question, o);
  if (!a.json.empty()) write_output(a.json, dump_json(to_json(r), 2) + "\n");
  if (!a.report.empty()) write_output(a.report, to_markdown(r));
  if (!a.cx2.empty()) write_output(a.cx2, dump_json(to_cx2(g, r), 1) + "\n");
  if (!a.html.empty()) write_output(a.html, to_html(g, r));
  // (every model request failed: the outputs are written, the reason goes to standard error, exit 1)
  const auto finish = [&r] {
    if (r.status == "failed" && !r.offline) {
      std::cerr << "grappi: ask: the model failed: " << r.error << "\n";
      throw ExitStatus{kExitFailure};
    }
  };
  if (a.quiet || a.json == "-" || a.report == "-" || a.cx2 == "-" || a.html == "-") return finish();
  if (r.status != "dry_run") std::cout << "answer (" << r.answer.form << "): " << r.answer.text << "\n";
  if (!r.answer.note.empty() && r.status != "dry_run") std::cout << "note: " << r.answer.note << "\n";
  std::cout << intent_line(r);
  if (r.status == "dry_run") {
    std::cout << "dry run: at most " << r.planned_calls << " model call(s), about " << r.planned_tokens
              << " prompt tokens for the answer; context " << r.context.tokens << " tokens\n";
    return;
  }
  std::cout << "subgraph: " << r.retrieval.subgraph.nodes.size() << " node(s), " << r.retrieval.subgraph.edges.size()
            << " edge(s); context " << r.context.format << ", about " << r.context.tokens << " tokens";
  if (r.context.trimmed_nodes) std::cout << " (" << r.context.trimmed_nodes << " node(s) left out by the budget)";
  std::cout << "\n";
  for (std::size_t i = 0; i < r.paths.size() && i < 5; ++i) {
    std::cout << (i ? "       " : "paths: ");
    for (std::size_t k = 0; k < r.paths[i].size(); ++k) {
      const auto n = g.node(r.paths[i][k]);
      std::cout << (k ? " -- " : "") << (n ? n->name : std::to_string(r.paths[i][k]));
    }
    std::cout << "\n";
  }
  for (const AnswerSentence &s : r.sentences) std::cout << "- " << s.text << " (" << s.status << ")\n";
  if (r.status != "ok" && r.status != "failed") std::cout << "answer " << r.status << ": " << r.error << "\n";
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < r.answer_entities.size(); ++i) {
    const AnswerEntity &e = r.answer_entities[i];
    // (those the frame does not admit - outside the class asked - are marked and come last)
    rows.push_back({std::to_string(i + 1), e.name + (e.named ? " *" : "") + (e.admitted ? "" : " (not asked)"),
                    fmt(e.score), fmt(e.prize), e.evidence});
    if (r.reader == "gat") rows.back().insert(rows.back().begin() + 4, fmt(e.reader_score));
  }
  if (!rows.empty() && r.reader == "gat")
    print_table({"rank", "answer entity (* named)", "score", "prize", "reader", "evidence"}, rows);
  else if (!rows.empty())
    print_table({"rank", "answer entity (* named)", "score", "prize", "evidence"}, rows);
  if (r.offline) std::cout << "(extractive answer, not generated by a language model)\n";
  finish();
}

}  // namespace

void add_ask(CLI::App &app) {
  auto a = std::make_shared<AskArgs>();
  auto *c = app.add_subcommand("ask", "A grounded answer to a question: the subgraph by PCST, an answer whose citations are "
                                      "checked, the ranked answer entities");
  add_db_option(c, a->db);
  c->add_option("question", a->question, "The question");
  c->add_option("--question", a->question_flag, "The question (instead of the positional one)");
  add_retrieval_flags(c, a->r, "--embedding-model");
  c->add_option("--context", a->o.context, "The context: evidence (each edge's evidence) or csv (G-Retriever's)")
      ->check(CLI::IsMember({"evidence", "csv"}));
  c->add_option("--max-context-tokens", a->o.max_context_tokens,
                "Rough token budget of the context; the lowest-prize nodes go first (0: none)");
  c->add_option("--papers", a->o.papers,
                "Passages of the database's stored papers in the context, cited as P0, P1, ... (0: none)");
  c->add_option("--answers", a->o.top, "Answer entities returned");
  c->add_flag("--keep-question-entities", a->keep_question_entities, "Keep the entities the question names among the answers");
  c->add_flag("--no-repair", a->no_repair, "No turn asking the model to fix unsupported sentences");
  add_intent_flags(c, a->o, a->no_intents, a->no_model_intent);
  add_reader_flags(c, a->o);
  add_chat_flags(c, a->m, "the best-ranked entities with their strongest edges, not a language model");
  add_budget_flags(c, a->budget, a->o.max_calls, &a->o.max_tokens, "of the question", false);
  c->add_flag("--dry-run", a->o.dry_run, "Count the calls and prompt tokens it could take; send nothing");
  c->add_option("--system-template", a->system_template, "File replacing the system prompt");
  c->add_option("--answer-template", a->answer_template, "File replacing the answer prompt");
  c->add_option("--repair-template", a->repair_template, "File replacing the repair prompt");
  c->add_option("--intent-template", a->intent_template, "File replacing the prompt asking the model for a question's intent");
  add_output_flags(c, a->json, a->quiet, "the result");
  c->add_option("--report", a->report, "Write a Markdown report ('-' for standard output)");
  c->add_option("--cx2", a->cx2, "Write the subgraph as a CX2 network ('-' for standard output)");
  c->add_option("--html", a->html, "Write a self-contained HTML report (the subgraph drawn, the answer checked, the answer entities ranked)");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli

namespace grappi::cli {

namespace {

struct EvalQaArgs {
  std::string db, questions, json, per_question;
  RetrievalArgs r;
  QaEvalOptions o;
  ChatArgs m;
  BudgetArgs budget;
  bool keep_question_entities = false, no_repair = false, quiet = false, no_intents = false, no_model_intent = false;
};

std::string share(std::size_t part, std::size_t whole) {
  return whole ? fmt(double(part) / double(whole)) + " (" + std::to_string(part) + "/" + std::to_string(whole) + ")" : "-";
}

void run_eval_qa(EvalQaArgs &a) {
  const std::vector<QaQuestion> questions = read_qa_questions(a.questions);
  KnowledgeGraph g = open_graph(a.db, Access::write);
  QaEvalOptions o = a.o;
  o.ask.retrieval = retrieval_options(a.r);
  o.ask.embedding_model = a.r.model;
  o.ask.exclude_question_entities = !a.keep_question_entities;
  o.ask.repair = !a.no_repair;
  a.budget.apply(o.ask.use_cache, o.confirm_calls);
  o.ask.intents = !a.no_intents;
  o.ask.model_intent = !a.no_model_intent;
  auto model = chat_model_of(a.m, 1, "eval qa");
  const QaEvalResult r = evaluate_qa(g, *model, questions, o);
  if (!a.json.empty()) write_output(a.json, dump_json(to_json(r), 2) + "\n");
  if (!a.per_question.empty()) {
    std::string lines;
    for (const QaEvalRow &row : r.rows) lines += dump_json(to_json(row)) + "\n";
    write_output(a.per_question, lines);
  }
  if (a.quiet || a.json == "-" || a.per_question == "-") return;
  std::vector<std::vector<std::string>> rows;
  if (r.entity_questions) {
    // grappi's figures beside the baselines on the same questions.
    const auto line = [&](const std::string &name, double QaRankFigures::*f, double mine) {
      rows.push_back({name, fmt(mine), fmt(r.baseline_random.*f), fmt(r.baseline_by_score.*f), std::to_string(r.entity_questions)});
    };
    line("MRR", &QaRankFigures::mrr, r.mrr);
    line("Hits@1", &QaRankFigures::hits_at_1, r.hits_at_1);
    line("Hits@5", &QaRankFigures::hits_at_5, r.hits_at_5);
    line("Hits@10", &QaRankFigures::hits_at_10, r.hits_at_10);
    line("Recall@" + std::to_string(r.k), &QaRankFigures::recall_at_k, r.recall_at_k);
    rows.push_back({"retrieval recall (a gold answer in the subgraph)", fmt(r.retrieval_recall), "", "",
                    std::to_string(r.entity_questions)});
    print_table({"figure", "grappi", "baseline: neighbours, random", "baseline: neighbours by score", "questions"}, rows);
    rows.clear();
    std::vector<std::vector<std::string>> intents;
    for (const QaIntentFigures &x : r.by_intent)
      intents.push_back({x.intent, std::to_string(x.answers.questions), fmt(x.answers.mrr), fmt(x.random.mrr),
                         fmt(x.by_score.mrr), fmt(x.answers.hits_at_10), fmt(x.retrieval_recall)});
    if (!intents.empty())
      print_table({"intent (recognised)", "questions", "MRR", "random", "by score", "Hits@10", "retrieval recall"}, intents);
  }
  if (!r.by_form.empty()) {
    // Each form's figure beside its baselines on the same questions.
    std::vector<std::vector<std::string>> forms;
    for (const QaFormFigures &x : r.by_form) {
      std::string baselines;
      for (const auto &[name, v] : x.baselines) baselines += (baselines.empty() ? "" : ", ") + name + " " + fmt(v);
      forms.push_back({x.form, std::to_string(x.questions), x.measure, fmt(x.value), baselines.empty() ? "-" : baselines});
    }
    print_table({"form", "questions", "measure", "grappi", "baselines (same questions)"}, forms);
  }
  rows.push_back({"Hit (G-Retriever)", fmt(r.hit), std::to_string(r.rows.size())});
  if (r.choice_questions) {
    rows.push_back({"accuracy (choice, true/false)", fmt(r.accuracy), std::to_string(r.choice_questions)});
    rows.push_back({"baseline: the option or label most often right in the other questions", fmt(r.baseline_prior_accuracy),
                    std::to_string(r.choice_questions)});
    rows.push_back({"undecided (counted wrong)", std::to_string(r.undecided), std::to_string(r.choice_questions)});
  }
  if (r.reference_questions) {
    rows.push_back({"ROUGE-1 F1", fmt(r.rouge_1), std::to_string(r.reference_questions)});
    rows.push_back({"ROUGE-L F1", fmt(r.rouge_l), std::to_string(r.reference_questions)});
  }
  rows.push_back({"questions naming an entity found", share(r.questions_with_entities, r.rows.size()), ""});
  if (r.entities_expected) rows.push_back({"entities linked (of those the set names)", share(r.entities_linked, r.entities_expected), ""});
  if (r.intents_expected) rows.push_back({"intents recognised (as the set says)", share(r.intents_recognised, r.intents_expected), ""});
  if (r.model_sentences) {
    rows.push_back({"model sentences supported", fmt(r.supported_share), std::to_string(r.model_sentences)});
    rows.push_back({"model sentences uncited", fmt(r.uncited_share), std::to_string(r.model_sentences)});
    rows.push_back({"model sentences unsupported", fmt(r.unsupported_share), std::to_string(r.model_sentences)});
  }
  if (r.extractive_sentences)
    rows.push_back({"extractive sentences (not a model's)", std::to_string(r.extractive_sentences), ""});
  print_table({"figure", "value", "questions"}, rows);
  std::cout << r.rows.size() << " question(s) in " << fmt(r.seconds, 2) << " s; " << r.usage.model_calls << " model call(s), "
            << r.usage.cache_hits << " cache hit(s), " << r.usage.prompt_tokens + r.usage.completion_tokens << " token(s)";
  if (r.errors) std::cout << "; " << r.errors << " question(s) could not be answered (see --per-question)";
  if (!r.rows.empty())
    std::cout << "; ask per question p50 " << fmt(r.ask_seconds_p50 * 1000, 1) << " ms, p95 " << fmt(r.ask_seconds_p95 * 1000, 1) << " ms";
  std::cout << "\n";
  if (model->local()) std::cout << "(extractive answers, not generated by a language model)\n";
}

}  // namespace

void add_eval_qa(CLI::App &eval) {
  auto a = std::make_shared<EvalQaArgs>();
  auto *c = eval.add_subcommand("qa", "Answers against gold answers: Hits@K, Recall@K, MRR, Hit, accuracy, ROUGE, citations");
  add_db_option(c, a->db);
  c->add_option("--questions", a->questions, "JSON lines {question, answers, options?, reference?} or a KG-RAG CSV file")
      ->required();
  c->add_option("--k", a->o.k, "The K of Recall@K")->check(CLI::PositiveNumber);
  add_retrieval_flags(c, a->r, "--embedding-model");
  c->add_option("--context", a->o.ask.context, "The context: evidence or csv")->check(CLI::IsMember({"evidence", "csv"}));
  c->add_option("--max-context-tokens", a->o.ask.max_context_tokens, "Rough token budget of each context (0: none)");
  c->add_option("--papers", a->o.ask.papers, "Passages of the database's stored papers in each context (0: none)");
  c->add_flag("--keep-question-entities", a->keep_question_entities, "Keep the entities a question names among its answers");
  c->add_flag("--no-repair", a->no_repair, "No turn asking the model to fix unsupported sentences");
  add_intent_flags(c, a->o.ask, a->no_intents, a->no_model_intent);
  add_reader_flags(c, a->o.ask);
  add_chat_flags(c, a->m, "the best-ranked entities with their strongest edges, not a language model");
  add_budget_flags(c, a->budget, a->o.ask.max_calls, nullptr, "per question");
  c->add_option("--baseline-seed", a->o.seed, "Seed of the random neighbour baseline's order");
  add_output_flags(c, a->json, a->quiet, "the summary");
  c->add_option("--per-question", a->per_question, "Write each question's outcome as a JSON line ('-' for standard output)");
  c->callback([a] { run_eval_qa(*a); });
}

}  // namespace grappi::cli
