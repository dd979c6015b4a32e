// The papers of the knowledge base (grappi/knowledge_graph.hpp, "papers"): full-text search
// through the FTS5 index of the passages, one hit per document (its best passage), and the
// documents by key with their passages and annotations.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "store/graph_impl.hpp"
#include "grappi/error.hpp"
#include "common/text_util.hpp"

namespace grappi {

std::vector<PaperHit> KnowledgeGraph::search_papers(std::string_view query, std::size_t limit) const {
  const std::string q = detail::trim_copy(query);
  if (q.empty()) throw Error(ErrorCode::invalid_argument, "papers: the query is empty");
  if (limit == 0 || limit > 1000) throw Error(ErrorCode::invalid_argument, "papers: the limit is 1 to 1000");
  std::lock_guard<std::mutex> lock(impl_->mu);
  // The best passages first; documents once each (a document's best passage speaks for it).
  detail::Stmt st(impl_->db,
                  "SELECT p.document_id, bm25(passages_fts), snippet(passages_fts, 0, '[', ']', ' ... ', 24), p.text "
                  "FROM passages_fts JOIN passages p ON p.id = passages_fts.rowid "
                  "WHERE passages_fts MATCH ? ORDER BY bm25(passages_fts) LIMIT ?");
  std::vector<PaperHit> out;
  std::unordered_map<int64_t, std::size_t> seen;
  try {
    st.bind(1, q).bind(2, static_cast<int64_t>(limit * 8));
    while (st.step() && out.size() < limit) {
      const int64_t doc = st.col_int(0);
      if (seen.count(doc)) continue;
      seen.emplace(doc, out.size());
      PaperHit h;
      h.document = doc;
      h.score = -st.col_double(1);
      h.snippet = st.col_text(2);
      h.passage = st.col_text(3);
      out.push_back(std::move(h));
    }
  } catch (const Error &e) {
    // FTS5 reports a malformed query as an SQL error ("fts5: syntax error near ...").
    const std::string what = e.what();
    if (what.find("fts5") != std::string::npos || what.find("syntax") != std::string::npos ||
        what.find("unterminated") != std::string::npos || what.find("no such column") != std::string::npos ||
        what.find("unknown special query") != std::string::npos)
      throw Error(ErrorCode::invalid_argument, "papers: the query '" + q + "' is not a full-text query (" +
                                                   what.substr(0, std::min<std::size_t>(what.size(), 160)) +
                                                   "); quote words that are not operators");
    throw;
  }
  detail::Stmt doc(impl_->db, "SELECT dataset_id, doc_key, pmid, doi, year, title FROM documents WHERE id = ?");
  for (PaperHit &h : out) {
    doc.bind(1, h.document);
    if (doc.step()) {
      h.dataset = doc.col_int(0);
      h.key = doc.col_text(1);
      h.pmid = doc.col_text(2);
      h.doi = doc.col_text(3);
      h.year = static_cast<int>(doc.col_int(4));
      h.title = doc.col_text(5);
    }
    doc.reset();
  }
  // A paper stored by two datasets is one hit (the better one).
  std::unordered_map<std::string, bool> keys;
  out.erase(
      std::remove_if(out.begin(), out.end(), [&](const PaperHit &h) { return !keys.emplace(h.key, true).second; }),
      out.end());
  return out;
}

std::vector<Document> KnowledgeGraph::papers(const std::vector<std::string> &keys) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  detail::Savepoint read(impl_->db, "grappi_read", false);
  detail::Stmt doc(
      impl_->db,
      "SELECT id, source_id, pmid, pmcid, doi, year FROM documents WHERE doc_key = ? ORDER BY dataset_id DESC, "
      "id LIMIT 1");
  detail::Stmt passages(impl_->db, "SELECT id, type, offset, text FROM passages WHERE document_id = ? ORDER BY idx");
  detail::Stmt annotations(
      impl_->db, "SELECT offset, length, text, type, concept FROM annotations WHERE passage_id = ? ORDER BY rowid");
  std::vector<Document> out;
  for (const std::string &key : keys) {
    doc.bind(1, key);
    if (!doc.step()) {
      doc.reset();
      continue;
    }
    Document d;
    const int64_t id = doc.col_int(0);
    d.id = doc.col_text(1);
    d.pmid = doc.col_text(2);
    d.pmcid = doc.col_text(3);
    d.doi = doc.col_text(4);
    if (const int64_t year = doc.col_int(5)) d.year = std::to_string(year);
    doc.reset();
    passages.bind(1, id);
    while (passages.step()) {
      DocumentPassage p;
      const int64_t pid = passages.col_int(0);
      p.type = passages.col_text(1);
      p.offset = static_cast<std::size_t>(passages.col_int(2));
      p.text = passages.col_text(3);
      annotations.bind(1, pid);
      // (a composite mention is stored once per concept: joined back into one annotation)
      while (annotations.step()) {
        DocumentAnnotation a;
        a.offset = static_cast<std::size_t>(annotations.col_int(0));
        a.length = static_cast<std::size_t>(annotations.col_int(1));
        a.text = annotations.col_text(2);
        a.type = annotations.col_text(3);
        a.id = annotations.col_text(4);
        if (!p.annotations.empty()) {
          DocumentAnnotation &last = p.annotations.back();
          if (last.offset == a.offset && last.length == a.length && last.type == a.type && !a.id.empty()) {
            last.id += ";" + a.id;
            continue;
          }
        }
        p.annotations.push_back(std::move(a));
      }
      annotations.reset();
      d.passages.push_back(std::move(p));
    }
    passages.reset();
    out.push_back(std::move(d));
  }
  read.commit();
  return out;
}

std::size_t KnowledgeGraph::paper_count() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  detail::Stmt st(impl_->db, "SELECT count(*) FROM documents");
  st.step();
  return static_cast<std::size_t>(st.col_int(0));
}

}  // namespace grappi
