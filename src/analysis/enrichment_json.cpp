// The JSON form of an enrichment (docs/schemas/enrich.schema.json): nodes by external id.
#include <optional>

#include "analysis/annotations.hpp"
#include "grappi/enrichment.hpp"
#include "grappi/error.hpp"
#include "grappi/knowledge_graph.hpp"

namespace grappi {

namespace {

// External ids of node ids, from the graph's snapshot (the stored node when the snapshot is older).
nlohmann::json external_ids(const KnowledgeGraph &kg, const GraphSnapshot &g, const std::vector<int64_t> &ids) {
  nlohmann::json out = nlohmann::json::array();
  for (int64_t id : ids) {
    if (const auto ix = g.index_of(id)) out.push_back(g.external_id(*ix));
    else if (const auto n = kg.node(id)) out.push_back(n->external_id);
    else out.push_back(std::to_string(id));
  }
  return out;
}

}  // namespace

nlohmann::json to_json(const KnowledgeGraph &kg, const EnrichmentResult &r) {
  const auto snapshot = kg.snapshot();
  const GraphSnapshot &g = *snapshot;
  nlohmann::json categories = nlohmann::json::array(), terms = nlohmann::json::array();
  for (const EnrichmentCategory &c : r.categories)
    categories.push_back({{"category", c.category}, {"set_size", c.set_size}, {"universe", c.universe},
                          {"tested", c.tested}, {"reported", c.reported}});
  for (const EnrichedTerm &t : r.terms)
    terms.push_back({{"term", t.term}, {"external_id", t.term}, {"id", t.id}, {"name", t.name}, {"category", t.category},
                     {"observed", t.observed}, {"set_size", t.set_size}, {"background", t.background},
                     {"universe", t.universe}, {"expected", t.expected}, {"strength", t.strength},
                     {"p_value", t.p_value}, {"fdr", t.fdr}, {"proteins", external_ids(kg, g, t.proteins)}});
  nlohmann::json unmatched = nlohmann::json::array();
  for (const auto &[name, reason] : r.unmatched) unmatched.push_back({{"name", name}, {"reason", reason}});
  return {{"background", r.background}, {"proteins", external_ids(kg, g, r.proteins)},
          {"unannotated", external_ids(kg, g, r.unannotated)}, {"unmatched", unmatched},
          {"categories", categories}, {"terms", terms}};
}

}  // namespace grappi

namespace grappi {

namespace {

// The node a name links to, or the reason it links to none.
std::optional<int64_t> link(const KnowledgeGraph &kg, const std::string &name, std::string &reason) {
  const ResolveResult r = kg.lookup(name);
  if (r.status == ResolveResult::Status::found) return r.id;
  if (r.status == ResolveResult::Status::ambiguous) {
    reason = "ambiguous:";
    for (std::size_t i = 0; i < r.candidates.size() && i < 5; ++i) reason += (i ? ", " : " ") + r.candidates[i].external_id;
  } else {
    reason = "not found";
    if (!r.note.empty()) reason += " (" + r.note + ")";
    for (std::size_t i = 0; i < r.suggestions.size(); ++i) reason += (i ? ", " : "; did you mean ") + r.suggestions[i];
  }
  return std::nullopt;
}

}  // namespace

std::vector<int64_t> detail::link_names(const KnowledgeGraph &kg, const std::vector<std::string> &names,
                                        std::vector<std::pair<std::string, std::string>> &unmatched, const char *what) {
  if (names.empty()) throw Error(ErrorCode::invalid_argument, std::string(what) + ": the protein set is empty");
  std::vector<int64_t> ids;
  for (const std::string &name : names) {
    std::string reason;
    if (const auto id = link(kg, name, reason)) ids.push_back(*id);
    else unmatched.emplace_back(name, reason);
  }
  if (ids.empty()) {
    std::string listed;
    for (std::size_t i = 0; i < unmatched.size() && i < 5; ++i)
      listed += (i ? "; " : "") + unmatched[i].first + ": " + unmatched[i].second;
    throw Error(ErrorCode::not_found, std::string(what) + ": no name names a protein (" + listed + ")");
  }
  return ids;
}

EnrichmentResult enrich_names(const KnowledgeGraph &kg, const std::vector<std::string> &names, EnrichmentOptions options,
                              const std::vector<std::string> &background_names) {
  std::vector<std::pair<std::string, std::string>> unmatched;
  const std::vector<int64_t> ids = detail::link_names(kg, names, unmatched, "enrich");
  for (const std::string &name : background_names) {
    std::string reason;
    if (const auto id = link(kg, name, reason)) options.background_proteins.push_back(*id);
    else unmatched.emplace_back(name, "background: " + reason);
  }
  if (!background_names.empty()) options.background = EnrichmentBackground::given;
  EnrichmentResult r = enrich(kg, ids, options);
  r.unmatched = std::move(unmatched);
  return r;
}

}  // namespace grappi
