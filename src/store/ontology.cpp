// Ontology (grappi/ontology.hpp): breadth-first walks along directed child -> parent edges of
// the chosen relations on the CSR snapshot.
#include "grappi/ontology.hpp"

#include <algorithm>
#include <limits>

#include "grappi/error.hpp"
#include "store/relation_filter.hpp"

namespace grappi {

namespace {
constexpr uint32_t kUnseen = std::numeric_limits<uint32_t>::max();
}

Ontology::Ontology(std::shared_ptr<const GraphSnapshot> graph, OntologyOptions options) : graph_(std::move(graph)) {
  if (!graph_) throw Error(ErrorCode::invalid_argument, "ontology: no graph");
  if (options.relations.empty()) throw Error(ErrorCode::invalid_argument, "ontology: name at least one relation");
  followed_ = detail::relation_mask(*graph_, options.relations, "ontology");
}

uint32_t Ontology::index(int64_t id) const {
  auto i = graph_->index_of(id);
  if (!i) throw Error(ErrorCode::not_found, "ontology: no node with id " + std::to_string(id));
  return *i;
}

// Breadth first from a term, up (to parents: outgoing edges) or down (to children: incoming
// edges); each level ordered by external id so that the result does not depend on the order
// of import.
std::vector<TermDistance> Ontology::walk(int64_t term, bool up, std::size_t max_distance) const {
  const GraphSnapshot &g = *graph_;
  const uint32_t start = index(term);
  const auto want = static_cast<uint8_t>(up ? Direction::outgoing : Direction::incoming);
  std::vector<uint32_t> level{start}, next;
  std::vector<TermDistance> out;
  std::vector<char> seen(g.node_count(), 0);
  seen[start] = 1;
  for (std::size_t d = 1; !level.empty() && d <= max_distance; ++d) {
    next.clear();
    for (uint32_t u : level) {
      const auto a = g.adjacency(u);
      for (std::size_t i = 0; i < a.size; ++i) {
        const uint32_t v = a.neighbor[i];
        if (a.direction[i] != want || !followed_[static_cast<std::size_t>(a.relation[i])] || seen[v]) continue;
        seen[v] = 1;
        next.push_back(v);
      }
    }
    std::sort(next.begin(), next.end(), [&](uint32_t x, uint32_t y) { return g.external_id(x) < g.external_id(y); });
    for (uint32_t v : next) out.push_back({g.node_id(v), d});
    level.swap(next);
  }
  return out;
}

namespace {
// The terms at distance 1 of a walk (which lists them first).
std::vector<int64_t> first_level(const std::vector<TermDistance> &walked) {
  std::vector<int64_t> out;
  for (const auto &t : walked) {
    if (t.distance > 1) break;
    out.push_back(t.id);
  }
  return out;
}
}  // namespace

std::vector<int64_t> Ontology::parents(int64_t term) const { return first_level(walk(term, true, 1)); }

std::vector<int64_t> Ontology::children(int64_t term) const { return first_level(walk(term, false, 1)); }

std::vector<TermDistance> Ontology::ancestors(int64_t term) const { return walk(term, true); }

std::vector<TermDistance> Ontology::self_and_ancestors(int64_t term) const {
  auto v = walk(term, true);
  v.insert(v.begin(), TermDistance{term, 0});
  return v;
}

std::vector<TermDistance> Ontology::descendants(int64_t term) const { return walk(term, false); }

std::optional<std::size_t> Ontology::depth(int64_t term, int64_t root) const {
  index(root);
  if (term == root) return 0;
  for (const auto &t : walk(term, true))
    if (t.id == root) return t.distance;
  return std::nullopt;
}

std::vector<int64_t> Ontology::lowest_common_ancestors(int64_t a, int64_t b) const {
  // Common ancestors (each term counts as its own ancestor at distance 0).
  const auto ua = self_and_ancestors(a), ub = self_and_ancestors(b);
  std::vector<int64_t> common;
  {
    std::vector<int64_t> ids_b;
    for (const auto &t : ub) ids_b.push_back(t.id);
    std::sort(ids_b.begin(), ids_b.end());
    for (const auto &t : ua)
      if (std::binary_search(ids_b.begin(), ids_b.end(), t.id)) common.push_back(t.id);
  }
  std::sort(common.begin(), common.end());
  // Lowest: no proper descendant of it is common (every proper ancestor of a common term is
  // common too, so drop the ancestors of each common term).
  std::vector<char> drop(common.size(), 0);
  for (int64_t c : common)
    for (const auto &t : walk(c, true)) {
      auto it = std::lower_bound(common.begin(), common.end(), t.id);
      if (it != common.end() && *it == t.id) drop[static_cast<std::size_t>(it - common.begin())] = 1;
    }
  std::vector<int64_t> out;
  for (std::size_t i = 0; i < common.size(); ++i)
    if (!drop[i]) out.push_back(common[i]);
  const GraphSnapshot &g = *graph_;
  std::sort(out.begin(), out.end(),
            [&](int64_t x, int64_t y) { return g.external_id(*g.index_of(x)) < g.external_id(*g.index_of(y)); });
  return out;
}

std::optional<std::size_t> Ontology::distance(int64_t a, int64_t b) const {
  const auto ua = self_and_ancestors(a), ub = self_and_ancestors(b);
  std::optional<std::size_t> best;
  for (const auto &x : ua)
    for (const auto &y : ub)
      if (x.id == y.id && (!best || x.distance + y.distance < *best)) best = x.distance + y.distance;
  return best;
}

std::vector<int64_t> Ontology::roots() const {
  const GraphSnapshot &g = *graph_;
  std::vector<uint32_t> found;
  for (uint32_t u = 0; u < g.node_count(); ++u) {
    const auto a = g.adjacency(u);
    bool child = false, parent = false;
    for (std::size_t i = 0; i < a.size; ++i) {
      if (!followed_[static_cast<std::size_t>(a.relation[i])]) continue;
      if (a.direction[i] == static_cast<uint8_t>(Direction::outgoing)) parent = true;
      if (a.direction[i] == static_cast<uint8_t>(Direction::incoming)) child = true;
    }
    if (child && !parent) found.push_back(u);
  }
  std::sort(found.begin(), found.end(), [&](uint32_t x, uint32_t y) { return g.external_id(x) < g.external_id(y); });
  std::vector<int64_t> out;
  for (uint32_t u : found) out.push_back(g.node_id(u));
  return out;
}

}  // namespace grappi
