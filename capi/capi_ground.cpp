// The C API (grappi.h): ground.
#include "capi_internal.hpp"

using namespace grappi::capi;

extern "C" {

// ---- ground ---------------------------------------------------------------------------------------

grappi_status grappi_ground_options_init(grappi_ground_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_ground_options_init"); });
}

grappi_status grappi_graph_ground_json(grappi_graph *g, const char *text_in, const char *protein_a, const char *protein_b,
                                       const grappi_ground_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_ground_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string body = text(text_in, fn, "text"), a = text(protein_a, fn, "protein_a"), b = text(protein_b, fn, "protein_b");
    const grappi_ground_options o = read_options(opts, fn);
    grappi::GroundingOptions go;
    go.strategy = grappi::grounding_strategy(text_or(o.strategy, "pagerank", fn, "strategy"));
    go.root = text_or(o.root, go.root, fn, "root");
    go.ontology = text_or(o.ontology, "", fn, "ontology");
    if (o.relation_count)
      go.relations = string_array(o.relations, o.relation_count, fn, "relations", "relation_count", "a relation");
    go.batch = o.batch;
    go.chunk_size = o.chunk_size;
    go.chunk_overlap = o.chunk_overlap;
    go.patience = o.patience;
    go.lookahead = o.lookahead;
    go.threshold = o.threshold;
    go.rag_k = o.rag_k;
    go.seed = o.seed;
    set_budget(go, o.budget);
    go.dry_run = o.budget.dry_run != 0;
    set_run(go, read_options(o.run, fn));
    const auto model = run_model(o, fn);
    const grappi::Grounder grounder(kg, *model, go);
    if (go.progress) go.progress("ground", 0, 1);
    const grappi::GroundingResult r = grounder.ground(body, a, b);
    if (go.progress) go.progress("ground", 1, 1);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(r)));
    return GRAPPI_OK;
  });
}

}  // extern "C"
