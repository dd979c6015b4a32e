// BEL statements into the knowledge graph (see bel_graph.hpp).
#include "store/bel_graph.hpp"

#include <algorithm>
#include <set>

#include "formats/bel_vocabulary.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"

namespace grappi::detail {

namespace {

using bel::Fn;
using nlohmann::json;

// The namespace and value a term is about: its first entity, looking inside wrappers.
const BelTerm *principal_entity(const BelTerm &t) {
  if (t.kind == BelTerm::Kind::entity) return &t;
  if (t.kind != BelTerm::Kind::function || t.args.empty()) return nullptr;
  return principal_entity(t.args[0]);
}

// NCBI taxon of a species-specific gene namespace; 0 for the others.
int64_t namespace_taxon(const std::string &ns) {
  if (ns == "HGNC") return 9606;
  if (ns == "MGI") return 10090;
  if (ns == "RGD") return 10116;
  return 0;
}

}  // namespace

int64_t BelGraphWriter::edge(int64_t a, int64_t b, const std::string &relation, double score) {
  return w_.add_edge(a, b, "bel." + relation, !bel_relation_is_undirected(relation), score);
}

int64_t BelGraphWriter::term(const BelTerm &t) {
  const std::string canonical = to_bel(t);
  if (auto it = terms_.find(canonical); it != terms_.end()) return it->second;
  NodeInput n;
  n.external_id = canonical;
  n.name = canonical;
  n.label = "BelTerm";
  json attributes = {{"function", t.name}, {"bel", canonical}};
  if (const BelTerm *e = principal_entity(t)) {
    attributes["namespace"] = e->ns;
    attributes["value"] = e->name;
    if (!e->label.empty()) attributes["label"] = e->label;
  }
  n.attributes = dump_json(attributes);
  const int64_t node = w_.define_node(n);
  terms_.emplace(canonical, node);

  const auto known = bel::function_of(t);
  if (!known) return node;  // (a canonical term always has a known function)
  const Fn fn = *known;
  switch (fn) {
    case Fn::complex:
    case Fn::composite:
      for (const BelTerm &a : t.args)
        if (const auto f = bel::function_of(a); f && bel::is_term_function(*f)) edge(node, term(a), "hasComponent");
      break;
    case Fn::reaction:
      for (const BelTerm &side : t.args)
        for (const BelTerm &a : side.args)
          edge(node, term(a), bel::function_of(side) == Fn::reactants ? "hasReactant" : "hasProduct");
      break;
    case Fn::activity:
    case Fn::translocation:
    case Fn::secretion:
    case Fn::surface:
    case Fn::degradation:
      if (!t.args.empty()) {
        const int64_t inner = term(t.args[0]);
        edge(node, inner, "wraps");
        if (const auto p = protein(inner)) protein_of_[node] = *p;
      }
      break;
    default:
      if (bel::is_abundance(fn) && !t.args.empty() && t.args[0].kind == BelTerm::Kind::entity) {
        if (t.args.size() > 1) {
          BelTerm plain = t;
          plain.args.resize(1);
          const int64_t base = term(plain);
          edge(base, node, "hasVariant");
          if (const auto p = protein(base)) protein_of_[node] = *p;
        } else if (fn == Fn::protein || fn == Fn::gene || fn == Fn::rna) {
          represent(t, node);
        }
      }
      break;
  }
  return node;
}

namespace {

bool fn_is_protein(const BelTerm &t) { return bel::function_of(t) == Fn::protein; }

}  // namespace

// p(NS:x), g(NS:x) and r(NS:x) of a gene namespace -> the stored protein of that gene.
void BelGraphWriter::represent(const BelTerm &t, int64_t node) {
  const BelTerm &e = t.args[0];
  if (e.ns == "FPLX" || e.ns == "SFAM" || e.ns == "PFAM" || e.ns == "INTERPRO") return;
  const int64_t taxon = namespace_taxon(e.ns) ? namespace_taxon(e.ns) : opt_.taxon;
  bool ambiguous = false;
  // An HGNC id (HGNC:391 ! AKT1) joins by its CURIE only: the bare number may be another
  // gene's Entrez id. Its label is the symbol to join by name.
  const bool number = e.name.find_first_not_of("0123456789") == std::string::npos;
  std::vector<std::string> keys = {e.ns + ":" + e.name, lower_copy(e.ns) + ":" + e.name};
  if (!number) keys.push_back(e.name);
  std::optional<int64_t> protein = w_.join(keys, taxon, ambiguous);
  const std::string &name = e.label.empty() ? e.name : e.label;
  if (!protein && !ambiguous && !(number && e.label.empty())) protein = w_.join_by_name(name, taxon, ambiguous);
  if (protein && *protein != node) {
    w_.add_edge(node, *protein, "bel.represents", true, 1.0);
    if (fn_is_protein(t)) protein_of_[node] = *protein;
    ++represented_;
  } else if (ambiguous) {
    ++ambiguous_;
  } else {
    ++unjoined_;
  }
}

void BelGraphWriter::statement(const BelStatement &s, const std::string &canonical, uint64_t line,
                               const std::vector<BelOccurrence> &occurrences) {
  statements_ += occurrences.size();
  const int64_t subject = term(s.subject);
  // The complexes of stored proteins a statement names join their proteins pairwise.
  std::vector<int64_t> edges;
  // (the statement's own subject and object: a complex inside an activity or a reaction is left
  // to its term's edges)
  std::set<std::pair<int64_t, int64_t>> pairs;
  const auto complexes = [&](const BelTerm &t) {
    if (t.kind != BelTerm::Kind::function || bel::function_of(t) != Fn::complex) return;
    std::vector<int64_t> members;
    for (const BelTerm &a : t.args)
      if (const auto f = bel::function_of(a); f && bel::is_term_function(*f))
        if (const auto p = protein(term(a)); p && std::find(members.begin(), members.end(), *p) == members.end())
          members.push_back(*p);
    for (std::size_t i = 0; i < members.size(); ++i)
      for (std::size_t k = i + 1; k < members.size(); ++k)
        if (pairs.emplace(std::min(members[i], members[k]), std::max(members[i], members[k])).second) {
          edges.push_back(w_.add_edge(members[i], members[k], "bel.complex", false, 1.0));
          ++protein_edges_;
        }
  };
  complexes(s.subject);
  if (s.object) complexes(*s.object);
  if (s.relation.empty()) {
    // A statement of one term: its records on the term (what the export writes back under their
    // context), and on the edges a complex's members got.
    term_only_ += occurrences.size();
    for (const BelOccurrence &o : occurrences) {
      json context = o.context;
      context["statement"] = canonical;
      context["nested"] = false;
      const std::string record = dump_json(context);
      w_.add_node_evidence(subject, line, record, o.raw);
      ++term_records_;
      for (int64_t e : edges) w_.add_evidence(e, line, record, o.raw);
      records_ += edges.size();
    }
    return;
  }
  // The statement's edges, found once; then every occurrence's record on each of them.
  if (s.nested) {
    // A increases (B decreases C): the edge A -> B with the outer relation and the edge B -> C,
    // both carrying the whole statement (as pybel stores nested statements).
    nested_ += occurrences.size();
    const int64_t inner_subject = term(s.nested->subject);
    edges.push_back(edge(subject, inner_subject, s.relation));
    if (s.nested->object) edges.push_back(edge(inner_subject, term(*s.nested->object), s.nested->relation));
  } else if (!s.object) {
    return;
  } else if ((s.relation == "hasMembers" || s.relation == "hasComponents") && bel::function_of(*s.object) == Fn::list) {
    const std::string one = s.relation == "hasMembers" ? "hasMember" : "hasComponent";
    for (const BelTerm &m : s.object->args) edges.push_back(edge(subject, term(m), one));
  } else {
    const int64_t object = term(*s.object);
    edges.push_back(edge(subject, object, s.relation));
    // (between the proteins the two terms are about, when each is about one)
    const auto a = protein(subject), b = protein(object);
    if (a && b && *a != *b) {
      edges.push_back(edge(*a, *b, s.relation));
      ++protein_edges_;
    }
  }
  for (const BelOccurrence &o : occurrences) {
    json context = o.context;
    context["statement"] = canonical;
    context["nested"] = s.nested != nullptr;
    const std::string record = dump_json(context);
    for (int64_t e : edges) w_.add_evidence(e, line, record, o.raw);
    records_ += edges.size();
  }
}

std::vector<std::pair<std::string, uint64_t>> BelGraphWriter::details() const {
  return {{"statements", statements_},         {"term_statements", term_only_},
          {"nested_statements", nested_},      {"terms", terms_.size()},
          {"evidence_records", records_},      {"term_records", term_records_},
          {"terms_representing_proteins", represented_},
          {"gene_terms_unjoined", unjoined_},  {"ambiguous_joins", ambiguous_},
          {"protein_edges", protein_edges_}};
}

std::optional<int64_t> pubmed_id(std::string_view type, std::string_view id) {
  if (!iequals(type, "PubMed") || id.empty() || id.size() > 18 || id.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  return std::stoll(std::string(id));
}

std::string bel_first_error(const BelResult &r) {
  for (const BelProblem &p : r.problems)
    if (p.severity == BelProblem::Severity::error) return p.message + " (at character " + std::to_string(p.offset + 1) + ")";
  return "not a BEL statement";
}

json bel_context(const BelScriptStatement &s) {
  json c = json::object();
  json pmids = json::array();
  // BEL asks every statement for a citation: grappi's export gives one read without any the
  // citation id kUncitedId (and evidence kUncitedEvidence), which reads back as none.
  const bool uncited = s.citation && s.citation->id == kUncitedId;
  if (s.citation && !uncited) {
    c["citation"] = {{"type", s.citation->type}, {"id", s.citation->id}};
    if (!s.citation->name.empty()) c["citation"]["name"] = s.citation->name;
    if (!s.citation->date.empty()) c["citation"]["date"] = s.citation->date;
    if (!s.citation->authors.empty()) c["citation"]["authors"] = s.citation->authors;
    if (const auto pmid = pubmed_id(s.citation->type, s.citation->id)) pmids.push_back(*pmid);
  }
  c["pmids"] = std::move(pmids);
  if (!s.evidence.empty() && !(uncited && s.evidence == kUncitedEvidence)) c["evidence"] = s.evidence;
  if (!s.statement_group.empty()) c["statement_group"] = s.statement_group;
  json annotations = json::object();
  for (const auto &[k, v] : s.annotations) annotations[k] = v;
  c["annotations"] = std::move(annotations);
  return c;
}

}  // namespace grappi::detail
