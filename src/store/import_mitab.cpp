// PSI-MITAB 2.5/2.6/2.7 interactions into the knowledge graph (IntAct, MINT, BioGRID, DIP).
//
// Interactors: each is joined to an existing node through its identifiers, most trusted first
// (ImportWriter::join): the primary id then every alternative id, each first with its
// namespace ("uniprotkb:P40460", as a previous MITAB import stores it) and then bare ("P40460",
// as STRING's alias file has it; a UniProt isoform "P40460-2" also by its accession; an Ensembl
// protein also as STRING's "<taxon>.ENSP..."). A joined node gains the namespaced ids as aliases;
// an interactor that joins nothing becomes a new node (label from its MI interactor type,
// named by its gene name) keyed by its primary id, counted, never dropped.
//
// Interactions: one undirected edge per protein pair and interaction type, of relation
// "mitab.<type name>" ("mitab.physical_association", "mitab.direct_interaction"; negative
// interactions "mitab.negative.<type name>"), scored by the best intact-miscore (or other
// confidence in [0,1]) of its rows, 0 when none gives one. Each row is an evidence record on
// that edge (edge_evidence) with its interaction ids, PubMed ids, detection method, type, source
// database, confidence, expansion, roles and the raw row, so that "which MI type did IntAct curate
// for this pair in this PMID" is one look at the edge's records.
#include <charconv>
#include <chrono>
#include <cstring>
#include <unordered_map>

#include "grappi/error.hpp"
#include "store/import_writer.hpp"
#include "store/importers.hpp"
#include "formats/mitab_parser.hpp"
#include "common/text_reader.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"

namespace grappi::detail {

namespace {

using nlohmann::json;

// "physical association" -> "physical_association".
std::string relation_word(std::string_view name) {
  std::string r;
  for (char c : name) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) r += static_cast<char>(std::tolower(u));
    else if (!r.empty() && r.back() != '_') r += '_';
  }
  while (!r.empty() && r.back() == '_') r.pop_back();
  return r.empty() ? "unspecified" : r;
}

int64_t taxon_of_field(const std::vector<MitabXref> &xs) {
  const MitabXref *t = first_xref(xs, "taxid");
  if (!t) return 0;
  int64_t v = 0;
  const char *b = t->id.data(), *e = b + t->id.size();
  auto [p, ec] = std::from_chars(b, e, v);
  return ec == std::errc() && p == e && v > 0 ? v : 0;
}

std::optional<double> number(const std::string &s) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size() && v >= 0 && v <= 1) return v;
  } catch (const std::exception &) {
  }
  return std::nullopt;
}

json term(const MitabXref *x) {
  if (!x) return nullptr;
  return json{{"id", x->id}, {"name", x->text}};
}

json term_list(const std::vector<MitabXref> &xs) {
  json a = json::array();
  for (const auto &x : xs) a.push_back(json{{"id", x.id}, {"name", x.text}});
  return a;
}

std::string label_of(const MitabXref *type) {
  if (!type) return "Protein";
  static const std::pair<const char *, const char *> kLabels[] = {
      {"MI:0326", "Protein"},  {"MI:0327", "Protein"},  {"MI:0250", "Gene"},    {"MI:0328", "Chemical"},
      {"MI:0320", "RNA"},      {"MI:0324", "RNA"},      {"MI:0325", "RNA"},     {"MI:0318", "RNA"},
      {"MI:2190", "RNA"},      {"MI:0319", "DNA"},      {"MI:0681", "DNA"},     {"MI:0314", "Complex"},
      {"MI:0315", "Complex"},  {"MI:1304", "Complex"},  {"MI:0329", "Molecule"}};
  for (const auto &[id, label] : kLabels)
    if (type->id == id) return label;
  return "Molecule";
}

// An interactor as one row describes it.
struct Interactor {
  std::vector<MitabXref> ids, alts, aliases, taxa, type;
  std::string key() const { return ids.empty() ? std::string() : ids.front().db + ":" + ids.front().id; }
};

class MitabImporter {
 public:
  MitabImporter(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options)
      : reader_(path), opt_(options), path_(path) {
    reader_.set_max_lines(options.max_rows);
    const json opts = {{"format", "mitab"}, {"skip_bad_lines", options.skip_bad_lines}};
    w_ = std::make_unique<ImportWriter>(impl, path, "mitab", reader_.file_size(), opts);
  }

  FileReport run() {
    const auto t0 = std::chrono::steady_clock::now();
    FileReport &rep = w_->report();
    std::string_view line;
    while (reader_.next(line)) {
      const uint64_t no = reader_.line_number();
      if (no == 1 && !line.empty() && line.front() == '#') {
        if (!valid_utf8(line)) throw Error(ErrorCode::parse, path_ + ":1: header is not valid UTF-8 text");
        continue;
      }
      if (line.empty()) continue;
      ++rep.lines;
      if (opt_.progress && (rep.lines & 0xFFF) == 0)
        opt_.progress(ImportProgress{path_, reader_.bytes_read(), reader_.file_size(), "reading"});
      const std::string problem = row(line, no);
      if (!problem.empty()) w_->bad_line(no, problem, opt_);
    }
    if (rows_ == 0 && rep.rows_skipped == 0) throw Error(ErrorCode::parse, path_ + ": no interaction rows");
    rep.details = {{"mitab_version", static_cast<uint64_t>(version_)},
                   {"interactions", rows_},
                   {"negative", negative_},
                   {"spoke_expanded", expanded_},
                   {"intramolecular", intramolecular_},
                   {"interactors", interactors_.size()},
                   {"interactors_joined", joined_},
                   {"interactors_created", created_},
                   {"ambiguous_joins", ambiguous_},
                   {"evidence_records", rows_}};
    if (opt_.progress) opt_.progress(ImportProgress{path_, reader_.file_size(), reader_.file_size(), "done"});
    return w_->finish(reader_.sha256_hex(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }

 private:
  // Reads and stores one row; the problem when it is bad (nothing is stored then).
  std::string row(std::string_view line, uint64_t no) {
    if (!valid_utf8(line)) return "invalid UTF-8";
    const auto cols = split_view(line, '\t');
    const int version = mitab_version_of_columns(cols.size());
    if (version == 0)
      return "expected 15 (MITAB 2.5), 36 (2.6) or 42 (2.7) tab-separated columns, found " + std::to_string(cols.size());
    if (version_ == 0) version_ = version;
    if (version != version_)
      return std::to_string(cols.size()) + " columns where the file's first row has " +
             std::to_string(version_ == 25 ? 15 : version_ == 26 ? 36 : 42);
    std::string error;
    auto field = [&](int c, const char *name, std::vector<MitabXref> &out) {
      if (!error.empty() || c >= static_cast<int>(cols.size())) return;
      std::string e;
      out = parse_mitab_field(cols[c], e);
      if (!e.empty()) error = std::string("column ") + std::to_string(c + 1) + " (" + name + "): " + e;
    };
    Interactor a, b;
    std::vector<MitabXref> method, pubs, type, source_db, ids, confidence, expansion, bio_a, bio_b, exp_a, exp_b;
    field(kIdA, "ID(s) interactor A", a.ids);
    field(kIdB, "ID(s) interactor B", b.ids);
    field(kAltA, "Alt. ID(s) interactor A", a.alts);
    field(kAltB, "Alt. ID(s) interactor B", b.alts);
    field(kAliasA, "Alias(es) interactor A", a.aliases);
    field(kAliasB, "Alias(es) interactor B", b.aliases);
    field(kMethod, "Interaction detection method(s)", method);
    field(kPublication, "Publication Identifier(s)", pubs);
    field(kTaxonA, "Taxid interactor A", a.taxa);
    field(kTaxonB, "Taxid interactor B", b.taxa);
    field(kType, "Interaction type(s)", type);
    field(kSourceDb, "Source database(s)", source_db);
    field(kInteractionId, "Interaction identifier(s)", ids);
    field(kConfidence, "Confidence value(s)", confidence);
    if (version_ >= 26) {
      field(kExpansion, "Expansion method(s)", expansion);
      field(kBioRoleA, "Biological role(s) interactor A", bio_a);
      field(kBioRoleB, "Biological role(s) interactor B", bio_b);
      field(kExpRoleA, "Experimental role(s) interactor A", exp_a);
      field(kExpRoleB, "Experimental role(s) interactor B", exp_b);
      field(kTypeA, "Type(s) interactor A", a.type);
      field(kTypeB, "Type(s) interactor B", b.type);
    }
    if (!error.empty()) return error;
    if (a.ids.empty()) return "column 1 (ID(s) interactor A) is empty";
    bool negative = false;
    if (version_ >= 27) {
      const std::string n = lower_copy(detail::trim_copy(cols[kNegative]));
      if (n == "true") negative = true;
      else if (n != "false" && n != "-" && !n.empty())
        return "column 36 (Negative) is '" + std::string(cols[kNegative].substr(0, 40)) + "', not true or false";
    }
    const bool intramolecular = b.ids.empty();
    std::vector<int64_t> pmids;
    for (const auto &p : pubs)
      if (iequals(p.db, "pubmed")) {
        int64_t v = 0;
        auto [q, ec] = std::from_chars(p.id.data(), p.id.data() + p.id.size(), v);
        // IntAct writes "pubmed:unassigned701" for unpublished work: kept among the
        // publications, not a PubMed id.
        if (ec == std::errc() && q == p.id.data() + p.id.size() && v > 0) pmids.push_back(v);
      }
    std::optional<double> score;
    json conf = json::object();
    for (const auto &c : confidence) {
      const auto v = number(c.id);
      conf[c.db] = v ? json(*v) : json(c.id);
      if (v && (!score || iequals(c.db, "intact-miscore"))) score = v;
    }

    // Everything is read; write.
    const int64_t na = node_of(a), nb = intramolecular ? na : node_of(b);
    const MitabXref *t = type.empty() ? nullptr : &type.front();
    const std::string relation =
        std::string(negative ? "mitab.negative." : "mitab.") + relation_word(t ? (t->text.empty() ? t->id : t->text) : "");
    const int64_t edge = w_->add_edge(na, nb, relation, false, score.value_or(0.0));  // best score of its rows
    json rec = {{"interactor_a", a.key()},
                {"interactor_b", intramolecular ? a.key() : b.key()},
                {"interaction_ids", json::array()},
                {"pmids", pmids},
                {"publications", json::array()},
                {"first_author", detail::trim_copy(cols[kAuthor]) == "-" ? "" : detail::trim_copy(cols[kAuthor])},
                {"detection_methods", term_list(method)},
                {"interaction_types", term_list(type)},
                {"source_databases", term_list(source_db)},
                {"confidence", conf},
                {"negative", negative},
                {"intramolecular", intramolecular},
                {"taxon_a", taxon_of_field(a.taxa)},
                {"taxon_b", intramolecular ? taxon_of_field(a.taxa) : taxon_of_field(b.taxa)}};
    for (const auto &x : ids) rec["interaction_ids"].push_back(x.db + ":" + x.id);
    for (const auto &x : pubs) rec["publications"].push_back(x.db + ":" + x.id);
    if (!expansion.empty()) rec["expansion"] = term(&expansion.front());
    if (version_ >= 26)
      rec["roles"] = {{"biological_a", term_list(bio_a)}, {"biological_b", term_list(bio_b)},
                      {"experimental_a", term_list(exp_a)}, {"experimental_b", term_list(exp_b)}};
    w_->add_evidence(edge, no, dump_json(rec), line);
    ++rows_;
    negative_ += negative ? 1 : 0;
    expanded_ += expansion.empty() ? 0 : 1;
    intramolecular_ += intramolecular ? 1 : 0;
    return {};
  }

  // The identifiers an interactor may be known by, most trusted first.
  std::vector<std::string> join_keys(const Interactor &x, int64_t taxon) const {
    std::vector<std::string> keys;
    auto add = [&](const MitabXref &id) {
      keys.push_back(id.db + ":" + id.id);
      const std::string db = lower_copy(id.db);
      if (db == "intact" || db == "chebi" || db == "psi-mi" || db == "go") return;  // only meaningful namespaced
      keys.push_back(id.id);
      if ((db == "uniprotkb" || db == "uniprot") && id.id.find('-') != std::string::npos)
        keys.push_back(id.id.substr(0, id.id.find('-')));
      if (db == "ensembl" && taxon > 0) keys.push_back(std::to_string(taxon) + "." + id.id);
    };
    for (const auto &id : x.ids) add(id);
    for (const auto &id : x.alts) add(id);
    return keys;
  }

  int64_t node_of(const Interactor &x) {
    const std::string key = x.key();
    auto it = interactors_.find(key);
    if (it != interactors_.end()) return it->second;
    const int64_t taxon = taxon_of_field(x.taxa);
    bool ambiguous = false;
    int64_t id;
    if (auto joined = w_->join(join_keys(x, taxon), taxon, ambiguous)) {
      id = *joined;
      ++joined_;
    } else {
      ambiguous_ += ambiguous ? 1 : 0;
      NodeInput n;
      n.external_id = key;
      n.label = label_of(x.type.empty() ? nullptr : &x.type.front());
      for (const char *kind : {"gene name", "display_short", "orf name", "locus name"}) {
        for (const auto &al : x.aliases)
          if (iequals(al.text, kind)) {
            n.name = al.id;
            break;
          }
        if (!n.name.empty()) break;
      }
      json attrs = {{"mitab", {{"ids", json::array()}, {"type", term(x.type.empty() ? nullptr : &x.type.front())}}}};
      for (const auto &i : x.ids) attrs["mitab"]["ids"].push_back(i.db + ":" + i.id);
      for (const auto &i : x.alts) attrs["mitab"]["ids"].push_back(i.db + ":" + i.id);
      n.attributes = dump_json(attrs);
      id = w_->define_node(n, taxon);
      ++created_;
      for (const auto &al : x.aliases)
        if (!al.text.empty() && !iequals(al.text, "display_long")) w_->add_alias(id, al.id, "mitab:" + al.text);
      for (const auto &i : x.ids)
        if (lower_copy(i.db) == "uniprotkb") w_->add_alias(id, i.id, "mitab:uniprotkb");
    }
    for (const auto &i : x.ids) w_->add_alias(id, i.db + ":" + i.id, "mitab");
    for (const auto &i : x.alts) w_->add_alias(id, i.db + ":" + i.id, "mitab");
    interactors_.emplace(key, id);
    return id;
  }

  LineReader reader_;
  const ImportOptions &opt_;
  std::string path_;
  std::unique_ptr<ImportWriter> w_;
  int version_ = 0;
  uint64_t rows_ = 0, negative_ = 0, expanded_ = 0, intramolecular_ = 0, joined_ = 0, created_ = 0, ambiguous_ = 0;
  std::unordered_map<std::string, int64_t> interactors_;
};

}  // namespace

FileReport import_mitab_file(KnowledgeGraph::Impl &impl, const std::string &path, const ImportOptions &options) {
  MitabImporter m(impl, path, options);
  return m.run();
}

}  // namespace grappi::detail
