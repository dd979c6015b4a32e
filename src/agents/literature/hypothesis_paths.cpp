// The paths of a hypothesis (grappi/hypothesis.hpp, rank_hypothesis_paths): shortest simple
// paths between two concepts over the chosen relations; what each edge says (its co-occurrence
// statistics and documents from its evidence record, else its score; whether a curated relation
// joins the same pair); species and generic concepts kept out of the middle of a path (found in
// the candidates, then avoided by the search); reorderings of the same concepts folded; scored by
// a stored path ranker, a scorer, or association weights; the best kept.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include "agents/literature/hypothesis_paths.hpp"
#include "common/answer_json.hpp"
#include "grappi/graph_embeddings.hpp"
#include "grappi/error.hpp"
#include "grappi/hypothesis.hpp"
#include "grappi/retriever.hpp"
#include "grappi/snapshot.hpp"
#include "grappi/vector_index.hpp"
#include "common/text_util.hpp"

namespace grappi {

namespace {

using nlohmann::json;

// What an edge says: its relation, its co-occurrence statistics (its evidence record) when it
// has them, else its score; its documents, most recent first; its concepts' units.
struct EdgeFacts {
  std::string relation;
  double weight = 0;
  double jaccard = 0;
  std::size_t support = 0;
  int latest_year = 0;
  std::vector<int64_t> pmids;                // most recent first
  std::map<std::string, std::size_t> units;  // concept id -> units (co-occurrence edges)
  std::size_t units_total = 0;
};

EdgeFacts facts_of(const KnowledgeGraph &kg, int64_t edge_id, double score) {
  EdgeFacts f;
  f.weight = score;
  const auto e = kg.edge(edge_id);
  if (!e) return f;
  f.relation = e->relation;
  std::vector<std::pair<int, int64_t>> dated;
  for (const EvidenceRecord &r : e->records) {
    const json j = json::parse(r.record, nullptr, false);
    if (!j.is_object() || !j.contains("npmi") || !j["npmi"].is_number()) continue;
    f.weight = j["npmi"].get<double>();
    if (j.contains("jaccard") && j["jaccard"].is_number()) f.jaccard = j["jaccard"].get<double>();
    f.support = j.value("count", std::size_t{0});
    const json &p = j.value("pmids", json::array()), &y = j.value("years", json::array());
    for (std::size_t i = 0; i < p.size(); ++i)
      if (p[i].is_number_integer())
        dated.emplace_back(i < y.size() && y[i].is_number_integer() ? y[i].get<int>() : 0, p[i].get<int64_t>());
    if (j.contains("unit_counts") && j["unit_counts"].is_array())
      for (const json &u : j["unit_counts"])
        if (u.is_array() && u.size() == 2 && u[0].is_string() && u[1].is_number_unsigned())
          f.units[u[0].get<std::string>()] = u[1].get<std::size_t>();
    if (j.contains("units_total") && j["units_total"].is_number_unsigned())
      f.units_total = j["units_total"].get<std::size_t>();
  }
  if (dated.empty())
    for (int64_t p : e->pmids) dated.emplace_back(0, p);
  std::sort(dated.begin(), dated.end(),
            [](const auto &x, const auto &y) { return x > y; });  // recent, then larger PMID
  for (const auto &[year, pmid] : dated) f.pmids.push_back(pmid);
  if (!dated.empty()) f.latest_year = dated.front().first;
  return f;
}

bool cooccurrence_relation_name(const std::string &r) { return r.rfind("cooc.", 0) == 0; }

// A concept is generic by its share of the documents only from this many documents on.
constexpr std::size_t kGenericDocuments = 20;

// A species (PubTator's "Species", BioC's "OrganismTaxon", an NCBITaxon id): "patients",
// "mice" are no mechanism.
bool species_like(const std::string &label, const std::string &external_id) {
  const std::string l = detail::lower_copy(label);
  return l == "species" || l == "organism" || l == "organismtaxon" || external_id.rfind("NCBITaxon:", 0) == 0;
}

// What each node of a path shares with each end: the documents of the co-occurrence edge
// joining them (each end with itself: its own documents), and each node's documents, learnt
// from those edges' records into `units` (node -> documents); the intermediates' ends joined
// to them by no edge of any relation (open_ends).
template <class FactsFor>
void count_with_ends(HypothesisPath &h, const GraphSnapshot &snap, int64_t source, int64_t target, FactsFor &&facts_for,
                     std::unordered_map<int64_t, std::size_t> &units) {
  // (the documents shared, and whether any edge joins them)
  const auto shared_with = [&](int64_t n, int64_t end) {
    std::size_t c = 0;
    bool joined = false;
    for (const Neighbor &x : snap.edges_between(n, end)) {
      joined = true;
      if (!cooccurrence_relation_name(snap.relation_name(x.relation))) continue;
      const EdgeFacts &f = facts_for(x.edge, x.score);
      c = std::max(c, f.support);
      for (int64_t m : {n, end}) {
        const auto idx = snap.index_of(m);
        const auto u = idx ? f.units.find(snap.external_id(*idx)) : f.units.end();
        if (u != f.units.end()) units[m] = u->second;
      }
    }
    return std::make_pair(c, joined);
  };
  for (std::size_t i = 0; i < h.nodes.size(); ++i) {
    const int64_t n = h.nodes[i];
    const auto s = n == source ? std::make_pair(std::size_t{0}, true) : shared_with(n, source);
    const auto t = n == target ? std::make_pair(std::size_t{0}, true) : shared_with(n, target);
    h.with_source.push_back(s.first);
    h.with_target.push_back(t.first);
    if (i > 0 && i + 1 < h.nodes.size()) h.open_ends += std::size_t(!s.second) + std::size_t(!t.second);
  }
  for (int64_t n : h.nodes) {
    const auto u = units.find(n);
    h.documents.push_back(u == units.end() ? 0 : u->second);
  }
  if (!h.documents.empty()) h.with_source.front() = h.documents.front(), h.with_target.back() = h.documents.back();
}

}  // namespace

void detail::check_path_options(const HypothesisOptions &o) {
  if (o.paths == 0 || o.max_length == 0)
    throw Error(ErrorCode::invalid_argument, "hypothesis paths: paths and max_length must be at least 1");
  if (o.shortest_rounds > 100)
    throw Error(ErrorCode::invalid_argument,
                "hypothesis paths: shortest_rounds must be 0 to 100, not " + std::to_string(o.shortest_rounds));
  if (!(o.embedding_weight >= 0 && o.embedding_weight <= 1))
    throw Error(ErrorCode::invalid_argument, "hypothesis paths: the embedding weight must lie in [0, 1]");
  if (!(o.max_intermediate_share > 0 && o.max_intermediate_share <= 1))
    throw Error(ErrorCode::invalid_argument, "hypothesis paths: max_intermediate_share must lie in (0, 1]");
}

std::vector<HypothesisPath> rank_hypothesis_paths(const KnowledgeGraph &kg, int64_t source, int64_t target,
                                                  const HypothesisOptions &o) {
  detail::check_path_options(o);
  if (!kg.node(source) || !kg.node(target))
    throw Error(ErrorCode::not_found, "hypothesis paths: no node " + std::to_string(kg.node(source) ? target : source));
  const auto snap = kg.snapshot();
  std::shared_ptr<const VectorIndex> vectors;
  if (o.embedding_weight > 0 || (o.ranker && o.ranker->uses_similarity())) {
    if (kg.embedding_models().empty())
      throw Error(
          ErrorCode::invalid_argument,
          "hypothesis paths: an embedding weight (or a ranker that reads similarities) needs the nodes embedded "
          "first (grappi embed)");
    vectors = grappi::graph_vectors(kg, o.embedding_model);
  }
  const auto cos = [&vectors](int64_t x, int64_t y) {
    const float *a = vectors->vector(x), *b = vectors->vector(y);
    return a && b ? double(cosine(a, b, vectors->dim())) : 0.0;
  };
  std::vector<std::string> wanted;
  for (const std::string &l : o.intermediate_labels) wanted.push_back(detail::lower_copy(l));
  const auto label_wanted = [&](int64_t node) {
    const auto idx = snap->index_of(node);
    return idx && std::find(wanted.begin(), wanted.end(), detail::lower_copy(snap->label(*idx))) != wanted.end();
  };
  ShortestPathOptions so;
  so.max_length = o.max_length;
  so.filter.relations = o.relations;
  so.k = o.candidates ? o.candidates : std::max<std::size_t>(o.paths * 4, o.paths + 1);
  so.cancel = o.cancel;
  // Edges' facts, read once per edge.
  std::unordered_map<int64_t, EdgeFacts> facts;
  const auto facts_for = [&](int64_t edge, double score) -> const EdgeFacts & {
    auto it = facts.find(edge);
    if (it == facts.end()) it = facts.emplace(edge, facts_of(kg, edge, score)).first;
    return it->second;
  };
  // A node's share of the literature's units, from any co-occurrence edge of it met so far
  // (-1: unknown), and its units.
  std::unordered_map<int64_t, double> share;
  std::unordered_map<int64_t, std::size_t> units;
  const auto learn_shares = [&](const Path &p) {
    for (std::size_t i = 0; i < p.edges.size(); ++i) {
      const EdgeFacts &f = facts_for(p.edges[i], p.scores[i]);
      if (!f.units_total) continue;
      for (int64_t n : {p.nodes[i], p.nodes[i + 1]}) {
        const auto idx = snap->index_of(n);
        if (!idx) continue;
        const auto u = f.units.find(snap->external_id(*idx));
        if (u != f.units.end()) share[n] = double(u->second) / double(f.units_total), units[n] = u->second;
      }
    }
  };
  const auto generic = [&](int64_t node) {
    const auto idx = snap->index_of(node);
    if (!idx) return false;
    if (species_like(snap->label(*idx), snap->external_id(*idx))) return true;
    // (by share only when the concept is in enough documents to tell: in a small corpus every
    // concept is in a large share of it)
    const auto it = share.find(node);
    return it != share.end() && it->second > o.max_intermediate_share && units[node] >= kGenericDocuments;
  };
  // The search, again without the generic concepts it met (at most three tries), avoiding
  // `masked` too.
  std::set<int64_t> avoided;
  const auto search = [&](const std::set<int64_t> &masked) {
    std::vector<Path> found;
    for (int attempt = 0; attempt < 3; ++attempt) {
      so.avoid.assign(avoided.begin(), avoided.end());
      so.avoid.insert(so.avoid.end(), masked.begin(), masked.end());
      found = o.shortest_rounds ? grappi::graph_retriever(kg)->all_shortest_paths(source, target, so)
                                : grappi::graph_retriever(kg)->shortest_paths(source, target, so);
      if (o.generic_intermediates || (o.cancel && o.cancel())) break;
      bool more = false;
      for (const Path &p : found) {
        learn_shares(p);
        for (std::size_t i = 1; i + 1 < p.nodes.size(); ++i)
          if (generic(p.nodes[i]) && avoided.insert(p.nodes[i]).second) more = true;
      }
      if (!more) break;
    }
    return found;
  };
  std::vector<Path> found;
  if (!o.shortest_rounds) {
    found = search({});
  } else {
    // HGCR's rounds: every shortest path, then again without the intermediates found so far.
    so.skip_direct = o.mask_direct;
    std::set<int64_t> masked;
    for (std::size_t round = 0; round < o.shortest_rounds; ++round) {
      std::vector<Path> more = search(masked);
      const std::size_t before = masked.size();
      for (const Path &p : more) masked.insert(p.nodes.begin() + 1, p.nodes.end() - 1);
      if (more.empty() || (round > 0 && masked.size() == before && more.front().length() == 1)) break;
      found.insert(found.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
      if (o.cancel && o.cancel()) break;
    }
  }
  std::vector<HypothesisPath> out;
  static const PathRanker prior = PathRanker::prior();  // (the default score without an embedding weight)
  for (const Path &p : found) {
    if (o.mask_direct && p.length() == 1) continue;
    if (!wanted.empty() && !std::all_of(p.nodes.begin() + 1, p.nodes.end() - 1, label_wanted)) continue;
    if (!o.generic_intermediates && std::any_of(p.nodes.begin() + 1, p.nodes.end() - 1, generic)) continue;
    HypothesisPath h;
    h.nodes = p.nodes;
    h.edges = p.edges;
    for (int64_t n : p.nodes) {
      const auto idx = snap->index_of(n);
      h.names.push_back(idx ? snap->name(*idx) : std::to_string(n));
      h.external_ids.push_back(idx ? snap->external_id(*idx) : std::to_string(n));
      h.labels.push_back(idx ? snap->label(*idx) : std::string());
      const auto s = share.find(n);
      h.shares.push_back(s == share.end() ? -1.0 : s->second);
    }
    std::set<int64_t> documents;
    bool literature = false;
    for (std::size_t i = 0; i < p.edges.size(); ++i) {
      const EdgeFacts &f = facts_for(p.edges[i], p.scores[i]);
      h.relations.push_back(f.relation);
      h.weights.push_back(f.weight);
      h.jaccards.push_back(f.jaccard);
      h.support.push_back(f.support);
      h.latest_years.push_back(f.latest_year);
      h.pmids.push_back(f.pmids);
      documents.insert(f.pmids.begin(), f.pmids.end());
      literature = literature || cooccurrence_relation_name(f.relation);
      // A curated relation (not co-occurrence) joining the same pair.
      bool curated = !cooccurrence_relation_name(f.relation);
      for (const Neighbor &n : snap->edges_between(p.nodes[i], p.nodes[i + 1]))
        curated = curated || !cooccurrence_relation_name(snap->relation_name(n.relation));
      h.curated.push_back(curated);
    }
    h.papers = documents.size();
    h.single_paper = literature && documents.size() == 1;
    count_with_ends(h, *snap, source, target, facts_for, units);
    h.min_weight = *std::min_element(h.weights.begin(), h.weights.end());
    double sum = 0;
    for (double w : h.weights) sum += w;
    h.mean_weight = sum / double(h.weights.size());
    if (vectors) {
      double s = 0;
      for (std::size_t i = 1; i + 1 < h.nodes.size(); ++i)
        s += 0.5 * (cos(h.nodes[i], source) + cos(h.nodes[i], target));
      h.similarity = h.nodes.size() > 2 ? s / double(h.nodes.size() - 2) : cos(source, target);
    }
    h.score = o.scorer                 ? o.scorer(h)
              : o.ranker               ? o.ranker->score(h)
              : o.embedding_weight > 0 ? association_score(h, o.embedding_weight)
                                       : prior.score(h);
    out.push_back(std::move(h));
  }
  std::stable_sort(out.begin(), out.end(), [](const HypothesisPath &a, const HypothesisPath &b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.edges.size() != b.edges.size()) return a.edges.size() < b.edges.size();
    return a.nodes < b.nodes;
  });
  // Reorderings of the same concepts (A-x-y-B and A-y-x-B) are one hypothesis: the best kept.
  if (o.fold_reorderings) {
    std::set<std::vector<int64_t>> seen;
    std::vector<HypothesisPath> folded;
    for (HypothesisPath &h : out) {
      std::vector<int64_t> inner(h.nodes.begin() + 1, h.nodes.end() - 1);
      std::sort(inner.begin(), inner.end());
      if (seen.insert(inner).second) folded.push_back(std::move(h));
    }
    out = std::move(folded);
  }
  if (out.size() > o.paths) out.resize(o.paths);
  return out;
}

double association_score(const HypothesisPath &p, double w) {
  return (1 - w) * (0.5 * p.mean_weight + 0.5 * p.min_weight) + w * p.similarity;
}

}  // namespace grappi
