// Internal: the graph reader's network (grappi/reader.hpp) — node features, GATv1 layers
// (Veličković et al. 2018: per head z = W h, e_ij = LeakyReLU(a_dst·z_i + a_src·z_j), α =
// softmax over i's neighbours and itself, h'_i = ELU(Σ_j α_ij z_j + b), heads concatenated)
// with a learned bias per relation and a learned weight of the edge's score added to e_ij, a
// two-layer MLP head giving one logit per node; forward and backward by hand on Eigen.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "grappi/reader.hpp"

namespace grappi::detail {

/// Sizes of the network and where each tensor lives in the flat parameter vector.
struct GatLayout {
  std::size_t dim = 0;        ///< embedding size
  std::size_t relations = 0;  ///< named relations (R); edge types are R + "other" + self-loop
  std::size_t features = 0;   ///< input width F
  std::size_t width = 0;      ///< D: each layer's output width
  std::size_t heads = 0;      ///< H
  std::size_t head_hidden = 0;
  struct Layer {
    std::size_t in = 0;  // input width
    std::size_t W = 0, a_src = 0, a_dst = 0, rel = 0, coef = 0, bias = 0;
  };
  std::vector<Layer> layers;
  std::size_t W1 = 0, b1 = 0, w2 = 0, b2 = 0;
  std::size_t total = 0;
  std::size_t types() const { return relations + 2; }
  std::size_t per_head() const { return width / heads; }
  GatLayout(std::size_t dim, std::size_t relations, const GatReaderOptions &options);
};

/// Number of scalar features after the two embedding blocks and before the relation degrees.
constexpr std::size_t kGatScalarFeatures = 9;

/// A subgraph ready for the network: features, and its edges grouped by target node (each
/// undirected edge in both directions, plus a self-loop per node).
struct GatInput {
  Eigen::MatrixXd x;                 // n x F
  std::vector<std::size_t> start;    // n + 1: node i's incoming edges are [start[i], start[i+1])
  std::vector<std::size_t> source;   // per incoming edge: its source node
  std::vector<std::size_t> type;     // per incoming edge: relation index, R for "other", R + 1 for the self-loop
  std::vector<double> score;         // per incoming edge: the edge's score (1 for the self-loop)
  std::vector<bool> asked;           // per node
};

/// Builds the network's input; Error(invalid_argument) for an empty graph, an edge index out of
/// range, missing vectors or a dimension other than `layout.dim`.
GatInput gat_input(const ReaderGraph &graph, const GatLayout &layout, const std::vector<std::string> &relations,
                   const std::string &what);

/// The logistic function, without overflow for large |s|.
double sigmoid(double s);

/// Glorot-uniform weights, zero biases.
std::vector<double> gat_initial_parameters(const GatLayout &layout, uint64_t seed);

/// The logits of every node. With `rng` and dropout > 0, training mode (dropout on each layer's
/// input); with `gradient`, the loss's gradient with respect to the parameters is added to it
/// given dL/dlogit in `dlogits` (run forward first, then backward: see gat_loss).
class GatPass {
 public:
  GatPass(const GatLayout &layout, const std::vector<double> &params, double negative_slope)
      : L_(layout), p_(params), slope_(negative_slope) {}
  Eigen::VectorXd forward(const GatInput &in, double dropout, std::mt19937_64 *rng);
  void backward(const GatInput &in, const Eigen::VectorXd &dlogits, std::vector<double> &gradient) const;

 private:
  struct LayerCache {
    Eigen::MatrixXd x;      // input after dropout (n x in)
    Eigen::MatrixXd mask;   // dropout scale per input entry (empty: none)
    Eigen::MatrixXd z;      // x W (n x D)
    Eigen::MatrixXd alpha;  // H x E attention weights
    Eigen::MatrixXd u;      // H x E attention logits before LeakyReLU
    Eigen::MatrixXd pre;    // n x D before ELU
  };
  const GatLayout &L_;
  const std::vector<double> &p_;
  double slope_;
  std::vector<LayerCache> cache_;
  Eigen::MatrixXd head_in_, head_mask_, head_pre_;
};

/// The loss of one example (class-balanced BCE over its nodes: the answers weigh as much as the
/// rest) and, with `gradient`, its gradient added there.
double gat_loss(const GatLayout &layout, const std::vector<double> &params, double negative_slope, const GatInput &in,
                const std::vector<std::size_t> &answers, double dropout, std::mt19937_64 *rng,
                std::vector<double> *gradient);

}  // namespace grappi::detail
