// The offline model's answers to questions: not a language model. The context's entities in
// rank order (prize), those the question names left out, the first five each in one sentence:
// its strongest edge in the context (an edge to an entity the question names first, then the
// highest score), citing the entity, the edge and the edge's first PubMed id; an entity without
// an edge is given with its annotation's first clause (the named entities themselves when the
// context holds no other); then a quote from each paper of the
// context (its first sentence naming an entity the question does not), citing the paper.
#include "agents/ask/answer_offline.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "common/answer_json.hpp"
#include "grappi/json_text.hpp"

namespace grappi::detail {

namespace {

using nlohmann::json;

std::string first_clause(const std::string &annotation) {
  const std::size_t end = annotation.find_first_of(";.");
  std::string s = annotation.substr(0, end == std::string::npos ? annotation.size() : end);
  if (s.size() > 160) s = s.substr(0, 160);
  return s;
}

}  // namespace

std::string offline_answer(const json &task) {
  const json empty = json::array();
  const json &entities = task.contains("entities") && task["entities"].is_array() ? task["entities"] : empty;
  const json &edges = task.contains("edges") && task["edges"].is_array() ? task["edges"] : empty;
  std::set<std::string> asked;
  if (task.contains("question_entities") && task["question_entities"].is_array())
    for (const json &l : task["question_entities"])
      if (l.is_string()) asked.insert(l.get<std::string>());
  std::map<std::string, std::string> name_of;
  for (const json &e : entities) name_of[json_string(e, "label")] = json_string(e, "name");
  json sentences = json::array();
  // (the entities the question names are said too when the context holds no other: "Which processes
  // are enriched in A, B, C and D?" over four proteins and nothing else)
  const bool only_asked = std::all_of(entities.begin(), entities.end(),
                                      [&](const json &e) { return asked.count(json_string(e, "label")) > 0; });
  for (const json &e : entities) {
    if (sentences.size() >= 5) break;
    const std::string label = json_string(e, "label");
    if (asked.count(label) && !only_asked) continue;
    const json *best = nullptr;
    bool best_to_asked = false;
    for (const json &x : edges) {
      const std::string a = json_string(x, "a"), b = json_string(x, "b");
      if (a != label && b != label) continue;
      const bool to_asked = asked.count(a == label ? b : a) > 0;
      const double score = x.value("score", 0.0);
      if (!best || (to_asked && !best_to_asked) || (to_asked == best_to_asked && score > best->value("score", 0.0))) {
        best = &x;
        best_to_asked = to_asked;
      }
    }
    const std::string name = json_string(e, "name");
    if (best) {
      const std::string other = json_string(*best, json_string(*best, "a") == label ? "b" : "a");
      char score[32];
      std::snprintf(score, sizeof score, "%.3f", best->value("score", 0.0));
      std::string cites = label + ", " + json_string(*best, "label");
      json cited = json::array({label, json_string(*best, "label")});
      if (best->contains("pmids") && (*best)["pmids"].is_array() && !(*best)["pmids"].empty() &&
          (*best)["pmids"][0].is_number_integer()) {
        const std::string pmid = "PMID:" + std::to_string((*best)["pmids"][0].get<int64_t>());
        cites += ", " + pmid;
        cited.push_back(pmid);
      }
      sentences.push_back({{"text", name + " is linked to " + name_of[other] + " by " + json_string(*best, "relation") +
                                        " (score " + score + ") [" + cites + "]."},
                           {"citations", cited}});
    } else {
      const std::string what = first_clause(json_string(e, "annotation"));
      sentences.push_back({{"text", name + (what.empty() ? " is in the retrieved subgraph" : ": " + what) + " [" + label + "]."},
                           {"citations", json::array({label})}});
    }
  }
  // Then, from each paper of the context, its first sentence naming an entity the question
  // does not (one naming a question entity too preferred), quoted as written.
  const json &papers = task.contains("papers") && task["papers"].is_array() ? task["papers"] : empty;
  for (const json &p : papers) {
    const json &said = p.contains("sentences") && p["sentences"].is_array() ? p["sentences"] : empty;
    const json *quote = nullptr;
    bool with_asked = false;
    for (const json &x : said) {
      bool other = false, names_asked = false;
      if (x.contains("entities") && x["entities"].is_array())
        for (const json &l : x["entities"])
          if (l.is_string()) (asked.count(l.get<std::string>()) ? names_asked : other) = true;
      if (other && (!quote || (names_asked && !with_asked))) {
        quote = &x;
        with_asked = names_asked;
      }
    }
    if (!quote) continue;
    const std::string pmid = json_string(p, "pmid"), label = json_string(p, "label");
    sentences.push_back({{"text", (pmid.empty() ? json_string(p, "key") : "PMID:" + pmid) + " reports: \"" +
                                      json_string(*quote, "text") + "\" [" + label + "]."},
                         {"citations", json::array({label})}});
  }
  return dump_json(json{{"sentences", std::move(sentences)}});
}

}  // namespace grappi::detail
