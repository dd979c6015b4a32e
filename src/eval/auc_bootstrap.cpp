// The paired bootstrap of ROC AUC differences (auc_bootstrap.hpp): each scorer's items sorted
// once, and every resample's pooled AUC one weighted pass over them (a group drawn n times
// weighs n); the macro figure from the groups' own AUCs, which a draw does not change.
#include "eval/auc_bootstrap.hpp"

#include <algorithm>
#include <random>
#include <string>

#include "common/ranking_metrics.hpp"
#include "grappi/error.hpp"

namespace grappi::detail {

namespace {

// One scorer's items in score order, for pooled AUCs with weighted groups.
class Pooled {
 public:
  Pooled(const std::vector<std::vector<bool>> &labels, const GroupScores &scores) {
    for (std::size_t g = 0; g < labels.size(); ++g)
      for (std::size_t k = 0; k < labels[g].size(); ++k) items_.push_back({scores[g][k], g, labels[g][k]});
    std::sort(items_.begin(), items_.end(), [](const Item &x, const Item &y) { return x.score < y.score; });
  }
  // The pooled AUC with group g counted times[g] times (ties half); -1 without both classes.
  double auc(const std::vector<double> &times) const {
    double negatives_below = 0, positives = 0, sum = 0;
    for (std::size_t i = 0; i < items_.size();) {
      double p = 0, n = 0;
      std::size_t j = i;
      for (; j < items_.size() && items_[j].score == items_[i].score; ++j)
        (items_[j].positive ? p : n) += times[items_[j].group];
      sum += p * (negatives_below + 0.5 * n);
      negatives_below += n;
      positives += p;
      i = j;
    }
    return positives > 0 && negatives_below > 0 ? sum / (positives * negatives_below) : -1.0;
  }

 private:
  struct Item {
    double score;
    std::size_t group;
    bool positive;
  };
  std::vector<Item> items_;
};

// The mean of the groups' AUCs (-1: none has both classes), group g counted times[g] times.
double macro_auc(const std::vector<double> &aucs, const std::vector<double> &times) {
  double sum = 0, n = 0;
  for (std::size_t g = 0; g < aucs.size(); ++g)
    if (aucs[g] >= 0) sum += times[g] * aucs[g], n += times[g];
  return n > 0 ? sum / n : -1.0;
}

// The q-quantile of sorted values, interpolated between neighbours.
double quantile(const std::vector<double> &sorted, double q) {
  const double at = q * double(sorted.size() - 1);
  const std::size_t i = static_cast<std::size_t>(at);
  if (i + 1 >= sorted.size()) return sorted.back();
  return sorted[i] + (at - double(i)) * (sorted[i + 1] - sorted[i]);
}

void close_interval(AucDifference &d, std::vector<double> &draws, double level) {
  d.resamples = draws.size();
  d.low = d.high = d.difference;
  if (draws.empty()) return;
  std::sort(draws.begin(), draws.end());
  d.low = quantile(draws, (1 - level) / 2);
  d.high = quantile(draws, (1 + level) / 2);
}

void check_shape(const std::vector<std::vector<bool>> &labels, const GroupScores &scores) {
  bool same = scores.size() == labels.size();
  for (std::size_t g = 0; same && g < labels.size(); ++g) same = scores[g].size() == labels[g].size();
  if (!same) throw Error(ErrorCode::internal, "compare_aucs: the scores are not shaped as the labels");
}

}  // namespace

std::vector<AucComparison> compare_aucs(const std::vector<std::vector<bool>> &labels, const GroupScores &first,
                                        const std::vector<GroupScores> &others, std::size_t resamples, uint64_t seed,
                                        double level) {
  if (!(level > 0 && level < 1))
    throw Error(ErrorCode::invalid_argument, "compare_aucs: the level must lie in (0, 1), not " + std::to_string(level));
  check_shape(labels, first);
  for (const GroupScores &s : others) check_shape(labels, s);
  const std::size_t groups = labels.size();
  // Each scorer's pooled order and its groups' own AUCs (the first scorer is index 0).
  std::vector<Pooled> pooled;
  std::vector<std::vector<double>> aucs;
  for (std::size_t s = 0; s <= others.size(); ++s) {
    const GroupScores &scores = s == 0 ? first : others[s - 1];
    pooled.emplace_back(labels, scores);
    std::vector<double> a;
    for (std::size_t g = 0; g < groups; ++g) {
      std::vector<std::pair<double, bool>> scored;
      for (std::size_t k = 0; k < labels[g].size(); ++k) scored.emplace_back(scores[g][k], labels[g][k]);
      a.push_back(roc_auc(std::move(scored)));
    }
    aucs.push_back(std::move(a));
  }
  // The figures with each group counted times[g] times: micro and macro per scorer.
  const auto figures = [&](const std::vector<double> &times, std::vector<double> &micro, std::vector<double> &macro) {
    micro.clear(), macro.clear();
    for (std::size_t s = 0; s < pooled.size(); ++s) micro.push_back(pooled[s].auc(times)), macro.push_back(macro_auc(aucs[s], times));
  };
  std::vector<AucComparison> out(others.size());
  std::vector<double> micro, macro;
  figures(std::vector<double>(groups, 1.0), micro, macro);
  for (std::size_t s = 1; s < pooled.size(); ++s) {
    AucComparison &c = out[s - 1];
    c.micro.defined = micro[0] >= 0 && micro[s] >= 0;
    c.micro.difference = c.micro.defined ? micro[0] - micro[s] : 0;
    c.macro.defined = macro[0] >= 0 && macro[s] >= 0;
    c.macro.difference = c.macro.defined ? macro[0] - macro[s] : 0;
  }
  std::vector<std::vector<double>> micro_draws(others.size()), macro_draws(others.size());
  // A stream of its own (a caller's other draws from mt19937_64(seed), such as a random
  // baseline's scores, are not these); the draw is rng() % groups, and seed_seq's mixing is
  // specified: the same resamples on every standard library.
  std::seed_seq mixed{uint32_t(seed), uint32_t(seed >> 32), 0xb0075u};
  std::mt19937_64 rng(mixed);
  std::vector<double> times(groups);
  for (std::size_t r = 0; groups > 0 && r < resamples; ++r) {
    std::fill(times.begin(), times.end(), 0.0);
    for (std::size_t i = 0; i < groups; ++i) times[rng() % groups] += 1;
    figures(times, micro, macro);
    for (std::size_t s = 1; s < pooled.size(); ++s) {
      if (micro[0] >= 0 && micro[s] >= 0) micro_draws[s - 1].push_back(micro[0] - micro[s]);
      if (macro[0] >= 0 && macro[s] >= 0) macro_draws[s - 1].push_back(macro[0] - macro[s]);
    }
  }
  for (std::size_t s = 0; s < out.size(); ++s) {
    if (out[s].micro.defined) close_interval(out[s].micro, micro_draws[s], level);
    if (out[s].macro.defined) close_interval(out[s].macro, macro_draws[s], level);
  }
  return out;
}

}  // namespace grappi::detail
