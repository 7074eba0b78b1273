// The director's desk (issue 34) through the API: results that cannot be
// lost or overturned silently (every earlier result needed to pair,
// --force for forfeits and for results later rounds were paired from, the
// history of every change), director seeds and player edits, late entries
// and requested byes with the event's points, pairing edits under the
// pairer's checks, and accelerated pairing. Error cases assert the reason.
#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/tournament/driver.h"
#include "tournament/field.h"
#include "tournament/outcome.h"
#include "tournament/tournament.h"

namespace qipu::tournament {
namespace {

using ::testing::HasSubstr;
using testing::MakeEvent;
using testing::Pair;
using testing::System;

// The message of `s`, for matchers.
std::string Why(const absl::Status& s) { return std::string(s.message()); }

TournamentOptions Swiss(int rounds) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_SWISS);
  o.name = "desk";
  o.rounds = rounds;
  return o;
}

// Black wins at every table without a result.
void BlackWins(v1::Tournament* t) {
  testing::ResultAll(t, v1::GAME_RESULT_BLACK_WINS);
}

const v1::Pairing* TableOf(const v1::Round& r, int e) {
  for (const v1::Pairing& p : r.pairings()) {
    if (p.black() == e || p.white() == e) return &p;
  }
  return nullptr;
}

TEST(Results, ClearingAnEarlierResultNeedsForceAndBlocksPairing) {
  v1::Tournament t = MakeEvent(Swiss(5), 8);
  Pair(&t);
  BlackWins(&t);
  Pair(&t);
  const std::string before = t.SerializeAsString();
  Actor desk{"alice (local)", 1700000000000};
  ResultOptions plain;
  plain.actor = desk;
  auto refused = EnterResult(&t, 1, 1, 0, v1::GAME_RESULT_UNKNOWN, plain);
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  // Says why, and which standings the change moves.
  EXPECT_THAT(Why(refused.status()),
              HasSubstr("round 1 table 1: B+ -> ? needs --force: round 2 was "
                        "paired from it"));
  const std::string black = t.players(t.round(0).pairings(0).black()).name();
  EXPECT_THAT(Why(refused.status()), HasSubstr("If forced, standings: "));
  EXPECT_THAT(Why(refused.status()),
              ::testing::ContainsRegex(absl::StrCat(
                  "'", black, "' rank [0-9]+ -> [0-9]+, points 2 -> 0")));
  EXPECT_EQ(t.SerializeAsString(), before);

  ResultOptions forced = plain;
  forced.force = true;
  auto notes = EnterResult(&t, 1, 1, 0, v1::GAME_RESULT_UNKNOWN, forced);
  ASSERT_TRUE(notes.ok()) << notes.status();
  ASSERT_EQ(notes->size(), 2u);
  EXPECT_THAT((*notes)[1], HasSubstr("points 2 -> 0"));
  // Round 3 cannot be paired while round 1 lacks a result, even with
  // round 2 complete.
  BlackWins(&t);
  auto report = PairNextRound(&t, PairingOptions());
  ASSERT_EQ(report.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Why(report.status()),
            "round 1 is not complete: no result at table 1");
  // The history keeps who, when, old and new of every change.
  const v1::TournamentChange& last = t.history(t.history_size() - 5);
  EXPECT_EQ(last.action(), "result");
  EXPECT_EQ(last.who(), "alice (local)");
  EXPECT_EQ(last.unix_ms(), 1700000000000);
  EXPECT_EQ(last.round(), 1u);
  EXPECT_EQ(last.table(), 1u);
  EXPECT_EQ(last.old_result(), v1::GAME_RESULT_BLACK_WINS);
  EXPECT_EQ(last.new_result(), v1::GAME_RESULT_UNKNOWN);
  EXPECT_TRUE(last.forced());
  // Entering it again is allowed without force (there is none to lose).
  ASSERT_TRUE(EnterResult(&t, 1, 1, 0, v1::GAME_RESULT_WHITE_WINS, plain).ok());
  EXPECT_TRUE(PairNextRound(&t, PairingOptions()).ok());
}

TEST(Results, EveryChangeIsInTheHistoryAndTheSameResultIsNone) {
  v1::Tournament t = MakeEvent(Swiss(3), 4);
  Pair(&t);
  ResultOptions o;
  o.actor = {"token 2 'desk' (operator)", 5};
  ASSERT_TRUE(EnterResult(&t, 1, 1, 0, v1::GAME_RESULT_BLACK_WINS, o).ok());
  ASSERT_TRUE(EnterResult(&t, 1, 1, 0, v1::GAME_RESULT_BLACK_WINS, o).ok());
  ASSERT_TRUE(EnterResult(&t, 1, 1, 0, v1::GAME_RESULT_DRAW, o).ok());
  ASSERT_EQ(t.history_size(), 2);
  EXPECT_EQ(t.history(0).old_result(), v1::GAME_RESULT_UNKNOWN);
  EXPECT_EQ(t.history(0).new_result(), v1::GAME_RESULT_BLACK_WINS);
  EXPECT_EQ(t.history(1).old_result(), v1::GAME_RESULT_BLACK_WINS);
  EXPECT_EQ(t.history(1).new_result(), v1::GAME_RESULT_DRAW);
  EXPECT_FALSE(t.history(1).forced());  // the last round: nothing depends
  EXPECT_EQ(t.history(1).who(), "token 2 'desk' (operator)");
}

TEST(Results, AWithdrawnPlayersForfeitChangesOnlyWithForce) {
  v1::Tournament t = MakeEvent(Swiss(4), 6);
  Pair(&t);
  const v1::Pairing p = t.round(0).pairings(1);
  const std::string gone = t.players(p.black()).name();
  ASSERT_TRUE(WithdrawPlayer(&t, gone, {"bob (local)", 9}).ok());
  ASSERT_EQ(t.round(0).pairings(1).result(), v1::GAME_RESULT_WHITE_FORFEIT_WIN);
  // The withdrawal's forfeit is in the history.
  ASSERT_EQ(t.history_size(), 1);
  EXPECT_EQ(t.history(0).action(), "withdrawal");
  EXPECT_EQ(t.history(0).who(), "bob (local)");
  EXPECT_EQ(t.history(0).new_result(), v1::GAME_RESULT_WHITE_FORFEIT_WIN);
  const std::string before = t.SerializeAsString();
  auto s = EnterResult(&t, 1, 2, 0, v1::GAME_RESULT_BLACK_WINS, {});
  ASSERT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(Why(s.status()),
              HasSubstr("it is a forfeit entered by a withdrawal (W+forfeit)"));
  EXPECT_THAT(Why(s.status()),
              HasSubstr(absl::StrCat("it gives '", gone,
                                     "', who has withdrawn, a win")));
  EXPECT_EQ(t.SerializeAsString(), before);
  // A forfeit entered by hand is protected the same way.
  ASSERT_TRUE(SetResult(&t, 1, 1, v1::GAME_RESULT_BLACK_FORFEIT_WIN).ok());
  EXPECT_THAT(Why(SetResult(&t, 1, 1, v1::GAME_RESULT_WHITE_WINS)),
              HasSubstr("it is a forfeit (B+forfeit)"));
  ResultOptions force;
  force.force = true;
  auto forced = EnterResult(&t, 1, 2, 0, v1::GAME_RESULT_BLACK_WINS, force);
  ASSERT_TRUE(forced.ok()) << forced.status();
  EXPECT_THAT(forced->front(), HasSubstr("forced"));
  EXPECT_FALSE(t.round(0).pairings(1).by_withdrawal());
  EXPECT_TRUE(t.history(t.history_size() - 1).forced());
}

TEST(Results, RoundRobinRoundsDoNotDependOnResults) {
  v1::Tournament t = MakeEvent(System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN), 4);
  Pair(&t);
  BlackWins(&t);
  Pair(&t);
  // Changing round 1 is no pairing's business; it is kept in the history.
  ASSERT_TRUE(SetResult(&t, 1, 1, v1::GAME_RESULT_DRAW).ok());
  EXPECT_EQ(t.history(t.history_size() - 1).old_result(),
            v1::GAME_RESULT_BLACK_WINS);
  // A knockout's earlier results are frozen, force or not.
  v1::Tournament k = MakeEvent(System(v1::TOURNAMENT_SYSTEM_KNOCKOUT), 4);
  Pair(&k);
  BlackWins(&k);
  Pair(&k);
  ResultOptions force;
  force.force = true;
  auto s = EnterResult(&k, 1, 1, 0, v1::GAME_RESULT_WHITE_WINS, force);
  EXPECT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(Why(s.status()), HasSubstr("pairing undo"));
}

TEST(Seeds, DirectorSeedsAreKeptAndTheRestFollowRatings) {
  auto t = CreateTournament(Swiss(3));
  ASSERT_TRUE(t.ok());
  for (const auto& [name, rating, seed] :
       std::vector<std::tuple<std::string, int, int>>{
           {"a", 2000, 0}, {"b", 1900, 1}, {"c", 2100, 0}, {"d", 1500, 0}}) {
    PlayerEntry p;
    p.name = name;
    p.rating = rating;
    p.seed = seed;
    ASSERT_TRUE(AddPlayer(&*t, p).ok());
  }
  PlayerEntry dup;
  dup.name = "e";
  dup.seed = 1;
  EXPECT_EQ(Why(AddPlayer(&*t, dup).status()),
            "seed 1 is given to 'b' already");
  // Edits before the start: a free seed, a swap with its holder.
  PlayerEdit edit;
  edit.seed = 4;
  ASSERT_TRUE(EditPlayer(&*t, "d", edit).ok());
  edit.seed = 9;
  ASSERT_TRUE(EditPlayer(&*t, "a", edit).ok());
  v1::Tournament bad = *t;
  EXPECT_EQ(Why(PairNextRound(&bad, PairingOptions()).status()),
            "seed 9 of 'a' is beyond the 4 entrants; change it first");
  edit.seed = 0;
  ASSERT_TRUE(EditPlayer(&*t, "a", edit).ok());
  Pair(&*t);
  // b 1 (the director's), d 4 (the director's), then c, a by rating.
  EXPECT_EQ(t->players(1).order(), 1u);
  EXPECT_EQ(t->players(3).order(), 4u);
  EXPECT_EQ(t->players(2).order(), 2u);
  EXPECT_EQ(t->players(0).order(), 3u);
  // After the start, a Swiss swaps seeds; other fields change freely.
  PlayerEdit swap;
  swap.seed = 1;
  swap.rating = 2222;
  swap.rank = "3d";
  swap.alt_name = "阿";
  ASSERT_TRUE(EditPlayer(&*t, "a", swap).ok());
  EXPECT_EQ(t->players(0).order(), 1u);
  EXPECT_EQ(t->players(1).order(), 3u);
  EXPECT_EQ(t->players(0).rating(), 2222);
  EXPECT_EQ(t->players(0).alt_name(), "阿");
  PlayerEdit wrong;
  wrong.rank = "3x";
  EXPECT_EQ(EditPlayer(&*t, "a", wrong).code(),
            absl::StatusCode::kInvalidArgument);
  wrong = PlayerEdit();
  wrong.seed = 7;
  EXPECT_EQ(Why(EditPlayer(&*t, "a", wrong)), "seed 7 of 'a' is not in 1..4");
  EXPECT_EQ(EditPlayer(&*t, "zz", wrong).code(), absl::StatusCode::kNotFound);
  // A round robin's seeds are its table numbers: fixed once started.
  v1::Tournament rr = MakeEvent(System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN), 4);
  Pair(&rr);
  PlayerEdit s1;
  s1.seed = 1;
  EXPECT_THAT(Why(EditPlayer(&rr, "p2", s1)),
              HasSubstr("seeds of a round-robin are fixed"));
}

TEST(LateEntry, ScoresTheEventsPointsForMissedRoundsAndPlaysFromItsRound) {
  TournamentOptions o = Swiss(5);
  o.late_entry_points = 1;
  v1::Tournament t = MakeEvent(o, 6);
  Pair(&t);
  BlackWins(&t);
  Pair(&t);
  PlayerEntry late;
  late.name = "late";
  late.alt_name = "遲";
  late.rating = 2500;
  auto index = AddPlayer(&t, late);
  ASSERT_TRUE(index.ok()) << index.status();
  EXPECT_EQ(t.players(*index).entered_at_round(), 3u);
  EXPECT_EQ(t.players(*index).order(), 7u);  // after everyone
  BlackWins(&t);
  Pair(&t);
  // Not in rounds 1 and 2; in round 3 (7 players: one bye).
  EXPECT_EQ(TableOf(t.round(1), *index), nullptr);
  const bool placed = TableOf(t.round(2), *index) != nullptr ||
                      std::count(t.round(2).byes().begin(),
                                 t.round(2).byes().end(), *index) == 1;
  EXPECT_TRUE(placed);
  auto s = GetStandings(t);
  ASSERT_TRUE(s.ok());
  for (const StandingRow& row : s->rows) {
    if (row.name != "late") continue;
    EXPECT_EQ(row.points, 2);  // 1 + 1 for the two rounds missed
    EXPECT_EQ(row.games, 0);
    EXPECT_EQ(row.absent, 2);
    EXPECT_EQ(row.sos, 0);
  }
  auto x = GetCrosstable(t);
  ASSERT_TRUE(x.ok());
  for (const CrossRow& row : x->rows) {
    if (row.name == "late") EXPECT_EQ(row.cells[0].result, "absent");
  }
  // Late entries are refused where they cannot be placed, with the reason.
  v1::Tournament rr = MakeEvent(System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN), 4);
  Pair(&rr);
  EXPECT_EQ(Why(AddPlayer(&rr, late).status()),
            "cannot add 'late': round 1 is already paired, and only an "
            "individual Swiss takes late entries (not a round-robin)");
  v1::Tournament done = MakeEvent(Swiss(1), 4);
  Pair(&done);
  EXPECT_EQ(Why(AddPlayer(&done, late).status()),
            "cannot add 'late': all 1 Swiss rounds are paired");
  TournamentOptions points = Swiss(3);
  points.late_entry_points = 2;
  EXPECT_THAT(Why(CreateTournament(points).status()),
              HasSubstr("late_entry_points 2 is not 0 or 1"));
}

TEST(SitOut, ARequestedByeScoresTheEventsPointsAndIsNotTheBye) {
  TournamentOptions o = Swiss(4);
  o.sit_out_points = 1;
  v1::Tournament t = MakeEvent(o, 6);
  ASSERT_TRUE(SitOut(&t, "p3", 2).ok());
  EXPECT_EQ(Why(SitOut(&t, "p3", 2)),
            "'p3' has already asked to sit out round 2");
  EXPECT_EQ(Why(SitOut(&t, "p4", 2, /*cancel=*/true)),
            "'p4' has not asked to sit out round 2");
  EXPECT_EQ(Why(SitOut(&t, "p3", 9)),
            "round 9 is beyond the event's 4 Swiss rounds");
  Pair(&t);
  BlackWins(&t);
  EXPECT_THAT(Why(SitOut(&t, "p5", 1)), HasSubstr("round 1 is already paired"));
  Pair(&t);
  // p3 sits round 2 out: 5 play, one of them has the bye.
  EXPECT_EQ(
      std::vector<int>(t.round(1).absent().begin(), t.round(1).absent().end()),
      std::vector<int>{2});
  EXPECT_EQ(TableOf(t.round(1), 2), nullptr);
  EXPECT_EQ(t.round(1).byes_size(), 1);
  EXPECT_NE(t.round(1).byes(0), 2);
  const Field field = BuildField(t);
  EXPECT_TRUE(field.entrants[2].bye_rounds.empty());  // not the bye
  EXPECT_EQ(field.entrants[2].absent_rounds, std::vector<int>{2});
  const int round1 = OutcomePoints(OutcomeFor(
      TableOf(t.round(0), 2)->result(), TableOf(t.round(0), 2)->black() == 2));
  EXPECT_EQ(field.entrants[2].points, round1 + 1);
  // Only an individual Swiss takes requests.
  v1::Tournament rr = MakeEvent(System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN), 4);
  EXPECT_EQ(Why(SitOut(&rr, "p1", 2)),
            "a requested bye is for an individual Swiss, not a round-robin");
}

TEST(PairingEdits, SwapIsCheckedLikeThePairer) {
  v1::Tournament t = MakeEvent(Swiss(4), 8);
  Pair(&t);
  BlackWins(&t);
  Pair(&t);
  // Round 2: make a swap that repeats a round 1 pair.
  const v1::Pairing r1 = t.round(0).pairings(0);
  const int a = r1.black();
  const int b = r1.white();
  const v1::Pairing* at = TableOf(t.round(1), a);
  ASSERT_NE(at, nullptr);
  const int partner = at->black() == a ? at->white() : at->black();
  ASSERT_NE(partner, b);
  PairingEdit swap;
  swap.kind = PairingEditKind::kSwap;
  swap.first = t.players(partner).name();
  swap.second = t.players(b).name();
  swap.actor = {"carol (local)", 77};
  const std::string before = t.SerializeAsString();
  auto refused = EditPairing(&t, swap);
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(Why(refused.status()),
              HasSubstr(absl::StrCat("'", t.players(a).name(), "' and '",
                                     t.players(b).name(), "' met in round 1")));
  EXPECT_EQ(t.SerializeAsString(), before);
  swap.force = true;
  auto forced = EditPairing(&t, swap);
  ASSERT_TRUE(forced.ok()) << forced.status();
  EXPECT_THAT(forced->front(), HasSubstr("forced"));
  EXPECT_TRUE(t.round(1).edited());
  const v1::TournamentChange& c = t.history(t.history_size() - 1);
  EXPECT_EQ(c.action(), "pairing");
  EXPECT_EQ(c.who(), "carol (local)");
  EXPECT_TRUE(c.forced());
  // Now a meets b again.
  EXPECT_EQ(TableOf(t.round(1), a), TableOf(t.round(1), b));
  // The earlier round cannot be edited; a table with a result cannot.
  PairingEdit old = swap;
  old.round = 1;
  EXPECT_EQ(Why(EditPairing(&t, old).status()),
            "round 1 is not the last round paired (2): only the last round's "
            "pairing can be edited");
  ASSERT_TRUE(SetResult(&t, 2, 1, v1::GAME_RESULT_DRAW).ok());
  PairingEdit colours;
  colours.kind = PairingEditKind::kSwapColours;
  colours.table = 1;
  EXPECT_THAT(Why(EditPairing(&t, colours).status()),
              HasSubstr("round 2 table 1 has a result (draw)"));
  colours.table = 2;
  const int black = t.round(1).pairings(1).black();
  ASSERT_TRUE(EditPairing(&t, colours).ok());
  EXPECT_EQ(t.round(1).pairings(1).white(), black);
  colours.table = 9;
  EXPECT_EQ(EditPairing(&t, colours).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(PairingEdits, UnpairPairAndByeKeepTheRoundIncompleteUntilPlaced) {
  v1::Tournament t = MakeEvent(Swiss(4), 7);
  Pair(&t);
  BlackWins(&t);
  Pair(&t);
  const int had_bye = t.round(0).byes(0);
  const int has_bye = t.round(1).byes(0);
  ASSERT_NE(had_bye, has_bye);
  // The round 1 bye swapped onto the bye again: one bye each.
  PairingEdit swap;
  swap.kind = PairingEditKind::kSwap;
  swap.first = t.players(had_bye).name();
  swap.second = t.players(has_bye).name();
  EXPECT_THAT(Why(EditPairing(&t, swap).status()),
              HasSubstr(absl::StrCat("'", swap.first,
                                     "' had the bye in round 1 (one bye "
                                     "each)")));
  // Table 1 taken apart: its two wait unpaired, tables renumbered.
  PairingEdit apart;
  apart.kind = PairingEditKind::kUnpair;
  apart.table = 1;
  const v1::Pairing table1 = t.round(1).pairings(0);
  ASSERT_TRUE(EditPairing(&t, apart).ok());
  EXPECT_EQ(t.round(1).unpaired_size(), 2);
  EXPECT_EQ(t.round(1).pairings(0).table(), 1u);
  EXPECT_EQ(t.round(1).pairings_size(), 2);
  BlackWins(&t);
  auto blocked = PairNextRound(&t, PairingOptions());
  ASSERT_EQ(blocked.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Why(blocked.status()),
            absl::StrCat("round 2 is not complete: '",
                         t.players(table1.black()).name(), "', '",
                         t.players(table1.white()).name(),
                         "' are not paired (pairing add, bye or swap)"));
  // A second bye in the round is refused; so is placing a paired player.
  PairingEdit bye;
  bye.kind = PairingEditKind::kBye;
  bye.first = t.players(table1.black()).name();
  EXPECT_THAT(Why(EditPairing(&t, bye).status()),
              HasSubstr(absl::StrCat("round 2 has a bye already ('",
                                     t.players(has_bye).name(), "')")));
  PairingEdit pair;
  pair.kind = PairingEditKind::kPair;
  pair.first = t.players(table1.white()).name();
  pair.second = t.players(has_bye).name();
  EXPECT_THAT(Why(EditPairing(&t, pair).status()),
              HasSubstr("is on the bye in round 2, not unpaired"));
  // Paired back, colours the other way.
  pair.second = t.players(table1.black()).name();
  ASSERT_TRUE(EditPairing(&t, pair).ok());
  const v1::Pairing& added = t.round(1).pairings(2);
  EXPECT_EQ(added.table(), 3u);
  EXPECT_EQ(added.black(), table1.white());
  EXPECT_EQ(t.round(1).unpaired_size(), 0);
  // Tables 2 and 3 have results: the round has started and its bye is a
  // win already. Taking it back is a changed result: refused without
  // force (nothing changes), made with it; the bye then goes back.
  PairingEdit unbye;
  unbye.kind = PairingEditKind::kUnpair;
  unbye.first = t.players(has_bye).name();
  const std::string before = t.SerializeAsString();
  EXPECT_THAT(
      Why(EditPairing(&t, unbye).status()),
      HasSubstr(absl::StrCat("round 2 has started (table 1 has a "
                             "result): the bye of '",
                             unbye.first, "' counts as a win already")));
  EXPECT_EQ(t.SerializeAsString(), before);
  unbye.force = true;
  ASSERT_TRUE(EditPairing(&t, unbye).ok());
  bye.first = unbye.first;
  ASSERT_TRUE(EditPairing(&t, bye).ok());
  BlackWins(&t);
  EXPECT_TRUE(PairNextRound(&t, PairingOptions()).ok());
}

TEST(PairingEdits, UndoTakesARoundBackAndALateEntryJoinsIt) {
  v1::Tournament t = MakeEvent(Swiss(4), 6);
  Pair(&t);
  BlackWins(&t);
  Pair(&t);
  PlayerEntry late;
  late.name = "late";
  ASSERT_TRUE(AddPlayer(&t, late).ok());
  EXPECT_EQ(t.players(6).entered_at_round(), 3u);
  PairingEdit undo;
  undo.kind = PairingEditKind::kUndoRound;
  ASSERT_TRUE(EditPairing(&t, undo).ok());
  EXPECT_EQ(t.round_size(), 1);
  EXPECT_EQ(t.players(6).entered_at_round(), 2u);
  Pair(&t);
  const bool in = TableOf(t.round(1), 6) != nullptr ||
                  (t.round(1).byes_size() == 1 && t.round(1).byes(0) == 6);
  EXPECT_TRUE(in);
  ASSERT_TRUE(SetResult(&t, 2, 1, v1::GAME_RESULT_BLACK_WINS).ok());
  EXPECT_EQ(Why(EditPairing(&t, undo).status()),
            "round 2 has started (table 1 has a result): its pairing can no "
            "longer be taken back");
}

TEST(PairingEdits, RoundRobinAndEliminationKeepTheirStructure) {
  v1::Tournament rr = MakeEvent(System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN), 4);
  Pair(&rr);
  PairingEdit swap;
  swap.kind = PairingEditKind::kSwap;
  swap.first = rr.players(rr.round(0).pairings(0).black()).name();
  swap.second = rr.players(rr.round(0).pairings(1).black()).name();
  EXPECT_THAT(Why(EditPairing(&rr, swap).status()),
              HasSubstr("a round robin's pairings follow its rotation table"));
  swap.force = true;
  EXPECT_TRUE(EditPairing(&rr, swap).ok());
  TournamentOptions b = System(v1::TOURNAMENT_SYSTEM_BEST_OF);
  b.best_of = 3;
  v1::Tournament match = MakeEvent(b, 2);
  Pair(&match);
  PairingEdit colours;
  colours.kind = PairingEditKind::kSwapColours;
  colours.table = 1;
  EXPECT_EQ(Why(EditPairing(&match, colours).status()),
            "a best-of pairs its two sides by its own rule: nothing to edit");
}

TEST(PairingEdits, TeamSwapRebuildsTheBoards) {
  TournamentOptions o = Swiss(2);
  o.teams = true;
  o.boards = 2;
  o.name = "teams";
  auto t = CreateTournament(o);
  ASSERT_TRUE(t.ok());
  for (const std::string team : {"A", "B", "C", "D"}) {
    for (int b = 1; b <= 2; ++b) {
      PlayerEntry p;
      p.name = team + std::to_string(b);
      p.team = team;
      ASSERT_TRUE(AddPlayer(&*t, p).ok());
    }
  }
  Pair(&*t);
  const v1::Pairing t1 = t->round(0).pairings(0);
  const v1::Pairing t2 = t->round(0).pairings(1);
  PairingEdit swap;
  swap.kind = PairingEditKind::kSwap;
  swap.first = t->teams(t1.white()).name();
  swap.second = t->teams(t2.white()).name();
  ASSERT_TRUE(EditPairing(&*t, swap).ok());
  const v1::Pairing& now = t->round(0).pairings(0);
  EXPECT_EQ(now.white(), t2.white());
  // Board 1: the team in `black` holds Black; board 2 the other way.
  EXPECT_EQ(t->players(now.boards(0).white()).team(),
            t->teams(t2.white()).name());
  EXPECT_EQ(t->players(now.boards(1).black()).team(),
            t->teams(t2.white()).name());
}

TEST(Accelerated, TheTopHalfIsPairedOneWinUpInTheFirstRounds) {
  TournamentOptions o = Swiss(5);
  o.accelerated_rounds = 2;
  v1::Tournament t = MakeEvent(o, 16);
  Pair(&t);
  // Round 1: the top half (p1..p8) among themselves, the bottom half too.
  for (const v1::Pairing& p : t.round(0).pairings()) {
    EXPECT_EQ(p.black() < 8, p.white() < 8) << p.black() << "-" << p.white();
  }
  BlackWins(&t);
  // Standings never see the virtual points.
  auto s = GetStandings(t);
  ASSERT_TRUE(s.ok());
  int total = 0;
  for (const StandingRow& row : s->rows) total += row.points;
  EXPECT_EQ(total, 8 * kWinPoints);
  TournamentOptions rr = System(v1::TOURNAMENT_SYSTEM_ROUND_ROBIN);
  rr.name = "x";
  rr.accelerated_rounds = 1;
  EXPECT_EQ(Why(CreateTournament(rr).status()),
            "accelerated pairing is for Swiss systems");
  TournamentOptions too_many = Swiss(3);
  too_many.name = "x";
  too_many.accelerated_rounds = 4;
  EXPECT_EQ(Why(CreateTournament(too_many).status()),
            "accelerated rounds 4 exceed the 3 rounds");
}

}  // namespace
}  // namespace qipu::tournament
