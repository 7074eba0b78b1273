#include "bench/query_bench.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "base/channel.h"
#include "base/console.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "base/work_pool.h"
#include "coordinator/coordinator.h"
#include "engine/prepare.h"
#include "grpcpp/completion_queue.h"
#include "proto/convert.h"
#include "qipu/v1/query.grpc.pb.h"
#include "rocksdb/db.h"
#include "rules/selfplay.h"
#include "store/store.h"

namespace qipu::bench {
namespace {

// `s` with `context` before its message, same code.
absl::Status WithContext(const absl::Status& s, absl::string_view context) {
  return absl::Status(s.code(), absl::StrCat(context, s.message()));
}

// Plays and ingests o.games games into the coordinator's database, on
// o.build_threads threads (a pool, and the caller).
absl::StatusOr<QueryBuildReport> Build(const QueryBenchOptions& o,
                                       coordinator::Coordinator& c) {
  qipu::v1::JobConfig config;
  config.set_width(static_cast<uint32_t>(o.size));
  config.set_height(static_cast<uint32_t>(o.size));
  *config.mutable_rules() = wire::RulesToProto(o.rules);
  config.set_policy("random");
  config.set_index_depth(static_cast<uint32_t>(o.depth));
  config.set_seed(o.seed);
  QIPU_ASSIGN_OR_RETURN(const uint64_t job, c.jobs().Submit(o.games, config));
  QIPU_ASSIGN_OR_RETURN(const engine::JobInfo info, c.jobs().Find(job));

  const auto t0 = std::chrono::steady_clock::now();
  absl::Mutex mu;
  // Under mu: games stored or failed (the bar shows them), and the last
  // failure.
  uint64_t acked = 0;
  absl::Status failure;
  base::ProgressBar bar("building", o.games, o.verbose);
  // Counts one game's outcome; on the ingest committer's thread for the
  // stored ones, on a playing thread for those that failed before.
  auto count = [&](const absl::Status& s) {
    absl::MutexLock lock(&mu);
    if (!s.ok()) failure = s;
    ++acked;
    bar.Update(acked);
  };
  struct Player {
    rules::Game game;
    rules::SelfPlayOutcome outcome;
    qipu::v1::Game proto;
  };
  const int n =
      o.build_threads > 0
          ? o.build_threads
          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  base::WorkPool pool(n - 1, "qipu-bench-build");
  base::ParallelForEach(
      pool, o.games,
      [&] {
        return Player{rules::Game(o.size, o.size, info.rules), {}, {}};
      },
      [&](Player& p, size_t i) {
        rules::SelfPlaySpec spec;
        spec.width = spec.height = o.size;
        spec.rules = info.rules;
        spec.job_seed = o.seed;
        spec.index = i;
        absl::StatusOr<engine::PreparedGame> prepared =
            absl::UnknownError("not played");
        if (absl::Status s = rules::PlaySelfPlay(spec, &p.game, &p.outcome);
            !s.ok()) {
          prepared = s;
        } else {
          p.proto.Clear();
          wire::SelfPlayToProto(p.game, spec, p.outcome, job, "bench",
                                &p.proto);
          prepared = engine::PrepareSelfPlay(p.proto, info, absl::Now());
        }
        if (!prepared.ok()) {
          count(prepared.status());
          return;
        }
        c.ingestor().Submit(*std::move(prepared),
                            [&](absl::StatusOr<engine::IngestOutcome> res) {
                              count(res.status());
                            });
      });
  {
    absl::MutexLock lock(&mu);
    auto all = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
      return acked >= o.games;
    };
    mu.Await(absl::Condition(&all));
  }
  bar.Finish();
  QIPU_RETURN_IF_ERROR(c.store().Flush());
  QueryBuildReport report;
  report.games = o.games;
  report.index_depth = o.depth;
  const auto t1 = std::chrono::steady_clock::now();
  report.seconds = std::chrono::duration<double>(t1 - t0).count();
  {
    absl::MutexLock lock(&mu);
    if (!failure.ok()) return failure;
  }
  for (const auto& cf : c.store().Sizes().column_families) {
    report.sst_bytes += cf.sst_bytes;
  }
  return report;
}

// Compacts the position index fully (a database at rest, as background
// compaction leaves it eventually); returns the seconds it took.
absl::StatusOr<double> CompactPositions(store::Store& s) {
  const auto t0 = std::chrono::steady_clock::now();
  if (absl::Status f = s.position_index().Flush(); !f.ok()) return f;
  if (absl::Status st = s.CompactPositions(); !st.ok()) return st;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

// A stub on a channel of its own (not shared with other threads'
// channels) when index >= 0.
std::unique_ptr<qipu::v1::QueryService::Stub> NewStub(
    const std::string& addr, const QueryBenchOptions& o, int index) {
  base::ChannelOptions options = o.channel;
  options.unshared_index = index;
  return qipu::v1::QueryService::NewStub(base::Dial(addr, options));
}

// Samples query positions by random walks weighted by game counts.
absl::StatusOr<std::vector<std::vector<std::string>>> SamplePositions(
    const QueryBenchOptions& o, const std::string& addr) {
  auto stub = NewStub(addr, o, -1);
  std::mt19937_64 rng(o.seed);
  std::vector<std::vector<std::string>> out;
  qipu::v1::OpeningsRequest req;
  req.mutable_filter()->set_width(static_cast<uint32_t>(o.size));
  req.mutable_filter()->set_height(static_cast<uint32_t>(o.size));
  req.set_examples(1);
  for (int s = 0; s < o.samples; ++s) {
    const int target = std::uniform_int_distribution<int>(0, o.plies)(rng);
    std::vector<std::string> moves;
    while (static_cast<int>(moves.size()) < target) {
      req.clear_moves();
      for (const auto& m : moves) req.add_moves(m);
      grpc::ClientContext ctx;
      base::SetDeadline(&ctx, absl::Seconds(10));
      qipu::v1::OpeningsResponse resp;
      grpc::Status st = stub->Openings(&ctx, req, &resp);
      if (!st.ok()) {
        return absl::UnavailableError(
            absl::StrCat("sampling positions: ", st.error_message()));
      }
      if (resp.reached().games() == 0 && moves.empty()) {
        return absl::FailedPreconditionError(
            absl::StrCat("no stored ", o.size, "x", o.size,
                         " games to sample positions from"));
      }
      uint64_t pick = std::uniform_int_distribution<uint64_t>(
          0, std::max<uint64_t>(resp.reached().games(), 1) - 1)(rng);
      const qipu::v1::Continuation* next = nullptr;
      for (const auto& c : resp.continuations()) {
        if (pick < c.outcomes().games()) {
          next = &c;
          break;
        }
        pick -= c.outcomes().games();
      }
      if (next == nullptr) break;  // that game ended here
      moves.push_back(next->move());
    }
    out.push_back(std::move(moves));
  }
  return out;
}

struct ThreadResult {
  std::vector<float> micros;
  uint64_t errors = 0;
  std::string first_error;
};

// One in-flight call of QueryLoop.
struct Call {
  std::unique_ptr<grpc::ClientContext> ctx;
  qipu::v1::OpeningsResponse resp;
  grpc::Status status;
  std::unique_ptr<grpc::ClientAsyncResponseReader<qipu::v1::OpeningsResponse>>
      reader;
  std::chrono::steady_clock::time_point start;
};

// Keeps o.inflight Openings calls in flight on one channel and completion
// queue until `stop`, recording each call's latency while `measuring`.
void QueryLoop(const std::string& addr, int index, const QueryBenchOptions& o,
               const std::vector<std::vector<std::string>>& positions,
               const std::atomic<bool>& measuring,
               const std::atomic<bool>& stop, ThreadResult* out) {
  auto stub = NewStub(addr, o, index);
  std::mt19937_64 rng(o.seed * 1000003 + index);
  std::uniform_int_distribution<size_t> pick(0, positions.size() - 1);
  std::vector<qipu::v1::OpeningsRequest> reqs(positions.size());
  for (size_t i = 0; i < positions.size(); ++i) {
    reqs[i].mutable_filter()->set_width(static_cast<uint32_t>(o.size));
    reqs[i].mutable_filter()->set_height(static_cast<uint32_t>(o.size));
    for (const auto& m : positions[i]) reqs[i].add_moves(m);
  }
  out->micros.reserve(1 << 20);
  grpc::CompletionQueue cq;
  std::vector<Call> calls(o.inflight);
  auto start = [&](Call& c) {
    c.ctx = std::make_unique<grpc::ClientContext>();
    base::SetDeadline(c.ctx.get(), absl::Seconds(5));
    c.resp.Clear();
    c.start = std::chrono::steady_clock::now();
    c.reader = stub->PrepareAsyncOpenings(c.ctx.get(), reqs[pick(rng)], &cq);
    c.reader->StartCall();
    c.reader->Finish(&c.resp, &c.status, &c);
  };
  for (Call& c : calls) start(c);
  int outstanding = o.inflight;
  void* tag = nullptr;
  bool ok = false;
  while (outstanding > 0 && cq.Next(&tag, &ok)) {
    Call& c = *static_cast<Call*>(tag);
    const auto t1 = std::chrono::steady_clock::now();
    if (measuring.load(std::memory_order_relaxed)) {
      if (!ok || !c.status.ok()) {
        if (out->errors++ == 0) out->first_error = c.status.error_message();
      } else {
        out->micros.push_back(
            std::chrono::duration<float, std::micro>(t1 - c.start).count());
      }
    }
    if (stop.load(std::memory_order_relaxed)) {
      --outstanding;
    } else {
      start(c);
    }
  }
  cq.Shutdown();
  while (cq.Next(&tag, &ok)) {
  }
}

}  // namespace

absl::StatusOr<QueryBenchResult> RunQueryBench(const QueryBenchOptions& o) {
  if (o.server.empty() == (o.db.empty() && o.games == 0)) {
    return absl::InvalidArgumentError("give --server, or --db and/or --games");
  }
  // The coordinator goes before its temporary directory.
  std::optional<base::TempDir> temp;
  std::unique_ptr<coordinator::Coordinator> coord;
  QueryBenchResult r;
  r.address = o.server;
  r.size = o.size;
  r.threads = o.threads;
  r.inflight = o.inflight;
  if (r.address.empty()) {
    coordinator::CoordinatorOptions co;
    co.db_dir = o.db;
    if (co.db_dir.empty()) {
      QIPU_ASSIGN_OR_RETURN(temp, base::TempDir::Create("bench-query"));
      co.db_dir = temp->path();
    } else if (o.games > 0 && std::filesystem::exists(co.db_dir) &&
               !std::filesystem::is_empty(co.db_dir)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--db ", co.db_dir, " is not empty (--games builds a fresh one)"));
    }
    co.store.sync = false;
    co.store.block_cache_bytes = 256u << 20;
    QIPU_ASSIGN_OR_RETURN(coord, coordinator::Coordinator::Start(co));
    r.address = coord->address();
  }
  if (o.games > 0) {
    auto b = Build(o, *coord);
    if (!b.ok()) return WithContext(b.status(), "building: ");
    r.build = *b;
  }
  if (o.compact && coord != nullptr) {
    auto secs = CompactPositions(coord->store());
    if (!secs.ok()) return WithContext(secs.status(), "compacting: ");
    r.compact_seconds = *secs;
  }
  QIPU_ASSIGN_OR_RETURN(const auto positions, SamplePositions(o, r.address));

  // One plain thread per client, not base::WorkPool: concurrent clients,
  // each with its own channel and completion queue, are what is measured.
  std::atomic<bool> measuring{false};
  std::atomic<bool> stop{false};
  std::vector<ThreadResult> results(o.threads);
  std::vector<std::thread> threads;
  for (int t = 0; t < o.threads; ++t) {
    threads.emplace_back(QueryLoop, r.address, t, std::cref(o),
                         std::cref(positions), std::cref(measuring),
                         std::cref(stop), &results[t]);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  measuring = true;
  const auto t0 = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(o.seconds));
  measuring = false;
  const double dt =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  stop = true;
  for (auto& t : threads) t.join();
  if (coord != nullptr) coord->Shutdown();
  coord.reset();
  temp.reset();

  std::vector<float> all;
  for (auto& t : results) {
    all.insert(all.end(), t.micros.begin(), t.micros.end());
    if (t.errors != 0 && r.first_error.empty()) r.first_error = t.first_error;
    r.errors += t.errors;
  }
  std::sort(all.begin(), all.end());
  auto pct = [&](double q) -> double {
    if (all.empty()) return 0;
    const size_t i =
        std::min(all.size() - 1, static_cast<size_t>(q * all.size()));
    return all[i] / 1000.0;
  };
  r.queries = all.size();
  r.seconds = dt;
  r.qps = all.size() / dt;
  r.p50_ms = pct(0.50);
  r.p90_ms = pct(0.90);
  r.p99_ms = pct(0.99);
  r.max_ms = all.empty() ? 0.0 : all.back() / 1000.0;
  double mean_depth = 0;
  for (const auto& p : positions) mean_depth += p.size();
  mean_depth /= std::max<size_t>(positions.size(), 1);
  r.positions = positions.size();
  r.mean_plies = mean_depth;
  return r;
}

nlohmann::json QueryBenchJson(const QueryBenchResult& r) {
  nlohmann::json j = {{"queries", r.queries},
                      {"errors", r.errors},
                      {"seconds", r.seconds},
                      {"qps", r.qps},
                      {"p50_ms", r.p50_ms},
                      {"p90_ms", r.p90_ms},
                      {"p99_ms", r.p99_ms},
                      {"max_ms", r.max_ms},
                      {"threads", r.threads},
                      {"inflight", r.inflight},
                      {"positions", r.positions},
                      {"mean_plies", r.mean_plies},
                      {"size", r.size}};
  if (r.build) {
    j["build"] = {{"games", r.build->games},
                  {"seconds", r.build->seconds},
                  {"games_per_sec", r.build->games / r.build->seconds},
                  {"sst_bytes", r.build->sst_bytes},
                  {"index_depth", r.build->index_depth}};
  }
  if (r.compact_seconds) j["compact_seconds"] = *r.compact_seconds;
  return j;
}

std::string QueryBenchText(const QueryBenchResult& r) {
  std::string out;
  if (r.compact_seconds) {
    absl::StrAppendFormat(&out, "position index compacted in %.1f s\n",
                          *r.compact_seconds);
  }
  if (r.build) {
    absl::StrAppendFormat(&out,
                          "built %llu %dx%d games (index depth %d) in %.1f s "
                          "(%.0f games/s), %.1f MB of SST files\n",
                          static_cast<unsigned long long>(r.build->games),
                          r.size, r.size, r.build->index_depth,
                          r.build->seconds, r.build->games / r.build->seconds,
                          r.build->sst_bytes / 1e6);
  }
  absl::StrAppendFormat(&out,
                        "openings queries over gRPC at %s: %d thread(s) x %d "
                        "in flight, %.1f s, %zu positions (mean %.1f plies)\n",
                        r.address, r.threads, r.inflight, r.seconds,
                        r.positions, r.mean_plies);
  absl::StrAppendFormat(
      &out,
      "  queries/s  %10.0f\n  p50        %10.3f ms\n  p90        %10.3f ms\n"
      "  p99        %10.3f ms\n  max        %10.3f ms\n  errors     %10llu\n",
      r.qps, r.p50_ms, r.p90_ms, r.p99_ms, r.max_ms,
      static_cast<unsigned long long>(r.errors));
  return out;
}

}  // namespace qipu::bench
