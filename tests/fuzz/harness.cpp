// The fuzz targets' bodies (harness.hpp).
#include "harness.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string_view>

#include "answer_impl.hpp"
#include "grappi/grappi.hpp"

namespace grappi_fuzz {

namespace {

[[noreturn]] void broken(const std::string &what) {
  std::fprintf(stderr, "grappi fuzz: invariant broken: %s\n", what.c_str());
  std::abort();
}

// A directory for the input files of this process (the importers read files, as users give them).
const std::string &scratch() {
  static const std::string dir = [] {
    char tmpl[] = "/tmp/grappi_fuzz_XXXXXX";
    if (!mkdtemp(tmpl)) std::abort();
    return std::string(tmpl);
  }();
  return dir;
}

// Imports the input as a file of `format` into a fresh in-memory database, through the real
// transaction path; a refused input must leave the database as it was.
void import_as(const char *format, const char *file_name, std::string_view input) {
  const std::string path = scratch() + "/" + file_name;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(input.data(), static_cast<std::streamsize>(input.size()));
  }
  grappi::OpenOptions o;
  o.snapshot_cache = false;
  o.cache_mib = 8;
  grappi::KnowledgeGraph kg(":memory:", o);
  grappi::ImportOptions io;
  io.edges.score_column = "3";
  try {
    const grappi::ImportReport r = kg.import({{path, format}}, io);
    (void)grappi::dump_json(grappi::to_json(r));  // the report is always writable
    const grappi::GraphStats s = kg.stats();
    if (s.nodes < 0 || s.edges < 0) broken("negative counts after an import");
  } catch (const grappi::Error &) {
    const grappi::GraphStats s = kg.stats();
    if (s.nodes != 0 || s.edges != 0 || s.aliases != 0 || !s.datasets.empty())
      broken(std::string("a refused ") + format + " import changed the database");
  }
}

void documents_as(grappi::DocumentFormat format, std::string_view input) {
  try {
    const auto docs = grappi::parse_documents(input, format, "fuzz");
    for (const auto &d : docs)
      for (const auto &p : d.passages)
        for (const auto &a : p.annotations)
          if (a.offset > p.text.size() || a.length > p.text.size() - a.offset) broken("a mention outside its passage");
  } catch (const grappi::Error &) {
  }
}

using Body = std::function<void(std::string_view)>;

const std::map<std::string, Body> &bodies() {
  static const std::map<std::string, Body> b = {
      {"import_string_info", [](std::string_view s) { import_as("info", "9606.protein.info.v12.0.txt", s); }},
      {"import_string_aliases", [](std::string_view s) { import_as("aliases", "9606.protein.aliases.v12.0.txt", s); }},
      {"import_string_links", [](std::string_view s) { import_as("detailed", "9606.protein.links.detailed.v12.0.txt", s); }},
      {"import_string_actions", [](std::string_view s) { import_as("actions", "9606.protein.actions.v12.0.txt", s); }},
      {"import_string_export", [](std::string_view s) { import_as("export", "string_interactions.tsv", s); }},
      {"import_detect", [](std::string_view s) { import_as("detect", "input.txt", s); }},
      {"import_obo", [](std::string_view s) { import_as("obo", "input.obo", s); }},
      {"import_mitab", [](std::string_view s) { import_as("mitab", "input.mitab27.tsv", s); }},
      {"import_bel", [](std::string_view s) { import_as("bel", "input.bel", s); }},
      {"import_cx2", [](std::string_view s) { import_as("cx2", "input.cx2", s); }},
      {"import_jsonl", [](std::string_view s) { import_as("jsonl", "input.jsonl", s); }},
      {"import_edges", [](std::string_view s) { import_as("edges", "input.tsv", s); }},
      {"documents_text", [](std::string_view s) { documents_as(grappi::DocumentFormat::text, s); }},
      {"documents_pubtator", [](std::string_view s) { documents_as(grappi::DocumentFormat::pubtator, s); }},
      {"documents_bioc_xml", [](std::string_view s) { documents_as(grappi::DocumentFormat::bioc_xml, s); }},
      {"documents_bioc_json", [](std::string_view s) { documents_as(grappi::DocumentFormat::bioc_json, s); }},
      {"documents_ppi_xml", [](std::string_view s) { documents_as(grappi::DocumentFormat::ppi_xml, s); }},
      {"documents_jsonl", [](std::string_view s) { documents_as(grappi::DocumentFormat::jsonl, s); }},
      {"bel_script",
       [](std::string_view s) {
         std::istringstream in{std::string(s)};
         const grappi::BelDocument doc = grappi::read_bel_script(in);
         (void)grappi::dump_json(grappi::to_json(doc, false));
       }},
      {"qa_questions",
       [](std::string_view s) {
         try {
           (void)grappi::parse_qa_questions(s, "fuzz");
         } catch (const grappi::Error &) {
         }
       }},
      {"model_path_answer",
       [](std::string_view s) {
         const grappi::PathAnswer p = grappi::parse_path_answer(s);
         if (p.ok && !(p.relevance_score >= 0 && p.relevance_score <= 100)) broken("a parsed score outside [0, 100]");
         (void)grappi::parse_edge_answer(s);
       }},
      {"model_ask_answer",
       [](std::string_view s) {
         const grappi::detail::ParsedAnswer a = grappi::detail::parse_answer(s);
         if (a.ok && a.sentences.empty()) broken("an answer parsed into no sentence");
       }},
  };
  return b;
}

}  // namespace

const std::vector<std::string> &targets() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto &[name, body] : bodies()) n.push_back(name);
    return n;
  }();
  return names;
}

bool run(const std::string &target, const uint8_t *data, std::size_t size) {
  const auto it = bodies().find(target);
  if (it == bodies().end()) return false;
  it->second(std::string_view(reinterpret_cast<const char *>(data), size));
  return true;
}

}  // namespace grappi_fuzz
