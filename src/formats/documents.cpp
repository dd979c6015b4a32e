// Papers as documents (grappi/documents.hpp): format detection, plain text and Markdown,
// PubTator and BioC JSON; the XML formats are in documents_xml.cpp.
#include "grappi/documents.hpp"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <regex>

#include <nlohmann/json.hpp>

#include "formats/documents_impl.hpp"
#include "grappi/error.hpp"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"
#include "common/json_input.hpp"

namespace grappi {

namespace detail {

std::size_t line_of(std::string_view text, std::size_t byte) {
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(std::min(byte, text.size())), '\n'));
}

CharIndex::CharIndex(std::string_view text) : size_(text.size()) {
  std::size_t i = 0;
  for (; i < text.size() && static_cast<unsigned char>(text[i]) < 0x80; ++i) {
  }
  if (i == text.size()) {
    chars_ = text.size();
    return;
  }
  ascii_ = false;
  starts_.reserve(text.size() + 1);
  for (std::size_t k = 0; k <= i; ++k) starts_.push_back(k);
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    i += c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    starts_.push_back(i);
  }
  chars_ = starts_.size() - 1;
}

std::size_t CharIndex::byte(std::size_t chars) const {
  if (chars > chars_) return std::string::npos;
  if (ascii_) return chars;
  return starts_[chars] <= size_ ? starts_[chars] : std::string::npos;
}

bool place_annotation(const DocumentPassage &p, std::size_t start, std::size_t length, DocumentAnnotation &a) {
  return place_annotation(p, CharIndex(p.text), start, length, a);
}

bool place_annotation(const DocumentPassage &p, const CharIndex &index, std::size_t start, std::size_t length,
                      DocumentAnnotation &a) {
  // Sources count in characters (PubTator, BioC) or bytes; the mention's text decides, and
  // where it does not say (no text given), characters.
  if (start < p.offset) return false;
  const std::size_t rel = start - p.offset;
  const std::size_t b = index.byte(rel), e = b == std::string::npos ? b : index.byte(rel + length);
  const bool chars_fit = b != std::string::npos && e != std::string::npos;
  const bool bytes_fit = rel + length <= p.text.size();
  if (chars_fit && (a.text.empty() || p.text.compare(b, e - b, a.text) == 0)) {
    a.offset = b;
    a.length = e - b;
    return true;
  }
  if (bytes_fit && (a.text.empty() || p.text.compare(rel, length, a.text) == 0)) {
    a.offset = rel;
    a.length = length;
    return true;
  }
  if (chars_fit) {  // the offsets fit but the source's mention text differs: keep the offsets
    a.offset = b;
    a.length = e - b;
    return true;
  }
  return false;
}

void sort_annotations(Document &d) {
  for (auto &p : d.passages)
    std::stable_sort(p.annotations.begin(), p.annotations.end(),
                     [](const DocumentAnnotation &x, const DocumentAnnotation &y) { return x.offset < y.offset; });
}

}  // namespace detail

namespace {

using detail::line_of;
using nlohmann::json;

bool blank_line(std::string_view l) {
  return std::all_of(l.begin(), l.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

// A Markdown heading's level (0: not a heading) and its words.
int heading_level(std::string_view l, std::string &title) {
  std::size_t k = 0;
  while (k < l.size() && l[k] == '#') ++k;
  if (k == 0 || k > 6 || (k < l.size() && l[k] != ' ')) return 0;
  title = detail::trim_copy(l.substr(k));
  return static_cast<int>(k);
}

bool dropped_section(const std::string &title) {
  std::string t = detail::lower_copy(title);
  // "7. References", "References and notes"
  while (!t.empty() && (std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '.' || t[0] == ' ')) t.erase(0, 1);
  for (const char *p : {"reference", "bibliograph", "acknowledg", "funding", "conflict", "competing interest"})
    if (t.rfind(p, 0) == 0) return true;
  return false;
}

// A PubMed id a file name states: the whole name but its extensions ("12345678.txt",
// "12345678.md.gz") or a PMID mark ("BioInfer.d403.PMID11418599.txt", "pmid_11418599.txt");
// never a number that only begins a name ("4932.protein.info.v12.0.txt.gz" is no paper).
std::string pmid_from_name(const std::string &name) {
  const auto slash = name.find_last_of("/\\");
  const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  static const std::regex whole("^([0-9]{1,10})(\\.[A-Za-z]{1,5})*$");
  static const std::regex marked("(^|[^A-Za-z])PMID[-_ :]?([0-9]{1,10})([^0-9]|$)", std::regex::icase);
  std::smatch m;
  if (std::regex_match(base, m, whole)) return m[1].str();
  if (std::regex_search(base, m, marked)) return m[2].str();
  return {};
}

std::vector<Document> parse_text(std::string_view s, const std::string &name) {
  Document d;
  d.id = name;
  d.pmid = pmid_from_name(name);
  std::size_t pos = 0, para_start = std::string::npos, para_end = 0;
  int drop_level = 0;  // inside a dropped section of this level (0: none)
  auto flush = [&] {
    if (para_start == std::string::npos) return;
    DocumentPassage p;
    p.type = "paragraph";
    p.offset = para_start;
    p.text = detail::trim_copy(s.substr(para_start, para_end - para_start));
    if (!p.text.empty()) d.passages.push_back(std::move(p));
    para_start = std::string::npos;
  };
  while (pos < s.size()) {
    std::size_t nl = s.find('\n', pos);
    if (nl == std::string_view::npos) nl = s.size();
    const std::string_view line = s.substr(pos, nl - pos);
    std::string title;
    const int level = heading_level(line, title);
    if (level > 0) {
      flush();
      const bool subsection_of_dropped = drop_level && level > drop_level;
      if (!subsection_of_dropped && dropped_section(title)) {
        drop_level = level;
      } else if (!subsection_of_dropped) {
        drop_level = 0;
        DocumentPassage h;
        h.type = "heading";
        h.offset = pos;
        h.text = title;
        d.passages.push_back(std::move(h));
      }
    } else if (blank_line(line)) {
      flush();
    } else if (!drop_level) {
      if (para_start == std::string::npos) para_start = pos;
      para_end = nl;
    }
    pos = nl + 1;
  }
  flush();
  if (d.passages.empty()) return {};  // (an empty or blank text is no document)
  return {std::move(d)};
}

std::vector<Document> parse_pubtator(std::string_view s, const std::string &name) {
  std::vector<Document> out;
  Document *cur = nullptr;
  std::vector<detail::CharIndex> indices;  // of the current document's passages
  std::size_t pos = 0, line_no = 0;
  while (pos < s.size()) {
    std::size_t nl = s.find('\n', pos);
    if (nl == std::string_view::npos) nl = s.size();
    std::string_view line = s.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string where = name + ":" + std::to_string(line_no);
    if (blank_line(line)) {
      cur = nullptr;
      continue;
    }
    const std::size_t bar = line.find('|');
    const std::size_t tab = line.find('\t');
    if (bar != std::string_view::npos && (tab == std::string_view::npos || bar < tab) && bar + 2 < line.size() &&
        line[bar + 2] == '|') {
      const std::string pmid(line.substr(0, bar));
      const char kind = line[bar + 1];
      if (pmid.empty() || pmid.find_first_not_of("0123456789") != std::string::npos)
        throw Error(ErrorCode::parse, where + ": a PubTator text line starts with a PubMed id, found '" + pmid.substr(0, 40) + "'");
      if (!cur || cur->id != pmid) {
        out.emplace_back();
        cur = &out.back();
        cur->id = cur->pmid = pmid;
        indices.clear();
      }
      DocumentPassage p;
      p.type = kind == 't' ? "title" : kind == 'a' ? "abstract" : std::string(1, kind);
      // Passage offsets count characters: each earlier passage and one separator.
      p.offset = cur->passages.empty() ? 0 : cur->passages.back().offset + indices.back().chars() + 1;
      p.text = std::string(line.substr(bar + 3));
      indices.emplace_back(p.text);
      cur->passages.push_back(std::move(p));
      continue;
    }
    const auto f = detail::split_view(line, '\t');
    if (f.size() < 4) throw Error(ErrorCode::parse, where + ": expected 'PMID|t|title', 'PMID|a|abstract' or a tab-separated annotation line, found '" +
                                                         std::string(line.substr(0, 60)) + "'");
    if (!cur || f[0] != cur->pmid)
      throw Error(ErrorCode::parse, where + ": an annotation of PubMed id " + std::string(f[0]) + " outside that document's lines");
    const bool numbers = !f[1].empty() && !f[2].empty() && f[1].find_first_not_of("0123456789") == std::string_view::npos &&
                         f[2].find_first_not_of("0123456789") == std::string_view::npos;
    if (!numbers) continue;  // a relation line (PMID, type, id, id[, novelty]): not a mention
    if (f.size() < 5)
      throw Error(ErrorCode::parse, where + ": a mention line has PMID, start, end, text and type (tab-separated), found " +
                                        std::to_string(f.size()) + " fields");
    std::size_t start = 0, end = 0;
    for (const auto &[text, value] : {std::pair{f[1], &start}, std::pair{f[2], &end}}) {
      const auto r = std::from_chars(text.data(), text.data() + text.size(), *value);
      if (r.ec != std::errc() || r.ptr != text.data() + text.size())
        throw Error(ErrorCode::parse, where + ": the annotation offset " + std::string(text.substr(0, 30)) + " is too large");
    }
    if (end < start) throw Error(ErrorCode::parse, where + ": the annotation ends (" + std::string(f[2]) + ") before it starts");
    DocumentAnnotation a;
    a.text = std::string(f[3]);
    a.type = std::string(f[4]);
    if (f.size() > 5) a.id = std::string(f[5]);
    bool placed = false;
    for (std::size_t k = 0; k < cur->passages.size() && !placed; ++k) {
      DocumentPassage &p = cur->passages[k];
      if (start >= p.offset && end <= p.offset + indices[k].chars() && detail::place_annotation(p, indices[k], start, end - start, a)) {
        p.annotations.push_back(std::move(a));
        placed = true;
      }
    }
    if (!placed)
      throw Error(ErrorCode::parse, where + ": the annotation " + std::string(f[1]) + "-" + std::string(f[2]) +
                                        " lies outside the document's title and abstract");
  }
  for (auto &d : out) detail::sort_annotations(d);
  if (out.empty()) throw Error(ErrorCode::parse, name + ": no PubTator documents");
  return out;
}

std::string infon(const json &j, const char *key) {
  if (!j.is_object() || !j.contains("infons") || !j["infons"].is_object()) return {};
  const json &i = j["infons"];
  if (!i.contains(key)) return {};
  if (i[key].is_string()) return i[key].get<std::string>();
  if (i[key].is_number()) return dump_json(i[key]);
  return {};
}

std::vector<Document> parse_bioc_json(std::string_view s, const std::string &name) {
  json j;
  detail::check_json_depth(s, name);
  try {
    j = json::parse(s);
  } catch (const json::parse_error &e) {
    throw Error(ErrorCode::parse, name + ":" + std::to_string(line_of(s, e.byte ? e.byte - 1 : 0)) +
                                      ": not valid JSON (" + std::string(e.what()) + ")");
  } catch (const json::exception &e) {  // a number out of range (406) is not a parse_error
    throw Error(ErrorCode::parse, name + ": not valid JSON (" + std::string(e.what()) + ")");
  }
  // A collection, or a list of collections (as PubTator's API returns them).
  std::vector<const json *> docs;
  const auto collect = [&docs, &name](const json &c) {
    if (!c.is_object() || !c.contains("documents") || !c["documents"].is_array())
      throw Error(ErrorCode::parse, name + ": a BioC JSON collection is an object with a \"documents\" array");
    for (const auto &d : c["documents"]) docs.push_back(&d);
  };
  if (j.is_array()) {
    for (const auto &c : j) collect(c);
  } else {
    collect(j);
  }
  std::vector<Document> out;
  for (std::size_t k = 0; k < docs.size(); ++k) {
    const json &dj = *docs[k];
    const std::string where = name + ": document " + std::to_string(k + 1);
    if (!dj.is_object() || !dj.contains("passages") || !dj["passages"].is_array())
      throw Error(ErrorCode::parse, where + ": no \"passages\" array");
    Document d;
    if (dj.contains("id") && (dj["id"].is_string() || dj["id"].is_number()))
      d.id = dj["id"].is_string() ? dj["id"].get<std::string>() : dump_json(dj["id"]);
    detail::BiocInfons meta;
    meta.take(infon(dj, "article-id_pmid"), infon(dj, "article-id_pmc"), infon(dj, "year"), infon(dj, "article-id_doi"));
    for (std::size_t q = 0; q < dj["passages"].size(); ++q) {
      const json &pj = dj["passages"][q];
      const std::string pwhere = where + ", passage " + std::to_string(q + 1);
      if (!pj.is_object()) throw Error(ErrorCode::parse, pwhere + ": not an object");
      DocumentPassage p;
      p.type = infon(pj, "section_type");
      if (p.type.empty()) p.type = infon(pj, "type");
      if (pj.contains("offset") && pj["offset"].is_number_unsigned()) p.offset = pj["offset"].get<std::size_t>();
      if (pj.contains("text") && pj["text"].is_string()) p.text = pj["text"].get<std::string>();
      meta.take(infon(pj, "article-id_pmid"), infon(pj, "article-id_pmc"), infon(pj, "year"), infon(pj, "article-id_doi"));
      const detail::CharIndex index(p.text);
      if (pj.contains("annotations") && pj["annotations"].is_array())
        for (const auto &aj : pj["annotations"]) {
          DocumentAnnotation a;
          a.type = infon(aj, "type");
          a.id = infon(aj, "identifier");
          if (a.id.empty()) a.id = infon(aj, "Identifier");
          if (aj.contains("text") && aj["text"].is_string()) a.text = aj["text"].get<std::string>();
          const json *loc = aj.contains("locations") && aj["locations"].is_array() && !aj["locations"].empty()
                                ? &aj["locations"][0]
                                : nullptr;
          if (!loc || !loc->is_object() || !(*loc).contains("offset") || !(*loc)["offset"].is_number_unsigned() ||
              !(*loc).contains("length") || !(*loc)["length"].is_number_unsigned())
            throw Error(ErrorCode::parse, pwhere + ": an annotation without a location (offset and length)");
          if (!detail::place_annotation(p, index, (*loc)["offset"].get<std::size_t>(), (*loc)["length"].get<std::size_t>(), a))
            throw Error(ErrorCode::parse, pwhere + ": the annotation '" + a.text.substr(0, 40) + "' lies outside its passage");
          p.annotations.push_back(std::move(a));
        }
      d.passages.push_back(std::move(p));
    }
    d.pmid = meta.pmid.empty() && !d.id.empty() && d.id.find_first_not_of("0123456789") == std::string::npos && meta.pmcid.empty()
                 ? d.id
                 : meta.pmid;
    d.pmcid = meta.pmcid;
    d.doi = meta.doi;
    d.year = meta.year;
    detail::sort_annotations(d);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace

namespace detail {

void BiocInfons::take(const std::string &p, const std::string &c, const std::string &y, const std::string &d) {
  if (pmid.empty()) pmid = p;
  if (pmcid.empty()) pmcid = c;
  if (year.empty()) year = y;
  if (doi.empty()) doi = d;
}

}  // namespace detail

std::string Document::text() const {
  std::string out;
  for (const auto &p : passages) {
    if (p.text.empty()) continue;
    if (!out.empty()) out += "\n\n";
    out += p.text;
  }
  return out;
}

std::vector<std::string> concept_ids(std::string_view id, std::string_view type) {
  // tmVar's variant ids use '|' inside one id ("p|SUB|V|173|L"): only ';' and ',' part them.
  const std::string t = detail::lower_copy(type);
  const bool variant = t.find("variant") != std::string::npos || t.find("mutation") != std::string::npos;
  // PubTator 3 writes a variant's normalisation as key:value parts after its tmVar id
  // ("tmVar:p|SUB|V|600|E;HGVS:p.V600E;VariantGroup:0;CorrespondingGene:673"): one concept, the first part.
  if (variant && (id.find(";HGVS:") != std::string_view::npos || id.find(";VariantGroup:") != std::string_view::npos ||
                  id.find(";CorrespondingGene:") != std::string_view::npos))
    id = id.substr(0, id.find(';'));
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= id.size(); ++i) {
    if (i < id.size() && !((id[i] == '|' && !variant) || id[i] == ';' || id[i] == ',')) continue;
    std::string one = detail::trim_copy(id.substr(start, i - start));
    start = i + 1;
    // GNormPlus qualifies a gene id with its species: "26972(Tax:10090)".
    if (const std::size_t tax = one.find("(Tax:"); tax != std::string::npos && one.back() == ')')
      one = detail::trim_copy(one.substr(0, tax));
    if (one.empty() || one == "-" || one == "-1") continue;
    if (std::find(out.begin(), out.end(), one) == out.end()) out.push_back(one);
  }
  return out;
}

const char *to_string(DocumentFormat f) noexcept {
  switch (f) {
    case DocumentFormat::detect: return "detect";
    case DocumentFormat::text: return "text";
    case DocumentFormat::pubtator: return "pubtator";
    case DocumentFormat::bioc_xml: return "bioc-xml";
    case DocumentFormat::bioc_json: return "bioc-json";
    case DocumentFormat::ppi_xml: return "ppi-xml";
    case DocumentFormat::jsonl: return "jsonl";
  }
  return "?";
}

DocumentFormat document_format(std::string_view name) {
  for (DocumentFormat f : {DocumentFormat::detect, DocumentFormat::text, DocumentFormat::pubtator, DocumentFormat::bioc_xml,
                           DocumentFormat::bioc_json, DocumentFormat::ppi_xml, DocumentFormat::jsonl})
    if (name == to_string(f)) return f;
  throw Error(ErrorCode::invalid_argument, "unknown document format '" + std::string(name) +
                                               "' (known: detect, text, pubtator, bioc-xml, bioc-json, ppi-xml, jsonl)");
}

namespace {

// What a file that is not papers looks like, from its first lines: a STRING, PSI-MITAB or OBO
// file by its header, else a table (every one of five or more lines the same number, three or
// more, of tab-separated fields); empty for anything else.
std::string looks_like_a_table(std::string_view s) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < s.size() && lines.size() < 20;) {
    std::size_t end = s.find('\n', at);
    if (end == std::string_view::npos) end = s.size();
    std::string_view line = s.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") != std::string_view::npos) lines.push_back(line);
    at = end + 1;
  }
  if (lines.empty()) return {};
  const std::string first = detail::lower_copy(detail::trim_copy(lines[0].substr(0, 200)));
  const auto starts = [&](const char *p) { return first.rfind(p, 0) == 0; };
  if (starts("protein1 protein2") || starts("protein1\tprotein2")) return "a STRING links file";
  if (starts("#string_protein_id") || starts("string_protein_id")) return "a STRING info or aliases file";
  if (starts("#id(s) interactor a") || starts("id(s) interactor a") || starts("#id interactor a") ||
      starts("unique id interactor a"))
    return "a PSI-MITAB file";
  if (starts("format-version:")) return "an OBO ontology";
  if (lines.size() < 5) return {};
  const auto fields = [](std::string_view l) { return static_cast<std::size_t>(std::count(l.begin(), l.end(), '\t')) + 1; };
  const std::size_t n = fields(lines[0]);
  if (n < 3) return {};
  for (std::string_view l : lines)
    if (fields(l) != n) return {};
  return "a table of " + std::to_string(n) + " tab-separated columns";
}

}  // namespace

std::vector<Document> parse_documents(std::string_view s, DocumentFormat format, const std::string &name) {
  if (format == DocumentFormat::detect) {
    std::size_t i = 0;
    if (s.substr(0, 3) == "\xef\xbb\xbf") i = 3;  // a byte-order mark
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    const std::string_view head = s.substr(i, 4096);
    static const std::regex pubtator("^[0-9]+\\|[a-z]\\|");
    if (!head.empty() && head[0] == '<') {
      format = detail::xml_root_is(head, "corpus") ? DocumentFormat::ppi_xml : DocumentFormat::bioc_xml;
    } else if (!head.empty() && head[0] == '{') {
      // JSON lines when the first line alone is an object that is not a BioC collection.
      const std::string_view rest = s.substr(i);
      const json first = detail::parse_json_or_discarded(rest.substr(0, rest.find('\n')));
      format = first.is_object() && !first.contains("documents") ? DocumentFormat::jsonl : DocumentFormat::bioc_json;
    } else if (!head.empty() && head[0] == '[') {
      format = DocumentFormat::bioc_json;
    } else if (std::regex_search(std::string(head.substr(0, head.find('\n'))), pubtator)) {
      format = DocumentFormat::pubtator;
    } else if (const std::string what = looks_like_a_table(s.substr(i, 1 << 16)); !what.empty()) {
      // (read as text, a table's names would become co-occurring concepts and statements)
      throw Error(ErrorCode::invalid_argument,
                  name + ": this looks like " + what + ", not papers (first line '" +
                      std::string(head.substr(0, std::min<std::size_t>(head.find('\n'), 80))) +
                      "'); import it with grappi import, or give the format text to read it as text");
    } else {
      format = DocumentFormat::text;
    }
  }
  switch (format) {
    case DocumentFormat::text: return parse_text(s, name);
    case DocumentFormat::pubtator: return parse_pubtator(s, name);
    case DocumentFormat::bioc_json: return parse_bioc_json(s, name);
    case DocumentFormat::bioc_xml: return detail::parse_bioc_xml(s, name);
    case DocumentFormat::ppi_xml: return detail::parse_ppi_xml(s, name);
    case DocumentFormat::jsonl: return detail::parse_jsonl_documents(s, name);
    case DocumentFormat::detect: break;
  }
  return {};
}

std::vector<Document> read_documents(const std::string &path, DocumentFormat format) {
  const detail::WholeFile file = detail::read_whole_file(path);
  return parse_documents(file.text, format, path);
}

namespace {

// An error of a part of a file parsed alone ("path:3: ..."), numbered as the whole file's line
// (3 + the lines before the part).
Error shifted(const Error &e, const std::string &name, uint64_t before) {
  const std::string what = e.what(), prefix = name + ":";
  if (what.compare(0, prefix.size(), prefix) != 0) return e;
  std::size_t end = prefix.size();
  while (end < what.size() && std::isdigit(static_cast<unsigned char>(what[end]))) ++end;
  if (end == prefix.size()) return e;
  const uint64_t line = std::stoull(what.substr(prefix.size(), end - prefix.size())) + before;
  return Error(e.code(), prefix + std::to_string(line) + what.substr(end));
}

}  // namespace

std::size_t for_each_document(const std::string &path, DocumentFormat format, const std::function<void(Document &&)> &fn,
                              std::string *sha256) {
  if (format == DocumentFormat::detect) {
    // (the first line that is not blank decides between the formats read a document at a time)
    detail::LineReader peek(path);
    std::string_view line;
    while (peek.next(line) && line.find_first_not_of(" \t\r\xef\xbb\xbf") == std::string_view::npos) {
    }
    static const std::regex pubtator("^(\xef\xbb\xbf)?[0-9]+\\|[a-z]\\|");
    const std::string first(line.substr(0, 4096));
    if (std::regex_search(first, pubtator)) {
      format = DocumentFormat::pubtator;
    } else if (!first.empty()) {
      const std::size_t b = first.find('{');
      const json o = b == std::string::npos ? json() : detail::parse_json_or_discarded(std::string_view(line).substr(b));
      if (first.find_first_not_of(" \t\xef\xbb\xbf") == b && o.is_object() && !o.contains("documents"))
        format = DocumentFormat::jsonl;
    }
  }
  std::size_t n = 0;
  if (format != DocumentFormat::pubtator && format != DocumentFormat::jsonl) {
    const detail::WholeFile file = detail::read_whole_file(path);
    if (sha256) *sha256 = file.sha256;
    for (Document &d : parse_documents(file.text, format, path)) fn(std::move(d)), ++n;
    return n;
  }
  detail::LineReader reader(path);
  std::string block, pmid;
  uint64_t block_start = 0;  // lines before the block
  const auto flush = [&] {
    if (block.find_first_not_of(" \t\r\n") == std::string::npos) {
      block.clear();
      return;
    }
    std::vector<Document> docs;
    try {
      docs = parse_documents(block, format, path);
    } catch (const Error &e) {
      throw shifted(e, path, block_start);
    }
    for (Document &d : docs) fn(std::move(d)), ++n;
    block.clear();
  };
  std::string_view line;
  while (reader.next(line)) {
    if (format == DocumentFormat::jsonl) {
      block_start = reader.line_number() - 1;
      block.assign(line);
      flush();
      continue;
    }
    // PubTator: a document's lines, until a blank line or another PubMed id.
    const std::size_t cut = line.find_first_of("|\t");
    const std::string id(cut == std::string_view::npos ? std::string_view() : line.substr(0, cut));
    const bool blank = line.find_first_not_of(" \t\r") == std::string_view::npos;
    if (blank || (!block.empty() && id != pmid)) {
      flush();
      block_start = reader.line_number() - (blank ? 0 : 1);
      if (blank) continue;
    }
    if (block.empty()) block_start = reader.line_number() - 1;
    pmid = id;
    block.append(line).push_back('\n');
  }
  flush();
  if (sha256) *sha256 = reader.sha256_hex();
  if (n == 0 && format == DocumentFormat::pubtator) throw Error(ErrorCode::parse, path + ": no PubTator documents");
  return n;
}

}  // namespace grappi
