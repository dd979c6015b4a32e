// BEL 2.1 semantics: maps a parsed statement onto the vocabulary, upgrades BEL 1 forms and
// reports what a curator would want to know, each problem with its offset.
#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

#include "formats/bel_parser.hpp"
#include "formats/bel_vocabulary.hpp"
#include "grappi/bel.hpp"

namespace grappi {
namespace {

using detail::bel::Fn;
using detail::bel::FunctionInfo;
using detail::bel::RawStatement;
using Kind = BelTerm::Kind;
using Severity = BelProblem::Severity;

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "?", "*" or digits: one end of a fragment or fusion range.
bool range_end(std::string_view s) { return s == "?" || s == "*" || all_digits(s); }

bool range_ok(std::string_view s) {
  if (s == "?") return true;
  auto us = s.find('_');
  return us != std::string_view::npos && range_end(s.substr(0, us)) && range_end(s.substr(us + 1));
}

std::string describe_kinds(uint32_t kinds) {
  if (kinds == bel_any) return "anything";
  static const std::pair<uint32_t, const char *> names[] = {
      {bel_gene, "genes and their products"}, {bel_family, "protein families"},
      {bel_chemical, "chemicals"}, {bel_complex, "complexes"}, {bel_process, "processes"},
      {bel_pathology, "diseases and phenotypes"}, {bel_location, "cellular locations"},
      {bel_activity, "molecular functions"}, {bel_population, "cell types, anatomy and taxa"}};
  std::string out;
  for (const auto &[bit, name] : names) {
    if (!(kinds & bit)) continue;
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

// What to write instead when a namespace of the wrong kind is used.
std::string kind_advice(uint32_t ns_kinds, const std::string &entity) {
  if (ns_kinds & (bel_gene | bel_family))
    return ": write p(" + entity + "), r(" + entity + ") or g(" + entity + ")";
  if (ns_kinds & bel_chemical) return ": write a(" + entity + ")";
  if (ns_kinds & bel_pathology) return ": write path(" + entity + ")";
  if (ns_kinds & bel_process) return ": write bp(" + entity + ")";
  return "";
}

class Checker {
 public:
  Checker(const std::unordered_map<std::string, BelNamespace> &table, const BelOptions &options,
          std::vector<BelProblem> &problems)
      : table_(table), options_(options), problems_(problems) {}

  BelStatement statement(const RawStatement &raw) {
    BelStatement out;
    out.subject = term(raw.subject, Slot::statement);
    if (raw.relation.empty()) return out;
    const auto *rel = detail::bel::find_relation(raw.relation);
    std::size_t at = raw.relation_offset;
    if (!rel) {
      error(at, "unknown_relation",
            "unknown relation '" + raw.relation +
                "' (BEL relations: increases ->, decreases -|, directlyIncreases =>, "
                "directlyDecreases =|, regulates, association --, positiveCorrelation, "
                "negativeCorrelation, hasMember, isA, ...)");
      out.relation = raw.relation;
    } else {
      out.relation = std::string(rel->long_name);
      if (rel->legacy)
        warning(at, "bel1",
                "'" + raw.relation + "' is a BEL 1 relation that BEL 2 dropped (the act(), tloc(), "
                "complex() or var() term itself says it); kept as written");
      else if (rel->nonstandard)
        warning(at, "nonstandard",
                "'" + raw.relation + "' is a pybel extension, not BEL 2.1; BEL 2.1 writes "
                "complex(A, B) for binding");
    }
    if (raw.nested) {
      if (rel && !rel->causal)
        error(raw.nested_offset, "relation_terms",
              "only a causal relation (increases, decreases, directlyIncreases, ...) may have "
              "a nested statement as its object; '" + raw.relation + "' does not");
      auto inner = std::make_shared<BelStatement>(statement(*raw.nested));
      if (!inner->relation.empty() && !bel_relation_is_causal(inner->relation) &&
          detail::bel::find_relation(inner->relation))
        error(raw.nested->relation_offset, "relation_terms",
              "a nested statement must be causal; '" + raw.nested->relation + "' is not");
      out.nested = std::move(inner);
    } else if (raw.object) {
      bool list_object = rel && (rel->long_name == "hasMembers" || rel->long_name == "hasComponents");
      out.object = term(*raw.object, list_object ? Slot::list_object : Slot::object);
      if (rel) relation_terms(*rel, out, raw);
    }
    return out;
  }

 private:
  enum class Slot { statement, object, list_object, abundance, member };

  void error(std::size_t offset, const char *code, std::string message) {
    problems_.push_back({Severity::error, code, offset, std::move(message)});
  }
  void warning(std::size_t offset, const char *code, std::string message) {
    problems_.push_back({Severity::warning, code, offset, std::move(message)});
  }

  static std::string spelled(const BelTerm &raw) {
    if (raw.kind == Kind::entity) return raw.ns + ":" + raw.name;
    if (raw.kind == Kind::function) return raw.name + "(...)";
    return raw.quoted ? "\"" + raw.name + "\"" : raw.name;
  }

  static BelTerm function_node(Fn fn, std::size_t offset) {
    BelTerm t;
    t.kind = Kind::function;
    t.name = std::string(detail::bel::function_info(fn).long_name);
    t.offset = offset;
    return t;
  }

  static BelTerm value_node(std::string value, bool quoted, std::size_t offset) {
    BelTerm t;
    t.kind = Kind::value;
    t.name = std::move(value);
    t.quoted = quoted;
    t.offset = offset;
    return t;
  }

  // Checks an entity argument (NS:value) of a function that takes namespaces of `kinds`.
  BelTerm entity(const BelTerm &raw, uint32_t kinds, std::string_view fn) {
    if (raw.kind != Kind::entity) {
      error(raw.offset, "misplaced",
            std::string(fn) + "() expects a namespaced entity such as HGNC:AKT1 here, found '" +
                spelled(raw) + "'");
      return raw;
    }
    BelTerm out = raw;
    auto it = table_.find(raw.ns);
    if (it == table_.end()) {
      std::string msg = "unknown namespace '" + raw.ns +
                        "' (known: HGNC, UniProt, FPLX, CHEBI, GO, DOID, EFO, HP, MESHD, MGI, "
                        "RGD, NCBIGENE, ...; a BEL script declares others with DEFINE NAMESPACE)";
      if (options_.unknown_namespace_is_error)
        error(raw.offset, "unknown_namespace", std::move(msg));
      else
        warning(raw.offset, "unknown_namespace", std::move(msg));
      return out;
    }
    const BelNamespace &ns = it->second;
    if (!ns.preferred.empty()) {
      warning(raw.offset, "legacy_namespace",
              "'" + raw.ns + ":' is a BEL 1 namespace; write " + ns.preferred + ":" +
                  (raw.quoted ? "\"" + raw.name + "\"" : raw.name));
      out.ns = ns.preferred;
    }
    if ((ns.kinds & kinds) == 0) {
      std::string e = raw.ns + ":" + (raw.quoted ? "\"" + raw.name + "\"" : raw.name);
      error(raw.offset, "namespace_kind",
            std::string(fn) + "() takes " + describe_kinds(kinds) + "; " + raw.ns + " names " +
                describe_kinds(ns.kinds) + kind_advice(ns.kinds, e));
      return out;
    }
    resolve(out);
    return out;
  }

  // The identifier and label the resolver knows for an entity; a label written after '!'
  // that is not the resolver's is replaced, with a warning.
  void resolve(BelTerm &e) {
    if (!options_.resolver) return;
    const std::optional<BelEntityId> id = options_.resolver(e.ns, e.name);
    if (!id || id->id.empty()) return;
    if (!e.label.empty() && e.label != id->label)
      warning(e.offset, "label",
              e.ns + ":" + id->id + " is " + id->label + ", not " + e.label + "; the canonical form says " + id->label);
    e.name = id->id;
    e.label = id->label;
    e.quoted = false;
  }

  static bool is_function(const BelTerm &raw, std::initializer_list<Fn> fns,
                          const FunctionInfo **info = nullptr) {
    if (raw.kind != Kind::function) return false;
    const auto *f = detail::bel::find_function(raw.name);
    if (!f) return false;
    if (info) *info = f;
    return std::find(fns.begin(), fns.end(), f->fn) != fns.end();
  }

  bool arity(const BelTerm &raw, std::size_t lo, std::size_t hi, std::string_view what) {
    if (raw.args.size() >= lo && raw.args.size() <= hi) return true;
    error(raw.offset, "arity", raw.name + "() takes " + std::string(what) + ", not " +
                                   std::to_string(raw.args.size()) + " argument" +
                                   (raw.args.size() == 1 ? "" : "s"));
    return false;
  }

  BelTerm term(const BelTerm &raw, Slot slot) {
    if (raw.kind != Kind::function) {
      error(raw.offset, "misplaced", "expected a term such as p(HGNC:AKT1), found '" + spelled(raw) + "'");
      return raw;
    }
    const FunctionInfo *info = detail::bel::find_function(raw.name);
    if (!info) {
      error(raw.offset, "unknown_function",
            "unknown function '" + raw.name +
                "' (BEL functions: p, g, r, m, a, complex, composite, bp, path, act, tloc, sec, "
                "surf, deg, rxn, pop, and their long forms)");
      return raw;
    }
    if (info->fn == Fn::list) {
      if (slot != Slot::list_object)
        error(raw.offset, "misplaced", "list() is only the object of hasMembers or hasComponents");
      BelTerm out = function_node(Fn::list, raw.offset);
      if (arity(raw, 1, SIZE_MAX, "one or more terms"))
        for (const BelTerm &a : raw.args) out.args.push_back(term(a, Slot::member));
      return out;
    }
    if (!detail::bel::is_term_function(info->fn)) {
      error(raw.offset, "misplaced",
            raw.name + "() is a modifier, not a term: it belongs inside an abundance or activity "
                       "(e.g. p(HGNC:AKT1, pmod(Ph)))");
      return raw;
    }
    if (info->nonstandard && info->fn != Fn::legacy_activity)
      warning(raw.offset, "nonstandard",
              "'" + raw.name + "()' is a pybel spelling; BEL 2.1 writes " +
                  std::string(detail::bel::function_info(info->fn).short_name) + "()");
    Fn fn = info->fn;
    if (slot == Slot::abundance && !detail::bel::is_abundance(fn) && fn != Fn::legacy_activity) {
      error(raw.offset, "misplaced",
            raw.name + "() cannot stand here: expected an abundance such as p(), a() or complex()");
    }
    if (fn == Fn::composite && slot == Slot::object)
      error(raw.offset, "relation_terms", "composite() may only be a statement's subject");
    switch (fn) {
      case Fn::legacy_activity: return legacy_activity(raw, *info);
      case Fn::bioprocess:
      case Fn::pathology: return single_entity(raw, fn);
      case Fn::complex: return complex(raw);
      case Fn::composite: return members(raw, Fn::composite);
      case Fn::activity: return activity(raw);
      case Fn::translocation: return translocation(raw);
      case Fn::secretion:
      case Fn::surface:
      case Fn::degradation: return wrapper(raw, fn);
      case Fn::reaction: return reaction(raw);
      default: return abundance(raw, fn);
    }
  }

  BelTerm single_entity(const BelTerm &raw, Fn fn) {
    BelTerm out = function_node(fn, raw.offset);
    uint32_t kinds = fn == Fn::bioprocess ? bel_process : fn == Fn::pathology ? bel_pathology
                                                                              : bel_location;
    if (arity(raw, 1, 1, "one entity")) out.args.push_back(entity(raw.args[0], kinds, raw.name));
    return out;
  }

  static uint32_t abundance_kinds(Fn fn) {
    switch (fn) {
      case Fn::abundance: return bel_chemical;
      case Fn::mirna: return bel_gene;
      case Fn::population: return bel_population;
      case Fn::complex: return bel_complex | bel_family;
      default: return bel_gene | bel_family;
    }
  }

  BelTerm abundance(const BelTerm &raw, Fn fn) {
    BelTerm out = function_node(fn, raw.offset);
    if (raw.args.empty()) {
      error(raw.offset, "arity", raw.name + "() needs an entity, e.g. " + raw.name + "(HGNC:AKT1)");
      return out;
    }
    const FunctionInfo *first = nullptr;
    bool fused = is_function(raw.args[0], {Fn::fusion}, &first);
    if (fused) {
      if (fn != Fn::gene && fn != Fn::rna && fn != Fn::protein)
        error(raw.args[0].offset, "misplaced", "fus() belongs in p(), r() or g()");
      out.args.push_back(fusion(raw.args[0], fn));
    } else {
      out.args.push_back(entity(raw.args[0], abundance_kinds(fn), raw.name));
    }
    bool located = false;
    for (std::size_t k = 1; k < raw.args.size(); ++k) {
      const BelTerm &a = raw.args[k];
      const FunctionInfo *m = nullptr;
      if (a.kind != Kind::function || !(m = detail::bel::find_function(a.name))) {
        if (a.kind == Kind::function)
          error(a.offset, "unknown_function", "unknown modifier '" + a.name + "()'");
        else
          error(a.offset, "misplaced",
                raw.name + "() takes one entity; '" + spelled(a) +
                    "' after it must be a modifier such as pmod(), var(), frag() or loc()");
        continue;
      }
      bool allowed = false;
      switch (m->fn) {
        case Fn::location: allowed = !located; located = true; break;
        case Fn::pmod: allowed = fn == Fn::protein; break;
        case Fn::variant: allowed = fn == Fn::protein || fn == Fn::gene || fn == Fn::rna || fn == Fn::mirna; break;
        case Fn::fragment: allowed = fn == Fn::protein; break;
        case Fn::gmod: allowed = fn == Fn::gene; break;
        case Fn::substitution: allowed = fn == Fn::protein || fn == Fn::gene || fn == Fn::rna; break;
        case Fn::truncation: allowed = fn == Fn::protein || fn == Fn::gene; break;
        case Fn::fusion: allowed = !fused && (fn == Fn::protein || fn == Fn::gene || fn == Fn::rna); break;
        default: break;
      }
      if (!allowed) {
        error(a.offset, "misplaced",
              a.name + "() is not allowed in " + raw.name + "()" +
                  (m->fn == Fn::location ? " more than once" : ""));
        continue;
      }
      switch (m->fn) {
        case Fn::location: out.args.push_back(location(a, Fn::location)); break;
        case Fn::pmod: out.args.push_back(pmod(a)); break;
        case Fn::variant: out.args.push_back(variant(a)); break;
        case Fn::fragment: out.args.push_back(fragment(a)); break;
        case Fn::gmod: out.args.push_back(gmod(a)); break;
        case Fn::substitution: out.args.push_back(substitution(a, fn)); break;
        case Fn::truncation: out.args.push_back(truncation(a)); break;
        case Fn::fusion: out.args[0] = legacy_fusion(out.args[0], a, fn); fused = true; break;
        default: break;
      }
    }
    return out;
  }

  BelTerm location(const BelTerm &raw, Fn fn) {
    BelTerm out = function_node(fn, raw.offset);
    if (arity(raw, 1, 1, "one entity such as GO:nucleus"))
      out.args.push_back(entity(raw.args[0], bel_location, raw.name));
    return out;
  }

  // An argument naming something from a vocabulary: NS:term (a namespace of `kinds`), or a
  // name the BEL table spells `canonical` (empty: an unknown name, the error `code` with
  // `unknown` as its message).
  BelTerm named_value(const BelTerm &arg, std::string_view canonical, uint32_t kinds, std::string_view fn,
                      const char *code, std::string unknown) {
    if (arg.kind == Kind::entity) return entity(arg, kinds, fn);
    if (arg.kind == Kind::function) {
      error(arg.offset, "misplaced", std::string(fn) + "() takes a name or NS:term here, not a term");
      return arg;
    }
    if (canonical.empty()) {
      error(arg.offset, code, std::move(unknown));
      return arg;
    }
    return value_node(std::string(canonical), false, arg.offset);
  }

  BelTerm pmod(const BelTerm &raw) {
    BelTerm out = function_node(Fn::pmod, raw.offset);
    if (!arity(raw, 1, 3, "a modification type with an optional amino acid and position"))
      return out;
    const BelTerm &type = raw.args[0];
    bool legacy = false;
    const std::string_view t =
        type.kind == Kind::value ? detail::bel::pmod_type(type.name, legacy) : std::string_view{};
    if (legacy)
      warning(type.offset, "bel1",
              "'" + type.name + "' is a BEL 1 modification code; BEL 2 writes " + std::string(t));
    out.args.push_back(named_value(type, t, bel_any, "pmod", "pmod",
                                   "unknown protein modification '" + spelled(type) +
                                       "' (BEL 2.1: Ph, Ac, Me, Me1, Me2, Me3, Ub, UbK48, UbK63, UbMono, "
                                       "UbPoly, Sumo, Glyco, NGlyco, OGlyco, Hy, Farn, Gerger, Myr, Palm, "
                                       "Nedd, NO, ISG, Sulf, ADPRib; or NS:term)"));
    if (raw.args.size() >= 2) out.args.push_back(residue(raw.args[1]));
    if (raw.args.size() == 3) out.args.push_back(position(raw.args[2]));
    return out;
  }

  BelTerm residue(const BelTerm &raw) {
    std::string_view aa = raw.kind == Kind::value ? detail::bel::amino_acid(raw.name) : std::string_view{};
    if (aa.empty()) {
      error(raw.offset, "amino_acid",
            "'" + spelled(raw) + "' is not an amino acid (one- or three-letter code: S or Ser, T or Thr, Y or Tyr, ...)");
      return raw;
    }
    return value_node(std::string(aa), false, raw.offset);
  }

  BelTerm position(const BelTerm &raw) {
    if (raw.kind != Kind::value || !all_digits(raw.name) || raw.name.find_first_not_of('0') == std::string::npos) {
      error(raw.offset, "position", "'" + spelled(raw) + "' is not a residue position (a positive whole number)");
      return raw;
    }
    return value_node(raw.name, false, raw.offset);
  }

  BelTerm gmod(const BelTerm &raw) {
    warning(raw.offset, "nonstandard", "gmod() is a pybel extension, not BEL 2.1");
    BelTerm out = function_node(Fn::gmod, raw.offset);
    if (!arity(raw, 1, 1, "one modification type")) return out;
    const BelTerm &type = raw.args[0];
    const std::string_view t = type.kind == Kind::value ? detail::bel::gmod_type(type.name) : std::string_view{};
    out.args.push_back(named_value(type, t, bel_any, "gmod", "pmod",
                                   "unknown gene modification '" + spelled(type) + "' (Me, ADPRib)"));
    return out;
  }

  BelTerm variant(const BelTerm &raw) {
    BelTerm out = function_node(Fn::variant, raw.offset);
    if (!arity(raw, 1, 1, "one HGVS description")) return out;
    const BelTerm &v = raw.args[0];
    if (v.kind != Kind::value) {
      error(v.offset, "variant", "var() takes an HGVS description such as \"p.Phe508del\", not '" + spelled(v) + "'");
      return out;
    }
    const std::string &h = v.name;
    bool ok = h == "=" || h == "?" ||
              (h.size() > 2 && h[1] == '.' && std::string_view("cgmnpr").find(h[0]) != std::string_view::npos);
    if (!ok)
      error(v.offset, "variant",
            "'" + h + "' is not an HGVS description (p.Phe508del, c.1521_1523delCTT, g.…, r.…, "
                      "= for the reference, ? for unspecified)");
    else if (!v.quoted)
      warning(v.offset, "unquoted_value", "BEL 2 quotes HGVS descriptions: var(\"" + h + "\")");
    out.args.push_back(value_node(h, true, v.offset));
    return out;
  }

  BelTerm fragment(const BelTerm &raw) {
    BelTerm out = function_node(Fn::fragment, raw.offset);
    if (!arity(raw, 1, 2, "a range and an optional description")) return out;
    const BelTerm &r = raw.args[0];
    if (r.kind != Kind::value || !range_ok(r.name))
      error(r.offset, "fragment", "'" + spelled(r) + "' is not a fragment range (5_20, 1_?, ?_*, or ?)");
    out.args.push_back(value_node(r.name, true, r.offset));
    if (raw.args.size() == 2) {
      const BelTerm &d = raw.args[1];
      if (d.kind != Kind::value)
        error(d.offset, "fragment", "a fragment description is a quoted text, not '" + spelled(d) + "'");
      out.args.push_back(value_node(d.name, true, d.offset));
    }
    return out;
  }

  // A fusion range: "?" or <reference>.<start>_<stop> (r.1_79, c.312_5034, p.1_?).
  void fusion_range(const BelTerm &raw) {
    bool ok = raw.kind == Kind::value &&
              (raw.name == "?" || (raw.name.size() > 2 && raw.name[1] == '.' &&
                                   std::string_view("rpc").find(raw.name[0]) != std::string_view::npos &&
                                   range_ok(std::string_view(raw.name).substr(2))));
    if (!ok)
      error(raw.offset, "fragment", "'" + spelled(raw) + "' is not a fusion range (r.1_79, c.312_5034, p.1_?, or ?)");
  }

  BelTerm fusion(const BelTerm &raw, Fn outer) {
    BelTerm out = function_node(Fn::fusion, raw.offset);
    if (!arity(raw, 4, 4, "a 5' partner, its range, a 3' partner and its range")) return out;
    std::string fn(detail::bel::function_info(outer).short_name);
    out.args.push_back(entity(raw.args[0], bel_gene | bel_family, "fus"));
    fusion_range(raw.args[1]);
    out.args.push_back(value_node(raw.args[1].name, true, raw.args[1].offset));
    out.args.push_back(entity(raw.args[2], bel_gene | bel_family, "fus"));
    fusion_range(raw.args[3]);
    out.args.push_back(value_node(raw.args[3].name, true, raw.args[3].offset));
    return out;
  }

  // BEL 1: g(HGNC:BCR, fus(HGNC:JAK2, 1875, 2626)) or g(HGNC:CHCHD4, fusion(HGNC:AIFM1)).
  BelTerm legacy_fusion(const BelTerm &partner5, const BelTerm &raw, Fn outer) {
    BelTerm out = function_node(Fn::fusion, raw.offset);
    if (raw.args.size() != 1 && raw.args.size() != 3) {
      error(raw.offset, "arity", "a BEL 1 fusion inside an abundance takes the 3' partner, "
                                 "optionally with the two break points");
      return partner5;
    }
    warning(raw.offset, "bel1",
            "fusion after the entity is BEL 1; BEL 2 writes fus(5' partner, range, 3' partner, range) "
            "as the abundance's first argument");
    char ref = outer == Fn::protein ? 'p' : outer == Fn::rna ? 'r' : 'c';
    std::string r5 = "?", r3 = "?";
    if (raw.args.size() == 3) {
      for (int k : {1, 2})
        if (raw.args[k].kind != Kind::value || !range_end(raw.args[k].name))
          error(raw.args[k].offset, "position", "'" + spelled(raw.args[k]) + "' is not a break point");
      r5 = std::string(1, ref) + ".?_" + raw.args[1].name;
      r3 = std::string(1, ref) + "." + raw.args[2].name + "_?";
    }
    out.args.push_back(partner5);
    out.args.push_back(value_node(r5, true, raw.offset));
    out.args.push_back(entity(raw.args[0], bel_gene | bel_family, "fus"));
    out.args.push_back(value_node(r3, true, raw.offset));
    return out;
  }

  // BEL 1 sub(ref, position, variant): p -> var("p.Ala127Tyr"), g/r -> var("c.308G>A").
  BelTerm substitution(const BelTerm &raw, Fn outer) {
    BelTerm out = function_node(Fn::variant, raw.offset);
    if (!arity(raw, 3, 3, "a reference, a position and a variant")) return out;
    std::string hgvs;
    const BelTerm &ref = raw.args[0], &pos = raw.args[1], &var = raw.args[2];
    position(pos);
    if (outer == Fn::protein) {
      BelTerm a = residue(ref), b = residue(var);
      hgvs = "p." + a.name + pos.name + b.name;
    } else {
      auto nucleotide = [&](const BelTerm &t) {
        if (t.kind != Kind::value || t.name.size() != 1 || std::string_view("ACGTUacgu").find(t.name[0]) == std::string_view::npos)
          error(t.offset, "variant", "'" + spelled(t) + "' is not a nucleotide (A, C, G, T)");
      };
      nucleotide(ref);
      nucleotide(var);
      hgvs = "c." + pos.name + ref.name + ">" + var.name;
    }
    warning(raw.offset, "bel1", "sub() is BEL 1; BEL 2 writes var(\"" + hgvs + "\")");
    out.args.push_back(value_node(hgvs, true, raw.offset));
    return out;
  }

  BelTerm truncation(const BelTerm &raw) {
    BelTerm out = function_node(Fn::variant, raw.offset);
    if (!arity(raw, 1, 1, "a position")) return out;
    position(raw.args[0]);
    std::string hgvs = "p." + raw.args[0].name + "*";
    warning(raw.offset, "bel1", "trunc() is BEL 1; BEL 2 writes var(\"" + hgvs + "\")");
    out.args.push_back(value_node(hgvs, true, raw.offset));
    return out;
  }

  BelTerm complex(const BelTerm &raw) {
    BelTerm out = function_node(Fn::complex, raw.offset);
    if (!arity(raw, 1, SIZE_MAX, "a named complex or its members")) return out;
    bool named = raw.args[0].kind == Kind::entity;
    bool located = false;
    for (std::size_t k = 0; k < raw.args.size(); ++k) {
      const BelTerm &a = raw.args[k];
      if (is_function(a, {Fn::location})) {
        if (located) error(a.offset, "misplaced", "loc() is not allowed in complex() more than once");
        located = true;
        out.args.push_back(location(a, Fn::location));
      } else if (named) {
        if (k == 0)
          out.args.push_back(entity(a, abundance_kinds(Fn::complex), raw.name));
        else
          error(a.offset, "misplaced", "a named complex takes only loc() after its name");
      } else {
        out.args.push_back(term(a, Slot::abundance));
      }
    }
    return out;
  }

  BelTerm members(const BelTerm &raw, Fn fn) {
    BelTerm out = function_node(fn, raw.offset);
    if (arity(raw, 1, SIZE_MAX, "one or more abundances"))
      for (const BelTerm &a : raw.args) out.args.push_back(term(a, Slot::abundance));
    return out;
  }

  BelTerm molecular_activity(const BelTerm &raw) {
    BelTerm out = function_node(Fn::molecular_activity, raw.offset);
    if (!arity(raw, 1, 1, "one activity")) return out;
    const BelTerm &a = raw.args[0];
    const std::string_view name = a.kind == Kind::value ? detail::bel::activity_name(a.name) : std::string_view{};
    out.args.push_back(named_value(a, name, bel_activity, "ma", "activity",
                                   "unknown molecular activity '" + spelled(a) +
                                       "' (defaults: cat, chap, gtp, kin, pep, phos, ribo, tscript, "
                                       "tport; or a molecular function, ma(GO:\"kinase activity\"))"));
    return out;
  }

  BelTerm activity(const BelTerm &raw) {
    BelTerm out = function_node(Fn::activity, raw.offset);
    if (!arity(raw, 1, 2, "an abundance and an optional ma()")) return out;
    out.args.push_back(term(raw.args[0], Slot::abundance));
    if (raw.args.size() == 2) {
      if (is_function(raw.args[1], {Fn::molecular_activity}))
        out.args.push_back(molecular_activity(raw.args[1]));
      else
        error(raw.args[1].offset, "misplaced", "act() takes ma() after the abundance, e.g. act(p(HGNC:AKT1), ma(kin))");
    }
    return out;
  }

  BelTerm legacy_activity(const BelTerm &raw, const FunctionInfo &info) {
    warning(raw.offset, "bel1",
            raw.name + "() is BEL 1; BEL 2 writes act(..., ma(" + std::string(info.activity) + "))");
    BelTerm out = function_node(Fn::activity, raw.offset);
    if (!arity(raw, 1, 1, "one abundance")) return out;
    out.args.push_back(term(raw.args[0], Slot::abundance));
    BelTerm ma = function_node(Fn::molecular_activity, raw.offset);
    ma.args.push_back(value_node(std::string(info.activity), false, raw.offset));
    out.args.push_back(std::move(ma));
    return out;
  }

  BelTerm translocation(const BelTerm &raw) {
    BelTerm out = function_node(Fn::translocation, raw.offset);
    if (!arity(raw, 1, 3, "an abundance with fromLoc() and toLoc()")) return out;
    out.args.push_back(term(raw.args[0], Slot::abundance));
    if (raw.args.size() == 1) return out;
    if (raw.args.size() != 3) {
      error(raw.offset, "arity", "tloc() takes an abundance with both fromLoc() and toLoc()");
      return out;
    }
    if (raw.args[1].kind == Kind::entity && raw.args[2].kind == Kind::entity) {
      warning(raw.args[1].offset, "bel1",
              "tloc(abundance, NS:a, NS:b) is BEL 1; BEL 2 writes tloc(abundance, fromLoc(NS:a), toLoc(NS:b))");
      BelTerm from = function_node(Fn::from_loc, raw.args[1].offset);
      from.args.push_back(entity(raw.args[1], bel_location, "fromLoc"));
      BelTerm to = function_node(Fn::to_loc, raw.args[2].offset);
      to.args.push_back(entity(raw.args[2], bel_location, "toLoc"));
      out.args.push_back(std::move(from));
      out.args.push_back(std::move(to));
      return out;
    }
    if (!is_function(raw.args[1], {Fn::from_loc}) || !is_function(raw.args[2], {Fn::to_loc})) {
      error(raw.args[1].offset, "misplaced", "tloc() takes fromLoc() then toLoc() after the abundance");
      return out;
    }
    out.args.push_back(location(raw.args[1], Fn::from_loc));
    out.args.push_back(location(raw.args[2], Fn::to_loc));
    return out;
  }

  BelTerm wrapper(const BelTerm &raw, Fn fn) {
    BelTerm out = function_node(fn, raw.offset);
    if (arity(raw, 1, 1, "one abundance")) out.args.push_back(term(raw.args[0], Slot::abundance));
    return out;
  }

  BelTerm reaction(const BelTerm &raw) {
    BelTerm out = function_node(Fn::reaction, raw.offset);
    if (!arity(raw, 2, 2, "reactants() and products()")) return out;
    if (!is_function(raw.args[0], {Fn::reactants}) || !is_function(raw.args[1], {Fn::products})) {
      error(raw.offset, "misplaced", "rxn() takes reactants(...) then products(...)");
      return out;
    }
    out.args.push_back(members(raw.args[0], Fn::reactants));
    out.args.push_back(members(raw.args[1], Fn::products));
    return out;
  }

  void relation_terms(const detail::bel::RelationInfo &rel, const BelStatement &st, const RawStatement &raw) {
    const auto subject = detail::bel::function_of(st.subject), object = detail::bel::function_of(*st.object);
    if (!subject || !object) return;  // an unknown function is reported already
    const Fn sf = *subject, of = *object;
    std::string_view r = rel.long_name;
    auto bad = [&](const std::string &why) { error(raw.relation_offset, "relation_terms", std::string(r) + ": " + why); };
    if ((r == "hasMembers" || r == "hasComponents") && of != Fn::list)
      bad("the object must be list(...)");
    else if (r == "transcribedTo" && (sf != Fn::gene || (of != Fn::rna && of != Fn::mirna)))
      bad("a gene g() is transcribed to an RNA r() or m()");
    else if (r == "translatedTo" && (sf != Fn::rna || of != Fn::protein))
      bad("an RNA r() is translated to a protein p()");
    else if (r == "rateLimitingStepOf" && of != Fn::bioprocess)
      bad("the object must be a biological process bp()");
    else if ((r == "hasReactant" || r == "hasProduct") && sf != Fn::reaction)
      bad("the subject must be a reaction rxn()");
    else if (r == "orthologous" && (sf != of || (sf != Fn::gene && sf != Fn::rna && sf != Fn::protein)))
      bad("both terms must be genes, RNAs or proteins of the same kind");
  }

  const std::unordered_map<std::string, BelNamespace> &table_;
  const BelOptions &options_;
  std::vector<BelProblem> &problems_;
};

}  // namespace

const char *to_string(BelProblem::Severity severity) noexcept {
  return severity == BelProblem::Severity::error ? "error" : "warning";
}

bool BelResult::valid() const noexcept { return errors() == 0 && statement.has_value(); }

std::size_t BelResult::errors() const noexcept {
  return static_cast<std::size_t>(std::count_if(problems.begin(), problems.end(), [](const BelProblem &p) {
    return p.severity == BelProblem::Severity::error;
  }));
}

std::size_t BelResult::warnings() const noexcept { return problems.size() - errors(); }

BelValidator::BelValidator(BelOptions options) : options_(std::move(options)) {
  for (const BelNamespace &ns : options_.namespaces) table_[ns.prefix] = ns;
}

void BelValidator::define_namespace(BelNamespace ns) {
  std::string prefix = ns.prefix;
  table_[prefix] = std::move(ns);
}

bool BelValidator::knows_namespace(std::string_view prefix) const {
  return table_.count(std::string(prefix)) != 0;
}

BelResult BelValidator::check(std::string_view text) const {
  BelResult result;
  detail::bel::RawStatement raw;
  if (!detail::bel::parse_statement(text, raw, result.problems)) return result;
  Checker checker(table_, options_, result.problems);
  result.statement = checker.statement(raw);
  std::stable_sort(result.problems.begin(), result.problems.end(),
                   [](const BelProblem &a, const BelProblem &b) { return a.offset < b.offset; });
  if (result.errors() == 0) result.canonical = to_bel(*result.statement, options_.long_form);
  return result;
}

BelResult validate_bel(std::string_view statement, const BelOptions &options) {
  return BelValidator(options).check(statement);
}

}  // namespace grappi
