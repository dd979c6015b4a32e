#include <cmath>
#include <algorithm>
#include <atomic>
#include <functional>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <ostream>
#include <unordered_map>

#include "common/visibility.hpp"
#include "common/checksum.hpp"
#include "common/mapped_file.hpp"
#include "common/parallel.hpp"
#include "common/section_file.hpp"
#include "common/text_reader.hpp"
#include "store/relation_filter.hpp"
#include "store/graph_impl.hpp"
#include "store/score.hpp"
#include "grappi/error.hpp"
#include "grappi/snapshot.hpp"

namespace grappi {

struct GRAPPI_HIDDEN GraphSnapshot::Data {
  uint64_t generation = 0;
  std::size_t edges = 0;
  uint64_t fingerprint = 0;
  std::size_t n = 0, m = 0;             // nodes, adjacency entries
  std::vector<uint32_t> index_by_id;    // dense id -> index+1 (0 = none), when ids are compact
  std::unordered_map<int64_t, uint32_t> index_sparse;  // otherwise
  std::vector<std::string> names, external_ids;
  std::vector<std::string> labels;      // node label names
  std::vector<std::string> relations;   // relation index -> name
  // The arrays: in the mapped cache file when the snapshot was read from it, else in `own`.
  struct Arrays {
    std::vector<int64_t> ids;           // index -> node id
    std::vector<uint16_t> label;        // index into labels
    std::vector<uint64_t> offsets;      // n + 1
    std::vector<uint32_t> neighbor;
    std::vector<float> score;
    std::vector<uint32_t> edge;
    std::vector<uint16_t> relation;
    std::vector<uint8_t> direction;
  } own;
  std::shared_ptr<const detail::MappedFile> file;
  const int64_t *ids = nullptr;
  const uint16_t *label = nullptr;
  const uint64_t *offsets = nullptr;
  const uint32_t *neighbor = nullptr;
  const float *score = nullptr;
  const uint32_t *edge = nullptr;
  const uint16_t *relation = nullptr;
  const uint8_t *direction = nullptr;

  void point_at_own() {
    n = own.ids.size();
    m = own.neighbor.size();
    ids = own.ids.data();
    label = own.label.data();
    offsets = own.offsets.data();
    neighbor = own.neighbor.data();
    score = own.score.data();
    edge = own.edge.data();
    relation = own.relation.data();
    direction = own.direction.data();
  }
};

GraphSnapshot::GraphSnapshot(Data data) : data_(new Data(std::move(data))) {
  if (!data_->file) data_->point_at_own();
}
GraphSnapshot::~GraphSnapshot() { delete data_; }

namespace {
[[noreturn]] void index_out_of_range(uint32_t index) {
  throw Error(ErrorCode::invalid_argument, "node index " + std::to_string(index) + " out of range");
}
}  // namespace

std::size_t GraphSnapshot::node_count() const { return d().n; }
std::size_t GraphSnapshot::edge_count() const { return d().edges; }
uint64_t GraphSnapshot::generation() const { return d().generation; }
uint64_t GraphSnapshot::fingerprint() const { return d().fingerprint; }
int64_t GraphSnapshot::node_id(uint32_t index) const {
  if (index >= d().n) index_out_of_range(index);
  return d().ids[index];
}
const std::string &GraphSnapshot::name(uint32_t index) const { return d().names.at(index); }
const std::string &GraphSnapshot::external_id(uint32_t index) const {
  return d().external_ids.at(index);
}

std::optional<uint32_t> GraphSnapshot::index_of(int64_t id) const {
  const Data &x = d();
  if (!x.index_by_id.empty()) {
    if (id < 0 || static_cast<uint64_t>(id) >= x.index_by_id.size()) return std::nullopt;
    uint32_t v = x.index_by_id[static_cast<std::size_t>(id)];
    if (v == 0) return std::nullopt;
    return v - 1;
  }
  auto it = x.index_sparse.find(id);
  if (it == x.index_sparse.end()) return std::nullopt;
  return it->second;
}

const std::string &GraphSnapshot::label(uint32_t index) const {
  if (index >= d().n) index_out_of_range(index);
  return d().labels.at(d().label[index]);
}

std::size_t GraphSnapshot::relation_count() const { return d().relations.size(); }
const std::string &GraphSnapshot::relation_name(int32_t r) const {
  if (r < 0 || static_cast<std::size_t>(r) >= d().relations.size())
    throw Error(ErrorCode::invalid_argument, "relation index " + std::to_string(r) + " out of range");
  return d().relations[static_cast<std::size_t>(r)];
}
int32_t GraphSnapshot::relation_index(std::string_view name) const {
  const auto &r = d().relations;
  for (std::size_t i = 0; i < r.size(); ++i)
    if (r[i] == name) return static_cast<int32_t>(i);
  return -1;
}

GraphSnapshot::Adjacency GraphSnapshot::adjacency(uint32_t index) const {
  const Data &x = d();
  if (index >= x.n) index_out_of_range(index);
  std::size_t b = x.offsets[index], e = x.offsets[index + 1];
  return Adjacency{x.neighbor + b, x.score + b, x.edge + b, x.relation + b, x.direction + b, e - b};
}

namespace {

uint32_t require_index(const GraphSnapshot &g, int64_t id) {
  auto i = g.index_of(id);
  if (!i) throw Error(ErrorCode::not_found, "no node with id " + std::to_string(id) + " in the graph");
  return *i;
}
}  // namespace

std::size_t GraphSnapshot::degree(int64_t id) const { return adjacency(require_index(*this, id)).size; }

std::vector<Neighbor> GraphSnapshot::neighbors(int64_t id, const NeighborFilter &f) const {
  Adjacency a = adjacency(require_index(*this, id));
  detail::check_min_score(f.min_score, "neighbors");
  const std::vector<char> keep = detail::relation_mask(*this, f.relations, "neighbors");
  const float min_score = static_cast<float>(f.min_score);
  std::vector<Neighbor> out;
  for (std::size_t i = 0; i < a.size; ++i) {
    if (a.score[i] < min_score) continue;
    if (!keep.empty() && !keep[a.relation[i]]) continue;
    auto dir = static_cast<Direction>(a.direction[i]);
    if ((dir == Direction::incoming && !f.incoming) || (dir == Direction::outgoing && !f.outgoing))
      continue;
    out.push_back(Neighbor{d().ids[a.neighbor[i]], a.edge[i], detail::decimal(a.score[i]), a.relation[i], dir});
  }
  return out;
}

std::vector<Neighbor> GraphSnapshot::edges_between(int64_t a_id, int64_t b_id) const {
  Adjacency a = adjacency(require_index(*this, a_id));
  uint32_t b = require_index(*this, b_id);
  const uint32_t *lo = std::lower_bound(a.neighbor, a.neighbor + a.size, b);
  std::vector<Neighbor> out;
  for (const uint32_t *p = lo; p != a.neighbor + a.size && *p == b; ++p) {
    std::size_t i = static_cast<std::size_t>(p - a.neighbor);
    out.push_back(Neighbor{b_id, a.edge[i], detail::decimal(a.score[i]), a.relation[i],
                           static_cast<Direction>(a.direction[i])});
  }
  return out;
}

std::size_t GraphSnapshot::memory_bytes() const {
  const Data &x = d();
  const Data::Arrays &a = x.own;  // empty when the arrays are in the mapped file
  std::size_t n = a.ids.capacity() * 8 + x.index_by_id.capacity() * 4 + x.index_sparse.size() * 32 +
                  a.label.capacity() * 2 + a.offsets.capacity() * 8 + a.neighbor.capacity() * 4 +
                  a.score.capacity() * 4 + a.edge.capacity() * 4 + a.relation.capacity() * 2 +
                  a.direction.capacity();
  for (auto &s : x.names) n += sizeof(std::string) + (s.size() > 15 ? s.capacity() : 0);
  for (auto &s : x.external_ids) n += sizeof(std::string) + (s.size() > 15 ? s.capacity() : 0);
  return n;
}

namespace detail {

std::vector<char> network_mask(const GraphSnapshot &g) {
  std::vector<char> keep(g.relation_count(), 0);
  bool network = false, annotation = false;
  for (std::size_t r = 0; r < keep.size(); ++r) {
    keep[r] = !annotation_relation(g.relation_name(static_cast<int32_t>(r)));
    (keep[r] ? network : annotation) = true;
  }
  if (!network || !annotation) keep.clear();
  return keep;
}

std::vector<char> relation_mask(const GraphSnapshot &g, const std::vector<std::string> &relations, const char *what) {
  std::vector<char> keep;
  if (relations.empty()) return keep;
  keep.assign(g.relation_count(), 0);
  for (const auto &r : relations) {
    const int32_t k = g.relation_index(r);
    if (k >= 0) {
      keep[static_cast<std::size_t>(k)] = 1;
      continue;
    }
    std::vector<std::string> names;
    for (std::size_t i = 0; i < g.relation_count(); ++i) names.push_back(g.relation_name(static_cast<int32_t>(i)));
    std::sort(names.begin(), names.end());
    std::string known;
    for (std::size_t i = 0; i < names.size() && i < 30; ++i) known += (i ? ", " : "") + names[i];
    if (g.relation_count() > 30) known += ", ... (" + std::to_string(g.relation_count()) + " in all)";
    throw Error(ErrorCode::invalid_argument, std::string(what) + ": unknown relation '" + r + "' (" +
                                                 (known.empty() ? std::string("the graph has no edges") : "the graph has " + known) +
                                                 ")");
  }
  return keep;
}

void check_min_score(double min_score, const char *what) {
  if (!(min_score >= 0 && min_score <= 1))
    throw Error(ErrorCode::invalid_argument, std::string(what) + ": minimum score " + std::to_string(min_score) +
                                                 " is outside 0-1");
}

namespace {

// ---- the snapshot cache file ---------------------------------------------------------------
// "<db>.csr" holds the last snapshot built, keyed by the database instance, its generation and
// its largest node and edge ids; a file whose key differs is ignored and rewritten. Readers map
// it and use the arrays in place (no copy, no parse), after checking all of it: every section's
// checksum, sizes, offsets and index ranges, so a damaged, truncated, stale or foreign file is
// rebuilt, never trusted. Layout: a section file (common/section_file.hpp) of the sections
// below. Strings are stored as u64 offsets (count + 1) and their bytes.

constexpr char kMagic[16] = "grappi-csr-v3\n";
enum Section : std::size_t {
  s_scalars,  // u64: generation, largest node id, largest edge id, edges, nodes, entries
  s_instance, s_ids, s_name_off, s_names, s_ext_off, s_exts, s_label, s_label_off, s_labels, s_rel_off, s_rels,
  s_offsets, s_neighbor, s_score, s_edge, s_relation, s_direction, s_count
};

struct CacheKey {
  std::string instance;
  uint64_t generation = 0;
  int64_t max_node = 0, max_edge = 0;
};

struct StringTable {
  std::vector<uint64_t> off;
  std::string bytes;
  explicit StringTable(const std::vector<std::string> &v) : off(v.size() + 1, 0) {
    for (std::size_t i = 0; i < v.size(); ++i) off[i + 1] = off[i] + v[i].size();
    bytes.reserve(off.back());
    for (const auto &x : v) bytes += x;
  }
};

// A snapshot's sections in file order, and the fingerprint of its content (every section but
// the key's). The tables hold the strings' encodings while the caller uses the sections.
struct Layout {
  StringTable names, exts, labels, rels;
  std::vector<uint64_t> scalars;
  std::vector<detail::FilePiece> sections;
  explicit Layout(const GraphSnapshot::Data &x, const CacheKey &key)
      : names(x.names), exts(x.external_ids), labels(x.labels), rels(x.relations),
        scalars{key.generation, static_cast<uint64_t>(key.max_node), static_cast<uint64_t>(key.max_edge), x.edges, x.n, x.m} {
    const auto &a = x.own;
    auto vec = [](const auto &v) { return detail::FilePiece{v.data(), v.size() * sizeof(v[0])}; };
    auto str = [](const std::string &v) { return detail::FilePiece{v.data(), v.size()}; };
    sections = {vec(scalars), str(key.instance), vec(a.ids), vec(names.off), str(names.bytes), vec(exts.off),
                str(exts.bytes), vec(a.label), vec(labels.off), str(labels.bytes), vec(rels.off), str(rels.bytes),
                vec(a.offsets), vec(a.neighbor), vec(a.score), vec(a.edge), vec(a.relation), vec(a.direction)};
  }
};

uint64_t content_fingerprint(const uint64_t *section_sums) {
  return detail::checksum(0x6772617070696373ull, section_sums + s_ids, (s_count - s_ids) * sizeof(uint64_t));
}

// Writes the cache file (when `path` is not empty; a read-only directory simply has none) and
// returns the snapshot's fingerprint.
uint64_t save_cache(const std::string &path, const CacheKey &key, const GraphSnapshot::Data &x) {
  const Layout l(x, key);
  std::vector<uint64_t> sums(s_count);
  for (std::size_t i = 0; i < s_count; ++i) sums[i] = detail::checksum_wide(l.sections[i].data, l.sections[i].size);
  const uint64_t fp = content_fingerprint(sums.data());
  if (path.empty() || key.instance.empty()) return fp;
  try {
    detail::write_section_file(path, kMagic, l.sections, "snapshot cache", sums);
  } catch (const Error &) {  // (a read-only directory or a full disk: simply no cache file)
  }
  return fp;
}

// Reads a string table; false when its offsets do not describe its bytes (checked before any
// is used: the table is read before the sections' checksums are).
bool read_strings(const detail::FilePiece &off, const detail::FilePiece &bytes, std::size_t count,
                  std::vector<std::string> &out) {
  if (off.size != (count + 1) * 8) return false;
  const auto *o = static_cast<const uint64_t *>(off.data);
  if (o[0] != 0 || o[count] != bytes.size) return false;
  out.resize(count);
  const char *b = static_cast<const char *>(bytes.data);
  for (std::size_t i = 0; i < count; ++i) {
    if (o[i] > o[i + 1] || o[i + 1] > bytes.size) return false;
    out[i].assign(b + o[i], static_cast<std::size_t>(o[i + 1] - o[i]));
  }
  return true;
}

template <class T>
bool all_below(const T *p, std::size_t count, uint64_t limit) {
  if (limit > std::numeric_limits<T>::max()) return true;
  const T below = static_cast<T>(limit);
  unsigned bad = 0;
  for (std::size_t i = 0; i < count; ++i) bad |= p[i] >= below;  // branch-free: vectorised
  return bad == 0;
}

// Maps the cache file and points `x` at it; false (x untouched) unless every check passes.
bool load_cache(const std::string &path, const CacheKey &key, GraphSnapshot::Data &x) {
  auto file = detail::MappedFile::open(path);
  detail::SectionFile sec;
  if (!file || !sec.open(*file, kMagic, s_count)) return false;
  // The key first: a stale or foreign file is refused before its arrays are read.
  if (sec[s_scalars].size != 6 * 8 || !sec.intact(s_scalars) || !sec.intact(s_instance)) return false;
  uint64_t sc[6];
  std::memcpy(sc, sec[s_scalars].data, sizeof sc);
  const std::string instance(static_cast<const char *>(sec[s_instance].data), sec[s_instance].size);
  if (instance != key.instance || sc[0] != key.generation || sc[1] != static_cast<uint64_t>(key.max_node) ||
      sc[2] != static_cast<uint64_t>(key.max_edge))
    return false;
  const uint64_t n = sc[4], m = sc[5];
  if (n >= std::numeric_limits<uint32_t>::max() || sec[s_ids].size != n * 8 || sec[s_label].size != n * 2 ||
      sec[s_offsets].size != (n + 1) * 8 || sec[s_neighbor].size != m * 4 || sec[s_score].size != m * 4 ||
      sec[s_edge].size != m * 4 || sec[s_relation].size != m * 2 || sec[s_direction].size != m)
    return false;
  GraphSnapshot::Data y;
  y.generation = sc[0];
  y.edges = static_cast<std::size_t>(sc[3]);
  y.n = static_cast<std::size_t>(n);
  y.m = static_cast<std::size_t>(m);
  const uint64_t labels = sec[s_label_off].size / 8, relations = sec[s_rel_off].size / 8;
  if (labels == 0 || relations == 0 || !read_strings(sec[s_name_off], sec[s_names], y.n, y.names) ||
      !read_strings(sec[s_ext_off], sec[s_exts], y.n, y.external_ids) ||
      !read_strings(sec[s_label_off], sec[s_labels], labels - 1, y.labels) ||
      !read_strings(sec[s_rel_off], sec[s_rels], relations - 1, y.relations))
    return false;
  y.ids = static_cast<const int64_t *>(sec[s_ids].data);
  y.label = static_cast<const uint16_t *>(sec[s_label].data);
  y.offsets = static_cast<const uint64_t *>(sec[s_offsets].data);
  y.neighbor = static_cast<const uint32_t *>(sec[s_neighbor].data);
  y.score = static_cast<const float *>(sec[s_score].data);
  y.edge = static_cast<const uint32_t *>(sec[s_edge].data);
  y.relation = static_cast<const uint16_t *>(sec[s_relation].data);
  y.direction = static_cast<const uint8_t *>(sec[s_direction].data);
  if (y.offsets[0] != 0 || y.offsets[n] != m) return false;
  // Every other section's checksum and every index range: a human-sized snapshot is 200 MB to
  // read, so on several cores (largest first).
  std::vector<std::function<bool()>> checks;
  std::vector<std::size_t> order;
  for (std::size_t i = s_ids; i < s_count; ++i) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sec[a].size > sec[b].size; });
  checks.push_back([&] { return all_below(y.neighbor, y.m, n); });
  for (std::size_t i : order) checks.push_back([&sec, i] { return sec.intact(i); });
  checks.push_back([&] { return all_below(y.relation, y.m, y.relations.size()) && all_below(y.direction, y.m, 3); });
  checks.push_back([&] {
    for (std::size_t i = 0; i < n; ++i)
      if (y.offsets[i] > y.offsets[i + 1]) return false;
    return all_below(y.label, y.n, y.labels.size());
  });
  std::atomic<bool> sound{true};
  // (threads only where they pay: a file of a few megabytes is checked sooner than they start)
  const std::size_t threads = file->size() >= (std::size_t{32} << 20) ? detail::hardware_threads(4) : 1;
  detail::parallel_for(checks.size(), threads, [&](std::size_t t) {
    if (sound.load(std::memory_order_relaxed) && !checks[t]()) sound = false;
  });
  if (!sound) return false;
  uint64_t sums[s_count];
  for (std::size_t i = 0; i < s_count; ++i) sums[i] = sec.sum(i);
  y.fingerprint = content_fingerprint(sums);
  y.file = std::move(file);
  x = std::move(y);
  return true;
}

void index_ids(GraphSnapshot::Data &x) {
  const std::size_t n = x.n;
  int64_t max_id = 0;
  for (std::size_t i = 0; i < n; ++i) max_id = std::max(max_id, x.ids[i]);
  x.index_by_id.clear();
  x.index_sparse.clear();
  if (static_cast<uint64_t>(max_id) <= 4 * static_cast<uint64_t>(n) + 1024) {
    x.index_by_id.assign(static_cast<std::size_t>(max_id) + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
      if (x.ids[i] >= 0) x.index_by_id[static_cast<std::size_t>(x.ids[i])] = static_cast<uint32_t>(i + 1);
  } else {
    x.index_sparse.reserve(n);
    for (std::size_t i = 0; i < n; ++i) x.index_sparse.emplace(x.ids[i], static_cast<uint32_t>(i));
  }
}

}  // namespace

std::shared_ptr<const GraphSnapshot> build_snapshot(Db &db, uint64_t generation, const std::string &cache_path) {
  GraphSnapshot::Data x;
  x.generation = generation;
  // All reads in one read transaction, so nodes and edges are consistent.
  Savepoint sp(db, "grappi_snapshot", false);
  CacheKey key;
  if (!cache_path.empty()) {
    Stmt st(db, "SELECT (SELECT value FROM meta WHERE key = 'instance'), (SELECT value FROM meta WHERE key = 'generation'), "
                "(SELECT coalesce(max(id), 0) FROM nodes), (SELECT coalesce(max(id), 0) FROM edges)");
    st.step();
    key.instance = st.col_text(0);
    key.generation = static_cast<uint64_t>(std::stoull(st.col_text(1).empty() ? "0" : st.col_text(1)));
    key.max_node = st.col_int(2);
    key.max_edge = st.col_int(3);
    x.generation = key.generation;
    if (!key.instance.empty() && load_cache(cache_path, key, x)) {
      sp.commit();
      index_ids(x);
      return std::make_shared<const GraphSnapshot>(std::move(x));
    }
    x = GraphSnapshot::Data{};
    x.generation = key.generation;
  }
  GraphSnapshot::Data::Arrays &a = x.own;
  {
    Stmt st(db, "SELECT id, name, external_id, label FROM nodes ORDER BY id");
    std::unordered_map<std::string, uint16_t> label_of;
    while (st.step()) {
      a.ids.push_back(st.col_int(0));
      x.names.push_back(st.col_text(1));
      x.external_ids.push_back(st.col_text(2));
      std::string l = st.col_text(3);
      auto it = label_of.find(l);
      if (it == label_of.end()) {
        if (x.labels.size() >= 65535) throw Error(ErrorCode::internal, "more than 65535 node labels");
        it = label_of.emplace(l, static_cast<uint16_t>(x.labels.size())).first;
        x.labels.push_back(l);
      }
      a.label.push_back(it->second);
    }
  }
  const std::size_t n = a.ids.size();
  if (n >= std::numeric_limits<uint32_t>::max())
    throw Error(ErrorCode::internal, "graph too large for a snapshot: " + std::to_string(n) + " nodes");
  x.point_at_own();
  index_ids(x);
  auto idx = [&](int64_t id) -> uint32_t {
    if (!x.index_by_id.empty()) {
      if (id >= 0 && static_cast<uint64_t>(id) < x.index_by_id.size() &&
          x.index_by_id[static_cast<std::size_t>(id)])
        return x.index_by_id[static_cast<std::size_t>(id)] - 1;
    } else {
      auto it = x.index_sparse.find(id);
      if (it != x.index_sparse.end()) return it->second;
    }
    throw Error(ErrorCode::database, "database '" + db.path() + "': an edge names node " +
                                         std::to_string(id) + ", which does not exist");
  };
  std::unordered_map<int64_t, uint16_t> rel_index;
  {
    Stmt st(db, "SELECT id, name FROM relations ORDER BY id");
    while (st.step()) {
      if (x.relations.size() >= 65535)
        throw Error(ErrorCode::internal, "more than 65535 relation types");
      rel_index.emplace(st.col_int(0), static_cast<uint16_t>(x.relations.size()));
      x.relations.push_back(st.col_text(1));
    }
  }
  // Edges in two passes over a compact staging array: count degrees, then scatter.
  struct Row {
    uint32_t s, t, id;
    float score;
    uint16_t rel;
    uint8_t directed;
  };
  std::vector<Row> rows;
  {
    Stmt cnt(db, "SELECT count(*) FROM edges");
    cnt.step();
    rows.reserve(static_cast<std::size_t>(cnt.col_int(0)));
  }
  std::vector<uint64_t> deg(n + 1, 0);
  {
    Stmt st(db, "SELECT id, source, target, relation, directed, score FROM edges");
    while (st.step()) {
      int64_t eid = st.col_int(0);
      if (eid < 0 || eid > static_cast<int64_t>(std::numeric_limits<uint32_t>::max()))
        throw Error(ErrorCode::internal, "edge id " + std::to_string(eid) + " exceeds 2^32-1");
      Row r;
      r.id = static_cast<uint32_t>(eid);
      r.s = idx(st.col_int(1));
      r.t = idx(st.col_int(2));
      auto it = rel_index.find(st.col_int(3));
      if (it == rel_index.end())
        throw Error(ErrorCode::database, "database '" + db.path() + "': edge " +
                                             std::to_string(eid) + " has an unknown relation");
      r.rel = it->second;
      r.directed = st.col_int(4) ? 1 : 0;
      r.score = static_cast<float>(st.col_double(5));
      rows.push_back(r);
      ++deg[r.s];
      if (r.t != r.s) ++deg[r.t];
    }
  }
  sp.commit();
  x.edges = rows.size();
  a.offsets.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) a.offsets[i + 1] = a.offsets[i] + deg[i];
  const std::size_t total = a.offsets[n];
  a.neighbor.resize(total);
  a.score.resize(total);
  a.edge.resize(total);
  a.relation.resize(total);
  a.direction.resize(total);
  std::vector<uint64_t> fill(a.offsets.begin(), a.offsets.end() - 1);
  auto put = [&](uint32_t at, uint32_t nb, const Row &r, Direction dir) {
    uint64_t k = fill[at]++;
    a.neighbor[k] = nb;
    a.score[k] = r.score;
    a.edge[k] = r.id;
    a.relation[k] = r.rel;
    a.direction[k] = static_cast<uint8_t>(dir);
  };
  for (const Row &r : rows) {
    put(r.s, r.t, r, r.directed ? Direction::outgoing : Direction::undirected);
    if (r.t != r.s) put(r.t, r.s, r, r.directed ? Direction::incoming : Direction::undirected);
  }
  std::vector<Row>().swap(rows);
  // Sort each adjacency list by (neighbor, relation, direction) through a permutation.
  std::vector<uint32_t> perm;
  std::vector<uint32_t> tn, te;
  std::vector<float> ts;
  std::vector<uint16_t> tr;
  std::vector<uint8_t> td;
  for (std::size_t v = 0; v < n; ++v) {
    const std::size_t b = a.offsets[v], e = a.offsets[v + 1], m = e - b;
    if (m < 2) continue;
    bool sorted = true;
    for (std::size_t k = b + 1; k < e && sorted; ++k)
      sorted = a.neighbor[k - 1] < a.neighbor[k] ||
               (a.neighbor[k - 1] == a.neighbor[k] &&
                (a.relation[k - 1] < a.relation[k] ||
                 (a.relation[k - 1] == a.relation[k] && a.direction[k - 1] <= a.direction[k])));
    if (sorted) continue;
    perm.resize(m);
    std::iota(perm.begin(), perm.end(), 0u);
    std::sort(perm.begin(), perm.end(), [&](uint32_t p, uint32_t q) {
      const std::size_t i = b + p, j = b + q;
      if (a.neighbor[i] != a.neighbor[j]) return a.neighbor[i] < a.neighbor[j];
      if (a.relation[i] != a.relation[j]) return a.relation[i] < a.relation[j];
      return a.direction[i] < a.direction[j];
    });
    tn.resize(m);
    te.resize(m);
    ts.resize(m);
    tr.resize(m);
    td.resize(m);
    for (std::size_t k = 0; k < m; ++k) {
      const std::size_t s = b + perm[k];
      tn[k] = a.neighbor[s];
      te[k] = a.edge[s];
      ts[k] = a.score[s];
      tr[k] = a.relation[s];
      td[k] = a.direction[s];
    }
    std::copy(tn.begin(), tn.end(), a.neighbor.begin() + static_cast<std::ptrdiff_t>(b));
    std::copy(te.begin(), te.end(), a.edge.begin() + static_cast<std::ptrdiff_t>(b));
    std::copy(ts.begin(), ts.end(), a.score.begin() + static_cast<std::ptrdiff_t>(b));
    std::copy(tr.begin(), tr.end(), a.relation.begin() + static_cast<std::ptrdiff_t>(b));
    std::copy(td.begin(), td.end(), a.direction.begin() + static_cast<std::ptrdiff_t>(b));
  }
  x.point_at_own();
  x.fingerprint = save_cache(cache_path, key, x);
  return std::make_shared<const GraphSnapshot>(std::move(x));
}

}  // namespace detail
}  // namespace grappi
