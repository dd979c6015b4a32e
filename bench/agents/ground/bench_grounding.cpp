// Relation grounding on PSI-MI: model calls and prompt tokens per grounding of every strategy,
// one term per request (the reference's behaviour) and listwise, on the BioInfer abstracts'
// interacting pairs; and the wall time grappi spends outside the model (traversal bookkeeping,
// prompt rendering, parsing, quote checks) per grounding.
//
// The model is the offline model's answers behind a callback, so that every request counts as
// a model call with the prompt tokens it would cost (characters / 4), and the time inside the
// model is measured apart.
//
//   bench_grounding DATA_DIR TESTS_DATA_DIR [--repeat 3]
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "grappi/grappi.hpp"

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: bench_grounding DATA_DIR TESTS_DATA_DIR [--repeat 3]\n";
    return 2;
  }
  const std::string data = argv[1], tests = argv[2];
  int repeat = 3;
  for (int i = 3; i + 1 < argc; i += 2)
    if (std::string(argv[i]) == "--repeat") repeat = std::atoi(argv[i + 1]);
  const std::string db = "/tmp/bench_grounding_" + std::to_string(::getpid()) + ".db";
  std::remove(db.c_str());
  grappi::KnowledgeGraph kg(db);
  kg.import({{data + "/ontology/psi-mi.obo"}});

  // The cases: each BioInfer abstract's first interacting pair, named as the sentence does.
  struct Case {
    std::string text, a, b;
  };
  std::vector<Case> cases;
  for (const auto &d : grappi::read_documents(tests + "/literature/BioInfer-test.first6.xml")) {
    if (d.pairs.empty()) continue;
    const auto &p = d.pairs[0];
    const auto &s = d.passages[p.passage];
    if (s.annotations[p.a].text == s.annotations[p.b].text) continue;
    cases.push_back({d.text(), s.annotations[p.a].text, s.annotations[p.b].text});
  }
  for (const char *f : {"BioInfer.d403.PMID11418599.txt", "BioInfer.d499.PMID10613909.txt"}) {
    const auto d = grappi::read_documents(tests + "/literature/" + f);
    cases.push_back({d[0].text(), f[10] == '4' && f[11] == '0' ? "TESK2" : "cofilin", f[10] == '4' && f[11] == '0' ? "cofilin" : "actin"});
  }

  grappi::ExtractiveModel offline;
  std::atomic<int64_t> model_ns{0};
  grappi::CallbackModel model(
      "bench-offline",
      [&](const grappi::ChatRequest &q) {
        const auto t0 = std::chrono::steady_clock::now();
        grappi::ChatResponse r = offline.chat(q);
        for (const auto &m : q.messages) r.prompt_tokens += grappi::estimate_tokens(m.content) + 4;
        r.completion_tokens = grappi::estimate_tokens(r.content);
        model_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
        return r;
      },
      false);

  std::printf("%zu groundings (BioInfer pairs) per row, %d repeats, PSI-MI MI:0190 (146 terms)\n\n", cases.size(), repeat);
  std::printf("| strategy | batch | terms scored | model calls | prompt tokens | traversal calls | outside the model (ms) |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  // Every strategy, and last every term scored (pagerank without the patience rule).
  std::vector<std::pair<grappi::GroundingStrategy, std::size_t>> rows;
  for (grappi::GroundingStrategy s : grappi::all_grounding_strategies()) rows.emplace_back(s, 10);
  rows.emplace_back(grappi::GroundingStrategy::pagerank, 0);
  for (const auto &[s, patience] : rows) {
    for (std::size_t batch : {std::size_t{1}, std::size_t{10}}) {
      if (s == grappi::GroundingStrategy::stuff && batch != 1) continue;  // one request whatever the batch
      grappi::GroundingOptions o;
      o.strategy = s;
      o.patience = patience;
      o.batch = batch;
      o.use_cache = false;
      const grappi::Grounder g(kg, model, o);
      double visits = 0, calls = 0, tokens = 0, tcalls = 0, outside_ms = 0;
      for (int r = 0; r < repeat; ++r)
        for (const Case &c : cases) {
          model_ns = 0;
          const auto t0 = std::chrono::steady_clock::now();
          const grappi::GroundingResult res = g.ground(c.text, c.a, c.b);
          const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
          outside_ms += wall - static_cast<double>(model_ns.load()) / 1e6;
          visits += static_cast<double>(res.visits.size());
          tcalls += static_cast<double>(res.traversal_usage.model_calls);
          calls += static_cast<double>(res.summary_usage.model_calls + res.traversal_usage.model_calls + res.pick_usage.model_calls);
          tokens += static_cast<double>(res.summary_usage.prompt_tokens + res.traversal_usage.prompt_tokens +
                                        res.pick_usage.prompt_tokens);
        }
      const double n = static_cast<double>(cases.size()) * repeat;
      std::printf("| %s%s | %zu | %.1f | %.1f | %.0f | %.1f | %.2f |\n", grappi::to_string(s),
                  patience ? "" : " (every term)", batch, visits / n, calls / n,
                  tokens / n, tcalls / n, outside_ms / n);
    }
  }
  std::remove(db.c_str());
  return 0;
}
