// Internal: the BEL 2.1 vocabulary (functions, relations, modification types, amino acids,
// molecular activities) with BEL 1 and pybel spellings. Facts from the BEL 2.0/2.1
// specifications and pybel's language tables.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "grappi/bel.hpp"

namespace grappi::detail::bel {

/// BEL functions, after upgrades; the BEL 1 ones are rewritten by the validator.
enum class Fn {
  abundance, gene, rna, mirna, protein, complex, composite, population, bioprocess, pathology,
  activity, molecular_activity, translocation, secretion, surface, degradation, reaction,
  reactants, products, list,
  pmod, gmod, variant, fragment, fusion, location, from_loc, to_loc,
  substitution,      // BEL 1 sub(): upgraded to var()
  truncation,        // BEL 1 trunc(): upgraded to var()
  legacy_activity,   // BEL 1 kin(), cat(), ...: upgraded to act(x, ma(...))
};

struct FunctionInfo {
  Fn fn;
  std::string_view long_name;   // BEL 2.1 long name ("" for BEL 1 functions)
  std::string_view short_name;  // BEL 2.1 short name
  std::string_view activity;    // legacy_activity: the ma() value it stands for ("kin")
  bool legacy = false;          // a BEL 1 spelling (warned and upgraded)
  bool nonstandard = false;     // a pybel addition outside BEL 2.1 (warned)
};

/// The function a name (long, short, BEL 1 or pybel spelling) denotes; nullptr if none.
const FunctionInfo *find_function(std::string_view name);
/// The entry of a function (for printing its names).
const FunctionInfo &function_info(Fn fn);

/// The function a term node denotes (any spelling); nullopt for entities, values and unknown
/// function names.
std::optional<Fn> function_of(const BelTerm &t);

/// Whether a function denotes an abundance or process term that may stand as a statement's
/// subject or object.
bool is_term_function(Fn fn);
/// Whether a function denotes an abundance (something act(), tloc(), deg(), ... may wrap).
bool is_abundance(Fn fn);

struct RelationInfo {
  std::string_view long_name;
  std::string_view symbol;       // short or symbolic spelling ("->"), may be empty
  std::string_view alt_symbol;   // a second spelling ("→", "reg"), may be empty
  bool causal = false;
  bool undirected = false;
  bool legacy = false;           // BEL 1 only (warned)
  bool nonstandard = false;      // pybel addition outside BEL 2.1 (warned)
};

/// The relation a spelling denotes; nullptr if none.
const RelationInfo *find_relation(std::string_view spelling);

/// The BEL 2 modification type for a pmod() name ("Ph" for "Ph" or "phosphorylation");
/// empty if unknown. `legacy` is set for BEL 1 single-letter codes ("P").
std::string_view pmod_type(std::string_view name, bool &legacy);
/// The gmod() type (pybel addition); empty if unknown.
std::string_view gmod_type(std::string_view name);
/// Three-letter amino-acid code for a one- or three-letter code; empty if unknown.
std::string_view amino_acid(std::string_view code);
/// The default molecular activity ("kin") for ma(kin) or ma(kinaseActivity); empty if unknown.
std::string_view activity_name(std::string_view name);

}  // namespace grappi::detail::bel
