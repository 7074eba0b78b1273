// Tests of worker/spool.h: append/ack/reload, batched appends and acks
// (same bytes as one at a time), a log written by the first release (the
// v1 format, byte for byte), duplicates, the lock, torn tails, damaged
// records, crash-restart equivalence (every truncation of the log reopens
// as the state after its last whole record), compaction, a failed batched
// write retried, and a writer process killed mid-append.
#include "worker/spool.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/worker/test_util.h"

namespace qipu::worker {
namespace {

using testing::ReadAll;
using testing::TempDir;
using testing::WriteAll;

// A game with made-up bytes (the spool does not parse games).
FinishedGame Fake(uint64_t job, uint64_t index, size_t size = 0) {
  FinishedGame g;
  g.key = GameKey{job, index};
  g.lease_id = absl::StrCat("lease-", job);
  if (size == 0) size = 20 + (index * 37) % 300;
  g.game.resize(size);
  for (size_t i = 0; i < size; ++i) {
    g.game[i] = static_cast<char>((index * 131 + i * 7) & 0xFF);
  }
  return g;
}

std::unique_ptr<Spool> OpenAt(const std::string& dir,
                              int64_t compact_min_bytes = int64_t{4} << 20) {
  SpoolOptions o;
  o.dir = dir;
  o.compact_min_bytes = compact_min_bytes;
  absl::StatusOr<std::unique_ptr<Spool>> s = Spool::Open(o);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : nullptr;
}

std::vector<uint64_t> Indices(const Spool& s) {
  std::vector<uint64_t> out;
  for (const GameKey& k : s.PendingKeys()) out.push_back(k.index);
  return out;
}

TEST(Spool, AppendAckReload) {
  TempDir tmp;
  const std::string dir = tmp.Sub("spool");
  {
    auto s = OpenAt(dir);
    ASSERT_NE(s, nullptr);
    for (uint64_t i = 0; i < 10; ++i) {
      absl::StatusOr<bool> added = s->Append(Fake(1, i));
      ASSERT_TRUE(added.ok() && *added);
    }
    ASSERT_TRUE(s->Sync().ok());
    ASSERT_TRUE(s->Ack(GameKey{1, 3}).ok());
    ASSERT_TRUE(s->Ack(GameKey{1, 0}).ok());
    ASSERT_TRUE(s->Ack(GameKey{1, 9}).ok());
    EXPECT_EQ(s->pending(), 7u);
  }
  auto s = OpenAt(dir);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Indices(*s), (std::vector<uint64_t>{1, 2, 4, 5, 6, 7, 8}));
  EXPECT_EQ(s->stats().recovered, 7u);
  EXPECT_EQ(s->stats().torn_bytes, 0);
  EXPECT_EQ(s->stats().skipped_records, 0);
  for (uint64_t i : Indices(*s)) {
    absl::StatusOr<SpooledGame> g = s->Get(GameKey{1, i});
    ASSERT_TRUE(g.ok());
    EXPECT_EQ((*g)->game, Fake(1, i).game);
    EXPECT_EQ((*g)->lease_id, "lease-1");
  }
  EXPECT_TRUE(absl::IsNotFound(s->Get(GameKey{1, 3}).status()));
  EXPECT_FALSE(std::filesystem::exists(dir + "/spool.log.damaged"));
}

// A log written by the first release of the spool (format v1): games 0-3
// of job 7 (game 2 with an empty lease id, game 3 with 200 bytes of 'x'),
// then the ack of game 1. Captured from that code, not from this one.
std::string FirstReleaseLog() {
  return std::string(
             "\x51\x49\x50\x55\x53\x50\x4c\x00\x01\x00\x00\x00\x00\x00\x00\x00"
             "\x51\x50\x53\x52\x22\x00\x00\x00\xbf\x10\x47\x9c\x01\x07\x00\x00"
             "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x07\x00\x00"
             "\x00\x6c\x65\x61\x73\x65\x2d\x37\x67\x61\x6d\x65\x20\x30\x51\x50"
             "\x53\x52\x22\x00\x00\x00\x31\x88\x7c\x0b\x01\x07\x00\x00\x00\x00"
             "\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x07\x00\x00\x00\x6c"
             "\x65\x61\x73\x65\x2d\x37\x67\x61\x6d\x65\x20\x31\x51\x50\x53\x52"
             "\x1b\x00\x00\x00\x13\xab\xc0\x84\x01\x07\x00\x00\x00\x00\x00\x00"
             "\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x67\x61\x6d"
             "\x65\x20\x32\x51\x50\x53\x52\xe4\x00\x00\x00\x1d\x03\xe1\x01\x01"
             "\x07\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00"
             "\x07\x00\x00\x00\x6c\x65\x61\x73\x65\x2d\x37",
             187) +
         std::string(200, 'x') +
         std::string(
             "\x51\x50\x53\x52\x11\x00\x00\x00\xa1\xde\x54\xf7\x02\x07\x00\x00"
             "\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00",
             29);
}

// The games of FirstReleaseLog().
std::vector<FinishedGame> FirstReleaseGames() {
  std::vector<FinishedGame> games;
  for (uint64_t i = 0; i < 4; ++i) {
    FinishedGame g;
    g.key = GameKey{7, i};
    g.lease_id = i == 2 ? "" : "lease-7";
    g.game = i == 3 ? std::string(200, 'x') : absl::StrCat("game ", i);
    games.push_back(g);
  }
  return games;
}

TEST(Spool, ReadsALogWrittenByTheFirstRelease) {
  TempDir tmp;
  const std::string dir = tmp.Sub("spool");
  std::filesystem::create_directory(dir);
  WriteAll(dir + "/spool.log", FirstReleaseLog());
  auto s = OpenAt(dir);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Indices(*s), (std::vector<uint64_t>{0, 2, 3}));
  EXPECT_EQ(s->stats().torn_bytes, 0);
  EXPECT_EQ(s->stats().skipped_records, 0);
  const std::vector<FinishedGame> want = FirstReleaseGames();
  for (uint64_t i : {0, 2, 3}) {
    absl::StatusOr<SpooledGame> g = s->Get(GameKey{7, i});
    ASSERT_TRUE(g.ok());
    EXPECT_EQ((*g)->lease_id, want[i].lease_id);
    EXPECT_EQ((*g)->game, want[i].game);
  }
}

TEST(Spool, WritesTheFirstReleasesBytes) {
  // Batched or not, the log is what the first release wrote.
  for (bool batched : {false, true}) {
    TempDir tmp;
    const std::string dir = tmp.Sub("spool");
    {
      auto s = OpenAt(dir);
      ASSERT_NE(s, nullptr);
      std::vector<FinishedGame> games = FirstReleaseGames();
      if (batched) {
        ASSERT_EQ(*s->AppendBatch(&games, nullptr), 4u);
        const GameKey one{7, 1};
        ASSERT_TRUE(s->AckBatch(absl::MakeConstSpan(&one, 1)).ok());
      } else {
        for (const FinishedGame& g : games) ASSERT_TRUE(*s->Append(g));
        ASSERT_TRUE(s->Ack(GameKey{7, 1}).ok());
      }
    }
    EXPECT_EQ(ReadAll(dir + "/spool.log"), FirstReleaseLog()) << batched;
  }
}

TEST(Spool, AppendBatchMovesGamesInAndSkipsPendingKeys) {
  TempDir tmp;
  const std::string dir = tmp.Sub("spool");
  std::vector<uint64_t> want;
  {
    auto s = OpenAt(dir);
    ASSERT_NE(s, nullptr);
    ASSERT_TRUE(*s->Append(Fake(1, 3)));
    std::vector<FinishedGame> games;
    // 3 is pending already, 5 comes twice: 4 new games of 6.
    for (uint64_t i : {1, 3, 5, 2, 5, 9}) games.push_back(Fake(1, i));
    const int64_t before = s->stats().file_bytes;
    std::vector<SpooledGame> added;
    absl::StatusOr<size_t> n = s->AppendBatch(&games, &added);
    ASSERT_TRUE(n.ok()) << n.status();
    EXPECT_EQ(*n, 4u);
    EXPECT_TRUE(games.empty());
    ASSERT_EQ(added.size(), 4u);
    int64_t bytes = 0;
    for (size_t k = 0; k < added.size(); ++k) {
      const uint64_t i = std::vector<uint64_t>{1, 5, 2, 9}[k];
      EXPECT_EQ(added[k]->key, (GameKey{1, i}));
      EXPECT_EQ(added[k]->game, Fake(1, i).game);
      // Shared with the spool, not copied.
      EXPECT_EQ(s->Get(GameKey{1, i})->get(), added[k].get());
      bytes += static_cast<int64_t>(12 + 21 + added[k]->lease_id.size() +
                                    added[k]->game.size());
    }
    EXPECT_EQ(s->stats().file_bytes - before, bytes);
    EXPECT_EQ(Indices(*s), (std::vector<uint64_t>{3, 1, 5, 2, 9}));
    // Nothing new: nothing written.
    games = {Fake(1, 9), Fake(1, 1)};
    EXPECT_EQ(*s->AppendBatch(&games, &added), 0u);
    EXPECT_EQ(added.size(), 4u);
    EXPECT_EQ(s->stats().file_bytes - before, bytes);
    // Acks in one batch, unknown and repeated keys skipped.
    const std::vector<GameKey> acks = {{1, 5}, {1, 77}, {1, 3}, {1, 5}};
    const int64_t size = s->stats().file_bytes;
    ASSERT_TRUE(s->AckBatch(acks).ok());
    EXPECT_EQ(s->stats().file_bytes - size, 2 * (12 + 17));
    EXPECT_EQ(s->pending(), 3u);
    // A forgotten game stays readable through the pointer handed out.
    EXPECT_EQ(added[1]->game, Fake(1, 5).game);
    ASSERT_TRUE(s->Sync().ok());
    want = Indices(*s);
  }
  EXPECT_EQ(want, (std::vector<uint64_t>{1, 2, 9}));
  auto s = OpenAt(dir);
  EXPECT_EQ(Indices(*s), want);
  std::vector<SpooledGame> pending = s->Pending();
  ASSERT_EQ(pending.size(), 3u);
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(pending[k]->game, Fake(1, want[k]).game);
  }
}

// A batched write that fails part-way (the file size limit, in a child
// process) changes nothing in memory and leaves the games with the caller;
// the retry succeeds, and the reopened spool holds every game once.
TEST(Spool, FailedBatchedWriteIsRetried) {
  TempDir tmp;
  const std::string dir = tmp.Sub("spool");
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    SpoolOptions o;
    o.dir = dir;
    auto s = Spool::Open(o);
    if (!s.ok()) _exit(2);
    std::vector<FinishedGame> games;
    for (uint64_t i = 0; i < 20; ++i) games.push_back(Fake(4, i, 500));
    rlimit lim;
    if (getrlimit(RLIMIT_FSIZE, &lim) != 0) _exit(3);
    const rlim_t old = lim.rlim_cur;
    // Room for about three and a half games.
    lim.rlim_cur = static_cast<rlim_t>((*s)->stats().file_bytes + 1900);
    if (setrlimit(RLIMIT_FSIZE, &lim) != 0) _exit(4);
    absl::StatusOr<size_t> n = (*s)->AppendBatch(&games, nullptr);
    if (n.ok()) _exit(5);
    if (games.size() != 20 || games[7].game != Fake(4, 7, 500).game) _exit(6);
    if ((*s)->pending() != 0) _exit(7);
    lim.rlim_cur = old;
    if (setrlimit(RLIMIT_FSIZE, &lim) != 0) _exit(8);
    n = (*s)->AppendBatch(&games, nullptr);
    if (!n.ok() || *n != 20 || !games.empty()) _exit(9);
    if (!(*s)->Sync().ok()) _exit(10);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  auto s = OpenAt(dir);
  ASSERT_NE(s, nullptr);
  std::vector<uint64_t> all(20);
  for (uint64_t i = 0; i < 20; ++i) all[i] = i;
  // The whole records of the failed write come first; the retry's copies
  // of them are ignored, and the torn one is skipped as damage.
  EXPECT_EQ(Indices(*s), all);
  EXPECT_EQ(s->stats().skipped_records, 1);
  for (uint64_t i = 0; i < 20; ++i) {
    EXPECT_EQ((*s->Get(GameKey{4, i}))->game, Fake(4, i, 500).game);
  }
}

TEST(Spool, DuplicateAppendAndUnknownAckAreNoOps) {
  TempDir tmp;
  auto s = OpenAt(tmp.Sub("spool"));
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(*s->Append(Fake(2, 5)));
  EXPECT_FALSE(*s->Append(Fake(2, 5)));
  EXPECT_TRUE(s->Ack(GameKey{2, 6}).ok());
  EXPECT_EQ(s->pending(), 1u);
  // Acked, then played again (a later lease): pending again.
  EXPECT_TRUE(s->Ack(GameKey{2, 5}).ok());
  EXPECT_TRUE(*s->Append(Fake(2, 5)));
  EXPECT_EQ(s->pending(), 1u);
}

TEST(Spool, OneProcessAtATime) {
  TempDir tmp;
  const std::string dir = tmp.Sub("spool");
  auto a = OpenAt(dir);
  ASSERT_NE(a, nullptr);
  SpoolOptions o;
  o.dir = dir;
  EXPECT_TRUE(absl::IsFailedPrecondition(Spool::Open(o).status()));
  a.reset();
  EXPECT_TRUE(Spool::Open(o).ok());
}

// Writes games 0..n-1 of job 1 and closes; returns the file offset where
// each record starts, plus the file size at the end.
std::vector<size_t> WriteGames(const std::string& dir, int n) {
  auto s = OpenAt(dir);
  std::vector<size_t> starts;
  for (int i = 0; i < n; ++i) {
    starts.push_back(static_cast<size_t>(s->stats().file_bytes));
    EXPECT_TRUE(*s->Append(Fake(1, static_cast<uint64_t>(i))));
  }
  starts.push_back(static_cast<size_t>(s->stats().file_bytes));
  EXPECT_TRUE(s->Sync().ok());
  return starts;
}

TEST(Spool, TornTailIsDropped) {
  TempDir tmp;
  const std::string dir = tmp.Sub("spool");
  const std::vector<size_t> starts = WriteGames(dir, 5);
  const std::string log = ReadAll(dir + "/spool.log");
  ASSERT_EQ(log.size(), starts.back());
  // Every cut inside the last record (with a stride, plus its edges).
  std::vector<size_t> cuts;
  for (size_t c = starts[4]; c < starts[5]; c += 13) cuts.push_back(c);
  cuts.push_back(starts[4] + 1);
  cuts.push_back(starts[5] - 1);
  for (size_t cut : cuts) {
    const std::string d = tmp.Sub(absl::StrCat("cut", cut));
    std::filesystem::create_directory(d);
    WriteAll(d + "/spool.log", log.substr(0, cut));
    auto s = OpenAt(d);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(Indices(*s), (std::vector<uint64_t>{0, 1, 2, 3})) << cut;
    EXPECT_EQ(s->stats().torn_bytes, static_cast<int64_t>(cut - starts[4]));
    EXPECT_EQ(s->stats().skipped_records, 0);
    // A torn tail is an ordinary crash, not damage.
    EXPECT_FALSE(std::filesystem::exists(d + "/spool.log.damaged"));
  }
}

TEST(Spool, DamagedRecordIsSkippedAndTheRestKept) {
  TempDir tmp;
  const std::string dir = tmp.Sub("spool");
  const std::vector<size_t> starts = WriteGames(dir, 6);
  std::string log = ReadAll(dir + "/spool.log");
  // A flipped bit in the body of game 2, and a garbage length in game 4.
  log[starts[2] + 30] ^= 0x10;
  log[starts[4] + 6] = '\x7f';
  WriteAll(dir + "/spool.log", log);
  {
    auto s = OpenAt(dir);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(Indices(*s), (std::vector<uint64_t>{0, 1, 3, 5}));
    EXPECT_EQ(s->stats().skipped_records, 2);
    EXPECT_EQ(ReadAll(dir + "/spool.log.damaged"), log);
    EXPECT_EQ((*s->Get(GameKey{1, 5}))->game, Fake(1, 5).game);
  }
  // The rewritten log is clean.
  auto s = OpenAt(dir);
  EXPECT_EQ(Indices(*s), (std::vector<uint64_t>{0, 1, 3, 5}));
  EXPECT_EQ(s->stats().skipped_records, 0);
}

TEST(Spool, GarbageAndForeignVersionsDoNotCrash) {
  TempDir tmp;
  std::mt19937_64 rng(5);
  for (int round = 0; round < 20; ++round) {
    const std::string d = tmp.Sub(absl::StrCat("g", round));
    std::filesystem::create_directory(d);
    std::string junk(static_cast<size_t>(rng() % 4000), '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    // Sprinkle record magics to exercise resynchronisation.
    for (size_t i = 0; i + 4 < junk.size(); i += 97) junk.replace(i, 4, "QPSR");
    if (round % 2 == 0)
      junk.insert(0, std::string("QIPUSPL\0\1\0\0\0\0\0\0\0", 16));
    WriteAll(d + "/spool.log", junk);
    auto s = OpenAt(d);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->pending(), 0u);
    EXPECT_TRUE(*s->Append(Fake(1, 1)));
  }
  // A log from a future format version is kept aside, not misread.
  const std::string d = tmp.Sub("v9");
  std::filesystem::create_directory(d);
  const std::string future("QIPUSPL\0\x09\0\0\0\0\0\0\0QPSRxxxx", 24);
  WriteAll(d + "/spool.log", future);
  auto s = OpenAt(d);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->pending(), 0u);
  EXPECT_EQ(ReadAll(d + "/spool.log.damaged"), future);
}

// Random appends and acks; a "crash" is the log cut at any byte. Reopening
// must give exactly the state after the last whole record before the cut.
TEST(Spool, CrashRestartEquivalence) {
  TempDir tmp;
  const std::string dir = tmp.Sub("spool");
  std::mt19937_64 rng(11);
  // File size after each operation, and the pending indices then.
  std::vector<size_t> sizes;
  std::vector<std::vector<uint64_t>> states;
  {
    auto s = OpenAt(dir);
    sizes.push_back(static_cast<size_t>(s->stats().file_bytes));
    states.push_back({});
    std::vector<uint64_t> model;
    uint64_t next = 0;
    for (int op = 0; op < 60; ++op) {
      if (model.empty() || rng() % 3 != 0) {
        ASSERT_TRUE(*s->Append(Fake(1, next, 10 + rng() % 90)));
        model.push_back(next++);
      } else {
        const size_t i = rng() % model.size();
        ASSERT_TRUE(s->Ack(GameKey{1, model[i]}).ok());
        model.erase(model.begin() + static_cast<long>(i));
      }
      sizes.push_back(static_cast<size_t>(s->stats().file_bytes));
      states.push_back(model);
    }
    ASSERT_TRUE(s->Sync().ok());
  }
  const std::string log = ReadAll(dir + "/spool.log");
  ASSERT_EQ(log.size(), sizes.back());
  for (size_t cut = sizes.front(); cut <= log.size(); cut += 1 + rng() % 150) {
    size_t k = 0;
    while (k + 1 < sizes.size() && sizes[k + 1] <= cut) ++k;
    const std::string d = tmp.Sub(absl::StrCat("cut", cut));
    std::filesystem::create_directory(d);
    WriteAll(d + "/spool.log", log.substr(0, cut));
    auto s = OpenAt(d);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(Indices(*s), states[k]) << "cut at " << cut;
    EXPECT_EQ(s->stats().skipped_records, 0);
  }
}

TEST(Spool, CompactionKeepsThePendingSet) {
  TempDir tmp;
  const std::string dir = tmp.Sub("spool");
  std::mt19937_64 rng(3);
  std::vector<uint64_t> model;
  {
    auto s = OpenAt(dir, /*compact_min_bytes=*/2000);
    for (uint64_t i = 0; i < 400; ++i) {
      ASSERT_TRUE(*s->Append(Fake(7, i)));
      model.push_back(i);
      if (model.size() > 5) {
        const size_t j = rng() % model.size();
        ASSERT_TRUE(s->Ack(GameKey{7, model[j]}).ok());
        model.erase(model.begin() + static_cast<long>(j));
      }
    }
    EXPECT_GT(s->stats().compactions, 10u);
    EXPECT_LT(s->stats().file_bytes, 8000);
    EXPECT_EQ(Indices(*s), model);
  }
  auto s = OpenAt(dir);
  EXPECT_EQ(Indices(*s), model);
  for (uint64_t i : model)
    EXPECT_EQ((*s->Get(GameKey{7, i}))->game, Fake(7, i).game);
}

// A real process appends and syncs until killed with SIGKILL at an
// arbitrary moment: every game it reported as synced survives.
TEST(Spool, KilledWriterLosesNothingSynced) {
  TempDir tmp;
  const std::string dir = tmp.Sub("spool");
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(fds[0]);
    SpoolOptions o;
    o.dir = dir;
    o.compact_min_bytes = 20000;
    auto s = Spool::Open(o);
    if (!s.ok()) _exit(2);
    for (uint64_t i = 0;; ++i) {
      if (!(*s)->Append(Fake(3, i)).ok()) _exit(3);
      if (i % 4 == 3) {
        if (!(*s)->Sync().ok()) _exit(4);
        const uint64_t synced = i + 1;
        if (write(fds[1], &synced, sizeof(synced)) != sizeof(synced)) _exit(5);
      }
      if (i % 3 == 0 && i > 10) (*s)->Ack(GameKey{3, i - 10}).IgnoreError();
    }
  }
  close(fds[1]);
  uint64_t synced = 0, v = 0;
  while (synced < 200 && read(fds[0], &v, sizeof(v)) == sizeof(v)) synced = v;
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  close(fds[0]);
  ASSERT_TRUE(WIFSIGNALED(status));
  ASSERT_GE(synced, 200u);
  auto s = OpenAt(dir);
  ASSERT_NE(s, nullptr);
  // Acked games (i - 10 for i % 3 == 0) may or may not be gone; every
  // other synced game must be there.
  std::map<uint64_t, bool> acked;
  for (uint64_t i = 11; i < synced + 100; ++i) {
    if (i % 3 == 0) acked[i - 10] = true;
  }
  for (uint64_t i = 0; i < synced; ++i) {
    if (acked.count(i)) continue;
    absl::StatusOr<SpooledGame> g = s->Get(GameKey{3, i});
    ASSERT_TRUE(g.ok()) << "game " << i << " of " << synced << " lost";
    EXPECT_EQ((*g)->game, Fake(3, i).game);
  }
}

}  // namespace
}  // namespace qipu::worker
