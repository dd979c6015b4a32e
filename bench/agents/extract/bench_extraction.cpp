// Entity grounding and BEL extraction on the literature corpora:
//  - the dictionary tagger's protein mentions against each corpus's gold mention spans
//    (precision and recall, exact span and any overlap), with the tagger's build time and
//    throughput, beside the trivial baseline on the same spans: every symbol-shaped token (a
//    word of 2 to 12 letters and digits with a capital after its first character or a digit,
//    "CDC28", "p53", "IL2", "TNFalpha"), no dictionary;
//  - the offline extractor's interacting pairs against the PPI corpora's gold pairs (the
//    corpus's entities given, as in the published evaluations), with its time per sentence.
//
// The dictionary is the bundled STRING data (human names; yeast names and aliases) and, when
// given, an identifier mapping table (--mapping FILE: org.Hs.eg.db's symbols, gene names,
// UniProt accessions) that adds human aliases.
//
//   bench_extraction DATA_DIR [--mapping FILE] CORPUS...
//   (PubTator, BioC or PPI corpus XML; gold mentions: every PPI-corpus entity, and the
//   Gene/GeneOrGeneProduct mentions of PubTator and BioC corpora)
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "grappi/grappi.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool gold_type(const std::string &type, bool ppi) {
  return ppi || type == "Gene" || type == "GeneOrGeneProduct" || type == "Protein";
}

using Span = std::pair<std::size_t, std::size_t>;  // offset, length

// The baseline recogniser: words (runs of ASCII letters and digits) of 2 to 12 characters with
// a capital letter after the first character or a digit, and a letter: symbol-shaped tokens.
std::set<Span> symbol_shaped(const std::string &text) {
  std::set<Span> out;
  const auto alnum = [](unsigned char c) { return std::isalnum(c) != 0; };
  for (std::size_t i = 0; i < text.size();) {
    if (!alnum(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    bool letter = false, shaped = false;
    for (; j < text.size() && alnum(static_cast<unsigned char>(text[j])); ++j) {
      const unsigned char c = static_cast<unsigned char>(text[j]);
      letter = letter || std::isalpha(c);
      shaped = shaped || std::isdigit(c) || (j > i && std::isupper(c));
    }
    if (j - i >= 2 && j - i <= 12 && letter && shaped) out.insert({i, j - i});
    i = j;
  }
  return out;
}

// Exact and overlap agreement of found spans with gold spans, summed over passages.
struct Agreement {
  std::size_t gold = 0, found = 0, exact = 0, overlap_found = 0, overlap_gold = 0;
  void add(const std::set<Span> &g, const std::set<Span> &f) {
    const auto overlaps = [](const Span &x, const Span &y) { return x.first < y.first + y.second && y.first < x.first + x.second; };
    gold += g.size();
    found += f.size();
    for (const auto &x : f) exact += g.count(x);
    for (const auto &x : f)
      overlap_found += std::any_of(g.begin(), g.end(), [&](const Span &y) { return overlaps(x, y); });
    for (const auto &y : g)
      overlap_gold += std::any_of(f.begin(), f.end(), [&](const Span &x) { return overlaps(x, y); });
  }
};

double ratio(std::size_t a, std::size_t b) { return b ? double(a) / double(b) : 0.0; }

}  // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: bench_extraction DATA_DIR [--mapping FILE] CORPUS...\n";
    return 2;
  }
  const std::string data = argv[1];
  std::string mapping;
  std::vector<std::string> corpora;
  for (int i = 2; i < argc; ++i) {
    if (std::string(argv[i]) == "--mapping" && i + 1 < argc) mapping = argv[++i];
    else corpora.push_back(argv[i]);
  }
  const std::string db = "/tmp/bench_extraction_" + std::to_string(::getpid()) + ".db";
  std::remove(db.c_str());
  {
    grappi::KnowledgeGraph kg(db);
    std::vector<grappi::SourceFile> files = {{data + "/9606.protein.info.v12.0.txt.gz"},
                                             {data + "/4932.protein.info.v12.0.txt.gz"},
                                             {data + "/4932.protein.aliases.v12.0.txt.gz"},
                                             {data + "/4932.protein.physical.links.v12.0.txt.gz"}};
    if (!mapping.empty()) files.push_back({mapping, "mapping"});
    grappi::ImportOptions io;
    io.taxon = 9606;  // (the mapping joins the human proteins only)
    kg.import(files, io);
  }
  grappi::KnowledgeGraph kg(db);
  auto t0 = std::chrono::steady_clock::now();
  grappi::EntityTaggerOptions to;
  to.labels = {"Protein"};
  const grappi::EntityTagger tagger(kg, to);
  std::printf("dictionary: %zu names%s, built in %.2f s\n\n", tagger.names(), mapping.empty() ? "" : " (with the mapping)",
              seconds_since(t0));
  std::printf("%-28s %8s %8s %8s | %9s %9s | %9s %9s | %10s\n", "corpus", "passages", "gold", "found", "P exact",
              "R exact", "P overlap", "R overlap", "MB/s");
  for (const std::string &path : corpora) {
    const auto docs = grappi::read_documents(path);
    const bool ppi = path.size() > 4 && path.compare(path.size() - 4, 4, ".xml") == 0 && path.find("BioC") == std::string::npos &&
                     path.find("PTC") == std::string::npos;
    std::size_t passages = 0, bytes = 0;
    Agreement tagged, baseline;
    double tag_seconds = 0;
    for (const auto &d : docs)
      for (const auto &p : d.passages) {
        ++passages;
        bytes += p.text.size();
        const auto t1 = std::chrono::steady_clock::now();
        const auto mentions = tagger.tag(p.text);
        tag_seconds += seconds_since(t1);
        std::set<Span> g, f;
        for (const auto &a : p.annotations)
          if (gold_type(a.type, ppi)) g.insert({a.offset, a.length});
        for (const auto &m : mentions) f.insert({m.offset, m.length});
        tagged.add(g, f);
        baseline.add(g, symbol_shaped(p.text));
      }
    std::string name = path.substr(path.find_last_of('/') + 1);
    for (const Agreement *a : {&tagged, &baseline})
      std::printf("%-28s %8zu %8zu %8zu | %9.3f %9.3f | %9.3f %9.3f | %10s\n",
                  (a == &tagged ? name : "  baseline: symbol-shaped").c_str(), passages, a->gold, a->found,
                  ratio(a->exact, a->found), ratio(a->exact, a->gold), ratio(a->overlap_found, a->found),
                  ratio(a->overlap_gold, a->gold),
                  a == &tagged ? std::to_string(tag_seconds > 0 ? double(bytes) / 1e6 / tag_seconds : 0.0).substr(0, 5).c_str() : "-");
  }
  std::printf("\n%-28s %9s %9s %9s %9s %9s %9s %12s\n", "offline extractor (pairs)", "sentences", "gold", "predicted",
              "precision", "recall", "F1", "ms/sentence");
  grappi::ExtractiveModel model;
  grappi::ExtractionOptions eo;
  eo.annotations_only = true;
  eo.min_passage_chars = 1;
  eo.use_cache = false;
  const grappi::Extractor extractor(kg, model, eo);
  for (const std::string &path : corpora) {
    const auto docs = grappi::read_documents(path);
    bool pairs = false;
    for (const auto &d : docs) pairs = pairs || !d.pairs.empty();
    if (!pairs) continue;
    const auto t1 = std::chrono::steady_clock::now();
    const grappi::ExtractionResult r = extractor.extract(docs);
    const double s = seconds_since(t1);
    const grappi::ExtractionEvaluation e = grappi::evaluate_extraction(r, docs);
    std::string name = path.substr(path.find_last_of('/') + 1);
    std::printf("%-28s %9zu %9zu %9zu %9.3f %9.3f %9.3f %12.3f\n", name.c_str(), e.sentences, e.gold_pairs, e.predicted_pairs,
                e.precision, e.recall, e.f1, e.sentences ? 1000.0 * s / double(e.sentences) : 0.0);
  }
  std::remove(db.c_str());
  return 0;
}
