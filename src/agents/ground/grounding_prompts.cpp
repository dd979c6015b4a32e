// The prompt templates of relation grounding, written for grappi after the three stages of
// Reder et al. (a refined relation summary with evidence quotes, 1-5 term scores against it, a
// pick among the best-scored terms with a self-assessed confidence). Each asks for JSON.
#include <set>

#include "grappi/grounding.hpp"
#include "models/templates.hpp"
#include "common/text_util.hpp"

namespace grappi {

namespace {

const char *kGroundSystem =
    "You are a biocurator who grounds protein-protein relations described in papers in a controlled "
    "vocabulary of interaction types. Use only the text you are given. Answer with one JSON object and "
    "nothing else.";

const char *kSummary =
    "Text (part {{part}} of {{parts}}):\n\"\"\"\n{{chunk}}\n\"\"\"\n"
    "Summarise how {{protein_a}} and {{protein_b}} interact according to this text: what kind of interaction "
    "it is (binding, a complex, phosphorylation or another reaction, colocalization, a genetic or functional "
    "effect, ...), the experiments that show it, and its direction. Copy the sentences that support it "
    "verbatim as quotes. If the text says nothing about the two together, say so.\n"
    "Answer: {\"summary\": \"...\", \"quotes\": [\"a sentence copied from the text\", ...]}";

const char *kRefine =
    "Summary so far of how {{protein_a}} and {{protein_b}} interact:\n{{summary}}\n\n"
    "More of the text (part {{part}} of {{parts}}):\n\"\"\"\n{{chunk}}\n\"\"\"\n"
    "Refine the summary with what this part adds, keeping what still holds, and copy the sentences of this "
    "part that support it verbatim as quotes.\n"
    "Answer: {\"summary\": \"...\", \"quotes\": [\"a sentence copied from the text\", ...]}";

const char *kScore =
    "How {{protein_a}} and {{protein_b}} interact, summarised from a paper:\n{{summary}}\n\n"
    "Rate how well each interaction-type term below describes this interaction, from 1 (does not apply) "
    "to 5 (describes it exactly). A specific term that applies deserves more than a general one that also "
    "applies.\n\n{{terms}}\n"
    "Answer with a score for every term id above: {\"scores\": {\"<term id>\": <1-5>, ...}}";

const char *kPick =
    "How {{protein_a}} and {{protein_b}} interact, summarised from a paper:\n{{summary}}\n\n"
    "These interaction-type terms fit it best:\n\n{{terms}}\n"
    "Choose the one term that describes the interaction best, and rate your confidence in it from 1 (a "
    "guess) to 5 (certain).\n"
    "Answer: {\"term\": \"<term id>\", \"confidence\": <1-5>}";

const char *kRepair =
    "Your answer could not be used ({{error}}). Reply with only the JSON object the request asked for.";

const std::set<std::string> kChunkFields = {"protein_a", "protein_b", "chunk", "part", "parts"};
const std::set<std::string> kRefineFields = {"protein_a", "protein_b", "chunk", "part", "parts", "summary"};
const std::set<std::string> kTermFields = {"protein_a", "protein_b", "summary", "terms"};

std::string hash_version(const GroundingTemplates &t) {
  return detail::sha256_hex(t.system + '\0' + t.summary + '\0' + t.refine + '\0' + t.score + '\0' + t.pick + '\0' +
                            t.repair)
      .substr(0, 12);
}

}  // namespace

GroundingTemplates GroundingTemplates::defaults() {
  GroundingTemplates t;
  t.system = kGroundSystem;
  t.summary = kSummary;
  t.refine = kRefine;
  t.score = kScore;
  t.pick = kPick;
  t.repair = kRepair;
  t.version = "ground-1-" + hash_version(t);
  return t;
}

void GroundingTemplates::load(const std::string &system_file, const std::string &summary_file,
                              const std::string &refine_file, const std::string &score_file,
                              const std::string &pick_file) {
  GroundingTemplates t = *this;
  bool any = detail::load_template(t.system, system_file, {}, "system");
  any = detail::load_template(t.summary, summary_file, kChunkFields, "summary") || any;
  any = detail::load_template(t.refine, refine_file, kRefineFields, "refine") || any;
  any = detail::load_template(t.score, score_file, kTermFields, "score") || any;
  any = detail::load_template(t.pick, pick_file, kTermFields, "pick") || any;
  if (!any) return;
  t.version = "custom-" + hash_version(t);
  *this = std::move(t);
}

}  // namespace grappi
