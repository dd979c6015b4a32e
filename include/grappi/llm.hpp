// grappi/llm.hpp — language models for the explanation pipeline: an OpenAI-compatible chat
// client (OpenAI, vLLM, llama.cpp server, Ollama), a callback model, and the offline extractive
// model; the prompt templates; and the tolerant parsers of the models' answers.
#pragma once

#include "grappi/export.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace grappi {

/// Model usage of one stage of an agent (explore's edges or paths, a grounding's summary, ...):
/// every agent's result reports its use of the model with it.
struct StageUsage {
  std::size_t model_calls = 0;     ///< requests sent to a language model (repairs included)
  std::size_t local_answers = 0;   ///< answers of a local stand-in (the extractive model): no model call
  std::size_t cache_hits = 0;      ///< answers taken from the response cache
  int64_t prompt_tokens = 0;       ///< of the requests sent
  int64_t completion_tokens = 0;   ///< of their answers
  std::size_t failed = 0;          ///< items whose answer failed (the reason is on the item)
  std::size_t skipped = 0;  ///< not sent because a budget ran out
  std::size_t repairs = 0;  ///< follow-up turns after unparseable answers
  double seconds = 0;       ///< wall time of the stage
};

/// One message of a chat.
struct ChatMessage {
  std::string role;     ///< "system", "user" or "assistant"
  std::string content;  ///< its text
};

/// One request to a language model.
struct ChatRequest {
  std::vector<ChatMessage> messages;  ///< the conversation, oldest first
  bool json = false;   ///< the answer must be one JSON object
  int max_tokens = 0;  ///< 0: the model's configured default
  /// The facts the prompt was rendered from: {"kind": "edge" | "path", "query": ..., ...} (the
  /// pipelines' guides in docs/ document the fields). HTTP models send the messages only; models that do not read
  /// prose (the extractive model) answer from these facts.
  nlohmann::json task;
  /// The offline (extractive) answer to this request, a function of its task, given by the agent
  /// that asks (the model layer knows no agent): ExtractiveModel answers with it, and without it
  /// refuses the request; language models ignore it.
  std::function<std::string(const nlohmann::json &task)> offline;
  /// Polled while an HTTP model waits for its turn, while the request is in flight (every 100
  /// ms) and between retries (empty: never): true abandons the request and chat() throws
  /// Error(network) saying it was cancelled. The agents set it to their run's cancel.
  std::function<bool()> cancel;
};

/// A model's answer.
struct ChatResponse {
  std::string content;        ///< the answer text
  std::string finish_reason;  ///< "stop", "length", ... ("" when the model does not say)
  int64_t prompt_tokens = 0;      ///< as the server counted them (an estimate when it does not say)
  int64_t completion_tokens = 0;  ///< likewise
  std::string model;          ///< the model as the server names it
};

/// A chat model. chat() is called from several threads at once and must be thread-safe; it
/// throws grappi::Error (network, llm, ...) when it cannot answer.
class GRAPPI_CXX_API LanguageModel {
 public:
  virtual ~LanguageModel() = default;
  /// "openai", "callback", "extractive".
  virtual std::string kind() const = 0;
  /// Everything that changes the answers (kind, server, model, sampling parameters): part of the
  /// response cache key and of the provenance.
  virtual std::string identity() const = 0;
  /// Answers one request; throws grappi::Error (network, llm, ...) when it cannot.
  virtual ChatResponse chat(const ChatRequest &request) = 0;
  /// False for models that compute answers locally (caching them would only cost disk).
  virtual bool cacheable() const { return true; }
  /// True for a local stand-in that is not a language model (the extractive model): its
  /// answers are counted apart from model calls and use no budget.
  virtual bool local() const { return false; }
  /// Requests that may run at once (0: no limit of its own).
  virtual std::size_t max_concurrency() const { return 0; }
  /// Provenance description (kind, identity, and the configuration without secrets).
  virtual nlohmann::json describe() const;
};

/// Options of OpenAIChatModel.
struct OpenAIChatOptions {
  std::string base_url = "http://127.0.0.1:8080/v1";  ///< ".../v1"; POST {base_url}/chat/completions
  std::string model = "gpt-4o-mini";  ///< the model's name on the server
  /// Environment variable holding the API key ("Authorization: Bearer <key>", or "none" when
  /// unset). The key is never logged, cached or written anywhere.
  std::string api_key_env = "OPENAI_API_KEY";
  double temperature = 0.0;          ///< sampling temperature (0: the most deterministic)
  std::optional<int64_t> seed = 42;  ///< sampling seed sent to the server (none: not sent)
  int max_tokens = 512;              ///< answer limit when a request sets none
  /// Ask for response_format {"type": "json_object"} when a request wants JSON. When the server
  /// rejects it (HTTP 400 naming response_format or JSON mode) the client drops it for the rest
  /// of its life and relies on the prompt and the tolerant parser.
  bool json_mode = true;
  double connect_timeout_seconds = 10;  ///< to establish the connection
  double timeout_seconds = 120;  ///< per request, including the answer
  int max_retries = 3;           ///< on timeouts, 408, 409, 429, 5xx (a refused connection: once, at once)
  double backoff_base_seconds = 0.5;  ///< first wait before a retry (then doubled, with jitter)
  double backoff_cap_seconds = 8.0;   ///< the longest wait (a Retry-After header wins)
  std::size_t concurrency = 8;   ///< requests in flight at once, across all threads
  nlohmann::json extra_body = nlohmann::json::object();  ///< vendor extras merged into the body
};

/// OpenAI-compatible chat completions over HTTP (libcurl; TLS verification on).
class GRAPPI_CXX_API OpenAIChatModel : public LanguageModel {
 public:
  /// A client of the server the options name (no request is made until chat()).
  explicit OpenAIChatModel(OpenAIChatOptions options);
  ~OpenAIChatModel() override;
  std::string kind() const override { return "openai"; }
  std::string identity() const override;
  ChatResponse chat(const ChatRequest &request) override;
  std::size_t max_concurrency() const override { return options_.concurrency; }
  nlohmann::json describe() const override;
  /// Requests sent so far (each retry counts).
  uint64_t http_requests() const;
  /// Whether response_format is still sent (false after the server rejected it).
  bool json_mode_active() const;

 private:
  struct State;
  OpenAIChatOptions options_;
  std::unique_ptr<State> state_;
};

/// A model backed by a function (the C API and tests use it). The function may throw; any
/// exception becomes a failure of that one request.
class GRAPPI_CXX_API CallbackModel : public LanguageModel {
 public:
  /// The function: an answer per request.
  using Function = std::function<ChatResponse(const ChatRequest &)>;
  /// A model named `name` (part of every cache key) calling fn; `cacheable` false keeps its
  /// answers out of the response cache; `concurrency` limits the calls in flight (0: none).
  CallbackModel(std::string name, Function fn, bool cacheable = true, std::size_t concurrency = 0);
  std::string kind() const override { return "callback"; }
  std::string identity() const override { return "callback:" + name_; }
  ChatResponse chat(const ChatRequest &request) override;
  bool cacheable() const override { return cacheable_; }
  std::size_t max_concurrency() const override { return concurrency_; }

 private:
  std::string name_;
  Function fn_;
  bool cacheable_;
  std::size_t concurrency_;
};

/// The offline default: no network, no weights. Answers from the request's task facts with
/// deterministic text built from the proteins' annotations, the relation type, the STRING
/// channel evidence and the query terms, and says that it is extractive. Path relevance
/// (0-100) = round(100 * (0.7 Q + 0.3 C) / (1 + 0.15 (L - 1))), where C is the geometric mean
/// of the path's edge scores, L its length, and Q = 0.6 * (fraction of the query's content
/// words found in the names or annotations of the path's proteins after the first) + 0.4 *
/// (the largest query similarity of those proteins, clamped to [0, 1]; 0 without embeddings).
class GRAPPI_CXX_API ExtractiveModel : public LanguageModel {
 public:
  std::string kind() const override { return "extractive"; }
  std::string identity() const override { return "extractive:v1"; }
  ChatResponse chat(const ChatRequest &request) override;
  bool cacheable() const override { return false; }
  bool local() const override { return true; }
};

/// A language model named by kind and settings, as the command line, the C API and programs name
/// one (make_chat_model builds it).
struct ChatModelSpec {
  /// "extractive" (offline, no model: deterministic text from the evidence, marked as such),
  /// "openai" (an OpenAI-compatible server) or "callback".
  std::string kind = "extractive";
  OpenAIChatOptions openai;          ///< openai: server, model, sampling, timeouts, retries, concurrency
  std::string name;                  ///< callback: its name (part of every cache key)
  CallbackModel::Function callback;  ///< callback
  bool cacheable = true;             ///< callback: whether its answers may be cached
  std::size_t concurrency = 0;       ///< callback: calls in flight at once (0: no limit of its own)
};

/// The model a spec names. Error(invalid_argument) for an unknown kind or a spec that lacks what
/// its kind needs (a model name for openai; a name and a function for callback).
GRAPPI_CXX_API std::shared_ptr<LanguageModel> make_chat_model(const ChatModelSpec &spec);

/// Prompt templates with {{name}} fields. Edge fields: query, source, target,
/// source_annotation, target_annotation, relation, direction, score, channels, pmids, evidence.
/// Path fields: query, path, length, edge_explanations, and proteins (name: annotation lines;
/// not in the default template, which keeps path prompts short). Repair field: error. The
/// version is part of every cache key and of the provenance; templates read from files get the
/// version "custom-<sha256 prefix>".
struct GRAPPI_CXX_API PromptTemplates {
  std::string version;  ///< "grappi-1-<hash>" for the built-in ones, "custom-<hash>" otherwise
  std::string system;   ///< system message (empty: none)
  std::string edge;     ///< the edge request
  std::string path;     ///< the path request
  std::string repair;  ///< follow-up turn after an unparseable path answer

  /// The built-in templates (after the paper's co-designed steps: edge < 35 words; path < 80
  /// words, JSON {"explanation", "relevance_score"}).
  static PromptTemplates defaults();
  /// Replaces the system, edge and/or path templates with files' contents (empty path: keep);
  /// checks their fields (Error(invalid_argument) naming the file and the unknown field) and
  /// sets the version from the hash of all templates.
  void load(const std::string &system_file, const std::string &edge_file, const std::string &path_file);
  /// Replaces every {{name}} with vars[name]; Error(invalid_argument) for a name not in vars.
  static std::string render(const std::string &tmpl, const std::map<std::string, std::string> &vars);
};

/// A parsed path answer.
struct PathAnswer {
  bool ok = false;              ///< the answer parsed
  std::string explanation;      ///< the explanation text
  double relevance_score = 0;  ///< clamped to [0, 100]
  bool clamped = false;        ///< the model's score was out of range
  std::string error;           ///< why parsing failed
};

/// Tolerant parse of {"explanation": ..., "relevance_score": ...}: accepts ```json fences, text
/// around the object, a score given as a string ("85", "85/100", "85%"), "relevance" or "score"
/// for the key; clamps the score to [0, 100]. A missing field or malformed JSON is a failure
/// with its reason, never a silent 0.
GRAPPI_CXX_API PathAnswer parse_path_answer(std::string_view text);

/// A parsed edge answer.
struct EdgeAnswer {
  bool ok = false;           ///< the answer parsed
  std::string explanation;   ///< the explanation text
  std::string error;         ///< why parsing failed
};

/// An edge answer is free text; fences, surrounding quotes and a JSON {"explanation": ...}
/// wrapper are removed. Empty text is a failure.
GRAPPI_CXX_API EdgeAnswer parse_edge_answer(std::string_view text);

/// Rough token count of a text (characters / 4, rounded up), used for dry runs and budgets
/// before the server reports real counts.
GRAPPI_CXX_API int64_t estimate_tokens(std::string_view text);

}  // namespace grappi
