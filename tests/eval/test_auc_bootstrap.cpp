// The paired bootstrap of ROC AUC differences against the plain rank-sum AUC: the differences
// on the items as they are, the weighting of groups drawn several times (against the same
// groups written out again), intervals that exclude 0 only for a real margin, and bad shapes.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "common/ranking_metrics.hpp"
#include "eval/auc_bootstrap.hpp"
#include "grappi/error.hpp"

using grappi::detail::AucComparison;
using grappi::detail::compare_aucs;
using grappi::detail::GroupScores;
using grappi::detail::roc_auc;

namespace {

using Labels = std::vector<std::vector<bool>>;

// The pooled AUC of the groups, group g written out times[g] times.
double pooled(const Labels &labels, const GroupScores &s, const std::vector<int> &times) {
  std::vector<std::pair<double, bool>> scored;
  for (std::size_t g = 0; g < labels.size(); ++g)
    for (int t = 0; t < times[g]; ++t)
      for (std::size_t k = 0; k < labels[g].size(); ++k) scored.emplace_back(s[g][k], labels[g][k]);
  return roc_auc(scored);
}

double macro(const Labels &labels, const GroupScores &s) {
  double sum = 0;
  int n = 0;
  for (std::size_t g = 0; g < labels.size(); ++g) {
    std::vector<std::pair<double, bool>> scored;
    for (std::size_t k = 0; k < labels[g].size(); ++k) scored.emplace_back(s[g][k], labels[g][k]);
    const double a = roc_auc(scored);
    if (a >= 0) sum += a, ++n;
  }
  return sum / n;
}

// Random groups of 3 to 12 items, about a fifth positive, scores with ties.
void random_groups(std::mt19937_64 &rng, std::size_t groups, Labels &labels, GroupScores &a, GroupScores &b) {
  labels.assign(groups, {});
  a.assign(groups, {});
  b.assign(groups, {});
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t k = 0, n = 3 + rng() % 10; k < n; ++k) {
      const bool positive = rng() % 5 == 0;
      labels[g].push_back(positive);
      a[g].push_back(double(rng() % 4) + (positive ? 1.0 : 0.0));  // (informative, with ties)
      b[g].push_back(double(rng() % 3));                             // (not)
    }
}

}  // namespace

TEST_CASE("AUC differences on the items as they are are the rank-sum AUCs' differences") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    Labels labels;
    GroupScores a, b;
    random_groups(rng, 2 + rng() % 8, labels, a, b);
    const std::vector<int> once(labels.size(), 1);
    const std::vector<AucComparison> c = compare_aucs(labels, a, {b, a}, 0, 1);
    REQUIRE(c.size() == 2);
    const double ma = pooled(labels, a, once), mb = pooled(labels, b, once);
    REQUIRE(c[0].micro.defined == (ma >= 0 && mb >= 0));
    if (c[0].micro.defined) CHECK(c[0].micro.difference == doctest::Approx(ma - mb).epsilon(1e-12));
    bool both = false;  // (a group with both classes: the macro figure exists)
    for (const auto &l : labels) both = both || (std::count(l.begin(), l.end(), true) && std::count(l.begin(), l.end(), false));
    REQUIRE(c[0].macro.defined == both);
    if (both) CHECK(c[0].macro.difference == doctest::Approx(macro(labels, a) - macro(labels, b)).epsilon(1e-12));
    // Without resamples there is no interval; a scorer against itself differs by 0.
    CHECK(c[0].micro.resamples == 0);
    CHECK(c[0].micro.low == c[0].micro.difference);
    CHECK(c[1].micro.difference == 0);
    CHECK(c[1].macro.difference == 0);
  }
}

TEST_CASE("AUC bootstrap: a group drawn twice weighs as the group written out twice") {
  // Three groups; at the 99.9% level over 20,000 draws the interval's ends are the smallest and
  // the largest difference any draw can give (each draw of three groups has probability at
  // least 1/27), computed here by writing the drawn groups out.
  // (Chosen so that both ends come from a group drawn twice: counted once, they would be 0.167
  // and 0.6 instead of 0.1 and 0.625.)
  const Labels labels = {{false, false}, {true, true, false}, {true, true, true}};
  const GroupScores a = {{1, 2}, {2, 3, 2}, {3, 3, 0}};
  const GroupScores b = {{0, 2}, {3, 2, 3}, {1, 2, 0}};
  double lowest = 1, highest = -1;
  for (int x = 0; x <= 3; ++x)
    for (int y = 0; x + y <= 3; ++y) {
      const std::vector<int> times = {x, y, 3 - x - y};
      const double pa = pooled(labels, a, times), pb = pooled(labels, b, times);
      if (pa < 0 || pb < 0) continue;
      lowest = std::min(lowest, pa - pb);
      highest = std::max(highest, pa - pb);
    }
  const AucComparison c = compare_aucs(labels, a, {b}, 20000, 3, 0.999).at(0);
  REQUIRE(c.micro.defined);
  CHECK(c.micro.low == doctest::Approx(lowest).epsilon(1e-12));
  CHECK(c.micro.high == doctest::Approx(highest).epsilon(1e-12));
  CHECK(c.micro.low == doctest::Approx(0.1));
  CHECK(c.micro.high == doctest::Approx(0.625));
  CHECK(c.micro.resamples > 15000);  // (the draws of one class only are left out)
}

TEST_CASE("AUC bootstrap: the interval excludes 0 for a real margin and holds it for none") {
  std::mt19937_64 rng(11);
  Labels labels;
  GroupScores informative, noise;
  random_groups(rng, 60, labels, informative, noise);
  const std::vector<AucComparison> c = compare_aucs(labels, informative, {noise, informative}, 1000, 5);
  CHECK(c[0].micro.difference > 0.1);
  CHECK(c[0].micro.low > 0);
  CHECK(c[0].micro.low < c[0].micro.difference);
  CHECK(c[0].micro.high > c[0].micro.difference);
  CHECK(c[0].macro.low > 0);
  CHECK(c[0].micro.resamples == 1000);
  CHECK(c[1].micro.low == 0);  // (against itself: every draw differs by 0)
  CHECK(c[1].micro.high == 0);
  // Two scorers from the same distribution: the interval holds 0.
  GroupScores other = noise;
  for (auto &g : other)
    for (double &x : g) x = double(rng() % 3);
  const AucComparison n = compare_aucs(labels, noise, {other}, 1000, 5).at(0);
  CHECK(n.micro.low < 0);
  CHECK(n.micro.high > 0);
  // The same seed draws the same resamples; another seed others.
  const AucComparison again = compare_aucs(labels, informative, {noise}, 1000, 5).at(0);
  CHECK(again.micro.low == c[0].micro.low);
  CHECK(again.micro.high == c[0].micro.high);
  CHECK(compare_aucs(labels, informative, {noise}, 1000, 6).at(0).micro.low != c[0].micro.low);
}

TEST_CASE("AUC bootstrap: scores shaped otherwise than the labels and a level outside (0 1) are refused") {
  const Labels labels = {{true, false}, {false}};
  const GroupScores ok = {{1, 0}, {0}};
  CHECK_THROWS_AS(compare_aucs(labels, {{1, 0}}, {ok}, 10, 1), grappi::Error);
  CHECK_THROWS_AS(compare_aucs(labels, ok, {{{1, 0}, {0, 1}}}, 10, 1), grappi::Error);
  CHECK_THROWS_AS(compare_aucs(labels, ok, {ok}, 10, 1, 1.0), grappi::Error);
  CHECK_THROWS_AS(compare_aucs(labels, ok, {ok}, 10, 1, 0.0), grappi::Error);
  // No groups: nothing is defined, nothing drawn.
  const AucComparison none = compare_aucs({}, {}, {GroupScores{}}, 10, 1).at(0);
  CHECK_FALSE(none.micro.defined);
  CHECK_FALSE(none.macro.defined);
}
