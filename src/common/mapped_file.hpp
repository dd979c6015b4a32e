// Internal: a whole file mapped read-only into memory (POSIX mmap), for the cache files that
// readers use in place instead of copying (the CSR snapshot, the neighbor ranking). The pages
// come from the operating system's page cache, so every process on the machine shares them and
// opening costs no more than checking them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace grappi::detail {

class MappedFile {
 public:
  /// Maps `path`; nullptr when it is missing, empty or cannot be mapped.
  static std::shared_ptr<const MappedFile> open(const std::string &path);
  ~MappedFile();
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;

  const unsigned char *data() const { return data_; }
  std::size_t size() const { return size_; }
  const std::string &path() const { return path_; }

 private:
  MappedFile() = default;
  const unsigned char *data_ = nullptr;
  std::size_t size_ = 0;
  std::string path_;
};

/// A byte range: a section of a mapped file, or one to write (text_reader.hpp's write_file_atomically
/// writes cache files whole or not at all).
struct FilePiece {
  const void *data;
  std::size_t size;
};

}  // namespace grappi::detail
