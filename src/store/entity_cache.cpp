// "<db>.names": the name dictionary of EntityTagger (grappi/entities.hpp) as its constructor
// derived it, so that a process reads it instead of deriving it again (a third of a second at
// the human proteome's size; the command line's `ask` and `resolve` pay it on every call).
//
// A section file (common/section_file.hpp): the key (the library's build, the database's
// instance and generation, the snapshot's fingerprint, the options), then the state as a byte
// stream. Any difference in the key, any damaged byte and any index out of range makes the
// constructor derive the dictionary again and rewrite the file; nothing read is trusted before
// it is checked.
#include <algorithm>

#include "common/section_file.hpp"
#include "grappi/error.hpp"
#include "store/entity_tagger_impl.hpp"

namespace grappi {

namespace {

constexpr char kNamesMagic[16] = "grappi-names-1\n";

void put_candidate(detail::ByteWriter &w, const EntityCandidate &c) {
  w.i64(c.node);
  for (const std::string *s : {&c.id, &c.name, &c.label}) w.str(*s);
  w.i64(c.taxon);
  for (const std::string *s : {&c.matched, &c.source, &c.name_kind}) w.str(*s);
  w.u64(c.tier);
  for (const std::string *s : {&c.function, &c.ns, &c.value, &c.bel, &c.url}) w.str(*s);
}

void get_candidate(detail::ByteReader &r, EntityCandidate &c) {
  c.node = r.i64();
  for (std::string *s : {&c.id, &c.name, &c.label}) *s = r.str();
  c.taxon = r.i64();
  for (std::string *s : {&c.matched, &c.source, &c.name_kind}) *s = r.str();
  c.tier = static_cast<unsigned>(std::min<uint64_t>(r.u64(), 1000));
  for (std::string *s : {&c.function, &c.ns, &c.value, &c.bel, &c.url}) *s = r.str();
}

// A map of names to index lists, its keys in sorted order (so that the reader's sorted_keys need
// no sort).
void put_lists(detail::ByteWriter &w, const std::unordered_map<std::string, std::vector<uint32_t>> &map) {
  std::vector<const std::pair<const std::string, std::vector<uint32_t>> *> items;
  items.reserve(map.size());
  for (const auto &item : map) items.push_back(&item);
  std::sort(items.begin(), items.end(), [](const auto *a, const auto *b) { return a->first < b->first; });
  w.u64(items.size());
  for (const auto *item : items) {
    w.str(item->first);
    w.u64(item->second.size());
    for (uint32_t x : item->second) w.u64(x);
  }
}

// (limit: every index must be below it; keys: the keys in the order read)
bool get_lists(detail::ByteReader &r, std::unordered_map<std::string, std::vector<uint32_t>> &map, std::size_t limit,
               std::vector<std::string> *keys = nullptr) {
  const std::size_t n = r.count(2);
  map.reserve(n);
  if (keys) keys->reserve(n);
  for (std::size_t i = 0; i < n && r.ok(); ++i) {
    std::string key(r.str());
    std::vector<uint32_t> list(r.count());
    if (list.empty()) return false;  // (the constructor makes no empty list; the scan reads each list's first)
    for (uint32_t &x : list) {
      const uint64_t v = r.u64();
      if (v >= limit) return false;
      x = static_cast<uint32_t>(v);
    }
    if (keys) {
      if (!keys->empty() && !(keys->back() < key)) return false;
      keys->push_back(key);
    }
    if (!map.emplace(std::move(key), std::move(list)).second) return false;
  }
  return r.ok();
}

}  // namespace

void EntityTagger::Impl::save(const std::string &path, const std::string &key) const {
  detail::ByteWriter w;
  w.u64(nodes.size());
  for (const NodeInfo &n : nodes) {
    put_candidate(w, n.base);
    w.u64(n.words.size());
    for (const std::string &x : n.words) w.str(x);
    w.u64(n.connected ? 1 : 0);
    w.u64(n.members.size());
    for (uint32_t x : n.members) w.u64(x);
  }
  w.u64(entries.size());
  for (const Entry &e : entries) {
    w.u64(e.node);
    w.str(e.name);
    w.str(e.source);
  }
  put_lists(w, by_name);
  put_lists(w, by_id);
  put_lists(w, by_words);
  std::vector<std::pair<std::string, std::string>> curated(not_genes.begin(), not_genes.end());
  std::sort(curated.begin(), curated.end());
  w.u64(curated.size());
  for (const auto &[text, what] : curated) {
    w.str(text);
    w.str(what);
  }
  w.u64(max_chars);
  w.u64(max_words);
  w.i64(dominant);
  w.u64(taxa.size());
  for (int64_t t : taxa) w.i64(t);
  std::vector<std::pair<std::string, uint32_t>> words(full_name_words.begin(), full_name_words.end());
  std::sort(words.begin(), words.end());
  w.u64(words.size());
  for (const auto &[word, count] : words) {
    w.str(word);
    w.u64(count);
  }
  try {
    detail::write_section_file(path, kNamesMagic, {{key.data(), key.size()}, {w.bytes().data(), w.bytes().size()}},
                               "name dictionary");
  } catch (const Error &) {
    // (a directory the process may not write to simply has no dictionary file: derived each time)
  }
}

bool EntityTagger::Impl::load(const std::string &path, const std::string &key) {
  const auto file = detail::MappedFile::open(path);
  detail::SectionFile f;
  if (!file || !f.open(*file, kNamesMagic, 2) || f[0].size != key.size() || !f.intact(0) ||
      std::memcmp(f[0].data, key.data(), key.size()) != 0 || !f.intact(1))
    return false;
  detail::ByteReader r(f[1].data, f[1].size);
  Impl t;
  t.nodes.resize(r.count(16));
  for (NodeInfo &n : t.nodes) {
    get_candidate(r, n.base);
    n.words.resize(r.count());
    for (std::string &x : n.words) x = r.str();
    n.connected = r.u64() != 0;
    n.members.resize(r.count());
    for (uint32_t &x : n.members) {
      const uint64_t v = r.u64();
      if (v >= t.nodes.size()) return false;
      x = static_cast<uint32_t>(v);
    }
    if (!r.ok() || !t.index_of.emplace(n.base.node, static_cast<uint32_t>(&n - t.nodes.data())).second) return false;
  }
  t.entries.resize(r.count(3));
  for (Entry &e : t.entries) {
    const uint64_t node = r.u64();
    if (node >= t.nodes.size()) return false;
    e.node = static_cast<uint32_t>(node);
    e.name = r.str();
    e.source = r.str();
    e.kind = detail::name_kind_of(e.source);
  }
  if (!r.ok() || !get_lists(r, t.by_name, t.entries.size(), &t.sorted_keys) || !get_lists(r, t.by_id, t.nodes.size()) ||
      !get_lists(r, t.by_words, t.entries.size()))
    return false;
  for (std::size_t i = 0, n = r.count(2); i < n && r.ok(); ++i) {
    std::string text(r.str());
    t.not_genes.emplace(std::move(text), std::string(r.str()));
  }
  t.max_chars = static_cast<std::size_t>(r.u64());
  t.max_words = static_cast<std::size_t>(r.u64());
  t.dominant = r.i64();
  for (std::size_t i = 0, n = r.count(); i < n && r.ok(); ++i) t.taxa.insert(r.i64());
  for (std::size_t i = 0, n = r.count(2); i < n && r.ok(); ++i) {
    std::string word(r.str());
    t.full_name_words.emplace(std::move(word), static_cast<uint32_t>(std::min<uint64_t>(r.u64(), UINT32_MAX)));
  }
  // (the scan reads at most max_words words of max_chars characters: bounded as the constructor bounds them)
  if (!r.ok() || !r.at_end() || t.max_words < 1 || t.max_words > 8 || t.max_chars > (1u << 20)) return false;
  t.node_entries.assign(t.nodes.size(), {});
  for (uint32_t e = 0; e < t.entries.size(); ++e) t.node_entries[t.entries[e].node].push_back(e);
  nodes = std::move(t.nodes);
  index_of = std::move(t.index_of);
  entries = std::move(t.entries);
  by_name = std::move(t.by_name);
  by_id = std::move(t.by_id);
  by_words = std::move(t.by_words);
  not_genes = std::move(t.not_genes);
  max_chars = t.max_chars;
  max_words = t.max_words;
  sorted_keys = std::move(t.sorted_keys);
  dominant = t.dominant;
  taxa = std::move(t.taxa);
  full_name_words = std::move(t.full_name_words);
  node_entries = std::move(t.node_entries);
  return true;
}

}  // namespace grappi
