// grappi/documents.hpp — papers as the literature agents read them: plain text and Markdown,
// PubTator, BioC XML and JSON, and the PPI-extraction corpora's XML, each as documents of
// passages with their entity annotations and their PubMed id.
#pragma once

#include "grappi/export.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace grappi {

/// An entity mention in a passage.
struct DocumentAnnotation {
  std::size_t offset = 0;  ///< where it starts, in bytes from the start of the passage's text
  std::size_t length = 0;  ///< its length in bytes
  std::string text;        ///< the mention as written
  std::string type;        ///< "Gene", "GeneOrGeneProduct", "Disease", "Individual_protein", ...
  std::string id;          ///< the concept id when the source gives one ("6331", "MESH:D008133"); may be empty
};

/// A passage: a title, an abstract, a paragraph, a sentence.
struct DocumentPassage {
  std::string type;         ///< "title", "abstract", "paragraph", "sentence", a BioC section type ("INTRO", "REF", ...)
  std::size_t offset = 0;   ///< its offset in the document as the source numbers it
  std::string text;         ///< its text
  std::vector<DocumentAnnotation> annotations;  ///< the mentions in it, by offset
};

/// A pair of mentions the source says interact (the PPI corpora's positive pairs).
struct DocumentPair {
  std::size_t passage = 0;  ///< the passage (sentence) the two mentions are in
  std::size_t a = 0;        ///< index of the first mention in that passage's annotations
  std::size_t b = 0;        ///< index of the second
};

/// A document of a corpus.
struct GRAPPI_CXX_API Document {
  std::string id;     ///< the source's document id
  std::string pmid;   ///< the PubMed id, when known
  std::string pmcid;  ///< the PubMed Central id, when known
  std::string doi;    ///< the DOI, when known (BioC's article-id_doi infon)
  std::string year;   ///< the publication year, when known
  std::vector<DocumentPassage> passages;  ///< in order
  std::vector<DocumentPair> pairs;        ///< interacting pairs the source marks (PPI corpora)
  /// The passages' texts joined by blank lines.
  std::string text() const;
};

/// The formats read_documents knows.
enum class DocumentFormat {
  /// From the content (and a ".md"/".txt" name for text). A file that is not papers — a STRING,
  /// PSI-MITAB or OBO file by its header, or a table (five or more lines of the same three or
  /// more tab-separated fields) — is refused with Error(invalid_argument) naming what it looks
  /// like; `text` reads it as text anyway.
  detect,
  text,       ///< plain text or Markdown: paragraphs split on blank lines, a heading starts a section
  pubtator,   ///< PubTator: "PMID|t|title", "PMID|a|abstract", tab-separated annotation lines
  bioc_xml,   ///< BioC XML (a <collection> of <document>s of <passage>s with <annotation>s)
  bioc_json,  ///< BioC JSON ({"documents": [{"id", "passages": [...]}]})
  ppi_xml,    ///< the PPI corpora's XML (<corpus> of <document origId=PMID> of <sentence> with <entity> and <interaction>)
  /// JSON lines, one document per line: {"pmid", "year", "title", "text", "concepts"} (and
  /// optionally "id", "pmcid", "doi"). A concept is an id ("MESH:D008133") or an object
  /// {"id", "type", "text" (or "name"), "offset", "length"}; offsets count characters from the
  /// start of the title, the text starting one character after it (PubTator's numbering). A
  /// concept without offsets is placed wherever its text is written (whole words, any ASCII
  /// case); one written nowhere, or given without text, is a mention of the document with no
  /// place (length 0): it counts for its document, not for a sentence.
  jsonl
};

/// The concepts an annotation's id names, by the conventions of PubTator and BioC: a composite
/// id (PubTator's "D014786|D034381" for "vision and hearing loss", BioRED's "6331,6332",
/// GNormPlus' "6331;6332") is each of its parts, trimmed, without GNormPlus' species suffix
/// ("26972(Tax:10090)" is 26972); "-1", "-" and empty parts name no concept (PubTator's mark of
/// a mention it could not normalise: the mention stays text). A variant's or mutation's id
/// (`type` "SequenceVariant", "ProteinMutation", ...) keeps its '|' (tmVar's "p|SUB|V|173|L" is
/// one id), and PubTator 3's variant normalisation ("tmVar:p|SUB|V|600|E;HGVS:p.V600E;
/// VariantGroup:0;...") is its first part. Every reader's annotations go through it where
/// concepts are counted or grounded.
GRAPPI_CXX_API std::vector<std::string> concept_ids(std::string_view id, std::string_view type = {});

/// A paper of the knowledge base found by KnowledgeGraph::search_papers.
struct PaperHit {
  int64_t document = 0;  ///< its row in the database
  int64_t dataset = 0;   ///< the corpus dataset it came with
  std::string key;       ///< its PubMed id, else the source's document id
  std::string pmid;      ///< its PubMed id (may be empty)
  std::string doi;       ///< its DOI (may be empty)
  int year = 0;          ///< its publication year (0: unknown)
  std::string title;     ///< its title (the first title passage; may be empty)
  /// The best-matching passage's words around the match, the matched words in [brackets].
  std::string snippet;
  std::string passage;   ///< the best-matching passage's whole text
  double score = 0;      ///< relevance (FTS5's BM25, negated: higher is better)
};

/// "detect", "text", "pubtator", "bioc-xml", "bioc-json", "ppi-xml", "jsonl".
GRAPPI_CXX_API const char *to_string(DocumentFormat format) noexcept;
/// Inverse of to_string; Error(invalid_argument) listing the names otherwise.
GRAPPI_CXX_API DocumentFormat document_format(std::string_view name);

/// The documents of a file (plain or gzipped). A text file is one document whose PubMed id is
/// taken from its name when the name holds "PMID<digits>" or starts with digits; Markdown
/// sections headed References, Bibliography, Acknowledg(e)ments, Funding or Conflicts of
/// interest are dropped. Error(parse) naming the file and line (or byte) for malformed
/// input, Error(io) when it cannot be read.
GRAPPI_CXX_API std::vector<Document> read_documents(const std::string &path, DocumentFormat format = DocumentFormat::detect);

/// The same for text in memory; `name` is used in messages and for a text's PubMed id.
GRAPPI_CXX_API std::vector<Document> parse_documents(std::string_view content, DocumentFormat format,
                                                     const std::string &name);

/// Calls `fn` with each document of a file in turn (plain or gzipped): PubTator and JSON lines
/// are read a document at a time, so a corpus of any size is read in bounded memory; the other
/// formats are read whole first. Errors as read_documents (the file's own line numbers). Returns
/// the documents read; `sha256` (when given) receives the SHA-256 of the file's bytes on disk.
GRAPPI_CXX_API std::size_t for_each_document(const std::string &path, DocumentFormat format,
                                             const std::function<void(Document &&)> &fn, std::string *sha256 = nullptr);

}  // namespace grappi
