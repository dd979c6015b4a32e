// Internal: the intent rules (question.cpp) and a language model's reading of a question's intent, checked against what
// the rules found (ask() asks a model when the rules leave a question open).
#pragma once

#include <string>
#include <string_view>

#include "grappi/question.hpp"

namespace grappi::detail {

/// Sets the intent, topic, implied class and interaction of an analysis whose entities are linked, by rules (source
/// "rules"; rule says which).
void recognise_intent(QuestionAnalysis &analysis);

/// The prompt asking a model for a question's intent: {{question}} and {{entities}} (the linked entities' names, one
/// per line).
extern const char *const kIntentPrompt;

/// A model's intent for an analysis: {"intent", "entities": [names], "topic"}. Taken only when the intent is known, its
/// entities are the question's own (in the number the intent needs: one for partners and class, two for connects and
/// paths) and a class or topic is words of the question; then the analysis takes it (source "model", the entities it
/// named first). Returns false with the reason otherwise, leaving the analysis as it was.
bool apply_model_intent(QuestionAnalysis &analysis, std::string_view answer, std::string &error);

}  // namespace grappi::detail
