// The answer in the form the question asks (grappi/answer.hpp FormAnswer), decided by rules from the knowledge base:
// whether two entities interact (an edge of at least medium confidence in the relations asked, the score quoted; no,
// saying what was looked up), how many partners at the confidence asked, the partners a frame admits (a class, a
// topic, an exclusion, a comparison's choices), the routes between two entities by their weakest edge, what one does.
#include "agents/ask/answer_form.hpp"
#include "agents/ask/question_impl.hpp"

#include <algorithm>
#include <sstream>
#include <unordered_set>

#include "common/text_util.hpp"
#include "grappi/enrichment.hpp"
#include "grappi/error.hpp"
#include "grappi/snapshot.hpp"

namespace grappi::detail {

// (a named namespace of its own: the library is compiled in unity batches, where anonymous namespaces of several
// sources meet)
namespace form_parts {

using nlohmann::json;

constexpr std::size_t kMaxEdges = 50;
constexpr std::size_t kMaxPaths = 5;

std::string fmt3(double v) { return fixed(v, 3); }

// "[E3]" when the context holds the edge, else "(edge 123)".
std::string cite(const AnswerContext &context, int64_t edge) {
  const auto it = std::find(context.edges.begin(), context.edges.end(), edge);
  if (it != context.edges.end()) return "[E" + std::to_string(it - context.edges.begin()) + "]";
  return "(edge " + std::to_string(edge) + ")";
}

std::string external_id(const GraphSnapshot &g, int64_t node) {
  const auto at = g.index_of(node);
  return at ? g.external_id(*at) : std::to_string(node);
}

std::string name_of(const GraphSnapshot &g, int64_t node) {
  const auto at = g.index_of(node);
  return at ? g.name(*at) : std::to_string(node);
}

// Whether any edge of the entity's nodes is in the database (through the retrieval's filter, at any score).
bool has_edges(const GraphSnapshot &g, const QuestionEntity &e, const EdgeFilter &filter) {
  const Filter f(g, filter, "ask");
  for (const int64_t n : nodes_of(e))
    if (const auto at = g.index_of(n)) {
      const auto a = g.adjacency(*at);
      for (std::size_t i = 0; i < a.size; ++i)
        if (a.neighbor[i] != *at && f.pass(a, i)) return true;
    }
  return false;
}

// A family answered over its members, in words.
std::string family_note(const QuestionAnalysis &q) {
  std::string out;
  for (const QuestionEntity &e : q.entities) {
    if (e.members.empty()) continue;
    std::string names;
    for (std::size_t i = 0; i < e.members.size() && i < 8; ++i) names += (i ? ", " : "") + e.members[i].name;
    if (e.members.size() > 8) names += " and " + std::to_string(e.members.size() - 8) + " more";
    out += (out.empty() ? "" : "; ") + std::string("\"") + e.text + "\" is the " +
           (e.label == "ProteinComplex" ? "complex " : "family ") + e.name + " (" + e.id + "): answered over its members " +
           names;
  }
  return out;
}

void add_note(FormAnswer &a, const std::string &note) {
  if (!note.empty()) a.note += (a.note.empty() ? "" : "; ") + note;
}

// An edge the answer cites (each once, kMaxEdges at most).
void add_edge(FormAnswer &a, int64_t edge) {
  if (a.edges.size() < kMaxEdges && std::find(a.edges.begin(), a.edges.end(), edge) == a.edges.end()) a.edges.push_back(edge);
}

// Whether two entities interact: the edges between their nodes that pass the test.
void yes_no(const KnowledgeGraph &kg, const GraphSnapshot &g, const QuestionAnalysis &q, const AskOptions &o,
            const AnswerContext &context, FormAnswer &a, std::string &status) {
  const QuestionEntity &x = q.entities[0], &y = q.entities[1];
  const EdgeTest t(kg, g, o.retrieval.khop.filter, q.frame, kMediumConfidence);
  a.looked_up = t.describe();
  add_note(a, t.note());
  const bool claim = q.frame.negated;
  const bool x_edges = has_edges(g, x, o.retrieval.khop.filter);
  if (!x_edges || !has_edges(g, y, o.retrieval.khop.filter)) {
    const QuestionEntity &lone = x_edges ? y : x;
    status = "no_answer";
    a.value = nullptr;
    a.reason = lone.name + " has no edge in the database (" + a.looked_up.substr(0, a.looked_up.find(" at ")) +
               "): it cannot say whether " + x.name + " and " + y.name + " interact";
    a.text = "I can't say: " + a.reason;
    return;
  }
  struct Hit {
    int64_t edge;
    std::string relation;
    double score;
    bool passes;
  };
  std::vector<Hit> hits;
  const std::vector<int64_t> ys = nodes_of(y);
  const std::unordered_set<int64_t> yset(ys.begin(), ys.end());
  for (const int64_t n : nodes_of(x)) {
    const auto at = g.index_of(n);
    if (!at) continue;
    const auto adj = g.adjacency(*at);
    for (std::size_t i = 0; i < adj.size; ++i) {
      if (!yset.count(g.node_id(adj.neighbor[i]))) continue;
      double score = decimal(adj.score[i]);
      const bool passes = t.pass(adj, i, &score);
      hits.push_back({adj.edge[i], g.relation_name(adj.relation[i]), score, passes});
    }
  }
  std::stable_sort(hits.begin(), hits.end(), [](const Hit &p, const Hit &r) {
    return p.passes != r.passes ? p.passes : p.score > r.score;
  });
  const bool interact = !hits.empty() && hits[0].passes;
  a.value = claim ? !interact : interact;
  const std::string pair = x.name + " - " + y.name;
  if (interact) {
    std::string edges;
    for (const Hit &h : hits) {
      if (!h.passes || a.edges.size() >= 3) continue;
      a.edges.push_back(h.edge);
      edges += (edges.empty() ? "" : "; ") + h.relation + " " + fmt3(h.score) + " " + cite(context, h.edge);
    }
    a.text = std::string(claim ? "False" : "Yes") + ": " + pair + ", " + edges;
  } else if (!hits.empty()) {
    for (std::size_t i = 0; i < hits.size() && i < 3; ++i) a.edges.push_back(hits[i].edge);
    a.text = std::string(claim ? "True" : "No") + ": " + pair + " are joined only below the threshold (" +
             hits[0].relation + " " + fmt3(hits[0].score) + " " + cite(context, hits[0].edge) + "); looked up " +
             a.looked_up;
  } else {
    a.text = std::string(claim ? "True" : "No") + ": no edge joins " + x.name + " and " + y.name + " in " + a.looked_up;
  }
}

// The partners a frame admits, in the retrieval's order.
std::vector<const IntentCandidate *> admitted(const std::vector<IntentCandidate> &ranked) {
  std::vector<const IntentCandidate *> out;
  for (const IntentCandidate &c : ranked)
    if (c.admitted) out.push_back(&c);
  return out;
}

std::string names_of(const GraphSnapshot &g, const std::vector<const IntentCandidate *> &c, std::size_t most) {
  std::string out;
  for (std::size_t i = 0; i < c.size() && i < most; ++i) out += (i ? ", " : "") + name_of(g, c[i]->node);
  if (c.size() > most) out += " and " + std::to_string(c.size() - most) + " more";
  return out;
}

// What the answers are, in words ("partners of MAPT that are kinases").
std::string what(const QuestionAnalysis &q) {
  const QuestionFrame &f = q.frame;
  std::string names;
  for (std::size_t i = 0; i < q.entities.size(); ++i)
    if (std::find(f.choices.begin(), f.choices.end(), q.entities[i].node) == f.choices.end())
      names += (names.empty() ? "" : " and ") + q.entities[i].name;
  std::string out = f.relation == "common" ? "partners " + names + " share" : "partners of " + names;
  if (!q.topic.empty()) out += std::string(q.topic_kind == "topic" ? " about " : " that are ") + q.topic;
  else if (!q.implied_class.empty()) out += " that are " + q.implied_class + "s";
  if (!f.exclude.empty()) out += " that are not " + f.exclude;
  return out;
}

constexpr double kEnrichmentFdr = 0.05;
constexpr std::size_t kEnrichedTerms = 10;

// The GO aspects a question names ("processes", "functions", "compartments"); none named: all three.
std::vector<std::string> aspects_named(const QuestionAnalysis &q) {
  std::vector<std::string> out;
  const auto add = [&](const char *c) {
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  };
  for (const std::string &w : question_words(q)) {
    if (w == "process" || w == "processes" || w == "pathway" || w == "pathways") add("Process");
    if (w == "function" || w == "functions" || w == "activity" || w == "activities") add("Function");
    if (w == "component" || w == "components" || w == "compartment" || w == "compartments" || w == "location" ||
        w == "locations" || w == "localization" || w == "localisation")
      add("Component");
  }
  return out;
}

// The GO terms enriched among one entity's partners (at the confidence asked, medium by default) or among the
// entities named: grappi::enrich against the organism's annotated proteins, FDR at most 0.05.
void enrichment(const KnowledgeGraph &kg, const QuestionAnalysis &q, const QuestionRetrieval &qr, FormAnswer &a,
                std::string &status) {
  std::vector<int64_t> set;
  std::string among;
  if (q.frame.relation == "partners") {
    for (const IntentCandidate *c : admitted(qr.candidates)) {
      set.push_back(c->node);
      for (int64_t e : c->edges) add_edge(a, e);
    }
    among = "the " + std::to_string(set.size()) + " partners of " + q.entities[0].name + " in " + qr.looked_up;
  } else {
    for (const QuestionEntity &e : q.entities) set.push_back(e.node);
    among = "the " + std::to_string(set.size()) + " proteins named";
  }
  a.looked_up = "GO annotations (propagated up is_a and part_of) of " + among +
                ", against the organism's annotated proteins (hypergeometric test, Benjamini-Hochberg FDR <= 0.05)";
  if (set.empty()) {
    status = "no_answer";
    a.value = nullptr;
    a.reason = q.entities[0].name + " has no partner in " + qr.looked_up;
    a.text = "I can't say: " + a.reason;
    return;
  }
  EnrichmentOptions eo;
  eo.max_fdr = kEnrichmentFdr;
  eo.categories = aspects_named(q);
  if (!eo.categories.empty()) {
    std::string named;
    for (const std::string &c : eo.categories) named += (named.empty() ? "" : ", ") + c;
    add_note(a, "GO aspects the question names: " + named);
  }
  EnrichmentResult r;
  try {
    r = enrich(kg, set, eo);
  } catch (const Error &e) {
    if (e.code() != ErrorCode::not_found) throw;
    status = "no_answer";
    a.value = nullptr;
    a.reason = e.what();
    a.text = "I can't say: " + a.reason;
    return;
  }
  // (the terms as enrich's JSON writes them, proteins by external id; across the categories by FDR)
  const json all = to_json(kg, r)["terms"];
  std::vector<std::size_t> order(r.terms.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return r.terms[x].fdr < r.terms[y].fdr; });
  json value = json::array();
  std::string listed;
  for (std::size_t i = 0; i < order.size() && i < kEnrichedTerms; ++i) {
    const EnrichedTerm &t = r.terms[order[i]];
    json v;
    for (const char *field : {"term", "name", "category", "fdr", "observed", "set_size", "background", "proteins"})
      v[field] = all[order[i]][field];
    value.push_back(std::move(v));
    if (i < 5) {
      std::ostringstream fdr;
      fdr.precision(2);
      fdr << t.fdr;
      listed += (i ? "; " : "") + t.name + " (" + t.term + ", " + t.category + ", FDR " + fdr.str() + ", " +
                std::to_string(t.observed) + " of " + std::to_string(t.set_size) + ")";
    }
  }
  a.value = value;
  a.text = order.empty() ? "No GO term is enriched (FDR <= 0.05) among " + among
                         : "Enriched among " + among + ": " + listed +
                               (order.size() > 5 ? "; and " + std::to_string(order.size() - 5) + " more" : "");
  if (!r.unannotated.empty())
    add_note(a, std::to_string(r.unannotated.size()) + " of them without a GO annotation in the database");
}

// A modules question: the clusters found at retrieval (largest first, at least three members), each with its hubs,
// its enriched terms and its strongest edges.
void modules(const KnowledgeGraph &kg, const QuestionRetrieval &qr, FormAnswer &a, std::string &status) {
  const ModulesFound *m = qr.modules.get();
  if (!m || !m->result) {
    status = "no_answer";
    a.value = nullptr;
    a.reason = m ? m->reason : "no modules were looked for";
    a.text = "I can't say: " + a.reason;
    return;
  }
  a.looked_up = m->looked_up;
  const ClusteringResult &r = *m->result;
  const auto snapshot = kg.snapshot();
  const GraphSnapshot &g = *snapshot;
  json value = json::array();
  std::string listed;
  for (std::size_t k = 0; k < m->listed.size(); ++k) {
    const Cluster &c = r.clusters[m->listed[k]];
    json members = json::array(), hubs = json::array(), terms = json::array();
    for (std::size_t i = 0; i < c.members.size(); ++i) {
      members.push_back(external_id(g, c.members[i]));
      if (i < 5) hubs.push_back(name_of(g, c.members[i]));
    }
    for (const EnrichedTerm &t : c.terms)
      terms.push_back({{"term", t.term}, {"name", t.name}, {"category", t.category}, {"fdr", t.fdr}, {"observed", t.observed}});
    for (int64_t e : m->edges[k]) add_edge(a, e);
    value.push_back({{"module", k + 1}, {"size", c.members.size()}, {"members", members}, {"hubs", hubs},
                     {"internal_edges", c.internal_edges}, {"terms", terms}, {"edges", m->edges[k]}});
    if (k < m->summaries.size()) value.back()["summary"] = m->summaries[k];
    if (k < 5) {
      std::string hub_names;
      for (std::size_t i = 0; i < hubs.size() && i < 3; ++i) hub_names += (i ? ", " : "") + hubs[i].get<std::string>();
      std::string term;
      if (!c.terms.empty()) {
        std::ostringstream fdr;
        fdr.precision(2);
        fdr << c.terms.front().fdr;
        term = ": " + c.terms.front().name + " (" + c.terms.front().term + ", FDR " + fdr.str() + ")";
      }
      listed += (k ? "; " : "") + std::to_string(k + 1) + ") " + hub_names + (c.members.size() > 3 ? " and " + std::to_string(c.members.size() - 3) + " more" : "") + term;
    }
  }
  a.value = value;
  std::size_t small = 0;
  for (const Cluster &c : r.clusters) small += c.level == 0 && c.members.size() < 3;
  a.text = m->listed.empty() ? "No module of three or more proteins among " + m->scope
                             : std::to_string(m->listed.size()) + " module(s) among " + m->scope + " (modularity " +
                                   fixed(r.modularity, 3) + "): " + listed +
                                   (m->listed.size() > 5 ? "; and " + std::to_string(m->listed.size() - 5) + " more" : "");
  if (small > 0) add_note(a, std::to_string(small) + " cluster(s) of one or two proteins not listed");
  add_note(a, m->stored);
  if (!r.terms_note.empty()) add_note(a, "no enriched terms: " + r.terms_note);
}

FormAnswer compute(const KnowledgeGraph &kg, const QuestionAnalysis &q, const QuestionRetrieval &qr, const AskOptions &o,
                   const AnswerContext &context, std::string &status) {
  FormAnswer a;
  const QuestionFrame &f = q.frame;
  a.form = f.form;
  add_note(a, family_note(q));
  const auto snapshot = kg.snapshot();
  const GraphSnapshot &g = *snapshot;
  if (f.form == "unsupported") {
    a.value = nullptr;
    a.reason = f.reason.empty() ? "no rule reads what the question asks" : f.reason;
    a.text = "I can't answer that: " + a.reason;
    return a;
  }
  if (f.form == "yes_no") {
    yes_no(kg, g, q, o, context, a, status);
    return a;
  }
  // Lists, counts and paths rest on the retrieval for the question's intent.
  a.looked_up = qr.looked_up;
  add_note(a, qr.note);
  if (f.form == "enrichment") {
    enrichment(kg, q, qr, a, status);
    return a;
  }
  if (f.form == "modules") {
    modules(kg, qr, a, status);
    return a;
  }
  if (f.relation == "function") {
    const QuestionEntity &x = q.entities[0];
    const auto node = kg.node(x.node);
    json terms = json::array();
    if (const auto at = g.index_of(x.node)) {
      const auto adj = g.adjacency(*at);
      for (std::size_t i = 0; i < adj.size; ++i)
        if (g.relation_name(adj.relation[i]).rfind("go.", 0) == 0) {
          terms.push_back(g.external_id(adj.neighbor[i]));
          add_edge(a, adj.edge[i]);
        }
    }
    a.value = terms;
    const std::string annotation = node ? one_line_text(node->annotation) : std::string();
    if (terms.empty() && annotation.empty()) {
      status = "no_answer";
      a.reason = "the database holds neither GO annotations nor a description of " + x.name;
      a.text = "I can't say: " + a.reason;
      return a;
    }
    a.text = x.name + ": " + (annotation.empty() ? std::string("(no description)") : "\"" + clip_text(annotation, 300) + "\" (its annotation, quoted)") +
             (terms.empty() ? "; no GO annotation in the database" : "; " + std::to_string(terms.size()) + " GO term(s)");
    a.looked_up = "its annotation and its GO annotations (go.* edges)";
    return a;
  }
  // An entity the database holds no edge for: nothing to count, list or route.
  for (const QuestionEntity &e : q.entities)
    if (std::find(f.choices.begin(), f.choices.end(), e.node) == f.choices.end() && !has_edges(g, e, o.retrieval.khop.filter)) {
      status = "no_answer";
      a.value = nullptr;
      a.reason = e.name + " (" + e.id + ") has no edge in the database: it cannot say what " + e.name + " interacts with";
      a.text = "I can't say: " + a.reason;
      return a;
    }
  const std::vector<const IntentCandidate *> ok = admitted(qr.candidates);
  if (f.form == "count") {
    a.value = ok.size();
    for (const IntentCandidate *c : ok)
      for (int64_t e : c->edges) add_edge(a, e);
    a.text = std::to_string(ok.size()) + " " + what(q) + " in " + a.looked_up + (ok.empty() ? "" : ": " + names_of(g, ok, 10));
    if (qr.excluded) add_note(a, std::to_string(qr.excluded) + " partner(s) of the excluded " + f.exclude_kind + " left out");
    return a;
  }
  if (f.form == "path") {
    json routes = json::array();
    std::string best;
    for (std::size_t i = 0; i < qr.paths.size() && i < kMaxPaths; ++i) {
      json route = json::array();
      std::string text;
      for (int64_t n : qr.paths[i]) {
        route.push_back(external_id(g, n));
        text += (text.empty() ? "" : " - ") + name_of(g, n);
      }
      routes.push_back(route);
      if (i == 0) best = text + " (weakest edge " + fmt3(qr.path_scores[i]) + ")";
    }
    for (std::size_t i = 0; i < qr.paths.size() && i < kMaxPaths; ++i)
      for (std::size_t k = 0; k + 1 < qr.paths[i].size(); ++k)
        for (const auto &n : g.edges_between(qr.paths[i][k], qr.paths[i][k + 1])) add_edge(a, n.edge);
    a.value = routes;
    a.text = routes.empty() ? "No route of at most three edges joins " + q.entities[0].name + " and " + q.entities[1].name +
                                  " in " + a.looked_up
                            : best + (qr.paths.size() > 1 ? "; " + std::to_string(qr.paths.size()) + " route(s) found" : "") +
                                  ", in " + a.looked_up;
    return a;
  }
  // A list.
  json ids = json::array();
  for (std::size_t i = 0; i < ok.size() && i < o.top; ++i) {
    ids.push_back(external_id(g, ok[i]->node));
    for (int64_t e : ok[i]->edges) add_edge(a, e);
  }
  a.value = ids;
  std::string cites;
  for (std::size_t i = 0; i < a.edges.size() && i < 5; ++i) cites += (i ? ", " : "") + cite(context, a.edges[i]);
  a.text = ok.empty() ? "None: no " + what(q) + " in " + a.looked_up
                      : names_of(g, ok, 10) + ": the " + what(q) + " (" + a.looked_up + ") " + cites;
  const std::size_t apart = qr.candidates.size() - ok.size();
  if (apart)
    add_note(a, std::to_string(apart) + " other candidate(s) listed apart: " +
                    (!f.choices.empty()          ? std::string("not among the choices")
                     : f.relation == "common"    ? std::string("on longer paths, no common partner")
                     : !q.topic.empty()          ? "not " + q.topic
                                                 : "not " + q.implied_class + "s"));
  if (qr.excluded) add_note(a, std::to_string(qr.excluded) + " partner(s) that are " + f.exclude + " left out");
  return a;
}

}  // namespace form_parts

FormAnswer form_answer(const KnowledgeGraph &kg, const QuestionAnalysis &q, const QuestionRetrieval &qr,
                       const AskOptions &o, const AnswerContext &context, std::string &status) {
  return form_parts::compute(kg, q, qr, o, context, status);
}

}  // namespace grappi::detail
