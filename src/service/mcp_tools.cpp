// The MCP server's tools (mcp_tools.hpp): parameters, schemas and the library calls.
#include "service/mcp_tools.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "grappi/answer.hpp"
#include "grappi/bel.hpp"
#include "grappi/bel_json.hpp"
#include "grappi/clustering.hpp"
#include "grappi/documents.hpp"
#include "grappi/enrichment.hpp"
#include "grappi/error.hpp"
#include "grappi/extraction.hpp"
#include "grappi/graph_embeddings.hpp"
#include "grappi/hypothesis.hpp"
#include "grappi/pipeline.hpp"
#include "grappi/retrieval_json.hpp"
#include "grappi/retriever.hpp"
#include "grappi/store_json.hpp"

#include "analysis/annotations.hpp"
#include "analysis/partition.hpp"
#include "store/score.hpp"

namespace grappi::detail {
std::string_view html_asset(std::string_view name);  // html_assets.cpp (generated)
std::string_view html_asset_names();
}  // namespace grappi::detail

namespace grappi::detail::mcp {

namespace {

using nlohmann::json;

constexpr std::size_t kMaxText = 60000;         // a text argument (extract_text's text, a BEL script), in bytes
constexpr std::size_t kMaxWindowNodes = 100000;  // explore: windows x the nodes a window can hold

// ---- parameters ------------------------------------------------------------------------------

Param text(std::string name, std::string description, bool required = false, std::size_t most = 2000) {
  Param p;
  p.name = std::move(name);
  p.type = "string";
  p.description = std::move(description);
  p.required = required;
  p.lo = required ? 1 : 0;
  p.hi = static_cast<double>(most);
  return p;
}
Param choice(std::string name, std::string description, std::vector<std::string> choices, std::string fallback) {
  Param p = text(std::move(name), std::move(description));
  p.choices = std::move(choices);
  p.fallback = std::move(fallback);
  return p;
}
Param number(std::string name, std::string description, double lo, double hi, double fallback) {
  Param p;
  p.name = std::move(name);
  p.type = "number";
  p.description = std::move(description);
  p.lo = lo;
  p.hi = hi;
  p.fallback = fallback;
  return p;
}
Param count(std::string name, std::string description, double lo, double hi, std::size_t fallback) {
  Param p = number(std::move(name), std::move(description), lo, hi, 0);
  p.type = "integer";
  p.fallback = fallback;
  return p;
}
Param flag(std::string name, std::string description) {
  Param p;
  p.name = std::move(name);
  p.type = "boolean";
  p.description = std::move(description);
  p.fallback = false;
  return p;
}
Param names(std::string name, std::string description, bool required, std::size_t most) {
  Param p;
  p.name = std::move(name);
  p.type = "strings";
  p.description = std::move(description);
  p.required = required;
  p.lo = required ? 1 : 0;
  p.hi = static_cast<double>(most);
  return p;
}
Param counts(std::string name, std::string description, std::size_t most, double hi, std::vector<std::size_t> fallback) {
  Param p;
  p.name = std::move(name);
  p.type = "integers";
  p.description = std::move(description);
  p.lo = 1;
  p.hi = hi;
  p.fallback = {{"most", most}, {"items", fallback}};  // (read by Args and to_schema)
  return p;
}
Param min_score(double fallback) {
  return number("min_score", "Only edges scoring at least this (0-1; STRING's medium confidence is 0.4, high 0.7)", 0, 1, fallback);
}
Param relation() {
  return names("relation", "Only edges of these relations, e.g. string.physical (default: every interaction relation)", false, 32);
}

json to_schema(const Param &p) {
  json s = {{"description", p.description}};
  if (p.type == "string") {
    s["type"] = "string";
    if (p.required) s["minLength"] = 1;
    s["maxLength"] = static_cast<std::size_t>(p.hi);
    if (!p.choices.empty()) s["enum"] = p.choices;
  } else if (p.type == "number" || p.type == "integer") {
    s["type"] = p.type;
    s["minimum"] = p.type == "integer" ? json(static_cast<int64_t>(p.lo)) : json(p.lo);
    s["maximum"] = p.type == "integer" ? json(static_cast<int64_t>(p.hi)) : json(p.hi);
  } else if (p.type == "boolean") {
    s["type"] = "boolean";
  } else if (p.type == "strings") {
    s["type"] = "array";
    s["items"] = {{"type", "string"}, {"minLength", 1}, {"maxLength", 2000}};
    if (p.required) s["minItems"] = 1;
    s["maxItems"] = static_cast<std::size_t>(p.hi);
  } else {  // integers
    s["type"] = "array";
    s["items"] = {{"type", "integer"}, {"minimum", 1}, {"maximum", static_cast<int64_t>(p.hi)}};
    s["minItems"] = 1;
    s["maxItems"] = p.fallback["most"];
    s["default"] = p.fallback["items"];
    return s;
  }
  if (!p.fallback.is_null()) s["default"] = p.fallback;
  return s;
}

std::string shown(const json &v) {
  std::string s = v.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

}  // namespace

Args::Args(const json &arguments, const std::vector<Param> &params, const std::string &tool) {
  const auto bad = [&](const std::string &why) { return Error(ErrorCode::invalid_argument, tool + ": " + why); };
  if (!arguments.is_null() && !arguments.is_object()) throw bad("the arguments must be a JSON object");
  values_ = json::object();
  if (arguments.is_object())
    for (auto it = arguments.begin(); it != arguments.end(); ++it) {
      const std::string &name = it.key();
      if (std::none_of(params.begin(), params.end(), [&](const Param &p) { return p.name == name; })) {
        std::string known;
        for (const Param &p : params) known += (known.empty() ? "" : ", ") + p.name;
        throw bad("unknown argument '" + name.substr(0, 60) + "' (the arguments are " + known + ")");
      }
    }
  for (const Param &p : params) {
    const json *given = arguments.is_object() && arguments.contains(p.name) && !arguments[p.name].is_null() ? &arguments[p.name] : nullptr;
    if (!given) {
      if (p.required) throw bad("'" + p.name + "' is required (" + p.description + ")");
      values_[p.name] = p.type == "integers" ? p.fallback["items"] : p.fallback;
      continue;
    }
    const json &v = *given;
    const std::string where = "'" + p.name + "' (given " + shown(v) + ")";
    if (p.type == "string") {
      if (!v.is_string()) throw bad(where + " must be a string");
      const std::string &s = v.get_ref<const std::string &>();
      if (static_cast<double>(s.size()) < p.lo || static_cast<double>(s.size()) > p.hi)
        throw bad("'" + p.name + "' must hold " + std::to_string(static_cast<std::size_t>(p.lo)) + " to " +
                  std::to_string(static_cast<std::size_t>(p.hi)) + " bytes (given " + std::to_string(s.size()) + ")");
      if (!p.choices.empty() && std::find(p.choices.begin(), p.choices.end(), s) == p.choices.end()) {
        std::string allowed;
        for (const std::string &c : p.choices) allowed += (allowed.empty() ? "" : ", ") + c;
        throw bad(where + " must be one of " + allowed);
      }
    } else if (p.type == "number" || p.type == "integer") {
      const bool whole = v.is_number_integer() || (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>());
      if (!v.is_number() || (p.type == "integer" && !whole)) throw bad(where + " must be " + (p.type == "integer" ? "a whole number" : "a number"));
      const double x = v.get<double>();
      if (!(x >= p.lo && x <= p.hi)) {
        std::ostringstream range;
        range << p.lo << " to " << p.hi;
        throw bad(where + " must be from " + range.str());
      }
    } else if (p.type == "boolean") {
      if (!v.is_boolean()) throw bad(where + " must be true or false");
    } else {
      const bool strings = p.type == "strings";
      const std::size_t most = strings ? static_cast<std::size_t>(p.hi) : p.fallback["most"].get<std::size_t>();
      if (!v.is_array()) throw bad(where + " must be an array");
      if (v.size() > most) throw bad("'" + p.name + "' holds more than " + std::to_string(most) + " items");
      if (v.empty() && (p.required || !strings)) throw bad("'" + p.name + "' must hold at least one item");
      for (const json &item : v) {
        if (strings && (!item.is_string() || item.get_ref<const std::string &>().empty() || item.get_ref<const std::string &>().size() > 2000))
          throw bad("'" + p.name + "' must hold strings of 1 to 2000 bytes (given " + shown(item) + ")");
        if (!strings && (!item.is_number_integer() || item.get<int64_t>() < 1 || item.get<double>() > p.hi))
          throw bad("'" + p.name + "' must hold whole numbers from 1 to " + std::to_string(static_cast<int64_t>(p.hi)) + " (given " +
                    shown(item) + ")");
      }
    }
    values_[p.name] = v;
  }
}

const json &Args::value(const std::string &name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) throw Error(ErrorCode::internal, "mcp: no parameter '" + name + "'");
  return *it;
}
bool Args::has(const std::string &name) const {
  const auto it = values_.find(name);
  return it != values_.end() && !it->is_null();
}
std::string Args::text(const std::string &name) const {
  const json &v = value(name);
  return v.is_string() ? v.get<std::string>() : std::string();
}
double Args::number(const std::string &name) const { return value(name).get<double>(); }
std::size_t Args::count(const std::string &name) const { return static_cast<std::size_t>(value(name).get<double>()); }
bool Args::flag(const std::string &name) const { return value(name).is_boolean() && value(name).get<bool>(); }
std::vector<std::string> Args::texts(const std::string &name) const {
  const json &v = value(name);
  return v.is_array() ? v.get<std::vector<std::string>>() : std::vector<std::string>{};
}
std::vector<std::size_t> Args::counts(const std::string &name) const {
  std::vector<std::size_t> out;
  for (const json &x : value(name)) out.push_back(x.get<std::size_t>());
  return out;
}

namespace {

// ---- the tools -------------------------------------------------------------------------------

std::string plural(std::size_t n, const std::string &what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

std::string node_label(const GraphSnapshot &s, int64_t id) {
  const auto ix = s.index_of(id);
  return ix ? s.name(*ix) + " (" + s.external_id(*ix) + ")" : std::to_string(id);
}

/// The relations a tool follows: those asked for, else every relation of the network (no
/// annotation or ontology link) as clustering and enrichment take them (all of them when the graph
/// has no other). Unknown names are an Error listing the graph's.
std::vector<std::string> network_relation_names(const GraphSnapshot &s, const std::vector<std::string> &asked, const char *tool) {
  const std::vector<char> ok = detail::network_relations(s, asked, tool);
  std::vector<std::string> names;
  for (std::size_t r = 0; r < ok.size(); ++r)
    if (ok[r]) names.push_back(s.relation_name(static_cast<int32_t>(r)));
  return names;
}

/// Stops a call the client cancelled (or past its time) before its next step: before a tool
/// that takes no RunControl begins, and before a run's JSON is made.
void check_cancel(const Context &c) {
  if (c.run.cancel && c.run.cancel()) throw Error(ErrorCode::budget, "cancelled by the client, or stopped at the time limit");
}

Output run_resolve(const Args &a, Context &c) {
  const std::string name = a.text("name");
  const ResolveResult r = c.graph.lookup(name, a.count("suggestions"));
  json j = to_json(r);
  j["query"] = name;
  std::string line;
  if (r.status == ResolveResult::Status::found) {
    line = "'" + name + "' is " + r.candidates.front().name + " (" + r.candidates.front().external_id + ")";
  } else if (r.status == ResolveResult::Status::ambiguous) {
    line = "'" + name + "' is ambiguous: " + plural(r.candidates.size(), "candidate") + " (give an external id)";
  } else {
    line = "'" + name + "' names no node" + (r.suggestions.empty() ? std::string() : "; did you mean " + r.suggestions.front() + "?");
    if (!r.note.empty()) line += " (" + r.note + ")";
  }
  return {j, line};
}

Output run_neighbors(const Args &a, Context &c) {
  const int64_t id = c.graph.resolve(a.text("protein"));
  const auto snap = c.graph.snapshot();
  NeighborFilter f;
  f.min_score = a.number("min_score");
  f.relations = network_relation_names(*snap, a.texts("relation"), "neighbors");
  const auto list = strongest_neighbors(*snap, id, f, a.count("limit"));
  std::string line = node_label(*snap, id) + ": " + plural(list.size(), "neighbor") + " shown of degree " + std::to_string(snap->degree(id));
  if (!list.empty()) line += "; strongest " + node_label(*snap, list.front().node);
  return {to_json(*snap, id, list), line};
}

Output run_network(const Args &a, Context &c) {
  // The names linked as enrich and cluster link them, the edges among them as clustering reads
  // the network: each pair once, at its best score.
  const auto snap = c.graph.snapshot();
  std::vector<std::pair<std::string, std::string>> unmatched;
  const std::vector<int64_t> ids = detail::link_names(c.graph, a.texts("proteins"), unmatched, "network");
  std::vector<uint32_t> members;
  json nodes = json::array(), unresolved = json::array(), edges = json::array();
  for (const int64_t id : ids) {
    const auto ix = snap->index_of(id);
    if (!ix || std::find(members.begin(), members.end(), *ix) != members.end()) continue;
    members.push_back(*ix);
    nodes.push_back({{"id", id}, {"name", snap->name(*ix)}, {"external_id", snap->external_id(*ix)}});
  }
  for (const auto &[name, reason] : unmatched) unresolved.push_back({{"name", name}, {"reason", reason}});
  const double min_score = a.number("min_score");
  std::vector<detail::NetworkEdge> found = detail::network_edges(
      *snap, members, detail::network_relations(*snap, a.texts("relation"), "network"), static_cast<float>(min_score));
  std::stable_sort(found.begin(), found.end(), [](const detail::NetworkEdge &x, const detail::NetworkEdge &y) { return x.score > y.score; });
  for (const detail::NetworkEdge &e : found) {
    const uint32_t from = members[e.a], to = members[e.b];
    edges.push_back({{"edge", e.edge},
                     {"source_id", snap->node_id(from)},
                     {"target_id", snap->node_id(to)},
                     {"source_external_id", snap->external_id(from)},
                     {"target_external_id", snap->external_id(to)},
                     {"source_name", snap->name(from)},
                     {"target_name", snap->name(to)},
                     {"score", detail::decimal(e.score)},
                     {"relation", snap->relation_name(e.relation)}});
  }
  const std::string line = plural(nodes.size(), "protein") + " and " + plural(edges.size(), "edge") + " among them" +
                           (unresolved.empty() ? std::string() : "; " + std::to_string(unresolved.size()) + " name(s) not resolved");
  return {{{"nodes", nodes}, {"edges", edges}, {"unresolved", unresolved}, {"min_score", min_score}}, line};
}

Output run_paths(const Args &a, Context &c) {
  ShortestPathOptions o;
  o.k = a.count("k");
  o.max_length = a.count("max_len");
  o.weighted = a.flag("weighted");
  o.skip_direct = a.flag("skip_direct");
  o.filter.min_score = a.number("min_score");
  o.filter.relations = a.texts("relation");
  const int64_t from = c.graph.resolve(a.text("from")), to = c.graph.resolve(a.text("to"));
  check_cancel(c);
  const auto r = graph_retriever(c.graph);
  const auto paths = r->shortest_paths(from, to, o);
  std::string line = plural(paths.size(), "path") + " from " + node_label(r->graph(), from) + " to " + node_label(r->graph(), to);
  if (paths.empty()) line += " of at most " + plural(o.max_length, "edge");
  else line += "; the shortest has " + plural(paths.front().length(), "edge");
  return {{{"paths", to_json(r->graph(), paths)}}, line};
}

Output run_enrich(const Args &a, Context &c) {
  EnrichmentOptions o;
  o.categories = a.texts("category");
  o.exclude_evidence = a.texts("exclude_evidence");
  o.background = enrichment_background(a.text("background"));
  o.min_term_size = a.count("min_size");
  o.max_term_size = a.count("max_size");
  o.max_fdr = a.number("fdr");
  const EnrichmentResult r = enrich_names(c.graph, a.texts("proteins"), o);
  json j = to_json(c.graph, r);
  std::size_t terms = 0;
  if (j.contains("terms") && j["terms"].is_array()) terms = j["terms"].size();
  std::string line = plural(r.proteins.size(), "protein") + ", " + plural(terms, "term") + " at FDR <= " + shown(o.max_fdr);
  if (terms) line += "; the first: " + j["terms"][0].value("name", std::string()) + " (" + j["terms"][0].value("term", std::string()) + ")";
  return {j, line};
}

Output run_cluster(const Args &a, Context &c) {
  ClusterOptions o;
  o.method = cluster_method(a.text("method"));
  o.min_score = a.number("min_score");
  o.relations = a.texts("relation");
  o.inflation = a.number("inflation");
  o.resolution = a.number("resolution");
  o.runs = a.count("runs");
  o.max_cluster_size = a.count("max_cluster_size");
  o.categories = a.texts("category");
  o.max_fdr = a.number("fdr");
  check_cancel(c);
  const ClusteringResult r = cluster_names(c.graph, a.texts("proteins"), o);
  json j = to_json(c.graph, r);
  std::size_t top = 0;
  for (const auto &cl : r.clusters) top += cl.level == 0;
  return {j, plural(top, "cluster") + " (" + a.text("method") + ") of " + plural(r.nodes.size(), "protein")};
}

Output run_explore(const Args &a, Context &c) {
  const int64_t root = c.graph.resolve(a.text("protein"));
  ExploreOptions o;
  static_cast<RunControl &>(o) = c.run;
  o.query = a.text("query");
  o.windows = a.counts("windows");
  o.window.k = a.counts("k");
  o.window.depth = a.count("depth");
  o.window.filter.min_score = a.number("min_score");
  o.window.filter.relations = a.texts("relation");
  o.max_length = a.count("max_len");
  o.top = a.count("top");
  o.max_paths = a.count("max_paths");
  o.explain_top = a.count("explain_top");
  o.explain_budget = a.count("explain_budget");
  o.concurrency = c.options.concurrency;
  if (explore_window_nodes_bound(o) > kMaxWindowNodes)
    throw Error(ErrorCode::invalid_argument, "explore: windows x k x depth asks for windows of more than " + std::to_string(kMaxWindowNodes) +
                                                 " nodes in all (a window holds up to 1 + k1 + k1*k2 + ... nodes): ask for fewer "
                                                 "windows, smaller k or less depth");
  const AgentPipeline pipe(c.graph, c.model, c.options.embedding_model);
  const ExploreResult r = pipe.explore(root, o);
  check_cancel(c);  // (a cancelled run's JSON is never made: a large window's takes seconds)
  const auto snap = c.graph.snapshot();
  std::string line = plural(r.paths.size(), "ranked path") + " from " + node_label(*snap, root) + " toward '" + o.query + "'";
  if (!r.paths.empty()) {
    line += "; the best: ";
    for (std::size_t i = 0; i < r.paths.front().nodes.size(); ++i) {
      const auto ix = snap->index_of(r.paths.front().nodes[i]);
      line += (i ? " - " : "") + (ix ? snap->name(*ix) : std::to_string(r.paths.front().nodes[i]));
    }
  }
  if (c.model->kind() == "extractive") line += " (explanations extractive: no language model)";
  return {to_json(r), line};
}

Output run_ask(const Args &a, Context &c) {
  AskOptions o;
  static_cast<RunControl &>(o) = c.run;
  o.embedding_model = c.options.embedding_model;
  o.top = a.count("answers");
  o.context = a.text("context");
  o.papers = a.count("papers");
  const AskResult r = ask(c.graph, *c.model, a.text("question"), o);
  check_cancel(c);
  if (r.status == "failed" && !r.offline) throw Error(ErrorCode::llm, "the model failed: " + r.error);
  json j = to_json(r);
  std::string line = "status " + r.status;
  if (j.contains("answer") && j["answer"].is_object() && j["answer"].contains("text")) line += ": " + j["answer"]["text"].get<std::string>();
  return {j, line};
}

Output run_hypothesize(const Args &a, Context &c) {
  HypothesisOptions o;
  static_cast<RunControl &>(o) = c.run;
  o.max_length = a.count("max_len");
  o.paths = a.count("paths");
  o.shortest_rounds = a.count("shortest_rounds");
  o.mask_direct = a.flag("mask_direct");
  if (a.has("relation") && !a.texts("relation").empty()) o.relations = a.texts("relation");
  c.graph.resolve(a.text("source"));  // unknown or ambiguous: said at once
  c.graph.resolve(a.text("target"));
  const HypothesisResult r = hypothesize(c.graph, *c.model, a.text("source"), a.text("target"), {}, o);
  check_cancel(c);
  std::string line = plural(r.paths.size(), "ranked path") + " between " + r.source_name + " and " + r.target_name;
  return {to_json(r), line};
}

Output run_search_papers(const Args &a, Context &c) {
  const std::vector<PaperHit> hits = c.graph.search_papers(a.text("query"), a.count("limit"));
  json out = json::array();
  for (const PaperHit &h : hits) out.push_back(to_json(h));
  std::string line = plural(hits.size(), "paper") + " match";
  if (!hits.empty()) line += "; the best: " + (hits.front().pmid.empty() ? hits.front().key : "PMID:" + hits.front().pmid) + " " + hits.front().title;
  return {{{"papers", out}}, line};
}

Output run_bel_validate(const Args &a, Context &c) {
  BelOptions o;
  o.long_form = a.flag("long");
  o.unknown_namespace_is_error = !a.flag("allow_unknown_namespaces");
  o.resolver = c.graph.bel_resolver();
  std::string script = a.text("script");
  for (const std::string &s : a.texts("statement")) script += (script.empty() || script.back() == '\n' ? "" : "\n") + s + "\n";
  if (script.empty()) throw Error(ErrorCode::invalid_argument, "bel_validate: give 'statement' (a list) or 'script' (a BEL script's text)");
  std::istringstream in(script);
  const BelDocument doc = read_bel_script(in, o);
  std::string line = plural(doc.statements.size(), "statement") + ", " + std::to_string(doc.valid_statements()) + " valid; " +
                     plural(doc.errors(), "error");
  if (!doc.problems.empty())
    line += "; the first: line " + std::to_string(doc.problems.front().line) + ": " + doc.problems.front().problem.message;
  return {to_json(doc, o.long_form), line};
}

Output run_extract_text(const Args &a, Context &c) {
  ExtractionOptions o;
  static_cast<RunControl &>(o) = c.run;
  o.entities.taxon = static_cast<int64_t>(a.count("taxon"));
  o.entities.stop_words = a.texts("stop_word");
  o.concurrency = std::min<std::size_t>(c.options.concurrency, 64);
  const std::vector<Document> docs = parse_documents(a.text("text"), DocumentFormat::text, "text");
  const ExtractionResult r = extract(c.graph, *c.model, docs, o);
  check_cancel(c);
  std::size_t valid = 0;
  for (const auto &s : r.statements) valid += !s.canonical.empty();
  std::string line = plural(r.statements.size(), "BEL statement") + " (" + std::to_string(valid) + " valid) from " +
                     plural(r.paragraphs.size(), "paragraph");
  if (r.offline) line += " (rule-based extraction: no language model)";
  return {to_json(r), line};
}

const char *kNodeNames = "a name, alias, STRING or UniProt id, or external id (as `resolve` takes)";

std::vector<Tool> make_tools() {
  std::vector<Tool> t;
  t.push_back({"resolve", "Resolve a name",
               "Finds the node a protein or concept name stands for in the knowledge base: a gene symbol, an alias, an everyday "
               "name (\"beta-catenin\"), a STRING or UniProt id. Returns the node with its stable external id and how the name "
               "matched, every candidate when the name is ambiguous, or close names when nothing matches. Use it before other "
               "tools when a name may be unclear; they take the same names.",
               {text("name", "The name to resolve", true), count("suggestions", "Close names given when nothing matches", 0, 20, 5)},
               "resolve.schema.json", "", run_resolve});
  t.push_back({"neighbors", "Interaction partners",
               "The interaction partners of one protein, strongest first: each with its external id, the edge's score (0-1, "
               "STRING's combined confidence for STRING edges), relation and direction. Use it for \"what does X interact "
               "with\"; filter by min_score (0.4 medium, 0.7 high, 0.9 highest confidence) or relation.",
               {text("protein", std::string("The protein: ") + kNodeNames, true), min_score(0), relation(),
                count("limit", "Partners at most, strongest first (0: all)", 0, 10000, 25)},
               "neighbors.schema.json", "", run_neighbors});
  t.push_back({"network", "Network of a protein set",
               "The interactions among a set of proteins (as STRING's network view): the proteins found, each pair of them "
               "joined at or above min_score once, at its best score (strongest first, with the relation and edge id), and "
               "the names that did not resolve, with the reason (ambiguous candidates, close names).",
               {names("proteins", std::string("The proteins: each ") + kNodeNames, true, 500), min_score(0.4), relation()},
               "network.schema.json", "", run_network});
  t.push_back({"paths", "Shortest paths",
               "The k shortest simple paths between two proteins through the network (Yen's algorithm), by hop count or, with "
               "weighted, by the sum of -log(score): each path with its proteins' names and external ids and its edges' scores.",
               {text("from", std::string("The start: ") + kNodeNames, true), text("to", std::string("The end: ") + kNodeNames, true),
                count("max_len", "Edges in a path at most", 1, 8, 4), count("k", "Paths at most", 1, 100, 10), min_score(0), relation(),
                flag("skip_direct", "Follow no edge joining the two ends (indirect paths only)"),
                flag("weighted", "Shortest by the sum of -log(score) instead of hop count")},
               "paths.schema.json", "paths", run_paths});
  t.push_back({"enrich", "Functional enrichment",
               "Which functions, processes, locations and pathways a protein set is enriched in: GO (Process, Function, "
               "Component) and the imported STRING categories (KEGG, Reactome, ...), by the hypergeometric test with "
               "Benjamini-Hochberg FDR, as STRING reports it; each term with its proteins. Needs annotations in the database.",
               {names("proteins", std::string("The protein set: each ") + kNodeNames, true, 5000),
                names("category", "Categories tested: Process, Function, Component, KEGG, Reactome, ... (default: every one annotated)", false, 32),
                names("exclude_evidence", "Evidence codes that do not count, e.g. IEA", false, 64),
                choice("background", "The universe: annotated (the organism's annotated proteins) or network (the proteins with an edge)",
                       {"annotated", "network"}, "annotated"),
                count("min_size", "Terms tested: at least this many annotated proteins in the universe", 1, 1000000, 1),
                count("max_size", "Terms tested: at most this many (0: no bound)", 0, 1000000, 0),
                number("fdr", "Terms reported: FDR at most this", 0, 1, 0.05)},
               "enrich.schema.json", "", run_enrich});
  t.push_back({"cluster", "Clusters (modules)",
               "The modules of a protein set's network, or of the whole network without proteins: MCL (STRING's clustering) or "
               "Leiden (modularity, or cpm), each cluster with its members (hubs first), edges and enriched terms.",
               {names("proteins", std::string("The proteins (none: the whole network): each ") + kNodeNames, false, 5000),
                choice("method", "mcl, leiden or cpm", {"mcl", "leiden", "cpm"}, "mcl"), min_score(0.4), relation(),
                number("inflation", "MCL: the inflation (larger gives smaller clusters)", 1.01, 30, 2.0),
                number("resolution", "Leiden: the resolution (modularity's gamma; CPM's density)", 0, 1000000, 1.0),
                count("runs", "Leiden: runs from successive seeds, the best kept", 1, 10, 1),
                count("max_cluster_size", "Cluster again each cluster of more members than this (0: flat)", 0, 1000000, 0),
                names("category", "Enriched terms' categories (default: every one annotated)", false, 32),
                number("fdr", "Enriched terms: FDR at most this", 0, 1, 0.05)},
               "cluster.schema.json", "", run_cluster});
  t.push_back({"explore", "Explained pathways toward an impact",
               "GraPPI's exploration: from one protein, the moving windows of its strongest partners, every path through them, "
               "ranked by how well each explains the therapeutic impact asked about (query), best first, with per-edge "
               "explanations, scores, evidence and PubMed ids. Without a language model on the server the explanations are "
               "extractive and say so. Reports progress; can be cancelled.",
               {text("protein", std::string("The initial protein: ") + kNodeNames, true),
                text("query", "The therapeutic impact, e.g. \"inhibit tau phosphorylation\"", true),
                counts("windows", "Window numbers (1: the strongest k partners; 2: the next k, ...)", 20, 100, {1}),
                counts("k", "Partners per depth, e.g. [30, 4]", 6, 1000, {30, 4}), count("depth", "Depth of a window", 1, 6, 2),
                count("max_len", "Longest path, in edges", 1, 12, 4), count("top", "Ranked paths kept", 1, 1000, 10),
                count("max_paths", "Candidate paths kept over all windows (the best by the prior)", 1, 100000, 2000),
                count("explain_top", "Explain only the best N candidates by a cheap prior (0: all)", 0, 100000, 0),
                count("explain_budget", "Model requests the run may make: the best candidates by the prior whose paths and edges fit (0: no bound)",
                      0, 100000, 300),
                min_score(0), relation()},
               "explore.schema.json", "", run_explore});
  t.push_back({"ask", "Answer a question from the graph",
               "A grounded answer to a question about the knowledge base (\"What does MAPT interact with?\", \"Which proteins "
               "link A and B?\", \"What are the main modules?\"): the question's subgraph, the answer with citations checked "
               "against the graph's edges, and the ranked answer entities. A question the rules and data do not cover gets a "
               "status other than ok with the reason. Offline answers are extractive and say so.",
               {text("question", "The question", true), count("answers", "Answer entities returned", 1, 100, 10),
                choice("context", "What the model reads: evidence (each edge's evidence) or csv (G-Retriever's)", {"evidence", "csv"}, "evidence"),
                count("papers", "Passages of the database's stored papers in the context (0: none)", 0, 20, 0)},
               "ask.schema.json", "", run_ask});
  t.push_back({"hypothesize", "Literature hypothesis between two concepts",
               "How two concepts may be related through the literature (HGCR): ranked paths of co-occurring concepts in the "
               "database's papers, and an explanation whose sentences are checked against the knowledge base. Needs papers "
               "(a co-occurrence graph) in the database.",
               {text("source", std::string("The first concept: ") + kNodeNames, true),
                text("target", std::string("The second concept: ") + kNodeNames, true),
                count("max_len", "Edges in a path at most", 1, 6, 4), count("paths", "Ranked paths kept", 1, 100, 10),
                count("shortest_rounds", "Rounds of shortest paths, each masking the last round's intermediates (HGCR runs 2)", 0, 5, 0),
                flag("mask_direct", "Leave out the direct edge (indirect relations only)"),
                names("relation", "Relations the paths follow (default cooc.document)", false, 16)},
               "hypothesize.schema.json", "", run_hypothesize});
  t.push_back({"search_papers", "Search the stored papers",
               "Full-text search of the papers the database holds (SQLite FTS5: words are stemmed; \"a phrase\", AND, OR, NOT, "
               "prefix*): best first, each with its PubMed id, title and best passage.",
               {text("query", "The search", true), count("limit", "Papers at most", 1, 1000, 20)}, "papers.schema.json", "papers",
               run_search_papers});
  t.push_back({"bel_validate", "Check BEL statements",
               "Checks BEL 2.1 statements or a BEL script: every problem with its line and column, and every statement's "
               "canonical form (with the database's identifiers where it knows them).",
               {names("statement", "Statements to check, one per item", false, 1000),
                text("script", "A BEL script's text (SET lines, statements)", false, kMaxText),
                flag("long", "Canonical form with long function names (proteinAbundance instead of p)"),
                flag("allow_unknown_namespaces", "Unknown namespaces are warnings, not errors")},
               "bel-validate.schema.json", "", run_bel_validate});
  t.push_back({"extract_text", "BEL statements from a text",
               "Reads a text (an abstract, a paragraph): finds the genes and other entities it names, grounded in the database "
               "(the organism the text is about where the database holds it), and the BEL statements it states, each "
               "validated. Offline the statements come from rules and say so; nothing is stored.",
               {text("text", "The text (plain or Markdown)", true, kMaxText),
                count("taxon", "The text's organism (NCBI taxon; 0: what the text says)", 0, 100000000, 0),
                names("stop_word", "Words never taken for an entity", false, 100)},
               "extract.schema.json", "", run_extract_text});
  return t;
}

json output_schema(const Tool &tool) {
  const std::string_view text = schema_text(tool.schema);
  if (text.empty()) throw Error(ErrorCode::internal, "mcp: no embedded schema " + tool.schema);
  json s = json::parse(text);
  s.erase("$schema");  // (MCP's default dialect is 2020-12, the schemas' own)
  if (tool.wrap.empty()) return s;
  const std::string title = s.value("title", tool.name);
  s.erase("title");
  return {{"type", "object"},
          {"title", tool.name},
          {"description", "{\"" + tool.wrap + "\": [...]}: each item as " + title},
          {"properties", {{tool.wrap, {{"type", "array"}, {"items", s}}}}},
          {"required", {tool.wrap}}};
}

}  // namespace

const std::vector<Tool> &tools() {
  static const std::vector<Tool> all = make_tools();
  return all;
}

const Tool *find_tool(std::string_view name) {
  for (const Tool &t : tools())
    if (t.name == name) return &t;
  return nullptr;
}

json describe(const Tool &tool) {
  json props = json::object(), required = json::array();
  for (const Param &p : tool.params) {
    props[p.name] = to_schema(p);
    if (p.required) required.push_back(p.name);
  }
  json input = {{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
  if (!required.empty()) input["required"] = required;
  return {{"name", tool.name},
          {"title", tool.title},
          {"description", tool.description},
          {"inputSchema", input},
          {"outputSchema", output_schema(tool)},
          {"annotations", {{"title", tool.title}, {"readOnlyHint", true}, {"destructiveHint", false}, {"idempotentHint", true}, {"openWorldHint", false}}}};
}

std::string_view schema_text(std::string_view file) {
  if (file.find('/') != std::string_view::npos) return {};
  return html_asset("schema/" + std::string(file));
}

const std::vector<std::string> &schema_files() {
  static const std::vector<std::string> files = [] {
    std::vector<std::string> out;
    std::istringstream in{std::string(html_asset_names())};
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("schema/", 0) == 0) out.push_back(line.substr(7));
    return out;
  }();
  return files;
}

}  // namespace grappi::detail::mcp
