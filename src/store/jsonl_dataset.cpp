// JsonlDatasetWriter (jsonl_dataset.hpp): the lines are composed from the same parts
// nlohmann::json writes an object with (keys in order, no blanks), so a re-import of the file
// reads back exactly what was stored.
#include "store/jsonl_dataset.hpp"

#include <openssl/evp.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <unordered_set>

#include "grappi/error.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"
#include "store/graph_impl.hpp"
#include "store/import_writer.hpp"

namespace grappi::detail {

namespace {

std::string json_string(std::string_view s) { return dump_json(nlohmann::json(s)); }

}  // namespace

struct JsonlDatasetWriter::State {
  KnowledgeGraph::Impl &impl;
  std::unique_lock<std::mutex> lock;
  std::string path, part;
  std::ofstream out;
  EVP_MD_CTX *md = nullptr;
  uint64_t bytes = 0, line = 0, node_lines = 0, edge_lines = 0, records = 0;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::unique_ptr<Savepoint> all;
  std::unique_ptr<ImportWriter> w;
  std::unordered_set<int64_t> edges_seen;
  bool finished = false;

  explicit State(KnowledgeGraph::Impl &i) : impl(i), lock(i.mu) {}
  ~State() {
    if (md) EVP_MD_CTX_free(md);
    if (!finished) {
      if (out.is_open()) out.close();
      std::remove(part.c_str());
    }
  }
  void write(const std::string &text) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.put('\n');
    EVP_DigestUpdate(md, text.data(), text.size());
    EVP_DigestUpdate(md, "\n", 1);
    bytes += text.size() + 1;
    ++line;
    if (!out) throw Error(ErrorCode::io, "cannot write '" + part + "'");
  }
};

JsonlDatasetWriter::JsonlDatasetWriter(KnowledgeGraph &kg, const std::string &path)
    : s_(std::make_unique<State>(GraphAccess::impl(kg))) {
  State &s = *s_;
  s.impl.require_writable("import");
  s.path = path;
  s.part = path + ".part";
  s.out.open(s.part, std::ios::binary | std::ios::trunc);
  if (!s.out) throw Error(ErrorCode::io, "cannot write '" + path + "'");
  s.md = EVP_MD_CTX_new();
  if (!s.md || EVP_DigestInit_ex(s.md, EVP_sha256(), nullptr) != 1) throw Error(ErrorCode::io, "SHA-256 unavailable");
  s.all = std::make_unique<Savepoint>(s.impl.db, "grappi_import_all");
  s.w = std::make_unique<ImportWriter>(s.impl, path, "jsonl", 0, nlohmann::json{{"format", "jsonl"}});
  s.write(dump_json(nlohmann::json{{"format", "grappi-jsonl"}, {"version", 1}}));
}

JsonlDatasetWriter::~JsonlDatasetWriter() = default;

void JsonlDatasetWriter::node(const std::string &external_id, const std::string &name, const std::string &label,
                              const std::string &attributes_json) {
  State &s = *s_;
  // (keys in nlohmann's order: attributes, id, label, name, type)
  s.write("{\"attributes\":" + attributes_json + ",\"id\":" + json_string(external_id) + ",\"label\":" + json_string(label) +
          ",\"name\":" + json_string(name) + ",\"type\":\"node\"}");
  NodeInput n;
  n.external_id = external_id;
  n.name = name;
  n.label = label;
  n.attributes = attributes_json;
  s.w->define_node(n, 0);
  ++s.w->report().lines;
  ++s.node_lines;
}

void JsonlDatasetWriter::edge(const std::string &source, const std::string &target, const std::string &relation,
                              bool directed, double score, const std::string &evidence_json,
                              const std::vector<std::string> &records_json) {
  State &s = *s_;
  const uint64_t no = s.line + 1;
  std::string text = std::string("{\"directed\":") + (directed ? "true" : "false");
  if (!evidence_json.empty()) text += ",\"evidence\":" + evidence_json;
  if (!records_json.empty()) {
    text += ",\"records\":[";
    for (std::size_t i = 0; i < records_json.size(); ++i)
      text += (i ? ",{\"line\":" : "{\"line\":") + std::to_string(no) + ",\"record\":" + records_json[i] + "}";
    text += "]";
  }
  text += ",\"relation\":" + json_string(relation) + ",\"score\":" + dump_json(nlohmann::json(score)) +
          ",\"source\":" + json_string(source) + ",\"target\":" + json_string(target) + ",\"type\":\"edge\"}";
  s.write(text);
  const int64_t a = s.w->reference_node(source, "Protein"), b = s.w->reference_node(target, "Protein");
  const int64_t edge = s.w->add_edge(a, b, relation, directed, score, evidence_json, {});
  if (!s.edges_seen.insert(edge).second)
    throw Error(ErrorCode::invalid_argument, s.path + ":" + std::to_string(no) + ": edge " + source + " - " + target +
                                                 " (" + relation + ") listed twice");
  for (const std::string &r : records_json) s.w->add_evidence(edge, no, r, {});
  s.records += records_json.size();
  ++s.w->report().lines;
  ++s.edge_lines;
}

FileReport JsonlDatasetWriter::finish() {
  State &s = *s_;
  s.out.close();
  if (!s.out) throw Error(ErrorCode::io, "cannot write '" + s.path + "'");
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(s.md, digest, &n);
  const std::string sha = to_hex(digest, n);
  s.w->report().details = {{"node_lines", s.node_lines}, {"edge_lines", s.edge_lines}, {"evidence_records", s.records}};
  s.w->set_file_size(s.bytes);
  const FileReport r =
      s.w->finish(sha, std::chrono::duration<double>(std::chrono::steady_clock::now() - s.start).count());
  std::error_code ec;
  std::filesystem::rename(s.part, s.path, ec);
  if (ec) throw Error(ErrorCode::io, "cannot write '" + s.path + "': " + ec.message());
  if (!r.already_imported) s.impl.bump_generation();
  s.all->commit();
  s.finished = true;
  return r;
}

}  // namespace grappi::detail
