// grappi/error.hpp — the one exception type the C++ API throws.
#pragma once

#include "grappi/export.h"

#include <stdexcept>
#include <string>

namespace grappi {

/// What kind of failure an Error reports. Values are stable (the C API maps them to status codes).
enum class ErrorCode {
  invalid_argument = 1,  ///< a caller-supplied argument is out of range or malformed
  not_found = 2,         ///< a name, id, file or dataset does not exist
  ambiguous = 3,         ///< a name matches several entities
  io = 4,                ///< a file could not be read or written
  parse = 5,             ///< input data is malformed (the message names file and line)
  database = 6,          ///< SQLite reported an error
  network = 7,           ///< an HTTP request failed
  llm = 8,               ///< a language model answered unusably
  budget = 9,            ///< a call or token budget was exhausted
  internal = 10,         ///< a bug in grappi
};

/// Short lower-case name of an error code ("parse", "not_found", ...).
GRAPPI_CXX_API const char *to_string(ErrorCode code) noexcept;

/// Every failure of the C++ API is reported as a grappi::Error. The message says what failed,
/// where (file:line, argument, id) and why.
class GRAPPI_CXX_API Error : public std::runtime_error {
 public:
  /// An error of the given kind; the message is what what() returns.
  Error(ErrorCode code, const std::string &message) : std::runtime_error(message), code_(code) {}
  /// The kind of failure.
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

}  // namespace grappi
