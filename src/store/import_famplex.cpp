// FamPlex into the knowledge base (grappi import --famplex DIR): every FamPlex entity becomes a
// node "FPLX:<id>" labelled "ProteinFamily", or "ProteinComplex" when it has parts (a `partof`
// row), named by its id, its description as the annotation, and as attributes "famplex": {kind,
// members [{ns, id, relation}], parents [{id, relation}], equivalences [{ns, id}]}. Members are
// kept as FamPlex names them (HGNC symbols, UniProt accessions, FPLX ids) and resolved by the
// name linker when it reads them, so that the proteins may be imported before or after; no
// membership is an edge (a family is no interaction partner of its members). The texts FamPlex's
// grounding map gives a family become its aliases (source "famplex:grounding_map"), and so do
// the texts it gives a single protein the database holds (by UniProt accession or HGNC id:
// "p53", "beta-catenin", "E-cadherin"; also where a non-gene grounding comes first: "cortactin");
// BEL's names of a family too ("famplex:BEL"). The texts it grounds to no gene or protein ("LPS":
// CHEBI) are kept in the dataset's options ("not_genes"): the linker never takes them for a gene's
// alias.
#include <chrono>
#include <map>
#include <set>

#include "formats/famplex.hpp"
#include "grappi/error.hpp"
#include "grappi/json_text.hpp"
#include "store/import_writer.hpp"
#include "store/importers.hpp"

namespace grappi::detail {

namespace {

// Namespaces of genes and proteins (a grounding to any other names no gene).
bool gene_namespace(const std::string &ns) { return ns == "FPLX" || ns == "UP" || ns == "HGNC" || ns == "UPPRO"; }

// The grounding a text takes: its first, unless that names no gene and a later one names a protein
// by its UniProt accession ("cortactin": an InterPro family first, then CTTN's Q14247; "thrombin").
// (A microRNA's text keeps its miRBase grounding: its HGNC id names a non-coding gene.)
const std::pair<std::string, std::string> &grounding_of(const FamplexGrounding &g) {
  if (!gene_namespace(g.ids[0].first))
    for (const auto &id : g.ids)
      if (id.first == "UP") return id;
  return g.ids[0];
}

}  // namespace

FileReport import_famplex_dir(KnowledgeGraph::Impl &impl, const std::string &dir, const ImportOptions &options) {
  const auto t0 = std::chrono::steady_clock::now();
  const FamplexData data = read_famplex(dir, options.skip_bad_lines, options.max_bad_examples, options.max_rows);
  // What each entity is: a complex when something is part of it.
  std::set<std::string> complexes;
  std::map<std::string, nlohmann::json> members, parents, equivalents;
  for (const FamplexRelation &r : data.relations) {
    if (r.parent_ns != "FPLX") continue;
    if (r.relation == "partof") complexes.insert(r.parent_id);
    members[r.parent_id].push_back({{"ns", r.ns}, {"id", r.id}, {"relation", r.relation}});
    if (r.ns == "FPLX") parents[r.id].push_back({{"id", r.parent_id}, {"relation", r.relation}});
  }
  for (const FamplexEquivalence &e : data.equivalences) equivalents[e.famplex].push_back({{"ns", e.ns}, {"id", e.id}});
  nlohmann::json not_genes = nlohmann::json::object();
  for (const FamplexGrounding &g : data.groundings)
    if (!gene_namespace(grounding_of(g).first)) not_genes[g.text] = g.ids[0].first + ":" + g.ids[0].second;
  const nlohmann::json opts = {{"format", "famplex"}, {"not_genes", not_genes}};

  ImportWriter w(impl, dir, "famplex", data.bytes, opts);
  FileReport &rep = w.report();
  rep.lines = data.rows;
  rep.rows_skipped = data.bad_rows;
  rep.bad_line_examples = data.bad_examples;
  std::map<std::string, int64_t> node_of;
  for (const std::string &id : data.entities) {
    NodeInput n;
    n.external_id = "FPLX:" + id;
    n.name = id;
    const bool complex = complexes.count(id) > 0;
    n.label = complex ? "ProteinComplex" : "ProteinFamily";
    if (const auto d = data.descriptions.find(id); d != data.descriptions.end()) n.annotation = d->second;
    nlohmann::json fam = {{"kind", complex ? "complex" : "family"}};
    if (const auto it = members.find(id); it != members.end()) fam["members"] = it->second;
    if (const auto it = parents.find(id); it != parents.end()) fam["parents"] = it->second;
    if (const auto it = equivalents.find(id); it != equivalents.end()) fam["equivalences"] = it->second;
    n.attributes = dump_json(nlohmann::json{{"famplex", fam}});
    node_of[id] = w.define_node(n, 9606);
  }
  for (const FamplexEquivalence &e : data.equivalences)
    if (e.ns == "BEL") w.add_alias(node_of.at(e.famplex), e.id, "famplex:BEL");
  uint64_t to_families = 0, to_proteins = 0, unresolved = 0, ambiguous = 0;
  for (const FamplexGrounding &g : data.groundings) {
    const auto &[ns, id] = grounding_of(g);
    if (ns == "FPLX") {
      w.add_alias(node_of.at(id), g.text, "famplex:grounding_map");
      ++to_families;
      continue;
    }
    if (ns != "UP" && ns != "HGNC") continue;
    // (a protein of the database: by its UniProt accession, or its HGNC id, among human proteins
    // when several organisms hold the accession)
    std::vector<std::pair<int64_t, int64_t>> found = w.nodes_named(ns == "UP" ? id : "HGNC:" + id);
    if (found.size() > 1) {
      std::vector<std::pair<int64_t, int64_t>> human;
      for (const auto &f : found)
        if (f.second == 9606 || f.second == 0) human.push_back(f);
      found = human;
    }
    if (found.size() == 1) {
      w.add_alias(found[0].first, g.text, "famplex:grounding_map");
      ++to_proteins;
    } else {
      ++(found.empty() ? unresolved : ambiguous);
    }
  }
  rep.details = {{"entities", data.entities.size()},
                 {"families", data.entities.size() - complexes.size()},
                 {"complexes", complexes.size()},
                 {"relations", data.relations.size()},
                 {"grounding_texts", data.groundings.size()},
                 {"texts_to_families", to_families},
                 {"texts_to_proteins", to_proteins},
                 {"texts_to_proteins_not_held", unresolved},
                 {"texts_to_proteins_ambiguous", ambiguous},
                 {"texts_to_no_gene", not_genes.size()},
                 {"equivalences", data.equivalences.size()}};
  if (options.progress) options.progress(ImportProgress{dir, data.bytes, data.bytes, "done"});
  return w.finish(data.sha256, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace grappi::detail
