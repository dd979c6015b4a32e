// What every CX2 writer shares (cx2.hpp): the document frame and a default style.
#include "formats/cx2.hpp"

namespace grappi::detail {

using nlohmann::json;

json cx2_document(const json &declarations, const json &network_attributes, json nodes, json edges, const json &style,
                  const json &node_bypasses) {
  json meta = json::array({{{"name", "attributeDeclarations"}, {"elementCount", 1}},
                           {{"name", "networkAttributes"}, {"elementCount", 1}},
                           {{"name", "nodes"}, {"elementCount", nodes.size()}},
                           {{"name", "edges"}, {"elementCount", edges.size()}},
                           {{"name", "visualProperties"}, {"elementCount", 1}}});
  if (!node_bypasses.empty()) meta.push_back({{"name", "nodeBypasses"}, {"elementCount", node_bypasses.size()}});
  json doc = json::array();
  doc.push_back({{"CXVersion", "2.0"}, {"hasFragments", false}});
  doc.push_back({{"metaData", std::move(meta)}});
  doc.push_back({{"attributeDeclarations", json::array({declarations})}});
  doc.push_back({{"networkAttributes", json::array({network_attributes})}});
  doc.push_back({{"nodes", std::move(nodes)}});
  doc.push_back({{"edges", std::move(edges)}});
  doc.push_back({{"visualProperties", json::array({style})}});
  if (!node_bypasses.empty()) doc.push_back({{"nodeBypasses", node_bypasses}});
  doc.push_back({{"status", json::array({{{"error", ""}, {"success", true}}})}});
  return doc;
}

json cx2_default_style(const std::string &tooltip_attribute) {
  json edge_mapping = {
      {"EDGE_WIDTH",
       {{"type", "CONTINUOUS"},
        {"definition",
         {{"attribute", "score"},
          {"map", json::array({{{"includeMin", false}, {"includeMax", false}, {"max", 0.15}, {"maxVPValue", 1.0}},
                               {{"includeMin", true},
                                {"includeMax", true},
                                {"min", 0.15},
                                {"max", 1.0},
                                {"minVPValue", 1.0},
                                {"maxVPValue", 8.0}},
                               {{"includeMin", false}, {"includeMax", false}, {"min", 1.0}, {"minVPValue", 8.0}}})}}}}}};
  if (!tooltip_attribute.empty())
    edge_mapping["EDGE_TOOLTIP"] = {{"type", "PASSTHROUGH"}, {"definition", {{"attribute", tooltip_attribute}}}};
  return {{"default",
           {{"network", {{"NETWORK_BACKGROUND_COLOR", "#FFFFFF"}}},
            {"node",
             {{"NODE_SHAPE", "ellipse"},
              {"NODE_BACKGROUND_COLOR", "#89D0F5"},
              {"NODE_WIDTH", 40.0},
              {"NODE_HEIGHT", 40.0},
              {"NODE_LABEL_FONT_SIZE", 12}}},
            {"edge",
             {{"EDGE_LINE_COLOR", "#848484"},
              {"EDGE_WIDTH", 2.0},
              {"EDGE_TARGET_ARROW_SHAPE", "none"},
              {"EDGE_OPACITY", 1.0}}}}},
          {"nodeMapping", {{"NODE_LABEL", {{"type", "PASSTHROUGH"}, {"definition", {{"attribute", "name"}}}}}}},
          {"edgeMapping", std::move(edge_mapping)}};
}

}  // namespace grappi::detail
