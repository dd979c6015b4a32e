// grappi embed-parts plan|part|merge: `grappi embed` split over processes or machines
// (grappi/embed_parts.hpp, docs/distributed.md "Embeddings"): the embedder written once, each
// part of the pending texts embedded by a worker, the parts' vectors stored as embed stores its own.
#include <iostream>
#include <memory>

#include "common.hpp"

namespace grappi::cli {

namespace {

struct EmbedPartsArgs {
  std::string db, embedder = "lsa", base_url = HttpEmbedderOptions{}.base_url, model, api_key_env = "OPENAI_API_KEY";
  std::string embedder_file, out;
  std::vector<std::string> parts_in;
  std::size_t dimension = 0, batch = 0, part = 0, parts = 1;
  bool no_ranking = false;
};

void run_embed_plan(const EmbedPartsArgs &a) {
  if (a.embedder == "openai" && a.model.empty()) throw Error(ErrorCode::invalid_argument, "embed-parts plan: --embedder openai needs --model");
  KnowledgeGraph g = open_graph(a.db, Access::read);
  EmbedderSpec spec;
  spec.kind = a.embedder;
  spec.dimension = a.dimension;
  spec.http.base_url = a.base_url;
  spec.http.model = a.model;
  spec.http.api_key_env = a.api_key_env;
  const auto embedder = grappi::make_embedder(g, spec);
  save_embedder(*embedder, a.embedder_file);
  std::cout << "model " << embedder->model() << ": " << embed_pending(g, embedder->model())
            << " text(s) to embed; embedder written to " << a.embedder_file << "\n";
}

void run_embed_part(const EmbedPartsArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::read);
  const auto embedder = load_embedder(a.embedder_file);
  EmbedOptions eo;
  eo.batch_size = a.batch ? a.batch : (embedder->kind() == "openai" ? 128 : 256);
  const EmbedPartReport r = embed_part(g, *embedder, a.part, a.parts, a.out, "", eo);
  std::cout << "part " << r.part << " of " << r.parts << ": " << r.embedded << " of " << r.pending << " pending text(s) embedded ("
            << r.model << ", dimension " << r.dimension << ") in " << fmt(r.seconds, 2) << " s -> " << r.path << "\n";
}

void run_embed_merge(const EmbedPartsArgs &a) {
  KnowledgeGraph g = open_graph(a.db, Access::write, 256);
  const auto embedder = load_embedder(a.embedder_file);
  EmbedOptions eo;
  eo.neighbor_ranking = !a.no_ranking;
  const EmbedPartsReport r = embed_from_parts(g, *embedder, a.parts_in, eo);
  std::cout << "model " << r.embed.model << " (dimension " << r.embed.dimension << "): embedded " << r.embed.embedded << " ("
            << r.from_parts << " from " << a.parts_in.size() << " part file(s), " << r.embedded_here << " here), unchanged "
            << r.embed.unchanged << ", removed " << r.embed.removed << "\n";
  if (r.embed.neighbor_ranking_entries)
    std::cout << "neighbor ranking: " << r.embed.neighbor_ranking_entries << " entries -> " << grappi::neighbor_ranking_path(g) << '\n';
  if (!r.embed.warning.empty()) std::cerr << "grappi: warning: " << r.embed.warning << '\n';
}

}  // namespace

void add_embed_parts(CLI::App &app) {
  auto *c = app.add_subcommand("embed-parts", "grappi embed split over processes or machines (docs/distributed.md)");
  c->require_subcommand(1);
  auto a = std::make_shared<EmbedPartsArgs>();
  auto *p = c->add_subcommand("plan", "Make the embedder as embed does and write it to a file for the parts");
  add_db_option(p, a->db);
  p->add_option("--embedder", a->embedder, "lsa, hashing or openai (as grappi embed)")->check(CLI::IsMember({"hashing", "lsa", "openai"}));
  p->add_option("--base-url", a->base_url, "OpenAI-compatible base URL (POST {base}/embeddings)");
  p->add_option("--model", a->model, "Model name for --embedder openai");
  p->add_option("--api-key-env", a->api_key_env, "Environment variable holding the API key (each worker needs it)");
  p->add_option("--dim", a->dimension, "Dimension, as grappi embed takes it");
  p->add_option("--embedder-file", a->embedder_file, "The embedder's file")->required();
  p->callback([a] { run_embed_plan(*a); });
  auto b = std::make_shared<EmbedPartsArgs>();
  auto *q = c->add_subcommand("part", "Embed one part of the pending texts into a vectors file (the database is only read)");
  add_db_option(q, b->db);
  q->add_option("--embedder-file", b->embedder_file, "The file embed-parts plan wrote")->required();
  q->add_option("--part", b->part, "This part, from 0")->required();
  q->add_option("--parts", b->parts, "How many parts")->required()->check(CLI::PositiveNumber);
  q->add_option("--batch", b->batch, "Texts per batch (0 = 256 built-in, 128 openai)");
  q->add_option("--out", b->out, "The vectors file")->required();
  q->callback([b] { run_embed_part(*b); });
  auto m = std::make_shared<EmbedPartsArgs>();
  auto *r = c->add_subcommand("merge", "Store the parts' vectors as grappi embed stores its own");
  add_db_option(r, m->db);
  r->add_option("--embedder-file", m->embedder_file, "The file embed-parts plan wrote")->required();
  r->add_option("vectors", m->parts_in, "The parts' vectors files")->required();
  r->add_flag("--no-neighbor-ranking", m->no_ranking, "Do not rank every node's neighbors by similarity afterwards");
  r->callback([m] { run_embed_merge(*m); });
}

}  // namespace grappi::cli
