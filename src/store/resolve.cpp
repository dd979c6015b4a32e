// Name resolution: an external id, a preferred name as written, then the name linker's rules
// (grappi/entities.hpp: names and aliases in any case and spelling, ranked by what they say),
// a BEL term's canonical form, a namespaced id without its namespace; suggestions otherwise.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "grappi/entities.hpp"
#include "grappi/snapshot.hpp"
#include "store/bel_resolver.hpp"
#include "store/graph_impl.hpp"
#include "grappi/bel.hpp"
#include "grappi/error.hpp"
#include "common/text_util.hpp"

namespace grappi {

using detail::Stmt;

namespace {

// Edit distance counting a swap of two neighbouring letters as one edit ("EGRF" is one from
// "EGFR"; the optimal string alignment distance), with an early exit once every entry of a row
// exceeds limit (a row's minimum never falls: a swap costs no less than the substitution before it).
std::size_t edit_distance(const std::string &a, const std::string &b, std::size_t limit) {
  if (a.size() > b.size() + limit || b.size() > a.size() + limit) return limit + 1;
  std::vector<std::size_t> before(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    std::size_t best = cur[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], before[j - 2] + 1);
      best = std::min(best, cur[j]);
    }
    if (best > limit) return limit + 1;
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

namespace detail {

EntityTaggerOptions resolve_linker_options(const KnowledgeGraph &kg) {
  // Every label's names, in any case (a name given on its own is meant as a name: "set", "cat").
  EntityTaggerOptions o;
  const auto snapshot = kg.snapshot();
  std::set<std::string> labels;
  for (uint32_t i = 0; i < snapshot->node_count(); ++i) labels.insert(snapshot->label(i));
  o.labels.assign(labels.begin(), labels.end());
  if (o.labels.empty()) o.labels = {"Protein"};
  o.any_case = true;
  return o;
}

}  // namespace detail

ResolveResult KnowledgeGraph::lookup(std::string_view name, std::size_t max_suggestions) const {
  ResolveResult r;
  std::string q(name);
  while (!q.empty() && std::isspace(static_cast<unsigned char>(q.back()))) q.pop_back();
  while (!q.empty() && std::isspace(static_cast<unsigned char>(q.front()))) q.erase(0, 1);
  if (q.empty()) return r;

  // (node id) -> candidate; ordered for a deterministic result.
  std::map<int64_t, ResolveCandidate> found;
  auto collect = [&](Stmt &st, const std::string &how) {
    while (st.step()) {
      int64_t id = st.col_int(0);
      if (found.count(id)) continue;
      found.emplace(id, ResolveCandidate{id, st.col_text(1), st.col_text(2),
                                         how.empty() ? "alias:" + st.col_text(3) : how});
    }
  };
  // Identifiers, exactly: an external id, a stored id without its taxon prefix ("ENSP00000340820").
  const auto match_id = [&](const std::string &key) {
    auto &db = impl_->db;
    Stmt st(db, "SELECT id, external_id, name FROM nodes WHERE external_id = ?1 "
                "UNION SELECT id, external_id, name FROM nodes WHERE external_id = ?1 COLLATE NOCASE");
    st.bind(1, key);
    collect(st, "external_id");
    if (!found.empty()) return;
    Stmt st2(db, "SELECT id, external_id, name FROM nodes WHERE external_id LIKE '%.' || ?1 "
                 "AND instr(?1, '%') = 0 AND instr(?1, '_') = 0 ORDER BY id");
    st2.bind(1, key);
    collect(st2, "external_id");
  };
  // Names and aliases, by the name linker (grappi/entities.hpp): the rules `ask`, `extract` and
  // the web explorer link names by.
  const auto link = [&](const std::string &key) {
    const std::shared_ptr<const EntityTagger> linker = EntityTagger::shared(*this, detail::resolve_linker_options(*this));
    const EntityMention m = linker->link(key);
    if (m.candidates.empty()) r.note = m.reason;
    for (const EntityCandidate &c : m.candidates) {
      std::string how = c.source == "name" ? "name" : "alias:" + c.source;
      if (&c == m.entity() && !m.resolution.empty()) how += " (resolved by " + m.resolution + ")";
      found.emplace(c.node, ResolveCandidate{c.node, c.id, c.name, how});
      if (m.entity()) break;  // (the chosen one only)
    }
  };
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    match_id(q);
    // A preferred name as written, held by one node and by no curated list as another's: what
    // the linker would choose (its first rules rank a preferred name as written above every
    // other name but a curated one), without building it.
    if (found.empty()) {
      Stmt st(impl_->db, "SELECT id, external_id, name FROM nodes WHERE name = ?1 COLLATE NOCASE ORDER BY id");
      st.bind(1, q);
      std::vector<ResolveCandidate> same;
      bool other_case = false;
      while (st.step()) {
        if (st.col_text(2) == q) same.push_back({st.col_int(0), st.col_text(1), st.col_text(2), "name"});
        else other_case = true;
      }
      Stmt curated(impl_->db, "SELECT count(*) FROM aliases WHERE alias = ?1 COLLATE NOCASE AND alias = ?1 "
                              "AND source LIKE 'famplex:%'");
      curated.bind(1, q);
      const bool listed = curated.step() && curated.col_int(0) > 0;
      if (same.size() == 1 && !other_case && !listed) found.emplace(same[0].id, same[0]);
    }
  }
  if (found.empty()) link(q);
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto &db = impl_->db;
  const auto match = [&](const std::string &key) {
    match_id(key);
    if (!found.empty()) return;
    Stmt st(db, "SELECT id, external_id, name FROM nodes WHERE name = ?1 COLLATE NOCASE ORDER BY id");
    st.bind(1, key);
    collect(st, "name");
    if (!found.empty()) return;
    Stmt sa(db,
            "SELECT n.id, n.external_id, n.name, a.source FROM aliases a JOIN nodes n ON n.id = a.node_id "
            "WHERE a.alias = ?1 COLLATE NOCASE ORDER BY n.id, a.source");
    sa.bind(1, key);
    collect(sa, "");
  };
  // What the linker leaves out of its names (identifiers, an ontology's related and broad
  // synonyms): any stored name or alias, in any case.
  if (found.empty() && r.note.empty()) match(q);
  // A BEL term in any spelling ("kin(p(HGNC:FYN))", "proteinAbundance(HGNC:AKT1)"): the node of
  // its canonical form, with the identifiers the database knows (p(HGNC:AKT1) is p(HGNC:391 !
  // AKT1)) and as written (for terms imported before those identifiers).
  if (found.empty() && q.find('(') != std::string::npos && q.back() == ')') {
    BelOptions with_ids;
    with_ids.resolver = detail::cached_bel_resolver(*impl_);
    for (const BelOptions &o : {with_ids, BelOptions{}}) {
      const BelResult bel = validate_bel(q, o);
      if (!found.empty() || !bel.valid() || !bel.statement->relation.empty() || bel.canonical == q) continue;
      match(bel.canonical);
      for (auto &kv : found) kv.second.matched_by += " (canonical BEL " + bel.canonical + ")";
    }
  }
  // A namespaced id ("uniprotkb:P10636", "ensembl:ENSG00000186868") that no node carries as
  // such: the id without its namespace.
  const std::size_t colon = q.find(':');
  if (found.empty() && colon != std::string::npos && colon > 0 && colon + 1 < q.size() &&
      std::isalpha(static_cast<unsigned char>(q[0]))) {
    bool plain = true;
    for (std::size_t i = 0; i < colon; ++i) {
      const unsigned char c = static_cast<unsigned char>(q[i]);
      plain = plain && (std::isalnum(c) || c == '_' || c == '-' || c == '.' || c == ' ');
    }
    if (plain) {
      match(q.substr(colon + 1));
      for (auto &kv : found) kv.second.matched_by += " (without namespace " + q.substr(0, colon) + ")";
    }
  }
  for (auto &kv : found) r.candidates.push_back(kv.second);
  if (r.candidates.size() == 1) {
    r.status = ResolveResult::Status::found;
    r.id = r.candidates[0].id;
    return r;
  }
  if (r.candidates.size() > 1) {
    r.status = ResolveResult::Status::ambiguous;
    return r;
  }
  // Not found: suggest close preferred names and aliases (edit distance, then prefix).
  r.status = ResolveResult::Status::not_found;
  if (max_suggestions == 0 || !r.note.empty()) return r;
  const std::string lq = detail::lower_copy(q);
  const std::size_t limit = lq.size() <= 4 ? 1 : 2;
  std::vector<std::pair<std::size_t, std::string>> scored;
  std::set<std::string> seen;
  auto consider = [&](const std::string &cand) {
    std::string lc = detail::lower_copy(cand);
    if (!seen.insert(lc).second) return;
    std::size_t dist = edit_distance(lq, lc, limit);
    if (dist > limit) return;
    // (among equally close names: the query completed first, "GSK3" is GSK3A and GSK3B; then its
    // own letters reordered, "EGRF" is EGFR before EGF or EGR1)
    std::string x = lq, y = lc;
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    const bool completes = lc.size() > lq.size() && lc.compare(0, lq.size(), lq) == 0;
    scored.emplace_back(3 * dist + (completes ? 0 : x == y ? 1 : 2), cand);
  };
  {
    Stmt st(db, "SELECT DISTINCT name FROM nodes");
    while (st.step()) consider(st.col_text(0));
  }
  {
    // Aliases sharing the first character (keeps the scan to a fraction of the table).
    Stmt st(db, "SELECT DISTINCT alias FROM aliases WHERE alias >= ?1 COLLATE NOCASE AND alias < ?2 COLLATE NOCASE");
    std::string first = q.substr(0, 1), next = first;
    next[0] = static_cast<char>(next[0] + 1);
    st.bind(1, first).bind(2, next);
    while (st.step()) consider(st.col_text(0));
  }
  if (scored.size() < max_suggestions && q.size() >= 2) {
    Stmt st(db, "SELECT name FROM nodes WHERE name LIKE ?1 || '%' ESCAPE '\\' ORDER BY length(name), name LIMIT 20");
    std::string esc;
    for (char c : q) {
      if (c == '%' || c == '_' || c == '\\') esc += '\\';
      esc += c;
    }
    st.bind(1, esc);
    while (st.step()) {
      std::string s = st.col_text(0);
      if (seen.insert(detail::lower_copy(s)).second) scored.emplace_back(3 * limit + 3, s);
    }
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto &a, const auto &b) {
    return a.first != b.first ? a.first < b.first : a.second < b.second;
  });
  for (std::size_t i = 0; i < scored.size() && i < max_suggestions; ++i)
    r.suggestions.push_back(scored[i].second);
  return r;
}

int64_t KnowledgeGraph::resolve(std::string_view name) const {
  ResolveResult r = lookup(name);
  if (r.status == ResolveResult::Status::found) return r.id;
  if (r.status == ResolveResult::Status::ambiguous) {
    std::string msg = "name '" + std::string(name) + "' is ambiguous: it may mean ";
    for (std::size_t i = 0; i < r.candidates.size(); ++i) {
      if (i) msg += ", ";
      if (i == 8) {
        msg += "and " + std::to_string(r.candidates.size() - 8) + " more";
        break;
      }
      msg += r.candidates[i].name + " (" + r.candidates[i].external_id + ")";
    }
    throw Error(ErrorCode::ambiguous, msg);
  }
  if (!r.note.empty()) throw Error(ErrorCode::not_found, "no protein or node named '" + std::string(name) + "': " + r.note);
  throw Error(ErrorCode::not_found, "no protein or node named '" + std::string(name) + "'" + detail::did_you_mean(r.suggestions));
}

}  // namespace grappi

namespace grappi {

std::vector<NameCompletion> KnowledgeGraph::complete(std::string_view prefix, std::size_t limit) const {
  std::string p = detail::trim_copy(prefix);
  limit = std::min<std::size_t>(limit, 100);
  std::vector<NameCompletion> out;
  if (p.empty() || limit == 0) return out;
  std::set<int64_t> seen;
  // What the text as typed links to (lookup: the name linker's choice, the entity every command
  // would take it for) comes first.
  if (const ResolveResult linked = lookup(p, 0); linked.status == ResolveResult::Status::found) {
    const ResolveCandidate &c = linked.candidates.at(0);
    out.push_back({c.id, c.name, c.external_id, p, "linked"});
    seen.insert(c.id);
  }
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto &db = impl_->db;
  // Every text beginning with p (any ASCII case) sorts in [p, p + 0xFF) under NOCASE: UTF-8 has
  // no 0xFF byte. The NOCASE indexes on names, aliases and external ids serve the ranges.
  const std::string upper = p + '\xff';
  const auto collect = [&](const char *sql, const char *how) {
    if (out.size() >= limit) return;
    Stmt st(db, sql);
    st.bind(1, p).bind(2, upper).bind(3, static_cast<int64_t>(4 * limit));
    while (st.step() && out.size() < limit) {
      const int64_t id = st.col_int(0);
      if (!seen.insert(id).second) continue;
      out.push_back({id, st.col_text(1), st.col_text(2), st.col_text(3), how});
    }
  };
  collect("SELECT id, name, external_id, name FROM nodes WHERE name >= ?1 COLLATE NOCASE AND name < ?2 COLLATE NOCASE "
          "ORDER BY length(name), name, id LIMIT ?3",
          "name");
  collect("SELECT n.id, n.name, n.external_id, a.alias FROM aliases a JOIN nodes n ON n.id = a.node_id "
          "WHERE a.alias >= ?1 COLLATE NOCASE AND a.alias < ?2 COLLATE NOCASE ORDER BY length(a.alias), a.alias, n.id LIMIT ?3",
          "alias");
  collect("SELECT id, name, external_id, external_id FROM nodes WHERE external_id >= ?1 COLLATE NOCASE AND "
          "external_id < ?2 COLLATE NOCASE ORDER BY length(external_id), external_id LIMIT ?3",
          "external_id");
  return out;
}

}  // namespace grappi
