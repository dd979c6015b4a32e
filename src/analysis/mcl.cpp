// Markov clustering (detail::mcl, analysis/partition.hpp): a column-stochastic flow matrix,
// squared (expansion) and raised entrywise to the inflation, pruned as mcl prunes, until each
// column is homogeneous; the attractors it ends on define the clusters (van Dongen, Graph
// Clustering by Flow Simulation, 2000; mcl's manual for the defaults).
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <thread>

#include "analysis/partition.hpp"

namespace grappi::detail {

// (named: the sources compile in unity batches)
namespace mcl_steps {

// A column-stochastic matrix by columns (compressed sparse columns): column j's entries are
// rows[start[j], start[j + 1]) with their values, by row. Values and the expansion's sums in single
// precision (as mcl keeps them: half the cache), a column's normalising sums in double.
struct Entry {
  uint32_t row;
  float value;
};
struct Matrix {
  std::vector<std::size_t> start{0};
  std::vector<Entry> entries;
  std::size_t columns() const { return start.size() - 1; }
  const Entry *begin(std::size_t j) const { return entries.data() + start[j]; }
  const Entry *end(std::size_t j) const { return entries.data() + start[j + 1]; }
};

// mcl's resource scheme 6 (its default): -P 10000 -S 1100 -R 1400 -pct 90.
constexpr double kCutoff = 1.0 / 10000;
constexpr std::size_t kSelect = 1100;
constexpr std::size_t kRecover = 1400;
constexpr double kRecoverShare = 0.90;
// Columns count as homogeneous when (max - sum of squares) / max is below this.
constexpr double kSettled = 1e-7;

struct Value {
  uint32_t row;
  double value;
};

bool larger(const Value &a, const Value &b) { return a.value != b.value ? a.value > b.value : a.row < b.row; }

// An expanded column pruned: entries below the cutoff dropped, the largest recovered while the
// kept share is under 90% (up to kRecover entries), at most kSelect kept; then appended to `out`
// by row, normalised.
void prune_into(std::vector<Value> &c, Matrix &out) {
  double total = 0;
  for (const Value &e : c) total += e.value;
  // (kept entries first, the dropped ones after them)
  const auto cut = std::partition(c.begin(), c.end(), [&](const Value &e) { return e.value >= kCutoff * total; });
  std::size_t kept = static_cast<std::size_t>(cut - c.begin());
  double mass = 0;
  for (std::size_t i = 0; i < kept; ++i) mass += c[i].value;
  if (mass < kRecoverShare * total && kept < kRecover && cut != c.end()) {
    std::sort(cut, c.end(), larger);
    for (std::size_t i = kept; i < c.size() && kept < kRecover && mass < kRecoverShare * total; ++i, ++kept) mass += c[i].value;
  }
  c.resize(kept);
  if (c.size() > kSelect) {
    std::nth_element(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(kSelect), c.end(), larger);
    c.resize(kSelect);
  }
  std::sort(c.begin(), c.end(), [](const Value &x, const Value &y) { return x.row < y.row; });
  double sum = 0;
  for (const Value &e : c) sum += e.value;
  const std::size_t base = out.entries.size();
  out.entries.resize(base + c.size());
  for (std::size_t i = 0; i < c.size(); ++i)
    out.entries[base + i] = {c[i].row, static_cast<float>(sum > 0 ? c[i].value / sum : 0.0)};
  out.start.push_back(out.entries.size());
}

// The flow matrix: each node's edges and a loop of its largest edge weight (1 for a node without
// edges), columns normalised.
Matrix flow_matrix(const WeightedGraph &g) {
  std::vector<std::vector<Value>> cols(g.nodes);
  for (std::size_t e = 0; e < g.edges.size(); ++e) {
    const auto [a, b] = g.edges[e];
    cols[a].push_back({b, g.weights[e]});
    cols[b].push_back({a, g.weights[e]});
  }
  Matrix m;
  for (uint32_t j = 0; j < g.nodes; ++j) {
    std::vector<Value> &c = cols[j];
    std::sort(c.begin(), c.end(), [](const Value &a, const Value &b) { return a.row < b.row; });
    // (the same pair given twice: one entry, the larger weight)
    std::vector<Value> merged;
    double loop = 0;
    for (const Value &e : c) {
      loop = std::max(loop, e.value);
      if (!merged.empty() && merged.back().row == e.row) merged.back().value = std::max(merged.back().value, e.value);
      else merged.push_back(e);
    }
    merged.push_back({j, loop > 0 ? loop : 1.0});
    std::sort(merged.begin(), merged.end(), [](const Value &a, const Value &b) { return a.row < b.row; });
    double sum = 0;
    for (const Value &e : merged) sum += e.value;
    for (const Value &e : merged) m.entries.push_back({e.row, static_cast<float>(e.value / sum)});
    m.start.push_back(m.entries.size());
  }
  return m;
}

// Expansion then pruning of columns [from, to) of M * M, appended to `out`.
void expand_columns(const Matrix &m, std::size_t from, std::size_t to, Matrix &out) {
  const std::size_t n = m.columns();
  std::vector<float> acc(n, 0.0f);  // (single precision, as mcl sums: half the cache)
  std::vector<uint32_t> touched;
  std::vector<Value> column;
  out.entries.reserve(2 * (m.start[to] - m.start[from]));
  for (std::size_t j = from; j < to; ++j) {
    touched.clear();
    for (const Entry *kv = m.begin(j); kv != m.end(j); ++kv) {
      const float v = kv->value;
      // (entries are positive: a row's first product turns its sum from zero)
      for (const Entry *iu = m.begin(kv->row); iu != m.end(kv->row); ++iu) {
        float &a = acc[iu->row];
        if (a == 0.0f) touched.push_back(iu->row);
        a += v * iu->value;
      }
    }
    column.resize(touched.size());
    std::size_t filled = 0;
    for (uint32_t i : touched) {
      if (acc[i] > 0) column[filled++] = {i, acc[i]};
      acc[i] = 0.0f;
    }
    column.resize(filled);
    prune_into(column, out);
  }
}

// Expansion then pruning: M * M, its columns in contiguous parts on up to four threads when the
// matrix is large enough to gain from them.
Matrix expand(const Matrix &m) {
  const std::size_t n = m.columns();
  const std::size_t parts = m.entries.size() < 20000 ? 1 : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 4);
  std::vector<Matrix> pieces(parts);
  const auto range = [&](std::size_t p) { return std::make_pair(n * p / parts, n * (p + 1) / parts); };
  if (parts == 1) {
    expand_columns(m, 0, n, pieces[0]);
  } else {
    std::vector<std::thread> threads;
    for (std::size_t p = 1; p < parts; ++p)
      threads.emplace_back([&, p] { expand_columns(m, range(p).first, range(p).second, pieces[p]); });
    expand_columns(m, range(0).first, range(0).second, pieces[0]);
    for (std::thread &t : threads) t.join();
  }
  Matrix out = std::move(pieces[0]);
  for (std::size_t p = 1; p < parts; ++p) {
    const std::size_t base = out.entries.size();
    out.entries.insert(out.entries.end(), pieces[p].entries.begin(), pieces[p].entries.end());
    for (std::size_t k = 1; k < pieces[p].start.size(); ++k) out.start.push_back(base + pieces[p].start[k]);
  }
  return out;
}

// Inflation; returns the largest relative inhomogeneity of a column.
double inflate(Matrix &m, double inflation) {
  double chaos = 0;
  for (std::size_t j = 0; j < m.columns(); ++j) {
    Entry *b = m.entries.data() + m.start[j], *e = m.entries.data() + m.start[j + 1];
    double sum = 0;
    for (Entry *x = b; x != e; ++x) {
      x->value = static_cast<float>(inflation == 2.0 ? static_cast<double>(x->value) * x->value
                                                     : std::pow(static_cast<double>(x->value), inflation));
      sum += x->value;
    }
    double top = 0, squares = 0;
    for (Entry *x = b; x != e; ++x) {
      const double v = sum > 0 ? x->value / sum : 0.0;
      x->value = static_cast<float>(v);
      top = std::max(top, v);
      squares += v * v;
    }
    if (top > 0) chaos = std::max(chaos, (top - squares) / top);
  }
  return chaos;
}

std::size_t root(std::vector<std::size_t> &parent, std::size_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

// The clusters an iterand defines: attractors (a positive diagonal) joined into systems when one
// flows to the other; each node to the systems its column reaches (several: a cluster of those
// that reach the same systems); a node reaching no attractor alone.
std::vector<std::size_t> interpret(const Matrix &m) {
  const std::size_t n = m.columns();
  std::vector<char> attractor(n, 0);
  for (std::size_t j = 0; j < n; ++j)
    for (const Entry *e = m.begin(j); e != m.end(j); ++e)
      if (e->row == j && e->value > 0) attractor[j] = 1;
  std::vector<std::size_t> parent(n);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  for (std::size_t j = 0; j < n; ++j) {
    if (!attractor[j]) continue;
    for (const Entry *e = m.begin(j); e != m.end(j); ++e)
      if (attractor[e->row] && e->value > 0) parent[root(parent, e->row)] = root(parent, j);
  }
  std::map<std::vector<std::size_t>, std::size_t> cluster_of;
  std::vector<std::size_t> membership(n);
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<std::size_t> systems;
    for (const Entry *e = m.begin(j); e != m.end(j); ++e)
      if (attractor[e->row] && e->value > 0) systems.push_back(root(parent, e->row));
    std::sort(systems.begin(), systems.end());
    systems.erase(std::unique(systems.begin(), systems.end()), systems.end());
    // (no attractor reached: the node alone, keyed apart from every system by n + j)
    if (systems.empty()) systems.push_back(n + j);
    const auto it = cluster_of.emplace(std::move(systems), cluster_of.size()).first;
    membership[j] = it->second;
  }
  return membership;
}

}  // namespace mcl_steps

std::size_t renumber(std::vector<std::size_t> &membership) {
  std::map<std::size_t, std::size_t> number;
  for (std::size_t &c : membership) c = number.emplace(c, number.size()).first->second;
  return number.size();
}

MclPartition mcl(const WeightedGraph &g, double inflation, std::size_t max_iterations) {
  MclPartition r;
  mcl_steps::Matrix m = mcl_steps::flow_matrix(g);
  r.converged = false;
  while (r.iterations < max_iterations) {
    m = mcl_steps::expand(m);
    ++r.iterations;
    if (mcl_steps::inflate(m, inflation) < mcl_steps::kSettled) {
      r.converged = true;
      break;
    }
  }
  if (g.nodes == 0) r.converged = true;
  r.membership = mcl_steps::interpret(m);
  r.clusters = renumber(r.membership);
  return r;
}

}  // namespace grappi::detail
