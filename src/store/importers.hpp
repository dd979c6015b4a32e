// Internal: the importers KnowledgeGraph::import dispatches to, one file each. Each runs
// inside the caller's transaction, with the graph's lock held.
#pragma once

#include <string>
#include <vector>

#include "store/graph_impl.hpp"
#include "grappi/import.hpp"

namespace grappi::detail {

/// Refuses an input that is not a regular file (a pipe, a FIFO, a device): an import reads each
/// input twice (its format is detected first) and records its size and SHA-256, which a stream
/// cannot give - it would be cut short silently, or hang. Error(invalid_argument) naming it;
/// a missing file is left to the reader's own error.
void require_regular_file(const std::string &path);

/// Checks every value of ImportOptions before any file is read (import.cpp): min_score on
/// STRING's 0-1000 scale, a non-negative taxon, the edge-list reader's score scale (positive,
/// finite), separator (tab, ',', ' ' or 0) and label (not empty), whatever formats the import
/// holds. Error(invalid_argument) naming the option and its value.
void check_import_options(const ImportOptions &options);

/// STRING files (import_string.cpp): format detection, dependency order, its own savepoint
/// (the options already checked by the caller, KnowledgeGraph::import or import_string).
ImportReport import_string_files(KnowledgeGraph::Impl &impl, const std::vector<ImportSource> &sources,
                                 const ImportOptions &options);
/// An OBO ontology (import_obo.cpp).
FileReport import_obo_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options);
/// FamPlex's tables from a directory (import_famplex.cpp): families and complexes with their
/// members, the texts papers write for them and for single proteins.
FileReport import_famplex_dir(KnowledgeGraph::Impl &impl, const std::string &dir, const ImportOptions &options);
/// A PSI-MITAB 2.5/2.6/2.7 file (import_mitab.cpp).
FileReport import_mitab_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options);
/// An identifier mapping table (import_mapping.cpp).
FileReport import_mapping_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options);
/// STRING's functional annotations (import_annotations.cpp): the website's export or the
/// genome-wide enrichment terms; and whether a first line is either's header.
FileReport import_annotations_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options);
bool looks_like_string_annotations(std::string_view first_line);
/// grappi's JSON lines (import_jsonl.cpp), and whether a first line is its header.
FileReport import_jsonl_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options);
bool looks_like_jsonl(std::string_view first_line);
/// A BEL script (import_bel.cpp), and whether a first line (after '#' comments) starts one.
FileReport import_bel_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options);
bool looks_like_bel(std::string_view first_line);
/// A BEL JSON Graph Format file (import_bel.cpp), and whether a first line may start one.
FileReport import_jgf_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options);
bool looks_like_jgf(std::string_view first_line);
/// A CX2 or CX1 network (import_cx2.cpp); cx2.hpp's looks_like_cx detects one.
FileReport import_cx2_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options);
/// An edge list read as options.edges says (import_edges.cpp).
FileReport import_edge_list_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options);
/// Papers (a corpus in any document format) as a dataset of documents, passages and
/// annotations with their full-text index (import_documents.cpp).
FileReport import_documents_file(KnowledgeGraph::Impl &impl, const std::string &path, DocumentFormat format,
                                 const ImportOptions &options);

}  // namespace grappi::detail
