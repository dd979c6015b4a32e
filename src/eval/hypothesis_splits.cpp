// The temporal evaluation of hypotheses at several splits of one corpus
// (grappi/hypothesis.hpp, evaluate_hypotheses_splits): one evaluation per split, and the means
// of grappi's and the baselines' ROC AUCs over the splits that have them.
#include <map>
#include <sstream>
#include <string>

#include "grappi/error.hpp"
#include "grappi/hypothesis.hpp"

namespace grappi {

namespace {

using nlohmann::json;

// Sums of one scorer's figures over the splits, and how many splits have each.
struct Sums {
  double micro = 0, macro = 0;
  std::size_t micro_n = 0, macro_n = 0;
  void add(double m, double M) {
    if (m >= 0) micro += m, ++micro_n;
    if (M >= 0) macro += M, ++macro_n;
  }
  json mean() const {
    return {{"auc_micro", micro_n ? json(micro / double(micro_n)) : json(nullptr)},
            {"auc_macro", macro_n ? json(macro / double(macro_n)) : json(nullptr)},
            {"splits_micro", micro_n},
            {"splits_macro", macro_n}};
  }
};

double figure(const json &j, const char *key) { return j.contains(key) && j[key].is_number() ? j[key].get<double>() : -1.0; }

std::string share_text(double s) {
  std::ostringstream out;
  out << s;  // (0.8, not 0.800000)
  return out.str();
}

}  // namespace

HypothesisSplitsResult evaluate_hypotheses_splits(const std::vector<Document> &corpus, LanguageModel &model,
                                                  const HypothesisEvalOptions &options, const std::vector<double> &splits) {
  if (splits.empty()) throw Error(ErrorCode::invalid_argument, "eval hypotheses: no split given");
  if (options.as_of)
    throw Error(ErrorCode::invalid_argument, "eval hypotheses: several splits are shares of the documents, not a year (as_of)");
  if (options.before)
    throw Error(ErrorCode::invalid_argument, "eval hypotheses: several splits are shares of the documents, not a given split (--after)");
  for (double s : splits)
    if (!(s > 0 && s < 1))
      throw Error(ErrorCode::invalid_argument, "eval hypotheses: the split " + share_text(s) + " is not in (0, 1)");
  HypothesisSplitsResult out;
  out.splits = splits;
  std::map<std::string, Sums> sums;
  for (double s : splits) {
    HypothesisEvalOptions o = options;
    o.split = s;
    HypothesisEvalResult r;
    try {
      r = evaluate_hypotheses(corpus, model, o);
    } catch (const Error &e) {
      throw Error(e.code(), "at the split " + share_text(s) + ": " + e.what());
    }
    if (r.cancelled) {
      out.cancelled = true;
      break;
    }
    sums["grappi"].add(r.auc_micro, r.auc_macro);
    for (const auto &[name, b] : r.baselines.items()) sums[name].add(figure(b, "auc_micro"), figure(b, "auc_macro"));
    out.runs.push_back(std::move(r));
  }
  out.means = json::object();
  for (const auto &[name, sum] : sums) out.means[name] = sum.mean();
  return out;
}

HypothesisSplitsResult evaluate_hypotheses_splits(const std::vector<Document> &corpus, const HypothesisEvalOptions &options,
                                                  const std::vector<double> &splits) {
  return evaluate_hypotheses_splits(corpus, run_model(options.hypothesis), options, splits);
}

json to_json(const HypothesisSplitsResult &r) {
  json runs = json::array();
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    json j = to_json(r.runs[i]);
    j["split_share"] = r.splits[i];
    runs.push_back(std::move(j));
  }
  return {{"splits", std::move(runs)}, {"means", r.means}, {"cancelled", r.cancelled}};
}

}  // namespace grappi
