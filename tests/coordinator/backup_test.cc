// Backups (store/backup.h, AdminService): a backup taken over gRPC while a
// worker's upload stream keeps storing games, restored into a new
// directory, holds exactly a prefix of the stream's acknowledged games --
// every game acknowledged before the backup was asked for, none written
// after it returned, no gaps (nothing torn) -- each readable and counted by
// the queries (indexed). Restores refuse to overwrite; verify finds a
// damaged file; backups into one directory are incremental.
#include "store/backup.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "base/channel.h"
#include "coordinator/coordinator.h"
#include "gtest/gtest.h"
#include "proto/convert.h"
#include "qipu/v1/admin.grpc.pb.h"
#include "qipu/v1/work.grpc.pb.h"
#include "rules/selfplay.h"
#include "store/game_id.h"
#include "store/keys.h"
#include "store/restore.h"
#include "tests/coordinator/query_fixture.h"

namespace qipu::coordinator {
namespace {

namespace fs = std::filesystem;
using testing::JobConfigFor;
using testing::TempDir;

std::unique_ptr<Coordinator> StartSmallIndex(const std::string& dir) {
  CoordinatorOptions o;
  o.db_dir = dir;
  o.listen = "127.0.0.1:0";
  o.store.block_cache_bytes = 16u << 20;
  o.store.sync = false;
  // Small index flushes: the backup copies ingested index files as well
  // as the buffered entries it flushes itself.
  o.store.index.flush_bytes = 64u << 10;
  o.ingest.max_batch = 16;
  auto c = Coordinator::Start(o);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? std::move(*c) : nullptr;
}

qipu::v1::Game PlayGame(const qipu::v1::JobConfig& config, uint64_t job,
                        uint64_t index) {
  rules::SelfPlaySpec spec;
  spec.width = spec.height = static_cast<int>(config.width());
  spec.rules = *wire::RulesFromProto(config.rules());
  spec.job_seed = config.seed();
  spec.index = index;
  rules::Game game(spec.width, spec.height, spec.rules);
  rules::SelfPlayOutcome outcome;
  EXPECT_TRUE(rules::PlaySelfPlay(spec, &game, &outcome).ok());
  qipu::v1::Game g;
  wire::SelfPlayToProto(game, spec, outcome, job, "backup-test", &g);
  return g;
}

// One worker's upload stream: writes games 0, 1, 2, ... of `job` (one per
// message) until told to stop, and records the acknowledgements.
class Uploader {
 public:
  Uploader(const std::string& address, const qipu::v1::JobConfig& config,
           uint64_t job, uint64_t max_games)
      : config_(config), job_(job), max_games_(max_games) {
    stub_ = qipu::v1::WorkService::NewStub(base::Dial(address));
    base::SetDeadline(&ctx_, absl::Seconds(120));
    stream_ = stub_->UploadGames(&ctx_);
    writer_ = std::thread([this] { Write(); });
    reader_ = std::thread([this] { Read(); });
  }
  ~Uploader() { Finish(); }

  // Games acknowledged as stored, in ack order.
  std::vector<uint64_t> Acked() const {
    absl::MutexLock lock(&mu_);
    return acked_;
  }
  // Games written to the stream so far.
  uint64_t Written() const {
    absl::MutexLock lock(&mu_);
    return written_;
  }
  // Blocks until `n` games are acknowledged (or the stream ended).
  void WaitAcked(size_t n) const {
    absl::MutexLock lock(&mu_);
    auto enough = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return acked_.size() >= n || ended_;
    };
    mu_.Await(absl::Condition(&enough));
  }
  // Writes `more` further games, then ends the stream and waits for every
  // ack.
  void StopAfter(uint64_t more) {
    {
      absl::MutexLock lock(&mu_);
      stop_at_ = std::min(max_games_, written_ + more);
    }
    Finish();
  }

 private:
  void Write() {
    for (;;) {
      uint64_t i = 0;
      {
        // At most kWindow games unacknowledged, as a worker's spool sends:
        // the stream keeps going at the ingest's pace until told to stop.
        absl::MutexLock lock(&mu_);
        auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
          return written_ >= std::min(stop_at_, max_games_) || ended_ ||
                 written_ < acked_.size() + kWindow;
        };
        mu_.Await(absl::Condition(&ready));
        if (written_ >= std::min(stop_at_, max_games_) || ended_) break;
        i = written_;
      }
      qipu::v1::GameUpload up;
      up.set_seq(i);
      *up.mutable_game() = PlayGame(config_, job_, i);
      if (!stream_->Write(up)) break;
      absl::MutexLock lock(&mu_);
      ++written_;
    }
    stream_->WritesDone();
  }
  void Read() {
    qipu::v1::GameAck ack;
    while (stream_->Read(&ack)) {
      EXPECT_EQ(ack.status(), qipu::v1::ACK_STATUS_STORED) << ack.reason();
      absl::MutexLock lock(&mu_);
      acked_.push_back(ack.seq());
    }
    absl::MutexLock lock(&mu_);
    ended_ = true;
  }
  void Finish() {
    if (writer_.joinable()) writer_.join();
    if (reader_.joinable()) {
      reader_.join();
      const grpc::Status s = stream_->Finish();
      EXPECT_TRUE(s.ok()) << s.error_message();
    }
  }

  static constexpr size_t kWindow = 32;
  const qipu::v1::JobConfig config_;
  const uint64_t job_;
  const uint64_t max_games_;
  std::unique_ptr<qipu::v1::WorkService::Stub> stub_;
  grpc::ClientContext ctx_;
  std::unique_ptr<
      grpc::ClientReaderWriter<qipu::v1::GameUpload, qipu::v1::GameAck>>
      stream_;
  mutable absl::Mutex mu_;
  std::vector<uint64_t> acked_ ABSL_GUARDED_BY(mu_);
  uint64_t written_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t stop_at_ ABSL_GUARDED_BY(mu_) = ~uint64_t{0};
  bool ended_ ABSL_GUARDED_BY(mu_) = false;
  std::thread writer_;
  std::thread reader_;
};

absl::StatusOr<qipu::v1::BackupResponse> BackupOver(const std::string& address,
                                                    const std::string& to) {
  auto stub = qipu::v1::AdminService::NewStub(base::Dial(address));
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, absl::Seconds(60));
  qipu::v1::BackupRequest req;
  req.set_to(to);
  qipu::v1::BackupResponse resp;
  const grpc::Status s = stub->Backup(&ctx, req, &resp);
  if (!s.ok()) {
    return absl::Status(static_cast<absl::StatusCode>(s.error_code()),
                        s.error_message());
  }
  return resp;
}

// The game indices of job `job` in the games column family of `store`.
std::vector<uint64_t> StoredIndices(store::Store& store, uint64_t job) {
  std::vector<uint64_t> out;
  store::Cursor it = store.Scan(store::Records::kGames);
  qipu::v1::Game g;
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    auto id = store::DecodeGameKey(it.key());
    EXPECT_TRUE(id.has_value());
    EXPECT_TRUE(g.ParseFromArray(it.value().data(),
                                 static_cast<int>(it.value().size())));
    if (id.has_value() && id->hi == job) out.push_back(id->lo);
  }
  EXPECT_TRUE(it.status().ok()) << it.status();
  return out;
}

TEST(Backup, TakenMidIngestRestoresExactlyTheAcknowledgedPrefix) {
  TempDir dir("backup");
  const std::string backups = dir.Sub("backups");
  const qipu::v1::JobConfig config = JobConfigFor(9, "chinese", 12, 4242);
  constexpr uint64_t kMaxGames = 50000;
  auto coord = StartSmallIndex(dir.Sub("db"));
  ASSERT_NE(coord, nullptr);
  auto job = coord->jobs().Submit(kMaxGames, config);
  ASSERT_TRUE(job.ok()) << job.status();

  Uploader up(coord->address(), config, *job, kMaxGames);
  up.WaitAcked(200);
  // Every game acknowledged before the backup is asked for must be in it;
  // no game written after it returned can be.
  const std::vector<uint64_t> acked_before = up.Acked();
  ASSERT_GE(acked_before.size(), 200u);
  auto resp = BackupOver(coord->address(), backups);
  const uint64_t written_after = up.Written();
  ASSERT_TRUE(resp.ok()) << resp.status();
  EXPECT_EQ(resp->backup().backup_id(), 1u);
  EXPECT_EQ(resp->backup().metadata(), store::BackupMetadata());
  // The stream goes on after the backup: the backup was taken mid-ingest.
  up.StopAfter(100);
  const std::vector<uint64_t> acked_all = up.Acked();
  ASSERT_GT(acked_all.size(), written_after);
  coord->Shutdown();
  coord.reset();

  auto verified = store::VerifyBackup(backups, 0);
  ASSERT_TRUE(verified.ok()) << verified.status();
  auto restored =
      store::RestoreBackup(backups, 0, dir.Sub("restored"), /*force=*/false);
  ASSERT_TRUE(restored.ok()) << restored.status();

  // The restored database, served by a coordinator of its own.
  auto back = testing::StartCoordinator(dir.Sub("restored"));
  ASSERT_NE(back, nullptr);
  std::vector<uint64_t> stored = StoredIndices(back->store(), *job);
  EXPECT_EQ(restored->games, stored.size());
  // A prefix 0..n-1 of the stream (acks come in order, commits too).
  for (size_t i = 0; i < stored.size(); ++i) ASSERT_EQ(stored[i], i);
  EXPECT_GE(stored.size(), acked_before.size());
  EXPECT_LE(stored.size(), written_after);
  for (uint64_t seq : acked_before) {
    EXPECT_LT(seq, stored.size()) << "acknowledged game " << seq << " lost";
  }
  // Each one readable, and counted by the aggregates and the position
  // index: the empty 9x9 board was reached by every game.
  for (uint64_t i : stored) {
    qipu::v1::GetGameRequest get;
    get.set_id(store::GameIdText(store::GameId::SelfPlay(*job, i)));
    auto g = back->queries().GetGame(get);
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_EQ(g->game().moves(), PlayGame(config, *job, i).moves());
  }
  qipu::v1::ResultsRequest results;
  results.mutable_filter()->set_source(absl::StrCat("job:", *job));
  auto r = back->queries().Results(results);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->outcomes().games(), stored.size());
  qipu::v1::OpeningsRequest openings;
  openings.mutable_filter()->set_width(9);
  openings.mutable_filter()->set_height(9);
  auto o = back->queries().Openings(openings);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->reached().games(), stored.size());
  // The restored job knows which of its games are stored: the rest are
  // handed out again.
  auto status = back->jobs().Status(*job);
  ASSERT_TRUE(status.ok() && status->size() == 1) << status.status();
  EXPECT_EQ((*status)[0].done(), stored.size());
}

TEST(Backup, IncrementalListVerifyAndRestoreRefusals) {
  TempDir dir("backup-ops");
  const std::string backups = dir.Sub("backups");
  auto coord = StartSmallIndex(dir.Sub("db"));
  ASSERT_NE(coord, nullptr);
  const qipu::v1::JobConfig config = JobConfigFor(9, "chinese", 8, 7);
  testing::PlayJob(*coord, config, 60);
  auto first = coord->store().Backup(backups);
  ASSERT_TRUE(first.ok()) << first.status();
  testing::PlayJob(*coord, config, 5);
  auto second = coord->store().Backup(backups);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->id, first->id + 1);

  auto list = store::ListBackups(backups);
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[1].id, second->id);
  // Incremental: the shared table files were copied once.
  uint64_t shared_bytes = 0;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(backups) /
                                                        "shared_checksum")) {
    if (e.is_regular_file()) shared_bytes += e.file_size();
  }
  EXPECT_LT(shared_bytes, first->bytes + second->bytes);

  // Bad paths over gRPC.
  auto relative = BackupOver(coord->address(), "relative/dir");
  EXPECT_EQ(relative.status().code(), absl::StatusCode::kInvalidArgument);
  auto inside = BackupOver(coord->address(), dir.Sub("db") + "/sub");
  EXPECT_EQ(inside.status().code(), absl::StatusCode::kInvalidArgument)
      << inside.status();
  // A symbolic link into the database is the database: real paths are
  // compared, over gRPC and in the store.
  fs::create_directory_symlink(dir.Sub("db"), dir.Sub("link"));
  auto linked = BackupOver(coord->address(), dir.Sub("link") + "/sub");
  EXPECT_EQ(linked.status().code(), absl::StatusCode::kInvalidArgument)
      << linked.status();
  EXPECT_NE(linked.status().message().find("overlaps the database"),
            std::string::npos)
      << linked.status();
  EXPECT_FALSE(fs::exists(dir.Sub("db") + "/sub"));
  EXPECT_EQ(coord->store().Backup(dir.Sub("link")).status().code(),
            absl::StatusCode::kInvalidArgument);

  // Restore refuses a database in use, a non-empty directory without
  // --force, and a directory that is not a database even with it.
  auto in_use = store::RestoreBackup(backups, 1, dir.Sub("db"), true);
  EXPECT_EQ(in_use.status().code(), absl::StatusCode::kUnavailable)
      << in_use.status();
  EXPECT_EQ(
      store::RestoreBackup(backups, 1, dir.Sub("db"), false).status().code(),
      absl::StatusCode::kFailedPrecondition);
  fs::create_directories(dir.Sub("other"));
  std::ofstream(dir.Sub("other") + "/notes.txt") << "keep me";
  auto other = store::RestoreBackup(backups, 1, dir.Sub("other"), true);
  EXPECT_EQ(other.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(fs::exists(dir.Sub("other") + "/notes.txt"));
  EXPECT_EQ(
      store::RestoreBackup(backups, 9, dir.Sub("new"), false).status().code(),
      absl::StatusCode::kNotFound);

  // Backup 1 into a new directory, then backup 2 over it with --force.
  auto one = store::RestoreBackup(backups, 1, dir.Sub("new"), false);
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(one->games, 60u);
  auto two = store::RestoreBackup(backups, 2, dir.Sub("new"), true);
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ(two->games, 65u);

  // A damaged shared file: verify names the backup.
  coord->Shutdown();
  std::string victim;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(backups) /
                                                        "shared_checksum")) {
    if (e.is_regular_file() && e.file_size() > 100) victim = e.path().string();
  }
  ASSERT_FALSE(victim.empty());
  {
    std::fstream f(victim, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(50);
    const char byte = static_cast<char>(f.get());
    f.seekp(50);
    f.put(static_cast<char>(~byte));
  }
  bool damaged = false;
  for (uint32_t id : {1u, 2u}) {
    auto v = store::VerifyBackup(backups, id);
    if (!v.ok()) {
      EXPECT_EQ(v.status().code(), absl::StatusCode::kDataLoss) << v.status();
      damaged = true;
    }
  }
  EXPECT_TRUE(damaged);
}

}  // namespace
}  // namespace qipu::coordinator
