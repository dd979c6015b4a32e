// grappi train-reader: trains the graph reader on a question set and stores it in the database
// (grappi/reader.hpp); --list shows the stored readers.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct TrainReaderArgs {
  std::string db, train, valid, json;
  RetrievalArgs r;
  ReaderTrainOptions o;
  bool list = false, quiet = false, no_intents = false;
};

void list_readers(const TrainReaderArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  const nlohmann::json readers = stored_readers(g);
  if (!a.json.empty()) write_output(a.json, dump_json(readers, 2) + "\n");
  if (a.quiet || a.json == "-") return;
  std::vector<std::vector<std::string>> rows;
  for (const auto &r : readers) {
    const auto &info = r.value("info", nlohmann::json::object());
    const auto &training = info.value("training", nlohmann::json::object());
    const auto count = [&](const char *k) { return std::to_string(training.value(k, std::size_t{0})); };
    // (readers stored before the kept share was recorded show "?")
    const bool kept = training.contains("kept_share");
    rows.push_back({r.value("name", ""), info.value("scope", "?"), info.value("embedding_model", "?"),
                    count("questions") + " + " + count("valid_questions"),
                    kept ? count("train_kept") + " + " + count("valid_kept") + " (" + fmt(training.value("kept_share", 0.0), 2) + ")"
                         : "?",
                    count("train_examples") + " / " + count("valid_examples"), fmt(training.value("valid_mrr", 0.0)),
                    kept ? fmt(training.value("valid_mrr_all", 0.0)) : "?", r.value("created_at", "")});
  }
  if (rows.empty())
    std::cout << "no graph reader stored (train one with grappi train-reader)\n";
  else
    print_table({"name", "scope", "embedding model", "questions (train + valid)", "kept (share)", "split (train / valid)",
                 "valid MRR (kept)", "valid MRR (all)", "stored"},
                rows);
}

void run(TrainReaderArgs &a) {
  if (a.list) return list_readers(a);
  if (a.train.empty()) throw Error(ErrorCode::invalid_argument, "train-reader: give the training questions (--train FILE)");
  const std::vector<QaQuestion> train = read_qa_questions(a.train);
  const std::vector<QaQuestion> valid = a.valid.empty() ? std::vector<QaQuestion>{} : read_qa_questions(a.valid);
  KnowledgeGraph g = open_graph(a.db, Access::write);  // (never creates one: a mistyped path is an error)
  ReaderTrainOptions o = a.o;
  o.ask.retrieval = retrieval_options(a.r);
  o.ask.embedding_model = a.r.model;
  o.ask.intents = !a.no_intents;
  ProgressBar bar;
  o.progress_examples = [&bar](std::size_t done, std::size_t total) {
    bar("subgraphs", done, total, std::to_string(done) + "/" + std::to_string(total));
  };
  const bool talk = !a.quiet && a.json != "-";
  o.progress = [&](const ReaderEpoch &e) {
    bar("training", e.epoch, o.gat.epochs, "epoch " + std::to_string(e.epoch));
    if (!talk) return;
    std::cout << "epoch " << e.epoch << ": train loss " << fmt(e.train_loss, 4);
    if (e.valid_mrr > 0 || e.valid_loss > 0)
      std::cout << ", valid loss " << fmt(e.valid_loss, 4) << ", MRR " << fmt(e.valid_mrr) << ", Hits@1 "
                << fmt(e.valid_hits_at_1);
    std::cout << " (" << fmt(e.seconds, 2) << " s)\n" << std::flush;
  };
  const ReaderTraining t = train_reader(g, train, valid, o);
  if (!a.json.empty()) write_output(a.json, dump_json(to_json(t), 2) + "\n");
  for (const std::string &w : t.warnings) std::cerr << "warning: " << w << "\n";
  if (!talk) return;
  std::cout << "reader '" << o.name << "' stored: " << t.report.train_examples << " training and " << t.report.valid_examples
            << " validation subgraph(s); kept " << t.train_kept + t.valid_kept << " of "
            << t.train_questions + t.valid_questions << " question(s) (" << fmt(t.kept_share, 2) << "), " << t.skipped
            << " left out (no gold answer among their " << o.scope << " nodes); best epoch " << t.report.best_epoch
            << " of " << t.report.epochs.size() << ", validation MRR " << fmt(t.valid_mrr_all)
            << " over every validation question; " << t.report.parameters << " parameters; " << fmt(t.report.seconds, 1)
            << " s\n";
}

}  // namespace

void add_train_reader(CLI::App &app) {
  auto a = std::make_shared<TrainReaderArgs>();
  auto *c = app.add_subcommand("train-reader", "Trains the graph reader (a GAT scoring the question's subgraph's nodes as "
                                               "answers) on questions with gold answers and stores it in the database");
  add_db_option(c, a->db);
  c->add_option("--train", a->train, "Training questions: JSON lines {question, answers} (the eval qa format)");
  c->add_option("--valid", a->valid, "Validation questions for early stopping (default: a seeded share of --train)");
  c->add_option("--name", a->o.name, "Stored under this name (ask --reader-name)");
  c->add_option("--scope", a->o.scope,
                "The nodes scored: subgraph (the PCST selection, G-Retriever's) or base (the k-hop subgraph it was chosen from)")
      ->check(CLI::IsMember({"subgraph", "base"}));
  c->add_option("--max-nodes", a->o.max_nodes,
                "Nodes per subgraph at most (0: all): the question's entities and the selection first, then the "
                "nearest to the seeds, by prize and similarity");
  c->add_flag("--no-intents", a->no_intents,
              "Retrieve every question as an open one (PCST and its k-hop base), not for its intent");
  add_retrieval_flags(c, a->r, "--embedding-model");
  GatReaderOptions &n = a->o.gat;
  c->add_option("--epochs", n.epochs, "Epochs at most")->check(CLI::Range(1, 100000));
  c->add_option("--layers", n.layers, "GAT layers")->check(CLI::Range(1, 8));
  c->add_option("--hidden", n.hidden, "Width of each GAT layer (heads concatenated; a multiple of --heads)")
      ->check(CLI::Range(1, 4096));
  c->add_option("--heads", n.heads, "Attention heads per layer")->check(CLI::Range(1, 64));
  c->add_option("--head-hidden", n.head_hidden, "Hidden width of the scoring MLP")->check(CLI::Range(1, 4096));
  c->add_option("--dropout", n.dropout, "Dropout on each layer's input while training")->check(CLI::Range(0.0, 0.95));
  c->add_option("--learning-rate", n.learning_rate, "Adam's step size")->check(CLI::Range(1e-7, 1.0));
  c->add_option("--weight-decay", n.weight_decay, "L2 penalty")->check(CLI::Range(0.0, 1.0));
  c->add_option("--batch", n.batch, "Questions per step")->check(CLI::Range(1, 100000));
  c->add_option("--patience", n.patience, "Epochs without a better validation MRR before stopping (0: never stop early)");
  c->add_option("--valid-share", n.valid_share, "Share of --train that validates when no --valid is given")
      ->check(CLI::Range(0.0, 0.9));
  c->add_option("--seed", n.seed, "Initialisation, dropout and order: the same seed, the same reader");
  c->add_option("--threads", n.threads, "Questions in parallel (0: all cores; the reader does not depend on it)");
  c->add_flag("--list", a->list, "List the stored readers instead");
  c->add_option("--json", a->json, "Write the training report (or the list) as JSON ('-' for standard output)");
  c->add_flag("--quiet", a->quiet, "No epochs or summary on standard output");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli
