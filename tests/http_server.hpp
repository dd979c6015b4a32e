// A minimal HTTP/1.1 server on 127.0.0.1 for tests: one request per connection, answered by a
// scripted handler (which can delay, or close the connection without answering).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace testutil {

struct HttpRequest {
  std::string method, path, body;
  std::map<std::string, std::string> headers;  // lower-case names
};

struct HttpReply {
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  bool close_without_reply = false;
  int delay_ms = 0;
};

/// A reply of `status` with a JSON body.
inline HttpReply reply(int status, std::string body) {
  HttpReply r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

class HttpServer {
 public:
  using Handler = std::function<HttpReply(const HttpRequest &)>;
  explicit HttpServer(Handler h) : handler_(std::move(h)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    ::bind(fd_, reinterpret_cast<sockaddr *>(&a), sizeof a);
    ::listen(fd_, 64);
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr *>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { loop(); });
  }
  ~HttpServer() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
    while (active_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  int requests() const { return requests_; }

 private:
  void loop() {
    while (!stop_) {
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) {
        if (stop_) return;
        continue;
      }
      ++active_;
      std::thread([this, c] {
        serve(c);
        --active_;
      }).detach();
    }
  }
  void serve(int c) {
    std::string data;
    char buf[65536];
    std::size_t header_end = std::string::npos;
    while ((header_end = data.find("\r\n\r\n")) == std::string::npos) {
      ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) {
        ::close(c);
        return;
      }
      data.append(buf, static_cast<std::size_t>(n));
    }
    HttpRequest req;
    std::string head = data.substr(0, header_end);
    std::size_t line_end = head.find("\r\n");
    std::string first = head.substr(0, line_end);
    req.method = first.substr(0, first.find(' '));
    req.path = first.substr(first.find(' ') + 1);
    req.path = req.path.substr(0, req.path.find(' '));
    std::size_t p = line_end + 2;
    while (p < head.size()) {
      std::size_t e = head.find("\r\n", p);
      if (e == std::string::npos) e = head.size();
      std::string line = head.substr(p, e - p);
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        std::string k = line.substr(0, colon), v = line.substr(colon + 1);
        for (auto &ch : k) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        while (!v.empty() && v.front() == ' ') v.erase(0, 1);
        req.headers[k] = v;
      }
      p = e + 2;
    }
    std::size_t want = req.headers.count("content-length") ? std::stoul(req.headers["content-length"]) : 0;
    req.body = data.substr(header_end + 4);
    while (req.body.size() < want) {
      ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) break;
      req.body.append(buf, static_cast<std::size_t>(n));
    }
    ++requests_;
    HttpReply r = handler_(req);
    if (r.delay_ms) std::this_thread::sleep_for(std::chrono::milliseconds(r.delay_ms));
    if (!r.close_without_reply) {
      std::string out = "HTTP/1.1 " + std::to_string(r.status) + " X\r\nContent-Type: application/json\r\nConnection: close\r\n";
      for (auto &h : r.headers) out += h.first + ": " + h.second + "\r\n";
      out += "Content-Length: " + std::to_string(r.body.size()) + "\r\n\r\n" + r.body;
      std::size_t sent = 0;
      while (sent < out.size()) {
        ssize_t n = ::send(c, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) break;
        sent += static_cast<std::size_t>(n);
      }
    }
    ::close(c);
  }
  Handler handler_;
  int fd_ = -1, port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::atomic<int> active_{0};
  std::thread thread_;
};

}  // namespace testutil
