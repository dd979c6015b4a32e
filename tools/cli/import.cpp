// grappi import: STRING files into the database, in one transaction.
#include <iostream>
#include <memory>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct ImportArgs {
  std::string db;
  std::vector<std::string> links, detailed, physical, info, aliases, actions, web_export, detect;
  int min_score = 0;
  bool skip_bad_lines = false, json = false;
};

void run(const ImportArgs &a) {
  std::vector<ImportSource> sources;
  const auto add = [&](const std::vector<std::string> &files, StringFormat f) {
    for (const auto &p : files) sources.push_back({p, f});
  };
  add(a.info, StringFormat::info);
  add(a.aliases, StringFormat::aliases);
  add(a.links, StringFormat::links);
  add(a.detailed, StringFormat::detailed);
  add(a.physical, StringFormat::physical);
  add(a.actions, StringFormat::actions);
  add(a.web_export, StringFormat::web_export);
  add(a.detect, StringFormat::detect);
  if (sources.empty()) throw Error(ErrorCode::invalid_argument, "import: name at least one file");
  KnowledgeGraph g = open_graph(a.db, true, 256);
  ImportOptions opt;
  opt.min_score = a.min_score;
  opt.skip_bad_lines = a.skip_bad_lines;
  ProgressBar bar;
  opt.progress = [&bar](const ImportProgress &p) {
    bar(p.stage, p.stage == "done" ? 1 : p.bytes_read, p.stage == "done" ? 1 : p.bytes_total, p.path);
  };
  const ImportReport rep = g.import_string(sources, opt);
  if (a.json) {
    std::cout << to_json(rep).dump(2) << '\n';
    return;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto &f : rep.files)
    rows.push_back({f.path, to_string(f.format), f.already_imported ? "already imported" : "imported", std::to_string(f.lines),
                    std::to_string(f.nodes_created), std::to_string(f.edges_created), std::to_string(f.aliases_created),
                    std::to_string(f.rows_below_min_score), std::to_string(f.rows_skipped), fmt(f.seconds, 2)});
  print_table({"file", "format", "status", "lines", "nodes+", "edges+", "aliases+", "below-min", "skipped", "s"}, rows);
  for (const auto &f : rep.files)
    if (f.rows_skipped) {
      std::cerr << f.path << ": skipped " << f.rows_skipped << " bad line(s), for example:\n";
      for (const auto &e : f.bad_line_examples) std::cerr << "  " << e << '\n';
    }
}

}  // namespace

void add_import(CLI::App &app) {
  auto a = std::make_shared<ImportArgs>();
  auto *c = app.add_subcommand("import", "Import STRING files (applied in order info, aliases, links, actions; one transaction)");
  add_db_option(c, a->db, true);
  c->add_option("--links", a->links, "protein.links file(s)");
  c->add_option("--detailed", a->detailed, "protein.links.detailed file(s)");
  c->add_option("--physical", a->physical, "protein.physical.links (or .detailed) file(s)");
  c->add_option("--info", a->info, "protein.info file(s)");
  c->add_option("--aliases", a->aliases, "protein.aliases file(s)");
  c->add_option("--actions", a->actions, "protein.actions file(s)");
  c->add_option("--export", a->web_export, "STRING website export string_interactions.tsv file(s)");
  c->add_option("files", a->detect, "Files whose format is detected from the header");
  c->add_option("--min-score", a->min_score, "Keep links with combined score >= N (0-1000; 150 low, 400 medium, 700 high, 900 highest)")
      ->check(CLI::Range(0, 1000));
  c->add_flag("--skip-bad-lines", a->skip_bad_lines, "Import the good lines and report the bad ones instead of failing");
  c->add_flag("--json", a->json, "Print the import report as JSON");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli
