// grappi enrich, ppi-enrichment and cluster: what a protein set does, whether it interacts more
// than chance would have it (grappi/enrichment.hpp), and its modules (grappi/clustering.hpp).
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "common.hpp"
#include "grappi/clustering.hpp"

namespace grappi::cli {

namespace {

struct EnrichArgs {
  std::string db, file, from, background = "annotated", json, tsv;
  std::vector<std::string> proteins, categories, exclude_evidence;
  std::size_t min_size = 1, max_size = 0, top = 10;
  double fdr = 0.05;
};

std::vector<std::string> names_in_file(const std::string &path, const char *flag) {
  std::ifstream in(path);
  if (!in) throw Error(ErrorCode::io, std::string(flag) + ": cannot open '" + path + "'");
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) add_list_items(out, line.substr(0, line.find('#')));
  if (out.empty()) throw Error(ErrorCode::invalid_argument, std::string(flag) + ": '" + path + "' names no protein");
  return out;
}

// The proteins another command's JSON names (a window, paths, an answer, a subgraph): every
// "external_id", every string of "external_ids", "proteins" and "path_external_ids", and an
// answer's "value" of ids; those the database holds as proteins (no ontology term), in order, once.
void proteins_in_json(const KnowledgeGraph &g, const nlohmann::json &j, std::vector<std::string> &out) {
  const auto snapshot = g.snapshot();
  std::vector<const nlohmann::json *> todo = {&j};
  std::vector<std::string> ids;
  const auto take = [&](const nlohmann::json &v) {
    if (v.is_string()) ids.push_back(v.get<std::string>());
    else if (v.is_array())
      for (const auto &x : v) {
        if (x.is_string()) ids.push_back(x.get<std::string>());
        else if (x.is_array())
          for (const auto &y : x)
            if (y.is_string()) ids.push_back(y.get<std::string>());
      }
  };
  while (!todo.empty()) {
    const nlohmann::json &x = *todo.back();
    todo.pop_back();
    if (x.is_object()) {
      for (auto it = x.begin(); it != x.end(); ++it) {
        const std::string &k = it.key();
        if (k == "external_id" || k == "external_ids" || k == "proteins" || k == "path_external_ids" ||
            (k == "value" && it->is_array()))
          take(*it);
        else if (it->is_structured())
          todo.push_back(&*it);
      }
    } else if (x.is_array()) {
      for (const auto &y : x)
        if (y.is_structured()) todo.push_back(&y);
    }
  }
  std::vector<std::string> seen;
  for (const std::string &id : ids) {
    const auto node = g.node_by_external_id(id);
    if (!node || node->label == "OntologyTerm" || std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
    seen.push_back(id);
    out.push_back(id);
  }
}

std::string tsv_of(const nlohmann::json &j) {
  std::ostringstream out;
  out << "category\tterm\tname\tobserved\tset_size\tbackground\tuniverse\texpected\tstrength\tp_value\tfdr\tproteins\n";
  for (const auto &t : j["terms"]) {
    std::string proteins;
    for (const auto &p : t["proteins"]) proteins += (proteins.empty() ? "" : ",") + p.get<std::string>();
    out << t["category"].get<std::string>() << '\t' << t["term"].get<std::string>() << '\t' << t["name"].get<std::string>()
        << '\t' << t["observed"] << '\t' << t["set_size"] << '\t' << t["background"] << '\t' << t["universe"] << '\t'
        << dump_json(t["expected"]) << '\t' << dump_json(t["strength"]) << '\t' << dump_json(t["p_value"]) << '\t'
        << dump_json(t["fdr"]) << '\t' << proteins << '\n';
  }
  return out.str();
}

// The set's names: arguments, --file, and the proteins --from's JSON names.
std::vector<std::string> set_names(const KnowledgeGraph &g, const std::vector<std::string> &args, const std::string &file,
                                   const std::string &from, const std::string &command, bool none_means_all = false) {
  std::vector<std::string> names;
  for (const std::string &p : args) add_list_items(names, p);
  if (!file.empty()) {
    const auto more = names_in_file(file, "--file");
    names.insert(names.end(), more.begin(), more.end());
  }
  if (!from.empty()) {
    std::ifstream in(from);
    if (!in) throw Error(ErrorCode::io, "--from: cannot open '" + from + "'");
    const std::size_t before = names.size();
    try {
      proteins_in_json(g, nlohmann::json::parse(in), names);
    } catch (const nlohmann::json::parse_error &e) {
      throw Error(ErrorCode::parse, "--from: '" + from + "' is not JSON: " + e.what());
    }
    if (names.size() == before)
      throw Error(ErrorCode::invalid_argument, "--from: '" + from + "' names no protein of the database");
  }
  if (names.empty() && !none_means_all)
    throw Error(ErrorCode::invalid_argument, command + ": name proteins (arguments, --file or --from)");
  return names;
}

void run_enrich(const EnrichArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  const std::vector<std::string> names = set_names(g, a.proteins, a.file, a.from, "enrich");
  EnrichmentOptions o;
  for (const std::string &c : a.categories) add_list_items(o.categories, c);
  for (const std::string &c : a.exclude_evidence) add_list_items(o.exclude_evidence, c);
  o.min_term_size = a.min_size;
  o.max_term_size = a.max_size;
  o.max_fdr = a.fdr;
  std::vector<std::string> background;
  if (a.background == "annotated" || a.background == "network") o.background = enrichment_background(a.background);
  else background = names_in_file(a.background, "--background");
  const EnrichmentResult r = enrich_names(g, names, o, background);
  const nlohmann::json j = to_json(g, r);
  for (const auto &[name, reason] : r.unmatched) std::cerr << "grappi: enrich: '" << name << "' left out: " << reason << "\n";
  if (!a.json.empty()) write_output(a.json, dump_json(j, 2) + "\n");
  if (!a.tsv.empty()) write_output(a.tsv, tsv_of(j));
  if (a.json == "-" || a.tsv == "-") return;
  std::cout << r.proteins.size() << " proteins (" << r.unannotated.size() << " without annotation there); background: "
            << r.background << "\n";
  const auto snapshot = g.snapshot();
  for (const EnrichmentCategory &c : r.categories) {
    std::cout << "\n" << c.category << ": " << c.reported << " of " << c.tested << " terms tested at FDR <= " << fmt(a.fdr, 3)
              << " (set " << c.set_size << ", universe " << c.universe << ")\n";
    std::vector<std::vector<std::string>> rows;
    for (const EnrichedTerm &t : r.terms) {
      if (t.category != c.category || rows.size() >= a.top) continue;
      std::string proteins;
      for (int64_t p : t.proteins) {
        const auto ix = snapshot->index_of(p);
        proteins += (proteins.empty() ? "" : ",") + (ix ? snapshot->name(*ix) : std::to_string(p));
      }
      std::ostringstream fdr;
      fdr.precision(2);
      fdr << std::scientific << t.fdr;
      rows.push_back({t.term, t.name, std::to_string(t.observed) + "/" + std::to_string(t.background), fmt(t.strength, 2),
                      fdr.str(), proteins});
    }
    if (!rows.empty()) print_table({"term", "name", "observed/background", "strength", "FDR", "proteins"}, rows);
  }
}

struct PpiArgs {
  std::string db, file, from, json;
  std::vector<std::string> proteins, relations;
  double min_score = 0.4;
};

void run_ppi(const PpiArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  const std::vector<std::string> names = set_names(g, a.proteins, a.file, a.from, "ppi-enrichment");
  PpiEnrichmentOptions o;
  o.min_score = score_arg(a.min_score);
  for (const std::string &r : a.relations) add_list_items(o.relations, r);
  const PpiEnrichmentResult r = ppi_enrichment_names(g, names, o);
  for (const auto &[name, reason] : r.unmatched) std::cerr << "grappi: ppi-enrichment: '" << name << "' left out: " << reason << "\n";
  if (!a.json.empty()) write_output(a.json, dump_json(to_json(g, r), 2) + "\n");
  if (a.json == "-") return;
  std::ostringstream p;
  p.precision(2);
  p << std::scientific << r.p_value;
  std::cout << "number of nodes: " << r.nodes << "\nnumber of edges: " << r.edges << "\naverage node degree: "
            << fmt(r.average_degree, 2) << "\navg. local clustering coefficient: " << fmt(r.clustering, 3)
            << "\nexpected number of edges: " << fmt(r.expected_edges, 1) << "\nPPI enrichment p-value: " << p.str()
            << "\n(network: " << r.network_edges << " interactions among " << r.network_proteins << " proteins at score >= "
            << fmt(r.min_score, 3) << ")\n";
}

struct ClusterArgs {
  std::string db, file, from, method = "mcl", json, tsv, cx2;
  std::vector<std::string> proteins, relations, categories;
  ClusterOptions o;
  std::size_t top = 20;
};

// One row per member: cluster, level, parent, member, name.
std::string cluster_tsv(const nlohmann::json &j) {
  std::ostringstream out;
  out << "cluster\tlevel\tparent\tsize\tmember\tname\n";
  for (const auto &c : j["clusters"])
    for (std::size_t m = 0; m < c["members"].size(); ++m)
      out << c["id"] << '\t' << c["level"] << '\t' << (c["parent"].is_null() ? std::string() : c["parent"].dump()) << '\t'
          << c["size"] << '\t' << c["members"][m].get<std::string>() << '\t' << c["names"][m].get<std::string>() << '\n';
  return out.str();
}

void run_cluster(ClusterArgs a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  const std::vector<std::string> names = set_names(g, a.proteins, a.file, a.from, "cluster", true);
  a.o.method = cluster_method(a.method);
  a.o.min_score = score_arg(a.o.min_score);
  for (const std::string &r : a.relations) add_list_items(a.o.relations, r);
  for (const std::string &c : a.categories) add_list_items(a.o.categories, c);
  const ClusteringResult r = cluster_names(g, names, a.o);
  for (const auto &[name, reason] : r.unmatched) std::cerr << "grappi: cluster: '" << name << "' left out: " << reason << "\n";
  const nlohmann::json j = to_json(g, r);
  if (!a.json.empty()) write_output(a.json, dump_json(j, 2) + "\n");
  if (!a.tsv.empty()) write_output(a.tsv, cluster_tsv(j));
  if (!a.cx2.empty()) write_output(a.cx2, dump_json(to_cx2(g, r, a.o), 1) + "\n");
  if (a.json == "-" || a.tsv == "-" || a.cx2 == "-") return;
  std::size_t top_level = 0;
  for (const Cluster &c : r.clusters) top_level += c.level == 0;
  std::cout << to_string(r.method) << ": " << top_level << " clusters of " << r.nodes.size() << " proteins (" << r.edges
            << " edges at score >= " << fmt(r.min_score, 3) << "); modularity " << fmt(r.modularity, 4);
  if (r.method == ClusterMethod::mcl)
    std::cout << "; " << r.iterations << " iterations" << (r.converged ? "" : " (not settled: the last iterand read)");
  else
    std::cout << "; quality " << fmt(r.quality, 4);
  if (r.levels > 1) std::cout << "; " << r.levels << " levels (" << r.clusters.size() << " clusters in all)";
  std::cout << "\n";
  if (!r.terms_note.empty()) std::cout << "(no enriched terms: " << r.terms_note << ")\n";
  std::vector<std::vector<std::string>> rows;
  const auto snapshot = g.snapshot();
  for (const Cluster &c : r.clusters) {
    if (c.level != 0 || rows.size() >= a.top) continue;
    std::string members;
    for (std::size_t m = 0; m < c.members.size() && m < 8; ++m) {
      const auto ix = snapshot->index_of(c.members[m]);
      members += (m ? "," : "") + (ix ? snapshot->name(*ix) : std::to_string(c.members[m]));
    }
    if (c.members.size() > 8) members += ",...";
    std::string term;
    if (!c.terms.empty()) {
      std::ostringstream fdr;
      fdr.precision(1);
      fdr << std::scientific << c.terms.front().fdr;
      term = c.terms.front().name + " (" + c.terms.front().term + ", FDR " + fdr.str() + ")";
    }
    rows.push_back({std::to_string(c.id), std::to_string(c.members.size()),
                    std::to_string(c.internal_edges) + "/" + std::to_string(c.external_edges), members, term});
  }
  print_table({"cluster", "size", "edges in/out", "members (hubs first)", "top term"}, rows);
  if (top_level > rows.size()) std::cout << "(" << top_level - rows.size() << " more clusters: --top, --json or --tsv)\n";
}

}  // namespace

void add_cluster(CLI::App &app) {
  auto a = std::make_shared<ClusterArgs>();
  auto *c = app.add_subcommand("cluster", "The modules of the network or of a protein set: MCL (STRING's clustering) or Leiden (modularity or CPM; hierarchical as GraphRAG's communities), each cluster with its edges and enriched terms");
  add_db_option(c, a->db);
  c->add_option("proteins", a->proteins, "Proteins by name, alias or id (several, or comma-separated): their subnetwork; none: the whole network");
  c->add_option("--file", a->file, "A file of protein names (blanks, commas or lines between them; # comments)");
  c->add_option("--from", a->from, "Another command's JSON output (window, paths, explore, ask, retrieve, khop): the proteins it names");
  c->add_option("--method", a->method, "mcl (Markov clustering), leiden (modularity) or cpm (Leiden with the constant Potts model)")->capture_default_str();
  c->add_option("--min-score", a->o.min_score, "The network: edges of at least this score (0-1, or 0-1000 as STRING writes it)")->capture_default_str();
  c->add_option("--relation", a->relations, "The network: edges of these relations (repeatable; default: every relation that is no annotation or ontology link)");
  c->add_option("--inflation", a->o.inflation, "MCL: the inflation (above 1; larger gives smaller clusters)")->capture_default_str();
  c->add_option("--max-iterations", a->o.max_iterations, "MCL: at most this many iterations")->capture_default_str();
  c->add_option("--resolution", a->o.resolution, "Leiden: the resolution (modularity's gamma; CPM's density threshold)")->capture_default_str();
  c->add_option("--seed", a->o.seed, "Leiden: the random seed of the first run")->capture_default_str();
  c->add_option("--runs", a->o.runs, "Leiden: runs from seeds seed, seed+1, ...; the best quality kept")->capture_default_str();
  c->add_option("--max-cluster-size", a->o.max_cluster_size, "Hierarchical: cluster again each cluster of more members than this (0: flat; GraphRAG uses 10)")->capture_default_str();
  c->add_option("--max-levels", a->o.max_levels, "Hierarchical: at most this many levels below the top one")->capture_default_str();
  c->add_option("--terms", a->o.terms, "Enriched terms given per cluster (0: none computed)")->capture_default_str();
  c->add_option("--enrich-min-size", a->o.enrich_min_size, "Enriched terms for clusters of at least this many members")->capture_default_str();
  c->add_option("--category", a->categories, "Enriched terms' categories (as enrich --category; default: every category annotated)");
  c->add_option("--fdr", a->o.max_fdr, "Enriched terms: FDR at most this")->capture_default_str();
  c->add_option("--top", a->top, "Clusters printed in the table")->capture_default_str();
  c->add_option("--json", a->json, "Write the result as JSON to FILE (- for standard output)");
  c->add_option("--tsv", a->tsv, "Write one row per member (cluster, level, parent, size, member, name) to FILE (- for standard output)");
  c->add_option("--cx2", a->cx2, "Write the clustered network as CX2 (Cytoscape, NDEx: nodes coloured by cluster, cluster and term attributes) to FILE");
  c->callback([a] { run_cluster(*a); });
}

void add_ppi_enrichment(CLI::App &app) {
  auto a = std::make_shared<PpiArgs>();
  auto *c = app.add_subcommand("ppi-enrichment", "Whether a protein set interacts more among itself than proteins of the same degrees would (STRING's PPI enrichment)");
  add_db_option(c, a->db);
  c->add_option("proteins", a->proteins, "Proteins by name, alias or id (several, or comma-separated)");
  c->add_option("--file", a->file, "A file of protein names (blanks, commas or lines between them; # comments)");
  c->add_option("--from", a->from, "Another command's JSON output (window, paths, explore, ask, retrieve, khop): the proteins it names");
  c->add_option("--min-score", a->min_score, "The network: edges of at least this score (0-1, or 0-1000 as STRING writes it)")->capture_default_str();
  c->add_option("--relation", a->relations, "The network: edges of these relations (repeatable; default: every relation that is no annotation or ontology link)");
  c->add_option("--json", a->json, "Write the result as JSON to FILE (- for standard output)");
  c->callback([a] { run_ppi(*a); });
}

void add_enrich(CLI::App &app) {
  auto a = std::make_shared<EnrichArgs>();
  auto *c = app.add_subcommand("enrich", "Functional enrichment of a protein set: GO terms (Process, Function, Component) and STRING's imported categories (KEGG, Reactome, ...) by the hypergeometric test with Benjamini-Hochberg FDR, as STRING reports it");
  add_db_option(c, a->db);
  c->add_option("proteins", a->proteins, "Proteins by name, alias or id (several, or comma-separated)");
  c->add_option("--file", a->file, "A file of protein names (blanks, commas or lines between them; # comments)");
  c->add_option("--from", a->from, "Another command's JSON output (window, paths, explore, ask, retrieve, khop): the proteins it names");
  c->add_option("--category", a->categories, "Categories tested: Process, Function, Component, and STRING's imported ones (KEGG, Reactome, ...; repeatable or comma-separated; default: every category the database annotates)");
  c->add_option("--exclude-evidence", a->exclude_evidence, "Evidence codes that do not count (IEA: electronic annotations); an annotation counts when one of its codes is not excluded");
  c->add_option("--background", a->background, "annotated (the set's organism's proteins annotated in the category), network (the proteins with an edge of the network), or a FILE of protein names")->capture_default_str();
  c->add_option("--min-size", a->min_size, "Terms tested: at least this many annotated proteins in the universe")->capture_default_str();
  c->add_option("--max-size", a->max_size, "Terms tested: at most this many annotated proteins in the universe (0: no bound)")->capture_default_str();
  c->add_option("--fdr", a->fdr, "Terms reported: FDR at most this (1: every term tested)")->capture_default_str();
  c->add_option("--top", a->top, "Terms printed per category in the table")->capture_default_str();
  c->add_option("--json", a->json, "Write the result as JSON to FILE (- for standard output)");
  c->add_option("--tsv", a->tsv, "Write the terms as TSV to FILE (- for standard output)");
  c->callback([a] { run_enrich(*a); });
}

}  // namespace grappi::cli
