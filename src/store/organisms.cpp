// The organisms a text names (grappi/entities.hpp): a table of cues per organism — the species'
// names, common names, lab strains and cell lines — found at word boundaries, and SGD's protein
// style for yeast ("Rad53p"). A cue that names the animal an antibody or a serum came from
// ("mouse anti-", "rabbit polyclonal", "fetal bovine serum") says nothing of the paper's genes and
// is not counted. Pathogens and expression hosts (viruses, E. coli) are left out: a paper on human
// genes names them often.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

#include "grappi/entities.hpp"
#include "common/text_util.hpp"
#include "store/organisms.hpp"

namespace grappi {

namespace {

// What a cue is: a name of the organism, a word of people (human only: "patients"), a cell line.
enum class CueKind : uint8_t { name, people, cell_line };

struct Cue {
  const char *text;
  int64_t taxon;
  bool any_case;  // species and common names; cell lines and strains are matched as written
  CueKind kind = CueKind::name;
};

struct Species {
  int64_t taxon;
  const char *name;
};

// NCBI taxa as STRING numbers them (yeast 4932, not the strain's 559292).
const Species kSpecies[] = {
    {9606, "Homo sapiens"},           {10090, "Mus musculus"},           {10116, "Rattus norvegicus"},
    {4932, "Saccharomyces cerevisiae"}, {4896, "Schizosaccharomyces pombe"}, {7227, "Drosophila melanogaster"},
    {6239, "Caenorhabditis elegans"}, {7955, "Danio rerio"},             {8355, "Xenopus laevis"},
    {3702, "Arabidopsis thaliana"},   {9031, "Gallus gallus"},           {9913, "Bos taurus"},
    {9823, "Sus scrofa"},             {9615, "Canis lupus familiaris"},  {10029, "Cricetulus griseus"},
    {9544, "Macaca mulatta"},         {9534, "Chlorocebus aethiops"},    {9986, "Oryctolagus cuniculus"},
    {9940, "Ovis aries"},             {10141, "Cavia porcellus"},        {511145, "Escherichia coli"}};

const Cue kCues[] = {
    // human
    {"human", 9606, true}, {"humans", 9606, true, CueKind::people}, {"Homo sapiens", 9606, true}, {"H. sapiens", 9606, false},
    {"patient", 9606, true, CueKind::people}, {"patients", 9606, true, CueKind::people}, {"women", 9606, true, CueKind::people}, {"men", 9606, false, CueKind::people},
    {"children", 9606, true, CueKind::people}, {"infants", 9606, true, CueKind::people}, {"volunteers", 9606, true, CueKind::people}, {"probands", 9606, true, CueKind::people},
    {"proband", 9606, true, CueKind::people}, {"participants", 9606, true, CueKind::people},
    {"HeLa", 9606, false, CueKind::cell_line}, {"HEK293", 9606, false, CueKind::cell_line}, {"HEK-293", 9606, false, CueKind::cell_line}, {"HEK 293", 9606, false, CueKind::cell_line},
    {"HEK293T", 9606, false, CueKind::cell_line}, {"293T", 9606, false, CueKind::cell_line}, {"Jurkat", 9606, false, CueKind::cell_line}, {"MCF-7", 9606, false, CueKind::cell_line},
    {"MCF7", 9606, false, CueKind::cell_line}, {"A549", 9606, false, CueKind::cell_line}, {"HepG2", 9606, false, CueKind::cell_line}, {"Hep G2", 9606, false, CueKind::cell_line},
    {"Hep3B", 9606, false, CueKind::cell_line}, {"Huh7", 9606, false, CueKind::cell_line}, {"Huh-7", 9606, false, CueKind::cell_line}, {"THP-1", 9606, false, CueKind::cell_line},
    {"U937", 9606, false, CueKind::cell_line}, {"K562", 9606, false, CueKind::cell_line}, {"HCT116", 9606, false, CueKind::cell_line}, {"HCT-116", 9606, false, CueKind::cell_line},
    {"SH-SY5Y", 9606, false, CueKind::cell_line}, {"HL-60", 9606, false, CueKind::cell_line}, {"LNCaP", 9606, false, CueKind::cell_line}, {"DU145", 9606, false, CueKind::cell_line},
    {"U2OS", 9606, false, CueKind::cell_line}, {"HUVEC", 9606, false, CueKind::cell_line}, {"HUVECs", 9606, false, CueKind::cell_line}, {"Caco-2", 9606, false, CueKind::cell_line},
    {"SW480", 9606, false, CueKind::cell_line}, {"SW620", 9606, false, CueKind::cell_line}, {"MDA-MB-231", 9606, false, CueKind::cell_line}, {"MDA-MB-468", 9606, false, CueKind::cell_line},
    {"T47D", 9606, false, CueKind::cell_line}, {"HT-29", 9606, false, CueKind::cell_line}, {"HaCaT", 9606, false, CueKind::cell_line}, {"SK-N-SH", 9606, false, CueKind::cell_line},
    {"SKOV3", 9606, false, CueKind::cell_line}, {"U87", 9606, false, CueKind::cell_line}, {"U251", 9606, false, CueKind::cell_line}, {"IMR-90", 9606, false, CueKind::cell_line},
    {"H1299", 9606, false, CueKind::cell_line}, {"PC-3", 9606, false, CueKind::cell_line}, {"PC3", 9606, false, CueKind::cell_line},
    {"HK-2", 9606, false, CueKind::cell_line}, {"HEK", 9606, false, CueKind::cell_line}, {"HT29", 9606, false, CueKind::cell_line}, {"HCT-8", 9606, false, CueKind::cell_line}, {"Raji", 9606, false, CueKind::cell_line}, {"HAP1", 9606, false, CueKind::cell_line},
    // mouse
    {"mouse", 10090, true}, {"mice", 10090, true}, {"murine", 10090, true}, {"Mus musculus", 10090, true},
    {"M. musculus", 10090, false}, {"C57BL/6", 10090, false}, {"C57BL/6J", 10090, false}, {"BALB/c", 10090, false},
    {"NIH3T3", 10090, false, CueKind::cell_line}, {"NIH 3T3", 10090, false, CueKind::cell_line}, {"NIH-3T3", 10090, false, CueKind::cell_line}, {"3T3-L1", 10090, false, CueKind::cell_line},
    {"RAW264.7", 10090, false, CueKind::cell_line}, {"RAW 264.7", 10090, false, CueKind::cell_line}, {"C2C12", 10090, false, CueKind::cell_line}, {"Neuro2a", 10090, false, CueKind::cell_line},
    {"N2a", 10090, false, CueKind::cell_line}, {"B16F10", 10090, false, CueKind::cell_line}, {"MEFs", 10090, false, CueKind::cell_line}, {"BV2", 10090, false, CueKind::cell_line},
    {"MIN6", 10090, false, CueKind::cell_line}, {"knockout mice", 10090, true}, {"NIH/3T3", 10090, false, CueKind::cell_line},
    {"L929", 10090, false, CueKind::cell_line}, {"J774", 10090, false, CueKind::cell_line}, {"J774A.1", 10090, false, CueKind::cell_line},
    {"MC3T3-E1", 10090, false, CueKind::cell_line}, {"Hepa1-6", 10090, false, CueKind::cell_line},
    {"CTLL-2", 10090, false, CueKind::cell_line}, {"AtT-20", 10090, false, CueKind::cell_line}, {"mIMCD-3", 10090, false, CueKind::cell_line},
    // rat
    {"rat", 10116, true}, {"rats", 10116, true}, {"Rattus norvegicus", 10116, true}, {"Sprague-Dawley", 10116, true},
    {"Sprague Dawley", 10116, true}, {"Wistar", 10116, true}, {"PC12", 10116, false, CueKind::cell_line}, {"H9c2", 10116, false, CueKind::cell_line},
    {"INS-1", 10116, false, CueKind::cell_line}, {"INS-1E", 10116, false, CueKind::cell_line},
    {"Rat2", 10116, false, CueKind::cell_line}, {"Rat-2", 10116, false, CueKind::cell_line}, {"Rat1", 10116, false, CueKind::cell_line},
    {"Rat-1", 10116, false, CueKind::cell_line}, {"H4IIE", 10116, false, CueKind::cell_line}, {"H4-II-E", 10116, false, CueKind::cell_line},
    {"GH3", 10116, false, CueKind::cell_line}, {"GH4C1", 10116, false, CueKind::cell_line}, {"RBL-2H3", 10116, false, CueKind::cell_line},
    {"FRTL-5", 10116, false, CueKind::cell_line}, {"A7r5", 10116, false, CueKind::cell_line},
    {"McA-RH7777", 10116, false, CueKind::cell_line}, {"UMR-106", 10116, false, CueKind::cell_line}, {"RIN-m5F", 10116, false, CueKind::cell_line},
    // yeasts
    {"yeast", 4932, true}, {"yeasts", 4932, true}, {"budding yeast", 4932, true},
    {"Saccharomyces cerevisiae", 4932, true}, {"S. cerevisiae", 4932, false}, {"fission yeast", 4896, true},
    {"Schizosaccharomyces pombe", 4896, true}, {"S. pombe", 4896, false},
    // other model organisms
    {"Drosophila", 7227, true}, {"D. melanogaster", 7227, false}, {"fruit fly", 7227, true},
    {"fruit flies", 7227, true}, {"flies", 7227, true}, {"C. elegans", 6239, false},
    {"Caenorhabditis elegans", 6239, true}, {"nematode", 6239, true}, {"zebrafish", 7955, true},
    {"Danio rerio", 7955, true}, {"Xenopus", 8355, true}, {"Arabidopsis", 3702, true},
    {"chicken", 9031, true}, {"chick", 9031, true}, {"bovine", 9913, true}, {"cattle", 9913, true},
    {"porcine", 9823, true}, {"pigs", 9823, true}, {"canine", 9615, true}, {"dogs", 9615, true},
    {"MDCK", 9615, false, CueKind::cell_line}, {"hamster", 10029, true}, {"hamsters", 10029, true}, {"CHO", 10029, false, CueKind::cell_line},
    {"rhesus", 9544, true}, {"macaque", 9544, true}, {"macaques", 9544, true}, {"COS-7", 9534, false, CueKind::cell_line},
    {"COS-1", 9534, false, CueKind::cell_line}, {"Vero", 9534, false, CueKind::cell_line}, {"rabbit", 9986, true}, {"rabbits", 9986, true},
    {"sheep", 9940, true}, {"ovine", 9940, true}, {"guinea pig", 10141, true}, {"guinea pigs", 10141, true}};


bool equal_at(std::string_view text, std::size_t at, std::string_view cue, bool any_case) {
  if (at + cue.size() > text.size()) return false;
  for (std::size_t i = 0; i < cue.size(); ++i) {
    const char a = text[at + i], b = cue[i];
    if (any_case ? std::tolower(static_cast<unsigned char>(a)) != std::tolower(static_cast<unsigned char>(b)) : a != b)
      return false;
  }
  return true;
}

// Whether the words after a cue make it the animal an antibody, a serum or an IgG came from.
bool reagent_after(std::string_view text, std::size_t end) {
  std::size_t i = end;
  while (i < text.size() && (text[i] == ' ' || text[i] == '-')) ++i;
  std::string next;
  for (; i < text.size() && (detail::ascii_alnum(text[i]) || text[i] == '-') && next.size() < 12; ++i)
    next.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text[i]))));
  // (and a method or an expression system: "yeast two-hybrid", "Xenopus oocytes", "rabbit
  // reticulocyte lysate", "the yeast homologue")
  for (const char *w : {"anti", "monoclonal", "polyclonal", "antibod", "serum", "sera", "igg", "igm", "albumin", "secondary",
                        "two-hybrid", "two", "2-hybrid", "one-hybrid", "three-hybrid", "oocyte", "reticulocyte", "homolog",
                        "ortholog", "counterpart"})
    if (next.rfind(w, 0) == 0) return true;
  return false;
}

// Whether the words around an animal's cue make it a host of another organism's tumour or cells:
// "nude mice", "athymic mice", "NOD/SCID mice", "immunodeficient mice", "a mouse xenograft model",
// "BALB/c nude mice" (the genes a xenograft paper studies are the grafted cells' ones; "human
// xenografts" are human).
bool host(std::string_view text, std::size_t at, std::size_t end) {
  std::size_t after = end;
  while (after < text.size() && (text[after] == ' ' || text[after] == '-')) ++after;
  for (const char *w : {"xenograft", "nude"})
    if (equal_at(text, after, w, true)) return true;
  std::size_t i = at;
  while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '(' || text[i - 1] == ')')) --i;
  std::size_t start = i;
  while (start > 0 && (detail::ascii_alnum(text[start - 1]) || text[start - 1] == '-' || text[start - 1] == '/')) --start;
  std::string word;
  for (std::size_t k = start; k < i; ++k) word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text[k]))));
  for (const char *w : {"nude", "athymic", "scid", "nod/scid", "nod-scid", "nsg", "immunodeficient", "immune-deficient",
                        "immunocompromised", "xenograft", "xenografted", "xenotransplanted"})
    if (word == w) return true;
  return false;
}

// Whether the words just before a cue name the organism as another's point of comparison, not as
// the one a text is about: "the vertebrate homologues of Drosophila dachsund", "the human homologue of
// mouse Ly9", "homology to yeast SDS3", "human orthologs of yeast Vps26", "conserved from yeast to
// humans", "a CIR homolog is encoded by Caenorhabditis elegans" (up to four words back, within the
// clause).
bool compared_before(std::string_view text, std::size_t at) {
  std::size_t i = at;
  for (int words = 0; words < 4 && i > 0; ++words) {
    while (i > 0 && !detail::ascii_alnum(text[i - 1])) {
      if (text[i - 1] == '.' || text[i - 1] == ';' || text[i - 1] == ':') return false;  // (not past a sentence or clause)
      --i;
    }
    std::size_t start = i;
    while (start > 0 && (detail::ascii_alnum(text[start - 1]) || text[start - 1] == '-')) --start;
    std::string word;
    for (std::size_t k = start; k < i; ++k) word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text[k]))));
    for (const char *w : {"homolog", "ortholog", "paralog", "counterpart"})
      if (word.rfind(w, 0) == 0) return true;
    if (word == "homology" || (word == "from" && words == 0 && start >= 10 && equal_at(text, start - 10, "conserved ", true)))
      return true;
    i = start;
  }
  return false;
}

// SGD's protein style: a gene name of three letters and a number, a final "p" ("Rad53p", "Cdc28p").
bool yeast_protein_style(std::string_view w) {
  if (w.size() < 5 || w.back() != 'p' || !std::isupper(static_cast<unsigned char>(w[0]))) return false;
  if (!std::islower(static_cast<unsigned char>(w[1])) || !std::islower(static_cast<unsigned char>(w[2]))) return false;
  const std::string_view digits = w.substr(3, w.size() - 4);
  return !digits.empty() && digits.size() <= 3 &&
         std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace

std::string organism_name(int64_t taxon) {
  for (const Species &s : kSpecies)
    if (s.taxon == taxon) return s.name;
  return {};
}

std::vector<OrganismEvidence> organisms_in_text(std::string_view text) {
  std::map<int64_t, OrganismEvidence> found;
  const auto note = [&](int64_t taxon, std::string_view as_written, std::size_t at) {
    OrganismEvidence &e = found[taxon];
    if (e.count == 0) {
      e.taxon = taxon;
      e.name = organism_name(taxon);
      e.first = at;
    }
    ++e.count;
    e.first = std::min(e.first, at);
    if (std::find(e.cues.begin(), e.cues.end(), as_written) == e.cues.end()) e.cues.emplace_back(as_written);
  };
  // At each word's start, the longest cue that begins there (a cue that is part of a longer one is
  // not counted twice: "budding yeast" is one cue); the cues by their first letter, longest first.
  static const std::vector<std::vector<const Cue *>> by_letter = [] {
    std::vector<std::vector<const Cue *>> b(256);
    for (const Cue &c : kCues) b[static_cast<unsigned char>(std::tolower(static_cast<unsigned char>(c.text[0])))].push_back(&c);
    for (auto &list : b)
      std::stable_sort(list.begin(), list.end(), [](const Cue *x, const Cue *y) { return std::strlen(x->text) > std::strlen(y->text); });
    return b;
  }();
  for (std::size_t at = 0; at < text.size();) {
    if (!detail::ascii_alnum(text[at]) || (at > 0 && detail::ascii_alnum(text[at - 1]))) {
      ++at;
      continue;
    }
    const Cue *cue = nullptr;
    for (const Cue *c : by_letter[static_cast<unsigned char>(std::tolower(static_cast<unsigned char>(text[at])))]) {
      const std::size_t end = at + std::strlen(c->text);
      if (equal_at(text, at, c->text, c->any_case) && (end == text.size() || !detail::ascii_alnum(text[end]))) {
        cue = c;
        break;
      }
    }
    if (!cue) {
      ++at;
      continue;
    }
    const std::size_t end = at + std::strlen(cue->text);
    const bool reagent = cue->any_case && reagent_after(text, end);
    const bool hosting = cue->taxon != 9606 && cue->kind == CueKind::name && host(text, at, end);
    // (a model organism a gene is compared with; "orthologues of human MAP9" in a worm paper still
    // names human genes, as annotators read them)
    const bool compared = cue->taxon != 9606 && compared_before(text, at);
    if (!reagent && !hosting && !compared) note(cue->taxon, text.substr(at, end - at), at);
    at = end;
  }
  for (std::size_t at = 0; at < text.size();) {
    if (!detail::ascii_alnum(text[at]) || (at > 0 && detail::ascii_alnum(text[at - 1]))) {
      ++at;
      continue;
    }
    std::size_t end = at;
    while (end < text.size() && detail::ascii_alnum(text[end])) ++end;
    if (yeast_protein_style(text.substr(at, end - at))) note(4932, text.substr(at, end - at), at);
    at = end;
  }
  std::vector<OrganismEvidence> out;
  for (auto &[taxon, e] : found) out.push_back(std::move(e));
  std::stable_sort(out.begin(), out.end(), [](const OrganismEvidence &a, const OrganismEvidence &b) {
    return a.count != b.count ? a.count > b.count : a.first < b.first;
  });
  return out;
}

namespace detail {

const std::map<std::string_view, int64_t> &organism_words() {
  static const std::map<std::string_view, int64_t> m = [] {
    // (a species' second name alone, as questions write it: "in cerevisiae", "E. coli")
    std::map<std::string_view, int64_t> w = {{"sapiens", 9606}, {"cerevisiae", 4932}, {"saccharomyces", 4932},
                                             {"elegans", 6239}, {"fly", 7227},        {"worm", 6239},
                                             {"coli", 511145},  {"pombe", 4896}};
    for (const Cue &c : kCues)
      if (c.any_case && std::strchr(c.text, ' ') == nullptr && std::strchr(c.text, '-') == nullptr) {
        bool lower = true;
        for (const char *p = c.text; *p; ++p) lower = lower && !std::isupper(static_cast<unsigned char>(*p));
        if (lower) w.emplace(c.text, c.taxon);
      }
    w.emplace("drosophila", 7227);
    w.emplace("arabidopsis", 3702);
    w.emplace("xenopus", 8355);
    return w;
  }();
  return m;
}

int64_t organism_before_name(std::string_view lower_word) {
  for (const Cue &c : kCues)
    if (c.kind == CueKind::people && lower_word == c.text) return 0;
  return organism_word(lower_word);
}

int64_t organism_word(std::string_view lower_word) {
  const auto it = organism_words().find(lower_word);
  return it == organism_words().end() ? 0 : it->second;
}

int64_t cell_line(std::string_view text) {
  for (const Cue &c : kCues)
    if (c.kind == CueKind::cell_line && text == c.text) return c.taxon;
  return 0;
}

}  // namespace detail

}  // namespace grappi
