// The grappi command line: what every command shares (argument parsing helpers, table and
// number formatting, the one progress bar, opening the database, writing outputs). Commands
// hold no logic of their own: they turn flags into the C++ API's options and print its results.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "grappi/grappi.hpp"

namespace grappi::cli {

/// Registration of every command: an add_x that declares its flags into an args struct and a run
/// that calls the library, per command; the files group them by area (graph_commands.cpp,
/// retrieval_commands.cpp, explore_command.cpp), since CLI11's templates make every translation
/// unit costly to compile.
void add_import(CLI::App &app);
void add_info(CLI::App &app);
void add_neighbors(CLI::App &app);
void add_resolve(CLI::App &app);
void add_edges(CLI::App &app);
void add_export(CLI::App &app);
void add_remove_dataset(CLI::App &app);
void add_embed(CLI::App &app);
void add_embed_parts(CLI::App &app);
void add_search(CLI::App &app);
void add_window(CLI::App &app);
void add_paths(CLI::App &app);
void add_khop(CLI::App &app);
void add_pagerank(CLI::App &app);
void add_pcst(CLI::App &app);
void add_retrieve(CLI::App &app);
void add_explore(CLI::App &app);
void add_ontology(CLI::App &app);
void add_enrich(CLI::App &app);
void add_ppi_enrichment(CLI::App &app);
void add_cluster(CLI::App &app);
void add_communities(CLI::App &app);
void add_bel(CLI::App &app);
void add_ground(CLI::App &app);
void add_eval(CLI::App &app);
void add_extract(CLI::App &app);
void add_cooc(CLI::App &app);
void add_hypothesize(CLI::App &app);
void add_ask(CLI::App &app);
void add_train_reader(CLI::App &app);
void add_serve(CLI::App &app);
void add_mcp(CLI::App &app);
void add_papers(CLI::App &app);
void add_train_ranker(CLI::App &app);
/// `eval extraction`, under the eval command add_eval makes.
void add_eval_extraction(CLI::App &eval);
void add_eval_hypotheses(CLI::App &eval);
void add_eval_qa(CLI::App &eval);

/// Exit statuses: 0 success, 1 a failure of the work itself (I/O, database, network, model),
/// 2 a bad argument or a name that does not resolve.
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
/// Model calls a run with a language model makes without asking (explore, extract, ground, hypothesize, eval): more needs
/// --max-calls or --yes.
constexpr std::size_t kCallsWithoutAsking = 500;

/// When parsing failed: the first word of the command line that names no command or option of
/// the command chosen ("explore: unknown option --protien; did you mean --protein?"),
/// else empty (tools/cli/suggest.cpp).
std::string unknown_argument(const CLI::App &app, int argc, char **argv);

/// Thrown by a command that has printed its result and must still exit with a status (for
/// example `resolve --json` of a name that does not resolve).
struct ExitStatus {
  int status;
};

/// The language-model flags explore, ground and extract share.
struct ChatArgs {
  std::string llm = "extractive";  ///< "extractive" (offline) or "openai"
  std::string model;               ///< the chat model's name (openai)
  OpenAIChatOptions chat;          ///< base URL, key variable, sampling, timeout, retries
  bool no_json_mode = false;       ///< do not send response_format json_object
};

/// Declares --llm (whose help says what the offline default is), --base-url, --model,
/// --api-key-env, --temperature, --seed, --timeout, --retries and --no-json-mode.
void add_chat_flags(CLI::App *cmd, ChatArgs &a, const std::string &offline);

/// The model the flags name, with `concurrency` requests in flight; Error(invalid_argument)
/// naming the command for openai without a model.
std::shared_ptr<LanguageModel> chat_model_of(const ChatArgs &a, std::size_t concurrency, const std::string &command);
/// Throws Error(llm) when a language model answered none of an explore run's requests (every one
/// failed), naming the first reason: the command exits 1, serve's job ends failed.
void require_some_answer(const ExploreResult &r, const LanguageModel &model, const std::string &what);

/// The budget flags of a run with a language model, declared once for every command that asks
/// one: --max-calls and --max-tokens (what `per` says they bound: "of the run", "per question";
/// a spent budget stops the run, its result marked partial), --yes (without it or --max-calls, a
/// run that could take more than kCallsWithoutAsking model calls is refused; left out where
/// `with_yes` is false) and --no-cache (left out where `with_cache` is false: a run in a temporary
/// database). `max_tokens` null: no --max-tokens.
struct BudgetArgs {
  bool yes = false, no_cache = false;
  /// The run's confirmation threshold as --yes sets it.
  void confirm(std::size_t &confirm_calls) const {
    if (!yes) confirm_calls = kCallsWithoutAsking;
  }
  /// The run's cache use and confirmation threshold as the flags set them.
  void apply(bool &use_cache, std::size_t &confirm_calls) const {
    use_cache = !no_cache;
    confirm(confirm_calls);
  }
};
void add_budget_flags(CLI::App *cmd, BudgetArgs &a, std::size_t &max_calls, int64_t *max_tokens, const std::string &per,
                      bool with_yes = true, bool with_cache = true);

/// The output flags of a command that prints a summary and can write its result as JSON, declared
/// once: --json FILE ("Write `what` as JSON ...", '-' for standard output) and --quiet.
void add_output_flags(CLI::App *cmd, std::string &json, bool &quiet, const std::string &what);

/// The --db option every graph command has.
void add_db_option(CLI::App *cmd, std::string &db, bool create = false);

/// Opens the database; `writable` also creates it when missing.
/// How a command opens its database: `read` (read-only: never waits for a writer, works on a
/// read-only file), `write` (an existing one), `create` (import only).
enum class Access { read, write, create };
KnowledgeGraph open_graph(const std::string &db, Access access, int cache_mib = 64);

/// A database a command may create: when the file did not exist and the command fails before
/// keep(), the file and its companions (-wal, -shm, -journal, .csr) are removed again, so that a
/// failed import into a new path leaves nothing a later command would open as an empty
/// database. Declared before the KnowledgeGraph, so that the graph is closed first.
class NewDatabase {
 public:
  explicit NewDatabase(std::string path);
  ~NewDatabase();
  NewDatabase(const NewDatabase &) = delete;
  NewDatabase &operator=(const NewDatabase &) = delete;
  void keep() { keep_ = true; }

 private:
  std::string path_;
  bool existed_ = true, keep_ = false;
};

/// Edge scores on the command line: 0-1 as they are (1 means 1.0); above 1, a whole number on
/// STRING's 0-1000 scale (700 = 0.7). Error(invalid_argument) naming the flag for anything else
/// (negative, above 1000, or a fraction above 1 such as 1.5, which no scale reads plainly).
double score_arg(double v, const char *flag = "--min-score");
/// "30,4" -> {30, 4}: positive integers.
std::vector<std::size_t> parse_k(const std::string &spec, const char *flag = "--k");
/// "1-3", "2", "1,3,5" -> window numbers (from 1).
std::vector<std::size_t> parse_windows(const std::string &spec, const char *flag);

/// Appends the items of a list written with commas, blanks or line breaks between them ("EGFR,
/// KRAS TP53") to `out`, empty items left out.
void add_list_items(std::vector<std::string> &out, const std::string &text);

/// v with `prec` digits after the point.
std::string fmt(double v, int prec = 3);
/// A table for people: left-aligned columns, cells cut at 60 characters.
void print_table(const std::vector<std::string> &head, const std::vector<std::vector<std::string>> &rows);
/// Writes text to a file, or to standard output for "-". Error(io) naming the file.
void write_output(const std::string &path, const std::string &text);

/// The flags of the question's subgraph by PCST (retrieve, ask, eval qa).
struct RetrievalArgs {
  std::string mode = "gretriever", pruning = "gw", model;
  PcstRetrieveOptions o;  ///< the numeric options, bound directly
  double min_score = 0;
  std::vector<std::string> relations, labels, weights;
  bool fast_order = false, reference_order = false;
};
/// Declares --mode, --topk, --topk-e, --cost-e, --pyg-cap, --alpha, --beta, --gamma, --lambda,
/// --seeds, --hops, --degree-cap, --node-budget, --min-score, --relation, --relation-weight,
/// --label, --pruning, --clusters, --fast-order, --reference-order and `model_flag` (the
/// embedding model; "--embedding-model" where --model names the chat model).
void add_retrieval_flags(CLI::App *cmd, RetrievalArgs &a, const std::string &model_flag = "--model");
/// The options the flags give; Error(invalid_argument) for a bad --relation-weight.
PcstRetrieveOptions retrieval_options(const RetrievalArgs &a);

/// Adds to every option of every command taking unsigned whole numbers a check that refuses
/// negative values (CLI11 would wrap "-1" to a huge count), and to every option taking real
/// numbers one that refuses nan and infinities.
void check_numbers(CLI::App &app);

/// The one progress bar (stderr, only when it is a terminal): a stage name, done of total.
class ProgressBar {
 public:
  ProgressBar();
  void operator()(const std::string &stage, uint64_t done, uint64_t total, const std::string &detail = "");

 private:
  bool enabled_;
  std::string last_stage_, last_detail_;
  int last_pct_ = -1;
};

}  // namespace grappi::cli
