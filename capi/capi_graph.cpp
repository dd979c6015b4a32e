// The C API (grappi.h): the knowledge graph: open, import, export, look-ups, enrichment and clusters.
#include "capi_internal.hpp"

using namespace grappi::capi;

extern "C" {

// ---- the knowledge graph --------------------------------------------------------------------------

grappi_status grappi_open_options_init(grappi_open_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_open_options_init"); });
}

grappi_status grappi_graph_open(const char *path, const grappi_open_options *opts, grappi_graph **out) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_open";
    require(out != nullptr, fn, "out is NULL");
    *out = nullptr;
    const std::string p = text(path, fn, "path");
    const grappi_open_options o = read_options(opts, fn);
    grappi::OpenOptions oo;
    oo.read_only = o.read_only != 0;
    oo.create = o.create != 0;
    if (o.busy_timeout_ms > 0) oo.busy_timeout_ms = o.busy_timeout_ms;
    auto h = std::make_unique<grappi_graph>();
    h->kg = std::make_unique<grappi::KnowledgeGraph>(p, oo);
    *out = h.release();
    return GRAPPI_OK;
  });
}

void grappi_graph_free(grappi_graph *g) { delete g; }

}  // extern "C"

namespace {

// grappi_graph_import (no options, no report) and grappi_graph_import_with; fn names the one called.
grappi_status import_file(const char *fn, grappi_graph *g, const char *kind, const char *path,
                          const grappi_import_options *opts, char **out_report_json) {
  return guard([&]() -> grappi_status {
    if (out_report_json) *out_report_json = nullptr;
    auto &kg = graph_of(g, fn);
    const grappi_import_options in = read_options(opts, fn);
    grappi::ImportOptions o;
    o.min_score = in.min_score;
    o.skip_bad_lines = in.skip_bad_lines != 0;
    o.max_bad_examples = in.max_bad_examples;
    o.max_rows = in.max_rows;
    o.taxon = in.taxon;
    grappi::EdgeListOptions &e = o.edges;
    e.source_column = text_or(in.source_column, e.source_column, fn, "source_column");
    e.target_column = text_or(in.target_column, e.target_column, fn, "target_column");
    e.score_column = text_or(in.score_column, e.score_column, fn, "score_column");
    e.score_scale = in.score_scale;
    e.relation_column = text_or(in.relation_column, e.relation_column, fn, "relation_column");
    e.relation = text_or(in.relation, e.relation, fn, "relation");
    e.directed = in.directed != 0;
    require(in.header >= -1 && in.header <= 1, fn, "header must be -1 (detect), 0 or 1");
    if (in.header >= 0) e.header = in.header == 1;
    e.label = text_or(in.label, e.label, fn, "label");
    // Only what the C type adds: the int32 must be a byte before it becomes a char (0x109 is not
    // a tab); the library checks which bytes are separators.
    require(in.separator >= 0 && in.separator <= 127, fn, "separator must be '\\t', ',', ' ' or 0 (detect)");
    e.separator = static_cast<char>(in.separator);
    const auto report = kg.import({grappi::SourceFile{text(path, fn, "path"), text_or(kind, "detect", fn, "kind")}}, o);
    if (out_report_json) *out_report_json = copy_out(grappi::dump_json(grappi::to_json(report)));
    return GRAPPI_OK;
  });
}

}  // namespace

extern "C" {

grappi_status grappi_graph_import(grappi_graph *g, const char *kind, const char *path) {
  return import_file("grappi_graph_import", g, kind, path, nullptr, nullptr);
}

grappi_status grappi_import_options_init(grappi_import_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_import_options_init"); });
}

grappi_status grappi_graph_import_with(grappi_graph *g, const char *kind, const char *path,
                                       const grappi_import_options *opts, char **out_report_json) {
  return import_file("grappi_graph_import_with", g, kind, path, opts, out_report_json);
}

grappi_status grappi_graph_export(grappi_graph *g, const char *format, const char *path, uint64_t *out_nodes,
                                  uint64_t *out_edges) {
  return grappi_graph_export_selection(g, format, path, nullptr, out_nodes, out_edges, nullptr);
}

grappi_status grappi_export_options_init(grappi_export_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_export_options_init"); });
}

grappi_status grappi_graph_export_selection(grappi_graph *g, const char *format, const char *path,
                                            const grappi_export_options *opts, uint64_t *out_nodes, uint64_t *out_edges,
                                            uint64_t *out_not_written) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_export_selection";
    for (uint64_t *out : {out_nodes, out_edges, out_not_written})
      if (out) *out = 0;
    auto &kg = graph_of(g, fn);
    const grappi_export_options sel = read_options(opts, fn);
    grappi::ExportOptions o;
    o.format = grappi::export_format_from_name(text(format, fn, "format"));
    o.relations = string_array(sel.relations, sel.relation_count, fn, "relations", "relation_count", "a relation");
    o.nodes = string_array(sel.nodes, sel.node_count, fn, "nodes", "node_count", "a node");
    o.min_score = sel.min_score;
    if (sel.khop) o.khop = text(sel.khop, fn, "khop");
    o.hops = sel.hops;
    const auto rep = kg.export_graph(text(path, fn, "path"), o);
    if (out_nodes) *out_nodes = rep.nodes;
    if (out_edges) *out_edges = rep.edges;
    if (out_not_written) *out_not_written = rep.not_written;
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_resolve(grappi_graph *g, const char *name, int64_t *out_id) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_resolve";
    auto &kg = graph_of(g, fn);
    const std::string n = text(name, fn, "name");
    require(out_id != nullptr, fn, "out_id is NULL");
    *out_id = kg.resolve(n);
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_complete_json(grappi_graph *g, const char *prefix, size_t limit, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_complete_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    require(prefix != nullptr, fn, "prefix is NULL");
    require(limit <= 100, fn, "limit must be at most 100");
    nlohmann::json out = nlohmann::json::array();
    for (const auto &m : kg.complete(prefix, limit ? limit : 10))
      out.push_back({{"id", m.id}, {"name", m.name}, {"external_id", m.external_id}, {"matched", m.matched}, {"matched_by", m.matched_by}});
    *out_json = copy_out(grappi::dump_json(nlohmann::json{{"completions", out}}));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_neighbors(grappi_graph *g, int64_t id, double min_score, int64_t *out_ids, double *out_scores,
                                     size_t capacity, size_t *out_count) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_neighbors";
    auto &kg = graph_of(g, fn);
    require(out_count != nullptr, fn, "out_count is NULL");
    *out_count = 0;
    require(capacity == 0 || out_ids, fn, "out_ids is NULL but capacity > 0");
    require(min_score == min_score, fn, "min_score is NaN");
    grappi::NeighborFilter f;
    f.min_score = min_score;
    const auto list = kg.snapshot()->neighbors(id, f);
    *out_count = list.size();
    if (capacity < list.size())
      return set_error(GRAPPI_EBUFS, std::string(fn) + ": " + std::to_string(list.size()) +
                                         " neighbors do not fit in capacity " + std::to_string(capacity));
    for (std::size_t i = 0; i < list.size(); ++i) {
      out_ids[i] = list[i].node;
      if (out_scores) out_scores[i] = list[i].score;
    }
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_neighbors_json(grappi_graph *g, const char *protein, int64_t id, double min_score,
                                          const char *const *relations, size_t relation_count, size_t limit, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_neighbors_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    require(min_score == min_score, fn, "min_score is NaN");
    const int64_t node = protein ? kg.resolve(text(protein, fn, "protein")) : id;
    grappi::NeighborFilter f;
    f.min_score = min_score;
    f.relations = string_array(relations, relation_count, fn, "relations", "relation_count", "a relation");
    const auto snap = kg.snapshot();
    *out_json = copy_out(grappi::dump_json(grappi::to_json(*snap, node, grappi::strongest_neighbors(*snap, node, f, limit))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_counts(grappi_graph *g, int64_t *out_nodes, int64_t *out_edges) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_counts";
    auto &kg = graph_of(g, fn);
    require(out_nodes && out_edges, fn, "an out pointer is NULL");
    auto snap = kg.snapshot();
    *out_nodes = static_cast<int64_t>(snap->node_count());
    *out_edges = static_cast<int64_t>(snap->edge_count());
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_node_name(grappi_graph *g, int64_t id, char **out_name) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_node_name";
    require(out_name != nullptr, fn, "out_name is NULL");
    *out_name = nullptr;
    auto n = graph_of(g, fn).node(id);
    if (!n) return set_error(GRAPPI_ENOTFOUND, std::string(fn) + ": no node with id " + std::to_string(id));
    *out_name = copy_out(n->name);
    return GRAPPI_OK;
  });
}

}  // extern "C"
