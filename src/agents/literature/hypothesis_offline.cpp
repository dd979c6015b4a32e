// The offline model's explanations of hypotheses: not a language model. For each pair of
// consecutive concepts of the ranked paths (best path first), the first sentence of the
// abstracts (in the order given) that names both, quoted with its PubMed id; a pair no sentence
// names together is said to be named together in the first abstract that names both, or is left
// out. At most eight sentences; each pair once, each sentence once.
#include "agents/literature/hypothesis_offline.hpp"

#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "common/answer_json.hpp"
#include "common/grounding_text.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"

namespace grappi::detail {

namespace {

using nlohmann::json;

bool names(std::string_view text, const std::string &name) { return MentionFinder({name}).mentioned_in(text); }

}  // namespace

std::string offline_hypothesis_answer(const json &task) {
  std::vector<std::pair<std::string, std::string>> abstracts;
  if (task.contains("abstracts") && task["abstracts"].is_array())
    for (const json &a : task["abstracts"]) abstracts.emplace_back(json_string(a, "pmid"), json_string(a, "text"));
  json sentences = json::array();
  std::set<std::pair<std::string, std::string>> done;
  std::set<std::string> quoted;
  if (task.contains("paths") && task["paths"].is_array())
    for (const json &path : task["paths"]) {
      if (!path.is_array()) continue;
      for (std::size_t i = 0; i + 1 < path.size() && sentences.size() < 8; ++i) {
        if (!path[i].is_string() || !path[i + 1].is_string()) continue;
        const std::string a = path[i].get<std::string>(), b = path[i + 1].get<std::string>();
        if (!done.insert({std::min(a, b), std::max(a, b)}).second) continue;
        bool said = false;
        std::vector<std::string> both;
        for (const auto &[pmid, text] : abstracts) {
          if (!names(text, a) || !names(text, b)) continue;
          both.push_back(pmid);
          for (const auto &[sb, se] : sentence_ranges(text)) {
            const std::string_view sentence = std::string_view(text).substr(sb, se - sb);
            if (said || !names(sentence, a) || !names(sentence, b)) continue;
            said = true;
            if (!quoted.insert(std::string(sentence)).second) continue;  // (quoted for another pair)
            sentences.push_back({{"text", std::string(sentence)}, {"pmids", json::array({pmid})}});
          }
          if (said) break;
        }
        if (!said && !both.empty())
          sentences.push_back({{"text", a + " and " + b + " are named together in PMID " + both[0] + "."},
                               {"pmids", json::array({both[0]})}});
      }
    }
  return dump_json(json{{"sentences", std::move(sentences)}});
}

}  // namespace grappi::detail
