// The temporal evaluation of hypotheses (grappi/hypothesis.hpp, evaluate_hypotheses): the
// corpus split by year (else by PubMed id order), the co-occurrence graph before the split in a
// temporary database, the pairs first linked after it, their ranked paths labelled by the later
// documents, ROC AUC and the top-N share; explanations scored by ROUGE with the loop's figures.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <chrono>
#include <filesystem>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "agents/literature/hypothesis_paths.hpp"
#include "common/answer_json.hpp"
#include "grappi/graph_embeddings.hpp"
#include "grappi/error.hpp"
#include "grappi/hypothesis.hpp"
#include "store/graph_impl.hpp"
#include "models/model_calls.hpp"
#include "common/ranking_metrics.hpp"
#include "eval/auc_bootstrap.hpp"

namespace grappi {

namespace {

constexpr std::size_t kMaxBootstrap = 1000000;  // resamples at most (HypothesisEvalOptions::bootstrap)

using nlohmann::json;
namespace fs = std::filesystem;

using detail::roc_auc;

bool pmid_like(const std::string &s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

// A directory of its own, removed with everything in it when the evaluation ends.
struct WorkDir {
  fs::path path;
  explicit WorkDir(const std::string &parent) {
    static std::atomic<unsigned> counter{0};
    const fs::path base = parent.empty() ? fs::temp_directory_path() : fs::path(parent);
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    path = base / ("grappi-eval-" + std::to_string(stamp) + "-" + std::to_string(counter++));
    std::error_code ec;
    if (!fs::create_directories(path, ec))
      throw Error(ErrorCode::io, "eval hypotheses: cannot create the working directory '" + path.string() + "'" +
                                     (ec ? " (" + ec.message() + ")" : ""));
  }
  ~WorkDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  WorkDir(const WorkDir &) = delete;
  WorkDir &operator=(const WorkDir &) = delete;
};

std::string pair_key(const std::string &a, const std::string &b) { return a < b ? a + '\x1f' + b : b + '\x1f' + a; }

// The split of the corpus into the documents before and after it: at a year (as_of, every
// document dated), else at a share of the documents in date order (every document dated), else
// in PubMed id order.
void split_corpus(const std::vector<Document> &corpus, const HypothesisEvalOptions &o, std::string &kind, std::string &note,
                  std::string &cutoff, std::size_t &left_out, std::vector<Document> &before, std::vector<Document> &after) {
  if (o.before) {
    // The corpus's own split (its train before its dev): a document after it that is also
    // before it (the same PubMed id or id) is left out, so that no pair is labelled by a
    // document the graph holds.
    kind = "given";
    std::unordered_set<std::string> seen;
    for (std::size_t i = 0; i < corpus.size(); ++i) {
      const Document &d = corpus[i];
      const std::string key = d.pmid.empty() ? d.id : d.pmid;
      if (i < *o.before) {
        seen.insert(key);
        before.push_back(d);
      } else if (seen.count(key)) {
        ++left_out;
      } else {
        if (after.empty()) cutoff = "document " + std::to_string(i + 1) + " (" + (d.pmid.empty() ? d.id : "PMID " + d.pmid) + ")";
        after.push_back(d);
      }
    }
    if (left_out) note = std::to_string(left_out) + " document(s) after the split are also before it: left out";
    return;
  }
  std::size_t undated = 0;
  for (const Document &d : corpus) undated += std::atoi(d.year.c_str()) <= 0;
  if (o.as_of && undated == 0) {
    kind = "year";
    cutoff = std::to_string(*o.as_of);
    for (const Document &d : corpus) (std::atoi(d.year.c_str()) < *o.as_of ? before : after).push_back(d);
    return;
  }
  const bool dated = undated == 0 && !corpus.empty();
  kind = dated ? "date_order" : "pmid_order";
  if (!dated)
    note = o.as_of ? std::to_string(undated) + " document(s) have no year: split in PubMed id order instead"
                   : "the documents have no years: split in PubMed id order";
  std::vector<const Document *> ordered;
  for (const Document &d : corpus) {
    if (dated || pmid_like(d.pmid)) ordered.push_back(&d);
    else ++left_out;
  }
  const auto by_pmid = [](const Document *x, const Document *y) {
    return x->pmid.size() != y->pmid.size() ? x->pmid.size() < y->pmid.size() : x->pmid < y->pmid;
  };
  std::stable_sort(ordered.begin(), ordered.end(), [&](const Document *x, const Document *y) {
    if (dated) {
      const int yx = std::atoi(x->year.c_str()), yy = std::atoi(y->year.c_str());
      if (yx != yy) return yx < yy;
    }
    return by_pmid(x, y);
  });
  std::size_t cut = static_cast<std::size_t>(o.split * double(ordered.size()));
  const auto same = [&](std::size_t i) {
    return ordered[i]->pmid == ordered[i - 1]->pmid && (!dated || ordered[i]->year == ordered[i - 1]->year);
  };
  while (cut > 0 && cut < ordered.size() && same(cut)) ++cut;  // one PMID, one side
  for (std::size_t i = 0; i < ordered.size(); ++i) (i < cut ? before : after).push_back(*ordered[i]);
  if (cut < ordered.size()) cutoff = dated ? ordered[cut]->year + " (PMID " + ordered[cut]->pmid + ")" : ordered[cut]->pmid;
}

// The graphs before and after a split, the candidate pairs and their labelled paths, over the
// graph before the split in a database of its own (kept while the set lives).
struct Labelled {
  std::unique_ptr<WorkDir> work;
  std::unique_ptr<KnowledgeGraph> kg;
  std::string relation;
  std::size_t concepts = 0, edges = 0, candidates = 0;
  std::vector<HypothesisEvalPair> pairs;
  HypothesisOptions explain;  // the options explanations are asked with
  bool cancelled = false;     // HypothesisOptions::cancel said stop (the pairs labelled are incomplete)
};

Labelled label_paths(const std::vector<Document> &before, const std::vector<Document> &after, const HypothesisEvalOptions &o) {
  detail::check_path_options(o.hypothesis);  // (as rank_hypothesis_paths does, before any work)
  Labelled L;
  CoocOptions co = o.cooc;
  co.as_of.reset();
  co.min_count = 1;
  const CoocGraph linked = build_cooccurrence(before, co);
  const CoocGraph later = build_cooccurrence(after, co);
  co.min_count = std::max<std::size_t>(o.cooc.min_count, 1);
  const CoocGraph graph = co.min_count > 1 ? build_cooccurrence(before, co) : linked;
  L.relation = cooccurrence_relation(co);
  L.concepts = graph.concepts.size();
  L.edges = graph.edges.size();
  // Candidate pairs: linked after the split, never before, both concepts with an edge before.
  std::unordered_set<std::string> linked_before, in_graph;
  for (const CoocEdge &e : linked.edges) linked_before.insert(pair_key(linked.concepts[e.a].id, linked.concepts[e.b].id));
  for (const CoocEdge &e : graph.edges) in_graph.insert(graph.concepts[e.a].id), in_graph.insert(graph.concepts[e.b].id);
  std::unordered_map<std::string, std::size_t> later_edge;  // pair key -> edge of `later`
  for (std::size_t i = 0; i < later.edges.size(); ++i)
    later_edge.emplace(pair_key(later.concepts[later.edges[i].a].id, later.concepts[later.edges[i].b].id), i);
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < later.edges.size(); ++i) {
    const CoocEdge &e = later.edges[i];
    const std::string &a = later.concepts[e.a].id, &b = later.concepts[e.b].id;
    if (in_graph.count(a) && in_graph.count(b) && !linked_before.count(pair_key(a, b))) candidates.push_back(i);
  }
  L.candidates = candidates.size();
  std::sort(candidates.begin(), candidates.end(), [&later](std::size_t x, std::size_t y) {
    const CoocEdge &ex = later.edges[x], &ey = later.edges[y];
    if (ex.count != ey.count) return ex.count > ey.count;
    const auto kx = std::minmax(later.concepts[ex.a].id, later.concepts[ex.b].id);
    const auto ky = std::minmax(later.concepts[ey.a].id, later.concepts[ey.b].id);
    return kx < ky;
  });
  if (candidates.size() > o.pairs) candidates.resize(o.pairs);
  L.work = std::make_unique<WorkDir>(o.work_dir);
  OpenOptions open;
  open.snapshot_cache = false;
  L.kg = std::make_unique<KnowledgeGraph>((L.work->path / "before.db").string(), open);
  KnowledgeGraph &kg = *L.kg;
  if (!graph.edges.empty()) import_cooccurrence(kg, graph, "");  // (no file: the work database alone)
  HypothesisOptions ho = o.hypothesis;
  ho.relations = {L.relation};
  const bool similarity = ho.embedding_weight > 0 || (o.ranker && o.ranker->uses_similarity()) ||
                          (o.scoring == "trained" && o.ranker_options.similarity);
  if (similarity && !graph.edges.empty()) {
    EmbedderSpec spec;
    spec.kind = o.embedder;
    EmbedOptions eo;
    eo.neighbor_ranking = false;
    grappi::embed_graph(kg, *grappi::make_embedder(kg, spec), eo);
  }
  L.explain = ho;
  std::unordered_map<int64_t, std::string> external;  // node -> concept id
  const auto concept_of = [&](int64_t node) -> const std::string & {
    auto it = external.find(node);
    if (it == external.end()) it = external.emplace(node, kg.node(node)->external_id).first;
    return it->second;
  };
  // The same paths whatever the score: the first o.paths shortest (not folded), each labelled.
  HypothesisOptions ranking = ho;
  ranking.paths = o.paths * std::max<std::size_t>(ho.shortest_rounds, 1);  // (every round's paths kept)
  ranking.candidates = o.paths;
  ranking.fold_reorderings = false;
  ranking.scorer = nullptr;
  ranking.ranker = nullptr;
  const auto cancelled = [&] { return L.cancelled = L.cancelled || (ho.cancel && ho.cancel()); };
  std::size_t labelled = 0;
  for (std::size_t i : candidates) {
    if (cancelled()) break;
    const CoocEdge &e = later.edges[i];
    HypothesisEvalPair p;
    p.source = later.concepts[e.a].id;
    p.target = later.concepts[e.b].id;
    p.source_name = later.concepts[e.a].name;
    p.target_name = later.concepts[e.b].name;
    p.later = later.pmids_of(e);
    const int64_t a = kg.resolve(p.source), b = kg.resolve(p.target);
    // (a weight above 0 makes the search compute the similarities a ranker reads; every path is
    // kept whatever its score, and the scores are recomputed afterwards)
    HypothesisOptions r = ranking;
    if (similarity) r.embedding_weight = std::max(r.embedding_weight, 1e-12);
    p.paths = rank_hypothesis_paths(kg, a, b, r);
    if (cancelled()) break;  // (its path search may have stopped early: not a pair to count)
    // A path is positive when each intermediate concept shares one of the pair's later documents
    // with the source (so that document names the source, the target and it).
    const auto named_later = [&](const std::string &c) {
      const auto it = later_edge.find(pair_key(p.source, c));
      if (it == later_edge.end()) return false;
      const auto &docs = later.edges[it->second].documents;
      std::vector<uint32_t> common;
      std::set_intersection(docs.begin(), docs.end(), e.documents.begin(), e.documents.end(), std::back_inserter(common));
      return !common.empty();
    };
    for (std::size_t k = 0; k < p.paths.size(); ++k) {
      bool positive = true;
      for (std::size_t n = 1; n + 1 < p.paths[k].nodes.size() && positive; ++n) positive = named_later(concept_of(p.paths[k].nodes[n]));
      p.positive.push_back(positive);
    }
    L.pairs.push_back(std::move(p));
    if (ho.progress) ho.progress("pairs", ++labelled, candidates.size());
  }
  return L;
}

using Scorer = std::function<double(const HypothesisPath &)>;

// The figures of one way of scoring the pairs' paths: micro and macro ROC AUC, the top share.
struct Figures {
  double micro = -1, macro = -1, top_share = 0;
  std::size_t macro_pairs = 0;
};

// Each pair's paths' scores (the shape of the pairs' labels).
detail::GroupScores scores_of(const std::vector<HypothesisEvalPair> &pairs, const Scorer &score) {
  detail::GroupScores s;
  for (const HypothesisEvalPair &p : pairs) {
    s.emplace_back();
    for (const HypothesisPath &h : p.paths) s.back().push_back(score(h));
  }
  return s;
}

Figures figures_of(const std::vector<HypothesisEvalPair> &pairs, const detail::GroupScores &scores, std::size_t top) {
  Figures f;
  std::vector<std::pair<double, bool>> pooled;
  double macro = 0;
  std::size_t with_paths = 0, with_top = 0;
  for (std::size_t g = 0; g < pairs.size(); ++g) {
    const HypothesisEvalPair &p = pairs[g];
    std::vector<std::pair<double, bool>> scored;
    std::vector<std::size_t> order;
    for (std::size_t k = 0; k < p.paths.size(); ++k) {
      scored.emplace_back(scores[g][k], p.positive[k]);
      order.push_back(k);
    }
    pooled.insert(pooled.end(), scored.begin(), scored.end());
    const double auc = roc_auc(scored);
    if (auc >= 0) macro += auc, ++f.macro_pairs;
    if (p.paths.empty()) continue;
    ++with_paths;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
      if (scored[x].first != scored[y].first) return scored[x].first > scored[y].first;
      if (p.paths[x].edges.size() != p.paths[y].edges.size()) return p.paths[x].edges.size() < p.paths[y].edges.size();
      return p.paths[x].nodes < p.paths[y].nodes;
    });
    for (std::size_t r = 0; r < order.size() && r < top; ++r)
      if (p.positive[order[r]]) {
        ++with_top;
        break;
      }
  }
  f.micro = roc_auc(pooled);
  f.macro = f.macro_pairs ? macro / double(f.macro_pairs) : -1;
  f.top_share = with_paths ? double(with_top) / double(with_paths) : 0;
  return f;
}

// grappi's figures minus each baseline's on the same paths, with intervals from resampling the
// pairs (a pair's paths share its labels and its documents: they are drawn together).
nlohmann::json differences_json(const std::vector<HypothesisEvalPair> &pairs, const detail::GroupScores &mine,
                                const std::vector<std::pair<std::string, detail::GroupScores>> &baselines,
                                const HypothesisEvalOptions &o) {
  std::vector<std::vector<bool>> labels;
  for (const HypothesisEvalPair &p : pairs) labels.push_back(p.positive);
  std::vector<detail::GroupScores> others;
  for (const auto &b : baselines) others.push_back(b.second);
  const double level = 0.95;
  const std::vector<detail::AucComparison> c = detail::compare_aucs(labels, mine, others, o.bootstrap, o.seed, level);
  const auto one = [&](const detail::AucDifference &d) -> nlohmann::json {
    if (!d.defined) return nullptr;
    const bool interval = d.resamples > 0;
    return {{"difference", d.difference},
            {"low", interval ? nlohmann::json(d.low) : nlohmann::json(nullptr)},
            {"high", interval ? nlohmann::json(d.high) : nlohmann::json(nullptr)},
            {"resamples", d.resamples}};
  };
  nlohmann::json versus = nlohmann::json::object();
  for (std::size_t i = 0; i < baselines.size(); ++i)
    versus[baselines[i].first] = {{"auc_micro", one(c[i].micro)}, {"auc_macro", one(c[i].macro)}};
  return {{"resamples", o.bootstrap}, {"level", level}, {"unit", "pair"}, {"seed", o.seed}, {"versus", std::move(versus)}};
}

nlohmann::json figures_json(const Figures &f) {
  const auto or_null = [](double x) { return x >= 0 ? nlohmann::json(x) : nlohmann::json(nullptr); };
  return {{"auc_micro", or_null(f.micro)}, {"auc_macro", or_null(f.macro)}, {"auc_macro_pairs", f.macro_pairs},
          {"top_share", f.top_share}};
}

// The intermediates' mean document frequency (log), the document-frequency baseline's score.
double document_frequency(const HypothesisPath &p) {
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = 1; i + 1 < p.nodes.size(); ++i, ++n) sum += p.shares.at(i) > 0 ? std::log10(p.shares[i]) : -7.0;
  return n ? sum / double(n) : 0.0;
}

double weights_score(const HypothesisPath &p) { return 0.5 * p.mean_weight + 0.5 * p.min_weight; }

// The ranker's examples from labelled pairs.
std::vector<PathRankerExample> examples_of(const std::vector<HypothesisEvalPair> &pairs, std::size_t &paths,
                                           std::size_t &positives) {
  std::vector<PathRankerExample> out;
  for (const HypothesisEvalPair &p : pairs) {
    if (p.paths.empty()) continue;
    PathRankerExample x;
    x.group = p.later.empty() ? std::string() : p.later.front();
    for (std::size_t k = 0; k < p.paths.size(); ++k) {
      x.features.push_back(PathRanker::features(p.paths[k]));
      x.positive.push_back(p.positive[k]);
      positives += p.positive[k];
    }
    paths += p.paths.size();
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace

PathRankerTraining train_path_ranker(const std::vector<Document> &corpus, const HypothesisEvalOptions &o) {
  if (!(o.split > 0 && o.split < 1)) throw Error(ErrorCode::invalid_argument, "path ranker: the split must lie in (0, 1)");
  if (o.before) throw Error(ErrorCode::invalid_argument, "path ranker: a given split (before) is for eval hypotheses");
  PathRankerTraining t;
  std::string note;
  std::size_t left_out = 0;
  std::vector<Document> before, after;
  split_corpus(corpus, o, t.split, note, t.cutoff, left_out, before, after);
  t.before = before.size();
  t.after = after.size();
  if (before.empty() || after.empty())
    throw Error(ErrorCode::invalid_argument, "path ranker: the split leaves " + std::to_string(before.size()) +
                                                 " document(s) before it and " + std::to_string(after.size()) + " after it");
  HypothesisEvalOptions inner = o;
  inner.ranker = nullptr;
  const Labelled L = label_paths(before, after, inner);
  if (L.cancelled) {
    t.cancelled = true;  // (nothing fitted)
    return t;
  }
  const std::vector<PathRankerExample> xs = examples_of(L.pairs, t.paths, t.positives);
  t.pairs = xs.size();
  if (t.positives < o.ranker_options.min_positives)
    throw Error(ErrorCode::invalid_argument, "path ranker: " + std::to_string(t.positives) +
                                                 " positive path(s) before the split, fewer than the " +
                                                 std::to_string(o.ranker_options.min_positives) + " needed to learn from");
  t.ranker = PathRanker::train(xs, o.ranker_options);
  const Figures fit = figures_of(L.pairs, scores_of(L.pairs, [&](const HypothesisPath &p) { return t.ranker.score(p); }), o.top);
  t.auc_micro = fit.micro;
  t.ranker.info()["training"] = {{"split", t.split},     {"cutoff", t.cutoff},       {"before", t.before},
                                 {"after", t.after},     {"pairs", t.pairs},         {"paths", t.paths},
                                 {"positives", t.positives}, {"auc_micro_fit", t.auc_micro},
                                 {"relation", L.relation}, {"shortest_rounds", o.hypothesis.shortest_rounds}};
  t.ranker.info()["trained_at"] = detail::utc_now();
  return t;
}

HypothesisEvalResult evaluate_hypotheses(const std::vector<Document> &corpus, LanguageModel &model,
                                         const HypothesisEvalOptions &o) {
  if (!(o.split > 0 && o.split < 1)) throw Error(ErrorCode::invalid_argument, "eval hypotheses: the split must lie in (0, 1)");
  if (o.paths == 0 || o.top == 0) throw Error(ErrorCode::invalid_argument, "eval hypotheses: paths and top must be at least 1");
  if (o.bootstrap > kMaxBootstrap)
    throw Error(ErrorCode::invalid_argument, "eval hypotheses: bootstrap must be at most " + std::to_string(kMaxBootstrap) +
                                                 " resamples, not " + std::to_string(o.bootstrap));
  if (!o.ranker && o.scoring != "trained" && o.scoring != "prior" && o.scoring != "weights")
    throw Error(ErrorCode::invalid_argument,
                "eval hypotheses: scoring is \"trained\", \"prior\" or \"weights\", not \"" + o.scoring + "\"");
  detail::confirm_calls("eval hypotheses", std::min(o.explain, o.pairs) * o.hypothesis.rounds * 2, o.confirm_calls,
                        o.hypothesis.max_calls, model, "explained pairs x rounds x 2 (the explanation and its repair turn)",
                        "fewer --explain pairs or --rounds");
  const auto t0 = std::chrono::steady_clock::now();
  HypothesisEvalResult r;
  r.top = o.top;
  r.offline = model.local();
  r.model = model.describe();
  std::vector<Document> before, after;
  split_corpus(corpus, o, r.split, r.split_note, r.cutoff, r.left_out, before, after);
  r.before = before.size();
  r.after = after.size();
  if (before.empty() || after.empty())
    throw Error(ErrorCode::invalid_argument, "eval hypotheses: the split leaves " + std::to_string(before.size()) +
                                                 " document(s) before it and " + std::to_string(after.size()) + " after it");
  // The scorer: a stored ranker, one fitted on the documents before the split alone (nested:
  // the same protocol inside them), or the association weights.
  std::shared_ptr<const PathRanker> ranker = o.ranker;
  r.scoring = o.ranker ? "stored" : o.scoring;
  if (!ranker && o.scoring == "trained") {
    HypothesisEvalOptions inner = o;
    inner.as_of.reset();  // (the inner split: the same share of the earlier documents, in date or PubMed id order)
    inner.before.reset();
    try {
      PathRankerTraining t = train_path_ranker(before, inner);
      if (t.cancelled) {
        r.cancelled = true;
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return r;
      }
      r.ranker = t.ranker.info()["training"];
      r.ranker["weights"] = t.ranker.weights_json();
      r.ranker["l2"] = t.ranker.info().value("l2", nlohmann::json(nullptr));
      r.ranker["cross_validation"] = t.ranker.info().value("cross_validation", nlohmann::json::array());
      ranker = std::make_shared<const PathRanker>(std::move(t.ranker));
    } catch (const Error &e) {
      // Too little before the split to learn from: the prior (shorter first, then frequent
      // intermediates), said so.
      r.scoring = "prior";
      r.ranker = {{"error", e.what()}};
    }
  }
  if (!ranker && r.scoring == "prior") ranker = std::make_shared<const PathRanker>(PathRanker::prior());
  HypothesisEvalOptions outer = o;
  if (ranker) outer.ranker = ranker;
  const Labelled L = label_paths(before, after, outer);
  if (L.cancelled) {
    r.cancelled = true;  // (no figures over a part of the pairs)
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }
  r.relation = L.relation;
  r.shortest_rounds = o.hypothesis.shortest_rounds;
  r.concepts = L.concepts;
  r.edges = L.edges;
  r.candidates = L.candidates;
  r.pairs = L.pairs;
  // Scores: grappi's, then the baselines on the same paths and labels.
  const double w = o.hypothesis.embedding_weight;
  const Scorer mine = [&](const HypothesisPath &p) {
    return ranker ? ranker->score(p) : (1 - w) * weights_score(p) + w * p.similarity;
  };
  for (HypothesisEvalPair &p : r.pairs) {
    for (HypothesisPath &h : p.paths) h.score = mine(h);
    std::vector<std::size_t> order(p.paths.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
      if (p.paths[x].score != p.paths[y].score) return p.paths[x].score > p.paths[y].score;
      if (p.paths[x].edges.size() != p.paths[y].edges.size()) return p.paths[x].edges.size() < p.paths[y].edges.size();
      return p.paths[x].nodes < p.paths[y].nodes;
    });
    std::vector<HypothesisPath> paths;
    std::vector<bool> positive;
    for (std::size_t k : order) paths.push_back(std::move(p.paths[k])), positive.push_back(p.positive[k]);
    p.paths = std::move(paths);
    p.positive = std::move(positive);
    std::vector<std::pair<double, bool>> scored;
    for (std::size_t k = 0; k < p.paths.size(); ++k) {
      scored.emplace_back(p.paths[k].score, p.positive[k]);
      if (p.positive[k] && !p.first_positive) p.first_positive = static_cast<int>(k + 1);
    }
    p.auc = roc_auc(scored);
    if (!p.paths.empty()) ++r.with_paths;
    r.paths += p.paths.size();
    r.positive_paths += static_cast<std::size_t>(std::count(p.positive.begin(), p.positive.end(), true));
  }
  // (each scorer's scores once, for its figures and for the differences)
  const detail::GroupScores mine_scores = scores_of(r.pairs, [](const HypothesisPath &h) { return h.score; });
  const Figures f = figures_of(r.pairs, mine_scores, o.top);
  r.auc_micro = f.micro;
  r.auc_macro = f.macro;
  r.auc_pairs = f.macro_pairs;
  r.top_share = f.top_share;
  std::mt19937_64 rng(o.seed);
  std::unordered_map<const HypothesisPath *, double> random_score;
  for (const HypothesisEvalPair &p : r.pairs)
    for (const HypothesisPath &h : p.paths) random_score[&h] = std::uniform_real_distribution<double>(0, 1)(rng);
  const std::vector<std::pair<std::string, Scorer>> baselines = {
      {"shorter_first", [](const HypothesisPath &p) { return -double(p.edges.size()); }},
      {"document_frequency", document_frequency},
      {"weights", weights_score},
      {"random", [&](const HypothesisPath &p) { return random_score.at(&p); }}};
  std::vector<std::pair<std::string, detail::GroupScores>> baseline_scores;
  for (const auto &[name, score] : baselines) {
    baseline_scores.emplace_back(name, scores_of(r.pairs, score));
    r.baselines[name] = figures_json(figures_of(r.pairs, baseline_scores.back().second, o.top));
  }
  r.differences = differences_json(r.pairs, mine_scores, baseline_scores, o);

  // Explanations of the first pairs with paths, against the later documents.
  KnowledgeGraph &kg = *L.kg;
  HypothesisOptions ho = L.explain;
  if (ranker) ho.ranker = ranker;
  std::unordered_map<std::string, const Document *> later_text;
  for (const Document &d : after) later_text.emplace(d.pmid.empty() ? d.id : d.pmid, &d);
  std::size_t sentences = 0, reworked = 0, rounds = 0;
  for (HypothesisEvalPair &p : r.pairs) {
    if (r.explained == o.explain) break;
    if (p.paths.empty()) continue;
    const HypothesisResult h = hypothesize(kg, model, p.source, p.target, before, ho);
    p.explained = true;
    ++r.explained;
    p.stop_reason = h.stop_reason;
    p.rounds = h.rounds.size();
    for (const HypothesisRound &round : h.rounds) {
      p.sentences += round.sentences.size();
      p.reworked += round.rework;
    }
    if (h.final_round >= 0)
      for (const HypothesisSentence &s : h.rounds[static_cast<std::size_t>(h.final_round)].sentences)
        p.explanation += (p.explanation.empty() ? "" : " ") + s.text;
    for (const std::string &pmid : p.later) {
      const auto it = later_text.find(pmid);
      if (it == later_text.end() || p.explanation.empty()) continue;
      const std::string reference = it->second->text();
      p.rouge_1 = std::max(p.rouge_1, rouge_1_f1(p.explanation, reference));
      p.rouge_l = std::max(p.rouge_l, rouge_l_f1(p.explanation, reference));
    }
    r.rouge_1 += p.rouge_1;
    r.rouge_l += p.rouge_l;
    rounds += p.rounds;
    sentences += p.sentences;
    reworked += p.reworked;
    r.not_converged += p.stop_reason != "converged";
    detail::add_usage(r.usage, h.usage);
  }
  if (r.explained) {
    r.rouge_1 /= double(r.explained);
    r.rouge_l /= double(r.explained);
    r.mean_rounds = double(rounds) / double(r.explained);
  }
  r.reworked_share = sentences ? double(reworked) / double(sentences) : 0;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

json to_json(const HypothesisEvalPair &p, std::size_t top) {
  json paths = json::array();
  for (std::size_t k = 0; k < p.paths.size() && k < top; ++k)
    paths.push_back({{"rank", k + 1},
                     {"names", p.paths[k].names},
                     {"external_ids", p.paths[k].external_ids},
                     {"score", p.paths[k].score},
                     {"positive", bool(p.positive[k])}});
  json j = {{"source", {{"id", p.source}, {"name", p.source_name}}},
            {"target", {{"id", p.target}, {"name", p.target_name}}},
            {"later", p.later},
            {"paths", p.paths.size()},
            {"positive_paths", std::count(p.positive.begin(), p.positive.end(), true)},
            {"auc", p.auc >= 0 ? json(p.auc) : json(nullptr)},
            {"first_positive", p.first_positive ? json(p.first_positive) : json(nullptr)},
            {"top_paths", paths}};
  if (p.explained)
    j["explanation"] = {{"text", p.explanation},  {"rouge_1", p.rouge_1},   {"rouge_l", p.rouge_l},
                        {"rounds", p.rounds},     {"sentences", p.sentences}, {"reworked", p.reworked},
                        {"stop_reason", p.stop_reason}};
  return j;
}

json to_json(const HypothesisEvalResult &r) {
  const auto or_null = [](double x) { return x >= 0 ? json(x) : json(nullptr); };
  json split = {{"kind", r.split}, {"cutoff", r.cutoff}, {"before", r.before}, {"after", r.after}, {"left_out", r.left_out}};
  if (!r.split_note.empty()) split["note"] = r.split_note;
  return {{"split", split},
          {"graph", {{"relation", r.relation}, {"concepts", r.concepts}, {"edges", r.edges}}},
          {"pairs", {{"candidates", r.candidates}, {"evaluated", r.pairs.size()}, {"with_paths", r.with_paths}}},
          {"paths", {{"ranked", r.paths}, {"positive", r.positive_paths}, {"shortest_rounds", r.shortest_rounds}}},
          {"auc_micro", or_null(r.auc_micro)},
          {"auc_macro", or_null(r.auc_macro)},
          {"auc_macro_pairs", r.auc_pairs},
          {"top", r.top},
          {"top_share", r.top_share},
          {"scoring", r.scoring},
          {"cancelled", r.cancelled},
          {"ranker", r.ranker},
          {"baselines", r.baselines},
          {"differences", r.differences},
          {"reference", {{"auc_micro", 0.895}, {"auc_macro", 0.932},
                         {"note", "HGCR's trained path ranker, as published (another corpus: MEDLINE with SemRep concepts)"}}},
          {"explanations", {{"pairs", r.explained},
                            {"rouge_1", r.rouge_1},
                            {"rouge_l", r.rouge_l},
                            {"mean_rounds", r.mean_rounds},
                            {"reworked_share", r.reworked_share},
                            {"not_converged", r.not_converged}}},
          {"usage", detail::usage_json(r.usage)},
          {"offline", r.offline},
          {"model", r.model},
          {"seconds", r.seconds}};
}

HypothesisEvalResult evaluate_hypotheses(const std::vector<Document> &corpus, const HypothesisEvalOptions &options) {
  return evaluate_hypotheses(corpus, run_model(options.hypothesis), options);
}

}  // namespace grappi
