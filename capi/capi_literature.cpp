// The C API (grappi.h): co-occurrence graphs, hypotheses and their evaluation.
#include "capi_internal.hpp"

using namespace grappi::capi;

extern "C" {

// ---- co-occurrence and hypotheses -----------------------------------------------------------------

static grappi::CoocOptions cooc_options_of(const grappi_cooc_options &o, const char *fn) {
  grappi::CoocOptions co;
  const std::string scope = text_or(o.scope, "document", fn, "scope");
  require(scope == "document" || scope == "sentence", fn, "scope must be \"document\" or \"sentence\"");
  co.scope = scope == "sentence" ? grappi::CoocOptions::Scope::sentence : grappi::CoocOptions::Scope::document;
  co.titles = text_or(o.titles, "include", fn, "titles");
  co.types = string_array(o.types, o.type_count, fn, "types", "type_count", "a type");
  co.min_count = o.min_count;
  if (o.as_of) co.as_of = o.as_of;
  co.dictionary = o.dictionary != 0;
  return co;
}

grappi_status grappi_cooc_options_init(grappi_cooc_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_cooc_options_init"); });
}

grappi_status grappi_graph_cooc_build_json(grappi_graph *g, const char *content, const grappi_cooc_options *opts,
                                           char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_cooc_build_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string body = text(content, fn, "content");
    const grappi_cooc_options o = read_options(opts, fn);
    const grappi::CoocOptions co = cooc_options_of(o, fn);
    const auto docs = grappi::parse_documents(body, grappi::document_format(text_or(o.format, "detect", fn, "format")),
                                              text_or(o.name, "corpus", fn, "name"));
    const grappi::EntityTagger tagger(kg);
    const grappi::CoocGraph graph = grappi::build_cooccurrence(docs, co, &tagger);
    nlohmann::json j = grappi::to_json(graph);
    if (const std::string path = text_or(o.path, "", fn, "path"); !path.empty()) {
      const grappi::FileReport f = grappi::import_cooccurrence(kg, graph, path);
      j["import"] = {{"dataset_id", f.dataset_id}, {"edges_created", f.edges_created}, {"nodes_created", f.nodes_created},
                     {"already_imported", f.already_imported}};
      // The papers too, as `grappi cooc build` stores them: the corpus written next to the
      // dataset's file (its file is the papers dataset's) and imported as a corpus.
      const std::string corpus = path + ".corpus";
      {
        std::ofstream out(corpus, std::ios::binary);
        if (out) out << body;
        if (out) out.close();
        if (!out) throw grappi::Error(grappi::ErrorCode::io, std::string(fn) + ": cannot write '" + corpus + "'");
      }
      const std::string format = text_or(o.format, "detect", fn, "format");
      const grappi::ImportReport papers = kg.import({{corpus, format == "detect" ? "corpus" : "corpus:" + format}});
      const grappi::FileReport &p = papers.files.at(0);
      j["papers"] = {{"dataset_id", p.dataset_id}, {"documents", p.lines}, {"already_imported", p.already_imported},
                     {"path", corpus}};
    }
    *out_json = copy_out(grappi::dump_json(j));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_cooc_partial_json(grappi_graph *g, const char *const *files, size_t file_count,
                                             const grappi_cooc_options *opts, const char *out_path, const char *provenance,
                                             char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_cooc_partial_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::vector<std::string> paths = string_array(files, file_count, fn, "files", "file_count", "a file");
    const std::string out = text(out_path, fn, "out_path");
    const grappi_cooc_options o = read_options(opts, fn);
    const grappi::CoocOptions co = cooc_options_of(o, fn);
    const grappi::DocumentFormat format = grappi::document_format(text_or(o.format, "detect", fn, "format"));
    const std::shared_ptr<const grappi::EntityTagger> tagger = grappi::EntityTagger::shared(kg);
    grappi::CoocBuilder builder(co, tagger.get());
    nlohmann::json inputs = nlohmann::json::array();
    for (const std::string &f : paths) {
      const grappi::CoocFileCount c = builder.add_file(f, format);
      inputs.push_back({{"path", c.path}, {"bytes", c.bytes}, {"documents", c.documents}});
    }
    const std::size_t documents = builder.documents();
    builder.save(out, provenance ? text(provenance, fn, "provenance") : std::string());
    *out_json = copy_out(grappi::dump_json({{"path", out}, {"documents", documents}, {"files", std::move(inputs)}}));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_cooc_merge_json(grappi_graph *g, const char *const *partials, size_t partial_count,
                                           const grappi_cooc_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_cooc_merge_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    require(partial_count > 0, fn, "give at least one partial-count file");
    const std::vector<std::string> paths =
        string_array(partials, partial_count, fn, "partials", "partial_count", "a partial-count file");
    const grappi_cooc_options o = read_options(opts, fn);
    grappi::CoocBuilder builder(grappi::CoocBuilder::partial_options(paths[0]));
    nlohmann::json parts = nlohmann::json::array();
    for (const std::string &p : paths) {
      const std::size_t before = builder.documents();
      nlohmann::json provenance = nlohmann::json::parse(builder.merge_file(p));
      parts.push_back({{"path", p}, {"documents", builder.documents() - before}, {"provenance", std::move(provenance)}});
    }
    const grappi::CoocGraph graph = builder.finish();
    nlohmann::json j = grappi::to_json(graph);
    if (!graph.edges.empty()) {
      // (no path: the database alone holds the graph, as `grappi cooc merge` stores it)
      const grappi::FileReport f = grappi::import_cooccurrence(kg, graph, text_or(o.path, "", fn, "path"));
      j["import"] = {{"dataset_id", f.dataset_id}, {"path", f.path}, {"edges_created", f.edges_created},
                     {"nodes_created", f.nodes_created}, {"already_imported", f.already_imported}};
    }
    j["partials"] = std::move(parts);
    *out_json = copy_out(grappi::dump_json(j));
    return GRAPPI_OK;
  });
}

grappi_status grappi_hypothesis_options_init(grappi_hypothesis_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_hypothesis_options_init"); });
}

}  // extern "C"

namespace {

// The hypothesis options of the C options (the ranker and the model aside).
grappi::HypothesisOptions hypothesis_options(const grappi_hypothesis_options &o, const char *fn) {
  grappi::HypothesisOptions ho;
  if (o.relation_count)
    ho.relations = string_array(o.relations, o.relation_count, fn, "relations", "relation_count", "a relation");
  ho.max_length = o.max_length;
  ho.paths = o.paths;
  ho.mask_direct = o.mask_direct != 0;
  ho.shortest_rounds = o.shortest_rounds;
  ho.intermediate_labels = string_array(o.intermediate_labels, o.intermediate_label_count, fn, "intermediate_labels",
                                        "intermediate_label_count", "a label");
  ho.context = o.context;
  ho.rounds = o.rounds;
  ho.support_relations = string_array(o.support_relations, o.support_relation_count, fn, "support_relations",
                                      "support_relation_count", "a relation");
  require(o.budget.dry_run == 0, fn, "budget.dry_run must be 0: hypothesize has no dry run");
  set_budget(ho, o.budget);
  ho.embedding_weight = o.embedding_weight;
  if (o.embedding_model) ho.embedding_model = o.embedding_model;
  ho.generic_intermediates = o.generic_intermediates != 0;
  ho.max_intermediate_share = o.max_intermediate_share;
  ho.fold_reorderings = o.fold_reorderings != 0;
  return ho;
}

// The evaluation's options of the C options (the hypothesis options' model and run aside).
grappi::HypothesisEvalOptions eval_hypotheses_options(const grappi_eval_hypotheses_options &o,
                                                      const grappi_hypothesis_options &h, const char *fn) {
  grappi::HypothesisEvalOptions e;
  if (o.as_of) e.as_of = o.as_of;
  if (o.split_count == 1) e.split = o.splits[0];
  e.paths = o.paths;
  e.pairs = o.pairs;
  e.top = o.top;
  e.explain = o.explain;
  e.scoring = text_or(o.scoring, "prior", fn, "scoring");
  e.ranker_options.min_positives = o.min_positives;
  e.bootstrap = o.bootstrap;
  e.seed = o.seed;
  const std::string scope = text_or(o.scope, "document", fn, "scope");
  require(scope == "document" || scope == "sentence", fn, "scope must be \"document\" or \"sentence\"");
  e.cooc.scope = scope == "sentence" ? grappi::CoocOptions::Scope::sentence : grappi::CoocOptions::Scope::document;
  e.cooc.min_count = o.min_count;
  if (o.work_dir) e.work_dir = text(o.work_dir, fn, "work_dir");
  e.hypothesis = hypothesis_options(h, fn);
  set_run(e.hypothesis, read_options(h.run, fn));
  return e;
}

}  // namespace

extern "C" {

grappi_status grappi_graph_hypothesize_json(grappi_graph *g, const char *source, const char *target, const char *corpus,
                                            const grappi_hypothesis_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_hypothesize_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string a = text(source, fn, "source"), b = text(target, fn, "target");
    const grappi_hypothesis_options o = read_options(opts, fn);
    std::vector<grappi::Document> docs;
    if (corpus)
      docs = grappi::parse_documents(text(corpus, fn, "corpus"),
                                     grappi::document_format(text_or(o.corpus_format, "detect", fn, "corpus_format")), "corpus");
    grappi::HypothesisOptions ho = hypothesis_options(o, fn);
    if (!o.ranker || *o.ranker) {
      ho.ranker = grappi::PathRanker::stored(kg, o.ranker ? o.ranker : "");
    } else {  // "": the association weights
      const double w = ho.embedding_weight;
      ho.scorer = [w](const grappi::HypothesisPath &p) { return grappi::association_score(p, w); };
    }
    set_run(ho, read_options(o.run, fn));
    const auto model = run_model(o, fn);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(grappi::hypothesize(kg, *model, a, b, docs, ho))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_train_ranker_json(grappi_graph *g, const char *corpus, const char *corpus_format, const char *name,
                                             const grappi_run_options *run, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_train_ranker_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const auto docs = grappi::parse_documents(text(corpus, fn, "corpus"),
                                              grappi::document_format(text_or(corpus_format, "detect", fn, "corpus_format")),
                                              "corpus");
    const std::string stored = text_or(name, grappi::PathRanker::kDefaultName, fn, "name");
    grappi::HypothesisEvalOptions o;
    set_run(o.hypothesis, read_options(run, fn));
    const grappi::PathRankerTraining t = grappi::train_path_ranker(docs, o);
    if (t.cancelled) {
      *out_json = copy_out(grappi::dump_json(nlohmann::json{{"name", stored}, {"cancelled", true}}));
      return GRAPPI_OK;
    }
    t.ranker.save(kg, stored);
    *out_json = copy_out(grappi::dump_json(
        nlohmann::json{{"name", stored}, {"training", t.ranker.info()}, {"weights", t.ranker.weights_json()}}));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_search_papers_json(grappi_graph *g, const char *query, size_t limit, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_search_papers_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string q = text(query, fn, "query");
    nlohmann::json out = nlohmann::json::array();
    for (const grappi::PaperHit &h : kg.search_papers(q, limit ? limit : 20))
      out.push_back({{"key", h.key},     {"pmid", h.pmid},       {"doi", h.doi},     {"year", h.year},
                     {"title", h.title}, {"snippet", h.snippet}, {"score", h.score}, {"document", h.document},
                     {"dataset", h.dataset}});
    *out_json = copy_out(grappi::dump_json(out));
    return GRAPPI_OK;
  });
}

grappi_status grappi_eval_hypotheses_options_init(grappi_eval_hypotheses_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_eval_hypotheses_options_init"); });
}

grappi_status grappi_eval_hypotheses_json(grappi_graph *g, const char *corpus, const grappi_eval_hypotheses_options *opts,
                                          char **out_json, char **out_pairs) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_eval_hypotheses_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    if (out_pairs) *out_pairs = nullptr;
    const grappi_eval_hypotheses_options o = read_options(opts, fn);
    require(o.split_count == 0 || o.splits != nullptr, fn, "splits is NULL but split_count is not 0");
    require(!(o.split_count > 1 && out_pairs), fn, "out_pairs is for one split, not several (pass NULL)");
    require(!o.ranker || g, fn, "ranker names a stored path ranker: pass the graph that holds it");
    const grappi_hypothesis_options h = read_options(o.hypothesis, fn);
    grappi::HypothesisEvalOptions e = eval_hypotheses_options(o, h, fn);
    if (o.ranker)
      e.ranker = std::make_shared<const grappi::PathRanker>(grappi::PathRanker::load(graph_of(g, fn), text(o.ranker, fn, "ranker")));
    const grappi::DocumentFormat format = grappi::document_format(text_or(o.corpus_format, "detect", fn, "corpus_format"));
    auto docs = grappi::parse_documents(text(corpus, fn, "corpus"), format, "corpus");
    if (o.after_corpus) {
      require(o.split_count <= 1 && o.as_of == 0, fn, "after_corpus is the split: not with several splits nor as_of");
      e.before = docs.size();
      auto later = grappi::parse_documents(text(o.after_corpus, fn, "after_corpus"), format, "after_corpus");
      docs.insert(docs.end(), std::make_move_iterator(later.begin()), std::make_move_iterator(later.end()));
    }
    const auto model = run_model(h, fn);
    if (o.split_count > 1) {
      const std::vector<double> splits(o.splits, o.splits + o.split_count);
      *out_json = copy_out(grappi::dump_json(grappi::to_json(grappi::evaluate_hypotheses_splits(docs, *model, e, splits))));
      return GRAPPI_OK;
    }
    const grappi::HypothesisEvalResult r = grappi::evaluate_hypotheses(docs, *model, e);
    std::string lines;
    if (out_pairs)
      for (const grappi::HypothesisEvalPair &p : r.pairs) lines += grappi::dump_json(grappi::to_json(p, e.top)) + "\n";
    *out_json = copy_out(grappi::dump_json(grappi::to_json(r)));
    if (out_pairs) *out_pairs = copy_out(lines);
    return GRAPPI_OK;
  });
}

}  // extern "C"
