"""ctypes mirrors of grappi.h's structs and callback types, written by tools/gen_bindings.py
from the header: do not edit. The tests compare their layouts with the C compiler's
(_MIRRORS); _VERSIONS holds the version each struct is written at."""
import ctypes


class _OpenOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("read_only", ctypes.c_int32), ("create", ctypes.c_int32),
                ("busy_timeout_ms", ctypes.c_int32)]


class _ImportOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("min_score", ctypes.c_int32), ("skip_bad_lines", ctypes.c_int32),
                ("max_bad_examples", ctypes.c_uint32), ("max_rows", ctypes.c_uint64), ("taxon", ctypes.c_int64),
                ("source_column", ctypes.c_char_p), ("target_column", ctypes.c_char_p),
                ("score_column", ctypes.c_char_p), ("score_scale", ctypes.c_double),
                ("relation_column", ctypes.c_char_p), ("relation", ctypes.c_char_p), ("directed", ctypes.c_int32),
                ("header", ctypes.c_int32), ("label", ctypes.c_char_p), ("separator", ctypes.c_int32)]


class _ExportOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("relations", ctypes.POINTER(ctypes.c_char_p)),
                ("relation_count", ctypes.c_size_t), ("min_score", ctypes.c_double),
                ("nodes", ctypes.POINTER(ctypes.c_char_p)), ("node_count", ctypes.c_size_t), ("khop", ctypes.c_char_p),
                ("hops", ctypes.c_size_t)]


_EMBED_FN = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t,
                            ctypes.POINTER(ctypes.c_float), ctypes.c_size_t)


class _EmbedOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("embedder", ctypes.c_char_p), ("dimension", ctypes.c_size_t),
                ("base_url", ctypes.c_char_p), ("model", ctypes.c_char_p), ("api_key_env", ctypes.c_char_p),
                ("callback", _EMBED_FN), ("user_data", ctypes.c_void_p)]


class _WindowOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("k", ctypes.POINTER(ctypes.c_size_t)), ("k_count", ctypes.c_size_t),
                ("depth", ctypes.c_size_t), ("window", ctypes.c_size_t), ("min_score", ctypes.c_double),
                ("max_path_length", ctypes.c_size_t), ("max_paths", ctypes.c_size_t)]


class _RetrieveOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("mode", ctypes.c_char_p), ("seeds", ctypes.c_size_t),
                ("hops", ctypes.c_size_t), ("degree_cap", ctypes.c_size_t), ("node_budget", ctypes.c_size_t),
                ("min_score", ctypes.c_double), ("topk", ctypes.c_size_t), ("topk_e", ctypes.c_size_t),
                ("cost_e", ctypes.c_double), ("pyg_cap", ctypes.c_int32), ("alpha", ctypes.c_double),
                ("beta", ctypes.c_double), ("gamma", ctypes.c_double), ("lambda", ctypes.c_double),
                ("pruning", ctypes.c_char_p), ("num_clusters", ctypes.c_int32), ("event_order", ctypes.c_int32),
                ("relations", ctypes.POINTER(ctypes.c_char_p)), ("relation_count", ctypes.c_size_t)]


class _EnrichOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("categories", ctypes.POINTER(ctypes.c_char_p)),
                ("category_count", ctypes.c_size_t), ("exclude_evidence", ctypes.POINTER(ctypes.c_char_p)),
                ("exclude_evidence_count", ctypes.c_size_t), ("background", ctypes.c_char_p),
                ("background_proteins", ctypes.POINTER(ctypes.c_char_p)), ("background_protein_count", ctypes.c_size_t),
                ("min_term_size", ctypes.c_size_t), ("max_term_size", ctypes.c_size_t), ("max_fdr", ctypes.c_double)]


class _ClusterOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("method", ctypes.c_char_p), ("min_score", ctypes.c_double),
                ("relations", ctypes.POINTER(ctypes.c_char_p)), ("relation_count", ctypes.c_size_t),
                ("inflation", ctypes.c_double), ("max_iterations", ctypes.c_size_t), ("resolution", ctypes.c_double),
                ("seed", ctypes.c_uint64), ("runs", ctypes.c_size_t), ("max_cluster_size", ctypes.c_size_t),
                ("max_levels", ctypes.c_size_t), ("terms", ctypes.c_size_t), ("enrich_min_size", ctypes.c_size_t),
                ("max_fdr", ctypes.c_double)]


_CHAT_FN = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)


class _ModelOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("llm", ctypes.c_char_p), ("base_url", ctypes.c_char_p),
                ("model", ctypes.c_char_p), ("api_key_env", ctypes.c_char_p), ("temperature", ctypes.c_double),
                ("max_answer_tokens", ctypes.c_int32), ("json_mode", ctypes.c_int32),
                ("connect_timeout_seconds", ctypes.c_double), ("timeout_seconds", ctypes.c_double),
                ("max_retries", ctypes.c_int32), ("concurrency", ctypes.c_size_t), ("chat", _CHAT_FN),
                ("user_data", ctypes.c_void_p)]


_CANCEL_FN = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p)


_PROGRESS_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t)


class _RunOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("model", ctypes.c_void_p), ("cancel", _CANCEL_FN),
                ("progress", _PROGRESS_FN), ("user_data", ctypes.c_void_p)]


class _BudgetOptions(ctypes.Structure):
    _fields_ = [("max_calls", ctypes.c_size_t), ("max_tokens", ctypes.c_int64), ("dry_run", ctypes.c_int32),
                ("use_cache", ctypes.c_int32)]


class _ExploreOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("windows", ctypes.POINTER(ctypes.c_size_t)),
                ("window_count", ctypes.c_size_t), ("k", ctypes.POINTER(ctypes.c_size_t)), ("k_count", ctypes.c_size_t),
                ("depth", ctypes.c_size_t), ("min_score", ctypes.c_double), ("max_length", ctypes.c_size_t),
                ("max_paths", ctypes.c_size_t), ("top", ctypes.c_size_t), ("explain_top", ctypes.c_size_t),
                ("concurrency", ctypes.c_size_t), ("budget", _BudgetOptions), ("diversity", ctypes.c_double),
                ("max_visited", ctypes.c_size_t), ("run", ctypes.POINTER(_RunOptions))]


class _GroundOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("strategy", ctypes.c_char_p), ("root", ctypes.c_char_p),
                ("relations", ctypes.POINTER(ctypes.c_char_p)), ("relation_count", ctypes.c_size_t),
                ("batch", ctypes.c_size_t), ("chunk_size", ctypes.c_size_t), ("chunk_overlap", ctypes.c_size_t),
                ("patience", ctypes.c_size_t), ("lookahead", ctypes.c_size_t), ("threshold", ctypes.c_int32),
                ("rag_k", ctypes.c_size_t), ("seed", ctypes.c_uint64), ("budget", _BudgetOptions),
                ("ontology", ctypes.c_char_p), ("run", ctypes.POINTER(_RunOptions))]


class _ExtractOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("format", ctypes.c_char_p), ("name", ctypes.c_char_p),
                ("repair", ctypes.c_int32), ("annotations_only", ctypes.c_int32), ("taxon", ctypes.c_int64),
                ("min_passage_chars", ctypes.c_size_t), ("budget", _BudgetOptions), ("concurrency", ctypes.c_size_t),
                ("include_flagged", ctypes.c_int32), ("bel_path", ctypes.c_char_p), ("cx2_path", ctypes.c_char_p),
                ("import_statements", ctypes.c_int32), ("run", ctypes.POINTER(_RunOptions))]


class _CoocOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("format", ctypes.c_char_p), ("name", ctypes.c_char_p),
                ("scope", ctypes.c_char_p), ("titles", ctypes.c_char_p), ("types", ctypes.POINTER(ctypes.c_char_p)),
                ("type_count", ctypes.c_size_t), ("min_count", ctypes.c_size_t), ("as_of", ctypes.c_int32),
                ("dictionary", ctypes.c_int32), ("path", ctypes.c_char_p)]


class _HypothesisOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("relations", ctypes.POINTER(ctypes.c_char_p)),
                ("relation_count", ctypes.c_size_t), ("max_length", ctypes.c_size_t), ("paths", ctypes.c_size_t),
                ("mask_direct", ctypes.c_int32), ("intermediate_labels", ctypes.POINTER(ctypes.c_char_p)),
                ("intermediate_label_count", ctypes.c_size_t), ("context", ctypes.c_size_t),
                ("rounds", ctypes.c_size_t), ("support_relations", ctypes.POINTER(ctypes.c_char_p)),
                ("support_relation_count", ctypes.c_size_t), ("corpus_format", ctypes.c_char_p),
                ("budget", _BudgetOptions), ("embedding_weight", ctypes.c_double), ("embedding_model", ctypes.c_char_p),
                ("ranker", ctypes.c_char_p), ("generic_intermediates", ctypes.c_int32),
                ("max_intermediate_share", ctypes.c_double), ("fold_reorderings", ctypes.c_int32),
                ("run", ctypes.POINTER(_RunOptions)), ("shortest_rounds", ctypes.c_size_t)]


class _EvalHypothesesOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("corpus_format", ctypes.c_char_p),
                ("splits", ctypes.POINTER(ctypes.c_double)), ("split_count", ctypes.c_size_t),
                ("as_of", ctypes.c_int32), ("paths", ctypes.c_size_t), ("pairs", ctypes.c_size_t),
                ("top", ctypes.c_size_t), ("explain", ctypes.c_size_t), ("scoring", ctypes.c_char_p),
                ("min_positives", ctypes.c_size_t), ("bootstrap", ctypes.c_size_t), ("seed", ctypes.c_uint64),
                ("scope", ctypes.c_char_p), ("min_count", ctypes.c_size_t), ("ranker", ctypes.c_char_p),
                ("work_dir", ctypes.c_char_p), ("hypothesis", ctypes.POINTER(_HypothesisOptions)),
                ("after_corpus", ctypes.c_char_p)]


class _AskOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("context", ctypes.c_char_p), ("max_context_tokens", ctypes.c_size_t),
                ("answers", ctypes.c_size_t), ("keep_question_entities", ctypes.c_int32), ("repair", ctypes.c_int32),
                ("weighted_relations", ctypes.POINTER(ctypes.c_char_p)),
                ("relation_weights", ctypes.POINTER(ctypes.c_double)), ("relation_weight_count", ctypes.c_size_t),
                ("embedding_model", ctypes.c_char_p), ("budget", _BudgetOptions), ("reader", ctypes.c_char_p),
                ("reader_name", ctypes.c_char_p), ("intents", ctypes.c_int32), ("model_intent", ctypes.c_int32),
                ("intent_candidates", ctypes.c_size_t), ("papers", ctypes.c_size_t),
                ("run", ctypes.POINTER(_RunOptions))]


class _ReaderOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("name", ctypes.c_char_p), ("scope", ctypes.c_char_p),
                ("epochs", ctypes.c_size_t), ("layers", ctypes.c_size_t), ("hidden", ctypes.c_size_t),
                ("heads", ctypes.c_size_t), ("head_hidden", ctypes.c_size_t), ("dropout", ctypes.c_double),
                ("learning_rate", ctypes.c_double), ("weight_decay", ctypes.c_double), ("batch", ctypes.c_size_t),
                ("patience", ctypes.c_size_t), ("valid_share", ctypes.c_double), ("seed", ctypes.c_uint64),
                ("threads", ctypes.c_uint32), ("max_nodes", ctypes.c_size_t), ("run", ctypes.POINTER(_RunOptions))]


class _PcstOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("root", ctypes.c_int64), ("num_clusters", ctypes.c_int32),
                ("pruning", ctypes.c_char_p), ("improve", ctypes.c_int32), ("event_order", ctypes.c_int32)]


class _PcstResult(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("nodes", ctypes.POINTER(ctypes.c_int64)), ("num_nodes", ctypes.c_size_t),
                ("edges", ctypes.POINTER(ctypes.c_int64)), ("num_edges", ctypes.c_size_t),
                ("objective", ctypes.c_double), ("net_worth", ctypes.c_double),
                ("objective_before_improve", ctypes.c_double), ("improve_rounds", ctypes.c_int32)]


_MIRRORS = {
    "grappi_open_options": _OpenOptions,
    "grappi_import_options": _ImportOptions,
    "grappi_export_options": _ExportOptions,
    "grappi_embed_options": _EmbedOptions,
    "grappi_window_options": _WindowOptions,
    "grappi_retrieve_options": _RetrieveOptions,
    "grappi_enrich_options": _EnrichOptions,
    "grappi_cluster_options": _ClusterOptions,
    "grappi_model_options": _ModelOptions,
    "grappi_run_options": _RunOptions,
    "grappi_budget_options": _BudgetOptions,
    "grappi_explore_options": _ExploreOptions,
    "grappi_ground_options": _GroundOptions,
    "grappi_extract_options": _ExtractOptions,
    "grappi_cooc_options": _CoocOptions,
    "grappi_hypothesis_options": _HypothesisOptions,
    "grappi_eval_hypotheses_options": _EvalHypothesesOptions,
    "grappi_ask_options": _AskOptions,
    "grappi_reader_options": _ReaderOptions,
    "grappi_pcst_options": _PcstOptions,
    "grappi_pcst_result": _PcstResult,
}
_VERSIONS = {
    "grappi_open_options": 1,
    "grappi_import_options": 1,
    "grappi_export_options": 1,
    "grappi_embed_options": 1,
    "grappi_window_options": 1,
    "grappi_retrieve_options": 1,
    "grappi_enrich_options": 1,
    "grappi_cluster_options": 1,
    "grappi_model_options": 1,
    "grappi_run_options": 1,
    "grappi_explore_options": 1,
    "grappi_ground_options": 1,
    "grappi_extract_options": 1,
    "grappi_cooc_options": 1,
    "grappi_hypothesis_options": 1,
    "grappi_eval_hypotheses_options": 1,
    "grappi_ask_options": 1,
    "grappi_reader_options": 1,
    "grappi_pcst_options": 1,
    "grappi_pcst_result": 1,
}
