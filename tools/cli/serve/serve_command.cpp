// grappi serve: the command - its flags, listening and stopping (serve.hpp).
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <iostream>

#include "serve.hpp"

namespace grappi::cli {

namespace serve {

volatile std::sig_atomic_t g_stop = 0;

namespace {

extern "C" void on_signal(int) { g_stop = 1; }

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
  std::unique_ptr<ConnectionPool> workers = make_workers(a.threads, a.read_seconds);
  ConnectionPool *pool = workers.get();  // (owned by svr once it listens)
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

}  // namespace serve

void add_serve(CLI::App &app) {
  auto a = std::make_shared<serve::ServeArgs>();
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
  c->callback([a] { serve::run(*a); });
}

}  // namespace grappi::cli
