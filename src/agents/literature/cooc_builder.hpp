// The co-occurrence builder's state (grappi/cooccurrence.hpp: CoocBuilder), shared by the
// builder (cooccurrence.cpp) and its partial-count files (cooc_partial.cpp).
//
// Each unit (a document, or a sentence) adds its concepts' unit counts and one entry (a, b,
// document) per pair of its concepts. The entries are the only part that grows with the corpus
// beyond the concepts: past the memory budget they are sorted and written to a run file; the
// graph is the merge of the runs (and what is left in memory), an edge per pair with its count
// (entries) and its documents. Documents are kept as their key and year only.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/text_util.hpp"
#include "common/visibility.hpp"
#include "grappi/cooccurrence.hpp"
#include "grappi/error.hpp"

namespace grappi {
namespace detail::cooc {


struct Entry {
  uint32_t a, b, doc;  // concept indices (a < b) and the document's arrival index
};

inline bool entry_less(const Entry &x, const Entry &y) {
  return x.a != y.a ? x.a < y.a : x.b != y.b ? x.b < y.b : x.doc < y.doc;
}

// A run of sorted entries on disk, removed with its object.
struct Run {
  std::string path;
  explicit Run(std::string p) : path(std::move(p)) {}
  Run(Run &&o) noexcept : path(std::move(o.path)) { o.path.clear(); }
  Run &operator=(Run &&o) noexcept {
    std::swap(path, o.path);
    return *this;
  }
  ~Run() {
    if (!path.empty()) std::remove(path.c_str());
  }
};

// Reads a run file back, a block at a time.
constexpr std::size_t kReadBlock = std::size_t{1} << 13;  // entries read at a time (96 KiB)

class RunReader {
 public:
  // Entries from `offset` to the end of the file.
  explicit RunReader(const std::string &path, std::streamoff offset = 0) : in_(path, std::ios::binary) {
    if (!in_ || !in_.seekg(offset)) throw Error(ErrorCode::io, "co-occurrence: cannot read back the pairs of '" + path + "'");
    fill();
  }
  bool done() const { return at_ >= buf_.size(); }
  const Entry &top() const { return buf_[at_]; }
  void pop() {
    if (++at_ >= buf_.size()) fill();
  }

 private:
  void fill() {
    buf_.resize(kReadBlock);
    in_.read(reinterpret_cast<char *>(buf_.data()), static_cast<std::streamsize>(buf_.size() * sizeof(Entry)));
    buf_.resize(static_cast<std::size_t>(in_.gcount()) / sizeof(Entry));
    at_ = 0;
  }
  std::ifstream in_;
  std::vector<Entry> buf_;
  std::size_t at_ = 0;
};

// The runs open at once (the readers' buffers and file handles): more are first merged into one.
constexpr std::size_t kMaxRuns = 32;

// Merges sorted sources (the in-memory entries and run readers) in order, calling emit(entry).
template <typename Emit>
void merge_sorted(const std::vector<Entry> &memory, std::vector<RunReader> &readers, Emit &&emit) {
  // A heap of the sources' heads: index readers.size() is the memory.
  std::size_t in_memory = 0;
  const auto head = [&](std::size_t k) -> const Entry & { return k < readers.size() ? readers[k].top() : memory[in_memory]; };
  const auto later = [&](std::size_t x, std::size_t y) { return entry_less(head(y), head(x)); };
  std::vector<std::size_t> heap;
  for (std::size_t k = 0; k < readers.size(); ++k)
    if (!readers[k].done()) heap.push_back(k);
  if (!memory.empty()) heap.push_back(readers.size());
  std::make_heap(heap.begin(), heap.end(), later);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const std::size_t k = heap.back();
    emit(head(k));
    bool more;
    if (k < readers.size()) {
      readers[k].pop();
      more = !readers[k].done();
    } else {
      more = ++in_memory < memory.size();
    }
    if (more) std::push_heap(heap.begin(), heap.end(), later);
    else heap.pop_back();
  }
}

inline std::string temp_dir(const std::string &dir) {
  return dir.empty() ? std::filesystem::temp_directory_path().string() : dir;
}

// Writes entries to a new run file, buffered; close() checks the writes (a full disk is an
// io error naming the file) and hands the file over as a Run.
class RunWriter {
 public:
  explicit RunWriter(std::string path) : run_(std::move(path)), out_(run_.path, std::ios::binary) {
    if (!out_) fail();
  }
  void write(const Entry *e, std::size_t n) {
    out_.write(reinterpret_cast<const char *>(e), static_cast<std::streamsize>(n * sizeof(Entry)));
    if (!out_) fail();
  }
  Run close() {
    out_.close();
    if (!out_) fail();
    return std::move(run_);
  }

 private:
  [[noreturn]] void fail() {
    throw Error(ErrorCode::io, "co-occurrence: cannot spill the pairs to '" + run_.path +
                                   "' (the disk is full, or CoocOptions::work_dir is not writable)");
  }
  Run run_;
  std::ofstream out_;
};

}  // namespace detail::cooc


struct GRAPPI_HIDDEN CoocBuilder::Impl {
  using Entry = detail::cooc::Entry;
  using Run = detail::cooc::Run;
  CoocOptions options;
  const EntityTagger *tagger = nullptr;
  std::vector<std::string> types;  // kept types, lower case
  std::vector<CoocConcept> concepts;
  std::unordered_map<std::string, uint32_t> index_of;                 // concept id -> index
  std::vector<std::unordered_map<std::string, std::size_t>> spellings;  // per concept: mention text -> count
  std::unordered_map<std::string, uint32_t> by_annotation;            // "type\x1fid" -> concept (looked up once)
  std::vector<std::string> keys;  // per document entry, in arrival order: its PubMed id, else its id
  std::vector<int> years;         // per document entry
  std::size_t documents = 0, units = 0, undated = 0, later = 0, mentions = 0, unidentified = 0, composite = 0;
  std::vector<Entry> entries;
  std::vector<Run> runs;
  std::size_t max_entries = 0;  // 0: no limit

  bool type_kept(const std::string &t) const {
    return types.empty() || std::find(types.begin(), types.end(), detail::lower_copy(t)) != types.end();
  }
  uint32_t concept_of(const std::string &id, const std::string &name, const std::string &type, int64_t node) {
    auto [it, fresh] = index_of.emplace(id, static_cast<uint32_t>(concepts.size()));
    if (fresh) {
      CoocConcept c;
      c.id = id;
      c.type = type;
      c.node = node;
      concepts.push_back(std::move(c));
      spellings.emplace_back();
    }
    ++spellings[it->second][name];
    return it->second;
  }
  void unit(uint32_t doc, std::vector<uint32_t> &cs) {
    std::sort(cs.begin(), cs.end());
    cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
    if (cs.empty()) return;
    ++units;
    for (uint32_t c : cs) ++concepts[c].units;
    for (std::size_t i = 0; i < cs.size(); ++i)
      for (std::size_t j = i + 1; j < cs.size(); ++j) entries.push_back({cs[i], cs[j], doc});
    if (max_entries && entries.size() >= max_entries) spill();
  }
  // A new run file's path in the work directory.
  std::string run_path() const {
    static std::atomic<unsigned> counter{0};
    return (std::filesystem::path(detail::cooc::temp_dir(options.work_dir)) /
            ("grappi-cooc-" + detail::random_hex(6) + "-" + std::to_string(counter++) + ".run"))
        .string();
  }
  // Writes the entries (sorted here) to a new run; past kMaxRuns the runs are merged into one.
  void spill() {
    if (entries.empty()) return;
    std::sort(entries.begin(), entries.end(), detail::cooc::entry_less);
    detail::cooc::RunWriter out(run_path());
    out.write(entries.data(), entries.size());
    runs.push_back(out.close());
    entries.clear();
    entries.shrink_to_fit();
    if (runs.size() >= detail::cooc::kMaxRuns) {
      std::vector<detail::cooc::RunReader> readers;
      readers.reserve(runs.size());
      for (const Run &r : runs) readers.emplace_back(r.path);
      detail::cooc::RunWriter merged(run_path());
      detail::cooc::merge_sorted({}, readers, [&](const Entry &e) { merged.write(&e, 1); });
      readers.clear();
      Run one = merged.close();
      runs.clear();  // (removes the merged files)
      runs.push_back(std::move(one));
    }
  }
  // Another part's concepts (with their units and spellings) taken in by id: the map of its
  // concept indices to this builder's.
  std::vector<uint32_t> absorb_concepts(const std::vector<CoocConcept> &others,
                                        const std::vector<std::unordered_map<std::string, std::size_t>> &their_spellings) {
    std::vector<uint32_t> remap(others.size());
    for (std::size_t c = 0; c < others.size(); ++c) {
      const CoocConcept &oc = others[c];
      auto [it, fresh] = index_of.emplace(oc.id, static_cast<uint32_t>(concepts.size()));
      if (fresh) {
        concepts.push_back(oc);
        spellings.emplace_back();
      } else {
        concepts[it->second].units += oc.units;
      }
      for (const auto &[text, n] : their_spellings[c]) spellings[it->second][text] += n;
      remap[c] = it->second;
    }
    return remap;
  }
  // An entry of another part: its concepts mapped, its document after this builder's `offset`.
  void add_moved(const Entry &e, const std::vector<uint32_t> &remap, uint32_t offset) {
    uint32_t x = remap[e.a], y = remap[e.b];
    if (x > y) std::swap(x, y);
    entries.push_back({x, y, e.doc + offset});
    if (max_entries && entries.size() >= max_entries) spill();
  }
  // Whether another builder's options give graphs that merge with this one's.
  bool same_options(const CoocOptions &b) const {
    const CoocOptions &a = options;
    return a.scope == b.scope && a.titles == b.titles && a.types == b.types && a.min_count == b.min_count &&
           a.as_of == b.as_of && a.dictionary == b.dictionary;
  }
};


}  // namespace grappi
