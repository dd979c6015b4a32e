// grappi/extraction.hpp — from papers to a knowledge graph: each paragraph's entities grounded
// in the knowledge base, BEL statements extracted by a language model (or, offline, by a
// documented rule table), every statement validated (grammar, vocabulary, namespaces,
// grounded entities, evidence found in the paragraph), invalid ones repaired once or rejected
// with their reasons; written as JSON, a BEL script and CX2, and imported as a dataset.
#pragma once

#include "grappi/run_control.hpp"
#include "grappi/export.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/bel.hpp"
#include "grappi/documents.hpp"
#include "grappi/entities.hpp"
#include "grappi/knowledge_graph.hpp"
#include "grappi/llm.hpp"

namespace grappi {

/// Prompt templates of the extraction ({{name}} fields; docs/extract.md "Extraction"). The version is
/// part of every cache key.
struct GRAPPI_CXX_API ExtractionTemplates {
  std::string version;  ///< "extract-1-<hash>" built in, "custom-<hash>" after load
  std::string system;   ///< the system message (teaches the BEL subset)
  /// Per paragraph: {{paragraph}}, {{entities}} (the grounded entities with their BEL terms),
  /// {{namespaces}} (the namespaces allowed), {{pmid}}.
  std::string extract;
  /// The repair turn after statements the validator rejected: {{problems}} (each statement
  /// with the validator's messages).
  std::string repair;
  /// The built-in templates.
  static ExtractionTemplates defaults();
  /// Replaces the non-empty templates with files' contents, checks their fields
  /// (Error(invalid_argument) naming the file and field) and sets the version.
  void load(const std::string &system_file, const std::string &extract_file, const std::string &repair_file);
};

/// Options of Extractor.
/// RunControl for extraction: confirm_calls counts the paragraphs (each at least one call);
/// cancel is polled before each model request (the paragraphs not yet asked are "skipped");
/// progress reports "paragraphs" (done of their total, from the run's threads).
struct ExtractionOptions : RunControl {
  EntityTaggerOptions entities;  ///< how the dictionary is built
  /// Passages of these types are skipped (any case; "ref" also covers BioC's "REF"), as the
  /// reference tool does.
  std::vector<std::string> skip_sections = {"title", "ref", "front"};
  std::size_t min_passage_chars = 20;  ///< shorter passages are skipped
  /// The entities are the document's annotations only (the dictionary grounds them but adds no
  /// mentions of its own): the setting of the PPI corpora's evaluation, where the entities are given.
  bool annotations_only = false;
  bool repair = true;            ///< one repair turn for statements the validator rejects
  std::size_t concurrency = 4;   ///< paragraphs in flight
  /// Plan only: no model call; the result holds the calls (one per paragraph, plus the repair
  /// turns at most) and their prompt tokens.
  bool dry_run = false;
  ExtractionTemplates templates = ExtractionTemplates::defaults();  ///< the prompts
};

/// A paragraph as it was read, with its grounded entities.
struct ExtractionParagraph {
  std::string document;    ///< the document's id
  std::string pmid;        ///< its PubMed id, when known
  std::string pmcid;       ///< its PubMed Central id, when known
  std::string doi;         ///< its DOI, when known
  std::size_t passage = 0; ///< the passage's index in the document
  std::string section;     ///< the passage's type ("abstract", "INTRO", "paragraph", "sentence")
  std::string text;        ///< its text
  std::vector<EntityMention> entities;  ///< the mentions, by offset
  std::string status;      ///< "ok", "failed", "skipped" (budget), "planned" (dry run)
  std::string error;       ///< why it failed or was skipped
  bool cached = false;     ///< the answer came from the response cache
};

/// One statement extracted from a paragraph.
struct ExtractedStatement {
  std::size_t paragraph = 0;  ///< index into ExtractionResult::paragraphs
  std::string bel;            ///< as the model (or rule) wrote it
  /// The canonical form (HGNC symbols as ids when the database knows them); empty when rejected.
  std::string canonical;
  std::string evidence;       ///< the evidence sentence as given
  std::optional<std::size_t> evidence_offset;  ///< where the evidence starts in the paragraph, when found
  /// "valid" (imported), "flagged" (valid BEL with flags: not imported unless asked), "rejected"
  /// (the validator's errors; never imported).
  std::string status;
  /// Why a valid statement is flagged: "ungrounded:<NS:value>" (an entity that is not among the
  /// paragraph's grounded entities), "paraphrased_evidence" (not found in the paragraph),
  /// "no_evidence".
  std::vector<std::string> flags;
  std::vector<BelProblem> problems;  ///< the validator's errors and warnings
  /// "model", "repaired" (the model's repair turn fixed it), or "rule:<name>" (the offline rule table).
  std::string origin;
  std::string original;  ///< a repaired statement: the first, rejected version
  std::vector<std::string> original_problems;  ///< a repaired statement: the first version's errors
  std::vector<std::size_t> mentions;  ///< the paragraph's entities it names (indices)
  /// An earlier statement with the same canonical form (the first occurrence), if any.
  std::optional<std::size_t> duplicate_of;
  /// What was checked, each with its outcome: "grammar" (BEL syntax, functions and namespaces:
  /// "passed", "failed"), "grounding" (every entity among the paragraph's grounded ones:
  /// "passed", "failed"), "evidence" ("found" in the paragraph, "paraphrased", "missing"),
  /// "polarity" (a model's increases/decreases against the rule table's reading of the same
  /// pair in the paragraph: "agrees", "disagrees" - flagged -, "unchecked" when the rules read
  /// nothing of it; "by_rule" for the rule table's own statements, whose trigger word and
  /// clause give it).
  std::map<std::string, std::string> checks;
};

/// What an extraction did.
struct ExtractionResult {
  std::vector<ExtractionParagraph> paragraphs;  ///< the paragraphs read (skipped passages not included)
  std::vector<ExtractedStatement> statements;   ///< by paragraph, in answer order
  /// What each paper says about its names (EntityTagger::read_paper): its organism with the
  /// evidence, and the abbreviations it defines; in the order of the documents.
  std::vector<PaperContext> papers;
  std::size_t documents = 0;         ///< documents read
  std::size_t skipped_passages = 0;  ///< passages skipped by section or length
  StageUsage usage;                  ///< model use
  bool offline = false;  ///< the statements came from the rule table, not a language model
  bool dry_run = false;  ///< planned only
  std::size_t estimated_calls = 0;       ///< dry run: model calls (at most)
  int64_t estimated_prompt_tokens = 0;   ///< dry run: prompt tokens (at most)
  nlohmann::json model;          ///< the model's description
  std::string template_version;  ///< the templates used
  std::string budget;            ///< why a budget stopped the run; empty when none did
};

/// Extracts BEL statements from documents over one knowledge base (its dictionary and BEL
/// identifiers read once). extract() is thread-safe.
class GRAPPI_CXX_API Extractor {
 public:
  /// Builds the dictionary. Error(invalid_argument) for a zero concurrency.
  Extractor(KnowledgeGraph &kg, LanguageModel &model, ExtractionOptions options = {});
  /// The same with the run's model (RunControl::model; null: the offline default).
  explicit Extractor(KnowledgeGraph &kg, ExtractionOptions options = {});
  ~Extractor();
  Extractor(const Extractor &) = delete;
  Extractor &operator=(const Extractor &) = delete;
  /// Every paragraph of the documents: grounded, then asked (concurrently, through the response
  /// cache and the budgets), each answer validated and, when statements fail, repaired once.
  /// Never throws for a failing model: failures are recorded on the paragraph.
  ExtractionResult extract(const std::vector<Document> &documents) const;
  /// The tagger the paragraphs are grounded with.
  const EntityTagger &tagger() const;
  /// The options in force.
  const ExtractionOptions &options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// One extraction with a fresh Extractor.
GRAPPI_CXX_API ExtractionResult extract(KnowledgeGraph &kg, LanguageModel &model, const std::vector<Document> &documents,
                                        const ExtractionOptions &options = {});
/// The same with the run's model (RunControl::model; null: the offline default).
GRAPPI_CXX_API ExtractionResult extract(KnowledgeGraph &kg, const std::vector<Document> &documents,
                                        const ExtractionOptions &options = {});

/// The result as JSON (docs/extract.md "Extraction"): per paragraph its text, entities and statements.
GRAPPI_CXX_API nlohmann::json to_json(const ExtractionResult &result);
/// The valid statements (and the flagged ones when `flagged`) as a BEL script: one citation
/// and evidence per occurrence, grappi's provenance as annotations (Paragraph, ExtractedBy,
/// Template).
GRAPPI_CXX_API void write_bel_script(std::ostream &out, const ExtractionResult &result, bool flagged = false);
/// The valid statements (and the flagged ones when `flagged`) as a CX2 network in the layout of
/// textToKnowledgeGraph (nodes: name = BEL term, label, type = function, id = identifiers.org
/// URL; edges: interaction, bel_expression, text, evidence; the network's name, description
/// and reference) with grappi's provenance (pmid, paragraph, origin, model, template) and a
/// style (node shape by type, edge colour by relation). `name` names the network.
GRAPPI_CXX_API nlohmann::json to_cx2(const ExtractionResult &result, const std::string &name, bool flagged = false);
/// Imports the valid statements (and the flagged ones when `flagged`) into the knowledge base
/// as one BEL dataset, written first to `bel_path` (the dataset's file; removable again with
/// remove_dataset). Nothing to import: an Error(invalid_argument).
GRAPPI_CXX_API FileReport import_extraction(KnowledgeGraph &kg, const ExtractionResult &result, const std::string &bel_path,
                                            bool flagged = false);

/// Writes an extraction's whole result (every paragraph, entity, candidate and statement, the
/// model's use) to a file for merge_extractions() in another process (docs/distributed.md
/// "Extraction"), with `provenance` (a JSON object's text; empty: none). Written whole or not at
/// all. Error(invalid_argument) for bad provenance or statements out of paragraph order;
/// Error(io) when the file cannot be written.
GRAPPI_CXX_API void save_extraction(const ExtractionResult &result, const std::string &path, const std::string &provenance = "");
/// Reads what save_extraction() wrote (its provenance into *provenance when given).
/// Error(parse) naming the file (and line) for one that is not such a file, is truncated, or
/// does not hold together (a statement naming an entity its paragraph lacks, a chosen candidate
/// out of range, a duplicate of no earlier statement); Error(io) when it cannot be read.
GRAPPI_CXX_API ExtractionResult load_extraction(const std::string &path, std::string *provenance = nullptr);
/// The result of one extraction over every part's documents, in part order: paragraphs and
/// statements concatenated (each statement pointing at its paragraph), duplicates found again
/// across parts (a statement's first occurrence may be in an earlier part), documents, skipped
/// passages and model use summed (seconds too: the parts' total), budgets' reasons kept by part.
/// Error(invalid_argument) for parts of another model or other templates than the first.
GRAPPI_CXX_API ExtractionResult merge_extractions(std::vector<ExtractionResult> parts);
/// Where `grappi extract --import` stores an extraction's statements when not told: next to the
/// database, named by the BEL script's content ("<database>.extract-<hash>.bel"), so that the
/// same statements, however they were extracted, import once.
GRAPPI_CXX_API std::string extraction_dataset_path(const std::string &database, const ExtractionResult &result,
                                                   bool flagged = false);

/// One row of a review file: a statement with the curator's decision.
struct ReviewRow {
  uint64_t line = 0;       ///< its line in the file
  std::string decision;    ///< "accept", "reject" or empty (undecided)
  std::string status;      ///< the extraction's status ("valid", "flagged", "rejected")
  std::string statement;   ///< the statement (canonical; as written when rejected)
  std::string evidence;    ///< its evidence sentence (tabs and line breaks as blanks)
  std::string citation;    ///< "PMID:n", "doi:…", a PMCID or the document id
  std::string paragraph;   ///< document#passage
  std::string flags;       ///< its flags, joined by ", "
  std::string checks;      ///< its checks, "name=outcome" joined by ", "
};

/// A review file for a curator (tab-separated, UTF-8): a comment line, a header (`decision
/// status statement evidence citation paragraph flags checks`) and one row per distinct
/// statement; `decision` is `accept` for valid statements, `reject` for rejected ones and
/// empty for flagged ones, for the curator to change. import_review imports the accepted ones.
GRAPPI_CXX_API void write_review(std::ostream &out, const ExtractionResult &result);
/// Reads a review file. Error(parse) naming the file and line for a missing or different
/// header, a row of another number of columns, a decision other than accept, reject or empty,
/// invalid UTF-8; Error(io) when it cannot be read.
GRAPPI_CXX_API std::vector<ReviewRow> read_review(const std::string &path);
/// Imports the statements a review file accepts as one BEL dataset (written first to
/// `bel_path`: a BEL 2.1 document with each statement's citation, evidence and paragraph, and
/// `SET ReviewedIn` = the review file's name). An accepted statement that is not valid BEL is an
/// Error(parse) naming its line; none accepted, Error(invalid_argument); nothing is imported
/// then.
GRAPPI_CXX_API FileReport import_review(KnowledgeGraph &kg, const std::string &review_path, const std::string &bel_path);

/// One way of predicting pairs, against the gold pairs.
struct PairScore {
  std::size_t predicted_pairs = 0; ///< distinct predicted pairs
  std::size_t true_positives = 0;  ///< predicted pairs that are gold
  double precision = 0;            ///< true_positives / predicted_pairs
  double recall = 0;               ///< true_positives / gold_pairs
  double f1 = 0;                   ///< their harmonic mean
};

/// Pair-level figures of an extraction against the interacting pairs a corpus marks
/// (Document::pairs): per paragraph (sentence), the unordered pairs of entity mentions that a
/// statement names, against the gold pairs of the same sentence; those of every statement
/// (valid and flagged), of the valid ones only, and of the co-occurrence baseline.
struct ExtractionEvaluation {
  std::size_t documents = 0;       ///< documents evaluated
  std::size_t sentences = 0;       ///< paragraphs (sentences) evaluated
  std::size_t gold_pairs = 0;      ///< distinct gold pairs
  std::size_t predicted_pairs = 0; ///< distinct predicted pairs (of `pairs`)
  std::size_t true_positives = 0;  ///< predicted pairs that are gold (of `pairs`)
  double precision = 0;            ///< of `pairs`
  double recall = 0;               ///< of `pairs`
  double f1 = 0;                   ///< of `pairs`
  /// The pairs every statement names (valid and flagged: `extract --include-flagged`).
  PairScore pairs;
  /// The pairs valid statements name: what `extract` writes by default.
  PairScore valid_pairs;
  /// The baseline: every pair of the corpus's entities within a sentence evaluated.
  PairScore cooccurrence;
  /// The baseline of valid_pairs: every pair of the entities the extraction grounded (a node
  /// chosen for each) within a sentence evaluated - what co-occurrence gives under the same
  /// condition a valid statement meets.
  PairScore grounded_cooccurrence;
  std::size_t statements = 0;      ///< statements extracted
  std::size_t rejected = 0;        ///< of them rejected by the validator
  std::size_t flagged = 0;         ///< of them flagged
};

/// Compares an extraction of `documents` (Extractor::extract with annotations_only) with the
/// documents' gold pairs.
GRAPPI_CXX_API ExtractionEvaluation evaluate_extraction(const ExtractionResult &result,
                                                        const std::vector<Document> &documents);
/// The figures as JSON.
GRAPPI_CXX_API nlohmann::json to_json(const ExtractionEvaluation &evaluation);

/// How statements another tool extracted fare under grappi's validator: the BEL expressions of
/// a CX2 network's edges (textToKnowledgeGraph's layout, `bel_expression`).
struct BelAudit {
  std::string path;              ///< the file
  std::size_t statements = 0;    ///< edges with a BEL expression
  std::size_t valid = 0;         ///< of them valid
  std::size_t rejected = 0;      ///< of them with errors
  std::size_t with_warnings = 0; ///< valid ones with warnings
  std::map<std::string, std::size_t> errors;    ///< rejected statements by the code of their first error
  std::map<std::string, std::size_t> warnings;  ///< warnings by code (every warning counted)
  /// Up to three examples per error code: the statement and the validator's message.
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> examples;
};

/// Validates every edge's `bel_expression` of a CX2 (or CX1) file. Error(parse) naming the
/// file when it is not CX, Error(io) when it cannot be read.
GRAPPI_CXX_API BelAudit audit_bel_cx2(const std::string &path, const BelOptions &options = {});
/// The audit as JSON.
GRAPPI_CXX_API nlohmann::json to_json(const BelAudit &audit);

}  // namespace grappi
