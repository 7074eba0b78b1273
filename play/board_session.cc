#include "play/board_session.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "base/version.h"
#include "gtp/policy_factory.h"
#include "rules/coord.h"
#include "rules/sgf_writer.h"

namespace qipu::play {
namespace {

using rules::Color;
using rules::Point;

const char* ColorWord(Color c) {
  return c == Color::kBlack ? "Black" : "White";
}

// GTP name of p, "pass" for a pass.
std::string PointName(Point p, int height) {
  return rules::GtpPoint(p, height);
}

}  // namespace

std::string IllegalReasonText(rules::IllegalReason r) {
  const char* why = "";
  switch (r) {
    case rules::IllegalReason::kNone:
      break;
    case rules::IllegalReason::kOccupied:
      why = " (a stone is already there)";
      break;
    case rules::IllegalReason::kSuicide:
      why = " (the stone would have no liberty and captures nothing)";
      break;
    case rules::IllegalReason::kKo:
      why = " (the ko may not be retaken at once; play elsewhere first)";
      break;
    case rules::IllegalReason::kSuperko:
      why = " (it repeats an earlier whole-board position)";
      break;
    case rules::IllegalReason::kCycle:
      why = " (it repeats an earlier position through an unbalanced cycle)";
      break;
    case rules::IllegalReason::kOffBoard:
      why = " (not a point of this board)";
      break;
    case rules::IllegalReason::kGameOver:
      why = " (the game is over)";
      break;
  }
  return absl::StrCat(rules::IllegalReasonName(r), why);
}

absl::StatusOr<std::unique_ptr<BoardSession>> BoardSession::Create(
    const SessionOptions& options, absl::Time now) {
  if (!rules::ValidateSize(options.size, options.size).ok()) {
    return absl::InvalidArgumentError(absl::StrCat("board size ", options.size,
                                                   ": not in ", rules::kMinSize,
                                                   "..", rules::kMaxSize));
  }
  if (absl::Status s = rules::ValidateKomi(options.rules.komi); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("komi ", options.rules.komi, ": ", s.message()));
  }
  if (absl::Status s = ValidateClockSettings(options.clock); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("clock: ", s.message()));
  }
  rules::Game game(options.size, options.size, options.rules);
  if (options.handicap != 0) {
    if (absl::Status s = game.PlaceHandicap(options.handicap); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("handicap ", options.handicap, ": ", s.message()));
    }
  }
  std::unique_ptr<BoardSession> session(
      new BoardSession(options, std::move(game)));
  for (Color c : {Color::kBlack, Color::kWhite}) {
    const std::string& spec = session->player(c);
    if (spec == kHuman) continue;
    const int i = rules::PlayerIndex(c);
    absl::StatusOr<std::unique_ptr<policy::Policy>> p =
        gtp::MakeAnyPolicy(spec, options.seed + i, options.engine_log);
    if (!p.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(absl::AsciiStrToLower(ColorWord(c)), " player '", spec,
                       "': ", p.status().message()));
    }
    if (absl::Status s = (*p)->NewGame(session->game_); !s.ok()) {
      return absl::Status(
          s.code(),
          absl::StrCat(absl::AsciiStrToLower(ColorWord(c)), " player '", spec,
                       "' cannot start: ", s.message()));
    }
    session->computers_[i] = std::move(*p);
  }
  session->started_ = now;
  session->clock_.Start(session->game_.to_play(), now);
  session->message_ =
      absl::StrCat(ColorWord(session->game_.to_play()), " to play.");
  return session;
}

BoardSession::BoardSession(const SessionOptions& options, rules::Game game)
    : options_(options),
      game_(std::move(game)),
      clock_(options.clock),
      cursor_x_(options.size / 2),
      cursor_y_(options.size / 2) {}

const std::string& BoardSession::player(Color c) const {
  return c == Color::kBlack ? options_.black : options_.white;
}

bool BoardSession::IsHuman(Color c) const { return player(c) == kHuman; }

std::string BoardSession::Label(Color c) const {
  return absl::StrCat(ColorWord(c), " (", player(c), ")");
}

Point BoardSession::last_move() const {
  if (game_.moves().empty()) return rules::kNoPoint;
  return game_.moves().back().point;
}

// ---- Input.

void BoardSession::Apply(Action a, absl::Time now) {
  if (a == Action::kInterrupt) {
    quit_ = true;
    return;
  }
  if (confirm_ != Action::kNone) {
    const Action pending = confirm_;
    confirm_ = Action::kNone;
    if (a == pending && a == Action::kQuit) {
      quit_ = true;
    } else if (a == pending && a == Action::kResign) {
      Resign(now);
    } else {
      message_ = "Cancelled.";
    }
    return;
  }
  switch (a) {
    case Action::kNone:
    case Action::kInterrupt:
      return;
    case Action::kUp:
      return MoveCursor(0, -1);
    case Action::kDown:
      return MoveCursor(0, 1);
    case Action::kLeft:
      return MoveCursor(-1, 0);
    case Action::kRight:
      return MoveCursor(1, 0);
    case Action::kSelect:
      return Select(now);
    case Action::kPass:
      if (phase_ == Phase::kPlaying) {
        PlayHuman(rules::kPass, now);
      } else {
        message_ = phase_ == Phase::kCounting
                       ? "Both have passed: mark dead stones, then d counts "
                         "(u resumes the game)."
                       : "The game is over: s saves it, q quits.";
      }
      return;
    case Action::kUndo:
      TakeBack(now);
      return;
    case Action::kResign:
      if (phase_ == Phase::kOver) {
        message_ = "The game is over: s saves it, q quits.";
      } else if (!IsHuman(Color::kBlack) && !IsHuman(Color::kWhite)) {
        message_ = "No person plays in this game: nobody can resign.";
      } else {
        confirm_ = Action::kResign;
        message_ = "Resign? Press r again to resign, any other key to go on.";
      }
      return;
    case Action::kDone:
      if (phase_ == Phase::kCounting) {
        FinishCounting(now);
      } else {
        message_ = phase_ == Phase::kPlaying
                       ? "d counts the board once both players have passed."
                       : "The game is over: s saves it, q quits.";
      }
      return;
    case Action::kSave:
      SaveSgf().IgnoreError();  // The outcome is in message_.
      return;
    case Action::kQuit:
      if (phase_ == Phase::kOver) {
        quit_ = true;
      } else {
        confirm_ = Action::kQuit;
        message_ =
            "Quit? The game is not over. Press q again to quit, any other "
            "key to go on.";
      }
      return;
  }
}

void BoardSession::Tick(absl::Time now) {
  if (phase_ != Phase::kPlaying || !clock_.timed()) return;
  const Color c = game_.to_play();
  if (clock_.Flagged(c, now)) {
    clock_.Stop(now);
    LoseOnTime(c);
  }
}

void BoardSession::MoveCursor(int dx, int dy) {
  const int size = options_.size;
  if (on_done_) {
    if (dy < 0) on_done_ = false;
    return;
  }
  if (phase_ == Phase::kCounting && dy > 0 && cursor_y_ == size - 1) {
    on_done_ = true;
    return;
  }
  cursor_x_ = std::clamp(cursor_x_ + dx, 0, size - 1);
  cursor_y_ = std::clamp(cursor_y_ + dy, 0, size - 1);
}

void BoardSession::Select(absl::Time now) {
  switch (phase_) {
    case Phase::kPlaying:
      PlayHuman(cursor(), now);
      return;
    case Phase::kCounting:
      if (on_done_) {
        FinishCounting(now);
      } else if (!ToggleDead(cursor())) {
        message_ =
            absl::StrCat("No stone at ", PointName(cursor(), options_.size),
                         ": Enter on a stone marks its chain dead or alive.");
      }
      return;
    case Phase::kOver:
      message_ = "The game is over: s saves it, q quits.";
      return;
  }
}

// ---- Moves.

bool BoardSession::PlayHuman(Point p, absl::Time now) {
  if (phase_ != Phase::kPlaying) {
    message_ = phase_ == Phase::kCounting
                   ? "Both have passed: mark dead stones, then d counts."
                   : "The game is over: s saves it, q quits.";
    return false;
  }
  Tick(now);
  if (phase_ != Phase::kPlaying) return false;
  const Color c = game_.to_play();
  if (!IsHuman(c)) {
    message_ = absl::StrCat("Wait: ", Label(c), " is to move.");
    return false;
  }
  const rules::MoveVerdict v = game_.Check(c, p);
  if (!v.legal()) {
    message_ = absl::StrCat("Illegal move ", PointName(p, options_.size), ": ",
                            IllegalReasonText(v.reason), ".");
    return false;
  }
  if (!clock_.Stop(now)) {
    LoseOnTime(c);
    return false;
  }
  game_.Play(c, p, v);
  AfterMove(rules::Move{c, p}, now);
  return true;
}

void BoardSession::AfterMove(rules::Move move, absl::Time now) {
  for (auto& computer : computers_) {
    if (computer != nullptr) computer->Played(game_, move);
  }
  const Color c = move.color;
  if (move.point == rules::kPass) {
    message_ = absl::StrCat(ColorWord(c), " passes.");
  } else {
    message_ =
        absl::StrCat(ColorWord(c), " ", PointName(move.point, options_.size));
    const int captured = game_.board().last_play().captured;
    if (captured > 0) {
      absl::StrAppend(&message_, " captures ", captured,
                      captured == 1 ? " stone" : " stones");
    }
    absl::StrAppend(&message_, ".");
  }
  if (game_.over()) {
    if (game_.result().reason == rules::EndReason::kScore) {
      phase_ = Phase::kCounting;
      dead_ = {};
      on_done_ = false;
      absl::StrAppend(&message_,
                      " Both passed: mark dead stones (Enter on a chain), "
                      "then d or [done] counts.");
      if (!IsHuman(Color::kBlack) && !IsHuman(Color::kWhite)) {
        FinishCounting(now);
      }
      return;
    }
    result_ = game_.result();
    EndGame(game_.result().reason == rules::EndReason::kCycle
                ? "A balanced cycle ends the game."
                : "The move cap ends the game.");
    return;
  }
  clock_.Start(game_.to_play(), now);
  if (move.point == rules::kPass) {
    absl::StrAppend(&message_, " ", ColorWord(game_.to_play()),
                    " to play; another pass ends the game.");
  } else {
    absl::StrAppend(&message_, " ", ColorWord(game_.to_play()), " to play.");
  }
}

void BoardSession::EndGame(const std::string& why) {
  phase_ = Phase::kOver;
  on_done_ = false;
  confirm_ = Action::kNone;
  message_ = absl::StrCat(why, " ", ResultText());
}

void BoardSession::LoseOnTime(Color c) {
  game_.Resign(c, rules::EndReason::kTime);
  result_ = rules::GameResult{
      c == Color::kBlack ? rules::Winner::kWhite : rules::Winner::kBlack,
      rules::EndReason::kTime, 0};
  EndGame(absl::StrCat(Label(c), " ran out of time."));
}

bool BoardSession::TakeBack(absl::Time now) {
  if (!IsHuman(Color::kBlack) || !IsHuman(Color::kWhite)) {
    message_ = "Takeback is for free play only (human against human).";
    return false;
  }
  if (phase_ == Phase::kOver) {
    message_ = "The game is over: nothing to take back.";
    return false;
  }
  if (game_.num_moves() == 0) {
    message_ = "Nothing to take back.";
    return false;
  }
  clock_.Stop(now);
  const rules::Move undone = game_.moves().back();
  Rewind(1);
  phase_ = Phase::kPlaying;
  dead_ = {};
  on_done_ = false;
  clock_.Start(game_.to_play(), now);
  message_ = absl::StrCat("Took back ", ColorWord(undone.color), " ",
                          PointName(undone.point, options_.size), ". ",
                          ColorWord(game_.to_play()), " to play.");
  return true;
}

void BoardSession::Rewind(int n) {
  std::vector<rules::Move> moves = game_.moves();
  moves.resize(moves.size() - std::min<size_t>(n, moves.size()));
  game_.Reset();
  if (options_.handicap != 0) {
    // It was placed on this empty board before.
    game_.PlaceHandicap(options_.handicap).IgnoreError();
  }
  for (const rules::Move& m : moves) game_.TryPlay(m.color, m.point);
}

bool BoardSession::Resign(absl::Time now) {
  if (phase_ == Phase::kOver) {
    message_ = "The game is over.";
    return false;
  }
  Color c = game_.to_play();
  if (!IsHuman(c)) c = rules::Opponent(c);
  if (!IsHuman(c)) {
    message_ = "No person plays in this game: nobody can resign.";
    return false;
  }
  clock_.Stop(now);
  game_.Resign(c);
  result_ = rules::GameResult{
      c == Color::kBlack ? rules::Winner::kWhite : rules::Winner::kBlack,
      rules::EndReason::kResign, 0};
  EndGame(absl::StrCat(Label(c), " resigns."));
  return true;
}

// ---- Counting.

bool BoardSession::ToggleDead(Point p) {
  if (phase_ != Phase::kCounting) return false;
  const rules::Board& board = game_.board();
  if (!board.OnBoard(p)) return false;
  const Color c = board.at(p);
  if (c != Color::kBlack && c != Color::kWhite) return false;
  const bool mark = !dead_[p];
  int stones = 0;
  for (int i = 0; i < board.num_points(); ++i) {
    const Point q = rules::FromDenseIndex(i, board.width());
    if (board.at(q) == c && board.SameChain(p, q)) {
      dead_[q] = mark;
      ++stones;
    }
  }
  message_ = absl::StrCat(
      "The ", c == Color::kBlack ? "black" : "white", " chain at ",
      PointName(p, options_.size), " (", stones,
      stones == 1 ? " stone" : " stones", ") is ", mark ? "dead" : "alive",
      ". Count now: ", rules::ResultToSgf(CountedResult()), ".");
  return true;
}

rules::AreaCount BoardSession::Count() const {
  rules::Board board = game_.board();
  std::vector<Point> removed;
  for (int i = 0; i < board.num_points(); ++i) {
    const Point q = rules::FromDenseIndex(i, board.width());
    if (dead_[q] && board.at(q) != Color::kEmpty) removed.push_back(q);
  }
  if (!removed.empty()) board.SetStones(removed, {}, {});
  return rules::CountArea(board, options_.rules.dame);
}

rules::GameResult BoardSession::CountedResult() const {
  return rules::ScoreResult(Count(), options_.rules, options_.handicap);
}

void BoardSession::FinishCounting(absl::Time now) {
  if (phase_ != Phase::kCounting) return;
  const rules::AreaCount area = Count();
  result_ = CountedResult();
  EndGame(absl::StrCat("Counted: Black ", area.black, ", White ", area.white,
                       ", komi ", options_.rules.komi, "."));
}

std::string BoardSession::ResultText() const {
  const std::string points = rules::ResultToSgf(result_);
  const std::string stones = rules::ResultInStones(result_);
  if (points == stones) return points;
  return absl::StrCat(points, " (", stones, ")");
}

// ---- Computer players.

bool BoardSession::ComputerToMove() const {
  return phase_ == Phase::kPlaying && !IsHuman(game_.to_play());
}

BoardSession::ThinkJob BoardSession::PrepareThink(absl::Time now) const {
  const Color c = game_.to_play();
  policy::SearchLimits limits;
  limits.time = clock_.Allot(c, now, game_.board().num_empty());
  return ThinkJob{computers_[rules::PlayerIndex(c)].get(), game_, limits};
}

void BoardSession::FinishThink(const absl::StatusOr<policy::MoveChoice>& choice,
                               absl::Time now) {
  // The game may have ended while the computer thought (its time ran out).
  if (!ComputerToMove()) return;
  const Color c = game_.to_play();
  if (!clock_.Stop(now)) {
    LoseOnTime(c);
    return;
  }
  if (!choice.ok()) {
    game_.Resign(c, rules::EndReason::kForfeit);
    result_ = game_.result();
    EndGame(absl::StrCat(Label(c), " failed (",
                         absl::StatusCodeToString(choice.status().code()), ": ",
                         choice.status().message(), ") and forfeits."));
    return;
  }
  const Point p = choice->point;
  if (p == rules::kResign) {
    game_.Resign(c);
    result_ = game_.result();
    EndGame(absl::StrCat(Label(c), " resigns."));
    return;
  }
  const rules::MoveVerdict v = game_.Check(c, p);
  if (!v.legal()) {
    game_.Resign(c, rules::EndReason::kForfeit);
    result_ = game_.result();
    EndGame(absl::StrCat(Label(c), " played the illegal move ",
                         PointName(p, options_.size), ": ",
                         IllegalReasonText(v.reason), ", and forfeits."));
    return;
  }
  game_.Play(c, p, v);
  AfterMove(rules::Move{c, p}, now);
}

void BoardSession::ThinkAndPlay(absl::Time now) {
  ThinkJob job = PrepareThink(now);
  const absl::Time start = absl::Now();
  absl::StatusOr<policy::MoveChoice> choice =
      job.policy->Choose(job.game, job.limits);
  FinishThink(choice, now + (absl::Now() - start));
}

// ---- Records.

rules::GameRecord BoardSession::ToRecord() const {
  rules::GameRecord rec;
  rec.width = rec.height = options_.size;
  if (options_.handicap != 0) {
    absl::StatusOr<std::vector<Point>> stones =
        rules::FixedHandicap(options_.size, options_.size, options_.handicap);
    if (stones.ok()) {
      rules::SetupStep step;
      step.black = std::move(*stones);
      rec.setup.push_back(std::move(step));
      rec.handicap = options_.handicap;
    }
  }
  rec.moves = game_.moves();
  rec.komi = options_.rules.komi;
  rec.has_komi = true;
  const std::string preset = rules::PresetName(options_.rules);
  rec.rules = preset == "custom" ? "Chinese" : preset;
  if (phase_ == Phase::kOver) rec.result = rules::RecordResult::Of(result_);
  rec.black_player = options_.black;
  rec.white_player = options_.white;
  rec.date = absl::FormatTime("%Y-%m-%d", started_, absl::LocalTimeZone());
  rec.extra.emplace_back("AP", absl::StrCat("qipu:", base::Version()));
  const ClockSettings& clock = options_.clock;
  if (clock.timed()) {
    rec.extra.emplace_back("TM",
                           absl::StrCat(absl::ToInt64Seconds(clock.main)));
    if (clock.periods > 0) {
      rec.extra.emplace_back(
          "OT", absl::StrCat(clock.periods, "x",
                             absl::ToInt64Seconds(clock.period), " byo-yomi"));
    }
  }
  return rec;
}

absl::Status BoardSession::SaveSgf() {
  const std::string& path = options_.sgf_path;
  const std::string text = rules::WriteSgf(ToRecord());
  std::FILE* f = std::fopen(path.c_str(), "w");
  absl::Status status;
  if (f == nullptr) {
    status = absl::UnavailableError(
        absl::StrCat("cannot save ", path, ": ", std::strerror(errno)));
  } else {
    const bool written =
        std::fwrite(text.data(), 1, text.size(), f) == text.size();
    const int saved_errno = errno;
    const bool closed = std::fclose(f) == 0;
    if (!written || !closed) {
      status = absl::UnavailableError(
          absl::StrCat("cannot save ", path, ": ",
                       std::strerror(written ? errno : saved_errno)));
    }
  }
  message_ = status.ok() ? absl::StrCat("Saved the game to ", path, ".")
                         : std::string(status.message());
  return status;
}

}  // namespace qipu::play
