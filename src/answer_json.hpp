// Internal: the tolerant reading of a language model's JSON answer, shared by every agent.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace grappi::detail {

/// The first JSON object in a model's answer, with ```json fences and text around it allowed.
/// False with the reason ("empty answer", "no JSON object in the answer", "truncated JSON
/// object in the answer", "malformed JSON in the answer") when there is none.
bool json_object_in(std::string_view text, nlohmann::json &out, std::string &error);

}  // namespace grappi::detail
