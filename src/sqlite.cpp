#include "sqlite.hpp"

#include <sqlite3.h>

#include <cstring>
#include <fstream>
#include <mutex>

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
std::string last_error(sqlite3 *db) {
  if (!db) return "closed";
  std::string msg = sqlite3_errmsg(db);
  const int primary = sqlite3_extended_errcode(db) & 0xff;
  if (primary == SQLITE_IOERR || primary == SQLITE_FULL || primary == SQLITE_CANTOPEN) {
    if (const int e = sqlite3_system_errno(db)) msg += std::string(" (") + std::strerror(e) + ")";
  }
  return msg;
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
  int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
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
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, busy_timeout_ms);
}

Db::~Db() {
  if (db_) sqlite3_close_v2(db_);
}

Db &Db::operator=(Db &&o) noexcept {
  if (this != &o) {
    if (db_) sqlite3_close_v2(db_);
    db_ = o.db_;
    path_ = std::move(o.path_);
    o.db_ = nullptr;
  }
  return *this;
}

void Db::fail(const std::string &what) const {
  throw Error(ErrorCode::database,
              "database '" + path_ + "': " + what + ": " + last_error(db_));
}

void Db::exec(const char *sql) {
  if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) {
    throw Error(ErrorCode::database, "database '" + path_ + "': " + last_error(db_) + " (in: " +
                                         std::string(sql).substr(0, 120) + ")");
  }
}

int64_t Db::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }
int Db::changes() const { return sqlite3_changes(db_); }

Stmt::Stmt(const Db &db, const char *sql) : db_(&db), sql_(sql) {
  if (sqlite3_prepare_v3(db.handle(), sql, -1, SQLITE_PREPARE_PERSISTENT, &st_, nullptr) !=
      SQLITE_OK)
    db.fail("cannot prepare '" + sql_.substr(0, 120) + "'");
}

Stmt::~Stmt() { sqlite3_finalize(st_); }

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
  int rc = sqlite3_step(st_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  std::string msg = last_error(db_->handle());
  sqlite3_reset(st_);
  throw Error(ErrorCode::database,
              "database '" + db_->path() + "': " + msg + " (in: " + sql_.substr(0, 120) + ")");
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
const void *Stmt::col_blob(int i) const { return sqlite3_column_blob(st_, i); }
std::size_t Stmt::col_bytes(int i) const {
  return static_cast<std::size_t>(sqlite3_column_bytes(st_, i));
}

Savepoint::Savepoint(Db &db, const char *name) : db_(db), name_(name) {
  db_.exec(("SAVEPOINT " + name_).c_str());
}

Savepoint::~Savepoint() {
  if (!done_) {
    char *err = nullptr;
    sqlite3_exec(db_.handle(), ("ROLLBACK TO " + name_ + "; RELEASE " + name_).c_str(), nullptr,
                 nullptr, &err);
    sqlite3_free(err);
  }
}

void Savepoint::commit() {
  db_.exec(("RELEASE " + name_).c_str());
  done_ = true;
}

}  // namespace grappi::detail
