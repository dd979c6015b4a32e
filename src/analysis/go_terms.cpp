// The GO terms a text names, and whether a protein is annotated under one (the ask agent's
// "partners of X involved in apoptosis", by GO terms and their descendants).
#include <algorithm>
#include <array>
#include <map>

#include "analysis/annotations.hpp"
#include "common/text_util.hpp"
#include "grappi/knowledge_graph.hpp"
#include "store/graph_impl.hpp"

namespace grappi::detail {

namespace {

// GO's names and synonyms in lower case, per generation: each to its terms, by the kind of name
// (0 the name, 1 an exact synonym, 2 a related or narrow one).
struct GoNames {
  std::map<std::string, std::array<std::vector<int64_t>, 3>> terms;  // node ids
};

}  // namespace

std::vector<int64_t> go_terms_named(const KnowledgeGraph &kg, const std::string &text) {
  const auto names = derived<GoNames>(kg, "go-names", [&]() -> std::shared_ptr<const GoNames> {
    auto out = std::make_shared<GoNames>();
    const auto g = kg.snapshot();
    for (const NodeName &n : kg.names({"OntologyTerm"})) {
      const auto at = g->index_of(n.node);
      if (!at || g->external_id(*at).rfind("GO:", 0) != 0) continue;
      const int kind = n.source.empty() ? 0 : n.source == "obo:synonym:EXACT" ? 1
                       : n.source == "obo:synonym:RELATED" || n.source == "obo:synonym:NARROW" ? 2 : -1;
      if (kind >= 0) out->terms[lower_copy(trim_copy(n.name))][static_cast<std::size_t>(kind)].push_back(n.node);
    }
    return out;
  });
  const auto it = names->terms.find(lower_copy(trim_copy(text)));
  if (it == names->terms.end()) return {};
  for (std::size_t kind = 0; kind < 3; ++kind) {
    std::vector<int64_t> t = it->second[kind];
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
    // (a related synonym names the terms that have it when they are few: "apoptosis" is a related
    // synonym of "apoptotic process" and of "execution phase of apoptosis", a part of it)
    if (!t.empty() && (kind < 2 || t.size() <= 3)) return t;
  }
  return {};
}

bool annotated_under(const Annotations &a, uint32_t protein, uint32_t term, uint32_t *via) {
  const auto row = a.row_of_node.find(protein);
  const auto target = a.term_of_node.find(term);
  if (row == a.row_of_node.end() || target == a.term_of_node.end()) return false;
  for (uint32_t k = a.direct_offsets[row->second]; k < a.direct_offsets[row->second + 1]; ++k) {
    const uint32_t t = a.direct[k].term;
    const auto b = a.closure.begin() + a.closure_offsets[t], e = a.closure.begin() + a.closure_offsets[t + 1];
    if (std::find(b, e, target->second) != e) {
      if (via) *via = a.term_node[t];
      return true;
    }
  }
  return false;
}

}  // namespace grappi::detail
