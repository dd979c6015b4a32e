// LsaEmbedder: TF-IDF then a randomized truncated SVD (grappi/embedding.hpp).
#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "grappi/embedding.hpp"
#include "grappi/error.hpp"
#include "common/parallel.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"

namespace grappi {

namespace {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Sparse = Eigen::SparseMatrix<float, Eigen::RowMajor, int64_t>;

constexpr const char kStateMagic[8] = {'G', 'L', 'S', 'A', '0', '0', '0', '1'};

// The terms of a text: its words of two or more characters that are not stop words.
std::vector<std::string> terms_of(std::string_view text) {
  std::vector<std::string> w = detail::words(text);
  w.erase(std::remove_if(w.begin(), w.end(), [](const std::string &x) { return x.size() < 2 || detail::is_stop_word(x); }),
          w.end());
  return w;
}

uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Thin Householder QR: Q of y.
Matrix householder_orthonormal(const Matrix &y) {
  Eigen::HouseholderQR<Eigen::MatrixXf> qr(y);
  Eigen::MatrixXf q = qr.householderQ() * Eigen::MatrixXf::Identity(y.rows(), y.cols());
  return q;
}

// Large products run in a fixed number of row blocks (the same arithmetic whatever the number
// of threads, so a model does not depend on the machine's core count).
constexpr std::size_t kBlocks = 8;

std::size_t threads_for(Eigen::Index rows) { return rows >= 4096 ? detail::hardware_threads(8) : 1; }

// a * b, a sparse, by row blocks.
Matrix times(const Sparse &a, const Matrix &b) {
  Matrix out(a.rows(), b.cols());
  detail::parallel_chunks(static_cast<std::size_t>(a.rows()), kBlocks, threads_for(a.rows()),
                          [&](std::size_t lo, std::size_t hi, std::size_t) {
                            const auto n = static_cast<Eigen::Index>(hi - lo), at = static_cast<Eigen::Index>(lo);
                            out.middleRows(at, n) = a.middleRows(at, n) * b;
                          });
  return out;
}

bool cholesky_pass(Matrix &y) {
  // The Gram matrix y^T y, summed over the row blocks in order.
  std::vector<Eigen::MatrixXf> part(kBlocks);
  detail::parallel_chunks(static_cast<std::size_t>(y.rows()), kBlocks, threads_for(y.rows()),
                          [&](std::size_t lo, std::size_t hi, std::size_t p) {
                            const auto rows = y.middleRows(static_cast<Eigen::Index>(lo), static_cast<Eigen::Index>(hi - lo));
                            part[p] = rows.transpose() * rows;
                          });
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(y.cols(), y.cols());
  for (const auto &g : part)
    if (g.size()) gram += g.cast<double>();
  Eigen::LLT<Eigen::MatrixXd> llt(gram);
  if (llt.info() != Eigen::Success) return false;
  const auto &l = llt.matrixLLT();
  const double top = l.diagonal().cwiseAbs().maxCoeff(), low = l.diagonal().cwiseAbs().minCoeff();
  if (!(top > 0) || low < 1e-3 * top) return false;
  // y R^-1 with R = L^T upper triangular: each row solved on its own.
  const Eigen::MatrixXf r = Eigen::MatrixXd(llt.matrixU()).cast<float>();
  detail::parallel_chunks(static_cast<std::size_t>(y.rows()), kBlocks, threads_for(y.rows()),
                          [&](std::size_t lo, std::size_t hi, std::size_t) {
                            auto rows = y.middleRows(static_cast<Eigen::Index>(lo), static_cast<Eigen::Index>(hi - lo));
                            r.triangularView<Eigen::Upper>().solveInPlace<Eigen::OnTheRight>(rows);
                          });
  return true;
}

// An orthonormal basis of y's columns. Cholesky QR twice (two products with the Gram matrix:
// fast, and orthonormal to rounding after the second pass); Householder QR when y is too close
// to rank deficient for Cholesky (a tiny corpus, repeated texts).
Matrix orthonormal(const Matrix &y) {
  Matrix q = y;
  if (cholesky_pass(q) && cholesky_pass(q)) return q;
  return householder_orthonormal(y);
}

uint64_t fnv(const void *p, std::size_t n, uint64_t h = 0xcbf29ce484222325ull) {
  const auto *b = static_cast<const unsigned char *>(p);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

}  // namespace

struct LsaEmbedder::Model {
  std::vector<std::string> terms;                  // sorted
  std::unordered_map<std::string, uint32_t> index;  // term -> row of v
  std::vector<float> idf;                          // per term
  Matrix v;                                        // terms x dimension: the right singular vectors

  void build_index() {
    index.clear();
    index.reserve(terms.size());
    for (std::size_t i = 0; i < terms.size(); ++i) index.emplace(terms[i], static_cast<uint32_t>(i));
  }
  // The TF-IDF vector of a text's terms, L2-normalised: (term row, weight), ascending row.
  std::vector<std::pair<uint32_t, float>> tfidf(const std::vector<std::string> &text_terms) const {
    std::vector<uint32_t> rows;
    for (const auto &t : text_terms) {
      auto it = index.find(t);
      if (it != index.end()) rows.push_back(it->second);
    }
    std::sort(rows.begin(), rows.end());
    std::vector<std::pair<uint32_t, float>> out;
    double norm = 0;
    for (std::size_t i = 0; i < rows.size();) {
      std::size_t j = i;
      while (j < rows.size() && rows[j] == rows[i]) ++j;
      const double w = (1.0 + std::log(static_cast<double>(j - i))) * idf[rows[i]];
      out.emplace_back(rows[i], static_cast<float>(w));
      norm += w * w;
      i = j;
    }
    if (norm > 0)
      for (auto &x : out) x.second = static_cast<float>(x.second / std::sqrt(norm));
    return out;
  }
};

LsaEmbedder::LsaEmbedder(LsaEmbedderOptions options) : options_(options), m_(std::make_unique<Model>()) {
  if (options_.dimension == 0 || options_.dimension > 4096)
    throw Error(ErrorCode::invalid_argument, "lsa embedder: dimension must be in 1..4096");
  if (options_.max_terms == 0) throw Error(ErrorCode::invalid_argument, "lsa embedder: max_terms must be at least 1");
  if (!(options_.max_df > 0 && options_.max_df <= 1))
    throw Error(ErrorCode::invalid_argument, "lsa embedder: max_df must be in (0, 1]");
  if (options_.power_iterations < 0 || options_.power_iterations > 20)
    throw Error(ErrorCode::invalid_argument, "lsa embedder: power_iterations must be in 0..20");
  if (!(options_.lexical_weight >= 0 && options_.lexical_weight <= 1))
    throw Error(ErrorCode::invalid_argument, "lsa embedder: lexical_weight must be in [0, 1]");
  if (options_.lexical_weight > 0) lexical_ = std::make_unique<HashingEmbedder>(options_.lexical);
  m_->v = Matrix::Zero(0, static_cast<Eigen::Index>(options_.dimension));
  sigma_.assign(options_.dimension, 0.0f);
}

LsaEmbedder::~LsaEmbedder() = default;

std::size_t LsaEmbedder::terms() const { return m_->terms.size(); }

std::size_t LsaEmbedder::dimension() const {
  return options_.dimension + (lexical_ ? lexical_->dimension() : 0);
}

void LsaEmbedder::fit(const std::vector<std::string> &corpus) {
  if (lexical_) lexical_->fit(corpus);
  const std::size_t n = corpus.size();
  docs_ = static_cast<uint32_t>(std::min<std::size_t>(n, UINT32_MAX));
  // Document frequencies.
  std::vector<std::vector<std::string>> doc_terms(n);
  detail::parallel_for(n, n >= 2048 ? detail::hardware_threads(8) : 1,
                       [&](std::size_t i) { doc_terms[i] = terms_of(corpus[i]); });
  std::unordered_map<std::string, uint32_t> df;
  for (auto &t : doc_terms) {
    std::sort(t.begin(), t.end());
    for (std::size_t i = 0; i < t.size(); ++i)
      if (i == 0 || t[i] != t[i - 1]) ++df[t[i]];
  }
  // The vocabulary: min_df <= df <= max_df * n, the max_terms most frequent (ties by term).
  std::vector<std::pair<uint32_t, std::string>> keep;
  const double cap = n >= 20 ? options_.max_df * static_cast<double>(n) : static_cast<double>(n);
  for (auto &kv : df)
    if (kv.second >= options_.min_df && static_cast<double>(kv.second) <= cap) keep.emplace_back(kv.second, kv.first);
  std::sort(keep.begin(), keep.end(), [](const auto &a, const auto &b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  if (keep.size() > options_.max_terms) keep.resize(options_.max_terms);
  std::sort(keep.begin(), keep.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
  Model &m = *m_;
  m.terms.clear();
  m.idf.clear();
  for (auto &k : keep) {
    m.terms.push_back(k.second);
    m.idf.push_back(static_cast<float>(std::log((static_cast<double>(n) + 1.0) / (k.first + 1.0)) + 1.0));
  }
  m.build_index();
  sigma_.assign(options_.dimension, 0.0f);
  if (m.terms.empty()) {
    // Nothing to learn from (no word in min_df texts, e.g. an empty or tiny graph): no concept;
    // texts embed by their lexical part alone.
    m.v = Matrix::Zero(0, static_cast<Eigen::Index>(options_.dimension));
    return;
  }
  const auto V = static_cast<Eigen::Index>(m.terms.size());
  const auto N = static_cast<Eigen::Index>(n);

  // The document-term matrix X (n x V), rows TF-IDF and L2-normalised.
  std::vector<Eigen::Triplet<float, int64_t>> triplets;
  for (std::size_t i = 0; i < n; ++i) {
    for (const auto &[row, w] : m.tfidf(doc_terms[i])) triplets.emplace_back(static_cast<int64_t>(i), row, w);
  }
  doc_terms.clear();
  Sparse x(N, V);
  x.setFromTriplets(triplets.begin(), triplets.end());
  triplets.clear();
  triplets.shrink_to_fit();
  const Sparse xt = x.transpose();

  // Randomized range finder with subspace iteration: Q spans X's leading left singular space.
  const auto k = static_cast<Eigen::Index>(options_.dimension);
  const Eigen::Index l = std::min<Eigen::Index>(k + static_cast<Eigen::Index>(options_.oversampling), std::min(N, V));
  Matrix omega(V, l);
  for (Eigen::Index i = 0; i < V; ++i)
    for (Eigen::Index j = 0; j < l; ++j)
      omega(i, j) = (splitmix(static_cast<uint64_t>(i) * 0x100000001b3ull + static_cast<uint64_t>(j)) & 1) ? 1.0f : -1.0f;
  Matrix q = orthonormal(times(x, omega));
  omega.resize(0, 0);
  for (int it = 0; it < options_.power_iterations; ++it) {
    const Matrix z = orthonormal(times(xt, q));
    q = orthonormal(times(x, z));
  }
  // B = Q^T X (l x V); B B^T = W S^2 W^T; the right singular vectors V_k = B^T W_k S_k^-1.
  const Matrix bt = times(xt, q);  // V x l
  const Eigen::MatrixXd gram = (bt.transpose() * bt).cast<double>();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(gram);
  if (eig.info() != Eigen::Success) throw Error(ErrorCode::internal, "lsa embedder: eigen decomposition failed");
  // Eigenvalues come ascending: take them from the end.
  m.v = Matrix::Zero(V, k);
  sigma_.assign(options_.dimension, 0.0f);
  const double top = std::sqrt(std::max(0.0, eig.eigenvalues()(l - 1)));
  for (Eigen::Index c = 0; c < std::min(k, l); ++c) {
    const double lambda = eig.eigenvalues()(l - 1 - c);
    const double s = std::sqrt(std::max(0.0, lambda));
    if (s <= 1e-6 * top || s == 0) break;  // past the corpus' rank
    Eigen::VectorXf col = bt * (eig.eigenvectors().col(l - 1 - c) / s).cast<float>();
    // A fixed sign: the largest entry positive.
    Eigen::Index at = 0;
    col.cwiseAbs().maxCoeff(&at);
    if (col(at) < 0) col = -col;
    m.v.col(c) = col;
    sigma_[static_cast<std::size_t>(c)] = static_cast<float>(s);
  }
}

// The concepts part of one text (options_.dimension floats), L2-normalised (zero when the
// text has no known word).
void LsaEmbedder::embed_one(const std::string &text, float *out) const {
  const auto k = static_cast<Eigen::Index>(options_.dimension);
  Eigen::Map<Eigen::VectorXf> e(out, k);
  e.setZero();
  if (m_->terms.empty()) return;
  for (const auto &[row, w] : m_->tfidf(terms_of(text))) e += w * m_->v.row(row).transpose();
  const float norm = e.norm();
  if (norm > 1e-12f) e /= norm;
  else e.setZero();
}

Embeddings LsaEmbedder::embed(const std::vector<std::string> &texts) {
  Embeddings e;
  e.dim = dimension();
  e.data.resize(texts.size() * e.dim);
  const std::size_t k = options_.dimension;
  Embeddings lex;
  if (lexical_) lex = lexical_->embed(texts);
  // Both parts are unit vectors (or zero): scaled by sqrt(1 - w) and sqrt(w), their cosines
  // blend with weights 1 - w and w; a text with only one part is renormalised.
  const float wc = static_cast<float>(std::sqrt(1.0 - options_.lexical_weight)),
              wl = static_cast<float>(std::sqrt(options_.lexical_weight));
  detail::parallel_for(texts.size(), texts.size() >= 512 ? detail::hardware_threads(8) : 1, [&](std::size_t i) {
    float *row = e.row(i);
    embed_one(texts[i], row);
    if (!lexical_) return;
    double concept_norm = 0, lexical_norm = 0;
    for (std::size_t j = 0; j < k; ++j) concept_norm += static_cast<double>(row[j]) * row[j];
    const float *l = lex.row(i);
    for (std::size_t j = 0; j < lex.dim; ++j) lexical_norm += static_cast<double>(l[j]) * l[j];
    const float a = lexical_norm > 0 ? wc : 1.0f, b = concept_norm > 0 ? wl : 1.0f;
    for (std::size_t j = 0; j < k; ++j) row[j] *= a;
    for (std::size_t j = 0; j < lex.dim; ++j) row[k + j] = b * l[j];
  });
  return e;
}

std::string LsaEmbedder::config() const {
  return nlohmann::json{{"dimension", options_.dimension},
                        {"max_terms", options_.max_terms},
                        {"min_df", options_.min_df},
                        {"max_df", options_.max_df},
                        {"oversampling", options_.oversampling},
                        {"power_iterations", options_.power_iterations},
                        {"lexical_weight", options_.lexical_weight},
                        {"lexical", lexical_ ? nlohmann::json::parse(lexical_->config()) : nlohmann::json(nullptr)},
                        {"documents", docs_}}
      .dump();
}

// State: magic, term count (u32), then per term its length (u16) and bytes, the IDF (float per
// term), the singular values (float per dimension) and V (terms x dimension floats, row-major).
std::string LsaEmbedder::state() const {
  const Model &m = *m_;
  std::string s(kStateMagic, sizeof kStateMagic);
  auto put = [&s](const void *p, std::size_t n) {
    if (n) s.append(static_cast<const char *>(p), n);
  };
  const auto count = static_cast<uint32_t>(m.terms.size());
  put(&count, sizeof count);
  for (const auto &t : m.terms) {
    const auto len = static_cast<uint16_t>(t.size());
    put(&len, sizeof len);
    put(t.data(), t.size());
  }
  put(m.idf.data(), m.idf.size() * sizeof(float));
  put(sigma_.data(), sigma_.size() * sizeof(float));
  put(m.v.data(), static_cast<std::size_t>(m.v.size()) * sizeof(float));
  if (lexical_) s += lexical_->state();  // the rest
  return s;
}

std::string LsaEmbedder::model() const {
  const std::string st = state(), c = config();
  const uint64_t h = fnv(c.data(), c.size(), fnv(st.data(), st.size()));
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return "grappi-lsa-v1-d" + std::to_string(dimension()) + "-" + std::string(hex, 12);
}

std::unique_ptr<LsaEmbedder> LsaEmbedder::restore(const std::string &config, std::string_view state) {
  auto j = nlohmann::json::parse(config, nullptr, false);
  if (!j.is_object()) throw Error(ErrorCode::invalid_argument, "lsa embedder: configuration is not a JSON object");
  LsaEmbedderOptions o;
  try {
    o.dimension = j.value("dimension", o.dimension);
    o.max_terms = j.value("max_terms", o.max_terms);
    o.min_df = j.value("min_df", o.min_df);
    o.max_df = j.value("max_df", o.max_df);
    o.oversampling = j.value("oversampling", o.oversampling);
    o.power_iterations = j.value("power_iterations", o.power_iterations);
    o.lexical_weight = j.value("lexical_weight", o.lexical_weight);
    if (j.contains("lexical") && j["lexical"].is_object()) {
      const auto &l = j["lexical"];
      o.lexical.dimension = l.value("dimension", o.lexical.dimension);
      o.lexical.min_char_ngram = l.value("min_char_ngram", o.lexical.min_char_ngram);
      o.lexical.max_char_ngram = l.value("max_char_ngram", o.lexical.max_char_ngram);
      o.lexical.word_bigrams = l.value("word_bigrams", o.lexical.word_bigrams);
    }
  } catch (const nlohmann::json::exception &e) {
    throw Error(ErrorCode::invalid_argument, std::string("lsa embedder: bad configuration: ") + e.what());
  }
  auto e = std::make_unique<LsaEmbedder>(o);
  e->docs_ = j.value("documents", 0u);
  if (state.empty()) return e;
  const auto bad = [] { return Error(ErrorCode::invalid_argument, "lsa embedder: the stored state is truncated or corrupt"); };
  std::size_t at = 0;
  auto take = [&](void *p, std::size_t n) {
    if (state.size() - at < n) throw bad();
    if (n) std::memcpy(p, state.data() + at, n);  // (an empty vector's data() may be null)
    at += n;
  };
  char magic[sizeof kStateMagic];
  take(magic, sizeof magic);
  if (std::memcmp(magic, kStateMagic, sizeof magic) != 0) throw bad();
  uint32_t count = 0;
  take(&count, sizeof count);
  const std::size_t dim = o.dimension;
  if (count > state.size()) throw bad();
  Model &m = *e->m_;
  m.terms.resize(count);
  for (auto &t : m.terms) {
    uint16_t len = 0;
    take(&len, sizeof len);
    t.resize(len);
    take(t.data(), len);
  }
  m.idf.resize(count);
  take(m.idf.data(), count * sizeof(float));
  e->sigma_.resize(dim);
  take(e->sigma_.data(), dim * sizeof(float));
  m.v.resize(static_cast<Eigen::Index>(count), static_cast<Eigen::Index>(dim));
  take(m.v.data(), static_cast<std::size_t>(count) * dim * sizeof(float));
  if (e->lexical_) {
    // (an embedder never fitted keeps no lexical state: its lexical part restores unfitted too,
    // the embedder its vectors came from)
    const std::string lexical_config = dump_json(nlohmann::json::parse(config).value("lexical", nlohmann::json::object()));
    try {
      e->lexical_ = HashingEmbedder::restore(lexical_config, state.substr(at));
    } catch (const Error &) {
      throw bad();
    }
    at = state.size();
  }
  if (at != state.size()) throw bad();
  m.build_index();
  return e;
}

}  // namespace grappi
