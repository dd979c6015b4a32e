// Report views: each result reduced to what an HTML report draws and lists (html_report.hpp;
// the format is in docs/web.md). Node ids are "n<node id>", edge ids "e<edge id>".
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "grappi/error.hpp"
#include "grappi/html_report.hpp"
#include "grappi/snapshot.hpp"
#include "grappi/version.h"
#include "agents/explore/explore_offline.hpp"
#include "models/model_calls.hpp"
#include "common/text_util.hpp"

namespace grappi {

namespace {

using nlohmann::json;

std::string nid(int64_t id) { return "n" + std::to_string(id); }
std::string eid(int64_t id) { return "e" + std::to_string(id); }

/// Roles, strongest first: a node takes the strongest role it is given.
int role_rank(const std::string &role) {
  static const char *const order[] = {"root", "seed", "answer", "path", "cited", "entity", "context"};
  for (int i = 0; i < 7; ++i)
    if (role == order[i]) return i;
  return 7;
}

json pmid_list(const std::vector<int64_t> &pmids) {
  json a = json::array();
  for (const int64_t p : pmids) a.push_back(p);
  return a;
}

json channel_map(const std::vector<Channel> &channels) {
  json m = json::object();
  for (const auto &c : channels)
    if (c.score > 0) m[c.name] = c.score;
  return m;
}

std::string joined(const std::vector<std::size_t> &v) {
  std::string s;
  for (const auto x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

/// The nodes and edges of a view, each added once.
struct Builder {
  json nodes = json::array();
  json edges = json::array();
  std::map<int64_t, std::size_t> node_at, edge_at;

  json &node(int64_t id, const std::string &label, const std::string &role) {
    auto [it, added] = node_at.emplace(id, nodes.size());
    if (added) nodes.push_back({{"id", nid(id)}, {"label", label.empty() ? std::to_string(id) : label}, {"role", role}});
    json &n = nodes[it->second];
    if (role_rank(role) < role_rank(n["role"].get<std::string>())) n["role"] = role;
    return n;
  }
  bool has_node(int64_t id) const { return node_at.count(id) != 0; }
  json &edge(int64_t id, int64_t source, int64_t target, const std::string &relation, double score, bool directed) {
    auto [it, added] = edge_at.emplace(id, edges.size());
    if (added)
      edges.push_back({{"id", eid(id)},
                       {"source", nid(source)},
                       {"target", nid(target)},
                       {"relation", relation},
                       {"score", std::isfinite(score) ? json(score) : json()},
                       {"directed", directed}});
    return edges[it->second];
  }
  /// Adds a node's annotation, external id and label from the database (when it has them).
  void describe(const KnowledgeGraph &kg, json &n, int64_t id) const {
    const auto node = kg.node(id);
    if (!node) return;
    n["label"] = node->name.empty() ? node->external_id : node->name;
    n["external_id"] = node->external_id;
    if (!node->annotation.empty()) n["annotation"] = node->annotation;
    if (!node->label.empty()) n["info"].push_back(json::array({"type", node->label}));
  }
  /// Adds an edge's evidence from the database.
  static void evidence(const KnowledgeGraph &kg, json &e, int64_t id) {
    const auto edge = kg.edge(id);
    if (!edge) return;
    const json channels = channel_map(edge->channels);
    if (!channels.empty()) e["channels"] = channels;
    if (!edge->pmids.empty()) e["pmids"] = pmid_list(edge->pmids);
    if (!edge->evidence.empty()) e["evidence"] = edge->evidence;
  }
  json view(const std::string &kind, json items) const {
    return {{"format", "grappi-report-view"}, {"version", 1}, {"kind", kind}, {"generator", "grappi " GRAPPI_VERSION_STRING},
            {"nodes", nodes}, {"edges", edges}, {"items", std::move(items)}};
  }
};

std::string summary_of(const std::string &text) {
  std::string s = detail::utf8_prefix(text, 160);
  if (s.size() < text.size()) s += "\u2026";
  return s;
}

std::string offline_label() { return "not written by a language model"; }

/// What an extractive path answer says beyond its fixed opening and the path itself:
/// "Extractive summary (not generated): A -> B (1 edge, ...). Query terms found: x." gives
/// "1 edge, .... Query terms found: x."; any other text is returned as it is.
std::string extractive_brief(const std::string &text) {
  static const std::string opening = detail::kExtractiveOpening;
  if (text.compare(0, opening.size(), opening) != 0) return text;
  const std::size_t open = text.find(" (", opening.size());
  const std::size_t close = open == std::string::npos ? std::string::npos : text.find("). ", open);
  if (close == std::string::npos) return text.substr(opening.size());
  return text.substr(open + 2, close - open - 2) + ". " + text.substr(close + 3);
}

/// A model description's field ("?" when the description has none).
std::string model_field(const json &model, const char *key) {
  return model.is_object() && model.contains(key) && model[key].is_string() ? model[key].get<std::string>() : "?";
}

}  // namespace

json report_view(const ExploreResult &r) {
  Builder b;
  json view_extra = json::object();
  const bool offline = model_field(r.model, "kind") == "extractive";
  std::map<int64_t, std::vector<std::size_t>> windows_of;
  for (const auto &w : r.windows)
    for (const auto &n : w.nodes) windows_of[n.id].push_back(w.index);
  std::set<int64_t> on_path;
  for (const auto &p : r.paths) on_path.insert(p.nodes.begin(), p.nodes.end());
  for (const auto &p : r.proteins) {
    json &n = b.node(p.id, p.name, p.id == r.root ? "root" : on_path.count(p.id) ? "path" : "context");
    n["external_id"] = p.external_id;
    if (!p.annotation.empty()) n["annotation"] = p.annotation;
    if (std::isfinite(p.query_similarity)) n["score"] = p.query_similarity;
    n["score_label"] = "query similarity";
    if (windows_of.count(p.id)) n["info"] = json::array({json::array({"windows", joined(windows_of[p.id])})});
  }
  // Clusters: each node's, and the legend's labels (a cluster's first enriched term, else its hubs).
  if (!r.clusters.empty()) {
    json clusters = json::array();
    for (const Cluster &c : r.clusters) {
      std::string label;
      if (!c.terms.empty()) {
        label = c.terms.front().name;
      } else {
        for (std::size_t i = 0; i < c.members.size() && i < 3; ++i) {
          const auto *p = r.protein(c.members[i]);
          label += (i ? ", " : "") + (p ? p->name : std::to_string(c.members[i]));
        }
      }
      clusters.push_back({{"id", c.id}, {"size", c.members.size()}, {"label", label}});
      for (int64_t id : c.members)
        if (b.has_node(id)) b.node(id, "", "")["cluster"] = c.id;
    }
    view_extra["clusters"] = clusters;
    view_extra["colour_by"] = "cluster";
  }
  // The windows' enriched terms, as a table.
  json terms = json::array();
  for (std::size_t w = 0; w < r.window_terms.size() && w < r.windows.size(); ++w)
    for (const EnrichedTerm &t : r.window_terms[w])
      terms.push_back({{"window", r.windows[w].index}, {"term", t.term}, {"name", t.name}, {"category", t.category},
                       {"fdr", t.fdr}, {"observed", t.observed}, {"background", t.background}});
  if (!terms.empty()) view_extra["terms"] = terms;
  const auto name_of = [&r](int64_t id) {
    const auto *p = r.protein(id);
    return p ? p->name : std::to_string(id);
  };
  for (const auto &w : r.windows)
    for (const auto &e : w.edges)
      if (b.has_node(e.source) && b.has_node(e.target)) b.edge(e.edge, e.source, e.target, e.relation, e.score, e.directed);
  for (const auto &x : r.edges) {
    if (!b.has_node(x.source)) b.node(x.source, name_of(x.source), "path");
    if (!b.has_node(x.target)) b.node(x.target, name_of(x.target), "path");
    json &e = b.edge(x.edge, x.source, x.target, x.relation, x.score, x.directed);
    e["status"] = x.status;
    if (!x.explanation.empty()) {
      e["explanation"] = x.explanation;
      e["generated"] = !offline;
    }
    if (!x.error.empty()) e["error"] = x.error;
    const json channels = channel_map(x.channels);
    if (!channels.empty()) e["channels"] = channels;
    if (!x.pmids.empty()) e["pmids"] = pmid_list(x.pmids);
    if (!x.evidence.empty()) e["evidence"] = x.evidence;
    if (x.cached) e["info"] = json::array({json::array({"answer", "from the response cache"})});
  }
  json items = json::array();
  const auto add_path = [&](const ExplainedPath &p) {
    std::string chain;
    json nodes = json::array(), edges = json::array();
    for (std::size_t i = 0; i < p.nodes.size(); ++i) {
      chain += (i ? " \u2192 " : "") + name_of(p.nodes[i]);
      nodes.push_back(nid(p.nodes[i]));
    }
    for (const auto k : p.edges)
      if (k < r.edges.size()) edges.push_back(eid(r.edges[k].edge));
    json it = {{"rank", p.rank}, {"title", chain}, {"status", p.status}, {"nodes", nodes}, {"edges", edges}};
    if (p.status == "ok") it["score"] = p.relevance_score;
    if (!p.explanation.empty()) {
      it["text"] = p.explanation;
      // (the informative part: an extractive answer's fixed opening and the path it repeats dropped)
      const std::string brief = offline ? extractive_brief(p.explanation) : p.explanation;
      if (brief != p.explanation) it["brief"] = brief;
      it["summary"] = summary_of(brief);
      it["generated"] = !offline;
    }
    if (!p.error.empty()) it["error"] = p.error;
    json details = json::array({{{"label", "windows"}, {"text", joined(p.windows)}},
                                {{"label", "prior"}, {"text", detail::fixed(p.prior, 3)}}});
    if (p.clamped) details.push_back({{"label", "score"}, {"text", "the model's score was out of range and was clamped"}});
    if (p.cached) details.push_back({{"label", "answer"}, {"text", "from the response cache"}});
    it["details"] = details;
    items.push_back(std::move(it));
  };
  for (const auto &p : r.paths) add_path(p);
  for (const auto &p : r.failed) add_path(p);
  json view = b.view("explore", std::move(items));
  view["title"] = "grappi explore: " + name_of(r.root);
  std::string windows;
  for (const auto &w : r.windows)
    windows += (windows.empty() ? "" : "; ") + std::to_string(w.index) + " (" + std::to_string(w.nodes.size()) + " proteins, " +
               std::to_string(w.edges.size()) + " edges)";
  view["subtitle"] = "Therapeutic impact: \u201c" + r.query + "\u201d \u00b7 model: " + model_field(r.model, "identity") +
                     " \u00b7 windows " + windows;
  if (offline) {
    view["offline_note"] =
        "The explanations are extractive summaries of the database's annotations and STRING evidence, not written by a "
        "language model; the relevance scores come from the same rules.";
    view["offline_label"] = offline_label();
  }
  json notes = json::array();
  for (const auto &n : r.notes) notes.push_back(n);
  if (r.partial) notes.push_back("Partial result: " + r.partial_reason);
  if (r.dry_run) notes.push_back("Dry run: nothing was sent; " + std::to_string(r.planned_calls) + " model calls planned.");
  view["notes"] = notes;
  // Whether a next window can hold anything: the last window took its full first k (windows move
  // down the start's neighbors by rank; a window with fewer has used them up).
  bool next_window = false;
  if (!r.windows.empty() && r.parameters.is_object() && r.parameters.contains("k") && r.parameters["k"].is_array() &&
      !r.parameters["k"].empty() && r.parameters["k"][0].is_number_unsigned()) {
    const auto k1 = r.parameters["k"][0].get<std::size_t>();
    const Window &last = r.windows.back();
    const auto first = static_cast<std::size_t>(
        std::count_if(last.nodes.begin(), last.nodes.end(), [](const WindowNode &n) { return n.depth == 1; }));
    next_window = last.note.empty() && first >= k1;
  }
  view["next_window"] = next_window;
  view["items_label"] = "Ranked paths";
  view["score_label"] = "relevance (0-100)";
  view["score_digits"] = 0;
  view["empty_text"] = r.dry_run ? "Dry run: no path was explained." : "No path was scored.";
  view["provenance"] = {{"dataset", r.provenance}, {"model", r.model}, {"templates", r.template_version}, {"parameters", r.parameters}};
  for (auto it = view_extra.begin(); it != view_extra.end(); ++it) view[it.key()] = it.value();
  return view;
}

json report_view(const KnowledgeGraph &kg, const std::string &question, const PcstRetrieval &r) {
  Builder b;
  const std::set<int64_t> seeds(r.seeds.begin(), r.seeds.end());
  double max_prize = 0;
  for (const double p : r.node_prizes) max_prize = std::max(max_prize, p);
  std::vector<std::size_t> order(r.subgraph.nodes.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
    const int64_t id = r.subgraph.nodes[i];
    json &n = b.node(id, std::to_string(id), seeds.count(id) ? "seed" : "context");
    b.describe(kg, n, id);
    const double prize = i < r.node_prizes.size() ? r.node_prizes[i] : 0.0;
    n["prize"] = prize;
    n["score"] = max_prize > 0 ? prize / max_prize : 0.0;
    n["score_label"] = "prize (scaled to the largest)";
    if (i < r.subgraph.hops.size()) n["info"].push_back(json::array({"hops from a seed", std::to_string(r.subgraph.hops[i])}));
    n["info"].push_back(json::array({"prize", detail::fixed(prize, 3)}));
  }
  for (std::size_t i = 0; i < r.subgraph.edges.size(); ++i) {
    const WindowEdge &e = r.subgraph.edges[i];
    json &j = b.edge(e.edge, e.source, e.target, e.relation, e.score, e.directed);
    Builder::evidence(kg, j, e.edge);
    if (i < r.edge_prizes.size()) j["info"] = json::array({json::array({"prize", detail::fixed(r.edge_prizes[i], 3)})});
  }
  std::stable_sort(order.begin(), order.end(), [&r](std::size_t x, std::size_t y) {
    const double a = x < r.node_prizes.size() ? r.node_prizes[x] : 0.0, c = y < r.node_prizes.size() ? r.node_prizes[y] : 0.0;
    return a > c;
  });
  json items = json::array();
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    const int64_t id = r.subgraph.nodes[i];
    const json &n = b.nodes[b.node_at.at(id)];
    json it = {{"rank", k + 1},
               {"title", n["label"]},
               {"score", i < r.node_prizes.size() ? r.node_prizes[i] : 0.0},
               {"nodes", json::array({nid(id)})},
               {"edges", json::array()}};
    if (n.contains("annotation")) it["summary"] = summary_of(n["annotation"].get<std::string>());
    if (seeds.count(id)) it["details"] = json::array({{{"label", "seed"}, {"text", "one of the nodes most similar to the question"}}});
    items.push_back(std::move(it));
  }
  json view = b.view("retrieve", std::move(items));
  view["title"] = "grappi retrieve: " + question;
  view["subtitle"] = std::to_string(r.subgraph.nodes.size()) + " nodes and " + std::to_string(r.subgraph.edges.size()) +
                     " edges chosen by PCST from a base of " + std::to_string(r.base_nodes) + " nodes and " +
                     std::to_string(r.base_edges) + " edges (objective " + detail::fixed(r.objective, 3) + ")";
  view["items_label"] = "Nodes by prize";
  view["score_label"] = "prize";
  view["score_digits"] = 3;
  view["empty_text"] = "The subgraph is empty.";
  view["notes"] = json::array();
  view["provenance"] = {{"question", question},
                        {"edge_cost", r.edge_cost},
                        {"objective", r.objective},
                        {"net_worth", r.net_worth},
                        {"virtual_nodes", r.virtual_nodes}};
  return view;
}

json report_view(const KnowledgeGraph &kg, const AskResult &r) {
  json view = report_view(kg, r.question, r.retrieval);
  view["kind"] = "ask";
  view["title"] = "grappi ask: " + r.question;
  // Roles: the question's entities, the answer entities, what the answer cites.
  std::map<std::string, std::size_t> by_id;
  for (std::size_t i = 0; i < view["nodes"].size(); ++i) by_id[view["nodes"][i]["id"].get<std::string>()] = i;
  const auto promote = [&](int64_t node, const char *role) {
    const auto it = by_id.find(nid(node));
    if (it == by_id.end()) return;
    json &n = view["nodes"][it->second];
    if (role_rank(role) < role_rank(n["role"].get<std::string>())) n["role"] = role;
  };
  std::set<std::string> asked;
  for (const QuestionEntity &e : r.question_entities) asked.insert(nid(e.node));
  for (auto &n : view["nodes"]) n["role"] = asked.count(n["id"].get<std::string>()) ? "seed" : "context";
  for (const auto &a : r.answer_entities) promote(a.node, "answer");
  std::set<std::string> cited_edges;
  for (const auto &s : r.sentences)
    for (const auto &c : s.citations) {
      if (c.status != "supported") continue;
      if (c.node) promote(c.node, "cited");
      if (c.edge) cited_edges.insert(eid(c.edge));
    }
  const bool gat = r.reader == "gat";
  json items = json::array();
  for (std::size_t i = 0; i < r.answer_entities.size(); ++i) {
    const AnswerEntity &a = r.answer_entities[i];
    json edges = json::array(), nodes = json::array({nid(a.node)});
    for (const int64_t e : a.edges) edges.push_back(eid(e));
    for (const auto &e : r.retrieval.subgraph.edges)
      if (std::find(a.edges.begin(), a.edges.end(), e.edge) != a.edges.end()) {
        nodes.push_back(nid(e.source == a.node ? e.target : e.source));
      }
    json it = {{"rank", i + 1},
               {"title", a.name.empty() ? a.id : a.name},
               {"score", gat ? a.reader_score : a.prize},
               {"nodes", nodes},
               {"edges", edges}};
    if (!a.evidence.empty()) {
      it["text"] = a.evidence;
      it["summary"] = summary_of(a.evidence);
    }
    json details = json::array({{{"label", "prize"}, {"text", detail::fixed(a.prize, 3)}},
                                {{"label", "similarity to the question"}, {"text", detail::fixed(a.score, 3)}}});
    if (gat) details.push_back({{"label", "graph reader probability"}, {"text", detail::fixed(a.reader_score, 3)}});
    if (a.named) details.push_back({{"label", "answer"}, {"text", "the answer names or cites it"}});
    it["details"] = details;
    items.push_back(std::move(it));
  }
  view["items"] = items;
  view["items_label"] = "Answer entities";
  view["score_label"] = gat ? "graph reader probability" : "prize";
  view["empty_text"] = "No answer entity.";
  // The answer, sentence by sentence, with its citation checks.
  json entries = json::array();
  for (const auto &s : r.sentences) {
    std::string note;
    for (const auto &c : s.citations)
      note += (note.empty() ? "" : "; ") + c.id + ": " + c.status + (c.target.empty() ? "" : " (" + c.target + ")");
    entries.push_back({{"text", s.text}, {"status", s.status}, {"note", note}});
  }
  // (the summary counts what the citations say: an offline sentence is extractive, a model's supported or not)
  std::string counts;
  for (const char *status : {"supported", "extractive", "uncited", "not_in_context", "wrong_entities", "unknown_id"})
    if (const std::size_t n = r.count(status))
      counts += std::string(counts.empty() ? "" : ", ") + std::to_string(n) + " " + status;
  std::string intro = r.answer.text.empty() ? std::string() : r.answer.text + " (" + r.answer.form + ", by rules from the knowledge base). ";
  intro += "Status " + r.status + (r.error.empty() || r.error == r.answer.reason ? "" : " (" + r.error + ")") + "; " +
           std::to_string(r.sentences.size()) + " sentence(s)" + (counts.empty() ? "" : ": " + counts) + ".";
  view["sections"] = json::array({{{"title", "Answer"}, {"text", intro}, {"entries", entries}}});
  if (r.offline) {
    view["offline_note"] =
        "The answer is assembled by the offline model from the retrieved subgraph (extractive, rule-based), not written by a "
        "language model.";
    view["offline_label"] = offline_label();
  }
  for (auto &e : view["edges"])
    if (cited_edges.count(e["id"].get<std::string>())) e["info"].push_back(json::array({"cited", "by a supported citation"}));
  // A modules answer: its modules as the view's clusters, their nodes coloured by them.
  if (r.answer.form == "modules" && r.answer.value.is_array() && !r.answer.value.empty()) {
    const auto snapshot = kg.snapshot();
    json clusters = json::array();
    for (std::size_t k = 0; k < r.answer.value.size(); ++k) {
      const json &m = r.answer.value[k];
      std::string label;
      if (m.contains("terms") && !m["terms"].empty()) {
        label = m["terms"][0].value("name", std::string());
      } else if (m.contains("hubs")) {
        for (std::size_t i = 0; i < m["hubs"].size() && i < 3; ++i) label += (i ? ", " : "") + m["hubs"][i].get<std::string>();
      }
      clusters.push_back({{"id", k}, {"size", m.value("size", std::size_t{0})}, {"label", label}});
      if (!m.contains("members")) continue;
      for (const json &id : m["members"]) {
        const auto node = kg.node_by_external_id(id.get<std::string>());
        if (!node) continue;
        if (const auto it = by_id.find(nid(node->id)); it != by_id.end()) view["nodes"][it->second]["cluster"] = k;
      }
    }
    view["clusters"] = clusters;
    view["colour_by"] = "cluster";
  }
  view["provenance"]["model"] = r.model;
  view["provenance"]["templates"] = r.template_version;
  view["provenance"]["reader"] = r.reader;
  if (gat) view["provenance"]["reader_name"] = r.reader_name;
  return view;
}

json report_view(const HypothesisResult &r) {
  Builder b;
  for (std::size_t k = 0; k < r.paths.size(); ++k) {
    const HypothesisPath &p = r.paths[k];
    for (std::size_t i = 0; i < p.nodes.size(); ++i) {
      const bool end = p.nodes[i] == r.source || p.nodes[i] == r.target;
      json &n = b.node(p.nodes[i], i < p.names.size() ? p.names[i] : std::string(), end ? "root" : "path");
      if (i < p.labels.size() && !p.labels[i].empty() && !n.contains("info")) n["info"] = json::array({json::array({"type", p.labels[i]})});
    }
    for (std::size_t i = 0; i < p.edges.size() && i + 1 < p.nodes.size(); ++i) {
      json &e = b.edge(p.edges[i], p.nodes[i], p.nodes[i + 1], i < p.relations.size() ? p.relations[i] : std::string(),
                       i < p.weights.size() ? p.weights[i] : 0.0, false);
      if (i < p.pmids.size() && !p.pmids[i].empty()) e["pmids"] = pmid_list(p.pmids[i]);
      if (i < p.support.size() && p.support[i]) e["info"] = json::array({json::array({"shared documents", std::to_string(p.support[i])})});
    }
  }
  json items = json::array();
  for (std::size_t k = 0; k < r.paths.size(); ++k) {
    const HypothesisPath &p = r.paths[k];
    std::string chain;
    json nodes = json::array(), edges = json::array();
    for (std::size_t i = 0; i < p.nodes.size(); ++i) {
      chain += (i ? " \u2014 " : "") + (i < p.names.size() ? p.names[i] : std::to_string(p.nodes[i]));
      nodes.push_back(nid(p.nodes[i]));
    }
    for (const int64_t e : p.edges) edges.push_back(eid(e));
    items.push_back({{"rank", k + 1},
                     {"title", chain},
                     {"score", p.score},
                     {"nodes", nodes},
                     {"edges", edges},
                     {"details",
                      json::array({{{"label", "mean weight"}, {"text", detail::fixed(p.mean_weight, 3)}},
                                   {{"label", "minimum weight"}, {"text", detail::fixed(p.min_weight, 3)}},
                                   {{"label", "similarity"}, {"text", detail::fixed(p.similarity, 3)}}})}});
  }
  json view = b.view("hypothesize", std::move(items));
  view["title"] = "grappi hypothesize: " + r.source_name + " \u2014 " + r.target_name;
  view["subtitle"] = std::to_string(r.paths.size()) + " ranked paths; " + std::to_string(r.rounds.size()) +
                     " explanation rounds (stopped: " + r.stop_reason + "); model: " + model_field(r.model, "identity");
  view["items_label"] = "Ranked paths";
  view["score_label"] = "path score";
  view["score_digits"] = 3;
  view["empty_text"] = "No path joins the two concepts under the options.";
  view["notes"] = json::array();
  if (r.offline) {
    view["offline_note"] = "The explanation is assembled by the offline model from the paths' abstracts (extractive), not "
                           "written by a language model.";
    view["offline_label"] = offline_label();
  }
  if (r.final_round >= 0 && static_cast<std::size_t>(r.final_round) < r.rounds.size()) {
    const HypothesisRound &round = r.rounds[static_cast<std::size_t>(r.final_round)];
    json entries = json::array();
    for (const auto &s : round.sentences) {
      std::string note;
      for (const auto &c : s.checks)
        note += (note.empty() ? "" : "; ") + c.a + " \u2014 " + c.b + ": " + (c.supported ? "joined in the knowledge base" : "no edge");
      if (!s.citations.empty()) {
        std::string cites;
        for (const auto &c : s.citations) cites += (cites.empty() ? "PMID " : ", ") + c;
        note += (note.empty() ? "" : "; ") + cites;
      }
      entries.push_back({{"text", s.text}, {"status", s.status}, {"note", note}});
    }
    view["sections"] = json::array({{{"title", "Explanation (round " + std::to_string(r.final_round + 1) + ")"},
                                     {"text", "Each sentence checked against the knowledge base."},
                                     {"entries", entries}}});
  } else {
    view["notes"].push_back("No explanation succeeded (" + r.stop_reason + ").");
  }
  view["provenance"] = {{"model", r.model}, {"templates", r.template_version}, {"source", r.source_name}, {"target", r.target_name}};
  return view;
}

}  // namespace grappi

namespace grappi {

json report_view(const ExtractionResult &r) {
  // The drawing is the extraction's CX2 network (valid and flagged statements): BEL terms as
  // nodes, one edge per distinct statement.
  const json cx2 = to_cx2(r, "extraction", true);
  // Abundances of one entity (protein, gene, RNA, miRNA, chemical) are drawn as entities; the
  // functions over them (complexes, activities, ...) as context.
  static const std::set<std::string> entity_types = {"p", "g", "r", "m", "a", "entity"};
  Builder b;
  std::map<std::string, std::size_t> edge_of_statement;  // canonical form -> index into b.edges
  std::map<std::string, std::string> node_of_term;       // BEL term -> node id (a statement of one term is a node)
  for (const auto &aspect : cx2) {
    if (aspect.contains("nodes"))
      for (const auto &n : aspect["nodes"]) {
        const json &v = n["v"];
        const std::string type = v.value("type", std::string());
        json &node = b.node(n["id"].get<int64_t>(), v.value("label", v.value("name", std::string())),
                            entity_types.count(type) ? "entity" : "context");
        node["external_id"] = v.value("name", std::string());
        node_of_term[v.value("name", std::string())] = node["id"].get<std::string>();
        node["info"] = json::array({json::array({"BEL", v.value("name", std::string())}), json::array({"type", type})});
        if (v.contains("id")) node["info"].push_back(json::array({"identifiers.org", v["id"]}));
      }
    if (aspect.contains("edges"))
      for (const auto &e : aspect["edges"]) {
        const json &v = e["v"];
        json &edge = b.edge(e["id"].get<int64_t>(), e["s"].get<int64_t>(), e["t"].get<int64_t>(),
                            v.value("interaction", std::string()), std::numeric_limits<double>::quiet_NaN(),
                            true);
        edge["evidence"] = v.value("evidence", std::string());
        json pmids = json::array();
        for (const auto &p : v.value("pmids", json::array())) {
          const std::string text = p.is_string() ? p.get<std::string>() : std::string();
          int64_t id = 0;
          const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
          if (ec == std::errc() && end == text.data() + text.size() && id > 0) pmids.push_back(id);
        }
        if (!pmids.empty()) edge["pmids"] = pmids;
        edge["info"] = json::array({json::array({"BEL", v.value("bel_expression", std::string())}),
                                    json::array({"status", v.value("status", std::string())}),
                                    json::array({"origin", v.value("origin", std::string())})});
        edge_of_statement[v.value("bel_expression", std::string())] = b.edge_at.at(e["id"].get<int64_t>());
      }
  }
  json items = json::array();
  std::size_t valid = 0, flagged = 0, rejected = 0;
  for (std::size_t i = 0; i < r.statements.size(); ++i) {
    const ExtractedStatement &s = r.statements[i];
    valid += s.status == "valid";
    flagged += s.status == "flagged";
    rejected += s.status == "rejected";
    const ExtractionParagraph *p = s.paragraph < r.paragraphs.size() ? &r.paragraphs[s.paragraph] : nullptr;
    json edges = json::array(), nodes = json::array();
    const auto at = edge_of_statement.find(s.canonical);
    if (!s.canonical.empty() && at != edge_of_statement.end()) {
      const json &e = b.edges[at->second];
      edges.push_back(e["id"]);
      nodes = json::array({e["source"], e["target"]});
    } else if (const auto term = node_of_term.find(s.canonical); !s.canonical.empty() && term != node_of_term.end()) {
      nodes.push_back(term->second);
    }
    json it = {{"rank", i + 1},
               {"title", s.canonical.empty() ? s.bel : s.canonical},
               {"status", s.status == "valid" ? "ok" : s.status},
               {"text", s.evidence},
               {"summary", summary_of(s.evidence)},
               {"generated", !r.offline},
               {"nodes", nodes},
               {"edges", edges}};
    json details = json::array();
    details.push_back({{"label", "status"}, {"text", s.status}, {"status", s.status == "valid" ? "supported" : s.status}});
    if (!s.flags.empty()) {
      std::string f;
      for (const auto &x : s.flags) f += (f.empty() ? "" : ", ") + x;
      details.push_back({{"label", "flags"}, {"text", f}});
    }
    for (const auto &pr : s.problems) {
      const bool error = pr.severity == BelProblem::Severity::error;
      details.push_back({{"label", error ? "error" : "warning"}, {"text", pr.message}, {"status", error ? "invalid" : ""}});
    }
    details.push_back({{"label", "origin"}, {"text", s.origin}});
    if (!s.original.empty()) details.push_back({{"label", "first version"}, {"text", s.original}});
    if (s.duplicate_of) details.push_back({{"label", "duplicate of"}, {"text", "statement " + std::to_string(*s.duplicate_of + 1)}});
    if (p) {
      details.push_back({{"label", "paper"},
                         {"text", p->document + (p->pmid.empty() ? "" : " (PMID " + p->pmid + ")") + ", " + p->section +
                                      " " + std::to_string(p->passage)}});
      details.push_back({{"label", "paragraph"}, {"text", detail::utf8_prefix(p->text, 2000)}});
    }
    it["details"] = details;
    items.push_back(std::move(it));
  }
  json view = b.view("extract", std::move(items));
  view["title"] = "grappi extract: " + std::to_string(r.statements.size()) + " BEL statements";
  view["subtitle"] = std::to_string(r.documents) + " document(s), " + std::to_string(r.paragraphs.size()) + " paragraph(s): " +
                     std::to_string(valid) + " valid, " + std::to_string(flagged) + " flagged, " + std::to_string(rejected) +
                     " rejected; model: " + model_field(r.model, "identity");
  view["items_label"] = "Statements (in paper order)";
  view["score_label"] = "score";
  view["empty_text"] = r.dry_run ? "Dry run: nothing was extracted." : "No statement was extracted.";
  // The review file (write_review) for the page's accept/reject controls: its comment and
  // header lines, and each item's row as cells (null for a duplicate, which has none), so that
  // the page writes the same file with the curator's decisions.
  if (!r.statements.empty()) {
    std::ostringstream tsv;
    write_review(tsv, r);
    std::istringstream in(tsv.str());
    std::string comment, header, line;
    std::getline(in, comment);
    std::getline(in, header);
    json rows = json::array();
    for (const ExtractedStatement &st : r.statements) {
      if (st.duplicate_of || !std::getline(in, line)) {
        rows.push_back(nullptr);
        continue;
      }
      json cells = json::array();
      std::size_t start = 0;
      for (std::size_t k = 0; k <= line.size(); ++k)
        if (k == line.size() || line[k] == '\t') {
          cells.push_back(line.substr(start, k - start));
          start = k + 1;
        }
      rows.push_back(std::move(cells));
    }
    view["review"] = {{"comment", comment}, {"header", header}, {"rows", rows}, {"file", "review.tsv"}};
  }
  json notes = json::array();
  if (!r.budget.empty()) notes.push_back("Partial result: " + r.budget);
  view["notes"] = notes;
  if (r.offline) {
    view["offline_note"] = "The statements come from the offline rule table (rule-based), not from a language model.";
    view["offline_label"] = offline_label();
  }
  json entries = json::array();
  for (const auto &p : r.paragraphs) {
    std::size_t grounded = 0;
    for (const auto &m : p.entities) grounded += m.entity() != nullptr;
    entries.push_back({{"text", p.document + (p.pmid.empty() ? "" : " (PMID " + p.pmid + ")") + ", " + p.section + " " +
                                    std::to_string(p.passage) + ": " + std::to_string(grounded) + " of " +
                                    std::to_string(p.entities.size()) + " entity mentions grounded"},
                       {"status", p.status == "ok" ? "" : p.status},
                       {"note", p.error}});
  }
  view["sections"] = json::array({{{"title", "Paragraphs"}, {"entries", entries}}});
  view["provenance"] = {{"model", r.model}, {"templates", r.template_version}, {"usage", {{"model_calls", r.usage.model_calls}}}};
  return view;
}

namespace {

// The terms a grounding scored (its chosen term "answer", the tied ones "path", the rest
// "context"; sized by score) and its root; `shown` collects their node ids.
void add_grounding_terms(const KnowledgeGraph &kg, const GroundingResult &r, Builder &b, std::set<int64_t> &shown) {
  const std::set<std::string> tied(r.tied.begin(), r.tied.end());
  for (const auto &v : r.visits) {
    const bool chosen = r.term && r.term->term == v.term;
    json &n = b.node(v.term, v.name, chosen ? "answer" : tied.count(v.id) ? "path" : "context");
    n["external_id"] = v.id;
    if (v.score && (!n.contains("score") || *v.score / 5.0 > n["score"].get<double>())) {
      n["score"] = *v.score / 5.0;
      n["score_label"] = "score (of 5, scaled)";
    }
    shown.insert(v.term);
  }
  if (const auto root = kg.node_by_external_id(r.root)) {
    b.node(root->id, root->name, "root")["external_id"] = root->external_id;
    shown.insert(root->id);
  }
}

// The ontology's edges among the terms shown.
void add_ontology_edges(const KnowledgeGraph &kg, const std::set<int64_t> &shown, Builder &b) {
  const auto snap = kg.snapshot();
  for (const int64_t id : shown) {
    if (!snap->index_of(id)) continue;
    for (const Neighbor &nb : snap->neighbors(id))
      if (shown.count(nb.node) && (nb.direction != Direction::incoming))
        b.edge(nb.edge, id, nb.node, snap->relation_name(nb.relation), nb.score, nb.direction == Direction::outgoing);
  }
}

std::string grounded_term_text(const GroundingResult &r) {
  return r.term ? r.term->id + " " + r.term->name + " (score " + std::to_string(r.best_score) + ")" : "no term";
}

// The relation summary and its quotes, each checked against the text.
json summary_section(const GroundingResult &r, const std::string &title) {
  json quotes = json::array();
  for (const auto &q : r.quotes)
    quotes.push_back({{"text", q.text}, {"status", q.in_text ? "supported" : "not_in_text"},
                      {"note", q.in_text ? "found in the text at byte " + std::to_string(q.offset) : "not found in the text"}});
  return {{"title", title},
          {"text", r.summary_status == "ok" ? r.summary : "The summary failed: " + r.summary_error},
          {"entries", quotes}};
}

void offline_grounding_note(json &view) {
  view["offline_note"] = "The summary is extractive and the scores count shared words (the offline model), not a language "
                         "model's.";
  view["offline_label"] = offline_label();
}

}  // namespace

json report_view(const KnowledgeGraph &kg, const GroundingResult &r) {
  Builder b;
  std::set<int64_t> shown;
  add_grounding_terms(kg, r, b, shown);
  add_ontology_edges(kg, shown, b);
  json items = json::array();
  std::vector<std::size_t> order(r.visits.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&r](std::size_t x, std::size_t y) {
    return r.visits[x].score.value_or(0) > r.visits[y].score.value_or(0);
  });
  for (std::size_t k = 0; k < order.size(); ++k) {
    const GroundingVisit &v = r.visits[order[k]];
    json it = {{"rank", k + 1},
               {"title", v.id + " " + v.name},
               {"status", v.status == "cached" ? "ok" : v.status},
               {"nodes", json::array({nid(v.term)})},
               {"edges", json::array()}};
    if (v.score) it["score"] = *v.score;
    if (!v.error.empty()) it["error"] = v.error;
    json details = json::array({{{"label", "visit"}, {"text", std::to_string(order[k] + 1) + (v.lookahead ? " (look-ahead)" : "")}}});
    if (r.term && r.term->term == v.term) {
      details.push_back({{"label", "chosen"}, {"text", "the term the relation is grounded to (pick: " + r.pick_status + ")"}});
      it["text"] = r.summary;
      it["generated"] = !r.offline;
    }
    it["details"] = details;
    items.push_back(std::move(it));
  }
  json view = b.view("ground", std::move(items));
  view["layout"] = "tree";  // (the ontology from its root, the chosen term's path marked)
  view["title"] = "grappi ground: " + r.protein_a + " \u2014 " + r.protein_b;
  view["subtitle"] = std::string("strategy ") + to_string(r.strategy) + ", root " + r.root + ": " + grounded_term_text(r) + "; " +
                     std::to_string(r.visits.size()) + " of " + std::to_string(r.candidates) + " terms scored (" +
                     r.stop_reason + ")";
  view["items_label"] = "Terms by score";
  view["score_label"] = "score (1-5)";
  view["score_digits"] = 0;
  view["empty_text"] = "No term was scored.";
  json notes = json::array();
  if (r.pick_status == "fallback") notes.push_back("The pick failed (" + r.pick_error + "): the first best-scored term.");
  view["notes"] = notes;
  if (r.offline) offline_grounding_note(view);
  view["sections"] = json::array({summary_section(r, "Relation summary")});
  view["provenance"] = {{"model", r.model}, {"templates", r.template_version}, {"confidence", r.confidence ? json(*r.confidence) : json()}};
  return view;
}

json report_view(const KnowledgeGraph &kg, const std::vector<GroundingResult> &results) {
  if (results.empty()) throw Error(ErrorCode::invalid_argument, "report view: no grounding to report");
  if (results.size() == 1) return report_view(kg, results.front());
  const GroundingResult &first = results.front();
  for (const auto &r : results)
    if (r.protein_a != first.protein_a || r.protein_b != first.protein_b || r.root != first.root)
      throw Error(ErrorCode::invalid_argument,
                  "report view: groundings side by side must be of one pair under one root (" + first.protein_a + " - " +
                      first.protein_b + " under " + first.root + ", then " + r.protein_a + " - " + r.protein_b + " under " +
                      r.root + ")");
  Builder b;
  std::set<int64_t> shown;
  for (const auto &r : results) add_grounding_terms(kg, r, b, shown);
  add_ontology_edges(kg, shown, b);
  // One item per strategy, as given: its chosen term and the terms tied with it.
  json items = json::array();
  std::map<std::string, std::size_t> votes;
  bool offline = false;
  json notes = json::array();
  for (std::size_t i = 0; i < results.size(); ++i) {
    const GroundingResult &r = results[i];
    offline = offline || r.offline;
    if (r.term) ++votes[r.term->id + " " + r.term->name];
    json nodes = json::array();
    if (r.term) nodes.push_back(nid(r.term->term));
    for (const auto &v : r.visits)
      if (std::find(r.tied.begin(), r.tied.end(), v.id) != r.tied.end() && !(r.term && r.term->term == v.term))
        nodes.push_back(nid(v.term));
    json it = {{"rank", i + 1},
               {"title", std::string(to_string(r.strategy)) + ": " + (r.term ? r.term->id + " " + r.term->name : "no term")},
               {"status", r.term ? "ok" : "failed"},
               {"nodes", nodes},
               {"edges", json::array()}};
    if (r.term) it["score"] = r.best_score;
    StageUsage u = r.summary_usage;
    detail::add_usage(u, r.traversal_usage);
    detail::add_usage(u, r.pick_usage);
    json details = json::array();
    details.push_back({{"label", "terms scored"},
                       {"text", std::to_string(r.visits.size()) + " of " + std::to_string(r.candidates) + " (" + r.stop_reason + ")"}});
    std::string tied_text;
    for (const auto &t : r.tied) tied_text += (tied_text.empty() ? "" : ", ") + t;
    if (!tied_text.empty()) details.push_back({{"label", "best-scored"}, {"text", tied_text}});
    details.push_back({{"label", "pick"}, {"text", r.pick_status + (r.pick_error.empty() ? "" : ": " + r.pick_error)},
                       {"status", r.pick_status == "fallback" ? "failed" : ""}});
    if (r.confidence) details.push_back({{"label", "confidence"}, {"text", std::to_string(*r.confidence) + " of 5"}});
    details.push_back({{"label", "model use"},
                       {"text", std::to_string(u.model_calls) + " calls, " + std::to_string(u.prompt_tokens) + " prompt tokens, " +
                                    std::to_string(u.cache_hits) + " cache hits, " + std::to_string(u.local_answers) +
                                    " offline answers, " + std::to_string(u.failed) + " failed"},
                       {"status", u.failed ? "failed" : ""}});
    it["details"] = details;
    items.push_back(std::move(it));
    if (r.pick_status == "fallback")
      notes.push_back(std::string(to_string(r.strategy)) + ": the pick failed (" + r.pick_error + "): the first best-scored term.");
  }
  json view = b.view("ground", std::move(items));
  view["layout"] = "tree";  // (the ontology from its root, the chosen term's path marked)
  view["title"] = "grappi ground: " + first.protein_a + " \u2014 " + first.protein_b;
  std::string agreed;
  std::size_t most = 0;
  for (const auto &[term, n] : votes)
    if (n > most) most = n, agreed = term;
  view["subtitle"] = std::to_string(results.size()) + " strategies side by side, root " + first.root + ": " +
                     (most ? std::to_string(most) + " of " + std::to_string(results.size()) + " chose " + agreed
                           : std::string("none chose a term"));
  view["items_label"] = "Strategies (as run)";
  view["score_label"] = "best score (1-5)";
  view["score_digits"] = 0;
  view["empty_text"] = "No strategy was run.";
  view["notes"] = notes;
  if (offline) offline_grounding_note(view);
  view["sections"] = json::array({summary_section(first, std::string("Relation summary (") + to_string(first.strategy) + ")")});
  json strategies = json::array();
  for (const auto &r : results) strategies.push_back(to_string(r.strategy));
  view["provenance"] = {{"model", first.model}, {"templates", first.template_version}, {"strategies", strategies}};
  return view;
}

}  // namespace grappi
