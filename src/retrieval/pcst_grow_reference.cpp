// The reference growth engine of the PCST solver (PCSTSolver::Impl::grow_reference).
//
// PcstOptions::reference_order: the event order and arithmetic of
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
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/prefetch.hpp"
#include "retrieval/pcst_impl.hpp"

namespace grappi {

int32_t PCSTSolver::Impl::plink(int32_t a, int32_t b) {
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

void PCSTSolver::Impl::pinsert(int32_t &root, int32_t p, double key) {
  RNode &x = R(p);
  x.value = key;
  x.offset = 0.0;
  x.child = x.sibling = x.prev = -1;
  root = plink(root, p);
}

void PCSTSolver::Impl::pshift(int32_t root, double by) {
  if (root < 0) return;
  R(root).value += by;
  R(root).offset += by;
}

void PCSTSolver::Impl::pdecrease(int32_t &root, int32_t p, double from, double to) {
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

void PCSTSolver::Impl::ppop(int32_t &root) {
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

int32_t PCSTSolver::Impl::rsum(int32_t p, double t, double &total, double &fin) {
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

void PCSTSolver::Impl::rqueue_min(int32_t c) {
  if (RC(c).heap >= 0) redge.set(c, R(RC(c).heap).value);
  else redge.erase(c);
}

void PCSTSolver::Impl::grow_reference(int64_t root, int64_t target) {
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
  const bool polled = can_cancel();
  while (active > target) {
    if (redge.empty() && rdeact.empty()) break;
    if (polled && stop_asked()) break;
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
      GRAPPI_PREFETCH(&RC(pp.node));
      GRAPPI_PREFETCH(&RP(q));
      GRAPPI_PREFETCH(&R(q));  // re-keyed below unless the edge merges
    }
    ppop(RC(ec).heap);
    rqueue_min(ec);
    if (dead) continue;
    const double ce = pp.cost;
    {
      const RCluster &kp = RC(pp.node), &kq = RC(RP(q).node);
      if (kp.merged_into >= 0) GRAPPI_PREFETCH(&RC(kp.skip_up >= 0 ? kp.skip_up : kp.merged_into));
      if (kq.merged_into >= 0) GRAPPI_PREFETCH(&RC(kq.skip_up >= 0 ? kq.skip_up : kq.merged_into));
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

}  // namespace grappi
