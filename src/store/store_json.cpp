// The JSON form of the store's types (grappi/store_json.hpp).
#include "grappi/store_json.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace grappi {

using nlohmann::json;

// Types whose JSON is exactly their fields.
NLOHMANN_JSON_SERIALIZE_ENUM(StringFormat, {{StringFormat::detect, "detect"},
                                            {StringFormat::info, "info"},
                                            {StringFormat::aliases, "aliases"},
                                            {StringFormat::links, "links"},
                                            {StringFormat::detailed, "detailed"},
                                            {StringFormat::physical, "physical"},
                                            {StringFormat::physical_detailed, "physical_detailed"},
                                            {StringFormat::actions, "actions"},
                                            {StringFormat::web_export, "web_export"}})
// "format" is the format's name whatever the kind of file; "details" an object.
void to_json(json &j, const FileReport &r) {
  json details = json::object();
  for (const auto &[k, v] : r.details) details[k] = v;
  j = json{{"path", r.path},
           {"format", r.kind.empty() ? json(r.format) : json(r.kind)},
           {"string_version", r.string_version},
           {"taxon", r.taxon},
           {"dataset_id", r.dataset_id},
           {"already_imported", r.already_imported},
           {"lines", r.lines},
           {"rows_below_min_score", r.rows_below_min_score},
           {"rows_skipped", r.rows_skipped},
           {"nodes_created", r.nodes_created},
           {"nodes_updated", r.nodes_updated},
           {"referenced_nodes_created", r.referenced_nodes_created},
           {"edges_created", r.edges_created},
           {"edges_existing", r.edges_existing},
           {"aliases_created", r.aliases_created},
           {"score_conflicts", r.score_conflicts},
           {"details", details},
           {"bad_line_examples", r.bad_line_examples},
           {"seconds", r.seconds}};
}
void to_json(json &j, const ImportReport &r) { j = json{{"files", r.files}, {"seconds", r.seconds}}; }
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ResolveCandidate, id, external_id, name, matched_by)

namespace {

json parse_or_string(const std::string &s) {
  auto j = json::parse(s, nullptr, false);
  return j.is_discarded() ? json(s) : j;
}

const char *direction_name(Direction d) {
  switch (d) {
    case Direction::outgoing: return "out";
    case Direction::incoming: return "in";
    case Direction::undirected: break;
  }
  return "undirected";
}

}  // namespace

// ---- the store -------------------------------------------------------------------------------

json to_json(const Node &n) {
  return json{{"id", n.id},
              {"external_id", n.external_id},
              {"name", n.name},
              {"label", n.label},
              {"annotation", n.annotation},
              {"size", n.size},
              {"taxon", n.taxon},
              {"attributes", parse_or_string(n.attributes.empty() ? "{}" : n.attributes)}};
}

json to_json(const Edge &e) {
  json ch = json::object();
  for (auto &c : e.channels) ch[c.name] = c.score;
  json records = json::array();
  for (const auto &r : e.records)
    records.push_back(json{{"dataset_id", r.dataset_id}, {"line", r.line}, {"record", parse_or_string(r.record)},
                           {"raw", r.raw}});
  return json{{"id", e.id},         {"source", e.source},   {"target", e.target},
              {"relation", e.relation}, {"directed", e.directed}, {"score", e.score},
              {"channels", ch},     {"pmids", e.pmids},     {"evidence", e.evidence},
              {"dataset_id", e.dataset_id}, {"records", records}};
}

json to_json(const PaperHit &h) {
  return {{"key", h.key},         {"pmid", h.pmid},   {"doi", h.doi},           {"year", h.year},      {"title", h.title},
          {"snippet", h.snippet}, {"score", h.score}, {"document", h.document}, {"dataset", h.dataset}};
}

json to_json(const Dataset &d) {
  return json{{"id", d.id},
              {"name", d.name},
              {"path", d.path},
              {"file_size", d.file_size},
              {"sha256", d.sha256},
              {"format", d.format},
              {"string_version", d.string_version},
              {"taxon", d.taxon},
              {"options", parse_or_string(d.options)},
              {"counts", parse_or_string(d.counts)},
              {"imported_at", d.imported_at},
              {"seconds", d.seconds},
              {"source", d.source},
              {"holds", {{"nodes", d.nodes}, {"edges", d.edges}, {"records", d.records}, {"aliases", d.aliases}}}};
}

json to_json(const GraphStats &s) {
  json rel = json::object();
  for (auto &r : s.edges_by_relation) rel[r.first] = r.second;
  json ds = json::array();
  for (auto &d : s.datasets) ds.push_back(to_json(d));
  return json{{"schema_version", s.schema_version},
              {"nodes", s.nodes},
              {"edges", s.edges},
              {"aliases", s.aliases},
              {"edges_by_relation", rel},
              {"datasets", ds}};
}

json to_json(const ResolveResult &r) {
  const char *status = r.status == ResolveResult::Status::found       ? "found"
                       : r.status == ResolveResult::Status::ambiguous ? "ambiguous"
                                                                      : "not_found";
  json out{{"status", status}, {"candidates", r.candidates}, {"suggestions", r.suggestions}};
  const bool found = r.status == ResolveResult::Status::found;
  out["id"] = found ? json(r.id) : json(nullptr);
  out["external_id"] = found && !r.candidates.empty() ? json(r.candidates.front().external_id) : json(nullptr);
  if (!r.note.empty()) out["note"] = r.note;
  return out;
}

json to_json(const FileReport &r) { return r; }
json to_json(const ImportReport &r) { return r; }

// ---- graph queries ---------------------------------------------------------------------------

json to_json(const GraphSnapshot &g, int64_t node, const std::vector<Neighbor> &neighbors) {
  json list = json::array();
  for (const auto &n : neighbors) {
    const uint32_t ix = *g.index_of(n.node);
    list.push_back({{"id", n.node},
                    {"name", g.name(ix)},
                    {"external_id", g.external_id(ix)},
                    {"edge", n.edge},
                    {"score", n.score},
                    {"relation", g.relation_name(n.relation)},
                    {"direction", direction_name(n.direction)}});
  }
  const uint32_t self = *g.index_of(node);
  return json{{"protein", {{"id", node}, {"name", g.name(self)}, {"external_id", g.external_id(self)}}},
              {"degree", g.degree(node)},
              {"neighbors", list}};
}

std::vector<Neighbor> strongest_neighbors(const GraphSnapshot &g, int64_t node, const NeighborFilter &filter, std::size_t limit) {
  std::vector<Neighbor> list = g.neighbors(node, filter);
  std::stable_sort(list.begin(), list.end(), [](const Neighbor &x, const Neighbor &y) {
    return x.score != y.score ? x.score > y.score : x.node < y.node;
  });
  if (limit && list.size() > limit) list.resize(limit);
  return list;
}

}  // namespace grappi
