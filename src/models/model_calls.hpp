// Internal: how an agent sends requests to a language model. ModelCalls puts the model behind
// the database's response cache, a call and token budget shared by the run's threads, and usage
// counters per stage; ask() is one whole exchange for one item: the cached answer (a stored
// answer that does not parse is a failure, not a reason to pay again),
// otherwise a budgeted call, the answer parsed, one repair turn when it does not parse, and the
// outcome recorded as ok, failed (with the reason) or skipped (the budget's reason) - never
// silently dropped; every answer received is stored. explore uses it; the later agents (grounding, extraction, answers)
// are meant to use the same.
#pragma once

#include <atomic>
#include <functional>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "grappi/knowledge_graph.hpp"
#include "grappi/llm.hpp"

namespace grappi::detail {

/// The parsed outcome of one item (an edge, a path, ...).
template <class Answer>
struct Asked {
  std::string status = "pending";  ///< "ok", "failed", "skipped"; "pending" until asked
  Answer answer;                   ///< the parsed answer (answer.ok when status is "ok")
  bool cached = false;             ///< the answer came from the response cache
  std::string error;               ///< why it failed or was skipped
};

/// The reason of a request skipped because the caller's cancel function said stop.
inline constexpr const char *kCancelled = "cancelled by the caller";

/// The follow-up turn after an answer that does not parse (ModelCalls::ask's `repair`).
inline constexpr const char *kParseRepair =
    "Your answer could not be used ({{error}}). Reply with only the JSON object the request asked for.";

/// Adds one stage's model use to another's.
inline void add_usage(StageUsage &into, const StageUsage &from) {
  into.model_calls += from.model_calls;
  into.local_answers += from.local_answers;
  into.cache_hits += from.cache_hits;
  into.prompt_tokens += from.prompt_tokens;
  into.completion_tokens += from.completion_tokens;
  into.failed += from.failed;
  into.skipped += from.skipped;
  into.repairs += from.repairs;
  into.seconds += from.seconds;
}

/// A request of a system message (none when empty) and one user prompt; `offline` is the
/// asking agent's offline answer (ChatRequest::offline).
inline ChatRequest chat_request(const std::string &system, std::string prompt, bool json, int max_tokens,
                                nlohmann::json task, std::function<std::string(const nlohmann::json &)> offline = {}) {
  ChatRequest r;
  if (!system.empty()) r.messages.push_back({"system", system});
  r.messages.push_back({"user", std::move(prompt)});
  r.json = json;
  r.max_tokens = max_tokens;
  r.task = std::move(task);
  r.offline = std::move(offline);
  return r;
}

/// The confirmation before a large run: when `limit` is set, no `max_calls` budget is given and
/// the model is a language model (not the offline one), a run that could make more than `limit`
/// calls sends nothing: Error(invalid_argument) naming `what`, the bound and how it is counted
/// (`counted`), and the ways on (--max-calls, --yes, `fewer`, --dry-run).
void confirm_calls(const std::string &what, std::size_t calls, std::size_t limit, std::size_t max_calls,
                   const LanguageModel &model, const std::string &counted, const std::string &fewer);

class ModelCalls {
 public:
  struct Settings {
    std::string template_version;  ///< part of every cache key
    bool use_cache = true;         ///< read (and, on a writable database, write) the cache
    std::size_t max_calls = 0;     ///< 0: no call budget
    int64_t max_tokens = 0;        ///< 0: no token budget (prompt + completion)
    std::size_t concurrency = 8;   ///< requests in flight (also bounded by the model)
    std::function<bool()> cancel;  ///< polled before each request: true stops the run (skipped, "cancelled by the caller")
  };

  ModelCalls(KnowledgeGraph &kg, LanguageModel &model, Settings settings);

  /// Whether answers are read from the cache (use_cache and a cacheable model).
  bool caching() const { return caching_; }
  /// Whether the model is a local stand-in (LanguageModel::local).
  bool local() const { return local_; }
  /// Worker threads for this model: min(concurrency, the model's own limit), at least 1.
  std::size_t threads() const;
  /// Model calls in flight at most, whatever is asked.
  static constexpr std::size_t kMaxConcurrency = 64;
  LanguageModel &model() const { return model_; }

  /// Cache key: SHA-256 of the model identity, template version, kind and the whole request.
  std::string key(const std::string &kind, const ChatRequest &request) const;
  /// Rough prompt tokens of a request (characters / 4 per message, plus 4).
  static int64_t estimate(const ChatRequest &request);

  /// The cached answer of a request, parsed; nullopt when caching is off, nothing is stored, or
  /// the stored text no longer parses.
  template <class Answer, class Parse>
  std::optional<Answer> cached(const std::string &kind, const ChatRequest &request, Parse &&parse) const {
    if (!caching_) return std::nullopt;
    auto hit = kg_.cached_response(key(kind, request));
    if (!hit) return std::nullopt;
    Answer a = parse(hit->content);
    if (!a.ok) return std::nullopt;
    return a;
  }

  /// One exchange (see the file comment). `repair` is the follow-up template with an {{error}}
  /// field, or empty for none. Thread-safe.
  template <class Answer, class Parse>
  Asked<Answer> ask(const std::string &kind, const ChatRequest &request, Parse &&parse, StageUsage &usage,
                    const std::string &repair = {}) {
    Asked<Answer> out;
    // Every answer received is stored under its request's key, whether it parses or not: the
    // model answers the same prompt the same way (as every cached answer assumes), so a re-run
    // reads a stored failure instead of paying for it again.
    const std::string k = caching_ ? key(kind, request) : std::string();
    ChatResponse first;
    bool stored = false;
    if (caching_) {
      if (auto hit = kg_.cached_response(k)) {
        first.content = hit->content;
        first.finish_reason = hit->finish_reason;
        stored = true;
        count_cache_hit(usage);
      }
    }
    if (!stored) {
      Reply r = send(request, usage);
      if (r.skipped || !r.ok) {
        out.status = r.skipped ? "skipped" : "failed";
        out.error = r.error;
        return out;
      }
      first = std::move(r.response);
      if (caching_) remember(k, kind, first);
    }
    Answer a = parse(first.content);
    if (a.ok) {
      out.status = "ok";
      out.answer = std::move(a);
      out.cached = stored;
      return out;
    }
    if (first.finish_reason == "length") a.error += " (the answer was cut at max_tokens)";
    // (the repair turn is asked the same whether the first answer came now or from the cache: its
    // key, and so its stored answer, must not depend on which; the note is for the report only)
    const std::string repair_error = a.error;
    if (stored) a.error += " (the model's stored answer from an earlier run)";
    if (!repair.empty()) {
      ChatRequest fix = request;
      fix.messages.push_back({"assistant", first.content});
      fix.messages.push_back({"user", PromptTemplates::render(repair, {{"error", repair_error}})});
      fix.task["repair_of"] = repair_error;
      const std::string k2 = caching_ ? key(kind, fix) : std::string();
      std::optional<ChatResponse> second;
      if (caching_) {
        if (auto hit = kg_.cached_response(k2)) {
          second.emplace();
          second->content = hit->content;
          second->finish_reason = hit->finish_reason;
          count_cache_hit(usage);
        }
      }
      if (!second) {
        Reply r2 = send(fix, usage);
        if (!r2.skipped) count_repair(usage);
        if (r2.ok) {
          second = std::move(r2.response);
          if (caching_) remember(k2, kind, *second);
        } else {
          a.error += "; repair turn: " + r2.error;
        }
      }
      if (second) {
        Answer a2 = parse(second->content);
        if (a2.ok) {
          a = std::move(a2);
          if (caching_) remember(k, kind, *second);  // the repaired answer under the original key
        } else {
          a.error += "; after a repair turn: " + a2.error;
        }
      }
    }
    if (!a.ok) {
      out.status = "failed";
      out.cached = stored;
      out.error = a.error;
      return out;
    }
    out.status = "ok";
    out.answer = std::move(a);
    return out;
  }

  /// A text the agent stored under a key of its own making (a part of an answer, such as one
  /// term's score out of a listwise answer), when caching.
  std::optional<std::string> cached_text(const std::string &key) const;
  /// Remembers such a text under its key (flush() stores it).
  void remember_text(const std::string &key, const std::string &kind, const std::string &content);

  /// Stores the answers remembered so far in one transaction (nothing when not caching or the
  /// database is read-only).
  void flush();
  /// Whether a budget ran out, and why.
  bool exhausted() const { return exhausted_.load(); }
  /// Whether the run was cancelled (Settings::cancel): then the budget has run out for that
  /// reason, and an item can be skipped before its request is even made.
  bool cancelled() {
    if (!settings_.cancel || !settings_.cancel()) return false;
    stop(kCancelled);
    return true;
  }
  std::string reason() const;

 private:
  struct Reply {
    bool ok = false, skipped = false;
    ChatResponse response;
    std::string error;
  };
  /// A budgeted call: skipped (with the budget's reason) when a budget does not allow it.
  Reply send(const ChatRequest &request, StageUsage &usage);
  bool reserve(int64_t estimate);
  void stop(const std::string &why);
  void remember(const std::string &key, const std::string &kind, const ChatResponse &response);
  void count_cache_hit(StageUsage &usage);
  void count_repair(StageUsage &usage);

  KnowledgeGraph &kg_;
  LanguageModel &model_;
  Settings settings_;
  bool caching_ = false, writing_ = false, local_ = false;
  std::atomic<std::size_t> calls_{0};
  std::atomic<int64_t> tokens_{0};
  std::atomic<bool> exhausted_{false};
  mutable std::mutex mu_;  // usage counters, the budget's reason, the answers to store
  std::string reason_;
  std::vector<CachedResponse> to_store_;
};

}  // namespace grappi::detail
