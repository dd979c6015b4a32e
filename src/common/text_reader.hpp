// Internal: reads a plain or gzip-compressed text file line by line in one pass, computing the
// SHA-256 of the bytes on disk as it goes. Detects gzip from the magic bytes, follows
// concatenated gzip members, and reports truncated or corrupt streams, NUL bytes and overlong
// lines as errors naming the file and line.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace grappi::detail {

class LineReader {
 public:
  /// Reads `path`; a line longer than `max_line` bytes is an error (binary or corrupt file).
  explicit LineReader(const std::string &path, std::size_t max_line = kMaxLine);
  ~LineReader();
  LineReader(const LineReader &) = delete;
  LineReader &operator=(const LineReader &) = delete;

  /// Next line without its line terminator ("\n" or "\r\n"); false at the end of the file.
  /// The view stays valid until the next call.
  bool next(std::string_view &line);
  /// At most this many lines (0: no limit); one more is an Error(invalid_argument) naming the
  /// file and the limit (ImportOptions::max_rows).
  void set_max_lines(uint64_t max_lines) { max_lines_ = max_lines; }
  /// 1-based number of the line last returned.
  uint64_t line_number() const { return line_no_; }
  bool gzipped() const { return gz_; }
  uint64_t file_size() const { return file_size_; }
  /// Bytes of the file (as stored on disk) consumed so far.
  uint64_t bytes_read() const { return raw_read_; }
  /// Lower-case hex SHA-256 of the whole file; valid once next() returned false.
  std::string sha256_hex() const;
  const std::string &path() const { return path_; }

  static constexpr std::size_t kMaxLine = 16u << 20;
  /// The longest line of a JSON document read whole (CX2 and JSON graphs are often one line).
  static constexpr std::size_t kMaxDocument = std::size_t{1} << 30;

 private:
  bool fill();  // appends decoded bytes to buf_; false at the end of input
  [[noreturn]] void fail(const std::string &what) const;

  std::string path_;
  std::FILE *f_ = nullptr;
  bool gz_ = false;
  bool raw_eof_ = false;
  bool stream_end_ = true;  // gzip: between members
  uint64_t file_size_ = 0;
  uint64_t raw_read_ = 0;
  uint64_t line_no_ = 0;
  std::size_t max_line_ = kMaxLine;
  uint64_t max_lines_ = 0;
  void check_line_count() const;
  std::vector<char> raw_;
  std::size_t raw_pos_ = 0, raw_len_ = 0;
  std::vector<char> buf_;
  std::size_t pos_ = 0, len_ = 0;
  struct State;
  std::unique_ptr<State> st_;
  std::string digest_;
};

/// A whole text file (plain or gzipped) with its SHA-256 and size on disk.
struct WholeFile {
  std::string text, sha256;
  uint64_t size = 0;
};
/// The default cap on a file read whole, once decompressed: 1 GiB.
inline constexpr uint64_t kDefaultWholeFileLimit = uint64_t{1} << 30;
/// The cap on a file read whole: GRAPPI_MAX_FILE_BYTES (bytes) when set to a positive number,
/// else kDefaultWholeFileLimit. Read once per process.
uint64_t whole_file_limit();
/// Reads a file whole for the parsers of JSON documents (CX2, BEL JSON graphs), XML and BEL
/// scripts: lines joined with '\n'; invalid UTF-8 is an Error(parse) naming the file and line;
/// more than `max_lines` lines (0: no limit) an Error(invalid_argument) as
/// LineReader::set_max_lines; more than whole_file_limit() bytes an Error(invalid_argument)
/// (read as it decompresses: a small .gz of zeros never fills the memory).
WholeFile read_whole_file(const std::string &path, uint64_t max_lines = 0);

/// Writes a file whole or not at all: `write` fills "<path>.part" and 8 random hex digits, which is then renamed into
/// place (removed when writing fails or throws); a device or pipe is written directly
/// (grappi::write_file, public, writes a string with it). Error(io) naming `what` and the path.
void write_file_atomically(const std::string &path, const std::function<void(std::ostream &)> &write,
                           const std::string &what);
/// Error(invalid_argument) when a document of `elements` nodes and edges is over
/// ImportOptions::max_rows (0: no limit).
void check_elements(const std::string &path, uint64_t elements, uint64_t max_rows);

/// True when s is valid UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF).
bool valid_utf8(std::string_view s) noexcept;

}  // namespace grappi::detail
