// BEL extraction (grappi/extraction.hpp): paragraphs from documents, their entities grounded by
// the dictionary tagger, one request per paragraph through ModelCalls (cache, budgets, a repair
// turn for unparseable answers), every statement validated and checked against the paragraph's
// entities and text, one repair turn for the statements the validator rejects, and the
// duplicates across paragraphs marked.
#include "grappi/extraction.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <unordered_map>

#include "common/answer_json.hpp"
#include "agents/extract/extraction_offline.hpp"
#include "grappi/error.hpp"
#include "common/grounding_text.hpp"
#include "models/model_calls.hpp"
#include "common/parallel.hpp"
#include "common/text_util.hpp"
#include "common/visibility.hpp"
#include "common/json_input.hpp"

namespace grappi {

namespace {

using nlohmann::json;

constexpr int kAnswerTokens = 2000;
// The namespace of entities a document names that no database grounds (never imported
// unless flagged statements are asked for).
constexpr const char *kTextNamespace = "TEXT";
using detail::kParseRepair;
const char *kNamespaces = "HGNC, MGI, RGD, SGD, UniProt, FPLX, CHEBI, GO, DOID, HP, MONDO";

struct Proposed {
  std::string bel, evidence, rule;
  std::optional<std::size_t> index;  // repair answers: the statement it corrects (1-based)
  std::vector<std::pair<std::size_t, std::size_t>> spans;  // the mentions it names (offset, length), when given
};

struct StatementsAnswer {
  bool ok = false;
  std::string error, raw;
  std::vector<Proposed> statements;
};

// {"statements": [{"bel", "evidence"}]}, also under "interactions" with "bel_statement" (the
// reference tool's names), or a bare array; a statement may be a plain string.
StatementsAnswer parse_statements(std::string_view text) {
  StatementsAnswer a;
  a.raw = std::string(text);
  json j;
  const json *list = nullptr;
  if (detail::json_object_in(text, j, a.error)) {
    for (const char *k : {"statements", "interactions", "results"})
      if (j.contains(k) && j[k].is_array()) list = &j[k];
    if (!list) {
      a.error = "no \"statements\" list in the answer";
      return a;
    }
  } else {
    try {
      const std::string t = detail::trim_copy(text);
      const std::size_t open = t.find('['), close = t.rfind(']');
      if (open == std::string::npos || close == std::string::npos || close < open) return a;
      const std::string_view list_text = std::string_view(t).substr(open, close - open + 1);
      if (detail::json_too_deep(list_text)) return a;
      j = json::parse(list_text);
      list = &j;
      a.error.clear();
    } catch (const json::exception &) {
      return a;
    }
  }
  for (const json &s : *list) {
    Proposed p;
    if (s.is_string()) {
      p.bel = s.get<std::string>();
    } else if (s.is_object()) {
      for (const char *k : {"bel", "bel_statement", "statement"})
        if (p.bel.empty()) p.bel = detail::json_string(s, k);
      for (const char *k : {"evidence", "sentence", "text"})
        if (p.evidence.empty()) p.evidence = detail::json_string(s, k);
      p.rule = detail::json_string(s, "rule");
      if (s.contains("mentions") && s["mentions"].is_array())
        for (const json &m : s["mentions"])
          if (m.is_array() && m.size() == 2 && m[0].is_number_unsigned() && m[1].is_number_unsigned())
            p.spans.emplace_back(m[0].get<std::size_t>(), m[1].get<std::size_t>());
      if (s.contains("index") && s["index"].is_number_integer() && s["index"].get<int64_t>() > 0)
        p.index = static_cast<std::size_t>(s["index"].get<int64_t>());
    } else {
      continue;
    }
    p.bel = detail::trim_copy(p.bel);
    p.evidence = detail::trim_copy(p.evidence);
    a.statements.push_back(std::move(p));
  }
  a.ok = true;
  return a;
}

bool skipped_section(const std::string &type, const std::vector<std::string> &skip) {
  const std::string t = detail::lower_copy(type);
  for (const std::string &s : skip) {
    const std::string l = detail::lower_copy(s);
    if (t == l || (l == "ref" && (t == "ref" || t == "references"))) return true;
  }
  return false;
}

// The BEL term a mention is offered as: its chosen candidate's, else (a gene or protein that
// no database grounds, or that stays ambiguous) a TEXT term.
std::pair<std::string, std::string> offered(const EntityMention &m) {
  if (const EntityCandidate *c = m.entity(); c && !c->bel.empty()) return {c->bel, c->function};
  if (m.status == "ungrounded" || m.status == "ambiguous" || m.status == "other_organism") {
    // A gene or protein no database grounds, or one of several: a TEXT term (statements using
    // it are flagged). (The corpora's protein annotations carry all kinds of type names; other
    // kinds say so.)
    const std::string t = detail::lower_copy(m.type);
    bool other = false;
    for (const char *kind : {"disease", "chemical", "drug", "species", "organism", "cell", "mutation", "variant", "snp"})
      other = other || t.find(kind) != std::string::npos;
    if (!other) {
      BelTerm e;
      e.kind = BelTerm::Kind::entity;
      e.ns = kTextNamespace;
      e.name = m.text;
      BelTerm f;
      f.kind = BelTerm::Kind::function;
      f.name = "proteinAbundance";
      f.args.push_back(std::move(e));
      return {to_bel(f), "p"};
    }
  }
  return {};
}

void collect_entities(const BelTerm &t, std::vector<const BelTerm *> &out) {
  if (t.kind == BelTerm::Kind::entity) out.push_back(&t);
  for (const BelTerm &a : t.args) collect_entities(a, out);
}

void collect_entities(const BelStatement &s, std::vector<const BelTerm *> &out) {
  collect_entities(s.subject, out);
  if (s.object) collect_entities(*s.object, out);
  if (s.nested) collect_entities(*s.nested, out);
}

// Whether a BEL entity term names a candidate (its namespace and value, or its label).
bool names_candidate(const BelTerm &e, const EntityCandidate &c) {
  return !c.ns.empty() && detail::iequals(c.ns, e.ns) &&
         (detail::iequals(c.value, e.name) || (!e.label.empty() && detail::iequals(c.value, e.label)));
}

bool names_mention(const BelTerm &e, const EntityMention &m) {
  if (e.ns == kTextNamespace) return !m.chosen && detail::iequals(e.name, m.text);
  return std::any_of(m.candidates.begin(), m.candidates.end(),
                     [&](const EntityCandidate &c) { return names_candidate(e, c); });
}

// The entity a term is about when it names one that a mention of the paragraph grounds (its
// chosen candidate); null for none, several or an ungrounded one.
const EntityCandidate *grounded_entity(const BelTerm &t, const ExtractionParagraph &p) {
  std::vector<const BelTerm *> es;
  collect_entities(t, es);
  if (es.size() != 1) return nullptr;
  for (const EntityMention &m : p.entities)
    if (const EntityCandidate *c = m.entity(); c && names_candidate(*es[0], *c)) return c;
  return nullptr;
}

}  // namespace

struct GRAPPI_HIDDEN Extractor::Impl {
  KnowledgeGraph &kg;
  LanguageModel &model;
  ExtractionOptions opt;
  std::shared_ptr<const EntityTagger> tagger;  // (the knowledge graph's, EntityTagger::shared)
  BelValidator validator;

  Impl(KnowledgeGraph &g, LanguageModel &m, ExtractionOptions o)
      : kg(g), model(m), opt(std::move(o)), tagger(EntityTagger::shared(g, opt.entities)), validator(validator_options(g)) {
    validator.define_namespace({kTextNamespace, bel_any, ""});
  }

  static BelOptions validator_options(KnowledgeGraph &g) {
    BelOptions o;
    o.resolver = g.bel_resolver();
    return o;
  }

  ChatRequest request(const ExtractionParagraph &p, json &entities_out) const;
  void check_polarity(std::vector<ExtractedStatement> &out, const ChatRequest &q, bool local) const;
  void judge(ExtractedStatement &s, const ExtractionParagraph &p,
             const std::vector<std::pair<std::size_t, std::size_t>> &spans = {}) const;
  void check_membership(ExtractedStatement &s, const BelStatement &st, const ExtractionParagraph &p) const;
  std::vector<ExtractedStatement> run(detail::ModelCalls &calls, ExtractionParagraph &p, std::size_t index,
                                      StageUsage &usage) const;
};

ChatRequest Extractor::Impl::request(const ExtractionParagraph &p, json &entities_out) const {
  entities_out = json::array();
  std::string lines;
  std::vector<std::string> listed;
  // The paragraph's families and complexes (each once), for the entities FamPlex puts in them: what
  // the rule table's membership rule reads ("the cyclin-dependent kinase inhibitor p21").
  std::vector<std::pair<int64_t, std::string>> families;  // node, BEL term
  std::map<int64_t, json> member_of;                      // node -> the families' BEL terms
  for (const EntityMention &f : p.entities)
    if (const EntityCandidate *fc = f.entity(); fc && (fc->label == "ProteinFamily" || fc->label == "ProteinComplex")) {
      std::string family_bel = offered(f).first;
      if (!family_bel.empty() && std::none_of(families.begin(), families.end(), [&](const auto &x) { return x.first == fc->node; }))
        families.emplace_back(fc->node, std::move(family_bel));
    }
  for (const EntityMention &m : p.entities) {
    const auto [bel, function] = offered(m);
    if (bel.empty()) continue;
    json entity = {{"offset", m.offset}, {"length", m.length}, {"text", m.text}, {"bel", bel}, {"function", function}};
    if (const EntityCandidate *c = m.entity(); c && !families.empty()) {
      auto [known, fresh] = member_of.try_emplace(c->node, json::array());  // (each node once)
      if (fresh)
        for (const auto &[family, family_bel] : families)
          if (family != c->node && tagger->contains(family, c->node)) known->second.push_back(family_bel);
      if (!known->second.empty()) entity["member_of"] = known->second;
    }
    entities_out.push_back(std::move(entity));
    std::string line = "- \"" + m.text + "\": " + bel;
    if (const EntityCandidate *c = m.entity()) {
      line += " (" + c->name + ", " + c->id + ")";
    } else if (m.status == "ambiguous") {
      std::string some;
      std::size_t shown = 0;
      for (const EntityCandidate &x : m.candidates)
        if (!x.bel.empty() && shown++ < 4) some += (some.empty() ? "" : " | ") + x.bel + " " + x.id;
      line += " (ambiguous" + (some.empty() ? std::string() : ": " + some) + ")";
    } else if (m.status == "other_organism") {
      line += " (not grounded: " + m.reason + ")";
    } else {
      line += " (not in the knowledge base)";
    }
    if (std::find(listed.begin(), listed.end(), line) != listed.end()) continue;
    listed.push_back(line);
    lines += line + "\n";
  }
  if (lines.empty()) lines = "(none found)\n";
  const std::string prompt =
      PromptTemplates::render(opt.templates.extract, {{"paragraph", p.text},
                                                      {"entities", lines},
                                                      {"namespaces", std::string(kNamespaces) + (lines.find(kTextNamespace) != std::string::npos ? ", TEXT (only as listed)" : "")},
                                                      {"pmid", p.pmid.empty() ? std::string("unknown") : p.pmid}});
  json task = {{"kind", "extract.statements"}, {"paragraph", p.text}, {"entities", entities_out}, {"pmid", p.pmid}};
  return detail::chat_request(opt.templates.system, prompt, true, kAnswerTokens, std::move(task),
                              detail::offline_extraction_answer);
}

// Validates a statement and checks it against the paragraph: its entities among the grounded
// ones, its evidence found in the text.
void Extractor::Impl::judge(ExtractedStatement &s, const ExtractionParagraph &p,
                            const std::vector<std::pair<std::size_t, std::size_t>> &spans) const {
  s.problems.clear();
  s.flags.clear();
  s.mentions.clear();
  s.canonical.clear();
  s.evidence_offset.reset();
  s.checks.clear();
  if (s.bel.empty()) {
    s.status = "rejected";
    s.checks["grammar"] = "failed";
    s.problems.push_back({BelProblem::Severity::error, "syntax", 0, "the statement is empty"});
    return;
  }
  const BelResult r = validator.check(s.bel);
  s.problems = r.problems;
  if (!r.valid() || !r.statement) {
    s.status = "rejected";
    s.checks["grammar"] = "failed";
    return;
  }
  s.checks["grammar"] = "passed";
  s.canonical = r.canonical;
  // The evidence first: an entity named more than once in the paragraph is the mention inside
  // the evidence sentence when there is one.
  std::size_t from = 0, to = p.text.size();
  if (s.evidence.empty()) {
    s.flags.push_back("no_evidence");
  } else if (auto at = detail::find_quote(p.text, s.evidence)) {
    s.evidence_offset = *at;
    for (const auto &[b, e] : detail::sentence_ranges(p.text))
      if (b <= *at && *at < e) from = b;
    to = std::min(p.text.size(), *at + s.evidence.size());
    for (const auto &[b, e] : detail::sentence_ranges(p.text))
      if (b < to && to <= e) to = e;
  } else {
    s.flags.push_back("paraphrased_evidence");
  }
  std::vector<const BelTerm *> entities;
  collect_entities(*r.statement, entities);
  for (const BelTerm *e : entities) {
    std::vector<std::size_t> all, inside;
    for (std::size_t i = 0; i < p.entities.size(); ++i)
      if (names_mention(*e, p.entities[i])) {
        all.push_back(i);
        const std::pair<std::size_t, std::size_t> span = {p.entities[i].offset, p.entities[i].length};
        const bool named = spans.empty() ? p.entities[i].offset >= from && p.entities[i].offset < to
                                         : std::find(spans.begin(), spans.end(), span) != spans.end();
        if (named) inside.push_back(i);
      }
    for (std::size_t i : inside.empty() ? all : inside)
      if (std::find(s.mentions.begin(), s.mentions.end(), i) == s.mentions.end()) s.mentions.push_back(i);
    const std::string ref = e->ns + ":" + (e->label.empty() ? e->name : e->label);
    if (all.empty() || e->ns == kTextNamespace) {
      const std::string flag = "ungrounded:" + ref;
      if (std::find(s.flags.begin(), s.flags.end(), flag) == s.flags.end()) s.flags.push_back(flag);
    }
  }
  std::sort(s.mentions.begin(), s.mentions.end());
  bool grounded = true, found = !s.evidence.empty();
  for (const std::string &f : s.flags) {
    grounded = grounded && f.rfind("ungrounded:", 0) != 0;
    found = found && f != "paraphrased_evidence";
  }
  s.checks["grounding"] = grounded ? "passed" : "failed";
  s.checks["evidence"] = s.evidence.empty() ? "missing" : found ? "found" : "paraphrased";
  check_membership(s, *r.statement, p);
  s.status = s.flags.empty() ? "valid" : "flagged";
}

// "M isA F" and "F hasComponent M" between grounded entities hold when FamPlex puts M in F (the
// database's families and complexes, not the text that produced the statement); a family or
// complex FamPlex does not put M in, or a protein as the group, is flagged "membership".
void Extractor::Impl::check_membership(ExtractedStatement &s, const BelStatement &st,
                                       const ExtractionParagraph &p) const {
  const bool is_a = st.relation == "isA";
  if ((!is_a && st.relation != "hasComponent") || !st.object) return;
  const EntityCandidate *member = grounded_entity(is_a ? st.subject : *st.object, p);
  const EntityCandidate *group = grounded_entity(is_a ? *st.object : st.subject, p);
  const bool family = group && (group->label == "ProteinFamily" || group->label == "ProteinComplex");
  if (!member || !group || (!family && group->label != "Protein")) {
    s.checks["membership"] = "unchecked";
    return;
  }
  if (family && member->node != group->node && tagger->contains(group->node, member->node)) {
    s.checks["membership"] = "famplex";
    return;
  }
  s.checks["membership"] = family ? "not_in_famplex" : "not_a_family";
  s.flags.push_back("membership");
}

namespace {

// The sign of a causal relation (+1 increases, -1 decreases, 0 none) and the entities a
// statement's subject and object are about ("HGNC:AKT1"; empty for several or none).
struct Reading {
  int sign = 0;
  std::string subject, object;
};

std::string about(const BelTerm &t) {
  std::vector<const BelTerm *> es;
  collect_entities(t, es);
  if (es.size() != 1) return {};
  return es[0]->ns + ":" + (es[0]->label.empty() ? es[0]->name : es[0]->label);
}

Reading reading_of(const BelValidator &v, const std::string &bel) {
  Reading r;
  const BelResult b = v.check(bel);
  if (!b.statement || !b.statement->object) return r;
  const std::string &rel = b.statement->relation;
  r.sign = rel == "increases" || rel == "directlyIncreases" ? 1 : rel == "decreases" || rel == "directlyDecreases" ? -1 : 0;
  r.subject = about(b.statement->subject);
  r.object = about(*b.statement->object);
  return r;
}

}  // namespace

// A model's causal statements against the rule table's reading of the same paragraph: the same
// pair read with the opposite sign is flagged ("polarity"), the same sign agrees; the rule
// table's own statements take their sign from their trigger and clause.
void Extractor::Impl::check_polarity(std::vector<ExtractedStatement> &out, const ChatRequest &q, bool local) const {
  if (local) {
    for (ExtractedStatement &s : out)
      if (s.status != "rejected") s.checks.emplace("polarity", "by_rule");
    return;
  }
  std::vector<Reading> rules;
  const json answer = json::parse(detail::offline_extraction_answer(q.task), nullptr, false);
  if (answer.is_object() && answer.contains("statements") && answer["statements"].is_array())
    for (const json &x : answer["statements"])
      if (x.is_object() && x.contains("bel") && x["bel"].is_string()) {
        Reading r = reading_of(validator, x["bel"].get<std::string>());
        if (r.sign != 0 && !r.subject.empty() && !r.object.empty()) rules.push_back(std::move(r));
      }
  for (ExtractedStatement &s : out) {
    if (s.status == "rejected" || s.checks.count("polarity")) continue;
    const Reading m = reading_of(validator, s.canonical.empty() ? s.bel : s.canonical);
    std::string verdict = "unchecked";
    if (m.sign != 0 && !m.subject.empty() && !m.object.empty())
      for (const Reading &r : rules)
        if (r.subject == m.subject && r.object == m.object) verdict = r.sign == m.sign ? "agrees" : "disagrees";
    s.checks["polarity"] = verdict;
    if (verdict == "disagrees") {
      s.flags.push_back("polarity");
      s.status = "flagged";
    }
  }
}

std::vector<ExtractedStatement> Extractor::Impl::run(detail::ModelCalls &calls, ExtractionParagraph &p, std::size_t index,
                                                     StageUsage &usage) const {
  json entities;
  const ChatRequest q = request(p, entities);
  auto got = calls.ask<StatementsAnswer>("extract.statements", q, parse_statements, usage, kParseRepair);
  std::vector<ExtractedStatement> out;
  if (got.status != "ok") {
    p.status = got.status;
    p.error = got.error;
    return out;
  }
  p.status = "ok";
  p.cached = got.cached;
  const bool local = calls.local();
  for (const Proposed &x : got.answer.statements) {
    ExtractedStatement s;
    s.paragraph = index;
    s.bel = x.bel;
    s.evidence = x.evidence;
    s.origin = local ? "rule:" + (x.rule.empty() ? std::string("unknown") : x.rule) : "model";
    judge(s, p, x.spans);
    out.push_back(std::move(s));
  }
  check_polarity(out, q, local);
  // One repair turn for the rejected statements, with the validator's messages.
  std::vector<std::size_t> bad;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i].status == "rejected") bad.push_back(i);
  if (bad.empty() || !opt.repair || local) return out;
  std::string problems;
  for (std::size_t k = 0; k < bad.size(); ++k) {
    const ExtractedStatement &s = out[bad[k]];
    std::string why;
    for (const BelProblem &b : s.problems)
      if (b.severity == BelProblem::Severity::error) why += (why.empty() ? "" : "; ") + b.message;
    problems += std::to_string(k + 1) + ". " + s.bel + "\n   problem: " + why + "\n   evidence: " + s.evidence + "\n";
  }
  ChatRequest fix = q;
  fix.messages.push_back({"assistant", got.answer.raw});
  fix.messages.push_back({"user", PromptTemplates::render(opt.templates.repair, {{"problems", problems}})});
  fix.task["kind"] = "extract.repair";
  auto again = calls.ask<StatementsAnswer>("extract.repair", fix, parse_statements, usage, kParseRepair);
  if (again.status != "ok") {
    for (std::size_t i : bad) out[i].original_problems.push_back("repair turn " + again.status + ": " + again.error);
    return out;
  }
  std::vector<char> answered(bad.size(), 0);
  for (std::size_t k = 0; k < again.answer.statements.size(); ++k) {
    const Proposed &x = again.answer.statements[k];
    const std::size_t which = x.index ? *x.index - 1 : k;
    if (which >= bad.size() || answered[which]) continue;
    answered[which] = 1;
    ExtractedStatement &s = out[bad[which]];
    if (x.bel.empty()) {
      s.original_problems.push_back("the repair turn gave no correction");
      continue;
    }
    ExtractedStatement t = s;
    t.bel = x.bel;
    if (!x.evidence.empty()) t.evidence = x.evidence;
    judge(t, p);
    if (t.status == "rejected") {
      std::string why;
      for (const BelProblem &b : t.problems)
        if (b.severity == BelProblem::Severity::error && why.empty()) why = b.message;
      s.original_problems.push_back("after the repair turn, still invalid: " + x.bel + ": " + why);
      continue;
    }
    t.original = s.bel;
    for (const BelProblem &b : s.problems)
      if (b.severity == BelProblem::Severity::error) t.original_problems.push_back(b.message);
    t.origin = "repaired";
    s = std::move(t);
  }
  check_polarity(out, q, local);  // (the repaired ones)
  return out;
}

Extractor::Extractor(KnowledgeGraph &kg, LanguageModel &model, ExtractionOptions options) {
  if (options.concurrency == 0) throw Error(ErrorCode::invalid_argument, "extraction: concurrency must be at least 1");
  impl_ = std::make_unique<Impl>(kg, model, std::move(options));
}

Extractor::~Extractor() = default;

const EntityTagger &Extractor::tagger() const { return *impl_->tagger; }

const ExtractionOptions &Extractor::options() const { return impl_->opt; }

ExtractionResult Extractor::extract(const std::vector<Document> &documents) const {
  const Impl &m = *impl_;
  const auto t0 = std::chrono::steady_clock::now();
  ExtractionResult r;
  r.documents = documents.size();
  r.offline = m.model.local();
  r.model = m.model.describe();
  r.template_version = m.opt.templates.version;
  std::vector<const DocumentPassage *> source;
  std::vector<std::size_t> paper;  // (per paragraph: its document's PaperContext)
  r.papers.resize(documents.size());
  detail::parallel_for(documents.size(), std::min(m.opt.concurrency, detail::ModelCalls::kMaxConcurrency),
                       [&](std::size_t k) { r.papers[k] = m.tagger->read_paper(documents[k]); });
  for (std::size_t di = 0; di < documents.size(); ++di) {
    const Document &d = documents[di];
    for (std::size_t i = 0; i < d.passages.size(); ++i) {
      const DocumentPassage &ps = d.passages[i];
      if (skipped_section(ps.type, m.opt.skip_sections) || detail::trim_copy(ps.text).size() < m.opt.min_passage_chars) {
        ++r.skipped_passages;
        continue;
      }
      ExtractionParagraph p;
      p.document = d.id;
      p.pmid = d.pmid;
      p.pmcid = d.pmcid;
      p.doi = d.doi;
      p.passage = i;
      p.section = ps.type;
      p.text = ps.text;
      r.paragraphs.push_back(std::move(p));
      source.push_back(&ps);
      paper.push_back(di);
    }
  }
  // Grounding first (no model), then the requests.
  detail::parallel_for(r.paragraphs.size(), std::min(m.opt.concurrency, detail::ModelCalls::kMaxConcurrency), [&](std::size_t k) {
    ExtractionParagraph &p = r.paragraphs[k];
    std::vector<EntityMention> e = m.tagger->tag(*source[k], r.papers[paper[k]]);
    if (m.opt.annotations_only)
      e.erase(std::remove_if(e.begin(), e.end(), [](const EntityMention &x) { return x.source == "dictionary"; }), e.end());
    p.entities = std::move(e);
  });
  if (m.opt.dry_run) {
    r.dry_run = true;
    for (ExtractionParagraph &p : r.paragraphs) {
      json entities;
      const ChatRequest q = m.request(p, entities);
      const int64_t tokens = detail::ModelCalls::estimate(q);
      p.status = "planned";
      r.estimated_calls += m.opt.repair ? 2 : 1;
      // A repair turn carries the request, the answer (at most kAnswerTokens) and the problems.
      r.estimated_prompt_tokens += m.opt.repair ? 2 * tokens + kAnswerTokens + 200 : tokens;
    }
    return r;
  }
  detail::confirm_calls("extract", r.paragraphs.size(), m.opt.confirm_calls, m.opt.max_calls, m.model,
                        "at least one per paragraph; up to twice that with repair turns", "fewer papers (--document)");
  detail::ModelCalls calls(m.kg, m.model,
                           {m.opt.templates.version, m.opt.use_cache, m.opt.max_calls, m.opt.max_tokens, m.opt.concurrency,
                            m.opt.cancel});
  std::vector<std::vector<ExtractedStatement>> per(r.paragraphs.size());
  std::mutex progress_mu;
  std::size_t done = 0;
  detail::parallel_for(r.paragraphs.size(), calls.threads(), [&](std::size_t k) {
    per[k] = m.run(calls, r.paragraphs[k], k, r.usage);
    if (!m.opt.progress) return;
    std::lock_guard<std::mutex> lock(progress_mu);
    m.opt.progress("paragraphs", ++done, r.paragraphs.size());
  });
  calls.flush();
  if (calls.exhausted()) r.budget = calls.reason();
  for (const ExtractionParagraph &p : r.paragraphs) {
    r.usage.failed += p.status == "failed";
    r.usage.skipped += p.status == "skipped";
  }
  std::unordered_map<std::string, std::size_t> first;
  for (auto &list : per)
    for (ExtractedStatement &s : list) {
      if (!s.canonical.empty()) {
        auto [it, fresh] = first.emplace(s.canonical, r.statements.size());
        if (!fresh) s.duplicate_of = it->second;
      }
      r.statements.push_back(std::move(s));
    }
  r.usage.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

ExtractionResult extract(KnowledgeGraph &kg, LanguageModel &model, const std::vector<Document> &documents,
                         const ExtractionOptions &options) {
  return Extractor(kg, model, options).extract(documents);
}

Extractor::Extractor(KnowledgeGraph &kg, ExtractionOptions options) : Extractor(kg, run_model(options), options) {}

ExtractionResult extract(KnowledgeGraph &kg, const std::vector<Document> &documents, const ExtractionOptions &options) {
  return extract(kg, run_model(options), documents, options);
}

}  // namespace grappi
