// grappi/answer.hpp — grounded answers to free-text questions (the answering half of the
// G-Retriever-style pipeline): the question's subgraph by PCST, the subgraph written as the
// model's context (G-Retriever's CSV or a form with each edge's evidence) within a token budget,
// an answer whose every sentence cites the context's nodes, edges, PubMed ids or interaction
// ids — each citation checked against the context — and the ranked answer entities.
#pragma once

#include "grappi/run_control.hpp"
#include "grappi/export.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/knowledge_graph.hpp"
#include "grappi/llm.hpp"
#include "grappi/question.hpp"
#include "grappi/retriever.hpp"

namespace grappi {

class GatReader;

/// Prompt templates of the answer ({{name}} fields; docs/ask.md "Questions").
struct GRAPPI_CXX_API AnswerTemplates {
  std::string version;  ///< "answer-1-<hash>" built in, "custom-<hash>" after load
  std::string system;   ///< the system message
  /// {{question}}, {{context}} (the subgraph as written), {{format}} ("csv" or "evidence").
  std::string answer;
  /// The repair turn: {{problems}} (each sentence that was not supported, and why).
  std::string repair;
  /// The question's intent, asked when the rules leave a question that names entities open:
  /// {{question}}, {{entities}} (grappi/question.hpp).
  std::string intent;
  /// The built-in templates.
  static AnswerTemplates defaults();
  /// Replaces the non-empty templates with files' contents, checks their fields and sets the version.
  void load(const std::string &system_file, const std::string &answer_file, const std::string &repair_file = {},
            const std::string &intent_file = {});
};

/// Options of ask().
/// RunControl for ask: confirm_calls counts the calls one question can make (its intent, the
/// answer and the repair turn: at most three); cancel is polled after the question's analysis,
/// in the retrieval's stages and before each model request: the answer is "skipped" with the
/// reason "cancelled by the caller" (what was done - the analysis, the retrieval, the context -
/// is kept; the answer entities are left out when it stops before the context); progress
/// reports "retrieve" (the question analysed and its subgraph retrieved and ranked), "context"
/// (the context built) and "answer" (the answer asked, checked and repaired), each 1 of 1.
struct AskOptions : RunControl {
  /// The question's subgraph for open questions: seeds, k-hop expansion (relations, degree cap),
  /// the prize mode ("gretriever" or "prize") and its parameters, per-relation weights (the
  /// question's entities are always in it: PcstRetrieveOptions::anchors). The relation filter
  /// (khop.filter) and the relation weights also apply to the intents' retrieval.
  PcstRetrieveOptions retrieval;
  /// Retrieve for the question's intent (grappi/question.hpp: partners, connects, paths,
  /// class); false: every question is open (PCST over the question's prizes).
  bool intents = true;
  /// Ask the model for the intent when the rules leave a question that names entities open
  /// (not the offline model; one call, cached and budgeted like the answer).
  bool model_intent = true;
  /// Candidates an intent keeps in the subgraph (the best first; all of them are ranked).
  std::size_t intent_candidates = 50;
  /// The question reader to use (evaluate_qa and train_reader build one for all their
  /// questions); built for the call when empty.
  std::shared_ptr<const QuestionAnalyzer> analyzer;
  /// A multiple-choice question's options (names or ids): entities the question names that are
  /// options are candidates, not what the question is about (not the intent's entities, never
  /// left out of the answer entities).
  std::vector<std::string> choices;
  std::string embedding_model;  ///< the stored model the question is embedded with (empty: the latest)
  /// The context: "evidence" (each node with its annotation, each edge with its evidence:
  /// channels, PubMed ids, interaction ids and detection methods, evidence text) or "csv"
  /// (G-Retriever's textualisation).
  std::string context = "evidence";
  /// Rough token budget of the context (characters / 4); the lowest-prize nodes and their edges
  /// are left out until it fits (0: none).
  std::size_t max_context_tokens = 4000;
  /// Passages of the papers the database holds (`grappi import --corpus`, `cooc build`,
  /// `extract`) added to the context as P0, P1, ...: found by full-text search for the
  /// question's entities and the context's other entities, each one naming at least one entity
  /// of the context the question does not name, written as its sentences that name context
  /// entities (0: none; nothing is added when the database holds no papers). Within the token
  /// budget: a paper that does not fit is left out.
  std::size_t papers = 3;
  std::size_t top = 10;  ///< answer entities returned
  /// Leave the entities the question names out of the answer entities ("which kinases
  /// phosphorylate tau": tau is not an answer).
  bool exclude_question_entities = true;
  bool repair = true;          ///< one turn asking the model to fix the sentences that were not supported
  bool dry_run = false;        ///< build the request and count it; send nothing
  AnswerTemplates templates = AnswerTemplates::defaults();  ///< the prompts
  /// How the answer entities are ranked: "prize" (those the answer names, the partners of the
  /// question's entities, then by PCST prize) or "gat" (the stored graph reader's scores over
  /// the nodes it was trained to read; its likeliest answers are also listed in the context:
  /// grappi/reader.hpp).
  std::string reader = "prize";
  std::string reader_name = "gat";  ///< the stored reader "gat" uses
  /// A reader already loaded (evaluate_qa loads it once); when set, reader_name is not read.
  std::shared_ptr<const GatReader> gat;
};

/// A stored paper's passage in the context (label P\<i\> is AnswerContext::papers[i]).
struct AnswerPaper {
  std::string key;      ///< the paper's key in the database: its PubMed id, else the source's document id
  std::string pmid;     ///< its PubMed id (may be empty)
  int year = 0;         ///< its publication year (0: unknown)
  std::string title;    ///< its title (may be empty)
  std::string excerpt;  ///< the passage's sentences that name context entities, as written into the context
  std::vector<int64_t> nodes;  ///< the context's nodes the excerpt names
};

/// The subgraph as the model read it.
struct AnswerContext {
  std::string format;             ///< "evidence" or "csv"
  std::string text;               ///< the context as written into the prompt
  std::vector<int64_t> nodes;     ///< node N\<i\> is nodes[i]
  std::vector<int64_t> edges;     ///< edge E\<i\> is edges[i]
  std::size_t tokens = 0;         ///< its rough token count
  std::size_t trimmed_nodes = 0;  ///< nodes of the subgraph left out by the budget (lowest prize first)
  std::size_t trimmed_edges = 0;  ///< edges left out with them
  std::vector<AnswerPaper> papers;  ///< paper P\<i\> is papers[i] (AskOptions::papers)
};

/// One citation of a sentence, checked.
struct AnswerCitation {
  std::string id;      ///< as written: "N3", "E2", "P0", "PMID:12345", "EBI-1234", a name or external id
  std::string kind;    ///< "node", "edge", "paper", "pmid", "interaction" or "unknown"
  /// "supported" (in the context; an edge touching an entity the sentence names, a paper whose
  /// excerpt names one), "not_in_context" (a real id the context did not hold), "wrong_entities"
  /// (a context edge or paper that names none of the entities the sentence names),
  /// "unknown_id" (resolves to nothing). A PubMed id of a context paper is checked as the paper.
  std::string status;
  /// What it resolved to (a node's name, "A -- B (relation)", a paper's "PMID:…"); empty when nothing.
  std::string target;
  int64_t node = 0;    ///< the node a node citation resolved to (0: none)
  int64_t edge = 0;    ///< the edge an edge citation resolved to (0: none)
};

/// One sentence of the answer.
struct AnswerSentence {
  std::string text;                       ///< the sentence, citations included
  std::vector<AnswerCitation> citations;  ///< in order
  std::vector<std::string> entities;      ///< the context's entities it names
  /// "supported" (every citation supported), "uncited" (no citation), else the worst
  /// citation's status: "unknown_id", "not_in_context", "wrong_entities"; "extractive" for the
  /// offline model's sentences, supported by construction (they are the context's own edges,
  /// not a model's claims).
  std::string status;
};

/// The answer in the form the question asks (QuestionFrame::form), decided from the knowledge base by rules whatever
/// model writes the sentences (docs/ask.md "Question forms"): it is what `grappi ask` prints first and what
/// `eval qa` scores.
struct FormAnswer {
  std::string form;  ///< "list", "yes_no", "count", "path", "enrichment", "modules" or "unsupported"
  /// list: the answers' external ids, best first (those the frame admits, at most AskOptions::top); yes_no: true or
  /// false (a claim's truth for a statement: "A does not bind B" is true when no edge joins them), null when the
  /// database cannot say (an entity without any edge); count: the number; path: the routes found, best first, each a
  /// list of external ids (at most 5); enrichment: the GO terms enriched (FDR <= 0.05), best first (at most 10), each
  /// {"term", "name", "category", "fdr", "observed", "set_size", "background", "proteins" (external ids)}; modules:
  /// the Leiden clusters of three or more proteins, largest first (at most 10), each {"module", "size", "members"
  /// (external ids, hubs first), "hubs" (names), "internal_edges", "terms", "edges"};
  /// unsupported: null.
  nlohmann::json value;
  /// The answer in one line, citing the edges it rests on ("Yes: GSK3B - MAPT, string.combined 0.999 [E3]"; "No: no
  /// edge joins A and B in string.physical at score >= 0.400"; "I can't answer that: ...").
  std::string text;
  std::vector<int64_t> edges;  ///< the edges it rests on (database ids; at most 50)
  std::string looked_up;       ///< the edges looked up, in words ("string.combined at score >= 0.700 (high confidence)")
  std::string reason;          ///< why it is unsupported or the database cannot say, in one line; empty otherwise
  /// What else the reader should know: a family answered over its members, evidence asked and not held, the
  /// entities of a class left apart; empty when nothing.
  std::string note;
};

/// A ranked answer entity.
struct AnswerEntity {
  int64_t node = 0;        ///< its node
  std::string id;          ///< its external id
  std::string name;        ///< its name
  std::string label;       ///< its label
  double score = 0;        ///< its cosine similarity to the question
  double prize = 0;        ///< its PCST prize
  bool named = false;      ///< the answer names or cites it (those come first, by prize)
  std::string evidence;    ///< its strongest edge in the subgraph, as text
  std::vector<int64_t> edges;  ///< that edge (empty when it has none)
  double reader_score = 0; ///< the graph reader's probability that it answers (reader "gat"; else 0)
  /// Whether the question's frame admits it as an answer (of the class or topic asked, among a comparison's choices):
  /// those that are not come after the others, apart, and are not in FormAnswer::value.
  bool admitted = true;
};

/// What ask() found.
struct GRAPPI_CXX_API AskResult {
  std::string question;                     ///< as asked
  /// What the question asks: its entities and intent (the entities also in question_entities).
  QuestionAnalysis analysis;
  /// How the subgraph was retrieved for the intent, in words ("the partners of CDC28 by edge
  /// score"; for open questions, PCST's).
  std::string recipe;
  /// The intents "connects" and "paths": the node sequences joining the two entities, best
  /// first (at most 20).
  std::vector<std::vector<int64_t>> paths;
  PcstRetrieval retrieval;                  ///< the subgraph and its prizes
  std::vector<QuestionEntity> question_entities;  ///< the entities the question names (always in the subgraph)
  AnswerContext context;                    ///< what the model read
  /// The answer in the question's form, decided by rules from the knowledge base (printed first).
  FormAnswer answer;
  std::vector<AnswerEntity> answer_entities;  ///< ranked
  std::vector<AnswerSentence> sentences;    ///< the answer given, sentence by sentence
  /// The first answer's sentences when a repair turn was asked (its outcome is `sentences`
  /// when it did not make things worse).
  std::vector<AnswerSentence> first_sentences;
  bool repaired = false;   ///< a repair turn was asked
  /// "ok", "no_answer" (the database cannot answer: an entity without any edge; answer.reason says why, no model is
  /// asked), "failed" (every model request failed), "skipped" (budget or cancelled), "dry_run"
  std::string status;
  std::string error;       ///< why it failed or was skipped
  StageUsage usage;        ///< model use
  std::size_t planned_calls = 0;    ///< dry run: calls it could take (the answer and a repair)
  int64_t planned_tokens = 0;       ///< dry run: prompt tokens of the answer request
  bool offline = false;             ///< the answer came from the offline model
  nlohmann::json model;             ///< the model's description
  std::string template_version;     ///< the templates used
  std::string reader;               ///< how the answer entities were ranked ("prize", "gat")
  std::string reader_scope;  ///< with reader "gat": the graph reader's scope ("subgraph" or "base")
  std::string reader_name;   ///< with reader "gat": the stored reader's name
  /// The stable id (external_id) of every node the result names by row id: the subgraph's
  /// nodes and seeds, the context's nodes and papers' nodes, the paths.
  std::map<int64_t, std::string> external_ids;
  /// How many sentences have this status.
  std::size_t count(const std::string &status) const;
};

/// Answers a question from the knowledge base (needs embedded nodes: grappi embed):
/// retrieval by PCST, the context, the model's answer with its citations checked (one repair
/// turn), the answer entities. Error(invalid_argument) for an empty question, an unknown context
/// format or nothing embedded.
GRAPPI_CXX_API AskResult ask(KnowledgeGraph &kg, LanguageModel &model, const std::string &question,
                             const AskOptions &options = {});
/// The same with the run's model (RunControl::model; null: the offline default).
GRAPPI_CXX_API AskResult ask(KnowledgeGraph &kg, const std::string &question, const AskOptions &options = {});

/// A question of an evaluation set.
struct QaQuestion {
  std::string id;        ///< its id (the line or row number when the file gives none)
  std::string question;  ///< the text asked
  /// "entities" (answers are entities, ranked by the answer entities), "choice" (one of
  /// `options`), "true_false" (a yes/no question or a statement: judged by the answer's value),
  /// "count" (a number: judged by the answer's value) or "unsupported" (a question no form
  /// answers: right when the answer says so, or is not ok).
  std::string kind = "entities";
  /// The answer's form the question asks, when the set says so ("form": list, yes_no, count,
  /// path, unsupported; eval qa reports the figures per form); else the kind's ("entities":
  /// list, "true_false": yes_no, "count", "unsupported", "choice": list).
  std::string form;
  /// gold answers: node ids or names (choice: the right option; true_false: "true"/"false"; count: the number;
  /// unsupported: none)
  std::vector<std::string> answers;
  std::vector<std::string> options;  ///< the options of a multiple-choice question
  std::string reference;             ///< a reference answer text for ROUGE (may be empty)
  /// The intent the question asks, when the set says so ("intent"; eval qa reports how often
  /// it was recognised); empty otherwise.
  std::string intent;
  /// The entities the question names, when the set says so ("entities": ids or names; eval qa
  /// reports how many were linked); empty otherwise.
  std::vector<std::string> entities;
};

/// Reads questions: JSON lines {"question", "answers": [ids or names], "options"?, "id"?,
/// "reference"?, "kind"?, "intent"?, "entities"?} or the KG-RAG CSV forms (multiple choice: `correct_node`,
/// `options_combined`, `text`; true/false: `text`, `label`), detected from the content.
/// Error(parse) naming the file and line for malformed input.
GRAPPI_CXX_API std::vector<QaQuestion> read_qa_questions(const std::string &path);
/// The same for text in memory (`name` in messages).
GRAPPI_CXX_API std::vector<QaQuestion> parse_qa_questions(std::string_view content, const std::string &name);

/// Options of evaluate_qa().
struct QaEvalOptions {
  AskOptions ask;        ///< how each question is answered (ask.top is raised to at least k and 10)
  std::size_t k = 10;    ///< the K of Recall\@K
  uint64_t seed = 1;     ///< the random baseline's order
  /// A run with a language model and no ask.max_calls that could make more calls than this
  /// (per question: the answer, the repair turn and the intent when those are asked) sends nothing:
  /// Error(invalid_argument) with the bound (0: no such limit; the command line sets 500
  /// unless --yes).
  std::size_t confirm_calls = 0;
};

/// One question's outcome.
struct QaEvalRow {
  QaQuestion question;                      ///< the question
  std::string status;                       ///< ask's status, or "error" (the message in error)
  std::string error;                        ///< why
  std::vector<AnswerEntity> answer_entities;  ///< ranked
  std::vector<std::size_t> gold_ranks;      ///< 1-based rank of each gold answer among the entities (0: absent)
  std::size_t gold_resolved = 0;            ///< gold answers that name a node of the knowledge base
  std::size_t gold_retrieved = 0;           ///< gold answers among the retrieved subgraph's nodes (0 when none is)
  std::vector<QuestionEntity> question_entities;  ///< the entities the question was found to name
  std::string intent;                       ///< the intent recognised
  std::string intent_source;                ///< "rules" or "model"
  std::size_t entities_expected = 0;        ///< entities the set says the question names
  std::size_t entities_linked = 0;          ///< of them linked (by id, name or alias)
  double baseline_random_rr = 0;            ///< the random-order neighbour baseline's reciprocal rank
  double baseline_score_rr = 0;             ///< the score-ordered neighbour baseline's reciprocal rank
  double reciprocal_rank = 0;               ///< 1 / rank of the first gold answer (0: none)
  bool hit = false;                         ///< G-Retriever's Hit: a gold label is a substring of the normalised answer
  std::string choice;                       ///< the option (or "true"/"false") the answer chose; empty when none
  bool correct = false;                     ///< choice, true/false, count and unsupported questions: answered right
  /// The answer in the question's form, as ask() gave it (what the judgement of true/false, count and unsupported
  /// questions reads).
  FormAnswer form_answer;
  /// A true/false question's edge look-up baseline: "true"/"false" (empty: fewer than two entities).
  std::string baseline_lookup;
  /// A count question's baseline: the median count of the set's other count questions.
  double baseline_median = 0;
  double rouge_1 = 0;                       ///< against the reference answer, when given
  double rouge_l = 0;                       ///< against the reference answer, when given
  std::string answer;                       ///< the answer's text
  std::size_t sentences = 0;                ///< its sentences
  std::size_t supported = 0;                ///< of them supported
  std::size_t uncited = 0;                  ///< of them without a citation
  std::size_t extractive = 0;               ///< of them the offline model's (supported by construction)
  StageUsage usage;                         ///< model use
};

/// Rank figures of one way of ranking over the entity questions.
struct QaRankFigures {
  std::size_t questions = 0;  ///< entity questions counted
  double mrr = 0;             ///< mean reciprocal rank of the first gold answer
  double hits_at_1 = 0;       ///< share with a gold answer first
  double hits_at_5 = 0;       ///< ... among the first 5
  double hits_at_10 = 0;      ///< ... among the first 10
  double recall_at_k = 0;     ///< mean share of gold answers among the first k
};

/// The figures of the questions of one answer form, beside its baselines on the same questions.
struct QaFormFigures {
  std::string form;            ///< "list", "choice" (multiple-choice questions), "yes_no", "count", "path" or "unsupported"
  std::size_t questions = 0;   ///< questions of the form (as the set says, else by kind)
  /// What is measured: "mrr" (list, path: the first gold answer's rank among the answer entities), "accuracy"
  /// (yes_no: the answer's value; choice: the option chosen), "exact" (count: the value is the gold number),
  /// "marked" (unsupported: the answer says it cannot answer, or is not ok).
  std::string measure;
  double value = 0;            ///< the figure
  /// The baselines on the same questions, by name: list and path "neighbours_random", "neighbours_by_score"; yes_no
  /// "always_yes", "edge_lookup" (an edge of any score between the two entities); choice "prior" (the option most
  /// often right in the set's other questions); count "median" (the set's median count, the question's own left
  /// out); unsupported none.
  std::vector<std::pair<std::string, double>> baselines;
};

/// The figures of the questions of one intent.
struct QaIntentFigures {
  std::string intent;          ///< the intent recognised
  QaRankFigures answers;       ///< grappi's answer entities
  QaRankFigures random;        ///< the named-entity neighbour baseline, random order
  QaRankFigures by_score;      ///< the named-entity neighbour baseline, by edge score
  /// Share of the questions with a gold answer in the retrieved subgraph (retrieval recall).
  double retrieval_recall = 0;
  double gold_in_subgraph = 0;  ///< mean share of a question's gold answers in the subgraph
};

/// What evaluate_qa() measured.
struct QaEvalResult {
  std::vector<QaEvalRow> rows;  ///< per question, in order
  std::size_t k = 10;           ///< the K of Recall\@K
  std::size_t entity_questions = 0;  ///< questions whose answers are entities (the ranking figures')
  double mrr = 0;               ///< mean reciprocal rank
  double hits_at_1 = 0;         ///< share with a gold answer first
  double hits_at_5 = 0;         ///< ... among the first 5
  double hits_at_10 = 0;        ///< ... among the first 10
  double recall_at_k = 0;       ///< mean share of gold answers among the first k
  double hit = 0;               ///< G-Retriever's Hit over all questions
  std::size_t choice_questions = 0;  ///< multiple-choice and true/false questions
  double accuracy = 0;          ///< their share answered right
  std::size_t undecided = 0;    ///< of them left without a choice (counted wrong)
  std::size_t reference_questions = 0;  ///< questions with a reference answer
  double rouge_1 = 0;           ///< their mean ROUGE-1 F1
  double rouge_l = 0;           ///< their mean ROUGE-L F1
  /// Sentences a model wrote (the shares below are of these) and the offline model's
  /// (supported by construction, counted apart).
  std::size_t model_sentences = 0;
  std::size_t extractive_sentences = 0;  ///< the offline model's sentences
  double supported_share = 0;   ///< of the model's sentences: supported
  double uncited_share = 0;     ///< ... without a citation
  double unsupported_share = 0; ///< ... citing what the context did not hold or does not resolve
  /// Share of the entity questions with a gold answer in the retrieved subgraph.
  double retrieval_recall = 0;
  double gold_in_subgraph = 0;  ///< mean share of a question's gold answers in the subgraph
  /// Baselines on the same entity questions: the entities the question names, their
  /// neighbours in a random order (QaEvalOptions::seed) and by edge score.
  QaRankFigures baseline_random;
  QaRankFigures baseline_by_score;     ///< see baseline_random
  std::vector<QaIntentFigures> by_intent;  ///< per intent recognised, in question_intents() order
  std::vector<QaFormFigures> by_form;      ///< per answer form the set asks (list, choice, yes_no, count, path, unsupported)
  std::size_t questions_with_entities = 0;  ///< questions in which an entity was found
  std::size_t entities_expected = 0;   ///< entities the set says its questions name
  std::size_t entities_linked = 0;     ///< of them linked
  std::size_t intents_expected = 0;    ///< questions whose set says their intent
  std::size_t intents_recognised = 0;  ///< of them recognised as said
  /// Multiple choice: the option most often right in the other questions of the set (the
  /// option-frequency prior); true/false: the label most frequent in the others. Accuracy.
  double baseline_prior_accuracy = 0;
  std::size_t errors = 0;       ///< questions that could not be answered (see their rows)
  StageUsage usage;             ///< model use in all
  double seconds = 0;           ///< wall time
  double ask_seconds_p50 = 0;   ///< median time ask() took on one question (its own measure, usage.seconds)
  double ask_seconds_p95 = 0;   ///< the 95th percentile of it (nearest rank)
  std::string reader;           ///< how the answer entities were ranked ("prize", "gat")
};

/// Answers every question with ask() and scores the answers (docs/ask.md "Evaluating answers"):
/// Hits\@1/5/10, Recall\@K and MRR of the ranked answer entities against the gold answers (names,
/// aliases or ids, resolved to nodes), G-Retriever's Hit, accuracy of multiple-choice and
/// true/false questions, ROUGE against reference answers, the sentences' statuses. A question
/// that fails (no subgraph, an error) is a row with its error and counts as a miss.
GRAPPI_CXX_API QaEvalResult evaluate_qa(KnowledgeGraph &kg, LanguageModel &model, const std::vector<QaQuestion> &questions,
                                        const QaEvalOptions &options = {});
/// The same with the model of options.ask (RunControl::model; null: the offline default).
GRAPPI_CXX_API QaEvalResult evaluate_qa(KnowledgeGraph &kg, const std::vector<QaQuestion> &questions,
                                        const QaEvalOptions &options = {});

/// The summary as JSON (mrr, hits_at_1, hits_at_5, hits_at_10, recall_at_k, ...).
GRAPPI_CXX_API nlohmann::json to_json(const QaEvalResult &result);
/// One row as a JSON line (the question, its ranked answer_entities, its figures).
GRAPPI_CXX_API nlohmann::json to_json(const QaEvalRow &row);

/// The result as JSON (docs/ask.md "Questions": answer_entities, sentences, ...).
GRAPPI_CXX_API nlohmann::json to_json(const AskResult &result);
/// The result as a Markdown report.
GRAPPI_CXX_API std::string to_markdown(const AskResult &result);
/// The subgraph as a CX2 network (Cytoscape, NDEx): answer entities and question entities marked.
GRAPPI_CXX_API nlohmann::json to_cx2(const KnowledgeGraph &kg, const AskResult &result);

}  // namespace grappi
