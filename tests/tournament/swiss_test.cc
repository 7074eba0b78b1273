// Swiss pairing invariants over many random tournaments driven through the
// API -- with withdrawals, late entries, requested byes and the director's
// pairing edits -- checked by code independent of the pairer (the test's
// own book of who met whom, never the library's Field::HasMet): every
// player placed once, no repeated pair or second bye unless the pairer
// said none could be avoided (a repeat-free pairing exists exactly when
// Boost's Edmonds matching finds a perfect matching of the pairs that have
// not met, plus a bye vertex for the players without a bye) or the
// director forced it, edits refused exactly when they would repeat a pair
// or give a second bye, and the standings recomputed.
#include "tournament/swiss.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/max_cardinality_matching.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/tournament/driver.h"
#include "tournament/field.h"
#include "tournament/outcome.h"
#include "tournament/tournament.h"

namespace qipu::tournament {
namespace {

using testing::MakeEvent;
using testing::System;

TEST(RecommendedSwissRounds, KnockoutRoundsTimesOneAndAHalfMadeOdd) {
  EXPECT_EQ(RecommendedSwissRounds(2), 1);
  EXPECT_EQ(RecommendedSwissRounds(4), 3);  // 2 x 1.5 = 3
  EXPECT_EQ(RecommendedSwissRounds(5), 5);  // 3 x 1.5 = 4.5 -> 5
  EXPECT_EQ(RecommendedSwissRounds(8), 5);
  EXPECT_EQ(RecommendedSwissRounds(16), 7);  // 4 x 1.5 = 6 -> 7
  EXPECT_EQ(RecommendedSwissRounds(32), 9);  // 7.5 -> 8 -> 9
  EXPECT_EQ(RecommendedSwissRounds(100), 11);
  EXPECT_EQ(RecommendedSwissRounds(1000), 15);
  EXPECT_EQ(RecommendedSwissRounds(3), 3);  // capped: 3 players, 3 rounds
}

// What the test knows of a tournament from the stored rounds and its own
// actions only -- never the library's Field or its HasMet: who met whom,
// who had a bye, who withdrew, entered late or asked to sit out.
struct Book {
  std::set<std::pair<int, int>> met;
  std::map<int, int> byes;                // player -> byes had
  std::map<int, int> withdrawn_from;      // player -> first round not paired
  std::map<int, int> entered;             // late entry -> first round
  std::map<int, std::set<int>> sit_outs;  // round -> players

  static std::pair<int, int> Key(int a, int b) { return std::minmax(a, b); }
  bool Met(int a, int b) const { return met.count(Key(a, b)) > 0; }
  bool Plays(int p, int round) const {
    auto w = withdrawn_from.find(p);
    if (w != withdrawn_from.end() && w->second <= round) return false;
    auto e = entered.find(p);
    return e == entered.end() || e->second <= round;
  }
  void Add(const v1::Round& r) {
    for (const v1::Pairing& p : r.pairings())
      met.insert(Key(p.black(), p.white()));
    for (const int b : r.byes()) ++byes[b];
  }
};

// True when `players` can be paired without a repeat and with the bye to a
// player who has had none (Boost's Edmonds matching, on the Book).
bool RepeatFreePossible(const Book& book, const std::vector<int>& players) {
  const int m = static_cast<int>(players.size());
  const int v = m + m % 2;
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  Graph g(v);
  for (int a = 0; a < m; ++a) {
    for (int b = a + 1; b < m; ++b) {
      if (!book.Met(players[a], players[b])) boost::add_edge(a, b, g);
    }
    if (m % 2 == 1 && book.byes.count(players[a]) == 0) {
      boost::add_edge(a, m, g);
    }
  }
  std::vector<boost::graph_traits<Graph>::vertex_descriptor> mate(v);
  boost::edmonds_maximum_cardinality_matching(g, &mate[0]);
  return static_cast<int>(boost::matching_size(g, &mate[0])) * 2 == v;
}

struct Stats {
  int tournaments = 0;
  int rounds = 0;
  int pairs = 0;
  int pairs_across_groups = 0;  // score difference > 0
  int max_difference = 0;       // in game points
  int64_t difference_sum = 0;
  int rounds_needing_repeats = 0;
  int colour_imbalance_max = 0;
  int byes = 0;
  int byes_not_lowest = 0;
  int late_entries = 0;
  int sit_outs = 0;
  int edits = 0;          // made without force
  int edits_refused = 0;  // refused, the reason checked independently
  int edits_forced = 0;   // refused checks overridden with force
};

// Game points of `result` for Black and White; false when it counts for
// nobody (void, unknown).
bool GamePoints(v1::GameResult result, int* black, int* white) {
  switch (result) {
    case v1::GAME_RESULT_BLACK_WINS:
    case v1::GAME_RESULT_BLACK_FORFEIT_WIN:
      *black = 2, *white = 0;
      return true;
    case v1::GAME_RESULT_WHITE_WINS:
    case v1::GAME_RESULT_WHITE_FORFEIT_WIN:
      *black = 0, *white = 2;
      return true;
    case v1::GAME_RESULT_DRAW:
      *black = *white = 1;
      return true;
    case v1::GAME_RESULT_BOTH_LOSE:
      *black = *white = 0;
      return true;
    default:
      return false;
  }
}

// Points of every player from the stored rounds and the event's points
// for missed rounds, recomputed here.
std::map<int, int> Points(const v1::Tournament& t, const Book& book) {
  std::map<int, int> points;
  for (int i = 0; i < t.players_size(); ++i) points[i] = 0;
  for (const v1::Round& r : t.round()) {
    for (const v1::Pairing& p : r.pairings()) {
      int b = 0, w = 0;
      if (!GamePoints(p.result(), &b, &w)) continue;
      points[p.black()] += b;
      points[p.white()] += w;
    }
    for (const int b : r.byes()) points[b] += 2;
    for (const int a : r.absent()) points[a] += t.sit_out_points();
  }
  for (const auto& [p, first] : book.entered) {
    points[p] += (std::min(first, t.round_size() + 1) - 1) *
                 static_cast<int>(t.late_entry_points());
  }
  return points;
}

// One random edit of the last round (round `r`), checked against the Book:
// a swap of two entrants (refused exactly when it makes a pair that met
// or a second bye), colours, or a table taken apart and paired again the
// other way round. Adds to `forced` the pairs a forced edit repeats.
void RandomEdit(v1::Tournament& t, const Book& book, int r,
                std::mt19937_64& rng, Stats& stats,
                std::set<std::pair<int, int>>& forced, bool& forced_bye) {
  const v1::Round& round = t.round(r - 1);
  const int tables = round.pairings_size();
  if (tables == 0) return;
  const int kind = static_cast<int>(rng() % 10);
  if (kind == 0) {
    PairingEdit colours;
    colours.kind = PairingEditKind::kSwapColours;
    colours.table = 1 + static_cast<int>(rng() % tables);
    ASSERT_TRUE(EditPairing(&t, colours).ok());
    ++stats.edits;
    return;
  }
  if (kind == 1) {
    const int k = 1 + static_cast<int>(rng() % tables);
    const v1::Pairing p = round.pairings(k - 1);
    PairingEdit apart;
    apart.kind = PairingEditKind::kUnpair;
    apart.table = k;
    ASSERT_TRUE(EditPairing(&t, apart).ok());
    PairingEdit back;
    back.kind = PairingEditKind::kPair;
    back.first = t.players(p.white()).name();
    back.second = t.players(p.black()).name();
    back.force = book.Met(p.black(), p.white());  // a repeat the pairer took
    ASSERT_TRUE(EditPairing(&t, back).ok());
    stats.edits += 2;
    return;
  }
  // A swap: two entrants at different tables, or one on the bye.
  std::vector<std::pair<int, int>> seats;  // (entrant, table; 0 = bye)
  for (const v1::Pairing& p : round.pairings()) {
    seats.emplace_back(p.black(), p.table());
    seats.emplace_back(p.white(), p.table());
  }
  for (const int b : round.byes()) seats.emplace_back(b, 0);
  const auto [a, ta] = seats[rng() % seats.size()];
  const auto [b, tb] = seats[rng() % seats.size()];
  if (a == b || (ta == tb && ta != 0)) return;
  // What the swap makes, judged here.
  const auto other = [&](int table, int self) {
    const v1::Pairing& p = round.pairings(table - 1);
    return p.black() == self ? p.white() : p.black();
  };
  std::vector<std::pair<int, int>> pairs;
  bool second_bye = false;
  for (const auto& [mover, seat, left] :
       {std::tuple{a, tb, b}, std::tuple{b, ta, a}}) {
    if (seat == 0) {
      second_bye = second_bye || book.byes.count(mover) > 0;
    } else {
      pairs.push_back(Book::Key(mover, other(seat, left)));
    }
  }
  bool repeat = false;
  for (const auto& pr : pairs) repeat = repeat || book.Met(pr.first, pr.second);
  PairingEdit swap;
  swap.kind = PairingEditKind::kSwap;
  swap.first = t.players(a).name();
  swap.second = t.players(b).name();
  swap.force = rng() % 3 == 0;
  auto done = EditPairing(&t, swap);
  if (!swap.force) {
    ASSERT_EQ(done.ok(), !repeat && !second_bye) << done.status();
    if (!done.ok()) {
      ++stats.edits_refused;
      const std::string why(done.status().message());
      if (repeat) EXPECT_NE(why.find("met in round"), std::string::npos) << why;
      if (second_bye) {
        EXPECT_NE(why.find("had the bye"), std::string::npos) << why;
      }
      return;
    }
    ++stats.edits;
    return;
  }
  ASSERT_TRUE(done.ok()) << done.status();
  ++stats.edits;
  if (repeat || second_bye) {
    ++stats.edits_forced;
    ASSERT_FALSE(done->empty());  // the forced reason is a note
    for (const auto& pr : pairs) {
      if (book.Met(pr.first, pr.second)) forced.insert(pr);
    }
    forced_bye = forced_bye || second_bye;
  }
}

// Plays one random Swiss of `n` players with random results, withdrawals,
// late entries, requested byes and pairing edits, checking every round and
// the standings against the Book.
void PlaySwiss(int n, int rounds, std::mt19937_64& rng, Stats& stats) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_SWISS);
  o.rounds = rounds;
  o.drawing_lots = rng();
  o.late_entry_points = static_cast<int>(rng() % 2);
  o.sit_out_points = static_cast<int>(rng() % 2);
  v1::Tournament t = MakeEvent(o, n);
  ++stats.tournaments;
  Book book;
  bool edited_event = false;
  for (int r = 1; r <= rounds; ++r) {
    // Withdrawals (about one player in 60 a round), late entries (a round
    // in 8 from round 2), requests to sit out (one player in 100).
    for (int i = 0; i < t.players_size(); ++i) {
      if (rng() % 60 == 0 && book.Plays(i, r) &&
          t.players(i).withdrawn_at_round() == 0) {
        ASSERT_TRUE(WithdrawPlayer(&t, t.players(i).name()).ok());
        book.withdrawn_from[i] = r;
      }
    }
    if (r >= 2 && rng() % 8 == 0) {
      PlayerEntry late;
      late.name = absl::StrCat("late", r, "-", t.players_size());
      late.rating = 1500 + static_cast<int>(rng() % 600);
      auto index = AddPlayer(&t, late);
      ASSERT_TRUE(index.ok()) << index.status();
      book.entered[*index] = r;
      ++stats.late_entries;
    }
    for (int i = 0; i < t.players_size(); ++i) {
      if (rng() % 100 == 0 && book.Plays(i, r)) {
        ASSERT_TRUE(SitOut(&t, t.players(i).name(), r).ok());
        book.sit_outs[r].insert(i);
        ++stats.sit_outs;
      }
    }
    std::vector<int> active;
    for (int i = 0; i < t.players_size(); ++i) {
      if (book.Plays(i, r) && book.sit_outs[r].count(i) == 0) {
        active.push_back(i);
      }
    }
    if (active.size() < 2) return;
    const std::map<int, int> points_before = Points(t, book);
    auto report = PairNextRound(&t, PairingOptions());
    if (!report.ok()) {
      // Only when a bye is needed and everyone had one.
      ASSERT_EQ(report.status().code(), absl::StatusCode::kFailedPrecondition)
          << report.status();
      ASSERT_THAT(std::string(report.status().message()),
                  ::testing::HasSubstr("needs a bye"));
      return;
    }
    // "No repeat-free pairing" is always checked with Boost; "repeat-free"
    // in every eighth round (and by the pairs themselves in every round).
    const bool possible = report->repeat_free && stats.rounds % 8 != 0
                              ? true
                              : RepeatFreePossible(book, active);
    ASSERT_EQ(report->repeat_free, possible) << "round " << r;
    if (!report->repeat_free) {
      ++stats.rounds_needing_repeats;
      ASSERT_FALSE(report->paired);
      ASSERT_GT(report->repeats_needed, 0);
      PairingOptions allow;
      allow.allow_repeats = true;
      report = PairNextRound(&t, allow);
      ASSERT_TRUE(report.ok()) << report.status();
      ASSERT_TRUE(report->paired);
      ASSERT_TRUE(t.round(r - 1).repeats_accepted());
    }
    // Edits in one round of five.
    std::set<std::pair<int, int>> forced;
    bool forced_bye = false;
    const bool edit = rng() % 5 == 0;
    for (int k = 0; edit && k < 3; ++k) {
      RandomEdit(t, book, r, rng, stats, forced, forced_bye);
      if (::testing::Test::HasFatalFailure()) return;
    }
    edited_event = edited_event || edit;
    const v1::Round& round = t.round(r - 1);
    // Every active player exactly once, nobody else; the absent as asked.
    std::multiset<int> seen;
    for (const v1::Pairing& p : round.pairings()) {
      seen.insert(p.black());
      seen.insert(p.white());
      ASSERT_NE(p.black(), p.white());
      const auto key = Book::Key(p.black(), p.white());
      ASSERT_TRUE(!book.Met(p.black(), p.white()) || !report->repeat_free ||
                  forced.count(key))
          << "avoidable repeat in round " << r;
      if (edit) continue;
      const int diff =
          std::abs(points_before.at(p.black()) - points_before.at(p.white()));
      ++stats.pairs;
      stats.pairs_across_groups += diff > 0;
      stats.difference_sum += diff;
      stats.max_difference = std::max(stats.max_difference, diff);
    }
    for (const int b : round.byes()) {
      seen.insert(b);
      ASSERT_TRUE(book.byes.count(b) == 0 || forced_bye)
          << "second bye for " << b << " in round " << r;
      if (edit) continue;
      int lowest = 1 << 30;
      for (const int e : active) {
        if (book.byes.count(e) == 0)
          lowest = std::min(lowest, points_before.at(e));
      }
      ++stats.byes;
      stats.byes_not_lowest += points_before.at(b) != lowest;
    }
    ASSERT_EQ(round.byes_size(), static_cast<int>(active.size() % 2));
    ASSERT_EQ(seen, std::multiset<int>(active.begin(), active.end()));
    std::set<int> absent;
    for (const int a : round.absent()) {
      if (book.Plays(a, r)) absent.insert(a);
    }
    ASSERT_EQ(absent, book.sit_outs[r]);
    ASSERT_EQ(round.unpaired_size(), 0);
    book.Add(round);
    ++stats.rounds;
    testing::ResultRandom(&t, rng, /*rare=*/15);
  }
  // The standings against the Book: points (missed rounds included), SOS
  // over counted games, and the order points, SOS, warnings, lots.
  const std::map<int, int> points = Points(t, book);
  std::map<int, int> sos;
  std::map<int, int> games;
  for (const v1::Round& r : t.round()) {
    for (const v1::Pairing& p : r.pairings()) {
      int b = 0, w = 0;
      if (!GamePoints(p.result(), &b, &w)) continue;
      sos[p.black()] += points.at(p.white());
      sos[p.white()] += points.at(p.black());
      ++games[p.black()];
      ++games[p.white()];
    }
  }
  auto s = GetStandings(t);
  ASSERT_TRUE(s.ok()) << s.status();
  // Withdrawn before round 1: not in the draw (art. 28.1) nor the rows.
  int registered = 0;
  for (const auto& p : t.players()) registered += p.removed() ? 0 : 1;
  ASSERT_EQ(static_cast<int>(s->rows.size()), registered);
  for (size_t i = 0; i < s->rows.size(); ++i) {
    const StandingRow& row = s->rows[i];
    ASSERT_EQ(row.points, points.at(row.entrant)) << row.name;
    ASSERT_EQ(row.sos, sos[row.entrant]) << row.name;
    ASSERT_EQ(row.games, games[row.entrant]) << row.name;
    ASSERT_EQ(row.byes, book.byes[row.entrant]) << row.name;
    ASSERT_EQ(row.rank, static_cast<int>(i) + 1);
    if (i == 0) continue;
    const StandingRow& up = s->rows[i - 1];
    const auto key = [&](const StandingRow& x) {
      return std::make_tuple(-points.at(x.entrant), -sos[x.entrant], x.warnings,
                             DrawLot(t.drawing_lots(), x.entrant));
    };
    ASSERT_LE(key(up), key(row)) << up.name << " above " << row.name;
  }
  if (edited_event) return;
  for (int i = 0; i < t.players_size(); ++i) {
    int blacks = 0, whites = 0;
    for (const v1::Round& r : t.round()) {
      for (const v1::Pairing& p : r.pairings()) {
        blacks += p.black() == i;
        whites += p.white() == i;
      }
    }
    stats.colour_imbalance_max =
        std::max(stats.colour_imbalance_max, std::abs(blacks - whites));
  }
}

// The invariants over many random Swiss tournaments of 8 to 200 players,
// in five shards of 400 (2,000 tournaments, each shard its own seed, so
// ctest runs them side by side), with withdrawals, late entries, requested
// byes and pairing edits, every check made by the Book above (never the
// library's Field). Sized for CI under ASan on 2 cores: the field size is
// drawn log-uniformly from 8 to 200. QIPU_SWISS_SOAK=N in the environment
// plays N tournaments a shard instead (tournament/README.md has the
// figures of a soak).
class SwissRandom : public ::testing::TestWithParam<int> {};

TEST_P(SwissRandom, TournamentsKeepTheInvariants) {
  std::mt19937_64 rng(2026 + GetParam());
  Stats stats;
  int count = 400;
  if (const char* soak = std::getenv("QIPU_SWISS_SOAK")) {
    count = std::max(1, std::atoi(soak));
  }
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < count; ++i) {
    const double u = static_cast<double>(rng() % 10000) / 10000.0;
    const int n = static_cast<int>(8.0 * std::pow(200.0 / 8.0, u));
    // Up to the recommended rounds, sometimes more than a repeat-free
    // Swiss can hold for small fields.
    const int rounds = std::min(RecommendedSwissRounds(n) + 2,
                                static_cast<int>(1 + rng() % 12));
    PlaySwiss(n, std::max(rounds, 3), rng, stats);
    if (::testing::Test::HasFatalFailure()) return;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const double mean = static_cast<double>(stats.difference_sum) / stats.pairs;
  std::printf(
      "%d tournaments, %d rounds, %d pairs in %.1f s; pairs across score "
      "groups %.2f%%, mean score difference %.3f, max %d; rounds needing "
      "repeats %d; byes %d, above the lowest score %d; colour imbalance "
      "max %d; late entries %d, sit-outs %d; edits %d made, %d refused, %d "
      "forced\n",
      stats.tournaments, stats.rounds, stats.pairs, seconds,
      100.0 * stats.pairs_across_groups / stats.pairs, mean,
      stats.max_difference, stats.rounds_needing_repeats, stats.byes,
      stats.byes_not_lowest, stats.colour_imbalance_max, stats.late_entries,
      stats.sit_outs, stats.edits, stats.edits_refused, stats.edits_forced);
  EXPECT_GT(stats.rounds, count * 5);
  // The bye leaves the lowest group only to avoid a repeat.
  EXPECT_LE(stats.byes_not_lowest, stats.byes / 50 + 1);
  // Score groups hold as far as possible: few pairs float at all.
  EXPECT_LT(mean, 0.35);
  EXPECT_LT(stats.pairs_across_groups, stats.pairs / 4);
  // Colours give way to scores: in 3,000 tournaments some player reached 4.
  EXPECT_LE(stats.colour_imbalance_max, 4);
  // Every kind of event happened.
  EXPECT_GT(stats.late_entries, 0);
  EXPECT_GT(stats.sit_outs, 0);
  EXPECT_GT(stats.edits_refused, 0);
  EXPECT_GT(stats.edits_forced, 0);
}

INSTANTIATE_TEST_SUITE_P(Shards, SwissRandom, ::testing::Range(0, 5));

// The sparse graph of big fields against the full graph: the same
// feasibility, and a total cost (squared score differences) no worse than
// a small margin.
TEST(Swiss, SparseGraphIsCloseToTheFullGraph) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 6; ++trial) {
    const int n = 120 + static_cast<int>(rng() % 80);
    TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_SWISS);
    o.rounds = 7;
    v1::Tournament t = MakeEvent(o, n);
    for (int r = 1; r <= 6; ++r) {
      testing::Pair(&t);
      testing::ResultRandom(&t, rng);
    }
    const Field field = BuildField(t);
    std::vector<int> players;
    for (const Entrant& e : field.entrants) players.push_back(e.index);
    SwissOptions sparse;
    SwissOptions full;
    full.full_graph = true;
    auto a = PairSwiss(field, players, 7, sparse);
    auto b = PairSwiss(field, players, 7, full);
    ASSERT_TRUE(a.ok() && b.ok());
    const auto cost = [&](const SwissPairing& p) {
      int64_t c = 0;
      for (const auto& [x, y] : p.draft.games) {
        const int d = field.entrants[x].points - field.entrants[y].points;
        c += d * d;
      }
      return c;
    };
    EXPECT_EQ(a->repeat_free, b->repeat_free);
    EXPECT_LE(cost(*a), cost(*b) + 8) << "trial " << trial;
  }
}

TEST(Swiss, RoundOneFoldsTopHalfAgainstBottomHalf) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_SWISS);
  o.rounds = 3;
  v1::Tournament t = MakeEvent(o, 8);
  testing::Pair(&t);
  std::set<std::pair<int, int>> games;
  for (const v1::Pairing& p : t.round(0).pairings()) {
    games.insert(
        {std::min(p.black(), p.white()), std::max(p.black(), p.white())});
  }
  // p1 v p5, p2 v p6, p3 v p7, p4 v p8 (indexes 0-based).
  EXPECT_EQ(games,
            (std::set<std::pair<int, int>>{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  // Colours alternate down the tables in round 1.
  const auto& ps = t.round(0).pairings();
  for (int i = 1; i < ps.size(); ++i) {
    EXPECT_NE(ps[i].black() < ps[i].white(),
              ps[i - 1].black() < ps[i - 1].white());
  }
}

TEST(Swiss, ColourDueIsGiven) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_SWISS);
  o.rounds = 5;
  v1::Tournament t = MakeEvent(o, 16);
  std::mt19937_64 rng(5);
  for (int r = 1; r <= 5; ++r) {
    testing::Pair(&t);
    testing::ResultRandom(&t, rng, 0, false);
  }
  const Field field = BuildField(t);
  for (const Entrant& e : field.entrants) {
    EXPECT_LE(std::abs(e.blacks - e.whites), 1) << e.name;
  }
}

TEST(Swiss, EveryoneHadAByeIsAnError) {
  TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_SWISS);
  o.rounds = 9;
  v1::Tournament t = MakeEvent(o, 3);
  PairingOptions allow;
  allow.allow_repeats = true;
  for (int r = 1; r <= 3; ++r) {
    auto report = PairNextRound(&t, allow);
    ASSERT_TRUE(report.ok()) << report.status();
    testing::ResultAll(&t, v1::GAME_RESULT_BLACK_WINS);
  }
  // Three rounds, three byes: the fourth round has nobody to give one to.
  auto report = PairNextRound(&t, allow);
  EXPECT_EQ(report.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Swiss, SamePairingEveryTime) {
  const auto run = [] {
    TournamentOptions o = System(v1::TOURNAMENT_SYSTEM_SWISS);
    o.rounds = 5;
    v1::Tournament t = MakeEvent(o, 37);
    std::mt19937_64 rng(3);
    for (int r = 1; r <= 5; ++r) {
      testing::Pair(&t);
      testing::ResultRandom(&t, rng);
    }
    return t.SerializeAsString();
  };
  EXPECT_EQ(run(), run());
}

}  // namespace
}  // namespace qipu::tournament
