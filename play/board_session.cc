#include "play/board_session.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/version.h"
#include "match/match_record.h"
#include "policy/stone_judge.h"
#include "rules/coord.h"
#include "rules/dead_stones.h"
#include "rules/scoring.h"
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

// "12:34", "0:07", "1:02:03": whole seconds, rounded up so that 0:00
// means out of time.
std::string FormatClock(absl::Duration d) {
  const int64_t s = absl::ToInt64Seconds(
      absl::Ceil(std::max(d, absl::ZeroDuration()), absl::Seconds(1)));
  if (s >= 3600) {
    return absl::StrFormat("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  }
  return absl::StrFormat("%d:%02d", s / 60, s % 60);
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
  if (absl::Status s = gtp::ValidateTimeSettings(options.time); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("clock: ", s.message()));
  }
  std::array<std::unique_ptr<match::Player>, 2> computers;
  for (Color c : {Color::kBlack, Color::kWhite}) {
    const std::string& spec =
        c == Color::kBlack ? options.black : options.white;
    if (spec == kHuman) continue;
    const int i = rules::PlayerIndex(c);
    absl::StatusOr<std::unique_ptr<match::Player>> p =
        match::MakePlayer(spec, options.seed + i, options.engine_log);
    if (!p.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(absl::AsciiStrToLower(ColorWord(c)), " player '", spec,
                       "': ", p.status().message()));
    }
    computers[i] = *std::move(p);
  }
  match::MatchOptions mo;
  mo.width = mo.height = options.size;
  mo.rules = options.rules;
  mo.handicap = options.handicap;
  mo.time = options.time;
  mo.illegal = match::IllegalMovePolicy::kForfeit;
  mo.failure = match::FailureRule::kLoses;
  // People count with the dead stones marked; two of qipu's own policies
  // count the board as it stands (they capture before they pass).
  const bool policies_only =
      computers[0] != nullptr && computers[1] != nullptr &&
      !match::SettlesDeadStones(*computers[0], *computers[1]);
  mo.dead_stones = policies_only ? match::DeadStoneRule::kAsPlayed
                                 : match::DeadStoneRule::kSettle;
  absl::StatusOr<match::Match> m = match::Match::Create(mo);
  if (!m.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "handicap ", options.handicap, ": ", m.status().message()));
  }
  std::unique_ptr<BoardSession> session(
      new BoardSession(options, *std::move(m)));
  for (Color c : {Color::kBlack, Color::kWhite}) {
    const int i = rules::PlayerIndex(c);
    if (computers[i] == nullptr) continue;
    if (absl::Status s = computers[i]->NewGame(session->game(), options.time);
        !s.ok()) {
      return absl::Status(
          s.code(),
          absl::StrCat(absl::AsciiStrToLower(ColorWord(c)), " player '",
                       session->player(c), "' cannot start: ", s.message()));
    }
  }
  session->computers_ = std::move(computers);
  session->started_ = now;
  session->turn_started_ = now;
  session->message_ =
      absl::StrCat(ColorWord(session->game().to_play()), " to play.");
  return session;
}

BoardSession::BoardSession(const SessionOptions& options, match::Match match)
    : options_(options),
      match_(std::move(match)),
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
  if (game().moves().empty()) return rules::kNoPoint;
  return game().moves().back().point;
}

gtp::PlayerClock BoardSession::ReadClock(Color c, absl::Time now) const {
  const bool running = phase_ == Phase::kPlaying && game().to_play() == c;
  return clock().Read(c, running ? now - turn_started_ : absl::ZeroDuration());
}

std::string BoardSession::DescribeClock(Color c, absl::Time now) const {
  const gtp::TimeSettings& t = clock().settings();
  if (t.system == gtp::TimeSystem::kNone) return "untimed";
  const gtp::PlayerClock r = ReadClock(c, now);
  if (r.flagged) return "out of time";
  if (r.in_byoyomi) {
    return absl::StrCat("BY ", FormatClock(r.period_left), " (", r.stones, ")");
  }
  const absl::Duration period = absl::Seconds(t.period_s);
  if (t.system == gtp::TimeSystem::kJapanese) {
    return absl::StrCat(FormatClock(r.main_left), " +", t.stones, "x",
                        FormatClock(period));
  }
  if (t.system == gtp::TimeSystem::kCanadian) {
    return absl::StrCat(FormatClock(r.main_left), " +", t.stones, "/",
                        FormatClock(period));
  }
  return FormatClock(r.main_left);
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
  if (phase_ != Phase::kPlaying || clock().system() == gtp::TimeSystem::kNone) {
    return;
  }
  const Color c = game().to_play();
  if (ReadClock(c, now).flagged) {
    // Out of time: the flag falls, or under art. 22.5's pass the move is
    // a pass (a computer still thinking has its answer dropped).
    policy::MoveChoice pass;
    pass.point = rules::kPass;
    Answer(pass, now);
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
  const Color c = game().to_play();
  if (!IsHuman(c)) {
    message_ = absl::StrCat("Wait: ", Label(c), " is to move.");
    return false;
  }
  // A person's illegal move is refused (not ruled on): try again.
  const rules::MoveVerdict v = game().Check(c, p);
  if (!v.legal()) {
    message_ = absl::StrCat("Illegal move ", PointName(p, options_.size), ": ",
                            IllegalReasonText(v.reason), ".");
    return false;
  }
  policy::MoveChoice choice;
  choice.point = p;
  return Answer(choice, now);
}

bool BoardSession::Answer(const absl::StatusOr<policy::MoveChoice>& choice,
                          absl::Time now) {
  const Color c = game().to_play();
  const match::Applied applied = match_.Apply(choice, now - turn_started_);
  if (applied.played) {
    AfterMove(applied.move, now);
    if (!applied.as_chosen && phase_ != Phase::kOver) {
      message_ = absl::StrCat(
          Label(c), "'s last period ran out: a pass (art. 22.5). ", message_);
    }
    return applied.as_chosen;
  }
  if (!match_.over()) return false;
  const match::MatchOutcome& out = match_.outcome();
  switch (out.end) {
    case match::End::kTime:
      EndGame(absl::StrCat(Label(c), " ran out of time."));
      break;
    case match::End::kResign:
      EndGame(absl::StrCat(Label(c), " resigns."));
      break;
    case match::End::kIllegalMove: {
      const match::IllegalAttempt& a = out.illegal_moves.back();
      EndGame(absl::StrCat(Label(c), " played the illegal move ",
                           match::VertexText(a.point, game().board()), ": ",
                           IllegalReasonText(a.reason), ", and forfeits."));
      break;
    }
    case match::End::kEngineFailure:
      EndGame(absl::StrCat(Label(c), " failed (",
                           absl::StatusCodeToString(choice.status().code()),
                           ": ", choice.status().message(), ") and forfeits."));
      break;
    default:
      EndGame(out.detail);
      break;
  }
  return false;
}

void BoardSession::AfterMove(rules::Move move, absl::Time now) {
  for (auto& computer : computers_) {
    if (computer != nullptr) computer->Played(game(), move);
  }
  const Color c = move.color;
  if (move.point == rules::kPass) {
    message_ = absl::StrCat(ColorWord(c), " passes.");
  } else {
    message_ =
        absl::StrCat(ColorWord(c), " ", PointName(move.point, options_.size));
    const int captured = game().board().last_play().captured;
    if (captured > 0) {
      absl::StrAppend(&message_, " captures ", captured,
                      captured == 1 ? " stone" : " stones");
    }
    absl::StrAppend(&message_, ".");
  }
  turn_started_ = now;
  if (match_.phase() == match::Phase::kSettling) {
    if (computers_[0] != nullptr && computers_[1] != nullptr) {
      // Two computers: the match asks them (art. 21.4 if they disagree).
      match::DeadStoneView views[2];
      for (int i = 0; i < 2; ++i) {
        absl::StatusOr<match::DeadStoneView> v =
            computers_[i]->DeadStones(game());
        if (v.ok()) views[i] = *std::move(v);
      }
      match_.Settle(views[0], views[1]);
      if (!match_.over()) {
        absl::StrAppend(&message_, " The dead stones are disputed: ",
                        ColorWord(game().to_play()),
                        " plays on first (art. 21.4).");
        return;
      }
      EndGame(absl::StrCat("Counted: ", match_.outcome().detail, "."));
      return;
    }
    phase_ = Phase::kCounting;
    // qipu's judgement marks the dead stones; the people confirm or
    // change them.
    dead_ = {};
    for (Point p : policy::JudgeDeadStones(game().board()).dead) {
      dead_[p] = true;
    }
    on_done_ = false;
    absl::StrAppend(&message_,
                    " Both passed: the stones marked x/o are judged dead; "
                    "Enter on a chain changes it, then d or [done] counts.");
    return;
  }
  if (match_.over()) {
    const rules::GameResult& r = match_.result();
    if (r.reason == rules::EndReason::kScore) {
      EndGame(absl::StrCat("Both passed: counted as the board stands."));
    } else {
      EndGame(r.reason == rules::EndReason::kCycle
                  ? "A balanced cycle ends the game."
                  : "The move cap ends the game.");
    }
    return;
  }
  if (move.point == rules::kPass) {
    absl::StrAppend(&message_, " ", ColorWord(game().to_play()),
                    " to play; another pass ends the game.");
  } else {
    absl::StrAppend(&message_, " ", ColorWord(game().to_play()), " to play.");
  }
}

void BoardSession::EndGame(const std::string& why) {
  phase_ = Phase::kOver;
  on_done_ = false;
  confirm_ = Action::kNone;
  message_ = absl::StrCat(why, " ", ResultText());
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
  if (game().num_moves() == 0) {
    message_ = "Nothing to take back.";
    return false;
  }
  const rules::Move undone = game().moves().back();
  Rewind(1);
  phase_ = Phase::kPlaying;
  dead_ = {};
  on_done_ = false;
  turn_started_ = now;
  message_ = absl::StrCat("Took back ", ColorWord(undone.color), " ",
                          PointName(undone.point, options_.size), ". ",
                          ColorWord(game().to_play()), " to play.");
  return true;
}

void BoardSession::Rewind(int n) {
  const match::MatchOutcome out = match_.outcome();
  const size_t keep =
      out.game.moves().size() - std::min<size_t>(n, out.game.moves().size());
  absl::StatusOr<match::Match> m = match::Match::Create(match_.options());
  if (!m.ok()) return;  // the options made this match before
  for (size_t i = 0; i < keep; ++i) {
    policy::MoveChoice choice;
    choice.point = out.game.moves()[i].point;
    m->Apply(choice, i < out.move_times.size() ? out.move_times[i].used
                                               : absl::ZeroDuration());
  }
  match_ = *std::move(m);
}

bool BoardSession::Resign(absl::Time now) {
  (void)now;
  if (phase_ == Phase::kOver) {
    message_ = "The game is over.";
    return false;
  }
  Color c = game().to_play();
  if (!IsHuman(c)) c = rules::Opponent(c);
  if (!IsHuman(c)) {
    message_ = "No person plays in this game: nobody can resign.";
    return false;
  }
  match_.Resign(c);
  EndGame(absl::StrCat(Label(c), " resigns."));
  return true;
}

// ---- Counting.

bool BoardSession::ToggleDead(Point p) {
  if (phase_ != Phase::kCounting) return false;
  const rules::Board& board = game().board();
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

void BoardSession::ClearDeadMarks() {
  if (phase_ == Phase::kCounting) dead_ = {};
}

std::vector<Point> BoardSession::MarkedDead() const {
  const rules::Board& board = game().board();
  std::vector<Point> marked;
  for (int i = 0; i < board.num_points(); ++i) {
    const Point q = rules::FromDenseIndex(i, board.width());
    if (dead_[q] && board.at(q) != Color::kEmpty) marked.push_back(q);
  }
  std::sort(marked.begin(), marked.end());
  return marked;
}

rules::AreaCount BoardSession::Count() const {
  return rules::CountArea(rules::WithoutStones(game().board(), MarkedDead()),
                          options_.rules.dame);
}

rules::GameResult BoardSession::CountedResult() const {
  return match_.CountWith(MarkedDead());
}

void BoardSession::FinishCounting(absl::Time now) {
  (void)now;
  if (phase_ != Phase::kCounting) return;
  const rules::AreaCount area = Count();
  // The people agreed on the marked stones.
  const std::vector<Point> marked = MarkedDead();
  match_.Settle(marked, marked);
  EndGame(absl::StrCat("Counted: Black ", area.black, ", White ", area.white,
                       ", komi ", options_.rules.komi, "."));
}

std::string BoardSession::ResultText() const {
  const std::string points = rules::ResultToSgf(result());
  const std::string stones = rules::ResultInStones(result());
  if (points == stones) return points;
  return absl::StrCat(points, " (", stones, ")");
}

// ---- Computer players.

bool BoardSession::ComputerToMove() const {
  return phase_ == Phase::kPlaying && !IsHuman(game().to_play());
}

BoardSession::ThinkJob BoardSession::PrepareThink(absl::Time now) {
  const Color c = game().to_play();
  match::MoveRequest request = match_.Request();
  // The move's time runs since turn_started_.
  const absl::Duration running = now - turn_started_;
  if (request.time_to_flag != absl::InfiniteDuration()) {
    request.time_to_flag =
        std::max(request.time_to_flag - running, absl::ZeroDuration());
    request.allot = std::max(
        std::min(request.allot, request.time_to_flag - absl::Seconds(0.5)),
        absl::Milliseconds(50));
  }
  thinking_for_ = game().num_moves();
  return ThinkJob{computers_[rules::PlayerIndex(c)].get(), game(), request};
}

void BoardSession::FinishThink(const absl::StatusOr<policy::MoveChoice>& choice,
                               absl::Time now) {
  // The game may have moved on while the computer thought (its time ran
  // out: a loss, or art. 22.5's pass).
  if (!ComputerToMove() || game().num_moves() != thinking_for_) return;
  thinking_for_ = -1;
  Answer(choice, now);
}

void BoardSession::ThinkAndPlay(absl::Time now) {
  ThinkJob job = PrepareThink(now);
  const absl::Time start = absl::Now();
  absl::StatusOr<policy::MoveChoice> choice =
      job.player->Choose(job.game, job.request);
  FinishThink(choice, now + (absl::Now() - start));
}

// ---- Records.

rules::GameRecord BoardSession::ToRecord() const {
  match::RecordInfo info;
  info.black_name = info.black_spec = options_.black;
  info.white_name = info.white_spec = options_.white;
  const std::string preset = rules::PresetName(options_.rules);
  info.rules_name = preset == "custom" ? "Chinese" : preset;
  info.date = absl::FormatTime("%Y-%m-%d", started_, absl::LocalTimeZone());
  rules::GameRecord rec = match::MatchRecord(match_.outcome(), info);
  rec.extra.emplace_back("AP", absl::StrCat("qipu:", base::Version()));
  if (phase_ != Phase::kOver) {
    // Not over: no result, and no word on how it ended.
    rec.result = rules::RecordResult{};
    std::erase_if(rec.extra, [](const auto& kv) { return kv.first == "GC"; });
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
