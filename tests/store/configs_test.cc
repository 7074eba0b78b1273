// ConfigRegistry under concurrency, on a real RocksDB whose WAL syncs a
// test can hold back (a file system wrapper with a gate): lookups of known
// configurations do not wait for the fsync of a new one; a new id is handed
// out only once it is durable; concurrent interns of one tuple get one id
// and draw one counter value.
#include "store/configs.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "store/store.h"
#include "tests/common/temp_dir.h"

namespace qipu::store {
namespace {

// Holds back every sync of a WAL file (`*.log`) while closed.
// Thread-safe.
class WalGate {
 public:
  void Close() {
    absl::MutexLock lock(&mu_);
    closed_ = true;
  }
  void Open() {
    absl::MutexLock lock(&mu_);
    closed_ = false;
  }
  // Blocks while closed.
  void Pass() {
    absl::MutexLock lock(&mu_);
    ++waiting_;
    mu_.Await(absl::Condition(
        +[](bool* closed) { return !*closed; }, &closed_));
    --waiting_;
  }
  // Waits up to `timeout` until at least n syncs are held back.
  bool AwaitWaiting(int n, absl::Duration timeout) {
    absl::MutexLock lock(&mu_);
    auto enough = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return waiting_ >= n;
    };
    return mu_.AwaitWithTimeout(absl::Condition(&enough), timeout);
  }

 private:
  absl::Mutex mu_;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  int waiting_ ABSL_GUARDED_BY(mu_) = 0;
};

class GatedFileSystem : public rocksdb::FileSystemWrapper {
 public:
  explicit GatedFileSystem(std::shared_ptr<WalGate> gate)
      : rocksdb::FileSystemWrapper(rocksdb::FileSystem::Default()),
        gate_(std::move(gate)) {}
  const char* Name() const override { return "QipuGatedFileSystem"; }

  rocksdb::IOStatus NewWritableFile(const std::string& f,
                                    const rocksdb::FileOptions& o,
                                    std::unique_ptr<rocksdb::FSWritableFile>* r,
                                    rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = target()->NewWritableFile(f, o, r, dbg);
    if (s.ok() && absl::EndsWith(f, ".log")) {
      *r = std::make_unique<File>(std::move(*r), gate_);
    }
    return s;
  }

 private:
  class File : public rocksdb::FSWritableFileOwnerWrapper {
   public:
    File(std::unique_ptr<rocksdb::FSWritableFile> f,
         std::shared_ptr<WalGate> gate)
        : rocksdb::FSWritableFileOwnerWrapper(std::move(f)),
          gate_(std::move(gate)) {}
    rocksdb::IOStatus Sync(const rocksdb::IOOptions& o,
                           rocksdb::IODebugContext* dbg) override {
      gate_->Pass();
      return target()->Sync(o, dbg);
    }
    rocksdb::IOStatus Fsync(const rocksdb::IOOptions& o,
                            rocksdb::IODebugContext* dbg) override {
      gate_->Pass();
      return target()->Fsync(o, dbg);
    }

   private:
    std::shared_ptr<WalGate> gate_;
  };

  std::shared_ptr<WalGate> gate_;
};

qipu::v1::ConfigRecord Dims(double komi) {
  qipu::v1::ConfigRecord d;
  d.set_width(9);
  d.set_height(9);
  d.set_rules_key("ko=simple");
  d.set_komi(komi);
  d.set_source("job:1");
  d.set_policy("random");
  return d;
}

class ConfigRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    env_ = rocksdb::NewCompositeEnv(std::make_shared<GatedFileSystem>(gate_));
    StoreOptions o;
    o.env = env_.get();
    o.sync = true;
    auto s = Store::Open(tmp_.Sub("db"), o);
    ASSERT_TRUE(s.ok()) << s.status();
    store_ = *std::move(s);
    registry_ = std::make_unique<ConfigRegistry>(store_.get());
    ASSERT_TRUE(registry_->Load().ok());
  }
  void TearDown() override {
    gate_->Open();
    registry_.reset();
    store_.reset();
  }

  test_util::TempDir tmp_{"configs"};
  std::shared_ptr<WalGate> gate_ = std::make_shared<WalGate>();
  std::unique_ptr<rocksdb::Env> env_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<ConfigRegistry> registry_;
};

// Generous: only a broken registry comes near it.
constexpr absl::Duration kDeadline = absl::Seconds(60);

TEST_F(ConfigRegistryTest, LookupsDoNotWaitForTheFsyncOfANewConfig) {
  const auto known = registry_->Intern(Dims(7.5));
  ASSERT_TRUE(known.ok()) << known.status();

  gate_->Close();
  absl::StatusOr<uint32_t> fresh = absl::UnknownError("not yet");
  std::atomic<bool> fresh_done{false};
  std::thread writer([&] {
    fresh = registry_->Intern(Dims(6.5));
    fresh_done = true;
  });
  // The new config's write is in its fsync.
  ASSERT_TRUE(gate_->AwaitWaiting(1, kDeadline));
  // Another Intern() of the same tuple waits for that id.
  absl::StatusOr<uint32_t> again = absl::UnknownError("not yet");
  std::atomic<bool> again_done{false};
  std::thread same([&] {
    again = registry_->Intern(Dims(6.5));
    again_done = true;
  });

  // Lookups of what is known answer meanwhile.
  absl::Mutex mu;
  bool looked_up = false;
  std::thread reader([&] {
    EXPECT_EQ(registry_->Intern(Dims(7.5)).value_or(0), *known);
    EXPECT_TRUE(registry_->Get(*known).has_value());
    EXPECT_FALSE(registry_->Get(*known + 1).has_value());
    EXPECT_EQ(registry_->All().size(), 1u);
    absl::MutexLock lock(&mu);
    looked_up = true;
  });
  {
    absl::MutexLock lock(&mu);
    EXPECT_TRUE(mu.AwaitWithTimeout(absl::Condition(&looked_up), kDeadline))
        << "a lookup waited for another config's fsync";
  }
  // Nothing handed out the new id before it is on disk.
  EXPECT_FALSE(fresh_done.load());
  EXPECT_FALSE(again_done.load());

  gate_->Open();
  writer.join();
  same.join();
  reader.join();
  ASSERT_TRUE(fresh.ok()) << fresh.status();
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *fresh);
  EXPECT_NE(*fresh, *known);
  EXPECT_EQ(registry_->All().size(), 2u);
}

TEST_F(ConfigRegistryTest, ConcurrentInternsOfOneTupleDrawOneId) {
  constexpr int kThreads = 8;
  std::vector<absl::StatusOr<uint32_t>> ids(kThreads,
                                            absl::UnknownError("not run"));
  std::vector<std::thread> threads;
  std::atomic<bool> go{false};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      ids[t] = registry_->Intern(Dims(4.5));
    });
  }
  go = true;
  for (std::thread& t : threads) t.join();
  for (const auto& id : ids) {
    ASSERT_TRUE(id.ok()) << id.status();
    EXPECT_EQ(*id, *ids[0]);
  }
  // One counter value was drawn: the next tuple gets the next one.
  EXPECT_EQ(registry_->Intern(Dims(3.5)).value_or(0), *ids[0] + 1);
  EXPECT_EQ(registry_->All().size(), 2u);

  // And it is what a reopened registry reads.
  registry_.reset();
  ConfigRegistry reloaded(store_.get());
  ASSERT_TRUE(reloaded.Load().ok());
  EXPECT_EQ(reloaded.Intern(Dims(4.5)).value_or(0), *ids[0]);
  EXPECT_EQ(reloaded.All().size(), 2u);
}

}  // namespace
}  // namespace qipu::store
