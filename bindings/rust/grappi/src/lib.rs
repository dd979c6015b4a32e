//! Safe Rust interface to grappi's C API: a `Graph` that closes itself (`Drop`), `Result`s
//! carrying the library's status and message, and iterators over neighbors.
use grappi_sys as sys;
use std::ffi::{CStr, CString};
use std::fmt;
use std::os::raw::{c_char, c_void};
use std::path::{Path, PathBuf};
use std::ptr;
use std::sync::Arc;

/// A failure reported by grappi: its status code and message.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    pub status: i32,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "grappi error {}: {}", self.status, self.message)
    }
}
impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

fn check(status: sys::grappi_status) -> Result<()> {
    if status == sys::GRAPPI_OK {
        return Ok(());
    }
    let message = unsafe { CStr::from_ptr(sys::grappi_last_error_message()) }.to_string_lossy().into_owned();
    Err(Error { status, message })
}

fn cstring(s: &str) -> Result<CString> {
    CString::new(s).map_err(|_| Error { status: sys::GRAPPI_EINVAL, message: "string contains a NUL byte".into() })
}

/// An options struct filled by its `_init` function.
fn init<T>(f: impl FnOnce(*mut T) -> sys::grappi_status) -> Result<T> {
    let mut v = std::mem::MaybeUninit::<T>::uninit();
    check(f(v.as_mut_ptr()))?;
    // SAFETY: the _init function filled every field of the version it was given, the current one.
    Ok(unsafe { v.assume_init() })
}

/// Settings of [`Model::new`] (defaults as the C API's `GRAPPI_MODEL_OPTIONS_INIT`).
#[derive(Clone, Debug)]
pub struct ModelOptions {
    /// "extractive" (offline, not a language model) or "openai" (then `model`).
    pub llm: String,
    pub base_url: Option<String>,
    pub model: Option<String>,
    /// The environment variable holding the API key (default "OPENAI_API_KEY").
    pub api_key_env: Option<String>,
    pub temperature: f64,
    /// The answer limit when a request sets none.
    pub max_answer_tokens: i32,
    /// Ask for JSON objects when a request wants JSON.
    pub json_mode: bool,
    pub connect_timeout_seconds: f64,
    /// Per request, the answer included.
    pub timeout_seconds: f64,
    /// On connection errors, timeouts, 408, 409, 429 and 5xx.
    pub max_retries: i32,
    /// Requests in flight at once, across every run that uses the model.
    pub concurrency: usize,
}

impl Default for ModelOptions {
    fn default() -> Self {
        ModelOptions {
            llm: "extractive".into(),
            base_url: None,
            model: None,
            api_key_env: None,
            temperature: 0.0,
            max_answer_tokens: 512,
            json_mode: true,
            connect_timeout_seconds: 10.0,
            timeout_seconds: 120.0,
            max_retries: 3,
            concurrency: 8,
        }
    }
}

/// A language model for the agents' runs (`grappi_model_new`), given to them through
/// [`Run::model`] (shared by any number of runs) and freed on `Drop`.
pub struct Model {
    h: *mut sys::grappi_model,
}

// SAFETY: the library's models are shared by concurrent runs (their requests go through one
// limiter); the handle is only freed on drop.
unsafe impl Send for Model {}
unsafe impl Sync for Model {}

impl Model {
    /// Makes a model; no request is sent until a run uses it.
    pub fn new(o: &ModelOptions) -> Result<Model> {
        let llm = cstring(&o.llm)?;
        let base = o.base_url.as_deref().map(cstring).transpose()?;
        let model = o.model.as_deref().map(cstring).transpose()?;
        let key = o.api_key_env.as_deref().map(cstring).transpose()?;
        let mut opts = init(|p| unsafe { sys::grappi_model_options_init(p, sys::GRAPPI_MODEL_OPTIONS_VERSION) })?;
        opts.llm = llm.as_ptr();
        if let Some(b) = &base {
            opts.base_url = b.as_ptr();
        }
        opts.model = model.as_ref().map_or(ptr::null(), |c| c.as_ptr());
        if let Some(k) = &key {
            opts.api_key_env = k.as_ptr();
        }
        opts.temperature = o.temperature;
        opts.max_answer_tokens = o.max_answer_tokens;
        opts.json_mode = o.json_mode as i32;
        opts.connect_timeout_seconds = o.connect_timeout_seconds;
        opts.timeout_seconds = o.timeout_seconds;
        opts.max_retries = o.max_retries;
        opts.concurrency = o.concurrency;
        let mut h = ptr::null_mut();
        check(unsafe { sys::grappi_model_new(&opts, &mut h) })?;
        Ok(Model { h })
    }

    /// The model as the runs' provenance records it, as JSON (never the API key).
    pub fn describe(&self) -> Result<String> {
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_model_describe_json(self.h, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        unsafe { sys::grappi_model_free(self.h) }
    }
}

/// A function polled before each model request: true stops the run.
pub type CancelFn = Arc<dyn Fn() -> bool + Send + Sync>;
/// A function told the stage, the items done and their total, one call at a time.
pub type ProgressFn = Arc<dyn Fn(&str, usize, usize) + Send + Sync>;

/// What a run takes beside its options (`grappi_run_options`): a [`Model`] (none: the offline
/// default, not a language model), a cancel function and a progress function; all optional. The
/// explore, ground, extract, hypothesis and ask options carry one.
#[derive(Clone, Default)]
pub struct Run {
    pub model: Option<Arc<Model>>,
    pub cancel: Option<CancelFn>,
    pub progress: Option<ProgressFn>,
}

impl fmt::Debug for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Run")
            .field("model", &self.model.is_some())
            .field("cancel", &self.cancel.is_some())
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// What one run may spend, and whether it reads the database's response cache
/// (`grappi_budget_options`, the `budget` of the explore, ground, extract, hypothesis and ask
/// options). A spent budget stops the run: what was done is kept, the rest is "skipped".
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Model calls at most (0: no limit; answers from the cache are free).
    pub max_calls: usize,
    /// Prompt and completion tokens at most (0: no limit).
    pub max_tokens: i64,
    /// Count the calls and tokens the run would spend, send nothing (not hypothesize).
    pub dry_run: bool,
    pub use_cache: bool,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { max_calls: 0, max_tokens: 0, dry_run: false, use_cache: true }
    }
}

impl Budget {
    fn to_c(self) -> sys::grappi_budget_options {
        sys::grappi_budget_options {
            max_calls: self.max_calls,
            max_tokens: self.max_tokens,
            dry_run: self.dry_run as i32,
            use_cache: self.use_cache as i32,
        }
    }
}

struct RunHooks {
    cancel: Option<CancelFn>,
    progress: Option<ProgressFn>,
}

/// The C run options of a [`Run`] and what they point to (kept alive for the call).
struct RunGuard {
    opts: sys::grappi_run_options,
    _hooks: Box<RunHooks>,
    _model: Option<Arc<Model>>,
}

unsafe extern "C" fn run_cancel(user: *mut c_void) -> i32 {
    let hooks = &*(user as *const RunHooks);
    match &hooks.cancel {
        // (a panicking cancel function stops the run; a panic must not cross into C)
        Some(f) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f())).map_or(1, |stop| stop as i32),
        None => 0,
    }
}

unsafe extern "C" fn run_progress(user: *mut c_void, stage: *const c_char, done: usize, total: usize) {
    let hooks = &*(user as *const RunHooks);
    if let Some(f) = &hooks.progress {
        let stage = CStr::from_ptr(stage).to_string_lossy();
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&stage, done, total)));
    }
}

impl RunGuard {
    /// None when the run sets nothing (the C options' `run` stays NULL).
    fn of(run: &Run) -> Result<Option<RunGuard>> {
        if run.model.is_none() && run.cancel.is_none() && run.progress.is_none() {
            return Ok(None);
        }
        let mut opts = init(|p| unsafe { sys::grappi_run_options_init(p, sys::GRAPPI_RUN_OPTIONS_VERSION) })?;
        let hooks = Box::new(RunHooks { cancel: run.cancel.clone(), progress: run.progress.clone() });
        opts.model = run.model.as_ref().map_or(ptr::null(), |m| m.h as *const sys::grappi_model);
        if hooks.cancel.is_some() {
            opts.cancel = Some(run_cancel);
        }
        if hooks.progress.is_some() {
            opts.progress = Some(run_progress);
        }
        opts.user_data = &*hooks as *const RunHooks as *mut c_void;
        Ok(Some(RunGuard { opts, _hooks: hooks, _model: run.model.clone() }))
    }

    fn ptr(guard: &Option<RunGuard>) -> *const sys::grappi_run_options {
        guard.as_ref().map_or(ptr::null(), |g| &g.opts as *const sys::grappi_run_options)
    }
}

/// Takes ownership of a library-allocated string.
unsafe fn take_string(p: *mut c_char) -> String {
    let s = CStr::from_ptr(p).to_string_lossy().into_owned();
    sys::grappi_free(p.cast());
    s
}

/// The library version, e.g. "0.1.0".
pub fn version() -> String {
    unsafe { CStr::from_ptr(sys::grappi_version_string()) }.to_string_lossy().into_owned()
}

/// Checks BEL 2.1 (a BEL script or statements one per line) and returns the JSON document
/// (problems with line, column, severity, code and message; per statement its canonical form,
/// citation, evidence and annotations) with the number of errors. Invalid BEL is not an `Err`.
pub fn bel_validate(text: &str, long_form: bool, allow_unknown_namespaces: bool) -> Result<(String, usize)> {
    let t = cstring(text)?;
    let flags = bel_flags(long_form, allow_unknown_namespaces);
    let mut out = ptr::null_mut();
    let mut errors = 0usize;
    check(unsafe { sys::grappi_bel_validate(t.as_ptr(), flags, &mut out, &mut errors) })?;
    Ok((unsafe { take_string(out) }, errors))
}

fn bel_flags(long_form: bool, allow_unknown_namespaces: bool) -> u32 {
    let mut flags = 0u32;
    if long_form {
        flags |= sys::GRAPPI_BEL_LONG_FORM;
    }
    if allow_unknown_namespaces {
        flags |= sys::GRAPPI_BEL_ALLOW_UNKNOWN_NAMESPACES;
    }
    flags
}

/// A knowledge-graph database (created when missing); closed when dropped.
pub struct Graph {
    h: *mut sys::grappi_graph,
}

// The C handle serialises its calls internally (see the README's thread-safety section).
unsafe impl Send for Graph {}
unsafe impl Sync for Graph {}

/// A node as `Graph`'s methods take it: a node id (`i64`, `i32`), or a name, alias or external id
/// (`&str`, `String`) resolved as `Graph::resolve` does (unknown or ambiguous names are errors).
pub trait NodeRef {
    /// The node id this stands for in `g`.
    fn node_id(&self, g: &Graph) -> Result<i64>;
}
impl NodeRef for i64 {
    fn node_id(&self, _: &Graph) -> Result<i64> {
        Ok(*self)
    }
}
impl NodeRef for i32 {
    fn node_id(&self, _: &Graph) -> Result<i64> {
        Ok(i64::from(*self))
    }
}
impl NodeRef for &str {
    fn node_id(&self, g: &Graph) -> Result<i64> {
        g.resolve(self)
    }
}
impl NodeRef for String {
    fn node_id(&self, g: &Graph) -> Result<i64> {
        g.resolve(self)
    }
}
impl NodeRef for &String {
    fn node_id(&self, g: &Graph) -> Result<i64> {
        g.resolve(self)
    }
}

impl Graph {
    pub fn open<P: AsRef<Path>>(path: P) -> Result<Graph> {
        let p = cstring(&path.as_ref().to_string_lossy())?;
        let mut h = ptr::null_mut();
        check(unsafe { sys::grappi_graph_open(p.as_ptr(), ptr::null(), &mut h) })?;
        Ok(Graph { h })
    }

    /// Imports one STRING file; `kind` is "info", "aliases", "links", "detailed", "physical",
    /// "actions", "export", or None to detect it from the header.
    pub fn import<P: AsRef<Path>>(&self, path: P, kind: Option<&str>) -> Result<()> {
        let p = cstring(&path.as_ref().to_string_lossy())?;
        let k = kind.map(cstring).transpose()?;
        check(unsafe { sys::grappi_graph_import(self.h, k.as_ref().map_or(ptr::null(), |k| k.as_ptr()), p.as_ptr()) })
    }

    /// Imports one file with `grappi import`'s options; returns its JSON report (lines read,
    /// rows skipped with examples, nodes and edges created, ...).
    pub fn import_with<P: AsRef<Path>>(&self, path: P, kind: Option<&str>, options: &ImportOptions) -> Result<String> {
        let p = cstring(&path.as_ref().to_string_lossy())?;
        let k = kind.map(cstring).transpose()?;
        let text = |s: &Option<String>| s.as_deref().map(cstring).transpose();
        let (source, target, score) = (text(&options.source_column)?, text(&options.target_column)?, text(&options.score_column)?);
        let (relation_column, relation, label) = (text(&options.relation_column)?, text(&options.relation)?, text(&options.label)?);
        let ptr_of = |c: &Option<CString>| c.as_ref().map_or(ptr::null(), |c| c.as_ptr());
        let mut o: sys::grappi_import_options = init(|p| unsafe { sys::grappi_import_options_init(p, 1) })?;
        o.min_score = options.min_score;
        o.skip_bad_lines = options.skip_bad_lines as i32;
        o.max_bad_examples = options.max_bad_examples;
        o.max_rows = options.max_rows;
        o.taxon = options.taxon;
        o.source_column = ptr_of(&source);
        o.target_column = ptr_of(&target);
        o.score_column = ptr_of(&score);
        o.score_scale = options.score_scale;
        o.relation_column = ptr_of(&relation_column);
        o.relation = ptr_of(&relation);
        o.directed = options.directed as i32;
        o.header = options.header.map_or(-1, |h| h as i32);
        o.label = ptr_of(&label);
        o.separator = options.separator.map_or(0, |c| c as i32);
        let mut out = ptr::null_mut();
        check(unsafe {
            sys::grappi_graph_import_with(self.h, k.as_ref().map_or(ptr::null(), |k| k.as_ptr()), p.as_ptr(), &o, &mut out)
        })?;
        Ok(unsafe { take_string(out) })
    }

    pub fn resolve(&self, name: &str) -> Result<i64> {
        let n = cstring(name)?;
        let mut id = 0;
        check(unsafe { sys::grappi_graph_resolve(self.h, n.as_ptr(), &mut id) })?;
        Ok(id)
    }

    /// (nodes, edges) of the current snapshot.
    pub fn counts(&self) -> Result<(i64, i64)> {
        let (mut n, mut e) = (0, 0);
        check(unsafe { sys::grappi_graph_counts(self.h, &mut n, &mut e) })?;
        Ok((n, e))
    }

    /// The preferred name of a node (a node id, or a name, alias or external id).
    pub fn name(&self, node: impl NodeRef) -> Result<String> {
        let id = node.node_id(self)?;
        let mut p = ptr::null_mut();
        check(unsafe { sys::grappi_graph_node_name(self.h, id, &mut p) })?;
        Ok(unsafe { take_string(p) })
    }

    /// Neighbors with score >= min_score: an iterator of (node id, score).
    /// The neighbors of a protein named by name, alias or external id, strongest first (ties by
    /// node id), as JSON (`grappi neighbors --json`, docs/schemas/neighbors.schema.json): at most
    /// `limit` (0: all) of edges scoring at least `min_score`.
    pub fn neighbors_json(&self, protein: &str, min_score: f64, limit: usize) -> Result<String> {
        let p = cstring(protein)?;
        let mut out = ptr::null_mut();
        check(unsafe {
            sys::grappi_graph_neighbors_json(self.h, p.as_ptr(), 0, min_score, ptr::null(), 0, limit, &mut out)
        })?;
        Ok(unsafe { take_string(out) })
    }

    pub fn neighbors(&self, node: impl NodeRef, min_score: f64) -> Result<impl Iterator<Item = (i64, f64)>> {
        let id = node.node_id(self)?;
        let mut count = 0usize;
        let st = unsafe { sys::grappi_graph_neighbors(self.h, id, min_score, ptr::null_mut(), ptr::null_mut(), 0, &mut count) };
        if st != sys::GRAPPI_EBUFS {
            check(st)?;
        }
        let mut ids = vec![0i64; count];
        let mut scores = vec![0f64; count];
        check(unsafe {
            sys::grappi_graph_neighbors(self.h, id, min_score, ids.as_mut_ptr(), scores.as_mut_ptr(), count, &mut count)
        })?;
        Ok(ids.into_iter().zip(scores))
    }

    /// Embeds new or changed node texts with the built-in offline embedder (latent semantic
    /// analysis of the annotations) and ranks every node's neighbors; returns how many texts
    /// were embedded.
    pub fn embed(&self) -> Result<usize> {
        let mut n = 0;
        check(unsafe { sys::grappi_graph_embed(self.h, ptr::null(), &mut n) })?;
        Ok(n)
    }

    /// Embeds with an OpenAI-compatible server (`base_url`, e.g. "http://127.0.0.1:8080/v1", and
    /// `model`); `dimension` 0 keeps the model's own size.
    pub fn embed_openai(&self, base_url: &str, model: &str, dimension: usize) -> Result<usize> {
        let (kind, base, m) = (cstring("openai")?, cstring(base_url)?, cstring(model)?);
        let mut opts = init(|o| unsafe { sys::grappi_embed_options_init(o, sys::GRAPPI_EMBED_OPTIONS_VERSION) })?;
        opts.embedder = kind.as_ptr();
        opts.base_url = base.as_ptr();
        opts.model = m.as_ptr();
        opts.dimension = dimension;
        let mut n = 0;
        check(unsafe { sys::grappi_graph_embed(self.h, &opts, &mut n) })?;
        Ok(n)
    }

    /// The k nodes most similar to a text: (node id, cosine similarity), best first.
    pub fn search(&self, text: &str, k: usize) -> Result<Vec<(i64, f32)>> {
        let t = cstring(text)?;
        let mut ids = vec![0i64; k];
        let mut scores = vec![0f32; k];
        let mut n = 0;
        check(unsafe { sys::grappi_graph_search(self.h, t.as_ptr(), k, ids.as_mut_ptr(), scores.as_mut_ptr(), k, &mut n) })?;
        Ok(ids.into_iter().zip(scores).take(n).collect())
    }

    /// Up to k shortest simple paths as the library's JSON text.
    pub fn paths_json(&self, from: impl NodeRef, to: impl NodeRef, max_length: usize, k: usize) -> Result<String> {
        let (from, to) = (from.node_id(self)?, to.node_id(self)?);
        let mut p = ptr::null_mut();
        check(unsafe { sys::grappi_graph_paths_json(self.h, from, to, max_length, k, 0, &mut p) })?;
        Ok(unsafe { take_string(p) })
    }

    /// Every shortest path by hops (at most k; skip_direct: no edge joining the ends followed):
    /// HGCR's candidates, as the library's JSON text.
    pub fn all_shortest_paths_json(&self, from: impl NodeRef, to: impl NodeRef, max_length: usize, k: usize,
                                   skip_direct: bool) -> Result<String> {
        let (from, to) = (from.node_id(self)?, to.node_id(self)?);
        let mut p = ptr::null_mut();
        check(unsafe { sys::grappi_graph_all_shortest_paths_json(self.h, from, to, max_length, k, skip_direct as i32, &mut p) })?;
        Ok(unsafe { take_string(p) })
    }

    /// Personalised (seeds non-empty) or global PageRank: the top nodes, best first.
    pub fn pagerank(&self, seeds: &[i64], top: usize) -> Result<Vec<(i64, f64)>> {
        let mut ids = vec![0i64; top];
        let mut scores = vec![0f64; top];
        let mut n = 0;
        check(unsafe {
            sys::grappi_graph_pagerank(self.h, if seeds.is_empty() { ptr::null() } else { seeds.as_ptr() }, seeds.len(),
                                       0.85, ids.as_mut_ptr(), scores.as_mut_ptr(), top, &mut n)
        })?;
        Ok(ids.into_iter().zip(scores).take(n).collect())
    }
}

/// Options of [`Graph::import_with`] (defaults as `grappi import`'s): STRING scores, bad lines,
/// a row limit, and how edge lists (kind "edges") are read.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// Keep links scoring at least this on STRING's 0-1000 scale.
    pub min_score: i32,
    /// Import the good lines and count and quote the bad ones.
    pub skip_bad_lines: bool,
    pub max_bad_examples: u32,
    /// At most this many lines (or CX2/BEL JSON nodes plus edges) in the file; 0: no limit.
    pub max_rows: u64,
    /// Mapping tables and edge lists join only nodes of this NCBI taxon; 0: any.
    pub taxon: i64,
    /// Edge lists: columns by 1-based number or header name (None: "1" and "2", no score, no relation column).
    pub source_column: Option<String>,
    pub target_column: Option<String>,
    pub score_column: Option<String>,
    /// Scores are divided by this (1000 for STRING's scale).
    pub score_scale: f64,
    pub relation_column: Option<String>,
    /// The relation of every edge (None: "edges." and the file's name).
    pub relation: Option<String>,
    pub directed: bool,
    /// Whether the first line is a header (None: detected).
    pub header: Option<bool>,
    /// The label of nodes made for ids that join nothing (None: "Protein").
    pub label: Option<String>,
    /// '\t', ',' or ' ' (any blanks); None: detected.
    pub separator: Option<char>,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions { min_score: 0, skip_bad_lines: false, max_bad_examples: 5, max_rows: 0, taxon: 0,
                        source_column: None, target_column: None, score_column: None, score_scale: 1.0,
                        relation_column: None, relation: None, directed: false, header: None, label: None,
                        separator: None }
    }
}

/// What `Graph::export_selection` keeps: edges of these relations (empty: all) scoring at least
/// `min_score`, among these nodes (empty: all) and within `hops` steps of `khop` (when set).
#[derive(Clone, Debug)]
pub struct ExportSelection {
    pub relations: Vec<String>,
    pub min_score: f64,
    pub nodes: Vec<String>,
    pub khop: Option<String>,
    pub hops: usize,
}

impl Default for ExportSelection {
    fn default() -> Self {
        ExportSelection { relations: Vec::new(), min_score: 0.0, nodes: Vec::new(), khop: None, hops: 1 }
    }
}

/// Options of [`Graph::explore`] (defaults as the C API's).
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    pub windows: Vec<usize>,
    pub k: Vec<usize>,
    pub depth: usize,
    pub max_length: usize,
    /// Candidate paths kept: the best by the prior.
    pub max_paths: usize,
    /// Safety bound on the paths the candidate search visits.
    pub max_visited: usize,
    pub top: usize,
    pub explain_top: usize,
    /// 0-1: one ordering per protein set and maximal marginal relevance (0: the reference ranking).
    pub diversity: f64,
    /// Model calls in flight (the model bounds them too).
    pub concurrency: usize,
    pub budget: Budget,
    /// The run's model, cancel and progress functions ([`Run`]; default: the offline model).
    pub run: Run,
}

impl Default for ExploreOptions {
    fn default() -> Self {
        ExploreOptions {
            windows: vec![1],
            k: vec![30, 4],
            depth: 2,
            max_length: 4,
            max_paths: 2000,
            max_visited: 50_000_000,
            top: 10,
            explain_top: 0,
            diversity: 0.1,
            concurrency: 8,
            budget: Budget::default(),
            run: Run::default(),
        }
    }
}

/// Options of [`Graph::ground`] (defaults as the C API's; docs/ground.md "Relation grounding").
#[derive(Clone, Debug)]
pub struct GroundOptions {
    /// "pagerank", "bfs", "dfs", "dynamic", "random", "rag" or "stuff".
    pub strategy: String,
    /// The subtree to choose from (id or name).
    pub root: String,
    /// The ontology the root must belong to, as its OBO header names it ("mi"); None: any.
    pub ontology: Option<String>,
    /// Terms per scoring request.
    pub batch: usize,
    /// Evaluations without a better score before the look-ahead (0: every term).
    pub patience: usize,
    pub lookahead: usize,
    /// dynamic: the score whose children are visited.
    pub threshold: i32,
    pub rag_k: usize,
    /// random: the order's seed.
    pub seed: u64,
    pub budget: Budget,
    /// The run's model, cancel and progress functions ([`Run`]; default: the offline model).
    pub run: Run,
}

impl Default for GroundOptions {
    fn default() -> Self {
        GroundOptions {
            strategy: "pagerank".into(),
            root: "MI:0190".into(),
            ontology: None,
            batch: 1,
            patience: 10,
            lookahead: 5,
            threshold: 3,
            rag_k: 10,
            seed: 1,
            budget: Budget::default(),
            run: Run::default(),
        }
    }
}

/// Options of [`Graph::cooc_build`] (defaults as the C API's; docs/literature.md "Literature co-occurrence").
#[derive(Clone, Debug)]
pub struct CoocOptions {
    /// "document" or "sentence".
    pub scope: String,
    /// "include", "only" or "exclude".
    pub titles: String,
    /// Concept types kept (empty: every type).
    pub types: Vec<String>,
    pub min_count: usize,
    /// Only documents published before this year (0: every document).
    pub as_of: i32,
    /// The dataset's file; None: build and report only.
    pub path: Option<PathBuf>,
}

impl Default for CoocOptions {
    fn default() -> Self {
        CoocOptions { scope: "document".into(), titles: "include".into(), types: vec![], min_count: 1, as_of: 0, path: None }
    }
}

/// Options of [`Graph::hypothesize`] (defaults as the C API's).
#[derive(Clone, Debug)]
pub struct HypothesisOptions {
    /// Relations the paths follow.
    pub relations: Vec<String>,
    pub max_length: usize,
    pub paths: usize,
    pub mask_direct: bool,
    /// 0: the shortest paths, shortest first; n > 0: HGCR's candidates, n rounds of every
    /// shortest path, each without the earlier rounds' intermediate concepts.
    pub shortest_rounds: usize,
    /// Abstracts given to the model.
    pub context: usize,
    /// Explanations at most.
    pub rounds: usize,
    /// What the explanations may spend (no dry run).
    pub budget: Budget,
    /// Weight in [0, 1] of the intermediate concepts' embedding similarity to the pair in the
    /// paths' score (0: off; needs the nodes embedded).
    pub embedding_weight: f64,
    /// The run's model, cancel and progress functions ([`Run`]; default: the offline model).
    pub run: Run,
}

impl Default for HypothesisOptions {
    fn default() -> Self {
        HypothesisOptions {
            relations: vec!["cooc.document".into()],
            max_length: 4,
            paths: 10,
            mask_direct: false,
            shortest_rounds: 0,
            context: 7,
            rounds: 5,
            budget: Budget::default(),
            embedding_weight: 0.0,
            run: Run::default(),
        }
    }
}

/// Options of [`eval_hypotheses`] (defaults as the C API's; docs/literature.md "Evaluating hypotheses").
#[derive(Clone, Debug)]
pub struct EvalHypothesesOptions {
    /// The corpus format: "detect", "pubtator", "bioc-xml", "bioc-json", "jsonl", ...
    pub format: String,
    /// Shares of the documents before the split, each in (0, 1): none, 0.8; several, one
    /// evaluation each and the means.
    pub splits: Vec<f64>,
    /// A year to split at instead (0: by share).
    pub as_of: i32,
    /// Paths ranked per pair.
    pub paths: usize,
    /// Test pairs at most.
    pub pairs: usize,
    /// A pair counts when a positive path is among its first `top`.
    pub top: usize,
    /// Pairs explained for ROUGE (0: none, no model call).
    pub explain: usize,
    /// "prior" (the default), "trained" (nested) or "weights".
    pub scoring: String,
    /// Resamples of the pairs for the differences' 95% intervals (0: none).
    pub bootstrap: usize,
    /// The random baseline's and the resamples' seed.
    pub seed: u64,
    /// Edges in a path at most.
    pub max_length: usize,
    /// 0: the shortest paths; n: HGCR's candidates, n rounds of every shortest path.
    pub shortest_rounds: usize,
    /// The run's model, cancel and progress functions ([`Run`]; default: the offline model).
    pub run: Run,
}

impl Default for EvalHypothesesOptions {
    fn default() -> Self {
        EvalHypothesesOptions {
            format: "detect".into(),
            splits: Vec::new(),
            as_of: 0,
            paths: 50,
            pairs: 200,
            top: 10,
            explain: 20,
            scoring: "prior".into(),
            bootstrap: 1000,
            seed: 1,
            max_length: 4,
            shortest_rounds: 0,
            run: Run::default(),
        }
    }
}

/// Hypothesis paths by the temporal protocol (`grappi eval hypotheses`) on a corpus (its text):
/// the summary as JSON (grappi's ROC AUCs beside the baselines' on the same paths and labels, and
/// `differences`: grappi's figures minus each baseline's with 95% intervals over resamples of the
/// pairs) and, for one split, one JSON line per pair (`None` with several splits, whose summary
/// is `{"splits", "means"}`).
pub fn eval_hypotheses(corpus: &str, o: &EvalHypothesesOptions) -> Result<(String, Option<String>)> {
    let (c, format, scoring) = (cstring(corpus)?, cstring(&o.format)?, cstring(&o.scoring)?);
    let mut h = init(|p| unsafe { sys::grappi_hypothesis_options_init(p, sys::GRAPPI_HYPOTHESIS_OPTIONS_VERSION) })?;
    h.max_length = o.max_length;
    h.shortest_rounds = o.shortest_rounds;
    let run = RunGuard::of(&o.run)?;
    h.run = RunGuard::ptr(&run);
    let mut opts =
        init(|p| unsafe { sys::grappi_eval_hypotheses_options_init(p, sys::GRAPPI_EVAL_HYPOTHESES_OPTIONS_VERSION) })?;
    opts.corpus_format = format.as_ptr();
    opts.splits = if o.splits.is_empty() { ptr::null() } else { o.splits.as_ptr() };
    opts.split_count = o.splits.len();
    opts.as_of = o.as_of;
    opts.paths = o.paths;
    opts.pairs = o.pairs;
    opts.top = o.top;
    opts.explain = o.explain;
    opts.scoring = scoring.as_ptr();
    opts.bootstrap = o.bootstrap;
    opts.seed = o.seed;
    opts.hypothesis = &h;
    let several = o.splits.len() > 1;
    let (mut out, mut pairs) = (ptr::null_mut(), ptr::null_mut());
    let pairs_ptr: *mut *mut c_char = if several { ptr::null_mut() } else { &mut pairs };
    check(unsafe { sys::grappi_eval_hypotheses_json(ptr::null_mut(), c.as_ptr(), &opts, &mut out, pairs_ptr) })?;
    let json = unsafe { take_string(out) };
    Ok((json, if several { None } else { Some(unsafe { take_string(pairs) }) }))
}

/// Options of [`Graph::ask`] and [`Graph::eval_qa`] (defaults as the C API's; docs/ask.md "Questions").
#[derive(Clone, Debug)]
pub struct AskOptions {
    /// The prize mode of the subgraph: "gretriever" or "prize".
    pub mode: String,
    /// The context: "evidence" or "csv".
    pub context: String,
    /// Rough token budget of the context (0: none).
    pub max_context_tokens: usize,
    /// Answer entities returned.
    pub answers: usize,
    /// One turn asking the model to fix unsupported sentences.
    pub repair: bool,
    pub budget: Budget,
    /// How the answer entities are ranked: "prize" or "gat" (the stored graph reader `reader_name`).
    pub reader: String,
    pub reader_name: String,
    /// Retrieve for the question's intent (partners, connects, paths, class); false: every
    /// question is open (PCST).
    pub intents: bool,
    /// Ask the model (not the offline one) for the intent when the rules leave a question open.
    pub model_intent: bool,
    /// Passages of the database's stored papers in the context, cited as P0, P1, ... (0: none).
    pub papers: usize,
    /// The run's model, cancel and progress functions ([`Run`]; default: the offline model).
    pub run: Run,
}

impl Default for AskOptions {
    fn default() -> Self {
        AskOptions {
            mode: "gretriever".into(),
            context: "evidence".into(),
            max_context_tokens: 4000,
            answers: 10,
            repair: true,
            budget: Budget::default(),
            reader: "prize".into(),
            reader_name: "gat".into(),
            intents: true,
            model_intent: true,
            papers: 3,
            run: Run::default(),
        }
    }
}

/// Options of [`Graph::train_reader`] (defaults as the C API's; docs/ask.md "The graph reader").
#[derive(Clone, Debug)]
pub struct ReaderOptions {
    /// The subgraph's prize mode: "gretriever" or "prize".
    pub mode: String,
    /// The nodes scored: "subgraph" (the PCST selection) or "base" (the k-hop subgraph around it).
    pub scope: String,
    /// Stored under this name.
    pub name: String,
    pub epochs: usize,
    pub layers: usize,
    pub hidden: usize,
    pub heads: usize,
    /// The same seed gives the same reader.
    pub seed: u64,
    /// Cancel (a cancelled training keeps its best epoch, stores nothing and says so) and
    /// progress ("examples", "epochs"); the model is not used.
    pub run: Run,
}

impl Default for ReaderOptions {
    fn default() -> Self {
        ReaderOptions { mode: "gretriever".into(), scope: "subgraph".into(), name: "gat".into(), epochs: 60, layers: 2,
                        hidden: 64, heads: 4, seed: 1, run: Run::default() }
    }
}

/// Options of [`Graph::extract`] (defaults as the C API's; docs/extract.md "From papers to BEL").
#[derive(Clone, Debug)]
pub struct ExtractOptions {
    /// The input's format: "detect", "text", "pubtator", "bioc-xml", "bioc-json", "ppi-xml", "jsonl".
    pub format: String,
    /// The input's name in messages (a text's PubMed id is read from "PMID<digits>" in it).
    pub name: String,
    /// One repair turn for statements the validator rejects.
    pub repair: bool,
    /// The input's annotations are the entities (the dictionary adds none).
    pub annotations_only: bool,
    /// Preferred organism (NCBI taxon) for ambiguous names; 0: the paragraph's.
    pub taxon: i64,
    pub budget: Budget,
    /// Paragraphs (and so model calls) in flight.
    pub concurrency: usize,
    /// Flagged statements are written and imported too.
    pub include_flagged: bool,
    /// Write the BEL script here (with `import`: the dataset's file).
    pub bel_path: Option<PathBuf>,
    /// Write CX2 here.
    pub cx2_path: Option<PathBuf>,
    /// Import the statements as a BEL dataset (needs `bel_path`).
    pub import: bool,
    /// The run's model, cancel and progress functions ([`Run`]; default: the offline model).
    pub run: Run,
}

impl Default for ExtractOptions {
    fn default() -> Self {
        ExtractOptions {
            format: "detect".into(),
            name: "input".into(),
            repair: true,
            annotations_only: false,
            taxon: 0,
            budget: Budget::default(),
            concurrency: 4,
            include_flagged: false,
            bel_path: None,
            cx2_path: None,
            import: false,
            run: Run::default(),
        }
    }
}

impl Graph {
    /// BEL statements from papers (text, Markdown, PubTator, BioC, PPI corpus XML): entities
    /// grounded in the graph, every statement validated, as the library's JSON.
    pub fn extract(&self, content: &str, o: &ExtractOptions) -> Result<String> {
        let (c, format, name) = (cstring(content)?, cstring(&o.format)?, cstring(&o.name)?);
        let path = |p: &Option<PathBuf>| p.as_ref().map(|p| cstring(&p.to_string_lossy())).transpose();
        let (bel, cx2) = (path(&o.bel_path)?, path(&o.cx2_path)?);
        let mut opts = init(|p| unsafe { sys::grappi_extract_options_init(p, sys::GRAPPI_EXTRACT_OPTIONS_VERSION) })?;
        opts.format = format.as_ptr();
        opts.name = name.as_ptr();
        opts.repair = o.repair as i32;
        opts.annotations_only = o.annotations_only as i32;
        opts.taxon = o.taxon;
        opts.budget = o.budget.to_c();
        opts.concurrency = o.concurrency;
        opts.include_flagged = o.include_flagged as i32;
        opts.bel_path = bel.as_ref().map_or(ptr::null(), |c| c.as_ptr());
        opts.cx2_path = cx2.as_ref().map_or(ptr::null(), |c| c.as_ptr());
        opts.import_statements = o.import as i32;
        let run = RunGuard::of(&o.run)?;
        opts.run = RunGuard::ptr(&run);
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_extract_json(self.h, c.as_ptr(), &opts, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// A literature co-occurrence graph of an annotated corpus (PubTator, BioC), stored as a
    /// dataset when `o.path` is set; the figures and strongest edges as the library's JSON.
    pub fn cooc_build(&self, content: &str, o: &CoocOptions) -> Result<String> {
        let (c, scope, titles) = (cstring(content)?, cstring(&o.scope)?, cstring(&o.titles)?);
        let types = o.types.iter().map(|t| cstring(t)).collect::<Result<Vec<_>>>()?;
        let type_ptrs: Vec<*const c_char> = types.iter().map(|t| t.as_ptr()).collect();
        let path = o.path.as_ref().map(|p| cstring(&p.to_string_lossy())).transpose()?;
        let mut opts = init(|p| unsafe { sys::grappi_cooc_options_init(p, sys::GRAPPI_COOC_OPTIONS_VERSION) })?;
        opts.scope = scope.as_ptr();
        opts.titles = titles.as_ptr();
        if !type_ptrs.is_empty() {
            opts.types = type_ptrs.as_ptr();
            opts.type_count = type_ptrs.len();
        }
        opts.min_count = o.min_count;
        opts.as_of = o.as_of;
        opts.path = path.as_ref().map_or(ptr::null(), |c| c.as_ptr());
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_cooc_build_json(self.h, c.as_ptr(), &opts, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// How two concepts may be related: ranked paths, an explanation from the corpus's abstracts
    /// checked against the graph, as the library's JSON.
    pub fn hypothesize(&self, source: &str, target: &str, corpus: Option<&str>, o: &HypothesisOptions) -> Result<String> {
        let (s, t) = (cstring(source)?, cstring(target)?);
        let docs = corpus.map(cstring).transpose()?;
        let relations = o.relations.iter().map(|r| cstring(r)).collect::<Result<Vec<_>>>()?;
        let relation_ptrs: Vec<*const c_char> = relations.iter().map(|r| r.as_ptr()).collect();
        let mut opts = init(|p| unsafe { sys::grappi_hypothesis_options_init(p, sys::GRAPPI_HYPOTHESIS_OPTIONS_VERSION) })?;
        if !relation_ptrs.is_empty() {
            opts.relations = relation_ptrs.as_ptr();
            opts.relation_count = relation_ptrs.len();
        }
        opts.max_length = o.max_length;
        opts.paths = o.paths;
        opts.mask_direct = o.mask_direct as i32;
        opts.shortest_rounds = o.shortest_rounds;
        opts.context = o.context;
        opts.rounds = o.rounds;
        opts.embedding_weight = o.embedding_weight;
        opts.budget = o.budget.to_c();
        let run = RunGuard::of(&o.run)?;
        opts.run = RunGuard::ptr(&run);
        let mut out = ptr::null_mut();
        let docs_ptr = docs.as_ref().map_or(ptr::null(), |c| c.as_ptr());
        check(unsafe { sys::grappi_graph_hypothesize_json(self.h, s.as_ptr(), t.as_ptr(), docs_ptr, &opts, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// The ontology term (PSI-MI interaction type by default) that best describes how two
    /// proteins interact in a text, with quotes, confidence and trace, as the library's JSON.
    pub fn ground(&self, text: &str, protein_a: &str, protein_b: &str, o: &GroundOptions) -> Result<String> {
        let (t, a, b) = (cstring(text)?, cstring(protein_a)?, cstring(protein_b)?);
        let (strategy, root) = (cstring(&o.strategy)?, cstring(&o.root)?);
        let ontology = o.ontology.as_deref().map(cstring).transpose()?;
        let mut opts = init(|p| unsafe { sys::grappi_ground_options_init(p, sys::GRAPPI_GROUND_OPTIONS_VERSION) })?;
        opts.strategy = strategy.as_ptr();
        opts.root = root.as_ptr();
        opts.ontology = ontology.as_ref().map_or(ptr::null(), |c| c.as_ptr());
        opts.batch = o.batch;
        opts.patience = o.patience;
        opts.lookahead = o.lookahead;
        opts.threshold = o.threshold;
        opts.rag_k = o.rag_k;
        opts.seed = o.seed;
        opts.budget = o.budget.to_c();
        let run = RunGuard::of(&o.run)?;
        opts.run = RunGuard::ptr(&run);
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_ground_json(self.h, t.as_ptr(), a.as_ptr(), b.as_ptr(), &opts, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// Ranked, explained paths from a node (`resolve` turns a name into one) toward a
    /// therapeutic query, as the library's JSON text (docs/explore.md "output").
    pub fn explore(&self, root: impl NodeRef, query: &str, o: &ExploreOptions) -> Result<String> {
        Ok(self.explore_with(root.node_id(self)?, query, o, false)?.0)
    }

    /// As `explore`, with the run's self-contained HTML report: (JSON, HTML) (docs/web.md "HTML reports").
    pub fn explore_report(&self, root: impl NodeRef, query: &str, o: &ExploreOptions) -> Result<(String, String)> {
        let (json, html) = self.explore_with(root.node_id(self)?, query, o, true)?;
        Ok((json, html.unwrap_or_default()))
    }

    /// Nodes whose name, alias or external id begins with `prefix` (any case), as JSON
    /// `{"completions": [{"id", "name", "external_id", "matched", "matched_by"}]}`; `limit` 1-100.
    pub fn complete(&self, prefix: &str, limit: usize) -> Result<String> {
        let p = cstring(prefix)?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_complete_json(self.h, p.as_ptr(), limit, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// The stored papers matching a full-text query (SQLite FTS5 syntax), best first, as JSON:
    /// an array of {key, pmid, doi, year, title, snippet, score}.
    /// Imports the statements a curator accepted in a review file (`grappi extract --review`) as
    /// one BEL dataset written to `bel_path`; its report as JSON (dataset_id, edges_created,
    /// nodes_created, already_imported, path). A malformed file or an accepted statement that is
    /// not valid BEL is an error naming the line, and nothing is imported.
    pub fn import_review<P: AsRef<Path>, Q: AsRef<Path>>(&self, review_path: P, bel_path: Q) -> Result<String> {
        let r = cstring(&review_path.as_ref().to_string_lossy())?;
        let b = cstring(&bel_path.as_ref().to_string_lossy())?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_import_review_json(self.h, r.as_ptr(), b.as_ptr(), &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    pub fn search_papers(&self, query: &str, limit: usize) -> Result<String> {
        let q = cstring(query)?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_search_papers_json(self.h, q.as_ptr(), limit, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// Fits the hypothesis path ranker on a corpus (its text; `format` "detect", "pubtator", ...)
    /// by the temporal protocol and stores it as `name` ("paths": what hypothesize uses unasked);
    /// the training and the weights as JSON.
    pub fn train_ranker(&self, corpus: &str, format: &str, name: &str) -> Result<String> {
        self.train_ranker_with(corpus, format, name, &Run::default())
    }

    /// The same with cancel (a cancelled training stores nothing: `{"name", "cancelled": true}`)
    /// and progress (stage "pairs": the pairs labelled); the run's model is not used.
    pub fn train_ranker_with(&self, corpus: &str, format: &str, name: &str, run: &Run) -> Result<String> {
        let (c, f, n) = (cstring(corpus)?, cstring(format)?, cstring(name)?);
        let guard = RunGuard::of(run)?;
        let mut out = ptr::null_mut();
        check(unsafe {
            sys::grappi_graph_train_ranker_json(self.h, c.as_ptr(), f.as_ptr(), n.as_ptr(), RunGuard::ptr(&guard), &mut out)
        })?;
        Ok(unsafe { take_string(out) })
    }

    fn explore_with(&self, root: i64, query: &str, o: &ExploreOptions, report: bool) -> Result<(String, Option<String>)> {
        let q = cstring(query)?;
        let mut opts = init(|p| unsafe { sys::grappi_explore_options_init(p, sys::GRAPPI_EXPLORE_OPTIONS_VERSION) })?;
        opts.windows = o.windows.as_ptr();
        opts.window_count = o.windows.len();
        opts.k = o.k.as_ptr();
        opts.k_count = o.k.len();
        opts.depth = o.depth;
        opts.max_length = o.max_length;
        opts.max_paths = o.max_paths;
        opts.max_visited = o.max_visited;
        opts.top = o.top;
        opts.explain_top = o.explain_top;
        opts.diversity = o.diversity;
        opts.concurrency = o.concurrency;
        opts.budget = o.budget.to_c();
        let run = RunGuard::of(&o.run)?;
        opts.run = RunGuard::ptr(&run);
        let mut out = ptr::null_mut();
        if !report {
            check(unsafe { sys::grappi_graph_explore_json(self.h, root, q.as_ptr(), &opts, &mut out) })?;
            return Ok((unsafe { take_string(out) }, None));
        }
        let mut html = ptr::null_mut();
        check(unsafe { sys::grappi_graph_explore_report(self.h, root, q.as_ptr(), &opts, &mut out, &mut html) })?;
        let json = unsafe { take_string(out) };
        Ok((json, Some(unsafe { take_string(html) })))
    }

    /// Seeds by similarity to a question, then k-hop expansion, as JSON {"seeds", "nodes", "edges"}.
    pub fn khop_json(&self, question: &str, seeds: usize, hops: usize, degree_cap: usize) -> Result<String> {
        let q = cstring(question)?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_khop_json(self.h, q.as_ptr(), seeds, hops, degree_cap, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// Writes the whole graph to a file ("jsonl": lossless, `import` reads it back; "tsv";
    /// "graphml"; "cx2": Cytoscape/NDEx, `import` reads it back; "bel"); returns (nodes, edges)
    /// written.
    pub fn export<P: AsRef<Path>>(&self, path: P, format: &str) -> Result<(u64, u64)> {
        let p = cstring(&path.as_ref().to_string_lossy())?;
        let f = cstring(format)?;
        let (mut n, mut e) = (0u64, 0u64);
        check(unsafe { sys::grappi_graph_export(self.h, f.as_ptr(), p.as_ptr(), &mut n, &mut e) })?;
        Ok((n, e))
    }

    /// Writes the part of the graph a selection keeps (`export` with a selection; "bel" writes
    /// the BEL statements as a BEL script); returns (nodes, edges, edges not written because the
    /// format cannot hold them).
    pub fn export_selection<P: AsRef<Path>>(&self, path: P, format: &str, selection: &ExportSelection)
                                            -> Result<(u64, u64, u64)> {
        let p = cstring(&path.as_ref().to_string_lossy())?;
        let f = cstring(format)?;
        let relations = selection.relations.iter().map(|r| cstring(r)).collect::<Result<Vec<_>>>()?;
        let nodes = selection.nodes.iter().map(|n| cstring(n)).collect::<Result<Vec<_>>>()?;
        let relation_ptrs: Vec<*const c_char> = relations.iter().map(|r| r.as_ptr()).collect();
        let node_ptrs: Vec<*const c_char> = nodes.iter().map(|n| n.as_ptr()).collect();
        let khop = selection.khop.as_deref().map(cstring).transpose()?;
        let mut o: sys::grappi_export_options = init(|p| unsafe { sys::grappi_export_options_init(p, 1) })?;
        if !relation_ptrs.is_empty() {
            o.relations = relation_ptrs.as_ptr();
            o.relation_count = relation_ptrs.len();
        }
        if !node_ptrs.is_empty() {
            o.nodes = node_ptrs.as_ptr();
            o.node_count = node_ptrs.len();
        }
        o.min_score = selection.min_score;
        o.khop = khop.as_ref().map_or(std::ptr::null(), |k| k.as_ptr());
        o.hops = selection.hops;
        let (mut n, mut e, mut skipped) = (0u64, 0u64, 0u64);
        check(unsafe {
            sys::grappi_graph_export_selection(self.h, f.as_ptr(), p.as_ptr(), &o, &mut n, &mut e, &mut skipped)
        })?;
        Ok((n, e, skipped))
    }

    /// Every edge between two nodes with its evidence (channels, PubMed ids, and the source rows
    /// behind it: IntAct interactions with their ids, MI types and raw rows), as JSON.
    pub fn edges_json(&self, a: impl NodeRef, b: impl NodeRef) -> Result<String> {
        let (a, b) = (a.node_id(self)?, b.node_id(self)?);
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_edges_json(self.h, a, b, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// An ontology question as JSON: `question` is "term", "ancestors", "descendants", "parents",
    /// "children", "lca" (`other`: the second term), "subtree" (`term`: the root) or "roots"; for
    /// "term", `other` is a root to report the depth under. `relations`: child-to-parent
    /// relations (empty: obo.is_a).
    pub fn ontology_json(&self, question: &str, term: Option<&str>, other: Option<&str>, relations: &[&str]) -> Result<String> {
        let q = cstring(question)?;
        let t = term.map(cstring).transpose()?;
        let o = other.map(cstring).transpose()?;
        let r = relations.iter().map(|r| cstring(r)).collect::<Result<Vec<_>>>()?;
        let r_ptrs: Vec<*const c_char> = r.iter().map(|r| r.as_ptr()).collect();
        let p = |c: &Option<CString>| c.as_ref().map_or(ptr::null(), |c| c.as_ptr());
        let list = if r_ptrs.is_empty() { ptr::null() } else { r_ptrs.as_ptr() };
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_ontology_json(self.h, q.as_ptr(), p(&t), p(&o), list, r_ptrs.len(), &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// The functional enrichment of a protein set (names, aliases or ids) in the database's GO
    /// annotations, as JSON (docs/schemas/enrich.schema.json): per term the hypergeometric
    /// p-value, the Benjamini-Hochberg FDR per category and the strength. `categories`: "Process",
    /// "Function", "Component" (empty: every one annotated); `exclude_evidence`: codes such as
    /// "IEA"; `max_fdr`: terms reported (1.0: every term tested). The organism's annotated
    /// proteins are the background.
    pub fn enrich_json(&self, proteins: &[&str], categories: &[&str], exclude_evidence: &[&str], max_fdr: f64)
                       -> Result<String> {
        let owned = |v: &[&str]| v.iter().map(|s| cstring(s)).collect::<Result<Vec<_>>>();
        let (names, cats, codes) = (owned(proteins)?, owned(categories)?, owned(exclude_evidence)?);
        let ptrs = |v: &Vec<CString>| v.iter().map(|c| c.as_ptr()).collect::<Vec<*const c_char>>();
        let (name_ptrs, cat_ptrs, code_ptrs) = (ptrs(&names), ptrs(&cats), ptrs(&codes));
        let list = |v: &Vec<*const c_char>| if v.is_empty() { ptr::null() } else { v.as_ptr() };
        let mut opts = init(|p| unsafe { sys::grappi_enrich_options_init(p, sys::GRAPPI_ENRICH_OPTIONS_VERSION) })?;
        opts.categories = list(&cat_ptrs);
        opts.category_count = cat_ptrs.len();
        opts.exclude_evidence = list(&code_ptrs);
        opts.exclude_evidence_count = code_ptrs.len();
        opts.max_fdr = max_fdr;
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_enrich_json(self.h, list(&name_ptrs), name_ptrs.len(), &opts, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// Whether a protein set interacts more among itself than proteins of the same degrees would
    /// (STRING's PPI enrichment), as JSON: "nodes", "edges", "expected_edges", "p_value", ...
    /// The network: edges of at least `min_score` (0-1) of every relation that is no annotation.
    pub fn ppi_enrichment_json(&self, proteins: &[&str], min_score: f64) -> Result<String> {
        let names = proteins.iter().map(|s| cstring(s)).collect::<Result<Vec<_>>>()?;
        let ptrs: Vec<*const c_char> = names.iter().map(|c| c.as_ptr()).collect();
        let list = if ptrs.is_empty() { ptr::null() } else { ptrs.as_ptr() };
        let mut out = ptr::null_mut();
        check(unsafe {
            sys::grappi_graph_ppi_enrichment_json(self.h, list, ptrs.len(), min_score, ptr::null(), 0, &mut out)
        })?;
        Ok(unsafe { take_string(out) })
    }

    /// The clusters of the network (`proteins` empty) or of the subnetwork a protein set induces,
    /// as JSON (docs/schemas/cluster.schema.json): `method` "mcl" (at `inflation`), "leiden"
    /// (modularity at `resolution`) or "cpm"; the network: edges of at least `min_score` (0-1);
    /// `max_cluster_size` > 0 splits larger clusters again (hierarchical levels). Each cluster's
    /// members by external id, its edges and up to three enriched terms.
    pub fn cluster_json(&self, proteins: &[&str], method: &str, min_score: f64, inflation: f64, resolution: f64,
                        max_cluster_size: usize) -> Result<String> {
        let names = proteins.iter().map(|s| cstring(s)).collect::<Result<Vec<_>>>()?;
        let ptrs: Vec<*const c_char> = names.iter().map(|c| c.as_ptr()).collect();
        let list = if ptrs.is_empty() { ptr::null() } else { ptrs.as_ptr() };
        let m = cstring(method)?;
        let mut opts = init(|p| unsafe { sys::grappi_cluster_options_init(p, sys::GRAPPI_CLUSTER_OPTIONS_VERSION) })?;
        opts.method = m.as_ptr();
        opts.min_score = min_score;
        opts.inflation = inflation;
        opts.resolution = resolution;
        opts.max_cluster_size = max_cluster_size;
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_cluster_json(self.h, list, ptrs.len(), &opts, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// Clusters the network (Leiden, modularity, at `min_score`), writes a report per community of
    /// three or more members and stores the set under `name` (docs/function.md, "Community
    /// reports"); the set as JSON (docs/schemas/communities.schema.json). `model`: the summaries'
    /// model (kept only when every citation is the report's), or None: the extractive summary.
    pub fn build_communities_json(&self, name: &str, min_score: f64, model: Option<&Model>) -> Result<String> {
        let n = cstring(name)?;
        let m = cstring("leiden")?;
        let mut opts = init(|p| unsafe { sys::grappi_cluster_options_init(p, sys::GRAPPI_CLUSTER_OPTIONS_VERSION) })?;
        opts.method = m.as_ptr();
        opts.min_score = min_score;
        opts.runs = 5;
        let model_h = model.map_or(ptr::null(), |x| x.h as *const sys::grappi_model);
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_build_communities_json(self.h, n.as_ptr(), &opts, model_h, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// The community reports stored under `name` as JSON ("stale" when the graph changed since);
    /// GRAPPI_ENOTFOUND when none is stored.
    pub fn communities_json(&self, name: &str) -> Result<String> {
        let n = cstring(name)?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_communities_json(self.h, n.as_ptr(), &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// `bel_validate` with this graph's identifiers: HGNC symbols and ids and imported ontology
    /// terms are written `NS:id ! label` in the canonical forms.
    pub fn bel_validate(&self, text: &str, long_form: bool, allow_unknown_namespaces: bool) -> Result<(String, usize)> {
        let t = cstring(text)?;
        let mut out = ptr::null_mut();
        let mut errors = 0usize;
        let flags = bel_flags(long_form, allow_unknown_namespaces);
        check(unsafe { sys::grappi_graph_bel_validate(self.h, t.as_ptr(), flags, &mut out, &mut errors) })?;
        Ok((unsafe { take_string(out) }, errors))
    }

    fn retrieve_options(mode: &CString, order: EventOrder) -> Result<sys::grappi_retrieve_options> {
        let mut opts = init(|p| unsafe { sys::grappi_retrieve_options_init(p, sys::GRAPPI_RETRIEVE_OPTIONS_VERSION) })?;
        opts.mode = mode.as_ptr();
        opts.event_order = order as i32;
        Ok(opts)
    }

    /// A connected, compact subgraph for a question by PCST ("gretriever" or "prize" mode) as the
    /// library's JSON.
    pub fn retrieve_json(&self, question: &str, mode: &str, order: EventOrder) -> Result<String> {
        let (q, m) = (cstring(question)?, cstring(mode)?);
        let opts = Self::retrieve_options(&m, order)?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_retrieve_json(self.h, q.as_ptr(), &opts, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    fn ask_options(o: &AskOptions, context: &CString, reader: &(CString, CString)) -> Result<sys::grappi_ask_options> {
        let mut opts = init(|p| unsafe { sys::grappi_ask_options_init(p, sys::GRAPPI_ASK_OPTIONS_VERSION) })?;
        opts.reader = reader.0.as_ptr();
        opts.reader_name = reader.1.as_ptr();
        opts.context = context.as_ptr();
        opts.answers = o.answers;
        opts.max_context_tokens = o.max_context_tokens;
        opts.repair = o.repair as i32;
        opts.intents = o.intents as i32;
        opts.model_intent = o.model_intent as i32;
        opts.papers = o.papers;
        opts.budget = o.budget.to_c();
        Ok(opts)
    }

    /// What a question asks, as the library's JSON: `intent` ("partners", "connects", "paths",
    /// "class", "open"), `topic`, and the `entities` it names (node, id, name, text, offset).
    pub fn analyze_question(&self, question: &str) -> Result<String> {
        let q = cstring(question)?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_analyze_question_json(self.h, q.as_ptr(), &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// A grounded answer to a question (retrieved for its intent, or by PCST in `o.mode` when it
    /// is open; every citation checked) as the library's JSON: `question_entities`, `intent`,
    /// `answer_entities`, `sentences`, ... (docs/ask.md "Questions").
    pub fn ask(&self, question: &str, o: &AskOptions) -> Result<String> {
        let (q, m, ctx) = (cstring(question)?, cstring(&o.mode)?, cstring(&o.context)?);
        let retrieve = Self::retrieve_options(&m, EventOrder::Default)?;
        let reader = (cstring(&o.reader)?, cstring(&o.reader_name)?);
        let mut opts = Self::ask_options(o, &ctx, &reader)?;
        let run = RunGuard::of(&o.run)?;
        opts.run = RunGuard::ptr(&run);
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_ask_json(self.h, q.as_ptr(), &retrieve, &opts, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// Answers a question set (JSON lines or a KG-RAG CSV text) and scores the answers: the
    /// summary JSON (`mrr`, `hits_at_1`, ...) and one JSON line per question.
    pub fn eval_qa(&self, questions: &str, k: usize, o: &AskOptions) -> Result<(String, String)> {
        let (q, m, ctx) = (cstring(questions)?, cstring(&o.mode)?, cstring(&o.context)?);
        let retrieve = Self::retrieve_options(&m, EventOrder::Default)?;
        let reader = (cstring(&o.reader)?, cstring(&o.reader_name)?);
        let mut opts = Self::ask_options(o, &ctx, &reader)?;
        let run = RunGuard::of(&o.run)?;
        opts.run = RunGuard::ptr(&run);
        let (mut out, mut rows) = (ptr::null_mut(), ptr::null_mut());
        check(unsafe { sys::grappi_graph_eval_qa_json(self.h, q.as_ptr(), &retrieve, &opts, k, &mut out, &mut rows) })?;
        let summary = unsafe { take_string(out) };
        Ok((summary, unsafe { take_string(rows) }))
    }

    /// Trains the graph reader on question sets (JSON lines {question, answers}; `valid` for
    /// early stopping, else a seeded share of `train`) and stores it: the training report JSON.
    pub fn train_reader(&self, train: &str, valid: Option<&str>, o: &ReaderOptions) -> Result<String> {
        let (t, m, scope, name) = (cstring(train)?, cstring(&o.mode)?, cstring(&o.scope)?, cstring(&o.name)?);
        let v = valid.map(cstring).transpose()?;
        let retrieve = Self::retrieve_options(&m, EventOrder::Default)?;
        let mut opts = init(|p| unsafe { sys::grappi_reader_options_init(p, sys::GRAPPI_READER_OPTIONS_VERSION) })?;
        opts.scope = scope.as_ptr();
        opts.name = name.as_ptr();
        opts.epochs = o.epochs;
        opts.layers = o.layers;
        opts.hidden = o.hidden;
        opts.heads = o.heads;
        opts.seed = o.seed;
        let run = RunGuard::of(&o.run)?;
        opts.run = RunGuard::ptr(&run);
        let mut out = ptr::null_mut();
        check(unsafe {
            sys::grappi_graph_train_reader_json(self.h, t.as_ptr(), v.as_ref().map_or(ptr::null(), |c| c.as_ptr()),
                                                &retrieve, ptr::null(), &opts, &mut out)
        })?;
        Ok(unsafe { take_string(out) })
    }

    /// The stored graph reader `reader_name`'s score of each node of a question's subgraph
    /// (retrieved in `mode`) as JSON: `reader`, `scope`, `nodes` best first.
    pub fn reader_scores(&self, question: &str, mode: &str, reader_name: &str) -> Result<String> {
        let (q, m, r) = (cstring(question)?, cstring(mode)?, cstring(reader_name)?);
        let retrieve = Self::retrieve_options(&m, EventOrder::Default)?;
        let mut ask = init(|p| unsafe { sys::grappi_ask_options_init(p, sys::GRAPPI_ASK_OPTIONS_VERSION) })?;
        ask.reader_name = r.as_ptr();
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_reader_scores_json(self.h, q.as_ptr(), &retrieve, &ask, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }

    /// The same subgraph as G-Retriever's CSV text.
    pub fn retrieve_csv(&self, question: &str, mode: &str, order: EventOrder) -> Result<String> {
        let (q, m) = (cstring(question)?, cstring(mode)?);
        let opts = Self::retrieve_options(&m, order)?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::grappi_graph_retrieve_csv(self.h, q.as_ptr(), &opts, &mut out) })?;
        Ok(unsafe { take_string(out) })
    }
}

impl Drop for Graph {
    fn drop(&mut self) {
        unsafe { sys::grappi_graph_free(self.h) }
    }
}

/// The PCST solver's event order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventOrder {
    /// The library's default: pcst_fast's order.
    Default = 0,
    /// grappi's radix-queue order: fastest; differs from pcst_fast only where events tie.
    Fast = 1,
    /// pcst_fast's own order: its results exactly, ties included.
    Reference = 2,
}

/// Options of [`PcstSolver::solve`].
#[derive(Clone, Debug)]
pub struct PcstOptions {
    /// -1: unrooted.
    pub root: i64,
    /// Trees wanted when unrooted; 1 when rooted.
    pub num_clusters: i32,
    /// "none", "simple", "gw" or "strong".
    pub pruning: String,
    /// Local search after pruning (never worse).
    pub improve: bool,
    pub event_order: EventOrder,
}

impl Default for PcstOptions {
    fn default() -> Self {
        PcstOptions { root: -1, num_clusters: 1, pruning: "gw".into(), improve: false, event_order: EventOrder::Default }
    }
}

/// A solution: selected nodes and edge indices (ascending), the objective (prizes left out +
/// costs taken in) and the net worth.
#[derive(Clone, Debug, PartialEq)]
pub struct PcstSolution {
    pub nodes: Vec<i64>,
    pub edges: Vec<i64>,
    pub objective: f64,
    pub net_worth: f64,
    pub objective_before_improve: f64,
    pub improve_rounds: i32,
}

/// A prize-collecting Steiner tree solver that keeps its buffers between solves; freed on drop.
/// Not shared between threads (it is `Send`, not `Sync`).
pub struct PcstSolver {
    h: *mut sys::grappi_pcst_solver,
}

unsafe impl Send for PcstSolver {}

impl PcstSolver {
    pub fn new() -> Result<PcstSolver> {
        let mut h = ptr::null_mut();
        check(unsafe { sys::grappi_pcst_solver_new(&mut h) })?;
        Ok(PcstSolver { h })
    }

    pub fn solve(&mut self, prizes: &[f64], edges: &[(i64, i64)], costs: &[f64], o: &PcstOptions) -> Result<PcstSolution> {
        if edges.len() != costs.len() {
            return Err(Error { status: sys::GRAPPI_EINVAL, message: "edges and costs differ in length".into() });
        }
        let flat: Vec<i64> = edges.iter().flat_map(|&(a, b)| [a, b]).collect();
        let pruning = cstring(&o.pruning)?;
        let mut opts = init(|p| unsafe { sys::grappi_pcst_options_init(p, sys::GRAPPI_PCST_OPTIONS_VERSION) })?;
        opts.root = o.root;
        opts.num_clusters = o.num_clusters;
        opts.pruning = pruning.as_ptr();
        opts.improve = o.improve as i32;
        opts.event_order = o.event_order as i32;
        let mut r = sys::grappi_pcst_result {
            version: sys::GRAPPI_PCST_RESULT_VERSION,
            nodes: ptr::null(),
            num_nodes: 0,
            edges: ptr::null(),
            num_edges: 0,
            objective: 0.0,
            net_worth: 0.0,
            objective_before_improve: 0.0,
            improve_rounds: 0,
        };
        check(unsafe {
            sys::grappi_pcst_solver_solve(self.h, prizes.len(), prizes.as_ptr(), edges.len(), flat.as_ptr(), costs.as_ptr(),
                                          &opts, &mut r)
        })?;
        // SAFETY: the arrays live in the solver until its next solve; they are copied now.
        let copy = |p: *const i64, n: usize| if n == 0 { Vec::new() } else { unsafe { std::slice::from_raw_parts(p, n) }.to_vec() };
        Ok(PcstSolution {
            nodes: copy(r.nodes, r.num_nodes),
            edges: copy(r.edges, r.num_edges),
            objective: r.objective,
            net_worth: r.net_worth,
            objective_before_improve: r.objective_before_improve,
            improve_rounds: r.improve_rounds,
        })
    }
}

impl Drop for PcstSolver {
    fn drop(&mut self) {
        unsafe { sys::grappi_pcst_solver_free(self.h) }
    }
}

/// Prize-collecting Steiner tree with a one-off solver: (selected nodes, selected edge indices,
/// objective).
pub fn pcst_solve(prizes: &[f64], edges: &[(i64, i64)], costs: &[f64], root: i64, clusters: i32,
                  pruning: &str) -> Result<(Vec<i64>, Vec<i64>, f64)> {
    let o = PcstOptions { root, num_clusters: clusters, pruning: pruning.into(), ..Default::default() };
    let s = PcstSolver::new()?.solve(prizes, edges, costs, &o)?;
    Ok((s.nodes, s.edges, s.objective))
}
