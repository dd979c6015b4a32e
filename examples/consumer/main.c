/* Links against the installed C API and solves a tiny PCST instance with a reusable solver. */
#include <grappi/grappi.h>
#include <stdio.h>

int main(void) {
  double prizes[3] = {0, 5, 6}, costs[2] = {3, 4};
  int64_t edges[4] = {0, 1, 1, 2};
  grappi_pcst_options opts = GRAPPI_PCST_OPTIONS_INIT;
  grappi_pcst_result result = GRAPPI_PCST_RESULT_INIT;
  grappi_pcst_solver *solver = NULL;
  int ok;
  if (grappi_pcst_solver_new(&solver) != GRAPPI_OK ||
      grappi_pcst_solver_solve(solver, 3, prizes, 2, edges, costs, &opts, &result) != GRAPPI_OK) {
    fprintf(stderr, "error: %s\n", grappi_last_error_message());
    grappi_pcst_solver_free(solver);
    return 1;
  }
  printf("grappi %s: %zu nodes, %zu edges, objective %.1f\n", grappi_version_string(), result.num_nodes,
         result.num_edges, result.objective);
  ok = result.num_nodes == 2 && result.num_edges == 1;
  grappi_pcst_solver_free(solver); /* result's arrays live in the solver: read them before */
  return ok ? 0 : 1;
}
