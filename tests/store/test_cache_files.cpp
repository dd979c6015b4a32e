// The files a reader keeps beside a database for the next process (docs/database.md): "<db>.names.*"
// (src/store/entity_cache.cpp), the name dictionary a tagger derived, and "<db>.vec"
// (src/retrieval/graph_vectors.cpp), a model's vectors and its stored embedder — each used only
// when it is intact and of exactly this database content (and options, and build); otherwise
// derived again and rewritten. (The snapshot's "<db>.csr": tests/store/test_snapshot.cpp.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "common/mapped_file.hpp"
#include "common/section_file.hpp"
#include "grappi/grappi.hpp"
#include "test_util.hpp"

using namespace testutil;
using grappi::KnowledgeGraph;

namespace {

void make_graph(const std::string &path) {
  KnowledgeGraph kg(path);
  const auto add = [&](const char *id, const char *name, const char *annotation) {
    return kg.add_node({id, name, "Protein", annotation, 0, "{}"});
  };
  const int64_t tp53 = add("9606.ENSP00000269305", "TP53", "Cellular tumor antigen p53; Acts as a tumor suppressor");
  const int64_t mdm2 = add("9606.ENSP00000258149", "MDM2", "E3 ubiquitin-protein ligase Mdm2; Inhibits p53");
  const int64_t ctnnb1 = add("9606.ENSP00000344456", "CTNNB1", "Catenin beta-1; Key downstream component of Wnt");
  const int64_t aldoc = add("9606.ENSP00000226253", "ALDOC", "Fructose-bisphosphate aldolase C; Zebrin II");
  const int64_t yeast = add("4932.YBR160W", "CDC28", "Cyclin-dependent kinase");
  kg.add_alias(tp53, "p53", "BLAST_UniProt_GN");
  kg.add_alias(tp53, "tumor protein p53", "mapping:gene_name");
  kg.add_alias(ctnnb1, "catenin beta 1", "mapping:gene_name");
  kg.add_alias(aldoc, "Zebrin", "BLAST_UniProt_GN");
  kg.add_alias(aldoc, "P09972", "UniProt_AC");
  kg.add_alias(yeast, "CDK1", "BLAST_UniProt_GN");
  grappi::EdgeInput e;
  e.source = tp53;
  e.target = mdm2;
  e.relation = "string.combined";
  e.score = 0.9;
  kg.add_edge(e);
}

// What a tagger finds, as text: every mention's span, status and chosen entity, and the links.
std::string finds(const grappi::EntityTagger &t) {
  std::string out = std::to_string(t.names()) + '\n';
  for (const char *text : {"p53 binds MDM2 and beta-catenin; Zebrin marks Purkinje cells.",
                           "Cdc28 (CDK1) in yeast, and tumor protein p53 in human cells", "P09972 and zebrin"})
    for (const grappi::EntityMention &m : t.tag(std::string_view(text))) {
      out += std::to_string(m.offset) + ' ' + m.text + ' ' + m.status + ' ' + (m.entity() ? m.entity()->id : "-") + ' ' +
             std::to_string(m.candidates.size()) + '\n';
    }
  for (const char *name : {"p53", "Zebrin", "catenin beta 1", "CDK1"}) {
    const grappi::EntityMention m = t.link(name);
    out += std::string(name) + ' ' + m.status + ' ' + (m.entity() ? m.entity()->id : "-") + '\n';
  }
  for (const grappi::EntityCandidate &c : t.by_id("P09972")) out += "id " + c.id + '\n';
  return out;
}

std::string tagged(const std::string &db) {
  KnowledgeGraph kg(db);
  return finds(grappi::EntityTagger(kg));
}

// Writes the file again from `parts`, section `index` replaced (its checksums made right).
void rewrite_section(const std::string &file, const char (&magic)[16], const std::vector<std::string> &parts, std::size_t index,
                     const std::string &replacement) {
  std::vector<grappi::detail::FilePiece> pieces;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string &p = i == index ? replacement : parts[i];
    pieces.push_back({p.data(), p.size()});
  }
  grappi::detail::write_section_file(file, magic, pieces, "test");
}

// The file's sections, read by a SectionFile (so a test can change one and make its checksums again).
std::vector<std::string> sections_of(const std::string &path, std::size_t count, char (&magic)[16]) {
  const auto mapped = grappi::detail::MappedFile::open(path);
  REQUIRE(mapped);
  std::memcpy(magic, mapped->data(), 16);
  grappi::detail::SectionFile f;
  REQUIRE(f.open(*mapped, magic, count));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count; ++i) {
    REQUIRE(f.intact(i));
    out.emplace_back(static_cast<const char *>(f[i].data), f[i].size);
  }
  return out;
}

// One flipped byte at each of `offsets`: the file is refused, `read` gives what it gave from the
// intact file, and the file is rewritten as it was.
template <class Read, class Value>
void check_flipped_bytes(const std::string &file, const std::string &good, const std::vector<std::size_t> &offsets, char bit,
                         Read read, const Value &expected) {
  for (std::size_t at : offsets) {
    CAPTURE(at);
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ bit);
    write_file(file, bad);
    CHECK(read() == expected);
    CHECK(read_file(file) == good);
  }
}

}  // namespace

TEST_CASE("the name dictionary file is read back only when intact and of this content") {
  TempDir d;
  const std::string db = d.file("n.db");
  make_graph(db);
  const std::string built = tagged(db);  // derived, and the file written
  const std::vector<std::string> files = files_starting(db + ".names.");
  REQUIRE(files.size() == 1);
  const std::string file = files[0];
  REQUIRE(built.find("Zebrin unique 9606.ENSP00000226253") != std::string::npos);
  REQUIRE(built.find("id 9606.ENSP00000226253") != std::string::npos);
  const std::string good = read_file(file);
  REQUIRE(good.size() > 200);
  CHECK(tagged(db) == built);  // read back: the same findings
  CHECK(read_file(file) == good);

  // The file is what the next tagger uses: a name changed in it (its checksums made again, its
  // keys still in order) is found, and the name it replaced is not.
  {
    char magic[16];
    const std::vector<std::string> parts = sections_of(file, 2, magic);
    std::string payload = parts[1];
    std::size_t at = 0, n = 0;
    while ((at = payload.find("Zebrin", at)) != std::string::npos) payload.replace(at, 6, "Zebrim"), ++n;
    while ((at = payload.find("zebrin", 0)) != std::string::npos) payload.replace(at, 6, "zebrim"), ++n;
    REQUIRE(n > 0);
    rewrite_section(file, magic, parts, 1, payload);
  }
  {
    KnowledgeGraph kg(db);
    const grappi::EntityTagger t(kg);
    CHECK(t.link("Zebrim").status == "unique");
    CHECK(t.link("Zebrin").status == "ungrounded");
  }

  // One flipped byte anywhere: refused, derived again, rewritten as before.
  check_flipped_bytes(file, good, {2, 20, 60, 130, good.size() / 2, good.size() - 1}, 0x20, [&] { return tagged(db); }, built);
  write_file(file, good.substr(0, good.size() / 2));
  CHECK(tagged(db) == built);
  CHECK(read_file(file) == good);

  // A write to the database (an alias) makes the file stale: the new name is found.
  {
    KnowledgeGraph kg(db);
    kg.add_alias(kg.resolve("9606.ENSP00000258149"), "HDM2", "BLAST_UniProt_GN");
  }
  {
    KnowledgeGraph kg(db);
    CHECK(grappi::EntityTagger(kg).link("HDM2").status == "unique");
  }
  CHECK(read_file(file) != good);

  // Other options: another dictionary, in a file of its own (the first one's kept as it was).
  const std::string current = read_file(file);
  {
    KnowledgeGraph kg(db);
    grappi::EntityTaggerOptions o;
    o.labels = {"OntologyTerm"};
    CHECK(grappi::EntityTagger(kg, o).tag(std::string_view("MDM2 and p53")).empty());
    CHECK(grappi::EntityTagger(kg).link("HDM2").status == "unique");
  }
  CHECK(files_starting(db + ".names.").size() == 2);
  CHECK(read_file(file) == current);
  // Without the snapshot cache (nor an instance, in memory) no file is written.
  {
    grappi::OpenOptions o;
    o.snapshot_cache = false;
    const std::string other = d.file("nofile.db");
    make_graph(other);
    for (const std::string &f : files_starting(other + ".names.")) std::remove(f.c_str());
    KnowledgeGraph kg(other, o);
    CHECK(grappi::EntityTagger(kg).names() > 0);
    CHECK(files_starting(other + ".names.").empty());
  }
}

TEST_CASE("byte streams: varints round trip and a damaged stream stops reading") {
  grappi::detail::ByteWriter w;
  const std::vector<uint64_t> values = {0, 1, 127, 128, 300, 1ull << 35, ~0ull};
  for (uint64_t v : values) w.u64(v);
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{9606}, INT64_MIN, INT64_MAX}) w.i64(v);
  w.str("beta-catenin");
  grappi::detail::ByteReader r(w.bytes().data(), w.bytes().size());
  for (uint64_t v : values) CHECK(r.u64() == v);
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{9606}, INT64_MIN, INT64_MAX}) CHECK(r.i64() == v);
  CHECK(r.str() == "beta-catenin");
  CHECK(r.ok());
  CHECK(r.at_end());
  CHECK(r.u64() == 0);
  CHECK_FALSE(r.ok());
  // A count larger than what is left, a string past the end, an over-long varint.
  const std::string big = "\xff\xff\xff\xff\x0f";
  grappi::detail::ByteReader c(big.data(), big.size());
  CHECK(c.count() == 0);
  CHECK_FALSE(c.ok());
  const std::string s = "\x05" "abc";
  grappi::detail::ByteReader t(s.data(), s.size());
  CHECK(t.str().empty());
  CHECK_FALSE(t.ok());
  const std::string over(11, '\xff');
  grappi::detail::ByteReader o(over.data(), over.size());
  o.u64();
  CHECK_FALSE(o.ok());
}

namespace {

// A model's vectors as graph_vectors gives them, by ascending id, each with its cosine to itself.
std::vector<float> vectors_of(const std::string &db) {
  KnowledgeGraph kg(db);
  const auto v = grappi::graph_vectors(kg);
  std::vector<float> out;
  for (int64_t id : v->ids()) {
    const float *x = v->vector(id);
    out.insert(out.end(), x, x + v->dim());
    out.push_back(v->score(x, id, grappi::Metric::cosine));
  }
  return out;
}

std::vector<float> query_of(const std::string &db) {
  KnowledgeGraph kg(db);
  return grappi::query_vector(kg, "tumor suppressor ubiquitin ligase");
}

}  // namespace

TEST_CASE("the vector file is read back only when intact and of this model and generation") {
  TempDir d;
  const std::string db = d.file("v.db"), file = db + ".vec";
  make_graph(db);
  {
    KnowledgeGraph kg(db);
    grappi::LsaEmbedderOptions o;
    o.dimension = 4;
    grappi::LsaEmbedder e(o);
    grappi::embed_graph(kg, e);
  }
  std::remove(file.c_str());
  const std::vector<float> stored = vectors_of(db);  // read from the database, the file written
  const std::vector<float> query = query_of(db);
  const std::string good = read_file(file);
  REQUIRE(good.size() > 100);
  CHECK(vectors_of(db) == stored);  // read back: the same vectors and norms
  CHECK(query_of(db) == query);     // and the same embedder
  CHECK(read_file(file) == good);

  // The file is what the next reader uses: a value changed in it (checksums made again) is seen.
  char magic[16];
  std::vector<std::string> parts = sections_of(file, 7, magic);
  {
    std::string rows = parts[2];
    float x;
    std::memcpy(&x, rows.data(), sizeof x);
    x += 1.0f;
    std::memcpy(rows.data(), &x, sizeof x);
    rewrite_section(file, magic, parts, 2, rows);
    const std::vector<float> forged = vectors_of(db);
    REQUIRE(forged.size() == stored.size());
    CHECK(forged[0] == stored[0] + 1.0f);
  }
  // A state the embedder cannot be made from: the database's is used instead.
  rewrite_section(file, magic, parts, 6, "not a state");
  CHECK(query_of(db) == query);
  // One flipped byte anywhere: refused, read from the database, rewritten as before.
  check_flipped_bytes(file, good, {3, 40, 200, good.size() / 2, good.size() - 1}, 0x08, [&] { return vectors_of(db); }, stored);
  // Ids out of order (checksums made again): refused.
  {
    std::string ids = parts[1];
    REQUIRE(ids.size() >= 16);
    std::swap_ranges(ids.begin(), ids.begin() + 8, ids.begin() + 8);
    rewrite_section(file, magic, parts, 1, ids);
    CHECK(vectors_of(db) == stored);
  }
  // A new embedding (a new generation): the file is stale, the new vectors are read.
  {
    KnowledgeGraph kg(db);
    grappi::HashingEmbedderOptions o;
    o.dimension = 8;
    grappi::HashingEmbedder e(o);
    grappi::embed_graph(kg, e);
  }
  const std::vector<float> hashed = vectors_of(db);
  CHECK(hashed.size() == 5 * 9);  // (5 nodes, 8 values and a cosine each)
  CHECK(read_file(file) != good);
  CHECK(vectors_of(db) == hashed);
}
