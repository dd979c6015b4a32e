// Ranking figures shared by the evaluations and the path ranker's model selection.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace grappi::detail {

// ROC AUC by the rank-sum (Mann-Whitney) statistic, ties given their mean rank; -1 without both classes.
inline double roc_auc(std::vector<std::pair<double, bool>> scored) {
  std::sort(scored.begin(), scored.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
  double positives = 0, rank_sum = 0;
  for (std::size_t i = 0; i < scored.size();) {
    std::size_t j = i;
    while (j < scored.size() && scored[j].first == scored[i].first) ++j;
    const double mean_rank = (double(i + 1) + double(j)) / 2;
    for (std::size_t k = i; k < j; ++k)
      if (scored[k].second) positives += 1, rank_sum += mean_rank;
    i = j;
  }
  const double negatives = double(scored.size()) - positives;
  if (positives == 0 || negatives == 0) return -1;
  return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives);
}

}  // namespace grappi::detail
