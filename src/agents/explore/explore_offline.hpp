// Internal: explore's offline (extractive) answers, which its requests carry (ChatRequest::offline).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace grappi::detail {

/// The extractive answer to an explore task of kind "edge" or "path" (the public
/// extractive_explore_answer takes the request).
std::string offline_explore_answer(const nlohmann::json &task);

}  // namespace grappi::detail
