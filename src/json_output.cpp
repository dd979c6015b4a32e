#include <nlohmann/json.hpp>

#include "grappi/json.hpp"

namespace grappi {

using nlohmann::json;

namespace {
json parse_or_string(const std::string &s) {
  auto j = json::parse(s, nullptr, false);
  return j.is_discarded() ? json(s) : j;
}
}  // namespace

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
  return json{{"id", e.id},         {"source", e.source},   {"target", e.target},
              {"relation", e.relation}, {"directed", e.directed}, {"score", e.score},
              {"channels", ch},     {"pmids", e.pmids},     {"evidence", e.evidence},
              {"dataset_id", e.dataset_id}};
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
              {"seconds", d.seconds}};
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
  json c = json::array();
  for (auto &x : r.candidates)
    c.push_back({{"id", x.id}, {"external_id", x.external_id}, {"name", x.name}, {"matched_by", x.matched_by}});
  json out{{"status", status}, {"candidates", c}, {"suggestions", r.suggestions}};
  out["id"] = r.status == ResolveResult::Status::found ? json(r.id) : json(nullptr);
  return out;
}

json to_json(const FileReport &r) {
  return json{{"path", r.path},
              {"format", to_string(r.format)},
              {"string_version", r.string_version},
              {"taxon", r.taxon},
              {"dataset_id", r.dataset_id},
              {"already_imported", r.already_imported},
              {"lines", r.lines},
              {"rows_below_min_score", r.rows_below_min_score},
              {"rows_skipped", r.rows_skipped},
              {"nodes_created", r.nodes_created},
              {"nodes_updated", r.nodes_updated},
              {"edges_created", r.edges_created},
              {"edges_existing", r.edges_existing},
              {"aliases_created", r.aliases_created},
              {"score_conflicts", r.score_conflicts},
              {"bad_line_examples", r.bad_line_examples},
              {"seconds", r.seconds}};
}

json to_json(const ImportReport &r) {
  json files = json::array();
  for (auto &f : r.files) files.push_back(to_json(f));
  return json{{"files", files}, {"seconds", r.seconds}};
}

}  // namespace grappi
