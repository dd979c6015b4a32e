// grappi serve: the local web explorer - the page of grappi::explorer_page() and JSON endpoints
// over the library (cpp-httplib). It holds no logic of its own: requests become options, jobs
// run the library's explore and ask, results are the library's report views and JSON.
#include <atomic>
#include <algorithm>
#include <cmath>
#include <cctype>
#include <cstring>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <functional>
#include <optional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <system_error>
#include <thread>
#include <vector>

#include <dirent.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <unistd.h>

#include <httplib.h>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "grappi/clustering.hpp"
#include "grappi/communities.hpp"
#include "grappi/mcp.hpp"

namespace grappi::cli {

namespace {

using nlohmann::json;

struct ServeArgs {
  std::string db, host = "127.0.0.1", token, embedding_model;
  std::vector<std::string> corpora;  // the documents hypothesize reads (none: no hypothesize)
  int port = 8080;
  ChatArgs m;
  std::size_t max_jobs = 2, concurrency = 8, threads = 64;
  double job_seconds = 600;
  double read_seconds = 10;
  bool write = false;
};

/// One explore or ask run and what it made.
struct Job {
  std::string id, kind;
  std::atomic<bool> cancel{false}, timed_out{false};
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::mutex mu;  // guards what follows
  std::string state = "running", stage = "queued", error;
  std::size_t done = 0, total = 0;
  double seconds = 0;
  /// The report view and the whole result, each written when first asked for (GET .../view,
  /// .../report.html, .../result) rather than when the run ends: an explore's windows may hold
  /// 160,000 edges, seconds of JSON, and the job's state must say `cancelled` (or `done`) as
  /// soon as the run has returned. Set by the run before its state changes.
  std::function<json()> make_view, make_result;
  std::mutex made_mu;  // guards view and result (made once, not under mu: state requests go on)
  std::optional<json> view, result;
};

constexpr std::size_t kMaxBody = 64 * 1024;      // request bodies
constexpr std::size_t kMaxText = 2000;           // a query or question, in bytes
constexpr std::size_t kKeptJobs = 32;            // finished jobs remembered (oldest dropped)
constexpr std::size_t kMaxWindowNodes = 100000;  // explore: windows x the nodes a window can hold
constexpr std::size_t kMaxPaths = 100000;        // explore: candidate paths kept
// Every response: no script or style from elsewhere, requests to this server only.
constexpr const char *kCsp =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The connections' workers: a fixed pool started before the server says it listens, so a
/// machine that cannot start them is an error at once (cpp-httplib's pool would end the
/// process or leave a server that accepts and never answers).
///
/// It also holds each connection to a deadline for reading a request (its headers, and a POST's
/// body): cpp-httplib 0.11 times out each read alone, so a client sending a byte every few
/// seconds held a worker for as long as it liked. The pool runs one task per accepted
/// connection; when the listening thread hands one over, the accepted socket is the one socket
/// on the server's port that no task has yet (found in /proc/self/fd, by inode, so a reused
/// descriptor number is never mistaken for it); a watchdog shuts down a connection that has
/// been reading one request for longer than the deadline, and the worker's read then ends.
class Workers : public httplib::TaskQueue {
 public:
  Workers(std::size_t n, double read_seconds) : read_ms_(static_cast<int64_t>(read_seconds * 1000)) {
    try {
      for (std::size_t i = 0; i < n; ++i) threads_.emplace_back([this] { run(); });
      watchdog_ = std::thread([this] { watch(); });
    } catch (const std::system_error &e) {
      const std::size_t started = threads_.size();
      shutdown();
      throw Error(ErrorCode::io, "serve: cannot start " + std::to_string(n) + " worker threads (" + std::to_string(started) +
                                     " started: " + e.what() + "); give fewer with --threads or raise the limits");
    }
  }
  ~Workers() override { shutdown(); }
  Workers(const Workers &) = delete;
  Workers &operator=(const Workers &) = delete;

  /// The port the server listens on (its accepted sockets are found by it).
  void set_port(int port) { port_ = port; }
  /// Connections closed for reading a request too slowly, so far.
  std::size_t dropped() const { return dropped_.load(); }
  /// The request the calling worker serves has been read (its headers, and its body for a POST).
  static void request_read() {
    if (current_) current_->reading = false;
  }

  void enqueue(std::function<void()> fn) override {
    auto conn = std::make_shared<Conn>();
    {
      std::lock_guard<std::mutex> lock(conns_mu_);
      find_socket(*conn);
      conns_.push_back(conn);
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      tasks_.push_back([this, conn, fn = std::move(fn)] {
        current_ = conn.get();
        conn->since_ms = now_ms();
        conn->started = true;
        fn();
        current_ = nullptr;
        std::lock_guard<std::mutex> held(conns_mu_);
        conns_.erase(std::find(conns_.begin(), conns_.end(), conn));
      });
    }
    cv_.notify_one();
  }
  void shutdown() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    cv_watch_.notify_all();
    for (auto &t : threads_)
      if (t.joinable()) t.join();
    if (watchdog_.joinable()) watchdog_.join();
  }

 private:
  struct Conn {
    int fd = -1;  // -1: not found (no deadline) or already shut down
    dev_t dev = 0;
    ino_t ino = 0;
    std::atomic<bool> started{false}, reading{true};
    std::atomic<int64_t> since_ms{0};
  };
  static int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  // The accepted socket no task has yet: a connected (not listening) socket on the server's port.
  void find_socket(Conn &c) const {
    DIR *d = opendir("/proc/self/fd");
    if (!d || port_ <= 0) {
      if (d) closedir(d);
      return;
    }
    while (const dirent *e = readdir(d)) {
      char *end = nullptr;
      const long fd = std::strtol(e->d_name, &end, 10);
      if (!end || *end || fd < 0 || fd == dirfd(d)) continue;
      struct stat st {};
      if (fstat(static_cast<int>(fd), &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
      int listening = 0;
      socklen_t len = sizeof listening;
      if (getsockopt(static_cast<int>(fd), SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) != 0 || listening) continue;
      sockaddr_storage local{};
      socklen_t alen = sizeof local;
      if (getsockname(static_cast<int>(fd), reinterpret_cast<sockaddr *>(&local), &alen) != 0) continue;
      const int port = local.ss_family == AF_INET    ? ntohs(reinterpret_cast<const sockaddr_in &>(local).sin_port)
                       : local.ss_family == AF_INET6 ? ntohs(reinterpret_cast<const sockaddr_in6 &>(local).sin6_port)
                                                     : -1;
      if (port != port_) continue;
      if (std::any_of(conns_.begin(), conns_.end(), [&](const auto &o) { return o->ino == st.st_ino && o->dev == st.st_dev; }))
        continue;
      c.fd = static_cast<int>(fd);
      c.dev = st.st_dev;
      c.ino = st.st_ino;
      break;
    }
    closedir(d);
  }
  // Every 100 ms: a connection reading one request for longer than the deadline is shut down
  // (its descriptor checked to be the same socket first).
  void watch() {
    while (true) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        if (cv_watch_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_; })) return;
      }
      const int64_t now = now_ms();
      std::lock_guard<std::mutex> lock(conns_mu_);
      for (const auto &c : conns_) {
        if (c->fd < 0 || !c->started || !c->reading || now - c->since_ms < read_ms_) continue;
        struct stat st {};
        if (fstat(c->fd, &st) == 0 && st.st_ino == c->ino && st.st_dev == c->dev) {
          ::shutdown(c->fd, SHUT_RDWR);
          ++dropped_;
        }
        c->fd = -1;
      }
    }
  }
  void run() {
    while (true) {
      std::function<void()> fn;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return stop_ || !tasks_.empty(); });
        if (tasks_.empty()) return;  // stopping, and every accepted connection served
        fn = std::move(tasks_.front());
        tasks_.pop_front();
      }
      fn();
    }
  }
  static thread_local Conn *current_;
  const int64_t read_ms_;
  std::atomic<int> port_{0};
  std::atomic<std::size_t> dropped_{0};
  std::mutex mu_;
  std::condition_variable cv_, cv_watch_;
  std::deque<std::function<void()>> tasks_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
  std::thread watchdog_;
  std::mutex conns_mu_;  // guards conns_ (and each Conn's fd, dev, ino)
  std::vector<std::shared_ptr<Conn>> conns_;
};

thread_local Workers::Conn *Workers::current_ = nullptr;

volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_signal(int) { g_stop = 1; }

bool loopback(const std::string &host) { return host == "127.0.0.1" || host == "localhost" || host == "::1"; }

/// Compares without stopping at the first difference.
// What makes a request's framing ambiguous, or nullptr: several Content-Length headers, one that
// is not digits alone ("32, 5", "+32"), a header name that is no token (a blank before the colon).
const char *smuggling(const httplib::Request &req) {
  if (req.get_header_value_count("Content-Length") > 1) return "several Content-Length headers";
  if (req.has_header("Content-Length")) {
    const std::string v = req.get_header_value("Content-Length");
    if (v.empty() || v.size() > 18 || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return "a Content-Length that is not a number";
  }
  for (const auto &[name, value] : req.headers) {
    (void)value;
    if (name.empty()) return "an empty header name";
    for (const char c : name)
      if (static_cast<unsigned char>(c) <= ' ' || static_cast<unsigned char>(c) >= 0x7f ||
          std::strchr("\"(),/:;<=>?@[\\]{}", c) != nullptr)
        return "a header name that is not a token (a blank before its colon?)";
  }
  return nullptr;
}

bool same_token(const std::string &a, const std::string &b) {
  unsigned diff = a.size() == b.size() ? 0U : 1U;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned>(a[i] ^ (i < b.size() ? b[i] : 0));
  return diff == 0;
}

void reply(httplib::Response &res, int status, const json &body) {
  res.status = status;
  res.set_content(dump_json(body) + "\n", "application/json; charset=utf-8");
}
void fail(httplib::Response &res, int status, const std::string &message) { reply(res, status, {{"error", message}}); }

/// A query parameter's list (commas or blanks between the items), at most `most` items and 100,000
/// bytes; Error(invalid_argument) naming it otherwise.
std::vector<std::string> list_param(const httplib::Request &req, const char *name, std::size_t most) {
  const std::string v = req.get_param_value(name);
  if (v.size() > 100000) throw Error(ErrorCode::invalid_argument, "\"" + std::string(name) + "\" is longer than 100000 bytes");
  std::vector<std::string> out;
  add_list_items(out, v);
  if (out.size() > most)
    throw Error(ErrorCode::invalid_argument, "\"" + std::string(name) + "\" holds more than " + std::to_string(most) + " items");
  return out;
}
/// The proteins of an enrichment (at most 5,000 names); Error(invalid_argument) when none is given.
std::vector<std::string> proteins_param(const httplib::Request &req) {
  std::vector<std::string> names = list_param(req, "proteins", 5000);
  if (names.empty()) throw Error(ErrorCode::invalid_argument, "\"proteins\" is required (names separated by commas)");
  return names;
}
/// A number parameter within [lo, hi]; absent gives `fallback`; anything else is an Error naming it.
double number_param(const httplib::Request &req, const char *name, double fallback, double lo, double hi) {
  if (!req.has_param(name)) return fallback;
  const std::string v = req.get_param_value(name);
  char *end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || !end || *end || !(x >= lo && x <= hi))
    throw Error(ErrorCode::invalid_argument, "\"" + std::string(name) + "\" must be a number from " + fmt(lo, 1) + " to " +
                                                 fmt(hi, 1) + " (given '" + v.substr(0, 40) + "')");
  return x;
}

/// A field of a request body: absent gives `fallback`; the wrong type is an Error naming it.
template <class T>
T field(const json &body, const char *name, T fallback) {
  const auto it = body.find(name);
  if (it == body.end() || it->is_null()) return fallback;
  try {
    return it->get<T>();
  } catch (const json::exception &) {
    throw Error(ErrorCode::invalid_argument, std::string("\"") + name + "\" has the wrong type");
  }
}
std::string text_field(const json &body, const char *name, bool required) {
  const std::string s = field<std::string>(body, name, "");
  if (required && s.empty()) throw Error(ErrorCode::invalid_argument, std::string("\"") + name + "\" is required");
  if (s.size() > kMaxText) throw Error(ErrorCode::invalid_argument, std::string("\"") + name + "\" is longer than 2000 bytes");
  return s;
}
std::size_t count_field(const json &body, const char *name, std::size_t fallback, std::size_t lo, std::size_t hi) {
  const auto it = body.find(name);
  if (it == body.end() || it->is_null()) return fallback;
  if (!it->is_number_integer() || it->get<int64_t>() < static_cast<int64_t>(lo) || it->get<int64_t>() > static_cast<int64_t>(hi))
    throw Error(ErrorCode::invalid_argument,
                std::string("\"") + name + "\" must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
  return it->get<std::size_t>();
}

class Server {
 public:
  Server(const ServeArgs &a, KnowledgeGraph &g, std::shared_ptr<LanguageModel> model, std::vector<Document> corpus)
      : a_(a), g_(g), model_(std::move(model)), corpus_(std::move(corpus)), papers_(g.paper_count()),
        rng_(std::random_device{}()) {
    McpOptions o;
    o.database = a.db;
    o.writable = a.write;
    o.embedding_model = a.embedding_model;
    o.call_seconds = a.job_seconds;
    o.max_running = a.max_jobs;
    o.concurrency = a.concurrency;
    o.max_message_bytes = kMaxBody;
    o.log = [](const std::string &line) { std::cerr << "grappi serve: mcp: " << line << std::endl; };
    mcp_ = std::make_unique<McpServer>(g_, model_, o);
  }

  ~Server() {
    for (auto &[id, job] : jobs_) job->cancel = true;
    for (auto &[id, t] : threads_)
      if (t.joinable()) t.join();
  }

  /// The port the server listens on (for the Host check).
  void set_port(int port) { port_ = port; }

  void routes(httplib::Server &svr) {
    guard_requests(svr);
    read_routes(svr);
    job_routes(svr);
  }

  /// What every request passes first (body size, headers, token, Host, Origin) and how errors are answered.
  void guard_requests(httplib::Server &svr) {
    svr.set_payload_max_length(kMaxBody);
    svr.set_pre_routing_handler([this](const httplib::Request &req, httplib::Response &res) {
      if (req.method != "POST") Workers::request_read();  // (a POST's body is read after this)
      res.set_header("X-Content-Type-Options", "nosniff");
      res.set_header("Cache-Control", "no-store");
      res.set_header("Content-Security-Policy", kCsp);
      // Request smuggling behind a proxy (RFC 9112 6.3, 5.1): one Content-Length of digits only,
      // and header names that are tokens ("Transfer-Encoding : chunked" is no header a proxy
      // reads as this server would): 400, the connection closed (this runs before any body is read).
      if (const char *bad = smuggling(req)) {
        res.set_header("Connection", "close");
        fail(res, 400, bad);
        return httplib::Server::HandlerResponse::Handled;
      }
      // cpp-httplib 0.11 applies the body limit to Content-Length only and would read a chunked
      // body whole, however large: bodies must say their length (this runs before any is read).
      if (req.has_header("Transfer-Encoding")) {
        res.set_header("Connection", "close");
        fail(res, 411, "request bodies must carry Content-Length (at most 64 KiB); Transfer-Encoding is refused");
        return httplib::Server::HandlerResponse::Handled;
      }
      // On loopback, only requests addressed to loopback: a page elsewhere that rebinds its own
      // name to 127.0.0.1 (DNS rebinding) is refused.
      if (loopback(a_.host) && !loopback_host(req.get_header_value("Host"))) {
        fail(res, 403, "requests must be addressed to 127.0.0.1, localhost or [::1]");
        return httplib::Server::HandlerResponse::Handled;
      }
      // MCP's streamable HTTP: a request from a page (an Origin) must come from this server's own
      // address (with the Host check, DNS rebinding is refused twice).
      if (req.path == "/mcp" && req.has_header("Origin") && !same_origin(req.get_header_value("Origin"))) {
        fail(res, 403, "requests to /mcp from another origin are refused");
        return httplib::Server::HandlerResponse::Handled;
      }
      // Posts carry JSON: another site's page cannot send that without a CORS preflight,
      // which this server never grants (no cross-site requests start jobs).
      if (req.method == "POST" && req.get_header_value("Content-Type").rfind("application/json", 0) != 0) {
        fail(res, 415, "requests must be sent as Content-Type: application/json");
        return httplib::Server::HandlerResponse::Handled;
      }
      if (a_.token.empty()) return httplib::Server::HandlerResponse::Unhandled;
      std::string given = req.get_param_value("token");
      const std::string auth = req.get_header_value("Authorization");
      if (auth.rfind("Bearer ", 0) == 0) given = auth.substr(7);
      if (same_token(given, a_.token)) return httplib::Server::HandlerResponse::Unhandled;
      fail(res, 401, "a token is required (Authorization: Bearer TOKEN, or ?token=TOKEN)");
      return httplib::Server::HandlerResponse::Handled;
    });
    svr.set_exception_handler([](const httplib::Request &, httplib::Response &res, std::exception_ptr ep) {
      try {
        std::rethrow_exception(ep);
      } catch (const Error &e) {
        const ErrorCode c = e.code();
        fail(res, c == ErrorCode::not_found ? 404 : c == ErrorCode::invalid_argument || c == ErrorCode::ambiguous || c == ErrorCode::parse ? 400 : 500,
             e.what());
      } catch (const std::exception &e) {
        fail(res, 500, e.what());
      } catch (...) {
        fail(res, 500, "unknown error");
      }
    });
    // An error cpp-httplib answers itself (a body over 64 KiB: 413) gets a body: a JSON-RPC error on /mcp.
    svr.set_error_handler([](const httplib::Request &req, httplib::Response &res) {
      if (!res.body.empty()) return;
      const std::string why = res.status == 413 ? "the request is larger than 64 KiB" : "HTTP status " + std::to_string(res.status);
      if (req.path == "/mcp")
        res.set_content(json({{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", -32600}, {"message", why}}}}).dump() + "\n",
                        "application/json");
      else
        res.set_content(json({{"error", why}}).dump() + "\n", "application/json");
    });
  }

  /// The GET endpoints answered at once: the page, the database, completion, neighbours, enrichment, clusters.
  void read_routes(httplib::Server &svr) {
    svr.Get("/", [](const httplib::Request &, httplib::Response &res) {
      res.set_content(explorer_page(), "text/html; charset=utf-8");
    });
    svr.Get("/api/info", [this](const httplib::Request &, httplib::Response &res) {
      const auto s = g_.snapshot();
      reply(res, 200,
            {{"database", a_.db},
             {"nodes", s->node_count()},
             {"edges", s->edge_count()},
             {"model", model_->identity()},
             {"language_model", model_->kind() != "extractive"},
             {"tasks", can_hypothesize() ? json::array({"explore", "ask", "hypothesize"}) : json::array({"explore", "ask"})},
             {"papers", papers_},
             {"writable", a_.write}});
    });
    svr.Get("/api/complete", [this](const httplib::Request &req, httplib::Response &res) {
      const std::string q = req.get_param_value("q");
      if (q.size() > 200) return fail(res, 400, "\"q\" is longer than 200 bytes");
      std::size_t limit = 10;
      if (req.has_param("limit")) {
        const std::string l = req.get_param_value("limit");
        char *end = nullptr;
        const unsigned long v = std::strtoul(l.c_str(), &end, 10);
        if (l.empty() || !end || *end || v < 1 || v > 100 || l[0] == '-') return fail(res, 400, "\"limit\" must be 1-100");
        limit = v;
      }
      json out = json::array();
      for (const auto &c : g_.complete(q, limit))
        out.push_back({{"id", c.id}, {"name", c.name}, {"external_id", c.external_id}, {"matched", c.matched}, {"matched_by", c.matched_by}});
      reply(res, 200, {{"completions", out}});
    });
    // A protein's neighbours, strongest first (as grappi neighbors --json), answered at once.
    svr.Get("/api/neighbors", [this](const httplib::Request &req, httplib::Response &res) {
      const std::string protein = req.get_param_value("protein");
      if (protein.empty() || protein.size() > 200) return fail(res, 400, "\"protein\" must be a name or id of 1-200 bytes");
      NeighborFilter f;
      f.min_score = number_param(req, "min_score", 0, 0, 1);
      f.relations = list_param(req, "relation", 64);
      const double most = number_param(req, "limit", 10, 0, 100000);
      if (most != std::floor(most)) return fail(res, 400, "\"limit\" must be a whole number (0: all)");
      const auto limit = static_cast<std::size_t>(most);
      const int64_t id = g_.resolve(protein);
      const auto snap = g_.snapshot();
      reply(res, 200, to_json(*snap, id, strongest_neighbors(*snap, id, f, limit)));
    });
    // Functional and PPI enrichment of a protein set, answered at once (docs/function.md).
    svr.Get("/api/enrich", [this](const httplib::Request &req, httplib::Response &res) {
      EnrichmentOptions o;
      o.max_fdr = number_param(req, "fdr", 0.05, 0, 1);
      o.categories = list_param(req, "category", 3);
      o.exclude_evidence = list_param(req, "exclude_evidence", 64);
      reply(res, 200, to_json(g_, enrich_names(g_, proteins_param(req), o)));
    });
    svr.Get("/api/ppi-enrichment", [this](const httplib::Request &req, httplib::Response &res) {
      PpiEnrichmentOptions o;
      o.min_score = number_param(req, "min_score", 0.4, 0, 1);
      reply(res, 200, to_json(g_, ppi_enrichment_names(g_, proteins_param(req), o)));
    });
    // Clusters of a protein set's network, or of the whole network without "proteins".
    svr.Get("/api/cluster", [this](const httplib::Request &req, httplib::Response &res) {
      ClusterOptions o;
      o.method = cluster_method(req.has_param("method") ? req.get_param_value("method") : "mcl");
      o.min_score = number_param(req, "min_score", 0.4, 0, 1);
      o.inflation = number_param(req, "inflation", 2.0, 1, 30);
      o.resolution = number_param(req, "resolution", 1.0, 0, 1e6);
      o.runs = static_cast<std::size_t>(number_param(req, "runs", 1, 1, 10));
      o.max_cluster_size = static_cast<std::size_t>(number_param(req, "max_cluster_size", 0, 0, 1e6));
      o.max_fdr = number_param(req, "fdr", 0.05, 0, 1);
      o.categories = list_param(req, "category", 3);
      reply(res, 200, to_json(g_, cluster_names(g_, list_param(req, "proteins", 5000), o)));
    });
    svr.Get("/api/communities", [this](const httplib::Request &req, httplib::Response &res) {
      const std::string name = req.has_param("name") ? req.get_param_value("name") : "default";
      const std::optional<CommunitySet> s = load_communities(g_, name);
      if (!s) return fail(res, 404, "no community reports named '" + name + "' are stored (grappi communities build)");
      reply(res, 200, to_json(*s));
    });
  }

  /// MCP and the jobs: explore, ask and hypothesize started, watched, read and cancelled.
  void job_routes(httplib::Server &svr) {
    // Every POST handler starts once the body is read: the request is then whole (the
    // connection's read deadline stops; Workers).
    const auto post = [&svr](const char *pattern, httplib::Server::Handler handler) {
      svr.Post(pattern, [handler = std::move(handler)](const httplib::Request &req, httplib::Response &res) {
        Workers::request_read();
        handler(req, res);
      });
    };
    post("/mcp", [this](const httplib::Request &req, httplib::Response &res) { mcp_post(req, res); });
    svr.Get("/mcp", [](const httplib::Request &, httplib::Response &res) {
      res.set_header("Allow", "POST, DELETE");
      fail(res, 405, "this server sends no stream of its own: POST JSON-RPC messages to /mcp");
    });
    svr.Delete("/mcp", [this](const httplib::Request &req, httplib::Response &res) {
      const std::string session = req.get_header_value("Mcp-Session-Id");
      if (session.empty() || !mcp_->has_session(session)) return fail(res, 404, "no such session");
      mcp_->close_session(session);
      reply(res, 200, {{"closed", true}});
    });
    post("/api/explore", [this](const httplib::Request &req, httplib::Response &res) { start(req, res, "explore"); });
    post("/api/ask", [this](const httplib::Request &req, httplib::Response &res) { start(req, res, "ask"); });
    post("/api/hypothesize", [this](const httplib::Request &req, httplib::Response &res) {
      if (!can_hypothesize())
        return fail(res, 404,
                    "hypothesize needs papers: the database holds none (grappi import --corpus, cooc build) and serve "
                    "was started without --corpus");
      start(req, res, "hypothesize");
    });
    svr.Get(R"(/api/jobs/([0-9a-f]{1,32}))", [this](const httplib::Request &req, httplib::Response &res) {
      const auto job = find(req.matches[1]);
      if (!job) return fail(res, 404, "no job " + std::string(req.matches[1]));
      std::lock_guard<std::mutex> lock(job->mu);
      json j{{"job", job->id}, {"kind", job->kind}, {"state", job->state}, {"stage", job->stage}, {"done", job->done},
             {"total", job->total}, {"seconds", job->state == "running" ? elapsed(*job) : job->seconds}};
      if (!job->error.empty()) j["error"] = job->error;
      reply(res, 200, j);
    });
    const auto finished = [this](const httplib::Request &req, httplib::Response &res, const char *what) {
      const auto job = find(req.matches[1]);
      if (!job) return fail(res, 404, "no job " + std::string(req.matches[1]));
      std::unique_lock<std::mutex> lock(job->mu);
      if (job->state == "running") return fail(res, 409, "job " + job->id + " is still running");
      if (job->state == "failed") return fail(res, 422, job->error);
      lock.unlock();  // (written once, outside the job's state lock)
      const bool result = std::string(what) == "result";
      std::lock_guard<std::mutex> made_lock(job->made_mu);
      std::optional<json> &made = result ? job->result : job->view;
      const std::function<json()> &make = result ? job->make_result : job->make_view;
      if (!made) made = make ? make() : json::object();
      if (std::string(what) == "html") return res.set_content(to_html(*made), "text/html; charset=utf-8");
      reply(res, 200, *made);
    };
    svr.Get(R"(/api/jobs/([0-9a-f]{1,32})/view)", [finished](const httplib::Request &q, httplib::Response &r) { finished(q, r, "view"); });
    svr.Get(R"(/api/jobs/([0-9a-f]{1,32})/result)", [finished](const httplib::Request &q, httplib::Response &r) { finished(q, r, "result"); });
    svr.Get(R"(/api/jobs/([0-9a-f]{1,32})/report\.html)",
            [finished](const httplib::Request &q, httplib::Response &r) { finished(q, r, "html"); });
    post(R"(/api/jobs/([0-9a-f]{1,32})/cancel)", [this](const httplib::Request &req, httplib::Response &res) {
      const auto job = find(req.matches[1]);
      if (!job) return fail(res, 404, "no job " + std::string(req.matches[1]));
      job->cancel = true;
      reply(res, 200, {{"job", job->id}, {"cancel", true}});
    });
  }

 private:
  static double elapsed(const Job &job) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - job.started).count();
  }

  /// A job stops when cancelled or past --job-seconds (its error then says so).
  /// Any job's run control: cancel from the job (or its time limit), progress into its state.
  void watch(Job &job, RunControl &run) const {
    run.cancel = [this, &job] { return stop_requested(job); };
    run.progress = [&job](const std::string &stage, std::size_t done, std::size_t total) {
      std::lock_guard<std::mutex> lock(job.mu);
      job.stage = stage;
      job.done = done;
      job.total = total;
    };
  }

  bool stop_requested(Job &job) const {
    if (job.cancel) return true;
    if (elapsed(job) <= a_.job_seconds) return false;
    job.timed_out = true;
    job.cancel = true;
    return true;
  }

  std::shared_ptr<Job> find(const std::string &id) {
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = jobs_.find(id);
    return it == jobs_.end() ? nullptr : it->second;
  }

  void start(const httplib::Request &req, httplib::Response &res, const std::string &kind) {
    json body;
    try {
      body = json::parse(req.body);
    } catch (const json::exception &) {
      return fail(res, 400, "the request body is not JSON");
    }
    if (!body.is_object()) return fail(res, 400, "the request body is not a JSON object");
    // The request is validated before a job is made.
    std::function<void(Job &)> work =
        kind == "explore" ? explore_work(body) : kind == "ask" ? ask_work(body) : hypothesize_work(body);
    auto job = std::make_shared<Job>();
    job->kind = kind;
    {
      std::lock_guard<std::mutex> lock(mu_);
      std::size_t running = 0;
      for (const auto &[id, j] : jobs_) {
        std::lock_guard<std::mutex> job_lock(j->mu);
        running += j->state == "running";
      }
      if (running >= a_.max_jobs) return fail(res, 429, "already running " + std::to_string(running) + " jobs (--max-jobs)");
      char id[17];
      std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(rng_()));
      job->id = id;
      jobs_[job->id] = job;
      order_.push_back(job->id);
      forget_old();
      try {
        threads_[job->id] = std::thread([job, work] {
          std::string state = "done", error;
          try {
            work(*job);
            if (job->cancel) state = "cancelled";
            if (job->timed_out) error = "stopped at the time limit (serve --job-seconds)";
          } catch (const std::bad_alloc &) {
            state = "failed";
            error = "out of memory while running the job";
          } catch (const std::exception &e) {
            state = "failed";
            error = e.what();
          }
          std::lock_guard<std::mutex> job_lock(job->mu);
          job->seconds = elapsed(*job);
          job->error = error;
          job->state = state;
        });
      } catch (const std::system_error &e) {
        threads_.erase(job->id);
        jobs_.erase(job->id);
        order_.pop_back();
        return fail(res, 503, std::string("cannot start a thread for the job: ") + e.what());
      }
    }
    reply(res, 202, {{"job", job->id}, {"kind", kind}});
  }

  /// Drops the oldest finished jobs beyond kKeptJobs (their threads have ended).
  void forget_old() {
    while (order_.size() > kKeptJobs) {
      const auto it = jobs_.find(order_.front());
      if (it != jobs_.end()) {
        std::lock_guard<std::mutex> lock(it->second->mu);
        if (it->second->state == "running") break;
      }
      if (it != jobs_.end()) jobs_.erase(it);
      const auto t = threads_.find(order_.front());
      if (t != threads_.end()) {
        if (t->second.joinable()) t->second.join();  // finished: returns at once
        threads_.erase(t);
      }
      order_.pop_front();
    }
  }

  std::function<void(Job &)> explore_work(const json &body) {
    const int64_t root = g_.resolve(text_field(body, "protein", true));  // unknown or ambiguous: 404 / 400 at once
    ExploreOptions o;
    o.query = text_field(body, "query", true);
    const json windows = body.value("windows", json("1"));
    o.windows = parse_windows(windows.is_number_integer() ? std::to_string(windows.get<int64_t>()) : field<std::string>(body, "windows", "1"),
                              "\"windows\"");
    for (const auto w : o.windows)
      if (w > 100) throw Error(ErrorCode::invalid_argument, "\"windows\": at most window 100");
    o.window.k = parse_k(field<std::string>(body, "k", "30,4"), "\"k\"");
    o.window.depth = count_field(body, "depth", 2, 1, 6);
    o.max_length = count_field(body, "max_len", 4, 1, 12);
    o.top = count_field(body, "top", 10, 1, 1000);
    o.max_paths = count_field(body, "max_paths", std::min(o.max_paths, kMaxPaths), 1, kMaxPaths);
    // The work a job may ask for: the windows' nodes (each window searched for paths).
    if (explore_window_nodes_bound(o) > kMaxWindowNodes)
      throw Error(ErrorCode::invalid_argument,
                  "\"windows\" x \"k\" x \"depth\" asks for windows of more than " + std::to_string(kMaxWindowNodes) +
                      " nodes in all (each window holds up to 1 + k1 + k1*k2 + ... nodes): ask for fewer windows, "
                      "smaller k or less depth");
    const double min_score = field<double>(body, "min_score", 0.0);
    o.window.filter.min_score = score_arg(min_score, "\"min_score\"");
    o.concurrency = a_.concurrency;
    o.use_cache = true;
    return [this, root, o](Job &job) mutable {
      watch(job, o);
      {
        std::lock_guard<std::mutex> lock(job.mu);
        job.stage = "retrieve";
      }
      const AgentPipeline pipe(g_, model_, a_.embedding_model);
      ExploreResult r = pipe.explore(root, o);
      // (a language model that answered nothing: the job failed, with the first reason, as the
      // command line exits 1)
      require_some_answer(r, *model_, "");
      const auto kept = std::make_shared<const ExploreResult>(std::move(r));
      std::lock_guard<std::mutex> lock(job.mu);
      job.make_view = [kept] { return report_view(*kept); };
      job.make_result = [kept] { return to_json(*kept); };
    };
  }

  std::function<void(Job &)> ask_work(const json &body) {
    const std::string question = text_field(body, "question", true);
    AskOptions o;
    o.embedding_model = a_.embedding_model;
    return [this, question, o](Job &job) mutable {
      watch(job, o);
      {
        std::lock_guard<std::mutex> lock(job.mu);
        job.stage = "retrieve";
      }
      AskResult r = ask(g_, *model_, question, o);
      // (every model request failed: the job failed with the reason, as the command line exits 1)
      if (r.status == "failed" && !r.offline) throw Error(ErrorCode::llm, "the model failed: " + r.error);
      const auto kept = std::make_shared<const AskResult>(std::move(r));
      std::lock_guard<std::mutex> lock(job.mu);
      job.make_view = [this, kept] { return report_view(g_, *kept); };
      job.make_result = [kept] { return to_json(*kept); };
    };
  }

  std::function<void(Job &)> hypothesize_work(const json &body) {
    const std::string source = text_field(body, "source", true), target = text_field(body, "target", true);
    g_.resolve(source);  // unknown or ambiguous: at once
    g_.resolve(target);
    HypothesisOptions o;
    o.max_length = count_field(body, "max_len", o.max_length, 1, 6);
    o.paths = count_field(body, "paths", o.paths, 1, 100);
    o.shortest_rounds = count_field(body, "shortest_rounds", 0, 0, 5);  // (HGCR's candidates)
    return [this, source, target, o](Job &job) mutable {
      watch(job, o);
      {
        std::lock_guard<std::mutex> lock(job.mu);
        job.stage = "paths";
      }
      HypothesisResult r = hypothesize(g_, *model_, source, target, corpus_, o);
      const auto kept = std::make_shared<const HypothesisResult>(std::move(r));
      std::lock_guard<std::mutex> lock(job.mu);
      job.make_view = [kept] { return report_view(*kept); };
      job.make_result = [kept] { return to_json(*kept); };
    };
  }

  /// Whether an Origin header names this server: http://HOST:PORT with a loopback HOST (or the
  /// address it listens on).
  bool same_origin(const std::string &origin) const {
    const std::string port = ":" + std::to_string(port_);
    for (const std::string &name : {std::string("127.0.0.1"), std::string("localhost"), std::string("[::1]"), a_.host})
      if (origin == "http://" + name + port) return true;
    return false;
  }

  /// Whether a Host header names a loopback address with this server's port.
  bool loopback_host(const std::string &host) const {
    const std::string port = ":" + std::to_string(port_);
    for (const char *name : {"127.0.0.1", "localhost", "[::1]"})
      if (host == std::string(name) + port) return true;
    return false;
  }

  /// POST /mcp: MCP's streamable HTTP transport. `initialize` opens a session (the Mcp-Session-Id
  /// header of its answer), every later message names it. A notification or a response gets 202;
  /// a request its answer as JSON, or, for a tool call from a client that accepts
  /// text/event-stream, as a stream of events: the call's progress notifications, then its answer
  /// (a cancelled call's stream ends without one).
  void mcp_post(const httplib::Request &req, httplib::Response &res) {
    const auto rpc_error = [&res](int status, int code, const std::string &message) {
      res.status = status;
      res.set_content(nlohmann::json({{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", code}, {"message", message}}}}).dump() + "\n",
                      "application/json");
    };
    const std::string version = req.get_header_value("MCP-Protocol-Version");
    if (!version.empty() && version != "2025-11-25" && version != "2025-06-18")
      return rpc_error(400, -32600, "unsupported MCP-Protocol-Version '" + version.substr(0, 40) + "' (2025-11-25 or 2025-06-18)");
    std::string method;
    const json peek = json::parse(req.body, nullptr, false);
    if (peek.is_object() && peek.contains("method") && peek["method"].is_string()) method = peek["method"];
    std::string session = req.get_header_value("Mcp-Session-Id");
    if (method == "initialize" && peek.contains("id")) {
      session = mcp_->open_session();
      res.set_header("Mcp-Session-Id", session);
    } else if (session.empty()) {
      return rpc_error(400, -32600, "the Mcp-Session-Id header is required (the one initialize answered with)");
    } else if (!mcp_->has_session(session)) {
      return rpc_error(404, -32600, "unknown or ended session: initialize again");
    }
    struct Stream {
      std::mutex mu;
      std::condition_variable cv;
      std::deque<std::string> messages;
      bool last = false;
    };
    auto st = std::make_shared<Stream>();
    const bool answer = mcp_->handle(req.body, session, [st](const std::string &message, bool last) {
      std::lock_guard<std::mutex> lock(st->mu);
      if (!message.empty()) st->messages.push_back(message);
      st->last = st->last || last;
      st->cv.notify_all();
    });
    if (!answer) {
      res.status = 202;
      return;
    }
    const bool events = method == "tools/call" && req.get_header_value("Accept").find("text/event-stream") != std::string::npos;
    if (!events) {
      // (the answer, once the request has ended; a cancelled call's request ends with no answer: 202)
      std::unique_lock<std::mutex> lock(st->mu);
      while (!st->last && !g_stop) st->cv.wait_for(lock, std::chrono::milliseconds(100));
      if (st->messages.empty()) {
        res.status = 202;
        return;
      }
      res.status = 200;
      res.set_content(st->messages.back() + "\n", "application/json");
      return;
    }
    res.status = 200;
    res.set_chunked_content_provider("text/event-stream", [st](std::size_t, httplib::DataSink &sink) {
      std::unique_lock<std::mutex> lock(st->mu);
      while (st->messages.empty() && !st->last && !g_stop) st->cv.wait_for(lock, std::chrono::milliseconds(100));
      while (!st->messages.empty()) {
        const std::string event = "event: message\ndata: " + st->messages.front() + "\n\n";
        st->messages.pop_front();
        if (!sink.write(event.data(), event.size())) return false;
      }
      if (st->last || g_stop) sink.done();
      return true;
    });
  }

  const ServeArgs &a_;
  std::unique_ptr<McpServer> mcp_;
  int port_ = 0;
  KnowledgeGraph &g_;
  std::shared_ptr<LanguageModel> model_;
  const std::vector<Document> corpus_;
  const std::size_t papers_;  // the database's papers (hypothesize's context without --corpus)
  bool can_hypothesize() const { return !corpus_.empty() || papers_ > 0; }
  std::mutex mu_;  // guards what follows
  std::mt19937_64 rng_;
  std::map<std::string, std::shared_ptr<Job>> jobs_;
  std::deque<std::string> order_;
  std::map<std::string, std::thread> threads_;
};

void run(ServeArgs &a) {
  if (!a.token.empty() && std::all_of(a.token.begin(), a.token.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }))
    throw Error(ErrorCode::invalid_argument, "serve: --token is blank");
  if (!loopback(a.host) && a.token.empty())
    throw Error(ErrorCode::invalid_argument, "serve: --host " + a.host + " is reachable from other machines: give --token too");
  if (a.port < 0 || a.port > 65535) throw Error(ErrorCode::invalid_argument, "serve: --port must be 0-65535");
  std::vector<Document> corpus;
  for (const std::string &f : a.corpora)
    for (Document &d : read_documents(f)) corpus.push_back(std::move(d));
  auto model = chat_model_of(a.m, a.concurrency, "serve");
  KnowledgeGraph g = open_graph(a.db, a.write ? Access::write : Access::read);
  Server server(a, g, model, std::move(corpus));
  httplib::Server svr;
  // cpp-httplib's default sets SO_REUSEPORT, with which a second server binds the same port and
  // the kernel shares the requests between the two databases: SO_REUSEADDR only (a restart may
  // take the port back from TIME_WAIT; a port another server listens on is refused).
  svr.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<void *>(&yes), sizeof yes);
  });
  server.routes(svr);
  // Slow clients: many workers, each read waiting at most 5 s, a whole request read within
  // --read-seconds. One request per connection, answered with `Connection: close`: cpp-httplib
  // 0.11 reads a connection's next request through a fresh buffer, so requests pipelined in one
  // packet after the first were lost without a word (RFC 9112 9.3.2: a client retries what a
  // closed connection did not answer).
  auto workers = std::make_unique<Workers>(a.threads, a.read_seconds);
  Workers *pool = workers.get();  // (owned by svr once it listens)
  svr.new_task_queue = [&workers] { return workers.release(); };
  svr.set_read_timeout(5);
  svr.set_write_timeout(5);
  svr.set_keep_alive_max_count(1);
  int port = a.port;
  if (port == 0) {
    port = svr.bind_to_any_port(a.host);
    if (port < 0) throw Error(ErrorCode::io, "serve: cannot listen on " + a.host);
  } else if (!svr.bind_to_port(a.host, port)) {
    throw Error(ErrorCode::io, "serve: cannot listen on " + a.host + ":" + std::to_string(port) + " (in use?)");
  }
  server.set_port(port);
  pool->set_port(port);
  const std::string where = (a.host.find(':') != std::string::npos ? "[" + a.host + "]" : a.host) + ":" + std::to_string(port);
  std::cout << "grappi serve: listening on http://" << where << "/" << (a.token.empty() ? "" : "?token=...") << std::endl;
  std::cerr << "grappi serve: " << a.db << (a.write ? " (read-write)" : " (read-only)") << ", model " << model->identity()
            << "; Ctrl-C stops" << std::endl;
  g_stop = 0;
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::thread watcher([&svr] {
    while (!g_stop && !svr.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    while (!g_stop && svr.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    svr.stop();
  });
  const bool ok = svr.listen_after_bind();
  g_stop = 1;
  watcher.join();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (!ok && !g_stop) throw Error(ErrorCode::io, "serve: the server stopped unexpectedly");
  std::cerr << "grappi serve: stopped" << std::endl;
}

}  // namespace

void add_serve(CLI::App &app) {
  auto a = std::make_shared<ServeArgs>();
  auto *c = app.add_subcommand("serve", "A local web explorer over the database: explore and ask in the browser (JSON endpoints too)");
  add_db_option(c, a->db);
  c->add_option("--host", a->host, "Address to listen on (default 127.0.0.1; anything else needs --token)");
  c->add_option("--port", a->port, "Port (0: any free port; the address is printed)");
  c->add_option("--token", a->token, "Require this token (Authorization: Bearer TOKEN, or ?token=TOKEN)");
  c->add_flag("--write", a->write, "Open the database read-write (the response cache is then written); read-only by default");
  c->add_option("--max-jobs", a->max_jobs, "Jobs running at once")->check(CLI::Range(1, 16));
  c->add_option("--concurrency", a->concurrency, "Model calls in flight per job")->check(CLI::Range(1, 64));
  c->add_option("--threads", a->threads, "Connections served at once (worker threads)")->check(CLI::Range(1, 1024));
  c->add_option("--read-seconds", a->read_seconds,
                 "A connection that has not sent a whole request (headers, and a POST's body) within this many seconds is closed")
      ->check(CLI::Range(0.5, 3600.0));
  c->add_option("--job-seconds", a->job_seconds, "A job still running after this many seconds is stopped (its result partial)")
      ->check(CLI::Range(1.0, 86400.0));
  c->add_option("--embedding-model", a->embedding_model, "Embedding model for ranking (default: the latest)");
  c->add_option("--corpus", a->corpora, "Documents (PubTator, BioC, ...) hypothesize reads its abstracts from; without, the database's papers")
      ->check(CLI::ExistingFile);
  add_chat_flags(c, a->m, "extractive summaries, no model");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli
