// The offline (extractive) answers to explore's requests: an edge's summary from the two
// proteins' annotations, channels and references, and a path's explanation and relevance score
// from the query terms found in its proteins' annotations, their query similarity and the
// geometric mean of its edges' confidences. Not a language model: every text says so.
#include "grappi/pipeline.hpp"
#include "agents/explore/explore_offline.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/answer_json.hpp"
#include "common/text_util.hpp"
#include "grappi/error.hpp"
#include "grappi/json_text.hpp"

namespace grappi {

using nlohmann::json;

namespace {

double num_field(const json &j, const char *key, double fallback) {
  if (j.is_object() && j.contains(key) && j[key].is_number()) return j[key].get<double>();
  return fallback;
}

// "Microtubule-associated protein tau; Promotes microtubule assembly ..." -> at most `words`
// words of the first sentence after the protein's full name.
std::string annotation_gist(const std::string &annotation, std::size_t words) {
  std::string a = annotation;
  auto cut = a.find(" [...]");
  if (cut != std::string::npos) a.erase(cut);
  auto semi = a.find(';');
  std::string full = semi == std::string::npos ? a : a.substr(0, semi);
  std::string rest = semi == std::string::npos ? std::string() : a.substr(semi + 1);
  auto dot = rest.find(". ");
  if (dot != std::string::npos) rest.erase(dot);
  std::istringstream in(rest);
  std::string w, gist;
  std::size_t n = 0;
  while (n < words && in >> w) {
    gist += (gist.empty() ? "" : " ") + w;
    ++n;
  }
  while (!gist.empty() && (gist.back() == '.' || gist.back() == ',' || gist.back() == ';')) gist.pop_back();
  if (in >> w) gist += " ...";
  full = detail::trim_copy(full);
  if (full.empty()) return gist;
  return gist.empty() ? full : full + ": " + gist;
}

std::string matched_list(const std::vector<std::pair<std::string, std::string>> &m) {
  std::string s;
  for (const auto &[term, who] : m) s += (s.empty() ? "" : ", ") + term + " (" + who + ")";
  return s;
}

}  // namespace

namespace detail {

std::string offline_explore_answer(const json &task) {
  const json &t = task;
  const std::string kind = detail::json_string(t, "kind");
  const std::string query = detail::json_string(t, "query");
  const auto terms = detail::content_terms(query);
  if (kind == "edge") {
    const json &s = t.value("source", json::object()), &g = t.value("target", json::object());
    const std::string a = detail::json_string(s, "name"), b = detail::json_string(g, "name");
    std::string text = kExtractiveOpening + a + " (" + annotation_gist(detail::json_string(s, "annotation"), 12) +
                       ") and " + b + " (" + annotation_gist(detail::json_string(g, "annotation"), 12) + ") are linked by " +
                       detail::json_string(t, "relation") + " with STRING confidence " + detail::fixed(num_field(t, "score", 0), 3);
    if (t.contains("channels") && t["channels"].is_object() && !t["channels"].empty()) {
      std::vector<std::pair<double, std::string>> ch;
      for (auto it = t["channels"].begin(); it != t["channels"].end(); ++it)
        if (it.value().is_number() && it.value().get<double>() > 0) ch.emplace_back(it.value().get<double>(), it.key());
      std::stable_sort(ch.begin(), ch.end(), [](const auto &x, const auto &y) { return x.first > y.first; });
      if (!ch.empty()) {
        text += " (";
        for (std::size_t i = 0; i < ch.size() && i < 3; ++i)
          text += (i ? ", " : "") + ch[i].second + " " + detail::fixed(ch[i].first, 3);
        text += ")";
      }
    }
    if (t.contains("pmids") && t["pmids"].is_array() && !t["pmids"].empty())
      text += "; " + std::to_string(t["pmids"].size()) + " PubMed reference" + (t["pmids"].size() > 1 ? "s" : "");
    text += ".";
    std::vector<std::pair<std::string, std::string>> matched;
    for (const auto &term : terms) {
      std::string who;
      if (detail::text_has_term(a + " " + detail::json_string(s, "annotation"), term)) who = a;
      if (detail::text_has_term(b + " " + detail::json_string(g, "annotation"), term)) who += (who.empty() ? "" : ", ") + b;
      if (!who.empty()) matched.emplace_back(term, who);
    }
    text += matched.empty() ? " No query term appears in either annotation."
                            : " Query terms in the annotations: " + matched_list(matched) + ".";
    return text;
  }
  if (kind == "path") {
    const json proteins = t.value("proteins", json::array());
    const json edges = t.value("edges", json::array());
    if (!proteins.is_array() || proteins.size() < 2 || !edges.is_array() || edges.size() + 1 != proteins.size())
      throw Error(ErrorCode::invalid_argument, "extractive model: a path task needs proteins and edges");
    std::vector<std::string> names;
    for (const auto &p : proteins) names.push_back(detail::json_string(p, "name"));
    // Query relevance from the proteins after the first (the initial protein is on every path).
    std::vector<std::pair<std::string, std::string>> matched;
    double best_sim = 0;
    for (const auto &term : terms) {
      std::string who;
      for (std::size_t i = 1; i < proteins.size(); ++i)
        if (detail::text_has_term(names[i] + " " + detail::json_string(proteins[i], "annotation"), term))
          who += (who.empty() ? "" : ", ") + names[i];
      if (!who.empty()) matched.emplace_back(term, who);
    }
    for (std::size_t i = 1; i < proteins.size(); ++i) {
      double sim = num_field(proteins[i], "query_similarity", 0);
      if (std::isfinite(sim)) best_sim = std::max(best_sim, std::min(1.0, sim));
    }
    const double coverage = terms.empty() ? 0.0 : static_cast<double>(matched.size()) / static_cast<double>(terms.size());
    const double q = 0.6 * coverage + 0.4 * best_sim;
    double log_sum = 0, weakest = 1;
    std::size_t weakest_i = 0;
    for (std::size_t i = 0; i < edges.size(); ++i) {
      double sc = std::clamp(num_field(edges[i], "score", 0), 1e-6, 1.0);
      log_sum += std::log(sc);
      if (sc < weakest) {
        weakest = sc;
        weakest_i = i;
      }
    }
    const double c = std::exp(log_sum / static_cast<double>(edges.size()));
    const double len = static_cast<double>(edges.size());
    const double rel = 100.0 * (0.7 * q + 0.3 * c) / (1.0 + 0.15 * (len - 1.0));
    const int score = static_cast<int>(std::lround(std::clamp(rel, 0.0, 100.0)));
    std::string chain;
    for (std::size_t i = 0; i < names.size(); ++i) chain += (i ? " -> " : "") + names[i];
    std::string text = kExtractiveOpening + chain + " (" + std::to_string(edges.size()) + " edge" +
                       (edges.size() > 1 ? "s" : "") + ", geometric mean STRING confidence " + detail::fixed(c, 3);
    if (edges.size() > 1)
      text += ", weakest " + detail::json_string(edges[weakest_i], "source") + "-" + detail::json_string(edges[weakest_i], "target") + " " +
              detail::fixed(weakest, 3);
    text += "). ";
    text += matched.empty() ? "No query term appears in the annotations of " + chain.substr(names[0].size() + 4) + "."
                            : "Query terms found: " + matched_list(matched) + ".";
    if (best_sim > 0) text += " Best query similarity " + detail::fixed(best_sim, 2) + ".";
    return dump_json(json{{"explanation", text}, {"relevance_score", score}});
  }
  throw Error(ErrorCode::invalid_argument, "extractive explore answer: the task kind is 'edge' or 'path', not '" + kind + "'");
}

}  // namespace detail

std::string extractive_explore_answer(const ChatRequest &request) { return detail::offline_explore_answer(request.task); }

}  // namespace grappi
