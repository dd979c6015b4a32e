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
//                      complex, heterodimer-, affinit-, sequest-
//   activation         activat-, stimulat-                        A increases act(B)
//   inhibition         inhibit-, suppress-, block-, inactivat-,   A decreases act(B)
//                      antagoni-
//   induction          induc-, upregulat-, up-regulat-,           A increases B
//                      increas-, enhanc-, promot-
//   repression         repress-, downregulat-, down-regulat-,     A decreases B
//                      reduc-, decreas-, attenuat-
//   regulation         regulat-, modulat-, mediat-, affect-,      A regulates B
//                      stabiliz-
//   membership         a family or complex written with a member  M isA F
//                      FamPlex puts in it ("the cyclin-dependent
//                      kinase inhibitor p21", "p27, a CKI",
//                      "histones H3 and H4")
//
// The last trigger between A and B decides the rule (a noun such as "phosphorylation" only when
// "of" follows it: "A-mediated phosphorylation of B"); "by" after it makes the sentence passive
// (B is the subject: "B is phosphorylated by A"). Without a trigger between them, the nominal
// forms count: "phosphorylation of A by B" (B the subject), "interaction between A and B",
// "binding of A to B", "associations of A with B", "A and B interact", "the A-B complex", "a A/B
// heterodimer", "cyclin E-Cdk2" (not "the PI3K/Akt pathway") (and "A, B and C interact",
// "a complex composed of A, B and C", "complex formation between A, B, and C": each pair of the
// list; "the interactions of A, B and C with D": each with D; the verbs after a list may follow an
// auxiliary, "A and B can bind"). "The effect of A on B" is regulation; "dissociation of A from
// B", "A released from B" and "X links A to B" associate A and B. A negation between them
// ("not", "no", "fails", "neither", "unable", "without") drops the pair, and so does a verb that
// begins a coordinated clause after A ("X increased A and
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
    {"affinit", Rule::binding},                  {"sequest", Rule::binding},
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
    {"modulat", Rule::regulation},               {"mediat", Rule::regulation},
    {"affect", Rule::regulation},                {"stabiliz", Rule::regulation}};

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
  std::vector<std::string> member_of;  // the paragraph's families and complexes it belongs to (FamPlex)

  bool belongs_to(const Entity &family) const {
    return std::find(member_of.begin(), member_of.end(), family.bel) != member_of.end();
  }
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
// The words of a verb phrase a list's verb may follow ("A and B can bind", "A, B and C were
// co-precipitated"), skipped before the verb is read.
std::string_view past_auxiliaries(std::string_view next) {
  for (int k = 0; k < 3; ++k) {
    bool skipped = false;
    for (const char *w : {"can ", "could ", "may ", "might ", "do ", "did ", "also ", "directly ", "both ", "all ",
                          "each ", "were ", "are ", "was ", "is ", "be ", "been ", "to ", "not ", "proteins ", "protein "}) {
      const std::string_view word(w);
      if (next.substr(0, word.size()) == word) {
        if (word == "not ") return {};  // ("A and B do not interact")
        next.remove_prefix(word.size());
        skipped = true;
        break;
      }
    }
    if (!skipped) break;
  }
  return next;
}

// The verbs after "A and B" (and after a list) that say the two bind.
const char *const kPairVerbs[] = {"interact",        "bind",           "associat",     "form a complex", "form complex",
                                  "form a ternary",  "form a stable",  "are associated", "co-immunoprecipitat",
                                  "coimmunoprecipitat", "co-precipitat", "coprecipitat", "co-purif", "copurif",
                                  "heterodimeri",    "cross-link",     "crosslink",    "cosediment",     "co-sediment",
                                  "cofractionat",    "co-fractionat"};

bool pair_verb_follows(std::string_view next) {
  next = past_auxiliaries(next);
  if (next.empty()) return false;
  return std::any_of(std::begin(kPairVerbs), std::end(kPairVerbs),
                     [&](const char *v) { return next.rfind(v, 0) == 0; });
}

// `lead` without a closing article: "association of the" reads as "association of".
std::string without_article(std::string lead) {
  for (int k = 0; k < 2; ++k)
    for (const char *a : {" the", " a", " an", " human", " recombinant", " purified", " both"})
      if (ends_with(lead, a)) {
        lead = trim_copy(std::string_view(lead).substr(0, lead.size() - std::string(a).size()));
        break;
      }
  return lead;
}

bool binding_without_trigger(std::string_view before, std::string_view between, std::string_view after) {
  const std::string mid = trim_copy(between);
  const bool joint = mid == "and" || mid == "with" || mid == "to" || mid == "-" || mid == "/";
  const std::string lead = without_article(trim_copy(before));
  bool nominal = false;
  for (const char *noun : {"interaction", "interactions", "binding", "association", "associations", "complex", "complexes",
                           "complex formation", "heterodimer", "heterodimerization", "dimerization"})
    for (const char *prep : {" between", " of"})
      nominal = nominal || ends_with(lead, std::string(noun) + prep);
  if (joint && nominal) return true;
  // ("the affinity of profilin for actin")
  if (mid == "for")
    for (const char *noun : {"affinity of", "affinities of"})
      if (ends_with(lead, noun)) return true;
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
  if (mid == "and" && pair_verb_follows(next)) return true;  // "A and B interact", "A and B can bind"
  // (an apposition that says what A binds: "profilin, an actin-binding protein", "cofilin, an
  // actin-monomer-binding protein")
  if (mid == ", a" || mid == ", an" || mid == "), a" || mid == "), an")
    for (const char *w : {"-binding", "-monomer-binding", "-monomer binding", " binding protein"})
      if (after.rfind(w, 0) == 0) return true;
  return false;
}

// "the effect of A on B", "the inhibitory activity of A on B", "the influence of A on B": A
// regulates B.
bool effect_of(std::string_view before, std::string_view between) {
  const std::string mid = trim_copy(between), lead = without_article(trim_copy(before));
  if (mid != "on" && mid != "on the") return false;
  for (const char *w : {"effect of", "effects of", "influence of", "activity of", "activities of", "action of",
                        "actions of", "impact of"})
    if (ends_with(lead, w)) return true;
  return false;
}

// Two entities with no trigger between them that the sentence associates: "dissociation of A
// from B", "the release of A from B", "displaces A from B" (they were bound), "X links A to B",
// "bridges A to B" (joined through X).
bool associated_without_trigger(std::string_view before, std::string_view between) {
  const std::string mid = trim_copy(between), lead = trim_copy(before);
  for (const char *w : {"released from", "dissociated from", "dissociates from", "displaced from"})
    if (mid == w) return true;  // ("actin released from profilin")
  if (mid == "from")
    for (const char *w : {"dissociation of", "release of", "displacement of", "displace", "displaces", "displaced",
                          "dissociate", "dissociates", "dissociated", "releases", "released"})
      if (lead == w || ends_with(lead, std::string(" ") + w)) return true;
  if (mid == "to")
    for (const char *w : {"links", "link", "linked", "linking", "bridges", "bridge", "bridging", "tethers", "tether",
                          "tethering", "connects", "connect", "connecting"})
      if (lead == w || ends_with(lead, std::string(" ") + w)) return true;
  return false;
}

// Two mentions by their spans (offset, length), in the order of the text: the key of a pair the
// rules read (two mentions may start at the same place: "Arp2" and "Arp" in "Arp2/3 complex").
using Span = std::pair<std::size_t, std::size_t>;
using SpanPair = std::pair<Span, Span>;

SpanPair span_pair(const Entity &a, const Entity &b) {
  const Span x{a.offset, a.length}, y{b.offset, b.length};
  return x <= y ? SpanPair{x, y} : SpanPair{y, x};
}

json statement_json(std::string bel, const std::string &evidence, const char *rule, const Entity &s, const Entity &o) {
  return {{"bel", std::move(bel)},
          {"evidence", evidence},
          {"rule", rule},
          {"mentions", json::array({json::array({s.offset, s.length}), json::array({o.offset, o.length})})}};
}

// A family or complex named with its member: "the cyclin-dependent kinase inhibitor p21", "histone
// H3", "the p27 cyclin-dependent kinase inhibitor", "histones H3 and H4" (the family before a list of
// its members), when FamPlex has the member in it (the entity's member_of): "M isA F" (rule
// "membership"). Returns the pairs (offsets, in order) it read.
std::set<SpanPair> membership_statements(const std::vector<const Entity *> &in, const std::string &lower,
                                                                    const std::string &evidence, json &statements) {
  std::set<SpanPair> read;
  const auto glue = [&](const Entity &a, const Entity &b) {
    return trim_copy(std::string_view(lower).substr(a.offset + a.length, b.offset - a.offset - a.length));
  };
  for (std::size_t i = 0; i + 1 < in.size(); ++i) {
    const Entity &a = *in[i], &b = *in[i + 1];
    if (b.offset < a.offset + a.length || a.bel == b.bel || b.offset - a.offset - a.length > 6) continue;
    const std::string g = glue(a, b);
    const bool apposition = g.empty() || g == "(" || g == ")" || g == ", a" || g == ", an" || g == "), a" || g == "), an" ||
                            g == ", the";
    if (!apposition) continue;
    if (b.belongs_to(a)) {
      // (the family before its member, and before the rest of a list of its members)
      for (std::size_t k = i + 1; k < in.size(); ++k) {
        const Entity &m = *in[k];
        if (k > i + 1) {
          if (m.offset < in[k - 1]->offset + in[k - 1]->length || !m.belongs_to(a)) break;
          const std::string sep = glue(*in[k - 1], m);
          if (sep != "," && sep != "and" && sep != ", and" && sep != "or" && sep != ", or") break;
        }
        if (!read.emplace(span_pair(a, m)).second) continue;
        statements.push_back(statement_json(m.bel + " isA " + a.bel, evidence, "membership", m, a));
      }
    } else if (a.belongs_to(b) && read.emplace(span_pair(a, b)).second) {
      statements.push_back(statement_json(a.bel + " isA " + b.bel, evidence, "membership", a, b));
    }
  }
  // (a name inside another's: "Arp2" in "Arp2/3 complex" names the member and its complex)
  for (std::size_t i = 0; i < in.size(); ++i)
    for (std::size_t j = i + 1; j < in.size() && in[j]->offset < in[i]->offset + in[i]->length; ++j) {
      const Entity &a = *in[i], &b = *in[j];
      const Entity *member = b.belongs_to(a) ? &b : a.belongs_to(b) ? &a : nullptr;
      if (!member || a.bel == b.bel || !read.emplace(span_pair(a, b)).second) continue;
      const Entity &family = member == &a ? b : a;
      statements.push_back(statement_json(member->bel + " isA " + family.bel, evidence, "membership", *member, family));
    }
  return read;
}

// One sentence as the passes after the adjacent pairs' see it: its entities, the paragraph's
// lower-cased text, the evidence (the sentence), its range and the statements so far.
struct Sentence {
  const std::vector<const Entity *> &in;
  const std::string &lower;
  std::string evidence;
  std::size_t sb = 0, se = 0;
  json &statements;
  std::size_t first = 0;  // the sentence's first statement

  // The pairs this sentence's statements name so far (their spans, in order).
  std::set<SpanPair> pairs_read() const {
    std::set<SpanPair> read;
    for (std::size_t s = first; s < statements.size(); ++s) {
      const json &m = statements[s]["mentions"];
      const Span a{m[0][0].get<std::size_t>(), m[0][1].get<std::size_t>()};
      const Span b{m[1][0].get<std::size_t>(), m[1][1].get<std::size_t>()};
      read.emplace(std::min(a, b), std::max(a, b));
    }
    return read;
  }
  // The text between two of its entities, trimmed.
  std::string glue(const Entity &a, const Entity &b) const {
    return trim_copy(std::string_view(lower).substr(a.offset + a.length, b.offset - a.offset - a.length));
  }
  // The (at most `n`) characters of the sentence before an entity, trimmed.
  std::string lead(const Entity &e, std::size_t n) const {
    const std::size_t from = e.offset >= sb + n ? e.offset - n : sb;
    return trim_copy(std::string_view(lower).substr(from, e.offset - from));
  }
  // The last entity of the coordinated list that starts at in[i] ("A, B and C"; with `slash`,
  // "A/B" too).
  std::size_t list_end(std::size_t i, bool slash) const {
    std::size_t end = i;
    while (end + 1 < in.size()) {
      const Entity &prev = *in[end], &next = *in[end + 1];
      if (next.offset < prev.offset + prev.length) break;
      const std::string g = glue(prev, next);
      if (g != "," && g != "and" && g != ", and" && !(slash && g == "/")) break;
      ++end;
    }
    return end;
  }
};

void coordinated_lists(Sentence &x) {
  // A coordinated list followed by a verb of interaction: "A, B and C interact" names each
  // pair of them not read yet (the adjacent-pair rule above reads "B and C interact" only).
  for (std::size_t i = 0; i + 2 < x.in.size(); ++i) {
    const std::size_t end = x.list_end(i, true);  // the list in[i..end]
    if (end < i + 2) continue;
    const Entity &last = *x.in[end];
    std::string next =
        trim_copy(std::string_view(x.lower).substr(last.offset + last.length, x.se - last.offset - last.length));
    for (const char *skip : {")", "proteins", "protein"})
      if (next.rfind(skip, 0) == 0) next = trim_copy(std::string_view(next).substr(std::string(skip).size()));
    bool verb = pair_verb_follows(next);
    // (or the list of a complex's members or of an interaction's parties: "a complex composed of A,
    // B and C", "ternary complex formation between A, B, and C", "interactions among A, B and C")
    const std::string lead = x.lead(*x.in[i], 60);
    // (not when the list has a partner after "with" or "to": "the interactions of A, B and C with D"
    // are each with D, read below)
    const bool partner_after = end + 1 < x.in.size() && (next.rfind("with ", 0) == 0 || next.rfind("to ", 0) == 0);
    if (!verb && !partner_after &&
        (lead.find("complex") != std::string::npos || lead.find("interaction") != std::string::npos) && !negated(lead))
      for (const char *tail : {" of", " between", " among", " containing", " comprising", " including"})
        verb = verb || ends_with(lead, tail);
    if (!verb) {
      i = end;
      continue;
    }
    const auto read = x.pairs_read();
    for (std::size_t u = i; u <= end; ++u)
      for (std::size_t v = u + 1; v <= end; ++v) {
        const Entity &a = *x.in[u], &b = *x.in[v];
        if (read.count(span_pair(a, b))) continue;
        std::string bel = statement(Rule::binding, a, b);
        if (bel.empty() || a.bel == b.bel) continue;
        x.statements.push_back(statement_json(std::move(bel), x.evidence, rule_name(Rule::binding), a, b));
      }
    i = end;
  }
}

void lists_with_partner(Sentence &x) {
  // A list after a noun of binding, then its partner: "the interactions of cofilin, destrin and
  // DNase I with actin", "binding of gelsolin and profilin to actin": each of the list binds it.
  for (std::size_t i = 0; i + 2 < x.in.size(); ++i) {
    const std::size_t end = x.list_end(i, false);
    if (end == i || end + 1 >= x.in.size()) continue;
    const Entity &last = *x.in[end], &partner = *x.in[end + 1];
    if (partner.offset < last.offset + last.length) continue;
    const std::string to = x.glue(last, partner), lead = x.lead(*x.in[i], 40);
    bool nominal = false;
    for (const char *noun : {"interaction of", "interactions of", "binding of", "association of", "associations of",
                             "complexes of", "complex of"})
      nominal = nominal || lead == noun || ends_with(lead, std::string(" ") + noun);
    if (!nominal || (to != "with" && to != "to")) continue;
    const auto read = x.pairs_read();
    for (std::size_t u = i; u <= end; ++u) {
      const Entity &a = *x.in[u];
      if (read.count(span_pair(a, partner))) continue;
      std::string bel = statement(Rule::binding, a, partner);
      if (bel.empty() || a.bel == partner.bel) continue;
      x.statements.push_back(statement_json(std::move(bel), x.evidence, rule_name(Rule::binding), a, partner));
    }
    i = end;
  }
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
      if (e.contains("member_of") && e["member_of"].is_array())
        for (const json &f : e["member_of"])
          if (f.is_string()) x.member_of.push_back(f.get<std::string>());
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
    const std::set<SpanPair> memberships = membership_statements(in, lower, paragraph.substr(sb, se - sb), statements);
    for (std::size_t i = 0; i + 1 < in.size(); ++i) {
      const Entity &a = *in[i], &b = *in[i + 1];
      if (b.offset < a.offset + a.length || a.bel == b.bel || memberships.count(span_pair(a, b))) continue;
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
      } else if (effect_of(before, between)) {
        rule = Rule::regulation;  // "the effect of A on B
      } else if (abundance(a) && abundance(b) && associated_without_trigger(before, between)) {
        statements.push_back(statement_json(a.bel + " association " + b.bel, paragraph.substr(sb, se - sb), "association", a, b));
        continue;
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
      // (a name another's span holds, or that holds another's, takes part as that one does:
      // "X binds the Arp2/3 complex" names Arp2 and the complex)
      const auto with_nested = [&](const Entity &e) {
        std::vector<const Entity *> all = {&e};
        for (const Entity *x : in)
          if (x != &e && x->offset < e.offset + e.length && e.offset < x->offset + x->length) all.push_back(x);
        return all;
      };
      for (const Entity *o : objects)
        for (const Entity *subject : with_nested(passive ? b : a))
          for (const Entity *object : with_nested(passive ? a : *o)) {
            std::string bel = statement(*rule, *subject, *object);
            if (bel.empty() || subject->bel == object->bel) continue;
            statements.push_back(statement_json(std::move(bel), paragraph.substr(sb, se - sb), rule_name(*rule), *subject, *object));
          }
    }
    Sentence sentence{in, lower, paragraph.substr(sb, se - sb), sb, se, statements, before_sentence};
    coordinated_lists(sentence);
    lists_with_partner(sentence);
    // Pairs no rule read with an interaction word between them, near enough: associated.
    {
      std::set<SpanPair> read = sentence.pairs_read();
      const std::size_t rule_statements = statements.size();
      for (std::size_t i = 0; i < in.size(); ++i)
        for (std::size_t j = i + 1; j < in.size(); ++j) {
          const Entity &a = *in[i], &b = *in[j];
          if (b.offset < a.offset + a.length || a.bel == b.bel || !abundance(a) || !abundance(b)) continue;
          if (b.offset - a.offset - a.length > kNearby || read.count(span_pair(a, b))) continue;
          const std::string_view between = std::string_view(lower).substr(a.offset + a.length, b.offset - a.offset - a.length);
          if (!interaction_between(between) || negated(between)) continue;
          read.emplace(span_pair(a, b));
          statements.push_back(statement_json(a.bel + " association " + b.bel, sentence.evidence, "association", a, b));
        }
      if (statements.size() > rule_statements) continue;
    }
    // A sentence of exactly two entities that speaks of an interaction the rules could not
    // read: the two are associated (BEL's weakest relation, rule "association").
    if (statements.size() == before_sentence && !refused) {
      std::vector<const Entity *> two;
      for (const Entity *e : in)
        if (std::none_of(two.begin(), two.end(), [&](const Entity *x) { return x->bel == e->bel; })) two.push_back(e);
      // (the sentence's words, not its names: "the cyclin-dependent kinase inhibitor TP53" says no
      // inhibition)
      std::string words(std::string_view(lower).substr(sb, se - sb));
      for (const Entity *e : in)
        for (std::size_t k = e->offset; k < e->offset + e->length; ++k) words[k - sb] = ' ';
      if (two.size() == 2 && abundance(*two[0]) && abundance(*two[1]) && two[1]->offset >= two[0]->offset + two[0]->length &&
          last_trigger(words) && !negated(words))
        statements.push_back(statement_json(two[0]->bel + " association " + two[1]->bel, sentence.evidence, "association",
                                            *two[0], *two[1]));
    }
  }
  return dump_json(json{{"statements", std::move(statements)}});
}

}  // namespace grappi::detail
