// Internal: the tolerant reading of a language model's JSON answer, shared by every agent, the
// one string accessor of JSON objects the readers share, and the JSON of a stage's model use.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace grappi {
struct StageUsage;
}

namespace grappi::detail {

/// A stage's model use as JSON (model_calls, local_answers, cache_hits, prompt_tokens,
/// completion_tokens, failed, skipped, repairs, seconds): explore, grounding and extraction
/// write it alike.
nlohmann::json usage_json(const StageUsage &usage);

/// The string value of `key` in the object j; empty when j is not an object or the value is
/// missing or not a string.
inline std::string json_string(const nlohmann::json &j, const char *key) {
  if (!j.is_object()) return {};
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// The first JSON object in a model's answer, with ```json fences and text around it allowed.
/// False with the reason ("empty answer", "no JSON object in the answer", "truncated JSON
/// object in the answer", "malformed JSON in the answer") when there is none.
bool json_object_in(std::string_view text, nlohmann::json &out, std::string &error);

}  // namespace grappi::detail
