// grappi pcst: solve a prize-collecting Steiner tree instance file.
#include <chrono>
#include <iostream>
#include <memory>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct PcstArgs {
  std::string instance, pruning = "gw";
  int64_t root = -1;
  int clusters = 1;
  bool json = false, improve = false, reference_order = false;
};

void run(const PcstArgs &a) {
  const PcstInstance inst = read_pcst_instance(a.instance);
  PcstOptions o;
  o.root = a.root;
  o.num_clusters = a.clusters;
  o.pruning = pruning_from_name(a.pruning);
  o.improve = a.improve;
  o.reference_order = a.reference_order;
  PCSTSolver solver;
  const auto t0 = std::chrono::steady_clock::now();
  const PcstResult r = solver.solve(inst.prizes, inst.edges, inst.costs, o);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (a.json) {
    auto j = to_json(r, o);
    j["solve_seconds"] = secs;  // the solver only, the instance already loaded
    std::cout << j.dump() << '\n';
    return;
  }
  std::cout << "objective " << r.objective << "\nnet worth " << r.net_worth << "\nnodes " << r.nodes.size() << " of "
            << inst.prizes.size() << "\nedges " << r.edges.size() << " of " << inst.edges.size() << "\nsolve "
            << fmt(secs * 1000, 3) << " ms (" << to_string(o.pruning) << (o.improve ? " + improve" : "")
            << (o.reference_order ? ", reference order" : "") << ")\n";
  if (o.improve) std::cout << "before improve " << r.objective_before_improve << " (" << r.improve_rounds << " improving rounds)\n";
}

}  // namespace

void add_pcst(CLI::App &app) {
  auto a = std::make_shared<PcstArgs>();
  auto *c = app.add_subcommand("pcst", "Solve a prize-collecting Steiner tree instance (pcst-instance v1, plain or gzip)");
  c->add_option("--instance", a->instance, "Instance file")->required();
  c->add_option("--pruning", a->pruning, "none, simple, gw or strong");
  c->add_option("--root", a->root, "Root node (-1: unrooted)");
  c->add_option("--clusters", a->clusters, "Number of trees (unrooted)");
  c->add_flag("--json", a->json, "JSON output");
  c->add_flag("--improve", a->improve, "Local search after pruning: MST re-span, path attachment, strong pruning (never worse)");
  c->add_flag("--reference-order", a->reference_order,
              "Events in pcst_fast's own order (ties included): its results exactly, in a fraction of its time");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli
