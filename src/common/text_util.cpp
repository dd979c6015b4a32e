#include "common/text_util.hpp"

#include <ctime>
#include <algorithm>
#include <cctype>
#include <random>
#include <unordered_set>
#include <sstream>

#include <openssl/evp.h>
#include "common/text_reader.hpp"
#include "grappi/error.hpp"

namespace grappi::detail {

std::string lower_copy(std::string_view s) {
  std::string r(s);
  for (auto &c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::string upper_copy(std::string_view s) {
  std::string r(s);
  for (auto &c : r) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return r;
}

bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

std::vector<std::string_view> split_view(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string_view::npos ? std::string_view::npos : p - start));
    if (p == std::string_view::npos) return out;
    start = p + 1;
  }
}

std::string trim_copy(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string file_stem(const std::string &path, std::initializer_list<const char *> extensions) {
  const std::size_t slash = path.find_last_of("/\\");
  std::string b = path.substr(slash == std::string::npos ? 0 : slash + 1);
  for (const char *ext : extensions) {
    const std::size_t n = std::char_traits<char>::length(ext);
    if (b.size() > n && b.compare(b.size() - n, std::string::npos, ext) == 0) b.resize(b.size() - n);
  }
  return b;
}

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || u >= 0x80) {
      cur += static_cast<char>(std::tolower(u));
    } else if (!cur.empty()) {
      out.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

namespace {

// English function words, for every place that looks at words (the hashing embedder's features,
// the query's content words).
const std::unordered_set<std::string_view> &english_stop_words() {
  static const std::unordered_set<std::string_view> s = {
      "a",     "about", "all",   "also",  "an",    "and",     "any",   "are",   "as",    "at",    "be",
      "been",  "being", "between", "but", "by",    "can",     "could", "did",   "does",  "for",   "from",
      "had",   "has",   "have",  "how",   "in",    "into",    "is",    "it",    "its",   "may",   "might",
      "not",   "of",    "on",    "onto",  "or",    "our",     "per",   "should", "such", "than",  "that",
      "the",   "their", "then",  "there", "these", "this",    "those", "to",    "use",   "using", "via",
      "was",   "were",  "what",  "which", "who",   "whom",    "why",   "will",  "with",  "would", "your"};
  return s;
}

// Words too general to say what a biomedical question is about ("which protein targets ...").
const std::unordered_set<std::string_view> &generic_query_words() {
  static const std::unordered_set<std::string_view> s = {
      "protein", "proteins", "gene", "genes", "role", "effect", "effects", "target", "targets", "pathway",
      "pathways", "interaction", "interactions"};
  return s;
}

}  // namespace

bool is_stop_word(std::string_view word) { return english_stop_words().count(word) != 0; }

std::vector<std::string> content_terms(std::string_view query) {
  std::vector<std::string> out;
  for (auto &w : words(query)) {
    if (w.size() < 3 || is_stop_word(w) || generic_query_words().count(w)) continue;
    if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  }
  return out;
}

bool text_has_term(std::string_view text, const std::string &term) {
  if (term.empty()) return false;
  const std::size_t n = term.size();
  const std::size_t prefix = n <= 5 ? n : std::max<std::size_t>(5, n - 3);
  for (const auto &w : words(text)) {
    if (n <= 5) {
      if (w == term) return true;
    } else if (w.size() >= prefix && w.compare(0, prefix, term, 0, prefix) == 0) {
      return true;
    }
  }
  return false;
}

std::string fixed(double v, int prec) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(prec);
  o << v;
  return o.str();
}

std::string channel_list(const std::vector<Channel> &channels, const char *assign, const char *sep) {
  std::string out;
  for (const auto &c : channels)
    if (c.score > 0) out += (out.empty() ? "" : sep) + c.name + assign + fixed(c.score, 3);
  return out;
}

std::string to_hex(const void *bytes, std::size_t n) {
  static const char *hex = "0123456789abcdef";
  const auto *b = static_cast<const unsigned char *>(bytes);
  std::string out(2 * n, '0');
  for (std::size_t i = 0; i < n; ++i) {
    out[2 * i] = hex[b[i] >> 4];
    out[2 * i + 1] = hex[b[i] & 15];
  }
  return out;
}

namespace {

// Whether a link target runs code or reads local files when followed ("javascript:alert(1)").
bool unsafe_link_target(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '<')) ++i;
  std::string scheme;
  for (; i < s.size() && scheme.size() < 12 && s[i] != ':'; ++i)
    scheme += static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
  if (i >= s.size() || s[i] != ':') return false;
  return scheme == "javascript" || scheme == "vbscript" || scheme == "data" || scheme == "file";
}

// The length of the well-formed UTF-8 character at s[i] (a byte >= 0x80), 0 when none starts there.
std::size_t utf8_length_at(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const std::size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  return n && i + n <= s.size() && valid_utf8(s.substr(i, n)) ? n : 0;
}

}  // namespace

std::string markdown_text(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      // (a byte that starts no UTF-8 character: U+FFFD, as the HTML report shows it)
      const std::size_t n = utf8_length_at(s, i);
      o += n ? std::string(s.substr(i, n)) : std::string("\xEF\xBF\xBD");
      i += n ? n : 1;
      continue;
    }
    switch (c) {
      case '|': o += "\\|"; break;
      case '\n':
      case '\r': o += ' '; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      // ("[x](javascript:...)": the parenthesis escaped, so no link is made)
      case '(': o += i > 0 && s[i - 1] == ']' && unsafe_link_target(s.substr(i + 1)) ? "\\(" : "("; break;
      default: o += c;
    }
    ++i;
  }
  return o;
}

std::string markup_text(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 16);
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') ? ' ' : c;
    }
  }
  return out;
}

std::string utf8_prefix(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  std::size_t n = max_bytes;
  // Back off continuation bytes (10xxxxxx), then the lead byte of the cut character.
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return std::string(s.substr(0, n));
}

std::string sha256_hex(std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &n, EVP_sha256(), nullptr);
  return to_hex(md, n);
}

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  if (!ctx_ || EVP_DigestInit_ex(static_cast<EVP_MD_CTX *>(ctx_), EVP_sha256(), nullptr) != 1) {
    EVP_MD_CTX_free(static_cast<EVP_MD_CTX *>(ctx_));
    throw Error(ErrorCode::internal, "cannot initialise SHA-256");
  }
}

Sha256::~Sha256() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX *>(ctx_)); }

void Sha256::update(const void *data, std::size_t n) { EVP_DigestUpdate(static_cast<EVP_MD_CTX *>(ctx_), data, n); }

std::string Sha256::hex() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(static_cast<EVP_MD_CTX *>(ctx_), md, &n);
  return to_hex(md, n);
}

std::string random_hex(std::size_t bytes) {
  std::random_device rd;
  std::vector<unsigned char> b(bytes);
  for (auto &x : b) x = static_cast<unsigned char>(rd() & 0xFF);
  return to_hex(b.data(), b.size());
}

std::string did_you_mean(const std::vector<std::string> &suggestions) {
  if (suggestions.empty()) return {};
  std::string s = "; did you mean ";
  for (std::size_t i = 0; i < suggestions.size(); ++i) s += (i ? ", " : "") + suggestions[i];
  return s + "?";
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
#if defined(_WIN32)
  gmtime_s(&tm, &t);
#else
  gmtime_r(&t, &tm);
#endif
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace grappi::detail
