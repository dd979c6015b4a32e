// The text side of relation grounding (see grounding_text.hpp).
#include "common/grounding_text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "common/text_util.hpp"

namespace grappi::detail {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> chunk_ranges(std::string_view text, std::size_t size,
                                                              std::size_t overlap) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  const std::size_t n = text.size();
  std::size_t start = 0;
  while (start < n) {
    std::size_t end = std::min(n, start + size);
    if (end < n) {
      // Prefer a sentence end, then a line end, then a blank, in the last quarter.
      const std::size_t floor = end - size / 4;
      std::size_t cut = 0;
      for (std::size_t i = end; i > floor && !cut; --i)
        if ((text[i - 1] == '.' || text[i - 1] == '!' || text[i - 1] == '?') && i < n && blank(text[i])) cut = i;
      for (std::size_t i = end; i > floor && !cut; --i)
        if (text[i - 1] == '\n') cut = i;
      for (std::size_t i = end; i > floor && !cut; --i)
        if (blank(text[i - 1])) cut = i;
      if (cut) end = cut;
    }
    out.emplace_back(start, end);
    if (end >= n) break;
    const std::size_t next = end > overlap ? end - overlap : 0;
    start = std::max(next, start + 1);
  }
  return out;
}

std::vector<std::pair<std::size_t, std::size_t>> sentence_ranges(std::string_view text) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  const std::size_t n = text.size();
  auto push = [&](std::size_t b, std::size_t e) {
    while (b < e && blank(text[b])) ++b;
    while (e > b && blank(text[e - 1])) --e;
    if (e > b) out.emplace_back(b, e);
  };
  std::size_t start = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = text[i];
    if ((c == '.' || c == '!' || c == '?') && (i + 1 == n || blank(text[i + 1]))) {
      push(start, i + 1);
      start = i + 1;
    } else if (c == '\n') {
      std::size_t j = i + 1;
      while (j < n && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r')) ++j;
      if (j < n && text[j] == '\n') {  // a blank line ends a paragraph (and a heading)
        push(start, i);
        start = j;
        i = j;
      }
    }
  }
  push(start, n);
  return out;
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || (static_cast<unsigned char>(c) & 0x80); }

std::string ascii_punctuation(std::string_view text) {
  std::string out(text);
  for (std::size_t i = 0; i + 1 < out.size(); ++i) {
    const auto b0 = static_cast<unsigned char>(out[i]), b1 = static_cast<unsigned char>(out[i + 1]);
    if (b0 == 0xC2 && b1 == 0xA0) {
      out[i] = out[i + 1] = ' ';
      ++i;
      continue;
    }
    if (i + 2 >= out.size() || b0 != 0xE2) continue;
    const auto b2 = static_cast<unsigned char>(out[i + 2]);
    char with = 0;
    if (b1 == 0x80 && b2 >= 0x90 && b2 <= 0x95) with = '-';
    else if (b1 == 0x88 && b2 == 0x92) with = '-';
    else if (b1 == 0x80 && b2 >= 0x98 && b2 <= 0x9F) with = '\'';
    else if (b1 == 0x80 && ((b2 >= 0x82 && b2 <= 0x8A) || b2 == 0xAF)) with = ' ';
    if (!with) continue;
    out[i] = out[i + 1] = out[i + 2] = with;
    i += 2;
  }
  return out;
}

bool name_like_alias(std::string_view alias) {
  if (alias.size() < 3 || alias.size() > 60 || alias.find_first_of(":_|") != std::string_view::npos) return false;
  std::size_t digits = 0, run = 0;
  for (char c : alias) {
    run = std::isdigit(static_cast<unsigned char>(c)) ? run + 1 : 0;
    digits = std::max(digits, run);
  }
  if (digits >= 4 || digits == alias.size()) return false;               // accessions and numbers
  return !(alias.find('.') != std::string_view::npos && digits > 0);     // "NP_001.2", "9606.ENSP..."
}

bool gene_type(std::string_view annotation_type) {
  const std::string l = lower_copy(annotation_type);
  return l == "gene" || l == "geneorgeneproduct" || l.find("protein") != std::string::npos;
}

bool symbol_like(std::string_view name) {
  return name.size() <= 5 && std::any_of(name.begin(), name.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

bool case_compatible(std::string_view name, std::string_view seen) {
  const auto any = [](std::string_view s, char from, char to) {
    return std::any_of(s.begin(), s.end(), [&](char c) { return c >= from && c <= to; });
  };
  // (words apart in small letters are running text, no name written in capitals: "a beta" in
  // "encodes a beta subunit" is not SUCLA2's A-BETA)
  if (seen.find(' ') != std::string_view::npos && !any(seen, 'A', 'Z') && !any(seen, '0', '9') && any(name, 'A', 'Z') &&
      !any(name, 'a', 'z'))
    return false;
  if (!symbol_like(name)) return true;
  // (a word with letters and a digit is no English word: "p53", "p21" as papers write them)
  const bool digit = std::any_of(seen.begin(), seen.end(), [](char c) { return c >= '0' && c <= '9'; });
  const bool letter = std::any_of(seen.begin(), seen.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
  if (std::none_of(seen.begin(), seen.end(), [](char c) { return c >= 'A' && c <= 'Z'; }) && !(digit && letter && seen.size() >= 3))
    return false;
  // A symbol of one word written as several is written word by word in capitals or digits
  // ("IL 2" is IL2; "As a", at a sentence's start, is no ASA).
  if (name.find(' ') == std::string_view::npos && seen.find(' ') != std::string_view::npos)
    for (std::size_t i = 0; i < seen.size(); ++i)
      if ((i == 0 || seen[i - 1] == ' ') && seen[i] != ' ' && !(seen[i] >= 'A' && seen[i] <= 'Z') &&
          !(seen[i] >= '0' && seen[i] <= '9'))
        return false;
  return true;
}

MentionFinder::MentionFinder(std::vector<std::string> names) {
  for (auto &n : names) {
    n = trim_copy(n);
    if (!n.empty() && std::find(names_.begin(), names_.end(), n) == names_.end()) names_.push_back(std::move(n));
  }
}

bool MentionFinder::mentioned_in(std::string_view text) const {
  const std::string hay = lower_copy(text);
  for (const std::string &name : names_) {
    const std::string needle = lower_copy(name);
    for (std::size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) {
      const bool left = at == 0 || !word_char(hay[at - 1]) || !word_char(needle.front());
      const std::size_t e = at + needle.size();
      const bool right = e == hay.size() || !word_char(hay[e]) || !word_char(needle.back());
      if (!left || !right) continue;
      // A gene symbol written all in lower case is an English word ("cat" is not CAT; "Cdc28"
      // and "CDC28" are CDC28).
      if (!case_compatible(name, text.substr(at, needle.size()))) continue;
      return true;
    }
  }
  return false;
}

std::optional<std::size_t> find_quote(std::string_view text, std::string_view quote) {
  // The quote normalised: no surrounding quotation marks or ellipses, blanks collapsed.
  std::string q = trim_copy(quote);
  for (bool changed = true; changed && !q.empty();) {
    changed = false;
    for (std::string_view m : {"\"", "'", "\xe2\x80\x9c", "\xe2\x80\x9d", "...", "\xe2\x80\xa6"}) {
      if (q.size() >= m.size() && q.compare(0, m.size(), m) == 0) {
        q.erase(0, m.size());
        changed = true;
      }
      if (q.size() >= m.size() && q.compare(q.size() - m.size(), m.size(), m) == 0) {
        q.resize(q.size() - m.size());
        changed = true;
      }
    }
    q = trim_copy(q);
  }
  if (q.size() < 8) return std::nullopt;  // too short to be evidence
  std::string nq;
  for (char c : q) {
    if (blank(c)) {
      if (!nq.empty() && nq.back() != ' ') nq += ' ';
    } else {
      nq += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  // The text normalised the same way, remembering where each character came from.
  std::string nt;
  std::vector<std::size_t> from;
  nt.reserve(text.size());
  from.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (blank(c)) {
      if (!nt.empty() && nt.back() != ' ') {
        nt += ' ';
        from.push_back(i);
      }
    } else {
      nt += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      from.push_back(i);
    }
  }
  const std::size_t at = nt.find(nq);
  if (at == std::string::npos) return std::nullopt;
  return from[at];
}

std::vector<std::string> stems(std::string_view text) {
  static const char *kSuffixes[] = {"ational", "ations", "ation", "ating", "ated", "ates", "ings", "ing",
                                    "ions",    "ion",    "ies",   "ly",    "ed",   "es",  "s"};
  std::vector<std::string> out;
  for (std::string w : words(text)) {
    if (w.size() < 3 || is_stop_word(w)) continue;
    for (const char *s : kSuffixes) {
      const std::size_t k = std::char_traits<char>::length(s);
      if (w.size() >= k + 4 && w.compare(w.size() - k, k, s) == 0) {
        w.resize(w.size() - k);
        break;
      }
    }
    // "phosphorylate" and "phosphorylat(ion)": a trailing 'e' goes too.
    if (w.size() > 5 && w.back() == 'e') w.pop_back();
    out.push_back(std::move(w));
  }
  return out;
}

TermSimilarity::TermSimilarity(const std::vector<std::string> &documents) {
  std::vector<std::unordered_map<std::string, double>> tf(documents.size());
  std::unordered_map<std::string, std::size_t> df;
  for (std::size_t d = 0; d < documents.size(); ++d) {
    for (const std::string &s : stems(documents[d])) tf[d][s] += 1;
    for (const auto &kv : tf[d]) ++df[kv.first];
  }
  const double n = static_cast<double>(std::max<std::size_t>(1, documents.size()));
  for (const auto &[s, k] : df) idf_[s] = std::log((1 + n) / (1 + static_cast<double>(k))) + 1;
  default_idf_ = std::log(1 + n) + 1;  // a word no term has
  docs_.reserve(documents.size());
  for (auto &v : tf) {
    double norm = 0;
    for (auto &[s, w] : v) {
      w = (1 + std::log(w)) * idf_[s];
      norm += w * w;
    }
    norm = std::sqrt(norm);
    if (norm > 0)
      for (auto &kv : v) kv.second /= norm;
    docs_.push_back(std::move(v));
  }
}

std::unordered_map<std::string, double> TermSimilarity::vector_of(std::string_view text) const {
  std::unordered_map<std::string, double> v;
  for (const std::string &s : stems(text)) v[s] += 1;
  double norm = 0;
  for (auto &[s, w] : v) {
    const auto it = idf_.find(s);
    w = (1 + std::log(w)) * (it == idf_.end() ? default_idf_ : it->second);
    norm += w * w;
  }
  norm = std::sqrt(norm);
  if (norm > 0)
    for (auto &kv : v) kv.second /= norm;
  return v;
}

std::vector<double> TermSimilarity::similarity(std::string_view text) const {
  const auto q = vector_of(text);
  std::vector<double> out(docs_.size(), 0.0);
  for (std::size_t d = 0; d < docs_.size(); ++d) {
    double s = 0;
    for (const auto &[stem, w] : docs_[d]) {
      const auto it = q.find(stem);
      if (it != q.end()) s += w * it->second;
    }
    out[d] = s;
  }
  return out;
}

}  // namespace grappi::detail
