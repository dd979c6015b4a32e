// Internal: a thin RAII layer over the SQLite C API. Not installed, not part of the public API.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace grappi::detail {

class Db {
 public:
  Db();
  Db(const std::string &path, bool create, bool read_only, int busy_timeout_ms);
  ~Db();
  Db(Db &&o) noexcept;
  Db &operator=(Db &&o) noexcept;
  Db(const Db &) = delete;
  Db &operator=(const Db &) = delete;

  sqlite3 *handle() const { return db_; }
  const std::string &path() const { return path_; }
  /// Closes the connection (the destructor calls it).
  void close() noexcept;
  /// Runs one or more statements without results. Throws Error(database) with SQLite's reason.
  void exec(const char *sql);
  /// exec(), but false (nothing done) when SQLite answers "database is locked" at once (a
  /// deadlock the busy handler is not asked to wait out); Error for anything else.
  bool exec_unless_busy(const char *sql);
  int64_t last_insert_rowid() const;
  int changes() const;
  [[noreturn]] void fail(const std::string &what) const;
  /// Opened to write (not read-only, not query_only): its transactions take the write lock first.
  bool writer() const { return writer_; }

  /// Statements are prepared once per connection and SQL text: Stmt takes an idle one of the
  /// same text from here and gives it back (reset, bindings cleared) when it ends.
  sqlite3_stmt *take_prepared(const char *sql) const;
  void give_back(sqlite3_stmt *st) const noexcept;

 private:
  struct StmtCache;
  sqlite3 *db_ = nullptr;
  std::string path_;
  bool writer_ = false;
  std::unique_ptr<StmtCache> cache_;
};

class Stmt {
 public:
  Stmt(const Db &db, const char *sql);
  ~Stmt();
  Stmt(const Stmt &) = delete;
  Stmt &operator=(const Stmt &) = delete;

  Stmt &bind(int i, int64_t v);
  Stmt &bind(int i, int v) { return bind(i, static_cast<int64_t>(v)); }
  Stmt &bind(int i, double v);
  Stmt &bind(int i, std::string_view v);  // copied by SQLite (SQLITE_TRANSIENT)
  Stmt &bind(int i, const char *v) { return bind(i, std::string_view(v)); }
  Stmt &bind(int i, const std::string &v) { return bind(i, std::string_view(v)); }
  Stmt &bind_null(int i);
  Stmt &bind_blob(int i, const void *data, std::size_t size);

  /// Advances; true while a row is available.
  bool step();
  /// Runs a statement that returns no rows (or ignores them), then resets it.
  void run();
  void reset();

  int64_t col_int(int i) const;
  double col_double(int i) const;
  std::string col_text(int i) const;
  std::string_view col_view(int i) const;
  bool col_null(int i) const;
  bool col_is_blob(int i) const;  ///< the column's value is a blob (not text, a number or NULL)
  const void *col_blob(int i) const;
  std::size_t col_bytes(int i) const;

 private:
  const Db *db_;
  sqlite3_stmt *st_ = nullptr;
};

/// An INSERT of `rows` rows in one statement: `head` ("INSERT INTO t(a, b) VALUES") and `row`
/// ("(?,?)") repeated, comma-separated. SQLite's per-statement work is then shared by the rows
/// (the bulk writers' chunks of 64).
std::string multi_row_insert(std::string_view head, std::string_view row, std::size_t rows);

/// RAII savepoint: rolled back unless commit() was called. Nests inside other transactions; on
/// a writer outside any, it begins one with BEGIN IMMEDIATE, so that the write lock is taken (and
/// waited for, up to the busy timeout) before anything is read: two writers wait for each other
/// instead of one failing with "database is locked" when it upgrades a read to a write. A read
/// savepoint (write false) takes no lock: readers never wait for a writer (WAL).
class Savepoint {
 public:
  /// (write false: a read transaction, one consistent snapshot: no write lock taken)
  explicit Savepoint(Db &db, const char *name = "grappi_sp", bool write = true);
  ~Savepoint();
  void commit();
  Savepoint(const Savepoint &) = delete;
  Savepoint &operator=(const Savepoint &) = delete;

 private:
  Db &db_;
  std::string name_;
  bool done_ = false;
  bool outer_ = false;  // (it began the transaction)
};

}  // namespace grappi::detail
