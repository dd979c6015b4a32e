#include "models/model_calls.hpp"

#include <algorithm>

#include "grappi/error.hpp"
#include "common/text_util.hpp"

namespace grappi::detail {

using nlohmann::json;

ModelCalls::ModelCalls(KnowledgeGraph &kg, LanguageModel &model, Settings settings)
    : kg_(kg), model_(model), settings_(std::move(settings)) {
  caching_ = settings_.use_cache && model_.cacheable();
  local_ = model_.local();
  writing_ = caching_ && !kg_.read_only();
}

std::size_t ModelCalls::threads() const {
  std::size_t t = settings_.concurrency;
  if (model_.max_concurrency()) t = std::min(t, model_.max_concurrency());
  // (a server takes a few requests at a time; thousands of threads would only exhaust the machine)
  return std::clamp<std::size_t>(t, 1, kMaxConcurrency);
}

std::string ModelCalls::key(const std::string &kind, const ChatRequest &req) const {
  json j{{"model", model_.identity()}, {"templates", settings_.template_version}, {"kind", kind}, {"json", req.json},
         {"max_tokens", req.max_tokens}};
  json msgs = json::array();
  for (const auto &m : req.messages) msgs.push_back({m.role, m.content});
  j["messages"] = std::move(msgs);
  return sha256_hex(j.dump(-1, ' ', false, json::error_handler_t::replace));
}

void confirm_calls(const std::string &what, std::size_t calls, std::size_t limit, std::size_t max_calls,
                   const LanguageModel &model, const std::string &counted, const std::string &fewer) {
  if (!limit || max_calls || model.local() || calls <= limit) return;
  throw Error(ErrorCode::invalid_argument,
              what + ": this run could make " + std::to_string(calls) + " model calls (" + counted + "), more than " +
                  std::to_string(limit) +
                  " without asking: give --max-calls N to stop after N (a partial result, marked), --yes to allow "
                  "them all, or " + fewer + "; --dry-run estimates the tokens; nothing was sent");
}

int64_t ModelCalls::estimate(const ChatRequest &req) {
  int64_t n = 0;
  for (const auto &m : req.messages) n += estimate_tokens(m.content) + 4;
  return n;
}

bool ModelCalls::reserve(int64_t estimate) {
  if (settings_.max_calls) {
    const std::size_t c = calls_.fetch_add(1);
    if (c >= settings_.max_calls) {
      calls_.fetch_sub(1);
      stop("call budget of " + std::to_string(settings_.max_calls) + " model calls exhausted");
      return false;
    }
  } else {
    calls_.fetch_add(1);
  }
  if (settings_.max_tokens && tokens_.load() + estimate > settings_.max_tokens) {
    calls_.fetch_sub(1);
    stop("token budget of " + std::to_string(settings_.max_tokens) + " tokens exhausted");
    return false;
  }
  return true;
}

void ModelCalls::stop(const std::string &why) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!exhausted_.exchange(true)) reason_ = why;
}

std::string ModelCalls::reason() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reason_;
}

ModelCalls::Reply ModelCalls::send(const ChatRequest &req, StageUsage &usage) {
  Reply r;
  if (settings_.cancel && settings_.cancel()) {
    stop(kCancelled);
    r.skipped = true;
    r.error = kCancelled;
    return r;
  }
  if (local_) {  // not a language model: no budget, counted apart
    try {
      r.response = model_.chat(req);
      r.ok = true;
    } catch (const std::exception &e) {
      r.error = e.what();
    }
    std::lock_guard<std::mutex> lock(mu_);
    ++usage.local_answers;
    return r;
  }
  if (!reserve(estimate(req))) {
    r.skipped = true;
    r.error = reason();
    return r;
  }
  // (an HTTP model polls the run's cancel while the request waits or is in flight)
  ChatRequest cancellable;
  const bool add_cancel = settings_.cancel && !req.cancel;
  if (add_cancel) {
    cancellable = req;
    cancellable.cancel = settings_.cancel;
  }
  try {
    r.response = model_.chat(add_cancel ? cancellable : req);
    r.ok = true;
  } catch (const std::exception &e) {
    r.error = e.what();
    if (settings_.cancel && settings_.cancel()) {  // abandoned for the cancel: skipped, not failed
      stop(kCancelled);
      r.skipped = true;
      r.error = kCancelled;
    }
  }
  tokens_ += r.response.prompt_tokens + r.response.completion_tokens;
  std::lock_guard<std::mutex> lock(mu_);
  ++usage.model_calls;
  usage.prompt_tokens += r.response.prompt_tokens;
  usage.completion_tokens += r.response.completion_tokens;
  return r;
}

void ModelCalls::remember(const std::string &key, const std::string &kind, const ChatResponse &resp) {
  if (!writing_) return;
  CachedResponse cr;
  cr.key = key;
  cr.model = model_.identity();
  cr.template_version = settings_.template_version;
  cr.kind = kind;
  cr.content = resp.content;
  cr.finish_reason = resp.finish_reason;
  cr.prompt_tokens = resp.prompt_tokens;
  cr.completion_tokens = resp.completion_tokens;
  std::lock_guard<std::mutex> lock(mu_);
  to_store_.push_back(std::move(cr));
}

std::optional<std::string> ModelCalls::cached_text(const std::string &key) const {
  if (!caching_) return std::nullopt;
  auto hit = kg_.cached_response(key);
  if (!hit) return std::nullopt;
  return std::move(hit->content);
}

void ModelCalls::remember_text(const std::string &key, const std::string &kind, const std::string &content) {
  ChatResponse r;
  r.content = content;
  r.finish_reason = "derived";
  remember(key, kind, r);
}

void ModelCalls::flush() {
  std::vector<CachedResponse> batch;
  {
    std::lock_guard<std::mutex> lock(mu_);
    batch.swap(to_store_);
  }
  if (!batch.empty()) kg_.cache_responses(batch);
}

void ModelCalls::count_cache_hit(StageUsage &usage) {
  std::lock_guard<std::mutex> lock(mu_);
  ++usage.cache_hits;
}

void ModelCalls::count_repair(StageUsage &usage) {
  std::lock_guard<std::mutex> lock(mu_);
  ++usage.repairs;
}

}  // namespace grappi::detail
