// The neighbor ranking: every node's distinct neighbors ordered once by similarity to the node,
// kept in "<db>.knn" so that windows look their picks up instead of ranking on the fly; and the
// KnowledgeGraph's cached retriever, which loads it.
//
// The file (layout at save_neighbor_ranking) is mapped and used in place. Its fingerprint covers
// the snapshot's content (GraphSnapshot::fingerprint) and the unit vectors, so a file written for
// another graph state or other vectors is never used.
#include <algorithm>
#include <cstring>
#include <cmath>
#include <limits>
#include <mutex>
#include <ostream>

#include "common/mapped_file.hpp"
#include "common/text_reader.hpp"
#include "common/checksum.hpp"
#include "store/graph_impl.hpp"
#include "grappi/error.hpp"
#include "grappi/graph_embeddings.hpp"
#include "grappi/retriever.hpp"
#include "common/parallel.hpp"
#include "retrieval/similarity.hpp"

namespace grappi {

namespace {
constexpr char kRankMagic[16] = "grappi-knn-v3\n";
}  // namespace

uint64_t Retriever::fingerprint() const {
  const GraphSnapshot &g = *graph_;
  const uint64_t n = g.node_count(), d = dim_, content = g.fingerprint();
  uint64_t h = detail::checksum(0x6772617070696b6eull, &n, sizeof n);
  h = detail::checksum(h, &d, sizeof d);
  h = detail::checksum(h, &content, sizeof content);
  const uint64_t vectors = detail::checksum_wide(unit_.data(), unit_.size() * sizeof(float));  // (50 MB at human size)
  h = detail::checksum(h, &vectors, sizeof vectors);
  return detail::checksum(h, has_vec_.data(), has_vec_.size());
}

void Retriever::rank_neighbors(unsigned threads) {
  if (!vectors_) throw Error(ErrorCode::invalid_argument, "rank_neighbors: the retriever has no vectors");
  const GraphSnapshot &g = *graph_;
  const std::size_t n = g.node_count();
  std::vector<uint64_t> off(n + 1, 0);
  for (uint32_t u = 0; u < n; ++u) {
    const auto a = g.adjacency(u);
    uint64_t distinct = 0;
    for (std::size_t i = 0; i < a.size; ++i)
      distinct += a.neighbor[i] != u && (i == 0 || a.neighbor[i] != a.neighbor[i - 1]);
    off[u + 1] = off[u] + distinct;
  }
  std::vector<uint32_t> nodes(off[n]);
  const float ninf = -std::numeric_limits<float>::infinity();
  const unsigned hw = detail::hardware_threads();
  const std::size_t count = std::min(threads ? threads : hw, hw);
  // Nodes in blocks, so that each worker reuses its list buffer for many nodes.
  const std::size_t blocks = std::min<std::size_t>(n, 64 * count);
  detail::parallel_chunks(n, blocks, count, [&](std::size_t begin, std::size_t end, std::size_t) {
    std::vector<std::pair<float, uint32_t>> list;
    for (auto u = static_cast<uint32_t>(begin); u < end; ++u) {
      const auto a = g.adjacency(u);
      list.clear();
      for (std::size_t i = 0; i < a.size; ++i) {
        const uint32_t v = a.neighbor[i];
        if (v == u || (i > 0 && v == a.neighbor[i - 1])) continue;
        const float s = similarity(u, v);  // the function windows rank by: identical values
        list.emplace_back(std::isnan(s) ? ninf : s, v);
      }
      std::sort(list.begin(), list.end(), [&](const auto &x, const auto &y) {
        return x.first != y.first ? x.first > y.first : g.external_id(x.second) < g.external_id(y.second);
      });
      for (std::size_t k = 0; k < list.size(); ++k) nodes[off[u] + k] = list[k].second;
    }
  });
  rank_off_own_ = std::move(off);
  rank_nodes_own_ = std::move(nodes);
  rank_off_ = rank_off_own_.data();
  rank_nodes_ = rank_nodes_own_.data();
  rank_entries_ = rank_nodes_own_.size();
  rank_file_.reset();
  ranked_ = true;
}

// The file (v3): magic (16 bytes), then u64 byte-order tag, fingerprint, node count, entry count, the checksums
// of the two arrays and of these header fields; then at 64-byte boundaries (zeros between) the offsets (u64,
// nodes + 1) and the nodes (u32, entries), the last ending the file. Readers map it and use the arrays in place
// after checking all of it.
namespace {
constexpr uint64_t kRankByteOrder = 0x0102030405060708ull;
constexpr std::size_t kRankHeader = 16 + 7 * 8;
constexpr std::size_t up64(std::size_t x) { return (x + 63) / 64 * 64; }
}  // namespace

void Retriever::save_neighbor_ranking(const std::string &path) const {
  if (!ranked_) throw Error(ErrorCode::invalid_argument, "save_neighbor_ranking: no ranking (call rank_neighbors)");
  const uint64_t n = graph_->node_count();
  const std::size_t off_bytes = (n + 1) * sizeof(uint64_t), node_bytes = rank_entries_ * sizeof(uint32_t);
  uint64_t h[7] = {kRankByteOrder, fingerprint(), n, rank_entries_, detail::checksum_wide(rank_off_, off_bytes),
                   detail::checksum_wide(rank_nodes_, node_bytes), 0};
  h[6] = detail::checksum(detail::checksum(0, kRankMagic, sizeof kRankMagic), h, 6 * sizeof(uint64_t));
  static const char zeros[64] = {};
  const std::size_t off_at = up64(kRankHeader), nodes_at = up64(off_at + off_bytes);
  const detail::FilePiece pieces[] = {{kRankMagic, sizeof kRankMagic}, {h, sizeof h}, {zeros, off_at - kRankHeader},
                                      {rank_off_, off_bytes}, {zeros, nodes_at - off_at - off_bytes}, {rank_nodes_, node_bytes}};
  detail::write_file_atomically(path, [&](std::ostream &out) {
    for (const auto &piece : pieces) out.write(static_cast<const char *>(piece.data), static_cast<std::streamsize>(piece.size));
  }, "neighbor ranking");
}

bool Retriever::load_neighbor_ranking(const std::string &path) {
  auto file = detail::MappedFile::open(path);
  if (!file || file->size() < kRankHeader || std::memcmp(file->data(), kRankMagic, sizeof kRankMagic) != 0) return false;
  uint64_t h[7];
  std::memcpy(h, file->data() + sizeof kRankMagic, sizeof h);
  const GraphSnapshot &g = *graph_;
  const uint64_t n = h[2], total = h[3];
  if (h[0] != kRankByteOrder || h[6] != detail::checksum(detail::checksum(0, kRankMagic, sizeof kRankMagic), h, 6 * sizeof(uint64_t)) ||
      n != g.node_count() || total > 2 * g.edge_count() || h[1] != fingerprint())
    return false;
  const std::size_t off_bytes = static_cast<std::size_t>((n + 1) * sizeof(uint64_t));
  const std::size_t node_bytes = static_cast<std::size_t>(total * sizeof(uint32_t));
  const std::size_t off_at = up64(kRankHeader), nodes_at = up64(off_at + off_bytes);
  if (file->size() != nodes_at + node_bytes) return false;
  const unsigned char *base = file->data();
  for (std::size_t k = kRankHeader; k < off_at; ++k)
    if (base[k]) return false;
  for (std::size_t k = off_at + off_bytes; k < nodes_at; ++k)
    if (base[k]) return false;
  if (detail::checksum_wide(base + off_at, off_bytes) != h[4] || detail::checksum_wide(base + nodes_at, node_bytes) != h[5])
    return false;
  const auto *off = reinterpret_cast<const uint64_t *>(base + off_at);
  const auto *nodes = reinterpret_cast<const uint32_t *>(base + nodes_at);
  if (off[0] != 0 || off[n] != total) return false;
  for (uint64_t u = 0; u < n; ++u)
    if (off[u] > off[u + 1] || off[u + 1] - off[u] > g.adjacency(static_cast<uint32_t>(u)).size) return false;
  unsigned bad = 0;
  const auto limit = static_cast<uint32_t>(n);
  for (uint64_t k = 0; k < total; ++k) bad |= nodes[k] >= limit;  // (branch-free: vectorised)
  if (bad) return false;
  rank_off_own_.clear();
  rank_nodes_own_.clear();
  rank_off_ = off;
  rank_nodes_ = nodes;
  rank_entries_ = static_cast<std::size_t>(total);
  rank_file_ = std::move(file);
  ranked_ = true;
  return true;
}

// ---- the knowledge graph's retriever ---------------------------------------------------------

namespace {
// The key of the retriever over a vector index: its model and the index's address.
std::string retriever_key(const VectorIndex *vectors) {
  return vectors ? vectors->model() + '@' + std::to_string(reinterpret_cast<std::uintptr_t>(vectors)) : std::string();
}
}  // namespace

std::string neighbor_ranking_path(const KnowledgeGraph &kg) { return kg.path() + ".knn"; }

std::shared_ptr<const Retriever> graph_retriever(const KnowledgeGraph &kg, const std::string &model) {
  std::shared_ptr<const VectorIndex> vectors;
  if (!model.empty() || !kg.embedding_models().empty()) vectors = graph_vectors(kg, model);
  // One per vector index (the model's, at this generation; "" without vectors), kept while the
  // database is unchanged (detail::derived; the entry holds the index, so its address names it).
  return detail::derived<Retriever>(kg, retriever_key(vectors.get()), [&] {
    RetrieverOptions o;
    o.neighbor_ranking_file = neighbor_ranking_path(kg);
    return std::make_shared<const Retriever>(kg.snapshot(), std::move(vectors), o);
  });
}

std::size_t build_neighbor_ranking(const KnowledgeGraph &kg, const std::string &model, unsigned threads) {
  if (model.empty() && kg.embedding_models().empty()) return 0;
  auto vectors = graph_vectors(kg, model);
  auto r = std::make_shared<Retriever>(kg.snapshot(), vectors);
  r->rank_neighbors(threads);
  r->save_neighbor_ranking(neighbor_ranking_path(kg));
  // Later graph_retriever() calls get this one, ranking included, instead of reading the file back.
  detail::derived_put<Retriever>(kg, retriever_key(vectors.get()), kg.generation(), std::shared_ptr<const Retriever>(r));
  return r->neighbor_ranking_entries();
}

}  // namespace grappi
