// BEL scripts: document properties, namespace and annotation definitions, the citation,
// evidence and annotations in force, and every statement checked in its context.
#include <algorithm>
#include <functional>
#include <istream>
#include <limits>
#include <optional>
#include <regex>
#include <string>
#include <unordered_map>
#include <utility>

#include "formats/bel_script.hpp"
#include "formats/bel_parser.hpp"
#include "grappi/bel.hpp"
#include "grappi/error.hpp"
#include "common/text_util.hpp"

namespace grappi {
namespace {

// The longest annotation value checked against a DEFINE ANNOTATION ... AS PATTERN.
constexpr std::size_t kMaxPatternValue = 2048;

using Severity = BelProblem::Severity;

struct LogicalLine {
  std::size_t line = 0;  // first physical line
  std::string text;
  bool unterminated = false;  // a quoted value still open at the end of the file
};

// A line's quotes scanned once (a backslash escapes inside them): whether a quoted value is
// still open at its end, and where its trailing comment starts ('//' outside quotes, at the
// start or after a blank: `p(HGNC:AKT1) increases p(HGNC:MTOR) // a note`, as PyBEL reads it;
// npos when none). The scan stops at the comment: a quote inside a comment opens nothing.
struct QuoteScan {
  bool open = false;
  std::size_t comment = std::string::npos;
};

// The scan of text[from..] continuing `scan` (a text scanned a part at a time scans as it would
// whole); `from` becomes the text's size. A comment ends the scan for good.
const QuoteScan &continue_scan(const std::string &text, QuoteScan &scan, std::size_t &from) {
  if (scan.comment != std::string::npos) return scan;
  for (std::size_t i = from; i < text.size(); ++i) {
    if (scan.open && text[i] == '\\') {
      ++i;
      continue;
    }
    if (text[i] == '"') scan.open = !scan.open;
    const bool after_blank = i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t';
    if (!scan.open && after_blank && text[i] == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      scan.comment = i;
      break;
    }
  }
  from = text.size();
  return scan;
}

QuoteScan scan_quotes(const std::string &s) {
  QuoteScan q;
  std::size_t from = 0;
  return continue_scan(s, q, from);
}

// Physical lines joined where a line ends with a backslash or a quoted value goes on, one
// logical line at a time (a logical line longer than max_bytes is Error(parse)).
class LogicalLines {
 public:
  LogicalLines(const std::function<bool(std::string &)> &next, std::size_t max_bytes, std::string source)
      : next_(next), max_(max_bytes), source_(std::move(source)) {}

  bool next(LogicalLine &out) {
    if (done_) return false;
    LogicalLine current;
    bool continuing = false;
    QuoteScan scan;  // (of the text so far: a continued quoted value is scanned from where it stopped)
    std::size_t scanned = 0;
    while (next_(line_)) {
      ++number_;
      if (!line_.empty() && line_.back() == '\r') line_.pop_back();
      if (!continuing) {
        current = LogicalLine{number_, {}, false};
        scan = QuoteScan{};
        scanned = 0;
      }
      if (current.text.size() + line_.size() > max_)
        throw Error(ErrorCode::parse, source_ + ":" + std::to_string(current.line) + ": a statement or value longer than " +
                                          std::to_string(max_ >> 20) + " MiB (an unclosed quote or a run of continued lines)");
      current.text += line_;
      continuing = false;
      if (!current.text.empty() && current.text.back() == '\\') {
        current.text.pop_back();  // backslash continuation (the scan so far holds for what is left)
        continuing = true;
      } else if (continue_scan(current.text, scan, scanned).open) {
        // Only a SET line's quoted value (an evidence text) goes on on the next line; a
        // statement with an open quote is reported on its own line.
        std::size_t first = current.text.find_first_not_of(" \t");
        if (first != std::string::npos && current.text.compare(first, 4, "SET ") == 0) {
          current.text += '\n';
          continuing = true;
        }
      }
      if (!continuing) {
        out = std::move(current);
        return true;
      }
    }
    done_ = true;
    if (continuing) {
      current.unterminated = true;
      out = std::move(current);
      return true;
    }
    return false;
  }

 private:
  const std::function<bool(std::string &)> &next_;
  std::size_t max_;
  std::string source_;  // (for messages: the file)
  std::string line_;
  std::size_t number_ = 0;
  bool done_ = false;
};

struct Annotation {
  enum class Kind { url, pattern, list } kind = Kind::url;
  std::vector<std::string> values;
  std::optional<std::regex> pattern;
};

class ScriptReader {
 public:
  explicit ScriptReader(const BelOptions &options) : validator_(options) {}

  /// Every logical line of `next`'s physical lines; statements and problems go to the sink
  /// when there is one, else into the document.
  BelDocument read(const std::function<bool(std::string &)> &next, std::size_t max_logical, detail::BelScriptSink *sink,
                   const std::string &source) {
    sink_ = sink;
    LogicalLines lines(next, max_logical, source);
    LogicalLine l;
    while (lines.next(l)) {
      line_ = l.line;
      std::string text = detail::trim_copy(l.text);
      if (text.empty() || text[0] == '#') continue;
      text = detail::trim_copy(text.substr(0, scan_quotes(text).comment));
      if (text.empty()) continue;
      indent_ = l.text.find_first_not_of(" \t");
      if (l.unterminated) {
        problem(0, Severity::error, "script", "unterminated quoted value: the file ends inside it");
        continue;
      }
      if (starts_with(text, "SET ")) {
        scripted_ = true;
        set(text.substr(4));
      } else if (starts_with(text, "UNSET ")) {
        scripted_ = true;
        unset(text.substr(6));
      } else if (starts_with(text, "DEFINE ")) {
        scripted_ = true;
        define(text.substr(7));
      } else {
        statement(text);
      }
    }
    if (!sink_)
      std::stable_sort(doc_.problems.begin(), doc_.problems.end(),
                       [](const BelScriptProblem &a, const BelScriptProblem &b) { return a.line < b.line; });
    return std::move(doc_);
  }

 private:
  static bool starts_with(const std::string &s, std::string_view prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
  }

  void problem(std::size_t offset, Severity severity, const char *code, std::string message) {
    BelScriptProblem p{line_, indent_ + offset + 1, {severity, code, offset, std::move(message)}};
    if (sink_)
      sink_->problem(p);
    else
      doc_.problems.push_back(std::move(p));
  }

  // `"value"` or a bare word; empty optional when malformed.
  static std::optional<std::string> value(std::string_view s) {
    std::string v = detail::trim_copy(s);
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') {
      std::string out;
      for (std::size_t i = 1; i + 1 < v.size(); ++i) {
        if (v[i] == '\\' && i + 2 < v.size()) ++i;
        out += v[i];
      }
      return out;
    }
    if (v.empty() || v.find_first_of("\"{}") != std::string::npos) return std::nullopt;
    return v;
  }

  // `{"a", "b"}` (quoted or bare items); nullopt when malformed.
  static std::optional<std::vector<std::string>> list(std::string_view s) {
    std::string v = detail::trim_copy(s);
    if (v.size() < 2 || v.front() != '{' || v.back() != '}') return std::nullopt;
    std::vector<std::string> out;
    std::string item;
    bool in = false, any = false;
    for (std::size_t i = 1; i + 1 < v.size(); ++i) {
      char c = v[i];
      if (in) {
        if (c == '\\' && i + 2 < v.size()) item += v[++i];
        else if (c == '"') in = false;
        else item += c;
      } else if (c == '"') {
        in = true;
        any = true;
      } else if (c == ',') {
        out.push_back(detail::trim_copy(item));
        item.clear();
        any = false;
      } else {
        item += c;
        if (c != ' ' && c != '\t') any = true;
      }
    }
    if (in) return std::nullopt;
    if (any || !out.empty()) out.push_back(detail::trim_copy(item));
    return out;
  }

  void set(const std::string &rest) {
    std::size_t eq = rest.find('=');
    if (eq == std::string::npos) {
      problem(4, Severity::error, "script", "SET needs 'NAME = value'");
      return;
    }
    std::string key = detail::trim_copy(std::string_view(rest).substr(0, eq));
    std::string_view rhs = std::string_view(rest).substr(eq + 1);
    if (starts_with(key, "DOCUMENT ")) {
      auto v = value(rhs);
      if (!v) return problem(4, Severity::error, "script", "SET DOCUMENT needs a quoted value");
      doc_.properties.emplace_back(detail::trim_copy(std::string_view(key).substr(9)), *v);
      return;
    }
    if (key == "STATEMENT_GROUP") {
      auto v = value(rhs);
      if (!v) return problem(4, Severity::error, "script", "SET STATEMENT_GROUP needs a quoted value");
      group_ = *v;
      return;
    }
    if (detail::iequals(key, "Citation")) return citation(rhs);
    if (detail::iequals(key, "Evidence") || detail::iequals(key, "SupportingText")) {
      auto v = value(rhs);
      if (!v) return problem(4, Severity::error, "script", "SET " + key + " needs a quoted text");
      evidence_ = *v;
      evidence_used_ = false;
      cleared_line_ = 0;
      return;
    }
    std::vector<std::string> values;
    if (auto l = list(rhs)) {
      values = std::move(*l);
    } else if (auto v = value(rhs)) {
      values.push_back(std::move(*v));
    } else {
      return problem(4, Severity::error, "script",
                     "SET " + key + " needs a quoted value or a list {\"a\", \"b\"}");
    }
    auto def = annotations_.find(key);
    if (def == annotations_.end()) {
      if (scripted_defs_)
        problem(4, Severity::warning, "script",
                "annotation '" + key + "' was not defined with DEFINE ANNOTATION");
    } else {
      for (const std::string &v : values) {
        const Annotation &a = def->second;
        // std::regex recurses per character: a long value could exhaust the stack.
        if (a.kind == Annotation::Kind::pattern && v.size() > kMaxPatternValue) {
          problem(4, Severity::error, "script",
                  "a value of annotation '" + key + "' is longer than " + std::to_string(kMaxPatternValue) +
                      " characters: too long to check against its PATTERN");
          continue;
        }
        bool ok = a.kind == Annotation::Kind::url ||
                  (a.kind == Annotation::Kind::list && std::find(a.values.begin(), a.values.end(), v) != a.values.end()) ||
                  (a.kind == Annotation::Kind::pattern && a.pattern && std::regex_match(v, *a.pattern));
        if (!ok)
          problem(4, Severity::error, "script",
                  "'" + v + "' is not a value of annotation '" + key + "' as its DEFINE ANNOTATION gives it");
      }
    }
    auto it = std::find_if(annotated_.begin(), annotated_.end(), [&](const auto &p) { return p.first == key; });
    if (it != annotated_.end())
      it->second = std::move(values);
    else
      annotated_.emplace_back(key, std::move(values));
  }

  void citation(std::string_view rhs) {
    auto l = list(rhs);
    if (!l || l->size() < 2 || l->size() > 6) {
      problem(4, Severity::error, "script",
              "SET Citation needs {\"PubMed\", \"12345\"} or {\"PubMed\", \"title\", \"12345\"[, \"date\", \"authors\"]}");
      return;
    }
    BelCitation c;
    const auto &f = *l;
    c.type = f[0];
    if (f.size() == 2) {
      c.id = f[1];
    } else {
      c.name = f[1];
      c.id = f[2];
      if (f.size() > 3) c.date = f[3];
      if (f.size() > 4) c.authors = f[4];
    }
    if (c.id.empty()) problem(4, Severity::error, "script", "the citation has no reference");
    if (detail::iequals(c.type, "PubMed") &&
        (c.id.empty() || c.id.find_first_not_of("0123456789") != std::string::npos))
      problem(4, Severity::error, "script", "a PubMed citation needs a numeric PMID, not '" + c.id + "'");
    citation_ = std::move(c);
    // A new citation clears the evidence and annotations (as BEL and pybel do); an evidence it
    // clears was likely meant for the statements after it (the order reversed).
    if (!evidence_.empty() && !evidence_used_) cleared_line_ = line_;
    evidence_.clear();
    annotated_.clear();
  }

  void unset(const std::string &rest) {
    std::string what = detail::trim_copy(rest);
    std::vector<std::string> keys;
    if (auto l = list(what)) {
      keys = std::move(*l);
    } else {
      keys.push_back(what);
    }
    for (const std::string &key : keys) {
      if (key == "ALL") {
        citation_.reset();
        cleared_line_ = 0;
        evidence_.clear();
        annotated_.clear();
        group_.clear();
      } else if (key == "STATEMENT_GROUP") {
        group_.clear();
      } else if (detail::iequals(key, "Citation")) {
        citation_.reset();
      } else if (detail::iequals(key, "Evidence") || detail::iequals(key, "SupportingText")) {
        cleared_line_ = 0;
        evidence_.clear();
      } else {
        auto it = std::find_if(annotated_.begin(), annotated_.end(), [&](const auto &p) { return p.first == key; });
        if (it == annotated_.end())
          problem(6, Severity::warning, "script", "UNSET " + key + ": it was not set");
        else
          annotated_.erase(it);
      }
    }
  }

  void define(const std::string &rest) {
    bool is_ns = starts_with(rest, "NAMESPACE ");
    bool is_anno = starts_with(rest, "ANNOTATION ");
    if (!is_ns && !is_anno)
      return problem(7, Severity::error, "script", "DEFINE takes NAMESPACE or ANNOTATION");
    std::string body = detail::trim_copy(std::string_view(rest).substr(is_ns ? 10 : 11));
    std::size_t as = body.find(" AS ");
    if (as == std::string::npos)
      return problem(7, Severity::error, "script", "DEFINE needs 'NAME AS URL|PATTERN|LIST ...'");
    std::string name = detail::trim_copy(std::string_view(body).substr(0, as));
    std::string how = detail::trim_copy(std::string_view(body).substr(as + 4));
    Annotation a;
    std::string_view arg;
    if (starts_with(how, "URL ")) {
      a.kind = Annotation::Kind::url;
      arg = std::string_view(how).substr(4);
    } else if (starts_with(how, "PATTERN ")) {
      a.kind = Annotation::Kind::pattern;
      arg = std::string_view(how).substr(8);
    } else if (starts_with(how, "LIST ")) {
      a.kind = Annotation::Kind::list;
      arg = std::string_view(how).substr(5);
    } else {
      return problem(7, Severity::error, "script", "DEFINE " + name + ": expected AS URL, AS PATTERN or AS LIST");
    }
    if (a.kind == Annotation::Kind::list) {
      auto l = list(arg);
      if (!l) return problem(7, Severity::error, "script", "DEFINE " + name + " AS LIST needs {\"a\", \"b\"}");
      a.values = std::move(*l);
    } else {
      auto v = value(arg);
      if (!v) return problem(7, Severity::error, "script", "DEFINE " + name + " needs a quoted URL or pattern");
      if (a.kind == Annotation::Kind::pattern) {
        try {
          a.pattern.emplace(*v, std::regex::ECMAScript);
        } catch (const std::regex_error &) {
          problem(7, Severity::error, "script", "DEFINE " + name + ": the pattern \"" + *v + "\" is not a regular expression");
        }
      }
    }
    if (is_ns) {
      doc_.namespaces.push_back(name);
      if (!validator_.knows_namespace(name)) validator_.define_namespace({name, bel_any, ""});
    } else {
      doc_.annotations.push_back(name);
      annotations_[name] = std::move(a);
      scripted_defs_ = true;
    }
  }

  void statement(const std::string &text) {
    // A -> B -> C: BEL has one relation per statement; read the links as statements of their own
    // (pybel keeps the first and drops the rest without a word), with a warning at each further
    // relation. Linear in the line's length however many links it chains (no copy of the rest).
    std::string_view rest = text;
    const std::size_t indent = indent_;
    bool chained = false;
    for (;;) {
      BelResult result = validator_.check(rest);
      std::optional<detail::bel::ChainSplit> chain;
      if (!result.statement) chain = detail::bel::split_chain(rest);
      if (!chain) {
        statement(std::string(rest), std::move(result));
        break;
      }
      std::string first(chain->first);
      problem(chain->relation_offset, Severity::warning, "chained",
              "two relations in one statement: read as statements of their own, '" + excerpt(first) + "' and '" +
                  excerpt(chain->rest) + "' (BEL 2.1 allows one relation; nest with parentheses: A -> (B -> C))");
      chained = true;
      statement(first, validator_.check(first));
      indent_ += chain->rest_offset;
      rest = chain->rest;
    }
    indent_ = indent;
    if (chained) ++doc_.chained;
  }

  static std::string excerpt(std::string_view s) {
    return s.size() <= 80 ? std::string(s) : std::string(s.substr(0, 77)) + "...";
  }

  void statement(const std::string &text, BelResult result) {
    BelScriptStatement st;
    st.line = line_;
    st.text = text;
    st.result = std::move(result);
    st.citation = citation_;
    st.evidence = evidence_;
    evidence_used_ = true;
    st.statement_group = group_;
    st.annotations = annotated_;
    if (!sink_)
      for (const BelProblem &p : st.result.problems) doc_.problems.push_back({line_, indent_ + p.offset + 1, p});
    if (scripted_ && !citation_)
      problem(0, Severity::warning, "script", "no SET Citation is in force for this statement");
    if (evidence_.empty() && cleared_line_) {
      problem(0, Severity::warning, "script",
              "no evidence: the SET Citation on line " + std::to_string(cleared_line_) +
                  " cleared the SET Evidence before it (set the citation first)");
      ++doc_.evidence_cleared;
    }
    if (sink_)
      sink_->statement(std::move(st));
    else
      doc_.statements.push_back(std::move(st));
  }

  BelValidator validator_;
  BelDocument doc_;
  detail::BelScriptSink *sink_ = nullptr;
  std::size_t line_ = 0, indent_ = 0;
  bool scripted_ = false;       // a SET, UNSET or DEFINE line was seen
  bool scripted_defs_ = false;  // a DEFINE ANNOTATION was seen
  std::optional<BelCitation> citation_;
  std::size_t cleared_line_ = 0;  // the SET Citation that cleared an evidence no statement had used
  bool evidence_used_ = false;    // a statement took the evidence in force
  std::string evidence_, group_;
  std::vector<std::pair<std::string, std::vector<std::string>>> annotated_;
  std::unordered_map<std::string, Annotation> annotations_;
};

}  // namespace

std::size_t BelDocument::valid_statements() const noexcept {
  return static_cast<std::size_t>(std::count_if(statements.begin(), statements.end(),
                                                [](const BelScriptStatement &s) { return s.result.valid(); }));
}

std::size_t BelDocument::errors() const noexcept {
  return static_cast<std::size_t>(std::count_if(problems.begin(), problems.end(), [](const BelScriptProblem &p) {
    return p.problem.severity == BelProblem::Severity::error;
  }));
}

BelDocument read_bel_script(std::istream &in, const BelOptions &options) {
  const std::function<bool(std::string &)> next = [&in](std::string &line) { return static_cast<bool>(std::getline(in, line)); };
  BelDocument doc = ScriptReader(options).read(next, std::numeric_limits<std::size_t>::max(), nullptr, "BEL script");
  if (in.bad()) throw Error(ErrorCode::io, "reading a BEL script failed");
  return doc;
}

namespace detail {

BelDocument stream_bel_script(const std::function<bool(std::string &line)> &next, const BelOptions &options,
                              BelScriptSink &sink, std::size_t max_logical, const std::string &source) {
  return ScriptReader(options).read(next, max_logical, &sink, source);
}

}  // namespace detail

}  // namespace grappi
