#include "grappi/embedding.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <cstring>
#include <nlohmann/json.hpp>
#include <thread>

#include "grappi/error.hpp"
#include "common/http.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"
#include "common/json_input.hpp"

namespace grappi {

float cosine(const float *a, const float *b, std::size_t n) {
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ab += static_cast<double>(a[i]) * b[i];
    aa += static_cast<double>(a[i]) * a[i];
    bb += static_cast<double>(b[i]) * b[i];
  }
  if (aa <= 0 || bb <= 0) return 0.0f;
  return static_cast<float>(ab / std::sqrt(aa * bb));
}

// ---- HashingEmbedder -------------------------------------------------------------------------

namespace {

constexpr std::size_t kBuckets = 1u << 20;  // document-frequency table size

// FNV-1a 64 with a final avalanche; `tag` separates the feature families.
uint64_t feature_hash(char tag, const char *s, std::size_t n) {
  uint64_t h = 0xcbf29ce484222325ull ^ static_cast<unsigned char>(tag);
  h *= 0x100000001b3ull;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(s[i]);
    h *= 0x100000001b3ull;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

constexpr int kProbes = 4;

uint64_t mix(uint64_t x) {  // splitmix64 finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The feature words of a text: its words (detail::words) of two or more characters that are not
// stop words.
std::vector<std::string> words_of(const std::string &text) {
  std::vector<std::string> w = detail::words(text);
  w.erase(std::remove_if(w.begin(), w.end(), [](const std::string &x) { return x.size() < 2 || detail::is_stop_word(x); }),
          w.end());
  return w;
}

// Calls f(hash, family_weight) for every feature occurrence of a text.
template <class F>
void for_features(const std::string &text, const HashingEmbedderOptions &o, F &&f) {
  std::vector<std::string> w = words_of(text);
  std::string gram;
  for (std::size_t i = 0; i < w.size(); ++i) {
    f(feature_hash('w', w[i].data(), w[i].size()), 1.0f);
    if (o.word_bigrams && i + 1 < w.size()) {
      gram = w[i] + ' ' + w[i + 1];
      f(feature_hash('b', gram.data(), gram.size()), 0.7f);
    }
    if (o.max_char_ngram >= o.min_char_ngram && o.min_char_ngram > 0) {
      // A word's n-grams together weigh 0.35 of the word (their L2 mass), however long it is:
      // they add morphology (phosphorylation ~ phosphorylates) without drowning the words.
      gram = '<' + w[i] + '>';
      std::size_t count = 0;
      for (int n = o.min_char_ngram; n <= o.max_char_ngram; ++n)
        if (gram.size() >= static_cast<std::size_t>(n)) count += gram.size() - static_cast<std::size_t>(n) + 1;
      if (count == 0) continue;
      const float weight = 0.35f / std::sqrt(static_cast<float>(count));
      for (int n = o.min_char_ngram; n <= o.max_char_ngram; ++n)
        for (std::size_t s = 0; s + static_cast<std::size_t>(n) <= gram.size(); ++s)
          f(feature_hash('c', gram.data() + s, static_cast<std::size_t>(n)), weight);
    }
  }
}

}  // namespace

HashingEmbedder::HashingEmbedder(HashingEmbedderOptions options) : options_(options) {
  if (options_.dimension == 0 || options_.dimension > 65536)
    throw Error(ErrorCode::invalid_argument, "hashing embedder: dimension must be in 1..65536");
  if (options_.min_char_ngram < 0 || options_.max_char_ngram > 16)
    throw Error(ErrorCode::invalid_argument, "hashing embedder: character n-grams must be in 0..16");
}

void HashingEmbedder::fit(const std::vector<std::string> &corpus) {
  df_.assign(kBuckets, 0);
  docs_ = static_cast<uint32_t>(std::min<std::size_t>(corpus.size(), UINT32_MAX));
  std::vector<uint32_t> seen;
  for (const auto &doc : corpus) {
    seen.clear();
    for_features(doc, options_, [&](uint64_t h, float) { seen.push_back(static_cast<uint32_t>(h & (kBuckets - 1))); });
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    for (uint32_t b : seen)
      if (df_[b] < UINT16_MAX) ++df_[b];
  }
  compute_idf();
}

void HashingEmbedder::compute_idf() {
  // Smoothed IDF per bucket. Features in more than a quarter of the corpus ("protein",
  // "involved") carry no signal and only add noise: weight 0, as scikit-learn's max_df does.
  // (a table by document frequency, not by bucket: 65,536 logarithms instead of a million, so
  // that restoring a model for one query is cheap)
  idf_.assign(std::size_t{UINT16_MAX} + 1, 0.0f);
  const double n = static_cast<double>(docs_);
  for (std::size_t k = 0; k < idf_.size(); ++k) {
    const double df = static_cast<double>(k);
    idf_[k] = (n >= 20 && df > 0.25 * n) ? 0.0f : static_cast<float>(std::log((n + 1.0) / (df + 1.0)) + 1.0);
  }
}

void HashingEmbedder::embed_one(const std::string &text, float *out) const {
  std::fill(out, out + options_.dimension, 0.0f);
  // Term frequencies per feature (weighted by family), then sublinear tf x idf.
  std::vector<std::pair<uint64_t, float>> feats;
  for_features(text, options_, [&](uint64_t h, float w) { feats.emplace_back(h, w); });
  std::sort(feats.begin(), feats.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  for (std::size_t i = 0; i < feats.size();) {
    std::size_t j = i;
    float tf = 0;
    while (j < feats.size() && feats[j].first == feats[i].first) tf += feats[j++].second > 0 ? 1.0f : 0.0f;
    const uint64_t h = feats[i].first;
    const double idf = idf_.empty() ? 1.0 : idf_[df_[h & (kBuckets - 1)]];
    if (idf <= 0) {  // dropped: see compute_idf
      i = j;
      continue;
    }
    const double weight = (tf == 1.0f ? 1.0 : 1.0 + std::log(static_cast<double>(tf))) * idf * feats[i].second;
    // Each feature goes to kProbes signed buckets at weight / sqrt(kProbes): the norm is kept,
    // and one collision between two features moves a cosine by a quarter as much, so short
    // texts (two or three features) no longer match anything that happens to share a bucket.
    uint64_t x = h;
    for (int p = 0; p < kProbes; ++p) {
      x = mix(x + 0x9e3779b97f4a7c15ull);
      // Multiply-shift range reduction (no division): bucket in [0, dimension).
      const std::size_t bucket = static_cast<std::size_t>(((x >> 32) * options_.dimension) >> 32);
      const double part = weight / std::sqrt(static_cast<double>(kProbes));
      out[bucket] += static_cast<float>((x & 1) ? -part : part);
    }
    i = j;
  }
  double norm = 0;
  for (std::size_t k = 0; k < options_.dimension; ++k) norm += static_cast<double>(out[k]) * out[k];
  if (norm > 0) {
    const float inv = static_cast<float>(1.0 / std::sqrt(norm));
    for (std::size_t k = 0; k < options_.dimension; ++k) out[k] *= inv;
  }
}

Embeddings HashingEmbedder::embed(const std::vector<std::string> &texts) {
  Embeddings e;
  e.dim = options_.dimension;
  e.data.resize(texts.size() * e.dim);
  // Texts are independent: large batches use every core (results do not depend on it).
  std::size_t threads = texts.size() >= 512 ? std::max(1u, std::thread::hardware_concurrency()) : 1;
  threads = std::min<std::size_t>(threads, 8);
  if (threads == 1) {
    for (std::size_t i = 0; i < texts.size(); ++i) embed_one(texts[i], e.row(i));
    return e;
  }
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (std::size_t i = texts.size() * t / threads; i < texts.size() * (t + 1) / threads; ++i) embed_one(texts[i], e.row(i));
    });
  for (auto &th : pool) th.join();
  return e;
}

std::string HashingEmbedder::config() const {
  return nlohmann::json{{"dimension", options_.dimension},
                        {"min_char_ngram", options_.min_char_ngram},
                        {"max_char_ngram", options_.max_char_ngram},
                        {"word_bigrams", options_.word_bigrams},
                        {"documents", docs_}}
      .dump();
}

std::string HashingEmbedder::state() const {
  std::string s(df_.size() * sizeof(uint16_t), '\0');
  if (!df_.empty()) std::memcpy(s.data(), df_.data(), s.size());
  return s;
}

std::string HashingEmbedder::model() const {
  // The model name changes with any parameter or learned weight.
  uint64_t h = feature_hash('m', reinterpret_cast<const char *>(df_.data()), df_.size() * sizeof(uint16_t));
  const std::string c = config();
  h ^= feature_hash('c', c.data(), c.size());
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return "grappi-hashing-v6-d" + std::to_string(options_.dimension) + "-" + std::string(hex, 12);
}

std::unique_ptr<HashingEmbedder> HashingEmbedder::restore(const std::string &config, std::string_view state) {
  auto j = nlohmann::json::parse(config, nullptr, false);
  if (!j.is_object()) throw Error(ErrorCode::invalid_argument, "hashing embedder: configuration is not a JSON object");
  HashingEmbedderOptions o;
  o.dimension = j.value("dimension", o.dimension);
  o.min_char_ngram = j.value("min_char_ngram", o.min_char_ngram);
  o.max_char_ngram = j.value("max_char_ngram", o.max_char_ngram);
  o.word_bigrams = j.value("word_bigrams", o.word_bigrams);
  auto e = std::make_unique<HashingEmbedder>(o);
  e->docs_ = j.value("documents", 0u);
  if (!state.empty()) {
    if (state.size() != kBuckets * sizeof(uint16_t))
      throw Error(ErrorCode::invalid_argument, "hashing embedder: stored state has the wrong size");
    e->df_.resize(kBuckets);
    std::memcpy(e->df_.data(), state.data(), state.size());
    e->compute_idf();
  }
  return e;
}

// ---- HttpEmbedder -----------------------------------------------------------------------------

HttpEmbedder::HttpEmbedder(HttpEmbedderOptions options) : options_(std::move(options)) {
  if (options_.model.empty()) throw Error(ErrorCode::invalid_argument, "HTTP embedder: no model given");
  if (options_.base_url.empty()) throw Error(ErrorCode::invalid_argument, "HTTP embedder: no base URL given");
  while (!options_.base_url.empty() && options_.base_url.back() == '/') options_.base_url.pop_back();
  detail::check_server_url(options_.base_url, "HTTP embedder");
  if (options_.batch_size == 0) options_.batch_size = 1;
  dim_ = options_.dimensions;
}

std::string HttpEmbedder::model() const {
  return "openai:" + options_.model + (options_.dimensions ? ":d" + std::to_string(options_.dimensions) : "");
}

std::size_t HttpEmbedder::dimension() const { return dim_.load(); }

std::string HttpEmbedder::config() const {
  // (stored in the database: a password in the URL is not)
  return nlohmann::json{{"base_url", detail::redact_url(options_.base_url)},
                        {"model", options_.model},
                        {"dimensions", options_.dimensions},
                        {"api_key_env", options_.api_key_env},
                        {"dimension", dim_.load()}}
      .dump();
}

std::unique_ptr<HttpEmbedder> HttpEmbedder::restore(const std::string &config) {
  auto j = nlohmann::json::parse(config, nullptr, false);
  if (!j.is_object()) throw Error(ErrorCode::invalid_argument, "HTTP embedder: configuration is not a JSON object");
  HttpEmbedderOptions o;
  o.base_url = j.value("base_url", o.base_url);
  if (o.base_url.find(":***@") != std::string::npos)
    throw Error(ErrorCode::invalid_argument, "HTTP embedder: the server URL '" + o.base_url +
                                                 "' was stored without its password; give the key by its environment "
                                                 "variable (api_key_env) instead of in the URL");
  o.model = j.value("model", std::string());
  o.dimensions = j.value("dimensions", std::size_t{0});
  o.api_key_env = j.value("api_key_env", o.api_key_env);
  auto e = std::make_unique<HttpEmbedder>(o);
  e->dim_ = j.value("dimension", o.dimensions);  // atomic store
  return e;
}

Embeddings HttpEmbedder::embed(const std::vector<std::string> &texts) {
  Embeddings out;
  out.dim = dim_.load();
  const std::string url = options_.base_url + "/embeddings", shown = detail::redact_url(url);
  detail::RetryPolicy policy{options_.max_retries, options_.retry_base_seconds, options_.retry_cap_seconds,
                             options_.connect_timeout_seconds, options_.timeout_seconds};
  std::size_t i = 0;
  while (i < texts.size()) {
    // One batch: at most batch_size inputs and max_batch_chars characters (at least one input).
    std::size_t j = i, chars = 0;
    nlohmann::json input = nlohmann::json::array();
    while (j < texts.size() && j - i < options_.batch_size &&
           (j == i || chars + texts[j].size() <= options_.max_batch_chars)) {
      // Empty strings are rejected by some servers; a space embeds as "nothing".
      input.push_back(texts[j].empty() ? std::string(" ") : texts[j]);
      chars += texts[j].size();
      ++j;
    }
    nlohmann::json req = {{"model", options_.model}, {"input", input}, {"encoding_format", "float"}};
    if (options_.dimensions) req["dimensions"] = options_.dimensions;
    int attempts = 0;
    detail::HttpResponse r;
    try {
      r = detail::post_json(url, dump_json(req), {detail::bearer_header(options_.api_key_env)}, policy, &attempts);
      requests_ += static_cast<std::size_t>(attempts);
    } catch (...) {
      requests_ += static_cast<std::size_t>(attempts);
      throw;
    }
    auto j_body = detail::parse_json_or_discarded(r.body);
    if (!j_body.is_object() || !j_body.contains("data") || !j_body["data"].is_array())
      throw Error(ErrorCode::network, "POST " + shown + ": answer is not an embeddings response: " + detail::error_message(r.body));
    const auto &data = j_body["data"];
    if (data.size() != j - i)
      throw Error(ErrorCode::network, "POST " + shown + ": asked for " + std::to_string(j - i) + " embeddings, got " +
                                          std::to_string(data.size()));
    std::vector<const nlohmann::json *> by_index(j - i, nullptr);
    for (std::size_t k = 0; k < data.size(); ++k) {
      const auto &d = data[k];
      std::size_t idx = d.is_object() && d.contains("index") && d["index"].is_number_unsigned() ? d["index"].get<std::size_t>() : k;
      if (idx >= by_index.size() || by_index[idx])
        throw Error(ErrorCode::network, "POST " + shown + ": embedding index " + std::to_string(idx) + " out of range or repeated");
      by_index[idx] = &d;
    }
    for (std::size_t k = 0; k < by_index.size(); ++k) {
      const auto &d = *by_index[k];
      if (!d.is_object() || !d.contains("embedding") || !d["embedding"].is_array() || d["embedding"].empty())
        throw Error(ErrorCode::network, "POST " + shown + ": embedding " + std::to_string(k) + " is missing or not a list of numbers");
      const auto &v = d["embedding"];
      if (out.dim == 0) {
        out.dim = v.size();
        dim_ = out.dim;
      }
      if (v.size() != out.dim)
        throw Error(ErrorCode::network, "POST " + shown + ": embedding of dimension " + std::to_string(v.size()) +
                                            ", expected " + std::to_string(out.dim));
      for (const auto &x : v) {
        if (!x.is_number()) throw Error(ErrorCode::network, "POST " + shown + ": embedding " + std::to_string(k) + " holds a non-number");
        const double value = x.get<double>();
        if (!(std::fabs(value) <= static_cast<double>(std::numeric_limits<float>::max())))
          throw Error(ErrorCode::network, "POST " + shown + ": embedding " + std::to_string(k) + " holds " + x.dump() +
                                              ", beyond a float's range");
        out.data.push_back(static_cast<float>(value));
      }
    }
    i = j;
  }
  return out;
}

// ---- CallbackEmbedder ---------------------------------------------------------------------------

CallbackEmbedder::CallbackEmbedder(std::string model, std::size_t dimension, Fn fn)
    : model_(std::move(model)), dim_(dimension), fn_(std::move(fn)) {
  if (model_.empty()) throw Error(ErrorCode::invalid_argument, "callback embedder: empty model name");
  if (dim_ == 0) throw Error(ErrorCode::invalid_argument, "callback embedder: dimension is 0");
  if (!fn_) throw Error(ErrorCode::invalid_argument, "callback embedder: no function");
}

Embeddings CallbackEmbedder::embed(const std::vector<std::string> &texts) {
  Embeddings e = fn_(texts);
  if (e.dim != dim_ || e.data.size() != texts.size() * dim_)
    throw Error(ErrorCode::invalid_argument, "callback embedder '" + model_ + "' returned " + std::to_string(e.rows()) +
                                                 " vectors of dimension " + std::to_string(e.dim) + " for " +
                                                 std::to_string(texts.size()) + " texts of dimension " + std::to_string(dim_));
  for (float x : e.data)
    if (!std::isfinite(x)) throw Error(ErrorCode::invalid_argument, "callback embedder '" + model_ + "' returned a non-finite value");
  return e;
}

}  // namespace grappi
