// Internal: edge scores travel as float32 (the importer's pair tables, the CSR snapshot). Every
// score grappi stores or reports goes through decimal() so that callers see the decimal the
// data gave (0.703), not its float32 neighbor (0.703000009059906).
#pragma once

#include <cmath>

namespace grappi::detail {

inline double decimal(float v) { return std::round(static_cast<double>(v) * 1e6) / 1e6; }

}  // namespace grappi::detail
