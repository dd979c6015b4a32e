// Internal: what the document readers share (documents.cpp, documents_xml.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "grappi/documents.hpp"

namespace grappi::detail {

/// 1-based line of a byte offset.
std::size_t line_of(std::string_view text, std::size_t byte);
/// A passage text's character offsets as byte offsets, computed once (a passage with many
/// mentions is not walked again for each).
class CharIndex {
 public:
  explicit CharIndex(std::string_view text);
  /// The byte offset of character `chars` (npos past the end or inside a cut-off character).
  std::size_t byte(std::size_t chars) const;
  /// The number of characters.
  std::size_t chars() const { return chars_; }

 private:
  std::size_t size_ = 0, chars_ = 0;
  bool ascii_ = true;
  std::vector<std::size_t> starts_;  // (not ASCII) the byte after each count of characters, 0..chars_
};

/// Places a mention given by its document offset `start` and `length` (characters, or bytes
/// when only that reading matches the mention's text) in passage p: sets a.offset and a.length
/// relative to the passage, in bytes; false when it does not lie in the passage.
bool place_annotation(const DocumentPassage &p, std::size_t start, std::size_t length, DocumentAnnotation &a);
/// The same with the passage text's index.
bool place_annotation(const DocumentPassage &p, const CharIndex &index, std::size_t start, std::size_t length,
                      DocumentAnnotation &a);
/// Sorts every passage's annotations by offset.
void sort_annotations(Document &d);

/// The ids a BioC document carries in its passages' or its own infons (the first of each).
struct BiocInfons {
  std::string pmid, pmcid, year, doi;
  void take(const std::string &pmid, const std::string &pmcid, const std::string &year, const std::string &doi);
};

/// Whether an XML text's root element (after the declaration, comments and doctype) has this name.
bool xml_root_is(std::string_view head, std::string_view name);
/// BioC XML and the PPI corpora's XML (documents_xml.cpp, with libxml2).
std::vector<Document> parse_bioc_xml(std::string_view content, const std::string &name);
std::vector<Document> parse_ppi_xml(std::string_view content, const std::string &name);
/// JSON lines documents (documents_jsonl.cpp).
std::vector<Document> parse_jsonl_documents(std::string_view content, const std::string &name);

}  // namespace grappi::detail
