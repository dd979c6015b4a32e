#include "grappi/error.hpp"

namespace grappi {

const char *to_string(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::invalid_argument: return "invalid_argument";
    case ErrorCode::not_found: return "not_found";
    case ErrorCode::ambiguous: return "ambiguous";
    case ErrorCode::io: return "io";
    case ErrorCode::parse: return "parse";
    case ErrorCode::database: return "database";
    case ErrorCode::network: return "network";
    case ErrorCode::llm: return "llm";
    case ErrorCode::budget: return "budget";
    case ErrorCode::internal: return "internal";
  }
  return "unknown";
}

}  // namespace grappi
