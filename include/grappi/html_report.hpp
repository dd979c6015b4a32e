// grappi/html_report.hpp — self-contained HTML reports: a result reduced to a report view
// (nodes, edges, ranked items, sections, provenance) and drawn in one HTML file that needs no
// network to open (cytoscape.js and grappi's renderer are embedded): nodes coloured by role and
// sized by score, edges by relation and confidence, the ranked list beside the drawing (listed
// lazily), a click on an item highlighting it and showing its explanation, every edge's
// explanation, STRING channels, PubMed links and annotations; a static table for printing.
#pragma once

#include "grappi/export.h"

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/answer.hpp"
#include "grappi/extraction.hpp"
#include "grappi/grounding.hpp"
#include "grappi/hypothesis.hpp"
#include "grappi/knowledge_graph.hpp"
#include "grappi/pipeline.hpp"
#include "grappi/retriever.hpp"

namespace grappi {

/// The report view of an explore run: the windows' proteins (root, members of a ranked path,
/// context; sized by query similarity) and edges, the ranked paths as items (then the failed
/// ones), the explained edges' explanations, channels, PubMed ids and evidence.
GRAPPI_CXX_API nlohmann::json report_view(const ExploreResult &result);
/// The report view of an answer: the retrieved subgraph (question entities, answer entities,
/// cited nodes, context; sized by prize), the answer's sentences with their citation checks,
/// the ranked answer entities as items. Node and edge details are read from `kg`.
GRAPPI_CXX_API nlohmann::json report_view(const KnowledgeGraph &kg, const AskResult &result);
/// The report view of a question's PCST subgraph (seeds, selected nodes; sized by prize), its
/// nodes ranked by prize as items.
GRAPPI_CXX_API nlohmann::json report_view(const KnowledgeGraph &kg, const std::string &question, const PcstRetrieval &retrieval);
/// The report view of a hypothesis: the ranked paths' concepts and edges, the paths as items,
/// the chosen explanation's sentences with their checks against the knowledge base.
GRAPPI_CXX_API nlohmann::json report_view(const HypothesisResult &result);
/// The report view of an extraction: the statements' BEL terms (grounded entities and
/// functions) and relations as drawn in its CX2 (valid and flagged statements), every statement
/// as an item (valid, flagged, rejected: its evidence, flags, the validator's problems, its
/// paper), the paragraphs' grounding counts as a section.
GRAPPI_CXX_API nlohmann::json report_view(const ExtractionResult &result);
/// The report view of a grounding: the ontology terms the walk scored (the root, the chosen
/// term, the best-scored ones, the rest) and the ontology's edges among them, the terms ranked
/// by score as items, the relation summary and its quotes (each checked against the text).
GRAPPI_CXX_API nlohmann::json report_view(const KnowledgeGraph &kg, const GroundingResult &result);
/// The report view of one pair grounded by several strategies side by side (Grounder::ground
/// with a list of strategies): every term any of them scored and the ontology's edges among
/// them (each strategy's chosen term an answer), one item per strategy in the order given (its
/// chosen term and best score, the terms tied with it, terms scored of the candidates and why it
/// stopped, the pick, its model use), the first one's relation summary. One result gives the
/// single view. Error(invalid_argument) when there is none or they ground different pairs or roots.
GRAPPI_CXX_API nlohmann::json report_view(const KnowledgeGraph &kg, const std::vector<GroundingResult> &results);

/// A self-contained HTML page of a report view (serialised JSON of the format report_view
/// returns; docs/web.md describes it). Throws Error (invalid_argument) when it is not a JSON
/// object with arrays `nodes`, `edges` and `items`.
GRAPPI_CXX_API std::string html_report(std::string_view view_json);

/// The page of the local web explorer (`grappi serve`): a form for explore and ask over the
/// JSON endpoints docs/web.md lists (`/api/info`, `/api/complete`, `/api/explore`, `/api/ask`,
/// `/api/jobs/ID`, `.../view`, `.../report.html`, `.../cancel`), progress while a job runs,
/// the result drawn as in a report. Self-contained (the scripts embedded).
GRAPPI_CXX_API std::string explorer_page();

/// A self-contained HTML page of a report view.
inline std::string to_html(const nlohmann::json &view) {
  return html_report(view.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}
/// The HTML report of an explore run.
inline std::string to_html(const ExploreResult &result) { return to_html(report_view(result)); }
/// The HTML report of an answer.
inline std::string to_html(const KnowledgeGraph &kg, const AskResult &result) { return to_html(report_view(kg, result)); }
/// The HTML report of a hypothesis.
inline std::string to_html(const HypothesisResult &result) { return to_html(report_view(result)); }
/// The HTML report of an extraction.
inline std::string to_html(const ExtractionResult &result) { return to_html(report_view(result)); }
/// The HTML report of a grounding.
inline std::string to_html(const KnowledgeGraph &kg, const GroundingResult &result) { return to_html(report_view(kg, result)); }
/// The HTML report of one pair grounded by several strategies side by side.
inline std::string to_html(const KnowledgeGraph &kg, const std::vector<GroundingResult> &results) {
  return to_html(report_view(kg, results));
}

}  // namespace grappi
