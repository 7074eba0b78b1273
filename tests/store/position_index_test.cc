// PositionIndex on a real RocksDB in a temp dir: buffered entries are
// readable before and after a flush and never twice while one runs; keys
// fold within and across batches; many small batches stay few runs; a
// process that dies with entries only in memory loses none of them (the
// next open re-indexes its games, once); a file that made it in before the
// crash is not counted again; a full disk delays flushes without losing
// entries; a flush of many runs writes exactly the fold of their entries.
#include "store/position_index.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "proto/convert.h"
#include "rules/game.h"
#include "rules/rules.h"
#include "rules/selfplay.h"
#include "rules/symmetry.h"
#include "store/keys.h"
#include "store/position_value.h"
#include "store/store.h"
#include "tests/common/full_disk_fs.h"
#include "tests/common/store_test_peer.h"
#include "tests/common/temp_dir.h"

namespace qipu::store {
namespace {

using test_util::TempDir;

// A self-play game of job 1 as the coordinator stores it, and its index
// entries at `depth`.
struct TestGame {
  GameId id;
  std::string value;
  PositionOps ops;
  uint32_t plies = 0;
};

TestGame MakeGame(uint64_t index, int depth, uint32_t config, uint32_t day) {
  rules::SelfPlaySpec spec;
  spec.width = spec.height = 9;
  spec.rules = *rules::PresetRules("chinese");
  spec.job_seed = 77;
  spec.index = index;
  rules::Game game(9, 9, spec.rules);
  rules::SelfPlayOutcome outcome;
  EXPECT_TRUE(rules::PlaySelfPlay(spec, &game, &outcome).ok());
  qipu::v1::Game proto;
  wire::SelfPlayToProto(game, spec, outcome, 1, "test", &proto);
  TestGame t;
  t.id = GameId::SelfPlay(1, index);
  t.value = proto.SerializeAsString();
  auto record = wire::GameToRecord(proto);
  EXPECT_TRUE(record.ok());
  auto result = wire::ResultFromProto(proto.result());
  EXPECT_TRUE(result.ok());
  const int moves = static_cast<int>(record->moves.size());
  t.plies = static_cast<uint32_t>(std::min(depth, moves));
  IndexGameOps(*record, moves, depth, result->winner, t.id, config, day,
               &t.ops);
  return t;
}

// Commits `games` as the ingest committer does (games, unindexed record)
// and adds their entries to the index.
void Commit(Store* s, const std::vector<TestGame>& games, uint32_t config,
            uint32_t day) {
  rocksdb::WriteBatch wb;
  PositionOps ops;
  std::string unindexed;
  for (const TestGame& g : games) {
    wb.Put(StoreTestPeer::games(*s), GameKey(g.id), g.value);
    ops.Append(g.ops);
    AppendUnindexedGame({g.id, g.plies, config, day}, &unindexed);
  }
  const uint64_t batch = s->position_index().NextBatch();
  wb.Put(StoreTestPeer::meta(*s), UnindexedKey(batch), unindexed);
  ASSERT_TRUE(StoreTestPeer::Commit(*s, &wb).ok());
  s->position_index().Add(batch, &ops);
}

std::string EmptyBoardPrefix() {
  rules::Board empty(9, 9);
  return PositionPrefix(
      9, 9, rules::SymmetricHasher(empty).Canonical(rules::Color::kBlack).key);
}

// Games that reached the position of `prefix`, summed over every entry.
uint64_t Reached(const Store& s, const std::string& prefix) {
  uint64_t games = 0;
  EXPECT_TRUE(
      s.position_index()
          .ForEachUnderPrefix(prefix,
                              [&](absl::string_view, absl::string_view v) {
                                auto value = DecodePositionValue(v);
                                EXPECT_TRUE(value.ok());
                                if (value.ok()) {
                                  games += value->reached.games;
                                }
                                return true;
                              })
          .ok());
  return games;
}

// Unindexed-batch records left in the default column family.
int Records(const Store& s) {
  Cursor it = StoreTestPeer::NewCursor(
      s, StoreTestPeer::meta(s), {.prefix = std::string(1, kUnindexedTag)});
  int n = 0;
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    EXPECT_TRUE(DecodeUnindexedKey(it.key()).has_value());
    ++n;
  }
  EXPECT_TRUE(it.status().ok()) << it.status();
  return n;
}

StoreOptions Options() {
  StoreOptions o;
  o.sync = false;
  return o;
}

TEST(PositionIndex, UnindexedRecordsRoundTrip) {
  std::string value;
  const UnindexedGame a{GameId::SelfPlay(3, 1ULL << 40), 30, 7, 20261204};
  UnindexedGame b{GameId{GameId::Kind::kImported, ~0ULL, 12345}, 0, 1, 0};
  AppendUnindexedGame(a, &value);
  AppendUnindexedGame(b, &value);
  auto back = DecodeUnindexedGames(value);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, (std::vector<UnindexedGame>{a, b}));
  for (size_t n = 1; n < value.size(); ++n) {
    auto cut = DecodeUnindexedGames(value.substr(0, n));
    if (cut.ok()) {
      EXPECT_LT(cut->size(), 2u) << n;
    }
  }
  EXPECT_FALSE(DecodeUnindexedGames("\x07").ok());
}

TEST(PositionIndex, EntriesAreReadableBeforeAndAfterAFlushAndFold) {
  TempDir tmp("pindex");
  auto s = Store::Open(tmp.path() + "/db", Options());
  ASSERT_TRUE(s.ok()) << s.status();
  const std::string root = EmptyBoardPrefix();
  for (int b = 0; b < 4; ++b) {
    std::vector<TestGame> games;
    for (int i = 0; i < 25; ++i)
      games.push_back(MakeGame(b * 25 + i, 20, 1, 0));
    Commit(s->get(), games, 1, 0);
  }
  // One folded entry per run for the empty board, 100 games in all.
  EXPECT_EQ(Reached(**s, root), 100u);
  EXPECT_GT((*s)->position_index().stats().buffered_entries, 0u);
  ASSERT_TRUE((*s)->position_index().Flush().ok());
  EXPECT_EQ((*s)->position_index().stats().buffered_entries, 0u);
  EXPECT_EQ((*s)->position_index().stats().flushes, 1u);
  EXPECT_EQ(Reached(**s, root), 100u);
  EXPECT_EQ(Records(**s), 0);
  // In the file, the root is one entry: reached 100 times.
  auto raw =
      StoreTestPeer::Get(**s, StoreTestPeer::positions(**s),
                         PositionKey({9, 9,
                                      rules::SymmetricHasher(rules::Board(9, 9))
                                          .Canonical(rules::Color::kBlack)
                                          .key,
                                      1, 0}));
  ASSERT_TRUE(raw.ok());
  ASSERT_TRUE(raw->has_value());
  auto v = DecodePositionValue(**raw);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->reached.games, 100u);
  uint64_t continued = 0;
  for (const Continuation& c : v->continuations) continued += c.outcome.games;
  EXPECT_EQ(continued, 100u);
  // More games after the flush merge with the file's entry.
  Commit(s->get(), {MakeGame(500, 20, 1, 0)}, 1, 0);
  EXPECT_EQ(Reached(**s, root), 101u);
}

// `v` without its example games (which a merge may keep in either order).
PositionValue Counts(PositionValue v) {
  for (Continuation& c : v.continuations) c.examples.clear();
  return v;
}

TEST(PositionIndex, AFlushMergesManyRunsIntoExactlyTheFoldOfTheirEntries) {
  TempDir tmp("pindex");
  auto s = Store::Open(tmp.path() + "/db", Options());
  ASSERT_TRUE(s.ok()) << s.status();
  // 37 runs (not a power of two) of 1-4 games, many keys shared between
  // runs (every game starts from the empty board), some runs empty of
  // keys the others have.
  std::map<std::string, PositionValue> want;
  uint64_t index = 0;
  for (int b = 0; b < 37; ++b) {
    std::vector<TestGame> games;
    for (int i = 0; i <= b % 4; ++i) {
      games.push_back(MakeGame(index++, 10 + b % 25, 3, 0));
      games.back().ops.ForEach([&](absl::string_view k, absl::string_view v) {
        auto value = DecodePositionValue(v);
        ASSERT_TRUE(value.ok()) << value.status();
        MergePositionValues(&want[std::string(k)], *value);
      });
    }
    Commit(s->get(), games, 3, 0);
  }
  EXPECT_EQ((*s)->position_index().stats().runs, 37u);
  ASSERT_TRUE((*s)->position_index().Flush().ok());
  EXPECT_EQ((*s)->position_index().stats().flushes, 1u);

  // The file holds each key once, in order, with the fold of its values.
  Cursor it = StoreTestPeer::NewCursor(**s, StoreTestPeer::positions(**s));
  size_t seen = 0;
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    const std::string key(it.key());
    if (key == IndexWatermarkKey()) continue;
    auto w = want.find(key);
    ASSERT_NE(w, want.end()) << "a key no game has";
    auto got = DecodePositionValue(it.value());
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(Counts(*got), Counts(w->second));
    ++seen;
  }
  ASSERT_TRUE(it.status().ok()) << it.status();
  EXPECT_EQ(seen, want.size());
}

TEST(PositionIndex, ReadersNeverCountAnEntryTwiceDuringFlushes) {
  TempDir tmp("pindex");
  StoreOptions o = Options();
  o.index.flush_bytes = 64 << 10;  // a flush every few batches
  auto s = Store::Open(tmp.path() + "/db", o);
  ASSERT_TRUE(s.ok()) << s.status();
  const std::string root = EmptyBoardPrefix();
  // Games whose commit has begun / has returned: a reader must see at
  // least the latter and at most the former.
  std::atomic<uint64_t> begun{0};
  std::atomic<uint64_t> committed{0};
  std::atomic<bool> done{false};
  std::atomic<int> bad{0};
  std::thread reader([&] {
    while (!done.load()) {
      const uint64_t before = committed.load();
      const uint64_t seen = Reached(**s, root);
      const uint64_t after = begun.load();
      if (seen < before || seen > after) ++bad;
    }
  });
  for (int b = 0; b < 40; ++b) {
    std::vector<TestGame> games;
    for (int i = 0; i < 10; ++i)
      games.push_back(MakeGame(b * 10 + i, 30, 2, 0));
    begun += 10;
    Commit(s->get(), games, 2, 0);
    committed += 10;
    // Flushes by size come when the flusher thread gets to run (late on a
    // loaded machine); these come for sure, while the reader reads.
    if (b % 8 == 7) {
      ASSERT_TRUE((*s)->position_index().Flush().ok());
    }
  }
  ASSERT_TRUE((*s)->position_index().Flush().ok());
  done = true;
  reader.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_GE((*s)->position_index().stats().flushes, 5u);
  EXPECT_EQ(Reached(**s, root), 400u);
}

TEST(PositionIndex, ManySmallBatchesStayFewRuns) {
  TempDir tmp("pindex");
  auto s = Store::Open(tmp.path() + "/db", Options());
  ASSERT_TRUE(s.ok()) << s.status();
  for (int i = 0; i < 300; ++i) Commit(s->get(), {MakeGame(i, 30, 1, 0)}, 1, 0);
  EXPECT_LE((*s)->position_index().stats().runs, 48u);
  EXPECT_EQ(Reached(**s, EmptyBoardPrefix()), 300u);
}

TEST(PositionIndex, AProcessThatDiesWithBufferedEntriesLosesNone) {
  TempDir tmp("pindex");
  const std::string db = tmp.path() + "/db";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // The child commits 60 games (entries only in memory) and dies
    // without closing anything.
    auto s = Store::Open(db, Options());
    if (!s.ok()) _exit(2);
    for (int b = 0; b < 6; ++b) {
      std::vector<TestGame> games;
      for (int i = 0; i < 10; ++i)
        games.push_back(MakeGame(b * 10 + i, 30, 1, 0));
      Commit(s->get(), games, 1, 0);
    }
    if ((*s)->position_index().stats().flushes != 0) _exit(3);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  {
    auto s = Store::Open(db, Options());
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ((*s)->position_index().stats().recovered_games, 60u);
    EXPECT_EQ(Records(**s), 0);
    EXPECT_EQ(Reached(**s, EmptyBoardPrefix()), 60u);
  }
  // Reopening again re-indexes nothing more.
  auto s = Store::Open(db, Options());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->position_index().stats().recovered_games, 0u);
  EXPECT_EQ(Reached(**s, EmptyBoardPrefix()), 60u);
}

TEST(PositionIndex, ARecordLeftBehindAFlushedFileIsNotCountedAgain) {
  TempDir tmp("pindex");
  const std::string db = tmp.path() + "/db";
  std::string record;
  {
    auto s = Store::Open(db, Options());
    ASSERT_TRUE(s.ok()) << s.status();
    std::vector<TestGame> games;
    for (int i = 0; i < 5; ++i) games.push_back(MakeGame(i, 30, 1, 0));
    Commit(s->get(), games, 1, 0);
    auto r = StoreTestPeer::Get(**s, StoreTestPeer::meta(**s), UnindexedKey(1));
    ASSERT_TRUE(r.ok() && r->has_value());
    record = **r;
    ASSERT_TRUE((*s)->position_index().Flush().ok());
    // A crash between the file's ingestion and the record's deletion.
    ASSERT_TRUE(StoreTestPeer::Put(**s, StoreTestPeer::meta(**s),
                                   UnindexedKey(1), record)
                    .ok());
  }
  auto s = Store::Open(db, Options());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->position_index().stats().recovered_games, 0u);
  EXPECT_EQ(Records(**s), 0);
  EXPECT_EQ(Reached(**s, EmptyBoardPrefix()), 5u);
  // Batch numbers continue after the record's.
  EXPECT_GT((*s)->position_index().NextBatch(), 1u);
}

TEST(PositionIndex, AFullDiskDelaysFlushesWithoutLosingEntries) {
  TempDir tmp("pindex");
  auto fs = std::make_shared<testing::FullDiskFileSystem>();
  std::unique_ptr<rocksdb::Env> env = rocksdb::NewCompositeEnv(fs);
  StoreOptions o = Options();
  o.env = env.get();
  o.index.retry_after = absl::Milliseconds(20);
  o.index.max_bytes = 1024;  // one batch fills it
  auto s = Store::Open(tmp.path() + "/db", o);
  ASSERT_TRUE(s.ok()) << s.status();
  std::vector<TestGame> games;
  for (int i = 0; i < 20; ++i) games.push_back(MakeGame(i, 30, 1, 0));
  Commit(s->get(), games, 1, 0);
  fs->SetFull(true);
  const absl::Status failed = (*s)->position_index().Flush();
  EXPECT_FALSE(failed.ok());
  EXPECT_GE((*s)->position_index().stats().failed_flushes, 1u);
  // Still readable from memory; the store reports the failure, and the
  // full buffer refuses more batches instead of growing.
  EXPECT_EQ(Reached(**s, EmptyBoardPrefix()), 20u);
  EXPECT_TRUE((*s)->health().failing());
  EXPECT_TRUE((*s)->position_index().failing());
  const absl::Status room =
      (*s)->position_index().WaitForRoom(absl::Milliseconds(50));
  EXPECT_TRUE(absl::IsUnavailable(room)) << room;
  fs->SetFull(false);
  EXPECT_TRUE((*s)->position_index().Flush().ok());
  EXPECT_FALSE((*s)->health().failing());
  EXPECT_TRUE((*s)->position_index().WaitForRoom(absl::ZeroDuration()).ok());
  EXPECT_EQ((*s)->position_index().stats().buffered_entries, 0u);
  EXPECT_EQ(Reached(**s, EmptyBoardPrefix()), 20u);
}

// After RocksDB has recovered from a failed WAL write (one write refused
// as a full disk would; RocksDB resumes by itself), librocksdb 7.8 keeps
// its "stopped" flag and would abort in IngestExternalFile (file number
// 0): the index writes its entries in a write batch from then on.
TEST(PositionIndex, AFlushAfterARecoveredWriteErrorSucceeds) {
  TempDir tmp("pindex");
  auto fs = std::make_shared<testing::FullDiskFileSystem>();
  std::unique_ptr<rocksdb::Env> env = rocksdb::NewCompositeEnv(fs);
  StoreOptions o = Options();
  o.env = env.get();
  o.sync = true;
  auto s = Store::Open(tmp.path() + "/db", o);
  ASSERT_TRUE(s.ok()) << s.status();
  std::vector<TestGame> games;
  for (int i = 0; i < 20; ++i) games.push_back(MakeGame(i, 30, 1, 0));
  Commit(s->get(), games, 1, 0);
  fs->RefuseNext(1);
  rocksdb::WriteBatch wb;
  wb.Put(StoreTestPeer::games(**s), "refused", "refused");
  EXPECT_FALSE(StoreTestPeer::Commit(**s, &wb).ok());
  const absl::Time until = absl::Now() + absl::Seconds(60);
  while ((*s)->health().failing() && absl::Now() < until) {
    absl::SleepFor(absl::Milliseconds(20));
  }
  ASSERT_FALSE((*s)->health().failing()) << (*s)->health().Get();
  EXPECT_TRUE((*s)->health().stopped_once());
  const absl::Status flushed = (*s)->position_index().Flush();
  EXPECT_TRUE(flushed.ok()) << flushed;
  EXPECT_EQ(Reached(**s, EmptyBoardPrefix()), 20u);
  // Later batches too, and the entries survive a reopen.
  std::vector<TestGame> more;
  for (int i = 20; i < 30; ++i) more.push_back(MakeGame(i, 30, 1, 0));
  Commit(s->get(), more, 2, 0);
  const absl::Status again = (*s)->position_index().Flush();
  EXPECT_TRUE(again.ok()) << again;
  EXPECT_EQ(Reached(**s, EmptyBoardPrefix()), 30u);
  EXPECT_EQ((*s)->position_index().stats().failed_flushes, 0u);
  s->reset();
  auto reopened = Store::Open(tmp.path() + "/db", o);
  ASSERT_TRUE(reopened.ok()) << reopened.status();
  EXPECT_EQ(Reached(**reopened, EmptyBoardPrefix()), 30u);
}

}  // namespace
}  // namespace qipu::store
