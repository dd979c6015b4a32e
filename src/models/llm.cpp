// Language models: the OpenAI-compatible HTTP client, the callback model, the extractive model,
// and the tolerant answer parsers.
#include "common/visibility.hpp"
#include "grappi/llm.hpp"
#include "grappi/run_control.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <set>
#include <sstream>

#include "common/answer_json.hpp"
#include "grappi/error.hpp"
#include "common/http.hpp"
#include "common/text_util.hpp"
#include "grappi/json_text.hpp"
#include "common/json_input.hpp"

namespace grappi {

using nlohmann::json;

json LanguageModel::describe() const { return json{{"kind", kind()}, {"identity", identity()}}; }

int64_t estimate_tokens(std::string_view text) { return static_cast<int64_t>((text.size() + 3) / 4); }

// ---- OpenAI-compatible chat completions --------------------------------------------------------

struct GRAPPI_HIDDEN OpenAIChatModel::State {
  std::mutex mu;
  std::condition_variable cv;
  std::size_t inflight = 0;
  std::atomic<uint64_t> requests{0};
  std::atomic<bool> json_mode{true};
};

OpenAIChatModel::OpenAIChatModel(OpenAIChatOptions options) : options_(std::move(options)), state_(new State) {
  if (options_.base_url.empty()) throw Error(ErrorCode::invalid_argument, "OpenAIChatModel: base_url is empty");
  while (!options_.base_url.empty() && options_.base_url.back() == '/') options_.base_url.pop_back();
  detail::check_server_url(options_.base_url, "OpenAIChatModel");  // (a bad URL fails here, before any work)
  if (options_.model.empty()) throw Error(ErrorCode::invalid_argument, "OpenAIChatModel: model is empty");
  if (!(options_.temperature >= 0 && options_.temperature <= 2))
    throw Error(ErrorCode::invalid_argument, "OpenAIChatModel: temperature must be in [0, 2]");
  if (options_.max_tokens <= 0) throw Error(ErrorCode::invalid_argument, "OpenAIChatModel: max_tokens must be positive");
  if (options_.concurrency == 0) options_.concurrency = 1;
  if (!options_.extra_body.is_object())
    throw Error(ErrorCode::invalid_argument, "OpenAIChatModel: extra_body must be a JSON object");
  state_->json_mode = options_.json_mode;
}

OpenAIChatModel::~OpenAIChatModel() = default;

std::string OpenAIChatModel::identity() const {
  std::ostringstream o;
  // (a password in the URL is never part of the identity, stored with every cached answer)
  o << "openai:" << detail::redact_url(options_.base_url) << "|" << options_.model << "|t=" << options_.temperature
    << "|seed=" << (options_.seed ? std::to_string(*options_.seed) : std::string("none"))
    << "|max=" << options_.max_tokens;
  if (!options_.extra_body.empty()) o << "|extra=" << dump_json(options_.extra_body);
  return o.str();
}

json OpenAIChatModel::describe() const {
  json j{{"kind", kind()},         {"identity", identity()},          {"base_url", detail::redact_url(options_.base_url)},
         {"model", options_.model}, {"temperature", options_.temperature}, {"max_tokens", options_.max_tokens},
         {"json_mode", json_mode_active()}};
  j["seed"] = options_.seed ? json(*options_.seed) : json(nullptr);
  return j;
}

uint64_t OpenAIChatModel::http_requests() const { return state_->requests.load(); }
bool OpenAIChatModel::json_mode_active() const { return state_->json_mode.load(); }

ChatResponse OpenAIChatModel::chat(const ChatRequest &request) {
  // Concurrency limit across every thread using this model.
  {
    std::unique_lock<std::mutex> lock(state_->mu);
    while (!state_->cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return state_->inflight < options_.concurrency; }))
      if (request.cancel && request.cancel()) detail::throw_cancelled(options_.base_url + "/chat/completions");
    ++state_->inflight;
  }
  struct Release {
    State *s;
    ~Release() {
      {
        std::lock_guard<std::mutex> lock(s->mu);
        --s->inflight;
      }
      s->cv.notify_one();
    }
  } release{state_.get()};

  const std::string url = options_.base_url + "/chat/completions";
  json body = options_.extra_body;
  body["model"] = options_.model;
  json msgs = json::array();
  for (const auto &m : request.messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
  body["messages"] = std::move(msgs);
  body["temperature"] = options_.temperature;
  body["max_tokens"] = request.max_tokens > 0 ? request.max_tokens : options_.max_tokens;
  if (options_.seed) body["seed"] = *options_.seed;
  body["stream"] = false;
  detail::RetryPolicy policy;
  policy.max_retries = options_.max_retries;
  policy.base_seconds = options_.backoff_base_seconds;
  policy.cap_seconds = options_.backoff_cap_seconds;
  policy.connect_timeout_seconds = options_.connect_timeout_seconds;
  policy.timeout_seconds = options_.timeout_seconds;
  policy.cancel = &request.cancel;
  const std::vector<std::string> headers{detail::bearer_header(options_.api_key_env)};

  detail::HttpResponse r;
  for (int round = 0; round < 2; ++round) {
    const bool json_mode = request.json && state_->json_mode.load();
    if (json_mode)
      body["response_format"] = {{"type", "json_object"}};
    else
      body.erase("response_format");
    int attempts = 0;
    try {
      r = detail::post_json(url, body.dump(-1, ' ', false, json::error_handler_t::replace), headers, policy, &attempts, true);
    } catch (...) {
      state_->requests += static_cast<uint64_t>(attempts);
      throw;
    }
    state_->requests += static_cast<uint64_t>(attempts);
    if (r.status >= 200 && r.status < 300) break;
    std::string message = detail::error_message(r.body);
    std::string lower = message;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (json_mode && r.status == 400 && round == 0 &&
        (lower.find("response_format") != std::string::npos || lower.find("json") != std::string::npos)) {
      state_->json_mode = false;  // the server does not do JSON mode: rely on the prompt
      continue;
    }
    throw Error(ErrorCode::network, "POST " + detail::redact_url(url) + " failed: HTTP " + std::to_string(r.status) + ": " + message);
  }
  auto j = detail::parse_json_or_discarded(r.body);
  if (!j.is_object() || !j.contains("choices") || !j["choices"].is_array() || j["choices"].empty() ||
      !j["choices"][0].is_object())
    throw Error(ErrorCode::llm, "malformed chat completion from " + url + ": " + detail::utf8_prefix(r.body, 200));
  const auto &choice = j["choices"][0];
  ChatResponse out;
  if (choice.contains("message") && choice["message"].is_object()) {
    const auto &m = choice["message"];
    if (m.contains("content") && m["content"].is_string()) out.content = m["content"].get<std::string>();
  } else if (choice.contains("text") && choice["text"].is_string()) {
    out.content = choice["text"].get<std::string>();
  }
  if (choice.contains("finish_reason") && choice["finish_reason"].is_string())
    out.finish_reason = choice["finish_reason"].get<std::string>();
  if (j.contains("model") && j["model"].is_string()) out.model = j["model"].get<std::string>();
  bool have_usage = false;
  if (j.contains("usage") && j["usage"].is_object()) {
    const auto &u = j["usage"];
    // A server's counts are not trusted: negative ones count 0, absurd ones 10^12 (totals and
    // budgets add them up).
    const auto tokens = [](const json &v) -> int64_t {
      constexpr int64_t most = 1000000000000;
      if (v.is_number_unsigned()) return static_cast<int64_t>(std::min<uint64_t>(v.get<uint64_t>(), most));
      return std::clamp<int64_t>(v.get<int64_t>(), 0, most);
    };
    if (u.contains("prompt_tokens") && u["prompt_tokens"].is_number_integer()) {
      out.prompt_tokens = tokens(u["prompt_tokens"]);
      have_usage = true;
    }
    if (u.contains("completion_tokens") && u["completion_tokens"].is_number_integer())
      out.completion_tokens = tokens(u["completion_tokens"]);
  }
  if (!have_usage) {  // servers that do not report usage: estimate
    for (const auto &m : request.messages) out.prompt_tokens += estimate_tokens(m.content);
    out.completion_tokens = estimate_tokens(out.content);
  }
  return out;
}

// ---- callback ---------------------------------------------------------------------------------

std::shared_ptr<LanguageModel> make_chat_model(const ChatModelSpec &spec) {
  if (spec.kind == "extractive") return std::make_shared<ExtractiveModel>();
  if (spec.kind == "openai") {
    if (spec.openai.model.empty()) throw Error(ErrorCode::invalid_argument, "language model \"openai\" needs a model name");
    if (spec.openai.base_url.empty()) throw Error(ErrorCode::invalid_argument, "language model \"openai\" needs a base URL");
    return std::make_shared<OpenAIChatModel>(spec.openai);
  }
  if (spec.kind == "callback") {
    if (spec.name.empty())
      throw Error(ErrorCode::invalid_argument, "language model \"callback\" needs a name (part of the cache key)");
    if (!spec.callback) throw Error(ErrorCode::invalid_argument, "language model \"callback\" needs a function");
    return std::make_shared<CallbackModel>(spec.name, spec.callback, spec.cacheable, spec.concurrency);
  }
  throw Error(ErrorCode::invalid_argument, "unknown language model '" + spec.kind + "' (extractive, openai or callback)");
}

CallbackModel::CallbackModel(std::string name, Function fn, bool cacheable, std::size_t concurrency)
    : name_(std::move(name)), fn_(std::move(fn)), cacheable_(cacheable), concurrency_(concurrency) {
  if (!fn_) throw Error(ErrorCode::invalid_argument, "CallbackModel: the function is empty");
  if (name_.empty()) throw Error(ErrorCode::invalid_argument, "CallbackModel: the name is empty");
}

ChatResponse CallbackModel::chat(const ChatRequest &request) {
  try {
    return fn_(request);
  } catch (const Error &) {
    throw;
  } catch (const std::exception &e) {
    throw Error(ErrorCode::llm, std::string("callback model '") + name_ + "' failed: " + e.what());
  } catch (...) {
    throw Error(ErrorCode::llm, "callback model '" + name_ + "' failed");
  }
}

// ---- extractive -------------------------------------------------------------------------------


ChatResponse ExtractiveModel::chat(const ChatRequest &request) {
  // The agent that asks knows its offline answer (ChatRequest::offline): the model layer does
  // not know the agents.
  if (!request.offline)
    throw Error(ErrorCode::invalid_argument,
                "extractive model: no offline answer for the task kind '" + detail::json_string(request.task, "kind") +
                    "' (the agent that asks gives one: ChatRequest::offline)");
  ChatResponse out;
  out.model = identity();
  out.finish_reason = "stop";
  out.content = request.offline(request.task);
  return out;
}

// ---- parsers ---------------------------------------------------------------------------------

namespace {

// The first balanced {...} in text (respecting JSON strings), or npos.
std::pair<std::size_t, std::size_t> find_object(std::string_view text, std::size_t from) {
  for (std::size_t start = text.find('{', from); start != std::string_view::npos; start = text.find('{', start + 1)) {
    int depth = 0;
    bool in_str = false, esc = false;
    for (std::size_t i = start; i < text.size(); ++i) {
      char ch = text[i];
      if (in_str) {
        if (esc)
          esc = false;
        else if (ch == '\\')
          esc = true;
        else if (ch == '"')
          in_str = false;
        continue;
      }
      if (ch == '"')
        in_str = true;
      else if (ch == '{')
        ++depth;
      else if (ch == '}' && --depth == 0)
        return {start, i + 1};
    }
    return {start, std::string_view::npos};  // unbalanced: truncated
  }
  return {std::string_view::npos, std::string_view::npos};
}

std::string strip_fences(std::string_view text) {
  std::string s(text);
  auto open = s.find("```");
  if (open != std::string::npos) {
    auto nl = s.find('\n', open);
    auto close = nl == std::string::npos ? std::string::npos : s.find("```", nl);
    if (nl != std::string::npos) s = s.substr(nl + 1, close == std::string::npos ? std::string::npos : close - nl - 1);
  }
  return detail::trim_copy(s);
}

bool number_from_string(const std::string &s, double &out) {
  std::string t = detail::trim_copy(s);
  if (t.empty()) return false;
  const char *b = t.c_str();
  char *end = nullptr;
  double v = std::strtod(b, &end);
  if (end == b || !std::isfinite(v)) return false;
  std::string rest = detail::trim_copy(std::string(end));
  if (!(rest.empty() || rest == "%" || rest == "/100" || rest == "/ 100" || rest == "out of 100")) return false;
  out = v;
  return true;
}

}  // namespace

namespace detail {

bool json_object_in(std::string_view text, json &out, std::string &error) {
  std::string body = strip_fences(text);
  auto [b, e] = find_object(body, 0);
  if (b == std::string::npos) {
    error = body.empty() ? "empty answer" : "no JSON object in the answer";
    return false;
  }
  if (e == std::string::npos) {
    error = "truncated JSON object in the answer";
    return false;
  }
  out = detail::parse_json_or_discarded(body.substr(b, e - b));
  if (out.is_discarded() || !out.is_object()) {
    error = "malformed JSON in the answer";
    return false;
  }
  return true;
}

}  // namespace detail

PathAnswer parse_path_answer(std::string_view text) {
  PathAnswer a;
  json j;
  if (!detail::json_object_in(text, j, a.error)) return a;
  const json *score = nullptr;
  for (const char *key : {"relevance_score", "relevance", "score"})
    if (j.contains(key)) {
      score = &j[key];
      break;
    }
  if (!j.contains("explanation")) {
    a.error = "missing field \"explanation\"";
    return a;
  }
  if (!score) {
    a.error = "missing field \"relevance_score\"";
    return a;
  }
  if (!j["explanation"].is_string()) {
    a.error = "\"explanation\" is not a string";
    return a;
  }
  double v = 0;
  if (score->is_number())
    v = score->get<double>();
  else if (score->is_string()) {
    if (!number_from_string(score->get<std::string>(), v)) {
      a.error = "\"relevance_score\" is not a number: \"" + score->get<std::string>() + "\"";
      return a;
    }
  } else {
    a.error = "\"relevance_score\" is not a number";
    return a;
  }
  if (!std::isfinite(v)) {
    a.error = "\"relevance_score\" is not finite";
    return a;
  }
  a.clamped = v < 0 || v > 100;
  a.relevance_score = std::clamp(v, 0.0, 100.0);
  a.explanation = detail::trim_copy(j["explanation"].get<std::string>());
  a.ok = true;
  return a;
}

EdgeAnswer parse_edge_answer(std::string_view text) {
  EdgeAnswer a;
  std::string s = strip_fences(text);
  if (!s.empty() && s.front() == '{') {
    json j = detail::parse_json_or_discarded(s);
    if (j.is_object() && j.contains("explanation") && j["explanation"].is_string()) s = j["explanation"].get<std::string>();
  }
  s = detail::trim_copy(s);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = detail::trim_copy(s.substr(1, s.size() - 2));
  if (s.empty()) {
    a.error = "empty answer";
    return a;
  }
  a.explanation = s;
  a.ok = true;
  return a;
}

LanguageModel &run_model(const RunControl &run) {
  if (run.model) return *run.model;
  static ExtractiveModel offline;  // (stateless: every run may share it)
  return offline;
}

}  // namespace grappi
