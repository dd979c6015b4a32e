// The C API (grappi.h): PCST.
#include "capi_internal.hpp"

using namespace grappi::capi;

extern "C" {

// ---- PCST -----------------------------------------------------------------------------------------

grappi_status grappi_pcst_options_init(grappi_pcst_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_pcst_options_init"); });
}

grappi_status grappi_pcst_solver_new(grappi_pcst_solver **out) {
  return guard([&]() -> grappi_status {
    require(out != nullptr, "grappi_pcst_solver_new", "out is NULL");
    *out = nullptr;
    *out = new grappi_pcst_solver();
    return GRAPPI_OK;
  });
}

void grappi_pcst_solver_free(grappi_pcst_solver *solver) { delete solver; }

grappi_status grappi_pcst_solver_solve(grappi_pcst_solver *solver, size_t num_nodes, const double *prizes, size_t num_edges,
                                       const int64_t *edges, const double *costs, const grappi_pcst_options *opts,
                                       grappi_pcst_result *out) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_pcst_solver_solve";
    require(solver != nullptr, fn, "solver is NULL");
    require(out != nullptr, fn, "out is NULL");
    const std::size_t bytes = bytes_of_version<grappi_pcst_result>(out->version, fn);
    check_pcst_arrays(num_nodes, prizes, num_edges, edges, costs, fn);
    const grappi::PcstOptions o = pcst_options(opts, fn);
    solver->result = solver->solver.solve(num_nodes, prizes, num_edges, edges, costs, o);
    const grappi::PcstResult &r = solver->result;
    grappi_pcst_result full;
    full.version = out->version;
    full.nodes = r.nodes.data();
    full.num_nodes = r.nodes.size();
    full.edges = r.edges.data();
    full.num_edges = r.edges.size();
    full.objective = r.objective;
    full.net_worth = r.net_worth;
    full.objective_before_improve = r.objective_before_improve;
    full.improve_rounds = r.improve_rounds;
    std::memcpy(static_cast<void *>(out), &full, bytes);
    return GRAPPI_OK;
  });
}

}  // extern "C"
