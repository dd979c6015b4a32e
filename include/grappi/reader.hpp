// grappi/reader.hpp — the graph reader: a graph attention network (GATv1) that scores the nodes
// of a question's subgraph as answers, trained on (question, answers, subgraph) triplets with a
// node-level binary cross-entropy, on the CPU (Eigen), and stored in the knowledge base
// (docs/ask.md "The graph reader").
#pragma once

#include "grappi/export.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/answer.hpp"
#include "grappi/knowledge_graph.hpp"
#include "grappi/vector_index.hpp"

namespace grappi {

/// A node of the subgraph a reader scores.
struct ReaderNode {
  int64_t node = 0;        ///< its node id (its text embedding is ReaderGraph::vectors' vector of it)
  double similarity = 0;   ///< its cosine similarity to the question
  double prize = 0;        ///< its PCST prize (0 for a node outside the selection)
  bool seed = false;       ///< a seed of the retrieval (most similar to the question)
  bool asked = false;      ///< the question names it
  bool selected = true;    ///< in the PCST selection (false: only in the base subgraph around it)
  std::size_t degree = 0;  ///< its degree in the whole knowledge graph
};

/// An edge of the subgraph a reader scores (read in both directions).
struct ReaderEdge {
  std::size_t source = 0;  ///< index into ReaderGraph::nodes
  std::size_t target = 0;  ///< index into ReaderGraph::nodes
  std::string relation;    ///< its relation type (each has its own learned attention bias)
  double score = 0;        ///< its score in [0, 1]
  int64_t edge = 0;        ///< its edge id in the database (0: none)
};

/// A question's subgraph as the reader reads it.
struct ReaderGraph {
  std::vector<float> question;           ///< the question's embedding
  std::vector<ReaderNode> nodes;         ///< the nodes scored
  std::vector<ReaderEdge> edges;         ///< the edges between them
  std::shared_ptr<const VectorIndex> vectors;  ///< the nodes' text embeddings (the question's model)
};

/// A training example: a subgraph and which of its nodes answer the question.
struct ReaderExample {
  std::string id;                    ///< the question's id (for messages)
  ReaderGraph graph;                 ///< the subgraph
  std::vector<std::size_t> answers;  ///< indices into graph.nodes of the gold answers
};

/// The network and its training (docs/ask.md "The graph reader"; defaults after G-Retriever's GAT,
/// made smaller for the CPU).
struct GatReaderOptions {
  std::size_t layers = 2;         ///< GAT layers
  std::size_t hidden = 64;        ///< width of each layer's output (its heads concatenated; divisible by heads)
  std::size_t heads = 4;          ///< attention heads per layer (1 to 64)
  std::size_t head_hidden = 32;   ///< hidden width of the scoring MLP
  double dropout = 0.1;           ///< dropout on every layer's input while training (0 to 0.95)
  double negative_slope = 0.2;    ///< of the attention's LeakyReLU
  double learning_rate = 3e-3;    ///< Adam's step size (1e-7 to 1; a training whose loss diverges is refused)
  double weight_decay = 0;        ///< L2 penalty on the weights (Adam's, not decoupled; 0 to 1)
  std::size_t epochs = 60;        ///< at most
  std::size_t batch = 8;          ///< questions per step (1 to 100,000)
  /// Stop after this many epochs without a better validation MRR, keeping the best epoch's
  /// model (0: train every epoch, keep the last).
  std::size_t patience = 10;
  /// Without a validation set: this share of the training examples (a seeded draw) validates.
  double valid_share = 0.2;  ///< (0 to 0.9)
  uint64_t seed = 1;              ///< initialisation, dropout and order: the same seed, the same model
  unsigned threads = 0;           ///< questions in parallel within a step (0: all cores); the model does not depend on it
  /// Polled before each step: once it returns true the training stops (the partial epoch
  /// dropped), keeps the best epoch trained so far and sets ReaderTrainReport::cancelled.
  std::function<bool()> cancel;
};

/// One epoch of training.
struct ReaderEpoch {
  std::size_t epoch = 0;        ///< 1-based
  double train_loss = 0;        ///< mean BCE over the training questions (with dropout)
  double valid_loss = 0;        ///< mean BCE over the validation questions
  double valid_mrr = 0;         ///< validation MRR of the first gold answer among the nodes (question entities left out)
  double valid_hits_at_1 = 0;   ///< validation Hits\@1
  double seconds = 0;           ///< wall time of the epoch
};

/// How a training went.
struct ReaderTrainReport {
  std::vector<ReaderEpoch> epochs;  ///< every epoch trained
  std::size_t best_epoch = 0;       ///< the epoch whose model was kept
  std::size_t train_examples = 0;   ///< examples trained on
  std::size_t valid_examples = 0;   ///< examples validated on
  std::size_t parameters = 0;       ///< trainable numbers
  double seconds = 0;               ///< wall time
  bool cancelled = false;           ///< GatReaderOptions::cancel stopped the training
};

/// A graph attention network scoring a subgraph's nodes as answers: node features (the text
/// embedding, its product with the question's, the similarity, prize, seed and question-entity
/// flags, partnership with a question entity, per-relation degrees), GATv1 layers with
/// per-relation and edge-score attention biases, a two-layer MLP head giving a logit per node.
class GRAPPI_CXX_API GatReader {
 public:
  /// An untrained reader (trained() is false; score() throws).
  GatReader() = default;

  /// Trains a reader (Adam, node BCE, mini-batches, early stopping on the validation MRR).
  /// Examples without an answer in their subgraph are an Error(invalid_argument), as are
  /// answers outside it, an empty subgraph, embeddings of another dimension and bad options.
  static GatReader train(const std::vector<ReaderExample> &train, const std::vector<ReaderExample> &valid,
                         const GatReaderOptions &options, ReaderTrainReport *report = nullptr,
                         const std::function<void(const ReaderEpoch &)> &progress = {});

  /// Whether it holds parameters (trained, initialised or loaded).
  bool trained() const { return !parameters_.empty(); }
  /// Each node's probability of being an answer, in node order. Error(invalid_argument) for an
  /// empty subgraph, an edge to no node, or embeddings of another dimension than trained on.
  std::vector<double> score(const ReaderGraph &graph) const;
  /// The mean BCE of an example without dropout, and its gradient with respect to parameters()
  /// when asked (the gradient check).
  double loss(const ReaderExample &example, std::vector<double> *gradient = nullptr) const;

  /// The trainable numbers, in a fixed layout.
  const std::vector<double> &parameters() const { return parameters_; }
  /// The same, writable (tests perturb them).
  std::vector<double> &parameters() { return parameters_; }
  /// An initialised, untrained reader for features of `dimension` embeddings and these relations.
  static GatReader initial(std::size_t dimension, std::vector<std::string> relations, const GatReaderOptions &options);

  /// The network's sizes and the training options it was made with.
  const GatReaderOptions &options() const { return options_; }
  std::size_t dimension() const { return dimension_; }                  ///< the embedding size it reads
  const std::vector<std::string> &relations() const { return relations_; }  ///< relations with their own bias
  /// What describes it besides its parameters (options, sizes, training report, provenance);
  /// stored beside them.
  nlohmann::json &info() { return info_; }
  /// The same, read-only.
  const nlohmann::json &info() const { return info_; }

  /// Stores it in the database under `name` (replacing one of that name).
  void save(KnowledgeGraph &kg, const std::string &name) const;
  /// Loads the reader stored under `name`; Error(not_found) when there is none,
  /// Error(database) when it is damaged or of a newer format.
  static GatReader load(const KnowledgeGraph &kg, const std::string &name);

 private:
  GatReaderOptions options_;
  std::size_t dimension_ = 0;
  std::vector<std::string> relations_;
  std::vector<double> parameters_;
  nlohmann::json info_ = nlohmann::json::object();
};

/// Options of train_reader().
struct ReaderTrainOptions {
  /// How each question's subgraph is retrieved (as ask() retrieves it: the retrieval options and
  /// embedding model; its reader fields are not used).
  AskOptions ask;
  /// The nodes scored: "subgraph" (the PCST selection, G-Retriever's) or "base" (the k-hop
  /// subgraph the selection was made from: more of the answers, more nodes to rank). Stored
  /// with the reader; ask() scores the same way.
  std::string scope = "subgraph";
  /// At most this many nodes per subgraph (0: all): the question's entities and the selection
  /// first, then the base nodes nearest the seeds (fewest hops), then by prize and similarity.
  /// Gold answers the cap leaves out leave the question out of training (counted). Stored with
  /// the reader; ask() scores the same nodes.
  std::size_t max_nodes = 400;
  /// Below this share of the questions with a gold answer in their subgraph, the training warns
  /// (ReaderTraining::warnings).
  double min_kept_share = 0.5;
  GatReaderOptions gat;           ///< the network and its training
  std::string name = "gat";       ///< stored under this name
  /// Called after each epoch (the CLI's progress).
  std::function<void(const ReaderEpoch &)> progress;
  /// Called while the examples are built with (done, total).
  std::function<void(std::size_t, std::size_t)> progress_examples;
  /// Polled before each question's subgraph is built and before each training step (it is
  /// GatReaderOptions::cancel unless that is set): once it returns true the training stops,
  /// nothing is stored and ReaderTrainReport::cancelled is set.
  std::function<bool()> cancel;
};

/// What train_reader() did.
struct ReaderTraining {
  GatReader reader;              ///< the model kept (also stored)
  ReaderTrainReport report;      ///< epochs and sizes
  std::size_t train_questions = 0;   ///< training questions read
  std::size_t valid_questions = 0;   ///< validation questions read
  /// Questions left out: no gold answer among their subgraph's nodes (or not an entity question).
  std::size_t skipped = 0;
  std::size_t train_kept = 0;    ///< training questions kept (a gold answer in their subgraph)
  std::size_t valid_kept = 0;    ///< validation questions kept
  /// Share of the questions kept (training and validation). The reader learns from those only:
  /// retrieval's recall is its ceiling.
  double kept_share = 0;
  /// The best epoch's validation MRR counted over every validation question, those left out as
  /// misses (ReaderEpoch::valid_mrr counts the kept ones only); with validation drawn from the
  /// training questions, their kept share stands for the left-out ones.
  double valid_mrr_all = 0;
  /// Why the reader may not be worth its name: few questions kept, a small training set.
  std::vector<std::string> warnings;
  std::string fingerprint;       ///< SHA-256 of the training and validation questions and options
};

/// The subgraph the reader reads for a question, retrieved as ask() retrieves it (`scope`
/// "subgraph" or "base"; at most `max_nodes` nodes, 0: all, as ReaderTrainOptions::max_nodes);
/// the retrieval itself in `retrieval` when given.
GRAPPI_CXX_API ReaderGraph reader_graph(const KnowledgeGraph &kg, const std::string &question, const AskOptions &options,
                                        const std::string &scope = "subgraph", PcstRetrieval *retrieval = nullptr,
                                        std::size_t max_nodes = 0);

/// Builds the examples of entity questions (gold answers resolved by id, name or alias; those
/// not among the subgraph's nodes left out, as are questions left without any: counted in
/// `skipped`), trains a reader and stores it in the database. Error(invalid_argument) when no
/// question has an answer in its subgraph.
GRAPPI_CXX_API ReaderTraining train_reader(KnowledgeGraph &kg, const std::vector<QaQuestion> &train,
                                           const std::vector<QaQuestion> &valid, const ReaderTrainOptions &options = {});

/// A subgraph's scores as JSON: {"reader", "scope", "nodes": [{node, id, name, score, asked,
/// selected}]}, best first (grappi_graph_reader_scores_json).
GRAPPI_CXX_API nlohmann::json reader_scores_json(const KnowledgeGraph &kg, const ReaderGraph &graph,
                                                 const std::vector<double> &scores, const std::string &reader,
                                                 const std::string &scope);

/// The summary as JSON (epochs, best_epoch, sizes, fingerprint, name).
GRAPPI_CXX_API nlohmann::json to_json(const ReaderTraining &training);

/// The readers stored in the database: name, kind, created_at and their info (JSON array).
GRAPPI_CXX_API nlohmann::json stored_readers(const KnowledgeGraph &kg);

}  // namespace grappi
