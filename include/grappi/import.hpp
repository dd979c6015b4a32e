// grappi/import.hpp — options and reports of the importers (STRING files, OBO ontologies, ...).
#pragma once

#include "grappi/export.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace grappi {

/// STRING file formats. `detect` reads the header (and, where headers coincide, the file name).
enum class StringFormat {
  detect,
  info,               ///< protein.info: #string_protein_id preferred_name protein_size annotation
  aliases,            ///< protein.aliases: #string_protein_id alias source
  links,              ///< protein.links: protein1 protein2 combined_score (0-1000)
  detailed,           ///< protein.links.detailed / .full: channel columns before combined_score
  physical,           ///< protein.physical.links
  physical_detailed,  ///< protein.physical.links.detailed / .full
  actions,            ///< protein.actions: item_id_a item_id_b mode action is_directional a_is_acting score
  web_export,         ///< website export string_interactions.tsv (scores 0-1)
};

/// "info", "aliases", "links", "detailed", "physical", "physical_detailed", "actions",
/// "web_export", "detect".
GRAPPI_CXX_API const char *to_string(StringFormat f) noexcept;
/// Inverse of to_string; also accepts "export" and "physical-detailed". Throws
/// Error(invalid_argument) naming the accepted values.
GRAPPI_CXX_API StringFormat string_format_from_name(std::string_view name);

/// One file to import.
struct ImportSource {
  std::string path;                            ///< plain or gzipped
  StringFormat format = StringFormat::detect;  ///< forced, or detected from the header
};

/// One file for KnowledgeGraph::import, any supported format.
struct SourceFile {
  std::string path;  ///< plain or gzipped
  /// "detect" (from the header), a STRING format name (to_string(StringFormat): "info",
  /// "aliases", "links", "detailed", "physical", "physical_detailed", "actions", "web_export";
  /// also "export"), "obo" (an OBO 1.2/1.4 ontology), "mitab" (PSI-MITAB 2.5/2.6/2.7),
  /// "mapping" (an identifier mapping table; never detected), "famplex" (a directory of
  /// FamPlex's tables, entities.csv, relations.csv, grounding_map.csv, equivalences.csv and
  /// descriptions.csv: protein families and complexes with their members and the names papers
  /// write for them; detected from a directory holding the first two), "edges" (an edge list read as
  /// ImportOptions::edges says; never detected), "jsonl" (grappi's own JSON lines, as
  /// KnowledgeGraph::export_graph writes them), "bel" (a BEL script, detected from its first
  /// SET/DEFINE line; forced, it also reads a BEL JSON graph) or "jgf" (a BEL JSON Graph
  /// Format file such as the Causal Biological Networks'), "cx2" (a CX2 network, or a CX1
  /// one, detected from a leading '['; textToKnowledgeGraph's BEL networks are read as BEL,
  /// grappi's own CX2 export back into the same graph), "corpus" (papers: PubTator, BioC XML or
  /// JSON, the PPI corpora's XML, JSON lines or text, detected from the content; never
  /// detected as a corpus: give it) or "corpus:<format>" (forced: "corpus:pubtator",
  /// "corpus:bioc-xml", ... as to_string(DocumentFormat)). import_formats() lists them.
  std::string format = "detect";
};

/// Every format name KnowledgeGraph::import accepts, "detect" first.
GRAPPI_CXX_API std::vector<std::string> import_formats();

/// How far an import has come (ImportOptions::progress).
struct ImportProgress {
  std::string path;          ///< the file being imported
  uint64_t bytes_read = 0;   ///< bytes of the file on disk consumed so far
  uint64_t bytes_total = 0;  ///< file size on disk
  std::string stage;         ///< "reading", "writing", "done"
};

/// How an edge list (format "edges") is read: which columns hold the two ids, the score and the
/// relation. Columns are named by their header text or by their 1-based number ("1", "2").
struct EdgeListOptions {
  std::string source_column = "1";  ///< the first id's column
  std::string target_column = "2";  ///< the second id's column
  std::string score_column;         ///< empty: no score (every edge scores 1)
  /// Scores are divided by this and must then lie in [0,1] (1000 for STRING's 0-1000 scale).
  double score_scale = 1.0;
  std::string relation_column;      ///< each edge's relation, as written; empty: every edge has `relation`
  /// The relation of every edge without a relation column; empty: "edges." followed by the
  /// file name without its extensions.
  std::string relation;
  bool directed = false;           ///< source -> target edges instead of undirected ones
  std::string label = "Protein";   ///< the label of nodes made for ids that join nothing
  /// Whether the first line is a header; unset: detected (a line starting with '#', naming a
  /// configured column, with a non-number in the score column, or whose two id cells read like
  /// column names: "protein1 protein2", "gene_a gene_b", "source target", "from to").
  std::optional<bool> header;
  /// The field separator: a tab, ',', or ' ' for any run of blanks; 0 detects it from the first
  /// line (a tab, else a comma, else blanks).
  char separator = 0;
};

/// Options of KnowledgeGraph::import_string.
struct ImportOptions {
  /// Keep only links with a combined score >= min_score, on STRING's 0-1000 scale (150 low,
  /// 400 medium, 700 high, 900 highest confidence). Applies to every link-like format.
  int min_score = 0;
  /// Import the good lines and count the bad ones instead of failing the whole import.
  bool skip_bad_lines = false;
  /// How many bad lines to quote in the report when skipping.
  std::size_t max_bad_examples = 5;
  /// Identifier mapping tables and edge lists join only nodes of this NCBI taxon (and nodes
  /// without one); 0 joins any.
  int64_t taxon = 0;
  /// How edge lists (format "edges") are read.
  EdgeListOptions edges;
  /// At most this many lines in one line-based file (STRING, OBO, MITAB, mappings, edge
  /// lists, JSON lines, BEL scripts), or nodes plus edges in one CX2/CX1 network or BEL JSON
  /// graph (counted once the document is read, which is at most 1 GiB); 0: no limit. One more
  /// fails the import with the file named and the database unchanged - a bound on what a
  /// hostile or mistaken input (a gzip bomb) can cost.
  uint64_t max_rows = 0;
  /// Called from the importing thread now and then; may be empty.
  std::function<void(const ImportProgress &)> progress;
};

/// What happened to one file.
struct FileReport {
  std::string path;                            ///< as given
  /// The detected or forced format's name: a STRING format (to_string(format)) or "obo".
  std::string kind;
  StringFormat format = StringFormat::detect;  ///< a STRING file's format; detect for other formats
  std::string string_version;                  ///< e.g. "12.0", from the file name; empty when unknown
  int64_t taxon = 0;                           ///< organism of the file's ids; 0 when mixed or unknown
  int64_t dataset_id = 0;                      ///< the dataset recorded for it
  bool already_imported = false;  ///< identical file with identical options: nothing was added
  uint64_t lines = 0;             ///< data lines read (header excluded)
  uint64_t rows_below_min_score = 0;  ///< links left out by ImportOptions::min_score
  uint64_t rows_skipped = 0;      ///< bad lines skipped (only with skip_bad_lines)
  uint64_t nodes_created = 0;     ///< new nodes
  uint64_t nodes_updated = 0;     ///< existing nodes given a name, annotation or size
  uint64_t edges_created = 0;     ///< new edges
  uint64_t edges_existing = 0;    ///< edges that were already in the database (merged)
  uint64_t aliases_created = 0;   ///< new aliases
  uint64_t score_conflicts = 0;   ///< both directions of a link listed with different scores
  /// Nodes created for identifiers the file refers to but does not define and no stored node
  /// has as its external id (an ontology term's parent from another file, for example), each
  /// named by its id: counted, never dropped. Also included in nodes_created.
  uint64_t referenced_nodes_created = 0;
  /// Counts particular to the format, e.g. OBO: "terms", "obsolete_terms", "typedefs",
  /// "is_a", "relationships", "other_stanzas".
  std::vector<std::pair<std::string, uint64_t>> details;
  std::vector<std::string> bad_line_examples;  ///< "file:line: problem"
  double seconds = 0;                          ///< wall time of this file's import
};

/// What an import did (KnowledgeGraph::import_string).
struct ImportReport {
  std::vector<FileReport> files;  ///< in the order they were applied
  double seconds = 0;             ///< wall time of the whole import
};

}  // namespace grappi
