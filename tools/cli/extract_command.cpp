// grappi extract: BEL statements from papers, validated and grounded, written as JSON, a BEL
// script and CX2, and imported on request; grappi eval extraction: pair-level figures on the
// PPI corpora and an audit of another tool's BEL (grappi/extraction.hpp).
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

struct ExtractArgs {
  std::string db, format = "detect", document, json, bel, cx2, html, name, review, apply_review, partial;
  std::vector<std::string> texts, biocs, corpora, references, from_parts;
  std::string system_template, extract_template, repair_template;
  ExtractionOptions o;
  ChatArgs m;  // the model
  BudgetArgs budget;
  bool no_repair = false, import = false, flagged = false, quiet = false;
};

std::vector<Document> read_inputs(const ExtractArgs &a, const char *what) {
  std::vector<Document> docs;
  const auto read = [&](const std::vector<std::string> &files, DocumentFormat fallback) {
    for (const std::string &f : files) {
      if (!std::ifstream(f)) throw Error(ErrorCode::io, std::string(what) + ": cannot read '" + f + "'");
      const DocumentFormat format = a.format == "detect" ? fallback : document_format(a.format);
      for (Document &d : read_documents(f, format))
        if (a.document.empty() || d.id == a.document || d.pmid == a.document || d.pmcid == a.document)
          docs.push_back(std::move(d));
    }
  };
  read(a.texts, DocumentFormat::detect);
  read(a.biocs, DocumentFormat::detect);
  read(a.corpora, DocumentFormat::detect);
  if (a.texts.empty() && a.biocs.empty() && a.corpora.empty())
    throw Error(ErrorCode::invalid_argument, std::string(what) + ": give the papers with --text, --bioc or --corpus");
  if (docs.empty())
    throw Error(ErrorCode::not_found, std::string(what) + ": no document" +
                                          (a.document.empty() ? std::string() : " " + a.document) + " in the input");
  return docs;
}

ExtractionOptions options_of(const ExtractArgs &a) {
  ExtractionOptions o = a.o;
  a.budget.apply(o.use_cache, o.confirm_calls);
  o.repair = !a.no_repair;
  o.templates.load(a.system_template, a.extract_template, a.repair_template);
  return o;
}

void print_counts(const nlohmann::json &j) {
  const nlohmann::json &c = j["counts"];
  std::cout << j["documents"].get<std::size_t>() << " document(s), " << c["paragraphs"].get<std::size_t>() << " paragraph(s) ("
            << j["skipped_passages"].get<std::size_t>() << " passage(s) skipped), " << c["grounded_entities"].get<std::size_t>()
            << " of " << c["entities"].get<std::size_t>() << " entity mention(s) grounded\n"
            << c["statements"].get<std::size_t>() << " statement(s): " << c["valid"].get<std::size_t>() << " valid, "
            << c["flagged"].get<std::size_t>() << " flagged, " << c["rejected"].get<std::size_t>() << " rejected, "
            << c["repaired"].get<std::size_t>() << " repaired, " << c["duplicates"].get<std::size_t>() << " duplicate(s)\n";
}

// --apply-review: the statements a curator accepted, imported as a BEL dataset.
void apply_review(ExtractArgs &a) {
  if (a.db.empty()) throw Error(ErrorCode::invalid_argument, "extract --apply-review needs --db FILE");
  if (!a.texts.empty() || !a.biocs.empty() || !a.corpora.empty())
    throw Error(ErrorCode::invalid_argument, "extract --apply-review imports a review file: give no papers with it");
  if (!std::ifstream(a.apply_review)) throw Error(ErrorCode::io, "extract: cannot read '" + a.apply_review + "'");
  KnowledgeGraph g = open_graph(a.db, Access::write);
  const std::string bel = a.bel.empty() || a.bel == "-" ? a.apply_review + ".accepted.bel" : a.bel;
  const FileReport f = import_review(g, a.apply_review, bel);
  if (a.quiet) return;
  std::cout << "imported the accepted statements of " << a.apply_review << " as dataset " << f.dataset_id
            << (f.already_imported ? " (already imported)" : "") << " from " << f.path << ": " << f.edges_created
            << " new edge(s), " << f.nodes_created << " new node(s)\n";
}

// --partial: this part's whole result written for --from-parts (the database only read).
void write_partial(ExtractArgs &a) {
  const std::vector<Document> docs = read_inputs(a, "extract");
  auto model = chat_model_of(a.m, a.o.concurrency, "extract");
  KnowledgeGraph g = open_graph(a.db, Access::read);
  const ExtractionResult r = Extractor(g, *model, options_of(a)).extract(docs);
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto *list : {&a.texts, &a.biocs, &a.corpora})
    for (const std::string &f : *list) inputs.push_back(f);
  save_extraction(r, a.partial, dump_json({{"files", inputs}, {"database", a.db}}));
  if (a.quiet || a.json == "-") return;
  print_counts(to_json(r));
  std::cout << "written to " << a.partial << " (grappi extract --from-parts takes it in)\n";
}

// The parts of --from-parts, merged in the order given.
ExtractionResult merged_parts(const ExtractArgs &a) {
  if (!a.texts.empty() || !a.biocs.empty() || !a.corpora.empty())
    throw Error(ErrorCode::invalid_argument, "extract --from-parts merges parts: give no papers with it");
  std::vector<ExtractionResult> parts;
  for (const std::string &f : a.from_parts) parts.push_back(load_extraction(f));
  return merge_extractions(std::move(parts));
}

void run(ExtractArgs &a) {
  if (!a.apply_review.empty()) return apply_review(a);
  if (!a.partial.empty()) return write_partial(a);
  KnowledgeGraph g = open_graph(a.db, Access::write);  // (an existing database: its names are the dictionary)
  std::vector<Document> docs;
  std::shared_ptr<LanguageModel> model;
  ExtractionResult r;
  if (a.from_parts.empty()) {
    docs = read_inputs(a, "extract");
    model = chat_model_of(a.m, a.o.concurrency, "extract");
    r = Extractor(g, *model, options_of(a)).extract(docs);
  } else {
    r = merged_parts(a);
  }
  const nlohmann::json j = to_json(r);
  if (!a.json.empty()) write_output(a.json, dump_json(j, 2) + "\n");
  if (r.dry_run) {
    if (!a.quiet && a.json != "-")
      std::cout << "dry run: " << r.paragraphs.size() << " paragraph(s); at most " << r.estimated_calls
                << " model calls and about " << r.estimated_prompt_tokens << " prompt tokens"
                << (r.offline ? " (the offline extractor is rule-based, not a language model: it would answer them locally)" : "")
                << "; nothing was sent\n";
    return;
  }
  if (!a.bel.empty()) {
    std::ostringstream s;
    write_bel_script(s, r, a.flagged);
    write_output(a.bel, s.str());
  }
  if (!a.cx2.empty()) {
    std::string name = a.name;
    if (name.empty()) {
      const std::string &first = !a.texts.empty()    ? a.texts[0]
                                 : !a.biocs.empty()   ? a.biocs[0]
                                 : !a.corpora.empty() ? a.corpora[0]
                                                      : a.from_parts.at(0);
      name = "grappi extract: " + std::filesystem::path(first).filename().string();
    }
    write_output(a.cx2, dump_json(to_cx2(r, name, a.flagged)) + "\n");
  }
  if (!a.html.empty()) write_output(a.html, to_html(r));
  if (!a.review.empty()) {
    std::ostringstream s;
    write_review(s, r);
    write_output(a.review, s.str());
  }
  std::optional<FileReport> imported;
  std::optional<ImportReport> papers;
  if (a.import) {
    // (default: next to the database, named by the content: the same extraction imports as the same dataset)
    const std::string path = a.bel.empty() || a.bel == "-" ? extraction_dataset_path(a.db, r, a.flagged) : a.bel;
    imported = import_extraction(g, r, path, a.flagged);
    // The papers themselves, stored and searchable beside their statements (grappi papers).
    std::vector<SourceFile> files;
    for (const auto *list : {&a.texts, &a.biocs, &a.corpora})
      for (const std::string &f : *list) files.push_back({f, a.format == "detect" ? "corpus" : "corpus:" + a.format});
    if (!files.empty()) papers = g.import(files);  // (none with --from-parts: the parts' papers are imported apart)
  }
  if (a.quiet || a.json == "-" || a.bel == "-" || a.cx2 == "-" || a.html == "-" || a.review == "-") return;
  print_counts(j);
  std::vector<std::vector<std::string>> rows;
  for (const ExtractedStatement &s : r.statements) {
    if (s.duplicate_of || (s.status == "rejected" && rows.size() >= 40)) continue;
    const ExtractionParagraph &p = r.paragraphs[s.paragraph];
    std::string note = s.status;
    if (!s.flags.empty()) note += " (" + s.flags[0] + (s.flags.size() > 1 ? ", ..." : "") + ")";
    if (s.status == "rejected") {
      for (const BelProblem &b : s.problems)
        if (b.severity == BelProblem::Severity::error) {
          note += ": " + b.code;
          break;
        }
    }
    rows.push_back({s.canonical.empty() ? s.bel : s.canonical, note, p.pmid.empty() ? p.document : p.pmid, s.origin});
    if (rows.size() == 40) break;
  }
  if (!rows.empty()) print_table({"statement", "status", "pmid", "origin"}, rows);
  if (r.statements.size() > rows.size()) std::cout << "(" << r.statements.size() - rows.size() << " more in --json)\n";
  if (!r.budget.empty()) std::cout << "budget: " << r.budget << "\n";
  const StageUsage &u = r.usage;
  std::cout << "model calls: " << u.model_calls << ", cache hits: " << u.cache_hits << ", repairs: " << u.repairs
            << ", failed paragraphs: " << u.failed << ", skipped: " << u.skipped << "\n";
  if (imported)
    std::cout << "imported as dataset " << imported->dataset_id << (imported->already_imported ? " (already imported)" : "")
              << " from " << imported->path << ": " << imported->edges_created << " new edge(s), " << imported->nodes_created
              << " new node(s)\n";
  if (papers)
    for (const FileReport &f : papers->files)
      std::cout << "papers of " << f.path << ": dataset " << f.dataset_id
                << (f.already_imported ? " (already imported)" : ", " + std::to_string(f.lines) + " document(s) stored")
                << "\n";
  if (r.offline) std::cout << "(rule-based extraction, not a language model: see docs/extract.md \"Extraction\")\n";
}

void run_eval(ExtractArgs &a) {
  nlohmann::json out = nlohmann::json::object();
  if (!a.corpora.empty() || !a.texts.empty() || !a.biocs.empty()) {
    if (a.db.empty()) throw Error(ErrorCode::invalid_argument, "eval extraction: --corpus needs --db FILE");
    const std::vector<Document> docs = read_inputs(a, "eval extraction");
    auto model = chat_model_of(a.m, a.o.concurrency, "eval extraction");
    KnowledgeGraph g = open_graph(a.db, Access::write);
    ExtractionOptions o = options_of(a);
    o.annotations_only = true;
    const Extractor extractor(g, *model, o);
    const ExtractionResult r = extractor.extract(docs);
    const ExtractionEvaluation ev = evaluate_extraction(r, docs);
    out["pairs"] = to_json(ev);
    out["model"] = r.model;
    out["offline"] = r.offline;
    if (!a.quiet && a.json != "-") {
      std::cout << ev.documents << " document(s), " << ev.sentences << " sentence(s), " << ev.gold_pairs << " gold pair(s); "
                << ev.statements << " statement(s): " << ev.rejected << " rejected, " << ev.flagged << " flagged\n";
      std::vector<std::vector<std::string>> rows;
      for (const auto &[name, sc] : std::vector<std::pair<std::string, PairScore>>{
               {"valid statements (the default output)", ev.valid_pairs},
               {"valid and flagged statements", ev.pairs},
               {"baseline: every co-occurring pair", ev.cooccurrence},
               {"baseline: every co-occurring pair of grounded entities", ev.grounded_cooccurrence}})
        rows.push_back({name, std::to_string(sc.predicted_pairs), fmt(sc.precision), fmt(sc.recall), fmt(sc.f1)});
      print_table({"pairs of", "predicted", "precision", "recall", "F1"}, rows);
      if (r.offline) std::cout << "(rule-based extraction, not a language model)\n";
    }
  }
  if (!a.references.empty()) {
    BelOptions bo;
    nlohmann::json audits = nlohmann::json::array();
    std::vector<std::vector<std::string>> rows;
    for (const std::string &f : a.references) {
      const BelAudit audit = audit_bel_cx2(f, bo);
      audits.push_back(to_json(audit));
      std::string reasons;
      for (const auto &[code, n] : audit.errors) reasons += (reasons.empty() ? "" : ", ") + code + " " + std::to_string(n);
      rows.push_back({std::filesystem::path(f).filename().string(), std::to_string(audit.statements), std::to_string(audit.valid),
                      std::to_string(audit.rejected), reasons});
    }
    out["references"] = std::move(audits);
    if (!a.quiet && a.json != "-") print_table({"network", "statements", "valid", "rejected", "rejected by reason"}, rows);
  }
  if (out.empty())
    throw Error(ErrorCode::invalid_argument, "eval extraction: give a corpus (--corpus) or networks to audit (--reference)");
  if (!a.json.empty()) write_output(a.json, dump_json(out, 2) + "\n");
}

void add_model_flags(CLI::App *c, ExtractArgs &a) {
  auto &o = a.o;
  c->add_option("--format", a.format, "Force the input format: detect, text, pubtator, bioc-xml, bioc-json, ppi-xml, jsonl");
  c->add_option("--document", a.document, "Only this document of the input (id, PubMed id or PMC id)");
  add_chat_flags(c, a.m, "the rule table, not a language model");
  c->add_option("--concurrency", o.concurrency, "Paragraphs in flight")->check(CLI::Range(1, 64));
  add_budget_flags(c, a.budget, o.max_calls, &o.max_tokens, "of the run");
  c->add_flag("--no-repair", a.no_repair, "No repair turn for statements the validator rejects");
  c->add_option("--taxon", o.entities.taxon, "The papers' organism (NCBI taxon), over what their texts and species annotations say");
  c->add_option("--stop-word", o.entities.stop_words, "A word never taken for an entity (repeatable)");
  c->add_option("--min-passage-chars", o.min_passage_chars, "Shorter passages are skipped");
  c->add_option("--system-template", a.system_template, "File replacing the system prompt");
  c->add_option("--extract-template", a.extract_template, "File replacing the paragraph prompt");
  c->add_option("--repair-template", a.repair_template, "File replacing the repair prompt");
  add_output_flags(c, a.json, a.quiet, "the result");
}

}  // namespace

void add_extract(CLI::App &app) {
  auto a = std::make_shared<ExtractArgs>();
  auto *c = app.add_subcommand("extract", "BEL statements from papers: entities grounded in the database, every statement "
                                          "validated, written as JSON, BEL and CX2, imported on request");
  add_db_option(c, a->db);
  c->add_option("--text", a->texts, "A paper as plain text or Markdown (repeatable)");
  c->add_option("--bioc", a->biocs, "PubTator/BioC passages: BioC XML or JSON (repeatable)");
  c->add_option("--corpus", a->corpora, "A corpus: PubTator, BioC or the PPI corpora's XML (repeatable)");
  add_model_flags(c, *a);
  c->add_flag("--annotations-only", a->o.annotations_only, "The input's own annotations are the entities (the dictionary "
                                                           "grounds them but adds none)");
  c->add_option("--bel", a->bel, "Write the valid statements as a BEL script");
  c->add_option("--cx2", a->cx2, "Write the valid statements as CX2 for Cytoscape and NDEx");
  c->add_option("--html", a->html,
                "Write a self-contained HTML report (the statements' network drawn, every statement with its checks)");
  c->add_option("--name", a->name, "The CX2 network's name");
  c->add_option("--review", a->review, "Write a review file for a curator: every statement with a decision "
                                       "(accept, reject or empty) to change");
  c->add_option("--apply-review", a->apply_review, "Import the statements a review file accepts as a BEL dataset "
                                                   "(written to --bel, else next to the review file); no papers");
  c->add_flag("--import", a->import, "Import the valid statements into the database as a BEL dataset (written to --bel, "
                                     "or next to the database), and the papers as a dataset of their own (grappi papers)");
  c->add_flag("--include-flagged", a->flagged, "Also write and import flagged statements (ungrounded entities, "
                                               "paraphrased evidence)");
  c->add_flag("--dry-run", a->o.dry_run, "Print the most model calls and prompt tokens it could take; send nothing");
  c->add_option("--partial", a->partial, "Write this part's whole result to this file for --from-parts instead of any "
                                         "other output (the database is only read; docs/distributed.md)")
      ->excludes("--import")
      ->excludes("--apply-review");
  c->add_option("--from-parts", a->from_parts, "Merge these --partial files, in order, instead of reading papers; the "
                                               "outputs are then the merged extraction's (repeatable)")
      ->excludes("--partial")
      ->excludes("--apply-review");
  c->callback([a] { run(*a); });
}

void add_eval_extraction(CLI::App &eval) {
  auto a = std::make_shared<ExtractArgs>();
  auto *c = eval.add_subcommand("extraction", "Extraction against the PPI corpora's gold pairs (precision, recall, F1), "
                                              "and an audit of another tool's BEL networks");
  c->add_option("--db", a->db, "Database file (its names ground the corpus's entities; needed with --corpus)");
  c->add_option("--corpus", a->corpora, "A corpus with gold pairs: AIMed, BioInfer or HPRD50 XML (repeatable)");
  c->add_option("--reference", a->references, "A CX2 network another tool extracted: its BEL validated (repeatable)");
  add_model_flags(c, *a);
  c->callback([a] { run_eval(*a); });
}

}  // namespace grappi::cli
