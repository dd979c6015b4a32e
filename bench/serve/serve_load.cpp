// Concurrent clients against `grappi serve`, each sending requests back to back on one keep-alive
// connection, with latency percentiles (a C++ client: Python threads share one interpreter lock, which on a
// small machine becomes the bottleneck it measures).
//
//   serve_load URL CLIENTS SECONDS neighbors PROTEINS_FILE     (GET /api/neighbors?protein=NAME&limit=10)
//   serve_load URL CLIENTS SECONDS ask QUESTIONS_JSONL         (POST /api/ask, poll every 5 ms, GET result)
//
// Prints one JSON line: requests, errors, per second, p50/p95/p99/max in milliseconds.
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using Clock = std::chrono::steady_clock;

bool neighbors_round(httplib::Client &c, const std::string &protein) {
  const auto r = c.Get("/api/neighbors?protein=" + httplib::detail::encode_query_param(protein) + "&limit=10");
  return r && r->status == 200;
}

bool ask_round(httplib::Client &c, const std::string &question) {
  auto r = c.Post("/api/ask", nlohmann::json{{"question", question}}.dump(), "application/json");
  if (!r || (r->status != 202 && r->status != 200)) return false;
  const std::string job = nlohmann::json::parse(r->body).value("job", "");
  for (;;) {
    r = c.Get("/api/jobs/" + job);
    if (!r || r->status != 200) return false;
    if (nlohmann::json::parse(r->body).value("state", "") != "running") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r = c.Get("/api/jobs/" + job + "/result");
  return r && r->status == 200;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 6) {
    std::cerr << "usage: serve_load URL CLIENTS SECONDS neighbors|ask FILE\n";
    return 2;
  }
  const std::string url = argv[1], kind = argv[4];
  const std::size_t clients = std::stoul(argv[2]);
  const double seconds = std::stod(argv[3]);
  std::vector<std::string> items;
  {
    std::ifstream in(argv[5]);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) items.push_back(kind == "ask" ? nlohmann::json::parse(line).value("question", "") : line);
  }
  if (items.empty() || clients == 0 || (kind != "neighbors" && kind != "ask")) {
    std::cerr << "serve_load: nothing to send\n";
    return 2;
  }
  std::vector<double> latencies;
  std::atomic<std::size_t> errors{0};
  std::mutex mu;
  const auto stop = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  const auto t0 = Clock::now();
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < clients; ++k)
    threads.emplace_back([&, k] {
      httplib::Client c(url);
      c.set_keep_alive(true);
      c.set_read_timeout(120, 0);
      std::vector<double> mine;
      std::size_t bad = 0;
      for (std::size_t i = k; Clock::now() < stop; i += clients) {
        const auto a = Clock::now();
        const bool ok = kind == "ask" ? ask_round(c, items[i % items.size()]) : neighbors_round(c, items[i % items.size()]);
        mine.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
        bad += !ok;
      }
      std::lock_guard<std::mutex> lock(mu);
      latencies.insert(latencies.end(), mine.begin(), mine.end());
      errors += bad;
    });
  for (auto &t : threads) t.join();
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  std::sort(latencies.begin(), latencies.end());
  const auto at = [&](double p) {
    if (latencies.empty()) return 0.0;
    const auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(latencies.size())));
    return latencies[std::min(latencies.size(), std::max<std::size_t>(k, 1)) - 1];
  };
  const auto r1 = [](double v) { return std::round(v * 10) / 10; };
  std::cout << nlohmann::json{{"kind", kind},
                              {"clients", clients},
                              {"seconds", r1(wall)},
                              {"requests", latencies.size()},
                              {"errors", errors.load()},
                              {"per_second", r1(static_cast<double>(latencies.size()) / wall)},
                              {"p50_ms", r1(at(0.5))},
                              {"p95_ms", r1(at(0.95))},
                              {"p99_ms", r1(at(0.99))},
                              {"max_ms", r1(latencies.empty() ? 0 : latencies.back())}}
                   .dump()
            << "\n";
  return 0;
}
