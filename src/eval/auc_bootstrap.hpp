// How far apart two scorers' ROC AUCs are on the same labelled items, with a paired bootstrap
// over groups (a hypothesis pair's paths are one group: they share a pair, its documents and
// its labels, so they are drawn together). Used by evaluate_hypotheses() to say whether
// grappi's margin over a baseline is more than the corpus's noise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace grappi::detail {

/// One scorer's scores, per group, per item (the same shape as the labels).
using GroupScores = std::vector<std::vector<double>>;

/// A difference of ROC AUCs (the first scorer's minus the other's) and its percentile interval.
struct AucDifference {
  bool defined = false;   // both figures exist on the items as they are
  double difference = 0;  // on the items as they are
  double low = 0, high = 0;  // the interval's ends (equal to difference without resamples)
  std::size_t resamples = 0;  // resamples where both figures exist (the interval's)
};

/// Micro (every item pooled) and macro (the mean over groups with both classes) differences.
struct AucComparison {
  AucDifference micro, macro;
};

/// `first` against each of `others` on the same items: the differences on the items as they
/// are, and percentile intervals at `level` (in (0, 1)) over `resamples` draws of the groups
/// with replacement (the same draws for every comparison; deterministic for `seed`, and not the
/// stream of a mt19937_64 seeded with `seed` itself, which a caller may use otherwise). Pooled
/// AUCs count ties as half, as roc_auc() does. The shapes must match `labels`.
std::vector<AucComparison> compare_aucs(const std::vector<std::vector<bool>> &labels, const GroupScores &first,
                                        const std::vector<GroupScores> &others, std::size_t resamples, uint64_t seed,
                                        double level = 0.95);

}  // namespace grappi::detail
