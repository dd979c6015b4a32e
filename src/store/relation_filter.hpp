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

/// Whether a relation links a protein to an annotation (`go.*`, the gene table's and STRING's GO
/// edges; `annotation.*`, STRING's other categories) or two ontology terms (`obo.*`): no interaction.
inline bool annotation_relation(const std::string &name) {
  return name.rfind("go.", 0) == 0 || name.rfind("obo.", 0) == 0 || name.rfind("annotation.", 0) == 0;
}

/// The relations a walk over the network follows when none is named: every relation but the
/// annotation and ontology ones, when the graph has both kinds (a mask); empty (all) otherwise, so
/// that a graph of an ontology alone is walked whole.
std::vector<char> network_mask(const GraphSnapshot &g);

/// Error(invalid_argument) naming `what` unless 0 <= min_score <= 1.
void check_min_score(double min_score, const char *what);

}  // namespace grappi::detail
