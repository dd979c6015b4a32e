// Documents as JSON lines (grappi/documents.hpp, DocumentFormat::jsonl): one object per line,
// {"pmid", "year", "title", "text", "concepts"}, the form a script writes a corpus in.
#include <cctype>

#include <nlohmann/json.hpp>

#include "formats/documents_impl.hpp"
#include "grappi/error.hpp"
#include "common/json_lines.hpp"
#include "grappi/json_text.hpp"

namespace grappi::detail {

namespace {

using nlohmann::json;

// A string or an integer field as text; empty when absent or null; Error otherwise.
std::string id_field(const json &o, const char *key, const std::string &where) {
  if (!o.contains(key) || o[key].is_null()) return {};
  const json &v = o[key];
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return dump_json(v);
  throw Error(ErrorCode::parse, where + ": \"" + key + "\" must be a string or an integer");
}

std::string text_field(const json &o, const char *key, const std::string &where) {
  if (!o.contains(key) || o[key].is_null()) return {};
  if (!o[key].is_string()) throw Error(ErrorCode::parse, where + ": \"" + key + "\" must be a string");
  return o[key].get<std::string>();
}

bool word_byte(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// Every place `needle` is written in `text` as a whole word, ignoring ASCII case.
std::vector<std::size_t> occurrences(const std::string &text, const std::string &needle) {
  std::vector<std::size_t> out;
  if (needle.empty() || needle.size() > text.size()) return out;
  for (std::size_t i = 0; i + needle.size() <= text.size(); ++i) {
    std::size_t k = 0;
    while (k < needle.size() && std::tolower(static_cast<unsigned char>(text[i + k])) ==
                                    std::tolower(static_cast<unsigned char>(needle[k])))
      ++k;
    if (k != needle.size()) continue;
    const bool left = i == 0 || !word_byte(static_cast<unsigned char>(text[i - 1])) ||
                      !word_byte(static_cast<unsigned char>(needle.front()));
    const bool right = i + k == text.size() || !word_byte(static_cast<unsigned char>(text[i + k])) ||
                       !word_byte(static_cast<unsigned char>(needle.back()));
    if (left && right) out.push_back(i);
  }
  return out;
}

// Adds one concept of a document: placed by its offsets, else at every place its text is
// written, else (nowhere written, or no text) as a mention of the document without a place
// (offset 0, length 0 in the first passage).
void add_concept(Document &d, const std::vector<CharIndex> &indices, const json &c, const std::string &where) {
  DocumentAnnotation a;
  if (c.is_string()) {
    a.id = c.get<std::string>();
  } else if (c.is_object()) {
    a.id = id_field(c, "id", where);
    a.type = text_field(c, "type", where);
    a.text = text_field(c, "text", where);
    if (a.text.empty()) a.text = text_field(c, "name", where);
    const bool has_offset = c.contains("offset") && !c["offset"].is_null();
    const bool has_length = c.contains("length") && !c["length"].is_null();
    if (has_offset || has_length) {
      if (!has_offset || !has_length || !c["offset"].is_number_unsigned() || !c["length"].is_number_unsigned())
        throw Error(ErrorCode::parse, where + ": a concept's \"offset\" and \"length\" are both non-negative integers");
      const std::size_t start = c["offset"].get<std::size_t>(), length = c["length"].get<std::size_t>();
      for (std::size_t k = 0; k < d.passages.size(); ++k) {
        DocumentPassage &p = d.passages[k];
        if (start >= p.offset && start + length <= p.offset + indices[k].chars() &&
            place_annotation(p, indices[k], start, length, a)) {
          if (a.text.empty()) a.text = p.text.substr(a.offset, a.length);
          p.annotations.push_back(std::move(a));
          return;
        }
      }
      throw Error(ErrorCode::parse, where + ": the concept at " + std::to_string(start) + "+" + std::to_string(length) +
                                        " lies outside the document's title and text");
    }
  } else {
    throw Error(ErrorCode::parse, where + ": a concept is an id (a string) or an object {id, type, text, offset, length}");
  }
  bool placed = false;
  for (DocumentPassage &p : d.passages)
    for (std::size_t at : occurrences(p.text, a.text)) {
      DocumentAnnotation m = a;
      m.offset = at;
      m.length = a.text.size();
      m.text = p.text.substr(at, a.text.size());
      p.annotations.push_back(std::move(m));
      placed = true;
    }
  if (!placed) {
    if (a.text.empty()) a.text = a.id;
    d.passages.front().annotations.push_back(std::move(a));
  }
}

}  // namespace

std::vector<Document> parse_jsonl_documents(std::string_view s, const std::string &name) {
  std::vector<Document> out;
  for_each_json_line(s, name, "a JSON object {pmid, year, title, text, concepts}", [&](const json &o, const std::string &where) {
    Document d;
    d.pmid = id_field(o, "pmid", where);
    d.id = id_field(o, "id", where);
    if (d.id.empty()) d.id = d.pmid;
    if (d.id.empty()) d.id = where;  // (the file and line)
    d.pmcid = id_field(o, "pmcid", where);
    d.doi = id_field(o, "doi", where);
    d.year = id_field(o, "year", where);
    if (!d.year.empty() && d.year.find_first_not_of("0123456789") != std::string::npos)
      throw Error(ErrorCode::parse, where + ": \"year\" must be a year (digits), found '" + d.year.substr(0, 20) + "'");
    const std::string title = text_field(o, "title", where), text = text_field(o, "text", where);
    if (title.empty() && text.empty()) throw Error(ErrorCode::parse, where + ": a document needs a \"title\" or a \"text\"");
    // Offsets count characters from the start of the title, the text starting one character
    // after the title's end (PubTator's numbering).
    std::size_t chars = 0;
    for (const auto &[type, body] : {std::pair<const char *, const std::string *>{"title", &title}, {"abstract", &text}}) {
      if (body->empty()) continue;
      DocumentPassage p;
      p.type = type;
      p.offset = chars;
      p.text = *body;
      chars += CharIndex(p.text).chars() + 1;
      d.passages.push_back(std::move(p));
    }
    if (o.contains("concepts") && !o["concepts"].is_null()) {
      if (!o["concepts"].is_array()) throw Error(ErrorCode::parse, where + ": \"concepts\" must be an array");
      std::vector<CharIndex> indices;
      for (const DocumentPassage &p : d.passages) indices.emplace_back(p.text);
      for (std::size_t k = 0; k < o["concepts"].size(); ++k)
        add_concept(d, indices, o["concepts"][k], where + ": concept " + std::to_string(k + 1));
    }
    sort_annotations(d);
    out.push_back(std::move(d));
  });
  if (out.empty()) throw Error(ErrorCode::parse, name + ": no documents (JSON lines)");
  return out;
}

}  // namespace grappi::detail
