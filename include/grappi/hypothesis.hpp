// grappi/hypothesis.hpp — how two concepts may be related (after HGCR, Tyagin et al.): ranked
// paths between them through the literature co-occurrence graph (and any other relation of the
// knowledge base), an explanation from the abstracts behind the best paths that cites them, and
// every sentence of it checked against the knowledge base, re-worked in at most a few rounds.
#pragma once

#include "grappi/export.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/documents.hpp"
#include "grappi/knowledge_graph.hpp"
#include "grappi/llm.hpp"
#include "grappi/pipeline.hpp"

namespace grappi {

/// A path between the two concepts, with what its edges say.
struct HypothesisPath {
  std::vector<int64_t> nodes;        ///< node ids, source to target
  std::vector<std::string> names;    ///< their names
  std::vector<std::string> labels;   ///< their labels (concept types)
  std::vector<int64_t> edges;        ///< edge ids
  std::vector<std::string> relations;  ///< each edge's relation
  /// Each edge's NPMI (a co-occurrence edge), else its score (STRING, BEL, ...).
  std::vector<double> weights;
  std::vector<std::size_t> support;  ///< each edge's shared documents (0 for other relations)
  std::vector<std::vector<int64_t>> pmids;  ///< each edge's PubMed ids, most recent first
  double mean_weight = 0;  ///< mean of weights
  double min_weight = 0;   ///< minimum of weights
  double score = 0;        ///< the ranking score (HypothesisOptions::scorer, else 0.5 mean + 0.5 min)
};

/// Prompt templates of the explanation ({{name}} fields; README "Hypotheses").
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
struct HypothesisOptions {
  /// Relations the paths follow (empty: every relation of the database).
  std::vector<std::string> relations = {"cooc.document"};
  std::size_t max_length = 4;  ///< edges in a path at most
  std::size_t paths = 10;      ///< ranked paths kept
  bool mask_direct = false;    ///< leave out the direct edge (indirect relations only)
  /// Labels the intermediate nodes must have (any case; empty: any).
  std::vector<std::string> intermediate_labels;
  std::size_t context = 7;  ///< abstracts given to the model (the reference's best trade-off)
  std::size_t rounds = 5;   ///< explanations at most (the first and the re-worked ones)
  /// Relations that support a pair of entities a sentence names (empty: every relation).
  std::vector<std::string> support_relations;
  /// A path scorer replacing the default (higher is better); ties are broken by fewer edges,
  /// then node ids.
  std::function<double(const HypothesisPath &)> scorer;
  std::size_t max_calls = 0;  ///< model-call budget (0: none)
  int64_t max_tokens = 0;     ///< token budget (0: none)
  bool use_cache = true;      ///< read and write the database's response cache
  HypothesisTemplates templates = HypothesisTemplates::defaults();  ///< the prompts
};

/// A pair of entities a sentence names, checked against the knowledge base.
struct HypothesisCheck {
  std::string a;        ///< the first entity's name
  std::string b;        ///< the second entity's name
  bool supported = false;             ///< an edge joins them
  std::vector<std::string> relations;  ///< the relations of the edges that do
};

/// One sentence of an explanation.
struct HypothesisSentence {
  std::string text;                    ///< the sentence
  std::vector<std::string> citations;  ///< the PubMed ids it cites
  std::vector<std::string> entities;   ///< the knowledge base's entities it names
  std::vector<HypothesisCheck> checks; ///< each pair of them
  /// "supported" (every pair joined, every citation in the context), "unsupported" (a pair no
  /// edge joins), "bad_citation" (a PubMed id outside the context), "unchecked" (fewer than two
  /// entities and no bad citation).
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
  std::vector<HypothesisPath> paths;  ///< ranked, best first
  std::vector<HypothesisRound> rounds;  ///< every explanation, in order
  /// The round whose explanation is given: the last one without rework, else the one with the
  /// fewest reworked sentences (the earliest of those); -1 when no explanation succeeded.
  int final_round = -1;
  /// "converged", "max_rounds", "no_replacement", "no_paths", "no_context", "failed" (a round's
  /// explanation could not be had: final_round keeps the best earlier one, if any).
  std::string stop_reason;
  StageUsage usage;       ///< model use
  bool offline = false;   ///< the explanations came from the offline model
  nlohmann::json model;   ///< the model's description
  std::string template_version;  ///< the templates used
};

/// Ranks paths from source to target (names, aliases or ids), gives the abstracts of the best
/// paths (their text from `corpus`, by PubMed id) to the model for an explanation, checks each
/// sentence against the knowledge base and re-works it in rounds. Error(not_found) for a name
/// that does not resolve, Error(invalid_argument) for zero paths, context or rounds.
GRAPPI_CXX_API HypothesisResult hypothesize(KnowledgeGraph &kg, LanguageModel &model, const std::string &source,
                                            const std::string &target, const std::vector<Document> &corpus,
                                            const HypothesisOptions &options = {});

/// The result as JSON (README "Hypotheses").
GRAPPI_CXX_API nlohmann::json to_json(const HypothesisResult &result);
/// The result as a Markdown report.
GRAPPI_CXX_API std::string to_markdown(const HypothesisResult &result);

/// ROUGE-1 F1 of a text against a reference: unigram overlap of lower-case words.
GRAPPI_CXX_API double rouge_1_f1(const std::string &text, const std::string &reference);
/// ROUGE-L F1: the longest common subsequence of lower-case words.
GRAPPI_CXX_API double rouge_l_f1(const std::string &text, const std::string &reference);

}  // namespace grappi
