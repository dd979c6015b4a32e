// grappi mcp: the Model Context Protocol server (grappi/mcp.hpp) over standard input and output,
// one JSON-RPC message per line (MCP's stdio transport); what it logs goes to standard error.
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>

#include "common.hpp"
#include "grappi/mcp.hpp"

namespace grappi::cli {

namespace {

struct McpArgs {
  std::string db, embedding_model;
  ChatArgs m;
  bool write = false;
  std::size_t max_running = 4, concurrency = 8;
  double call_seconds = 300;
};

constexpr std::size_t kMaxLine = 1 << 20;  // a message, in bytes

/// The next line of `in` without its end, at most kMaxLine + 1 bytes of it (the rest of a longer
/// line is read and dropped); false at the end of the input.
bool next_line(std::FILE *in, std::string &line) {
  line.clear();
  char buf[65536];
  bool any = false;
  while (std::fgets(buf, sizeof buf, in)) {
    any = true;
    std::string_view part(buf);
    const bool end = !part.empty() && part.back() == '\n';
    if (end) part.remove_suffix(1);
    if (line.size() <= kMaxLine) line.append(part.substr(0, kMaxLine + 1 - line.size()));
    if (end) break;
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return any;
}

void run(const McpArgs &a) {
  auto model = chat_model_of(a.m, a.concurrency, "mcp");
  KnowledgeGraph g = open_graph(a.db, a.write ? Access::write : Access::read);
  std::mutex out_mu;
  McpOptions o;
  o.database = a.db;
  o.writable = a.write;
  o.embedding_model = a.embedding_model;
  o.call_seconds = a.call_seconds;
  o.max_running = a.max_running;
  o.concurrency = a.concurrency;
  o.max_message_bytes = kMaxLine;
  o.log = [&out_mu](const std::string &line) {
    std::lock_guard<std::mutex> lock(out_mu);
    std::cerr << "grappi mcp: " << line << std::endl;
  };
  const McpSend send = [&out_mu](const std::string &message, bool) {
    if (message.empty()) return;
    std::lock_guard<std::mutex> lock(out_mu);
    std::fwrite(message.data(), 1, message.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  };
  McpServer server(g, model, o);
  const std::string session = server.open_session();
  std::cerr << "grappi mcp: " << a.db << (a.write ? " (read-write)" : " (read-only)") << ", model " << model->identity()
            << "; JSON-RPC on standard input and output" << std::endl;
  std::string line;
  while (next_line(stdin, line)) {
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    server.handle(line, session, send);
  }
  server.wait();  // (the calls the input asked for are answered before the end)
}

}  // namespace

void add_mcp(CLI::App &app) {
  auto a = std::make_shared<McpArgs>();
  auto *c = app.add_subcommand("mcp", "A Model Context Protocol server over standard input and output: the database's tools for language-model clients (docs/mcp.md)");
  add_db_option(c, a->db);
  c->add_flag("--write", a->write, "Open the database read-write (the response cache is then written); read-only by default");
  c->add_option("--max-running", a->max_running, "Tool calls running at once (one more is refused)")->check(CLI::Range(1, 64));
  c->add_option("--call-seconds", a->call_seconds, "A tool call still running after this many seconds is stopped")
      ->check(CLI::Range(1.0, 86400.0));
  c->add_option("--concurrency", a->concurrency, "Model calls in flight per tool call")->check(CLI::Range(1, 64));
  c->add_option("--embedding-model", a->embedding_model, "Embedding model for ranking (default: the latest)");
  add_chat_flags(c, a->m, "extractive explanations and answers, no model");
  c->callback([a] { run(*a); });
}

}  // namespace grappi::cli
