// Literature co-occurrence graphs (grappi/cooccurrence.hpp): units (documents or sentences) ×
// concepts as a boolean sparse matrix D, the concept-concept counts as DᵀD (Eigen), each
// edge's documents as the intersection of its two concepts' columns, NPMI and Jaccard from the
// counts; stored through grappi's JSON lines as one dataset.
#include "grappi/cooccurrence.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>
#include <unordered_map>

#include <Eigen/SparseCore>

#include "grappi/error.hpp"
#include "grounding_text.hpp"
#include "text_util.hpp"
#include "grappi/json_text.hpp"

namespace grappi {

namespace {

using nlohmann::json;

// The external id of an annotation's concept that joins no node: its id when it has a prefix,
// else a prefix by type.
// MeSH descriptors and supplementary concepts ("D008133", "C012345"), as PubTator writes them
// without their prefix.
bool mesh_like(std::string_view id) {
  return id.size() >= 7 && (id[0] == 'D' || id[0] == 'C') &&
         id.find_first_not_of("0123456789", 1) == std::string_view::npos;
}

std::string concept_id(const std::string &type, std::string_view id) {
  if (id.find(':') != std::string_view::npos) return std::string(id);
  const std::string l = detail::lower_copy(type);
  if (detail::gene_type(type)) return "NCBIGene:" + std::string(id);
  if (l == "species" || l == "organismtaxon" || l == "organism") return "NCBITaxon:" + std::string(id);
  if (mesh_like(id)) return "MESH:" + std::string(id);
  if (id.size() > 2 && (id[0] == 'r' || id[0] == 'R') && (id[1] == 's' || id[1] == 'S')) return "dbSNP:" + std::string(id);
  return (type.empty() ? std::string("Concept") : type) + ":" + std::string(id);
}

double npmi(std::size_t ab, std::size_t a, std::size_t b, std::size_t n) {
  if (ab == 0 || n == 0) return -1;
  const double pab = double(ab) / double(n), pa = double(a) / double(n), pb = double(b) / double(n);
  if (pab >= 1) return 1;
  return std::log(pab / (pa * pb)) / -std::log(pab);
}

}  // namespace

std::string cooccurrence_relation(const CoocOptions &options) {
  return options.scope == CoocOptions::Scope::sentence ? "cooc.sentence" : "cooc.document";
}

CoocGraph build_cooccurrence(const std::vector<Document> &documents, const CoocOptions &options, const EntityTagger *tagger) {
  if (options.titles != "include" && options.titles != "only" && options.titles != "exclude")
    throw Error(ErrorCode::invalid_argument, "co-occurrence: titles must be include, only or exclude, not '" + options.titles + "'");
  CoocGraph g;
  g.options = options;
  std::vector<std::string> types;
  for (const std::string &t : options.types) types.push_back(detail::lower_copy(t));
  const auto type_kept = [&](const std::string &t) {
    return types.empty() || std::find(types.begin(), types.end(), detail::lower_copy(t)) != types.end();
  };
  std::unordered_map<std::string, uint32_t> index_of;
  std::vector<std::unordered_map<std::string, std::size_t>> spellings;  // per concept: mention text -> count
  std::unordered_map<std::string, uint32_t> by_annotation;  // "type\x1fid" -> concept (looked up once)
  const auto concept_of = [&](const std::string &id, const std::string &name, const std::string &type, int64_t node) {
    auto [it, fresh] = index_of.emplace(id, static_cast<uint32_t>(g.concepts.size()));
    if (fresh) {
      CoocConcept c;
      c.id = id;
      c.type = type;
      c.node = node;
      g.concepts.push_back(std::move(c));
      spellings.emplace_back();
    }
    ++spellings[it->second][name];
    return it->second;
  };
  // The units: each a document index and its concepts.
  std::vector<uint32_t> unit_doc;  // the graph document of each unit
  std::vector<std::vector<uint32_t>> unit_concepts;
  // Documents in the order of their PubMed ids (else ids), so that each edge's documents come out
  // of the column intersection already sorted.
  std::vector<std::string> key(documents.size());
  std::vector<int> year(documents.size());
  std::vector<std::size_t> order(documents.size());
  for (std::size_t di = 0; di < documents.size(); ++di) {
    key[di] = documents[di].pmid.empty() ? documents[di].id : documents[di].pmid;
    year[di] = std::max(0, std::atoi(documents[di].year.c_str()));
    order[di] = di;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return key[x] < key[y]; });
  // Documents with one PubMed id are one document of the graph.
  std::vector<uint32_t> graph_doc(documents.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t di = order[i];
    if (i == 0 || key[di] != key[order[i - 1]]) {
      g.pmids.push_back(key[di]);
      g.years.push_back(year[di]);
    }
    graph_doc[di] = static_cast<uint32_t>(g.pmids.size() - 1);
  }
  for (const std::size_t di : order) {
    const Document &d = documents[di];
    if (options.as_of) {
      if (year[di] <= 0) {
        ++g.undated;
        continue;
      }
      if (year[di] >= *options.as_of) {
        ++g.later;
        continue;
      }
    }
    ++g.documents;
    std::vector<uint32_t> doc_concepts;
    // A document without any annotation is text: the dictionary finds its concepts.
    const bool annotated = std::any_of(d.passages.begin(), d.passages.end(),
                                       [](const DocumentPassage &p) { return !p.annotations.empty(); });
    for (std::size_t pi = 0; pi < d.passages.size(); ++pi) {
      const DocumentPassage &p = d.passages[pi];
      const bool title = detail::iequals(p.type, "title") || detail::iequals(p.type, "front");
      if ((options.titles == "only" && !title) || (options.titles == "exclude" && title)) continue;
      // (offset, concept) of every mention of the passage.
      std::vector<std::pair<std::size_t, uint32_t>> found;
      for (const DocumentAnnotation &a : p.annotations) {
        if (!type_kept(a.type)) continue;
        if (a.id.empty() || a.id == "-") {
          ++g.unidentified;
          continue;
        }
        // A mention without a place in the text (length 0) counts for its document only.
        const std::size_t at = a.length ? a.offset : std::string::npos;
        for (std::string_view one : detail::split_view(a.id, ';')) {
          const std::string id = detail::trim_copy(one);
          if (id.empty() || id == "-") continue;
          const std::string seen = a.type + '\x1f' + id;
          if (auto hit = by_annotation.find(seen); hit != by_annotation.end()) {
            ++spellings[hit->second][a.text];
            found.emplace_back(at, hit->second);
          } else {
            std::vector<EntityCandidate> joined;
            if (tagger && (detail::gene_type(a.type) || id.find(':') != std::string::npos)) joined = tagger->by_id(id);
            const uint32_t c = joined.size() == 1 ? concept_of(joined[0].id, a.text, a.type, joined[0].node)
                                                  : concept_of(concept_id(a.type, id), a.text, a.type, 0);
            by_annotation.emplace(seen, c);
            found.emplace_back(at, c);
          }
          ++g.mentions;
        }
      }
      if (tagger && (options.dictionary || !annotated))
        for (const EntityMention &m : tagger->tag(p.text)) {
          const EntityCandidate *c = m.entity();
          if (!c || !type_kept(c->label)) continue;
          found.emplace_back(m.offset, concept_of(c->id, m.text, c->label, c->node));
          ++g.mentions;
        }
      if (options.scope == CoocOptions::Scope::document) {
        for (const auto &[offset, c] : found) doc_concepts.push_back(c);
        continue;
      }
      // Sentences: a title is one; other passages split at sentence ends.
      const auto ranges = title ? std::vector<std::pair<std::size_t, std::size_t>>{{0, p.text.size()}}
                                : detail::sentence_ranges(p.text);
      std::vector<std::vector<uint32_t>> per(ranges.size());
      for (const auto &[offset, c] : found)
        for (std::size_t r = 0; r < ranges.size(); ++r)
          if (offset >= ranges[r].first && offset < ranges[r].second) {
            per[r].push_back(c);
            break;
          }
      for (auto &cs : per) {
        std::sort(cs.begin(), cs.end());
        cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
        if (cs.empty()) continue;
        unit_doc.push_back(graph_doc[di]);
        unit_concepts.push_back(std::move(cs));
      }
    }
    if (options.scope == CoocOptions::Scope::document) {
      std::sort(doc_concepts.begin(), doc_concepts.end());
      doc_concepts.erase(std::unique(doc_concepts.begin(), doc_concepts.end()), doc_concepts.end());
      if (doc_concepts.empty()) continue;
      unit_doc.push_back(graph_doc[di]);
      unit_concepts.push_back(std::move(doc_concepts));
    }
  }
  g.units = unit_doc.size();
  for (std::size_t c = 0; c < g.concepts.size(); ++c) {
    std::size_t best = 0;
    for (const auto &[text, n] : spellings[c])
      if (n > best || (n == best && text < g.concepts[c].name)) best = n, g.concepts[c].name = text;
  }
  // D: units × concepts, boolean; DᵀD: the counts.
  std::vector<Eigen::Triplet<int>> triplets;
  for (std::size_t u = 0; u < unit_concepts.size(); ++u)
    for (uint32_t c : unit_concepts[u]) triplets.emplace_back(static_cast<int>(u), static_cast<int>(c), 1);
  Eigen::SparseMatrix<int, Eigen::ColMajor> d(static_cast<Eigen::Index>(unit_concepts.size()),
                                              static_cast<Eigen::Index>(g.concepts.size()));
  d.setFromTriplets(triplets.begin(), triplets.end());
  d.makeCompressed();
  const Eigen::SparseMatrix<int, Eigen::ColMajor> co = (Eigen::SparseMatrix<int, Eigen::ColMajor>(d.transpose()) * d).pruned();
  for (Eigen::Index c = 0; c < d.outerSize(); ++c) g.concepts[static_cast<std::size_t>(c)].units = static_cast<std::size_t>(d.col(c).nonZeros());
  const int *inner = d.innerIndexPtr();
  const int *outer = d.outerIndexPtr();
  for (Eigen::Index b = 0; b < co.outerSize(); ++b)
    for (Eigen::SparseMatrix<int, Eigen::ColMajor>::InnerIterator it(co, b); it; ++it) {
      const Eigen::Index a = it.row();
      if (a >= b || static_cast<std::size_t>(it.value()) < std::max<std::size_t>(1, options.min_count)) continue;
      CoocEdge e;
      e.a = static_cast<uint32_t>(a);
      e.b = static_cast<uint32_t>(b);
      e.count = static_cast<std::size_t>(it.value());
      const std::size_t na = g.concepts[e.a].units, nb = g.concepts[e.b].units;
      e.npmi = npmi(e.count, na, nb, g.units);
      e.jaccard = double(e.count) / double(na + nb - e.count);
      // The units both columns hold: their documents, in PubMed id order (a document's units
      // are consecutive).
      uint32_t last = UINT32_MAX;
      for (const int *x = inner + outer[a], *xe = inner + outer[a + 1], *y = inner + outer[b], *ye = inner + outer[b + 1];
           x != xe && y != ye;) {
        if (*x < *y) {
          ++x;
        } else if (*y < *x) {
          ++y;
        } else {
          const uint32_t doc = unit_doc[static_cast<std::size_t>(*x)];
          if (doc != last) e.documents.push_back(doc);
          last = doc;
          ++x, ++y;
        }
      }
      g.edges.push_back(std::move(e));
    }
  std::sort(g.edges.begin(), g.edges.end(), [](const CoocEdge &x, const CoocEdge &y) { return std::tie(x.a, x.b) < std::tie(y.a, y.b); });
  return g;
}

FileReport import_cooccurrence(KnowledgeGraph &kg, const CoocGraph &g, const std::string &path) {
  if (g.edges.empty()) throw Error(ErrorCode::invalid_argument, "co-occurrence: the graph has no edge to import");
  const std::string relation = cooccurrence_relation(g.options);
  {
    const std::string part = path + ".part";
    std::ofstream out(part, std::ios::binary);
    if (!out) throw Error(ErrorCode::io, "co-occurrence: cannot write '" + path + "'");
    out << dump_json(json{{"format", "grappi-jsonl"}, {"version", 1}}) << "\n";
    for (const CoocConcept &c : g.concepts)
      if (c.node == 0)
        out << dump_json(json{{"type", "node"},
                              {"id", c.id},
                              {"name", c.name},
                              {"label", c.type.empty() ? "Concept" : c.type},
                              {"attributes", {{"cooc_units", c.units}}}})
            << "\n";
    std::size_t line = 1 + 1;  // (after the header line)
    for (const CoocConcept &c : g.concepts) line += c.node == 0;
    for (const CoocEdge &e : g.edges) {
      ++line;
      // PubMed ids as numbers (Edge::pmids); other document ids apart.
      json pmids = json::array(), others = json::array();
      json years = json::array();
      for (uint32_t doc : e.documents) {
        const std::string &p = g.pmids[doc];
        years.push_back(g.years[doc]);
        if (!p.empty() && p.size() < 19 && p.find_first_not_of("0123456789") == std::string::npos)
          pmids.push_back(std::stoll(p));
        else
          others.push_back(p);
      }
      json record = {{"count", e.count}, {"npmi", e.npmi}, {"jaccard", e.jaccard}, {"pmids", pmids}, {"years", years}};
      if (!others.empty()) record["documents"] = others;
      char npmi[32];
      std::snprintf(npmi, sizeof npmi, "%.3f", e.npmi);
      const json evidence = {{"pmids", pmids},
                             {"text", "co-occur in " + std::to_string(e.count) +
                                          (g.options.scope == CoocOptions::Scope::sentence ? " sentence(s)" : " document(s)") +
                                          ", NPMI " + npmi}};
      out << dump_json(json{{"type", "edge"},
                            {"source", g.concepts[e.a].id},
                            {"target", g.concepts[e.b].id},
                            {"relation", relation},
                            {"directed", false},
                            {"score", std::max(0.0, std::min(1.0, e.npmi))},
                            {"evidence", evidence},
                            {"records", json::array({{{"line", line}, {"record", std::move(record)}}})}})
          << "\n";
    }
    out.close();
    if (!out) throw Error(ErrorCode::io, "co-occurrence: cannot write '" + path + "'");
    std::error_code ec;
    std::filesystem::rename(part, path, ec);
    if (ec) throw Error(ErrorCode::io, "co-occurrence: cannot write '" + path + "': " + ec.message());
  }
  return kg.import({{path, "jsonl"}}).files.at(0);
}

std::vector<std::string> CoocGraph::pmids_of(const CoocEdge &e) const {
  std::vector<std::string> out;
  out.reserve(e.documents.size());
  for (uint32_t d : e.documents) out.push_back(pmids[d]);
  return out;
}

json to_json(const CoocGraph &g, std::size_t top_edges) {
  json j = {{"relation", cooccurrence_relation(g.options)},
            {"documents", g.documents},
            {"units", g.units},
            {"concepts", g.concepts.size()},
            {"edges", g.edges.size()},
            {"mentions", g.mentions},
            {"unidentified_annotations", g.unidentified},
            {"undated_documents", g.undated},
            {"later_documents", g.later},
            {"titles", g.options.titles},
            {"min_count", g.options.min_count},
            {"types", g.options.types}};
  j["as_of"] = g.options.as_of ? json(*g.options.as_of) : json(nullptr);
  std::vector<const CoocEdge *> order;
  for (const CoocEdge &e : g.edges) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(), [](const CoocEdge *x, const CoocEdge *y) {
    if (x->count != y->count) return x->count > y->count;
    return x->npmi > y->npmi;
  });
  json top = json::array();
  for (std::size_t i = 0; i < order.size() && i < top_edges; ++i) {
    const CoocEdge &e = *order[i];
    const CoocConcept &a = g.concepts[e.a], &b = g.concepts[e.b];
    top.push_back({{"a", {{"id", a.id}, {"name", a.name}, {"type", a.type}}},
                   {"b", {{"id", b.id}, {"name", b.name}, {"type", b.type}}},
                   {"count", e.count}, {"npmi", e.npmi}, {"jaccard", e.jaccard}, {"pmids", g.pmids_of(e)}});
  }
  j["top_edges"] = std::move(top);
  return j;
}

}  // namespace grappi
