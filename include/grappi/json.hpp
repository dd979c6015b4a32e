// grappi/json.hpp — JSON forms of the result types (nlohmann::json), as the CLI prints them.
#pragma once

#include <nlohmann/json.hpp>

#include "grappi/import.hpp"
#include "grappi/types.hpp"

namespace grappi {

nlohmann::json to_json(const Node &node);
nlohmann::json to_json(const Edge &edge);
nlohmann::json to_json(const Dataset &dataset);
nlohmann::json to_json(const GraphStats &stats);
nlohmann::json to_json(const ResolveResult &result);
nlohmann::json to_json(const FileReport &report);
nlohmann::json to_json(const ImportReport &report);

}  // namespace grappi
