// grappi/grounding.hpp — relation grounding by ontology traversal: which term of an ontology
// (PSI-MI "interaction type" by default) best describes how two proteins interact in a text,
// with the evidence quotes, a confidence and the trace of the terms considered. After Reder et
// al., "Agentic Knowledge Graph Traversal in Protein-Protein Relation Grounding": a relation
// summary, a traversal that scores terms 1-5 against it, and a pick among the best-scored terms.
#pragma once

#include "grappi/run_control.hpp"
#include "grappi/export.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/knowledge_graph.hpp"
#include "grappi/llm.hpp"

namespace grappi {

/// How the ontology is walked.
enum class GroundingStrategy {
  bfs,       ///< breadth-first from the root, children by external id
  dfs,       ///< depth-first (pre-order) from the root, children by external id
  dynamic,   ///< greedy: the root's children, then the children of a term only when it scores >= threshold
  pagerank,  ///< every term, by descending PageRank of the ontology graph (ties by id)
  random,    ///< every term in a seeded random order
  rag,       ///< only the rag_k terms whose text is most similar to the summary
  stuff      ///< every term in one listwise request
};

/// "bfs", "dfs", "dynamic", "pagerank", "random", "rag", "stuff".
GRAPPI_CXX_API const char *to_string(GroundingStrategy strategy) noexcept;
/// Inverse of to_string; Error(invalid_argument) listing the names otherwise.
GRAPPI_CXX_API GroundingStrategy grounding_strategy(std::string_view name);
/// Every strategy, in the order above.
GRAPPI_CXX_API std::vector<GroundingStrategy> all_grounding_strategies();

/// Prompt templates of the three stages ({{name}} fields; see the docs/ground.md "Grounding"). The
/// version is part of every cache key.
struct GRAPPI_CXX_API GroundingTemplates {
  std::string version;  ///< "ground-1-<hash>" built in, "custom-<hash>" after load
  std::string system;   ///< the system message
  /// The first chunk: {{protein_a}}, {{protein_b}}, {{chunk}}, {{part}}, {{parts}}.
  std::string summary;
  /// Every later chunk: the same fields and {{summary}} (the summary so far).
  std::string refine;
  /// Scoring: {{protein_a}}, {{protein_b}}, {{summary}}, {{terms}} (id, name, definition and
  /// synonyms of each term of the request, one block per term).
  std::string score;
  /// Picking: {{protein_a}}, {{protein_b}}, {{summary}}, {{terms}} (the best-scored terms).
  std::string pick;
  /// The follow-up turn after an answer that does not parse: {{error}}.
  std::string repair;
  /// The built-in templates.
  static GroundingTemplates defaults();
  /// Replaces the non-empty templates with files' contents, checks their fields
  /// (Error(invalid_argument) naming the file and field) and sets the version.
  void load(const std::string &system_file, const std::string &summary_file, const std::string &refine_file,
            const std::string &score_file, const std::string &pick_file);
};

/// Options of ground().
/// RunControl for grounding: max_calls and max_tokens bound one grounding; confirm_calls counts
/// the dry-run bound summed over the pairs and strategies of one ground() call; cancel is polled
/// before each model request (the requests not sent are "skipped"); progress reports "pairs"
/// (the jobs of a batch ground() done of their total).
struct GroundingOptions : RunControl {
  GroundingStrategy strategy = GroundingStrategy::pagerank;  ///< how the ontology is walked
  std::string root = "MI:0190";  ///< the subtree whose live terms may be chosen (id or name)
  /// The ontology the root must belong to, as its OBO `ontology:` header names it ("mi" for
  /// PSI-MI, "go"; a file without the header: its file name), any case; empty: any. A root
  /// of another ontology is an error.
  std::string ontology;
  std::vector<std::string> relations = {"obo.is_a"};  ///< child -> parent relations
  std::size_t batch = 1;          ///< terms per scoring request (listwise when > 1); stuff: all
  std::size_t chunk_size = 4000;  ///< characters per chunk of the text (relation summary)
  std::size_t chunk_overlap = 400;  ///< characters shared by consecutive chunks
  /// bfs, dfs, random, pagerank: stop when the last `patience` evaluations found no better
  /// score and then `lookahead` more do not either (0: score every term).
  std::size_t patience = 10;
  std::size_t lookahead = 5;  ///< terms scored after the patience ran out
  int threshold = 3;          ///< dynamic: the score whose children are queued
  std::size_t rag_k = 10;     ///< rag: terms scored
  uint64_t seed = 1;          ///< random: the order's seed
  /// Plan only: no model call; the result holds the most calls the strategy could make (every
  /// chunk, every term it could score, one pick) and their prompt tokens, estimated with the
  /// longest summary the summary request allows and one term shown to the pick.
  bool dry_run = false;
  GroundingTemplates templates = GroundingTemplates::defaults();  ///< the prompts
};

/// A quote the summary gives as evidence, checked against the text.
struct GroundingQuote {
  std::string text;        ///< as the model gave it
  bool in_text = false;    ///< found verbatim in the input (blanks and case aside)
  std::size_t offset = 0;  ///< where it starts in the input, when found
};

/// One term considered by the traversal.
struct GroundingVisit {
  int64_t term = 0;         ///< node id
  std::string id;           ///< external id ("MI:0407")
  std::string name;         ///< term name
  std::optional<int> score; ///< 1-5; none when the answer failed or was skipped
  std::string status;       ///< "ok", "cached", "failed", "skipped"
  std::string error;        ///< why it failed or was skipped
  bool lookahead = false;   ///< scored during a look-ahead
};

/// The outcome of one grounding.
struct GroundingResult {
  std::string protein_a;  ///< the first protein as named
  std::string protein_b;  ///< the second protein as named
  std::vector<std::string> names_a;  ///< the names of the first protein searched for in the text
  std::vector<std::string> names_b;  ///< the names of the second protein searched for in the text
  GroundingStrategy strategy = GroundingStrategy::pagerank;  ///< the walk used
  std::string root;                  ///< the root's external id
  std::size_t chunks = 0;            ///< chunks of the text
  std::string summary;               ///< the relation summary
  std::string summary_status;        ///< "ok" or "failed" (the error says why)
  std::string summary_error;         ///< why the summary failed
  std::vector<GroundingQuote> quotes;  ///< evidence quotes, each checked against the text
  std::vector<GroundingVisit> visits;  ///< the terms scored, in visit order
  std::size_t candidates = 0;        ///< live terms under the root
  std::string stop_reason;           ///< why the traversal stopped
  /// The chosen term: a live term under the root among the best-scored ones; none when no
  /// term could be scored.
  std::optional<GroundingVisit> term;
  int best_score = 0;               ///< the best score reached (0: none)
  std::vector<std::string> tied;    ///< external ids of the terms that reached it
  std::optional<int> confidence;    ///< the model's self-assessed confidence (1-5)
  std::string pick_status;          ///< "single", "ok", "cached", "fallback" (the pick failed), "none"
  std::string pick_error;           ///< why the pick fell back
  StageUsage summary_usage;    ///< model use of the relation summary
  StageUsage traversal_usage;  ///< model use of the traversal (scoring)
  StageUsage pick_usage;       ///< model use of the pick
  bool offline = false;  ///< the answers came from the offline model, not a language model
  bool dry_run = false;  ///< planned only (estimated_* hold the plan)
  std::size_t estimated_calls = 0;         ///< dry run: model calls (at most)
  int64_t estimated_prompt_tokens = 0;     ///< dry run: prompt tokens (at most)
  nlohmann::json model;  ///< the model's description
  std::string template_version;  ///< the templates used
};

/// One pair to ground in a text (the text is the caller's and must outlive the call).
struct GroundingJob {
  std::string_view text;  ///< the paper's text
  std::string protein_a;  ///< the first protein as the user names it
  std::string protein_b;  ///< the second protein
};

/// Grounds protein pairs in texts over one ontology subtree, read once: its live terms, their
/// texts, the PageRank order and the term-text statistics are shared by every grounding.
/// ground() is thread-safe: pairs may be grounded from several threads at once.
class GRAPPI_CXX_API Grounder {
 public:
  /// Reads the subtree under options.root. Error(not_found) when the root is not a term of
  /// the database, Error(invalid_argument) for a zero batch or chunk size, an overlap not
  /// below the chunk size or an unknown relation.
  Grounder(KnowledgeGraph &kg, LanguageModel &model, GroundingOptions options = {});
  /// The same with the run's model (RunControl::model; null: the offline default).
  explicit Grounder(KnowledgeGraph &kg, GroundingOptions options = {});
  ~Grounder();
  Grounder(const Grounder &) = delete;
  Grounder &operator=(const Grounder &) = delete;
  /// Grounds the relation between two proteins in a text with the options' strategy. The
  /// proteins are named as the user knows them; the names searched for in the text are those
  /// names and, when the knowledge base resolves them, the protein's preferred name and
  /// name-like aliases. Never throws for a failing model: failures are recorded in the
  /// result. Error(invalid_argument) for an empty name or text.
  GroundingResult ground(std::string_view text, const std::string &protein_a, const std::string &protein_b) const;
  /// Error(not_found) naming a protein of the pair that is neither a node of the database nor
  /// written in the text as a word (a typo such as STAT33), with the closest names; the
  /// single-pair ground() calls it first (a misspelt protein is not grounded with confidence),
  /// the batch ground() does not (an evaluation goes on past one bad pair).
  void check_names(std::string_view text, const std::string &protein_a, const std::string &protein_b) const;
  /// The same with another strategy (the summary and term scores are shared through the
  /// response cache).
  GroundingResult ground(std::string_view text, const std::string &protein_a, const std::string &protein_b,
                         GroundingStrategy strategy) const;
  /// Grounds many jobs, up to `concurrency` at once, each with every strategy given in turn
  /// (the later ones reuse the summary and the term scores through the response cache):
  /// result[i][k] is job i with strategies[k]. The first error (a bad job) is rethrown after
  /// the running jobs finish.
  std::vector<std::vector<GroundingResult>> ground(const std::vector<GroundingJob> &jobs,
                                                   const std::vector<GroundingStrategy> &strategies,
                                                   std::size_t concurrency) const;
  /// Live terms under the root (the root included).
  std::size_t terms() const;
  /// The options in force.
  const GroundingOptions &options() const;
  /// The knowledge graph it reads.
  KnowledgeGraph &graph() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// One grounding with a fresh Grounder; see Grounder::ground.
GRAPPI_CXX_API GroundingResult ground(KnowledgeGraph &kg, LanguageModel &model, std::string_view text,
                                      const std::string &protein_a, const std::string &protein_b,
                                      const GroundingOptions &options = {});
/// The same with the run's model (RunControl::model; null: the offline default).
GRAPPI_CXX_API GroundingResult ground(KnowledgeGraph &kg, std::string_view text, const std::string &protein_a,
                                      const std::string &protein_b, const GroundingOptions &options = {});

/// The result as JSON (docs/ground.md "Grounding").
GRAPPI_CXX_API nlohmann::json to_json(const GroundingResult &result);

// ---- evaluation against curated labels ------------------------------------------------------

/// What a curator recorded for a protein pair in a paper: the interaction types (IntAct's
/// MITAB rows of that publication and pair).
struct GroundingGold {
  std::string pmid;                 ///< the paper
  std::string protein_a;            ///< the first interactor's name (gene name, else its id)
  std::string protein_b;            ///< the second interactor's name
  std::vector<std::string> terms;   ///< the curated interaction types ("MI:0915"), sorted
  double miscore = 0;               ///< the best intact-miscore of the rows (0 when none)
  std::size_t rows = 0;             ///< MITAB rows behind it
  std::string where;                ///< file:line of its first row
};

/// The gold labels of a PSI-MITAB 2.5/2.6/2.7 file (plain or gzipped), one per publication and
/// unordered pair of interactors; rows without a PubMed id or an interaction type are left
/// out (and counted in `skipped`). Error(parse) naming the file and line for a malformed row.
GRAPPI_CXX_API std::vector<GroundingGold> read_grounding_gold(const std::string &mitab_path,
                                                              std::size_t *skipped = nullptr);

/// One gold case grounded with one strategy.
struct GroundingCase {
  std::size_t gold = 0;              ///< index into the gold list
  GroundingStrategy strategy = GroundingStrategy::pagerank;  ///< the strategy
  std::string predicted;             ///< the chosen term ("" when none)
  std::string predicted_name;        ///< its name
  /// "exact", "ancestor" (the prediction is more general than a gold term), "descendant"
  /// (more specific), "related" (another branch), "none" (no prediction), "unknown_gold"
  /// (no gold term is in the ontology).
  std::string relation;
  std::optional<std::size_t> distance;   ///< fewest is_a steps to the nearest gold term via a common ancestor
  std::optional<std::size_t> lca_depth;  ///< depth under the root of that lowest common ancestor
  std::optional<int> confidence;         ///< the model's self-assessed confidence
  int score = 0;                         ///< the best score of the traversal
  /// The judges' verdict on the prediction against the gold term: "win" (the prediction
  /// describes the text better), "tie" (as well; always for an exact match), "loss", "disagree"
  /// (two judges did not agree), "failed" (a judge's answer failed), "" (no judge).
  std::string verdict;
  std::size_t model_calls = 0;           ///< calls of this grounding (all stages)
  int64_t prompt_tokens = 0;             ///< prompt tokens of this grounding
  std::size_t cache_hits = 0;            ///< answers from the cache
};

/// The figures of one strategy over the cases.
struct GroundingFigures {
  GroundingStrategy strategy = GroundingStrategy::pagerank;  ///< the strategy
  std::size_t cases = 0;         ///< cases grounded
  std::size_t answered = 0;      ///< with a predicted term
  std::size_t exact = 0;         ///< prediction equal to a gold term
  std::size_t ancestor = 0;      ///< prediction an ancestor of a gold term
  std::size_t descendant = 0;    ///< prediction a descendant of a gold term
  std::size_t related = 0;       ///< elsewhere in the ontology
  double mean_distance = 0;      ///< over the answered cases with a distance
  double mean_lca_depth = 0;     ///< likewise
  std::size_t wins = 0;          ///< judged: the prediction better than the gold term
  std::size_t ties = 0;          ///< judged as good (exact matches included)
  std::size_t losses = 0;        ///< judged worse
  std::size_t disagreements = 0; ///< two judges disagreed (not counted as a verdict)
  double calls_per_grounding = 0;   ///< model calls per case
  double tokens_per_grounding = 0;  ///< prompt tokens per case
  /// By self-assessed confidence ("1".."5", "none"): cases, exact matches and the mean
  /// miscore of their gold (the reference's Figure 1D in numbers).
  std::map<std::string, std::tuple<std::size_t, std::size_t, double>> by_confidence;
};

/// The most-frequent-term baseline: the gold term most cases have (ties by id) answered for
/// every case, compared with each case's gold terms as the strategies' predictions are.
struct GroundingBaseline {
  std::string term;             ///< its id (empty: no gold term is in the ontology)
  std::string name;             ///< its name
  std::size_t cases = 0;        ///< cases compared
  std::size_t exact = 0;        ///< the term is one of the case's gold terms
  std::size_t ancestor = 0;     ///< an ancestor of one
  std::size_t descendant = 0;   ///< a descendant of one
};

/// The evaluation: every case, and the figures per strategy.
struct GroundingEvaluation {
  std::vector<GroundingGold> gold;      ///< the gold cases evaluated (those with a text)
  std::size_t without_text = 0;         ///< gold cases whose paper had no text
  std::vector<GroundingCase> cases;     ///< gold x strategy, in gold order
  std::vector<GroundingFigures> figures;  ///< per strategy, in the order given
  GroundingBaseline most_frequent;      ///< the most-frequent-term baseline on the same cases
  /// Whether the verdicts (wins, ties, losses) come from the offline judge: word overlap with
  /// the text, not a judgement of meaning (reported as "overlap", never as wins).
  bool offline_judge = false;
};

/// Grounds every gold case whose PMID has a text (`texts`: PMID -> text) with each strategy and
/// compares the predictions with the gold terms in the grounder's ontology; `concurrency`
/// cases at once. With judges (one or two models), each prediction that is not the gold term
/// is judged against the gold's most specific term on the text, as the reference did: the
/// judge is shown both terms (in an order that alternates from case to case) and says which
/// describes the pair's interaction better, or that they tie; with two judges only the
/// verdicts they agree on count. A judge's answer is parsed like every other; one that fails
/// is recorded as "failed". Error(parse) when no gold case has a text (none of their PubMed
/// ids among `texts`).
GRAPPI_CXX_API GroundingEvaluation evaluate_grounding(const Grounder &grounder, const std::vector<GroundingGold> &gold,
                                                      const std::map<std::string, std::string> &texts,
                                                      const std::vector<GroundingStrategy> &strategies,
                                                      std::size_t concurrency = 4,
                                                      const std::vector<LanguageModel *> &judges = {});

/// The evaluation as JSON (docs/ground.md "Grounding").
GRAPPI_CXX_API nlohmann::json to_json(const GroundingEvaluation &evaluation);

}  // namespace grappi
