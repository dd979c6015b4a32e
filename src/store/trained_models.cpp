// The database's trained models (KnowledgeGraph::store_trained_model and friends): a name, a
// kind, a JSON description and the parameters as a blob; not part of the graph.
#include <mutex>

#include "store/graph_impl.hpp"
#include "grappi/error.hpp"

namespace grappi {

using detail::Savepoint;
using detail::Stmt;

void KnowledgeGraph::store_trained_model(const TrainedModel &m) {
  if (m.name.empty() || m.kind.empty())
    throw Error(ErrorCode::invalid_argument, "store_trained_model: a model needs a name and a kind");
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->require_writable("store_trained_model");
  Savepoint sp(impl_->db, "grappi_trained");
  Stmt put(impl_->db, "INSERT OR REPLACE INTO trained_models(name, kind, spec, data, created_at) VALUES(?,?,?,?,?)");
  put.bind(1, m.name)
      .bind(2, m.kind)
      .bind(3, m.spec)
      .bind_blob(4, m.data.data(), m.data.size())
      .bind(5, m.created_at.empty() ? detail::utc_now() : m.created_at)
      .run();
  sp.commit();
}

std::optional<TrainedModel> KnowledgeGraph::trained_model(const std::string &name) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db, "SELECT kind, spec, data, created_at FROM trained_models WHERE name = ?");
  st.bind(1, name);
  if (!st.step()) return std::nullopt;
  TrainedModel m;
  m.name = name;
  m.kind = st.col_text(0);
  m.spec = st.col_text(1);
  m.bytes = st.col_bytes(2);
  if (m.bytes) m.data.assign(static_cast<const char *>(st.col_blob(2)), m.bytes);
  m.created_at = st.col_text(3);
  return m;
}

std::vector<TrainedModel> KnowledgeGraph::trained_models() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Stmt st(impl_->db, "SELECT name, kind, spec, length(data), created_at FROM trained_models ORDER BY name");
  std::vector<TrainedModel> out;
  while (st.step()) {
    TrainedModel m;
    m.name = st.col_text(0);
    m.kind = st.col_text(1);
    m.spec = st.col_text(2);
    m.bytes = static_cast<std::size_t>(st.col_int(3));
    m.created_at = st.col_text(4);
    out.push_back(std::move(m));
  }
  return out;
}

bool KnowledgeGraph::remove_trained_model(const std::string &name) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->require_writable("remove_trained_model");
  Savepoint sp(impl_->db, "grappi_trained");
  Stmt del(impl_->db, "DELETE FROM trained_models WHERE name = ?");
  del.bind(1, name).run();
  Stmt ch(impl_->db, "SELECT changes()");
  ch.step();
  const bool removed = ch.col_int(0) > 0;
  sp.commit();
  return removed;
}

}  // namespace grappi
