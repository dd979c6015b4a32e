// grappi hypothesize: ranked literature paths between two concepts, an explanation from their
// abstracts, each sentence checked against the knowledge base (grappi/hypothesis.hpp).
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "common.hpp"

namespace grappi::cli {

namespace {

// How the prior scores, as the summaries say it.
constexpr const char *kPriorText =
    "the prior (the weakest intermediate concept's document share, once per intermediate; ties: intermediates already named with both ends, then more often with them, first)";

// The documents of every corpus file, in order; Error(io) naming the command and the file that
// cannot be read.
std::vector<Document> read_corpora(const std::vector<std::string> &files, const std::string &format, const char *what) {
  std::vector<Document> docs;
  for (const std::string &f : files) {
    if (!std::ifstream(f)) throw Error(ErrorCode::io, std::string(what) + ": cannot read '" + f + "'");
    for (Document &d : read_documents(f, document_format(format))) docs.push_back(std::move(d));
  }
  return docs;
}

// The options of the temporal protocol that eval hypotheses and train-ranker share.
void add_protocol_options(CLI::App *c, std::vector<std::string> &corpora, std::string &format, std::string &scope,
                          HypothesisEvalOptions &o, const std::string &corpus_help) {
  c->add_option("--corpus", corpora, corpus_help)->required();
  c->add_option("--format", format, "Force the corpus format: detect, text, pubtator, bioc-xml, bioc-json, ppi-xml, jsonl");
  c->add_option("--scope", scope, "Co-occurrence in the same document or the same sentence")
      ->check(CLI::IsMember({"document", "sentence"}));
  c->add_option("--types", o.cooc.types, "Concept types kept, comma-separated; default: all")->delimiter(',');
  c->add_option("--max-len", o.hypothesis.max_length, "Edges in a path at most")->check(CLI::PositiveNumber);
  c->add_option("--shortest-rounds", o.hypothesis.shortest_rounds,
                "0: the --paths shortest paths of up to --max-len edges (default); N: HGCR's candidates, N rounds of "
                "every shortest path (at most --paths per round), each without the earlier rounds' intermediates");
}

CoocOptions::Scope scope_of(const std::string &scope) {
  return scope == "sentence" ? CoocOptions::Scope::sentence : CoocOptions::Scope::document;
}

struct HypothesizeArgs {
  std::string db, source, target, format = "detect", json, report, html, system_template, explain_template, ranker;
  std::vector<std::string> corpora;
  HypothesisOptions o;
  ChatArgs m;
  BudgetArgs budget;
  bool quiet = false, weights = false;
};

void run(HypothesizeArgs &a) {
  const std::vector<Document> docs = read_corpora(a.corpora, a.format, "hypothesize");
  auto model = chat_model_of(a.m, 1, "hypothesize");
  KnowledgeGraph g = open_graph(a.db, Access::write);
  HypothesisOptions o = a.o;
  a.budget.apply(o.use_cache, o.confirm_calls);
  o.templates.load(a.system_template, a.explain_template);
  if (!a.weights) o.ranker = PathRanker::stored(g, a.ranker);
  const double w = o.embedding_weight;
  if (a.weights) o.scorer = [w](const HypothesisPath &p) { return association_score(p, w); };
  const HypothesisResult r = hypothesize(g, *model, a.source, a.target, docs, o);
  if (!a.json.empty()) write_output(a.json, dump_json(to_json(r), 2) + "\n");
  if (!a.report.empty()) write_output(a.report, to_markdown(r));
  if (!a.html.empty()) write_output(a.html, to_html(r));
  if (a.quiet || a.json == "-" || a.report == "-" || a.html == "-") return;
  std::cout << r.source_name << " - " << r.target_name << ": " << r.paths.size() << " path(s), " << r.rounds.size()
            << " round(s), stop: " << r.stop_reason << "\n";
  std::cout << "paths scored by " << (o.scorer ? std::string("the association weights (NPMI)") : o.ranker ? "the path ranker '" + (a.ranker.empty() ? std::string(PathRanker::kDefaultName) : a.ranker) + "'"
                                 : o.embedding_weight > 0
                                     ? std::string("the association weights (NPMI) and the embedding similarity")
                                     : std::string(kPriorText))
            << "\n";
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < r.paths.size(); ++i) {
    std::string path;
    for (std::size_t k = 0; k < r.paths[i].names.size(); ++k) path += (k ? " -- " : "") + r.paths[i].names[k];
    rows.push_back({std::to_string(i + 1), path, fmt(r.paths[i].score),
                    std::to_string(r.paths[i].papers) + (r.paths[i].single_paper ? " (one paper only)" : "")});
  }
  if (!rows.empty()) print_table({"rank", "path", "score", "papers"}, rows);
  if (r.final_round >= 0)
    for (const HypothesisSentence &s : r.rounds[static_cast<std::size_t>(r.final_round)].sentences) {
      std::string cites;
      for (const std::string &p : s.citations) cites += (cites.empty() ? " [PMID " : ", ") + p;
      std::cout << "- " << s.text << (cites.empty() ? "" : cites + "]") << " (" << s.status << ")\n";
    }
  if (r.offline) std::cout << "(extractive explanation, not generated by a language model)\n";
}

struct EvalArgs {
  std::string format = "detect", json, per_pair, scope = "document", db, ranker;
  std::vector<std::string> corpora, after;
  std::vector<double> splits;
  int as_of = 0;
  HypothesisEvalOptions o;
  ChatArgs m;
  BudgetArgs budget;
  bool quiet = false, generic = false;
};

std::string figure(double x) { return x < 0 ? "-" : fmt(x); }

// grappi's figure minus a baseline's with its interval: "+0.002 [-0.031, +0.040]".
std::string difference_text(const nlohmann::json &differences, const std::string &baseline, const char *figure_key) {
  const nlohmann::json *d = nullptr;
  if (differences.contains("versus") && differences["versus"].contains(baseline)) d = &differences["versus"][baseline];
  if (!d || !d->contains(figure_key) || !(*d)[figure_key].is_object()) return "-";
  const nlohmann::json &x = (*d)[figure_key];
  const auto signed_text = [](double v) { return (v >= 0 ? "+" : "") + fmt(v); };
  std::string out = signed_text(x["difference"].get<double>());
  if (x["low"].is_number()) out += " [" + signed_text(x["low"].get<double>()) + ", " + signed_text(x["high"].get<double>()) + "]";
  return out;
}

// The differences' interval level as a percentage ("95%").
std::string level_text(const nlohmann::json &differences) {
  const double level = differences.contains("level") && differences["level"].is_number() ? differences["level"].get<double>() : 0;
  return std::to_string(static_cast<int>(std::lround(level * 100))) + "%";
}

// --splits: one evaluation per split and the means, grappi's beside each baseline's.
void run_eval_splits(const EvalArgs &a, const std::vector<Document> &docs, LanguageModel &model, const HypothesisEvalOptions &o) {
  if (!a.per_pair.empty()) throw Error(ErrorCode::invalid_argument, "eval hypotheses: --per-pair is for one split, not --splits");
  const HypothesisSplitsResult r = evaluate_hypotheses_splits(docs, model, o, a.splits);
  if (!a.json.empty()) write_output(a.json, dump_json(to_json(r), 2) + "\n");
  if (a.quiet || a.json == "-") return;
  const auto pair = [](double micro, double macro) { return figure(micro) + " / " + figure(macro); };
  const auto base = [](const nlohmann::json &b, const char *name) {
    const nlohmann::json &x = b.value(name, nlohmann::json::object());
    const auto get = [&](const char *k) { return x.contains(k) && x[k].is_number() ? x[k].get<double>() : -1.0; };
    return figure(get("auc_micro")) + " / " + figure(get("auc_macro"));
  };
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    const HypothesisEvalResult &x = r.runs[i];
    rows.push_back({fmt(r.splits[i]), std::to_string(x.before) + " / " + std::to_string(x.after),
                    std::to_string(x.auc_pairs), std::to_string(x.positive_paths), pair(x.auc_micro, x.auc_macro),
                    base(x.baselines, "shorter_first"), base(x.baselines, "document_frequency"), base(x.baselines, "random")});
  }
  rows.push_back({"mean", "", "", "", base(r.means, "grappi"), base(r.means, "shorter_first"),
                  base(r.means, "document_frequency"), base(r.means, "random")});
  std::cout << "ROC AUC micro / macro at each split (the same paths and labels for every scorer of a row)"
            << (r.cancelled ? "; cancelled" : "") << "\n";
  print_table({"split", "documents before / after", "pairs (macro)", "positive paths", "grappi", "shorter first",
               "document frequency", "random"},
              rows);
  if (o.bootstrap == 0 || r.runs.empty()) return;
  std::vector<std::vector<std::string>> margins;
  for (std::size_t i = 0; i < r.runs.size(); ++i)
    margins.push_back({fmt(r.splits[i]), difference_text(r.runs[i].differences, "shorter_first", "auc_micro"),
                       difference_text(r.runs[i].differences, "shorter_first", "auc_macro")});
  std::cout << "grappi minus shorter first at each split, " << level_text(r.runs.front().differences) << " intervals over "
            << o.bootstrap << " resamples of the pairs\n";
  print_table({"split", "micro", "macro"}, margins);
}

void run_eval(EvalArgs &a) {
  std::vector<Document> docs = read_corpora(a.corpora, a.format, "eval hypotheses");
  HypothesisEvalOptions o = a.o;
  if (a.as_of) o.as_of = a.as_of;
  if (!a.after.empty()) {
    // (the --corpus documents before the split, the --after documents after it)
    o.before = docs.size();
    std::vector<Document> later = read_corpora(a.after, a.format, "eval hypotheses");
    docs.insert(docs.end(), std::make_move_iterator(later.begin()), std::make_move_iterator(later.end()));
  }
  o.cooc.scope = scope_of(a.scope);
  o.hypothesis.generic_intermediates = a.generic;
  a.budget.confirm(o.confirm_calls);  // (the run's temporary database: no --no-cache)
  if (!a.ranker.empty()) {
    if (a.db.empty()) throw Error(ErrorCode::invalid_argument, "eval hypotheses: --ranker needs --db (where it is stored)");
    o.ranker = std::make_shared<const PathRanker>(PathRanker::load(open_graph(a.db, Access::read), a.ranker));
  }
  auto model = chat_model_of(a.m, 1, "eval hypotheses");
  if (!a.splits.empty()) return run_eval_splits(a, docs, *model, o);
  const HypothesisEvalResult r = evaluate_hypotheses(docs, *model, o);
  const nlohmann::json j = to_json(r);
  if (!a.json.empty()) write_output(a.json, dump_json(j, 2) + "\n");
  if (!a.per_pair.empty()) {
    std::string lines;
    for (const HypothesisEvalPair &p : r.pairs) lines += dump_json(to_json(p, o.top)) + "\n";
    write_output(a.per_pair, lines);
  }
  if (a.quiet || a.json == "-" || a.per_pair == "-") return;
  std::cout << "split: " << r.split << " at " << r.cutoff << " (" << r.before << " document(s) before, " << r.after
            << " after" << (r.left_out ? ", " + std::to_string(r.left_out) + " left out" : std::string()) << ")"
            << (r.split_note.empty() ? "" : "; " + r.split_note) << "\n";
  std::cout << "graph before the split: " << r.concepts << " concept(s), " << r.edges << " edge(s); " << r.candidates
            << " pair(s) first linked after it, " << r.pairs.size() << " evaluated, " << r.with_paths << " with paths\n";
  if (r.shortest_rounds)
    std::cout << "candidate paths: " << r.shortest_rounds << " round(s) of every shortest path (HGCR's candidates)\n";
  const auto base = [&](const char *name, const char *key) {
    const nlohmann::json &b = r.baselines.value(name, nlohmann::json::object());
    return b.contains(key) && b[key].is_number() ? fmt(b[key].get<double>()) : std::string("-");
  };
  std::cout << "paths scored by "
            << (r.scoring == "trained"  ? "a path ranker fitted on the documents before the split alone (nested split)"
                : r.scoring == "stored" ? "the stored path ranker '" + a.ranker + "'"
                : r.scoring == "prior"  ? kPriorText
                                        : "the association weights (NPMI)")
            << (r.ranker.contains("error") ? " (no ranker could be fitted: " + r.ranker["error"].get<std::string>() + ")" : "")
            << "\n";
  // grappi's figure minus each baseline's, in the baselines' columns.
  const auto margins_row = [&](const std::string &figure_name) {
    std::vector<std::string> row = {"grappi minus it, " + figure_name, ""};
    for (const char *b : {"shorter_first", "document_frequency", "weights", "random"})
      row.push_back(difference_text(r.differences, b, ("auc_" + figure_name).c_str()));
    row.push_back("-");
    return row;
  };
  print_table({"figure", "grappi", "shorter first", "document frequency", "NPMI weights", "random", "HGCR (published)"},
              {{"ROC AUC, micro", figure(r.auc_micro), base("shorter_first", "auc_micro"), base("document_frequency", "auc_micro"),
                base("weights", "auc_micro"), base("random", "auc_micro"), "0.895"},
               {"ROC AUC, macro (" + std::to_string(r.auc_pairs) + " pairs)", figure(r.auc_macro),
                base("shorter_first", "auc_macro"), base("document_frequency", "auc_macro"), base("weights", "auc_macro"),
                base("random", "auc_macro"), "0.932"},
               {"pairs with a positive path in the top " + std::to_string(r.top), fmt(r.top_share),
                base("shorter_first", "top_share"), base("document_frequency", "top_share"), base("weights", "top_share"),
                base("random", "top_share"), "-"},
               {"positive paths", std::to_string(r.positive_paths) + " of " + std::to_string(r.paths), "", "", "", "", "-"},
               margins_row("micro"), margins_row("macro")});
  if (o.bootstrap)
    std::cout << "(differences: [low, high] is a " << level_text(r.differences) << " interval over " << o.bootstrap
              << " resamples of the pairs; a margin whose interval holds 0 is within this corpus's noise)\n";
  if (r.explained) {
    std::cout << r.explained << " explanation(s)" << (r.offline ? " (extractive, not generated by a language model)" : "")
              << ": ROUGE-1 F1 " << fmt(r.rouge_1) << ", ROUGE-L F1 " << fmt(r.rouge_l) << ", " << fmt(r.mean_rounds)
              << " round(s) on average, " << fmt(r.reworked_share) << " of sentences re-worked, " << r.not_converged
              << " not converged\n";
  }
}

}  // namespace

void add_eval_hypotheses(CLI::App &eval) {
  auto a = std::make_shared<EvalArgs>();
  auto *c = eval.add_subcommand("hypotheses", "Hypotheses by the reference's temporal protocol: the graph before a year "
                                              "(or a share of PubMed ids), pairs first linked after it, ROC AUC of the "
                                              "path scores, ROUGE of the explanations");
  add_protocol_options(c, a->corpora, a->format, a->scope, a->o,
                       "Annotated documents (PubTator, BioC XML/JSON, JSON lines; repeatable)");
  c->add_option("--as-of", a->as_of, "Split at this year (documents before it build the graph); every document needs a year, "
                                     "else PubMed id order is used and the report says so");
  c->add_option("--split", a->o.split, "Share of documents before the split in PubMed id order (default 0.8)")
      ->check(CLI::Range(0.0, 1.0));
  c->add_option("--splits", a->splits,
                "Several shares, comma-separated (0.5,0.6,0.7,0.8,0.9): one evaluation per split and the means of "
                "every figure over them")
      ->delimiter(',')
      ->excludes("--split")
      ->excludes("--as-of");
  c->add_option("--after", a->after,
                "Documents after the split (repeatable): the --corpus documents build the graph, these label the pairs "
                "(a corpus's own train before its dev; the nested ranker splits the --corpus documents by --split)")
      ->excludes("--as-of")
      ->excludes("--splits");
  c->add_option("--min-count", a->o.cooc.min_count, "Edges of the graph the paths follow shared by at least this many units");
  c->add_option("--pairs", a->o.pairs, "Test pairs at most (the most often linked after the split first)");
  c->add_option("--paths", a->o.paths, "Paths ranked per pair for the figures")->check(CLI::PositiveNumber);
  c->add_option("--intermediate", a->o.hypothesis.intermediate_labels, "Types the intermediate concepts must have");
  c->add_option("--top", a->o.top, "A pair counts when a positive path is among its first N")->check(CLI::PositiveNumber);
  c->add_option("--embed-weight", a->o.hypothesis.embedding_weight,
                "Weight in [0, 1] of the embedding similarity in the paths' score (the concepts embedded with --embedder)")
      ->check(CLI::Range(0.0, 1.0));
  c->add_option("--embedder", a->o.embedder, "lsa or hashing, fitted on the concepts' names")
      ->check(CLI::IsMember({"lsa", "hashing"}));
  c->add_option("--scoring", a->o.scoring,
                "prior (the default: what hypothesize scores with when no ranker is stored), trained (a path ranker "
                "fitted on the documents before the split alone, nested) or weights (NPMI)")
      ->check(CLI::IsMember({"trained", "prior", "weights"}));
  c->add_option("--min-positives", a->o.ranker_options.min_positives,
                "Positive paths before the split at least to fit the nested ranker (fewer: the prior)");
  c->add_option("--ranker", a->ranker, "Score with this stored path ranker instead (needs --db)");
  c->add_option("--db", a->db, "The database holding --ranker");
  c->add_flag("--generic-intermediates", a->generic,
              "Allow species and generic concepts (in more than 5% of the documents) in the middle of paths");
  c->add_option("--baseline-seed", a->o.seed, "Seed of the random baseline and of the resamples");
  c->add_option("--bootstrap", a->o.bootstrap,
                "Resamples of the pairs for the 95% intervals of grappi's figures minus each baseline's (0: none)")
      ->check(CLI::Range(0, 1000000));
  c->add_option("--explain", a->o.explain, "Pairs explained for ROUGE and the loop's figures (0: none)");
  c->add_option("--context", a->o.hypothesis.context, "Abstracts given to the model")->check(CLI::PositiveNumber);
  c->add_option("--rounds", a->o.hypothesis.rounds, "Explanations at most per pair")->check(CLI::PositiveNumber);
  add_chat_flags(c, a->m, "sentences of the abstracts, not a language model");
  add_budget_flags(c, a->budget, a->o.hypothesis.max_calls, nullptr, "per pair", true, false);
  c->add_option("--work-dir", a->o.work_dir, "Where the temporary database goes (default: the system's temporary directory)");
  add_output_flags(c, a->json, a->quiet, "the summary");
  c->add_option("--per-pair", a->per_pair, "Write each pair as a JSON line ('-' for standard output)");
  c->callback([a] { run_eval(*a); });
}

namespace {

struct TrainRankerArgs {
  std::string db, format = "detect", name = PathRanker::kDefaultName, json, scope = "document";
  std::vector<std::string> corpora;
  HypothesisEvalOptions o;
  bool quiet = false;
};

void run_train_ranker(TrainRankerArgs &a) {
  const std::vector<Document> docs = read_corpora(a.corpora, a.format, "train-ranker");
  HypothesisEvalOptions o = a.o;
  o.cooc.scope = scope_of(a.scope);
  const PathRankerTraining t = train_path_ranker(docs, o);
  KnowledgeGraph g = open_graph(a.db, Access::create);  // (after the training: a refused corpus creates nothing)
  t.ranker.save(g, a.name);
  nlohmann::json j = {{"name", a.name}, {"training", t.ranker.info()}, {"weights", t.ranker.weights_json()}};
  if (!a.json.empty()) write_output(a.json, dump_json(j, 2) + "\n");
  if (a.quiet || a.json == "-") return;
  std::cout << "path ranker '" << a.name << "' stored: split " << t.split << " at " << t.cutoff << " (" << t.before
            << " document(s) before, " << t.after << " after); " << t.pairs << " pair(s), " << t.paths << " path(s), "
            << t.positives << " positive; ROC AUC on its own training paths " << (t.auc_micro < 0 ? "-" : fmt(t.auc_micro))
            << "\n";
  std::vector<std::vector<std::string>> rows;
  const nlohmann::json weights = t.ranker.weights_json();  // items() must not outlive it
  for (const auto &[name, w] : weights.items()) rows.push_back({name, fmt(w.get<double>())});
  print_table({"feature (standardised)", "weight"}, rows);
}

}  // namespace

void add_train_ranker(CLI::App &app) {
  auto a = std::make_shared<TrainRankerArgs>();
  auto *c = app.add_subcommand("train-ranker", "Fits the hypothesis path ranker on a corpus by the temporal protocol (the "
                                               "graph before a split, paths labelled by the documents after it) and "
                                               "stores it (hypothesize --ranker)");
  add_db_option(c, a->db);
  add_protocol_options(c, a->corpora, a->format, a->scope, a->o, "Annotated documents it learns from (repeatable)");
  c->add_option("--name", a->name, "Stored under this name (default 'paths': hypothesize uses it unasked)");
  c->add_option("--split", a->o.split, "Share of the documents before the split (date order, else PubMed id order)")
      ->check(CLI::Range(0.05, 0.95));
  c->add_option("--pairs", a->o.pairs, "Training pairs at most");
  c->add_option("--paths", a->o.paths, "Paths per pair")->check(CLI::PositiveNumber);
  c->add_option("--l2", a->o.ranker_options.l2, "L2 penalty on the feature weights (-1: chosen by cross-validation)")
      ->check(CLI::Range(-1.0, 1e6));
  c->add_option("--min-positives", a->o.ranker_options.min_positives,
                "Positive paths at least to fit weights (fewer: refused)");
  add_output_flags(c, a->json, a->quiet, "the training and the weights");
  c->callback([a] { run_train_ranker(*a); });
}

void add_hypothesize(CLI::App &app) {
  auto a = std::make_shared<HypothesizeArgs>();
  auto *c = app.add_subcommand("hypothesize", "How two concepts may be related: ranked literature paths and an explanation "
                                              "checked against the knowledge base");
  add_db_option(c, a->db);
  c->add_option("--source", a->source, "The first concept (name, alias or id)")->required();
  c->add_option("--target", a->target, "The second concept")->required();
  c->add_option("--corpus", a->corpora,
                "Documents whose abstracts are the context; default: the papers the database holds (cooc build and "
                "import --corpus store them)");
  c->add_option("--format", a->format, "Force the corpus format: detect, text, pubtator, bioc-xml, bioc-json, ppi-xml, jsonl");
  c->add_option("--relation", a->o.relations, "Relations the paths follow (default cooc.document)");
  c->add_option("--max-len", a->o.max_length, "Edges in a path at most")->check(CLI::PositiveNumber);
  c->add_option("--paths", a->o.paths, "Ranked paths kept")->check(CLI::PositiveNumber);
  c->add_flag("--mask-direct", a->o.mask_direct, "Leave out the direct edge (indirect relations only)");
  c->add_option("--shortest-rounds", a->o.shortest_rounds,
                "0: the shortest paths of up to --max-len edges, shortest first (default); N: HGCR's candidates, N "
                "rounds of every shortest path, each without the earlier rounds' intermediates");
  c->add_option("--intermediate", a->o.intermediate_labels, "Labels the intermediate concepts must have");
  c->add_option("--embed-weight", a->o.embedding_weight,
                "Weight in [0, 1] of the intermediate concepts' embedding similarity to the pair in the paths' score "
                "(needs grappi embed; default 0)")
      ->check(CLI::Range(0.0, 1.0));
  c->add_option("--embedding-model", a->o.embedding_model, "The stored embedding model for it (default: the latest)");
  c->add_option("--ranker", a->ranker,
                "The stored path ranker scoring the paths (grappi train-ranker; default: the one named 'paths' when the "
                "database has it, else the association weights)");
  c->add_flag("--weights", a->weights, "Score the paths by the association weights even when a ranker is stored");
  c->add_flag("--generic-intermediates", a->o.generic_intermediates,
              "Allow species and generic concepts (see --max-share) in the middle of paths");
  c->add_option("--max-share", a->o.max_intermediate_share,
                "A concept in more than this share of the documents is generic (default 0.05)")
      ->check(CLI::Range(0.000001, 1.0));
  c->add_flag("--no-fold", [a](int64_t) { a->o.fold_reorderings = false; }, "Keep paths that reorder the same concepts");
  c->add_option("--context", a->o.context, "Abstracts given to the model")->check(CLI::PositiveNumber);
  c->add_option("--rounds", a->o.rounds, "Explanations at most (the first and the re-worked ones)")->check(CLI::PositiveNumber);
  c->add_option("--support-relation", a->o.support_relations, "Relations that support a sentence's pair (default: any)");
  add_chat_flags(c, a->m, "sentences of the abstracts, not a language model");
  add_budget_flags(c, a->budget, a->o.max_calls, &a->o.max_tokens, "of the run");
  c->add_option("--system-template", a->system_template, "File replacing the system prompt");
  c->add_option("--explain-template", a->explain_template, "File replacing the explanation prompt");
  add_output_flags(c, a->json, a->quiet, "the result");
  c->add_option("--report", a->report, "Write a Markdown report ('-' for standard output)");
  c->add_option("--html", a->html, "Write a self-contained HTML report (the paths drawn, the checked explanation)");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli
