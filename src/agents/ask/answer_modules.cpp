// A modules question's clusters (answer_impl.hpp): the scope's network clustered by Leiden, each module's terms and
// strongest edges, found at retrieval so that the answer's context holds the edges its modules rest on.
#include <algorithm>
#include <map>

#include "agents/ask/answer_impl.hpp"
#include "analysis/annotations.hpp"
#include "analysis/partition.hpp"
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

// A module's strongest edges among its members (database ids), at most kEdgesPerModule.
std::vector<int64_t> strongest_edges(const GraphSnapshot &g, const Cluster &c, double min_score) {
  std::vector<uint32_t> members;
  for (int64_t id : c.members)
    if (const auto ix = g.index_of(id)) members.push_back(*ix);
  std::vector<NetworkEdge> found = network_edges(g, members, network_relations(g, {}, "ask"), static_cast<float>(min_score));
  std::sort(found.begin(), found.end(), [](const NetworkEdge &a, const NetworkEdge &b) {
    return a.score != b.score ? a.score > b.score : a.edge < b.edge;
  });
  std::vector<int64_t> out;
  for (std::size_t i = 0; i < found.size() && i < kEdgesPerModule; ++i) out.push_back(found[i].edge);
  return out;
}

}  // namespace module_parts

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
    m->edges.push_back(module_parts::strongest_edges(*snapshot, r.clusters[i], o.min_score));
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
