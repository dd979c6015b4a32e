#include <cmath>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <unordered_map>

#include "common/visibility.hpp"
#include "common/cache_file.hpp"
#include "store/relation_filter.hpp"
#include "store/graph_impl.hpp"
#include "store/score.hpp"
#include "grappi/error.hpp"
#include "grappi/snapshot.hpp"

namespace grappi {

struct GRAPPI_HIDDEN GraphSnapshot::Data {
  uint64_t generation = 0;
  std::size_t edges = 0;
  std::vector<int64_t> ids;             // index -> node id
  std::vector<uint32_t> index_by_id;    // dense id -> index+1 (0 = none), when ids are compact
  std::unordered_map<int64_t, uint32_t> index_sparse;  // otherwise
  std::vector<std::string> names, external_ids;
  std::vector<uint16_t> label;          // index into labels
  std::vector<std::string> labels;      // node label names
  std::vector<std::string> relations;   // relation index -> name
  std::vector<uint64_t> offsets;        // node_count + 1
  std::vector<uint32_t> neighbor;
  std::vector<float> score;
  std::vector<uint32_t> edge;
  std::vector<uint16_t> relation;
  std::vector<uint8_t> direction;
};

GraphSnapshot::GraphSnapshot(Data data) : data_(new Data(std::move(data))) {}
GraphSnapshot::~GraphSnapshot() { delete data_; }

std::size_t GraphSnapshot::node_count() const { return d().ids.size(); }
std::size_t GraphSnapshot::edge_count() const { return d().edges; }
uint64_t GraphSnapshot::generation() const { return d().generation; }
int64_t GraphSnapshot::node_id(uint32_t index) const { return d().ids.at(index); }
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

const std::string &GraphSnapshot::label(uint32_t index) const { return d().labels.at(d().label.at(index)); }

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
  if (index >= x.ids.size())
    throw Error(ErrorCode::invalid_argument, "node index " + std::to_string(index) + " out of range");
  std::size_t b = x.offsets[index], e = x.offsets[index + 1];
  return Adjacency{x.neighbor.data() + b, x.score.data() + b, x.edge.data() + b,
                   x.relation.data() + b, x.direction.data() + b, e - b};
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
  std::size_t n = x.ids.capacity() * 8 + x.index_by_id.capacity() * 4 +
                  x.index_sparse.size() * 32 + x.offsets.capacity() * 8 +
                  x.neighbor.capacity() * 4 + x.score.capacity() * 4 + x.edge.capacity() * 4 +
                  x.relation.capacity() * 2 + x.direction.capacity();
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
// "<db>.csr" holds the arrays of the last snapshot built, with a key naming the database
// instance, its generation and its largest node and edge ids. A file whose key differs is
// ignored and rewritten. Layout: magic, key, then each array as u64 length + raw elements.

constexpr char kMagic[16] = "grappi-csr-v2\n";

struct CacheKey {
  std::string instance;
  uint64_t generation = 0;
  int64_t max_node = 0, max_edge = 0;
};

// The arrays of a snapshot, in file order; writer and reader share this one list.
template <class Archive, class SnapshotData>  // SnapshotData: const when writing
void fields(Archive &a, SnapshotData &x) {
  a.vec(x.ids);
  a.strs(x.names);
  a.strs(x.external_ids);
  a.strs(x.relations);
  a.vec(x.label);
  a.strs(x.labels);
  a.vec(x.offsets);
  a.vec(x.neighbor);
  a.vec(x.score);
  a.vec(x.edge);
  a.vec(x.relation);
  a.vec(x.direction);
}

void save_cache(const std::string &path, const CacheKey &key, const GraphSnapshot::Data &x) {
  CacheFileWriter o(path, kMagic);
  o.str(key.instance);
  o.u64(key.generation);
  o.u64(static_cast<uint64_t>(key.max_node));
  o.u64(static_cast<uint64_t>(key.max_edge));
  o.u64(x.edges);
  fields(o, x);
  o.commit();  // a read-only directory: simply no cache
}

bool load_cache(const std::string &path, const CacheKey &key, GraphSnapshot::Data &x) {
  CacheFileReader in(path, kMagic);
  CacheKey k;
  in.str(k.instance);
  k.generation = in.u64();
  k.max_node = static_cast<int64_t>(in.u64());
  k.max_edge = static_cast<int64_t>(in.u64());
  if (!in.ok() || k.instance != key.instance || k.generation != key.generation || k.max_node != key.max_node ||
      k.max_edge != key.max_edge)
    return false;
  x.edges = static_cast<std::size_t>(in.u64());
  fields(in, x);
  const std::size_t n = x.ids.size(), m = x.neighbor.size();
  bool match = in.finish() && x.names.size() == n && x.external_ids.size() == n && x.label.size() == n &&
               x.offsets.size() == n + 1 && x.offsets[n] == m && x.score.size() == m && x.edge.size() == m &&
               x.relation.size() == m && x.direction.size() == m;
  for (std::size_t i = 0; match && i < n; ++i) match = x.label[i] < x.labels.size();
  for (std::size_t i = 0; match && i < m; ++i)
    match = x.neighbor[i] < n && x.relation[i] < x.relations.size() && x.direction[i] <= 2;
  return match;
}

void index_ids(GraphSnapshot::Data &x) {
  const std::size_t n = x.ids.size();
  int64_t max_id = 0;
  for (int64_t id : x.ids) max_id = std::max(max_id, id);
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
  {
    Stmt st(db, "SELECT id, name, external_id, label FROM nodes ORDER BY id");
    std::unordered_map<std::string, uint16_t> label_of;
    while (st.step()) {
      x.ids.push_back(st.col_int(0));
      x.names.push_back(st.col_text(1));
      x.external_ids.push_back(st.col_text(2));
      std::string l = st.col_text(3);
      auto it = label_of.find(l);
      if (it == label_of.end()) {
        if (x.labels.size() >= 65535) throw Error(ErrorCode::internal, "more than 65535 node labels");
        it = label_of.emplace(l, static_cast<uint16_t>(x.labels.size())).first;
        x.labels.push_back(l);
      }
      x.label.push_back(it->second);
    }
  }
  const std::size_t n = x.ids.size();
  if (n >= std::numeric_limits<uint32_t>::max())
    throw Error(ErrorCode::internal, "graph too large for a snapshot: " + std::to_string(n) + " nodes");
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
  x.offsets.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) x.offsets[i + 1] = x.offsets[i] + deg[i];
  const std::size_t total = x.offsets[n];
  x.neighbor.resize(total);
  x.score.resize(total);
  x.edge.resize(total);
  x.relation.resize(total);
  x.direction.resize(total);
  std::vector<uint64_t> fill(x.offsets.begin(), x.offsets.end() - 1);
  auto put = [&](uint32_t at, uint32_t nb, const Row &r, Direction dir) {
    uint64_t k = fill[at]++;
    x.neighbor[k] = nb;
    x.score[k] = r.score;
    x.edge[k] = r.id;
    x.relation[k] = r.rel;
    x.direction[k] = static_cast<uint8_t>(dir);
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
    const std::size_t b = x.offsets[v], e = x.offsets[v + 1], m = e - b;
    if (m < 2) continue;
    bool sorted = true;
    for (std::size_t k = b + 1; k < e && sorted; ++k)
      sorted = x.neighbor[k - 1] < x.neighbor[k] ||
               (x.neighbor[k - 1] == x.neighbor[k] &&
                (x.relation[k - 1] < x.relation[k] ||
                 (x.relation[k - 1] == x.relation[k] && x.direction[k - 1] <= x.direction[k])));
    if (sorted) continue;
    perm.resize(m);
    std::iota(perm.begin(), perm.end(), 0u);
    std::sort(perm.begin(), perm.end(), [&](uint32_t p, uint32_t q) {
      const std::size_t i = b + p, j = b + q;
      if (x.neighbor[i] != x.neighbor[j]) return x.neighbor[i] < x.neighbor[j];
      if (x.relation[i] != x.relation[j]) return x.relation[i] < x.relation[j];
      return x.direction[i] < x.direction[j];
    });
    tn.resize(m);
    te.resize(m);
    ts.resize(m);
    tr.resize(m);
    td.resize(m);
    for (std::size_t k = 0; k < m; ++k) {
      const std::size_t s = b + perm[k];
      tn[k] = x.neighbor[s];
      te[k] = x.edge[s];
      ts[k] = x.score[s];
      tr[k] = x.relation[s];
      td[k] = x.direction[s];
    }
    std::copy(tn.begin(), tn.end(), x.neighbor.begin() + static_cast<std::ptrdiff_t>(b));
    std::copy(te.begin(), te.end(), x.edge.begin() + static_cast<std::ptrdiff_t>(b));
    std::copy(ts.begin(), ts.end(), x.score.begin() + static_cast<std::ptrdiff_t>(b));
    std::copy(tr.begin(), tr.end(), x.relation.begin() + static_cast<std::ptrdiff_t>(b));
    std::copy(td.begin(), td.end(), x.direction.begin() + static_cast<std::ptrdiff_t>(b));
  }
  if (!cache_path.empty() && !key.instance.empty()) save_cache(cache_path, key, x);
  return std::make_shared<const GraphSnapshot>(std::move(x));
}

}  // namespace detail
}  // namespace grappi
