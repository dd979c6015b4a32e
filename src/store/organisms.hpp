// The organisms a text names (grappi/entities.hpp, organisms_in_text): one table of cues — species
// names, common names, strains and cell lines — shared by the extraction's reading of a paper and the
// question reader's "in yeast".
#pragma once

#include <cstdint>
#include <map>
#include <string_view>

namespace grappi::detail {

/// The organism (NCBI taxon, as STRING numbers it) one word names on its own, lower case
/// ("yeast", "mice", "murine", "drosophila"); 0 for any other word.
int64_t organism_word(std::string_view lower_word);
/// The organism a word just before a gene's name gives it ("human TNF", "mouse Tnf"), lower case;
/// 0 for a word of people ("patients") and any other word.
int64_t organism_before_name(std::string_view lower_word);
/// The organism of a cell line written as `text` ("HeLa": 9606, "PC12": 10116, "CHO"), else 0.
int64_t cell_line(std::string_view text);
/// Every such word with its organism.
const std::map<std::string_view, int64_t> &organism_words();

}  // namespace grappi::detail
