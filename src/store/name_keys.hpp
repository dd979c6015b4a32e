// Internal: the one key under which the name linker (grappi/entities.hpp) stores and looks up
// names, and the names it derives from a node's own: the same function reads the dictionary and
// the text, so "GSK-3β", "GSK3beta", "GSK 3 beta" and the symbol GSK3B are one key.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace grappi::detail {

/// Characters a name's key leaves out: blanks, hyphens and dashes, slashes, dots, underscores,
/// apostrophes ("NF-kappaB", "NF kappa B" and "NFkappaB" are one key).
bool key_gap(char c);

/// The Latin initial gene symbols write for a Greek letter (HGNC's convention: alpha A, beta B,
/// gamma G, delta D, epsilon E, zeta Z, eta H, theta Q, iota I, kappa K, lambda L, sigma S, omega
/// W), lower case; 0 for a letter symbols do not abbreviate (mu, pi, tau, ...: those stay
/// spelled, "τ" is "tau") or a word that is no Greek letter. `spelled`: a lower-case word.
char greek_initial(std::string_view spelled);
/// Whether a word (lower case) is a Greek letter's name ("alpha", "kappa", "tau").
bool greek_name(std::string_view lower_word);

/// The lower-case name of the Greek letter whose UTF-8 encoding starts with these two bytes
/// (U+0391-U+03A9, U+03B1-U+03C9, the micro sign as "mu"); nullptr for anything else.
const char *greek_letter(unsigned char lead, unsigned char next);

/// A name's key, built a character at a time (the tagger grows it along a text and looks it up
/// where a word ends). Lower case; blanks and the punctuation of key_gap() left out; a Greek
/// letter - a character, or spelled as a word of its own ("kappa" in "NF-kappaB" and
/// "NFkappaB", "gamma" in "IFNgamma", "beta" in "GSK3beta": a run of letters bounded by
/// non-letters or by a change from lower to upper case, or from two or more capitals to lower
/// case) - as its initial when symbols abbreviate it (greek_initial) and the name has at least two
/// letters or digits besides its Greek letters ("GSK-3β" is gsk3b; "ALPHA1" stays alpha1, so that
/// "a 1" is not it), else spelled.
class NameKey {
 public:
  /// Adds text[i] - and text[i + 1] when the two make a Greek letter - and returns how many bytes
  /// it took (1 or 2).
  std::size_t push(std::string_view text, std::size_t i);
  /// The key so far, the letters still pending settled.
  std::string key() const;
  /// Whether a longer key may still be a name that begins with `begins` (called with the
  /// key's forms so far: a prefix test of the dictionary's keys).
  template <class BeginsAName>
  bool may_grow(BeginsAName begins) const {
    return greek_pending() || begins(initials_) || begins(spelled_);
  }
  std::size_t size() const { return spelled_.size(); }

 private:
  void settle();
  // The pending run of letters folded into `initials` (a spelled Greek letter as its initial) or
  // counted into `plain`.
  void fold_run(std::string &initials, std::size_t &plain) const;
  bool greek_pending() const;
  std::string initials_;                 // Greek letters as initials (the pending run as written)
  std::string spelled_;                  // Greek letters spelled
  std::size_t plain_ = 0;                // letters and digits that are no Greek letter (the pending run's not counted)
  std::size_t run_ = std::string::npos;  // where the pending run of letters starts in initials_
  int last_ = 0;                         // the last byte: 0 not a letter, 1 lower case, 2 upper case
  bool run_upper_ = true;                // the pending run is all capitals so far
};

/// The key of a whole name (NameKey over every byte).
std::string name_key(std::string_view name);

/// A name's words in any order: the keys of its blank- or hyphen-separated words, sorted
/// ("beta 1-syntrophin" and "syntrophin beta 1" are one); empty for a name of one word.
std::vector<std::string> name_words(std::string_view name);
std::string words_key(std::string_view name);

/// A name the linker derives from one of a node's own (source "derived:<how>"), found only when
/// nothing better is.
struct DerivedName {
  std::string name;
  std::string how;  ///< "weight", "without_number", "greek_first", "greek_number", "without_greek", "without_qualifier", "slash"
};

/// The names papers write for a full name (a gene table's gene_name, a description's first
/// clause): without a qualifier of one or two words after a comma closing a name of two words or
/// more ("cytochrome c, somatic": "cytochrome c"), without
/// a closing number 1 when `lone_one` (no sibling name numbered otherwise: "catenin beta 1":
/// "catenin beta"; "presenilin 1" has "presenilin 2"), a Greek letter closing a two-word name put
/// first ("catenin beta": "beta-catenin", "synuclein alpha": "alpha-synuclein"), a Greek letter
/// inside a name of three words or more left out ("amyloid beta precursor protein": "amyloid
/// precursor protein"), a closing number 1 or 2 after two words or more as alpha or beta
/// ("estrogen receptor 1": "estrogen receptor alpha").
std::vector<DerivedName> full_name_variants(const std::string &full, bool lone_one);
/// The stem of a name that ends in a number ("presenilin 1", "Presenilin-1": "presenilin") and
/// that number; an empty stem when it ends in none.
std::pair<std::string, std::string> numbered_stem(std::string_view name);

/// A slashed alias's two names ("BCL-XL/S": "BCL-XL" and "BCL-XS"; at most two characters after
/// the slash, which replace as many at the end of the part before); empty otherwise.
std::vector<DerivedName> slash_variants(const std::string &alias);

/// Whether a description's first clause reads as a protein's full name a text may write
/// ("Microtubule-associated protein tau", "Cadherin-1"): 5 to 80 characters, at most six words,
/// a digit, a hyphen or a Greek letter in it ("Transcription factor" is a class, not a name), not
/// opening with "uncharacterized", "putative", "probable", "hypothetical" or "protein", no
/// "fragment".
bool name_like_description(std::string_view clause);

}  // namespace grappi::detail
