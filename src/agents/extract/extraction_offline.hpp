// Internal: the offline model's answer to the extraction agent's request (task kind
// "extract.statements"): BEL statements from a small documented rule table (see
// extraction_offline.cpp and the docs/extract.md "Extraction").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace grappi::detail {

/// The answer text (JSON {"statements": [{"bel", "evidence", "rule", "mentions": [[offset,
/// length], ...]}]) to an extraction task:
/// {"paragraph": text, "entities": [{"offset", "length", "bel", "function"}]}.
std::string offline_extraction_answer(const nlohmann::json &task);

}  // namespace grappi::detail
