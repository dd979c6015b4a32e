// Internal: log Γ(x) in long double, safe from several threads at once. std::lgamma writes the
// global signgam (POSIX), a data race when threads call it together (ThreadSanitizer reports
// it): glibc's lgammal_r returns the sign instead; elsewhere the calls are serialised.
#pragma once

#include <cmath>
#include <mutex>

namespace grappi::detail {

inline long double log_gamma(long double x) {
#if defined(__GLIBC__)
  int sign = 0;
  return ::lgammal_r(x, &sign);
#else
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  return std::lgamma(x);
#endif
}

}  // namespace grappi::detail
