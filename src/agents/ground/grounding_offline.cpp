// The offline model's grounding answers (ExtractiveModel, task kinds "ground.*"): no language
// model. Summary: the sentences that name both proteins. Scores: the term's name found in the
// summary (every word stem of it) is 5; otherwise the TF-IDF similarity of the summary to the
// term's text relative to the most similar term of the subtree (both computed by the grounder
// and given in the task), in bands (>= 0.75: 4, >= 0.5: 3, >= 0.25: 2, else 1); a term with no
// word in common with the summary is 1. Pick: the most similar of the best-scored terms (ties
// by id), with its score as the confidence. Judge: see judge_answer.
#include "agents/ground/grounding_offline.hpp"

#include <algorithm>
#include <set>

#include "common/answer_json.hpp"
#include "grappi/error.hpp"
#include "common/grounding_text.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"

namespace grappi::detail {

namespace {

using nlohmann::json;

constexpr std::size_t kMaxSentences = 12;

std::vector<std::string> strings(const json &j, const char *key) {
  std::vector<std::string> out;
  if (j.contains(key) && j[key].is_array())
    for (const auto &v : j[key])
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

json summary_answer(const json &t) {
  const std::string chunk = json_string(t, "chunk"), previous = json_string(t, "summary");
  const std::string a = json_string(t, "protein_a"), b = json_string(t, "protein_b");
  const MentionFinder fa(strings(t, "names_a")), fb(strings(t, "names_b"));
  std::vector<std::string> found;
  for (const auto &[from, to] : sentence_ranges(chunk)) {
    const std::string_view s = std::string_view(chunk).substr(from, to - from);
    if (fa.mentioned_in(s) && fb.mentioned_in(s)) found.emplace_back(s);
  }
  const bool had = previous.rfind(kOfflineSummaryPrefix, 0) == 0 && previous.find("no sentence of the text") == std::string::npos;
  std::string summary = had ? previous : std::string();
  std::size_t count = 0;
  if (had)
    for (std::size_t at = summary.find("\xc2\xbb"); at != std::string::npos; at = summary.find("\xc2\xbb", at + 1)) ++count;
  json quotes = json::array();
  for (const std::string &s : found) {
    if (count >= kMaxSentences) break;
    if (summary.find(s) != std::string::npos) continue;  // (chunks overlap)
    if (summary.empty()) summary = kOfflineSummaryPrefix;
    summary += std::string(summary == kOfflineSummaryPrefix ? "" : " ") + "\xc2\xab" + s + "\xc2\xbb";
    quotes.push_back(s);
    ++count;
  }
  if (summary.empty())
    summary = std::string(kOfflineSummaryPrefix) + "no sentence of the text names both " + a + " and " + b + " so far.";
  return {{"summary", summary}, {"quotes", quotes}};
}

// Whether every stem of the term's name occurs in the summary.
bool name_in(const std::string &name, const std::set<std::string> &summary) {
  const auto s = stems(name);
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [&](const std::string &w) { return summary.count(w) > 0; });
}

int band(double relative) {
  if (relative >= 0.75) return 4;
  if (relative >= 0.5) return 3;
  if (relative >= 0.25) return 2;
  return 1;
}

double similarity_of(const json &term) {
  return term.contains("similarity") && term["similarity"].is_number() ? term["similarity"].get<double>() : 0.0;
}

json score_answer(const json &t) {
  const auto s = stems(json_string(t, "summary"));
  const std::set<std::string> summary(s.begin(), s.end());
  json scores = json::object();
  if (t.contains("terms") && t["terms"].is_array())
    for (const auto &term : t["terms"])
      scores[json_string(term, "id")] =
          name_in(json_string(term, "name"), summary)
              ? 5
              : similarity_of(term) > 0 && term.contains("relative_similarity") && term["relative_similarity"].is_number()
                    ? band(term["relative_similarity"].get<double>())
                    : 1;
  return {{"scores", scores}};
}

json pick_answer(const json &t) {
  const json *best = nullptr;
  if (t.contains("terms") && t["terms"].is_array())
    for (const auto &term : t["terms"]) {
      if (!best || similarity_of(term) > similarity_of(*best) ||
          (similarity_of(term) == similarity_of(*best) && json_string(term, "id") < json_string(*best, "id")))
        best = &term;
    }
  if (!best) throw Error(ErrorCode::invalid_argument, "offline grounding: a pick task without terms");
  const int score = best->contains("score") && (*best)["score"].is_number_integer() ? (*best)["score"].get<int>() : 1;
  return {{"term", json_string(*best, "id")}, {"confidence", std::clamp(score, 1, 5)}};
}

// The judge: the term whose name and definition share the larger part of their word stems
// with the paper; within 0.05 of each other, a tie.
json judge_answer(const json &t) {
  const auto s = stems(json_string(t, "text"));
  const std::set<std::string> paper(s.begin(), s.end());
  double share[2] = {0, 0};
  if (!t.contains("terms") || !t["terms"].is_array() || t["terms"].size() != 2)
    throw Error(ErrorCode::invalid_argument, "offline grounding: a judge task compares two terms");
  for (int k = 0; k < 2; ++k) {
    const auto w = stems(json_string(t["terms"][k], "definition"));
    std::size_t hit = 0;
    for (const auto &x : w) hit += paper.count(x) > 0;
    share[k] = w.empty() ? 0.0 : static_cast<double>(hit) / static_cast<double>(w.size());
  }
  const char *better = share[0] > share[1] + 0.05 ? "1" : share[1] > share[0] + 0.05 ? "2" : "tie";
  return {{"better", better}};
}

}  // namespace

std::string offline_grounding_answer(const json &task) {
  const std::string kind = json_string(task, "kind");
  if (kind == "ground.summary") return dump_json(summary_answer(task));
  if (kind == "ground.score") return dump_json(score_answer(task));
  if (kind == "ground.pick") return dump_json(pick_answer(task));
  if (kind == "ground.judge") return dump_json(judge_answer(task));
  throw Error(ErrorCode::invalid_argument, "offline grounding: unknown task kind '" + kind + "'");
}

}  // namespace grappi::detail
