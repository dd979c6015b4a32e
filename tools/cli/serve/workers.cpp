// The connections' workers of grappi serve (serve.hpp).
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <system_error>

#include "serve.hpp"

namespace grappi::cli::serve {

namespace {

class Workers : public ConnectionPool {
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
  void set_port(int port) override { port_ = port; }
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

}  // namespace

std::unique_ptr<ConnectionPool> make_workers(std::size_t threads, double read_seconds) {
  return std::make_unique<Workers>(threads, read_seconds);
}

void request_read() { Workers::request_read(); }

}  // namespace grappi::cli::serve
