// The JSON form of the store's types: nodes, edges, datasets, statistics, resolution, import
// reports, a node's neighbors and the answers to ontology questions (grappi/json.hpp includes it).
#pragma once

#include "grappi/export.h"

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/import.hpp"
#include "grappi/knowledge_graph.hpp"
#include "grappi/ontology.hpp"
#include "grappi/snapshot.hpp"
#include "grappi/types.hpp"

namespace grappi {

// ---- the store -------------------------------------------------------------------------------
GRAPPI_CXX_API nlohmann::json to_json(const Node &node);
GRAPPI_CXX_API nlohmann::json to_json(const Edge &edge);
GRAPPI_CXX_API nlohmann::json to_json(const Dataset &dataset);
GRAPPI_CXX_API nlohmann::json to_json(const GraphStats &stats);
GRAPPI_CXX_API nlohmann::json to_json(const ResolveResult &result);
GRAPPI_CXX_API nlohmann::json to_json(const FileReport &report);
GRAPPI_CXX_API nlohmann::json to_json(const ImportReport &report);
/// One hit of a paper search (docs/schemas/papers.schema.json): key, pmid, doi, year, title,
/// snippet, score, document, dataset.
GRAPPI_CXX_API nlohmann::json to_json(const PaperHit &hit);


// ---- a node's neighbors (names from the snapshot) -----------------------------------------------
/// {"protein": {id, name, external_id}, "degree", "neighbors": [{id, name, external_id, edge,
/// score, relation, direction ("out", "in" or "undirected")}]} for the neighbors of `node`.
GRAPPI_CXX_API nlohmann::json to_json(const GraphSnapshot &g, int64_t node, const std::vector<Neighbor> &neighbors);
/// The neighbors of `node` passing the filter, strongest first (ties by node id), at most `limit`
/// (0: all), as `grappi neighbors` lists them. Error(not_found) for an unknown id.
GRAPPI_CXX_API std::vector<Neighbor> strongest_neighbors(const GraphSnapshot &g, int64_t node, const NeighborFilter &filter,
                                                         std::size_t limit = 0);

// ---- ontologies ------------------------------------------------------------------------------
/// The answer to an ontology question (docs/data.md "Ontologies"). Terms are {id, external_id, name}
/// (with "distance" in lists). term: the term plus label, definition, attributes, parents,
/// children and, given a root, depth (null when not below it); ancestors / descendants /
/// parents / children: {"term", "<kind>": [...]}; lca: {"a", "b", "lowest_common_ancestors",
/// "distance"}; subtree: {"root", "descendants"}; roots: {"roots"}. Names that do not resolve
/// throw as KnowledgeGraph::resolve does.
GRAPPI_CXX_API nlohmann::json ontology_json(const KnowledgeGraph &graph, const OntologyQuestion &question);

}  // namespace grappi
