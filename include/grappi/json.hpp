// The JSON form of grappi's results, every layer's: an umbrella over the headers that declare
// them (grappi/store_json.hpp, grappi/retrieval_json.hpp, grappi/bel_json.hpp, and each agent's
// own header: explore's in grappi/pipeline.hpp, the others' beside their types). These
// functions return nlohmann::json (VERSIONING.md: the C++ API's one third-party type).
#pragma once

#include "grappi/bel_json.hpp"
#include "grappi/json_text.hpp"
#include "grappi/pipeline.hpp"
#include "grappi/retrieval_json.hpp"
#include "grappi/store_json.hpp"
