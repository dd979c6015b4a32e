// ImportWriter (import_writer.hpp): the database side of every importer of a non-STRING format.
#include "store/import_writer.hpp"

#include "grappi/error.hpp"
#include "grappi/json_text.hpp"

namespace grappi::detail {

namespace {

std::string base_name_of(const std::string &path) {
  const std::size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

ImportWriter::ImportWriter(KnowledgeGraph::Impl &impl, const std::string &path, const std::string &kind,
                           uint64_t file_size, const nlohmann::json &options)
    : impl_(impl), db_(impl.db), kind_(kind) {
  sp_ = std::make_unique<Savepoint>(db_, "grappi_file");
  Stmt ins(db_, "INSERT INTO datasets(name, path, file_size, sha256, format, options, imported_at) VALUES(?,?,?,'',?,?,?)");
  ins.bind(1, base_name_of(path)).bind(2, path).bind(3, static_cast<int64_t>(file_size)).bind(4, kind)
      .bind(5, dump_json(options)).bind(6, utc_now()).run();
  dataset_ = db_.last_insert_rowid();
  rep_.path = path;
  rep_.kind = kind;
  rep_.dataset_id = dataset_;
}

ImportWriter::~ImportWriter() = default;

std::optional<int64_t> ImportWriter::find(std::string_view external_id) {
  if (auto it = known_.find(std::string(external_id)); it != known_.end()) return it->second;
  if (!find_) find_ = std::make_unique<Stmt>(db_, "SELECT id FROM nodes WHERE external_id = ?");
  find_->reset();
  find_->bind(1, external_id);
  std::optional<int64_t> id;
  if (find_->step()) id = find_->col_int(0);
  find_->reset();
  return id;
}

void ImportWriter::claim_node(int64_t id) {
  if (!claim_) claim_ = std::make_unique<Stmt>(db_, "INSERT OR IGNORE INTO node_claims(node_id, dataset_id) VALUES(?,?)");
  claim_->bind(1, id).bind(2, dataset_).run();
}

int64_t ImportWriter::define_node(const NodeInput &n, int64_t taxon) {
  const std::string name = n.name.empty() ? n.external_id : n.name;
  int64_t id;
  if (auto existing = find(n.external_id)) {
    id = *existing;
    if (!update_node_)
      update_node_ = std::make_unique<Stmt>(
          db_, "UPDATE nodes SET name = ?, label = ?, annotation = ?, attributes = ?, info_dataset = ? WHERE id = ?");
    update_node_->bind(1, name).bind(2, n.label).bind(3, n.annotation).bind(4, n.attributes).bind(5, dataset_)
        .bind(6, id).run();
    ++rep_.nodes_updated;
  } else {
    if (!insert_node_)
      insert_node_ = std::make_unique<Stmt>(
          db_, "INSERT INTO nodes(external_id, name, label, annotation, size, attributes, taxon, info_dataset) "
               "VALUES(?,?,?,?,?,?,?,?)");
    insert_node_->bind(1, n.external_id).bind(2, name).bind(3, n.label).bind(4, n.annotation).bind(5, n.size)
        .bind(6, n.attributes).bind(7, taxon).bind(8, dataset_).run();
    id = db_.last_insert_rowid();
    ++rep_.nodes_created;
  }
  claim_node(id);
  known_[n.external_id] = id;
  return id;
}

int64_t ImportWriter::reference_node(std::string_view external_id, const std::string &label) {
  if (auto it = known_.find(std::string(external_id)); it != known_.end()) return it->second;  // claimed already
  if (auto existing = find(external_id)) {
    claim_node(*existing);
    known_.emplace(std::string(external_id), *existing);
    return *existing;
  }
  if (!insert_node_)
    insert_node_ = std::make_unique<Stmt>(
        db_, "INSERT INTO nodes(external_id, name, label, annotation, size, attributes, taxon, info_dataset) "
             "VALUES(?,?,?,?,?,?,?,?)");
  insert_node_->bind(1, external_id).bind(2, external_id).bind(3, label).bind(4, "").bind(5, int64_t{0})
      .bind(6, "{}").bind(7, int64_t{0}).bind_null(8).run();
  const int64_t id = db_.last_insert_rowid();
  ++rep_.nodes_created;
  ++rep_.referenced_nodes_created;
  claim_node(id);
  known_.emplace(std::string(external_id), id);
  return id;
}

std::vector<std::pair<int64_t, int64_t>> ImportWriter::nodes_named(std::string_view id) {
  std::vector<std::pair<int64_t, int64_t>> out;
  if (id.empty()) return out;
  if (auto n = find(id)) {
    if (!taxon_) taxon_ = std::make_unique<Stmt>(db_, "SELECT taxon FROM nodes WHERE id = ?");
    taxon_->reset();
    taxon_->bind(1, *n);
    taxon_->step();
    out.emplace_back(*n, taxon_->col_int(0));
    taxon_->reset();
    return out;
  }
  // The alias index is case-insensitive; the comparison that decides is exact.
  if (!by_alias_)
    by_alias_ = std::make_unique<Stmt>(
        db_, "SELECT DISTINCT a.node_id, n.taxon FROM aliases a JOIN nodes n ON n.id = a.node_id "
             "WHERE a.alias = ?1 COLLATE NOCASE AND a.alias = ?1 AND (a.dataset_id IS NULL OR a.dataset_id <> ?2) "
             "AND a.source NOT LIKE 'obo:synonym%' ORDER BY a.node_id");
  by_alias_->reset();
  by_alias_->bind(1, id).bind(2, dataset_);
  while (by_alias_->step()) out.emplace_back(by_alias_->col_int(0), by_alias_->col_int(1));
  by_alias_->reset();
  return out;
}

std::vector<std::pair<int64_t, int64_t>> ImportWriter::nodes_with_name(std::string_view name) {
  std::vector<std::pair<int64_t, int64_t>> out;
  if (name.empty()) return out;
  // The name index is case-insensitive; the comparison that decides is exact.
  if (!by_name_)
    by_name_ = std::make_unique<Stmt>(
        db_, "SELECT id, taxon FROM nodes WHERE name = ?1 COLLATE NOCASE AND name = ?1 ORDER BY id");
  by_name_->reset();
  by_name_->bind(1, name);
  while (by_name_->step()) out.emplace_back(by_name_->col_int(0), by_name_->col_int(1));
  by_name_->reset();
  return out;
}

std::optional<int64_t> ImportWriter::join(const std::vector<std::string> &keys, int64_t taxon, bool &ambiguous) {
  ambiguous = false;
  for (const auto &k : keys) {
    const auto found = nodes_named(k);
    if (found.size() == 1) return found[0].first;
    if (found.size() > 1) {
      std::optional<int64_t> same;
      int n = 0;
      for (const auto &[node, t] : found)
        if (taxon != 0 && t == taxon) {
          same = node;
          ++n;
        }
      if (n == 1) return same;
      ambiguous = true;  // a less trusted key does not overrule an ambiguous one
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<int64_t> ImportWriter::join_by_name(std::string_view name, int64_t taxon, bool &ambiguous) {
  std::vector<int64_t> named;
  for (const auto &[id, tx] : nodes_with_name(name))
    if (taxon == 0 || tx == taxon) named.push_back(id);
  if (named.size() > 1) ambiguous = true;
  if (named.size() == 1) return named[0];
  return std::nullopt;
}

void ImportWriter::bad_line(uint64_t line, const std::string &problem, const ImportOptions &options) {
  const std::string where = rep_.path + ":" + std::to_string(line) + ": " + problem;
  if (!options.skip_bad_lines) throw Error(ErrorCode::parse, where);
  ++rep_.rows_skipped;
  if (rep_.bad_line_examples.size() < options.max_bad_examples) rep_.bad_line_examples.push_back(where);
}

void ImportWriter::add_evidence(int64_t edge, uint64_t line, const std::string &record_json, std::string_view raw) {
  if (!evidence_)
    evidence_ = std::make_unique<Stmt>(
        db_, "INSERT INTO edge_evidence(edge_id, dataset_id, line, record, raw) VALUES(?,?,?,?,?)");
  evidence_->bind(1, edge).bind(2, dataset_).bind(3, static_cast<int64_t>(line)).bind(4, record_json).bind(5, raw).run();
}

void ImportWriter::add_node_evidence(int64_t node, uint64_t line, const std::string &record_json, std::string_view raw) {
  if (!node_evidence_)
    node_evidence_ = std::make_unique<Stmt>(
        db_, "INSERT INTO node_evidence(node_id, dataset_id, line, record, raw) VALUES(?,?,?,?,?)");
  node_evidence_->bind(1, node).bind(2, dataset_).bind(3, static_cast<int64_t>(line)).bind(4, record_json).bind(5, raw).run();
}

void ImportWriter::add_alias(int64_t node, std::string_view alias, std::string_view source) {
  if (alias.empty()) return;
  if (!alias_)
    alias_ = std::make_unique<Stmt>(db_, "INSERT OR IGNORE INTO aliases(node_id, alias, source, dataset_id) VALUES(?,?,?,?)");
  alias_->bind(1, node).bind(2, alias).bind(3, source).bind(4, dataset_).run();
  if (db_.changes() > 0) ++rep_.aliases_created;
}

int64_t ImportWriter::relation_id(std::string_view name) {
  auto it = relations_.find(std::string(name));
  if (it != relations_.end()) return it->second;
  const int64_t id = impl_.intern_relation(name);
  relations_.emplace(std::string(name), id);
  return id;
}

int64_t ImportWriter::add_edge(int64_t source, int64_t target, std::string_view relation, bool directed, double score,
                               const std::string &evidence_json, const std::string &channels_json) {
  if (!directed && source > target) std::swap(source, target);
  const int64_t rel = relation_id(relation);
  if (!find_edge_)
    find_edge_ = std::make_unique<Stmt>(
        db_, "SELECT id, dataset_id FROM edges WHERE source = ? AND target = ? AND relation = ? AND directed = ?");
  find_edge_->reset();
  find_edge_->bind(1, source).bind(2, target).bind(3, rel).bind(4, directed ? 1 : 0);
  if (find_edge_->step()) {
    const int64_t id = find_edge_->col_int(0), owner = find_edge_->col_null(1) ? 0 : find_edge_->col_int(1);
    find_edge_->reset();
    if (owner != dataset_) {
      if (!claim_edge_)
        claim_edge_ = std::make_unique<Stmt>(db_, "INSERT OR IGNORE INTO edge_claims(edge_id, dataset_id) VALUES(?,?)");
      claim_edge_->bind(1, id).bind(2, dataset_).run();
    } else {
      // Met again in this file: the best score stands (another dataset's edge keeps its own).
      if (!score_) score_ = std::make_unique<Stmt>(db_, "UPDATE edges SET score = ? WHERE id = ? AND score < ?");
      score_->bind(1, score).bind(2, id).bind(3, score).run();
    }
    ++rep_.edges_existing;
    return id;
  }
  find_edge_->reset();
  if (!insert_edge_)
    insert_edge_ = std::make_unique<Stmt>(
        db_, "INSERT INTO edges(source, target, relation, directed, score, channels, evidence, dataset_id) "
             "VALUES(?,?,?,?,?,?,?,?)");
  insert_edge_->bind(1, source).bind(2, target).bind(3, rel).bind(4, directed ? 1 : 0).bind(5, score);
  if (channels_json.empty()) insert_edge_->bind_null(6);
  else insert_edge_->bind(6, channels_json);
  if (evidence_json.empty()) insert_edge_->bind_null(7);
  else insert_edge_->bind(7, evidence_json);
  insert_edge_->bind(8, dataset_).run();
  ++rep_.edges_created;
  return db_.last_insert_rowid();
}

void ImportWriter::set_file_size(uint64_t bytes) {
  Stmt upd(db_, "UPDATE datasets SET file_size = ? WHERE id = ?");
  upd.bind(1, static_cast<int64_t>(bytes)).bind(2, dataset_).run();
}

void ImportWriter::set_options(const nlohmann::json &options) {
  Stmt upd(db_, "UPDATE datasets SET options = ? WHERE id = ?");
  upd.bind(1, dump_json(options)).bind(2, dataset_).run();
}

FileReport ImportWriter::finish(const std::string &sha256, double seconds) {
  rep_.seconds = seconds;
  {
    Stmt same(db_, "SELECT id FROM datasets WHERE sha256 = ? AND format = ? AND id <> ?");
    same.bind(1, sha256).bind(2, kind_).bind(3, dataset_);
    if (same.step()) {
      FileReport r;
      r.path = rep_.path;
      r.kind = kind_;
      r.dataset_id = same.col_int(0);
      r.already_imported = true;
      r.lines = rep_.lines;
      r.seconds = seconds;
      sp_.reset();  // rolls this file back
      return r;
    }
  }
  nlohmann::json counts = {{"lines", rep_.lines},
                           {"nodes_created", rep_.nodes_created},
                           {"nodes_updated", rep_.nodes_updated},
                           {"referenced_nodes_created", rep_.referenced_nodes_created},
                           {"edges_created", rep_.edges_created},
                           {"edges_existing", rep_.edges_existing},
                           {"aliases_created", rep_.aliases_created}};
  for (const auto &[k, v] : rep_.details) counts[k] = v;
  Stmt upd(db_, "UPDATE datasets SET sha256 = ?, counts = ?, seconds = ? WHERE id = ?");
  upd.bind(1, sha256).bind(2, dump_json(counts)).bind(3, seconds).bind(4, dataset_).run();
  sp_->commit();
  return rep_;
}

}  // namespace grappi::detail
