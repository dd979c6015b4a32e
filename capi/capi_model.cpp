// The C API (grappi.h): language models and run control.
#include "capi_internal.hpp"

using namespace grappi::capi;

extern "C" {

// ---- models and run control ----------------------------------------------------------------------

grappi_status grappi_model_options_init(grappi_model_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_model_options_init"); });
}

grappi_status grappi_model_new(const grappi_model_options *opts, grappi_model **out) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_model_new";
    require(out != nullptr, fn, "out is NULL");
    *out = nullptr;
    auto m = std::make_unique<grappi_model>();
    m->model = model_of(read_options(opts, fn), fn);
    *out = m.release();
    return GRAPPI_OK;
  });
}

void grappi_model_free(grappi_model *model) { delete model; }

grappi_status grappi_model_describe_json(const grappi_model *model, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_model_describe_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    require(model != nullptr && model->model != nullptr, fn, "model is NULL");
    *out_json = copy_out(grappi::dump_json(model->model->describe()));
    return GRAPPI_OK;
  });
}

grappi_status grappi_run_options_init(grappi_run_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_run_options_init"); });
}

grappi_status grappi_explore_options_init(grappi_explore_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_explore_options_init"); });
}

grappi_status grappi_graph_explore_json(grappi_graph *g, int64_t root, const char *query, const grappi_explore_options *opts,
                                        char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_explore_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const grappi_explore_options o = read_options(opts, fn);
    const grappi::ExploreOptions eo = explore_options(o, query, fn);
    grappi::AgentPipeline pipe(kg, run_model(o, fn));
    *out_json = copy_out(grappi::dump_json(grappi::to_json(pipe.explore(root, eo))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_explore_report(grappi_graph *g, int64_t root, const char *query, const grappi_explore_options *opts,
                                          char **out_json, char **out_html) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_explore_report";
    require(out_html != nullptr, fn, "out_html is NULL");
    *out_html = nullptr;
    if (out_json) *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const grappi_explore_options o = read_options(opts, fn);
    const grappi::ExploreOptions eo = explore_options(o, query, fn);
    grappi::AgentPipeline pipe(kg, run_model(o, fn));
    const grappi::ExploreResult r = pipe.explore(root, eo);
    copy_report(out_json ? grappi::dump_json(grappi::to_json(r)) : std::string(), grappi::to_html(r), out_json, out_html);
    return GRAPPI_OK;
  });
}

}  // extern "C"
