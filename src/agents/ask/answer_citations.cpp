// The answer's sentences and their citations (grappi/answer.hpp): parsed from the model's JSON
// (or its text), each citation resolved and checked against the context the model was given.
#include <algorithm>
#include <regex>

#include "agents/ask/answer_impl.hpp"
#include "common/answer_json.hpp"
#include "common/text_util.hpp"

namespace grappi::detail {

namespace {

using nlohmann::json;

// The citations inside [..] in a text: each bracket's content split at commas and semicolons.
std::vector<std::string> bracketed(const std::string &text) {
  static const std::regex re("\\[([^\\[\\]]{1,300})\\]");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    const std::string inside = (*it)[1].str();
    std::size_t start = 0;
    for (std::size_t i = 0; i <= inside.size(); ++i)
      if (i == inside.size() || inside[i] == ',' || inside[i] == ';') {
        const std::string one = trim_copy(inside.substr(start, i - start));
        if (!one.empty()) out.push_back(one);
        start = i + 1;
      }
  }
  return out;
}

void add_unique(std::vector<std::string> &to, const std::string &c) {
  if (std::find(to.begin(), to.end(), c) == to.end()) to.push_back(c);
}

bool digits(std::string_view s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos; }

// "N3" / "E12": the index; npos when s is not such a label.
std::size_t label_index(const std::string &s, char letter) {
  if (s.size() < 2 || (s[0] != letter && s[0] != letter + ('a' - 'A')) || !digits(std::string_view(s).substr(1)) || s.size() > 8)
    return std::string::npos;
  return std::stoul(s.substr(1));
}

}  // namespace

int status_rank(const std::string &status) {
  if (status == "unknown_id") return 4;
  if (status == "not_in_context") return 3;
  if (status == "wrong_entities") return 2;
  if (status == "uncited") return 1;
  return 0;
}

ParsedAnswer parse_answer(std::string_view answer) {
  ParsedAnswer a;
  a.raw = std::string(answer);
  json j;
  if (!json_object_in(answer, j, a.error)) {
    // Prose (G-Retriever-style models answer in text): its sentences, each with the citations
    // in its brackets; a sentence without one is "uncited". An answer that opens like JSON but
    // does not parse is a broken JSON answer (the repair turn asks again), not prose.
    const std::string text = trim_copy(answer);
    if (text.empty() || text[0] == '{' || text.rfind("```", 0) == 0) return a;
    for (const auto &[b, e] : sentence_ranges(text)) {
      ProposedSentence p;
      p.text = trim_copy(text.substr(b, e - b));
      // (a line of only citations belongs to the sentence before it)
      if (!a.sentences.empty() && !p.text.empty() && p.text.front() == '[' && p.text.back() == ']' &&
          p.text.find(']') + 1 == p.text.size()) {
        a.sentences.back().text += " " + p.text;
        for (const std::string &c : bracketed(p.text)) add_unique(a.sentences.back().citations, c);
        continue;
      }
      for (const std::string &c : bracketed(p.text)) add_unique(p.citations, c);
      if (!p.text.empty()) a.sentences.push_back(std::move(p));
    }
    if (a.sentences.empty()) return a;
    a.error.clear();
    a.ok = true;
    a.prose = true;
    return a;
  }
  const auto add = [&a](std::string text, const json *list) {
    ProposedSentence p;
    p.text = trim_copy(text);
    if (list && list->is_array())
      for (const json &x : *list) {
        if (x.is_string()) add_unique(p.citations, trim_copy(x.get<std::string>()));
        else if (x.is_number_integer()) add_unique(p.citations, "PMID:" + std::to_string(x.get<int64_t>()));
      }
    for (const std::string &c : bracketed(p.text)) add_unique(p.citations, c);
    p.citations.erase(std::remove(p.citations.begin(), p.citations.end(), std::string()), p.citations.end());
    if (!p.text.empty()) a.sentences.push_back(std::move(p));
  };
  if (j.contains("sentences") && j["sentences"].is_array()) {
    for (const json &s : j["sentences"]) {
      if (s.is_string()) add(s.get<std::string>(), nullptr);
      else if (s.is_object()) add(json_string(s, "text"), s.contains("citations") ? &s["citations"] : nullptr);
    }
  } else if (const std::string text = json_string(j, "answer"); !text.empty()) {
    for (const auto &[b, e] : sentence_ranges(text)) add(text.substr(b, e - b), nullptr);
  }
  if (a.sentences.empty()) {
    a.error = "no \"sentences\" in the answer";
    return a;
  }
  a.ok = true;
  return a;
}

CitationChecker::CitationChecker(const KnowledgeGraph &kg, const AnswerContext &context) : kg_(kg), context_(context) {
  for (std::size_t i = 0; i < context.nodes.size(); ++i) {
    const auto n = kg.node(context.nodes[i]);
    std::vector<std::string> names;
    if (n) names.push_back(n->name);
    for (const auto &[alias, source] : kg.aliases(context.nodes[i]))
      if (name_like_alias(alias)) names.push_back(alias);
    names_.push_back(n ? n->name : std::to_string(context.nodes[i]));
    finders_.emplace_back(std::move(names));
    position_.emplace(context.nodes[i], i);
  }
  for (int64_t id : context.edges) {
    const auto e = kg.edge(id);
    if (!e) {
      ends_.emplace_back(0, 0);
      edge_text_.emplace_back();
      continue;
    }
    ends_.emplace_back(e->source, e->target);
    const auto name = [&](int64_t n) { return position_.count(n) ? names_[position_.at(n)] : std::to_string(n); };
    edge_text_.push_back(name(e->source) + (e->directed ? " -> " : " -- ") + name(e->target) + " (" + e->relation + ")");
    for (int64_t p : e->pmids) pmids_.insert(std::to_string(p));
    for (const EvidenceRecord &r : e->records) {
      const json j = json::parse(r.record, nullptr, false);
      if (j.is_object() && j.contains("interaction_ids") && j["interaction_ids"].is_array())
        for (const json &x : j["interaction_ids"])
          if (x.is_string()) {
            const std::string xid = x.get<std::string>();
            interactions_.insert(lower_copy(xid));
            if (const auto colon = xid.find(':'); colon != std::string::npos) interactions_.insert(lower_copy(xid.substr(colon + 1)));
          }
    }
  }
}

void CitationChecker::check_paper(AnswerCitation &a, std::size_t k, const std::vector<int64_t> &named) const {
  const AnswerPaper &p = context_.papers[k];
  a.target = p.pmid.empty() ? p.key : "PMID:" + p.pmid;
  const bool names = std::any_of(p.nodes.begin(), p.nodes.end(),
                                 [&](int64_t n) { return std::find(named.begin(), named.end(), n) != named.end(); });
  a.status = names ? "supported" : "wrong_entities";
}

std::vector<int64_t> CitationChecker::named(std::string_view text) const {
  std::vector<int64_t> out;
  for (std::size_t i = 0; i < finders_.size(); ++i)
    if (finders_[i].mentioned_in(text)) out.push_back(context_.nodes[i]);
  return out;
}

AnswerSentence CitationChecker::check(const ProposedSentence &p) const {
  static const std::regex pmid_re("^(?:PMID|PubMed)\\s*:?\\s*([0-9]{1,9})$", std::regex::icase);
  static const std::regex interaction_re("^(?:[A-Za-z_]+:)?(EBI-[0-9]+)$", std::regex::icase);
  AnswerSentence s;
  s.text = p.text;
  // The text without its bracketed citations names the entities (N3 is no entity's name).
  static const std::regex brackets("\\[[^\\[\\]]*\\]");
  const std::string plain = std::regex_replace(p.text, brackets, " ");
  std::vector<int64_t> named = this->named(plain);
  for (const std::string &c : p.citations)
    if (const std::size_t k = label_index(c, 'N'); k != std::string::npos && k < context_.nodes.size() &&
                                                   std::find(named.begin(), named.end(), context_.nodes[k]) == named.end())
      named.push_back(context_.nodes[k]);
  for (int64_t n : named) s.entities.push_back(names_[position_.at(n)]);
  int worst = 0;
  for (const std::string &c : p.citations) {
    AnswerCitation a;
    a.id = c;
    std::smatch m;
    if (const std::size_t k = label_index(c, 'N'); k != std::string::npos) {
      a.kind = "node";
      a.status = k < context_.nodes.size() ? "supported" : "unknown_id";
      if (k < context_.nodes.size()) a.target = names_[k], a.node = context_.nodes[k];
    } else if (const std::size_t e = label_index(c, 'E'); e != std::string::npos) {
      a.kind = "edge";
      if (e >= context_.edges.size()) {
        a.status = "unknown_id";
      } else {
        a.target = edge_text_[e];
        a.edge = context_.edges[e];
        const auto [u, v] = ends_[e];
        const bool touches = std::find(named.begin(), named.end(), u) != named.end() ||
                             std::find(named.begin(), named.end(), v) != named.end();
        a.status = touches ? "supported" : "wrong_entities";
      }
    } else if (const std::size_t pk = label_index(c, 'P'); pk != std::string::npos && pk < context_.papers.size()) {
      a.kind = "paper";
      check_paper(a, pk, named);
    } else if (std::regex_match(c, m, pmid_re) || digits(c)) {
      a.kind = "pmid";
      const std::string id = digits(c) ? c : m[1].str();
      a.target = "PMID:" + id;
      const auto &papers = context_.papers;
      const auto paper = std::find_if(papers.begin(), papers.end(), [&](const AnswerPaper &x) { return x.pmid == id; });
      if (pmids_.count(id)) a.status = "supported";  // (an edge's evidence)
      else if (paper != papers.end()) check_paper(a, static_cast<std::size_t>(paper - papers.begin()), named);
      else a.status = "not_in_context";
    } else if (std::regex_match(c, m, interaction_re)) {
      a.kind = "interaction";
      a.target = m[1].str();
      a.status = interactions_.count(lower_copy(c)) || interactions_.count(lower_copy(m[1].str())) ? "supported" : "not_in_context";
    } else {
      // A name or an external id: a node of the knowledge base, in the context or not.
      const ResolveResult r = kg_.lookup(c, 0);
      if (r.status != ResolveResult::Status::not_found) {
        // (an ambiguous name is supported when one of its nodes is in the context)
        a.kind = "node";
        std::vector<int64_t> ids;
        if (r.status == ResolveResult::Status::found) ids.push_back(r.id);
        for (const ResolveCandidate &x : r.candidates) ids.push_back(x.id);
        const auto in = std::find_if(ids.begin(), ids.end(), [&](int64_t id) { return position_.count(id) > 0; });
        a.node = in != ids.end() ? *in : ids.front();
        const auto n = kg_.node(a.node);
        a.target = n ? n->name : c;
        a.status = in != ids.end() ? "supported" : "not_in_context";
      } else {
        a.kind = "unknown";
        a.status = "unknown_id";
      }
    }
    worst = std::max(worst, status_rank(a.status));
    s.citations.push_back(std::move(a));
  }
  if (s.citations.empty()) s.status = "uncited";
  else if (worst == 0) s.status = "supported";
  else {
    for (const AnswerCitation &a : s.citations)
      if (status_rank(a.status) == worst) {
        s.status = a.status;
        break;
      }
  }
  return s;
}

}  // namespace grappi::detail
