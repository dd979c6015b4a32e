// Community reports (grappi/communities.hpp): the network's clusters written up, summarised by a model or
// extractively, checked, and stored in the database for ask's global questions.
#include "grappi/communities.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_set>

#include "agents/ask/answer_impl.hpp"
#include "common/json_input.hpp"
#include "common/text_util.hpp"
#include "grappi/error.hpp"
#include "grappi/json_text.hpp"
#include "grappi/knowledge_graph.hpp"
#include "grappi/version.h"

namespace grappi {

using nlohmann::json;

// (a named namespace of its own: the library is compiled in unity batches)
namespace community_parts {

using detail::fixed;

constexpr std::size_t kSummaryChars = 2000;  // a model's summary longer than this is refused
constexpr std::size_t kPromptMembers = 40;   // members named in a prompt
constexpr int kSummaryTokens = 400;

std::string short_number(double v) {
  std::ostringstream o;
  o.precision(2);
  o << v;
  return o.str();
}

std::string lower(std::string s) {
  for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The extractive summary: the hubs, the terms and the strongest links, in words that say what wrote them.
json extractive(const CommunityReport &r) {
  std::string text = "Extractive summary (not a language model): a community of " + std::to_string(r.members.size()) +
                     " proteins";
  json citations = json::array();
  if (!r.hubs.empty()) {
    text += " around ";
    const std::size_t n = std::min<std::size_t>(r.hubs.size(), 3);
    for (std::size_t i = 0; i < n; ++i) {
      text += (i == 0 ? "" : i + 1 == n ? " and " : ", ") + r.hubs[i];
      citations.push_back(r.hubs[i]);
    }
    text += " (the best connected within it)";
  }
  if (r.terms.empty()) {
    text += "; no term is enriched among them";
  } else {
    text += "; enriched in ";
    const std::size_t n = std::min<std::size_t>(r.terms.size(), 3);
    for (std::size_t i = 0; i < n; ++i) {
      const CommunityTerm &t = r.terms[i];
      text += (i == 0 ? "" : i + 1 == n ? " and " : ", ") + t.name + " (" + t.term + ", FDR " + short_number(t.fdr) + ", " +
              std::to_string(t.observed) + " proteins)";
      citations.push_back(t.term);
    }
  }
  if (!r.edges.empty()) {
    text += "; its strongest links: ";
    const std::size_t n = std::min<std::size_t>(r.edges.size(), 3);
    for (std::size_t i = 0; i < n; ++i)
      text += (i ? ", " : "") + r.edges[i].source_name + "–" + r.edges[i].target_name + " (" + fixed(r.edges[i].score, 3) + ")";
  }
  return {{"summary", text + "."}, {"citations", citations}};
}

// The facts a model is given, one per line.
std::string facts(const CommunityReport &r) {
  std::string s = "Community " + r.id + ": " + std::to_string(r.members.size()) + " proteins, " +
                  std::to_string(r.internal_edges) + " edges among them, " + std::to_string(r.external_edges) +
                  " to the rest of the network.\nHubs (best connected first): ";
  for (std::size_t i = 0; i < r.hubs.size(); ++i) s += (i ? ", " : "") + r.hubs[i];
  s += "\nMembers: ";
  for (std::size_t i = 0; i < r.names.size() && i < kPromptMembers; ++i) s += (i ? ", " : "") + r.names[i];
  if (r.names.size() > kPromptMembers) s += " and " + std::to_string(r.names.size() - kPromptMembers) + " more";
  s += "\nEnriched terms (id, name, category, FDR, members annotated):";
  if (r.terms.empty()) s += " none";
  for (const CommunityTerm &t : r.terms) {
    s += "\n- " + t.term + " " + t.name + " (" + t.category + ", FDR " + short_number(t.fdr) + "): ";
    for (std::size_t i = 0; i < t.proteins.size() && i < 10; ++i) s += (i ? ", " : "") + t.proteins[i];
  }
  s += "\nStrongest links:";
  for (const CommunityEdge &e : r.edges)
    s += "\n- " + e.source_name + " - " + e.target_name + " (" + e.relation + ", score " + fixed(e.score, 3) + ")";
  return s;
}

const char *kSystem =
    "You summarise one community (module) of a protein interaction network for a biologist. Use only the facts "
    "given: no protein, term or claim from elsewhere. Answer with one JSON object: {\"summary\": \"two to four "
    "sentences on what the community does and which proteins lead it\", \"citations\": [\"each term id and each "
    "protein name your summary rests on\"]}.";

// Why a model's answer is refused ("" when it is kept): it must be {"summary", "citations"}, each citation a term
// (id or name) or a member (name or external id) of the report, and every term id its text names one of the report's.
std::string check(const CommunityReport &r, const std::unordered_set<std::string> &proteins, const std::string &content,
                  std::string &summary, std::vector<std::string> &cited) {
  const json j = detail::parse_json_or_discarded(content);
  if (!j.is_object()) return "the answer is not a JSON object";
  if (!j.contains("summary") || !j["summary"].is_string() || j["summary"].get<std::string>().empty())
    return "the answer has no \"summary\" text";
  summary = j["summary"].get<std::string>();
  if (summary.size() > kSummaryChars) return "the summary is longer than " + std::to_string(kSummaryChars) + " characters";
  if (!j.contains("citations") || !j["citations"].is_array() || j["citations"].empty())
    return "the answer cites nothing (\"citations\" must list the terms and proteins it rests on)";
  std::set<std::string> known;
  for (const std::string &m : r.members) known.insert(lower(m));
  for (const std::string &m : r.names) known.insert(lower(m));
  for (const CommunityTerm &t : r.terms) {
    known.insert(lower(t.term));
    known.insert(lower(t.name));
    // (a term stored under a namespace of grappi's, "kegg:hsa04012", is cited by its source's id too)
    const std::size_t colon = t.term.find(':');
    if (colon != std::string::npos && std::islower(static_cast<unsigned char>(t.term[0])))
      known.insert(lower(t.term.substr(colon + 1)));
  }
  for (const json &c : j["citations"]) {
    if (!c.is_string()) return "a citation is not a string";
    const std::string name = c.get<std::string>();
    if (!known.count(lower(name))) return "it cites '" + name + "', neither a term nor a member of the community";
    cited.push_back(name);
  }
  static const std::regex term_id(R"(\b(GO:\d{7}|hsa\d{5}|R-[A-Z]{3}-\d+|WP\d+|IPR\d{6}|PF\d{5})\b)");
  for (std::sregex_iterator it(summary.begin(), summary.end(), term_id), end; it != end; ++it)
    if (!known.count(lower(it->str()))) return "its text names " + it->str() + ", not a term of the community";
  // A protein of the graph named in the text (a symbol: capitals and digits) must be a member.
  const std::set<std::string> members(r.names.begin(), r.names.end());
  std::string word;
  for (std::size_t i = 0; i <= summary.size(); ++i) {
    const char c = i < summary.size() ? summary[i] : ' ';
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '-') {
      word += c;
      continue;
    }
    const bool symbol = word.size() >= 2 && std::any_of(word.begin(), word.end(), [](char x) { return std::isupper(static_cast<unsigned char>(x)); }) &&
                        std::none_of(word.begin(), word.end(), [](char x) { return std::islower(static_cast<unsigned char>(x)); });
    if (symbol && proteins.count(word) && !members.count(word))
      return "its text names " + word + ", a protein outside the community";
    word.clear();
  }
  return "";
}

// Asks the model for a report's summary and keeps it only when check() passes.
void summarise(CommunityReport &r, LanguageModel &model, const std::unordered_set<std::string> &proteins, StageUsage &usage) {
  const json offline = extractive(r);
  r.summary = offline["summary"].get<std::string>();
  r.citations = offline["citations"].get<std::vector<std::string>>();
  r.summary_status = "extractive";
  r.summary_by = "extractive:v1";
  if (model.kind() == "extractive") {
    ++usage.local_answers;
    return;
  }
  ChatRequest q;
  q.messages = {{"system", kSystem}, {"user", facts(r)}};
  q.json = true;
  q.max_tokens = kSummaryTokens;
  q.task = {{"kind", "community"}, {"community", r.id}};
  q.offline = [offline](const json &) { return offline.dump(); };
  r.summary_status = "extractive_fallback";
  try {
    const ChatResponse a = model.chat(q);
    ++usage.model_calls;
    usage.prompt_tokens += a.prompt_tokens;
    usage.completion_tokens += a.completion_tokens;
    std::string summary;
    std::vector<std::string> cited;
    r.problem = check(r, proteins, a.content, summary, cited);
    if (r.problem.empty()) {
      r.summary = summary;
      r.citations = cited;
      r.summary_status = "checked";
      r.summary_by = model.identity();
    } else {
      ++usage.failed;
      r.problem = "the model's summary was refused: " + r.problem;
    }
  } catch (const std::exception &e) {
    ++usage.failed;
    r.problem = std::string("the model failed: ") + e.what();
  }
}

// A cluster written up (without its summary).
CommunityReport report_of(const KnowledgeGraph &kg, const GraphSnapshot &g, const Cluster &c, const CommunityOptions &o) {
  const auto ext = [&](int64_t id) {
    const auto at = g.index_of(id);
    return at ? g.external_id(*at) : std::to_string(id);
  };
  const auto name = [&](int64_t id) {
    const auto at = g.index_of(id);
    return at ? g.name(*at) : std::to_string(id);
  };
  CommunityReport r;
  r.level = c.level;
  for (int64_t id : c.members) {
    r.nodes.push_back(id);
    r.members.push_back(ext(id));
    r.names.push_back(name(id));
  }
  for (std::size_t i = 0; i < r.names.size() && i < o.hubs; ++i) r.hubs.push_back(r.names[i]);
  r.internal_edges = c.internal_edges;
  r.external_edges = c.external_edges;
  for (const EnrichedTerm &t : c.terms) {
    CommunityTerm x{t.term, t.name, t.category, t.observed, t.fdr, {}, {}};
    for (int64_t p : t.proteins) {
      x.proteins.push_back(name(p));
      x.protein_ids.push_back(ext(p));
    }
    r.terms.push_back(std::move(x));
  }
  for (int64_t id : detail::strongest_module_edges(g, c, o.cluster.relations, o.cluster.min_score, o.edges)) {
    const auto e = kg.edge(id);
    if (!e) continue;
    r.edges.push_back({id, ext(e->source), ext(e->target), name(e->source), name(e->target), e->relation, e->score});
  }
  return r;
}

json term_json(const CommunityTerm &t) {
  return {{"term", t.term}, {"name", t.name}, {"category", t.category}, {"observed", t.observed}, {"fdr", t.fdr},
          {"proteins", t.proteins}, {"external_ids", t.protein_ids}};
}

json report_json(const CommunityReport &r) {
  json terms = json::array(), edges = json::array();
  for (const CommunityTerm &t : r.terms) terms.push_back(term_json(t));
  for (const CommunityEdge &e : r.edges)
    edges.push_back({{"edge", e.edge}, {"source", e.source_name}, {"target", e.target_name}, {"source_external_id", e.source},
                     {"target_external_id", e.target}, {"relation", e.relation}, {"score", e.score}});
  return {{"id", r.id},
          {"level", r.level},
          {"parent", r.parent},
          {"size", r.members.size()},
          {"members", r.members},
          {"nodes", r.nodes},
          {"names", r.names},
          {"hubs", r.hubs},
          {"internal_edges", r.internal_edges},
          {"external_edges", r.external_edges},
          {"terms", std::move(terms)},
          {"edges", std::move(edges)},
          {"summary", r.summary},
          {"summary_status", r.summary_status},
          {"summary_by", r.summary_by},
          {"citations", r.citations},
          {"problem", r.problem}};
}

CommunityReport report_from(const json &j) {
  CommunityReport r;
  r.id = j.at("id").get<std::string>();
  r.level = detail::json_integer<std::size_t>(j.at("level"));
  r.parent = j.at("parent").get<std::string>();
  r.members = j.at("members").get<std::vector<std::string>>();
  r.nodes = detail::json_integers<int64_t>(j.at("nodes"));
  r.names = j.at("names").get<std::vector<std::string>>();
  r.hubs = j.at("hubs").get<std::vector<std::string>>();
  if (r.nodes.size() != r.members.size() || r.names.size() != r.members.size())
    throw Error(ErrorCode::parse, "community " + r.id + ": members, nodes and names differ in number");
  r.internal_edges = detail::json_integer<std::size_t>(j.at("internal_edges"));
  r.external_edges = detail::json_integer<std::size_t>(j.at("external_edges"));
  for (const json &t : j.at("terms")) {
    r.terms.push_back({t.at("term").get<std::string>(), t.at("name").get<std::string>(), t.at("category").get<std::string>(),
                       detail::json_integer<std::size_t>(t.at("observed")), t.at("fdr").get<double>(),
                       t.at("proteins").get<std::vector<std::string>>(), t.at("external_ids").get<std::vector<std::string>>()});
    if (r.terms.back().protein_ids.size() != r.terms.back().proteins.size())
      throw Error(ErrorCode::parse, "community " + r.id + ": a term's proteins and external ids differ in number");
  }
  for (const json &e : j.at("edges"))
    r.edges.push_back({detail::json_integer<int64_t>(e.at("edge")), e.at("source_external_id").get<std::string>(),
                       e.at("target_external_id").get<std::string>(), e.at("source").get<std::string>(),
                       e.at("target").get<std::string>(), e.at("relation").get<std::string>(), e.at("score").get<double>()});
  r.summary = j.at("summary").get<std::string>();
  r.summary_status = j.at("summary_status").get<std::string>();
  r.summary_by = j.at("summary_by").get<std::string>();
  r.citations = j.at("citations").get<std::vector<std::string>>();
  r.problem = j.at("problem").get<std::string>();
  return r;
}

}  // namespace community_parts

CommunitySet build_communities(const KnowledgeGraph &kg, LanguageModel &model, const CommunityOptions &o) {
  if (o.name.empty()) throw Error(ErrorCode::invalid_argument, "communities: the set needs a name");
  if (o.min_size < 1) throw Error(ErrorCode::invalid_argument, "communities: min_size must be at least 1");
  CommunitySet s;
  s.name = o.name;
  s.generation = kg.generation();
  s.created_at = detail::utc_now();
  const ClusteringResult r = cluster(kg, {}, o.cluster);
  const auto snapshot = kg.snapshot();
  s.method = to_string(r.method);
  s.min_score = r.min_score;
  s.resolution = o.cluster.resolution;
  s.nodes = r.nodes.size();
  s.edges = r.edges;
  s.modularity = r.modularity;
  s.terms_note = r.terms_note;
  s.model = model.identity();
  for (const Cluster &c : r.clusters) s.communities += c.level == 0;
  // Top-level communities largest first ("C1", "C2", ...), each one's levels below it ("C1.1", ...), in that order.
  std::vector<std::size_t> top;
  for (std::size_t i = 0; i < r.clusters.size(); ++i)
    if (r.clusters[i].level == 0 && r.clusters[i].members.size() >= o.min_size) top.push_back(i);
  std::stable_sort(top.begin(), top.end(),
                   [&](std::size_t a, std::size_t b) { return r.clusters[a].members.size() > r.clusters[b].members.size(); });
  const auto add = [&](const auto &self, std::size_t index, const std::string &id, const std::string &parent) -> void {
    if (s.reports.size() >= o.max_reports) return;
    CommunityReport report = community_parts::report_of(kg, *snapshot, r.clusters[index], o);
    report.id = id;
    report.parent = parent;
    s.reports.push_back(std::move(report));
    std::size_t k = 0;
    for (std::size_t child : r.clusters[index].children)
      if (r.clusters[child].members.size() >= o.min_size) self(self, child, id + "." + std::to_string(++k), id);
  };
  for (std::size_t k = 0; k < top.size(); ++k) add(add, top[k], "C" + std::to_string(k + 1), "");
  // (the graph's protein names, for the check that a model's text names no protein outside its community)
  std::unordered_set<std::string> proteins;
  if (model.kind() != "extractive")
    for (uint32_t i = 0; i < snapshot->node_count(); ++i) proteins.insert(snapshot->name(i));
  for (CommunityReport &report : s.reports) community_parts::summarise(report, model, proteins, s.usage);
  return s;
}

json to_json(const CommunitySet &s) {
  json reports = json::array();
  for (const CommunityReport &r : s.reports) reports.push_back(community_parts::report_json(r));
  return {{"name", s.name},
          {"created_at", s.created_at},
          {"generation", s.generation},
          {"stale", s.stale},
          {"method", s.method},
          {"min_score", s.min_score},
          {"resolution", s.resolution},
          {"nodes", s.nodes},
          {"edges", s.edges},
          {"communities", s.communities},
          {"modularity", s.modularity},
          {"terms_note", s.terms_note},
          {"model", s.model},
          {"usage",
           {{"model_calls", s.usage.model_calls}, {"local_answers", s.usage.local_answers}, {"failed", s.usage.failed},
            {"prompt_tokens", s.usage.prompt_tokens}, {"completion_tokens", s.usage.completion_tokens}}},
          {"reports", std::move(reports)}};
}

CommunitySet detail::communities_from_json(const json &j) {
  CommunitySet s;
  try {
    s.name = j.at("name").get<std::string>();
    s.created_at = j.at("created_at").get<std::string>();
    s.generation = detail::json_integer<uint64_t>(j.at("generation"));
    s.method = j.at("method").get<std::string>();
    s.min_score = j.at("min_score").get<double>();
    s.resolution = j.at("resolution").get<double>();
    s.nodes = detail::json_integer<std::size_t>(j.at("nodes"));
    s.edges = detail::json_integer<std::size_t>(j.at("edges"));
    s.communities = detail::json_integer<std::size_t>(j.at("communities"));
    s.modularity = j.at("modularity").get<double>();
    s.terms_note = j.at("terms_note").get<std::string>();
    s.model = j.at("model").get<std::string>();
    const json &u = j.at("usage");
    s.usage.model_calls = detail::json_integer<std::size_t>(u.at("model_calls"));
    s.usage.local_answers = detail::json_integer<std::size_t>(u.at("local_answers"));
    s.usage.failed = detail::json_integer<std::size_t>(u.at("failed"));
    s.usage.prompt_tokens = detail::json_integer<int64_t>(u.at("prompt_tokens"));
    s.usage.completion_tokens = detail::json_integer<int64_t>(u.at("completion_tokens"));
    for (const json &r : j.at("reports")) s.reports.push_back(community_parts::report_from(r));
  } catch (const json::exception &e) {
    throw Error(ErrorCode::parse, "community reports '" + s.name + "': malformed: " + e.what());
  } catch (const Error &e) {
    if (e.code() != ErrorCode::parse) throw;
    throw Error(ErrorCode::parse, "community reports '" + s.name + "': " + e.what());
  }
  return s;
}

void store_communities(KnowledgeGraph &kg, const CommunitySet &s) {
  json spec = to_json(s);
  json reports = std::move(spec["reports"]);
  spec.erase("reports");
  spec.erase("stale");
  StoredCommunitySet stored;
  stored.name = s.name;
  stored.generation = s.generation;
  stored.spec = dump_json(spec);
  stored.reports = dump_json(reports);
  stored.created_at = s.created_at;
  kg.store_community_set(stored);
}

std::optional<CommunitySet> load_communities(const KnowledgeGraph &kg, const std::string &name) {
  const std::optional<StoredCommunitySet> stored = kg.community_set(name);
  if (!stored) return std::nullopt;
  json spec = detail::parse_json_or_discarded(stored->spec);
  json reports = detail::parse_json_or_discarded(stored->reports);
  if (!spec.is_object() || !reports.is_array())
    throw Error(ErrorCode::parse, "community reports '" + name + "': the stored set is not JSON (rebuild it)");
  spec["reports"] = std::move(reports);
  spec["name"] = name;
  CommunitySet s = detail::communities_from_json(spec);
  s.generation = stored->generation;
  s.stale = s.generation != kg.generation();
  return s;
}

}  // namespace grappi
