// Internal: a relation filter compiled to a mask over a snapshot's relation indices. Every
// filter of the library (GraphSnapshot::neighbors, EdgeFilter) goes through it, so a relation
// name the graph does not have is an error that lists the ones it has, not a silent empty
// result.
#pragma once

#include <string>
#include <vector>

#include "grappi/snapshot.hpp"

namespace grappi::detail {

/// keep[r] = 1 for the named relations; empty when `relations` is empty (all relations).
/// Error(invalid_argument) naming `what`, the unknown name and the graph's relations.
std::vector<char> relation_mask(const GraphSnapshot &g, const std::vector<std::string> &relations, const char *what);

/// Error(invalid_argument) naming `what` unless 0 <= min_score <= 1.
void check_min_score(double min_score, const char *what);

}  // namespace grappi::detail
