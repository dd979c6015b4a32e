// The MCP server (grappi/mcp.hpp): JSON-RPC 2.0 framing, the protocol's lifecycle, sessions,
// tools/list and tools/call (a thread per call, its progress and cancellation through the call's
// RunControl), resources. The tools themselves are in mcp_tools.cpp.
#include "grappi/mcp.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <list>
#include <map>
#include <mutex>
#include <random>
#include <system_error>
#include <thread>

#include <nlohmann/json.hpp>

#include "grappi/error.hpp"
#include "grappi/store_json.hpp"
#include "grappi/version.h"
#include "service/mcp_tools.hpp"

namespace grappi {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// The protocol revisions spoken, newest first: a client asking for another gets the newest.
const char *const kVersions[] = {"2025-11-25", "2025-06-18"};
constexpr std::size_t kMaxSessions = 256;
constexpr std::size_t kMaxInlineJson = 50000;  // a result's JSON repeated in its text content up to this size
// JSON-RPC 2.0's error codes, and MCP's for an unknown resource.
constexpr int kParseError = -32700, kInvalidRequest = -32600, kMethodNotFound = -32601, kInvalidParams = -32602,
              kServerError = -32000, kResourceNotFound = -32002;

std::string dump(const json &j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string error_message(const json &id, int code, const std::string &message) {
  return dump({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}
std::string result_message(const json &id, json result) {
  return dump({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string fixed(double x, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

/// A tool call in flight.
struct Call {
  std::string session, id_text, tool;
  std::atomic<bool> cancel{false}, timed_out{false};
  Clock::time_point started = Clock::now();
  std::mutex mu;  // guards what follows
  Clock::time_point cancelled_at;
  Clock::time_point last_progress;
  std::string last_stage;
  std::size_t progress = 0;
};

}  // namespace

struct McpServer::Impl {
  Impl(KnowledgeGraph &g, std::shared_ptr<LanguageModel> m, McpOptions o)
      : graph(g), model(std::move(m)), options(std::move(o)), rng(std::random_device{}()) {}

  KnowledgeGraph &graph;
  std::shared_ptr<LanguageModel> model;
  const McpOptions options;

  struct Session {
    std::string version;  // negotiated at initialize (empty: not yet)
    Clock::time_point used = Clock::now();
  };
  mutable std::mutex mu;  // guards what follows
  std::condition_variable idle;
  std::mt19937_64 rng;
  std::map<std::string, Session> sessions;
  std::map<std::pair<std::string, std::string>, std::shared_ptr<Call>> calls;  // (session, id as JSON)
  std::size_t active = 0;  // calls started whose last message is not yet sent
  struct Worker {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };
  std::list<Worker> workers;
  json tools_list;  // tools/list's result, made once

  void log(const std::string &line) const {
    if (options.log) options.log(line);
  }

  // ---- requests answered at once -------------------------------------------------------------

  json initialize(const json &params, const std::string &session) {
    std::string asked = params.is_object() && params.contains("protocolVersion") && params["protocolVersion"].is_string()
                            ? params["protocolVersion"].get<std::string>()
                            : "";
    if (asked.empty()) throw Error(ErrorCode::invalid_argument, "initialize: 'protocolVersion' (a string) is required");
    std::string version = kVersions[0];
    for (const char *v : kVersions)
      if (asked == v) version = v;
    {
      std::lock_guard<std::mutex> lock(mu);
      sessions[session].version = version;
    }
    return {{"protocolVersion", version},
            {"capabilities", {{"tools", {{"listChanged", false}}}, {"resources", {{"subscribe", false}, {"listChanged", false}}}}},
            {"serverInfo", {{"name", "grappi"}, {"title", "grappi knowledge graph"}, {"version", GRAPPI_VERSION_STRING}}},
            {"instructions",
             "grappi answers from one local knowledge base (" + std::string(options.writable ? "read-write" : "read-only") +
                 "): protein interactions (STRING, IntAct), ontologies, BEL and papers. Resolve unclear names with `resolve`; "
                 "every result names nodes by their stable external_id. " +
                 (model->kind() == "extractive"
                      ? "No language model runs on the server: explanations and answers are extractive or rule-based and say so."
                      : "The server's language model is " + model->identity() + ".")}};
  }

  json resources() const {
    json list = json::array();
    list.push_back({{"uri", "grappi://database"},
                    {"name", "database"},
                    {"title", "The database's summary"},
                    {"description", "Counts of nodes and edges by label and relation, and every imported dataset with its provenance"},
                    {"mimeType", "application/json"}});
    for (const std::string &f : detail::mcp::schema_files())
      list.push_back({{"uri", "grappi://schemas/" + f},
                      {"name", f},
                      {"title", "JSON Schema " + f},
                      {"description", "The JSON Schema (draft 2020-12) of one of grappi's outputs"},
                      {"mimeType", "application/schema+json"}});
    return {{"resources", list}};
  }

  json read_resource(const json &params) const {
    if (!params.is_object() || !params.contains("uri") || !params["uri"].is_string())
      throw Error(ErrorCode::invalid_argument, "resources/read: 'uri' (a string) is required");
    const std::string uri = params["uri"];
    if (uri == "grappi://database") {
      json j = to_json(graph.stats());
      j["database"] = options.database;
      j["writable"] = options.writable;
      j["model"] = model->identity();
      return {{"contents", {{{"uri", uri}, {"mimeType", "application/json"}, {"text", dump(j)}}}}};
    }
    const std::string prefix = "grappi://schemas/";
    if (uri.rfind(prefix, 0) == 0) {
      const std::string_view text = detail::mcp::schema_text(uri.substr(prefix.size()));
      if (!text.empty()) return {{"contents", {{{"uri", uri}, {"mimeType", "application/schema+json"}, {"text", std::string(text)}}}}};
    }
    throw Error(ErrorCode::not_found, "no resource " + uri.substr(0, 200) + " (resources/list names them)");
  }

  // ---- tool calls ------------------------------------------------------------------------------

  /// Starts a tool call on a thread of its own (its answer sent from there), or sends the error
  /// that keeps it from starting.
  void call_tool(const json &id, const json &params, const std::string &session, const McpSend &send) {
    if (!params.is_object() || !params.contains("name") || !params["name"].is_string())
      return send(error_message(id, kInvalidParams, "tools/call: 'name' (a string) is required"), true);
    const std::string name = params["name"];
    const detail::mcp::Tool *tool = detail::mcp::find_tool(name);
    if (!tool) return send(error_message(id, kInvalidParams, "unknown tool '" + name.substr(0, 80) + "' (tools/list names them)"), true);
    const json arguments = params.value("arguments", json::object());
    json token;
    if (params.contains("_meta") && params["_meta"].is_object() && params["_meta"].contains("progressToken")) {
      token = params["_meta"]["progressToken"];
      if (!token.is_string() && !token.is_number_integer())
        return send(error_message(id, kInvalidParams, "tools/call: _meta.progressToken must be a string or an integer"), true);
    }
    auto call = std::make_shared<Call>();
    call->session = session;
    call->id_text = dump(id);
    call->tool = name;
    auto done = std::make_shared<std::atomic<bool>>(false);
    {
      std::lock_guard<std::mutex> lock(mu);
      reap();
      if (calls.count({session, call->id_text}))
        return send(error_message(id, kInvalidRequest, "a call with id " + call->id_text + " is still running in this session"), true);
      if (active >= options.max_running)
        return send(error_message(id, kServerError, "already running " + std::to_string(active) +
                                                         " tool calls (the server's limit); try again when one has ended"),
                    true);
      calls[{session, call->id_text}] = call;
      ++active;
      try {
        workers.push_back({std::thread([this, id, arguments, token, tool, call, send, done] {
                             run(*tool, id, arguments, token, call, send);
                             {
                               std::lock_guard<std::mutex> held(mu);
                               --active;
                             }
                             idle.notify_all();
                             *done = true;
                           }),
                           done});
      } catch (const std::system_error &e) {
        calls.erase({session, call->id_text});
        --active;
        return send(error_message(id, kServerError, std::string("cannot start a thread for the call: ") + e.what()), true);
      }
    }
  }

  void run(const detail::mcp::Tool &tool, const json &id, const json &arguments, const json &token,
           const std::shared_ptr<Call> &call, const McpSend &send) {
    detail::mcp::Context context{graph, model, options, {}};
    context.run.use_cache = options.writable;
    context.run.cancel = [this, call] {
      if (call->cancel) return true;
      if (seconds_since(call->started) <= options.call_seconds) return false;
      call->timed_out = true;
      call->cancel = true;
      return true;
    };
    if (!token.is_null())
      context.run.progress = [call, token, send](const std::string &stage, std::size_t done, std::size_t total) {
        std::lock_guard<std::mutex> lock(call->mu);
        const Clock::time_point now = Clock::now();
        if (stage == call->last_stage && now - call->last_progress < std::chrono::milliseconds(250) && done < total) return;
        call->last_stage = stage;
        call->last_progress = now;
        json p = {{"progressToken", token}, {"progress", ++call->progress}, {"message", stage + " " + std::to_string(done) + "/" + std::to_string(total)}};
        send(dump({{"jsonrpc", "2.0"}, {"method", "notifications/progress"}, {"params", p}}), false);
      };
    json result;
    try {
      const detail::mcp::Args args(arguments, tool.params, tool.name);
      detail::mcp::Output out = tool.run(args, context);
      if (call->cancel && !call->timed_out) throw Error(ErrorCode::budget, "cancelled");
      std::string text = out.summary;
      const std::string whole = dump(out.structured);
      if (whole.size() > options.max_result_bytes)
        throw Error(ErrorCode::invalid_argument,
                    tool.name + ": the result is " + std::to_string(whole.size() >> 20) + " MiB of JSON, more than the server's limit of " +
                        std::to_string(options.max_result_bytes >> 20) + " MiB: ask for less (fewer windows, a smaller k or depth, fewer paths)");
      text += whole.size() <= kMaxInlineJson ? "\n\n" + whole
                                             : "\n\n(the whole result, " + std::to_string(whole.size()) + " bytes of JSON, is the structured content)";
      if (call->timed_out) text = "stopped at the time limit of " + fixed(options.call_seconds, 0) + " s (partial result): " + text;
      result = {{"content", {{{"type", "text"}, {"text", text}}}}, {"structuredContent", std::move(out.structured)}, {"isError", false}};
    } catch (const std::bad_alloc &) {
      result = {{"content", {{{"type", "text"}, {"text", tool.name + ": out of memory"}}}}, {"isError", true}};
    } catch (const std::exception &e) {
      std::string message = e.what();
      if (call->timed_out) message = "stopped at the time limit of " + fixed(options.call_seconds, 0) + " s: " + message;
      result = {{"content", {{{"type", "text"}, {"text", message}}}}, {"isError", true}};
    }
    if (call->cancel && !call->timed_out) {
      // (MCP: no response to a cancelled request)
      double after = 0;
      {
        std::lock_guard<std::mutex> lock(call->mu);
        after = seconds_since(call->cancelled_at);
      }
      log("call " + call->id_text + " (" + tool.name + ") cancelled; stopped " + fixed(after, 3) + " s after the notification");
      finish(call);
      send("", true);
      return;
    }
    finish(call);  // (before the answer: the client may reuse the id once it has it)
    send(result_message(id, std::move(result)), true);
  }

  /// The call has ended: its id is free again and it can no longer be cancelled.
  void finish(const std::shared_ptr<Call> &call) {
    std::lock_guard<std::mutex> lock(mu);
    const auto it = calls.find({call->session, call->id_text});
    if (it != calls.end() && it->second == call) calls.erase(it);
  }

  /// Joins the workers that have ended (under mu).
  void reap() {
    for (auto it = workers.begin(); it != workers.end();) {
      if (*it->done) {
        if (it->thread.joinable()) it->thread.join();
        it = workers.erase(it);
      } else {
        ++it;
      }
    }
  }

  void cancel(const json &params, const std::string &session) {
    if (!params.is_object() || !params.contains("requestId")) return;
    const json &rid = params["requestId"];
    if (!rid.is_string() && !rid.is_number_integer()) return;
    std::lock_guard<std::mutex> lock(mu);
    const auto it = calls.find({session, dump(rid)});
    if (it == calls.end()) return;  // (ended already, or never known: ignored, as MCP says)
    {
      std::lock_guard<std::mutex> call_lock(it->second->mu);
      it->second->cancelled_at = Clock::now();
    }
    it->second->cancel = true;
  }

  // ---- one message -----------------------------------------------------------------------------

  bool request(const json &msg, const std::string &session, const McpSend &send) {
    const json &id = msg["id"];
    const std::string method = msg["method"];
    const json params = msg.value("params", json::object());
    if (!params.is_object()) {
      send(error_message(id, kInvalidParams, "'params' must be an object"), true);
      return true;
    }
    try {
      if (method == "initialize") {
        send(result_message(id, initialize(params, session)), true);
        return true;
      }
      if (method == "ping") {
        send(result_message(id, json::object()), true);
        return true;
      }
      bool ready = false;
      {
        std::lock_guard<std::mutex> lock(mu);
        const auto it = sessions.find(session);
        if (it != sessions.end()) {
          ready = !it->second.version.empty();
          it->second.used = Clock::now();
        }
      }
      if (!ready) {
        send(error_message(id, kInvalidRequest, "the session is not initialized: send 'initialize' first"), true);
        return true;
      }
      if (method == "tools/list") {
        send(result_message(id, tools_list), true);
      } else if (method == "tools/call") {
        call_tool(id, params, session, send);
      } else if (method == "resources/list") {
        send(result_message(id, resources()), true);
      } else if (method == "resources/templates/list") {
        send(result_message(id, {{"resourceTemplates", json::array()}}), true);
      } else if (method == "resources/read") {
        send(result_message(id, read_resource(params)), true);
      } else {
        send(error_message(id, kMethodNotFound, "unknown method '" + method.substr(0, 80) + "'"), true);
      }
    } catch (const Error &e) {
      send(error_message(id, e.code() == ErrorCode::not_found ? kResourceNotFound : kInvalidParams, e.what()), true);
    } catch (const std::exception &e) {
      send(error_message(id, kServerError, e.what()), true);
    }
    return true;
  }

  bool handle(std::string_view text, const std::string &session, const McpSend &send) {
    if (text.size() > options.max_message_bytes) {
      send(error_message(nullptr, kInvalidRequest, "the message is longer than " + std::to_string(options.max_message_bytes) + " bytes"), true);
      return true;
    }
    json msg;
    try {
      msg = json::parse(text);
    } catch (const json::exception &e) {
      send(error_message(nullptr, kParseError, std::string("not JSON: ") + e.what()), true);
      return true;
    }
    if (msg.is_array()) {
      send(error_message(nullptr, kInvalidRequest, "batches are not supported (MCP 2025-06-18 removed them): send one message at a time"), true);
      return true;
    }
    if (!msg.is_object() || msg.value("jsonrpc", json()) != "2.0") {
      send(error_message(nullptr, kInvalidRequest, "not a JSON-RPC 2.0 message (an object with \"jsonrpc\": \"2.0\")"), true);
      return true;
    }
    const bool has_id = msg.contains("id");
    if (has_id && !msg["id"].is_string() && !msg["id"].is_number_integer()) {
      send(error_message(nullptr, kInvalidRequest, "'id' must be a string or an integer"), true);
      return true;
    }
    if (!msg.contains("method")) {
      if (msg.contains("result") || msg.contains("error")) return false;  // (a response: this server asks nothing)
      send(error_message(has_id ? msg["id"] : json(), kInvalidRequest, "a message needs 'method' (or 'result' / 'error')"), true);
      return true;
    }
    if (!msg["method"].is_string()) {
      send(error_message(has_id ? msg["id"] : json(), kInvalidRequest, "'method' must be a string"), true);
      return true;
    }
    {
      std::lock_guard<std::mutex> lock(mu);
      if (!sessions.count(session)) {
        if (!has_id) return false;
        send(error_message(msg["id"], kInvalidRequest, "unknown session"), true);
        return true;
      }
    }
    if (!has_id) {  // a notification
      if (msg["method"] == "notifications/cancelled") cancel(msg.value("params", json::object()), session);
      return false;
    }
    return request(msg, session, send);
  }
};

McpServer::McpServer(KnowledgeGraph &graph, std::shared_ptr<LanguageModel> model, McpOptions options)
    : impl_(std::make_unique<Impl>(graph, std::move(model), std::move(options))) {
  if (!impl_->model) throw Error(ErrorCode::invalid_argument, "McpServer: a language model is required (the offline default: an ExtractiveModel)");
  if (impl_->options.max_running == 0) throw Error(ErrorCode::invalid_argument, "McpServer: max_running must be at least 1");
  json list = json::array();
  for (const detail::mcp::Tool &t : detail::mcp::tools()) list.push_back(detail::mcp::describe(t));
  impl_->tools_list = {{"tools", list}};
}

McpServer::~McpServer() {
  std::unique_lock<std::mutex> lock(impl_->mu);
  for (auto &[key, call] : impl_->calls) call->cancel = true;
  std::list<Impl::Worker> workers = std::move(impl_->workers);
  lock.unlock();
  for (auto &w : workers)
    if (w.thread.joinable()) w.thread.join();
}

std::string McpServer::open_session() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  char id[33];
  std::snprintf(id, sizeof id, "%016llx%016llx", static_cast<unsigned long long>(impl_->rng()), static_cast<unsigned long long>(impl_->rng()));
  if (impl_->sessions.size() >= kMaxSessions) {
    // the session used longest ago with no call running
    auto oldest = impl_->sessions.end();
    for (auto it = impl_->sessions.begin(); it != impl_->sessions.end(); ++it) {
      const bool busy = std::any_of(impl_->calls.begin(), impl_->calls.end(), [&](const auto &c) { return c.first.first == it->first; });
      if (!busy && (oldest == impl_->sessions.end() || it->second.used < oldest->second.used)) oldest = it;
    }
    if (oldest == impl_->sessions.end()) throw Error(ErrorCode::budget, "mcp: " + std::to_string(kMaxSessions) + " sessions are busy");
    impl_->sessions.erase(oldest);
  }
  impl_->sessions[id] = {};
  return id;
}

bool McpServer::has_session(const std::string &session) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->sessions.count(session) > 0;
}

void McpServer::close_session(const std::string &session) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->sessions.erase(session);
  for (auto &[key, call] : impl_->calls)
    if (key.first == session) call->cancel = true;
}

bool McpServer::handle(std::string_view message, const std::string &session, const McpSend &send) {
  try {
    return impl_->handle(message, session, send);
  } catch (const std::exception &e) {  // (a bug: the client still gets an answer)
    send(error_message(nullptr, kServerError, std::string("internal error: ") + e.what()), true);
    return true;
  }
}

void McpServer::wait() {
  std::unique_lock<std::mutex> lock(impl_->mu);
  impl_->idle.wait(lock, [this] { return impl_->active == 0; });
  impl_->reap();
}

std::string McpServer::tools_json() const { return dump(impl_->tools_list); }

}  // namespace grappi
