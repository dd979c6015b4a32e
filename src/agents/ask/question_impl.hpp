// Internal: the intent rules (question.cpp) and a language model's reading of a question's intent, checked against what
// the rules found (ask() asks a model when the rules leave a question open).
#pragma once

#include <string>
#include <vector>
#include <string_view>

#include "grappi/question.hpp"

namespace grappi::detail {

/// The question's words, lower case, each entity's words replaced by "@", in question order (hyphens inside words
/// left out: "co-immunoprecipitates" is "coimmunoprecipitates", "non-kinase" "nonkinase"; a number keeps its point).
std::vector<std::string> question_words(const QuestionAnalysis &analysis);

/// Sets the intent, topic, implied class and interaction of an analysis whose entities are linked, by rules (source
/// "rules"; rule says which).
void recognise_intent(QuestionAnalysis &analysis);

/// Reads the question's frame (QuestionAnalysis::frame: its answer form, relation and filters) from the cue table and
/// the intent the rules recognised, and adjusts the intent and topic to it (an excluded class is no topic; a yes/no
/// question about two entities retrieves what joins them).
void read_frame(QuestionAnalysis &analysis);

/// A cue of the frame: words of a question (as question_words writes them, one or more separated by blanks; a final
/// '*' a prefix), the part of the frame they set and its value, and where they count ("start": the question's first
/// words; "any").
struct FrameCue {
  const char *words;
  const char *part;   ///< "form", "relation", "exclude", "confidence", "channel"
  const char *value;  ///< the part's value ("count", "yes_no", "path"; "common", "function"; "0.700"; "physical")
  const char *where;  ///< "start" or "any"
};

/// The cue table (data: question_frame.cpp).
const std::vector<FrameCue> &frame_cues();

/// The prompt asking a model for a question's intent: {{question}} and {{entities}} (the linked entities' names, one
/// per line).
extern const char *const kIntentPrompt;

/// A model's intent for an analysis: {"intent", "entities": [names], "topic"}. Taken only when the intent is known, its
/// entities are the question's own (in the number the intent needs: one for partners and class, two for connects and
/// paths) and a class or topic is words of the question; then the analysis takes it (source "model", the entities it
/// named first). Returns false with the reason otherwise, leaving the analysis as it was.
bool apply_model_intent(QuestionAnalysis &analysis, std::string_view answer, std::string &error);

}  // namespace grappi::detail
