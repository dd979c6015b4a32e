// BEL entity identifiers from a knowledge base (see bel_resolver.hpp).
#include "store/bel_resolver.hpp"

#include <algorithm>

#include "store/graph_impl.hpp"
#include "common/text_util.hpp"

namespace grappi::detail {

namespace {

// Whether an alias source names an approved HGNC symbol: STRING's alias sources (v12
// "Ensembl_HGNC_symbol"; v11 lists several sources in one field, "Ensembl_HGNC" and
// "BioMart_HUGO" among them) and a mapping table's symbol column.
bool symbol_source(std::string_view source) {
  if (source.rfind("mapping:", 0) == 0) return source.find("symbol") != std::string_view::npos;
  for (std::string_view s : split_view(source, ' '))
    if (s == "Ensembl_HGNC_symbol" || s == "Ensembl_HGNC" || s == "BioMart_HUGO") return true;
  return false;
}

// "HGNC:391" (or "HGNC:HGNC:391") -> "391"; "" when not an HGNC id.
std::string hgnc_number(std::string_view alias) {
  while (alias.size() > 5 && iequals(alias.substr(0, 5), "HGNC:")) alias.remove_prefix(5);
  if (alias.empty() || alias.find_first_not_of("0123456789") != std::string_view::npos) return {};
  return std::string(alias);
}

}  // namespace

void BelIdTable::Space::add(const std::string &id, const std::string &label) {
  if (id.empty() || label.empty()) return;
  auto [it, fresh] = label_of.emplace(id, label);
  if (!fresh && it->second != label) return;  // (the first label of an id stays)
  if (ambiguous.count(label)) return;
  auto [jt, new_label] = id_of.emplace(label, id);
  if (!new_label && jt->second != id) {
    id_of.erase(jt);
    ambiguous.insert(label);
  }
}

BelIdTable::BelIdTable(const Db &db) {
  // HGNC: every node with exactly one HGNC id alias, labelled with its approved symbol (an
  // alias from a symbol source equal to the preferred name, else any symbol-source alias,
  // else the preferred name).
  std::unordered_map<int64_t, std::string> id_of_node;
  std::unordered_set<int64_t> several;
  {
    Stmt st(db, "SELECT node_id, alias FROM aliases WHERE alias LIKE 'HGNC:%'");
    while (st.step()) {
      std::string id = hgnc_number(st.col_view(1));
      if (id.empty()) continue;
      auto [it, fresh] = id_of_node.emplace(st.col_int(0), id);
      if (!fresh && it->second != id) several.insert(st.col_int(0));
    }
  }
  if (!id_of_node.empty()) {
    Space &hgnc = spaces_["HGNC"];
    Stmt name(db, "SELECT name FROM nodes WHERE id = ?");
    Stmt aliases(db,
                 "SELECT alias, source FROM aliases WHERE node_id = ? AND (source LIKE '%HGNC%' OR source LIKE "
                 "'%HUGO%' OR source LIKE 'mapping:%')");
    std::vector<std::pair<std::string, std::string>> labelled;
    for (const auto &[node, id] : id_of_node) {
      if (several.count(node)) continue;
      name.reset();
      name.bind(1, node);
      const std::string preferred = name.step() ? name.col_text(0) : std::string();
      std::string symbol;
      aliases.reset();
      aliases.bind(1, node);
      while (aliases.step()) {
        if (!symbol_source(aliases.col_view(1))) continue;
        std::string a = aliases.col_text(0);
        if (a == preferred) {
          symbol = a;
          break;
        }
        if (symbol.empty() || a < symbol) symbol = std::move(a);
      }
      if (symbol.empty()) symbol = preferred;
      labelled.emplace_back(id, symbol);
    }
    std::sort(labelled.begin(), labelled.end());  // (the same table whatever the hash order)
    for (const auto &[id, symbol] : labelled) hgnc.add(id, symbol);
  }
  // Ontologies: every OBO term ("GO:0006915", "apoptotic process") in the space of its
  // prefix; obsolete terms only where no live term has the name.
  Stmt st(db,
          "SELECT external_id, name, coalesce(json_extract(attributes, '$.is_obsolete'), 0) AS obsolete "
          "FROM nodes WHERE label = 'OntologyTerm' ORDER BY obsolete, external_id");
  while (st.step()) {
    std::string_view curie = st.col_view(0);
    const std::size_t colon = curie.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == curie.size()) continue;
    Space &space = spaces_[upper_copy(curie.substr(0, colon))];
    std::string id(curie.substr(colon + 1)), label = st.col_text(1);
    if (st.col_int(2) != 0 && space.id_of.count(label)) {
      space.label_of.emplace(id, label);
      continue;
    }
    space.add(id, label);
  }
}

BelIdTable::~BelIdTable() = default;

std::size_t BelIdTable::size() const noexcept {
  std::size_t n = 0;
  for (const auto &[prefix, space] : spaces_) n += space.label_of.size();
  return n;
}

std::optional<BelEntityId> BelIdTable::find(std::string_view ns, std::string_view value) const {
  auto it = spaces_.find(upper_copy(ns));
  if (it == spaces_.end() || value.empty()) return std::nullopt;
  const Space &space = it->second;
  // An identifier, bare ("391", "0006915") or as a CURIE ("HGNC:391", "GO:0006915").
  std::string_view id = value;
  if (id.size() > ns.size() && id[ns.size()] == ':' && iequals(id.substr(0, ns.size()), ns)) id.remove_prefix(ns.size() + 1);
  if (auto l = space.label_of.find(std::string(id)); l != space.label_of.end()) return BelEntityId{l->first, l->second};
  if (auto i = space.id_of.find(std::string(value)); i != space.id_of.end()) return BelEntityId{i->second, i->first};
  return std::nullopt;
}

BelEntityResolver bel_resolver(const Db &db) {
  auto table = std::make_shared<const BelIdTable>(db);
  if (table->size() == 0) return {};
  return [table](std::string_view ns, std::string_view value) { return table->find(ns, value); };
}

BelEntityResolver cached_bel_resolver(const KnowledgeGraph::Impl &impl) {
  const uint64_t generation = impl.generation();
  if (!impl.bel_ids || impl.bel_ids_generation != generation) {
    impl.bel_ids = std::make_shared<const BelIdTable>(impl.db);
    impl.bel_ids_generation = generation;
  }
  if (impl.bel_ids->size() == 0) return {};
  return [table = impl.bel_ids](std::string_view ns, std::string_view value) { return table->find(ns, value); };
}

}  // namespace grappi::detail

namespace grappi {

BelEntityResolver KnowledgeGraph::bel_resolver() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return detail::cached_bel_resolver(*impl_);
}

}  // namespace grappi
