// A curator's review of an extraction (grappi/extraction.hpp): every statement in a
// tab-separated file with a decision to change, read back and the accepted statements imported
// as a BEL dataset.
#include <filesystem>
#include <set>

#include "store/bel_graph.hpp"
#include "agents/extract/extraction_impl.hpp"
#include "grappi/error.hpp"
#include "grappi/extraction.hpp"
#include "grappi/version.h"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"

namespace grappi {

namespace {

const char *const kColumns[] = {"decision", "status", "statement", "evidence", "citation", "paragraph", "flags", "checks"};
constexpr std::size_t kColumnCount = sizeof kColumns / sizeof kColumns[0];

// A cell: tabs and line breaks as blanks (a review file is one row per line).
std::string cell(const std::string &s) {
  std::string out = s;
  for (char &c : out)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return out;
}

std::string joined(const std::vector<std::string> &v) {
  std::string out;
  for (const std::string &x : v) out += (out.empty() ? "" : ", ") + x;
  return out;
}

}  // namespace

void write_review(std::ostream &out, const ExtractionResult &r) {
  out << "# grappi review file (grappi " GRAPPI_VERSION_STRING "): set each decision to accept or reject (empty: "
         "undecided); grappi extract --db DB --apply-review FILE imports the accepted statements\n";
  for (std::size_t i = 0; i < kColumnCount; ++i) out << (i ? "\t" : "") << kColumns[i];
  out << '\n';
  for (const ExtractedStatement &s : r.statements) {
    if (s.duplicate_of) continue;
    const ExtractionParagraph &p = r.paragraphs[s.paragraph];
    std::vector<std::string> checks;
    for (const auto &[name, outcome] : s.checks) checks.push_back(name + "=" + outcome);
    const std::string citation = detail::reference_of(p);
    const std::string decision = s.status == "valid" ? "accept" : s.status == "rejected" ? "reject" : "";
    out << decision << '\t' << s.status << '\t' << cell(s.canonical.empty() ? s.bel : s.canonical) << '\t'
        << cell(s.evidence.empty() ? p.text : s.evidence) << '\t' << cell(citation) << '\t'
        << cell(p.document + "#" + std::to_string(p.passage)) << '\t' << cell(joined(s.flags)) << '\t'
        << cell(joined(checks)) << '\n';
  }
}

std::vector<ReviewRow> read_review(const std::string &path) {
  detail::LineReader reader(path);
  std::vector<ReviewRow> rows;
  std::string_view line;
  bool header = false;
  while (reader.next(line)) {
    const uint64_t no = reader.line_number();
    const std::string where = path + ":" + std::to_string(no);
    if (!detail::valid_utf8(line)) throw Error(ErrorCode::parse, where + ": not valid UTF-8 text");
    if (line.empty() || (!header && line.front() == '#')) continue;
    const std::vector<std::string_view> cells = detail::split_view(line, '\t');
    if (!header) {
      bool same = cells.size() == kColumnCount;
      for (std::size_t i = 0; same && i < kColumnCount; ++i) same = detail::trim_copy(cells[i]) == kColumns[i];
      if (!same)
        throw Error(ErrorCode::parse, where + ": expected the review header 'decision status statement evidence "
                                              "citation paragraph flags checks' (tab-separated), found '" +
                                          std::string(line.substr(0, 120)) + "'");
      header = true;
      continue;
    }
    if (cells.size() != kColumnCount)
      throw Error(ErrorCode::parse, where + ": expected " + std::to_string(kColumnCount) +
                                        " tab-separated columns as in the header, found " + std::to_string(cells.size()));
    ReviewRow r;
    r.line = no;
    r.decision = detail::lower_copy(detail::trim_copy(cells[0]));
    if (r.decision != "accept" && r.decision != "reject" && !r.decision.empty())
      throw Error(ErrorCode::parse, where + ": the decision is accept, reject or empty, found '" +
                                        std::string(cells[0].substr(0, 40)) + "'");
    r.status = detail::trim_copy(cells[1]);
    r.statement = detail::trim_copy(cells[2]);
    r.evidence = detail::trim_copy(cells[3]);
    r.citation = detail::trim_copy(cells[4]);
    r.paragraph = detail::trim_copy(cells[5]);
    r.flags = detail::trim_copy(cells[6]);
    r.checks = detail::trim_copy(cells[7]);
    if (r.decision == "accept" && r.statement.empty()) throw Error(ErrorCode::parse, where + ": an accepted row without a statement");
    rows.push_back(std::move(r));
  }
  if (!header) throw Error(ErrorCode::parse, path + ": no review header (an empty file?)");
  return rows;
}

FileReport import_review(KnowledgeGraph &kg, const std::string &review_path, const std::string &bel_path) {
  const std::vector<ReviewRow> rows = read_review(review_path);
  // The accepted statements, checked before anything is written.
  BelOptions bo;
  BelValidator v(bo);
  v.define_namespace({"TEXT", bel_any, ""});  // (names no database grounds, as extraction offers them)
  std::vector<std::pair<const ReviewRow *, std::string>> accepted;
  for (const ReviewRow &r : rows) {
    if (r.decision != "accept") continue;
    const BelResult b = v.check(r.statement);
    if (!b.valid())
      throw Error(ErrorCode::parse, review_path + ":" + std::to_string(r.line) + ": the accepted statement '" +
                                        r.statement.substr(0, 80) + "' is not valid BEL: " + detail::bel_first_error(b));
    accepted.emplace_back(&r, b.canonical);
  }
  if (accepted.empty()) throw Error(ErrorCode::invalid_argument, review_path + ": no accepted statement to import");
  std::vector<std::string> statements;
  for (const auto &a : accepted) statements.push_back(a.second);
  const std::string reviewed_in = std::filesystem::path(review_path).filename().string();
  detail::write_file_atomically(
      bel_path,
      [&](std::ostream &out) {
        out << detail::bel_document_head("grappi review", "BEL statements a curator accepted in " + reviewed_in,
                                         detail::bel_namespaces_of(statements), {}, {"Paragraph", "ReviewedIn"});
        using detail::bel_quoted;
        for (const auto &[row, canonical] : accepted) {
          const ReviewRow &r = *row;
          const std::string document = r.paragraph.substr(0, r.paragraph.rfind('#'));
          out << "\n";
          out << detail::citation_line(document, r.citation.empty() ? std::string(detail::kUncitedId) : r.citation);
          out << "SET Evidence = " << bel_quoted(r.evidence.empty() ? std::string(detail::kUncitedEvidence) : r.evidence) << "\n"
              << "SET Paragraph = " << bel_quoted(r.paragraph) << "\n"
              << "SET ReviewedIn = " << bel_quoted(reviewed_in) << "\n"
              << detail::bel_script_form(canonical) << "\n";
        }
      },
      "review");
  return kg.import({{bel_path, "bel"}}).files.at(0);
}

}  // namespace grappi
