// Ingestor: games are acknowledged only after commit, stored once (also
// when repeated inside one batch), and everything they index is written.
#include "engine/ingest.h"

#include <atomic>
#include <optional>
#include <thread>

#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "core_fixture.h"
#include "engine/prepare.h"
#include "rules/symmetry.h"
#include "store/keys.h"
#include "store/position_value.h"

namespace qipu::coordinator {
namespace {

class IngestTest : public CoreTest {
 protected:
  void SetUp() override {
    CoreTest::SetUp();
    job_ = jobs_->Submit(200, Config(9)).value();
    info_ = jobs_->Find(job_).value();
  }
  engine::PreparedGame Prepared(uint64_t i) {
    auto p = engine::PrepareSelfPlay(Play(job_, i), info_, absl::Now());
    EXPECT_TRUE(p.ok()) << p.status();
    return *std::move(p);
  }
  uint64_t job_ = 0;
  engine::JobInfo info_;
};

TEST_F(IngestTest, StoresOnceAndReportsDuplicates) {
  std::atomic<int> hooks{0};
  engine::Ingestor ingest(store_.get(), engine::IngestOptions{},
                          [&](const engine::PreparedGame& g) {
                            ++hooks;
                            jobs_->MarkStored(g.job, g.index);
                          });
  EXPECT_EQ(ingest.SubmitAndWait(Prepared(0)).value(),
            engine::IngestOutcome::kStored);
  EXPECT_EQ(ingest.SubmitAndWait(Prepared(0)).value(),
            engine::IngestOutcome::kDuplicate);
  EXPECT_EQ(hooks, 1);
  auto v = store_->Get(store::Records::kGames,
                       store::GameKey(store::GameId::SelfPlay(job_, 0)));
  ASSERT_TRUE(v.ok() && v->has_value());
  EXPECT_EQ(jobs_->Status(job_).value()[0].done(), 1u);
}

// With a KnownStored oracle (the coordinator's: JobManager::IsStored) the
// committer trusts what it knows and looks up only what it does not: a
// game it says is stored is a duplicate and is not written, one it says is
// not is stored, and an unknown one is looked up in the database. Across a
// restart the job manager's answer comes from the stored games.
TEST_F(IngestTest, KnownStoredAnswersReplaceTheLookup) {
  auto known = [&](const engine::PreparedGame& g) -> std::optional<bool> {
    if (g.index == 5) return true;          // claimed stored (it is not)
    if (g.index == 6) return std::nullopt;  // unknown: looked up
    return jobs_->IsStored(g.job, g.index);
  };
  {
    engine::Ingestor ingest(
        store_.get(), engine::IngestOptions{},
        [&](const engine::PreparedGame& g) {
          jobs_->MarkStored(g.job, g.index);
        },
        known);
    EXPECT_EQ(ingest.SubmitAndWait(Prepared(5)).value(),
              engine::IngestOutcome::kDuplicate);
    auto v = store_->Get(store::Records::kGames,
                         store::GameKey(store::GameId::SelfPlay(job_, 5)));
    ASSERT_TRUE(v.ok());
    EXPECT_FALSE(v->has_value())
        << "a game the oracle calls stored was written";
    EXPECT_EQ(ingest.SubmitAndWait(Prepared(6)).value(),
              engine::IngestOutcome::kStored);
    EXPECT_EQ(ingest.SubmitAndWait(Prepared(6)).value(),
              engine::IngestOutcome::kDuplicate);
    EXPECT_EQ(jobs_->IsStored(job_, 7), std::optional<bool>(false));
    EXPECT_EQ(ingest.SubmitAndWait(Prepared(7)).value(),
              engine::IngestOutcome::kStored);
    EXPECT_EQ(jobs_->IsStored(job_, 7), std::optional<bool>(true));
    EXPECT_EQ(ingest.SubmitAndWait(Prepared(7)).value(),
              engine::IngestOutcome::kDuplicate);
  }
  EXPECT_EQ(jobs_->IsStored(job_, 200), std::nullopt);     // outside the job
  EXPECT_EQ(jobs_->IsStored(job_ + 99, 0), std::nullopt);  // no such job
  // A fresh job manager on the same database knows 6 and 7 are stored.
  engine::JobManager reloaded(store_.get(), configs_.get(), job_options_);
  ASSERT_TRUE(reloaded.Load().ok());
  EXPECT_EQ(reloaded.IsStored(job_, 6), std::optional<bool>(true));
  EXPECT_EQ(reloaded.IsStored(job_, 7), std::optional<bool>(true));
  EXPECT_EQ(reloaded.IsStored(job_, 5), std::optional<bool>(false));
}

TEST_F(IngestTest, DuplicatesWithinOneBatchAndConcurrentSubmitters) {
  std::vector<engine::PreparedGame> games;
  for (uint64_t i = 0; i < 100; ++i) games.push_back(Prepared(i % 50));
  std::atomic<int> stored{0};
  std::atomic<int> dups{0};
  {
    engine::Ingestor ingest(store_.get(), engine::IngestOptions{}, nullptr);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        for (size_t i = t; i < games.size(); i += 4) {
          auto r = ingest.SubmitAndWait(games[i]);
          ASSERT_TRUE(r.ok());
          (*r == engine::IngestOutcome::kStored ? stored : dups)++;
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(ingest.counters().stored, 50u);
  }
  EXPECT_EQ(stored, 50);
  EXPECT_EQ(dups, 50);
  // The empty board was reached by exactly the 50 distinct games.
  rules::Board empty(9, 9);
  const auto key =
      rules::SymmetricHasher(empty).Canonical(rules::Color::kBlack).key;
  const std::string prefix = store::PositionPrefix(9, 9, key);
  uint64_t reached = 0;
  uint64_t continued = 0;
  ASSERT_TRUE(
      store_->position_index()
          .ForEachUnderPrefix(prefix,
                              [&](absl::string_view, absl::string_view value) {
                                auto v = store::DecodePositionValue(value);
                                EXPECT_TRUE(v.ok());
                                if (!v.ok()) return false;
                                reached += v->reached.games;
                                for (const auto& c : v->continuations)
                                  continued += c.outcome.games;
                                return true;
                              })
          .ok());
  EXPECT_EQ(reached, 50u);
  EXPECT_EQ(continued, 50u);
  // One aggregate bucket counting 50 games.
  store::Cursor ag = store_->Scan(store::Records::kAggregates);
  uint64_t counted = 0;
  for (ag.SeekToFirst(); ag.Valid(); ag.Next()) {
    qipu::v1::AggregateStats a;
    ASSERT_TRUE(a.ParseFromArray(ag.value().data(),
                                 static_cast<int>(ag.value().size())));
    counted += a.outcomes().games();
  }
  ASSERT_TRUE(ag.status().ok()) << ag.status();
  EXPECT_EQ(counted, 50u);
}

TEST_F(IngestTest, StopCommitsWhatIsQueuedThenRefuses) {
  engine::Ingestor ingest(store_.get(), engine::IngestOptions{}, nullptr);
  std::atomic<int> done{0};
  for (uint64_t i = 0; i < 30; ++i) {
    ingest.Submit(Prepared(i), [&](absl::StatusOr<engine::IngestOutcome> r) {
      EXPECT_TRUE(r.ok());
      ++done;
    });
  }
  ingest.Stop();
  EXPECT_EQ(done, 30);
  absl::Notification refused;
  ingest.Submit(Prepared(31), [&](absl::StatusOr<engine::IngestOutcome> r) {
    EXPECT_TRUE(absl::IsUnavailable(r.status()));
    refused.Notify();
  });
  EXPECT_TRUE(refused.HasBeenNotified());
}

}  // namespace
}  // namespace qipu::coordinator
