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
#include <map>
#include <regex>
#include <set>
#include <unordered_map>

#include "answer_json.hpp"
#include "grappi/entities.hpp"
#include "grappi/error.hpp"
#include "grappi/retriever.hpp"
#include "grappi/snapshot.hpp"
#include "grounding_text.hpp"
#include "model_calls.hpp"
#include "templates.hpp"
#include "text_util.hpp"

namespace grappi {

namespace {

using nlohmann::json;

constexpr int kAnswerTokens = 1500;
const char *kParseRepair = "Your answer could not be used ({{error}}). Reply with only the JSON object the request asked for.";

const char *kSystem =
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

struct Proposed {
  std::string text;
  std::vector<std::string> pmids;
};

struct ExplainAnswer {
  bool ok = false;
  std::string error;
  std::vector<Proposed> sentences;
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
      Proposed p;
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
      Proposed p;
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

// The co-occurrence statistics of an edge (its evidence record), when it has them.
struct EdgeFacts {
  double weight = 0;
  std::size_t support = 0;
  std::vector<int64_t> pmids;  // most recent first
};

EdgeFacts facts_of(const KnowledgeGraph &kg, int64_t edge_id, double score) {
  EdgeFacts f;
  f.weight = score;
  const auto e = kg.edge(edge_id);
  if (!e) return f;
  std::vector<std::pair<int, int64_t>> dated;
  for (const EvidenceRecord &r : e->records) {
    const json j = json::parse(r.record, nullptr, false);
    if (!j.is_object() || !j.contains("npmi") || !j["npmi"].is_number()) continue;
    f.weight = j["npmi"].get<double>();
    f.support = j.value("count", std::size_t{0});
    const json &p = j.value("pmids", json::array()), &y = j.value("years", json::array());
    for (std::size_t i = 0; i < p.size(); ++i)
      if (p[i].is_number_integer())
        dated.emplace_back(i < y.size() && y[i].is_number_integer() ? y[i].get<int>() : 0, p[i].get<int64_t>());
  }
  if (dated.empty())
    for (int64_t p : e->pmids) dated.emplace_back(0, p);
  std::sort(dated.begin(), dated.end(), [](const auto &x, const auto &y) { return x > y; });  // recent, then larger PMID
  for (const auto &[year, pmid] : dated) f.pmids.push_back(pmid);
  return f;
}

}  // namespace

HypothesisTemplates HypothesisTemplates::defaults() {
  HypothesisTemplates t;
  t.system = kSystem;
  t.explain = kExplain;
  t.version = "hypothesis-1-" + hash_version(t);
  return t;
}

void HypothesisTemplates::load(const std::string &system_file, const std::string &explain_file) {
  HypothesisTemplates t = *this;
  bool any = false;
  if (!system_file.empty()) {
    t.system = detail::read_template(system_file);
    detail::check_template(t.system, {}, "system template '" + system_file + "'");
    any = true;
  }
  if (!explain_file.empty()) {
    t.explain = detail::read_template(explain_file);
    detail::check_template(t.explain, {"source", "target", "paths", "abstracts", "feedback"},
                           "explain template '" + explain_file + "'");
    any = true;
  }
  if (!any) return;
  t.version = "custom-" + hash_version(t);
  *this = std::move(t);
}

HypothesisResult hypothesize(KnowledgeGraph &kg, LanguageModel &model, const std::string &source, const std::string &target,
                             const std::vector<Document> &corpus, const HypothesisOptions &o) {
  if (o.paths == 0 || o.context == 0 || o.rounds == 0 || o.max_length == 0)
    throw Error(ErrorCode::invalid_argument, "hypothesize: paths, context, rounds and max_length must be at least 1");
  const auto t0 = std::chrono::steady_clock::now();
  HypothesisResult r;
  r.source = kg.resolve(source);
  r.target = kg.resolve(target);
  if (r.source == r.target) throw Error(ErrorCode::invalid_argument, "hypothesize: source and target are the same node");
  r.source_name = kg.node(r.source)->name;
  r.target_name = kg.node(r.target)->name;
  r.offline = model.local();
  r.model = model.describe();
  r.template_version = o.templates.version;
  const auto snap = kg.snapshot();
  const auto retriever = kg.retriever();

  // ---- paths ----
  ShortestPathOptions so;
  so.max_length = o.max_length;
  so.filter.relations = o.relations;
  so.k = std::max<std::size_t>(o.paths * 4, o.paths + 1);
  std::vector<std::string> wanted;
  for (const std::string &l : o.intermediate_labels) wanted.push_back(detail::lower_copy(l));
  for (const Path &p : retriever->shortest_paths(r.source, r.target, so)) {
    if (o.mask_direct && p.length() == 1) continue;
    bool ok = true;
    for (std::size_t i = 1; i + 1 < p.nodes.size() && ok && !wanted.empty(); ++i) {
      const auto idx = snap->index_of(p.nodes[i]);
      ok = idx && std::find(wanted.begin(), wanted.end(), detail::lower_copy(snap->label(*idx))) != wanted.end();
    }
    if (!ok) continue;
    HypothesisPath h;
    h.nodes = p.nodes;
    h.edges = p.edges;
    for (int64_t n : p.nodes) {
      const auto idx = snap->index_of(n);
      h.names.push_back(idx ? snap->name(*idx) : std::to_string(n));
      h.labels.push_back(idx ? snap->label(*idx) : std::string());
    }
    for (std::size_t i = 0; i < p.edges.size(); ++i) {
      const EdgeFacts f = facts_of(kg, p.edges[i], p.scores[i]);
      const auto e = kg.edge(p.edges[i]);
      h.relations.push_back(e ? e->relation : std::string());
      h.weights.push_back(f.weight);
      h.support.push_back(f.support);
      h.pmids.push_back(f.pmids);
    }
    h.min_weight = *std::min_element(h.weights.begin(), h.weights.end());
    double sum = 0;
    for (double w : h.weights) sum += w;
    h.mean_weight = sum / double(h.weights.size());
    h.score = o.scorer ? o.scorer(h) : 0.5 * h.mean_weight + 0.5 * h.min_weight;
    r.paths.push_back(std::move(h));
  }
  std::stable_sort(r.paths.begin(), r.paths.end(), [](const HypothesisPath &a, const HypothesisPath &b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.edges.size() != b.edges.size()) return a.edges.size() < b.edges.size();
    return a.nodes < b.nodes;
  });
  if (r.paths.size() > o.paths) r.paths.resize(o.paths);
  if (r.paths.empty()) {
    r.stop_reason = "no_paths";
    return r;
  }

  // ---- context: k abstracts, evenly across the paths' edges, most recent first ----
  std::unordered_map<std::string, const Document *> by_pmid;
  for (const Document &d : corpus)
    if (!d.pmid.empty()) by_pmid.emplace(d.pmid, &d);
  struct Slot {
    std::vector<std::string> queue;  // the edge's PMIDs with a text, most recent first
    std::size_t next = 0;
  };
  std::vector<Slot> slots;  // one per (path, edge), best path first
  std::set<std::pair<int64_t, int64_t>> edge_seen;
  for (const HypothesisPath &h : r.paths)
    for (std::size_t i = 0; i < h.edges.size(); ++i) {
      if (!edge_seen.insert({h.edges[i], 0}).second) continue;
      Slot s;
      for (int64_t p : h.pmids[i])
        if (by_pmid.count(std::to_string(p))) s.queue.push_back(std::to_string(p));
      if (!s.queue.empty()) slots.push_back(std::move(s));
    }
  std::vector<std::string> context;
  std::map<std::string, std::size_t> slot_of;  // PMID -> the slot it was taken from
  const auto take = [&](Slot &s, std::size_t which) -> std::optional<std::string> {
    while (s.next < s.queue.size()) {
      const std::string p = s.queue[s.next++];
      if (std::find(context.begin(), context.end(), p) != context.end() || slot_of.count(p)) continue;
      slot_of[p] = which;
      return p;
    }
    return std::nullopt;
  };
  for (bool more = true; more && context.size() < o.context;) {
    more = false;
    for (std::size_t k = 0; k < slots.size() && context.size() < o.context; ++k)
      if (auto p = take(slots[k], k)) {
        context.push_back(*p);
        more = true;
      }
  }
  if (context.empty()) {
    r.stop_reason = "no_context";
    return r;
  }

  // ---- the dictionary over every label: the entities a sentence names ----
  std::set<std::string> labels;
  for (std::size_t i = 0; i < snap->node_count(); ++i) labels.insert(snap->label(static_cast<uint32_t>(i)));
  EntityTaggerOptions to;
  to.labels.assign(labels.begin(), labels.end());
  const EntityTagger tagger(kg, to);
  std::vector<int32_t> support_relations;
  for (const std::string &rel : o.support_relations) support_relations.push_back(snap->relation_index(rel));

  std::string paths_text;
  for (std::size_t i = 0; i < r.paths.size(); ++i) {
    std::string line = std::to_string(i + 1) + ". ";
    for (std::size_t k = 0; k < r.paths[i].names.size(); ++k) line += (k ? " -- " : "") + r.paths[i].names[k];
    paths_text += line + "\n";
  }
  detail::ModelCalls::Settings settings;
  settings.template_version = o.templates.version;
  settings.use_cache = o.use_cache;
  settings.max_calls = o.max_calls;
  settings.max_tokens = o.max_tokens;
  settings.concurrency = 1;
  detail::ModelCalls calls(kg, model, settings);
  std::string feedback;
  std::size_t best_rework = SIZE_MAX;
  for (std::size_t round = 0; round < o.rounds; ++round) {
    HypothesisRound hr;
    hr.context = context;
    std::string abstracts;
    json task_abstracts = json::array();
    for (const std::string &p : context) {
      const std::string text = by_pmid.at(p)->text();
      abstracts += "PMID " + p + ":\n" + text + "\n\n";
      task_abstracts.push_back({{"pmid", p}, {"text", text}});
    }
    json task_paths = json::array();
    for (const HypothesisPath &h : r.paths) task_paths.push_back(h.names);
    const ChatRequest q = detail::chat_request(
        o.templates.system,
        PromptTemplates::render(o.templates.explain, {{"source", r.source_name},
                                                      {"target", r.target_name},
                                                      {"paths", paths_text},
                                                      {"abstracts", abstracts},
                                                      {"feedback", feedback}}),
        true, kAnswerTokens,
        json{{"kind", "hypothesis.explain"}, {"source", r.source_name}, {"target", r.target_name}, {"paths", task_paths},
             {"abstracts", task_abstracts}, {"round", round}});
    auto got = calls.ask<ExplainAnswer>("hypothesis.explain", q, parse_explanation, r.usage, kParseRepair);
    hr.status = got.status;
    hr.error = got.error;
    if (got.status != "ok") {
      r.usage.failed += got.status == "failed";
      r.usage.skipped += got.status == "skipped";
      r.stop_reason = "failed";
      r.rounds.push_back(std::move(hr));
      break;
    }
    // ---- the check ----
    for (const Proposed &p : got.answer.sentences) {
      HypothesisSentence s;
      s.text = p.text;
      s.citations = p.pmids;
      std::vector<std::pair<int64_t, std::string>> found;
      for (const EntityMention &m : tagger.tag(p.text))
        if (const EntityCandidate *c = m.entity())
          if (std::none_of(found.begin(), found.end(), [&](const auto &x) { return x.first == c->node; }))
            found.emplace_back(c->node, c->name);
      for (const auto &[node, name] : found) s.entities.push_back(name);
      bool unsupported = false, bad_citation = false;
      for (std::size_t i = 0; i < found.size(); ++i)
        for (std::size_t k = i + 1; k < found.size(); ++k) {
          HypothesisCheck c;
          c.a = found[i].second;
          c.b = found[k].second;
          std::set<std::string> rels;
          for (const Neighbor &n : snap->edges_between(found[i].first, found[k].first))
            if (support_relations.empty() ||
                std::find(support_relations.begin(), support_relations.end(), n.relation) != support_relations.end())
              rels.insert(snap->relation_name(n.relation));
          c.relations.assign(rels.begin(), rels.end());
          c.supported = !rels.empty();
          unsupported = unsupported || !c.supported;
          s.checks.push_back(std::move(c));
        }
      for (const std::string &pm : s.citations)
        bad_citation = bad_citation || std::find(context.begin(), context.end(), pm) == context.end();
      s.status = unsupported ? "unsupported" : bad_citation ? "bad_citation" : found.size() >= 2 ? "supported" : "unchecked";
      hr.rework += unsupported || bad_citation;
      hr.sentences.push_back(std::move(s));
    }
    if (hr.rework < best_rework) {
      best_rework = hr.rework;
      r.final_round = static_cast<int>(r.rounds.size());
    }
    if (hr.rework == 0) {
      r.stop_reason = "converged";
      r.rounds.push_back(std::move(hr));
      break;
    }
    if (round + 1 == o.rounds) {
      r.stop_reason = "max_rounds";
      r.rounds.push_back(std::move(hr));
      break;
    }
    // ---- rework: replace each reworked sentence's most similar abstract ----
    std::vector<std::string> texts;
    for (const std::string &p : context) texts.push_back(by_pmid.at(p)->text());
    const detail::TermSimilarity similarity(texts);
    std::set<std::size_t> replaced_positions;
    feedback = "These sentences of your previous explanation are not supported by the knowledge base or cite an "
               "abstract that was not given; the abstracts behind them were replaced:\n";
    for (const HypothesisSentence &s : hr.sentences) {
      if (s.status != "unsupported" && s.status != "bad_citation") continue;
      feedback += "- " + s.text + "\n";
      const std::vector<double> sim = similarity.similarity(s.text);
      std::size_t best = 0;
      for (std::size_t i = 1; i < sim.size(); ++i)
        if (sim[i] > sim[best]) best = i;
      if (replaced_positions.count(best)) continue;
      const std::string old = context[best];
      if (auto next = take(slots[slot_of.at(old)], slot_of.at(old))) {
        context[best] = *next;
        replaced_positions.insert(best);
        hr.replaced.emplace_back(old, *next);
      }
    }
    feedback += "\n";
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

}  // namespace grappi
