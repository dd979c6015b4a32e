// The prompt templates of the explanation pipeline, written for grappi after the co-designed
// steps of the GraPPI paper (edge explanation < 35 words, path explanation < 80 words with a
// 0-100 relevance score as JSON).
#include <fstream>
#include <set>
#include <sstream>

#include "grappi/error.hpp"
#include "grappi/llm.hpp"
#include "models/templates.hpp"
#include "common/text_util.hpp"

namespace grappi {

namespace {

const char *kExploreSystem =
    "You are a biomedical curator who explains protein-protein interactions to drug-discovery "
    "researchers. Use only the evidence given, keep to the word limits, and say plainly when the "
    "evidence is weak or unrelated to the query.";

const char *kEdge =
    "Therapeutic query: {{query}}\n"
    "Interaction: {{source}} -> {{target}} (relation {{relation}}, {{direction}}, STRING confidence {{score}})\n"
    "Convention: in A -> B the effect propagates from the end protein back to the start protein.\n"
    "{{source}}: {{source_annotation}}\n"
    "{{target}}: {{target_annotation}}\n"
    "Evidence channels: {{channels}}\n"
    "PubMed ids: {{pmids}}\n"
    "{{evidence}}\n"
    "In fewer than 35 words, explain whether and how this interaction is relevant to the query.";

const char *kPath =
    "Therapeutic query: {{query}}\n"
    "Pathway ({{length}} interactions): {{path}}\n"
    "Explanations of its interactions:\n{{edge_explanations}}\n"
    "In fewer than 80 words, explain how this pathway as a whole could serve the query, then rate its "
    "relevance from 0 (unrelated) to 100 (directly achieves the query). Answer with one JSON object and "
    "nothing else: {\"explanation\": \"...\", \"relevance_score\": <integer 0-100>}";

const char *kRepair =
    "Your answer could not be used ({{error}}). Reply with only the JSON object "
    "{\"explanation\": \"...\", \"relevance_score\": <integer 0-100>}.";

const std::set<std::string> kEdgeFields = {"query", "source", "target", "source_annotation", "target_annotation",
                                           "relation", "direction", "score", "channels", "pmids", "evidence"};
const std::set<std::string> kPathFields = {"query", "path", "length", "proteins", "edge_explanations"};

// Walks a template: text(from, to) for each literal run, field(name) for each {{name}}; Error
// naming `where` for an unclosed '{{' or an empty field. render and the field check share it.
template <class Text, class Field>
void scan(const std::string &t, const std::string &where, Text &&text, Field &&field) {
  std::size_t pos = 0;
  for (std::size_t i = t.find("{{"); i != std::string::npos; i = t.find("{{", pos)) {
    const auto e = t.find("}}", i + 2);
    if (e == std::string::npos) throw Error(ErrorCode::invalid_argument, where + ": unclosed '{{'");
    const std::string name = detail::trim_copy(t.substr(i + 2, e - i - 2));
    if (name.empty()) throw Error(ErrorCode::invalid_argument, where + ": empty field '{{}}'");
    text(pos, i);
    field(name);
    pos = e + 2;
  }
  text(pos, t.size());
}

using detail::check_template;
using detail::read_template;

std::string hash_version(const PromptTemplates &t) {
  return detail::sha256_hex(t.system + '\0' + t.edge + '\0' + t.path + '\0' + t.repair).substr(0, 12);
}

}  // namespace

namespace detail {

void check_template(const std::string &t, const std::set<std::string> &allowed, const std::string &where) {
  scan(
      t, where, [](std::size_t, std::size_t) {},
      [&](const std::string &f) {
        if (!allowed.count(f)) throw Error(ErrorCode::invalid_argument, where + ": unknown field {{" + f + "}}");
      });
}

std::string read_template(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::io, "cannot read template file '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool load_template(std::string &slot, const std::string &file, const std::set<std::string> &allowed, const char *what) {
  if (file.empty()) return false;
  std::string text = read_template(file);
  check_template(text, allowed, std::string(what) + " template '" + file + "'");
  slot = std::move(text);
  return true;
}

}  // namespace detail

PromptTemplates PromptTemplates::defaults() {
  PromptTemplates t;
  t.system = kExploreSystem;
  t.edge = kEdge;
  t.path = kPath;
  t.repair = kRepair;
  t.version = "grappi-1-" + hash_version(t);
  return t;
}

void PromptTemplates::load(const std::string &system_file, const std::string &edge_file, const std::string &path_file) {
  PromptTemplates t = *this;
  bool any = detail::load_template(t.system, system_file, {}, "system");
  any = detail::load_template(t.edge, edge_file, kEdgeFields, "edge") || any;
  any = detail::load_template(t.path, path_file, kPathFields, "path") || any;
  if (!any) return;
  t.version = "custom-" + hash_version(t);
  *this = std::move(t);
}

std::string PromptTemplates::render(const std::string &tmpl, const std::map<std::string, std::string> &vars) {
  std::string out;
  out.reserve(tmpl.size() + 256);
  scan(
      tmpl, "template", [&](std::size_t from, std::size_t to) { out.append(tmpl, from, to - from); },
      [&](const std::string &name) {
        auto it = vars.find(name);
        if (it == vars.end()) throw Error(ErrorCode::invalid_argument, "template: unknown field {{" + name + "}}");
        out += it->second;
      });
  return out;
}

}  // namespace grappi
