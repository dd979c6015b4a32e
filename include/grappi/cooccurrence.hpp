// grappi/cooccurrence.hpp — literature co-occurrence graphs (after HGCR, Tyagin et al.): the
// concepts annotated in (or grounded by the dictionary in) a corpus, an undirected edge between
// two concepts that appear in the same document (or sentence), weighted by the number of
// shared documents, with their PubMed ids and years and association weights (NPMI, Jaccard);
// built with sparse matrices and stored in the knowledge base as a removable dataset.
#pragma once

#include "grappi/export.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/documents.hpp"
#include "grappi/entities.hpp"
#include "grappi/import.hpp"
#include "grappi/knowledge_graph.hpp"

namespace grappi {

/// How a co-occurrence graph is built.
struct CoocOptions {
  /// The unit two concepts co-occur in.
  enum class Scope { document, sentence };
  Scope scope = Scope::document;  ///< documents (the reference) or sentences
  /// Titles: "include" (the reference's default; a title is a sentence of its own), "only"
  /// (titles alone) or "exclude".
  std::string titles = "include";
  /// Concept types kept ("Gene", "Disease", "Chemical", ...; any case); empty: every type.
  std::vector<std::string> types;
  std::size_t min_count = 1;  ///< edges shared by fewer units are left out
  /// Only documents published before this year (their year known); documents without a year
  /// are left out and counted. Unset: every document.
  std::optional<int> as_of;
  /// A document without annotations goes through the dictionary tagger when the graph is built
  /// with one; true also adds the dictionary's mentions to annotated documents.
  bool dictionary = false;
  /// Memory for the pairs of concepts met, in MiB: beyond it they are sorted and spilled to
  /// temporary files in `work_dir`, merged at the end (an external sort: any corpus in bounded
  /// memory). 0: no limit.
  std::size_t memory_mib = 512;
  std::string work_dir;  ///< where spilled pairs go (default: the system's temporary directory)
};

/// A concept of the graph.
struct CoocConcept {
  /// Its external id: the knowledge base's node when the concept joins one (a gene's Entrez id
  /// found among a protein's aliases, a dictionary mention), else the annotation's id with a
  /// prefix: its own, or "NCBIGene:" (genes), "NCBITaxon:" (species), "MESH:" (PubTator's bare
  /// MeSH ids, D/C and digits), "dbSNP:" (rs ids), else the type ("SequenceVariant:p|SUB|V|1763|M").
  std::string id;
  std::string name;       ///< the mention written most often (the node's name when joined)
  std::string type;       ///< the annotation's type ("Gene", "Disease"), or the node's label
  std::size_t units = 0;  ///< documents (or sentences) it appears in
  int64_t node = 0;       ///< the knowledge base node it joins (0: none)
};

/// An edge: two concepts co-occurring.
struct CoocEdge {
  uint32_t a = 0;            ///< the first concept's index (a < b)
  uint32_t b = 0;            ///< the second concept's index
  std::size_t count = 0;     ///< units shared
  double npmi = 0;           ///< normalised pointwise mutual information over units, in [-1, 1]
  double jaccard = 0;        ///< count / (units of a + units of b - count)
  /// The documents behind it: indices into CoocGraph::pmids (and years), in PubMed id order.
  std::vector<uint32_t> documents;
};

/// A co-occurrence graph.
struct GRAPPI_CXX_API CoocGraph {
  /// The documents used, one per PubMed id (else document id), sorted: what CoocEdge::documents
  /// index.
  std::vector<std::string> pmids;
  std::vector<int> years;  ///< their publication years (0 when unknown), in the order of pmids
  std::vector<CoocConcept> concepts;  ///< by first appearance
  std::vector<CoocEdge> edges;        ///< by (a, b)
  std::size_t documents = 0;          ///< documents used
  std::size_t units = 0;              ///< units counted (documents or sentences with a concept)
  std::size_t undated = 0;            ///< documents left out by as_of for want of a year
  std::size_t later = 0;              ///< documents left out by as_of (published that year or later)
  std::size_t mentions = 0;           ///< mentions counted
  /// Annotations that name no concept (no id, PubTator's "-1": concept_ids), not counted; the
  /// mentions stay text.
  std::size_t unidentified = 0;
  std::size_t composite = 0;          ///< annotations naming several concepts ("D014786|D034381"), each counted
  CoocOptions options;                ///< how it was built
  /// An edge's PubMed ids (else document ids), in order.
  std::vector<std::string> pmids_of(const CoocEdge &edge) const;
};

/// What CoocBuilder::add_file counted of one file.
struct CoocFileCount {
  std::string path;        ///< the file, as given
  uint64_t bytes = 0;      ///< its size on disk
  std::size_t documents = 0;  ///< documents counted (as documents() counts them: not those as_of leaves out)
};

/// Builds a co-occurrence graph from documents given one at a time (streamed: a document's
/// text is not kept, only its key, year and the pairs of concepts it holds), in bounded memory
/// (CoocOptions::memory_mib). Builders of disjoint parts of a corpus merge into the builder of
/// the whole (the same graph as one builder given every document): partial counts for builds
/// spread over processes or machines.
class GRAPPI_CXX_API CoocBuilder {
 public:
  /// Error(invalid_argument) for a bad `titles` value. The tagger (optional) must outlive the builder.
  explicit CoocBuilder(const CoocOptions &options = {}, const EntityTagger *tagger = nullptr);
  ~CoocBuilder();
  CoocBuilder(CoocBuilder &&) noexcept;             ///< moves the counts (and the runs on disk)
  CoocBuilder &operator=(CoocBuilder &&) noexcept;  ///< moves the counts (and the runs on disk)
  CoocBuilder(const CoocBuilder &) = delete;
  CoocBuilder &operator=(const CoocBuilder &) = delete;
  /// Counts one document.
  void add(const Document &document);
  /// Counts every document of a file (PubTator, BioC, JSON lines, text; plain or gzipped),
  /// streamed a document at a time. Error(io) when it cannot be read, Error(parse) for a
  /// malformed one (naming the file and line).
  CoocFileCount add_file(const std::string &path, DocumentFormat format = DocumentFormat::detect);
  /// Takes in another builder's counts (built with the same options from other documents).
  /// Error(invalid_argument) when its options differ.
  void merge(CoocBuilder &&other);
  /// Writes the counts to a partial-count file (docs/distributed.md "Partial counts"): the
  /// options, concepts, documents (keys and years) and figures in a JSON header line, then the
  /// sorted pairs, binary. `provenance` is a JSON object's text recorded with them (where the
  /// documents came from, by whom); empty: none. Written whole or not at all; the builder is
  /// empty afterwards. Error(io) when the file cannot be written, Error(invalid_argument) for
  /// provenance that is not a JSON object.
  void save(const std::string &path, const std::string &provenance = "");
  /// Takes in the counts of a partial-count file written by save() (builders merge in the order
  /// their files are given: the graph equals one builder given every document in that order).
  /// Returns the file's provenance (a JSON object's text). Error(parse) for a file that is not
  /// a partial-count file, or a damaged one (truncated, a pair out of order or out of range),
  /// naming it, with this builder unchanged; Error(invalid_argument) when it was built with other
  /// options; Error(io) when it cannot be read.
  std::string merge_file(const std::string &path);
  /// The options a partial-count file was built with (memory_mib and work_dir, which do not
  /// change the graph: the defaults): a merge's builder is made with them. Errors as merge_file.
  static CoocOptions partial_options(const std::string &path);
  /// Documents added (merged ones included).
  std::size_t documents() const;
  /// The graph; the builder is empty afterwards.
  CoocGraph finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Builds the graph (a CoocBuilder given every document). With a tagger, concepts join the
/// knowledge base's nodes (annotation ids looked up among the aliases; dictionary mentions
/// when options.dictionary); without one, concepts are the annotations' ids.
/// Error(invalid_argument) for a bad `titles` value.
GRAPPI_CXX_API CoocGraph build_cooccurrence(const std::vector<Document> &documents, const CoocOptions &options = {},
                                            const EntityTagger *tagger = nullptr);

/// Where `grappi cooc build --keep-dataset` writes a graph's JSON lines file: next to the
/// database, named by what the graph holds ("<database>.cooc-<hash>.jsonl").
GRAPPI_CXX_API std::string cooccurrence_dataset_path(const std::string &database, const CoocGraph &graph);

/// The relation of a graph's edges: "cooc.document" or "cooc.sentence".
GRAPPI_CXX_API std::string cooccurrence_relation(const CoocOptions &options);

/// Stores the graph as one dataset (format "cooc"): concept nodes (joined to the nodes they
/// join), undirected edges of cooccurrence_relation() with score max(0, NPMI), the PubMed ids
/// (Edge::pmids), a text ("co-occur in 3 document(s), NPMI 0.412") and one evidence record
/// {count, npmi, jaccard, pmids, years (0: unknown), documents (ids of documents without a PubMed
/// id, when any), unit_counts ([[concept id, units], ...] of its two concepts), units_total}, line
/// 0. Stored compactly (docs/literature.md "Storage"): the text, ids and record are computed when
/// read. With a `path`, the dataset's grappi JSON lines file is written there too (whole or not
/// at all; importing it gives the same edges and evidence); empty: no file. Removable with
/// remove_dataset; a graph built alike is stored once (already_imported). Error(invalid_argument)
/// for a graph without edges, Error(io) when the file cannot be written (nothing stored).
GRAPPI_CXX_API FileReport import_cooccurrence(KnowledgeGraph &kg, const CoocGraph &graph, const std::string &path = "");

/// The graph's figures and its strongest edges as JSON (docs/literature.md "Co-occurrence").
GRAPPI_CXX_API nlohmann::json to_json(const CoocGraph &graph, std::size_t top_edges = 20);

}  // namespace grappi
