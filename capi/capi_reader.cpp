// The C API (grappi.h): the graph reader.
#include "capi_internal.hpp"

using namespace grappi::capi;

extern "C" {

// ---- the graph reader -----------------------------------------------------------------------------

grappi_status grappi_reader_options_init(grappi_reader_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_reader_options_init"); });
}

grappi_status grappi_graph_train_reader_json(grappi_graph *g, const char *train, const char *valid,
                                             const grappi_retrieve_options *retrieve, const grappi_ask_options *ask,
                                             const grappi_reader_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_train_reader_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const auto train_set = grappi::parse_qa_questions(text(train, fn, "train"), "train");
    const auto valid_set =
        valid ? grappi::parse_qa_questions(text(valid, fn, "valid"), "valid") : std::vector<grappi::QaQuestion>{};
    const grappi_reader_options o = read_options(opts, fn);
    grappi::ReaderTrainOptions t;
    t.ask = ask_options(retrieve, read_options(ask, fn), fn);
    t.name = text_or(o.name, "gat", fn, "name");
    t.scope = text_or(o.scope, "subgraph", fn, "scope");
    t.gat.epochs = o.epochs;
    t.gat.layers = o.layers;
    t.gat.hidden = o.hidden;
    t.gat.heads = o.heads;
    t.gat.head_hidden = o.head_hidden;
    t.gat.dropout = o.dropout;
    t.gat.learning_rate = o.learning_rate;
    t.gat.weight_decay = o.weight_decay;
    t.gat.batch = o.batch;
    t.gat.patience = o.patience;
    t.gat.valid_share = o.valid_share;
    t.gat.seed = o.seed;
    t.gat.threads = o.threads;
    t.max_nodes = o.max_nodes;
    const grappi_run_options run = read_options(o.run, fn);
    t.cancel = run_cancel(run);
    if (auto progress = run_progress(run)) {
      const std::size_t epochs = o.epochs;
      t.progress_examples = [progress](std::size_t done, std::size_t total) { progress("examples", done, total); };
      t.progress = [progress, epochs](const grappi::ReaderEpoch &e) { progress("epochs", e.epoch, epochs); };
    }
    *out_json = copy_out(grappi::dump_json(grappi::to_json(grappi::train_reader(kg, train_set, valid_set, t))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_reader_scores_json(grappi_graph *g, const char *question, const grappi_retrieve_options *retrieve,
                                              const grappi_ask_options *ask, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_reader_scores_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string q = text(question, fn, "question");
    const grappi::AskOptions a = ask_options(retrieve, read_options(ask, fn), fn);
    const grappi::GatReader reader = grappi::GatReader::load(kg, a.reader_name);
    const std::string scope = reader.info().value("scope", "subgraph");
    const grappi::ReaderGraph graph =
        grappi::reader_graph(kg, q, a, scope, nullptr, reader.info().value("max_nodes", std::size_t{0}));
    *out_json = copy_out(grappi::dump_json(grappi::reader_scores_json(kg, graph, reader.score(graph), a.reader_name, scope)));
    return GRAPPI_OK;
  });
}

}  // extern "C"
