// STRING importers: protein.info, protein.aliases, protein.links (plain, detailed, physical),
// protein.actions and website exports, plain or gzipped, merged into the knowledge graph.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <deque>
#include <nlohmann/json.hpp>
#include <regex>
#include <unordered_map>
#include <unordered_set>

#include "graph_impl.hpp"
#include "grappi/error.hpp"
#include "text_reader.hpp"

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

std::string string_version_of(const std::string &path) {
  static const std::regex re("\\.v([0-9]+(\\.[0-9]+)?)\\.");
  std::smatch m;
  std::string name = base_name(path);
  if (std::regex_search(name, m, re)) return m[1].str();
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

struct PendingEdge {
  uint32_t a, b;  // local node indices (source, target; undirected: either order)
  uint32_t row;   // index of this row's score/channels
  uint16_t rel;   // local relation index
  uint8_t directed;
};

class BadLine : public std::exception {};

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
    map_.emplace(k, local);
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

  // Local index of a STRING id; creates the node when its organism has no info file.
  uint32_t node_for(std::string_view ext, std::string_view name_hint) {
    auto it = map_.find(ext);
    int64_t taxon = detail::taxon_of(ext);
    if (taxon == 0) bad("'" + std::string(ext.substr(0, 80)) + "' is not a STRING protein id (TAXON.IDENTIFIER)");
    note_taxon(taxon);
    if (it != map_.end()) {
      if (info_taxa_.count(taxon) && !has_info_[it->second])
        bad("unknown protein id '" + std::string(ext) + "': not among the proteins of the imported info file for taxon " + std::to_string(taxon));
      touch(it->second);
      return it->second;
    }
    if (info_taxa_.count(taxon))
      bad("unknown protein id '" + std::string(ext) + "': not among the proteins of the imported info file for taxon " + std::to_string(taxon));
    if (!detail::valid_utf8(name_hint)) bad("invalid UTF-8");
    std::string_view name = name_hint.empty() ? ext.substr(ext.find('.') + 1) : name_hint;
    if (!ins_node_) ins_node_ = std::make_unique<Stmt>(db_, "INSERT INTO nodes(external_id, name, label, taxon) VALUES(?,?,'Protein',?)");
    ins_node_->bind(1, ext).bind(2, name).bind(3, taxon).run();
    uint32_t local = intern_local(ext, db_.last_insert_rowid());
    ++rep_.nodes_created;
    touch(local);
    return local;
  }

  void touch(uint32_t local) {
    if (touched_.size() < ids_.size()) touched_.resize(ids_.size(), 0);
    touched_[local] = 1;
  }

  void note_taxon(int64_t taxon) {
    if (rep_.taxon == -1) rep_.taxon = taxon;
    else if (rep_.taxon != taxon) rep_.taxon = 0;
  }

  void progress(const char *stage) {
    if (opt_.progress)
      opt_.progress(ImportProgress{reader_->path(), reader_->bytes_read(), reader_->file_size(), stage});
  }

  void import_info();
  void import_aliases();
  void import_links(StringFormat f, const std::vector<std::string> &columns);
  void import_actions();
  void write_edges(std::vector<PendingEdge> &edges, const std::vector<float> &scores,
                   const std::vector<float> &channels, std::size_t nch,
                   const std::vector<std::string> &channel_names,
                   const std::vector<std::string> &relation_names,
                   const std::vector<std::string> &evidence);
  void claim_nodes();

  KnowledgeGraph::Impl &impl_;
  detail::Db &db_;
  const ImportOptions &opt_;
  std::deque<std::string> keys_;
  std::unordered_map<std::string_view, uint32_t> map_;
  std::vector<int64_t> ids_;
  std::vector<char> has_info_;
  std::vector<char> touched_;
  std::unordered_set<int64_t> info_taxa_;
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
  rep_.taxon = -1;
  rep_.string_version = string_version_of(src.path);
  touched_.assign(ids_.size(), 0);
  const std::size_t first_new_local = ids_.size();
  reader_ = std::make_unique<LineReader>(src.path);
  std::string_view header;
  reader_->next(header);  // checked by the caller

  nlohmann::json options = {{"min_score", opt_.min_score}, {"skip_bad_lines", opt_.skip_bad_lines},
                            {"format", to_string(format)}};
  Savepoint sp(db_, "grappi_file");
  {
    Stmt ins(db_, "INSERT INTO datasets(name, path, file_size, sha256, format, string_version, options, imported_at) "
                  "VALUES(?,?,?,'',?,?,?,?)");
    ins.bind(1, base_name(src.path)).bind(2, src.path).bind(3, static_cast<int64_t>(reader_->file_size()))
        .bind(4, to_string(format)).bind(5, rep_.string_version).bind(6, options.dump())
        .bind(7, detail::utc_now()).run();
    dataset_ = db_.last_insert_rowid();
  }
  rep_.dataset_id = dataset_;
  switch (format) {
    case StringFormat::info: import_info(); break;
    case StringFormat::aliases: import_aliases(); break;
    case StringFormat::actions: import_actions(); break;
    default: import_links(format, columns); break;
  }
  if (rep_.lines == 0 && rep_.rows_skipped == 0)
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
  upd.bind(1, sha).bind(2, rep_.taxon).bind(3, counts.dump()).bind(4, rep_.seconds).bind(5, dataset_).run();
  sp.commit();
  if (format == StringFormat::info) refresh_info_taxa();
  progress("done");
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
      auto it = map_.find(f[0]);
      if (it != map_.end()) {
        upd.bind(1, f[1]).bind(2, size).bind(3, ann).bind(4, dataset_).bind(5, ids_[it->second]).run();
        ++rep_.nodes_updated;
        has_info_[it->second] = 1;
        touch(it->second);
      } else {
        ins.bind(1, f[0]).bind(2, f[1]).bind(3, ann).bind(4, size).bind(5, taxon).bind(6, dataset_).run();
        uint32_t local = intern_local(f[0], db_.last_insert_rowid());
        has_info_[local] = 1;
        ++rep_.nodes_created;
        touch(local);
      }
    } catch (const BadLine &) {
    }
    if ((rep_.lines & 0xFFFF) == 0) progress("reading");
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
      ins.bind(1, ids_[local]).bind(2, f[1]).bind(3, f[2]).bind(4, dataset_).run();
      rep_.aliases_created += static_cast<uint64_t>(db_.changes());
    } catch (const BadLine &) {
    }
    if ((rep_.lines & 0xFFFF) == 0) progress("reading");
  }
}

void Importer::import_links(StringFormat format, const std::vector<std::string> &columns) {
  const bool exported = format == StringFormat::web_export;
  const char sep = exported ? '\t' : ' ';
  const std::size_t ncols = columns.size();
  // Channel columns: between the ids and combined_score.
  const std::size_t first_ch = exported ? 4 : 2;
  const std::size_t nch = ncols - 1 - first_ch;
  std::vector<std::string> channel_names;
  for (std::size_t i = first_ch; i + 1 < ncols; ++i) channel_names.push_back(canonical_channel(columns[i]));
  const std::string relation =
      (format == StringFormat::physical || format == StringFormat::physical_detailed) ? "string.physical" : "string.combined";
  std::vector<PendingEdge> edges;
  std::vector<float> scores, channels;
  std::vector<std::string_view> f(ncols + 1);
  std::string_view line;
  std::string last_a;
  uint32_t last_a_local = 0;
  bool have_last = false;
  while (reader_->next(line)) {
    if (line.empty()) continue;
    ++rep_.lines;
    try {
      if (!detail::valid_utf8(line)) bad("invalid UTF-8");
      std::size_t n = split(line, sep, f.data(), f.size());
      if (n != ncols) bad("expected " + std::to_string(ncols) + (exported ? " tab" : " space") + "-separated columns, found " + std::to_string(n));
      double score;
      int64_t iscore = 0;
      if (exported) {
        if (!parse_double(f[ncols - 1], score) || score < 0 || score > 1)
          bad("combined_score '" + std::string(f[ncols - 1].substr(0, 40)) + "' is not a number in [0,1]");
      } else {
        if (!parse_int(f[ncols - 1], iscore) || iscore < 0 || iscore > 1000)
          bad("combined_score '" + std::string(f[ncols - 1].substr(0, 40)) + "' is not an integer in [0,1000]");
        score = static_cast<double>(iscore) / 1000.0;
      }
      float ch[32];
      for (std::size_t k = 0; k < nch && k < 32; ++k) {
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
      if (exported ? score * 1000.0 + 1e-9 < opt_.min_score : iscore < opt_.min_score) {
        ++rep_.rows_below_min_score;
        continue;
      }
      if (scores.size() >= std::numeric_limits<uint32_t>::max()) bad("too many rows");
      edges.push_back(PendingEdge{a, b, static_cast<uint32_t>(scores.size()), 0, 0});
      scores.push_back(static_cast<float>(score));
      channels.insert(channels.end(), ch, ch + std::min<std::size_t>(nch, 32));
    } catch (const BadLine &) {
    }
    if ((rep_.lines & 0xFFFFF) == 0) progress("reading");
  }
  if (nch > 32) throw Error(ErrorCode::parse, reader_->path() + ": more than 32 channel columns");
  write_edges(edges, scores, channels, nch, channel_names, {relation}, {});
}

void Importer::import_actions() {
  std::vector<PendingEdge> edges;
  std::vector<float> scores, channels;
  std::vector<std::string> relations, evidence;
  std::unordered_map<std::string, uint16_t> rel_of;
  std::unordered_map<std::string, uint32_t> ev_of;
  std::string_view line, f[8];
  while (reader_->next(line)) {
    if (line.empty()) continue;
    ++rep_.lines;
    try {
      if (!detail::valid_utf8(line)) bad("invalid UTF-8");
      std::size_t n = split(line, '\t', f, 8);
      if (n != 7) bad("expected 7 tab-separated columns (item_id_a, item_id_b, mode, action, is_directional, a_is_acting, score), found " + std::to_string(n));
      std::string_view mode = f[2], action = f[3];
      if (mode.empty() || mode.size() > 40 ||
          !std::all_of(mode.begin(), mode.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; }))
        bad("mode '" + std::string(mode.substr(0, 40)) + "' is not a STRING action mode");
      auto tf = [&](std::string_view v, const char *col) {
        if (v == "t" || v == "1" || v == "true") return true;
        if (v == "f" || v == "0" || v == "false" || v.empty()) return false;
        bad(std::string(col) + " '" + std::string(v.substr(0, 20)) + "' is not t or f");
      };
      bool directional = tf(f[4], "is_directional"), a_acting = tf(f[5], "a_is_acting");
      int64_t iscore;
      if (!parse_int(f[6], iscore) || iscore < 0 || iscore > 1000)
        bad("score '" + std::string(f[6].substr(0, 40)) + "' is not an integer in [0,1000]");
      uint32_t a = node_for(f[0], {}), b = node_for(f[1], {});
      if (iscore < opt_.min_score) {
        ++rep_.rows_below_min_score;
        continue;
      }
      std::string rel = "string.action." + std::string(mode);
      auto r = rel_of.find(rel);
      if (r == rel_of.end()) {
        if (relations.size() >= 65535) bad("too many action modes");
        r = rel_of.emplace(rel, static_cast<uint16_t>(relations.size())).first;
        relations.push_back(rel);
      }
      PendingEdge e{a, b, static_cast<uint32_t>(scores.size()), r->second, 0};
      if (directional) {
        e.directed = 1;
        if (!a_acting) std::swap(e.a, e.b);  // the row lists the acted-upon protein first
      }
      edges.push_back(e);
      scores.push_back(static_cast<float>(iscore) / 1000.0f);
      std::string ev = (!action.empty() && action != mode) ? "action: " + std::string(action) : "";
      auto ei = ev_of.find(ev);
      if (ei == ev_of.end()) {
        ei = ev_of.emplace(ev, static_cast<uint32_t>(evidence.size())).first;
        evidence.push_back(ev);
      }
      channels.push_back(static_cast<float>(ei->second));  // evidence index rides in the channel slot
    } catch (const BadLine &) {
    }
  }
  write_edges(edges, scores, channels, 1, {}, relations, evidence);
}

// Sorts by (source id, target id, relation, direction), merges duplicates (the two listed
// directions of a STRING link, repeated rows) and writes in index order.
void Importer::write_edges(std::vector<PendingEdge> &edges, const std::vector<float> &scores,
                           const std::vector<float> &channels, std::size_t nch,
                           const std::vector<std::string> &channel_names,
                           const std::vector<std::string> &relation_names,
                           const std::vector<std::string> &evidence) {
  progress("writing");
  const bool evidence_mode = !evidence.empty();
  // Rank locals by node id so that the insertion order follows the unique index.
  const std::size_t nl = ids_.size();
  std::vector<uint32_t> order(nl), rank(nl);
  for (uint32_t i = 0; i < nl; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return ids_[x] < ids_[y]; });
  for (uint32_t r = 0; r < nl; ++r) rank[order[r]] = r;
  for (auto &e : edges) {
    e.a = rank[e.a];
    e.b = rank[e.b];
    if (!e.directed && e.a > e.b) std::swap(e.a, e.b);
  }
  // Bucket by source rank (counting sort), then sort each bucket.
  std::vector<uint64_t> start(nl + 1, 0);
  for (auto &e : edges) ++start[e.a + 1];
  for (std::size_t i = 0; i < nl; ++i) start[i + 1] += start[i];
  std::vector<PendingEdge> sorted(edges.size());
  {
    std::vector<uint64_t> pos(start.begin(), start.end() - 1);
    for (auto &e : edges) sorted[pos[e.a]++] = e;
  }
  std::vector<PendingEdge>().swap(edges);
  auto key_less = [](const PendingEdge &x, const PendingEdge &y) {
    if (x.b != y.b) return x.b < y.b;
    if (x.rel != y.rel) return x.rel < y.rel;
    if (x.directed != y.directed) return x.directed < y.directed;
    return x.row < y.row;
  };
  for (std::size_t i = 0; i < nl; ++i)
    if (start[i + 1] - start[i] > 1)
      std::sort(sorted.begin() + static_cast<std::ptrdiff_t>(start[i]),
                sorted.begin() + static_cast<std::ptrdiff_t>(start[i + 1]), key_less);

  std::vector<int64_t> rel_ids;
  for (auto &r : relation_names) rel_ids.push_back(impl_.intern_relation(r));
  Stmt ins(db_, "INSERT OR IGNORE INTO edges(source, target, relation, directed, score, channels, evidence, dataset_id) "
                "VALUES(?,?,?,?,?,?,?,?)");
  Stmt sel(db_, "SELECT id, dataset_id, channels IS NULL FROM edges WHERE source=? AND target=? AND relation=? AND directed=?");
  Stmt claim(db_, "INSERT OR IGNORE INTO edge_claims(edge_id, dataset_id) VALUES(?, ?)");
  Stmt fill(db_, "UPDATE edges SET channels = ? WHERE id = ?");
  std::string chbuf;
  auto channels_json = [&](uint32_t row) -> const std::string & {
    chbuf = "{";
    char num[32];
    for (std::size_t k = 0; k < nch; ++k) {
      if (k) chbuf += ',';
      chbuf += '"';
      chbuf += channel_names[k];
      chbuf += "\":";
      auto r = std::to_chars(num, num + sizeof num, channels[row * nch + k]);
      chbuf.append(num, r.ptr);
    }
    chbuf += '}';
    return chbuf;
  };
  const std::size_t m = sorted.size();
  std::size_t i = 0;
  uint64_t written = 0;
  while (i < m) {
    // Merge the run of identical keys.
    std::size_t j = i + 1;
    uint32_t best = sorted[i].row;
    while (j < m && sorted[j].a == sorted[i].a && sorted[j].b == sorted[i].b &&
           sorted[j].rel == sorted[i].rel && sorted[j].directed == sorted[i].directed) {
      if (scores[sorted[j].row] != scores[best]) {
        ++rep_.score_conflicts;
        if (scores[sorted[j].row] > scores[best]) best = sorted[j].row;
      }
      ++j;
    }
    const PendingEdge &e = sorted[i];
    const int64_t src = ids_[order[e.a]], dst = ids_[order[e.b]];
    ins.bind(1, src).bind(2, dst).bind(3, rel_ids[e.rel]).bind(4, static_cast<int64_t>(e.directed))
        .bind(5, static_cast<double>(scores[best]));
    const bool has_channels = !evidence_mode && nch > 0;
    if (has_channels) ins.bind(6, channels_json(best)); else ins.bind_null(6);
    const std::string *ev = evidence_mode ? &evidence[static_cast<std::size_t>(channels[best])] : nullptr;
    if (ev && !ev->empty()) ins.bind(7, nlohmann::json{{"text", *ev}}.dump()); else ins.bind_null(7);
    ins.bind(8, dataset_).run();
    if (db_.changes() == 1) {
      ++rep_.edges_created;
    } else {
      ++rep_.edges_existing;
      sel.bind(1, src).bind(2, dst).bind(3, rel_ids[e.rel]).bind(4, static_cast<int64_t>(e.directed));
      if (sel.step()) {
        int64_t eid = sel.col_int(0), owner = sel.col_int(1);
        bool no_channels = sel.col_int(2) != 0;
        sel.reset();
        if (owner != dataset_) claim.bind(1, eid).bind(2, dataset_).run();
        if (has_channels && no_channels) fill.bind(1, channels_json(best)).bind(2, eid).run();
      } else {
        sel.reset();
      }
    }
    if ((++written & 0xFFFFF) == 0) progress("writing");
    i = j;
  }
}

}  // namespace

ImportReport KnowledgeGraph::import_string(const std::vector<ImportSource> &sources, const ImportOptions &options) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->require_writable("import");
  if (sources.empty()) throw Error(ErrorCode::invalid_argument, "import: no files given");
  if (options.min_score < 0 || options.min_score > 1000)
    throw Error(ErrorCode::invalid_argument, "import: min_score " + std::to_string(options.min_score) +
                                                 " is outside STRING's 0-1000 scale");
  auto t0 = Clock::now();
  // Detect every file's format first, so that nothing is written when one is unreadable.
  struct Job {
    ImportSource src;
    StringFormat format;
    std::vector<std::string> columns;
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
                                        "' (not a STRING info, aliases, links, detailed, physical, actions or export file)");
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
    jobs.push_back(Job{s, f, d.columns});
  }
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job &a, const Job &b) { return order_of(a.format) < order_of(b.format); });
  ImportReport report;
  Savepoint tx(impl_->db, "grappi_import");
  Importer imp(*impl_, options);
  for (const auto &j : jobs) report.files.push_back(imp.run(j.src, j.format, j.columns));
  impl_->bump_generation();
  tx.commit();
  report.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return report;
}

}  // namespace grappi
