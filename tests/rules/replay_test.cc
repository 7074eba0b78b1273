// ReplayInto() against the careful path it replaced: ReferenceReplayInto()
// below checks and plays every move through Game::Check() / TryPlay(), as
// ReplayInto() did before it took Game::TryPlayMoves()'s fast path. Over
// many seeded games -- full-rules self-play, random play on small boards
// that cycles a lot, illegal moves injected at random plies, moves out of
// turn, setups, claimed prevented cycles (true and false), every rule axis,
// move caps, a Game reused across sizes and rules -- the two must give the
// same report (or the same error) and leave the same Game behind.
#include "rules/replay.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rules/coord.h"
#include "rules/game.h"
#include "rules/playout.h"
#include "rules/record.h"
#include "rules/rules.h"
#include "tests/rules/reference_board.h"  // PrintTo for the records
#include "tests/rules/rule_variants.h"

namespace qipu::rules {
namespace {

absl::Status ApplyStep(const SetupStep& step, bool root_handicap, Game* game) {
  if (root_handicap && step.white.empty() && step.empty.empty()) {
    return game->PlaceFreeHandicap(step.black);
  }
  return game->ApplySetup(step.black, step.white, step.empty, step.to_play);
}

// ReplayInto() as it was before the fast path: every move through Check()
// and TryPlay(), one at a time, into a fresh Game.
absl::StatusOr<ReplayReport> ReferenceReplayInto(
    const GameRecord& record, const Rules& rules,
    absl::Span<const CycleRecord> claimed_prevented, Game* game) {
  if (absl::Status s = ValidateSize(record.width, record.height); !s.ok()) {
    return s;
  }
  if (absl::Status s = ValidateKomi(rules.komi); !s.ok()) return s;
  *game = Game(record.width, record.height, rules);
  ReplayReport report;
  report.moves = static_cast<int>(record.moves.size());

  size_t next_setup = 0;
  auto apply_setups = [&](int before_move) -> absl::Status {
    while (next_setup < record.setup.size() &&
           record.setup[next_setup].before_move <= before_move) {
      const SetupStep& step = record.setup[next_setup];
      const bool root_handicap =
          step.before_move == 0 && record.handicap >= 2 && next_setup == 0;
      if (absl::Status s = ApplyStep(step, root_handicap, game); !s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "setup before move ", step.before_move + 1, ": ", s.message()));
      }
      ++next_setup;
    }
    return absl::OkStatus();
  };

  std::vector<bool> claim_used(claimed_prevented.size(), false);
  for (int k = 0; k < report.moves; ++k) {
    if (absl::Status s = apply_setups(k); !s.ok()) return s;
    if (game->over()) break;
    const Move& m = record.moves[k];
    for (size_t c = 0; c < claimed_prevented.size(); ++c) {
      const CycleRecord& claim = claimed_prevented[c];
      if (claim.first_move + claim.period - 1 != k + 1) continue;
      const MoveVerdict v = game->Check(m.color, claim.point);
      if ((v.reason != IllegalReason::kSuperko &&
           v.reason != IllegalReason::kCycle) ||
          !(v.cycle == claim)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "claimed prevented cycle at move ", k + 1, " (",
            GtpPoint(claim.point, record.height), ", ",
            CycleClassName(claim.cls), ") is not what the rules give there"));
      }
      game->RecordPrevented(v.cycle);
      claim_used[c] = true;
    }
    if (m.point != kPass && !game->board().OnBoard(m.point)) {
      report.legal = false;
      report.illegal_move = k + 1;
      report.illegal_reason = IllegalReason::kOffBoard;
      break;
    }
    const MoveVerdict v = game->TryPlay(m.color, m.point);
    if (!v.legal()) {
      report.legal = false;
      report.illegal_move = k + 1;
      report.illegal_reason = v.reason;
      break;
    }
  }
  if (report.legal && !game->over()) {
    if (absl::Status s = apply_setups(report.moves); !s.ok()) return s;
  }
  for (size_t c = 0; c < claimed_prevented.size(); ++c) {
    if (!claim_used[c]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "claimed prevented cycle at move ",
          claimed_prevented[c].first_move + claimed_prevented[c].period - 1,
          " lies outside the moves played"));
    }
  }
  report.played = game->num_moves();
  report.ended_at = game->ended_at();
  report.cycles = game->cycles();
  report.ko_captures = game->ko_captures();
  report.handicap = game->handicap();
  report.area = game->Area();
  report.area_result = game->ScoreNow();
  if (game->over()) report.rules_result = game->result();
  return report;
}

void ExpectSameArea(const AreaCount& a, const AreaCount& b,
                    const std::string& where) {
  EXPECT_EQ(a.black_stones, b.black_stones) << where;
  EXPECT_EQ(a.white_stones, b.white_stones) << where;
  EXPECT_EQ(a.black_territory, b.black_territory) << where;
  EXPECT_EQ(a.white_territory, b.white_territory) << where;
  EXPECT_EQ(a.dame, b.dame) << where;
  EXPECT_EQ(a.black, b.black) << where;
  EXPECT_EQ(a.white, b.white) << where;
}

// Same report, and the same Game left behind: board (contents, hash, ko
// point, the order of the empty points, which later playouts depend on),
// moves, counters, the end; and the same future: light-policy moves
// played on from both give the same game, so the repetition state agrees.
void ExpectSameReplay(const absl::StatusOr<ReplayReport>& got, Game& got_game,
                      const absl::StatusOr<ReplayReport>& want, Game& want_game,
                      const std::string& where) {
  ASSERT_EQ(got.status(), want.status()) << where;
  if (!got.ok()) return;
  const ReplayReport& g = *got;
  const ReplayReport& w = *want;
  EXPECT_EQ(g.moves, w.moves) << where;
  EXPECT_EQ(g.played, w.played) << where;
  EXPECT_EQ(g.legal, w.legal) << where;
  EXPECT_EQ(g.illegal_move, w.illegal_move) << where;
  EXPECT_EQ(g.illegal_reason, w.illegal_reason) << where;
  EXPECT_EQ(g.ended_at, w.ended_at) << where;
  EXPECT_EQ(g.cycles, w.cycles) << where;
  EXPECT_EQ(g.ko_captures, w.ko_captures) << where;
  EXPECT_EQ(g.handicap, w.handicap) << where;
  ExpectSameArea(g.area, w.area, where);
  EXPECT_EQ(g.area_result, w.area_result) << where;
  EXPECT_EQ(g.rules_result, w.rules_result) << where;

  const Board& gb = got_game.board();
  const Board& wb = want_game.board();
  ASSERT_TRUE(gb.Consistent()) << where;
  ASSERT_EQ(gb.ToString(), wb.ToString()) << where;
  EXPECT_EQ(gb.hash(), wb.hash()) << where;
  EXPECT_EQ(gb.ko_point(), wb.ko_point()) << where;
  ASSERT_EQ(gb.num_empty(), wb.num_empty()) << where;
  for (int i = 0; i < gb.num_empty(); ++i) {
    ASSERT_EQ(gb.empty_point(i), wb.empty_point(i)) << where << " empty " << i;
  }
  EXPECT_EQ(gb.last_play().captured, wb.last_play().captured) << where;
  EXPECT_EQ(gb.last_play().suicided, wb.last_play().suicided) << where;
  EXPECT_EQ(gb.last_play().ko_capture, wb.last_play().ko_capture) << where;
  EXPECT_EQ(got_game.moves(), want_game.moves()) << where;
  EXPECT_EQ(got_game.num_moves(), want_game.num_moves()) << where;
  EXPECT_EQ(got_game.to_play(), want_game.to_play()) << where;
  EXPECT_EQ(got_game.result(), want_game.result()) << where;
  EXPECT_EQ(got_game.ended_at(), want_game.ended_at()) << where;
  EXPECT_EQ(got_game.captures(Color::kBlack), want_game.captures(Color::kBlack))
      << where;
  EXPECT_EQ(got_game.captures(Color::kWhite), want_game.captures(Color::kWhite))
      << where;
  if (::testing::Test::HasFailure()) return;
  // The rest of the game, from the same seed.
  Rng a(GameSeed(99, static_cast<uint64_t>(g.played)));
  Rng b = a;
  if (!got_game.over()) FullPlayout(got_game, a);
  if (!want_game.over()) FullPlayout(want_game, b);
  EXPECT_EQ(got_game.moves(), want_game.moves()) << where << " played on";
  EXPECT_EQ(got_game.cycles(), want_game.cycles()) << where << " played on";
  EXPECT_EQ(got_game.result(), want_game.result()) << where << " played on";
  EXPECT_EQ(got_game.board().hash(), want_game.board().hash())
      << where << " played on";
}

// Every board point of a width x height board.
std::vector<Point> AllPoints(int width, int height) {
  std::vector<Point> out;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) out.push_back(MakePoint(x, y));
  }
  return out;
}

// Pure simple ko (no cycle rule) with a generous move cap: games under
// these rules repeat positions freely.
Rules Runaway(bool suicide, int width, int height) {
  Rules r;
  r.cycle = CycleRule::kNone;
  r.multi_stone_suicide = suicide;
  r.move_cap = 6 * width * height;
  return r;
}

// A random game under `rules` on a small board: candidates in random
// order, own eyes skipped half the time, each tried with TryPlay() until
// one is legal (rejected cycles are recorded as prevented); a pass when
// none is (or now and then anyway).
Game RandomGame(int width, int height, const Rules& rules, Rng& rng) {
  Game game(width, height, rules);
  const std::vector<Point> all = AllPoints(width, height);
  const int n = static_cast<int>(all.size());
  while (!game.over()) {
    const bool skip_eyes = rng.Below(2) == 0;
    const int start = static_cast<int>(rng.Below(static_cast<uint32_t>(n)));
    bool played = false;
    if (rng.Below(30) != 0) {
      for (int k = 0; k < n && !played; ++k) {
        const Point p = all[(start + k) % n];
        if (game.board().at(p) != Color::kEmpty) continue;
        if (skip_eyes && game.board().IsOwnEye(p, game.to_play())) continue;
        played = game.TryPlay(p).legal();
      }
    }
    if (!played) game.TryPlay(kPass);
  }
  return game;
}

// One of the ways a record can go wrong at ply k, applied to `moves`.
void Corrupt(std::vector<Move>& moves, int width, int height, Rng& rng) {
  if (moves.empty()) return;
  const int k =
      static_cast<int>(rng.Below(static_cast<uint32_t>(moves.size())));
  const std::vector<Point> all = AllPoints(width, height);
  Move& m = moves[k];
  switch (rng.Below(6)) {
    case 0:  // Any point: often occupied, sometimes suicide or ko.
      m.point = all[rng.Below(static_cast<uint32_t>(all.size()))];
      break;
    case 1:  // The point of an earlier move: occupied unless captured.
      m.point = moves[rng.Below(static_cast<uint32_t>(k + 1))].point;
      break;
    case 2:  // Off the board, or a resignation point.
      m.point =
          rng.Below(2) == 0 ? kResign : static_cast<Point>(MakePoint(width, 0));
      break;
    case 3:  // Out of turn: the same colour twice.
      m.color = Opponent(m.color);
      break;
    case 4:  // A pass.
      m.point = kPass;
      break;
    default:  // Drop a move: everything after is out of turn.
      moves.erase(moves.begin() + k);
      break;
  }
}

// The cycles a game's policy prevented, as a worker claims them.
std::vector<CycleRecord> Prevented(const Game& game) {
  std::vector<CycleRecord> out;
  for (const CycleRecord& c : game.cycles()) {
    if (c.outcome == CycleOutcome::kPreventedSuperko ||
        c.outcome == CycleOutcome::kPreventedCycleRule) {
      out.push_back(c);
    }
  }
  return out;
}

GameRecord MakeRecord(int width, int height, std::vector<Move> moves) {
  GameRecord record;
  record.width = width;
  record.height = height;
  record.moves = std::move(moves);
  return record;
}

// Replays `record` both ways (the fast one into the shared, reused `game`)
// and compares.
void Compare(const GameRecord& record, const Rules& rules,
             const std::vector<CycleRecord>& claims, Game& game,
             const std::string& where) {
  Game want_game(2, 2, Rules{});
  const auto want = ReferenceReplayInto(record, rules, claims, &want_game);
  const auto got = ReplayInto(record, rules, claims, &game);
  ExpectSameReplay(got, game, want, want_game, where);
}

TEST(Replay, SelfPlayGamesUnderEveryRuleVariant) {
  Game game(2, 2, Rules{});
  int games = 0;
  int cycles = 0;
  for (const auto& [name, rules] : AllRuleVariants()) {
    for (int size : {5, 7, 9, 13, 19}) {
      for (int i = 0; i < (size <= 9 ? 12 : 2); ++i) {
        Game played(size, size, rules);
        Rng rng(GameSeed(7, static_cast<uint64_t>(size * 100 + i)));
        FullPlayout(played, rng);
        const GameRecord record = MakeRecord(size, size, played.moves());
        const std::string where =
            absl::StrCat(name, " ", size, "x", size, " game ", i);
        Compare(record, rules, Prevented(played), game, where);
        if (HasFailure()) return;
        // The record under other rules than it was played with.
        Compare(record, *PresetRules("chinese-superko"), {}, game,
                where + " under chinese-superko");
        if (HasFailure()) return;
        ++games;
        cycles += static_cast<int>(played.cycles().size());
      }
    }
  }
  EXPECT_GT(games, 500);
  EXPECT_GT(cycles, 0);
}

TEST(Replay, CyclingGamesUnderEveryRuleVariant) {
  // Small boards repeat positions all the time: kos, superko and cycle
  // verdicts, completed cycles, suicides.
  struct Size {
    int width;
    int height;
  };
  constexpr Size kSizes[] = {{2, 2}, {3, 2}, {3, 3}, {4, 3}, {4, 4},
                             {5, 5}, {2, 6}, {6, 6}, {7, 5}};
  Game game(2, 2, Rules{});
  int illegal = 0;
  int ended_by_cycle = 0;
  int cycles = 0;
  int games = 0;
  for (const Size& s : kSizes) {
    for (int i = 0; i < 40; ++i) {
      Rng rng(GameSeed(
          8, static_cast<uint64_t>(s.width * 100 + s.height) * 1000 + i));
      const std::vector<Move> moves =
          RandomGame(s.width, s.height, Runaway(i % 2 == 1, s.width, s.height),
                     rng)
              .moves();
      for (const auto& [name, rules] : AllRuleVariants()) {
        const std::string where =
            absl::StrCat(name, " ", s.width, "x", s.height, " game ", i);
        const GameRecord record = MakeRecord(s.width, s.height, moves);
        Compare(record, rules, {}, game, where);
        if (HasFailure()) return;
        const auto report = ReplayInto(record, rules, {}, &game);
        ASSERT_TRUE(report.ok());
        illegal += !report->legal;
        ended_by_cycle += report->rules_result.reason == EndReason::kCycle;
        cycles += static_cast<int>(report->cycles.size());
        ++games;
      }
    }
  }
  EXPECT_GT(games, 2000);
  EXPECT_GT(illegal, 200);
  EXPECT_GT(ended_by_cycle, 50);
  EXPECT_GT(cycles, 300);
}

TEST(Replay, CorruptedRecordsUnderEveryRuleVariant) {
  Game game(2, 2, Rules{});
  const auto variants = AllRuleVariants();
  int illegal = 0;
  for (int i = 0; i < 1500; ++i) {
    Rng rng(GameSeed(9, static_cast<uint64_t>(i)));
    const int width = 2 + static_cast<int>(rng.Below(8));
    const int height = i % 3 == 0 ? width : 2 + static_cast<int>(rng.Below(8));
    const auto& [name, rules] =
        variants[rng.Below(static_cast<uint32_t>(variants.size()))];
    std::vector<Move> moves;
    if (i % 2 == 0) {
      moves = RandomGame(width, height,
                         Runaway(rules.multi_stone_suicide, width, height), rng)
                  .moves();
    } else {
      Game played(width, height, rules);
      FullPlayout(played, rng);
      moves = played.moves();
    }
    const int corruptions = 1 + static_cast<int>(rng.Below(3));
    for (int c = 0; c < corruptions; ++c) Corrupt(moves, width, height, rng);
    const GameRecord record = MakeRecord(width, height, moves);
    const std::string where =
        absl::StrCat(name, " ", width, "x", height, " record ", i);
    Compare(record, rules, {}, game, where);
    if (HasFailure()) return;
    illegal += !ReplayInto(record, rules, {}, &game)->legal;
  }
  EXPECT_GT(illegal, 800);
}

TEST(Replay, ClaimedPreventedCycles) {
  // Games whose policy prevented cycles, with their true claims, claims
  // moved to another ply or point, and claims past the end.
  Game game(2, 2, Rules{});
  int with_claims = 0;
  for (const char* preset : {"chinese", "chinese-superko", "tromp-taylor"}) {
    const Rules rules = *PresetRules(preset);
    for (int i = 0; i < 300; ++i) {
      const int size = 2 + i % 4;
      Rng rng(GameSeed(10, static_cast<uint64_t>(i)));
      const Game played = RandomGame(size, size, rules, rng);
      std::vector<CycleRecord> claims = Prevented(played);
      if (claims.empty()) continue;
      ++with_claims;
      const GameRecord record = MakeRecord(size, size, played.moves());
      const std::string where = absl::StrCat(preset, " game ", i);
      Compare(record, rules, claims, game, where);
      std::vector<CycleRecord> bad = claims;
      bad[rng.Below(static_cast<uint32_t>(bad.size()))].period += 1;
      Compare(record, rules, bad, game, where + " shifted claim");
      bad = claims;
      bad.back().point = record.moves[0].point;
      Compare(record, rules, bad, game, where + " wrong point");
      bad = claims;
      bad.back().first_move = static_cast<int>(record.moves.size()) + 5;
      Compare(record, rules, bad, game, where + " past the end");
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(with_claims, 10);
}

TEST(Replay, SetupsAndHandicaps) {
  Game game(2, 2, Rules{});
  const Rules rules = *PresetRules("chinese");
  for (int i = 0; i < 120; ++i) {
    Rng rng(GameSeed(11, static_cast<uint64_t>(i)));
    const int size = i % 2 == 0 ? 9 : 7;
    GameRecord record;
    record.width = record.height = size;
    Game played(size, size, rules);
    const int handicap = i % 3 == 0 ? 2 + static_cast<int>(rng.Below(3)) : 0;
    if (handicap > 0) {
      ASSERT_TRUE(played.PlaceHandicap(handicap).ok());
      SetupStep step;
      step.black = *FixedHandicap(size, size, handicap);
      record.setup.push_back(step);
      record.handicap = handicap;
    }
    FullPlayout(played, rng);
    record.moves = played.moves();
    // A mid-game setup step: stones added on empty points, or removed,
    // sometimes leaving a chain without liberties (an error), and now and
    // then a change of the side to move.
    if (i % 4 != 0 && !record.moves.empty()) {
      SetupStep step;
      step.before_move = static_cast<int>(
          rng.Below(static_cast<uint32_t>(record.moves.size() + 2)));
      const std::vector<Point> all = AllPoints(size, size);
      for (int s = 0; s < 3; ++s) {
        const Point p = all[rng.Below(static_cast<uint32_t>(all.size()))];
        (rng.Below(3) == 0   ? step.empty
         : rng.Below(2) == 0 ? step.black
                             : step.white)
            .push_back(p);
      }
      if (rng.Below(3) == 0) step.to_play = Color::kWhite;
      record.setup.push_back(step);
    }
    const std::string where = absl::StrCat("record ", i);
    Compare(record, rules, {}, game, where);
    if (HasFailure()) return;
  }
}

TEST(Replay, ReusedGameAcrossSizesAndRules) {
  // One Game for records of changing sizes and rules (the coordinator
  // keeps one per thread), each compared with a fresh replay.
  Game game(19, 19, Rules{});
  const auto variants = AllRuleVariants();
  for (int i = 0; i < 60; ++i) {
    Rng rng(GameSeed(12, static_cast<uint64_t>(i)));
    const int size = i % 5 == 0 ? 13 : i % 2 == 0 ? 9 : 5;
    const Rules& rules =
        variants[rng.Below(static_cast<uint32_t>(variants.size()))].second;
    Game played(size, size, rules);
    FullPlayout(played, rng);
    Compare(MakeRecord(size, size, played.moves()), rules, Prevented(played),
            game, absl::StrCat("record ", i));
    if (HasFailure()) return;
  }
}

// A record that cannot be set up is an InvalidArgument error naming what
// is wrong, from both paths (Compare() checks they agree).
void ExpectError(const GameRecord& record, const Rules& rules, Game& game,
                 const std::string& where, const std::string& words) {
  Compare(record, rules, {}, game, where);
  const absl::StatusOr<ReplayReport> got = ReplayInto(record, rules, {}, &game);
  ASSERT_FALSE(got.ok()) << where << ": replayed without an error";
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument) << where;
  EXPECT_NE(got.status().message().find(words), absl::string_view::npos)
      << where << ": '" << words << "' not in '" << got.status().message()
      << "'";
}

TEST(Replay, BadRecordsAreErrorsAsBefore) {
  Game game(9, 9, Rules{});
  ExpectError(MakeRecord(1, 9, {}), Rules{}, game, "width 1",
              "board size 1x9 is not supported");
  GameRecord record = MakeRecord(9, 9, {{Color::kBlack, MakePoint(2, 2)}});
  Rules bad_komi;
  bad_komi.komi = 0.3;
  ExpectError(record, bad_komi, game, "komi 0.3",
              "komi 0.3 is not a multiple of 0.5");
  SetupStep step;
  step.black = {MakePoint(9, 9)};
  record.setup.push_back(step);
  ExpectError(record, Rules{}, game, "setup off the board", "is off the board");
  // A setup that leaves a chain without liberties: a white stone in the
  // corner with black on both its neighbours.
  GameRecord dead = MakeRecord(9, 9, {});
  SetupStep surround;
  surround.black = {MakePoint(1, 0), MakePoint(0, 1)};
  surround.white = {MakePoint(0, 0)};
  dead.setup.push_back(surround);
  ExpectError(dead, Rules{}, game, "dead setup",
              "setup leaves a chain without liberties");
}

}  // namespace
}  // namespace qipu::rules
