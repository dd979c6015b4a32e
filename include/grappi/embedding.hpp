// grappi/embedding.hpp — text embedders: the built-in lexical embedder (offline default), an
// OpenAI-compatible HTTP client, and a user callback.
#pragma once

#include "grappi/export.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace grappi {

/// Row-major float32 matrix: rows() vectors of dim floats each.
struct Embeddings {
  std::size_t dim = 0;      ///< floats per vector
  std::vector<float> data;  ///< rows() * dim floats, row after row
  /// Number of vectors.
  std::size_t rows() const { return dim ? data.size() / dim : 0; }
  /// Vector i.
  const float *row(std::size_t i) const { return data.data() + i * dim; }
  /// Vector i, writable.
  float *row(std::size_t i) { return data.data() + i * dim; }
};

/// Turns a batch of texts into vectors. Implementations say whether they are thread-safe.
class GRAPPI_CXX_API Embedder {
 public:
  virtual ~Embedder() = default;
  /// Identifies the model and every parameter that changes its vectors; stored with them.
  virtual std::string model() const = 0;
  /// Floats per vector (0 while an HTTP model's size is not known yet).
  virtual std::size_t dimension() const = 0;
  /// One vector per text, in order. Throws grappi::Error on failure.
  virtual Embeddings embed(const std::vector<std::string> &texts) = 0;
  /// "lsa", "hashing", "openai", "callback": how a stored model is re-created for queries.
  virtual std::string kind() const = 0;
  /// Configuration (JSON text) needed to re-create the embedder; stored with its vectors.
  virtual std::string config() const { return "{}"; }
  /// State (bytes) needed to re-create it, such as learned weights; stored with its vectors.
  virtual std::string state() const { return {}; }
};

/// Options of HashingEmbedder.
struct HashingEmbedderOptions {
  std::size_t dimension = 384;  ///< vector size (hash buckets)
  int min_char_ngram = 4;       ///< character n-grams of each word, with boundary marks, from
  int max_char_ngram = 5;       ///< this length to this one (0 turns them off)
  bool word_bigrams = true;     ///< also pairs of consecutive words
};

/// The offline default: feature hashing of words, word bigrams and character n-grams with
/// TF-IDF weights learned from the graph's own annotations (sublinear term frequency, smoothed
/// IDF), signed hashing into `dimension` buckets, L2-normalised. Deterministic: the same texts
/// and corpus give the same vectors on every machine. Thread-safe after fit().
class GRAPPI_CXX_API HashingEmbedder : public Embedder {
 public:
  /// An embedder that has not learned its weights yet (fit() does).
  explicit HashingEmbedder(HashingEmbedderOptions options = {});
  /// Learns document frequencies from a corpus (usually every node's annotation). Without
  /// fit() every feature weighs the same.
  void fit(const std::vector<std::string> &corpus);
  /// Re-creates an embedder from config() and state().
  static std::unique_ptr<HashingEmbedder> restore(const std::string &config, std::string_view state);

  std::string model() const override;
  std::size_t dimension() const override { return options_.dimension; }
  Embeddings embed(const std::vector<std::string> &texts) override;
  std::string kind() const override { return "hashing"; }
  std::string config() const override;
  std::string state() const override;

 private:
  void embed_one(const std::string &text, float *out) const;
  void compute_idf();
  HashingEmbedderOptions options_;
  uint32_t docs_ = 0;
  std::vector<uint16_t> df_;  // document frequency per feature bucket (saturating)
  std::vector<float> idf_;    // by document frequency (derived from docs_); 0 marks a dropped feature
};

/// Options of LsaEmbedder.
struct LsaEmbedderOptions {
  std::size_t dimension = 256;    ///< concepts kept (the truncated SVD's rank)
  std::size_t max_terms = 50000;  ///< vocabulary bound: the terms in most documents are kept
  uint32_t min_df = 2;            ///< a term must occur in at least this many documents
  double max_df = 0.25;           ///< and in at most this fraction of them (corpora of 20+ documents)
  std::size_t oversampling = 16;  ///< extra random directions of the randomized SVD
  int power_iterations = 3;       ///< subspace iterations of the randomized SVD
  /// Weight of the lexical part, 0-1 (0: concepts only). The vector is the concepts' unit
  /// vector times sqrt(1 - w) followed by a HashingEmbedder's unit vector times sqrt(w), so a
  /// cosine is (1 - w) * cos(concepts) + w * cos(lexical): the concepts rank neighbors by
  /// topic, the lexical part keeps exact words ("tau", "CDC28") decisive for search
  /// (BENCHMARKS.md measures both).
  double lexical_weight = 0.7;
  HashingEmbedderOptions lexical;  ///< the lexical part (384 dimensions by default)
};

/// Latent semantic analysis learned from the graph's own annotations, with a lexical part:
/// words (no stop words) weighted by TF-IDF (sublinear term frequency, smoothed IDF, rows
/// L2-normalised), then a rank-`dimension` truncated SVD of the document-term matrix by a
/// randomized range finder with subspace iteration (Halko, Martinsson and Tropp 2011; a fixed
/// Rademacher sketch, so the same corpus gives the same model). A text's concept vector is its
/// TF-IDF vector projected on the right singular vectors (for the training documents: U times
/// Sigma), L2-normalised; words that occur in the same annotations ("cyclin", "cdk",
/// "mitotic") come out close even when two texts share none of them. Words the model never saw
/// add no concept. The lexical part (LsaEmbedderOptions::lexical_weight) is a HashingEmbedder
/// fitted on the same corpus. Thread-safe after fit().
class GRAPPI_CXX_API LsaEmbedder : public Embedder {
 public:
  /// An embedder that has not learned yet (fit() does; before it every text embeds to zero).
  explicit LsaEmbedder(LsaEmbedderOptions options = {});
  ~LsaEmbedder() override;
  /// Learns the vocabulary, the IDF weights and the concepts (and the lexical part's weights)
  /// from a corpus (usually every node's text). When no term occurs in min_df documents (an
  /// empty or tiny corpus) there is no concept and texts embed by their lexical part alone.
  void fit(const std::vector<std::string> &corpus);
  /// Re-creates an embedder from config() and state().
  static std::unique_ptr<LsaEmbedder> restore(const std::string &config, std::string_view state);

  std::string model() const override;
  /// options.dimension concepts, plus options.lexical.dimension when lexical_weight > 0.
  std::size_t dimension() const override;
  Embeddings embed(const std::vector<std::string> &texts) override;
  std::string kind() const override { return "lsa"; }
  std::string config() const override;
  std::string state() const override;
  /// Number of terms learned.
  std::size_t terms() const;
  /// The options it was made (or restored) with.
  const LsaEmbedderOptions &options() const { return options_; }
  /// The singular values of the kept concepts, largest first (zeros past the corpus' rank).
  const std::vector<float> &singular_values() const { return sigma_; }

 private:
  struct Model;
  void embed_one(const std::string &text, float *out) const;
  LsaEmbedderOptions options_;
  uint32_t docs_ = 0;
  std::unique_ptr<Model> m_;
  std::unique_ptr<HashingEmbedder> lexical_;
  std::vector<float> sigma_;
};

/// Options of HttpEmbedder.
struct HttpEmbedderOptions {
  std::string base_url = "http://127.0.0.1:8080/v1";  ///< POST {base_url}/embeddings
  std::string model;                                  ///< e.g. "text-embedding-3-small", "nomic-embed-text"
  std::string api_key_env = "OPENAI_API_KEY";         ///< read at call time, never logged
  std::size_t dimensions = 0;      ///< request this many dimensions (text-embedding-3); 0 = model default
  std::size_t batch_size = 128;    ///< inputs per request (OpenAI allows 2048)
  std::size_t max_batch_chars = 400000;  ///< also split batches by size (~100k tokens)
  int max_retries = 3;             ///< on timeouts, 408, 409, 429 and 5xx (a refused connection: once, at once)
  double retry_base_seconds = 0.5; ///< backoff min(base * 2^attempt, retry_cap_seconds) * jitter
  double retry_cap_seconds = 8.0;  ///< the longest wait between retries
  double connect_timeout_seconds = 10;  ///< to establish the connection
  double timeout_seconds = 120;    ///< per request, the answer included
};

/// OpenAI-compatible embeddings over HTTP (OpenAI, vLLM, llama.cpp server, Ollama's /v1).
/// Honours Retry-After; errors name the URL and the server's message, never the API key.
/// Thread-safe: each call uses its own connection.
class GRAPPI_CXX_API HttpEmbedder : public Embedder {
 public:
  /// A client of the server the options name (no request is made until embed()).
  explicit HttpEmbedder(HttpEmbedderOptions options);
  std::string model() const override;
  std::size_t dimension() const override;
  Embeddings embed(const std::vector<std::string> &texts) override;
  std::string kind() const override { return "openai"; }
  std::string config() const override;
  /// Re-creates an embedder from config() (the API key comes from the environment).
  static std::unique_ptr<HttpEmbedder> restore(const std::string &config);
  /// Number of HTTP requests made so far (for tests and usage reports).
  std::size_t requests() const { return requests_.load(); }

 private:
  HttpEmbedderOptions options_;
  std::atomic<std::size_t> dim_{0};  // learned from the first answer when options_.dimensions is 0
  std::atomic<std::size_t> requests_{0};
};

/// Calls a user function; the C API passes a function pointer through it.
class GRAPPI_CXX_API CallbackEmbedder : public Embedder {
 public:
  /// The function: one vector of `dimension` floats per text, in order.
  using Fn = std::function<Embeddings(const std::vector<std::string> &)>;
  /// An embedder named `model` (stored with its vectors) calling fn.
  CallbackEmbedder(std::string model, std::size_t dimension, Fn fn);
  std::string model() const override { return model_; }
  std::size_t dimension() const override { return dim_; }
  Embeddings embed(const std::vector<std::string> &texts) override;
  std::string kind() const override { return "callback"; }

 private:
  std::string model_;
  std::size_t dim_;
  Fn fn_;
};

/// An embedder named by kind and settings, as the command line, the C API and programs name one
/// (make_embedder in grappi/graph_embeddings.hpp builds it: the hashing embedder is fitted on the graph's own
/// texts).
struct EmbedderSpec {
  /// "lsa" (built-in, offline, latent semantic analysis of the graph's annotations: the
  /// default, it ranks neighbors better than hashing - BENCHMARKS.md), "hashing" (built-in,
  /// offline, lexical), "openai" (an OpenAI-compatible server) or "callback".
  std::string kind = "lsa";
  /// Vector size; 0 means the embedder's own default (hashing: 384; openai: the model's native
  /// size, nothing is requested). For "lsa", the number of concepts (default 256; the vector
  /// adds the 384 dimensions of its lexical part). Required for "callback".
  std::size_t dimension = 0;
  /// hashing, lsa: learn again from the current texts instead of reusing the stored model of
  /// this dimension.
  bool refit = false;
  /// openai: server, model, key variable, batching, retries and timeouts (its `dimensions` is
  /// taken from `dimension`).
  HttpEmbedderOptions http;
  /// callback: the name stored with the vectors, and the function.
  std::string name;
  CallbackEmbedder::Fn callback;  ///< callback: the function
};

/// Cosine similarity of two vectors of length n (0 when either is zero).
GRAPPI_CXX_API float cosine(const float *a, const float *b, std::size_t n);

}  // namespace grappi
