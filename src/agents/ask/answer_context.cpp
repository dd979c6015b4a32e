// The context of an answer (grappi/answer.hpp): the question's subgraph written for the model,
// its nodes ranked by prize and labelled N0, N1, ..., its edges E0, E1, ...; either with each
// edge's evidence or as G-Retriever's CSV; trimmed to a token budget from the lowest prize up.
#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "agents/ask/answer_impl.hpp"
#include "grappi/error.hpp"
#include "grappi/retriever.hpp"
#include "common/text_util.hpp"

namespace grappi::detail {

std::string clip_text(std::string s, std::size_t n) {
  if (s.size() <= n) return s;
  std::size_t cut = n;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xc0) == 0x80) --cut;  // (not inside a character)
  s.resize(cut);
  return s + "…";
}

std::string one_line_text(std::string s) {
  for (char &c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return s;
}

namespace {

using nlohmann::json;

// A JSON value's text: a string as it is, a term object by its name (else id).
std::string term_text(const json &v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object()) {
    const std::string name = v.value("name", std::string());
    return name.empty() ? v.value("id", std::string()) : name;
  }
  return {};
}

struct EdgeView {
  Edge edge;
  std::vector<std::string> interactions;  // "intact:EBI-1", with their detection methods after " ("
  std::string evidence;
};

EdgeView view_of(const KnowledgeGraph &kg, int64_t id) {
  EdgeView v;
  if (auto e = kg.edge(id)) v.edge = std::move(*e);
  v.evidence = v.edge.evidence;
  for (const EvidenceRecord &r : v.edge.records) {
    const json j = json::parse(r.record, nullptr, false);
    if (!j.is_object()) continue;
    std::string methods;
    if (j.contains("detection_methods") && j["detection_methods"].is_array())
      for (const json &m : j["detection_methods"])
        if (const std::string t = term_text(m); !t.empty()) methods += (methods.empty() ? "" : ", ") + t;
    if (j.contains("interaction_ids") && j["interaction_ids"].is_array())
      for (const json &x : j["interaction_ids"])
        if (x.is_string()) v.interactions.push_back(x.get<std::string>() + (methods.empty() ? "" : " (" + methods + ")"));
    if (v.evidence.empty() && j.contains("evidence") && j["evidence"].is_string()) v.evidence = j["evidence"].get<std::string>();
  }
  return v;
}

}  // namespace

void rank_subgraph_nodes(std::vector<RankedSubgraphNode> &nodes) {
  std::stable_sort(nodes.begin(), nodes.end(), [](const RankedSubgraphNode &a, const RankedSubgraphNode &b) {
    if (a.prize != b.prize) return a.prize > b.prize;
    if (a.similarity != b.similarity) return a.similarity > b.similarity;
    return a.node < b.node;
  });
}

AnswerContext build_answer_context(const KnowledgeGraph &kg, const std::vector<RankedSubgraphNode> &ranked,
                                   const std::vector<int64_t> &subgraph_edges, const std::string &format,
                                   std::size_t budget, json &task) {
  if (format != "evidence" && format != "csv")
    throw Error(ErrorCode::invalid_argument, "ask: the context is \"evidence\" or \"csv\", not \"" + format + "\"");
  AnswerContext c;
  c.format = format;
  // Every node's and edge's line, then the budget: the lowest-ranked nodes go first.
  std::vector<Node> nodes;
  std::unordered_map<int64_t, std::size_t> rank_of;
  for (const RankedSubgraphNode &r : ranked) {
    rank_of.emplace(r.node, nodes.size());
    auto n = kg.node(r.node);
    Node missing;
    missing.id = r.node;
    missing.name = std::to_string(r.node);
    nodes.push_back(n ? *n : missing);
  }
  std::vector<EdgeView> edges;
  for (int64_t id : subgraph_edges) {
    EdgeView v = view_of(kg, id);
    if (rank_of.count(v.edge.source) && rank_of.count(v.edge.target)) edges.push_back(std::move(v));
  }
  const auto node_line = [&](std::size_t i, std::size_t label) {
    const Node &n = nodes[i];
    std::string line = "N" + std::to_string(label) + " " + one_line_text(n.name) + " [" + one_line_text(n.label) + "] (" +
                       one_line_text(n.external_id) + ")";
    if (!n.annotation.empty()) line += ": " + clip_text(one_line_text(n.annotation), 240);
    return line;
  };
  const auto edge_line = [&](const EdgeView &v, std::size_t label, const std::unordered_map<int64_t, std::size_t> &at) {
    const Edge &e = v.edge;
    char score[32];
    std::snprintf(score, sizeof score, "%.3f", e.score);
    std::string line = "E" + std::to_string(label) + " N" + std::to_string(at.at(e.source)) + (e.directed ? " -> N" : " -- N") +
                       std::to_string(at.at(e.target)) + " " + one_line_text(nodes[rank_of.at(e.source)].name) +
                       (e.directed ? " -> " : " -- ") + one_line_text(nodes[rank_of.at(e.target)].name) + ": " + e.relation + " " +
                       score;
    if (!e.channels.empty()) line += "; channels " + channel_list(e.channels, " ", ", ");
    if (!e.pmids.empty()) {
      line += "; PMIDs";
      for (std::size_t k = 0; k < e.pmids.size() && k < 5; ++k) line += (k ? ", " : " ") + std::to_string(e.pmids[k]);
      if (e.pmids.size() > 5) line += " (+" + std::to_string(e.pmids.size() - 5) + ")";
    }
    if (!v.interactions.empty()) {
      line += "; interactions";
      for (std::size_t k = 0; k < v.interactions.size() && k < 3; ++k) line += (k ? ", " : " ") + v.interactions[k];
    }
    if (!v.evidence.empty()) line += "; evidence \"" + clip_text(one_line_text(v.evidence), 200) + "\"";
    return line;
  };
  // The context of the best n nodes: N labels in rank order (evidence) or in ascending node id
  // (G-Retriever's CSV, whose node_id is the row), E labels in edge order.
  const auto snapshot = kg.snapshot();
  const auto render = [&](std::size_t n_kept) {
    std::vector<std::size_t> order(n_kept);
    for (std::size_t i = 0; i < n_kept; ++i) order[i] = i;
    if (format == "csv")
      std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return nodes[x].id < nodes[y].id; });
    std::unordered_map<int64_t, std::size_t> at;
    AnswerContext out;
    out.format = format;
    for (std::size_t k = 0; k < order.size(); ++k) {
      at.emplace(nodes[order[k]].id, k);
      out.nodes.push_back(nodes[order[k]].id);
    }
    std::vector<const EdgeView *> kept_edges;
    for (const EdgeView &v : edges)
      if (at.count(v.edge.source) && at.count(v.edge.target)) {
        kept_edges.push_back(&v);
        out.edges.push_back(v.edge.id);
      }
    if (format == "csv") {
      Subgraph sub;
      sub.nodes = out.nodes;
      for (const EdgeView *v : kept_edges)
        sub.edges.push_back({v->edge.id, v->edge.source, v->edge.target, v->edge.relation, v->edge.score, v->edge.directed});
      out.text = to_gretriever_csv(*snapshot, sub, [&](int64_t id) { return KnowledgeGraph::node_text(nodes[rank_of.at(id)]); });
    } else {
      std::string text = "Nodes:\n";
      for (std::size_t k = 0; k < order.size(); ++k) text += node_line(order[k], k) + "\n";
      text += "Edges:\n";
      for (std::size_t k = 0; k < kept_edges.size(); ++k) text += edge_line(*kept_edges[k], k, at) + "\n";
      out.text = std::move(text);
    }
    out.tokens = out.text.size() / 4 + 1;
    return out;
  };
  std::size_t kept = nodes.size();
  c = render(kept);
  while (budget && c.tokens > budget && kept > 1) {
    // Drop about the share of nodes the overshoot asks for (at least one), then measure again.
    const std::size_t over = (c.tokens - budget) * kept / c.tokens;
    kept -= std::min(kept - 1, std::max<std::size_t>(1, over / 2));
    c = render(kept);
  }
  c.trimmed_nodes = nodes.size() - kept;
  c.trimmed_edges = edges.size() - c.edges.size();
  // The offline model's view, in rank order.
  json entities = json::array(), task_edges = json::array();
  std::unordered_map<int64_t, std::size_t> label_of;
  for (std::size_t k = 0; k < c.nodes.size(); ++k) label_of.emplace(c.nodes[k], k);
  for (std::size_t i = 0; i < kept; ++i)
    entities.push_back({{"label", "N" + std::to_string(label_of.at(nodes[i].id))},
                        {"name", nodes[i].name},
                        {"annotation", clip_text(one_line_text(nodes[i].annotation), 240)},
                        {"prize", ranked[i].prize}});
  std::unordered_map<int64_t, const Edge *> edge_of;
  for (const EdgeView &v : edges) edge_of.emplace(v.edge.id, &v.edge);
  for (std::size_t k = 0; k < c.edges.size(); ++k) {
    const Edge &e = *edge_of.at(c.edges[k]);
    task_edges.push_back({{"label", "E" + std::to_string(k)},
                          {"a", "N" + std::to_string(label_of.at(e.source))},
                          {"b", "N" + std::to_string(label_of.at(e.target))},
                          {"relation", e.relation},
                          {"score", e.score},
                          {"pmids", e.pmids}});
  }
  task["entities"] = std::move(entities);
  task["edges"] = std::move(task_edges);
  return c;
}

void add_reader_scores(AnswerContext &c, const std::unordered_map<int64_t, double> &scores) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < c.nodes.size(); ++i)
    if (scores.count(c.nodes[i])) order.push_back(i);
  if (order.empty()) return;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return scores.at(c.nodes[a]) > scores.at(c.nodes[b]); });
  std::string line = "Graph reader (a graph attention network trained on questions like this one; the probability that "
                     "a node answers, likeliest first):";
  for (std::size_t k = 0; k < order.size() && k < 10; ++k) {
    char p[32];
    std::snprintf(p, sizeof p, " %.3f", scores.at(c.nodes[order[k]]));
    line += (k ? ", N" : " N") + std::to_string(order[k]) + p;
  }
  if (!c.text.empty() && c.text.back() != '\n') c.text += '\n';
  c.text += line + "\n";
  c.tokens = c.text.size() / 4 + 1;
}

}  // namespace grappi::detail
