// Internal: the state behind KnowledgeGraph, shared by the files that implement it.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>

#include "common/text_util.hpp"
#include "common/visibility.hpp"
#include "grappi/knowledge_graph.hpp"
#include "store/sqlite.hpp"

namespace grappi {

namespace detail {
class BelIdTable;
constexpr int kSchemaVersion = 10;
/// Creates or checks the schema and sets the connection's pragmas.
void open_schema(Db &db, bool read_only, int cache_mib);
/// Whether the database's schema is an older grappi's (one read-write opening upgrades it).
bool schema_outdated(Db &db);
/// The database's instance id (meta 'instance', random at creation): what tells a cache file
/// beside a database made again at the same path from one of the old; empty for a database made
/// before instances were kept.
std::string instance_of(Db &db);
/// Taxon prefix of a STRING id ("9606.ENSP..." -> 9606); 0 when there is none.
int64_t taxon_of(std::string_view external_id);
/// Builds the CSR snapshot; with a cache path, loads it from there when the cache's key matches
/// the database and writes the cache after building otherwise.
std::shared_ptr<const GraphSnapshot> build_snapshot(Db &db, uint64_t generation, const std::string &cache_path);
}  // namespace detail

struct GRAPPI_HIDDEN KnowledgeGraph::Impl {
  detail::Db db;
  bool read_only = false;
  std::string snapshot_cache;  ///< path of the CSR cache file; empty for none
  mutable std::mutex mu;
  mutable std::shared_ptr<const GraphSnapshot> snapshot;
  // KnowledgeGraph::bel_resolver's table, kept while the generation is the same (under mu).
  mutable std::shared_ptr<const detail::BelIdTable> bel_ids;
  mutable uint64_t bel_ids_generation = 0;
  // Objects derived from the database (the vector index, the retriever, the dictionary
  // tagger, ...), by type and key, each with the generation it was built at (detail::derived).
  // The store does not know their types.
  mutable std::mutex derived_mu;
  mutable std::map<std::string, std::pair<uint64_t, std::shared_ptr<const void>>> derived;

  uint64_t generation() const;
  /// Increments the generation; call inside the write transaction.
  void bump_generation();
  /// Id of a relation name, inserting it when new.
  int64_t intern_relation(std::string_view name);
  void require_writable(const char *what) const;
};

namespace detail {

/// The knowledge graph's private state, for the library's own files.
struct GraphAccess {
  static KnowledgeGraph::Impl &impl(const KnowledgeGraph &kg) { return *kg.impl_; }
};

/// An object derived from the knowledge graph's current contents (a dictionary tagger, a
/// question analyzer), built by `build` (a function returning std::shared_ptr<const T>) on the
/// first call and shared by later calls with the same type and key until a write changes the
/// generation. Thread-safe; two threads asking at once may both build (the last one is kept).
/// At most kMaxDerived objects are kept: past that, the others are dropped.
constexpr std::size_t kMaxDerived = 16;
/// The derived object of this type and key built at this generation, if one is kept.
template <class T>
std::shared_ptr<const T> derived_find(const KnowledgeGraph &kg, const std::string &key, uint64_t generation) {
  KnowledgeGraph::Impl &m = GraphAccess::impl(kg);
  const std::string full = std::string(typeid(T).name()) + '\n' + key;
  std::lock_guard<std::mutex> lock(m.derived_mu);
  const auto it = m.derived.find(full);
  if (it != m.derived.end() && it->second.first == generation) return std::static_pointer_cast<const T>(it->second.second);
  return nullptr;
}
/// Keeps a derived object of this type and key, built at this generation (replacing the one kept).
template <class T>
void derived_put(const KnowledgeGraph &kg, const std::string &key, uint64_t generation, std::shared_ptr<const T> made) {
  KnowledgeGraph::Impl &m = GraphAccess::impl(kg);
  const std::string full = std::string(typeid(T).name()) + '\n' + key;
  std::lock_guard<std::mutex> lock(m.derived_mu);
  if (m.derived.size() >= kMaxDerived && !m.derived.count(full)) m.derived.clear();
  m.derived[full] = {generation, std::move(made)};
}
template <class T, class Build>
std::shared_ptr<const T> derived(const KnowledgeGraph &kg, const std::string &key, Build &&build) {
  const uint64_t generation = kg.generation();
  if (auto kept = derived_find<T>(kg, key, generation)) return kept;
  std::shared_ptr<const T> made = build();
  derived_put<T>(kg, key, generation, made);
  return made;
}

}  // namespace detail

}  // namespace grappi
