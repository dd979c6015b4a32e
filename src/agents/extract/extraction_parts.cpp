// Extraction in parts (grappi/extraction.hpp: save_extraction, load_extraction,
// merge_extractions; docs/distributed.md "Extraction"): a worker's whole result written to a
// file, read back by another process, and the parts merged into the result of one extraction
// over every part's documents.
//
// The file is JSON lines: "grappi-extraction 1", a header (the result's figures, model, usage,
// the number of paragraphs and statements, the provenance), then one line per paragraph with
// its entities (every candidate) and its statements (every field). Reading checks what the
// merge relies on: counts, a statement's paragraph and mentions, a chosen candidate, a
// duplicate's first occurrence.
#include <fstream>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "agents/extract/extraction_impl.hpp"
#include "common/json_input.hpp"
#include "common/part_files.hpp"
#include "common/text_reader.hpp"
#include "grappi/error.hpp"
#include "grappi/extraction.hpp"
#include "grappi/json_text.hpp"

namespace grappi {

namespace {

using nlohmann::json;

constexpr const char *kExtractionMagic = "grappi-extraction 1";

json optional_size(const std::optional<std::size_t> &v) { return v ? json(*v) : json(nullptr); }

std::optional<std::size_t> read_optional_size(const json &j) {
  if (j.is_null()) return std::nullopt;
  return detail::json_integer<std::size_t>(j);
}

json part_usage_json(const StageUsage &u) {
  return {{"model_calls", u.model_calls}, {"local_answers", u.local_answers}, {"cache_hits", u.cache_hits},
          {"prompt_tokens", u.prompt_tokens}, {"completion_tokens", u.completion_tokens}, {"failed", u.failed},
          {"skipped", u.skipped}, {"repairs", u.repairs}, {"seconds", u.seconds}};
}

StageUsage part_usage_from(const json &j) {
  StageUsage u;
  u.model_calls = detail::json_integer<std::size_t>(j.at("model_calls"));
  u.local_answers = detail::json_integer<std::size_t>(j.at("local_answers"));
  u.cache_hits = detail::json_integer<std::size_t>(j.at("cache_hits"));
  u.prompt_tokens = detail::json_integer<int64_t>(j.at("prompt_tokens"));
  u.completion_tokens = detail::json_integer<int64_t>(j.at("completion_tokens"));
  u.failed = detail::json_integer<std::size_t>(j.at("failed"));
  u.skipped = detail::json_integer<std::size_t>(j.at("skipped"));
  u.repairs = detail::json_integer<std::size_t>(j.at("repairs"));
  u.seconds = j.at("seconds").get<double>();
  return u;
}

json candidate_json(const EntityCandidate &c) {
  return {{"node", c.node},         {"id", c.id},         {"name", c.name},       {"label", c.label},
          {"taxon", c.taxon},       {"matched", c.matched}, {"source", c.source}, {"function", c.function},
          {"ns", c.ns},             {"value", c.value},   {"bel", c.bel},         {"url", c.url}};
}

EntityCandidate candidate_from(const json &j) {
  EntityCandidate c;
  c.node = detail::json_integer<int64_t>(j.at("node"));
  c.id = j.at("id").get<std::string>();
  c.name = j.at("name").get<std::string>();
  c.label = j.at("label").get<std::string>();
  c.taxon = detail::json_integer<int64_t>(j.at("taxon"));
  c.matched = j.at("matched").get<std::string>();
  c.source = j.at("source").get<std::string>();
  c.function = j.at("function").get<std::string>();
  c.ns = j.at("ns").get<std::string>();
  c.value = j.at("value").get<std::string>();
  c.bel = j.at("bel").get<std::string>();
  c.url = j.at("url").get<std::string>();
  return c;
}

json mention_json(const EntityMention &m) {
  json cs = json::array();
  for (const EntityCandidate &c : m.candidates) cs.push_back(candidate_json(c));
  return {{"offset", m.offset},         {"length", m.length},         {"text", m.text},
          {"source", m.source},         {"type", m.type},             {"annotation_id", m.annotation_id},
          {"candidates", std::move(cs)}, {"status", m.status},        {"reason", m.reason},
          {"resolution", m.resolution}, {"chosen", optional_size(m.chosen)}};
}

EntityMention mention_from(const json &j) {
  EntityMention m;
  m.offset = detail::json_integer<std::size_t>(j.at("offset"));
  m.length = detail::json_integer<std::size_t>(j.at("length"));
  m.text = j.at("text").get<std::string>();
  m.source = j.at("source").get<std::string>();
  m.type = j.at("type").get<std::string>();
  m.annotation_id = j.at("annotation_id").get<std::string>();
  for (const json &c : j.at("candidates")) m.candidates.push_back(candidate_from(c));
  m.status = j.at("status").get<std::string>();
  m.reason = j.at("reason").get<std::string>();
  m.resolution = j.at("resolution").get<std::string>();
  m.chosen = read_optional_size(j.at("chosen"));
  return m;
}

}  // namespace

nlohmann::json detail::paper_json(const PaperContext &p) {
  json evidence = json::array();
  for (const OrganismEvidence &e : p.organisms)
    evidence.push_back({{"taxon", e.taxon}, {"name", e.name}, {"count", e.count}, {"cues", e.cues}});
  json abbreviations = json::array();
  for (const Abbreviation &a : p.abbreviations) {
    json entity = nullptr;
    if (a.entity)
      entity = {{"external_id", a.entity->id}, {"name", a.entity->name},   {"node", a.entity->node},
                {"label", a.entity->label},    {"taxon", a.entity->taxon}, {"bel", a.entity->bel}};
    abbreviations.push_back({{"short_form", a.short_form},
                             {"long_form", a.long_form},
                             {"offset", a.offset},
                             {"meaning", a.meaning},
                             {"entity", std::move(entity)}});
  }
  return {{"document", p.document},
          {"organism",
           {{"taxon", p.taxon}, {"name", p.organism_name}, {"source", p.organism_source}, {"held", p.held}, {"evidence", std::move(evidence)}}},
          {"abbreviations", std::move(abbreviations)}};
}

PaperContext detail::paper_from(const json &j) {
  PaperContext p;
  p.document = j.at("document").get<std::string>();
  const json &o = j.at("organism");
  p.taxon = detail::json_integer<int64_t>(o.at("taxon"));
  p.organism_name = o.at("name").get<std::string>();
  p.organism_source = o.at("source").get<std::string>();
  p.held = o.at("held").get<bool>();
  for (const json &e : o.at("evidence")) {
    OrganismEvidence x;
    x.taxon = detail::json_integer<int64_t>(e.at("taxon"));
    x.name = e.at("name").get<std::string>();
    x.count = detail::json_integer<std::size_t>(e.at("count"));
    x.cues = e.at("cues").get<std::vector<std::string>>();
    p.organisms.push_back(std::move(x));
  }
  for (const json &a : j.at("abbreviations")) {
    Abbreviation x;
    x.short_form = a.at("short_form").get<std::string>();
    x.long_form = a.at("long_form").get<std::string>();
    x.offset = detail::json_integer<std::size_t>(a.at("offset"));
    x.meaning = a.at("meaning").get<std::string>();
    if (const json &e = a.at("entity"); !e.is_null()) {
      EntityCandidate c;
      c.id = e.at("external_id").get<std::string>();
      c.name = e.at("name").get<std::string>();
      c.node = detail::json_integer<int64_t>(e.at("node"));
      c.label = e.at("label").get<std::string>();
      c.taxon = detail::json_integer<int64_t>(e.at("taxon"));
      c.bel = e.at("bel").get<std::string>();
      x.entity = std::move(c);
    }
    p.abbreviations.push_back(std::move(x));
  }
  return p;
}

namespace {

json problem_json(const BelProblem &p) {
  return {{"severity", to_string(p.severity)}, {"code", p.code}, {"offset", p.offset}, {"message", p.message}};
}

BelProblem problem_from(const json &j) {
  BelProblem p;
  const std::string severity = j.at("severity").get<std::string>();
  if (severity != "error" && severity != "warning") throw Error(ErrorCode::parse, "a problem of severity '" + severity + "'");
  p.severity = severity == "error" ? BelProblem::Severity::error : BelProblem::Severity::warning;
  p.code = j.at("code").get<std::string>();
  p.offset = detail::json_integer<std::size_t>(j.at("offset"));
  p.message = j.at("message").get<std::string>();
  return p;
}

json part_statement_json(const ExtractedStatement &s) {
  json problems = json::array();
  for (const BelProblem &p : s.problems) problems.push_back(problem_json(p));
  return {{"bel", s.bel},
          {"canonical", s.canonical},
          {"evidence", s.evidence},
          {"evidence_offset", optional_size(s.evidence_offset)},
          {"status", s.status},
          {"flags", s.flags},
          {"problems", std::move(problems)},
          {"origin", s.origin},
          {"original", s.original},
          {"original_problems", s.original_problems},
          {"mentions", s.mentions},
          {"duplicate_of", optional_size(s.duplicate_of)},
          {"checks", s.checks}};
}

ExtractedStatement part_statement_from(const json &j, std::size_t paragraph) {
  ExtractedStatement s;
  s.paragraph = paragraph;
  s.bel = j.at("bel").get<std::string>();
  s.canonical = j.at("canonical").get<std::string>();
  s.evidence = j.at("evidence").get<std::string>();
  s.evidence_offset = read_optional_size(j.at("evidence_offset"));
  s.status = j.at("status").get<std::string>();
  s.flags = j.at("flags").get<std::vector<std::string>>();
  for (const json &p : j.at("problems")) s.problems.push_back(problem_from(p));
  s.origin = j.at("origin").get<std::string>();
  s.original = j.at("original").get<std::string>();
  s.original_problems = j.at("original_problems").get<std::vector<std::string>>();
  s.mentions = detail::json_integers<std::size_t>(j.at("mentions"));
  s.duplicate_of = read_optional_size(j.at("duplicate_of"));
  s.checks = j.at("checks").get<std::map<std::string, std::string>>();
  return s;
}

[[noreturn]] void bad_extraction(const std::string &path, std::size_t line, const std::string &why) {
  throw Error(ErrorCode::parse, "extraction part '" + path + "'" + (line ? ":" + std::to_string(line) : std::string()) + ": " + why);
}

// What the merge relies on, checked once a part is read.
void check_part(const ExtractionResult &r, const std::string &path) {
  for (std::size_t i = 0; i < r.statements.size(); ++i) {
    const ExtractedStatement &s = r.statements[i];
    const ExtractionParagraph &p = r.paragraphs[s.paragraph];
    for (std::size_t m : s.mentions)
      if (m >= p.entities.size()) bad_extraction(path, 0, "statement " + std::to_string(i) + " names an entity its paragraph does not have");
    if (s.duplicate_of && (*s.duplicate_of >= i || r.statements[*s.duplicate_of].canonical != s.canonical))
      bad_extraction(path, 0, "statement " + std::to_string(i) + " is a duplicate of no earlier statement like it");
  }
  for (const ExtractionParagraph &p : r.paragraphs)
    for (const EntityMention &m : p.entities) {
      if (m.chosen && *m.chosen >= m.candidates.size())
        bad_extraction(path, 0, "a mention's chosen candidate is not among its candidates");
      if (m.offset > p.text.size() || m.length > p.text.size() - m.offset)
        bad_extraction(path, 0, "a mention lies outside its paragraph's text");
    }
  for (std::size_t i = 0; i < r.statements.size(); ++i) {
    const ExtractedStatement &s = r.statements[i];
    if (s.evidence_offset && *s.evidence_offset > r.paragraphs[s.paragraph].text.size())
      bad_extraction(path, 0, "statement " + std::to_string(i) + "'s evidence lies outside its paragraph's text");
  }
}

}  // namespace

void save_extraction(const ExtractionResult &r, const std::string &path, const std::string &provenance) {
  json prov = detail::part_provenance(provenance, "extraction part");
  std::vector<std::vector<std::size_t>> per(r.paragraphs.size());
  for (std::size_t i = 0; i < r.statements.size(); ++i) {
    if (r.statements[i].paragraph >= r.paragraphs.size())
      throw Error(ErrorCode::invalid_argument, "extraction part: statement " + std::to_string(i) + " of no paragraph");
    per[r.statements[i].paragraph].push_back(i);
  }
  // (statements are written by paragraph: the order must be the result's, as extract() makes it)
  for (std::size_t p = 0, next = 0; p < per.size(); ++p)
    for (std::size_t i : per[p])
      if (i != next++) throw Error(ErrorCode::invalid_argument, "extraction part: statements out of paragraph order");
  json papers = json::array();
  for (const PaperContext &p : r.papers) papers.push_back(detail::paper_json(p));
  const json header = {{"format", "grappi-extraction"},
                       {"version", 1},
                       {"documents", r.documents},
                       {"skipped_passages", r.skipped_passages},
                       {"usage", part_usage_json(r.usage)},
                       {"offline", r.offline},
                       {"dry_run", r.dry_run},
                       {"estimated_calls", r.estimated_calls},
                       {"estimated_prompt_tokens", r.estimated_prompt_tokens},
                       {"model", r.model},
                       {"template_version", r.template_version},
                       {"budget", r.budget},
                       {"paragraphs", r.paragraphs.size()},
                       {"statements", r.statements.size()},
                       {"papers", papers},
                       {"provenance", std::move(prov)}};
  detail::write_file_atomically(path, [&](std::ostream &out) {
    out << kExtractionMagic << '\n' << dump_json(header) << '\n';
    for (std::size_t i = 0; i < r.paragraphs.size(); ++i) {
      const ExtractionParagraph &p = r.paragraphs[i];
      json entities = json::array(), statements = json::array();
      for (const EntityMention &m : p.entities) entities.push_back(mention_json(m));
      for (std::size_t s : per[i]) statements.push_back(part_statement_json(r.statements[s]));
      out << dump_json(json{{"document", p.document}, {"pmid", p.pmid},       {"pmcid", p.pmcid},   {"doi", p.doi},
                            {"passage", p.passage},   {"section", p.section}, {"text", p.text},     {"status", p.status},
                            {"error", p.error},       {"cached", p.cached},   {"entities", std::move(entities)},
                            {"statements", std::move(statements)}})
          << '\n';
    }
  }, "extraction part");
}

ExtractionResult load_extraction(const std::string &path, std::string *provenance) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::io, "extraction part: cannot read '" + path + "'");
  if (!detail::read_magic_line(in, kExtractionMagic))
    bad_extraction(path, 1, "not an extraction part (line 1 is not \"" + std::string(kExtractionMagic) + "\")");
  std::string line;
  ExtractionResult r;
  std::size_t n_paragraphs = 0, n_statements = 0, at = 1;
  try {
    if (!std::getline(in, line)) bad_extraction(path, 2, "no header");
    ++at;
    const json h = json::parse(line);
    r.documents = detail::json_integer<std::size_t>(h.at("documents"));
    r.skipped_passages = detail::json_integer<std::size_t>(h.at("skipped_passages"));
    r.usage = part_usage_from(h.at("usage"));
    r.offline = h.at("offline").get<bool>();
    r.dry_run = h.at("dry_run").get<bool>();
    r.estimated_calls = detail::json_integer<std::size_t>(h.at("estimated_calls"));
    r.estimated_prompt_tokens = detail::json_integer<int64_t>(h.at("estimated_prompt_tokens"));
    r.model = h.at("model");
    r.template_version = h.at("template_version").get<std::string>();
    r.budget = h.at("budget").get<std::string>();
    n_paragraphs = detail::json_integer<std::size_t>(h.at("paragraphs"));
    n_statements = detail::json_integer<std::size_t>(h.at("statements"));
    // (parts written before papers were read have none)
    if (h.contains("papers"))
      for (const json &p : h.at("papers")) r.papers.push_back(detail::paper_from(p));
    if (provenance) *provenance = dump_json(h.value("provenance", json::object()));
    while (std::getline(in, line)) {
      ++at;
      if (r.paragraphs.size() == n_paragraphs) bad_extraction(path, at, "more paragraphs than the header announces");
      const json j = json::parse(line);
      ExtractionParagraph p;
      p.document = j.at("document").get<std::string>();
      p.pmid = j.at("pmid").get<std::string>();
      p.pmcid = j.at("pmcid").get<std::string>();
      p.doi = j.at("doi").get<std::string>();
      p.passage = detail::json_integer<std::size_t>(j.at("passage"));
      p.section = j.at("section").get<std::string>();
      p.text = j.at("text").get<std::string>();
      p.status = j.at("status").get<std::string>();
      p.error = j.at("error").get<std::string>();
      p.cached = j.at("cached").get<bool>();
      for (const json &m : j.at("entities")) p.entities.push_back(mention_from(m));
      for (const json &s : j.at("statements")) r.statements.push_back(part_statement_from(s, r.paragraphs.size()));
      r.paragraphs.push_back(std::move(p));
    }
  } catch (const json::exception &e) {
    bad_extraction(path, at, std::string("malformed: ") + e.what());
  } catch (const Error &e) {
    if (std::string(e.what()).rfind("extraction part", 0) == 0) throw;
    bad_extraction(path, at, e.what());
  }
  if (r.paragraphs.size() != n_paragraphs || r.statements.size() != n_statements)
    bad_extraction(path, 0, "the header announces " + std::to_string(n_paragraphs) + " paragraphs and " +
                                std::to_string(n_statements) + " statements, the file holds " +
                                std::to_string(r.paragraphs.size()) + " and " + std::to_string(r.statements.size()) +
                                " (truncated, or not written whole)");
  check_part(r, path);
  return r;
}

ExtractionResult merge_extractions(std::vector<ExtractionResult> parts) {
  ExtractionResult out;
  if (parts.empty()) return out;
  out.model = parts[0].model;
  out.template_version = parts[0].template_version;
  out.offline = true;
  out.dry_run = true;
  std::unordered_map<std::string, std::size_t> first;  // canonical form -> its first statement
  for (std::size_t k = 0; k < parts.size(); ++k) {
    ExtractionResult &p = parts[k];
    if (p.model != out.model || p.template_version != out.template_version)
      throw Error(ErrorCode::invalid_argument, "merge_extractions: part " + std::to_string(k) +
                                                   " was extracted with another model or other templates than part 0");
    const std::size_t offset = out.paragraphs.size();
    out.documents += p.documents;
    out.skipped_passages += p.skipped_passages;
    out.offline = out.offline && p.offline;
    out.dry_run = out.dry_run && p.dry_run;
    out.estimated_calls += p.estimated_calls;
    out.estimated_prompt_tokens += p.estimated_prompt_tokens;
    StageUsage &u = out.usage;
    const StageUsage &v = p.usage;
    u.model_calls += v.model_calls;
    u.local_answers += v.local_answers;
    u.cache_hits += v.cache_hits;
    u.prompt_tokens += v.prompt_tokens;
    u.completion_tokens += v.completion_tokens;
    u.failed += v.failed;
    u.skipped += v.skipped;
    u.repairs += v.repairs;
    u.seconds += v.seconds;
    if (!p.budget.empty()) out.budget += (out.budget.empty() ? "" : "; ") + ("part " + std::to_string(k) + ": " + p.budget);
    for (ExtractionParagraph &para : p.paragraphs) out.paragraphs.push_back(std::move(para));
    for (PaperContext &paper : p.papers) out.papers.push_back(std::move(paper));
    // Duplicates again, over every part: a statement's first occurrence may be in an earlier part.
    for (ExtractedStatement &s : p.statements) {
      s.paragraph += offset;
      s.duplicate_of.reset();
      if (!s.canonical.empty()) {
        auto [it, fresh] = first.emplace(s.canonical, out.statements.size());
        if (!fresh) s.duplicate_of = it->second;
      }
      out.statements.push_back(std::move(s));
    }
  }
  return out;
}

std::string extraction_dataset_path(const std::string &database, const ExtractionResult &result, bool flagged) {
  std::ostringstream script;
  write_bel_script(script, result, flagged);
  std::ostringstream name;
  name << database << ".extract-" << std::hex << std::hash<std::string>{}(script.str()) << ".bel";
  return name.str();
}

}  // namespace grappi
