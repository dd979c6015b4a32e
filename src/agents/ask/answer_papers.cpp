// The papers of an answer's context (grappi/answer.hpp, AskOptions::papers): the database's
// stored papers found by full-text search for the question's entities and the context's other
// entities, kept when they name an entity of the context the question does not name, each
// written as its sentences that name context entities and labelled P0, P1, ...
#include <algorithm>
#include <cctype>
#include <set>

#include "agents/ask/answer_impl.hpp"
#include "grappi/error.hpp"
#include "common/text_util.hpp"

namespace grappi::detail {

namespace {

// An FTS5 phrase: the words in double quotes (a quote inside doubled).
std::string phrase(const std::string &words) {
  std::string out = "\"";
  for (char ch : words) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

// The names a node is searched by: its name and a few name-like aliases (three characters or
// more, not only digits), at most four in all.
std::vector<std::string> search_terms(const std::vector<std::string> &names) {
  std::vector<std::string> out;
  for (const std::string &n : names) {
    if (out.size() >= 4) break;
    const std::string t = trim_copy(n);
    // (a word to search by: a letter in it, and never only digits)
    const bool letter = std::any_of(t.begin(), t.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
    if (t.size() < 3 || !letter) continue;
    if (std::find_if(out.begin(), out.end(), [&](const std::string &x) { return iequals(x, t); }) == out.end())
      out.push_back(t);
  }
  return out;
}

std::string any_of(const std::vector<std::string> &terms) {
  std::string q;
  for (const std::string &t : terms) q += (q.empty() ? "" : " OR ") + phrase(t);
  return q;
}

struct Candidate {
  PaperHit hit;
  std::string excerpt;
  std::vector<int64_t> nodes;  // the context nodes its excerpt names, in context order
  std::vector<std::pair<std::string, std::vector<int64_t>>> sentences;  // the excerpt's, with the nodes each names
  bool names_asked = false;
  std::size_t others = 0;      // context nodes it names that the question does not
};

}  // namespace

void add_paper_context(const KnowledgeGraph &kg, AnswerContext &c, const CitationChecker &finder,
                       const std::vector<int64_t> &asked, std::size_t count, std::size_t budget, nlohmann::json &task) {
  task["papers"] = nlohmann::json::array();
  if (count == 0 || c.nodes.empty() || kg.paper_count() == 0) return;
  const std::set<int64_t> asked_set(asked.begin(), asked.end());
  // The question's entities and the best ten others of the context, by their names.
  std::vector<std::string> asked_terms, other_terms;
  std::size_t others = 0;
  for (std::size_t i = 0; i < c.nodes.size(); ++i) {
    const bool is_asked = asked_set.count(c.nodes[i]) > 0;
    if (!is_asked && others >= 10) continue;
    others += !is_asked;
    for (std::string &t : search_terms(finder.terms(i))) (is_asked ? asked_terms : other_terms).push_back(std::move(t));
  }
  if (other_terms.empty()) return;  // (no entity a paper could say something about)
  // Papers naming a question entity and another entity first; else any naming another entity.
  std::vector<std::string> queries;
  if (!asked_terms.empty()) queries.push_back("(" + any_of(asked_terms) + ") AND (" + any_of(other_terms) + ")");
  queries.push_back(any_of(other_terms));
  std::vector<Candidate> candidates;
  std::set<std::string> seen;
  for (const std::string &q : queries) {
    if (candidates.size() >= 4 * count) break;
    std::vector<PaperHit> hits;
    try {
      hits = kg.search_papers(q, std::min<std::size_t>(1000, 10 * count));
    } catch (const Error &e) {
      // (a name FTS5 cannot search by leaves the papers out, never the answer)
      if (e.code() != ErrorCode::invalid_argument) throw;
      continue;
    }
    for (PaperHit &h : hits) {
      if (!seen.insert(h.key).second) continue;
      Candidate x;
      // The sentences naming context entities, in order, up to about 600 characters.
      std::set<int64_t> named;
      for (const auto &[b, e] : sentence_ranges(h.passage)) {
        const std::string sentence = clip_text(one_line_text(trim_copy(std::string_view(h.passage).substr(b, e - b))), 600);
        const std::vector<int64_t> in = finder.named(sentence);
        if (in.empty()) continue;
        if (!x.excerpt.empty() && x.excerpt.size() + sentence.size() > 600) break;
        x.excerpt += (x.excerpt.empty() ? "" : " ") + sentence;
        x.sentences.emplace_back(sentence, in);
        named.insert(in.begin(), in.end());
      }
      for (int64_t n : c.nodes)
        if (named.count(n)) {
          x.nodes.push_back(n);
          if (asked_set.count(n)) x.names_asked = true;
          else ++x.others;
        }
      if (x.others == 0) continue;
      x.hit = std::move(h);
      candidates.push_back(std::move(x));
    }
  }
  // Those naming a question entity first, then the most context entities, then relevance.
  std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate &a, const Candidate &b) {
    if (a.names_asked != b.names_asked) return a.names_asked;
    if (a.others != b.others) return a.others > b.others;
    return a.hit.score > b.hit.score;
  });
  std::string lines;
  for (Candidate &x : candidates) {
    if (c.papers.size() >= count) break;
    const std::string label = "P" + std::to_string(c.papers.size());
    std::string line = label + " " + (x.hit.pmid.empty() ? x.hit.key : "PMID:" + x.hit.pmid);
    if (x.hit.year > 0) line += " (" + std::to_string(x.hit.year) + ")";
    if (!x.hit.title.empty()) line += " \"" + clip_text(one_line_text(x.hit.title), 160) + "\"";
    line += ": " + x.excerpt + "\n";
    const std::string header = c.papers.empty() ? "Papers:\n" : "";
    if (budget && c.tokens + (header.size() + line.size()) / 4 > budget) break;
    if (!c.text.empty() && c.text.back() != '\n') c.text += '\n';
    c.text += header + line;
    c.tokens = c.text.size() / 4 + 1;
    const auto labels = [&](const std::vector<int64_t> &nodes) {
      nlohmann::json out = nlohmann::json::array();
      for (int64_t n : nodes)
        out.push_back("N" + std::to_string(std::find(c.nodes.begin(), c.nodes.end(), n) - c.nodes.begin()));
      return out;
    };
    nlohmann::json sentences = nlohmann::json::array();
    for (const auto &[text, nodes] : x.sentences) sentences.push_back({{"text", text}, {"entities", labels(nodes)}});
    task["papers"].push_back({{"label", label},
                              {"pmid", x.hit.pmid},
                              {"key", x.hit.key},
                              {"entities", labels(x.nodes)},
                              {"sentences", std::move(sentences)}});
    AnswerPaper p;
    p.key = x.hit.key;
    p.pmid = x.hit.pmid;
    p.year = x.hit.year;
    p.title = x.hit.title;
    p.excerpt = x.excerpt;
    p.nodes = std::move(x.nodes);
    c.papers.push_back(std::move(p));
  }
}

}  // namespace grappi::detail
