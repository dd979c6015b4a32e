// The prompt templates of BEL extraction, written for grappi: the system message teaches the
// BEL 2.1 subset the validator accepts; the paragraph prompt gives the grounded entities with
// their BEL terms and asks for statements with a verbatim evidence sentence; the repair turn
// returns the validator's messages. Each asks for JSON.
#include <set>

#include "grappi/extraction.hpp"
#include "models/templates.hpp"
#include "common/text_util.hpp"

namespace grappi {

namespace {

const char *kExtractSystem =
    "You are a biocurator who encodes the molecular interactions a paper states as BEL (Biological "
    "Expression Language 2.1) statements. Use only what the text says.\n"
    "A statement is `subject relation object`, or a single term.\n"
    "Terms: p(NS:value) protein, g() gene, r() RNA, a() chemical, complex(t1, t2, ...) a complex, "
    "bp() biological process, path() disease, act(p(...), ma(kin|phos|cat|gtp|tscript|tport|pep|chap)) the "
    "activity of a protein, p(NS:value, pmod(Ph|Ac|Ub|Me|Sumo|Glyco, Ser|Thr|Tyr|Lys, position)) a modified "
    "protein, deg(t) degradation, tloc(p(...), fromLoc(GO:\"...\"), toLoc(GO:\"...\")) translocation, "
    "sec(t) secretion, surf(t) cell surface expression.\n"
    "Relations: increases, decreases, directlyIncreases, directlyDecreases, regulates, association, "
    "positiveCorrelation, negativeCorrelation, causesNoChange, isA, hasComponent. There is no `binds`, "
    "`interacts` or `hasActivity`: write a binding as the term complex(p(A), p(B)), and an activity with act().\n"
    "Quote values that contain blanks or punctuation: bp(GO:\"apoptotic process\").\n"
    "Answer with one JSON object and nothing else.";

const char *kExtract =
    "Paragraph (PMID {{pmid}}):\n\"\"\"\n{{paragraph}}\n\"\"\"\n\n"
    "Entities found in it, with the BEL term to use for each:\n{{entities}}\n\n"
    "Namespaces you may use: {{namespaces}}.\n"
    "Write a BEL statement for every molecular interaction or causal effect this paragraph states "
    "between these entities (use their terms exactly; name no other entity unless the paragraph "
    "states it and its namespace is allowed). For each, copy the one sentence of the paragraph that "
    "states it, verbatim, as its evidence. If the paragraph states none, answer with an empty list.\n"
    "Answer: {\"statements\": [{\"bel\": \"...\", \"evidence\": \"a sentence copied from the paragraph\"}, ...]}";

const char *kRepair =
    "These statements are not valid BEL:\n{{problems}}\n"
    "Correct each one, in the same order, keeping its evidence; give an empty \"bel\" for one that "
    "cannot be written in valid BEL.\n"
    "Answer: {\"statements\": [{\"index\": 1, \"bel\": \"...\", \"evidence\": \"...\"}, ...]}";

const std::set<std::string> kExtractFields = {"paragraph", "entities", "namespaces", "pmid"};
const std::set<std::string> kRepairFields = {"problems"};

std::string hash_version(const ExtractionTemplates &t) {
  return detail::sha256_hex(t.system + '\0' + t.extract + '\0' + t.repair).substr(0, 12);
}

}  // namespace

ExtractionTemplates ExtractionTemplates::defaults() {
  ExtractionTemplates t;
  t.system = kExtractSystem;
  t.extract = kExtract;
  t.repair = kRepair;
  t.version = "extract-1-" + hash_version(t);
  return t;
}

void ExtractionTemplates::load(const std::string &system_file, const std::string &extract_file,
                               const std::string &repair_file) {
  ExtractionTemplates t = *this;
  bool any = detail::load_template(t.system, system_file, {}, "system");
  any = detail::load_template(t.extract, extract_file, kExtractFields, "extract") || any;
  any = detail::load_template(t.repair, repair_file, kRepairFields, "repair") || any;
  if (!any) return;
  t.version = "custom-" + hash_version(t);
  *this = std::move(t);
}

}  // namespace grappi
