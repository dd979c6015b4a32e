// The neighbor ranking: every node's distinct neighbors ordered once by similarity to the node,
// kept in "<db>.knn" so that windows look their picks up instead of ranking on the fly; and the
// KnowledgeGraph's cached retriever, which loads it.
//
// The file (layout above save_neighbor_ranking) is mapped and used in place. Its fingerprint covers
// the snapshot's content (GraphSnapshot::fingerprint) and the unit vectors, so a file written for
// another graph state or other vectors is never used.
#include <algorithm>
#include <cstring>
#include <cmath>
#include <limits>
#include <mutex>

#include "common/mapped_file.hpp"
#include "common/section_file.hpp"
#include "common/checksum.hpp"
#include "store/graph_impl.hpp"
#include "grappi/error.hpp"
#include "grappi/graph_embeddings.hpp"
#include "grappi/retriever.hpp"
#include "common/parallel.hpp"
#include "retrieval/similarity.hpp"

namespace grappi {

namespace {
constexpr char kRankMagic[16] = "grappi-knn-v4\n";
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

// The file (v4): a section file (common/section_file.hpp) of three sections: the key (u64 fingerprint, node
// count, entry count), the offsets (u64, nodes + 1) and the nodes (u32, entries). Readers map it and use the
// arrays in place after checking all of it.
namespace {
enum RankSection : std::size_t { r_key, r_off, r_nodes, r_count };
}  // namespace

void Retriever::save_neighbor_ranking(const std::string &path) const {
  if (!ranked_) throw Error(ErrorCode::invalid_argument, "save_neighbor_ranking: no ranking (call rank_neighbors)");
  const uint64_t n = graph_->node_count();
  const uint64_t key[3] = {fingerprint(), n, rank_entries_};
  detail::write_section_file(path, kRankMagic,
                             {{key, sizeof key}, {rank_off_, (n + 1) * sizeof(uint64_t)}, {rank_nodes_, rank_entries_ * sizeof(uint32_t)}},
                             "neighbor ranking");
}

bool Retriever::load_neighbor_ranking(const std::string &path) {
  auto file = detail::MappedFile::open(path);
  detail::SectionFile f;
  if (!file || !f.open(*file, kRankMagic, r_count) || f[r_key].size != 3 * sizeof(uint64_t) || !f.intact(r_key)) return false;
  uint64_t key[3];
  std::memcpy(key, f[r_key].data, sizeof key);
  const GraphSnapshot &g = *graph_;
  const uint64_t n = key[1], total = key[2];
  if (n != g.node_count() || total > 2 * g.edge_count() || key[0] != fingerprint() ||
      f[r_off].size != (n + 1) * sizeof(uint64_t) || f[r_nodes].size != total * sizeof(uint32_t) || !f.intact(r_off) ||
      !f.intact(r_nodes))
    return false;
  const auto *off = static_cast<const uint64_t *>(f[r_off].data);
  const auto *nodes = static_cast<const uint32_t *>(f[r_nodes].data);
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
