// Internal: the answer in the form the question asks (answer_form.cpp; grappi/answer.hpp FormAnswer).
#pragma once

#include <string>

#include "agents/ask/answer_impl.hpp"
#include "grappi/answer.hpp"

namespace grappi::detail {

/// The form answer of an analysed question from its retrieval (the intent's ranked candidates and paths) and the
/// context (whose edge labels it cites). Sets `status` to "no_answer" when the database cannot say (an entity without
/// any edge; a function without annotation), else leaves it.
FormAnswer form_answer(const KnowledgeGraph &kg, const QuestionAnalysis &analysis, const QuestionRetrieval &retrieval,
                       const AskOptions &options, const AnswerContext &context, std::string &status);

}  // namespace grappi::detail
