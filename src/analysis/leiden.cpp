// Leiden through igraph's C library (detail::leiden, analysis/partition.hpp). igraph as Debian
// builds it is not thread-safe (IGRAPH_THREAD_SAFE 0: one error handler, one random number
// generator for the process), so every call holds one lock, and the handlers it would use to
// print or abort are swapped for ignoring ones for the call's length and put back.
#include <igraph.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>

#include "analysis/partition.hpp"
#include "grappi/clustering.hpp"
#include "grappi/error.hpp"

namespace grappi::detail {

namespace {

// Leiden's iterations per call, rounds of calls per run, and rounds without a gain that end one.
constexpr igraph_integer_t kRound = 2;
constexpr std::size_t kMaxRounds = 100;
constexpr std::size_t kIdleRounds = 1;
constexpr std::size_t kFinalIdleRounds = 3;
// The refinement's randomness (igraph's beta): above the usual 0.01, each round from a partition explores more,
// which here reaches leidenalg's modularity in fewer rounds (BENCHMARKS.md).
constexpr double kRandomness = 0.05;
constexpr std::size_t kCoarseRounds = 3;    // rounds on a core groups' graph
constexpr std::size_t kEnsembleLevels = 8;  // the iterated ensemble's levels at most

std::mutex &igraph_lock() {
  static std::mutex m;
  return m;
}

// The handlers, and the default random number generator (a host's igraph keeps its own stream),
// swapped for the lock's length.
class QuietIgraph {
 public:
  QuietIgraph()
      : error_(igraph_set_error_handler(igraph_error_handler_ignore)),
        warning_(igraph_set_warning_handler(igraph_warning_handler_ignore)),
        host_rng_(igraph_rng_default()) {
    if (igraph_rng_init(&rng_, &igraph_rngtype_pcg32) != IGRAPH_SUCCESS) {
      restore();
      throw Error(ErrorCode::internal, "cluster: igraph's random number generator failed");
    }
    igraph_rng_set_default(&rng_);
  }
  ~QuietIgraph() {
    igraph_rng_set_default(host_rng_);
    igraph_rng_destroy(&rng_);
    restore();
  }
  QuietIgraph(const QuietIgraph &) = delete;
  QuietIgraph &operator=(const QuietIgraph &) = delete;

 private:
  void restore() {
    igraph_set_error_handler(error_);
    igraph_set_warning_handler(warning_);
  }
  igraph_error_handler_t *error_;
  igraph_warning_handler_t *warning_;
  igraph_rng_t *host_rng_;
  igraph_rng_t rng_{};
};

void check(igraph_error_t rc, const char *what) {
  if (rc != IGRAPH_SUCCESS)
    throw Error(ErrorCode::internal, std::string("cluster: igraph's ") + what + " failed: " + igraph_strerror(rc));
}

// igraph's objects, destroyed whatever happens.
struct Vector {
  igraph_vector_t v;
  explicit Vector(std::size_t n) { check(igraph_vector_init(&v, static_cast<igraph_integer_t>(n)), "vector"); }
  ~Vector() { igraph_vector_destroy(&v); }
  Vector(const Vector &) = delete;
  Vector &operator=(const Vector &) = delete;
};
struct IntVector {
  igraph_vector_int_t v;
  explicit IntVector(std::size_t n) { check(igraph_vector_int_init(&v, static_cast<igraph_integer_t>(n)), "vector"); }
  ~IntVector() { igraph_vector_int_destroy(&v); }
  IntVector(const IntVector &) = delete;
  IntVector &operator=(const IntVector &) = delete;
};
struct Graph {
  igraph_t g;
  Graph(const IntVector &edges, std::size_t n) {
    check(igraph_create(&g, &edges.v, static_cast<igraph_integer_t>(n), IGRAPH_UNDIRECTED), "graph");
  }
  ~Graph() { igraph_destroy(&g); }
  Graph(const Graph &) = delete;
  Graph &operator=(const Graph &) = delete;
};

}  // namespace

double cpm_quality(const WeightedGraph &g, const std::vector<std::size_t> &membership, double resolution) {
  std::size_t clusters = 0;
  for (std::size_t c : membership) clusters = std::max(clusters, c + 1);
  std::vector<double> inside(clusters, 0.0), size(clusters, 0.0);
  for (std::size_t c : membership) size[c] += 1;
  for (std::size_t e = 0; e < g.edges.size(); ++e)
    if (membership[g.edges[e].first] == membership[g.edges[e].second]) inside[membership[g.edges[e].first]] += g.weights[e];
  double q = 0;
  for (std::size_t c = 0; c < clusters; ++c) q += inside[c] - resolution * size[c] * (size[c] - 1) / 2;
  return q;
}

namespace {

// Leiden on one weighted graph with given node weights (held by igraph while it lives).
class LeidenRunner {
 public:
  LeidenRunner(const WeightedGraph &g, const std::vector<double> &node_weight, double parameter)
      : nodes_(g.nodes), ends_(2 * g.edges.size()), weights_(g.edges.size()), node_weights_(g.nodes),
        result_(g.nodes), parameter_(parameter) {
    for (std::size_t e = 0; e < g.edges.size(); ++e) {
      VECTOR(ends_.v)[2 * e] = g.edges[e].first;
      VECTOR(ends_.v)[2 * e + 1] = g.edges[e].second;
      VECTOR(weights_.v)[e] = g.weights[e];
    }
    for (std::size_t i = 0; i < nodes_; ++i) VECTOR(node_weights_.v)[i] = node_weight[i];
    graph_ = std::make_unique<Graph>(ends_, nodes_);
  }

  // kRound iterations of Leiden from scratch, or from `from`; the membership numbered by first node.
  std::vector<std::size_t> round(const std::vector<std::size_t> *from) {
    if (from)
      for (std::size_t i = 0; i < nodes_; ++i) VECTOR(result_.v)[i] = static_cast<igraph_integer_t>((*from)[i]);
    igraph_integer_t clusters = 0;
    igraph_real_t ignored = 0;
    check(igraph_community_leiden(&graph_->g, &weights_.v, &node_weights_.v, parameter_, kRandomness, from != nullptr, kRound,
                                  &result_.v, &clusters, &ignored),
          "Leiden");
    std::vector<std::size_t> m(nodes_);
    for (std::size_t i = 0; i < nodes_; ++i) m[i] = static_cast<std::size_t>(VECTOR(result_.v)[i]);
    renumber(m);
    return m;
  }

 private:
  std::size_t nodes_;
  IntVector ends_;
  Vector weights_, node_weights_;
  IntVector result_;
  double parameter_;
  std::unique_ptr<Graph> graph_;
};

// The core groups of several partitions (nodes that every one puts together), and the graph of
// them: edges between groups summed, node weights summed (a group's own edges only add a constant
// to either quality while it stays whole).
std::vector<std::size_t> core_groups(const std::vector<std::vector<std::size_t>> &runs, std::size_t nodes) {
  std::map<std::vector<std::size_t>, std::size_t> group;
  std::vector<std::size_t> core(nodes);
  std::vector<std::size_t> key(runs.size());
  for (std::size_t i = 0; i < nodes; ++i) {
    for (std::size_t r = 0; r < runs.size(); ++r) key[r] = runs[r][i];
    core[i] = group.emplace(key, group.size()).first->second;
  }
  return core;
}

WeightedGraph contract(const WeightedGraph &g, const std::vector<std::size_t> &core, std::size_t groups) {
  std::map<std::pair<uint32_t, uint32_t>, double> between;
  for (std::size_t e = 0; e < g.edges.size(); ++e) {
    uint32_t a = static_cast<uint32_t>(core[g.edges[e].first]), b = static_cast<uint32_t>(core[g.edges[e].second]);
    if (a == b) continue;
    if (a > b) std::swap(a, b);
    between[{a, b}] += g.weights[e];
  }
  WeightedGraph c;
  c.nodes = groups;
  for (const auto &[pair, w] : between) {
    c.edges.push_back(pair);
    c.weights.push_back(w);
  }
  return c;
}

}  // namespace

std::vector<std::size_t> leiden(const WeightedGraph &g, LeidenQuality q, double resolution, uint64_t seed,
                                std::size_t runs, double &quality) {
  quality = 0;
  if (g.nodes == 0) return {};
  double total = 0;
  std::vector<double> strength(g.nodes, 0.0);
  for (std::size_t e = 0; e < g.edges.size(); ++e) {
    total += g.weights[e];
    strength[g.edges[e].first] += g.weights[e];
    strength[g.edges[e].second] += g.weights[e];
  }
  // Modularity: node weights the strengths and the resolution over 2W (igraph's documented
  // reading of modularity); CPM: unit node weights (a core group's: its size) and the resolution.
  const bool mod = q == LeidenQuality::modularity;
  const double parameter = mod ? (total > 0 ? resolution / (2 * total) : resolution) : resolution;
  const std::vector<double> node_weight = mod ? strength : std::vector<double>(g.nodes, 1.0);
  const auto value_of = [&](const std::vector<std::size_t> &m) {
    return mod ? grappi::modularity(g.nodes, g.edges, g.weights, m, resolution) : cpm_quality(g, m, resolution);
  };
  std::lock_guard<std::mutex> lock(igraph_lock());
  QuietIgraph quiet;
  LeidenRunner full(g, node_weight, parameter);
  // Leiden again from a partition while that still improves it (`idle_limit` rounds without a
  // gain end it; igraph's own "until stable" can cycle when it starts from a partition, so the
  // rounds are counted here).
  const auto polish = [&](std::vector<std::size_t> &membership, std::size_t idle_limit) {
    double value = value_of(membership);
    for (std::size_t r = 0, idle = 0; r < kMaxRounds && idle < idle_limit; ++r) {
      std::vector<std::size_t> next = full.round(&membership);
      const double v = value_of(next);
      if (v > value + 1e-12 * std::abs(value)) {
        value = v;
        membership = std::move(next);
        idle = 0;
      } else {
        ++idle;
      }
    }
    return value;
  };
  // Each run from scratch, shortly polished.
  runs = std::max<std::size_t>(runs, 1);
  std::vector<std::vector<std::size_t>> partitions;
  std::vector<std::size_t> best;
  for (std::size_t run = 0; run < runs; ++run) {
    check(igraph_rng_seed(igraph_rng_default(), static_cast<igraph_uint_t>(seed + run)), "random seed");
    std::vector<std::size_t> m = full.round(nullptr);
    const double value = polish(m, kIdleRounds);
    if (best.empty() || value > quality) {
      quality = value;
      best = m;
    }
    partitions.push_back(std::move(m));
  }
  check(igraph_rng_seed(igraph_rng_default(), static_cast<igraph_uint_t>(seed + runs)), "random seed");
  // With several runs, their core groups clustered as nodes (the ensemble approach of Ovelgönne
  // and Geyer-Schulz, 2012, iterated): the core groups' graph clustered `runs` times gives new
  // partitions, whose core groups are coarser again, until they stop merging; the best run and
  // each level's best are polished, the best kept.
  if (runs > 1) {
    std::vector<std::size_t> core = core_groups(partitions, g.nodes);
    std::size_t groups = *std::max_element(core.begin(), core.end()) + 1;
    std::vector<std::vector<std::size_t>> candidates{best};
    for (std::size_t level = 0; level < kEnsembleLevels && groups < g.nodes; ++level) {
      std::vector<double> group_weight(groups, 0.0);
      for (std::size_t i = 0; i < g.nodes; ++i) group_weight[core[i]] += node_weight[i];
      LeidenRunner coarse(contract(g, core, groups), group_weight, parameter);
      partitions.clear();
      double level_best = 0;
      for (std::size_t run = 0; run < runs; ++run) {
        std::vector<std::size_t> of_group = coarse.round(nullptr);
        for (std::size_t r = 1; r < kCoarseRounds; ++r) of_group = coarse.round(&of_group);
        std::vector<std::size_t> m(g.nodes);
        for (std::size_t i = 0; i < g.nodes; ++i) m[i] = of_group[core[i]];
        renumber(m);
        const double value = value_of(m);
        if (partitions.empty() || value > level_best) {
          level_best = value;
          if (partitions.empty()) candidates.emplace_back();
          candidates.back() = m;
        }
        partitions.push_back(std::move(m));
      }
      const std::vector<std::size_t> next = core_groups(partitions, g.nodes);
      const std::size_t next_groups = *std::max_element(next.begin(), next.end()) + 1;
      if (next_groups >= groups) break;
      core = next;
      groups = next_groups;
    }
    quality = polish(candidates[0], kFinalIdleRounds);
    best = candidates[0];
    for (std::size_t c = 1; c < candidates.size(); ++c) {
      const double value = polish(candidates[c], kFinalIdleRounds);
      if (value > quality) {
        quality = value;
        best = std::move(candidates[c]);
      }
    }
    return best;
  }
  quality = polish(best, kFinalIdleRounds);
  return best;
}

}  // namespace grappi::detail
