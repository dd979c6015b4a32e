#include <chrono>
#include <ctime>
#include <thread>

#include "store/graph_impl.hpp"
#include "grappi/error.hpp"
#include "common/text_util.hpp"
#include "grappi/version.h"

namespace grappi::detail {

namespace {

// Schema version 1. Ids are SQLite rowids. Edges keep their first contributing dataset in
// edges.dataset_id and further contributors in edge_claims, so that a dataset can be removed
// without losing edges another dataset also supplied. node_claims records every dataset that
// named a node.
const char *kSchemaV1 = R"SQL(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE datasets(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  path TEXT NOT NULL,
  file_size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  format TEXT NOT NULL,
  string_version TEXT NOT NULL DEFAULT '',
  taxon INTEGER NOT NULL DEFAULT 0,
  options TEXT NOT NULL DEFAULT '{}',
  counts TEXT NOT NULL DEFAULT '{}',
  imported_at TEXT NOT NULL,
  seconds REAL NOT NULL DEFAULT 0);
CREATE INDEX datasets_sha ON datasets(sha256);
CREATE TABLE nodes(
  id INTEGER PRIMARY KEY,
  external_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT 'Protein',
  annotation TEXT NOT NULL DEFAULT '',
  size INTEGER NOT NULL DEFAULT 0,
  attributes TEXT NOT NULL DEFAULT '{}',
  taxon INTEGER NOT NULL DEFAULT 0,
  info_dataset INTEGER REFERENCES datasets(id) ON DELETE SET NULL);
CREATE INDEX nodes_name ON nodes(name COLLATE NOCASE);
CREATE INDEX nodes_external_nocase ON nodes(external_id COLLATE NOCASE);
CREATE INDEX nodes_info_dataset ON nodes(info_dataset);
CREATE TABLE node_claims(
  node_id INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  PRIMARY KEY(node_id, dataset_id)) WITHOUT ROWID;
CREATE INDEX node_claims_dataset ON node_claims(dataset_id);
CREATE TABLE aliases(
  node_id INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  alias TEXT NOT NULL,
  source TEXT NOT NULL DEFAULT '',
  dataset_id INTEGER REFERENCES datasets(id) ON DELETE CASCADE,
  PRIMARY KEY(node_id, alias, source)) WITHOUT ROWID;
CREATE INDEX aliases_alias ON aliases(alias COLLATE NOCASE);
CREATE INDEX aliases_dataset ON aliases(dataset_id);
CREATE TABLE relations(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE edges(
  id INTEGER PRIMARY KEY,
  source INTEGER NOT NULL,
  target INTEGER NOT NULL,
  relation INTEGER NOT NULL,
  directed INTEGER NOT NULL,
  score REAL NOT NULL,
  channels TEXT,
  evidence TEXT,
  dataset_id INTEGER);
CREATE UNIQUE INDEX edges_key ON edges(source, target, relation, directed);
CREATE TABLE edge_claims(
  edge_id INTEGER NOT NULL REFERENCES edges(id) ON DELETE CASCADE,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  PRIMARY KEY(edge_id, dataset_id)) WITHOUT ROWID;
CREATE INDEX edge_claims_dataset ON edge_claims(dataset_id);
)SQL";

// Schema version 2: embeddings. One row per model (with what is needed to re-create its
// embedder for queries), one vector per node and model with the hash of the embedded text, and
// the model's HNSW graph keyed by the model's version (bumped whenever its vectors change).
const char *kSchemaV2 = R"SQL(
CREATE TABLE embedding_models(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  dim INTEGER NOT NULL,
  config TEXT NOT NULL DEFAULT '{}',
  state BLOB,
  version INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL);
CREATE TABLE embeddings(
  model_id INTEGER NOT NULL REFERENCES embedding_models(id) ON DELETE CASCADE,
  node_id INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  text_hash TEXT NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY(model_id, node_id)) WITHOUT ROWID;
CREATE INDEX embeddings_node ON embeddings(node_id);
CREATE TABLE hnsw_indexes(
  model_id INTEGER PRIMARY KEY REFERENCES embedding_models(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  params TEXT NOT NULL,
  data BLOB NOT NULL);
)SQL";

// Schema version 3: the language-model response cache, keyed by the SHA-256 of the model's
// identity, the template version and the full request.
const char *kSchemaV3 = R"SQL(
CREATE TABLE llm_cache(
  key TEXT PRIMARY KEY,
  model TEXT NOT NULL,
  template_version TEXT NOT NULL,
  kind TEXT NOT NULL,
  response TEXT NOT NULL,
  finish_reason TEXT NOT NULL DEFAULT '',
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL) WITHOUT ROWID;
CREATE INDEX llm_cache_model ON llm_cache(model);
)SQL";

// Schema version 4: evidence records, one per source row behind an edge (an IntAct interaction,
// a BEL statement, ...): what the importer read from it as JSON and the row itself, so that
// every edge can show (and a curator can check) the rows it rests on. They go with their
// dataset and with their edge.
const char *kSchemaV4 = R"SQL(
CREATE TABLE edge_evidence(
  id INTEGER PRIMARY KEY,
  edge_id INTEGER NOT NULL REFERENCES edges(id) ON DELETE CASCADE,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  line INTEGER NOT NULL,
  record TEXT NOT NULL,
  raw TEXT NOT NULL DEFAULT '');
CREATE INDEX edge_evidence_edge ON edge_evidence(edge_id);
CREATE INDEX edge_evidence_dataset ON edge_evidence(dataset_id);
)SQL";

// Schema version 5: trained models (the graph reader), their parameters as a blob beside a JSON
// description; not part of the graph (no generation change).
const char *kSchemaV5 = R"SQL(
CREATE TABLE trained_models(
  name TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  spec TEXT NOT NULL,
  data BLOB NOT NULL,
  created_at TEXT NOT NULL) WITHOUT ROWID;
)SQL";

// Schema version 6: papers, part of the knowledge base (a corpus is a dataset: removing it
// removes its documents): each document with its passages and their annotations, and SQLite's
// FTS5 full-text index over the passages (titles are passages), kept by triggers.
const char *kSchemaV6 = R"SQL(
CREATE TABLE documents(
  id INTEGER PRIMARY KEY,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  doc_key TEXT NOT NULL,
  source_id TEXT NOT NULL DEFAULT '',
  pmid TEXT NOT NULL DEFAULT '',
  pmcid TEXT NOT NULL DEFAULT '',
  doi TEXT NOT NULL DEFAULT '',
  year INTEGER NOT NULL DEFAULT 0,
  title TEXT NOT NULL DEFAULT '');
CREATE INDEX documents_key ON documents(doc_key);
CREATE INDEX documents_dataset ON documents(dataset_id);
CREATE TABLE passages(
  id INTEGER PRIMARY KEY,
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  type TEXT NOT NULL DEFAULT '',
  offset INTEGER NOT NULL DEFAULT 0,
  text TEXT NOT NULL);
CREATE INDEX passages_document ON passages(document_id, idx);
CREATE TABLE annotations(
  passage_id INTEGER NOT NULL REFERENCES passages(id) ON DELETE CASCADE,
  offset INTEGER NOT NULL,
  length INTEGER NOT NULL,
  text TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL DEFAULT '',
  concept TEXT NOT NULL DEFAULT '');
CREATE INDEX annotations_passage ON annotations(passage_id);
CREATE VIRTUAL TABLE passages_fts USING fts5(text, content='passages', content_rowid='id', tokenize='porter unicode61');
CREATE TRIGGER passages_fts_insert AFTER INSERT ON passages BEGIN
  INSERT INTO passages_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER passages_fts_delete AFTER DELETE ON passages BEGIN
  INSERT INTO passages_fts(passages_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
)SQL";

// Schema version 7: the source rows behind a node (a BEL statement of one term, "p(HGNC:AKT1)" under its citation
// and evidence), as edge_evidence is behind an edge: with their dataset and their node.
const char *kSchemaV7 = R"SQL(
CREATE TABLE node_evidence(
  id INTEGER PRIMARY KEY,
  node_id INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  line INTEGER NOT NULL,
  record TEXT NOT NULL,
  raw TEXT NOT NULL DEFAULT '');
CREATE INDEX node_evidence_node ON node_evidence(node_id);
CREATE INDEX node_evidence_dataset ON node_evidence(dataset_id);
)SQL";

// Schema version 8: community reports (grappi/communities.hpp), one set per name: when and at which generation of
// the graph they were built, their parameters (JSON) and the reports (a JSON array); not part of the graph.
const char *kSchemaV8 = R"SQL(
CREATE TABLE community_sets(
  name TEXT PRIMARY KEY,
  generation INTEGER NOT NULL,
  spec TEXT NOT NULL,
  reports TEXT NOT NULL,
  created_at TEXT NOT NULL) WITHOUT ROWID;
)SQL";

// Schema version 9: the embedding models' small columns in a covering index, so that listing the models or looking
// one up never reads through a model's state (megabytes of overflow pages stand before version and created_at).
const char *kSchemaV9 = R"SQL(
CREATE INDEX IF NOT EXISTS embedding_models_meta ON embedding_models(name, id, kind, dim, version, created_at, config);
)SQL";

// Schema version 10: co-occurrence graphs stored compactly (docs/literature.md "Storage"). An edge's evidence is a
// blob (edges.evidence) of its document numbers, delta-coded; the documents (PubMed ids, years) and
// the concepts' unit counts are stored once per dataset, and the records import gave (count, NPMI, Jaccard, PubMed
// ids, years, unit counts) are computed from them when read.
const char *kSchemaV10 = R"SQL(
CREATE TABLE cooc_sets(
  dataset_id INTEGER PRIMARY KEY REFERENCES datasets(id) ON DELETE CASCADE,
  unit TEXT NOT NULL,
  units_total INTEGER NOT NULL);
CREATE TABLE cooc_concepts(
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  node_id INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  units INTEGER NOT NULL,
  PRIMARY KEY(dataset_id, node_id)) WITHOUT ROWID;
CREATE TABLE cooc_documents(
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  document TEXT NOT NULL,
  year INTEGER NOT NULL,
  PRIMARY KEY(dataset_id, idx)) WITHOUT ROWID;
)SQL";

}  // namespace

bool schema_outdated(Db &db) {
  Stmt st(db, "PRAGMA user_version");
  const int64_t version = st.step() ? st.col_int(0) : 0;
  return version > 0 && version < kSchemaVersion;
}

void open_schema(Db &db, bool read_only, int cache_mib) {
  db.exec("PRAGMA foreign_keys=ON");
  db.exec(("PRAGMA cache_size=-" + std::to_string(static_cast<long long>(cache_mib) * 1024)).c_str());
  db.exec("PRAGMA temp_store=MEMORY");
  int64_t version = 0;
  {
    Stmt st(db, "PRAGMA user_version");
    if (st.step()) version = st.col_int(0);
  }
  if (version > kSchemaVersion)
    throw Error(ErrorCode::database, "database '" + db.path() + "' has schema version " +
                                         std::to_string(version) + ", newer than this grappi (" +
                                         std::to_string(kSchemaVersion) + "); upgrade grappi");
  if (version == 0) {
    Stmt st(db, "SELECT count(*) FROM sqlite_schema");
    st.step();
    if (st.col_int(0) != 0)
      throw Error(ErrorCode::database,
                  "'" + db.path() + "' is an SQLite database but not a grappi knowledge base");
    if (read_only)
      throw Error(ErrorCode::database, "'" + db.path() + "' is empty and opened read-only");
  }
  // 16 KiB pages: fewer, fuller B-tree pages for the edge table (measurably faster bulk
  // imports than the 4 KiB default). Only takes effect before the first table is created.
  if (version == 0) db.exec("PRAGMA page_size=16384");
  if (!read_only) {
    // (a new file's change to WAL takes the write lock from within a read: two processes opening
    // it at once deadlock, and SQLite answers one of them "database is locked" at once, without
    // waiting; that one tries again, for up to about 10 s)
    for (int attempt = 0; !db.exec_unless_busy("PRAGMA journal_mode=WAL"); ++attempt) {
      if (attempt == 400)
        throw Error(ErrorCode::database, "database '" + db.path() + "': locked by another process for 10 s while "
                                         "it was being switched to WAL");
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    db.exec("PRAGMA synchronous=NORMAL");
  }
  if (version == 0) {
    Savepoint sp(db, "grappi_schema");  // (the write lock first: another writer creating it is waited for)
    Stmt made(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'meta'");
    made.step();
    if (made.col_int(0) != 0) {  // (it did, while this one waited)
      sp.commit();
      return;
    }
    db.exec(kSchemaV1);
    db.exec(kSchemaV2);
    db.exec(kSchemaV3);
    db.exec(kSchemaV4);
    db.exec(kSchemaV5);
    db.exec(kSchemaV6);
    db.exec(kSchemaV7);
    db.exec(kSchemaV8);
    db.exec(kSchemaV9);
    db.exec(kSchemaV10);
    Stmt ins(db, "INSERT INTO meta(key, value) VALUES(?, ?)");
    ins.bind(1, "schema_version").bind(2, std::to_string(kSchemaVersion)).run();
    ins.bind(1, "created_by").bind(2, std::string("grappi ") + GRAPPI_VERSION_STRING).run();
    ins.bind(1, "created_at").bind(2, utc_now()).run();
    ins.bind(1, "generation").bind(2, "0").run();
    ins.bind(1, "instance").bind(2, random_hex(16)).run();
    db.exec(("PRAGMA user_version=" + std::to_string(kSchemaVersion)).c_str());
    sp.commit();
  } else if (version < kSchemaVersion && read_only) {
    throw Error(ErrorCode::database, "database '" + db.path() + "' has schema version " + std::to_string(version) +
                                         " and must be upgraded: open it once read-write");
  } else if (!read_only) {
    if (version < kSchemaVersion) {
      Savepoint sp(db, "grappi_migrate");
      {  // (another writer may have migrated it while this one waited for the lock)
        Stmt again(db, "PRAGMA user_version");
        if (again.step()) version = again.col_int(0);
      }
      if (version < 2) db.exec(kSchemaV2);
      if (version < 3) db.exec(kSchemaV3);
      if (version < 4) db.exec(kSchemaV4);
      if (version < 5) db.exec(kSchemaV5);
      if (version < 6) db.exec(kSchemaV6);
      if (version < 7) db.exec(kSchemaV7);
      if (version < 8) db.exec(kSchemaV8);
      if (version < 9) db.exec(kSchemaV9);
      if (version < 10) db.exec(kSchemaV10);
      db.exec(("UPDATE meta SET value = '" + std::to_string(kSchemaVersion) + "' WHERE key = 'schema_version'").c_str());
      db.exec(("PRAGMA user_version=" + std::to_string(kSchemaVersion)).c_str());
      sp.commit();
    }
    // Databases made by 0.1.0 development builds lack the instance id the snapshot cache uses
    // (written only then: an opening that writes would wait for another connection's writer).
    Stmt has(db, "SELECT count(*) FROM meta WHERE key = 'instance'");
    has.step();
    if (has.col_int(0) == 0) {
      Stmt ins(db, "INSERT OR IGNORE INTO meta(key, value) VALUES('instance', ?)");
      ins.bind(1, random_hex(16)).run();
    }
  }
}

int64_t taxon_of(std::string_view id) {
  auto dot = id.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot > 9) return 0;
  int64_t t = 0;
  for (std::size_t i = 0; i < dot; ++i) {
    if (id[i] < '0' || id[i] > '9') return 0;
    t = t * 10 + (id[i] - '0');
  }
  return t;
}

}  // namespace grappi::detail
