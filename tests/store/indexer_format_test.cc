// The opening index's stored format for records whose colours alternate:
// the keys and values IndexGameOps() writes for them are pinned by
// checksums over seeded self-play games and over the shared fox-pro corpus,
// taken before issue 16 gave every position the colour of the move the
// record plays next there. Only records with same-colour runs (moves that
// do not follow the side to move) index differently since, which is why
// store::kFormatVersion stayed (store/README.md).
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "rules/game.h"
#include "rules/playout.h"
#include "rules/record.h"
#include "rules/replay.h"
#include "rules/rules.h"
#include "rules/scoring.h"
#include "rules/sgf_reader.h"
#include "store/game_id.h"
#include "store/indexer.h"
#include "tests/common/corpus_dir.h"

namespace qipu::store {
namespace {

using rules::Color;

// 64-bit FNV-1a over `bytes`, continuing from `h`.
uint64_t Fnv(uint64_t h, absl::string_view bytes) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

constexpr uint64_t kFnvBasis = 0xcbf29ce484222325ULL;

// Checksum of every entry of `ops` (key and value, each with its length).
uint64_t OpsChecksum(uint64_t h, const PositionOps& ops) {
  ops.ForEach([&](absl::string_view key, absl::string_view value) {
    const char lengths[2] = {static_cast<char>(key.size()),
                             static_cast<char>(value.size())};
    h = Fnv(h, absl::string_view(lengths, 2));
    h = Fnv(h, key);
    h = Fnv(h, value);
  });
  return h;
}

// Whether the first `plies` moves of `r` follow the side to move the
// indexer derived before issue 16: a setup's PL, White after a root setup
// of black stones only in a handicap game (HA >= 2), otherwise alternation
// from Black.
bool FollowsAlternation(const rules::GameRecord& r, int plies) {
  Color to_play = Color::kBlack;
  size_t next_setup = 0;
  for (int k = 0; k < plies; ++k) {
    while (next_setup < r.setup.size() &&
           r.setup[next_setup].before_move <= k) {
      const rules::SetupStep& s = r.setup[next_setup];
      if (s.to_play == Color::kBlack || s.to_play == Color::kWhite) {
        to_play = s.to_play;
      } else if (next_setup == 0 && s.before_move == 0 && r.handicap >= 2 &&
                 s.white.empty() && !s.black.empty()) {
        to_play = Color::kWhite;
      }
      ++next_setup;
    }
    if (r.moves[k].color != to_play) return false;
    to_play = rules::Opponent(to_play);
  }
  return true;
}

const rules::Winner kWinners[] = {rules::Winner::kBlack, rules::Winner::kWhite,
                                  rules::Winner::kDraw, rules::Winner::kNone};

// 60 seeded full-rules playouts on 9x9, 13x13 and 19x19, each played to
// its two closing passes: even games, fixed-handicap games (root AB with
// HA, White first) and games after a setup with PL[W]; indexed to a depth
// shorter and longer than the game.
TEST(IndexerFormat, AlternatingSelfPlayGamesKeepTheirEntries) {
  rules::Rng rng(16);
  uint64_t h = kFnvBasis;
  size_t entries = 0;
  int game_number = 0;
  for (int size : {9, 13, 19}) {
    for (int g = 0; g < 20; ++g, ++game_number) {
      rules::Game game(size, size, *rules::PresetRules("chinese"));
      rules::GameRecord record;
      record.width = record.height = size;
      if (g % 4 == 1) {
        const auto stones = *rules::FixedHandicap(size, size, 2 + g % 3);
        ASSERT_TRUE(game.PlaceFreeHandicap(stones).ok());
        record.handicap = static_cast<int>(stones.size());
        record.setup.push_back({0, stones, {}, {}, Color::kEmpty});
      } else if (g % 4 == 2) {
        const std::vector<rules::Point> black = {rules::MakePoint(2, 2)};
        const std::vector<rules::Point> white = {rules::MakePoint(3, 3)};
        ASSERT_TRUE(game.ApplySetup(black, white, {}, Color::kWhite).ok());
        record.setup.push_back({0, black, white, {}, Color::kWhite});
      }
      rules::FullPlayout(game, rng);
      record.moves = game.moves();
      const int plies = static_cast<int>(record.moves.size());
      ASSERT_TRUE(FollowsAlternation(record, plies)) << game_number;
      const int depth = g % 2 == 0 ? 40 : plies + 3;
      PositionOps ops;
      IndexGameOps(record, plies, depth, kWinners[g % 4],
                   GameId::SelfPlay(16, static_cast<uint64_t>(g)), 5,
                   20240101 + static_cast<uint32_t>(g), &ops);
      entries += ops.size();
      h = OpsChecksum(h, ops);
    }
  }
  EXPECT_EQ(entries, 8844u);
  EXPECT_EQ(h, 0x2c87d903d72941c3ULL) << std::hex << h;
}

// The fox-pro corpus's games whose colours alternate (all but 19 of its
// 679), replayed under the permissive rules of an openings query and
// indexed 60 plies deep.
TEST(IndexerFormat, AlternatingFoxProGamesKeepTheirEntries) {
  const std::string dir = test_util::SharedCorpusDir("fox-pro");
  if (dir.empty()) {
    GTEST_SKIP() << "the fox-pro corpus is absent (neither " << QIPU_SOURCE_DIR
                 << "/../shared nor /work/shared)";
  }
  rules::Rules permissive;
  permissive.ko = rules::KoRule::kSimple;
  permissive.cycle = rules::CycleRule::kNone;
  permissive.multi_stone_suicide = true;
  uint64_t h = kFnvBasis;
  size_t entries = 0;
  int games = 0, alternating = 0;
  for (const std::string& path : test_util::SgfFilesUnder(dir)) {
    const rules::SgfCollection c =
        rules::ReadSgf(test_util::ReadFileBytes(path));
    ASSERT_EQ(c.games.size(), 1u) << path;
    const rules::GameRecord& record = c.games[0];
    auto report = rules::Replay(record, permissive);
    ASSERT_TRUE(report.ok()) << path << ": " << report.status();
    ++games;
    if (!FollowsAlternation(record, report->played)) continue;
    ++alternating;
    PositionOps ops;
    IndexGameOps(record, report->played, 60, kWinners[games % 4],
                 GameId::SelfPlay(679, static_cast<uint64_t>(games)), 9,
                 20190101, &ops);
    entries += ops.size();
    h = OpsChecksum(h, ops);
  }
  EXPECT_EQ(games, 679);
  EXPECT_EQ(alternating, 660);
  EXPECT_EQ(entries, 40159u);
  EXPECT_EQ(h, 0x8d13e20c17065d9aULL) << std::hex << h;
}

}  // namespace
}  // namespace qipu::store
