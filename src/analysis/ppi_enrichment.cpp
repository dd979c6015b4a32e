// PPI enrichment (grappi/enrichment.hpp): the edges among a set against those a random graph with
// the network's degrees would give it (Pradines et al. 2005, as STRING computes it), with a
// Poisson p-value truncated at the number of pairs.
#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "analysis/annotations.hpp"
#include "analysis/log_gamma.hpp"
#include "grappi/enrichment.hpp"
#include "grappi/error.hpp"
#include "grappi/knowledge_graph.hpp"
#include "store/graph_impl.hpp"

namespace grappi {

namespace {

// A node's partners in the network (each once; no self loop). Scores compared as the snapshot
// holds them, in single precision (as neighbors and windows compare them).
void partners(const GraphSnapshot &g, uint32_t ix, const std::vector<char> &ok, float min_score,
              std::vector<uint32_t> &stamp, std::vector<uint32_t> &out) {
  out.clear();
  const GraphSnapshot::Adjacency adj = g.adjacency(ix);
  for (std::size_t i = 0; i < adj.size; ++i) {
    const uint32_t n = adj.neighbor[i];
    if (n == ix || stamp[n] == ix || !ok[adj.relation[i]] || adj.score[i] < min_score) continue;
    stamp[n] = ix;
    out.push_back(n);
  }
}

// log P(X = k), X Poisson with mean lambda > 0.
long double log_poisson(std::size_t k, long double lambda) {
  return -lambda + static_cast<long double>(k) * std::log(lambda) - detail::log_gamma(static_cast<long double>(k) + 1.0L);
}

// P(X >= k | X <= most), X Poisson with mean lambda: the terms from k up to most (stopping once
// they no longer count), over the probability of at most `most` (one minus the terms past it).
double poisson_tail(std::size_t k, std::size_t most, double mean) {
  if (k == 0) return 1.0;
  if (k > most) return 0.0;
  const long double lambda = mean;
  if (lambda <= 0) return 0.0;
  const auto sum_from = [&](std::size_t from, std::size_t to) {
    long double term = std::exp(log_poisson(from, lambda)), sum = term;
    for (std::size_t i = from; i < to; ++i) {
      term *= lambda / static_cast<long double>(i + 1);
      sum += term;
      if (static_cast<long double>(i) > lambda && term < sum * 1e-21L) break;
    }
    return sum;
  };
  // (the mass past `most`: none worth counting unless the mean comes near the number of pairs)
  const long double beyond = most + 1 > lambda + 40 * std::sqrt(lambda) + 40 ? 0.0L : sum_from(most + 1, SIZE_MAX - 1);
  if (static_cast<long double>(k) > lambda)
    return static_cast<double>(std::min(1.0L, sum_from(k, most) / (1.0L - beyond)));
  // At or below the mean the tail is most of the mass: one minus the terms below k, summed down
  // from k - 1 (the first term can underflow when the mean is large; those below it are smaller).
  long double term = std::exp(log_poisson(k - 1, lambda)), lower = term;
  for (std::size_t i = k - 1; i > 0 && term > lower * 1e-21L; --i) {
    term *= static_cast<long double>(i) / lambda;
    lower += term;
  }
  return static_cast<double>(std::clamp((1.0L - beyond - lower) / (1.0L - beyond), 0.0L, 1.0L));
}

// The network at a threshold: its relations, every node's degree, its proteins and edges (M).
struct NetworkDegrees {
  std::shared_ptr<const GraphSnapshot> graph;
  std::vector<char> ok;
  std::vector<std::size_t> degree;
  std::size_t proteins = 0, edges = 0;
};

std::shared_ptr<const NetworkDegrees> count_degrees(std::shared_ptr<const GraphSnapshot> snapshot, const PpiEnrichmentOptions &o) {
  auto n = std::make_shared<NetworkDegrees>();
  n->graph = std::move(snapshot);
  const GraphSnapshot &g = *n->graph;
  n->ok = detail::network_relations(g, o.relations, "ppi-enrichment");
  const float threshold = static_cast<float>(o.min_score);
  std::vector<uint32_t> stamp(g.node_count(), UINT32_MAX), list;
  n->degree.assign(g.node_count(), 0);
  std::size_t ends = 0;
  for (uint32_t i = 0; i < g.node_count(); ++i) {
    partners(g, i, n->ok, threshold, stamp, list);
    n->degree[i] = list.size();
    ends += list.size();
    n->proteins += !list.empty();
  }
  n->edges = ends / 2;
  return n;
}

}  // namespace

std::vector<char> detail::network_relations(const GraphSnapshot &g, const std::vector<std::string> &names, const char *what) {
  std::vector<char> ok(g.relation_count(), 0);
  if (names.empty()) {
    for (std::size_t r = 0; r < ok.size(); ++r) ok[r] = detail::network_relation(g.relation_name(static_cast<int32_t>(r)));
    return ok;
  }
  for (const std::string &name : names) {
    const int32_t r = g.relation_index(name);
    if (r < 0) {
      std::string known;
      for (std::size_t i = 0; i < ok.size(); ++i) known += (i ? ", " : "") + g.relation_name(static_cast<int32_t>(i));
      throw Error(ErrorCode::invalid_argument, std::string(what) + ": unknown relation '" + name + "' (" + known + ")");
    }
    ok[static_cast<std::size_t>(r)] = 1;
  }
  return ok;
}

PpiEnrichmentResult ppi_enrichment(const KnowledgeGraph &kg, const std::vector<int64_t> &proteins,
                                   const PpiEnrichmentOptions &o) {
  if (!(o.min_score >= 0 && o.min_score <= 1))
    throw Error(ErrorCode::invalid_argument,
                "ppi-enrichment: min_score must be between 0 and 1 (given " + std::to_string(o.min_score) + ")");
  if (proteins.empty()) throw Error(ErrorCode::invalid_argument, "ppi-enrichment: the protein set is empty");
  // (the network's degrees: counted once per generation, threshold and relations, and kept)
  std::string key = std::to_string(static_cast<float>(o.min_score));
  for (const std::string &rel : o.relations) key += "|" + rel;
  const auto net = detail::derived<NetworkDegrees>(kg, key, [&]() -> std::shared_ptr<const NetworkDegrees> {
    return count_degrees(kg.snapshot(), o);
  });
  const GraphSnapshot &g = *net->graph;
  const std::vector<char> &ok = net->ok;
  PpiEnrichmentResult r;
  r.min_score = o.min_score;
  std::vector<uint32_t> set;
  for (int64_t id : proteins) {
    const auto ix = g.index_of(id);
    if (!ix) throw Error(ErrorCode::not_found, "ppi-enrichment: protein " + std::to_string(id) + " is not in the graph");
    if (std::find(set.begin(), set.end(), *ix) != set.end()) continue;
    set.push_back(*ix);
    r.proteins.push_back(id);
  }
  const float threshold = static_cast<float>(o.min_score);
  const std::vector<std::size_t> &degree = net->degree;
  r.network_proteins = net->proteins;
  r.network_edges = net->edges;
  std::vector<uint32_t> stamp(g.node_count(), UINT32_MAX), list;
  // The edges among the set, each member's partners there, and the expected count.
  std::unordered_map<uint32_t, std::size_t> member;
  for (std::size_t s = 0; s < set.size(); ++s) member.emplace(set[s], s);
  std::vector<std::unordered_set<std::size_t>> within(set.size());
  for (std::size_t s = 0; s < set.size(); ++s) {
    partners(g, set[s], ok, threshold, stamp, list);
    for (uint32_t n : list)
      if (const auto it = member.find(n); it != member.end()) within[s].insert(it->second);
  }
  std::size_t ends_within = 0;
  for (const auto &w : within) ends_within += w.size();
  r.nodes = set.size();
  r.edges = ends_within / 2;
  const double two_m = 2.0 * static_cast<double>(r.network_edges);
  if (two_m > 0)
    for (std::size_t i = 0; i < set.size(); ++i)
      for (std::size_t j = i + 1; j < set.size(); ++j)
        r.expected_edges += -std::expm1(-static_cast<double>(degree[set[i]]) * static_cast<double>(degree[set[j]]) / two_m);
  const std::size_t pairs = set.size() * (set.size() - 1) / 2;
  r.p_value = poisson_tail(r.edges, pairs, r.expected_edges);
  r.average_degree = static_cast<double>(2 * r.edges) / static_cast<double>(r.nodes);
  // Local clustering: the share of a member's partner pairs (within the set) that are joined.
  double clustering = 0;
  for (std::size_t s = 0; s < set.size(); ++s) {
    const std::vector<std::size_t> nb(within[s].begin(), within[s].end());
    if (nb.size() < 2) continue;
    std::size_t closed = 0;
    for (std::size_t a = 0; a < nb.size(); ++a)
      for (std::size_t b = a + 1; b < nb.size(); ++b) closed += within[nb[a]].count(nb[b]);
    clustering += 2.0 * static_cast<double>(closed) / (static_cast<double>(nb.size()) * static_cast<double>(nb.size() - 1));
  }
  r.clustering = clustering / static_cast<double>(r.nodes);
  return r;
}

PpiEnrichmentResult ppi_enrichment_names(const KnowledgeGraph &kg, const std::vector<std::string> &names,
                                         const PpiEnrichmentOptions &o) {
  std::vector<std::pair<std::string, std::string>> unmatched;
  const std::vector<int64_t> ids = detail::link_names(kg, names, unmatched, "ppi-enrichment");
  PpiEnrichmentResult r = ppi_enrichment(kg, ids, o);
  r.unmatched = std::move(unmatched);
  return r;
}

nlohmann::json to_json(const KnowledgeGraph &kg, const PpiEnrichmentResult &r) {
  const auto snapshot = kg.snapshot();
  nlohmann::json proteins = nlohmann::json::array(), unmatched = nlohmann::json::array();
  for (int64_t id : r.proteins) {
    const auto ix = snapshot->index_of(id);
    proteins.push_back(ix ? snapshot->external_id(*ix) : std::to_string(id));
  }
  for (const auto &[name, reason] : r.unmatched) unmatched.push_back({{"name", name}, {"reason", reason}});
  return {{"proteins", proteins},           {"nodes", r.nodes},
          {"edges", r.edges},               {"expected_edges", r.expected_edges},
          {"p_value", r.p_value},           {"average_degree", r.average_degree},
          {"clustering", r.clustering},     {"network_proteins", r.network_proteins},
          {"network_edges", r.network_edges}, {"min_score", r.min_score},
          {"unmatched", unmatched}};
}

}  // namespace grappi
