// JSON from outside grappi (files, model and embedding servers, web requests) read with a cap on
// nesting: nlohmann::json parses any depth, but printing, comparing or copying a value recurses
// once per level, so a 200 KB file nested 100,000 deep overflows the stack (smaller threads'
// stacks at lower depths). Every reader of outside JSON goes through these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <string_view>
#include <vector>

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

/// `v` as the integer type T, for grappi's own files read back (parts, partials, models): a
/// float (however whole), a string or an integer out of T's range throws nlohmann's type_error
/// as get<T>() throws for a string, so the readers' handlers name the line. get<T>() would
/// convert a float, and a float out of T's range is undefined behaviour.
template <class T>
T json_integer(const nlohmann::json &v) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>, "json_integer reads integers");
  bool fits = false;
  if (v.is_number_unsigned()) {
    fits = v.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
  } else if (v.is_number_integer()) {
    const std::int64_t x = v.get<std::int64_t>();
    fits = std::is_signed_v<T> ? x >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
                                      x <= static_cast<std::int64_t>(std::numeric_limits<T>::max())
                               : x >= 0;
  }
  if (!fits)
    throw nlohmann::json::type_error::create(302, std::string("expected an integer in range, not ") + v.dump(), &v);
  return v.get<T>();
}

/// An array of integers as std::vector<T>, each read by json_integer.
template <class T>
std::vector<T> json_integers(const nlohmann::json &v) {
  if (!v.is_array()) throw nlohmann::json::type_error::create(302, std::string("expected an array, not ") + v.type_name(), &v);
  std::vector<T> out;
  out.reserve(v.size());
  for (const nlohmann::json &x : v) out.push_back(json_integer<T>(x));
  return out;
}

}  // namespace grappi::detail
