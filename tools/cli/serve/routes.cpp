// The endpoints of grappi serve and the guard every request passes first (serve.hpp).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>

#include "grappi/clustering.hpp"
#include "grappi/communities.hpp"
#include "serve.hpp"

namespace grappi::cli::serve {

bool loopback(const std::string &host) { return host == "127.0.0.1" || host == "localhost" || host == "::1"; }

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

/// Compares without stopping at the first difference.
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

void Server::routes(httplib::Server &svr) {
  guard_requests(svr);
  read_routes(svr);
  job_routes(svr);
}

void Server::guard_requests(httplib::Server &svr) {
  svr.set_payload_max_length(kMaxBody);
  svr.set_pre_routing_handler([this](const httplib::Request &req, httplib::Response &res) {
    if (req.method != "POST") request_read();  // (a POST's body is read after this)
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

void Server::read_routes(httplib::Server &svr) {
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

void Server::job_routes(httplib::Server &svr) {
  // Every POST handler starts once the body is read: the request is then whole (the
  // connection's read deadline stops; Workers).
  const auto post = [&svr](const char *pattern, httplib::Server::Handler handler) {
    svr.Post(pattern, [handler = std::move(handler)](const httplib::Request &req, httplib::Response &res) {
      request_read();
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

bool Server::same_origin(const std::string &origin) const {
  const std::string port = ":" + std::to_string(port_);
  for (const std::string &name : {std::string("127.0.0.1"), std::string("localhost"), std::string("[::1]"), a_.host})
    if (origin == "http://" + name + port) return true;
  return false;
}

bool Server::loopback_host(const std::string &host) const {
  const std::string port = ":" + std::to_string(port_);
  for (const char *name : {"127.0.0.1", "localhost", "[::1]"})
    if (host == std::string(name) + port) return true;
  return false;
}

void Server::mcp_post(const httplib::Request &req, httplib::Response &res) {
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

}  // namespace grappi::cli::serve
