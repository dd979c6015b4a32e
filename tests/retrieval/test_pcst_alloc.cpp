// Heap allocations made by a reused PCSTSolver. This file replaces the global operator new and
// delete of the test binary (plain malloc/free, as the defaults do) to count allocations while a
// flag is set; everything else in the binary allocates as before.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

#include "grappi/grappi.hpp"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
}  // namespace

// Every replaceable form but the aligned ones (left to the library, which pairs them itself),
// so that sanitizers see matching pairs.
namespace {
void *counted_malloc(std::size_t size) noexcept {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size ? size : 1);
}
}  // namespace
void *operator new(std::size_t size) {
  if (void *p = counted_malloc(size)) return p;
  throw std::bad_alloc();
}
void *operator new[](std::size_t size) {
  if (void *p = counted_malloc(size)) return p;
  throw std::bad_alloc();
}
void *operator new(std::size_t size, const std::nothrow_t &) noexcept { return counted_malloc(size); }
void *operator new[](std::size_t size, const std::nothrow_t &) noexcept { return counted_malloc(size); }
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
void operator delete[](void *p, std::size_t) noexcept { std::free(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { std::free(p); }

using grappi::PCSTSolver;
using grappi::PcstOptions;
using grappi::Pruning;

TEST_CASE("PCST solver reused allocates nothing but its result") {
  // Integer costs (many simultaneous events, so batches) and decimal ones; every pruning; an
  // unrooted forest of three trees and a rooted tree. The first solve sizes the solver's
  // buffers; solving an instance that needs no more room (here: the same one again) allocates
  // only the result's node and edge lists - not one block per event, merge or tree. In both
  // event orders.
  std::mt19937 rng(91);
  const std::size_t n = 3000, m = 12000;
  for (const bool decimal : {false, true}) {
    std::vector<double> prize(n), cost(m);
    std::vector<std::pair<int64_t, int64_t>> edges(m);
    for (auto &p : prize) p = rng() % 5 == 0 ? static_cast<double>(rng() % 400) * (decimal ? 0.013 : 1.0) : 0.0;
    for (std::size_t e = 0; e < m; ++e) {
      edges[e] = {static_cast<int64_t>(rng() % n), static_cast<int64_t>(rng() % n)};
      cost[e] = static_cast<double>(1 + rng() % 100) * (decimal ? 0.017 : 1.0);
    }
    for (const Pruning pruning : {Pruning::none, Pruning::simple, Pruning::gw, Pruning::strong}) {
      for (const int64_t root : {int64_t{-1}, int64_t{7}}) {
        for (const auto order : {grappi::PcstEventOrder::fast, grappi::PcstEventOrder::reference}) {
        PcstOptions o;
        o.event_order = order;
        o.pruning = pruning;
        o.root = root;
        o.num_clusters = root >= 0 ? 1 : 3;
        PCSTSolver solver;
        const auto first = solver.solve(prize, edges, cost, o);
        g_allocations = 0;
        g_counting = true;
        const auto again = solver.solve(prize, edges, cost, o);
        g_counting = false;
        const long counted = g_allocations.load();
        CHECK(again.nodes == first.nodes);
        CHECK(again.edges == first.edges);
        CHECK_MESSAGE(counted <= 2, "pruning " << std::string(grappi::to_string(pruning)) << " root " << root
                                               << (decimal ? " decimal" : " integer")
                                               << " " << grappi::to_string(order) << " order" << ": " << counted
                                               << " allocations");
        }
      }
    }
  }
}
