// The C API's defaults (its _INIT macros, which its _init functions copy) are the C++ API's.
#include <doctest/doctest.h>

#include "grappi/grappi.h"
#include "grappi/grappi.hpp"

namespace {

// The C budget's defaults are the C++ run control's.
void budget_agrees(const grappi_budget_options &b, const grappi::RunControl &run) {
  CHECK(b.max_calls == run.max_calls);
  CHECK(b.max_tokens == run.max_tokens);
  CHECK((b.use_cache != 0) == run.use_cache);
  CHECK(b.dry_run == 0);
}

}  // namespace

TEST_CASE("C options default to the C++ options' defaults") {
  const grappi_open_options open = GRAPPI_OPEN_OPTIONS_INIT;
  const grappi::OpenOptions oo;
  CHECK((open.read_only != 0) == oo.read_only);
  CHECK((open.create != 0) == oo.create);
  CHECK(open.busy_timeout_ms == oo.busy_timeout_ms);

  const grappi_embed_options embed = GRAPPI_EMBED_OPTIONS_INIT;
  const grappi::EmbedderSpec spec;
  CHECK(std::string(embed.embedder) == spec.kind);
  CHECK(embed.dimension == spec.dimension);
  CHECK(std::string(embed.base_url) == spec.http.base_url);
  CHECK(std::string(embed.api_key_env) == spec.http.api_key_env);

  const grappi_export_options exp = GRAPPI_EXPORT_OPTIONS_INIT;
  const grappi::ExportOptions eo;
  CHECK(exp.min_score == eo.min_score);
  CHECK(exp.hops == eo.hops);
  CHECK((exp.relations == nullptr && exp.nodes == nullptr && exp.khop == nullptr));

  const grappi_cluster_options cluster = GRAPPI_CLUSTER_OPTIONS_INIT;
  const grappi::ClusterOptions clo;
  CHECK(grappi::cluster_method(cluster.method) == clo.method);
  CHECK(cluster.min_score == clo.min_score);
  CHECK(cluster.inflation == clo.inflation);
  CHECK(cluster.max_iterations == clo.max_iterations);
  CHECK(cluster.resolution == clo.resolution);
  CHECK(cluster.seed == clo.seed);
  CHECK(cluster.runs == clo.runs);
  CHECK(cluster.max_cluster_size == clo.max_cluster_size);
  CHECK(cluster.max_levels == clo.max_levels);
  CHECK(cluster.terms == clo.terms);
  CHECK(cluster.enrich_min_size == clo.enrich_min_size);
  CHECK(cluster.max_fdr == clo.max_fdr);
  CHECK((cluster.relations == nullptr && clo.relations.empty()));

  const grappi_window_options window = GRAPPI_WINDOW_OPTIONS_INIT;
  const grappi::WindowOptions wo;
  CHECK(window.depth == wo.depth);
  CHECK(window.window == wo.window);
  CHECK(window.min_score == wo.filter.min_score);
  CHECK(window.max_paths == grappi::PathOptions{}.max_paths);

  const grappi_retrieve_options r = GRAPPI_RETRIEVE_OPTIONS_INIT;
  const grappi::PcstRetrieveOptions ro;
  CHECK(std::string(r.mode) == ro.mode);
  CHECK(r.seeds == ro.seeds);
  CHECK(r.hops == ro.khop.hops);
  CHECK(r.degree_cap == ro.khop.degree_cap);
  CHECK(r.node_budget == ro.khop.node_budget);
  CHECK(r.min_score == ro.khop.filter.min_score);
  CHECK(r.topk == ro.topk);
  CHECK(r.topk_e == ro.topk_e);
  CHECK(r.cost_e == ro.cost_e);
  CHECK((r.pyg_cap != 0) == ro.pyg_cap);
  CHECK(r.alpha == ro.alpha);
  CHECK(r.beta == ro.beta);
  CHECK(r.gamma == ro.gamma);
  CHECK(r.lambda == ro.lambda);
  CHECK(std::string(r.pruning) == grappi::to_string(ro.pruning));
  CHECK(r.num_clusters == ro.num_clusters);
  CHECK(r.event_order == GRAPPI_PCST_ORDER_DEFAULT);

  const grappi_explore_options x = GRAPPI_EXPLORE_OPTIONS_INIT;
  const grappi::ExploreOptions xo;
  CHECK(x.window_count == 0);  // NULL windows: {1}
  CHECK(xo.windows == std::vector<std::size_t>{1});
  CHECK(x.depth == xo.window.depth);
  CHECK(x.min_score == xo.window.filter.min_score);
  CHECK(x.max_length == xo.max_length);
  CHECK(x.max_paths == xo.max_paths);
  CHECK(x.top == xo.top);
  CHECK(x.explain_top == xo.explain_top);
  CHECK(x.concurrency == xo.concurrency);
  budget_agrees(x.budget, xo);
  CHECK_FALSE(xo.dry_run);
  CHECK(x.diversity == xo.diversity);
  CHECK(x.max_visited == xo.max_visited);
  CHECK(x.run == nullptr);  // the offline model

  // The model: its settings are the C++ spec's.
  const grappi_model_options mo = GRAPPI_MODEL_OPTIONS_INIT;
  const grappi::ChatModelSpec chat;
  CHECK(std::string(mo.llm) == chat.kind);
  CHECK(std::string(mo.base_url) == chat.openai.base_url);
  CHECK(std::string(mo.api_key_env) == chat.openai.api_key_env);
  CHECK(mo.temperature == chat.openai.temperature);
  CHECK(mo.max_answer_tokens == chat.openai.max_tokens);
  CHECK((mo.json_mode != 0) == chat.openai.json_mode);
  CHECK(mo.connect_timeout_seconds == chat.openai.connect_timeout_seconds);
  CHECK(mo.timeout_seconds == chat.openai.timeout_seconds);
  CHECK(mo.max_retries == chat.openai.max_retries);
  CHECK(mo.concurrency == chat.openai.concurrency);
  const grappi_run_options ro0 = GRAPPI_RUN_OPTIONS_INIT;
  CHECK((ro0.model == nullptr && ro0.cancel == nullptr && ro0.progress == nullptr && ro0.user_data == nullptr));

  const grappi_ground_options gr = GRAPPI_GROUND_OPTIONS_INIT;
  const grappi::GroundingOptions go;
  CHECK(std::string(gr.strategy) == grappi::to_string(go.strategy));
  CHECK(std::string(gr.root) == go.root);
  CHECK((gr.relations == nullptr && gr.relation_count == 0));  // (none: the C++ default)
  CHECK(go.relations == std::vector<std::string>{"obo.is_a"});
  CHECK(gr.batch == go.batch);
  CHECK(gr.chunk_size == go.chunk_size);
  CHECK(gr.chunk_overlap == go.chunk_overlap);
  CHECK(gr.patience == go.patience);
  CHECK(gr.lookahead == go.lookahead);
  CHECK(gr.threshold == go.threshold);
  CHECK(gr.rag_k == go.rag_k);
  CHECK(gr.seed == go.seed);
  budget_agrees(gr.budget, go);
  CHECK_FALSE(go.dry_run);
  CHECK(gr.ontology == nullptr);
  CHECK(go.ontology.empty());

  const grappi_extract_options ex = GRAPPI_EXTRACT_OPTIONS_INIT;
  const grappi::ExtractionOptions xopts;
  CHECK(std::string(ex.format) == grappi::to_string(grappi::DocumentFormat::detect));
  CHECK((ex.repair != 0) == xopts.repair);
  CHECK((ex.annotations_only != 0) == xopts.annotations_only);
  CHECK(ex.taxon == xopts.entities.taxon);
  CHECK(ex.min_passage_chars == xopts.min_passage_chars);
  budget_agrees(ex.budget, xopts);
  CHECK_FALSE(xopts.dry_run);
  CHECK(ex.concurrency == xopts.concurrency);
  CHECK(ex.include_flagged == 0);
  CHECK(ex.bel_path == nullptr);
  CHECK(ex.cx2_path == nullptr);
  CHECK(ex.import_statements == 0);

  const grappi_cooc_options co = GRAPPI_COOC_OPTIONS_INIT;
  const grappi::CoocOptions cooc;
  CHECK(std::string(co.scope) == "document");
  CHECK(cooc.scope == grappi::CoocOptions::Scope::document);
  CHECK(std::string(co.titles) == cooc.titles);
  CHECK((co.types == nullptr && co.type_count == 0));
  CHECK(cooc.types.empty());
  CHECK(co.min_count == cooc.min_count);
  CHECK(co.as_of == 0);
  CHECK_FALSE(cooc.as_of);
  CHECK((co.dictionary != 0) == cooc.dictionary);
  CHECK(co.path == nullptr);

  const grappi_ask_options ao = GRAPPI_ASK_OPTIONS_INIT;
  const grappi::AskOptions aopts;
  CHECK(std::string(ao.context) == aopts.context);
  CHECK(ao.max_context_tokens == aopts.max_context_tokens);
  CHECK(ao.answers == aopts.top);
  CHECK((ao.keep_question_entities == 0) == aopts.exclude_question_entities);
  CHECK((ao.repair != 0) == aopts.repair);
  CHECK((ao.weighted_relations == nullptr && ao.relation_weights == nullptr && ao.relation_weight_count == 0));
  CHECK(ao.embedding_model == nullptr);
  CHECK(aopts.embedding_model.empty());
  budget_agrees(ao.budget, aopts);
  CHECK_FALSE(aopts.dry_run);
  CHECK(std::string(ao.reader) == aopts.reader);
  CHECK(std::string(ao.reader_name) == aopts.reader_name);
  CHECK((ao.intents != 0) == aopts.intents);
  CHECK((ao.model_intent != 0) == aopts.model_intent);
  CHECK(ao.intent_candidates == aopts.intent_candidates);
  CHECK(ao.papers == aopts.papers);

  const grappi_reader_options rdo = GRAPPI_READER_OPTIONS_INIT;
  const grappi::ReaderTrainOptions ropts;
  CHECK(std::string(rdo.scope) == ropts.scope);
  CHECK(std::string(rdo.name) == ropts.name);
  CHECK(rdo.epochs == ropts.gat.epochs);
  CHECK(rdo.hidden == ropts.gat.hidden);
  CHECK(rdo.max_nodes == ropts.max_nodes);

  const grappi_hypothesis_options ho = GRAPPI_HYPOTHESIS_OPTIONS_INIT;
  const grappi::HypothesisOptions hopts;
  CHECK((ho.relations == nullptr && ho.relation_count == 0));  // (none: the C++ default)
  CHECK(hopts.relations == std::vector<std::string>{"cooc.document"});
  CHECK(ho.max_length == hopts.max_length);
  CHECK(ho.paths == hopts.paths);
  CHECK((ho.mask_direct != 0) == hopts.mask_direct);
  CHECK((ho.intermediate_labels == nullptr && ho.intermediate_label_count == 0));
  CHECK(hopts.intermediate_labels.empty());
  CHECK(ho.context == hopts.context);
  CHECK(ho.rounds == hopts.rounds);
  CHECK((ho.support_relations == nullptr && ho.support_relation_count == 0));
  CHECK(hopts.support_relations.empty());
  budget_agrees(ho.budget, hopts);
  CHECK(ho.embedding_weight == hopts.embedding_weight);
  CHECK(ho.embedding_model == nullptr);
  CHECK(hopts.embedding_model.empty());

  const grappi_eval_hypotheses_options evo = GRAPPI_EVAL_HYPOTHESES_OPTIONS_INIT;
  const grappi::HypothesisEvalOptions evopts;
  CHECK((evo.splits == nullptr && evo.split_count == 0 && evo.as_of == 0));  // (none: split, unset as_of)
  CHECK(!evopts.as_of);
  CHECK(std::string(evo.corpus_format) == "detect");
  CHECK(evo.paths == evopts.paths);
  CHECK(evo.pairs == evopts.pairs);
  CHECK(evo.top == evopts.top);
  CHECK(evo.explain == evopts.explain);
  CHECK(std::string(evo.scoring) == evopts.scoring);
  CHECK(evo.min_positives == evopts.ranker_options.min_positives);
  CHECK(evo.bootstrap == evopts.bootstrap);
  CHECK(evo.seed == evopts.seed);
  CHECK(std::string(evo.scope) == "document");
  CHECK(evopts.cooc.scope == grappi::CoocOptions::Scope::document);
  CHECK(evo.min_count == evopts.cooc.min_count);
  CHECK((evo.ranker == nullptr && !evopts.ranker));
  CHECK((evo.work_dir == nullptr && evopts.work_dir.empty()));
  CHECK(evo.hypothesis == nullptr);

  const grappi_pcst_options p = GRAPPI_PCST_OPTIONS_INIT;
  const grappi::PcstOptions po;
  CHECK(p.root == po.root);
  CHECK(p.num_clusters == po.num_clusters);
  CHECK(std::string(p.pruning) == grappi::to_string(po.pruning));
  CHECK((p.improve != 0) == po.improve);
  CHECK(p.event_order == GRAPPI_PCST_ORDER_DEFAULT);
}
