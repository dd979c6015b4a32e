// Internal helpers shared by the extraction outputs (extraction_output.cpp) and the curator's
// review (extraction_review.cpp).
#pragma once

#include <string>

#include "grappi/extraction.hpp"

namespace grappi::detail {

/// A paragraph's citation: "PMID:n", else its PMCID, else "doi:…", else its document id.
std::string reference_of(const ExtractionParagraph &p);

/// The BEL `SET Citation` line of a reference as reference_of writes it, for a document:
/// PubMed for "PMID:n", DOI for "doi:…", Other (with the reference) for anything else.
std::string citation_line(const std::string &document, const std::string &reference);

}  // namespace grappi::detail
