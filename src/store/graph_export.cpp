// KnowledgeGraph::export_graph (grappi/graph_export.hpp): JSON lines, an edge table, GraphML;
// CX2 and BEL in export_cx2.cpp and export_bel.cpp.
#include <algorithm>
#include <cmath>
#include <optional>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <set>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "store/export_rows.hpp"
#include "grappi/error.hpp"
#include "grappi/version.h"
#include "grappi/json_text.hpp"
#include "common/text_util.hpp"
#include "common/text_reader.hpp"

namespace grappi {

using detail::markup_text;
using detail::Stmt;
using nlohmann::json;

const char *to_string(ExportFormat f) noexcept {
  switch (f) {
    case ExportFormat::jsonl: return "jsonl";
    case ExportFormat::tsv: return "tsv";
    case ExportFormat::graphml: return "graphml";
    case ExportFormat::cx2: return "cx2";
    case ExportFormat::bel: return "bel";
  }
  return "jsonl";
}

ExportFormat export_format_from_name(std::string_view name) {
  for (ExportFormat f : {ExportFormat::jsonl, ExportFormat::tsv, ExportFormat::graphml, ExportFormat::cx2, ExportFormat::bel})
    if (name == to_string(f)) return f;
  throw Error(ErrorCode::invalid_argument,
              "export: unknown format '" + std::string(name) + "' (jsonl, tsv, graphml, cx2, bel)");
}

namespace {

// A cell of the edge table: tabs and line breaks would break the row.
std::string cell(std::string_view s) {
  std::string out(s);
  for (auto &c : out)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return out;
}

}  // namespace

namespace detail {

std::string number(double v) {
  json j = v;
  return dump_json(j);  // the shortest text that reads back as the same double
}

std::vector<NodeRow> read_nodes(Db &db, const Keep &keep) {
  std::vector<NodeRow> nodes;
  Stmt st(db, "SELECT id, external_id, name, label, annotation, attributes, size, taxon FROM nodes ORDER BY external_id");
  while (st.step()) {
    const int64_t id = st.col_int(0);
    if (keep && !keep->count(id)) continue;
    nodes.push_back({id, st.col_text(1), st.col_text(2), st.col_text(3), st.col_text(4), st.col_text(5), st.col_int(6),
                     st.col_int(7)});
  }
  return nodes;
}

EdgeCursor::EdgeCursor(Db &db, const ExportOptions &o, const Keep &keep, const std::set<std::string> &wanted)
    : edges_(db,
             "SELECT e.id, s.id, t.id, s.external_id, t.external_id, s.name, t.name, r.name, e.directed, e.score, "
             "e.channels, e.evidence, "
             "CASE WHEN e.directed = 0 AND s.external_id > t.external_id THEN 1 ELSE 0 END AS swap, e.dataset_id "
             "FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target "
             "JOIN relations r ON r.id = e.relation WHERE e.score >= ?1 "
             "ORDER BY CASE WHEN swap = 1 THEN t.external_id ELSE s.external_id END, "
             "CASE WHEN swap = 1 THEN s.external_id ELSE t.external_id END, r.name, e.directed"),
      records_(db, "SELECT line, record, raw FROM edge_evidence WHERE edge_id = ? ORDER BY id"),
      keep_(keep),
      wanted_(wanted),
      cooc_(db) {
  edges_.bind(1, o.min_score);
}

bool EdgeCursor::next(EdgeRow &e) {
  while (edges_.step()) {
    const int64_t s = edges_.col_int(1), t = edges_.col_int(2);
    if (keep_ && (!keep_->count(s) || !keep_->count(t))) continue;
    e.relation = edges_.col_text(7);
    if (!wanted_.empty() && !wanted_.count(e.relation)) continue;
    const bool swap = edges_.col_int(12) != 0;
    e.id = edges_.col_int(0);
    e.source = edges_.col_text(swap ? 4 : 3);
    e.target = edges_.col_text(swap ? 3 : 4);
    e.source_name = edges_.col_text(swap ? 6 : 5);
    e.target_name = edges_.col_text(swap ? 5 : 6);
    e.directed = edges_.col_int(8) != 0;
    e.score = edges_.col_double(9);
    e.channels = edges_.col_null(10) ? std::string() : edges_.col_text(10);
    compact_edge_ = 0;
    if (edges_.col_is_blob(11)) {  // (a co-occurrence edge stored compactly: what its file gives)
      e.evidence.clear();
      const auto f = cooc_.facts(edges_.col_null(13) ? 0 : edges_.col_int(13), s, t, edges_.col_blob(11), edges_.col_bytes(11));
      if (f) {
        e.evidence = cooc_evidence_json(*f);
        compact_edge_ = e.id;
        compact_record_ = cooc_record_json(*f);
      }
    } else {
      e.evidence = edges_.col_null(11) ? std::string() : edges_.col_text(11);
    }
    return true;
  }
  return false;
}

json EdgeCursor::records(int64_t edge) {
  json rs = json::array();
  if (edge == compact_edge_) rs.push_back(json{{"line", 0}, {"record", json::parse(compact_record_)}, {"raw", ""}});
  records_.reset();
  records_.bind(1, edge);
  while (records_.step()) {
    auto r = json::parse(records_.col_view(1), nullptr, false);
    rs.push_back(json{{"line", records_.col_int(0)}, {"record", r.is_discarded() ? json(records_.col_text(1)) : r},
                      {"raw", records_.col_text(2)}});
  }
  records_.reset();
  return rs;
}

std::vector<int64_t> pmids_of(const json &evidence) {
  std::vector<int64_t> p;
  if (evidence.is_object() && evidence.contains("pmids") && evidence["pmids"].is_array())
    for (const auto &x : evidence["pmids"])
      if (x.is_number_integer()) p.push_back(x.get<int64_t>());
  return p;
}

}  // namespace detail

namespace {

using detail::EdgeCursor;
using detail::EdgeRow;
using detail::Keep;
using detail::NodeRow;
using detail::number;
using detail::pmids_of;
using detail::read_nodes;

// Every relation asked for must exist.
void check_relations(detail::Db &db, const std::set<std::string> &wanted) {
  if (wanted.empty()) return;
  std::set<std::string> have;
  Stmt st(db, "SELECT name FROM relations ORDER BY name");
  while (st.step()) have.insert(st.col_text(0));
  for (const auto &r : wanted)
    if (!have.count(r)) {
      std::string list;
      for (const auto &h : have) list += (list.empty() ? "" : ", ") + h;
      throw Error(ErrorCode::invalid_argument, "export: no relation '" + r + "' in the graph (" + list + ")");
    }
}


void write_jsonl(std::ostream &out, detail::Db &db, const std::vector<NodeRow> &nodes, EdgeCursor &edges,
                 ExportReport &rep) {
  out << dump_json(json{{"format", "grappi-jsonl"}, {"version", 1}, {"grappi", GRAPPI_VERSION_STRING}}) << '\n';
  Stmt aliases(db, "SELECT alias, source FROM aliases WHERE node_id = ? ORDER BY alias, source");
  for (const auto &n : nodes) {
    json j = {{"type", "node"},          {"id", n.external_id}, {"name", n.name}, {"label", n.label},
              {"annotation", n.annotation}, {"size", n.size},      {"taxon", n.taxon}};
    const auto attrs = json::parse(n.attributes, nullptr, false);
    j["attributes"] = attrs.is_object() ? attrs : json::object();
    json al = json::array();
    aliases.reset();
    aliases.bind(1, n.id);
    while (aliases.step()) al.push_back(json::array({aliases.col_text(0), aliases.col_text(1)}));
    aliases.reset();
    if (!al.empty()) j["aliases"] = std::move(al);
    out << dump_json(j) << '\n';
    ++rep.nodes;
  }
  EdgeRow e;
  while (edges.next(e)) {
    json j = {{"type", "edge"},         {"source", e.source},     {"target", e.target},
              {"relation", e.relation}, {"directed", e.directed}, {"score", e.score}};
    if (!e.channels.empty()) j["channels"] = json::parse(e.channels, nullptr, false);
    if (!e.evidence.empty()) j["evidence"] = json::parse(e.evidence, nullptr, false);
    json rs = edges.records(e.id);
    rep.records += rs.size();
    if (!rs.empty()) j["records"] = std::move(rs);
    out << dump_json(j) << '\n';
    ++rep.edges;
  }
}

void write_tsv(std::ostream &out, EdgeCursor &edges, ExportReport &rep) {
  out << "source\ttarget\tsource_name\ttarget_name\trelation\tscore\tdirected\tpmids\n";
  EdgeRow e;
  while (edges.next(e)) {
    // The edge's own PubMed ids, then those of its records not already listed.
    std::vector<int64_t> pmids = pmids_of(json::parse(e.evidence.empty() ? "{}" : e.evidence, nullptr, false));
    std::set<int64_t> more;
    for (const auto &r : edges.records(e.id))
      for (int64_t p : pmids_of(r["record"])) more.insert(p);
    for (int64_t p : more) pmids.push_back(p);
    std::string pm;
    for (int64_t p : pmids) pm += (pm.empty() ? "" : ",") + std::to_string(p);
    out << cell(e.source) << '\t' << cell(e.target) << '\t' << cell(e.source_name) << '\t' << cell(e.target_name) << '\t'
        << cell(e.relation) << '\t' << number(e.score) << '\t' << (e.directed ? "true" : "false") << '\t' << pm << '\n';
    ++rep.edges;
  }
}

void write_graphml(std::ostream &out, const std::vector<NodeRow> &nodes, EdgeCursor &edges, ExportReport &rep) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" "
         "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
         "xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
         "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n"
         "  <key id=\"external_id\" for=\"node\" attr.name=\"external_id\" attr.type=\"string\"/>\n"
         "  <key id=\"name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n"
         "  <key id=\"label\" for=\"node\" attr.name=\"label\" attr.type=\"string\"/>\n"
         "  <key id=\"annotation\" for=\"node\" attr.name=\"annotation\" attr.type=\"string\"/>\n"
         "  <key id=\"taxon\" for=\"node\" attr.name=\"taxon\" attr.type=\"long\"/>\n"
         "  <key id=\"relation\" for=\"edge\" attr.name=\"relation\" attr.type=\"string\"/>\n"
         "  <key id=\"score\" for=\"edge\" attr.name=\"score\" attr.type=\"double\"/>\n"
         "  <key id=\"directed\" for=\"edge\" attr.name=\"directed\" attr.type=\"boolean\"/>\n"
         "  <graph id=\"grappi\" edgedefault=\"undirected\">\n";
  for (const auto &n : nodes) {
    // Empty texts are left out (GraphML's way of saying "no value").
    out << "    <node id=\"" << markup_text(n.external_id) << "\"><data key=\"external_id\">" << markup_text(n.external_id)
        << "</data><data key=\"name\">" << markup_text(n.name) << "</data><data key=\"label\">" << markup_text(n.label) << "</data>";
    if (!n.annotation.empty()) out << "<data key=\"annotation\">" << markup_text(n.annotation) << "</data>";
    out << "<data key=\"taxon\">" << n.taxon << "</data></node>\n";
    ++rep.nodes;
  }
  EdgeRow e;
  while (edges.next(e)) {
    // A graph of directed and undirected edges: an undirected graph whose edges say whether they
    // are directed (source to target) in a "directed" attribute; GraphML's own per-edge
    // directed="true" in an undirected graph is refused by networkx.
    out << "    <edge id=\"e" << rep.edges << "\" source=\"" << markup_text(e.source) << "\" target=\"" << markup_text(e.target)
        << "\"><data key=\"relation\">" << markup_text(e.relation) << "</data><data key=\"score\">" << number(e.score)
        << "</data><data key=\"directed\">" << (e.directed ? "true" : "false") << "</data></edge>\n";
    ++rep.edges;
  }
  out << "  </graph>\n</graphml>\n";
}

}  // namespace

// The nodes an export keeps: the node list, the k-hop ball, or their intersection; none: all.
// (Resolves names and takes a snapshot, so it runs before the export takes the lock.)
static Keep selected_nodes(const KnowledgeGraph &g, const ExportOptions &o) {
  Keep keep;
  if (!o.nodes.empty()) {
    keep.emplace();
    for (const auto &n : o.nodes) keep->insert(g.resolve(n));
  }
  if (o.khop.empty()) return keep;
  const int64_t root = g.resolve(o.khop);
  const auto snap = g.snapshot();
  NeighborFilter f;
  f.relations = o.relations;
  f.min_score = o.min_score;
  std::unordered_set<int64_t> ball{root};
  std::vector<int64_t> level{root};
  for (std::size_t h = 0; h < o.hops && !level.empty(); ++h) {
    std::vector<int64_t> next;
    for (int64_t u : level)
      for (const auto &nb : snap->neighbors(u, f))
        if (ball.insert(nb.node).second) next.push_back(nb.node);
    level = std::move(next);
  }
  if (!keep) return ball;
  std::unordered_set<int64_t> both;
  for (int64_t id : *keep)
    if (ball.count(id)) both.insert(id);
  return both;
}

ExportReport KnowledgeGraph::export_graph(std::ostream &out, const ExportOptions &o) const {
  if (!(o.min_score >= 0 && o.min_score <= 1))
    throw Error(ErrorCode::invalid_argument, "export: min_score must lie in [0,1]");
  const Keep keep = selected_nodes(*this, o);
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto &db = impl_->db;
  const std::set<std::string> wanted(o.relations.begin(), o.relations.end());
  check_relations(db, wanted);
  ExportReport rep;
  EdgeCursor edges(db, o, keep, wanted);
  switch (o.format) {
    case ExportFormat::jsonl: write_jsonl(out, db, read_nodes(db, keep), edges, rep); break;
    case ExportFormat::tsv: write_tsv(out, edges, rep); break;  // edges only: no node is written
    case ExportFormat::graphml: write_graphml(out, read_nodes(db, keep), edges, rep); break;
    case ExportFormat::cx2: detail::write_cx2(out, db, read_nodes(db, keep), edges, rep); break;
    case ExportFormat::bel: detail::write_bel(out, db, read_nodes(db, keep), edges, rep); break;
  }
  out.flush();
  if (!out) throw Error(ErrorCode::io, "export: writing the output failed");
  return rep;
}

ExportReport KnowledgeGraph::export_graph(const std::string &path, const ExportOptions &options) const {
  ExportReport rep;
  detail::write_file_atomically(path, [&](std::ostream &out) { rep = export_graph(out, options); }, "export");
  return rep;
}

}  // namespace grappi
