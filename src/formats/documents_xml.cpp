// BioC XML and the PPI corpora's XML (grappi/documents.hpp), read with libxml2: no network, no
// external DTD, no entities declared by the file (a text that expands one entity many times is
// gigabytes from kilobytes); a malformed file is an error naming the file and line.
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <memory>

#include "formats/documents_impl.hpp"
#include "grappi/error.hpp"
#include "common/text_util.hpp"

namespace grappi::detail {

namespace {

struct DocFree {
  void operator()(xmlDoc *d) const { xmlFreeDoc(d); }
};
struct CtxtFree {
  void operator()(xmlParserCtxt *c) const { xmlFreeParserCtxt(c); }
};
using XmlDoc = std::unique_ptr<xmlDoc, DocFree>;

XmlDoc parse_xml(std::string_view s, const std::string &name) {
  if (s.size() > static_cast<std::size_t>(INT32_MAX)) throw Error(ErrorCode::parse, name + ": XML file too large");
  std::unique_ptr<xmlParserCtxt, CtxtFree> ctxt(xmlNewParserCtxt());
  if (!ctxt) throw Error(ErrorCode::internal, name + ": cannot create an XML parser");
  XmlDoc doc(xmlCtxtReadMemory(ctxt.get(), s.data(), static_cast<int>(s.size()), name.c_str(), nullptr,
                               XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA));
  if (!doc) {
    const xmlError *e = xmlCtxtGetLastError(ctxt.get());
    std::string msg = e && e->message ? trim_copy(e->message) : "malformed XML";
    throw Error(ErrorCode::parse, name + ":" + std::to_string(e ? e->line : 0) + ": not well-formed XML (" + msg + ")");
  }
  // Entities the document declares itself are refused, used or not: reading the text expands
  // each reference, so one large entity referenced a few hundred times is a denial of service.
  // XML's five predefined entities and character references are not declarations.
  if (const xmlDtd *dtd = xmlGetIntSubset(doc.get())) {
    for (const xmlNode *c = dtd->children; c; c = c->next)
      if (c->type == XML_ENTITY_DECL)
        throw Error(ErrorCode::parse, name + ": the document declares the entity '" +
                                          std::string(c->name ? reinterpret_cast<const char *>(c->name) : "") +
                                          "'; grappi does not expand entities a file declares (write the text itself)");
  }
  return doc;
}

bool is(const xmlNode *n, const char *name) {
  return n && n->type == XML_ELEMENT_NODE && std::strcmp(reinterpret_cast<const char *>(n->name), name) == 0;
}

std::string content(const xmlNode *n) {
  xmlChar *c = xmlNodeGetContent(n);
  std::string s = c ? reinterpret_cast<const char *>(c) : "";
  xmlFree(c);
  return s;
}

std::string attribute(const xmlNode *n, const char *name) {
  xmlChar *v = xmlGetProp(n, reinterpret_cast<const xmlChar *>(name));
  std::string s = v ? reinterpret_cast<const char *>(v) : "";
  xmlFree(v);
  return s;
}

// <infon key="k">v</infon> children of an element, by key.
std::string infon(const xmlNode *n, const char *key) {
  for (const xmlNode *c = n->children; c; c = c->next)
    if (is(c, "infon") && attribute(c, "key") == key) return content(c);
  return {};
}

std::size_t number(const std::string &s, const std::string &where, const char *what) {
  if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos)
    throw Error(ErrorCode::parse, where + ": " + what + " is not a number: '" + s.substr(0, 40) + "'");
  return std::stoul(s);
}

}  // namespace

bool xml_root_is(std::string_view head, std::string_view name) {
  std::size_t i = 0;
  while (i < head.size()) {
    i = head.find('<', i);
    if (i == std::string_view::npos || i + 1 >= head.size()) return false;
    const char c = head[i + 1];
    if (c == '?' || c == '!') {  // declaration, comment, doctype
      i += 2;
      continue;
    }
    return head.substr(i + 1, name.size()) == name &&
           (i + 1 + name.size() >= head.size() || !std::isalnum(static_cast<unsigned char>(head[i + 1 + name.size()])));
  }
  return false;
}

std::vector<Document> parse_bioc_xml(std::string_view s, const std::string &name) {
  const XmlDoc doc = parse_xml(s, name);
  const xmlNode *root = xmlDocGetRootElement(doc.get());
  if (!is(root, "collection"))
    throw Error(ErrorCode::parse, name + ": a BioC XML file has a <collection> root, found <" +
                                      (root ? reinterpret_cast<const char *>(root->name) : "nothing") + ">");
  std::vector<Document> out;
  for (const xmlNode *dn = root->children; dn; dn = dn->next) {
    if (!is(dn, "document")) continue;
    Document d;
    BiocInfons meta;
    meta.take(infon(dn, "article-id_pmid"), infon(dn, "article-id_pmc"), infon(dn, "year"), infon(dn, "article-id_doi"));
    for (const xmlNode *c = dn->children; c; c = c->next) {
      if (is(c, "id")) d.id = trim_copy(content(c));
      if (!is(c, "passage")) continue;
      const std::string pwhere = name + ":" + std::to_string(xmlGetLineNo(c));
      DocumentPassage p;
      p.type = infon(c, "section_type");
      if (p.type.empty()) p.type = infon(c, "type");
      meta.take(infon(c, "article-id_pmid"), infon(c, "article-id_pmc"), infon(c, "year"), infon(c, "article-id_doi"));
      for (const xmlNode *e = c->children; e; e = e->next) {
        if (is(e, "offset")) p.offset = number(trim_copy(content(e)), pwhere, "a passage <offset>");
        if (is(e, "text")) p.text = content(e);
      }
      for (const xmlNode *e = c->children; e; e = e->next) {
        if (!is(e, "annotation")) continue;
        DocumentAnnotation a;
        a.type = infon(e, "type");
        a.id = infon(e, "identifier");
        if (a.id.empty()) a.id = infon(e, "Identifier");
        const xmlNode *loc = nullptr;
        for (const xmlNode *x = e->children; x; x = x->next) {
          if (is(x, "text")) a.text = content(x);
          if (is(x, "location") && !loc) loc = x;
        }
        const std::string awhere = name + ":" + std::to_string(xmlGetLineNo(e));
        if (!loc) throw Error(ErrorCode::parse, awhere + ": an annotation without a <location>");
        const std::size_t off = number(attribute(loc, "offset"), awhere, "a location's offset");
        const std::size_t len = number(attribute(loc, "length"), awhere, "a location's length");
        if (!place_annotation(p, off, len, a))
          throw Error(ErrorCode::parse, awhere + ": the annotation '" + a.text.substr(0, 40) + "' lies outside its passage");
        p.annotations.push_back(std::move(a));
      }
      d.passages.push_back(std::move(p));
    }
    d.pmid = meta.pmid.empty() && meta.pmcid.empty() && !d.id.empty() && d.id.find_first_not_of("0123456789") == std::string::npos
                 ? d.id
                 : meta.pmid;
    d.pmcid = meta.pmcid;
    d.doi = meta.doi;
    d.year = meta.year;
    sort_annotations(d);
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<Document> parse_ppi_xml(std::string_view s, const std::string &name) {
  const XmlDoc doc = parse_xml(s, name);
  const xmlNode *root = xmlDocGetRootElement(doc.get());
  if (!is(root, "corpus"))
    throw Error(ErrorCode::parse, name + ": a PPI corpus file has a <corpus> root, found <" +
                                      (root ? reinterpret_cast<const char *>(root->name) : "nothing") + ">");
  std::vector<Document> out;
  for (const xmlNode *dn = root->children; dn; dn = dn->next) {
    if (!is(dn, "document")) continue;
    Document d;
    d.id = attribute(dn, "id");
    const std::string orig = attribute(dn, "origId");
    if (!orig.empty() && orig.find_first_not_of("0123456789") == std::string::npos) d.pmid = orig;
    std::size_t offset = 0;
    for (const xmlNode *sn = dn->children; sn; sn = sn->next) {
      if (!is(sn, "sentence")) continue;
      const std::string where = name + ":" + std::to_string(xmlGetLineNo(sn));
      DocumentPassage p;
      p.type = "sentence";
      p.offset = offset;
      p.text = attribute(sn, "text");
      offset += p.text.size() + 1;
      std::vector<std::string> ids;
      for (const xmlNode *e = sn->children; e; e = e->next) {
        if (!is(e, "entity")) continue;
        DocumentAnnotation a;
        a.text = attribute(e, "text");
        a.type = attribute(e, "type");
        a.id = attribute(e, "id");
        // charOffset "a-b" (or "a-b,c-d" for a discontinuous mention: its first span); the end
        // is exclusive in these files, inclusive in the original release: the text decides.
        const std::string co = attribute(e, "charOffset");
        const std::string first = co.substr(0, co.find(','));
        const auto dash = first.find('-');
        if (dash == std::string::npos) throw Error(ErrorCode::parse, where + ": an entity's charOffset is not 'start-end': '" + co + "'");
        const std::size_t b = number(first.substr(0, dash), where, "an entity's start"),
                          e2 = number(first.substr(dash + 1), where, "an entity's end");
        if (e2 < b) throw Error(ErrorCode::parse, where + ": an entity ends before it starts: '" + co + "'");
        DocumentAnnotation exclusive = a, inclusive = a;
        const bool ok = place_annotation(p, p.offset + b, e2 - b, exclusive) &&
                        (co.find(',') != std::string::npos || a.text.empty() || p.text.compare(exclusive.offset, exclusive.length, a.text) == 0);
        if (ok) {
          a = std::move(exclusive);
        } else if (place_annotation(p, p.offset + b, e2 - b + 1, inclusive)) {
          a = std::move(inclusive);
        } else {
          throw Error(ErrorCode::parse, where + ": the entity '" + a.text.substr(0, 40) + "' (" + co + ") lies outside its sentence");
        }
        ids.push_back(a.id);
        p.annotations.push_back(std::move(a));
      }
      const std::size_t passage = d.passages.size();
      for (const xmlNode *e = sn->children; e; e = e->next) {
        if (!is(e, "interaction") && !is(e, "pair")) continue;
        if (is(e, "pair") && attribute(e, "interaction") != "True") continue;  // (the pair format marks negatives too)
        const std::string e1 = attribute(e, "e1"), e2 = attribute(e, "e2");
        const auto at = [&ids](const std::string &id) { return std::find(ids.begin(), ids.end(), id); };
        if (at(e1) == ids.end() || at(e2) == ids.end())
          throw Error(ErrorCode::parse, where + ": an interaction names an entity the sentence does not have ('" + e1 + "', '" + e2 + "')");
        d.pairs.push_back({passage, static_cast<std::size_t>(at(e1) - ids.begin()), static_cast<std::size_t>(at(e2) - ids.begin())});
      }
      d.passages.push_back(std::move(p));
    }
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace grappi::detail
