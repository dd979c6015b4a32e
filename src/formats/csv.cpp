// RFC 4180 CSV records (csv.hpp).
#include "formats/csv.hpp"

#include "grappi/error.hpp"

namespace grappi::detail {

std::vector<std::pair<std::size_t, std::vector<std::string>>> csv_records(std::string_view s, const std::string &name) {
  std::vector<std::pair<std::size_t, std::vector<std::string>>> out;
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false, any = false;
  std::size_t line = 1, start_line = 1;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < s.size() && s[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"' && field.empty()) {
      quoted = any = true;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
      if (any || !field.empty()) {
        fields.push_back(std::move(field));
        out.emplace_back(start_line, std::move(fields));
      }
      fields.clear();
      field.clear();
      any = false;
      start_line = ++line;
    } else {
      field += c;
      any = true;
    }
  }
  if (quoted) throw Error(ErrorCode::parse, name + ":" + std::to_string(start_line) + ": a quoted field is not closed");
  if (any || !field.empty()) {
    fields.push_back(std::move(field));
    out.emplace_back(start_line, std::move(fields));
  }
  return out;
}

}  // namespace grappi::detail
