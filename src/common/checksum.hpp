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

namespace grappi::detail {

/// The checksum of one byte range in four independent lanes (about four times the speed of
/// checksum() on large ranges: 8 GB/s here), for the sections of mapped cache files, which are
/// checked in full every time they are opened. Not combinable across calls: hash each range
/// in one call.
inline uint64_t checksum_wide(const void *p, std::size_t n) {
  const auto *b = static_cast<const unsigned char *>(p);
  uint64_t x[4] = {0x9e3779b97f4a7c15ull ^ n, 0xc2b2ae3d27d4eb4full, 0x165667b19e3779f9ull, 0x27d4eb2f165667c5ull};
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int l = 0; l < 4; ++l) {
      uint64_t w;
      std::memcpy(&w, b + i + 8 * l, 8);
      x[l] = (x[l] ^ w) * 0xff51afd7ed558ccdull;
      x[l] = (x[l] << 29) | (x[l] >> 35);
    }
  uint64_t h = checksum(x[0], x + 1, 3 * sizeof(uint64_t));
  return checksum(h, b + i, n - i);
}

}  // namespace grappi::detail
