// The rule-based extractor behind the offline model: within one sentence, two grounded
// entities with no other entity between them and an interaction trigger word become a BEL
// statement by the rule table below (docs/extract.md "Extraction"). It is not a language model and its
// output says so (origin "rule:<name>").
//
//   rule               trigger stems (A before B)                 statement
//   phosphorylation    phosphorylat-                              act(A, ma(kin)) increases p(B, pmod(Ph))
//   dephosphorylation  dephosphorylat-                            act(A, ma(phos)) decreases p(B, pmod(Ph))
//   ubiquitination     ubiquitinat-, ubiquitylat-                 act(A) increases p(B, pmod(Ub))
//   acetylation        acetylat-                                  act(A) increases p(B, pmod(Ac))
//   methylation        methylat-                                  act(A) increases p(B, pmod(Me))
//   sumoylation        sumoylat-                                  act(A) increases p(B, pmod(Sumo))
//   degradation        degrad-                                    act(A) increases deg(B)
//   binding            bind-, bound, interact-, associat-,        complex(A, B)
//                      complex, heterodimer-, affinit-
//   activation         activat-, stimulat-                        A increases act(B)
//   inhibition         inhibit-, suppress-, block-, inactivat-,   A decreases act(B)
//                      antagoni-
//   induction          induc-, upregulat-, up-regulat-,           A increases B
//                      increas-, enhanc-, promot-
//   repression         repress-, downregulat-, down-regulat-,     A decreases B
//                      reduc-, decreas-, attenuat-
//   regulation         regulat-, modulat-, mediat-                A regulates B
//
// The last trigger between A and B decides the rule (a noun such as "phosphorylation" only when
// "of" follows it: "A-mediated phosphorylation of B"); "by" after it makes the sentence passive
// (B is the subject: "B is phosphorylated by A"). Without a trigger between them, the nominal
// forms count: "phosphorylation of A by B" (B the subject), "interaction between A and B",
// "binding of A to B", "associations of A with B", "A and B interact", "the A-B complex", "a A/B
// heterodimer", "cyclin E-Cdk2" (not "the PI3K/Akt pathway") (and "A, B and C interact",
// "a complex composed of A, B and C", "complex formation between A, B, and C": each pair of the
// list). A negation between them ("not", "no", "fails", "neither", "unable", "without") drops
// the pair, and so does a verb that begins a coordinated clause after A ("X increased A and
// decreased B": the subject of "decreased" is X). An active rule also holds for the object's
// coordinated list ("A binds B, C and D"). A sentence of exactly two entities with a trigger
// word that no rule read (and no negation or coordinated clause ruled out) gives
// "A association B" (rule "association"), and so does any other pair of the sentence with an
// interaction word between them (kInteractionWords; at most kNearby characters apart, no
// negation between: "A ... was co-immunoprecipitated ... with B"), which no rule read. Modifications need a protein object; act()
// wraps only proteins and complexes; processes and diseases are objects of increases/decreases
// only.
#include "agents/extract/extraction_offline.hpp"

#include <algorithm>
#include <iterator>
#include <set>
#include <string_view>
#include <vector>

#include "common/answer_json.hpp"
#include "common/grounding_text.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"

namespace grappi::detail {

namespace {

using nlohmann::json;

enum class Rule {
  phosphorylation, dephosphorylation, ubiquitination, acetylation, methylation, sumoylation, degradation,
  binding, activation, inhibition, induction, repression, regulation
};

const char *rule_name(Rule r) {
  switch (r) {
    case Rule::phosphorylation: return "phosphorylation";
    case Rule::dephosphorylation: return "dephosphorylation";
    case Rule::ubiquitination: return "ubiquitination";
    case Rule::acetylation: return "acetylation";
    case Rule::methylation: return "methylation";
    case Rule::sumoylation: return "sumoylation";
    case Rule::degradation: return "degradation";
    case Rule::binding: return "binding";
    case Rule::activation: return "activation";
    case Rule::inhibition: return "inhibition";
    case Rule::induction: return "induction";
    case Rule::repression: return "repression";
    case Rule::regulation: return "regulation";
  }
  return "?";
}

// Longer stems first where one contains another ("dephosphorylat" before "phosphorylat",
// "inactivat" before "activat", "upregulat" before "regulat").
const std::pair<const char *, Rule> kStems[] = {
    {"dephosphorylat", Rule::dephosphorylation}, {"phosphorylat", Rule::phosphorylation},
    {"ubiquitinat", Rule::ubiquitination},       {"ubiquitylat", Rule::ubiquitination},
    {"acetylat", Rule::acetylation},             {"methylat", Rule::methylation},
    {"sumoylat", Rule::sumoylation},             {"degrad", Rule::degradation},
    {"heterodimer", Rule::binding},              {"interact", Rule::binding},
    {"associat", Rule::binding},                 {"complex", Rule::binding},
    {"bind", Rule::binding},                     {"bound", Rule::binding},
    {"affinit", Rule::binding},
    {"inactivat", Rule::inhibition},             {"activat", Rule::activation},
    {"stimulat", Rule::activation},              {"inhibit", Rule::inhibition},
    {"suppress", Rule::inhibition},              {"block", Rule::inhibition},
    {"antagoni", Rule::inhibition},              {"upregulat", Rule::induction},
    {"up-regulat", Rule::induction},             {"downregulat", Rule::repression},
    {"down-regulat", Rule::repression},          {"induc", Rule::induction},
    {"increas", Rule::induction},                {"enhanc", Rule::induction},
    {"promot", Rule::induction},                 {"repress", Rule::repression},
    {"reduc", Rule::repression},                 {"decreas", Rule::repression},
    {"attenuat", Rule::repression},              {"regulat", Rule::regulation},
    {"modulat", Rule::regulation},               {"mediat", Rule::regulation}};

// Words that speak of two proteins acting on each other, anywhere in a word ("co-immunoprecipitated",
// "heterodimer"): what the association of two entities with one between them needs. Not the
// rule table's words of change alone ("increases", "reduces"): those say as much of amounts.
const char *const kInteractionWords[] = {"interact", "bind",     "bound",    "associat", "complex",   "phosphorylat",
                                         "activat",  "inhibit",  "regulat",  "recruit",  "dimer",     "immunoprecipit",
                                         "cleav",    "ubiquitin", "modulat", "mediat",   "induc",     "suppress",
                                         "stimulat", "block",    "antagon",  "ligand",   "substrate", "target",
                                         "partner",  "coupl",    "contact"};
// The farthest apart (characters between them) two entities an interaction word between them
// associates: chosen on the PPI corpora's train halves (BENCHMARKS.md).
constexpr std::size_t kNearby = 160;

bool interaction_between(std::string_view between) {
  return std::any_of(std::begin(kInteractionWords), std::end(kInteractionWords),
                     [&](const char *w) { return between.find(w) != std::string_view::npos; });
}

struct Entity {
  std::size_t offset = 0, length = 0;
  std::string bel, function;
};

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool has_word(std::string_view hay, std::string_view word) {
  for (std::size_t at = hay.find(word); at != std::string_view::npos; at = hay.find(word, at + 1)) {
    const bool left = at == 0 || !word_char(hay[at - 1]);
    const bool right = at + word.size() == hay.size() || !word_char(hay[at + word.size()]);
    if (left && right) return true;
  }
  return false;
}

bool negated(std::string_view between) {
  for (std::string_view w : {"not", "no", "fails", "failed", "neither", "nor", "unable", "without", "cannot"})
    if (has_word(between, w)) return true;
  return between.find("n't") != std::string_view::npos;
}

// The last trigger stem in `text` that starts a word (or follows a hyphen: "A-induced"), with
// where it starts.
std::optional<std::pair<Rule, std::size_t>> last_trigger(std::string_view text) {
  std::optional<std::pair<Rule, std::size_t>> best;
  for (const auto &[stem, rule] : kStems) {
    for (std::size_t at = text.find(stem); at != std::string_view::npos; at = text.find(stem, at + 1)) {
      if (at > 0 && word_char(text[at - 1])) continue;
      if (!best || at > best->second) best = std::make_pair(rule, at);
    }
  }
  return best;
}

bool abundance(const Entity &e) { return e.function == "p" || e.function == "a" || e.function == "complex" || e.function == "g" || e.function == "r"; }

std::string act(const Entity &e, const char *ma = nullptr) {
  if (e.function != "p" && e.function != "complex") return e.bel;
  return "act(" + e.bel + (ma ? std::string(", ma(") + ma + ")" : std::string()) + ")";
}

// p(NS:value) -> p(NS:value, pmod(Ph)).
std::string modified(const Entity &e, const char *pmod) {
  return e.bel.substr(0, e.bel.size() - 1) + ", pmod(" + pmod + "))";
}

// The statement of a rule with its subject and object; empty when the rule does not apply to
// their kinds.
std::string statement(Rule r, const Entity &s, const Entity &o) {
  const bool protein_object = o.function == "p";
  switch (r) {
    case Rule::phosphorylation:
      return protein_object && abundance(s) ? act(s, "kin") + " increases " + modified(o, "Ph") : "";
    case Rule::dephosphorylation:
      return protein_object && abundance(s) ? act(s, "phos") + " decreases " + modified(o, "Ph") : "";
    case Rule::ubiquitination: return protein_object && abundance(s) ? act(s) + " increases " + modified(o, "Ub") : "";
    case Rule::acetylation: return protein_object && abundance(s) ? act(s) + " increases " + modified(o, "Ac") : "";
    case Rule::methylation: return protein_object && abundance(s) ? act(s) + " increases " + modified(o, "Me") : "";
    case Rule::sumoylation: return protein_object && abundance(s) ? act(s) + " increases " + modified(o, "Sumo") : "";
    case Rule::degradation: return abundance(o) && abundance(s) ? act(s) + " increases deg(" + o.bel + ")" : "";
    case Rule::binding: return abundance(s) && abundance(o) ? "complex(" + s.bel + ", " + o.bel + ")" : "";
    case Rule::activation: return s.bel + " increases " + act(o);
    case Rule::inhibition: return s.bel + " decreases " + act(o);
    case Rule::induction: return s.bel + " increases " + o.bel;
    case Rule::repression: return s.bel + " decreases " + o.bel;
    case Rule::regulation: return s.bel + " regulates " + o.bel;
  }
  return {};
}


// Two entities with no trigger between them that bind all the same: "interaction between A and B",
// "binding of A to B", "A and B interact", "the A-B complex", "cyclin E-Cdk2".
bool binding_without_trigger(std::string_view before, std::string_view between, std::string_view after) {
  const std::string mid = trim_copy(between);
  const bool joint = mid == "and" || mid == "with" || mid == "to" || mid == "-" || mid == "/";
  const std::string lead = trim_copy(before);
  bool nominal = false;
  for (const char *noun : {"interaction", "interactions", "binding", "association", "associations", "complex", "complexes",
                           "complex formation", "heterodimer", "heterodimerization", "dimerization"})
    for (const char *prep : {" between", " of"})
      nominal = nominal || ends_with(lead, std::string(noun) + prep);
  if (joint && nominal) return true;
  const std::string next = trim_copy(after);
  // (two names joined into a complex's: "the cyclin E-Cdk2 complex", "a Ku70/Ku80 heterodimer")
  const bool joined = mid.empty() || mid == "-" || mid == "/" || mid == ":" || mid == "*";
  if (joined && between.size() <= 2)
    for (const std::string noun : {"complex", "heterodimer", "dimer", "heterotrimer", "holoenzyme"})
      if (next.rfind(noun, 0) == 0 && (next.size() == noun.size() || !word_char(next[noun.size()]) || next[noun.size()] == 'e'))
        return true;
  // (two names joined by a hyphen or a slash alone, "cyclin E-Cdk2", "p53/MDM2", name a complex or an
  // interaction; not a pathway's names, "the PI3K/Akt pathway", "Ras-MAPK signaling", nor a fusion's
  // or a reporter's: "BCR-ABL fusion", "MAPK1-ELK1 reporter")
  if (between.size() == 1 && (between[0] == '-' || between[0] == '/')) {
    bool tight = true;
    for (const char *w : {"pathway", "signal", "axis", "cascade", "module", "network", "fusion", "reporter", "/", "-"})
      tight = tight && next.rfind(w, 0) != 0;
    if (tight) return true;
  }
  if (mid == "and")
    for (const char *verb : {"interact", "bind", "associat", "form a complex", "form complex", "are associated",
                             "co-immunoprecipitat", "heterodimeri"})
      if (next.rfind(verb, 0) == 0) return true;  // "A and B interact"
  return false;
}

}  // namespace

std::string offline_extraction_answer(const json &task) {
  const std::string paragraph = json_string(task, "paragraph");
  std::vector<Entity> entities;
  if (task.contains("entities") && task["entities"].is_array())
    for (const json &e : task["entities"]) {
      Entity x;
      x.offset = e.value("offset", std::size_t{0});
      x.length = e.value("length", std::size_t{0});
      x.bel = json_string(e, "bel");
      x.function = json_string(e, "function");
      if (!x.bel.empty() && x.offset + x.length <= paragraph.size()) entities.push_back(std::move(x));
    }
  std::sort(entities.begin(), entities.end(), [](const Entity &a, const Entity &b) { return a.offset < b.offset; });
  json statements = json::array();
  const std::string lower = lower_copy(paragraph);
  for (const auto &[sb, se] : sentence_ranges(paragraph)) {
    std::vector<const Entity *> in;
    for (const Entity &e : entities)
      if (e.offset >= sb && e.offset + e.length <= se) in.push_back(&e);
    const std::size_t before_sentence = statements.size();
    bool refused = false;  // (a pair a negation or a coordinated clause ruled out)
    for (std::size_t i = 0; i + 1 < in.size(); ++i) {
      const Entity &a = *in[i], &b = *in[i + 1];
      if (b.offset < a.offset + a.length || a.bel == b.bel) continue;
      const std::string_view between = std::string_view(lower).substr(a.offset + a.length, b.offset - a.offset - a.length);
      if (between.size() > 80) continue;
      if (negated(between)) {
        refused = true;
        continue;
      }
      const std::size_t before_start = a.offset >= sb + 40 ? a.offset - 40 : sb;
      const std::string_view before = std::string_view(lower).substr(before_start, a.offset - before_start);
      const std::size_t after_end = std::min(se, b.offset + b.length + 40);
      const std::string_view after = std::string_view(lower).substr(b.offset + b.length, after_end - b.offset - b.length);
      std::optional<Rule> rule;
      bool passive = false;
      if (auto t = last_trigger(between)) {
        // A noun ("inhibition", "phosphorylation") names the reaction of the object only when
        // "of" leads to it: "A-mediated phosphorylation of B", not "A inhibition assay ... B".
        std::size_t end = t->second;
        while (end < between.size() && word_char(between[end])) ++end;
        const std::string_view word = between.substr(t->second, end - t->second);
        const bool noun = ends_with(word, "ion") || ends_with(word, "ions");
        if (noun && t->first != Rule::binding && !ends_with(trim_copy(between), " of")) continue;
        // A coordinated clause: in "X increased A levels and decreased B" the verb's subject is
        // X, not A (A is the object of the verb before it); "A binds and activates B" keeps A.
        const std::string lead = trim_copy(between.substr(0, t->second));
        bool coordinated = false;
        for (const char *c : {"and", "but", "while", "whereas", "yet", "and then", "and also", "but also"}) {
          const std::string w(c);
          if (lead == w || ends_with(lead, " " + w) || ends_with(lead, "," + w)) {
            const std::string_view head = std::string_view(lead).substr(0, lead.size() - w.size());
            coordinated = !last_trigger(head) && last_trigger(before);
          }
        }
        if (coordinated && !noun) {
          refused = true;
          continue;
        }
        rule = t->first;
        passive = has_word(between.substr(t->second), "by");
      } else if (auto n = last_trigger(before); n && trim_copy(between) == "by" &&
                                                   (ends_with(trim_copy(before), " of") || ends_with(trim_copy(before), "of"))) {
        rule = n->first;  // "phosphorylation of A by B"
        passive = true;
      } else if (binding_without_trigger(before, between, after)) {
        rule = Rule::binding;
      }
      if (!rule) continue;
      // The object's coordinated list: "A binds B, C and D" names A with each of them.
      std::vector<const Entity *> objects = {&b};
      if (!passive)
        for (std::size_t k = i + 2; k < in.size(); ++k) {
          const Entity &prev = *in[k - 1], &next = *in[k];
          if (next.offset < prev.offset + prev.length) break;
          const std::string glue = trim_copy(std::string_view(lower).substr(prev.offset + prev.length, next.offset - prev.offset - prev.length));
          if (glue != "," && glue != "and" && glue != ", and" && glue != "or" && glue != ", or" && glue != "/") break;
          objects.push_back(&next);
        }
      for (const Entity *o : objects) {
        const Entity &subject = passive ? b : a, &object = passive ? a : *o;
        std::string bel = statement(*rule, subject, object);
        if (bel.empty() || subject.bel == object.bel) continue;
        statements.push_back({{"bel", std::move(bel)},
                              {"evidence", paragraph.substr(sb, se - sb)},
                              {"rule", rule_name(*rule)},
                              {"mentions", json::array({json::array({subject.offset, subject.length}),
                                                        json::array({object.offset, object.length})})}});
      }
    }
    // The pairs this sentence's statements name so far (their offsets, in order).
    const auto pairs_read = [&] {
      std::set<std::pair<std::size_t, std::size_t>> read;
      for (std::size_t s = before_sentence; s < statements.size(); ++s) {
        const json &m = statements[s]["mentions"];
        const std::size_t x = m[0][0].get<std::size_t>(), y = m[1][0].get<std::size_t>();
        read.emplace(std::min(x, y), std::max(x, y));
      }
      return read;
    };
    // A coordinated list followed by a verb of interaction: "A, B and C interact" names each
    // pair of them not read yet (the adjacent-pair rule above reads "B and C interact" only).
    for (std::size_t i = 0; i + 2 < in.size(); ++i) {
      std::size_t end = i;  // the list in[i..end]
      while (end + 1 < in.size()) {
        const Entity &prev = *in[end], &next = *in[end + 1];
        if (next.offset < prev.offset + prev.length) break;
        const std::string glue =
            trim_copy(std::string_view(lower).substr(prev.offset + prev.length, next.offset - prev.offset - prev.length));
        if (glue != "," && glue != "and" && glue != ", and" && glue != "/") break;
        ++end;
      }
      if (end < i + 2) continue;
      const Entity &last = *in[end];
      std::string next = trim_copy(std::string_view(lower).substr(last.offset + last.length, se - last.offset - last.length));
      for (const char *skip : {")", "proteins", "protein"})
        if (next.rfind(skip, 0) == 0) next = trim_copy(std::string_view(next).substr(std::string(skip).size()));
      bool verb = false;
      for (const char *v : {"interact", "associate", "bind to each other", "bind each other", "form a complex",
                            "form complexes", "co-immunoprecipitat", "heterodimeri"})
        verb = verb || next.rfind(v, 0) == 0;
      // (or the list of a complex's members or of an interaction's parties: "a complex composed of A,
      // B and C", "ternary complex formation between A, B, and C", "interactions among A, B and C")
      const Entity &first = *in[i];
      const std::size_t lead_start = first.offset >= sb + 60 ? first.offset - 60 : sb;
      const std::string lead = trim_copy(std::string_view(lower).substr(lead_start, first.offset - lead_start));
      if (!verb && (lead.find("complex") != std::string::npos || lead.find("interaction") != std::string::npos) &&
          !negated(lead))
        for (const char *tail : {" of", " between", " among", " containing", " comprising"})
          verb = verb || ends_with(lead, tail);
      if (!verb) {
        i = end;
        continue;
      }
      const auto read = pairs_read();
      for (std::size_t x = i; x <= end; ++x)
        for (std::size_t y = x + 1; y <= end; ++y) {
          const Entity &a = *in[x], &b = *in[y];
          if (read.count({a.offset, b.offset})) continue;
          std::string bel = statement(Rule::binding, a, b);
          if (bel.empty() || a.bel == b.bel) continue;
          statements.push_back({{"bel", std::move(bel)},
                                {"evidence", paragraph.substr(sb, se - sb)},
                                {"rule", rule_name(Rule::binding)},
                                {"mentions", json::array({json::array({a.offset, a.length}), json::array({b.offset, b.length})})}});
        }
      i = end;
    }
    // Pairs no rule read with an interaction word between them, near enough: associated.
    {
      std::set<std::pair<std::size_t, std::size_t>> read = pairs_read();
      const std::size_t rule_statements = statements.size();
      for (std::size_t i = 0; i < in.size(); ++i)
        for (std::size_t j = i + 1; j < in.size(); ++j) {
          const Entity &a = *in[i], &b = *in[j];
          if (b.offset < a.offset + a.length || a.bel == b.bel || !abundance(a) || !abundance(b)) continue;
          if (b.offset - a.offset - a.length > kNearby || read.count({a.offset, b.offset})) continue;
          const std::string_view between = std::string_view(lower).substr(a.offset + a.length, b.offset - a.offset - a.length);
          if (!interaction_between(between) || negated(between)) continue;
          read.emplace(a.offset, b.offset);
          statements.push_back({{"bel", a.bel + " association " + b.bel},
                                {"evidence", paragraph.substr(sb, se - sb)},
                                {"rule", "association"},
                                {"mentions", json::array({json::array({a.offset, a.length}), json::array({b.offset, b.length})})}});
        }
      if (statements.size() > rule_statements) continue;
    }
    // A sentence of exactly two entities that speaks of an interaction the rules could not
    // read: the two are associated (BEL's weakest relation, rule "association").
    if (statements.size() == before_sentence && !refused) {
      std::vector<const Entity *> two;
      for (const Entity *e : in)
        if (std::none_of(two.begin(), two.end(), [&](const Entity *x) { return x->bel == e->bel; })) two.push_back(e);
      const std::string_view sentence = std::string_view(lower).substr(sb, se - sb);
      if (two.size() == 2 && abundance(*two[0]) && abundance(*two[1]) && two[1]->offset >= two[0]->offset + two[0]->length &&
          last_trigger(sentence) && !negated(sentence))
        statements.push_back({{"bel", two[0]->bel + " association " + two[1]->bel},
                              {"evidence", paragraph.substr(sb, se - sb)},
                              {"rule", "association"},
                              {"mentions", json::array({json::array({two[0]->offset, two[0]->length}),
                                                        json::array({two[1]->offset, two[1]->length})})}});
    }
  }
  return dump_json(json{{"statements", std::move(statements)}});
}

}  // namespace grappi::detail
