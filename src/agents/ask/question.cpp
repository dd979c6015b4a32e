// What a question asks (grappi/question.hpp): its entities, linked by the dictionary tagger in any case with the
// question's organism (else the database's) resolving ambiguous names, and identifiers looked up; its intent, by rules
// over the question with each entity replaced by a marker of its slot: cue words for partners, for what joins two
// entities and for paths, and the words that remain once question words, cues and generic nouns are gone as the class
// or topic.
#include "grappi/question.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "common/answer_json.hpp"
#include "store/graph_impl.hpp"
#include "store/organisms.hpp"
#include "grappi/entities.hpp"
#include "grappi/error.hpp"
#include "grappi/snapshot.hpp"
#include "common/grounding_text.hpp"
#include "agents/ask/question_impl.hpp"
#include "common/text_util.hpp"

namespace grappi {

namespace {

using nlohmann::json;

// Words of questions that are English, never entities when written in lower case (added to the tagger's stop-list:
// "bind", "link", "list", "name", "show" are also gene aliases somewhere).
const char *const kQuestionWords[] = {
    "what",      "which",       "who",         "whom",         "whose",      "how",         "list",       "name",
    "names",     "find",        "show",        "give",         "tell",       "identify",    "return",     "interact",
    "interacts", "interacting", "interaction", "interactions", "interactor", "interactors", "partner",    "partners",
    "bind",      "binds",       "binding",     "binder",       "binders",    "associate",   "associates", "associated",
    "connect",   "connects",    "connected",   "link",         "links",      "linked",      "bridge",     "bridges",
    "common",    "shared",      "path",        "paths",        "route",      "between",     "both",       "involved",
    "function",  "functions",   "known",       "does",         "did",        "part",        "take",       "takes",
    "proteins",  "genes",       "complexes",   "physically",   "directly",   "network",     "neighbors",  "neighbours",
    "act",       "acts",        "work",        "works",        "form",       "forms",       "main",       "major",
    "top",       "strongest",   "best",        "high",         "confidence"};

// Organisms a question may name (NCBI taxa as STRING writes them): the words of the table the
// extraction reads papers with.
const std::map<std::string_view, int64_t> &organism_words() { return detail::organism_words(); }

bool starts_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
}

bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

// The [begin, end) of each quoted part of a question ("..." or the typographic quotes), without
// the quotation marks.
std::vector<std::pair<std::size_t, std::size_t>> quoted_spans(std::string_view q) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::size_t open = std::string_view::npos;
  for (std::size_t i = 0; i < q.size(); ++i) {
    const bool ascii = q[i] == '"';
    const bool left = q.compare(i, 3, "\xE2\x80\x9C") == 0, right = q.compare(i, 3, "\xE2\x80\x9D") == 0;
    if (!ascii && !left && !right) continue;
    const std::size_t width = ascii ? 1 : 3;
    if (open == std::string_view::npos && (ascii || left)) {
      open = i + width;
    } else if (open != std::string_view::npos && (ascii || right)) {
      out.emplace_back(open, i);
      open = std::string_view::npos;
    }
    i += width - 1;
  }
  return out;
}

// Whether [b, e) lies inside a quoted part that holds more than it: a term's words ("the KEGG
// pathway "TNF signaling pathway"" names no protein TNF).
bool inside_quoted_term(const std::vector<std::pair<std::size_t, std::size_t>> &quoted, std::size_t b, std::size_t e) {
  return std::any_of(quoted.begin(), quoted.end(), [&](const auto &q) {
    return b >= q.first && e <= q.second && (b > q.first || e < q.second);
  });
}

bool modifier_of_class(std::string_view question, const EntityMention &m, const std::vector<EntityCandidate> &c) {
  const bool lower = std::none_of(m.text.begin(), m.text.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; });
  const bool long_name =
      std::none_of(c.begin(), c.end(), [](const EntityCandidate &x) { return detail::symbol_like(x.matched); });
  if (!lower && !long_name) return false;
  std::size_t at = m.offset + m.length;
  if (at < question.size() && question[at] == '-' && at + 1 < question.size() &&
      std::isalpha(static_cast<unsigned char>(question[at + 1])))
    return true;
  while (at < question.size() && question[at] == ' ') ++at;
  std::size_t end = at;
  while (end < question.size() && std::isalpha(static_cast<unsigned char>(question[end]))) ++end;
  const std::string next = detail::lower_copy(question.substr(at, end - at));
  return next.size() > 4 &&
         (ends_with(next, "ase") || ends_with(next, "ases") || next == "factor" || next == "factors");
}

// Cue words: the question asks for an entity's interaction partners.
bool partner_cue(const std::string &w) {
  static const char *const stems[] = {"interact",         "partner",        "bind",          "binder",
                                      "associat",         "complex",        "neighbo",       "interactom",
                                      "coimmunoprecipit", "immunoprecipit", "copurif",       "contact",
                                      "cooperat",         "recruit",        "phosphorylat",  "dephosphorylat",
                                      "ubiquitinat",      "ubiquitylat",    "deubiquitinat", "acetylat",
                                      "deacetylat",       "methylat",       "sumoylat",      "cleav",
                                      "degrad",           "activat",        "inhibit",       "regulat",
                                      "target",           "modif",          "chaperon",      "stabiliz",
                                      "stabilis",         "import",         "export",        "transport",
                                      "talk",             "communicat"};
  for (const char *s : stems)
    if (starts_with(w, s)) return true;
  return false;
}

// The class a verb implies ("phosphorylates X" asks for kinases); empty for none.
std::string implied_by_verb(const std::string &w) {
  if (starts_with(w, "dephosphorylat")) return "phosphatase";
  if (starts_with(w, "phosphorylat")) return "kinase";
  if (starts_with(w, "deubiquitinat") || starts_with(w, "deubiquitylat")) return "deubiquitinase";
  if (starts_with(w, "ubiquitinat") || starts_with(w, "ubiquitylat")) return "ubiquitin ligase";
  if (starts_with(w, "deacetylat")) return "deacetylase";
  if (starts_with(w, "acetylat")) return "acetyltransferase";
  if (starts_with(w, "methylat")) return "methyltransferase";
  if (starts_with(w, "sumoylat")) return "sumo ligase";
  if (starts_with(w, "cleav")) return "protease";
  return {};
}

// Words that say the question is about physical interaction.
bool physical_cue(const std::string &w) {
  return starts_with(w, "bind") || starts_with(w, "binder") || starts_with(w, "physical") ||
         starts_with(w, "complex") || starts_with(w, "coimmunoprecipit") || starts_with(w, "copurif") ||
         w == "contact" || w == "contacts";
}

// Words that join two entities.
bool connects_cue(const std::string &w) {
  static const char *const stems[] = {"connect", "link",   "bridg",      "between", "both",   "common", "shared",
                                      "share",   "mediat", "intermedia", "jointly", "mutual", "relat",  "join",
                                      "tie",     "tied"};
  for (const char *s : stems)
    if (starts_with(w, s)) return true;
  return false;
}

bool paths_cue(const std::string &w) {
  return w == "path" || w == "paths" || w == "route" || w == "routes" || w == "chain" || w == "chains" ||
         w == "cascade" || w == "reach" || w == "reaches" || starts_with(w, "shortest");
}

// Words that are neither a class nor a topic: question words, generic nouns, adverbs of confidence, grammar.
bool filler(const std::string &w) {
  // clang-format off
  static const std::unordered_set<std::string_view> s = {
      "what", "which", "who", "whom", "whose", "how", "list", "name", "names", "find", "show", "give", "tell",
      "identify", "return", "report", "retrieve", "me", "us", "please", "are", "is", "was", "were", "be", "been",
      "being", "there", "any", "among", "amongst", "the", "a", "an", "of", "with", "to", "for", "and", "or", "that",
      "those", "these", "this", "do", "does", "did", "can", "could", "would", "should", "may", "might", "known",
      "reported", "described", "documented", "all", "its", "their", "his", "her", "it", "they", "them", "in", "on",
      "by", "from", "into", "as", "at", "s", "protein", "proteins", "gene", "genes", "product", "products",
      "molecule", "molecules", "partner", "partners", "interactor", "interactors", "interactant", "interactants",
      "binder", "binders", "interaction", "interactions", "neighbor", "neighbors", "neighbour", "neighbours", "ones",
      "one", "other", "others", "physical", "physically", "direct", "directly", "functional", "functionally",
      "strong", "strongly", "strongest", "most", "top", "best", "main", "major", "key", "high", "highest",
      "confidence", "score", "scores", "evidence", "experimental", "experimentally", "validated", "reliable",
      "reliably", "significant", "also", "form", "forms", "formed", "forming", "complex", "complexes", "associate",
      "associates", "associated", "association", "network", "string", "database", "knowledge", "graph", "here",
      "together", "each", "every", "some", "many", "much", "more", "less", "than", "have", "has", "had", "not", "no",
      "yes", "if", "whether", "either", "answer", "question", "according", "data", "act", "acts", "work",
      "works", "together", "closely", "partnering", "interacting", "binding", "bound", "bind", "binds", "contact",
      "contacts", "via", "through", "about", "like", "such", "example", "e", "g", "i", "ie", "eg", "etc", "you",
      "your", "we", "our", "know", "see", "want", "need", "get", "fetch", "obtain", "provide", "display", "looking", "interested", "please", "kindly", "help",
      "possible", "currently", "overall", "above", "over", "below", "under", "least", "greater", "higher", "lower",
      "exceeding", "low", "medium", "moderate", "confident", "confidently", "reliable", "very", "stated", "number",
      "count", "many", "total", "amount", "arent", "isnt", "dont", "doesnt", "wont", "cannot", "whats", "whos",
      "wheres", "hows", "thats", "lets", "classified", "considered", "annotated", "called", "labelled", "labeled",
      "themselves", "itself",
      "experiments", "curated"};
  // clang-format on
  return s.count(w) > 0 || organism_words().count(w) > 0 ||
         std::all_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; });
}

// The phrases after which a topic is named ("involved in DNA repair").
const std::vector<std::vector<std::string>> &topic_leads() {
  static const std::vector<std::vector<std::string>> leads = {{"involved", "in"},
                                                              {"implicated", "in"},
                                                              {"participate", "in"},
                                                              {"participates", "in"},
                                                              {"participating", "in"},
                                                              {"function", "in"},
                                                              {"work", "in"},
                                                              {"works", "in"},
                                                              {"working", "in"},
                                                              {"act", "in"},
                                                              {"acts", "in"},
                                                              {"active", "in"},
                                                              {"functions", "in"},
                                                              {"functioning", "in"},
                                                              {"take", "part", "in"},
                                                              {"takes", "part", "in"},
                                                              {"taking", "part", "in"},
                                                              {"required", "for"},
                                                              {"important", "for"},
                                                              {"needed", "for"},
                                                              {"essential", "for"},
                                                              {"play", "a", "role", "in"},
                                                              {"plays", "a", "role", "in"},
                                                              {"playing", "a", "role", "in"},
                                                              {"role", "in"},
                                                              {"related", "to"},
                                                              {"located", "in"},
                                                              {"localized", "to"},
                                                              {"localized", "in"},
                                                              {"localised", "to"},
                                                              {"localised", "in"},
                                                              {"found", "in"},
                                                              {"part", "of"},
                                                              {"components", "of"},
                                                              {"component", "of"},
                                                              {"members", "of"},
                                                              {"member", "of"},
                                                              {"subunits", "of"},
                                                              {"subunit", "of"},
                                                              {"annotated", "with"},
                                                              {"in", "the"}};
  return leads;
}

// A plural noun ("kinases", "factors"), the head of a class phrase.
bool plural_noun(const std::string &w) {
  return w.size() > 3 && w.back() == 's' && w[w.size() - 2] != 's' && w[w.size() - 2] != 'u' && w != "this" &&
         w != "its" && w != "was" && w != "has" && w != "does";
}

}  // namespace

const std::vector<std::string> &question_intents() {
  static const std::vector<std::string> v = {"partners", "connects", "paths", "class", "open"};
  return v;
}

struct GRAPPI_HIDDEN QuestionAnalyzer::Impl {
  const KnowledgeGraph *kg = nullptr;
  QuestionAnalyzerOptions options;
  std::shared_ptr<const EntityTagger> tagger;  // (the knowledge graph's, EntityTagger::shared)
  int64_t dominant_taxon = 0;
};

QuestionAnalyzer::QuestionAnalyzer(const KnowledgeGraph &kg, QuestionAnalyzerOptions options)
    : impl_(std::make_unique<Impl>()) {
  Impl &m = *impl_;
  m.kg = &kg;
  const auto snapshot = kg.snapshot();
  if (options.labels.empty()) {
    std::unordered_set<std::string> labels;
    for (uint32_t i = 0; i < snapshot->node_count(); ++i)
      if (snapshot->label(i) != "OntologyTerm") labels.insert(snapshot->label(i));
    options.labels.assign(labels.begin(), labels.end());
    std::sort(options.labels.begin(), options.labels.end());
  }
  m.options = options;
  // The organism most connected proteins are of.
  std::map<int64_t, std::size_t> taxa;
  for (uint32_t i = 0; i < snapshot->node_count(); ++i)
    if (snapshot->label(i) == "Protein" && snapshot->adjacency(i).size > 0)
      if (const int64_t t = detail::taxon_of(snapshot->external_id(i))) ++taxa[t];
  std::size_t most = 0;
  for (const auto &[t, n] : taxa)
    if (n > most) most = n, m.dominant_taxon = t;
  EntityTaggerOptions to;
  to.labels = options.labels.empty() ? std::vector<std::string>{"Protein"} : options.labels;
  to.any_case = true;
  to.taxon = m.options.taxon ? m.options.taxon : m.dominant_taxon;
  for (const char *w : kQuestionWords) to.stop_words.emplace_back(w);
  for (const auto &[w, t] : organism_words()) to.stop_words.emplace_back(w);
  m.tagger = EntityTagger::shared(kg, to);
}

QuestionAnalyzer::~QuestionAnalyzer() = default;

int64_t QuestionAnalyzer::default_taxon() const {
  return impl_->options.taxon ? impl_->options.taxon : impl_->dominant_taxon;
}

namespace {

int64_t question_taxon(std::string_view question) {
  for (const std::string &w : detail::words(question))
    if (const auto it = organism_words().find(w); it != organism_words().end()) return it->second;
  return 0;
}

}  // namespace

std::vector<QuestionEntity> QuestionAnalyzer::entities(std::string_view question) const {
  const Impl &m = *impl_;
  const int64_t asked_taxon = question_taxon(question);
  const int64_t taxon = asked_taxon ? asked_taxon : default_taxon();
  // (an organism the question names narrows ambiguous names first; else the database's breaks
  // the ties the linker's other rules leave: EntityTaggerOptions::taxon)
  std::vector<EntityMention> mentions =
      asked_taxon ? m.tagger->tag(question, asked_taxon, "the question names it") : m.tagger->tag(question);
  std::vector<QuestionEntity> out;
  const auto add = [&out](QuestionEntity e) {
    for (const QuestionEntity &x : out)
      if (x.node == e.node) return;
    out.push_back(std::move(e));
  };
  // Identifiers first: a word with a digit ("4932.YBR160W", "P06242", "852457") that is an id of the database; a name
  // inside it ("YBR160W" in "4932.YBR160W") is then no mention of its own. A word that is a name too ("CDC28") stays
  // the tagger's. (a number is an id from five digits on: "2004" is a year before it is a gene's Entrez id)
  const auto named = [&](std::size_t b, std::size_t e) {
    return std::any_of(mentions.begin(), mentions.end(),
                       [&](const EntityMention &x) { return x.offset == b && x.offset + x.length == e; });
  };
  std::vector<std::pair<std::size_t, std::size_t>> id_spans;
  for (std::size_t i = 0; i < question.size();) {
    const auto id_char = [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == ':' || ch == '-';
    };
    if (!id_char(question[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < question.size() && id_char(question[j])) ++j;
    std::size_t end = j;
    while (end > i && (question[end - 1] == '.' || question[end - 1] == ':' || question[end - 1] == '-')) --end;
    const std::string_view token = question.substr(i, end - i);
    const bool digit =
        std::any_of(token.begin(), token.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
    const bool number =
        std::all_of(token.begin(), token.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
    if (token.size() >= (number ? 5u : 4u) && digit && !named(i, end) && !inside_quoted_term(quoted_spans(question), i, end)) {
      std::vector<EntityCandidate> by_id = m.tagger->by_id(token);
      if (by_id.empty())
        if (const auto node = m.kg->node_by_external_id(token)) {
          EntityCandidate c;
          c.node = node->id, c.id = node->external_id, c.name = node->name, c.label = node->label;
          by_id.push_back(c);
        }
      if (by_id.size() > 1) {
        const auto it =
            std::find_if(by_id.begin(), by_id.end(), [&](const EntityCandidate &x) { return x.taxon == taxon; });
        if (it != by_id.end()) std::rotate(by_id.begin(), it, it + 1);
      }
      if (!by_id.empty()) {
        QuestionEntity e;
        e.node = by_id[0].node, e.id = by_id[0].id, e.name = by_id[0].name, e.label = by_id[0].label;
        e.text = std::string(token);
        e.offset = i;
        e.length = token.size();
        e.status = by_id.size() == 1 ? "id" : "ambiguous";
        for (std::size_t k = 1; k < by_id.size(); ++k) e.alternatives.push_back(by_id[k].id);
        id_spans.emplace_back(e.offset, e.offset + e.length);
        add(std::move(e));
      }
    }
    i = j;
  }
  const auto in_id = [&](const EntityMention &x) {
    return std::any_of(id_spans.begin(), id_spans.end(),
                       [&](const auto &span) { return x.offset < span.second && span.first < x.offset + x.length; });
  };
  const auto quoted = quoted_spans(question);
  for (EntityMention &mention : mentions) {
    auto &c = mention.candidates;
    if (c.empty() || in_id(mention) || inside_quoted_term(quoted, mention.offset, mention.offset + mention.length)) continue;
    // A description several proteins share ("cyclin-dependent kinase") names a class, not one of them.
    const bool described = std::all_of(c.begin(), c.end(), [](const EntityCandidate &x) {
      return x.source != "name" && x.matched.find(' ') != std::string::npos;
    });
    if (described && c.size() > 1) continue;
    // A word that modifies a class ("ubiquitin ligases", "actin-binding proteins") is no entity: written in lower case
    // or a long name, followed by an enzyme or factor word or joined by a hyphen to the next word.
    if (modifier_of_class(question, mention, c)) continue;
    // (the linker's choice; an ambiguous name's best-ranked candidate, the others kept as alternatives)
    const std::size_t pick = mention.chosen ? *mention.chosen : 0;
    std::string status = mention.status, resolution = mention.resolution;
    if (status.empty()) status = c.size() == 1 ? "unique" : "ambiguous";
    QuestionEntity e;
    e.node = c[pick].node;
    e.id = c[pick].id;
    e.name = c[pick].name;
    e.label = c[pick].label;
    e.text = mention.text;
    e.offset = mention.offset;
    e.length = mention.length;
    e.status = status;
    e.resolution = resolution;
    if (status == "ambiguous")
      for (std::size_t i = 0; i < c.size(); ++i)
        if (i != pick) e.alternatives.push_back(c[i].id);
    for (const EntityCandidate &x : m.tagger->members(e.node)) e.members.push_back({x.node, x.id, x.name});
    add(std::move(e));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const QuestionEntity &a, const QuestionEntity &b) { return a.offset < b.offset; });
  return out;
}

QuestionAnalysis QuestionAnalyzer::analyze(std::string_view question) const {
  if (detail::trim_copy(question).empty()) throw Error(ErrorCode::invalid_argument, "question: the question is empty");
  QuestionAnalysis a;
  a.question = std::string(question);
  a.taxon = question_taxon(question);
  a.entities = entities(question);
  a.unknown_names = unknown_names(question, a.entities);
  detail::recognise_intent(a);
  detail::read_frame(a);
  return a;
}

namespace {

// Acronyms of molecules, methods and diseases that questions use and that are no gene names.
bool common_acronym(const std::string &upper) {
  static const std::unordered_set<std::string> words{
      "DNA",  "RNA",  "MRNA", "MIRNA", "SIRNA", "LNCRNA", "CDNA", "ATP",  "ADP",   "AMP",  "GTP",   "GDP",  "NAD",
      "NADH", "NADPH", "FAD", "PCR",   "RT-PCR", "ELISA", "HIV", "AIDS", "COVID", "SARS", "UV",    "ROS",  "ER",
      "FDA",  "WHO",  "USA",  "GWAS",  "SNP",   "SNPS",   "CNS", "PPI",  "PPIS",  "KEGG", "GO",    "NSCLC", "SCLC",
      "AML",  "CML",  "ALL",  "CLL",   "HCC",   "CRC",    "ALS", "AD",   "PD",    "MS",   "IBD",   "COPD", "T2D",
      "BMI",  "CT",   "MRI",  "PET",   "NMR",   "LC-MS",  "MS/MS", "EMT", "AND",  "OR",   "NOT",   "WHAT", "WHICH"};
  return words.count(upper) > 0;
}

}  // namespace

std::vector<std::string> QuestionAnalyzer::unknown_names(std::string_view question,
                                                         const std::vector<QuestionEntity> &found) const {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < question.size()) {
    const auto word_char = [&](std::size_t k) {
      const char c = question[k];
      return std::isalnum(static_cast<unsigned char>(c)) || c == '-';
    };
    if (!word_char(i)) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < question.size() && word_char(j)) ++j;
    std::string w(question.substr(i, j - i));
    const std::size_t at = i;
    i = j;
    while (!w.empty() && w.back() == '-') w.pop_back();
    if (w.size() < 3 || w.size() > 20) continue;
    bool inside = false;
    for (const QuestionEntity &e : found) inside = inside || (at < e.offset + e.length && e.offset < at + w.size());
    if (inside) continue;
    const bool digit = std::any_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    const bool alpha = std::any_of(w.begin(), w.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
    const bool capitals = w.size() <= 10 && std::all_of(w.begin(), w.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)) || c == '-'; });
    if (!alpha || !(digit || capitals) || !std::isalpha(static_cast<unsigned char>(w[0]))) continue;
    std::string upper = w;
    for (char &c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (common_acronym(upper) || std::find(out.begin(), out.end(), w) != out.end()) continue;
    if (impl_->kg->lookup(w, 0).status == ResolveResult::Status::not_found) out.push_back(w);
  }
  return out;
}

std::vector<std::string> detail::question_words(const QuestionAnalysis &a) {
  // The question's words, each entity's words replaced by "@" (in question order).
  const std::string question = ascii_punctuation(a.question);
  std::vector<const QuestionEntity *> by_offset;
  for (const QuestionEntity &e : a.entities) by_offset.push_back(&e);
  std::stable_sort(by_offset.begin(), by_offset.end(),
                   [](const QuestionEntity *x, const QuestionEntity *y) { return x->offset < y->offset; });
  std::string skeleton;
  std::size_t at = 0;
  for (const QuestionEntity *e : by_offset) {
    if (e->offset < at || e->offset > question.size()) continue;
    skeleton += question.substr(at, e->offset - at) + " @ ";
    at = e->offset + e->length;
  }
  skeleton += question.substr(std::min(at, question.size()));
  std::vector<std::string> w;
  std::string cur;
  for (char c : skeleton + " ") {
    if (std::isalnum(static_cast<unsigned char>(c)) || (static_cast<unsigned char>(c) & 0x80) || c == '@' ||
        (c == '-' && !cur.empty()) || (c == '.' && !cur.empty() && std::isdigit(static_cast<unsigned char>(cur.back())))) {
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (c == '\'' && !cur.empty()) {
      // ("aren't" is one word, "arent")
    } else if (!cur.empty()) {
      // ("co-immunoprecipitates" and "coimmunoprecipitates" alike; a number keeps its point: "0.7")
      cur.erase(std::remove(cur.begin(), cur.end(), '-'), cur.end());
      while (!cur.empty() && cur.back() == '.') cur.pop_back();
      if (!cur.empty()) w.push_back(cur);
      cur.clear();
    }
  }
  return w;
}

void detail::recognise_intent(QuestionAnalysis &a) {
  a.intent = "open";
  a.topic.clear();
  a.topic_kind.clear();
  a.implied_class.clear();
  a.interaction.clear();
  a.source = "rules";
  if (a.entities.empty()) {
    a.rule = "no entity named";
    return;
  }
  const std::vector<std::string> w = question_words(a);
  bool partner = false, connects = false, paths = false, physical = false;
  const std::size_t first_entity = static_cast<std::size_t>(std::find(w.begin(), w.end(), "@") - w.begin());
  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::string &x = w[i];
    partner = partner || partner_cue(x);
    connects = connects || connects_cue(x);
    paths = paths || paths_cue(x);
    physical = physical || physical_cue(x);
    // A verb implies the class of its subject: "Which kinases phosphorylate X", "What phosphorylates X", "X is
    // phosphorylated by"; not when X is the subject ("Which proteins does X phosphorylate": X's substrates).
    if (a.implied_class.empty()) {
      const std::string implied = implied_by_verb(x);
      const bool passive =
          (i > 0 && (w[i - 1] == "is" || w[i - 1] == "are" || w[i - 1] == "was" || w[i - 1] == "were" ||
                     w[i - 1] == "be" || w[i - 1] == "been" || w[i - 1] == "gets" || w[i - 1] == "get")) ||
          (i + 1 < w.size() && w[i + 1] == "by");
      if (!implied.empty() && (i < first_entity || passive)) a.implied_class = implied;
    }
  }
  // "from A to B", "A ... reach B"
  for (std::size_t i = 0; i + 3 < w.size(); ++i)
    if (w[i] == "from" && w[i + 1] == "@" && w[i + 2] == "to" && w[i + 3] == "@") paths = true;
  if (physical) a.interaction = "physical";
  if (a.entities.size() >= 2) {
    if (paths) {
      a.intent = "paths";
      a.rule = "two entities and a word of paths";
    } else if (connects || partner) {
      a.intent = "connects";
      a.rule = connects ? "two entities and a word that joins them" : "two entities and a word of interaction";
    } else {
      a.rule = "two entities, no word of paths, joins or interaction";
    }
    // "Does A bind B?": a question about one interaction, not what joins them ("Are there
    // proteins that bind A and B?" asks for proteins).
    const bool asks_for_entities = std::any_of(w.begin(), w.end(), [](const std::string &x) {
      return x == "proteins" || x == "genes" || x == "partners" || x == "interactors" || x == "which" || x == "what" ||
             x == "who" || x == "any" || x == "ones";
    });
    if (a.intent == "connects" && !connects && !asks_for_entities && !w.empty() &&
        (w[0] == "does" || w[0] == "do" || w[0] == "is" || w[0] == "are" || w[0] == "can")) {
      a.intent = "open";
      a.rule = "a yes/no question about two entities";
    }
    return;
  }
  // (one entity "linked to", "connected to", "related to" what: its partners)
  partner = partner || connects;
  if (!partner) {
    a.rule = "one entity, no word of interaction";
    return;
  }
  // What remains: the class or topic. A lead phrase names a topic; else the remaining words are a class phrase when
  // they end in a plural noun, else a topic.
  std::vector<std::string> rest;
  std::size_t lead_end = std::string::npos;
  for (std::size_t i = 0; i < w.size() && lead_end == std::string::npos; ++i)
    for (const auto &lead : topic_leads())
      if (i + lead.size() <= w.size() &&
          std::equal(lead.begin(), lead.end(), w.begin() + static_cast<std::ptrdiff_t>(i))) {
        // ("in the" only before words that are not an entity: "in the nucleus")
        if (lead.back() == "the" && (i + 2 >= w.size() || w[i + 2] == "@")) continue;
        lead_end = i + lead.size();
        break;
      }
  const auto keep = [](const std::string &x) {
    return x != "@" && !filler(x) && !partner_cue(x) && !detail::is_stop_word(x);
  };
  if (lead_end != std::string::npos) {
    for (std::size_t i = lead_end; i < w.size(); ++i) {
      if (w[i] == "@" || (partner_cue(w[i]) && !rest.empty())) break;  // ("... involved in DNA repair interact with X")
      if (keep(w[i])) rest.push_back(w[i]);
    }
    a.topic_kind = "topic";
  }
  if (rest.empty()) {
    // Without a lead phrase, a class phrase: a run of words that ends in a plural noun or a class's head noun
    // ("kinases", "a kinase", "transcription factors"), or that stands before a noun for proteins ("DNA repair
    // proteins", "mitochondrial ribosomal proteins"). Other words left over are no class ("How many partners are
    // listed for X?": "listed" is none).
    static const std::unordered_set<std::string_view> protein_nouns = {
        "proteins", "protein", "genes", "gene", "partners", "partner", "interactors", "interactor", "interactants",
        "binders", "products", "molecules", "subunits", "components"};
    const auto class_head = [](const std::string &x) {
      return plural_noun(x) || (x.size() > 5 && x.compare(x.size() - 3, 3, "ase") == 0) || x == "factor" || x == "receptor";
    };
    for (std::size_t i = 0; i < w.size() && rest.empty(); ++i) {
      if (!keep(w[i])) continue;
      std::size_t j = i;
      while (j < w.size() && keep(w[j])) ++j;
      const bool headed = class_head(w[j - 1]) || (j < w.size() && protein_nouns.count(w[j]));
      if (headed) rest.assign(w.begin() + static_cast<std::ptrdiff_t>(i), w.begin() + static_cast<std::ptrdiff_t>(j));
      i = j;
    }
    // (else a phrase of two words or more is a topic, "... that work in DNA repair"; a word alone is none)
    for (std::size_t i = 0; i < w.size() && rest.empty(); ++i) {
      if (!keep(w[i])) continue;
      std::size_t j = i;
      while (j < w.size() && keep(w[j])) ++j;
      if (j - i >= 2) rest.assign(w.begin() + static_cast<std::ptrdiff_t>(i), w.begin() + static_cast<std::ptrdiff_t>(j));
      i = j;
    }
    a.topic_kind = !rest.empty() && plural_noun(rest.back()) ? "class" : "topic";
  }
  for (const std::string &x : rest) a.topic += (a.topic.empty() ? "" : " ") + x;
  // A quoted term that names no entity is the topic as written ("involved in "DNA repair"").
  for (const auto &span : quoted_spans(a.question)) {
    const std::size_t b = span.first, e = span.second;
    const bool entity = std::any_of(a.entities.begin(), a.entities.end(),
                                    [&](const QuestionEntity &x) { return x.offset >= b && x.offset + x.length <= e; });
    if (entity || e <= b) continue;
    a.topic = trim_copy(a.question.substr(b, e - b));
    a.topic_kind = "topic";
    break;
  }
  if (a.topic.empty()) a.topic_kind.clear();
  if (!a.topic.empty() || !a.implied_class.empty()) {
    a.intent = "class";
    a.rule = !a.topic.empty() ? "one entity, a word of interaction and a " + a.topic_kind
                              : "one entity and a verb that implies a class";
  } else {
    a.intent = "partners";
    a.rule = "one entity and a word of interaction";
  }
}

json to_json(const QuestionEntity &e) {
  json j = {{"node", e.node}, {"id", e.id},         {"name", e.name},     {"label", e.label},
            {"text", e.text}, {"offset", e.offset}, {"length", e.length}, {"status", e.status}};
  if (!e.resolution.empty()) j["resolution"] = e.resolution;
  if (!e.alternatives.empty()) j["alternatives"] = e.alternatives;
  if (!e.members.empty()) {
    json members = json::array();
    for (const QuestionEntity::Member &x : e.members) members.push_back({{"node", x.node}, {"id", x.id}, {"name", x.name}});
    j["members"] = members;
  }
  return j;
}

json to_json(const QuestionFrame &f, const std::vector<QuestionEntity> &entities) {
  json j = {{"form", f.form}};
  if (!f.relation.empty()) j["relation"] = f.relation;
  if (!f.network.empty()) j["network"] = f.network;
  if (!f.exclude.empty()) j["exclude"] = f.exclude, j["exclude_kind"] = f.exclude_kind;
  if (f.min_score > 0) j["min_score"] = f.min_score;
  if (!f.confidence.empty()) j["confidence"] = f.confidence;
  if (!f.channels.empty()) j["channels"] = f.channels;
  if (!f.choices.empty()) {
    json c = json::array();
    for (int64_t n : f.choices) {
      const auto it = std::find_if(entities.begin(), entities.end(), [&](const QuestionEntity &e) { return e.node == n; });
      c.push_back(it == entities.end() ? json(n) : json(it->id));
    }
    j["choices"] = c;
  }
  if (f.negated) j["negated"] = true;
  if (!f.reason.empty()) j["reason"] = f.reason;
  j["cues"] = f.cues;
  return j;
}

json to_json(const QuestionAnalysis &a) {
  json entities = json::array();
  for (const QuestionEntity &e : a.entities) entities.push_back(to_json(e));
  json j = {{"intent", a.intent}, {"source", a.source}, {"rule", a.rule}, {"entities", entities}};
  if (!a.topic.empty()) j["topic"] = a.topic, j["topic_kind"] = a.topic_kind;
  if (!a.implied_class.empty()) j["implied_class"] = a.implied_class;
  if (!a.interaction.empty()) j["interaction"] = a.interaction;
  if (a.taxon) j["taxon"] = a.taxon;
  if (!a.model_error.empty()) j["model_error"] = a.model_error;
  if (!a.unknown_names.empty()) j["unknown_names"] = a.unknown_names;
  j["frame"] = to_json(a.frame, a.entities);
  return j;
}

}  // namespace grappi

namespace grappi::detail {

const char *const kIntentPrompt =
    "A question about a protein interaction network:\n{{question}}\n\n"
    "The entities of the network it names:\n{{entities}}\n\n"
    "What does it ask? Its intent, one of:\n"
    "- partners: the interaction partners of one entity\n"
    "- connects: what joins two entities (their common partners)\n"
    "- paths: how one entity reaches another through interactions\n"
    "- class: the partners of one entity that are of a class (kinases, "
    "transcription factors) or involved in a "
    "process or place (DNA repair, the nucleus)\n"
    "- open: anything else\n"
    "and the form of the answer it wants, one of: list (entities), yes_no (whether two entities interact), count "
    "(how many partners), path (how one reaches the other), unsupported (none of these).\n"
    "Answer with one JSON object and nothing else: {\"intent\": \"...\", \"form\": \"...\", "
    "\"entities\": [\"the entities it is about, as "
    "listed, in the question's order\"], \"topic\": \"for class: the class or "
    "topic in the question's words, else empty\", \"exclude\": \"a class or topic the answers must not be, in the "
    "question's words, else empty\", \"confidence\": \"low, medium, high or highest when the question asks for "
    "it, else empty\"}";

bool apply_model_intent(QuestionAnalysis &a, std::string_view answer, std::string &error) {
  nlohmann::json j;
  if (!json_object_in(answer, j, error)) return false;
  const std::string intent = lower_copy(trim_copy(json_string(j, "intent")));
  const auto &known = question_intents();
  if (std::find(known.begin(), known.end(), intent) == known.end()) {
    error = "unknown intent \"" + intent + "\"";
    return false;
  }
  std::vector<QuestionEntity> chosen;
  if (j.contains("entities") && j["entities"].is_array())
    for (const auto &x : j["entities"]) {
      if (!x.is_string()) continue;
      const std::string name = trim_copy(x.get<std::string>());
      const auto it = std::find_if(a.entities.begin(), a.entities.end(), [&](const QuestionEntity &e) {
        return iequals(e.name, name) || iequals(e.text, name) || iequals(e.id, name);
      });
      if (it == a.entities.end()) {
        error = "\"" + name + "\" is not an entity the question names";
        return false;
      }
      if (std::none_of(chosen.begin(), chosen.end(), [&](const QuestionEntity &e) { return e.node == it->node; }))
        chosen.push_back(*it);
    }
  const std::size_t need = intent == "connects" || intent == "paths" ? 2 : intent == "open" ? 0 : 1;
  if (chosen.size() < need) {
    error = "intent " + intent + " needs " + std::to_string(need) + " entit" + (need == 1 ? "y" : "ies") +
            ", the answer names " + std::to_string(chosen.size());
    return false;
  }
  std::string topic = trim_copy(json_string(j, "topic"));
  if (intent == "class") {
    if (topic.empty()) {
      error = "intent class without a topic";
      return false;
    }
    const std::string q = lower_copy(a.question);
    for (const std::string &word : words(topic))
      if (q.find(word) == std::string::npos) {
        error = "the topic \"" + topic + "\" is not in the question's words";
        return false;
      }
  } else {
    topic.clear();
  }
  // The entities it is about first, the others after.
  for (const QuestionEntity &e : a.entities)
    if (std::none_of(chosen.begin(), chosen.end(), [&](const QuestionEntity &c) { return c.node == e.node; }))
      chosen.push_back(e);
  a.entities = std::move(chosen);
  a.intent = intent;
  a.topic = topic;
  a.topic_kind =
      topic.empty()
          ? ""
          : (!words(topic).empty() && words(topic).back().size() > 3 && words(topic).back().back() == 's' ? "class"
                                                                                                          : "topic");
  a.source = "model";
  a.rule = "the model's reading";
  // The frame: the rules' reading of the model's intent, then the form, exclusion and confidence the model gives when
  // they hold up (a form the entities allow, an exclusion in the question's words, one of STRING's confidence words).
  read_frame(a);
  a.frame.cues.push_back("source=model");
  const std::string form = lower_copy(trim_copy(json_string(j, "form")));
  const std::size_t named = a.entities.size();
  if ((form == "list" && intent != "open") || (form == "count" && (intent == "partners" || intent == "class")) ||
      ((form == "yes_no" || form == "path") && named >= 2)) {
    a.frame.form = form;
    a.frame.reason.clear();
    if (form == "yes_no") a.frame.relation = "interaction";
    if (form == "path") a.frame.relation = "paths";
  }
  const std::string exclude = trim_copy(json_string(j, "exclude"));
  if (!exclude.empty()) {
    const std::string q = lower_copy(a.question);
    bool in_question = true;
    for (const std::string &word : words(exclude)) in_question = in_question && q.find(word) != std::string::npos;
    if (in_question) {
      a.frame.exclude = exclude;
      a.frame.exclude_kind = !words(exclude).empty() && words(exclude).back().back() == 's' ? "class" : "topic";
    }
  }
  static const std::pair<const char *, double> kConfidence[] = {{"low", 0.15}, {"medium", 0.4}, {"high", 0.7}, {"highest", 0.9}};
  const std::string confidence = lower_copy(trim_copy(json_string(j, "confidence")));
  for (const auto &[word, score] : kConfidence)
    if (confidence == word && a.frame.min_score == 0) {
      a.frame.min_score = score;
      a.frame.confidence = confidence + " (the model's reading)";
    }
  return true;
}

}  // namespace grappi::detail
