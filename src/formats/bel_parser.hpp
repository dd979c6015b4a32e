// Internal: the BEL statement grammar. Builds a tree of BelTerm nodes whose names are the
// spellings as written (the validator maps them onto the BEL 2.1 vocabulary).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "grappi/bel.hpp"

namespace grappi::detail::bel {

/// A statement as written.
struct RawStatement {
  BelTerm subject;
  std::string relation;  // as written; empty for a term alone
  std::size_t relation_offset = 0;
  std::optional<BelTerm> object;
  std::unique_ptr<RawStatement> nested;
  std::size_t nested_offset = 0;  // offset of the '(' opening the nested statement
  // Set when parsing failed on a second relation after a term object (A -> B -> C): where the
  // object term B starts and where the second relation starts (both 0 otherwise).
  std::size_t chain_object_offset = 0;
  std::size_t chain_offset = 0;
};

/// Parses one statement. Syntax problems are appended to `problems` (code "syntax" or
/// "unquoted_value"); returns false when the statement could not be parsed.
bool parse_statement(std::string_view text, RawStatement &out, std::vector<BelProblem> &problems);

/// A chain of relations `A r1 B r2 C ...` split into its links: `A r1 B` and the rest `B r2 C ...`
/// (which may chain again). Empty when `text` is not such a chain (it parses, or fails for
/// another reason, or its object is a nested statement).
struct ChainSplit {
  std::string_view first;  ///< `A r1 B`, without trailing space
  std::string_view rest;   ///< `B r2 C ...`
  std::size_t rest_offset = 0;  ///< where `rest` starts in the text
  std::size_t relation_offset = 0;  ///< where the second relation starts in the text
};
std::optional<ChainSplit> split_chain(std::string_view text);

}  // namespace grappi::detail::bel
