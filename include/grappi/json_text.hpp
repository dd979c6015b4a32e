// grappi/json_text.hpp — JSON as text for every output: names and texts are stored as given, so
// they may hold invalid UTF-8 (a file name, a model's answer cut mid-character); an output never
// fails on them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace grappi {

/// The JSON text of `j` (compact, or indented by `indent` spaces), every invalid UTF-8 sequence
/// replaced by U+FFFD instead of throwing. What the command line, the C API and the library's
/// writers use. (Inline: the library exports no symbol of nlohmann's types.)
inline std::string dump_json(const nlohmann::json &j, int indent = -1) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace grappi
