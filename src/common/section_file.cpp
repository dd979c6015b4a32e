#include "common/section_file.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <ostream>

#include "common/checksum.hpp"
#include "common/text_reader.hpp"
#include "grappi/version.h"

namespace grappi::detail {

namespace {
constexpr uint64_t kByteOrder = 0x0102030405060708ull;
constexpr uint64_t up64(uint64_t x) { return (x + 63) / 64 * 64; }
std::size_t header_bytes(std::size_t count) { return 16 + 8 + 8 + count * 24 + 8; }
uint64_t header_sum(const char (&magic)[16], const uint64_t *fields, std::size_t n) {
  return checksum(checksum(0, magic, 16), fields, n * sizeof(uint64_t));
}
}  // namespace

void write_section_file(const std::string &path, const char (&magic)[16], const std::vector<FilePiece> &sections,
                        const std::string &what, std::vector<uint64_t> sums) {
  if (sums.size() != sections.size()) {
    sums.clear();
    for (const FilePiece &s : sections) sums.push_back(checksum_wide(s.data, s.size));
  }
  std::vector<uint64_t> header{kByteOrder, sections.size()};
  uint64_t at = up64(header_bytes(sections.size()));
  for (std::size_t i = 0; i < sections.size(); ++i) {
    header.insert(header.end(), {at, sections[i].size, sums[i]});
    at = up64(at + sections[i].size);
  }
  header.push_back(header_sum(magic, header.data(), header.size()));
  static const char zeros[64] = {};
  write_file_atomically(path, [&](std::ostream &out) {
    out.write(magic, 16);
    out.write(reinterpret_cast<const char *>(header.data()), static_cast<std::streamsize>(header.size() * 8));
    uint64_t written = header_bytes(sections.size());
    for (const FilePiece &s : sections) {
      out.write(zeros, static_cast<std::streamsize>(up64(written) - written));
      out.write(static_cast<const char *>(s.data), static_cast<std::streamsize>(s.size));
      written = up64(written) + s.size;
    }
  }, what);
}

bool SectionFile::open(const MappedFile &file, const char (&magic)[16], std::size_t count) {
  sections_.clear();
  sums_.clear();
  const std::size_t hb = header_bytes(count);
  if (count == 0 || count > 4096 || file.size() < hb || std::memcmp(file.data(), magic, 16) != 0) return false;
  const unsigned char *base = file.data();
  std::vector<uint64_t> h((hb - 16) / 8);
  std::memcpy(h.data(), base + 16, h.size() * 8);
  if (h[0] != kByteOrder || h[1] != count || h.back() != header_sum(magic, h.data(), h.size() - 1)) return false;
  // Each section at the first 64-byte boundary after the one before, zeros between, the last
  // ending the file: every byte is accounted for.
  uint64_t end = hb;
  for (std::size_t i = 0; i < count; ++i) {
    const uint64_t at = h[2 + 3 * i], bytes = h[3 + 3 * i];
    if (at != up64(end) || at > file.size() || bytes > file.size() - at) return false;
    for (uint64_t k = end; k < at; ++k)
      if (base[k]) return false;
    sections_.push_back({base + at, static_cast<std::size_t>(bytes)});
    sums_.push_back(h[4 + 3 * i]);
    end = at + bytes;
  }
  if (end != file.size()) {
    sections_.clear();
    sums_.clear();
    return false;
  }
  return true;
}

bool SectionFile::intact(std::size_t i) const {
  return i < sections_.size() && checksum_wide(sections_[i].data, sections_[i].size) == sums_[i];
}

const std::string &build_identity() {
  static const std::string id = [] {
    std::string s = GRAPPI_VERSION_STRING;
    Dl_info info{};
    struct stat st{};
    if (dladdr(reinterpret_cast<const void *>(&build_identity), &info) && info.dli_fname &&
        ::stat(info.dli_fname, &st) == 0)
      s += std::string(" ") + info.dli_fname + ' ' + std::to_string(st.st_size) + ' ' + std::to_string(st.st_mtim.tv_sec) +
           '.' + std::to_string(st.st_mtim.tv_nsec);
    else
      s += std::string(" built ") + __DATE__ + ' ' + __TIME__;
    return s;
  }();
  return id;
}

}  // namespace grappi::detail
