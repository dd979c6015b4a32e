// grappi cooc build: a literature co-occurrence graph from annotated documents, stored in the
// database as a dataset (grappi/cooccurrence.hpp).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct CoocArgs {
  std::string db, format = "detect", out, json, scope = "document", partial;
  std::vector<std::string> corpora, partials;
  int as_of = 0;
  CoocOptions o;
  bool no_import = false, quiet = false, sentence = false, no_papers = false, keep_dataset = false;
};

// The dataset's JSON lines file: --out, or next to the database with --keep-dataset; none by
// default (the database holds the graph compactly).
std::string dataset_file(const CoocArgs &a, const CoocGraph &graph) {
  if (!a.out.empty()) return a.out;
  return a.keep_dataset ? cooccurrence_dataset_path(a.db, graph) : std::string();
}

CoocOptions options_of(const CoocArgs &a) {
  CoocOptions o = a.o;
  o.scope = a.scope == "sentence" || a.sentence ? CoocOptions::Scope::sentence : CoocOptions::Scope::document;
  if (a.as_of) o.as_of = a.as_of;
  return o;
}

// --partial: the counts of this part of a corpus, written for `grappi cooc merge` (the database
// is only read: its aliases join the concepts). Without a database yet (a literature-only
// knowledge base, built in parts), the concepts are the annotations' ids - what a new database
// gives `cooc build` - and the merge creates it.
void run_partial(CoocArgs &a) {
  const CoocOptions o = options_of(a);
  const DocumentFormat format = document_format(a.format);
  std::optional<KnowledgeGraph> g;
  std::optional<EntityTagger> tagger;
  const bool database = std::filesystem::exists(a.db);
  if (database) g.emplace(open_graph(a.db, Access::read)), tagger.emplace(*g);
  CoocBuilder builder(o, tagger ? &*tagger : nullptr);
  nlohmann::json inputs = nlohmann::json::array();
  for (const std::string &f : a.corpora) {
    const CoocFileCount c = builder.add_file(f, format);
    inputs.push_back({{"path", c.path}, {"bytes", c.bytes}, {"documents", c.documents}});
  }
  const std::size_t documents = builder.documents();
  builder.save(a.partial, dump_json({{"corpus", inputs},
                                     {"format", a.format},
                                     {"database", database ? nlohmann::json(a.db) : nlohmann::json(nullptr)}}));
  if (!a.quiet && a.json != "-")
    std::cout << documents << " document(s) counted into " << a.partial << " (grappi cooc merge takes it in)"
              << (database ? "" : "; no database at " + a.db + " yet: the concepts are the annotations' ids") << "\n";
}

void run_build(CoocArgs &a) {
  if (!a.partial.empty()) return run_partial(a);
  const CoocOptions o = options_of(a);
  for (const std::string &f : a.corpora)
    if (!std::ifstream(f)) throw Error(ErrorCode::io, "cooc build: cannot read '" + f + "'");
  const DocumentFormat format = document_format(a.format);
  // (a write command: a missing database is made; --no-import only reads)
  NewDatabase created(a.db);  // (removed again when the build fails)
  KnowledgeGraph g = open_graph(a.db, a.no_import ? Access::read : Access::create);
  // The papers themselves, stored and searchable (hypothesize and serve read them from the store).
  std::optional<ImportReport> papers;
  if (!a.no_import && !a.no_papers) {
    std::vector<SourceFile> files;
    for (const std::string &f : a.corpora) files.push_back({f, a.format == "detect" ? "corpus" : "corpus:" + a.format});
    papers = g.import(files);
  }
  const EntityTagger tagger(g);  // (joins gene concepts to the proteins whose aliases hold their ids)
  // The documents streamed into the builder (PubTator and JSON lines a document at a time).
  CoocBuilder builder(o, &tagger);
  for (const std::string &f : a.corpora) builder.add_file(f, format);
  const CoocGraph graph = builder.finish();
  nlohmann::json j = to_json(graph);
  std::optional<FileReport> imported;
  if (!a.no_import && !graph.edges.empty()) {
    imported = import_cooccurrence(g, graph, dataset_file(a, graph));
    j["import"] = {{"dataset_id", imported->dataset_id}, {"path", imported->path},
                   {"already_imported", imported->already_imported}, {"edges_created", imported->edges_created},
                   {"nodes_created", imported->nodes_created}};
  }
  if (papers) {
    j["papers"] = nlohmann::json::array();
    for (const FileReport &f : papers->files)
      j["papers"].push_back({{"path", f.path}, {"dataset_id", f.dataset_id}, {"documents", f.lines},
                             {"already_imported", f.already_imported}});
  }
  created.keep();
  if (!a.json.empty()) write_output(a.json, dump_json(j, 2) + "\n");
  if (a.quiet || a.json == "-") return;
  std::cout << graph.documents << " document(s), " << graph.units << " unit(s) with a concept, " << graph.concepts.size()
            << " concept(s), " << graph.edges.size() << " edge(s) (" << cooccurrence_relation(graph.options) << ")";
  if (graph.unidentified)
    std::cout << "; " << graph.unidentified << " annotation(s) naming no concept (no id, or PubTator's -1) left out";
  if (graph.composite) std::cout << "; " << graph.composite << " composite annotation(s) counted for each concept they name";
  if (o.as_of)
    std::cout << "; as of " << *o.as_of << ": " << graph.later << " later and " << graph.undated << " undated document(s) left out";
  std::cout << "\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto &e : j["top_edges"])
    rows.push_back({e["a"]["name"].get<std::string>() + " (" + e["a"]["id"].get<std::string>() + ")",
                    e["b"]["name"].get<std::string>() + " (" + e["b"]["id"].get<std::string>() + ")",
                    std::to_string(e["count"].get<std::size_t>()), fmt(e["npmi"].get<double>())});
  if (!rows.empty()) print_table({"concept", "concept", "count", "npmi"}, rows);
  if (imported)
    std::cout << "imported as dataset " << imported->dataset_id << (imported->already_imported ? " (already imported)" : "")
              << " (" << imported->path << ")\n";
  if (papers)
    for (const FileReport &f : papers->files)
      std::cout << "papers of " << f.path << ": dataset " << f.dataset_id
                << (f.already_imported ? " (already imported)" : ", " + std::to_string(f.lines) + " document(s) stored")
                << "\n";
}

// grappi cooc merge: partial counts (cooc build --partial, or the distributed build's workers)
// merged in the order given into the graph of the whole corpus, stored as cooc build stores it.
void run_merge(CoocArgs &a) {
  for (const std::string &f : a.partials)
    if (!std::ifstream(f)) throw Error(ErrorCode::io, "cooc merge: cannot read '" + f + "'");
  // (the parts' own options: each part is checked against the first's)
  CoocOptions o = CoocBuilder::partial_options(a.partials.at(0));
  o.memory_mib = a.o.memory_mib;
  o.work_dir = a.o.work_dir;
  NewDatabase created(a.db);
  KnowledgeGraph g = open_graph(a.db, a.no_import ? Access::read : Access::create);
  CoocBuilder builder(o);
  nlohmann::json parts = nlohmann::json::array();
  for (const std::string &f : a.partials) {
    const std::size_t before = builder.documents();
    nlohmann::json p = {{"path", f}, {"provenance", nlohmann::json::parse(builder.merge_file(f))}};
    p["documents"] = builder.documents() - before;
    parts.push_back(std::move(p));
  }
  const CoocGraph graph = builder.finish();
  nlohmann::json j = to_json(graph);
  if (!a.no_import && !graph.edges.empty()) {
    const FileReport f = import_cooccurrence(g, graph, dataset_file(a, graph));
    j["import"] = {{"dataset_id", f.dataset_id}, {"path", f.path}, {"already_imported", f.already_imported},
                   {"edges_created", f.edges_created}, {"nodes_created", f.nodes_created}};
  }
  j["partials"] = std::move(parts);
  created.keep();
  if (!a.json.empty()) write_output(a.json, dump_json(j, 2) + "\n");
  if (a.quiet || a.json == "-") return;
  std::cout << a.partials.size() << " partial count file(s): " << graph.documents << " document(s), " << graph.concepts.size()
            << " concept(s), " << graph.edges.size() << " edge(s) (" << cooccurrence_relation(graph.options) << ")\n";
  if (j.contains("import"))
    std::cout << "imported as dataset " << j["import"]["dataset_id"].get<int64_t>()
              << (j["import"]["already_imported"].get<bool>() ? " (already imported)" : "") << " ("
              << j["import"]["path"].get<std::string>() << ")\n";
}

// The options of the graph a build makes.
void add_graph_options(CLI::App *c, CoocArgs &a) {
  c->add_option("--scope", a.scope, "Co-occurrence in the same document or the same sentence")
      ->check(CLI::IsMember({"document", "sentence"}));
  c->add_flag("--sentence", a.sentence, "The same as --scope sentence")->excludes("--scope");
  c->add_option("--titles", a.o.titles, "Titles: include, only or exclude")->check(CLI::IsMember({"include", "only", "exclude"}));
  c->add_option("--types", a.o.types, "Concept types kept, comma-separated (e.g. Gene,Disease,Chemical); default: all")
      ->delimiter(',');
  c->add_option("--min-count", a.o.min_count, "Edges shared by fewer documents (sentences) are left out");
  c->add_option("--as-of", a.as_of, "Only documents published before this year");
  c->add_flag("--dictionary", a.o.dictionary, "Also the dictionary's mentions in annotated passages");
  c->add_option("--memory", a.o.memory_mib,
                "MiB for the pairs of concepts; beyond it they are sorted and spilled to temporary files (0: no limit)");
  c->add_option("--work-dir", a.o.work_dir, "Where spilled pairs go (default: the system's temporary directory)");
}

}  // namespace

void add_cooc(CLI::App &app) {
  auto *cooc = app.add_subcommand("cooc", "Literature co-occurrence graphs");
  cooc->require_subcommand(1);
  auto a = std::make_shared<CoocArgs>();
  auto *c = cooc->add_subcommand("build", "Build a co-occurrence graph from annotated documents and store it as a dataset");
  add_db_option(c, a->db);
  c->add_option("--corpus", a->corpora, "Annotated documents: PubTator, BioC XML/JSON, JSON lines (repeatable); text goes "
                                        "through the dictionary")
      ->required();
  c->add_option("--format", a->format, "Force the input format: detect, text, pubtator, bioc-xml, bioc-json, ppi-xml, jsonl");
  add_graph_options(c, *a);
  c->add_option("--out", a->out, "Also write the dataset's file (grappi JSON lines) here");
  c->add_flag("--keep-dataset", a->keep_dataset,
              "Also write the dataset's file (grappi JSON lines) next to the database; by default the database alone "
              "holds the graph");
  c->add_flag("--no-import", a->no_import, "Build and report only (the database is only read)");
  c->add_flag("--no-papers", a->no_papers, "Do not store the papers themselves (grappi papers, hypothesize without --corpus)");
  c->add_option("--partial", a->partial,
                "Write this part's counts to this file for grappi cooc merge instead of storing a graph (the database "
                "is only read; docs/distributed.md)")
      ->excludes("--out")
      ->excludes("--keep-dataset")
      ->excludes("--no-import")
      ->excludes("--no-papers");
  add_output_flags(c, a->json, a->quiet, "the figures and strongest edges");
  c->callback([a] { run_build(*a); });

  auto m = std::make_shared<CoocArgs>();
  auto *mc = cooc->add_subcommand("merge", "Merge partial counts (cooc build --partial) into one graph and store it as "
                                           "cooc build does");
  add_db_option(mc, m->db);
  mc->add_option("partials", m->partials, "Partial count files, merged in this order (the graph's concept order)")->required();
  mc->add_option("--memory", m->o.memory_mib,
                 "MiB for the pairs of concepts; beyond it they are sorted and spilled to temporary files (0: no limit)");
  mc->add_option("--work-dir", m->o.work_dir, "Where spilled pairs go (default: the system's temporary directory)");
  mc->add_option("--out", m->out, "Also write the dataset's file (grappi JSON lines) here");
  mc->add_flag("--keep-dataset", m->keep_dataset,
               "Also write the dataset's file (grappi JSON lines) next to the database; by default the database alone "
               "holds the graph");
  mc->add_flag("--no-import", m->no_import, "Merge and report only (the database is only read)");
  add_output_flags(mc, m->json, m->quiet, "the figures, strongest edges and the parts' provenance");
  mc->callback([m] { run_merge(*m); });
}

}  // namespace grappi::cli
