// Store on a real RocksDB in a temp dir: column families, format version,
// merge operators under flush and compaction, counters, configs; commits
// against a simulated power loss (tests/common/power_loss_fs.h); a full
// disk RocksDB recovers from, and one it does not.
#include "store/store.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "store/configs.h"
#include "store/keys.h"
#include "store/position_value.h"
#include "tests/common/full_disk_fs.h"
#include "tests/common/power_loss_fs.h"
#include "tests/common/store_test_peer.h"

namespace qipu::store {
namespace {

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("qipu-store-" + std::to_string(std::random_device{}()));
    options_.sync = false;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::unique_ptr<Store> Open() {
    auto s = Store::Open(dir_.string(), options_);
    EXPECT_TRUE(s.ok()) << s.status();
    return s.ok() ? *std::move(s) : nullptr;
  }
  std::filesystem::path dir_;
  StoreOptions options_;
};

TEST_F(StoreTest, CreatesAndReopens) {
  {
    auto s = Open();
    ASSERT_NE(s, nullptr);
    rocksdb::WriteBatch b;
    b.Put(StoreTestPeer::games(*s), GameKey(GameId::SelfPlay(1, 1)), "game");
    ASSERT_TRUE(StoreTestPeer::Commit(*s, &b).ok());
  }
  auto s = Open();
  ASSERT_NE(s, nullptr);
  auto v = StoreTestPeer::Get(*s, StoreTestPeer::games(*s),
                              GameKey(GameId::SelfPlay(1, 1)));
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->value_or(""), "game");
  auto missing = StoreTestPeer::Get(*s, StoreTestPeer::games(*s),
                                    GameKey(GameId::SelfPlay(1, 2)));
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
}

TEST_F(StoreTest, RefusesAnotherFormatVersion) {
  {
    auto s = Open();
    ASSERT_NE(s, nullptr);
    ASSERT_TRUE(StoreTestPeer::Put(*s, StoreTestPeer::meta(*s),
                                   FormatVersionKey(), "999")
                    .ok());
  }
  auto s = Store::Open(dir_.string(), options_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.status().message().find("999"), std::string::npos);
}

TEST_F(StoreTest, SecondOpenOfTheSameDirectoryIsUnavailable) {
  auto s = Open();
  ASSERT_NE(s, nullptr);
  auto again = Store::Open(dir_.string(), options_);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), absl::StatusCode::kUnavailable);
}

TEST_F(StoreTest, ANewDatabaseGetsItsMissingParentFolders) {
  const std::filesystem::path nested = dir_ / "a" / "b" / "db";
  {
    auto s = Store::Open(nested.string(), options_);
    ASSERT_TRUE(s.ok()) << s.status();
  }
  EXPECT_TRUE(std::filesystem::exists(nested / "CURRENT"));
  // A parent that cannot be made (a file stands where a folder should)
  // is an error naming the database and the parent.
  std::filesystem::create_directories(dir_);
  { std::ofstream(dir_ / "file") << "x"; }
  const std::filesystem::path blocked = dir_ / "file" / "sub" / "db";
  auto s = Store::Open(blocked.string(), options_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.status().message().find(blocked.string()), std::string::npos)
      << s.status();
  EXPECT_NE(s.status().message().find("parent"), std::string::npos)
      << s.status();
}

TEST_F(StoreTest, PositionMergesSurviveFlushAndCompaction) {
  auto s = Open();
  ASSERT_NE(s, nullptr);
  PositionKeyParts parts;
  parts.width = parts.height = 9;
  parts.position = rules::Hash128{1, 2};
  parts.config_id = 1;
  const std::string key = PositionKey(parts);
  for (int i = 0; i < 300; ++i) {
    PositionValue v;
    v.reached.Add(i % 3 == 0 ? rules::Winner::kBlack : rules::Winner::kWhite);
    Continuation c;
    c.move = static_cast<uint16_t>(i % 4);
    c.outcome = v.reached;
    c.examples.push_back(GameId::SelfPlay(1, i));
    v.continuations.push_back(c);
    rocksdb::WriteBatch b;
    b.Merge(StoreTestPeer::positions(*s), key, EncodePositionValue(v));
    ASSERT_TRUE(StoreTestPeer::Commit(*s, &b).ok());
    if (i == 100) {
      ASSERT_TRUE(s->Flush().ok());
    }
  }
  // A corrupt operand is skipped, not fatal.
  rocksdb::WriteBatch junk;
  junk.Merge(StoreTestPeer::positions(*s), key, "\xff\xff\xff");
  ASSERT_TRUE(StoreTestPeer::Commit(*s, &junk).ok());
  for (int round = 0; round < 2; ++round) {
    auto raw = StoreTestPeer::Get(*s, StoreTestPeer::positions(*s), key);
    ASSERT_TRUE(raw.ok()) << raw.status();
    ASSERT_TRUE(raw->has_value());
    auto v = DecodePositionValue(**raw);
    ASSERT_TRUE(v.ok()) << v.status();
    EXPECT_EQ(v->reached.games, 300u);
    EXPECT_EQ(v->reached.black, 100u);
    ASSERT_EQ(v->continuations.size(), 4u);
    EXPECT_EQ(v->continuations[0].outcome.games, 75u);
    EXPECT_EQ(v->continuations[0].examples.front(), GameId::SelfPlay(1, 0));
    ASSERT_TRUE(s->Flush().ok());
    ASSERT_TRUE(StoreTestPeer::Compact(*s, StoreTestPeer::positions(*s)).ok());
  }
}

TEST_F(StoreTest, CountersAndUint64Merge) {
  auto s = Open();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->NextCounter("next_job").value(), 1u);
  EXPECT_EQ(s->NextCounter("next_job").value(), 2u);
  EXPECT_EQ(s->NextCounter("other").value(), 1u);
  const std::string k = JobCounterKey(1, JobCounter::kRejected);
  for (int i = 0; i < 5; ++i) {
    rocksdb::WriteBatch b;
    b.Merge(StoreTestPeer::jobs(*s), k, EncodeUint64Value(2));
    ASSERT_TRUE(StoreTestPeer::Commit(*s, &b).ok());
  }
  auto v = StoreTestPeer::Get(*s, StoreTestPeer::jobs(*s), k);
  ASSERT_TRUE(v.ok() && v->has_value());
  EXPECT_EQ(DecodeUint64Value(**v), 10u);
}

TEST_F(StoreTest, ConfigRegistryInternsDurably) {
  qipu::v1::ConfigRecord dims;
  dims.set_width(9);
  dims.set_height(9);
  dims.set_rules_key("ko=simple");
  dims.set_komi(7.5);
  dims.set_source("job:1");
  dims.set_policy("random");
  uint32_t id = 0;
  {
    auto s = Open();
    ConfigRegistry reg(s.get());
    ASSERT_TRUE(reg.Load().ok());
    id = reg.Intern(dims).value();
    EXPECT_EQ(reg.Intern(dims).value(), id);
    qipu::v1::ConfigRecord other = dims;
    other.set_komi(6.5);
    EXPECT_NE(reg.Intern(other).value(), id);
  }
  auto s = Open();
  ConfigRegistry reg(s.get());
  ASSERT_TRUE(reg.Load().ok());
  EXPECT_EQ(reg.Intern(dims).value(), id);
  EXPECT_EQ(reg.All().size(), 2u);
  ASSERT_TRUE(reg.Get(id).has_value());
  EXPECT_EQ(reg.Get(id)->source(), "job:1");
}

TEST_F(StoreTest, SizesReportEveryColumnFamily) {
  auto s = Open();
  const StoreSizes sizes = s->Sizes();
  EXPECT_EQ(sizes.column_families.size(), 7u);
}

TEST_F(StoreTest, PutDeleteAndContains) {
  auto s = Open();
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(StoreTestPeer::Put(*s, StoreTestPeer::jobs(*s), "a", "1").ok());
  ASSERT_TRUE(StoreTestPeer::Put(*s, StoreTestPeer::jobs(*s), "b", "2",
                                 Durability::kSync)
                  .ok());
  ASSERT_TRUE(StoreTestPeer::Put(*s, StoreTestPeer::jobs(*s), "c", "3",
                                 Durability::kNoSync)
                  .ok());
  ASSERT_TRUE(StoreTestPeer::Delete(*s, StoreTestPeer::jobs(*s), "b",
                                    Durability::kNoSync)
                  .ok());
  EXPECT_EQ(StoreTestPeer::Get(*s, StoreTestPeer::jobs(*s), "a")->value_or(""),
            "1");
  EXPECT_FALSE(
      StoreTestPeer::Get(*s, StoreTestPeer::jobs(*s), "b")->has_value());
  // Another family does not see them.
  EXPECT_FALSE(
      StoreTestPeer::Get(*s, StoreTestPeer::games(*s), "a")->has_value());
  auto found = StoreTestPeer::Contains(*s, StoreTestPeer::jobs(*s),
                                       {"c", "b", "a", "zz", "a"});
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, (std::vector<bool>{true, false, true, false, true}));
  auto none = StoreTestPeer::Contains(*s, StoreTestPeer::jobs(*s), {});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

// Cursors: whole families, prefixes (a seek below the prefix lands on its
// first key, none goes past it, a prefix of 0xff bytes has no upper bound),
// and the positions family (prefix extractor) read in total order.
TEST_F(StoreTest, CursorsScanFamiliesAndPrefixesInKeyOrder) {
  auto s = Open();
  ASSERT_NE(s, nullptr);
  const std::vector<std::string> keys = {"a",
                                         "b",
                                         "b\x01",
                                         "ba",
                                         "bb",
                                         "c",
                                         std::string("\xff", 1),
                                         std::string("\xff\xff", 2),
                                         std::string("\xff\xff\x01", 3)};
  rocksdb::WriteBatch wb;
  for (const std::string& k : keys) wb.Put(StoreTestPeer::jobs(*s), k, "v" + k);
  ASSERT_TRUE(StoreTestPeer::Commit(*s, &wb).ok());
  auto scan = [&](const ScanOptions& o, absl::string_view seek = {}) {
    std::vector<std::string> got;
    Cursor it = StoreTestPeer::NewCursor(*s, StoreTestPeer::jobs(*s), o);
    if (seek.empty()) {
      it.SeekToFirst();
    } else {
      it.Seek(seek);
    }
    for (; it.Valid(); it.Next()) {
      EXPECT_EQ(it.value(), "v" + std::string(it.key()));
      got.emplace_back(it.key());
    }
    EXPECT_TRUE(it.status().ok()) << it.status();
    return got;
  };
  EXPECT_EQ(scan({}), keys);
  EXPECT_EQ(scan({.prefix = "b"}),
            (std::vector<std::string>{"b", "b\x01", "ba", "bb"}));
  EXPECT_EQ(scan({.prefix = "b"}, "a"),
            (std::vector<std::string>{"b", "b\x01", "ba", "bb"}));
  EXPECT_EQ(scan({.prefix = "b"}, "b\x02"),
            (std::vector<std::string>{"ba", "bb"}));
  EXPECT_TRUE(scan({.prefix = "b"}, "c").empty());
  EXPECT_TRUE(scan({.prefix = "x"}).empty());
  EXPECT_EQ(scan({.prefix = std::string("\xff\xff", 2)}),
            (std::vector<std::string>{std::string("\xff\xff", 2),
                                      std::string("\xff\xff\x01", 3)}));
  EXPECT_EQ(
      scan({.prefix = "", .fill_cache = false, .readahead_bytes = 1u << 20}),
      keys);
  EXPECT_EQ(scan({}, "bb"),
            (std::vector<std::string>(keys.begin() + 4, keys.end())));

  // Positions of two boards, written as merges: a cursor sees all of them,
  // in key order, across the extractor's prefixes.
  rocksdb::WriteBatch pw;
  std::vector<std::string> positions;
  for (uint64_t h : {3, 1, 2}) {
    for (uint32_t config : {2u, 1u}) {
      const std::string key =
          PositionKey({9, 9, rules::Hash128{h, h}, config, 20240101});
      PositionValue v;
      v.reached.Add(rules::Winner::kBlack);
      pw.Merge(StoreTestPeer::positions(*s), key, EncodePositionValue(v));
      positions.push_back(key);
    }
  }
  ASSERT_TRUE(StoreTestPeer::Commit(*s, &pw).ok());
  std::sort(positions.begin(), positions.end());
  for (int round = 0; round < 2; ++round) {
    std::vector<std::string> got;
    Cursor it = StoreTestPeer::NewCursor(*s, StoreTestPeer::positions(*s));
    for (it.SeekToFirst(); it.Valid(); it.Next()) got.emplace_back(it.key());
    ASSERT_TRUE(it.status().ok()) << it.status();
    EXPECT_EQ(got, positions) << "round " << round;
    Cursor one = StoreTestPeer::NewCursor(
        *s, StoreTestPeer::positions(*s),
        {.prefix = PositionPrefix(9, 9, rules::Hash128{2, 2})});
    int n = 0;
    for (one.SeekToFirst(); one.Valid(); one.Next()) ++n;
    EXPECT_EQ(n, 2);
    ASSERT_TRUE(s->Flush().ok());
    ASSERT_TRUE(StoreTestPeer::Compact(*s, StoreTestPeer::positions(*s)).ok());
  }
}

// Point writes and health(): writes that succeed keep it healthy; after
// one fails, whatever its durability, health() reports the failure (the
// first one is the cause and stays while writes keep failing).
TEST_F(StoreTest, PointWritesRecordTheirOutcomeInHealth) {
  auto fs = std::make_shared<qipu::testing::FullDiskFileSystem>();
  std::unique_ptr<rocksdb::Env> env = qipu::testing::EnvOver(fs);
  options_.env = env.get();
  auto s = Open();
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(StoreTestPeer::Put(*s, StoreTestPeer::jobs(*s), "lease", "1",
                                 Durability::kNoSync)
                  .ok());
  ASSERT_TRUE(StoreTestPeer::Delete(*s, StoreTestPeer::jobs(*s), "lease",
                                    Durability::kSync)
                  .ok());
  EXPECT_FALSE(s->health().failing());
  fs->SetFull(true);
  const absl::Status failed = StoreTestPeer::Put(
      *s, StoreTestPeer::jobs(*s), "lease2", "2", Durability::kNoSync);
  EXPECT_TRUE(absl::IsResourceExhausted(failed)) << failed;
  EXPECT_TRUE(s->health().failing());
  const absl::Status why = s->health().Get();
  EXPECT_NE(why.message().find(dir_.string()), absl::string_view::npos) << why;
  EXPECT_NE(why.message().find("injected: no space left"),
            absl::string_view::npos)
      << why;
  EXPECT_FALSE(StoreTestPeer::Delete(*s, StoreTestPeer::jobs(*s), "lease2",
                                     Durability::kNoSync)
                   .ok());
  EXPECT_EQ(s->health().Get(), why);
  fs->SetFull(false);
}

// A Put of `key` in the games column family, committed.
absl::Status PutGame(Store& s, const std::string& key) {
  rocksdb::WriteBatch wb;
  wb.Put(StoreTestPeer::games(s), key, "value of " + key);
  return StoreTestPeer::Commit(s, &wb);
}

std::string GameValue(Store& s, const std::string& key) {
  auto v = StoreTestPeer::Get(s, StoreTestPeer::games(s), key);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? v->value_or("<absent>") : "<error>";
}

// Takes a counter and commits `n` games ("g0".."g<n-1>") on a store over
// a power-loss file system (WAL synced per commit or not), loses the
// power, and reopens what the disk kept. Returns the games and counter
// value found, and checks the harness dropped something.
struct AfterPowerLoss {
  int games = 0;
  uint64_t counter = 0;
};
AfterPowerLoss CommitThenLosePower(const std::filesystem::path& dir, bool sync,
                                   int n) {
  auto fs = std::make_shared<qipu::testing::PowerLossFileSystem>();
  std::unique_ptr<rocksdb::Env> env = qipu::testing::EnvOver(fs);
  StoreOptions o;
  o.env = env.get();
  o.sync = sync;
  AfterPowerLoss after;
  {
    auto s = Store::Open(dir.string(), o);
    EXPECT_TRUE(s.ok()) << s.status();
    if (!s.ok()) return after;
    // The counter first: its sync would make earlier commits durable too.
    EXPECT_EQ((*s)->NextCounter("c").value_or(0), 1u);
    for (int i = 0; i < n; ++i) {
      EXPECT_TRUE(PutGame(**s, absl::StrCat("g", i)).ok());
    }
    fs->PowerLoss();
    // Written after the loss: never on the disk.
    EXPECT_TRUE(PutGame(**s, "late").ok());
  }
  auto restored = fs->RestoreDurableState();
  EXPECT_TRUE(restored.ok()) << restored.status();
  if (restored.ok()) {
    EXPECT_GT(restored->bytes_dropped + restored->files_removed, 0);
  }
  StoreOptions plain;
  auto s = Store::Open(dir.string(), plain);
  EXPECT_TRUE(s.ok()) << s.status();
  if (!s.ok()) return after;
  for (int i = 0; i < n; ++i) {
    after.games += GameValue(**s, absl::StrCat("g", i)) != "<absent>";
  }
  EXPECT_EQ(GameValue(**s, "late"), "<absent>");
  after.counter = (*s)->NextCounter("c").value_or(0) - 1;
  return after;
}

TEST_F(StoreTest, CommitsAreDurableAgainstAPowerLossWhenSynced) {
  // Commit() returns once the batch's WAL record is synced: all of it is
  // there after the power goes, and so is the counter taken.
  const AfterPowerLoss after = CommitThenLosePower(dir_, /*sync=*/true, 50);
  EXPECT_EQ(after.games, 50);
  EXPECT_EQ(after.counter, 1u);
}

TEST_F(StoreTest, WithoutSyncCommitsAreLostInAPowerLossAndTheTestSeesIt) {
  // sync = false (--no-sync) keeps commits across a process crash only;
  // NextCounter() syncs anyway.
  const AfterPowerLoss after = CommitThenLosePower(dir_, /*sync=*/false, 50);
  EXPECT_LT(after.games, 50);
  EXPECT_EQ(after.counter, 1u);
}

// A store on a disk that fills up: writes fail cleanly and say why,
// nothing acknowledged is lost. Which way it recovers depends on what
// failed, and each test below makes one of them happen.
class FullDiskTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    env_ = qipu::testing::EnvOver(fs_);
    options_.env = env_.get();
    options_.sync = true;
    options_.resume_every = absl::ZeroDuration();
  }
  // The first write on the full disk: refused, and the store says why.
  void ExpectRefused(Store& s) {
    const absl::Status failed = PutGame(s, "during");
    EXPECT_TRUE(absl::IsResourceExhausted(failed)) << failed;
    ASSERT_TRUE(s.health().failing());
    const absl::Status why = s.health().Get();
    EXPECT_NE(why.message().find(dir_.string()), absl::string_view::npos)
        << why;
    EXPECT_NE(why.message().find("injected: no space left"),
              absl::string_view::npos)
        << why;
    EXPECT_EQ(GameValue(s, "before"), "value of before");
  }
  // Reopened without the fault, the database holds `want` (key -> value
  // or "<absent>") and takes writes.
  void ExpectReopened(const std::map<std::string, std::string>& want) {
    options_.env = nullptr;
    auto s = Open();
    ASSERT_NE(s, nullptr);
    for (const auto& [key, value] : want) {
      EXPECT_EQ(GameValue(*s, key), value) << key;
    }
    EXPECT_TRUE(PutGame(*s, "reopened").ok());
    EXPECT_FALSE(s->health().failing());
  }

  std::shared_ptr<qipu::testing::FullDiskFileSystem> fs_ =
      std::make_shared<qipu::testing::FullDiskFileSystem>();
  std::unique_ptr<rocksdb::Env> env_;
};

TEST_F(FullDiskTest, AFailedWalWriteStopsWritesUntilRocksDbRecovers) {
  // The disk is full for one write (its WAL append), and has room again at
  // once. RocksDB stops writes with an error it recovers from by itself:
  // its recovery (a flush into a new WAL) starts at once and succeeds;
  // until it has, writes are refused (Commit()'s own DB::Resume() is
  // Busy meanwhile). Then the next write goes through, never fatally.
  {
    auto s = Open();
    ASSERT_NE(s, nullptr);
    ASSERT_TRUE(PutGame(*s, "before").ok());
    fs_->RefuseNext(1);
    ExpectRefused(*s);
    const absl::Time until = absl::Now() + absl::Seconds(120);
    absl::Status after;
    for (;;) {
      after = PutGame(*s, "after");
      if (after.ok() || absl::Now() > until) break;
      EXPECT_TRUE(absl::IsResourceExhausted(after)) << after;
      EXPECT_FALSE(s->health().fatal()) << s->health().Get();
      absl::SleepFor(absl::Milliseconds(20));
    }
    EXPECT_TRUE(after.ok()) << after;
    EXPECT_FALSE(s->health().failing()) << s->health().Get();
    EXPECT_FALSE(s->health().fatal());
    EXPECT_EQ(GameValue(*s, "after"), "value of after");
    EXPECT_EQ(fs_->refused(), 1);
  }
  ExpectReopened({{"before", "value of before"},
                  {"during", "<absent>"},
                  {"after", "value of after"}});
}

TEST_F(FullDiskTest, AFailedWalSwitchIsFatalAndLosesNothingAcknowledged) {
  // The disk stays full. A flush cannot create the memtable's new WAL (nor
  // can RocksDB's own recovery attempt, or a memtable filling up): RocksDB
  // does not resume from that, the store reports it as fatal, and the
  // coordinator exits for its supervisor to restart it.
  // Writes keep failing cleanly however often they are tried, space or
  // not; a reopen brings them back, with everything acknowledged before.
  {
    auto s = Open();
    ASSERT_NE(s, nullptr);
    ASSERT_TRUE(PutGame(*s, "before").ok());
    fs_->SetFull(true);
    ExpectRefused(*s);
    EXPECT_FALSE(s->Flush().ok());
    // (RocksDB's own recovery attempt, which runs on a thread of its own,
    // may be the one that fails first.)
    const absl::Time until = absl::Now() + absl::Seconds(60);
    while (!s->health().fatal() && absl::Now() < until) {
      absl::SleepFor(absl::Milliseconds(10));
    }
    EXPECT_TRUE(s->health().fatal()) << s->health().Get();
    for (int i = 0; i < 5; ++i) EXPECT_FALSE(PutGame(*s, "again").ok());
    fs_->SetFull(false);
    for (int i = 0; i < 5; ++i) EXPECT_FALSE(PutGame(*s, "after").ok());
    EXPECT_TRUE(s->health().fatal());
    EXPECT_TRUE(s->health().failing());
    EXPECT_EQ(GameValue(*s, "before"), "value of before");
  }
  ExpectReopened({{"before", "value of before"},
                  {"during", "<absent>"},
                  {"again", "<absent>"},
                  {"after", "<absent>"}});
}

}  // namespace
}  // namespace qipu::store
