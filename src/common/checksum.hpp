// Internal: a fast 64-bit checksum of a byte range (8 bytes at a time, multiply-xor-rotate),
// combined per call so that a writer and a reader that call it in the same sequence agree. For
// cache files (the CSR snapshot, the neighbor ranking): detects damage and stale content, not
// an adversary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace grappi::detail {

inline uint64_t checksum(uint64_t h, const void *p, std::size_t n) {
  const auto *b = static_cast<const unsigned char *>(p);
  uint64_t x = h ^ (n * 0x9e3779b97f4a7c15ull);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, b + i, 8);
    x = (x ^ w) * 0xff51afd7ed558ccdull;
    x = (x << 29) | (x >> 35);
  }
  for (; i < n; ++i) x = (x ^ b[i]) * 0x100000001b3ull;
  return x;
}

}  // namespace grappi::detail
