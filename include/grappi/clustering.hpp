// grappi/clustering.hpp — the modules of a network: Markov clustering (MCL; van Dongen, 2000, as
// STRING's viewer clusters) and Leiden (Traag, Waltman & van Eck, Sci. Rep. 2019) with the
// modularity or the constant Potts model as its quality, flat or hierarchical (communities larger
// than a bound split again, as Microsoft's GraphRAG builds its community levels), each cluster
// with its members, its edges and the terms it is enriched in.
//
// The network is the database's: edges of at least a score (STRING's 0-1 scale) of the relations
// that are no annotation or ontology link (or those named), an edge's weight the best score
// joining the pair. Over a set of proteins, the set's induced subnetwork.
#pragma once

#include "grappi/enrichment.hpp"
#include "grappi/export.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace grappi {

class KnowledgeGraph;

/// How clusters are found.
enum class ClusterMethod {
  mcl,                ///< Markov clustering: expansion, inflation, until the flow settles
  leiden_modularity,  ///< Leiden maximising the (weighted) modularity at a resolution
  leiden_cpm,         ///< Leiden maximising the constant Potts model at a resolution
};

/// Options of cluster().
struct ClusterOptions {
  ClusterMethod method = ClusterMethod::mcl;  ///< MCL (STRING's clustering) or Leiden
  /// The network: edges of at least this score (0-1; STRING's medium confidence by default).
  double min_score = 0.4;
  /// ... of these relations (empty: every relation that is no annotation or ontology link). An
  /// unknown name is Error(invalid_argument) listing the graph's.
  std::vector<std::string> relations;
  /// MCL: the inflation (> 1; larger gives smaller clusters). mcl's own default, 2.0.
  double inflation = 2.0;
  /// MCL: at most this many iterations (1 to 10,000, mcl's own bound); the last one is read as
  /// the clustering and `converged` says it did not settle.
  std::size_t max_iterations = 1000;
  /// Leiden: the resolution (modularity: gamma, 1 the classic modularity; CPM: the density a
  /// cluster must exceed, between 0 and 1 with weights on the 0-1 scale).
  double resolution = 1.0;
  /// Leiden: the random seed of the first run; run r uses seed + r.
  uint64_t seed = 42;
  /// Leiden: runs from different seeds (1 to 1000), each continued from its own partition while
  /// that improves it; with several, their core groups (the nodes every run puts together) are
  /// clustered once more; the best quality found is kept. The same seed gives the same partition.
  std::size_t runs = 1;
  /// Leiden, hierarchical: a community of more members than this is clustered again on its own
  /// subnetwork, down to `max_levels` levels (0: flat). GraphRAG's default is 10.
  std::size_t max_cluster_size = 0;
  /// Hierarchical: at most this many levels below the top one (at most 16).
  std::size_t max_levels = 4;
  /// Each cluster's enriched terms: at most this many (0: none computed), the lowest FDR first,
  /// for clusters of at least `enrich_min_size` members, against the annotated background
  /// (when the database holds annotations; categories as in EnrichmentOptions).
  std::size_t terms = 3;
  std::size_t enrich_min_size = 3;      ///< terms for clusters of at least this many members
  std::vector<std::string> categories;  ///< the terms' categories (empty: every category annotated)
  double max_fdr = 0.05;                ///< terms of FDR at most this
};

/// One cluster.
struct Cluster {
  std::size_t id = 0;        ///< its index in ClusteringResult::clusters
  std::size_t level = 0;     ///< 0 for the top partition; hierarchical levels below
  long parent = -1;          ///< the cluster it splits (an index), -1 at the top
  std::vector<int64_t> members;  ///< node ids, the highest weighted degree within the cluster first
  std::size_t internal_edges = 0;  ///< edges between two members
  std::size_t external_edges = 0;  ///< edges from a member to a node of the network outside
  double internal_weight = 0;      ///< the sum of the internal edges' weights
  std::vector<EnrichedTerm> terms;  ///< its enriched terms (lowest FDR first)
  std::vector<std::size_t> children;  ///< the clusters it splits into (hierarchical)
};

/// The result of cluster().
struct ClusteringResult {
  ClusterMethod method = ClusterMethod::mcl;  ///< the method used
  std::vector<int64_t> nodes;  ///< the network's nodes clustered (node ids)
  std::size_t edges = 0;       ///< its edges
  /// The clusters: the top level's first, by size (largest first, then the first member's
  /// external id), then each level's below it in the same order.
  std::vector<Cluster> clusters;
  std::size_t levels = 1;      ///< levels of the hierarchy (1: flat)
  /// The top partition's modularity (weighted, resolution 1; Newman 2004), whatever the method.
  double modularity = 0;
  /// Leiden: the quality it maximised (modularity at the resolution, or CPM) of the top
  /// partition; MCL: 0.
  double quality = 0;
  std::size_t iterations = 0;  ///< MCL: iterations run
  bool converged = true;       ///< MCL: whether the flow settled within max_iterations
  double min_score = 0;        ///< the network's threshold
  /// Why no terms are given, when none could be ("no annotations in the database", ...).
  std::string terms_note;
  /// cluster_names: names left out, with the reason.
  std::vector<std::pair<std::string, std::string>> unmatched;
};

/// Clusters of the network (`proteins` empty) or of the subnetwork a set induces (node ids; a
/// member without an edge there is a cluster of its own). Error(invalid_argument) for bad
/// options or a network without an edge, Error(not_found) for an unknown node id.
GRAPPI_CXX_API ClusteringResult cluster(const KnowledgeGraph &graph, const std::vector<int64_t> &proteins,
                                        const ClusterOptions &options = {});
/// cluster over names, as enrich_names reads them; no names: the whole network.
GRAPPI_CXX_API ClusteringResult cluster_names(const KnowledgeGraph &graph, const std::vector<std::string> &names,
                                              const ClusterOptions &options = {});

/// The modularity of a partition of a weighted graph (edges as node-index pairs and weights;
/// `membership[i]` node i's cluster) at a resolution: sum over clusters of w_in / W - gamma
/// (d_c / 2W)^2. 0 for a graph without weight.
GRAPPI_CXX_API double modularity(std::size_t nodes, const std::vector<std::pair<uint32_t, uint32_t>> &edges,
                                 const std::vector<double> &weights, const std::vector<std::size_t> &membership,
                                 double resolution = 1.0);

/// "mcl", "leiden", "cpm".
GRAPPI_CXX_API const char *to_string(ClusterMethod method) noexcept;
/// Inverse of to_string ("leiden-modularity" and "modularity" read too); Error(invalid_argument)
/// listing the names otherwise.
GRAPPI_CXX_API ClusterMethod cluster_method(const std::string &name);

/// The result as JSON (docs/schemas/cluster.schema.json): {"method", "min_score", "nodes", "edges",
/// "modularity", "quality", "levels", "iterations", "converged", "terms_note", "unmatched",
/// "clusters" [{"id", "level", "parent", "children", "size", "members" [external ids], "names",
/// "internal_edges", "external_edges", "internal_weight", "terms" [{"term", "name", "category",
/// "observed", "fdr", "strength", "proteins"}]}]}.
GRAPPI_CXX_API nlohmann::json to_json(const KnowledgeGraph &graph, const ClusteringResult &result);

/// The clustering as a CX2 network (Cytoscape, NDEx): the clustered nodes with the node attributes `cluster` (its
/// top-level cluster's id), `cluster_size`, `cluster_levels` (its clusters from the top down) and `cluster_term`
/// (that cluster's first enriched term), each top-level cluster in its own colour (twelve, then grey); the network's
/// edges among them at the result's threshold of `options.relations` (their best score per pair, `within_cluster`
/// marked); the network attributes `method`, `modularity` and `cluster_terms` (every cluster's terms in words).
GRAPPI_CXX_API nlohmann::json to_cx2(const KnowledgeGraph &graph, const ClusteringResult &result,
                                     const ClusterOptions &options = {});

}  // namespace grappi
