// The JSON form of retrieval's results: search hits, ranked nodes, windows, paths, subgraphs,
// PCST retrievals and PCST solutions, node names read from the snapshot (grappi/json.hpp
// includes it).
#pragma once

#include "grappi/export.h"

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/pcst.hpp"
#include "grappi/retriever.hpp"
#include "grappi/snapshot.hpp"
#include "grappi/vector_index.hpp"

namespace grappi {

// ---- graph queries ---------------------------------------------------------------------------
/// [{id, name, external_id, score}] of search hits (nodes missing from the snapshot are skipped).
GRAPPI_CXX_API nlohmann::json to_json(const GraphSnapshot &g, const std::vector<SearchHit> &hits);
/// [{name, score, id}] of ranked nodes (PageRankResult::top).
GRAPPI_CXX_API nlohmann::json to_json(const GraphSnapshot &g, const std::vector<RankedNode> &ranked);

// ---- retrieval -------------------------------------------------------------------------------
/// {"window", "root", "nodes": [{id, name, depth, parent, parent_id, rank_score}], "edges":
/// [{source, target, score, relation, directed, edge_id}]}.
GRAPPI_CXX_API nlohmann::json to_json(const GraphSnapshot &g, const Window &w);
/// [{proteins (names), length, node_ids, edge_ids, scores, weight}].
GRAPPI_CXX_API nlohmann::json to_json(const GraphSnapshot &g, const std::vector<Path> &paths);
/// The text of to_json(g, paths.all()), written path by path: memory in proportion to the text,
/// not to a JSON tree of every path (a window's million paths).
GRAPPI_CXX_API std::string paths_json_text(const GraphSnapshot &g, const PathSet &paths);
/// {"nodes": [{id, name, hops}], "edges": [...as in a window]}.
GRAPPI_CXX_API nlohmann::json to_json(const GraphSnapshot &g, const Subgraph &s);
/// The subgraph JSON plus "seeds" (names, most similar first).
GRAPPI_CXX_API nlohmann::json to_json(const GraphSnapshot &g, const QuestionSubgraph &s);
/// The subgraph JSON plus prizes, seeds, edge cost, objective, net worth and base sizes.
GRAPPI_CXX_API nlohmann::json to_json(const GraphSnapshot &g, const PcstRetrieval &r);

// ---- PCST ------------------------------------------------------------------------------------
/// {"objective", "net_worth", "nodes", "edges", "num_nodes", "num_edges",
/// "objective_before_improve", "improve_rounds", "optimal", "pruning", "root", "clusters", "improve",
/// "event_order" ("reference" or "fast"), "reference_order" (the same as a boolean)}.
GRAPPI_CXX_API nlohmann::json to_json(const PcstResult &result, const PcstOptions &options);
}  // namespace grappi
