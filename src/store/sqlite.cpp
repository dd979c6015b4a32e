#include "store/sqlite.hpp"

#include <sqlite3.h>

#include <unistd.h>

#include <cerrno>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "grappi/error.hpp"

namespace grappi::detail {

namespace {
// Memory statistics cost a global mutex on every SQLite allocation; grappi does not use them.
// This only takes effect when grappi is the first to initialise SQLite in the process; if the
// host program already did, SQLite keeps its own configuration (the call then fails harmlessly).
void configure_sqlite_once() {
  static std::once_flag once;
  std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
}

// SQLite's message for the last error, with the operating system's reason for an I/O error or
// a full disk ("disk I/O error (File too large)").
// (`errno_then`: errno as the failing call returned: SQLite records the system's reason of an
// I/O error in a statement, not of a COMMIT that fails, whose rollback runs before it returns)
std::string last_error(sqlite3 *db, int errno_then = 0) {
  if (!db) return "closed";
  std::string msg = sqlite3_errmsg(db);
  const int primary = sqlite3_extended_errcode(db) & 0xff;
  if (primary == SQLITE_IOERR || primary == SQLITE_FULL || primary == SQLITE_CANTOPEN) {
    int e = sqlite3_system_errno(db);
    if (e == 0 && (errno_then == EFBIG || errno_then == ENOSPC || errno_then == EIO || errno_then == EDQUOT ||
                   errno_then == EROFS || errno_then == EACCES))
      e = errno_then;
    if (e) msg += std::string(" (") + std::strerror(e) + ")";
  }
  return msg;
}

// What a file that is not an SQLite database looks like, from its first bytes ("a gzip-compressed
// file", "text beginning 'protein1 protein2 ...'"); empty for an SQLite database or an empty file.
std::string not_sqlite(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  char head[256];
  in.read(head, sizeof head);
  const std::size_t n = static_cast<std::size_t>(in.gcount());
  const std::string_view h(head, n);
  if (n == 0 || h.substr(0, 16) == std::string_view("SQLite format 3\0", 16)) return {};
  if (n >= 2 && static_cast<unsigned char>(h[0]) == 0x1f && static_cast<unsigned char>(h[1]) == 0x8b)
    return "a gzip-compressed file";
  if (h.substr(0, 4) == "PK\x03\x04") return "a zip archive";
  std::string line;
  for (char c : h) {
    if (c == '\n' || c == '\r') break;
    if (c == '\t') c = ' ';
    if (!std::isprint(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80)
      return "binary data that is not SQLite's";
    line += c;
  }
  if (line.size() > 60) line = line.substr(0, 60) + "...";
  return "text beginning '" + line + "'";
}

// True when a database file is in WAL mode (its header's read and write versions are 2).
bool wal_header(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  char head[20];
  return in.read(head, sizeof head) && head[18] == 2 && head[19] == 2;
}

// A read-only reader of a WAL database needs its -shm file, which it creates when there is none;
// in a folder it cannot write, nothing can be writing the database either (a writer keeps -wal
// and -shm there), so the file is opened immutable (no locks, no -shm).
bool open_immutable(const std::string &path) {
  if (path.empty() || path == ":memory:" || path.rfind("file:", 0) == 0 || !wal_header(path)) return false;
  std::error_code ec;
  if (std::filesystem::exists(path + "-shm", ec) || std::filesystem::exists(path + "-wal", ec)) return false;
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  return ::access(dir.empty() ? "." : dir.c_str(), W_OK) != 0;
}

// A regular file this process may write, in a folder it may write (for the -wal and -shm).
bool writable_file(const std::string &path) {
  if (path.empty() || path == ":memory:" || path.rfind("file:", 0) == 0) return false;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) || ::access(path.c_str(), W_OK) != 0) return false;
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  return ::access(dir.empty() ? "." : dir.c_str(), W_OK) == 0;
}

std::string file_uri(const std::string &path, const char *query) {
  std::string uri = "file:";
  for (const char c : std::filesystem::absolute(path).string()) {
    if (c == '%' || c == '?' || c == '#') {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
      uri += buf;
    } else {
      uri += c;
    }
  }
  return uri + query;
}
}  // namespace

Db::Db(const std::string &path, bool create, bool read_only, int busy_timeout_ms) : path_(path) {
  configure_sqlite_once();
  int flags = SQLITE_OPEN_NOMUTEX;
  if (read_only) {
    flags |= SQLITE_OPEN_READONLY;
  } else {
    flags |= SQLITE_OPEN_READWRITE;
    if (create) flags |= SQLITE_OPEN_CREATE;
  }
  const bool immutable = read_only && open_immutable(path);
  // A reader of a file it may write opens it read-write with query_only: the last connection
  // to close then checkpoints and removes the -wal and -shm files, which a read-only connection
  // cannot (it would leave them beside the database after every read).
  const bool query_only = read_only && !immutable && writable_file(path);
  if (query_only) flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_READWRITE;
  int rc = immutable ? sqlite3_open_v2(file_uri(path, "?immutable=1").c_str(), &db_, flags | SQLITE_OPEN_URI, nullptr)
                     : sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK && !create && !path.empty() && path != ":memory:" && !std::ifstream(path).good()) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw Error(ErrorCode::not_found,
                "database '" + path + "' does not exist (grappi import or grappi cooc build creates one)");
  }
  if (rc != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw Error(rc == SQLITE_CANTOPEN ? ErrorCode::io : ErrorCode::database,
                "cannot open database '" + path + "': " + msg);
  }
  if (path != ":memory:" && path.rfind("file:", 0) != 0) {
    if (const std::string what = not_sqlite(path); !what.empty()) {
      sqlite3_close(db_);
      db_ = nullptr;
      throw Error(ErrorCode::invalid_argument, "'" + path + "' is not a grappi database (an SQLite file): it looks like " + what);
    }
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, busy_timeout_ms);
  writer_ = !read_only;
  cache_ = std::make_unique<StmtCache>();
  if (query_only && sqlite3_exec(db_, "PRAGMA query_only=1", nullptr, nullptr, nullptr) != SQLITE_OK) {
    const std::string msg = last_error(db_);
    sqlite3_close(db_);
    db_ = nullptr;
    throw Error(ErrorCode::database, "database '" + path + "': " + msg);
  }
}

// Idle prepared statements by SQL text (at most kIdle in all; more are finalized). The
// connection is used by one thread at a time (SQLITE_OPEN_NOMUTEX: its owner serialises), but
// the cache has its own lock so that a statement ending on another thread is safe too.
struct Db::StmtCache {
  static constexpr std::size_t kIdle = 256;
  std::mutex mu;
  std::unordered_map<std::string, std::vector<sqlite3_stmt *>> idle;
  std::size_t count = 0;
};

sqlite3_stmt *Db::take_prepared(const char *sql) const {
  if (!cache_) return nullptr;
  std::lock_guard<std::mutex> lock(cache_->mu);
  auto it = cache_->idle.find(sql);
  if (it == cache_->idle.end() || it->second.empty()) return nullptr;
  sqlite3_stmt *st = it->second.back();
  it->second.pop_back();
  --cache_->count;
  return st;
}

void Db::give_back(sqlite3_stmt *st) const noexcept {
  if (!st) return;
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
  if (db_ && cache_) {
    try {
      std::lock_guard<std::mutex> lock(cache_->mu);
      if (cache_->count < StmtCache::kIdle) {
        cache_->idle[sqlite3_sql(st)].push_back(st);
        ++cache_->count;
        return;
      }
    } catch (...) {  // (no memory for the entry: finalize instead)
    }
  }
  sqlite3_finalize(st);
}

void Db::close() noexcept {
  if (!db_) return;
  if (cache_) {
    for (auto &entry : cache_->idle)
      for (sqlite3_stmt *st : entry.second) sqlite3_finalize(st);
    cache_->idle.clear();
    cache_->count = 0;
  }
  sqlite3_close_v2(db_);
  db_ = nullptr;
}

Db::Db() = default;
Db::Db(Db &&o) noexcept : db_(o.db_), path_(std::move(o.path_)), writer_(o.writer_), cache_(std::move(o.cache_)) {
  o.db_ = nullptr;
}
Db::~Db() { close(); }

Db &Db::operator=(Db &&o) noexcept {
  if (this != &o) {
    close();
    db_ = o.db_;
    path_ = std::move(o.path_);
    writer_ = o.writer_;
    cache_ = std::move(o.cache_);
    o.db_ = nullptr;
  }
  return *this;
}

void Db::fail(const std::string &what) const {
  throw Error(ErrorCode::database,
              "database '" + path_ + "': " + what + ": " + last_error(db_));
}

void Db::exec(const char *sql) {
  errno = 0;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) {  // (no SQL in a user's message)
    const int then = errno;
    throw Error(ErrorCode::database, "database '" + path_ + "': " + last_error(db_, then));
  }
}

bool Db::exec_unless_busy(const char *sql) {
  errno = 0;
  const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) return true;
  if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED) return false;
  const int then = errno;
  throw Error(ErrorCode::database, "database '" + path_ + "': " + last_error(db_, then));
}

int64_t Db::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }
int Db::changes() const { return sqlite3_changes(db_); }

Stmt::Stmt(const Db &db, const char *sql) : db_(&db) {
  st_ = db.take_prepared(sql);
  if (!st_ && sqlite3_prepare_v3(db.handle(), sql, -1, SQLITE_PREPARE_PERSISTENT, &st_, nullptr) != SQLITE_OK) {
    sqlite3_finalize(st_);
    st_ = nullptr;
    db.fail("cannot prepare a statement");
  }
}

Stmt::~Stmt() { db_->give_back(st_); }

Stmt &Stmt::bind(int i, int64_t v) {
  if (sqlite3_bind_int64(st_, i, v) != SQLITE_OK) db_->fail("bind");
  return *this;
}
Stmt &Stmt::bind(int i, double v) {
  if (sqlite3_bind_double(st_, i, v) != SQLITE_OK) db_->fail("bind");
  return *this;
}
Stmt &Stmt::bind(int i, std::string_view v) {
  if (sqlite3_bind_text64(st_, i, v.data() ? v.data() : "", v.size(), SQLITE_TRANSIENT,
                          SQLITE_UTF8) != SQLITE_OK)
    db_->fail("bind");
  return *this;
}
Stmt &Stmt::bind_null(int i) {
  if (sqlite3_bind_null(st_, i) != SQLITE_OK) db_->fail("bind");
  return *this;
}
Stmt &Stmt::bind_blob(int i, const void *data, std::size_t size) {
  if (sqlite3_bind_blob64(st_, i, data, size, SQLITE_TRANSIENT) != SQLITE_OK) db_->fail("bind");
  return *this;
}

bool Stmt::step() {
  errno = 0;
  int rc = sqlite3_step(st_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  const int then = errno;
  std::string msg = last_error(db_->handle(), then);
  sqlite3_reset(st_);
  throw Error(ErrorCode::database, "database '" + db_->path() + "': " + msg);
}

void Stmt::run() {
  while (step()) {
  }
  reset();
}

void Stmt::reset() {
  sqlite3_reset(st_);
  sqlite3_clear_bindings(st_);
}

int64_t Stmt::col_int(int i) const { return sqlite3_column_int64(st_, i); }
double Stmt::col_double(int i) const { return sqlite3_column_double(st_, i); }
std::string Stmt::col_text(int i) const { return std::string(col_view(i)); }
std::string_view Stmt::col_view(int i) const {
  const unsigned char *p = sqlite3_column_text(st_, i);
  int n = sqlite3_column_bytes(st_, i);
  return p ? std::string_view(reinterpret_cast<const char *>(p), static_cast<std::size_t>(n))
           : std::string_view();
}
bool Stmt::col_null(int i) const { return sqlite3_column_type(st_, i) == SQLITE_NULL; }
bool Stmt::col_is_blob(int i) const { return sqlite3_column_type(st_, i) == SQLITE_BLOB; }
const void *Stmt::col_blob(int i) const { return sqlite3_column_blob(st_, i); }
std::size_t Stmt::col_bytes(int i) const {
  return static_cast<std::size_t>(sqlite3_column_bytes(st_, i));
}

std::string multi_row_insert(std::string_view head, std::string_view row, std::size_t rows) {
  std::string sql(head);
  sql.reserve(head.size() + rows * (row.size() + 1));
  for (std::size_t i = 0; i < rows; ++i) {
    if (i) sql += ',';
    sql += row;
  }
  return sql;
}

Savepoint::Savepoint(Db &db, const char *name, bool write) : db_(db), name_(name) {
  if (write && db_.writer() && sqlite3_get_autocommit(db_.handle())) {
    db_.exec("BEGIN IMMEDIATE");
    outer_ = true;
  }
  try {
    db_.exec(("SAVEPOINT " + name_).c_str());
  } catch (...) {
    if (outer_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

Savepoint::~Savepoint() {
  if (!done_) {
    char *err = nullptr;
    sqlite3_exec(db_.handle(), ("ROLLBACK TO " + name_ + "; RELEASE " + name_).c_str(), nullptr,
                 nullptr, &err);
    sqlite3_free(err);
    if (outer_ && !sqlite3_get_autocommit(db_.handle())) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
}

void Savepoint::commit() {
  db_.exec(("RELEASE " + name_).c_str());
  if (outer_) db_.exec("COMMIT");
  done_ = true;
}

}  // namespace grappi::detail
