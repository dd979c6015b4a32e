// PSI-MITAB fields (mitab_parser.hpp).
#include "formats/mitab_parser.hpp"

#include <cctype>

#include "common/text_util.hpp"

namespace grappi::detail {

namespace {

// A double-quoted string starting at s[0] == '"': its content (backslash escapes resolved) and
// the position after the closing quote; npos when it is not closed.
std::size_t read_quoted(std::string_view s, std::string &out) {
  out.clear();
  for (std::size_t i = 1; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      out += s[++i];
    } else if (s[i] == '"') {
      return i + 1;
    } else {
      out += s[i];
    }
  }
  return std::string_view::npos;
}

// An unquoted value with its backslash escapes resolved.
std::string unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) ++i;
    out += s[i];
  }
  return out;
}

// One item "db:id(text)" of a field.
bool parse_item(std::string_view item, MitabXref &x, std::string &error) {
  item = trim_blanks(item);
  std::size_t colon = std::string_view::npos;
  if (!item.empty() && item.front() == '"') {
    // A quoted database name ("author-confidence (core)":false).
    const std::size_t end = read_quoted(item, x.db);
    if (end != std::string_view::npos && end < item.size() && item[end] == ':' && !x.db.empty()) colon = end;
  } else {
    for (std::size_t i = 0; i < item.size(); ++i) {
      if (item[i] == '"' || item[i] == '(') break;
      if (item[i] == ':') {
        colon = i;
        break;
      }
    }
    if (colon != std::string_view::npos && colon > 0) x.db = std::string(trim_blanks(item.substr(0, colon)));
  }
  if (colon == std::string_view::npos || x.db.empty()) {
    error = "'" + std::string(item.substr(0, 80)) + "' is not database:identifier";
    return false;
  }
  std::string_view rest = item.substr(colon + 1);
  std::string_view desc;
  if (!rest.empty() && rest.front() == '"') {
    const std::size_t end = read_quoted(rest, x.id);
    if (end == std::string_view::npos) {
      error = "unclosed quote in '" + std::string(item.substr(0, 80)) + "'";
      return false;
    }
    rest = trim_blanks(rest.substr(end));
    if (!rest.empty()) {
      if (rest.front() != '(' || rest.back() != ')') {
        error = "text after the quoted identifier in '" + std::string(item.substr(0, 80)) + "'";
        return false;
      }
      desc = rest.substr(1, rest.size() - 2);
    }
  } else if (!rest.empty() && rest.back() == ')') {
    // The description is the balanced parenthesised suffix; what precedes it is the id.
    int depth = 0;
    std::size_t open = std::string_view::npos;
    for (std::size_t i = rest.size(); i-- > 0;) {
      if (rest[i] == ')') ++depth;
      else if (rest[i] == '(' && --depth == 0) {
        open = i;
        break;
      }
    }
    if (open == std::string_view::npos) {
      error = "unbalanced parentheses in '" + std::string(item.substr(0, 80)) + "'";
      return false;
    }
    x.id = unescape(trim_blanks(rest.substr(0, open)));
    desc = rest.substr(open + 1, rest.size() - open - 2);
  } else {
    x.id = unescape(trim_blanks(rest));
  }
  desc = trim_blanks(desc);
  if (!desc.empty() && desc.front() == '"' && read_quoted(desc, x.text) == desc.size()) {
    // a quoted description
  } else {
    x.text = std::string(desc);
  }
  if (x.id.empty()) {
    error = "empty identifier in '" + std::string(item.substr(0, 80)) + "'";
    return false;
  }
  return true;
}

}  // namespace

int mitab_version_of_columns(std::size_t columns) {
  switch (columns) {
    case 15: return 25;
    case 36: return 26;
    case 42: return 27;
    default: return 0;
  }
}

std::vector<MitabXref> parse_mitab_field(std::string_view field, std::string &error) {
  std::vector<MitabXref> out;
  error.clear();
  field = trim_blanks(field);
  if (field.empty() || field == "-") return out;
  bool quoted = false;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= field.size(); ++i) {
    const bool end = i == field.size();
    if (!end) {
      const char c = field[i];
      if (c == '\\') {  // escapes the next character, in quotes or not (MINT:\"YNR035C)
        ++i;
        continue;
      }
      if (c == '"') quoted = !quoted;
      else if (!quoted && c == '(') ++depth;
      else if (!quoted && c == ')' && depth > 0) --depth;
      if (quoted || depth > 0 || c != '|') continue;
    } else if (quoted) {
      error = "unclosed quote";
      out.clear();
      return out;
    }
    const std::string_view item = trim_blanks(field.substr(start, i - start));
    start = i + 1;
    if (item.empty() || item == "-") continue;
    MitabXref x;
    if (!parse_item(item, x, error)) {
      out.clear();
      return out;
    }
    out.push_back(std::move(x));
  }
  return out;
}

const MitabXref *first_xref(const std::vector<MitabXref> &xrefs, std::string_view db) {
  for (const auto &x : xrefs)
    if (iequals(x.db, db)) return &x;
  return nullptr;
}

bool looks_like_mitab(std::string_view line) {
  if (!line.empty() && line.front() == '#') {
    return lower_copy(line.substr(0, 200)).find("interactor a") != std::string::npos &&
           line.find('\t') != std::string_view::npos;
  }
  std::size_t columns = 1;
  for (char c : line) columns += c == '\t' ? 1 : 0;
  if (mitab_version_of_columns(columns) == 0) return false;
  std::string error;
  const std::size_t tab = line.find('\t');
  return !parse_mitab_field(line.substr(0, tab), error).empty();
}

}  // namespace grappi::detail
