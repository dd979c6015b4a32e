// Pair-level evaluation of an extraction against the PPI corpora's gold pairs
// (grappi/extraction.hpp): per sentence, unordered pairs of entity spans.
#include <iterator>
#include <map>
#include <set>

#include "formats/cx2.hpp"
#include "grappi/error.hpp"
#include "grappi/extraction.hpp"
#include "common/text_reader.hpp"
#include "common/json_input.hpp"

namespace grappi {

namespace {

using Span = std::pair<std::size_t, std::size_t>;  // offset, length in the passage
using Pair = std::pair<Span, Span>;                // ordered: first <= second

Pair make_pair_of(Span a, Span b) { return a <= b ? Pair{a, b} : Pair{b, a}; }

}  // namespace

ExtractionEvaluation evaluate_extraction(const ExtractionResult &r, const std::vector<Document> &documents) {
  ExtractionEvaluation e;
  e.documents = documents.size();
  using Where = std::pair<std::string, std::size_t>;  // (document id, passage)
  std::map<Where, std::set<Pair>> gold;
  std::map<std::string, const Document *> by_id;
  for (const Document &d : documents) {
    by_id.emplace(d.id, &d);
    for (const DocumentPair &p : d.pairs) {
      if (p.passage >= d.passages.size()) continue;
      const auto &ann = d.passages[p.passage].annotations;
      if (p.a >= ann.size() || p.b >= ann.size()) continue;
      gold[{d.id, p.passage}].insert(make_pair_of({ann[p.a].offset, ann[p.a].length}, {ann[p.b].offset, ann[p.b].length}));
    }
  }
  std::map<Where, std::set<Pair>> every, valid, cooccurring, grounded;
  for (const ExtractedStatement &s : r.statements) {
    if (s.status == "rejected") ++e.rejected;
    if (s.status == "flagged") ++e.flagged;
    ++e.statements;
    if (s.status == "rejected") continue;
    const ExtractionParagraph &p = r.paragraphs[s.paragraph];
    auto &set = every[{p.document, p.passage}];
    auto &valid_set = valid[{p.document, p.passage}];
    for (std::size_t i = 0; i < s.mentions.size(); ++i)
      for (std::size_t j = i + 1; j < s.mentions.size(); ++j) {
        const EntityMention &a = p.entities[s.mentions[i]], &b = p.entities[s.mentions[j]];
        const Pair x = make_pair_of({a.offset, a.length}, {b.offset, b.length});
        if (x.first == x.second) continue;
        set.insert(x);
        if (s.status == "valid") valid_set.insert(x);
      }
  }
  // The baseline on the same sentences: every pair of distinct entity spans the corpus gives.
  for (const ExtractionParagraph &p : r.paragraphs) {
    const auto d = by_id.find(p.document);
    if (d == by_id.end() || p.passage >= d->second->passages.size()) continue;
    std::set<Span> spans;
    for (const DocumentAnnotation &a : d->second->passages[p.passage].annotations) spans.insert({a.offset, a.length});
    auto &set = cooccurring[{p.document, p.passage}];
    for (auto i = spans.begin(); i != spans.end(); ++i)
      for (auto j = std::next(i); j != spans.end(); ++j) set.insert(make_pair_of(*i, *j));
  }
  // The grounded baseline: every pair of distinct spans the extraction grounded.
  for (const ExtractionParagraph &p : r.paragraphs) {
    std::set<Span> spans;
    for (const EntityMention &m : p.entities)
      if (m.entity()) spans.insert({m.offset, m.length});
    auto &set = grounded[{p.document, p.passage}];
    for (auto i = spans.begin(); i != spans.end(); ++i)
      for (auto j = std::next(i); j != spans.end(); ++j) set.insert(make_pair_of(*i, *j));
  }
  // Every gold pair counts, also those of sentences the extraction skipped (too short).
  e.sentences = r.paragraphs.size();
  for (const auto &[where, pairs] : gold) e.gold_pairs += pairs.size();
  const auto score = [&](const std::map<Where, std::set<Pair>> &predicted) {
    PairScore s;
    for (const auto &[where, pairs] : predicted) {
      s.predicted_pairs += pairs.size();
      if (auto g = gold.find(where); g != gold.end())
        for (const Pair &x : pairs) s.true_positives += g->second.count(x);
    }
    s.precision = s.predicted_pairs ? static_cast<double>(s.true_positives) / static_cast<double>(s.predicted_pairs) : 0;
    s.recall = e.gold_pairs ? static_cast<double>(s.true_positives) / static_cast<double>(e.gold_pairs) : 0;
    s.f1 = s.precision + s.recall > 0 ? 2 * s.precision * s.recall / (s.precision + s.recall) : 0;
    return s;
  };
  e.pairs = score(every);
  e.valid_pairs = score(valid);
  e.cooccurrence = score(cooccurring);
  e.grounded_cooccurrence = score(grounded);
  e.predicted_pairs = e.pairs.predicted_pairs;
  e.true_positives = e.pairs.true_positives;
  e.precision = e.pairs.precision;
  e.recall = e.pairs.recall;
  e.f1 = e.pairs.f1;
  return e;
}

namespace {

nlohmann::json score_json(const PairScore &s) {
  return {{"predicted_pairs", s.predicted_pairs}, {"true_positives", s.true_positives},
          {"precision", s.precision}, {"recall", s.recall}, {"f1", s.f1}};
}

}  // namespace

nlohmann::json to_json(const ExtractionEvaluation &e) {
  return {{"documents", e.documents},   {"sentences", e.sentences}, {"gold_pairs", e.gold_pairs},
          {"predicted_pairs", e.predicted_pairs}, {"true_positives", e.true_positives},
          {"precision", e.precision},   {"recall", e.recall},       {"f1", e.f1},
          {"pairs", score_json(e.pairs)}, {"valid_pairs", score_json(e.valid_pairs)},
          {"cooccurrence_baseline", score_json(e.cooccurrence)},
          {"grounded_cooccurrence_baseline", score_json(e.grounded_cooccurrence)},
          {"statements", e.statements}, {"rejected", e.rejected},   {"flagged", e.flagged}};
}

BelAudit audit_bel_cx2(const std::string &path, const BelOptions &options) {
  nlohmann::json doc;
  const std::string file_text = detail::read_whole_file(path).text;
  detail::check_json_depth(file_text, path);
  try {
    doc = nlohmann::json::parse(file_text);
  } catch (const nlohmann::json::exception &e) {
    throw Error(ErrorCode::parse, path + ": not JSON: " + e.what());
  }
  const detail::CxNetwork net = detail::read_cx(doc, path);
  const BelValidator validator(options);
  BelAudit a;
  a.path = path;
  for (const detail::CxElement &e : net.edges) {
    const auto it = e.values.find("bel_expression");
    if (it == e.values.end() || !it->is_string()) continue;
    const std::string text = it->get<std::string>();
    ++a.statements;
    const BelResult r = validator.check(text);
    for (const BelProblem &p : r.problems)
      if (p.severity == BelProblem::Severity::warning) ++a.warnings[p.code];
    if (r.valid()) {
      ++a.valid;
      a.with_warnings += r.warnings() > 0;
      continue;
    }
    ++a.rejected;
    for (const BelProblem &p : r.problems)
      if (p.severity == BelProblem::Severity::error) {
        ++a.errors[p.code];
        auto &ex = a.examples[p.code];
        if (ex.size() < 3) ex.emplace_back(text, p.message);
        break;
      }
  }
  return a;
}

nlohmann::json to_json(const BelAudit &a) {
  nlohmann::json examples = nlohmann::json::object();
  for (const auto &[code, list] : a.examples) {
    auto &l = examples[code] = nlohmann::json::array();
    for (const auto &[statement, message] : list) l.push_back({{"statement", statement}, {"message", message}});
  }
  return {{"path", a.path},         {"statements", a.statements}, {"valid", a.valid},
          {"rejected", a.rejected}, {"with_warnings", a.with_warnings}, {"errors", a.errors},
          {"warnings", a.warnings}, {"examples", examples}};
}

}  // namespace grappi
