// Community reports: the network's modules (grappi/clustering.hpp) written up once and stored in
// the database, as GraphRAG answers global questions from its communities' summaries. Each
// report holds the community's members (hubs first), its enriched terms, its strongest edges and
// a summary: a language model's, kept only when every citation it gives is a term or a protein
// of the report (checked here, not by the model), or an extractive one that says it is not a
// language model. `ask`'s modules questions about the whole network read the stored reports.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/clustering.hpp"
#include "grappi/export.h"
#include "grappi/llm.hpp"

namespace grappi {

class KnowledgeGraph;

/// What build_communities clusters and writes.
struct CommunityOptions {
  /// The clustering: Leiden (modularity) over the network at score >= 0.7 with 5 runs unless
  /// set otherwise; max_cluster_size splits large communities into levels (GraphRAG's
  /// hierarchy), each level's communities reported.
  ClusterOptions cluster;
  std::string name = "default";  ///< the name the set is stored under
  std::size_t min_size = 3;      ///< reports for communities of at least this many members
  std::size_t max_reports = 50;  ///< at most this many reports, the largest communities first (bounds model calls)
  std::size_t hubs = 5;          ///< hubs named per report
  std::size_t edges = 5;         ///< strongest internal edges per report
  CommunityOptions() {
    cluster.method = ClusterMethod::leiden_modularity;
    cluster.min_score = 0.7;
    cluster.runs = 5;
  }
};

/// An enriched term of a community, as a report keeps it.
struct CommunityTerm {
  std::string term;      ///< its external id ("GO:0007173")
  std::string name;      ///< its name
  std::string category;  ///< "Process", "KEGG", ...
  std::size_t observed = 0;  ///< members annotated to it
  double fdr = 1;            ///< its Benjamini–Hochberg FDR
  std::vector<std::string> proteins;  ///< those members' names
  std::vector<std::string> protein_ids;  ///< their external ids, in the same order
};

/// One of a community's strongest internal edges.
struct CommunityEdge {
  int64_t edge = 0;          ///< its database id
  std::string source;        ///< external id of one end
  std::string target;        ///< external id of the other
  std::string source_name;   ///< its name
  std::string target_name;   ///< likewise
  std::string relation;      ///< the edge's relation
  double score = 0;          ///< its score
};

/// A community written up.
struct CommunityReport {
  std::string id;            ///< "C1", "C2", ... (largest first); "C1.2" a level below C1
  std::size_t level = 0;     ///< 0 at the top
  std::string parent;        ///< the community it splits ("" at the top)
  std::vector<std::string> members;  ///< external ids, hubs first (weighted degree inside)
  std::vector<int64_t> nodes;        ///< their database ids, likewise (valid while the set is not stale)
  std::vector<std::string> names;    ///< their names, likewise
  std::vector<std::string> hubs;     ///< the first CommunityOptions::hubs names
  std::size_t internal_edges = 0;    ///< edges between two members
  std::size_t external_edges = 0;    ///< edges from a member to the rest of the network
  std::vector<CommunityTerm> terms;  ///< enriched terms, lowest FDR first
  std::vector<CommunityEdge> edges;  ///< the strongest internal edges
  std::string summary;               ///< a few sentences
  /// "extractive" (no model: says so in its text), "checked" (a model's, every citation found in
  /// the report), or "extractive_fallback" (the model failed or its summary was refused: see problem)
  std::string summary_status;
  std::string summary_by;               ///< the model's identity, or "extractive:v1"
  std::vector<std::string> citations;   ///< the terms and proteins the summary rests on
  std::string problem;                  ///< why a model's summary is not used; empty otherwise
};

/// A set of community reports.
struct CommunitySet {
  std::string name;           ///< the name it is stored under
  std::string created_at;     ///< when it was built (UTC, ISO 8601)
  uint64_t generation = 0;    ///< the graph's generation then
  bool stale = false;         ///< load_communities: the graph changed since (rebuild)
  std::string method;         ///< "leiden", "cpm" or "mcl"
  double min_score = 0;       ///< the network's threshold
  double resolution = 1;      ///< Leiden's resolution
  std::size_t nodes = 0;      ///< proteins clustered
  std::size_t edges = 0;      ///< edges among them
  std::size_t communities = 0;  ///< top-level communities (of any size)
  double modularity = 0;      ///< the top partition's modularity
  std::string terms_note;     ///< why no terms are given, when none could be
  std::string model;          ///< the summaries' model identity
  StageUsage usage;           ///< the model calls made
  std::vector<CommunityReport> reports;  ///< the reports, top level largest first, each level below its parent
};

/// Clusters the network, writes a report per community of at least min_size members (at most
/// max_reports) and asks `model` for each one's summary (an ExtractiveModel: the extractive
/// summary, no call). A model's summary is parsed ({"summary", "citations"}) and checked: every
/// citation must be a term id or name or a member of the report and every term id the text names
/// one of the report's; otherwise, or when the call fails, the extractive summary stands and the
/// reason is kept. Error(invalid_argument) as cluster() for bad options or a network without edges.
GRAPPI_CXX_API CommunitySet build_communities(const KnowledgeGraph &graph, LanguageModel &model,
                                              const CommunityOptions &options = {});
/// Stores the set under its name (replacing one of that name); not a change of the graph.
GRAPPI_CXX_API void store_communities(KnowledgeGraph &graph, const CommunitySet &set);
/// The set stored under `name`, marked stale when the graph changed since it was built.
/// Error(parse) naming the set when what is stored is damaged.
GRAPPI_CXX_API std::optional<CommunitySet> load_communities(const KnowledgeGraph &graph,
                                                            const std::string &name = "default");

/// The set as JSON (docs/schemas/communities.schema.json).
GRAPPI_CXX_API nlohmann::json to_json(const CommunitySet &set);

}  // namespace grappi
