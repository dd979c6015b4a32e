// Grounding against curated labels (grappi/grounding.hpp): IntAct MITAB rows as gold, every
// prediction placed in the ontology relative to the gold terms (exact, ancestor, descendant,
// distance through the lowest common ancestor, that ancestor's depth), figures per strategy.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "grappi/error.hpp"
#include "grappi/grounding.hpp"
#include "grappi/ontology.hpp"
#include "common/answer_json.hpp"
#include "agents/ground/grounding_offline.hpp"
#include "formats/mitab_parser.hpp"
#include "models/model_calls.hpp"
#include "common/parallel.hpp"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"

namespace grappi {

using nlohmann::json;

namespace {

// An interactor's name for grounding: its gene name alias, else its display name, else its id.
std::string interactor_name(const std::vector<detail::MitabXref> &ids, const std::vector<detail::MitabXref> &aliases) {
  for (const auto &x : aliases)
    if (detail::iequals(x.text, "gene name")) return x.id;
  for (const auto &x : aliases)
    if (detail::iequals(x.text, "display_short")) return x.id;
  return ids.empty() ? std::string() : ids.front().id;
}

const char *kJudgeSystem =
    "You are a senior biocurator. You compare two interaction-type terms of a controlled vocabulary as "
    "descriptions of how two proteins interact according to a paper. Use only the paper. Answer with one JSON "
    "object and nothing else.";

const char *kJudgeRepair = "Your answer could not be used ({{error}}). Reply with only {\"better\": \"1\" | \"2\" | \"tie\"}.";

struct JudgeAnswer {
  bool ok = false;
  std::string error;
  int better = 0;  // 1, 2, or 0 for a tie
};

JudgeAnswer parse_judge(std::string_view text) {
  JudgeAnswer a;
  json j;
  if (!detail::json_object_in(text, j, a.error)) return a;
  const json *b = nullptr;
  for (const char *k : {"better", "answer", "choice"})
    if (j.contains(k)) b = &j[k];
  if (!b) {
    a.error = "missing field \"better\"";
    return a;
  }
  std::string v = b->is_string() ? detail::lower_copy(detail::trim_copy(b->get<std::string>())) : b->is_number() ? b->dump() : "";
  if (v == "1" || v == "term 1") a.better = 1;
  else if (v == "2" || v == "term 2") a.better = 2;
  else if (v == "tie" || v == "equal" || v == "0") a.better = 0;
  else {
    a.error = "\"better\" is not \"1\", \"2\" or \"tie\": " + v.substr(0, 40);
    return a;
  }
  a.ok = true;
  return a;
}

std::string term_description(const Node &n) {
  std::string d = detail::trim_copy(n.annotation);
  if (d.size() >= 2 && d.front() == '"') d = d.substr(1, d.rfind('"') > 0 ? d.rfind('"') - 1 : std::string::npos);
  return n.external_id + " " + n.name + (d.empty() ? "" : ": " + d);
}

// Where a term stands against a case's gold terms: one of them, above one (an ancestor), below
// one (a descendant).
struct Placement {
  bool exact = false, ancestor = false, descendant = false;
};

Placement place(const Ontology &onto, int64_t term, const std::vector<int64_t> &gold) {
  const auto has = [](const std::vector<TermDistance> &v, int64_t id) {
    return std::any_of(v.begin(), v.end(), [id](const TermDistance &d) { return d.id == id; });
  };
  const auto up = onto.ancestors(term), down = onto.descendants(term);
  Placement p;
  for (int64_t g : gold) {
    p.exact = p.exact || g == term;
    p.ancestor = p.ancestor || has(down, g);    // the term is above a gold term
    p.descendant = p.descendant || has(up, g);  // the term is below a gold term
  }
  return p;
}

// The most-frequent-term baseline: the gold term most cases have (ties by id), answered for
// every case and placed against each case's gold terms like a prediction.
GroundingBaseline most_frequent_baseline(const KnowledgeGraph &kg, const Ontology &onto,
                                         const std::vector<std::vector<int64_t>> &gold_nodes) {
  GroundingBaseline b;
  std::map<int64_t, std::size_t> freq;
  for (const auto &nodes : gold_nodes)
    for (int64_t n : std::set<int64_t>(nodes.begin(), nodes.end())) ++freq[n];
  std::optional<Node> best;
  std::size_t most = 0;
  for (const auto &[n, count] : freq) {
    const std::optional<Node> node = kg.node(n);
    if (!node) continue;
    if (count > most || (count == most && best && node->external_id < best->external_id)) most = count, best = node;
  }
  if (!best) return b;
  b.term = best->external_id;
  b.name = best->name;
  for (const auto &nodes : gold_nodes) {
    ++b.cases;
    const Placement p = place(onto, best->id, nodes);
    b.exact += p.exact;
    b.ancestor += !p.exact && p.ancestor;
    b.descendant += !p.exact && !p.ancestor && p.descendant;
  }
  return b;
}

}  // namespace

std::vector<GroundingGold> read_grounding_gold(const std::string &path, std::size_t *skipped) {
  detail::LineReader reader(path);
  std::string_view line;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> index;  // (pmid, a, b) -> gold
  std::vector<GroundingGold> out;
  std::size_t left_out = 0;
  while (reader.next(line)) {
    if (line.empty() || line.front() == '#') continue;
    const std::string where = path + ":" + std::to_string(reader.line_number());
    const auto cells = detail::split_view(line, '\t');
    if (detail::mitab_version_of_columns(cells.size()) == 0)
      throw Error(ErrorCode::parse, where + ": expected 15 (MITAB 2.5), 36 (2.6) or 42 (2.7) tab-separated columns, found " +
                                        std::to_string(cells.size()));
    std::string error;
    const auto field = [&](int column) {
      auto x = detail::parse_mitab_field(cells[static_cast<std::size_t>(column)], error);
      if (!error.empty()) throw Error(ErrorCode::parse, where + ": column " + std::to_string(column + 1) + ": " + error);
      return x;
    };
    const auto ida = field(detail::kIdA), idb = field(detail::kIdB);
    const auto aliasa = field(detail::kAliasA), aliasb = field(detail::kAliasB);
    const auto pubs = field(detail::kPublication), types = field(detail::kType), conf = field(detail::kConfidence);
    const detail::MitabXref *pmid = detail::first_xref(pubs, "pubmed");
    std::vector<std::string> terms;
    for (const auto &t : types)
      if (detail::iequals(t.db, "psi-mi")) terms.push_back(t.id);
    if (!pmid || terms.empty() || ida.empty()) {
      ++left_out;
      continue;
    }
    std::string a = interactor_name(ida, aliasa), b = idb.empty() ? a : interactor_name(idb, aliasb);
    std::string ka = detail::lower_copy(a), kb = detail::lower_copy(b);
    if (kb < ka) std::swap(ka, kb);
    const auto key = std::make_tuple(pmid->id, ka, kb);
    auto it = index.find(key);
    if (it == index.end()) {
      it = index.emplace(key, out.size()).first;
      GroundingGold g;
      g.pmid = pmid->id;
      g.protein_a = a;
      g.protein_b = b;
      g.where = where;
      out.push_back(std::move(g));
    }
    GroundingGold &g = out[it->second];
    for (auto &t : terms)
      if (std::find(g.terms.begin(), g.terms.end(), t) == g.terms.end()) g.terms.push_back(std::move(t));
    std::sort(g.terms.begin(), g.terms.end());
    if (const detail::MitabXref *m = detail::first_xref(conf, "intact-miscore")) {
      char *end = nullptr;
      const double v = std::strtod(m->id.c_str(), &end);
      if (end != m->id.c_str()) g.miscore = std::max(g.miscore, v);
    }
    ++g.rows;
  }
  if (skipped) *skipped = left_out;
  return out;
}

GroundingEvaluation evaluate_grounding(const Grounder &grounder, const std::vector<GroundingGold> &gold,
                                       const std::map<std::string, std::string> &texts,
                                       const std::vector<GroundingStrategy> &strategies, std::size_t concurrency,
                                       const std::vector<LanguageModel *> &judges) {
  if (judges.size() > 2) throw Error(ErrorCode::invalid_argument, "evaluate_grounding: one or two judges");
  for (const LanguageModel *j : judges)
    if (!j) throw Error(ErrorCode::invalid_argument, "evaluate_grounding: a judge is NULL");
  if (strategies.empty()) throw Error(ErrorCode::invalid_argument, "evaluate_grounding: no strategy");
  GroundingEvaluation ev;
  std::vector<GroundingJob> jobs;
  for (const GroundingGold &g : gold) {
    auto t = texts.find(g.pmid);
    if (t == texts.end()) {
      ++ev.without_text;
      continue;
    }
    ev.gold.push_back(g);
    jobs.push_back({t->second, g.protein_a, g.protein_b});
  }
  if (ev.gold.empty())
    throw Error(ErrorCode::parse, "evaluate_grounding: none of the " + std::to_string(gold.size()) +
                                      " gold case(s) has a text (their PubMed ids are not among the " +
                                      std::to_string(texts.size()) + " text(s) given)");
  for (const LanguageModel *j : judges) ev.offline_judge = ev.offline_judge || j->local();
  const auto results = grounder.ground(jobs, strategies, concurrency);
  // The ontology the grounder walks, and the root to measure depths under.
  KnowledgeGraph &kg = grounder.graph();
  OntologyOptions oo;
  oo.relations = grounder.options().relations;
  const Ontology onto(kg.snapshot(), oo);
  const auto node_of = [&kg](const std::string &id) -> std::optional<int64_t> {
    if (auto n = kg.node_by_external_id(id)) return n->id;
    return std::nullopt;
  };
  // Each case's gold terms in the ontology.
  std::vector<std::vector<int64_t>> gold_nodes(ev.gold.size());
  for (std::size_t i = 0; i < ev.gold.size(); ++i)
    for (const auto &t : ev.gold[i].terms)
      if (auto n = node_of(t)) gold_nodes[i].push_back(*n);
  for (std::size_t i = 0; i < ev.gold.size(); ++i) {
    for (const GroundingResult &r : results[i]) {
      GroundingCase c;
      c.gold = i;
      c.strategy = r.strategy;
      c.confidence = r.confidence;
      c.score = r.best_score;
      c.model_calls = r.summary_usage.model_calls + r.traversal_usage.model_calls + r.pick_usage.model_calls;
      c.prompt_tokens = r.summary_usage.prompt_tokens + r.traversal_usage.prompt_tokens + r.pick_usage.prompt_tokens;
      c.cache_hits = r.summary_usage.cache_hits + r.traversal_usage.cache_hits + r.pick_usage.cache_hits;
      const auto root = node_of(r.root);
      if (!r.term) {
        c.relation = "none";
      } else if (gold_nodes[i].empty()) {
        c.predicted = r.term->id;
        c.predicted_name = r.term->name;
        c.relation = "unknown_gold";
      } else {
        c.predicted = r.term->id;
        c.predicted_name = r.term->name;
        const int64_t p = r.term->term;
        for (int64_t gnode : gold_nodes[i]) {
          const auto d = onto.distance(p, gnode);
          if (d && (!c.distance || *d < *c.distance)) {
            c.distance = d;
            const auto lcas = onto.lowest_common_ancestors(p, gnode);
            c.lca_depth.reset();
            if (!lcas.empty() && root) c.lca_depth = onto.depth(lcas.front(), *root);
          }
        }
        const Placement at = place(onto, p, gold_nodes[i]);
        c.relation = at.exact ? "exact" : at.ancestor ? "ancestor" : at.descendant ? "descendant" : "related";
      }
      ev.cases.push_back(std::move(c));
    }
  }
  ev.most_frequent = most_frequent_baseline(kg, onto, gold_nodes);
  if (!judges.empty()) {
    // The gold's most specific term (deepest under the root; ties by id) per gold case.
    std::optional<int64_t> root;
    if (!results.empty() && !results[0].empty()) root = node_of(results[0][0].root);
    std::vector<std::optional<Node>> gold_term(ev.gold.size());
    for (std::size_t i = 0; i < ev.gold.size(); ++i) {
      std::size_t best = 0;
      for (const auto &t : ev.gold[i].terms) {
        const auto n = kg.node_by_external_id(t);
        if (!n) continue;
        const std::size_t depth = root ? onto.depth(n->id, *root).value_or(0) : 0;
        if (!gold_term[i] || depth > best) gold_term[i] = n, best = depth;
      }
    }
    std::vector<std::unique_ptr<detail::ModelCalls>> calls;
    for (LanguageModel *j : judges) {
      detail::ModelCalls::Settings st;
      st.template_version = "judge-1";
      st.use_cache = grounder.options().use_cache;
      calls.push_back(std::make_unique<detail::ModelCalls>(kg, *j, st));
    }
    detail::parallel_for(ev.cases.size(), std::clamp<std::size_t>(concurrency, 1, detail::ModelCalls::kMaxConcurrency),
                         [&](std::size_t k) {
      GroundingCase &c = ev.cases[k];
      if (c.relation == "exact") {
        c.verdict = "tie";
        return;
      }
      if (c.relation == "none" || c.relation == "unknown_gold" || !gold_term[c.gold]) return;
      const GroundingGold &g = ev.gold[c.gold];
      const auto predicted = kg.node_by_external_id(c.predicted);
      if (!predicted) return;
      const bool predicted_first = k % 2 == 0;  // alternate the order against position bias
      const Node &t1 = predicted_first ? *predicted : *gold_term[c.gold], &t2 = predicted_first ? *gold_term[c.gold] : *predicted;
      const std::string text = texts.at(g.pmid).substr(0, 12000);
      const ChatRequest q = detail::chat_request(
          kJudgeSystem,
          "Paper:\n\"\"\"\n" + text + "\n\"\"\"\nHow do " + g.protein_a + " and " + g.protein_b +
              " interact according to this paper? Which term describes it better?\nTerm 1: " + term_description(t1) +
              "\nTerm 2: " + term_description(t2) + "\nAnswer: {\"better\": \"1\" | \"2\" | \"tie\"}",
          true, 30,
          {{"kind", "ground.judge"}, {"protein_a", g.protein_a}, {"protein_b", g.protein_b}, {"text", text},
           {"terms", json::array({{{"id", t1.external_id}, {"name", t1.name}, {"definition", term_description(t1)}},
                                  {{"id", t2.external_id}, {"name", t2.name}, {"definition", term_description(t2)}}})}},
          detail::offline_grounding_answer);
      std::vector<std::string> verdicts;
      for (auto &mc : calls) {
        StageUsage usage;
        auto a = mc->ask<JudgeAnswer>("ground.judge", q, parse_judge, usage, kJudgeRepair);
        if (a.status != "ok") {
          verdicts.push_back("failed");
          continue;
        }
        const int better = a.answer.better;
        verdicts.push_back(better == 0 ? "tie" : (better == 1) == predicted_first ? "win" : "loss");
      }
      if (std::find(verdicts.begin(), verdicts.end(), "failed") != verdicts.end()) c.verdict = "failed";
      else if (verdicts.size() == 2 && verdicts[0] != verdicts[1]) c.verdict = "disagree";
      else c.verdict = verdicts[0];
    });
    for (auto &mc : calls) mc->flush();
  }
  for (GroundingStrategy s : strategies) {
    GroundingFigures f;
    f.strategy = s;
    double dist = 0, depth = 0, calls = 0, tokens = 0;
    std::size_t with_dist = 0, with_depth = 0;
    std::map<std::string, std::tuple<std::size_t, std::size_t, double>> conf;
    for (const GroundingCase &c : ev.cases) {
      if (c.strategy != s) continue;
      ++f.cases;
      f.wins += c.verdict == "win";
      f.ties += c.verdict == "tie";
      f.losses += c.verdict == "loss";
      f.disagreements += c.verdict == "disagree";
      calls += static_cast<double>(c.model_calls);
      tokens += static_cast<double>(c.prompt_tokens);
      if (c.relation == "none") continue;
      ++f.answered;
      if (c.relation == "exact") ++f.exact;
      if (c.relation == "ancestor") ++f.ancestor;
      if (c.relation == "descendant") ++f.descendant;
      if (c.relation == "related") ++f.related;
      if (c.distance) dist += static_cast<double>(*c.distance), ++with_dist;
      if (c.lca_depth) depth += static_cast<double>(*c.lca_depth), ++with_depth;
      auto &[n, hits, miscore] = conf[c.confidence ? std::to_string(*c.confidence) : "none"];
      ++n;
      hits += c.relation == "exact";
      miscore += ev.gold[c.gold].miscore;
    }
    for (auto &[k, v] : conf) std::get<2>(v) /= static_cast<double>(std::get<0>(v));
    f.by_confidence = std::move(conf);
    f.mean_distance = with_dist ? dist / static_cast<double>(with_dist) : 0;
    f.mean_lca_depth = with_depth ? depth / static_cast<double>(with_depth) : 0;
    f.calls_per_grounding = f.cases ? calls / static_cast<double>(f.cases) : 0;
    f.tokens_per_grounding = f.cases ? tokens / static_cast<double>(f.cases) : 0;
    ev.figures.push_back(std::move(f));
  }
  return ev;
}

json to_json(const GroundingEvaluation &ev) {
  json j;
  json gold = json::array();
  for (const GroundingGold &g : ev.gold)
    gold.push_back({{"pmid", g.pmid}, {"protein_a", g.protein_a}, {"protein_b", g.protein_b}, {"terms", g.terms},
                    {"miscore", g.miscore}, {"rows", g.rows}, {"where", g.where}});
  j["gold"] = std::move(gold);
  j["without_text"] = ev.without_text;
  json cases = json::array();
  for (const GroundingCase &c : ev.cases) {
    json e = {{"gold", c.gold}, {"strategy", to_string(c.strategy)}, {"predicted", c.predicted},
              {"predicted_name", c.predicted_name}, {"relation", c.relation}, {"score", c.score},
              {"model_calls", c.model_calls}, {"prompt_tokens", c.prompt_tokens}, {"cache_hits", c.cache_hits}};
    e["distance"] = c.distance ? json(*c.distance) : json(nullptr);
    e["lca_depth"] = c.lca_depth ? json(*c.lca_depth) : json(nullptr);
    e["confidence"] = c.confidence ? json(*c.confidence) : json(nullptr);
    if (!c.verdict.empty()) e["verdict"] = c.verdict;
    cases.push_back(std::move(e));
  }
  j["cases"] = std::move(cases);
  json figures = json::array();
  for (const GroundingFigures &f : ev.figures) {
    json conf = json::object();
    for (const auto &[k, v] : f.by_confidence)
      conf[k] = {{"cases", std::get<0>(v)}, {"exact", std::get<1>(v)}, {"mean_miscore", std::get<2>(v)}};
    figures.push_back({{"strategy", to_string(f.strategy)}, {"cases", f.cases}, {"answered", f.answered},
                       {"exact", f.exact}, {"ancestor", f.ancestor}, {"descendant", f.descendant},
                       {"related", f.related}, {"mean_distance", f.mean_distance}, {"mean_lca_depth", f.mean_lca_depth},
                       {"wins", f.wins}, {"ties", f.ties}, {"losses", f.losses}, {"disagreements", f.disagreements},
                       {"calls_per_grounding", f.calls_per_grounding}, {"tokens_per_grounding", f.tokens_per_grounding},
                       {"by_confidence", std::move(conf)}});
  }
  j["figures"] = std::move(figures);
  const GroundingBaseline &b = ev.most_frequent;
  j["baselines"] = {{"most_frequent", {{"term", b.term}, {"name", b.name}, {"cases", b.cases}, {"exact", b.exact},
                                       {"ancestor", b.ancestor}, {"descendant", b.descendant}}}};
  j["offline_judge"] = ev.offline_judge;
  return j;
}

}  // namespace grappi
