// CX2 and CX1 networks (format "cx2") into the knowledge graph. Three layouts:
// - grappi's own export (network attribute "generator" starting with "grappi"): nodes by their
//   external id ("represents"), label ("type"), attributes, aliases; edges with their relation
//   ("interaction"), score, direction, channels, evidence and evidence records, as written;
// - textToKnowledgeGraph's BEL layout (edges with "bel_expression"): node names are BEL terms,
//   edges BEL statements with their evidence sentence and their terms' groundings, stored
//   through the BEL graph writer;
// - any other network (NDEx, Cytoscape, CX1 such as galFiltered): a node joins a stored node
//   through its "represents", its "alias" list or its name (as MITAB interactors do), else
//   becomes a node of its "type" (default "Node") with its attributes and layout position;
//   edges become "cx2.<interaction>" relations, undirected unless "directed" says otherwise,
//   scored by "score" when it lies in [0,1], with PubMed ids from "pmids"/"citation"-like
//   attributes and one evidence record per CX edge holding its attributes and raw text.
// A node or edge that cannot be used is a bad line (numbered within its aspect).
#include <chrono>
#include <regex>
#include <unordered_map>

#include "common/answer_json.hpp"
#include "store/bel_graph.hpp"
#include "store/bel_resolver.hpp"
#include "formats/cx2.hpp"
#include "grappi/error.hpp"
#include "store/import_writer.hpp"
#include "store/importers.hpp"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"
#include "common/json_input.hpp"

namespace grappi::detail {

namespace {

using nlohmann::json;

// The file name without directories and extensions: the namespace of ids made for nodes that
// have neither a usable "represents" nor a unique name.
std::string stem_of(const std::string &path) {
  std::string b = path.substr(path.find_last_of("/\\") == std::string::npos ? 0 : path.find_last_of("/\\") + 1);
  const std::size_t dot = b.find('.');
  return dot == std::string::npos || dot == 0 ? b : b.substr(0, dot);
}

// A relation name from an interaction text: blanks become '_' ("interacts with" ->
// "cx2.interacts_with"); no interaction: "cx2.edge".
std::string relation_of(const std::string &interaction) {
  std::string r;
  for (char c : trim_copy(interaction)) r += (c == ' ' || c == '\t' || c == '\n' || c == '\r') ? '_' : c;
  return "cx2." + (r.empty() ? std::string("edge") : r);
}

// The identifiers a generic node may be stored under, most trusted first: the CURIE as written,
// its usual spelling (HGNC:…, CHEBI:…, GO:…), and for UniProt, Ensembl, STRING and RefSeq
// prefixes the bare accession (STRING's aliases hold those without a prefix).
void add_keys(std::vector<std::string> &keys, const std::string &id) {
  if (id.empty()) return;
  keys.push_back(id);
  const std::size_t colon = id.rfind(':');
  if (colon == std::string::npos || colon + 1 == id.size()) return;
  const std::string prefix = lower_copy(id.substr(0, colon)), local = id.substr(colon + 1);
  if (prefix == "hgnc" || prefix == "chebi" || prefix == "go" || prefix == "mi" || prefix == "psi-mi")
    keys.push_back((prefix == "psi-mi" ? std::string("MI") : upper_copy(prefix)) + ":" + local);
  else if (prefix == "uniprot" || prefix == "uniprotkb" || prefix == "uniprot knowledgebase" || prefix == "ensembl" ||
           prefix == "string" || prefix == "refseq")
    keys.push_back(local);
}

// PubMed ids in an attribute value: 123, "123", "pubmed:123", "PMID:123", "PMID: 123", or a list.
void collect_pmids(const json &v, json &out) {
  if (v.is_array()) {
    for (const auto &x : v) collect_pmids(x, out);
    return;
  }
  std::string s;
  if (v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() > 0)) s = std::to_string(v.get<int64_t>());
  else if (v.is_string()) s = trim_copy(v.get<std::string>());
  else return;
  const std::string l = lower_copy(s);
  for (const char *p : {"pubmed:", "pmid:"})
    if (l.rfind(p, 0) == 0) s = trim_copy(s.substr(std::string(p).size()));
  if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos) return;
  const json id = std::stoll(s);
  for (const auto &x : out)
    if (x == id) return;
  out.push_back(id);
}

bool names_pmids(const std::string &attribute) {
  const std::string a = lower_copy(attribute);
  return a == "pmids" || a == "pmid" || a == "pubmed" || a == "citation" || a == "citations" || a == "pubmed_ids";
}

// The paper a textToKnowledgeGraph network was extracted from: a PMID in its "reference" (a
// PubMed link or "PMID: n") or name ("Kohn et al.: pmid10436023"), and a DOI in its reference.
json network_citation(const json &attrs) {
  const std::string reference = json_string(attrs, "reference"), name = json_string(attrs, "name");
  static const std::regex pmid_re(R"((?:pmid:?\s*|pubmed\.ncbi\.nlm\.nih\.gov/)(\d{1,12}))", std::regex::icase);
  static const std::regex doi_re(R"(doi\.org/(10\.[^\s"<>]+))", std::regex::icase);
  json c = json::object();
  std::smatch m;
  if (std::regex_search(reference, m, pmid_re) || std::regex_search(name, m, pmid_re))
    c["pmid"] = std::stoll(m[1].str());
  if (std::regex_search(reference, m, doi_re)) c["doi"] = m[1].str();
  return c;
}

class Cx2Importer {
 public:
  Cx2Importer(ImportWriter &w, const CxNetwork &net, const std::string &path, const ImportOptions &options)
      : w_(w), net_(net), opt_(options), stem_(stem_of(path)) {}

  void generic(bool by_grappi) {
    std::unordered_map<std::string, int> represents_count, name_count;
    for (const auto &n : net_.nodes) {
      ++represents_count[json_string(n.values, "represents")];
      ++name_count[json_string(n.values, "name")];
    }
    for (const auto &n : net_.nodes) {
      ++w_.report().lines;
      if (!n.problem.empty()) {
        w_.bad_line(n.index + 1, n.problem, opt_);
        continue;
      }
      const std::string represents = json_string(n.values, "represents"), name = json_string(n.values, "name");
      const json aliases = n.values.contains("alias") && n.values["alias"].is_array() ? n.values["alias"] : json::array();
      std::optional<int64_t> joined;
      if (!by_grappi) {
        std::vector<std::string> keys;
        add_keys(keys, represents);
        for (const auto &a : aliases)
          if (a.is_string()) add_keys(keys, a.get<std::string>());
        keys.push_back(name);
        bool ambiguous = false;
        joined = w_.join(keys, opt_.taxon, ambiguous);
        if (!joined && !ambiguous) joined = w_.join_by_name(name, opt_.taxon, ambiguous);
        ambiguous_ += ambiguous ? 1 : 0;
      }
      int64_t id;
      if (joined) {
        id = *joined;
        ++joined_;
        if (!represents.empty()) w_.add_alias(id, represents, "cx2");
      } else {
        NodeInput in;
        if (by_grappi || (!represents.empty() && represents_count[represents] == 1)) in.external_id = represents;
        else if (represents.empty() && !name.empty() && name_count[name] == 1) in.external_id = name;
        if (in.external_id.empty()) in.external_id = "cx2:" + stem_ + ":" + std::to_string(n.id);
        in.name = name;
        const std::string type = json_string(n.values, "type");
        in.label = type.empty() ? "Node" : type;
        in.annotation = json_string(n.values, "annotation");
        if (n.values.contains("size") && n.values["size"].is_number_integer()) in.size = n.values["size"].get<int64_t>();
        json attrs;
        if (by_grappi && n.values.contains("grappi_attributes")) {
          attrs = parse_json_or_discarded(json_string(n.values, "grappi_attributes"));
          if (!attrs.is_object()) {
            w_.bad_line(n.index + 1, "node " + std::to_string(n.index + 1) + ": grappi_attributes is not a JSON object", opt_);
            continue;
          }
        } else {
          attrs = json::object();
          for (const auto &[key, value] : n.values.items())
            if (key != "name" && key != "represents" && key != "type" && key != "alias" && key != "alias_source" &&
                key != "annotation" && key != "taxon" && key != "size" && key != "grappi_attributes")
              attrs[key] = value;
          if (n.x && n.y) attrs["cx2_position"] = n.z ? json::array({*n.x, *n.y, *n.z}) : json::array({*n.x, *n.y});
        }
        in.attributes = dump_json(attrs);
        const int64_t taxon =
            n.values.contains("taxon") && n.values["taxon"].is_number_integer() ? n.values["taxon"].get<int64_t>() : 0;
        id = w_.define_node(in, taxon);
        ++created_;
        if (!by_grappi && !represents.empty() && in.external_id != represents) w_.add_alias(id, represents, "cx2");
      }
      // Aliases, with their sources when the file lists them (grappi's export does).
      const json sources =
          n.values.contains("alias_source") && n.values["alias_source"].is_array() ? n.values["alias_source"] : json::array();
      for (std::size_t k = 0; k < aliases.size(); ++k)
        if (aliases[k].is_string())
          w_.add_alias(id, aliases[k].get<std::string>(),
                       k < sources.size() && sources[k].is_string() ? sources[k].get<std::string>() : "cx2");
      node_of_.emplace(n.id, id);
    }
    for (const auto &e : net_.edges) {
      ++w_.report().lines;
      if (!usable(e)) continue;
      const std::string interaction = json_string(e.values, "interaction");
      if (by_grappi && interaction.empty()) {
        w_.bad_line(e.index + 1, "edge " + std::to_string(e.index + 1) + ": no interaction (its relation)", opt_);
        continue;
      }
      const bool directed = e.values.contains("directed") && e.values["directed"].is_boolean() &&
                            e.values["directed"].get<bool>();
      double score = 1.0;
      if (e.values.contains("score") && e.values["score"].is_number()) {
        const double s = e.values["score"].get<double>();
        if (s >= 0 && s <= 1) score = s;
        else if (by_grappi) {
          w_.bad_line(e.index + 1, "edge " + std::to_string(e.index + 1) + ": score outside [0,1]", opt_);
          continue;
        }
      }
      std::string evidence, channels;
      json records = json::array();
      if (by_grappi) {
        if (e.values.contains("grappi_evidence")) evidence = json_string(e.values, "grappi_evidence");
        json ch = json::object();
        for (const auto &[key, value] : e.values.items())
          if (key.rfind("channel_", 0) == 0 && value.is_number()) ch[key.substr(8)] = value;
        if (!ch.empty()) channels = dump_json(ch);
        if (e.values.contains("grappi_records")) records = parse_json_or_discarded(json_string(e.values, "grappi_records"));
        if ((!evidence.empty() && !json::accept(evidence)) || !records.is_array()) {
          w_.bad_line(e.index + 1, "edge " + std::to_string(e.index + 1) + ": grappi_evidence or grappi_records is not valid JSON", opt_);
          continue;
        }
      } else {
        json pmids = json::array();
        for (const auto &[key, value] : e.values.items())
          if (names_pmids(key)) collect_pmids(value, pmids);
        if (!pmids.empty()) evidence = dump_json(json{{"pmids", pmids}});
        records.push_back({{"line", e.index + 1},
                           {"record", {{"cx_id", e.id}, {"values", e.values}}},
                           {"raw", e.raw}});
      }
      const int64_t edge = w_.add_edge(node_of_.at(e.source), node_of_.at(e.target),
                                       by_grappi ? interaction : relation_of(interaction), directed, score, evidence,
                                       channels);
      for (const auto &r : records) {
        if (!r.is_object() || !r.contains("record")) continue;
        const json &rec = r["record"];
        w_.add_evidence(edge, r.contains("line") && r["line"].is_number_unsigned() ? r["line"].get<uint64_t>() : e.index + 1,
                        rec.is_string() ? rec.get<std::string>() : dump_json(rec), r.contains("raw") && r["raw"].is_string()
                                                                                  ? r["raw"].get<std::string>()
                                                                                  : e.raw);
      }
    }
  }

  // Terms are resolved to the identifiers the database knows (see import_bel_file).
  void bel(BelEntityResolver resolver) {
    BelOptions bel_options;
    bel_options.resolver = std::move(resolver);
    const BelValidator validator(std::move(bel_options));
    BelGraphWriter g(w_, opt_);
    const json paper = network_citation(net_.network_attributes);
    std::unordered_map<int64_t, std::string> term_of;       // CX node id -> canonical term
    std::unordered_map<int64_t, std::string> grounding_of;  // CX node id -> its grounding
    for (const auto &n : net_.nodes) {
      ++w_.report().lines;
      if (!n.problem.empty()) {
        w_.bad_line(n.index + 1, n.problem, opt_);
        continue;
      }
      const std::string name = json_string(n.values, "name");
      const std::string where = "node " + std::to_string(n.index + 1) + " (id " + std::to_string(n.id) + ") '" + name + "'";
      const BelResult r = validator.check(name);
      if (!r.valid() || !r.statement->relation.empty()) {
        w_.bad_line(n.index + 1, where + ": " + (r.valid() ? std::string("a statement, not a term") : bel_first_error(r)),
                    opt_);
        continue;
      }
      const int64_t id = g.term(r.statement->subject);
      node_of_.emplace(n.id, id);
      term_of.emplace(n.id, r.canonical);
      // The grounding textToKnowledgeGraph gives a term (https://identifiers.org/HGNC:14929)
      // names its entity, which several terms share (p(), g(), act(p())): it goes into the
      // records of the term's statements, not into an alias that would make the id ambiguous.
      std::string grounding = json_string(n.values, "id");
      if (const std::size_t at = grounding.find("identifiers.org/"); at != std::string::npos)
        grounding = grounding.substr(at + 16);
      if (!grounding.empty()) {
        grounding_of.emplace(n.id, grounding);
        ++groundings_;
      }
    }
    for (const auto &e : net_.edges) {
      ++w_.report().lines;
      if (!e.problem.empty()) {
        w_.bad_line(e.index + 1, e.problem, opt_);
        continue;
      }
      std::string text = json_string(e.values, "bel_expression");
      if (text.empty()) {
        // No expression: the statement its endpoints' terms and its interaction make.
        const auto s = term_of.find(e.source), t = term_of.find(e.target);
        if (s != term_of.end() && t != term_of.end())
          text = s->second + " " + json_string(e.values, "interaction") + " " + t->second;
      }
      const BelResult r = validator.check(text);
      if (!r.valid()) {
        w_.bad_line(e.index + 1, "edge " + std::to_string(e.index + 1) + " '" + text + "': " + bel_first_error(r), opt_);
        continue;
      }
      const auto s = term_of.find(e.source);
      if (s != term_of.end() && s->second != to_bel(r.statement->subject)) ++endpoint_mismatches_;
      BelOccurrence o;
      o.context = {{"pmids", json::array()}};
      if (paper.contains("pmid")) {
        o.context["citation"] = {{"type", "PubMed"}, {"id", std::to_string(paper["pmid"].get<int64_t>())}};
        o.context["pmids"].push_back(paper["pmid"]);
      } else if (paper.contains("doi")) {
        o.context["citation"] = {{"type", "DOI"}, {"id", paper["doi"]}};
      }
      if (paper.contains("doi")) o.context["doi"] = paper["doi"];
      if (const std::string ev = json_string(e.values, "evidence"); !ev.empty()) o.context["evidence"] = ev;
      if (const std::string passage = json_string(e.values, "text"); !passage.empty()) o.context["text"] = passage;
      for (int64_t end : {e.source, e.target})
        if (const auto gr = grounding_of.find(end); gr != grounding_of.end())
          o.context["groundings"][term_of.at(end)] = gr->second;
      o.raw = e.raw;
      g.statement(*r.statement, r.canonical, e.index + 1, {std::move(o)});
    }
    bel_details_ = g.details();
  }

  std::vector<std::pair<std::string, uint64_t>> details() const {
    std::vector<std::pair<std::string, uint64_t>> d = bel_details_;
    d.emplace_back("cx_nodes", net_.nodes.size());
    d.emplace_back("cx_edges", net_.edges.size());
    if (bel_details_.empty()) {
      d.emplace_back("nodes_joined", joined_);
      d.emplace_back("nodes_made", created_);
      d.emplace_back("ambiguous_joins", ambiguous_);
    } else {
      d.emplace_back("endpoint_mismatches", endpoint_mismatches_);
      d.emplace_back("groundings", groundings_);
    }
    d.emplace_back("network_attributes", net_.network_attributes.size());
    uint64_t other = 0;
    for (const auto &a : net_.other_aspects) other += a.second;
    d.emplace_back("other_aspect_elements", other);
    return d;
  }

 private:
  // An edge whose element and endpoints could be read; otherwise a bad line.
  bool usable(const CxElement &e) {
    if (!e.problem.empty()) {
      w_.bad_line(e.index + 1, e.problem, opt_);
      return false;
    }
    for (int64_t end : {e.source, e.target})
      if (!node_of_.count(end)) {
        w_.bad_line(e.index + 1, "edge " + std::to_string(e.index + 1) + ": its node " + std::to_string(end) + " was not imported", opt_);
        return false;
      }
    return true;
  }

  ImportWriter &w_;
  const CxNetwork &net_;
  const ImportOptions &opt_;
  std::string stem_;
  std::unordered_map<int64_t, int64_t> node_of_;  // CX node id -> graph node
  std::vector<std::pair<std::string, uint64_t>> bel_details_;
  uint64_t joined_ = 0, created_ = 0, ambiguous_ = 0, endpoint_mismatches_ = 0, groundings_ = 0;
};

}  // namespace

FileReport import_cx2_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options) {
  const auto t0 = std::chrono::steady_clock::now();
  WholeFile file = read_whole_file(path);
  CxNetwork net;
  {
    json doc;
    check_json_depth(file.text, path);
    try {
      doc = json::parse(file.text);
    } catch (const json::exception &e) {  // parse errors and numbers out of range (406)
      throw Error(ErrorCode::parse, path + ": not valid JSON (" + std::string(e.what()) + ")");
    }
    net = read_cx(doc, path);
  }
  check_elements(path, net.nodes.size() + net.edges.size(), options.max_rows);
  const bool by_grappi = json_string(net.network_attributes, "generator").rfind("grappi", 0) == 0;
  bool bel_layout = false;
  for (const auto &e : net.edges)
    if (!by_grappi && e.values.contains("bel_expression")) bel_layout = true;
  const char *layout = by_grappi ? "grappi" : bel_layout ? "bel" : "generic";
  ImportWriter w(impl, path, "cx2", file.size,
                 json{{"format", "cx2"},
                      {"cx_version", net.version},
                      {"layout", layout},
                      {"network", net.network_attributes},
                      {"skip_bad_lines", options.skip_bad_lines}});
  for (const CxProblem &p : net.problems) w.bad_line(p.number, p.what + ": " + p.message, options);
  Cx2Importer importer(w, net, path, options);
  if (bel_layout) importer.bel(bel_resolver(impl.db));
  else importer.generic(by_grappi);
  w.report().details = importer.details();
  return w.finish(file.sha256, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace grappi::detail
