//! Raw, unsafe declarations of grappi's C API (`grappi/grappi.h`), written by
//! tools/gen_bindings.py from the header: do not edit. Every struct mirrors the header at the
//! version named by its `*_VERSION` constant; the crate's tests compare their layouts with the
//! C compiler's (`layout_of` below).
#![allow(non_camel_case_types)]
use std::os::raw::{c_char, c_double, c_float, c_void};

pub type grappi_status = i32;
pub const GRAPPI_OK: grappi_status = 0;
pub const GRAPPI_EINVAL: grappi_status = -1;
pub const GRAPPI_ENOTFOUND: grappi_status = -2;
pub const GRAPPI_EAMBIGUOUS: grappi_status = -3;
pub const GRAPPI_EIO: grappi_status = -4;
pub const GRAPPI_EPARSE: grappi_status = -5;
pub const GRAPPI_EDB: grappi_status = -6;
pub const GRAPPI_ENETWORK: grappi_status = -7;
pub const GRAPPI_ELLM: grappi_status = -8;
pub const GRAPPI_EBUDGET: grappi_status = -9;
pub const GRAPPI_EINTERNAL: grappi_status = -10;
pub const GRAPPI_EBUFS: grappi_status = -11;
pub const GRAPPI_ENOMEM: grappi_status = -12;
pub const GRAPPI_BEL_LONG_FORM: u32 = 1;
pub const GRAPPI_BEL_ALLOW_UNKNOWN_NAMESPACES: u32 = 2;
pub const GRAPPI_PCST_ORDER_DEFAULT: i32 = 0;
pub const GRAPPI_PCST_ORDER_FAST: i32 = 1;
pub const GRAPPI_PCST_ORDER_REFERENCE: i32 = 2;

#[repr(C)]
pub struct grappi_graph {
    _private: [u8; 0],
}

pub const GRAPPI_OPEN_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_open_options {
    pub version: u32,
    pub read_only: i32,
    pub create: i32,
    pub busy_timeout_ms: i32,
}

pub const GRAPPI_IMPORT_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_import_options {
    pub version: u32,
    pub min_score: i32,
    pub skip_bad_lines: i32,
    pub max_bad_examples: u32,
    pub max_rows: u64,
    pub taxon: i64,
    pub source_column: *const c_char,
    pub target_column: *const c_char,
    pub score_column: *const c_char,
    pub score_scale: c_double,
    pub relation_column: *const c_char,
    pub relation: *const c_char,
    pub directed: i32,
    pub header: i32,
    pub label: *const c_char,
    pub separator: i32,
}

pub const GRAPPI_EXPORT_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_export_options {
    pub version: u32,
    pub relations: *const *const c_char,
    pub relation_count: usize,
    pub min_score: c_double,
    pub nodes: *const *const c_char,
    pub node_count: usize,
    pub khop: *const c_char,
    pub hops: usize,
}

pub type grappi_embed_fn = Option<unsafe extern "C" fn(user_data: *mut c_void, texts: *const *const c_char,
    count: usize, out: *mut c_float, dim: usize) -> i32>;

pub const GRAPPI_EMBED_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_embed_options {
    pub version: u32,
    pub embedder: *const c_char,
    pub dimension: usize,
    pub base_url: *const c_char,
    pub model: *const c_char,
    pub api_key_env: *const c_char,
    pub callback: grappi_embed_fn,
    pub user_data: *mut c_void,
}

pub const GRAPPI_WINDOW_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_window_options {
    pub version: u32,
    pub k: *const usize,
    pub k_count: usize,
    pub depth: usize,
    pub window: usize,
    pub min_score: c_double,
    pub max_path_length: usize,
    pub max_paths: usize,
}

pub const GRAPPI_RETRIEVE_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_retrieve_options {
    pub version: u32,
    pub mode: *const c_char,
    pub seeds: usize,
    pub hops: usize,
    pub degree_cap: usize,
    pub node_budget: usize,
    pub min_score: c_double,
    pub topk: usize,
    pub topk_e: usize,
    pub cost_e: c_double,
    pub pyg_cap: i32,
    pub alpha: c_double,
    pub beta: c_double,
    pub gamma: c_double,
    pub lambda: c_double,
    pub pruning: *const c_char,
    pub num_clusters: i32,
    pub event_order: i32,
    pub relations: *const *const c_char,
    pub relation_count: usize,
}

pub const GRAPPI_ENRICH_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_enrich_options {
    pub version: u32,
    pub categories: *const *const c_char,
    pub category_count: usize,
    pub exclude_evidence: *const *const c_char,
    pub exclude_evidence_count: usize,
    pub background: *const c_char,
    pub background_proteins: *const *const c_char,
    pub background_protein_count: usize,
    pub min_term_size: usize,
    pub max_term_size: usize,
    pub max_fdr: c_double,
}

pub const GRAPPI_CLUSTER_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_cluster_options {
    pub version: u32,
    pub method: *const c_char,
    pub min_score: c_double,
    pub relations: *const *const c_char,
    pub relation_count: usize,
    pub inflation: c_double,
    pub max_iterations: usize,
    pub resolution: c_double,
    pub seed: u64,
    pub runs: usize,
    pub max_cluster_size: usize,
    pub max_levels: usize,
    pub terms: usize,
    pub enrich_min_size: usize,
    pub max_fdr: c_double,
}

#[repr(C)]
pub struct grappi_chat_reply {
    _private: [u8; 0],
}

pub type grappi_chat_fn = Option<unsafe extern "C" fn(user_data: *mut c_void, request_json: *const c_char,
    reply: *mut grappi_chat_reply) -> i32>;

#[repr(C)]
pub struct grappi_model {
    _private: [u8; 0],
}

pub const GRAPPI_MODEL_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_model_options {
    pub version: u32,
    pub llm: *const c_char,
    pub base_url: *const c_char,
    pub model: *const c_char,
    pub api_key_env: *const c_char,
    pub temperature: c_double,
    pub max_answer_tokens: i32,
    pub json_mode: i32,
    pub connect_timeout_seconds: c_double,
    pub timeout_seconds: c_double,
    pub max_retries: i32,
    pub concurrency: usize,
    pub chat: grappi_chat_fn,
    pub user_data: *mut c_void,
}

pub type grappi_cancel_fn = Option<unsafe extern "C" fn(user_data: *mut c_void) -> i32>;

pub type grappi_progress_fn = Option<unsafe extern "C" fn(user_data: *mut c_void, stage: *const c_char, done: usize,
    total: usize)>;

pub const GRAPPI_RUN_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_run_options {
    pub version: u32,
    pub model: *const grappi_model,
    pub cancel: grappi_cancel_fn,
    pub progress: grappi_progress_fn,
    pub user_data: *mut c_void,
}

#[repr(C)]
pub struct grappi_budget_options {
    pub max_calls: usize,
    pub max_tokens: i64,
    pub dry_run: i32,
    pub use_cache: i32,
}

pub const GRAPPI_EXPLORE_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_explore_options {
    pub version: u32,
    pub windows: *const usize,
    pub window_count: usize,
    pub k: *const usize,
    pub k_count: usize,
    pub depth: usize,
    pub min_score: c_double,
    pub max_length: usize,
    pub max_paths: usize,
    pub top: usize,
    pub explain_top: usize,
    pub concurrency: usize,
    pub budget: grappi_budget_options,
    pub diversity: c_double,
    pub max_visited: usize,
    pub run: *const grappi_run_options,
}

pub const GRAPPI_GROUND_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_ground_options {
    pub version: u32,
    pub strategy: *const c_char,
    pub root: *const c_char,
    pub relations: *const *const c_char,
    pub relation_count: usize,
    pub batch: usize,
    pub chunk_size: usize,
    pub chunk_overlap: usize,
    pub patience: usize,
    pub lookahead: usize,
    pub threshold: i32,
    pub rag_k: usize,
    pub seed: u64,
    pub budget: grappi_budget_options,
    pub ontology: *const c_char,
    pub run: *const grappi_run_options,
}

pub const GRAPPI_EXTRACT_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_extract_options {
    pub version: u32,
    pub format: *const c_char,
    pub name: *const c_char,
    pub repair: i32,
    pub annotations_only: i32,
    pub taxon: i64,
    pub min_passage_chars: usize,
    pub budget: grappi_budget_options,
    pub concurrency: usize,
    pub include_flagged: i32,
    pub bel_path: *const c_char,
    pub cx2_path: *const c_char,
    pub import_statements: i32,
    pub run: *const grappi_run_options,
}

pub const GRAPPI_COOC_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_cooc_options {
    pub version: u32,
    pub format: *const c_char,
    pub name: *const c_char,
    pub scope: *const c_char,
    pub titles: *const c_char,
    pub types: *const *const c_char,
    pub type_count: usize,
    pub min_count: usize,
    pub as_of: i32,
    pub dictionary: i32,
    pub path: *const c_char,
}

pub const GRAPPI_HYPOTHESIS_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_hypothesis_options {
    pub version: u32,
    pub relations: *const *const c_char,
    pub relation_count: usize,
    pub max_length: usize,
    pub paths: usize,
    pub mask_direct: i32,
    pub intermediate_labels: *const *const c_char,
    pub intermediate_label_count: usize,
    pub context: usize,
    pub rounds: usize,
    pub support_relations: *const *const c_char,
    pub support_relation_count: usize,
    pub corpus_format: *const c_char,
    pub budget: grappi_budget_options,
    pub embedding_weight: c_double,
    pub embedding_model: *const c_char,
    pub ranker: *const c_char,
    pub generic_intermediates: i32,
    pub max_intermediate_share: c_double,
    pub fold_reorderings: i32,
    pub run: *const grappi_run_options,
    pub shortest_rounds: usize,
}

pub const GRAPPI_EVAL_HYPOTHESES_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_eval_hypotheses_options {
    pub version: u32,
    pub corpus_format: *const c_char,
    pub splits: *const c_double,
    pub split_count: usize,
    pub as_of: i32,
    pub paths: usize,
    pub pairs: usize,
    pub top: usize,
    pub explain: usize,
    pub scoring: *const c_char,
    pub min_positives: usize,
    pub bootstrap: usize,
    pub seed: u64,
    pub scope: *const c_char,
    pub min_count: usize,
    pub ranker: *const c_char,
    pub work_dir: *const c_char,
    pub hypothesis: *const grappi_hypothesis_options,
    pub after_corpus: *const c_char,
}

pub const GRAPPI_ASK_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_ask_options {
    pub version: u32,
    pub context: *const c_char,
    pub max_context_tokens: usize,
    pub answers: usize,
    pub keep_question_entities: i32,
    pub repair: i32,
    pub weighted_relations: *const *const c_char,
    pub relation_weights: *const c_double,
    pub relation_weight_count: usize,
    pub embedding_model: *const c_char,
    pub budget: grappi_budget_options,
    pub reader: *const c_char,
    pub reader_name: *const c_char,
    pub intents: i32,
    pub model_intent: i32,
    pub intent_candidates: usize,
    pub papers: usize,
    pub run: *const grappi_run_options,
}

pub const GRAPPI_READER_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_reader_options {
    pub version: u32,
    pub name: *const c_char,
    pub scope: *const c_char,
    pub epochs: usize,
    pub layers: usize,
    pub hidden: usize,
    pub heads: usize,
    pub head_hidden: usize,
    pub dropout: c_double,
    pub learning_rate: c_double,
    pub weight_decay: c_double,
    pub batch: usize,
    pub patience: usize,
    pub valid_share: c_double,
    pub seed: u64,
    pub threads: u32,
    pub max_nodes: usize,
    pub run: *const grappi_run_options,
}

#[repr(C)]
pub struct grappi_pcst_solver {
    _private: [u8; 0],
}

pub const GRAPPI_PCST_OPTIONS_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_pcst_options {
    pub version: u32,
    pub root: i64,
    pub num_clusters: i32,
    pub pruning: *const c_char,
    pub improve: i32,
    pub event_order: i32,
}

pub const GRAPPI_PCST_RESULT_VERSION: u32 = 1;
#[repr(C)]
pub struct grappi_pcst_result {
    pub version: u32,
    pub nodes: *const i64,
    pub num_nodes: usize,
    pub edges: *const i64,
    pub num_edges: usize,
    pub objective: c_double,
    pub net_worth: c_double,
    pub objective_before_improve: c_double,
    pub improve_rounds: i32,
}

extern "C" {
    pub fn grappi_last_error_message() -> *const c_char;
    pub fn grappi_last_error_code() -> grappi_status;
    pub fn grappi_status_str(status: grappi_status) -> *const c_char;
    pub fn grappi_version_string() -> *const c_char;
    pub fn grappi_free(p: *mut c_void);
    pub fn grappi_open_options_init(opts: *mut grappi_open_options, version: u32) -> grappi_status;
    pub fn grappi_graph_open(path: *const c_char, opts: *const grappi_open_options,
                             out: *mut *mut grappi_graph) -> grappi_status;
    pub fn grappi_graph_free(g: *mut grappi_graph);
    pub fn grappi_graph_import(g: *mut grappi_graph, kind: *const c_char, path: *const c_char) -> grappi_status;
    pub fn grappi_import_options_init(opts: *mut grappi_import_options, version: u32) -> grappi_status;
    pub fn grappi_graph_import_with(g: *mut grappi_graph, kind: *const c_char, path: *const c_char,
                                    opts: *const grappi_import_options,
                                    out_report_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_export(g: *mut grappi_graph, format: *const c_char, path: *const c_char, out_nodes: *mut u64,
                               out_edges: *mut u64) -> grappi_status;
    pub fn grappi_export_options_init(opts: *mut grappi_export_options, version: u32) -> grappi_status;
    pub fn grappi_graph_export_selection(g: *mut grappi_graph, format: *const c_char, path: *const c_char,
                                         opts: *const grappi_export_options, out_nodes: *mut u64, out_edges: *mut u64,
                                         out_not_written: *mut u64) -> grappi_status;
    pub fn grappi_graph_resolve(g: *mut grappi_graph, name: *const c_char, out_id: *mut i64) -> grappi_status;
    pub fn grappi_graph_complete_json(g: *mut grappi_graph, prefix: *const c_char, limit: usize,
                                      out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_neighbors(g: *mut grappi_graph, id: i64, min_score: c_double, out_ids: *mut i64,
                                  out_scores: *mut c_double, capacity: usize, out_count: *mut usize) -> grappi_status;
    pub fn grappi_graph_neighbors_json(g: *mut grappi_graph, protein: *const c_char, id: i64, min_score: c_double,
                                       relations: *const *const c_char, relation_count: usize, limit: usize,
                                       out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_counts(g: *mut grappi_graph, out_nodes: *mut i64, out_edges: *mut i64) -> grappi_status;
    pub fn grappi_graph_node_name(g: *mut grappi_graph, id: i64, out_name: *mut *mut c_char) -> grappi_status;
    pub fn grappi_embed_options_init(opts: *mut grappi_embed_options, version: u32) -> grappi_status;
    pub fn grappi_graph_embed(g: *mut grappi_graph, opts: *const grappi_embed_options,
                              out_embedded: *mut usize) -> grappi_status;
    pub fn grappi_graph_embed_plan_json(g: *mut grappi_graph, opts: *const grappi_embed_options,
                                        embedder_path: *const c_char, out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_embed_part_json(g: *mut grappi_graph, embedder_path: *const c_char, part: usize, parts: usize,
                                        out_path: *const c_char, provenance: *const c_char,
                                        out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_embed_merge_json(g: *mut grappi_graph, embedder_path: *const c_char,
                                         parts: *const *const c_char, part_count: usize,
                                         out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_search(g: *mut grappi_graph, text: *const c_char, k: usize, out_ids: *mut i64,
                               out_scores: *mut c_float, capacity: usize, out_count: *mut usize) -> grappi_status;
    pub fn grappi_graph_search_vector(g: *mut grappi_graph, query: *const c_float, dim: usize, k: usize,
                                      out_ids: *mut i64, out_scores: *mut c_float, capacity: usize,
                                      out_count: *mut usize) -> grappi_status;
    pub fn grappi_window_options_init(opts: *mut grappi_window_options, version: u32) -> grappi_status;
    pub fn grappi_graph_window_json(g: *mut grappi_graph, root: i64, opts: *const grappi_window_options,
                                    out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_paths_json(g: *mut grappi_graph, from: i64, to: i64, max_length: usize, k: usize, weighted: i32,
                                   out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_all_shortest_paths_json(g: *mut grappi_graph, from: i64, to: i64, max_length: usize, k: usize,
                                                skip_direct: i32, out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_khop_json(g: *mut grappi_graph, question: *const c_char, seeds: usize, hops: usize,
                                  degree_cap: usize, out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_edges_json(g: *mut grappi_graph, a: i64, b: i64, out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_ontology_json(g: *mut grappi_graph, question: *const c_char, term: *const c_char,
                                      other: *const c_char, relations: *const *const c_char, relation_count: usize,
                                      out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_bel_validate(text: *const c_char, flags: u32, out_json: *mut *mut c_char,
                               out_errors: *mut usize) -> grappi_status;
    pub fn grappi_graph_bel_validate(g: *mut grappi_graph, text: *const c_char, flags: u32, out_json: *mut *mut c_char,
                                     out_errors: *mut usize) -> grappi_status;
    pub fn grappi_graph_pagerank(g: *mut grappi_graph, seeds: *const i64, seed_count: usize, damping: c_double,
                                 out_ids: *mut i64, out_scores: *mut c_double, capacity: usize,
                                 out_count: *mut usize) -> grappi_status;
    pub fn grappi_retrieve_options_init(opts: *mut grappi_retrieve_options, version: u32) -> grappi_status;
    pub fn grappi_graph_retrieve_json(g: *mut grappi_graph, question: *const c_char,
                                      opts: *const grappi_retrieve_options,
                                      out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_retrieve_csv(g: *mut grappi_graph, question: *const c_char,
                                     opts: *const grappi_retrieve_options, out_csv: *mut *mut c_char) -> grappi_status;
    pub fn grappi_enrich_options_init(opts: *mut grappi_enrich_options, version: u32) -> grappi_status;
    pub fn grappi_graph_enrich_json(g: *mut grappi_graph, proteins: *const *const c_char, protein_count: usize,
                                    opts: *const grappi_enrich_options, out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_ppi_enrichment_json(g: *mut grappi_graph, proteins: *const *const c_char, protein_count: usize,
                                            min_score: c_double, relations: *const *const c_char, relation_count: usize,
                                            out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_cluster_options_init(opts: *mut grappi_cluster_options, version: u32) -> grappi_status;
    pub fn grappi_graph_cluster_json(g: *mut grappi_graph, proteins: *const *const c_char, protein_count: usize,
                                     opts: *const grappi_cluster_options, out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_chat_reply_set(reply: *mut grappi_chat_reply, content: *const c_char, prompt_tokens: i64,
                                 completion_tokens: i64) -> grappi_status;
    pub fn grappi_chat_reply_set_error(reply: *mut grappi_chat_reply, message: *const c_char) -> grappi_status;
    pub fn grappi_model_options_init(opts: *mut grappi_model_options, version: u32) -> grappi_status;
    pub fn grappi_model_new(opts: *const grappi_model_options, out: *mut *mut grappi_model) -> grappi_status;
    pub fn grappi_model_free(model: *mut grappi_model);
    pub fn grappi_model_describe_json(model: *const grappi_model, out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_build_communities_json(g: *mut grappi_graph, name: *const c_char,
                                               opts: *const grappi_cluster_options, model: *const grappi_model,
                                               out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_communities_json(g: *mut grappi_graph, name: *const c_char,
                                         out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_run_options_init(opts: *mut grappi_run_options, version: u32) -> grappi_status;
    pub fn grappi_explore_options_init(opts: *mut grappi_explore_options, version: u32) -> grappi_status;
    pub fn grappi_graph_explore_json(g: *mut grappi_graph, root: i64, query: *const c_char,
                                     opts: *const grappi_explore_options, out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_explore_report(g: *mut grappi_graph, root: i64, query: *const c_char,
                                       opts: *const grappi_explore_options, out_json: *mut *mut c_char,
                                       out_html: *mut *mut c_char) -> grappi_status;
    pub fn grappi_ground_options_init(opts: *mut grappi_ground_options, version: u32) -> grappi_status;
    pub fn grappi_graph_ground_json(g: *mut grappi_graph, text: *const c_char, protein_a: *const c_char,
                                    protein_b: *const c_char, opts: *const grappi_ground_options,
                                    out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_extract_options_init(opts: *mut grappi_extract_options, version: u32) -> grappi_status;
    pub fn grappi_graph_extract_json(g: *mut grappi_graph, content: *const c_char, opts: *const grappi_extract_options,
                                     out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_import_review_json(g: *mut grappi_graph, review_path: *const c_char, bel_path: *const c_char,
                                           out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_extract_part_json(g: *mut grappi_graph, files: *const *const c_char, file_count: usize,
                                          opts: *const grappi_extract_options, out_path: *const c_char,
                                          provenance: *const c_char, out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_extract_merge_json(g: *mut grappi_graph, parts: *const *const c_char, part_count: usize,
                                           opts: *const grappi_extract_options,
                                           out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_cooc_options_init(opts: *mut grappi_cooc_options, version: u32) -> grappi_status;
    pub fn grappi_graph_cooc_build_json(g: *mut grappi_graph, content: *const c_char, opts: *const grappi_cooc_options,
                                        out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_cooc_partial_json(g: *mut grappi_graph, files: *const *const c_char, file_count: usize,
                                          opts: *const grappi_cooc_options, out_path: *const c_char,
                                          provenance: *const c_char, out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_cooc_merge_json(g: *mut grappi_graph, partials: *const *const c_char, partial_count: usize,
                                        opts: *const grappi_cooc_options, out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_hypothesis_options_init(opts: *mut grappi_hypothesis_options, version: u32) -> grappi_status;
    pub fn grappi_graph_hypothesize_json(g: *mut grappi_graph, source: *const c_char, target: *const c_char,
                                         corpus: *const c_char, opts: *const grappi_hypothesis_options,
                                         out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_train_ranker_json(g: *mut grappi_graph, corpus: *const c_char, corpus_format: *const c_char,
                                          name: *const c_char, run: *const grappi_run_options,
                                          out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_eval_hypotheses_options_init(opts: *mut grappi_eval_hypotheses_options,
                                               version: u32) -> grappi_status;
    pub fn grappi_eval_hypotheses_json(g: *mut grappi_graph, corpus: *const c_char,
                                       opts: *const grappi_eval_hypotheses_options, out_json: *mut *mut c_char,
                                       out_pairs: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_search_papers_json(g: *mut grappi_graph, query: *const c_char, limit: usize,
                                           out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_ask_options_init(opts: *mut grappi_ask_options, version: u32) -> grappi_status;
    pub fn grappi_graph_ask_json(g: *mut grappi_graph, question: *const c_char,
                                 retrieve: *const grappi_retrieve_options, opts: *const grappi_ask_options,
                                 out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_analyze_question_json(g: *mut grappi_graph, question: *const c_char,
                                              out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_ask_report(g: *mut grappi_graph, question: *const c_char,
                                   retrieve: *const grappi_retrieve_options, opts: *const grappi_ask_options,
                                   out_json: *mut *mut c_char, out_html: *mut *mut c_char) -> grappi_status;
    pub fn grappi_report_html(view_json: *const c_char, out_html: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_eval_qa_json(g: *mut grappi_graph, questions: *const c_char,
                                     retrieve: *const grappi_retrieve_options, opts: *const grappi_ask_options,
                                     k: usize, out_json: *mut *mut c_char, out_rows: *mut *mut c_char) -> grappi_status;
    pub fn grappi_reader_options_init(opts: *mut grappi_reader_options, version: u32) -> grappi_status;
    pub fn grappi_graph_train_reader_json(g: *mut grappi_graph, train: *const c_char, valid: *const c_char,
                                          retrieve: *const grappi_retrieve_options, ask: *const grappi_ask_options,
                                          opts: *const grappi_reader_options,
                                          out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_graph_reader_scores_json(g: *mut grappi_graph, question: *const c_char,
                                           retrieve: *const grappi_retrieve_options, ask: *const grappi_ask_options,
                                           out_json: *mut *mut c_char) -> grappi_status;
    pub fn grappi_pcst_options_init(opts: *mut grappi_pcst_options, version: u32) -> grappi_status;
    pub fn grappi_pcst_solver_new(out: *mut *mut grappi_pcst_solver) -> grappi_status;
    pub fn grappi_pcst_solver_free(solver: *mut grappi_pcst_solver);
    pub fn grappi_pcst_solver_solve(solver: *mut grappi_pcst_solver, num_nodes: usize, prizes: *const c_double,
                                    num_edges: usize, edges: *const i64, costs: *const c_double,
                                    opts: *const grappi_pcst_options, out: *mut grappi_pcst_result) -> grappi_status;
}

/// (size, [(field, offset, size)]) of a mirrored struct, for comparison with the C compiler's
/// layout (`tests/abi_layout.c`). Offsets are taken from a value, without `offset_of!`.
pub fn layout_of(name: &str) -> Option<(usize, Vec<(&'static str, usize, usize)>)> {
    use std::mem::{size_of, MaybeUninit};
    fn pointee_size<T>(_: *const T) -> usize {
        size_of::<T>()
    }
    macro_rules! layout {
        ($t:ty; $($f:ident),*) => {{
            let v = MaybeUninit::<$t>::uninit();
            let base = v.as_ptr() as usize;
            let mut fields = Vec::new();
            $(
                // SAFETY: only the field's address is taken; nothing is read.
                let p = unsafe { std::ptr::addr_of!((*v.as_ptr()).$f) };
                fields.push((stringify!($f), p as usize - base, pointee_size(p)));
            )*
            Some((size_of::<$t>(), fields))
        }};
    }
    match name {
        "grappi_open_options" => layout!(grappi_open_options; version, read_only, create, busy_timeout_ms),
        "grappi_import_options" => layout!(grappi_import_options; version, min_score, skip_bad_lines, max_bad_examples,
            max_rows, taxon, source_column, target_column, score_column, score_scale, relation_column, relation,
            directed, header, label, separator),
        "grappi_export_options" => layout!(grappi_export_options; version, relations, relation_count, min_score, nodes,
            node_count, khop, hops),
        "grappi_embed_options" => layout!(grappi_embed_options; version, embedder, dimension, base_url, model,
            api_key_env, callback, user_data),
        "grappi_window_options" => layout!(grappi_window_options; version, k, k_count, depth, window, min_score,
            max_path_length, max_paths),
        "grappi_retrieve_options" => layout!(grappi_retrieve_options; version, mode, seeds, hops, degree_cap,
            node_budget, min_score, topk, topk_e, cost_e, pyg_cap, alpha, beta, gamma, lambda, pruning, num_clusters,
            event_order, relations, relation_count),
        "grappi_enrich_options" => layout!(grappi_enrich_options; version, categories, category_count, exclude_evidence,
            exclude_evidence_count, background, background_proteins, background_protein_count, min_term_size,
            max_term_size, max_fdr),
        "grappi_cluster_options" => layout!(grappi_cluster_options; version, method, min_score, relations,
            relation_count, inflation, max_iterations, resolution, seed, runs, max_cluster_size, max_levels, terms,
            enrich_min_size, max_fdr),
        "grappi_model_options" => layout!(grappi_model_options; version, llm, base_url, model, api_key_env, temperature,
            max_answer_tokens, json_mode, connect_timeout_seconds, timeout_seconds, max_retries, concurrency, chat,
            user_data),
        "grappi_run_options" => layout!(grappi_run_options; version, model, cancel, progress, user_data),
        "grappi_budget_options" => layout!(grappi_budget_options; max_calls, max_tokens, dry_run, use_cache),
        "grappi_explore_options" => layout!(grappi_explore_options; version, windows, window_count, k, k_count, depth,
            min_score, max_length, max_paths, top, explain_top, concurrency, budget, diversity, max_visited, run),
        "grappi_ground_options" => layout!(grappi_ground_options; version, strategy, root, relations, relation_count,
            batch, chunk_size, chunk_overlap, patience, lookahead, threshold, rag_k, seed, budget, ontology, run),
        "grappi_extract_options" => layout!(grappi_extract_options; version, format, name, repair, annotations_only,
            taxon, min_passage_chars, budget, concurrency, include_flagged, bel_path, cx2_path, import_statements, run),
        "grappi_cooc_options" => layout!(grappi_cooc_options; version, format, name, scope, titles, types, type_count,
            min_count, as_of, dictionary, path),
        "grappi_hypothesis_options" => layout!(grappi_hypothesis_options; version, relations, relation_count,
            max_length, paths, mask_direct, intermediate_labels, intermediate_label_count, context, rounds,
            support_relations, support_relation_count, corpus_format, budget, embedding_weight, embedding_model, ranker,
            generic_intermediates, max_intermediate_share, fold_reorderings, run, shortest_rounds),
        "grappi_eval_hypotheses_options" => layout!(grappi_eval_hypotheses_options; version, corpus_format, splits,
            split_count, as_of, paths, pairs, top, explain, scoring, min_positives, bootstrap, seed, scope, min_count,
            ranker, work_dir, hypothesis, after_corpus),
        "grappi_ask_options" => layout!(grappi_ask_options; version, context, max_context_tokens, answers,
            keep_question_entities, repair, weighted_relations, relation_weights, relation_weight_count,
            embedding_model, budget, reader, reader_name, intents, model_intent, intent_candidates, papers, run),
        "grappi_reader_options" => layout!(grappi_reader_options; version, name, scope, epochs, layers, hidden, heads,
            head_hidden, dropout, learning_rate, weight_decay, batch, patience, valid_share, seed, threads, max_nodes,
            run),
        "grappi_pcst_options" => layout!(grappi_pcst_options; version, root, num_clusters, pruning, improve,
            event_order),
        "grappi_pcst_result" => layout!(grappi_pcst_result; version, nodes, num_nodes, edges, num_edges, objective,
            net_worth, objective_before_improve, improve_rounds),
        _ => None,
    }
}
