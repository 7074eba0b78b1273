// Durability of worker/spool.h against a simulated power loss: the spool
// runs on PowerLossSpoolFs (tests/worker/power_loss_spool_fs.h), which
// forgets every write not yet synced and every name whose directory was
// not synced since. A process kill (spool_test.cc) keeps the kernel's page
// cache and would not notice a Sync() that does nothing; this does.
//
// The claim: a game appended before a Sync() that returned OK -- the point
// after which the uploader may send it -- is in the spool after the power
// goes, byte for byte, unless it was acknowledged since; whatever the
// moment (mid-batch, after acks, after compactions and reopens) and
// whatever part of the unsynced bytes the disk happened to keep. And the
// test has teeth: with the file system's file syncs, or its directory
// syncs, made no-ops, the same histories lose games, and the test says so.
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/worker/power_loss_spool_fs.h"
#include "worker/spool.h"

namespace qipu::worker {
namespace {

using testing::PowerLossSpoolFs;

constexpr char kRoot[] = "/mem";
constexpr char kDir[] = "/mem/spool";

FinishedGame FakeGame(uint64_t index, size_t size) {
  FinishedGame g;
  g.key = GameKey{9, index};
  g.lease_id = absl::StrCat("lease-", index / 7);
  g.game.resize(size);
  for (size_t i = 0; i < size; ++i) {
    g.game[i] = static_cast<char>((index * 131 + i * 7) & 0xFF);
  }
  return g;
}

std::unique_ptr<Spool> OpenOn(PowerLossSpoolFs* fs, int64_t compact_min_bytes) {
  SpoolOptions o;
  o.dir = kDir;
  o.fs = fs;
  o.compact_min_bytes = compact_min_bytes;
  absl::StatusOr<std::unique_ptr<Spool>> s = Spool::Open(o);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *std::move(s) : nullptr;
}

// What a history did to the games the spool reported durable.
struct Verdict {
  // Reported durable, never acknowledged, and not in the spool (or not
  // byte for byte) after the power loss.
  std::vector<uint64_t> lost;
  // In the spool after the power loss but never appended (or with other
  // bytes): must never happen, whatever the file system does.
  std::vector<uint64_t> foreign;
  // Games reported durable and checked.
  size_t checked = 0;
};

// The spool after a power loss, checked against the games appended
// (`appended`: index -> game), reported durable (`durable`) and acked.
void Check(Spool& s, const std::map<uint64_t, FinishedGame>& appended,
           const std::set<uint64_t>& durable, const std::set<uint64_t>& acked,
           Verdict* v) {
  for (uint64_t i : durable) {
    if (acked.contains(i)) continue;
    ++v->checked;
    absl::StatusOr<SpooledGame> g = s.Get(GameKey{9, i});
    if (!g.ok() || (*g)->game != appended.at(i).game ||
        (*g)->lease_id != appended.at(i).lease_id) {
      v->lost.push_back(i);
    }
  }
  for (const SpooledGame& g : s.Pending()) {
    auto it = appended.find(g->key.index);
    if (g->key.job != 9 || it == appended.end() || it->second.game != g->game) {
      v->foreign.push_back(g->key.index);
    }
  }
}

struct History {
  bool drop_file_syncs = false;
  bool drop_dir_syncs = false;
  // Keep a random part of the unsynced bytes at the power loss.
  bool torn = true;
  int rounds = 60;
  uint64_t seed = 1;
};

// Runs h.rounds random histories of appends, syncs, acks, compactions and
// clean reopens, each ended by a power loss at a random moment, and
// checks the reopened spool each time.
Verdict RunHistories(const History& h) {
  Verdict v;
  std::mt19937_64 rng(h.seed);
  for (int round = 0; round < h.rounds; ++round) {
    PowerLossSpoolFs fs(kRoot);
    fs.DropFileSyncs(h.drop_file_syncs);
    fs.DropDirSyncs(h.drop_dir_syncs);
    // A small threshold: acks trigger compactions (rewrite, sync, rename,
    // directory sync) now and then.
    const int64_t compact = 1500 + static_cast<int64_t>(rng() % 3000);
    std::unique_ptr<Spool> s = OpenOn(&fs, compact);
    if (s == nullptr) return v;
    std::map<uint64_t, FinishedGame> appended;
    std::set<uint64_t> durable;
    std::set<uint64_t> acked;
    uint64_t next = 0;
    const int ops = 3 + static_cast<int>(rng() % 60);
    for (int op = 0; op < ops; ++op) {
      const uint64_t dice = rng() % 100;
      if (dice < 45) {
        std::vector<FinishedGame> batch;
        const int n = 1 + static_cast<int>(rng() % 6);
        for (int k = 0; k < n; ++k) {
          FinishedGame g = FakeGame(next++, 20 + rng() % 400);
          appended[g.key.index] = g;
          batch.push_back(std::move(g));
        }
        EXPECT_TRUE(s->AppendBatch(&batch, nullptr).ok());
      } else if (dice < 75) {
        // Everything appended so far is durable once this returns OK.
        const uint64_t upto = next;
        if (s->Sync().ok()) {
          for (uint64_t i = 0; i < upto; ++i) durable.insert(i);
        }
      } else if (dice < 95) {
        std::vector<GameKey> keys;
        for (const GameKey& k : s->PendingKeys()) {
          if (rng() % 3 == 0) keys.push_back(k);
        }
        for (const GameKey& k : keys) acked.insert(k.index);
        EXPECT_TRUE(s->AckBatch(keys).ok());
      } else {
        // A clean stop and restart: what was durable still is.
        s.reset();
        s = OpenOn(&fs, compact);
        if (s == nullptr) return v;
        Verdict reopened;
        Check(*s, appended, durable, acked, &reopened);
        EXPECT_TRUE(reopened.lost.empty()) << "round " << round;
      }
    }
    fs.PowerLoss(h.torn ? &rng : nullptr);
    // The dead process's spool goes away (its last sync fails: the power
    // is gone), and the next run opens what the disk kept.
    s.reset();
    s = OpenOn(&fs, compact);
    if (s == nullptr) return v;
    Check(*s, appended, durable, acked, &v);
  }
  return v;
}

TEST(SpoolPowerLoss, GamesReportedDurableSurviveAPowerLossAtAnyMoment) {
  for (bool torn : {false, true}) {
    History h;
    h.torn = torn;
    h.seed = torn ? 21 : 22;
    const Verdict v = RunHistories(h);
    EXPECT_GT(v.checked, 200u) << "too few durable games to show anything";
    EXPECT_TRUE(v.lost.empty())
        << v.lost.size() << " durable game(s) lost, the first: "
        << (v.lost.empty() ? 0 : v.lost[0]) << " (torn " << torn << ")";
    EXPECT_TRUE(v.foreign.empty()) << v.foreign.size() << " foreign game(s)";
  }
}

TEST(SpoolPowerLoss, ASyncThatDoesNothingLosesGamesAndTheTestSeesIt) {
  // The simplest history: ten games appended and synced, then the power
  // goes. With working syncs all ten come back; with file syncs that do
  // nothing none does (nothing rewrote the log since it was created).
  for (bool drop : {false, true}) {
    PowerLossSpoolFs fs(kRoot);
    fs.DropFileSyncs(drop);
    std::unique_ptr<Spool> s = OpenOn(&fs, int64_t{1} << 20);
    ASSERT_NE(s, nullptr);
    std::map<uint64_t, FinishedGame> appended;
    std::set<uint64_t> durable;
    for (uint64_t i = 0; i < 10; ++i) {
      appended[i] = FakeGame(i, 100);
      ASSERT_TRUE(*s->Append(appended[i]));
      durable.insert(i);
    }
    ASSERT_TRUE(s->Sync().ok());
    const int64_t dropped = fs.PowerLoss();
    if (drop) {
      EXPECT_GT(dropped, 0) << "the appends were not written at all";
    }
    s.reset();
    s = OpenOn(&fs, int64_t{1} << 20);
    ASSERT_NE(s, nullptr);
    Verdict v;
    Check(*s, appended, durable, {}, &v);
    EXPECT_EQ(v.checked, 10u);
    EXPECT_EQ(v.lost.size(), drop ? 10u : 0u) << "drop " << drop;
  }
  // The random histories of the test above, with file syncs dropped.
  History h;
  h.drop_file_syncs = true;
  h.torn = false;
  const Verdict v = RunHistories(h);
  EXPECT_GT(v.lost.size(), 0u) << "no loss detected with syncs disabled";
  EXPECT_TRUE(v.foreign.empty());
}

TEST(SpoolPowerLoss, ADirectorySyncThatDoesNothingLosesGamesAndTheTestSeesIt) {
  // The log is created by a rename at Open(), in a directory created
  // there: without durable names the synced games go with them.
  History h;
  h.drop_dir_syncs = true;
  h.torn = false;
  h.rounds = 20;
  const Verdict v = RunHistories(h);
  EXPECT_GT(v.checked, 0u);
  EXPECT_EQ(v.lost.size(), v.checked) << "games survived without durable names";
  EXPECT_TRUE(v.foreign.empty());
}

TEST(SpoolPowerLoss, UnsyncedTailsAreDroppedNotMisread) {
  // Games appended after the last sync may come back whole, or not at
  // all, whatever prefix of them the disk kept: never damaged.
  std::mt19937_64 rng(5);
  for (int round = 0; round < 100; ++round) {
    PowerLossSpoolFs fs(kRoot);
    std::unique_ptr<Spool> s = OpenOn(&fs, int64_t{1} << 20);
    ASSERT_NE(s, nullptr);
    std::map<uint64_t, FinishedGame> appended;
    for (uint64_t i = 0; i < 8; ++i) {
      appended[i] = FakeGame(i, 50 + rng() % 300);
      ASSERT_TRUE(*s->Append(appended[i]));
      if (i == 3) {
        ASSERT_TRUE(s->Sync().ok());
      }
    }
    fs.PowerLoss(&rng);
    s.reset();
    s = OpenOn(&fs, int64_t{1} << 20);
    ASSERT_NE(s, nullptr);
    Verdict v;
    Check(*s, appended, {0, 1, 2, 3}, {}, &v);
    EXPECT_TRUE(v.lost.empty()) << "round " << round;
    EXPECT_TRUE(v.foreign.empty()) << "round " << round;
    // What came back of the unsynced games is a prefix of them, in order.
    const std::vector<GameKey> keys = s->PendingKeys();
    for (size_t k = 0; k < keys.size(); ++k) {
      EXPECT_EQ(keys[k].index, k) << "round " << round;
    }
    EXPECT_EQ(s->stats().skipped_records, 0) << "round " << round;
  }
}

}  // namespace
}  // namespace qipu::worker
