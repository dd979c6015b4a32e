// Internal: an embedder re-created from what was stored of it - its kind, configuration and
// state (a database's model row, a worker's embedder file).
#pragma once

#include <memory>
#include <string>

#include "grappi/embedding.hpp"

namespace grappi::detail {

/// The embedder of `kind` ("hashing", "lsa", "openai") re-created from its configuration and
/// state; null for a kind that cannot be re-created (a callback's vectors). Throws what the
/// kind's restore() throws for a damaged state.
std::unique_ptr<Embedder> restore_embedder(const std::string &kind, const std::string &config, const std::string &state);

}  // namespace grappi::detail
