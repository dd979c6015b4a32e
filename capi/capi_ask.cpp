// The C API (grappi.h): grounded answers.
#include "capi_internal.hpp"

using namespace grappi::capi;

extern "C" {

// ---- grounded answers -------------------------------------------------------------------------------

grappi_status grappi_ask_options_init(grappi_ask_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_ask_options_init"); });
}

grappi_status grappi_graph_ask_json(grappi_graph *g, const char *question, const grappi_retrieve_options *retrieve,
                                    const grappi_ask_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_ask_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string q = text(question, fn, "question");
    const grappi_ask_options o = read_options(opts, fn);
    const grappi::AskOptions a = ask_options(retrieve, o, fn);
    const auto model = run_model(o, fn);
    *out_json = copy_out(grappi::dump_json(grappi::to_json(grappi::ask(kg, *model, q, a))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_analyze_question_json(grappi_graph *g, const char *question, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_analyze_question_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string q = text(question, fn, "question");
    *out_json = copy_out(grappi::dump_json(grappi::to_json(grappi::QuestionAnalyzer(kg).analyze(q))));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_ask_report(grappi_graph *g, const char *question, const grappi_retrieve_options *retrieve,
                                      const grappi_ask_options *opts, char **out_json, char **out_html) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_ask_report";
    require(out_html != nullptr, fn, "out_html is NULL");
    *out_html = nullptr;
    if (out_json) *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string q = text(question, fn, "question");
    const grappi_ask_options o = read_options(opts, fn);
    const grappi::AskOptions a = ask_options(retrieve, o, fn);
    const auto model = run_model(o, fn);
    const grappi::AskResult r = grappi::ask(kg, *model, q, a);
    copy_report(out_json ? grappi::dump_json(grappi::to_json(r)) : std::string(), grappi::to_html(kg, r), out_json, out_html);
    return GRAPPI_OK;
  });
}

grappi_status grappi_report_html(const char *view_json, char **out_html) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_report_html";
    require(out_html != nullptr, fn, "out_html is NULL");
    *out_html = nullptr;
    require(view_json != nullptr, fn, "view_json is NULL");
    *out_html = copy_out(grappi::html_report(view_json));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_eval_qa_json(grappi_graph *g, const char *questions, const grappi_retrieve_options *retrieve,
                                        const grappi_ask_options *opts, size_t k, char **out_json, char **out_rows) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_eval_qa_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    if (out_rows) *out_rows = nullptr;
    auto &kg = graph_of(g, fn);
    const auto set = grappi::parse_qa_questions(text(questions, fn, "questions"), "questions");
    const grappi_ask_options o = read_options(opts, fn);
    grappi::QaEvalOptions e;
    e.ask = ask_options(retrieve, o, fn);
    if (k) e.k = k;
    const auto model = run_model(o, fn);
    const grappi::QaEvalResult r = grappi::evaluate_qa(kg, *model, set, e);
    std::string rows;
    for (const auto &row : r.rows) rows += grappi::dump_json(grappi::to_json(row)) + "\n";
    char *summary = copy_out(grappi::dump_json(grappi::to_json(r)));
    if (out_rows) {
      try {
        *out_rows = copy_out(rows);
      } catch (...) {
        grappi_free(summary);
        throw;
      }
    }
    *out_json = summary;
    return GRAPPI_OK;
  });
}

}  // extern "C"
