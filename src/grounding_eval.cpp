// Grounding against curated labels (grappi/grounding.hpp): IntAct MITAB rows as gold, every
// prediction placed in the ontology relative to the gold terms (exact, ancestor, descendant,
// distance through the lowest common ancestor, that ancestor's depth), figures per strategy.
#include <algorithm>
#include <map>
#include <set>

#include "grappi/error.hpp"
#include "grappi/grounding.hpp"
#include "grappi/ontology.hpp"
#include "mitab_parser.hpp"
#include "text_reader.hpp"
#include "text_util.hpp"

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
                                       const std::vector<GroundingStrategy> &strategies, std::size_t concurrency) {
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
  for (std::size_t i = 0; i < ev.gold.size(); ++i) {
    std::vector<int64_t> gold_nodes;
    for (const auto &t : ev.gold[i].terms)
      if (auto n = node_of(t)) gold_nodes.push_back(*n);
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
      } else if (gold_nodes.empty()) {
        c.predicted = r.term->id;
        c.predicted_name = r.term->name;
        c.relation = "unknown_gold";
      } else {
        c.predicted = r.term->id;
        c.predicted_name = r.term->name;
        const int64_t p = r.term->term;
        const auto has = [](const std::vector<TermDistance> &v, int64_t id) {
          return std::any_of(v.begin(), v.end(), [id](const TermDistance &d) { return d.id == id; });
        };
        const auto up = onto.ancestors(p), down = onto.descendants(p);
        bool exact = false, ancestor = false, descendant = false;
        for (int64_t gnode : gold_nodes) {
          exact = exact || gnode == p;
          ancestor = ancestor || has(down, gnode);    // the prediction is above a gold term
          descendant = descendant || has(up, gnode);  // the prediction is below a gold term
          const auto d = onto.distance(p, gnode);
          if (d && (!c.distance || *d < *c.distance)) {
            c.distance = d;
            const auto lcas = onto.lowest_common_ancestors(p, gnode);
            c.lca_depth.reset();
            if (!lcas.empty() && root) c.lca_depth = onto.depth(lcas.front(), *root);
          }
        }
        c.relation = exact ? "exact" : ancestor ? "ancestor" : descendant ? "descendant" : "related";
      }
      ev.cases.push_back(std::move(c));
    }
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
                       {"calls_per_grounding", f.calls_per_grounding}, {"tokens_per_grounding", f.tokens_per_grounding},
                       {"by_confidence", std::move(conf)}});
  }
  j["figures"] = std::move(figures);
  return j;
}

}  // namespace grappi
