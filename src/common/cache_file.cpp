#include "common/cache_file.hpp"

#include <cstring>

#include "common/checksum.hpp"
#include "common/text_util.hpp"

namespace grappi::detail {

CacheFileWriter::CacheFileWriter(const std::string &path, const char (&magic)[16])
    : path_(path), tmp_(path + ".tmp" + random_hex(4)) {
  f_ = std::fopen(tmp_.c_str(), "wb");
  ok_ = f_ != nullptr;
  raw(magic, sizeof magic);
}

CacheFileWriter::~CacheFileWriter() {
  if (f_) {
    std::fclose(f_);
    std::remove(tmp_.c_str());
  }
}

void CacheFileWriter::raw(const void *p, std::size_t n) {
  if (!ok_) return;
  sum_ = checksum(sum_, p, n);
  ok_ = n == 0 || std::fwrite(p, 1, n, f_) == n;
}

bool CacheFileWriter::commit() {
  if (!f_) return false;
  const uint64_t s = sum_;
  bool ok = ok_ && std::fwrite(&s, 1, sizeof s, f_) == sizeof s && std::fflush(f_) == 0;
  ok = std::fclose(f_) == 0 && ok;
  f_ = nullptr;
  if (!ok || std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    std::remove(tmp_.c_str());
    return ok_ = false;
  }
  return true;
}

CacheFileReader::CacheFileReader(const std::string &path, const char (&magic)[16]) {
  f_ = std::fopen(path.c_str(), "rb");
  if (!f_) {
    ok_ = false;
    return;
  }
  long size = -1;
  if (std::fseek(f_, 0, SEEK_END) == 0) size = std::ftell(f_);
  ok_ = size > 0 && std::fseek(f_, 0, SEEK_SET) == 0;
  left_ = ok_ ? static_cast<uint64_t>(size) : 0;
  char got[sizeof magic];
  ok_ = raw(got, sizeof got) && std::memcmp(got, magic, sizeof magic) == 0;
}

CacheFileReader::~CacheFileReader() {
  if (f_) std::fclose(f_);
}

bool CacheFileReader::raw(void *p, std::size_t n) {
  if (!ok_ || n > left_) return ok_ = false;
  if (n && std::fread(p, 1, n, f_) != n) return ok_ = false;
  left_ -= n;
  sum_ = checksum(sum_, p, n);
  return true;
}

void CacheFileReader::str(std::string &s) {
  const uint64_t n = u64();
  if (!ok_ || n > left_) {
    ok_ = false;
    return;
  }
  s.resize(static_cast<std::size_t>(n));
  raw(s.data(), s.size());
}

void CacheFileReader::strs(std::vector<std::string> &v) {
  const uint64_t n = u64();
  if (!ok_ || n > left_ / sizeof(uint64_t)) {
    ok_ = false;
    return;
  }
  v.resize(static_cast<std::size_t>(n));
  for (auto &s : v) str(s);
}

bool CacheFileReader::finish() {
  const uint64_t want = sum_;
  uint64_t got = 0;
  if (!ok_ || left_ != sizeof got || std::fread(&got, 1, sizeof got, f_) != sizeof got) return ok_ = false;
  left_ = 0;
  return ok_ = got == want;
}

}  // namespace grappi::detail
