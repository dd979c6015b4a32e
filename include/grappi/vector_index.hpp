// grappi/vector_index.hpp — node embeddings in memory: exact search (Eigen) and HNSW (hnswlib).
#pragma once

#include "grappi/export.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "grappi/embedding.hpp"

namespace grappi {

namespace detail {
struct VectorIndexAccess;
}  // namespace detail

enum class Metric {
  cosine,         ///< score = cosine similarity
  inner_product,  ///< score = dot product
  l2,             ///< score = -Euclidean distance (so that higher is always closer)
};

/// One result of a vector search.
struct SearchHit {
  int64_t id = 0;   ///< node id
  float score = 0;  ///< higher is closer; see Metric
};

/// Parameters of an HNSW graph (hnswlib).
struct HnswOptions {
  std::size_t M = 16;                 ///< links per node
  std::size_t ef_construction = 200;  ///< search breadth while building
  std::size_t ef = 128;  ///< search breadth; raised to k when smaller
  Metric metric = Metric::cosine;  ///< cosine or l2 (inner_product is served as cosine on unit vectors)
  uint64_t seed = 100;             ///< hnswlib's random seed (the graph is deterministic for a seed)
};

/// Vectors of one embedding model, keyed by node id. Immutable after construction except for
/// build_hnsw()/load_hnsw(), which must finish before queries start; every query method is
/// const and thread-safe. Results are deterministic: equal scores are ordered by ascending id.
class GRAPPI_CXX_API VectorIndex {
 public:
  /// The vectors of `model`: row i of `vectors` belongs to node ids[i] (ids ascending).
  VectorIndex(std::string model, std::vector<int64_t> ids, Embeddings vectors);
  ~VectorIndex();
  /// Movable, not copyable.
  VectorIndex(VectorIndex &&) noexcept;
  /// Movable, not copyable.
  VectorIndex &operator=(VectorIndex &&) noexcept;

  /// The embedding model's name.
  const std::string &model() const { return model_; }
  /// Number of vectors.
  std::size_t size() const { return ids_.size(); }
  /// Their dimension.
  std::size_t dim() const { return vectors_.dim; }
  /// The node ids, ascending.
  const std::vector<int64_t> &ids() const { return ids_; }
  /// The stored vector of a node, or nullptr.
  const float *vector(int64_t id) const;
  /// Similarity of q to one node's vector under the metric; NaN when the node has no vector.
  float score(const float *q, int64_t id, Metric metric = Metric::cosine) const;

  /// Exact top-k over all vectors.
  std::vector<SearchHit> search(const float *q, std::size_t k, Metric metric = Metric::cosine) const;
  /// Exact top-k among the given node ids (for example a protein's neighbors); ids without a
  /// vector are skipped.
  std::vector<SearchHit> search_among(const float *q, const std::vector<int64_t> &candidates, std::size_t k,
                                      Metric metric = Metric::cosine) const;

  /// Builds the HNSW graph over all vectors.
  void build_hnsw(const HnswOptions &options = {});
  /// Whether an HNSW graph was built or loaded.
  bool has_hnsw() const;
  /// Approximate top-k with the HNSW graph (requires build_hnsw or load_hnsw).
  std::vector<SearchHit> search_hnsw(const float *q, std::size_t k) const;
  /// The HNSW graph as bytes (hnswlib's format).
  std::string save_hnsw() const;
  /// Loads a graph save_hnsw() wrote for these vectors; Error(parse) for bytes that are not one.
  void load_hnsw(const std::string &bytes, const HnswOptions &options);

 private:
  friend struct detail::VectorIndexAccess;  // (the library's vector file: rows used in place)
  struct Hnsw;
  VectorIndex();
  const float *row(std::size_t i) const { return rows_ + i * vectors_.dim; }
  std::string model_;
  std::vector<int64_t> ids_;  // ascending
  Embeddings vectors_;        // the rows, unless they are used in place from a file (vectors_.data empty)
  const float *rows_ = nullptr;  // row after row: vectors_.data's, or the file's
  std::shared_ptr<const void> keep_;  // what holds rows_ when vectors_ does not
  std::vector<float> norms_;
  std::unique_ptr<Hnsw> hnsw_;
};

}  // namespace grappi
