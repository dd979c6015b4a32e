// The graph reader (grappi/reader.hpp): training (Adam over mini-batches of questions, their
// gradients computed in parallel and summed in question order so that the model does not depend
// on the thread count; early stopping on the validation MRR), scoring, storage in the database.
#include "grappi/reader.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "agents/ask/gat_network.hpp"
#include "common/json_input.hpp"
#include "common/parallel.hpp"
#include "grappi/error.hpp"
#include "grappi/json_text.hpp"

namespace grappi {

namespace {

using nlohmann::json;
using detail::GatInput;
using detail::GatLayout;

constexpr int kFormat = 1;
constexpr const char *kKind = "gat_reader";

void check_options(const GatReaderOptions &o) {
  const auto bad = [](const std::string &what) { throw Error(ErrorCode::invalid_argument, "graph reader: " + what); };
  if (o.layers < 1 || o.layers > 8) bad("layers must be 1 to 8, not " + std::to_string(o.layers));
  if (o.heads < 1 || o.heads > 64 || o.hidden < 1 || o.hidden % o.heads != 0 || o.hidden > 4096)
    bad("hidden (" + std::to_string(o.hidden) + ") must be a positive multiple of heads (" + std::to_string(o.heads) +
        "), at most 4096, with 1 to 64 heads");
  if (o.head_hidden < 1 || o.head_hidden > 4096) bad("head_hidden must be 1 to 4096");
  if (!(o.dropout >= 0 && o.dropout <= 0.95)) bad("dropout must be in [0, 0.95]");
  if (!(o.negative_slope >= 0 && o.negative_slope < 1)) bad("negative_slope must be in [0, 1)");
  if (!(o.learning_rate >= 1e-7 && o.learning_rate <= 1)) bad("learning_rate must be in [1e-7, 1]");
  if (!(o.weight_decay >= 0 && o.weight_decay <= 1)) bad("weight_decay must be in [0, 1]");
  if (o.epochs < 1 || o.epochs > 100000) bad("epochs must be 1 to 100000");
  if (o.batch < 1 || o.batch > 100000) bad("batch must be 1 to 100000");
  if (!(o.valid_share >= 0 && o.valid_share <= 0.9)) bad("valid_share must be in [0, 0.9]");
}

json options_json(const GatReaderOptions &o) {
  return json{{"layers", o.layers},         {"hidden", o.hidden},     {"heads", o.heads},
              {"head_hidden", o.head_hidden}, {"dropout", o.dropout}, {"negative_slope", o.negative_slope},
              {"learning_rate", o.learning_rate}, {"weight_decay", o.weight_decay}, {"epochs", o.epochs},
              {"batch", o.batch},           {"patience", o.patience}, {"valid_share", o.valid_share},
              {"seed", o.seed}};
}

GatReaderOptions options_from(const json &j) {
  GatReaderOptions o;
  o.layers = detail::json_integer<std::size_t>(j.at("layers"));
  o.hidden = detail::json_integer<std::size_t>(j.at("hidden"));
  o.heads = detail::json_integer<std::size_t>(j.at("heads"));
  o.head_hidden = detail::json_integer<std::size_t>(j.at("head_hidden"));
  o.dropout = j.at("dropout").get<double>();
  o.negative_slope = j.at("negative_slope").get<double>();
  o.learning_rate = j.value("learning_rate", o.learning_rate);
  o.weight_decay = j.value("weight_decay", o.weight_decay);
  o.epochs = j.value("epochs", o.epochs);
  o.batch = j.value("batch", o.batch);
  o.patience = j.value("patience", o.patience);
  o.valid_share = j.value("valid_share", o.valid_share);
  o.seed = j.value("seed", o.seed);
  return o;
}

// Rank (1-based) of the first answer among the nodes by score, the question's entities left out
// (0: none ranked).
std::size_t first_rank(const std::vector<double> &score, const GatInput &in, const std::vector<std::size_t> &answers) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < score.size(); ++i)
    if (!in.asked[i]) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return score[a] > score[b]; });
  const std::set<std::size_t> gold(answers.begin(), answers.end());
  for (std::size_t r = 0; r < order.size(); ++r)
    if (gold.count(order[r])) return r + 1;
  return 0;
}

void check_example(const ReaderExample &x, std::size_t dim, const std::string &what) {
  const std::string name = what + " '" + x.id + "'";
  if (x.graph.nodes.empty()) throw Error(ErrorCode::invalid_argument, name + ": the subgraph has no nodes");
  if (x.answers.empty()) throw Error(ErrorCode::invalid_argument, name + ": no answer among the subgraph's nodes");
  for (std::size_t a : x.answers)
    if (a >= x.graph.nodes.size())
      throw Error(ErrorCode::invalid_argument, name + ": answer " + std::to_string(a) + " is outside the subgraph of " +
                                                   std::to_string(x.graph.nodes.size()) + " nodes");
  if (!x.graph.vectors || x.graph.vectors->dim() != dim)
    throw Error(ErrorCode::invalid_argument, name + ": embeddings of dimension " +
                                                 std::to_string(x.graph.vectors ? x.graph.vectors->dim() : 0) +
                                                 ", the first example's are " + std::to_string(dim));
}

// The examples' inputs, built once when they fit in memory (else on each use).
class Inputs {
 public:
  Inputs(const std::vector<const ReaderExample *> &xs, const GatLayout &L, const std::vector<std::string> &rel,
         unsigned threads)
      : xs_(xs), L_(L), rel_(rel) {
    std::size_t cells = 0;
    for (const ReaderExample *x : xs) cells += x->graph.nodes.size() * L.features;
    if (cells <= (std::size_t{32} << 20)) {
      built_.resize(xs.size());
      detail::parallel_for(xs.size(), threads ? threads : detail::hardware_threads(),
                           [&](std::size_t i) { built_[i] = detail::gat_input(xs[i]->graph, L, rel, "graph reader"); });
    }
  }
  std::size_t size() const { return xs_.size(); }
  const ReaderExample &example(std::size_t i) const { return *xs_[i]; }
  // The input of example i: the stored one, or built into `scratch`.
  const GatInput &input(std::size_t i, GatInput &scratch) const {
    if (!built_.empty()) return built_[i];
    scratch = detail::gat_input(xs_[i]->graph, L_, rel_, "graph reader");
    return scratch;
  }

 private:
  std::vector<const ReaderExample *> xs_;
  const GatLayout &L_;
  const std::vector<std::string> &rel_;
  std::vector<GatInput> built_;
};

}  // namespace

GatReader GatReader::initial(std::size_t dimension, std::vector<std::string> relations, const GatReaderOptions &options) {
  check_options(options);
  if (dimension == 0) throw Error(ErrorCode::invalid_argument, "graph reader: the embedding dimension is 0");
  GatReader r;
  r.options_ = options;
  r.dimension_ = dimension;
  std::sort(relations.begin(), relations.end());
  relations.erase(std::unique(relations.begin(), relations.end()), relations.end());
  r.relations_ = std::move(relations);
  r.parameters_ = detail::gat_initial_parameters(GatLayout(dimension, r.relations_.size(), options), options.seed);
  return r;
}

GatReader GatReader::train(const std::vector<ReaderExample> &train, const std::vector<ReaderExample> &valid,
                           const GatReaderOptions &o, ReaderTrainReport *report,
                           const std::function<void(const ReaderEpoch &)> &progress) {
  check_options(o);
  if (train.empty()) throw Error(ErrorCode::invalid_argument, "graph reader: no training examples");
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t dim = train.front().graph.vectors ? train.front().graph.vectors->dim() : 0;
  std::vector<std::string> relations;
  for (const ReaderExample &x : train) {
    check_example(x, dim, "training example");
    for (const ReaderEdge &e : x.graph.edges) relations.push_back(e.relation);
  }
  for (const ReaderExample &x : valid) check_example(x, dim, "validation example");
  GatReader r = initial(dim, std::move(relations), o);
  const GatLayout L(dim, r.relations_.size(), o);
  const std::size_t threads = o.threads ? o.threads : detail::hardware_threads();

  // The split: the validation set given, else a seeded share of the training examples.
  std::vector<const ReaderExample *> tr, va;
  if (!valid.empty() || o.valid_share == 0 || train.size() < 5) {
    for (const auto &x : train) tr.push_back(&x);
    for (const auto &x : valid) va.push_back(&x);
  } else {
    std::vector<std::size_t> idx(train.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::mt19937_64 rng(o.seed ^ 0x5eedULL);
    std::shuffle(idx.begin(), idx.end(), rng);
    const auto nv = std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(o.valid_share * double(idx.size()))));
    std::vector<char> in_valid(train.size(), 0);
    for (std::size_t i = 0; i < nv; ++i) in_valid[idx[i]] = 1;
    for (std::size_t i = 0; i < train.size(); ++i) (in_valid[i] ? va : tr).push_back(&train[i]);
  }
  const Inputs train_in(tr, L, r.relations_, o.threads), valid_in(va, L, r.relations_, o.threads);

  ReaderTrainReport rep;
  rep.train_examples = tr.size();
  rep.valid_examples = va.size();
  rep.parameters = L.total;
  std::vector<double> &p = r.parameters_;
  std::vector<double> m(p.size(), 0.0), v(p.size(), 0.0), best = p;
  double best_mrr = -1, best_loss = std::numeric_limits<double>::infinity();
  std::size_t since_best = 0, step = 0;
  const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
  std::vector<std::size_t> order(tr.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (std::size_t epoch = 1; epoch <= o.epochs; ++epoch) {
    const auto te = std::chrono::steady_clock::now();
    ReaderEpoch ep;
    ep.epoch = epoch;
    std::mt19937_64 shuffle_rng(o.seed * 0x9E3779B97F4A7C15ULL + epoch);
    std::shuffle(order.begin(), order.end(), shuffle_rng);
    double loss_sum = 0;
    for (std::size_t b = 0; b < order.size() && !rep.cancelled; b += o.batch) {
      if (o.cancel && o.cancel()) {
        rep.cancelled = true;
        break;
      }
      const std::size_t B = std::min(o.batch, order.size() - b);
      std::vector<std::vector<double>> grads(B);
      std::vector<double> losses(B);
      detail::parallel_for(B, threads, [&](std::size_t k) {
        const std::size_t i = order[b + k];
        std::seed_seq seq{o.seed, uint64_t(epoch), uint64_t(i)};
        std::mt19937_64 rng(seq);
        GatInput scratch;
        grads[k].assign(p.size(), 0.0);
        losses[k] = detail::gat_loss(L, p, o.negative_slope, train_in.input(i, scratch), train_in.example(i).answers, o.dropout,
                                     &rng, &grads[k]);
      });
      std::vector<double> g(p.size(), 0.0);
      for (std::size_t k = 0; k < B; ++k) {
        loss_sum += losses[k];
        for (std::size_t j = 0; j < g.size(); ++j) g[j] += grads[k][j];
      }
      ++step;
      const double c1 = 1 - std::pow(b1, double(step)), c2 = 1 - std::pow(b2, double(step));
      for (std::size_t j = 0; j < p.size(); ++j) {
        const double gj = g[j] / double(B) + o.weight_decay * p[j];
        m[j] = b1 * m[j] + (1 - b1) * gj;
        v[j] = b2 * v[j] + (1 - b2) * gj * gj;
        p[j] -= o.learning_rate * (m[j] / c1) / (std::sqrt(v[j] / c2) + eps);
      }
    }
    if (rep.cancelled) break;  // (the partial epoch is not one)
    ep.train_loss = loss_sum / double(tr.size());
    if (!va.empty()) {
      std::vector<double> vl(va.size());
      std::vector<std::size_t> ranks(va.size());
      detail::parallel_for(va.size(), threads, [&](std::size_t i) {
        GatInput scratch;
        const GatInput &in = valid_in.input(i, scratch);
        vl[i] = detail::gat_loss(L, p, o.negative_slope, in, valid_in.example(i).answers, 0, nullptr, nullptr);
        detail::GatPass pass(L, p, o.negative_slope);
        const Eigen::VectorXd s = pass.forward(in, 0, nullptr);
        ranks[i] = first_rank(std::vector<double>(s.data(), s.data() + s.size()), in, valid_in.example(i).answers);
      });
      for (std::size_t i = 0; i < va.size(); ++i) {
        ep.valid_loss += vl[i] / double(va.size());
        ep.valid_mrr += (ranks[i] ? 1.0 / double(ranks[i]) : 0.0) / double(va.size());
        ep.valid_hits_at_1 += (ranks[i] == 1 ? 1.0 : 0.0) / double(va.size());
      }
    }
    ep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - te).count();
    rep.epochs.push_back(ep);
    if (progress) progress(ep);
    if (!std::isfinite(ep.train_loss))
      throw Error(ErrorCode::invalid_argument, "graph reader: the training loss is not finite at epoch " + std::to_string(epoch) +
                                           "; lower the learning rate");
    if (va.empty() || o.patience == 0) {
      rep.best_epoch = epoch;
      best = p;
      continue;
    }
    if (ep.valid_mrr > best_mrr || (ep.valid_mrr == best_mrr && ep.valid_loss < best_loss)) {
      best_mrr = ep.valid_mrr;
      best_loss = ep.valid_loss;
      best = p;
      rep.best_epoch = epoch;
      since_best = 0;
    } else if (++since_best >= o.patience) {
      break;
    }
  }
  p = best;
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.info_["training"] = {{"epochs", rep.epochs.size()},
                         {"best_epoch", rep.best_epoch},
                         {"train_examples", rep.train_examples},
                         {"valid_examples", rep.valid_examples},
                         {"seconds", rep.seconds}};
  if (rep.best_epoch) {
    const ReaderEpoch &b = rep.epochs[rep.best_epoch - 1];
    r.info_["training"]["valid_mrr"] = b.valid_mrr;
    r.info_["training"]["valid_hits_at_1"] = b.valid_hits_at_1;
    r.info_["training"]["valid_loss"] = b.valid_loss;
    r.info_["training"]["train_loss"] = b.train_loss;
  }
  if (report) *report = std::move(rep);
  return r;
}

std::vector<double> GatReader::score(const ReaderGraph &graph) const {
  if (!trained()) throw Error(ErrorCode::invalid_argument, "graph reader: not trained");
  const GatLayout L(dimension_, relations_.size(), options_);
  const GatInput in = detail::gat_input(graph, L, relations_, "graph reader");
  detail::GatPass pass(L, parameters_, options_.negative_slope);
  const Eigen::VectorXd s = pass.forward(in, 0, nullptr);
  std::vector<double> out(static_cast<std::size_t>(s.size()));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = detail::sigmoid(s[Eigen::Index(i)]);
  return out;
}

double GatReader::loss(const ReaderExample &x, std::vector<double> *gradient) const {
  if (!trained()) throw Error(ErrorCode::invalid_argument, "graph reader: not initialised");
  check_example(x, dimension_, "example");
  const GatLayout L(dimension_, relations_.size(), options_);
  const GatInput in = detail::gat_input(x.graph, L, relations_, "graph reader");
  if (gradient) gradient->assign(parameters_.size(), 0.0);
  return detail::gat_loss(L, parameters_, options_.negative_slope, in, x.answers, 0, nullptr, gradient);
}

void GatReader::save(KnowledgeGraph &kg, const std::string &name) const {
  if (!trained()) throw Error(ErrorCode::invalid_argument, "graph reader: nothing to save (not trained)");
  if (name.empty()) throw Error(ErrorCode::invalid_argument, "graph reader: a stored reader needs a name");
  TrainedModel m;
  m.name = name;
  m.kind = kKind;
  json spec = {{"format", kFormat},
               {"dimension", dimension_},
               {"relations", relations_},
               {"options", options_json(options_)},
               {"parameters", parameters_.size()},
               {"info", info_}};
  m.spec = dump_json(spec);
  m.data.resize(parameters_.size() * sizeof(double));
  std::memcpy(m.data.data(), parameters_.data(), m.data.size());
  kg.store_trained_model(m);
}

GatReader GatReader::load(const KnowledgeGraph &kg, const std::string &name) {
  const auto m = kg.trained_model(name);
  if (!m) {
    std::string have;
    for (const TrainedModel &t : kg.trained_models())
      if (t.kind == kKind) have += (have.empty() ? "" : ", ") + t.name;
    throw Error(ErrorCode::not_found, "no graph reader named '" + name + "' in the database" +
                                          (have.empty() ? std::string(" (train one with grappi train-reader)")
                                                        : " (it has: " + have + ")"));
  }
  const auto damaged = [&](const std::string &why) {
    return Error(ErrorCode::database, "graph reader '" + name + "': " + why);
  };
  if (m->kind != kKind) throw damaged("it is a '" + m->kind + "', not a graph reader");
  GatReader r;
  try {
    const json spec = json::parse(m->spec);
    const int format = detail::json_integer<int>(spec.at("format"));
    if (format > kFormat)
      throw damaged("stored in format " + std::to_string(format) + ", newer than this grappi (" + std::to_string(kFormat) +
                    "); upgrade grappi");
    r.options_ = options_from(spec.at("options"));
    check_options(r.options_);
    r.dimension_ = detail::json_integer<std::size_t>(spec.at("dimension"));
    r.relations_ = spec.at("relations").get<std::vector<std::string>>();
    r.info_ = spec.value("info", json::object());
  } catch (const json::exception &e) {
    throw damaged(std::string("its description does not parse: ") + e.what());
  } catch (const Error &e) {
    if (e.code() == ErrorCode::database) throw;
    throw damaged(e.what());
  }
  if (r.dimension_ == 0 || r.dimension_ > (1u << 20)) throw damaged("its dimension is out of range");
  const GatLayout L(r.dimension_, r.relations_.size(), r.options_);
  if (m->data.size() != L.total * sizeof(double))
    throw damaged("it holds " + std::to_string(m->data.size()) + " bytes of parameters, its layout needs " +
                  std::to_string(L.total * sizeof(double)));
  r.parameters_.resize(L.total);
  std::memcpy(r.parameters_.data(), m->data.data(), m->data.size());
  for (double x : r.parameters_)
    if (!std::isfinite(x)) throw damaged("a parameter is not finite");
  return r;
}

nlohmann::json stored_readers(const KnowledgeGraph &kg) {
  json out = json::array();
  for (const TrainedModel &t : kg.trained_models()) {
    if (t.kind != kKind) continue;
    json j = {{"name", t.name}, {"kind", t.kind}, {"created_at", t.created_at}, {"bytes", t.bytes}};
    try {
      const json spec = json::parse(t.spec);
      j["dimension"] = spec.value("dimension", 0);
      j["options"] = spec.value("options", json::object());
      j["info"] = spec.value("info", json::object());
    } catch (const json::exception &) {
      j["error"] = "its description does not parse";
    }
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace grappi
