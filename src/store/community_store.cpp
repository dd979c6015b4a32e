// The database's community reports (KnowledgeGraph::store_community_set and friends): a name, the
// generation they were built at, a JSON description and the reports as JSON; not part of the graph.
#include <mutex>

#include "store/graph_impl.hpp"
#include "grappi/error.hpp"

namespace grappi {

using detail::Savepoint;
using detail::Stmt;

void KnowledgeGraph::store_community_set(const StoredCommunitySet &set) {
  if (set.name.empty()) throw Error(ErrorCode::invalid_argument, "store_community_set: a set needs a name");
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->require_writable("store_community_set");
  Savepoint sp(impl_->db, "grappi_communities");
  Stmt put(impl_->db, "INSERT OR REPLACE INTO community_sets(name, generation, spec, reports, created_at) VALUES(?,?,?,?,?)");
  put.bind(1, set.name)
      .bind(2, static_cast<int64_t>(set.generation))
      .bind(3, set.spec)
      .bind(4, set.reports)
      .bind(5, set.created_at.empty() ? detail::utc_now() : set.created_at)
      .run();
  sp.commit();
}

std::optional<StoredCommunitySet> KnowledgeGraph::community_set(const std::string &name) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db, "SELECT generation, spec, reports, created_at FROM community_sets WHERE name = ?");
  st.bind(1, name);
  if (!st.step()) return std::nullopt;
  StoredCommunitySet s;
  s.name = name;
  s.generation = static_cast<uint64_t>(st.col_int(0));
  s.spec = st.col_text(1);
  s.reports = st.col_text(2);
  s.created_at = st.col_text(3);
  return s;
}

std::vector<std::string> KnowledgeGraph::community_sets() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db, "SELECT name FROM community_sets ORDER BY name");
  std::vector<std::string> out;
  while (st.step()) out.push_back(st.col_text(0));
  return out;
}

bool KnowledgeGraph::remove_community_set(const std::string &name) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->require_writable("remove_community_set");
  Savepoint sp(impl_->db, "grappi_communities");
  Stmt del(impl_->db, "DELETE FROM community_sets WHERE name = ?");
  del.bind(1, name).run();
  const bool removed = impl_->db.changes() > 0;
  sp.commit();
  return removed;
}

}  // namespace grappi
