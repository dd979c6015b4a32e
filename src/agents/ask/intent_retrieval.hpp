// Internal: retrieval for a question's intent (grappi/question.hpp): the candidates the intent asks for, ranked
// structurally, and the subgraph of the entities and the best candidates that ask() writes as the model's context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "grappi/knowledge_graph.hpp"
#include "grappi/question.hpp"
#include "grappi/retriever.hpp"
#include "grappi/snapshot.hpp"
#include "retrieval/retrieval_common.hpp"

namespace grappi::detail {

/// STRING's medium confidence: the least score of yes/no, count and path answers unless the question states one.
constexpr double kMediumConfidence = 0.400;

/// Which edges an answer rests on: the retrieval's filter, never a negative interaction (IntAct's), and the question's
/// frame (grappi/question.hpp QuestionFrame): its lowest score and the evidence it asks for. "physical" keeps the
/// physical relations (string.physical, IntAct's physical associations, ...) when the database holds any, else every
/// relation with a note; "experimental", "database", "textmining" and "coexpression" keep the edges with that STRING
/// channel, scored by it (STRING's way: a channel's own score), or of the datasets of that kind (IntAct is
/// experimental and curated, BEL curated, co-occurrence text mining).
class EdgeTest {
 public:
  /// min_score: the frame's, else `default_min` (0: none).
  EdgeTest(const KnowledgeGraph &kg, const GraphSnapshot &g, const EdgeFilter &filter, const QuestionFrame &frame,
           double default_min = 0);
  /// Whether adjacency entry i passes; its score (the channel's when one is asked).
  bool pass(const GraphSnapshot::Adjacency &a, std::size_t i, double *score = nullptr) const;
  double min_score() const { return min_; }
  /// Records that an answer rests on an edge of this relation (describe() names such relations).
  void mark_used(int32_t relation) const { used_[static_cast<std::size_t>(relation)] = 1; }
  /// What is looked up, in words: "string.physical at score >= 0.700 (high confidence)" (the relations of the edges
  /// answers rest on, mark_used; before any, every relation looked in but ontologies' structure).
  std::string describe() const;
  /// Why the evidence asked could not be kept (no physical relation in the database); empty otherwise.
  const std::string &note() const { return note_; }

 private:
  const KnowledgeGraph &kg_;
  const GraphSnapshot &g_;
  Filter base_;
  double min_ = 0;
  std::string confidence_;
  std::vector<char> physical_;            // per relation: physical (empty: not asked)
  std::vector<std::string> channels_;     // asked, other than physical
  std::vector<char> relation_ok_;         // per relation: passes base_ and is no negative interaction
  std::string note_;
  mutable std::unordered_map<int64_t, double> channel_score_;  // edge -> its best asked channel's score (-1: none)
  mutable std::vector<char> used_;  // per relation: an edge an answer rests on is of it (marked in the path loops)
};

/// The proteins an entity stands for: a family's or complex's members, else itself.
std::vector<int64_t> nodes_of(const QuestionEntity &entity);

/// How the intents retrieve.
struct IntentRetrieveOptions {
  EdgeFilter filter;                               ///< the edges followed
  std::map<std::string, double> relation_weights;  ///< each edge's score times its relation's weight (default 1)
  std::size_t max_candidates = 50;                 ///< candidates kept in the subgraph (the best first)
};

/// A candidate answer and why it ranks where it does.
struct IntentCandidate {
  /// Whether the frame admits it as an answer: of the class or topic asked (tier 2 or more), among the choices of a
  /// comparison; the others are ranked after it, apart (AnswerEntity::admitted).
  bool admitted = true;
  int64_t node = 0;
  /// The ranking's groups, best first: for "class", how well the node is of the class or topic (3: its name or
  /// description says so; 2: less precisely or elsewhere in its annotation; 1: mentioned; 0: not); for "connects" and
  /// "paths", 2 for a common partner and 1 for an inner node of a three-edge path; for "partners", 1 for an edge of the
  /// interaction the question asks for ("physical"), else 0.
  int tier = 0;
  double score = 0;            ///< within a tier: the edge score (the weaker edge of a path)
  std::vector<int64_t> edges;  ///< the edges it rests on
  std::string why;             ///< in words ("kinase in its description")
};

/// What an intent retrieved.
struct IntentRetrieval {
  std::string recipe;                   ///< what was done, in words
  Subgraph subgraph;                    ///< the entities, the best candidates, every filtered edge among them
  std::vector<double> node_prizes;      ///< per subgraph node: the entities above every candidate, then tier + score
  std::vector<IntentCandidate> ranked;  ///< every candidate, best first
  /// "paths" and "connects": the node sequences found, best first (at most 20).
  std::vector<std::vector<int64_t>> paths;
  std::vector<double> path_scores;  ///< each path's weakest edge
  std::size_t candidates = 0;  ///< candidates before the cap
  std::size_t excluded = 0;    ///< partners the frame's exclusion left out
  std::string looked_up;       ///< the edges looked up, in words (EdgeTest::describe)
  std::string note;            ///< what the frame asked and could not be kept (EdgeTest::note)
};

/// Retrieves for the analysis' intent ("partners", "connects", "paths", "class"); nothing (an empty result) for "open".
IntentRetrieval retrieve_for_intent(const KnowledgeGraph &kg, const QuestionAnalysis &analysis,
                                    const IntentRetrieveOptions &options);

/// How well a text says a node is of a class or topic (the class's head noun as the head of a phrase in the node's name
/// or description, the topic's words in its annotation): 0-3 as IntentCandidate::tier. `defining` is the name and
/// description, `rest` the other text.
int topic_tier(const std::string &topic, bool is_class, const std::string &defining, const std::string &rest,
               std::string *why = nullptr);

}  // namespace grappi::detail
