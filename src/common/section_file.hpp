// Internal: cache files made of checked sections, and the byte streams some of them hold.
//
// Layout (the CSR snapshot's, shared by later cache files): a 16-byte magic naming the kind and
// its version, then u64 fields — a byte-order tag, the section count, per section {file offset,
// bytes, checksum_wide}, and the checksum of the magic and these fields — then the sections,
// each at the first 64-byte boundary after the one before, zeros between, the last ending the
// file. A reader checks every byte of that: a damaged, truncated or foreign file is refused,
// never trusted, and its writer rebuilds it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/mapped_file.hpp"

namespace grappi::detail {

/// Writes `path` whole or not at all (write_file_atomically): the magic (16 bytes) and the sections,
/// with their checksums (`sums`, when the caller has them: checksum_wide of each section).
/// Error(io) when it cannot be written.
void write_section_file(const std::string &path, const char (&magic)[16], const std::vector<FilePiece> &sections,
                        const std::string &what, std::vector<uint64_t> sums = {});

/// The sections of a mapped file written by write_section_file with this magic and exactly `count`
/// sections. open() checks the layout (offsets, padding, sizes, the header's checksum); intact()
/// checks one section's checksum, so that a reader can refuse a stale key before it reads the rest.
class SectionFile {
 public:
  /// False when the file is not one of these or its layout is damaged.
  bool open(const MappedFile &file, const char (&magic)[16], std::size_t count);
  std::size_t size() const { return sections_.size(); }
  const FilePiece &operator[](std::size_t i) const { return sections_[i]; }
  /// Whether section i's bytes match its checksum.
  bool intact(std::size_t i) const;
  /// The checksum the header gives section i.
  uint64_t sum(std::size_t i) const { return sums_[i]; }

 private:
  std::vector<FilePiece> sections_;
  std::vector<uint64_t> sums_;
};

/// A byte stream of little structure: unsigned integers as LEB128 varints, strings as a length
/// and their bytes.
class ByteWriter {
 public:
  void u64(uint64_t x) {
    while (x >= 0x80) {
      bytes_.push_back(static_cast<char>((x & 0x7f) | 0x80));
      x >>= 7;
    }
    bytes_.push_back(static_cast<char>(x));
  }
  void i64(int64_t x) { u64((static_cast<uint64_t>(x) << 1) ^ static_cast<uint64_t>(x >> 63)); }
  void str(std::string_view s) {
    u64(s.size());
    bytes_.append(s.data(), s.size());
  }
  const std::string &bytes() const { return bytes_; }
  void clear() { bytes_.clear(); }  ///< (the buffer kept: a writer reused per record)

 private:
  std::string bytes_;
};

/// Reads what a ByteWriter wrote. Past the end or on a malformed varint it returns zeros and
/// empty strings and ok() turns false for good: check ok() once after reading.
class ByteReader {
 public:
  ByteReader(const void *data, std::size_t size)
      : p_(static_cast<const unsigned char *>(data)), end_(p_ + size) {}
  uint64_t u64() {
    uint64_t x = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      if (p_ == end_) return fail();
      const unsigned char b = *p_++;
      if (shift == 63 && b > 1) return fail();
      x |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return x;
    }
    return fail();
  }
  int64_t i64() {
    const uint64_t z = u64();
    return static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1));
  }
  /// A count of items each at least `min_bytes` long: refused (0, not ok) when the rest of the
  /// stream cannot hold that many, so that a damaged count never reserves unbounded memory.
  std::size_t count(std::size_t min_bytes = 1) {
    const uint64_t n = u64();
    if (n > static_cast<uint64_t>(end_ - p_) / (min_bytes ? min_bytes : 1)) return static_cast<std::size_t>(fail());
    return static_cast<std::size_t>(n);
  }
  std::string_view str() {
    const uint64_t n = u64();
    if (n > static_cast<uint64_t>(end_ - p_)) return fail(), std::string_view();
    const std::string_view s(reinterpret_cast<const char *>(p_), static_cast<std::size_t>(n));
    p_ += n;
    return s;
  }
  bool ok() const { return ok_; }
  bool at_end() const { return p_ == end_; }

 private:
  uint64_t fail() {
    ok_ = false;
    p_ = end_;
    return 0;
  }
  const unsigned char *p_, *end_;
  bool ok_ = true;
};

/// What identifies the code of this build of the library: the file it was loaded from, with its
/// size and modification time. Cache files of rules the code applies (the name dictionary) are
/// keyed by it, so that a rebuilt library never reads a dictionary its predecessor derived.
const std::string &build_identity();

}  // namespace grappi::detail
