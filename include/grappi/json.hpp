// grappi/json.hpp — the JSON form of every result type (nlohmann::json), as the command line
// prints it and the C API returns it. Keys are documented in docs/ (a guide per job); they are only ever
// added to, never renamed (VERSIONING.md).
#pragma once

#include "grappi/export.h"

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/bel.hpp"
#include "grappi/import.hpp"
#include "grappi/json_text.hpp"
#include "grappi/knowledge_graph.hpp"
#include "grappi/ontology.hpp"
#include "grappi/pcst.hpp"
#include "grappi/pipeline.hpp"
#include "grappi/retriever.hpp"
#include "grappi/snapshot.hpp"
#include "grappi/types.hpp"
#include "grappi/vector_index.hpp"

namespace grappi {

// ---- the store -------------------------------------------------------------------------------
GRAPPI_CXX_API nlohmann::json to_json(const Node &node);
GRAPPI_CXX_API nlohmann::json to_json(const Edge &edge);
GRAPPI_CXX_API nlohmann::json to_json(const Dataset &dataset);
GRAPPI_CXX_API nlohmann::json to_json(const GraphStats &stats);
GRAPPI_CXX_API nlohmann::json to_json(const ResolveResult &result);
GRAPPI_CXX_API nlohmann::json to_json(const FileReport &report);
GRAPPI_CXX_API nlohmann::json to_json(const ImportReport &report);

// ---- graph queries (node names from the snapshot) ---------------------------------------------
/// {"protein": {id, name, external_id}, "degree", "neighbors": [{id, name, external_id, edge,
/// score, relation, direction ("out", "in" or "undirected")}]} for the neighbors of `node`.
GRAPPI_CXX_API nlohmann::json to_json(const GraphSnapshot &g, int64_t node, const std::vector<Neighbor> &neighbors);
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
/// {"nodes": [{id, name, hops}], "edges": [...as in a window]}.
GRAPPI_CXX_API nlohmann::json to_json(const GraphSnapshot &g, const Subgraph &s);
/// The subgraph JSON plus "seeds" (names, most similar first).
GRAPPI_CXX_API nlohmann::json to_json(const GraphSnapshot &g, const QuestionSubgraph &s);
/// The subgraph JSON plus prizes, seeds, edge cost, objective, net worth and base sizes.
GRAPPI_CXX_API nlohmann::json to_json(const GraphSnapshot &g, const PcstRetrieval &r);

// ---- PCST and explore ------------------------------------------------------------------------
/// {"objective", "net_worth", "nodes", "edges", "num_nodes", "num_edges",
/// "objective_before_improve", "improve_rounds", "pruning", "root", "clusters", "improve",
/// "event_order" ("reference" or "fast"), "reference_order" (the same as a boolean)}.
GRAPPI_CXX_API nlohmann::json to_json(const PcstResult &result, const PcstOptions &options);
/// The explore result (docs/explore.md "output").
GRAPPI_CXX_API nlohmann::json to_json(const ExploreResult &result);

// ---- ontologies ------------------------------------------------------------------------------
/// The answer to an ontology question (docs/data.md "Ontologies"). Terms are {id, external_id, name}
/// (with "distance" in lists). term: the term plus label, definition, attributes, parents,
/// children and, given a root, depth (null when not below it); ancestors / descendants /
/// parents / children: {"term", "<kind>": [...]}; lca: {"a", "b", "lowest_common_ancestors",
/// "distance"}; subtree: {"root", "descendants"}; roots: {"roots"}. Names that do not resolve
/// throw as KnowledgeGraph::resolve does.
GRAPPI_CXX_API nlohmann::json ontology_json(const KnowledgeGraph &graph, const OntologyQuestion &question);

// ---- BEL -------------------------------------------------------------------------------------
/// {"valid", "canonical" (null when invalid), "errors", "warnings", "problems": [{severity,
/// code, offset, message}], and for a parsed statement "subject", "relation" (null for a term
/// alone), "object" (a term, a nested statement in parentheses, or null), each canonical}.
GRAPPI_CXX_API nlohmann::json to_json(const BelResult &result, bool long_form = false);
/// {"properties": {key: value}, "namespaces", "annotations", "statements", "valid_statements",
/// "errors", "warnings", "problems": [{line, column, severity, code, message}], "results":
/// [{line, text, citation ({type, id, name, date, authors} or null), evidence,
/// statement_group, annotations {name: [values]}, plus the statement's to_json}]}.
GRAPPI_CXX_API nlohmann::json to_json(const BelDocument &document, bool long_form = false);

}  // namespace grappi
