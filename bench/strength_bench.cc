#include "bench/strength_bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <system_error>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "match/match_record.h"
#include "match/play_match.h"
#include "match/player.h"
#include "policy/policy.h"
#include "rules/coord.h"
#include "rules/record.h"
#include "rules/rules_key.h"
#include "rules/sgf_writer.h"

namespace qipu::bench {
namespace {

using Clock = std::chrono::steady_clock;
using rules::Color;

// What one thread tallies for one side (summed into SideStats at the end;
// each thread writes only its own).
struct Tally {
  int64_t moves = 0;
  double seconds = 0;
  int64_t playouts = 0;
  int resignations = 0;
  int illegal_moves = 0;
  int engine_errors = 0;

  void Add(const Tally& t) {
    moves += t.moves;
    seconds += t.seconds;
    playouts += t.playouts;
    resignations += t.resignations;
    illegal_moves += t.illegal_moves;
    engine_errors += t.engine_errors;
  }
};

// One thread's two players and its tallies (A's and B's).
struct Seat {
  std::unique_ptr<match::Player> a;
  std::unique_ptr<match::Player> b;
  Tally tally_a;
  Tally tally_b;
};

// The seed of thread t's policy `side` (0 = A, 1 = B): the SplitMix64
// finaliser of the run's seed mixed with both, so that nearby seeds give
// unrelated streams.
uint64_t PolicySeed(uint64_t seed, int thread, int side) {
  uint64_t z = seed + uint64_t{0x9E3779B97F4A7C15} *
                          (2 * static_cast<uint64_t>(thread) + side + 1);
  z = (z ^ (z >> 30)) * uint64_t{0xBF58476D1CE4E5B9};
  z = (z ^ (z >> 27)) * uint64_t{0x94D049BB133111EB};
  return z ^ (z >> 31);
}

char ColorLetter(Color c) { return c == Color::kBlack ? 'B' : 'W'; }

// Plays game `index` of the run with the thread's seat (a match,
// match/play_match.h); records it in *out and, when `sgf` is not null, the
// game as a record in *sgf.
void PlayGame(const StrengthBenchOptions& o, int index, Seat& seat,
              StrengthGame* out, rules::GameRecord* sgf) {
  out->index = index;
  out->a_black = index % 2 == 0;
  match::Player* black = out->a_black ? seat.a.get() : seat.b.get();
  match::Player* white = out->a_black ? seat.b.get() : seat.a.get();
  Tally* tallies[2] = {out->a_black ? &seat.tally_a : &seat.tally_b,
                       out->a_black ? &seat.tally_b : &seat.tally_a};

  match::MatchOptions mo;
  mo.width = mo.height = o.size;
  mo.rules = o.rules;
  mo.failure = match::FailureRule::kNoResult;
  mo.dead_stones = match::SettlesDeadStones(*black, *white)
                       ? match::DeadStoneRule::kSettle
                       : match::DeadStoneRule::kAsPlayed;
  match::Driver driver;
  // An answer that was an error (the failure seen in play, not at the
  // start).
  bool failed_in_play = false;
  driver.observe = [&](const match::Match& m, Color c,
                       const absl::StatusOr<policy::MoveChoice>& choice,
                       absl::Duration used, const match::Applied& applied) {
    Tally* tally = tallies[rules::PlayerIndex(c)];
    tally->seconds += absl::ToDoubleSeconds(used);
    const int move = m.game().num_moves() + (applied.played ? 0 : 1);
    if (!choice.ok()) {
      failed_in_play = true;
      tally->engine_errors++;
      out->note =
          absl::StrCat(std::string(1, ColorLetter(c)), " engine error at move ",
                       move, ": ", choice.status().ToString());
      return;
    }
    tally->moves++;
    tally->playouts += choice->playouts;
    if (choice->point == rules::kResign) {
      tally->resignations++;
    } else if (m.outcome().end == match::End::kIllegalMove && m.over()) {
      const match::IllegalAttempt& a = m.outcome().illegal_moves.back();
      tally->illegal_moves++;
      out->note = absl::StrCat(
          std::string(1, ColorLetter(c)), " played an illegal move at move ",
          a.move_number, ": ", rules::IllegalReasonName(a.reason), " at ",
          match::VertexText(a.point, m.game().board()));
    }
  };
  // Validated options: PlayMatch() cannot fail.
  absl::StatusOr<match::Match> played =
      match::PlayMatch(*black, *white, mo, driver);
  const match::MatchOutcome& m = played->outcome();
  if (!failed_in_play && m.end == match::End::kEngineFailure) {
    // The players failed before the first move (NewGame()).
    for (Color c : {Color::kBlack, Color::kWhite}) {
      if (!m.failed[rules::PlayerIndex(c)]) continue;
      tallies[rules::PlayerIndex(c)]->engine_errors++;
    }
    out->note = absl::StrCat(
        std::string(1,
                    ColorLetter(m.failed[0] ? Color::kBlack : Color::kWhite)),
        " engine error at the start: ", m.detail);
  }
  out->engine_error = m.end == match::End::kEngineFailure;
  out->moves = m.moves();
  out->result = m.result;
  if (m.end == match::End::kCount && !m.dead_stones.empty()) {
    out->note = m.detail;
  }

  if (sgf == nullptr) return;
  match::RecordInfo info;
  info.black_name = info.black_spec = black->spec();
  info.white_name = info.white_spec = white->spec();
  info.rules_name = o.rules_name;
  info.event = "qipu bench strength";
  info.game_name = absl::StrCat("game ", index);
  *sgf = match::MatchRecord(m, info);
  // The note is the game comment, for people reading the file.
  for (auto& [key, value] : sgf->extra) {
    if (key == "GC" && !out->note.empty()) value = out->note;
  }
  sgf->extra.emplace_back("QS", absl::StrCat(o.seed));
  sgf->extra.emplace_back("QR", rules::RulesKey(o.rules).Text());
}

absl::Status WriteSgfFile(const std::string& dir, int index,
                          const rules::GameRecord& record) {
  const std::string path =
      absl::StrFormat("%s/game-%04d.sgf", dir.c_str(), index);
  std::ofstream out(path, std::ios::trunc | std::ios::binary);
  out << rules::WriteSgf(record);
  out.close();
  if (!out) {
    return absl::InternalError(absl::StrCat("cannot write ", path));
  }
  return absl::OkStatus();
}

absl::Status Validate(const StrengthBenchOptions& o) {
  if (o.games < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("games: ", o.games, " is not >= 1"));
  }
  if (o.threads < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("threads: ", o.threads, " is not >= 1"));
  }
  if (absl::Status s = rules::ValidateSize(o.size, o.size); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("size: ", o.size, ": ", s.message()));
  }
  if (absl::Status s = rules::ValidateKomi(o.rules.komi); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("komi: ", s.message()));
  }
  return absl::OkStatus();
}

SideStats ToStats(std::string spec, const Tally& t) {
  SideStats s;
  s.spec = std::move(spec);
  s.moves = t.moves;
  s.seconds = t.seconds;
  s.playouts = t.playouts;
  s.seconds_per_move = t.moves > 0 ? t.seconds / t.moves : 0;
  s.playouts_per_move =
      t.moves > 0 ? static_cast<double>(t.playouts) / t.moves : 0;
  s.resignations = t.resignations;
  s.illegal_moves = t.illegal_moves;
  s.engine_errors = t.engine_errors;
  return s;
}

// "B+3.5", "W+R", "Void" ... and, for people, who that is.
std::string GameLine(const StrengthGame& g) {
  const rules::Winner w = g.result.winner;
  std::string who = "void";
  if (w == rules::Winner::kDraw) {
    who = "draw";
  } else if (w == rules::Winner::kBlack || w == rules::Winner::kWhite) {
    who = ((w == rules::Winner::kBlack) == g.a_black) ? "A wins" : "B wins";
  }
  return absl::StrFormat("game %d: A %s, %s (%s), %d moves", g.index,
                         g.a_black ? "Black" : "White",
                         rules::ResultToSgf(g.result), who, g.moves);
}

nlohmann::ordered_json SideJson(const SideStats& s) {
  return {{"spec", s.spec},
          {"moves", s.moves},
          {"seconds_per_move", s.seconds_per_move},
          {"playouts_per_move", s.playouts_per_move},
          {"resignations", s.resignations},
          {"illegal_moves", s.illegal_moves},
          {"engine_errors", s.engine_errors}};
}

}  // namespace

Interval WilsonInterval(double successes, double n, double z) {
  if (n <= 0) return {};
  const double p = successes / n;
  const double z2 = z * z;
  const double denom = 1 + z2 / n;
  const double center = (p + z2 / (2 * n)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom;
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

absl::StatusOr<StrengthBenchResult> RunStrengthBench(
    const StrengthBenchOptions& o) {
  if (absl::Status s = Validate(o); !s.ok()) return s;
  const int threads = std::min(o.threads, o.games);
  // Every seat's policies first: a bad spec fails before any game.
  std::vector<Seat> seats(threads);
  for (int t = 0; t < threads; ++t) {
    auto a =
        match::MakePlayer(o.policy_a, PolicySeed(o.seed, t, 0), o.engine_log);
    if (!a.ok()) return a.status();
    auto b =
        match::MakePlayer(o.policy_b, PolicySeed(o.seed, t, 1), o.engine_log);
    if (!b.ok()) return b.status();
    seats[t].a = *std::move(a);
    seats[t].b = *std::move(b);
  }
  if (!o.sgf_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.sgf_dir, ec);
    if (ec || !std::filesystem::is_directory(o.sgf_dir)) {
      return absl::InvalidArgumentError(
          absl::StrCat("sgf directory ", o.sgf_dir, ": cannot create it",
                       ec ? absl::StrCat(": ", ec.message()) : ""));
    }
  }

  StrengthBenchResult r;
  r.game_list.resize(o.games);
  std::vector<rules::GameRecord> records(o.sgf_dir.empty() ? 0 : o.games);
  // Thread t writes game_list[i] and records[i] for i % threads == t, and
  // its own seat: nothing shared is written.
  const Clock::time_point start = Clock::now();
  {
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        for (int i = t; i < o.games; i += threads) {
          PlayGame(o, i, seats[t], &r.game_list[i],
                   records.empty() ? nullptr : &records[i]);
          if (o.verbose) {
            const StrengthGame& g = r.game_list[i];
            std::fprintf(stderr, "%s%s%s\n", GameLine(g).c_str(),
                         g.note.empty() ? "" : "; ", g.note.c_str());
          }
        }
      });
    }
    for (std::thread& th : pool) th.join();
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (size_t i = 0; i < records.size(); ++i) {
    if (absl::Status s =
            WriteSgfFile(o.sgf_dir, static_cast<int>(i), records[i]);
        !s.ok()) {
      return s;
    }
  }

  r.rules_name = o.rules_name;
  r.rules = o.rules;
  r.size = o.size;
  r.threads = threads;
  r.seed = o.seed;
  r.games = o.games;
  Tally a;
  Tally b;
  for (const Seat& s : seats) {
    a.Add(s.tally_a);
    b.Add(s.tally_b);
  }
  r.a = ToStats(seats[0].a->spec(), a);
  r.b = ToStats(seats[0].b->spec(), b);
  for (const StrengthGame& g : r.game_list) {
    (g.a_black ? r.a_black_games : r.a_white_games)++;
    const rules::Winner w = g.result.winner;
    if (w == rules::Winner::kDraw) {
      r.draws++;
    } else if (w == rules::Winner::kBlack || w == rules::Winner::kWhite) {
      const bool black_won = w == rules::Winner::kBlack;
      r.black_wins += black_won;
      if (black_won == g.a_black) {
        r.wins++;
        (g.a_black ? r.a_black_wins : r.a_white_wins)++;
      } else {
        r.losses++;
      }
    } else {
      r.voids++;
    }
  }
  const int decided = r.wins + r.losses + r.draws;
  const double score = r.wins + 0.5 * r.draws;
  r.win_rate = decided > 0 ? score / decided : 0;
  r.interval = WilsonInterval(score, decided);
  return r;
}

nlohmann::ordered_json StrengthBenchJson(const StrengthBenchResult& r) {
  nlohmann::ordered_json games = nlohmann::ordered_json::array();
  for (const StrengthGame& g : r.game_list) {
    games.push_back({{"index", g.index},
                     {"a_black", g.a_black},
                     {"result", rules::ResultToSgf(g.result)},
                     {"moves", g.moves},
                     {"note", g.note}});
  }
  return {{"policy_a", r.a.spec},
          {"policy_b", r.b.spec},
          {"size", r.size},
          {"rules", r.rules_name},
          {"komi", r.rules.komi},
          {"threads", r.threads},
          {"seed", r.seed},
          {"games", r.games},
          {"wins", r.wins},
          {"losses", r.losses},
          {"draws", r.draws},
          {"voids", r.voids},
          {"win_rate", r.win_rate},
          {"win_rate_low", r.interval.low},
          {"win_rate_high", r.interval.high},
          {"a_black_games", r.a_black_games},
          {"a_white_games", r.a_white_games},
          {"a_black_wins", r.a_black_wins},
          {"a_white_wins", r.a_white_wins},
          {"black_wins", r.black_wins},
          {"seconds", r.seconds},
          {"a", SideJson(r.a)},
          {"b", SideJson(r.b)},
          {"games_list", std::move(games)}};
}

std::string StrengthBenchText(const StrengthBenchResult& r) {
  std::string out;
  absl::StrAppendFormat(&out, "A: %s\n", r.a.spec);
  absl::StrAppendFormat(&out, "B: %s\n", r.b.spec);
  absl::StrAppendFormat(&out,
                        "%dx%d, %s, komi %.1f, %d games (A Black in even "
                        "games), %d threads, seed %llu, %.1f s\n",
                        r.size, r.size, r.rules_name, r.rules.komi, r.games,
                        r.threads, static_cast<unsigned long long>(r.seed),
                        r.seconds);
  absl::StrAppendFormat(
      &out,
      "  A: %d wins, %d losses, %d draws, %d void; win rate %.1f%% "
      "(95%% interval %.1f-%.1f%%)\n",
      r.wins, r.losses, r.draws, r.voids, 100 * r.win_rate,
      100 * r.interval.low, 100 * r.interval.high);
  absl::StrAppendFormat(&out,
                        "  A as Black %d/%d, as White %d/%d; Black won %d\n",
                        r.a_black_wins, r.a_black_games, r.a_white_wins,
                        r.a_white_games, r.black_wins);
  for (const auto& [name, s] :
       {std::pair<const char*, const SideStats*>{"A", &r.a}, {"B", &r.b}}) {
    absl::StrAppendFormat(&out, "  %s: %.3f s/move", name, s->seconds_per_move);
    if (s->playouts > 0) {
      absl::StrAppendFormat(&out, ", %.0f playouts/move", s->playouts_per_move);
    }
    absl::StrAppendFormat(
        &out, ", %lld moves; %d resigned, %d illegal, %d engine errors\n",
        static_cast<long long>(s->moves), s->resignations, s->illegal_moves,
        s->engine_errors);
  }
  for (const StrengthGame& g : r.game_list) {
    if (g.note.empty()) continue;
    absl::StrAppendFormat(&out, "  %s: %s\n", GameLine(g), g.note);
  }
  return out;
}

}  // namespace qipu::bench
