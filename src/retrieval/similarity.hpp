// Internal: the similarity functions windows and the neighbor ranking rank by, inline in every
// file that calls them in a hot loop (cosine of unit vectors, and the int8 first pass).
#pragma once

#include <Eigen/Core>

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "grappi/retriever.hpp"

namespace grappi {

// int8 dot product (vectorised by the compiler; the first ranking pass is bound by memory
// latency, not by this arithmetic).
inline int32_t dot8(const int8_t *a, const int8_t *b, std::size_t n) {
  int32_t s = 0;
  for (std::size_t k = 0; k < n; ++k) s += static_cast<int32_t>(a[k]) * static_cast<int32_t>(b[k]);
  return s;
}

inline float Retriever::similarity8(const int8_t *q, uint32_t b) const {
  return static_cast<float>(dot8(q, unit8_.data() + static_cast<std::size_t>(b) * dim_, dim_)) * (1.0f / (127.0f * 127.0f));
}

inline float Retriever::similarity(uint32_t a, uint32_t b) const {
  if (!has_vec_[a]) return std::nanf("");
  return similarity(unit_.data() + static_cast<std::size_t>(a) * dim_, b);
}

inline float Retriever::similarity(const float *q, uint32_t b) const {
  if (!has_vec_[b]) return std::nanf("");
  const auto d = static_cast<Eigen::Index>(dim_);
  return Eigen::Map<const Eigen::VectorXf>(q, d).dot(Eigen::Map<const Eigen::VectorXf>(unit_.data() + static_cast<std::size_t>(b) * dim_, d));
}

}  // namespace grappi
