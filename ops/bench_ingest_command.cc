// `qipu bench ingest --games N --size S [--index-depth D] [--streams K]
// [--upload-batch B] [--json]`: ingest throughput of the coordinator.
// Pre-generates N self-play games of one job (not timed), then streams them
// over loopback gRPC (K upload streams, B games to a message) into a fresh
// database and times until every game is acknowledged as durable:
// games_per_sec, positions_per_sec. In the same run it writes the same keys --
// each game's record, its position-index merge operands and its aggregate
// operand -- directly with RocksDB WriteBatches (same options, same group size,
// fsync per batch) into a second fresh database: raw_rocksdb_games_per_sec, and
// the ratio.
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/channel.h"
#include "base/console.h"
#include "coordinator/coordinator.h"
#include "coordinator/prepare.h"
#include "nlohmann/json.hpp"
#include "ops/commands.h"
#include "ops/flags.h"
#include "proto/convert.h"
#include "qipu/v1/work.grpc.pb.h"
#include "rules/selfplay.h"
#include "store/aggregate.h"
#include "store/keys.h"
#include "store/position_value.h"

namespace qipu::ops {
namespace {

struct IngestBenchOptions {
  JobSpecFlags spec;
  int streams = 2;
  int batch = 1024;
  // Games per upload message (GameUpload.batch); 1 sends the single form.
  int upload_batch = 64;
  std::string dir;
  bool json = false;
};

int Fail(const std::string& what) {
  std::fprintf(stderr, "qipu bench ingest: %s\n", what.c_str());
  return 1;
}

// Plays games [0, n) of `job` on all cores.
std::vector<qipu::v1::GameUpload> Generate(const qipu::v1::JobConfig& cfg,
                                           const rules::Rules& r, uint64_t job,
                                           uint64_t n) {
  std::vector<qipu::v1::GameUpload> out(n);
  std::atomic<uint64_t> next{0};
  auto work = [&] {
    rules::Game g(static_cast<int>(cfg.width()), static_cast<int>(cfg.height()),
                  r);
    rules::SelfPlayOutcome outcome;
    for (uint64_t i = next++; i < n; i = next++) {
      const rules::SelfPlaySpec spec = wire::SelfPlaySpecFor(cfg, r, i);
      (void)rules::PlaySelfPlay(spec, &g, &outcome);
      wire::SelfPlayToProto(g, spec, outcome, job, "bench",
                            out[i].mutable_game());
      out[i].set_seq(i);
    }
  };
  std::vector<std::thread> threads;
  const int t = std::max(1u, std::thread::hardware_concurrency());
  for (int i = 0; i < t; ++i) threads.emplace_back(work);
  for (auto& th : threads) th.join();
  return out;
}

// Streams uploads[begin, end) on one UploadGames call, `per_message` to a
// message; returns acks seen.
uint64_t Stream(const std::string& address,
                const std::vector<qipu::v1::GameUpload>& uploads, size_t begin,
                size_t end, size_t per_message, std::string* error) {
  auto stub = qipu::v1::WorkService::NewStub(base::Dial(address));
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, absl::Seconds(600));
  auto stream = stub->UploadGames(&ctx);
  std::atomic<uint64_t> acked{0};
  std::thread reader([&] {
    qipu::v1::GameAck message;
    auto one = [&](const qipu::v1::GameAck& ack) {
      if (ack.status() != qipu::v1::ACK_STATUS_STORED && error->empty()) {
        *error = absl::StrCat("game ", ack.game_id(), ": ", ack.reason());
      }
      ++acked;
    };
    while (stream->Read(&message)) {
      if (message.batch_size() == 0) one(message);
      for (const auto& ack : message.batch()) one(ack);
    }
  });
  qipu::v1::GameUpload batch;
  for (size_t i = begin; i < end; i += per_message) {
    const size_t stop = std::min(end, i + per_message);
    bool ok;
    if (per_message == 1) {
      ok = stream->Write(uploads[i]);
    } else {
      batch.Clear();
      for (size_t k = i; k < stop; ++k) *batch.add_batch() = uploads[k];
      ok = stream->Write(batch);
    }
    if (!ok) break;
  }
  stream->WritesDone();
  reader.join();
  grpc::Status s = stream->Finish();
  if (!s.ok() && error->empty()) *error = s.error_message();
  return acked;
}

int RunIngestBench(const IngestBenchOptions& o) {
  auto req = o.spec.Request();
  if (!req.ok()) return Fail(std::string(req.status().message()));
  const std::filesystem::path root =
      o.dir.empty()
          ? std::filesystem::temp_directory_path() /
                absl::StrCat("qipu-bench-ingest-", std::random_device{}())
          : std::filesystem::path(o.dir);
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root);

  coordinator::CoordinatorOptions co;
  co.db_dir = (root / "grpc").string();
  co.ingest.max_batch = o.batch;
  auto c = coordinator::Coordinator::Start(co);
  if (!c.ok()) return Fail(c.status().ToString());
  auto job = (*c)->jobs().Submit(req->games(), req->config());
  if (!job.ok()) return Fail(job.status().ToString());
  auto info = (*c)->jobs().Find(*job);
  if (!info.ok()) return Fail(info.status().ToString());
  std::fprintf(stderr, "generating %llu games...\n",
               static_cast<unsigned long long>(req->games()));
  const auto uploads = Generate(info->config, info->rules, *job, req->games());

  // Timed: loopback gRPC ingest.
  std::fprintf(stderr, "ingesting over gRPC...\n");
  const uint64_t before = (*c)->ingestor().counters().positions;
  const absl::Time t0 = absl::Now();
  std::vector<std::thread> streams;
  std::vector<std::string> errors(o.streams);
  std::atomic<uint64_t> acked{0};
  const size_t n = uploads.size();
  for (int s = 0; s < o.streams; ++s) {
    const size_t b = n * s / o.streams;
    const size_t e = n * (s + 1) / o.streams;
    streams.emplace_back([&, s, b, e] {
      acked += Stream((*c)->address(), uploads, b, e,
                      static_cast<size_t>(o.upload_batch), &errors[s]);
    });
  }
  for (auto& t : streams) t.join();
  const double grpc_secs = absl::ToDoubleSeconds(absl::Now() - t0);
  const uint64_t positions = (*c)->ingestor().counters().positions - before;
  for (const auto& e : errors) {
    if (!e.empty()) return Fail(e);
  }
  if (acked != n)
    return Fail(absl::StrCat(acked.load(), " of ", n, " games acknowledged"));

  // Timed: the same keys straight into RocksDB.
  std::fprintf(stderr, "writing the same keys with WriteBatch...\n");
  std::vector<coordinator::PreparedGame> prepared;
  prepared.reserve(n);
  const absl::Time now = absl::Now();
  for (const auto& u : uploads) {
    auto p = coordinator::PrepareSelfPlay(u.game(), *info, now);
    if (!p.ok()) return Fail(p.status().ToString());
    prepared.push_back(*std::move(p));
  }
  (*c)->Shutdown();
  auto raw = store::Store::Open((root / "raw").string(), co.store);
  if (!raw.ok()) return Fail(raw.status().ToString());
  const absl::Time t1 = absl::Now();
  for (size_t b = 0; b < n; b += o.batch) {
    rocksdb::WriteBatch wb;
    // Aggregates folded per batch, as the ingest committer does.
    std::map<std::string, store::AggregateBuilder> agg;
    for (size_t i = b; i < std::min(n, b + o.batch); ++i) {
      const auto& g = prepared[i];
      wb.Put((*raw)->games(), g.key, g.value);
      g.position_ops.ForEach([&](absl::string_view key,
                                 absl::string_view value) {
        wb.Merge((*raw)->positions(), rocksdb::Slice(key.data(), key.size()),
                 rocksdb::Slice(value.data(), value.size()));
      });
      agg[store::AggregateKey(g.config_id, g.day)].Add(g.facts);
    }
    for (const auto& [key, builder] : agg) {
      wb.Merge((*raw)->aggregates(), key, builder.Build().SerializeAsString());
    }
    if (absl::Status s = (*raw)->Commit(&wb); !s.ok())
      return Fail(s.ToString());
  }
  const double raw_secs = absl::ToDoubleSeconds(absl::Now() - t1);
  raw->reset();
  if (o.dir.empty()) std::filesystem::remove_all(root);

  const double gps = n / grpc_secs;
  const double raw_gps = n / raw_secs;
  if (o.json) {
    nlohmann::json j = {{"games", n},
                        {"size", req->config().width()},
                        {"index_depth", req->config().index_depth()},
                        {"streams", o.streams},
                        {"upload_batch", o.upload_batch},
                        {"seconds", grpc_secs},
                        {"games_per_sec", gps},
                        {"positions_per_sec", positions / grpc_secs},
                        {"raw_rocksdb_seconds", raw_secs},
                        {"raw_rocksdb_games_per_sec", raw_gps},
                        {"ratio", gps / raw_gps}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("%llu %ux%u games, index depth %u, %d streams\n",
                static_cast<unsigned long long>(n), req->config().width(),
                req->config().height(), req->config().index_depth(), o.streams);
    std::printf("  gRPC ingest   %10.0f games/s  %10.0f positions/s\n", gps,
                positions / grpc_secs);
    std::printf("  raw RocksDB   %10.0f games/s (same keys, WriteBatch)\n",
                raw_gps);
    std::printf("  ratio         %10.2f\n", gps / raw_gps);
  }
  return 0;
}

}  // namespace

void AddBenchIngestCommand(CLI::App& bench, int* exit_code) {
  auto o = std::make_shared<IngestBenchOptions>();
  o->spec.games = 20000;
  CLI::App* cmd = bench.add_subcommand(
      "ingest", "Games per second into the coordinator over loopback gRPC");
  o->spec.Add(cmd);
  cmd->add_option("--streams", o->streams, "Concurrent upload streams")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--batch", o->batch, "Games per WriteBatch (both paths)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--upload-batch", o->upload_batch,
                  "Games per upload message (1: one game a message)")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  cmd->add_option("--dir", o->dir,
                  "Keep the databases here (default: temp, removed)");
  cmd->add_flag("--json", o->json, "Print one JSON object");
  cmd->callback([o, exit_code] { *exit_code = RunIngestBench(*o); });
}

}  // namespace qipu::ops
