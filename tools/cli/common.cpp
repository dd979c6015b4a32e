#include "common.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace grappi::cli {

void add_db_option(CLI::App *cmd, std::string &db, bool create) {
  cmd->add_option("--db", db, create ? "Database file (created when missing)" : "Database file")->required();
}

void add_chat_flags(CLI::App *c, ChatArgs &a, const std::string &offline) {
  auto &chat = a.chat;
  c->add_option("--llm", a.llm, "extractive (offline default: " + offline + ") or openai (OpenAI-compatible HTTP)")
      ->check(CLI::IsMember({"extractive", "openai"}));
  c->add_option("--base-url", chat.base_url, "OpenAI-compatible base URL (POST {base}/chat/completions)");
  c->add_option("--model", a.model, "Chat model name (required with --llm openai)");
  c->add_option("--api-key-env", chat.api_key_env, "Environment variable holding the API key (never logged)");
  c->add_option("--temperature", chat.temperature, "Sampling temperature");
  c->add_option("--seed", chat.seed, "Sampling seed sent to the server");
  c->add_option("--timeout", chat.timeout_seconds, "Seconds per request")->check(CLI::Range(0.001, 86400.0));
  c->add_option("--retries", chat.max_retries, "Retries on timeouts, 408, 409, 429, 5xx (Retry-After honoured up to 60 s; a refused connection: once, at once)")
      ->check(CLI::Range(0, 100));
  c->add_flag("--no-json-mode", a.no_json_mode, "Do not send response_format json_object");
}

void add_output_flags(CLI::App *c, std::string &json, bool &quiet, const std::string &what) {
  c->add_option("--json", json, "Write " + what + " as JSON to FILE ('-' for standard output)");
  c->add_flag("--quiet", quiet, "No summary on standard output");
}

void add_budget_flags(CLI::App *c, BudgetArgs &a, std::size_t &max_calls, int64_t *max_tokens, const std::string &per,
                      bool with_yes, bool with_cache) {
  c->add_option("--max-calls", max_calls, "Model-call budget " + per + " (0: none; a spent budget stops the run, its result marked partial)");
  if (max_tokens) c->add_option("--max-tokens", *max_tokens, "Prompt + completion token budget " + per + " (0: none)");
  if (with_yes)
    c->add_flag("--yes", a.yes,
                "Allow every model call the run could need (without it or --max-calls, a run that could take more than " +
                    std::to_string(kCallsWithoutAsking) + " model calls is refused)");
  if (with_cache) c->add_flag("--no-cache", a.no_cache, "Neither read nor write the response cache");
}

std::shared_ptr<LanguageModel> chat_model_of(const ChatArgs &a, std::size_t concurrency, const std::string &command) {
  if (a.llm == "openai" && a.model.empty())
    throw Error(ErrorCode::invalid_argument, command + ": --llm openai needs --model NAME");
  ChatModelSpec spec;
  spec.kind = a.llm;
  spec.openai = a.chat;
  spec.openai.model = a.model;
  spec.openai.json_mode = !a.no_json_mode;
  spec.openai.concurrency = concurrency;
  return make_chat_model(spec);
}

void check_numbers(CLI::App &app) {
  static const CLI::Validator non_negative(
      [](std::string &v) -> std::string {
        const auto start = v.find_first_not_of(" \t");
        return start != std::string::npos && v[start] == '-' ? "a count, not negative: " + v : std::string();
      },
      "", "non-negative");
  static const CLI::Validator finite(
      [](std::string &v) -> std::string {
        char *end = nullptr;
        const double x = std::strtod(v.c_str(), &end);
        return end != v.c_str() && !std::isfinite(x) ? "a finite number, not " + v : std::string();
      },
      "", "finite");
  for (CLI::App *sub : app.get_subcommands({})) {
    for (CLI::Option *opt : sub->get_options()) {
      const std::string type = opt->get_type_name();
      if (type.rfind("UINT", 0) == 0) opt->check(non_negative);
      if (type.rfind("FLOAT", 0) == 0) opt->check(finite);
    }
    check_numbers(*sub);
  }
}

NewDatabase::NewDatabase(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  existed_ = std::filesystem::exists(path_, ec) || ec;  // (when in doubt, never remove)
}

NewDatabase::~NewDatabase() {
  if (existed_ || keep_) return;
  std::error_code ec;
  for (const char *suffix : {"", "-wal", "-shm", "-journal", ".csr"}) std::filesystem::remove(path_ + suffix, ec);
}

KnowledgeGraph open_graph(const std::string &db, Access access, int cache_mib) {
  OpenOptions o;
  o.create = access == Access::create;
  o.read_only = access == Access::read;
  o.cache_mib = cache_mib;
  // A database of an older schema is upgraded by its first read-write opening; a reading
  // command does that once rather than refuse it.
  o.upgrade = true;
  return KnowledgeGraph(db, o);
}

double score_arg(double v, const char *flag) {
  std::ostringstream shown;
  shown << v;
  if (!(v >= 0 && v <= 1000))
    throw Error(ErrorCode::invalid_argument, std::string(flag) + " " + shown.str() + ": scores are 0-1 (or 0-1000 on STRING's scale)");
  if (v <= 1) return v;
  if (v != std::floor(v))
    throw Error(ErrorCode::invalid_argument, std::string(flag) + " " + shown.str() +
                                                 ": a value above 1 is read on STRING's 0-1000 scale and must be a whole "
                                                 "number (700 = 0.7); give 0-1 or a whole number up to 1000");
  return v / 1000.0;
}

std::vector<std::size_t> parse_k(const std::string &spec, const char *flag) {
  std::vector<std::size_t> k;
  std::stringstream in(spec);
  std::string part;
  const auto bad = [&] {
    return Error(ErrorCode::invalid_argument, std::string(flag) + ": '" + spec + "' is not a list of positive integers like 30,4");
  };
  while (std::getline(in, part, ',')) {
    try {
      std::size_t used = 0;
      const long long v = std::stoll(part, &used);
      if (used != part.size() || v <= 0) throw bad();
      k.push_back(static_cast<std::size_t>(v));
    } catch (const Error &) {
      throw;
    } catch (const std::exception &) {
      throw bad();
    }
  }
  if (k.empty()) throw bad();
  return k;
}

std::vector<std::size_t> parse_windows(const std::string &spec, const char *flag) {
  std::vector<std::size_t> out;
  std::stringstream in(spec);
  std::string part;
  const auto bad = [&] {
    return Error(ErrorCode::invalid_argument,
                 std::string(flag) + ": '" + spec + "' is not like 1-3 or 1,2,5 (windows are numbered from 1)");
  };
  while (std::getline(in, part, ',')) {
    const auto dash = part.find('-');
    try {
      std::size_t used = 0;
      if (dash == std::string::npos) {
        const long long v = std::stoll(part, &used);
        if (v <= 0 || used != part.size()) throw bad();
        out.push_back(static_cast<std::size_t>(v));
      } else {
        const long long a = std::stoll(part.substr(0, dash)), b = std::stoll(part.substr(dash + 1));
        if (a <= 0 || b < a || b - a > 1000) throw bad();
        for (long long v = a; v <= b; ++v) out.push_back(static_cast<std::size_t>(v));
      }
    } catch (const Error &) {
      throw;
    } catch (const std::exception &) {
      throw bad();
    }
  }
  if (out.empty()) throw bad();
  return out;
}

std::string fmt(double v, int prec) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(prec) << v;
  return o.str();
}

void print_table(const std::vector<std::string> &head, const std::vector<std::vector<std::string>> &rows) {
  std::vector<std::size_t> w(head.size());
  for (std::size_t i = 0; i < head.size(); ++i) w[i] = head[i].size();
  for (const auto &r : rows)
    for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], std::min<std::size_t>(r[i].size(), 60));
  const auto line = [&](const std::vector<std::string> &r) {
    for (std::size_t i = 0; i < r.size(); ++i) {
      std::string cell = r[i];
      if (cell.size() > 60) {
        std::size_t cut = 57;  // (on a character boundary)
        while (cut > 0 && (static_cast<unsigned char>(cell[cut]) & 0xC0) == 0x80) --cut;
        cell = cell.substr(0, cut) + "...";
      }
      // A name holding terminal escape sequences is shown, not obeyed.
      for (char &ch : cell)
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = '?';
      std::cout << std::left << std::setw(static_cast<int>(w[i])) << cell << (i + 1 < r.size() ? "  " : "");
    }
    std::cout << '\n';
  };
  line(head);
  for (const auto &r : rows) line(r);
}

void write_output(const std::string &path, const std::string &text) {
  if (path == "-") {
    std::cout << text;  // (main checks that standard output was written)
    return;
  }
  write_file(path, text);  // (whole or not at all: grappi/files.hpp)
}

ProgressBar::ProgressBar() : enabled_(isatty(STDERR_FILENO) != 0) {}

void ProgressBar::operator()(const std::string &stage, uint64_t done, uint64_t total, const std::string &detail) {
  if (!enabled_ || total == 0) return;
  const int pct = static_cast<int>(100.0 * static_cast<double>(std::min(done, total)) / static_cast<double>(total));
  if (pct == last_pct_ && stage == last_stage_ && detail == last_detail_) return;
  last_pct_ = pct;
  last_stage_ = stage;
  last_detail_ = detail;
  const int width = 30, filled = pct * width / 100;
  std::fprintf(stderr, "\r%-9s [%s%s] %3d%% %s", stage.c_str(), std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(width - filled), ' ').c_str(), pct, detail.c_str());
  if (done >= total) std::fputc('\n', stderr);
  std::fflush(stderr);
}

void require_some_answer(const ExploreResult &r, const LanguageModel &model, const std::string &what) {
  const ExploreUsage &u = r.usage;
  if (model.local() || u.paths_explained + u.edges_explained != 0 || u.paths_failed + u.edges_failed == 0) return;
  std::string why;
  for (const ExplainedEdge &e : r.edges)
    if (why.empty() && e.status == "failed") why = e.error;
  for (const ExplainedPath &p : r.failed)
    if (why.empty() && p.status == "failed") why = p.error;
  throw Error(ErrorCode::llm, what + "every model request failed (" + std::to_string(u.paths_failed + u.edges_failed) +
                                  " paths and edges; the first: " + (why.empty() ? "no reason given" : why) + ")");
}

void add_list_items(std::vector<std::string> &out, const std::string &text) {
  std::string cur;
  for (char c : text + "\n") {
    if (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
}

}  // namespace grappi::cli
