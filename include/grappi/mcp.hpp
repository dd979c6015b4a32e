// grappi as a Model Context Protocol server (docs/mcp.md): JSON-RPC 2.0 messages in, responses
// and notifications out, over one knowledge graph. The transports are the caller's: `grappi mcp`
// reads standard input and writes standard output (one message per line); `grappi serve` answers
// POST /mcp (streamable HTTP). The tools are the library's functions (resolve, neighbors, network,
// paths, enrich, cluster, explore, ask, hypothesize, search_papers, bel_validate, extract_text),
// each with an input JSON Schema and its output's schema (docs/schemas/); nothing writes the
// database but the response cache of a database opened for writing.
#pragma once

#include "grappi/export.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "grappi/knowledge_graph.hpp"
#include "grappi/llm.hpp"

namespace grappi {

/// What a server allows and how it describes its database.
struct McpOptions {
  std::string database;            ///< the database's path, shown in the grappi://database resource
  bool writable = false;           ///< the graph was opened for writing (the response cache is then written)
  std::string embedding_model;     ///< explore's and ask's ranking model (empty: the latest)
  double call_seconds = 300;       ///< a tool call still running after this many seconds is stopped
  std::size_t max_running = 4;     ///< tool calls running at once; one more is refused
  std::size_t concurrency = 8;     ///< model calls in flight per tool call
  std::size_t max_message_bytes = 1 << 20;  ///< a longer message is refused (JSON-RPC -32600)
  std::size_t max_result_bytes = 32 << 20;  ///< a tool result of more JSON is an error asking for less
  /// Lines for a log (standard error): cancellations, with how long the call took to stop.
  std::function<void(const std::string &line)> log;
};

/// Where a server's messages go: one JSON-RPC message as text (a response or a notification).
/// `last` is true with the response that ends a request, or with an empty text when a request
/// ends without one (a cancelled call: MCP sends no response to it). Called from the handling
/// thread or from a tool call's thread, never two at once for one request.
using McpSend = std::function<void(const std::string &message, bool last)>;

/// An MCP server (protocol revisions 2025-11-25 and 2025-06-18, negotiated at `initialize`):
/// tools, resources (the database's summary, the output schemas), progress notifications and
/// cancellation (`notifications/cancelled` stops a tool call through its RunControl). Thread-safe:
/// messages of several sessions (clients) may be handled at once. The graph and the model must
/// outlive it.
class GRAPPI_CXX_API McpServer {
 public:
  /// A server over `graph` whose agents ask `model` (an ExtractiveModel: offline); Error(invalid_argument)
  /// for a null model or max_running 0.
  McpServer(KnowledgeGraph &graph, std::shared_ptr<LanguageModel> model, McpOptions options = {});
  /// Cancels the tool calls still running and waits for them.
  ~McpServer();
  McpServer(const McpServer &) = delete;
  McpServer &operator=(const McpServer &) = delete;

  /// A new session (streamable HTTP's Mcp-Session-Id): 32 random hex digits. At most 256 are kept;
  /// the oldest idle one is dropped first.
  std::string open_session();
  /// Whether `session` is open.
  bool has_session(const std::string &session) const;
  /// Ends a session: its calls are cancelled.
  void close_session(const std::string &session);

  /// Handles one message of `session` (opened by open_session). Returns true when the message
  /// asks for an answer: the answer (or, for a cancelled call, the empty end) then goes to `send`
  /// with `last` set - at once for every method but `tools/call`, which runs on a thread of its
  /// own and sends its progress notifications first. Returns false for a notification or a
  /// response, which are answered by nothing. Malformed JSON, a batch, an unknown method or
  /// bad parameters get JSON-RPC errors; nothing throws.
  bool handle(std::string_view message, const std::string &session, const McpSend &send);

  /// Waits until no tool call runs (a transport that reached the end of its input).
  void wait();
  /// The result of `tools/list`: every tool with its input and output schema.
  std::string tools_json() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace grappi
