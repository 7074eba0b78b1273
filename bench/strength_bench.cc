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
#include "gtp/policy_factory.h"
#include "policy/policy.h"
#include "rules/coord.h"
#include "rules/game.h"
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

// One thread's two policies and its tallies (A's and B's).
struct Seat {
  std::unique_ptr<policy::Policy> a;
  std::unique_ptr<policy::Policy> b;
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

// A move for notes: its GTP vertex when on the board, else the raw point.
std::string Vertex(const rules::Game& game, rules::Point p) {
  if (p == rules::kPass || game.board().OnBoard(p)) {
    return rules::GtpPoint(p, game.height());
  }
  return absl::StrCat("point ", p);
}

// Plays game `index` of the run with the thread's seat; records it in
// *out and, when `sgf` is not null, the game as a record in *sgf.
void PlayGame(const StrengthBenchOptions& o, int index, Seat& seat,
              StrengthGame* out, rules::GameRecord* sgf) {
  rules::Game game(o.size, o.size, o.rules);
  out->index = index;
  out->a_black = index % 2 == 0;
  policy::Policy* black = out->a_black ? seat.a.get() : seat.b.get();
  policy::Policy* white = out->a_black ? seat.b.get() : seat.a.get();
  Tally* black_tally = out->a_black ? &seat.tally_a : &seat.tally_b;
  Tally* white_tally = out->a_black ? &seat.tally_b : &seat.tally_a;

  for (Color c : {Color::kBlack, Color::kWhite}) {
    policy::Policy* p = c == Color::kBlack ? black : white;
    if (absl::Status s = p->NewGame(game); !s.ok()) {
      out->engine_error = true;
      out->note = absl::StrCat(std::string(1, ColorLetter(c)),
                               " engine error at the start: ", s.ToString());
      (c == Color::kBlack ? black_tally : white_tally)->engine_errors++;
      break;
    }
  }
  while (!out->engine_error && !game.over()) {
    const Color c = game.to_play();
    policy::Policy* p = c == Color::kBlack ? black : white;
    Tally* tally = c == Color::kBlack ? black_tally : white_tally;
    const Clock::time_point start = Clock::now();
    absl::StatusOr<policy::MoveChoice> choice = p->Choose(game, {});
    tally->seconds +=
        std::chrono::duration<double>(Clock::now() - start).count();
    if (!choice.ok()) {
      out->engine_error = true;
      out->note =
          absl::StrCat(std::string(1, ColorLetter(c)), " engine error at move ",
                       game.num_moves() + 1, ": ", choice.status().ToString());
      tally->engine_errors++;
      break;
    }
    tally->moves++;
    tally->playouts += choice->playouts;
    if (choice->point == rules::kResign) {
      game.Resign(c);
      tally->resignations++;
      break;
    }
    const rules::MoveVerdict verdict = game.Check(c, choice->point);
    if (!verdict.legal()) {
      game.Resign(c, rules::EndReason::kIllegal);
      tally->illegal_moves++;
      out->note = absl::StrCat(
          std::string(1, ColorLetter(c)), " played an illegal move at move ",
          game.num_moves() + 1, ": ", rules::IllegalReasonName(verdict.reason),
          " at ", Vertex(game, choice->point));
      break;
    }
    game.Play(c, choice->point, verdict);
    const rules::Move move{c, choice->point};
    seat.a->Played(game, move);
    seat.b->Played(game, move);
  }
  out->moves = game.num_moves();
  out->result =
      out->engine_error
          ? rules::GameResult{rules::Winner::kNone, rules::EndReason::kVoid, 0}
          : game.result();

  if (sgf == nullptr) return;
  sgf->width = o.size;
  sgf->height = o.size;
  sgf->moves = game.moves();
  sgf->komi = o.rules.komi;
  sgf->has_komi = true;
  sgf->rules = o.rules_name;
  sgf->result = rules::RecordResult::Of(out->result);
  sgf->black_player = black->spec();
  sgf->white_player = white->spec();
  sgf->event = "qipu bench strength";
  sgf->game_name = absl::StrCat("game ", index);
  if (!out->note.empty()) sgf->extra.emplace_back("GC", out->note);
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
        gtp::MakeAnyPolicy(o.policy_a, PolicySeed(o.seed, t, 0), o.engine_log);
    if (!a.ok()) return a.status();
    auto b =
        gtp::MakeAnyPolicy(o.policy_b, PolicySeed(o.seed, t, 1), o.engine_log);
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
