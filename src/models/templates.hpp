// Internal: prompt templates read from files and checked ({{name}} fields), shared by the
// agents' template sets (explore, grounding, extraction, hypotheses, answers).
#pragma once

#include <set>
#include <string>

namespace grappi::detail {

/// Error(invalid_argument) naming `where` for a field not in `allowed`, an unclosed '{{' or an
/// empty field.
void check_template(const std::string &text, const std::set<std::string> &allowed, const std::string &where);
/// A template file's whole text; Error(io) when it cannot be read.
std::string read_template(const std::string &path);
/// Replaces `slot` with the template in `file` (nothing when `file` is empty) after checking
/// its fields against `allowed`; `what` names it in messages ("system", "edge", ...). Whether it
/// replaced it (the caller then versions its templates "custom-").
bool load_template(std::string &slot, const std::string &file, const std::set<std::string> &allowed, const char *what);

}  // namespace grappi::detail
