// The CX2 writer of KnowledgeGraph::export_graph (grappi/graph_export.hpp). Written as a
// stream: descriptor, declarations, network attributes, nodes, then the edges one at a time
// (the graph may have millions), the style, a closing metaData with the counts and the status.
// What Cytoscape shows is in typed columns; what a lossless re-import needs (attributes, the
// evidence object, the evidence records) is beside it as JSON text.
#include <map>
#include <set>
#include <unordered_map>

#include "formats/cx2.hpp"
#include "store/export_rows.hpp"
#include "grappi/version.h"
#include "grappi/json_text.hpp"

namespace grappi::detail {

namespace {

using nlohmann::json;

// The column type two values share: integer and long widen to long, numbers to double.
std::string common_type(const std::string &a, const std::string &b) {
  if (a == b) return a;
  const bool la = a.rfind("list_of_", 0) == 0, lb = b.rfind("list_of_", 0) == 0;
  if (la != lb) return {};
  const std::string x = la ? a.substr(8) : a, y = lb ? b.substr(8) : b;
  static const std::set<std::string> numbers = {"integer", "long", "double"};
  if (!numbers.count(x) || !numbers.count(y)) return {};
  const std::string t = (x == "double" || y == "double") ? "double" : "long";
  return la ? "list_of_" + t : t;
}

// Node columns grappi writes itself; a node attribute of one of these names stays in
// grappi_attributes only.
const std::set<std::string> &reserved_node_columns() {
  static const std::set<std::string> r = {"name",  "represents", "type",         "annotation",        "taxon",
                                          "size",  "alias",      "alias_source", "grappi_attributes", "cx2_position"};
  return r;
}

// A value widened to the column's type (an integer in a double column stays exact as a double).
json as_column(const json &v, const std::string &type) {
  if (type == "double" && v.is_number()) return v.get<double>();
  if (type == "list_of_double" && v.is_array()) {
    json out = json::array();
    for (const auto &x : v) out.push_back(x.get<double>());
    return out;
  }
  return v;
}

}  // namespace

void write_cx2(std::ostream &out, Db &db, const std::vector<NodeRow> &nodes, EdgeCursor &edges, ExportReport &rep) {
  // Node attributes: parsed once; a column for every name whose values agree on a type.
  std::vector<json> attrs(nodes.size());
  std::map<std::string, std::string> columns;
  std::set<std::string> mixed;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    attrs[i] = json::parse(nodes[i].attributes, nullptr, false);
    if (!attrs[i].is_object()) attrs[i] = json::object();
    for (const auto &[key, value] : attrs[i].items()) {
      if (reserved_node_columns().count(key) || mixed.count(key) || key.rfind("grappi_", 0) == 0) continue;
      const std::string t = cx2_type_of(value);
      auto it = columns.find(key);
      const std::string joined = t.empty() ? t : it == columns.end() ? t : common_type(it->second, t);
      if (joined.empty()) {
        mixed.insert(key);
        columns.erase(key);
      } else {
        columns[key] = joined;
      }
    }
  }
  // STRING channels become edge columns channel_<name>.
  std::set<std::string> channels;
  {
    Stmt st(db, "SELECT DISTINCT j.key FROM edges e, json_each(e.channels) j "
                "WHERE e.channels IS NOT NULL AND json_valid(e.channels) AND json_type(e.channels) = 'object'");
    while (st.step()) channels.insert(st.col_text(0));
  }
  json node_decl = {{"name", {{"d", "string"}}},
                    {"represents", {{"d", "string"}}},
                    {"type", {{"d", "string"}}},
                    {"annotation", {{"d", "string"}}},
                    {"taxon", {{"d", "long"}}},
                    {"size", {{"d", "long"}}},
                    {"alias", {{"d", "list_of_string"}}},
                    {"alias_source", {{"d", "list_of_string"}}},
                    {"grappi_attributes", {{"d", "string"}}}};
  for (const auto &[name, type] : columns) node_decl[name] = {{"d", type}};
  json edge_decl = {{"interaction", {{"d", "string"}}},  {"score", {{"d", "double"}}},
                    {"directed", {{"d", "boolean"}}},     {"pmids", {{"d", "list_of_string"}}},
                    {"evidence", {{"d", "string"}}},      {"grappi_evidence", {{"d", "string"}}},
                    {"grappi_records", {{"d", "string"}}}};
  for (const auto &c : channels) edge_decl["channel_" + c] = {{"d", "double"}};
  const json decl = {{"networkAttributes",
                      {{"name", {{"d", "string"}}},
                       {"description", {{"d", "string"}}},
                       {"version", {{"d", "string"}}},
                       {"generator", {{"d", "string"}}}}},
                     {"nodes", node_decl},
                     {"edges", edge_decl}};
  const json network = {{"name", "grappi knowledge graph"},
                        {"description", "Nodes and edges exported from a grappi knowledge base (external ids in "
                                        "'represents', relations in 'interaction')."},
                        {"version", "1.0"},
                        {"generator", std::string("grappi ") + GRAPPI_VERSION_STRING}};
  out << "[{\"CXVersion\":\"2.0\",\"hasFragments\":false},\n"
      << dump_json(json{{"attributeDeclarations", json::array({decl})}}) << ",\n"
      << dump_json(json{{"networkAttributes", json::array({network})}}) << ",\n{\"nodes\":[";
  std::unordered_map<std::string, int64_t> cx_id;
  Stmt aliases(db, "SELECT alias, source FROM aliases WHERE node_id = ? ORDER BY alias, source");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const NodeRow &n = nodes[i];
    cx_id.emplace(n.external_id, static_cast<int64_t>(i));
    json v = {{"name", n.name}, {"represents", n.external_id}, {"type", n.label}};
    if (!n.annotation.empty()) v["annotation"] = n.annotation;
    if (n.taxon != 0) v["taxon"] = n.taxon;
    if (n.size != 0) v["size"] = n.size;
    json alias = json::array(), source = json::array();
    aliases.reset();
    aliases.bind(1, n.id);
    while (aliases.step()) {
      alias.push_back(aliases.col_text(0));
      source.push_back(aliases.col_text(1));
    }
    aliases.reset();
    if (!alias.empty()) {
      v["alias"] = std::move(alias);
      v["alias_source"] = std::move(source);
    }
    for (const auto &[key, value] : attrs[i].items())
      if (auto c = columns.find(key); c != columns.end()) v[key] = as_column(value, c->second);
    if (!attrs[i].empty()) v["grappi_attributes"] = dump_json(attrs[i]);
    json node = {{"id", static_cast<int64_t>(i)}, {"v", std::move(v)}};
    if (const auto p = attrs[i].find("cx2_position"); p != attrs[i].end() && p->is_array() && p->size() >= 2) {
      static const char *axes[] = {"x", "y", "z"};
      for (std::size_t k = 0; k < p->size() && k < 3; ++k)
        if ((*p)[k].is_number()) node[axes[k]] = (*p)[k];
    }
    out << (i ? ",\n" : "\n") << dump_json(node);
    ++rep.nodes;
  }
  out << "]},\n{\"edges\":[";
  EdgeRow e;
  while (edges.next(e)) {
    json v = {{"interaction", e.relation}, {"score", e.score}, {"directed", e.directed}};
    const json evidence = e.evidence.empty() ? json::object() : json::parse(e.evidence, nullptr, false);
    json records = edges.records(e.id);
    // PubMed ids: the edge's own, then its records' (as the TSV export lists them).
    std::vector<int64_t> pmids = pmids_of(evidence);
    std::set<int64_t> seen(pmids.begin(), pmids.end());
    std::string sentence;
    for (const auto &r : records) {
      for (int64_t p : pmids_of(r["record"]))
        if (seen.insert(p).second) pmids.push_back(p);
      if (sentence.empty() && r["record"].is_object() && r["record"].contains("evidence") &&
          r["record"]["evidence"].is_string())
        sentence = r["record"]["evidence"].get<std::string>();
    }
    if (!pmids.empty()) {
      json p = json::array();
      for (int64_t x : pmids) p.push_back("pubmed:" + std::to_string(x));
      v["pmids"] = std::move(p);
    }
    if (!sentence.empty()) v["evidence"] = sentence;
    if (!e.channels.empty()) {
      const json ch = json::parse(e.channels, nullptr, false);
      if (ch.is_object())
        for (const auto &[name, score] : ch.items())
          if (score.is_number()) v["channel_" + name] = score;  // as stored (0 stays 0)
    }
    if (!e.evidence.empty()) v["grappi_evidence"] = e.evidence;  // as stored, "{}" included
    if (!records.empty()) v["grappi_records"] = dump_json(records);
    const json edge = {{"id", static_cast<int64_t>(rep.edges)},
                       {"s", cx_id.at(e.source)},
                       {"t", cx_id.at(e.target)},
                       {"v", std::move(v)}};
    out << (rep.edges ? ",\n" : "\n") << dump_json(edge);
    ++rep.edges;
    rep.records += records.size();
  }
  const json meta = json::array({{{"name", "attributeDeclarations"}, {"elementCount", 1}},
                                 {{"name", "networkAttributes"}, {"elementCount", 1}},
                                 {{"name", "nodes"}, {"elementCount", rep.nodes}},
                                 {{"name", "edges"}, {"elementCount", rep.edges}},
                                 {{"name", "visualProperties"}, {"elementCount", 1}}});
  out << "]},\n"
      << dump_json(json{{"visualProperties", json::array({cx2_default_style("evidence")})}}) << ",\n"
      << dump_json(json{{"metaData", meta}}) << ",\n"
      << dump_json(json{{"status", json::array({{{"error", ""}, {"success", true}}})}}) << "]\n";
}

}  // namespace grappi::detail
