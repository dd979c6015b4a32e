// Reading CX2 and CX1 documents (cx2.hpp). What the reader rejects and accepts follows the
// cytoscape-web validator's fixtures: not an array, empty, no descriptor, an unsupported major
// version, no status, duplicate ids and edges naming missing nodes are refused; aspects in any
// order, fragments, unknown (opaque) aspects and a status placed before the data are accepted.
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "formats/cx2.hpp"
#include "grappi/error.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"

namespace grappi::detail {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string &path, const std::string &message) {
  throw Error(ErrorCode::parse, path + ": " + message);
}

// A short quotation of a value for a message.
std::string quote(const json &v) {
  std::string s = dump_json(v);
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

bool is_int32(const json &v) {
  if (v.is_number_unsigned()) return v.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int32_t>::max());
  if (!v.is_number_integer()) return false;
  const int64_t x = v.get<int64_t>();
  return x >= std::numeric_limits<int32_t>::min() && x <= std::numeric_limits<int32_t>::max();
}

bool is_int64(const json &v) {
  return v.is_number_integer() &&
         (!v.is_number_unsigned() || v.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
}

const std::set<std::string> &scalar_types() {
  static const std::set<std::string> t = {"string", "long", "integer", "double", "boolean"};
  return t;
}

// A declared type in its long form ("int" -> "integer"); empty when it is not a CX2 type.
std::string normal_type(const std::string &d) {
  if (d.empty()) return "string";
  std::string base = d.rfind("list_of_", 0) == 0 ? d.substr(8) : d;
  if (base == "int") base = "integer";
  else if (base == "float") base = "double";
  else if (base == "bool") base = "boolean";
  if (!scalar_types().count(base)) return {};
  return d.rfind("list_of_", 0) == 0 ? "list_of_" + base : base;
}

bool fits(const json &v, const std::string &type) {
  if (type.rfind("list_of_", 0) == 0) {
    if (!v.is_array()) return false;
    const std::string base = type.substr(8);
    for (const auto &x : v)
      if (!fits(x, base)) return false;
    return true;
  }
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_boolean();
  if (type == "integer") return is_int32(v);
  if (type == "long") return is_int64(v);
  if (type == "double") return v.is_number();
  return false;
}

// An id: a JSON integer, or a string holding one (ndex2 accepts both).
std::optional<int64_t> id_of(const json &v) {
  if (is_int64(v)) return v.get<int64_t>();
  if (v.is_string()) {
    const std::string &s = v.get_ref<const std::string &>();
    int64_t x = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
    if (ec == std::errc() && p == s.data() + s.size() && !s.empty()) return x;
  }
  return std::nullopt;
}

struct Declaration {
  std::string type = "string";
  std::string alias;
  std::optional<json> fallback;  // the declared default value
};

// Declarations of one element kind: by full name, and alias -> full name.
struct Declarations {
  std::map<std::string, Declaration> by_name;
  std::map<std::string, std::string> alias_of;

  const Declaration *find(const std::string &name) const {
    auto it = by_name.find(name);
    return it == by_name.end() ? nullptr : &it->second;
  }
  std::string full_name(const std::string &key) const {
    auto it = alias_of.find(key);
    return it == alias_of.end() ? key : it->second;
  }
};

void declare(Declarations &d, const json &block, const std::string &kind, const std::string &path) {
  if (!block.is_object()) fail(path, "attributeDeclarations: '" + kind + "' must be an object of attribute declarations");
  for (const auto &[name, decl] : block.items()) {
    const std::string where = "attributeDeclarations: " + kind + " attribute '" + name + "'";
    if (!decl.is_object()) fail(path, where + " must be an object {\"d\": type, \"a\": alias, \"v\": default}");
    Declaration out;
    if (decl.contains("d")) {
      if (!decl["d"].is_string()) fail(path, where + ": its type \"d\" must be a string");
      out.type = normal_type(decl["d"].get<std::string>());
      if (out.type.empty()) fail(path, where + ": unknown type " + quote(decl["d"]));
    }
    if (decl.contains("a")) {
      if (!decl["a"].is_string() || decl["a"].get<std::string>().empty())
        fail(path, where + ": its alias \"a\" must be a non-empty string");
      out.alias = decl["a"].get<std::string>();
      if (d.alias_of.count(out.alias)) fail(path, where + ": alias '" + out.alias + "' is declared twice");
      d.alias_of[out.alias] = name;
    }
    if (decl.contains("v") && !decl["v"].is_null()) {
      if (!fits(decl["v"], out.type)) fail(path, where + ": default " + quote(decl["v"]) + " is not a " + out.type);
      out.fallback = decl["v"];
    }
    d.by_name[name] = std::move(out);
  }
  for (const auto &[alias, name] : d.alias_of)
    if (d.by_name.count(alias) && alias != name)
      fail(path, "attributeDeclarations: " + kind + " alias '" + alias + "' of '" + name +
                     "' is also the name of another attribute");
}

// The values of an element's "v": full names, types checked, defaults applied; the first
// problem, if any, in `problem`.
json element_values(const json &v, const Declarations &d, std::string &problem) {
  json out = json::object();
  if (!v.is_null()) {
    if (!v.is_object()) {
      problem = "its values \"v\" must be an object";
      return out;
    }
    for (const auto &[key, value] : v.items()) {
      if (value.is_null()) continue;
      const std::string name = d.full_name(key);
      if (const Declaration *decl = d.find(name); decl && !fits(value, decl->type)) {
        if (problem.empty()) problem = "attribute '" + name + "' is declared " + decl->type + " but holds " + quote(value);
        continue;
      }
      out[name] = value;
    }
  }
  for (const auto &[name, decl] : d.by_name)
    if (decl.fallback && !out.contains(name)) out[name] = *decl.fallback;
  return out;
}

std::string element_name(const char *kind, std::size_t index, const std::optional<int64_t> &id) {
  return std::string(kind) + " " + std::to_string(index + 1) + (id ? " (id " + std::to_string(*id) + ")" : "");
}

// The document's aspects from element `first` on, by name, fragments in file order. Each
// element must be an object with one array ({name: [elements]}); a second descriptor and a
// status reporting failure are errors; metaData (and CX1's numberVerification) carry counts
// only and are skipped.
struct Aspects {
  std::map<std::string, std::vector<const json *>> blocks;
  bool status = false;

  const std::vector<const json *> &operator[](const std::string &name) const {
    static const std::vector<const json *> none;
    auto it = blocks.find(name);
    return it == blocks.end() ? none : it->second;
  }
  // Aspects other than `known`, with their element counts.
  std::vector<std::pair<std::string, uint64_t>> others(const std::set<std::string> &known) const {
    std::vector<std::pair<std::string, uint64_t>> out;
    for (const auto &[name, list] : blocks) {
      if (known.count(name)) continue;
      uint64_t n = 0;
      for (const json *b : list) n += b->size();
      out.emplace_back(name, n);
    }
    return out;
  }
};

Aspects group_aspects(const json &doc, std::size_t first, const std::string &path) {
  Aspects a;
  for (std::size_t k = first; k < doc.size(); ++k) {
    const json &element = doc[k];
    const std::string where = "element " + std::to_string(k + 1) + " of the document";
    if (element.is_object() && element.contains("CXVersion")) fail(path, where + ": a second CXVersion descriptor");
    if (!element.is_object() || element.size() != 1 || !element.begin().value().is_array())
      fail(path, where + ": an aspect must be an object with one key whose value is an array");
    const std::string &name = element.begin().key();
    const json &elements = element.begin().value();
    if (name == "metaData" || name == "numberVerification" || name == "preMetaData" || name == "postMetaData") continue;
    if (name == "status") {
      a.status = true;
      for (const auto &st : elements)
        if (st.is_object() && st.contains("success") && st["success"].is_boolean() && !st["success"].get<bool>()) {
          const std::string error = st.contains("error") && st["error"].is_string() ? st["error"].get<std::string>() : "";
          fail(path, "the file's status reports a failure" + (error.empty() ? std::string() : ": " + error));
        }
      continue;
    }
    // Without fragments each aspect appears once; with them, its blocks are concatenated.
    // (Repeated blocks are concatenated either way: nothing in them is dropped.)
    a.blocks[name].push_back(&elements);
  }
  return a;
}

// Nodes and edges: ids (unique), endpoints (existing nodes), values, positions.
void read_elements(CxNetwork &net, const std::vector<const json *> &node_blocks,
                   const std::vector<const json *> &edge_blocks, const Declarations &node_decl,
                   const Declarations &edge_decl) {
  std::unordered_set<int64_t> node_ids, edge_ids;
  for (const json *block : node_blocks)
    for (const json &el : *block) {
      CxElement n;
      n.index = net.nodes.size();
      n.raw = dump_json(el);
      std::optional<int64_t> id;
      if (!el.is_object()) {
        n.problem = "not an object";
      } else if (!el.contains("id") || !(id = id_of(el["id"]))) {
        n.problem = "no integer \"id\"";
      } else {
        n.id = *id;
        if (!node_ids.insert(*id).second) n.problem = "duplicate node id " + std::to_string(*id);
        n.values = element_values(el.contains("v") ? el["v"] : json(), node_decl, n.problem);
        for (const char *axis : {"x", "y", "z"}) {
          if (!el.contains(axis) || el[axis].is_null()) continue;
          if (!el[axis].is_number()) {
            if (n.problem.empty()) n.problem = std::string("its position \"") + axis + "\" is not a number";
            continue;
          }
          (axis[0] == 'x' ? n.x : axis[0] == 'y' ? n.y : n.z) = el[axis].get<double>();
        }
      }
      if (!n.problem.empty()) n.problem = element_name("node", n.index, id) + ": " + n.problem;
      net.nodes.push_back(std::move(n));
    }
  for (const json *block : edge_blocks)
    for (const json &el : *block) {
      CxElement e;
      e.index = net.edges.size();
      e.raw = dump_json(el);
      std::optional<int64_t> id, s, t;
      if (!el.is_object()) {
        e.problem = "not an object";
      } else if (!el.contains("id") || !(id = id_of(el["id"]))) {
        e.problem = "no integer \"id\"";
      } else if (!el.contains("s") || !el.contains("t") || !(s = id_of(el["s"])) || !(t = id_of(el["t"]))) {
        e.problem = "needs integer \"s\" and \"t\" (its source and target node ids)";
      } else {
        e.id = *id;
        e.source = *s;
        e.target = *t;
        if (!edge_ids.insert(*id).second) e.problem = "duplicate edge id " + std::to_string(*id);
        else if (!node_ids.count(*s)) e.problem = "its source " + std::to_string(*s) + " is not a node of the network";
        else if (!node_ids.count(*t)) e.problem = "its target " + std::to_string(*t) + " is not a node of the network";
        e.values = element_values(el.contains("v") ? el["v"] : json(), edge_decl, e.problem);
      }
      if (!e.problem.empty()) e.problem = element_name("edge", e.index, id) + ": " + e.problem;
      net.edges.push_back(std::move(e));
    }
}

CxNetwork read_cx2(const json &doc, const std::string &path) {
  CxNetwork net;
  net.version = 2;
  const json &descriptor = doc[0];
  if (!descriptor["CXVersion"].is_string()) fail(path, "\"CXVersion\" must be a string such as \"2.0\"");
  const std::string version = descriptor["CXVersion"].get<std::string>();
  if (version.substr(0, version.find('.')) != "2")
    fail(path, "CX version '" + version + "' is not supported (grappi reads CX 2.x and CX 1)");
  if (descriptor.contains("hasFragments") && !descriptor["hasFragments"].is_boolean())
    fail(path, "\"hasFragments\" must be true or false");
  const Aspects aspects = group_aspects(doc, 1, path);
  if (!aspects.status) fail(path, "no status aspect (a CX2 document ends with {\"status\": [{\"success\": true}]})");
  Declarations node_decl, edge_decl, net_decl;
  for (const json *block : aspects["attributeDeclarations"])
    for (const json &d : *block) {
      if (!d.is_object()) fail(path, "attributeDeclarations: each element must be an object");
      for (const auto &[kind, attrs] : d.items()) {
        if (kind == "nodes") declare(node_decl, attrs, kind, path);
        else if (kind == "edges") declare(edge_decl, attrs, kind, path);
        else if (kind == "networkAttributes") declare(net_decl, attrs, kind, path);
        else {
          Declarations other;  // another kind of element: checked, not used
          declare(other, attrs, kind, path);
        }
      }
    }
  for (const json *block : aspects["networkAttributes"])
    for (const json &a : *block) {
      if (!a.is_object()) fail(path, "networkAttributes: each element must be an object");
      for (const auto &[key, value] : a.items()) {
        if (value.is_null()) continue;
        const std::string name = net_decl.full_name(key);
        if (const Declaration *d = net_decl.find(name); d && !fits(value, d->type)) {
          net.problems.push_back({1, "network attribute '" + name + "'",
                                  "declared " + d->type + " but holds " + quote(value)});
          continue;
        }
        if (!net.network_attributes.contains(name)) net.network_attributes[name] = value;
      }
    }
  read_elements(net, aspects["nodes"], aspects["edges"], node_decl, edge_decl);
  net.other_aspects = aspects.others({"attributeDeclarations", "networkAttributes", "nodes", "edges"});
  return net;
}

// A CX1 value ("v", often a string whatever its type) converted to its declared type "d".
std::optional<json> cx1_value(const json &v, const std::string &type) {
  if (type.rfind("list_of_", 0) == 0) {
    if (!v.is_array()) return std::nullopt;
    json out = json::array();
    for (const auto &x : v) {
      auto c = cx1_value(x, type.substr(8));
      if (!c) return std::nullopt;
      out.push_back(std::move(*c));
    }
    return out;
  }
  if (!v.is_string()) return fits(v, type) ? std::optional<json>(v) : std::nullopt;
  const std::string &s = v.get_ref<const std::string &>();
  if (type == "string") return v;
  if (type == "boolean") {
    if (iequals(s, "true")) return json(true);
    if (iequals(s, "false")) return json(false);
    return std::nullopt;
  }
  if (type == "integer" || type == "long") {
    int64_t x = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
    json j = x;
    if (type == "integer" && !is_int32(j)) return std::nullopt;
    return j;
  }
  // double: strtod takes "9.1177E-4", "1e5", "-0.3"; the whole text must be the number.
  if (s.empty() || std::isspace(static_cast<unsigned char>(s.front()))) return std::nullopt;
  errno = 0;
  char *end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(x)) return std::nullopt;
  return json(x);
}

// The value of a CX1 attribute {"n", "v", "d"} in its declared type; nullopt with the problem.
std::optional<json> cx1_attribute(const json &a, std::string &problem) {
  const std::string type = a.contains("d") && a["d"].is_string() ? normal_type(a["d"].get<std::string>()) : "string";
  auto value = type.empty() ? std::nullopt : cx1_value(a["v"], type);
  if (!value)
    problem = "value " + quote(a["v"]) + " of '" + a["n"].get<std::string>() + "' is not a " +
              (type.empty() ? quote(a["d"]) + " (unknown type)" : type);
  return value;
}

CxNetwork read_cx1(const json &doc, const std::string &path) {
  CxNetwork net;
  net.version = 1;
  const Aspects aspects = group_aspects(doc, 0, path);  // CX1 files may lack a status
  const auto &node_blocks = aspects["nodes"], &edge_blocks = aspects["edges"];
  // CX1 elements in the CX2 shape: "@id" -> "id", n/r -> name/represents, i -> interaction.
  json nodes = json::array(), edges = json::array();
  for (const json *block : node_blocks)
    for (const json &el : *block) {
      json n = el;
      if (el.is_object()) {
        n = json::object();
        if (el.contains("@id")) n["id"] = el["@id"];
        json v = json::object();
        if (el.contains("n") && el["n"].is_string()) v["name"] = el["n"];
        if (el.contains("r") && el["r"].is_string()) v["represents"] = el["r"];
        n["v"] = std::move(v);
      }
      nodes.push_back(std::move(n));
    }
  for (const json *block : edge_blocks)
    for (const json &el : *block) {
      json e = el;
      if (el.is_object()) {
        e = json::object();
        if (el.contains("@id")) e["id"] = el["@id"];
        if (el.contains("s")) e["s"] = el["s"];
        if (el.contains("t")) e["t"] = el["t"];
        json v = json::object();
        if (el.contains("i") && el["i"].is_string()) v["interaction"] = el["i"];
        e["v"] = std::move(v);
      }
      edges.push_back(std::move(e));
    }
  const Declarations none;
  read_elements(net, {&nodes}, {&edges}, none, none);
  // The raw text of a CX1 element is the CX1 element itself.
  {
    std::size_t i = 0;
    for (const json *block : node_blocks)
      for (const json &el : *block) net.nodes[i++].raw = dump_json(el);
    i = 0;
    for (const json *block : edge_blocks)
      for (const json &el : *block) net.edges[i++].raw = dump_json(el);
  }
  std::unordered_map<int64_t, std::size_t> node_at, edge_at;
  for (const auto &n : net.nodes)
    if (n.problem.empty()) node_at.emplace(n.id, n.index);
  for (const auto &e : net.edges)
    if (e.problem.empty()) edge_at.emplace(e.id, e.index);
  // Attributes: {"po": element id(s), "n": name, "v": value, "d": type}.
  const auto attributes = [&](const std::vector<const json *> &blocks, const char *aspect,
                              std::vector<CxElement> &elements, const std::unordered_map<int64_t, std::size_t> &at) {
    std::size_t k = 0;
    for (const json *block : blocks)
      for (const json &a : *block) {
        ++k;
        const std::string what = std::string(aspect) + " " + std::to_string(k);
        if (!a.is_object() || !a.contains("po") || !a.contains("n") || !a["n"].is_string() || !a.contains("v")) {
          net.problems.push_back({k, what, "needs \"po\", a string \"n\" and \"v\""});
          continue;
        }
        std::string problem;
        const auto value = cx1_attribute(a, problem);
        if (!value) {
          net.problems.push_back({k, what, problem});
          continue;
        }
        const json owners = a["po"].is_array() ? a["po"] : json::array({a["po"]});
        for (const json &po : owners) {
          const auto id = id_of(po);
          auto it = id ? at.find(*id) : at.end();
          if (it == at.end()) {
            net.problems.push_back({k, what, "\"po\" " + quote(po) + " is not an element of the network"});
            continue;
          }
          json &values = elements[it->second].values;
          const std::string &name = a["n"].get_ref<const std::string &>();
          if (!values.contains(name)) values[name] = *value;  // "n"/"r"/"i" and earlier subnetworks first
        }
      }
  };
  attributes(aspects["nodeAttributes"], "nodeAttributes", net.nodes, node_at);
  attributes(aspects["edgeAttributes"], "edgeAttributes", net.edges, edge_at);
  std::size_t k = 0;
  for (const json *block : aspects["networkAttributes"])
    for (const json &a : *block) {
      ++k;
      if (!a.is_object() || !a.contains("n") || !a["n"].is_string() || !a.contains("v")) {
        net.problems.push_back({k, "networkAttributes " + std::to_string(k), "needs a string \"n\" and \"v\""});
        continue;
      }
      std::string problem;
      const auto value = cx1_attribute(a, problem);
      if (!value) {
        net.problems.push_back({k, "networkAttributes " + std::to_string(k), problem});
        continue;
      }
      if (!net.network_attributes.contains(a["n"].get<std::string>())) net.network_attributes[a["n"].get<std::string>()] = *value;
    }
  k = 0;
  for (const json *block : aspects["cartesianLayout"])
    for (const json &p : *block) {
      ++k;
      const auto id = p.is_object() && p.contains("node") ? id_of(p["node"]) : std::nullopt;
      auto it = id ? node_at.find(*id) : node_at.end();
      if (it == node_at.end() || !p.contains("x") || !p.contains("y") || !p["x"].is_number() || !p["y"].is_number()) {
        net.problems.push_back({k, "cartesianLayout " + std::to_string(k), "needs an existing \"node\" and numbers \"x\", \"y\""});
        continue;
      }
      CxElement &n = net.nodes[it->second];
      if (n.x) continue;  // one position per node: the first view's
      n.x = p["x"].get<double>();
      n.y = p["y"].get<double>();
      if (p.contains("z") && p["z"].is_number()) n.z = p["z"].get<double>();
    }
  net.other_aspects =
      aspects.others({"nodes", "edges", "nodeAttributes", "edgeAttributes", "networkAttributes", "cartesianLayout"});
  return net;
}

// A document without a CX2 descriptor that is CX1: it has CX1's numberVerification, or its
// nodes carry "@id".
bool is_cx1(const json &doc) {
  for (const json &a : doc) {
    if (!a.is_object() || a.size() != 1) continue;
    if (a.contains("numberVerification")) return true;
    if (a.contains("nodes") && a["nodes"].is_array() && !a["nodes"].empty() && a["nodes"][0].is_object() &&
        a["nodes"][0].contains("@id"))
      return true;
  }
  return false;
}

}  // namespace

bool looks_like_cx(std::string_view first_line) { return !first_line.empty() && first_line.front() == '['; }

CxNetwork read_cx(const json &doc, const std::string &path) {
  if (!doc.is_array()) fail(path, "not a CX document: the top level must be a JSON array of aspects");
  if (doc.empty()) fail(path, "an empty CX document");
  if (doc[0].is_object() && doc[0].contains("CXVersion")) return read_cx2(doc, path);
  if (is_cx1(doc)) return read_cx1(doc, path);
  fail(path, "no CXVersion descriptor in the first element (a CX2 document starts with {\"CXVersion\": \"2.0\"})");
}

std::string cx2_type_of(const json &v) {
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "boolean";
  if (v.is_number_integer()) return is_int32(v) ? "integer" : is_int64(v) ? "long" : "double";
  if (v.is_number()) return "double";
  if (!v.is_array() || v.empty()) return {};
  std::string type;
  for (const auto &x : v) {
    std::string t = cx2_type_of(x);
    if (t.empty() || t.rfind("list_of_", 0) == 0) return {};
    if (type.empty() || type == t) type = t;
    else if ((type == "integer" && t == "long") || (type == "long" && t == "integer")) type = "long";
    else if ((type == "integer" || type == "long" || type == "double") && (t == "integer" || t == "long" || t == "double"))
      type = "double";
    else return {};
  }
  return "list_of_" + type;
}

}  // namespace grappi::detail
