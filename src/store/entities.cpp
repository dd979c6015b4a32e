// Dictionary entity grounding (grappi/entities.hpp): the knowledge base's names in one hash map
// keyed by their case-folded form, a longest-match scan at word boundaries, the case and
// stop-list rules, the document's own annotations reconciled with the matches, and ambiguity
// resolved by organism, by edges to the passage's other entities, and by preferred names.
#include "grappi/entities.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "grappi/bel.hpp"
#include "grappi/error.hpp"
#include "grappi/snapshot.hpp"
#include "common/checksum.hpp"
#include "common/section_file.hpp"
#include "store/entity_tagger_impl.hpp"
#include "store/graph_impl.hpp"
#include "common/grounding_text.hpp"
#include "store/name_keys.hpp"
#include "store/organisms.hpp"
#include "common/text_util.hpp"

namespace grappi {

namespace {

// English words that are also gene symbols, aliases or short ontology names, and words of
// biology too general to be meant as one entity.
const char *const kStopWords[] = {
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "did", "do", "for", "from", "had", "has", "have",
    "he", "her", "his", "if", "in", "into", "is", "it", "its", "may", "me", "my", "no", "not", "of", "on", "or",
    "our", "per", "set", "she", "so", "than", "that", "the", "their", "then", "there", "these", "they", "this",
    "those", "to", "up", "us", "via", "was", "we", "were", "which", "who", "will", "with", "yet", "all", "also",
    "any", "both", "each", "end", "ends", "few", "how", "large", "less", "more", "most", "much", "new", "now",
    "old", "one", "two", "out", "over", "own", "same", "such", "very", "when", "where", "while", "why", "age",
    "aim", "act", "arm", "art", "bad", "bat", "bed", "big", "box", "car", "cat", "cap", "cut", "day", "dog",
    "ear", "eye", "fat", "fit", "fix", "gap", "got", "hit", "hot", "key", "lab", "let", "lay", "led", "low",
    "man", "map", "men", "met", "mix", "net", "not", "pan", "pat", "pig", "put", "ran", "raw", "red", "run",
    "sad", "sat", "saw", "say", "see", "sex", "sit", "six", "ten", "tip", "top", "war", "wee", "win",
    "impact", "camp", "chip", "clock", "face", "fast", "hole", "lamp", "light", "mask", "mass", "mice", "mind",
    "miss", "moon", "past", "pole", "rest", "ring", "rope", "sink", "soft", "spin", "star", "step", "tube",
    "wave", "white", "black", "cell", "cells", "gene", "genes", "protein", "proteins", "kinase", "kinases",
    "receptor", "receptors", "factor", "factors", "complex", "domain", "domains", "activity", "binding",
    "human", "humans", "mouse", "yeast", "rat", "type", "types", "region", "subunit", "alpha", "beta", "gamma",
    "delta", "kappa", "family", "member", "members", "site", "sites", "form", "forms", "level", "levels",
    "role", "function", "functions", "response", "signal", "signaling", "signalling", "pathway", "pathways",
    "growth", "death", "cancer", "tumor", "tumour", "disease", "mutant", "mutants", "wild", "control",
    "component", "process", "transport", "membrane", "nucleus", "cytoplasm", "dna", "rna", "mrna", "atp",
    "gtp", "gtpase", "gtpases", "atpase", "atpases", "phosphatase", "helicase", "protease", "ligase",
    "transferase", "synthase", "reductase", "oxidase", "dehydrogenase", "polymerase", "nuclease", "hydrolase",
    "isomerase", "permease", "transporter", "channel", "enzyme", "ii", "iii", "iv", "vi", "ca", "mg", "na", "ph", "ml", "mm", "nm", "kda", "min", "hr", "h", "rt",
    // amino acids as mutations write them ("Arg", "Pro75Ala"), antibody classes and the MHC:
    // no one gene (in capitals and naming a symbol they still count: "ASP", "MET")
    "ala", "arg", "asn", "asp", "cys", "gln", "glu", "gly", "his", "ile", "leu", "lys", "phe", "pro", "ser", "thr",
    "trp", "tyr", "val", "iga", "igd", "ige", "igg", "igm", "mhc"};

// An identifier's key: lower case, blank runs as one blank.
std::string fold(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

// A name's key (name_keys.hpp): the dictionary's and the text's, one function.
std::string tight(std::string_view s) { return detail::name_key(s); }

bool all_capitals(std::string_view s) {
  bool letter = false;
  for (char c : s) {
    if (c >= 'a' && c <= 'z') return false;
    letter = letter || (c >= 'A' && c <= 'Z');
  }
  return letter;
}

// The organism of the BEL namespaces that name genes by symbol.
const char *symbol_namespace(int64_t taxon) {
  switch (taxon) {
    case 9606: return "HGNC";
    case 10090: return "MGI";
    case 10116: return "RGD";
    case 4932:
    case 559292: return "SGD";
    default: return nullptr;
  }
}

std::string term_bel(const std::string &function, const std::string &ns, const std::string &value) {
  BelTerm e;
  e.kind = BelTerm::Kind::entity;
  e.ns = ns;
  e.name = value;
  BelTerm f;
  f.kind = BelTerm::Kind::function;
  f.name = function;
  f.args.push_back(std::move(e));
  return to_bel(f);
}

// The content words of a text (the library's tokenizer and stop words): words of at least four
// characters, not all digits, that are no common word of annotations or papers, sorted and
// distinct.
std::vector<std::string> content_words(std::string_view text) {
  static const std::unordered_set<std::string_view> kCommon = {
      "protein", "proteins", "role", "plays", "other", "when", "both", "bind", "binds", "binding", "involved",
      "activity", "function", "functions", "acts", "through", "during", "cells", "cell", "human", "gene", "genes",
      "family", "member", "subunit", "domain", "form", "forms", "required", "including", "expression", "expressed",
      "levels", "level", "process", "processes", "specific", "well", "mediates", "mediated", "regulates",
      "regulation", "regulatory", "complex", "interacts", "interaction", "associated", "probable", "putative",
      "belongs", "similarity", "isoform", "isoforms", "factor", "type"};
  std::vector<std::string> out;
  for (std::string &w : detail::words(text))
    if (w.size() >= 4 && !detail::is_stop_word(w) && !kCommon.count(w) && w.find_first_not_of("0123456789") != std::string::npos)
      out.push_back(std::move(w));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The spellings under which a span a document marks as a gene or protein is looked up, in
// order: as written, then its usual variants: parentheses dropped ("ET(A)": "ETA"), a Greek
// letter closing the name written as its Latin initial ("IFN-gamma": "IFNG"), a leading "h" for
// human dropped before a capital ("hGITR": "GITR"), roman numerals as digits ("IL-1RI":
// "IL-1R1", "dipeptidyl peptidase IV": "... 4"), a generic word after the name dropped ("Raf-1
// protein kinase"; kinase and phosphatase only after a name with a digit: "MAP kinase" is no
// MAP), an isoform's molecular weight before the name dropped ("p52Shc", "p110RB", "p47nck").
std::vector<std::string> annotated_spellings(const std::string &text) {
  std::vector<std::string> out = {text};
  const auto add = [&out](const std::string &k) {
    if (k.size() >= 2 && std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
  };
  std::string plain;
  for (char c : text)
    if (c != '(' && c != ')' && c != '[' && c != ']') plain.push_back(c);
  add(plain);
  const auto ends_with_word = [](const std::string &x, std::string_view w) {
    return x.size() > w.size() + 1 && detail::iequals(std::string_view(x).substr(x.size() - w.size()), w);
  };
  static const std::pair<const char *, char> kGreek[] = {{"alpha", 'A'}, {"beta", 'B'},  {"gamma", 'G'},
                                                         {"delta", 'D'}, {"kappa", 'K'}, {"epsilon", 'E'}};
  for (const auto &[word, initial] : kGreek)
    if (ends_with_word(plain, word)) {
      std::string head = plain.substr(0, plain.size() - std::char_traits<char>::length(word));
      while (!head.empty() && (head.back() == ' ' || head.back() == '-')) head.pop_back();
      add(head + initial);
    }
  if (plain.size() >= 4 && plain[0] == 'h' && std::isupper(static_cast<unsigned char>(plain[1]))) add(plain.substr(1));
  // Roman numerals: one closing the name after a capital ("IL-1RI", "PKAII"), or a word of its own.
  {
    static const std::pair<const char *, const char *> kRoman[] = {{"III", "3"}, {"II", "2"}, {"IV", "4"}, {"I", "1"}};
    for (const auto &[numeral, digit] : kRoman) {
      const std::size_t n = std::char_traits<char>::length(numeral);
      if (plain.size() > n + 1 && plain.compare(plain.size() - n, n, numeral) == 0 &&
          std::isupper(static_cast<unsigned char>(plain[plain.size() - n - 1])) && plain[plain.size() - n - 1] != 'I' &&
          plain[plain.size() - n - 1] != 'V') {
        add(plain.substr(0, plain.size() - n) + digit);
        break;
      }
    }
    std::string words, word;
    bool changed = false;
    for (std::size_t i = 0; i <= plain.size(); ++i) {
      const char c = i < plain.size() ? plain[i] : ' ';
      if (c != ' ' && c != '-') {
        word.push_back(c);
        continue;
      }
      for (const auto &[numeral, digit] : kRoman)
        if (word == numeral && !words.empty()) word = digit, changed = true;
      words += word;
      if (i < plain.size()) words.push_back(c);
      word.clear();
    }
    if (changed) add(words);
  }
  for (const char *tail : {" protein kinase", " protein", " gene product", " gene", " kinase", " phosphatase"}) {
    if (!ends_with_word(plain, tail)) continue;
    const std::string head = plain.substr(0, plain.size() - std::char_traits<char>::length(tail));
    const bool enzyme = std::string_view(tail) == " kinase" || std::string_view(tail) == " phosphatase";
    if (enzyme && head.find_first_of("0123456789") == std::string::npos) continue;
    add(head);
    break;
  }
  if (plain.size() >= 5 && plain[0] == 'p' && std::isdigit(static_cast<unsigned char>(plain[1])) &&
      std::isdigit(static_cast<unsigned char>(plain[2]))) {
    std::size_t i = 1;
    while (i < plain.size() && std::isdigit(static_cast<unsigned char>(plain[i]))) ++i;
    const std::string rest = plain.substr(i);
    const bool upper = !rest.empty() && std::isupper(static_cast<unsigned char>(rest[0]));
    if (rest.size() >= (upper ? 2u : 3u) && std::all_of(rest.begin(), rest.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
      add(rest);
  }
  return out;
}

using detail::words_key;

// The names a node's own names imply by the weight convention: a name written as an isoform's
// molecular weight and another of the node's names ("P27KIP1" is "p27" + "KIP1", "p57Kip2")
// names the node by its weight alone too, as papers do ("p27" for CDKN1B, which the gene table
// lists only as P27KIP1). Source "weight:" + the long name's source ("weight:name" for the
// preferred name). names[begin, end) are one node's.
std::vector<NodeName> weight_names(const std::vector<NodeName> &names, std::size_t begin, std::size_t end) {
  std::vector<NodeName> out;
  std::unordered_set<std::string> keys;
  for (std::size_t k = begin; k < end; ++k) keys.insert(tight(names[k].name));
  for (std::size_t k = begin; k < end; ++k) {
    const std::string &n = names[k].name;
    if (n.size() < 6 || (n[0] != 'p' && n[0] != 'P') || !std::isdigit(static_cast<unsigned char>(n[1])) ||
        !std::isdigit(static_cast<unsigned char>(n[2])))
      continue;
    std::size_t e = 1;
    while (e < n.size() && std::isdigit(static_cast<unsigned char>(n[e]))) ++e;
    if (e > 4 || n.size() - e < 3 || !std::isalpha(static_cast<unsigned char>(n[e])) || !keys.count(tight(n.substr(e))))
      continue;
    std::string head = "p" + n.substr(1, e - 1);
    if (keys.count(tight(head)) || std::any_of(out.begin(), out.end(), [&](const NodeName &x) { return x.name == head; }))
      continue;
    out.push_back({names[k].node, std::move(head), "weight:" + (names[k].source.empty() ? std::string("name") : names[k].source)});
  }
  return out;
}

// How much a name says which node it names (the linker's first rule), best first: a name a
// curated list gives for a text as written (FamPlex's grounding map), a preferred name or
// official symbol, a curated name in another case or spelling, a full name or an alias one node
// has, an alias several nodes share, a name derived from another.
enum NameTier : uint8_t { kCuratedAsWritten = 0, kSymbol = 1, kCurated = 2, kFullName = 3, kSharedAlias = 4, kDerived = 5 };

}  // namespace

// What kind of name a source gives: "symbol", "curated", "full_name", "alias" or "derived".
const char *detail::name_kind_of(std::string_view source) {
  if (source == "name" || source == "mapping:symbol") return "symbol";
  if (source.rfind("famplex:", 0) == 0) return "curated";
  if (source == "mapping:gene_name" || source == "description" || source.rfind("obo:synonym:", 0) == 0) return "full_name";
  if (source.rfind("derived:", 0) == 0 || source.rfind("weight:", 0) == 0) return "derived";
  return "alias";
}

namespace {

using detail::name_kind_of;

bool family_label(std::string_view label) { return label == "ProteinFamily" || label == "ProteinComplex"; }

// English words that are also a gene's name somewhere (tools/make_english_aliases.py): written all
// in lower case in a text, they are the word ("damage", "acting", "simple"), unless a gene's full
// name is that very word ("insulin").
const std::unordered_set<std::string_view> &english_words() {
  static const std::unordered_set<std::string_view> words = {
#include "store/english_aliases.inc"
  };
  return words;
}

bool lower_word(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// The words of a name as blanks and hyphens separate them, in lower case.
std::vector<std::string> separated_words(std::string_view s) { return detail::name_words(detail::lower_copy(s)); }

template <class Stop>
bool spelling_compatible(std::string_view name, std::string_view seen, const Stop &stop) {
  const auto has = [](std::string_view s, char c) { return s.find(c) != std::string_view::npos; };
  if (has(seen, ' ')) {
    // (words apart in the text are the name's words, as the name separates them: "IL 6" is "IL-6",
    // "or 160" is not "OR1-60"; a name of one word may be written apart, "IL 2", but not across
    // a stop word, "The G"; a Greek letter spelled apart may join its name: "NF kappa B")
    const std::vector<std::string> a = separated_words(seen);
    if (std::none_of(a.begin(), a.end(), [](const std::string &w) { return detail::greek_name(w); })) {
      if (has(name, ' ') || has(name, '-')) {
        if (a != separated_words(name)) return false;
      } else if (std::any_of(a.begin(), a.end(), [&](const std::string &w) { return stop.count(w) > 0; })) {
        return false;
      }
    }
  }
  for (std::size_t i = 1; i + 1 < seen.size(); ++i)
    if (seen[i] == '.' && std::isdigit(static_cast<unsigned char>(seen[i - 1])) &&
        std::isdigit(static_cast<unsigned char>(seen[i + 1])) && !has(name, '.'))
      return false;
  if ((has(seen, '/') && !has(name, '/')) || (has(seen, '_') && !has(name, '_'))) return false;
  // (a hyphen between numbers is a range, "NPHP1-9", no name written without it, NPHP19)
  for (std::size_t i = 1; i + 1 < seen.size(); ++i)
    if (seen[i] == '-' && std::isdigit(static_cast<unsigned char>(seen[i - 1])) &&
        std::isdigit(static_cast<unsigned char>(seen[i + 1])) && !has(name, '-'))
      return false;
  return true;
}

// Whether the word after a name makes it something else than the protein: a domain or a likeness
// ("C2 domain", "Src homology 2", "EGF-like", "hemopexin-like domain"), a method ("SDS-PAGE",
// "BLAST searches"), an epitope tag ("Myc-tagged"), a family ("the tumor necrosis factor family") or a receptor the dictionary
// does not name ("EGF-receptor", "tumor necrosis factor receptor"; one it names is the longer match).
bool not_the_protein_after(std::string_view text, std::size_t end) {
  std::size_t i = end;
  const bool hyphen = i < text.size() && text[i] == '-';
  while (i < text.size() && (text[i] == ' ' || text[i] == '-')) ++i;
  std::string next;
  for (; i < text.size() && std::isalpha(static_cast<unsigned char>(text[i])) && next.size() < 16; ++i)
    next.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text[i]))));
  // (a longer word, or one with digits, is none of these)
  if (i < text.size() && std::isalnum(static_cast<unsigned char>(text[i]))) return false;
  if (hyphen && next == "like") return true;
  static const std::unordered_set<std::string_view> words = {"domain", "domains", "homology", "motif", "motifs",
                                                             "page", "polyacrylamide", "search", "searches", "family",
                                                             "superfamily", "receptor", "receptors",
                                                             // (an epitope tag: "Myc-tagged", "HA tag")
                                                             "tag", "tagged", "epitope"};
  return words.count(next) > 0;
}

// An ion as chemists write it before its charge: "Ca2" of "Ca2+", "Mg2", "Fe3".
bool ion_like(std::string_view s) {
  if (s.size() < 2 || s.size() > 3 || !std::isupper(static_cast<unsigned char>(s[0]))) return false;
  for (std::size_t i = 1; i < s.size(); ++i)
    if (!(i == 1 ? std::islower(static_cast<unsigned char>(s[i])) || std::isdigit(static_cast<unsigned char>(s[i]))
                 : std::isdigit(static_cast<unsigned char>(s[i])) != 0))
      return false;
  return true;
}

// Names written with one stem for several ("ERK1/2", "NPHP1-9", "MMP-2 and -9", "SMADs 1, 5 and 8",
// "ORP-1 to ORP-6", "HDACs 1 and 2"): the texts of the further names (the stem, then each further
// number) and where the coordination ends; none when the numbers are a quantity ("IL-6 and 10
// patients", "p53 and 1.5", "5%"). `first_end` ends the first name's number; `stem` is what the
// further names take before their number.
struct Coordination {
  std::vector<std::string> names;
  std::size_t end = 0;
};

Coordination coordinated(std::string_view text, std::string_view stem, std::size_t first_end) {
  Coordination out;
  const std::size_t n = text.size();
  const auto digit = [&](std::size_t i) { return i < n && std::isdigit(static_cast<unsigned char>(text[i])) != 0; };
  std::size_t begin = first_end;
  while (begin > 0 && digit(begin - 1)) --begin;
  if (begin == first_end || first_end - begin > 3) return out;
  const auto value_of = [&](std::size_t from, std::size_t to) { return std::stoi(std::string(text.substr(from, to - from))); };
  // A number of one to three digits closing its word, not a decimal nor a percentage.
  const auto number_at = [&](std::size_t q, std::size_t &after) {
    std::size_t d = q;
    while (digit(d) && d - q < 3) ++d;
    if (d == q || (d < n && detail::word_char(text[d])) || (d < n && text[d] == '%') ||
        (d + 1 < n && (text[d] == '.' || text[d] == ',') && digit(d + 1)))
      return false;
    after = d;
    return true;
  };
  const auto at = [&](std::size_t q, std::string_view w) { return text.substr(q, w.size()) == w; };
  int last = value_of(begin, first_end);
  std::vector<int> kept, pending;  // (numbers after a comma count once an "and"/"or" closes the list)
  std::size_t p = first_end, end = first_end;
  for (;;) {
    bool range = false, comma = false;
    std::size_t q = 0, after = 0;
    if (at(p, "/")) q = p + 1;
    else if (at(p, "-") && last == 1) q = p + 1, range = true;
    else if (at(p, " to ")) q = p + 4, range = true;
    else if (at(p, ", and ")) q = p + 6;
    else if (at(p, ", or ")) q = p + 5;
    else if (at(p, " and ")) q = p + 5;
    else if (at(p, " or ")) q = p + 4;
    else if (at(p, ", ")) q = p + 2, comma = true;
    else break;
    // (the stem again, or its hyphen: "ORP-1 to ORP-6", "MMP-2 and -9")
    if (!stem.empty() && at(q, stem) && !range) break;  // (a name of its own: the scan finds it)
    if (!stem.empty() && at(q, stem)) q += stem.size();
    else if (at(q, "-") && !stem.empty() && stem.back() == '-') ++q;
    if (!number_at(q, after)) break;
    const int v = value_of(q, after);
    if (range) {
      if (v <= last || v - last > 12) break;
      for (int k = last + 1; k <= v; ++k) pending.push_back(k);
    } else {
      pending.push_back(v);
    }
    if (!comma) {
      kept.insert(kept.end(), pending.begin(), pending.end());
      pending.clear();
      end = after;
    }
    last = v;
    p = after;
  }
  if (kept.empty() || kept.size() > 16) return out;
  // (a count of things or a unit after a listed number: "IL-6 and 10 patients", "p21 and 30 kDa")
  std::size_t w = end;
  while (w < n && text[w] == ' ') ++w;
  std::string next;
  for (; w < n && std::isalpha(static_cast<unsigned char>(text[w])) && next.size() < 16; ++w)
    next.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text[w]))));
  static const std::unordered_set<std::string_view> counted = {
      "patients", "cases", "subjects", "individuals", "families", "donors", "controls", "volunteers", "children",
      "women", "men", "people", "mice", "rats", "animals", "cells", "samples", "tumors", "tumours", "specimens",
      "times", "fold", "days", "weeks", "months", "years", "hours", "minutes", "h", "min", "d", "kda", "kb", "bp",
      "nt", "aa", "mg", "ml", "nm", "mm", "other", "others", "more", "of", "percent"};
  if (w > end && counted.count(next)) return out;
  for (int k : kept) out.names.push_back(std::string(stem) + std::to_string(k));
  out.end = end;
  return out;
}

// A Greek letter's name and a number, nothing else ("beta2", "alpha1", "gamma2").
bool greek_and_number(std::string_view s) {
  if (s.size() < 3 || s.size() > 9 || !std::isdigit(static_cast<unsigned char>(s.back()))) return false;
  std::size_t d = 0;
  while (d < s.size() && std::isalpha(static_cast<unsigned char>(s[d]))) ++d;
  if (d == 0 || d == s.size() || s.size() - d > 2) return false;
  for (std::size_t i = d; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return detail::greek_name(detail::lower_copy(s.substr(0, d)));
}

// Yeast's taxa (SGD's protein style, "Cdc28p", is theirs).
bool yeast_taxon(int64_t taxon) { return taxon == 4932 || taxon == 559292; }

// A tool of the two-hybrid and reporter assays, as written.
bool assay_tool(std::string_view seen) {
  static const std::unordered_set<std::string> tools = {"gal4", "gal1", "gal80", "lexa", "vp16"};
  return seen.size() <= 5 && tools.count(detail::lower_copy(seen)) > 0;
}

// A unit after a number ("a 2 Mb region", "a 50-kDa protein", "30 kb"): MB is myoglobin, KB no gene.
bool unit_after_number(std::string_view text, std::size_t begin, std::size_t end) {
  static const std::unordered_set<std::string_view> units = {"Mb", "kb", "Kb", "kDa", "KDa", "MDa", "Da", "bp",
                                                            "cM", "nt", "aa", "Gy", "mM", "nM", "pM", "uM", "IU"};
  if (!units.count(text.substr(begin, end - begin)) || begin < 2) return false;
  const std::size_t before = begin - 1;
  return (text[before] == ' ' || text[before] == '-') && std::isdigit(static_cast<unsigned char>(text[before - 1]));
}

// Two or three capital letters and nothing else ("TAX", "NBS").
bool short_capitals(std::string_view s) {
  return s.size() >= 2 && s.size() <= 3 && std::all_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

// Whether a text begins with an "h" for human before a capital ("hZIP2", "hERG", "hTERT").
bool human_prefixed(std::string_view t) { return t.size() >= 3 && t[0] == 'h' && std::isupper(static_cast<unsigned char>(t[1])); }

// A name's content words (letters and digits, lower case, four characters or more).
std::set<std::string> name_content(std::string_view name) {
  std::set<std::string> out;
  for (const std::string &w : detail::name_words(detail::lower_copy(name))) {
    std::string x;
    for (char c : w)
      if (std::isalnum(static_cast<unsigned char>(c))) x.push_back(c);
    if (x.size() >= 4) out.insert(x);
  }
  return out;
}

// What a name ends with when it numbers one of a series: the number ("transporter 3", "IL-6"), as the
// linker's derived names write it too ("transporter III"; "receptor alpha" for 1 and "beta" for 2,
// as "estrogen receptor 1" is "estrogen receptor alpha"), or another Greek letter, with the word it
// numbers ("transporter"). Empty when the name ends otherwise.
struct SeriesNumber {
  std::string word, number;
};

SeriesNumber final_number(std::string_view name) {
  std::vector<std::string_view> runs;  // the name's runs of letters and digits
  for (std::size_t i = 0; i < name.size();) {
    if (!std::isalnum(static_cast<unsigned char>(name[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < name.size() && std::isalnum(static_cast<unsigned char>(name[j]))) ++j;
    runs.push_back(name.substr(i, j - i));
    i = j;
  }
  const auto digits = [](std::string_view r) { return r.find_first_not_of("0123456789") == std::string_view::npos; };
  const auto word_at = [&](std::size_t k) { return k < runs.size() ? detail::lower_copy(runs[k]) : std::string(); };
  if (runs.size() < 2) return {};
  const std::size_t last = runs.size() - 1;
  const std::string_view run = runs[last];
  if (digits(run)) return {word_at(last - 1), std::to_string(std::stoul(std::string(run.substr(0, 9))))};
  static const char *const kRoman[] = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"};
  for (int n = 0; n < 10; ++n)
    if (run == kRoman[n]) return {word_at(last - 1), std::to_string(n + 1)};
  const std::string lower = detail::lower_copy(run);
  if (!detail::greek_name(lower)) return {};
  // (after a number the letter names a member of what the number numbers: "interleukin 1 alpha"
  // is not "interleukin-1")
  if (digits(runs[last - 1]))
    return {last >= 2 ? word_at(last - 2) : std::string(), std::string(runs[last - 1]) + " " + lower};
  return {word_at(last - 1), lower == "alpha" ? "1" : lower == "beta" ? "2" : lower};
}

// Whether two names number one series differently ("L-type amino acid transporter 3" and "y+L amino
// acid transporter 1"; not "... phosphatase-1" and "... non-receptor type 6": other series).
bool other_member(const SeriesNumber &x, const SeriesNumber &y) {
  return !x.number.empty() && !y.number.empty() && !x.word.empty() && x.word == y.word && x.number != y.number;
}

}  // namespace


// Each node's entries, and how many nodes' full names have each word.
void EntityTagger::Impl::index_entries() {
  node_entries.assign(nodes.size(), {});
  for (uint32_t e = 0; e < entries.size(); ++e) node_entries[entries[e].node].push_back(e);
  for (uint32_t index = 0; index < nodes.size(); ++index) {
    std::set<std::string> words;
    for (uint32_t e : node_entries[index])
      if (std::string_view(entries[e].kind) == "full_name")
        for (std::string &w : separated_words(entries[e].name)) words.insert(std::move(w));
    for (const std::string &w : words) ++full_name_words[w];
  }
}

void EntityTagger::Impl::add_entry(uint32_t index, const std::string &name, const std::string &source, bool term) {
  const std::string key = tight(name);
  if (key.size() < options.min_length || (term && key.size() < options.min_term_length)) return;
  // (a name of digits alone is a number, unless a curated list writes it with hyphens: FamPlex's "14-3-3", "9-1-1")
  if (key.find_first_not_of("0123456789 .,-") == std::string::npos &&
      !(std::string_view(name_kind_of(source)) == "curated" && name.find('-') != std::string::npos))
    return;
  auto &list = by_name[key];
  // (a name a node has twice keeps the source that says most: FamPlex's "SRC" for SRC beside its
  // preferred name)
  static const char *const kOrder[] = {"curated", "symbol", "full_name", "alias", "derived"};
  const auto rank = [](std::string_view kind) {
    return static_cast<std::size_t>(std::find(std::begin(kOrder), std::end(kOrder), kind) - std::begin(kOrder));
  };
  for (uint32_t e : list)
    if (entries[e].node == index && entries[e].name == name) {
      if (rank(name_kind_of(source)) < rank(entries[e].kind)) {
        entries[e].source = source;
        entries[e].kind = name_kind_of(source);
      }
      return;
    }
  list.push_back(static_cast<uint32_t>(entries.size()));
  if (const std::string words = words_key(name); !words.empty()) by_words[words].push_back(static_cast<uint32_t>(entries.size()));
  entries.push_back({index, name, source, name_kind_of(source)});
  max_chars = std::max(max_chars, key.size());
  std::size_t name_words = 0;  // (blank-separated)
  for (std::size_t ch = 0; ch < name.size(); ++ch)
    name_words += !std::isspace(static_cast<unsigned char>(name[ch])) && (ch == 0 || std::isspace(static_cast<unsigned char>(name[ch - 1])));
  max_words = std::max(max_words, name_words);
}

// A family's or complex's members as the FamPlex importer stored them (attributes "famplex":
// {"members": [{"ns", "id", "relation"}]}): HGNC symbols as human proteins' preferred names or
// official symbols, UniProt accessions as aliases, FPLX ids as the families' nodes.
void EntityTagger::Impl::resolve_members(const KnowledgeGraph &kg) {
  std::unordered_map<std::string, uint32_t> human_symbols, by_external;
  const auto human = [&](uint32_t i) { return nodes[i].base.label == "Protein" && nodes[i].base.taxon == 9606; };
  for (uint32_t i = 0; i < nodes.size(); ++i)
    if (human(i)) human_symbols.emplace(nodes[i].base.name, i);
  for (const Entry &e : entries)
    if (e.source == "mapping:symbol" && human(e.node)) human_symbols.emplace(e.name, e.node);
  for (uint32_t i = 0; i < nodes.size(); ++i)
    if (family_label(nodes[i].base.label)) by_external.emplace(nodes[i].base.id, i);
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    NodeInfo &f = nodes[i];
    if (!family_label(f.base.label)) continue;
    const std::optional<Node> n = kg.node(f.base.node);
    if (!n) continue;
    const auto attributes = nlohmann::json::parse(n->attributes, nullptr, false);
    if (!attributes.is_object() || !attributes.contains("famplex") || !attributes["famplex"].is_object()) continue;
    const nlohmann::json &fam = attributes["famplex"];
    if (!fam.contains("members") || !fam["members"].is_array()) continue;
    for (const auto &x : fam["members"]) {
      if (!x.is_object()) continue;
      const std::string ns = x.value("ns", std::string()), id = x.value("id", std::string());
      std::optional<uint32_t> member;
      if (ns == "HGNC") {
        if (const auto it = human_symbols.find(id); it != human_symbols.end()) member = it->second;
      } else if (ns == "FPLX") {
        if (const auto it = by_external.find("FPLX:" + id); it != by_external.end()) member = it->second;
      } else if (ns == "UP") {
        if (const auto it = by_id.find(fold(id)); it != by_id.end())
          for (uint32_t k : it->second)
            if (nodes[k].base.label == "Protein") member = k;
      }
      if (member && *member != i && std::find(f.members.begin(), f.members.end(), *member) == f.members.end())
        f.members.push_back(*member);
    }
  }
}

namespace {

// Every option of a tagger, a list's items separated by a byte no name holds.
std::string options_key(const EntityTaggerOptions &options) {
  std::string key = std::to_string(options.taxon) + ' ' + std::to_string(options.min_length) + ' ' +
                    std::to_string(options.min_term_length) + ' ' + (options.any_case ? '1' : '0');
  for (const auto *list : {&options.labels, &options.stop_words}) {
    key += '\x01';
    for (const std::string &s : *list) key += s + '\x02';
  }
  return key;
}

// "<db>.names.<options>" beside a database file that keeps its snapshot in "<db>.csr", one per
// set of options (a question's linker, resolve's and a paper's differ: each command would
// otherwise replace the others' file); none otherwise.
std::string names_file(const KnowledgeGraph &kg, const EntityTaggerOptions &options) {
  if (detail::GraphAccess::impl(kg).snapshot_cache.empty()) return {};
  const std::string key = options_key(options);
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(detail::checksum(0, key.data(), key.size()) & 0xffffffffu));
  return kg.path() + ".names." + hex;
}

// What the dictionary is derived from: the library's build (its rules), the database (its
// instance and generation: every write changes it), the snapshot's content and the options.
std::string names_key(const KnowledgeGraph &kg, uint64_t generation, const GraphSnapshot &snap,
                      const EntityTaggerOptions &options) {
  std::string instance;
  {
    KnowledgeGraph::Impl &store = detail::GraphAccess::impl(kg);
    std::lock_guard<std::mutex> lock(store.mu);
    instance = detail::instance_of(store.db);
  }
  if (instance.empty()) return {};  // (a database made before instances were kept: no file)
  return detail::build_identity() + '\n' + instance + '\n' + std::to_string(generation) + '\n' +
         std::to_string(snap.fingerprint()) + '\n' + options_key(options);
}

}  // namespace

EntityTagger::EntityTagger(const KnowledgeGraph &kg, EntityTaggerOptions options) : impl_(std::make_unique<Impl>()) {
  if (options.min_length < 2)
    throw Error(ErrorCode::invalid_argument, "entity tagger: min_length must be at least 2 (got " +
                                                 std::to_string(options.min_length) + ")");
  if (options.labels.empty()) options.labels = {"Protein", "OntologyTerm", "ProteinFamily", "ProteinComplex"};
  Impl &m = *impl_;
  m.options = options;
  for (const char *w : kStopWords) m.stop.insert(tight(w));
  for (const auto &w : options.stop_words) m.stop.insert(tight(w));
  // The dictionary "<db>.names" keeps when it was derived from this very content, with these
  // options, by this build of the library; else derived here and kept there.
  const uint64_t generation = kg.generation();  // (before reading: a later write makes the key stale)
  m.snapshot = kg.snapshot();
  const std::string path = names_file(kg, options);
  const std::string key = path.empty() ? std::string() : names_key(kg, generation, *m.snapshot, options);
  if (!key.empty() && m.load(path, key)) return;
  m.build(kg);
  if (!key.empty()) m.save(path, key);
}

// The dictionary derived from the knowledge graph's names, annotations and FamPlex's lists.
void EntityTagger::Impl::build(const KnowledgeGraph &kg) {
  Impl &m = *this;
  const BelEntityResolver resolver = kg.bel_resolver();
  const std::vector<NodeName> names = kg.names(options.labels);
  const std::shared_ptr<const GraphSnapshot> snap = snapshot;
  // The nodes, each with the range of its names.
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (std::size_t i = 0; i < names.size();) {
    const int64_t node = names[i].node;
    std::size_t j = i;
    while (j < names.size() && names[j].node == node) ++j;
    // (the node's name, id and label from the snapshot: no query per node)
    const std::optional<uint32_t> at = snap->index_of(node);
    if (!at) {
      i = j;
      continue;
    }
    EntityCandidate c;
    c.node = node;
    c.id = snap->external_id(*at);
    c.name = snap->name(*at);
    c.label = snap->label(*at);
    c.taxon = detail::taxon_of(c.id);
    const bool term = c.label == "OntologyTerm";
    if (c.label == "Protein") {
      if (const char *ns = symbol_namespace(c.taxon)) {
        c.ns = ns;
        c.value = c.name;
        if (resolver && c.ns == "HGNC")
          if (auto id = resolver("HGNC", c.name)) c.value = id->label;
        if (c.ns == "SGD")
          for (std::size_t k = i; k < j; ++k)
            if (names[k].source == "SGD_ID" && names[k].name.size() == 10 && names[k].name[0] == 'S' &&
                names[k].name.find_first_not_of("0123456789", 1) == std::string::npos) {
              c.url = "https://identifiers.org/sgd:" + names[k].name;
              break;
            }
      } else {
        for (std::size_t k = i; k < j; ++k)
          if (names[k].source.find("UniProt_AC") != std::string::npos) {
            c.ns = "UniProt";
            c.value = names[k].name;
            break;
          }
      }
      if (!c.ns.empty()) c.function = "p";
    } else if (family_label(c.label)) {
      // FamPlex's families and complexes (grappi import --famplex): human, p(FPLX:...) and
      // complex(FPLX:...) in BEL.
      c.taxon = 9606;
      if (c.id.rfind("FPLX:", 0) == 0) {
        c.function = c.label == "ProteinComplex" ? "complex" : "p";
        c.ns = "FPLX";
        c.value = c.id.substr(5);
      }
    } else if (term) {
      const std::string prefix = detail::upper_copy(c.id.substr(0, c.id.find(':')));
      std::string space;  // (GO's namespace, from the term's attributes)
      if (prefix == "GO")
        if (const std::optional<Node> n = kg.node(node)) {
          const auto attributes = nlohmann::json::parse(n->attributes, nullptr, false);
          if (attributes.is_object()) space = attributes.value("namespace", std::string());
        }
      if (prefix == "GO" && space == "biological_process") c.function = "bp";
      else if (prefix == "GO" && space == "cellular_component" && c.name.size() > 8 &&
               c.name.compare(c.name.size() - 8, 8, " complex") == 0)
        c.function = "complex";
      else if (prefix == "CHEBI") c.function = "a";
      else if (prefix == "DOID" || prefix == "HP" || prefix == "MONDO") c.function = "path";
      if (!c.function.empty()) {
        c.ns = prefix;
        c.value = c.name;
      }
    }
    if (!c.ns.empty()) c.bel = term_bel(c.function, c.ns, c.value);
    m.index_of.emplace(node, static_cast<uint32_t>(m.nodes.size()));
    Impl::NodeInfo info;
    info.base = std::move(c);
    info.connected = snap->adjacency(*at).size > 0;
    m.nodes.push_back(std::move(info));
    ranges.emplace_back(i, j);
    i = j;
  }
  // The annotations (one read, not one query per node): a protein's first clause is its full
  // name ("Microtubule-associated protein tau; ..."); the rest tells apart the nodes a name may
  // confuse.
  std::vector<std::string> annotations(m.nodes.size());
  {
    KnowledgeGraph::Impl &store = detail::GraphAccess::impl(kg);
    std::lock_guard<std::mutex> lock(store.mu);
    detail::Stmt st(store.db, "SELECT id, annotation FROM nodes WHERE annotation <> ''");
    while (st.step())
      if (const auto it = m.index_of.find(st.col_int(0)); it != m.index_of.end()) annotations[it->second] = st.col_text(1);
  }
  const std::vector<std::string> descriptions = m.description_names(annotations);
  const auto description_of = [&](uint32_t index) { return descriptions[index]; };
  // Full names numbered 1 with no sibling numbered otherwise ("catenin beta 1" is the one "catenin
  // beta"; "presenilin 1" has "presenilin 2").
  std::unordered_map<std::string, std::set<std::string>> numbers;  // a full name's stem's key -> its numbers
  const auto full_name = [](const NodeName &n) { return n.source == "mapping:gene_name"; };
  // (a sibling's number may stand inside its name: "DNA methyltransferase 3 alpha" beside
  // "DNA methyltransferase 1")
  const auto add_numbers = [&](const std::string &full) {
    if (auto [stem, number] = detail::numbered_stem(full); !stem.empty()) numbers[tight(stem)].insert(number);
    for (std::size_t at = full.find(' '); at != std::string::npos; at = full.find(' ', at + 1)) {
      std::size_t d = at + 1;
      while (d < full.size() && std::isdigit(static_cast<unsigned char>(full[d]))) ++d;
      if (d > at + 1 && d < full.size() && full[d] == ' ') numbers[tight(full.substr(0, at))].insert(full.substr(at + 1, d - at - 1));
    }
  };
  for (uint32_t index = 0; index < m.nodes.size(); ++index) {
    for (std::size_t k = ranges[index].first; k < ranges[index].second; ++k)
      if (full_name(names[k])) add_numbers(names[k].name);
    if (const std::string d = description_of(index); !d.empty()) add_numbers(d);
  }
  const auto lone_one = [&](const std::string &full) {
    const auto [stem, number] = detail::numbered_stem(full);
    const auto it = stem.empty() ? numbers.end() : numbers.find(tight(stem));
    return it != numbers.end() && it->second.size() == 1;
  };
  for (uint32_t index = 0; index < m.nodes.size(); ++index) {
    const std::size_t i = ranges[index].first, j = ranges[index].second;
    const bool term = m.nodes[index].base.label == "OntologyTerm";
    std::vector<NodeName> own = weight_names(names, i, j);
    const auto derive = [&](const std::string &full) {
      for (detail::DerivedName &d : detail::full_name_variants(full, lone_one(full)))
        own.push_back({names[i].node, std::move(d.name), "derived:" + d.how});
    };
    for (std::size_t k = i; k < j; ++k) {
      const NodeName &nm = names[k];
      if (full_name(nm)) derive(nm.name);
      else if (!term && (nm.source.empty() || detail::name_like_alias(nm.name)))
        for (detail::DerivedName &d : detail::slash_variants(nm.name)) own.push_back({nm.node, std::move(d.name), "derived:" + d.how});
    }
    if (const std::string d = description_of(index); !d.empty()) {
      own.push_back({names[i].node, d, "description"});
      derive(d);
    }
    for (std::size_t k = i; k < j + own.size(); ++k) {
      const NodeName &nm = k < j ? names[k] : own[k - j];
      const bool preferred = nm.source.empty();
      const bool synonym = nm.source.rfind("obo:synonym:", 0) == 0;
      if (!preferred && nm.source.find("PDB") != std::string::npos) continue;
      const bool curated = nm.source.rfind("famplex:", 0) == 0;
      if (!preferred && !curated && !(synonym ? (nm.source == "obo:synonym:EXACT" || nm.source == "obo:synonym:NARROW")
                                               : detail::name_like_alias(nm.name))) {
        // Identifiers (an Entrez id, "HGNC:391") find an annotation's concept id.
        if (!synonym && nm.name.size() <= 40) m.by_id[fold(nm.name)].push_back(index);
        continue;
      }
      m.add_entry(index, nm.name, preferred ? "name" : nm.source, term);
    }
  }
  m.resolve_members(kg);
  {
    std::map<int64_t, std::size_t> proteins;
    for (const Impl::NodeInfo &n : m.nodes)
      if (n.base.taxon && n.base.label == "Protein") ++proteins[n.base.taxon];
    std::size_t most = 0;
    for (const auto &[taxon, count] : proteins) {
      m.taxa.insert(taxon);
      if (count > most) most = count, m.dominant = taxon;
    }
  }
  m.index_entries();
  // (a name may be written in more words than stored: "NF kappa B" for "NFkappaB")
  m.max_words = std::min<std::size_t>(std::max<std::size_t>(m.max_words, 4), 8);
  m.sorted_keys.reserve(m.by_name.size());
  for (const auto &[key, hits] : m.by_name) m.sorted_keys.push_back(key);
  std::sort(m.sorted_keys.begin(), m.sorted_keys.end());
  // The texts FamPlex grounds to no gene ("LPS"), kept by its import in the dataset's options.
  {
    KnowledgeGraph::Impl &store = detail::GraphAccess::impl(kg);
    std::lock_guard<std::mutex> lock(store.mu);
    detail::Stmt st(store.db, "SELECT options FROM datasets WHERE format = 'famplex'");
    while (st.step()) {
      const auto o = nlohmann::json::parse(st.col_text(0), nullptr, false);
      if (!o.is_object() || !o.contains("not_genes") || !o["not_genes"].is_object()) continue;
      for (const auto &[text, what] : o["not_genes"].items())
        if (what.is_string()) m.not_genes.emplace(text, what.get<std::string>());
    }
  }
  // The annotations' content words of the nodes a name may confuse.
  std::vector<char> shared(m.nodes.size(), 0);
  for (const auto &[key, hits] : m.by_name)
    for (uint32_t e : hits)
      if (m.entries[e].node != m.entries[hits.front()].node) shared[m.entries[e].node] = shared[m.entries[hits.front()].node] = 1;
  for (const auto &[key, named] : m.by_id)
    for (uint32_t n : named)
      if (n != named.front()) shared[n] = shared[named.front()] = 1;
  for (uint32_t index = 0; index < m.nodes.size(); ++index)
    if (shared[index] && !annotations[index].empty()) m.nodes[index].words = content_words(annotations[index]);
}

// Each protein's first annotation clause when it reads as a name, else empty: marked as a name
// (detail::name_like_description), or one no other protein has with a rare word of its own
// ("Glucocorticoid receptor", "Neuromodulin", "Synaptophysin"; not "Transcription factor", nor a
// clause of English words: "Serum albumin" is left to the gene table).
std::vector<std::string> EntityTagger::Impl::description_names(const std::vector<std::string> &annotations) const {
  std::vector<std::string> clause(nodes.size());
  for (uint32_t index = 0; index < nodes.size(); ++index) {
    if (nodes[index].base.label != "Protein") continue;
    const std::string &a = annotations[index];
    clause[index] = detail::trim_copy(std::string_view(a).substr(0, a.find(';')));
    while (!clause[index].empty() && clause[index].back() == '.') clause[index].pop_back();
  }
  std::unordered_map<std::string, uint32_t> clauses, clause_words;
  for (const std::string &c : clause) {
    if (c.empty()) continue;
    const std::string lower = detail::lower_copy(c);
    ++clauses[lower];
    for (const std::string &w : name_content(lower)) ++clause_words[w];
  }
  constexpr uint32_t kRareClauseWord = 5;
  const auto rare_name = [&](const std::string &c) {
    const std::string lower = detail::lower_copy(c);
    const std::set<std::string> words = name_content(lower);
    if (words.empty() || words.size() > 4 || clauses[lower] != 1 || c.size() > 60) return false;
    for (const char *open : {"uncharacterized", "uncharacterised", "putative", "probable", "hypothetical", "protein "})
      if (lower.rfind(open, 0) == 0) return false;
    if (lower.find_first_of(",()[]/") != std::string::npos) return false;
    return std::any_of(words.begin(), words.end(),
                       [&](const std::string &w) { return english_words().count(w) == 0 && clause_words[w] <= kRareClauseWord; });
  };
  for (uint32_t index = 0; index < nodes.size(); ++index) {
    std::string &c = clause[index];
    if (c.empty() || detail::iequals(c, nodes[index].base.name) || !(detail::name_like_description(c) || rare_name(c))) c.clear();
  }
  return clause;
}

EntityTagger::~EntityTagger() = default;

std::shared_ptr<const EntityTagger> EntityTagger::shared(const KnowledgeGraph &kg, const EntityTaggerOptions &options) {
  return detail::derived<EntityTagger>(kg, options_key(options), [&] { return std::make_shared<const EntityTagger>(kg, options); });
}

std::size_t EntityTagger::names() const { return impl_->by_name.size(); }

std::vector<EntityCandidate> EntityTagger::by_id(std::string_view id) const { return impl_->ids_of(id); }

std::vector<EntityCandidate> EntityTagger::Impl::ids_of(std::string_view id) const {
  std::vector<EntityCandidate> out;
  const auto it = by_id.find(fold(detail::trim_copy(id)));
  if (it == by_id.end()) return out;
  std::vector<uint32_t> found = it->second;
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  for (uint32_t i : found) {
    out.push_back(nodes[i].base);
    out.back().matched = std::string(id);
    out.back().source = "annotation_id";
  }
  return out;
}

const EntityTaggerOptions &EntityTagger::options() const { return impl_->options; }

// The candidates of a dictionary hit as written (`seen`): the case rule applied to each name,
// one candidate per node, those matched in the exact case and by preferred name first.
std::vector<EntityCandidate> EntityTagger::Impl::candidates(const std::vector<uint32_t> &hits, std::string_view seen,
                                                            bool any_case) const {
  struct Ranked {
    int rank;
    unsigned tier;
    uint32_t entry;
  };
  // (an alias is shared when another node has it too)
  std::unordered_set<uint32_t> alias_nodes;
  for (uint32_t e : hits)
    if (std::string_view(entries[e].kind) == "alias") alias_nodes.insert(entries[e].node);
  // A text a curated list gives to no gene ("LPS") is no gene's alias.
  const bool not_gene = not_genes.count(std::string(seen)) > 0;
  // (an English word in lower case is the word, unless a full name is that word: "insulin")
  // (in papers: a question is written in lower case, "does tau bind ...", and has its own stop words)
  const bool paper = !any_case && !options.any_case;
  const bool english = paper && lower_word(seen) && english_words().count(seen) > 0;
  const auto common = paper && lower_word(seen) ? full_name_words.find(std::string(seen)) : full_name_words.end();
  const bool generic = paper && common != full_name_words.end() && common->second >= 3;
  const bool small_letters = paper && !all_capitals(seen);
  const bool tool = paper && assay_tool(seen);
  // (a Greek letter spelled as a word of its own is the letter, which a name with that letter
  // writes in either case: "A beta" may be Abeta or Aβ; the case rule reads the word as a capital.
  // Not for a name without the letter, whose key has it only as an initial: "The gamma" is no THEG)
  std::string case_seen(seen);
  std::vector<std::string> spelled;  // the Greek letters so read
  if (case_seen.find(' ') != std::string::npos)
    for (std::size_t i = 0; i < case_seen.size(); ++i) {
      if (i > 0 && case_seen[i - 1] != ' ') continue;
      const std::string word = case_seen.substr(i, std::min(case_seen.find(' ', i), case_seen.size()) - i);
      if (!lower_word(word) || !detail::greek_name(word)) continue;
      case_seen[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(case_seen[i])));
      spelled.push_back(word);
    }
  // (only beside a word written as a name is: "a beta" in small letters is running text)
  if (std::none_of(seen.begin(), seen.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)); }))
    spelled.clear();
  const auto greek_in = [&](const std::string &name) {
    if (spelled.empty()) return false;
    const std::string lower = detail::lower_copy(name);
    for (std::size_t i = 0; i + 1 < name.size(); ++i)
      if (const char *g = detail::greek_letter(static_cast<unsigned char>(name[i]), static_cast<unsigned char>(name[i + 1])))
        if (std::find(spelled.begin(), spelled.end(), g) != spelled.end()) return true;
    return std::any_of(spelled.begin(), spelled.end(), [&](const std::string &g) { return lower.find(g) != std::string::npos; });
  };
  std::vector<Ranked> kept;
  for (uint32_t e : hits) {
    const Entry &en = entries[e];
    if (!options.any_case && !any_case &&
        !detail::case_compatible(en.name, greek_in(en.name) ? std::string_view(case_seen) : seen))
      continue;
    if (!any_case && !spelling_compatible(en.name, seen, stop)) continue;
    const std::string_view kind = en.kind;
    if (english && !((kind == "full_name" || kind == "curated") && detail::iequals(en.name, seen))) continue;
    // (a word many genes' full names have is a word of biology, not this gene's alias: "homeobox",
    // "peptidase")
    if (generic && (kind == "alias" || kind == "derived")) continue;
    if (not_gene && kind != "symbol" && kind != "curated") continue;
    // (a short capital alias written with small letters is another word: "Tax" (HTLV's, not CNTN2's
    // TAX), "Fab", "Abs", "NBs"; a gene's own symbol so written stays: "Myc", "Fas")
    if (small_letters && kind == "alias" && short_capitals(en.name)) continue;
    // (a Greek letter and a number alone name a subunit of whatever the sentence is about: "beta2",
    // "alpha1", "gamma2" are NEUROD1's, ADRA1D's, WARS1's aliases only in a gene table)
    if (paper && kind == "alias" && greek_and_number(en.name)) continue;
    // (yeast's GAL4, GAL1 and GAL80, E. coli's LexA and herpes' VP16 are tools of the two-hybrid and
    // reporter assays in papers about other organisms: no namesake of another organism)
    if (tool && !yeast_taxon(nodes[en.node].base.taxon)) continue;
    const bool exact = en.name == seen;
    unsigned tier = kind == "curated"     ? (exact ? kCuratedAsWritten : kCurated)
                    : kind == "symbol"    ? kSymbol
                    : kind == "full_name" ? kFullName
                    // (a weight alone, "p27" of CDKN1B's "P27KIP1", is as good as the alias
                    // other genes share: the passage decides)
                    : kind == "derived"   ? (en.source.rfind("weight:", 0) == 0 ? kSharedAlias : kDerived)
                                          : (alias_nodes.size() > 1 ? kSharedAlias : kFullName);
    const int writing = exact ? 0 : detail::iequals(en.name, seen) ? 1 : 2;
    kept.push_back({static_cast<int>(tier) * 3 + writing, tier, e});
  }
  std::stable_sort(kept.begin(), kept.end(), [&](const Ranked &a, const Ranked &b) {
    if (a.rank != b.rank) return a.rank < b.rank;
    return nodes[entries[a.entry].node].base.node < nodes[entries[b.entry].node].base.node;
  });
  std::vector<EntityCandidate> out;
  std::unordered_set<uint32_t> done;
  for (const Ranked &r : kept) {
    const Entry &en = entries[r.entry];
    if (!done.insert(en.node).second) continue;
    EntityCandidate c = nodes[en.node].base;
    c.matched = en.name;
    c.source = en.source;
    c.name_kind = en.kind;
    c.tier = r.tier;
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<EntityMention> EntityTagger::Impl::scan(std::string_view original) const {
  std::vector<EntityMention> out;
  // (Unicode dashes, quotes and spaces as ASCII of the same length: offsets are the original's)
  const std::string ascii = detail::ascii_punctuation(original);
  const std::string_view text = ascii;
  const std::size_t n = text.size();
  for (std::size_t s = 0; s < n;) {
    if (!detail::word_char(text[s]) || (s > 0 && detail::word_char(text[s - 1]))) {
      ++s;
      continue;
    }
    // The key grows a character at a time (name_key(): no blanks or punctuation inside names,
    // Greek letters as symbols write them); it is looked up wherever a word ends.
    detail::NameKey name;
    std::size_t words = 1, best_end = 0;
    std::vector<EntityCandidate> best;
    bool space = false;
    for (std::size_t e = s; e < n && e - s < 4 * max_chars + 16; ++e) {
      const char c = text[e];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        if (c == '\n' && space) break;  // (not across a blank line)
        space = true;
        name.push(text, e);
        continue;
      }
      if (space) {
        if (++words > max_words) break;
        space = false;
      }
      const std::size_t took = name.push(text, e);
      e += took - 1;  // (a Greek letter's second byte)
      if (name.size() > max_chars + 8) break;
      // (a name ends where a word does)
      if (took == 1 && !detail::word_char(c)) continue;
      // (a number before a hyphen and a number may end a name: "NPHP1" of "NPHP1-9")
      if (e + 1 < n && detail::word_char(text[e + 1]) &&
          !(e + 2 < n && text[e + 1] == '-' && std::isdigit(static_cast<unsigned char>(c)) &&
            std::isdigit(static_cast<unsigned char>(text[e + 2]))))
        continue;
      const std::string key = name.key();
      const std::string_view seen = text.substr(s, e + 1 - s);
      // (a possessive is no part of the name before it: "APP's partners" names APP, not the alias APPS)
      if (!best.empty() && e >= s + 2 && text[e] == 's' && text[e - 1] == '\'') continue;
      std::vector<EntityCandidate> cands;
      if (auto it = by_name.find(key); it != by_name.end()) {
        bool stopped = false;
        if (stop.count(key)) {
          // A stop word counts only in capitals and naming a symbol ("SET", "CAT"), or as the
          // own name of a concept that is no protein or ontology term (a co-occurrence graph's
          // "tumor", MESH:D009369: the word is what the concept is called, not an alias).
          bool symbol = false, concept = false;
          for (uint32_t x : it->second) {
            symbol = symbol || detail::symbol_like(entries[x].name);
            const std::string &label = nodes[entries[x].node].base.label;  // (entries index the tagger's nodes)
            concept = concept || (entries[x].source == "name" && label != "Protein" && label != "OntologyTerm" &&
                                  !family_label(label));
          }
          stopped = !(concept || (symbol && seen.size() >= 3 && all_capitals(seen)));
        }
        if (!stopped) cands = candidates(it->second, seen);
        // (a Greek letter a name was given for its number is that name's only when it ends there: "intercellular
        // adhesion molecule beta-catenin" is no "intercellular adhesion molecule 2")
        if (e + 2 < n && text[e + 1] == '-' && std::isalpha(static_cast<unsigned char>(text[e + 2])))
          cands.erase(std::remove_if(cands.begin(), cands.end(),
                                     [](const EntityCandidate &x) { return x.source == "derived:greek_number"; }),
                      cands.end());
        // (a hyphen and one letter or digit closing the word designate another name, one the dictionary lacks:
        // "VEGF-A" is not the VEGF family, "STAT5-B" not STAT5)
        // (but a number after one is a range: "NPHP1-9")
        if (e + 2 < n && text[e + 1] == '-' && std::isalnum(static_cast<unsigned char>(text[e + 2])) &&
            (e + 3 == n || !detail::word_char(text[e + 3])) &&
            !(std::isdigit(static_cast<unsigned char>(text[e])) && std::isdigit(static_cast<unsigned char>(text[e + 2]))))
          cands.clear();
      } else if (key.size() >= 3 && key.back() == 'p' && text[e] == 'p' && std::isalnum(static_cast<unsigned char>(text[e - 1]))) {
        // SGD's protein style: "Cdc28p", "Spr3p" for yeast proteins.
        if (auto stem = by_name.find(key.substr(0, key.size() - 1)); stem != by_name.end() && !stop.count(stem->first)) {
          cands = candidates(stem->second, seen.substr(0, seen.size() - 1));
          cands.erase(std::remove_if(cands.begin(), cands.end(), [](const EntityCandidate &x) { return !yeast_taxon(x.taxon); }),
                      cands.end());
        }
      }
      if (!cands.empty()) {
        best = std::move(cands);
        best_end = e + 1;
      }
      // (no name goes on from here: the longer keys cannot match either, unless the letters
      // still pending become a Greek letter's initial)
      if (!name.may_grow([&](const std::string &k) { return begins_a_name(k); }) && !begins_a_name(key)) break;
    }
    // A human gene's name after an "h" for human ("hZIP2", "hPop4", "hKCNMB3"): the name's human
    // proteins (own_organisms() gives the mention its organism).
    if (best.empty() && human_prefixed(text.substr(s, 3))) {
      std::size_t w = s + 1;
      while (w < n && std::isalnum(static_cast<unsigned char>(text[w]))) ++w;
      if (w == n || !detail::word_char(text[w])) {
        std::vector<EntityMention> inner = scan(original.substr(s + 1, w - s - 1));
        if (inner.size() == 1 && inner[0].offset == 0 && inner[0].length == w - s - 1)
          for (EntityCandidate &c : inner[0].candidates)
            if (c.taxon == 9606) {
              best.push_back(std::move(c));
              best_end = w;
            }
      }
    }
    // A plural before numbers, the names of the stem with each ("SMADs 1, 5 and 8", "HDACs 1 and 2",
    // "caspases-3 and -7"): the first here, the others as coordinated names below.
    std::string plural_stem;
    if (best.empty()) {
      std::size_t w = s;
      while (w < n && std::isalnum(static_cast<unsigned char>(text[w]))) ++w;
      if (w - s >= 4 && text[w - 1] == 's' && w + 1 < n && (text[w] == ' ' || text[w] == '-') &&
          std::isdigit(static_cast<unsigned char>(text[w + 1]))) {
        std::size_t d = w + 1;
        while (d < n && std::isdigit(static_cast<unsigned char>(text[d])) && d - w <= 3) ++d;
        const std::string stem(text.substr(s, w - 1 - s));
        const std::string first = stem + std::string(text.substr(w + 1, d - w - 1));
        if (d == n || !detail::word_char(text[d]))
          if (const auto it = by_name.find(tight(first)); it != by_name.end() && !stop.count(tight(first)))
            if (std::vector<EntityCandidate> c = candidates(it->second, first); !c.empty()) {
              best = std::move(c);
              best_end = d;
              plural_stem = stem;
            }
      }
    }
    if (best.empty()) {
      ++s;
      continue;
    }
    // (an ion before its charge is no gene: "Ca2+", "Mg2+"; nor a cell line: "PC-3", "HEK"; nor
    // a name before "domain", "-like", "-PAGE", "family" or a receptor's word)
    if ((best_end < n && text[best_end] == '+' && ion_like(text.substr(s, best_end - s))) ||
        unit_after_number(text, s, best_end) ||
        detail::cell_line(text.substr(s, best_end - s)) || not_the_protein_after(text, best_end)) {
      s = best_end;
      continue;
    }
    // Names written with one stem for several: "ERK1/2" is ERK1 and ERK2, "NPHP1-9" nine, "SMADs 1, 5
    // and 8" three (one span, a mention for each name the dictionary has).
    std::vector<std::vector<EntityCandidate>> further;
    std::size_t end = best_end;
    {
      std::size_t stem_end = best_end;
      while (stem_end > s && std::isdigit(static_cast<unsigned char>(text[stem_end - 1]))) --stem_end;
      const std::string_view stem = plural_stem.empty() ? text.substr(s, stem_end - s) : std::string_view(plural_stem);
      if (stem_end < best_end && stem_end > s) {
        const Coordination co = coordinated(text, stem, best_end);
        for (const std::string &other : co.names)
          if (const auto it = by_name.find(tight(other)); it != by_name.end() && !stop.count(tight(other)))
            if (std::vector<EntityCandidate> c = candidates(it->second, other); !c.empty()) {
              further.push_back(std::move(c));
              end = co.end;
            }
      }
    }
    EntityMention m;
    m.offset = s;
    m.length = end - s;
    m.text = std::string(original.substr(s, m.length));
    m.source = "dictionary";
    m.candidates = std::move(best);
    out.push_back(m);
    for (std::vector<EntityCandidate> &c : further) {
      m.candidates = std::move(c);
      out.push_back(m);
    }
    s = end;
  }
  return out;
}

namespace {


// Keeps the first `front` candidates that `keep` says yes to in front, when it says yes to some
// but not all of them; returns whether it narrowed them.
template <class Keep>
bool narrow(std::vector<EntityCandidate> &c, std::size_t &front, Keep keep) {
  std::unordered_set<int64_t> yes;
  for (std::size_t i = 0; i < front; ++i)
    if (keep(c[i])) yes.insert(c[i].node);
  if (yes.empty() || yes.size() == front) return false;
  std::stable_partition(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(front),
                        [&](const EntityCandidate &x) { return yes.count(x.node) > 0; });
  front = yes.size();
  return true;
}

}  // namespace

// Unique mentions stay; ambiguous ones are narrowed by the linker's rules, each applied while
// more than one candidate is left: a stated organism; how much the matched name says (tier; two
// nodes' own names: the one as written); the passage's organism (options.taxon, else that of
// its unambiguous mentions); edges to the nodes of the mentions that are settled; the name as
// written (in any case) when the others match only in another spelling; edges at all; the preferred
// organism (`preferred`: the database's, for a name given alone); the annotation's words.
void EntityTagger::Impl::resolve(std::vector<EntityMention> &mentions, std::string_view text, int64_t stated_organism,
                                 const std::string &stated_source, int64_t preferred, const std::vector<OwnOrganism> *own) const {
  std::vector<std::string> passage_words;  // (read when a mention stays ambiguous)
  int64_t passage = options.taxon;
  if (!passage) {
    std::map<int64_t, std::size_t> seen_taxa;
    for (const EntityMention &m : mentions)
      if (m.candidates.size() == 1 && m.candidates[0].taxon) ++seen_taxa[m.candidates[0].taxon];
    std::size_t most = 0;
    for (const auto &[t, count] : seen_taxa)
      if (count > most) most = count, passage = t;
  }
  std::vector<std::size_t> front(mentions.size());
  std::vector<std::string> how(mentions.size());
  std::vector<int64_t> anchors;
  const auto proteinish = [](const EntityCandidate &x) { return x.label == "Protein" || family_label(x.label); };
  for (std::size_t k = 0; k < mentions.size(); ++k) {
    EntityMention &m = mentions[k];
    std::vector<EntityCandidate> &c = m.candidates;
    front[k] = c.size();
    const bool named_before = own && k < own->size() && (*own)[k].taxon != 0;
    const int64_t organism = named_before ? (*own)[k].taxon : stated_organism;
    const std::string &source = named_before ? (*own)[k].why : stated_source;
    const bool stated = organism != 0 && !source.empty();
    if (stated && front[k] > 1 && narrow(c, front[k], [&](const EntityCandidate &x) { return x.taxon == organism; }))
      how[k] = "organism";
    // A stated organism: a name only other organisms' proteins have is none of them.
    if (stated && front[k] > 0 &&
        std::all_of(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(front[k]),
                    [&](const EntityCandidate &x) { return proteinish(x) && x.taxon && x.taxon != organism; })) {
      std::set<int64_t> others;
      for (std::size_t i = 0; i < front[k]; ++i) others.insert(c[i].taxon);
      std::string list;
      for (int64_t t : others) list += (list.empty() ? "" : ", ") + std::to_string(t);
      const std::string species = organism_name(organism);
      const std::string about = "taxon " + std::to_string(organism);
      m.reason = (named_before ? "'" + m.text + "' is named as " + about + (species.empty() ? "" : " (" + species + ")") +
                                     "'s by " + source
                               : "the passage is about " + about + " (" + (species.empty() ? "" : species + "; ") + source + ")") +
                 "; '" + m.text + "' names only proteins of taxon " + list + " in the database";
      front[k] = 0;
    }
    if (front[k] > 1) {
      // (a symbol the tolerant key alone matches is no better than a name stored as written when
      // the mention's punctuation tells them apart: "Cox-2" is PTGS2's alias "COX-2", not
      // MT-CO2's symbol "COX2"; case alone decides nothing)
      const bool punctuated = m.text.find_first_of("-/. ") != std::string::npos;
      const auto written = [&](const EntityCandidate &x) { return x.tier < kDerived && detail::iequals(x.matched, m.text); };
      // (not over a node's own preferred name: "IL-21" is IL21, not IL22's alias "IL-21")
      if (punctuated && std::none_of(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(front[k]),
                                     [&](const EntityCandidate &x) {
                                       return (x.tier <= kSymbol && written(x)) || (x.tier == kSymbol && x.source == "name");
                                     }) &&
          narrow(c, front[k], written))
        how[k] = "as_written";
      unsigned best = c[0].tier;
      for (std::size_t i = 1; i < front[k]; ++i) best = std::min(best, c[i].tier);
      if (narrow(c, front[k], [&](const EntityCandidate &x) { return x.tier == best; }))
        how[k] = best == kSymbol ? "preferred_name" : "name_kind";
      // (two nodes' own names: the one written as the mention is, "Raf-1" before "RAF1", human
      // "MAPT" before mouse "Mapt")
      if (best <= kSymbol && front[k] > 1 && narrow(c, front[k], [&](const EntityCandidate &x) { return x.matched == m.text; }))
        how[k] = "as_written";
    }
    if (front[k] > 1 && passage && narrow(c, front[k], [&](const EntityCandidate &x) { return x.taxon == passage; }))
      how[k] = "organism";
    if (front[k] == 1) anchors.push_back(c[0].node);
  }
  std::sort(anchors.begin(), anchors.end());
  anchors.erase(std::unique(anchors.begin(), anchors.end()), anchors.end());
  for (std::size_t k = 0; k < mentions.size(); ++k) {
    EntityMention &m = mentions[k];
    std::vector<EntityCandidate> &c = m.candidates;
    if (c.empty()) {
      m.status = "ungrounded";
      continue;
    }
    if (front[k] == 0) {
      m.status = "other_organism";
      continue;
    }
    if (front[k] > 1 && snapshot && !anchors.empty()) {
      std::vector<std::size_t> links(front[k]);
      std::size_t best = 0;
      for (std::size_t i = 0; i < front[k]; ++i) {
        for (int64_t a : anchors)
          if (a != c[i].node && !snapshot->edges_between(c[i].node, a).empty()) ++links[i];
        best = std::max(best, links[i]);
      }
      std::unordered_set<int64_t> top;
      for (std::size_t i = 0; i < front[k]; ++i)
        if (best > 0 && links[i] == best) top.insert(c[i].node);
      if (narrow(c, front[k], [&](const EntityCandidate &x) { return top.count(x.node) > 0; })) how[k] = "context";
    }
    // A name stored as the mention is written, in any case, before names that only the tolerant
    // key matches ("IL-2" before "IL2"; case alone decides nothing among aliases: "p21" is
    // TCEAL1's and "P21" CDKN1A's), and before edges at all: "Cox-2" is PTGS2's "COX-2", not
    // MT-CO2's "COX2", in a database where only MT-CO2 has edges.
    if (front[k] > 1 && narrow(c, front[k], [&](const EntityCandidate &x) { return detail::iequals(x.matched, m.text); }))
      how[k] = "as_written";
    if (front[k] > 1 && narrow(c, front[k], [&](const EntityCandidate &x) {
          const auto it = index_of.find(x.node);
          return it != index_of.end() && nodes[it->second].connected;
        }))
      how[k] = "edges";
    if (front[k] > 1 && preferred && narrow(c, front[k], [&](const EntityCandidate &x) { return x.taxon == preferred; }))
      how[k] = "preferred_organism";
    // The candidate whose annotation shares the most content words with the passage (at least
    // two, the mention's own words aside): "CDC2 ... cyclin" is CDK1, not POLD1.
    if (front[k] > 1) {
      if (passage_words.empty()) passage_words = content_words(text);
      const std::vector<std::string> own_words = content_words(m.text);
      std::vector<std::size_t> shared_words(front[k], 0);
      std::size_t best = 0;
      for (std::size_t i = 0; i < front[k]; ++i) {
        const auto it = index_of.find(c[i].node);
        if (it == index_of.end()) continue;
        for (const std::string &w : nodes[it->second].words)
          shared_words[i] += std::binary_search(passage_words.begin(), passage_words.end(), w) &&
                             !std::binary_search(own_words.begin(), own_words.end(), w);
        best = std::max(best, shared_words[i]);
      }
      if (best >= 2 && narrow(c, front[k], [&](const EntityCandidate &x) {
            for (std::size_t i = 0; i < shared_words.size(); ++i)
              if (c[i].node == x.node) return shared_words[i] == best;
            return false;
          }))
        how[k] = "description";
    }
    if (front[k] == 1) {
      m.status = c.size() == 1 ? "unique" : "resolved";
      if (c.size() > 1) m.resolution = how[k];
      m.chosen = 0;
      if (m.type.empty()) m.type = c[0].label;
    } else {
      m.status = "ambiguous";
    }
  }
}

std::vector<EntityMention> EntityTagger::tag(std::string_view text) const {
  std::vector<EntityMention> out = impl_->scan(text);
  impl_->resolve(out, text);
  return out;
}

std::vector<EntityMention> EntityTagger::tag(std::string_view text, int64_t organism, const std::string &source) const {
  std::vector<EntityMention> out = impl_->scan(text);
  impl_->resolve(out, text, organism, organism ? (source.empty() ? std::string("stated") : source) : std::string());
  return out;
}

EntityMention EntityTagger::link(std::string_view name, int64_t organism) const {
  const Impl &m = *impl_;
  EntityMention mention;
  const std::string text = detail::trim_copy(name);
  mention.text = text;
  mention.length = text.size();
  mention.source = "dictionary";
  if (!text.empty()) {
    const std::vector<std::string> spellings = annotated_spellings(text);
    const auto look = [&](const std::unordered_map<std::string, std::vector<uint32_t>> &index, const std::string &key) {
      const auto it = key.empty() ? index.end() : index.find(key);
      if (it != index.end()) mention.candidates = m.candidates(it->second, text, true);
      return !mention.candidates.empty();
    };
    // (as written, then its words in any order, then its usual spellings)
    if (!look(m.by_name, tight(text)) && !look(m.by_words, words_key(text)))
      for (std::size_t i = 1; i < spellings.size() && mention.candidates.empty(); ++i)
        if (!look(m.by_name, tight(spellings[i]))) look(m.by_words, words_key(spellings[i]));
    // SGD's protein style ("Cdc28p").
    if (mention.candidates.empty() && text.size() >= 3 && text.back() == 'p' &&
        std::isalnum(static_cast<unsigned char>(text[text.size() - 2]))) {
      const std::string stem = text.substr(0, text.size() - 1);
      if (look(m.by_name, tight(stem)))
        mention.candidates.erase(std::remove_if(mention.candidates.begin(), mention.candidates.end(),
                                                [](const EntityCandidate &x) { return !yeast_taxon(x.taxon); }),
                                 mention.candidates.end());
    }
    if (mention.candidates.empty()) mention.candidates = by_id(text);
    if (mention.candidates.empty())
      if (const auto it = m.not_genes.find(text); it != m.not_genes.end())
        mention.reason = "FamPlex grounds '" + text + "' to " + it->second + ", no gene or protein";
  }
  std::vector<EntityMention> one = {std::move(mention)};
  // (a name given alone: among equals, the database's organism)
  m.resolve(one, text, organism, organism ? std::string("stated") : std::string(), m.dominant);
  return std::move(one[0]);
}

std::vector<EntityCandidate> EntityTagger::members(int64_t node) const {
  const Impl &m = *impl_;
  std::vector<EntityCandidate> out;
  const auto it = m.index_of.find(node);
  if (it == m.index_of.end() || !family_label(m.nodes[it->second].base.label)) return out;
  std::vector<uint32_t> todo = {it->second};
  std::unordered_set<uint32_t> seen = {it->second};
  while (!todo.empty()) {
    const uint32_t f = todo.back();
    todo.pop_back();
    for (uint32_t x : m.nodes[f].members) {
      if (!seen.insert(x).second) continue;
      if (family_label(m.nodes[x].base.label)) todo.push_back(x);
      else out.push_back(m.nodes[x].base);
    }
  }
  std::sort(out.begin(), out.end(), [](const EntityCandidate &a, const EntityCandidate &b) { return a.name < b.name; });
  return out;
}

bool EntityTagger::contains(int64_t family, int64_t node) const {
  const Impl &m = *impl_;
  const auto f = m.index_of.find(family), n = m.index_of.find(node);
  if (f == m.index_of.end() || n == m.index_of.end() || f->second == n->second) return false;
  std::vector<uint32_t> todo = {f->second};
  std::unordered_set<uint32_t> seen = {f->second};
  while (!todo.empty()) {
    const uint32_t x = todo.back();
    todo.pop_back();
    if (!family_label(m.nodes[x].base.label)) continue;
    for (uint32_t y : m.nodes[x].members) {
      if (y == n->second) return true;
      if (seen.insert(y).second) todo.push_back(y);
    }
  }
  return false;
}

int64_t EntityTagger::organism() const { return impl_->dominant; }

namespace {

// The NCBI taxon of a species annotation's id ("9606", "NCBITaxon:9606", "taxon:9606"); 0 for
// anything else.
int64_t taxon_of_species_id(std::string_view id) {
  const std::size_t colon = id.rfind(':');
  if (colon != std::string_view::npos) id.remove_prefix(colon + 1);
  id = detail::trim_blanks(id);
  if (id.empty() || id.size() > 9 || id.find_first_not_of("0123456789") != std::string_view::npos) return 0;
  return std::stoll(std::string(id));
}

bool species_type(const std::string &type) {
  const std::string t = detail::lower_copy(type);
  return t == "species" || t == "organism" || t == "organismtaxon" || t == "taxon";
}

int64_t organism_of(const std::vector<const DocumentPassage *> &passages) {
  std::map<int64_t, std::pair<std::size_t, std::size_t>> seen;  // taxon -> (count, order first seen)
  for (const DocumentPassage *p : passages)
    for (const DocumentAnnotation &a : p->annotations) {
      if (!species_type(a.type)) continue;
      for (const std::string &part : concept_ids(a.id, a.type))
        if (const int64_t t = taxon_of_species_id(part)) ++seen.emplace(t, std::make_pair(0, seen.size())).first->second.first;
    }
  int64_t best = 0;
  std::size_t count = 0, first = 0;
  for (const auto &[t, cf] : seen)
    if (cf.first > count || (cf.first == count && cf.second < first)) best = t, count = cf.first, first = cf.second;
  return best;
}

}  // namespace

int64_t EntityTagger::document_organism(const Document &document) {
  std::vector<const DocumentPassage *> passages;
  for (const DocumentPassage &p : document.passages) passages.push_back(&p);
  return organism_of(passages);
}

std::vector<EntityMention> EntityTagger::tag(const DocumentPassage &passage, int64_t organism) const {
  const Impl &m = *impl_;
  std::string organism_source = "the document's organism";
  if (!organism && m.options.taxon) {
    organism = m.options.taxon;
    organism_source = "the taxon asked for";
  }
  if (!organism) {
    organism = organism_of({&passage});
    organism_source = "its species annotations";
  }
  if (!organism && m.dominant) {
    organism = m.dominant;
    organism_source = "the database's dominant organism";
  }
  std::vector<EntityMention> out = m.reconcile(passage);
  m.resolve(out, passage.text, organism, organism ? organism_source : std::string());
  return out;
}

std::vector<EntityMention> EntityTagger::Impl::reconcile(const DocumentPassage &passage) const {
  const Impl &m = *this;
  std::vector<EntityMention> dict = m.scan(passage.text);
  std::vector<char> covered(dict.size(), 0);
  std::vector<EntityMention> out;
  for (const DocumentAnnotation &a : passage.annotations) {
    if (a.offset > passage.text.size() || a.length == 0) continue;
    const std::size_t end = std::min(passage.text.size(), a.offset + a.length);
    EntityMention mention;
    mention.offset = a.offset;
    mention.length = end - a.offset;
    mention.text = passage.text.substr(a.offset, mention.length);
    mention.type = a.type;
    mention.annotation_id = a.id;
    mention.source = "annotation";
    for (std::size_t i = 0; i < dict.size(); ++i) {
      const EntityMention &d = dict[i];
      if (d.offset >= end || d.offset + d.length <= a.offset) continue;
      covered[i] = 1;
      mention.source = "both";
      if (d.offset == mention.offset && d.length == mention.length) mention.candidates = d.candidates;
    }
    // The annotation's concept ids ("6331", "MESH:D008133", "6331;6332") as the database's aliases.
    std::vector<EntityCandidate> by_concept;
    // (a gene's Entrez id, or a namespaced id; a species' "9606" is no gene's id)
    if (detail::gene_type(a.type) || a.id.find(':') != std::string::npos) {
      for (const std::string &part : concept_ids(a.id, a.type))
          for (EntityCandidate &c : ids_of(part))
            if (std::none_of(by_concept.begin(), by_concept.end(), [&](const EntityCandidate &x) { return x.node == c.node; }))
              by_concept.push_back(std::move(c));
    }
    if (!by_concept.empty()) {
      for (EntityCandidate &c : by_concept) c.matched = a.id;
      mention.candidates = std::move(by_concept);
    } else if (mention.candidates.empty() && detail::gene_type(a.type)) {
      // (the document says the span is an entity: "p53" is P53 whatever the case rule says; and
      // its usual spellings are tried: "ET(A)", "IFN-gamma", "hGITR", a two-letter "Rb")
      const std::vector<std::string> spellings = annotated_spellings(mention.text);
      const auto look = [&](const std::unordered_map<std::string, std::vector<uint32_t>> &index, const std::string &key) {
        const auto it = key.empty() ? index.end() : index.find(key);
        if (it != index.end()) mention.candidates = m.candidates(it->second, mention.text, true);
        return !mention.candidates.empty();
      };
      for (const std::string &spelling : spellings)
        if (look(m.by_name, tight(spelling))) break;
      for (std::size_t i = 0; i < spellings.size() && mention.candidates.empty(); ++i) look(m.by_words, words_key(spellings[i]));
      // (two-letter aliases are no dictionary names: "Rb", "GH" of "hGH")
      for (std::size_t i = 0; i < spellings.size() && mention.candidates.empty(); ++i)
        if (spellings[i].size() == 2 && detail::symbol_like(spellings[i]))
          for (EntityCandidate &c : ids_of(spellings[i])) {
            c.source = "short_alias";
            if (c.label == "Protein") mention.candidates.push_back(std::move(c));
          }
    } else if (mention.candidates.empty()) {
      auto it = m.by_name.find(tight(mention.text));
      if (it != m.by_name.end()) mention.candidates = m.candidates(it->second, mention.text, true);
    }
    out.push_back(std::move(mention));
  }
  for (std::size_t i = 0; i < dict.size(); ++i)
    if (!covered[i]) out.push_back(std::move(dict[i]));
  std::stable_sort(out.begin(), out.end(), [](const EntityMention &x, const EntityMention &y) { return x.offset < y.offset; });
  return out;
}

std::vector<EntityTagger::Impl::OwnOrganism> EntityTagger::Impl::own_organisms(const std::vector<EntityMention> &mentions, std::string_view text,
                                                                             int64_t paper, bool by_sentence) const {
  std::vector<OwnOrganism> out(mentions.size());
  for (std::size_t k = 0; k < mentions.size(); ++k) {
    std::size_t end = mentions[k].offset;
    if (end < 2 || end > text.size() || text[end - 1] != ' ') continue;
    --end;
    std::size_t begin = end;
    while (begin > 0 && std::isalpha(static_cast<unsigned char>(text[begin - 1]))) --begin;
    if (end - begin < 3 || (begin > 0 && detail::word_char(text[begin - 1]))) continue;
    // ("human TNF" in a mouse paper is human; "mouse TNF" in a human paper is no human protein)
    std::string word = detail::lower_copy(text.substr(begin, end - begin));
    // (and "the Caenorhabditis elegans homolog CHO-1", "the yeast gene RAD53": the organism before
    // the word that says what the name is of)
    for (const char *of : {"homolog", "homologue", "ortholog", "orthologue", "counterpart", "gene", "protein"})
      if (word == of && begin >= 2 && text[begin - 1] == ' ') {
        std::size_t b = begin - 1;
        while (b > 0 && std::isalpha(static_cast<unsigned char>(text[b - 1]))) --b;
        if (begin - 1 - b >= 3 && (b == 0 || !detail::word_char(text[b - 1]))) word = detail::lower_copy(text.substr(b, begin - 1 - b));
        break;
      }
    out[k].taxon = detail::organism_before_name(word);
    if (out[k].taxon) out[k].why = "the word before it";
  }
  // ("hZIP2", "hERG", "hTERT": an "h" for human before a capital)
  for (std::size_t k = 0; k < mentions.size(); ++k) {
    if (human_prefixed(mentions[k].text)) out[k] = {9606, "its 'h' for human"};
  }
  if (!by_sentence) return out;
  // A sentence that names one organism, not the paper's: its genes are that organism's ("... were
  // dependent on Mavs expression in mice" in a paper read as human; "RSV-infected A549 cells
  // release LIF" in one read as mouse). A sentence naming two organisms, or the paper's, says
  // nothing of its own. (A split after one capital letter is no sentence end: "S. cerevisiae".)
  std::vector<std::pair<std::size_t, std::size_t>> sentences;
  for (const auto &r : detail::sentence_ranges(text)) {
    if (!sentences.empty()) {
      const std::size_t e = sentences.back().second;
      if (e >= 2 && text[e - 1] == '.' && std::isupper(static_cast<unsigned char>(text[e - 2])) &&
          (e == 2 || !std::isalnum(static_cast<unsigned char>(text[e - 3])))) {
        sentences.back().second = r.second;
        continue;
      }
    }
    sentences.push_back(r);
  }
  std::size_t k = 0;
  for (const auto &[begin, end] : sentences) {
    while (k < mentions.size() && mentions[k].offset < begin) ++k;
    if (k == mentions.size()) break;
    if (mentions[k].offset >= end) continue;
    const std::vector<OrganismEvidence> named = organisms_in_text(text.substr(begin, end - begin));
    if (named.size() != 1 || named.front().taxon == paper) continue;
    const OrganismEvidence &e = named.front();
    const std::string why = "its sentence, which names " + e.name + " only ('" + e.cues.front() + "')";
    for (; k < mentions.size() && mentions[k].offset < end; ++k)
      if (!out[k].taxon) out[k] = {e.taxon, why};
  }
  return out;
}

namespace {

// Words a long form may have beside an entity's name and still name it ("APP protein").
bool generic_word(std::string_view w) {
  for (const char *g : {"protein", "proteins", "gene", "genes", "product", "molecule", "polypeptide"})
    if (detail::iequals(w, g)) return true;
  return false;
}

// Whether a phrase reads as a protein's or a gene's name: its head (the last word before numbers,
// Greek letters and single letters) is a word proteins are named by ("receptor", "protein",
// "clone", "like", an enzyme's "-ase"; not "disease", "cells", "syndrome").
bool protein_like(std::string_view phrase) {
  std::vector<std::string> words = detail::name_words(detail::lower_copy(phrase));
  while (!words.empty() && (words.back().size() == 1 || detail::greek_name(words.back()) ||
                            words.back().find_first_not_of("0123456789") == std::string::npos ||
                            words.back().find_first_not_of("ivx") == std::string::npos))
    words.pop_back();
  if (words.size() < 2 && !(words.size() == 1 && words[0].find('-') != std::string::npos)) return false;
  const std::string &head = words.back();
  static const std::unordered_set<std::string_view> heads = {
      "protein", "proteins", "polypeptide", "receptor", "kinase", "factor", "gene", "ligand", "enzyme", "channel",
      "transporter", "exchanger", "symporter", "antigen", "clone", "subunit", "homolog", "homologue", "like",
      "adapter", "adaptor", "inhibitor", "activator", "regulator", "molecule", "peptide", "hormone", "lectin",
      "integrin", "cadherin", "phosphoprotein", "glycoprotein", "lipoprotein", "chaperone", "coactivator",
      "corepressor", "repressor", "partner"};
  if (heads.count(head)) return true;
  static const std::unordered_set<std::string_view> not_enzymes = {"disease", "base", "phase", "case", "release",
                                                                 "increase", "decrease", "database", "purchase"};
  return head.size() > 4 && head.compare(head.size() - 3, 3, "ase") == 0 && !not_enzymes.count(head);
}

}  // namespace

void EntityTagger::Impl::meaning(Abbreviation &a, int64_t organism, bool other_organisms) const {
  a.meaning = "undecided";
  a.entity.reset();
  // (the long form as one mention: "interleukin 6 (IL-6)", "amyloid precursor protein (APP)")
  std::vector<EntityMention> lf = scan(a.long_form);
  resolve(lf, a.long_form, organism, organism ? std::string("the paper's organism") : std::string(), dominant);
  if (lf.size() == 1 && lf[0].entity()) {
    bool whole = true;
    const std::string rest = a.long_form.substr(0, lf[0].offset) + " " + a.long_form.substr(lf[0].offset + lf[0].length);
    for (const std::string &w : detail::name_words(rest))
      if (w.find_first_not_of(" ,.-") != std::string::npos && !generic_word(w)) whole = false;
    if (whole) {
      a.meaning = "entity";
      a.entity = *lf[0].entity();
      return;
    }
  }
  // (a long form that names a class of proteins by a letter, its other words words of many genes'
  // names, "protein kinase B (PKB)", "nuclear factor kappa B (NF-kappaB)", says too little: the
  // short form is linked as the linker links it alone, FamPlex's curated names first)
  if (lf.empty() && class_by_letter(a.long_form)) return;
  // (the short form's own candidates, when the long form shares a name's words: "sonic hedgehog
  // (Shh)" is SHH, "sonic hedgehog signaling molecule")
  const std::set<std::string> long_words = name_content(a.long_form);
  const SeriesNumber long_number = final_number(a.long_form);
  std::vector<EntityMention> sf = scan(a.short_form);
  if (sf.size() == 1 && sf[0].length == a.short_form.size() && !long_words.empty()) {
    std::size_t best = 0;
    const EntityCandidate *chosen = nullptr;
    for (const EntityCandidate &c : sf[0].candidates) {
      const auto at = index_of.find(c.node);
      // (of the paper's organism: a mouse paper's "Shh" is no human protein)
      if (at == index_of.end() || (organism && c.taxon && c.taxon != organism)) continue;
      std::size_t shared = 0;
      for (uint32_t e : node_entries[at->second]) {
        // (a name numbered otherwise is another member: "L-type amino acid transporter 3 (LAT3)" is
        // not "y+L amino acid transporter 1" for the words they share)
        if (other_member(long_number, final_number(entries[e].name))) continue;
        std::size_t here = 0;
        for (const std::string &w : name_content(entries[e].name)) here += long_words.count(w);
        shared = std::max(shared, here);
      }
      if (2 * shared >= long_words.size() && shared > best) best = shared, chosen = &c;
    }
    if (chosen) {
      a.meaning = "entity";
      a.entity = *chosen;
      return;
    }
  }
  // (a short form that is a gene's official symbol with a number names that gene too, whatever its
  // long form names: "neurofibromatosis type 1 (NF1)", "multiple endocrine neoplasia type 1 (MEN1)",
  // "PERIOD2 (PER2)"; a symbol of letters alone may be anything's abbreviation: "coronary artery
  // disease (CAD)")
  const bool numbered_symbol =
      sf.size() == 1 && sf[0].length == a.short_form.size() &&
      a.short_form.find_first_of("0123456789") != std::string::npos &&
      std::any_of(sf[0].candidates.begin(), sf[0].candidates.end(), [&](const EntityCandidate &c) {
        return c.name_kind == "symbol" && c.matched == a.short_form && (!organism || !c.taxon || c.taxon == organism);
      });
  // (a long form that reads as a protein's name the database lacks, "X-linked ectodermal dysplasia
  // receptor (XEDAR)", "antiapoptosis clone 11 (AAC-11)", "DT-diaphorase (DTD)", leaves the short
  // form to the linker, as "protein kinase B (PKB)" does, in a paper that names no other organism
  // (whose protein it may be); "lipopolysaccharide (LPS)" does not)
  if (lf.empty() && !numbered_symbol && (other_organisms || !protein_like(a.long_form))) a.meaning = "no_entity";
}

// A word of at least this many genes' full names ("protein", "kinase", "factor") says no more of a
// long form than its class.
constexpr uint32_t kClassWordNodes = 20;

bool EntityTagger::Impl::class_by_letter(std::string_view long_form) const {
  const std::vector<std::string> words = separated_words(long_form);
  if (words.size() < 2) return false;
  const std::string &last = words.back();
  // (a letter, not a number: "melanoma differentiation-associated gene 5" names one gene)
  const bool letter = (last.size() == 1 && std::isalpha(static_cast<unsigned char>(last[0]))) || detail::greek_name(last);
  if (!letter) return false;
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    const auto it = full_name_words.find(words[i]);
    if (it == full_name_words.end() || it->second < kClassWordNodes) return false;
  }
  return true;
}

void EntityTagger::Impl::apply(std::vector<EntityMention> &mentions, std::string_view text,
                               const std::vector<Abbreviation> &abbreviations) const {
  // (a plural short form stands for the singular too, and the other way round: "HCCs", "HCC")
  const auto defined = [&](std::string_view w) -> const Abbreviation * {
    for (const Abbreviation &a : abbreviations) {
      const std::string_view sf = a.short_form;
      if (w == sf || (w.size() + 1 == sf.size() && sf.back() == 's' && sf.compare(0, w.size(), w) == 0) ||
          (sf.size() + 1 == w.size() && w.back() == 's' && w.compare(0, sf.size(), sf) == 0))
        return a.meaning == "entity" || a.meaning == "no_entity" ? &a : nullptr;
    }
    return nullptr;
  };
  for (EntityMention &m : mentions) {
    if (m.source != "dictionary") continue;
    const Abbreviation *a = defined(m.text);
    if (!a) continue;
    if (a->meaning == "no_entity") {
      m.candidates.clear();
      m.chosen.reset();
      m.status = "ungrounded";
      m.resolution.clear();
      m.reason = "the paper defines '" + a->short_form + "' as '" + a->long_form + "', which names nothing the database holds";
    } else {
      // (also when the dictionary chose the same: the definition is the context)
      m.candidates = {*a->entity};
      m.chosen = 0;
      m.status = "resolved";
      m.resolution = "abbreviation";
      m.reason.clear();
      m.type = a->entity->label;
    }
  }
  // (the short form where the dictionary alone did not find it)
  for (const Abbreviation &a : abbreviations) {
    if (a.meaning != "entity") continue;
    for (std::size_t at = text.find(a.short_form); at != std::string_view::npos; at = text.find(a.short_form, at + 1)) {
      std::size_t end = at + a.short_form.size();
      if (end < text.size() && text[end] == 's') ++end;
      if ((at > 0 && detail::word_char(text[at - 1])) || (end < text.size() && detail::word_char(text[end]))) continue;
      if (std::any_of(mentions.begin(), mentions.end(), [&](const EntityMention &m) { return m.offset < end && at < m.offset + m.length; }))
        continue;
      EntityMention m;
      m.offset = at;
      m.length = end - at;
      m.text = std::string(text.substr(at, m.length));
      m.source = "dictionary";
      m.candidates = {*a.entity};
      m.chosen = 0;
      m.status = "resolved";
      m.resolution = "abbreviation";
      m.type = a.entity->label;
      mentions.push_back(std::move(m));
    }
  }
  std::stable_sort(mentions.begin(), mentions.end(), [](const EntityMention &x, const EntityMention &y) { return x.offset < y.offset; });
}

namespace {

// The organism a paper's text is about: the one it names most, unless the database holds another
// it names at least half as often ("rats" 5 times and "human" 3 times: a paper that compares, read
// in the organism the database answers for); none when it names none. (Measured on BioRED's
// training set against two stricter rules, BENCHMARKS.md "Genes of a paper".)
const OrganismEvidence *paper_organism(const std::vector<OrganismEvidence> &named, const std::set<int64_t> &held) {
  if (named.empty()) return nullptr;
  for (const OrganismEvidence &e : named)
    if (held.count(e.taxon) && 2 * e.count >= named.front().count) return &e;
  return &named.front();
}

}  // namespace

PaperContext EntityTagger::read_paper(const Document &document) const {
  const Impl &m = *impl_;
  PaperContext p;
  p.document = document.id;
  std::string text;  // (the passages, a line break between them)
  for (const DocumentPassage &ps : document.passages) text += ps.text + "\n";
  p.organisms = organisms_in_text(text);
  if (m.options.taxon) {
    p.taxon = m.options.taxon;
    p.organism_source = "taxon_option";
  } else if (const int64_t annotated = document_organism(document)) {
    p.taxon = annotated;
    p.organism_source = "species_annotations";
  } else if (const OrganismEvidence *named = paper_organism(p.organisms, m.taxa)) {
    p.taxon = named->taxon;
    p.organism_source = "text";
  } else if (m.dominant) {
    p.taxon = m.dominant;
    p.organism_source = "database";
  }
  p.organism_name = organism_name(p.taxon);
  p.held = m.taxa.count(p.taxon) > 0;
  p.abbreviations = abbreviations_in_text(text);
  const bool others = std::any_of(p.organisms.begin(), p.organisms.end(),
                                  [&](const OrganismEvidence &e) { return e.taxon != p.taxon; });
  for (Abbreviation &a : p.abbreviations) m.meaning(a, p.taxon, others);
  return p;
}

std::vector<EntityMention> EntityTagger::tag(const DocumentPassage &passage, const PaperContext &paper) const {
  const Impl &m = *impl_;
  std::vector<EntityMention> out = m.reconcile(passage);
  std::string source;
  if (paper.organism_source == "taxon_option") source = "the taxon asked for";
  else if (paper.organism_source == "species_annotations") source = "its species annotations";
  else if (paper.organism_source == "database") source = "the database's dominant organism";
  else if (paper.organism_source == "text" && !paper.organisms.empty()) {
    const OrganismEvidence &e = paper.organisms.front();
    source = "its text names it " + std::to_string(e.count) + " time" + (e.count == 1 ? "" : "s") + ": ";
    for (std::size_t i = 0; i < e.cues.size() && i < 3; ++i) source += (i ? ", " : "") + e.cues[i];
  }
  const std::vector<Impl::OwnOrganism> own = m.own_organisms(out, passage.text, paper.taxon, paper.organism_source != "taxon_option");
  m.resolve(out, passage.text, paper.taxon, paper.taxon ? source : std::string(), 0, &own);
  m.apply(out, passage.text, paper.abbreviations);
  m.short_aliases(out, passage.text);
  m.rodent_symbols(out, paper);
  return out;
}

// A human gene's symbol written as mouse and rat symbols are (MGI's and RGD's case: "Notch1", "Mavs" for NOTCH1,
// MAVS) in a human-read paper that names mice or rats is that rodent's gene, which the database does not hold.
void EntityTagger::Impl::rodent_symbols(std::vector<EntityMention> &mentions, const PaperContext &paper) const {
  if (paper.taxon != 9606) return;
  const OrganismEvidence *rodent = nullptr;
  for (const OrganismEvidence &e : paper.organisms)
    if ((e.taxon == 10090 || e.taxon == 10116) && (!rodent || e.count > rodent->count)) rodent = &e;
  if (!rodent) return;
  for (EntityMention &m : mentions) {
    const EntityCandidate *c = m.entity();
    if (!c || c->taxon != 9606 || m.source != "dictionary" || m.text.size() < 3 || c->name_kind != "symbol") continue;
    const std::string &t = m.text;
    const bool rodent_case = std::isupper(static_cast<unsigned char>(t[0])) &&
                             std::islower(static_cast<unsigned char>(t[1])) &&
                             std::all_of(t.begin() + 1, t.end(), [](char ch) {
                               return std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch));
                             });
    if (!rodent_case || detail::lower_copy(t) != detail::lower_copy(c->name) || c->name == t) continue;
    m.reason = "'" + t + "' is written as " + rodent->name + " gene symbols are (the human one is " + c->name +
               ") in a paper that names " + rodent->name + " (" + rodent->cues.front() + ")";
    m.chosen.reset();
    m.status = "other_organism";
    m.resolution.clear();
  }
}

namespace {

// Whether the word after a mention says it is a gene or its product: "AMSH gene", "IRAK protein",
// "TRAP mRNA", "HSL expression", "ATGL-deficient", "GH knockdown".
bool gene_word_after(std::string_view text, std::size_t end) {
  std::size_t i = end;
  if (i < text.size() && (text[i] == ' ' || text[i] == '-')) ++i;
  std::string next;
  for (; i < text.size() && std::isalnum(static_cast<unsigned char>(text[i])) && next.size() < 16; ++i)
    next.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text[i]))));
  static const std::set<std::string, std::less<>> words = {
      "gene",       "genes",       "protein",    "proteins",    "mrna",       "mrnas",     "expression",
      "promoter",   "transcript",  "transcripts", "transcription", "knockdown", "knockout", "deficient",
      "deficiency", "null",        "sirna",      "sirnas",      "shrna",      "isoform",   "isoforms",
      "locus",      "allele",      "alleles",    "mutation",    "mutations",  "mutant",    "mutants",
      "overexpression", "phosphorylation", "silencing", "depletion", "inhibitor", "inhibitors", "activity",
      "levels",     "level",       "polymorphism", "polymorphisms", "variants", "variant"};
  return words.count(next) > 0;
}

}  // namespace

// A short alias in capitals ("AIM", "CAA", "MRI": up to four letters, no digit) that is not the
// gene's symbol is also an abbreviation of something else, and a paper that does not define it
// means that as often: it stands for the gene only with context, an edge in the database to
// another entity the passage settles, or the word after it naming a gene or its product.
void EntityTagger::Impl::short_aliases(std::vector<EntityMention> &mentions, std::string_view text) const {
  const auto short_alias = [](const EntityMention &m) {
    const EntityCandidate *c = m.entity();
    // (the name after an "h" for human: "hGR" is "GR")
    const std::string_view t = human_prefixed(m.text) ? std::string_view(m.text).substr(1) : std::string_view(m.text);
    return c && m.source == "dictionary" && m.resolution != "abbreviation" && c->name_kind == "alias" && t.size() <= 4 &&
           std::all_of(t.begin(), t.end(), [](char ch) { return std::isupper(static_cast<unsigned char>(ch)) != 0; });
  };
  std::vector<int64_t> settled;
  for (const EntityMention &m : mentions)
    if (m.entity() && !short_alias(m)) settled.push_back(m.entity()->node);
  for (EntityMention &m : mentions) {
    if (!short_alias(m)) continue;
    const int64_t node = m.entity()->node;
    const bool context = snapshot && std::any_of(settled.begin(), settled.end(), [&](int64_t a) {
                           return a != node && !snapshot->edges_between(node, a).empty();
                         });
    if (context || gene_word_after(text, m.offset + m.length)) continue;
    m.reason = "'" + m.text + "' is only an alias of " + m.entity()->name +
               ", and nothing in the passage links to it: a short alias needs context";
    m.chosen.reset();
    m.status = "ambiguous";
    m.resolution.clear();
  }
}

}  // namespace grappi
