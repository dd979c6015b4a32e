// Partial-count files of the co-occurrence builder (CoocBuilder::save, CoocBuilder::merge_file;
// docs/distributed.md "Partial counts"): what one worker counted over its part of a corpus,
// merged by another process into the graph of the whole.
//
// The file: a first line "grappi-cooc-partial 1", a JSON header line (options, figures,
// concepts with their units and spellings, documents' keys and years, the number of pairs, the
// provenance), then the pairs as little-endian uint32 triples (a, b, document), sorted. The size
// is checked against the header before anything is taken in, and every pair while it is read
// (in range, in order), so that a damaged file is refused instead of merged.
#include <cstring>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "agents/literature/cooc_builder.hpp"
#include "common/json_input.hpp"
#include "common/part_files.hpp"
#include "common/text_reader.hpp"
#include "grappi/json_text.hpp"

namespace grappi {

namespace {

using nlohmann::json;

constexpr const char *kPartialMagic = "grappi-cooc-partial 1";

json options_json(const CoocOptions &o) {
  return {{"scope", o.scope == CoocOptions::Scope::sentence ? "sentence" : "document"},
          {"titles", o.titles},
          {"types", o.types},
          {"min_count", o.min_count},
          {"as_of", o.as_of ? json(*o.as_of) : json(nullptr)},
          {"dictionary", o.dictionary}};
}

CoocOptions options_from(const json &j) {
  CoocOptions o;
  o.scope = j.at("scope").get<std::string>() == "sentence" ? CoocOptions::Scope::sentence : CoocOptions::Scope::document;
  o.titles = j.at("titles").get<std::string>();
  o.types = j.at("types").get<std::vector<std::string>>();
  o.min_count = detail::json_integer<std::size_t>(j.at("min_count"));
  if (!j.at("as_of").is_null()) o.as_of = detail::json_integer<int>(j.at("as_of"));
  o.dictionary = j.at("dictionary").get<bool>();
  return o;
}

// What a partial file's header holds, read and checked.
struct PartialHeader {
  CoocOptions options;
  std::vector<CoocConcept> concepts;
  std::vector<std::unordered_map<std::string, std::size_t>> spellings;
  std::vector<std::string> keys;
  std::vector<int> years;
  std::size_t documents = 0, units = 0, undated = 0, later = 0, mentions = 0, unidentified = 0, composite = 0;
  uint64_t pairs = 0;
  std::streamoff data = 0;  // where the pairs start
  json provenance;
};

[[noreturn]] void damaged(const std::string &path, const std::string &why) {
  throw Error(ErrorCode::parse, "co-occurrence partial counts '" + path + "': " + why);
}

PartialHeader read_header(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::io, "co-occurrence partial counts: cannot read '" + path + "'");
  if (!detail::read_magic_line(in, kPartialMagic))
    damaged(path, "not a partial-count file (line 1 is not \"" + std::string(kPartialMagic) + "\")");
  std::string line;
  if (!std::getline(in, line)) damaged(path, "no header (line 2)");
  PartialHeader h;
  h.data = static_cast<std::streamoff>(std::strlen(kPartialMagic) + 1 + line.size() + 1);
  try {
    const json j = json::parse(line);
    if (j.at("byte_order").get<std::string>() != "little" || !detail::little_endian_host())
      damaged(path, "its pairs are not in this machine's byte order");
    h.options = options_from(j.at("options"));
    const json &f = j.at("figures");
    h.documents = detail::json_integer<std::size_t>(f.at("documents"));
    h.units = detail::json_integer<std::size_t>(f.at("units"));
    h.undated = detail::json_integer<std::size_t>(f.at("undated"));
    h.later = detail::json_integer<std::size_t>(f.at("later"));
    h.mentions = detail::json_integer<std::size_t>(f.at("mentions"));
    h.unidentified = detail::json_integer<std::size_t>(f.at("unidentified"));
    h.composite = detail::json_integer<std::size_t>(f.at("composite"));
    for (const json &cj : j.at("concepts")) {
      CoocConcept cc;
      cc.id = cj.at("id").get<std::string>();
      cc.type = cj.at("type").get<std::string>();
      cc.units = detail::json_integer<std::size_t>(cj.at("units"));
      cc.node = detail::json_integer<int64_t>(cj.at("node"));
      h.concepts.push_back(std::move(cc));
      h.spellings.push_back(cj.at("spellings").get<std::unordered_map<std::string, std::size_t>>());
    }
    h.keys = j.at("keys").get<std::vector<std::string>>();
    h.years = detail::json_integers<int>(j.at("years"));
    h.pairs = detail::json_integer<uint64_t>(j.at("pairs"));
    h.provenance = j.value("provenance", json::object());
  } catch (const json::exception &e) {
    damaged(path, std::string("a malformed header (line 2): ") + e.what());
  }
  if (h.keys.size() != h.years.size()) damaged(path, "the header lists " + std::to_string(h.keys.size()) + " documents but " +
                                                         std::to_string(h.years.size()) + " years");
  if (h.documents != h.keys.size())
    damaged(path, "the header counts " + std::to_string(h.documents) + " documents but lists " + std::to_string(h.keys.size()));
  {
    std::unordered_map<std::string_view, int> ids;
    for (const CoocConcept &cc : h.concepts)
      if (!ids.emplace(cc.id, 0).second) damaged(path, "the header lists concept '" + cc.id + "' twice");
  }
  if (h.concepts.size() > UINT32_MAX || h.keys.size() > UINT32_MAX) damaged(path, "more concepts or documents than a part holds");
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) throw Error(ErrorCode::io, "co-occurrence partial counts: cannot read '" + path + "': " + ec.message());
  const uintmax_t expected = static_cast<uintmax_t>(h.data) + h.pairs * sizeof(detail::cooc::Entry);
  if (h.pairs > (UINTMAX_MAX - static_cast<uintmax_t>(h.data)) / sizeof(detail::cooc::Entry) || size != expected)
    damaged(path, "the header announces " + std::to_string(h.pairs) + " pairs (" + std::to_string(expected) +
                      " bytes in all) but the file has " + std::to_string(size) + " bytes (truncated, or not written whole)");
  return h;
}

}  // namespace

void CoocBuilder::save(const std::string &path, const std::string &provenance) {
  Impl &m = *impl_;
  json prov = detail::part_provenance(provenance, "co-occurrence partial counts");
  std::sort(m.entries.begin(), m.entries.end(), detail::cooc::entry_less);
  std::vector<detail::cooc::RunReader> readers;
  readers.reserve(m.runs.size());
  uint64_t pairs = m.entries.size();
  for (const auto &r : m.runs) {
    readers.emplace_back(r.path);
    pairs += std::filesystem::file_size(r.path) / sizeof(detail::cooc::Entry);
  }
  json concepts = json::array();
  for (std::size_t c = 0; c < m.concepts.size(); ++c) {
    const CoocConcept &cc = m.concepts[c];
    concepts.push_back({{"id", cc.id}, {"type", cc.type}, {"units", cc.units}, {"node", cc.node}, {"spellings", m.spellings[c]}});
  }
  const json header = {{"format", "grappi-cooc-partial"},
                       {"version", 1},
                       {"byte_order", "little"},
                       {"options", options_json(m.options)},
                       {"figures",
                        {{"documents", m.documents},
                         {"units", m.units},
                         {"undated", m.undated},
                         {"later", m.later},
                         {"mentions", m.mentions},
                         {"unidentified", m.unidentified},
                         {"composite", m.composite}}},
                       {"concepts", std::move(concepts)},
                       {"keys", m.keys},
                       {"years", m.years},
                       {"pairs", pairs},
                       {"provenance", std::move(prov)}};
  detail::write_file_atomically(path, [&](std::ostream &out) {
    out << kPartialMagic << '\n' << dump_json(header) << '\n';
    // (buffered: the merge hands over one pair at a time)
    std::vector<detail::cooc::Entry> block;
    block.reserve(detail::cooc::kReadBlock);
    const auto flush = [&] {
      out.write(reinterpret_cast<const char *>(block.data()), static_cast<std::streamsize>(block.size() * sizeof(detail::cooc::Entry)));
      block.clear();
    };
    detail::cooc::merge_sorted(m.entries, readers, [&](const detail::cooc::Entry &e) {
      block.push_back(e);
      if (block.size() == detail::cooc::kReadBlock) flush();
    });
    flush();
  }, "co-occurrence partial counts");
  readers.clear();
  const CoocOptions options = m.options;
  const EntityTagger *tagger = m.tagger;
  *this = CoocBuilder(options, tagger);
}

CoocOptions CoocBuilder::partial_options(const std::string &path) { return read_header(path).options; }

std::string CoocBuilder::merge_file(const std::string &path) {
  Impl &m = *impl_;
  const PartialHeader h = read_header(path);
  if (!m.same_options(h.options))
    throw Error(ErrorCode::invalid_argument, "co-occurrence partial counts '" + path +
                                                 "': built with other options than this merge (scope, titles, types, "
                                                 "min_count, as_of, dictionary must agree)");
  // Every pair is checked first (in range, in order; a pass over the file), so that a damaged
  // file leaves this builder as it was; then they are taken in.
  const std::size_t n_concepts = h.concepts.size(), n_docs = h.keys.size();
  {
    bool first = true;
    detail::cooc::Entry previous{};
    uint64_t read = 0;
    for (detail::cooc::RunReader r(path, h.data); !r.done(); r.pop()) {
      const detail::cooc::Entry &e = r.top();
      if (e.a >= e.b || e.b >= n_concepts || e.doc >= n_docs)
        damaged(path, "pair " + std::to_string(read + 1) + " names a concept or document the header does not list");
      if (!first && detail::cooc::entry_less(e, previous)) damaged(path, "pair " + std::to_string(read + 1) + " is out of order");
      first = false;
      previous = e;
      ++read;
    }
    if (read != h.pairs) damaged(path, "read " + std::to_string(read) + " pairs of the " + std::to_string(h.pairs) + " announced");
  }
  if (m.keys.size() + h.keys.size() > UINT32_MAX)
    throw Error(ErrorCode::invalid_argument, "co-occurrence partial counts '" + path + "': more than 2^32 documents in one merge");
  const std::vector<uint32_t> remap = m.absorb_concepts(h.concepts, h.spellings);
  const uint32_t offset = static_cast<uint32_t>(m.keys.size());
  for (detail::cooc::RunReader r(path, h.data); !r.done(); r.pop()) m.add_moved(r.top(), remap, offset);
  m.keys.insert(m.keys.end(), h.keys.begin(), h.keys.end());
  m.years.insert(m.years.end(), h.years.begin(), h.years.end());
  m.documents += h.documents;
  m.units += h.units;
  m.undated += h.undated;
  m.later += h.later;
  m.mentions += h.mentions;
  m.unidentified += h.unidentified;
  m.composite += h.composite;
  return dump_json(h.provenance);
}

}  // namespace grappi
