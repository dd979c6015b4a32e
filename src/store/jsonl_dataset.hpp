// Internal: a grappi JSON lines dataset written and imported in one pass. Each node and edge is
// written to the dataset's file as the line KnowledgeGraph::import reads (format "jsonl") and
// stored through the same ImportWriter that import gives it to, so the database holds what
// importing the file would give - the same rows, evidence texts, records and line numbers, the
// file's size and SHA-256 - without parsing the file back (the co-occurrence graph's import:
// millions of edges). The graph stays locked from construction to finish(); without finish()
// nothing is stored and the file is not written.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "grappi/import.hpp"
#include "grappi/knowledge_graph.hpp"

namespace grappi::detail {

class JsonlDatasetWriter {
 public:
  /// Starts the dataset whose file is `path` (written beside it as "<path>.part", renamed at
  /// finish()). Error(invalid_argument) on a read-only database, Error(io) when the file cannot
  /// be created.
  JsonlDatasetWriter(KnowledgeGraph &kg, const std::string &path);
  ~JsonlDatasetWriter();
  JsonlDatasetWriter(const JsonlDatasetWriter &) = delete;
  JsonlDatasetWriter &operator=(const JsonlDatasetWriter &) = delete;

  /// A node line: defines the node (external id, name, label, attributes as a JSON object's
  /// text; no annotation, size or aliases).
  void node(const std::string &external_id, const std::string &name, const std::string &label,
            const std::string &attributes_json);
  /// An edge line between two external ids (a node the file does not define joins an existing
  /// node or becomes a new one, as import does), its evidence (a JSON object's text, or empty)
  /// and one evidence record per entry (JSON objects' texts), each recorded with this line's
  /// number.
  void edge(const std::string &source, const std::string &target, const std::string &relation, bool directed,
            double score, const std::string &evidence_json, const std::vector<std::string> &records_json);
  /// Writes the file in place and commits: the report import would give (already_imported when
  /// the same bytes were imported before).
  FileReport finish();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace grappi::detail
