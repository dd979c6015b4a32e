// STRING's functional annotations (format "annotations"): the website's per-network export
// (`string_functional_annotations.tsv`: #node, identifier, category, term ID, term description)
// or the genome-wide download (`<taxon>.protein.enrichment.terms.v12.0.txt`: #string_protein_id,
// category, term, description). Each row annotates a stored protein (by STRING id, else by an
// alias one node has) with a term of its category: GO's three categories become go.involved_in,
// go.enables and go.located_in edges to the GO term of that id (made from the row, label
// OntologyTerm and the aspect's namespace, when GO is not imported); any other category
// (KEGG, Reactome, WikiPathways, InterPro, DISEASES, ...) an edge annotation.<category> to a node
// "<category>:<term>" labelled FunctionalTerm, with the category in its attributes. STRING gives no
// evidence codes: the edges carry {"source": "STRING", "category": ...}. Rows naming no stored
// protein are counted (rows_unmatched), not stored.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <set>

#include "common/text_reader.hpp"
#include "common/text_util.hpp"
#include "grappi/error.hpp"
#include "store/import_writer.hpp"
#include "store/importers.hpp"

namespace grappi::detail {

namespace {

struct GoCategory {
  const char *category;  // STRING's
  const char *relation;
  const char *name_space;
};
const GoCategory kGo[] = {{"GO Process", "go.involved_in", "biological_process"},
                          {"GO Function", "go.enables", "molecular_function"},
                          {"GO Component", "go.located_in", "cellular_component"}};

// The columns of the two layouts (lower case, the leading '#' dropped).
struct Layout {
  std::size_t protein, category, term, description, columns;
};

std::optional<Layout> layout_of(std::string_view header) {
  if (header.empty() || header.front() != '#') return std::nullopt;
  header.remove_prefix(1);
  std::vector<std::string> h;
  for (auto c : split_view(header, '\t')) h.push_back(lower_copy(trim_copy(c)));
  if (h == std::vector<std::string>{"node", "identifier", "category", "term id", "term description"}) return Layout{1, 2, 3, 4, 5};
  if (h == std::vector<std::string>{"string_protein_id", "category", "term", "description"}) return Layout{0, 1, 2, 3, 4};
  return std::nullopt;
}

// A category's part of a relation and an id: lower case, letters and digits, '_' between words
// ("UniProt Keywords" -> "uniprot_keywords", "Local network cluster (STRING)" -> "local_network_cluster_string").
std::string slug(std::string_view category) {
  std::string out;
  for (char c : category) {
    if (std::isalnum(static_cast<unsigned char>(c))) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    else if (!out.empty() && out.back() != '_') out.push_back('_');
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

}  // namespace

bool looks_like_string_annotations(std::string_view first_line) { return layout_of(first_line).has_value(); }

FileReport import_annotations_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options) {
  const auto t0 = std::chrono::steady_clock::now();
  LineReader reader(path);
  reader.set_max_lines(options.max_rows);
  std::string_view line;
  if (!reader.next(line)) throw Error(ErrorCode::parse, path + ": empty file (no header line)");
  const std::optional<Layout> layout = layout_of(line);
  if (!layout)
    throw Error(ErrorCode::parse, path + ":1: not STRING's functional annotations: the header is '" +
                                      std::string(line.substr(0, 120)) +
                                      "' (expected '#node, identifier, category, term ID, term description' or "
                                      "'#string_protein_id, category, term, description', tab-separated)");
  ImportWriter w(impl, path, "annotations", reader.file_size(),
                 nlohmann::json{{"format", "annotations"}, {"skip_bad_lines", options.skip_bad_lines}});
  FileReport &rep = w.report();
  std::map<std::string, std::optional<int64_t>> proteins;  // identifier -> stored node
  std::map<std::string, int64_t> terms;                     // external id -> node
  std::set<std::pair<int64_t, int64_t>> done;               // (protein, term)
  std::map<std::string, uint64_t> by_category;
  uint64_t joined = 0, unmatched = 0, annotations = 0, terms_new = 0;
  while (reader.next(line)) {
    const uint64_t no = reader.line_number();
    if (line.empty()) continue;
    ++rep.lines;
    const auto cells = split_view(line, '\t');
    std::string problem;
    if (!valid_utf8(line)) problem = "invalid UTF-8";
    else if (cells.size() != layout->columns)
      problem = "expected " + std::to_string(layout->columns) + " tab-separated columns, found " + std::to_string(cells.size());
    const std::string id = problem.empty() ? trim_copy(cells[layout->protein]) : std::string();
    const std::string category = problem.empty() ? trim_copy(cells[layout->category]) : std::string();
    const std::string term = problem.empty() ? trim_copy(cells[layout->term]) : std::string();
    if (problem.empty() && (id.empty() || category.empty() || term.empty() || slug(category).empty()))
      problem = "an empty protein identifier, category or term";
    const GoCategory *go = nullptr;
    for (const GoCategory &g : kGo)
      if (category == g.category) go = &g;
    if (problem.empty() && go && (term.size() != 10 || term.compare(0, 3, "GO:") != 0 || term.find_first_not_of("0123456789", 3) != std::string::npos))
      problem = "'" + term.substr(0, 40) + "' is no GO id (GO:nnnnnnn) in category " + category;
    if (!problem.empty()) {
      w.bad_line(no, problem, options);
      continue;
    }
    auto p = proteins.find(id);
    if (p == proteins.end()) {
      std::optional<int64_t> node = w.find(id);
      if (!node) {
        const auto named = w.nodes_named(id);
        if (named.size() == 1) node = named[0].first;
      }
      p = proteins.emplace(id, node).first;
      (node ? joined : unmatched) += 1;
    }
    if (!p->second) continue;
    const std::string external = go ? term : slug(category) + ":" + term;
    auto t = terms.find(external);
    if (t == terms.end()) {
      std::optional<int64_t> node = w.find(external);
      if (!node) {
        NodeInput n;
        n.external_id = external;
        n.name = trim_copy(cells[layout->description]);
        n.label = go ? "OntologyTerm" : "FunctionalTerm";
        nlohmann::json attributes = {{"category", category}, {"source", "STRING"}};
        if (go) attributes["namespace"] = go->name_space;
        n.attributes = attributes.dump();
        node = w.define_node(n);
        ++terms_new;
      }
      t = terms.emplace(external, *node).first;
    }
    if (!done.insert({*p->second, t->second}).second) continue;
    const nlohmann::json evidence = {{"source", "STRING"}, {"category", category}};
    w.add_edge(*p->second, t->second, go ? go->relation : "annotation." + slug(category), true, 1.0, evidence.dump());
    ++annotations;
    ++by_category[category];
  }
  if (rep.lines == 0) throw Error(ErrorCode::parse, path + ": no rows after the header");
  rep.details = {{"proteins_joined", joined}, {"proteins_unmatched", unmatched}, {"annotations", annotations},
                 {"terms_new", terms_new}};
  for (const auto &[category, n] : by_category) rep.details.emplace_back("category:" + category, n);
  if (options.progress) options.progress(ImportProgress{path, reader.file_size(), reader.file_size(), "done"});
  return w.finish(reader.sha256_hex(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace grappi::detail
