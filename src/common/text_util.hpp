// Internal: small text helpers for prompts and the extractive model.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "grappi/types.hpp"

namespace grappi::detail {

/// s in ASCII lower case.
std::string lower_copy(std::string_view s);
/// "; did you mean A, B?" for a name that resolved to nothing (ResolveResult::suggestions);
/// empty without suggestions.
std::string did_you_mean(const std::vector<std::string> &suggestions);
/// s in ASCII upper case.
std::string upper_copy(std::string_view s);
/// Whether a and b are equal ignoring ASCII case.
bool iequals(std::string_view a, std::string_view b) noexcept;
/// The fields of s between occurrences of sep (n separators give n + 1 fields, empty ones
/// included), as views into s.
std::vector<std::string_view> split_view(std::string_view s, char sep);
/// s without leading and trailing white space.
std::string trim_copy(std::string_view s);
/// s without leading and trailing spaces and tabs (the field separators of line formats).
std::string_view trim_blanks(std::string_view s);
/// The file name of a path without its directory and without the first of `extensions` it ends
/// with, tried in order (".gz" first, then the format's own).
std::string file_stem(const std::string &path, std::initializer_list<const char *> extensions);
/// Whether a byte is an ASCII letter or digit (std::isalnum in the C locale, for any char).
inline bool ascii_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
/// Lower-case words of letters and digits ("tau", "phosphorylation", "gsk3b"); bytes of UTF-8
/// sequences are kept inside words. The one tokenizer of the library.
std::vector<std::string> words(std::string_view text);
/// Whether a lower-case word is an English function word ("the", "of", "which", ...): the one
/// stop-word list of the library.
bool is_stop_word(std::string_view word);
/// The query's content words: lower case, at least 3 characters, no stop words nor words too
/// general for a biomedical question ("protein", "pathway", ...), first occurrence order, no
/// duplicates.
std::vector<std::string> content_terms(std::string_view query);
/// Whether a word of text matches term: terms of up to 5 characters match whole words only;
/// longer terms match any word that shares the term's first max(5, n - 3) characters
/// ("phosphorylation" matches "phosphorylates", "inhibit" matches "inhibitor").
bool text_has_term(std::string_view text, const std::string &term);

/// v with exactly prec digits after the point ("0.999").
std::string fixed(double v, int prec);
/// The channels with evidence (score > 0) as text: name, `assign`, score with 3 decimals, joined
/// by `sep` ("experiments 0.912, database 0.900"); empty when there are none.
std::string channel_list(const std::vector<Channel> &channels, const char *assign, const char *sep);
/// Lower-case hex of n bytes.
std::string to_hex(const void *bytes, std::size_t n);
/// Lower-case hex SHA-256 of bytes (all 64 digits).
std::string sha256_hex(std::string_view bytes);
/// The same over bytes given piece by piece (a file as it is read, a graph as it is walked).
class Sha256 {
 public:
  Sha256();  ///< Error(internal) when the digest is unavailable
  ~Sha256();
  Sha256(const Sha256 &) = delete;
  Sha256 &operator=(const Sha256 &) = delete;
  void update(const void *data, std::size_t n);
  void update(std::string_view s) { update(s.data(), s.size()); }
  /// The digest of everything given, lower-case hex; call once.
  std::string hex();

 private:
  void *ctx_;  // (OpenSSL's EVP_MD_CTX, kept out of the header)
};
/// At most `max_bytes` of `s`, cut before a UTF-8 character that would not fit whole (so that a
/// clipped message stays valid UTF-8 when `s` was).
std::string utf8_prefix(std::string_view s, std::size_t max_bytes);
/// Text from names, answers or files made safe for a Markdown report: on one line (newlines as
/// blanks), table bars escaped, and '<', '>', '&' as entities so that a name holding HTML
/// (`<script>`) is shown, never run, by a Markdown viewer.
std::string markdown_text(std::string_view s);
/// s as XML or HTML text or an attribute value: '&', '<', '>', '"' and '\'' as entities, control
/// characters other than tab and line breaks (not allowed in XML 1.0) as spaces.
std::string markup_text(std::string_view s);
/// Random lower-case hex string of the given number of bytes (from std::random_device).
std::string random_hex(std::size_t bytes);
/// Current time, UTC, ISO 8601 ("2026-11-27T17:46:12Z").
std::string utc_now();

}  // namespace grappi::detail
