// grappi bel validate: BEL statements and scripts checked against BEL 2.1 (grappi/bel.hpp).
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct BelArgs {
  std::vector<std::string> files;
  std::vector<std::string> statements;
  std::string db;
  bool json = false, canonical = false, long_form = false, allow_unknown = false, quiet = false;
};

BelDocument read_document(const std::string &file, const BelOptions &options) {
  if (file == "-") return read_bel_script(std::cin, options);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(ErrorCode::io, "bel validate: cannot open " + file);
  return read_bel_script(in, options);
}

void run_validate(const BelArgs &a) {
  if (a.files.empty() && a.statements.empty())
    throw Error(ErrorCode::invalid_argument, "bel validate: give a FILE (or - for standard input) or -e STATEMENT");
  BelOptions options;
  options.long_form = a.long_form;
  options.unknown_namespace_is_error = !a.allow_unknown;
  if (!a.db.empty()) options.resolver = open_graph(a.db, Access::read).bel_resolver();
  std::vector<std::pair<std::string, BelDocument>> docs;
  for (const std::string &f : a.files) docs.emplace_back(f, read_document(f, options));
  if (!a.statements.empty()) {
    std::string joined;
    for (const std::string &s : a.statements) joined += s + "\n";
    std::istringstream in(joined);
    docs.emplace_back("-e", read_bel_script(in, options));
  }
  std::size_t errors = 0;
  if (a.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto &[name, doc] : docs) {
      nlohmann::json j = to_json(doc, a.long_form);
      j["file"] = name;
      out.push_back(std::move(j));
      errors += doc.errors();
    }
    std::cout << dump_json((out.size() == 1 ? out[0] : out), 2) << '\n';
  } else {
    std::ostream &report = a.canonical ? std::cerr : std::cout;
    for (const auto &[name, doc] : docs) {
      errors += doc.errors();
      if (a.canonical)
        for (const BelScriptStatement &s : doc.statements)
          if (s.result.valid()) std::cout << s.result.canonical << '\n';
      for (const BelScriptProblem &p : doc.problems) {
        if (a.quiet && p.problem.severity == BelProblem::Severity::warning) continue;
        report << name << ':' << p.line << ':' << p.column << ": " << to_string(p.problem.severity) << ": "
               << p.problem.message << " [" << p.problem.code << "]\n";
      }
      std::size_t warnings = doc.problems.size() - doc.errors();
      report << name << ": " << doc.statements.size() << " statements, " << doc.valid_statements() << " valid, "
             << doc.statements.size() - doc.valid_statements() << " with errors; " << doc.errors() << " errors, "
             << warnings << " warnings";
      // (PyBEL's warning on statements a SET Citation left without the evidence before it)
      if (doc.evidence_cleared)
        report << "; " << doc.evidence_cleared << " statement(s) without evidence: a SET Citation cleared the SET Evidence before it";
      if (doc.chained)
        report << "; " << doc.chained << " line(s) chaining relations read as one statement per relation";
      report << '\n';
    }
  }
  if (errors > 0) throw ExitStatus{kExitFailure};
}

}  // namespace

void add_bel(CLI::App &app) {
  auto *bel = app.add_subcommand("bel", "BEL 2.1: validate statements and scripts, print their canonical form");
  bel->require_subcommand(1);
  auto a = std::make_shared<BelArgs>();
  auto *c = bel->add_subcommand("validate", "Check BEL statements (a BEL script or one statement per line); exit 1 on any error");
  c->add_option("file", a->files, "BEL script or statement list, plain text; - reads standard input");
  c->add_option("-e,--statement", a->statements, "A statement to check (repeatable)");
  c->add_option("--db", a->db,
                 "Knowledge base whose identifiers the canonical form uses: HGNC symbols and ids, ontology term "
                 "names and ids, written NS:id ! label");
  c->add_flag("--json", a->json, "Print JSON: every problem and every statement with its canonical form and context");
  c->add_flag("--canonical", a->canonical, "Print the canonical form of every valid statement (problems go to standard error)");
  c->add_flag("--long", a->long_form, "Canonical form with long function names (proteinAbundance instead of p)");
  c->add_flag("--allow-unknown-namespaces", a->allow_unknown, "Unknown namespaces are warnings, not errors");
  c->add_flag("--quiet", a->quiet, "Do not print warnings");
  c->callback([a] { run_validate(*a); });
}

}  // namespace grappi::cli
