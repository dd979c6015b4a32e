// The checks of the path search's options (hypothesis_paths.cpp), for the callers that should
// refuse bad options before any other work (the temporal evaluation builds two graphs first).
#pragma once

#include "grappi/hypothesis.hpp"

namespace grappi::detail {

/// Error(invalid_argument) naming the first option of the path search out of its range
/// (paths, max_length, shortest_rounds, embedding_weight, max_intermediate_share).
void check_path_options(const HypothesisOptions &o);

}  // namespace grappi::detail
