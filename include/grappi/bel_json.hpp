// The JSON form of BEL statements and documents (grappi/json.hpp includes it).
#pragma once

#include "grappi/export.h"

#include <nlohmann/json.hpp>

#include "grappi/bel.hpp"

namespace grappi {

// ---- BEL -------------------------------------------------------------------------------------
/// {"valid", "canonical" (null when invalid), "errors", "warnings", "problems": [{severity,
/// code, offset, message}], and for a parsed statement "subject", "relation" (null for a term
/// alone), "object" (a term, a nested statement in parentheses, or null), each canonical}.
GRAPPI_CXX_API nlohmann::json to_json(const BelResult &result, bool long_form = false);
/// {"properties": {key: value}, "namespaces", "annotations", "statements", "valid_statements",
/// "errors", "warnings", "problems": [{line, column, severity, code, message}], "results":
/// [{line, text, citation ({type, id, name, date, authors} or null), evidence,
/// statement_group, annotations {name: [values]}, plus the statement's to_json}]}.
GRAPPI_CXX_API nlohmann::json to_json(const BelDocument &document, bool long_form = false);

}  // namespace grappi
