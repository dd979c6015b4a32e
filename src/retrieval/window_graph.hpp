// Internal: a window as a small undirected graph over window positions (root at 0), with the
// best edge per node pair. Shared by Retriever::window_paths and explore's candidate search.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "grappi/retriever.hpp"
#include "grappi/snapshot.hpp"

namespace grappi::detail {

struct WindowGraph {
  std::vector<int64_t> node_ids;    ///< window position -> node id (the root at 0)
  std::vector<int64_t> edge_ids;    ///< edge slot -> edge id
  std::vector<double> edge_scores;  ///< edge slot -> score
  /// position -> (neighbor position, edge slot), ascending neighbor position.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> adj;
};

/// The window's graph. Between two nodes joined by several edges, the best: the highest score,
/// then the smallest relation name, then the smallest edge id (so the choice does not depend
/// on the order in which edges were imported when scores and relations differ).
WindowGraph window_graph(const GraphSnapshot &g, const Window &w);

}  // namespace grappi::detail
