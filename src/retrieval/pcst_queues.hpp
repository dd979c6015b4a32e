// Internal: the data structures of the PCST solver (pcst_impl.hpp): a min-heap that keeps its
// buffer, an array that asks for huge pages, the default engine's monotone radix queue, and the
// reference engine's keyed binary heap.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <queue>
#include <type_traits>
#include <vector>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace grappi::detail {

// Leading zero bits of a non-zero 64-bit value.
inline int count_leading_zeros(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_clzll(x);
#else
  int n = 0;
  for (uint64_t bit = uint64_t{1} << 63; !(x & bit); bit >>= 1) ++n;
  return n;
#endif
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
    void operator()(T *p) const {
#if defined(_WIN32)
      _aligned_free(p);
#else
      std::free(p);
#endif
    }
  };
  std::unique_ptr<T, Free> p_;
  std::size_t cap_ = 0;
  static T *allocate(std::size_t count) {
    constexpr std::size_t kHuge = std::size_t{1} << 21;
    std::size_t bytes = count * sizeof(T);
    const bool huge = bytes >= kHuge;
    if (huge) bytes = (bytes + kHuge - 1) / kHuge * kHuge;
    void *mem = nullptr;
#if defined(_WIN32)
    mem = _aligned_malloc(bytes, huge ? kHuge : std::max(alignof(T), sizeof(void *)));
    if (!mem) throw std::bad_alloc();
#else
    if (posix_memalign(&mem, huge ? kHuge : std::max(alignof(T), sizeof(void *)), bytes) != 0) throw std::bad_alloc();
#endif
#ifdef MADV_HUGEPAGE
    if (huge) madvise(mem, bytes, MADV_HUGEPAGE);  // advice only: failure changes nothing
#endif
    T *p = static_cast<T *>(mem);
    std::uninitialized_default_construct_n(p, bytes / sizeof(T));
    return p;
  }
};

// The default engine's edge events: one monotone queue of (key, part) entries. Event times
// never go below the last one taken, so a radix heap over the keys' bit patterns (non-negative
// doubles order like their bits) serves them: a push is an append, a pop moves each entry down
// a few buckets over its lifetime.
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
  int bucket(uint64_t u) const { return u == last ? 0 : 64 - count_leading_zeros(u ^ last); }
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

}  // namespace grappi::detail
