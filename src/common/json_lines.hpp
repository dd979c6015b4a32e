// Internal: JSON lines as the readers of documents and question sets take them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "grappi/error.hpp"
#include "common/json_input.hpp"

namespace grappi::detail {

/// Calls fn(object, where) for each non-blank line of `text` (a leading UTF-8 byte-order mark
/// and '\r' line ends allowed), `where` being "name:line". A line that is not one JSON object is
/// an Error(parse) naming it; `what` describes the objects ("a JSON object {pmid, ...}").
template <class Fn>
void for_each_json_line(std::string_view text, const std::string &name, const char *what, Fn &&fn) {
  std::size_t pos = text.substr(0, 3) == "\xef\xbb\xbf" ? 3 : 0, line_no = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = name + ":" + std::to_string(line_no);
    const nlohmann::json o = parse_json_or_discarded(line);
    if (o.is_discarded())
      throw Error(ErrorCode::parse, where + ": not a JSON object on one line (each line is " + what + ")");
    if (!o.is_object()) throw Error(ErrorCode::parse, where + ": each line is " + what);
    fn(o, where);
  }
}

}  // namespace grappi::detail
