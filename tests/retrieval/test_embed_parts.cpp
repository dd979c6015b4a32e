// Embedding in parts (grappi/embed_parts.hpp, issue 42): the parts' vectors stored by
// embed_from_parts are the vectors, model and neighbor ranking of one embed_graph
// (lsa and hashing, parts of unequal size, a part missing: embedded here); damaged or foreign
// files are refused before anything is stored; a callback embedder does not travel.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;

namespace {

// Every vector of the default model, node by node, as bytes.
std::string all_vectors(const KnowledgeGraph &kg) {
  const auto v = grappi::graph_vectors(kg);
  std::string out;
  for (int64_t id : v->ids()) out.append(reinterpret_cast<const char *>(v->vector(id)), v->dim() * sizeof(float));
  return out;
}

}  // namespace

TEST_CASE("Vectors embedded in parts are the vectors model and neighbor ranking of one embed" * doctest::test_suite("heavy")) {
  TempDir d;
  const std::string base = d.file("base.db");
  {
    KnowledgeGraph kg(base);
    kg.import_string({{data("4932.protein.info.v12.0.txt.gz")}, {data("4932.protein.physical.links.v12.0.txt.gz")}});
  }
  for (const std::string kind : {"lsa", "hashing"}) {
    CAPTURE(kind);
    std::filesystem::copy_file(base, d.file(kind + "-one.db"));
    std::filesystem::copy_file(base, d.file(kind + "-parts.db"));
    grappi::EmbedderSpec spec;
    spec.kind = kind;
    KnowledgeGraph one(d.file(kind + "-one.db")), split(d.file(kind + "-parts.db"));
    const grappi::EmbedReport single = grappi::embed_graph(one, *grappi::make_embedder(one, spec));
    REQUIRE(single.embedded == 6600);
    // The embedder travels as a file; four parts (6600 = 4 x 1650), one of them never delivered.
    const std::string embedder_file = d.file(kind + ".embedder");
    grappi::save_embedder(*grappi::make_embedder(split, spec), embedder_file);
    CHECK(grappi::embed_pending(split, single.model) == 6600);
    std::vector<std::string> files;
    std::size_t embedded = 0;
    {
      KnowledgeGraph reader(d.file(kind + "-parts.db"), [] {
        grappi::OpenOptions o;
        o.read_only = true;
        return o;
      }());
      const auto worker = grappi::load_embedder(embedder_file);
      CHECK(worker->model() == single.model);
      for (std::size_t part = 0; part < 4; ++part) {
        files.push_back(d.file(kind + ".v" + std::to_string(part)));
        const grappi::EmbedPartReport r = grappi::embed_part(reader, *worker, part, 4, files.back(), R"({"worker": "w1"})");
        CHECK(r.pending == 6600);
        CHECK(r.embedded == 1650);
        embedded += r.embedded;
      }
    }
    CHECK(embedded == 6600);
    files.pop_back();  // (the fourth part lost: embedded where the parts are merged)
    const grappi::EmbedPartsReport r = grappi::embed_from_parts(split, *grappi::load_embedder(embedder_file), files);
    CHECK(r.embed.model == single.model);
    CHECK(r.embed.embedded == 6600);
    CHECK(r.from_parts == 4950);
    CHECK(r.embedded_here == 1650);
    REQUIRE(r.provenance.size() == 3);
    CHECK(r.provenance[0].find("\"worker\":\"w1\"") != std::string::npos);
    CHECK(r.provenance[2].find("\"part\":2") != std::string::npos);
    CHECK(r.provenance[2].find("\"grappi\":") != std::string::npos);
    CHECK(all_vectors(split) == all_vectors(one));
    CHECK(read_file(grappi::neighbor_ranking_path(split)) == read_file(grappi::neighbor_ranking_path(one)));
    CHECK(split.embedding_models().at(0).name == one.embedding_models().at(0).name);
    // Nothing pending afterwards: a part of nothing.
    CHECK(grappi::embed_pending(split, single.model) == 0);
    const grappi::EmbedPartReport none = grappi::embed_part(split, *grappi::load_embedder(embedder_file), 0, 3, d.file("none"));
    CHECK(none.embedded == 0);
    CHECK(grappi::embed_from_parts(split, *grappi::load_embedder(embedder_file), {d.file("none")}).embed.embedded == 0);
  }
  // Seven parts of 6600: 943 x 6 + 942, the first ones one longer.
  KnowledgeGraph kg(base);
  grappi::EmbedderSpec hashing;
  hashing.kind = "hashing";
  const auto e = grappi::make_embedder(kg, hashing);
  CHECK(grappi::embed_part(kg, *e, 0, 7, d.file("p0")).embedded == 943);
  CHECK(grappi::embed_part(kg, *e, 6, 7, d.file("p6")).embedded == 942);
  CHECK_THROWS_AS(grappi::embed_part(kg, *e, 7, 7, d.file("p7")), grappi::Error);
  CHECK_THROWS_AS(grappi::embed_part(kg, *e, 0, 0, d.file("p7")), grappi::Error);
  CHECK_THROWS_WITH_AS(grappi::embed_part(kg, *e, 0, 7, d.file("p7"), "[1]"), doctest::Contains("JSON object"), grappi::Error);
  CHECK_FALSE(std::filesystem::exists(d.file("p7")));
}

TEST_CASE("Damaged or foreign embedder and vectors files are refused with nothing stored") {
  TempDir d;
  KnowledgeGraph kg(d.file("k.db"));
  kg.import_string({{data("4932.protein.info.v12.0.txt.gz")}});
  grappi::EmbedderSpec spec;
  spec.kind = "hashing";
  const auto e = grappi::make_embedder(kg, spec);
  grappi::save_embedder(*e, d.file("e"));
  grappi::embed_part(kg, *e, 0, 2, d.file("v0"));
  const std::string good = read_file(d.file("v0")), embedder = read_file(d.file("e"));
  const auto refused = [&](const std::string &name, const std::string &content, const std::string &message,
                           grappi::ErrorCode code = grappi::ErrorCode::parse) {
    CAPTURE(name);
    write_file(d.file(name), content);
    try {
      grappi::embed_from_parts(kg, *e, {d.file("v0"), d.file(name)});
      FAIL("accepted");
    } catch (const grappi::Error &err) {
      CHECK(err.code() == code);
      CHECK(std::string(err.what()).find(message) != std::string::npos);
      CHECK(std::string(err.what()).find(name) != std::string::npos);
    }
    CHECK(kg.embedding_models().empty());  // (nothing stored)
  };
  refused("empty", "", "not such a file");
  refused("text", "hello\n", "not such a file");
  refused("no-header", "grappi-vectors 1\n", "no header");
  refused("bad-json", "grappi-vectors 1\n{\"model\":\n", "malformed header");
  refused("truncated", good.substr(0, good.size() - 3), "truncated");
  refused("longer", good + "x", "truncated");
  std::string no_hash = good;
  no_hash[no_hash.find('\n', no_hash.find('\n') + 1) + 1] = 'Z';
  refused("no-hash", no_hash, "no text hash");
  std::string nan = good;
  const float bad = std::nanf("");
  std::memcpy(&nan[nan.size() - sizeof(float)], &bad, sizeof(float));
  refused("nan", nan, "non-finite");
  std::string other = good;
  const std::size_t at = other.find(e->model());
  other.replace(at, e->model().size(), "someone-else");
  refused("other-model", other, "not '" + e->model() + "'", grappi::ErrorCode::invalid_argument);
  // Embedder files.
  write_file(d.file("e-truncated"), embedder.substr(0, embedder.size() - 1));
  CHECK_THROWS_WITH_AS(grappi::load_embedder(d.file("e-truncated")), doctest::Contains("bytes of state"), grappi::Error);
  write_file(d.file("e-vectors"), good);
  CHECK_THROWS_WITH_AS(grappi::load_embedder(d.file("e-vectors")), doctest::Contains("not such a file"), grappi::Error);
  std::string callback_kind = embedder;
  callback_kind.replace(callback_kind.find("\"hashing\""), 9, "\"unknown\"");
  write_file(d.file("e-kind"), callback_kind);
  CHECK_THROWS_WITH_AS(grappi::load_embedder(d.file("e-kind")), doctest::Contains("of kind 'unknown'"), grappi::Error);
  CHECK_THROWS_AS(grappi::load_embedder(d.file("no-such-file")), grappi::Error);
  grappi::CallbackEmbedder cb("cb", 4, [](const std::vector<std::string> &texts) {
    grappi::Embeddings out;
    out.dim = 4;
    out.data.assign(texts.size() * 4, 0.5f);
    return out;
  });
  CHECK_THROWS_WITH_AS(grappi::save_embedder(cb, d.file("cb")), doctest::Contains("cannot be written"), grappi::Error);
}
