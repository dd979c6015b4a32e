// Internal: the lines of grappi's JSON lines datasets (the format KnowledgeGraph::import reads as
// "jsonl"), composed without building a JSON object per line: the co-occurrence graph's file,
// written beside its compact store (millions of edges).
#pragma once

#include <cstdint>
#include <string>
#include <vector>


namespace grappi::detail {

/// A node line of grappi's JSON lines (keys in the order nlohmann::json writes them).
std::string jsonl_node_line(const std::string &external_id, const std::string &name, const std::string &label,
                            const std::string &attributes_json);
/// An edge line, its records each recorded with `line` (its own line number).
std::string jsonl_edge_line(const std::string &source, const std::string &target, const std::string &relation,
                            bool directed, double score, const std::string &evidence_json,
                            const std::vector<std::string> &records_json, uint64_t line);

}  // namespace grappi::detail
