// Process test: the qipu-coordinator process is killed with SIGKILL twice
// while two qipu-worker processes (two threads each) play a 2,000-game 9x9
// job, and restarted each time on the same database (on a fresh port; the
// workers and the test's client reach it through the port of the
// fixture's proxy, which they keep throughout). Afterwards
// every game is stored exactly once, the job says so, every game the
// coordinator acknowledged to a worker (their --ack-log files) is stored as
// acknowledged -- not lost by a kill and played again (ack_check.h) --,
// and every aggregate the queries read counts each game exactly once --
// checked against sums recomputed from the stored games themselves.
#include <signal.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "proto/convert.h"
#include "qipu/v1/query.grpc.pb.h"
#include "rules/result.h"
#include "tests/ops/ack_check.h"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

constexpr uint64_t kGames = 2000;
// Progress (games stored) at which the coordinator is killed.
constexpr uint64_t kKillAt[] = {500, 1200};

uint64_t Sum(const qipu::v1::Histogram& h) {
  uint64_t n = 0;
  for (uint64_t c : h.counts()) n += c;
  return n;
}

uint64_t Total(const qipu::v1::Outcomes& o) {
  return o.black_wins() + o.white_wins() + o.draws() + o.void_();
}

// What the aggregates should say, recomputed from the stored games.
struct Expected {
  uint64_t games = 0;
  uint64_t black_wins = 0;
  uint64_t white_wins = 0;
  uint64_t draws = 0;
  uint64_t no_result = 0;
  uint64_t ko_captures = 0;
  uint64_t games_with_ko = 0;
  uint64_t total_moves = 0;
  // Games with at least one move (each adds one root continuation).
  uint64_t with_moves = 0;
  std::map<std::string, uint64_t> by_reason;
};

Expected Recompute(const std::map<uint64_t, qipu::v1::Game>& games) {
  Expected e;
  for (const auto& [index, g] : games) {
    ++e.games;
    switch (g.result().winner()) {
      case qipu::v1::WINNER_BLACK:
        ++e.black_wins;
        break;
      case qipu::v1::WINNER_WHITE:
        ++e.white_wins;
        break;
      case qipu::v1::WINNER_DRAW:
        ++e.draws;
        break;
      default:
        ++e.no_result;
        break;
    }
    e.ko_captures += g.ko_captures();
    if (g.ko_captures() > 0) ++e.games_with_ko;
    e.total_moves += g.num_moves();
    if (g.num_moves() > 0) ++e.with_moves;
    auto r = wire::ResultFromProto(g.result());
    ++e.by_reason[r.ok() ? rules::EndReasonName(r->reason) : "undecodable"];
  }
  return e;
}

// Polls the job every few milliseconds until at least `games` are stored;
// returns the count seen then, or nullopt after `timeout`.
std::optional<uint64_t> WaitForDone(Client& client, uint64_t job,
                                    uint64_t games, absl::Duration timeout) {
  std::optional<uint64_t> seen;
  WaitUntil(
      [&] {
        auto st = client.JobStatus(job);
        if (st.ok() && st->done() >= games) seen = st->done();
        return seen.has_value();
      },
      timeout, absl::Milliseconds(2));
  return seen;
}

std::string WorkerLogs(const std::vector<std::unique_ptr<Subprocess>>& ws) {
  std::string out;
  for (const auto& w : ws) {
    absl::StrAppend(&out, "--- ", w->stderr_path(), ":\n", w->StderrTail());
  }
  return out;
}

TEST(OpsCoordinatorKill, TwoSigkillsMidJobStoreAndCountEveryGameOnce) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string db = tmp.Sub("db");
  // A short TTL bounds how long a lease orphaned by a kill (e.g. returned
  // by its worker while the coordinator was down) can hold games back.
  CoordinatorProcess coord(db, tmp.Sub("coordinator"),
                           {"--lease-games", "50", "--lease-ttl-ms",
                            absl::StrCat(3000 * kSlowdown)});
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  auto client_owner = std::make_unique<Client>(coord.stable_address());
  Client& client = *client_owner;
  auto job = client.SubmitJob(kGames, JobConfigFor(9, 20240501));
  ASSERT_TRUE(job.ok()) << job.status();

  std::vector<std::unique_ptr<Subprocess>> workers;
  const std::vector<std::string> names = {"restart-w0", "restart-w1"};
  // A small upload window keeps the games in flight -- hence the jump in
  // progress between the last poll and the kill -- to a few dozen: without
  // it one group commit can store a thousand games at once and a kill
  // "at 500" lands after the job has ended.
  std::vector<std::string> ack_logs;
  for (const std::string& name : names) {
    ack_logs.push_back(tmp.Sub(name + ".acks"));
    auto w =
        StartWorker(coord.stable_address(), tmp.path(), name,
                    /*threads=*/2,
                    /*lease_games=*/50,
                    {"--upload-window", "8", "--ack-log", ack_logs.back()});
    ASSERT_TRUE(w.ok()) << w.status();
    workers.push_back(*std::move(w));
  }

  for (const uint64_t mark : kKillAt) {
    const std::optional<uint64_t> seen =
        WaitForDone(client, *job, mark, absl::Seconds(60) * kSlowdown);
    ASSERT_TRUE(seen.has_value())
        << "fewer than " << mark << " games stored; coordinator log:\n"
        << coord.LogTail() << WorkerLogs(workers);
    // The kill has to land while the job is still running.
    ASSERT_LT(*seen, kGames) << "the job finished before the kill at " << mark;
    EXPECT_EQ(coord.Kill(), 128 + SIGKILL);
    ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
    // Every game acknowledged before the kill is durable.
    auto st = client.JobStatus(*job);
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_GE(st->done(), *seen) << "restart " << coord.starts() - 1;
    std::printf(
        "coordinator killed at %llu games stored; %llu once it is back\n",
        static_cast<unsigned long long>(*seen),
        static_cast<unsigned long long>(st->done()));
  }
  for (auto& w : workers) ASSERT_TRUE(w->IsRunning()) << WorkerLogs(workers);

  ASSERT_TRUE(WaitUntil(
      [&] {
        auto st = client.JobStatus(*job);
        return st.ok() && st->state() == qipu::v1::JOB_STATE_DONE;
      },
      absl::Seconds(90) * kSlowdown, absl::Milliseconds(50)))
      << coord.LogTail() << WorkerLogs(workers);
  auto st = client.JobStatus(*job);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(st->requested(), kGames);
  EXPECT_EQ(st->done(), kGames);
  EXPECT_EQ(st->rejected(), 0u);

  // The aggregates, while the coordinator still runs.
  qipu::v1::Filter job_filter;
  job_filter.set_source(absl::StrCat("job:", *job));
  auto results = client.Results(job_filter);
  ASSERT_TRUE(results.ok()) << results.status();
  auto ko = client.Ko(job_filter);
  ASSERT_TRUE(ko.ok()) << ko.status();
  qipu::v1::Filter board_filter = job_filter;
  board_filter.set_width(9);
  board_filter.set_height(9);
  auto root = client.RootOpenings(board_filter);
  ASSERT_TRUE(root.ok()) << root.status();
  qipu::v1::CyclesResponse cycles;
  {
    auto stub = qipu::v1::QueryService::NewStub(client.channel());
    qipu::v1::CyclesRequest req;
    *req.mutable_filter() = job_filter;
    const grpc::Status s = stub->Cycles(client.Context().get(), req, &cycles);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }

  // Stop the workers (gracefully: they return their leases), then the
  // coordinator, and read what is on disk.
  for (auto& w : workers) w->Kill(SIGTERM);
  for (auto& w : workers) {
    EXPECT_EQ(w->Wait(absl::Seconds(30) * kSlowdown), 0) << w->StderrTail();
  }
  EXPECT_TRUE(WaitUntil(
      [&] {
        auto s = client.JobStatus(*job);
        return s.ok() && s->open_leases() == 0;
      },
      absl::Seconds(10) * kSlowdown, absl::Milliseconds(50)))
      << "leases left open after the workers stopped";
  // An open connection, even idle, holds a graceful shutdown up for the
  // whole grace period: close ours first.
  client_owner.reset();
  EXPECT_EQ(coord.Stop(), 0) << coord.LogTail();

  uint64_t foreign = 0;
  auto games = ReadStoredGames(db, *job, &foreign);
  ASSERT_TRUE(games.ok()) << games.status();
  EXPECT_EQ(foreign, 0u);
  ASSERT_EQ(games->size(), kGames);
  EXPECT_EQ(games->begin()->first, 0u);
  EXPECT_EQ(games->rbegin()->first, kGames - 1);
  std::map<std::string, uint64_t> by_worker;
  for (const auto& [index, g] : *games) {
    EXPECT_EQ(g.provenance().job(), *job);
    EXPECT_EQ(g.provenance().game_index(), index);
    ++by_worker[g.provenance().worker()];
  }
  for (const std::string& name : names) EXPECT_GT(by_worker[name], 0u) << name;
  // Each game was acknowledged to a worker (both stopped with empty
  // spools), and is stored as acknowledged.
  auto acked = CheckAckedGamesStoredIn(db, ack_logs);
  ASSERT_TRUE(acked.ok()) << acked.status();
  EXPECT_TRUE(acked->ok()) << acked->Summary();
  EXPECT_EQ(acked->games, kGames) << acked->Summary();

  // Each aggregate counts each game once ...
  const qipu::v1::Outcomes& o = results->outcomes();
  EXPECT_EQ(o.games(), kGames);
  EXPECT_EQ(Total(o), kGames);
  uint64_t reasons = 0;
  for (const auto& [reason, n] : results->by_reason()) reasons += n;
  EXPECT_EQ(reasons, kGames);
  EXPECT_EQ(Sum(results->length()), kGames);
  EXPECT_EQ(ko->all().games(), kGames);
  EXPECT_EQ(Sum(ko->histogram()), kGames);
  uint64_t by_length = 0;
  for (const auto& g : ko->by_length()) by_length += g.games();
  EXPECT_EQ(by_length, kGames);
  ASSERT_EQ(ko->by_size_size(), 1);
  EXPECT_EQ(ko->by_size(0).games(), kGames);
  EXPECT_EQ(cycles.games(), kGames);
  EXPECT_EQ(root->reached().games(), kGames);
  EXPECT_EQ(Total(root->reached()), kGames);

  // ... and agrees with the stored games.
  const Expected e = Recompute(*games);
  EXPECT_EQ(o.black_wins(), e.black_wins);
  EXPECT_EQ(o.white_wins(), e.white_wins);
  EXPECT_EQ(o.draws(), e.draws);
  EXPECT_EQ(o.void_(), e.no_result);
  for (const auto& [reason, n] : e.by_reason) {
    auto it = results->by_reason().find(reason);
    EXPECT_EQ(it == results->by_reason().end() ? 0 : it->second, n) << reason;
  }
  EXPECT_NEAR(results->mean_length(),
              static_cast<double>(e.total_moves) / kGames, 1e-6);
  EXPECT_EQ(ko->all().ko_captures(), e.ko_captures);
  EXPECT_EQ(ko->all().games_with_ko(), e.games_with_ko);
  EXPECT_EQ(root->reached().black_wins(), e.black_wins);
  uint64_t continuations = 0;
  for (const auto& c : root->continuations()) {
    continuations += c.outcomes().games();
  }
  EXPECT_EQ(continuations, e.with_moves);
  EXPECT_EQ(e.with_moves, kGames);
}

}  // namespace
}  // namespace qipu::testing
