// Internal: the parts of ask() (grappi/answer.hpp): the context the model reads
// (answer_context.cpp), the answer's parsing and its citations' check (answer_citations.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/answer.hpp"
#include "grappi/clustering.hpp"
#include "grappi/communities.hpp"
#include "grappi/reader.hpp"
#include "common/grounding_text.hpp"
#include "agents/ask/intent_retrieval.hpp"

namespace grappi::detail {

/// A node of the subgraph with what ranks it.
struct RankedSubgraphNode {
  int64_t node = 0;
  double prize = 0;       ///< its PCST prize
  double similarity = 0;  ///< its cosine similarity to the question
};

/// Subgraph nodes best first: prize, then similarity, then id.
void rank_subgraph_nodes(std::vector<RankedSubgraphNode> &nodes);

/// Writes the context: the nodes (ranked, best first) and the subgraph's edges among them, in
/// `format`, leaving out the lowest-ranked nodes (and their edges) until it fits `budget`
/// rough tokens (0: no budget; the best node always stays). `task` receives the offline
/// model's view: {"entities": [{label, name, annotation, prize}], "edges": [{label, a, b,
/// relation, score, pmids}]} in rank order.
AnswerContext build_answer_context(const KnowledgeGraph &kg, const std::vector<RankedSubgraphNode> &ranked,
                                   const std::vector<int64_t> &subgraph_edges, const std::string &format,
                                   std::size_t budget, nlohmann::json &task);

/// At most n bytes of s (not cutting a character), "…" marking a cut.
std::string clip_text(std::string s, std::size_t n);
/// s with its line breaks and tabs as blanks.
std::string one_line_text(std::string s);

class CitationChecker;
/// Adds the papers of AskOptions::papers to the context (P0, P1, ...; after the graph, within
/// `budget` rough tokens, 0: none): stored papers found by full-text search for the context's
/// entities (`finder` names them), those naming a question entity (`asked`) first, each naming
/// an entity of the context the question does not. `task["papers"]` receives the offline
/// model's view: [{label, pmid, key, entities: [N labels], sentences: [{text, entities}]}].
void add_paper_context(const KnowledgeGraph &kg, AnswerContext &context, const CitationChecker &finder,
                       const std::vector<int64_t> &asked, std::size_t count, std::size_t budget, nlohmann::json &task);

/// Appends the graph reader's likeliest answers among the context's nodes (at most 10, with
/// their probabilities) to the context; the soft prompt's stand-in for an HTTP model.
void add_reader_scores(AnswerContext &context, const std::unordered_map<int64_t, double> &scores);

/// A sentence as the model wrote it.
struct ProposedSentence {
  std::string text;
  std::vector<std::string> citations;  ///< from the "citations" list and the [..] in the text, in order, once each
};

/// A parsed answer: {"sentences": [{"text", "citations"}]}, {"answer": "text [N1]"}, or prose
/// with citations in brackets ("CDK1 binds CCNB1 [N2, E5]."); failed only without text (or
/// for an answer that opens like JSON and does not parse).
struct ParsedAnswer {
  bool ok = false;
  std::string error;
  std::vector<ProposedSentence> sentences;
  std::string raw;     ///< the answer as received
  bool prose = false;  ///< it was prose, not JSON
};
ParsedAnswer parse_answer(std::string_view answer);

/// Checks sentences against the context: which of its entities they name and what their
/// citations resolve to. Its nodes and edges are read when it is made; its papers when a
/// sentence is checked (add_paper_context adds them through the checker's finders).
class CitationChecker {
 public:
  CitationChecker(const KnowledgeGraph &kg, const AnswerContext &context);
  AnswerSentence check(const ProposedSentence &sentence) const;
  /// The context's nodes a text names (by name or name-like alias), in context order.
  std::vector<int64_t> named(std::string_view text) const;
  /// The names context node i is found by (its name, then its name-like aliases).
  const std::vector<std::string> &terms(std::size_t i) const { return finders_[i].names(); }

 private:
  const KnowledgeGraph &kg_;
  const AnswerContext &context_;
  std::vector<MentionFinder> finders_;  // per context node
  std::vector<std::string> names_;      // per context node
  std::unordered_map<int64_t, std::size_t> position_;  // node -> context index
  std::vector<std::pair<int64_t, int64_t>> ends_;      // per context edge
  std::vector<std::string> edge_text_;                 // per context edge
  std::unordered_set<std::string> pmids_, interactions_;
  /// A citation of context paper k by a sentence naming `named`.
  void check_paper(AnswerCitation &a, std::size_t k, const std::vector<int64_t> &named) const;
};

/// The nodes a gold answer or an option names (an id, a name, an alias; every candidate of an
/// ambiguous name).
std::set<int64_t> nodes_named(const KnowledgeGraph &kg, const std::string &text);

/// The question's subgraph as the graph reader reads it (`scope` "subgraph": the selection;
/// "base": the k-hop subgraph it was chosen from, which needs keep_base; for an intent both are
/// the intent's subgraph); `asked`: the entities the question names.
ReaderGraph build_reader_graph(const KnowledgeGraph &kg, const std::vector<float> &question,
                               std::shared_ptr<const VectorIndex> vectors, const PcstRetrieval &retrieval,
                               const std::string &scope, const std::vector<int64_t> &asked, std::size_t max_nodes = 0);

/// A question's retrieval: for its intent, or by PCST (the entities kept) when it is open or the
/// intent found nothing.
/// A modules question's clusters (form "modules"): found at retrieval, answered by answer_form.
struct ModulesFound {
  std::shared_ptr<const ClusteringResult> result;  ///< null when the scope cannot be clustered (see reason)
  std::string scope;      ///< what was clustered, in words ("the 96 proteins of the network of dataset 3 (...)")
  std::string looked_up;  ///< the method and network, in words
  std::string reason;     ///< why nothing was clustered; empty otherwise
  /// The modules listed (clusters of at least three members, largest first, at most ten): indices into
  /// result->clusters; each one's strongest internal edges (database ids), at most three.
  std::vector<std::size_t> listed;
  std::vector<std::vector<int64_t>> edges;
  /// From stored community reports (grappi/communities.hpp): each listed module's summary {"text", "status", "by",
  /// "citations", "community"}; empty when the modules were clustered for the question.
  std::vector<nlohmann::json> summaries;
  std::string stored;  ///< the stored reports used, in words; or why a stored set was not used

};

struct QuestionRetrieval {
  PcstRetrieval retrieval;                   ///< the subgraph and its prizes (and base, when kept)
  std::string recipe;                        ///< how, in words
  std::vector<std::vector<int64_t>> paths;   ///< connects and paths: the node sequences
  std::vector<IntentCandidate> candidates;   ///< an intent's candidates, ranked (empty for PCST)
  std::vector<double> path_scores;           ///< each path's weakest edge
  std::string looked_up;                     ///< an intent's edges looked up, in words
  std::string note;                          ///< what the frame asked and could not be kept
  std::size_t excluded = 0;                  ///< partners the frame's exclusion left out
  std::vector<float> question_vector;        ///< the question embedded (empty when it embeds to nothing and an intent answered)
  std::shared_ptr<const ModulesFound> modules;  ///< a modules question's clusters; null for any other form
};

/// A modules question's clusters: of the whole network, one dataset's network (QuestionFrame::network), the
/// entities named, or an entity and its admitted partners (`partners`); Leiden (modularity, seed 42) at the frame's
/// confidence (medium by default), each module's enriched terms and strongest edges.
std::shared_ptr<const ModulesFound> find_modules(const KnowledgeGraph &kg, const QuestionAnalysis &q,
                                                 const std::vector<IntentCandidate> &partners);
/// The modules' strongest edges as a subgraph (ask's context for them).
Subgraph modules_subgraph(const KnowledgeGraph &kg, const ModulesFound &m);
/// A set of community reports from its JSON (to_json's); Error(parse) naming what is missing or malformed.
CommunitySet communities_from_json(const nlohmann::json &j);
/// A cluster's strongest internal edges (database ids) at score >= min_score over `relations` (empty: the network's
/// default), at most k, strongest first.
std::vector<int64_t> strongest_module_edges(const GraphSnapshot &g, const Cluster &c, const std::vector<std::string> &relations,
                                            double min_score, std::size_t k);
/// ask()'s retrieval (also the graph reader's training).
QuestionRetrieval retrieve_for_question(const KnowledgeGraph &kg, const QuestionAnalysis &analysis, const std::string &question,
                                        const AskOptions &options, bool keep_base);

/// Severity of a citation or sentence status for choosing the worst (higher is worse).
int status_rank(const std::string &status);

}  // namespace grappi::detail
