// Explore on the demo MAPT window: model calls and prompt tokens of grappi against the
// reference behaviour (one edge call per edge per path, counted), and wall time against a
// loopback OpenAI-compatible server that answers after a fixed delay, at several concurrencies.
//
//   bench_explore DATA_DIR [--delay-ms 100] [--concurrency 1,8,32|none] [--k 30,4] [--explain-top N]
//                 [--explain-budget 0] [--max-paths 20000]
//   (every candidate explained by default, for the comparison with the reference's calls: explore's own
//   defaults, a budget of 300 requests over 2000 candidates, are --explain-budget 300 --max-paths 2000)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "http_server.hpp"  // (tests/)
#include "grappi/grappi.hpp"

using nlohmann::json;

namespace {

// "1,8,32"; "none" for an empty list.
std::vector<std::size_t> list(const std::string &s) {
  std::vector<std::size_t> out;
  if (s == "none") return out;
  std::stringstream in(s);
  std::string part;
  while (std::getline(in, part, ',')) out.push_back(std::stoul(part));
  return out;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: bench_explore DATA_DIR [--delay-ms 100] [--concurrency 1,8,32] [--k 30,4] [--explain-top N] [--explain-budget 0] [--max-paths 20000]\n";
    return 2;
  }
  std::string data = argv[1];
  int delay_ms = 100;
  std::vector<std::size_t> conc = {1, 8, 32}, k = {30, 4};
  std::size_t explain_top = 0, explain_budget = 0, max_paths = 20000;  // (every candidate: the comparison below)
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string a = argv[i], v = argv[i + 1];
    if (a == "--delay-ms") delay_ms = std::stoi(v);
    else if (a == "--concurrency") conc = list(v);
    else if (a == "--k") k = list(v);
    else if (a == "--explain-top") explain_top = std::stoul(v);
    else if (a == "--explain-budget") explain_budget = std::stoul(v);
    else if (a == "--max-paths") max_paths = std::stoul(v);
  }
  char tmpl[] = "/tmp/grappi_bench_explore_XXXXXX";
  if (!mkdtemp(tmpl)) return 1;
  const std::string db = std::string(tmpl) + "/demo.db";
  grappi::KnowledgeGraph kg(db);
  kg.import_string({{data + "/9606.protein.info.v12.0.txt.gz", grappi::StringFormat::info},
                    {data + "/export_v12_alzheimer/string_interactions.tsv", grappi::StringFormat::web_export},
                    {data + "/export_v12_nsclc/string_interactions.tsv", grappi::StringFormat::web_export}});
  auto emb = grappi::hashing_embedder(kg);
  grappi::embed_graph(kg, *emb);

  testutil::HttpServer server([&](const testutil::HttpRequest &r) {
    auto body = json::parse(r.body);
    std::string p = body["messages"].back()["content"].get<std::string>();
    std::string content = p.find("Pathway (") != std::string::npos
                              ? R"({"explanation": "bench", "relevance_score": 50})"
                              : std::string("bench edge explanation of about twenty words, which is what a model writes here.");
    testutil::HttpReply rep;
    rep.delay_ms = delay_ms;
    rep.body = json{{"choices", json::array({{{"index", 0},
                                              {"message", {{"role", "assistant"}, {"content", content}}},
                                              {"finish_reason", "stop"}}})},
                    {"usage", {{"prompt_tokens", grappi::estimate_tokens(p)}, {"completion_tokens", 20}}}}
                   .dump();
    return rep;
  });

  grappi::ExploreOptions o;
  o.query = "inhibit tau phosphorylation";
  o.window.k = k;
  o.window.depth = 2;
  o.max_length = 4;
  o.explain_top = explain_top;
  o.explain_budget = explain_budget;
  o.max_paths = max_paths;
  o.use_cache = false;

  // Counts: a counting callback model sees exactly the requests grappi sends (prompt tokens
  // estimated as characters / 4, as for the dry run). The reference sends an edge request for
  // every edge of every path, so its totals are recomputed from the same per-edge prompts.
  std::mutex mu;
  std::map<std::pair<std::string, std::string>, int64_t> edge_tokens;
  int64_t path_tokens = 0;
  std::size_t path_calls = 0;
  auto counter = std::make_shared<grappi::CallbackModel>(
      "counter",
      [&](const grappi::ChatRequest &q) {
        int64_t n = 0;
        for (const auto &m : q.messages) n += grappi::estimate_tokens(m.content) + 4;
        std::lock_guard<std::mutex> lock(mu);
        if (q.task["kind"] == "edge") {
          std::string a = q.task["source"]["name"], b = q.task["target"]["name"];
          edge_tokens[{std::min(a, b), std::max(a, b)}] = n;
        } else {
          path_tokens += n;
          ++path_calls;
        }
        grappi::ExtractiveModel x;
        return x.chat(q);
      },
      false);
  grappi::AgentPipeline counting(kg, counter);
  auto all = o;
  all.top = 1000000000;
  auto everything = counting.explore("MAPT", all);
  int64_t grappi_tokens = path_tokens, ref_tokens = path_tokens;
  for (const auto &[key, n] : edge_tokens) grappi_tokens += n;
  std::size_t ref_calls = 0;
  for (const auto &p : everything.paths) {
    ref_calls += p.edges.size() + 1;
    for (std::size_t i = 0; i + 1 < p.nodes.size(); ++i) {
      std::string a = everything.protein(p.nodes[i])->name, b = everything.protein(p.nodes[i + 1])->name;
      ref_tokens += edge_tokens.at({std::min(a, b), std::max(a, b)});
    }
  }
  const std::size_t grappi_calls = edge_tokens.size() + path_calls;
  grappi::AgentPipeline extractive(kg, std::make_shared<grappi::ExtractiveModel>());
  auto base = extractive.explore("MAPT", o);
  std::printf("window k=%zu,%zu M=2 L=4: %zu proteins, %zu window edges, %zu candidate paths, %zu selected, %zu distinct edges\n",
              k[0], k.size() > 1 ? k[1] : k[0], base.windows[0].nodes.size(), base.windows[0].edges.size(),
              base.usage.candidate_paths, base.usage.selected_paths, base.usage.distinct_edges);
  std::printf("model calls: grappi %zu, reference %zu (ratio %.4f)\n", grappi_calls, ref_calls,
              static_cast<double>(grappi_calls) / static_cast<double>(ref_calls));
  std::printf("prompt tokens (chars/4): grappi %lld, reference %lld (ratio %.4f)\n", static_cast<long long>(grappi_tokens),
              static_cast<long long>(ref_tokens), static_cast<double>(grappi_tokens) / static_cast<double>(ref_tokens));
  std::printf("extractive model, whole run: %.3f s\n", base.usage.seconds);
  std::fflush(stdout);

  for (auto c : conc) {
    grappi::OpenAIChatOptions mo;
    mo.base_url = server.base_url();
    mo.model = "bench";
    mo.concurrency = c;
    auto model = std::make_shared<grappi::OpenAIChatModel>(mo);
    grappi::AgentPipeline pipe(kg, model);
    auto run = o;
    run.concurrency = c;
    auto t0 = std::chrono::steady_clock::now();
    auto r = pipe.explore("MAPT", run);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("delay %d ms, concurrency %zu: %zu calls in %.2f s (%.1f calls/s; edges %.2f s, paths %.2f s; failed %zu)\n",
                delay_ms, c, r.usage.model_calls, secs, static_cast<double>(r.usage.model_calls) / secs, r.usage.edges.seconds,
                r.usage.paths.seconds, r.usage.edges_failed + r.usage.paths_failed);
    std::fflush(stdout);
  }
  std::system((std::string("rm -rf ") + tmpl).c_str());
  return 0;
}
