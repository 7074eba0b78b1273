// TrainingService on a real Coordinator (127.0.0.1, temp-dir RocksDB,
// self-play games stored through the real ingest path): the batches over
// gRPC equal the rows `qipu train export --db` computes in-process, byte
// for byte; a stream stopped after any batch and resumed from its cursor
// sends every row exactly once; the recent-games window, the cycle and
// void selections; bad requests get INVALID_ARGUMENT naming the field; a
// cancelled stream frees its memory budget.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "backend/training_client.h"
#include "base/channel.h"
#include "base/files.h"
#include "engine/training.h"
#include "gtest/gtest.h"
#include "tests/coordinator/query_fixture.h"
#include "train/npz_writer.h"
#include "train/row_batch.h"

namespace qipu::coordinator::testing {
namespace {

// Every row of a stream, concatenated, and the cursor after each batch.
struct Pulled {
  train::RowBatch rows{19};
  std::vector<std::string> cursors;
  uint64_t games_done = 0;
};

// Pulls `req` from `target`, stopping (as a killed client would) after
// `stop_after` batches when > 0.
absl::StatusOr<Pulled> Pull(const backend::Target& target,
                            const qipu::v1::TrainingRequest& req,
                            int stop_after = 0) {
  Pulled out;
  out.rows = train::RowBatch(req.pos_len() == 0 ? 19 : req.pos_len());
  auto stats = backend::PullTrainingBatches(
      target, req,
      [&](const train::RowBatch& rows, const std::string& cursor,
          uint64_t games_done) {
        for (int r = 0; r < rows.rows(); ++r) out.rows.AppendRowFrom(rows, r);
        out.cursors.push_back(cursor);
        out.games_done = games_done;
        if (stop_after > 0 &&
            static_cast<int>(out.cursors.size()) == stop_after) {
          return absl::CancelledError("the test's client stops here");
        }
        return absl::OkStatus();
      },
      absl::Seconds(60));
  if (!stats.ok() && !(stop_after > 0 && absl::IsCancelled(stats.status()))) {
    return stats.status();
  }
  return out;
}

// True when the two batches hold the same rows, every member byte-equal.
bool SameRows(const train::RowBatch& a, const train::RowBatch& b) {
  if (a.rows() != b.rows() || a.pos_len() != b.pos_len()) return false;
  const auto x = train::BatchArrays(a);
  const auto y = train::BatchArrays(b);
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].data.size() != y[i].data.size() ||
        !std::equal(x[i].data.begin(), x[i].data.end(), y[i].data.begin())) {
      ADD_FAILURE() << "member " << x[i].name << " differs";
      return false;
    }
  }
  return true;
}

// (game hi, game lo, turn) of every row.
std::multiset<std::tuple<uint64_t, uint64_t, uint64_t>> RowKeys(
    const train::RowBatch& b) {
  std::multiset<std::tuple<uint64_t, uint64_t, uint64_t>> out;
  for (int r = 0; r < b.rows(); ++r) {
    const uint64_t* id = const_cast<train::RowBatch&>(b).row_ids(r);
    out.insert({id[1], id[2], id[3]});
  }
  return out;
}

class TrainingServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    coordinator_ = StartCoordinator(dir_.path() + "/db");
    ASSERT_NE(coordinator_, nullptr);
    job_ = PlayJob(*coordinator_, JobConfigFor(9, "chinese", 10, 41), kGames);
    server_.server = coordinator_->address();
    db_.db = dir_.path() + "/db";
  }

  qipu::v1::TrainingRequest Request() const {
    qipu::v1::TrainingRequest req;
    req.set_pos_len(19);
    req.set_symmetries(8);
    req.set_seed(7);
    req.set_positions_per_game(12);
    req.set_batch_size(64);
    req.set_shuffle_window(300);
    return req;
  }

  static constexpr uint64_t kGames = 40;
  TempDir dir_{"training-service"};
  std::unique_ptr<Coordinator> coordinator_;
  uint64_t job_ = 0;
  backend::Target server_;
  backend::Target db_;
};

TEST_F(TrainingServiceTest, BatchesOverGrpcEqualTheRowsOfTheDatabase) {
  auto remote = Pull(server_, Request());
  ASSERT_TRUE(remote.ok()) << remote.status();
  EXPECT_EQ(remote->games_done, kGames);
  EXPECT_EQ(remote->rows.rows(), static_cast<int>(kGames) * 12);
  // The games' own order (when stored) with recency weights, too.
  qipu::v1::TrainingRequest dated = Request();
  dated.set_order(qipu::v1::TRAINING_ORDER_DATE);
  dated.set_weight_by("recency");
  auto remote_dated = Pull(server_, dated);
  ASSERT_TRUE(remote_dated.ok()) << remote_dated.status();
  EXPECT_EQ(remote_dated->games_done, kGames);
  coordinator_.reset();  // --db needs the database to itself.
  qipu::v1::TrainingRequest req = Request();
  req.set_batch_size(1000);  // Batching does not change the rows.
  auto local = Pull(db_, req);
  ASSERT_TRUE(local.ok()) << local.status();
  EXPECT_TRUE(SameRows(remote->rows, local->rows));
  dated.set_batch_size(1000);
  auto local_dated = Pull(db_, dated);
  ASSERT_TRUE(local_dated.ok()) << local_dated.status();
  EXPECT_TRUE(SameRows(remote_dated->rows, local_dated->rows));
  // Recency weights: from 2/41 (the first stored game) to 80/41, mean 1.
  double sum = 0;
  float lo = 1e9f;
  float hi = 0;
  for (int r = 0; r < local_dated->rows.rows(); ++r) {
    const float w = local_dated->rows.global_targets(r)[train::gtg::kRowWeight];
    sum += w;
    lo = std::min(lo, w);
    hi = std::max(hi, w);
  }
  EXPECT_NEAR(sum / local_dated->rows.rows(), 1.0, 1e-4);
  EXPECT_FLOAT_EQ(lo, 2.0f / 41);
  EXPECT_FLOAT_EQ(hi, 80.0f / 41);
  // And the .npz files of the two are the same bytes.
  TempDir files("training-npz");
  ASSERT_TRUE(train::WriteBatchNpz(remote->rows, files.path() + "/a.npz",
                                   train::NpzCompression::kDeflate,
                                   train::NpzMembers::kAll)
                  .ok());
  ASSERT_TRUE(train::WriteBatchNpz(local->rows, files.path() + "/b.npz",
                                   train::NpzCompression::kDeflate,
                                   train::NpzMembers::kAll)
                  .ok());
  EXPECT_EQ(base::ReadFile(files.path() + "/a.npz").value_or("a"),
            base::ReadFile(files.path() + "/b.npz").value_or("b"));
}

TEST_F(TrainingServiceTest, AStreamResumedFromItsCursorSendsEveryRowOnce) {
  auto full = Pull(server_, Request());
  ASSERT_TRUE(full.ok()) << full.status();
  const int batches = static_cast<int>(full->cursors.size());
  ASSERT_GE(batches, 5);
  for (const int stop : {1, 2, batches / 2, batches - 1}) {
    SCOPED_TRACE(stop);
    auto first = Pull(server_, Request(), stop);
    ASSERT_TRUE(first.ok()) << first.status();
    ASSERT_EQ(static_cast<int>(first->cursors.size()), stop);
    qipu::v1::TrainingRequest again = Request();
    again.set_cursor(first->cursors.back());
    again.set_batch_size(50);  // A restarted trainer may change it.
    auto rest = Pull(server_, again);
    ASSERT_TRUE(rest.ok()) << rest.status();
    train::RowBatch both = first->rows;
    for (int r = 0; r < rest->rows.rows(); ++r) {
      both.AppendRowFrom(rest->rows, r);
    }
    // Exactly the rows of the uninterrupted stream, in its order.
    EXPECT_EQ(RowKeys(both), RowKeys(full->rows));
    EXPECT_TRUE(SameRows(both, full->rows));
  }
  // The cursor after the last batch: nothing is left.
  qipu::v1::TrainingRequest done = Request();
  done.set_cursor(full->cursors.back());
  auto none = Pull(server_, done);
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_EQ(none->rows.rows(), 0);
}

TEST_F(TrainingServiceTest, TheRecentWindowTakesTheLastGamesOfTheSelection) {
  qipu::v1::TrainingRequest req = Request();
  req.set_recent_games(10);
  req.mutable_filter()->set_source(absl::StrCat("job:", job_));
  auto pulled = Pull(server_, req);
  ASSERT_TRUE(pulled.ok()) << pulled.status();
  EXPECT_EQ(pulled->games_done, 10u);
  std::set<uint64_t> indices;
  for (const auto& [hi, lo, turn] : RowKeys(pulled->rows)) {
    EXPECT_EQ(hi, job_);
    indices.insert(lo);
  }
  EXPECT_EQ(indices.size(), 10u);
  EXPECT_EQ(*indices.begin(), kGames - 10);
  EXPECT_EQ(*indices.rbegin(), kGames - 1);
}

TEST_F(TrainingServiceTest, CycleAndVoidSelectionsFollowTheStoredGames) {
  uint64_t with_cycles = 0;
  uint64_t voids = 0;
  for (const StoredGame& g : StoredGames(coordinator_->store())) {
    if (g.game.cycles_size() + g.game.voided_cycles_size() > 0) ++with_cycles;
    const auto w = g.game.result().winner();
    if (w == qipu::v1::WINNER_NONE || w == qipu::v1::WINNER_UNSPECIFIED) {
      ++voids;
    }
  }
  qipu::v1::TrainingRequest req = Request();
  req.set_cycles(qipu::v1::CYCLE_SELECTION_WITH);
  auto with = Pull(server_, req);
  ASSERT_TRUE(with.ok()) << with.status();
  req.set_cycles(qipu::v1::CYCLE_SELECTION_WITHOUT);
  auto without = Pull(server_, req);
  ASSERT_TRUE(without.ok()) << without.status();
  EXPECT_EQ(with->games_done, with_cycles);
  EXPECT_EQ(without->games_done, kGames - with_cycles);
  req.set_cycles(qipu::v1::CYCLE_SELECTION_ANY);
  req.set_drop_void(true);
  auto decided = Pull(server_, req);
  ASSERT_TRUE(decided.ok()) << decided.status();
  EXPECT_EQ(decided->games_done, kGames - voids);
  // A filter that matches nothing: an empty stream, not an error.
  req.mutable_filter()->set_source("job:999999");
  auto nothing = Pull(server_, req);
  ASSERT_TRUE(nothing.ok()) << nothing.status();
  EXPECT_EQ(nothing->rows.rows(), 0);
}

TEST_F(TrainingServiceTest, BadRequestsAreInvalidArgumentNamingTheField) {
  struct Case {
    const char* field;
    std::function<void(qipu::v1::TrainingRequest*)> edit;
  };
  const std::string other_cursor = [&] {
    qipu::v1::TrainingRequest r = Request();
    r.set_seed(8);
    auto p = Pull(server_, r, 1);
    return p.ok() && !p->cursors.empty() ? p->cursors[0] : std::string("x");
  }();
  const std::vector<Case> cases = {
      {"batch_size", [](auto* r) { r->set_batch_size(0); }},
      {"batch_size", [](auto* r) { r->set_batch_size(100000); }},
      {"batch_size", [](auto* r) { r->set_batch_size(8000); }},
      {"shuffle_window", [](auto* r) { r->set_shuffle_window(1u << 24); }},
      {"pos_len",
       [](auto* r) {
         r->set_pos_len(7);
         r->mutable_filter()->set_width(9);
         r->mutable_filter()->set_height(9);
       }},
      {"pos_len", [](auto* r) { r->set_pos_len(40); }},
      // 9x9 games, no size in the filter: refused, not thinned silently.
      {"pos_len 7 is smaller than the 9x9 boards of 40 of the 40",
       [](auto* r) { r->set_pos_len(7); }},
      {"order",
       [](auto* r) { r->set_order(static_cast<qipu::v1::TrainingOrder>(7)); }},
      {"weight_by", [](auto* r) { r->set_weight_by("recency"); }},
      {"symmetries", [](auto* r) { r->set_symmetries(3); }},
      {"filter", [](auto* r) { r->mutable_filter()->set_rules("ko=bogus"); }},
      {"filter", [](auto* r) { r->mutable_filter()->set_date_from(20261399); }},
      {"cycles",
       [](auto* r) {
         r->set_cycles(static_cast<qipu::v1::CycleSelection>(9));
       }},
      {"cursor", [](auto* r) { r->set_cursor("not a cursor"); }},
      {"cursor", [&](auto* r) { r->set_cursor(other_cursor); }},
  };
  for (const Case& c : cases) {
    qipu::v1::TrainingRequest req = Request();
    c.edit(&req);
    auto pulled = Pull(server_, req);
    ASSERT_FALSE(pulled.ok()) << c.field;
    EXPECT_TRUE(absl::IsInvalidArgument(pulled.status()))
        << c.field << ": " << pulled.status();
    EXPECT_NE(pulled.status().message().find(c.field), std::string::npos)
        << pulled.status();
  }
}

TEST(TrainingServiceBudget, ACancelledStreamFreesItsMemory) {
  TempDir dir("training-budget");
  CoordinatorOptions o;
  o.db_dir = dir.path() + "/db";
  o.store.sync = false;
  // Room for one stream with a 20,000-row window at pos_len 19 (~5.6 KB a
  // row), not two. The first stream's rows (~25 MB) are more than gRPC's
  // flow-control windows, so it cannot finish while its client waits.
  const int64_t one = (20000 + 512 + 2 * 8) * train::RowShape{19}.row_bytes();
  o.training.memory_budget_bytes = one + one / 2;
  auto c = Coordinator::Start(o);
  ASSERT_TRUE(c.ok()) << c.status();
  PlayJob(**c, JobConfigFor(9, "chinese", 10, 5), 60);
  qipu::v1::TrainingRequest req;
  req.set_pos_len(19);
  req.set_batch_size(8);
  req.set_shuffle_window(20000);
  const backend::Target target{(*c)->address(), "", absl::Seconds(30)};

  // A stream held open (its client reads one batch and waits) ...
  auto stub = qipu::v1::TrainingService::NewStub(base::Dial(target.server));
  auto ctx = std::make_unique<grpc::ClientContext>();
  auto reader = stub->Batches(ctx.get(), req);
  qipu::v1::TrainingBatch batch;
  ASSERT_TRUE(reader->Read(&batch));
  // ... leaves no room for a second one.
  auto second = Pull(target, req);
  ASSERT_FALSE(second.ok());
  EXPECT_TRUE(absl::IsResourceExhausted(second.status())) << second.status();
  // Cancelled, it gives its memory back: a new stream runs to the end.
  ctx->TryCancel();
  while (reader->Read(&batch)) {
  }
  reader->Finish();
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  absl::StatusOr<Pulled> third = absl::UnknownError("not tried");
  do {
    third = Pull(target, req);
  } while (!third.ok() && absl::IsResourceExhausted(third.status()) &&
           absl::Now() < deadline &&
           (absl::SleepFor(absl::Milliseconds(20)), true));
  ASSERT_TRUE(third.ok()) << third.status();
  EXPECT_EQ(third->games_done, 60u);
}

}  // namespace
}  // namespace qipu::coordinator::testing
