// OBO ontologies into the knowledge graph. Every [Term] becomes an "OntologyTerm" node keyed by
// its id ("MI:0190", "GO:0006468"): name, definition as the annotation (what embeddings and
// search read), and as attributes the ontology, namespace, synonyms, alternative ids, subsets,
// cross-references, obsolescence (is_obsolete, replaced_by, consider), comment and every other
// tag. Synonyms and alternative ids are aliases (source "obo:synonym:EXACT", "obo:alt_id"), so
// resolve finds a term by them. `is_a` lines are directed edges child -> parent of relation
// "obo.is_a", `relationship: part_of X` lines edges of "obo.part_of" and so on. A parent or
// relationship target the file does not define joins an existing node of that id or becomes a
// new node named by its id, counted (referenced_nodes_created). [Typedef] stanzas are recorded in the dataset's options.
#include <chrono>

#include "grappi/error.hpp"
#include "store/import_writer.hpp"
#include "store/importers.hpp"
#include "formats/obo_parser.hpp"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"

namespace grappi::detail {

namespace {

nlohmann::json attributes_of(const OboStanza &t, const std::string &ontology) {
  nlohmann::json a = {{"ontology", ontology}, {"is_obsolete", t.obsolete}};
  if (!t.name_space.empty()) a["namespace"] = t.name_space;
  if (!t.synonyms.empty()) {
    auto &s = a["synonyms"] = nlohmann::json::array();
    for (const auto &y : t.synonyms) {
      nlohmann::json j = {{"text", y.text}, {"scope", y.scope}};
      if (!y.type.empty()) j["type"] = y.type;
      s.push_back(std::move(j));
    }
  }
  const auto list = [&a](const char *key, const std::vector<std::string> &v) {
    if (!v.empty()) a[key] = v;
  };
  list("definition_xrefs", t.definition_xrefs);
  list("alt_ids", t.alt_ids);
  list("subsets", t.subsets);
  list("xrefs", t.xrefs);
  list("replaced_by", t.replaced_by);
  list("consider", t.consider);
  if (!t.comment.empty()) a["comment"] = t.comment;
  if (!t.other.empty()) {
    auto &o = a["other"] = nlohmann::json::object();
    for (const auto &[tag, value] : t.other) o[tag].push_back(value);
  }
  return a;
}

}  // namespace

FileReport import_obo_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options) {
  const auto t0 = std::chrono::steady_clock::now();
  LineReader reader(path);
  reader.set_max_lines(options.max_rows);
  const OboDocument doc = parse_obo(reader);
  if (doc.terms.empty()) throw Error(ErrorCode::parse, path + ": no [Term] stanza (not an OBO ontology?)");
  // The ontology's name: its "ontology:" header, else its default namespace, else the file name.
  std::string ontology;
  nlohmann::json header = nlohmann::json::object();
  for (const auto &[tag, value] : doc.header) {
    auto &slot = header[tag];
    if (slot.is_null()) slot = value;
    else if (slot.is_array()) slot.push_back(value);
    else slot = nlohmann::json::array({slot.get<std::string>(), value});
    if (tag == "ontology" && ontology.empty()) ontology = value;
  }
  for (const auto &[tag, value] : doc.header)
    if (tag == "default-namespace" && ontology.empty()) ontology = value;
  if (ontology.empty()) ontology = file_stem(path, {".gz", ".obo"});
  nlohmann::json typedefs = nlohmann::json::array();
  for (const auto &t : doc.typedefs) {
    nlohmann::json j = {{"id", t.id}};
    if (!t.name.empty()) j["name"] = t.name;
    for (const auto &[tag, value] : t.other) j[tag] = value;
    typedefs.push_back(std::move(j));
  }
  const nlohmann::json opts = {{"format", "obo"}, {"ontology", ontology}, {"header", header}, {"typedefs", typedefs}};

  ImportWriter w(impl, path, "obo", reader.file_size(), opts);
  FileReport &rep = w.report();
  rep.lines = doc.lines;
  uint64_t obsolete = 0, is_a = 0, relationships = 0;
  for (const auto &t : doc.terms) {
    NodeInput n;
    n.external_id = t.id;
    n.name = t.name;
    n.label = "OntologyTerm";
    n.annotation = t.definition;
    n.attributes = dump_json(attributes_of(t, ontology));
    const int64_t id = w.define_node(n);
    for (const auto &s : t.synonyms) w.add_alias(id, s.text, "obo:synonym:" + s.scope);
    for (const auto &a : t.alt_ids) w.add_alias(id, a, "obo:alt_id");
    obsolete += t.obsolete ? 1 : 0;
  }
  // Terms the file defined are known to the writer; other parents join or become nodes.
  const auto node_of = [&](const std::string &ext) { return w.reference_node(ext, "OntologyTerm"); };
  for (const auto &t : doc.terms) {
    const int64_t child = node_of(t.id);
    for (const auto &parent : t.is_a) {
      w.add_edge(child, node_of(parent), "obo.is_a", true, 1.0);
      ++is_a;
    }
    for (const auto &[type, target] : t.relationships) {
      w.add_edge(child, node_of(target), "obo." + type, true, 1.0);
      ++relationships;
    }
  }
  rep.details = {{"terms", doc.terms.size()},     {"obsolete_terms", obsolete}, {"typedefs", doc.typedefs.size()},
                 {"is_a", is_a},                  {"relationships", relationships},
                 {"other_stanzas", doc.other_stanzas}};
  if (options.progress) options.progress(ImportProgress{path, reader.file_size(), reader.file_size(), "done"});
  return w.finish(reader.sha256_hex(),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace grappi::detail
