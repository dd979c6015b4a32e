// Internal: the binary cache files next to a database ("<db>.csr", the CSR snapshot; "<db>.knn",
// the neighbor ranking). One format rule for both: a 16-byte magic naming the file kind and its
// version, then the writer's fields, then a checksum of every byte before it. Writers write a
// temporary file and rename it into place (readers never see half a file; concurrent writers do
// not collide); readers bound every length by the file's size and verify the checksum, so a
// damaged, truncated or foreign file is rejected, never trusted.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace grappi::detail {

class CacheFileWriter {
 public:
  /// Opens a temporary file beside `path`; ok() is false when it cannot be created.
  CacheFileWriter(const std::string &path, const char (&magic)[16]);
  ~CacheFileWriter();
  CacheFileWriter(const CacheFileWriter &) = delete;
  CacheFileWriter &operator=(const CacheFileWriter &) = delete;

  void raw(const void *p, std::size_t n);
  void u64(uint64_t v) { raw(&v, sizeof v); }
  template <class T>
  void vec(const std::vector<T> &v) {
    u64(v.size());
    raw(v.data(), v.size() * sizeof(T));
  }
  void str(const std::string &s) {
    u64(s.size());
    raw(s.data(), s.size());
  }
  void strs(const std::vector<std::string> &v) {
    u64(v.size());
    for (const auto &s : v) str(s);
  }
  bool ok() const { return ok_; }
  /// Appends the checksum and renames the file into place; false (and the temporary file
  /// removed) when any write failed. Without commit() the destructor removes it.
  bool commit();

 private:
  std::string path_, tmp_;
  std::FILE *f_ = nullptr;
  uint64_t sum_ = 0;
  bool ok_ = true;
};

class CacheFileReader {
 public:
  /// Opens `path` and checks its magic; ok() is false when it is missing or of another kind.
  CacheFileReader(const std::string &path, const char (&magic)[16]);
  ~CacheFileReader();
  CacheFileReader(const CacheFileReader &) = delete;
  CacheFileReader &operator=(const CacheFileReader &) = delete;

  bool raw(void *p, std::size_t n);
  uint64_t u64() {
    uint64_t v = 0;
    raw(&v, sizeof v);
    return v;
  }
  /// Reads a length-prefixed array; a length the rest of the file cannot hold fails.
  template <class T>
  void vec(std::vector<T> &v) {
    const uint64_t n = u64();
    if (!ok_ || n > left_ / sizeof(T)) {
      ok_ = false;
      return;
    }
    v.resize(static_cast<std::size_t>(n));
    raw(v.data(), v.size() * sizeof(T));
  }
  void str(std::string &s);
  void strs(std::vector<std::string> &v);
  /// Reads the trailing checksum: true when every byte read matches it and nothing is left.
  bool finish();
  bool ok() const { return ok_; }

 private:
  std::FILE *f_ = nullptr;
  uint64_t left_ = 0;
  uint64_t sum_ = 0;
  bool ok_ = true;
};

}  // namespace grappi::detail
