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
};

/// Parses one statement. Syntax problems are appended to `problems` (code "syntax" or
/// "unquoted_value"); returns false when the statement could not be parsed.
bool parse_statement(std::string_view text, RawStatement &out, std::vector<BelProblem> &problems);

}  // namespace grappi::detail::bel
