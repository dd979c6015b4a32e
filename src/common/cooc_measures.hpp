// Internal: the association measures of a co-occurrence edge (grappi/cooccurrence.hpp), shared by
// the builder that computes them and the store that recomputes them from the counts it keeps.
#pragma once

#include <cmath>
#include <cstddef>

namespace grappi::detail {

/// Normalised pointwise mutual information of two concepts sharing `ab` of `n` units, one in
/// `a`, the other in `b` (Bouma 2009): in [-1, 1]; -1 when they share none.
inline double cooc_npmi(std::size_t ab, std::size_t a, std::size_t b, std::size_t n) {
  if (ab == 0 || n == 0) return -1;
  const double pab = double(ab) / double(n), pa = double(a) / double(n), pb = double(b) / double(n);
  if (pab >= 1) return 1;
  return std::log(pab / (pa * pb)) / -std::log(pab);
}

/// Jaccard similarity of the two concepts' units: ab / (a + b - ab).
inline double cooc_jaccard(std::size_t ab, std::size_t a, std::size_t b) {
  return a + b > ab ? double(ab) / double(a + b - ab) : 0.0;
}

}  // namespace grappi::detail
