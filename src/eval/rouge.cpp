// ROUGE-1 and ROUGE-L F1 (grappi/hypothesis.hpp) over the library's tokenizer: lower-case words
// of letters and digits.
#include <algorithm>
#include <map>

#include "grappi/hypothesis.hpp"
#include "common/text_util.hpp"

namespace grappi {

namespace {

double f1(std::size_t overlap, std::size_t candidate, std::size_t reference) {
  if (overlap == 0 || candidate == 0 || reference == 0) return 0;
  const double p = double(overlap) / double(candidate), r = double(overlap) / double(reference);
  return 2 * p * r / (p + r);
}

}  // namespace

double rouge_1_f1(const std::string &text, const std::string &reference) {
  const auto a = detail::words(text), b = detail::words(reference);
  std::map<std::string, std::size_t> count;
  for (const auto &w : b) ++count[w];
  std::size_t overlap = 0;
  for (const auto &w : a)
    if (auto it = count.find(w); it != count.end() && it->second > 0) {
      --it->second;
      ++overlap;
    }
  return f1(overlap, a.size(), b.size());
}

double rouge_l_f1(const std::string &text, const std::string &reference) {
  const auto a = detail::words(text), b = detail::words(reference);
  // The longest common subsequence, one row at a time.
  std::vector<std::size_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
    std::swap(prev, cur);
  }
  return f1(prev[b.size()], a.size(), b.size());
}

}  // namespace grappi
