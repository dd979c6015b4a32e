// Internal: the offline model's answer to the hypothesis agent's request (task kind
// "hypothesis.explain"): an extractive explanation (see hypothesis_offline.cpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace grappi::detail {

/// The answer text (JSON {"sentences": [{"text", "pmids"}]}) to a task {"paths": [[names]],
/// "abstracts": [{"pmid", "text"}]}.
std::string offline_hypothesis_answer(const nlohmann::json &task);

}  // namespace grappi::detail
