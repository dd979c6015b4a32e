// Functional enrichment (grappi/enrichment.hpp): the database's GO annotations read once per
// generation, propagated up is_a and part_of, and a set's terms tested against its background
// by the hypergeometric upper tail with Benjamini–Hochberg's FDR per category.
#include "grappi/enrichment.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "analysis/annotations.hpp"
#include "analysis/log_gamma.hpp"
#include "grappi/error.hpp"
#include "grappi/knowledge_graph.hpp"
#include "grappi/ontology.hpp"
#include "store/graph_impl.hpp"
#include "store/relation_filter.hpp"
#include "store/sqlite.hpp"

namespace grappi {

namespace detail {

const std::array<AnnotationCategory, kGoCategories> &go_categories() {
  static const std::array<AnnotationCategory, kGoCategories> c = {{
      {"Process", "biological_process", "go.involved_in",
       {"process", "bp", "go:bp", "go_bp", "biological_process", "biological process", "go process"}},
      {"Function", "molecular_function", "go.enables",
       {"function", "mf", "go:mf", "go_mf", "molecular_function", "molecular function", "go function"}},
      {"Component", "cellular_component", "go.located_in",
       {"component", "cc", "go:cc", "go_cc", "cellular_component", "cellular component", "go component"}},
  }};
  return c;
}

std::size_t category_index(const Annotations &a, const std::string &name) {
  std::string low;
  for (char ch : name) low += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const auto &cats = go_categories();
  std::string known;
  for (std::size_t c = 0; c < a.categories.size(); ++c) {
    if (c < cats.size() && std::find(cats[c].aliases.begin(), cats[c].aliases.end(), low) != cats[c].aliases.end()) return c;
    std::string mine;
    for (char ch : a.categories[c]) mine += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const std::string &relation = a.category_relations[c];
    if (low == mine || low == relation || (relation.rfind("annotation.", 0) == 0 && low == relation.substr(11))) return c;
    known += (known.empty() ? "" : ", ") + a.categories[c];
  }
  throw Error(ErrorCode::invalid_argument, "enrich: unknown category '" + name + "' (" + known + ")");
}

bool network_relation(const std::string &name) { return !annotation_relation(name); }

void keep_lowest_fdr(std::vector<EnrichedTerm> &terms, std::size_t most) {
  std::stable_sort(terms.begin(), terms.end(), [](const EnrichedTerm &a, const EnrichedTerm &b) {
    if (a.fdr != b.fdr) return a.fdr < b.fdr;
    if (a.p_value != b.p_value) return a.p_value < b.p_value;
    return a.term < b.term;
  });
  if (terms.size() > most) terms.resize(most);
}

namespace {

// At most this many categories (node_category is a signed byte).
constexpr std::size_t kMaxCategories = 120;

// The evidence code's bit, interning it (at most 64 codes: those past the 64th share its bit, so
// excluding the 64th excludes them too; GO has about 25).
uint64_t code_bit(std::vector<std::string> &codes, const std::string &code) {
  auto it = std::find(codes.begin(), codes.end(), code);
  if (it == codes.end()) {
    if (codes.size() == 64) return uint64_t{1} << 63;
    codes.push_back(code);
    it = codes.end() - 1;
  }
  return uint64_t{1} << (it - codes.begin());
}

// Reads every GO annotation edge with its codes and its protein's taxon, and the GO terms'
// namespaces. Under the graph's lock.
void read_annotations(const KnowledgeGraph &kg, const GraphSnapshot &g, Annotations &a,
                      std::vector<std::pair<uint32_t, std::vector<std::pair<uint32_t, uint64_t>>>> &by_protein) {
  KnowledgeGraph::Impl &m = GraphAccess::impl(kg);
  std::lock_guard<std::mutex> lock(m.mu);
  const auto &cats = go_categories();
  // The namespace of every term (a term without one takes its annotation relation's aspect).
  {
    Stmt st(m.db, "SELECT id, json_extract(attributes, '$.namespace') FROM nodes WHERE label = 'OntologyTerm' AND "
                  "json_valid(attributes)");
    while (st.step()) {
      const auto ix = g.index_of(st.col_int(0));
      if (!ix) continue;
      const std::string ns = st.col_text(1);
      for (std::size_t c = 0; c < cats.size(); ++c)
        if (ns == cats[c].name_space) a.node_category[*ix] = static_cast<int8_t>(c);
    }
  }
  // The categories: GO's, then one per annotation.* relation (by name), named as its first edge says.
  for (const auto &c : cats) {
    a.categories.emplace_back(c.name);
    a.category_relations.emplace_back(c.relation);
  }
  {
    Stmt rs(m.db, "SELECT r.name, (SELECT json_extract(e.evidence, '$.category') FROM edges e WHERE e.relation = r.id "
                  "AND json_valid(e.evidence) LIMIT 1) FROM relations r WHERE r.name LIKE 'annotation.%' ORDER BY r.name");
    while (rs.step() && a.categories.size() < kMaxCategories) {
      const std::string relation = rs.col_text(0), name = rs.col_text(1);
      a.categories.push_back(name.empty() ? relation.substr(relation.find('.') + 1) : name);
      a.category_relations.push_back(relation);
    }
  }
  std::unordered_map<uint32_t, std::size_t> row_of;
  // The annotation edges, found in the snapshot (the edges table has no index by relation: a scan reads every edge,
  // 0.6 s at STRING's human size), then read by id; by a scan only when they are a large share of all edges.
  std::vector<char> wanted(g.relation_count(), 0);
  bool any = false;
  for (std::size_t r = 0; r < wanted.size(); ++r) {
    const std::string &name = g.relation_name(static_cast<int32_t>(r));
    wanted[r] = name == "go.involved_in" || name == "go.enables" || name == "go.located_in" || name.rfind("annotation.", 0) == 0;
    any = any || wanted[r];
  }
  if (!any) return;
  std::vector<uint32_t> ids;
  for (uint32_t v = 0; v < g.node_count(); ++v) {
    const auto adj = g.adjacency(v);
    for (std::size_t i = 0; i < adj.size; ++i)
      if (wanted[adj.relation[i]] && adj.direction[i] != static_cast<uint8_t>(Direction::incoming)) ids.push_back(adj.edge[i]);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  const bool by_id = ids.size() * 8 < g.edge_count();
  const char *columns =
      "SELECT e.source, e.target, r.name, n.taxon, (SELECT group_concat(value, ',') FROM json_each(e.evidence, "
      "'$.evidence_codes') WHERE json_valid(e.evidence)) FROM edges e JOIN relations r ON r.id = e.relation JOIN "
      "nodes n ON n.id = e.source ";
  Stmt st(m.db, (std::string(columns) + (by_id ? "WHERE e.id = ?"
                                                : "WHERE r.name IN ('go.involved_in', 'go.enables', 'go.located_in') OR "
                                                  "r.name LIKE 'annotation.%'"))
                    .c_str());
  std::size_t next = 0;
  const auto step = [&] {
    if (!by_id) return st.step();
    while (next < ids.size()) {
      st.reset();
      st.bind(1, static_cast<int64_t>(ids[next++]));
      if (st.step()) return true;
    }
    return false;
  };
  while (step()) {
    const auto p = g.index_of(st.col_int(0)), t = g.index_of(st.col_int(1));
    if (!p || !t) continue;
    if (a.node_category[*t] < 0) {
      // (a term without a GO namespace: its annotation relation's category; none past kMaxCategories)
      const auto at = std::find(a.category_relations.begin(), a.category_relations.end(), st.col_text(2));
      if (at == a.category_relations.end()) continue;
      a.node_category[*t] = static_cast<int8_t>(at - a.category_relations.begin());
    }
    uint64_t bits = 0;
    const std::string codes = st.col_text(4);
    for (std::size_t from = 0; from < codes.size();) {
      const std::size_t comma = std::min(codes.find(',', from), codes.size());
      std::string code = codes.substr(from, comma - from);
      for (char &ch : code) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      if (!code.empty()) bits |= code_bit(a.codes, code);
      from = comma + 1;
    }
    auto [it, fresh] = row_of.emplace(*p, by_protein.size());
    if (fresh) {
      by_protein.push_back({*p, {}});
      a.taxon.push_back(st.col_int(3));
    }
    by_protein[it->second].second.push_back({*t, bits});
  }
}

// Each annotated term's closure: itself and its ancestors of its own category along is_a and
// part_of (GO's basic release keeps part_of within an aspect; a link across would count a protein
// in a category whose universe it is not in). The ancestors join the terms.
void close_terms(Annotations &a) {
  const GraphSnapshot &g = *a.graph;
  OntologyOptions o;
  o.relations.clear();
  for (const char *r : {"obo.is_a", "obo.part_of"})
    if (g.relation_index(r) >= 0) o.relations.push_back(r);
  std::unique_ptr<Ontology> onto;
  if (!o.relations.empty()) onto = std::make_unique<Ontology>(a.graph, o);
  const std::size_t annotated = a.term_node.size();
  a.closure_offsets.assign(1, 0);
  for (std::size_t t = 0; t < annotated; ++t) {
    const int8_t c = a.node_category[a.term_node[t]];
    a.closure.push_back(static_cast<uint32_t>(t));
    if (onto)
      for (const TermDistance &anc : onto->ancestors(g.node_id(a.term_node[t]))) {
        const uint32_t ix = *g.index_of(anc.id);
        if (a.node_category[ix] != c) continue;
        auto [it, fresh] = a.term_of_node.emplace(ix, static_cast<uint32_t>(a.term_node.size()));
        if (fresh) a.term_node.push_back(ix);
        a.closure.push_back(it->second);
      }
    a.closure_offsets.push_back(static_cast<uint32_t>(a.closure.size()));
  }
}

// Whether a node has an edge of the network.
bool in_network(const GraphSnapshot &g, uint32_t ix) {
  const GraphSnapshot::Adjacency adj = g.adjacency(ix);
  for (std::size_t i = 0; i < adj.size; ++i)
    if (network_relation(g.relation_name(adj.relation[i]))) return true;
  return false;
}

}  // namespace

std::shared_ptr<const Annotations> annotations(const KnowledgeGraph &kg) {
  return derived<Annotations>(kg, "go", [&]() -> std::shared_ptr<const Annotations> {
    auto a = std::make_shared<Annotations>();
    a->graph = kg.snapshot();
    const GraphSnapshot &g = *a->graph;
    a->node_category.assign(g.node_count(), -1);
    std::vector<std::pair<uint32_t, std::vector<std::pair<uint32_t, uint64_t>>>> by_protein;
    read_annotations(kg, g, *a, by_protein);
    // Rows: proteins in node order (results then do not depend on the order of import).
    std::vector<std::size_t> order(by_protein.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return by_protein[x].first < by_protein[y].first; });
    std::vector<int64_t> taxa;
    a->direct_offsets.assign(1, 0);
    for (std::size_t r : order) {
      auto &[p, list] = by_protein[r];
      a->row_node.push_back(p);
      taxa.push_back(a->taxon[r]);
      std::sort(list.begin(), list.end());
      for (const auto &[t, bits] : list) {
        auto [it, fresh] = a->term_of_node.emplace(t, static_cast<uint32_t>(a->term_node.size()));
        if (fresh) a->term_node.push_back(t);
        a->direct.push_back({it->second, bits});
      }
      a->direct_offsets.push_back(static_cast<uint32_t>(a->direct.size()));
      a->network.push_back(in_network(g, p));
    }
    a->taxon = std::move(taxa);
    for (std::size_t r = 0; r < a->row_node.size(); ++r) a->row_of_node.emplace(a->row_node[r], static_cast<uint32_t>(r));
    close_terms(*a);
    return a;
  });
}

}  // namespace detail

}  // namespace grappi

namespace grappi {

namespace {

using detail::Annotations;

constexpr std::size_t kMaxUniverses = 8;

// Whether an annotation counts with these codes excluded.
bool counts(const detail::DirectAnnotation &d, uint64_t excluded) { return d.codes == 0 || (d.codes & ~excluded) != 0; }

// The universe of a background (bg: by row) with these codes excluded, counted once and kept.
std::shared_ptr<const Annotations::Universe> universe(const Annotations &a, const std::vector<char> &bg, uint64_t excluded,
                                                      const std::string &key) {
  {
    std::lock_guard<std::mutex> lock(a.universes_mu);
    const auto it = a.universes.find(key);
    if (it != a.universes.end()) return it->second;
  }
  auto u = std::make_shared<Annotations::Universe>();
  u->annotated.assign(a.term_node.size(), 0);
  u->member.assign(a.categories.size(), std::vector<char>(a.row_node.size(), 0));
  u->size.assign(a.categories.size(), 0);
  std::vector<uint32_t> stamp(a.term_node.size(), UINT32_MAX);
  for (uint32_t r = 0; r < a.row_node.size(); ++r) {
    if (!bg[r]) continue;
    for (uint32_t i = a.direct_offsets[r]; i < a.direct_offsets[r + 1]; ++i) {
      const detail::DirectAnnotation &d = a.direct[i];
      if (!counts(d, excluded)) continue;
      const int8_t c = a.node_category[a.term_node[d.term]];
      if (c < 0) continue;
      u->member[static_cast<std::size_t>(c)][r] = 1;
      for (uint32_t k = a.closure_offsets[d.term]; k < a.closure_offsets[d.term + 1]; ++k)
        if (stamp[a.closure[k]] != r) {
          stamp[a.closure[k]] = r;
          ++u->annotated[a.closure[k]];
        }
    }
  }
  for (std::size_t c = 0; c < a.categories.size(); ++c)
    u->size[c] = static_cast<std::size_t>(std::count(u->member[c].begin(), u->member[c].end(), 1));
  std::lock_guard<std::mutex> lock(a.universes_mu);
  if (a.universes.size() >= kMaxUniverses) a.universes.clear();
  a.universes[key] = u;
  return u;
}

// log(m!) for m = 0..max, in long double (80-bit on x86: a log-probability assembled from
// factorials near 20,000! keeps about 14 significant digits of the probability).
std::vector<long double> log_factorials(std::size_t max) {
  std::vector<long double> f(max + 1);
  for (std::size_t m = 0; m <= max; ++m) f[m] = detail::log_gamma(static_cast<long double>(m) + 1.0L);
  return f;
}

// P(X >= k) for X hypergeometric: k of n drawn from N of which K are marked. The probability of
// k from its factorials, the tail from it by the ratio of successive terms (Boost.Math's
// distribution computes the same value, but by prime factorisation at these sizes, 250 us a
// term: too slow for thousands of terms per set). f: log_factorials of at least N.
double upper_tail(std::size_t k, std::size_t K, std::size_t n, std::size_t N, const std::vector<long double> &f) {
  const std::size_t lowest = n + K > N ? n + K - N : 0, highest = std::min(K, n);
  if (k <= lowest) return 1.0;
  if (k > highest) return 0.0;
  const auto log_choose = [&](std::size_t a, std::size_t b) { return f[a] - f[b] - f[a - b]; };
  const long double first = std::exp(log_choose(K, k) + log_choose(N - K, n - k) - log_choose(N, n));
  long double term = 1.0L, sum = 1.0L;
  for (std::size_t i = k; i < highest; ++i) {
    term *= static_cast<long double>(K - i) * static_cast<long double>(n - i) /
            (static_cast<long double>(i + 1) * static_cast<long double>(N - K - n + i + 1));
    sum += term;
    if (term < sum * 1e-21L) break;  // (the terms past the mode only shrink)
  }
  return static_cast<double>(std::min(1.0L, first * sum));
}

// Benjamini–Hochberg: each p-value's adjusted value among these (statsmodels' fdr_bh).
std::vector<double> benjamini_hochberg(const std::vector<double> &p) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return p[x] < p[y]; });
  std::vector<double> q(p.size());
  double running = 1.0;
  for (std::size_t i = order.size(); i-- > 0;) {
    running = std::min(running, p[order[i]] * static_cast<double>(p.size()) / static_cast<double>(i + 1));
    q[order[i]] = running;
  }
  return q;
}

void check_options(const EnrichmentOptions &o) {
  if (!(o.max_fdr >= 0 && o.max_fdr <= 1))
    throw Error(ErrorCode::invalid_argument, "enrich: max_fdr must be between 0 and 1 (given " + std::to_string(o.max_fdr) + ")");
  if (o.max_term_size != 0 && o.max_term_size < o.min_term_size)
    throw Error(ErrorCode::invalid_argument, "enrich: max_term_size (" + std::to_string(o.max_term_size) +
                                                 ") is below min_term_size (" + std::to_string(o.min_term_size) + ")");
  if (o.background == EnrichmentBackground::given && o.background_proteins.empty())
    throw Error(ErrorCode::invalid_argument, "enrich: a given background needs its proteins (background_proteins is empty)");
  if (o.background != EnrichmentBackground::given && !o.background_proteins.empty())
    throw Error(ErrorCode::invalid_argument, "enrich: background_proteins given, but the background is '" +
                                                 std::string(to_string(o.background)) + "' (choose 'given')");
}

// The categories asked for (all the database annotates when none is named).
std::vector<char> wanted_categories(const Annotations &a, const EnrichmentOptions &o) {
  std::vector<char> has(a.categories.size(), 0), want(a.categories.size(), 0);
  for (const auto &d : a.direct) {
    const int8_t c = a.node_category[a.term_node[d.term]];
    if (c >= 0) has[static_cast<std::size_t>(c)] = 1;
  }
  if (o.categories.empty()) want = has;
  for (const std::string &name : o.categories) want[detail::category_index(a, name)] = 1;
  std::string missing;
  for (std::size_t c = 0; c < want.size(); ++c)
    if (want[c] && !has[c]) missing += (missing.empty() ? "" : ", ") + a.categories[c];
  if (std::none_of(has.begin(), has.end(), [](char x) { return x != 0; }))
    missing = "any category";
  if (!missing.empty())
    throw Error(ErrorCode::not_found, "enrich: the database holds no annotation of " + missing +
                                          ": import GO (grappi import go-basic.obo), then the gene table with its GO "
                                          "columns (grappi import --mapping) or STRING's functional annotations "
                                          "(grappi import --annotations)");
  return want;
}

// The background's rows, and the key its universe is kept under.
std::vector<char> background_rows(const KnowledgeGraph &kg, const Annotations &a, const EnrichmentOptions &o,
                                  const std::vector<int64_t> &set, std::string &key, std::string &words) {
  const GraphSnapshot &g = *a.graph;
  std::vector<char> bg(a.row_node.size(), 0);
  if (o.background == EnrichmentBackground::annotated) {
    // (the set's organism: its members' most frequent taxon, annotated or not)
    std::map<int64_t, std::size_t> taxa;
    for (int64_t id : set) {
      const auto it = a.row_of_node.find(*g.index_of(id));
      if (it != a.row_of_node.end()) ++taxa[a.taxon[it->second]];
      else if (const auto node = kg.node(id)) ++taxa[node->taxon];
    }
    int64_t taxon = 0;
    std::size_t most = 0;
    for (const auto &[t, n] : taxa)
      if (n > most) most = n, taxon = t;
    for (std::size_t r = 0; r < bg.size(); ++r) bg[r] = a.taxon[r] == taxon;
    key = "annotated:" + std::to_string(taxon);
    words = "the proteins" + (taxon ? " of taxon " + std::to_string(taxon) : std::string()) +
            " with an annotation in the category";
  } else if (o.background == EnrichmentBackground::network) {
    for (std::size_t r = 0; r < bg.size(); ++r) bg[r] = a.network[r];
    key = "network";
    words = "the network's proteins (an edge that is no annotation) with an annotation in the category";
  } else {
    std::vector<int64_t> ids = o.background_proteins;
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    key = "given:";
    for (int64_t id : ids) {
      const auto ix = g.index_of(id);
      if (!ix) throw Error(ErrorCode::not_found, "enrich: background protein " + std::to_string(id) + " is not in the graph");
      const auto it = a.row_of_node.find(*ix);
      if (it != a.row_of_node.end()) bg[it->second] = 1;
      key += std::to_string(id) + ",";
    }
    words = "the " + std::to_string(ids.size()) + " proteins given, those with an annotation in the category";
  }
  return bg;
}

}  // namespace

const char *to_string(EnrichmentBackground b) noexcept {
  switch (b) {
    case EnrichmentBackground::network: return "network";
    case EnrichmentBackground::given: return "given";
    default: return "annotated";
  }
}

EnrichmentBackground enrichment_background(const std::string &name) {
  for (auto b : {EnrichmentBackground::annotated, EnrichmentBackground::network, EnrichmentBackground::given})
    if (name == to_string(b)) return b;
  throw Error(ErrorCode::invalid_argument, "enrich: unknown background '" + name + "' (annotated, network, given)");
}

EnrichmentResult enrich(const KnowledgeGraph &kg, const std::vector<int64_t> &proteins, const EnrichmentOptions &o) {
  check_options(o);
  if (proteins.empty()) throw Error(ErrorCode::invalid_argument, "enrich: the protein set is empty");
  const std::shared_ptr<const Annotations> held = detail::annotations(kg);
  const Annotations &a = *held;
  const GraphSnapshot &g = *a.graph;
  const auto want = wanted_categories(a, o);
  EnrichmentResult res;
  std::vector<uint32_t> set_rows;
  for (int64_t id : proteins) {
    if (std::find(res.proteins.begin(), res.proteins.end(), id) != res.proteins.end()) continue;
    const auto ix = g.index_of(id);
    if (!ix) throw Error(ErrorCode::not_found, "enrich: protein " + std::to_string(id) + " is not in the graph");
    res.proteins.push_back(id);
    const auto it = a.row_of_node.find(*ix);
    if (it != a.row_of_node.end()) set_rows.push_back(it->second);
  }
  uint64_t excluded = 0;
  std::vector<std::string> codes;
  for (std::string code : o.exclude_evidence) {
    for (char &ch : code) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    const auto it = std::find(a.codes.begin(), a.codes.end(), code);
    if (it != a.codes.end()) excluded |= uint64_t{1} << (it - a.codes.begin());
    codes.push_back(code);
  }
  std::sort(codes.begin(), codes.end());
  std::string key;
  const std::vector<char> bg = background_rows(kg, a, o, res.proteins, key, res.background);
  for (const std::string &c : codes) key += "|" + c;
  const auto u = universe(a, bg, excluded, key);
  // The set's counts per term, with its proteins.
  std::vector<uint32_t> observed(a.term_node.size(), 0), stamp(a.term_node.size(), UINT32_MAX);
  std::unordered_map<uint32_t, std::vector<int64_t>> members;
  std::vector<std::size_t> n(a.categories.size(), 0);
  std::vector<char> in_some(set_rows.size(), 0);
  for (std::size_t s = 0; s < set_rows.size(); ++s) {
    const uint32_t r = set_rows[s];
    for (std::size_t c = 0; c < n.size(); ++c)
      if (want[c] && u->member[c][r]) n[c] += 1, in_some[s] = 1;
    for (uint32_t i = a.direct_offsets[r]; i < a.direct_offsets[r + 1]; ++i) {
      const detail::DirectAnnotation &d = a.direct[i];
      const int8_t c = a.node_category[a.term_node[d.term]];
      if (c < 0 || !want[static_cast<std::size_t>(c)] || !u->member[static_cast<std::size_t>(c)][r] || !counts(d, excluded)) continue;
      for (uint32_t k = a.closure_offsets[d.term]; k < a.closure_offsets[d.term + 1]; ++k)
        if (stamp[a.closure[k]] != r) {
          stamp[a.closure[k]] = r;
          ++observed[a.closure[k]];
          members[a.closure[k]].push_back(g.node_id(a.row_node[r]));
        }
    }
  }
  std::unordered_set<uint32_t> annotated_rows;
  for (std::size_t s = 0; s < set_rows.size(); ++s)
    if (in_some[s]) annotated_rows.insert(set_rows[s]);
  for (int64_t id : res.proteins) {
    const auto it = a.row_of_node.find(*g.index_of(id));
    if (it == a.row_of_node.end() || !annotated_rows.count(it->second)) res.unannotated.push_back(id);
  }
  // Per category: the tested terms, their p-values and FDRs.
  for (std::size_t c = 0; c < n.size(); ++c) {
    if (!want[c]) continue;
    EnrichmentCategory cat{a.categories[c], n[c], u->size[c], 0, 0};
    std::vector<uint32_t> tested;
    for (const auto &[t, list] : members) {
      const std::size_t K = u->annotated[t];
      if (a.node_category[a.term_node[t]] != static_cast<int8_t>(c) || K < std::max<std::size_t>(o.min_term_size, 1) ||
          (o.max_term_size && K > o.max_term_size))
        continue;
      tested.push_back(t);
    }
    std::sort(tested.begin(), tested.end(), [&](uint32_t x, uint32_t y) { return a.term_node[x] < a.term_node[y]; });
    std::vector<double> p;
    const std::vector<long double> f = log_factorials(u->size[c]);
    for (uint32_t t : tested) p.push_back(upper_tail(observed[t], u->annotated[t], n[c], u->size[c], f));
    const std::vector<double> q = benjamini_hochberg(p);
    cat.tested = tested.size();
    const std::size_t first = res.terms.size();
    for (std::size_t i = 0; i < tested.size(); ++i) {
      if (q[i] > o.max_fdr) continue;
      const uint32_t t = tested[i], node = a.term_node[t];
      EnrichedTerm e;
      e.id = g.node_id(node);
      e.term = g.external_id(node);
      e.name = g.name(node);
      e.category = cat.category;
      e.observed = observed[t];
      e.set_size = n[c];
      e.background = u->annotated[t];
      e.universe = u->size[c];
      e.expected = static_cast<double>(e.set_size) * static_cast<double>(e.background) / static_cast<double>(e.universe);
      e.strength = std::log10(static_cast<double>(e.observed) / e.expected);
      e.p_value = p[i];
      e.fdr = q[i];
      e.proteins = members[t];
      // (by external id: the same order in any database holding these proteins)
      std::sort(e.proteins.begin(), e.proteins.end(), [&](int64_t x, int64_t y) {
        return g.external_id(*g.index_of(x)) < g.external_id(*g.index_of(y));
      });
      res.terms.push_back(std::move(e));
      ++cat.reported;
    }
    std::sort(res.terms.begin() + static_cast<std::ptrdiff_t>(first), res.terms.end(),
              [](const EnrichedTerm &x, const EnrichedTerm &y) {
                if (x.fdr != y.fdr) return x.fdr < y.fdr;
                if (x.p_value != y.p_value) return x.p_value < y.p_value;
                return x.term < y.term;
              });
    res.categories.push_back(cat);
  }
  return res;
}

}  // namespace grappi
