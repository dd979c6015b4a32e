#include "common/json_input.hpp"

#include "grappi/error.hpp"

namespace grappi::detail {

bool json_too_deep(std::string_view text) noexcept {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

void check_json_depth(std::string_view text, const std::string &what) {
  if (json_too_deep(text))
    throw Error(ErrorCode::parse, what + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                                      " levels (arrays and objects), which grappi does not read");
}

nlohmann::json parse_json_or_discarded(std::string_view text) {
  if (json_too_deep(text)) return nlohmann::json(nlohmann::json::value_t::discarded);
  return nlohmann::json::parse(text, nullptr, false);
}

}  // namespace grappi::detail
