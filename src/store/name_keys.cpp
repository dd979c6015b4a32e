// The name linker's keys and derived names (name_keys.hpp).
#include "store/name_keys.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace grappi::detail {

namespace {

struct Greek {
  const char *name;
  char initial;  // 0: symbols keep it spelled
};

// In the order of the alphabet (the Unicode code points' order).
const Greek kGreek[] = {{"alpha", 'a'},  {"beta", 'b'}, {"gamma", 'g'}, {"delta", 'd'}, {"epsilon", 'e'},
                        {"zeta", 'z'},   {"eta", 'h'},  {"theta", 'q'}, {"iota", 'i'},  {"kappa", 'k'},
                        {"lambda", 'l'}, {"mu", 0},     {"nu", 0},      {"xi", 0},      {"omicron", 0},
                        {"pi", 0},       {"rho", 0},    {"sigma", 's'}, {"sigma", 's'}, {"tau", 0},
                        {"upsilon", 0},  {"phi", 0},    {"chi", 0},     {"psi", 0},     {"omega", 'w'}};

// Spelled as a word, "eta" is too common a syllable to be read as the letter; the others that
// symbols abbreviate are.
char spelled_initial(std::string_view w) {
  if (w == "eta") return 0;
  return greek_initial(w);
}

bool ascii_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool ascii_lower(char c) { return c >= 'a' && c <= 'z'; }

}  // namespace

bool key_gap(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '-' || c == '/' || c == '.' || c == '_' || c == '\'';
}

char greek_initial(std::string_view spelled) {
  for (const Greek &g : kGreek)
    if (spelled == g.name) return g.initial;
  return 0;
}

bool greek_name(std::string_view lower_word) {
  return std::any_of(std::begin(kGreek), std::end(kGreek), [&](const Greek &g) { return lower_word == g.name; });
}

const char *greek_letter(unsigned char lead, unsigned char next) {
  if (lead == 0xC2 && next == 0xB5) return "mu";
  unsigned code = 0;
  if (lead == 0xCE && next >= 0x80 && next <= 0xBF) code = 0x380 + (next - 0x80);
  else if (lead == 0xCF && next >= 0x80 && next <= 0x89) code = 0x3C0 + (next - 0x80);
  else return nullptr;
  if (code >= 0x391 && code <= 0x3A9 && code != 0x3A2) return kGreek[code - 0x391].name;
  if (code >= 0x3B1 && code <= 0x3C9) return kGreek[code - 0x3B1].name;
  return nullptr;
}

void NameKey::fold_run(std::string &initials, std::size_t &plain) const {
  if (run_ == std::string::npos) return;
  const std::size_t length = initials.size() - run_;
  if (const char initial = spelled_initial(std::string_view(initials).substr(run_))) {
    initials.resize(run_);
    initials.push_back(initial);
  } else {
    plain += length;
  }
}

void NameKey::settle() {
  fold_run(initials_, plain_);
  run_ = std::string::npos;
}

std::size_t NameKey::push(std::string_view text, std::size_t i) {
  const char c = text[i];
  if (key_gap(c)) {
    settle();
    last_ = 0;
    return 1;
  }
  if (i + 1 < text.size())
    if (const char *g = greek_letter(static_cast<unsigned char>(c), static_cast<unsigned char>(text[i + 1]))) {
      settle();
      const char initial = greek_initial(g);
      if (initial) initials_.push_back(initial);
      else initials_ += g;
      spelled_ += g;
      last_ = 0;
      return 2;
    }
  const bool upper = ascii_upper(c), lower = ascii_lower(c);
  const char folded = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  spelled_.push_back(folded);
  if (upper || lower) {
    // A new run of letters: after a non-letter, at a change from lower to upper case ("NFkappaB":
    // "kappa" | "B"), or from two or more capitals to lower case ("IFNgamma": "IFN" | "gamma";
    // "Beta" stays one word).
    const bool split = run_ != std::string::npos &&
                       ((last_ == 1 && upper) || (last_ == 2 && lower && run_upper_ && initials_.size() - run_ >= 2));
    if (split) settle();
    if (run_ == std::string::npos) {
      run_ = initials_.size();
      run_upper_ = true;
    }
    initials_.push_back(folded);
    run_upper_ = run_upper_ && upper;
    last_ = upper ? 2 : 1;
    return 1;
  }
  settle();
  initials_.push_back(folded);
  if (std::isdigit(static_cast<unsigned char>(c))) ++plain_;
  last_ = 0;
  return 1;
}

std::string NameKey::key() const {
  std::size_t plain = plain_;
  std::string initials = initials_;
  fold_run(initials, plain);
  // (a name that is little more than its Greek letters keeps them spelled: "ALPHA1", "Gbeta")
  return plain >= 2 ? initials : spelled_;
}

bool NameKey::greek_pending() const {
  if (run_ == std::string::npos) return false;
  const std::string_view run = std::string_view(initials_).substr(run_);
  for (const Greek &g : kGreek)
    if (g.initial && std::strlen(g.name) >= run.size() && std::string_view(g.name).compare(0, run.size(), run) == 0)
      return true;
  return false;
}

std::string name_key(std::string_view name) {
  NameKey k;
  for (std::size_t i = 0; i < name.size();) i += k.push(name, i);
  return k.key();
}

std::vector<std::string> name_words(std::string_view name) {
  std::vector<std::string> words;
  std::string w;
  for (std::size_t i = 0; i <= name.size(); ++i) {
    const char c = i < name.size() ? name[i] : ' ';
    if (c == ' ' || c == '-' || c == '\t') {
      if (!w.empty()) words.push_back(w);
      w.clear();
    } else {
      w.push_back(c);
    }
  }
  return words;
}

std::string words_key(std::string_view name) {
  std::vector<std::string> words;
  for (const std::string &w : name_words(name)) words.push_back(name_key(w));
  if (words.size() < 2) return {};
  std::sort(words.begin(), words.end());
  std::string out;
  for (const std::string &x : words) out += (out.empty() ? "" : " ") + x;
  return out;
}

std::pair<std::string, std::string> numbered_stem(std::string_view name) {
  std::size_t end = name.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(name[end - 1]))) --end;
  if (end == name.size() || end == 0 || (name[end - 1] != ' ' && name[end - 1] != '-')) return {};
  std::string stem(name.substr(0, end - 1));
  while (!stem.empty() && (stem.back() == ' ' || stem.back() == '-')) stem.pop_back();
  if (stem.empty()) return {};
  return {stem, std::string(name.substr(end))};
}

std::vector<DerivedName> full_name_variants(const std::string &full, bool lone_one) {
  std::vector<DerivedName> out;
  const auto add = [&](std::string name, const char *how) {
    if (name.size() < 3 || name_key(name) == name_key(full)) return;
    for (const DerivedName &d : out)
      if (name_key(d.name) == name_key(name)) return;
    out.push_back({std::move(name), how});
  };
  std::vector<std::string> bases = {full};
  // (a qualifier of one or two words after a name of two words or more: "cytochrome c, somatic";
  // not "Muscle, skeletal receptor tyrosine-protein kinase")
  if (const std::size_t comma = full.find(", "); comma != std::string::npos && comma >= 3) {
    const std::string head = full.substr(0, comma), tail = full.substr(comma + 2);
    // (not a qualifier with the gene's number: "nuclear factor, erythroid 2" is no "nuclear factor")
    if (name_words(head).size() >= 2 && !tail.empty() && name_words(tail).size() <= 2 &&
        tail.find(',') == std::string::npos && tail.find_first_of("0123456789") == std::string::npos) {
      bases.push_back(head);
      add(head, "without_qualifier");
    }
  }
  // (not a stem that ends as a phrase of running text does: a participle or adjective, "metastasis
  // associated", "glucocorticoid induced", "bromodomain containing", "hippocalcin like", or a
  // process, "myogenic differentiation", "ribosomal RNA processing")
  const auto phrase_like = [](const std::string &stem) {
    std::string last = stem.substr(stem.find_last_of(" -") + 1);
    for (char &c : last) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto ends = [&](std::string_view tail) {
      return last.size() > tail.size() && last.compare(last.size() - tail.size(), tail.size(), tail) == 0;
    };
    return last == "like" || last == "rich" || ends("ed") || ends("ing") || ends("tion") || ends("sion") || ends("ment");
  };
  if (lone_one)
    for (std::size_t b = 0, n = bases.size(); b < n; ++b) {
      const auto [stem, number] = numbered_stem(bases[b]);
      if (number == "1" && stem.find(' ') != std::string::npos && !phrase_like(stem)) {
        bases.push_back(stem);
        add(stem, "without_number");
      }
    }
  for (const std::string &base : bases) {
    const std::vector<std::string> words = name_words(base);
    // (an enzyme's "synthetase" as papers now write it: "thymidylate synthetase" is "thymidylate synthase")
    if (constexpr std::string_view old_word = " synthetase";
        base.size() > old_word.size() && base.compare(base.size() - old_word.size(), old_word.size(), old_word) == 0)
      add(base.substr(0, base.size() - old_word.size()) + " synthase", "synthase");
    // (the first two of a numbered pair by their Greek letters: "estrogen receptor 1" is "estrogen receptor alpha",
    // "estrogen receptor 2" "estrogen receptor beta"; not where the stem holds a number or a Greek letter already)
    if (const auto [stem, number] = numbered_stem(base);
        (number == "1" || number == "2") && name_words(stem).size() >= 2 &&
        stem.find_first_of("0123456789") == std::string::npos &&
        std::none_of(words.begin(), words.end(), [](const std::string &w) { return spelled_initial(w) != 0; }))
      add(stem + (number == "1" ? " alpha" : " beta"), "greek_number");
    if (words.size() == 2 && spelled_initial(words[1]) && !spelled_initial(words[0]))
      add(words[1] + "-" + words[0], "greek_first");
    // (not a Greek letter that with what follows designates one of several: "catenin beta 1")
    const auto designation = [](const std::string &w) {
      return w.size() <= 2 ||
             std::any_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    };
    if (words.size() >= 3)
      for (std::size_t i = 1; i + 1 < words.size(); ++i)
        if (spelled_initial(words[i]) && !designation(words[i + 1])) {
          std::string without;
          for (std::size_t k = 0; k < words.size(); ++k)
            if (k != i) without += (without.empty() ? "" : " ") + words[k];
          add(without, "without_greek");
        }
    // (a closing number as a Roman numeral, as papers number isoforms and receptors: "copine 3" is
    // "copine III", "neurexin 1" "neurexin I")
    if (const auto [stem, number] = numbered_stem(base); !stem.empty() && number.size() <= 2) {
      static const char *const kRoman[] = {"", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"};
      const int n = std::stoi(number);
      if (n >= 1 && n <= 10) add(stem + " " + kRoman[n], "roman_number");
    }
  }
  return out;
}

std::vector<DerivedName> slash_variants(const std::string &alias) {
  const std::size_t slash = alias.find('/');
  if (slash == std::string::npos || alias.find('/', slash + 1) != std::string::npos) return {};
  const std::string before = alias.substr(0, slash), after = alias.substr(slash + 1);
  if (after.empty() || after.size() > 2 || before.size() < after.size() + 2) return {};
  const auto alnum = [](const std::string &s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
  };
  if (!alnum(after)) return {};
  // (the characters replaced are of the same kind: "XL/S", "1/2"; not "HIV-1/ab")
  const std::string replaced = before.substr(before.size() - after.size());
  const auto kind = [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) ? 0 : std::isalpha(static_cast<unsigned char>(c)) ? 1 : 2;
  };
  for (std::size_t i = 0; i < after.size(); ++i)
    if (kind(after[i]) != kind(replaced[i]) || kind(after[i]) == 2) return {};
  return {{before, "slash"}, {before.substr(0, before.size() - after.size()) + after, "slash"}};
}

bool name_like_description(std::string_view clause) {
  if (clause.size() < 5 || clause.size() > 80) return false;
  std::string lower;
  for (char c : clause) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  for (const char *open : {"uncharacterized", "uncharacterised", "putative", "probable", "hypothetical", "protein "})
    if (lower.rfind(open, 0) == 0) return false;
  if (lower.find("[...]") != std::string::npos || lower.find("fragment") != std::string::npos) return false;
  // (a name, not a sentence: "Protein kinase of the mitotic exit network" is left out above, a
  // clause of more than six words here)
  std::size_t words = 1;
  for (char c : clause) words += c == ' ';
  if (words > 6) return false;
  // (marked as a name: a digit, a hyphen or a Greek letter; "Transcription factor" is a class)
  bool greek = false;
  for (const std::string &w : name_words(lower)) greek = greek || spelled_initial(w);
  return greek || clause.find_first_of("0123456789-") != std::string_view::npos;
}

}  // namespace grappi::detail
