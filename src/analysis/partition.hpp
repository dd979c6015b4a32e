// Internal: the clustering engines behind grappi/clustering.hpp, on a weighted undirected graph
// of node indices 0..n-1 (each edge once, no self loop).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "grappi/snapshot.hpp"

namespace grappi::detail {

/// An edge of the network among a set of nodes: the positions of its ends in the set (a < b), and the
/// best-scored edge joining them (its score, relation and id).
struct NetworkEdge {
  uint32_t a = 0, b = 0;
  float score = 0;
  int32_t relation = 0;
  uint32_t edge = 0;
};
/// The network's edges among `members` (snapshot indices): edges of the relations `ok` marks at or above
/// `min_score`, each pair once at its best score (the lower edge id among equals), by (a, b).
std::vector<NetworkEdge> network_edges(const GraphSnapshot &g, const std::vector<uint32_t> &members,
                                       const std::vector<char> &ok, float min_score);

struct WeightedGraph {
  std::size_t nodes = 0;
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  std::vector<double> weights;
};

/// MCL's result: each node's cluster (0..clusters-1, numbered by first node), the iterations run
/// and whether the flow settled.
struct MclPartition {
  std::vector<std::size_t> membership;
  std::size_t clusters = 0;
  std::size_t iterations = 0;
  bool converged = true;
};

/// Markov clustering (van Dongen 2000) as mcl runs it by default: loops of each node's largest
/// edge weight, column-stochastic flow, expansion (the square), pruning (mcl's resource scheme 6:
/// entries below 1/10,000 dropped, up to 1,400 recovered while less than 90% of the column is
/// kept, at most 1,100 selected), inflation (entrywise power, normalised), until every column's
/// entries are homogeneous; clusters are the attractor systems with the nodes that flow to them
/// (a node flowing to several systems joins those that share its systems, mcl's default).
MclPartition mcl(const WeightedGraph &g, double inflation, std::size_t max_iterations);

/// Leiden's qualities.
enum class LeidenQuality { modularity, cpm };

/// Leiden (igraph's implementation, Traag et al. 2019) `runs` times from seeds seed, seed + 1, ...,
/// each run continued from its own partition while that improves it; with several runs their core
/// groups clustered once more; the membership (numbered by first node) of the best quality found,
/// that quality in `quality`. Error(internal) when igraph fails.
std::vector<std::size_t> leiden(const WeightedGraph &g, LeidenQuality q, double resolution, uint64_t seed,
                                std::size_t runs, double &quality);

/// The CPM quality of a partition: sum over clusters of w_in - resolution * n_c (n_c - 1) / 2.
double cpm_quality(const WeightedGraph &g, const std::vector<std::size_t> &membership, double resolution);

/// Cluster numbers in order of each cluster's first node.
std::size_t renumber(std::vector<std::size_t> &membership);

}  // namespace grappi::detail
