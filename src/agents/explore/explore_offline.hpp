// Internal: explore's offline (extractive) answers, which its requests carry (ChatRequest::offline).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace grappi::detail {

/// How every extractive explore answer opens (the report's table drops it: report_views.cpp).
constexpr const char *kExtractiveOpening = "Extractive summary (not generated): ";

/// The extractive answer to an explore task of kind "edge" or "path" (the public
/// extractive_explore_answer takes the request).
std::string offline_explore_answer(const nlohmann::json &task);

}  // namespace grappi::detail
