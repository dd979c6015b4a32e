// Question-driven subgraph retrieval by PCST: G-Retriever's prize rules and the seed-002 form
// (ALGORITHMS.md §4).
#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>

#include "grappi/error.hpp"
#include "grappi/retriever.hpp"
#include "similarity.hpp"

namespace grappi {

PcstRetrieval Retriever::pcst_retrieve(const std::vector<float> &question, const PcstRetrieveOptions &o,
                                       const EdgeSimilarity &edge_similarity) const {
  if (!vectors_) throw Error(ErrorCode::invalid_argument, "pcst_retrieve: the retriever has no vector index (run grappi embed)");
  if (question.size() != dim_)
    throw Error(ErrorCode::invalid_argument, "pcst_retrieve: question has dimension " + std::to_string(question.size()) +
                                                 ", the index " + std::to_string(dim_));
  const bool gret = o.mode == "gretriever";
  if (!gret && o.mode != "prize")
    throw Error(ErrorCode::invalid_argument, "pcst_retrieve: mode must be \"gretriever\" or \"prize\", not \"" + o.mode + "\"");
  if (o.seeds == 0) throw Error(ErrorCode::invalid_argument, "pcst_retrieve: seeds must be at least 1");
  for (double v : {o.cost_e, o.alpha, o.beta, o.gamma, o.lambda})
    if (!(v >= 0) || !std::isfinite(v))
      throw Error(ErrorCode::invalid_argument, "pcst_retrieve: cost_e, alpha, beta, gamma and lambda must be finite and >= 0");
  for (const auto &[relation, w] : o.relation_weights)
    if (!std::isfinite(w) || w < 0)
      throw Error(ErrorCode::invalid_argument, "pcst_retrieve: the weight of relation '" + relation + "' must be finite and >= 0");
  const GraphSnapshot &g = *graph_;

  // Unit question.
  std::vector<float> q = question;
  double norm = 0;
  for (float x : q) norm += static_cast<double>(x) * x;
  norm = std::sqrt(norm);
  if (norm > 0)
    for (auto &x : q) x = static_cast<float>(x / norm);

  PcstRetrieval R;
  for (int64_t a : o.anchors)
    if (!g.index_of(a)) throw Error(ErrorCode::not_found, "pcst_retrieve: no node with id " + std::to_string(a) + " (an anchor)");
  if (o.connected_seeds) {
    // The best nodes that can lead somewhere: at least one edge passing the filter.
    NeighborFilter nf;
    nf.relations = o.khop.filter.relations;
    nf.min_score = o.khop.filter.min_score;
    for (std::size_t want = std::min(vectors_->size(), o.seeds * 64);; want = std::min(vectors_->size(), want * 8)) {
      R.seeds.clear();
      for (const auto &h : vectors_->search(q.data(), want)) {
        if (!g.index_of(h.id) || g.neighbors(h.id, nf).empty()) continue;
        R.seeds.push_back(h.id);
        if (R.seeds.size() == o.seeds) break;
      }
      if (R.seeds.size() == o.seeds || want == vectors_->size()) break;
    }
  } else {
    for (const auto &h : seeds(question, o.seeds)) R.seeds.push_back(h.id);
  }
  if (!o.anchors.empty()) {
    std::vector<int64_t> s;
    for (int64_t a : o.anchors)
      if (std::find(s.begin(), s.end(), a) == s.end()) s.push_back(a);
    for (int64_t x : R.seeds)
      if (std::find(s.begin(), s.end(), x) == s.end()) s.push_back(x);
    R.seeds = std::move(s);
  }
  Subgraph base = khop(R.seeds, o.khop);
  const std::size_t n = base.nodes.size(), m = base.edges.size();
  R.base_nodes = n;
  R.base_edges = m;
  std::unordered_map<int64_t, std::size_t> local;
  for (std::size_t i = 0; i < n; ++i) local.emplace(base.nodes[i], i);
  std::vector<double> sim(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    float s = similarity(q.data(), *g.index_of(base.nodes[i]));
    sim[i] = std::isfinite(s) ? s : 0.0;
  }

  // Prizes.
  std::vector<double> nprize(n, 0), eprize(m, 0);
  double cost = 0;
  if (gret) {
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sim[a] > sim[b]; });
    const std::size_t k = std::min(o.topk, n);
    for (std::size_t r = 0; r < k; ++r) nprize[order[r]] = static_cast<double>(k - r);
    std::vector<double> esim;
    if (edge_similarity) {
      esim = edge_similarity(base.edges);
      if (esim.size() != m)
        throw Error(ErrorCode::invalid_argument, "pcst_retrieve: the edge similarity returned " + std::to_string(esim.size()) +
                                                     " values for " + std::to_string(m) + " edges");
    } else {
      esim.resize(m);
      for (std::size_t e = 0; e < m; ++e)
        esim[e] = 0.5 * (sim[local.at(base.edges[e].source)] + sim[local.at(base.edges[e].target)]);
    }
    std::vector<double> distinct;
    for (double v : esim)
      if (std::isfinite(v)) distinct.push_back(v);
    std::sort(distinct.begin(), distinct.end(), std::greater<double>());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    const std::size_t ke = std::min(o.topk_e, distinct.size());
    double last = static_cast<double>(ke);
    for (std::size_t j = 0; j < ke; ++j) {
      std::size_t count = 0;
      for (double v : esim) count += v == distinct[j];
      const double value = std::min(static_cast<double>(ke - j) / static_cast<double>(count), last);
      for (std::size_t e = 0; e < m; ++e)
        if (esim[e] == distinct[j]) eprize[e] = value;
      last = o.pyg_cap ? value - 0.01 : value * 0.99;
    }
    double max_e = 0;
    for (double v : eprize) max_e = std::max(max_e, v);
    cost = std::min(o.cost_e, max_e * (1 - 0.01 / 2));
  } else {
    std::unordered_map<int64_t, bool> is_seed;
    for (auto id : R.seeds) is_seed[id] = true;
    for (std::size_t i = 0; i < n; ++i) nprize[i] = o.alpha * std::max(0.0, sim[i]) + (is_seed.count(base.nodes[i]) ? o.beta : 0.0);
    for (std::size_t e = 0; e < m; ++e) eprize[e] = o.gamma * base.edges[e].score;
    cost = o.lambda;
  }
  // Anchors above every other node.
  if (!o.anchors.empty()) {
    double top = 0;
    for (double p : nprize) top = std::max(top, p);
    for (int64_t a : o.anchors)
      if (const auto it = local.find(a); it != local.end()) nprize[it->second] = top + 1;
  }
  if (!o.relation_weights.empty())
    for (std::size_t e = 0; e < m; ++e)
      if (const auto it = o.relation_weights.find(base.edges[e].relation); it != o.relation_weights.end()) eprize[e] *= it->second;
  R.edge_cost = cost;

  // The PCST instance: real edges cost (cost - prize); an edge worth more than its cost becomes
  // a virtual node of prize (prize - cost) joined to both endpoints at no cost.
  std::vector<double> prizes = nprize;
  std::vector<int64_t> ends;
  std::vector<double> costs;
  std::vector<int64_t> real_edge;      // instance edge -> base edge, -1 for a virtual node's spokes
  std::vector<int64_t> virtual_edge;   // virtual node (index - n) -> base edge
  for (std::size_t e = 0; e < m; ++e) {
    const int64_t u = static_cast<int64_t>(local.at(base.edges[e].source)), v = static_cast<int64_t>(local.at(base.edges[e].target));
    if (eprize[e] <= cost) {
      ends.push_back(u);
      ends.push_back(v);
      costs.push_back(cost - eprize[e]);
      real_edge.push_back(static_cast<int64_t>(e));
    } else {
      const int64_t vn = static_cast<int64_t>(prizes.size());
      prizes.push_back(eprize[e] - cost);
      virtual_edge.push_back(static_cast<int64_t>(e));
      for (int64_t x : {u, v}) {
        ends.push_back(x);
        ends.push_back(vn);
        costs.push_back(0);
        real_edge.push_back(-1);
      }
    }
  }
  R.virtual_nodes = virtual_edge.size();
  if (o.keep_base) {
    R.base = base;
    R.base_prizes = nprize;
  }
  if (n == 0) return R;
  PCSTSolver solver;
  PcstOptions po;
  po.pruning = o.pruning;
  po.num_clusters = o.num_clusters;
  po.event_order = o.event_order;
  auto sol = solver.solve(prizes.size(), prizes.data(), costs.size(), ends.data(), costs.data(), po);

  // Map back.
  std::vector<char> keep_node(n, 0), keep_edge(m, 0);
  for (auto v : sol.nodes) {
    if (v < static_cast<int64_t>(n))
      keep_node[static_cast<std::size_t>(v)] = 1;
    else
      keep_edge[static_cast<std::size_t>(virtual_edge[static_cast<std::size_t>(v) - n])] = 1;
  }
  for (auto e : sol.edges)
    if (real_edge[static_cast<std::size_t>(e)] >= 0) keep_edge[static_cast<std::size_t>(real_edge[static_cast<std::size_t>(e)])] = 1;
  double taken_prize = 0, taken_cost = 0, total_prize = 0;
  for (double p : prizes) total_prize += p;
  for (std::size_t e = 0; e < m; ++e)
    if (keep_edge[e]) {
      keep_node[local.at(base.edges[e].source)] = 1;
      keep_node[local.at(base.edges[e].target)] = 1;
    }
  // An anchor the solver left out comes back with its edges to the selection.
  for (int64_t a : o.anchors) {
    const auto it = local.find(a);
    if (it == local.end() || keep_node[it->second]) continue;
    keep_node[it->second] = 1;
    for (std::size_t e = 0; e < m; ++e) {
      const std::size_t u = local.at(base.edges[e].source), v = local.at(base.edges[e].target);
      if ((u == it->second && keep_node[v]) || (v == it->second && keep_node[u])) keep_edge[e] = 1;
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    if (keep_node[i]) {
      R.subgraph.nodes.push_back(base.nodes[i]);
      R.subgraph.hops.push_back(base.hops[i]);
      R.node_prizes.push_back(nprize[i]);
      taken_prize += nprize[i];
    }
  for (std::size_t e = 0; e < m; ++e)
    if (keep_edge[e]) {
      R.subgraph.edges.push_back(base.edges[e]);
      R.edge_prizes.push_back(eprize[e]);
      taken_prize += eprize[e] > cost ? eprize[e] - cost : 0;
      taken_cost += eprize[e] > cost ? 0 : cost - eprize[e];
    }
  // Objective and net worth of the mapped-back selection in the instance's terms.
  R.objective = (total_prize - taken_prize) + taken_cost;
  R.net_worth = taken_prize - taken_cost;
  return R;
}

namespace {
std::string csv_field(const std::string &s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}
}  // namespace

std::string to_gretriever_csv(const GraphSnapshot &g, const Subgraph &s, const std::function<std::string(int64_t)> &node_attr) {
  (void)g;
  std::unordered_map<int64_t, std::size_t> local;
  std::string out = "node_id,node_attr\n";
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    local.emplace(s.nodes[i], i);
    out += std::to_string(i) + "," + csv_field(node_attr(s.nodes[i])) + "\n";
  }
  out += "\nsrc,edge_attr,dst\n";
  for (const auto &e : s.edges)
    out += std::to_string(local.at(e.source)) + "," + csv_field(e.relation) + "," + std::to_string(local.at(e.target)) + "\n";
  return out;
}

}  // namespace grappi
