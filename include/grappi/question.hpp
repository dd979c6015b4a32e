// grappi/question.hpp — what a question asks: the knowledge base's entities it names (linked by the dictionary tagger
// over the database's names and aliases, in any case, tolerant of punctuation, hyphens and Greek letters, yeast's
// "Cdc28p", systematic names and ids) and its intent (partners of X; what connects A and B; paths between A and B; X's
// partners of a class or topic; or an open question), recognised by rules, or by a language model for what the rules
// leave open. ask() retrieves and ranks for the intent (docs: docs/ask.md "Questions").
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "grappi/export.h"
#include "grappi/knowledge_graph.hpp"

namespace grappi {

/// An entity of the knowledge base a question names.
struct QuestionEntity {
  int64_t node = 0;        ///< its node
  std::string id;          ///< its external id
  std::string name;        ///< its preferred name
  std::string label;       ///< its label ("Protein", ...)
  std::string text;        ///< the question's words that name it, as written
  std::size_t offset = 0;  ///< where they start in the question, in bytes
  std::size_t length = 0;  ///< their length in bytes
  /// "unique" (one node has the name), "resolved" (several; see resolution), "ambiguous" (several and none preferred:
  /// the best-ranked is used, the others are in alternatives), "id" (an identifier: a STRING, UniProt, Entrez or
  /// database id).
  std::string status;
  /// How an ambiguous name was resolved: "organism" (the question's organism, else the database's dominant one),
  /// "context" (edges to the question's other entities), "as_written" (the stored name as the question writes it,
  /// not only through the tolerant key), "preferred_name"; empty otherwise.
  std::string resolution;
  std::vector<std::string> alternatives;  ///< ambiguous: the other candidates' external ids
  /// A protein of a family or complex.
  struct Member {
    int64_t node = 0;  ///< its node
    std::string id;    ///< its external id
    std::string name;  ///< its preferred name
  };
  /// A protein family or complex (FamPlex's: label "ProteinFamily" or "ProteinComplex"): the
  /// proteins of the database it holds, through its sub-families; a question about it is
  /// answered over them. Empty for any other entity.
  std::vector<Member> members;
};

/// A question read as three independent parts (docs/ask.md "Question forms"): the form of the answer it wants, the
/// relation it asks about, and the filters on the answers. ask() answers every frame it can (AskResult::answer) and
/// says which it cannot ("unsupported", with the reason).
struct QuestionFrame {
  /// The answer's form: "list" (entities, ranked), "yes_no" (whether two entities interact), "count" (how many
  /// partners), "path" (how one entity reaches another), "enrichment" (the GO terms enriched among one entity's
  /// partners or the entities named), "modules" (the clusters of a network: the whole one, one imported dataset's,
  /// an entity's partners', or the entities named) or "unsupported" (no rule reads what the question asks: see
  /// reason).
  std::string form = "unsupported";
  /// What is asked about the entities: "partners" (X's interaction partners), "common" (the partners every entity
  /// named shares), "paths" (the routes from one entity to another), "interaction" (whether two entities interact),
  /// "class" (partners of a class: "kinases"), "topic" (partners of a process or place: "DNA repair"), "function"
  /// (what X does: its GO terms and its annotation), "set" (the entities named, for an enrichment or modules),
  /// "network" (the whole network, for modules), "dataset" (the network one imported dataset holds: `network`);
  /// empty: none read, or the form is unsupported.
  std::string relation;
  /// The word naming the network a modules question asks about ("the NSCLC network": "nsclc"), matched against the
  /// imported datasets' file paths; empty for any other question.
  std::string network;
  /// A class or topic the answers must not be ("Which partners of FAR1 are not kinases?": "kinases"; "non-kinase
  /// partners": "kinase"); empty: none.
  std::string exclude;
  std::string exclude_kind;  ///< the excluded words' kind: "class" or "topic"
  /// The lowest edge score the question admits, on the 0-1 scale: its confidence words as STRING defines them (low
  /// 0.150, medium 0.400, high 0.700, highest 0.900) or a score it states ("a score above 0.8", "900"); 0: none
  /// stated (yes/no, count and path answers then take medium, 0.400; lists rank every partner).
  double min_score = 0;
  std::string confidence;  ///< the words that set min_score ("high confidence"); empty: none
  /// The evidence the question restricts the edges to: "physical" (physical relations: "bind", "physically",
  /// "directly", "complex"), "experimental", "database" (curated), "textmining", "coexpression" (STRING's channels
  /// or the datasets of that kind); empty: any relation.
  std::vector<std::string> channels;
  /// A comparison ("Which of A, B or C interacts with X?"): the entities the answer is chosen among (nodes); the
  /// entity compared against is the one left. Empty otherwise.
  std::vector<int64_t> choices;
  /// A yes/no claim stated negatively ("A does not bind B": true when no edge joins them).
  bool negated = false;
  /// Why the form is unsupported, in one line; empty otherwise.
  std::string reason;
  /// The cues that set the parts, "part=value (words)", in question order: what the frame rests on.
  std::vector<std::string> cues;
};

/// What a question asks. The intents ask() retrieves for:
///  - "partners": X's interaction partners ("Which proteins interact with X?"), ranked by edge score
///    (relation-weighted);
///  - "connects": what joins A and B ("What connects A and B?"): common partners ranked by their weaker edge, then
///    the inner nodes of three-edge paths;
///  - "paths": how A reaches B ("What is the path from A to B?"): the same ranking, the paths listed;
///  - "class": X's partners of a class or topic ("Which kinases interact with X?", "Which proteins involved in DNA
///    repair bind X?"): partners whose name, description, annotation or ontology terms say so first, then by edge
///    score;
///  - "open": anything else (no entity named, or no pattern): retrieval by PCST over the question's prizes, the
///    question's entities kept in the subgraph.
struct QuestionAnalysis {
  std::string question;                  ///< as asked
  std::vector<QuestionEntity> entities;  ///< the entities named, in question order
  std::string intent = "open";           ///< see above
  /// With intent "class": what the partners must be: a class ("kinases") or a topic ("DNA repair"), as the question
  /// writes it; empty otherwise.
  std::string topic;
  /// "class" (a kind of protein: its head noun) or "topic" (a process, place or property).
  std::string topic_kind;
  /// A class implied by the verb ("phosphorylates" asks for kinases): the class word, else empty.
  std::string implied_class;
  /// An interaction the question restricts to ("physical" for "bind", "physically", "complex"; empty: any).
  std::string interaction;
  int64_t taxon = 0;             ///< the organism the question names ("human", "yeast"), 0: none
  std::string source = "rules";  ///< who recognised the intent: "rules" or "model"
  std::string rule;              ///< the rule that decided (for the record)
  std::string model_error;       ///< the model's answer, when one was asked and not used: why
  /// Words shaped like a gene or protein name (letters with a digit, "STAT33"; or 3-10 capitals,
  /// "EGRF") that name nothing in the database, outside the entities found, in question order.
  /// ask() refuses a question that names no entity but has one of these (a misspelt or absent
  /// protein), with suggestions, rather than answer about something else.
  std::vector<std::string> unknown_names;
  /// The question's frame: its answer form, relation and filters (read after the intent; the intent stays for
  /// compatibility).
  QuestionFrame frame;
};

/// Options of QuestionAnalyzer.
struct QuestionAnalyzerOptions {
  /// Node labels whose names are linked (empty: every label but "OntologyTerm": questions name proteins, genes,
  /// chemicals, diseases; ontology terms are topics).
  std::vector<std::string> labels;
  /// Organism preferred for ambiguous names when the question names none (0: the organism most of the database's
  /// connected proteins are of).
  int64_t taxon = 0;
};

/// Reads questions against one knowledge base. Building it reads the names (about a second for a quarter of a million
/// aliases); analyze() is thread-safe, so build it once for many questions (evaluate_qa and train_reader do).
class GRAPPI_CXX_API QuestionAnalyzer {
 public:
  /// Reads the database's names (the snapshot of now; later imports are not seen). The database must outlive the
  /// analyzer.
  explicit QuestionAnalyzer(const KnowledgeGraph &kg, QuestionAnalyzerOptions options = {});
  ~QuestionAnalyzer();
  QuestionAnalyzer(const QuestionAnalyzer &) = delete;
  QuestionAnalyzer &operator=(const QuestionAnalyzer &) = delete;

  /// The question's entities and its intent by rules. Error(invalid_argument) for an empty question.
  QuestionAnalysis analyze(std::string_view question) const;
  /// The question's entities alone.
  std::vector<QuestionEntity> entities(std::string_view question) const;
  /// The question's words outside `found` shaped like gene or protein names that name nothing
  /// in the database (QuestionAnalysis::unknown_names).
  std::vector<std::string> unknown_names(std::string_view question, const std::vector<QuestionEntity> &found) const;
  /// The organism ambiguous names are resolved to when a question names none (0: none).
  int64_t default_taxon() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The intents' names, in the order above.
GRAPPI_CXX_API const std::vector<std::string> &question_intents();

/// The analysis as JSON: {"intent", "source", "rule", "topic", "topic_kind", "implied_class", "interaction", "taxon",
/// "entities": [{node, id, name, label, text, offset, length, status, resolution, alternatives, members}],
/// "unknown_names", "frame"}.
GRAPPI_CXX_API nlohmann::json to_json(const QuestionAnalysis &analysis);
/// One entity as JSON.
GRAPPI_CXX_API nlohmann::json to_json(const QuestionEntity &entity);
/// A frame as JSON: {"form", "relation", "exclude", "exclude_kind", "min_score", "confidence", "channels",
/// "choices" (external ids), "negated", "reason", "cues"} (empty parts left out).
GRAPPI_CXX_API nlohmann::json to_json(const QuestionFrame &frame, const std::vector<QuestionEntity> &entities);

}  // namespace grappi
