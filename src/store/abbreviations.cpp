// Abbreviations a text defines (grappi/entities.hpp), the Schwartz–Hearst way: a short form in
// parentheses after its long form (or the other way round), the long form taken from the words just
// before the parenthesis, as few as match every letter and digit of the short form in order, its
// first letter at the start of a word.
#include <algorithm>
#include <cctype>
#include <set>

#include "grappi/entities.hpp"
#include "common/text_util.hpp"

namespace grappi {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::size_t count_words(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++i)
    n += !std::isspace(static_cast<unsigned char>(s[i])) && (i == 0 || std::isspace(static_cast<unsigned char>(s[i - 1])));
  return n;
}

// A short form: one or two words of 2 to 10 characters, beginning with a letter or digit, with a
// capital letter ("LPS", "TNF-α", "IL-6", "HCCs"), not a number alone.
bool short_form_like(std::string_view s) {
  if (s.size() < 2 || s.size() > 10 || count_words(s) > 2 || !detail::ascii_alnum(s.front())) return false;
  const bool capital = std::any_of(s.begin(), s.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; });
  const bool letter = std::any_of(s.begin(), s.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
  return capital && letter;
}

// The shortest end of `candidate` that matches `sf` (Schwartz & Hearst's backward match), or empty.
std::string_view long_form(std::string_view sf, std::string_view candidate) {
  std::ptrdiff_t s = static_cast<std::ptrdiff_t>(sf.size()) - 1, l = static_cast<std::ptrdiff_t>(candidate.size()) - 1;
  for (; s >= 0; --s) {
    const char c = lower(sf[static_cast<std::size_t>(s)]);
    if (!detail::ascii_alnum(c)) continue;
    while (l >= 0 && (lower(candidate[static_cast<std::size_t>(l)]) != c ||
                      (s == 0 && l > 0 && detail::ascii_alnum(candidate[static_cast<std::size_t>(l - 1)]))))
      --l;
    if (l < 0) return {};
    --l;
  }
  // (back to the start of the word the match began in)
  std::size_t start = static_cast<std::size_t>(l + 1);
  while (start > 0 && !std::isspace(static_cast<unsigned char>(candidate[start - 1]))) --start;
  return trim(candidate.substr(start));
}

// The last `n` words of `s` (within its sentence: not across ". " or a line break).
std::string_view last_words(std::string_view s, std::size_t n) {
  std::size_t begin = 0;
  for (std::size_t i = s.size(); i > 0; --i) {
    const char c = s[i - 1];
    if (c == '\n' || c == ';' || (c == '.' && i < s.size() && s[i] == ' ') || c == '(' || c == ')' || c == '[' || c == ']') {
      begin = i;
      break;
    }
  }
  s = trim(s.substr(begin));
  std::size_t words = 0;
  for (std::size_t i = s.size(); i > 0; --i) {
    if (!std::isspace(static_cast<unsigned char>(s[i - 1])) && (i == 1 || std::isspace(static_cast<unsigned char>(s[i - 2]))))
      if (++words == n) return s.substr(i - 1);
  }
  return s;
}

bool acceptable(std::string_view sf, std::string_view lf) {
  if (lf.empty() || lf.size() <= sf.size()) return false;
  const std::size_t words = count_words(lf), chars = sf.size();
  if (words > std::min(chars + 5, chars * 2)) return false;
  // (the long form does not contain the short form as a word: "the LPS" for "LPS")
  for (std::size_t at = lf.find(sf); at != std::string_view::npos; at = lf.find(sf, at + 1))
    if ((at == 0 || !detail::ascii_alnum(lf[at - 1])) && (at + sf.size() == lf.size() || !detail::ascii_alnum(lf[at + sf.size()]))) return false;
  return true;
}

}  // namespace

std::vector<Abbreviation> abbreviations_in_text(std::string_view text) {
  std::vector<Abbreviation> out;
  std::set<std::string, std::less<>> seen;
  for (std::size_t open = text.find('('); open != std::string_view::npos; open = text.find('(', open + 1)) {
    std::size_t close = open + 1;
    while (close < text.size() && close - open < 200 && text[close] != ')' && text[close] != '(') ++close;
    if (close >= text.size() || text[close] != ')') continue;
    std::string_view inner = text.substr(open + 1, close - open - 1);
    // ("(LPS; 1 µg/ml)", "(IL-6, a cytokine)": the part before)
    if (const std::size_t cut = std::min(inner.find("; "), inner.find(", ")); cut != std::string_view::npos) inner = inner.substr(0, cut);
    const std::size_t lead = static_cast<std::size_t>(std::find_if(inner.begin(), inner.end(), [](char c) {
                                                         return !std::isspace(static_cast<unsigned char>(c));
                                                       }) - inner.begin());
    inner = trim(inner);
    std::string_view sf, lf;
    std::size_t at = 0;
    if (short_form_like(inner)) {
      sf = inner;
      at = open + 1 + lead;
      lf = long_form(sf, last_words(text.substr(0, open), std::min(sf.size() + 5, sf.size() * 2)));
    } else if (count_words(inner) >= 2 || inner.size() > 10) {
      // the other way round: "LPS (lipopolysaccharide from E. coli)"
      std::size_t end = open;
      while (end > 0 && text[end - 1] == ' ') --end;
      std::size_t begin = end;
      while (begin > 0 && !std::isspace(static_cast<unsigned char>(text[begin - 1])) && text[begin - 1] != '(') --begin;
      sf = text.substr(begin, end - begin);
      at = begin;
      if (!short_form_like(sf)) continue;
      lf = long_form(sf, inner);
      if (lf != inner) continue;  // (the whole parenthesis, or nothing)
    }
    if (sf.empty() || !acceptable(sf, lf) || seen.count(sf)) continue;
    seen.emplace(sf);
    Abbreviation a;
    a.short_form = std::string(sf);
    a.long_form = std::string(lf);
    a.offset = at;
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace grappi
