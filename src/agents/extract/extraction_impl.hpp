// Internal helpers shared by the extraction outputs (extraction_output.cpp) and the curator's
// review (extraction_review.cpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "grappi/extraction.hpp"

namespace grappi::detail {

/// A paragraph's citation: "PMID:n", else its PMCID, else "doi:…", else its document id.
std::string reference_of(const ExtractionParagraph &p);

/// The BEL `SET Citation` line of a reference as reference_of writes it, for a document:
/// PubMed for "PMID:n", DOI for "doi:…", Other (with the reference) for anything else.
std::string citation_line(const std::string &document, const std::string &reference);

/// A paper's organism and abbreviations as the extraction's JSON writes them ("papers"), and back
/// (an extraction part's header).
nlohmann::json paper_json(const PaperContext &p);
PaperContext paper_from(const nlohmann::json &j);

}  // namespace grappi::detail
