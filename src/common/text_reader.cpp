#include "common/text_reader.hpp"
#include "grappi/files.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>

#include "grappi/error.hpp"
#include "common/text_util.hpp"

namespace grappi::detail {

struct LineReader::State {
  z_stream zs{};
  bool z_init = false;
  Sha256 md;  // (of the file's bytes as read)
  ~State() {
    if (z_init) inflateEnd(&zs);
  }
};

namespace {
constexpr std::size_t kRawChunk = 1u << 20;
constexpr std::size_t kBufChunk = 4u << 20;
}  // namespace

LineReader::LineReader(const std::string &path, std::size_t max_line)
    : path_(path), max_line_(max_line), st_(std::make_unique<State>()) {
  struct stat sb {};
  if (::stat(path.c_str(), &sb) != 0)
    throw Error(errno == ENOENT ? ErrorCode::not_found : ErrorCode::io,
                "cannot open '" + path + "': " + std::strerror(errno));
  if (S_ISDIR(sb.st_mode)) throw Error(ErrorCode::io, "cannot read '" + path + "': is a directory");
  f_ = std::fopen(path.c_str(), "rb");
  if (!f_) throw Error(ErrorCode::io, "cannot open '" + path + "': " + std::strerror(errno));
  file_size_ = static_cast<uint64_t>(sb.st_size);
  // Buffers sized to the input (a small file costs kilobytes, not megabytes; the decoded buffer
  // grows when a line does not fit, up to the line limit).
  const uint64_t hint = S_ISREG(sb.st_mode) ? file_size_ : kRawChunk;
  const auto sized = [](uint64_t want, std::size_t lo, std::size_t hi) {
    return static_cast<std::size_t>(std::min<uint64_t>(std::max<uint64_t>(want, lo), hi));
  };
  raw_.resize(sized(hint + 1, 4096, kRawChunk));
  // Peek at the magic bytes.
  raw_len_ = std::fread(raw_.data(), 1, raw_.size(), f_);
  if (std::ferror(f_)) fail("read error");
  raw_read_ = raw_len_;
  st_->md.update(raw_.data(), raw_len_);
  if (raw_len_ < raw_.size()) raw_eof_ = true;
  gz_ = raw_len_ >= 2 && static_cast<unsigned char>(raw_[0]) == 0x1f &&
        static_cast<unsigned char>(raw_[1]) == 0x8b;
  // Text compresses about fourfold (STRING's files up to tenfold): a gzip file's first buffer
  // is a guess that fill() doubles when one line outgrows it.
  buf_.resize(gz_ ? sized(hint * 8, 65536, kBufChunk) : sized(hint + 1, 4096, kBufChunk));
  if (gz_) {
    if (inflateInit2(&st_->zs, 16 + MAX_WBITS) != Z_OK) fail("cannot initialise zlib");
    st_->z_init = true;
    stream_end_ = false;
  }
}

LineReader::~LineReader() {
  if (f_) std::fclose(f_);
}

void LineReader::fail(const std::string &what) const {
  throw Error(ErrorCode::io, "'" + path_ + "': " + what);
}

bool LineReader::fill() {
  // Make room: keep the unconsumed tail at the front.
  if (pos_ > 0) {
    std::memmove(buf_.data(), buf_.data() + pos_, len_ - pos_);
    len_ -= pos_;
    pos_ = 0;
  }
  if (len_ == buf_.size()) {
    if (buf_.size() >= max_line_ + kBufChunk)
      throw Error(ErrorCode::parse, path_ + ":" + std::to_string(line_no_ + 1) + ": line longer than " +
                                        std::to_string(max_line_ >> 20) + " MiB (binary or corrupt file?)");
    buf_.resize(buf_.size() * 2);
  }
  for (;;) {
    if (raw_pos_ == raw_len_ && !raw_eof_) {
      raw_len_ = std::fread(raw_.data(), 1, raw_.size(), f_);
      if (std::ferror(f_)) fail("read error");
      raw_pos_ = 0;
      raw_read_ += raw_len_;
      st_->md.update(raw_.data(), raw_len_);
      if (raw_len_ < raw_.size()) raw_eof_ = true;
    }
    const std::size_t avail_raw = raw_len_ - raw_pos_;
    if (!gz_) {
      if (avail_raw == 0) return false;
      std::size_t n = std::min(avail_raw, buf_.size() - len_);
      std::memcpy(buf_.data() + len_, raw_.data() + raw_pos_, n);
      raw_pos_ += n;
      len_ += n;
      return true;
    }
    if (avail_raw == 0 && stream_end_) return false;
    if (stream_end_) {
      // Another gzip member follows (concatenated .gz files are valid gzip).
      if (inflateReset(&st_->zs) != Z_OK) fail("zlib reset failed");
      stream_end_ = false;
    }
    z_stream &zs = st_->zs;
    zs.next_in = reinterpret_cast<Bytef *>(raw_.data() + raw_pos_);
    zs.avail_in = static_cast<uInt>(avail_raw);
    zs.next_out = reinterpret_cast<Bytef *>(buf_.data() + len_);
    zs.avail_out = static_cast<uInt>(buf_.size() - len_);
    int rc = inflate(&zs, Z_NO_FLUSH);
    std::size_t produced = (buf_.size() - len_) - zs.avail_out;
    raw_pos_ = raw_len_ - zs.avail_in;
    len_ += produced;
    if (rc == Z_STREAM_END) {
      stream_end_ = true;
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      throw Error(ErrorCode::parse, "'" + path_ + "': corrupt gzip data after line " +
                                        std::to_string(line_no_) + " (" +
                                        (zs.msg ? zs.msg : "zlib error") + ")");
    }
    if (produced > 0) return true;
    if (avail_raw == 0 && !stream_end_)
      throw Error(ErrorCode::parse, "'" + path_ +
                                        "': truncated gzip stream (unexpected end of file after line " +
                                        std::to_string(line_no_) + ")");
  }
}

bool LineReader::next(std::string_view &line) {
  std::size_t scan_from = pos_;
  for (;;) {
    const char *start = buf_.data() + pos_;
    const char *nl = static_cast<const char *>(
        std::memchr(buf_.data() + scan_from, '\n', len_ - scan_from));
    if (nl) {
      std::size_t n = static_cast<std::size_t>(nl - start);
      pos_ += n + 1;
      ++line_no_;
      if (max_lines_ && line_no_ > max_lines_) check_line_count();
      if (n > 0 && start[n - 1] == '\r') --n;
      line = std::string_view(start, n);
      if (line_no_ == 1 && line.substr(0, 3) == "\xef\xbb\xbf") line.remove_prefix(3);  // a UTF-8 byte-order mark
      if (std::memchr(line.data(), '\0', line.size()))
        throw Error(ErrorCode::parse, path_ + ":" + std::to_string(line_no_) +
                                          ": NUL byte in text (binary file?)");
      return true;
    }
    std::size_t consumed_scan = len_ - pos_;
    if (!fill()) {
      if (len_ == pos_) {
        if (digest_.empty()) digest_ = st_->md.hex();
        return false;
      }
      // Last line without a terminator.
      const char *s = buf_.data() + pos_;
      std::size_t n = len_ - pos_;
      pos_ = len_;
      ++line_no_;
      if (max_lines_ && line_no_ > max_lines_) check_line_count();
      if (n > 0 && s[n - 1] == '\r') --n;
      line = std::string_view(s, n);
      if (line_no_ == 1 && line.substr(0, 3) == "\xef\xbb\xbf") line.remove_prefix(3);
      if (std::memchr(line.data(), '\0', line.size()))
        throw Error(ErrorCode::parse, path_ + ":" + std::to_string(line_no_) +
                                          ": NUL byte in text (binary file?)");
      return true;
    }
    scan_from = pos_ + consumed_scan;  // pos_ is 0 after fill()
  }
}

void LineReader::check_line_count() const {
  throw Error(ErrorCode::invalid_argument, path_ + ": more than " + std::to_string(max_lines_) +
                                               " lines, the limit set (ImportOptions::max_rows, grappi import --max-rows)");
}

std::string LineReader::sha256_hex() const { return digest_; }

bool valid_utf8(std::string_view s) noexcept {
  const auto *p = reinterpret_cast<const unsigned char *>(s.data());
  const auto *end = p + s.size();
  while (p < end) {
    // ASCII fast path, 8 bytes at a time.
    while (end - p >= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      if (w & 0x8080808080808080ull) break;
      p += 8;
    }
    if (p >= end) break;
    unsigned char c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    int n;
    uint32_t cp;
    if ((c & 0xE0) == 0xC0) {
      n = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (end - p <= n) return false;
    for (int i = 1; i <= n; ++i) {
      if ((p[i] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[i] & 0x3F);
    }
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    p += n + 1;
  }
  return true;
}

uint64_t whole_file_limit() {
  static const uint64_t limit = [] {
    const char *v = std::getenv("GRAPPI_MAX_FILE_BYTES");
    if (!v || !*v) return kDefaultWholeFileLimit;
    char *end = nullptr;
    const unsigned long long n = std::strtoull(v, &end, 10);
    return end && *end == '\0' && n > 0 ? static_cast<uint64_t>(n) : kDefaultWholeFileLimit;
  }();
  return limit;
}

WholeFile read_whole_file(const std::string &path, uint64_t max_lines) {
  LineReader reader(path, LineReader::kMaxDocument);
  reader.set_max_lines(max_lines);
  WholeFile f;
  f.size = reader.file_size();
  const uint64_t cap = whole_file_limit();
  std::string_view line;
  while (reader.next(line)) {
    if (f.text.size() + line.size() + 1 > cap)
      throw Error(ErrorCode::invalid_argument,
                  path + ": more than " + std::to_string(cap) +
                      " bytes once decompressed, the limit for files read whole (BEL scripts, BEL JSON, CX2, BioC, "
                      "PPI XML, question sets); the environment variable GRAPPI_MAX_FILE_BYTES raises it");
    if (!valid_utf8(line))
      throw Error(ErrorCode::parse, path + ":" + std::to_string(reader.line_number()) + ": invalid UTF-8");
    f.text.append(line);
    f.text += '\n';
  }
  f.sha256 = reader.sha256_hex();
  return f;
}

void check_elements(const std::string &path, uint64_t elements, uint64_t max_rows) {
  if (max_rows && elements > max_rows)
    throw Error(ErrorCode::invalid_argument, path + ": " + std::to_string(elements) +
                                                 " nodes and edges, more than the limit set (" + std::to_string(max_rows) +
                                                 "; ImportOptions::max_rows, grappi import --max-rows)");
}

void write_file_atomically(const std::string &path, const std::function<void(std::ostream &)> &write,
                           const std::string &what) {
  // A device or pipe (/dev/stdout, /dev/full, a FIFO) is written directly: it cannot be renamed.
  std::error_code st_ec;
  const auto st = std::filesystem::status(path, st_ec);
  if (!st_ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    std::ofstream out(path, std::ios::binary);
    if (out) write(out);
    if (out) out.close();
    if (!out) throw Error(ErrorCode::io, what + ": cannot write '" + path + "'");
    return;
  }
  // (a name of its own: writers of the same file at once, as processes sharing a database's cache files, never
  // write into each other's)
  const std::string part = path + ".part" + random_hex(4);
  try {
    std::ofstream out(part, std::ios::binary);
    if (out) write(out);
    if (out) out.close();
    if (!out) throw Error(ErrorCode::io, what + ": cannot write '" + path + "'");
  } catch (...) {
    std::remove(part.c_str());
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(part, path, ec);
  if (ec) {
    std::remove(part.c_str());
    throw Error(ErrorCode::io, what + ": cannot write '" + path + "': " + ec.message());
  }
}

}  // namespace grappi::detail

namespace grappi {

void write_file(const std::string &path, std::string_view content) {
  detail::write_file_atomically(path, [&](std::ostream &out) { out.write(content.data(), static_cast<std::streamsize>(content.size())); },
                                "write_file");
}

}  // namespace grappi
