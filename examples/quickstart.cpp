// The C++ quick start of docs/embedding.md (compiled in CI so that it cannot drift).
// Usage: example_quickstart DB_FILE STRING_INFO_FILE STRING_LINKS_FILE [PROTEIN]
#include <grappi/grappi.hpp>
#include <iostream>

int main(int argc, char **argv) {
  if (argc < 4) {
    std::cerr << "usage: " << argv[0] << " DB INFO LINKS [PROTEIN]\n";
    return 2;
  }
  try {
    grappi::KnowledgeGraph kg(argv[1]);  // creates the SQLite file when missing
    grappi::ImportOptions options;
    options.min_score = 400;  // STRING medium confidence and above
    auto report = kg.import_string({{argv[2], grappi::StringFormat::info},
                                    {argv[3], grappi::StringFormat::detect}},
                                   options);
    std::cout << "imported " << report.files.back().edges_created << " edges\n";

    int64_t protein = kg.resolve(argc > 4 ? argv[4] : "MAPT");  // case-insensitive, aliases too
    auto snapshot = kg.snapshot();  // immutable CSR, shareable across threads
    grappi::NeighborFilter filter;
    filter.min_score = 0.7;  // STRING high confidence
    for (const grappi::Neighbor &n : snapshot->neighbors(protein, filter))
      std::cout << snapshot->name(*snapshot->index_of(n.node)) << '\t' << n.score << '\n';
  } catch (const grappi::Error &e) {
    std::cerr << "error (" << grappi::to_string(e.code()) << "): " << e.what() << '\n';
    return 1;
  }
  return 0;
}
