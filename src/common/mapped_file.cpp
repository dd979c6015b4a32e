#include "common/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>


namespace grappi::detail {

std::shared_ptr<const MappedFile> MappedFile::open(const std::string &path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st {};
  void *p = MAP_FAILED;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);  // the mapping keeps the file
  if (p == MAP_FAILED) return nullptr;
  std::shared_ptr<MappedFile> f(new MappedFile());
  f->data_ = static_cast<const unsigned char *>(p);
  f->size_ = static_cast<std::size_t>(st.st_size);
  f->path_ = path;
  return f;
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<unsigned char *>(data_), size_);
}

}  // namespace grappi::detail
