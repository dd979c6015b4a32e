// Internal: the Cytoscape Exchange format. A reader of CX2 (and of CX1, the classic Cytoscape
// and NDEx format, converted to the same shape) that checks what the cytoscape-web validator
// checks, and the pieces every CX2 writer shares (descriptor, metaData, status, a default
// style). The importer (import_cx2.cpp), the graph export (export_cx2.cpp) and the explanation
// pipeline's output (explore_output.cpp) stand on it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace grappi::detail {

/// A node or edge of a CX network.
struct CxElement {
  int64_t id = 0;
  std::size_t index = 0;  ///< position in its aspect (0-based, over all fragments)
  /// Attribute values by full name (declared aliases replaced, declared defaults applied,
  /// CX1 values converted to their declared type).
  nlohmann::json values = nlohmann::json::object();
  std::optional<double> x, y, z;  ///< layout position (nodes)
  int64_t source = 0, target = 0;  ///< edges
  std::string raw;                 ///< the element as written in the file
  std::string problem;             ///< why it cannot be used; empty when it can
};

/// A problem the reader could not attach to a node or edge: a CX1 attribute of a missing node or
/// whose value does not convert, a network attribute of the wrong type. `what` names the element
/// ("nodeAttributes 12", "network attribute 'name'").
struct CxProblem {
  std::size_t number = 0;  ///< 1-based position in its aspect
  std::string what, message;
};

/// A CX network as read.
struct CxNetwork {
  int version = 2;  ///< 2 (CX2) or 1 (CX1)
  nlohmann::json network_attributes = nlohmann::json::object();
  std::vector<CxElement> nodes, edges;
  /// Problems of attributes, in file order (a node's or edge's own problem is on the element).
  std::vector<CxProblem> problems;
  /// Aspects read but not part of the graph (styles, views, opaque aspects), with their sizes.
  std::vector<std::pair<std::string, uint64_t>> other_aspects;
};

/// Reads a parsed CX2 or CX1 document. A document that is not one (not an array, empty, no
/// CXVersion descriptor and nothing CX1-like, a major version other than 2, no status, a status
/// reporting failure, an aspect that is not an object with one array, a bad attribute
/// declaration) is an Error(parse) naming `path`; problems of single nodes and edges (no id,
/// duplicate ids, an edge naming a missing node, a value that does not fit its declared type)
/// are recorded on the element and in `problems`, for the importer to report as bad lines.
CxNetwork read_cx(const nlohmann::json &document, const std::string &path);

/// Whether a file's first non-blank line may open a CX document (a JSON array).
bool looks_like_cx(std::string_view first_line);

/// The CX2 type of a JSON value ("string", "boolean", "long", "double", "list_of_string", ...);
/// empty for values CX2 has no type for (objects, null, mixed or empty lists).
std::string cx2_type_of(const nlohmann::json &value);

/// A CX2 document from its parts, in the order ndex2 writes them: the descriptor, metaData
/// (counts of what follows), attributeDeclarations, networkAttributes, nodes, edges,
/// visualProperties, nodeBypasses (when not empty) and the status.
nlohmann::json cx2_document(const nlohmann::json &declarations, const nlohmann::json &network_attributes,
                            nlohmann::json nodes, nlohmann::json edges, const nlohmann::json &style,
                            const nlohmann::json &node_bypasses = nlohmann::json::array());

/// A plain style: labelled ellipses, edge width following `score` (0.15 to 1), and tool tips
/// from `tooltip_attribute` when not empty.
nlohmann::json cx2_default_style(const std::string &tooltip_attribute = {});

}  // namespace grappi::detail
