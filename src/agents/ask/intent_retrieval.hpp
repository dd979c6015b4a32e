// Internal: retrieval for a question's intent (grappi/question.hpp): the candidates the intent asks for, ranked
// structurally, and the subgraph of the entities and the best candidates that ask() writes as the model's context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "grappi/knowledge_graph.hpp"
#include "grappi/question.hpp"
#include "grappi/retriever.hpp"

namespace grappi::detail {

/// How the intents retrieve.
struct IntentRetrieveOptions {
  EdgeFilter filter;                               ///< the edges followed
  std::map<std::string, double> relation_weights;  ///< each edge's score times its relation's weight (default 1)
  std::size_t max_candidates = 50;                 ///< candidates kept in the subgraph (the best first)
};

/// A candidate answer and why it ranks where it does.
struct IntentCandidate {
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
  std::size_t candidates = 0;  ///< candidates before the cap
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
