// The PCST solver's public API: pruning names, input validation, and the solver object. The
// algorithm is in pcst_impl.hpp and the files it lists.
#include "grappi/pcst.hpp"

#include <cctype>
#include <cmath>
#include <string>

#include "grappi/error.hpp"
#include "retrieval/pcst_impl.hpp"

namespace grappi {

Pruning pruning_from_name(std::string_view name) {
  std::string s(name);
  for (auto &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "none") return Pruning::none;
  if (s == "simple") return Pruning::simple;
  if (s == "gw") return Pruning::gw;
  if (s == "strong") return Pruning::strong;
  throw Error(ErrorCode::invalid_argument, "unknown pruning '" + std::string(name) + "' (none, simple, gw or strong)");
}

const char *to_string(PcstEventOrder o) noexcept { return o == PcstEventOrder::fast ? "fast" : "reference"; }

PcstEventOrder pcst_event_order_from_name(std::string_view name) {
  std::string s(name);
  for (auto &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "reference") return PcstEventOrder::reference;
  if (s == "fast") return PcstEventOrder::fast;
  throw Error(ErrorCode::invalid_argument, "unknown event order '" + std::string(name) + "' (reference or fast)");
}

const char *to_string(Pruning p) noexcept {
  switch (p) {
    case Pruning::none: return "none";
    case Pruning::simple: return "simple";
    case Pruning::gw: return "gw";
    case Pruning::strong: return "strong";
  }
  return "unknown";
}

PCSTSolver::PCSTSolver() : impl_(new Impl) {}
PCSTSolver::~PCSTSolver() { delete impl_; }

PcstResult PCSTSolver::solve(const std::vector<double> &prizes, const std::vector<std::pair<int64_t, int64_t>> &edges,
                             const std::vector<double> &costs, const PcstOptions &options) {
  if (edges.size() != costs.size())
    throw Error(ErrorCode::invalid_argument, "pcst: " + std::to_string(edges.size()) + " edges but " +
                                                 std::to_string(costs.size()) + " costs");
  std::vector<int64_t> &flat = impl_->flat;
  flat.clear();
  flat.reserve(edges.size() * 2);
  for (auto &e : edges) {
    flat.push_back(e.first);
    flat.push_back(e.second);
  }
  return solve(prizes.size(), prizes.data(), edges.size(), flat.data(), costs.data(), options);
}

PcstResult PCSTSolver::solve(std::size_t num_nodes, const double *prizes, std::size_t num_edges, const int64_t *edges,
                             const double *costs, const PcstOptions &o) {
  if (num_nodes > 0x3fffffff || num_edges > 0x3fffffff)
    throw Error(ErrorCode::invalid_argument, "pcst: at most 2^30 nodes and edges");
  if ((num_nodes && !prizes) || (num_edges && (!edges || !costs)))
    throw Error(ErrorCode::invalid_argument, "pcst: an input array is missing");
  for (std::size_t i = 0; i < num_nodes; ++i)
    if (!(prizes[i] >= 0) || !std::isfinite(prizes[i]))
      throw Error(ErrorCode::invalid_argument, "pcst: prize of node " + std::to_string(i) + " is " +
                                                   std::to_string(prizes[i]) + " (must be finite and >= 0)");
  for (std::size_t e = 0; e < num_edges; ++e) {
    if (!(costs[e] >= 0) || !std::isfinite(costs[e]))
      throw Error(ErrorCode::invalid_argument, "pcst: cost of edge " + std::to_string(e) + " is " +
                                                   std::to_string(costs[e]) + " (must be finite and >= 0)");
    for (int s = 0; s < 2; ++s)
      if (edges[2 * e + static_cast<std::size_t>(s)] < 0 ||
          static_cast<uint64_t>(edges[2 * e + static_cast<std::size_t>(s)]) >= num_nodes)
        throw Error(ErrorCode::invalid_argument, "pcst: edge " + std::to_string(e) + " has endpoint " +
                                                     std::to_string(edges[2 * e + static_cast<std::size_t>(s)]) +
                                                     ", outside 0.." + std::to_string(num_nodes) + "-1");
  }
  // The solver adds prizes and costs (and doubles them in its events): their total must stay far
  // from overflowing, or the objective comes out as nan.
  double total = 0;
  for (std::size_t i = 0; i < num_nodes; ++i) total += prizes[i];
  for (std::size_t e = 0; e < num_edges; ++e) total += costs[e];
  if (!(total <= 1e300))
    throw Error(ErrorCode::invalid_argument, "pcst: the prizes and costs add up to more than 1e300; scale them down");
  if (o.root < -1 || (o.root >= 0 && static_cast<uint64_t>(o.root) >= num_nodes))
    throw Error(ErrorCode::invalid_argument, "pcst: root " + std::to_string(o.root) + " is not -1 or a node");
  if (o.num_clusters < 1) throw Error(ErrorCode::invalid_argument, "pcst: num_clusters must be at least 1");
  if (o.root >= 0 && o.num_clusters != 1)
    throw Error(ErrorCode::invalid_argument, "pcst: a rooted problem has exactly one cluster (num_clusters " +
                                                 std::to_string(o.num_clusters) + ")");
  impl_->n = num_nodes;
  impl_->m = num_edges;
  impl_->prize = prizes;
  impl_->ends = edges;
  impl_->cost = costs;
  impl_->cancel = &o.cancel;
  impl_->cancelled = false;
  impl_->polls = 0;
  return impl_->run(o.root, o.num_clusters, o.pruning, o.improve, o.event_order == PcstEventOrder::reference);
}

}  // namespace grappi
