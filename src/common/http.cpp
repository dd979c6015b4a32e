#include "common/http.hpp"
#include "common/text_util.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <chrono>
#include <cmath>
#include <ctime>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "grappi/error.hpp"
#include "common/json_input.hpp"

namespace grappi::detail {

namespace {

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// A response body larger than this is cut off (a server streaming without end would otherwise
// grow memory without limit).
constexpr std::size_t kMaxBody = std::size_t{64} << 20;

std::size_t on_body(char *p, std::size_t size, std::size_t n, void *user) {
  auto *body = static_cast<std::string *>(user);
  if (body->size() + size * n > kMaxBody) return 0;  // (curl stops with CURLE_WRITE_ERROR)
  body->append(p, size * n);
  return size * n;
}

// The bearer token among the request's headers (to keep it out of every message), or "".
std::string bearer_token(const std::vector<std::string> &headers) {
  for (const std::string &h : headers)
    if (h.rfind("Authorization: Bearer ", 0) == 0) {
      const std::string key = h.substr(22);
      return key.size() >= 8 ? key : std::string();
    }
  return {};
}

bool cancelled(const RetryPolicy &policy) { return policy.cancel && *policy.cancel && (*policy.cancel)(); }

// curl_easy_perform through a multi handle, so that a cancel is seen within 100 ms whether or
// not data flows (the progress callback of the easy interface slows to one call a second).
// Sets `aborted` (and returns CURLE_ABORTED_BY_CALLBACK) when the policy's cancel said stop.
CURLcode perform(CURL *c, const RetryPolicy &policy, bool &aborted) {
  aborted = false;
  if (!policy.cancel || !*policy.cancel) return curl_easy_perform(c);  // (nothing to poll)
  CURLM *m = curl_multi_init();
  if (!m) return CURLE_OUT_OF_MEMORY;
  CURLcode rc = CURLE_OK;
  if (curl_multi_add_handle(m, c) != CURLM_OK) {
    curl_multi_cleanup(m);
    return CURLE_FAILED_INIT;
  }
  int running = 1;
  while (true) {
    if (curl_multi_perform(m, &running) != CURLM_OK) {
      rc = CURLE_FAILED_INIT;
      break;
    }
    if (!running) {
      int left = 0;
      for (CURLMsg *msg = curl_multi_info_read(m, &left); msg; msg = curl_multi_info_read(m, &left))
        if (msg->msg == CURLMSG_DONE) rc = msg->data.result;
      break;
    }
    if ((*policy.cancel)()) {
      aborted = true;
      rc = CURLE_ABORTED_BY_CALLBACK;
      break;
    }
    curl_multi_poll(m, nullptr, 0, 100, nullptr);
  }
  curl_multi_remove_handle(m, c);
  curl_multi_cleanup(m);
  return rc;
}

// Sleeps `seconds` in slices of 100 ms; false when the policy's cancel said stop meanwhile.
bool wait_unless_cancelled(double seconds, const RetryPolicy &policy) {
  using clock = std::chrono::steady_clock;
  const clock::time_point until = clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
  while (clock::now() < until) {
    if (cancelled(policy)) return false;
    const clock::duration left = until - clock::now();
    std::this_thread::sleep_for(std::min<clock::duration>(left, std::chrono::milliseconds(100)));
  }
  return !cancelled(policy);
}

void redact(std::string &text, const std::string &secret) {
  if (secret.empty()) return;
  for (std::size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at))
    text.replace(at, secret.size(), "[redacted]");
}

std::size_t on_header(char *p, std::size_t size, std::size_t n, void *user) {
  std::string line(p, size * n);
  auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon), value = line.substr(colon + 1);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    auto trim = [](std::string &s) {
      while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
      while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(0, 1);
    };
    trim(value);
    (*static_cast<std::map<std::string, std::string> *>(user))[name] = value;
  }
  return size * n;
}

bool retryable(long status) { return status == 408 || status == 409 || status == 429 || status >= 500; }

// Seconds the server asked us to wait, or -1.
double retry_after(const HttpResponse &r) {
  auto ms = r.headers.find("retry-after-ms");
  if (ms != r.headers.end()) {
    char *end = nullptr;
    double v = std::strtod(ms->second.c_str(), &end);
    if (end != ms->second.c_str() && v > 0 && v <= 60000) return v / 1000.0;
  }
  auto s = r.headers.find("retry-after");
  if (s != r.headers.end()) {
    char *end = nullptr;
    double v = std::strtod(s->second.c_str(), &end);
    if (end != s->second.c_str() && v > 0 && v <= 60) return v;
    time_t t = curl_getdate(s->second.c_str(), nullptr);
    if (t > 0) {
      double d = std::difftime(t, std::time(nullptr));
      if (d > 0 && d <= 60) return d;
    }
  }
  return -1;
}

}  // namespace

std::string error_message(const std::string &body) {
  auto j = parse_json_or_discarded(body);
  if (j.is_object() && j.contains("error")) {
    const auto &e = j["error"];
    if (e.is_string()) return e.get<std::string>();
    if (e.is_object() && e.contains("message") && e["message"].is_string()) return e["message"].get<std::string>();
  }
  if (j.is_object() && j.contains("message") && j["message"].is_string()) return j["message"].get<std::string>();
  if (j.is_object() && j.contains("detail") && j["detail"].is_string()) return j["detail"].get<std::string>();
  std::string s = utf8_prefix(body, 200);
  for (auto &c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

std::string bearer_header(const std::string &env_var) {
  const char *key = env_var.empty() ? nullptr : std::getenv(env_var.c_str());
  return std::string("Authorization: Bearer ") + (key && *key ? key : "none");
}

std::string redact_url(const std::string &url) {
  const std::size_t start = url.find("://");
  if (start == std::string::npos) return url;
  const std::size_t host = start + 3;
  const std::size_t end = url.find_first_of("/?#", host);
  const std::size_t at = url.rfind('@', end == std::string::npos ? url.size() : end);
  if (at == std::string::npos || at < host) return url;
  const std::size_t colon = url.find(':', host);
  if (colon == std::string::npos || colon > at) return url;  // (a user name alone is no secret)
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

void throw_cancelled(const std::string &url) {
  throw Error(ErrorCode::network, "POST " + redact_url(url) + " cancelled by the caller");
}

void check_server_url(const std::string &url, const std::string &what) {
  const auto scheme = [&](const char *s) {
    const std::size_t n = std::strlen(s);
    if (url.size() < n) return false;
    for (std::size_t i = 0; i < n; ++i)
      if (std::tolower(static_cast<unsigned char>(url[i])) != s[i]) return false;
    return true;
  };
  const std::string shown = redact_url(url);
  if (!scheme("http://") && !scheme("https://"))
    throw Error(ErrorCode::invalid_argument, what + ": the server URL '" + shown + "' is not http:// or https://");
  for (char c : url)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
      throw Error(ErrorCode::invalid_argument, what + ": the server URL '" + shown + "' holds a blank or a control character");
  const std::size_t host = url.find("://") + 3;
  const std::size_t at = url.find('@', host), end = url.find_first_of("/?#", host);
  const std::size_t from = at != std::string::npos && (end == std::string::npos || at < end) ? at + 1 : host;
  if (from >= url.size() || url[from] == '/' || url[from] == ':' || url[from] == '?' || url[from] == '#')
    throw Error(ErrorCode::invalid_argument, what + ": the server URL '" + shown + "' has no host");
}

HttpResponse post_json(const std::string &url, const std::string &body, const std::vector<std::string> &headers,
                       const RetryPolicy &policy, int *attempts, bool return_client_errors) {
  global_init();
  check_server_url(url, "POST");
  const std::string shown = redact_url(url);
  for (double t : {policy.timeout_seconds, policy.connect_timeout_seconds})
    if (!(t > 0 && t <= 86400))
      throw Error(ErrorCode::invalid_argument, "a timeout must be more than 0 and at most 86400 seconds, not " +
                                                   std::to_string(t));
  const std::string secret = bearer_token(headers);
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<double> jitter(0.75, 1.0);
  std::string last_problem;
  const int tries = std::max(0, policy.max_retries) + 1;
  bool reconnected = false;  // (a refused connection or an unknown host: one more try, at once)
  for (int attempt = 0; attempt < tries; ++attempt) {
    if (attempts) *attempts = attempt + 1;
    CURL *c = curl_easy_init();
    if (!c) throw Error(ErrorCode::network, "cannot initialise libcurl");
    HttpResponse r;
    curl_slist *hl = curl_slist_append(nullptr, "Content-Type: application/json");
    hl = curl_slist_append(hl, "Accept: application/json");
    for (auto &h : headers) hl = curl_slist_append(hl, h.c_str());
    char err[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &r.body);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &r.headers);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(policy.connect_timeout_seconds * 1000));
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(policy.timeout_seconds * 1000));
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "grappi");
    bool aborted = false;
    CURLcode rc = perform(c, policy, aborted);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
    redact(r.body, secret);  // a server that echoes the request's Authorization header
    curl_slist_free_all(hl);
    curl_easy_cleanup(c);
    if (aborted) throw_cancelled(url);
    bool retry;
    double wait = -1;
    if (rc == CURLE_WRITE_ERROR && r.body.size() + CURL_MAX_WRITE_SIZE > kMaxBody) {
      last_problem = "the response is larger than " + std::to_string(kMaxBody >> 20) + " MiB";
      retry = false;
    } else if (rc != CURLE_OK) {
      last_problem = std::string(err[0] ? err : curl_easy_strerror(rc));
      redact(last_problem, secret);
      if (rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_RESOLVE_PROXY) {
        // Nothing listens there (or no such host): waiting seconds does not make it listen.
        retry = !reconnected;
        reconnected = true;
        wait = 0;
      } else {
        retry = rc != CURLE_URL_MALFORMAT && rc != CURLE_UNSUPPORTED_PROTOCOL;
      }
    } else if (r.status >= 200 && r.status < 300) {
      return r;
    } else {
      last_problem = "HTTP " + std::to_string(r.status) + ": " + error_message(r.body);
      retry = retryable(r.status);
      auto should = r.headers.find("x-should-retry");
      if (should != r.headers.end()) retry = should->second == "true";
      // An exhausted quota is not a rate limit: waiting does not help.
      if (r.status == 429 && r.body.find("insufficient_quota") != std::string::npos) retry = false;
      wait = retry_after(r);
      if (!retry && return_client_errors && r.status >= 400 && r.status < 500) return r;
    }
    if (!retry || attempt + 1 >= tries) break;
    if (wait < 0) wait = std::min(policy.base_seconds * std::pow(2.0, attempt), policy.cap_seconds) * jitter(rng);
    if (wait > 0 && !wait_unless_cancelled(wait, policy)) throw_cancelled(url);
  }
  const std::string password_free = url == shown ? last_problem : [&] {
    std::string m = last_problem;  // (curl's message may quote the URL)
    for (std::size_t at = m.find(url); at != std::string::npos; at = m.find(url, at)) m.replace(at, url.size(), shown);
    return m;
  }();
  throw Error(ErrorCode::network, "POST " + shown + " failed: " + password_free);
}

}  // namespace grappi::detail
