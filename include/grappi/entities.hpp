// grappi/entities.hpp — entity grounding without a network: dictionary named-entity
// recognition from the knowledge base itself (protein names and aliases, ontology term names
// and synonyms), with gene-symbol case rules, a stop-list, and ambiguity kept with its
// candidates and resolved by the organism and the other entities of the passage; annotations a
// document already carries (PubTator, BioC, the PPI corpora) are reconciled with it.
#pragma once

#include "grappi/export.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "grappi/documents.hpp"
#include "grappi/knowledge_graph.hpp"

namespace grappi {

/// A node a mention may stand for.
struct EntityCandidate {
  int64_t node = 0;         ///< node id
  std::string id;           ///< its external id ("9606.ENSP00000270202", "GO:0006915")
  std::string name;         ///< its preferred name
  std::string label;        ///< its label ("Protein", "OntologyTerm")
  int64_t taxon = 0;        ///< its organism (0: none)
  std::string matched;      ///< the dictionary name that matched, as stored
  /// Where that name comes from: "name" (preferred name), the alias's source, "description"
  /// (the first clause of the node's annotation: its full name), "derived:<how>" (a name the
  /// linker derives from another of the node's names).
  std::string source;
  /// What kind of name it is: "symbol" (a preferred name or official symbol), "curated" (a
  /// text a curated list grounds to it as written in papers: FamPlex's grounding map),
  /// "full_name" (a gene table's full name, a description, an exact synonym), "alias" or
  /// "derived" ("p53" of LYN's "p53Lyn" by the weight convention; "beta-catenin" of "catenin
  /// beta 1"; docs/database.md "Names").
  std::string name_kind;
  /// The linker's first rule, how much the matched name says which node it names (lower is
  /// better): 0 a curated name as written, 1 a symbol, 2 a curated name in another case or
  /// spelling, 3 a full name or an alias no other candidate has, 4 an alias several share, 5 a
  /// derived name.
  unsigned tier = 0;
  /// The BEL function for the entity ("p", "bp", "a", "path", "complex"); empty when BEL has no
  /// namespace for it.
  std::string function;
  std::string ns;           ///< its BEL namespace ("HGNC", "SGD", "UniProt", "GO", "CHEBI", "DOID", ...)
  std::string value;        ///< its value in that namespace ("AKT1", "apoptotic process")
  /// The BEL term for it (`p(HGNC:AKT1)`, `bp(GO:"apoptotic process")`); empty without a namespace.
  std::string bel;
  /// An identifiers.org link for it when its BEL value alone gives none (a yeast protein's
  /// SGD id, from the database's SGD_ID alias: `https://identifiers.org/sgd:S000000364`).
  std::string url;
};

/// An entity mention in a text.
struct EntityMention {
  std::size_t offset = 0;   ///< where it starts, in bytes
  std::size_t length = 0;   ///< its length in bytes
  std::string text;         ///< as written
  /// "dictionary" (found by the tagger), "annotation" (given by the document only) or "both".
  std::string source;
  std::string type;         ///< the annotation's type, else the chosen candidate's label
  std::string annotation_id;  ///< the annotation's concept id, when it gave one
  std::vector<EntityCandidate> candidates;  ///< best first
  /// "unique" (one candidate), "resolved" (several, one chosen: see resolution), "ambiguous"
  /// (several, none chosen; or, in a paper, a short capital alias with nothing in the passage
  /// linked to it: see reason), "ungrounded" (an annotation no node matches), "other_organism"
  /// (in a passage of a known organism, a name only another organism's proteins have: none
  /// chosen, see reason)
  std::string status;
  /// Why no candidate was chosen when the status alone does not say it (other_organism: the
  /// passage's organism, where it comes from, and the candidates' organisms).
  std::string reason;
  /// How an ambiguity was resolved, by the last of the linker's rules that narrowed the
  /// candidates (applied in this order while several are left): "organism" (the organism the
  /// passage states, else EntityTaggerOptions::taxon, else that of the passage's unambiguous
  /// mentions), "preferred_name" or "name_kind" (the candidate whose name says most:
  /// EntityCandidate::tier; "p53" is TP53's alias before LYN's derived "p53Lyn"),
  /// "as_written" (two nodes' own names, one stored as the mention is written: "Raf-1" is RAF1,
  /// not RNASE3's "RAF1"; or later, among aliases, the one equal to the mention in any case
  /// when the others match only through the tolerant key), "context" (edges to the passage's
  /// other entities), "edges" (the only candidates with edges in the graph),
  /// "preferred_organism" (a name given alone, link(): the database's organism),
  /// "description" (the candidate whose annotation shares the most content words with the
  /// passage, at least two); empty otherwise.
  std::string resolution;
  std::optional<std::size_t> chosen;  ///< index of the chosen candidate
  /// The chosen candidate, if any.
  const EntityCandidate *entity() const { return chosen ? &candidates[*chosen] : nullptr; }
};

/// What a text says of one organism (organisms_in_text()).
struct OrganismEvidence {
  int64_t taxon = 0;              ///< NCBI taxon, as STRING numbers it (yeast 4932)
  std::string name;               ///< its scientific name ("Mus musculus")
  std::size_t count = 0;          ///< how many cues the text has
  std::vector<std::string> cues;  ///< the cues as written, distinct, in the order found ("mice", "C57BL/6")
  std::size_t first = 0;          ///< where the first cue starts, in bytes
};

/// The organisms a text names, most cues first (the first cue first on a tie): species and common
/// names ("Saccharomyces cerevisiae", "S. cerevisiae", "yeast", "mice", "murine", "Drosophila",
/// "patients"), lab strains ("C57BL/6", "Sprague-Dawley") and cell lines ("HeLa", "NIH 3T3",
/// "PC12", "CHO"), and SGD's protein style for yeast ("Rad53p"). A name followed by an antibody's
/// or a serum's words ("mouse anti-", "rabbit polyclonal", "bovine serum") is a reagent's origin
/// and not counted; pathogens and expression hosts (viruses, E. coli) are not read (docs/extract.md).
GRAPPI_CXX_API std::vector<OrganismEvidence> organisms_in_text(std::string_view text);

/// The scientific name of an organism that table knows ("Homo sapiens" for 9606), else empty.
GRAPPI_CXX_API std::string organism_name(int64_t taxon);

/// An abbreviation a text defines, found the Schwartz–Hearst way (abbreviations_in_text()):
/// "lipopolysaccharide (LPS)", and the other way round, "LPS (lipopolysaccharide)".
struct Abbreviation {
  std::string short_form;  ///< "LPS"
  std::string long_form;   ///< "lipopolysaccharide"
  std::size_t offset = 0;  ///< where the short form is defined, in bytes of the text read
  /// What the long form names in the database (EntityTagger::read_paper): "entity" (the short
  /// form stands for `entity` in the paper), "no_entity" (nothing the database holds: the short
  /// form is no gene's alias in this paper), "undecided" (the long form names part of something);
  /// empty before the database was asked.
  std::string meaning;
  std::optional<EntityCandidate> entity;  ///< the entity, when meaning is "entity"
};

/// The abbreviations a text defines, in the order defined, each short form once (its first
/// definition). A short form is one or two words of 2 to 10 characters with a capital letter,
/// in parentheses after its long form (or its long form in parentheses after it); every letter
/// and digit of the short form is found in the long form in order, its first at the start of a
/// word (Schwartz & Hearst, Pac. Symp. Biocomput. 2003).
GRAPPI_CXX_API std::vector<Abbreviation> abbreviations_in_text(std::string_view text);

/// What a paper says about its own names (EntityTagger::read_paper()).
struct PaperContext {
  std::string document;  ///< the document's id
  /// The organism its gene and protein names are grounded in (0: none known): --taxon when given
  /// (EntityTaggerOptions::taxon), else that of its species annotations, else the one its text
  /// names most, else the database's dominant organism.
  int64_t taxon = 0;
  std::string organism_name;  ///< its scientific name, when known
  /// Where it comes from: "taxon_option", "species_annotations", "text", "database" (empty: none).
  std::string organism_source;
  /// The database holds proteins of that organism; when it does not, the paper's gene and protein
  /// names are not grounded to another organism's namesakes (status "other_organism").
  bool held = false;
  std::vector<OrganismEvidence> organisms;  ///< what its text says, most cues first
  std::vector<Abbreviation> abbreviations;  ///< what it defines, each with its meaning
};

/// How the dictionary is built and used. (Every field is part of EntityTagger::shared's key: a
/// new one goes there too, in entities.cpp.)
struct EntityTaggerOptions {
  /// Node labels whose names are looked for (empty: "Protein", "OntologyTerm", and FamPlex's
  /// "ProteinFamily" and "ProteinComplex").
  std::vector<std::string> labels;
  /// Preferred organism (NCBI taxon) for ambiguous names; 0: the organism most of the text's
  /// unambiguous mentions are of. For a passage of a document (tag(const DocumentPassage &),
  /// read_paper()) it is the stated organism, over the document's species annotations and what
  /// its text says; without it those, then the database's dominant organism (organism()).
  int64_t taxon = 0;
  /// Shortest name looked for, in characters (at least 2).
  std::size_t min_length = 2;
  /// Words never taken for entities, added to the built-in stop-list (English words that are
  /// also gene symbols or aliases: "was", "can", "large", "protein", ...), any case.
  std::vector<std::string> stop_words;
  /// Ontology terms (labels "OntologyTerm") shorter than this are not looked for ("binding",
  /// "cell" are too common to be meant as the term).
  std::size_t min_term_length = 5;
  /// Names in any case: a gene-symbol-like name written all in lower case is taken too
  /// ("cdc28", "mapt": questions are written so), except stop words. Off for papers, where
  /// "cat" is an English word.
  bool any_case = false;
};

/// A dictionary tagger over one knowledge base, built once (the names read at construction);
/// tag() is thread-safe.
class GRAPPI_CXX_API EntityTagger {
 public:
  /// Reads the names. Error(invalid_argument) for a min_length below 2.
  explicit EntityTagger(const KnowledgeGraph &kg, EntityTaggerOptions options = {});
  ~EntityTagger();
  EntityTagger(const EntityTagger &) = delete;
  EntityTagger &operator=(const EntityTagger &) = delete;
  /// The tagger the knowledge graph keeps for these options: built on the first call, then the
  /// same object until a write to the database (building one reads every name: about a second
  /// on a STRING organism with its aliases). Thread-safe. The agents (ask, extract, hypothesize)
  /// take theirs from here.
  static std::shared_ptr<const EntityTagger> shared(const KnowledgeGraph &kg, const EntityTaggerOptions &options = {});
  /// The mentions of a text, by offset: the longest dictionary name at each word boundary
  /// (names compared ignoring case, blanks, hyphens, slashes, dots, underscores and
  /// apostrophes, with Greek letters spelled out: "NF-κB", "NF-kappaB" and "NFkappaB" are one
  /// name), except a gene-symbol-like name (up to 5 characters with an upper-case letter)
  /// written all in lower case ("cat" is not CAT; EntityTaggerOptions::any_case takes it) and
  /// stop words (unless written all in capitals and naming a symbol: "SET"). A yeast protein is
  /// also found in SGD's protein style ("Cdc28p" is CDC28).
  std::vector<EntityMention> tag(std::string_view text) const;
  /// The mentions of a passage: its annotations reconciled with the dictionary. An annotation
  /// overlapping dictionary mentions replaces them (source "both", the dictionary's candidates
  /// for its text kept, or those of its concept id when the database knows it as an alias);
  /// one the dictionary does not know is kept ("annotation", "ungrounded" unless its id
  /// resolves); dictionary mentions outside every annotation are kept as "dictionary".
  ///
  /// A passage has an organism: `organism` when not 0, else EntityTaggerOptions::taxon, else
  /// that of the passage's species annotations (document_organism()), else the database's
  /// dominant organism (a paper's words: read_paper() and tag(passage, paper)). Ambiguous names are narrowed to it, and a name whose candidates are
  /// all proteins of other organisms is not grounded (status "other_organism", with the
  /// reason): a human paper is never grounded to yeast proteins silently.
  std::vector<EntityMention> tag(const DocumentPassage &passage, int64_t organism = 0) const;
  /// What a paper says about its names: its organism (and the evidence for it) and the
  /// abbreviations it defines with what their long forms name in the database.
  PaperContext read_paper(const Document &document) const;
  /// The mentions of a passage of that paper: tag(passage, paper.taxon) with the paper's
  /// organism as the stated one (its source saying why), a gene named with another organism just
  /// before it ("human TNF" in a mouse paper) in that organism, and the abbreviations applied: a
  /// short form the paper defines as something the database does not hold is not grounded
  /// (status "ungrounded", with the reason), one defined as an entity stands for it (resolution
  /// "abbreviation", also where the dictionary alone does not find it). Annotations the document
  /// carries are left as they are.
  std::vector<EntityMention> tag(const DocumentPassage &passage, const PaperContext &paper) const;
  /// The organism (NCBI taxon) of a document's species annotations (PubTator's and BioC's
  /// "Species" mentions, ids "9606" or "NCBITaxon:9606"; the most frequent, the first on a
  /// tie); 0 when it has none.
  static int64_t document_organism(const Document &document);
  /// The database's dominant organism: the taxon most of its proteins are of (0: none).
  int64_t organism() const;
  /// The nodes an identifier names among the aliases (an Entrez id "6331", "HGNC:391"; any
  /// case), one candidate per node; empty when none does.
  std::vector<EntityCandidate> by_id(std::string_view id) const;
  /// A whole name linked by the same rules as a mention (`grappi resolve`, a name given on the
  /// command line or to the web explorer): the name's key, its words in any order, its usual
  /// spellings ("Raf-1 protein kinase", "hGITR", "IL-1RI"), then the identifiers among the
  /// aliases; in any case and whatever the stop-list says. `organism` (not 0) is a stated
  /// organism (it narrows first); without one, EntityTaggerOptions::taxon, else the database's
  /// organism, breaks ties. The mention's offset is 0 and its length the name's; no
  /// candidate: status "ungrounded".
  EntityMention link(std::string_view name, int64_t organism = 0) const;
  /// The mentions of a text whose organism is stated (`organism`, not 0: a question's "in
  /// yeast"; `source` says where it comes from), ambiguous names narrowed to it first and a
  /// name only other organisms' proteins have "other_organism"; tag(text) with none.
  std::vector<EntityMention> tag(std::string_view text, int64_t organism, const std::string &source) const;
  /// A protein family's or complex's members (FamPlex's, `grappi import --famplex`): the
  /// proteins of the database it holds, through its sub-families and sub-complexes, each once,
  /// as candidates (matched and source empty); empty for any other node.
  std::vector<EntityCandidate> members(int64_t node) const;
  /// Whether `node` is a member or part of the family or complex `family` (FamPlex's), directly
  /// or through its sub-families and sub-complexes ("histone H3" of "histone", CDKN1A of the
  /// cyclin-dependent kinase inhibitors); false for any other pair and for a node itself.
  bool contains(int64_t family, int64_t node) const;
  /// Distinct names in the dictionary.
  std::size_t names() const;
  /// The options in force.
  const EntityTaggerOptions &options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace grappi
