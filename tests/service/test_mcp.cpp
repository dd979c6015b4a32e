// The MCP server (grappi/mcp.hpp) message by message on a small network: the lifecycle and version
// negotiation, tools/list's schemas, tool calls by name with their structured content, arguments
// refused by name, JSON-RPC's errors for broken messages, resources, and sessions used from
// several threads at once (the suite "threads": ThreadSanitizer runs it).
#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "grappi/grappi.hpp"
#include "test_util.hpp"

using nlohmann::json;
using testutil::TempDir;
using testutil::write_file;

namespace {

void build_mcp_graph(grappi::KnowledgeGraph &kg, TempDir &d) {
  std::string info = "#string_protein_id\tpreferred_name\tprotein_size\tannotation\n";
  for (const char *n : {"MAPT", "GSK3B", "CDK5", "APP", "LONE"}) info += std::string("9606.") + n + "P\t" + n + "\t1\tprotein " + n + "\n";
  write_file(d.file("info.txt"), info);
  write_file(d.file("links.txt"),
             "protein1 protein2 combined_score\n9606.MAPTP 9606.GSK3BP 990\n9606.GSK3BP 9606.MAPTP 990\n"
             "9606.MAPTP 9606.CDK5P 700\n9606.CDK5P 9606.MAPTP 700\n9606.CDK5P 9606.APPP 500\n9606.APPP 9606.CDK5P 500\n");
  kg.import({{d.file("info.txt"), "info"}});
  kg.import({{d.file("links.txt"), "links"}});
}

/// A client of one session: every message sent, the answers collected.
struct Client {
  grappi::McpServer &server;
  std::string session;
  std::mutex mu;
  std::condition_variable cv;
  std::vector<json> got;
  bool ended = false;

  Client(grappi::McpServer &s) : server(s), session(s.open_session()) {}
  /// The answer to `message` (null for a notification), its notifications before it in `notes`.
  json send(const std::string &message, std::vector<json> *notes = nullptr) {
    {
      std::lock_guard<std::mutex> lock(mu);
      got.clear();
      ended = false;
    }
    const bool answer = server.handle(message, session, [this](const std::string &m, bool last) {
      std::lock_guard<std::mutex> lock(mu);
      if (!m.empty()) got.push_back(json::parse(m));
      ended = ended || last;
      cv.notify_all();
    });
    if (!answer) return nullptr;
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [this] { return ended; });
    if (got.empty()) return nullptr;
    if (notes) notes->assign(got.begin(), got.end() - 1);
    return got.back();
  }
  json request(int id, const std::string &method, const json &params = json::object()) {
    return send(json({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}).dump());
  }
  json call(int id, const std::string &tool, const json &arguments) {
    return request(id, "tools/call", {{"name", tool}, {"arguments", arguments}});
  }
  void initialize(const std::string &version = "2025-06-18") {
    const json r = request(0, "initialize", {{"protocolVersion", version}, {"capabilities", json::object()}, {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
    REQUIRE(r.contains("result"));
  }
};

}  // namespace

TEST_CASE("mcp: the lifecycle and tools / calls by name / refused arguments and broken messages") {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("m.db"));
  build_mcp_graph(kg, d);
  grappi::McpServer server(kg, std::make_shared<grappi::ExtractiveModel>());
  Client c(server);

  // Nothing but initialize and ping before initialize.
  CHECK(c.request(1, "tools/list")["error"]["code"] == -32600);
  CHECK(c.request(2, "ping")["result"] == json::object());
  const json init = c.request(3, "initialize", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()}});
  CHECK(init["result"]["protocolVersion"] == "2025-06-18");
  CHECK(init["result"]["serverInfo"]["name"] == "grappi");
  CHECK(init["result"]["capabilities"].contains("tools"));
  // A version the server does not speak: its newest.
  CHECK(c.request(4, "initialize", {{"protocolVersion", "2024-01-01"}})["result"]["protocolVersion"] == "2025-11-25");
  CHECK(c.send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").is_null());

  const json tools = c.request(5, "tools/list")["result"]["tools"];
  REQUIRE(tools.size() == 12);
  for (const json &t : tools) {
    CHECK(t["inputSchema"]["type"] == "object");
    CHECK(t["outputSchema"]["type"] == "object");
    CHECK_FALSE(t["outputSchema"].contains("$schema"));
    CHECK(t["annotations"]["readOnlyHint"] == true);
  }

  // Neighbors by name, strongest first, nodes by external id.
  const json n = c.call(6, "neighbors", {{"protein", "mapt"}});
  REQUIRE(n["result"]["isError"] == false);
  const json &list = n["result"]["structuredContent"]["neighbors"];
  REQUIRE(list.size() == 2);
  CHECK(list[0]["name"] == "GSK3B");
  CHECK(list[0]["external_id"] == "9606.GSK3BP");
  CHECK(list[1]["name"] == "CDK5");
  CHECK(n["result"]["content"][0]["text"].get<std::string>().rfind("MAPT (9606.MAPTP): 2 neighbors", 0) == 0);
  // The network of a set: its edges at the threshold, a name that does not resolve said so.
  const json net = c.call(7, "network", {{"proteins", {"MAPT", "GSK3B", "CDK5", "NOPE"}}, {"min_score", 0.6}});
  CHECK(net["result"]["structuredContent"]["edges"].size() == 2);
  CHECK(net["result"]["structuredContent"]["unresolved"][0]["name"] == "NOPE");
  const json paths = c.call(8, "paths", {{"from", "MAPT"}, {"to", "APP"}});
  CHECK(paths["result"]["structuredContent"]["paths"][0]["proteins"] == json({"MAPT", "CDK5", "APP"}));
  const json r = c.call(9, "resolve", {{"name", "9606.LONEP"}});
  CHECK(r["result"]["structuredContent"]["status"] == "found");
  CHECK(r["result"]["structuredContent"]["external_id"] == "9606.LONEP");

  // Arguments refused by name, as tool errors.
  const auto refused = [&](const std::string &tool, const json &args, const std::string &says) {
    const json e = c.call(10, tool, args);
    CAPTURE(e.dump());
    CHECK(e["result"]["isError"] == true);
    CHECK(e["result"]["content"][0]["text"].get<std::string>().find(says) != std::string::npos);
  };
  refused("neighbors", json::object(), "'protein' is required");
  refused("neighbors", {{"protein", "MAPT"}, {"limit", 2.5}}, "'limit' (given 2.5) must be a whole number");
  refused("neighbors", {{"protein", "MAPT"}, {"min_score", 7}}, "'min_score' (given 7) must be from 0 to 1");
  refused("neighbors", {{"protein", "MAPT"}, {"colour", "red"}}, "unknown argument 'colour'");
  refused("neighbors", {{"protein", "NO_SUCH"}}, "NO_SUCH");
  refused("network", {{"proteins", {1, 2}}}, "must hold strings");
  refused("explore", {{"protein", "MAPT"}, {"query", "x"}, {"windows", json::array()}}, "at least one item");
  refused("cluster", {{"method", "louvain"}}, "must be one of mcl, leiden, cpm");
  refused("bel_validate", json::object(), "give 'statement'");
  CHECK(c.call(11, "no_such_tool", json::object())["error"]["code"] == -32602);
  CHECK(c.request(12, "tools/call", {{"arguments", json::object()}})["error"]["code"] == -32602);

  // Broken messages: JSON-RPC errors with a null id, never an exception.
  CHECK(c.send("{oops")["error"]["code"] == -32700);
  CHECK(c.send("[]")["error"]["code"] == -32600);
  CHECK(c.send(R"({"jsonrpc":"2.0","id":true,"method":"ping"})")["error"]["code"] == -32600);
  CHECK(c.send(R"({"jsonrpc":"2.0","id":1,"method":7})")["error"]["code"] == -32600);
  CHECK(c.send(R"({"id":1,"method":"ping"})")["error"]["code"] == -32600);
  CHECK(c.send(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":[1]})")["error"]["code"] == -32602);
  CHECK(c.send(std::string(2 << 20, ' '))["error"]["code"] == -32600);
  CHECK(c.request(13, "prompts/list")["error"]["code"] == -32601);
  CHECK(c.send(R"({"jsonrpc":"2.0","id":5,"result":{}})").is_null());  // (a response: nothing)
  CHECK(c.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999}})").is_null());

  // Resources: the database's summary and the schemas.
  const json res = c.request(14, "resources/list")["result"]["resources"];
  CHECK(res[0]["uri"] == "grappi://database");
  CHECK(res.size() > 20);
  const json summary = json::parse(c.request(15, "resources/read", {{"uri", "grappi://database"}})["result"]["contents"][0]["text"].get<std::string>());
  CHECK(summary["nodes"] == 5);
  const json schema = c.request(16, "resources/read", {{"uri", "grappi://schemas/neighbors.schema.json"}});
  CHECK(json::parse(schema["result"]["contents"][0]["text"].get<std::string>())["title"] == "neighbors");
  CHECK(c.request(17, "resources/read", {{"uri", "grappi://schemas/../x"}})["error"]["code"] == -32002);

  // An unknown session: refused; a closed one too.
  CHECK_FALSE(server.has_session("nope"));
  server.close_session(c.session);
  CHECK(c.request(18, "ping")["error"]["code"] == -32600);
}

TEST_CASE("mcp: sessions called from several threads at once" * doctest::test_suite("threads")) {
  TempDir d;
  grappi::KnowledgeGraph kg(d.file("m.db"));
  build_mcp_graph(kg, d);
  grappi::McpOptions o;
  o.max_running = 64;
  grappi::McpServer server(kg, std::make_shared<grappi::ExtractiveModel>(), o);
  std::atomic<int> right{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&server, &right, t] {
      Client c(server);
      c.initialize();
      for (int i = 0; i < 10; ++i) {
        const json n = c.call(100 + i, t % 2 ? "neighbors" : "resolve", t % 2 ? json({{"protein", "CDK5"}}) : json({{"name", "GSK3B"}}));
        if (n["id"] == 100 + i && n["result"]["isError"] == false) ++right;
      }
    });
  for (auto &t : threads) t.join();
  server.wait();
  CHECK(right == 40);
}
