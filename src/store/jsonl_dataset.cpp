// grappi's JSON lines, a line at a time (jsonl_dataset.hpp): composed from the same parts
// nlohmann::json writes an object with (keys in order, no blanks), so that importing the lines
// reads back what the writer meant.
#include "store/jsonl_dataset.hpp"

#include <nlohmann/json.hpp>

#include "grappi/json_text.hpp"

namespace grappi::detail {

namespace {

std::string json_string(std::string_view s) { return dump_json(nlohmann::json(s)); }

}  // namespace

std::string jsonl_node_line(const std::string &external_id, const std::string &name, const std::string &label,
                            const std::string &attributes_json) {
  // (keys in nlohmann's order: attributes, id, label, name, type)
  return "{\"attributes\":" + attributes_json + ",\"id\":" + json_string(external_id) + ",\"label\":" + json_string(label) +
         ",\"name\":" + json_string(name) + ",\"type\":\"node\"}";
}

std::string jsonl_edge_line(const std::string &source, const std::string &target, const std::string &relation,
                            bool directed, double score, const std::string &evidence_json,
                            const std::vector<std::string> &records_json, uint64_t line) {
  std::string text = std::string("{\"directed\":") + (directed ? "true" : "false");
  if (!evidence_json.empty()) text += ",\"evidence\":" + evidence_json;
  if (!records_json.empty()) {
    text += ",\"records\":[";
    for (std::size_t i = 0; i < records_json.size(); ++i)
      text += (i ? ",{\"line\":" : "{\"line\":") + std::to_string(line) + ",\"record\":" + records_json[i] + "}";
    text += "]";
  }
  text += ",\"relation\":" + json_string(relation) + ",\"score\":" + dump_json(nlohmann::json(score)) +
          ",\"source\":" + json_string(source) + ",\"target\":" + json_string(target) + ",\"type\":\"edge\"}";
  return text;
}

}  // namespace grappi::detail
