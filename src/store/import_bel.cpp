// BEL into the knowledge graph: BEL scripts (format "bel") and BEL JSON Graph Format files
// such as the Causal Biological Networks' (format "jgf"). Every statement is checked by the
// BEL validator first; an invalid one is a bad line (the import fails naming it, or with
// skip_bad_lines it is counted and quoted), never stored half.
#include <chrono>
#include <functional>
#include <string_view>

#include "formats/bel_script.hpp"
#include "store/bel_graph.hpp"
#include "store/bel_resolver.hpp"
#include "grappi/error.hpp"
#include "store/import_writer.hpp"
#include "store/importers.hpp"
#include "common/text_reader.hpp"
#include "common/json_input.hpp"

namespace grappi::detail {

using nlohmann::json;

bool looks_like_bel(std::string_view first_line) {
  for (std::string_view k : {"SET ", "DEFINE ", "UNSET "})
    if (first_line.substr(0, k.size()) == k) return true;
  return false;
}

bool looks_like_jgf(std::string_view first_line) {
  return first_line == "{" || first_line.substr(0, 8) == "{\"graph\"" || first_line.substr(0, 9) == "{ \"graph\"";
}

namespace {

// A streamed script's statements written as they are read (a bad one refused or counted), and
// its control lines' errors as bad lines (they spoil the statements under them).
class BelImportSink : public BelScriptSink {
 public:
  BelImportSink(ImportWriter &w, BelGraphWriter &g, const ImportOptions &options) : w_(w), g_(g), options_(options) {}
  void statement(BelScriptStatement &&s) override {
    ++statements;
    if (s.line != last_line_) ++w_.report().lines;  // (a chained line gives several statements)
    last_line_ = s.line;
    if (!s.result.valid()) return w_.bad_line(s.line, bel_first_error(s.result), options_);
    g_.statement(*s.result.statement, s.result.canonical, s.line, {{bel_context(s), s.text}});
  }
  void problem(const BelScriptProblem &p) override {
    if (p.problem.severity == BelProblem::Severity::error && p.problem.code == "script")
      w_.bad_line(p.line, p.problem.message, options_);
  }
  std::size_t statements = 0;

 private:
  std::size_t last_line_ = 0;
  ImportWriter &w_;
  BelGraphWriter &g_;
  const ImportOptions &options_;
};

}  // namespace

FileReport import_bel_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options) {
  const auto t0 = std::chrono::steady_clock::now();
  // Read line by line (memory bounded by the longest statement or value, not the file's size:
  // BEL is a line format), each statement written as it is read.
  LineReader reader(path);
  reader.set_max_lines(options.max_rows);
  const std::function<bool(std::string &)> next = [&](std::string &line) {
    std::string_view v;
    if (!reader.next(v)) return false;
    if (!valid_utf8(v)) throw Error(ErrorCode::parse, path + ":" + std::to_string(reader.line_number()) + ": invalid UTF-8");
    line.assign(v.data(), v.size());
    return true;
  };
  // Entities are resolved to the identifiers the database knows (HGNC symbols to ids, ontology
  // term names to ids), so that one entity has one term node however the script names it.
  BelOptions bel_options;
  bel_options.resolver = bel_resolver(impl.db);
  ImportWriter w(impl, path, "bel", reader.file_size(), json{{"format", "bel"}, {"skip_bad_lines", options.skip_bad_lines}});
  FileReport &rep = w.report();
  BelGraphWriter g(w, options);
  BelImportSink sink(w, g, options);
  const BelDocument doc = stream_bel_script(next, bel_options, sink, LineReader::kMaxLine, path);
  if (sink.statements == 0) throw Error(ErrorCode::parse, path + ": no BEL statements");
  json document = json::object();
  for (const auto &[key, value] : doc.properties) document[key] = value;
  w.set_options(json{{"format", "bel"}, {"document", document}, {"skip_bad_lines", options.skip_bad_lines}});
  rep.details = g.details();
  rep.details.emplace_back("document_properties", doc.properties.size());
  // (statements a SET Citation left without the evidence set before it: imported, and counted)
  if (doc.evidence_cleared) rep.details.emplace_back("evidence_cleared_by_citation", doc.evidence_cleared);
  // (lines chaining relations, A -> B -> C: imported as one statement per link, and counted)
  if (doc.chained) rep.details.emplace_back("chained_statements_split", doc.chained);
  return w.finish(reader.sha256_hex(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

FileReport import_jgf_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options) {
  const auto t0 = std::chrono::steady_clock::now();
  WholeFile file = read_whole_file(path);
  json doc;
  check_json_depth(file.text, path);
  try {
    doc = json::parse(file.text);
  } catch (const json::exception &e) {  // parse errors and numbers out of range (406)
    throw Error(ErrorCode::parse, path + ": not valid JSON (" + std::string(e.what()) + ")");
  }
  if (!doc.is_object() || !doc.contains("graph") || !doc["graph"].is_object())
    throw Error(ErrorCode::parse, path + ": not a BEL JSON graph (no \"graph\" object)");
  const json &graph = doc["graph"];
  static const json kNone = json::array();
  const json &nodes = graph.contains("nodes") ? graph["nodes"] : kNone;
  const json &edges = graph.contains("edges") ? graph["edges"] : kNone;
  if (!nodes.is_array() || !edges.is_array())
    throw Error(ErrorCode::parse, path + ": \"nodes\" and \"edges\" must be arrays");
  check_elements(path, nodes.size() + edges.size(), options.max_rows);
  // The graph's label and metadata (name, version, description, ...) are its provenance.
  json network = graph.contains("metadata") && graph["metadata"].is_object() ? graph["metadata"] : json::object();
  if (!network.contains("name") && graph.contains("label") && graph["label"].is_string()) network["name"] = graph["label"];
  ImportWriter w(impl, path, "jgf", file.size,
                 json{{"format", "jgf"}, {"network", network}, {"skip_bad_lines", options.skip_bad_lines}});
  FileReport &rep = w.report();
  BelOptions bel_options;
  bel_options.resolver = bel_resolver(impl.db);
  const BelValidator validator(std::move(bel_options));
  BelGraphWriter g(w, options);
  uint64_t evidences = 0;
  // Nodes: BEL terms (items are numbered from 1 in the messages: node 3, edge 7).
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    ++rep.lines;
    const json &n = nodes[k];
    const std::string where = "node " + std::to_string(k + 1);
    if (!n.is_object() || !n.contains("id") || !n["id"].is_string()) {
      w.bad_line(k + 1, where + ": no string \"id\"", options);
      continue;
    }
    const BelResult r = validator.check(n["id"].get<std::string>());
    if (!r.valid() || !r.statement->relation.empty()) {
      w.bad_line(k + 1, where + " '" + n["id"].get<std::string>() + "': " +
                            (r.valid() ? std::string("a statement, not a term") : bel_first_error(r)), options);
      continue;
    }
    g.term(r.statement->subject);
  }
  // Edges: one statement each, with its evidences as records.
  for (std::size_t k = 0; k < edges.size(); ++k) {
    ++rep.lines;
    const json &e = edges[k];
    const std::string where = "edge " + std::to_string(k + 1);
    if (!e.is_object() || !e.contains("source") || !e.contains("target") || !e.contains("relation") ||
        !e["source"].is_string() || !e["target"].is_string() || !e["relation"].is_string()) {
      w.bad_line(k + 1, where + ": needs string \"source\", \"relation\" and \"target\"", options);
      continue;
    }
    const std::string text = e["source"].get<std::string>() + " " + e["relation"].get<std::string>() + " " +
                             e["target"].get<std::string>();
    const BelResult r = validator.check(text);
    if (!r.valid()) {
      w.bad_line(k + 1, where + " '" + text + "': " + bel_first_error(r), options);
      continue;
    }
    const json *list = &kNone;
    if (const auto m = e.find("metadata"); m != e.end() && m->is_object())
      if (const auto l = m->find("evidences"); l != m->end() && l->is_array()) list = &*l;
    std::vector<BelOccurrence> occurrences;
    for (const json &ev : *list) {
      BelOccurrence o;
      json &c = o.context;
      json pmids = json::array();
      if (ev.is_object()) {
        if (ev.contains("citation") && ev["citation"].is_object()) {
          const json &cit = ev["citation"];
          c["citation"] = cit;
          const auto text_of = [&](const char *key) {
            return cit.contains(key) && cit[key].is_string() ? cit[key].get<std::string>() : std::string();
          };
          if (const auto pmid = pubmed_id(text_of("type"), text_of("id"))) pmids.push_back(*pmid);
        }
        if (ev.contains("summary_text") && ev["summary_text"].is_string()) c["evidence"] = ev["summary_text"];
        if (ev.contains("experiment_context") && ev["experiment_context"].is_object()) {
          json annotations = json::object();
          for (const auto &[key, value] : ev["experiment_context"].items())
            if (value.is_string() && !value.get<std::string>().empty()) annotations[key] = value;
          c["annotations"] = std::move(annotations);
        }
      }
      c["pmids"] = std::move(pmids);
      o.raw = ev.is_object() ? ev.value("bel_statement", text) : text;
      occurrences.push_back(std::move(o));
    }
    evidences += occurrences.size();
    // An edge without evidence keeps one record: the statement itself.
    if (occurrences.empty()) occurrences.push_back({json{{"pmids", json::array()}}, text});
    g.statement(*r.statement, r.canonical, k + 1, occurrences);
  }
  if (rep.lines == 0) throw Error(ErrorCode::parse, path + ": a BEL JSON graph without nodes or edges");
  rep.details = g.details();
  rep.details.emplace_back("jgf_nodes", nodes.size());
  rep.details.emplace_back("jgf_edges", edges.size());
  rep.details.emplace_back("jgf_evidences", evidences);
  return w.finish(file.sha256, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace grappi::detail
