// A question's frame (grappi/question.hpp QuestionFrame): its answer form, relation and filters, read from a table of
// cues (data, tested as data) and composed with the intent the rules recognised, so that "how many non-kinase partners
// of X with high confidence" needs no rule of its own.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string_view>
#include <unordered_set>

#include "agents/ask/question_impl.hpp"
#include "common/text_util.hpp"
#include "grappi/question.hpp"

namespace grappi::detail {

const std::vector<FrameCue> &frame_cues() {
  // clang-format off
  static const std::vector<FrameCue> cues = {
      // The answer's form.
      {"how many", "form", "count", "any"},           {"number of", "form", "count", "any"},
      {"count", "form", "count", "start"},             {"how much", "form", "count", "any"},
      {"count of", "form", "count", "any"},            {"tally of", "form", "count", "any"},
      {"does", "form", "yes_no", "start"},             {"do", "form", "yes_no", "start"},
      {"did", "form", "yes_no", "start"},              {"is", "form", "yes_no", "start"},
      {"are", "form", "yes_no", "start"},              {"was", "form", "yes_no", "start"},
      {"were", "form", "yes_no", "start"},             {"can", "form", "yes_no", "start"},
      {"could", "form", "yes_no", "start"},            {"has", "form", "yes_no", "start"},
      {"have", "form", "yes_no", "start"},             {"will", "form", "yes_no", "start"},
      {"would", "form", "yes_no", "start"},            {"true or false", "form", "yes_no", "any"},
      {"is it true that", "form", "yes_no", "start"},  {"is it known that", "form", "yes_no", "start"},
      {"path", "form", "path", "any"},                 {"paths", "form", "path", "any"},
      {"route", "form", "path", "any"},                {"routes", "form", "path", "any"},
      {"chain", "form", "path", "any"},                {"shortest", "form", "path", "any"},
      {"connected through", "form", "path", "any"},    {"linked through", "form", "path", "any"},
      {"connected via", "form", "path", "any"},        {"reach", "form", "path", "any"},
      {"reaches", "form", "path", "any"},              {"how is @ connected", "form", "path", "start"},
      {"how is @ linked", "form", "path", "start"},    {"how does @ reach", "form", "path", "start"},
      {"how does @ connect", "form", "path", "start"}, {"how can @ reach", "form", "path", "start"},
      // What is asked (beside the intent's cues, question.cpp).
      {"both", "relation", "common", "any"},           {"common", "relation", "common", "any"},
      {"shared", "relation", "common", "any"},         {"all of", "relation", "common", "any"},
      {"function", "relation", "function", "any"},     {"functions", "relation", "function", "any"},
      {"role", "relation", "function", "any"},         {"roles", "relation", "function", "any"},
      {"what does @ do", "relation", "function", "start"},
      {"which processes", "relation", "function", "any"}, {"what processes", "relation", "function", "any"},
      {"biological process", "relation", "function", "any"}, {"molecular function", "relation", "function", "any"},
      {"enriched", "relation", "enrichment", "any"},   {"enrichment", "relation", "enrichment", "any"},
      {"overrepresented", "relation", "enrichment", "any"}, {"over represented", "relation", "enrichment", "any"},
      {"modules", "relation", "modules", "any"},       {"module", "relation", "modules", "any"},
      {"clusters", "relation", "modules", "any"},      {"communities", "relation", "modules", "any"},
      {"community structure", "relation", "modules", "any"}, {"subnetworks", "relation", "modules", "any"},
      // Exclusions and negation.
      {"not", "exclude", "", "any"},                   {"except", "exclude", "", "any"},
      {"other than", "exclude", "", "any"},            {"apart from", "exclude", "", "any"},
      {"excluding", "exclude", "", "any"},             {"but not", "exclude", "", "any"},
      {"arent", "exclude", "", "any"},                 {"isnt", "exclude", "", "any"},
      {"are not", "exclude", "", "any"},               {"is not", "exclude", "", "any"},
      {"besides", "exclude", "", "any"},               {"excepting", "exclude", "", "any"},
      {"apart", "exclude", "", "any"},                 {"leaving out", "exclude", "", "any"},
      {"leave out", "exclude", "", "any"},             {"without", "exclude", "", "any"},
      {"omitting", "exclude", "", "any"},              {"excluded", "exclude", "", "any"},
      {"doesnt", "exclude", "", "any"},                {"dont", "exclude", "", "any"},
      {"non*", "exclude", "", "any"},                  {"no", "exclude", "", "any"},
      // Confidence (STRING's: low 0.150, medium 0.400, high 0.700, highest 0.900).
      {"low confidence", "confidence", "0.150", "any"}, {"lowconfidence", "confidence", "0.150", "any"},
      {"any confidence", "confidence", "0.150", "any"},
      {"medium confidence", "confidence", "0.400", "any"}, {"mediumconfidence", "confidence", "0.400", "any"},
      {"moderate confidence", "confidence", "0.400", "any"},
      {"high confidence", "confidence", "0.700", "any"}, {"highconfidence", "confidence", "0.700", "any"},
      {"confidently", "confidence", "0.700", "any"},    {"confident", "confidence", "0.700", "any"},
      {"reliable", "confidence", "0.700", "any"},       {"reliably", "confidence", "0.700", "any"},
      {"strong", "confidence", "0.700", "any"},         {"strongly", "confidence", "0.700", "any"},
      {"highest confidence", "confidence", "0.900", "any"}, {"highestconfidence", "confidence", "0.900", "any"},
      {"very high confidence", "confidence", "0.900", "any"}, {"very confident", "confidence", "0.900", "any"},
      // Evidence.
      {"physical", "channel", "physical", "any"},       {"physically", "channel", "physical", "any"},
      {"directly", "channel", "physical", "any"},       {"direct", "channel", "physical", "any"},
      {"bind*", "channel", "physical", "any"},          {"complex", "channel", "physical", "any"},
      {"experimental", "channel", "experimental", "any"}, {"experimentally", "channel", "experimental", "any"},
      {"experiments", "channel", "experimental", "any"}, {"curated", "channel", "database", "any"},
      {"text mining", "channel", "textmining", "any"},  {"textmining", "channel", "textmining", "any"},
      {"coexpressed", "channel", "coexpression", "any"}, {"coexpression", "channel", "coexpression", "any"},
  };
  // clang-format on
  return cues;
}

namespace {

// Whether the cue's words stand at w[i...]; its length in words (0: not).
std::size_t match_at(const std::vector<std::string> &w, std::size_t i, std::string_view cue) {
  std::size_t n = 0;
  std::size_t at = 0;
  while (at <= cue.size()) {
    std::size_t end = cue.find(' ', at);
    if (end == std::string_view::npos) end = cue.size();
    std::string_view word = cue.substr(at, end - at);
    if (i + n >= w.size()) return 0;
    if (!word.empty() && word.back() == '*') {
      word.remove_suffix(1);
      if (w[i + n].compare(0, word.size(), word) != 0) return 0;
    } else if (w[i + n] != word) {
      return 0;
    }
    ++n;
    at = end + 1;
  }
  return n;
}

// Words a question opens with before what it asks ("Please tell me", "Can you say whether", "I want to know");
// `whether`: they end in "whether" or "if" (what follows is a claim to check).
std::size_t opening(const std::vector<std::string> &w, bool *whether = nullptr) {
  static const std::unordered_set<std::string_view> courtesy = {"please", "kindly", "so", "now", "ok", "okay", "hi", "hello"};
  std::size_t i = 0;
  while (i < w.size() && courtesy.count(w[i])) ++i;
  // "can you tell me (whether|if)", "could you check whether", "I want to know (if)", "tell me whether"
  static const std::vector<std::vector<std::string>> leads = {
      {"can", "you", "tell", "me"}, {"could", "you", "tell", "me"}, {"can", "you", "check"}, {"could", "you", "check"},
      {"tell", "me"},               {"i", "want", "to", "know"},    {"i", "wonder"},         {"i", "would", "like", "to", "know"},
      {"do", "you", "know"},        {"check"}};
  for (const auto &lead : leads)
    if (i + lead.size() <= w.size() && std::equal(lead.begin(), lead.end(), w.begin() + static_cast<std::ptrdiff_t>(i))) {
      i += lead.size();
      if (i < w.size() && (w[i] == "whether" || w[i] == "if")) {
        ++i;
        if (whether) *whether = true;
      }
      break;
    }
  return i;
}

bool wh_word(const std::string &x) {
  return x == "which" || x == "what" || x == "whats" || x == "who" || x == "whos" || x == "whom" || x == "whose" ||
         x == "where" || x == "wheres" || x == "when" ||
         x == "why" || x == "list" || x == "name" || x == "give" || x == "find" || x == "show" || x == "identify";
}

// Words that ask for entities rather than whether two interact ("Are there proteins that bind A and B?").
bool asks_for_entities(const std::string &x) {
  return x == "proteins" || x == "genes" || x == "partners" || x == "interactors" || x == "ones" ||
         x == "kinases" || x == "which" || x == "what" || x == "who" || x == "factors" || x == "enzymes";
}

// The noun a wh-word asks for: the last word before the verb, auxiliary or entity that follows it ("What
// post-translational modifications does X carry?": "modifications"); empty when the question opens otherwise.
std::string asked_noun(const std::vector<std::string> &w, std::size_t start) {
  static const std::unordered_set<std::string_view> ends = {
      "does", "do", "did", "is", "are", "was", "were", "can", "could", "will", "would", "has", "have", "had",
      "@",    "of", "in", "on", "for", "that", "which", "to", "by", "with", "from", "among", "at"};
  if (start >= w.size() || !(w[start] == "what" || w[start] == "which")) return {};
  std::string head;
  for (std::size_t i = start + 1; i < w.size() && i <= start + 4 && !ends.count(w[i]); ++i) head = w[i];
  return head;
}

// A number the question states as a score: 0-1, or 0-1000 (STRING's scale) divided by 1000; negative when none.
double score_number(const std::string &x) {
  if (x.empty() || !(std::isdigit(static_cast<unsigned char>(x[0])) || x[0] == '.')) return -1;
  char *end = nullptr;
  const double v = std::strtod(x.c_str(), &end);
  if (!end || *end) return -1;
  if (v >= 0 && v <= 1) return v;
  if (v > 1 && v <= 1000) return v / 1000;
  return -1;
}

// The class or topic a negation cue excludes when it stands right before the topic the rules read ("are not kinases",
// "not involved in DNA repair", "other than kinases", "nonkinase").
bool exclusion_before_topic(const std::vector<std::string> &w, const std::string &topic, std::string &cue) {
  const std::vector<std::string> t = words(topic);
  if (t.empty()) return false;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i] != t[0]) continue;
    // (the cue within three words before the topic: "not", "are not", "not involved in")
    for (std::size_t back = 1; back <= 4 && back <= i; ++back)
      for (const FrameCue &c : frame_cues())
        if (std::string_view(c.part) == "exclude" && std::string_view(c.words).back() != '*' &&
            match_at(w, i - back, c.words) > 0) {
          cue = c.words;
          return true;
        }
  }
  return false;
}

// The network a modules question without entities asks about: "dataset" with the word naming it ("the NSCLC
// network": "nsclc"), "network" for the whole one ("this network", "What modules does the network have?"), empty
// when it names no network ("What are the clusters of differentiation?"). The name is the word right before the
// network's (adjectives such as "whole" or "protein" between them), never a function word of the question.
std::string network_named(const std::vector<std::string> &w, std::string &name) {
  static const std::unordered_set<std::string_view> networks = {"network", "networks", "interactome", "graph",
                                                                 "database", "pathway", "map"};
  static const std::unordered_set<std::string_view> adjectives = {
      "whole", "entire", "full", "complete", "protein", "proteins", "interaction", "interactions", "ppi", "string",
      "physical", "functional", "main", "global", "overall", "knowledge", "current", "loaded", "imported"};
  // (beside the library's stop words: words of this question that name nothing)
  static const std::unordered_set<std::string_view> no_names = {
      "@", "do", "my", "whose", "across", "within", "many", "much", "here", "modules", "module", "clusters",
      "communities", "subnetworks"};
  for (std::size_t i = 1; i < w.size(); ++i) {
    if (!networks.count(w[i])) continue;
    std::size_t j = i;
    while (j > 0 && adjectives.count(w[j - 1])) --j;
    if (j == 0 || is_stop_word(w[j - 1]) || no_names.count(w[j - 1]) || networks.count(w[j - 1])) return "network";
    name = w[j - 1];
    return "dataset";
  }
  return {};
}

// What the cues of the form and relation parts found, where they stand.
struct FormCues {
  bool count = false, yes_no = false, path = false, common = false, function = false, enrichment = false, wh = false;
  bool modules = false;
};

void cue_note(QuestionFrame &f, const char *part, const std::string &value, const std::string &words) {
  f.cues.push_back(std::string(part) + "=" + value + " (" + words + ")");
}

// Each cue of the table where it stands, and a score the question states.
FormCues read_cues(const std::vector<std::string> &w, std::size_t start, QuestionFrame &f) {
  FormCues k;
  for (std::size_t i = 0; i < w.size(); ++i) k.wh = k.wh || wh_word(w[i]);
  for (const FrameCue &c : frame_cues())
    for (std::size_t i = std::string_view(c.where) == "start" ? start : 0; i < w.size(); ++i) {
      if (std::string_view(c.where) == "start" && i != start) break;
      if (!match_at(w, i, c.words)) continue;
      const std::string_view part = c.part, value = c.value;
      if (part == "form") {
        if (value == "count") k.count = true;
        if (value == "yes_no") k.yes_no = true;
        if (value == "path") k.path = true;
        cue_note(f, c.part, c.value, c.words);
      } else if (part == "relation") {
        k.common = k.common || value == "common";
        k.function = k.function || value == "function";
        k.enrichment = k.enrichment || value == "enrichment";
        k.modules = k.modules || value == "modules";
        cue_note(f, c.part, c.value, c.words);
      } else if (part == "confidence") {
        const double v = std::strtod(c.value, nullptr);
        if (v > f.min_score) {
          f.min_score = v;
          f.confidence = c.words;
        }
      } else if (part == "channel") {
        if (std::find(f.channels.begin(), f.channels.end(), c.value) == f.channels.end()) {
          f.channels.push_back(c.value);
          cue_note(f, c.part, c.value, c.words);
        }
      }
      break;
    }
  if (!f.confidence.empty()) cue_note(f, "confidence", fixed(f.min_score, 3), f.confidence);
  // A score the question states: "a score above 0.8", "scores of at least 900", "score >= 0.7";
  // or a fraction after a comparison without the word ("partners above 0.9", "at least 0.7":
  // a decimal in (0, 1] is no count).
  bool stated = false;
  for (std::size_t i = 0; i < w.size() && !stated; ++i) {
    if (w[i] != "score" && w[i] != "scores" && w[i] != "confidence") continue;
    for (std::size_t j = i + 1; j < w.size() && j <= i + 4; ++j)
      if (const double v = score_number(w[j]); v >= 0) {
        f.min_score = v;
        f.confidence = w[i] + " " + w[j];
        cue_note(f, "confidence", fixed(v, 3), f.confidence);
        stated = true;
        break;
      }
  }
  for (std::size_t i = 1; i < w.size() && !stated; ++i) {
    const std::string &before = w[i - 1];
    const bool comparison = before == "above" || before == "over" || before == "exceeding" || before == "least" ||
                            before == "than" || before == ">" || before == ">=";
    if (!comparison || w[i].find('.') == std::string::npos) continue;
    if (const double v = score_number(w[i]); v > 0 && v <= 1) {
      f.min_score = v;
      f.confidence = before + " " + w[i];
      cue_note(f, "confidence", fixed(v, 3), f.confidence);
      stated = true;
    }
  }
  return k;
}

// A comparison: the entities listed after "which of".
void read_choices(const QuestionAnalysis &a, const std::vector<std::string> &w, QuestionFrame &f) {
  // ("Which of A, B or C interacts with X?")
  for (std::size_t i = 0; i + 2 < w.size(); ++i) {
    if (!((w[i] == "which" || w[i] == "who") && w[i + 1] == "of" && w[i + 2] == "@")) continue;
    std::size_t k = i + 2, listed = 0;
    while (k < w.size() && (w[k] == "@" || w[k] == "or" || w[k] == "and")) listed += w[k++] == "@";
    if (listed < 2) break;
    // (entities in question order: the first `listed` after the cue's position)
    std::size_t before = 0;
    for (std::size_t j = 0; j < i + 2; ++j) before += w[j] == "@";
    std::vector<const QuestionEntity *> order;
    for (const QuestionEntity &e : a.entities) order.push_back(&e);
    std::stable_sort(order.begin(), order.end(), [](const QuestionEntity *x, const QuestionEntity *y) { return x->offset < y->offset; });
    for (std::size_t j = before; j < before + listed && j < order.size(); ++j) f.choices.push_back(order[j]->node);
    cue_note(f, "form", "list", "which of");
    break;
  }
}

// What the question excludes, and the class or topic left once the other parts' cue words are taken out.
void read_exclusion(QuestionAnalysis &a, const std::vector<std::string> &w, QuestionFrame &f) {
  // The words a cue of another part took are no class or topic ("high-confidence partners", "apart from kinases":
  // the class is what is left, kinases).
  if (!a.topic.empty()) {
    std::vector<std::string> kept;
    const std::vector<std::string> t = words(a.topic);
    std::string excluding;
    for (std::size_t i = 0; i < t.size();) {
      std::size_t took = 0;
      for (const FrameCue &c : frame_cues()) {
        const std::string_view part = c.part;
        if (part != "confidence" && part != "channel" && part != "exclude") continue;
        if (std::string_view(c.words).back() == '*') continue;
        if (const std::size_t n = match_at(t, i, c.words); n > took) {
          took = n;
          if (part == "exclude") excluding = c.words;
        }
      }
      if (took == 0) kept.push_back(t[i++]);
      else i += took;
    }
    if (kept.size() != t.size()) {
      std::string topic;
      for (const std::string &x : kept) topic += (topic.empty() ? "" : " ") + x;
      // (an exclusion cue inside the topic excludes what follows it)
      if (!excluding.empty() && !topic.empty()) {
        f.exclude = topic;
        f.exclude_kind = a.topic_kind;
        cue_note(f, "exclude", topic, excluding);
        topic.clear();
      }
      a.topic = topic;
      if (a.topic.empty() && a.intent == "class" && a.implied_class.empty()) {
        a.topic_kind.clear();
        a.intent = "partners";
        a.rule = f.exclude.empty() ? "one entity and a word of interaction" : "one entity, a word of interaction and a " +
                                                                               f.exclude_kind + " it excludes";
      }
    }
  }
  // Exclusion: a class written with "non-" ("non-kinase partners": the class kinase), or a negation cue right before
  // the class or topic the rules read ("are not kinases", "other than kinases", "not involved in DNA repair").
  std::string excluded_by;
  if (!f.exclude.empty()) {
    // (read above, from the topic)
  } else if (!a.topic.empty() && a.topic.rfind("non", 0) == 0 && a.topic.size() > 6 && a.topic.compare(0, 4, "none") != 0) {
    f.exclude = a.topic.substr(3);
    f.exclude_kind = "class";
    excluded_by = "non-";
  } else if (!a.topic.empty() && exclusion_before_topic(w, a.topic, excluded_by)) {
    f.exclude = a.topic;
    f.exclude_kind = a.topic_kind;
  }
  if (!f.exclude.empty() && !excluded_by.empty()) cue_note(f, "exclude", f.exclude, excluded_by);
}

// The answer's form, composed from the cues and the intent the rules recognised.
void decide_form(const QuestionAnalysis &a, const std::vector<std::string> &w, std::size_t start, bool whether,
                 FormCues k, QuestionFrame &f) {
  const std::size_t entities = a.entities.size();
  // A claim to check: a statement about two entities, not a question ("A binds B.", "A does not interact with B").
  // (a request to describe is neither a claim nor a yes/no question)
  static const std::unordered_set<std::string_view> describe = {"tell", "describe", "explain", "summarize", "summarise",
                                                                "discuss", "compare", "how"};
  const std::string trimmed = trim_copy(a.question);
  const bool claim = entities >= 2 && !k.wh && !k.count && !k.path && !trimmed.empty() && trimmed.back() != '?' &&
                     a.intent != "open" && !w.empty() && !describe.count(w[0]);
  // A yes/no question whose auxiliary does not open it ("A and B: do they interact?"): no wh-word, an auxiliary (a
  // one-word yes/no cue of the table), a question mark.
  const auto auxiliary_word = [](const std::string &x) {
    return std::any_of(frame_cues().begin(), frame_cues().end(), [&](const FrameCue &c) {
      return std::string_view(c.part) == "form" && std::string_view(c.value) == "yes_no" && c.words == x;
    });
  };
  const bool auxiliary = std::any_of(w.begin(), w.end(), auxiliary_word);
  if (!k.yes_no && !k.wh && !k.count && auxiliary && !trimmed.empty() && trimmed.back() == '?' && (w.empty() || w[0] != "how"))
    k.yes_no = true;
  // "How is X regulated?", "How does X work?": a question of how, about one entity, asks a mechanism.
  const bool how = start < w.size() && w[start] == "how" && !k.count && !k.path;
  // (words that ask for entities count before the first entity: "Are there proteins that bind A and B?"; "Is B among
  // the interactors of A?" asks whether)
  const auto first_entity = std::find(w.begin(), w.end(), "@");
  const bool for_entities =
      std::any_of(w.begin() + static_cast<std::ptrdiff_t>(std::min(start, w.size())), first_entity, asks_for_entities) ||
      k.common;
  if (whether && entities >= 2 && !k.count && !k.path) k.yes_no = true;
  // A question about two entities that asks for nothing else (no wh-word, no count, no path, no entities asked for,
  // no request to describe: "Do we know of any interaction of A with B?", "A binds B, right?") is whether they
  // interact.
  if (!k.yes_no && entities == 2 && !k.wh && !k.count && !k.path && !for_entities && a.intent != "open" &&
      !(start < w.size() && describe.count(w[start])))
    k.yes_no = true;
  // A class of things that are no proteins ("Which drugs target X?"): the partners the rules rank are proteins.
  static const std::unordered_set<std::string_view> not_proteins = {
      "drug",  "drugs",    "compound", "compounds", "chemical", "chemicals", "inhibitor",  "inhibitors",
      "disease", "diseases", "disorder", "disorders", "mutation", "mutations", "variant",   "variants",
      "tissue", "tissues", "organism", "organisms", "species",   "cells",     "cell lines", "metabolites",
      "metabolite", "ligand", "ligands", "small molecules", "molecules", "treatments", "therapies", "residues",
      "residue", "sites", "site", "domains", "motifs", "isoforms", "structures", "sequences", "alleles", "genotypes",
      "phenotypes", "antibodies", "papers", "publications", "experiments", "assays", "modifications", "ptms"};
  const std::vector<std::string> topic_words = words(a.topic);
  // (what an enrichment answers with: terms of a kind, not proteins of a class)
  static const std::unordered_set<std::string> term_kinds = {
      "process", "processes", "function",  "functions",  "component", "components", "compartment", "compartments",
      "pathway", "pathways",  "term",      "terms",      "category",  "categories", "annotation",  "annotations",
      "keyword", "keywords",  "location",  "locations",  "aspect",    "aspects",    "go",          "kegg",
      "reactome", "domains",  "diseases",  "tissues"};
  std::string things = a.topic;
  bool no_proteins = a.intent == "class" && !topic_words.empty() && (not_proteins.count(a.topic) || not_proteins.count(topic_words.back()));
  // ("What modifications does X carry?": the noun the wh-word asks for, whatever the verb after it)
  if (!no_proteins) {
    const std::string head = asked_noun(w, start);
    if (not_proteins.count(head)) {
      no_proteins = true;
      things = head;
    }
  }
  // The form, composed with the intent the rules recognised.
  const std::string network = k.modules && entities == 0 ? network_named(w, f.network) : std::string();
  if (k.modules && !k.path && entities == 0 && network.empty()) {
    f.form = "unsupported";
    f.reason = "it asks for modules or clusters of no network and no protein the rules read: name the network (\"the "
               "network\", \"the NSCLC network\") or proteins";
  } else if (k.modules && !k.path) {
    // ("What are the main modules of the NSCLC network?": the network's clusters; of X's partners, of the entities
    // named)
    f.form = "modules";
    f.relation = entities == 0 ? network : entities == 1 ? "partners" : "set";
  } else if (entities == 0) {
    f.form = "unsupported";
    f.reason = "the question names no entity of the database: the rules answer questions about named proteins and "
               "families";
  } else if (how && entities == 1) {
    f.form = "unsupported";
    // (the question's words from "how", the entity by its name: "it asks how abundant is CDH1 in yeast cells")
    std::string asked;
    for (std::size_t i = start; i < w.size(); ++i) asked += (asked.empty() ? "" : " ") + (w[i] == "@" ? a.entities.front().name : w[i]);
    f.reason = "it asks " + asked + ": the rules answer which partners, how many, whether two interact, and the routes "
               "between two";
  } else if (no_proteins) {
    f.form = "unsupported";
    f.reason = "it asks for " + things + ": the rules answer with proteins the database links, and " + things +
               " are none";
  } else if (k.enrichment && !k.count && !k.path && a.topic_kind == "class" && !topic_words.empty() &&
             !term_kinds.count(topic_words.back())) {
    // ("Which kinases are enriched among EGFR's partners?": enrichment answers terms, not proteins of a class)
    f.form = "unsupported";
    f.reason = "it asks which " + a.topic + " are enriched: an enrichment answers with terms (processes, functions, "
               "components, pathways), not with proteins of a class; ask which partners are " + a.topic + ", or what is "
               "enriched among them";
  } else if (k.enrichment && !k.count && !k.path) {
    // ("What processes are enriched among EGFR's partners?": its partners' GO terms; "... in EGFR, KRAS and
    // BRAF?": the proteins named)
    f.form = "enrichment";
    f.relation = entities == 1 ? "partners" : "set";
  } else if (k.count && (a.intent == "partners" || a.intent == "class" || a.intent == "connects")) {
    f.form = "count";
  } else if (!f.choices.empty()) {
    f.form = "list";
  } else if ((k.yes_no || claim) && entities >= 2 && !for_entities && !k.count) {
    f.form = "yes_no";
    f.relation = "interaction";
  } else if (k.path && entities >= 2) {
    f.form = "path";
    f.relation = "paths";
  } else if (a.intent == "paths") {
    f.form = "path";
    f.relation = "paths";
  } else if (a.intent == "partners" || a.intent == "class" || a.intent == "connects") {
    f.form = "list";
  } else if (k.function && entities == 1 && a.intent == "open") {
    f.form = "list";
    f.relation = "function";
  } else if (k.count) {
    f.form = "unsupported";
    f.reason = "a count of something other than interaction partners: the rules count partners (of a class or topic, "
               "at a confidence)";
  } else {
    f.form = "unsupported";
    f.reason = "no rule reads what it asks of " + a.entities.front().name +
               ": the rules answer partners, common partners, partners of a class or topic, counts of them, whether "
               "two entities interact, paths between two, and what one does";
  }
}

// The relation, and the intent made to agree with the form.
void settle_intent(QuestionAnalysis &a, const std::vector<std::string> &w, const FormCues &k, QuestionFrame &f) {
  const std::size_t entities = a.entities.size();
  if (f.relation.empty()) {
    if (a.intent == "partners") f.relation = "partners";
    else if (a.intent == "connects") f.relation = "common";
    else if (a.intent == "class") f.relation = a.topic_kind == "topic" ? "topic" : "class";
  }
  if (f.relation == "partners" && k.common && entities >= 2) f.relation = "common";
  // A comparison asks which of the choices are partners of the entity left.
  if (!f.choices.empty()) {
    if (f.relation == "common" || f.relation.empty()) f.relation = "partners";
    if (a.intent == "connects" || a.intent == "paths" || a.intent == "open") {
      a.intent = "partners";
      a.rule = "a comparison: which of the entities listed interact with the one left";
    }
  }
  // A yes/no question says "not" as part of its claim ("A does not bind B"), not as an exclusion.
  if (f.form == "yes_no") {
    // ("... interaction or not?" asks both ways: no negation)
    for (std::size_t i = 0; i < w.size(); ++i)
      if ((w[i] == "not" || w[i] == "doesnt" || w[i] == "dont" || w[i] == "isnt" || w[i] == "arent" || w[i] == "never") &&
          !(i > 0 && w[i - 1] == "or"))
        f.negated = true;
    f.exclude.clear();
    f.exclude_kind.clear();
    if (a.intent == "open" || a.intent == "partners" || a.intent == "class") {
      a.intent = "connects";
      a.rule = "a yes/no question about two entities: what joins them";
    }
  }
  // An enrichment among one entity's partners retrieves them (the words of classes or processes it asks are no
  // topic: the GO terms answer them).
  if (f.form == "enrichment" && f.relation == "partners") {
    a.intent = "partners";
    a.topic.clear();
    a.topic_kind.clear();
    a.implied_class.clear();
    f.exclude.clear();
    f.exclude_kind.clear();
    a.rule = "one entity and a word of enrichment: the GO terms enriched among its partners";
  } else if (f.form == "enrichment") {
    a.rule = "several entities and a word of enrichment: the GO terms enriched among them";
  }
  // Modules: one entity's partners retrieved as for an enrichment; a network's or the entities' by clustering.
  if (f.form == "modules") {
    if (f.relation == "partners") a.intent = "partners";
    a.topic.clear();
    a.topic_kind.clear();
    a.implied_class.clear();
    f.exclude.clear();
    f.exclude_kind.clear();
    a.rule = f.relation == "partners" ? "one entity and a word of modules: the clusters of it and its partners"
             : f.relation == "set"    ? "several entities and a word of modules: the clusters of their network"
             : f.relation == "dataset" ? "a word of modules and a network named: the clusters of that dataset's network"
                                       : "a word of modules: the clusters of the whole network";
  }
  if (f.form == "path" && a.intent != "paths") {
    a.intent = "paths";
    a.rule = "two entities and a word of paths";
  }
  if (f.relation == "function") {
    a.rule = "one entity and a word of function";
  }
  // An excluded class is no topic to rank by: the partners, those of the class left out.
  if (!f.exclude.empty() && a.intent == "class") {
    a.topic.clear();
    a.topic_kind.clear();
    a.intent = "partners";
    a.rule = "one entity, a word of interaction and a " + f.exclude_kind + " it excludes";
    if (f.relation == "class" || f.relation == "topic") f.relation = "partners";
  }
  // (an unsupported question's relation is none the rules answer: its reason says what it asks)
  if (f.form == "unsupported") f.relation.clear();
}

}  // namespace

void read_frame(QuestionAnalysis &a) {
  QuestionFrame f;
  const std::vector<std::string> w = question_words(a);
  bool whether = false;
  const std::size_t start = opening(w, &whether);
  const FormCues k = read_cues(w, start, f);
  read_choices(a, w, f);
  read_exclusion(a, w, f);
  decide_form(a, w, start, whether, k, f);
  settle_intent(a, w, k, f);
  a.frame = std::move(f);
}

}  // namespace grappi::detail
