// grappi ground: the ontology term (PSI-MI interaction type by default) that best describes how
// two proteins interact in a text, with quotes, a confidence and the trace (grappi/grounding.hpp).
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct GroundArgs {
  std::string db, text, pair, pairs, strategy = "pagerank", json, html, format = "detect", document;
  std::string system_template, summary_template, refine_template, score_template, pick_template;
  GroundingOptions o;
  ChatArgs m;  // the model
  std::vector<std::string> judges;  // eval: judge models by name ("extractive": the offline judge)
  std::size_t concurrency = 4;
  BudgetArgs budget;
  bool quiet = false;
};

// The text of a paper file: plain text, Markdown, PubTator, BioC XML/JSON or PPI corpus XML;
// a file of several documents needs --document (an id or PubMed id).
std::string read_text(const std::string &path, const GroundArgs &a) {
  if (!std::ifstream(path)) throw Error(ErrorCode::io, "ground: cannot read the text file '" + path + "'");
  const std::vector<Document> docs = read_documents(path, document_format(a.format));
  if (docs.empty()) throw Error(ErrorCode::invalid_argument, "ground: '" + path + "' holds no document");
  if (a.document.empty()) {
    if (docs.size() > 1)
      throw Error(ErrorCode::invalid_argument, "ground: '" + path + "' holds " + std::to_string(docs.size()) +
                                                   " documents; choose one with --document ID (an id or PubMed id, e.g. " +
                                                   (docs[0].pmid.empty() ? docs[0].id : docs[0].pmid) + ")");
    return docs[0].text();
  }
  for (const Document &d : docs)
    if (d.id == a.document || d.pmid == a.document) return d.text();
  throw Error(ErrorCode::not_found, "ground: '" + path + "' has no document " + a.document);
}

std::pair<std::string, std::string> split_pair(const std::string &spec, const std::string &where) {
  const auto comma = spec.find(',');
  if (comma == std::string::npos || spec.find(',', comma + 1) != std::string::npos)
    throw Error(ErrorCode::invalid_argument, where + ": a pair is two proteins separated by a comma, e.g. MAPT,GSK3B");
  return {spec.substr(0, comma), spec.substr(comma + 1)};
}

// One grounding job: a text and a pair (the text is read once per file).
struct Job {
  std::string file, a, b;
};

std::vector<Job> read_pairs(const GroundArgs &a) {
  std::vector<Job> jobs;
  if (!a.pair.empty()) {
    if (a.text.empty()) throw Error(ErrorCode::invalid_argument, "ground: --pair needs --text FILE");
    auto [x, y] = split_pair(a.pair, "--pair");
    jobs.push_back({a.text, x, y});
  }
  if (!a.pairs.empty()) {
    // Lines "A<TAB>B" (with --text) or "FILE<TAB>A<TAB>B"; '#' comments; a FILE is relative to
    // the pairs file's directory.
    std::ifstream in(a.pairs);
    if (!in) throw Error(ErrorCode::io, "ground: cannot read the pairs file '" + a.pairs + "'");
    const auto slash = a.pairs.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "" : a.pairs.substr(0, slash + 1);
    std::string line;
    for (std::size_t no = 1; std::getline(in, line); ++no) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string> f;
      std::stringstream ss(line);
      for (std::string cell; std::getline(ss, cell, '\t');) f.push_back(cell);
      const std::string where = a.pairs + ":" + std::to_string(no);
      if (f.size() == 2) {
        if (a.text.empty()) throw Error(ErrorCode::invalid_argument, where + ": two columns need --text FILE");
        jobs.push_back({a.text, f[0], f[1]});
      } else if (f.size() == 3) {
        jobs.push_back({!f[0].empty() && f[0][0] == '/' ? f[0] : dir + f[0], f[1], f[2]});
      } else {
        throw Error(ErrorCode::invalid_argument, where + ": expected 'A<TAB>B' or 'FILE<TAB>A<TAB>B', found " +
                                                     std::to_string(f.size()) + " tab-separated fields");
      }
    }
  }
  if (jobs.empty()) throw Error(ErrorCode::invalid_argument, "ground: give --text FILE --pair A,B or --pairs FILE");
  return jobs;
}

void print_one(const GroundingResult &r) {
  std::cout << r.protein_a << " - " << r.protein_b << " (" << to_string(r.strategy) << "): ";
  if (r.term) {
    std::cout << r.term->id << " " << r.term->name << ", score " << r.best_score;
    if (r.confidence) std::cout << ", confidence " << *r.confidence;
    if (r.tied.size() > 1) std::cout << " (picked among " << r.tied.size() << " terms scored " << r.best_score << ")";
    if (r.pick_status == "fallback") std::cout << " [the pick failed: the first best-scored term]";
  } else {
    std::cout << "no term (" << r.stop_reason << ")";
  }
  std::cout << '\n';
  if (r.offline) std::cout << "  (offline model: extractive summary and word-overlap scores, not a language model)\n";
  for (const GroundingQuote &q : r.quotes)
    std::cout << "  " << (q.in_text ? "quote: " : "quote NOT IN THE TEXT: ") << q.text.substr(0, 300) << '\n';
  std::cout << "  " << r.visits.size() << " of " << r.candidates << " terms scored; " << r.stop_reason << '\n';
}

// "all", one strategy or a comma-separated list (each once, in the order given).
std::vector<GroundingStrategy> strategies_of(const GroundArgs &a) {
  if (a.strategy == "all") return all_grounding_strategies();
  std::vector<GroundingStrategy> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = a.strategy.find(',', start);
    const GroundingStrategy s = grounding_strategy(a.strategy.substr(start, comma == std::string::npos ? comma : comma - start));
    if (std::find(out.begin(), out.end(), s) != out.end())
      throw Error(ErrorCode::invalid_argument, std::string("ground: --strategy names ") + to_string(s) + " twice");
    out.push_back(s);
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

GroundingOptions options_of(const GroundArgs &a, GroundingStrategy first) {
  GroundingOptions o = a.o;
  o.strategy = first;
  a.budget.apply(o.use_cache, o.confirm_calls);
  o.templates.load(a.system_template, a.summary_template, a.refine_template, a.score_template, a.pick_template);
  return o;
}

void run(GroundArgs &a) {
  const std::vector<Job> jobs = read_pairs(a);
  const std::vector<GroundingStrategy> strategies = strategies_of(a);
  if (!a.html.empty() && jobs.size() != 1)
    throw Error(ErrorCode::invalid_argument, "ground: --html reports one pair (its strategies side by side): give one --pair");
  auto model = chat_model_of(a.m, a.concurrency, "ground");
  KnowledgeGraph g = open_graph(a.db, Access::write);
  const GroundingOptions o = options_of(a, strategies.front());
  const Grounder grounder(g, *model, o);
  // Texts read once.
  std::map<std::string, std::string> texts;
  for (const Job &j : jobs)
    if (!texts.count(j.file)) texts[j.file] = read_text(j.file, a);
  std::vector<GroundingJob> work;
  for (const Job &j : jobs) {
    try {  // (a protein neither in the database nor in the text: exit 2 with suggestions)
      grounder.check_names(texts.at(j.file), j.a, j.b);
    } catch (const Error &e) {
      throw Error(e.code(), std::string(e.what()) + " ('" + j.file + "')");
    }
    work.push_back({texts.at(j.file), j.a, j.b});
  }
  const auto results = grounder.ground(work, strategies, a.concurrency);
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < jobs.size(); ++i)
    for (const GroundingResult &r : results[i]) {
      nlohmann::json j = to_json(r);
      j["text_file"] = jobs[i].file;
      out.push_back(std::move(j));
    }
  if (!a.json.empty()) write_output(a.json, dump_json((out.size() == 1 ? out[0] : out), 2) + "\n");
  if (!a.html.empty()) write_output(a.html, to_html(g, results.at(0)));
  if (a.quiet || a.json == "-" || a.html == "-") return;
  if (o.dry_run) {
    std::size_t calls = 0;
    int64_t tokens = 0;
    for (const auto &rs : results)
      for (const GroundingResult &r : rs) calls += r.estimated_calls, tokens += r.estimated_prompt_tokens;
    std::cout << "dry run: at most " << calls << " model calls and about " << tokens << " prompt tokens"
              << (model->local() ? " (the offline model is not a language model: it would answer them locally)" : "")
              << "; nothing was sent\n";
    return;
  }
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (strategies.size() == 1) {
      print_one(results[i][0]);
      continue;
    }
    std::cout << jobs[i].a << " - " << jobs[i].b << " in " << jobs[i].file << ":\n";
    std::vector<std::vector<std::string>> rows;
    for (const GroundingResult &r : results[i]) {
      const std::size_t calls = r.summary_usage.model_calls + r.traversal_usage.model_calls + r.pick_usage.model_calls;
      const int64_t tokens = r.summary_usage.prompt_tokens + r.traversal_usage.prompt_tokens + r.pick_usage.prompt_tokens;
      const std::size_t hits = r.summary_usage.cache_hits + r.traversal_usage.cache_hits + r.pick_usage.cache_hits;
      rows.push_back({to_string(r.strategy), r.term ? r.term->id + " " + r.term->name : "-", std::to_string(r.best_score),
                      r.confidence ? std::to_string(*r.confidence) : "-", std::to_string(r.visits.size()),
                      std::to_string(calls), std::to_string(tokens), std::to_string(hits), r.stop_reason});
    }
    print_table({"strategy", "term", "score", "confidence", "scored", "calls", "prompt tokens", "cache hits", "stop"}, rows);
  }
  if (model->local()) std::cout << "(offline model: extractive summaries and word-overlap scores, not a language model)\n";
}

// The papers' texts by PubMed id: every document of a corpus file, or of every file of a
// directory (a text file's PubMed id from its name: <PMID>.txt, ...PMID<digits>...).
std::map<std::string, std::string> texts_by_pmid(const std::string &where, const GroundArgs &a) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> files;
  if (fs::is_directory(where, ec)) {
    for (const auto &e : fs::directory_iterator(where))
      if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
  } else if (fs::is_regular_file(where, ec)) {
    files.push_back(where);
  } else {
    throw Error(ErrorCode::io, "eval grounding: --texts '" + where + "' is neither a directory nor a file");
  }
  std::map<std::string, std::string> out;
  for (const auto &f : files)
    for (const Document &d : read_documents(f.string(), document_format(a.format)))
      if (!d.pmid.empty() && !out.count(d.pmid)) out[d.pmid] = d.text();
  return out;
}

void run_eval(GroundArgs &a) {
  const std::vector<GroundingStrategy> strategies = strategies_of(a);
  std::size_t skipped = 0;
  const std::vector<GroundingGold> gold = read_grounding_gold(a.pairs, &skipped);
  const auto texts = texts_by_pmid(a.text, a);
  auto model = chat_model_of(a.m, a.concurrency, "eval grounding");
  KnowledgeGraph g = open_graph(a.db, Access::write);
  const Grounder grounder(g, *model, options_of(a, strategies.front()));
  // Judges: OpenAI-compatible models on --base-url by name, or the offline judge.
  if (a.judges.size() > 2) throw Error(ErrorCode::invalid_argument, "eval grounding: give one or two --judge models");
  std::vector<std::shared_ptr<LanguageModel>> judges;
  std::vector<LanguageModel *> judge_ptrs;
  for (const std::string &name : a.judges) {
    ChatModelSpec spec;
    spec.kind = name == "extractive" ? "extractive" : "openai";
    spec.openai = a.m.chat;
    spec.openai.model = name;
    spec.openai.json_mode = !a.m.no_json_mode;
    spec.openai.concurrency = a.concurrency;
    judges.push_back(make_chat_model(spec));
    judge_ptrs.push_back(judges.back().get());
  }
  const GroundingEvaluation ev = evaluate_grounding(grounder, gold, texts, strategies, a.concurrency, judge_ptrs);
  if (!a.json.empty()) write_output(a.json, dump_json(to_json(ev), 2) + "\n");
  if (a.quiet || a.json == "-") return;
  std::cout << "gold: " << gold.size() << " pairs in papers (" << skipped << " rows without a PubMed id or type), "
            << ev.gold.size() << " with a text, " << ev.without_text << " without\n";
  std::vector<std::vector<std::string>> rows;
  for (const GroundingFigures &f : ev.figures) {
    rows.push_back({to_string(f.strategy), std::to_string(f.cases), std::to_string(f.exact), std::to_string(f.ancestor),
                    std::to_string(f.descendant), std::to_string(f.related), std::to_string(f.cases - f.answered),
                    fmt(f.mean_distance, 2), fmt(f.mean_lca_depth, 2), fmt(f.calls_per_grounding, 1),
                    fmt(f.tokens_per_grounding, 0)});
    if (!judges.empty())
      rows.back().push_back(std::to_string(f.wins) + "/" + std::to_string(f.ties) + "/" + std::to_string(f.losses) +
                            (f.disagreements ? " (" + std::to_string(f.disagreements) + " disagree)" : ""));
  }
  // The most-frequent-term baseline on the same cases.
  const GroundingBaseline &b = ev.most_frequent;
  rows.push_back({"most frequent term" + (b.name.empty() ? std::string() : " (" + b.name + ")"), std::to_string(b.cases),
                  std::to_string(b.exact), std::to_string(b.ancestor), std::to_string(b.descendant),
                  std::to_string(b.cases - b.exact - b.ancestor - b.descendant), "0", "-", "-", "0", "0"});
  if (!judges.empty()) rows.back().push_back("-");
  std::vector<std::string> head = {"strategy", "cases", "exact", "ancestor", "descendant", "related", "none",
                                   "distance", "lca depth", "calls", "prompt tokens"};
  // The offline judge compares word overlap with the text: its verdicts are no judgement of meaning.
  if (!judges.empty()) head.push_back(ev.offline_judge ? "overlap more/same/less" : "win/tie/loss");
  print_table(head, rows);
  if (ev.offline_judge)
    std::cout << "(the extractive judge compares the two terms' word overlap with the text; it is no judgement of "
                 "which term is right)\n";
  if (model->local()) std::cout << "(offline model: extractive summaries and word-overlap scores, not a language model)\n";
}

// The flags ground and eval grounding share: the ontology, the walk, the model, budgets, cache,
// templates.
void add_grounding_flags(CLI::App *c, GroundArgs &a) {
  auto &o = a.o;
  c->add_option("--root", o.root, "The ontology subtree to choose from (id or name)");
  c->add_option("--ontology", o.ontology, "The ontology the root must belong to, as its OBO 'ontology:' header names it "
                                          "(mi for PSI-MI, go); default: any");
  c->add_option("--relation", o.relations, "Child-to-parent relation(s) of the ontology");
  c->add_option("--strategy", a.strategy, "pagerank, bfs, dfs, dynamic, random, rag, stuff, a comma-separated list of them, or all (side by side)");
  c->add_option("--batch", o.batch, "Terms per scoring request (1: one at a time as the reference; more: listwise)")
      ->check(CLI::PositiveNumber);
  c->add_option("--chunk-size", o.chunk_size, "Characters per chunk of the text")->check(CLI::PositiveNumber);
  c->add_option("--chunk-overlap", o.chunk_overlap, "Characters shared by consecutive chunks");
  c->add_option("--patience", o.patience, "bfs, dfs, random, pagerank: evaluations without a better score before the "
                                          "look-ahead (0: score every term)");
  c->add_option("--lookahead", o.lookahead, "Terms scored after the patience ran out");
  c->add_option("--threshold", o.threshold, "dynamic: the score (1-5) whose children are visited")->check(CLI::Range(1, 5));
  c->add_option("--rag-k", o.rag_k, "rag: terms scored")->check(CLI::PositiveNumber);
  c->add_option("--random-seed", o.seed, "random: the order's seed");
  add_chat_flags(c, a.m, "extractive summaries and word-overlap scores, not a language model");
  c->add_option("--concurrency", a.concurrency, "Pairs grounded at once (and model calls in flight)")->check(CLI::Range(1, 64));
  add_budget_flags(c, a.budget, o.max_calls, &o.max_tokens, "per grounding");
  c->add_option("--system-template", a.system_template, "File replacing the system prompt");
  c->add_option("--summary-template", a.summary_template, "File replacing the first-chunk summary prompt");
  c->add_option("--refine-template", a.refine_template, "File replacing the refine prompt");
  c->add_option("--score-template", a.score_template, "File replacing the scoring prompt");
  c->add_option("--pick-template", a.pick_template, "File replacing the pick prompt");
  add_output_flags(c, a.json, a.quiet, "the result(s)");
}

}  // namespace

void add_ground(CLI::App &app) {
  auto a = std::make_shared<GroundArgs>();
  auto *c = app.add_subcommand("ground", "The ontology term (PSI-MI interaction type) that best describes how two proteins "
                                         "interact in a text, with quotes, confidence and trace");
  add_db_option(c, a->db);
  c->add_option("--text", a->text, "The paper: plain text, Markdown, PubTator, BioC XML/JSON or PPI corpus XML");
  c->add_option("--format", a->format, "Its format: detect, text, pubtator, bioc-xml, bioc-json, ppi-xml, jsonl");
  c->add_option("--document", a->document, "The document of a file that holds several (id or PubMed id)");
  c->add_option("--pair", a->pair, "The two proteins, e.g. MAPT,GSK3B (names, aliases or ids)");
  c->add_option("--pairs", a->pairs, "Many pairs: lines A<TAB>B (with --text) or FILE<TAB>A<TAB>B");
  add_grounding_flags(c, *a);
  c->add_option("--html", a->html, "Write a self-contained HTML report (the terms scored drawn in the ontology, the summary)");
  c->add_flag("--dry-run", a->o.dry_run, "Print the most model calls and prompt tokens it could take; send nothing");
  c->callback([a] { run(*a); });
}

void add_eval(CLI::App &app) {
  auto *e = app.add_subcommand("eval", "Evaluate an agent against curated labels");
  e->require_subcommand(1);
  auto a = std::make_shared<GroundArgs>();
  auto *c = e->add_subcommand("grounding", "Relation grounding against IntAct's curated interaction types (PSI-MITAB)");
  add_db_option(c, a->db);
  c->add_option("--gold", a->pairs, "PSI-MITAB file (IntAct, plain or gzipped): pair, PubMed id and interaction type per row")
      ->required();
  c->add_option("--texts", a->text, "The papers: a corpus file (PubTator, BioC, PPI XML) or a directory of files "
                                     "(text files named <PMID>.txt or ...PMID<PMID>...)")
      ->required();
  c->add_option("--format", a->format, "Format of the papers: detect, text, pubtator, bioc-xml, bioc-json, ppi-xml, jsonl");
  c->add_option("--judge", a->judges, "A judge model on --base-url comparing the prediction with the gold term on the "
                                      "text (twice: only their agreed verdicts count; 'extractive': the offline judge)");
  add_grounding_flags(c, *a);
  c->callback([a] { run_eval(*a); });
  add_eval_extraction(*e);
  add_eval_hypotheses(*e);
  add_eval_qa(*e);
}

}  // namespace grappi::cli
