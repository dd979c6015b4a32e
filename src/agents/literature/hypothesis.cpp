// Hypotheses (grappi/hypothesis.hpp): k shortest simple paths between two concepts over the
// chosen relations, ranked by their edges' association weights; the context, k abstracts chosen
// evenly across the best paths' edges, most recent first; the explanation through ModelCalls;
// each sentence's entities (the dictionary over every label of the database) checked pairwise
// against the knowledge base and its citations against the context; the abstract most similar
// to a reworked sentence replaced by the next unused one of the same edge; at most `rounds`
// explanations.
#include "grappi/hypothesis.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <regex>
#include <set>
#include <unordered_map>

#include "common/answer_json.hpp"
#include "grappi/entities.hpp"
#include "grappi/error.hpp"
#include "grappi/retriever.hpp"
#include "grappi/snapshot.hpp"
#include "grappi/vector_index.hpp"
#include "common/grounding_text.hpp"
#include "agents/literature/hypothesis_offline.hpp"
#include "models/model_calls.hpp"
#include "models/templates.hpp"
#include "common/text_util.hpp"

namespace grappi {

namespace {

using nlohmann::json;

constexpr int kExplainTokens = 1500;
using detail::kParseRepair;

const char *kHypothesisSystem =
    "You are a biomedical scientist who explains how two concepts may be related, using only the "
    "abstracts you are given and citing them. Answer with one JSON object and nothing else.";
const char *kExplain =
    "How would you describe an indirect relationship between {{source}} and {{target}} given the following "
    "scientific abstracts as context?\n\n"
    "Paths between them in the literature:\n{{paths}}\n"
    "Abstracts:\n{{abstracts}}\n{{feedback}}"
    "Write a short explanation, one claim per sentence, naming the concepts as the abstracts do and citing "
    "the PubMed ids each sentence rests on.\n"
    "Answer: {\"sentences\": [{\"text\": \"...\", \"pmids\": [\"12345\"]}, ...]}";

std::string hash_version(const HypothesisTemplates &t) {
  return detail::sha256_hex(t.system + '\0' + t.explain).substr(0, 12);
}

struct ProposedClaim {
  std::string text;
  std::vector<std::string> pmids;
};

struct ExplainAnswer {
  bool ok = false;
  std::string error;
  std::vector<ProposedClaim> sentences;
};

// PubMed ids written in a text ("PMID:123", "PMID 123", "[123]" after "PMID").
std::vector<std::string> pmids_in(const std::string &text) {
  static const std::regex re("PMID[:\\s]*([0-9]{1,9})", std::regex::icase);
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) out.push_back((*it)[1].str());
  return out;
}

// {"sentences": [{"text", "pmids"}]}, or {"explanation": "text citing PMID:123"} split into
// sentences.
ExplainAnswer parse_explanation(std::string_view answer) {
  ExplainAnswer a;
  json j;
  if (!detail::json_object_in(answer, j, a.error)) return a;
  if (j.contains("sentences") && j["sentences"].is_array()) {
    for (const json &s : j["sentences"]) {
      ProposedClaim p;
      if (s.is_string()) {
        p.text = s.get<std::string>();
      } else if (s.is_object()) {
        p.text = detail::json_string(s, "text");
        for (const char *k : {"pmids", "citations"})
          if (s.contains(k) && s[k].is_array())
            for (const json &x : s[k]) {
              if (x.is_string()) p.pmids.push_back(x.get<std::string>());
              else if (x.is_number_integer()) p.pmids.push_back(std::to_string(x.get<int64_t>()));
            }
      }
      p.text = detail::trim_copy(p.text);
      for (const std::string &m : pmids_in(p.text)) p.pmids.push_back(m);
      for (std::string &m : p.pmids) {
        m = detail::trim_copy(m);
        if (m.size() > 5 && detail::iequals(m.substr(0, 5), "PMID:")) m = detail::trim_copy(m.substr(5));
      }
      std::sort(p.pmids.begin(), p.pmids.end());
      p.pmids.erase(std::unique(p.pmids.begin(), p.pmids.end()), p.pmids.end());
      if (!p.text.empty()) a.sentences.push_back(std::move(p));
    }
  } else if (const std::string text = detail::json_string(j, "explanation"); !text.empty()) {
    for (const auto &[b, e] : detail::sentence_ranges(text)) {
      ProposedClaim p;
      p.text = text.substr(b, e - b);
      p.pmids = pmids_in(p.text);
      a.sentences.push_back(std::move(p));
    }
  }
  if (a.sentences.empty()) {
    a.error = "no \"sentences\" in the answer";
    return a;
  }
  a.ok = true;
  return a;
}

// Stage 2: the abstracts given to the model. Each distinct edge of the ranked paths (best path
// first) is a queue of its PubMed ids that the corpus has a text for, most recent first; the
// context takes one from each queue in turn, and a replacement takes the next unused one of the
// same queue.
class Context {
 public:
  Context(const std::vector<HypothesisPath> &paths, const std::vector<Document> &corpus, std::size_t k) {
    std::unordered_map<std::string, const Document *> by_pmid;
    for (const Document &d : corpus)
      if (!d.pmid.empty()) by_pmid.emplace(d.pmid, &d);
    std::set<int64_t> seen;
    for (const HypothesisPath &h : paths)
      for (std::size_t i = 0; i < h.edges.size(); ++i) {
        if (!seen.insert(h.edges[i]).second) continue;
        std::vector<std::string> queue;
        for (int64_t p : h.pmids[i]) {
          const std::string pmid = std::to_string(p);
          const auto d = by_pmid.find(pmid);
          if (d == by_pmid.end()) continue;
          if (!text_.count(pmid)) text_.emplace(pmid, d->second->text());
          queue.push_back(pmid);
        }
        if (!queue.empty()) queues_.push_back({std::move(queue), 0});
      }
    for (bool more = true; more && pmids_.size() < k;) {
      more = false;
      for (std::size_t q = 0; q < queues_.size() && pmids_.size() < k; ++q)
        if (auto p = take(q)) {
          pmids_.push_back(*p);
          more = true;
        }
    }
  }
  const std::vector<std::string> &pmids() const { return pmids_; }
  const std::string &text(const std::string &pmid) const { return text_.at(pmid); }
  bool has(const std::string &pmid) const { return std::find(pmids_.begin(), pmids_.end(), pmid) != pmids_.end(); }
  // Replaces the abstract at `position` by the next unused one of its queue; nullopt when none is left.
  std::optional<std::string> replace(std::size_t position) {
    auto next = take(queue_of_.at(pmids_[position]));
    if (next) pmids_[position] = *next;
    return next;
  }

 private:
  struct Queue {
    std::vector<std::string> pmids;
    std::size_t next = 0;
  };
  std::optional<std::string> take(std::size_t q) {
    Queue &queue = queues_[q];
    while (queue.next < queue.pmids.size()) {
      const std::string &p = queue.pmids[queue.next++];
      if (queue_of_.emplace(p, q).second) return p;  // (each abstract is given once)
    }
    return std::nullopt;
  }
  std::vector<Queue> queues_;
  std::unordered_map<std::string, std::size_t> queue_of_;  // every PMID taken -> its queue
  std::unordered_map<std::string, std::string> text_;      // PMID -> the document's text
  std::vector<std::string> pmids_;
};

// Stage 3: a sentence checked: its entities (the dictionary over every label of the database),
// each pair of them joined by an edge of the supporting relations, its citations in the context.
class SentenceChecker {
 public:
  SentenceChecker(const KnowledgeGraph &kg, const std::vector<std::string> &support)
      : snap_(kg.snapshot()), tagger_(EntityTagger::shared(kg, every_label(*snap_))) {
    for (const std::string &rel : support) support_.push_back(snap_->relation_index(rel));
  }
  HypothesisSentence check(const ProposedClaim &p, const Context &context) const {
    HypothesisSentence s;
    s.text = p.text;
    s.citations = p.pmids;
    std::vector<std::pair<int64_t, std::string>> found;
    for (const EntityMention &m : tagger_->tag(p.text))
      if (const EntityCandidate *c = m.entity())
        if (std::none_of(found.begin(), found.end(), [&](const auto &x) { return x.first == c->node; }))
          found.emplace_back(c->node, c->name);
    for (const auto &[node, name] : found) s.entities.push_back(name);
    // Each pair: the relations joining it; curated when one of them is not co-occurrence.
    bool unsupported = false, all_curated = true;
    for (std::size_t i = 0; i < found.size(); ++i)
      for (std::size_t k = i + 1; k < found.size(); ++k) {
        HypothesisCheck c{found[i].second, found[k].second, false, {}};
        std::set<std::string> rels;
        for (const Neighbor &n : snap_->edges_between(found[i].first, found[k].first))
          if (support_.empty() || std::find(support_.begin(), support_.end(), n.relation) != support_.end())
            rels.insert(snap_->relation_name(n.relation));
        c.relations.assign(rels.begin(), rels.end());
        c.supported = !rels.empty();
        c.curated = std::any_of(rels.begin(), rels.end(), [](const std::string &r) { return r.rfind("cooc.", 0) != 0; });
        unsupported = unsupported || !c.supported;
        all_curated = all_curated && c.curated;
        s.checks.push_back(std::move(c));
      }
    const bool bad_citation =
        std::any_of(s.citations.begin(), s.citations.end(), [&](const std::string &pm) { return !context.has(pm); });
    // Quoted: the sentence (without its citation marks) is written in one of the abstracts it cites.
    static const std::regex marks("\\s*[\\[(]\\s*PMID[^\\])]*[\\])]", std::regex::icase);
    const std::string plain = detail::trim_copy(std::regex_replace(p.text, marks, ""));
    bool quoted = false;
    for (const std::string &pm : s.citations)
      if (!bad_citation && context.has(pm) && plain.size() >= 20 && detail::find_quote(context.text(pm), plain)) quoted = true;
    s.status = bad_citation         ? "bad_citation"
               : quoted             ? "quoted"
               : found.size() < 2   ? "unchecked"
               : unsupported        ? "unsupported"
               : all_curated        ? "curated"
                                    : "co-mentioned";
    return s;
  }

 private:
  static EntityTaggerOptions every_label(const GraphSnapshot &snap) {
    std::set<std::string> labels;
    for (std::size_t i = 0; i < snap.node_count(); ++i) labels.insert(snap.label(static_cast<uint32_t>(i)));
    EntityTaggerOptions o;
    o.labels.assign(labels.begin(), labels.end());
    return o;
  }
  std::shared_ptr<const GraphSnapshot> snap_;
  std::shared_ptr<const EntityTagger> tagger_;
  std::vector<int32_t> support_;
};

bool needs_rework(const HypothesisSentence &s) { return s.status == "unsupported" || s.status == "bad_citation"; }

// Stage 4, between rounds: each reworked sentence's most similar abstract (TF-IDF cosine)
// replaced by the next of its edge; the feedback naming the sentences.
std::string rework(const HypothesisRound &round, Context &context, std::vector<std::pair<std::string, std::string>> &replaced) {
  std::vector<std::string> texts;
  for (const std::string &p : context.pmids()) texts.push_back(context.text(p));
  const detail::TermSimilarity similarity(texts);
  std::set<std::size_t> done;
  std::string feedback = "These sentences of your previous explanation are not supported by the knowledge base or cite an "
                         "abstract that was not given; the abstracts behind them were replaced:\n";
  for (const HypothesisSentence &s : round.sentences) {
    if (!needs_rework(s)) continue;
    feedback += "- " + s.text + "\n";
    const std::vector<double> sim = similarity.similarity(s.text);
    const std::size_t best = static_cast<std::size_t>(std::max_element(sim.begin(), sim.end()) - sim.begin());
    if (done.count(best)) continue;
    const std::string old = context.pmids()[best];
    if (auto next = context.replace(best)) {
      done.insert(best);
      replaced.emplace_back(old, *next);
    }
  }
  return feedback + "\n";
}

}  // namespace

HypothesisTemplates HypothesisTemplates::defaults() {
  HypothesisTemplates t;
  t.system = kHypothesisSystem;
  t.explain = kExplain;
  t.version = "hypothesis-1-" + hash_version(t);
  return t;
}

void HypothesisTemplates::load(const std::string &system_file, const std::string &explain_file) {
  HypothesisTemplates t = *this;
  bool any = detail::load_template(t.system, system_file, {}, "system");
  any = detail::load_template(t.explain, explain_file, {"source", "target", "paths", "abstracts", "feedback"}, "explain") ||
        any;
  if (!any) return;
  t.version = "custom-" + hash_version(t);
  *this = std::move(t);
}

HypothesisResult hypothesize(KnowledgeGraph &kg, LanguageModel &model, const std::string &source, const std::string &target,
                             const std::vector<Document> &corpus, const HypothesisOptions &o) {
  if (o.paths == 0 || o.context == 0 || o.rounds == 0 || o.max_length == 0)
    throw Error(ErrorCode::invalid_argument, "hypothesize: paths, context, rounds and max_length must be at least 1");
  detail::confirm_calls("hypothesize", o.rounds * 2, o.confirm_calls, o.max_calls, model,
                        "two per round (the explanation and its repair turn)", "fewer --rounds");
  const auto t0 = std::chrono::steady_clock::now();
  HypothesisResult r;
  r.source = kg.resolve(source);
  r.target = kg.resolve(target);
  if (r.source == r.target) throw Error(ErrorCode::invalid_argument, "hypothesize: source and target are the same node");
  const auto source_node = kg.node(r.source), target_node = kg.node(r.target);
  r.source_name = source_node->name;
  r.target_name = target_node->name;
  r.source_external_id = source_node->external_id;
  r.target_external_id = target_node->external_id;
  r.offline = model.local();
  r.model = model.describe();
  r.template_version = o.templates.version;
  r.paths = rank_hypothesis_paths(kg, r.source, r.target, o);
  if (o.progress) o.progress("paths", 1, 1);
  if (o.cancel && o.cancel()) {  // (the path search stopped early: its paths are kept, nothing is asked)
    r.stop_reason = "cancelled";
    return r;
  }
  if (r.paths.empty()) {
    r.stop_reason = "no_paths";
    return r;
  }
  // The abstracts: the corpus given, else the papers the knowledge base holds.
  std::vector<Document> stored;
  {
    std::set<std::string> given, wanted;
    for (const Document &d : corpus)
      if (!d.pmid.empty()) given.insert(d.pmid);
    for (const HypothesisPath &h : r.paths)
      for (const auto &edge : h.pmids)
        for (int64_t p : edge)
          if (!given.count(std::to_string(p))) wanted.insert(std::to_string(p));
    if (!wanted.empty()) stored = kg.papers(std::vector<std::string>(wanted.begin(), wanted.end()));
  }
  std::vector<Document> with_stored;
  const std::vector<Document> *texts = &corpus;
  if (!stored.empty()) {
    with_stored = corpus;
    with_stored.insert(with_stored.end(), std::make_move_iterator(stored.begin()), std::make_move_iterator(stored.end()));
    texts = &with_stored;
  }
  Context context(r.paths, *texts, o.context);
  if (context.pmids().empty()) {
    r.stop_reason = "no_context";
    return r;
  }
  const SentenceChecker checker(kg, o.support_relations);
  std::string paths_text;
  json task_paths = json::array();
  for (std::size_t i = 0; i < r.paths.size(); ++i) {
    std::string line = std::to_string(i + 1) + ". ";
    for (std::size_t k = 0; k < r.paths[i].names.size(); ++k) line += (k ? " -- " : "") + r.paths[i].names[k];
    paths_text += line + "\n";
    task_paths.push_back(r.paths[i].names);
  }
  detail::ModelCalls calls(kg, model, {o.templates.version, o.use_cache, o.max_calls, o.max_tokens, 1, o.cancel});
  std::string feedback;
  std::size_t best_rework = SIZE_MAX;
  for (std::size_t round = 0; round < o.rounds; ++round) {
    HypothesisRound hr;
    hr.context = context.pmids();
    std::string abstracts;
    json task_abstracts = json::array();
    for (const std::string &p : hr.context) {
      abstracts += "PMID " + p + ":\n" + context.text(p) + "\n\n";
      task_abstracts.push_back({{"pmid", p}, {"text", context.text(p)}});
    }
    const ChatRequest q = detail::chat_request(
        o.templates.system,
        PromptTemplates::render(o.templates.explain, {{"source", r.source_name},
                                                      {"target", r.target_name},
                                                      {"paths", paths_text},
                                                      {"abstracts", abstracts},
                                                      {"feedback", feedback}}),
        true, kExplainTokens,
        json{{"kind", "hypothesis.explain"}, {"source", r.source_name}, {"target", r.target_name}, {"paths", task_paths},
             {"abstracts", task_abstracts}, {"round", round}},
        detail::offline_hypothesis_answer);
    auto got = calls.ask<ExplainAnswer>("hypothesis.explain", q, parse_explanation, r.usage, kParseRepair);
    if (o.progress) o.progress("rounds", round + 1, o.rounds);
    hr.status = got.status;
    hr.error = got.error;
    if (got.status != "ok") {
      r.usage.failed += got.status == "failed";
      r.usage.skipped += got.status == "skipped";
      r.stop_reason = got.status == "skipped" && got.error == detail::kCancelled ? "cancelled" : "failed";
      r.rounds.push_back(std::move(hr));
      break;
    }
    for (const ProposedClaim &p : got.answer.sentences) {
      hr.sentences.push_back(checker.check(p, context));
      hr.rework += needs_rework(hr.sentences.back());
    }
    if (hr.rework < best_rework) {
      best_rework = hr.rework;
      r.final_round = static_cast<int>(r.rounds.size());
    }
    if (hr.rework == 0 || round + 1 == o.rounds) {
      r.stop_reason = hr.rework == 0 ? "converged" : "max_rounds";
      r.rounds.push_back(std::move(hr));
      break;
    }
    feedback = rework(hr, context, hr.replaced);
    const bool replaced_any = !hr.replaced.empty();
    r.rounds.push_back(std::move(hr));
    if (!replaced_any) {
      r.stop_reason = "no_replacement";
      break;
    }
  }
  calls.flush();
  r.usage.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

HypothesisResult hypothesize(KnowledgeGraph &kg, const std::string &source, const std::string &target,
                             const std::vector<Document> &corpus, const HypothesisOptions &options) {
  return hypothesize(kg, run_model(options), source, target, corpus, options);
}

}  // namespace grappi
