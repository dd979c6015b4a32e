// Internal: RFC 4180 CSV records (the KG-RAG question files, FamPlex's tables).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace grappi::detail {

/// RFC 4180 records: fields separated by commas, quoted fields with doubled quotes and line
/// breaks inside; a record per line otherwise (blank lines skipped). Each record with the line it
/// starts on. Error(parse) naming `name` and the line for a quoted field never closed.
std::vector<std::pair<std::size_t, std::vector<std::string>>> csv_records(std::string_view s, const std::string &name);

}  // namespace grappi::detail
