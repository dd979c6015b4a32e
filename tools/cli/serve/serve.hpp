// grappi serve, the local web explorer (docs/explorer.md), in parts: serve_command.cpp (the
// command: its flags, listening, stopping), routes.cpp (the endpoints and the guard every request
// passes first), jobs.cpp (explore, ask and hypothesize run as jobs) and workers.cpp (the
// connections' workers). It holds no logic of its own: requests become options, jobs run the
// library's explore, ask and hypothesize, results are the library's report views and JSON.
#pragma once

#include <atomic>
#include <chrono>
#include <csignal>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>

#include <nlohmann/json.hpp>

#include "../common.hpp"
#include "grappi/mcp.hpp"

namespace grappi::cli::serve {

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
/// (workers.cpp; `set_port` names the port whose accepted sockets are found.)
class ConnectionPool : public httplib::TaskQueue {
 public:
  virtual void set_port(int port) = 0;
};
std::unique_ptr<ConnectionPool> make_workers(std::size_t threads, double read_seconds);
/// The request the calling worker serves has been read (its headers, and its body for a POST).
void request_read();

/// Set when the server is to stop (SIGINT, SIGTERM, or the end of listening).
extern volatile std::sig_atomic_t g_stop;

/// Whether an address is this machine's (127.0.0.1, localhost, ::1).
bool loopback(const std::string &host);

// What makes a request's framing ambiguous, or nullptr: several Content-Length headers, one that
// is not digits alone ("32, 5", "+32"), a header name that is no token (a blank before the colon).
const char *smuggling(const httplib::Request &req);

/// Compares without stopping at the first difference.
bool same_token(const std::string &a, const std::string &b);

void reply(httplib::Response &res, int status, const json &body);
void fail(httplib::Response &res, int status, const std::string &message);

/// A query parameter's list (commas or blanks between the items), at most `most` items and 100,000
/// bytes; Error(invalid_argument) naming it otherwise.
std::vector<std::string> list_param(const httplib::Request &req, const char *name, std::size_t most);
/// The proteins of an enrichment (at most 5,000 names); Error(invalid_argument) when none is given.
std::vector<std::string> proteins_param(const httplib::Request &req);
/// A number parameter within [lo, hi]; absent gives `fallback`; anything else is an Error naming it.
double number_param(const httplib::Request &req, const char *name, double fallback, double lo, double hi);

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
std::string text_field(const json &body, const char *name, bool required);
std::size_t count_field(const json &body, const char *name, std::size_t fallback, std::size_t lo, std::size_t hi);

/// The endpoints and jobs over one database: routes (routes.cpp) and jobs (jobs.cpp).
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

  void routes(httplib::Server &svr);

  /// What every request passes first (body size, headers, token, Host, Origin) and how errors are answered.
  void guard_requests(httplib::Server &svr);

  /// The GET endpoints answered at once: the page, the database, completion, neighbours, enrichment, clusters.
  void read_routes(httplib::Server &svr);

  /// MCP and the jobs: explore, ask and hypothesize started, watched, read and cancelled.
  void job_routes(httplib::Server &svr);

 private:
  static double elapsed(const Job &job);

  /// A job stops when cancelled or past --job-seconds (its error then says so).
  /// Any job's run control: cancel from the job (or its time limit), progress into its state.
  void watch(Job &job, RunControl &run) const;

  bool stop_requested(Job &job) const;

  std::shared_ptr<Job> find(const std::string &id);

  void start(const httplib::Request &req, httplib::Response &res, const std::string &kind);

  /// Drops the oldest finished jobs beyond kKeptJobs (their threads have ended).
  void forget_old();

  std::function<void(Job &)> explore_work(const json &body);

  std::function<void(Job &)> ask_work(const json &body);

  std::function<void(Job &)> hypothesize_work(const json &body);

  /// Whether an Origin header names this server: http://HOST:PORT with a loopback HOST (or the
  /// address it listens on).
  bool same_origin(const std::string &origin) const;

  /// Whether a Host header names a loopback address with this server's port.
  bool loopback_host(const std::string &host) const;

  /// POST /mcp: MCP's streamable HTTP transport. `initialize` opens a session (the Mcp-Session-Id
  /// header of its answer), every later message names it. A notification or a response gets 202;
  /// a request its answer as JSON, or, for a tool call from a client that accepts
  /// text/event-stream, as a stream of events: the call's progress notifications, then its answer
  /// (a cancelled call's stream ends without one).
  void mcp_post(const httplib::Request &req, httplib::Response &res);

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

}  // namespace grappi::cli::serve
