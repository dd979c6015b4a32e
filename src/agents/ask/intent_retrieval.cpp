// Retrieval for a question's intent (intent_retrieval.hpp): the first entity's partners by relation-weighted edge
// score; what joins two entities (common partners by their weaker edge, then the inner nodes of three-edge paths);
// partners of a class or topic (the class's head noun in the partner's name or description, the topic's words in its
// annotation or its ontology terms' names) before the others. Negative interactions are never partners.
#include "agents/ask/intent_retrieval.hpp"

#include <algorithm>
#include <set>
#include <cctype>
#include <unordered_map>
#include <unordered_set>

#include "analysis/annotations.hpp"
#include "grappi/snapshot.hpp"
#include "retrieval/retrieval_common.hpp"
#include "common/text_util.hpp"

namespace grappi::detail {

namespace {

// Words after a class's head noun that make the protein something else ("kinase inhibitor", "kinase regulatory
// subunit", "kinase-like").
bool not_head_after(const std::string &w) {
  static const std::unordered_set<std::string_view> s = {
      "regulator",  "regulators", "regulatory", "inhibitor",  "inhibitors",  "inhibiting", "inhibitory", "activator",
      "activators", "activating", "adaptor",    "adapter",    "substrate",   "substrates", "binding",    "interacting",
      "associated", "anchor",     "anchoring",  "scaffold",   "targeting",   "activation", "inhibition", "like",
      "cofactor",   "complex",    "signaling",  "signalling", "pathway",     "cascade",    "activity",   "gene",
      "modulator",  "recruiting", "docking",    "kinase",     "phosphatase", "ligase",     "interactor", "partner",
      "domain",     "family",     "superfamily"};
  return s.count(w) > 0;
}

// "kinases" -> "kinase", "factors" -> "factor", "families" -> "family".
std::string singular(const std::string &w) {
  if (w.size() > 4 && w.compare(w.size() - 3, 3, "ies") == 0) return w.substr(0, w.size() - 3) + "y";
  if (w.size() > 3 && w.back() == 's' && w[w.size() - 2] != 's' && w[w.size() - 2] != 'u')
    return w.substr(0, w.size() - 1);
  return w;
}

// Lower-case words of letters and digits; hyphens and slashes split words ("Serine/threonine-protein kinase" -> serine
// threonine protein kinase).
std::vector<std::string> plain_words(const std::string &text) { return words(text); }

// A Greek letter's name, spelled.
bool greek_word(const std::string &w) {
  static const std::unordered_set<std::string_view> g = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
                                                        "iota",  "kappa", "lambda", "mu", "sigma", "omega"};
  return g.count(w) > 0;
}

// Whether `head` heads a phrase in the words: a word equal to it or ending with it ("galactokinase"), not followed by a
// word that makes it something else.
bool heads(const std::vector<std::string> &w, const std::string &head) {
  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::string s = singular(w[i]);
    if (s.size() < head.size() || s.compare(s.size() - head.size(), head.size(), head) != 0) continue;
    // (past the designation that follows a head: "kinase 5 activator" is an activator)
    std::size_t next = i + 1;
    while (next < w.size() && (w[next].size() <= 2 || greek_word(w[next]) ||
                               std::any_of(w[next].begin(), w[next].end(), [](char c) { return c >= '0' && c <= '9'; })))
      ++next;
    if (next < w.size() && not_head_after(w[next])) continue;
    return true;
  }
  return false;
}

// The words of a clause's leading noun phrase: up to its first preposition or relative pronoun ("Protein kinase of the
// mitotic exit network" -> protein kinase; "Protein ... phosphorylated by Cln-Cdc28p kinases" stops at "by": a kinase's
// substrate is no kinase).
std::vector<std::string> leading_phrase(const std::string &clause) {
  static const std::unordered_set<std::string_view> cut = {
      "of",    "by",    "in",  "to",     "for",  "from",    "with", "on", "at",  "into", "that",
      "which", "whose", "via", "during", "upon", "through", "as",   "is", "are", "has"};
  std::vector<std::string> out;
  for (std::string &w : words(clause)) {
    if (cut.count(w)) break;
    out.push_back(std::move(w));
  }
  return out;
}

// A clause without its parenthesised parts ("Cyclin-dependent kinase (CDK) catalytic subunit").
std::string without_parentheses(std::string_view clause) {
  std::string out;
  int depth = 0;
  for (char c : clause) {
    if (c == '(' || c == '[') ++depth;
    else if ((c == ')' || c == ']') && depth > 0) --depth;
    else if (depth == 0) out += c;
  }
  return out;
}

// Words that follow a head noun in names: numbers, letters, Greek letters, roman numerals, the protein's own name
// ("Serine/threonine-protein kinase PSK1", "Glycogen synthase kinase-3 beta").
bool trailing_name_word(const std::string &w, const std::string &own) {
  static const std::unordered_set<std::string_view> s = {
      "alpha",     "beta",   "gamma",  "delta",   "epsilon",   "zeta",     "eta",       "theta",
      "kappa",     "lambda", "mu",     "sigma",   "omega",     "i",        "ii",        "iii",
      "iv",        "v",      "vi",     "vii",     "viii",      "ix",       "x",         "a",
      "b",         "c",      "d",      "homolog", "homologue", "like",     "isoform",   "isozyme",
      "subfamily", "family", "member", "type",    "putative",  "probable", "precursor", "mitochondrial"};
  return w == own || s.count(w) > 0 || std::any_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Heads that say nothing of what a protein is: the next clause says it.
bool generic_head(const std::string &w) {
  static const std::unordered_set<std::string_view> s = {
      "protein", "proteins", "polypeptide", "gene", "product", "orf", "frame", "peptide", "factor", "uncharacterized"};
  return w.empty() || s.count(w) > 0;
}

// The head noun of a clause's leading noun phrase: its last word once trailing names, numbers and Greek letters are
// gone; "X catalytic subunit" is X (the catalytic subunit is the enzyme).
std::string head_of(std::string_view clause, const std::string &own) {
  std::vector<std::string> w = leading_phrase(without_parentheses(clause));
  while (!w.empty() && trailing_name_word(w.back(), own)) w.pop_back();
  if (w.size() >= 2 && singular(w.back()) == "subunit" && w[w.size() - 2] == "catalytic") {
    w.resize(w.size() - 2);
    while (!w.empty() && trailing_name_word(w.back(), own)) w.pop_back();
  }
  return w.empty() ? std::string() : singular(w.back());
}

bool mentions(const std::vector<std::string> &w, const std::string &term) {
  for (const std::string &x : w) {
    const std::string s = singular(x);
    if (s == term || x == term) return true;
    if (term.size() > 5 && x.size() >= term.size() - 2 &&
        x.compare(0, std::max<std::size_t>(5, term.size() - 3), term, 0, std::max<std::size_t>(5, term.size() - 3)) ==
            0)
      return true;
    if (s.size() > term.size() && term.size() >= 5 && s.compare(s.size() - term.size(), term.size(), term) == 0)
      return true;
  }
  return false;
}

// Whether the terms appear one after the other (inflected: "DNA repair" in "repairs DNA" does not count, "DNA repair"
// in "DNA-repair" does).
bool phrase_in(const std::vector<std::string> &w, const std::vector<std::string> &terms) {
  if (terms.empty() || w.size() < terms.size()) return false;
  for (std::size_t i = 0; i + terms.size() <= w.size(); ++i) {
    bool all = true;
    for (std::size_t k = 0; k < terms.size() && all; ++k) all = mentions({w[i + k]}, terms[k]);
    if (all) return true;
  }
  return false;
}

bool physical_relation(const std::string &r) {
  return r.find("physical") != std::string::npos || r.find("direct") != std::string::npos ||
         r.find("binding") != std::string::npos || r.find("complex") != std::string::npos;
}

bool negative_relation(const std::string &r) { return r.rfind("mitab.negative.", 0) == 0; }

// Relations of a kind of evidence when an edge has no channel scores (IntAct rows are experiments a curator read; BEL
// statements are curated; co-occurrence is text mining).
bool relation_of_channel(const std::string &r, const std::string &channel) {
  if (channel == "experimental") return r.rfind("mitab.", 0) == 0;
  if (channel == "database") return r.rfind("mitab.", 0) == 0 || r.rfind("bel.", 0) == 0;
  if (channel == "textmining") return r.rfind("cooc", 0) == 0;
  return false;
}

struct Link {
  double score = -1;           // best weighted score
  std::vector<int64_t> edges;  // every edge to it
  bool physical = false;
  std::set<int32_t> relations;  // of those edges
};

// Calls fn(partner id, link) once per partner of the node at index `at` through the edge test (the adjacency
// entries to one neighbour are consecutive: merged into one link), skipping the node itself and the partners
// `want` (given the neighbour's index) refuses before their link is made. The link is reused between calls.
template <class Want, class Fn>
void each_partner(const GraphSnapshot &g, uint32_t at, const EdgeTest &t, const std::map<std::string, double> &weights,
                  Want want, Fn fn) {
  const auto a = g.adjacency(at);
  Link l;
  for (std::size_t i = 0; i < a.size;) {
    const uint32_t v = a.neighbor[i];
    std::size_t end = i + 1;
    while (end < a.size && a.neighbor[end] == v) ++end;
    if (v != at && want(v)) {
      const int64_t other = g.node_id(v);
      l.score = -1;
      l.edges.clear();
      l.physical = false;
      l.relations.clear();
      for (std::size_t k = i; k < end; ++k) {
        double score = 0;
        if (!t.pass(a, k, &score)) continue;
        const std::string &rel = g.relation_name(a.relation[k]);
        const auto w = weights.empty() ? weights.end() : weights.find(rel);
        l.score = std::max(l.score, score * (w == weights.end() ? 1.0 : w->second));
        l.edges.push_back(a.edge[k]);
        l.physical = l.physical || physical_relation(rel);
        l.relations.insert(a.relation[k]);
      }
      if (!l.edges.empty()) fn(other, l);
    }
    i = end;
  }
}

// The partners of an entity's nodes (a family's members) through the edge test, by weighted score; the entity's own
// nodes are no partners.
std::unordered_map<int64_t, Link> partners_of(const GraphSnapshot &g, const std::vector<int64_t> &nodes, const EdgeTest &t,
                                              const std::map<std::string, double> &weights) {
  std::unordered_map<int64_t, Link> out;
  const std::unordered_set<int64_t> own(nodes.begin(), nodes.end());
  for (const int64_t node : nodes)
    if (const auto at = g.index_of(node))
      each_partner(
          g, *at, t, weights, [&](uint32_t v) { return !own.count(g.node_id(v)); },
          [&](int64_t other, const Link &l) {
            Link &m = out[other];
            m.score = std::max(m.score, l.score);
            m.edges.insert(m.edges.end(), l.edges.begin(), l.edges.end());
            m.physical = m.physical || l.physical;
            m.relations.insert(l.relations.begin(), l.relations.end());
          });
  return out;
}

bool better(const IntentCandidate &a, const IntentCandidate &b) {
  if (a.admitted != b.admitted) return a.admitted;
  if (a.tier != b.tier) return a.tier > b.tier;
  if (a.score != b.score) return a.score > b.score;
  return a.node < b.node;
}

std::string fmt3(double v) { return fixed(v, 3); }

// The node's text for a class or topic: its name and the annotation's first two clauses (STRING: the protein's name and
// its one-line description), and the rest of the annotation with its ontology terms' names.
void texts_of(const KnowledgeGraph &kg, const GraphSnapshot &g, int64_t node, std::string &defining,
              std::string &rest) {
  defining.clear();
  rest.clear();
  const auto n = kg.node(node);
  if (!n) return;
  defining = n->name;
  std::size_t clauses = 0, at = 0;
  const std::string &text = n->annotation;
  while (at <= text.size() && clauses < 2) {
    const std::size_t semi = text.find(';', at);
    defining += " ; " + text.substr(at, semi == std::string::npos ? std::string::npos : semi - at);
    ++clauses;
    if (semi == std::string::npos) {
      at = text.size() + 1;
      break;
    }
    at = semi + 1;
  }
  if (at < text.size()) rest = text.substr(at);
  if (const auto i = g.index_of(node)) {
    const auto a = g.adjacency(*i);
    for (std::size_t k = 0; k < a.size; ++k)
      if (g.label(a.neighbor[k]) == "OntologyTerm") rest += " ; " + g.name(a.neighbor[k]);
  }
}

}  // namespace

EdgeTest::EdgeTest(const KnowledgeGraph &kg, const GraphSnapshot &g, const EdgeFilter &filter, const QuestionFrame &frame,
                   double default_min)
    : kg_(kg), g_(g), base_(g, filter, "ask") {
  min_ = frame.min_score > 0 ? frame.min_score : default_min;
  confidence_ = frame.confidence;
  relation_ok_.assign(g.relation_count(), 0);
  used_.assign(g.relation_count(), 0);
  for (std::size_t r = 0; r < g.relation_count(); ++r)
    relation_ok_[r] = (base_.keep.empty() || base_.keep[r]) && !negative_relation(g.relation_name(static_cast<int32_t>(r)));
  for (const std::string &c : frame.channels) {
    if (c != "physical") {
      channels_.push_back(c);
      continue;
    }
    std::vector<char> physical(g.relation_count(), 0);
    bool any = false;
    for (std::size_t r = 0; r < g.relation_count(); ++r)
      any = any || (physical[r] = relation_ok_[r] && physical_relation(g.relation_name(static_cast<int32_t>(r))));
    if (any) physical_ = std::move(physical);
    else note_ = "the question asks for physical interactions and the database holds none (no physical relation): "
                 "every relation is looked up";
  }
}

bool EdgeTest::pass(const GraphSnapshot::Adjacency &a, std::size_t i, double *score) const {
  const auto r = static_cast<std::size_t>(a.relation[i]);
  if (a.score[i] < base_.min_score || !relation_ok_[r]) return false;
  if (!physical_.empty() && !physical_[r]) return false;
  double s = decimal(a.score[i]);
  if (!channels_.empty()) {
    // (a channel's own score, STRING's way; an edge without channels counts for the datasets of that kind)
    auto it = channel_score_.find(a.edge[i]);
    if (it == channel_score_.end()) {
      double best = -1;
      const std::string &rel = g_.relation_name(a.relation[i]);
      if (const auto e = kg_.edge(a.edge[i])) {
        for (const Channel &c : e->channels)
          if (std::find(channels_.begin(), channels_.end(), c.name) != channels_.end() && c.score > 0)
            best = std::max(best, c.score);
        if (e->channels.empty())
          for (const std::string &c : channels_)
            if (relation_of_channel(rel, c)) best = std::max(best, e->score);
      }
      it = channel_score_.emplace(a.edge[i], best).first;
    }
    if (it->second < 0) return false;
    s = it->second;
  }
  if (s + 1e-9 < min_) return false;
  if (score) *score = s;
  return true;
}

std::string EdgeTest::describe() const {
  // (the relations the answer's edges are of; before any passed, those looked in, ontologies' structure aside)
  std::vector<std::string> names;
  for (std::size_t r = 0; r < used_.size(); ++r)
    if (used_[r]) names.push_back(g_.relation_name(static_cast<int32_t>(r)));
  const bool none_used = names.empty();
  for (std::size_t r = 0; r < relation_ok_.size() && none_used; ++r) {
    const std::string &name = g_.relation_name(static_cast<int32_t>(r));
    if (relation_ok_[r] && (physical_.empty() || physical_[r]) && name.rfind("obo.", 0) != 0 && name.rfind("go.", 0) != 0)
      names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  std::string out;
  for (std::size_t k = 0; k < names.size() && k < 6; ++k) out += (k ? ", " : "") + names[k];
  if (names.size() > 6) out += " and " + std::to_string(names.size() - 6) + " more";
  if (names.empty()) out = "no relation";
  if (!channels_.empty()) {
    out += " with ";
    for (std::size_t k = 0; k < channels_.size(); ++k) out += (k ? " or " : "") + channels_[k];
    out += " evidence";
  }
  out += min_ > 0 ? " at score >= " + fmt3(min_) : " at any score";
  if (!confidence_.empty()) out += " (" + confidence_ + ")";
  return out;
}

std::vector<int64_t> nodes_of(const QuestionEntity &e) {
  if (e.members.empty()) return {e.node};
  std::vector<int64_t> out;
  for (const QuestionEntity::Member &m : e.members) out.push_back(m.node);
  return out;
}

int topic_tier(const std::string &topic, bool is_class, const std::string &defining, const std::string &rest,
               std::string *why) {
  const std::vector<std::string> terms = [&] {
    std::vector<std::string> t;
    for (const std::string &w : words(topic))
      if (!is_stop_word(w)) t.push_back(singular(w));
    return t;
  }();
  if (terms.empty()) return 0;
  const std::vector<std::string> d = plain_words(defining), r = plain_words(rest);
  std::vector<std::string> all = d;
  all.insert(all.end(), r.begin(), r.end());
  const auto say = [&](const std::string &s) {
    if (why) *why = s;
  };
  if (is_class) {
    const std::string &head = terms.back();
    const std::vector<std::string> mods(terms.begin(), terms.end() - 1);
    const bool mods_in_d = std::all_of(mods.begin(), mods.end(), [&](const std::string &m) { return mentions(d, m); });
    const bool mods_in_all =
        std::all_of(mods.begin(), mods.end(), [&](const std::string &m) { return mentions(all, m); });
    // What the protein is: the head noun of its name (the first clause after the name), else, when that says nothing
    // ("protein 15"), of its description.
    const std::vector<std::string_view> clauses = split_view(defining, ';');
    const std::string own = clauses.empty() ? std::string() : lower_copy(trim_copy(clauses[0]));
    std::string is;
    for (std::size_t i = 1; i < clauses.size() && generic_head(is); ++i) is = head_of(clauses[i], own);
    const bool head_match = is.size() >= head.size() && is.compare(is.size() - head.size(), head.size(), head) == 0;
    if (head_match && mods_in_d) return say("a " + topic + " by its name or description"), 3;
    if ((heads(d, head) && mods_in_all) || (heads(r, head) && mods_in_all))
      return say("a " + head + " by its annotation"), 2;
    if (mentions(all, head)) return say("its annotation mentions " + head), 1;
    return 0;
  }
  if (phrase_in(d, terms)) return say("\"" + topic + "\" in its name or description"), 3;
  if (phrase_in(r, terms)) return say("\"" + topic + "\" in its annotation"), 3;
  const std::size_t found = static_cast<std::size_t>(
      std::count_if(terms.begin(), terms.end(), [&](const std::string &t) { return mentions(all, t); }));
  if (found == terms.size()) return say("its annotation names " + topic), 2;
  if (found * 2 >= terms.size() && found > 0) return say("its annotation names part of " + topic), 1;
  return 0;
}

namespace {

// The candidates of one entity (X's partners, those of a class or topic first; among a comparison's choices).
std::vector<IntentCandidate> partner_candidates(const KnowledgeGraph &kg, const GraphSnapshot &g, const QuestionAnalysis &q,
                                                const EdgeTest &t, const IntentRetrieveOptions &o, int64_t target,
                                                IntentRetrieval &out) {
  const QuestionFrame &f = q.frame;
  const auto it = std::find_if(q.entities.begin(), q.entities.end(), [&](const QuestionEntity &e) { return e.node == target; });
  const std::vector<int64_t> own = it == q.entities.end() ? std::vector<int64_t>{target} : nodes_of(*it);
  std::unordered_set<int64_t> asked;
  for (const QuestionEntity &e : q.entities)
    if (std::find(f.choices.begin(), f.choices.end(), e.node) == f.choices.end()) asked.insert(e.node);
  const auto links = partners_of(g, own, t, o.relation_weights);
  const bool physical = q.interaction == "physical" && t.note().empty() &&
                        std::any_of(links.begin(), links.end(), [](const auto &l) { return l.second.physical; });
  std::string topic = q.topic;
  bool is_class = q.topic_kind == "class";
  if (topic.empty() && !q.implied_class.empty()) topic = q.implied_class, is_class = true;
  const bool by_topic = q.intent == "class" && !topic.empty();
  // A topic that names a GO term, where GO and annotations are imported: a partner annotated to it or
  // to a term below it is of the topic ("partners of X involved in apoptosis": "apoptotic process"
  // and its descendants, by the true-path rule), whatever its annotation text says.
  std::vector<uint32_t> go_terms;  // (indices in the annotations' snapshot)
  std::shared_ptr<const detail::Annotations> go;
  if (by_topic && !is_class)
    if (const std::vector<int64_t> ids = detail::go_terms_named(kg, topic); !ids.empty()) {
      go = detail::annotations(kg);
      for (const int64_t id : ids)
        if (const auto at = go->graph->index_of(id)) go_terms.push_back(*at);
      if (go_terms.empty()) go.reset();
    }
  // (the answers are proteins when the entity is: an ontology term or a concept an edge joins is no partner)
  const bool proteins = it == q.entities.end() || it->label == "Protein" || !it->members.empty();
  std::vector<IntentCandidate> c;
  std::string defining, rest;
  for (const auto &[node, l] : links) {
    if (asked.count(node)) continue;
    if (!f.choices.empty() && std::find(f.choices.begin(), f.choices.end(), node) == f.choices.end()) continue;
    if (proteins) {
      const auto at = g.index_of(node);
      if (!at || g.label(*at) != "Protein") continue;
    }
    IntentCandidate k;
    k.node = node;
    k.score = l.score;
    k.edges = l.edges;
    if (by_topic || !f.exclude.empty()) texts_of(kg, g, node, defining, rest);
    if (!f.exclude.empty()) {
      std::string why;
      if (topic_tier(f.exclude, f.exclude_kind == "class", defining, rest, &why) >= 2) {
        ++out.excluded;
        continue;
      }
    }
    if (by_topic) {
      k.tier = topic_tier(topic, is_class, defining, rest, &k.why);
      // (an implied class counts when the question names a topic besides: "which proteins in the nucleus
      // phosphorylate X")
      if (q.topic_kind == "topic" && !q.implied_class.empty()) {
        std::string why;
        if (topic_tier(q.implied_class, true, defining, rest, &why) >= 2 && k.tier > 0) k.tier = std::min(3, k.tier + 1);
      }
      if (go && k.tier < 3)
        if (const auto at = go->graph->index_of(node))
          for (const uint32_t term : go_terms) {
            uint32_t via = 0;
            if (!detail::annotated_under(*go, *at, term, &via)) continue;
            k.tier = 3;
            k.why = "annotated to " + go->graph->external_id(via) + " " + go->graph->name(via) +
                    (via == term ? std::string() : ", below " + go->graph->external_id(term) + " " + go->graph->name(term));
            break;
          }
      k.admitted = k.tier >= 2;
    } else if (physical) {
      k.tier = l.physical ? 1 : 0;
      k.why = l.physical ? "a physical interaction" : "";
    }
    if (k.why.empty()) k.why = "edge score " + fmt3(l.score);
    for (const int32_t r : l.relations) t.mark_used(r);
    c.push_back(std::move(k));
  }
  const std::string &name = it == q.entities.end() ? std::string("the entity") : it->name;
  const std::string members = it != q.entities.end() && !it->members.empty()
                                  ? " (the " + it->label.substr(7) + "'s " + std::to_string(it->members.size()) + " members)"
                                  : "";
  out.recipe = by_topic ? "the partners of " + name + members + " that are " + (is_class ? "" : "about ") + topic +
                              " first (name, description, annotation, ontology terms" +
                              (go ? std::string(", GO annotations under ") + go->graph->external_id(go_terms.front()) : std::string()) +
                              "), then by edge score"
                        : "the partners of " + name + members + " by edge score" +
                              (physical ? " (physical interactions first)" : "");
  if (!f.exclude.empty()) out.recipe += ", those that are " + f.exclude + " left out";
  if (!f.choices.empty()) out.recipe += ", among the choices the question lists";
  return c;
}

struct Path {
  std::vector<int64_t> nodes;
  double score;  // the weakest edge
};

}  // namespace

IntentRetrieval retrieve_for_intent(const KnowledgeGraph &kg, const QuestionAnalysis &q, const IntentRetrieveOptions &o) {
  IntentRetrieval out;
  if (q.intent == "open" || q.entities.empty()) return out;
  const auto snapshot = kg.snapshot();
  const GraphSnapshot &g = *snapshot;
  const QuestionFrame &f = q.frame;
  // (yes/no, count, path and enrichment answers take STRING's medium confidence unless the question states one;
  // lists rank every partner)
  const EdgeTest t(kg, g, o.filter, f, f.form == "count" || f.form == "path" || f.form == "yes_no" || f.form == "enrichment" ? kMediumConfidence : 0.0);
  out.looked_up = t.describe();
  out.note = t.note();
  // The entity compared against (a comparison's entity that is no choice), else the first.
  int64_t x = q.entities[0].node;
  if (!f.choices.empty())
    for (const QuestionEntity &e : q.entities)
      if (std::find(f.choices.begin(), f.choices.end(), e.node) == f.choices.end()) {
        x = e.node;
        break;
      }
  std::vector<const QuestionEntity *> others;
  for (const QuestionEntity &e : q.entities)
    if (e.node != x && std::find(f.choices.begin(), f.choices.end(), e.node) == f.choices.end()) others.push_back(&e);
  const bool two = (q.intent == "connects" || q.intent == "paths") && !others.empty() && f.choices.empty();
  std::unordered_set<int64_t> asked;
  for (const QuestionEntity &e : q.entities) asked.insert(e.node);
  std::vector<IntentCandidate> c;
  const auto entity_of = [&](int64_t node) {
    return *std::find_if(q.entities.begin(), q.entities.end(), [&](const QuestionEntity &e) { return e.node == node; });
  };
  if (!two) {
    c = partner_candidates(kg, g, q, t, o, x, out);
  } else {
    // What joins the entities: the partners they all share by the weakest edge; with two, then the inner nodes of
    // three-edge paths. A path question ranks the routes by their weakest edge (a route of strong edges before a
    // shorter one through weak hub edges).
    const bool by_strength = f.form == "path";
    const QuestionEntity &ex = entity_of(x);
    const int64_t y = others[0]->node;
    const auto la = partners_of(g, nodes_of(ex), t, o.relation_weights), lb = partners_of(g, nodes_of(*others[0]), t, o.relation_weights);
    std::vector<std::unordered_map<int64_t, Link>> more;
    for (std::size_t k = 1; k < others.size(); ++k) more.push_back(partners_of(g, nodes_of(*others[k]), t, o.relation_weights));
    std::unordered_map<int64_t, IntentCandidate> best;
    // (edges and why made only for a candidate that is kept: three-edge paths offer each node many times)
    const auto offer = [&](int64_t node, int tier, double score, auto make_edges, auto make_why) {
      if (asked.count(node)) return;
      auto it = best.find(node);
      IntentCandidate k;
      k.node = node, k.tier = by_strength ? 0 : tier, k.score = score;
      if (it != best.end() && !better(k, it->second)) return;
      k.edges = make_edges();
      k.why = make_why();
      if (it == best.end()) best.emplace(node, std::move(k));
      else it->second = std::move(k);
    };
    std::vector<Path> paths;
    {
      // (the direct edge: the entities' own nodes joined)
      const std::vector<int64_t> ys = nodes_of(*others[0]);
      for (const int64_t yn : ys)
        if (const auto d = la.find(yn); d != la.end() && more.empty()) {
          paths.push_back({{x, y}, d->second.score});
          for (const int32_t r : d->second.relations) t.mark_used(r);
        }
    }
    for (const auto &[m, l] : la) {
      const auto other = lb.find(m);
      if (other == lb.end() || asked.count(m)) continue;
      double s = std::min(l.score, other->second.score);
      std::vector<int64_t> edges = l.edges;
      edges.insert(edges.end(), other->second.edges.begin(), other->second.edges.end());
      bool all = true;
      for (const auto &lm : more) {
        const auto e = lm.find(m);
        if (e == lm.end()) {
          all = false;
          break;
        }
        s = std::min(s, e->second.score);
        edges.insert(edges.end(), e->second.edges.begin(), e->second.edges.end());
      }
      if (!all) continue;
      for (const int32_t r : l.relations) t.mark_used(r);
      for (const int32_t r : other->second.relations) t.mark_used(r);
      offer(
          m, 2, s, [&] { return std::move(edges); },
          [&] { return (more.empty() ? "a partner of both" : "a partner of all") + std::string(" (weaker edge ") + fmt3(s) + ")"; });
      if (more.empty()) paths.push_back({{x, m, y}, s});
    }
    // Three edges: x - m1 - m2 - y (two entities only). (y's partners marked by index: the test runs for every
    // partner of every partner of x)
    std::vector<char> in_lb(more.empty() ? g.node_count() : 0, 0);
    for (const auto &[m2, l2] : lb)
      if (const auto at = g.index_of(m2); at && more.empty() && !asked.count(m2)) in_lb[*at] = 1;
    if (more.empty())
      for (const auto &first : la) {
        const int64_t m1 = first.first;  // (named, not bound: lambdas below capture them)
        const Link &l1 = first.second;
        if (asked.count(m1)) continue;
        const auto at1 = g.index_of(m1);
        if (!at1) continue;
        // (only the partners of m1 that are partners of y: no link made for the others)
        each_partner(g, *at1, t, o.relation_weights, [&](uint32_t v) { return in_lb[v] != 0; },
                     [&](int64_t m2, const Link &l12) {
          const auto l2 = lb.find(m2);
          const double s = std::min({l1.score, l12.score, l2->second.score});
          for (const Link *l : {&l1, &l12, &l2->second})
            for (const int32_t r : l->relations) t.mark_used(r);
          const auto why = [&] { return "on a path of three edges (weakest " + fmt3(s) + ")"; };
          const auto edges_with = [&l12](const Link &l) {
            return [outer = &l, inner = &l12] {
              std::vector<int64_t> e = outer->edges;
              e.insert(e.end(), inner->edges.begin(), inner->edges.end());
              return e;
            };
          };
          offer(m1, 1, s, edges_with(l1), why);
          offer(m2, 1, s, edges_with(l2->second), why);
          if (paths.size() < 20000) paths.push_back({{x, m1, m2, y}, s});
        });
      }
    for (auto &[node, k] : best) c.push_back(std::move(k));
    std::stable_sort(paths.begin(), paths.end(), [&](const Path &a, const Path &b) {
      if (by_strength && a.score != b.score) return a.score > b.score;
      if (a.nodes.size() != b.nodes.size()) return a.nodes.size() < b.nodes.size();
      if (a.score != b.score) return a.score > b.score;
      return a.nodes < b.nodes;
    });
    for (std::size_t i = 0; i < paths.size() && i < 20; ++i) {
      out.paths.push_back(paths[i].nodes);
      out.path_scores.push_back(paths[i].score);
    }
    std::string names = entity_of(x).name;
    for (std::size_t k = 0; k < others.size(); ++k) names += (k + 1 == others.size() ? " and " : ", ") + others[k]->name;
    out.recipe = by_strength ? "the routes from " + entity_of(x).name + " to " + others[0]->name +
                                   " of at most three edges, ranked by their weakest edge, then their length"
                 : more.empty() ? "what joins " + names +
                                      ": their common partners by the weaker edge, then the inner nodes of three-edge "
                                      "paths by the weakest"
                                : "the partners " + names + " all share, by the weakest edge";
  }
  // What joins two entities is their common partners when they have some (the inner nodes of longer paths are ranked
  // after, apart); else those inner nodes.
  if (two && f.form != "path" && std::any_of(c.begin(), c.end(), [](const IntentCandidate &k) { return k.tier == 2; }))
    for (IntentCandidate &k : c) k.admitted = k.tier == 2;
  std::sort(c.begin(), c.end(), better);
  out.candidates = c.size();
  // The subgraph: the entities (and a family's members) and the best candidates (their edges among them).
  std::vector<uint32_t> nodes;
  std::unordered_map<int64_t, double> prize;
  // (the candidates the frame admits above the others, when some are not: a class's members before the rest)
  const double apart = std::any_of(c.begin(), c.end(), [](const IntentCandidate &k) { return !k.admitted; }) ? 4 : 0;
  double top = 0;
  for (const IntentCandidate &k : c) top = std::max(top, (k.admitted ? apart : 0) + k.tier + k.score);
  for (const QuestionEntity &e : q.entities)
    for (int64_t n : nodes_of(e))
      if (const auto i = g.index_of(n); i && !prize.count(n)) {
        nodes.push_back(*i);
        prize[n] = top + 1;
      }
  for (std::size_t i = 0; i < c.size() && i < o.max_candidates; ++i)
    if (const auto at = g.index_of(c[i].node); at && !prize.count(c[i].node)) {
      nodes.push_back(*at);
      prize[c[i].node] = (c[i].admitted ? apart : 0) + c[i].tier + c[i].score;
    }
  std::vector<uint32_t> sorted = nodes;
  std::sort(sorted.begin(), sorted.end(), [&](uint32_t a, uint32_t b) { return g.node_id(a) < g.node_id(b); });
  for (uint32_t v : sorted) {
    const int64_t id = g.node_id(v);
    out.subgraph.nodes.push_back(id);
    out.subgraph.hops.push_back(asked.count(id) ? 0 : 1);
    out.node_prizes.push_back(prize[id]);
  }
  out.subgraph.edges = edges_among(g, sorted, Filter(g, o.filter, "ask"));
  out.subgraph.edges.erase(std::remove_if(out.subgraph.edges.begin(), out.subgraph.edges.end(),
                                          [](const WindowEdge &e) { return negative_relation(e.relation); }),
                           out.subgraph.edges.end());
  out.ranked = std::move(c);
  return out;
}

}  // namespace grappi::detail
