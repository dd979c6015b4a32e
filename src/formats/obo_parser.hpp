// Internal: a parser of OBO 1.2/1.4 flat files (the Gene Ontology's and PSI-MI's format) into
// plain structures. Tag-value pairs with OBO's quoting, escapes, trailing modifiers and `!`
// comments; [Term] and [Typedef] stanzas (other stanza types are counted, not parsed). Every
// problem throws Error(parse) naming the file and line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace grappi::detail {

class LineReader;

struct OboSynonym {
  std::string text;
  std::string scope;  // EXACT, BROAD, NARROW, RELATED
  std::string type;   // a synonymtypedef name, or empty
};

struct OboStanza {
  std::string id, name, definition, name_space, comment;
  std::vector<std::string> definition_xrefs;
  std::vector<OboSynonym> synonyms;
  std::vector<std::string> alt_ids, subsets, xrefs, is_a, replaced_by, consider;
  std::vector<std::pair<std::string, std::string>> relationships;  // (type, target)
  std::vector<std::pair<std::string, std::string>> other;          // every other tag, in order
  bool obsolete = false;
  bool has_definition = false;
  uint64_t line = 0;  // where the stanza starts
};

struct OboDocument {
  std::vector<std::pair<std::string, std::string>> header;  // tag, value (comments removed)
  std::vector<OboStanza> terms, typedefs;
  uint64_t lines = 0;            // lines read
  uint64_t other_stanzas = 0;    // [Instance] and unknown stanza types, skipped
};

/// Parses a whole OBO file from a reader positioned at its start.
OboDocument parse_obo(LineReader &reader);

/// The value of one OBO tag line after the tag: escapes resolved, trailing `{modifiers}` and
/// `! comment` removed, blanks trimmed. Exposed for tests.
std::string obo_plain_value(std::string_view value);

/// True when the first non-blank, non-comment line of a file looks like an OBO header or
/// stanza ("format-version:", "[Term]", ...).
bool looks_like_obo(std::string_view first_line);

}  // namespace grappi::detail
