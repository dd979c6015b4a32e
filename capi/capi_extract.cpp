// The C API (grappi.h): extract.
#include "capi_internal.hpp"

using namespace grappi::capi;

extern "C" {

// ---- extract --------------------------------------------------------------------------------------

grappi_status grappi_extract_options_init(grappi_extract_options *opts, uint32_t version) {
  return guard([&] { return init_options(opts, version, "grappi_extract_options_init"); });
}

// The extractor's options of the C options (the model aside: run_model).
static grappi::ExtractionOptions extraction_options_of(const grappi_extract_options &o, const char *fn) {
  grappi::ExtractionOptions eo;
  eo.repair = o.repair != 0;
  eo.annotations_only = o.annotations_only != 0;
  eo.entities.taxon = o.taxon;
  eo.min_passage_chars = o.min_passage_chars;
  set_budget(eo, o.budget);
  eo.dry_run = o.budget.dry_run != 0;
  if (o.concurrency) eo.concurrency = o.concurrency;
  set_run(eo, read_options(o.run, fn));
  return eo;
}

// An extraction's outputs as the options ask: its JSON, the BEL script, CX2, the import.
static nlohmann::json extraction_outputs(grappi::KnowledgeGraph &kg, const grappi::ExtractionResult &r,
                                       const grappi_extract_options &o, const std::string &bel_path, const char *fn) {
  const std::string cx2_path = text_or(o.cx2_path, "", fn, "cx2_path");
  nlohmann::json j = grappi::to_json(r);
  const bool flagged = o.include_flagged != 0;
  if (!r.dry_run && !bel_path.empty() && !o.import_statements) {
    std::ofstream out(bel_path, std::ios::binary);
    if (out) grappi::write_bel_script(out, r, flagged);
    if (out) out.close();
    if (!out) throw grappi::Error(grappi::ErrorCode::io, std::string(fn) + ": cannot write '" + bel_path + "'");
  }
  if (!r.dry_run && !cx2_path.empty()) {
    std::ofstream out(cx2_path, std::ios::binary);
    if (out) out << grappi::dump_json(grappi::to_cx2(r, text_or(o.name, "input", fn, "name"), flagged)) << "\n";
    if (out) out.close();
    if (!out) throw grappi::Error(grappi::ErrorCode::io, std::string(fn) + ": cannot write '" + cx2_path + "'");
  }
  if (!r.dry_run && o.import_statements) {
    const grappi::FileReport f = grappi::import_extraction(kg, r, bel_path, flagged);
    j["import"] = {{"dataset_id", f.dataset_id}, {"edges_created", f.edges_created}, {"nodes_created", f.nodes_created},
                   {"already_imported", f.already_imported}, {"path", f.path}};
  }
  return j;
}

grappi_status grappi_graph_extract_json(grappi_graph *g, const char *content, const grappi_extract_options *opts,
                                        char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_extract_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string body = text(content, fn, "content");
    const grappi_extract_options o = read_options(opts, fn);
    const std::string bel_path = text_or(o.bel_path, "", fn, "bel_path");
    require(!o.import_statements || !bel_path.empty(), fn, "import_statements needs bel_path (the dataset's file)");
    const auto docs = grappi::parse_documents(body, grappi::document_format(text_or(o.format, "detect", fn, "format")),
                                              text_or(o.name, "input", fn, "name"));
    const auto model = run_model(o, fn);
    const grappi::ExtractionResult r = grappi::Extractor(kg, *model, extraction_options_of(o, fn)).extract(docs);
    *out_json = copy_out(grappi::dump_json(extraction_outputs(kg, r, o, bel_path, fn)));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_extract_part_json(grappi_graph *g, const char *const *files, size_t file_count,
                                             const grappi_extract_options *opts, const char *out_path, const char *provenance,
                                             char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_extract_part_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::vector<std::string> paths = string_array(files, file_count, fn, "files", "file_count", "a file");
    const std::string out = text(out_path, fn, "out_path");
    const grappi_extract_options o = read_options(opts, fn);
    const grappi::DocumentFormat format = grappi::document_format(text_or(o.format, "detect", fn, "format"));
    std::vector<grappi::Document> docs;
    for (const std::string &f : paths)
      for (grappi::Document &d : grappi::read_documents(f, format)) docs.push_back(std::move(d));
    const auto model = run_model(o, fn);
    const grappi::ExtractionResult r = grappi::Extractor(kg, *model, extraction_options_of(o, fn)).extract(docs);
    grappi::save_extraction(r, out, provenance ? text(provenance, fn, "provenance") : std::string());
    const nlohmann::json j = grappi::to_json(r);
    *out_json = copy_out(grappi::dump_json(
        {{"path", out}, {"documents", r.documents}, {"counts", j["counts"]}, {"usage", j["usage"]}, {"budget", r.budget}}));
    return GRAPPI_OK;
  });
}

grappi_status grappi_graph_extract_merge_json(grappi_graph *g, const char *const *parts, size_t part_count,
                                              const grappi_extract_options *opts, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_extract_merge_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    require(part_count > 0, fn, "give at least one part");
    const std::vector<std::string> paths = string_array(parts, part_count, fn, "parts", "part_count", "a part");
    const grappi_extract_options o = read_options(opts, fn);
    std::vector<grappi::ExtractionResult> results;
    nlohmann::json provenance = nlohmann::json::array();
    for (const std::string &path : paths) {
      std::string p;
      results.push_back(grappi::load_extraction(path, &p));
      provenance.push_back(nlohmann::json::parse(p));
    }
    const grappi::ExtractionResult r = grappi::merge_extractions(std::move(results));
    // (import without a path: next to the database, as grappi extract --import names it)
    std::string bel_path = text_or(o.bel_path, "", fn, "bel_path");
    if (bel_path.empty() && o.import_statements) bel_path = grappi::extraction_dataset_path(kg.path(), r, o.include_flagged != 0);
    nlohmann::json j = extraction_outputs(kg, r, o, bel_path, fn);
    j["parts"] = std::move(provenance);
    *out_json = copy_out(grappi::dump_json(j));
    return GRAPPI_OK;
  });
}


grappi_status grappi_graph_import_review_json(grappi_graph *g, const char *review_path, const char *bel_path, char **out_json) {
  return guard([&]() -> grappi_status {
    const char *fn = "grappi_graph_import_review_json";
    require(out_json != nullptr, fn, "out_json is NULL");
    *out_json = nullptr;
    auto &kg = graph_of(g, fn);
    const std::string review = text(review_path, fn, "review_path"), bel = text(bel_path, fn, "bel_path");
    if (!std::ifstream(review)) throw grappi::Error(grappi::ErrorCode::io, std::string(fn) + ": cannot read '" + review + "'");
    const grappi::FileReport f = grappi::import_review(kg, review, bel);
    *out_json = copy_out(grappi::dump_json(nlohmann::json{{"dataset_id", f.dataset_id},
                                                          {"edges_created", f.edges_created},
                                                          {"nodes_created", f.nodes_created},
                                                          {"already_imported", f.already_imported},
                                                          {"path", f.path}}));
    return GRAPPI_OK;
  });
}

}  // extern "C"
