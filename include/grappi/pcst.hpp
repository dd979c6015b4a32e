// grappi/pcst.hpp — prize-collecting Steiner tree/forest: Goemans-Williamson moat growing with
// pruning, the semantics of pcst_fast (Hegde, Indyk, Schmidt: "A nearly-linear time framework
// for graph-structured sparsity", ICML 2015), the solver G-Retriever and PyG call.
#pragma once

#include "grappi/export.h"

#include <functional>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace grappi {

enum class Pruning {
  none,    ///< every edge GW added; nodes = the good nodes and every such edge's endpoints
  simple,  ///< GW's edges among good nodes (nodes in clusters active at the end, or the root's)
  gw,      ///< GW pruning: walk the merges backwards, dropping inactive subtrees nothing needs
  strong,  ///< per tree, the subtree of best net worth around the best root (tree DP)
};

/// "none", "simple", "gw", "strong" in any letter case; Error(invalid_argument) otherwise.
GRAPPI_CXX_API Pruning pruning_from_name(std::string_view name);
/// "none", "simple", "gw" or "strong".
GRAPPI_CXX_API const char *to_string(Pruning p) noexcept;

/// Which growth engine takes the events of Goemans-Williamson (several events often happen at
/// the same time - with integer or uniform costs - and the order decides the tree).
enum class PcstEventOrder {
  /// pcst_fast's own order and arithmetic (its per-cluster pairing heaps' tie-breaking): the
  /// forest, and so every pruning's result, is the reference solver's - and G-Retriever's - to
  /// the last tie. The default.
  reference,
  /// grappi's radix-queue order: faster; differs from the reference only where events tie.
  fast,
};

/// "reference" or "fast".
GRAPPI_CXX_API const char *to_string(PcstEventOrder order) noexcept;
/// Inverse of to_string (any letter case); Error(invalid_argument) otherwise.
GRAPPI_CXX_API PcstEventOrder pcst_event_order_from_name(std::string_view name);

/// Options of PCSTSolver::solve.
struct PcstOptions {
  int64_t root = -1;     ///< -1: unrooted
  int num_clusters = 1;  ///< trees wanted when unrooted; must be 1 when rooted
  Pruning pruning = Pruning::gw;  ///< what to keep of the forest the growth phase built
  /// After pruning, improve the solution by local search: re-span each tree's nodes with a
  /// minimum spanning tree of the edges among them, attach the outside paths whose prizes exceed
  /// their costs (multi-source Dijkstra from the trees), strong-prune, and repeat while the
  /// objective drops; then key-path exchange and Steiner-vertex insertion (bounded work; not on
  /// forests of over 50,000 nodes) and the rounds again while they gain; all of it once more from
  /// the other event order's growth, the better kept. One tree over at most 16
  /// prized nodes (the root counted) on a small enough graph is solved exactly instead
  /// (PcstResult::optimal). Never worse than the pruned solution; never changes the number of trees.
  bool improve = false;
  /// The order events are taken in; docs/retrieval.md and BENCHMARKS.md give both orders' measured
  /// times and objectives.
  PcstEventOrder event_order = PcstEventOrder::reference;
  /// Polled every 4,096 events of the growth phase (and before pruning): once it returns true
  /// the solver stops and returns an empty solution with PcstResult::cancelled set.
  std::function<bool()> cancel;
};

/// A solution (PCSTSolver::solve).
struct PcstResult {
  std::vector<int64_t> nodes;  ///< selected nodes, ascending
  std::vector<int64_t> edges;  ///< selected edge indices, ascending
  double objective = 0;        ///< prizes of nodes left out + costs of edges taken in (minimise)
  double net_worth = 0;        ///< prizes taken in - costs taken in (= total prize - objective)
  double objective_before_improve = 0;  ///< the pruned solution's objective (= objective without improve)
  int improve_rounds = 0;      ///< local-search rounds that lowered the objective
  /// The solution is proven optimal: with `improve`, one tree over at most 16 prized nodes (the
  /// root counted) on a graph small enough (2^prized * nodes <= 4,194,304) is solved exactly.
  bool optimal = false;
  bool cancelled = false;      ///< PcstOptions::cancel stopped the solver (nothing selected)
};

/// A problem instance.
struct PcstInstance {
  std::vector<double> prizes;                      ///< per node, >= 0
  std::vector<std::pair<int64_t, int64_t>> edges;  ///< 0-based endpoints
  std::vector<double> costs;                       ///< per edge, >= 0
};

/// Reads a pcst-instance v1 file (plain or gzip): an "n m" line, n prize lines, m "u v cost"
/// lines with 0-based endpoints, and '#' comment lines anywhere. Error(parse) names the file
/// and line of the first problem; Error(not_found) or Error(io) when it cannot be read.
GRAPPI_CXX_API PcstInstance read_pcst_instance(const std::string &path);

/// The solver. Inputs are validated: prizes and costs must be finite and >= 0, endpoints in
/// range, a root in range, num_clusters >= 1 (exactly 1 when rooted), and the arrays of equal
/// length; otherwise Error(invalid_argument) names the first offending index. Self-loops are
/// never selected (they cannot connect anything); parallel edges are fine (the cheapest one that
/// becomes tight first joins the clusters, the others are then inside one cluster and ignored).
/// A solver keeps its buffers between calls: solving again an instance that needs no more room
/// than an earlier one allocates nothing but the result's two lists (tested; the optional
/// improvement phase allocates its own working sets). It is not thread-safe (use one per
/// thread).
class GRAPPI_CXX_API PCSTSolver {
 public:
  PCSTSolver();
  ~PCSTSolver();
  PCSTSolver(const PCSTSolver &) = delete;
  PCSTSolver &operator=(const PCSTSolver &) = delete;

  /// Solves the instance (prizes per node, edges as endpoint pairs, costs per edge).
  PcstResult solve(const std::vector<double> &prizes, const std::vector<std::pair<int64_t, int64_t>> &edges,
                   const std::vector<double> &costs, const PcstOptions &options = {});
  /// The same on plain arrays: edges holds 2 * num_edges endpoints.
  PcstResult solve(std::size_t num_nodes, const double *prizes, std::size_t num_edges, const int64_t *edges,
                   const double *costs, const PcstOptions &options = {});

 private:
  struct Impl;
  Impl *impl_;
};

}  // namespace grappi
