// `qipu bench query`: latency and throughput of openings queries over
// loopback gRPC.
//
//   qipu bench query --server HOST:PORT [--size 9]       a running coordinator
//   qipu bench query --db DIR                           a coordinator started
//                                                       here on DIR
//   qipu bench query --games N --size 9 [--depth 30] [--db DIR]
//                                                       build a fresh database
//                                                       first (DIR, or a temp
//                                                       dir removed afterwards)
//
// Building plays N self-play games of one job with the rules core and
// feeds them through the real ingest path (JobManager job, PrepareSelfPlay
// validation, the Ingestor's group commit) of an in-process Coordinator.
// Query positions are sampled from the first --plies plies of the stored
// games: a random walk from the empty board that follows each continuation
// with probability games(continuation) / games(position) -- the
// distribution of a random stored game's prefix -- stopping at a uniformly
// drawn ply. Then --threads client threads (one channel and completion
// queue each, the async API) keep --inflight Openings calls in flight for
// --seconds, after a short warm-up; each call's latency is measured at the
// client, from start to completion (queueing included). --compact first
// compacts the position index fully (a database at rest).
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "base/channel.h"
#include "base/console.h"
#include "coordinator/coordinator.h"
#include "coordinator/prepare.h"
#include "grpcpp/completion_queue.h"
#include "grpcpp/create_channel.h"
#include "nlohmann/json.hpp"
#include "ops/commands.h"
#include "proto/convert.h"
#include "qipu/v1/query.grpc.pb.h"
#include "rocksdb/db.h"
#include "rules/rules.h"
#include "rules/selfplay.h"
#include "store/store.h"

namespace qipu::ops {
namespace {

struct QueryBenchOptions {
  std::string server;
  std::string db;
  uint64_t games = 0;
  int size = 9;
  int depth = 30;
  std::string rules = "chinese";
  int build_threads = 0;
  bool compact = false;
  double seconds = 10;
  int threads = 2;
  int inflight = 4;
  int plies = 10;
  int samples = 2000;
  uint64_t seed = 1;
  bool json = false;
};

// What building the database took.
struct BuildReport {
  uint64_t games = 0;
  double seconds = 0;
  uint64_t sst_bytes = 0;
};

// Plays and ingests o.games games into the coordinator's database.
absl::StatusOr<BuildReport> Build(const QueryBenchOptions& o,
                                  coordinator::Coordinator& c) {
  auto r = rules::PresetRules(o.rules);
  if (!r.ok()) return r.status();
  qipu::v1::JobConfig config;
  config.set_width(static_cast<uint32_t>(o.size));
  config.set_height(static_cast<uint32_t>(o.size));
  *config.mutable_rules() = wire::RulesToProto(*r);
  config.set_policy("random");
  config.set_index_depth(static_cast<uint32_t>(o.depth));
  config.set_seed(o.seed);
  auto job = c.jobs().Submit(o.games, config);
  if (!job.ok()) return job.status();
  auto info = c.jobs().Find(*job);
  if (!info.ok()) return info.status();

  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> acked{0};
  absl::Mutex mu;
  absl::Status failure;
  auto play = [&] {
    rules::Game game(o.size, o.size, info->rules);
    rules::SelfPlayOutcome outcome;
    qipu::v1::Game proto;
    for (uint64_t i = next++; i < o.games; i = next++) {
      rules::SelfPlaySpec spec;
      spec.width = spec.height = o.size;
      spec.rules = info->rules;
      spec.job_seed = o.seed;
      spec.index = i;
      absl::StatusOr<coordinator::PreparedGame> prepared =
          absl::UnknownError("not played");
      if (absl::Status s = rules::PlaySelfPlay(spec, &game, &outcome);
          !s.ok()) {
        prepared = s;
      } else {
        proto.Clear();
        wire::SelfPlayToProto(game, spec, outcome, *job, "bench", &proto);
        prepared = coordinator::PrepareSelfPlay(proto, *info, absl::Now());
      }
      if (!prepared.ok()) {
        absl::MutexLock lock(&mu);
        failure = prepared.status();
        ++acked;
        continue;
      }
      c.ingestor().Submit(*std::move(prepared),
                          [&](absl::StatusOr<coordinator::IngestOutcome> res) {
                            if (!res.ok()) {
                              absl::MutexLock lock(&mu);
                              failure = res.status();
                            }
                            ++acked;
                          });
    }
  };
  int n = o.build_threads > 0
              ? o.build_threads
              : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (int t = 0; t < n; ++t) threads.emplace_back(play);
  base::ProgressBar bar("building", o.games);
  while (acked.load() < o.games) {
    bar.Update(acked.load());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (auto& t : threads) t.join();
  bar.Finish();
  if (absl::Status s = c.store().Flush(); !s.ok()) return s;
  BuildReport report;
  report.games = o.games;
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
  rocksdb::CompactRangeOptions co;
  co.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  absl::Status st = s.Compact(s.positions(), co);
  if (!st.ok()) return absl::UnavailableError(st.ToString());
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

// A channel of its own (not shared with other threads' channels).
std::unique_ptr<qipu::v1::QueryService::Stub> NewStub(const std::string& addr,
                                                      int index) {
  grpc::ChannelArguments args;
  args.SetInt("qipu.bench_channel", index);
  return qipu::v1::QueryService::NewStub(grpc::CreateCustomChannel(
      addr, grpc::InsecureChannelCredentials(), args));
}

// Samples query positions by random walks weighted by game counts.
absl::StatusOr<std::vector<std::vector<std::string>>> SamplePositions(
    const QueryBenchOptions& o, const std::string& addr) {
  auto stub = NewStub(addr, -1);
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
  auto stub = NewStub(addr, index);
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

int RunQueryBench(const QueryBenchOptions& o) {
  const char* kCmd = "qipu bench query";
  if (o.server.empty() == (o.db.empty() && o.games == 0)) {
    std::fprintf(stderr, "%s: give --server, or --db and/or --games\n", kCmd);
    return 2;
  }
  std::unique_ptr<coordinator::Coordinator> coord;
  std::string temp_dir;
  std::optional<BuildReport> built;
  std::string addr = o.server;
  if (addr.empty()) {
    coordinator::CoordinatorOptions co;
    co.db_dir = o.db;
    if (co.db_dir.empty()) {
      std::string tmpl =
          absl::StrCat(std::filesystem::temp_directory_path().string(),
                       "/qipu-bench-XXXXXX");
      if (mkdtemp(tmpl.data()) == nullptr) {
        std::fprintf(stderr, "%s: cannot create a temp dir\n", kCmd);
        return 1;
      }
      co.db_dir = temp_dir = tmpl;
    } else if (o.games > 0 && std::filesystem::exists(co.db_dir) &&
               !std::filesystem::is_empty(co.db_dir)) {
      std::fprintf(stderr,
                   "%s: --db %s is not empty (--games builds a fresh one)\n",
                   kCmd, co.db_dir.c_str());
      return 2;
    }
    co.store.sync = false;
    co.store.block_cache_bytes = 256u << 20;
    auto started = coordinator::Coordinator::Start(co);
    if (!started.ok()) {
      std::fprintf(stderr, "%s: %s\n", kCmd,
                   started.status().ToString().c_str());
      return 1;
    }
    coord = *std::move(started);
    addr = coord->address();
  }
  auto cleanup = [&] {
    if (coord != nullptr) coord->Shutdown();
    coord.reset();
    if (!temp_dir.empty()) std::filesystem::remove_all(temp_dir);
  };
  if (o.games > 0) {
    auto b = Build(o, *coord);
    if (!b.ok()) {
      std::fprintf(stderr, "%s: building: %s\n", kCmd,
                   b.status().ToString().c_str());
      cleanup();
      return 1;
    }
    built = *b;
  }
  std::optional<double> compacted;
  if (o.compact && coord != nullptr) {
    auto secs = CompactPositions(coord->store());
    if (!secs.ok()) {
      std::fprintf(stderr, "%s: compacting: %s\n", kCmd,
                   secs.status().ToString().c_str());
      cleanup();
      return 1;
    }
    compacted = *secs;
  }
  auto positions = SamplePositions(o, addr);
  if (!positions.ok()) {
    std::fprintf(stderr, "%s: %s\n", kCmd,
                 positions.status().ToString().c_str());
    cleanup();
    return 1;
  }
  std::atomic<bool> measuring{false};
  std::atomic<bool> stop{false};
  std::vector<ThreadResult> results(o.threads);
  std::vector<std::thread> threads;
  for (int t = 0; t < o.threads; ++t) {
    threads.emplace_back(QueryLoop, addr, t, std::cref(o),
                         std::cref(*positions), std::cref(measuring),
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
  cleanup();

  std::vector<float> all;
  uint64_t errors = 0;
  std::string first_error;
  for (auto& r : results) {
    all.insert(all.end(), r.micros.begin(), r.micros.end());
    if (r.errors != 0 && first_error.empty()) first_error = r.first_error;
    errors += r.errors;
  }
  std::sort(all.begin(), all.end());
  auto pct = [&](double q) -> double {
    if (all.empty()) return 0;
    const size_t i =
        std::min(all.size() - 1, static_cast<size_t>(q * all.size()));
    return all[i] / 1000.0;
  };
  const double qps = all.size() / dt;
  double mean_depth = 0;
  for (const auto& p : *positions) mean_depth += p.size();
  mean_depth /= std::max<size_t>(positions->size(), 1);
  if (o.json) {
    nlohmann::json j = {{"queries", all.size()},
                        {"errors", errors},
                        {"seconds", dt},
                        {"qps", qps},
                        {"p50_ms", pct(0.50)},
                        {"p90_ms", pct(0.90)},
                        {"p99_ms", pct(0.99)},
                        {"max_ms", all.empty() ? 0.0 : all.back() / 1000.0},
                        {"threads", o.threads},
                        {"inflight", o.inflight},
                        {"positions", positions->size()},
                        {"mean_plies", mean_depth},
                        {"size", o.size}};
    if (built) {
      j["build"] = {{"games", built->games},
                    {"seconds", built->seconds},
                    {"games_per_sec", built->games / built->seconds},
                    {"sst_bytes", built->sst_bytes},
                    {"index_depth", o.depth}};
    }
    if (compacted) j["compact_seconds"] = *compacted;
    std::printf("%s\n", j.dump().c_str());
  } else {
    if (compacted)
      std::printf("position index compacted in %.1f s\n", *compacted);
    if (built) {
      std::printf(
          "built %llu %dx%d games (index depth %d) in %.1f s "
          "(%.0f games/s), %.1f MB of SST files\n",
          static_cast<unsigned long long>(built->games), o.size, o.size,
          o.depth, built->seconds, built->games / built->seconds,
          built->sst_bytes / 1e6);
    }
    std::printf(
        "openings queries over gRPC at %s: %d thread(s) x %d in flight, "
        "%.1f s, %zu positions (mean %.1f plies)\n",
        addr.c_str(), o.threads, o.inflight, dt, positions->size(), mean_depth);
    std::printf(
        "  queries/s  %10.0f\n  p50        %10.3f ms\n  p90        %10.3f ms\n"
        "  p99        %10.3f ms\n  max        %10.3f ms\n  errors     %10llu\n",
        qps, pct(0.5), pct(0.9), pct(0.99),
        all.empty() ? 0.0 : all.back() / 1000.0,
        static_cast<unsigned long long>(errors));
  }
  if (errors != 0) {
    std::fprintf(stderr, "%s: %llu queries failed, first: %s\n", kCmd,
                 static_cast<unsigned long long>(errors), first_error.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

void AddBenchQueryCommand(CLI::App& bench, int* exit_code) {
  auto o = std::make_shared<QueryBenchOptions>();
  CLI::App* q = bench.add_subcommand(
      "query", "Openings query latency and throughput over loopback gRPC");
  q->add_option("--server", o->server, "Coordinator address HOST:PORT");
  q->add_option("--db", o->db,
                "Database directory (a coordinator is started on it here)");
  q->add_option("--games", o->games,
                "Build a fresh database of this many self-play games first")
      ->check(CLI::Range(uint64_t{1}, uint64_t{100000000}));
  q->add_option("--size", o->size, "Board size")
      ->check(CLI::Range(2, 25))
      ->capture_default_str();
  q->add_option("--depth", o->depth, "Index depth (plies) of the built games")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  q->add_option("--rules", o->rules, "Rule preset of the built games")
      ->capture_default_str();
  q->add_option("--build-threads", o->build_threads,
                "Threads playing games while building (0 = one per core)");
  q->add_flag(
      "--compact", o->compact,
      "Compact the position index fully before measuring (a database at rest)");
  q->add_option("--seconds", o->seconds, "Measuring time")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
  q->add_option("--threads", o->threads, "Client threads, one channel each")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  q->add_option("--inflight", o->inflight,
                "Calls each client thread keeps in flight (async API)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  q->add_option("--plies", o->plies, "Positions come from plies 0..N of games")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  q->add_option("--samples", o->samples, "Distinct positions queried")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  q->add_option("--seed", o->seed, "Seed of the games and the sampling")
      ->capture_default_str();
  q->add_flag("--json", o->json, "Print one JSON object");
  q->callback([o, exit_code] { *exit_code = RunQueryBench(*o); });
}

}  // namespace qipu::ops
