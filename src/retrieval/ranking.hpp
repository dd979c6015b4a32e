// Internal: keep the best k results, ordered by descending score, ties by ascending id.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace grappi::detail {

template <class T>
void keep_best(std::vector<T> &v, std::size_t k) {
  auto better = [](const T &a, const T &b) { return a.score != b.score ? a.score > b.score : a.id < b.id; };
  if (v.size() > k) {
    std::partial_sort(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end(), better);
    v.resize(k);
  } else {
    std::sort(v.begin(), v.end(), better);
  }
}

}  // namespace grappi::detail
