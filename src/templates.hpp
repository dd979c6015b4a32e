// Internal: prompt templates read from files and checked ({{name}} fields), shared by the
// explanation pipeline's PromptTemplates and the grounding agent's GroundingTemplates.
#pragma once

#include <set>
#include <string>

namespace grappi::detail {

/// Error(invalid_argument) naming `where` for a field not in `allowed`, an unclosed '{{' or an
/// empty field.
void check_template(const std::string &text, const std::set<std::string> &allowed, const std::string &where);
/// A template file's whole text; Error(io) when it cannot be read.
std::string read_template(const std::string &path);

}  // namespace grappi::detail
