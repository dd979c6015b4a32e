// The C API (grappi.h): retrieval: windows, paths, k-hop, PageRank, PCST question retrieval and BEL validation.
#include "capi_internal.hpp"

using namespace grappi::capi;

extern "C" {

// ---- retrieval ------------------------------------------------------------------------------------

grappi_status grappi_window_options_init(grappi_window_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_window_options_init"); });
}

grappi_status grappi_graph_window_json(grappi_graph *g, int64_t root, const grappi_window_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_window_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const grappi_window_options o = read_options(opts, fn);
    require(o.k_count == 0 || o.k, fn, "k is NULL but k_count > 0");
    grappi::WindowOptions wo;
    if (o.k_count) wo.k.assign(o.k, o.k + o.k_count);
    wo.depth = o.depth;
    wo.window = o.window;
    wo.filter.min_score = o.min_score;
    const auto r = grappi::graph_retriever(kg);
    const auto w = r->window(root, wo);
    auto j = grappi::to_json(r->graph(), w);
    if (!o.max_path_length) {
      *out_json = copy_out(grappi::dump_json(j));
      return GRAPPI_OK;
    }
    grappi::PathOptions po;
    po.max_length = o.max_path_length;
    po.max_paths = o.max_paths;
    const auto paths = r->window_paths(w, po);
    j["paths_truncated"] = paths.truncated;
    // (the paths written as text, one at a time, after the rest: a million paths as one JSON
    // tree took gigabytes)
    std::string text = grappi::dump_json(j);
    text.pop_back();  // the object's '}'
    text += ",\"paths\":";
    text += grappi::paths_json_text(r->graph(), paths);
    text += '}';
    *out_json = copy_out(text);
    return GRAPPI_OK;
  });
}

namespace {

// The paths between two nodes as JSON: Yen's k shortest, or every shortest one.
grappi_status paths_json(grappi_graph *g, const char *fn, int64_t from, int64_t to, const grappi::ShortestPathOptions &o,
                         bool every_shortest, char **out_json) {
  return guard([&]() -> grappi_status {
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    const auto r = grappi::graph_retriever(graph_of(g, fn));
    const auto paths = every_shortest ? r->all_shortest_paths(from, to, o) : r->shortest_paths(from, to, o);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(r->graph(), paths)));
    return GRAPPI_OK;
  });
}

}  // namespace

grappi_status grappi_graph_paths_json(grappi_graph *g, int64_t from, int64_t to, size_t max_length, size_t k,
                                      int32_t weighted, char **out_json) {
  grappi::ShortestPathOptions o;
  o.max_length = max_length;
  o.k = k;
  o.weighted = weighted != 0;
  return paths_json(g, "grappi_graph_paths_json", from, to, o, false, out_json);
}

grappi_status grappi_graph_all_shortest_paths_json(grappi_graph *g, int64_t from, int64_t to, size_t max_length,
                                                   size_t k, int32_t skip_direct, char **out_json) {
  grappi::ShortestPathOptions o;
  o.max_length = max_length;
  o.k = k;
  o.skip_direct = skip_direct != 0;
  return paths_json(g, "grappi_graph_all_shortest_paths_json", from, to, o, true, out_json);
}

grappi_status grappi_graph_khop_json(grappi_graph *g, const char *question, size_t seeds, size_t hops, size_t degree_cap,
                                     char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_khop_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const auto q = grappi::query_vector(kg, text(question, fn, "question"));
    grappi::KhopOptions o;
    o.hops = hops;
    o.degree_cap = degree_cap;
    const auto r = grappi::graph_retriever(kg);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(r->graph(), r->question_khop(q, seeds, o))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_edges_json(grappi_graph *g, int64_t a, int64_t b, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_edges_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    nlohmann::json out = nlohmann::json::array();
    for (const auto &e : kg.edges_between(a, b)) out.push_back(grappi::to_json(e));
    *out_json = copy_out(grappi::dump_json(out));
    return GRAPPI_OK;
  });
}

grappi_status grappi_enrich_options_init(grappi_enrich_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_enrich_options_init"); });
}

grappi_status grappi_graph_enrich_json(grappi_graph *g, const char *const *proteins, size_t protein_count,
                                       const grappi_enrich_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_enrich_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const grappi_enrich_options o = read_options(opts, fn);
    const auto names = string_array(proteins, protein_count, fn, "proteins", "protein_count", "a protein");
    grappi::EnrichmentOptions eo;
    eo.categories = string_array(o.categories, o.category_count, fn, "categories", "category_count", "a category");
    eo.exclude_evidence = string_array(o.exclude_evidence, o.exclude_evidence_count, fn, "exclude_evidence",
                                       "exclude_evidence_count", "an evidence code");
    eo.background = grappi::enrichment_background(text_or(o.background, "annotated", fn, "background"));
    const auto background = string_array(o.background_proteins, o.background_protein_count, fn, "background_proteins",
                                         "background_protein_count", "a background protein");
    require(eo.background == grappi::EnrichmentBackground::given || background.empty(), fn,
            "background_proteins given, but background is not \"given\"");
    require(eo.background != grappi::EnrichmentBackground::given || !background.empty(), fn,
            "background is \"given\" but background_proteins is empty");
    eo.min_term_size = o.min_term_size;
    eo.max_term_size = o.max_term_size;
    eo.max_fdr = o.max_fdr;
    *out_json = copy_out(grappi::dump_json(grappi::to_json(kg, grappi::enrich_names(kg, names, eo, background))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_cluster_options_init(grappi_cluster_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_cluster_options_init"); });
}

grappi_status grappi_graph_cluster_json(grappi_graph *g, const char *const *proteins, size_t protein_count,
                                        const grappi_cluster_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_cluster_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const grappi_cluster_options o = read_options(opts, fn);
    // (no proteins: the whole network)
    const auto names = protein_count == 0 ? std::vector<std::string>{}
                                          : string_array(proteins, protein_count, fn, "proteins", "protein_count", "a protein");
    const grappi::ClusterOptions co = cluster_options_of(o, fn);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(kg, grappi::cluster_names(kg, names, co))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_build_communities_json(grappi_graph *g, const char *name, const grappi_cluster_options *opts,
                                                  const grappi_model *model, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_build_communities_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    grappi::CommunityOptions co;
    co.name = name ? name : "default";
    if (opts) co.cluster = cluster_options_of(read_options(opts, fn), fn);
    require(model == nullptr || model->model != nullptr, fn, "model is not a model grappi_model_new made");
    grappi::ExtractiveModel offline;
    grappi::LanguageModel &m = model ? *model->model : static_cast<grappi::LanguageModel &>(offline);
    const grappi::CommunitySet set = grappi::build_communities(kg, m, co);
    grappi::store_communities(kg, set);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(set)));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_communities_json(grappi_graph *g, const char *name, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_communities_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string set = name ? name : "default";
    const std::optional<grappi::CommunitySet> s = grappi::load_communities(kg, set);
    if (!s) throw grappi::Error(grappi::ErrorCode::not_found, std::string(fn) + ": no community reports named '" + set + "' are stored");
    *out_json = copy_out(grappi::dump_json(grappi::to_json(*s)));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_ppi_enrichment_json(grappi_graph *g, const char *const *proteins, size_t protein_count,
                                               double min_score, const char *const *relations, size_t relation_count,
                                               char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_ppi_enrichment_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const auto names = string_array(proteins, protein_count, fn, "proteins", "protein_count", "a protein");
    grappi::PpiEnrichmentOptions o;
    o.min_score = min_score;
    o.relations = string_array(relations, relation_count, fn, "relations", "relation_count", "a relation");
    *out_json = copy_out(grappi::dump_json(grappi::to_json(kg, grappi::ppi_enrichment_names(kg, names, o))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_ontology_json(grappi_graph *g, const char *question, const char *term, const char *other,
                                         const char *const *relations, size_t relation_count, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_ontology_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    grappi::OntologyQuestion q;
    q.kind = grappi::ontology_question_kind(text(question, fn, "question"));
    q.term = text_or(term, "", fn, "term");
    if (q.kind == grappi::OntologyQuestion::Kind::term) q.root = text_or(other, "", fn, "other");
    else q.other = text_or(other, "", fn, "other");
    if (relation_count) q.relations = string_array(relations, relation_count, fn, "relations", "relation_count", "a relation");
    *out_json = copy_out(grappi::dump_json(grappi::ontology_json(kg, q)));
    return GRAPPI_OK;
  });
}

}  // extern "C"

namespace {

// grappi_bel_validate (with_graph false) and grappi_graph_bel_validate.
grappi_status bel_validate(const char *fn, bool with_graph, grappi_graph *g, const char *bel, uint32_t flags,
                           char **out_json, size_t *out_errors) {
  return guard([&]() -> grappi_status {
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    if (out_errors) *out_errors = 0;
    require((flags & ~(GRAPPI_BEL_LONG_FORM | GRAPPI_BEL_ALLOW_UNKNOWN_NAMESPACES)) == 0, fn, "unknown flags");
    grappi::BelOptions options;
    options.long_form = (flags & GRAPPI_BEL_LONG_FORM) != 0;
    options.unknown_namespace_is_error = (flags & GRAPPI_BEL_ALLOW_UNKNOWN_NAMESPACES) == 0;
    std::istringstream in(text(bel, fn, "text"));
    if (with_graph) options.resolver = graph_of(g, fn).bel_resolver();
    const grappi::BelDocument doc = grappi::read_bel_script(in, options);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(doc, options.long_form)));
    if (out_errors) *out_errors = doc.errors();
    return GRAPPI_OK;
  });
}

}  // namespace

extern "C" {

grappi_status grappi_bel_validate(const char *bel, uint32_t flags, char **out_json, size_t *out_errors) {
  return bel_validate("grappi_bel_validate", false, nullptr, bel, flags, out_json, out_errors);
}

grappi_status grappi_graph_bel_validate(grappi_graph *g, const char *bel, uint32_t flags, char **out_json,
                                        size_t *out_errors) {
  return bel_validate("grappi_graph_bel_validate", true, g, bel, flags, out_json, out_errors);
}

grappi_status grappi_graph_pagerank(grappi_graph *g, const int64_t *seeds, size_t seed_count, double damping,
                                    int64_t *out_ids, double *out_scores, size_t capacity, size_t *out_count) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_pagerank";
    auto &kg = graph_of(g, fn);
    require(out_count != nullptr, fn, "out_count is NULL");
    *out_count = 0;
    require(seed_count == 0 || seeds, fn, "seeds is NULL but seed_count > 0");
    require(capacity == 0 || out_ids, fn, "out_ids is NULL but capacity > 0");
    grappi::PageRankOptions o;
    o.damping = damping;
    if (seed_count) o.seeds.assign(seeds, seeds + seed_count);
    const auto r = grappi::graph_retriever(kg);
    const auto top = r->pagerank(o).top(r->graph(), capacity);
    for (std::size_t i = 0; i < top.size(); ++i) {
      out_ids[i] = top[i].id;
      if (out_scores) out_scores[i] = top[i].score;
    }
    *out_count = top.size();
    return GRAPPI_OK;
  });
}

grappi_status grappi_retrieve_options_init(grappi_retrieve_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_retrieve_options_init"); });
}

grappi_status grappi_graph_retrieve_json(grappi_graph *g, const char *question, const grappi_retrieve_options *opts,
                                         char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_retrieve_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    const auto res = retrieve(g, question, retrieve_options(opts, fn), fn);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(grappi::graph_retriever(*g->kg)->graph(), res)));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_retrieve_csv(grappi_graph *g, const char *question, const grappi_retrieve_options *opts,
                                        char **out_csv) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_retrieve_csv";
    require(out_csv != nullptr, fn, "out_csv is NULL");
    *out_csv = nullptr;
    const auto res = retrieve(g, question, retrieve_options(opts, fn), fn);
    *out_csv = copy_out(retrieve_csv(*g->kg, res));
    return GRAPPI_OK;
  });
}

}  // extern "C"
