// Papers into the knowledge base (format "corpus"): a file of documents in any format
// parse_documents reads becomes one dataset of documents (keyed by PubMed id, else the source's
// id), their passages (in order; the full-text index follows them through triggers) and their
// annotations with the concept each names (composites and PubTator's "-1" as concept_ids says:
// an annotation that names no concept is kept with an empty concept and counted).
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "grappi/documents.hpp"
#include "grappi/error.hpp"
#include "store/import_writer.hpp"
#include "store/importers.hpp"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"

namespace grappi::detail {

FileReport import_documents_file(KnowledgeGraph::Impl &impl, const std::string &path, DocumentFormat format,
                                 const ImportOptions &options) {
  const auto t0 = std::chrono::steady_clock::now();
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(path, ec);
  ImportWriter w(impl, path, "corpus", ec ? 0 : size,
                 nlohmann::json{{"format", "corpus"}, {"document_format", to_string(format)}});
  Db &db = impl.db;
  Stmt doc(
      db,
      "INSERT INTO documents(dataset_id, doc_key, source_id, pmid, pmcid, doi, year, title) VALUES(?,?,?,?,?,?,?,?)");
  Stmt passage(db, "INSERT INTO passages(document_id, idx, type, offset, text) VALUES(?,?,?,?,?)");
  Stmt annotation(db, "INSERT INTO annotations(passage_id, offset, length, text, type, concept) VALUES(?,?,?,?,?,?)");
  uint64_t documents = 0, passages = 0, annotations = 0, unnormalised = 0, composite = 0, dated = 0;
  std::string sha256;
  // (a document at a time: PubTator and JSON lines corpora of any size)
  for_each_document(
      path, format,
      [&](Document &&d) {
        if (++documents > options.max_rows && options.max_rows)
          throw Error(ErrorCode::invalid_argument,
                      path + ": more than max_rows (" + std::to_string(options.max_rows) + ") documents");
        std::string title;
        for (const DocumentPassage &p : d.passages)
          if (iequals(p.type, "title") || iequals(p.type, "front")) {
            title = p.text;
            break;
          }
        const int year = std::max(0, std::atoi(d.year.c_str()));
        dated += year > 0;
        doc.bind(1, w.dataset())
            .bind(2, d.pmid.empty() ? d.id : d.pmid)
            .bind(3, d.id)
            .bind(4, d.pmid)
            .bind(5, d.pmcid)
            .bind(6, d.doi)
            .bind(7, static_cast<int64_t>(year))
            .bind(8, title)
            .run();
        const int64_t doc_id = db.last_insert_rowid();
        for (std::size_t i = 0; i < d.passages.size(); ++i) {
          const DocumentPassage &p = d.passages[i];
          passage.bind(1, doc_id)
              .bind(2, static_cast<int64_t>(i))
              .bind(3, p.type)
              .bind(4, static_cast<int64_t>(p.offset))
              .bind(5, p.text)
              .run();
          const int64_t passage_id = db.last_insert_rowid();
          ++passages;
          for (const DocumentAnnotation &a : p.annotations) {
            const std::vector<std::string> ids = concept_ids(a.id, a.type);
            unnormalised += ids.empty();
            composite += ids.size() > 1;
            // (one row per concept a composite names, each on the same span)
            const std::vector<std::string> rows = ids.empty() ? std::vector<std::string>{std::string()} : ids;
            for (const std::string &concept : rows) {
              annotation.bind(1, passage_id)
                  .bind(2, static_cast<int64_t>(a.offset))
                  .bind(3, static_cast<int64_t>(a.length))
                  .bind(4, a.text)
                  .bind(5, a.type)
                  .bind(6, concept)
                  .run();
              ++annotations;
            }
          }
        }
      },
      &sha256);
  FileReport &r = w.report();
  r.lines = documents;
  r.details = {{"documents", documents},
               {"dated_documents", dated},
               {"passages", passages},
               {"annotations", annotations},
               {"unnormalised_mentions", unnormalised},
               {"composite_mentions", composite}};
  return w.finish(sha256, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace grappi::detail
