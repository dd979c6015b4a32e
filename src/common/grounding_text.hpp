// Internal: the text side of relation grounding: chunks, sentences, protein mentions, quote
// checks and the lexical similarity of a summary to ontology terms (TF-IDF over word stems).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace grappi::detail {

/// [begin, end) ranges of about `size` characters covering text, consecutive ones sharing
/// `overlap` characters; a range ends at a sentence or line end, or a blank, when one lies in
/// its last quarter. Requires overlap < size.
std::vector<std::pair<std::size_t, std::size_t>> chunk_ranges(std::string_view text, std::size_t size,
                                                              std::size_t overlap);

/// [begin, end) of each sentence: split after '.', '!' or '?' followed by a blank, and at
/// blank lines; surrounding blanks trimmed; empty sentences dropped.
std::vector<std::pair<std::size_t, std::size_t>> sentence_ranges(std::string_view text);

/// Whether a byte belongs to a word: a letter, a digit, or part of a multi-byte UTF-8 character.
bool word_char(char c);

/// The text with Unicode punctuation that separates words in ASCII of the same byte length, so
/// that offsets stay the same: dashes, hyphens and the minus sign (U+2010-U+2015, U+2212) as
/// '-', quotation marks (U+2018-U+201F) as '\'', the no-break and thin spaces (U+00A0,
/// U+2002-U+200A, U+202F) as ' ' ("CDC28–CLN2" is two words, "Swi6p’s" ends a word).
std::string ascii_punctuation(std::string_view text);

/// Whether an alias reads like a name a text would use rather than an identifier: 3 to 60
/// characters, no ':', '_' or '|', no run of 4 digits, not all digits, no '.' next to digits.
bool name_like_alias(std::string_view alias);

/// Whether an annotation type names genes or proteins ("Gene", "GeneOrGeneProduct",
/// "Protein", "Individual_protein", any case): their concept ids (Entrez ids) may be looked up
/// among the aliases; a species' or a disease's numeric id must not be.
bool gene_type(std::string_view annotation_type);

/// Whether a name is written like a gene symbol: up to 5 characters with an upper-case letter.
bool symbol_like(std::string_view name);

/// Whether text as written can mention a name: a symbol-like name is not mentioned by a text
/// written all in lower case ("cat" is not CAT; "Cdc28" and "CDC28" are CDC28) unless it has a
/// letter and a digit and three characters or more ("p53" is P53: no English word), nor, when the
/// name is one word, by several words that do not each begin with a capital or a digit ("IL 2"
/// is IL2, "As a" no ASA); nor is a name written in capitals alone by words apart in small letters
/// ("a beta" is no A-BETA).
bool case_compatible(std::string_view name, std::string_view seen);

/// Finds mentions of a protein by its names, as whole words ignoring case, except that a name
/// of up to 5 characters with an upper-case letter (a gene symbol: "CAT", "CDC28") does not
/// match an occurrence written all in lower case ("cat").
class MentionFinder {
 public:
  explicit MentionFinder(std::vector<std::string> names);
  bool mentioned_in(std::string_view text) const;
  const std::vector<std::string> &names() const { return names_; }

 private:
  std::vector<std::string> names_;
};

/// Where a quote occurs in text, comparing case-insensitively with runs of blanks as one
/// blank and ignoring quotation marks and an ellipsis around the quote; nullopt when it does not.
std::optional<std::size_t> find_quote(std::string_view text, std::string_view quote);

/// Lower-case word stems of a text: words() with common English suffixes removed
/// ("phosphorylates", "phosphorylation" -> "phosphoryl"; "binding", "binds" -> "bind"); stop
/// words dropped.
std::vector<std::string> stems(std::string_view text);

/// Cosine similarity of a text to each of a set of documents (ontology terms), with TF-IDF
/// weights learned from the documents themselves.
class TermSimilarity {
 public:
  explicit TermSimilarity(const std::vector<std::string> &documents);
  std::vector<double> similarity(std::string_view text) const;

 private:
  std::unordered_map<std::string, double> idf_;
  std::vector<std::unordered_map<std::string, double>> docs_;  // normalised TF-IDF vectors
  double default_idf_ = 0;
  std::unordered_map<std::string, double> vector_of(std::string_view text) const;
};

}  // namespace grappi::detail
