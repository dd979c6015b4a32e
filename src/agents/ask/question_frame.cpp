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
      // Exclusions and negation.
      {"not", "exclude", "", "any"},                   {"except", "exclude", "", "any"},
      {"other than", "exclude", "", "any"},            {"apart from", "exclude", "", "any"},
      {"excluding", "exclude", "", "any"},             {"but not", "exclude", "", "any"},
      {"arent", "exclude", "", "any"},                 {"isnt", "exclude", "", "any"},
      {"doesnt", "exclude", "", "any"},                {"dont", "exclude", "", "any"},
      {"non*", "exclude", "", "any"},
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

// Words a question opens with before what it asks ("Please tell me", "Can you say whether", "I want to know").
std::size_t opening(const std::vector<std::string> &w) {
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
      if (i < w.size() && (w[i] == "whether" || w[i] == "if")) ++i;
      break;
    }
  return i;
}

bool wh_word(const std::string &x) {
  return x == "which" || x == "what" || x == "who" || x == "whom" || x == "whose" || x == "where" || x == "when" ||
         x == "why" || x == "list" || x == "name" || x == "give" || x == "find" || x == "show" || x == "identify";
}

// Words that ask for entities rather than whether two interact ("Are there proteins that bind A and B?").
bool asks_for_entities(const std::string &x) {
  return x == "proteins" || x == "genes" || x == "partners" || x == "interactors" || x == "ones" || x == "any" ||
         x == "kinases" || x == "which" || x == "what" || x == "who" || x == "factors" || x == "enzymes";
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

}  // namespace

void read_frame(QuestionAnalysis &a) {
  QuestionFrame f;
  const std::vector<std::string> w = question_words(a);
  const std::size_t start = opening(w);
  const std::size_t entities = a.entities.size();
  const auto cue_note = [&f](const char *part, const std::string &value, const std::string &words) {
    f.cues.push_back(std::string(part) + "=" + value + " (" + words + ")");
  };
  // Each cue where it stands.
  bool count = false, yes_no = false, path = false, common = false, function = false, wh = false;
  for (std::size_t i = 0; i < w.size(); ++i) wh = wh || wh_word(w[i]);
  for (const FrameCue &c : frame_cues())
    for (std::size_t i = std::string_view(c.where) == "start" ? start : 0; i < w.size(); ++i) {
      if (std::string_view(c.where) == "start" && i != start) break;
      if (!match_at(w, i, c.words)) continue;
      const std::string_view part = c.part, value = c.value;
      if (part == "form") {
        if (value == "count") count = true;
        if (value == "yes_no") yes_no = true;
        if (value == "path") path = true;
        cue_note(c.part, c.value, c.words);
      } else if (part == "relation") {
        common = common || value == "common";
        function = function || value == "function";
        cue_note(c.part, c.value, c.words);
      } else if (part == "confidence") {
        const double v = std::strtod(c.value, nullptr);
        if (v > f.min_score) {
          f.min_score = v;
          f.confidence = c.words;
        }
      } else if (part == "channel") {
        if (std::find(f.channels.begin(), f.channels.end(), c.value) == f.channels.end()) {
          f.channels.push_back(c.value);
          cue_note(c.part, c.value, c.words);
        }
      }
      break;
    }
  if (!f.confidence.empty()) cue_note("confidence", fixed(f.min_score, 3), f.confidence);
  // A score the question states: "a score above 0.8", "scores of at least 900", "score >= 0.7".
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i] != "score" && w[i] != "scores" && w[i] != "confidence") continue;
    for (std::size_t k = i + 1; k < w.size() && k <= i + 4; ++k)
      if (const double v = score_number(w[k]); v >= 0) {
        f.min_score = v;
        f.confidence = w[i] + " " + w[k];
        cue_note("confidence", fixed(v, 3), f.confidence);
        break;
      }
  }
  // A comparison: "Which of A, B or C interacts with X?" - the entities listed after "which of".
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
    cue_note("form", "list", "which of");
    break;
  }
  // Exclusion: a class written with "non-" ("non-kinase partners": the class kinase), or a negation cue right before
  // the class or topic the rules read ("are not kinases", "other than kinases", "not involved in DNA repair").
  std::string excluded_by;
  if (!a.topic.empty() && a.topic.rfind("non", 0) == 0 && a.topic.size() > 6 && a.topic.compare(0, 4, "none") != 0) {
    f.exclude = a.topic.substr(3);
    f.exclude_kind = "class";
    excluded_by = "non-";
  } else if (!a.topic.empty() && exclusion_before_topic(w, a.topic, excluded_by)) {
    f.exclude = a.topic;
    f.exclude_kind = a.topic_kind;
  }
  if (!f.exclude.empty()) cue_note("exclude", f.exclude, excluded_by);
  // A claim to check: a statement about two entities, not a question ("A binds B.", "A does not interact with B").
  const std::string trimmed = trim_copy(a.question);
  static const std::unordered_set<std::string_view> imperative = {"tell", "describe", "explain", "summarize", "summarise",
                                                                   "discuss", "compare", "what", "how"};
  const bool claim = entities >= 2 && !wh && !count && !path && !trimmed.empty() && trimmed.back() != '?' &&
                     a.intent != "open" && !w.empty() && !imperative.count(w[0]);
  const bool for_entities = std::any_of(w.begin() + static_cast<std::ptrdiff_t>(std::min(start, w.size())), w.end(), asks_for_entities);
  // The form, composed with the intent the rules recognised.
  if (entities == 0) {
    f.form = "unsupported";
    f.reason = "the question names no entity of the database: the rules answer questions about named proteins and "
               "families";
  } else if (count && (a.intent == "partners" || a.intent == "class" || a.intent == "connects")) {
    f.form = "count";
  } else if (!f.choices.empty()) {
    f.form = "list";
  } else if ((yes_no || claim) && entities >= 2 && !for_entities && !count) {
    f.form = "yes_no";
    f.relation = "interaction";
  } else if (path && entities >= 2) {
    f.form = "path";
    f.relation = "paths";
  } else if (a.intent == "paths") {
    f.form = "path";
    f.relation = "paths";
  } else if (a.intent == "partners" || a.intent == "class" || a.intent == "connects") {
    f.form = "list";
  } else if (function && entities == 1 && a.intent == "open") {
    f.form = "list";
    f.relation = "function";
  } else if (count) {
    f.form = "unsupported";
    f.reason = "a count of something other than interaction partners: the rules count partners (of a class or topic, "
               "at a confidence)";
  } else {
    f.form = "unsupported";
    f.reason = "no rule reads what it asks of " + a.entities.front().name +
               ": the rules answer partners, common partners, partners of a class or topic, counts of them, whether "
               "two entities interact, paths between two, and what one does";
  }
  if (f.relation.empty()) {
    if (a.intent == "partners") f.relation = "partners";
    else if (a.intent == "connects") f.relation = "common";
    else if (a.intent == "class") f.relation = a.topic_kind == "topic" ? "topic" : "class";
  }
  if (f.relation == "partners" && common && entities >= 2) f.relation = "common";
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
    f.negated = std::any_of(w.begin(), w.end(), [](const std::string &x) {
      return x == "not" || x == "doesnt" || x == "dont" || x == "isnt" || x == "arent" || x == "never";
    });
    f.exclude.clear();
    f.exclude_kind.clear();
    if (a.intent == "open" || a.intent == "partners" || a.intent == "class") {
      a.intent = "connects";
      a.rule = "a yes/no question about two entities: what joins them";
    }
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
  a.frame = std::move(f);
}

}  // namespace grappi::detail
