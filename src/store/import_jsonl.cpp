// grappi's JSON lines (format "jsonl", written by KnowledgeGraph::export_graph): a header line
// {"format": "grappi-jsonl", "version": 1}, node lines and edge lines. Nodes are defined (or
// updated) by external id with their aliases; edges join their endpoints by external id (a
// node the file does not define joins an existing node or becomes a new one, counted) and keep
// their channels, evidence and evidence records (with the records' original lines and raw
// rows). Exporting the imported graph again gives the same bytes.
#include <chrono>
#include <cmath>
#include <unordered_set>

#include "grappi/error.hpp"
#include "store/import_writer.hpp"
#include "store/importers.hpp"
#include "common/text_reader.hpp"
#include "grappi/json_text.hpp"
#include "common/json_input.hpp"

namespace grappi::detail {

namespace {

using nlohmann::json;

std::string text_field(const json &j, const char *key, bool required, const char *what) {
  if (!j.contains(key)) {
    if (required) throw std::invalid_argument(std::string(what) + " without \"" + key + "\"");
    return {};
  }
  if (!j[key].is_string()) throw std::invalid_argument(std::string("\"") + key + "\" is not a string");
  return j[key].get<std::string>();
}

int64_t int_field(const json &j, const char *key) {
  if (!j.contains(key)) return 0;
  if (!j[key].is_number_integer()) throw std::invalid_argument(std::string("\"") + key + "\" is not an integer");
  return j[key].get<int64_t>();
}

}  // namespace

bool looks_like_jsonl(std::string_view first_line) {
  const auto j = parse_json_or_discarded(first_line);
  return j.is_object() && j.contains("format") && j["format"] == "grappi-jsonl";
}

FileReport import_jsonl_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options) {
  const auto t0 = std::chrono::steady_clock::now();
  LineReader reader(path);
  reader.set_max_lines(options.max_rows);
  std::string_view line;
  if (!reader.next(line)) throw Error(ErrorCode::parse, path + ": empty file");
  {
    const auto head = parse_json_or_discarded(line);
    if (!head.is_object() || head.value("format", "") != "grappi-jsonl")
      throw Error(ErrorCode::parse, path + ":1: not a grappi JSON lines file (the first line must be "
                                           "{\"format\": \"grappi-jsonl\", \"version\": 1})");
    if (!head.contains("version") || !head["version"].is_number_integer() || head["version"].get<int64_t>() != 1)
      throw Error(ErrorCode::parse, path + ":1: unsupported grappi-jsonl version (this grappi reads version 1)");
  }
  ImportWriter w(impl, path, "jsonl", reader.file_size(), json{{"format", "jsonl"}});
  FileReport &rep = w.report();
  std::unordered_set<std::string> defined;
  std::unordered_set<int64_t> edges_seen;
  uint64_t node_lines = 0, edge_lines = 0, records = 0;
  while (reader.next(line)) {
    const uint64_t no = reader.line_number();
    if (line.empty()) continue;
    ++rep.lines;
    try {
      if (!valid_utf8(line)) throw std::invalid_argument("invalid UTF-8");
      if (json_too_deep(line)) throw std::invalid_argument("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
      const auto j = json::parse(line, nullptr, false);
      if (j.is_discarded()) throw std::invalid_argument("not valid JSON");
      if (!j.is_object()) throw std::invalid_argument("not a JSON object");
      const std::string type = text_field(j, "type", true, "a line");
      if (type == "node") {
        NodeInput n;
        n.external_id = text_field(j, "id", true, "a node");
        if (n.external_id.empty()) throw std::invalid_argument("a node with an empty id");
        if (defined.count(n.external_id)) throw std::invalid_argument("node '" + n.external_id + "' defined twice");
        n.name = text_field(j, "name", false, "a node");
        if (j.contains("label")) n.label = text_field(j, "label", false, "a node");
        n.annotation = text_field(j, "annotation", false, "a node");
        n.size = int_field(j, "size");
        if (j.contains("attributes")) {
          if (!j["attributes"].is_object()) throw std::invalid_argument("\"attributes\" is not an object");
          n.attributes = dump_json(j["attributes"]);
        }
        const int64_t taxon = int_field(j, "taxon");
        std::vector<std::pair<std::string, std::string>> aliases;
        if (j.contains("aliases")) {
          if (!j["aliases"].is_array()) throw std::invalid_argument("\"aliases\" is not a list");
          for (const auto &a : j["aliases"]) {
            if (!a.is_array() || a.size() != 2 || !a[0].is_string() || !a[1].is_string())
              throw std::invalid_argument("an alias is not [alias, source]");
            aliases.emplace_back(a[0].get<std::string>(), a[1].get<std::string>());
          }
        }
        const int64_t id = w.define_node(n, taxon);
        defined.insert(n.external_id);
        for (const auto &[alias, source] : aliases) w.add_alias(id, alias, source);
        ++node_lines;
      } else if (type == "edge") {
        const std::string s = text_field(j, "source", true, "an edge"), t = text_field(j, "target", true, "an edge");
        const std::string relation = text_field(j, "relation", true, "an edge");
        if (s.empty() || t.empty() || relation.empty()) throw std::invalid_argument("an edge with an empty endpoint or relation");
        if (!j.contains("directed") || !j["directed"].is_boolean()) throw std::invalid_argument("\"directed\" is not true or false");
        if (!j.contains("score") || !j["score"].is_number()) throw std::invalid_argument("\"score\" is not a number");
        const double score = j["score"].get<double>();
        if (!(score >= 0 && score <= 1)) throw std::invalid_argument("\"score\" is outside [0, 1]");
        std::string channels, evidence;
        if (j.contains("channels")) {
          if (!j["channels"].is_object()) throw std::invalid_argument("\"channels\" is not an object");
          channels = dump_json(j["channels"]);
        }
        if (j.contains("evidence")) {
          if (!j["evidence"].is_object()) throw std::invalid_argument("\"evidence\" is not an object");
          evidence = dump_json(j["evidence"]);
        }
        std::vector<std::tuple<int64_t, std::string, std::string>> recs;
        if (j.contains("records")) {
          if (!j["records"].is_array()) throw std::invalid_argument("\"records\" is not a list");
          for (const auto &r : j["records"]) {
            if (!r.is_object() || !r.contains("record") || !r["record"].is_object())
              throw std::invalid_argument("a record without its \"record\" object");
            recs.emplace_back(int_field(r, "line"), dump_json(r["record"]), text_field(r, "raw", false, "a record"));
          }
        }
        const int64_t a = w.reference_node(s, "Protein"), b = w.reference_node(t, "Protein");
        const int64_t edge = w.add_edge(a, b, relation, j["directed"].get<bool>(), score, evidence, channels);
        if (!edges_seen.insert(edge).second)
          throw std::invalid_argument("edge " + s + " - " + t + " (" + relation + ") listed twice");
        for (const auto &[l, rec, raw] : recs) w.add_evidence(edge, static_cast<uint64_t>(l), rec, raw);
        records += recs.size();
        ++edge_lines;
      } else {
        throw std::invalid_argument("unknown type '" + type + "' (node or edge)");
      }
    } catch (const std::invalid_argument &e) {
      w.bad_line(no, e.what(), options);
    }
  }
  rep.details = {{"node_lines", node_lines}, {"edge_lines", edge_lines}, {"evidence_records", records}};
  if (options.progress) options.progress(ImportProgress{path, reader.file_size(), reader.file_size(), "done"});
  return w.finish(reader.sha256_hex(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace grappi::detail
