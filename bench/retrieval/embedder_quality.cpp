// How well an embedding model ranks a protein's neighbors: GraPPI's windows take the root's
// neighbors in order of embedding similarity, so a model is useful offline when the partners
// STRING is most confident about (score >= 0.9) come first. For every model stored in a
// database (or those named):
//   - mean normalized rank of the >= 0.9 partners among all of a protein's distinct neighbors
//     ((rank - 1) / (degree - 1): 0 = always first, 0.5 = a random order), over proteins with
//     at least 2 neighbors and at least one such partner;
//   - recall of the >= 0.9 partners in window 1 (the first k = 30 neighbors), over proteins with
//     more than 30 neighbors (with fewer, window 1 holds them all);
//   - the same two figures for a random order (expected values) as the baseline;
//   - a worked example: a protein's >= 0.9 partners with their cosine and rank;
//   - search: for every 10th protein with an annotation, the query is the annotation's first
//     clause (up to ';' or '.', at most 12 words) and the figures are the recall at 10 and the
//     mean reciprocal rank of that protein among all nodes (what `grappi search` needs: a
//     description finds its protein).
// Equal similarities are ordered by external id, as windows order them. --blend A B W also
// scores the blend W * cos_A + (1 - W) * cos_B of two stored models.
//
//   embedder_quality DB [--model NAME]... [--blend A B W]... [--example CDC28] [--k 30] [--min 0.9]
#include <algorithm>
#include <memory>
#include <tuple>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "grappi/grappi.hpp"

namespace {

// Similarity under one model, or a blend of two.
struct Scorer {
  std::string label;
  std::vector<std::shared_ptr<const grappi::VectorIndex>> vec;  // one or two
  std::vector<std::string> models;
  double w = 1.0;
  double cos(int64_t a, int64_t b) const {
    double s = 0;
    for (std::size_t i = 0; i < vec.size(); ++i) {
      const float *va = vec[i]->vector(a), *vb = vec[i]->vector(b);
      if (!va || !vb) return -std::numeric_limits<double>::infinity();
      s += (i == 0 ? w : 1.0 - w) * grappi::cosine(va, vb, vec[i]->dim());
    }
    return s;
  }
  // Every node's score for a query text.
  std::vector<std::pair<double, int64_t>> search(grappi::KnowledgeGraph &kg, const std::string &text) const {
    std::vector<std::pair<double, int64_t>> out;
    std::vector<std::vector<float>> q;
    for (const auto &m : models) {
      try {
        q.push_back(grappi::query_vector(kg, text, m));
      } catch (const grappi::Error &) {
        q.emplace_back();
      }
    }
    for (int64_t id : vec[0]->ids()) {
      double sc = 0;
      for (std::size_t i = 0; i < vec.size(); ++i)
        if (!q[i].empty()) sc += (i == 0 ? w : 1.0 - w) * vec[i]->score(q[i].data(), id);
      out.emplace_back(sc, id);
    }
    return out;
  }
};

// The annotation's first clause, at most 12 words.
std::string first_clause(const std::string &annotation) {
  std::string out;
  int words = 0;
  bool in_word = false;
  for (char c : annotation) {
    if (c == ';' || c == '.') break;
    const bool space = c == ' ';
    if (!space && !in_word && ++words > 12) break;
    in_word = !space;
    out += c;
  }
  return out;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: embedder_quality DB [--model NAME]... [--blend A B W]... [--example NAME] [--k 30] [--min 0.9]\n";
    return 2;
  }
  std::vector<std::string> models;
  std::vector<std::tuple<std::string, std::string, double>> blends;
  std::string example = "CDC28";
  std::size_t k = 30;
  double min_score = 0.9;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--model")) models.push_back(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--example")) example = argv[i + 1];
    else if (!std::strcmp(argv[i], "--k")) k = std::stoul(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--min")) min_score = std::stod(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--blend") && i + 3 < argc) {
      blends.emplace_back(argv[i + 1], argv[i + 2], std::stod(argv[i + 3]));
      i += 2;
    }
  }
  grappi::OpenOptions oo;
  oo.create = false;
  oo.read_only = true;
  grappi::KnowledgeGraph kg(argv[1], oo);
  if (models.empty() && blends.empty())
    for (const auto &m : kg.embedding_models()) models.push_back(m.name);
  std::vector<Scorer> scorers;
  for (const auto &m : models) scorers.push_back({m, {grappi::graph_vectors(kg, m)}, {m}, 1.0});
  for (const auto &[a, b, w] : blends) {
    char label[64];
    std::snprintf(label, sizeof label, " blend %.2f / %.2f", w, 1 - w);
    scorers.push_back({a + " +" + b + label, {grappi::graph_vectors(kg, a), grappi::graph_vectors(kg, b)}, {a, b}, w});
  }
  const auto snap = kg.snapshot();
  const std::size_t n = snap->node_count();
  // Distinct neighbors with their best score, per node.
  std::vector<std::vector<std::pair<uint32_t, float>>> nbrs(n);
  for (uint32_t u = 0; u < n; ++u) {
    const auto a = snap->adjacency(u);
    for (std::size_t i = 0; i < a.size; ++i) {
      if (a.neighbor[i] == u) continue;
      if (!nbrs[u].empty() && nbrs[u].back().first == a.neighbor[i]) nbrs[u].back().second = std::max(nbrs[u].back().second, a.score[i]);
      else nbrs[u].emplace_back(a.neighbor[i], a.score[i]);
    }
  }
  const float cut = static_cast<float>(min_score) - 1e-6f;
  std::printf("| model | proteins | partners >= %.2f | mean normalized rank | recall in window 1 (k = %zu) | search: recall@10 | search: MRR |\n",
              min_score, k);
  std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
  std::string examples;
  double random_recall_sum = 0;
  std::size_t random_wide = 0;
  for (const auto &sc : scorers) {
    double rank_sum = 0, recall_sum = 0;
    std::size_t partners = 0, proteins = 0, wide = 0;
    std::vector<std::pair<double, uint32_t>> order;
    auto strong_of = [&](uint32_t u, uint32_t v) {
      const auto &list = nbrs[u];
      const auto it = std::lower_bound(list.begin(), list.end(), std::make_pair(v, 0.0f),
                                       [](const auto &a, const auto &b) { return a.first < b.first; });
      return it->second >= cut;
    };
    for (uint32_t u = 0; u < n; ++u) {
      const auto &list = nbrs[u];
      if (list.size() < 2) continue;
      std::size_t strong = 0;
      for (const auto &x : list) strong += x.second >= cut;
      if (!strong || !sc.vec[0]->vector(snap->node_id(u))) continue;
      order.clear();
      for (const auto &x : list) order.emplace_back(sc.cos(snap->node_id(u), snap->node_id(x.first)), x.first);
      std::sort(order.begin(), order.end(), [&](const auto &a, const auto &b) {
        return a.first != b.first ? a.first > b.first : snap->external_id(a.second) < snap->external_id(b.second);
      });
      ++proteins;
      std::size_t in_window = 0;
      for (std::size_t r = 0; r < order.size(); ++r) {
        if (!strong_of(u, order[r].second)) continue;
        rank_sum += static_cast<double>(r) / static_cast<double>(order.size() - 1);
        ++partners;
        in_window += r < k;
      }
      if (list.size() > k) {
        ++wide;
        recall_sum += static_cast<double>(in_window) / static_cast<double>(strong);
        if (&sc == &scorers.front()) {
          random_recall_sum += static_cast<double>(k) / static_cast<double>(list.size());
          ++random_wide;
        }
      }
      if (snap->name(u) == example) {
        examples += "\n" + sc.label + ": " + example + " (" + std::to_string(list.size()) + " neighbors), partners >= " +
                    std::to_string(min_score).substr(0, 4) + ":";
        for (std::size_t r = 0; r < order.size(); ++r) {
          if (!strong_of(u, order[r].second)) continue;
          char buf[128];
          std::snprintf(buf, sizeof buf, " %s %.3f #%zu", snap->name(order[r].second).c_str(), order[r].first, r + 1);
          examples += buf;
        }
      }
    }
    // Search by description.
    std::size_t queries = 0, found = 0;
    double mrr = 0;
    for (uint32_t u = 0; u < n; u += 10) {
      const auto node = kg.node(snap->node_id(u));
      if (!node || node->annotation.empty()) continue;
      const std::string q = first_clause(node->annotation);
      if (q.size() < 8) continue;
      const auto hits = sc.search(kg, q);
      const double mine = [&] {
        for (const auto &h : hits)
          if (h.second == node->id) return h.first;
        return -1e9;
      }();
      std::size_t rank = 1;
      for (const auto &h : hits)
        if (h.first > mine || (h.first == mine && h.second < node->id)) ++rank;
      ++queries;
      found += rank <= 10;
      mrr += 1.0 / static_cast<double>(rank);
    }
    std::printf("| %s | %zu | %zu | %.3f | %.3f | %.3f | %.3f |\n", sc.label.c_str(), proteins, partners,
                partners ? rank_sum / static_cast<double>(partners) : 0.0, wide ? recall_sum / static_cast<double>(wide) : 0.0,
                queries ? static_cast<double>(found) / static_cast<double>(queries) : 0.0,
                queries ? mrr / static_cast<double>(queries) : 0.0);
  }
  std::printf("| random order | | | 0.500 | %.3f | | |\n", random_wide ? random_recall_sum / static_cast<double>(random_wide) : 0.0);
  std::printf("%s\n", examples.c_str());
  return 0;
}
