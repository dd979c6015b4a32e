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
#include <tuple>
#include <unordered_map>


#include "grappi/error.hpp"
#include "common/grounding_text.hpp"
#include "common/text_util.hpp"
#include "common/text_reader.hpp"
#include "common/visibility.hpp"
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

// ---- the builder ---------------------------------------------------------------------------------
//
// Each unit (a document, or a sentence) adds its concepts' unit counts and one entry (a, b,
// document) per pair of its concepts. The entries are the only part that grows with the corpus
// beyond the concepts: past the memory budget they are sorted and written to a run file; the
// graph is the merge of the runs (and what is left in memory), an edge per pair with its count
// (entries) and its documents. Documents are kept as their key and year only.

namespace {

struct Entry {
  uint32_t a, b, doc;  // concept indices (a < b) and the document's arrival index
};

bool entry_less(const Entry &x, const Entry &y) {
  return x.a != y.a ? x.a < y.a : x.b != y.b ? x.b < y.b : x.doc < y.doc;
}

// A run of sorted entries on disk, removed with its object.
struct Run {
  std::string path;
  explicit Run(std::string p) : path(std::move(p)) {}
  Run(Run &&o) noexcept : path(std::move(o.path)) { o.path.clear(); }
  Run &operator=(Run &&o) noexcept {
    std::swap(path, o.path);
    return *this;
  }
  ~Run() {
    if (!path.empty()) std::remove(path.c_str());
  }
};

// Reads a run file back, a block at a time.
constexpr std::size_t kReadBlock = std::size_t{1} << 13;  // entries read at a time (96 KiB)

class RunReader {
 public:
  explicit RunReader(const std::string &path) : in_(path, std::ios::binary) {
    if (!in_) throw Error(ErrorCode::io, "co-occurrence: cannot read back the spilled pairs '" + path + "'");
    fill();
  }
  bool done() const { return at_ >= buf_.size(); }
  const Entry &top() const { return buf_[at_]; }
  void pop() {
    if (++at_ >= buf_.size()) fill();
  }

 private:
  void fill() {
    buf_.resize(kReadBlock);
    in_.read(reinterpret_cast<char *>(buf_.data()), static_cast<std::streamsize>(buf_.size() * sizeof(Entry)));
    buf_.resize(static_cast<std::size_t>(in_.gcount()) / sizeof(Entry));
    at_ = 0;
  }
  std::ifstream in_;
  std::vector<Entry> buf_;
  std::size_t at_ = 0;
};

// The runs open at once (the readers' buffers and file handles): more are first merged into one.
constexpr std::size_t kMaxRuns = 32;

// Merges sorted sources (the in-memory entries and run readers) in order, calling emit(entry).
template <typename Emit>
void merge_sorted(const std::vector<Entry> &memory, std::vector<RunReader> &readers, Emit &&emit) {
  // A heap of the sources' heads: index readers.size() is the memory.
  std::size_t in_memory = 0;
  const auto head = [&](std::size_t k) -> const Entry & { return k < readers.size() ? readers[k].top() : memory[in_memory]; };
  const auto later = [&](std::size_t x, std::size_t y) { return entry_less(head(y), head(x)); };
  std::vector<std::size_t> heap;
  for (std::size_t k = 0; k < readers.size(); ++k)
    if (!readers[k].done()) heap.push_back(k);
  if (!memory.empty()) heap.push_back(readers.size());
  std::make_heap(heap.begin(), heap.end(), later);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const std::size_t k = heap.back();
    emit(head(k));
    bool more;
    if (k < readers.size()) {
      readers[k].pop();
      more = !readers[k].done();
    } else {
      more = ++in_memory < memory.size();
    }
    if (more) std::push_heap(heap.begin(), heap.end(), later);
    else heap.pop_back();
  }
}

std::string temp_dir(const std::string &dir) {
  return dir.empty() ? std::filesystem::temp_directory_path().string() : dir;
}

// Writes entries to a new run file, buffered; close() checks the writes (a full disk is an
// io error naming the file) and hands the file over as a Run.
class RunWriter {
 public:
  explicit RunWriter(std::string path) : run_(std::move(path)), out_(run_.path, std::ios::binary) {
    if (!out_) fail();
  }
  void write(const Entry *e, std::size_t n) {
    out_.write(reinterpret_cast<const char *>(e), static_cast<std::streamsize>(n * sizeof(Entry)));
    if (!out_) fail();
  }
  Run close() {
    out_.close();
    if (!out_) fail();
    return std::move(run_);
  }

 private:
  [[noreturn]] void fail() {
    throw Error(ErrorCode::io, "co-occurrence: cannot spill the pairs to '" + run_.path +
                                   "' (the disk is full, or CoocOptions::work_dir is not writable)");
  }
  Run run_;
  std::ofstream out_;
};

}  // namespace

struct GRAPPI_HIDDEN CoocBuilder::Impl {
  CoocOptions options;
  const EntityTagger *tagger = nullptr;
  std::vector<std::string> types;  // kept types, lower case
  std::vector<CoocConcept> concepts;
  std::unordered_map<std::string, uint32_t> index_of;                 // concept id -> index
  std::vector<std::unordered_map<std::string, std::size_t>> spellings;  // per concept: mention text -> count
  std::unordered_map<std::string, uint32_t> by_annotation;            // "type\x1fid" -> concept (looked up once)
  std::vector<std::string> keys;  // per document entry, in arrival order: its PubMed id, else its id
  std::vector<int> years;         // per document entry
  std::size_t documents = 0, units = 0, undated = 0, later = 0, mentions = 0, unidentified = 0, composite = 0;
  std::vector<Entry> entries;
  std::vector<Run> runs;
  std::size_t max_entries = 0;  // 0: no limit

  bool type_kept(const std::string &t) const {
    return types.empty() || std::find(types.begin(), types.end(), detail::lower_copy(t)) != types.end();
  }
  uint32_t concept_of(const std::string &id, const std::string &name, const std::string &type, int64_t node) {
    auto [it, fresh] = index_of.emplace(id, static_cast<uint32_t>(concepts.size()));
    if (fresh) {
      CoocConcept c;
      c.id = id;
      c.type = type;
      c.node = node;
      concepts.push_back(std::move(c));
      spellings.emplace_back();
    }
    ++spellings[it->second][name];
    return it->second;
  }
  void unit(uint32_t doc, std::vector<uint32_t> &cs) {
    std::sort(cs.begin(), cs.end());
    cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
    if (cs.empty()) return;
    ++units;
    for (uint32_t c : cs) ++concepts[c].units;
    for (std::size_t i = 0; i < cs.size(); ++i)
      for (std::size_t j = i + 1; j < cs.size(); ++j) entries.push_back({cs[i], cs[j], doc});
    if (max_entries && entries.size() >= max_entries) spill();
  }
  // A new run file's path in the work directory.
  std::string run_path() const {
    static std::atomic<unsigned> counter{0};
    return (std::filesystem::path(temp_dir(options.work_dir)) /
            ("grappi-cooc-" + detail::random_hex(6) + "-" + std::to_string(counter++) + ".run"))
        .string();
  }
  // Writes the entries (sorted here) to a new run; past kMaxRuns the runs are merged into one.
  void spill() {
    if (entries.empty()) return;
    std::sort(entries.begin(), entries.end(), entry_less);
    RunWriter out(run_path());
    out.write(entries.data(), entries.size());
    runs.push_back(out.close());
    entries.clear();
    entries.shrink_to_fit();
    if (runs.size() >= kMaxRuns) {
      std::vector<RunReader> readers;
      readers.reserve(runs.size());
      for (const Run &r : runs) readers.emplace_back(r.path);
      RunWriter merged(run_path());
      merge_sorted({}, readers, [&](const Entry &e) { merged.write(&e, 1); });
      readers.clear();
      Run one = merged.close();
      runs.clear();  // (removes the merged files)
      runs.push_back(std::move(one));
    }
  }
};

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
  const CoocOptions &a = m.options, &b = o.options;
  if (a.scope != b.scope || a.titles != b.titles || a.types != b.types || a.min_count != b.min_count || a.as_of != b.as_of ||
      a.dictionary != b.dictionary)
    throw Error(ErrorCode::invalid_argument, "co-occurrence: builders of different options do not merge");
  // Concepts by id; the other's documents after this one's.
  std::vector<uint32_t> remap(o.concepts.size());
  for (std::size_t c = 0; c < o.concepts.size(); ++c) {
    const CoocConcept &oc = o.concepts[c];
    auto [it, fresh] = m.index_of.emplace(oc.id, static_cast<uint32_t>(m.concepts.size()));
    if (fresh) {
      m.concepts.push_back(oc);
      m.spellings.emplace_back();
    } else {
      m.concepts[it->second].units += oc.units;
    }
    for (const auto &[text, n] : o.spellings[c]) m.spellings[it->second][text] += n;
    remap[c] = it->second;
  }
  const uint32_t offset = static_cast<uint32_t>(m.keys.size());
  const auto moved = [&](Entry e) {
    uint32_t x = remap[e.a], y = remap[e.b];
    if (x > y) std::swap(x, y);
    return Entry{x, y, e.doc + offset};
  };
  for (const Entry &e : o.entries) {
    m.entries.push_back(moved(e));
    if (m.max_entries && m.entries.size() >= m.max_entries) m.spill();
  }
  for (const Run &run : o.runs)
    for (RunReader r(run.path); !r.done(); r.pop()) {
      m.entries.push_back(moved(r.top()));
      if (m.max_entries && m.entries.size() >= m.max_entries) m.spill();
    }
  m.keys.insert(m.keys.end(), o.keys.begin(), o.keys.end());
  m.years.insert(m.years.end(), o.years.begin(), o.years.end());
  m.documents += o.documents;
  m.units += o.units;
  m.undated += o.undated;
  m.later += o.later;
  m.mentions += o.mentions;
  m.unidentified += o.unidentified;
  m.composite += o.composite;
  other = CoocBuilder(b, o.tagger);
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
  for (const Run &r : m.runs) readers.emplace_back(r.path);
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
    edge.npmi = npmi(count, na, nb, g.units);
    edge.jaccard = double(count) / double(na + nb - count);
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

FileReport import_cooccurrence(KnowledgeGraph &kg, const CoocGraph &g, const std::string &path) {
  if (g.edges.empty()) throw Error(ErrorCode::invalid_argument, "co-occurrence: the graph has no edge to import");
  const std::string relation = cooccurrence_relation(g.options);
  // (written whole or not at all)
  detail::write_file_atomically(path, [&](std::ostream &out) {
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
      // (each concept's units and the graph's: the concepts' document frequency, which paths and
      // the path ranker read)
      json record = {{"count", e.count},
                     {"npmi", e.npmi},
                     {"jaccard", e.jaccard},
                     {"pmids", pmids},
                     {"years", years},
                     {"unit_counts", json::array({json::array({g.concepts[e.a].id, g.concepts[e.a].units}),
                                                  json::array({g.concepts[e.b].id, g.concepts[e.b].units})})},
                     {"units_total", g.units}};
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
  }, "co-occurrence");
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
