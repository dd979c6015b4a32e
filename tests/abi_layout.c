/* Prints the layout of every struct of grappi.h as JSON: {"struct": {"size": n, "fields":
 * {"field": [offset, size], ...}}, ...}. Written by tools/gen_bindings.py from the header: do
 * not edit. The binding tests compare their generated mirrors of these structs (Python ctypes,
 * Rust #[repr(C)]) with it. */
#include <grappi/grappi.h>
#include <stddef.h>
#include <stdio.h>

static int first_struct = 1, first_field = 1;

static void begin(const char *name, size_t size) {
  printf("%s\n \"%s\": {\"size\": %zu, \"fields\": {", first_struct ? "{" : ",", name, size);
  first_struct = 0;
  first_field = 1;
}
static void field(const char *name, size_t offset, size_t size) {
  printf("%s\"%s\": [%zu, %zu]", first_field ? "" : ", ", name, offset, size);
  first_field = 0;
}
static void end(void) { printf("}}"); }

#define BEGIN(T) begin(#T, sizeof(T))
#define FIELD(T, f) field(#f, offsetof(T, f), sizeof(((T *)0)->f))

int main(void) {
  BEGIN(grappi_open_options);
  FIELD(grappi_open_options, version);
  FIELD(grappi_open_options, read_only);
  FIELD(grappi_open_options, create);
  FIELD(grappi_open_options, busy_timeout_ms);
  end();

  BEGIN(grappi_import_options);
  FIELD(grappi_import_options, version);
  FIELD(grappi_import_options, min_score);
  FIELD(grappi_import_options, skip_bad_lines);
  FIELD(grappi_import_options, max_bad_examples);
  FIELD(grappi_import_options, max_rows);
  FIELD(grappi_import_options, taxon);
  FIELD(grappi_import_options, source_column);
  FIELD(grappi_import_options, target_column);
  FIELD(grappi_import_options, score_column);
  FIELD(grappi_import_options, score_scale);
  FIELD(grappi_import_options, relation_column);
  FIELD(grappi_import_options, relation);
  FIELD(grappi_import_options, directed);
  FIELD(grappi_import_options, header);
  FIELD(grappi_import_options, label);
  FIELD(grappi_import_options, separator);
  end();

  BEGIN(grappi_export_options);
  FIELD(grappi_export_options, version);
  FIELD(grappi_export_options, relations);
  FIELD(grappi_export_options, relation_count);
  FIELD(grappi_export_options, min_score);
  FIELD(grappi_export_options, nodes);
  FIELD(grappi_export_options, node_count);
  FIELD(grappi_export_options, khop);
  FIELD(grappi_export_options, hops);
  end();

  BEGIN(grappi_embed_options);
  FIELD(grappi_embed_options, version);
  FIELD(grappi_embed_options, embedder);
  FIELD(grappi_embed_options, dimension);
  FIELD(grappi_embed_options, base_url);
  FIELD(grappi_embed_options, model);
  FIELD(grappi_embed_options, api_key_env);
  FIELD(grappi_embed_options, callback);
  FIELD(grappi_embed_options, user_data);
  end();

  BEGIN(grappi_window_options);
  FIELD(grappi_window_options, version);
  FIELD(grappi_window_options, k);
  FIELD(grappi_window_options, k_count);
  FIELD(grappi_window_options, depth);
  FIELD(grappi_window_options, window);
  FIELD(grappi_window_options, min_score);
  FIELD(grappi_window_options, max_path_length);
  FIELD(grappi_window_options, max_paths);
  end();

  BEGIN(grappi_retrieve_options);
  FIELD(grappi_retrieve_options, version);
  FIELD(grappi_retrieve_options, mode);
  FIELD(grappi_retrieve_options, seeds);
  FIELD(grappi_retrieve_options, hops);
  FIELD(grappi_retrieve_options, degree_cap);
  FIELD(grappi_retrieve_options, node_budget);
  FIELD(grappi_retrieve_options, min_score);
  FIELD(grappi_retrieve_options, topk);
  FIELD(grappi_retrieve_options, topk_e);
  FIELD(grappi_retrieve_options, cost_e);
  FIELD(grappi_retrieve_options, pyg_cap);
  FIELD(grappi_retrieve_options, alpha);
  FIELD(grappi_retrieve_options, beta);
  FIELD(grappi_retrieve_options, gamma);
  FIELD(grappi_retrieve_options, lambda);
  FIELD(grappi_retrieve_options, pruning);
  FIELD(grappi_retrieve_options, num_clusters);
  FIELD(grappi_retrieve_options, event_order);
  FIELD(grappi_retrieve_options, relations);
  FIELD(grappi_retrieve_options, relation_count);
  end();

  BEGIN(grappi_enrich_options);
  FIELD(grappi_enrich_options, version);
  FIELD(grappi_enrich_options, categories);
  FIELD(grappi_enrich_options, category_count);
  FIELD(grappi_enrich_options, exclude_evidence);
  FIELD(grappi_enrich_options, exclude_evidence_count);
  FIELD(grappi_enrich_options, background);
  FIELD(grappi_enrich_options, background_proteins);
  FIELD(grappi_enrich_options, background_protein_count);
  FIELD(grappi_enrich_options, min_term_size);
  FIELD(grappi_enrich_options, max_term_size);
  FIELD(grappi_enrich_options, max_fdr);
  end();

  BEGIN(grappi_cluster_options);
  FIELD(grappi_cluster_options, version);
  FIELD(grappi_cluster_options, method);
  FIELD(grappi_cluster_options, min_score);
  FIELD(grappi_cluster_options, relations);
  FIELD(grappi_cluster_options, relation_count);
  FIELD(grappi_cluster_options, inflation);
  FIELD(grappi_cluster_options, max_iterations);
  FIELD(grappi_cluster_options, resolution);
  FIELD(grappi_cluster_options, seed);
  FIELD(grappi_cluster_options, runs);
  FIELD(grappi_cluster_options, max_cluster_size);
  FIELD(grappi_cluster_options, max_levels);
  FIELD(grappi_cluster_options, terms);
  FIELD(grappi_cluster_options, enrich_min_size);
  FIELD(grappi_cluster_options, max_fdr);
  end();

  BEGIN(grappi_model_options);
  FIELD(grappi_model_options, version);
  FIELD(grappi_model_options, llm);
  FIELD(grappi_model_options, base_url);
  FIELD(grappi_model_options, model);
  FIELD(grappi_model_options, api_key_env);
  FIELD(grappi_model_options, temperature);
  FIELD(grappi_model_options, max_answer_tokens);
  FIELD(grappi_model_options, json_mode);
  FIELD(grappi_model_options, connect_timeout_seconds);
  FIELD(grappi_model_options, timeout_seconds);
  FIELD(grappi_model_options, max_retries);
  FIELD(grappi_model_options, concurrency);
  FIELD(grappi_model_options, chat);
  FIELD(grappi_model_options, user_data);
  end();

  BEGIN(grappi_run_options);
  FIELD(grappi_run_options, version);
  FIELD(grappi_run_options, model);
  FIELD(grappi_run_options, cancel);
  FIELD(grappi_run_options, progress);
  FIELD(grappi_run_options, user_data);
  end();

  BEGIN(grappi_budget_options);
  FIELD(grappi_budget_options, max_calls);
  FIELD(grappi_budget_options, max_tokens);
  FIELD(grappi_budget_options, dry_run);
  FIELD(grappi_budget_options, use_cache);
  end();

  BEGIN(grappi_explore_options);
  FIELD(grappi_explore_options, version);
  FIELD(grappi_explore_options, windows);
  FIELD(grappi_explore_options, window_count);
  FIELD(grappi_explore_options, k);
  FIELD(grappi_explore_options, k_count);
  FIELD(grappi_explore_options, depth);
  FIELD(grappi_explore_options, min_score);
  FIELD(grappi_explore_options, max_length);
  FIELD(grappi_explore_options, max_paths);
  FIELD(grappi_explore_options, top);
  FIELD(grappi_explore_options, explain_top);
  FIELD(grappi_explore_options, concurrency);
  FIELD(grappi_explore_options, budget);
  FIELD(grappi_explore_options, diversity);
  FIELD(grappi_explore_options, max_visited);
  FIELD(grappi_explore_options, run);
  end();

  BEGIN(grappi_ground_options);
  FIELD(grappi_ground_options, version);
  FIELD(grappi_ground_options, strategy);
  FIELD(grappi_ground_options, root);
  FIELD(grappi_ground_options, relations);
  FIELD(grappi_ground_options, relation_count);
  FIELD(grappi_ground_options, batch);
  FIELD(grappi_ground_options, chunk_size);
  FIELD(grappi_ground_options, chunk_overlap);
  FIELD(grappi_ground_options, patience);
  FIELD(grappi_ground_options, lookahead);
  FIELD(grappi_ground_options, threshold);
  FIELD(grappi_ground_options, rag_k);
  FIELD(grappi_ground_options, seed);
  FIELD(grappi_ground_options, budget);
  FIELD(grappi_ground_options, ontology);
  FIELD(grappi_ground_options, run);
  end();

  BEGIN(grappi_extract_options);
  FIELD(grappi_extract_options, version);
  FIELD(grappi_extract_options, format);
  FIELD(grappi_extract_options, name);
  FIELD(grappi_extract_options, repair);
  FIELD(grappi_extract_options, annotations_only);
  FIELD(grappi_extract_options, taxon);
  FIELD(grappi_extract_options, min_passage_chars);
  FIELD(grappi_extract_options, budget);
  FIELD(grappi_extract_options, concurrency);
  FIELD(grappi_extract_options, include_flagged);
  FIELD(grappi_extract_options, bel_path);
  FIELD(grappi_extract_options, cx2_path);
  FIELD(grappi_extract_options, import_statements);
  FIELD(grappi_extract_options, run);
  end();

  BEGIN(grappi_cooc_options);
  FIELD(grappi_cooc_options, version);
  FIELD(grappi_cooc_options, format);
  FIELD(grappi_cooc_options, name);
  FIELD(grappi_cooc_options, scope);
  FIELD(grappi_cooc_options, titles);
  FIELD(grappi_cooc_options, types);
  FIELD(grappi_cooc_options, type_count);
  FIELD(grappi_cooc_options, min_count);
  FIELD(grappi_cooc_options, as_of);
  FIELD(grappi_cooc_options, dictionary);
  FIELD(grappi_cooc_options, path);
  end();

  BEGIN(grappi_hypothesis_options);
  FIELD(grappi_hypothesis_options, version);
  FIELD(grappi_hypothesis_options, relations);
  FIELD(grappi_hypothesis_options, relation_count);
  FIELD(grappi_hypothesis_options, max_length);
  FIELD(grappi_hypothesis_options, paths);
  FIELD(grappi_hypothesis_options, mask_direct);
  FIELD(grappi_hypothesis_options, intermediate_labels);
  FIELD(grappi_hypothesis_options, intermediate_label_count);
  FIELD(grappi_hypothesis_options, context);
  FIELD(grappi_hypothesis_options, rounds);
  FIELD(grappi_hypothesis_options, support_relations);
  FIELD(grappi_hypothesis_options, support_relation_count);
  FIELD(grappi_hypothesis_options, corpus_format);
  FIELD(grappi_hypothesis_options, budget);
  FIELD(grappi_hypothesis_options, embedding_weight);
  FIELD(grappi_hypothesis_options, embedding_model);
  FIELD(grappi_hypothesis_options, ranker);
  FIELD(grappi_hypothesis_options, generic_intermediates);
  FIELD(grappi_hypothesis_options, max_intermediate_share);
  FIELD(grappi_hypothesis_options, fold_reorderings);
  FIELD(grappi_hypothesis_options, run);
  FIELD(grappi_hypothesis_options, shortest_rounds);
  end();

  BEGIN(grappi_eval_hypotheses_options);
  FIELD(grappi_eval_hypotheses_options, version);
  FIELD(grappi_eval_hypotheses_options, corpus_format);
  FIELD(grappi_eval_hypotheses_options, splits);
  FIELD(grappi_eval_hypotheses_options, split_count);
  FIELD(grappi_eval_hypotheses_options, as_of);
  FIELD(grappi_eval_hypotheses_options, paths);
  FIELD(grappi_eval_hypotheses_options, pairs);
  FIELD(grappi_eval_hypotheses_options, top);
  FIELD(grappi_eval_hypotheses_options, explain);
  FIELD(grappi_eval_hypotheses_options, scoring);
  FIELD(grappi_eval_hypotheses_options, min_positives);
  FIELD(grappi_eval_hypotheses_options, bootstrap);
  FIELD(grappi_eval_hypotheses_options, seed);
  FIELD(grappi_eval_hypotheses_options, scope);
  FIELD(grappi_eval_hypotheses_options, min_count);
  FIELD(grappi_eval_hypotheses_options, ranker);
  FIELD(grappi_eval_hypotheses_options, work_dir);
  FIELD(grappi_eval_hypotheses_options, hypothesis);
  FIELD(grappi_eval_hypotheses_options, after_corpus);
  end();

  BEGIN(grappi_ask_options);
  FIELD(grappi_ask_options, version);
  FIELD(grappi_ask_options, context);
  FIELD(grappi_ask_options, max_context_tokens);
  FIELD(grappi_ask_options, answers);
  FIELD(grappi_ask_options, keep_question_entities);
  FIELD(grappi_ask_options, repair);
  FIELD(grappi_ask_options, weighted_relations);
  FIELD(grappi_ask_options, relation_weights);
  FIELD(grappi_ask_options, relation_weight_count);
  FIELD(grappi_ask_options, embedding_model);
  FIELD(grappi_ask_options, budget);
  FIELD(grappi_ask_options, reader);
  FIELD(grappi_ask_options, reader_name);
  FIELD(grappi_ask_options, intents);
  FIELD(grappi_ask_options, model_intent);
  FIELD(grappi_ask_options, intent_candidates);
  FIELD(grappi_ask_options, papers);
  FIELD(grappi_ask_options, run);
  end();

  BEGIN(grappi_reader_options);
  FIELD(grappi_reader_options, version);
  FIELD(grappi_reader_options, name);
  FIELD(grappi_reader_options, scope);
  FIELD(grappi_reader_options, epochs);
  FIELD(grappi_reader_options, layers);
  FIELD(grappi_reader_options, hidden);
  FIELD(grappi_reader_options, heads);
  FIELD(grappi_reader_options, head_hidden);
  FIELD(grappi_reader_options, dropout);
  FIELD(grappi_reader_options, learning_rate);
  FIELD(grappi_reader_options, weight_decay);
  FIELD(grappi_reader_options, batch);
  FIELD(grappi_reader_options, patience);
  FIELD(grappi_reader_options, valid_share);
  FIELD(grappi_reader_options, seed);
  FIELD(grappi_reader_options, threads);
  FIELD(grappi_reader_options, max_nodes);
  FIELD(grappi_reader_options, run);
  end();

  BEGIN(grappi_pcst_options);
  FIELD(grappi_pcst_options, version);
  FIELD(grappi_pcst_options, root);
  FIELD(grappi_pcst_options, num_clusters);
  FIELD(grappi_pcst_options, pruning);
  FIELD(grappi_pcst_options, improve);
  FIELD(grappi_pcst_options, event_order);
  end();

  BEGIN(grappi_pcst_result);
  FIELD(grappi_pcst_result, version);
  FIELD(grappi_pcst_result, nodes);
  FIELD(grappi_pcst_result, num_nodes);
  FIELD(grappi_pcst_result, edges);
  FIELD(grappi_pcst_result, num_edges);
  FIELD(grappi_pcst_result, objective);
  FIELD(grappi_pcst_result, net_worth);
  FIELD(grappi_pcst_result, objective_before_improve);
  FIELD(grappi_pcst_result, improve_rounds);
  end();

  printf("\n}\n");
  return 0;
}
