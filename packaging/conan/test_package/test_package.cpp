// Builds a two-protein graph in memory and solves a PCST instance: links and runs.
#include <cstdio>
#include <grappi/grappi.hpp>

int main() {
  grappi::PCSTSolver solver;
  auto r = solver.solve({0, 5, 6}, {{0, 1}, {1, 2}}, {3, 4}, {});
  std::printf("grappi %s: PCST objective %.1f\n", GRAPPI_VERSION_STRING, r.objective);
  return r.nodes.size() == 2 ? 0 : 1;
}
