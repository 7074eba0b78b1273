// JobManager: submission checks, leases (grant -- of any job or of one
// --, renew, return, expiry), completion, rejections, cancellation, and
// restoring everything after a restart.
#include "engine/jobs.h"

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core_fixture.h"
#include "store/keys.h"

namespace qipu::coordinator {
namespace {

class JobsTest : public CoreTest {
 protected:
  void SetUp() override {
    job_options_.lease_games = 10;
    job_options_.lease_ttl = absl::Seconds(5);
    CoreTest::SetUp();
  }
};

TEST_F(JobsTest, SubmitValidatesTheConfiguration) {
  EXPECT_FALSE(jobs_->Submit(0, Config(9)).ok());
  qipu::v1::JobConfig bad = Config(9);
  bad.set_width(30);
  auto s = jobs_->Submit(10, bad);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("size"), std::string::npos);
  bad = Config(9);
  bad.set_policy("alphago");
  EXPECT_NE(jobs_->Submit(10, bad).status().message().find("config.policy"),
            std::string::npos);
  bad = Config(9);
  bad.set_white_policy("mcts:playouts=many");
  EXPECT_NE(
      jobs_->Submit(10, bad).status().message().find("config.white_policy"),
      std::string::npos);
  bad = Config(9);
  bad.set_black_policy("gtp:   ");
  EXPECT_TRUE(absl::IsInvalidArgument(jobs_->Submit(10, bad).status()));
  bad = Config(9);
  bad.set_handicap(1);
  EXPECT_FALSE(jobs_->Submit(10, bad).ok());
  bad = Config(9);
  bad.mutable_rules()->set_komi(7.25);
  EXPECT_NE(jobs_->Submit(10, bad).status().message().find("komi"),
            std::string::npos);
  EXPECT_EQ(jobs_->Submit(10, Config(9)).value(), 1u);
  EXPECT_EQ(jobs_->Submit(10, Config(13)).value(), 2u);
}

TEST_F(JobsTest, PolicySpecsAreStoredCanonicalInTheirOwnConfiguration) {
  qipu::v1::JobConfig c = Config(9);
  c.set_black_policy("mcts:threads=1, playouts=800");
  // An external engine: accepted and stored (made by the worker).
  c.set_white_policy("  gtp: gnugo --mode gtp --level 10 ");
  const uint64_t job = jobs_->Submit(4, c).value();
  auto st = jobs_->Status(job);
  ASSERT_TRUE(st.ok() && st->size() == 1u);
  const qipu::v1::JobConfig& got = (*st)[0].config();
  EXPECT_EQ(got.black_policy(), "mcts:playouts=800");
  EXPECT_EQ(got.white_policy(), "gtp:gnugo --mode gtp --level 10");
  EXPECT_EQ(got.policy(),
            "mcts:playouts=800 vs gtp:gnugo --mode gtp --level 10");
  bool found = false;
  for (const qipu::v1::ConfigRecord& r : configs_->All()) {
    if (r.source() != absl::StrCat("job:", job)) continue;
    found = true;
    EXPECT_EQ(r.policy(), "mcts:playouts=800");
    EXPECT_EQ(r.white_policy(), "gtp:gnugo --mode gtp --level 10");
  }
  EXPECT_TRUE(found);
  // One policy for both colours: the one field, as before.
  c = Config(9);
  c.set_policy("mcts:playouts=1000,playout=pattern");
  const uint64_t same = jobs_->Submit(4, c).value();
  const qipu::v1::JobConfig one = (*jobs_->Status(same))[0].config();
  EXPECT_EQ(one.policy(), "mcts");
  EXPECT_TRUE(one.black_policy().empty());
  EXPECT_TRUE(one.white_policy().empty());
}

TEST_F(JobsTest, LeasesCoverEveryGameOnce) {
  const uint64_t job = jobs_->Submit(25, Config(9)).value();
  std::vector<uint64_t> seen;
  for (int i = 0; i < 3; ++i) {
    auto lease = jobs_->Grant("w", 0).value();
    ASSERT_TRUE(lease.has_value());
    EXPECT_EQ(lease->job, job);
    seen.insert(seen.end(), lease->indices.begin(), lease->indices.end());
  }
  EXPECT_FALSE(jobs_->Grant("w", 0).value().has_value());
  std::sort(seen.begin(), seen.end());
  ASSERT_EQ(seen.size(), 25u);
  for (uint64_t i = 0; i < 25; ++i) EXPECT_EQ(seen[i], i);
  EXPECT_EQ(jobs_->open_leases(), 3);
}

TEST_F(JobsTest, ALeaseForOneJobSkipsTheOthers) {
  const uint64_t first = jobs_->Submit(30, Config(9)).value();
  const uint64_t second = jobs_->Submit(5, Config(13)).value();
  // Without a job, the oldest job with work left; with one, that job only.
  EXPECT_EQ(jobs_->Grant("any", 0).value()->job, first);
  auto mine = jobs_->Grant("mine", 0, second).value();
  ASSERT_TRUE(mine.has_value());
  EXPECT_EQ(mine->job, second);
  EXPECT_EQ(mine->indices.size(), 5u);
  EXPECT_EQ(mine->config.width(), 13u);
  // Its games are all leased: nothing more of it, though the first job
  // still has games.
  EXPECT_FALSE(jobs_->Grant("mine", 0, second).value().has_value());
  EXPECT_TRUE(jobs_->Grant("any", 0).value().has_value());
  const auto unknown = jobs_->Grant("mine", 0, 99);
  ASSERT_TRUE(absl::IsNotFound(unknown.status())) << unknown.status();
  EXPECT_NE(unknown.status().message().find("job 99"), std::string::npos);
}

TEST_F(JobsTest, ExpiredAndReturnedLeasesGoBackWithoutStoredGames) {
  const uint64_t job = jobs_->Submit(10, Config(9)).value();
  auto a = jobs_->Grant("a", 0).value();
  ASSERT_TRUE(a.has_value());
  for (int i = 0; i < 4; ++i) jobs_->MarkStored(job, a->indices[i]);
  EXPECT_EQ(jobs_->ExpireLeases(absl::Now() + absl::Seconds(10)), 1);
  EXPECT_EQ(jobs_->expired_leases(), 1u);
  EXPECT_TRUE(absl::IsNotFound(jobs_->Renew(a->id, "a").status()));
  auto b = jobs_->Grant("b", 0).value();
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->indices.size(), 6u);
  for (uint64_t i : b->indices) EXPECT_GE(i, 4u);
  EXPECT_TRUE(jobs_->Renew(b->id, "b").ok());
  ASSERT_TRUE(jobs_->Return(b->id, "b").ok());
  auto c = jobs_->Grant("c", 3).value();
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->indices.size(), 3u);
  auto st = jobs_->Status(job).value();
  EXPECT_EQ(st[0].done(), 4u);
  EXPECT_EQ(st[0].state(), qipu::v1::JOB_STATE_RUNNING);
  for (uint64_t i = 4; i < 10; ++i) jobs_->MarkStored(job, i);
  EXPECT_EQ(jobs_->Status(job).value()[0].state(), qipu::v1::JOB_STATE_DONE);
  EXPECT_FALSE(jobs_->Grant("d", 0).value().has_value());
}

TEST_F(JobsTest, RepeatedRejectionsGiveAnIndexUp) {
  const uint64_t job = jobs_->Submit(2, Config(9)).value();
  jobs_->MarkStored(job, 0);
  for (int i = 0; i < 3; ++i) jobs_->MarkRejected(job, 1, "bad");
  auto st = jobs_->Status(job).value()[0];
  EXPECT_EQ(st.rejected(), 3u);
  EXPECT_EQ(st.state(), qipu::v1::JOB_STATE_DONE);
  EXPECT_FALSE(jobs_->Grant("w", 0).value().has_value());
}

TEST_F(JobsTest, RestartRestoresJobsLeasesAndProgress) {
  const uint64_t job = jobs_->Submit(30, Config(9)).value();
  auto a = jobs_->Grant("a", 0).value();
  auto b = jobs_->Grant("b", 0).value();
  ASSERT_TRUE(a && b);
  // Store two games of lease a the way ingest does: games CF keys.
  store::WriteSet wb(store_.get());
  for (int i = 0; i < 2; ++i) {
    wb.Put(store::Records::kGames,
           store::GameKey(store::GameId::SelfPlay(job, a->indices[i])), "g");
  }
  ASSERT_TRUE(store_->Commit(&wb).ok());
  ASSERT_TRUE(jobs_->Return(b->id, "b").ok());
  jobs_->MarkRejected(job, 29, "bad");
  Close();
  Open();
  auto st = jobs_->Status(job).value()[0];
  EXPECT_EQ(st.done(), 2u);
  EXPECT_EQ(st.requested(), 30u);
  EXPECT_EQ(st.rejected(), 1u);
  EXPECT_EQ(st.open_leases(), 1u);
  // Lease a survives the restart and can be renewed.
  EXPECT_TRUE(jobs_->Renew(a->id, "a").ok());
  // What is handed out now: b's games and the never-issued ones, not a's.
  std::vector<uint64_t> got;
  while (auto l = jobs_->Grant("c", 0).value()) {
    got.insert(got.end(), l->indices.begin(), l->indices.end());
  }
  EXPECT_EQ(got.size(), 20u);
  for (uint64_t i : got) {
    EXPECT_EQ(std::count(a->indices.begin(), a->indices.end(), i), 0) << i;
  }
}

TEST_F(JobsTest, ACancelledJobHandsOutNothingAndEndsItsLeasesDurably) {
  const uint64_t job = jobs_->Submit(30, Config(9)).value();
  const uint64_t other = jobs_->Submit(10, Config(13)).value();
  auto a = jobs_->Grant("a", 0, job).value();
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(jobs_->queued_games(), 40u);
  auto st = jobs_->Cancel(job);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(st->state(), qipu::v1::JOB_STATE_CANCELLED);
  EXPECT_EQ(st->open_leases(), 0u);
  EXPECT_EQ(jobs_->open_leases(), 0);
  EXPECT_EQ(jobs_->queued_games(), 10u);
  // Its lease is gone: the worker's renewal tells it to stop.
  EXPECT_TRUE(absl::IsNotFound(jobs_->Renew(a->id, "a").status()));
  // Nothing of it is handed out; the other job still is.
  EXPECT_TRUE(absl::IsFailedPrecondition(jobs_->Grant("b", 0, job).status()));
  auto l = jobs_->Grant("b", 0).value();
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->job, other);
  // A game of it uploaded late is still counted.
  jobs_->MarkStored(job, a->indices[0]);
  EXPECT_EQ(jobs_->Status(job).value()[0].done(), 1u);
  // Cancelling again changes nothing; unknown and done jobs are refused.
  auto again = jobs_->Cancel(job);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->state(), qipu::v1::JOB_STATE_CANCELLED);
  EXPECT_TRUE(absl::IsNotFound(jobs_->Cancel(99).status()));
  for (uint64_t i = 0; i < 10; ++i) jobs_->MarkStored(other, i);
  auto done = jobs_->Cancel(other);
  EXPECT_TRUE(absl::IsFailedPrecondition(done.status())) << done.status();
  EXPECT_EQ(jobs_->Status(other).value()[0].state(), qipu::v1::JOB_STATE_DONE);
  // After a restart: still cancelled, no lease of it restored (only b's
  // lease of the other job, whose MarkStored() calls above stored no
  // games and so are not remembered).
  Close();
  Open();
  EXPECT_EQ(jobs_->Status(job).value()[0].state(),
            qipu::v1::JOB_STATE_CANCELLED);
  EXPECT_EQ(jobs_->open_leases(), 1);
  EXPECT_TRUE(jobs_->Renew(l->id, "b").ok());
  EXPECT_TRUE(absl::IsNotFound(jobs_->Renew(a->id, "a").status()));
  EXPECT_EQ(jobs_->queued_games(), 10u);
  EXPECT_TRUE(absl::IsFailedPrecondition(jobs_->Grant("c", 0, job).status()));
}

}  // namespace
}  // namespace qipu::coordinator
