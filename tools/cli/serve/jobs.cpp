// The jobs of grappi serve: explore, ask and hypothesize runs, watched and cancelled (serve.hpp).
#include <algorithm>
#include <iostream>

#include "serve.hpp"

namespace grappi::cli::serve {

double Server::elapsed(const Job &job) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - job.started).count();
}

void Server::watch(Job &job, RunControl &run) const {
  run.cancel = [this, &job] { return stop_requested(job); };
  run.progress = [&job](const std::string &stage, std::size_t done, std::size_t total) {
    std::lock_guard<std::mutex> lock(job.mu);
    job.stage = stage;
    job.done = done;
    job.total = total;
  };
}

bool Server::stop_requested(Job &job) const {
  if (job.cancel) return true;
  if (elapsed(job) <= a_.job_seconds) return false;
  job.timed_out = true;
  job.cancel = true;
  return true;
}

std::shared_ptr<Job> Server::find(const std::string &id) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = jobs_.find(id);
  return it == jobs_.end() ? nullptr : it->second;
}

void Server::start(const httplib::Request &req, httplib::Response &res, const std::string &kind) {
  json body;
  try {
    body = json::parse(req.body);
  } catch (const json::exception &) {
    return fail(res, 400, "the request body is not JSON");
  }
  if (!body.is_object()) return fail(res, 400, "the request body is not a JSON object");
  // The request is validated before a job is made.
  std::function<void(Job &)> work =
      kind == "explore" ? explore_work(body) : kind == "ask" ? ask_work(body) : hypothesize_work(body);
  auto job = std::make_shared<Job>();
  job->kind = kind;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::size_t running = 0;
    for (const auto &[id, j] : jobs_) {
      std::lock_guard<std::mutex> job_lock(j->mu);
      running += j->state == "running";
    }
    if (running >= a_.max_jobs) return fail(res, 429, "already running " + std::to_string(running) + " jobs (--max-jobs)");
    char id[17];
    std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(rng_()));
    job->id = id;
    jobs_[job->id] = job;
    order_.push_back(job->id);
    forget_old();
    try {
      threads_[job->id] = std::thread([job, work] {
        std::string state = "done", error;
        try {
          work(*job);
          if (job->cancel) state = "cancelled";
          if (job->timed_out) error = "stopped at the time limit (serve --job-seconds)";
        } catch (const std::bad_alloc &) {
          state = "failed";
          error = "out of memory while running the job";
        } catch (const std::exception &e) {
          state = "failed";
          error = e.what();
        }
        std::lock_guard<std::mutex> job_lock(job->mu);
        job->seconds = elapsed(*job);
        job->error = error;
        job->state = state;
      });
    } catch (const std::system_error &e) {
      threads_.erase(job->id);
      jobs_.erase(job->id);
      order_.pop_back();
      return fail(res, 503, std::string("cannot start a thread for the job: ") + e.what());
    }
  }
  reply(res, 202, {{"job", job->id}, {"kind", kind}});
}

void Server::forget_old() {
  while (order_.size() > kKeptJobs) {
    const auto it = jobs_.find(order_.front());
    if (it != jobs_.end()) {
      std::lock_guard<std::mutex> lock(it->second->mu);
      if (it->second->state == "running") break;
    }
    if (it != jobs_.end()) jobs_.erase(it);
    const auto t = threads_.find(order_.front());
    if (t != threads_.end()) {
      if (t->second.joinable()) t->second.join();  // finished: returns at once
      threads_.erase(t);
    }
    order_.pop_front();
  }
}

std::function<void(Job &)> Server::explore_work(const json &body) {
  const int64_t root = g_.resolve(text_field(body, "protein", true));  // unknown or ambiguous: 404 / 400 at once
  ExploreOptions o;
  o.query = text_field(body, "query", true);
  const json windows = body.value("windows", json("1"));
  o.windows = parse_windows(windows.is_number_integer() ? std::to_string(windows.get<int64_t>()) : field<std::string>(body, "windows", "1"),
                            "\"windows\"");
  for (const auto w : o.windows)
    if (w > 100) throw Error(ErrorCode::invalid_argument, "\"windows\": at most window 100");
  o.window.k = parse_k(field<std::string>(body, "k", "30,4"), "\"k\"");
  o.window.depth = count_field(body, "depth", 2, 1, 6);
  o.max_length = count_field(body, "max_len", 4, 1, 12);
  o.top = count_field(body, "top", 10, 1, 1000);
  o.max_paths = count_field(body, "max_paths", std::min(o.max_paths, kMaxPaths), 1, kMaxPaths);
  // The work a job may ask for: the windows' nodes (each window searched for paths).
  if (explore_window_nodes_bound(o) > kMaxWindowNodes)
    throw Error(ErrorCode::invalid_argument,
                "\"windows\" x \"k\" x \"depth\" asks for windows of more than " + std::to_string(kMaxWindowNodes) +
                    " nodes in all (each window holds up to 1 + k1 + k1*k2 + ... nodes): ask for fewer windows, "
                    "smaller k or less depth");
  const double min_score = field<double>(body, "min_score", 0.0);
  o.window.filter.min_score = score_arg(min_score, "\"min_score\"");
  o.concurrency = a_.concurrency;
  o.use_cache = true;
  return [this, root, o](Job &job) mutable {
    watch(job, o);
    {
      std::lock_guard<std::mutex> lock(job.mu);
      job.stage = "retrieve";
    }
    const AgentPipeline pipe(g_, model_, a_.embedding_model);
    ExploreResult r = pipe.explore(root, o);
    // (a language model that answered nothing: the job failed, with the first reason, as the
    // command line exits 1)
    require_some_answer(r, *model_, "");
    const auto kept = std::make_shared<const ExploreResult>(std::move(r));
    std::lock_guard<std::mutex> lock(job.mu);
    job.make_view = [kept] { return report_view(*kept); };
    job.make_result = [kept] { return to_json(*kept); };
  };
}

std::function<void(Job &)> Server::ask_work(const json &body) {
  const std::string question = text_field(body, "question", true);
  AskOptions o;
  o.embedding_model = a_.embedding_model;
  return [this, question, o](Job &job) mutable {
    watch(job, o);
    {
      std::lock_guard<std::mutex> lock(job.mu);
      job.stage = "retrieve";
    }
    AskResult r = ask(g_, *model_, question, o);
    // (every model request failed: the job failed with the reason, as the command line exits 1)
    if (r.status == "failed" && !r.offline) throw Error(ErrorCode::llm, "the model failed: " + r.error);
    const auto kept = std::make_shared<const AskResult>(std::move(r));
    std::lock_guard<std::mutex> lock(job.mu);
    job.make_view = [this, kept] { return report_view(g_, *kept); };
    job.make_result = [kept] { return to_json(*kept); };
  };
}

std::function<void(Job &)> Server::hypothesize_work(const json &body) {
  const std::string source = text_field(body, "source", true), target = text_field(body, "target", true);
  g_.resolve(source);  // unknown or ambiguous: at once
  g_.resolve(target);
  HypothesisOptions o;
  o.max_length = count_field(body, "max_len", o.max_length, 1, 6);
  o.paths = count_field(body, "paths", o.paths, 1, 100);
  o.shortest_rounds = count_field(body, "shortest_rounds", 0, 0, 5);  // (HGCR's candidates)
  return [this, source, target, o](Job &job) mutable {
    watch(job, o);
    {
      std::lock_guard<std::mutex> lock(job.mu);
      job.stage = "paths";
    }
    HypothesisResult r = hypothesize(g_, *model_, source, target, corpus_, o);
    const auto kept = std::make_shared<const HypothesisResult>(std::move(r));
    std::lock_guard<std::mutex> lock(job.mu);
    job.make_view = [kept] { return report_view(*kept); };
    job.make_result = [kept] { return to_json(*kept); };
  };
}

}  // namespace grappi::cli::serve
