// grappi/retriever.hpp — retrieval over a snapshot: GraPPI moving kNN windows, paths,
// k shortest paths (Yen), question seeds with k-hop expansion, and PageRank.
#pragma once

#include "grappi/export.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "grappi/pcst.hpp"
#include "grappi/snapshot.hpp"
#include "grappi/vector_index.hpp"

namespace grappi {

/// Which edges count as links.
struct EdgeFilter {
  std::vector<std::string> relations;  ///< empty: every relation type
  double min_score = 0.0;              ///< 0-1 scale
};

/// Options of a GraPPI moving kNN window (GraPPI, "retrieve" step: a protein's neighbors ranked
/// by embedding similarity, window i the ranks [(i-1)k, ik), then each node above depth M adds
/// its top neighbors). Equal ranking values are ordered by external id, so a window does not
/// depend on the order the nodes were imported in.
struct WindowOptions {
  /// k per depth: k[0] for the root's ranking, k[d] for nodes at depth d; the last value
  /// repeats. The code default of the reference is {30, 4}; the paper's experiments {10, 2}.
  std::vector<std::size_t> k = {30, 4};
  std::size_t depth = 2;   ///< M: nodes are expanded while their depth is < M
  std::size_t window = 1;  ///< i (1-based): the root keeps ranks [(i-1)k0, i*k0)
  EdgeFilter filter;       ///< the edges followed
  /// Optional blending (0 = the reference behaviour: rank by similarity of the neighbor's
  /// embedding to the expanding node's embedding only). rank = (1 - wq - ws) * sim(node) +
  /// wq * sim(query) + ws * edge score.
  std::vector<float> query;
  double query_weight = 0.0;  ///< wq above
  double score_weight = 0.0;  ///< ws above
  /// Polled before each level and every 64 nodes a level expands (empty: never): once it
  /// returns true the window stops growing, keeps the nodes it has (and the edges among them)
  /// and its note says it was cancelled.
  std::function<bool()> cancel;
};

/// A node of a window.
struct WindowNode {
  int64_t id = 0;                 ///< node id
  std::string name;               ///< preferred name
  std::size_t depth = 0;          ///< 0 for the root
  std::optional<int64_t> parent;  ///< node it was reached from; empty for the root
  double rank_score = 0;          ///< the ranking value that selected it (1 for the root)
};

/// An edge of a window or subgraph.
struct WindowEdge {
  int64_t edge = 0;       ///< edge id in the database
  int64_t source = 0;     ///< node id (the smaller one for undirected edges)
  int64_t target = 0;     ///< node id
  std::string relation;   ///< relation type
  double score = 0;       ///< score in [0,1]
  bool directed = false;  ///< from source to target
};

/// A window graph: its nodes in the order they were added (root first, then by depth and
/// rank) and every edge between two of its nodes that passes the filter.
struct Window {
  std::size_t index = 1;          ///< the window number (1-based)
  int64_t root = 0;               ///< the root's node id
  std::vector<WindowNode> nodes;  ///< root first, then by depth and rank
  std::vector<WindowEdge> edges;  ///< ascending edge id
  /// Why the window holds the root alone (fewer neighbors under the filters than the window
  /// starts at, no neighbors, depth 0); empty otherwise.
  std::string note;
};

/// A path: nodes[0] .. nodes[n]; edges[i] joins nodes[i] and nodes[i+1] (the best-scoring edge
/// when several relations join them).
struct Path {
  std::vector<int64_t> nodes;  ///< node ids, start to end
  std::vector<int64_t> edges;  ///< edge ids, edges[i] joining nodes[i] and nodes[i+1]
  std::vector<double> scores;  ///< score of each edge
  double weight = 0;           ///< hop count, or the sum of -log(score) for weighted searches
  /// Number of edges.
  std::size_t length() const { return edges.size(); }
};

/// Options of Retriever::window_paths.
struct PathOptions {
  std::size_t max_length = 4;      ///< L: at most this many edges
  std::size_t max_paths = 100000;  ///< stop after this many paths (the result says so)
};

/// Every path of a window as the depth-first tree the paths form: path i is path
/// steps[i].parent (or the root alone when the parent is -1) extended by one edge. Compact
/// (16 bytes a path); path(i) materialises one. Paths are numbered in depth-first order.
struct GRAPPI_CXX_API PathSet {
  /// One path: its parent path extended by one edge.
  struct Step {
    int32_t parent;     ///< previous path, -1 for one-edge paths
    uint32_t node;      ///< position in node_ids of the path's last protein
    uint32_t edge;      ///< position in edge_ids / edge_scores of its last edge
    uint32_t length;    ///< edges in the path
  };
  std::vector<Step> steps;           ///< one per path, in depth-first order
  std::vector<int64_t> node_ids;     ///< the window's node ids, root first
  std::vector<int64_t> edge_ids;     ///< the window's edges used by paths
  std::vector<double> edge_scores;   ///< their scores
  bool truncated = false;            ///< max_paths was reached

  /// Number of paths.
  std::size_t size() const { return steps.size(); }
  /// Edges in path i.
  std::size_t length(std::size_t i) const { return steps.at(i).length; }
  /// Path i, materialised.
  Path path(std::size_t i) const;
  /// Every path, materialised (large: prefer path(i) over big sets).
  std::vector<Path> all() const;
};

/// Options of Retriever::shortest_paths.
struct ShortestPathOptions {
  std::size_t k = 10;          ///< paths wanted (1 to 10000)
  std::size_t max_length = 4;  ///< at most this many edges (1 to 100)
  bool weighted = false;  ///< false: by hop count; true: by the sum of -log(score)
  EdgeFilter filter;      ///< the edges followed
  /// Nodes no path passes through (the two ends excepted; ids the graph lacks are ignored).
  std::vector<int64_t> avoid;
  bool skip_direct = false;  ///< no edge joining the two ends is followed (indirect paths only)
  /// Polled before each spur search of the enumeration: true stops it, and the paths found so
  /// far are returned (the caller knows it asked to stop).
  std::function<bool()> cancel;
};

/// Options of Retriever::khop.
struct KhopOptions {
  std::size_t hops = 1;             ///< expansion steps from the seeds
  EdgeFilter filter;                ///< the edges followed (and kept among the nodes)
  std::vector<std::string> labels;  ///< node labels to keep (empty: all); seeds are always kept
  std::size_t degree_cap = 0;       ///< expand each node through its top-d edges by score (0: all)
  std::size_t node_budget = 0;      ///< stop adding nodes beyond this many (0: no limit)
};

/// A node subset with every filtered edge among it.
struct Subgraph {
  std::vector<int64_t> nodes;     ///< ascending id
  std::vector<std::size_t> hops;  ///< distance from the nearest seed, per node
  std::vector<WindowEdge> edges;  ///< ascending edge id
};

/// Seeds by similarity to a question and the k-hop subgraph around them (Retriever::question_khop).
struct QuestionSubgraph {
  std::vector<SearchHit> seeds;  ///< the seed nodes, most similar first
  Subgraph subgraph;             ///< the seeds and the nodes reached from them
};

/// Options of Retriever::pagerank.
struct PageRankOptions {
  double damping = 0.85;          ///< the probability of following an edge, in [0, 1)
  double tolerance = 1e-9;        ///< stop when the L1 change is below this
  std::size_t max_iterations = 100;  ///< stop after this many iterations (the result says whether it converged)
  std::vector<int64_t> seeds;     ///< personalised: restart to these nodes (uniformly); empty: global
  EdgeFilter filter;              ///< the edges followed
  bool weighted = true;           ///< weight edges by score
  std::size_t threads = 0;        ///< 0: hardware concurrency
};

/// A node with a score (PageRankResult::top).
struct RankedNode {
  int64_t id = 0;     ///< node id
  double score = 0;   ///< its score
};

/// The result of Retriever::pagerank.
struct GRAPPI_CXX_API PageRankResult {
  std::vector<double> rank;    ///< by snapshot index; sums to 1
  std::size_t iterations = 0;  ///< power iterations run
  bool converged = false;      ///< the change fell below the tolerance
  /// The top n nodes, descending score, ties by ascending id.
  std::vector<RankedNode> top(const GraphSnapshot &g, std::size_t n) const;
};

/// Question-driven retrieval of a connected, compact subgraph by PCST (G-Retriever: He et al.,
/// "G-Retriever: Retrieval-Augmented Generation for Textual Graph Understanding and Question
/// Answering", NeurIPS 2024).
struct PcstRetrieveOptions {
  /// "gretriever": G-Retriever's prizes (top-k ranks for nodes, distinct-value ranks for edges,
  /// edge cost rule, virtual nodes); "prize": p(v) = alpha cos(q, v) + beta [v is a seed],
  /// p(e) = gamma w(e), cost lambda per edge.
  std::string mode = "gretriever";
  // Base subgraph: seeds by similarity, then k-hop expansion.
  std::size_t seeds = 10;          ///< top nodes by similarity to the question
  bool connected_seeds = true;     ///< seeds only among nodes with at least one edge passing the filter
  /// The base subgraph's expansion (2 hops, degree cap 20, at most 2000 nodes by default).
  KhopOptions khop = [] {
    KhopOptions k;
    k.hops = 2;
    k.degree_cap = 20;
    k.node_budget = 2000;
    return k;
  }();
  // G-Retriever.
  std::size_t topk = 3;            ///< nodes with prizes topk, topk-1, ..., 1
  std::size_t topk_e = 5;          ///< distinct edge similarity values with prizes
  double cost_e = 0.5;             ///< edge cost before the min(cost_e, 0.995 max edge prize) rule
  bool pyg_cap = false;            ///< cap each edge prize at previous - 0.01 (PyG) instead of 0.99 x previous
  // The prize rule.
  double alpha = 1.0;   ///< prize: weight of a node's question similarity
  double beta = 1.0;    ///< prize: bonus of a seed node
  double gamma = 0.5;   ///< prize: weight of an edge's score as its prize
  double lambda = 1.0;  ///< prize: cost of an edge
  /// Weights of relations: each edge's prize (either mode) is multiplied by its relation's
  /// weight (relations not named: 1), so that, say, curated interactions count more than
  /// co-occurrence.
  std::map<std::string, double> relation_weights;
  // Solver.
  Pruning pruning = Pruning::gw;  ///< PcstOptions::pruning
  int num_clusters = 1;           ///< trees wanted
  /// PcstOptions::event_order: by default pcst_fast's, so the subgraph is G-Retriever's to the
  /// last tie.
  PcstEventOrder event_order = PcstEventOrder::reference;
  /// Keep the base subgraph and its node prizes in the result (PcstRetrieval::base; the graph
  /// reader reads it).
  bool keep_base = false;
  /// Nodes that must be in the selection (the entities a question names): seeds before the
  /// similarity seeds, prizes above every other node's, and, when the solver leaves one out,
  /// added back with its base edges to the selected nodes.
  std::vector<int64_t> anchors;
  /// Polled between the stages (seeds, expansion, prizes) and inside the solver
  /// (PcstOptions::cancel): once it returns true the retrieval stops and returns what it has,
  /// with PcstRetrieval::cancelled set and nothing selected.
  std::function<bool()> cancel;
};

/// The result of Retriever::pcst_retrieve.
struct PcstRetrieval {
  Subgraph subgraph;                 ///< selected nodes (ascending id, hops from the seeds) and edges
  std::vector<int64_t> seeds;        ///< the seed nodes, best first
  std::vector<double> node_prizes;   ///< prize of each selected node (subgraph.nodes order)
  std::vector<double> edge_prizes;   ///< prize of each selected edge (subgraph.edges order)
  double edge_cost = 0;              ///< the per-edge cost used
  double objective = 0;              ///< the PCST objective of the selection
  double net_worth = 0;              ///< prizes taken in - costs taken in
  std::size_t base_nodes = 0;        ///< nodes of the base subgraph
  std::size_t base_edges = 0;        ///< edges of the base subgraph
  std::size_t virtual_nodes = 0;     ///< edges turned into virtual nodes (G-Retriever's rule)
  Subgraph base;                     ///< the base subgraph (only with PcstRetrieveOptions::keep_base)
  std::vector<double> base_prizes;   ///< its nodes' prizes (base.nodes order; only with keep_base)
  bool cancelled = false;            ///< PcstRetrieveOptions::cancel stopped it (nothing selected)
};

/// Similarity of the question to each base edge's text (for G-Retriever edge prizes), one value
/// per edge in order. Without one, an edge's similarity is the mean of its endpoints' (the edge
/// text being both proteins' texts and the relation type).
using EdgeSimilarity = std::function<std::vector<double>(const std::vector<WindowEdge> &)>;

class KnowledgeGraph;

/// Options of the Retriever constructor.
struct RetrieverOptions {
  /// A neighbor ranking file (save_neighbor_ranking): used when it was written for this
  /// snapshot's adjacency and these vectors, silently ignored otherwise (missing, stale,
  /// damaged). Empty: none.
  std::string neighbor_ranking_file;
};

/// Retrieval over one snapshot and (optionally) one vector index. Every const method is
/// thread-safe; the retriever shares its inputs and never changes them. rank_neighbors is the
/// one non-const method: call it before the retriever is shared.
class GRAPPI_CXX_API Retriever {
 public:
  /// With vectors, keeps a unit-length copy of every node's vector aligned to the snapshot
  /// (4 bytes per dimension and node) for fast ranking.
  explicit Retriever(std::shared_ptr<const GraphSnapshot> graph, std::shared_ptr<const VectorIndex> vectors = nullptr,
                     const RetrieverOptions &options = {});

  /// Ranks every node's distinct neighbors once by the cosine similarity of their vectors to
  /// the node's own (descending, ties by external id, neighbors without a vector last): the order
  /// a window uses when it blends in neither a query nor edge scores, which then becomes a
  /// lookup instead of a similarity pass over all neighbors. 4 bytes per neighbor entry;
  /// seconds on the human network with all links. threads 0: all cores. Needs vectors.
  void rank_neighbors(unsigned threads = 0);
  /// Whether the neighbor ranking was computed or loaded from its file.
  bool has_neighbor_ranking() const { return ranked_; }
  /// Neighbor entries ranked (0 without a ranking).
  std::size_t neighbor_ranking_entries() const { return rank_entries_; }
  /// Writes the neighbor ranking with a fingerprint of the adjacency and the vectors it was
  /// computed from (RetrieverOptions::neighbor_ranking_file reads it back). Error(io) when the
  /// file cannot be written; Error(invalid_argument) without a ranking.
  void save_neighbor_ranking(const std::string &path) const;

  /// The snapshot it retrieves from.
  const GraphSnapshot &graph() const { return *graph_; }
  /// The vectors it ranks with, or nullptr.
  const VectorIndex *vectors() const { return vectors_.get(); }

  /// One moving kNN window around root. Without vectors, neighbors are ranked by edge score.
  Window window(int64_t root, const WindowOptions &options) const;
  /// Several windows of the same root, built concurrently; options.window is ignored.
  std::vector<Window> windows(int64_t root, const std::vector<std::size_t> &indices, const WindowOptions &options) const;
  /// All simple paths from the window's root with 1..L edges, prefixes included, in
  /// depth-first order following the window's node order. Error(invalid_argument) for
  /// max_length outside 1 to 12 or max_paths outside 1 to 1,000,000 (explore's bounds).
  PathSet window_paths(const Window &window, const PathOptions &options = {}) const;
  /// Up to k shortest simple paths from `from` to `to` (Yen's algorithm), shortest first;
  /// equal weights in the order found (deterministic).
  std::vector<Path> shortest_paths(int64_t from, int64_t to, const ShortestPathOptions &options = {}) const;
  /// Every shortest path from `from` to `to` by hops (all of the same length, at most
  /// max_length edges), at most k of them, in the order of the nodes' positions in the snapshot
  /// (deterministic); options.weighted must be false. HGCR's candidate set (networkx's
  /// all_shortest_paths): unlike shortest_paths, no longer path joins the shortest ones.
  std::vector<Path> all_shortest_paths(int64_t from, int64_t to, const ShortestPathOptions &options = {}) const;
  /// Top-k nodes by similarity to a query vector (exact; HNSW when the index has one and
  /// use_hnsw is set).
  std::vector<SearchHit> seeds(const std::vector<float> &query, std::size_t k, bool use_hnsw = false) const;
  /// Breadth-first expansion from seeds.
  Subgraph khop(const std::vector<int64_t> &seeds, const KhopOptions &options = {}) const;
  /// The `seeds` nodes most similar to a question vector, expanded by khop (needs vectors).
  QuestionSubgraph question_khop(const std::vector<float> &question, std::size_t seeds,
                                 const KhopOptions &options = {}) const;
  /// Global or personalised PageRank by power iteration on the CSR.
  PageRankResult pagerank(const PageRankOptions &options = {}) const;
  /// A connected, compact subgraph for a question embedding by PCST on a k-hop base subgraph
  /// around the question's seeds (needs vectors).
  PcstRetrieval pcst_retrieve(const std::vector<float> &question, const PcstRetrieveOptions &options = {},
                              const EdgeSimilarity &edge_similarity = {}) const;

 private:
  class WindowRanker;  // ranks a node's neighbors for a window (windows.cpp)
  /// Cosine similarity of two snapshot nodes' vectors; NaN when either has none.
  float similarity(uint32_t a, uint32_t b) const;
  /// Cosine similarity of a unit query vector and a node's vector; NaN when it has none.
  float similarity(const float *unit_query, uint32_t b) const;

  std::shared_ptr<const GraphSnapshot> graph_;
  std::shared_ptr<const VectorIndex> vectors_;
  std::size_t dim_ = 0;
  /// int8 dot product of two quantised unit vectors, scaled back to a cosine.
  float similarity8(const int8_t *q, uint32_t b) const;

  std::vector<float> unit_;     // node_count x dim_, zero rows for nodes without a vector
  std::vector<int8_t> unit8_;   // the same, quantised (x 127), for a first ranking pass
  std::vector<char> has_vec_;   // per snapshot index
  // Neighbor ranking: node u's neighbors, best first, are rank_nodes_[rank_off_[u] .. rank_off_[u+1]);
  // the arrays are the vectors below when computed here, the mapped file (rank_file_) when loaded.
  const uint64_t *rank_off_ = nullptr;
  const uint32_t *rank_nodes_ = nullptr;
  std::size_t rank_entries_ = 0;
  std::vector<uint64_t> rank_off_own_;
  std::vector<uint32_t> rank_nodes_own_;
  std::shared_ptr<const void> rank_file_;
  bool ranked_ = false;
  uint64_t fingerprint() const;
  bool load_neighbor_ranking(const std::string &path);
};

/// G-Retriever textualisation: "node_id,node_attr" rows (node_id = position in the node list),
/// a blank line, then "src,edge_attr,dst" rows; standard CSV quoting. node_attr is produced by
/// the callback (for example "NAME: annotation").
GRAPPI_CXX_API std::string to_gretriever_csv(const GraphSnapshot &g, const Subgraph &s,
                                             const std::function<std::string(int64_t)> &node_attr);

}  // namespace grappi
