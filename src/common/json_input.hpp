// JSON from outside grappi (files, model and embedding servers, web requests) read with a cap on
// nesting: nlohmann::json parses any depth, but printing, comparing or copying a value recurses
// once per level, so a 200 KB file nested 100,000 deep overflows the stack (smaller threads'
// stacks at lower depths). Every reader of outside JSON goes through these.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace grappi::detail {

/// The deepest nesting of arrays and objects accepted in outside JSON. CX2, BEL JSON, BioC and
/// model answers nest a dozen levels at most.
inline constexpr std::size_t kMaxJsonDepth = 128;

/// True when `text` nests arrays and objects deeper than kMaxJsonDepth (strings skipped; a
/// text that is not JSON is judged only by its brackets).
bool json_too_deep(std::string_view text) noexcept;

/// Error(parse) "<what>: JSON nested deeper than 128 levels" when json_too_deep(text).
void check_json_depth(std::string_view text, const std::string &what);

/// nlohmann::json::parse(text, nullptr, false) that also discards a text nested too deep.
nlohmann::json parse_json_or_discarded(std::string_view text);

}  // namespace grappi::detail
