// STRING importers: protein.info, protein.aliases, protein.links (plain, detailed, physical),
// protein.actions and website exports, plain or gzipped, merged into the knowledge graph.
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <sqlite3.h>
#include <sys/mman.h>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "store/graph_impl.hpp"
#include "store/importers.hpp"
#include "store/score.hpp"
#include "grappi/error.hpp"
#include "common/text_reader.hpp"
#include "grappi/json_text.hpp"

namespace grappi {

using detail::LineReader;
using detail::Savepoint;
using detail::Stmt;

const char *to_string(StringFormat f) noexcept {
  switch (f) {
    case StringFormat::detect: return "detect";
    case StringFormat::info: return "info";
    case StringFormat::aliases: return "aliases";
    case StringFormat::links: return "links";
    case StringFormat::detailed: return "detailed";
    case StringFormat::physical: return "physical";
    case StringFormat::physical_detailed: return "physical_detailed";
    case StringFormat::actions: return "actions";
    case StringFormat::web_export: return "web_export";
  }
  return "unknown";
}

StringFormat string_format_from_name(std::string_view n) {
  static const std::pair<const char *, StringFormat> names[] = {
      {"detect", StringFormat::detect},       {"auto", StringFormat::detect},
      {"info", StringFormat::info},           {"aliases", StringFormat::aliases},
      {"links", StringFormat::links},         {"detailed", StringFormat::detailed},
      {"physical", StringFormat::physical},   {"physical_detailed", StringFormat::physical_detailed},
      {"physical-detailed", StringFormat::physical_detailed},
      {"actions", StringFormat::actions},     {"web_export", StringFormat::web_export},
      {"export", StringFormat::web_export}};
  for (auto &p : names)
    if (n == p.first) return p.second;
  throw Error(ErrorCode::invalid_argument,
              "unknown STRING file kind '" + std::string(n) +
                  "' (expected info, aliases, links, detailed, physical, physical_detailed, "
                  "actions or export)");
}

namespace {

using Clock = std::chrono::steady_clock;

// Splits s on sep into at most max fields; returns the number of fields found (which may
// exceed max, meaning "too many").
std::size_t split(std::string_view s, char sep, std::string_view *out, std::size_t max) {
  std::size_t n = 0, start = 0;
  for (;;) {
    std::size_t p = s.find(sep, start);
    std::string_view f = s.substr(start, p == std::string_view::npos ? std::string_view::npos : p - start);
    if (n < max) out[n] = f;
    ++n;
    if (p == std::string_view::npos) return n;
    start = p + 1;
  }
}

std::vector<std::string> split_header(std::string_view h) {
  std::vector<std::string> cols;
  std::string cur;
  for (char c : h) {
    if (c == ' ' || c == '\t') {
      if (!cur.empty()) cols.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) cols.push_back(cur);
  if (!cols.empty() && !cols[0].empty() && cols[0][0] == '#') cols[0].erase(0, 1);
  return cols;
}

std::string base_name(const std::string &path) {
  auto p = path.find_last_of('/');
  return p == std::string::npos ? path : path.substr(p + 1);
}

// Canonical channel names (the website export and the downloads spell them differently).
std::string canonical_channel(const std::string &c) {
  static const std::unordered_map<std::string, std::string> m = {
      {"neighborhood_on_chromosome", "neighborhood"},
      {"gene_fusion", "fusion"},
      {"phylogenetic_cooccurrence", "cooccurrence"},
      {"cooccurence", "cooccurrence"},
      {"experimentally_determined_interaction", "experimental"},
      {"experiments", "experimental"},
      {"experiments_transferred", "experimental_transferred"},
      {"database_annotated", "database"},
      {"automated_textmining", "textmining"},
      {"cooccurence_transferred", "cooccurrence_transferred"}};
  auto it = m.find(c);
  return it == m.end() ? c : it->second;
}

struct Detected {
  StringFormat format = StringFormat::detect;
  std::vector<std::string> columns;
};

int family(StringFormat f) {
  switch (f) {
    case StringFormat::links:
    case StringFormat::physical: return 1;
    case StringFormat::detailed:
    case StringFormat::physical_detailed: return 2;
    default: return 10 + static_cast<int>(f);
  }
}

Detected detect_format(const std::string &path, std::string_view header) {
  Detected d;
  d.columns = split_header(header);
  const auto &c = d.columns;
  const std::string name = base_name(path);
  const bool physical = name.find("physical") != std::string::npos;
  auto is = [&](std::initializer_list<const char *> want) {
    if (c.size() != want.size()) return false;
    std::size_t i = 0;
    for (const char *w : want)
      if (c[i++] != w) return false;
    return true;
  };
  if (c.size() == 4 && (c[0] == "string_protein_id" || c[0] == "protein_external_id") &&
      c[1] == "preferred_name" && c[2] == "protein_size" && c[3] == "annotation") {
    d.format = StringFormat::info;
  } else if (is({"string_protein_id", "alias", "source"})) {
    d.format = StringFormat::aliases;
  } else if (is({"protein1", "protein2", "combined_score"})) {
    d.format = physical ? StringFormat::physical : StringFormat::links;
  } else if (c.size() > 3 && c[0] == "protein1" && c[1] == "protein2" && c.back() == "combined_score") {
    bool has_functional = std::find(c.begin(), c.end(), "coexpression") != c.end() ||
                          std::find(c.begin(), c.end(), "neighborhood") != c.end();
    d.format = (physical || !has_functional) ? StringFormat::physical_detailed : StringFormat::detailed;
  } else if (is({"item_id_a", "item_id_b", "mode", "action", "is_directional", "a_is_acting", "score"})) {
    d.format = StringFormat::actions;
  } else if (c.size() >= 5 && c[0] == "node1" && c[1] == "node2" && c[2] == "node1_string_id" &&
             c[3] == "node2_string_id" && c.back() == "combined_score") {
    d.format = StringFormat::web_export;
  }
  return d;
}

// "9606.protein.links.v12.0.txt.gz" -> "12.0": the first ".v<digits>[.<digits>]." in the name.
std::string string_version_of(const std::string &path) {
  const std::string name = base_name(path);
  auto digits = [&](std::size_t i) {
    std::size_t j = i;
    while (j < name.size() && std::isdigit(static_cast<unsigned char>(name[j]))) ++j;
    return j;
  };
  for (std::size_t i = name.find(".v"); i != std::string::npos; i = name.find(".v", i + 1)) {
    std::size_t a = i + 2, b = digits(a);
    if (b == a) continue;
    std::size_t end = b;
    if (b + 1 < name.size() && name[b] == '.' && digits(b + 1) > b + 1) end = digits(b + 1);
    if (end < name.size() && name[end] == '.') return name.substr(a, end - a);
  }
  return "";
}

int order_of(StringFormat f) {
  switch (f) {
    case StringFormat::info: return 0;
    case StringFormat::aliases: return 1;
    case StringFormat::actions: return 3;
    default: return 2;
  }
}

bool parse_int(std::string_view s, int64_t &v) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool parse_double(std::string_view s, double &v) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(v);
}

class BadLine : public std::exception {};
class Cancelled : public std::exception {};  // the writer gave up; the parser stops

// ---- the parser-to-writer pipeline for link-like files ---------------------------------------
//
// A parser thread reads the file, resolves ids, drops the second listing of each undirected link
// and fills batches; the calling thread (which owns the SQLite connection) writes them. New nodes
// and new relation names travel in the batches, ahead of the rows that use them.

struct NewNode {
  int64_t id;
  std::string external_id, name;
  int64_t taxon;
};

// A protein id -> its index in the import, by open addressing with linear probing: the parser
// looks up the second protein of every line, and one array of slots keeps those look-ups in cache
// (a node per key does not). Keys are views of strings the importer keeps.
class IdIndex {
 public:
  const uint32_t *find(std::string_view key) const {
    if (slots_.empty()) return nullptr;
    const uint64_t h = hash_of(key);
    for (std::size_t i = h & mask(); slots_[i].used; i = (i + 1) & mask())
      if (slots_[i].hash == h && slots_[i].key == key) return &slots_[i].value;
    return nullptr;
  }
  // (the key is not there yet)
  void insert(std::string_view key, uint32_t value) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    place({hash_of(key), key, value, true});
    ++size_;
  }
  void erase(std::string_view key) {
    if (slots_.empty()) return;
    std::size_t i = hash_of(key) & mask();
    while (slots_[i].used && slots_[i].key != key) i = (i + 1) & mask();
    if (!slots_[i].used) return;
    slots_[i].used = false;
    --size_;
    // (the slots after it in its run go back where a look-up finds them)
    for (std::size_t j = (i + 1) & mask(); slots_[j].used; j = (j + 1) & mask()) {
      Slot moved = slots_[j];
      slots_[j].used = false;
      place(moved);
    }
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    std::string_view key;
    uint32_t value = 0;
    bool used = false;
  };
  static uint64_t hash_of(std::string_view key) { return std::hash<std::string_view>{}(key); }
  std::size_t mask() const { return slots_.size() - 1; }
  void place(const Slot &s) {
    std::size_t i = s.hash & mask();
    while (slots_[i].used) i = (i + 1) & mask();
    slots_[i] = s;
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : 2 * old.size(), Slot{});
    for (const Slot &s : old)
      if (s.used) place(s);
  }
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

struct LinkRow {
  int64_t source, target;
  float score;
  uint32_t relation;  // index into the file's relation list
  uint32_t extra;     // offset into Batch::channels, or index into the evidence list
  uint8_t directed;
  uint8_t raise_score;  // a later listing of the same link has a higher score
};

struct Batch {
  std::vector<NewNode> nodes;
  std::vector<std::string> relations;  // relation names first used in this batch
  std::vector<std::string> evidence;   // evidence texts first used in this batch
  std::vector<LinkRow> rows;
  std::vector<float> channels;
  uint64_t bytes_read = 0;
};

class BatchQueue {
 public:
  // Blocks while full; false when the consumer gave up.
  bool push(Batch &&b) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return q_.size() < kMax || cancelled_; });
    if (cancelled_) return false;
    q_.push_back(std::move(b));
    cv_.notify_all();
    return true;
  }
  // Blocks until a batch arrives; false once the producer closed the queue and it is empty.
  bool pop(Batch &b) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return !q_.empty() || closed_; });
    if (q_.empty()) return false;
    b = std::move(q_.front());
    q_.pop_front();
    cv_.notify_all();
    return true;
  }
  void close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    cv_.notify_all();
  }
  void cancel() {
    std::lock_guard<std::mutex> lock(mu_);
    cancelled_ = true;
    cv_.notify_all();
  }

 private:
  static constexpr std::size_t kMax = 4;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Batch> q_;
  bool closed_ = false, cancelled_ = false;
};

// Open-addressing set of (source, target) pairs with the best score seen, one per relation and
// direction: finds the second listing of a link in O(1).
class PairTable {
 public:
  // Room for `n` keys without growing (the parser sizes it from the file's length).
  void reserve(std::size_t n) {
    std::size_t cap = 1u << 16;
    while (cap < 2 * n) cap *= 2;
    if (cap > slots_.size()) rehash(cap);
  }
  // Asks the memory for the slot where `key` starts its search (a look-up of it follows soon).
  void prefetch(uint64_t key) const {
    if (!slots_.empty()) __builtin_prefetch(slots_.p_ + (hash(key) & mask_));
  }
  // The stored score of key, inserting `score` when the key is new (then *inserted = true).
  float &find_or_insert(uint64_t key, float score, bool *inserted) {
    if ((n_ + 1) * 2 > slots_.size()) rehash(slots_.empty() ? (1u << 16) : slots_.size() * 2);
    const uint64_t stored = key + 1;  // 0 marks an empty slot
    std::size_t i = hash(key) & mask_;
    for (;;) {
      Slot &slot = slots_[i];
      if (slot.key == stored) {
        *inserted = false;
        return slot.score;
      }
      if (slot.key == 0) {
        slot.key = stored;
        slot.score = score;
        ++n_;
        *inserted = true;
        return slot.score;
      }
      i = (i + 1) & mask_;
    }
  }

 private:
  // A key and its score in one slot: one cache line touched per look-up.
  struct Slot {
    uint64_t key;
    float score;
  };
  // The slots in memory the kernel may back with huge pages: the table is looked up at random,
  // once per line, and is hundreds of megabytes at STRING's size (ordinary pages make most
  // look-ups a TLB miss too).
  struct Slots {
    Slots() = default;
    explicit Slots(std::size_t n) : n_(n) {
      constexpr std::size_t kHuge = 2u << 20;
      const std::size_t bytes = (n * sizeof(Slot) + kHuge - 1) / kHuge * kHuge;
      p_ = static_cast<Slot *>(std::aligned_alloc(kHuge, bytes));
      if (!p_) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
      madvise(p_, bytes, MADV_HUGEPAGE);  // (advice: without it, ordinary pages)
#endif
      std::memset(static_cast<void *>(p_), 0, n * sizeof(Slot));
    }
    Slots(Slots &&o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
    Slots &operator=(Slots &&o) noexcept {
      std::swap(p_, o.p_);
      std::swap(n_, o.n_);
      return *this;
    }
    ~Slots() { std::free(p_); }
    Slot &operator[](std::size_t i) { return p_[i]; }
    std::size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    Slot *p_ = nullptr;
    std::size_t n_ = 0;
  };
  static uint64_t hash(uint64_t x) {  // splitmix64 finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }
  void rehash(std::size_t cap) {
    Slots old = std::move(slots_);
    slots_ = Slots(cap);
    mask_ = cap - 1;
    for (std::size_t j = 0; j < old.size(); ++j) {
      if (!old[j].key) continue;
      std::size_t i = hash(old[j].key - 1) & mask_;
      while (slots_[i].key) i = (i + 1) & mask_;
      slots_[i] = old[j];
    }
  }
  Slots slots_;
  std::size_t n_ = 0, mask_ = 0;
};

}  // namespace

// ---- the import session ----------------------------------------------------------------------

namespace {

class Importer {
 public:
  Importer(KnowledgeGraph::Impl &impl, const ImportOptions &opt) : impl_(impl), db_(impl.db), opt_(opt) {
    Stmt st(db_, "SELECT id, external_id, info_dataset IS NOT NULL FROM nodes");
    while (st.step()) {
      uint32_t local = intern_local(st.col_view(1), st.col_int(0));
      if (st.col_int(2)) has_info_[local] = 1;
    }
    refresh_info_taxa();
  }

  FileReport run(const ImportSource &src, StringFormat format, const std::vector<std::string> &columns);

 private:
  uint32_t intern_local(std::string_view ext, int64_t id) {
    keys_.emplace_back(ext);
    std::string_view k = keys_.back();
    auto local = static_cast<uint32_t>(ids_.size());
    map_.insert(k, local);
    ids_.push_back(id);
    has_info_.push_back(0);
    return local;
  }

  // Drops the nodes created since local index `first` from the in-memory map (their rows are
  // being rolled back).
  void forget_locals_from(std::size_t first) {
    while (ids_.size() > first) {
      map_.erase(std::string_view(keys_.back()));
      keys_.pop_back();
      ids_.pop_back();
      has_info_.pop_back();
    }
    if (touched_.size() > first) touched_.resize(first);
  }

  void refresh_info_taxa() {
    info_taxa_.clear();
    Stmt st(db_, "SELECT DISTINCT taxon FROM datasets WHERE format = 'info'");
    while (st.step()) info_taxa_.insert(st.col_int(0));
  }

  [[noreturn]] void bad(const std::string &problem) {
    std::string where = reader_->path() + ":" + std::to_string(reader_->line_number()) + ": " + problem;
    if (!opt_.skip_bad_lines) throw Error(ErrorCode::parse, where);
    ++rep_.rows_skipped;
    if (rep_.bad_line_examples.size() < opt_.max_bad_examples) rep_.bad_line_examples.push_back(where);
    throw BadLine();
  }

  // Local index of a STRING id. When its organism has no info file a new node is allotted the
  // next id and queued in pending_nodes_; the caller writes it (flush_nodes) or ships it in a
  // batch before any row that uses it.
  uint32_t node_for(std::string_view ext, std::string_view name_hint) {
    const uint32_t *known = map_.find(ext);
    int64_t taxon = detail::taxon_of(ext);
    if (taxon == 0) bad("'" + std::string(ext.substr(0, 80)) + "' is not a STRING protein id (TAXON.IDENTIFIER)");
    note_taxon(taxon);
    const bool has_info_file = info_taxa_.count(taxon) != 0;
    if (known) {
      if (has_info_file && !has_info_[*known]) unknown_protein(ext, taxon);
      touch(*known);
      return *known;
    }
    if (has_info_file) unknown_protein(ext, taxon);
    if (!detail::valid_utf8(name_hint)) bad("invalid UTF-8");
    std::string_view name = name_hint.empty() ? ext.substr(ext.find('.') + 1) : name_hint;
    const int64_t id = next_node_id_++;
    pending_nodes_.push_back(NewNode{id, std::string(ext), std::string(name), taxon});
    uint32_t local = intern_local(ext, id);
    ++rep_.nodes_created;
    touch(local);
    return local;
  }

  [[noreturn]] void unknown_protein(std::string_view ext, int64_t taxon) {
    bad("unknown protein id '" + std::string(ext.substr(0, 80)) +
        "': not among the proteins of the imported info file for taxon " + std::to_string(taxon));
  }

  void flush_nodes() {
    if (pending_nodes_.empty()) return;
    write_nodes(pending_nodes_);
    pending_nodes_.clear();
  }

  void write_nodes(const std::vector<NewNode> &nodes) {
    if (!ins_node_)
      ins_node_ = std::make_unique<Stmt>(db_, "INSERT INTO nodes(id, external_id, name, label, taxon) VALUES(?,?,?,'Protein',?)");
    for (auto &n : nodes) ins_node_->bind(1, n.id).bind(2, n.external_id).bind(3, n.name).bind(4, n.taxon).run();
  }

  void touch(uint32_t local) {
    if (touched_.size() < ids_.size()) touched_.resize(ids_.size(), 0);
    touched_[local] = 1;
  }

  void note_taxon(int64_t taxon) {
    if (rep_.taxon == -1) rep_.taxon = taxon;
    else if (rep_.taxon != taxon) rep_.taxon = 0;
  }

  void progress(const char *stage, uint64_t bytes) {
    if (opt_.progress) opt_.progress(ImportProgress{reader_->path(), bytes, reader_->file_size(), stage});
  }

  void import_info();
  void import_aliases();
  void import_edges(StringFormat f, const std::vector<std::string> &columns);
  void parse_edges(StringFormat f, const std::vector<std::string> &columns, BatchQueue &queue);
  void write_batches(BatchQueue &queue, const std::vector<std::string> &channel_names);
  void claim_nodes();

  KnowledgeGraph::Impl &impl_;
  detail::Db &db_;
  const ImportOptions &opt_;
  std::deque<std::string> keys_;
  IdIndex map_;
  std::vector<int64_t> ids_;
  std::vector<char> has_info_;
  std::vector<char> touched_;
  std::unordered_set<int64_t> info_taxa_;
  std::vector<NewNode> pending_nodes_;
  int64_t next_node_id_ = 1;
  std::unique_ptr<Stmt> ins_node_;
  std::unique_ptr<LineReader> reader_;
  FileReport rep_;
  int64_t dataset_ = 0;
};

FileReport Importer::run(const ImportSource &src, StringFormat format, const std::vector<std::string> &columns) {
  auto t0 = Clock::now();
  rep_ = FileReport{};
  rep_.path = src.path;
  rep_.format = format;
  rep_.kind = to_string(format);
  rep_.taxon = -1;
  rep_.string_version = string_version_of(src.path);
  touched_.assign(ids_.size(), 0);
  const std::size_t first_new_local = ids_.size();
  {
    Stmt mx(db_, "SELECT coalesce(max(id), 0) + 1 FROM nodes");
    mx.step();
    next_node_id_ = mx.col_int(0);
  }
  reader_ = std::make_unique<LineReader>(src.path);
  reader_->set_max_lines(opt_.max_rows);
  std::string_view header;
  reader_->next(header);  // checked by the caller

  nlohmann::json options = {{"min_score", opt_.min_score}, {"skip_bad_lines", opt_.skip_bad_lines},
                            {"format", to_string(format)}};
  Savepoint sp(db_, "grappi_file");
  {
    Stmt ins(db_, "INSERT INTO datasets(name, path, file_size, sha256, format, string_version, options, imported_at) "
                  "VALUES(?,?,?,'',?,?,?,?)");
    ins.bind(1, base_name(src.path)).bind(2, src.path).bind(3, static_cast<int64_t>(reader_->file_size()))
        .bind(4, to_string(format)).bind(5, rep_.string_version).bind(6, dump_json(options))
        .bind(7, detail::utc_now()).run();
    dataset_ = db_.last_insert_rowid();
  }
  rep_.dataset_id = dataset_;
  try {
    switch (format) {
      case StringFormat::info: import_info(); break;
      case StringFormat::aliases: import_aliases(); break;
      default: import_edges(format, columns); break;
    }
  } catch (...) {
    pending_nodes_.clear();
    throw;
  }
  if (rep_.lines == 0)
    throw Error(ErrorCode::parse, src.path + ": no data lines after the header");
  const std::string sha = reader_->sha256_hex();
  if (rep_.taxon < 0) rep_.taxon = 0;
  {
    // The same bytes imported before as the same format with the same threshold: nothing to add.
    Stmt same(db_, "SELECT id FROM datasets WHERE sha256 = ? AND format = ? AND id <> ? AND "
                   "json_extract(options, '$.min_score') = ?");
    same.bind(1, sha).bind(2, to_string(format)).bind(3, dataset_).bind(4, opt_.min_score);
    if (same.step()) {
      FileReport r;
      r.path = src.path;
      r.format = format;
      r.kind = to_string(format);
      r.string_version = rep_.string_version;
      r.taxon = rep_.taxon;
      r.dataset_id = same.col_int(0);
      r.already_imported = true;
      r.lines = rep_.lines;
      r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      forget_locals_from(first_new_local);
      return r;  // sp rolls this file back
    }
  }
  claim_nodes();
  rep_.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  nlohmann::json counts = {{"lines", rep_.lines},
                           {"rows_below_min_score", rep_.rows_below_min_score},
                           {"rows_skipped", rep_.rows_skipped},
                           {"nodes_created", rep_.nodes_created},
                           {"nodes_updated", rep_.nodes_updated},
                           {"edges_created", rep_.edges_created},
                           {"edges_existing", rep_.edges_existing},
                           {"aliases_created", rep_.aliases_created},
                           {"score_conflicts", rep_.score_conflicts}};
  Stmt upd(db_, "UPDATE datasets SET sha256 = ?, taxon = ?, counts = ?, seconds = ? WHERE id = ?");
  upd.bind(1, sha).bind(2, rep_.taxon).bind(3, dump_json(counts)).bind(4, rep_.seconds).bind(5, dataset_).run();
  sp.commit();
  if (format == StringFormat::info) refresh_info_taxa();
  progress("done", reader_->file_size());
  return rep_;
}

void Importer::claim_nodes() {
  Stmt st(db_, "INSERT OR IGNORE INTO node_claims(node_id, dataset_id) VALUES(?, ?)");
  for (std::size_t i = 0; i < touched_.size(); ++i)
    if (touched_[i]) st.bind(1, ids_[i]).bind(2, dataset_).run();
}

void Importer::import_info() {
  Stmt upd(db_, "UPDATE nodes SET name = ?, size = ?, annotation = ?, info_dataset = ? WHERE id = ?");
  Stmt ins(db_, "INSERT INTO nodes(external_id, name, label, annotation, size, taxon, info_dataset) "
                "VALUES(?,?,'Protein',?,?,?,?)");
  std::string_view line, f[5];
  std::vector<char> listed;  // by local index: the protein was on an earlier line of this file
  while (reader_->next(line)) {
    if (line.empty()) continue;
    ++rep_.lines;
    try {
      if (!detail::valid_utf8(line)) bad("invalid UTF-8");
      std::size_t n = split(line, '\t', f, 5);
      if (n != 4) bad("expected 4 tab-separated columns (id, preferred_name, protein_size, annotation), found " + std::to_string(n));
      int64_t taxon = detail::taxon_of(f[0]);
      if (taxon == 0) bad("'" + std::string(f[0].substr(0, 80)) + "' is not a STRING protein id (TAXON.IDENTIFIER)");
      if (f[1].empty()) bad("empty preferred_name");
      int64_t size = 0;
      if (!parse_int(f[2], size) || size < 0) bad("protein_size '" + std::string(f[2].substr(0, 40)) + "' is not a non-negative integer");
      std::string_view ann = f[3];
      while (!ann.empty() && ann.back() == ' ') ann.remove_suffix(1);
      note_taxon(taxon);
      const uint32_t *known = map_.find(f[0]);
      if (known && *known < listed.size() && listed[*known])
        bad("protein " + std::string(f[0].substr(0, 80)) + " is listed again (an info file lists each protein once)");
      if (known) {
        const uint32_t local = *known;
        if (listed.size() <= local) listed.resize(ids_.size(), 0);
        listed[local] = 1;
        upd.bind(1, f[1]).bind(2, size).bind(3, ann).bind(4, dataset_).bind(5, ids_[local]).run();
        ++rep_.nodes_updated;
        has_info_[local] = 1;
        touch(local);
      } else {
        ins.bind(1, f[0]).bind(2, f[1]).bind(3, ann).bind(4, size).bind(5, taxon).bind(6, dataset_).run();
        uint32_t local = intern_local(f[0], db_.last_insert_rowid());
        if (listed.size() <= local) listed.resize(ids_.size(), 0);
        listed[local] = 1;
        has_info_[local] = 1;
        ++rep_.nodes_created;
        touch(local);
      }
    } catch (const BadLine &) {
    }
    if ((rep_.lines & 0xFFFF) == 0) progress("reading", reader_->bytes_read());
  }
}

void Importer::import_aliases() {
  Stmt ins(db_, "INSERT OR IGNORE INTO aliases(node_id, alias, source, dataset_id) VALUES(?,?,?,?)");
  std::string_view line, f[4];
  while (reader_->next(line)) {
    if (line.empty()) continue;
    ++rep_.lines;
    try {
      if (!detail::valid_utf8(line)) bad("invalid UTF-8");
      std::size_t n = split(line, '\t', f, 4);
      if (n != 3) bad("expected 3 tab-separated columns (id, alias, source), found " + std::to_string(n));
      if (f[1].empty()) bad("empty alias");
      uint32_t local = node_for(f[0], {});
      flush_nodes();
      ins.bind(1, ids_[local]).bind(2, f[1]).bind(3, f[2]).bind(4, dataset_).run();
      rep_.aliases_created += static_cast<uint64_t>(db_.changes());
    } catch (const BadLine &) {
    }
    if ((rep_.lines & 0xFFFF) == 0) progress("reading", reader_->bytes_read());
  }
}

void Importer::import_edges(StringFormat format, const std::vector<std::string> &columns) {
  std::vector<std::string> channel_names;
  if (format != StringFormat::actions) {
    const std::size_t first_ch = format == StringFormat::web_export ? 4 : 2;
    for (std::size_t i = first_ch; i + 1 < columns.size(); ++i) channel_names.push_back(canonical_channel(columns[i]));
    if (channel_names.size() > 32) throw Error(ErrorCode::parse, reader_->path() + ":1: more than 32 channel columns");
  }
  BatchQueue queue;
  std::exception_ptr parse_error;
  std::thread parser([&] {
    try {
      parse_edges(format, columns, queue);
    } catch (...) {
      parse_error = std::current_exception();
    }
    queue.close();
  });
  try {
    write_batches(queue, channel_names);
  } catch (...) {
    queue.cancel();
    parser.join();
    throw;
  }
  parser.join();
  if (parse_error) std::rethrow_exception(parse_error);
}

// Runs on the parser thread: touches the reader and the in-memory id map, never the database.
void Importer::parse_edges(StringFormat format, const std::vector<std::string> &columns, BatchQueue &queue) {
  const bool exported = format == StringFormat::web_export;
  const bool actions = format == StringFormat::actions;
  const char sep = (exported || actions) ? '\t' : ' ';
  const std::size_t ncols = columns.size();
  const std::size_t first_ch = exported ? 4 : 2;
  const std::size_t nch = actions ? 0 : ncols - 1 - first_ch;
  std::vector<std::string_view> f(ncols + 1);
  std::unordered_map<std::string, uint32_t> rel_of, ev_of;
  std::vector<PairTable> tables;  // per (relation, directed)
  auto intern = [](std::unordered_map<std::string, uint32_t> &m, std::vector<std::string> &fresh, const std::string &s) {
    auto it = m.find(s);
    if (it != m.end()) return it->second;
    auto k = static_cast<uint32_t>(m.size());
    m.emplace(s, k);
    fresh.push_back(s);
    return k;
  };
  Batch batch;
  const uint32_t link_rel = actions ? 0
      : intern(rel_of, batch.relations,
               (format == StringFormat::physical || format == StringFormat::physical_detailed) ? "string.physical" : "string.combined");
  auto ship = [&] {
    batch.nodes = std::move(pending_nodes_);
    pending_nodes_.clear();
    batch.bytes_read = reader_->bytes_read();
    if (!queue.push(std::move(batch))) throw Cancelled();
    batch = Batch{};
  };
  std::string_view line;
  std::string last_a;
  uint32_t last_a_local = 0;
  bool have_last = false;
  float ch[32];
  // Links parsed and waiting for their pair-table look-up, in file order (the table is far larger
  // than the caches: each look-up is prefetched kAhead lines before it is made).
  struct Probe {
    std::size_t table;
    uint64_t key;
    float score;
    uint32_t a, b, rel, extra;
    uint8_t directed;
  };
  constexpr std::size_t kAhead = 8;
  std::array<Probe, kAhead> ring{};
  std::vector<float> ring_ch(kAhead * nch);
  std::size_t head = 0, waiting = 0;
  const auto settle = [&] {
    const Probe &p = ring[head];
    const float *pch = ring_ch.data() + head * nch;
    head = (head + 1) % kAhead;
    --waiting;
    bool inserted = false;
    float &best = tables[p.table].find_or_insert(p.key, p.score, &inserted);
    bool raise = false;
    if (!inserted) {
      if (p.score == best) return;  // the other listing of the same link
      ++rep_.score_conflicts;
      if (p.score < best) return;
      best = p.score;
      raise = true;
    }
    uint32_t extra = p.extra;
    if (nch) {
      extra = static_cast<uint32_t>(batch.channels.size());
      batch.channels.insert(batch.channels.end(), pch, pch + nch);
    }
    batch.rows.push_back(LinkRow{ids_[p.a], ids_[p.b], p.score, p.rel, extra, p.directed, static_cast<uint8_t>(raise)});
    if (batch.rows.size() >= 32768) ship();
  };
  while (reader_->next(line)) {
    if (line.empty()) continue;
    ++rep_.lines;
    try {
      if (!detail::valid_utf8(line)) bad("invalid UTF-8");
      std::size_t n = split(line, sep, f.data(), f.size());
      if (n != ncols) {
        if (actions) bad("expected 7 tab-separated columns (item_id_a, item_id_b, mode, action, is_directional, a_is_acting, score), found " + std::to_string(n));
        bad("expected " + std::to_string(ncols) + (exported ? " tab" : " space") + "-separated columns, found " + std::to_string(n));
      }
      double score;
      int64_t iscore = 0;
      uint32_t rel = link_rel, extra = 0;
      bool directed = false, swap_ends = false;
      if (exported) {
        if (!parse_double(f[ncols - 1], score) || score < 0 || score > 1)
          bad("combined_score '" + std::string(f[ncols - 1].substr(0, 40)) + "' is not a number in [0,1]");
        iscore = static_cast<int64_t>(std::lround(score * 1000.0));
      } else {
        if (!parse_int(f[ncols - 1], iscore) || iscore < 0 || iscore > 1000)
          bad(columns[ncols - 1] + " '" + std::string(f[ncols - 1].substr(0, 40)) + "' is not an integer in [0,1000]");
        score = static_cast<double>(iscore) / 1000.0;
      }
      for (std::size_t k = 0; k < nch; ++k) {
        std::string_view v = f[first_ch + k];
        if (exported) {
          double d;
          if (!parse_double(v, d) || d < 0 || d > 1) bad(columns[first_ch + k] + " '" + std::string(v.substr(0, 40)) + "' is not a number in [0,1]");
          ch[k] = static_cast<float>(d);
        } else {
          int64_t c;
          if (!parse_int(v, c) || c < 0 || c > 1000) bad(columns[first_ch + k] + " '" + std::string(v.substr(0, 40)) + "' is not an integer in [0,1000]");
          ch[k] = static_cast<float>(c) / 1000.0f;
        }
      }
      if (actions) {
        std::string_view mode = f[2], action = f[3];
        if (mode.empty() || mode.size() > 40 ||
            !std::all_of(mode.begin(), mode.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; }))
          bad("mode '" + std::string(mode.substr(0, 40)) + "' is not a STRING action mode");
        auto tf = [&](std::string_view v, const char *col) {
          if (v == "t" || v == "1" || v == "true") return true;
          if (v == "f" || v == "0" || v == "false" || v.empty()) return false;
          bad(std::string(col) + " '" + std::string(v.substr(0, 20)) + "' is not t or f");
        };
        directed = tf(f[4], "is_directional");
        swap_ends = directed && !tf(f[5], "a_is_acting");  // the row lists the acted-upon protein first
        rel = intern(rel_of, batch.relations, "string.action." + std::string(mode));
        extra = intern(ev_of, batch.evidence, (!action.empty() && action != mode) ? "action: " + std::string(action) : "");
      }
      std::string_view ida = exported ? f[2] : f[0], idb = exported ? f[3] : f[1];
      uint32_t a;
      if (have_last && ida == last_a) {
        a = last_a_local;
      } else {
        a = node_for(ida, exported ? f[0] : std::string_view());
        last_a.assign(ida);
        last_a_local = a;
        have_last = true;
      }
      uint32_t b = node_for(idb, exported ? f[1] : std::string_view());
      if (iscore < opt_.min_score) {
        ++rep_.rows_below_min_score;
        continue;
      }
      if (swap_ends || (!directed && ids_[a] > ids_[b])) std::swap(a, b);
      const std::size_t t = static_cast<std::size_t>(rel) * 2 + (directed ? 1 : 0);
      if (tables.size() <= t) {
        tables.resize(t + 1);
        // (a STRING links line is about 46 bytes and a link is listed twice; at most 8M links
        // reserved, the human network's size, and none when --min-score leaves lines out: the
        // table grows as it fills past that)
        if (opt_.min_score <= 0)
          tables[t].reserve(std::min<std::size_t>(static_cast<std::size_t>(reader_->file_size() / 92), std::size_t{1} << 23));
      }
      // The link waits a few lines in the ring while its slot of the pair table is fetched.
      if (waiting == kAhead) settle();
      Probe &pr = ring[(head + waiting) % kAhead];
      pr = Probe{t, (static_cast<uint64_t>(a) << 32) | b, static_cast<float>(score), a, b, rel, extra,
                 static_cast<uint8_t>(directed)};
      if (nch) std::copy(ch, ch + nch, ring_ch.begin() + static_cast<std::ptrdiff_t>(((head + waiting) % kAhead) * nch));
      tables[t].prefetch(pr.key);
      ++waiting;
    } catch (const BadLine &) {
    }
  }
  while (waiting) settle();
  ship();
}

// Runs on the calling thread, which owns the connection. New links go in chunks of kChunk rows
// per INSERT (one statement's overhead for many rows); a chunk in which some link was already
// stored is looked at row by row for the claims and channels it adds.
void Importer::write_batches(BatchQueue &queue, const std::vector<std::string> &channel_names) {
  constexpr std::size_t kChunk = 64;
  const char *kColumns = "INSERT OR IGNORE INTO edges(source, target, relation, directed, score, channels, evidence, dataset_id) VALUES";
  Stmt ins_many(db_, detail::multi_row_insert(kColumns, "(?,?,?,?,?,?,?,?)", kChunk).c_str());
  Stmt ins(db_, (std::string(kColumns) + "(?,?,?,?,?,?,?,?)").c_str());
  Stmt sel(db_, "SELECT id, dataset_id, channels IS NULL FROM edges WHERE source=? AND target=? AND relation=? AND directed=?");
  Stmt claim(db_, "INSERT OR IGNORE INTO edge_claims(edge_id, dataset_id) VALUES(?, ?)");
  Stmt fill(db_, "UPDATE edges SET channels = ? WHERE id = ?");
  Stmt raise(db_, "UPDATE edges SET score = ?, channels = coalesce(?, channels) WHERE source=? AND target=? AND relation=? "
                  "AND directed=? AND dataset_id=? AND score < ?");
  const std::size_t nch = channel_names.size();
  std::vector<int64_t> rel_ids;
  std::vector<std::string> evidence;
  uint64_t created = 0, existing = 0;
  // A row to write, with its channels as JSON (empty: none) and its evidence (null: none).
  struct Pending {
    const LinkRow *row;
    std::string channels;
    const std::string *evidence;
  };
  std::vector<Pending> pending;
  pending.reserve(kChunk);
  const auto bind_row = [&](Stmt &st, int at, const Pending &p) {
    const LinkRow &e = *p.row;
    st.bind(at + 1, e.source).bind(at + 2, e.target).bind(at + 3, rel_ids[e.relation])
        .bind(at + 4, static_cast<int64_t>(e.directed)).bind(at + 5, detail::decimal(e.score));
    if (!p.channels.empty()) st.bind(at + 6, p.channels); else st.bind_null(at + 6);
    if (p.evidence) st.bind(at + 7, *p.evidence); else st.bind_null(at + 7);
    st.bind(at + 8, dataset_);
  };
  // A link another dataset stored already: claimed by this one too, its channels filled in.
  const auto known = [&](const Pending &p) {
    const LinkRow &e = *p.row;
    sel.bind(1, e.source).bind(2, e.target).bind(3, rel_ids[e.relation]).bind(4, static_cast<int64_t>(e.directed));
    if (!sel.step()) {
      sel.reset();
      return;
    }
    const int64_t eid = sel.col_int(0), owner = sel.col_int(1);
    const bool no_channels = sel.col_int(2) != 0;
    sel.reset();
    if (owner == dataset_) return;  // (written by this file just now)
    ++existing;
    claim.bind(1, eid).bind(2, dataset_).run();
    if (!p.channels.empty() && no_channels) fill.bind(1, p.channels).bind(2, eid).run();
  };
  const auto flush = [&] {
    if (pending.size() == kChunk) {
      for (std::size_t k = 0; k < kChunk; ++k) bind_row(ins_many, static_cast<int>(k * 8), pending[k]);
      ins_many.run();
      const auto changed = static_cast<std::size_t>(db_.changes());
      created += changed;
      if (changed != kChunk)
        for (const Pending &p : pending) known(p);
    } else {
      for (const Pending &p : pending) {
        bind_row(ins, 0, p);
        ins.run();
        if (db_.changes() == 1) ++created;
        else known(p);
      }
    }
    pending.clear();
  };
  Batch b;
  while (queue.pop(b)) {
    write_nodes(b.nodes);
    for (auto &r : b.relations) rel_ids.push_back(impl_.intern_relation(r));
    for (auto &e : b.evidence) evidence.push_back(e.empty() ? std::string() : dump_json(nlohmann::json{{"text", e}}));
    for (const LinkRow &e : b.rows) {
      std::string ch;
      if (nch) {
        ch = "{";
        char num[32];
        for (std::size_t k = 0; k < nch; ++k) {
          if (k) ch += ',';
          ch += '"';
          ch += channel_names[k];
          ch += "\":";
          auto r = std::to_chars(num, num + sizeof num, b.channels[e.extra + k]);
          ch.append(num, r.ptr);
        }
        ch += '}';
      }
      const std::string *ev = (!nch && !evidence.empty() && !evidence[e.extra].empty()) ? &evidence[e.extra] : nullptr;
      if (e.raise_score) {
        flush();  // (the link it raises is written first)
        raise.bind(1, detail::decimal(e.score));
        if (!ch.empty()) raise.bind(2, ch); else raise.bind_null(2);
        raise.bind(3, e.source).bind(4, e.target).bind(5, rel_ids[e.relation]).bind(6, static_cast<int64_t>(e.directed))
            .bind(7, dataset_).bind(8, detail::decimal(e.score)).run();
        continue;
      }
      pending.push_back({&e, std::move(ch), ev});
      if (pending.size() == kChunk) flush();
    }
    flush();  // (the batch's rows are not kept past it)
    progress("writing", b.bytes_read);
  }
  rep_.edges_created = created;
  rep_.edges_existing = existing;
}

// Files of links this large (together) are a bulk load.
constexpr uint64_t kBulkLoadBytes = 64u << 20;

bool has_edges(detail::Db &db) {
  Stmt st(db, "SELECT EXISTS (SELECT 1 FROM edges)");
  return st.step() && st.col_int(0) != 0;
}

// The database in rollback-journal mode while it lives, in WAL mode again after (a change SQLite
// refuses, "database is locked", while another connection has the database open: then nothing
// changes and the import goes through the WAL).
class RollbackJournal {
 public:
  explicit RollbackJournal(detail::Db &db) : db_(db) {
    try {
      Stmt st(db_, "PRAGMA journal_mode=DELETE");
      switched_ = st.step() && st.col_text(0) == "delete";
    } catch (const Error &) {  // ("database is locked": another connection has it open)
      switched_ = false;
    }
  }
  ~RollbackJournal() {
    if (!switched_) return;
    try {
      Stmt st(db_, "PRAGMA journal_mode=WAL");
      st.step();
    } catch (...) {  // (the next read-write open sets WAL again)
    }
  }
  RollbackJournal(const RollbackJournal &) = delete;
  RollbackJournal &operator=(const RollbackJournal &) = delete;

 private:
  detail::Db &db_;
  bool switched_ = false;
};

}  // namespace

ImportReport KnowledgeGraph::import_string(const std::vector<ImportSource> &sources, const ImportOptions &options) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->require_writable("import");
  detail::check_import_options(options);
  return detail::import_string_files(*impl_, sources, options);
}

ImportReport detail::import_string_files(KnowledgeGraph::Impl &impl, const std::vector<ImportSource> &sources,
                                         const ImportOptions &options) {
  if (sources.empty()) throw Error(ErrorCode::invalid_argument, "import: no files given");
  for (const auto &src : sources) require_regular_file(src.path);
  auto t0 = Clock::now();
  // Detect every file's format first, so that nothing is written when one is unreadable.
  struct Job {
    ImportSource src;
    StringFormat format;
    std::vector<std::string> columns;
    uint64_t bytes = 0;
  };
  std::vector<Job> jobs;
  for (const auto &s : sources) {
    LineReader r(s.path);
    std::string_view header;
    if (!r.next(header)) throw Error(ErrorCode::parse, s.path + ": empty file (no header line)");
    if (!detail::valid_utf8(header)) throw Error(ErrorCode::parse, s.path + ":1: header is not valid UTF-8 text");
    Detected d = detect_format(s.path, header);
    if (d.format == StringFormat::detect)
      throw Error(ErrorCode::parse, s.path + ":1: unrecognised header '" + std::string(header.substr(0, 120)) +
                                        "' (not a STRING info, aliases, links, detailed, physical, actions or export file, nor an OBO ontology)");
    StringFormat f = d.format;
    if (s.format != StringFormat::detect) {
      // A links or physical file given with channel columns is its detailed variant.
      StringFormat want = s.format;
      if (family(d.format) == family(StringFormat::detailed)) {
        if (want == StringFormat::physical) want = StringFormat::physical_detailed;
        if (want == StringFormat::links) want = StringFormat::detailed;
      }
      if (family(want) != family(d.format))
        throw Error(ErrorCode::parse, s.path + ":1: given as " + to_string(s.format) + " but the header is that of a " +
                                          to_string(d.format) + " file");
      f = want;
    }
    jobs.push_back(Job{s, f, d.columns, r.file_size()});
  }
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job &a, const Job &b) { return order_of(a.format) < order_of(b.format); });
  ImportReport report;
  // The first network into a database without edges is written once, into the file: a rollback
  // journal for this transaction (pages past the file's end need no journal) rather than the WAL,
  // whose every page a checkpoint would copy again. Only when no other connection has the
  // database open (SQLite refuses the change then) and no transaction is open around this one.
  uint64_t link_bytes = 0;
  for (const Job &j : jobs)
    if (family(j.format) == 1 || family(j.format) == 2) link_bytes += j.bytes;
  std::optional<RollbackJournal> journal;
  if (link_bytes >= kBulkLoadBytes && sqlite3_get_autocommit(impl.db.handle()) && !has_edges(impl.db)) journal.emplace(impl.db);
  Savepoint tx(impl.db, "grappi_import");
  Importer imp(impl, options);
  for (const auto &j : jobs) report.files.push_back(imp.run(j.src, j.format, j.columns));
  if (std::any_of(report.files.begin(), report.files.end(), [](const FileReport &f) { return !f.already_imported; }))
    impl.bump_generation();
  tx.commit();
  report.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return report;
}

}  // namespace grappi
