// Internal: what every importer of a format other than STRING's writes through - the dataset
// row with its provenance, nodes found or created by external id (or joined through a stored
// alias), aliases, edges merged by (endpoints, relation, direction), the claims that let
// remove_dataset take a dataset back out, and the report. Runs inside the caller's
// transaction (KnowledgeGraph::import) and a savepoint of its own per file.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/graph_impl.hpp"
#include "grappi/import.hpp"
#include "store/sqlite.hpp"

namespace grappi::detail {

class ImportWriter {
 public:
  /// Starts a file: a savepoint and its dataset row (kind: the format's name; options: what
  /// shaped the import, recorded as the dataset's options).
  ImportWriter(KnowledgeGraph::Impl &impl, const std::string &path, const std::string &kind, uint64_t file_size,
               const nlohmann::json &options);
  ~ImportWriter();
  ImportWriter(const ImportWriter &) = delete;
  ImportWriter &operator=(const ImportWriter &) = delete;

  int64_t dataset() const { return dataset_; }
  FileReport &report() { return rep_; }

  /// The node with this external id (exact), if any; ids this file defined or referred to are
  /// answered from memory.
  std::optional<int64_t> find(std::string_view external_id);
  /// Creates the node, or (when it exists) sets its name, label, annotation and attributes and
  /// marks it as described by this dataset; counted as created or updated. Claims it.
  int64_t define_node(const NodeInput &node, int64_t taxon = 0);
  /// The node of an identifier the file refers to without defining it: an existing node, or a
  /// new node of that label named by the id (counted as referenced_nodes_created). Claims it.
  int64_t reference_node(std::string_view external_id, const std::string &label);
  /// Nodes an identifier names: the node with that external id, else every node with an alias
  /// equal to it (case-sensitive) stored before this file - the aliases this file adds do not
  /// join, so that the result does not depend on the order of the file's rows. An ontology
  /// term's synonyms do not join either: they are words ("EGFR" for GO's "epidermal growth factor
  /// receptor signaling pathway"), not identifiers a file of genes or interactions means. Node
  /// ids ascending, each with its taxon.
  std::vector<std::pair<int64_t, int64_t>> nodes_named(std::string_view id);
  /// Nodes whose preferred name is `name` (case-sensitive), ascending, each with its taxon.
  std::vector<std::pair<int64_t, int64_t>> nodes_with_name(std::string_view name);
  /// The existing node the first key that names any node names (keys in order of trust): one
  /// node joins; several join the one of `taxon` when exactly one has it, else nothing joins and
  /// `ambiguous` is set (a less trusted key does not overrule an ambiguous one: UniProt's
  /// P02994 is both TEF1 and TEF2 in STRING).
  std::optional<int64_t> join(const std::vector<std::string> &keys, int64_t taxon, bool &ambiguous);
  /// The stored node whose preferred name is `name` (case-sensitive): the one node of `taxon`
  /// with it (any taxon when 0); several set `ambiguous` and join nothing. The last resort of
  /// the importers that join by name (BEL gene terms, CX2 nodes).
  std::optional<int64_t> join_by_name(std::string_view name, int64_t taxon, bool &ambiguous);
  /// Adds (node, alias, source) unless present; counted when new.
  void add_alias(int64_t node, std::string_view alias, std::string_view source);
  /// The edge (endpoints ordered for undirected edges), created with this dataset as its
  /// contributor or claimed when it exists; counted as created or existing. An edge this file
  /// created and meets again (several rows about one pair) keeps the best of its scores.
  int64_t add_edge(int64_t source, int64_t target, std::string_view relation, bool directed, double score,
                   const std::string &evidence_json = {}, const std::string &channels_json = {});

  /// The id of a relation name (interned when new).
  int64_t relation(std::string_view name) { return relation_id(name); }

  /// A bad line: Error(parse) naming the file, line and problem, or - with
  /// options.skip_bad_lines - counted in rows_skipped and quoted among the first examples.
  void bad_line(uint64_t line, const std::string &problem, const ImportOptions &options);
  /// Stores one source row behind an edge (edge_evidence): its line, what was read from it
  /// (a JSON object) and the row itself.
  void add_evidence(int64_t edge, uint64_t line, const std::string &record_json, std::string_view raw);
  /// The same for a node (node_evidence): a source row about one node alone.
  void add_node_evidence(int64_t node, uint64_t line, const std::string &record_json, std::string_view raw);

  /// The file's size on the dataset row (for a file written while it was imported).
  void set_file_size(uint64_t bytes);
  /// The dataset's recorded options, replaced (for what a file says only once it is read).
  void set_options(const nlohmann::json &options);
  /// Ends the file: the sha256, the counts (rep_ plus `details`) and the wall time on the
  /// dataset row; releases the savepoint. When the same bytes were imported before in this
  /// format, rolls the file back and reports already_imported instead.
  FileReport finish(const std::string &sha256, double seconds);

 private:
  void claim_node(int64_t id);
  int64_t relation_id(std::string_view name);

  KnowledgeGraph::Impl &impl_;
  Db &db_;
  std::unique_ptr<Savepoint> sp_;
  FileReport rep_;
  int64_t dataset_ = 0;
  std::string kind_;
  std::unordered_map<std::string, int64_t> relations_;
  std::unique_ptr<Stmt> find_, insert_node_, update_node_, claim_, alias_, find_edge_, insert_edge_, claim_edge_,
      by_alias_, by_name_, taxon_, score_, evidence_, node_evidence_;
  std::unordered_map<std::string, int64_t> known_;  // external id -> node, for ids this file met
};

}  // namespace grappi::detail
