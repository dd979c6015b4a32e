// OBO 1.2/1.4 flat-file parser (obo_parser.hpp). Follows the OBO 1.4 syntax guide: a header of
// tag-value lines, then stanzas opened by "[Term]", "[Typedef]", "[Instance]"; each line
// "tag: value {modifiers} ! comment", with backslash escapes and quoted strings in def and
// synonym values.
#include "formats/obo_parser.hpp"

#include <cctype>
#include <unordered_map>

#include "grappi/error.hpp"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"

namespace grappi::detail {

namespace {

bool blank(char c) { return c == ' ' || c == '\t'; }

char unescape(char c) {
  switch (c) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'W': return ' ';
    default: return c;
  }
}

class Parser {
 public:
  explicit Parser(LineReader &r) : r_(r) {}

  OboDocument run() {
    OboDocument doc;
    std::string_view raw;
    enum class In { header, term, type_def, other } in = In::header;
    OboStanza *cur = nullptr;
    while (r_.next(raw)) {
      ++doc.lines;
      if (!valid_utf8(raw)) fail("invalid UTF-8");
      std::string_view line = trim_blanks(raw);
      if (line.empty() || line.front() == '!') continue;
      if (line.front() == '[') {
        finish(cur);
        if (line.back() != ']') fail("a stanza header must end with ']': '" + std::string(line.substr(0, 60)) + "'");
        const std::string_view type = trim_blanks(line.substr(1, line.size() - 2));
        if (type == "Term") {
          doc.terms.emplace_back();
          cur = &doc.terms.back();
          in = In::term;
        } else if (type == "Typedef") {
          doc.typedefs.emplace_back();
          cur = &doc.typedefs.back();
          in = In::type_def;
        } else {
          if (type.empty()) fail("empty stanza header '[]'");
          ++doc.other_stanzas;
          cur = nullptr;
          in = In::other;
        }
        if (cur) cur->line = r_.line_number();
        continue;
      }
      const std::size_t colon = line.find(':');
      if (colon == std::string_view::npos || colon == 0)
        fail("expected 'tag: value', got '" + std::string(line.substr(0, 60)) + "'");
      const std::string_view tag = line.substr(0, colon);
      for (char c : tag)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'))
          fail("'" + std::string(tag.substr(0, 60)) + "' is not an OBO tag (expected 'tag: value')");
      const std::string_view value = trim_blanks(line.substr(colon + 1));
      switch (in) {
        case In::header: doc.header.emplace_back(std::string(tag), obo_plain_value(value)); break;
        case In::term:
        case In::type_def: stanza_tag(*cur, tag, value); break;
        case In::other: break;
      }
    }
    finish(cur);
    std::unordered_map<std::string, uint64_t> seen;
    for (auto *list : {&doc.terms, &doc.typedefs})
      for (const auto &s : *list) {
        auto [it, fresh] = seen.emplace(s.id, s.line);
        if (!fresh)
          throw Error(ErrorCode::parse, r_.path() + ":" + std::to_string(s.line) + ": the id '" + s.id +
                                            "' was already defined by the stanza at line " + std::to_string(it->second));
      }
    return doc;
  }

 private:
  [[noreturn]] void fail(const std::string &what) const {
    throw Error(ErrorCode::parse, r_.path() + ":" + std::to_string(r_.line_number()) + ": " + what);
  }

  void finish(const OboStanza *s) const {
    if (s && s->id.empty())
      throw Error(ErrorCode::parse, r_.path() + ":" + std::to_string(s->line) + ": stanza without an 'id:' line");
  }

  void single(std::string &field, const std::string &value, std::string_view tag) const {
    if (!field.empty()) fail("a second '" + std::string(tag) + ":' line in one stanza");
    field = value;
  }

  // A quoted string at the start of v: its text (escapes resolved); v is left after it.
  std::string quoted(std::string_view &v, std::string_view tag) const {
    if (v.empty() || v.front() != '"') fail("'" + std::string(tag) + ":' needs a quoted text (\"...\")");
    std::string out;
    for (std::size_t i = 1; i < v.size(); ++i) {
      if (v[i] == '\\' && i + 1 < v.size()) {
        out += unescape(v[++i]);
      } else if (v[i] == '"') {
        v = trim_blanks(v.substr(i + 1));
        return out;
      } else {
        out += v[i];
      }
    }
    fail("unterminated quoted text in '" + std::string(tag) + ":'");
  }

  // A dbxref list "[a, b "desc"]" at the start of v (may be absent).
  std::vector<std::string> xrefs(std::string_view &v) const {
    std::vector<std::string> out;
    if (v.empty() || v.front() != '[') return out;
    std::string cur;
    bool in_quotes = false;
    for (std::size_t i = 1; i < v.size(); ++i) {
      const char c = v[i];
      if (c == '\\' && i + 1 < v.size()) {
        cur += unescape(v[++i]);
      } else if (c == '"') {
        in_quotes = !in_quotes;
        cur += c;
      } else if (!in_quotes && (c == ',' || c == ']')) {
        const std::string_view t = trim_blanks(cur);
        if (!t.empty()) out.emplace_back(t);
        cur.clear();
        if (c == ']') {
          v = trim_blanks(v.substr(i + 1));
          return out;
        }
      } else {
        cur += c;
      }
    }
    fail("unterminated cross-reference list (missing ']')");
  }

  static std::string first_token(const std::string &s) {
    const std::size_t end = s.find_first_of(" \t");
    return end == std::string::npos ? s : s.substr(0, end);
  }

  void stanza_tag(OboStanza &s, std::string_view tag, std::string_view value) const {
    if (tag == "def") {
      std::string_view v = value;
      if (s.has_definition) fail("a second 'def:' line in one stanza");
      s.has_definition = true;
      s.definition = quoted(v, tag);
      s.definition_xrefs = xrefs(v);
      return;
    }
    if (tag == "synonym") {
      std::string_view v = value;
      OboSynonym syn;
      syn.text = quoted(v, tag);
      // Optional scope and synonym type, then optional xrefs (OBO 1.2 allowed no scope).
      const std::string rest = obo_plain_value(v);
      std::size_t at = 0;
      auto word = [&]() {
        while (at < rest.size() && blank(rest[at])) ++at;
        if (at >= rest.size() || rest[at] == '[') return std::string();
        const std::size_t b = at;
        while (at < rest.size() && !blank(rest[at]) && rest[at] != '[') ++at;
        return rest.substr(b, at - b);
      };
      std::string w = word();
      if (w == "EXACT" || w == "BROAD" || w == "NARROW" || w == "RELATED") {
        syn.scope = w;
        syn.type = word();
      } else if (!w.empty()) {
        fail("synonym scope must be EXACT, BROAD, NARROW or RELATED, got '" + w.substr(0, 40) + "'");
      } else {
        syn.scope = "RELATED";
      }
      if (syn.text.empty()) fail("empty synonym text");
      s.synonyms.push_back(std::move(syn));
      return;
    }
    const std::string v = obo_plain_value(value);
    if (tag == "id") {
      if (v.empty()) fail("empty id");
      if (v.find_first_of(" \t") != std::string::npos) fail("an id cannot contain blanks: '" + v.substr(0, 60) + "'");
      single(s.id, v, tag);
    } else if (tag == "name") {
      single(s.name, v, tag);
    } else if (tag == "namespace") {
      single(s.name_space, v, tag);
    } else if (tag == "comment") {
      s.comment = s.comment.empty() ? v : s.comment + "\n" + v;
    } else if (tag == "is_a") {
      if (v.empty()) fail("'is_a:' without a term id");
      s.is_a.push_back(first_token(v));
    } else if (tag == "relationship") {
      const std::string type = first_token(v);
      const std::string rest(trim_blanks(std::string_view(v).substr(type.size())));
      if (type.empty() || rest.empty()) fail("'relationship:' needs a relation type and a term id");
      s.relationships.emplace_back(type, first_token(rest));
    } else if (tag == "is_obsolete") {
      if (v != "true" && v != "false") fail("is_obsolete must be true or false, got '" + v.substr(0, 40) + "'");
      s.obsolete = v == "true";
    } else if (tag == "alt_id") {
      s.alt_ids.push_back(first_token(v));
    } else if (tag == "subset") {
      s.subsets.push_back(first_token(v));
    } else if (tag == "xref") {
      s.xrefs.push_back(first_token(v));
    } else if (tag == "replaced_by") {
      s.replaced_by.push_back(first_token(v));
    } else if (tag == "consider") {
      s.consider.push_back(first_token(v));
    } else {
      s.other.emplace_back(std::string(tag), v);
    }
  }

  LineReader &r_;
};

}  // namespace

std::string obo_plain_value(std::string_view v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const char c = v[i];
    if (c == '\\' && i + 1 < v.size()) {
      out += unescape(v[++i]);
      continue;
    }
    if (c == '!') break;  // a comment
    if (c == '{' && (out.empty() || blank(out.back()))) {
      // Trailing modifiers: only when nothing but blanks or a comment follows the closing brace.
      const std::size_t close = v.find('}', i);
      if (close != std::string_view::npos) {
        const std::string_view after = trim_blanks(v.substr(close + 1));
        if (after.empty() || after.front() == '!') break;
      }
    }
    out += c;
  }
  return std::string(trim_blanks(out));
}

bool looks_like_obo(std::string_view line) {
  line = trim_blanks(line);
  return line.rfind("format-version:", 0) == 0 || line == "[Term]" || line == "[Typedef]" ||
         line.rfind("data-version:", 0) == 0 || line.rfind("ontology:", 0) == 0;
}

OboDocument parse_obo(LineReader &reader) { return Parser(reader).run(); }

}  // namespace grappi::detail
