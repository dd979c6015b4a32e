"""Python bindings for grappi's C API, through ctypes (standard library only).

The shared library is looked up in $GRAPPI_LIB (a path to libgrappi_c.so, which is
self-contained: it loads from any directory), then in the package itself (the wheel bundles it
as grappi/lib/libgrappi_c.so), then by the linker (ctypes.util.find_library). Every failing call raises grappi.Error with the
library's status code and message. Library-allocated strings are copied and freed at once.

    import grappi
    with grappi.Graph("kg.db", create=True) as g:
        g.import_file("data/4932.protein.info.v12.0.txt.gz", kind="info")
        for n in g.neighbors("CDC28", min_score=0.9): print(n["name"], n["score"])  # strongest first

Every method that takes a node takes a name, an alias, an external id (str) or a node id (int).
Results are plain dicts and lists; those holding a table offer to_pandas() and those holding a
network to_networkx() (with pandas / networkx importable: Debian's python3-pandas and
python3-networkx, reached from a venv made with --system-site-packages); explore and ask results
show their report's drawing in Jupyter.
"""
import ctypes
import ctypes.util
import html as _html
import importlib
import json
import os
import sys

from grappi._about import __version__

__all__ = ["Error", "Graph", "Model", "PcstSolver", "Result", "Rows", "version", "pcst_solve", "bel_validate",
           "eval_hypotheses"]


def __dir__():
    """The module's public names only (its imports and ctypes declarations are not its API)."""
    return sorted(__all__ + ["__version__"])

_i64 = ctypes.c_int64
_size = ctypes.c_size_t
_status = ctypes.c_int32
GRAPPI_EBUFS = -11


def _library_path():
    path = os.environ.get("GRAPPI_LIB")
    if path:
        return path
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib", "libgrappi_c.so")
    if os.path.exists(bundled):
        return bundled
    return ctypes.util.find_library("grappi_c")


def _load():
    path = _library_path()
    if not path:
        raise OSError("libgrappi_c not found: install the grappi wheel, or set GRAPPI_LIB to the library's path")
    return ctypes.CDLL(path)


_lib = _load()


class Error(Exception):
    """A grappi failure: .status is the grappi_status code, str() the library's message."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def _fn(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_last_error = _fn("grappi_last_error_message", ctypes.c_char_p)
_version = _fn("grappi_version_string", ctypes.c_char_p)
_free = _fn("grappi_free", None, ctypes.c_void_p)
_open = _fn("grappi_graph_open", _status, ctypes.c_char_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p))
_close = _fn("grappi_graph_free", None, ctypes.c_void_p)
_import = _fn("grappi_graph_import", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p)
_resolve = _fn("grappi_graph_resolve", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(_i64))
_neighbors_json = _fn("grappi_graph_neighbors_json", _status, ctypes.c_void_p, ctypes.c_char_p, _i64, ctypes.c_double,
                     ctypes.POINTER(ctypes.c_char_p), _size, _size, ctypes.POINTER(ctypes.c_void_p))
_neighbors = _fn("grappi_graph_neighbors", _status, ctypes.c_void_p, _i64, ctypes.c_double, ctypes.POINTER(_i64),
                 ctypes.POINTER(ctypes.c_double), _size, ctypes.POINTER(_size))
_counts = _fn("grappi_graph_counts", _status, ctypes.c_void_p, ctypes.POINTER(_i64), ctypes.POINTER(_i64))
_node_name = _fn("grappi_graph_node_name", _status, ctypes.c_void_p, _i64, ctypes.POINTER(ctypes.c_void_p))
_search = _fn("grappi_graph_search", _status, ctypes.c_void_p, ctypes.c_char_p, _size, ctypes.POINTER(_i64),
              ctypes.POINTER(ctypes.c_float), _size, ctypes.POINTER(_size))
_window = _fn("grappi_graph_window_json", _status, ctypes.c_void_p, _i64, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p))
_paths = _fn("grappi_graph_paths_json", _status, ctypes.c_void_p, _i64, _i64, _size, _size, ctypes.c_int32,
             ctypes.POINTER(ctypes.c_void_p))
_all_shortest = _fn("grappi_graph_all_shortest_paths_json", _status, ctypes.c_void_p, _i64, _i64, _size, _size,
                    ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p))
_khop = _fn("grappi_graph_khop_json", _status, ctypes.c_void_p, ctypes.c_char_p, _size, _size, _size,
            ctypes.POINTER(ctypes.c_void_p))
_edges = _fn("grappi_graph_edges_json", _status, ctypes.c_void_p, _i64, _i64, ctypes.POINTER(ctypes.c_void_p))
_ontology = _fn("grappi_graph_ontology_json", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), _size, ctypes.POINTER(ctypes.c_void_p))
_bel_validate = _fn("grappi_bel_validate", _status, ctypes.c_char_p, ctypes.c_uint32, ctypes.POINTER(ctypes.c_void_p),
                    ctypes.POINTER(_size))
_graph_bel_validate = _fn("grappi_graph_bel_validate", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint32,
                          ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(_size))
_pagerank = _fn("grappi_graph_pagerank", _status, ctypes.c_void_p, ctypes.POINTER(_i64), _size, ctypes.c_double,
                ctypes.POINTER(_i64), ctypes.POINTER(ctypes.c_double), _size, ctypes.POINTER(_size))

# Event orders of the PCST solver (GRAPPI_PCST_ORDER_* of grappi.h).
_PCST_ORDERS = {"default": 0, "fast": 1, "reference": 2}


# Mirrors of grappi.h's structs and callback types, written by tools/gen_bindings.py from the
# header (_structs.py: a test regenerates it and finds no difference); the tests compare their
# layouts with the C compiler's (_MIRRORS) and the versions with the header's (_VERSIONS).
from grappi._structs import (_CANCEL_FN, _CHAT_FN, _MIRRORS, _PROGRESS_FN, _VERSIONS,  # noqa: E402
                             _AskOptions, _ClusterOptions, _CoocOptions, _EmbedOptions, _EnrichOptions,
                             _EvalHypothesesOptions, _ExploreOptions, _ExportOptions, _ExtractOptions,
                             _GroundOptions, _HypothesisOptions, _ImportOptions, _ModelOptions, _OpenOptions,
                             _PcstOptions, _PcstResult, _ReaderOptions, _RetrieveOptions, _RunOptions,
                             _WindowOptions)

_run_init = _fn("grappi_run_options_init", _status, ctypes.POINTER(_RunOptions), ctypes.c_uint32)


def _run_options(cancel, progress, model=None):
    """A grappi_run_options with the caller's cancel and progress functions and model (a Model),
    and the objects that must stay alive while the run lasts (None when none is given). An
    exception in cancel stops the run; one in progress is ignored."""
    if cancel is None and progress is None and model is None:
        return None
    r = _RunOptions()
    _check(_run_init(ctypes.byref(r), _VERSIONS["grappi_run_options"]))
    if model is not None:
        r.model = model._handle()

    def on_cancel(_user):
        try:
            return 1 if cancel() else 0
        except Exception:  # noqa: BLE001 - a failing cancel function stops the run
            return 1

    def on_progress(_user, stage, done, total):
        try:
            progress(stage.decode(), done, total)
        except Exception:  # noqa: BLE001 - progress is advisory
            pass

    keep = [model]
    if cancel is not None:
        keep.append(_CANCEL_FN(on_cancel))
        r.cancel = keep[-1]
    if progress is not None:
        keep.append(_PROGRESS_FN(on_progress))
        r.progress = keep[-1]
    return r, keep


_embed_init = _fn("grappi_embed_options_init", _status, ctypes.POINTER(_EmbedOptions), ctypes.c_uint32)
_embed = _fn("grappi_graph_embed", _status, ctypes.c_void_p, ctypes.POINTER(_EmbedOptions), ctypes.POINTER(_size))
_embed_plan = _fn("grappi_graph_embed_plan_json", _status, ctypes.c_void_p, ctypes.POINTER(_EmbedOptions), ctypes.c_char_p,
                  ctypes.POINTER(ctypes.c_void_p))
_embed_part = _fn("grappi_graph_embed_part_json", _status, ctypes.c_void_p, ctypes.c_char_p, _size, _size, ctypes.c_char_p,
                  ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p))
_embed_merge = _fn("grappi_graph_embed_merge_json", _status, ctypes.c_void_p, ctypes.c_char_p,
                   ctypes.POINTER(ctypes.c_char_p), _size, ctypes.POINTER(ctypes.c_void_p))
_export_init = _fn("grappi_export_options_init", _status, ctypes.POINTER(_ExportOptions), ctypes.c_uint32)
_export_selection = _fn("grappi_graph_export_selection", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                        ctypes.POINTER(_ExportOptions), ctypes.POINTER(ctypes.c_uint64),
                        ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint64))
_import_init = _fn("grappi_import_options_init", _status, ctypes.POINTER(_ImportOptions), ctypes.c_uint32)
_import_with = _fn("grappi_graph_import_with", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                   ctypes.POINTER(_ImportOptions), ctypes.POINTER(ctypes.c_void_p))
_window_init = _fn("grappi_window_options_init", _status, ctypes.POINTER(_WindowOptions), ctypes.c_uint32)
_enrich_init = _fn("grappi_enrich_options_init", _status, ctypes.POINTER(_EnrichOptions), ctypes.c_uint32)
_enrich = _fn("grappi_graph_enrich_json", _status, ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), _size,
              ctypes.POINTER(_EnrichOptions), ctypes.POINTER(ctypes.c_void_p))
_cluster_init = _fn("grappi_cluster_options_init", _status, ctypes.POINTER(_ClusterOptions), ctypes.c_uint32)
_cluster = _fn("grappi_graph_cluster_json", _status, ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), _size,
               ctypes.POINTER(_ClusterOptions), ctypes.POINTER(ctypes.c_void_p))
_build_communities = _fn("grappi_graph_build_communities_json", _status, ctypes.c_void_p, ctypes.c_char_p,
                         ctypes.POINTER(_ClusterOptions), ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p))
_communities = _fn("grappi_graph_communities_json", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p))
_ppi_enrichment = _fn("grappi_graph_ppi_enrichment_json", _status, ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), _size,
                      ctypes.c_double, ctypes.POINTER(ctypes.c_char_p), _size, ctypes.POINTER(ctypes.c_void_p))
_retrieve_init = _fn("grappi_retrieve_options_init", _status, ctypes.POINTER(_RetrieveOptions), ctypes.c_uint32)
_retrieve_json = _fn("grappi_graph_retrieve_json", _status, ctypes.c_void_p, ctypes.c_char_p,
                     ctypes.POINTER(_RetrieveOptions), ctypes.POINTER(ctypes.c_void_p))
_retrieve_csv = _fn("grappi_graph_retrieve_csv", _status, ctypes.c_void_p, ctypes.c_char_p,
                    ctypes.POINTER(_RetrieveOptions), ctypes.POINTER(ctypes.c_void_p))
_ground_init = _fn("grappi_ground_options_init", _status, ctypes.POINTER(_GroundOptions), ctypes.c_uint32)
_ground = _fn("grappi_graph_ground_json", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
              ctypes.POINTER(_GroundOptions), ctypes.POINTER(ctypes.c_void_p))
_extract_init = _fn("grappi_extract_options_init", _status, ctypes.POINTER(_ExtractOptions), ctypes.c_uint32)
_extract_part = _fn("grappi_graph_extract_part_json", _status, ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), _size,
                    ctypes.POINTER(_ExtractOptions), ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p))
_extract_merge = _fn("grappi_graph_extract_merge_json", _status, ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), _size,
                     ctypes.POINTER(_ExtractOptions), ctypes.POINTER(ctypes.c_void_p))
_extract = _fn("grappi_graph_extract_json", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(_ExtractOptions),
               ctypes.POINTER(ctypes.c_void_p))
_cooc_init = _fn("grappi_cooc_options_init", _status, ctypes.POINTER(_CoocOptions), ctypes.c_uint32)
_open_init = _fn("grappi_open_options_init", _status, ctypes.POINTER(_OpenOptions), ctypes.c_uint32)
_cooc_partial = _fn("grappi_graph_cooc_partial_json", _status, ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), _size,
                    ctypes.POINTER(_CoocOptions), ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p))
_cooc_merge = _fn("grappi_graph_cooc_merge_json", _status, ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), _size,
                  ctypes.POINTER(_CoocOptions), ctypes.POINTER(ctypes.c_void_p))
_cooc_build = _fn("grappi_graph_cooc_build_json", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(_CoocOptions),
                  ctypes.POINTER(ctypes.c_void_p))
_ask_init = _fn("grappi_ask_options_init", _status, ctypes.POINTER(_AskOptions), ctypes.c_uint32)
_ask = _fn("grappi_graph_ask_json", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(_RetrieveOptions),
           ctypes.POINTER(_AskOptions), ctypes.POINTER(ctypes.c_void_p))
_analyze_question = _fn("grappi_graph_analyze_question_json", _status, ctypes.c_void_p, ctypes.c_char_p,
                        ctypes.POINTER(ctypes.c_void_p))
_eval_qa = _fn("grappi_graph_eval_qa_json", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(_RetrieveOptions),
               ctypes.POINTER(_AskOptions), _size, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p))
_reader_init = _fn("grappi_reader_options_init", _status, ctypes.POINTER(_ReaderOptions), ctypes.c_uint32)
_train_reader = _fn("grappi_graph_train_reader_json", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                    ctypes.POINTER(_RetrieveOptions), ctypes.POINTER(_AskOptions), ctypes.POINTER(_ReaderOptions),
                    ctypes.POINTER(ctypes.c_void_p))
_reader_scores = _fn("grappi_graph_reader_scores_json", _status, ctypes.c_void_p, ctypes.c_char_p,
                     ctypes.POINTER(_RetrieveOptions), ctypes.POINTER(_AskOptions), ctypes.POINTER(ctypes.c_void_p))
_hypothesis_init = _fn("grappi_hypothesis_options_init", _status, ctypes.POINTER(_HypothesisOptions), ctypes.c_uint32)
_hypothesize = _fn("grappi_graph_hypothesize_json", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                   ctypes.c_char_p, ctypes.POINTER(_HypothesisOptions), ctypes.POINTER(ctypes.c_void_p))
_eval_hypotheses_init = _fn("grappi_eval_hypotheses_options_init", _status, ctypes.POINTER(_EvalHypothesesOptions),
                            ctypes.c_uint32)
_eval_hypotheses = _fn("grappi_eval_hypotheses_json", _status, ctypes.c_void_p, ctypes.c_char_p,
                       ctypes.POINTER(_EvalHypothesesOptions), ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p))
_explore_init = _fn("grappi_explore_options_init", _status, ctypes.POINTER(_ExploreOptions), ctypes.c_uint32)
_explore = _fn("grappi_graph_explore_json", _status, ctypes.c_void_p, _i64, ctypes.c_char_p,
               ctypes.POINTER(_ExploreOptions), ctypes.POINTER(ctypes.c_void_p))
_explore_report = _fn("grappi_graph_explore_report", _status, ctypes.c_void_p, _i64, ctypes.c_char_p,
                      ctypes.POINTER(_ExploreOptions), ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p))
_ask_report = _fn("grappi_graph_ask_report", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(_RetrieveOptions),
                  ctypes.POINTER(_AskOptions), ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p))
_report_html = _fn("grappi_report_html", _status, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p))
_import_review = _fn("grappi_graph_import_review_json", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                     ctypes.POINTER(ctypes.c_void_p))
_search_papers = _fn("grappi_graph_search_papers_json", _status, ctypes.c_void_p, ctypes.c_char_p, _size,
                     ctypes.POINTER(ctypes.c_void_p))
_train_ranker = _fn("grappi_graph_train_ranker_json", _status, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                    ctypes.c_char_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p))
_complete = _fn("grappi_graph_complete_json", _status, ctypes.c_void_p, ctypes.c_char_p, _size, ctypes.POINTER(ctypes.c_void_p))
_reply_set = _fn("grappi_chat_reply_set", _status, ctypes.c_void_p, ctypes.c_char_p, _i64, _i64)
_reply_error = _fn("grappi_chat_reply_set_error", _status, ctypes.c_void_p, ctypes.c_char_p)
_pcst_options_init = _fn("grappi_pcst_options_init", _status, ctypes.POINTER(_PcstOptions), ctypes.c_uint32)
_pcst_new = _fn("grappi_pcst_solver_new", _status, ctypes.POINTER(ctypes.c_void_p))
_pcst_free = _fn("grappi_pcst_solver_free", None, ctypes.c_void_p)
_pcst_solve = _fn("grappi_pcst_solver_solve", _status, ctypes.c_void_p, _size, ctypes.POINTER(ctypes.c_double), _size,
                  ctypes.POINTER(_i64), ctypes.POINTER(ctypes.c_double), ctypes.POINTER(_PcstOptions),
                  ctypes.POINTER(_PcstResult))


def _strings(items):
    """A C array of UTF-8 strings and its count (grappi.h's lists); (None, 0) for none."""
    names = [s.encode() for s in (items or [])]
    if not names:
        return None, 0
    return (ctypes.c_char_p * len(names))(*names), len(names)


def _options(name, init):
    """A mirrored options struct of grappi.h filled with the library's defaults."""
    o = _MIRRORS[name]()
    _check(init(ctypes.byref(o), _VERSIONS[name]))
    return o


def _event_order(order):
    if order not in _PCST_ORDERS:
        raise Error(-1, "event order must be one of %s, not %r" % (sorted(_PCST_ORDERS), order))
    return _PCST_ORDERS[order]


def _check(status):
    if status != 0:
        raise Error(status, _last_error().decode("utf-8", "replace"))


def _take_string(ptr):
    try:
        return ctypes.string_at(ptr.value).decode("utf-8")
    finally:
        _free(ptr)


def _set_model(o, llm, base_url, model, api_key_env, chat, cancel=None, progress=None, concurrency=8):
    """Sets the run of explore, ground, extract, hypothesis or ask options: the model (llm: a Model,
    or the kind of one made for this call with base_url, model, api_key_env, chat and concurrency),
    cancel and progress. Returns what must stay referenced during the call."""
    if not isinstance(llm, Model):
        llm = Model(llm, base_url=base_url, model=model, api_key_env=api_key_env, concurrency=concurrency, chat=chat)
    run = _run_options(cancel, progress, llm)
    o.run = ctypes.pointer(run[0])
    return llm, run


def _set_budget(o, max_calls=0, max_tokens=0, dry_run=False, use_cache=True):
    """Sets the budget of explore, ground, extract, hypothesis or ask options."""
    b = o.budget
    b.max_calls, b.max_tokens = max_calls, max_tokens
    b.dry_run, b.use_cache = 1 if dry_run else 0, 1 if use_cache else 0


def _chat_callback(chat):
    """A C chat callback calling chat(request dict) -> text or (text, prompt_tokens,
    completion_tokens); an exception fails that one request. Keep it referenced during the call."""
    def trampoline(_user, request, reply):
        try:
            answer = chat(json.loads(request.decode("utf-8")))
            if isinstance(answer, tuple):
                text, pt, ct = answer
            else:
                text, pt, ct = answer, 0, 0
            return 0 if _reply_set(reply, text.encode("utf-8"), pt, ct) == 0 else 1
        except Exception as e:  # noqa: BLE001 - reported as this request's failure
            _reply_error(reply, ("%s: %s" % (type(e).__name__, e)).encode("utf-8", "replace"))
            return 1
    return _CHAT_FN(trampoline)


def version():
    return _version().decode()


def report_html(view):
    """A self-contained HTML page (str) of a report view (a dict or JSON text: "nodes", "edges",
    "items"; docs/web.md "HTML reports")."""
    p = ctypes.c_void_p()
    _check(_report_html((view if isinstance(view, str) else json.dumps(view)).encode(), ctypes.byref(p)))
    return _take_string(p)


def _write_html(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def bel_validate(text, long_form=False, allow_unknown_namespaces=False):
    """Checks BEL 2.1 (a BEL script or statements one per line): a dict with "problems" (line,
    column, severity, code, message), "statements", "valid_statements", "errors" and per
    statement "results" (canonical form, citation, evidence, annotations)."""
    flags = (1 if long_form else 0) | (2 if allow_unknown_namespaces else 0)
    p = ctypes.c_void_p()
    _check(_bel_validate(text.encode(), flags, ctypes.byref(p), None))
    return json.loads(_take_string(p))


_model_init = _fn("grappi_model_options_init", _status, ctypes.POINTER(_ModelOptions), ctypes.c_uint32)
_model_new = _fn("grappi_model_new", _status, ctypes.POINTER(_ModelOptions), ctypes.POINTER(ctypes.c_void_p))
_model_free = _fn("grappi_model_free", None, ctypes.c_void_p)
_model_describe = _fn("grappi_model_describe_json", _status, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p))


def eval_hypotheses(corpus, corpus_format="detect", split=None, splits=None, as_of=0, paths=50, pairs=200, top=10,
                    explain=20, scoring="prior", min_positives=100, bootstrap=1000, seed=1, scope="document",
                    min_count=1, graph=None, ranker=None, max_length=4, shortest_rounds=0, generic_intermediates=False,
                    llm="extractive", base_url=None, model=None, api_key_env=None, chat=None, max_calls=0,
                    work_dir=None, cancel=None, progress=None, after=None):
    """Hypothesis paths by the temporal protocol (grappi eval hypotheses) on a corpus (its text):
    (summary dict, list of per-pair dicts). The summary has grappi's ROC AUCs beside the
    baselines' on the same paths and labels, and "differences": grappi's figures minus each
    baseline's with 95% intervals over bootstrap resamples of the pairs. splits (several
    shares) gives {"splits", "means"} and no pairs (an empty list); ranker scores with a path
    ranker stored in graph (a Graph). after (a text, in the same format) is the split instead:
    corpus builds the graph, after's documents label the pairs (a corpus's train before its dev)."""
    if split is not None and splits is not None:
        raise ValueError("eval_hypotheses: give split or splits, not both")
    shares = [split] if split is not None else list(splits or [])
    o = _options("grappi_eval_hypotheses_options", _eval_hypotheses_init)
    h = _options("grappi_hypothesis_options", _hypothesis_init)
    arr = (ctypes.c_double * max(len(shares), 1))(*shares)
    o.corpus_format, o.splits, o.split_count, o.as_of = corpus_format.encode(), arr, len(shares), as_of
    o.paths, o.pairs, o.top, o.explain, o.scoring = paths, pairs, top, explain, scoring.encode()
    o.min_positives, o.bootstrap, o.seed, o.scope, o.min_count = min_positives, bootstrap, seed, scope.encode(), min_count
    o.ranker = ranker.encode() if ranker is not None else None
    o.work_dir = os.fsencode(work_dir) if work_dir is not None else None
    o.after_corpus = after.encode() if after is not None else None
    h.max_length, h.shortest_rounds = max_length, shortest_rounds
    _set_budget(h, max_calls=max_calls)
    h.generic_intermediates = 1 if generic_intermediates else 0
    keep = _set_model(h, llm, base_url, model, api_key_env, chat, cancel, progress)  # noqa: F841 - kept alive for the call
    o.hypothesis = ctypes.pointer(h)
    p, rows = ctypes.c_void_p(), ctypes.c_void_p()
    several = len(shares) > 1
    _check(_eval_hypotheses(graph._handle() if graph is not None else None, corpus.encode(), ctypes.byref(o),
                            ctypes.byref(p), None if several else ctypes.byref(rows)))
    summary = json.loads(_take_string(p))
    return summary, ([] if several else [json.loads(line) for line in _take_string(rows).splitlines() if line])


class _Owned:
    """A library object behind a handle, freed by close(), at garbage collection, or at the end of a
    with block. Subclasses set _release (the C function freeing the handle) and _what."""

    _h = ctypes.c_void_p()
    _release = None
    _what = "object"

    def close(self):
        if self._h:
            type(self)._release(self._h)
            self._h = ctypes.c_void_p()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _handle(self):
        if not self._h:
            raise Error(-1, "the %s is closed" % self._what)
        return self._h


class Model(_Owned):
    """A language model for the agents' runs (grappi_model_new), with what their llm arguments do
    not set: temperature, answer tokens, JSON mode, timeouts, retries, and a concurrency shared by
    every run that uses it. Give it as llm= to explore, ground, extract, extract_part, hypothesize,
    ask and eval_qa. llm: "extractive" (offline, not a language model), "openai" or "callback"
    (chat: a function as explore's). Close it (or use a with block) when no run uses it."""

    def __init__(self, llm="extractive", base_url=None, model=None, api_key_env=None, temperature=0.0,
                 max_answer_tokens=512, json_mode=True, connect_timeout=10.0, timeout=120.0, max_retries=3,
                 concurrency=8, chat=None):
        o = _options("grappi_model_options", _model_init)
        o.llm = llm.encode()
        if base_url:
            o.base_url = base_url.encode()
        o.model = model.encode() if model else (b"python-callback" if chat else None)
        if api_key_env:
            o.api_key_env = api_key_env.encode()
        o.temperature, o.max_answer_tokens, o.json_mode = temperature, max_answer_tokens, 1 if json_mode else 0
        o.connect_timeout_seconds, o.timeout_seconds = connect_timeout, timeout
        o.max_retries, o.concurrency = max_retries, concurrency
        self._callback = _chat_callback(chat) if chat is not None else None  # (alive as long as the model)
        if self._callback is not None:
            o.chat = self._callback
        self._h = ctypes.c_void_p()
        _check(_model_new(ctypes.byref(o), ctypes.byref(self._h)))

    _release = staticmethod(_model_free)
    _what = "model"

    def describe(self):
        """The model as the runs' provenance records it (a dict; never the API key)."""
        p = ctypes.c_void_p()
        _check(_model_describe(self._handle(), ctypes.byref(p)))
        return json.loads(_take_string(p))


def _optional(module):
    """An optional module (pandas, networkx), or ImportError saying how to get it."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError("%s is not installed: on Debian `apt install python3-%s` (in a venv, make it with "
                          "--system-site-packages to reach it)" % (module, module)) from e


# The keys of a result that hold its main table, in the order looked for.
_TABLES = ("neighbors", "terms", "paths", "answer_entities", "clusters", "completions", "candidates", "papers",
           "edges", "nodes", "results")


class Rows(list):
    """A list of dicts, one per row (neighbors, paths, completions, ...): to_pandas() makes a
    DataFrame of them; to_networkx() a graph when the rows are paths or neighbors."""

    def __init__(self, rows=(), center=None):
        super().__init__(rows)
        self._center = center  # neighbors: the protein they are the neighbors of

    def to_pandas(self):
        return _optional("pandas").DataFrame(list(self))

    def to_networkx(self):
        return _to_networkx({"protein": self._center, "neighbors": list(self)} if self._center else list(self))


class Result(dict):
    """A result as a dict (the command's JSON): to_pandas() makes a DataFrame of its main table
    (neighbors, terms, paths, answer entities, clusters, ...; key= names another), to_networkx() a
    networkx graph of the nodes and edges it holds (by external id, with names and scores); an
    explore or ask result displays as its HTML report in Jupyter."""

    def __init__(self, value, report=None):
        super().__init__(value)
        self._report = report  # the self-contained HTML report, when made

    def to_pandas(self, key=None):
        keys = [key] if key else [k for k in _TABLES if isinstance(self.get(k), list) and self.get(k)]
        if not keys or not isinstance(self.get(keys[0]), list):
            raise ValueError("this result holds no table%s (its keys: %s)" % (" named " + key if key else "",
                                                                            ", ".join(sorted(self))))
        return _optional("pandas").DataFrame(self[keys[0]])

    def to_networkx(self):
        return _to_networkx(self)

    def _repr_html_(self):
        if self._report is None:
            return None  # (the dict's own display)
        return ('<iframe srcdoc="%s" style="width:100%%;height:640px;border:1px solid #ccc"></iframe>'
                % _html.escape(self._report, quote=True))


def _to_networkx(value):
    """A networkx graph of the nodes and edges a result holds: nodes by external id (with name and
    row id), edges with score and relation; a MultiGraph keeps parallel edges apart."""
    nx = _optional("networkx")
    g = nx.MultiGraph()
    found = [False]

    def node(ext, name=None, row=None):
        if ext is None:
            return
        attrs = {k: v for k, v in (("name", name), ("id", row)) if v is not None}
        g.add_node(ext, **attrs)

    def edge(a, b, **attrs):
        if a is not None and b is not None:
            found[0] = True
            g.add_edge(a, b, **{k: v for k, v in attrs.items() if v is not None})

    def walk(v):
        if isinstance(v, list):
            for x in v:
                walk(x)
            return
        if not isinstance(v, dict):
            return
        if isinstance(v.get("protein"), dict) and isinstance(v.get("neighbors"), list):  # neighbors
            p = v["protein"]
            node(p.get("external_id"), p.get("name"), p.get("id"))
            for n in v["neighbors"]:
                node(n.get("external_id"), n.get("name"), n.get("id"))
                edge(p.get("external_id"), n.get("external_id"), score=n.get("score"), relation=n.get("relation"))
        if "external_id" in v and "name" in v and "neighbors" not in v:
            node(v.get("external_id"), v.get("name"), v.get("id") if isinstance(v.get("id"), int) else None)
        if "source_external_id" in v and "target_external_id" in v:
            edge(v["source_external_id"], v["target_external_id"], score=v.get("score"), relation=v.get("relation"))
        ids = v.get("external_ids")
        if isinstance(ids, list) and len(ids) > 1 and all(isinstance(x, str) for x in ids) and (
                "proteins" in v or "names" in v or "edge_ids" in v):  # a path
            names = v.get("proteins") or v.get("names") or [None] * len(ids)
            scores = v.get("scores") or [None] * (len(ids) - 1)
            for i, x in enumerate(ids):
                node(x, names[i] if i < len(names) and isinstance(names[i], str) else None)
            for i in range(len(ids) - 1):
                edge(ids[i], ids[i + 1], score=scores[i] if i < len(scores) else None)
        for k, x in v.items():
            if k not in ("protein", "neighbors") and isinstance(x, (dict, list)):
                walk(x)
        if isinstance(v.get("neighbors"), list) and not isinstance(v.get("protein"), dict):
            walk(v["neighbors"])

    walk(value)
    if not found[0] and g.number_of_nodes() == 0:
        raise ValueError("this result holds no network (no edges or paths between external ids)")
    return g


def _in_notebook():
    """Whether the caller runs in IPython/Jupyter (explore and ask then keep their HTML report)."""
    ipython = sys.modules.get("IPython")
    return bool(ipython and getattr(ipython, "get_ipython", lambda: None)())


class Graph(_Owned):
    """A knowledge-graph database. Close it, or use it in a with block. A missing file is an error
    (grappi.Error, status -2) unless create=True makes a new database there. read_only: only read
    (many processes may read one file)."""

    def __init__(self, path, read_only=False, create=False):
        self._h = ctypes.c_void_p()
        if create and read_only:
            raise ValueError("Graph: create=True makes a database and cannot be read_only")
        if not create and not os.path.exists(path):
            raise Error(-2, "database '%s' does not exist (grappi.Graph(path, create=True) makes a new one)" % os.fspath(path))
        o = _options("grappi_open_options", _open_init)
        o.read_only, o.create = (1 if read_only else 0), (1 if create else 0)
        _check(_open(os.fsencode(path), ctypes.byref(o), ctypes.byref(self._h)))

    _release = staticmethod(_close)
    _what = "graph"

    def _node(self, node):
        """A node id from a name, alias or external id (str) or a node id (int)."""
        if isinstance(node, bool) or not isinstance(node, (int, str)):
            raise TypeError("a node is a name, alias or external id (str) or a node id (int), not %r" % (node,))
        return self.resolve(node) if isinstance(node, str) else int(node)

    def _as_name(self, node):
        """What the methods that read names take, from a name or external id (str, kept) or a node
        id (int: its external id)."""
        if isinstance(node, str):
            return node
        p = ctypes.c_void_p()
        _check(_neighbors_json(self._handle(), None, self._node(node), 0.0, None, 0, 1, ctypes.byref(p)))
        return json.loads(_take_string(p))["protein"]["external_id"]

    def import_file(self, path, kind=None):
        _check(_import(self._handle(), kind.encode() if kind else None, os.fsencode(path)))

    def import_with(self, path, kind=None, min_score=0, skip_bad_lines=False, max_bad_examples=5, max_rows=0,
                    taxon=0, source_column=None, target_column=None, score_column=None, score_scale=1.0,
                    relation_column=None, relation=None, directed=False, header=None, label=None, separator=None):
        """Imports one file with `grappi import`'s options and returns its report (a dict: "files"
        with lines, rows_skipped and bad_line_examples, nodes_created, edges_created, ...).
        min_score: STRING's 0-1000 scale; max_rows: at most this many lines (0: no limit);
        the rest read edge lists (kind "edges"): columns by 1-based number or header name,
        header True/False/None (detect), separator "\\t", ",", " " or None (detect)."""
        o = _ImportOptions()
        _check(_import_init(ctypes.byref(o), 1))
        o.min_score, o.skip_bad_lines, o.max_bad_examples = min_score, 1 if skip_bad_lines else 0, max_bad_examples
        o.max_rows, o.taxon, o.score_scale, o.directed = max_rows, taxon, score_scale, 1 if directed else 0
        for field, value in (("source_column", source_column), ("target_column", target_column),
                             ("score_column", score_column), ("relation_column", relation_column),
                             ("relation", relation), ("label", label)):
            if value is not None:
                setattr(o, field, value.encode())
        o.header = -1 if header is None else (1 if header else 0)
        o.separator = 0 if separator is None else ord(separator)
        p = ctypes.c_void_p()
        _check(_import_with(self._handle(), kind.encode() if kind else None, os.fsencode(path), ctypes.byref(o),
                            ctypes.byref(p)))
        return json.loads(_take_string(p))

    def resolve(self, name):
        out = _i64()
        _check(_resolve(self._handle(), name.encode(), ctypes.byref(out)))
        return out.value

    def complete(self, prefix, limit=10):
        """Nodes whose name, alias or external id begins with prefix (any case): a list of dicts
        (id, name, external_id, matched, matched_by), names first."""
        p = ctypes.c_void_p()
        _check(_complete(self._handle(), prefix.encode(), limit, ctypes.byref(p)))
        return Rows(json.loads(_take_string(p))["completions"])

    def counts(self):
        n, e = _i64(), _i64()
        _check(_counts(self._handle(), ctypes.byref(n), ctypes.byref(e)))
        return n.value, e.value

    def name(self, node):
        """The preferred name of a node (a name, alias, external id or node id)."""
        p = ctypes.c_void_p()
        _check(_node_name(self._handle(), self._node(node), ctypes.byref(p)))
        return _take_string(p)

    def neighbors(self, node, min_score=0.0, relations=None, limit=0):
        """The neighbors of node (a name, alias or external id as str, or a node id as int), strongest
        first (ties by node id), as `grappi neighbors` lists them: a list of dicts with "id",
        "name", "external_id", "edge", "score", "relation" and "direction"; at most limit (0: all),
        of edges of at least min_score (0-1) and of the relations named (None: any)."""
        rel, count = _strings(relations)
        p = ctypes.c_void_p()
        if isinstance(node, str):
            _check(_neighbors_json(self._handle(), node.encode(), 0, min_score, rel, count, limit, ctypes.byref(p)))
        else:
            _check(_neighbors_json(self._handle(), None, self._node(node), min_score, rel, count, limit, ctypes.byref(p)))
        found = json.loads(_take_string(p))
        return Rows(found["neighbors"], center=found["protein"])

    def embed(self, embedder="lsa", dimension=0, base_url=None, model=None, api_key_env=None):
        """Embeds new or changed node texts ("lsa": built-in, offline, latent semantic analysis;
        "hashing": built-in, offline, lexical; "openai": an OpenAI-compatible server) and ranks every
        node's neighbors; returns how many were embedded."""
        o = _options("grappi_embed_options", _embed_init)
        o.embedder, o.dimension = embedder.encode(), dimension
        if base_url:
            o.base_url = base_url.encode()
        if model:
            o.model = model.encode()
        if api_key_env:
            o.api_key_env = api_key_env.encode()
        n = _size()
        _check(_embed(self._handle(), ctypes.byref(o), ctypes.byref(n)))
        return n.value

    def embed_plan(self, embedder_path, embedder="lsa", dimension=0, base_url=None, model=None, api_key_env=None):
        """The first step of an embedding in parts: the embedder made as embed() makes it, written
        to embedder_path for the workers. Returns {"model", "kind", "dimension", "pending", "path"}."""
        o = _options("grappi_embed_options", _embed_init)
        o.embedder, o.dimension = embedder.encode(), dimension
        if base_url:
            o.base_url = base_url.encode()
        if model:
            o.model = model.encode()
        if api_key_env:
            o.api_key_env = api_key_env.encode()
        p = ctypes.c_void_p()
        _check(_embed_plan(self._handle(), ctypes.byref(o), os.fsencode(embedder_path), ctypes.byref(p)))
        return json.loads(_take_string(p))

    def embed_part(self, embedder_path, part, parts, out_path, provenance=None):
        """A worker's part of an embedding (the graph only read): run `part` of `parts` of the
        pending texts embedded into the vectors file out_path. Returns its figures."""
        p = ctypes.c_void_p()
        _check(_embed_part(self._handle(), os.fsencode(embedder_path), part, parts, os.fsencode(out_path),
                           json.dumps(provenance).encode() if provenance is not None else None, ctypes.byref(p)))
        return json.loads(_take_string(p))

    def embed_merge(self, embedder_path, parts):
        """The parts' vectors stored as embed() stores its own (a pending text no part holds is
        embedded here). Returns the report with "from_parts", "embedded_here" and "provenance"."""
        names = [os.fsencode(f) for f in parts]
        array = (ctypes.c_char_p * max(1, len(names)))(*names)
        p = ctypes.c_void_p()
        _check(_embed_merge(self._handle(), os.fsencode(embedder_path), array, len(names), ctypes.byref(p)))
        return json.loads(_take_string(p))

    def search(self, text, k=10):
        ids = (_i64 * k)()
        scores = (ctypes.c_float * k)()
        n = _size()
        _check(_search(self._handle(), text.encode(), k, ids, scores, k, ctypes.byref(n)))
        return [(ids[i], scores[i]) for i in range(n.value)]

    def window(self, root, k=(30, 4), depth=2, window=1, min_score=0.0, max_path_length=0):
        o = _options("grappi_window_options", _window_init)
        ks = (_size * len(k))(*k)
        o.k, o.k_count, o.depth, o.window, o.min_score, o.max_path_length = ks, len(k), depth, window, min_score, max_path_length
        p = ctypes.c_void_p()
        _check(_window(self._handle(), self._node(root), ctypes.byref(o), ctypes.byref(p)))
        return Result(json.loads(_take_string(p)))

    def enrich(self, proteins, categories=None, exclude_evidence=None, background="annotated",
               background_proteins=None, min_term_size=1, max_term_size=0, max_fdr=1.0):
        """The functional enrichment of a protein set (names, aliases or ids) in the database's GO
        annotations (docs/function.md): a dict with "terms" (each with "term", "name", "category",
        "observed", "set_size", "background", "universe", "expected", "strength", "p_value", "fdr"
        and "proteins"), "categories", "unannotated" and "unmatched" (names left out). categories:
        "Process", "Function", "Component" or an imported STRING category such as "KEGG" (default:
        every one annotated); exclude_evidence:
        codes such as "IEA"; background: "annotated", "network", or "given" with
        background_proteins (given names imply it)."""
        o = _options("grappi_enrich_options", _enrich_init)
        cats, o.category_count = _strings(categories)
        codes, o.exclude_evidence_count = _strings(exclude_evidence)
        bg, o.background_protein_count = _strings(
            None if background_proteins is None else [self._as_name(x) for x in background_proteins])
        if bg is not None and background == "annotated":
            background = "given"
        o.categories, o.exclude_evidence, o.background_proteins = cats, codes, bg
        o.background = background.encode()
        o.min_term_size, o.max_term_size, o.max_fdr = min_term_size, max_term_size, max_fdr
        names, count = _strings([self._as_name(x) for x in proteins])
        p = ctypes.c_void_p()
        _check(_enrich(self._handle(), names, count, ctypes.byref(o), ctypes.byref(p)))
        return Result(json.loads(_take_string(p)))

    def ppi_enrichment(self, proteins, min_score=0.4, relations=None):
        """Whether a protein set interacts more among itself than proteins of the same degrees
        would (STRING's PPI enrichment): a dict with "nodes", "edges", "expected_edges", "p_value",
        "average_degree", "clustering", "network_edges" and "unmatched"."""
        names, count = _strings([self._as_name(x) for x in proteins])
        rel, rel_count = _strings(relations)
        p = ctypes.c_void_p()
        _check(_ppi_enrichment(self._handle(), names, count, min_score, rel, rel_count, ctypes.byref(p)))
        return Result(json.loads(_take_string(p)))

    def cluster(self, proteins=None, method="mcl", min_score=0.4, relations=None, inflation=2.0, max_iterations=1000,
                resolution=1.0, seed=42, runs=1, max_cluster_size=0, max_levels=4, terms=3, enrich_min_size=3,
                max_fdr=0.05):
        """The clusters of the network, or of the subnetwork a protein set (names, aliases or ids)
        induces (docs/function.md): a dict with "clusters" (each with "id", "level", "parent",
        "children", "size", "members" (external ids, hubs first), "names", "internal_edges",
        "external_edges", "internal_weight" and "terms", its enriched terms), "modularity",
        "quality", "levels" and "unmatched". method: "mcl" (inflation), "leiden" (modularity at
        resolution) or "cpm" (Leiden, constant Potts model); max_cluster_size > 0 splits larger
        clusters again, level by level (GraphRAG's hierarchical communities)."""
        o = _options("grappi_cluster_options", _cluster_init)
        rel, o.relation_count = _strings(relations)
        o.relations = rel
        o.method = method.encode()
        o.min_score, o.inflation, o.max_iterations = min_score, inflation, max_iterations
        o.resolution, o.seed, o.runs = resolution, seed, runs
        o.max_cluster_size, o.max_levels, o.terms, o.enrich_min_size, o.max_fdr = (max_cluster_size, max_levels, terms,
                                                                                    enrich_min_size, max_fdr)
        names, count = _strings([self._as_name(x) for x in (proteins or [])])
        p = ctypes.c_void_p()
        _check(_cluster(self._handle(), names, count, ctypes.byref(o), ctypes.byref(p)))
        return Result(json.loads(_take_string(p)))

    def build_communities(self, name="default", method="leiden", min_score=0.7, resolution=1.0, seed=42, runs=5,
                          max_cluster_size=0, max_levels=4, terms=3, llm=None):
        """Clusters the network, writes a report per community of three or more members (members, hubs,
        enriched terms, strongest edges, a summary) and stores the set under name (docs/function.md,
        "Community reports"); returns it as a dict. llm: a Model for the summaries (kept only when every
        citation is a term or member of the report), or None for the extractive summary (not a
        language model). ask's questions about the whole network's modules read the "default" set."""
        o = _options("grappi_cluster_options", _cluster_init)
        o.method = method.encode()
        o.min_score, o.resolution, o.seed, o.runs = min_score, resolution, seed, runs
        o.max_cluster_size, o.max_levels, o.terms = max_cluster_size, max_levels, terms
        if llm is not None and not isinstance(llm, Model):
            raise TypeError("llm must be a grappi.Model or None")
        p = ctypes.c_void_p()
        _check(_build_communities(self._handle(), name.encode(), ctypes.byref(o),
                                  llm._handle() if llm is not None else None, ctypes.byref(p)))
        return Result(json.loads(_take_string(p)))

    def communities(self, name="default"):
        """The community reports stored under name (a dict; "stale" when the graph changed since they
        were built); grappi.Error (status GRAPPI_ENOTFOUND) when none is stored."""
        p = ctypes.c_void_p()
        _check(_communities(self._handle(), name.encode(), ctypes.byref(p)))
        return Result(json.loads(_take_string(p)))

    def paths(self, source, target, max_length=4, k=10, weighted=False, all_shortest=False, skip_direct=False):
        """Up to k shortest simple paths (Yen), or with all_shortest every shortest path by hops
        (at most k; skip_direct: no edge joining the ends followed): a list of dicts."""
        p = ctypes.c_void_p()
        source, target = self._node(source), self._node(target)
        if all_shortest:
            _check(_all_shortest(self._handle(), source, target, max_length, k, 1 if skip_direct else 0, ctypes.byref(p)))
        else:
            if skip_direct:
                raise ValueError("skip_direct is an option of all_shortest")
            _check(_paths(self._handle(), source, target, max_length, k, 1 if weighted else 0, ctypes.byref(p)))
        return Rows(json.loads(_take_string(p)))

    def explore(self, root, query, windows=(1,), k=(30, 4), depth=2, max_length=4, top=10, explain_top=0,
                min_score=0.0, concurrency=8, max_calls=0, max_tokens=0, dry_run=False, use_cache=True,
                llm="extractive", base_url=None, model=None, api_key_env=None, chat=None, diversity=None,
                max_paths=None, max_visited=None, html=None, cancel=None, progress=None, report=None):
        """Ranked, explained paths from root (a node id, or a name to resolve) for a therapeutic query
        (the explore JSON as a dict). html: a file to write the run's self-contained HTML report to.
        cancel: a function of no argument, asked between the stages, every few windows and paths and
        before each model request; True stops the run (the result is partial, its requests not sent
        "cancelled by the caller"). progress: a function (stage, done, total) called as it goes.

        llm is "extractive" (offline), "openai" (base_url, model) or "callback": then chat is a
        function taking the request dict ({"messages", "json", "max_tokens", "task"}) and returning
        the answer text, or (text, prompt_tokens, completion_tokens); an exception fails that one
        request. model names the callback model in the response cache. diversity (0-1; 0 for the
        reference ranking), max_paths and max_visited default to the library's. report: keep the HTML
        report in the result, which Jupyter then displays (None: when running in IPython/Jupyter)."""
        o = _options("grappi_explore_options", _explore_init)
        if diversity is not None:
            o.diversity = diversity
        if max_paths is not None:
            o.max_paths = max_paths
        if max_visited is not None:
            o.max_visited = max_visited
        ws = (_size * len(windows))(*windows)
        ks = (_size * len(k))(*k)
        o.windows, o.window_count, o.k, o.k_count = ws, len(windows), ks, len(k)
        o.depth, o.max_length, o.top, o.explain_top, o.min_score = depth, max_length, top, explain_top, min_score
        o.concurrency = concurrency
        _set_budget(o, max_calls, max_tokens, dry_run, use_cache)
        keep = _set_model(o, llm, base_url, model, api_key_env, chat, cancel, progress, concurrency)  # noqa: F841
        p = ctypes.c_void_p()
        node = self._node(root)
        if report is None:
            report = _in_notebook()
        if html is None and not report:
            _check(_explore(self._handle(), node, query.encode(), ctypes.byref(o), ctypes.byref(p)))
            return Result(json.loads(_take_string(p)))
        h = ctypes.c_void_p()
        _check(_explore_report(self._handle(), node, query.encode(), ctypes.byref(o), ctypes.byref(p), ctypes.byref(h)))
        result, page = json.loads(_take_string(p)), _take_string(h)
        if html is not None:
            _write_html(html, page)
        return Result(result, page if report else None)

    def ground(self, text, protein_a, protein_b, strategy="pagerank", root="MI:0190", ontology=None, relations=None, batch=1,
               patience=10, lookahead=5, threshold=3, rag_k=10, seed=1, max_calls=0, max_tokens=0, dry_run=False,
               use_cache=True, llm="extractive", base_url=None, model=None, api_key_env=None, chat=None,
               concurrency=8, cancel=None, progress=None):
        """The ontology term (PSI-MI interaction type under root) that best describes how two
        proteins interact in a text, with the summary, quotes checked against the text, confidence
        and trace (the grounding JSON as a dict). llm and chat as for explore; the callback's
        request "task" has "kind" "ground.summary", "ground.score" or "ground.pick"."""
        o = _options("grappi_ground_options", _ground_init)
        o.strategy, o.root = strategy.encode(), root.encode()
        if ontology:
            o.ontology = ontology.encode()
        o.relations, o.relation_count = _strings(relations)
        o.batch, o.patience, o.lookahead, o.threshold, o.rag_k, o.seed = batch, patience, lookahead, threshold, rag_k, seed
        _set_budget(o, max_calls, max_tokens, dry_run, use_cache)
        keep = _set_model(o, llm, base_url, model, api_key_env, chat, cancel, progress, concurrency)  # noqa: F841
        p = ctypes.c_void_p()
        _check(_ground(self._handle(), text.encode(), self._as_name(protein_a).encode(), self._as_name(protein_b).encode(), ctypes.byref(o),
                       ctypes.byref(p)))
        return Result(json.loads(_take_string(p)))

    def extract(self, content, format="detect", name="input", repair=True, annotations_only=False, taxon=0,
                max_calls=0, max_tokens=0, dry_run=False, use_cache=True, llm="extractive", base_url=None, model=None,
                api_key_env=None, chat=None, concurrency=4, include_flagged=False, bel_path=None, cx2_path=None,
                import_statements=False, cancel=None, progress=None):
        """BEL statements from papers (text, Markdown, PubTator, BioC, PPI corpus XML): the
        entities grounded in the graph, every statement validated, repaired once or flagged or
        rejected (the extraction JSON as a dict). llm and chat as for explore; the callback's
        request "task" has "kind" "extract.statements" or "extract.repair". With
        import_statements the statements are imported from bel_path as a BEL dataset."""
        o = _options("grappi_extract_options", _extract_init)
        o.format, o.name = format.encode(), name.encode()
        o.repair, o.annotations_only, o.taxon = 1 if repair else 0, 1 if annotations_only else 0, taxon
        o.concurrency = concurrency
        _set_budget(o, max_calls, max_tokens, dry_run, use_cache)
        o.include_flagged, o.import_statements = 1 if include_flagged else 0, 1 if import_statements else 0
        o.bel_path = os.fsencode(bel_path) if bel_path else None
        o.cx2_path = os.fsencode(cx2_path) if cx2_path else None
        keep = _set_model(o, llm, base_url, model, api_key_env, chat, cancel, progress, concurrency)  # noqa: F841
        p = ctypes.c_void_p()
        _check(_extract(self._handle(), content.encode(), ctypes.byref(o), ctypes.byref(p)))
        return Result(json.loads(_take_string(p)))

    def extract_part(self, files, out_path, provenance=None, format="detect", repair=True, annotations_only=False,
                     taxon=0, max_calls=0, max_tokens=0, use_cache=True, llm="extractive", base_url=None, model=None,
                     api_key_env=None, chat=None, concurrency=4, cancel=None, progress=None):
        """A worker's part of an extraction: the papers of files (in order) extracted as extract()
        does and the whole result written to out_path for extract_merge (the graph only read).
        Returns {"path", "documents", "counts", "usage", "budget"}."""
        o = _options("grappi_extract_options", _extract_init)
        o.format = format.encode()
        o.repair, o.annotations_only, o.taxon = 1 if repair else 0, 1 if annotations_only else 0, taxon
        o.concurrency = concurrency
        _set_budget(o, max_calls, max_tokens, use_cache=use_cache)
        keep = _set_model(o, llm, base_url, model, api_key_env, chat, cancel, progress, concurrency)  # noqa: F841
        names = [os.fsencode(f) for f in files]
        array = (ctypes.c_char_p * max(1, len(names)))(*names)
        p = ctypes.c_void_p()
        _check(_extract_part(self._handle(), array, len(names), ctypes.byref(o), os.fsencode(out_path),
                             json.dumps(provenance).encode() if provenance is not None else None, ctypes.byref(p)))
        return json.loads(_take_string(p))

    def extract_merge(self, parts, import_statements=True, bel_path=None, cx2_path=None, include_flagged=False,
                      name="input"):
        """The parts' extractions merged, in order, into the extraction of all their papers
        (duplicates across parts found), written and imported as extract() would (bel_path None
        with import_statements: next to the database). Returns the extraction JSON with
        "import" and "parts" (their provenance)."""
        o = _options("grappi_extract_options", _extract_init)
        o.name = name.encode()
        o.include_flagged, o.import_statements = 1 if include_flagged else 0, 1 if import_statements else 0
        o.bel_path = os.fsencode(bel_path) if bel_path else None
        o.cx2_path = os.fsencode(cx2_path) if cx2_path else None
        names = [os.fsencode(f) for f in parts]
        array = (ctypes.c_char_p * max(1, len(names)))(*names)
        p = ctypes.c_void_p()
        _check(_extract_merge(self._handle(), array, len(names), ctypes.byref(o), ctypes.byref(p)))
        return json.loads(_take_string(p))

    def cooc_build(self, content, scope="document", titles="include", types=None, min_count=1, as_of=0,
                   dictionary=False, path=None, format="detect"):
        """A literature co-occurrence graph of an annotated corpus (PubTator, BioC), stored as a
        dataset at path when given (the figures and strongest edges as a dict)."""
        o = _options("grappi_cooc_options", _cooc_init)
        o.format, o.scope, o.titles = format.encode(), scope.encode(), titles.encode()
        o.types, o.type_count = _strings(types)
        o.min_count, o.as_of, o.dictionary = min_count, as_of, 1 if dictionary else 0
        o.path = os.fsencode(path) if path else None
        p = ctypes.c_void_p()
        _check(_cooc_build(self._handle(), content.encode(), ctypes.byref(o), ctypes.byref(p)))
        return json.loads(_take_string(p))

    def cooc_partial(self, files, out_path, provenance=None, scope="document", titles="include", types=None,
                     min_count=1, as_of=0, dictionary=False, format="detect"):
        """Counts the co-occurrences of a part of a corpus (files, read in order) into a
        partial-count file for cooc_merge (a distributed build's worker step; the graph is only
        read). provenance: a dict recorded in the file. Returns {"path", "documents", "files"}."""
        o = _options("grappi_cooc_options", _cooc_init)
        o.format, o.scope, o.titles = format.encode(), scope.encode(), titles.encode()
        o.types, o.type_count = _strings(types)
        o.min_count, o.as_of, o.dictionary = min_count, as_of, 1 if dictionary else 0
        names = [os.fsencode(f) for f in files]
        array = (ctypes.c_char_p * max(1, len(names)))(*names)
        p = ctypes.c_void_p()
        _check(_cooc_partial(self._handle(), array, len(names), ctypes.byref(o), os.fsencode(out_path),
                             json.dumps(provenance).encode() if provenance is not None else None, ctypes.byref(p)))
        return json.loads(_take_string(p))

    def cooc_merge(self, partials, path=None):
        """Merges partial-count files, in order, into the co-occurrence graph of the whole corpus
        and stores it as one dataset (path: also write its JSON lines file there; None: the database
        alone holds it, as `grappi cooc merge` stores it). Returns the figures, "import" and
        "partials" (each with its provenance)."""
        o = _options("grappi_cooc_options", _cooc_init)
        o.path = os.fsencode(path) if path else None
        names = [os.fsencode(f) for f in partials]
        array = (ctypes.c_char_p * max(1, len(names)))(*names)
        p = ctypes.c_void_p()
        _check(_cooc_merge(self._handle(), array, len(names), ctypes.byref(o), ctypes.byref(p)))
        return json.loads(_take_string(p))

    def hypothesize(self, source, target, corpus=None, relations=("cooc.document",), max_length=4, paths=10,
                    mask_direct=False, context=7, rounds=5, llm="extractive", base_url=None, model=None,
                    api_key_env=None, chat=None, use_cache=True, max_calls=0, embedding_weight=0.0,
                    embedding_model=None, ranker=None, generic_intermediates=False, cancel=None, progress=None,
                    shortest_rounds=0):
        """How two concepts may be related: ranked paths, an explanation from the corpus's
        abstracts (corpus None: the papers the database holds), each sentence checked against
        the graph (the result as a dict). The callback's request "task" has "kind"
        "hypothesis.explain". ranker: a stored path ranker's name (None: "paths" when stored, ""
        the association weights); embedding_weight blends the intermediate concepts' embedding
        similarity to the pair into the weights' score; shortest_rounds n > 0 searches HGCR's
        candidates (n rounds of every shortest path, each without the earlier rounds'
        intermediates) instead of the shortest paths."""
        o = _options("grappi_hypothesis_options", _hypothesis_init)
        o.relations, o.relation_count = _strings(relations)
        o.max_length, o.paths, o.context, o.rounds = max_length, paths, context, rounds
        o.mask_direct = 1 if mask_direct else 0
        _set_budget(o, max_calls=max_calls, use_cache=use_cache)
        o.embedding_weight = embedding_weight
        o.embedding_model = embedding_model.encode() if embedding_model else None
        o.ranker = ranker.encode() if ranker is not None else None
        o.generic_intermediates = 1 if generic_intermediates else 0
        o.shortest_rounds = shortest_rounds
        keep = _set_model(o, llm, base_url, model, api_key_env, chat, cancel, progress, 1)  # noqa: F841
        p = ctypes.c_void_p()
        _check(_hypothesize(self._handle(), self._as_name(source).encode(), self._as_name(target).encode(), corpus.encode() if corpus else None,
                            ctypes.byref(o), ctypes.byref(p)))
        return Result(json.loads(_take_string(p)))

    def import_review(self, review_path, bel_path):
        """Imports the statements a curator accepted in a review file (grappi extract --review)
        as one BEL dataset written to bel_path; returns its report (a dict: dataset_id,
        edges_created, nodes_created, already_imported, path)."""
        p = ctypes.c_void_p()
        _check(_import_review(self._handle(), os.fsencode(review_path), os.fsencode(bel_path), ctypes.byref(p)))
        return json.loads(_take_string(p))

    def search_papers(self, query, limit=20):
        """The stored papers matching a full-text query (FTS5 syntax), best first: a list of dicts
        (key, pmid, doi, year, title, snippet, score)."""
        p = ctypes.c_void_p()
        _check(_search_papers(self._handle(), query.encode(), limit, ctypes.byref(p)))
        return json.loads(_take_string(p))

    def train_ranker(self, corpus, corpus_format="detect", name="paths", cancel=None, progress=None):
        """Fits the hypothesis path ranker on a corpus (its text) by the temporal protocol and
        stores it as name; returns the training and the weights (a dict). cancel() -> True stops
        it (nothing stored; the dict says "cancelled"); progress(stage, done, total) follows the
        pairs labelled (stage "pairs")."""
        run = _run_options(cancel, progress)
        p = ctypes.c_void_p()
        _check(_train_ranker(self._handle(), corpus.encode(), corpus_format.encode(), name.encode(),
                             ctypes.cast(ctypes.pointer(run[0]), ctypes.c_void_p) if run else None, ctypes.byref(p)))
        return json.loads(_take_string(p))

    def _ask_options(self, mode, context, max_context_tokens, answers, repair, relations, llm, base_url, model,
                     api_key_env, chat, use_cache, reader="prize", reader_name="gat", intents=True, model_intent=True,
                     papers=3, cancel=None, progress=None):
        r = _options("grappi_retrieve_options", _retrieve_init)
        r.mode = mode.encode()
        o = _options("grappi_ask_options", _ask_init)
        o.context, o.max_context_tokens, o.answers = context.encode(), max_context_tokens, answers
        o.repair = 1 if repair else 0
        _set_budget(o, use_cache=use_cache)
        o.reader, o.reader_name = reader.encode(), reader_name.encode()
        o.intents, o.model_intent = 1 if intents else 0, 1 if model_intent else 0
        o.papers = papers
        r.relations, r.relation_count = _strings(relations)
        keep = _set_model(o, llm, base_url, model, api_key_env, chat, cancel, progress, 1)
        return r, o, keep

    def analyze_question(self, question):
        """What a question asks (a dict): its intent ("partners", "connects", "paths", "class",
        "open"), topic, and the entities it names (node, id, name, the text and offset)."""
        p = ctypes.c_void_p()
        _check(_analyze_question(self._handle(), question.encode(), ctypes.byref(p)))
        return json.loads(_take_string(p))

    def ask(self, question, mode="gretriever", context="evidence", max_context_tokens=4000, answers=10, repair=True,
            relations=None, llm="extractive", base_url=None, model=None, api_key_env=None, chat=None, use_cache=True,
            reader="prize", reader_name="gat", html=None, intents=True, model_intent=True, papers=3, cancel=None,
            progress=None, report=None):
        """A grounded answer (a dict: question_entities, intent, answer_entities, sentences with
        their citations' status, ...). The callback's request "task" has "kind" "ask.answer" (or
        "ask.intent" when the rules leave a question naming entities open and model_intent is on).
        reader "gat": the stored graph reader reader_name ranks the answer entities. intents False:
        every question is open (PCST). html: a file to write the self-contained HTML report to.
        papers: passages of the database's stored papers in the context (P0, P1, ...; 0: none).
        report: keep the HTML report in the result for Jupyter (None: when running in IPython)."""
        r, o, callback = self._ask_options(mode, context, max_context_tokens, answers, repair, relations, llm, base_url,
                                           model, api_key_env, chat, use_cache, reader,
                                           reader_name, intents, model_intent, papers, cancel,
                                           progress)  # noqa: F841 - kept alive for the call
        p = ctypes.c_void_p()
        if report is None:
            report = _in_notebook()
        if html is None and not report:
            _check(_ask(self._handle(), question.encode(), ctypes.byref(r), ctypes.byref(o), ctypes.byref(p)))
            return Result(json.loads(_take_string(p)))
        h = ctypes.c_void_p()
        _check(_ask_report(self._handle(), question.encode(), ctypes.byref(r), ctypes.byref(o), ctypes.byref(p),
                           ctypes.byref(h)))
        result, page = json.loads(_take_string(p)), _take_string(h)
        if html is not None:
            _write_html(html, page)
        return Result(result, page if report else None)

    def eval_qa(self, questions, k=10, mode="gretriever", context="evidence", max_context_tokens=4000, repair=True,
                relations=None, llm="extractive", base_url=None, model=None, api_key_env=None, chat=None,
                use_cache=True, reader="prize", reader_name="gat", intents=True, model_intent=True, cancel=None,
                progress=None):
        """Answers a question set (JSON lines or KG-RAG CSV text) and scores the answers: (summary dict
        with the baselines and the figures per intent, list of per-question dicts)."""
        r, o, callback = self._ask_options(mode, context, max_context_tokens, 10, repair, relations, llm, base_url,
                                           model, api_key_env, chat, use_cache, reader,
                                           reader_name, intents, model_intent, 3, cancel,
                                           progress)  # noqa: F841 - kept alive for the call
        p, rows = ctypes.c_void_p(), ctypes.c_void_p()
        _check(_eval_qa(self._handle(), questions.encode(), ctypes.byref(r), ctypes.byref(o), k, ctypes.byref(p),
                        ctypes.byref(rows)))
        summary = json.loads(_take_string(p))
        return summary, [json.loads(line) for line in _take_string(rows).splitlines() if line]

    def train_reader(self, train, valid=None, mode="gretriever", seeds=10, topk=3, scope="subgraph", name="gat",
                     epochs=60, layers=2, hidden=64, heads=4, dropout=0.1, learning_rate=0.003, patience=10, seed=1,
                     threads=0, max_nodes=400, cancel=None, progress=None):
        """Trains the graph reader on question sets (JSON lines text {question, answers}) and stores it
        as name; returns the training report (a dict: epochs, best_epoch, kept_share, warnings, ...).
        cancel() is asked before each question and each training step (a cancelled training stores
        nothing and its report says "cancelled": True); progress(stage, done, total) is told
        "examples" per question and "epochs" per epoch."""
        r = _options("grappi_retrieve_options", _retrieve_init)
        r.mode, r.seeds, r.topk = mode.encode(), seeds, topk
        o = _options("grappi_reader_options", _reader_init)
        o.name, o.scope, o.epochs, o.layers, o.hidden, o.heads = name.encode(), scope.encode(), epochs, layers, hidden, heads
        o.dropout, o.learning_rate, o.patience, o.seed, o.threads = dropout, learning_rate, patience, seed, threads
        o.max_nodes = max_nodes
        run = _run_options(cancel, progress)
        if run is not None:
            o.run = ctypes.pointer(run[0])
        p = ctypes.c_void_p()
        _check(_train_reader(self._handle(), train.encode(), valid.encode() if valid is not None else None,
                             ctypes.byref(r), None, ctypes.byref(o), ctypes.byref(p)))
        return json.loads(_take_string(p))

    def reader_scores(self, question, mode="gretriever", seeds=10, topk=3, reader_name="gat"):
        """The stored graph reader's score of each node of the question's subgraph (a dict: reader,
        scope, nodes best first)."""
        r = _options("grappi_retrieve_options", _retrieve_init)
        r.mode, r.seeds, r.topk = mode.encode(), seeds, topk
        o = _options("grappi_ask_options", _ask_init)
        o.reader_name = reader_name.encode()
        p = ctypes.c_void_p()
        _check(_reader_scores(self._handle(), question.encode(), ctypes.byref(r), ctypes.byref(o), ctypes.byref(p)))
        return json.loads(_take_string(p))

    def pagerank(self, seeds=(), top=10, damping=0.85):
        """The top nodes by PageRank, personalised to seeds (nodes) when given: [(node id, score)]."""
        seeds = [self._node(x) for x in seeds]
        s = (_i64 * len(seeds))(*seeds)
        ids = (_i64 * top)()
        scores = (ctypes.c_double * top)()
        n = _size()
        _check(_pagerank(self._handle(), s if seeds else None, len(seeds), damping, ids, scores, top, ctypes.byref(n)))
        return [(ids[i], scores[i]) for i in range(n.value)]

    def export(self, path, format="jsonl", relations=None, min_score=0.0, nodes=None, khop=None, hops=1):
        """Writes the graph, or the part the selection keeps, to path ("jsonl": lossless,
        import_file reads it back; "tsv"; "graphml"; "cx2": Cytoscape/NDEx, import_file reads it
        back; "bel": the BEL statements as a BEL script). relations: only edges of these;
        min_score: only edges scoring at least this; nodes: only these (names or ids) and the
        edges among them; khop/hops: only the nodes within hops steps of khop. Returns (nodes,
        edges) written."""
        o = _ExportOptions()
        _check(_export_init(ctypes.byref(o), 1))
        rel = [r.encode() for r in (relations or [])]
        nod = [self._as_name(x).encode() for x in (nodes or [])]
        rel_array = (ctypes.c_char_p * max(len(rel), 1))(*rel)
        nod_array = (ctypes.c_char_p * max(len(nod), 1))(*nod)
        if rel:
            o.relations, o.relation_count = rel_array, len(rel)
        if nod:
            o.nodes, o.node_count = nod_array, len(nod)
        o.min_score = min_score
        o.khop = self._as_name(khop).encode() if khop is not None else None
        o.hops = hops
        n, e, skipped = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_uint64()
        _check(_export_selection(self._handle(), format.encode(), os.fsencode(path), ctypes.byref(o), ctypes.byref(n),
                                 ctypes.byref(e), ctypes.byref(skipped)))
        return n.value, e.value

    def edges(self, a, b):
        """Every edge between two node ids with its evidence: STRING channels, PubMed ids, and the
        source rows behind it ("records": IntAct interactions with their ids, MI types, raw rows)."""
        p = ctypes.c_void_p()
        _check(_edges(self._handle(), self._node(a), self._node(b), ctypes.byref(p)))
        return json.loads(_take_string(p))

    def ontology(self, question, term=None, other=None, relations=None):
        """An ontology question: "term", "ancestors", "descendants", "parents", "children", "lca"
        (other: the second term), "subtree" (term: the root) or "roots"; for "term", other is a
        root to report the depth under. relations: child-to-parent relations (default obo.is_a)."""
        enc = lambda v: v.encode() if v is not None else None
        rel, count = _strings(relations)
        p = ctypes.c_void_p()
        _check(_ontology(self._handle(), question.encode(), enc(term), enc(other), rel, count, ctypes.byref(p)))
        return json.loads(_take_string(p))

    def bel_validate(self, text, long_form=False, allow_unknown_namespaces=False):
        """bel_validate with this graph's identifiers: HGNC symbols and ids and imported ontology
        terms are written NS:id ! label in the canonical forms."""
        flags = (1 if long_form else 0) | (2 if allow_unknown_namespaces else 0)
        p = ctypes.c_void_p()
        _check(_graph_bel_validate(self._handle(), text.encode(), flags, ctypes.byref(p), None))
        return json.loads(_take_string(p))

    def khop(self, question, seeds=3, hops=1, degree_cap=0):
        """Seeds by similarity to the question, expanded hops steps: {"seeds", "nodes", "edges"}."""
        p = ctypes.c_void_p()
        _check(_khop(self._handle(), question.encode(), seeds, hops, degree_cap, ctypes.byref(p)))
        return Result(json.loads(_take_string(p)))

    def retrieve(self, question, csv=False, mode="gretriever", seeds=10, hops=2, degree_cap=20, node_budget=2000,
                 min_score=0.0, topk=3, topk_e=5, cost_e=0.5, pruning="gw", num_clusters=1, event_order="default",
                 relations=None):
        """A connected, compact subgraph for the question by PCST: the JSON as a dict, or with csv=True
        G-Retriever's CSV text. event_order: "default", "fast" or "reference" (pcst_fast's own);
        relations: only edges of these."""
        o = _options("grappi_retrieve_options", _retrieve_init)
        rel = [r.encode() for r in (relations or [])]
        rel_array = (ctypes.c_char_p * max(len(rel), 1))(*rel)
        if rel:
            o.relations, o.relation_count = rel_array, len(rel)
        o.mode, o.seeds, o.hops, o.degree_cap, o.node_budget = mode.encode(), seeds, hops, degree_cap, node_budget
        o.min_score, o.topk, o.topk_e, o.cost_e = min_score, topk, topk_e, cost_e
        o.pruning, o.num_clusters, o.event_order = pruning.encode(), num_clusters, _event_order(event_order)
        p = ctypes.c_void_p()
        _check((_retrieve_csv if csv else _retrieve_json)(self._handle(), question.encode(), ctypes.byref(o),
                                                           ctypes.byref(p)))
        text = _take_string(p)
        return text if csv else json.loads(text)


class PcstSolver(_Owned):
    """A prize-collecting Steiner tree solver that keeps its buffers between solves (one per thread)."""

    def __init__(self):
        self._h = ctypes.c_void_p()
        _check(_pcst_new(ctypes.byref(self._h)))

    _release = staticmethod(_pcst_free)
    _what = "solver"

    def solve(self, prizes, edges, costs, root=-1, num_clusters=1, pruning="gw", improve=False, event_order="default"):
        """Returns {"nodes", "edges", "objective", "net_worth", "objective_before_improve",
        "improve_rounds"}: node ids and edge indices ascending. improve: local search after pruning;
        event_order: "default", "fast" or "reference" (pcst_fast's own order: its results exactly)."""
        self._handle()
        o = _options("grappi_pcst_options", _pcst_options_init)
        o.root, o.num_clusters, o.pruning = root, num_clusters, pruning.encode()
        o.improve, o.event_order = 1 if improve else 0, _event_order(event_order)
        r = _PcstResult()
        r.version = _VERSIONS["grappi_pcst_result"]
        n, m = len(prizes), len(edges)
        flat = [x for e in edges for x in e]
        _check(_pcst_solve(self._h, n, (ctypes.c_double * max(n, 1))(*prizes), m, (_i64 * max(2 * m, 1))(*flat),
                           (ctypes.c_double * max(m, 1))(*costs), ctypes.byref(o), ctypes.byref(r)))
        return {"nodes": list(r.nodes[: r.num_nodes]), "edges": list(r.edges[: r.num_edges]), "objective": r.objective,
                "net_worth": r.net_worth, "objective_before_improve": r.objective_before_improve,
                "improve_rounds": r.improve_rounds}


def pcst_solve(prizes, edges, costs, root=-1, num_clusters=1, pruning="gw", improve=False, event_order="default"):
    """Returns (nodes, edge indices, objective) with a one-off PcstSolver. event_order: "default"
    (pcst_fast's own order: its results exactly), "reference" (the same) or "fast"."""
    r = PcstSolver().solve(prizes, edges, costs, root, num_clusters, pruning, improve, event_order)
    return r["nodes"], r["edges"], r["objective"]
