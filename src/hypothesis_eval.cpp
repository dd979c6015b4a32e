// The temporal evaluation of hypotheses (grappi/hypothesis.hpp, evaluate_hypotheses): the
// corpus split by year (else by PubMed id order), the co-occurrence graph before the split in a
// temporary database, the pairs first linked after it, their ranked paths labelled by the later
// documents, ROC AUC and the top-N share; explanations scored by ROUGE with the loop's figures.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "answer_json.hpp"
#include "grappi/error.hpp"
#include "grappi/hypothesis.hpp"
#include "model_calls.hpp"

namespace grappi {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// ROC AUC by the rank-sum (Mann-Whitney) statistic, ties given their mean rank; -1 without both classes.
double roc_auc(std::vector<std::pair<double, bool>> scored) {
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

// The split of the corpus into the documents before and after it.
void split_corpus(const std::vector<Document> &corpus, const HypothesisEvalOptions &o, HypothesisEvalResult &r,
                  std::vector<Document> &before, std::vector<Document> &after) {
  std::size_t undated = 0;
  for (const Document &d : corpus) undated += std::atoi(d.year.c_str()) <= 0;
  if (o.as_of && undated == 0) {
    r.split = "year";
    r.cutoff = std::to_string(*o.as_of);
    for (const Document &d : corpus) (std::atoi(d.year.c_str()) < *o.as_of ? before : after).push_back(d);
    return;
  }
  r.split = "pmid_order";
  r.split_note = o.as_of ? std::to_string(undated) + " document(s) have no year: split in PubMed id order instead"
                         : "no year given: split in PubMed id order";
  std::vector<const Document *> ordered;
  for (const Document &d : corpus) {
    if (pmid_like(d.pmid)) ordered.push_back(&d);
    else ++r.left_out;
  }
  std::stable_sort(ordered.begin(), ordered.end(), [](const Document *x, const Document *y) {
    return x->pmid.size() != y->pmid.size() ? x->pmid.size() < y->pmid.size() : x->pmid < y->pmid;
  });
  std::size_t cut = static_cast<std::size_t>(o.split * double(ordered.size()));
  while (cut > 0 && cut < ordered.size() && ordered[cut]->pmid == ordered[cut - 1]->pmid) ++cut;  // one PMID, one side
  for (std::size_t i = 0; i < ordered.size(); ++i) (i < cut ? before : after).push_back(*ordered[i]);
  if (cut < ordered.size()) r.cutoff = ordered[cut]->pmid;
}

}  // namespace

HypothesisEvalResult evaluate_hypotheses(const std::vector<Document> &corpus, LanguageModel &model,
                                         const HypothesisEvalOptions &o) {
  if (!(o.split > 0 && o.split < 1)) throw Error(ErrorCode::invalid_argument, "eval hypotheses: the split must lie in (0, 1)");
  if (o.paths == 0 || o.top == 0) throw Error(ErrorCode::invalid_argument, "eval hypotheses: paths and top must be at least 1");
  const auto t0 = std::chrono::steady_clock::now();
  HypothesisEvalResult r;
  r.top = o.top;
  r.offline = model.local();
  r.model = model.describe();
  std::vector<Document> before, after;
  split_corpus(corpus, o, r, before, after);
  r.before = before.size();
  r.after = after.size();
  if (before.empty() || after.empty())
    throw Error(ErrorCode::invalid_argument, "eval hypotheses: the split leaves " + std::to_string(before.size()) +
                                                 " document(s) before it and " + std::to_string(after.size()) + " after it");

  // The graphs: before the split (every shared document, and the one the paths follow) and after.
  CoocOptions co = o.cooc;
  co.as_of.reset();
  co.min_count = 1;
  const CoocGraph linked = build_cooccurrence(before, co);
  const CoocGraph later = build_cooccurrence(after, co);
  co.min_count = std::max<std::size_t>(o.cooc.min_count, 1);
  const CoocGraph graph = co.min_count > 1 ? build_cooccurrence(before, co) : linked;
  r.relation = cooccurrence_relation(co);
  r.concepts = graph.concepts.size();
  r.edges = graph.edges.size();

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
  r.candidates = candidates.size();
  std::sort(candidates.begin(), candidates.end(), [&later](std::size_t x, std::size_t y) {
    const CoocEdge &ex = later.edges[x], &ey = later.edges[y];
    if (ex.count != ey.count) return ex.count > ey.count;
    const auto kx = std::minmax(later.concepts[ex.a].id, later.concepts[ex.b].id);
    const auto ky = std::minmax(later.concepts[ey.a].id, later.concepts[ey.b].id);
    return kx < ky;
  });
  if (candidates.size() > o.pairs) candidates.resize(o.pairs);

  // The graph before the split in a database of its own.
  const WorkDir work(o.work_dir);
  OpenOptions open;
  open.snapshot_cache = false;
  KnowledgeGraph kg((work.path / "before.db").string(), open);
  if (!graph.edges.empty()) import_cooccurrence(kg, graph, (work.path / "before.cooc.jsonl").string());
  HypothesisOptions ho = o.hypothesis;
  ho.relations = {r.relation};
  if (ho.embedding_weight > 0) {
    EmbedderSpec spec;
    spec.kind = o.embedder;
    EmbedOptions eo;
    eo.neighbor_ranking = false;
    kg.embed(*kg.make_embedder(spec), eo);
  }
  std::unordered_map<int64_t, std::string> external;  // node -> concept id
  const auto concept_of = [&](int64_t node) -> const std::string & {
    auto it = external.find(node);
    if (it == external.end()) it = external.emplace(node, kg.node(node)->external_id).first;
    return it->second;
  };

  // Paths, labels and figures.
  std::unordered_map<std::string, const Document *> later_text;
  for (const Document &d : after) later_text.emplace(d.pmid.empty() ? d.id : d.pmid, &d);
  std::vector<std::pair<double, bool>> pooled;
  double macro_sum = 0;
  std::size_t with_top = 0;
  // The same paths whatever the score: the first o.paths shortest, each scored and ranked.
  HypothesisOptions ranking = ho;
  ranking.paths = o.paths;
  ranking.candidates = o.paths;
  for (std::size_t i : candidates) {
    const CoocEdge &e = later.edges[i];
    HypothesisEvalPair p;
    p.source = later.concepts[e.a].id;
    p.target = later.concepts[e.b].id;
    p.source_name = later.concepts[e.a].name;
    p.target_name = later.concepts[e.b].name;
    p.later = later.pmids_of(e);
    const int64_t a = kg.resolve(p.source), b = kg.resolve(p.target);
    p.paths = rank_hypothesis_paths(kg, a, b, ranking);
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
    std::vector<std::pair<double, bool>> scored;
    for (std::size_t k = 0; k < p.paths.size(); ++k) {
      bool positive = true;
      for (std::size_t n = 1; n + 1 < p.paths[k].nodes.size() && positive; ++n) positive = named_later(concept_of(p.paths[k].nodes[n]));
      p.positive.push_back(positive);
      scored.emplace_back(p.paths[k].score, positive);
      if (positive && !p.first_positive) p.first_positive = static_cast<int>(k + 1);
    }
    pooled.insert(pooled.end(), scored.begin(), scored.end());
    p.auc = roc_auc(scored);
    if (p.auc >= 0) macro_sum += p.auc, ++r.auc_pairs;
    if (!p.paths.empty()) ++r.with_paths;
    if (p.first_positive > 0 && std::size_t(p.first_positive) <= o.top) ++with_top;
    r.paths += p.paths.size();
    r.positive_paths += static_cast<std::size_t>(std::count(p.positive.begin(), p.positive.end(), true));
    r.pairs.push_back(std::move(p));
  }
  r.auc_micro = roc_auc(pooled);
  r.auc_macro = r.auc_pairs ? macro_sum / double(r.auc_pairs) : -1;
  r.top_share = r.with_paths ? double(with_top) / double(r.with_paths) : 0;

  // Explanations of the first pairs with paths, against the later documents.
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
    paths.push_back({{"rank", k + 1}, {"names", p.paths[k].names}, {"score", p.paths[k].score}, {"positive", bool(p.positive[k])}});
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
          {"paths", {{"ranked", r.paths}, {"positive", r.positive_paths}}},
          {"auc_micro", or_null(r.auc_micro)},
          {"auc_macro", or_null(r.auc_macro)},
          {"auc_macro_pairs", r.auc_pairs},
          {"top", r.top},
          {"top_share", r.top_share},
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

}  // namespace grappi
