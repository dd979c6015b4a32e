// Internal: a BEL script read as a stream - statements and problems handed over as they are
// read, not kept - for importers that must hold one statement at a time whatever the file's
// size (read_bel_script keeps the whole document).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "grappi/bel.hpp"

namespace grappi::detail {

/// What a streamed BEL script gives, item by item, in the file's order.
class BelScriptSink {
 public:
  virtual ~BelScriptSink() = default;
  /// One statement with the context in force on its line (its own problems are in its result).
  virtual void statement(BelScriptStatement &&statement) = 0;
  /// A problem of a SET, UNSET or DEFINE line, or a script warning about a statement (no
  /// citation in force, evidence cleared by a citation).
  virtual void problem(const BelScriptProblem &problem) = 0;
};

/// read_bel_script over physical lines from `next` (each without its line end; false at the
/// end), its statements and problems given to `sink` as they are read. Memory is bounded by the
/// longest logical line (continuation lines and quoted values spanning lines joined): one
/// longer than `max_logical` bytes is Error(parse) naming `source` and its first line. Returns
/// the document without statements and problems (properties, namespaces, annotations,
/// evidence_cleared).
BelDocument stream_bel_script(const std::function<bool(std::string &line)> &next, const BelOptions &options,
                              BelScriptSink &sink, std::size_t max_logical, const std::string &source);

}  // namespace grappi::detail
