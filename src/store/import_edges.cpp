// Edge lists (format "edges"): two id columns and optional score and relation columns, tab,
// comma or blank separated, with or without a header (ImportOptions::edges says which columns;
// a header is recognised when it names them or when its score cell is not a number). Each id
// joins a stored node (external id, then an alias, then a preferred name; restricted to
// ImportOptions::taxon when set; an id naming several nodes joins none), else becomes a new node
// of EdgeListOptions::label named by the id, counted (referenced_nodes_created). HuRI's Ensembl
// gene pairs join STRING proteins after a mapping table gave them their ENSG aliases.
#include <charconv>
#include <chrono>
#include <cmath>
#include <unordered_map>

#include "grappi/error.hpp"
#include "store/import_writer.hpp"
#include "store/importers.hpp"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"

namespace grappi::detail {

namespace {

std::vector<std::string_view> fields(std::string_view line, char sep) {
  std::vector<std::string_view> out;
  if (sep == ' ') {
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i == line.size()) break;
      const std::size_t start = i;
      while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
      out.push_back(line.substr(start, i - start));
    }
    return out;
  }
  for (std::string_view f : split_view(line, sep)) {
    while (!f.empty() && (f.front() == ' ' || f.front() == '"')) f.remove_prefix(1);
    while (!f.empty() && (f.back() == ' ' || f.back() == '"' || f.back() == '\r')) f.remove_suffix(1);
    out.push_back(f);
  }
  return out;
}

std::optional<double> parse_number(std::string_view s) {
  double v = 0;
  const char *b = s.data(), *e = s.data() + s.size();
  auto [p, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || p != e || !std::isfinite(v)) return std::nullopt;
  return v;
}

// The file's name as a relation name: its stem, characters other than letters, digits, '_' and
// '-' replaced by '_'.
std::string relation_stem(const std::string &path) {
  const std::string b = file_stem(path, {".gz", ".tsv", ".csv", ".txt", ".edgelist", ".edges"});
  std::string r;
  for (char c : b) r += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ? c : '_';
  return r;
}

// Two header cells naming the two ends of an edge: the same word ending in 1/2 or a/b
// ("protein1 protein2", "gene_A gene_B", "node1 node2"), "source target" or "from to".
bool look_like_column_names(std::string_view a, std::string_view b) {
  std::string x(a), y(b);
  for (auto *s : {&x, &y})
    for (auto &c : *s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if ((x == "source" && y == "target") || (x == "from" && y == "to")) return true;
  if (x.size() < 2 || x.size() != y.size() || x.compare(0, x.size() - 1, y, 0, y.size() - 1) != 0) return false;
  for (char c : x.substr(0, x.size() - 1))
    if (!std::isalpha(static_cast<unsigned char>(c)) && c != '_' && c != ' ' && c != '-') return false;
  const char p = x.back(), q = y.back();
  return (p == '1' && q == '2') || (p == 'a' && q == 'b');
}

// The 0-based index of a column named by its header text or 1-based number; npos when unset.
std::size_t column_index(const std::string &spec, const std::vector<std::string_view> &header, bool has_header,
                         const std::string &path, const char *what) {
  if (spec.empty()) return std::string::npos;
  if (has_header)
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == spec) return i;
  std::size_t n = 0;
  const char *b = spec.data(), *e = spec.data() + spec.size();
  auto [p, ec] = std::from_chars(b, e, n);
  if (ec == std::errc() && p == e && n >= 1 && n <= header.size()) return n - 1;
  std::string cols;
  if (has_header)
    for (const auto &h : header) cols += (cols.empty() ? "" : ", ") + std::string(h);
  throw Error(ErrorCode::invalid_argument,
              path + ": the " + what + " column '" + spec + "' is neither a column of the header" +
                  (has_header ? " (" + cols + ")" : " (the file has none)") + " nor a number from 1 to " +
                  std::to_string(header.size()));
}

}  // namespace

FileReport import_edge_list_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options) {
  const auto t0 = std::chrono::steady_clock::now();
  const EdgeListOptions &o = options.edges;
  // (the options were checked before any file was read: detail::check_import_options)
  LineReader reader(path);
  reader.set_max_lines(options.max_rows);
  std::string_view line;
  if (!reader.next(line)) throw Error(ErrorCode::parse, path + ": empty file");
  if (!valid_utf8(line)) throw Error(ErrorCode::parse, path + ":1: first line is not valid UTF-8 text");
  std::string first(line);
  const char sep = o.separator ? o.separator
                               : first.find('\t') != std::string::npos ? '\t'
                               : first.find(',') != std::string::npos  ? ','
                                                                       : ' ';
  std::string_view head = first;
  const bool hash = !head.empty() && head.front() == '#';
  if (hash) head.remove_prefix(1);
  const auto cells = fields(head, sep);
  // A header names a configured column, starts with '#', or has a non-number where the score is.
  // (--header / --no-header decide before any of that.)
  bool has_header = o.header ? *o.header : hash;
  if (!o.header)
    for (const std::string *spec : {&o.source_column, &o.target_column, &o.score_column, &o.relation_column})
      for (const auto &c : cells)
        if (!spec->empty() && c == *spec && parse_number(*spec) == std::nullopt) has_header = true;
  const std::size_t src = column_index(o.source_column, cells, has_header, path, "source");
  const std::size_t dst = column_index(o.target_column, cells, has_header, path, "target");
  const std::size_t score_col = column_index(o.score_column, cells, has_header, path, "score");
  const std::size_t rel_col = column_index(o.relation_column, cells, has_header, path, "relation");
  if (src == std::string::npos || dst == std::string::npos || src == dst)
    throw Error(ErrorCode::invalid_argument, path + ": the source and target columns must be two different columns");
  if (!o.header && !has_header && score_col != std::string::npos && score_col < cells.size() &&
      !parse_number(cells[score_col]))
    has_header = true;
  if (!o.header && !has_header && src < cells.size() && dst < cells.size() &&
      look_like_column_names(cells[src], cells[dst]))
    has_header = true;
  const std::string relation = o.relation.empty() ? "edges." + relation_stem(path) : o.relation;
  const nlohmann::json opts = {{"format", "edges"},
                               {"source_column", o.source_column},
                               {"target_column", o.target_column},
                               {"score_column", o.score_column},
                               {"score_scale", o.score_scale},
                               {"relation_column", o.relation_column},
                               {"relation", relation},
                               {"directed", o.directed},
                               {"label", o.label},
                               {"separator", std::string(1, sep)},
                               {"header", has_header},
                               {"taxon", options.taxon},
                               {"skip_bad_lines", options.skip_bad_lines}};
  ImportWriter w(impl, path, "edges", reader.file_size(), opts);
  FileReport &rep = w.report();
  std::unordered_map<std::string, int64_t> nodes;
  uint64_t joined = 0, ambiguous = 0, self_loops = 0;
  const auto node_of = [&](std::string_view id) {
    const std::string key(id);
    auto it = nodes.find(key);
    if (it != nodes.end()) return it->second;
    std::vector<std::pair<int64_t, int64_t>> hits = w.nodes_named(key);
    if (hits.empty()) hits = w.nodes_with_name(key);
    std::vector<int64_t> ok;
    for (const auto &[n, t] : hits)
      if (options.taxon == 0 || t == 0 || t == options.taxon) ok.push_back(n);
    int64_t n;
    if (ok.size() == 1) {
      n = ok[0];
      ++joined;
    } else {
      ambiguous += ok.size() > 1 ? 1 : 0;
      // An id naming several nodes is made a node of its own only when none has it as its id.
      n = w.reference_node(key, o.label);
    }
    nodes.emplace(key, n);
    return n;
  };
  const std::size_t need = std::max({src, dst, score_col == std::string::npos ? 0 : score_col,
                                     rel_col == std::string::npos ? 0 : rel_col}) + 1;
  const auto row = [&](std::string_view text, uint64_t no) -> std::string {
    if (!valid_utf8(text)) return "invalid UTF-8";
    const auto f = fields(text, sep);
    if (f.size() < need)
      return "expected at least " + std::to_string(need) + " columns, found " + std::to_string(f.size());
    if (f[src].empty() || f[dst].empty()) return "an empty id";
    double score = 1.0;
    if (score_col != std::string::npos) {
      const auto v = parse_number(f[score_col]);
      if (!v) return "score '" + std::string(f[score_col].substr(0, 40)) + "' is not a number";
      score = *v / o.score_scale;
      if (score < 0 || score > 1)
        return "score " + std::string(f[score_col]) + " is outside [0, 1] after dividing by the scale " +
               fixed(o.score_scale, 0) + " (set the score scale, e.g. 1000 for STRING's 0-1000 scores)";
    }
    std::string rel = relation;
    if (rel_col != std::string::npos) {
      if (f[rel_col].empty()) return "an empty relation";
      rel = std::string(f[rel_col]);
    }
    const int64_t a = node_of(f[src]), b = node_of(f[dst]);
    self_loops += a == b ? 1 : 0;
    w.add_edge(a, b, rel, o.directed, score);  // a repeated pair keeps its best score
    (void)no;
    return {};
  };
  const auto handle = [&](std::string_view text, uint64_t no) {
    ++rep.lines;
    const std::string problem = row(text, no);
    if (!problem.empty()) w.bad_line(no, problem, options);
  };
  if (!has_header) handle(first, 1);
  while (reader.next(line)) {
    if (line.empty() || line.front() == '#') continue;
    handle(line, reader.line_number());
  }
  if (rep.lines == 0) throw Error(ErrorCode::parse, path + ": no edges after the header");
  rep.details = {{"ids_joined", joined}, {"ids_ambiguous", ambiguous}, {"self_loops", self_loops},
                 {"header", has_header ? 1u : 0u}};
  if (options.progress) options.progress(ImportProgress{path, reader.file_size(), reader.file_size(), "done"});
  return w.finish(reader.sha256_hex(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace grappi::detail
