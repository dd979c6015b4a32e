// Co-occurrence graphs stored compactly (cooc_store.hpp).
#include "store/cooc_store.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "common/cooc_measures.hpp"
#include "common/section_file.hpp"
#include "common/text_util.hpp"
#include "grappi/error.hpp"
#include "grappi/json_text.hpp"
#include "store/graph_impl.hpp"
#include "store/import_writer.hpp"

namespace grappi::detail {

namespace {

using nlohmann::json;

// A document key that is a PubMed id (digits, fitting an int64).
bool pubmed_id(const std::string &p) {
  return !p.empty() && p.size() < 19 && p.find_first_not_of("0123456789") == std::string::npos;
}

// The blob of an edge: its documents' numbers (ascending) as the first and the differences,
// varints - as many as it has documents; a graph of sentences puts its further units (count less
// documents) first.
void encode_edge(ByteWriter &out, const CoocEdgeView &e, bool sentence) {
  out.clear();
  if (sentence) out.u64(e.count >= e.document_count ? e.count - e.document_count : 0);
  uint32_t last = 0;
  for (std::size_t i = 0; i < e.document_count; ++i) {
    out.u64(i == 0 ? e.documents[i] : e.documents[i] - last);
    last = e.documents[i];
  }
}

// SHA-256 over a stream of fields (varints and strings), in chunks.
class Digest {
 public:
  void number(uint64_t v) {
    buf_.u64(v);
    flush_if_full();
  }
  void text(const std::string &s) {
    buf_.str(s);
    flush_if_full();
  }
  std::string hex() {
    sha_.update(buf_.bytes());
    return sha_.hex();
  }

 private:
  void flush_if_full() {
    if (buf_.bytes().size() < (std::size_t{1} << 16)) return;
    sha_.update(buf_.bytes());
    buf_.clear();
  }
  Sha256 sha_;
  ByteWriter buf_;
};

}  // namespace

// ---- the evidence, as the JSON lines file gives it ------------------------------------------------

std::vector<int64_t> cooc_pmids(const CoocEdgeFacts &f) {
  std::vector<int64_t> out;
  for (const std::string &p : f.documents)
    if (pubmed_id(p)) out.push_back(std::stoll(p));
  return out;
}

std::string cooc_evidence_text(const CoocEdgeFacts &f) {
  char npmi[32];
  std::snprintf(npmi, sizeof npmi, "%.3f", cooc_npmi(f.count, f.a_units, f.b_units, f.units_total));
  return "co-occur in " + std::to_string(f.count) + (f.sentence ? " sentence(s)" : " document(s)") + ", NPMI " + npmi;
}

namespace {

std::string pmid_list(const CoocEdgeFacts &f) {
  std::string pmids = "[";
  for (const std::string &p : f.documents)
    if (pubmed_id(p)) {
      if (pmids.size() > 1) pmids += ',';
      pmids += std::to_string(std::stoll(p));
    }
  return pmids + "]";
}

}  // namespace

std::string cooc_evidence_json(const CoocEdgeFacts &f) {
  return "{\"pmids\":" + pmid_list(f) + ",\"text\":" + dump_json(json(cooc_evidence_text(f))) + "}";
}

std::string cooc_record_json(const CoocEdgeFacts &f) {
  std::string others = "[", years = "[";
  for (std::size_t i = 0; i < f.documents.size(); ++i) {
    if (years.size() > 1) years += ',';
    years += std::to_string(i < f.years.size() ? f.years[i] : 0);
    if (!pubmed_id(f.documents[i])) {
      if (others.size() > 1) others += ',';
      others += dump_json(json(f.documents[i]));
    }
  }
  others += ']', years += ']';
  std::string record = "{\"count\":" + std::to_string(f.count);
  if (others.size() > 2) record += ",\"documents\":" + others;
  record += ",\"jaccard\":" + dump_json(json(cooc_jaccard(f.count, f.a_units, f.b_units))) +
            ",\"npmi\":" + dump_json(json(cooc_npmi(f.count, f.a_units, f.b_units, f.units_total))) +
            ",\"pmids\":" + pmid_list(f) + ",\"unit_counts\":[[" + dump_json(json(f.a_id)) + "," +
            std::to_string(f.a_units) + "],[" + dump_json(json(f.b_id)) + "," + std::to_string(f.b_units) +
            "]],\"units_total\":" + std::to_string(f.units_total) + ",\"years\":" + years + "}";
  return record;
}

CoocEdgeFacts cooc_facts(const CoocStoreInput &g, const CoocEdgeView &e) {
  CoocEdgeFacts f;
  f.count = e.count;
  f.documents.reserve(e.document_count);
  f.years.reserve(e.document_count);
  for (std::size_t i = 0; i < e.document_count; ++i) {
    f.documents.push_back((*g.documents)[e.documents[i]]);
    f.years.push_back((*g.years)[e.documents[i]]);
  }
  const CoocConceptRow &a = g.concepts[e.a], &b = g.concepts[e.b];
  f.a_id = a.id, f.b_id = b.id;
  f.a_units = a.units, f.b_units = b.units;
  f.units_total = g.units_total;
  f.sentence = g.sentence;
  return f;
}

std::string cooc_graph_sha256(const CoocStoreInput &g) {
  Digest d;
  d.text("grappi cooc 1");
  d.text(g.relation);
  d.text(g.titles);
  d.number(g.types.size());
  for (const std::string &t : g.types) d.text(t);
  d.number(g.min_count);
  d.number(g.as_of ? static_cast<uint64_t>(*g.as_of) + 1 : 0);
  d.number(g.units_total);
  d.number(g.documents->size());
  for (std::size_t i = 0; i < g.documents->size(); ++i) {
    d.text((*g.documents)[i]);
    d.number(static_cast<uint64_t>(static_cast<int64_t>((*g.years)[i])));
  }
  d.number(g.concepts.size());
  for (const CoocConceptRow &c : g.concepts) {
    d.text(c.id);
    d.text(c.name);
    d.text(c.type);
    d.number(c.units);
  }
  d.number(g.edge_count);
  for (std::size_t i = 0; i < g.edge_count; ++i) {
    const CoocEdgeView e = g.edge(i);
    d.number(e.a);
    d.number(e.b);
    d.number(e.count);
    d.number(e.document_count);
    for (std::size_t k = 0; k < e.document_count; ++k) d.number(e.documents[k]);
  }
  return d.hex();
}

// ---- storing ------------------------------------------------------------------------------------

namespace {

// Rows inserted by one statement (SQLite's per-statement work shared by them).
constexpr std::size_t kRowsPerInsert = 64;

// The dataset's documents and concepts.
void store_sets(Db &db, int64_t dataset, const CoocStoreInput &g, const std::vector<int64_t> &node_of) {
  Stmt set(db, "INSERT INTO cooc_sets(dataset_id, unit, units_total) VALUES(?,?,?)");
  set.bind(1, dataset).bind(2, g.sentence ? "sentence" : "document").bind(3, static_cast<int64_t>(g.units_total)).run();
  const std::string d = std::to_string(dataset);
  {
    Stmt one(db, ("INSERT INTO cooc_concepts(dataset_id, node_id, idx, units) VALUES(" + d + ",?,?,?)").c_str());
    for (std::size_t i = 0; i < g.concepts.size(); ++i) {
      if (!node_of[i]) continue;  // (in no edge)
      one.bind(1, node_of[i]).bind(2, static_cast<int64_t>(i)).bind(3, static_cast<int64_t>(g.concepts[i].units)).run();
    }
  }
  Stmt many(db, multi_row_insert("INSERT INTO cooc_documents(dataset_id, idx, document, year) VALUES",
                                 "(" + d + ",?,?,?)", kRowsPerInsert)
                    .c_str());
  Stmt one(db, ("INSERT INTO cooc_documents(dataset_id, idx, document, year) VALUES(" + d + ",?,?,?)").c_str());
  const std::vector<std::string> &keys = *g.documents;
  const std::vector<int> &years = *g.years;
  const std::size_t n = keys.size(), full = n - n % kRowsPerInsert;
  for (std::size_t i = 0; i < full; i += kRowsPerInsert) {
    for (std::size_t k = 0; k < kRowsPerInsert; ++k) {
      const int c = static_cast<int>(3 * k);
      many.bind(c + 1, static_cast<int64_t>(i + k)).bind(c + 2, keys[i + k]).bind(c + 3, years[i + k]);
    }
    many.run();
  }
  for (std::size_t i = full; i < n; ++i) one.bind(1, static_cast<int64_t>(i)).bind(2, keys[i]).bind(3, years[i]).run();
}

}  // namespace

FileReport store_cooccurrence(KnowledgeGraph &kg, const CoocStoreInput &g, const std::string &path,
                              const std::string &sha256, const nlohmann::json &options) {
  const std::string &relation = g.relation;
  if (!g.documents || !g.years || g.years->size() != g.documents->size() || !g.edge)
    throw Error(ErrorCode::invalid_argument, "co-occurrence: the graph's documents, years or edges are missing");
  const auto start = std::chrono::steady_clock::now();
  KnowledgeGraph::Impl &impl = GraphAccess::impl(kg);
  impl.require_writable("import");
  std::unique_lock<std::mutex> lock(impl.mu);
  Db &db = impl.db;
  {
    Stmt same(db, "SELECT id FROM datasets WHERE sha256 = ? AND format = 'cooc'");
    same.bind(1, sha256);
    if (same.step()) {
      FileReport r;
      r.path = path;
      r.kind = "cooc";
      r.dataset_id = same.col_int(0);
      r.already_imported = true;
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return r;
    }
  }
  Savepoint all(db, "grappi_import_all");
  bool relation_known = false;
  {
    Stmt rel(db, "SELECT 1 FROM relations WHERE name = ?");
    rel.bind(1, relation);
    relation_known = rel.step();
  }
  ImportWriter w(impl, path, "cooc", 0, options);
  const int64_t dataset = w.dataset();
  // The concepts' nodes: those that join none defined (as the file's node lines), the others
  // claimed - those in an edge (every edge's concepts checked first).
  struct Row {
    int64_t source, target;
    uint32_t edge;
  };
  std::vector<Row> rows;
  rows.reserve(g.edge_count);
  std::vector<char> used(g.concepts.size(), 0);
  for (std::size_t i = 0; i < g.edge_count; ++i) {
    const CoocEdgeView e = g.edge(i);
    if (e.a >= g.concepts.size() || e.b >= g.concepts.size())
      throw Error(ErrorCode::invalid_argument, "co-occurrence: edge " + std::to_string(i) + " names no concept");
    used[e.a] = used[e.b] = 1;
  }
  std::vector<int64_t> node_of(g.concepts.size(), 0);
  uint64_t node_lines = 0;
  for (std::size_t i = 0; i < g.concepts.size(); ++i) {
    const CoocConceptRow &c = g.concepts[i];
    if (c.node != 0) continue;
    NodeInput n;
    n.external_id = c.id;
    n.name = c.name;
    n.label = c.type.empty() ? "Concept" : c.type;
    n.attributes = dump_json(json{{"cooc_units", c.units}});
    const int64_t id = w.define_node(n, 0);
    if (used[i]) node_of[i] = id;
    ++node_lines;
  }
  for (std::size_t i = 0; i < g.concepts.size(); ++i)
    if (g.concepts[i].node != 0 && used[i]) node_of[i] = w.reference_node(g.concepts[i].id, "Protein");
  store_sets(db, dataset, g, node_of);
  const int64_t rel = w.relation(relation);

  // The edges in the order of their endpoints (the edge key's index grows at its end).
  for (std::size_t i = 0; i < g.edge_count; ++i) {
    const CoocEdgeView e = g.edge(i);
    int64_t s = node_of[e.a], t = node_of[e.b];
    if (s > t) std::swap(s, t);
    rows.push_back({s, t, static_cast<uint32_t>(i)});
  }
  std::sort(rows.begin(), rows.end(), [](const Row &x, const Row &y) {
    return x.source != y.source ? x.source < y.source : x.target < y.target;
  });
  for (std::size_t i = 1; i < rows.size(); ++i)
    if (rows[i].source == rows[i - 1].source && rows[i].target == rows[i - 1].target)
      throw Error(ErrorCode::invalid_argument, "co-occurrence: edge " + g.concepts[g.edge(rows[i].edge).a].id + " - " +
                                                   g.concepts[g.edge(rows[i].edge).b].id + " (" + relation +
                                                   ") listed twice");
  const std::string head = "INSERT INTO edges(source, target, relation, directed, score, evidence, dataset_id) VALUES";
  const std::string row = "(?,?," + std::to_string(rel) + ",0,?,?," + std::to_string(dataset) + ")";
  Stmt many(db, multi_row_insert(head, row, kRowsPerInsert).c_str()), one(db, (head + row).c_str());
  std::unique_ptr<Stmt> find;
  if (relation_known)  // (edges of the relation may be stored: each is looked up)
    find = std::make_unique<Stmt>(db, ("SELECT id FROM edges WHERE source = ? AND target = ? AND relation = " +
                                       std::to_string(rel) + " AND directed = 0")
                                          .c_str());
  std::vector<ByteWriter> blobs(kRowsPerInsert);
  std::vector<const Row *> pending;
  pending.reserve(kRowsPerInsert);
  const auto score_of = [](const CoocEdgeView &e) { return std::max(0.0, std::min(1.0, e.npmi)); };
  const auto flush = [&](bool all_rows) {
    if (pending.size() == kRowsPerInsert) {
      for (std::size_t k = 0; k < kRowsPerInsert; ++k) {
        const Row &r = *pending[k];
        const CoocEdgeView e = g.edge(r.edge);
        encode_edge(blobs[k], e, g.sentence);
        const int c = static_cast<int>(4 * k);
        many.bind(c + 1, r.source)
            .bind(c + 2, r.target)
            .bind(c + 3, score_of(e))
            .bind_blob(c + 4, blobs[k].bytes().data(), blobs[k].bytes().size());
      }
      many.run();
      pending.clear();
    }
    if (!all_rows) return;
    for (const Row *r : pending) {
      const CoocEdgeView e = g.edge(r->edge);
      encode_edge(blobs[0], e, g.sentence);
      one.bind(1, r->source)
          .bind(2, r->target)
          .bind(3, score_of(e))
          .bind_blob(4, blobs[0].bytes().data(), blobs[0].bytes().size())
          .run();
    }
    pending.clear();
  };
  uint64_t created = 0, existing = 0;
  for (const Row &r : rows) {
    if (find) {
      find->reset();
      find->bind(1, r.source).bind(2, r.target);
      if (find->step()) {
        find->reset();
        // (another dataset's edge: claimed, this graph's record beside it)
        const CoocEdgeView e = g.edge(r.edge);
        const int64_t id = w.add_edge(r.source, r.target, relation, false, score_of(e));
        w.add_evidence(id, 0, cooc_record_json(cooc_facts(g, e)), {});
        ++existing;
        continue;
      }
      find->reset();
    }
    pending.push_back(&r);
    ++created;
    flush(false);
  }
  flush(true);
  FileReport &rep = w.report();
  rep.edges_created += created;
  rep.lines = node_lines + g.edge_count;
  rep.details = {{"node_lines", node_lines},
                 {"edge_lines", g.edge_count},
                 {"evidence_records", g.edge_count},
                 {"documents", g.documents->size()},
                 {"edges_claimed", existing}};
  const FileReport r =
      w.finish(sha256, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (!r.already_imported) impl.bump_generation();
  all.commit();
  return r;
}

// ---- reading ------------------------------------------------------------------------------------

struct CoocEvidenceReader::State {
  Db &db;
  Stmt set, concept, document, node;
  int64_t dataset = -1;
  bool known = false, sentence = false;
  std::size_t units_total = 0;
  explicit State(Db &d)
      : db(d),
        set(d, "SELECT unit, units_total FROM cooc_sets WHERE dataset_id = ?"),
        concept(d, "SELECT idx, units FROM cooc_concepts WHERE dataset_id = ? AND node_id = ?"),
        document(d, "SELECT document, year FROM cooc_documents WHERE dataset_id = ? AND idx = ?"),
        node(d, "SELECT external_id FROM nodes WHERE id = ?") {}
  bool concept_of(int64_t node_id, int64_t &idx, std::size_t &units) {
    concept.reset();
    concept.bind(1, dataset).bind(2, node_id);
    const bool found = concept.step();
    if (found) idx = concept.col_int(0), units = static_cast<std::size_t>(concept.col_int(1));
    concept.reset();
    return found;
  }
  std::string external_id(int64_t id) {
    node.reset();
    node.bind(1, id);
    std::string out = node.step() ? node.col_text(0) : std::string();
    node.reset();
    return out;
  }
};

CoocEvidenceReader::CoocEvidenceReader(Db &db) : db_(db) {}
CoocEvidenceReader::~CoocEvidenceReader() = default;

std::optional<CoocEdgeFacts> CoocEvidenceReader::facts(int64_t dataset, int64_t source, int64_t target,
                                                       const void *blob, std::size_t bytes) {
  if (!s_) s_ = std::make_unique<State>(db_);  // (prepared at the first compact record: most edges have none)
  State &s = *s_;
  if (dataset != s.dataset) {
    s.dataset = dataset;
    s.set.reset();
    s.set.bind(1, dataset);
    s.known = s.set.step();
    if (s.known)
      s.sentence = s.set.col_text(0) == "sentence", s.units_total = static_cast<std::size_t>(s.set.col_int(1));
    s.set.reset();
  }
  if (!s.known || !blob) return std::nullopt;
  ByteReader in(blob, bytes);
  const uint64_t more = s.sentence ? in.u64() : 0;
  std::vector<uint64_t> docs;
  for (uint64_t last = 0; in.ok() && !in.at_end();) {
    const uint64_t v = in.u64();
    if (!in.ok() || (!docs.empty() && v == 0) || v > (uint64_t{1} << 40)) return std::nullopt;
    last = docs.empty() ? v : last + v;
    docs.push_back(last);
  }
  if (!in.ok() || docs.empty()) return std::nullopt;
  CoocEdgeFacts f;
  f.count = docs.size() + more;
  f.sentence = s.sentence;
  f.units_total = s.units_total;
  int64_t ia = 0, ib = 0;
  if (!s.concept_of(source, ia, f.a_units) || !s.concept_of(target, ib, f.b_units)) return std::nullopt;
  f.a_id = s.external_id(source);
  f.b_id = s.external_id(target);
  if (ib < ia) std::swap(f.a_id, f.b_id), std::swap(f.a_units, f.b_units);
  for (uint64_t d : docs) {
    s.document.reset();
    s.document.bind(1, dataset).bind(2, static_cast<int64_t>(d));
    if (!s.document.step()) {
      s.document.reset();
      return std::nullopt;
    }
    f.documents.push_back(s.document.col_text(0));
    f.years.push_back(static_cast<int>(s.document.col_int(1)));
    s.document.reset();
  }
  return f;
}

}  // namespace grappi::detail
