// grappi/grappi.hpp — the whole C++ API.
#pragma once

#include "grappi/bel.hpp"
#include "grappi/error.hpp"
#include "grappi/import.hpp"
#include "grappi/json.hpp"
#include "grappi/knowledge_graph.hpp"
#include "grappi/llm.hpp"
#include "grappi/documents.hpp"
#include "grappi/grounding.hpp"
#include "grappi/ontology.hpp"
#include "grappi/pcst.hpp"
#include "grappi/pipeline.hpp"
#include "grappi/retriever.hpp"
#include "grappi/snapshot.hpp"
#include "grappi/types.hpp"
#include "grappi/version.h"
