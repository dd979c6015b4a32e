// A modules question's clusters (answer_impl.hpp): the scope's network clustered by Leiden, each module's terms and
// strongest edges, found at retrieval so that the answer's context holds the edges its modules rest on.
#include <algorithm>
#include <cmath>
#include <map>

#include "agents/ask/answer_impl.hpp"
#include "analysis/annotations.hpp"
#include "analysis/partition.hpp"
#include "grappi/communities.hpp"
#include "common/text_util.hpp"
#include "grappi/error.hpp"
#include "grappi/knowledge_graph.hpp"

namespace grappi::detail {

// (a named namespace of its own: the library is compiled in unity batches)
namespace module_parts {

constexpr std::size_t kListed = 10;
constexpr std::size_t kMinModule = 3;
constexpr std::size_t kEdgesPerModule = 3;

// The nodes of the datasets a word names (their paths hold it as a word); `named` lists them, `known` every dataset
// of a network's format.
std::vector<int64_t> dataset_scope(const KnowledgeGraph &kg, const std::string &word, std::string &named, std::string &known) {
  std::vector<int64_t> nodes;
  // (files of proteins, names, ontologies and annotations hold no network)
  static const std::vector<std::string> not_networks = {"info", "aliases", "obo", "mapping", "annotations", "famplex", "corpus"};
  for (const Dataset &d : kg.datasets()) {
    if (std::find(not_networks.begin(), not_networks.end(), d.format) != not_networks.end()) continue;
    known += (known.empty() ? "" : ", ") + d.path;
    const std::vector<std::string> w = words(d.path);
    if (std::find(w.begin(), w.end(), word) == w.end()) continue;
    // (only a dataset the word names is read: its nodes are a scan of the edges)
    const std::vector<int64_t> joined = kg.dataset_nodes(d.id);
    if (joined.empty()) continue;
    named += (named.empty() ? "" : ", ") + std::string("dataset ") + std::to_string(d.id) + " (" + d.path + ")";
    nodes.insert(nodes.end(), joined.begin(), joined.end());
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

// The whole network's modules from the stored community reports (grappi communities build), when a set is stored,
// is not stale and was built at the threshold the question asks for (any, when it asks for none); false otherwise,
// with a note on why a stored set is not used.
bool from_stored(const KnowledgeGraph &kg, const QuestionFrame &f, ModulesFound &m, std::string &note) {
  std::optional<CommunitySet> s;
  try {
    s = load_communities(kg, "default");
  } catch (const Error &e) {
    if (e.code() != ErrorCode::parse) throw;
    note = std::string("the stored community reports cannot be read (") + e.what() + "); clustered anew";
    return false;
  }
  if (!s) return false;
  if (s->stale) {
    note = "the stored community reports (" + s->created_at + ") predate a change of the graph; clustered anew (rebuild them: grappi communities build)";
    return false;
  }
  if (f.min_score > 0 && std::abs(f.min_score - s->min_score) > 1e-9) {
    note = "the stored community reports are at score >= " + fixed(s->min_score, 3) + ", the question asks for " + fixed(f.min_score, 3) + "; clustered anew";
    return false;
  }
  auto r = std::make_shared<ClusteringResult>();
  r->method = cluster_method(s->method);
  r->min_score = s->min_score;
  r->edges = s->edges;
  r->modularity = s->modularity;
  r->terms_note = s->terms_note;
  for (const CommunityReport &c : s->reports) {
    if (c.level != 0) continue;
    Cluster x;
    x.id = r->clusters.size();
    x.members = c.nodes;
    x.internal_edges = c.internal_edges;
    x.external_edges = c.external_edges;
    for (const CommunityTerm &t : c.terms) {
      EnrichedTerm e;
      e.term = t.term;
      e.name = t.name;
      e.category = t.category;
      e.observed = t.observed;
      e.fdr = t.fdr;
      x.terms.push_back(std::move(e));
    }
    if (m.listed.size() < kListed && c.members.size() >= kMinModule) {
      m.listed.push_back(x.id);
      std::vector<int64_t> edges;
      for (std::size_t i = 0; i < c.edges.size() && i < kEdgesPerModule; ++i) edges.push_back(c.edges[i].edge);
      m.edges.push_back(std::move(edges));
      m.summaries.push_back({{"community", c.id}, {"text", c.summary}, {"status", c.summary_status}, {"by", c.summary_by},
                             {"citations", c.citations}});
    }
    r->clusters.push_back(std::move(x));
  }
  // (communities below min_size have no report: counted, not listed)
  const std::size_t unreported = s->communities > r->clusters.size() ? s->communities - r->clusters.size() : 0;
  m.scope = "the " + std::to_string(s->nodes) + " proteins of the whole network";
  m.looked_up = "the stored community reports '" + s->name + "' (" + s->method + ", built " + s->created_at + ") of " +
                m.scope + " at score >= " + fixed(s->min_score, 3) + " (" + std::to_string(s->edges) + " edges; modularity " +
                fixed(s->modularity, 3) + ")";
  m.stored = std::to_string(s->reports.size()) + " community report(s) stored " + s->created_at + ", summaries by " + s->model +
             (unreported ? "; " + std::to_string(unreported) + " smaller communities without a report" : "");
  m.result = std::move(r);
  return true;
}

}  // namespace module_parts

std::vector<int64_t> strongest_module_edges(const GraphSnapshot &g, const Cluster &c, const std::vector<std::string> &relations,
                                            double min_score, std::size_t k) {
  std::vector<uint32_t> members;
  for (int64_t id : c.members)
    if (const auto ix = g.index_of(id)) members.push_back(*ix);
  std::vector<NetworkEdge> found = network_edges(g, members, network_relations(g, relations, "ask"), static_cast<float>(min_score));
  std::sort(found.begin(), found.end(), [](const NetworkEdge &a, const NetworkEdge &b) {
    return a.score != b.score ? a.score > b.score : a.edge < b.edge;
  });
  std::vector<int64_t> out;
  for (std::size_t i = 0; i < found.size() && i < k; ++i) out.push_back(found[i].edge);
  return out;
}

std::shared_ptr<const ModulesFound> find_modules(const KnowledgeGraph &kg, const QuestionAnalysis &q,
                                                 const std::vector<IntentCandidate> &partners) {
  auto m = std::make_shared<ModulesFound>();
  const QuestionFrame &f = q.frame;
  ClusterOptions o;
  o.method = ClusterMethod::leiden_modularity;
  o.min_score = f.min_score > 0 ? f.min_score : kMediumConfidence;
  o.terms = 3;
  std::vector<int64_t> nodes;
  if (f.relation == "dataset") {
    std::string named, known;
    nodes = module_parts::dataset_scope(kg, f.network, named, known);
    if (nodes.empty()) {
      m->reason = "no imported network is named '" + f.network + "' (the networks imported: " +
                  (known.empty() ? std::string("none") : known) + ")";
      return m;
    }
    m->scope = "the " + std::to_string(nodes.size()) + " proteins of " + named;
  } else if (f.relation == "set") {
    for (const QuestionEntity &e : q.entities) nodes.push_back(e.node);
    m->scope = "the " + std::to_string(nodes.size()) + " entities named";
  } else if (f.relation == "partners") {
    nodes.push_back(q.entities.front().node);
    for (const IntentCandidate &c : partners)
      if (c.admitted) nodes.push_back(c.node);
    m->scope = q.entities.front().name + " and its " + std::to_string(nodes.size() - 1) + " partners";
  } else {
    if (module_parts::from_stored(kg, f, *m, m->stored)) return m;
    m->scope = "the whole network";
  }
  try {
    m->result = std::make_shared<ClusteringResult>(cluster(kg, nodes, o));
  } catch (const Error &e) {
    if (e.code() != ErrorCode::invalid_argument && e.code() != ErrorCode::not_found) throw;
    m->reason = std::string("its network cannot be clustered: ") + e.what();
    return m;
  }
  const ClusteringResult &r = *m->result;
  if (f.relation.empty() || f.relation == "network")
    m->scope = "the " + std::to_string(r.nodes.size()) + " proteins of the whole network";
  m->looked_up = "Leiden clusters (modularity, seed 42) of " + m->scope + " at score >= " + fixed(o.min_score, 3) + " (" +
                 std::to_string(r.edges) + " edges; modularity " + fixed(r.modularity, 3) + ")";
  const auto snapshot = kg.snapshot();
  for (std::size_t i = 0; i < r.clusters.size() && m->listed.size() < module_parts::kListed; ++i) {
    if (r.clusters[i].level != 0 || r.clusters[i].members.size() < module_parts::kMinModule) continue;
    m->listed.push_back(i);
    m->edges.push_back(strongest_module_edges(*snapshot, r.clusters[i], {}, o.min_score, module_parts::kEdgesPerModule));
  }
  return m;
}

Subgraph modules_subgraph(const KnowledgeGraph &kg, const ModulesFound &m) {
  Subgraph s;
  std::map<int64_t, WindowEdge> edges;
  for (const auto &list : m.edges)
    for (int64_t id : list) {
      const auto e = kg.edge(id);
      if (!e) continue;
      WindowEdge w;
      w.edge = e->id;
      w.source = std::min(e->source, e->target);
      w.target = std::max(e->source, e->target);
      w.relation = e->relation;
      w.score = e->score;
      w.directed = e->directed;
      edges.emplace(id, w);
      s.nodes.push_back(w.source);
      s.nodes.push_back(w.target);
    }
  std::sort(s.nodes.begin(), s.nodes.end());
  s.nodes.erase(std::unique(s.nodes.begin(), s.nodes.end()), s.nodes.end());
  s.hops.assign(s.nodes.size(), 0);
  for (const auto &[id, w] : edges) s.edges.push_back(w);
  return s;
}

}  // namespace grappi::detail
