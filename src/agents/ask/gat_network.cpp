// The graph reader's network (gat_network.hpp): features, GATv1 forward and backward passes, the
// class-balanced BCE. Written from the published equations.
#include "agents/ask/gat_network.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "grappi/error.hpp"

namespace grappi::detail {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using CMap = Eigen::Map<const MatrixXd>;
using Map = Eigen::Map<MatrixXd>;
using CVec = Eigen::Map<const VectorXd>;
using Vec = Eigen::Map<VectorXd>;

double softplus(double s) { return std::max(s, 0.0) + std::log1p(std::exp(-std::abs(s))); }

// A dropout scale matrix: each entry 0 with probability p, else 1 / (1 - p). (GCC 12 can warn
// "'this' pointer is null" inside the generator here, depending on what a unity batch inlines
// around it: a false positive, the generator is a reference.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnonnull"
#endif
MatrixXd dropout_mask(Eigen::Index rows, Eigen::Index cols, double p, std::mt19937_64 &rng) {
  MatrixXd m(rows, cols);
  std::bernoulli_distribution keep(1 - p);
  const double scale = 1 / (1 - p);
  for (Eigen::Index c = 0; c < cols; ++c)
    for (Eigen::Index r = 0; r < rows; ++r) m(r, c) = keep(rng) ? scale : 0.0;
  return m;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace

GatLayout::GatLayout(std::size_t d, std::size_t r, const GatReaderOptions &o)
    : dim(d), relations(r), width(o.hidden), heads(o.heads), head_hidden(o.head_hidden) {
  features = 2 * d + kGatScalarFeatures + r + 1;
  std::size_t at = 0;
  std::size_t in = features;
  for (std::size_t l = 0; l < o.layers; ++l) {
    Layer y;
    y.in = in;
    y.W = at;
    at += in * width;
    y.a_src = at;
    at += width;
    y.a_dst = at;
    at += width;
    y.rel = at;
    at += heads * types();
    y.coef = at;
    at += heads;
    y.bias = at;
    at += width;
    layers.push_back(y);
    in = width;
  }
  W1 = at;
  at += in * head_hidden;
  b1 = at;
  at += head_hidden;
  w2 = at;
  at += head_hidden;
  b2 = at;
  at += 1;
  total = at;
}

GatInput gat_input(const ReaderGraph &g, const GatLayout &L, const std::vector<std::string> &relations, const std::string &what) {
  const std::size_t n = g.nodes.size(), d = L.dim, R = L.relations;
  if (n == 0) throw Error(ErrorCode::invalid_argument, what + ": the subgraph has no nodes");
  if (!g.vectors) throw Error(ErrorCode::invalid_argument, what + ": the subgraph has no embeddings");
  if (g.vectors->dim() != d || g.question.size() != d)
    throw Error(ErrorCode::invalid_argument, what + ": the reader reads embeddings of dimension " + std::to_string(d) +
                                                 ", the subgraph's are " + std::to_string(g.vectors->dim()) +
                                                 " (question " + std::to_string(g.question.size()) +
                                                 "): train it with the same embedding model");
  std::unordered_map<std::string, std::size_t> rel_index;
  for (std::size_t i = 0; i < relations.size(); ++i) rel_index.emplace(relations[i], i);
  GatInput in;
  in.x = MatrixXd::Zero(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(L.features));
  in.asked.resize(n);
  // The question, unit length.
  VectorXd q(static_cast<Eigen::Index>(d));
  for (std::size_t k = 0; k < d; ++k) q[Eigen::Index(k)] = std::isfinite(g.question[k]) ? double(g.question[k]) : 0.0;
  if (q.norm() > 0) q /= q.norm();
  const double root_d = std::sqrt(double(d));
  double max_prize = 0;
  for (const ReaderNode &v : g.nodes) max_prize = std::max(max_prize, std::isfinite(v.prize) ? v.prize : 0.0);
  // Edges by target, both directions, then a self-loop each.
  std::vector<std::vector<std::size_t>> incoming(n);
  std::vector<std::size_t> sub_degree(n, 0);
  std::vector<double> partner_score(n, -1);
  for (std::size_t e = 0; e < g.edges.size(); ++e) {
    const ReaderEdge &x = g.edges[e];
    if (x.source >= n || x.target >= n)
      throw Error(ErrorCode::invalid_argument, what + ": edge " + std::to_string(e) + " joins node " +
                                                   std::to_string(std::max(x.source, x.target)) + " of a subgraph of " +
                                                   std::to_string(n) + " nodes");
    incoming[x.target].push_back(e);
    if (x.source != x.target) incoming[x.source].push_back(e);
    ++sub_degree[x.source];
    ++sub_degree[x.target];
  }
  for (std::size_t i = 0; i < n; ++i) in.asked[i] = g.nodes[i].asked;
  const auto edge_score = [](const ReaderEdge &x) { return std::isfinite(x.score) ? std::clamp(x.score, 0.0, 1.0) : 0.0; };
  for (const ReaderEdge &x : g.edges) {
    if (in.asked[x.source]) partner_score[x.target] = std::max(partner_score[x.target], edge_score(x));
    if (in.asked[x.target]) partner_score[x.source] = std::max(partner_score[x.source], edge_score(x));
  }
  in.start.push_back(0);
  for (std::size_t i = 0; i < n; ++i) {
    const ReaderNode &v = g.nodes[i];
    const float *vec = g.vectors->vector(v.node);
    const auto row = static_cast<Eigen::Index>(i);
    if (vec) {
      VectorXd x(static_cast<Eigen::Index>(d));
      for (std::size_t k = 0; k < d; ++k) x[Eigen::Index(k)] = std::isfinite(vec[k]) ? double(vec[k]) : 0.0;
      if (x.norm() > 0) x /= x.norm();
      in.x.block(row, 0, 1, Eigen::Index(d)) = x.transpose();
      in.x.block(row, Eigen::Index(d), 1, Eigen::Index(d)) = (root_d * x.cwiseProduct(q)).transpose();
    }
    std::size_t c = 2 * d;
    in.x(row, Eigen::Index(c++)) = std::isfinite(v.similarity) ? v.similarity : 0.0;
    in.x(row, Eigen::Index(c++)) = max_prize > 0 && std::isfinite(v.prize) ? std::max(0.0, v.prize) / max_prize : 0.0;
    in.x(row, Eigen::Index(c++)) = v.seed ? 1.0 : 0.0;
    in.x(row, Eigen::Index(c++)) = v.asked ? 1.0 : 0.0;
    in.x(row, Eigen::Index(c++)) = v.selected ? 1.0 : 0.0;
    in.x(row, Eigen::Index(c++)) = partner_score[i] >= 0 ? 1.0 : 0.0;
    in.x(row, Eigen::Index(c++)) = std::max(0.0, partner_score[i]);
    in.x(row, Eigen::Index(c++)) = std::log1p(double(v.degree)) / 5;
    in.x(row, Eigen::Index(c++)) = std::log1p(double(sub_degree[i])) / 3;
    for (std::size_t e : incoming[i]) {
      const ReaderEdge &x = g.edges[e];
      const auto it = rel_index.find(x.relation);
      const std::size_t t = it == rel_index.end() ? R : it->second;
      in.x(row, Eigen::Index(c + t)) += 1;
      in.source.push_back(x.target == i ? x.source : x.target);
      in.type.push_back(t);
      in.score.push_back(edge_score(x));
    }
    for (std::size_t t = 0; t <= R; ++t) in.x(row, Eigen::Index(c + t)) = std::log1p(in.x(row, Eigen::Index(c + t)));
    in.source.push_back(i);
    in.type.push_back(R + 1);
    in.score.push_back(1.0);
    in.start.push_back(in.source.size());
  }
  return in;
}

double sigmoid(double s) { return s >= 0 ? 1 / (1 + std::exp(-s)) : std::exp(s) / (1 + std::exp(s)); }

std::vector<double> gat_initial_parameters(const GatLayout &L, uint64_t seed) {
  std::vector<double> p(L.total, 0.0);
  std::mt19937_64 rng(seed);
  const auto glorot = [&](std::size_t at, std::size_t fan_in, std::size_t fan_out, std::size_t count) {
    std::uniform_real_distribution<double> u(-1, 1);
    const double limit = std::sqrt(6.0 / double(fan_in + fan_out));
    for (std::size_t i = 0; i < count; ++i) p[at + i] = limit * u(rng);
  };
  for (const auto &y : L.layers) {
    glorot(y.W, y.in, L.width, y.in * L.width);
    glorot(y.a_src, L.per_head(), 1, L.width);
    glorot(y.a_dst, L.per_head(), 1, L.width);
  }
  glorot(L.W1, L.width, L.head_hidden, L.width * L.head_hidden);
  glorot(L.w2, L.head_hidden, 1, L.head_hidden);
  return p;
}

VectorXd GatPass::forward(const GatInput &in, double dropout, std::mt19937_64 *rng) {
  const auto n = in.x.rows();
  const auto D = Eigen::Index(L_.width), P = Eigen::Index(L_.per_head());
  const std::size_t H = L_.heads, T = L_.types();
  const bool train = rng && dropout > 0;
  cache_.assign(L_.layers.size(), {});
  MatrixXd h = in.x;
  for (std::size_t l = 0; l < L_.layers.size(); ++l) {
    const auto &y = L_.layers[l];
    LayerCache &c = cache_[l];
    if (train) {
      c.mask = dropout_mask(n, h.cols(), dropout, *rng);
      c.x = h.cwiseProduct(c.mask);
    } else {
      c.x = std::move(h);
    }
    c.z = c.x * CMap(&p_[y.W], Eigen::Index(y.in), D);
    const auto E = Eigen::Index(in.source.size());
    c.alpha.resize(Eigen::Index(H), E);
    c.u.resize(Eigen::Index(H), E);
    MatrixXd out = MatrixXd::Zero(n, D);
    for (std::size_t k = 0; k < H; ++k) {
      const auto col = Eigen::Index(k) * P;
      const VectorXd sd = c.z.middleCols(col, P) * CVec(&p_[y.a_dst + std::size_t(col)], P);
      const VectorXd ss = c.z.middleCols(col, P) * CVec(&p_[y.a_src + std::size_t(col)], P);
      const double coef = p_[y.coef + k];
      for (Eigen::Index i = 0; i < n; ++i) {
        const std::size_t b = in.start[std::size_t(i)], e = in.start[std::size_t(i) + 1];
        double top = -std::numeric_limits<double>::infinity();
        for (std::size_t m = b; m < e; ++m) {
          const double u = sd[i] + ss[Eigen::Index(in.source[m])] + p_[y.rel + k * T + in.type[m]] + coef * in.score[m];
          c.u(Eigen::Index(k), Eigen::Index(m)) = u;
          const double a = u > 0 ? u : slope_ * u;
          c.alpha(Eigen::Index(k), Eigen::Index(m)) = a;
          top = std::max(top, a);
        }
        double sum = 0;
        for (std::size_t m = b; m < e; ++m) {
          double &a = c.alpha(Eigen::Index(k), Eigen::Index(m));
          a = std::exp(a - top);
          sum += a;
        }
        for (std::size_t m = b; m < e; ++m) {
          double &a = c.alpha(Eigen::Index(k), Eigen::Index(m));
          a /= sum;
          out.row(i).segment(col, P) += a * c.z.row(Eigen::Index(in.source[m])).segment(col, P);
        }
      }
    }
    c.pre = out.rowwise() + CVec(&p_[y.bias], D).transpose();
    h = c.pre.unaryExpr([](double v) { return v > 0 ? v : std::expm1(v); });
  }
  if (train) {
    head_mask_ = dropout_mask(n, h.cols(), dropout, *rng);
    head_in_ = h.cwiseProduct(head_mask_);
  } else {
    head_mask_.resize(0, 0);
    head_in_ = std::move(h);
  }
  const auto Hd = Eigen::Index(L_.head_hidden);
  head_pre_ = (head_in_ * CMap(&p_[L_.W1], D, Hd)).rowwise() + CVec(&p_[L_.b1], Hd).transpose();
  const MatrixXd r = head_pre_.cwiseMax(0.0);
  return (r * CVec(&p_[L_.w2], Hd)).array() + p_[L_.b2];
}

void GatPass::backward(const GatInput &in, const VectorXd &ds, std::vector<double> &grad) const {
  const auto n = in.x.rows();
  const auto D = Eigen::Index(L_.width), P = Eigen::Index(L_.per_head()), Hd = Eigen::Index(L_.head_hidden);
  const std::size_t H = L_.heads, T = L_.types();
  // The head.
  const MatrixXd r = head_pre_.cwiseMax(0.0);
  Vec(&grad[L_.w2], Hd) += r.transpose() * ds;
  grad[L_.b2] += ds.sum();
  MatrixXd da = ds * CVec(&p_[L_.w2], Hd).transpose();
  da = da.cwiseProduct((head_pre_.array() > 0).cast<double>().matrix());
  Map(&grad[L_.W1], D, Hd) += head_in_.transpose() * da;
  Vec(&grad[L_.b1], Hd) += da.colwise().sum().transpose();
  MatrixXd dh = da * CMap(&p_[L_.W1], D, Hd).transpose();
  if (head_mask_.size()) dh = dh.cwiseProduct(head_mask_);
  // The layers, last first.
  for (std::size_t l = L_.layers.size(); l-- > 0;) {
    const auto &y = L_.layers[l];
    const LayerCache &c = cache_[l];
    const MatrixXd dpre = dh.cwiseProduct(c.pre.unaryExpr([](double v) { return v > 0 ? 1.0 : std::exp(v); }));
    Vec(&grad[y.bias], D) += dpre.colwise().sum().transpose();
    MatrixXd dz = MatrixXd::Zero(n, D);
    std::vector<double> dalpha;
    for (std::size_t k = 0; k < H; ++k) {
      const auto col = Eigen::Index(k) * P;
      VectorXd dsd = VectorXd::Zero(n), dss = VectorXd::Zero(n);
      for (Eigen::Index i = 0; i < n; ++i) {
        const std::size_t b = in.start[std::size_t(i)], e = in.start[std::size_t(i) + 1];
        dalpha.assign(e - b, 0.0);
        double weighted = 0;
        for (std::size_t m = b; m < e; ++m) {
          const auto j = Eigen::Index(in.source[m]);
          const double a = c.alpha(Eigen::Index(k), Eigen::Index(m));
          dalpha[m - b] = dpre.row(i).segment(col, P).dot(c.z.row(j).segment(col, P));
          dz.row(j).segment(col, P) += a * dpre.row(i).segment(col, P);
          weighted += a * dalpha[m - b];
        }
        for (std::size_t m = b; m < e; ++m) {
          const double a = c.alpha(Eigen::Index(k), Eigen::Index(m));
          const double u = c.u(Eigen::Index(k), Eigen::Index(m));
          const double du = a * (dalpha[m - b] - weighted) * (u > 0 ? 1.0 : slope_);
          dsd[i] += du;
          dss[Eigen::Index(in.source[m])] += du;
          grad[y.rel + k * T + in.type[m]] += du;
          grad[y.coef + k] += du * in.score[m];
        }
      }
      const auto zk = c.z.middleCols(col, P);
      Vec(&grad[y.a_dst + std::size_t(col)], P) += zk.transpose() * dsd;
      Vec(&grad[y.a_src + std::size_t(col)], P) += zk.transpose() * dss;
      dz.middleCols(col, P) += dsd * CVec(&p_[y.a_dst + std::size_t(col)], P).transpose() +
                               dss * CVec(&p_[y.a_src + std::size_t(col)], P).transpose();
    }
    Map(&grad[y.W], Eigen::Index(y.in), D) += c.x.transpose() * dz;
    if (l == 0) break;
    dh = dz * CMap(&p_[y.W], Eigen::Index(y.in), D).transpose();
    if (c.mask.size()) dh = dh.cwiseProduct(c.mask);
  }
}

double gat_loss(const GatLayout &L, const std::vector<double> &params, double slope, const GatInput &in,
                const std::vector<std::size_t> &answers, double dropout, std::mt19937_64 *rng, std::vector<double> *gradient) {
  GatPass pass(L, params, slope);
  const VectorXd s = pass.forward(in, dropout, rng);
  const auto n = s.size();
  std::vector<char> gold(static_cast<std::size_t>(n), 0);
  for (std::size_t a : answers) gold[a] = 1;
  const auto pos = static_cast<double>(std::count(gold.begin(), gold.end(), 1));
  const double neg = double(n) - pos;
  // Class-balanced: the answers weigh half, the rest half (all of it when one class is absent).
  const double wp = pos == 0 ? 0 : (neg == 0 ? 1 / pos : 0.5 / pos);
  const double wn = neg == 0 ? 0 : (pos == 0 ? 1 / neg : 0.5 / neg);
  double loss = 0;
  VectorXd ds(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const bool y = gold[std::size_t(i)];
    const double w = y ? wp : wn;
    loss += w * (softplus(s[i]) - (y ? s[i] : 0.0));
    ds[i] = w * (sigmoid(s[i]) - (y ? 1.0 : 0.0));
  }
  if (gradient) pass.backward(in, ds, *gradient);
  return loss;
}

}  // namespace grappi::detail
