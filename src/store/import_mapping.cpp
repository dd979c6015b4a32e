// Identifier mapping tables (format "mapping"): a tab-separated file with a header whose
// columns name identifier kinds (entrez_gene_id, symbol, ensembl_gene_ids, ensembl_protein_ids,
// uniprot_accessions, hgnc_id, string_id; several values in a cell joined by '|' or ';'), such
// as the gene table exported from Bioconductor's org.Hs.eg.db. Each row is joined to one stored
// node through its most specific identifiers first (STRING id, Ensembl protein, UniProt,
// Entrez, HGNC, Ensembl gene, then the symbol as a preferred name or alias); the joined node
// gains every identifier of the row as an alias, namespaced ("ncbigene:7157",
// "ensembl:ENSG00000141510", "uniprotkb:P04637") and bare, so that later imports (edge lists
// of Ensembl genes, MITAB files of UniProt accessions) and `resolve` find it. A mapping table
// describes identifiers, not entities: rows that join no node (or several) add nothing and
// are counted (rows_unmatched, rows_ambiguous). Two kinds of column describe the joined gene
// without joining it: synonyms (alias_symbols: NCBI's "HER2", "PPARgamma", "TAU"; ambiguous
// across genes, so never a key) and full names (gene_name: "interferon gamma") become aliases, and GO annotations (go_bp, go_mf, go_cc cells of
// "GO:0006915:IDA") become edges to the GO terms the database holds (go.involved_in,
// go.enables, go.located_in, the evidence codes on the edge; "ND", no data, is not an
// annotation).
#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "grappi/error.hpp"
#include "store/import_writer.hpp"
#include "store/importers.hpp"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"

namespace grappi::detail {

namespace {

// Identifier kinds in the order a row is joined by them (most specific first).
enum class IdKind { string_id, ensembl_protein, uniprot, entrez, hgnc, ensembl_gene, symbol, synonym, full_name };

struct KindInfo {
  IdKind kind;
  const char *name;       // in the report: joined_by_<name>
  const char *prefix;     // the namespace of the aliases added ("" for none)
  const char *headers[9]; // header names that mean this kind (lower case)
};

const KindInfo kKinds[] = {
    {IdKind::string_id, "string", "", {"string_id", "string_protein_id", "string", "string_ids"}},
    {IdKind::ensembl_protein, "ensembl_protein", "ensembl",
     {"ensembl_protein_ids", "ensembl_protein_id", "ensembl_protein", "ensp", "ensembl_peptide_id"}},
    {IdKind::uniprot, "uniprot", "uniprotkb",
     {"uniprot_accessions", "uniprot_accession", "uniprot", "uniprotkb", "uniprot_ac", "uniprot_ids", "uniprot_id"}},
    {IdKind::entrez, "entrez", "ncbigene",
     {"entrez_gene_id", "entrez_gene_ids", "entrez", "entrez_id", "entrezgene", "ncbigene", "ncbi_gene_id", "gene_id",
      "geneid"}},
    {IdKind::hgnc, "hgnc", "HGNC", {"hgnc_id", "hgnc_ids", "hgnc"}},
    {IdKind::ensembl_gene, "ensembl_gene", "ensembl",
     {"ensembl_gene_ids", "ensembl_gene_id", "ensembl_gene", "ensg", "ensembl"}},
    {IdKind::symbol, "symbol", "", {"symbol", "gene_symbol", "hgnc_symbol", "preferred_name", "symbols"}},
    // (not a key: aliases of the joined node only)
    {IdKind::synonym, "synonym", "", {"alias_symbols", "alias_symbol", "synonyms", "synonym", "gene_synonyms", "aliases"}},
    // (full names, "interferon gamma": aliases too, never keys)
    {IdKind::full_name, "full_name", "", {"gene_name", "full_name", "full_names", "gene_full_name", "protein_name"}},
};

// GO annotation columns: the aspect's relation from the gene to the term (GAF's qualifiers).
struct GoColumn {
  const char *header;
  const char *relation;
};
const GoColumn kGoColumns[] = {{"go_bp", "go.involved_in"}, {"go_mf", "go.enables"}, {"go_cc", "go.located_in"}};

const GoColumn *go_column(std::string h) {
  for (auto &c : h) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto &g : kGoColumns)
    if (h == g.header) return &g;
  return nullptr;
}

// "GO:0006915:IDA" -> ("GO:0006915", "IDA"); ("", "") when the cell value is no such thing.
std::pair<std::string, std::string> go_value(const std::string &v) {
  if (v.size() < 10 || v.compare(0, 3, "GO:") != 0 || v.find_first_not_of("0123456789", 3) != 10) return {};
  if (v.size() == 10) return {v, ""};
  if (v[10] != ':') return {};
  return {v.substr(0, 10), v.substr(11)};
}

const KindInfo *kind_of_header(std::string h) {
  for (auto &c : h) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto &k : kKinds)
    for (const char *name : k.headers)
      if (name && h == name) return &k;
  return nullptr;
}

std::vector<std::string> values_of(std::string_view cell) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= cell.size(); ++i)
    if (i == cell.size() || cell[i] == '|' || cell[i] == ';') {
      std::string v = trim_copy(cell.substr(start, i - start));
      if (!v.empty() && v != "-" && v != "NA") out.push_back(std::move(v));
      start = i + 1;
    }
  return out;
}

}  // namespace

FileReport import_mapping_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options) {
  const auto t0 = std::chrono::steady_clock::now();
  LineReader reader(path);
  reader.set_max_lines(options.max_rows);
  std::string_view line;
  if (!reader.next(line)) throw Error(ErrorCode::parse, path + ": empty file (no header line)");
  if (!valid_utf8(line)) throw Error(ErrorCode::parse, path + ":1: header is not valid UTF-8 text");
  std::string_view header = line;
  if (!header.empty() && header.front() == '#') header.remove_prefix(1);
  std::vector<std::string> names;
  std::vector<const KindInfo *> kinds;
  std::vector<const GoColumn *> go;
  std::string recognised;
  bool keys = false;
  for (auto h : split_view(header, '\t')) {
    names.push_back(trim_copy(h));
    kinds.push_back(kind_of_header(names.back()));
    go.push_back(go_column(names.back()));
    if (kinds.back() || go.back()) recognised += (recognised.empty() ? "" : ", ") + names.back();
    keys = keys || (kinds.back() && kinds.back()->kind != IdKind::synonym && kinds.back()->kind != IdKind::full_name);
  }
  if (!keys) recognised.clear();
  if (recognised.empty()) {
    std::string known;
    for (const auto &k : kKinds) known += (known.empty() ? "" : ", ") + std::string(k.headers[0]);
    throw Error(ErrorCode::parse, path + ":1: no identifier column in the header '" +
                                      std::string(header.substr(0, 120)) + "' (tab-separated; known: " + known + ")");
  }
  const nlohmann::json opts = {{"format", "mapping"}, {"columns", names}, {"identifier_columns", recognised},
                               {"taxon", options.taxon}, {"skip_bad_lines", options.skip_bad_lines}};
  ImportWriter w(impl, path, "mapping", reader.file_size(), opts);
  FileReport &rep = w.report();
  // The taxa of the stored nodes: an Ensembl protein id is tried as STRING's "<taxon>.ENSP...".
  std::vector<int64_t> taxa;
  {
    Stmt st(impl.db, "SELECT DISTINCT taxon FROM nodes WHERE taxon > 0 ORDER BY taxon");
    while (st.step())
      if (options.taxon == 0 || st.col_int(0) == options.taxon) taxa.push_back(st.col_int(0));
  }
  std::map<std::string, uint64_t> joined_by;
  uint64_t joined = 0, unmatched = 0, ambiguous = 0, synonyms = 0;
  uint64_t go_annotations = 0, go_without_term = 0, go_no_data = 0;
  std::map<std::string, std::optional<int64_t>> go_terms;  // term id -> its node, when stored
  std::vector<std::vector<std::string>> values(names.size());
  while (reader.next(line)) {
    const uint64_t no = reader.line_number();
    if (line.empty()) continue;
    ++rep.lines;
    std::string problem;
    if (!valid_utf8(line)) problem = "invalid UTF-8";
    const auto cells = split_view(line, '\t');
    if (problem.empty() && cells.size() != names.size())
      problem = "expected " + std::to_string(names.size()) + " tab-separated columns as in the header, found " +
                std::to_string(cells.size());
    for (std::size_t c = 0; problem.empty() && c < cells.size(); ++c)
      if (go[c])
        for (const std::string &v : values_of(cells[c]))
          if (go_value(v).first.empty()) {
            problem = "column " + names[c] + ": '" + v.substr(0, 40) + "' is not a GO annotation (GO:nnnnnnn:EVIDENCE)";
            break;
          }
    if (!problem.empty()) {
      w.bad_line(no, problem, options);
      continue;
    }
    for (std::size_t c = 0; c < cells.size(); ++c) values[c] = kinds[c] ? values_of(cells[c]) : std::vector<std::string>{};
    // The first kind whose identifiers name any stored node decides.
    std::optional<int64_t> node;
    bool is_ambiguous = false;
    for (const auto &k : kKinds) {
      if (k.kind == IdKind::synonym || k.kind == IdKind::full_name) continue;
      std::set<int64_t> found;
      bool any = false;
      for (std::size_t c = 0; c < names.size(); ++c) {
        if (kinds[c] != &k) continue;
        for (const auto &v : values[c]) {
          any = true;
          std::vector<std::pair<int64_t, int64_t>> hits;
          const auto add = [&](const std::vector<std::pair<int64_t, int64_t>> &h) { hits.insert(hits.end(), h.begin(), h.end()); };
          if (*k.prefix) add(w.nodes_named(std::string(k.prefix) + ":" + v));
          add(w.nodes_named(v));
          if (k.kind == IdKind::ensembl_protein)
            for (int64_t t : taxa) add(w.nodes_named(std::to_string(t) + "." + v));
          if (k.kind == IdKind::symbol) add(w.nodes_with_name(v));
          for (const auto &[id, taxon] : hits)
            if (options.taxon == 0 || taxon == 0 || taxon == options.taxon) found.insert(id);
        }
      }
      if (!any || found.empty()) continue;
      if (found.size() == 1) {
        node = *found.begin();
        ++joined_by[k.name];
      } else {
        is_ambiguous = true;
      }
      break;
    }
    if (!node) {
      ++(is_ambiguous ? ambiguous : unmatched);
      continue;
    }
    ++joined;
    for (std::size_t c = 0; c < names.size(); ++c) {
      if (!kinds[c]) continue;
      const std::string source = "mapping:" + names[c];
      for (const auto &v : values[c]) {
        w.add_alias(*node, v, source);
        synonyms += kinds[c]->kind == IdKind::synonym || kinds[c]->kind == IdKind::full_name;
        if (*kinds[c]->prefix && v.find(':') == std::string::npos)
          w.add_alias(*node, std::string(kinds[c]->prefix) + ":" + v, source);
      }
    }
    for (std::size_t c = 0; c < names.size(); ++c) {
      if (!go[c]) continue;
      // (one edge per term, with every evidence code of the cell)
      std::map<std::string, std::vector<std::string>> codes;
      for (const std::string &v : values_of(cells[c])) {
        const auto [term, code] = go_value(v);
        if (code == "ND") {
          ++go_no_data;
          continue;
        }
        auto &list = codes[term];
        if (!code.empty() && std::find(list.begin(), list.end(), code) == list.end()) list.push_back(code);
      }
      for (const auto &[term, list] : codes) {
        auto it = go_terms.find(term);
        if (it == go_terms.end()) it = go_terms.emplace(term, w.find(term)).first;
        if (!it->second) {
          ++go_without_term;
          continue;
        }
        const nlohmann::json evidence = {{"evidence_codes", list}, {"source", names[c]}};
        w.add_edge(*node, *it->second, go[c]->relation, true, 1.0, evidence.dump());
        ++go_annotations;
      }
    }
  }
  if (rep.lines == 0) throw Error(ErrorCode::parse, path + ": no rows after the header");
  rep.details = {{"rows_joined", joined}, {"rows_unmatched", unmatched}, {"rows_ambiguous", ambiguous},
                 {"synonyms", synonyms}, {"go_annotations", go_annotations},
                 {"go_annotations_without_term", go_without_term}, {"go_no_data", go_no_data}};
  for (const auto &k : kKinds)
    if (k.kind != IdKind::synonym && k.kind != IdKind::full_name) rep.details.emplace_back(std::string("joined_by_") + k.name, joined_by[k.name]);
  if (options.progress) options.progress(ImportProgress{path, reader.file_size(), reader.file_size(), "done"});
  return w.finish(reader.sha256_hex(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace grappi::detail
