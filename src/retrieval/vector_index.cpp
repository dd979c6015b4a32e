#include "common/visibility.hpp"
#include "grappi/vector_index.hpp"

#include <hnswlib/hnswlib.h>
#include <unistd.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <sstream>

#include "grappi/error.hpp"
#include "retrieval/ranking.hpp"

namespace grappi {

struct GRAPPI_HIDDEN VectorIndex::Hnsw {
  HnswOptions options;
  std::unique_ptr<hnswlib::SpaceInterface<float>> space;
  std::unique_ptr<hnswlib::HierarchicalNSW<float>> index;
  std::vector<float> unit;  // unit-length copies for cosine
};

VectorIndex::VectorIndex(std::string model, std::vector<int64_t> ids, Embeddings vectors)
    : model_(std::move(model)), ids_(std::move(ids)), vectors_(std::move(vectors)) {
  if (vectors_.dim == 0 && !ids_.empty()) throw Error(ErrorCode::invalid_argument, "vector index: dimension is 0");
  if (vectors_.rows() != ids_.size() || vectors_.data.size() != ids_.size() * vectors_.dim)
    throw Error(ErrorCode::invalid_argument, "vector index: " + std::to_string(ids_.size()) + " ids but " +
                                                 std::to_string(vectors_.rows()) + " vectors");
  // Sort by id so that lookups are binary searches and ties break by id.
  std::vector<std::size_t> order(ids_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ids_[a] < ids_[b]; });
  if (!std::is_sorted(ids_.begin(), ids_.end())) {
    std::vector<int64_t> ids2(ids_.size());
    Embeddings v2;
    v2.dim = vectors_.dim;
    v2.data.resize(vectors_.data.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      ids2[i] = ids_[order[i]];
      std::copy(vectors_.row(order[i]), vectors_.row(order[i]) + vectors_.dim, v2.row(i));
    }
    ids_ = std::move(ids2);
    vectors_ = std::move(v2);
  }
  for (std::size_t i = 1; i < ids_.size(); ++i)
    if (ids_[i] == ids_[i - 1]) throw Error(ErrorCode::invalid_argument, "vector index: node " + std::to_string(ids_[i]) + " appears twice");
  rows_ = vectors_.data.data();
  norms_.resize(ids_.size());
  for (std::size_t i = 0; i < ids_.size(); ++i) {
    Eigen::Map<const Eigen::VectorXf> v(row(i), static_cast<Eigen::Index>(vectors_.dim));
    norms_[i] = v.norm();
  }
}

VectorIndex::VectorIndex() = default;
VectorIndex::~VectorIndex() = default;
VectorIndex::VectorIndex(VectorIndex &&) noexcept = default;
VectorIndex &VectorIndex::operator=(VectorIndex &&) noexcept = default;

const float *VectorIndex::vector(int64_t id) const {
  auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  if (it == ids_.end() || *it != id) return nullptr;
  return row(static_cast<std::size_t>(it - ids_.begin()));
}

namespace {

float score_of(const float *q, float qnorm, const float *v, float vnorm, std::size_t dim, Metric m) {
  Eigen::Map<const Eigen::VectorXf> a(q, static_cast<Eigen::Index>(dim)), b(v, static_cast<Eigen::Index>(dim));
  switch (m) {
    case Metric::cosine: return (qnorm > 0 && vnorm > 0) ? a.dot(b) / (qnorm * vnorm) : 0.0f;
    case Metric::inner_product: return a.dot(b);
    case Metric::l2: return -(a - b).norm();
  }
  return 0.0f;
}


}  // namespace

float VectorIndex::score(const float *q, int64_t id, Metric metric) const {
  const float *v = vector(id);
  if (!v) return std::nanf("");
  Eigen::Map<const Eigen::VectorXf> a(q, static_cast<Eigen::Index>(dim()));
  auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  return score_of(q, a.norm(), v, norms_[static_cast<std::size_t>(it - ids_.begin())], dim(), metric);
}

namespace {
// A query with nan or an infinity would rank every vector by nan: refused.
void check_query(const float *q, std::size_t dim, const char *what) {
  for (std::size_t i = 0; i < dim; ++i)
    if (!std::isfinite(q[i]))
      throw Error(ErrorCode::invalid_argument, std::string(what) + ": the query vector's component " + std::to_string(i) +
                                                   " is not a finite number");
}
}  // namespace

std::vector<SearchHit> VectorIndex::search(const float *q, std::size_t k, Metric metric) const {
  check_query(q, dim(), "vector search");
  std::vector<SearchHit> hits;
  if (ids_.empty() || k == 0) return hits;
  const auto n = static_cast<Eigen::Index>(ids_.size()), d = static_cast<Eigen::Index>(dim());
  Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> M(rows_, n, d);
  Eigen::Map<const Eigen::VectorXf> qv(q, d);
  hits.resize(ids_.size());
  if (metric == Metric::l2) {
    for (Eigen::Index i = 0; i < n; ++i) hits[static_cast<std::size_t>(i)] = {ids_[static_cast<std::size_t>(i)], -(M.row(i).transpose() - qv).norm()};
  } else {
    Eigen::VectorXf dots = M * qv;
    const float qn = qv.norm();
    for (Eigen::Index i = 0; i < n; ++i) {
      const auto u = static_cast<std::size_t>(i);
      float s = dots[i];
      if (metric == Metric::cosine) s = (qn > 0 && norms_[u] > 0) ? s / (qn * norms_[u]) : 0.0f;
      hits[u] = {ids_[u], s};
    }
  }
  detail::keep_best(hits, k);
  return hits;
}

std::vector<SearchHit> VectorIndex::search_among(const float *q, const std::vector<int64_t> &candidates, std::size_t k,
                                                 Metric metric) const {
  check_query(q, dim(), "vector search");
  std::vector<SearchHit> hits;
  hits.reserve(candidates.size());
  Eigen::Map<const Eigen::VectorXf> qv(q, static_cast<Eigen::Index>(dim()));
  const float qn = qv.norm();
  for (int64_t id : candidates) {
    auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
    if (it == ids_.end() || *it != id) continue;
    const auto u = static_cast<std::size_t>(it - ids_.begin());
    hits.push_back({id, score_of(q, qn, row(u), norms_[u], dim(), metric)});
  }
  detail::keep_best(hits, k);
  return hits;
}

void VectorIndex::build_hnsw(const HnswOptions &o) {
  auto h = std::make_unique<Hnsw>();
  h->options = o;
  const std::size_t n = ids_.size(), d = dim();
  if (o.metric == Metric::l2) {
    h->space = std::make_unique<hnswlib::L2Space>(d);
  } else {
    h->space = std::make_unique<hnswlib::InnerProductSpace>(d);
    h->unit.resize(n * d);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < d; ++j) h->unit[i * d + j] = norms_[i] > 0 ? row(i)[j] / norms_[i] : 0.0f;
  }
  h->index = std::make_unique<hnswlib::HierarchicalNSW<float>>(h->space.get(), std::max<std::size_t>(n, 1), o.M, o.ef_construction, o.seed);
  for (std::size_t i = 0; i < n; ++i)
    h->index->addPoint(o.metric == Metric::l2 ? row(i) : h->unit.data() + i * d, static_cast<hnswlib::labeltype>(i));
  h->index->setEf(o.ef);
  hnsw_ = std::move(h);
}

bool VectorIndex::has_hnsw() const { return hnsw_ != nullptr; }

std::vector<SearchHit> VectorIndex::search_hnsw(const float *q, std::size_t k) const {
  if (!hnsw_) throw Error(ErrorCode::invalid_argument, "vector index: no HNSW graph (call build_hnsw first)");
  check_query(q, dim(), "vector search");
  std::vector<SearchHit> hits;
  if (ids_.empty() || k == 0) return hits;
  const std::size_t d = dim();
  std::vector<float> qu(q, q + d);
  if (hnsw_->options.metric != Metric::l2) {
    Eigen::Map<Eigen::VectorXf> v(qu.data(), static_cast<Eigen::Index>(d));
    float n = v.norm();
    if (n > 0) v /= n;
  }
  // hnswlib searches with max(ef, k).
  auto pq = hnsw_->index->searchKnn(qu.data(), std::min(k, ids_.size()));
  while (!pq.empty()) {
    auto [dist, label] = pq.top();
    pq.pop();
    const float s = hnsw_->options.metric == Metric::l2 ? -std::sqrt(std::max(0.0f, dist)) : 1.0f - dist;
    hits.push_back({ids_[static_cast<std::size_t>(label)], s});
  }
  detail::keep_best(hits, k);
  return hits;
}

std::string VectorIndex::save_hnsw() const {
  if (!hnsw_) throw Error(ErrorCode::invalid_argument, "vector index: no HNSW graph to save");
  // hnswlib 0.6.2 saves to files only.
  char path[] = "/tmp/grappi_hnsw_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) throw Error(ErrorCode::io, "cannot create a temporary file for the HNSW graph");
  close(fd);
  hnsw_->index->saveIndex(path);
  std::ifstream f(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::remove(path);
  return bytes;
}

void VectorIndex::load_hnsw(const std::string &bytes, const HnswOptions &o) {
  char path[] = "/tmp/grappi_hnsw_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) throw Error(ErrorCode::io, "cannot create a temporary file for the HNSW graph");
  close(fd);
  {
    std::ofstream f(path, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  auto h = std::make_unique<Hnsw>();
  h->options = o;
  const std::size_t d = dim();
  if (o.metric == Metric::l2) h->space = std::make_unique<hnswlib::L2Space>(d);
  else h->space = std::make_unique<hnswlib::InnerProductSpace>(d);
  try {
    h->index = std::make_unique<hnswlib::HierarchicalNSW<float>>(h->space.get(), std::string(path), false, std::max<std::size_t>(ids_.size(), 1));
  } catch (const std::exception &e) {
    std::remove(path);
    throw Error(ErrorCode::database, std::string("stored HNSW graph cannot be loaded: ") + e.what());
  }
  std::remove(path);
  if (h->index->cur_element_count != ids_.size())
    throw Error(ErrorCode::database, "stored HNSW graph has " + std::to_string(h->index->cur_element_count) +
                                         " elements, the index " + std::to_string(ids_.size()));
  h->index->setEf(o.ef);
  hnsw_ = std::move(h);
}

}  // namespace grappi
