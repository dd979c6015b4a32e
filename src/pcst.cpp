// Prize-collecting Steiner forest: Goemans-Williamson moat growing, moat sums by path
// compression over the merge tree, then none / simple / GW / strong pruning. Written from the
// algorithm's description. Two growth engines fill the same merge forest for the pruning: the
// default one below (grow), and grow_reference, which takes the events in pcst_fast's own order
// (PcstOptions::reference_order; described where it is defined).
//
// Events: every edge has a part per endpoint. Keys are absolute times, so the edge events of all
// clusters go through one monotone radix queue (no per-cluster heaps to meld); a part whose key
// changes is pushed again and its old entry skipped when it surfaces. The events of one time are
// taken in the reference solver's order: the growing cluster with the lowest index first, in a
// cluster edges to growing clusters first, then the lowest edge index (tie-heavy instances -
// integer or uniform costs - give trees like pcst_fast's that way). Times that differ only in
// their last bits (rounding in the sums that formed them) count as the same time.
//
// Growth loop invariant: for every edge between two clusters of which at least one grows, the
// part in each growing endpoint cluster has a key no later than the time the edge becomes tight
// if nothing changes. An event takes the earliest part and either merges, discards an edge inside
// one cluster (with its twin), or re-keys the part exactly (and lowers its twin's key). Parts of
// a cluster that does not grow are skipped when they surface; each cluster keeps a bag (circular
// list) of its live parts, and when a cluster that was not growing joins a growing one all of
// its parts are re-keyed at once (rekey): their old keys, and their twins', assumed the old
// state. Nodes without prize never grow: they start inactive instead of deactivating at time 0.
#include "visibility.hpp"
#include "grappi/pcst.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <functional>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <new>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <cstdint>
#include <cstring>
#include <queue>
#include <string>
#include <type_traits>

#include "grappi/error.hpp"
#include "text_reader.hpp"

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

const char *to_string(Pruning p) noexcept {
  switch (p) {
    case Pruning::none: return "none";
    case Pruning::simple: return "simple";
    case Pruning::gw: return "gw";
    case Pruning::strong: return "strong";
  }
  return "unknown";
}

namespace {
constexpr double kEps = 1e-9;  // an edge whose remaining slack is at most this is tight
}

// A min-priority queue that can be emptied without giving up its buffer (reassigning a
// std::priority_queue frees it): clear() empties the protected container.
template <class T>
struct MinHeap : std::priority_queue<T, std::vector<T>, std::greater<T>> {
  void clear() { this->c.clear(); }
};

// An array read in random order: on Linux, 2 MB and more ask for transparent huge pages (far
// fewer TLB misses and page faults). Not zero-filled: every element is written before use. It
// only grows (reserve keeps the room, not the contents), so a reused solver allocates nothing.
template <class T>
class HugeBuffer {
  static_assert(std::is_trivially_destructible<T>::value, "HugeBuffer frees without destructors");

 public:
  T &operator[](std::size_t i) { return p_.get()[i]; }
  void reserve(std::size_t count) {
    if (count <= cap_ && p_) return;
    p_.reset();
    cap_ = std::max<std::size_t>(count, 1);
    p_.reset(allocate(cap_));
  }

 private:
  struct Free {
    void operator()(T *p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> p_;
  std::size_t cap_ = 0;
  static T *allocate(std::size_t count) {
    constexpr std::size_t kHuge = std::size_t{1} << 21;
    std::size_t bytes = count * sizeof(T);
    const bool huge = bytes >= kHuge;
    if (huge) bytes = (bytes + kHuge - 1) / kHuge * kHuge;
    void *mem = nullptr;
    if (posix_memalign(&mem, huge ? kHuge : std::max(alignof(T), sizeof(void *)), bytes) != 0) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    if (huge) madvise(mem, bytes, MADV_HUGEPAGE);  // advice only: failure changes nothing
#endif
    T *p = static_cast<T *>(mem);
    std::uninitialized_default_construct_n(p, bytes / sizeof(T));
    return p;
  }
};

struct GRAPPI_HIDDEN PCSTSolver::Impl {
  // ---- input ----
  std::size_t n = 0, m = 0;
  const double *prize = nullptr;
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
  HugeBuffer<Part> parts;
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
  struct RadixQueue {
    struct Entry {
      uint64_t key;
      int32_t part;
    };
    std::vector<Entry> b[65];  // b[0]: key == last; b[i]: highest differing bit from last is i-1
    uint64_t last = 0;
    std::size_t size = 0;
    static uint64_t bits(double d) {
      d += 0.0;  // -0.0 -> +0.0
      uint64_t u;
      std::memcpy(&u, &d, sizeof u);
      return u;
    }
    // Entries are ordered by their time rounded down to 2^-36 relative (the low 16 of the 52
    // mantissa bits dropped): times that differ only by rounding in how their sums were formed
    // share a batch, and the turn order below decides between them instead of the noise. Parts
    // keep their exact times, and every event is evaluated at its own.
    static constexpr uint64_t kQuantum = 65536;
    static uint64_t slot(double d) { return bits(d) & ~(kQuantum - 1); }
    int bucket(uint64_t u) const { return u == last ? 0 : 64 - __builtin_clzll(u ^ last); }
    void clear() {
      for (auto &v : b) v.clear();
      last = 0;
      size = 0;
    }
    void make_room(int j, std::size_t extra) {
      std::vector<Entry> &v = b[j];
      if (v.size() + extra > v.capacity()) v.reserve(std::max(v.size() + extra, 2 * v.capacity()));
    }
    void push(uint64_t u, int32_t p) {
      b[bucket(u)].push_back({u, p});
      ++size;
    }
    // An entry with the smallest key (the queue must not be empty).
    const Entry &top() {
      if (b[0].empty()) {
        int i = 1;
        while (b[i].empty()) ++i;
        uint64_t lo = b[i][0].key;
        for (const Entry &e : b[i]) lo = std::min(lo, e.key);
        last = lo;
        // every entry of b[i] lands in a lower bucket, the minimum ones in b[0]
        for (const Entry &e : b[i]) b[bucket(e.key)].push_back(e);
        b[i].clear();
      }
      return b[0].back();
    }
    void pop() {
      b[0].pop_back();
      --size;
    }
  } rq;
  // Part p is alive and its key still falls in `slot` (else an entry for it is stale).
  bool keyed_in(int32_t p, uint64_t slot) {
    const double k = P(p).key;
    return k != kDead && RadixQueue::slot(k) == slot;
  }
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
  static uint64_t away_rank(const Part &x) {
    // a non-negative float's bits order like its value, and fit in 31 bits
    const float c = static_cast<float>(x.cost);
    uint32_t cb;
    std::memcpy(&cb, &c, sizeof cb);
    return kAway | (uint64_t{cb} << 30) | static_cast<uint64_t>(x.edge);
  }
  uint64_t rank_of(int32_t p) {
    const Part &x = P(p);
    return cl[static_cast<std::size_t>(find(x.other).first)].active ? static_cast<uint64_t>(x.edge) : away_rank(x);
  }
  std::vector<BNode> bn;
  std::vector<int32_t> bheap;    // per cluster: root batch node (-1: none)
  std::vector<int32_t> touched;  // clusters whose bheap is set in this batch
  MinHeap<int32_t> turns;
  uint64_t batch_key = 0;
  bool in_batch = false;
  int32_t bmeld(int32_t a, int32_t b) {
    if (a < 0) return b;
    if (b < 0) return a;
    BNode *x = &bn[static_cast<std::size_t>(a)], *y = &bn[static_cast<std::size_t>(b)];
    if (y->rank < x->rank || (y->rank == x->rank && y->part < x->part)) {
      std::swap(a, b);
      std::swap(x, y);
    }
    y->next = x->child;
    x->child = b;
    return a;
  }
  int32_t bpop(int32_t root) {
    int32_t c = bn[static_cast<std::size_t>(root)].child, chain = -1;
    while (c >= 0) {
      const int32_t x = c, y = bn[static_cast<std::size_t>(x)].next;
      int32_t w = x;
      if (y >= 0) {
        c = bn[static_cast<std::size_t>(y)].next;
        w = bmeld(x, y);
      } else {
        c = -1;
      }
      bn[static_cast<std::size_t>(w)].next = chain;
      chain = w;
    }
    int32_t r = -1;
    while (chain >= 0) {
      const int32_t nx = bn[static_cast<std::size_t>(chain)].next;
      bn[static_cast<std::size_t>(chain)].next = -1;
      r = bmeld(r, chain);
      chain = nx;
    }
    return r;
  }
  void batch_add(int32_t p, int32_t c) {
    const auto i = static_cast<int32_t>(bn.size());
    bn.push_back({static_cast<uint64_t>(P(p).edge), p, -1, -1});  // ranked as an edge to a growing side until checked
    int32_t &h = bheap[static_cast<std::size_t>(c)];
    if (h < 0) {
      touched.push_back(c);
      turns.push(c);
    }
    h = bmeld(h, i);
  }
  // Queues part p, of cluster c, with key k (its key already).
  void push(double k, int32_t p, int32_t c) {
    const uint64_t u = RadixQueue::slot(k);
    if (in_batch && u == batch_key) batch_add(p, c);
    else rq.push(u, p);
  }
  // The next edge event's part (its key is the time; -1: none); its cluster in `turn`.
  int32_t turn = -1;
  int32_t next_event() {
    for (;;) {
      while (!turns.empty()) {
        const int32_t c = turns.top();
        int32_t &h = bheap[static_cast<std::size_t>(c)];
        if (h < 0 || parent[static_cast<std::size_t>(c)] >= 0 || !cl[static_cast<std::size_t>(c)].active) {
          turns.pop();
          continue;
        }
        const int32_t p = bn[static_cast<std::size_t>(h)].part;
        if (!keyed_in(p, batch_key)) {  // re-keyed or dead since
          h = bpop(h);
          continue;
        }
        // Ranks are checked when a node reaches the top of a turn with others behind it (alone,
        // its rank does not matter): too low a rank (a new node's, or an edge whose other side
        // stopped growing) surfaces early and is corrected here; an edge whose other side
        // starts growing gets a new node (rekey).
        const uint64_t rank = bn[static_cast<std::size_t>(h)].child < 0 ? bn[static_cast<std::size_t>(h)].rank : rank_of(p);
        if (rank != bn[static_cast<std::size_t>(h)].rank) {
          const int32_t x = h;
          h = bpop(h);
          bn[static_cast<std::size_t>(x)] = {rank, p, -1, -1};
          h = bmeld(h, x);
          continue;
        }
        turn = c;
        return p;
      }
      for (const int32_t c : touched) bheap[static_cast<std::size_t>(c)] = -1;
      touched.clear();
      bn.clear();
      in_batch = false;
      while (rq.size && !current(rq.top())) rq.pop();
      if (!rq.size) return -1;
      batch_key = rq.top().key;
      in_batch = true;
      // all entries with this key are in the radix queue's bucket 0 now; taking no more keeps
      // its `last` at this key, as pushes made during the batch require
      while (!rq.b[0].empty()) {
        {
          // software pipeline over the entries still to come (taken from the back): their
          // part, then its twin (for the node), then the node's merge-tree record
          const std::size_t k = rq.b[0].size();
          if (k > 12) __builtin_prefetch(&P(rq.b[0][k - 13].part));
          if (k > 8) __builtin_prefetch(&P(P(rq.b[0][k - 9].part).twin));
          if (k > 4) __builtin_prefetch(&up[static_cast<std::size_t>(P(P(rq.b[0][k - 5].part).twin).other)]);
        }
        const int32_t p = rq.b[0].back().part;
        rq.pop();
        if (!keyed_in(p, batch_key)) continue;
        const int32_t c = find(P(P(p).twin).other).first;
        if (cl[static_cast<std::size_t>(c)].active) batch_add(p, c);
      }
    }
  }

  // ---- deactivation events (pushed once per active cluster: its deactivation time only
  // changes by merging, which makes a new cluster); ties: lower cluster index first ----
  struct Deact {
    double time;
    int32_t cluster;
    bool operator>(const Deact &o) const { return time > o.time || (time == o.time && cluster > o.cluster); }
  };
  MinHeap<Deact> deacts;  // merged clusters
  std::vector<Deact> deacts0;  // the nodes', sorted once (their times are their prizes)
  std::size_t deacts0_next = 0;
  bool live(const Deact &d) const {
    return cl[static_cast<std::size_t>(d.cluster)].active && parent[static_cast<std::size_t>(d.cluster)] < 0;
  }
  // The next deactivation of a growing cluster, or nullptr.
  const Deact *next_deact() {
    while (deacts0_next < deacts0.size() && !live(deacts0[deacts0_next])) ++deacts0_next;
    while (!deacts.empty() && !live(deacts.top())) deacts.pop();
    const Deact *a = deacts0_next < deacts0.size() ? &deacts0[deacts0_next] : nullptr;
    const Deact *b = deacts.empty() ? nullptr : &deacts.top();
    if (!a) return b;
    if (!b) return a;
    return *a > *b ? b : a;
  }
  // Sorts by time, ties in their present order (here: ascending cluster index); a stable LSD
  // radix sort over the times' bit patterns (non-negative doubles order like their bits), 11 bits
  // a pass, passes whose digit is the same everywhere skipped. Short arrays: an in-place sort by
  // (time, cluster), the same order (std::stable_sort would allocate a buffer).
  std::vector<Deact> sort_tmp;
  std::vector<std::size_t> sort_count;
  void sort_by_time(std::vector<Deact> &v) {
    if (v.size() < 4096) {
      std::sort(v.begin(), v.end(), [](const Deact &x, const Deact &y) { return y > x; });
      return;
    }
    sort_tmp.resize(v.size());
    for (int shift = 0; shift < 64; shift += 11) {
      auto digit = [shift](const Deact &d) { return static_cast<std::size_t>((RadixQueue::bits(d.time) >> shift) & 2047); };
      sort_count.assign(2049, 0);
      for (const Deact &d : v) ++sort_count[digit(d) + 1];
      if (sort_count[digit(v[0]) + 1] == v.size()) continue;
      for (std::size_t i = 1; i < sort_count.size(); ++i) sort_count[i] += sort_count[i - 1];
      for (const Deact &d : v) sort_tmp[sort_count[digit(d)]++] = d;
      v.swap(sort_tmp);
    }
  }
  void drop_deact(const Deact *d) {
    if (!deacts.empty() && d == &deacts.top()) deacts.pop();
    else ++deacts0_next;
  }

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

  void push_deactivation(int32_t c) {
    const Cluster &k = cl[static_cast<std::size_t>(c)];
    if (k.active)
      deacts.push({k.start + std::max(0.0, prize_sum[static_cast<std::size_t>(c)] -
                                               inner[static_cast<std::size_t>(c)] - k.moat),
                   c});
  }

  int32_t new_cluster() {
    cl.push_back({0.0, 0.0, -1, 0});
    up.push_back({0.0, -1});
    parent.push_back(-1);
    child_a.push_back(-1);
    child_b.push_back(-1);
    prize_sum.push_back(0);
    inner.push_back(0);
    has_root.push_back(0);
    necessary.push_back(0);
    bheap.push_back(-1);
    return static_cast<int32_t>(cl.size() - 1);
  }

  void deactivate(int32_t c, double t) {
    Cluster &k = cl[static_cast<std::size_t>(c)];
    k.moat += t - k.start;
    k.active = 0;
    --active_count;
  }

  // Joins two circular bags given by their last parts; returns the last part of the result.
  int32_t concat(int32_t ta, int32_t tb) {
    if (ta < 0) return tb;
    if (tb < 0) return ta;
    std::swap(P(ta).bnext, P(tb).bnext);
    return tb;
  }

  void merge(int32_t a, int32_t b, int32_t e, double t, int32_t node_a, int32_t node_b) {
    Merge rec{e, -1, -1, -1};
    const bool act_a = cl[static_cast<std::size_t>(a)].active, act_b = cl[static_cast<std::size_t>(b)].active;
    if (act_a && !act_b) rec = {e, b, node_a, node_b};
    if (!act_a && act_b) rec = {e, a, node_b, node_a};
    for (int32_t x : {a, b})
      if (cl[static_cast<std::size_t>(x)].active) deactivate(x, t);
    const int32_t c = new_cluster();
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b), uc = static_cast<std::size_t>(c);
    prize_sum[uc] = prize_sum[ua] + prize_sum[ub];
    inner[uc] = inner[ua] + cl[ua].moat + inner[ub] + cl[ub].moat;
    has_root[uc] = has_root[ua] || has_root[ub];
    child_a[uc] = a;
    child_b[uc] = b;
    for (int32_t x : {a, b}) {
      parent[static_cast<std::size_t>(x)] = c;
      up[static_cast<std::size_t>(x)] = {cl[static_cast<std::size_t>(x)].moat, c};
    }
    merges.push_back(rec);
    if (!has_root[uc]) {
      cl[uc].active = 1;
      ++active_count;
      cl[uc].start = t;
      // A side that was not growing starts to: its parts' keys and the keys of their twins in
      // other growing clusters no longer bound the edges' tight times, so recompute them now.
      for (std::size_t x : {ua, ub})
        if (!(x == ua ? act_a : act_b)) cl[x].bag = rekey(cl[x].bag, c, t);
    }
    cl[uc].bag = concat(cl[ua].bag, cl[ub].bag);
    cl[ua].bag = cl[ub].bag = -1;
    if (bheap[ua] >= 0 || bheap[ub] >= 0) {
      if (bheap[uc] < 0) {
        touched.push_back(c);
        turns.push(c);
      }
      bheap[uc] = bmeld(bheap[uc], bmeld(bheap[ua], bheap[ub]));
      bheap[ua] = bheap[ub] = -1;
    }
    push_deactivation(c);
  }

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
  int32_t rekey(int32_t tail, int32_t c, double t) {
    if (tail < 0) return -1;
    int32_t head = -1, last = -1;
    const int32_t first = P(tail).bnext;
    int32_t x = first;
    do {
      Part &px = P(x);
      const int32_t nx = px.bnext;
      if (px.key != kDead) {
        Part &tw = P(px.twin);
        const double su = find(tw.other).second;
        const auto [cv, sv] = find(px.other);
        if (cv == c) {
          px.key = tw.key = kDead;
        } else {
          const double rem = px.cost - su - sv - current_moat(cv, t);
          const bool other_active = cl[static_cast<std::size_t>(cv)].active;
          const double k = std::max(t, other_active ? t + rem / 2 : t + rem);
          px.key = k;
          push(k, x, c);
          if (other_active && tw.key > k) {
            tw.key = k;
            push(k, px.twin, cv);
          } else if (other_active && in_batch && RadixQueue::slot(tw.key) == batch_key) {
            batch_add(px.twin, cv);  // its batch entry ranked it as an edge to a non-growing side
          }
          if (last < 0) head = x;
          else P(last).bnext = x;
          last = x;
        }
      }
      x = nx;
    } while (x != first);
    if (last >= 0) P(last).bnext = head;
    return last;
  }

  void grow(int64_t root, int64_t target) {
    cl.reserve(2 * n);
    up.reserve(2 * n);
    for (auto *v : {&parent, &child_a, &child_b, &bheap}) v->reserve(2 * n);
    for (auto *v : {&prize_sum, &inner}) v->reserve(2 * n);
    for (auto *v : {&has_root, &necessary}) v->reserve(2 * n);
    merges.reserve(n);
    // the n leaves at once (new_cluster's values)
    cl.assign(n, {0.0, 0.0, -1, 0});
    up.assign(n, {0.0, -1});
    for (auto *v : {&parent, &child_a, &child_b, &bheap}) v->assign(n, -1);
    prize_sum.assign(prize, prize + n);
    inner.assign(n, 0.0);
    has_root.assign(n, 0);
    necessary.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      if (static_cast<int64_t>(i) == root) {
        has_root[i] = 1;
      } else if (prize[i] > 0) {  // a node without prize would stop growing at time 0
        cl[i].active = 1;
        ++active_count;
      }
    }
    parts.reserve(static_cast<std::size_t>(group_parts(false)));  // a self-loop never connects anything
    {
      std::vector<int32_t> &fill = sp_fill;
      for (std::size_t e = 0; e < m; ++e) {
        const auto u = static_cast<std::size_t>(ends[2 * e]), v = static_cast<std::size_t>(ends[2 * e + 1]);
        if (u == v) continue;
        const int32_t pu = fill[u]++, pv = fill[v]++;
        // Keys: exact for a growing node (cost / 2 when both grow, cost when only it does); the
        // keys of a node that does not grow are computed when it joins a growing cluster.
        const double half = cost[e] / 2, full = cost[e];
        const auto ei = static_cast<int32_t>(e);
        parts[static_cast<std::size_t>(pu)] = {cl[u].active && !cl[v].active ? full : half, cost[e], pv,
                                               static_cast<int32_t>(v), ei, pu + 1};
        parts[static_cast<std::size_t>(pv)] = {cl[v].active && !cl[u].active ? full : half, cost[e], pu,
                                               static_cast<int32_t>(u), ei, pv + 1};
      }
    }
    // Every node's parts form its bag; the growing nodes' parts are queued (counted first, so
    // that the buckets are allocated once).
    rq.clear();
    bn.clear();
    touched.clear();
    turns.clear();
    in_batch = false;
    for (std::size_t u = 0; u < n; ++u) {
      const int32_t lo = part_off[u], hi = part_off[u + 1];
      if (lo == hi) continue;
      P(hi - 1).bnext = lo;
      cl[u].bag = hi - 1;
    }
    {
      std::size_t count[65] = {};
      for (std::size_t u = 0; u < n; ++u)
        if (cl[u].active)
          for (int32_t p = part_off[u]; p < part_off[u + 1]; ++p) ++count[rq.bucket(RadixQueue::slot(P(p).key))];
      for (int j = 0; j < 65; ++j) rq.make_room(j, count[j]);
      for (std::size_t u = 0; u < n; ++u)
        if (cl[u].active)
          for (int32_t p = part_off[u]; p < part_off[u + 1]; ++p) rq.push(RadixQueue::slot(P(p).key), p);
    }
    deacts0.clear();
    deacts0_next = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (cl[i].active) deacts0.push_back({prize[i], static_cast<int32_t>(i)});
    sort_by_time(deacts0);
    while (active_count > target) {
      const Deact *nd = next_deact();
      const int32_t p = next_event();
      if (!nd && p < 0) break;
      if (nd && (p < 0 || RadixQueue::slot(nd->time) <= batch_key)) {
        const Deact d = *nd;
        drop_deact(nd);
        deactivate(d.cluster, d.time);
        continue;
      }
      const double t = P(p).key;
      {
        int32_t &h = bheap[static_cast<std::size_t>(turn)];
        h = bpop(h);
      }
      Part &part = P(p);
      const int32_t e = part.edge, qp = part.twin;
      Part &twin = P(qp);
      const int32_t nu = twin.other, nv = part.other;
      auto [cu, su] = find(nu);
      if (!cl[static_cast<std::size_t>(cu)].active) continue;  // re-keyed when its cluster grows again
      auto [cv, sv] = find(nv);
      if (cu == cv) {  // already joined
        part.key = twin.key = kDead;
        continue;
      }
      const double ce = part.cost;
      const double rem = ce - su - current_moat(cu, t) - sv - current_moat(cv, t);
      if (rem <= kEps * std::max(1.0, ce)) {
        part.key = twin.key = kDead;
        merge(cu, cv, e, t, nu, nv);
        continue;
      }
      const bool other_active = cl[static_cast<std::size_t>(cv)].active;
      const double k = other_active ? t + rem / 2 : t + rem;
      part.key = k;
      push(k, p, cu);
      if (other_active && twin.key > k) {
        twin.key = k;
        push(k, qp, cv);
      }
    }
  }

  // ---- reference order (PcstOptions::reference_order): the event order and arithmetic of
  // pcst_fast itself, for results identical to it (and so to G-Retriever's subgraphs), ties
  // included. Its facts, written here from its description: every edge has a part per endpoint
  // (part 2e at the first endpoint, 2e + 1 at the second); each cluster keeps its parts in a
  // pairing heap with lazy key shifts (a link makes the node with the smaller key the parent,
  // the second one on equal keys; a pop pairs the children left to right and links the pairs
  // from the last to the first; an insert links the root with the new node; melding two
  // clusters links the current side's root with the other's); the edge events go through a
  // queue of the clusters' heap minima and the deactivations through a queue of clusters, both
  // ordered by (time, cluster index), a deactivation first when the times are equal; a merge
  // happens at the event time plus the remainder, when the remainder is below 1e-6 times the
  // edge's cost (or zero). About the reference's speed: no radix queue, one heap per cluster. --
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
  // A binary heap of (key, id), ordered by key then id, that can remove any id.
  struct KeyedQueue {
    struct Item {
      double key;
      int32_t id;
      bool operator<(const Item &o) const { return key < o.key || (key == o.key && id < o.id); }
    };
    std::vector<Item> h;
    std::vector<int32_t> pos;  // per id: index in h, or -1
    void reset(std::size_t ids) {
      h.clear();
      pos.assign(ids, -1);
    }
    bool empty() const { return h.empty(); }
    const Item &top() const { return h[0]; }
    void place(std::size_t i, const Item &x) {
      h[i] = x;
      pos[static_cast<std::size_t>(x.id)] = static_cast<int32_t>(i);
    }
    void sift_up(std::size_t i) {
      const Item x = h[i];
      while (i > 0 && x < h[(i - 1) / 2]) {
        place(i, h[(i - 1) / 2]);
        i = (i - 1) / 2;
      }
      place(i, x);
    }
    void sift_down(std::size_t i) {
      const Item x = h[i];
      for (;;) {
        std::size_t c = 2 * i + 1;
        if (c >= h.size()) break;
        if (c + 1 < h.size() && h[c + 1] < h[c]) ++c;
        if (!(h[c] < x)) break;
        place(i, h[c]);
        i = c;
      }
      place(i, x);
    }
    void insert(double key, int32_t id) {
      h.push_back({key, id});
      sift_up(h.size() - 1);
    }
    void set(int32_t id, double key) {  // inserts or re-keys
      const int32_t at = pos[static_cast<std::size_t>(id)];
      if (at < 0) return insert(key, id);
      const auto i = static_cast<std::size_t>(at);
      const Item x{key, id};
      h[i] = x;
      if (i > 0 && x < h[(i - 1) / 2]) sift_up(i);
      else sift_down(i);
    }
    void erase(int32_t id) {  // nothing when id is not queued
      const int32_t at = pos[static_cast<std::size_t>(id)];
      if (at < 0) return;
      pos[static_cast<std::size_t>(id)] = -1;
      const Item last = h.back();
      h.pop_back();
      const auto i = static_cast<std::size_t>(at);
      if (i == h.size()) return;
      place(i, last);
      if (i > 0 && last < h[(i - 1) / 2]) sift_up(i);
      else sift_down(i);
    }
  };
  HugeBuffer<RNode> rnode;
  HugeBuffer<RPart> rpart;
  std::vector<RCluster> rcl;
  std::vector<int32_t> rbuf;
  std::vector<std::pair<int32_t, double>> rpath;
  KeyedQueue redge, rdeact;

  RNode &R(int32_t p) { return rnode[static_cast<std::size_t>(p)]; }
  RPart &RP(int32_t p) { return rpart[static_cast<std::size_t>(p)]; }
  RCluster &RC(int32_t c) { return rcl[static_cast<std::size_t>(c)]; }
  int32_t plink(int32_t a, int32_t b) {
    if (a < 0) return b;
    if (b < 0) return a;
    int32_t s = b, l = a;
    if (R(a).value < R(b).value) std::swap(s, l);
    RNode &S = R(s), &L = R(l);
    L.sibling = S.child;
    if (L.sibling >= 0) R(L.sibling).prev = l;
    L.prev = s;
    S.child = l;
    L.value -= S.offset;
    L.offset -= S.offset;
    return s;
  }
  void pinsert(int32_t &root, int32_t p, double key) {
    RNode &x = R(p);
    x.value = key;
    x.offset = 0.0;
    x.child = x.sibling = x.prev = -1;
    root = plink(root, p);
  }
  void pshift(int32_t root, double by) {
    if (root < 0) return;
    R(root).value += by;
    R(root).offset += by;
  }
  void pdecrease(int32_t &root, int32_t p, double from, double to) {
    RNode &x = R(p);
    x.offset += from - x.value;
    x.value = to;
    if (x.prev < 0) return;  // the root
    RNode &pv = R(x.prev);
    if (pv.child == p) pv.child = x.sibling;
    else pv.sibling = x.sibling;
    if (x.sibling >= 0) R(x.sibling).prev = x.prev;
    x.prev = x.sibling = -1;
    root = plink(root, p);
  }
  void ppop(int32_t &root) {
    // the children, each shifted by the root's offset, linked in pairs from the first (the
    // latest linked) on, then the pairs linked from the last to the first
    const double off = R(root).offset;
    rbuf.clear();
    for (int32_t c = R(root).child; c >= 0;) {
      const int32_t a = c;
      RNode &x = R(a);
      const int32_t y = x.sibling;
      x.prev = x.sibling = -1;
      x.value += off;
      x.offset += off;
      if (y < 0) {
        rbuf.push_back(a);
        break;
      }
      RNode &z = R(y);
      c = z.sibling;
      z.prev = z.sibling = -1;
      z.value += off;
      z.offset += off;
      rbuf.push_back(plink(a, y));
    }
    if (rbuf.empty()) {
      root = -1;
      return;
    }
    root = rbuf.back();
    for (std::size_t i = rbuf.size() - 1; i-- > 0;) root = plink(root, rbuf[i]);
  }
  // Cluster of part p's node (its top), with the moats below and around it: `total` includes
  // the top's moat so far, `fin` only the finished ones. Path compression as the reference does
  // it (the sums' rounding is part of its results).
  int32_t rsum(int32_t p, double t, double &total, double &fin) {
    total = 0.0;
    int32_t cur = RP(p).node;
    rpath.clear();
    while (RC(cur).merged_into != -1) {
      rpath.emplace_back(cur, total);
      const RCluster &k = RC(cur);
      if (k.skip_up >= 0) {
        total += k.skip_sum;
        cur = k.skip_up;
      } else {
        total += k.moat;
        cur = k.merged_into;
      }
    }
    for (const auto &[x, before] : rpath) {
      RC(x).skip_up = cur;
      RC(x).skip_sum = total - before;
    }
    const RCluster &top = RC(cur);
    if (top.active) {
      fin = total;
      total += t - top.start;
    } else {
      total += top.moat;
      fin = total;
    }
    return cur;
  }
  // Queues cluster c at its heap's minimum (or takes it out when its heap is empty).
  void rqueue_min(int32_t c) {
    if (RC(c).heap >= 0) redge.set(c, R(RC(c).heap).value);
    else redge.erase(c);
  }
  void grow_reference(int64_t root, int64_t target) {
    const std::size_t cap = 2 * n + 1;
    rcl.clear();
    rcl.reserve(cap);
    child_a.reserve(cap);
    child_b.reserve(cap);
    child_a.assign(n, -1);  // the leaves'; a merge appends the new cluster's
    child_b.assign(n, -1);
    redge.reset(cap);
    rdeact.reset(cap);
    merges.reserve(n);
    int64_t active = static_cast<int64_t>(n) - (root >= 0 ? 1 : 0);
    for (std::size_t i = 0; i < n; ++i) {
      const bool is_root = static_cast<int64_t>(i) == root;
      RCluster &c = rcl.emplace_back();
      c.active = !is_root;
      c.root = is_root;
      c.prize_sum = prize[i];
      if (is_root) c.end = 0.0;
      if (!is_root) rdeact.insert(prize[i], static_cast<int32_t>(i));
    }
    // the parts, grouped by node in edge order (a self-loop's two parts both at its node)
    group_parts(true);
    rnode.reserve(2 * m);
    rpart.reserve(2 * m);
    std::vector<int32_t> &fill = sp_fill;
    for (std::size_t e = 0; e < m; ++e) {
      const auto u = static_cast<int32_t>(ends[2 * e]), v = static_cast<int32_t>(ends[2 * e + 1]);
      const bool au = u != root, av = v != root;  // every node but the root starts growing
      const double c = cost[e];
      const double ku = au && av ? c / 2.0 : au ? c : 0.0, kv = au && av ? c / 2.0 : av ? c : 0.0;
      const int32_t pu = fill[static_cast<std::size_t>(u)]++, pv = fill[static_cast<std::size_t>(v)]++;
      const auto ei = static_cast<int32_t>(e);
      R(pu).value = ku;
      R(pv).value = kv;
      RP(pu) = {ku, c, pv, u, ei, 0};
      RP(pv) = {kv, c, pu, v, ei, 0};
    }
    // each node's heap: its parts inserted in edge order
    for (std::size_t i = 0; i < n; ++i)
      for (int32_t p = part_off[i]; p < part_off[i + 1]; ++p) pinsert(rcl[i].heap, p, R(p).value);
    for (std::size_t i = 0; i < n; ++i)
      if (rcl[i].active) rqueue_min(static_cast<int32_t>(i));
    double t = 0.0;
    while (active > target) {
      if (redge.empty() && rdeact.empty()) break;
      constexpr double inf = std::numeric_limits<double>::infinity();
      const double et = redge.empty() ? inf : R(RC(redge.top().id).heap).value;
      const double dt = rdeact.empty() ? inf : rdeact.top().key;
      if (!(et < dt)) {  // a deactivation
        t = dt;
        const int32_t c = rdeact.top().id;
        rdeact.erase(c);
        RCluster &k = RC(c);
        k.active = 0;
        k.end = t;
        k.moat = k.end - k.start;
        redge.erase(c);
        --active;
        continue;
      }
      t = et;
      const int32_t ec = redge.top().id;
      const int32_t p = RC(ec).heap;
      // The part's record, then (while the pop walks the heap) the loads the moat sums below
      // start from: both endpoints' leaf clusters, the other part and its heap node.
      const RPart &pp = RP(p);
      const bool dead = pp.dead;
      const int32_t q = pp.twin;
      if (!dead) {
        __builtin_prefetch(&RC(pp.node));
        __builtin_prefetch(&RP(q));
        __builtin_prefetch(&R(q));  // re-keyed below unless the edge merges
      }
      ppop(RC(ec).heap);
      rqueue_min(ec);
      if (dead) continue;
      const double ce = pp.cost;
      {
        const RCluster &kp = RC(pp.node), &kq = RC(RP(q).node);
        if (kp.merged_into >= 0) __builtin_prefetch(&RC(kp.skip_up >= 0 ? kp.skip_up : kp.merged_into));
        if (kq.merged_into >= 0) __builtin_prefetch(&RC(kq.skip_up >= 0 ? kq.skip_up : kq.merged_into));
      }
      double sp, fp, sq, fq;
      const int32_t cc = rsum(p, t, sp, fp), oc = rsum(q, t, sq, fq);
      const double rem = ce - sp - sq;
      if (cc == oc) {
        RP(q).dead = 1;
        continue;
      }
      // (the last test: a remainder too small to move the time on would bring the same event
      // back for ever; the reference would not terminate there)
      if (rem < 1e-6 * ce || rem == 0.0 || t + (RC(oc).active ? rem / 2.0 : rem) == t) {
        RP(q).dead = 1;
        const auto nc = static_cast<int32_t>(rcl.size());
        rcl.emplace_back();
        child_a.push_back(cc);
        child_b.push_back(oc);
        RCluster &C = RC(cc), &O = RC(oc), &N = RC(nc);
        const double te = t + rem;
        N.prize_sum = C.prize_sum + O.prize_sum;
        N.sub_moat = C.sub_moat + O.sub_moat;
        N.root = C.root || O.root;
        N.active = !N.root;
        C.active = 0;
        C.end = te;
        C.merged_into = nc;
        C.moat = C.end - C.start;
        rdeact.erase(cc);
        redge.erase(cc);
        --active;
        Merge rec{RP(p).edge, -1, -1, -1};
        if (O.active) {
          O.active = 0;
          O.end = te;
          O.moat = O.end - O.start;
          rdeact.erase(oc);
          redge.erase(oc);
          --active;
        } else if (!O.root) {
          pshift(O.heap, te - O.end);
          rec = {RP(p).edge, oc, RP(p).node, RP(q).node};
        }
        O.merged_into = nc;
        N.heap = plink(C.heap, O.heap);
        C.heap = O.heap = -1;
        N.sub_moat += C.moat;
        N.sub_moat += O.moat;
        if (N.active) {
          N.start = te;
          rdeact.insert(te + N.prize_sum - N.sub_moat, nc);
          rqueue_min(nc);
          ++active;
        } else {
          N.end = te;  // holds the root: never grows (the reference leaves this time unset)
        }
        merges.push_back(rec);
        continue;
      }
      RCluster &C = RC(cc), &O = RC(oc);
      if (O.active) {
        const double nt = t + rem / 2.0;
        RP(p).next = sp + rem / 2.0;
        pinsert(C.heap, p, nt);
        rqueue_min(cc);
        pdecrease(O.heap, q, O.start + RP(q).next - fq, nt);
        rqueue_min(oc);
        RP(q).next = sq + rem / 2.0;
      } else {
        const double nt = t + rem;
        RP(p).next = ce - fq;
        pinsert(C.heap, p, nt);
        rqueue_min(cc);
        pdecrease(O.heap, q, O.end + RP(q).next - fq, O.end);
        RP(q).next = fq;
      }
    }
    // The merge forest, as the pruning phases read it.
    const std::size_t k = rcl.size();
    cl.assign(k, {0.0, 0.0, -1, 0});
    up.assign(k, {0.0, -1});
    parent.assign(k, -1);
    has_root.assign(k, 0);
    necessary.assign(k, 0);
    for (std::size_t i = 0; i < k; ++i) {
      const RCluster &c = rcl[i];
      cl[i].active = c.active;
      has_root[i] = c.root;
      parent[i] = c.merged_into;
      up[i].jump = c.merged_into;
    }
  }

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
  int improve(int64_t root, std::vector<char> &keep_node, std::vector<char> &keep_edge);
  double objective_of(const std::vector<char> &keep_node, const std::vector<char> &keep_edge) const {
    double left = 0, paid = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (!keep_node[i]) left += prize[i];
    for (std::size_t e = 0; e < m; ++e)
      if (keep_edge[e]) paid += cost[e];
    return left + paid;
  }
};

int PCSTSolver::Impl::improve(int64_t root, std::vector<char> &keep_node, std::vector<char> &keep_edge) {
  // Full adjacency (CSR) of the instance.
  std::vector<int32_t> off(n + 1, 0), adj_e(2 * m);
  for (std::size_t e = 0; e < m; ++e) {
    ++off[static_cast<std::size_t>(ends[2 * e]) + 1];
    ++off[static_cast<std::size_t>(ends[2 * e + 1]) + 1];
  }
  for (std::size_t i = 0; i < n; ++i) off[i + 1] += off[i];
  {
    std::vector<int32_t> fill(off.begin(), off.end() - 1);
    for (std::size_t e = 0; e < m; ++e) {
      adj_e[static_cast<std::size_t>(fill[static_cast<std::size_t>(ends[2 * e])]++)] = static_cast<int32_t>(e);
      adj_e[static_cast<std::size_t>(fill[static_cast<std::size_t>(ends[2 * e + 1])]++)] = static_cast<int32_t>(e);
    }
  }
  auto other = [&](int32_t e, int32_t v) { return static_cast<int32_t>(ends[2 * e] == v ? ends[2 * e + 1] : ends[2 * e]); };
  std::vector<int32_t> comp(n), dsu(n), order_e, stack_v;
  std::vector<double> dist(n), gathered(n);
  std::vector<int32_t> pred(n);
  std::vector<char> added(n);
  std::function<int32_t(int32_t)> find_set = [&](int32_t x) {
    while (dsu[static_cast<std::size_t>(x)] != x) {
      dsu[static_cast<std::size_t>(x)] = dsu[static_cast<std::size_t>(dsu[static_cast<std::size_t>(x)])];
      x = dsu[static_cast<std::size_t>(x)];
    }
    return x;
  };
  double best = objective_of(keep_node, keep_edge);
  std::vector<char> best_node = keep_node, best_edge = keep_edge;
  int rounds = 0;
  for (int round = 0; round < 16; ++round) {
    // 1. Minimum spanning forest of each tree's nodes (edges inside one tree only).
    std::fill(comp.begin(), comp.end(), -1);
    for (std::size_t s0 = 0; s0 < n; ++s0) {
      if (!keep_node[s0] || comp[s0] >= 0) continue;
      stack_v.assign(1, static_cast<int32_t>(s0));
      comp[s0] = static_cast<int32_t>(s0);
      while (!stack_v.empty()) {
        int32_t v = stack_v.back();
        stack_v.pop_back();
        for (int32_t k = off[static_cast<std::size_t>(v)]; k < off[static_cast<std::size_t>(v) + 1]; ++k) {
          int32_t e = adj_e[static_cast<std::size_t>(k)], w = other(e, v);
          if (keep_edge[static_cast<std::size_t>(e)] && comp[static_cast<std::size_t>(w)] < 0) {
            comp[static_cast<std::size_t>(w)] = static_cast<int32_t>(s0);
            stack_v.push_back(w);
          }
        }
      }
    }
    order_e.clear();
    for (std::size_t e = 0; e < m; ++e) {
      const auto u = static_cast<std::size_t>(ends[2 * e]), v = static_cast<std::size_t>(ends[2 * e + 1]);
      if (u != v && keep_node[u] && keep_node[v] && comp[u] == comp[v]) order_e.push_back(static_cast<int32_t>(e));
    }
    std::stable_sort(order_e.begin(), order_e.end(), [&](int32_t a, int32_t b) { return cost[a] < cost[b]; });
    for (std::size_t i = 0; i < n; ++i) dsu[i] = static_cast<int32_t>(i);
    std::fill(keep_edge.begin(), keep_edge.end(), 0);
    for (int32_t e : order_e) {
      int32_t a = find_set(static_cast<int32_t>(ends[2 * e])), b = find_set(static_cast<int32_t>(ends[2 * e + 1]));
      if (a == b) continue;
      dsu[static_cast<std::size_t>(a)] = b;
      keep_edge[static_cast<std::size_t>(e)] = 1;
    }
    // 2. Attach outside paths worth more than they cost: Dijkstra by cost from every kept node
    // through outside nodes, tracking the prizes gathered on the way.
    double max_out = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (!keep_node[i]) max_out = std::max(max_out, prize[i]);
    std::fill(dist.begin(), dist.end(), std::numeric_limits<double>::infinity());
    std::fill(pred.begin(), pred.end(), -1);
    std::fill(added.begin(), added.end(), 0);
    using Item = std::pair<double, int32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
    for (std::size_t i = 0; i < n; ++i)
      if (keep_node[i]) {
        dist[i] = 0;
        gathered[i] = 0;
        pq.push({0.0, static_cast<int32_t>(i)});
      }
    std::vector<std::pair<double, int32_t>> cands;
    while (!pq.empty()) {
      auto [d, v] = pq.top();
      pq.pop();
      const auto vi = static_cast<std::size_t>(v);
      if (d > dist[vi]) continue;
      if (!keep_node[vi]) {
        const double gain = gathered[vi] - d;
        if (gain > 1e-9) cands.push_back({gain, v});
        if (d - gathered[vi] > max_out) continue;  // no single prize further on can pay this back
      }
      for (int32_t k = off[vi]; k < off[vi + 1]; ++k) {
        const int32_t e = adj_e[static_cast<std::size_t>(k)], w = other(e, v);
        const auto wi = static_cast<std::size_t>(w);
        if (keep_node[wi]) continue;
        const double nd = d + cost[e];
        if (nd < dist[wi] - 1e-12) {
          dist[wi] = nd;
          gathered[wi] = gathered[vi] + prize[wi];
          pred[wi] = e;
          pq.push({nd, w});
        }
      }
    }
    std::stable_sort(cands.begin(), cands.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    for (const auto &[gain, v] : cands) {
      // The path back to the forest must be untouched by this round's additions.
      bool clash = false;
      for (int32_t x = v; !keep_node[static_cast<std::size_t>(x)]; x = other(pred[static_cast<std::size_t>(x)], x))
        if (added[static_cast<std::size_t>(x)]) {
          clash = true;
          break;
        }
      if (clash) continue;
      for (int32_t x = v; !keep_node[static_cast<std::size_t>(x)];) {
        const int32_t e = pred[static_cast<std::size_t>(x)];
        added[static_cast<std::size_t>(x)] = 1;
        keep_edge[static_cast<std::size_t>(e)] = 1;
        x = other(e, x);
      }
    }
    for (std::size_t i = 0; i < n; ++i)
      if (added[i]) keep_node[i] = 1;
    // 3. Strong pruning.
    strong_prune(root, keep_node, keep_edge);
    const double obj = objective_of(keep_node, keep_edge);
    if (obj < best - 1e-12 * std::max(1.0, std::abs(best))) {
      best = obj;
      best_node = keep_node;
      best_edge = keep_edge;
      ++rounds;
    } else {
      break;
    }
  }
  keep_node.swap(best_node);
  keep_edge.swap(best_edge);
  return rounds;
}

void PCSTSolver::Impl::strong_prune(int64_t root, std::vector<char> &keep_node, std::vector<char> &keep_edge) {
  auto &deg = sp_deg, &adj = sp_adj, &fill = sp_fill, &order = sp_order, &comp = sp_comp, &par = sp_par,
       &par_edge = sp_par_edge;
  auto &down = sp_down, &full = sp_full;
  auto &seen = sp_seen, &out_node = sp_out_node, &out_edge = sp_out_edge;
  // Adjacency of the kept forest.
  deg.assign(n + 1, 0);
  for (std::size_t e = 0; e < m; ++e)
    if (keep_edge[e]) {
      ++deg[static_cast<std::size_t>(ends[2 * e]) + 1];
      ++deg[static_cast<std::size_t>(ends[2 * e + 1]) + 1];
    }
  for (std::size_t i = 0; i < n; ++i) deg[i + 1] += deg[i];
  adj.assign(static_cast<std::size_t>(deg[n]), 0);
  fill.assign(deg.begin(), deg.end() - 1);
  for (std::size_t e = 0; e < m; ++e)
    if (keep_edge[e]) {
      adj[static_cast<std::size_t>(fill[static_cast<std::size_t>(ends[2 * e])]++)] = static_cast<int32_t>(e);
      adj[static_cast<std::size_t>(fill[static_cast<std::size_t>(ends[2 * e + 1])]++)] = static_cast<int32_t>(e);
    }
  auto other = [&](int32_t e, int32_t v) { return static_cast<int32_t>(ends[2 * e] == v ? ends[2 * e + 1] : ends[2 * e]); };
  order.clear();
  par.assign(n, -1);
  par_edge.assign(n, -1);
  down.assign(n, 0);
  full.assign(n, 0);
  seen.assign(n, 0);
  out_node.assign(n, 0);
  out_edge.assign(m, 0);
  // DFS order of a tree from r (parents before children).
  auto tree_order = [&](int32_t r) {
    order.clear();
    order.push_back(r);
    par[static_cast<std::size_t>(r)] = -1;
    par_edge[static_cast<std::size_t>(r)] = -1;
    seen[static_cast<std::size_t>(r)] = 1;
    for (std::size_t i = 0; i < order.size(); ++i) {
      const int32_t v = order[i];
      for (int32_t k = deg[static_cast<std::size_t>(v)]; k < deg[static_cast<std::size_t>(v) + 1]; ++k) {
        const int32_t e = adj[static_cast<std::size_t>(k)], w = other(e, v);
        if (seen[static_cast<std::size_t>(w)]) continue;
        seen[static_cast<std::size_t>(w)] = 1;
        par[static_cast<std::size_t>(w)] = v;
        par_edge[static_cast<std::size_t>(w)] = e;
        order.push_back(w);
      }
    }
  };
  auto compute_down = [&] {
    for (std::size_t i = order.size(); i-- > 0;) {
      const auto v = static_cast<std::size_t>(order[i]);
      down[v] += prize[v];
      if (par[v] >= 0) {
        const double c = down[v] - cost[par_edge[v]];
        if (c > 0) down[static_cast<std::size_t>(par[v])] += c;
      }
    }
  };
  for (std::size_t s = 0; s < n; ++s) {
    if (!keep_node[s] || seen[s]) continue;
    // Root of this tree: the given root when it is here; else the node whose best subtree is
    // worth most (rerooting DP), ties to the smallest index.
    tree_order(static_cast<int32_t>(s));
    comp.assign(order.begin(), order.end());
    bool has_given_root = false;
    for (int32_t v : comp)
      if (v == root) has_given_root = true;
    for (int32_t v : comp) down[static_cast<std::size_t>(v)] = 0;
    compute_down();
    int32_t best = -1;
    if (has_given_root) {
      best = static_cast<int32_t>(root);
    } else {
      for (int32_t v : order) {
        const auto vi = static_cast<std::size_t>(v);
        if (par[vi] < 0) {
          full[vi] = down[vi];
        } else {
          const auto p = static_cast<std::size_t>(par[vi]);
          const double c = cost[par_edge[vi]];
          const double mine = std::max(0.0, down[vi] - c);
          const double rest = full[p] - mine;  // parent's best value without v's branch
          full[vi] = down[vi] + std::max(0.0, rest - c);
        }
      }
      for (int32_t v : comp)
        if (best < 0 || full[static_cast<std::size_t>(v)] > full[static_cast<std::size_t>(best)] + 1e-12 ||
            (std::abs(full[static_cast<std::size_t>(v)] - full[static_cast<std::size_t>(best)]) <= 1e-12 && v < best))
          best = v;
    }
    // Re-root at best and keep the branches of positive net worth.
    for (int32_t v : comp) seen[static_cast<std::size_t>(v)] = 0;
    tree_order(best);
    for (int32_t v : order) down[static_cast<std::size_t>(v)] = 0;
    compute_down();
    out_node[static_cast<std::size_t>(best)] = 1;
    for (int32_t v : order) {
      const auto vi = static_cast<std::size_t>(v);
      if (par[vi] < 0 || !out_node[static_cast<std::size_t>(par[vi])]) continue;
      if (down[vi] - cost[par_edge[vi]] > 0) {
        out_node[vi] = 1;
        out_edge[static_cast<std::size_t>(par_edge[vi])] = 1;
      }
    }
  }
  keep_node.swap(out_node);
  keep_edge.swap(out_edge);
}

PcstResult PCSTSolver::Impl::run(int64_t root, int num_clusters, Pruning pruning, bool improve_after,
                                 bool reference_order) {
  // reset
  cl.clear();
  up.clear();
  for (auto *v : {&parent, &child_a, &child_b}) v->clear();
  for (auto *v : {&prize_sum, &inner}) v->clear();
  for (auto *v : {&has_root, &necessary}) v->clear();
  bheap.clear();
  merges.clear();
  deacts.clear();
  active_count = 0;
  if (reference_order) grow_reference(root, root >= 0 ? 0 : num_clusters);
  else grow(root, root >= 0 ? 0 : num_clusters);

  // Good nodes: in a cluster still active at the end, or in the root's cluster.
  good.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int32_t top = find(static_cast<int32_t>(i)).first;
    good[i] = cl[static_cast<std::size_t>(top)].active || has_root[static_cast<std::size_t>(top)];
  }
  std::vector<char> &keep_node = sel_node, &keep_edge = sel_edge;
  keep_node = good;
  keep_edge.assign(m, 0);
  if (pruning == Pruning::none) {
    for (const Merge &mg : merges) {
      keep_edge[static_cast<std::size_t>(mg.edge)] = 1;
      keep_node[static_cast<std::size_t>(ends[2 * mg.edge])] = 1;
      keep_node[static_cast<std::size_t>(ends[2 * mg.edge + 1])] = 1;
    }
  } else {
    for (const Merge &mg : merges)
      if (good[static_cast<std::size_t>(ends[2 * mg.edge])] && good[static_cast<std::size_t>(ends[2 * mg.edge + 1])])
        keep_edge[static_cast<std::size_t>(mg.edge)] = 1;
    if (pruning == Pruning::gw) {
      // Backwards over the merges: a subtree that was an inactive cluster when it was joined
      // stays only if something joined later needs it.
      if (root >= 0) mark_necessary(static_cast<int32_t>(root));
      deleted.assign(n, 0);
      for (std::size_t i = merges.size(); i-- > 0;) {
        const Merge &mg = merges[i];
        const auto e = static_cast<std::size_t>(mg.edge);
        if (!keep_edge[e]) continue;
        const auto u = static_cast<int32_t>(ends[2 * e]), v = static_cast<int32_t>(ends[2 * e + 1]);
        if (deleted[static_cast<std::size_t>(u)] || deleted[static_cast<std::size_t>(v)]) {
          keep_edge[e] = 0;
          continue;
        }
        if (mg.inactive_cluster >= 0 && !necessary[static_cast<std::size_t>(mg.inactive_cluster)]) {
          keep_edge[e] = 0;
          leaves(mg.inactive_cluster, [&](int32_t x) { deleted[static_cast<std::size_t>(x)] = 1; });
          continue;
        }
        mark_necessary(u);
        mark_necessary(v);
      }
      for (std::size_t i = 0; i < n; ++i)
        if (deleted[i]) keep_node[i] = 0;
      for (std::size_t e = 0; e < m; ++e)
        if (keep_edge[e] && (deleted[static_cast<std::size_t>(ends[2 * e])] || deleted[static_cast<std::size_t>(ends[2 * e + 1])]))
          keep_edge[e] = 0;
    } else if (pruning == Pruning::strong) {
      strong_prune(root, keep_node, keep_edge);
    }
  }
  PcstResult r;
  r.objective_before_improve = objective_of(keep_node, keep_edge);
  if (improve_after) r.improve_rounds = improve(root, keep_node, keep_edge);
  double total = 0, taken = 0, paid = 0;
  r.nodes.reserve(static_cast<std::size_t>(std::count(keep_node.begin(), keep_node.end(), 1)));
  r.edges.reserve(static_cast<std::size_t>(std::count(keep_edge.begin(), keep_edge.end(), 1)));
  for (std::size_t i = 0; i < n; ++i) {
    total += prize[i];
    if (keep_node[i]) {
      r.nodes.push_back(static_cast<int64_t>(i));
      taken += prize[i];
    }
  }
  for (std::size_t e = 0; e < m; ++e)
    if (keep_edge[e]) {
      r.edges.push_back(static_cast<int64_t>(e));
      paid += cost[e];
    }
  r.objective = (total - taken) + paid;
  r.net_worth = taken - paid;
  return r;
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
  return impl_->run(o.root, o.num_clusters, o.pruning, o.improve, o.reference_order);
}

PcstInstance read_pcst_instance(const std::string &path) {
  detail::LineReader r(path);
  std::string_view line;
  auto next = [&]() -> bool {
    while (r.next(line)) {
      std::size_t i = 0;
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i == line.size() || line[i] == '#') continue;
      line = line.substr(i);
      return true;
    }
    return false;
  };
  auto where = [&] { return path + ":" + std::to_string(r.line_number()) + ": "; };
  auto num = [&](std::string_view &s, double &v) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (res.ec != std::errc() || !std::isfinite(v)) return false;
    s.remove_prefix(static_cast<std::size_t>(res.ptr - s.data()));
    return true;
  };
  auto end_of = [](std::string_view s) {
    for (char c : s)
      if (c != ' ' && c != '\t') return false;
    return true;
  };
  if (!next()) throw Error(ErrorCode::parse, path + ": empty instance (expected 'n m')");
  double dn, dm;
  std::string_view s = line;
  if (!num(s, dn) || !num(s, dm) || !end_of(s) || dn < 0 || dm < 0 || dn != std::floor(dn) || dm != std::floor(dm) ||
      dn > 1e9 || dm > 1e9)
    throw Error(ErrorCode::parse, where() + "expected two non-negative integers 'n m'");
  PcstInstance inst;
  const auto n = static_cast<std::size_t>(dn), m = static_cast<std::size_t>(dm);
  inst.prizes.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!next()) throw Error(ErrorCode::parse, path + ": ends after " + std::to_string(i) + " of " + std::to_string(n) + " prizes");
    s = line;
    double p;
    if (!num(s, p) || !end_of(s)) throw Error(ErrorCode::parse, where() + "expected one prize");
    inst.prizes.push_back(p);
  }
  inst.edges.reserve(m);
  inst.costs.reserve(m);
  for (std::size_t e = 0; e < m; ++e) {
    if (!next()) throw Error(ErrorCode::parse, path + ": ends after " + std::to_string(e) + " of " + std::to_string(m) + " edges");
    s = line;
    double u, v, c;
    if (!num(s, u) || !num(s, v) || !num(s, c) || !end_of(s) || u != std::floor(u) || v != std::floor(v))
      throw Error(ErrorCode::parse, where() + "expected 'u v cost'");
    inst.edges.emplace_back(static_cast<int64_t>(u), static_cast<int64_t>(v));
    inst.costs.push_back(c);
  }
  if (next()) throw Error(ErrorCode::parse, where() + "unexpected data after the last edge");
  return inst;
}

}  // namespace grappi
