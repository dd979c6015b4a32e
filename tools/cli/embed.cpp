// grappi embed and search: node embeddings and similarity search.
#include <iostream>
#include <memory>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct EmbedArgs {
  std::string db, embedder = "hashing", base_url = HttpEmbedderOptions{}.base_url, model, api_key_env = "OPENAI_API_KEY";
  std::size_t dimension = 0, batch = 0;
  bool refit = false, no_ranking = false;
};

void run_embed(const EmbedArgs &a) {
  if (a.embedder == "openai" && a.model.empty()) throw Error(ErrorCode::invalid_argument, "embed: --embedder openai needs --model");
  KnowledgeGraph g = open_graph(a.db, false, 256);
  EmbedderSpec spec;
  spec.kind = a.embedder;
  spec.dimension = a.dimension;
  spec.refit = a.refit;
  spec.http.base_url = a.base_url;
  spec.http.model = a.model;
  spec.http.api_key_env = a.api_key_env;
  auto embedder = g.make_embedder(spec);
  EmbedOptions eo;
  eo.batch_size = a.batch ? a.batch : (a.embedder == "hashing" ? 256 : 128);
  eo.neighbor_ranking = !a.no_ranking;
  ProgressBar bar;
  eo.progress = [&bar](std::size_t done, std::size_t total) { bar("embedding", done, total); };
  const EmbedReport r = g.embed(*embedder, eo);
  std::cout << "model " << r.model << " (dimension " << r.dimension << "): embedded " << r.embedded << ", unchanged "
            << r.unchanged << ", removed " << r.removed << " in " << fmt(r.seconds, 2) << " s\n";
  if (r.neighbor_ranking_entries)
    std::cout << "neighbor ranking: " << r.neighbor_ranking_entries << " entries in " << fmt(r.neighbor_ranking_seconds, 2)
              << " s -> " << g.neighbor_ranking_path() << '\n';
  if (!r.warning.empty()) std::cerr << "grappi: warning: " << r.warning << '\n';
}

struct SearchArgs {
  std::string db, text, model;
  std::size_t k = 10;
  bool json = false, hnsw = false;
};

void run_search(const SearchArgs &a) {
  KnowledgeGraph g = open_graph(a.db, false);
  const auto q = g.query_vector(a.text, a.model);
  const auto vec = g.vectors(a.model, a.hnsw);
  const auto hits = a.hnsw ? vec->search_hnsw(q.data(), a.k) : vec->search(q.data(), a.k);
  const auto snap = g.snapshot();
  if (a.json) {
    std::cout << to_json(*snap, hits).dump(2) << '\n';
    return;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto &h : hits) {
    const auto n = g.node(h.id);
    rows.push_back({n->name, n->external_id, fmt(h.score), n->annotation});
  }
  print_table({"name", "external_id", "similarity", "annotation"}, rows);
}

}  // namespace

void add_embed(CLI::App &app) {
  auto a = std::make_shared<EmbedArgs>();
  auto *c = app.add_subcommand("embed", "Embed every node's name and annotation (only new or changed texts)");
  add_db_option(c, a->db);
  c->add_option("--embedder", a->embedder, "hashing (built-in, offline) or openai (OpenAI-compatible HTTP)")
      ->check(CLI::IsMember({"hashing", "openai"}));
  c->add_option("--base-url", a->base_url, "OpenAI-compatible base URL (POST {base}/embeddings)");
  c->add_option("--model", a->model, "Model name for --embedder openai");
  c->add_option("--api-key-env", a->api_key_env, "Environment variable holding the API key");
  c->add_option("--dim", a->dimension, "Dimension; 0 = the embedder's default (hashing 384, openai the model's)");
  c->add_option("--batch", a->batch, "Texts per request (0 = 256 hashing, 128 openai)");
  c->add_flag("--refit", a->refit, "Hashing: learn the weights again from the current annotations");
  c->add_flag("--no-neighbor-ranking", a->no_ranking,
              "Do not rank every node's neighbors by similarity afterwards (<db>.knn, used by windows)");
  c->callback([a] { run_embed(*a); });
}

void add_search(CLI::App &app) {
  auto a = std::make_shared<SearchArgs>();
  auto *c = app.add_subcommand("search", "Nodes most similar to a text");
  add_db_option(c, a->db);
  c->add_option("text", a->text, "Query text")->required();
  c->add_option("--k", a->k, "Number of results");
  c->add_option("--model", a->model, "Embedding model (default: the latest)");
  c->add_flag("--hnsw", a->hnsw, "Approximate search with the HNSW graph (built and stored on first use)");
  c->add_flag("--json", a->json, "JSON output");
  c->callback([a] { run_search(*a); });
}

}  // namespace grappi::cli
