// BEL canonical form: one spelling per term and statement.
#include <algorithm>
#include <string>
#include <vector>

#include "formats/bel_vocabulary.hpp"
#include "grappi/bel.hpp"

namespace grappi {
namespace {

bool needs_quotes(const std::string &v) {
  if (v.empty()) return true;
  return !std::all_of(v.begin(), v.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

void append_value(std::string &out, const std::string &v, bool quoted) {
  if (!quoted && !needs_quotes(v)) {
    out += v;
    return;
  }
  out += '"';
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
}

void append_term(std::string &out, const BelTerm &t, bool long_form);

std::string term_string(const BelTerm &t, bool long_form) {
  std::string s;
  append_term(s, t, long_form);
  return s;
}

void append_term(std::string &out, const BelTerm &t, bool long_form) {
  if (t.kind == BelTerm::Kind::value) {
    append_value(out, t.name, t.quoted);
    return;
  }
  if (t.kind == BelTerm::Kind::entity) {
    out += t.ns;
    out += ':';
    append_value(out, t.name, false);
    if (!t.label.empty()) {
      out += " ! ";
      append_value(out, t.label, false);
    }
    return;
  }
  const auto *info = detail::bel::find_function(t.name);
  std::string_view name = t.name;
  if (info && !info->long_name.empty()) name = long_form ? info->long_name : info->short_name;
  out += name;
  out += '(';
  // The members of complexes, composites, lists, reactants and products are unordered: sorted
  // by their canonical text; modifiers (loc) keep their place after them.
  bool unordered = info && (info->fn == detail::bel::Fn::complex || info->fn == detail::bel::Fn::composite ||
                            info->fn == detail::bel::Fn::list || info->fn == detail::bel::Fn::reactants ||
                            info->fn == detail::bel::Fn::products);
  std::vector<std::string> parts;
  parts.reserve(t.args.size());
  for (const BelTerm &a : t.args) parts.push_back(term_string(a, long_form));
  if (unordered) {
    auto is_member = [&](std::size_t k) {
      const BelTerm &a = t.args[k];
      if (a.kind != BelTerm::Kind::function) return false;
      const auto *f = detail::bel::find_function(a.name);
      return !f || detail::bel::is_term_function(f->fn);
    };
    std::vector<std::string> members, rest;
    for (std::size_t k = 0; k < parts.size(); ++k) (is_member(k) ? members : rest).push_back(parts[k]);
    std::sort(members.begin(), members.end());
    members.insert(members.end(), rest.begin(), rest.end());
    parts = std::move(members);
  }
  // An abundance's modifications and variants (pmod, var, frag, gmod) are a set too: sorted
  // after the entity, with loc() last.
  bool modified = info && detail::bel::is_abundance(info->fn) && !unordered && parts.size() > 2;
  if (modified) {
    auto is_location = [&](std::size_t k) {
      const auto *f = detail::bel::find_function(t.args[k].name);
      return t.args[k].kind == BelTerm::Kind::function && f && f->fn == detail::bel::Fn::location;
    };
    std::vector<std::string> mods, located;
    for (std::size_t k = 1; k < parts.size(); ++k) (is_location(k) ? located : mods).push_back(parts[k]);
    std::sort(mods.begin(), mods.end());
    parts.resize(1);
    parts.insert(parts.end(), mods.begin(), mods.end());
    parts.insert(parts.end(), located.begin(), located.end());
  }
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (k) out += ", ";
    out += parts[k];
  }
  out += ')';
}

}  // namespace

std::string to_bel(const BelTerm &term, bool long_form) { return term_string(term, long_form); }

std::string to_bel(const BelStatement &statement, bool long_form) {
  std::string out = to_bel(statement.subject, long_form);
  if (statement.relation.empty()) return out;
  out += ' ';
  out += statement.relation;
  out += ' ';
  if (statement.nested) {
    out += '(';
    out += to_bel(*statement.nested, long_form);
    out += ')';
  } else if (statement.object) {
    out += to_bel(*statement.object, long_form);
  }
  return out;
}

}  // namespace grappi
