/* Links against the installed C API and solves a tiny PCST instance. */
#include <grappi/grappi.h>
#include <stdio.h>

int main(void) {
  double prizes[3] = {0, 5, 6}, costs[2] = {3, 4}, objective = 0;
  int64_t edges[4] = {0, 1, 1, 2}, nodes[3], sel[2];
  size_t nn = 0, ne = 0;
  if (grappi_pcst_solve(3, prizes, 2, edges, costs, -1, 1, "gw", nodes, &nn, sel, &ne, &objective) != GRAPPI_OK) {
    fprintf(stderr, "error: %s\n", grappi_last_error_message());
    return 1;
  }
  printf("grappi %s: %zu nodes, %zu edges, objective %.1f\n", grappi_version_string(), nn, ne, objective);
  return (nn == 2 && ne == 1) ? 0 : 1;
}
