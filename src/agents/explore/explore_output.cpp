// Output of the explanation pipeline: JSON, Markdown and CX2.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "grappi/pipeline.hpp"
#include "formats/cx2.hpp"
#include "common/answer_json.hpp"
#include "grappi/pipeline.hpp"
#include "common/text_util.hpp"

namespace grappi {

using nlohmann::json;

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(StageUsage, model_calls, local_answers, cache_hits, prompt_tokens, completion_tokens,
                                   failed, skipped, repairs, seconds)

json detail::usage_json(const StageUsage &usage) { return usage; }

namespace {

std::string name_of(const ExploreResult &r, int64_t id) {
  const auto *p = r.protein(id);
  return p ? p->name : std::to_string(id);
}

// (every node of a result is among its proteins; the row id as text if not)
std::string external_id_of(const ExploreResult &r, int64_t id) {
  const auto *p = r.protein(id);
  return p ? p->external_id : std::to_string(id);
}

// "MAPT → GSK3B → APP"
std::string chain_of(const ExploreResult &r, const ExplainedPath &p) {
  std::string chain;
  for (std::size_t i = 0; i < p.nodes.size(); ++i) chain += (i ? " → " : "") + name_of(r, p.nodes[i]);
  return chain;
}


json channels_json(const std::vector<Channel> &channels) {
  json j = json::object();
  for (const auto &c : channels) j[c.name] = c.score;
  return j;
}

json edge_json(const ExploreResult &r, const ExplainedEdge &e, int64_t from, int64_t to) {
  json j{{"source", name_of(r, from)},
         {"target", name_of(r, to)},
         {"source_external_id", external_id_of(r, from)},
         {"target_external_id", external_id_of(r, to)},
         {"edge_id", e.edge},
         {"relation", e.relation},
         {"directed", e.directed},
         {"score", e.score},
         {"channels", channels_json(e.channels)},
         {"pmids", e.pmids},
         {"status", e.status},
         {"cached", e.cached}};
  j["evidence"] = e.evidence.empty() ? json(nullptr) : json(e.evidence);
  j["explanation"] = e.status == "ok" ? json(e.explanation) : json(nullptr);
  if (!e.error.empty()) j["error"] = e.error;
  return j;
}

json path_json(const ExploreResult &r, const ExplainedPath &p) {
  json prot = json::array(), ids = json::array(), eds = json::array();
  for (auto id : p.nodes) {
    prot.push_back(name_of(r, id));
    ids.push_back(external_id_of(r, id));
  }
  for (std::size_t k = 0; k < p.edges.size(); ++k)
    eds.push_back(edge_json(r, r.edges[p.edges[k]], p.nodes[k], p.nodes[k + 1]));
  json j{{"rank", p.rank},   {"proteins", prot}, {"external_ids", ids}, {"length", p.edges.size()}, {"status", p.status},
         {"prior", p.prior}, {"windows", p.windows}, {"cached", p.cached}, {"edges", eds}};
  j["relevance_score"] = p.status == "ok" ? json(p.relevance_score) : json(nullptr);
  j["explanation"] = p.status == "ok" ? json(p.explanation) : json(nullptr);
  if (p.clamped) j["score_clamped"] = true;
  if (!p.error.empty()) j["error"] = p.error;
  return j;
}

std::string md_escape(const std::string &s) { return detail::markdown_text(s); }

}  // namespace

json to_json(const ExploreResult &r) {
  json j;
  j["query"] = r.query;
  const auto *root = r.protein(r.root);
  j["root"] = {{"id", r.root},
               {"name", name_of(r, r.root)},
               {"external_id", root ? root->external_id : std::string()},
               {"annotation", root ? root->annotation : std::string()}};
  j["parameters"] = r.parameters;
  j["provenance"] = r.provenance;
  j["model"] = r.model;
  j["templates"] = {{"version", r.template_version}};
  json wins = json::array();
  for (const auto &w : r.windows) {
    json nodes = json::array(), edges = json::array();
    for (const auto &n : w.nodes) {
      json nj{{"id", n.id}, {"name", n.name}, {"external_id", external_id_of(r, n.id)}, {"depth", n.depth}, {"rank_score", n.rank_score}};
      nj["parent"] = n.parent ? json(name_of(r, *n.parent)) : json(nullptr);
      nj["parent_external_id"] = n.parent ? json(external_id_of(r, *n.parent)) : json(nullptr);
      nodes.push_back(std::move(nj));
    }
    for (const auto &e : w.edges)
      edges.push_back({{"source", name_of(r, e.source)},
                       {"target", name_of(r, e.target)},
                       {"source_external_id", external_id_of(r, e.source)},
                       {"target_external_id", external_id_of(r, e.target)},
                       {"score", e.score},
                       {"relation", e.relation},
                       {"directed", e.directed}});
    json wj{{"window", w.index}, {"nodes", nodes}, {"edges", edges}};
    if (!w.note.empty()) wj["note"] = w.note;
    // (its enriched terms, when the database holds annotations: as cluster's JSON writes a cluster's)
    const std::size_t at = wins.size();
    if (at < r.window_terms.size() && !r.window_terms[at].empty()) {
      json terms = json::array();
      for (const EnrichedTerm &t : r.window_terms[at]) {
        json proteins = json::array();
        for (int64_t p : t.proteins) proteins.push_back(external_id_of(r, p));
        terms.push_back({{"term", t.term}, {"name", t.name}, {"category", t.category}, {"observed", t.observed},
                         {"background", t.background}, {"fdr", t.fdr}, {"strength", t.strength}, {"proteins", proteins}});
      }
      wj["terms"] = std::move(terms);
    }
    wins.push_back(std::move(wj));
  }
  j["windows"] = wins;
  // The windows' proteins' clusters (Leiden), each with its first enriched term.
  json clusters = json::array();
  for (const Cluster &c : r.clusters) {
    json members = json::array(), terms = json::array();
    for (int64_t id : c.members) members.push_back(external_id_of(r, id));
    for (const EnrichedTerm &t : c.terms) terms.push_back({{"term", t.term}, {"name", t.name}, {"category", t.category}, {"fdr", t.fdr}});
    clusters.push_back({{"id", c.id}, {"size", c.members.size()}, {"members", members}, {"terms", terms}});
  }
  j["clusters"] = clusters;
  json paths = json::array();
  for (const auto &p : r.paths) paths.push_back(path_json(r, p));
  j["paths"] = paths;
  json failed = json::array();
  for (const auto &p : r.failed) failed.push_back(path_json(r, p));
  j["failed_paths"] = failed;
  // Every annotation the explanations could draw on, for fact checking.
  json prot = json::array();
  for (const auto &p : r.proteins) {
    json pj{{"id", p.id}, {"name", p.name}, {"external_id", p.external_id}, {"annotation", p.annotation}};
    pj["query_similarity"] = std::isfinite(p.query_similarity) ? json(p.query_similarity) : json(nullptr);
    prot.push_back(std::move(pj));
  }
  j["proteins"] = prot;
  j["candidates_truncated"] = r.candidates_truncated;
  j["notes"] = r.notes;
  j["partial"] = r.partial;
  j["partial_reason"] = r.partial ? json(r.partial_reason) : json(nullptr);
  j["dry_run"] = r.dry_run;
  if (r.dry_run) j["plan"] = {{"model_calls", r.planned_calls}, {"prompt_tokens_estimate", r.planned_prompt_tokens}};
  const auto &u = r.usage;
  j["usage"] = {{"model_calls", u.model_calls},
                {"extractive_answers", u.extractive_answers},
                {"cache_hits", u.cache_hits},
                {"prompt_tokens", u.prompt_tokens},
                {"completion_tokens", u.completion_tokens},
                {"paths_explained", u.paths_explained},
                {"edges_explained", u.edges_explained},
                {"paths_failed", u.paths_failed},
                {"edges_failed", u.edges_failed},
                {"candidate_paths", u.candidate_paths},
                {"candidate_paths_visited", u.candidate_paths_visited},
                {"orderings_folded", u.orderings_folded},
                {"selected_paths", u.selected_paths},
                {"distinct_edges", u.distinct_edges},
                {"stages",
                 {{"retrieve", {{"seconds", u.retrieve_seconds}}}, {"edges", u.edges}, {"paths", u.paths}}},
                {"seconds", u.seconds}};
  return j;
}

std::string to_markdown(const ExploreResult &r) {
  std::ostringstream o;
  const auto *root = r.protein(r.root);
  o << "# grappi explore: " << name_of(r, r.root) << "\n\n";
  o << "- **Query:** " << r.query << "\n";
  o << "- **Initial protein:** " << name_of(r, r.root);
  if (root) o << " (" << root->external_id << ")";
  o << "\n";
  o << "- **Model:** " << r.model.value("identity", std::string("?")) << "; templates " << r.template_version << "\n";
  if (r.model.value("kind", std::string()) == "extractive")
    o << "- **Note:** the explanations below are extractive summaries of the database's annotations and STRING "
         "evidence, not generated by a language model.\n";
  o << "- **Windows:** ";
  for (std::size_t i = 0; i < r.windows.size(); ++i) {
    const auto &w = r.windows[i];
    o << (i ? ", " : "") << w.index << " (" << w.nodes.size() << (w.nodes.size() == 1 ? " protein, " : " proteins, ")
      << w.edges.size() << (w.edges.size() == 1 ? " edge" : " edges") << (w.note.empty() ? "" : ": " + w.note) << ")";
  }
  o << "\n";
  const auto &u = r.usage;
  o << "- **Candidates:** " << u.candidate_paths << " paths"
    << (r.candidates_truncated ? " (the best by prior of " + std::to_string(u.candidate_paths_visited) + " visited)" : "")
    << ", " << u.selected_paths << " explained, " << u.distinct_edges << " distinct edges\n";
  o << "- **Usage:** ";
  if (u.extractive_answers) o << u.extractive_answers << " extractive answers (no language model), ";
  o << u.model_calls << " model calls, " << u.cache_hits << " cache hits, " << u.prompt_tokens
    << " prompt + " << u.completion_tokens << " completion tokens, " << detail::fixed(u.seconds, 2) << " s\n";
  if (r.partial) o << "- **Partial result:** " << r.partial_reason << "\n";
  for (const auto &n : r.notes) o << "- **Note:** " << n << "\n";
  if (r.dry_run)
    o << "- **Dry run:** " << r.planned_calls << " model calls, about " << r.planned_prompt_tokens
      << " prompt tokens; nothing was sent\n";
  o << "\n## Ranked paths\n\n";
  if (r.paths.empty()) o << "No path was scored.\n";
  else {
    o << "| rank | path | relevance | edges |\n|---:|---|---:|---:|\n";
    for (const auto &p : r.paths) {
      o << "| " << p.rank << " | " << md_escape(chain_of(r, p)) << " | " << detail::fixed(p.relevance_score, 0) << " | " << p.edges.size()
        << " |\n";
    }
  }
  std::set<int64_t> shown;
  for (const auto &p : r.paths) {
    o << "\n### " << p.rank << ". " << md_escape(chain_of(r, p)) << " — relevance " << detail::fixed(p.relevance_score, 0)
      << "\n\n";
    // (a model's text: shown, never run: HTML and code-running link targets escaped, invalid UTF-8 replaced)
    o << md_escape(p.explanation) << "\n\n";
    o << "| interaction | relation | score | channels | PMIDs | explanation |\n|---|---|---:|---|---|---|\n";
    for (std::size_t k = 0; k < p.edges.size(); ++k) {
      const auto &e = r.edges[p.edges[k]];
      const std::string ch = detail::channel_list(e.channels, " ", ", ");
      std::string pm;
      for (std::size_t i = 0; i < e.pmids.size() && i < 5; ++i) pm += (pm.empty() ? "" : ", ") + std::to_string(e.pmids[i]);
      if (e.pmids.size() > 5) pm += ", ...";
      o << "| " << name_of(r, p.nodes[k]) << " – " << name_of(r, p.nodes[k + 1]) << " | " << md_escape(e.relation) << " | "
        << detail::fixed(e.score, 3) << " | " << md_escape(ch) << " | " << pm << " | "
        << md_escape(e.status == "ok" ? e.explanation : "(" + e.status + ": " + e.error + ")") << " |\n";
    }
    for (auto id : p.nodes) shown.insert(id);
  }
  if (!r.failed.empty()) {
    o << "\n## Paths not scored (" << r.failed.size() << ")\n\n";
    std::size_t n = 0;
    for (const auto &p : r.failed) {
      if (++n > 20) {
        o << "- ... and " << (r.failed.size() - 20) << " more (see the JSON output)\n";
        break;
      }
      o << "- " << md_escape(chain_of(r, p)) << ": " << p.status << " — " << md_escape(p.error) << "\n";
    }
  }
  if (!shown.empty()) {
    o << "\n## Annotations (STRING protein.info)\n\n";
    for (auto id : shown) {
      const auto *p = r.protein(id);
      if (!p) continue;
      o << "- **" << p->name << "** (" << p->external_id << "): " << md_escape(p->annotation) << "\n";
    }
  }
  o << "\n## Provenance\n\n";
  o << "- grappi " << r.provenance.value("grappi_version", std::string()) << ", database "
    << r.provenance.value("database", std::string()) << " (generation " << r.provenance.value("generation", 0) << ")\n";
  o << "- Window ranking: " << r.provenance.value("ranking", std::string()) << "\n";
  if (r.provenance.contains("datasets"))
    for (const auto &d : r.provenance["datasets"])
      o << "- Dataset " << d.value("name", std::string()) << " (" << d.value("format", std::string()) << ", sha256 "
        << d.value("sha256", std::string()).substr(0, 12) << ", imported " << d.value("imported_at", std::string()) << ")\n";
  return o.str();
}

json to_cx2(const ExploreResult &r) {
  // The proteins and edges of the kept paths.
  std::vector<int64_t> node_ids;
  std::map<std::size_t, std::vector<std::size_t>> edge_ranks;  // edge index -> path ranks
  std::map<int64_t, std::size_t> best_rank;
  for (const auto &p : r.paths) {
    for (auto id : p.nodes) {
      node_ids.push_back(id);
      auto it = best_rank.find(id);
      if (it == best_rank.end() || p.rank < it->second) best_rank[id] = p.rank;
    }
    for (auto e : p.edges) edge_ranks[e].push_back(p.rank);
  }
  node_ids.push_back(r.root);
  std::sort(node_ids.begin(), node_ids.end());
  node_ids.erase(std::unique(node_ids.begin(), node_ids.end()), node_ids.end());
  std::map<int64_t, std::size_t> cx_id;
  json nodes = json::array();
  for (std::size_t i = 0; i < node_ids.size(); ++i) {
    const auto id = node_ids[i];
    cx_id[id] = i;
    const auto *p = r.protein(id);
    json v{{"name", p ? p->name : std::to_string(id)},
           {"represents", "string:" + (p ? p->external_id : std::to_string(id))},
           {"annotation", p ? p->annotation : std::string()},
           {"is_root", id == r.root}};
    auto br = best_rank.find(id);
    v["best_path_rank"] = static_cast<int64_t>(br == best_rank.end() ? 0 : br->second);
    nodes.push_back({{"id", static_cast<int64_t>(i)}, {"v", v}});
  }
  json edges = json::array();
  std::size_t eid = 0;
  for (const auto &[ei, ranks] : edge_ranks) {
    const auto &e = r.edges[ei];
    json pm = json::array();
    for (auto id : e.pmids) pm.push_back("pubmed:" + std::to_string(id));
    const std::string ch = detail::channel_list(e.channels, "=", "; ");
    json rk = json::array();
    for (auto x : ranks) rk.push_back(static_cast<int64_t>(x));
    json v{{"interaction", e.relation},
           {"score", e.score},
           {"directed", e.directed},
           {"channels", ch},
           {"pmids", pm},
           {"explanation", e.status == "ok" ? e.explanation : std::string()},
           {"path_ranks", rk},
           {"best_path_rank", static_cast<int64_t>(*std::min_element(ranks.begin(), ranks.end()))}};
    edges.push_back({{"id", static_cast<int64_t>(eid++)},
                     {"s", static_cast<int64_t>(cx_id.at(e.source))},
                     {"t", static_cast<int64_t>(cx_id.at(e.target))},
                     {"v", v}});
  }
  json decl = {{"networkAttributes", {{"name", {{"d", "string"}}}, {"description", {{"d", "string"}}}, {"version", {{"d", "string"}}}}},
               {"nodes",
                {{"name", {{"d", "string"}}},
                 {"represents", {{"d", "string"}}},
                 {"annotation", {{"d", "string"}}},
                 {"is_root", {{"d", "boolean"}}},
                 {"best_path_rank", {{"d", "integer"}}}}},
               {"edges",
                {{"interaction", {{"d", "string"}}},
                 {"score", {{"d", "double"}}},
                 {"directed", {{"d", "boolean"}}},
                 {"channels", {{"d", "string"}}},
                 {"pmids", {{"d", "list_of_string"}}},
                 {"explanation", {{"d", "string"}}},
                 {"path_ranks", {{"d", "list_of_integer"}}},
                 {"best_path_rank", {{"d", "integer"}}}}}};
  json net = {{"name", "grappi: " + name_of(r, r.root) + " — " + r.query},
              {"description", "Top " + std::to_string(r.paths.size()) + " PPI paths from " + name_of(r, r.root) +
                                  " ranked by relevance to \"" + r.query + "\"; model " +
                                  r.model.value("identity", std::string("?")) + ", templates " + r.template_version},
              {"version", "1.0"}};
  json bypass = json::array(
      {{{"id", static_cast<int64_t>(cx_id.at(r.root))},
        {"v", {{"NODE_BACKGROUND_COLOR", "#FF6F61"}, {"NODE_WIDTH", 60.0}, {"NODE_HEIGHT", 60.0}, {"NODE_BORDER_WIDTH", 4.0}}}}});
  return detail::cx2_document(decl, net, std::move(nodes), std::move(edges), detail::cx2_default_style("explanation"),
                              bypass);
}

}  // namespace grappi
