// grappi — command-line front end. Holds no logic of its own: every command calls the C++ API.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "grappi/grappi.hpp"

namespace {

using nlohmann::json;

struct Progress {
  bool enabled = isatty(STDERR_FILENO) != 0;
  std::string last_path;
  int last_pct = -1;
  void operator()(const grappi::ImportProgress &p) {
    if (!enabled) return;
    int pct = p.bytes_total ? static_cast<int>(100.0 * static_cast<double>(p.bytes_read) /
                                               static_cast<double>(p.bytes_total))
                            : 100;
    if (p.stage == std::string("done")) pct = 100;
    if (pct == last_pct && p.path == last_path) return;
    last_pct = pct;
    last_path = p.path;
    const int width = 30;
    int filled = pct * width / 100;
    std::fprintf(stderr, "\r%-9s [%s%s] %3d%% %s", p.stage.c_str(), std::string(static_cast<std::size_t>(filled), '#').c_str(),
                 std::string(static_cast<std::size_t>(width - filled), ' ').c_str(), pct, p.path.c_str());
    if (p.stage == std::string("done")) std::fputc('\n', stderr);
    std::fflush(stderr);
  }
};

void print_table(const std::vector<std::string> &head, const std::vector<std::vector<std::string>> &rows) {
  std::vector<std::size_t> w(head.size());
  for (std::size_t i = 0; i < head.size(); ++i) w[i] = head[i].size();
  for (auto &r : rows)
    for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], std::min<std::size_t>(r[i].size(), 60));
  auto line = [&](const std::vector<std::string> &r) {
    for (std::size_t i = 0; i < r.size(); ++i) {
      std::string cell = r[i].size() > 60 ? r[i].substr(0, 57) + "..." : r[i];
      std::cout << std::left << std::setw(static_cast<int>(w[i])) << cell << (i + 1 < r.size() ? "  " : "");
    }
    std::cout << '\n';
  };
  line(head);
  for (auto &r : rows) line(r);
}

std::string fmt(double v, int prec = 3) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(prec) << v;
  return o.str();
}

}  // namespace

int main(int argc, char **argv) {
  CLI::App app{"grappi — knowledge-graph retrieval over protein interaction networks"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("grappi ") + GRAPPI_VERSION_STRING);
  std::string db;

  // import
  auto *imp = app.add_subcommand("import", "Import STRING files (applied in order info, aliases, links, actions; one transaction)");
  std::vector<std::string> f_links, f_detailed, f_physical, f_info, f_aliases, f_actions, f_export, f_auto;
  std::string force;
  int min_score = 0;
  bool skip_bad = false, imp_json = false;
  imp->add_option("--db", db, "Database file (created when missing)")->required();
  imp->add_option("--links", f_links, "protein.links file(s)");
  imp->add_option("--detailed", f_detailed, "protein.links.detailed file(s)");
  imp->add_option("--physical", f_physical, "protein.physical.links (or .detailed) file(s)");
  imp->add_option("--info", f_info, "protein.info file(s)");
  imp->add_option("--aliases", f_aliases, "protein.aliases file(s)");
  imp->add_option("--actions", f_actions, "protein.actions file(s)");
  imp->add_option("--export", f_export, "STRING website export string_interactions.tsv file(s)");
  imp->add_option("files", f_auto, "Files whose format is detected from the header");
  imp->add_option("--min-score", min_score, "Keep links with combined score >= N (0-1000; 150 low, 400 medium, 700 high, 900 highest)")
      ->check(CLI::Range(0, 1000));
  imp->add_flag("--skip-bad-lines", skip_bad, "Import the good lines and report the bad ones instead of failing");
  imp->add_flag("--json", imp_json, "Print the import report as JSON");

  // info
  auto *info = app.add_subcommand("info", "Counts of nodes and edges, datasets and their provenance");
  bool info_json = false;
  info->add_option("--db", db, "Database file")->required();
  info->add_flag("--json", info_json, "JSON output");

  // neighbors
  auto *nb = app.add_subcommand("neighbors", "Neighbours of a protein, strongest first");
  std::string nb_name;
  double nb_min = 0;
  std::vector<std::string> nb_rel;
  std::size_t nb_limit = 0;
  bool nb_json = false;
  nb->add_option("--db", db, "Database file")->required();
  nb->add_option("protein", nb_name, "Protein name, alias or STRING id")->required();
  nb->add_option("--min-score", nb_min, "Minimum score, 0-1 or STRING's 0-1000")->check(CLI::Range(0.0, 1000.0));
  nb->add_option("--relation", nb_rel, "Relation type(s) to keep, e.g. string.physical");
  nb->add_option("--limit", nb_limit, "Show at most N neighbours (0 = all)");
  nb->add_flag("--json", nb_json, "JSON output");

  // resolve
  auto *rs = app.add_subcommand("resolve", "Resolve a name, alias or id to a node");
  std::string rs_name;
  bool rs_json = false;
  rs->add_option("--db", db, "Database file")->required();
  rs->add_option("name", rs_name, "Name to resolve")->required();
  rs->add_flag("--json", rs_json, "JSON output");

  // remove-dataset
  auto *rm = app.add_subcommand("remove-dataset", "Remove everything one imported dataset contributed");
  int64_t rm_id = 0;
  rm->add_option("--db", db, "Database file")->required();
  rm->add_option("dataset", rm_id, "Dataset id (see grappi info)")->required();

  CLI11_PARSE(app, argc, argv);

  try {
    if (*imp) {
      std::vector<grappi::ImportSource> src;
      auto add = [&](const std::vector<std::string> &files, grappi::StringFormat f) {
        for (auto &p : files) src.push_back({p, f});
      };
      add(f_info, grappi::StringFormat::info);
      add(f_aliases, grappi::StringFormat::aliases);
      add(f_links, grappi::StringFormat::links);
      add(f_detailed, grappi::StringFormat::detailed);
      add(f_physical, grappi::StringFormat::physical);
      add(f_actions, grappi::StringFormat::actions);
      add(f_export, grappi::StringFormat::web_export);
      add(f_auto, grappi::StringFormat::detect);
      if (src.empty()) throw grappi::Error(grappi::ErrorCode::invalid_argument, "import: name at least one file");
      grappi::KnowledgeGraph g(db);
      grappi::ImportOptions opt;
      opt.min_score = min_score;
      opt.skip_bad_lines = skip_bad;
      Progress bar;
      opt.progress = [&bar](const grappi::ImportProgress &p) { bar(p); };
      auto rep = g.import_string(src, opt);
      if (imp_json) {
        std::cout << grappi::to_json(rep).dump(2) << '\n';
      } else {
        std::vector<std::vector<std::string>> rows;
        for (auto &f : rep.files)
          rows.push_back({f.path, grappi::to_string(f.format), f.already_imported ? "already imported" : "imported",
                          std::to_string(f.lines), std::to_string(f.nodes_created), std::to_string(f.edges_created),
                          std::to_string(f.aliases_created), std::to_string(f.rows_below_min_score),
                          std::to_string(f.rows_skipped), fmt(f.seconds, 2)});
        print_table({"file", "format", "status", "lines", "nodes+", "edges+", "aliases+", "below-min", "skipped", "s"}, rows);
        for (auto &f : rep.files)
          if (f.rows_skipped) {
            std::cerr << f.path << ": skipped " << f.rows_skipped << " bad line(s), for example:\n";
            for (auto &e : f.bad_line_examples) std::cerr << "  " << e << '\n';
          }
      }
    } else if (*info) {
      grappi::KnowledgeGraph g(db, grappi::OpenOptions{false, false, 30000, 64});
      auto s = g.stats();
      if (info_json) {
        std::cout << grappi::to_json(s).dump(2) << '\n';
      } else {
        std::cout << "database: " << db << " (schema " << s.schema_version << ")\n"
                  << "nodes:    " << s.nodes << "\nedges:    " << s.edges << "\naliases:  " << s.aliases << "\n\n";
        std::vector<std::vector<std::string>> rows;
        for (auto &r : s.edges_by_relation) rows.push_back({r.first, std::to_string(r.second)});
        if (!rows.empty()) {
          print_table({"relation", "edges"}, rows);
          std::cout << '\n';
        }
        rows.clear();
        for (auto &d : s.datasets) {
          auto counts = json::parse(d.counts, nullptr, false);
          rows.push_back({std::to_string(d.id), d.name, d.format, d.string_version, std::to_string(d.taxon),
                          std::to_string(counts.value("lines", 0)), d.sha256.substr(0, 12), d.imported_at});
        }
        if (!rows.empty()) print_table({"dataset", "file", "format", "version", "taxon", "lines", "sha256", "imported"}, rows);
      }
    } else if (*nb) {
      grappi::KnowledgeGraph g(db, grappi::OpenOptions{false, false, 30000, 64});
      int64_t id = g.resolve(nb_name);
      auto snap = g.snapshot();
      grappi::NeighborFilter f;
      f.min_score = nb_min > 1.0 ? nb_min / 1000.0 : nb_min;
      f.relations = nb_rel;
      auto list = snap->neighbors(id, f);
      std::stable_sort(list.begin(), list.end(), [&](const grappi::Neighbor &a, const grappi::Neighbor &b) {
        if (a.score != b.score) return a.score > b.score;
        return a.node < b.node;
      });
      if (nb_limit && list.size() > nb_limit) list.resize(nb_limit);
      auto self = g.node(id);
      if (nb_json) {
        json out = json::array();
        for (auto &n : list) {
          uint32_t ix = *snap->index_of(n.node);
          const char *dir = n.direction == grappi::Direction::outgoing   ? "out"
                            : n.direction == grappi::Direction::incoming ? "in"
                                                                         : "undirected";
          out.push_back({{"id", n.node}, {"name", snap->name(ix)}, {"external_id", snap->external_id(ix)},
                         {"edge", n.edge}, {"score", n.score}, {"relation", snap->relation_name(n.relation)},
                         {"direction", dir}});
        }
        std::cout << json{{"protein", {{"id", id}, {"name", self->name}, {"external_id", self->external_id}}},
                          {"degree", snap->degree(id)},
                          {"neighbors", out}}
                         .dump(2)
                  << '\n';
      } else {
        std::cout << self->name << " (" << self->external_id << "): " << list.size() << " neighbour(s) shown, degree "
                  << snap->degree(id) << "\n";
        std::vector<std::vector<std::string>> rows;
        for (auto &n : list) {
          uint32_t ix = *snap->index_of(n.node);
          rows.push_back({snap->name(ix), snap->external_id(ix), fmt(n.score), snap->relation_name(n.relation),
                          n.direction == grappi::Direction::undirected ? "-" : (n.direction == grappi::Direction::outgoing ? "->" : "<-")});
        }
        print_table({"neighbour", "external_id", "score", "relation", "dir"}, rows);
      }
    } else if (*rs) {
      grappi::KnowledgeGraph g(db, grappi::OpenOptions{false, false, 30000, 64});
      auto r = g.lookup(rs_name);
      if (rs_json) {
        std::cout << grappi::to_json(r).dump(2) << '\n';
      } else if (r.status == grappi::ResolveResult::Status::found) {
        auto n = g.node(r.id);
        std::cout << n->name << "\t" << n->external_id << "\t(id " << n->id << ", matched by "
                  << r.candidates[0].matched_by << ")\n";
        if (!n->annotation.empty()) std::cout << n->annotation << '\n';
      } else {
        (void)g.resolve(rs_name);  // throws the ambiguous / not-found error with its message
      }
      if (r.status != grappi::ResolveResult::Status::found) return 2;
    } else if (*rm) {
      grappi::KnowledgeGraph g(db, grappi::OpenOptions{false, false, 30000, 64});
      g.remove_dataset(rm_id);
      std::cout << "removed dataset " << rm_id << '\n';
    }
  } catch (const grappi::Error &e) {
    std::cerr << "grappi: " << e.what() << '\n';
    return e.code() == grappi::ErrorCode::invalid_argument ? 2 : 1;
  } catch (const std::exception &e) {
    std::cerr << "grappi: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
