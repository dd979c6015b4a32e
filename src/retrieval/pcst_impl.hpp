// Internal: the state of PCSTSolver, shared by the files that implement it. The phases:
//   pcst_grow.cpp            the default growth engine (radix-queue event order)
//   pcst_grow_reference.cpp  the reference growth engine (pcst_fast's event order and arithmetic)
//   pcst_prune.cpp           good nodes, then pruning none / simple / gw / strong
//   pcst_improve.cpp         the optional local search after pruning (pcst_exchange.cpp: its
//                            exchange moves; pcst_exact.cpp: the exact search for few prizes)
//   pcst.cpp                 the public API: validation and the order of the phases
// Both engines fill the same merge forest (clusters, their merge tree, the merges), which the
// pruning reads. How the engines take their events is described in their files.
#pragma once

#include <functional>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "grappi/pcst.hpp"
#include "retrieval/pcst_queues.hpp"
#include "common/visibility.hpp"

namespace grappi {

namespace detail {
constexpr double kPcstEps = 1e-9;  // an edge whose remaining slack is at most this is tight

// The edges at each node in CSR form (node v's in adj[off[v], off[v + 1])): every edge of the
// instance, or only those `keep` marks (a forest). `fill` is scratch.
inline void edge_csr(std::size_t n, std::size_t m, const int64_t *ends, const std::vector<char> *keep,
                     std::vector<int32_t> &off, std::vector<int32_t> &adj, std::vector<int32_t> &fill) {
  off.assign(n + 1, 0);
  for (std::size_t e = 0; e < m; ++e)
    if (!keep || (*keep)[e]) {
      ++off[static_cast<std::size_t>(ends[2 * e]) + 1];
      ++off[static_cast<std::size_t>(ends[2 * e + 1]) + 1];
    }
  for (std::size_t i = 0; i < n; ++i) off[i + 1] += off[i];
  adj.assign(static_cast<std::size_t>(off[n]), 0);
  fill.assign(off.begin(), off.end() - 1);
  for (std::size_t e = 0; e < m; ++e)
    if (!keep || (*keep)[e]) {
      adj[static_cast<std::size_t>(fill[static_cast<std::size_t>(ends[2 * e])]++)] = static_cast<int32_t>(e);
      adj[static_cast<std::size_t>(fill[static_cast<std::size_t>(ends[2 * e + 1])]++)] = static_cast<int32_t>(e);
    }
}

// An instance with its adjacency (edges by node, CSR), as the improvement phase's moves read it.
struct PcstView {
  std::size_t n = 0, m = 0;
  const int64_t *ends = nullptr;
  const double *cost = nullptr, *prize = nullptr;
  std::vector<int32_t> off, adj_e;
  int32_t other(int32_t e, int32_t v) const {
    const auto i = static_cast<std::size_t>(e);
    return static_cast<int32_t>(ends[2 * i] == v ? ends[2 * i + 1] : ends[2 * i]);
  }
};
// Key-path exchange (pcst_exchange.cpp): each path between key nodes (the root, leaves, branchings,
// nodes with a prize) replaced by a cheaper path through nodes outside the forest, if any, until
// none is. Steiner-vertex insertion: a node outside joined to two nodes of one tree, the costliest
// edge on the tree path between them let go, when that gains. Each spends `budget` (adjacency
// entries scanned) and returns the objective's decrease.
double pcst_key_path_exchange(const PcstView &g, int64_t root, std::vector<char> &keep_node, std::vector<char> &keep_edge,
                              std::size_t &budget);
double pcst_vertex_insertion(const PcstView &g, int64_t root, std::vector<char> &keep_node, std::vector<char> &keep_edge,
                             std::size_t &budget);
// The exact search for few prized nodes (pcst_exact.cpp), one tree: run when the instance has at
// most kPcstExactTerminals prized nodes (the root counted) and 2^terminals * nodes is at most
// kPcstExactCells (its memory: 12 bytes a cell); fills the optimal tree and its objective and
// returns true, else returns false and changes nothing.
constexpr std::size_t kPcstExactTerminals = 16;
constexpr std::size_t kPcstExactCells = std::size_t{1} << 22;
bool pcst_exact_few_prizes(const PcstView &g, int64_t root, std::vector<char> &keep_node, std::vector<char> &keep_edge,
                           double &objective);
}  // namespace detail

struct GRAPPI_HIDDEN PCSTSolver::Impl {
  // ---- input ----
  std::size_t n = 0, m = 0;
  const double *prize = nullptr;
  // PcstOptions::cancel (may be empty), polled every 4,096 growth events; set when it said yes.
  // The growth loops test `can_cancel()` once and call stop_asked() only when it holds, so a
  // solve without a cancel pays nothing per event.
  const std::function<bool()> *cancel = nullptr;
  bool cancelled = false;
  uint32_t polls = 0;
  bool can_cancel() const { return cancel && *cancel; }
  bool stop_asked() {
    if ((++polls & 4095u) != 0) return false;
    cancelled = cancelled || (*cancel)();
    return cancelled;
  }
  const int64_t *ends = nullptr;
  const double *cost = nullptr;

  // ---- edge parts: one per endpoint of every edge that is not a self-loop, grouped by node
  // (CSR order). A part is "dead" (key = +inf) once its edge lies inside one cluster. ----
  struct alignas(32) Part {
    double key;     // a time no later than the one at which this part's edge becomes tight
    double cost;    // its edge's (here to save a load per event)
    int32_t twin;   // the part at the other endpoint
    int32_t other;  // the node at the other endpoint
    int32_t edge;
    int32_t bnext;  // next part in its cluster's bag (a circular list)
  };
  static constexpr double kDead = std::numeric_limits<double>::infinity();
  // The parts are read in random order, one or two per event (a HugeBuffer: huge pages).
  detail::HugeBuffer<Part> parts;
  std::vector<int32_t> part_off;  // parts of node u: [part_off[u], part_off[u+1])
  Part &P(int32_t p) { return parts[static_cast<std::size_t>(p)]; }

  // ---- clusters (n leaves, then one per merge) ----
  struct Cluster {
    double moat;     // moat when last deactivated (or when it became inactive by merging)
    double start;    // time it became active
    int32_t bag;     // last part of its bag (-1: empty): every live part of its nodes
    int32_t active;  // growing
  };
  struct Up {
    double jsum;   // sum of final moats from this cluster up to (not including) `jump`
    int32_t jump;  // compressed path towards the top of the merge tree (-1: top)
  };
  std::vector<Cluster> cl;
  std::vector<Up> up;
  std::vector<int32_t> parent, child_a, child_b;
  std::vector<double> prize_sum, inner;
  std::vector<char> has_root, necessary;
  int64_t active_count = 0;

  // ---- edge events: one global monotone queue of (key, part) entries. Event times never go
  // below the last one taken, so a radix heap over the keys' bit patterns (non-negative doubles
  // order like their bits) serves them: a push is an append, a pop moves each entry down a few
  // buckets over its lifetime. Entries are not removed when a part's key changes or it dies:
  // an entry whose slot (rounded key, below) is no longer its part's is skipped when it
  // surfaces. ----
  using RadixQueue = detail::RadixQueue;
  RadixQueue rq;
  // Part p is alive and its key still falls in `slot` (else an entry for it is stale).
  bool keyed_in(int32_t p, uint64_t slot);
  bool current(const RadixQueue::Entry &x) { return keyed_in(x.part, x.key); }

  // ---- the events of one time (a batch): taken in the reference's order, the growing cluster
  // with the lowest index first (a cluster made by a merge has a higher index than all before
  // it, so every cluster takes a turn before a merged one goes on); in a cluster the edges to
  // growing clusters first (two growing clusters meet before more non-growing ones are absorbed
  // at the same time: fewer useless merges), then the lowest edge index - except that among
  // edges to non-growing clusters the cheapest goes first (of two edges that become tight at
  // once into the same non-growing cluster, the cheaper one absorbs it: same merge, lower
  // cost; costs compared in single precision, equal ones by edge index). Each cluster's share
  // is a small pairing heap over batch nodes, melded when clusters merge. ----
  struct BNode {
    uint64_t rank;  // edge index; for an edge to a non-growing side kAway + its cost + edge index
    int32_t part, child, next;
  };
  static constexpr uint64_t kAway = uint64_t{1} << 62;  // above every edge index and cost
  static uint64_t away_rank(const Part &x);
  uint64_t rank_of(int32_t p);
  std::vector<BNode> bn;
  std::vector<int32_t> bheap;    // per cluster: root batch node (-1: none)
  std::vector<int32_t> touched;  // clusters whose bheap is set in this batch
  detail::MinHeap<int32_t> turns;
  uint64_t batch_key = 0;
  bool in_batch = false;
  int32_t bmeld(int32_t a, int32_t b);
  int32_t bpop(int32_t root);
  void batch_add(int32_t p, int32_t c);
  // Queues part p, of cluster c, with key k (its key already).
  void push(double k, int32_t p, int32_t c);
  // The next edge event's part (its key is the time; -1: none); its cluster in `turn`.
  int32_t turn = -1;
  int32_t next_event();

  // ---- deactivation events (pushed once per active cluster: its deactivation time only
  // changes by merging, which makes a new cluster); ties: lower cluster index first ----
  struct Deact {
    double time;
    int32_t cluster;
    bool operator>(const Deact &o) const { return time > o.time || (time == o.time && cluster > o.cluster); }
  };
  detail::MinHeap<Deact> deacts;  // merged clusters
  std::vector<Deact> deacts0;  // the nodes', sorted once (their times are their prizes)
  std::size_t deacts0_next = 0;
  bool live(const Deact &d) const;
  // The next deactivation of a growing cluster, or nullptr.
  const Deact *next_deact();
  // Sorts by time, ties in their present order (here: ascending cluster index); a stable LSD
  // radix sort over the times' bit patterns (non-negative doubles order like their bits), 11 bits
  // a pass, passes whose digit is the same everywhere skipped. Short arrays: an in-place sort by
  // (time, cluster), the same order (std::stable_sort would allocate a buffer).
  std::vector<Deact> sort_tmp;
  std::vector<std::size_t> sort_count;
  void sort_by_time(std::vector<Deact> &v);
  void drop_deact(const Deact *d);

  // ---- phase 1 result ----
  struct Merge {
    int32_t edge, inactive_cluster, active_node, inactive_node;
  };
  std::vector<Merge> merges;
  std::vector<int32_t> stack;

  // Top cluster of c and the sum of the (final) moats strictly below it on c's path.
  std::pair<int32_t, double> find(int32_t c) {
    double sum = 0;
    int32_t x = c;
    stack.clear();
    while (up[static_cast<std::size_t>(x)].jump >= 0) {
      stack.push_back(x);
      sum += up[static_cast<std::size_t>(x)].jsum;
      x = up[static_cast<std::size_t>(x)].jump;
    }
    // path compression: every node on the path jumps straight to the top
    double acc = sum;
    for (int32_t y : stack) {
      Up &k = up[static_cast<std::size_t>(y)];
      const double own = k.jsum;
      k.jsum = acc;
      k.jump = x;
      acc -= own;
    }
    return {x, sum};
  }
  double current_moat(int32_t c, double t) const {
    const Cluster &k = cl[static_cast<std::size_t>(c)];
    return k.moat + (k.active ? t - k.start : 0.0);
  }

  void push_deactivation(int32_t c);

  int32_t new_cluster();

  void deactivate(int32_t c, double t);

  // Joins two circular bags given by their last parts; returns the last part of the result.
  int32_t concat(int32_t ta, int32_t tb);

  void merge(int32_t a, int32_t b, int32_t e, double t, int32_t node_a, int32_t node_b);

  // Both engines store the edge parts grouped by node, a node's in edge order: part_off gets
  // each node's range and sp_fill (strong pruning's scratch, free until then) each range's
  // start, to be advanced as the parts are written. Returns the number of parts.
  int32_t group_parts(bool self_loops) {
    part_off.assign(n + 1, 0);
    for (std::size_t e = 0; e < m; ++e) {
      const int64_t u = ends[2 * e], v = ends[2 * e + 1];
      if (u == v && !self_loops) continue;
      ++part_off[static_cast<std::size_t>(u) + 1];
      ++part_off[static_cast<std::size_t>(v) + 1];
    }
    for (std::size_t i = 0; i < n; ++i) part_off[i + 1] += part_off[i];
    sp_fill.assign(part_off.begin(), part_off.end() - 1);
    return part_off[n];
  }

  // Re-keys every live part of the bag whose last part is `tail`, of a cluster that was not
  // growing and is now inside the active cluster c that starts growing at time t, as an event
  // would; parts of edges inside c die (with their twins) and dead parts leave the bag. Returns
  // the bag's new last part.
  int32_t rekey(int32_t tail, int32_t c, double t);

  // The default engine (pcst_grow.cpp): fills the merge forest until `target` clusters grow.
  void grow(int64_t root, int64_t target);

  // ---- the reference engine (pcst_grow_reference.cpp): pcst_fast's event order and arithmetic.
  // Edge parts are stored grouped by node (the parts of a node in edge order) so that a leaf's
  // heap - its parts, linked one after the other - lies in consecutive memory. The heap fields
  // (walked when a root's children are paired: most of the time) apart from the rest.
  struct RNode {
    double value, offset;  // key (relative to the parent's offset) and the shift owed to the children
    int32_t child, sibling, prev;  // prev: the parent when first child, else the left sibling (-1: a root)
  };
  struct RPart {
    double next;  // pcst_fast's "next event value"
    double cost;  // its edge's
    int32_t twin;  // the part at the other endpoint
    int32_t node, edge;
    int32_t dead;  // its edge is inside one cluster
  };
  // One cache line per cluster, the fields the moat sums walk first (children: child_a/b).
  struct alignas(64) RCluster {
    double skip_sum = 0.0, moat = 0.0, start = 0.0;
    int32_t merged_into = -1, skip_up = -1;
    char active = 0, root = 0;
    int32_t heap = -1;
    double end = -1.0, prize_sum = 0.0, sub_moat = 0.0;
  };
  using KeyedQueue = detail::KeyedQueue;
  detail::HugeBuffer<RNode> rnode;
  detail::HugeBuffer<RPart> rpart;
  std::vector<RCluster> rcl;
  std::vector<int32_t> rbuf;
  std::vector<std::pair<int32_t, double>> rpath;
  KeyedQueue redge, rdeact;

  RNode &R(int32_t p) { return rnode[static_cast<std::size_t>(p)]; }
  RPart &RP(int32_t p) { return rpart[static_cast<std::size_t>(p)]; }
  RCluster &RC(int32_t c) { return rcl[static_cast<std::size_t>(c)]; }
  int32_t plink(int32_t a, int32_t b);
  void pinsert(int32_t &root, int32_t p, double key);
  void pshift(int32_t root, double by);
  void pdecrease(int32_t &root, int32_t p, double from, double to);
  void ppop(int32_t &root);
  // Cluster of part p's node (its top), with the moats below and around it: `total` includes
  // the top's moat so far, `fin` only the finished ones. Path compression as the reference does
  // it (the sums' rounding is part of its results).
  int32_t rsum(int32_t p, double t, double &total, double &fin);
  // Queues cluster c at its heap's minimum (or takes it out when its heap is empty).
  void rqueue_min(int32_t c);
  void grow_reference(int64_t root, int64_t target);

  // All leaves (nodes) under cluster c.
  template <class F>
  void leaves(int32_t c, F &&f) {
    stack.clear();
    stack.push_back(c);
    while (!stack.empty()) {
      int32_t x = stack.back();
      stack.pop_back();
      if (x < static_cast<int32_t>(n)) {
        f(x);
      } else {
        stack.push_back(child_a[x]);
        stack.push_back(child_b[x]);
      }
    }
  }

  void mark_necessary(int32_t node) {
    for (int32_t x = node; x >= 0 && !necessary[x]; x = parent[x]) necessary[x] = 1;
  }

  PcstResult run(int64_t root, int num_clusters, Pruning pruning, bool improve, bool reference_order);
  // Per-call buffers of the pruning phases, kept between calls (a reused solver allocates
  // only its result).
  std::vector<char> good, sel_node, sel_edge, deleted, sp_out_node, sp_out_edge, sp_seen;
  std::vector<int32_t> sp_deg, sp_adj, sp_fill, sp_order, sp_comp, sp_par, sp_par_edge;
  std::vector<double> sp_down, sp_full;
  std::vector<int64_t> flat;  // the edges of the vector overload of solve(), two ends each
  void strong_prune(int64_t root, std::vector<char> &keep_node, std::vector<char> &keep_edge);
  // The local search (and, for one tree with few prized nodes, the exact search); sets
  // proven_optimal when the result is the optimum.
  int improve(int64_t root, int num_clusters, std::vector<char> &keep_node, std::vector<char> &keep_edge);
  bool proven_optimal = false;
  // The instance's adjacency for the improvement phase, built by its first call in a solve.
  detail::PcstView adjacency;
  bool adjacency_ready = false;
  // The local search again from the other event order's strongly pruned growth; keeps the better.
  void second_start(int64_t root, int num_clusters, bool reference_order, std::vector<char> &keep_node,
                    std::vector<char> &keep_edge, int &rounds);
  double objective_of(const std::vector<char> &keep_node, const std::vector<char> &keep_edge) const {
    double left = 0, paid = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (!keep_node[i]) left += prize[i];
    for (std::size_t e = 0; e < m; ++e)
      if (keep_edge[e]) paid += cost[e];
    return left + paid;
  }
};

}  // namespace grappi
