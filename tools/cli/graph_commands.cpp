// grappi import, info, resolve, remove-dataset, neighbors: the database, its contents and its names.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct ImportArgs {
  std::string db;
  std::vector<std::string> links, detailed, physical, info, aliases, actions, web_export, obo, mitab, mapping, annotations, famplex, edges, bel, cx2,
      detect, corpus;
  std::string corpus_format = "detect";
  EdgeListOptions edge_list;
  std::string separator;
  int64_t taxon = 0;
  bool header_yes = false, header_no = false;
  int min_score = 0;
  bool skip_bad_lines = false, json = false;
  uint64_t max_rows = 0;
};

void run_import(const ImportArgs &a) {
  std::vector<SourceFile> sources;
  const auto add = [&](const std::vector<std::string> &files, const char *format) {
    for (const auto &p : files) sources.push_back({p, format});
  };
  add(a.info, "info");
  add(a.aliases, "aliases");
  add(a.links, "links");
  add(a.detailed, "detailed");
  add(a.physical, "physical");
  add(a.actions, "actions");
  add(a.web_export, "web_export");
  add(a.obo, "obo");
  add(a.mitab, "mitab");
  add(a.bel, "bel");
  add(a.cx2, "cx2");
  add(a.mapping, "mapping");
  add(a.annotations, "annotations");
  add(a.famplex, "famplex");
  add(a.edges, "edges");
  add(a.detect, "detect");
  const std::string corpus = a.corpus_format == "detect" ? "corpus" : "corpus:" + a.corpus_format;
  add(a.corpus, corpus.c_str());
  if (sources.empty()) throw Error(ErrorCode::invalid_argument, "import: name at least one file");
  NewDatabase created(a.db);  // (removed again when the import fails)
  KnowledgeGraph g = open_graph(a.db, Access::create, 256);
  ImportOptions opt;
  opt.min_score = a.min_score;
  opt.skip_bad_lines = a.skip_bad_lines;
  opt.max_rows = a.max_rows;
  opt.taxon = a.taxon;
  opt.edges = a.edge_list;
  if (a.header_yes || a.header_no) opt.edges.header = a.header_yes;
  if (a.separator == "tab" || a.separator == "\\t") opt.edges.separator = '\t';
  else if (a.separator == "comma" || a.separator == ",") opt.edges.separator = ',';
  else if (a.separator == "space" || a.separator == " ") opt.edges.separator = ' ';
  else if (!a.separator.empty() && a.separator != "detect")
    throw Error(ErrorCode::invalid_argument, "--separator must be tab, comma, space or detect, not '" + a.separator + "'");
  ProgressBar bar;
  opt.progress = [&bar](const ImportProgress &p) {
    bar(p.stage, p.stage == "done" ? 1 : p.bytes_read, p.stage == "done" ? 1 : p.bytes_total, p.path);
  };
  const ImportReport rep = g.import(sources, opt);
  created.keep();
  if (a.json) {
    std::cout << dump_json(to_json(rep), 2) << '\n';
    return;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto &f : rep.files)
    rows.push_back({f.path, f.kind, f.already_imported ? "already imported" : "imported", std::to_string(f.lines),
                    std::to_string(f.nodes_created), std::to_string(f.edges_created), std::to_string(f.aliases_created),
                    std::to_string(f.rows_below_min_score), std::to_string(f.rows_skipped), fmt(f.seconds, 2)});
  print_table({"file", "format", "status", "lines", "nodes+", "edges+", "aliases+", "below-min", "skipped", "s"}, rows);
  for (const auto &f : rep.files)
    if (f.referenced_nodes_created)
      std::cerr << f.path << ": " << f.referenced_nodes_created
                << " referenced identifier(s) the file does not define and the database did not have became new nodes\n";
  for (const auto &f : rep.files)
    for (const auto &[k, v] : f.details) {
      if (k == "interactors_created" && v)
        std::cerr << f.path << ": " << v
                  << " interactor(s) matched no stored protein by any of their ids and became new nodes\n";
      if ((k == "rows_unmatched" || k == "rows_ambiguous") && v)
        std::cerr << f.path << ": " << v << " row(s) "
                  << (k == "rows_unmatched" ? "named no stored node" : "named several nodes") << " and added nothing\n";
      if (k == "go_annotations_without_term" && v)
        std::cerr << f.path << ": " << v
                  << " GO annotation(s) name terms the database does not hold and were not stored (import the GO "
                     "ontology first)\n";
      if (k == "ids_ambiguous" && v)
        std::cerr << f.path << ": " << v << " id(s) named several nodes and became nodes of their own\n";
    }
  for (const auto &f : rep.files)
    if (f.rows_skipped) {
      std::cerr << f.path << ": skipped " << f.rows_skipped << " bad line(s), for example:\n";
      for (const auto &e : f.bad_line_examples) std::cerr << "  " << e << '\n';
    }
}

}  // namespace

void add_import(CLI::App &app) {
  auto a = std::make_shared<ImportArgs>();
  auto *c = app.add_subcommand("import", "Import STRING files, OBO ontologies, identifier mappings, STRING functional annotations, FamPlex, PSI-MITAB interactions, BEL, CX2 networks and edge lists (in that order; one transaction)");
  add_db_option(c, a->db, true);
  c->add_option("--links", a->links, "protein.links file(s)");
  c->add_option("--detailed", a->detailed, "protein.links.detailed file(s)");
  c->add_option("--physical", a->physical, "protein.physical.links (or .detailed) file(s)");
  c->add_option("--info", a->info, "protein.info file(s)");
  c->add_option("--aliases", a->aliases, "protein.aliases file(s)");
  c->add_option("--actions", a->actions, "protein.actions file(s)");
  c->add_option("--export", a->web_export, "STRING website export string_interactions.tsv file(s)");
  c->add_option("--obo", a->obo, "OBO 1.2/1.4 ontology file(s) (PSI-MI, GO, ...)");
  c->add_option("--mitab", a->mitab, "PSI-MITAB 2.5/2.6/2.7 interaction file(s) (IntAct, MINT, BioGRID, DIP)");
  c->add_option("--bel", a->bel, "BEL script(s) or BEL JSON graph(s) (CBN): statements as bel.* edges between BEL terms");
  c->add_option("--cx2", a->cx2,
                 "CX2 or CX1 network(s) (Cytoscape, NDEx): nodes joined to stored proteins, edges as cx2.<interaction>; "
                 "textToKnowledgeGraph's BEL networks as BEL; grappi's own CX2 export back into the same graph");
  c->add_option("--mapping", a->mapping,
                 "Identifier mapping table(s): TSV whose header names entrez_gene_id, symbol, ensembl_gene_ids, "
                 "ensembl_protein_ids, uniprot_accessions, hgnc_id or string_id columns");
  c->add_option("--annotations", a->annotations,
                 "STRING's functional annotations: a network export's string_functional_annotations.tsv or the "
                 "genome-wide <taxon>.protein.enrichment.terms file (GO, KEGG, Reactome, ...: for grappi enrich)");
  c->add_option("--famplex", a->famplex,
                 "FamPlex's tables (a directory: entities.csv, relations.csv, grounding_map.csv, equivalences.csv, "
                 "descriptions.csv): protein families and complexes with their members, and the names papers write for "
                 "them and for single proteins (after --mapping: those join proteins by UniProt accession)");
  c->add_option("--edges", a->edges, "Edge list file(s): two id columns, optional score and relation columns");
  c->add_option("--corpus", a->corpus,
                "Papers (PubTator, BioC XML/JSON, PPI-corpus XML, JSON lines, text): stored with their passages and "
                "annotations and searchable (grappi papers); one dataset per file");
  c->add_option("--corpus-format", a->corpus_format, "The papers' format (default: detected)")
      ->check(CLI::IsMember({"detect", "text", "pubtator", "bioc-xml", "bioc-json", "ppi-xml", "jsonl"}));
  c->add_option("--source-column", a->edge_list.source_column, "Edge lists: the first id's column (header name or 1-based number)")
      ->capture_default_str();
  c->add_option("--target-column", a->edge_list.target_column, "Edge lists: the second id's column")->capture_default_str();
  c->add_option("--score-column", a->edge_list.score_column, "Edge lists: the score column (none: every edge scores 1)");
  c->add_option("--score-scale", a->edge_list.score_scale, "Edge lists: divide scores by this (1000 for STRING's scale)")
      ->capture_default_str();
  c->add_option("--relation-column", a->edge_list.relation_column, "Edge lists: a column naming each edge's relation");
  c->add_option("--relation", a->edge_list.relation, "Edge lists: the relation of every edge (default edges.<file name>)");
  c->add_flag("--directed", a->edge_list.directed, "Edge lists: source -> target edges");
  auto *yes = c->add_flag("--header", a->header_yes, "Edge lists: the first line is a header (detected when neither this nor --no-header is given)");
  c->add_flag("--no-header", a->header_no, "Edge lists: the first line is an edge")->excludes(yes);
  c->add_option("--label", a->edge_list.label, "Edge lists: the label of nodes made for ids that join nothing")
      ->capture_default_str();
  c->add_option("--separator", a->separator, "Edge lists: tab, comma, space (any blanks) or detect")->capture_default_str();
  c->add_option("--taxon", a->taxon, "Mapping tables and edge lists join only nodes of this NCBI taxon (0: any)");
  c->add_option("files", a->detect, "Files whose format is detected from the header (STRING files, OBO, MITAB, BEL, JSON graphs, CX2, grappi jsonl); "
                "give them before the options: a list option such as --bel takes the files after it");
  c->add_option("--min-score", a->min_score, "Keep links with combined score >= N (0-1000; 150 low, 400 medium, 700 high, 900 highest)")
      ->check(CLI::Range(0, 1000));
  c->add_flag("--skip-bad-lines", a->skip_bad_lines, "Import the good lines and report the bad ones instead of failing");
  c->add_option("--max-rows", a->max_rows,
                "Refuse a line-based file or BEL script of more than N lines, or a CX2 network or BEL JSON graph of more "
                "than N nodes and edges, leaving the database unchanged (0: no limit)");
  c->add_flag("--json", a->json, "Print the import report as JSON");
  c->callback([a] { run_import(*a); });
}

namespace {

struct InfoArgs {
  std::string db;
  bool json = false;
};

void run_info(const InfoArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  const GraphStats s = g.stats();
  if (a.json) {
    std::cout << dump_json(to_json(s), 2) << '\n';
    return;
  }
  std::cout << "database: " << a.db << " (schema " << s.schema_version << ")\n"
            << "nodes:    " << s.nodes << "\nedges:    " << s.edges << "\naliases:  " << s.aliases << "\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto &r : s.edges_by_relation) rows.push_back({r.first, std::to_string(r.second)});
  if (!rows.empty()) {
    print_table({"relation", "edges"}, rows);
    std::cout << '\n';
  }
  rows.clear();
  for (const auto &d : s.datasets) {
    const auto counts = nlohmann::json::parse(d.counts, nullptr, false);
    const int64_t lines = counts.is_object() ? counts.value("lines", int64_t{0}) : 0;
    std::string source = d.source;
    if (source.size() > 48) {
      std::size_t cut = 45;
      while (cut > 0 && (static_cast<unsigned char>(source[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
      source = source.substr(0, cut) + "...";
    }
    rows.push_back({std::to_string(d.id), d.name, d.format, source, std::to_string(lines), std::to_string(d.nodes),
                    std::to_string(d.edges), std::to_string(d.records), std::to_string(d.aliases), d.sha256.substr(0, 12),
                    d.imported_at});
  }
  if (!rows.empty())
    print_table({"dataset", "file", "format", "source", "lines", "nodes", "edges", "records", "aliases", "sha256", "imported"},
                rows);
}

struct ResolveArgs {
  std::string db, name;
  bool json = false;
};

void run_resolve(const ResolveArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  const ResolveResult r = g.lookup(a.name);
  if (a.json) {
    std::cout << dump_json(to_json(r), 2) << '\n';
    if (r.status != ResolveResult::Status::found) throw ExitStatus{kExitUsage};
    return;
  }
  if (r.status != ResolveResult::Status::found) (void)g.resolve(a.name);  // throws the not-found / ambiguous message
  const auto n = g.node(r.id);
  std::cout << n->name << "\t" << n->external_id << "\t(id " << n->id << ", matched by " << r.candidates[0].matched_by << ")\n";
  if (!n->annotation.empty()) std::cout << n->annotation << '\n';
}

struct RemoveArgs {
  std::string db;
  int64_t dataset = 0;
};

void run_remove(const RemoveArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::write);
  g.remove_dataset(a.dataset);
  std::cout << "removed dataset " << a.dataset << '\n';
}

}  // namespace

void add_info(CLI::App &app) {
  auto a = std::make_shared<InfoArgs>();
  auto *c = app.add_subcommand("info", "Counts of nodes and edges, datasets and their provenance");
  add_db_option(c, a->db);
  c->add_flag("--json", a->json, "JSON output");
  c->callback([a] { run_info(*a); });
}

void add_resolve(CLI::App &app) {
  auto a = std::make_shared<ResolveArgs>();
  auto *c = app.add_subcommand("resolve", "Resolve a name, alias or id to a node");
  add_db_option(c, a->db);
  c->add_option("name", a->name, "Name to resolve")->required();
  c->add_flag("--json", a->json, "JSON output (exit status 2 when the name does not resolve to one node)");
  c->callback([a] { run_resolve(*a); });
}

void add_remove_dataset(CLI::App &app) {
  auto a = std::make_shared<RemoveArgs>();
  auto *c = app.add_subcommand("remove-dataset", "Remove everything one imported dataset contributed");
  add_db_option(c, a->db);
  c->add_option("dataset", a->dataset, "Dataset id (see grappi info)")->required();
  c->callback([a] { run_remove(*a); });
}

namespace {

struct NeighborsArgs {
  std::string db, protein;
  double min_score = 0;
  std::vector<std::string> relations;
  std::size_t limit = 0;
  bool json = false;
};

void run_neighbors(const NeighborsArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  const int64_t id = g.resolve(a.protein);
  const auto snap = g.snapshot();
  NeighborFilter f;
  f.min_score = score_arg(a.min_score);
  f.relations = a.relations;
  const auto list = strongest_neighbors(*snap, id, f, a.limit);
  if (a.json) {
    std::cout << dump_json(to_json(*snap, id, list), 2) << '\n';
    return;
  }
  const uint32_t self = *snap->index_of(id);
  std::cout << snap->name(self) << " (" << snap->external_id(self) << "): " << list.size() << " neighbor(s) shown, degree "
            << snap->degree(id) << "\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto &n : list) {
    const uint32_t ix = *snap->index_of(n.node);
    rows.push_back({snap->name(ix), snap->external_id(ix), fmt(n.score), snap->relation_name(n.relation),
                    n.direction == Direction::undirected ? "-" : (n.direction == Direction::outgoing ? "->" : "<-")});
  }
  print_table({"neighbor", "external_id", "score", "relation", "dir"}, rows);
}

}  // namespace

void add_neighbors(CLI::App &app) {
  auto a = std::make_shared<NeighborsArgs>();
  auto *c = app.add_subcommand("neighbors", "Neighbors of a protein, strongest first");
  add_db_option(c, a->db);
  c->add_option("protein,--protein", a->protein, "Protein name, alias or STRING id (here or after --protein)")->required();
  c->add_option("--min-score", a->min_score, "Minimum edge score: 0-1, or a whole number 2-1000 on STRING's scale");
  c->add_option("--relation", a->relations, "Relation type(s) to keep, e.g. string.physical");
  c->add_option("--limit", a->limit, "Show at most N neighbors (0 = all)");
  c->add_flag("--json", a->json, "JSON output");
  c->callback([a] { run_neighbors(*a); });
}

namespace {

struct EdgesArgs {
  std::string db, a, b;
  bool json = false;
};

// One line per evidence record: what a curator checks (ids, papers, method, type, score).
std::string record_summary(const EvidenceRecord &r) {
  const auto j = nlohmann::json::parse(r.record, nullptr, false);
  if (!j.is_object()) return r.record;
  std::string out;
  const auto names = [&](const char *key) {
    std::string s;
    if (j.contains(key) && j[key].is_array())
      for (const auto &t : j[key])
        if (t.is_object()) s += (s.empty() ? "" : ", ") + t.value("name", std::string()) + " (" + t.value("id", std::string()) + ")";
    return s;
  };
  if (j.contains("interaction_ids") && !j["interaction_ids"].empty()) out += j["interaction_ids"][0].get<std::string>();
  if (j.contains("pmids") && !j["pmids"].empty()) {
    out += "  PMID";
    for (const auto &p : j["pmids"]) out += " " + dump_json(p);
  }
  const std::string type = names("interaction_types"), method = names("detection_methods");
  if (!type.empty()) out += "  type " + type;
  if (!method.empty()) out += "  method " + method;
  if (j.contains("confidence") && j["confidence"].is_object())
    for (auto it = j["confidence"].begin(); it != j["confidence"].end(); ++it) out += "  " + it.key() + " " + it->dump();
  if (j.value("negative", false)) out += "  NEGATIVE";
  // BEL: the statement, then its evidence sentence and its context annotations.
  if (j.contains("statement") && j["statement"].is_string()) out += "  " + j["statement"].get<std::string>();
  out += "  (dataset " + std::to_string(r.dataset_id) + " line " + std::to_string(r.line) + ")";
  if (j.contains("evidence") && j["evidence"].is_string()) out += "\n      \"" + j["evidence"].get<std::string>() + "\"";
  if (j.contains("annotations") && j["annotations"].is_object() && !j["annotations"].empty()) {
    std::string a;
    for (auto it = j["annotations"].begin(); it != j["annotations"].end(); ++it)
      a += (a.empty() ? "" : ", ") + it.key() + " " + (it->is_string() ? it->get<std::string>() : it->dump());
    out += "\n      " + a;
  }
  return out;
}

void run_edges(const EdgesArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  const int64_t x = g.resolve(a.a), y = g.resolve(a.b);
  const auto edges = g.edges_between(x, y);
  if (a.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto &e : edges) out.push_back(to_json(e));
    std::cout << dump_json(out, 2) << '\n';
    return;
  }
  const auto na = g.node(x), nb = g.node(y);
  std::cout << na->name << " (" << na->external_id << ") - " << nb->name << " (" << nb->external_id
            << "): " << edges.size() << " edge(s)\n";
  for (const auto &e : edges) {
    std::cout << "\n" << e.relation << (e.directed ? (e.source == x ? " ->" : " <-") : "") << "  score " << fmt(e.score);
    for (const auto &ch : e.channels)
      if (ch.score > 0) std::cout << "  " << ch.name << " " << fmt(ch.score);
    std::cout << '\n';
    if (!e.pmids.empty()) {
      std::cout << "  PubMed:";
      for (std::size_t i = 0; i < e.pmids.size(); ++i) std::cout << (i ? ", " : " ") << e.pmids[i];
      std::cout << '\n';
    }
    if (!e.evidence.empty()) std::cout << "  " << e.evidence << '\n';
    for (const auto &r : e.records) std::cout << "  - " << record_summary(r) << '\n';
  }
}

}  // namespace

void add_edges(CLI::App &app) {
  auto a = std::make_shared<EdgesArgs>();
  auto *c = app.add_subcommand("edges", "Every edge between two nodes with its evidence (STRING channels, PubMed ids, IntAct interactions)");
  add_db_option(c, a->db);
  c->add_option("a", a->a, "A protein or node: name, alias or id (uniprotkb:P40460 works)")->required();
  c->add_option("b", a->b, "The other one (the same one for self-interactions)")->required();
  c->add_flag("--json", a->json, "JSON output: the edges with their records, each with its raw source row");
  c->callback([a] { run_edges(*a); });
}

namespace {

struct ExportArgs {
  std::string db, format = "jsonl", out = "-", nodes_file, khop;
  std::vector<std::string> relations;
  double min_score = 0;
  std::size_t hops = 1;
};

void run_export(const ExportArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  ExportOptions o;
  o.format = export_format_from_name(a.format);
  o.relations = a.relations;
  o.min_score = score_arg(a.min_score);
  o.khop = a.khop;
  o.hops = a.hops;
  if (!a.nodes_file.empty()) {
    std::ifstream in(a.nodes_file);
    if (!in) throw Error(ErrorCode::not_found, "export: cannot open the node list '" + a.nodes_file + "'");
    std::string line;
    while (std::getline(in, line)) {
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
      if (!line.empty() && line[0] != '#') o.nodes.push_back(line);
    }
    if (o.nodes.empty()) throw Error(ErrorCode::invalid_argument, "export: the node list '" + a.nodes_file + "' names no node");
  }
  ExportReport rep;
  if (a.out == "-") rep = g.export_graph(std::cout, o);
  else rep = g.export_graph(a.out, o);
  if (o.format == ExportFormat::bel) {
    std::cerr << "exported " << rep.records << " BEL statement(s) of " << rep.edges << " edge(s)";
  } else {
    std::cerr << "exported " << rep.nodes << " node(s), " << rep.edges << " edge(s)";
    if (rep.records) std::cerr << ", " << rep.records << " evidence record(s)";
  }
  std::cerr << " as " << a.format << (a.out == "-" ? "" : " to " + a.out) << '\n';
  if (rep.not_written)
    std::cerr << rep.not_written << " edge(s) of the selection not written: " << a.format
              << " cannot hold them (not BEL statements)\n";
}

}  // namespace

void add_export(CLI::App &app) {
  auto a = std::make_shared<ExportArgs>();
  auto *c = app.add_subcommand("export", "Write the graph or a part of it: jsonl (lossless, re-imports), tsv (edge table), graphml, cx2 (Cytoscape/NDEx; re-imports), bel (the BEL statements as a BEL script; re-imports)");
  add_db_option(c, a->db);
  c->add_option("--format", a->format, "jsonl, tsv, graphml, cx2 or bel")->capture_default_str();
  c->add_option("--out,-o", a->out, "Output file ('-': standard output)")->capture_default_str();
  c->add_option("--relation", a->relations, "Only edges of these relation(s)");
  c->add_option("--min-score", a->min_score, "Only edges scoring at least this: 0-1, or a whole number 2-1000 on STRING's scale");
  c->add_option("--nodes", a->nodes_file, "A file of node names or ids, one per line: only these nodes and the edges among them");
  c->add_option("--khop", a->khop, "Only the nodes within --hops steps of this one and the edges among them");
  c->add_option("--hops", a->hops, "Steps from --khop")->capture_default_str();
  c->callback([a] { run_export(*a); });
}

}  // namespace grappi::cli
