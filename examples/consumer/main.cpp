// Links against the installed C++ library.
#include <grappi/grappi.hpp>
#include <iostream>

int main() {
  grappi::PCSTSolver solver;
  auto r = solver.solve({0, 5, 6}, {{0, 1}, {1, 2}}, {3, 4});
  std::cout << "grappi " << GRAPPI_VERSION_STRING << ": objective " << r.objective << '\n';
  return r.nodes.size() == 2 ? 0 : 1;
}
