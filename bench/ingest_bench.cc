#include "bench/ingest_bench.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "base/channel.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "base/work_pool.h"
#include "coordinator/coordinator.h"
#include "engine/prepare.h"
#include "proto/convert.h"
#include "qipu/v1/work.grpc.pb.h"
#include "rules/selfplay.h"
#include "store/aggregate.h"
#include "store/keys.h"
#include "store/position_value.h"

namespace qipu::bench {
namespace {

// Plays games [0, n) of `job` on all cores (a pool of one thread per core
// but one, and the caller).
std::vector<qipu::v1::GameUpload> Generate(const qipu::v1::JobConfig& cfg,
                                           const rules::Rules& r, uint64_t job,
                                           uint64_t n) {
  std::vector<qipu::v1::GameUpload> out(n);
  struct Player {
    rules::Game game;
    rules::SelfPlayOutcome outcome;
  };
  const int cores =
      static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  base::WorkPool pool(cores - 1, "qipu-bench-gen");
  base::ParallelForEach(
      pool, n,
      [&] {
        return Player{rules::Game(static_cast<int>(cfg.width()),
                                  static_cast<int>(cfg.height()), r),
                      {}};
      },
      [&](Player& p, size_t i) {
        const rules::SelfPlaySpec spec = wire::SelfPlaySpecFor(cfg, r, i);
        (void)rules::PlaySelfPlay(spec, &p.game, &p.outcome);
        wire::SelfPlayToProto(p.game, spec, p.outcome, job, "bench",
                              out[i].mutable_game());
        out[i].set_seq(i);
      });
  return out;
}

// Streams uploads[begin, end) on one UploadGames call, `per_message` to a
// message; returns acks seen.
uint64_t Stream(const std::string& address, const base::ChannelOptions& co,
                const std::vector<qipu::v1::GameUpload>& uploads, size_t begin,
                size_t end, size_t per_message, std::string* error) {
  auto stub = qipu::v1::WorkService::NewStub(base::Dial(address, co));
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, absl::Seconds(600));
  auto stream = stub->UploadGames(&ctx);
  std::atomic<uint64_t> acked{0};
  // The acknowledgements are read while the uploads are written: a
  // stream's two directions, one thread each.
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

}  // namespace

absl::StatusOr<IngestBenchResult> RunIngestBench(const IngestBenchOptions& o) {
  QIPU_ASSIGN_OR_RETURN(const base::RunDir run_dir,
                        base::RunDir::Open(o.dir, "bench-ingest"));
  const std::filesystem::path root = run_dir.path();

  coordinator::CoordinatorOptions co;
  co.db_dir = (root / "grpc").string();
  co.ingest.max_batch = o.batch;
  co.auth_required = o.auth;
  base::ChannelOptions channel;
  if (!o.tls_dir.empty()) {
    const std::filesystem::path tls(o.tls_dir);
    QIPU_RETURN_IF_ERROR(
        coordinator::LoadServerTls((tls / "server.pem").string(),
                                   (tls / "server.key").string(), "", &co.tls));
    QIPU_RETURN_IF_ERROR(
        base::LoadClientTls((tls / "ca.pem").string(), "", "", &channel.tls));
  }
  QIPU_ASSIGN_OR_RETURN(std::unique_ptr<coordinator::Coordinator> c,
                        coordinator::Coordinator::Start(co));
  if (o.auth) {
    QIPU_ASSIGN_OR_RETURN(
        engine::TokenRegistry::Created token,
        c->tokens().Create(qipu::v1::ROLE_WORKER, "bench ingest"));
    channel.token = token.token;
  }
  QIPU_ASSIGN_OR_RETURN(const uint64_t job,
                        c->jobs().Submit(o.job.games(), o.job.config()));
  QIPU_ASSIGN_OR_RETURN(const engine::JobInfo info, c->jobs().Find(job));
  if (o.verbose) {
    std::fprintf(stderr, "generating %llu games...\n",
                 static_cast<unsigned long long>(o.job.games()));
  }
  const auto uploads = Generate(info.config, info.rules, job, o.job.games());

  // Timed: loopback gRPC ingest. One plain thread per upload stream, not
  // base::WorkPool: K concurrent streams, each a client of its own, are
  // what is measured.
  if (o.verbose) std::fprintf(stderr, "ingesting over gRPC...\n");
  const uint64_t before = c->ingestor().counters().positions;
  const absl::Time t0 = absl::Now();
  std::vector<std::thread> streams;
  std::vector<std::string> errors(o.streams);
  std::atomic<uint64_t> acked{0};
  const size_t n = uploads.size();
  for (int s = 0; s < o.streams; ++s) {
    const size_t b = n * s / o.streams;
    const size_t e = n * (s + 1) / o.streams;
    streams.emplace_back([&, s, b, e] {
      acked += Stream(c->address(), channel, uploads, b, e,
                      static_cast<size_t>(o.upload_batch), &errors[s]);
    });
  }
  for (auto& t : streams) t.join();
  const double grpc_secs = absl::ToDoubleSeconds(absl::Now() - t0);
  const uint64_t positions = c->ingestor().counters().positions - before;
  for (const auto& e : errors) {
    if (!e.empty()) return absl::InternalError(e);
  }
  if (acked != n) {
    return absl::InternalError(
        absl::StrCat(acked.load(), " of ", n, " games acknowledged"));
  }

  // Timed: the same keys straight into RocksDB.
  if (o.verbose) {
    std::fprintf(stderr, "writing the same keys with WriteBatch...\n");
  }
  std::vector<engine::PreparedGame> prepared;
  prepared.reserve(n);
  const absl::Time now = absl::Now();
  for (const auto& u : uploads) {
    QIPU_ASSIGN_OR_RETURN(engine::PreparedGame p,
                          engine::PrepareSelfPlay(u.game(), info, now));
    prepared.push_back(std::move(p));
  }
  c->Shutdown();
  QIPU_ASSIGN_OR_RETURN(std::unique_ptr<store::Store> raw,
                        store::Store::Open((root / "raw").string(), co.store));
  const absl::Time t1 = absl::Now();
  for (size_t b = 0; b < n; b += o.batch) {
    store::WriteSet wb(raw.get());
    // Aggregates folded per batch, as the ingest committer does.
    std::map<std::string, store::AggregateBuilder> agg;
    for (size_t i = b; i < std::min(n, b + o.batch); ++i) {
      const auto& g = prepared[i];
      wb.Put(store::Records::kGames, g.key, g.value);
      g.position_ops.ForEach(
          [&](absl::string_view key, absl::string_view value) {
            wb.Merge(store::Records::kPositions, key, value);
          });
      agg[store::AggregateKey(g.config_id, g.day)].Add(g.facts);
    }
    for (const auto& [key, builder] : agg) {
      wb.Merge(store::Records::kAggregates, key,
               builder.Build().SerializeAsString());
    }
    QIPU_RETURN_IF_ERROR(raw->Commit(&wb));
  }
  const double raw_secs = absl::ToDoubleSeconds(absl::Now() - t1);
  raw.reset();

  IngestBenchResult r;
  r.games = n;
  r.width = o.job.config().width();
  r.height = o.job.config().height();
  r.index_depth = o.job.config().index_depth();
  r.streams = o.streams;
  r.upload_batch = o.upload_batch;
  r.tls = !o.tls_dir.empty();
  r.auth = o.auth;
  r.acked = acked;
  r.seconds = grpc_secs;
  r.positions = positions;
  r.games_per_sec = n / grpc_secs;
  r.positions_per_sec = positions / grpc_secs;
  r.raw_seconds = raw_secs;
  r.raw_games_per_sec = n / raw_secs;
  r.ratio = r.games_per_sec / r.raw_games_per_sec;
  return r;
}

nlohmann::json IngestBenchJson(const IngestBenchResult& r) {
  return {{"games", r.games},
          {"size", r.width},
          {"index_depth", r.index_depth},
          {"streams", r.streams},
          {"upload_batch", r.upload_batch},
          {"tls", r.tls},
          {"auth", r.auth},
          {"seconds", r.seconds},
          {"games_per_sec", r.games_per_sec},
          {"positions_per_sec", r.positions_per_sec},
          {"raw_rocksdb_seconds", r.raw_seconds},
          {"raw_rocksdb_games_per_sec", r.raw_games_per_sec},
          {"ratio", r.ratio}};
}

std::string IngestBenchText(const IngestBenchResult& r) {
  std::string out;
  absl::StrAppendFormat(
      &out, "%llu %ux%u games, index depth %u, %d streams%s%s\n",
      static_cast<unsigned long long>(r.games), r.width, r.height,
      r.index_depth, r.streams, r.tls ? ", TLS" : "", r.auth ? ", tokens" : "");
  absl::StrAppendFormat(&out,
                        "  gRPC ingest   %10.0f games/s  %10.0f positions/s\n",
                        r.games_per_sec, r.positions_per_sec);
  absl::StrAppendFormat(
      &out, "  raw RocksDB   %10.0f games/s (same keys, WriteBatch)\n",
      r.raw_games_per_sec);
  absl::StrAppendFormat(&out, "  ratio         %10.2f\n", r.ratio);
  return out;
}

}  // namespace qipu::bench
