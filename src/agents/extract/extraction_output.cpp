// What an extraction writes (grappi/extraction.hpp): JSON per paragraph, a BEL script with one
// citation and evidence per occurrence, CX2 in textToKnowledgeGraph's layout with a style, and
// the import of the script as a BEL dataset.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "common/answer_json.hpp"
#include "store/bel_graph.hpp"
#include "formats/cx2.hpp"
#include "agents/extract/extraction_impl.hpp"
#include "grappi/error.hpp"
#include "grappi/extraction.hpp"
#include "grappi/version.h"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"

namespace grappi {

namespace {

using nlohmann::json;

bool exported(const ExtractedStatement &s, bool flagged) {
  return s.status == "valid" || (flagged && s.status == "flagged");
}

json entity_json(const EntityMention &m) {
  json j = {{"text", m.text}, {"offset", m.offset}, {"length", m.length}, {"source", m.source},
            {"type", m.type}, {"status", m.status}};
  if (!m.annotation_id.empty()) j["annotation_id"] = m.annotation_id;
  if (!m.resolution.empty()) j["resolution"] = m.resolution;
  if (!m.reason.empty()) j["reason"] = m.reason;
  if (const EntityCandidate *c = m.entity()) {
    j["id"] = c->id;
    j["name"] = c->name;
    j["node"] = c->node;
    if (!c->bel.empty()) j["bel"] = c->bel;
    j["matched"] = c->matched;
    j["matched_source"] = c->source;
  }
  if (m.candidates.size() > 1) {
    json cs = json::array();
    for (const EntityCandidate &c : m.candidates)
      cs.push_back({{"id", c.id}, {"name", c.name}, {"node", c.node}, {"taxon", c.taxon}, {"bel", c.bel}, {"matched", c.matched}});
    j["candidates"] = std::move(cs);
  }
  return j;
}

json statement_json(const ExtractedStatement &s, std::size_t index) {
  json problems = json::array();
  for (const BelProblem &p : s.problems)
    problems.push_back({{"severity", to_string(p.severity)}, {"code", p.code}, {"offset", p.offset}, {"message", p.message}});
  json j = {{"index", index},          {"bel", s.bel},         {"canonical", s.canonical}, {"status", s.status},
            {"flags", s.flags},        {"problems", problems}, {"evidence", s.evidence},   {"origin", s.origin},
            {"entities", s.mentions}, {"checks", s.checks}};
  j["evidence_offset"] = s.evidence_offset ? json(*s.evidence_offset) : json(nullptr);
  if (!s.original.empty()) j["original"] = s.original;
  if (!s.original_problems.empty()) j["original_problems"] = s.original_problems;
  j["duplicate_of"] = s.duplicate_of ? json(*s.duplicate_of) : json(nullptr);
  return j;
}

// identifiers.org URL of an entity term; empty when its value is not an identifier.
std::string identifiers_url(const BelTerm &e) {
  const std::string ns = detail::upper_copy(e.ns);
  const bool number = !e.name.empty() && e.name.find_first_not_of("0123456789") == std::string::npos;
  if (ns == "HGNC") return number ? "https://identifiers.org/hgnc:" + e.name : "https://identifiers.org/hgnc.symbol:" + e.name;
  if ((ns == "GO" || ns == "CHEBI" || ns == "DOID" || ns == "HP" || ns == "MONDO") && number)
    return "https://identifiers.org/" + ns + ":" + e.name;
  if (ns == "UNIPROT" || ns == "UP") return "https://identifiers.org/uniprot:" + e.name;
  if (ns == "NCBIGENE" && number) return "https://identifiers.org/ncbigene:" + e.name;
  if (ns == "FPLX") return "https://identifiers.org/fplx:" + e.name;
  return {};
}

// A term as people read it: entities by their labels ("act(AKT1, ma(kin))"; a plain p(AKT1)
// is "AKT1").
std::string readable(const BelTerm &t) {
  if (t.kind == BelTerm::Kind::entity) return t.label.empty() ? t.name : t.label;
  if (t.kind == BelTerm::Kind::value) return t.name;
  const std::string f = bel_short_name(t.name);
  if ((f == "p" || f == "g" || f == "r" || f == "a" || f == "bp" || f == "path") && t.args.size() == 1 &&
      t.args[0].kind == BelTerm::Kind::entity)
    return readable(t.args[0]);
  std::string out = f + "(";
  for (std::size_t i = 0; i < t.args.size(); ++i) out += (i ? ", " : "") + readable(t.args[i]);
  return out + ")";
}

// The entity a term is about: the first argument's, through activities, modifications and
// the like (`act(p(HGNC:391 ! AKT1), ma(kin))` is about HGNC:391); none for complexes and
// compositions, which are about several.
const BelTerm *primary_entity(const BelTerm &t) {
  if (t.kind == BelTerm::Kind::entity) return &t;
  if (t.kind != BelTerm::Kind::function || t.args.empty()) return nullptr;
  const std::string f = bel_short_name(t.name);
  if (f == "complex" && t.args.size() == 1 && t.args[0].kind == BelTerm::Kind::entity) return &t.args[0];
  if (f == "complex" || f == "composite" || f == "rxn") return nullptr;
  return primary_entity(t.args[0]);
}

json extraction_style() {
  json style = detail::cx2_default_style("bel_expression");
  auto &node = style["default"]["node"];
  node["NODE_BACKGROUND_COLOR"] = "#F5F5DC";
  node["NODE_WIDTH"] = 60.0;
  style["nodeMapping"]["NODE_LABEL"] = {{"type", "PASSTHROUGH"}, {"definition", {{"attribute", "label"}}}};
  const auto discrete = [](const char *attribute, const std::vector<std::pair<const char *, const char *>> &map) {
    json m = json::array();
    for (const auto &[v, vp] : map) m.push_back({{"v", v}, {"vp", vp}});
    return json{{"type", "DISCRETE"}, {"definition", {{"attribute", attribute}, {"map", std::move(m)}}}};
  };
  style["nodeMapping"]["NODE_SHAPE"] =
      discrete("type", {{"p", "ellipse"}, {"g", "ellipse"}, {"r", "ellipse"}, {"complex", "hexagon"},
                        {"act", "round-rectangle"}, {"a", "triangle"}, {"bp", "rectangle"}, {"path", "diamond"},
                        {"deg", "octagon"}, {"tloc", "parallelogram"}, {"statement", "vee"}});
  style["nodeMapping"]["NODE_BACKGROUND_COLOR"] =
      discrete("type", {{"p", "#89D0F5"}, {"complex", "#C7A4E0"}, {"act", "#A8E6A3"}, {"a", "#FFD27F"},
                        {"bp", "#F5B7B1"}, {"path", "#F1948A"}});
  const std::vector<std::pair<const char *, const char *>> colours = {
      {"increases", "#2E8B57"}, {"directlyIncreases", "#1E6B3F"}, {"decreases", "#C0392B"},
      {"directlyDecreases", "#922B21"}, {"regulates", "#2874A6"}, {"association", "#7F8C8D"},
      {"positiveCorrelation", "#58D68D"}, {"negativeCorrelation", "#EC7063"}, {"hasComponent", "#8E44AD"}};
  style["edgeMapping"]["EDGE_LINE_COLOR"] = discrete("interaction", colours);
  style["edgeMapping"]["EDGE_TARGET_ARROW_COLOR"] = discrete("interaction", colours);
  style["edgeMapping"]["EDGE_TARGET_ARROW_SHAPE"] =
      discrete("interaction", {{"increases", "triangle"}, {"directlyIncreases", "triangle"}, {"decreases", "tee"},
                               {"directlyDecreases", "tee"}, {"regulates", "diamond"}, {"hasComponent", "circle"}});
  style["edgeMapping"].erase("EDGE_WIDTH");  // (no score on these edges)
  return style;
}

}  // namespace

json to_json(const ExtractionResult &r) {
  json j;
  j["documents"] = r.documents;
  j["skipped_passages"] = r.skipped_passages;
  j["offline"] = r.offline;
  if (r.offline)
    j["note"] = "Rule-based extraction, not a language model: sentences with two grounded entities and a trigger word "
                "became statements by grappi's rule table (docs/extract.md \"Extraction\").";
  j["model"] = r.model;
  j["template_version"] = r.template_version;
  j["dry_run"] = r.dry_run;
  if (r.dry_run) {
    j["estimated_calls"] = r.estimated_calls;
    j["estimated_prompt_tokens"] = r.estimated_prompt_tokens;
  }
  j["usage"] = detail::usage_json(r.usage);
  j["budget"] = r.budget;
  std::map<std::string, std::size_t> counts = {{"valid", 0}, {"flagged", 0}, {"rejected", 0}, {"repaired", 0}, {"duplicates", 0}};
  for (const ExtractedStatement &s : r.statements) {
    ++counts[s.status];
    counts["repaired"] += s.origin == "repaired";
    counts["duplicates"] += s.duplicate_of.has_value();
  }
  std::size_t entities = 0, grounded = 0;
  for (const ExtractionParagraph &p : r.paragraphs)
    for (const EntityMention &m : p.entities) {
      ++entities;
      grounded += m.chosen.has_value();
    }
  json c = {{"paragraphs", r.paragraphs.size()}, {"statements", r.statements.size()}, {"entities", entities}, {"grounded_entities", grounded}};
  for (const auto &[k, v] : counts) c[k] = v;
  j["counts"] = std::move(c);
  json paragraphs = json::array();
  std::vector<json> statements(r.paragraphs.size(), json::array());
  for (std::size_t i = 0; i < r.statements.size(); ++i)
    statements[r.statements[i].paragraph].push_back(statement_json(r.statements[i], i));
  for (std::size_t i = 0; i < r.paragraphs.size(); ++i) {
    const ExtractionParagraph &p = r.paragraphs[i];
    json es = json::array();
    for (const EntityMention &m : p.entities) es.push_back(entity_json(m));
    json pj = {{"index", i},          {"document", p.document}, {"pmid", p.pmid},     {"pmcid", p.pmcid}, {"doi", p.doi},
               {"passage", p.passage}, {"section", p.section},   {"text", p.text},     {"status", p.status},
               {"cached", p.cached},   {"entities", std::move(es)}, {"statements", std::move(statements[i])}};
    if (!p.error.empty()) pj["error"] = p.error;
    paragraphs.push_back(std::move(pj));
  }
  j["paragraphs"] = std::move(paragraphs);
  json papers = json::array();
  for (const PaperContext &p : r.papers) papers.push_back(detail::paper_json(p));
  j["papers"] = std::move(papers);
  return j;
}

void write_bel_script(std::ostream &out, const ExtractionResult &r, bool flagged) {
  using detail::bel_quoted;
  std::set<std::string> pmids;
  for (const ExtractionParagraph &p : r.paragraphs)
    if (!p.pmid.empty()) pmids.insert(p.pmid);
  std::string from;
  for (const std::string &p : pmids) from += (from.empty() ? "" : ", ") + p;
  std::vector<std::string> written;
  for (const ExtractedStatement &s : r.statements)
    if (exported(s, flagged)) written.push_back(s.canonical);
  out << detail::bel_document_head(
      "grappi extract",
      "BEL statements extracted by grappi " GRAPPI_VERSION_STRING " (" +
          std::string(r.offline ? "rule-based, not a language model" : "language model") + "; templates " +
          r.template_version + ")" + (from.empty() ? std::string() : " from PMID " + from),
      detail::bel_namespaces_of(written), {}, {"Paragraph", "ExtractedBy", "Template", "Status"});
  for (const ExtractedStatement &s : r.statements) {
    if (!exported(s, flagged)) continue;
    const ExtractionParagraph &p = r.paragraphs[s.paragraph];
    out << "\n";
    out << detail::citation_line(p.document, detail::reference_of(p));
    out << "SET Evidence = " << bel_quoted(s.evidence.empty() ? p.text : s.evidence) << "\n"
        << "SET Paragraph = " << bel_quoted(p.document + "#" + std::to_string(p.passage)) << "\n"
        << "SET ExtractedBy = " << bel_quoted(s.origin == "model" || s.origin == "repaired"
                                                  ? s.origin + ":" + r.model.value("identity", r.model.value("kind", std::string("model")))
                                                  : s.origin)
        << "\n"
        << "SET Template = " << bel_quoted(r.template_version) << "\n"
        << "SET Status = " << bel_quoted(s.status) << "\n"
        << detail::bel_script_form(s.canonical) << "\n";
  }
}

json to_cx2(const ExtractionResult &r, const std::string &name, bool flagged) {
  BelOptions bo;
  BelValidator v(bo);
  v.define_namespace({"TEXT", bel_any, ""});
  std::map<std::string, int64_t> node_of;  // canonical term -> node id
  // Links the grounding found where a BEL value gives none (yeast's SGD ids), by entity.
  std::map<std::string, std::string> url_of;
  for (const ExtractionParagraph &p : r.paragraphs)
    for (const EntityMention &m : p.entities)
      if (const EntityCandidate *c = m.entity(); c && !c->url.empty()) url_of.emplace(c->ns + ":" + c->value, c->url);
  json nodes = json::array(), edges = json::array();
  const auto node = [&](const BelTerm &t) {
    const std::string key = to_bel(t);
    auto [it, fresh] = node_of.emplace(key, static_cast<int64_t>(node_of.size()));
    if (fresh) {
      json values = {{"name", key}, {"label", readable(t)}, {"type", t.kind == BelTerm::Kind::function ? bel_short_name(t.name) : "entity"}};
      if (const BelTerm *e = primary_entity(t)) {
        std::string url = identifiers_url(*e);
        if (url.empty())
          if (const auto u = url_of.find(e->ns + ":" + e->name); u != url_of.end()) url = u->second;
        if (!url.empty()) values["id"] = url;
      }
      nodes.push_back({{"id", it->second}, {"v", std::move(values)}});
    }
    return it->second;
  };
  // A complex's members bind one another: an edge between every two (interaction "complex"),
  // and, when the complex takes part in a relation, an edge from it to each member
  // ("hasComponent"); each pair once.
  std::set<std::tuple<int64_t, int64_t, std::string>> member_edges;
  std::vector<std::tuple<int64_t, int64_t, std::string>> pending;  // source, target, interaction
  const std::function<void(const BelTerm &, bool)> members = [&](const BelTerm &t, bool in_relation) {
    if (t.kind != BelTerm::Kind::function) return;
    for (const BelTerm &a : t.args) members(a, true);
    if (bel_short_name(t.name) != "complex") return;
    std::vector<const BelTerm *> parts;
    for (const BelTerm &a : t.args)
      if (a.kind == BelTerm::Kind::function && bel_short_name(a.name) != "loc") parts.push_back(&a);
    if (parts.size() < 2) return;
    const int64_t whole = in_relation ? node(t) : -1;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const int64_t a = node(*parts[i]);
      if (whole >= 0 && member_edges.emplace(whole, a, "hasComponent").second) pending.emplace_back(whole, a, "hasComponent");
      for (std::size_t k = i + 1; k < parts.size(); ++k) {
        const int64_t b = node(*parts[k]);
        if (member_edges.emplace(std::min(a, b), std::max(a, b), "complex").second) pending.emplace_back(a, b, "complex");
      }
    }
  };
  // One edge per distinct statement; its occurrences' PMIDs and paragraphs gathered on it.
  struct Gathered {
    std::size_t first;
    std::set<std::string> pmids;
    std::set<std::size_t> paragraphs;
  };
  std::map<std::string, Gathered> by_statement;
  std::vector<std::string> order;
  for (std::size_t i = 0; i < r.statements.size(); ++i) {
    const ExtractedStatement &s = r.statements[i];
    if (!exported(s, flagged)) continue;
    auto [it, fresh] = by_statement.emplace(s.canonical, Gathered{i, {}, {}});
    if (fresh) order.push_back(s.canonical);
    if (!r.paragraphs[s.paragraph].pmid.empty()) it->second.pmids.insert(r.paragraphs[s.paragraph].pmid);
    it->second.paragraphs.insert(s.paragraph);
  }
  std::set<std::string> references;
  for (const std::string &canonical : order) {
    const Gathered &g = by_statement[canonical];
    const ExtractedStatement &s = r.statements[g.first];
    const ExtractionParagraph &p = r.paragraphs[s.paragraph];
    const BelResult parsed = v.check(canonical);
    if (!parsed.statement) continue;
    const BelStatement &st = *parsed.statement;
    for (const std::string &pm : g.pmids) references.insert("PMID:" + pm);
    json pmids = json::array(), paragraphs = json::array();
    for (const std::string &pm : g.pmids) pmids.push_back(pm);
    for (std::size_t k : g.paragraphs) paragraphs.push_back(static_cast<int64_t>(k));
    const auto edge = [&](int64_t source, int64_t target, const std::string &interaction) {
      json values = {{"interaction", interaction}, {"bel_expression", canonical}, {"text", p.text},
                     {"evidence", s.evidence},     {"pmid", p.pmid},              {"pmids", pmids},
                     {"paragraphs", paragraphs},   {"origin", s.origin},          {"status", s.status},
                     {"template", r.template_version}};
      values["model"] = r.model.value("identity", r.model.value("kind", std::string()));
      edges.push_back({{"id", static_cast<int64_t>(edges.size())}, {"s", source}, {"t", target}, {"v", std::move(values)}});
    };
    // (a complex alone is no node of its own: its members and their edges say it)
    pending.clear();
    members(st.subject, !st.relation.empty());
    if (st.object) members(*st.object, true);
    for (const auto &[a, b, interaction] : pending) edge(a, b, interaction);
    if (st.relation.empty()) continue;  // a term alone is a node (or its members' edges)
    const int64_t source = node(st.subject);
    int64_t target;
    if (st.object) {
      target = node(*st.object);
    } else {
      BelTerm nested;
      nested.kind = BelTerm::Kind::value;
      nested.name = "(" + to_bel(*st.nested) + ")";
      const std::string key = nested.name;
      auto [it, fresh] = node_of.emplace(key, static_cast<int64_t>(node_of.size()));
      if (fresh) nodes.push_back({{"id", it->second}, {"v", {{"name", key}, {"label", key}, {"type", "statement"}}}});
      target = it->second;
    }
    edge(source, target, st.relation);
  }
  std::string reference;
  for (const std::string &ref : references) reference += (reference.empty() ? "" : ", ") + ref;
  json network = {{"name", name},
                  {"description", "BEL statements grappi " GRAPPI_VERSION_STRING " extracted from " + std::to_string(r.paragraphs.size()) +
                                      " paragraphs (" + (r.offline ? "rule-based, not a language model" : "language model") +
                                      "), each validated; " + (flagged ? "valid and flagged" : "valid") + " statements only"},
                  {"reference", reference},
                  {"template_version", r.template_version},
                  {"generator", "grappi " GRAPPI_VERSION_STRING}};
  const json declarations = {
      {"networkAttributes",
       {{"name", {{"d", "string"}}}, {"description", {{"d", "string"}}}, {"reference", {{"d", "string"}}},
        {"template_version", {{"d", "string"}}}, {"generator", {{"d", "string"}}}}},
      {"nodes", {{"name", {{"d", "string"}}}, {"label", {{"d", "string"}}}, {"type", {{"d", "string"}}}, {"id", {{"d", "string"}}}}},
      {"edges",
       {{"interaction", {{"d", "string"}}}, {"bel_expression", {{"d", "string"}}}, {"text", {{"d", "string"}}},
        {"evidence", {{"d", "string"}}}, {"pmid", {{"d", "string"}}}, {"pmids", {{"d", "list_of_string"}}},
        {"paragraphs", {{"d", "list_of_long"}}}, {"origin", {{"d", "string"}}}, {"status", {{"d", "string"}}},
        {"template", {{"d", "string"}}}, {"model", {{"d", "string"}}}}}};
  return detail::cx2_document(declarations, network, std::move(nodes), std::move(edges), extraction_style());
}

FileReport import_extraction(KnowledgeGraph &kg, const ExtractionResult &r, const std::string &bel_path, bool flagged) {
  std::size_t n = 0;
  for (const ExtractedStatement &s : r.statements) n += exported(s, flagged);
  if (n == 0)
    throw Error(ErrorCode::invalid_argument, std::string("extraction: no ") + (flagged ? "valid or flagged" : "valid") +
                                                 " statement to import");
  detail::write_file_atomically(bel_path, [&](std::ostream &out) { write_bel_script(out, r, flagged); }, "extraction");
  ImportReport rep = kg.import({{bel_path, "bel"}});
  return rep.files.at(0);
}

}  // namespace grappi

namespace grappi::detail {

std::string reference_of(const ExtractionParagraph &p) {
  if (!p.pmid.empty()) return "PMID:" + p.pmid;
  if (!p.pmcid.empty()) return p.pmcid;
  if (!p.doi.empty()) return "doi:" + p.doi;
  return p.document;
}

std::string citation_line(const std::string &document, const std::string &reference) {
  const bool pmid = reference.rfind("PMID:", 0) == 0 && reference.size() > 5 &&
                    reference.find_first_not_of("0123456789", 5) == std::string::npos;
  if (pmid) return "SET Citation = {\"PubMed\", " + bel_quoted(document) + ", " + bel_quoted(reference.substr(5)) + "}\n";
  if (reference.rfind("doi:", 0) == 0)
    return "SET Citation = {\"DOI\", " + bel_quoted(document) + ", " + bel_quoted(reference.substr(4)) + "}\n";
  return "SET Citation = {\"Other\", " + bel_quoted(document) + ", " + bel_quoted(reference) + "}\n";
}

}  // namespace grappi::detail
