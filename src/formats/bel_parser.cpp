// The BEL statement grammar: a hand-written recursive-descent parser with byte offsets in every
// node and a message for every way a statement can be malformed.
#include "formats/bel_parser.hpp"

#include <utility>

namespace grappi::detail::bel {
namespace {

constexpr int kMaxDepth = 64;

struct Stop {};  // unwinds the parser after the first syntax error (never leaves this file)

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_word_char(char c) {
  return !is_space(c) && c != ',' && c != '(' && c != ')' && c != '"' && c != ':';
}
bool is_ident_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_ident_char(char c) {
  return is_ident_start(c) || (c >= '0' && c <= '9') || c == '_';
}

std::string excerpt(std::string_view s, std::size_t from) {
  std::string_view rest = s.substr(from, 24);
  std::string out(rest);
  if (from + rest.size() < s.size()) out += "...";
  return out;
}

class Parser {
 public:
  Parser(std::string_view text, std::vector<BelProblem> &problems)
      : s_(text), problems_(problems) {}

  void statement(RawStatement &out, bool nested) {
    skip_space();
    if (at_end(nested)) fail(i_, "empty statement: expected a BEL term such as p(HGNC:AKT1)");
    out.subject = term(0);
    skip_space();
    if (at_end(nested)) return;
    out.relation_offset = i_;
    i_ = relation_end(i_);
    out.relation = std::string(s_.substr(out.relation_offset, i_ - out.relation_offset));
    if (out.relation.empty())
      fail(i_, "expected a relation (increases, ->, decreases, ...) after the subject, found '" +
                   excerpt(s_, i_) + "'");
    skip_space();
    if (at_end(nested))
      fail(out.relation_offset, "relation '" + out.relation + "' has no object");
    if (s_[i_] == '(') {
      out.nested_offset = i_;
      ++i_;
      if (nested) fail(out.nested_offset, "a nested statement may not itself nest a statement");
      out.nested = std::make_unique<RawStatement>();
      statement(*out.nested, true);
      skip_space();
      if (i_ >= s_.size() || s_[i_] != ')')
        fail(out.nested_offset, "missing ')' closing the nested statement opened here");
      ++i_;
    } else {
      const std::size_t object_at = i_;
      out.object = term(0);
      out.chain_object_offset = object_at;
    }
    skip_space();
    if (!at_end(nested)) {
      std::size_t at = i_;
      bool chained = is_relation_like();
      if (chained && !nested && out.object && is_chain_link()) {
        out.chain_offset = at;
      } else {
        out.chain_object_offset = 0;
      }
      fail(at, chained ? "a statement has one relation: put the object statement in parentheses, "
                         "A increases (B decreases C)"
                       : "unexpected text after the statement: '" + excerpt(s_, at) + "'");
    }
  }

  std::size_t position() const { return i_; }

 private:
  [[noreturn]] void fail(std::size_t offset, std::string message,
                         const char *code = "syntax") {
    problems_.push_back({BelProblem::Severity::error, code, offset, std::move(message)});
    throw Stop{};
  }

  void skip_space() {
    while (i_ < s_.size() && is_space(s_[i_])) ++i_;
  }

  bool at_end(bool nested) const { return i_ >= s_.size() || (nested && s_[i_] == ')'); }

  // Whether the text at i_ reads like a relation followed by a term (A -> B -> C).
  bool is_relation_like() const {
    std::size_t j = i_;
    while (j < s_.size() && !is_space(s_[j]) && s_[j] != '(') ++j;
    return j > i_ && j < s_.size() && is_space(s_[j]);
  }

  // Where a relation starting at `from` ends. A relation is a word (increases) or a run of
  // symbols (->, -|, =>, →) that may touch the object: p(A)->p(B).
  std::size_t relation_end(std::size_t from) const {
    const auto is_alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    const bool word = from < s_.size() && is_alpha(s_[from]);
    std::size_t j = from;
    while (j < s_.size() && !is_space(s_[j]) && s_[j] != '(' && s_[j] != ')' &&
           (word ? is_alpha(s_[j]) : !is_alpha(s_[j]) && !(s_[j] >= '0' && s_[j] <= '9')))
      ++j;
    return j;
  }

  // Whether the text at i_ is a relation followed by a term (`-> p(...)`, `increases bp(...)`),
  // the next link of a chain A -> B -> C.
  bool is_chain_link() const {
    std::size_t j = relation_end(i_);
    if (j == i_) return false;
    while (j < s_.size() && is_space(s_[j])) ++j;
    if (j >= s_.size() || !is_ident_start(s_[j])) return false;
    std::size_t k = j;
    while (k < s_.size() && is_ident_char(s_[k])) ++k;
    return k < s_.size() && s_[k] == '(';
  }

  std::string quoted() {
    std::size_t open = i_;
    ++i_;
    std::string value;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) ++i_;
      value += s_[i_++];
    }
    if (i_ >= s_.size()) fail(open, "unterminated quoted string (no closing '\"')");
    ++i_;
    return value;
  }

  BelTerm term(int depth) {
    if (depth > kMaxDepth) fail(i_, "terms nested more than 64 deep");
    BelTerm t;
    t.kind = BelTerm::Kind::function;
    t.offset = i_;
    if (i_ >= s_.size() || !is_ident_start(s_[i_])) {
      std::string found = i_ < s_.size() ? "'" + excerpt(s_, i_) + "'" : "the end";
      fail(i_, "expected a BEL term such as p(HGNC:AKT1), found " + found);
    }
    while (i_ < s_.size() && is_ident_char(s_[i_])) ++i_;
    t.name = std::string(s_.substr(t.offset, i_ - t.offset));
    if (i_ >= s_.size() || s_[i_] != '(') {
      if (i_ < s_.size() && s_[i_] == ':')
        fail(t.offset, "'" + excerpt(s_, t.offset) +
                           "' is an entity, not a term: wrap it in a function, e.g. p(" +
                           t.name + ":...)");
      fail(i_, "expected '(' after the function name '" + t.name + "'");
    }
    ++i_;
    skip_space();
    if (i_ < s_.size() && s_[i_] == ')') {
      ++i_;
      return t;
    }
    for (;;) {
      skip_space();
      t.args.push_back(argument(depth + 1));
      skip_space();
      if (i_ >= s_.size())
        fail(t.offset, "missing ')' closing '" + t.name + "(' opened here");
      char c = s_[i_];
      if (c == ',') {
        ++i_;
        continue;
      }
      if (c == ')') {
        ++i_;
        return t;
      }
      const BelTerm &last = t.args.back();
      if (c == '(')
        fail(i_, "unexpected '(' after '" + last.name +
                     "': quote values that contain parentheses, e.g. CHEBI:\"calcium(2+)\"",
             "unquoted_value");
      if (last.kind != BelTerm::Kind::function && !last.quoted)
        fail(last.offset, "the value '" + last.name + "' is followed by '" + excerpt(s_, i_) +
                              "': values with spaces must be quoted, e.g. GO:\"cell cycle\"",
             "unquoted_value");
      fail(i_, "expected ',' or ')' in '" + t.name + "(', found '" + excerpt(s_, i_) + "'");
    }
  }

  BelTerm argument(int depth) {
    BelTerm a;
    a.offset = i_;
    if (i_ >= s_.size()) fail(i_, "the statement ends inside an argument list");
    if (s_[i_] == '"') {
      a.name = quoted();
      a.quoted = true;
      if (i_ < s_.size() && s_[i_] == ':')
        fail(a.offset, "a namespace prefix is not quoted: write NS:\"value\"");
      return a;
    }
    std::size_t start = i_;
    while (i_ < s_.size() && is_word_char(s_[i_])) ++i_;
    if (i_ == start) {
      if (s_[i_] == ':') fail(i_, "a namespace prefix is missing before ':'");
      fail(i_, "expected an argument, found '" + excerpt(s_, i_) + "'");
    }
    std::string_view word = s_.substr(start, i_ - start);
    if (i_ < s_.size() && s_[i_] == '(') {
      i_ = start;
      return term(depth);
    }
    if (i_ < s_.size() && s_[i_] == ':') {
      a.kind = BelTerm::Kind::entity;
      a.ns = std::string(word);
      ++i_;
      if (i_ < s_.size() && s_[i_] == '"') {
        a.name = quoted();
        a.quoted = true;
      } else {
        a.name = plain_value(a.ns);
      }
      label(a);
      return a;
    }
    a.name = std::string(word);
    return a;
  }

  // An unquoted namespace value: up to a blank, ',', '(', ')', '"' or the '!' of a label.
  std::string plain_value(const std::string &ns) {
    std::size_t vstart = i_;
    while (i_ < s_.size() && !is_space(s_[i_]) && s_[i_] != ',' && s_[i_] != '(' && s_[i_] != ')' &&
           s_[i_] != '"' && s_[i_] != '!')
      ++i_;
    if (i_ == vstart) fail(vstart, "namespace '" + ns + "' has no value after ':'");
    return std::string(s_.substr(vstart, i_ - vstart));
  }

  // BEL 2.2's label after an identifier: `HGNC:391 ! AKT1`, `HGNC:391!"AKT1"`.
  void label(BelTerm &a) {
    std::size_t j = i_;
    while (j < s_.size() && is_space(s_[j])) ++j;
    if (j >= s_.size() || s_[j] != '!') return;
    i_ = j + 1;
    while (i_ < s_.size() && is_space(s_[i_])) ++i_;
    if (i_ < s_.size() && s_[i_] == '"') {
      a.label = quoted();
      return;
    }
    std::size_t start = i_;
    while (i_ < s_.size() && !is_space(s_[i_]) && s_[i_] != ',' && s_[i_] != '(' && s_[i_] != ')' && s_[i_] != '"' &&
           s_[i_] != '!')
      ++i_;
    if (i_ == start) fail(j, "'!' after " + a.ns + ":" + a.name + " must be followed by a label, e.g. HGNC:391 ! AKT1");
    a.label = std::string(s_.substr(start, i_ - start));
  }

  std::string_view s_;
  std::vector<BelProblem> &problems_;
  std::size_t i_ = 0;
};

}  // namespace

bool parse_statement(std::string_view text, RawStatement &out, std::vector<BelProblem> &problems) {
  Parser p(text, problems);
  try {
    p.statement(out, false);
    return true;
  } catch (const Stop &) {
    return false;
  }
}

std::optional<ChainSplit> split_chain(std::string_view text) {
  RawStatement raw;
  std::vector<BelProblem> ignored;
  if (parse_statement(text, raw, ignored) || raw.chain_offset == 0) return std::nullopt;
  std::string_view first = text.substr(0, raw.chain_offset);
  while (!first.empty() && is_space(first.back())) first.remove_suffix(1);
  return ChainSplit{first, text.substr(raw.chain_object_offset), raw.chain_object_offset, raw.chain_offset};
}

}  // namespace grappi::detail::bel
