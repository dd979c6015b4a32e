// The BEL writer of KnowledgeGraph::export_graph (grappi/graph_export.hpp): the BEL statements
// of the selection as a BEL 2.1 script that `grappi import` (and pybel) reads back. Each
// evidence record of a bel.* edge is one statement occurrence: its canonical statement under
// the citation, evidence, annotations and statement group it was read with. Records shared
// by several edges (a nested statement, a hasMembers list) are written once. BEL terms that
// take part in no statement are written as term statements, so that they come back too.
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

#include "store/bel_graph.hpp"
#include "store/export_rows.hpp"
#include "grappi/bel.hpp"
#include "grappi/error.hpp"
#include "grappi/version.h"
#include "grappi/json_text.hpp"

namespace grappi::detail {

std::string bel_quoted(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

std::string bel_script_form(const std::string &canonical) {
  std::string out;
  out.reserve(canonical.size() + 8);
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  bool quoted = false;
  for (std::size_t i = 0; i < canonical.size();) {
    const char c = canonical[i];
    if (quoted) {
      out += c;
      if (c == '\\' && i + 1 < canonical.size()) out += canonical[++i];
      else if (c == '"') quoted = false;
      ++i;
      continue;
    }
    if (c == '"') {
      quoted = true;
      out += c;
      ++i;
      continue;
    }
    // An unquoted value after "NS:" or "! " with an underscore in it.
    const bool after_ns = !out.empty() && out.back() == ':';
    const bool after_label = out.size() >= 2 && out.compare(out.size() - 2, 2, "! ") == 0;
    if ((after_ns || after_label) && word(c)) {
      std::size_t j = i;
      while (j < canonical.size() && word(canonical[j])) ++j;
      const std::string value = canonical.substr(i, j - i);
      out += value.find('_') == std::string::npos ? value : '"' + value + '"';
      i = j;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

std::string bel2_line(const std::string &canonical) {
  static const std::set<std::string> implied = {"actsIn", "translocates", "reactantIn", "hasModification"};
  static const std::set<std::string> legacy = {"actsIn", "translocates", "reactantIn", "hasModification", "includes"};
  // (only a statement naming a BEL 1 relation is parsed: the rest are written as they are)
  bool named = false;
  for (const std::string &rel : legacy) named = named || canonical.find(" " + rel + " ") != std::string::npos;
  if (!named) return bel_script_form(canonical);
  BelOptions lenient;
  lenient.unknown_namespace_is_error = false;
  const BelResult r = validate_bel(canonical, lenient);
  if (!r.statement || !legacy.count(r.statement->relation)) return bel_script_form(canonical);
  // BEL 1's "A actsIn act(A)": BEL 2 says it with the object term alone.
  if (implied.count(r.statement->relation) && r.statement->object)
    return bel_script_form(to_bel(*r.statement->object)) + " // BEL 1: " + canonical;
  return "# BEL 1 statement BEL 2.1 has no relation for: " + canonical;
}

std::set<std::string> bel_namespaces_of(const std::vector<std::string> &statements) {
  std::set<std::string> namespaces;
  BelOptions lenient;
  lenient.unknown_namespace_is_error = false;
  const BelValidator reader(lenient);
  const std::function<void(const BelTerm &)> walk = [&](const BelTerm &t) {
    if (t.kind == BelTerm::Kind::entity && !t.ns.empty()) namespaces.insert(t.ns);
    for (const BelTerm &a : t.args) walk(a);
  };
  const std::function<void(const BelStatement &)> walk_statement = [&](const BelStatement &st) {
    walk(st.subject);
    if (st.object) walk(*st.object);
    if (st.nested) walk_statement(*st.nested);
  };
  for (const std::string &text : statements)
    if (const BelResult r = reader.check(text); r.statement) walk_statement(*r.statement);
  return namespaces;
}

std::string bel_document_head(const std::string &name, const std::string &description,
                              const std::set<std::string> &namespaces,
                              const std::map<std::string, std::set<std::string>> &lists,
                              const std::vector<std::string> &patterns) {
  std::string out = "SET DOCUMENT Name = " + bel_quoted(name) + "\nSET DOCUMENT Version = \"" GRAPPI_VERSION_STRING "\"\n" +
                    "SET DOCUMENT Description = " + bel_quoted(description) + "\nSET DOCUMENT Authors = \"grappi\"\n" +
                    "SET DOCUMENT ContactInfo = \"not given\"\n";
  for (const auto &ns : namespaces) out += "DEFINE NAMESPACE " + ns + " AS PATTERN \".*\"\n";
  for (const auto &[key, values] : lists) {
    out += "DEFINE ANNOTATION " + key + " AS LIST {";
    bool first = true;
    for (const auto &v : values) {
      out += (first ? "" : ", ") + bel_quoted(v);
      first = false;
    }
    out += "}\n";
  }
  for (const auto &key : patterns) out += "DEFINE ANNOTATION " + key + " AS PATTERN \".*\"\n";
  return out;
}

namespace {

using nlohmann::json;

std::string text_of(const json &j, const char *key) {
  const auto it = j.find(key);
  if (it == j.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (it->is_array()) {  // JSON graph citations list their authors
    std::string s;
    for (const auto &x : *it)
      if (x.is_string()) s += (s.empty() ? "" : "|") + x.get<std::string>();
    return s;
  }
  return it->is_null() ? std::string() : it->dump();
}

// The control lines that put a record's context in force.
std::string context_lines(const json &ctx) {
  std::string out;
  if (const auto c = ctx.find("citation"); c != ctx.end() && c->is_object()) {
    const std::string type = text_of(*c, "type"), id = text_of(*c, "id"), name = text_of(*c, "name"),
                      date = text_of(*c, "date"), authors = text_of(*c, "authors");
    out += "SET Citation = {" + bel_quoted(type.empty() ? "Other" : type);
    if (name.empty() && date.empty() && authors.empty()) {
      out += ", " + bel_quoted(id);
    } else {
      out += ", " + bel_quoted(name) + ", " + bel_quoted(id);
      if (!date.empty() || !authors.empty()) out += ", " + bel_quoted(date);
      if (!authors.empty()) out += ", " + bel_quoted(authors);
    }
    out += "}\n";
  }
  // BEL asks every statement for a citation and evidence; one read without them (a JSON
  // graph's edge without evidence) says so rather than borrowing another's.
  const bool cited = ctx.contains("citation") && ctx["citation"].is_object();
  if (!cited) out += std::string("SET Citation = {\"Other\", \"no citation in the source\", \"") + kUncitedId + "\"}\n";
  if (const std::string e = text_of(ctx, "evidence"); !e.empty()) out += "SET Evidence = " + bel_quoted(e) + "\n";
  else if (!cited) out += "SET Evidence = " + bel_quoted(kUncitedEvidence) + "\n";
  if (const auto a = ctx.find("annotations"); a != ctx.end() && a->is_object())
    for (const auto &[key, value] : a->items()) {
      std::vector<std::string> values;
      if (value.is_array()) {
        for (const auto &v : value)
          if (v.is_string()) values.push_back(v.get<std::string>());
      } else if (value.is_string()) {
        values.push_back(value.get<std::string>());
      }
      if (values.empty()) continue;
      out += "SET " + key + " = ";
      if (values.size() == 1) {
        out += bel_quoted(values[0]);
      } else {
        out += "{";
        for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + bel_quoted(values[i]);
        out += "}";
      }
      out += "\n";
    }
  if (const std::string g = text_of(ctx, "statement_group"); !g.empty()) out += "SET STATEMENT_GROUP = " + bel_quoted(g) + "\n";
  return out;
}

// An annotation name BEL scripts can carry (SET Name = ...): letters, digits and '_'.
bool usable_key(const std::string &k) {
  if (k.empty() || k == "Citation" || k == "Evidence" || k == "SupportingText" || k == "STATEMENT_GROUP") return false;
  return std::all_of(k.begin(), k.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

}  // namespace

void write_bel(std::ostream &out, Db &db, const std::vector<NodeRow> &nodes, EdgeCursor &edges, ExportReport &rep) {
  // Statement occurrences by context (the lines that set it), each once.
  std::map<std::string, std::vector<std::string>> by_context;
  std::map<std::string, std::set<std::string>> annotations;  // key -> every value written
  std::set<std::string> seen;  // line, raw and record of each occurrence written
  std::set<std::string> made;  // terms the import of the written statements makes
  // One record (a statement read under its citation, evidence and annotations) into its
  // context's list, once; false when it holds no statement.
  const auto add_record = [&](const json &r) {
    const json &rec = r["record"];
    if (!rec.is_object() || !rec.contains("statement") || !rec["statement"].is_string()) return false;
    if (!seen.insert(std::to_string(r["line"].get<int64_t>()) + '\n' + r["raw"].get<std::string>() + '\n' + dump_json(rec)).second)
      return true;
    json ctx = rec;
    if (ctx.contains("annotations") && ctx["annotations"].is_object()) {
      json kept = json::object();
      for (const auto &[k, v] : ctx["annotations"].items()) {
        if (!usable_key(k)) continue;
        kept[k] = v;
        if (v.is_string()) annotations[k].insert(v.get<std::string>());
        if (v.is_array())
          for (const auto &x : v)
            if (x.is_string()) annotations[k].insert(x.get<std::string>());
      }
      ctx["annotations"] = std::move(kept);
    }
    by_context[context_lines(ctx)].push_back(rec["statement"].get<std::string>());
    ++rep.records;
    return true;
  };
  EdgeRow e;
  while (edges.next(e)) {
    if (e.relation.rfind("bel.", 0) != 0) {
      ++rep.not_written;
      continue;
    }
    bool any = false;
    for (const auto &r : edges.records(e.id)) any = add_record(r) || any;
    // A bel.* edge without statements is one the import derives from the terms (bel.wraps,
    // bel.hasVariant, complex members, bel.represents): importing the statements makes it.
    if (any) {
      ++rep.edges;
      made.insert(e.source);
      made.insert(e.target);
    }
  }
  // Statements of one term ("p(HGNC:AKT1)" under a citation), from the records on the term
  // itself: written once, under their context, as the edges' statements are.
  {
    Stmt st(db, "SELECT line, record, raw FROM node_evidence WHERE node_id = ? ORDER BY id");
    for (const NodeRow &n : nodes) {
      if (n.label != "BelTerm") continue;
      st.reset();
      st.bind(1, n.id);
      bool any = false;
      while (st.step()) {
        const json rec = json::parse(st.col_text(1), nullptr, false);
        any = add_record(json{{"line", st.col_int(0)}, {"record", rec}, {"raw", st.col_text(2)}}) || any;
      }
      if (any) made.insert(n.external_id);
    }
  }
  // The terms a term brings with it when it is imported: the terms inside it (bel.wraps,
  // bel.hasComponent, bel.hasReactant, bel.hasProduct) and the plain form of a variant
  // (bel.hasVariant runs from the plain form).
  std::map<std::string, std::vector<std::string>> parts;
  {
    Stmt st(db, "SELECT s.external_id, t.external_id, r.name FROM edges e JOIN relations r ON r.id = e.relation "
                "JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target WHERE r.name IN "
                "('bel.wraps', 'bel.hasComponent', 'bel.hasReactant', 'bel.hasProduct', 'bel.hasVariant')");
    while (st.step()) {
      if (st.col_text(2) == "bel.hasVariant") parts[st.col_text(1)].push_back(st.col_text(0));
      else parts[st.col_text(0)].push_back(st.col_text(1));
    }
  }
  const auto bring = [&](const std::string &term) {
    std::vector<std::string> todo{term};
    while (!todo.empty()) {
      const std::string t = std::move(todo.back());
      todo.pop_back();
      if (!made.insert(t).second && t != term) continue;
      if (const auto it = parts.find(t); it != parts.end())
        for (const auto &p : it->second)
          if (!made.count(p)) todo.push_back(p);
    }
  };
  for (const std::string &t : std::set<std::string>(made)) bring(t);
  // Terms of the selection no statement brings back (a term statement, a node of a JSON graph
  // or CX2 network whose statements were invalid): written as term statements, the outer terms
  // first so that their parts need no line of their own. And the namespaces the terms use.
  std::vector<const NodeRow *> terms;
  for (const NodeRow &n : nodes)
    if (n.label == "BelTerm") terms.push_back(&n);
  std::stable_sort(terms.begin(), terms.end(),
                   [](const NodeRow *a, const NodeRow *b) { return a->external_id.size() > b->external_id.size(); });
  std::vector<std::string> lone_terms;
  for (const NodeRow *n : terms)
    if (!made.count(n->external_id)) {
      lone_terms.push_back(n->external_id);
      bring(n->external_id);
    }
  std::sort(lone_terms.begin(), lone_terms.end());
  if (by_context.empty() && lone_terms.empty())
    throw Error(ErrorCode::invalid_argument, "export: the selection holds no BEL statements or terms");
  std::vector<std::string> written = lone_terms;
  for (const auto &[context, statements] : by_context) written.insert(written.end(), statements.begin(), statements.end());
  out << "# BEL 2.1 script written by grappi " << GRAPPI_VERSION_STRING
      << ": the BEL statements of a knowledge base, each under the citation, evidence and annotations it was read with.\n"
      << bel_document_head("grappi BEL export", "BEL statements exported from a grappi knowledge base",
                           bel_namespaces_of(written), annotations, {});
  bool first = true;
  for (const auto &[context, statements] : by_context) {
    out << (first ? "\n" : "\nUNSET ALL\n") << context;
    first = false;
    for (const auto &s : statements) out << bel2_line(s) << '\n';
  }
  if (!lone_terms.empty()) {
    out << (first ? "\n" : "\nUNSET ALL\n") << "# BEL terms that take part in no statement\n";
    for (const auto &t : lone_terms) out << bel_script_form(t) << '\n';
  }
}

}  // namespace grappi::detail
