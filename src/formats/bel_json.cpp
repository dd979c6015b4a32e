// The JSON form of BEL validation results.
#include "grappi/bel.hpp"
#include "grappi/bel_json.hpp"

namespace grappi {

using nlohmann::json;

json to_json(const BelResult &result, bool long_form) {
  json j;
  j["valid"] = result.valid();
  j["canonical"] = result.canonical.empty() ? json(nullptr) : json(result.canonical);
  j["errors"] = result.errors();
  j["warnings"] = result.warnings();
  json problems = json::array();
  for (const BelProblem &p : result.problems)
    problems.push_back({{"severity", to_string(p.severity)}, {"code", p.code}, {"offset", p.offset},
                        {"message", p.message}});
  j["problems"] = std::move(problems);
  if (result.statement) {
    const BelStatement &s = *result.statement;
    j["subject"] = to_bel(s.subject, long_form);
    j["relation"] = s.relation.empty() ? json(nullptr) : json(s.relation);
    if (s.nested)
      j["object"] = "(" + to_bel(*s.nested, long_form) + ")";
    else if (s.object)
      j["object"] = to_bel(*s.object, long_form);
    else
      j["object"] = nullptr;
  }
  return j;
}

json to_json(const BelDocument &doc, bool long_form) {
  json j;
  json props = json::object();
  for (const auto &[k, v] : doc.properties) props[k] = v;
  j["properties"] = std::move(props);
  j["namespaces"] = doc.namespaces;
  j["annotations"] = doc.annotations;
  j["statements"] = doc.statements.size();
  j["valid_statements"] = doc.valid_statements();
  j["errors"] = doc.errors();
  j["warnings"] = doc.problems.size() - doc.errors();
  j["evidence_cleared"] = doc.evidence_cleared;
  j["chained"] = doc.chained;
  json problems = json::array();
  for (const BelScriptProblem &p : doc.problems)
    problems.push_back({{"line", p.line}, {"column", p.column}, {"severity", to_string(p.problem.severity)},
                        {"code", p.problem.code}, {"message", p.problem.message}});
  j["problems"] = std::move(problems);
  json results = json::array();
  for (const BelScriptStatement &s : doc.statements) {
    json r = to_json(s.result, long_form);
    r["line"] = s.line;
    r["text"] = s.text;
    if (s.citation)
      r["citation"] = {{"type", s.citation->type}, {"id", s.citation->id}, {"name", s.citation->name},
                       {"date", s.citation->date}, {"authors", s.citation->authors}};
    else
      r["citation"] = nullptr;
    r["evidence"] = s.evidence;
    r["statement_group"] = s.statement_group;
    json annotations = json::object();
    for (const auto &[name, values] : s.annotations) annotations[name] = values;
    r["annotations"] = std::move(annotations);
    results.push_back(std::move(r));
  }
  j["results"] = std::move(results);
  return j;
}

}  // namespace grappi
