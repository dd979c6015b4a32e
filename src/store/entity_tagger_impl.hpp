// Internal: the dictionary tagger's state (grappi/entities.hpp's EntityTagger), shared by the
// files that build it (entities.cpp) and keep it in "<db>.names" (entity_cache.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "grappi/entities.hpp"
#include "grappi/snapshot.hpp"
#include "common/visibility.hpp"

namespace grappi {

namespace detail {
/// The kind of a dictionary name by its source: "symbol", "curated", "full_name", "derived" or "alias"
/// (a static string).
const char *name_kind_of(std::string_view source);
}  // namespace detail

struct GRAPPI_HIDDEN EntityTagger::Impl {
  EntityTaggerOptions options;
  // An organism a mention's own words name, and which words ("the word before it").
  struct OwnOrganism {
    int64_t taxon = 0;
    std::string why;
  };
  struct NodeInfo {
    EntityCandidate base;  // without matched/source
    // The content words of its annotation (sorted, distinct), for nodes that share a name with
    // another node: what tells them apart in a passage.
    std::vector<std::string> words;
    bool connected = false;          // it has edges in the graph
    std::vector<uint32_t> members;   // a family or complex: its direct members (nodes indices)
  };
  std::vector<NodeInfo> nodes;
  std::unordered_map<int64_t, uint32_t> index_of;  // node id -> nodes index
  struct Entry {
    uint32_t node;
    std::string name, source;
    const char *kind;  // name_kind_of(source)
  };
  std::vector<Entry> entries;
  std::unordered_map<std::string, std::vector<uint32_t>> by_name;  // folded name -> entries
  std::unordered_map<std::string, std::vector<uint32_t>> by_id;    // folded id-like alias -> node indices
  std::unordered_map<std::string, std::vector<uint32_t>> by_words;  // words_key of a name of several words -> entries
  // Texts a curated list (FamPlex's grounding map) gives to something that is no gene or
  // protein ("LPS": CHEBI:16412), as written, with what it names: never a gene's alias.
  std::unordered_map<std::string, std::string> not_genes;
  std::unordered_set<std::string> stop;
  std::size_t max_chars = 0, max_words = 1;
  std::vector<std::string> sorted_keys;  // by_name's keys, sorted: whether a key begins some name
  bool begins_a_name(const std::string &key) const {
    const auto it = std::lower_bound(sorted_keys.begin(), sorted_keys.end(), key);
    return it != sorted_keys.end() && it->compare(0, key.size(), key) == 0;
  }
  std::shared_ptr<const GraphSnapshot> snapshot;

  int64_t dominant = 0;  // the taxon most proteins are of
  std::set<int64_t> taxa;  // the taxa of its proteins
  std::unordered_map<std::string, uint32_t> full_name_words;  // a word -> how many nodes' full names have it
  std::vector<std::vector<uint32_t>> node_entries;  // nodes index -> its entries

  std::vector<EntityMention> scan(std::string_view text) const;
  // (any_case: the case rule waived, for a span the document itself marks as an entity)
  std::vector<EntityCandidate> candidates(const std::vector<uint32_t> &hits, std::string_view seen, bool any_case = false) const;
  // A stated organism (not 0, with `source` saying where it comes from) narrows ambiguous names
  // first and makes a name only other organisms' proteins have "other_organism"; without one,
  // `preferred` (else options.taxon, else the organism most unique mentions are of, else the
  // database's) breaks ties the other rules leave.
  // (own: per mention, an organism its own words name, which replaces the stated one)
  void resolve(std::vector<EntityMention> &mentions, std::string_view text, int64_t organism = 0,
               const std::string &source = {}, int64_t preferred = 0, const std::vector<OwnOrganism> *own = nullptr) const;
  // A passage's annotations reconciled with the dictionary's mentions, not yet resolved.
  std::vector<EntityMention> reconcile(const DocumentPassage &passage) const;
  // The organism each mention's own words name: the word just before it ("human TNF"), else its
  // sentence when that names one organism only, another than the paper's (`paper`; not when
  // `by_sentence` is false: a taxon asked for is over what the text says).
  std::vector<OwnOrganism> own_organisms(const std::vector<EntityMention> &mentions, std::string_view text, int64_t paper,
                                         bool by_sentence) const;
  // Whether a long form names a class of proteins by a letter alone ("protein kinase B").
  bool class_by_letter(std::string_view long_form) const;
  // What an abbreviation's long form names in the database (`other_organisms`: the paper names
  // another organism than `organism` too).
  void meaning(Abbreviation &a, int64_t organism, bool other_organisms = false) const;
  std::vector<EntityCandidate> ids_of(std::string_view id) const;
  void short_aliases(std::vector<EntityMention> &mentions, std::string_view text) const;
  std::vector<std::string> description_names(const std::vector<std::string> &annotations) const;
  void rodent_symbols(std::vector<EntityMention> &mentions, const PaperContext &paper) const;
  void apply(std::vector<EntityMention> &mentions, std::string_view text, const std::vector<Abbreviation> &abbreviations) const;
  void add_entry(uint32_t node, const std::string &name, const std::string &source, bool term);
  void index_entries();
  void resolve_members(const KnowledgeGraph &kg);
  // Derives the state from the knowledge graph (options and snapshot set).
  void build(const KnowledgeGraph &kg);
  // "<db>.names" (entity_cache.cpp): the state above (but options, stop and snapshot, which the
  // constructor sets), kept under a key naming the database's content, the options and the build
  // of the library. load() fills it and returns true only from an intact file of exactly that key.
  bool load(const std::string &path, const std::string &key);
  void save(const std::string &path, const std::string &key) const;
};

}  // namespace grappi
