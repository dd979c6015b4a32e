// grappi/hypothesis.hpp — how two concepts may be related (after HGCR, Tyagin et al.): ranked
// paths between them through the literature co-occurrence graph (and any other relation of the
// knowledge base), an explanation from the abstracts behind the best paths that cites them, and
// every sentence of it checked against the knowledge base, re-worked in at most a few rounds.
#pragma once

#include "grappi/run_control.hpp"
#include "grappi/export.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/cooccurrence.hpp"
#include "grappi/documents.hpp"
#include "grappi/knowledge_graph.hpp"
#include "grappi/llm.hpp"
#include "grappi/path_ranker.hpp"

namespace grappi {

/// A path between the two concepts, with what its edges say.
struct HypothesisPath {
  std::vector<int64_t> nodes;        ///< node ids, source to target
  std::vector<std::string> names;    ///< their names
  std::vector<std::string> external_ids;  ///< their stable ids (MESH:D007980, NCBIGene:7157, ...)
  std::vector<std::string> labels;   ///< their labels (concept types)
  std::vector<int64_t> edges;        ///< edge ids
  std::vector<std::string> relations;  ///< each edge's relation
  /// Each edge's NPMI (a co-occurrence edge), else its score (STRING, BEL, ...).
  std::vector<double> weights;
  std::vector<std::size_t> support;  ///< each edge's shared documents (0 for other relations)
  std::vector<double> jaccards;      ///< each edge's Jaccard index (co-occurrence edges; else 0)
  std::vector<int> latest_years;     ///< each edge's most recent document's year (0: unknown)
  std::vector<bool> curated;         ///< each edge's pair is also joined by a curated relation (not co-occurrence)
  std::vector<std::vector<int64_t>> pmids;  ///< each edge's PubMed ids, most recent first
  /// Each node's share of the literature graph's documents (its document frequency; -1 when
  /// no co-occurrence edge of the path says).
  std::vector<double> shares;
  /// Each node's documents (units) in the literature graph (0 when no co-occurrence edge says).
  std::vector<std::size_t> documents;
  /// Each node's documents shared with the source (the co-occurrence edge joining them, 0
  /// without one; the source itself: its own documents).
  std::vector<std::size_t> with_source;
  std::vector<std::size_t> with_target;  ///< the same with the target
  std::size_t papers = 0;      ///< distinct documents behind the path's edges
  bool single_paper = false;   ///< the whole path rests on one paper (its co-occurrence edges all on the same one)
  /// Intermediate concepts not yet joined to an end by an edge of the graph, counted per end (a
  /// concept joined to neither counts 2): 0 when every intermediate is already named with both
  /// ends (always for a path of two edges).
  std::size_t open_ends = 0;
  double mean_weight = 0;  ///< mean of weights
  double min_weight = 0;   ///< minimum of weights
  /// Embedding similarity of the path's concepts to the pair (HypothesisOptions::
  /// embedding_weight): the mean over intermediate nodes of the mean of their cosine
  /// similarities to the source and to the target (a direct edge: the source's to the target's);
  /// a node without a vector counts 0. 0 when not computed.
  double similarity = 0;
  /// The ranking score: HypothesisOptions::scorer, else the ranker's; else with an embedding
  /// weight w > 0, (1 - w) (0.5 mean + 0.5 min) + w similarity; else the prior
  /// (PathRanker::prior(): shorter paths first, then frequent intermediate concepts).
  double score = 0;
};

/// Prompt templates of the explanation ({{name}} fields; docs/literature.md "Hypotheses").
struct GRAPPI_CXX_API HypothesisTemplates {
  std::string version;  ///< "hypothesis-1-<hash>" built in, "custom-<hash>" after load
  std::string system;   ///< the system message
  /// {{source}}, {{target}}, {{paths}} (the ranked paths), {{abstracts}} (PMID and text of each),
  /// {{feedback}} (empty in the first round; then the sentences the knowledge base did not support).
  std::string explain;
  /// The built-in templates.
  static HypothesisTemplates defaults();
  /// Replaces the non-empty templates with files' contents, checks their fields and sets the version.
  void load(const std::string &system_file, const std::string &explain_file);
};

/// Options of hypothesize().
/// RunControl for hypothesize: confirm_calls counts two calls per round (the explanation and its
/// repair turn); cancel is polled during the path search (before each spur search) and before
/// each model request: the run stops with stop_reason "cancelled" (the paths found so far kept;
/// a round not asked is "skipped"); progress reports "paths" (1 of 1, once the paths are ranked)
/// and "rounds" (each explanation round done, out of `rounds`: the last call may come before
/// `rounds` when the run converges or stops).
struct HypothesisOptions : RunControl {
  /// Relations the paths follow (empty: every relation of the database).
  std::vector<std::string> relations = {"cooc.document"};
  std::size_t max_length = 4;  ///< edges in a path at most
  std::size_t paths = 10;      ///< ranked paths kept
  /// Shortest simple paths searched before filtering and ranking (0: 4 x paths); with
  /// shortest_rounds, shortest paths per round at most.
  std::size_t candidates = 0;
  /// How the candidate paths are found. 0 (the default): the `candidates` shortest simple paths
  /// of at most max_length edges (Yen: shortest first, then longer ones). n >= 1: HGCR's
  /// candidates, n rounds of every shortest path (all of one length), each round with the
  /// earlier rounds' intermediate concepts masked (HGCR: Tyagin et al., arXiv 2511.05498, which
  /// runs 2; docs/literature.md); at most 100.
  std::size_t shortest_rounds = 0;
  bool mask_direct = false;    ///< leave out the direct edge (indirect relations only)
  /// Labels the intermediate nodes must have (any case; empty: any).
  std::vector<std::string> intermediate_labels;
  std::size_t context = 7;  ///< abstracts given to the model (the reference's best trade-off)
  std::size_t rounds = 5;   ///< explanations at most (the first and the re-worked ones)
  /// Relations that support a pair of entities a sentence names (empty: every relation).
  std::vector<std::string> support_relations;
  /// Weight in [0, 1] of the embedding similarity of the path's concepts to the pair in the
  /// default score (HypothesisPath::similarity; 0: not used). Needs the nodes embedded (grappi
  /// embed, with any embedder).
  double embedding_weight = 0;
  /// The stored embedding model for the similarity (empty: the database's default model).
  std::string embedding_model;
  /// A path scorer replacing the default (higher is better; it sees similarity when
  /// embedding_weight > 0); ties are broken by fewer edges, then node ids.
  std::function<double(const HypothesisPath &)> scorer;
  /// A trained path ranker (grappi/path_ranker.hpp) scoring the paths when no scorer is given.
  std::shared_ptr<const PathRanker> ranker;
  /// Species and generic concepts in the middle of a path. Off (the default): a species
  /// (PubTator's "Species", an NCBITaxon id: "patients", "mice") or a concept in more than
  /// max_intermediate_share of the literature graph's documents and in 20 documents at least
  /// ("cancer" in a cancer corpus) is never an intermediate; the search goes round them.
  bool generic_intermediates = false;
  double max_intermediate_share = 0.05;  ///< in (0, 1]: the share above which a concept is generic
  /// Paths that are reorderings of the same concepts (A-x-y-B, A-y-x-B) are one: the best kept.
  bool fold_reorderings = true;
  HypothesisTemplates templates = HypothesisTemplates::defaults();  ///< the prompts
};

/// A pair of entities a sentence names, checked against the knowledge base.
struct HypothesisCheck {
  std::string a;        ///< the first entity's name
  std::string b;        ///< the second entity's name
  bool supported = false;             ///< an edge joins them
  std::vector<std::string> relations;  ///< the relations of the edges that do
  /// One of them is curated knowledge (STRING, IntAct, BEL, ...: any relation but the
  /// literature's co-occurrence, which comes from the abstracts the explanation quotes).
  bool curated = false;
};

/// One sentence of an explanation.
struct HypothesisSentence {
  std::string text;                    ///< the sentence
  std::vector<std::string> citations;  ///< the PubMed ids it cites
  std::vector<std::string> entities;   ///< the knowledge base's entities it names
  std::vector<HypothesisCheck> checks; ///< each pair of them
  /// Checked against evidence independent of the text: "quoted" (the sentence is written word
  /// for word in an abstract it cites), "curated" (every pair of the entities it names is
  /// joined by a curated relation of the knowledge base: STRING, IntAct, BEL, ...),
  /// "co-mentioned" (every pair is joined, some only by co-occurrence: the abstracts' own
  /// evidence), "unsupported" (a pair nothing joins), "bad_citation" (a PubMed id outside the
  /// context), "unchecked" (fewer than two entities, not quoted). Unsupported sentences and bad
  /// citations are re-worked.
  std::string status;
};

/// One explanation and its check.
struct HypothesisRound {
  std::vector<std::string> context;   ///< the PubMed ids given, in order
  std::string status;                 ///< "ok", "failed", "skipped" (budget)
  std::string error;                  ///< why it failed or was skipped
  std::vector<HypothesisSentence> sentences;  ///< the explanation, sentence by sentence
  std::size_t rework = 0;             ///< sentences marked for rework
  /// Abstracts replaced before the next round: (the one most similar to a reworked sentence,
  /// the next unused one of the same path edge).
  std::vector<std::pair<std::string, std::string>> replaced;
};

/// What hypothesize() found.
struct HypothesisResult {
  int64_t source = 0;          ///< the source node
  int64_t target = 0;          ///< the target node
  std::string source_name;     ///< its name
  std::string target_name;     ///< its name
  std::string source_external_id;  ///< its stable id
  std::string target_external_id;  ///< its stable id
  std::vector<HypothesisPath> paths;  ///< ranked, best first
  std::vector<HypothesisRound> rounds;  ///< every explanation, in order
  /// The round whose explanation is given: the last one without rework, else the one with the
  /// fewest reworked sentences (the earliest of those); -1 when no explanation succeeded.
  int final_round = -1;
  /// "converged", "max_rounds", "no_replacement", "no_paths", "no_context", "failed" (a round's
  /// explanation could not be had: final_round keeps the best earlier one, if any), "cancelled"
  /// (HypothesisOptions::cancel said stop; final_round as for "failed").
  std::string stop_reason;
  StageUsage usage;       ///< model use
  bool offline = false;   ///< the explanations came from the offline model
  nlohmann::json model;   ///< the model's description
  std::string template_version;  ///< the templates used
};

/// Ranks paths from source to target (names, aliases or ids), gives the abstracts of the best
/// paths (their text from `corpus` by PubMed id, else from the papers the knowledge base holds:
/// `corpus` may be empty) to the model for an explanation, checks each sentence against the
/// knowledge base and re-works it in rounds. Error(not_found) for a name
/// that does not resolve, Error(invalid_argument) for zero paths, context or rounds.
GRAPPI_CXX_API HypothesisResult hypothesize(KnowledgeGraph &kg, LanguageModel &model, const std::string &source,
                                            const std::string &target, const std::vector<Document> &corpus,
                                            const HypothesisOptions &options = {});
/// The same with the run's model (RunControl::model; null: the offline default).
GRAPPI_CXX_API HypothesisResult hypothesize(KnowledgeGraph &kg, const std::string &source, const std::string &target,
                                            const std::vector<Document> &corpus, const HypothesisOptions &options = {});

/// The association score of a path: (1 - w) (0.5 mean + 0.5 min of its edges' weights) + w
/// similarity, w the embedding weight (HypothesisOptions::scorer with it scores by the
/// association weights, as `grappi hypothesize --weights` does).
GRAPPI_CXX_API double association_score(const HypothesisPath &path, double embedding_weight = 0);

/// The ranked paths hypothesize() starts from (its first stage; no model): up to
/// options.candidates (default 4 x options.paths) shortest simple paths over options.relations, filtered, scored and ranked,
/// the best options.paths kept. Error(not_found) for an unknown node, Error(invalid_argument)
/// for zero paths or max_length, an embedding weight outside [0, 1], or a weight without
/// stored vectors.
GRAPPI_CXX_API std::vector<HypothesisPath> rank_hypothesis_paths(const KnowledgeGraph &kg, int64_t source, int64_t target,
                                                                 const HypothesisOptions &options = {});

/// The result as JSON (docs/literature.md "Hypotheses").
GRAPPI_CXX_API nlohmann::json to_json(const HypothesisResult &result);
/// The result as a Markdown report.
GRAPPI_CXX_API std::string to_markdown(const HypothesisResult &result);

/// Options of evaluate_hypotheses(): the reference's temporal protocol.
struct HypothesisEvalOptions {
  /// The split: documents published before this year build the graph, the others are the
  /// future. Unset: every document dated, the first `split` share of them in date order (then
  /// PubMed id order within a year); when a document has no year, the first `split` share in
  /// PubMed id order (documents without a PubMed id are then left out and counted).
  std::optional<int> as_of;
  double split = 0.8;  ///< the share of documents before the split, in (0, 1)
  /// A split given by the corpus itself: its first `before` documents are before the split,
  /// the rest after it (a corpus's own train, dev and test files: train before dev). Over
  /// as_of and split for evaluate_hypotheses(); the nested ranker splits the earlier documents
  /// by `split` as usual. evaluate_hypotheses_splits() and train_path_ranker() refuse it.
  std::optional<std::size_t> before;
  /// How the graphs are built (scope, titles, types; the graph the paths follow keeps edges of
  /// at least min_count units; as_of is set by the split).
  CoocOptions cooc;
  /// Paths and explanations: max_length, intermediate_labels, paths (those given to the
  /// explanation), context, rounds, budgets, templates, embedding_weight (the concepts are then
  /// embedded with `embedder`); relations are the graph's own.
  HypothesisOptions hypothesis;
  /// Paths per pair for the AUC and the top-`top` share: the shortest ones (the same whatever
  /// the score), each scored and ranked.
  std::size_t paths = 50;
  std::size_t pairs = 200;     ///< test pairs at most: the most often linked after the split first, then by ids
  std::size_t explain = 20;    ///< pairs explained for ROUGE and the loop's figures (the first ones; 0: none)
  std::size_t top = 10;        ///< a pair counts when a positive path is among its first `top`
  /// A run with a language model and no hypothesis.max_calls that could make more calls than
  /// this (explained pairs x rounds x 2) sends nothing: Error(invalid_argument) with the bound
  /// (0: no such limit; hypothesis.confirm_calls is not used here; the command line sets 500
  /// unless --yes).
  std::size_t confirm_calls = 0;
  std::string embedder = "lsa";  ///< with an embedding weight: "lsa" or "hashing", fitted on the concepts' names
  /// How the paths are scored: "prior" (PathRanker::prior(), what hypothesize() scores with
  /// when no ranker is stored; the default, chosen on BioRED's dev set: BENCHMARKS.md), "trained"
  /// (a path ranker fitted on the documents before the split alone, by the same protocol nested
  /// inside them: no later document leaks; the prior when they hold too few labelled paths to
  /// learn from), "weights"
  /// (the association weights, blended with the embedding similarity by its weight), or a
  /// ranker given in `ranker`. The baselines are scored on the same paths and labels whatever
  /// this says.
  std::string scoring = "prior";
  std::shared_ptr<const PathRanker> ranker;  ///< a stored ranker to score with (scoring is then ignored)
  PathRankerOptions ranker_options;          ///< how the nested ranker is fitted
  uint64_t seed = 1;                          ///< the random baseline's order and the resamples' draws
  /// Resamples of the pairs (with replacement; a pair's paths drawn together) for the 95%
  /// intervals of grappi's figures minus each baseline's (HypothesisEvalResult::differences;
  /// 0: the differences without intervals; at most 1,000,000).
  std::size_t bootstrap = 1000;
  /// Where the temporary database of the graph as of the split is made (default: the system's
  /// temporary directory); it is removed afterwards.
  std::string work_dir;
};

/// One test pair: two concepts first linked (in one document) after the split, both in the
/// graph before it.
struct HypothesisEvalPair {
  std::string source;       ///< the first concept's id
  std::string target;       ///< the second's
  std::string source_name;  ///< its name
  std::string target_name;  ///< its name
  std::vector<std::string> later;  ///< the documents after the split naming both (PubMed ids)
  std::vector<HypothesisPath> paths;  ///< ranked paths in the graph before the split
  /// Per path: positive when each of its intermediate concepts is named in one of `later`.
  std::vector<bool> positive;
  double auc = -1;          ///< ROC AUC of the path scores (-1: not both classes)
  int first_positive = 0;   ///< rank of the best positive path (1-based; 0: none)
  bool explained = false;   ///< an explanation was asked for
  std::string explanation;  ///< its final text
  double rouge_1 = 0;       ///< ROUGE-1 F1 against the best-matching later document
  double rouge_l = 0;       ///< ROUGE-L F1 against the best-matching later document
  std::size_t rounds = 0;   ///< explanations made
  std::size_t sentences = 0;  ///< sentences in every round
  std::size_t reworked = 0;   ///< of them marked for rework
  std::string stop_reason;    ///< hypothesize()'s stop reason
};

/// What evaluate_hypotheses() measured.
struct HypothesisEvalResult {
  std::string split;         ///< "year", "date_order", "pmid_order" or "given" (HypothesisEvalOptions::before)
  std::string split_note;    ///< why PubMed id order was used, when it was
  /// The year; the first document after the split ("2019 (PMID 31234567)"; its PubMed id in
  /// PubMed id order)
  std::string cutoff;
  std::size_t before = 0;    ///< documents before the split
  std::size_t after = 0;     ///< documents after it
  std::size_t left_out = 0;  ///< documents without the year or PubMed id the split needs
  std::string relation;      ///< the graph's relation
  std::size_t concepts = 0;  ///< concepts of the graph before the split
  std::size_t edges = 0;     ///< its edges
  std::size_t candidates = 0;  ///< pairs first linked after the split with both concepts in that graph
  std::vector<HypothesisEvalPair> pairs;  ///< the evaluated ones, in order
  std::size_t with_paths = 0;     ///< pairs with at least one path
  std::size_t paths = 0;          ///< paths ranked in all
  std::size_t positive_paths = 0; ///< of them positive
  /// The candidate paths: HypothesisOptions::shortest_rounds (0: the `paths` shortest; n: n
  /// rounds of every shortest path, HGCR's candidates).
  std::size_t shortest_rounds = 0;
  double auc_micro = -1;     ///< ROC AUC over every pair's paths together (-1: not both classes)
  double auc_macro = -1;     ///< mean of the pairs' AUCs (-1: no pair has both classes)
  std::size_t auc_pairs = 0;  ///< pairs with both classes (the macro mean's)
  double top_share = 0;      ///< share of pairs with paths that have a positive path among the first `top`
  std::size_t top = 10;      ///< that `top`
  /// How the paths were scored ("trained", "stored", "weights").
  std::string scoring;
  /// The nested ranker's training: its pairs and paths, and the split inside the earlier documents.
  nlohmann::json ranker;
  /// Baselines on the same paths and labels: name -> {auc_micro, auc_macro, top_share}
  /// ("shorter_first": fewer edges first, ties broken at random; "document_frequency": the
  /// intermediates' mean document frequency, higher first; "weights": the association weights;
  /// "random").
  nlohmann::json baselines = nlohmann::json::object();
  /// grappi's figures minus each baseline's, on the same paths and labels, with 95% percentile
  /// intervals over HypothesisEvalOptions::bootstrap resamples of the pairs: {"resamples",
  /// "level", "unit": "pair", "seed", "versus": name -> {"auc_micro", "auc_macro"}: each
  /// {"difference", "low", "high", "resamples"} (null when a figure is missing; low and high
  /// null without resamples). An interval whose low end is above 0 is a margin the corpus's
  /// pairs show; one that spans 0 is not.
  nlohmann::json differences = nlohmann::json::object();
  std::size_t explained = 0;   ///< pairs explained
  double rouge_1 = 0;          ///< their mean ROUGE-1 F1
  double rouge_l = 0;          ///< their mean ROUGE-L F1
  double mean_rounds = 0;      ///< rounds per explained pair
  double reworked_share = 0;   ///< share of all rounds' sentences marked for rework
  std::size_t not_converged = 0;  ///< explained pairs whose loop stopped other than "converged"
  StageUsage usage;            ///< model use of the explanations
  bool offline = false;        ///< the explanations came from the offline model
  nlohmann::json model;        ///< the model's description
  double seconds = 0;          ///< wall time
  /// HypothesisOptions::cancel (options.hypothesis.cancel) stopped the labelling or the nested
  /// ranker's training: no figures (the AUCs stay -1), no explanation.
  bool cancelled = false;
};

/// The reference's temporal evaluation (HGCR): the co-occurrence graph of the documents before
/// the split, in a temporary database; the pairs first linked after it; each pair's ranked paths
/// labelled positive when their intermediate concepts are named in the later documents that
/// name the pair; ROC AUC of the path scores (micro over all paths, macro over pairs), the share
/// of pairs with a positive path in the top `top`; for the first `explain` pairs, the
/// explanation (with `model`) scored by ROUGE against those later documents, with the
/// validation loop's figures. Error(invalid_argument) for a split outside (0, 1) or a corpus
/// with nothing on one side of the split.
GRAPPI_CXX_API HypothesisEvalResult evaluate_hypotheses(const std::vector<Document> &corpus, LanguageModel &model,
                                                        const HypothesisEvalOptions &options = {});
/// The same with the model of options.hypothesis (RunControl::model; null: the offline default).
GRAPPI_CXX_API HypothesisEvalResult evaluate_hypotheses(const std::vector<Document> &corpus,
                                                        const HypothesisEvalOptions &options = {});

/// The summary as JSON (docs/literature.md "Evaluating hypotheses").
GRAPPI_CXX_API nlohmann::json to_json(const HypothesisEvalResult &result);

/// What evaluate_hypotheses() measured at several splits of one corpus.
struct HypothesisSplitsResult {
  std::vector<double> splits;              ///< the shares before each split, as asked
  std::vector<HypothesisEvalResult> runs;  ///< one per split, in order (fewer when cancelled)
  /// The means over the splits: "grappi" and each baseline's name (`baselines` of a run) ->
  /// {"auc_micro", "auc_macro"} (null when no split has the figure) and "splits_micro",
  /// "splits_macro" (how many splits have it).
  nlohmann::json means;
  bool cancelled = false;  ///< a run was cancelled (the runs before it are kept)
};

/// evaluate_hypotheses() at each split of `splits` (shares in (0, 1), in PubMed id or date
/// order; not with options.as_of) and the means of its figures and its baselines' figures over
/// them: a small corpus's figures move with the split, and a score is judged by its mean
/// (BENCHMARKS.md "Hypotheses against their baselines"). Error(invalid_argument) for no split,
/// a split outside (0, 1), as_of set, or a split that leaves one side empty (naming it).
GRAPPI_CXX_API HypothesisSplitsResult evaluate_hypotheses_splits(const std::vector<Document> &corpus, LanguageModel &model,
                                                                 const HypothesisEvalOptions &options,
                                                                 const std::vector<double> &splits);
/// The same with the model of options.hypothesis (RunControl::model; null: the offline default).
GRAPPI_CXX_API HypothesisSplitsResult evaluate_hypotheses_splits(const std::vector<Document> &corpus,
                                                                 const HypothesisEvalOptions &options,
                                                                 const std::vector<double> &splits);
/// {"splits": [each run's summary, with its "split_share"], "means": ...}.
GRAPPI_CXX_API nlohmann::json to_json(const HypothesisSplitsResult &result);

/// What train_path_ranker() did.
struct PathRankerTraining {
  PathRanker ranker;          ///< the ranker fitted
  std::string split;          ///< "year" or "pmid_order"
  std::string cutoff;         ///< the year, or the first PubMed id after the split
  std::size_t before = 0;     ///< documents before the split (the graph's)
  std::size_t after = 0;      ///< documents after it (the labels')
  std::size_t pairs = 0;      ///< pairs with labelled paths
  std::size_t paths = 0;      ///< paths in all
  std::size_t positives = 0;  ///< of them positive
  double auc_micro = -1;      ///< on its own training paths (a fit figure, not a test)
  /// options.hypothesis.cancel stopped the labelling (polled per pair and in each pair's path
  /// search): nothing was fitted (the ranker is untrained; store nothing).
  bool cancelled = false;
};

/// Fits a path ranker on a corpus by the temporal protocol (HypothesisEvalOptions' split,
/// graph, pairs and labels): the graph of the documents before the split, the pairs first
/// linked after it, their paths labelled by those later documents. Error(invalid_argument)
/// when no labelled pair has both a positive and a negative path.
GRAPPI_CXX_API PathRankerTraining train_path_ranker(const std::vector<Document> &corpus,
                                                    const HypothesisEvalOptions &options = {});
/// One pair as a JSON line (its first `top` paths, labels, AUC, explanation and scores).
GRAPPI_CXX_API nlohmann::json to_json(const HypothesisEvalPair &pair, std::size_t top = 10);

/// ROUGE-1 F1 of a text against a reference: unigram overlap of lower-case words.
GRAPPI_CXX_API double rouge_1_f1(const std::string &text, const std::string &reference);
/// ROUGE-L F1: the longest common subsequence of lower-case words.
GRAPPI_CXX_API double rouge_l_f1(const std::string &text, const std::string &reference);

}  // namespace grappi
