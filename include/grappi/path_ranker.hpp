// grappi/path_ranker.hpp — a trained ranker of hypothesis paths: features of a path through
// the literature (its length, the association weights and documents of its edges, how recent
// they are, the document frequency and types of its intermediate concepts, their embedding
// similarity to the pair, whether a curated relation joins its pairs) and a logistic regression
// fitted on paths labelled by the reference's temporal protocol; stored in the knowledge base
// like the graph reader (docs/literature.md "Hypotheses").
#pragma once

#include <cstddef>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "grappi/export.h"
#include "grappi/knowledge_graph.hpp"

namespace grappi {

struct HypothesisPath;

/// The labelled paths of one pair: each path's label (positive: its intermediate concepts are
/// named with the pair in a later document).
struct PathRankerExample {
  std::vector<std::vector<double>> features;  ///< per path: PathRanker::features()
  std::vector<bool> positive;                 ///< per path
  /// Pairs of one group are held out together in cross-validation (train_path_ranker: the
  /// first later document naming the pair - the pairs one document links share their labels,
  /// and a fold holding some of them would be scored on what it learnt from the others);
  /// empty: the pair is a group of its own.
  std::string group;
};

/// How a ranker is fitted.
struct PathRankerOptions {
  /// L2 penalty on the feature weights (the features are standardised); -1: chosen by
  /// cross-validation over groups of pairs (PathRankerExample::group) among the prior alone,
  /// 100, 10, 1 and 0.1.
  double l2 = -1;
  std::size_t folds = 5;  ///< cross-validation folds (groups of pairs, PathRankerExample::group, by order modulo folds)
  /// Positive paths at least for train_path_ranker (and eval hypotheses' nested ranker) to
  /// fit weights; with fewer, the prior alone (fewer positives gave rankers that lost to the
  /// prior on held-out documents: BENCHMARKS.md).
  std::size_t min_positives = 100;
  std::size_t iterations = 100;  ///< Newton steps at most
  /// Read the embedding similarity of the path's concepts to the pair (needs the nodes
  /// embedded wherever the ranker is used).
  bool similarity = false;
};

/// A logistic regression over path features, each pair's positives and negatives weighing alike
/// (a pair with many paths does not outweigh one with few); deterministic (Newton's method from
/// zero weights). Its logit is a free multiple of the prior (shorter paths first, then paths
/// through concepts named in more documents) plus penalised weights on the standardised
/// features: little data leaves it near the prior, and the penalty is chosen by
/// cross-validation unless given.
class GRAPPI_CXX_API PathRanker {
 public:
  PathRanker() = default;
  /// The features' names, in the order of features().
  static const std::vector<std::string> &feature_names();
  /// A path's features.
  static std::vector<double> features(const HypothesisPath &path);
  /// Fits a ranker. Error(invalid_argument) without a positive and a negative path, or for
  /// feature vectors of another length.
  static PathRanker train(const std::vector<PathRankerExample> &pairs, const PathRankerOptions &options = {});
  /// The untrained prior: shorter paths first, then paths whose intermediate concepts are named
  /// in more documents, and, across pairs, pairs of frequent concepts before rare ones (what
  /// scores paths when no ranker was trained; docs/literature.md).
  static PathRanker prior();
  /// Whether it holds weights.
  bool trained() const { return !weights_.empty(); }
  /// Whether it reads the embedding similarity.
  bool uses_similarity() const { return similarity_; }
  /// A path's score (the logit: higher is better). Error(invalid_argument) when not trained.
  double score(const HypothesisPath &path) const;
  /// The score of features as features() gives them.
  double score(const std::vector<double> &features) const;
  /// The weights by feature name, on the standardised features (what the ranker learned).
  nlohmann::json weights_json() const;
  /// What describes it (options, training figures, provenance); stored beside the weights.
  nlohmann::json &info() { return info_; }
  const nlohmann::json &info() const { return info_; }  ///< (read only)
  /// Stores it in the database under `name` (replacing one of that name).
  void save(KnowledgeGraph &kg, const std::string &name) const;
  /// The ranker stored under `name`: Error(not_found) when there is none, Error(database) when
  /// it is damaged or of a newer format.
  static PathRanker load(const KnowledgeGraph &kg, const std::string &name);
  /// The ranker a command uses: the one stored under `name`; with an empty name, the one named
  /// kDefaultName when the database has it (grappi train-ranker's default), else none (null:
  /// the association weights score the paths).
  static std::shared_ptr<const PathRanker> stored(const KnowledgeGraph &kg, const std::string &name = {});
  static constexpr const char *kDefaultName = "paths";  ///< what train-ranker stores under unasked

 private:
  static PathRanker fit(const std::vector<PathRankerExample> &pairs, const std::vector<std::size_t> &which, double l2,
                        const PathRankerOptions &options);
  std::vector<double> mean_, scale_, weights_;  // per feature
  double bias_ = 0, prior_weight_ = 0;
  bool similarity_ = false;
  nlohmann::json info_ = nlohmann::json::object();
};

}  // namespace grappi
