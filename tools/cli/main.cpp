// grappi — the command-line front end. Holds no logic of its own: every command turns its flags
// into the C++ API's options and prints the API's results (one file per command).
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "common.hpp"

int main(int argc, char **argv) {
  CLI::App app{"grappi — knowledge-graph retrieval over protein interaction networks"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("grappi ") + GRAPPI_VERSION_STRING);
  app.option_defaults()->always_capture_default();  // --help shows every default
  using namespace grappi::cli;
  add_import(app);
  add_info(app);
  add_neighbors(app);
  add_resolve(app);
  add_edges(app);
  add_export(app);
  add_remove_dataset(app);
  add_embed(app);
  add_embed_parts(app);
  add_search(app);
  add_window(app);
  add_paths(app);
  add_khop(app);
  add_pagerank(app);
  add_pcst(app);
  add_retrieve(app);
  add_explore(app);
  add_ontology(app);
  add_enrich(app);
  add_ppi_enrichment(app);
  add_cluster(app);
  add_communities(app);
  add_bel(app);
  add_ground(app);
  add_extract(app);
  add_cooc(app);
  add_papers(app);
  add_hypothesize(app);
  add_train_ranker(app);
  add_ask(app);
  add_train_reader(app);
  add_serve(app);
  add_mcp(app);
  add_eval(app);
  check_numbers(app);
  try {
    app.parse(argc, argv);  // a command runs in its callback
  } catch (const ExitStatus &e) {
    return e.status;
  } catch (const CLI::ParseError &e) {
    // (a word no command or option has: said first, with the nearest names, whatever CLI11 found missing after it)
    if (e.get_exit_code() != 0)
      if (const std::string unknown = unknown_argument(app, argc, argv); !unknown.empty()) {
        std::cerr << "grappi: " << unknown << "\nRun with --help for more information.\n";
        return kExitUsage;
      }
    const int rc = app.exit(e);  // prints help, the version, or the parse error
    return rc == 0 ? 0 : kExitUsage;
  } catch (const grappi::Error &e) {
    std::cerr << "grappi: " << e.what() << '\n';
    switch (e.code()) {
      case grappi::ErrorCode::invalid_argument:
      case grappi::ErrorCode::not_found:
      case grappi::ErrorCode::ambiguous: return kExitUsage;
      default: return kExitFailure;
    }
  } catch (const std::bad_alloc &e) {
    // One line, saying what was being done (the library's own say it; else the command).
    std::string command = "grappi";
    for (const CLI::App *sub = &app; sub && !sub->get_subcommands().empty();) {
      sub = sub->get_subcommands().front();
      command += " " + sub->get_name();
    }
    std::cerr << "grappi: "
              << (std::strncmp(e.what(), "out of memory", 13) == 0 ? std::string(e.what()) : "out of memory while running " + command)
              << '\n';
    return kExitFailure;
  } catch (const std::exception &e) {
    std::cerr << "grappi: " << e.what() << '\n';
    return kExitFailure;
  }
  // What a command printed must have been written (a full disk, /dev/full, a closed pipe).
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "grappi: cannot write to standard output\n";
    return kExitFailure;
  }
  return 0;
}
