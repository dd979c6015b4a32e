// The default growth engine of the PCST solver (PCSTSolver::Impl::grow): Goemans-Williamson moat
// growing with moat sums by path compression over the merge tree. Written from the algorithm's
// description.
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
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/prefetch.hpp"
#include "retrieval/pcst_impl.hpp"

namespace grappi {

bool PCSTSolver::Impl::keyed_in(int32_t p, uint64_t slot) {
  const double k = P(p).key;
  return k != kDead && RadixQueue::slot(k) == slot;
}

uint64_t PCSTSolver::Impl::away_rank(const Part &x) {
  // a non-negative float's bits order like its value, and fit in 31 bits
  const float c = static_cast<float>(x.cost);
  uint32_t cb;
  std::memcpy(&cb, &c, sizeof cb);
  return kAway | (uint64_t{cb} << 30) | static_cast<uint64_t>(x.edge);
}

uint64_t PCSTSolver::Impl::rank_of(int32_t p) {
  const Part &x = P(p);
  return cl[static_cast<std::size_t>(find(x.other).first)].active ? static_cast<uint64_t>(x.edge) : away_rank(x);
}

int32_t PCSTSolver::Impl::bmeld(int32_t a, int32_t b) {
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

int32_t PCSTSolver::Impl::bpop(int32_t root) {
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

void PCSTSolver::Impl::batch_add(int32_t p, int32_t c) {
  const auto i = static_cast<int32_t>(bn.size());
  bn.push_back({static_cast<uint64_t>(P(p).edge), p, -1, -1});  // ranked as an edge to a growing side until checked
  int32_t &h = bheap[static_cast<std::size_t>(c)];
  if (h < 0) {
    touched.push_back(c);
    turns.push(c);
  }
  h = bmeld(h, i);
}

void PCSTSolver::Impl::push(double k, int32_t p, int32_t c) {
  const uint64_t u = RadixQueue::slot(k);
  if (in_batch && u == batch_key) batch_add(p, c);
  else rq.push(u, p);
}

int32_t PCSTSolver::Impl::next_event() {
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
        if (k > 12) GRAPPI_PREFETCH(&P(rq.b[0][k - 13].part));
        if (k > 8) GRAPPI_PREFETCH(&P(P(rq.b[0][k - 9].part).twin));
        if (k > 4) GRAPPI_PREFETCH(&up[static_cast<std::size_t>(P(P(rq.b[0][k - 5].part).twin).other)]);
      }
      const int32_t p = rq.b[0].back().part;
      rq.pop();
      if (!keyed_in(p, batch_key)) continue;
      const int32_t c = find(P(P(p).twin).other).first;
      if (cl[static_cast<std::size_t>(c)].active) batch_add(p, c);
    }
  }
}

bool PCSTSolver::Impl::live(const Deact &d) const {
  return cl[static_cast<std::size_t>(d.cluster)].active && parent[static_cast<std::size_t>(d.cluster)] < 0;
}

const PCSTSolver::Impl::Deact *PCSTSolver::Impl::next_deact() {
  while (deacts0_next < deacts0.size() && !live(deacts0[deacts0_next])) ++deacts0_next;
  while (!deacts.empty() && !live(deacts.top())) deacts.pop();
  const Deact *a = deacts0_next < deacts0.size() ? &deacts0[deacts0_next] : nullptr;
  const Deact *b = deacts.empty() ? nullptr : &deacts.top();
  if (!a) return b;
  if (!b) return a;
  return *a > *b ? b : a;
}

void PCSTSolver::Impl::sort_by_time(std::vector<Deact> &v) {
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

void PCSTSolver::Impl::drop_deact(const Deact *d) {
  if (!deacts.empty() && d == &deacts.top()) deacts.pop();
  else ++deacts0_next;
}

void PCSTSolver::Impl::push_deactivation(int32_t c) {
  const Cluster &k = cl[static_cast<std::size_t>(c)];
  if (k.active)
    deacts.push({k.start + std::max(0.0, prize_sum[static_cast<std::size_t>(c)] -
                                             inner[static_cast<std::size_t>(c)] - k.moat),
                 c});
}

int32_t PCSTSolver::Impl::new_cluster() {
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

void PCSTSolver::Impl::deactivate(int32_t c, double t) {
  Cluster &k = cl[static_cast<std::size_t>(c)];
  k.moat += t - k.start;
  k.active = 0;
  --active_count;
}

int32_t PCSTSolver::Impl::concat(int32_t ta, int32_t tb) {
  if (ta < 0) return tb;
  if (tb < 0) return ta;
  std::swap(P(ta).bnext, P(tb).bnext);
  return tb;
}

void PCSTSolver::Impl::merge(int32_t a, int32_t b, int32_t e, double t, int32_t node_a, int32_t node_b) {
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

int32_t PCSTSolver::Impl::rekey(int32_t tail, int32_t c, double t) {
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

void PCSTSolver::Impl::grow(int64_t root, int64_t target) {
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
  const bool polled = can_cancel();
  while (active_count > target) {
    if (polled && stop_asked()) break;
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
    if (rem <= detail::kPcstEps * std::max(1.0, ce)) {
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

}  // namespace grappi
