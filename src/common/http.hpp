// Internal: a small HTTP client over libcurl with the retry policy of the OpenAI-compatible
// servers (timeouts, 408, 409, 429 and 5xx are retried with exponential backoff and jitter,
// Retry-After / retry-after-ms honoured when in (0, 60] seconds; a refused connection or an
// unknown host is retried once, at once; a malformed URL never).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace grappi::detail {

struct HttpResponse {
  long status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // lower-case names
};

struct RetryPolicy {
  int max_retries = 3;
  double base_seconds = 0.5;
  double cap_seconds = 8.0;
  double connect_timeout_seconds = 10;
  double timeout_seconds = 120;
  /// Polled every 100 ms while a request is in flight and while waiting to retry (null or
  /// empty: never): true aborts the request, and post_json throws Error(network) saying it was
  /// cancelled ("cancelled by the caller"), at once.
  const std::function<bool()> *cancel = nullptr;
};

/// POSTs a JSON body. Returns the first 2xx response. Throws Error(network) naming the URL and
/// the last problem (status and the server's error message, or the curl error) when the
/// request fails for good; `attempts` (optional) receives the number of requests made. With
/// return_client_errors, a final non-retryable 4xx answer is returned instead of thrown (so
/// that the caller can adapt the request, e.g. drop an unsupported response_format).
HttpResponse post_json(const std::string &url, const std::string &body,
                       const std::vector<std::string> &headers, const RetryPolicy &policy,
                       int *attempts = nullptr, bool return_client_errors = false);

/// Error(network): the POST to `url` was abandoned because the caller cancelled it (the URL
/// shown without its password; the message ends "cancelled by the caller").
[[noreturn]] void throw_cancelled(const std::string &url);

/// The URL with the password of its user information replaced ("http://user:***@host/v1"):
/// what every message, output and stored identity shows of a server URL.
std::string redact_url(const std::string &url);

/// Throws Error(invalid_argument), naming `what`, unless the URL is http:// or https:// with a
/// host and no blank or control character: checked when a client is made, before any work.
void check_server_url(const std::string &url, const std::string &what);

/// The server's error message from an OpenAI-style, llama.cpp, vLLM or Ollama error body, or
/// the start of the body.
std::string error_message(const std::string &body);

/// "Authorization: Bearer <key>" from an environment variable, or "Bearer none" when unset
/// (local servers ignore it). The key is never part of any message grappi writes.
std::string bearer_header(const std::string &env_var);

}  // namespace grappi::detail
