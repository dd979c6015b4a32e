// Literature co-occurrence graphs (grappi/cooccurrence.hpp): each unit (a document or a
// sentence) counts its concepts and adds an entry per pair of them with its document (the
// nonzeros of DᵀD, D the boolean units × concepts matrix, each with the document behind it);
// the entries sorted (in memory, or in runs spilled to disk past a budget and merged) give each
// edge its count and documents in one pass, NPMI and Jaccard from the counts; stored through
// grappi's JSON lines as one dataset.
#include "grappi/cooccurrence.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>
#include <unordered_map>


#include "grappi/error.hpp"
#include "common/grounding_text.hpp"
#include "common/text_util.hpp"
#include "common/text_reader.hpp"
#include "common/visibility.hpp"
#include "grappi/json_text.hpp"
#include "agents/literature/cooc_builder.hpp"
#include "common/cooc_measures.hpp"
#include "store/cooc_store.hpp"
#include "store/jsonl_dataset.hpp"

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

}  // namespace

std::string cooccurrence_relation(const CoocOptions &options) {
  return options.scope == CoocOptions::Scope::sentence ? "cooc.sentence" : "cooc.document";
}

// ---- the builder (cooc_builder.hpp) ----------------------------------------------------------

using detail::cooc::Entry;
using detail::cooc::RunReader;
using detail::cooc::entry_less;
using detail::cooc::merge_sorted;

CoocBuilder::CoocBuilder(const CoocOptions &options, const EntityTagger *tagger) : impl_(std::make_unique<Impl>()) {
  if (options.titles != "include" && options.titles != "only" && options.titles != "exclude")
    throw Error(ErrorCode::invalid_argument, "co-occurrence: titles must be include, only or exclude, not '" + options.titles + "'");
  impl_->options = options;
  impl_->tagger = tagger;
  for (const std::string &t : options.types) impl_->types.push_back(detail::lower_copy(t));
  impl_->max_entries = options.memory_mib ? options.memory_mib * (std::size_t{1} << 20) / sizeof(Entry) : 0;
}

CoocBuilder::~CoocBuilder() = default;
CoocBuilder::CoocBuilder(CoocBuilder &&) noexcept = default;
CoocBuilder &CoocBuilder::operator=(CoocBuilder &&) noexcept = default;

std::size_t CoocBuilder::documents() const { return impl_->keys.size(); }

CoocFileCount CoocBuilder::add_file(const std::string &path, DocumentFormat format) {
  CoocFileCount c;
  c.path = path;
  std::error_code ec;
  c.bytes = std::filesystem::file_size(path, ec);
  if (ec) throw Error(ErrorCode::io, "co-occurrence: cannot read '" + path + "'");
  const std::size_t before = documents();
  for_each_document(path, format, [&](Document &&d) { add(d); });
  c.documents = documents() - before;
  return c;
}

void CoocBuilder::add(const Document &d) {
  Impl &m = *impl_;
  const CoocOptions &options = m.options;
  const int year = std::max(0, std::atoi(d.year.c_str()));
  if (options.as_of) {
    if (year <= 0) {
      ++m.undated;
      return;
    }
    if (year >= *options.as_of) {
      ++m.later;
      return;
    }
  }
  ++m.documents;
  const uint32_t doc = static_cast<uint32_t>(m.keys.size());
  m.keys.push_back(d.pmid.empty() ? d.id : d.pmid);
  m.years.push_back(year);
  std::vector<uint32_t> doc_concepts;
  // A document without any annotation is text: the dictionary finds its concepts.
  const bool annotated = std::any_of(d.passages.begin(), d.passages.end(),
                                     [](const DocumentPassage &p) { return !p.annotations.empty(); });
  for (const DocumentPassage &p : d.passages) {
    const bool title = detail::iequals(p.type, "title") || detail::iequals(p.type, "front");
    if ((options.titles == "only" && !title) || (options.titles == "exclude" && title)) continue;
    // (offset, concept) of every mention of the passage.
    std::vector<std::pair<std::size_t, uint32_t>> found;
    for (const DocumentAnnotation &a : p.annotations) {
      if (!m.type_kept(a.type)) continue;
      // PubTator's conventions (concept_ids): "-1" names no concept, a composite each part.
      const std::vector<std::string> ids = concept_ids(a.id, a.type);
      if (ids.empty()) {
        ++m.unidentified;
        continue;
      }
      m.composite += ids.size() > 1;
      // A mention without a place in the text (length 0) counts for its document only.
      const std::size_t at = a.length ? a.offset : std::string::npos;
      for (const std::string &id : ids) {
        const std::string seen = a.type + '\x1f' + id;
        if (auto hit = m.by_annotation.find(seen); hit != m.by_annotation.end()) {
          ++m.spellings[hit->second][a.text];
          found.emplace_back(at, hit->second);
        } else {
          std::vector<EntityCandidate> joined;
          if (m.tagger && (detail::gene_type(a.type) || id.find(':') != std::string::npos)) joined = m.tagger->by_id(id);
          const uint32_t c = joined.size() == 1 ? m.concept_of(joined[0].id, a.text, a.type, joined[0].node)
                                                : m.concept_of(concept_id(a.type, id), a.text, a.type, 0);
          m.by_annotation.emplace(seen, c);
          found.emplace_back(at, c);
        }
        ++m.mentions;
      }
    }
    if (m.tagger && (options.dictionary || !annotated))
      for (const EntityMention &mention : m.tagger->tag(p.text)) {
        const EntityCandidate *c = mention.entity();
        if (!c || !m.type_kept(c->label)) continue;
        found.emplace_back(mention.offset, m.concept_of(c->id, mention.text, c->label, c->node));
        ++m.mentions;
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
    for (auto &cs : per) m.unit(doc, cs);
  }
  if (options.scope == CoocOptions::Scope::document) m.unit(doc, doc_concepts);
}

void CoocBuilder::merge(CoocBuilder &&other) {
  Impl &m = *impl_, &o = *other.impl_;
  if (!m.same_options(o.options))
    throw Error(ErrorCode::invalid_argument, "co-occurrence: builders of different options do not merge");
  // Concepts by id; the other's documents after this one's.
  const std::vector<uint32_t> remap = m.absorb_concepts(o.concepts, o.spellings);
  const uint32_t offset = static_cast<uint32_t>(m.keys.size());
  for (const Entry &e : o.entries) m.add_moved(e, remap, offset);
  for (const auto &run : o.runs)
    for (RunReader r(run.path); !r.done(); r.pop()) m.add_moved(r.top(), remap, offset);
  m.keys.insert(m.keys.end(), o.keys.begin(), o.keys.end());
  m.years.insert(m.years.end(), o.years.begin(), o.years.end());
  m.documents += o.documents;
  m.units += o.units;
  m.undated += o.undated;
  m.later += o.later;
  m.mentions += o.mentions;
  m.unidentified += o.unidentified;
  m.composite += o.composite;
  other = CoocBuilder(o.options, o.tagger);
}

CoocGraph CoocBuilder::finish() {
  Impl &m = *impl_;
  CoocGraph g;
  g.options = m.options;
  g.documents = m.documents;
  g.units = m.units;
  g.undated = m.undated;
  g.later = m.later;
  g.mentions = m.mentions;
  g.unidentified = m.unidentified;
  g.composite = m.composite;
  // Documents in the order of their PubMed ids (else ids); one graph document per key.
  std::vector<uint32_t> order(m.keys.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return m.keys[x] < m.keys[y]; });
  std::vector<uint32_t> graph_doc(m.keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || m.keys[order[i]] != m.keys[order[i - 1]]) {
      g.pmids.push_back(m.keys[order[i]]);
      g.years.push_back(m.years[order[i]]);
    }
    graph_doc[order[i]] = static_cast<uint32_t>(g.pmids.size() - 1);
  }
  g.concepts = std::move(m.concepts);
  for (std::size_t c = 0; c < g.concepts.size(); ++c) {
    std::size_t best = 0;
    for (const auto &[text, n] : m.spellings[c])
      if (n > best || (n == best && text < g.concepts[c].name)) best = n, g.concepts[c].name = text;
  }
  // The pairs: the runs on disk merged with what is in memory, one edge per pair.
  std::sort(m.entries.begin(), m.entries.end(), entry_less);
  std::vector<RunReader> readers;
  readers.reserve(m.runs.size());
  for (const auto &r : m.runs) readers.emplace_back(r.path);
  const std::size_t min_count = std::max<std::size_t>(1, m.options.min_count);
  bool open = false;  // a pair being counted
  Entry cur{};
  std::size_t count = 0;
  std::vector<uint32_t> docs;
  const auto close_pair = [&] {
    if (!open || count < min_count) return;
    CoocEdge edge;
    edge.a = cur.a;
    edge.b = cur.b;
    edge.count = count;
    const std::size_t na = g.concepts[cur.a].units, nb = g.concepts[cur.b].units;
    edge.npmi = detail::cooc_npmi(count, na, nb, g.units);
    edge.jaccard = detail::cooc_jaccard(count, na, nb);
    std::sort(docs.begin(), docs.end());
    docs.erase(std::unique(docs.begin(), docs.end()), docs.end());
    edge.documents = docs;
    g.edges.push_back(std::move(edge));
  };
  merge_sorted(m.entries, readers, [&](const Entry &e) {
    if (!open || e.a != cur.a || e.b != cur.b) {
      close_pair();
      open = true;
      cur = e;
      count = 0;
      docs.clear();
    }
    ++count;
    docs.push_back(graph_doc[e.doc]);
  });
  close_pair();
  const EntityTagger *tagger = m.tagger;
  readers.clear();
  *this = CoocBuilder(g.options, tagger);  // (empty again; the runs' files removed)
  return g;
}

CoocGraph build_cooccurrence(const std::vector<Document> &documents, const CoocOptions &options, const EntityTagger *tagger) {
  CoocBuilder b(options, tagger);
  for (const Document &d : documents) b.add(d);
  return b.finish();
}

namespace {

// The graph as the store reads it (no copy of its edges).
detail::CoocStoreInput store_input(const CoocGraph &g) {
  detail::CoocStoreInput in;
  in.relation = cooccurrence_relation(g.options);
  in.sentence = g.options.scope == CoocOptions::Scope::sentence;
  in.titles = g.options.titles;
  in.types = g.options.types;
  in.min_count = g.options.min_count;
  in.as_of = g.options.as_of;
  in.units_total = g.units;
  in.documents = &g.pmids;
  in.years = &g.years;
  in.concepts.reserve(g.concepts.size());
  for (const CoocConcept &c : g.concepts) in.concepts.push_back({c.id, c.name, c.type, c.units, c.node});
  in.edge_count = g.edges.size();
  in.edge = [&g](std::size_t i) {
    const CoocEdge &e = g.edges[i];
    return detail::CoocEdgeView{e.a, e.b, e.count, e.npmi, e.documents.data(), e.documents.size()};
  };
  return in;
}

// The dataset's JSON lines file (the lines importing it reads), written whole or not at all:
// "<path>.part" until rename() puts it in place.
class CoocFile {
 public:
  CoocFile(const std::string &path, const detail::CoocStoreInput &g) : path_(path), part_(path + ".part") {
    try {
      write(g);
    } catch (...) {
      std::remove(part_.c_str());  // (the destructor of an object never made does not run)
      throw;
    }
  }
  ~CoocFile() {
    if (!placed_) std::remove(part_.c_str());
  }
  CoocFile(const CoocFile &) = delete;
  CoocFile &operator=(const CoocFile &) = delete;
  void place() {
    std::error_code ec;
    std::filesystem::rename(part_, path_, ec);
    if (ec) throw Error(ErrorCode::io, "cannot write '" + path_ + "': " + ec.message());
    placed_ = true;
  }

 private:
  void write(const detail::CoocStoreInput &g) {
    const std::string &path = path_;
    std::ofstream out(part_, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(ErrorCode::io, "cannot write '" + path + "'");
    uint64_t line = 0;
    const auto put = [&](const std::string &text) {
      out.write(text.data(), static_cast<std::streamsize>(text.size()));
      out.put('\n');
      ++line;
    };
    put(dump_json(json{{"format", "grappi-jsonl"}, {"version", 1}}));
    for (const detail::CoocConceptRow &c : g.concepts)
      if (c.node == 0)
        put(detail::jsonl_node_line(c.id, c.name, c.type.empty() ? "Concept" : c.type, dump_json(json{{"cooc_units", c.units}})));
    for (std::size_t i = 0; i < g.edge_count; ++i) {
      const detail::CoocEdgeView e = g.edge(i);
      const detail::CoocEdgeFacts f = detail::cooc_facts(g, e);
      put(detail::jsonl_edge_line(g.concepts[e.a].id, g.concepts[e.b].id, g.relation, false,
                                  std::max(0.0, std::min(1.0, e.npmi)), detail::cooc_evidence_json(f),
                                  {detail::cooc_record_json(f)}, line + 1));
    }
    out.close();
    if (!out) throw Error(ErrorCode::io, "cannot write '" + path + "'");
  }

  std::string path_, part_;
  bool placed_ = false;
};

}  // namespace

FileReport import_cooccurrence(KnowledgeGraph &kg, const CoocGraph &g, const std::string &path) {
  if (g.edges.empty()) throw Error(ErrorCode::invalid_argument, "co-occurrence: the graph has no edge to import");
  const detail::CoocStoreInput in = store_input(g);
  const std::string &relation = in.relation;
  const std::string sha = detail::cooc_graph_sha256(in);
  std::unique_ptr<CoocFile> file;
  if (!path.empty()) file = std::make_unique<CoocFile>(path, in);
  json options = {{"relation", relation},
                  {"titles", g.options.titles},
                  {"types", g.options.types},
                  {"min_count", g.options.min_count},
                  {"documents", g.documents},
                  {"units", g.units},
                  {"file", path.empty() ? json(nullptr) : json(path)}};
  options["as_of"] = g.options.as_of ? json(*g.options.as_of) : json(nullptr);
  const FileReport r =
      detail::store_cooccurrence(kg, in, path.empty() ? relation + ":" + sha.substr(0, 16) : path, sha, options);
  if (file) file->place();
  return r;
}

std::string cooccurrence_dataset_path(const std::string &database, const CoocGraph &graph) {
  std::ostringstream name;
  name << database << ".cooc-" << std::hex << std::hash<std::string>{}(dump_json(to_json(graph))) << ".jsonl";
  return name.str();
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
            {"composite_annotations", g.composite},
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
