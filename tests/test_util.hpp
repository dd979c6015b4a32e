// Helpers shared by the doctest suites: temporary directories, fixture files, and a
// fingerprint of a whole database used to assert that a failed import changed nothing.
#pragma once

#include <sqlite3.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/llm.hpp"

namespace testutil {

/// Threads of a test. An exception thrown on one is caught and kept (it would otherwise end the
/// whole test program); join() waits for all and returns the messages of those exceptions, for
/// the test to CHECK that there are none.
class TestThreads {
 public:
  ~TestThreads() { join(); }
  void spawn(std::function<void()> fn) {
    threads_.emplace_back([this, fn = std::move(fn)] {
      try {
        fn();
      } catch (const std::exception &e) {
        keep(e.what());
      } catch (...) {
        keep("unknown exception");
      }
    });
  }
  std::vector<std::string> join() {
    for (auto &t : threads_)
      if (t.joinable()) t.join();
    std::lock_guard<std::mutex> lock(mu_);
    return errors_;
  }

 private:
  void keep(const std::string &what) {
    std::lock_guard<std::mutex> lock(mu_);
    errors_.push_back(what);
  }
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::vector<std::string> errors_;
};

/// A FileReport's format-specific count by name; throws (a test failure) when it has none.
template <class Report>
uint64_t detail_of(const Report &report, const std::string &key) {
  for (const auto &[k, v] : report.details)
    if (k == key) return v;
  throw std::runtime_error("the report has no detail '" + key + "'");
}

inline std::string data(const std::string &rel) { return std::string(GRAPPI_DATA_DIR) + "/" + rel; }
#ifdef GRAPPI_TEST_DATA_DIR
/// A file of tests/data/literature/ (papers, corpora slices).
inline std::string lit(const std::string &f) { return std::string(GRAPPI_TEST_DATA_DIR) + "/literature/" + f; }
#endif
/// IntAct's sample, under data/.
inline const std::string kMitab = "intact/intact_sample.mitab27.tsv.gz";

/// The body an OpenAI-compatible server answers a chat completion with: one choice whose
/// message is `content`, and the usage.
inline std::string chat_reply(const std::string &content, int prompt_tokens = 20, int completion_tokens = 10) {
  return nlohmann::json{{"id", "x"},
                        {"object", "chat.completion"},
                        {"model", "test-chat"},
                        {"choices", nlohmann::json::array({{{"index", 0},
                                                            {"message", {{"role", "assistant"}, {"content", content}}},
                                                            {"finish_reason", "stop"}}})},
                        {"usage", {{"prompt_tokens", prompt_tokens}, {"completion_tokens", completion_tokens}}}}
      .dump();
}

/// A model's answer of sentences ({"sentences": [...]}, ask and hypothesize), finished normally.
inline grappi::ChatResponse sentences_reply(const nlohmann::json &sentences) {
  grappi::ChatResponse r;
  r.finish_reason = "stop";
  r.content = nlohmann::json{{"sentences", sentences}}.dump();
  return r;
}

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/grappi_test_XXXXXX";
    if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
  std::string file(const std::string &name) const { return path + "/" + name; }
};

inline void write_file(const std::string &path, const std::string &content) {
  std::ofstream f(path, std::ios::binary);
  f << content;
}

inline void write_gz(const std::string &path, const std::string &content) {
  gzFile g = gzopen(path.c_str(), "wb");
  gzwrite(g, content.data(), static_cast<unsigned>(content.size()));
  gzclose(g);
}

inline std::string read_file(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

/// The files whose path begins with `prefix` ("<db>.names." for the name dictionaries), sorted.
inline std::vector<std::string> files_starting(const std::string &prefix) {
  std::vector<std::string> out;
  const std::filesystem::path p(prefix);
  std::error_code ec;
  for (const auto &e : std::filesystem::directory_iterator(p.parent_path(), ec))
    if (e.path().string().rfind(prefix, 0) == 0) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// All lines of a (possibly gzipped) file, read with zlib directly (independent of grappi).
inline std::vector<std::string> read_lines_gz(const std::string &path) {
  gzFile g = gzopen(path.c_str(), "rb");
  std::vector<std::string> lines;
  std::string cur;
  char buf[1 << 16];
  int n;
  while ((n = gzread(g, buf, sizeof buf)) > 0) {
    for (int i = 0; i < n; ++i) {
      if (buf[i] == '\n') {
        lines.push_back(cur);
        cur.clear();
      } else {
        cur += buf[i];
      }
    }
  }
  if (!cur.empty()) lines.push_back(cur);
  gzclose(g);
  return lines;
}

/// The database's journal mode ("wal", "delete"), read by a connection of its own.
inline std::string journal_mode(const std::string &db_path) {
  sqlite3 *h = nullptr;
  sqlite3_open_v2(db_path.c_str(), &h, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt *st = nullptr;
  sqlite3_prepare_v2(h, "PRAGMA journal_mode", -1, &st, nullptr);
  std::string mode = sqlite3_step(st) == SQLITE_ROW ? reinterpret_cast<const char *>(sqlite3_column_text(st, 0)) : "";
  sqlite3_finalize(st);
  sqlite3_close(h);
  return mode;
}

/// Every row of every table, in a canonical order, as one string.
inline std::string fingerprint(const std::string &db_path) {
  sqlite3 *db = nullptr;
  sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  std::string out;
  std::vector<std::string> tables;
  sqlite3_stmt *st = nullptr;
  sqlite3_prepare_v2(db, "SELECT name FROM sqlite_schema WHERE type='table' ORDER BY name", -1, &st, nullptr);
  while (sqlite3_step(st) == SQLITE_ROW) tables.emplace_back(reinterpret_cast<const char *>(sqlite3_column_text(st, 0)));
  sqlite3_finalize(st);
  for (auto &t : tables) {
    out += "## " + t + "\n";
    std::string sql = "SELECT * FROM \"" + t + "\" ORDER BY 1, 2";
    sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
    int nc = sqlite3_column_count(st);
    while (sqlite3_step(st) == SQLITE_ROW) {
      for (int c = 0; c < nc; ++c) {
        const unsigned char *v = sqlite3_column_text(st, c);
        out += v ? reinterpret_cast<const char *>(v) : "NULL";
        out += '|';
      }
      out += '\n';
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return out;
}

inline long long sql_count(const std::string &db_path, const std::string &sql) {
  sqlite3 *db = nullptr;
  sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt *st = nullptr;
  long long v = -1;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    v = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

}  // namespace testutil
