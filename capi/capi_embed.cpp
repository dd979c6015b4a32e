// The C API (grappi.h): embeddings and search.
#include "capi_internal.hpp"

using namespace grappi::capi;

extern "C" {

// ---- embeddings and search ------------------------------------------------------------------------

grappi_status grappi_embed_options_init(grappi_embed_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_embed_options_init"); });
}

grappi_status grappi_graph_embed(grappi_graph *g, const grappi_embed_options *opts, size_t *out_embedded) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_embed";
    if (out_embedded) *out_embedded = 0;
    auto &kg = graph_of(g, fn);
    const grappi_embed_options o = read_options(opts, fn);
    grappi::EmbedderSpec spec;
    spec.kind = text_or(o.embedder, "lsa", fn, "embedder");
    spec.dimension = o.dimension;
    spec.name = text_or(o.model, "", fn, "model");
    spec.http.model = spec.name;
    spec.http.base_url = text_or(o.base_url, spec.http.base_url, fn, "base_url");
    spec.http.api_key_env = text_or(o.api_key_env, spec.http.api_key_env, fn, "api_key_env");
    if (spec.kind == "callback") {
      require(o.callback != nullptr, fn, "embedder \"callback\" needs a callback");
      const grappi_embed_fn cb = o.callback;
      void *user = o.user_data;
      const std::size_t dim = o.dimension;
      spec.callback = [cb, user, dim](const std::vector<std::string> &texts) {
        std::vector<const char *> ptrs;
        for (const auto &t : texts) ptrs.push_back(t.c_str());
        grappi::Embeddings out;
        out.dim = dim;
        out.data.assign(texts.size() * dim, 0.0f);
        const int32_t rc = cb(user, ptrs.data(), ptrs.size(), out.data.data(), dim);
        if (rc != 0)
          throw grappi::Error(grappi::ErrorCode::invalid_argument, "the embedding callback returned status " + std::to_string(rc));
        return out;
      };
    }
    auto embedder = grappi::make_embedder(kg, spec);
    const auto report = grappi::embed_graph(kg, *embedder);
    if (out_embedded) *out_embedded = report.embedded;
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_embed_plan_json(grappi_graph *g, const grappi_embed_options *opts, const char *embedder_path,
                                           char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_embed_plan_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string path = text(embedder_path, fn, "embedder_path");
    const grappi_embed_options o = read_options(opts, fn);
    grappi::EmbedderSpec spec;
    spec.kind = text_or(o.embedder, "lsa", fn, "embedder");
    require(spec.kind != "callback", fn, "a callback embedder cannot be shared with other processes");
    spec.dimension = o.dimension;
    spec.http.model = text_or(o.model, "", fn, "model");
    spec.http.base_url = text_or(o.base_url, spec.http.base_url, fn, "base_url");
    spec.http.api_key_env = text_or(o.api_key_env, spec.http.api_key_env, fn, "api_key_env");
    const auto embedder = grappi::make_embedder(kg, spec);
    grappi::save_embedder(*embedder, path);
    *out_json = copy_out(grappi::dump_json({{"model", embedder->model()}, {"kind", embedder->kind()},
                                            {"dimension", embedder->dimension()}, {"pending", grappi::embed_pending(kg, embedder->model())},
                                            {"path", path}}));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_embed_part_json(grappi_graph *g, const char *embedder_path, size_t part, size_t parts,
                                           const char *out_path, const char *provenance, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_embed_part_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const auto embedder = grappi::load_embedder(text(embedder_path, fn, "embedder_path"));
    const grappi::EmbedPartReport r =
        grappi::embed_part(kg, *embedder, part, parts, text(out_path, fn, "out_path"),
                           provenance ? text(provenance, fn, "provenance") : std::string());
    *out_json = copy_out(grappi::dump_json({{"path", r.path}, {"model", r.model}, {"part", r.part}, {"parts", r.parts},
                                            {"pending", r.pending}, {"embedded", r.embedded}, {"dimension", r.dimension},
                                            {"seconds", r.seconds}}));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_embed_merge_json(grappi_graph *g, const char *embedder_path, const char *const *parts,
                                            size_t part_count, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_embed_merge_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::vector<std::string> files = string_array(parts, part_count, fn, "parts", "part_count", "a vectors file");
    const auto embedder = grappi::load_embedder(text(embedder_path, fn, "embedder_path"));
    const grappi::EmbedPartsReport r = grappi::embed_from_parts(kg, *embedder, files);
    nlohmann::json provenance = nlohmann::json::array();
    for (const std::string &p : r.provenance) provenance.push_back(nlohmann::json::parse(p));
    const grappi::EmbedReport &e = r.embed;
    *out_json = copy_out(grappi::dump_json({{"model", e.model},
                                            {"dimension", e.dimension},
                                            {"embedded", e.embedded},
                                            {"unchanged", e.unchanged},
                                            {"removed", e.removed},
                                            {"from_parts", r.from_parts},
                                            {"embedded_here", r.embedded_here},
                                            {"neighbor_ranking_entries", e.neighbor_ranking_entries},
                                            {"warning", e.warning},
                                            {"seconds", e.seconds},
                                            {"provenance", std::move(provenance)}}));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_search(grappi_graph *g, const char *query, size_t k, int64_t *out_ids, float *out_scores,
                                  size_t capacity, size_t *out_count) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_search";
    auto &kg = graph_of(g, fn);
    require(out_count != nullptr, fn, "out_count is NULL");
    *out_count = 0;
    require(capacity == 0 || out_ids, fn, "out_ids is NULL but capacity > 0");
    const auto q = grappi::query_vector(kg, text(query, fn, "text"));
    return write_hits(grappi::graph_vectors(kg)->search(q.data(), k), out_ids, out_scores, capacity, out_count);
  });
}

grappi_status grappi_graph_search_vector(grappi_graph *g, const float *query, size_t dim, size_t k, int64_t *out_ids,
                                         float *out_scores, size_t capacity, size_t *out_count) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_search_vector";
    auto &kg = graph_of(g, fn);
    require(out_count != nullptr, fn, "out_count is NULL");
    *out_count = 0;
    require(query != nullptr, fn, "query is NULL");
    require(capacity == 0 || out_ids, fn, "out_ids is NULL but capacity > 0");
    auto v = grappi::graph_vectors(kg);
    if (dim != v->dim())
      invalid(std::string(fn) + ": query has dimension " + std::to_string(dim) + ", the model " + std::to_string(v->dim()));
    return write_hits(v->search(query, k), out_ids, out_scores, capacity, out_count);
  });
}

}  // extern "C"
