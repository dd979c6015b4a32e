// Internal: the offline model's answer to a question (task kind "ask.answer"): the best-ranked
// entities of the context with their strongest edges, in plain sentences citing them (see
// answer_offline.cpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace grappi::detail {

/// The answer text (JSON {"sentences": [{"text", "citations"}]}) to a task {"entities":
/// [{label, name, annotation, prize}], "edges": [{label, a, b, relation, score, pmids}],
/// "question_entities": [labels]}.
std::string offline_answer(const nlohmann::json &task);

}  // namespace grappi::detail
