// Embedding in parts (grappi/embed_parts.hpp; docs/distributed.md "Embeddings"): the embedder in
// a file, a worker's run of the pending texts embedded into a vectors file, the files' vectors
// stored through embed_graph by an embedder that looks them up.
//
// An embedder file: "grappi-embedder 1", a JSON line {kind, config, model, dimension,
// state_bytes}, then the state's bytes. A vectors file: "grappi-vectors 1", a JSON line {model,
// kind, dimension, count, part, parts, byte_order, provenance}, then `count` records of the
// text's hash (32 hex characters) and `dimension` little-endian floats. Sizes are checked
// against the header before a vector is taken.
#include "grappi/embed_parts.hpp"

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "common/json_input.hpp"
#include "common/part_files.hpp"
#include "common/text_reader.hpp"
#include "grappi/error.hpp"
#include "grappi/graph_embeddings.hpp"
#include "grappi/json_text.hpp"
#include "retrieval/embedder_state.hpp"
#include "store/embed_pending.hpp"
#include "store/graph_impl.hpp"

namespace grappi {

namespace {

using nlohmann::json;

constexpr const char *kEmbedderMagic = "grappi-embedder 1";
constexpr const char *kVectorsMagic = "grappi-vectors 1";
constexpr std::size_t kHashChars = 32;

[[noreturn]] void bad_file(const char *what, const std::string &path, const std::string &why) {
  throw Error(ErrorCode::parse, std::string(what) + " '" + path + "': " + why);
}

// Reads the two header lines of a file of ours: the parsed JSON and where the payload starts.
std::pair<json, std::streamoff> read_parts_header(std::ifstream &in, const char *magic, const char *what,
                                                  const std::string &path) {
  if (!detail::read_magic_line(in, magic))
    bad_file(what, path, "not such a file (line 1 is not \"" + std::string(magic) + "\")");
  std::string line;
  if (!std::getline(in, line)) bad_file(what, path, "no header (line 2)");
  try {
    json j = json::parse(line);
    if (!j.is_object()) bad_file(what, path, "the header (line 2) is not a JSON object");
    return {std::move(j), static_cast<std::streamoff>(std::strlen(magic) + 1 + line.size() + 1)};
  } catch (const json::exception &e) {
    bad_file(what, path, std::string("a malformed header (line 2): ") + e.what());
  }
}

uintmax_t size_of(const std::string &path) {
  std::error_code ec;
  const uintmax_t n = std::filesystem::file_size(path, ec);
  if (ec) throw Error(ErrorCode::io, "cannot read '" + path + "': " + ec.message());
  return n;
}

// The vectors of parts' files by text hash, checked.
struct PartVectors {
  std::string model;
  std::size_t dim = 0;
  std::unordered_map<std::string, std::vector<float>> by_hash;
  std::vector<std::string> provenance;
};

void read_vectors_file(const std::string &path, PartVectors &into) {
  constexpr const char *what = "embedding vectors";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::io, std::string(what) + ": cannot read '" + path + "'");
  const auto [h, data] = read_parts_header(in, kVectorsMagic, what, path);
  std::string model;
  std::size_t dim = 0;
  uint64_t count = 0;
  try {
    model = h.at("model").get<std::string>();
    dim = detail::json_integer<std::size_t>(h.at("dimension"));
    count = detail::json_integer<uint64_t>(h.at("count"));
    if (h.at("byte_order").get<std::string>() != "little" || !detail::little_endian_host())
      bad_file(what, path, "its vectors are not in this machine's byte order");
    into.provenance.push_back(dump_json(h.value("provenance", json::object())));
  } catch (const json::exception &e) {
    bad_file(what, path, std::string("a malformed header (line 2): ") + e.what());
  }
  if (count > 0 && (dim == 0 || dim > (std::size_t{1} << 20))) bad_file(what, path, "a dimension of " + std::to_string(dim));
  if (!into.model.empty() && model != into.model)
    throw Error(ErrorCode::invalid_argument, std::string(what) + " '" + path + "': vectors of model '" + model + "', not '" + into.model + "'");
  if (count > 0 && into.dim && dim != into.dim)
    throw Error(ErrorCode::invalid_argument, std::string(what) + " '" + path + "': vectors of dimension " + std::to_string(dim) +
                                                 ", the others have " + std::to_string(into.dim));
  const uintmax_t record = kHashChars + dim * sizeof(float);
  const uintmax_t expected = static_cast<uintmax_t>(data) + count * record;
  if ((record && count > (UINTMAX_MAX - static_cast<uintmax_t>(data)) / record) || size_of(path) != expected)
    bad_file(what, path, "the header announces " + std::to_string(count) + " vectors (" + std::to_string(expected) +
                             " bytes in all) but the file has " + std::to_string(size_of(path)) + " (truncated, or not written whole)");
  into.model = model;
  if (count) into.dim = dim;
  std::string hash(kHashChars, '\0');
  for (uint64_t i = 0; i < count; ++i) {
    std::vector<float> v(dim);
    in.read(hash.data(), static_cast<std::streamsize>(kHashChars));
    in.read(reinterpret_cast<char *>(v.data()), static_cast<std::streamsize>(dim * sizeof(float)));
    if (!in) bad_file(what, path, "vector " + std::to_string(i + 1) + " cannot be read");
    if (hash.find_first_not_of("0123456789abcdef") != std::string::npos)
      bad_file(what, path, "vector " + std::to_string(i + 1) + " has no text hash");
    for (float x : v)
      if (!std::isfinite(x)) bad_file(what, path, "vector " + std::to_string(i + 1) + " holds a non-finite value");
    into.by_hash[hash] = std::move(v);
  }
}

// The embedder embed_graph is given: the real one's identity (name, kind,
// configuration, state: the stored model is the one a single `grappi embed` stores), the parts'
// vectors for the texts they hold, the real one for any other.
class PartsEmbedder : public Embedder {
 public:
  PartsEmbedder(Embedder &real, PartVectors &vectors) : real_(real), v_(vectors) {}
  std::string model() const override { return real_.model(); }
  std::size_t dimension() const override { return real_.dimension() ? real_.dimension() : v_.dim; }
  std::string kind() const override { return real_.kind(); }
  std::string config() const override { return real_.config(); }
  std::string state() const override { return real_.state(); }
  Embeddings embed(const std::vector<std::string> &texts) override {
    std::vector<std::size_t> missing;
    std::vector<const std::vector<float> *> found(texts.size(), nullptr);
    for (std::size_t i = 0; i < texts.size(); ++i) {
      const auto it = v_.by_hash.find(detail::embedding_text_hash(texts[i]));
      if (it != v_.by_hash.end()) found[i] = &it->second;
      else missing.push_back(i);
    }
    Embeddings here;
    if (!missing.empty()) {
      std::vector<std::string> rest;
      for (std::size_t i : missing) rest.push_back(texts[i]);
      here = real_.embed(rest);
      if (here.rows() != rest.size())
        throw Error(ErrorCode::invalid_argument, "embedder '" + real_.model() + "' returned " + std::to_string(here.rows()) +
                                                     " vectors for " + std::to_string(rest.size()) + " texts");
      if (v_.dim && here.dim != v_.dim)
        throw Error(ErrorCode::invalid_argument, "embedder '" + real_.model() + "' returns vectors of dimension " +
                                                     std::to_string(here.dim) + ", the parts' have " + std::to_string(v_.dim));
      embedded_here += rest.size();
    }
    Embeddings out;
    out.dim = v_.dim ? v_.dim : here.dim;
    out.data.resize(texts.size() * out.dim);
    std::size_t next_missing = 0;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      const float *src = found[i] ? found[i]->data() : here.row(next_missing++);
      std::memcpy(out.row(i), src, out.dim * sizeof(float));
      from_parts += found[i] != nullptr;
    }
    return out;
  }
  std::size_t from_parts = 0, embedded_here = 0;

 private:
  Embedder &real_;
  PartVectors &v_;
};

}  // namespace

void save_embedder(const Embedder &embedder, const std::string &path) {
  const std::string kind = embedder.kind();
  if (kind != "hashing" && kind != "lsa" && kind != "openai")
    throw Error(ErrorCode::invalid_argument, "save_embedder: a " + kind + " embedder cannot be written for other processes (hashing, lsa and openai can)");
  const std::string state = kind == "openai" ? std::string() : embedder.state();
  const json header = {{"format", "grappi-embedder"}, {"version", 1},         {"kind", kind},
                       {"config", embedder.config()}, {"model", embedder.model()}, {"dimension", embedder.dimension()},
                       {"state_bytes", state.size()}};
  detail::write_file_atomically(path, [&](std::ostream &out) {
    out << kEmbedderMagic << '\n' << dump_json(header) << '\n';
    out.write(state.data(), static_cast<std::streamsize>(state.size()));
  }, "embedder");
}

std::unique_ptr<Embedder> load_embedder(const std::string &path) {
  constexpr const char *what = "embedder";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::io, std::string(what) + ": cannot read '" + path + "'");
  const auto [h, data] = read_parts_header(in, kEmbedderMagic, what, path);
  std::string kind, config, model;
  uint64_t state_bytes = 0;
  try {
    kind = h.at("kind").get<std::string>();
    config = h.at("config").get<std::string>();
    model = h.at("model").get<std::string>();
    state_bytes = detail::json_integer<uint64_t>(h.at("state_bytes"));
  } catch (const json::exception &e) {
    bad_file(what, path, std::string("a malformed header (line 2): ") + e.what());
  }
  if (size_of(path) != static_cast<uintmax_t>(data) + state_bytes)
    bad_file(what, path, "the header announces " + std::to_string(state_bytes) + " bytes of state, the file holds " +
                             std::to_string(size_of(path) - static_cast<uintmax_t>(data)));
  std::string state(state_bytes, '\0');
  in.read(state.data(), static_cast<std::streamsize>(state_bytes));
  if (!in) bad_file(what, path, "its state cannot be read");
  std::unique_ptr<Embedder> e;
  try {
    e = detail::restore_embedder(kind, config, state);
    if (!e) bad_file(what, path, "an embedder of kind '" + kind + "' (hashing, lsa or openai)");
  } catch (const Error &err) {
    if (err.code() == ErrorCode::parse) throw;
    bad_file(what, path, std::string("its state does not re-create the embedder: ") + err.what());
  } catch (const std::exception &err) {
    bad_file(what, path, std::string("its state does not re-create the embedder: ") + err.what());
  }
  if (e->model() != model) bad_file(what, path, "it re-creates model '" + e->model() + "', not '" + model + "'");
  return e;
}

// The texts a model lacks, read in one transaction.
static detail::PendingTexts read_pending(const KnowledgeGraph &kg, const std::string &model) {
  KnowledgeGraph::Impl &m = detail::GraphAccess::impl(kg);
  std::lock_guard<std::mutex> lock(m.mu);
  detail::Savepoint read(m.db, "grappi_embed_part", false);
  return detail::pending_texts(m.db, detail::embedding_model_id(m.db, model));
}

std::size_t embed_pending(const KnowledgeGraph &kg, const std::string &model) { return read_pending(kg, model).todo.size(); }

EmbedPartReport embed_part(const KnowledgeGraph &kg, Embedder &embedder, std::size_t part, std::size_t parts,
                           const std::string &path, const std::string &provenance, const EmbedOptions &options) {
  const auto t0 = std::chrono::steady_clock::now();
  if (parts == 0 || part >= parts)
    throw Error(ErrorCode::invalid_argument, "embed_part: part " + std::to_string(part) + " of " + std::to_string(parts));
  json prov = detail::part_provenance(provenance, "embed_part");
  EmbedPartReport rep;
  rep.path = path;
  rep.model = embedder.model();
  rep.part = part;
  rep.parts = parts;
  const detail::PendingTexts pending = read_pending(kg, rep.model);
  rep.pending = pending.todo.size();
  // (consecutive runs in node order, the first ones one longer when they do not divide evenly)
  const std::size_t n = pending.todo.size(), base = n / parts, extra = n % parts;
  const std::size_t begin = part * base + std::min(part, extra), end = begin + base + (part < extra ? 1 : 0);
  const std::size_t batch = std::max<std::size_t>(1, options.batch_size);
  Embeddings all;
  for (std::size_t i = begin; i < end; i += batch) {
    std::vector<std::string> texts;
    const std::size_t stop = std::min(end, i + batch);
    for (std::size_t j = i; j < stop; ++j) texts.push_back(pending.todo[j].text);
    Embeddings e = embedder.embed(texts);
    if (e.rows() != texts.size())
      throw Error(ErrorCode::invalid_argument, "embedder '" + rep.model + "' returned " + std::to_string(e.rows()) +
                                                   " vectors for " + std::to_string(texts.size()) + " texts");
    if (all.dim && e.dim != all.dim)
      throw Error(ErrorCode::invalid_argument, "embedder '" + rep.model + "' changed its vectors' dimension");
    for (float x : e.data)
      if (!std::isfinite(x)) throw Error(ErrorCode::invalid_argument, "embedder '" + rep.model + "' returned a non-finite value");
    all.dim = e.dim;
    all.data.insert(all.data.end(), e.data.begin(), e.data.end());
    if (options.progress) options.progress(stop - begin, end - begin);
  }
  rep.embedded = end - begin;
  rep.dimension = all.dim ? all.dim : embedder.dimension();
  prov["part"] = part;
  prov["parts"] = parts;
  const json header = {{"format", "grappi-vectors"}, {"version", 1},          {"byte_order", "little"},
                       {"model", rep.model},         {"kind", embedder.kind()}, {"dimension", rep.dimension},
                       {"count", rep.embedded},      {"part", part},            {"parts", parts},
                       {"provenance", std::move(prov)}};
  detail::write_file_atomically(path, [&](std::ostream &out) {
    out << kVectorsMagic << '\n' << dump_json(header) << '\n';
    for (std::size_t i = begin; i < end; ++i) {
      out.write(pending.hashes[i].data(), static_cast<std::streamsize>(kHashChars));
      out.write(reinterpret_cast<const char *>(all.row(i - begin)), static_cast<std::streamsize>(all.dim * sizeof(float)));
    }
  }, "embedding vectors");
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

EmbedPartsReport embed_from_parts(KnowledgeGraph &kg, Embedder &embedder, const std::vector<std::string> &parts,
                                  const EmbedOptions &options) {
  PartVectors vectors;
  vectors.model = embedder.model();
  for (const std::string &p : parts) read_vectors_file(p, vectors);  // (all checked before anything is stored)
  if (vectors.dim && embedder.dimension() && vectors.dim != embedder.dimension())
    throw Error(ErrorCode::invalid_argument, "embed_from_parts: the parts' vectors have dimension " + std::to_string(vectors.dim) +
                                                 ", the embedder's " + std::to_string(embedder.dimension()));
  PartsEmbedder looked_up(embedder, vectors);
  EmbedPartsReport rep;
  rep.embed = grappi::embed_graph(kg, looked_up, options);
  rep.from_parts = looked_up.from_parts;
  rep.embedded_here = looked_up.embedded_here;
  rep.provenance = std::move(vectors.provenance);
  return rep;
}

}  // namespace grappi
