// Internal: the one thread loop of the library. parallel_for(n, threads, fn) calls fn(i) for
// every i in [0, n) on up to `threads` threads (the calling thread is one of them), taking the
// next index from a shared counter. The first exception thrown by fn stops the loop: no new
// index is started, the running calls finish, and the exception is rethrown in the caller.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace grappi::detail {

/// Hardware threads (at least 1), at most `cap` when cap > 0.
inline unsigned hardware_threads(unsigned cap = 0) {
  unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  return cap ? std::min(hw, cap) : hw;
}

template <class F>
void parallel_for(std::size_t n, std::size_t threads, F &&fn) {
  if (n == 0) return;
  threads = std::max<std::size_t>(1, std::min(threads, n));
  if (threads == 1) {
    for (std::size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mu;
  auto work = [&] {
    for (std::size_t i = next++; i < n && !failed.load(std::memory_order_relaxed); i = next++) {
      try {
        fn(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mu);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  try {
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  } catch (const std::system_error &) {
    // No more threads could be started: the ones that were, and this one, do the work.
  }
  work();
  for (auto &t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

/// [0, n) cut into `parts` contiguous chunks, run by parallel_for on up to `threads` threads:
/// fn(begin, end, part).
template <class F>
void parallel_chunks(std::size_t n, std::size_t parts, std::size_t threads, F &&fn) {
  if (n == 0) return;
  parts = std::max<std::size_t>(1, std::min(parts, n));
  parallel_for(parts, threads, [&](std::size_t p) { fn(n * p / parts, n * (p + 1) / parts, p); });
}

}  // namespace grappi::detail
