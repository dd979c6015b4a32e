// The path ranker (grappi/path_ranker.hpp): a path's features, a class- and pair-balanced
// logistic regression fitted by Newton's method on standardised features, stored in the
// database as a trained model of kind "path_ranker".
#include "grappi/path_ranker.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "grappi/error.hpp"
#include "grappi/hypothesis.hpp"
#include "grappi/json_text.hpp"
#include "common/ranking_metrics.hpp"
#include "common/text_util.hpp"

namespace grappi {

namespace {

using nlohmann::json;

constexpr const char *kKind = "path_ranker";
constexpr int kFormat = 6;  // 2: the prior's weight; 3: with the pair's share; 4: open ends; 5: no pair's share;
                            // 6: named with the ends

double log10_or(double x, double floor) { return x > 0 ? std::log10(x) : floor; }

// The coarse type of a concept from its label or annotation type.
int type_of(const std::string &label) {
  const std::string l = detail::lower_copy(label);
  if (l.find("gene") != std::string::npos || l.find("protein") != std::string::npos) return 0;
  if (l.find("disease") != std::string::npos || l.find("phenotyp") != std::string::npos) return 1;
  if (l.find("chemical") != std::string::npos || l.find("drug") != std::string::npos) return 2;
  if (l.find("species") != std::string::npos || l.find("organism") != std::string::npos) return 3;
  return 4;
}

// The log chance that the path's intermediate concepts are all named with the pair (an
// independence model): each intermediate x is named with an end E as often as it was before,
// (documents naming x and E + share(x)) / (documents naming E + 1), its own share carrying the
// estimate for an end seen in few documents; named with the pair when named with either end
// (a noisy or). A species end ("mice", "patients") says nothing about what else is named: x's
// share stands in for it.
double named_with_ends(const HypothesisPath &p) {
  const std::size_t n = p.nodes.size();
  if (n < 3 || p.documents.size() != n || p.with_source.size() != n || p.with_target.size() != n || p.shares.size() != n)
    return 0.0;
  const auto species = [&](std::size_t i) { return i < p.labels.size() && type_of(p.labels[i]) == 3; };
  const double a = double(p.documents.front()), b = double(p.documents.back());
  double sum = 0;
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double share = p.shares[i] > 0 ? p.shares[i] : 1e-4;
    const double pa = species(0) ? share : (double(p.with_source[i]) + share) / (a + 1);
    const double pb = species(n - 1) ? share : (double(p.with_target[i]) + share) / (b + 1);
    sum += std::log10(std::max(1 - (1 - pa) * (1 - pb), 1e-12));
  }
  return sum;
}

}  // namespace

const std::vector<std::string> &PathRanker::feature_names() {
  static const std::vector<std::string> names = {
      "edges",           "direct",           "npmi_min",      "npmi_mean",      "jaccard_min_log", "jaccard_mean_log",
      "support_min_log", "support_mean_log", "papers_log",    "single_paper",   "recency",         "dated_share",
      "share_min_log",   "share_mean_log",   "share_max_log", "type_gene",      "type_disease",    "type_chemical",
      "type_species",    "type_other",       "curated_share", "ends_share_log", "similarity",      "open_ends",
      "named_with_ends_log"};
  return names;
}

std::vector<double> PathRanker::features(const HypothesisPath &p) {
  const double n = double(std::max<std::size_t>(p.edges.size(), 1));
  std::vector<double> f(feature_names().size(), 0.0);
  f[0] = double(p.edges.size());
  f[1] = p.edges.size() == 1 ? 1.0 : 0.0;
  double npmi_min = 1, npmi_sum = 0, jac_min = 1, jac_sum = 0, sup_min = 1e9, sup_sum = 0, year_sum = 0, dated = 0,
         curated = 0;
  for (std::size_t i = 0; i < p.edges.size(); ++i) {
    const double w = i < p.weights.size() ? p.weights[i] : 0.0;
    npmi_min = std::min(npmi_min, w);
    npmi_sum += w;
    const double j = i < p.jaccards.size() ? log10_or(p.jaccards[i], -6) : -6;
    jac_min = std::min(jac_min, j);
    jac_sum += j;
    const double s = std::log1p(i < p.support.size() ? double(p.support[i]) : 0.0);
    sup_min = std::min(sup_min, s);
    sup_sum += s;
    if (i < p.latest_years.size() && p.latest_years[i] > 0) year_sum += (p.latest_years[i] - 2000) / 20.0, ++dated;
    curated += i < p.curated.size() && p.curated[i] ? 1.0 : 0.0;
  }
  if (p.edges.empty()) npmi_min = jac_min = sup_min = 0;
  f[2] = npmi_min;
  f[3] = npmi_sum / n;
  f[4] = jac_min;
  f[5] = jac_sum / n;
  f[6] = sup_min;
  f[7] = sup_sum / n;
  f[8] = std::log1p(double(p.papers));
  f[9] = p.single_paper ? 1.0 : 0.0;
  f[10] = dated > 0 ? year_sum / dated : 0.0;
  f[11] = dated / n;
  // The intermediate concepts: document frequency and types.
  double share_min = 0, share_sum = 0, share_max = -7, inner = 0;
  std::vector<double> types(5, 0.0);
  for (std::size_t i = 1; i + 1 < p.nodes.size(); ++i) {
    const double sh = i < p.shares.size() ? log10_or(p.shares[i], -7) : -7;
    share_min = inner > 0 ? std::min(share_min, sh) : sh;
    share_max = std::max(share_max, sh);
    share_sum += sh;
    ++inner;
    types[std::size_t(type_of(i < p.labels.size() ? p.labels[i] : std::string()))] += 1;
  }
  f[12] = inner > 0 ? share_min : 0.0;
  f[13] = inner > 0 ? share_sum / inner : 0.0;
  f[14] = inner > 0 ? share_max : 0.0;
  for (std::size_t t = 0; t < 5; ++t) f[15 + t] = inner > 0 ? types[t] / inner : 0.0;
  f[20] = curated / n;
  // The pair's own document shares: a pair named often is named with more concepts later.
  if (p.nodes.size() >= 2 && p.shares.size() == p.nodes.size())
    f[21] = 0.5 * (log10_or(p.shares.front(), -7) + log10_or(p.shares.back(), -7));
  f[22] = p.similarity;
  f[23] = double(p.open_ends);
  f[24] = named_with_ends(p);
  return f;
}

namespace {

// The prior: every intermediate concept must be named with the pair, each about as likely as
// its share of the documents; the weakest intermediate's log share once per intermediate (an
// independence model of them all being named), shorter paths first on a tie; then
// intermediates already named with both ends first (each open end costs 0.005: the
// common-neighbour signal of link prediction, small enough to reorder only equal scores); then
// intermediates named more often with the ends (named_with_ends, at most 0.004 in all: it
// only orders what is still equal). The pair's own document share is not in it: it lifted the
// pooled figure on one split of BioRED and sank it below path length on others (BENCHMARKS.md
// "Hypotheses against their baselines"); a trained ranker may still weigh it (feature
// ends_share_log).
double prior_score(const std::vector<double> &f) {
  return f[12] * (f[0] - 1) - 0.01 * f[0] - 0.005 * f[23] + 1e-4 * std::max(f[24], -36.0);
}

// Weighted rows of labelled paths.
struct Rows {
  std::vector<const std::vector<double> *> x;
  std::vector<double> y, w;
};

// Every pair weighs 1, split between its classes; then the classes weigh alike overall.
Rows rows_of(const std::vector<PathRankerExample> &pairs, const std::vector<std::size_t> &which) {
  Rows r;
  for (std::size_t q : which) {
    const PathRankerExample &pair = pairs[q];
    std::size_t pos = 0;
    for (bool b : pair.positive) pos += b;
    const std::size_t neg = pair.positive.size() - pos;
    for (std::size_t i = 0; i < pair.features.size(); ++i) {
      const bool p = pair.positive[i];
      r.x.push_back(&pair.features[i]);
      r.y.push_back(p ? 1.0 : 0.0);
      r.w.push_back((pos && neg ? 0.5 : 1.0) / double(p ? pos : neg));
    }
  }
  double wp = 0, wn = 0;
  for (std::size_t k = 0; k < r.y.size(); ++k) (r.y[k] > 0 ? wp : wn) += r.w[k];
  for (std::size_t k = 0; k < r.y.size(); ++k)
    r.w[k] *= r.y[k] > 0 ? (wp > 0 ? 0.5 / wp : 0.0) : (wn > 0 ? 0.5 / wn : 0.0);
  return r;
}

// Counts that grow with the corpus (an edge's documents, the path's papers): a ranker fitted on
// the earlier, smaller part would misread them on the whole; it reads shares, not counts.
bool absolute(std::size_t j) { return j == 6 || j == 7 || j == 8; }

constexpr std::size_t kSimilarity = 22;  // (feature_names()'s "similarity")

bool both_classes(const Rows &r) {
  bool p = false, n = false;
  for (double y : r.y) (y > 0 ? p : n) = true;
  return p && n;
}

}  // namespace

// The logistic regression: logit = bias + gamma * prior + sum_j w_j * standardised feature j,
// gamma and the bias free, the weights under an L2 penalty (l2 < 0: the prior alone).
PathRanker PathRanker::fit(const std::vector<PathRankerExample> &pairs, const std::vector<std::size_t> &which,
                           double l2, const PathRankerOptions &o) {
  const std::size_t d = feature_names().size();
  const Rows R = rows_of(pairs, which);
  PathRanker k;
  k.similarity_ = o.similarity;
  k.mean_.assign(d, 0.0);
  k.scale_.assign(d, 1.0);
  double total = 0;
  for (double x : R.w) total += x;
  const bool prior_only = l2 < 0;
  for (std::size_t j = 0; j < d; ++j) {
    double m = 0, v = 0;
    for (std::size_t r = 0; r < R.x.size(); ++r) m += R.w[r] * (*R.x[r])[j];
    m /= total;
    for (std::size_t r = 0; r < R.x.size(); ++r) v += R.w[r] * ((*R.x[r])[j] - m) * ((*R.x[r])[j] - m);
    v /= total;
    k.mean_[j] = m;
    // (a constant feature, or one the ranker does not read, stays out: scale 0)
    k.scale_[j] = !prior_only && v > 1e-12 && !(j == kSimilarity && !o.similarity) && !absolute(j) ? 1.0 / std::sqrt(v) : 0.0;
  }
  const Eigen::Index n = static_cast<Eigen::Index>(R.x.size()), p = static_cast<Eigen::Index>(d) + 2;
  Eigen::MatrixXd X(n, p);
  for (Eigen::Index r = 0; r < n; ++r) {
    const std::vector<double> &f = *R.x[std::size_t(r)];
    for (std::size_t j = 0; j < d; ++j) X(r, Eigen::Index(j)) = (f[j] - k.mean_[j]) * k.scale_[j];
    X(r, p - 2) = prior_score(f);
    X(r, p - 1) = 1.0;
  }
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(p), W = Eigen::Map<const Eigen::VectorXd>(R.w.data(), n),
                  Y = Eigen::Map<const Eigen::VectorXd>(R.y.data(), n);
  Eigen::MatrixXd penalty = Eigen::MatrixXd::Identity(p, p) * (prior_only ? 0.0 : l2);
  penalty(p - 2, p - 2) = penalty(p - 1, p - 1) = 0;
  std::size_t steps = 0;
  for (; steps < o.iterations; ++steps) {
    const Eigen::VectorXd z = X * beta;
    Eigen::VectorXd mu(n), s(n);
    for (Eigen::Index r = 0; r < n; ++r) {
      mu(r) = 1.0 / (1.0 + std::exp(-std::clamp(z(r), -30.0, 30.0)));
      s(r) = W(r) * mu(r) * (1 - mu(r));
    }
    const Eigen::VectorXd grad = X.transpose() * (W.cwiseProduct(mu - Y)) + penalty * beta;
    const Eigen::MatrixXd H = X.transpose() * s.asDiagonal() * X + penalty + Eigen::MatrixXd::Identity(p, p) * 1e-6;
    const Eigen::VectorXd step = H.ldlt().solve(grad);
    beta -= step;
    if (!beta.allFinite()) throw Error(ErrorCode::invalid_argument, "path ranker: the fit diverged");
    if (step.cwiseAbs().maxCoeff() < 1e-9) break;
  }
  k.weights_.assign(d, 0.0);
  for (std::size_t j = 0; j < d; ++j) k.weights_[j] = beta(Eigen::Index(j));
  k.prior_weight_ = beta(p - 2);
  k.bias_ = beta(p - 1);
  k.info_ = {{"newton_steps", steps}, {"l2", prior_only ? json(nullptr) : json(l2)}, {"similarity", o.similarity}};
  return k;
}

PathRanker PathRanker::prior() {
  PathRanker k;
  const std::size_t d = feature_names().size();
  k.mean_.assign(d, 0.0);
  k.scale_.assign(d, 0.0);
  k.weights_.assign(d, 0.0);
  k.prior_weight_ = 1.0;
  k.info_ = {{"prior", true}};
  return k;
}

PathRanker PathRanker::train(const std::vector<PathRankerExample> &pairs, const PathRankerOptions &o) {
  const std::size_t d = feature_names().size();
  if (!(o.l2 >= 0 || o.l2 == -1) || !std::isfinite(o.l2) || o.iterations == 0)
    throw Error(ErrorCode::invalid_argument,
                "path ranker: l2 must be finite and >= 0 (or -1: chosen by cross-validation), iterations at least 1");
  if (o.folds < 2) throw Error(ErrorCode::invalid_argument, "path ranker: cross-validation needs at least 2 folds");
  std::vector<std::size_t> all;
  for (std::size_t q = 0; q < pairs.size(); ++q) {
    const PathRankerExample &pair = pairs[q];
    if (pair.features.size() != pair.positive.size())
      throw Error(ErrorCode::invalid_argument, "path ranker: a pair with " + std::to_string(pair.features.size()) +
                                                   " feature rows and " + std::to_string(pair.positive.size()) +
                                                   " labels");
    for (const auto &f : pair.features)
      if (f.size() != d)
        throw Error(ErrorCode::invalid_argument,
                    "path ranker: " + std::to_string(f.size()) + " features, expected " + std::to_string(d));
    if (!pair.features.empty()) all.push_back(q);
  }
  const Rows R = rows_of(pairs, all);
  if (!both_classes(R)) {
    bool positive = false;
    for (double y : R.y) positive = positive || y > 0;
    throw Error(ErrorCode::invalid_argument, "path ranker: the training paths need positives and negatives (got " +
                                                 std::string(positive ? "no negative" : "no positive") + ")");
  }
  // The penalty: given, or chosen by cross-validation over groups of pairs (each fold's pairs
  // scored by a ranker fitted on the others; the mean of the pooled and the per-pair ROC AUC),
  // the prior alone among the candidates, the larger penalty on a tie. Pairs one later document
  // links share their labels: split across folds, a fold is scored on what it learnt from its
  // siblings (on BioRED every penalty then looked 0.1-0.3 better than it was, and the weakest
  // won every split).
  double l2 = o.l2;
  json cv = json::array();
  if (l2 < 0) {
    // Each pair's fold: its group's, groups numbered in order of appearance.
    std::vector<std::size_t> fold_of(pairs.size(), 0);
    std::size_t groups = 0;
    {
      std::map<std::string, std::size_t> number;
      for (std::size_t q : all) {
        const std::string &g = pairs[q].group;
        fold_of[q] = g.empty() ? groups++ : number.emplace(g, groups).first->second;
        if (!g.empty() && number[g] == groups) ++groups;
      }
    }
    const std::size_t folds = std::min(o.folds, groups);
    double best = -2;
    for (double candidate : {-1.0, 100.0, 10.0, 1.0, 0.1}) {
      std::vector<std::pair<double, bool>> pooled;
      double macro = 0;
      std::size_t macro_pairs = 0;
      bool usable = folds >= 2;
      for (std::size_t fold = 0; fold < folds && usable; ++fold) {
        std::vector<std::size_t> train, test;
        for (std::size_t q : all) (fold_of[q] % folds == fold ? test : train).push_back(q);
        if (!both_classes(rows_of(pairs, train))) {
          usable = false;
          break;
        }
        const PathRanker k = fit(pairs, train, candidate, o);
        for (std::size_t q : test) {
          std::vector<std::pair<double, bool>> scored;
          for (std::size_t i = 0; i < pairs[q].features.size(); ++i)
            scored.emplace_back(k.score(pairs[q].features[i]), pairs[q].positive[i]);
          pooled.insert(pooled.end(), scored.begin(), scored.end());
          const double a = detail::roc_auc(scored);
          if (a >= 0) macro += a, ++macro_pairs;
        }
      }
      if (!usable) break;
      const double micro = detail::roc_auc(pooled), mac = macro_pairs ? macro / double(macro_pairs) : micro;
      const double figure = 0.5 * (micro + mac);
      cv.push_back({{"l2", candidate < 0 ? json("prior") : json(candidate)}, {"auc_micro", micro}, {"auc_macro", mac}});
      if (figure > best + 1e-9) best = figure, l2 = candidate;
    }
    if (cv.empty()) l2 = -1;  // (too few pairs to hold any out: the prior, its scale fitted)
  }
  PathRanker k = fit(pairs, all, l2, o);
  k.info_["pairs"] = all.size();
  k.info_["paths"] = R.x.size();
  if (o.l2 < 0) k.info_["cross_validation"] = cv;
  return k;
}

double PathRanker::score(const std::vector<double> &f) const {
  if (!trained()) throw Error(ErrorCode::invalid_argument, "path ranker: not trained");
  if (f.size() != weights_.size())
    throw Error(ErrorCode::invalid_argument, "path ranker: " + std::to_string(f.size()) +
                                                 " features, the ranker reads " + std::to_string(weights_.size()));
  double z = bias_ + prior_weight_ * prior_score(f);
  for (std::size_t j = 0; j < f.size(); ++j) z += weights_[j] * (f[j] - mean_[j]) * scale_[j];
  return z;
}

double PathRanker::score(const HypothesisPath &path) const { return score(features(path)); }

json PathRanker::weights_json() const {
  json out = json::object();
  for (std::size_t j = 0; j < weights_.size(); ++j)
    if (scale_[j] != 0) out[feature_names()[j]] = weights_[j];
  out["prior"] = prior_weight_;
  out["bias"] = bias_;
  return out;
}

void PathRanker::save(KnowledgeGraph &kg, const std::string &name) const {
  if (!trained()) throw Error(ErrorCode::invalid_argument, "path ranker: nothing to save (not trained)");
  if (name.empty()) throw Error(ErrorCode::invalid_argument, "path ranker: a stored ranker needs a name");
  TrainedModel m;
  m.name = name;
  m.kind = kKind;
  m.spec = dump_json(json{{"format", kFormat},
                          {"features", feature_names()},
                          {"mean", mean_},
                          {"scale", scale_},
                          {"weights", weights_},
                          {"bias", bias_},
                          {"prior_weight", prior_weight_},
                          {"similarity", similarity_},
                          {"info", info_}});
  m.data = "path_ranker";  // (the weights are in the spec: a few dozen numbers)
  kg.store_trained_model(m);
}

PathRanker PathRanker::load(const KnowledgeGraph &kg, const std::string &name) {
  const auto m = kg.trained_model(name);
  if (!m || m->kind != kKind) {
    std::string have;
    for (const TrainedModel &t : kg.trained_models())
      if (t.kind == kKind) have += (have.empty() ? "" : ", ") + t.name;
    throw Error(ErrorCode::not_found,
                "no path ranker named '" + name + "' in the database" +
                    (have.empty() ? std::string(" (train one with grappi train-ranker)") : " (it has: " + have + ")"));
  }
  const auto damaged = [&](const std::string &why) {
    return Error(ErrorCode::database, "path ranker '" + name + "': " + why);
  };
  const json spec = json::parse(m->spec, nullptr, false);
  if (!spec.is_object()) throw damaged("its description is not JSON");
  if (spec.value("format", 0) > kFormat) throw damaged("of a newer format; upgrade grappi");
  PathRanker k;
  try {
    if (spec.at("features").get<std::vector<std::string>>() != feature_names())
      throw damaged("trained on other features (" + dump_json(spec.at("features")) + "); train it again");
    k.mean_ = spec.at("mean").get<std::vector<double>>();
    k.scale_ = spec.at("scale").get<std::vector<double>>();
    k.weights_ = spec.at("weights").get<std::vector<double>>();
    k.bias_ = spec.at("bias").get<double>();
    k.prior_weight_ = spec.value("prior_weight", 0.0);  // (format 1 had no prior)
    if (spec.value("format", 0) < kFormat && k.prior_weight_ != 0)
      throw damaged("fitted on an earlier prior (format " + std::to_string(spec.value("format", 0)) +
                    "); train it again (grappi train-ranker)");
    k.similarity_ = spec.value("similarity", false);
    k.info_ = spec.value("info", json::object());
  } catch (const json::exception &e) {
    throw damaged(std::string("malformed (") + e.what() + ")");
  }
  const std::size_t d = feature_names().size();
  if (k.mean_.size() != d || k.scale_.size() != d || k.weights_.size() != d)
    throw damaged("its weights do not match its features");
  for (std::size_t j = 0; j < d; ++j)
    if (!std::isfinite(k.mean_[j]) || !std::isfinite(k.scale_[j]) || !std::isfinite(k.weights_[j]))
      throw damaged("a weight is not finite");
  if (!std::isfinite(k.bias_) || !std::isfinite(k.prior_weight_)) throw damaged("its bias is not finite");
  return k;
}

std::shared_ptr<const PathRanker> PathRanker::stored(const KnowledgeGraph &kg, const std::string &name) {
  if (!name.empty()) return std::make_shared<const PathRanker>(load(kg, name));
  for (const TrainedModel &m : kg.trained_models())
    if (m.name == kDefaultName && m.kind == "path_ranker")
      return std::make_shared<const PathRanker>(load(kg, kDefaultName));
  return nullptr;
}

}  // namespace grappi
