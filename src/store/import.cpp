// KnowledgeGraph::import: files of any supported format in one transaction, dispatched to the
// importer of each format (importers.hpp).
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>

#include "grappi/error.hpp"
#include "grappi/knowledge_graph.hpp"
#include "common/out_of_memory.hpp"
#include "formats/cx2.hpp"
#include "store/importers.hpp"
#include "formats/mitab_parser.hpp"
#include "formats/obo_parser.hpp"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"

namespace grappi {

std::vector<std::string> import_formats() {
  return {"detect", "info", "aliases", "links", "detailed", "physical", "physical_detailed", "actions", "web_export", "obo", "mitab", "mapping", "annotations", "famplex", "edges", "jsonl", "bel", "jgf", "cx2", "corpus"};
}

namespace {

std::string joined_formats() {
  std::string s;
  for (const auto &f : import_formats()) s += (s.empty() ? "" : ", ") + f;
  return s;
}

// The first lines detection looks at, read in one pass: the first that is neither blank nor
// an OBO comment ('!'; a MITAB header starts with '#', which is not one), and the first that is
// neither blank nor a '#' comment (BEL scripts open with comments).
struct FirstLines {
  std::string content, uncommented;
};

FirstLines first_lines(const std::string &path) {
  detail::LineReader r(path);
  std::string_view line;
  FirstLines out;
  for (int i = 0; i < 256 && (out.content.empty() || out.uncommented.empty()) && r.next(line); ++i) {
    const std::string t = detail::trim_copy(line);
    if (t.empty()) continue;
    if (out.content.empty() && t.front() != '!') out.content = t;
    if (out.uncommented.empty() && t.front() != '#') out.uncommented = t;
  }
  return out;
}

// The format other than STRING's a file's first lines show; empty when none does.
std::string other_format(const std::string &path) {
  const FirstLines lines = first_lines(path);
  const std::string &first = lines.content;
  if (detail::looks_like_obo(first)) return "obo";
  if (detail::looks_like_string_annotations(std::string_view(first).substr(0, first.find('\n')))) return "annotations";
  if (detail::looks_like_mitab(first)) return "mitab";
  if (detail::looks_like_jsonl(first)) return "jsonl";
  if (detail::looks_like_jgf(first)) return "jgf";
  if (detail::looks_like_cx(first)) return "cx2";
  if (detail::looks_like_bel(lines.uncommented)) return "bel";
  return {};
}

bool is_directory(const std::string &path) {
  struct stat sb {};
  return ::stat(path.c_str(), &sb) == 0 && S_ISDIR(sb.st_mode);
}

bool is_famplex_dir(const std::string &dir) {
  struct stat sb {};
  const auto has = [&](const char *name) {
    const std::string p = dir + "/" + name;
    return ::stat(p.c_str(), &sb) == 0 || ::stat((p + ".gz").c_str(), &sb) == 0;
  };
  return has("entities.csv") && has("relations.csv");
}

}  // namespace

void detail::require_regular_file(const std::string &path) {
  struct stat sb {};
  if (::stat(path.c_str(), &sb) != 0 || S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode)) return;
  throw Error(ErrorCode::invalid_argument,
              "import: '" + path + "' is not a regular file (a pipe, FIFO or device): an import reads its input twice " +
                  "(to detect the format, then to import it) and records its size and SHA-256; save it to a file " +
                  "first (gzipped files are read as they are, so `zcat` is not needed)");
}

void detail::check_import_options(const ImportOptions &options) {
  const auto bad = [](const std::string &what) { return Error(ErrorCode::invalid_argument, "import: " + what); };
  if (options.min_score < 0 || options.min_score > 1000)
    throw bad("min_score " + std::to_string(options.min_score) + " is outside STRING's 0-1000 scale");
  if (options.taxon < 0) throw bad("taxon " + std::to_string(options.taxon) + " is negative (0 joins any taxon)");
  const EdgeListOptions &e = options.edges;
  if (!(e.score_scale > 0) || !std::isfinite(e.score_scale))
    throw bad("the edge-list score scale must be a positive number, not " + std::to_string(e.score_scale));
  if (e.separator != 0 && e.separator != '\t' && e.separator != ',' && e.separator != ' ')
    throw bad("the edge-list separator must be a tab, ',' or ' ' (any run of blanks), or 0 to detect it; not byte " +
              std::to_string(static_cast<unsigned char>(e.separator)));
  if (e.label.empty()) throw bad("the label of the edge list's new nodes is empty");
}

ImportReport KnowledgeGraph::import(const std::vector<SourceFile> &files, const ImportOptions &options) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->require_writable("import");
  if (files.empty()) throw Error(ErrorCode::invalid_argument, "import: no files given");
  detail::check_import_options(options);
  const auto t0 = std::chrono::steady_clock::now();
  // Every file's kind is settled before anything is written.
  std::vector<ImportSource> string_files;
  std::vector<std::pair<std::string, std::string>> other_files;  // (format, path), in order
  for (const auto &f : files) detail::require_regular_file(f.path);
  for (const auto &f : files) {
    const std::string format = f.format.empty() ? "detect" : f.format;
    if (format == "bel") {
      // "bel" covers BEL scripts and BEL JSON graphs.
      other_files.emplace_back(detail::looks_like_jgf(first_lines(f.path).content) ? "jgf" : "bel", f.path);
    } else if (format == "obo" || format == "mitab" || format == "mapping" || format == "annotations" || format == "famplex" || format == "edges" ||
               format == "jsonl" || format == "jgf" || format == "cx2") {
      if (format != "famplex" && is_directory(f.path))
        throw Error(ErrorCode::invalid_argument, "import: '" + f.path + "' is a directory, not a " + format + " file");
      other_files.emplace_back(format, f.path);
    } else if (format == "corpus" || format.rfind("corpus:", 0) == 0) {
      // (the document format is checked now: a wrong name writes nothing)
      if (format != "corpus") (void)document_format(format.substr(7));
      other_files.emplace_back(format, f.path);
    } else if (format == "detect" && is_directory(f.path)) {
      // (a directory is FamPlex's tables, or nothing grappi reads)
      if (!is_famplex_dir(f.path))
        throw Error(ErrorCode::invalid_argument, "import: '" + f.path + "' is a directory, not a file (a directory is " +
                                                     "read only as FamPlex's tables: entities.csv and relations.csv)");
      other_files.emplace_back("famplex", f.path);
    } else if (format == "detect") {
      const std::string other = other_format(f.path);
      if (!other.empty()) other_files.emplace_back(other, f.path);
      else string_files.push_back({f.path, StringFormat::detect});
    } else {
      StringFormat sf;
      try {
        sf = string_format_from_name(format);  // the STRING names and their aliases
      } catch (const Error &) {
        throw Error(ErrorCode::invalid_argument,
                    "import: unknown format '" + format + "' for " + f.path + " (" + joined_formats() + ")");
      }
      // A file forced as a STRING format that is plainly another format (on the command line,
      // a file listed after --export A B belongs to --export) is named as what it is.
      if (const std::string other = other_format(f.path); !other.empty())
        throw Error(ErrorCode::parse, f.path + ": given as " + format + " (a STRING format), but it reads as " + other +
                                          ": give it as " + other + " or let its format be detected");
      string_files.push_back({f.path, sf});
    }
  }
  ImportReport report;
  detail::Savepoint tx(impl_->db, "grappi_import_all");
  if (!string_files.empty())
    report = detail::while_doing("importing " + string_files.front().path + (string_files.size() > 1 ? " and the STRING files with it" : ""),
                                 [&] { return detail::import_string_files(*impl_, string_files, options); });
  // After STRING: ontologies (their terms are what interaction files cite), mapping tables
  // (which give the proteins the identifiers other files use), STRING's functional annotations
  // (their GO terms join the ontology's), then interactions and edge
  // lists, each joining the nodes the files before it defined; BEL (scripts, JSON graphs, CX2
  // networks) after them, so that gene and protein terms meet the proteins those files named.
  // FamPlex after the mapping tables: the texts it grounds to single proteins join them by their
  // UniProt accessions.
  for (const char *kind : {"obo", "jsonl", "mapping", "annotations", "famplex", "mitab", "bel", "jgf", "cx2", "edges", "corpus"})
    for (const auto &[format, path] : other_files) {
      if (format != kind && !(std::string(kind) == "corpus" && format.rfind("corpus:", 0) == 0)) continue;
      report.files.push_back(detail::while_doing("importing " + path, [&, &fmt = format, &file = path] {
        if (fmt == "corpus" || fmt.rfind("corpus:", 0) == 0)
          return detail::import_documents_file(*impl_, file, fmt == "corpus" ? DocumentFormat::detect : document_format(fmt.substr(7)),
                                               options);
        if (fmt == "obo") return detail::import_obo_file(*impl_, file, options);
        if (fmt == "mapping") return detail::import_mapping_file(*impl_, file, options);
        if (fmt == "annotations") return detail::import_annotations_file(*impl_, file, options);
        if (fmt == "famplex") return detail::import_famplex_dir(*impl_, file, options);
        if (fmt == "mitab") return detail::import_mitab_file(*impl_, file, options);
        if (fmt == "jsonl") return detail::import_jsonl_file(*impl_, file, options);
        if (fmt == "bel") return detail::import_bel_file(*impl_, file, options);
        if (fmt == "jgf") return detail::import_jgf_file(*impl_, file, options);
        if (fmt == "cx2") return detail::import_cx2_file(*impl_, file, options);
        return detail::import_edge_list_file(*impl_, file, options);
      }));
    }
  // (files imported before with the same content and options change nothing: the snapshot and
  // its cache stay valid)
  if (std::any_of(report.files.begin(), report.files.end(), [](const FileReport &f) { return !f.already_imported; }))
    impl_->bump_generation();
  tx.commit();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace grappi
