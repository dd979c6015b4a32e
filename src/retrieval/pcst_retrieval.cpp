// Question-driven subgraph retrieval by PCST: G-Retriever's prize rules and the seed-002 form
// (G-Retriever: He et al., NeurIPS 2024, and its PyG port; docs/ask.md).
#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>

#include "grappi/error.hpp"
#include "grappi/retriever.hpp"
#include "retrieval/similarity.hpp"

namespace grappi {

namespace {

// The prizes of the base subgraph's nodes and edges, and the edge cost.
struct PcstPrizes {
  std::vector<double> node, edge;
  double cost = 0;
};

// G-Retriever's rules: the top-k nodes by similarity get k, k-1, ...; the top-k distinct edge
// similarities (the callback's, else the mean of the ends') share k, k-1, ... among their edges,
// each value capped below the one before; the cost under the largest edge prize.
PcstPrizes gretriever_prizes(const Subgraph &base, const std::vector<double> &sim,
                         const std::unordered_map<int64_t, std::size_t> &local, const PcstRetrieveOptions &o,
                         const EdgeSimilarity &edge_similarity) {
  const std::size_t n = base.nodes.size(), m = base.edges.size();
  PcstPrizes p;
  p.node.assign(n, 0);
  p.edge.assign(m, 0);
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sim[a] > sim[b]; });
  const std::size_t k = std::min(o.topk, n);
  for (std::size_t r = 0; r < k; ++r) p.node[order[r]] = static_cast<double>(k - r);
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
      if (esim[e] == distinct[j]) p.edge[e] = value;
    last = o.pyg_cap ? value - 0.01 : value * 0.99;
  }
  double max_e = 0;
  for (double v : p.edge) max_e = std::max(max_e, v);
  p.cost = std::min(o.cost_e, max_e * (1 - 0.01 / 2));
  return p;
}

// The seed-002 form: alpha times the similarity (plus beta for a seed) per node, gamma times
// the score per edge, cost lambda.
PcstPrizes score_prizes(const Subgraph &base, const std::vector<double> &sim, const std::vector<int64_t> &seeds,
                    const PcstRetrieveOptions &o) {
  const std::size_t n = base.nodes.size(), m = base.edges.size();
  PcstPrizes p;
  p.node.assign(n, 0);
  p.edge.assign(m, 0);
  std::unordered_map<int64_t, bool> is_seed;
  for (auto id : seeds) is_seed[id] = true;
  for (std::size_t i = 0; i < n; ++i) p.node[i] = o.alpha * std::max(0.0, sim[i]) + (is_seed.count(base.nodes[i]) ? o.beta : 0.0);
  for (std::size_t e = 0; e < m; ++e) p.edge[e] = o.gamma * base.edges[e].score;
  p.cost = o.lambda;
  return p;
}

// The PCST instance: real edges cost (cost - prize); an edge worth more than its cost becomes
// a virtual node of prize (prize - cost) joined to both endpoints at no cost.
struct RetrievalInstance {
  std::vector<double> prizes;
  std::vector<int64_t> ends;
  std::vector<double> costs;
  std::vector<int64_t> real_edge;     // instance edge -> base edge, -1 for a virtual node's spokes
  std::vector<int64_t> virtual_edge;  // virtual node (index - n) -> base edge
};

RetrievalInstance build_retrieval_instance(const Subgraph &base, const std::unordered_map<int64_t, std::size_t> &local, const PcstPrizes &p) {
  RetrievalInstance I;
  I.prizes = p.node;
  for (std::size_t e = 0; e < base.edges.size(); ++e) {
    const int64_t u = static_cast<int64_t>(local.at(base.edges[e].source)), v = static_cast<int64_t>(local.at(base.edges[e].target));
    if (p.edge[e] <= p.cost) {
      I.ends.push_back(u);
      I.ends.push_back(v);
      I.costs.push_back(p.cost - p.edge[e]);
      I.real_edge.push_back(static_cast<int64_t>(e));
    } else {
      const int64_t vn = static_cast<int64_t>(I.prizes.size());
      I.prizes.push_back(p.edge[e] - p.cost);
      I.virtual_edge.push_back(static_cast<int64_t>(e));
      for (int64_t x : {u, v}) {
        I.ends.push_back(x);
        I.ends.push_back(vn);
        I.costs.push_back(0);
        I.real_edge.push_back(-1);
      }
    }
  }
  return I;
}

// The solution mapped back to the base subgraph (an anchor the solver left out comes back with
// its edges to the selection), with the objective and net worth in the instance's terms.
void map_back_retrieval(const PcstResult &sol, const RetrievalInstance &I, const Subgraph &base,
              const std::unordered_map<int64_t, std::size_t> &local, const PcstPrizes &p, const std::vector<int64_t> &anchors,
              PcstRetrieval &R) {
  const std::size_t n = base.nodes.size(), m = base.edges.size();
  std::vector<char> keep_node(n, 0), keep_edge(m, 0);
  for (auto v : sol.nodes) {
    if (v < static_cast<int64_t>(n))
      keep_node[static_cast<std::size_t>(v)] = 1;
    else
      keep_edge[static_cast<std::size_t>(I.virtual_edge[static_cast<std::size_t>(v) - n])] = 1;
  }
  for (auto e : sol.edges)
    if (I.real_edge[static_cast<std::size_t>(e)] >= 0) keep_edge[static_cast<std::size_t>(I.real_edge[static_cast<std::size_t>(e)])] = 1;
  double taken_prize = 0, taken_cost = 0, total_prize = 0;
  for (double x : I.prizes) total_prize += x;
  for (std::size_t e = 0; e < m; ++e)
    if (keep_edge[e]) {
      keep_node[local.at(base.edges[e].source)] = 1;
      keep_node[local.at(base.edges[e].target)] = 1;
    }
  for (int64_t a : anchors) {
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
      R.node_prizes.push_back(p.node[i]);
      taken_prize += p.node[i];
    }
  for (std::size_t e = 0; e < m; ++e)
    if (keep_edge[e]) {
      R.subgraph.edges.push_back(base.edges[e]);
      R.edge_prizes.push_back(p.edge[e]);
      taken_prize += p.edge[e] > p.cost ? p.edge[e] - p.cost : 0;
      taken_cost += p.edge[e] > p.cost ? 0 : p.cost - p.edge[e];
    }
  R.objective = (total_prize - taken_prize) + taken_cost;
  R.net_worth = taken_prize - taken_cost;
}

void check_retrieve_options(const PcstRetrieveOptions &o) {
  if (o.mode != "gretriever" && o.mode != "prize")
    throw Error(ErrorCode::invalid_argument, "pcst_retrieve: mode must be \"gretriever\" or \"prize\", not \"" + o.mode + "\"");
  if (o.seeds == 0) throw Error(ErrorCode::invalid_argument, "pcst_retrieve: seeds must be at least 1");
  for (double v : {o.cost_e, o.alpha, o.beta, o.gamma, o.lambda})
    if (!(v >= 0) || !std::isfinite(v))
      throw Error(ErrorCode::invalid_argument, "pcst_retrieve: cost_e, alpha, beta, gamma and lambda must be finite and >= 0");
  for (const auto &[relation, w] : o.relation_weights)
    if (!std::isfinite(w) || w < 0)
      throw Error(ErrorCode::invalid_argument, "pcst_retrieve: the weight of relation '" + relation + "' must be finite and >= 0");
}

}  // namespace

PcstRetrieval Retriever::pcst_retrieve(const std::vector<float> &question, const PcstRetrieveOptions &o,
                                       const EdgeSimilarity &edge_similarity) const {
  if (!vectors_) throw Error(ErrorCode::invalid_argument, "pcst_retrieve: the retriever has no vector index (run grappi embed)");
  if (question.size() != dim_)
    throw Error(ErrorCode::invalid_argument, "pcst_retrieve: question has dimension " + std::to_string(question.size()) +
                                                 ", the index " + std::to_string(dim_));
  check_retrieve_options(o);
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
  const auto stop = [&] { return R.cancelled = R.cancelled || (o.cancel && o.cancel()); };
  if (stop()) return R;
  Subgraph base = khop(R.seeds, o.khop);
  const std::size_t n = base.nodes.size(), m = base.edges.size();
  R.base_nodes = n;
  R.base_edges = m;
  std::unordered_map<int64_t, std::size_t> local;
  for (std::size_t i = 0; i < n; ++i) local.emplace(base.nodes[i], i);
  if (stop()) return R;
  std::vector<double> sim(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    float s = similarity(q.data(), *g.index_of(base.nodes[i]));
    sim[i] = std::isfinite(s) ? s : 0.0;
  }

  PcstPrizes p = o.mode == "gretriever" ? gretriever_prizes(base, sim, local, o, edge_similarity) : score_prizes(base, sim, R.seeds, o);
  // Anchors above every other node.
  if (!o.anchors.empty()) {
    double top = 0;
    for (double x : p.node) top = std::max(top, x);
    for (int64_t a : o.anchors)
      if (const auto it = local.find(a); it != local.end()) p.node[it->second] = top + 1;
  }
  if (!o.relation_weights.empty())
    for (std::size_t e = 0; e < m; ++e)
      if (const auto it = o.relation_weights.find(base.edges[e].relation); it != o.relation_weights.end()) p.edge[e] *= it->second;
  R.edge_cost = p.cost;

  const RetrievalInstance I = build_retrieval_instance(base, local, p);
  R.virtual_nodes = I.virtual_edge.size();
  if (o.keep_base) {
    R.base = base;
    R.base_prizes = p.node;
  }
  if (n == 0 || stop()) return R;
  PCSTSolver solver;
  PcstOptions po;
  po.pruning = o.pruning;
  po.num_clusters = o.num_clusters;
  po.event_order = o.event_order;
  po.cancel = o.cancel;
  const auto sol = solver.solve(I.prizes.size(), I.prizes.data(), I.costs.size(), I.ends.data(), I.costs.data(), po);
  if (sol.cancelled) {
    R.cancelled = true;
    return R;
  }
  map_back_retrieval(sol, I, base, local, p, o.anchors, R);
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
