#include <algorithm>
#include <cmath>
#include <set>
#include <nlohmann/json.hpp>

#include "store/cooc_store.hpp"
#include "store/graph_impl.hpp"
#include "grappi/error.hpp"
#include "common/text_reader.hpp"
#include "grappi/json_text.hpp"

namespace grappi {

using detail::Savepoint;
using detail::Stmt;

// ---- Impl ------------------------------------------------------------------------------------

uint64_t KnowledgeGraph::Impl::generation() const {
  Stmt st(db, "SELECT value FROM meta WHERE key='generation'");
  if (!st.step()) return 0;
  return static_cast<uint64_t>(std::stoull(st.col_text(0)));
}

std::string detail::instance_of(Db &db) {
  Stmt st(db, "SELECT value FROM meta WHERE key = 'instance'");
  return st.step() ? st.col_text(0) : std::string();
}

void KnowledgeGraph::Impl::bump_generation() {
  db.exec("UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key='generation'");
}

int64_t KnowledgeGraph::Impl::intern_relation(std::string_view name) {
  Stmt sel(db, "SELECT id FROM relations WHERE name = ?");
  sel.bind(1, name);
  if (sel.step()) return sel.col_int(0);
  Stmt ins(db, "INSERT INTO relations(name) VALUES(?)");
  ins.bind(1, name).run();
  return db.last_insert_rowid();
}

void KnowledgeGraph::Impl::require_writable(const char *what) const {
  if (read_only)
    throw Error(ErrorCode::invalid_argument,
                std::string(what) + ": database '" + db.path() + "' is open read-only");
}

// ---- helpers -----------------------------------------------------------------------------------

namespace {

Node read_node(const Stmt &st) {
  // Columns: id, external_id, name, label, annotation, size, attributes, taxon
  Node n;
  n.id = st.col_int(0);
  n.external_id = st.col_text(1);
  n.name = st.col_text(2);
  n.label = st.col_text(3);
  n.annotation = st.col_text(4);
  n.size = st.col_int(5);
  n.attributes = st.col_text(6);
  n.taxon = st.col_int(7);
  return n;
}

constexpr const char *kNodeCols = "id, external_id, name, label, annotation, size, attributes, taxon";
constexpr const char *kEdgeSelect =
    "SELECT e.id, e.source, e.target, r.name, e.directed, e.score, e.channels, e.evidence, "
    "e.dataset_id FROM edges e JOIN relations r ON r.id = e.relation ";

// An edge row; a co-occurrence edge stored compactly (cooc_store.hpp) gets the evidence text,
// PubMed ids and record its dataset's file gives.
Edge read_edge(const Stmt &st, detail::CoocEvidenceReader &cooc) {
  Edge e;
  e.id = st.col_int(0);
  e.source = st.col_int(1);
  e.target = st.col_int(2);
  e.relation = st.col_text(3);
  e.directed = st.col_int(4) != 0;
  e.score = st.col_double(5);
  if (!st.col_null(6)) {
    auto j = nlohmann::json::parse(st.col_view(6), nullptr, false);
    if (j.is_object())
      for (auto it = j.begin(); it != j.end(); ++it)
        if (it->is_number()) e.channels.push_back({it.key(), it->get<double>()});
  }
  e.dataset_id = st.col_null(8) ? 0 : st.col_int(8);
  if (st.col_is_blob(7)) {
    if (const auto f = cooc.facts(e.dataset_id, e.source, e.target, st.col_blob(7), st.col_bytes(7))) {
      e.pmids = detail::cooc_pmids(*f);
      e.evidence = detail::cooc_evidence_text(*f);
      e.records.push_back({e.dataset_id, 0, detail::cooc_record_json(*f), ""});
    }
  } else if (!st.col_null(7)) {
    auto j = nlohmann::json::parse(st.col_view(7), nullptr, false);
    if (j.is_object()) {
      if (j.contains("pmids") && j["pmids"].is_array())
        for (auto &p : j["pmids"])
          if (p.is_number_integer()) e.pmids.push_back(p.get<int64_t>());
      if (j.contains("text") && j["text"].is_string()) e.evidence = j["text"].get<std::string>();
    }
  }
  return e;
}

// The evidence records of an edge, their PubMed ids merged into the edge's (sorted, unique).
void read_records(detail::Db &db, Edge &e) {
  Stmt st(db, "SELECT dataset_id, line, record, raw FROM edge_evidence WHERE edge_id = ? ORDER BY id");
  st.bind(1, e.id);
  bool more_pmids = false;
  while (st.step()) {
    EvidenceRecord r{st.col_int(0), st.col_int(1), st.col_text(2), st.col_text(3)};
    auto j = nlohmann::json::parse(r.record, nullptr, false);
    if (j.is_object() && j.contains("pmids") && j["pmids"].is_array())
      for (auto &p : j["pmids"])
        if (p.is_number_integer()) {
          e.pmids.push_back(p.get<int64_t>());
          more_pmids = true;
        }
    e.records.push_back(std::move(r));
  }
  if (more_pmids) {
    std::sort(e.pmids.begin(), e.pmids.end());
    e.pmids.erase(std::unique(e.pmids.begin(), e.pmids.end()), e.pmids.end());
  }
}

// A few words on what a file is, from what its import recorded.
std::string describe_source(const Dataset &d) {
  const auto o = nlohmann::json::parse(d.options, nullptr, false);
  const auto text = [&](const nlohmann::json &j, const char *key) {
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
  };
  std::string s;
  if (d.format == "obo") {
    s = text(o, "ontology");
    const nlohmann::json h = o.is_object() && o.contains("header") ? o["header"] : nlohmann::json();
    std::string v = text(h, "data-version");
    if (v.empty()) v = text(h, "date");
    if (!v.empty()) s += " " + v;
  } else if (d.format == "cx2" || d.format == "jgf") {
    s = o.is_object() && o.contains("network") ? text(o["network"], "name") : std::string();
  } else if (d.format == "bel") {
    s = o.is_object() && o.contains("document") ? text(o["document"], "Name") : std::string();
    const std::string v = o.is_object() && o.contains("document") ? text(o["document"], "Version") : std::string();
    if (!v.empty()) s += (s.empty() ? "" : " ") + v;
  } else if (!d.string_version.empty()) {
    s = "STRING " + d.string_version;
  }
  if (d.taxon != 0 && !s.empty()) s += " (taxon " + std::to_string(d.taxon) + ")";
  return s;
}

Dataset read_dataset(const Stmt &st) {
  Dataset d;
  d.id = st.col_int(0);
  d.name = st.col_text(1);
  d.path = st.col_text(2);
  d.file_size = static_cast<uint64_t>(st.col_int(3));
  d.sha256 = st.col_text(4);
  d.format = st.col_text(5);
  d.string_version = st.col_text(6);
  d.taxon = st.col_int(7);
  d.options = st.col_text(8);
  d.counts = st.col_text(9);
  d.imported_at = st.col_text(10);
  d.seconds = st.col_double(11);
  d.source = describe_source(d);
  return d;
}

void check_text(std::string_view s, const char *what) {
  if (!detail::valid_utf8(s))
    throw Error(ErrorCode::invalid_argument, std::string(what) + " is not valid UTF-8");
}

}  // namespace

// ---- construction --------------------------------------------------------------------------

KnowledgeGraph::KnowledgeGraph(const std::string &path, const OpenOptions &options)
    : impl_(std::make_unique<Impl>()) {
  if (path.empty()) throw Error(ErrorCode::invalid_argument, "database path is empty");
  impl_->db = detail::Db(path, options.create && !options.read_only, options.read_only,
                         options.busy_timeout_ms);
  if (options.read_only && options.upgrade && detail::schema_outdated(impl_->db)) {
    {
      detail::Db writer(path, false, false, options.busy_timeout_ms);
      detail::open_schema(writer, false, options.cache_mib);  // (migrates)
    }
    impl_->db = detail::Db(path, false, true, options.busy_timeout_ms);
  }
  impl_->read_only = options.read_only;
  if (options.snapshot_cache && path != ":memory:" && path.rfind("file:", 0) != 0)
    impl_->snapshot_cache = path + ".csr";
  detail::open_schema(impl_->db, options.read_only, options.cache_mib);
}

KnowledgeGraph::~KnowledgeGraph() = default;
KnowledgeGraph::KnowledgeGraph(KnowledgeGraph &&) noexcept = default;
KnowledgeGraph &KnowledgeGraph::operator=(KnowledgeGraph &&) noexcept = default;

const std::string &KnowledgeGraph::path() const { return impl_->db.path(); }

uint64_t KnowledgeGraph::generation() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->generation();
}

// ---- reads -------------------------------------------------------------------------------------

std::optional<Node> KnowledgeGraph::node(int64_t id) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db, (std::string("SELECT ") + kNodeCols + " FROM nodes WHERE id = ?").c_str());
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  return read_node(st);
}

std::optional<Node> KnowledgeGraph::node_by_external_id(std::string_view external_id) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db,
          (std::string("SELECT ") + kNodeCols + " FROM nodes WHERE external_id = ?").c_str());
  st.bind(1, external_id);
  if (!st.step()) return std::nullopt;
  return read_node(st);
}

std::vector<std::pair<std::string, std::string>> KnowledgeGraph::aliases(int64_t id) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db, "SELECT alias, source FROM aliases WHERE node_id = ? ORDER BY alias, source");
  st.bind(1, id);
  std::vector<std::pair<std::string, std::string>> out;
  while (st.step()) out.emplace_back(st.col_text(0), st.col_text(1));
  return out;
}

std::vector<NodeName> KnowledgeGraph::names(const std::vector<std::string> &labels) const {
  std::string where;
  for (std::size_t i = 0; i < labels.size(); ++i) where += (i ? ", ?" : "WHERE n.label IN (?");
  if (!labels.empty()) where += ")";
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db, ("SELECT n.id, n.name, '' AS source, 0 AS k FROM nodes n " + where +
                      " UNION ALL SELECT a.node_id, a.alias, a.source, 1 FROM aliases a JOIN nodes n ON n.id = a.node_id " +
                      where + " ORDER BY 1, 4, 2, 3")
                         .c_str());
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 0; i < labels.size(); ++i) st.bind(static_cast<int>(pass * labels.size() + i + 1), labels[i]);
  std::vector<NodeName> out;
  while (st.step()) out.push_back({st.col_int(0), st.col_text(1), st.col_text(2)});
  return out;
}

std::optional<Edge> KnowledgeGraph::edge(int64_t id) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db, (std::string(kEdgeSelect) + "WHERE e.id = ?").c_str());
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  detail::CoocEvidenceReader cooc(impl_->db);
  Edge e = read_edge(st, cooc);
  st.reset();
  read_records(impl_->db, e);
  return e;
}

std::vector<Edge> KnowledgeGraph::edges_between(int64_t a, int64_t b) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db, (std::string(kEdgeSelect) +
                      "WHERE (e.source = ?1 AND e.target = ?2) OR (e.source = ?2 AND e.target = ?1) "
                      "ORDER BY e.id")
                         .c_str());
  st.bind(1, a).bind(2, b);
  std::vector<Edge> out;
  detail::CoocEvidenceReader cooc(impl_->db);
  while (st.step()) out.push_back(read_edge(st, cooc));
  for (auto &e : out) read_records(impl_->db, e);
  return out;
}

namespace {
std::vector<Dataset> read_datasets(detail::Db &db) {
  Stmt st(db,
          "SELECT id, name, path, file_size, sha256, format, string_version, taxon, options, "
          "counts, imported_at, seconds FROM datasets ORDER BY id");
  std::vector<Dataset> out;
  while (st.step()) out.push_back(read_dataset(st));
  return out;
}
}  // namespace

std::vector<Dataset> KnowledgeGraph::datasets() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return read_datasets(impl_->db);
}

std::vector<int64_t> KnowledgeGraph::dataset_nodes(int64_t dataset_id) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db,
          "SELECT source FROM edges WHERE dataset_id = ?1 UNION SELECT target FROM edges WHERE dataset_id = ?1 UNION "
          "SELECT e.source FROM edge_claims c JOIN edges e ON e.id = c.edge_id WHERE c.dataset_id = ?1 UNION "
          "SELECT e.target FROM edge_claims c JOIN edges e ON e.id = c.edge_id WHERE c.dataset_id = ?1 ORDER BY 1");
  st.bind(1, dataset_id);
  std::vector<int64_t> out;
  while (st.step()) out.push_back(st.col_int(0));
  return out;
}

GraphStats KnowledgeGraph::stats() const {
  GraphStats s;
  std::lock_guard<std::mutex> lock(impl_->mu);
  // One read transaction: all counts come from the same state of the database.
  Savepoint read(impl_->db, "grappi_read", false);
  s.datasets = read_datasets(impl_->db);
  auto count = [&](const char *sql) {
    Stmt st(impl_->db, sql);
    st.step();
    return st.col_int(0);
  };
  s.nodes = count("SELECT count(*) FROM nodes");
  s.edges = count("SELECT count(*) FROM edges");
  s.aliases = count("SELECT count(*) FROM aliases");
  s.schema_version = static_cast<int>(count("PRAGMA user_version"));
  // Edges by relation and by owning dataset, in one pass over the edges.
  std::map<std::string, int64_t> by_relation;
  std::map<int64_t, Dataset *> by_id;
  for (auto &d : s.datasets) by_id[d.id] = &d;
  const auto add = [&](int64_t dataset, int64_t Dataset::*field, int64_t n) {
    if (auto it = by_id.find(dataset); it != by_id.end()) it->second->*field += n;
  };
  {
    // (a co-occurrence graph's edges each hold its record: cooc_store.hpp)
    std::set<int64_t> compact;
    Stmt sets(impl_->db, "SELECT dataset_id FROM cooc_sets");
    while (sets.step()) compact.insert(sets.col_int(0));
    Stmt st(impl_->db,
            "SELECT r.name, c.dataset_id, c.n FROM (SELECT relation, dataset_id, count(*) AS n FROM edges "
            "GROUP BY relation, dataset_id) c JOIN relations r ON r.id = c.relation");
    while (st.step()) {
      by_relation[st.col_text(0)] += st.col_int(2);
      if (st.col_null(1)) continue;
      add(st.col_int(1), &Dataset::edges, st.col_int(2));
      if (compact.count(st.col_int(1))) add(st.col_int(1), &Dataset::records, st.col_int(2));
    }
  }
  for (const auto &[name, n] : by_relation) s.edges_by_relation.emplace_back(name, n);
  const auto per_dataset = [&](const char *sql, int64_t Dataset::*field) {
    Stmt st(impl_->db, sql);
    while (st.step()) add(st.col_int(0), field, st.col_int(1));
  };
  per_dataset("SELECT dataset_id, count(*) FROM edge_claims GROUP BY dataset_id", &Dataset::edges);
  per_dataset("SELECT dataset_id, count(*) FROM (SELECT node_id, dataset_id FROM node_claims UNION "
              "SELECT id, info_dataset FROM nodes WHERE info_dataset IS NOT NULL) GROUP BY dataset_id",
              &Dataset::nodes);
  per_dataset("SELECT dataset_id, count(*) FROM (SELECT dataset_id FROM edge_evidence UNION ALL "
              "SELECT dataset_id FROM node_evidence) GROUP BY dataset_id",
              &Dataset::records);
  per_dataset("SELECT dataset_id, count(*) FROM aliases WHERE dataset_id IS NOT NULL GROUP BY dataset_id",
              &Dataset::aliases);
  read.commit();
  return s;
}

// ---- writes ------------------------------------------------------------------------------------

int64_t KnowledgeGraph::add_node(const NodeInput &in) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->require_writable("add_node");
  if (in.external_id.empty())
    throw Error(ErrorCode::invalid_argument, "add_node: external_id is empty");
  check_text(in.external_id, "add_node: external_id");
  check_text(in.name, "add_node: name");
  check_text(in.label, "add_node: label");
  check_text(in.annotation, "add_node: annotation");
  auto attrs = nlohmann::json::parse(in.attributes.empty() ? "{}" : in.attributes, nullptr, false);
  if (!attrs.is_object())
    throw Error(ErrorCode::invalid_argument, "add_node: attributes must be a JSON object");
  Savepoint sp(impl_->db);
  {
    Stmt chk(impl_->db, "SELECT id FROM nodes WHERE external_id = ?");
    chk.bind(1, in.external_id);
    if (chk.step())
      throw Error(ErrorCode::invalid_argument,
                  "add_node: a node with external id '" + in.external_id + "' exists already");
  }
  Stmt ins(impl_->db,
           "INSERT INTO nodes(external_id, name, label, annotation, size, attributes, taxon) "
           "VALUES(?,?,?,?,?,?,?)");
  ins.bind(1, in.external_id)
      .bind(2, in.name.empty() ? in.external_id : in.name)
      .bind(3, in.label.empty() ? std::string("Protein") : in.label)
      .bind(4, in.annotation)
      .bind(5, in.size)
      .bind(6, dump_json(attrs))
      .bind(7, detail::taxon_of(in.external_id))
      .run();
  int64_t id = impl_->db.last_insert_rowid();
  impl_->bump_generation();
  sp.commit();
  return id;
}

int64_t KnowledgeGraph::add_edge(const EdgeInput &in) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->require_writable("add_edge");
  if (in.relation.empty()) throw Error(ErrorCode::invalid_argument, "add_edge: relation is empty");
  check_text(in.relation, "add_edge: relation");
  check_text(in.evidence, "add_edge: evidence");
  if (!(in.score >= 0.0 && in.score <= 1.0))
    throw Error(ErrorCode::invalid_argument,
                "add_edge: score " + std::to_string(in.score) + " is outside [0,1]");
  Savepoint sp(impl_->db);
  for (int64_t id : {in.source, in.target}) {
    Stmt chk(impl_->db, "SELECT 1 FROM nodes WHERE id = ?");
    chk.bind(1, id);
    if (!chk.step())
      throw Error(ErrorCode::not_found, "add_edge: no node with id " + std::to_string(id));
  }
  int64_t src = in.source, dst = in.target;
  if (!in.directed && src > dst) std::swap(src, dst);
  int64_t rel = impl_->intern_relation(in.relation);
  {
    Stmt sel(impl_->db,
             "SELECT id FROM edges WHERE source=? AND target=? AND relation=? AND directed=?");
    sel.bind(1, src).bind(2, dst).bind(3, rel).bind(4, in.directed ? 1 : 0);
    if (sel.step()) return sel.col_int(0);
  }
  Stmt ins(impl_->db,
           "INSERT INTO edges(source, target, relation, directed, score, channels, evidence) "
           "VALUES(?,?,?,?,?,?,?)");
  ins.bind(1, src).bind(2, dst).bind(3, rel).bind(4, in.directed ? 1 : 0).bind(5, in.score);
  if (in.channels.empty()) {
    ins.bind_null(6);
  } else {
    nlohmann::json ch = nlohmann::json::object();
    for (auto &c : in.channels) {
      if (!(c.score >= 0.0 && c.score <= 1.0))
        throw Error(ErrorCode::invalid_argument,
                    "add_edge: channel '" + c.name + "' score is outside [0,1]");
      ch[c.name] = c.score;
    }
    ins.bind(6, dump_json(ch));
  }
  if (in.pmids.empty() && in.evidence.empty()) {
    ins.bind_null(7);
  } else {
    nlohmann::json ev = nlohmann::json::object();
    if (!in.pmids.empty()) ev["pmids"] = in.pmids;
    if (!in.evidence.empty()) ev["text"] = in.evidence;
    ins.bind(7, dump_json(ev));
  }
  ins.run();
  int64_t id = impl_->db.last_insert_rowid();
  impl_->bump_generation();
  sp.commit();
  return id;
}

void KnowledgeGraph::add_alias(int64_t node, std::string_view alias, std::string_view source) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->require_writable("add_alias");
  if (alias.empty()) throw Error(ErrorCode::invalid_argument, "add_alias: alias is empty");
  check_text(alias, "add_alias: alias");
  check_text(source, "add_alias: source");
  Savepoint sp(impl_->db);
  Stmt chk(impl_->db, "SELECT 1 FROM nodes WHERE id = ?");
  chk.bind(1, node);
  if (!chk.step())
    throw Error(ErrorCode::not_found, "add_alias: no node with id " + std::to_string(node));
  Stmt ins(impl_->db, "INSERT OR IGNORE INTO aliases(node_id, alias, source) VALUES(?,?,?)");
  ins.bind(1, node).bind(2, alias).bind(3, source).run();
  impl_->bump_generation();
  sp.commit();
}

void KnowledgeGraph::remove_dataset(int64_t dataset_id) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->require_writable("remove_dataset");
  auto &db = impl_->db;
  Savepoint sp(db);
  {
    Stmt chk(db, "SELECT 1 FROM datasets WHERE id = ?");
    chk.bind(1, dataset_id);
    if (!chk.step())
      throw Error(ErrorCode::not_found, "no dataset with id " + std::to_string(dataset_id));
  }
  // Edges only this dataset contributed go; edges another dataset also contributed pass to it.
  {
    Stmt st(db,
            "DELETE FROM edges WHERE dataset_id = ?1 AND NOT EXISTS (SELECT 1 FROM edge_claims c "
            "WHERE c.edge_id = edges.id AND c.dataset_id <> ?1)");
    st.bind(1, dataset_id).run();
  }
  {
    Stmt st(db,
            "UPDATE edges SET dataset_id = (SELECT min(c.dataset_id) FROM edge_claims c "
            "WHERE c.edge_id = edges.id AND c.dataset_id <> ?1), "
            // (a co-occurrence graph's compact evidence is its own: the next dataset's is its record)
            "evidence = CASE WHEN typeof(evidence) = 'blob' THEN NULL ELSE evidence END WHERE dataset_id = ?1");
    st.bind(1, dataset_id).run();
  }
  {
    Stmt st(db,
            "DELETE FROM edge_claims WHERE dataset_id = ?1 OR EXISTS (SELECT 1 FROM edges e "
            "WHERE e.id = edge_claims.edge_id AND e.dataset_id = edge_claims.dataset_id)");
    st.bind(1, dataset_id).run();
  }
  // Node annotations the dataset set are cleared; nodes no other dataset names and no edge
  // uses go. Nodes added with add_node() are never claimed and never removed here.
  {
    Stmt st(db,
            "UPDATE nodes SET name = substr(external_id, instr(external_id, '.') + 1), "
            "annotation = '', size = 0, info_dataset = NULL WHERE info_dataset = ?");
    st.bind(1, dataset_id).run();
  }
  {
    Stmt st(db, "DELETE FROM aliases WHERE dataset_id = ?");
    st.bind(1, dataset_id).run();
  }
  {
    Stmt st(db,
            "DELETE FROM nodes WHERE id IN (SELECT node_id FROM node_claims WHERE dataset_id = ?1) "
            "AND id NOT IN (SELECT node_id FROM node_claims WHERE dataset_id <> ?1) "
            "AND id NOT IN (SELECT source FROM edges) AND id NOT IN (SELECT target FROM edges)");
    st.bind(1, dataset_id).run();
  }
  {
    Stmt st(db, "DELETE FROM node_claims WHERE dataset_id = ?");
    st.bind(1, dataset_id).run();
  }
  {
    Stmt st(db, "DELETE FROM datasets WHERE id = ?");
    st.bind(1, dataset_id).run();
  }
  impl_->bump_generation();
  sp.commit();
}

// ---- snapshot ------------------------------------------------------------------------------------

// ---- response cache ----------------------------------------------------------------------

std::optional<CachedResponse> KnowledgeGraph::cached_response(const std::string &key) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db,
          "SELECT model, template_version, kind, response, finish_reason, prompt_tokens, completion_tokens, created_at "
          "FROM llm_cache WHERE key = ?");
  st.bind(1, key);
  if (!st.step()) return std::nullopt;
  CachedResponse r;
  r.key = key;
  r.model = st.col_text(0);
  r.template_version = st.col_text(1);
  r.kind = st.col_text(2);
  r.content = st.col_text(3);
  r.finish_reason = st.col_text(4);
  r.prompt_tokens = st.col_int(5);
  r.completion_tokens = st.col_int(6);
  r.created_at = st.col_text(7);
  return r;
}

void KnowledgeGraph::cache_responses(const std::vector<CachedResponse> &responses) {
  if (responses.empty()) return;
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->require_writable("cache_responses");
  Savepoint sp(impl_->db, "grappi_cache");
  Stmt ins(impl_->db,
           "INSERT OR REPLACE INTO llm_cache(key, model, template_version, kind, response, finish_reason, "
           "prompt_tokens, completion_tokens, created_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const std::string now = detail::utc_now();
  for (const auto &r : responses) {
    if (r.key.empty()) throw Error(ErrorCode::invalid_argument, "cache_responses: empty key");
    ins.bind(1, r.key)
        .bind(2, r.model)
        .bind(3, r.template_version)
        .bind(4, r.kind)
        .bind(5, r.content)
        .bind(6, r.finish_reason)
        .bind(7, r.prompt_tokens)
        .bind(8, r.completion_tokens)
        .bind(9, r.created_at.empty() ? now : r.created_at)
        .run();
  }
  sp.commit();
}

std::size_t KnowledgeGraph::clear_response_cache(const std::string &model) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->require_writable("clear_response_cache");
  Savepoint sp(impl_->db, "grappi_cache");
  Stmt del(impl_->db, model.empty() ? "DELETE FROM llm_cache" : "DELETE FROM llm_cache WHERE model = ?");
  if (!model.empty()) del.bind(1, model);
  del.run();
  Stmt ch(impl_->db, "SELECT changes()");
  ch.step();
  auto n = static_cast<std::size_t>(ch.col_int(0));
  sp.commit();
  return n;
}

std::size_t KnowledgeGraph::response_cache_size() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db, "SELECT count(*) FROM llm_cache");
  st.step();
  return static_cast<std::size_t>(st.col_int(0));
}

bool KnowledgeGraph::read_only() const { return impl_->read_only; }

std::shared_ptr<const GraphSnapshot> KnowledgeGraph::snapshot() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  uint64_t gen = impl_->generation();
  if (impl_->snapshot && impl_->snapshot->generation() == gen) return impl_->snapshot;
  impl_->snapshot = detail::build_snapshot(impl_->db, gen, impl_->snapshot_cache);
  return impl_->snapshot;
}

}  // namespace grappi
